//! A rules engine for Carcassonne: the base game with farmers and every
//! farm-scoring option of the rule texts, The River, The Abbot, Inns &
//! Cathedrals and Traders & Builders, deterministic from a seed, fast
//! enough for search, with game records for save, replay and tests.
//!
//! ```
//! use carcassonne::{Game, Rules, Setup};
//!
//! // A two-player standard game, shuffled from seed 42.
//! let mut game = Game::new(Setup::standard(Rules::default(), 2, 42)).unwrap();
//! while let Some(mv) = game.legal_moves().first().copied() {
//!     game.play(&mv).unwrap();
//! }
//! assert!(game.is_over());
//! println!("scores: {:?}", game.scores());
//! ```
//!
//! The checked [`Game::play`] refuses an illegal move with an
//! [`IllegalMove`] saying which rule it breaks and leaves the game as it was;
//! [`Game::play_unchecked`] is the fast path for moves taken from
//! [`Game::legal_moves`], or built from [`Game::placements_into`] and
//! [`Game::actions_into`] (every decision: followers, the abbot and the
//! expansions' figures).

mod board;
mod deck;
mod error;
mod event;
mod expansion;
mod game;
mod geom;
mod moves;
mod random;
pub mod record;
mod rules;
mod scoring;
mod tile;
mod view;

pub use board::{Board, FeatureInfo, PlacedTile, MAX_TILES};
pub use deck::{seeded_rng, shuffle, shuffle_with, uniform_below, Setup};
pub use error::{IllegalMove, SetupError};
pub use event::{Event, PlayerId, Role, ScoredKind, Scoring, Seats, TurnNo, When};
pub use expansion::{Expansion, Good};
pub use game::{
    Action, Bonus, Figure, Follower, Game, HiddenMismatch, Move, Placement, FOLLOWERS, MAX_DECK, MAX_HAND, MAX_PLAYERS,
};
pub use geom::{Dir, Pos, Rotation, Spot, HALF_NAMES};
pub use moves::{PackedPlacements, PlacementCounts};
pub use random::RandomMover;
pub use rules::{
    CodeField, FarmRule, FirstPlayer, OptionKind, OptionValue, Preset, RuleOption, Rules, RulesError, Section,
    Unplaceable, RULE_OPTIONS,
};
pub use tile::{
    expansion_tiles, river_tiles, standard_deck, EdgeKind, SegmentDef, SegmentKind, TileDef, TileId, TILE_KINDS,
};
pub use view::View;

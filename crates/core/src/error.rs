//! Errors: an illegal move says which rule it breaks; a bad setup says why.

use std::fmt;

use crate::expansion::Expansion;
use crate::game::{Bonus, Figure};
use crate::geom::{Dir, Pos, Rotation, Spot};
use crate::tile::{EdgeKind, SegmentKind, TileId};

/// A move that the rules do not allow. The game is unchanged.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum IllegalMove {
    /// The game has ended.
    GameOver,
    /// The move plays another tile than the one drawn.
    WrongTile { expected: TileId, got: TileId },
    /// A tile already lies on that cell.
    CellOccupied { pos: Pos },
    /// The cell shares no edge with a placed tile.
    NotAdjacent { pos: Pos },
    /// An edge of the tile does not match its neighbour's.
    EdgeMismatch { tile: TileId, pos: Pos, rot: Rotation, side: Dir, ours: EdgeKind, theirs: EdgeKind },
    /// The spot names no segment of the tile as it lies.
    BadSpot { tile: TileId, rot: Rotation, spot: Spot },
    /// Farmers are not played with these rules.
    FarmersOff,
    /// The player has no follower in supply.
    NoFollower,
    /// The feature already holds a follower.
    FeatureOccupied { kind: SegmentKind, spot: Spot },
    /// With a hand: the tile is not one of the hand's.
    NotInHand { got: TileId },
    /// The cell lies beyond the table's edge (`board_limit`).
    OutsideTable { pos: Pos },
    /// A river tile that does not continue the river at its open end.
    RiverNotContinued { tile: TileId, pos: Pos },
    /// A river curve turning the same way as the curve just before it.
    RiverUTurn { tile: TileId, pos: Pos },
    /// A follower on a garden: only an abbot may stand there.
    GardenForAbbot,
    /// The abbot goes only on a cloister or a garden.
    AbbotSpot { spot: Spot },
    /// The abbot already stands on the board.
    AbbotInUse,
    /// A recall while the abbot is in supply.
    AbbotNotPlaced,
    /// A recall of an abbot whose cloister or garden this tile completes.
    RecallComplete,
    /// The abbot is not in play with these rules.
    NoAbbot,
    /// The move's tile belongs to an expansion not in play.
    TileNotInPlay { tile: TileId, expansion: Expansion },
    /// A figure the rules do not give the players (an expansion, or a part
    /// of one, is off): the big follower, the builder, the pig.
    FigureOff { figure: Figure },
    /// The player's big follower, builder or pig is already on the board.
    NotInSupply { figure: Figure },
    /// The builder goes on a road or city, the pig in a field.
    FigureSpot { figure: Figure, spot: Spot },
    /// The builder's road or city holds no follower of the player.
    BuilderNeedsFollower { kind: SegmentKind, spot: Spot },
    /// The builder onto a road or city this tile completes (it would go home at once).
    BuilderOnCompleted { kind: SegmentKind, spot: Spot },
    /// The pig's farm holds no farmer of the player.
    PigNeedsFarmer { spot: Spot },
    /// The builder's second tile is due and the move does not say so.
    BonusExpected { bonus: Bonus },
    /// The move says it is the builder's second tile, and none is due.
    BonusNotDue { bonus: Bonus },
}

impl IllegalMove {
    /// A stable code naming the rule (used by records' tests and the server).
    pub const fn code(&self) -> &'static str {
        match self {
            IllegalMove::GameOver => "game_over",
            IllegalMove::WrongTile { .. } => "wrong_tile",
            IllegalMove::CellOccupied { .. } => "cell_occupied",
            IllegalMove::NotAdjacent { .. } => "not_adjacent",
            IllegalMove::EdgeMismatch { .. } => "edge_mismatch",
            IllegalMove::BadSpot { .. } => "bad_spot",
            IllegalMove::FarmersOff => "farmers_off",
            IllegalMove::NoFollower => "no_follower",
            IllegalMove::FeatureOccupied { .. } => "feature_occupied",
            IllegalMove::NotInHand { .. } => "wrong_tile",
            IllegalMove::OutsideTable { .. } => "outside_table",
            IllegalMove::RiverNotContinued { .. } => "river_not_continued",
            IllegalMove::RiverUTurn { .. } => "river_u_turn",
            IllegalMove::GardenForAbbot => "garden_for_abbot",
            IllegalMove::AbbotSpot { .. } => "abbot_spot",
            IllegalMove::AbbotInUse => "abbot_in_use",
            IllegalMove::AbbotNotPlaced => "abbot_not_placed",
            IllegalMove::RecallComplete => "recall_complete",
            IllegalMove::NoAbbot => "no_abbot",
            IllegalMove::TileNotInPlay { .. } => "tile_not_in_play",
            IllegalMove::FigureOff { .. } => "figure_off",
            IllegalMove::NotInSupply { figure: Figure::BigFollower } => "no_big_follower",
            IllegalMove::NotInSupply { figure: Figure::Builder } => "no_builder",
            IllegalMove::NotInSupply { figure: Figure::Pig } => "no_pig",
            IllegalMove::NotInSupply { figure: Figure::Abbot } => "abbot_in_use",
            IllegalMove::NotInSupply { figure: Figure::Follower } => "no_follower",
            IllegalMove::FigureSpot { figure: Figure::Builder, .. } => "builder_spot",
            IllegalMove::FigureSpot { figure: Figure::Pig, .. } => "pig_spot",
            IllegalMove::FigureSpot { .. } => "bad_spot",
            IllegalMove::BuilderNeedsFollower { .. } => "builder_needs_follower",
            IllegalMove::BuilderOnCompleted { .. } => "builder_on_completed",
            IllegalMove::PigNeedsFarmer { .. } => "pig_needs_farmer",
            IllegalMove::BonusExpected { .. } => "bonus_expected",
            IllegalMove::BonusNotDue { .. } => "bonus_not_due",
        }
    }

    /// The parts of the broken rule a sentence about it needs, in words:
    /// for `edge_mismatch` the tile's `side` (`north`…) and the edges that
    /// meet (`ours`, `theirs`: `city`, `road`, `field`…), for
    /// `feature_occupied` the `feature` (`city`, `road`, `field`…); none
    /// for the other rules.
    pub fn facts(&self) -> Vec<(&'static str, &'static str)> {
        match *self {
            IllegalMove::EdgeMismatch { side, ours, theirs, .. } => {
                vec![("side", side.word()), ("ours", ours.word()), ("theirs", theirs.word())]
            }
            IllegalMove::FeatureOccupied { kind, .. } => vec![("feature", kind.word())],
            IllegalMove::BuilderNeedsFollower { kind, .. } | IllegalMove::BuilderOnCompleted { kind, .. } => {
                vec![("feature", kind.word())]
            }
            IllegalMove::FigureOff { figure } | IllegalMove::NotInSupply { figure } => {
                vec![("figure", figure.word())]
            }
            _ => Vec::new(),
        }
    }
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            IllegalMove::GameOver => write!(f, "the game is over: no tile is left to play"),
            IllegalMove::WrongTile { expected, got } => {
                write!(f, "tile {got} is not the tile drawn ({expected})")
            }
            IllegalMove::CellOccupied { pos } => write!(f, "a tile already lies at {pos}"),
            IllegalMove::NotAdjacent { pos } => {
                write!(f, "{pos} shares no edge with a placed tile")
            }
            IllegalMove::EdgeMismatch { tile, pos, rot, side, ours, theirs } => write!(
                f,
                "tile {tile} does not fit at {pos} rot {}: its {} edge ({}) meets a {}",
                rot.quarter_turns(),
                side.word(),
                ours.word(),
                theirs.word()
            ),
            IllegalMove::BadSpot { tile, rot, spot } => {
                write!(f, "spot {spot} names no segment of tile {tile} at rot {}", rot.quarter_turns())
            }
            IllegalMove::FarmersOff => write!(f, "farmers are not played with these rules"),
            IllegalMove::NoFollower => write!(f, "the player has no follower left in supply"),
            IllegalMove::FeatureOccupied { kind, spot } => {
                write!(f, "the {} at {spot} is already occupied", kind.word())
            }
            IllegalMove::NotInHand { got } => write!(f, "tile {got} is not in the player's hand"),
            IllegalMove::OutsideTable { pos } => write!(f, "{pos} lies beyond the table's edge"),
            IllegalMove::RiverNotContinued { tile, pos } => {
                write!(f, "river tile {tile} at {pos} does not continue the river at its open end")
            }
            IllegalMove::RiverUTurn { tile, pos } => {
                write!(f, "river tile {tile} at {pos} turns the same way as the curve before it (no U-turns)")
            }
            IllegalMove::GardenForAbbot => write!(f, "only an abbot may stand on a garden"),
            IllegalMove::AbbotSpot { spot } => write!(f, "the abbot goes on a cloister or a garden, not on {spot}"),
            IllegalMove::AbbotInUse => write!(f, "the player's abbot is already on the board"),
            IllegalMove::AbbotNotPlaced => write!(f, "the player's abbot is not on the board to recall"),
            IllegalMove::RecallComplete => {
                write!(f, "this tile completes the abbot's cloister or garden: it scores, it cannot be recalled")
            }
            IllegalMove::NoAbbot => write!(f, "the abbot is not in play with these rules"),
            IllegalMove::TileNotInPlay { tile, expansion } => write!(f, "tile {tile} needs {expansion}"),
            IllegalMove::FigureOff { figure } => write!(f, "the {} is not in play with these rules", figure.word()),
            IllegalMove::NotInSupply { figure } => write!(f, "no {} in supply", figure.word()),
            IllegalMove::FigureSpot { figure: Figure::Pig, spot } => {
                write!(f, "the pig goes in a field, not on {spot}")
            }
            IllegalMove::FigureSpot { figure, spot } => {
                write!(f, "the {} goes on a road or a city, not on {spot}", figure.word())
            }
            IllegalMove::BuilderNeedsFollower { kind, spot } => {
                write!(f, "the builder needs a follower of yours on the {} at {spot}", kind.word())
            }
            IllegalMove::BuilderOnCompleted { kind, spot } => {
                write!(f, "the builder cannot go on the {} at {spot}: this tile completes it", kind.word())
            }
            IllegalMove::PigNeedsFarmer { spot } => write!(f, "the pig needs a farmer of yours in the field at {spot}"),
            IllegalMove::BonusExpected { bonus } => {
                write!(f, "expected the {}'s extra tile (\"bonus\": \"{}\")", bonus.word(), bonus.word())
            }
            IllegalMove::BonusNotDue { bonus } => {
                write!(f, "\"bonus\": \"{}\" but no double turn is due", bonus.word())
            }
        }
    }
}

impl std::error::Error for IllegalMove {}

/// A game that cannot be set up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetupError {
    /// Not 2–6 players.
    PlayerCount(usize),
    /// More tiles than one game can place.
    DeckTooLong(usize),
    /// The first player is not a seat.
    FirstPlayer(u8),
    /// Options that do not fit together.
    Rules(crate::rules::RulesError),
    /// A tile of an expansion not in play (in the deck or as the start).
    TileNotInPlay { tile: TileId, expansion: Expansion },
}

impl SetupError {
    pub const fn code(&self) -> &'static str {
        match self {
            SetupError::PlayerCount(_) => "bad_players",
            SetupError::DeckTooLong(_) => "deck_too_long",
            SetupError::FirstPlayer(_) => "bad_first",
            SetupError::Rules(_) => "bad_rules",
            SetupError::TileNotInPlay { .. } => "tile_not_in_play",
        }
    }
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupError::PlayerCount(n) => write!(f, "a game has 2 to 6 players, not {n}"),
            SetupError::DeckTooLong(n) => {
                write!(f, "a deck of {n} tiles is longer than the {} one game can hold", crate::board::MAX_TILES - 1)
            }
            SetupError::FirstPlayer(s) => write!(f, "seat {s} is not at the table"),
            SetupError::Rules(e) => e.fmt(f),
            SetupError::TileNotInPlay { tile, expansion } => write!(f, "tile {tile} needs {expansion}"),
        }
    }
}

impl std::error::Error for SetupError {}

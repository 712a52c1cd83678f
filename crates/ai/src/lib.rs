//! Bots for Carcassonne: random, greedy and Monte Carlo tree search, an
//! arena that measures them fairly, the open bot protocol that lets bots in
//! other processes and languages play ([`protocol`], [`external`],
//! docs/bot-protocol.md), game reviews by the search ([`review`]), a
//! valuation learned from the search's playouts ([`learned`]), a network
//! trained by self-play ([`net`]) and a prior over the root's moves
//! learned from a long search ([`prior`]).
//!
//! A bot sees a game only through a [`carcassonne::View`]: what its player
//! sees, never the order of the tiles in the bag.
//!
//! ```
//! use carcassonne::{Game, Rules, Setup, View};
//! use carcassonne_ai::BotSpec;
//!
//! let mut game = Game::new(Setup::standard(Rules::default(), 2, 7)).unwrap();
//! let mut bots = [BotSpec::Greedy.build(1), "mcts:200it".parse::<BotSpec>().unwrap().build(2)];
//! for _ in 0..4 {
//!     let seat = game.to_move().unwrap();
//!     let mv = bots[seat.index()].choose(&View::new(&game, seat)).unwrap();
//!     game.play(&mv).unwrap();
//! }
//! ```

pub mod arena;
mod bot;
mod eval;
pub mod external;
mod greedy;
pub mod hint;
pub mod learned;
mod learned_weights;
mod mcts;
pub mod net;
mod net_weights;
pub mod npy;
pub mod parallel;
pub mod prior;
mod prior_weights;
pub mod protocol;
pub mod puzzle;
mod random_bot;
pub mod review;
mod sample;
mod seed;
pub mod stats;

pub use bot::{parse_specs, Bot, BotSpec, Difficulty, SpecError};
pub use eval::{Scratch, Valuation, Values};
pub use greedy::GreedyBot;
pub use mcts::{Budget, MctsBot, MctsConfig, SearchInfo};
pub use random_bot::RandomBot;
pub use sample::Determinizer;

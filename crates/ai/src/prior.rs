//! A prior over the root's moves, learned from a long search: how likely
//! a search of 30,000 iterations is to spend its visits on each move,
//! seen from the position after it.
//!
//! The search (`policy=1`) ranks the root's moves by it (progressive
//! widening opens them in its order) and weighs each by its probability
//! relative to the best's, where it ranks them by the valuation's margin
//! after each move otherwise. It foresees the long search's pick better
//! than those margins, but the search plays about as well with it as with
//! the network's margins (docs/ai.md, "A prior learned from a long
//! search"), so no level uses it.
//!
//! A move's inputs ([`INPUTS`], [`move_inputs`]): the network's margin
//! after it and the hand-set valuation's (the mover's points less the best
//! other seat's), then the network's inputs ([`crate::net::inputs`]) after
//! it for the mover and for the next seat to play. A small multilayer
//! perceptron scores them; the scores, softmaxed over the position's
//! moves, are the prior. The weights (`prior_weights.rs`) are written by
//! `crates/ai/training/fit_prior.py` from the rows the `policy_rows`
//! example records, which go through [`move_inputs`] too.
//!
//! ```
//! use carcassonne::{Game, Rules, Setup};
//! use carcassonne_ai::prior::Prior;
//!
//! let game = Game::new(Setup::standard(Rules::default(), 2, 7)).unwrap();
//! let moves = game.legal_moves();
//! let me = game.to_move().unwrap();
//! let p = Prior::shared().probabilities(&game, &moves, me);
//! assert_eq!(p.len(), moves.len());
//! assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-9);
//! ```

use std::sync::OnceLock;

use carcassonne::{Game, Move, PlayerId, MAX_PLAYERS};

use crate::eval::{Scratch, Valuation, Values};
use crate::greedy::after_each;
use crate::net::{self, Mlp, Net};
use crate::prior_weights as w;

/// Figures per move: the two margins after it, then the network's inputs
/// after it for the mover and for the next seat.
pub const INPUTS: usize = 2 + 2 * net::INPUTS;

/// The prior's weights (the committed ones by default).
#[derive(Clone, Debug, PartialEq)]
pub struct Prior {
    mlp: Mlp<INPUTS, { w::HIDDEN }>,
}

impl Default for Prior {
    fn default() -> Self {
        Prior { mlp: Mlp { w1: w::W1, b1: w::B1, w2: w::W2, b2: w::B2, w3: w::W3, b3: w::B3 } }
    }
}

impl Prior {
    /// The committed prior, made once.
    pub fn shared() -> &'static Prior {
        static PRIOR: OnceLock<Prior> = OnceLock::new();
        PRIOR.get_or_init(Prior::default)
    }

    /// The score of a move with inputs `x` (a logit: the prior is the
    /// softmax of the position's scores).
    pub fn score(&self, x: &[f32; INPUTS]) -> f32 {
        self.mlp.output(x)
    }

    /// The score of each of `moves`, legal in `game`, for `me` to play.
    pub fn scores(&self, game: &Game, moves: &[Move], me: PlayerId) -> Vec<f64> {
        after_each(game, moves, |after, scratch| f64::from(self.score(&move_inputs(after, me, scratch))))
    }

    /// The prior's probability of each of `moves`, legal in `game`.
    pub fn probabilities(&self, game: &Game, moves: &[Move], me: PlayerId) -> Vec<f64> {
        let scores = self.scores(game, moves, me);
        let best = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let weights: Vec<f64> = scores.iter().map(|s| (s - best).exp()).collect();
        let total: f64 = weights.iter().sum();
        weights.iter().map(|w| w / total).collect()
    }
}

/// A move's inputs (see the module docs) in `after`, the position it led
/// to, for `seat`, who played it. The network's inputs are zeros once the
/// game is over.
pub fn move_inputs(after: &Game, seat: PlayerId, scratch: &mut Scratch) -> [f32; INPUTS] {
    let n = after.num_players();
    let next = PlayerId(((seat.index() + 1) % n) as u8);
    let x = if after.is_over() { [[0.0; net::INPUTS]; MAX_PLAYERS] } else { net::inputs(after, scratch) };
    let mut out = [0f32; INPUTS];
    out[0] = Net::shared().margin(after, seat, scratch) as f32;
    out[1] = Valuation::default().margin(after, seat, scratch) as f32;
    out[2..2 + net::INPUTS].copy_from_slice(&x[seat.index()]);
    out[2 + net::INPUTS..].copy_from_slice(&x[next.index()]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The prior gives what the fitting script's PyTorch model gave on the
    /// rows it wrote beside the weights (`prior_weights::CHECK`).
    #[test]
    fn the_prior_matches_the_fitted_model() {
        Prior::default().mlp.assert_matches(&w::CHECK);
    }
}

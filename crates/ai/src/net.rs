//! A valuation network trained by self-play: what each seat will still
//! score, predicted from the position by a small multilayer perceptron.
//!
//! The search (`net=1`) uses it twice: to rank and weigh the moves at the
//! root (the network's margin after each move, where the greedy valuation
//! ranks them otherwise) and to value a playout cut short (`depth=k`). Its
//! targets are what good play scored: the final scores of games played by
//! the search itself (expert iteration; docs/ai.md, "A network trained by
//! self-play"). The network sees what every player sees, never the bag's
//! order.
//!
//! Inputs, per seat ([`INPUTS`]): the ten features of [`crate::learned`]
//! (the open roads, cities, cloisters and farms the seat holds, its
//! followers in supply), its score, what the hand-set valuation adds to
//! it, the bag's share left and its square, how many seats play before
//! it, then the same twelve figures averaged over the other seats. Output:
//! the points the seat will still score. Two hidden layers of
//! [`HIDDEN`] rectified units; the inputs' scaling is folded into the first
//! layer. The weights (`net_weights.rs`) are written by
//! `crates/ai/training/train_net.py` from the rows `selfplay` records, and
//! evaluated here with no dependency: a few small matrix products.
//!
//! ```
//! use carcassonne::{Game, Rules, Setup};
//! use carcassonne_ai::net::Net;
//!
//! let game = Game::new(Setup::standard(Rules::default(), 2, 7)).unwrap();
//! let mut values = [0.0; carcassonne::MAX_PLAYERS];
//! Net::default().values(&game, &mut Default::default(), &mut values);
//! // The first player expects to score about as much as the second.
//! assert!(values[0] > 40.0 && (values[0] - values[1]).abs() < 15.0);
//! ```

use std::sync::OnceLock;

use carcassonne::{Game, PlayerId, MAX_PLAYERS};

use crate::eval::{features, Scratch, Valuation, Values, FEATURES, FULL_BAG};
use crate::net_weights as w;

/// Figures per seat: the features, score and valuation of the seat, the
/// bag, the seat's place in the turn order, then the others' averages.
pub const INPUTS: usize = 2 * (FEATURES + 2) + 3;

/// Units in each hidden layer.
pub const HIDDEN: usize = w::HIDDEN;

/// The network's weights (the committed ones by default).
#[derive(Clone, Debug, PartialEq)]
pub struct Net {
    mlp: Mlp<INPUTS, HIDDEN>,
}

impl Default for Net {
    fn default() -> Self {
        Net { mlp: Mlp { w1: w::W1, b1: w::B1, w2: w::W2, b2: w::B2, w3: w::W3, b3: w::B3 } }
    }
}

/// A multilayer perceptron: `IN` inputs, two hidden layers of `H`
/// rectified units, one output; the shape of the valuation network and of
/// the prior ([`crate::prior`]), whose weights the training scripts write.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Mlp<const IN: usize, const H: usize> {
    pub(crate) w1: [[f32; IN]; H],
    pub(crate) b1: [f32; H],
    pub(crate) w2: [[f32; H]; H],
    pub(crate) b2: [f32; H],
    pub(crate) w3: [f32; H],
    pub(crate) b3: f32,
}

impl<const IN: usize, const H: usize> Mlp<IN, H> {
    /// The output for inputs `x`.
    pub(crate) fn output(&self, x: &[f32; IN]) -> f32 {
        let mut h1 = [0f32; H];
        for (h, (row, b)) in h1.iter_mut().zip(self.w1.iter().zip(&self.b1)) {
            *h = (dot(row, x) + b).max(0.0);
        }
        let mut out = self.b3;
        for (row, (b, w3)) in self.w2.iter().zip(self.b2.iter().zip(&self.w3)) {
            out += w3 * (dot(row, &h1) + b).max(0.0);
        }
        out
    }

    /// Panics unless the outputs are the `check` rows' (inputs and the
    /// trained model's output, written beside the weights), to a
    /// thousandth: the weights were carried over whole.
    #[cfg(test)]
    pub(crate) fn assert_matches(&self, check: &[([f32; IN], f32)]) {
        assert!(check.len() >= 4, "the weights file carries rows to check");
        for (x, want) in check {
            let got = self.output(x);
            assert!((got - want).abs() <= 1e-3 * want.abs().max(1.0), "{got} against {want} for {x:?}");
        }
    }
}

impl Net {
    /// The committed network, made once.
    pub fn shared() -> &'static Net {
        static NET: OnceLock<Net> = OnceLock::new();
        NET.get_or_init(Net::default)
    }

    /// Each seat's expected final score: its score plus the points the
    /// network predicts it will still score (a finished game is worth its
    /// scores).
    pub fn values(&self, game: &Game, scratch: &mut Scratch, out: &mut [f64; MAX_PLAYERS]) {
        *out = [0.0; MAX_PLAYERS];
        for (o, &s) in out.iter_mut().zip(game.scores()) {
            *o = f64::from(s);
        }
        if game.is_over() {
            return;
        }
        let x = inputs(game, scratch);
        for (o, x) in out.iter_mut().zip(&x).take(game.num_players()) {
            *o += f64::from(self.gain(x));
        }
    }

    /// The points a seat with inputs `x` will still score.
    pub fn gain(&self, x: &[f32; INPUTS]) -> f32 {
        self.mlp.output(x)
    }
}

impl Values for Net {
    fn values(&self, game: &Game, scratch: &mut Scratch, out: &mut [f64; MAX_PLAYERS]) {
        Net::values(self, game, scratch, out);
    }
}

/// A dot product in eight lanes, which the compiler keeps in vector registers.
#[inline]
fn dot<const N: usize>(a: &[f32; N], b: &[f32; N]) -> f32 {
    let mut lanes = [0f32; 8];
    let (ca, cb) = (a.chunks_exact(8), b.chunks_exact(8));
    let (ra, rb) = (ca.remainder(), cb.remainder());
    for (x, y) in ca.zip(cb) {
        for k in 0..8 {
            lanes[k] += x[k] * y[k];
        }
    }
    let tail: f32 = ra.iter().zip(rb).map(|(x, y)| x * y).sum();
    lanes.iter().sum::<f32>() + tail
}

/// Each seat's inputs (see the module docs) in `game`, which is not over.
pub fn inputs(game: &Game, scratch: &mut Scratch) -> [[f32; INPUTS]; MAX_PLAYERS] {
    let n = game.num_players();
    let mut feats = [[0.0; FEATURES]; MAX_PLAYERS];
    features(game, scratch, &mut feats);
    let mut valued = [0.0; MAX_PLAYERS];
    Valuation::default().values(game, scratch, &mut valued);
    // Per seat: its features, score and what the valuation adds to it.
    let mut own = [[0f32; FEATURES + 2]; MAX_PLAYERS];
    for p in 0..n {
        for (o, &f) in own[p].iter_mut().zip(&feats[p]) {
            *o = f as f32;
        }
        let score = game.scores()[p] as f32;
        own[p][FEATURES] = score;
        own[p][FEATURES + 1] = valued[p] as f32 - score;
    }
    let phase = game.tiles_left() as f32 / FULL_BAG as f32;
    let to_move = game.to_move().map_or(0, PlayerId::index);
    let mut out = [[0f32; INPUTS]; MAX_PLAYERS];
    for p in 0..n {
        let x = &mut out[p];
        x[..FEATURES + 2].copy_from_slice(&own[p]);
        x[FEATURES + 2] = phase;
        x[FEATURES + 3] = phase * phase;
        x[FEATURES + 4] = ((p + n - to_move) % n) as f32 / n as f32;
        let others = &mut x[FEATURES + 5..];
        for q in (0..n).filter(|&q| q != p) {
            for (o, &v) in others.iter_mut().zip(&own[q]) {
                *o += v / (n - 1) as f32;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use carcassonne::{seeded_rng, RandomMover, Rules, Setup};

    /// The inputs are what every player sees: the same game with the bag
    /// in another order gives the same inputs; and each seat's own figures
    /// are the other seat's "others" in a two-player game.
    #[test]
    fn the_inputs_are_public_and_seen_from_each_seat() {
        for seed in 0..20u64 {
            let mut g = Game::new(Setup::standard(Rules::default(), 2, seed)).unwrap();
            let mut rng = seeded_rng(seed);
            let mut mover = RandomMover::new();
            for _ in 0..(5 + seed * 3) {
                let mv = mover.choose(&g, &mut rng).unwrap();
                g.play_unchecked(&mv);
            }
            let mut other = g.clone();
            other.shuffle_bag(&mut seeded_rng(seed + 100));
            assert_ne!(g.deck(), other.deck());
            let mut scratch = Scratch::default();
            let x = inputs(&g, &mut scratch);
            assert_eq!(x, inputs(&other, &mut scratch), "seed {seed}");
            assert_eq!(x[0][..FEATURES + 2], x[1][FEATURES + 5..], "seed {seed}");
            assert_eq!(x[1][..FEATURES + 2], x[0][FEATURES + 5..], "seed {seed}");
            assert_eq!(x[0][FEATURES + 2], g.tiles_left() as f32 / FULL_BAG as f32);
        }
    }

    /// The network gives what the training script's PyTorch model gave on
    /// the rows it wrote beside the weights (`net_weights::CHECK`): the
    /// weights were carried over whole, and the products are the same.
    #[test]
    fn the_network_matches_the_trained_model() {
        Net::default().mlp.assert_matches(&w::CHECK);
    }
}

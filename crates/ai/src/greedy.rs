//! The greedy bot: the move with the best valuation one move ahead.

use carcassonne::{seeded_rng, uniform_below, Game, Move, View};

use crate::bot::Bot;
use crate::eval::{Scratch, Valuation, Values};
use crate::sample::Determinizer;
use crate::seed::decision_seed;

/// Plays every legal move on a copy of the position and keeps the one after
/// which its margin (its worth minus the best opponent's, see
/// [`Valuation`]) is largest: the points the move scores at once, plus what
/// it changes in the worth of open features and followers. Ties are broken
/// at random from the seed.
#[derive(Clone, Debug)]
pub struct GreedyBot {
    seed: u64,
    valuation: Valuation,
}

impl GreedyBot {
    pub fn new(seed: u64) -> GreedyBot {
        GreedyBot { seed, valuation: Valuation::default() }
    }

    pub fn with_valuation(seed: u64, valuation: Valuation) -> GreedyBot {
        GreedyBot { seed, valuation }
    }
}

impl Bot for GreedyBot {
    fn name(&self) -> String {
        "greedy".into()
    }

    fn choose(&mut self, view: &View<'_>) -> Option<Move> {
        let moves = view.legal_moves();
        let me = view.to_move()?;
        if moves.len() <= 1 {
            return moves.first().copied();
        }
        let det = Determinizer::new(view);
        let scored = score_moves(det.base(), &moves, me, &self.valuation);
        let best = scored.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let ties: Vec<usize> = (0..moves.len()).filter(|&i| scored[i] >= best - 1e-9).collect();
        let mut rng = seeded_rng(decision_seed(self.seed, view));
        Some(moves[ties[uniform_below(&mut rng, ties.len() as u32) as usize]])
    }
}

/// The margin of `me` after each move, played on copies of `base`.
pub(crate) fn score_moves(base: &Game, moves: &[Move], me: carcassonne::PlayerId, valuation: &dyn Values) -> Vec<f64> {
    after_each(base, moves, |g, scratch| valuation.margin(g, me, scratch))
}

/// `score` of the position after each move, played on copies of `base`.
pub(crate) fn after_each(base: &Game, moves: &[Move], mut score: impl FnMut(&Game, &mut Scratch) -> f64) -> Vec<f64> {
    let mut scratch = Scratch::default();
    let mut g = base.clone();
    moves
        .iter()
        .map(|mv| {
            g.clone_from(base);
            g.play_unchecked(mv);
            score(&g, &mut scratch)
        })
        .collect()
}

//! The random bot: a uniformly random legal move.

use carcassonne::{seeded_rng, uniform_below, Move, View};

use crate::bot::Bot;
use crate::seed::decision_seed;

/// Plays a uniformly random legal move (each placement-and-follower choice
/// equally likely).
#[derive(Clone, Debug)]
pub struct RandomBot {
    seed: u64,
}

impl RandomBot {
    pub fn new(seed: u64) -> RandomBot {
        RandomBot { seed }
    }
}

impl Bot for RandomBot {
    fn name(&self) -> String {
        "random".into()
    }

    fn choose(&mut self, view: &View<'_>) -> Option<Move> {
        let moves = view.legal_moves();
        if moves.is_empty() {
            return None;
        }
        let mut rng = seeded_rng(decision_seed(self.seed, view));
        Some(moves[uniform_below(&mut rng, moves.len() as u32) as usize])
    }
}

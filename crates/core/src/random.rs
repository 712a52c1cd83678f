//! Uniformly random moves: the engine's own playout policy, used by the
//! `bench` command, the property tests and search playouts.

use rand_core::RngCore;

use crate::deck::uniform_below;
use crate::game::{Action, Game, Move};
use crate::moves::PlacementCounts;

/// Picks random legal moves, reusing its buffers so that a playout does not
/// allocate.
#[derive(Clone, Debug, Default)]
pub struct RandomMover {
    counts: PlacementCounts,
    actions: Vec<Action>,
}

impl RandomMover {
    pub fn new() -> RandomMover {
        RandomMover { counts: PlacementCounts::default(), actions: Vec::with_capacity(16) }
    }

    /// A legal move for the player to move: a tile and placement uniformly
    /// among all legal ones (full enumeration), then uniformly one of the
    /// decisions after it (no follower, each follower spot, the other
    /// figures' spots, the abbot's).
    /// `None` once the game is over.
    #[inline(always)]
    pub fn choose(&mut self, game: &Game, rng: &mut impl RngCore) -> Option<Move> {
        // Counted, then the one drawn found (not listed): the same
        // placement as entry `uniform_below(len)` of `packed_placements`.
        game.count_placements(&mut self.counts);
        if self.counts.is_empty() {
            return None;
        }
        let (tile, p) = self.counts.get(uniform_below(rng, self.counts.len() as u32) as usize, game);
        self.actions.clear();
        game.actions_into(tile, p, &mut self.actions);
        let action = self.actions[uniform_below(rng, self.actions.len() as u32) as usize];
        Some(Move { tile, pos: p.pos, rot: p.rot, action, bonus: game.bonus() })
    }

    /// Plays random moves (unchecked) until the game ends.
    pub fn playout(&mut self, game: &mut Game, rng: &mut impl RngCore) {
        while let Some(mv) = self.choose(game, rng) {
            game.play_unchecked(&mv);
        }
    }
}

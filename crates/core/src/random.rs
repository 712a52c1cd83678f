//! Uniformly random moves: the engine's own playout policy, used by the
//! `bench` command, the property tests and search playouts.

use rand_core::RngCore;

use crate::game::{uniform_below, Action, Game, Move, PackedPlacements};
use crate::geom::Spot;

/// Picks random legal moves, reusing its buffers so that a playout does not
/// allocate.
#[derive(Clone, Debug, Default)]
pub struct RandomMover {
    placements: PackedPlacements,
    spots: Vec<Spot>,
}

impl RandomMover {
    pub fn new() -> RandomMover {
        RandomMover { placements: PackedPlacements::new(), spots: Vec::with_capacity(16) }
    }

    /// A legal move for the player to move: a placement uniformly among all
    /// legal ones (full enumeration), then uniformly one of "no follower" and
    /// each legal follower spot. `None` once the game is over.
    pub fn choose(&mut self, game: &Game, rng: &mut impl RngCore) -> Option<Move> {
        let tile = game.tile()?;
        game.packed_placements(&mut self.placements);
        let p = self.placements.get(uniform_below(rng, self.placements.len() as u32) as usize, game);
        self.spots.clear();
        game.spots_into(p, &mut self.spots);
        let k = uniform_below(rng, self.spots.len() as u32 + 1) as usize;
        let action = self.spots.get(k).map_or(Action::Pass, |&s| Action::Follower(s));
        Some(Move { tile, pos: p.pos, rot: p.rot, action })
    }

    /// Plays random moves (unchecked) until the game ends.
    pub fn playout(&mut self, game: &mut Game, rng: &mut impl RngCore) {
        while let Some(mv) = self.choose(game, rng) {
            game.play_unchecked(&mv);
        }
    }
}

//! Uniformly random moves: the engine's own playout policy, used by the
//! `bench` command, the property tests and search playouts.

use rand_core::RngCore;

use crate::deck::uniform_below;
use crate::game::{Action, Game, Move, Placement};
use crate::moves::PlacementCounts;
use crate::tile::TileId;

/// Picks random legal moves, reusing its buffers so that a playout does not
/// allocate.
#[derive(Clone, Debug, Default)]
pub struct RandomMover {
    counts: PlacementCounts,
    actions: Vec<Action>,
}

/// Random draws of a cell and rotation before [`RandomMover::choose`]
/// counts instead (four at a time). Random games take about 1.6 draws of
/// four a turn; 2–3 % of turns (a tile with few places) miss sixteen.
const TRIES: u32 = 16;

impl RandomMover {
    pub fn new() -> RandomMover {
        RandomMover { counts: PlacementCounts::default(), actions: Vec::with_capacity(16) }
    }

    /// A legal move for the player to move: a tile and placement uniformly
    /// among all legal ones, then uniformly one of the decisions after it
    /// (no follower, each follower spot, the other figures' spots, the
    /// abbot's). `None` once the game is over.
    ///
    /// The placement is drawn by rejection where it can be (one kind of
    /// tile in hand, not a river tile): a frontier cell and a rotation
    /// drawn uniformly until one fits, which is uniform among those that
    /// fit, at a cost that does not grow with the frontier. After
    /// sixteen misses, or with a hand of several kinds, the placements
    /// are counted and one drawn by its rank: uniform again, so the
    /// mixture is.
    #[inline(always)]
    pub fn choose(&mut self, game: &Game, rng: &mut impl RngCore) -> Option<Move> {
        let (tile, p) = self.placement(game, rng, TRIES)?;
        self.actions.clear();
        game.actions_into(tile, p, &mut self.actions);
        let action = self.actions[uniform_below(rng, self.actions.len() as u32) as usize];
        Some(Move { tile, pos: p.pos, rot: p.rot, action, bonus: game.bonus() })
    }

    /// The placement of [`RandomMover::choose`], with `tries` draws before counting.
    #[inline(always)]
    fn placement(&mut self, game: &Game, rng: &mut impl RngCore, tries: u32) -> Option<(TileId, Placement)> {
        if let Some(drawn) = game.try_draw_placement(rng, tries) {
            return Some(drawn);
        }
        // Counted, then the one drawn found (not listed): the same
        // placement as entry `uniform_below(len)` of `packed_placements`.
        game.count_placements(&mut self.counts);
        if self.counts.is_empty() {
            return None;
        }
        Some(self.counts.get(uniform_below(rng, self.counts.len() as u32) as usize, game))
    }

    /// Plays random moves (unchecked) until the game ends.
    pub fn playout(&mut self, game: &mut Game, rng: &mut impl RngCore) {
        while let Some(mv) = self.choose(game, rng) {
            game.play_unchecked(&mv);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{seeded_rng, Rules, Setup};
    use std::collections::HashMap;

    /// Drawn by rejection (then counted after the misses) or only counted,
    /// every legal placement comes up about as often as the others, and
    /// nothing else comes up.
    #[test]
    fn placements_are_drawn_uniformly() {
        for (rules, players, tries) in [("standard", 2, TRIES), ("big-box", 3, TRIES), ("standard", 2, 0)] {
            let mut game = Game::new(Setup::standard(Rules::parse(rules).unwrap(), players, 3)).unwrap();
            let (mut mover, mut rng) = (RandomMover::new(), seeded_rng(5));
            for _ in 0..30 {
                let mv = mover.choose(&game, &mut rng).unwrap();
                game.play_unchecked(&mv);
            }
            let tile = game.tile().unwrap();
            let legal = game.placements();
            assert!(legal.len() > 10, "{rules}: {} placements", legal.len());
            let draws = 400 * legal.len();
            let mut seen: HashMap<(TileId, Placement), usize> = HashMap::new();
            for _ in 0..draws {
                *seen.entry(mover.placement(&game, &mut rng, tries).unwrap()).or_default() += 1;
            }
            assert_eq!(seen.len(), legal.len(), "{rules}: every placement drawn, none else");
            for p in &legal {
                let n = seen[&(tile, *p)];
                assert!((300..=500).contains(&n), "{rules}, {tries} tries: {p:?} drawn {n} times in {draws}");
            }
        }
    }
}

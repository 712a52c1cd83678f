//! Setting up a game: the deck, the seeded generator and shuffles.

use rand_core::{RngCore, SeedableRng};

use crate::event::PlayerId;
use crate::expansion::Expansion;
use crate::geom::Rotation;
use crate::rules::{FirstPlayer, Rules};
use crate::tile::{tables, TileId};

/// Everything needed to start a game, not yet checked (see [`crate::Game::new`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    pub rules: Rules,
    pub players: usize,
    pub start: TileId,
    pub start_rot: Rotation,
    /// The draws after the start tile, first draw first (hands at setup
    /// included, in seat order).
    pub deck: Vec<TileId>,
    pub first: PlayerId,
    /// With a seed, the bag is live: a tile sent back by the `reshuffle`
    /// house rule goes back in at a random place drawn from this seed.
    /// Without one, `deck` is the exact sequence of draws, as in a record.
    pub live_seed: Option<u64>,
}

impl Setup {
    /// A game with the standard deck for the rules shuffled from `seed`: with
    /// The River, the river tiles first (the lake last of them), then the
    /// land tiles (the expansions' among them). The seed also picks the first player when the rules say
    /// so.
    pub fn standard(rules: Rules, players: usize, seed: u64) -> Setup {
        let mut rng = seeded_rng(seed);
        let tiles = tables();
        let river: &[TileId] = if rules.river { &tiles.river_tiles } else { &[] };
        // The expansions' tiles are shuffled into the land tiles.
        let expansions = Expansion::ALL.into_iter().filter(|&e| rules.has(e));
        let land = tiles.standard_deck.len()
            + expansions.clone().map(|e| tiles.expansion_tiles[e as usize].len()).sum::<usize>();
        // One allocation: the river's tiles but the spring, the lake last
        // of them, then the land's.
        let mut deck = Vec::with_capacity(river.len() + land);
        deck.extend(river.iter().filter(|&&t| t != TileId::SPRING && t != TileId::LAKE));
        deck.extend(river.iter().find(|&&t| t == TileId::LAKE));
        let land_from = deck.len();
        deck.extend_from_slice(&tiles.standard_deck);
        for e in expansions {
            deck.extend_from_slice(&tiles.expansion_tiles[e as usize]);
        }
        // The land shuffled first, then the river above the lake: the
        // draws each seed has always given.
        shuffle_with(&mut deck[land_from..], &mut rng);
        if let Some(lake) = land_from.checked_sub(1) {
            shuffle_with(&mut deck[..lake], &mut rng);
        }
        let start = if rules.river { TileId::SPRING } else { TileId::START };
        let first = match rules.first_player {
            FirstPlayer::Seat0 => PlayerId(0),
            FirstPlayer::Random => PlayerId(uniform_below(&mut rng, players.clamp(1, 6) as u32) as u8),
        };
        Setup { rules, players, start, start_rot: Rotation::default(), deck, first, live_seed: Some(rng.next_u64()) }
    }

    /// A game with exactly these draws after the start tile (the spring
    /// with The River, else `D`).
    pub fn with_deck(rules: Rules, players: usize, deck: Vec<TileId>) -> Setup {
        let start = if rules.river { TileId::SPRING } else { TileId::START };
        Setup { rules, players, start, start_rot: Rotation::default(), deck, first: PlayerId(0), live_seed: None }
    }
}

/// The pinned generator for seeded shuffles: ChaCha8 keyed by the seed's
/// little-endian bytes (the rest of the key zero). A seed shuffles the same
/// way forever.
pub fn seeded_rng(seed: u64) -> rand_chacha::ChaCha8Rng {
    let mut key = [0u8; 32];
    key[..8].copy_from_slice(&seed.to_le_bytes());
    rand_chacha::ChaCha8Rng::from_seed(key)
}

/// A uniform integer below `n` (> 0), unbiased, by Lemire's
/// multiply-and-reject method on 32-bit words; the mapping from random words
/// to results is pinned here, not by a library.
#[inline]
pub fn uniform_below(rng: &mut impl RngCore, n: u32) -> u32 {
    debug_assert!(n > 0);
    let mut m = rng.next_u32() as u64 * n as u64;
    if (m as u32) < n {
        let threshold = n.wrapping_neg() % n;
        while (m as u32) < threshold {
            m = rng.next_u32() as u64 * n as u64;
        }
    }
    (m >> 32) as u32
}

/// Shuffles `deck` from `seed` (Fisher–Yates from the back, with [`seeded_rng`]).
pub fn shuffle(deck: &mut [TileId], seed: u64) {
    shuffle_with(deck, &mut seeded_rng(seed));
}

/// Shuffles with a given generator (Fisher–Yates from the back).
pub fn shuffle_with<T>(items: &mut [T], rng: &mut impl RngCore) {
    for i in (1..items.len()).rev() {
        let j = uniform_below(rng, i as u32 + 1) as usize;
        items.swap(i, j);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tile::standard_deck;

    #[test]
    fn seeded_shuffle_is_pinned() {
        let mut a = standard_deck();
        let mut b = standard_deck();
        shuffle(&mut a, 7);
        shuffle(&mut b, 7);
        assert_eq!(a, b);
        shuffle(&mut b, 8);
        assert_ne!(a, b);
        // Pinned: the first draws of seed 1 never change.
        let mut c = standard_deck();
        shuffle(&mut c, 1);
        let names: Vec<&str> = c.iter().take(6).map(|t| t.name()).collect();
        assert_eq!(names, ["Vg", "H", "N", "T", "X", "B"]);
        assert_eq!(Setup::standard(Rules::default(), 2, 1).deck, c);
    }

    #[test]
    fn the_river_comes_first_with_the_lake_last() {
        let rules = Rules { river: true, ..Rules::default() };
        let s = Setup::standard(rules, 3, 9);
        assert_eq!(s.start.name(), "RV01");
        assert_eq!(s.deck.len(), 11 + 71);
        assert!(s.deck[..11].iter().all(|t| t.is_river()));
        assert_eq!(s.deck[10].name(), "RV02");
        assert!(s.deck[11..].iter().all(|t| !t.is_river()));
    }

    #[test]
    fn uniform_below_covers_the_range() {
        let mut rng = seeded_rng(0);
        let mut seen = [0u32; 7];
        for _ in 0..7000 {
            seen[uniform_below(&mut rng, 7) as usize] += 1;
        }
        assert!(seen.iter().all(|&n| (800..1200).contains(&n)), "{seen:?}");
    }
}

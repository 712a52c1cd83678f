//! Seeds: every random choice of a bot comes from its seed and the position,
//! so a decision is a function of what the bot sees.

use carcassonne::View;

/// SplitMix64's finalizer: a well-mixed 64-bit hash of `x`.
pub fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// A seed derived from `seed` and a list of values.
pub fn derive(seed: u64, parts: &[u64]) -> u64 {
    parts.iter().fold(mix(seed), |acc, &p| mix(acc ^ p))
}

/// The seed of one decision: the bot's seed, the move number and the seat.
pub fn decision_seed(seed: u64, view: &View<'_>) -> u64 {
    derive(seed, &[view.moves_played() as u64, view.player().0 as u64])
}

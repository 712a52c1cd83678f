//! Maps that grow with their keys (client addresses, games, names) and are
//! pruned of what no longer counts, at a bounded cost a request.
//!
//! Pruning on every request once a map is past a fixed size costs a scan of
//! the whole map each time: a crowd of 10,000 addresses (or 10,000 games
//! from one) made every request O(n). A [`Pruning`] prunes only once the map
//! has doubled since what the last pruning kept, so each request pays O(1)
//! amortised however many keys there are.

use std::hash::Hash;
use std::sync::atomic::{AtomicUsize, Ordering};

use governor::clock::{Clock, DefaultClock};

/// When a map is next due to be pruned.
pub struct Pruning {
    /// Never pruned below this length.
    floor: usize,
    /// Past this length (twice what was kept last time) it is pruned again.
    at: AtomicUsize,
}

impl Pruning {
    /// Prunes a map only once it is longer than `floor`.
    pub const fn new(floor: usize) -> Pruning {
        Pruning { floor, at: AtomicUsize::new(0) }
    }

    /// Whether a map of `len` entries is due.
    pub fn due(&self, len: usize) -> bool {
        len > self.at.load(Ordering::Relaxed).max(self.floor)
    }

    /// Notes a pruning that kept `kept` entries.
    pub fn pruned(&self, kept: usize) {
        self.at.store(kept.saturating_mul(2), Ordering::Relaxed);
    }

    /// Runs `prune` if a map of `len` entries is due, `prune` returning how
    /// many entries it kept.
    pub fn maybe(&self, len: usize, prune: impl FnOnce() -> usize) {
        if self.due(len) {
            self.pruned(prune());
        }
    }
}

/// How long a refused key waits (governor's answer).
pub type NotUntil = governor::NotUntil<<DefaultClock as Clock>::Instant>;

/// A rate limit per key whose keys back at full allowance are forgotten
/// (governor's `retain_recent`) when a [`Pruning`] says so.
pub struct Keyed<K: Hash + Eq + Clone> {
    limiter: governor::DefaultKeyedRateLimiter<K>,
    pruning: Pruning,
}

/// Keys are kept up to this many before any is forgotten.
const KEYS_KEPT: usize = 10_000;

impl<K: Hash + Eq + Clone> Keyed<K> {
    pub fn new(quota: governor::Quota) -> Keyed<K> {
        Keyed { limiter: governor::RateLimiter::keyed(quota), pruning: Pruning::new(KEYS_KEPT) }
    }

    /// Spends one of `key`'s allowance, or says how long to wait.
    pub fn check(&self, key: &K) -> Result<(), NotUntil> {
        self.pruning.maybe(self.limiter.len(), || {
            self.limiter.retain_recent();
            self.limiter.len()
        });
        self.limiter.check_key(key)
    }

    /// The keys remembered.
    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.limiter.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_map_is_pruned_once_it_has_doubled_since_the_last_pruning() {
        let pruning = Pruning::new(4);
        let mut runs = Vec::new();
        // Nothing is stale: every pruning keeps all.
        for len in 1..=100 {
            pruning.maybe(len, || {
                runs.push(len);
                len
            });
        }
        // Not up to the floor; then each time past twice what was kept.
        assert_eq!(runs, vec![5, 11, 23, 47, 95]);
        // A pruning that drops most is followed by one sooner.
        let mut runs = Vec::new();
        for len in [96, 120, 150, 190, 191] {
            pruning.maybe(len, || {
                runs.push(len);
                10
            });
        }
        assert_eq!(runs, vec![191]);
        // Kept 10: due again past 20.
        let mut due = Vec::new();
        for len in [20, 21] {
            pruning.maybe(len, || {
                due.push(len);
                len
            });
        }
        assert_eq!(due, vec![21]);
    }

    #[test]
    fn forgotten_keys_are_those_back_at_full_allowance() {
        let limiter = Keyed::new(governor::Quota::per_hour(std::num::NonZeroU32::MIN));
        for key in 0..KEYS_KEPT as u32 + 1 {
            assert!(limiter.check(&key).is_ok());
        }
        // None has recovered within the hour: all are kept, and refused.
        limiter.check(&0).unwrap_err();
        assert_eq!(limiter.len(), KEYS_KEPT + 1);
    }
}

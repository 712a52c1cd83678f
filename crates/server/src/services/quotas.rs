//! New games per client address: in an hour, and unfinished at once; the
//! lobby's games of people with a history per account instead
//! ([`Spender`]), so that a crowd on their address does not count against
//! them.
//!
//! Counted per server: a client keeps to one server for its connection's
//! life, and a balancer that spreads one address over several servers
//! multiplies its quota by their number at most (docs/web.md, *Several
//! servers*).

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex, Weak};
use std::time::{Duration, Instant};

use super::games::live::Live;
use crate::config::Config;
use crate::error::ApiError;
use crate::limits::Pruning;

const HOUR: Duration = Duration::from_secs(3600);

struct Quota {
    created: std::collections::VecDeque<Instant>,
    /// Games in play it created (one that left memory, idle, no longer counts).
    active: Vec<Weak<Live>>,
    /// When `active` is next pruned of ended games, past the cap aside.
    pruning: Pruning,
}

impl Default for Quota {
    fn default() -> Quota {
        Quota { created: Default::default(), active: Vec::new(), pruning: Pruning::new(64) }
    }
}

/// Whom a new game counts against.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Spender {
    /// A client address (its key: `listen::addr_key`).
    Address(IpAddr),
    /// An account (its id): a person with a history (the lobby, the new-game
    /// form, rematches), whom a crowd on their address does not hold back.
    Account(String),
}

/// Per client address (or account: [`Spender`]): when it created games in
/// the last hour, and the unfinished games it created.
pub struct Quotas {
    by_spender: Mutex<HashMap<Spender, Quota>>,
    pruning: Pruning,
    /// `Config::max_new_games_per_hour_per_ip`, `Config::max_active_games_per_ip`.
    per_hour: usize,
    active: usize,
    /// `Config::max_kept_games_per_ip`: the games kept in the store.
    pub kept: usize,
}

impl Quotas {
    pub fn new(config: &Config) -> Quotas {
        Quotas {
            by_spender: Mutex::default(),
            pruning: Pruning::new(10_000),
            per_hour: config.max_new_games_per_hour_per_ip,
            active: config.max_active_games_per_ip,
            kept: config.max_kept_games_per_ip,
        }
    }

    fn map(&self) -> std::sync::MutexGuard<'_, HashMap<Spender, Quota>> {
        self.by_spender.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Counts a new game against `spender`'s quotas (none: nobody's), or
    /// says which is used up.
    pub fn take(&self, spender: Option<Spender>) -> Result<(), ApiError> {
        let Some(spender) = spender else { return Ok(()) };
        let whose = match spender {
            Spender::Address(_) => "one address",
            Spender::Account(_) => "one account",
        };
        let mut quotas = self.map();
        // Addresses with nothing left to count go.
        self.pruning.maybe(quotas.len(), || {
            quotas.retain(|_, q| !q.active.is_empty() || q.created.back().is_some_and(|t| t.elapsed() < HOUR));
            quotas.len()
        });
        let q = quotas.entry(spender).or_default();
        while q.created.front().is_some_and(|t| t.elapsed() >= HOUR) {
            q.created.pop_front();
        }
        // Ended games are dropped from the list when it reaches the cap
        // (they must not count) or has doubled since: pruning it on every
        // game cost O(n²) under a raised cap (17 % of the server's time
        // while 10,000 games started from one address).
        if q.active.len() >= self.active || q.pruning.due(q.active.len()) {
            q.active.retain(|live| live.upgrade().is_some_and(|live| !live.finished()));
            q.pruning.pruned(q.active.len());
        }
        if q.created.len() >= self.per_hour {
            return Err(ApiError::Quota(format!("{} new games an hour from {whose}", self.per_hour)));
        }
        if q.active.len() >= self.active {
            return Err(ApiError::Quota(format!("{} unfinished games from {whose}: finish one first", self.active)));
        }
        q.created.push_back(Instant::now());
        Ok(())
    }

    /// Returns a game taken by [`Quotas::take`] that was not made after
    /// all (a request refused past its quota check spends nothing).
    pub fn give_back(&self, spender: Option<Spender>) {
        let Some(spender) = spender else { return };
        if let Some(q) = self.map().get_mut(&spender) {
            q.created.pop_back();
        }
    }

    /// Counts `live` among `spender`'s unfinished games.
    pub fn count_active(&self, spender: Option<Spender>, live: &Arc<Live>) {
        if let Some(spender) = spender {
            self.map().entry(spender).or_default().active.push(Arc::downgrade(live));
        }
    }
}

//! Idle games leave memory; abandoned games are deleted.

use std::sync::{Arc, Weak};
use std::time::Duration;

use super::games::Games;
use super::ids::now_ms;
use crate::config::Config;
use crate::error::ApiError;
use crate::store::{GameRepo, Store};

const HOUR: Duration = Duration::from_secs(3600);

/// The sweeps of the games in memory and in the store.
pub struct Sweeps {
    games: Arc<Games>,
    stored: Arc<dyn GameRepo>,
    idle_after: Duration,
    expire_after: Option<Duration>,
}

impl Sweeps {
    pub fn new(store: &Store, games: Arc<Games>, config: &Config) -> Sweeps {
        Sweeps {
            games,
            stored: Arc::clone(&store.games),
            idle_after: config.idle_after,
            expire_after: config.expire_after,
        }
    }

    /// Starts the sweeps: idle games leave memory now and then
    /// (`Config::idle_after`); the abandoned games are deleted
    /// (`Config::expire_after`) a minute after start, then every hour.
    pub fn start(self: &Arc<Self>) {
        let weak: Weak<Sweeps> = Arc::downgrade(self);
        let idle = self.idle_after;
        let every = (idle / 4).clamp(Duration::from_millis(20), Duration::from_secs(60));
        tokio::spawn(async move {
            loop {
                tokio::time::sleep(every).await;
                let Some(sweeps) = weak.upgrade() else { return };
                let left = sweeps.games.retain(|live| !live.idle(idle));
                if left > 0 {
                    tracing::debug!(games = left, "idle games left memory");
                }
            }
        });
        if self.expire_after.is_none() {
            return;
        }
        let weak: Weak<Sweeps> = Arc::downgrade(self);
        tokio::spawn(async move {
            // A minute after start (not amid it), then every hour.
            tokio::time::sleep(Duration::from_secs(60)).await;
            loop {
                let Some(sweeps) = weak.upgrade() else { return };
                if let Err(e) = sweeps.expire_abandoned().await {
                    tracing::error!(error = %e, "cannot expire abandoned games");
                }
                drop(sweeps);
                tokio::time::sleep(HOUR).await;
            }
        });
    }

    /// Deletes the unfinished games without a move for `Config::expire_after`
    /// now, and lets them leave memory; returns how many.
    ///
    /// # Errors
    /// The storage fails.
    pub async fn expire_abandoned(&self) -> Result<usize, ApiError> {
        let Some(after) = self.expire_after else { return Ok(0) };
        let before = now_ms() - after.as_millis().min(i64::MAX as u128) as i64;
        let ids = self.stored.expire(before).await?;
        self.games.forget(&ids);
        if !ids.is_empty() {
            tracing::info!(games = ids.len(), "abandoned games expired");
        }
        Ok(ids.len())
    }
}

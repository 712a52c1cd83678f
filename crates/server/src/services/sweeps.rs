//! Idle games leave memory; abandoned games are deleted.

use std::sync::Arc;
use std::time::Duration;

use super::games::now_ms;
use super::AppState;
use crate::error::ApiError;

const HOUR: Duration = Duration::from_secs(3600);

impl AppState {
    /// Lets idle games leave memory, now and then (`Config::idle_after`).
    pub(super) fn sweep_idle_games(&self) {
        let weak = Arc::downgrade(&self.inner);
        let idle = self.inner.config.idle_after;
        let every = (idle / 4).clamp(Duration::from_millis(20), Duration::from_secs(60));
        tokio::spawn(async move {
            loop {
                tokio::time::sleep(every).await;
                let Some(inner) = weak.upgrade() else { return };
                let mut games = inner.games.lock().unwrap_or_else(|e| e.into_inner());
                let before = games.len();
                games.retain(|_, live| !live.idle(idle));
                let left = before - games.len();
                drop(games);
                if left > 0 {
                    tracing::debug!(games = left, "idle games left memory");
                }
            }
        });
    }

    /// Deletes the abandoned games (`Config::expire_after`): a minute after
    /// start, then every hour.
    pub(super) fn expire_now_and_then(&self) {
        if self.inner.config.expire_after.is_none() {
            return;
        }
        let weak = Arc::downgrade(&self.inner);
        tokio::spawn(async move {
            // A minute after start (not amid it), then every hour.
            tokio::time::sleep(Duration::from_secs(60)).await;
            loop {
                let Some(inner) = weak.upgrade() else { return };
                if let Err(e) = (AppState { inner }).expire_abandoned().await {
                    tracing::error!(error = %e, "cannot expire abandoned games");
                }
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
        let Some(after) = self.inner.config.expire_after else { return Ok(0) };
        let before = now_ms() - after.as_millis().min(i64::MAX as u128) as i64;
        let ids = self.store().games.expire(before).await?;
        let mut games = self.games();
        for id in &ids {
            games.remove(id);
        }
        drop(games);
        if !ids.is_empty() {
            tracing::info!(games = ids.len(), "abandoned games expired");
        }
        Ok(ids.len())
    }
}

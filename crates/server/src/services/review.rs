//! Game reviews (`GET /api/games/{id}/review`): every move of a finished
//! game judged by the search (`carcassonne_ai::review`, docs/ai.md "Game
//! review"), computed in the background and kept.
//!
//! A review is worked out one position at a time, each on the bots' worker
//! pool (a permit of `Config::bot_workers`, on a blocking thread), so that
//! reviews take turns with the bots of games in play and never crowd them
//! out. The first request starts it and is answered `202 Accepted` with the
//! progress; once done, the review is answered `200 OK`.
//!
//! Reviews are kept in memory only (the last [`KEPT`] games reviewed): a
//! restarted server works a review out again when it is asked for. A
//! finished game never changes, so a kept review never goes stale.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use carcassonne::record::Record;
use carcassonne_ai::review::{positions, MoveReview, Review, ReviewOptions};
use carcassonne_ai::Budget;
use serde::Serialize;
use tokio::sync::Semaphore;

/// Reviews kept in memory.
pub const KEPT: usize = 256;

/// What `GET /api/games/{id}/review` answers.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum ReviewStatus {
    /// Being worked out: `done` of `total` moves reviewed (`202 Accepted`).
    Computing { done: usize, total: usize },
    /// The whole review (`200 OK`).
    Done { review: Review },
    /// It could not be made (the record does not replay, a task failed).
    Failed { message: String },
}

/// The reviews being made and made, by game id.
#[derive(Debug)]
pub struct Reviews {
    entries: Mutex<HashMap<String, (u64, ReviewStatus)>>,
    options: ReviewOptions,
    /// Counts requests, to forget the least recently asked for first.
    clock: std::sync::atomic::AtomicU64,
}

impl Reviews {
    /// With `quick`, a few iterations a position (tests); else
    /// `CARCASSONNE_REVIEW_MS` milliseconds a position, by default 500 (a
    /// 72-tile game in about 40 s of one worker).
    pub fn new(quick: bool) -> Reviews {
        let ms = std::env::var("CARCASSONNE_REVIEW_MS").ok().and_then(|v| v.trim().parse::<u64>().ok());
        let budget = if quick {
            Budget::Iterations(40)
        } else {
            Budget::Time(Duration::from_millis(ms.unwrap_or(500).clamp(10, 60_000)))
        };
        Reviews {
            entries: Mutex::default(),
            options: ReviewOptions { budget, seed: 1, threads: 1 },
            clock: Default::default(),
        }
    }

    pub fn options(&self) -> &ReviewOptions {
        &self.options
    }

    fn entries(&self) -> std::sync::MutexGuard<'_, HashMap<String, (u64, ReviewStatus)>> {
        self.entries.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn tick(&self) -> u64 {
        self.clock.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
    }

    /// The review of finished game `id` as it stands; the first request
    /// starts working it out in the background from `record`.
    pub fn get_or_start(self: &Arc<Self>, id: &str, record: Record, permits: Arc<Semaphore>) -> ReviewStatus {
        let now = self.tick();
        let mut entries = self.entries();
        if let Some((asked, status)) = entries.get_mut(id) {
            *asked = now;
            return status.clone();
        }
        if entries.len() >= KEPT {
            // Forget the least recently asked for that is not being worked on.
            let old = entries
                .iter()
                .filter(|(_, (_, s))| !matches!(s, ReviewStatus::Computing { .. }))
                .min_by_key(|(_, (asked, _))| *asked)
                .map(|(k, _)| k.clone());
            if let Some(k) = old {
                entries.remove(&k);
            }
        }
        let status = ReviewStatus::Computing { done: 0, total: record.moves.len() };
        entries.insert(id.to_string(), (now, status.clone()));
        drop(entries);
        let reviews = Arc::clone(self);
        let id = id.to_string();
        tokio::spawn(async move {
            let result = reviews.work_out(&id, record, permits).await;
            let status = match result {
                Ok(review) => ReviewStatus::Done { review },
                Err(message) => {
                    tracing::error!(game = %id, error = %message, "the review failed");
                    ReviewStatus::Failed { message }
                }
            };
            reviews.set(&id, status);
        });
        status
    }

    fn set(&self, id: &str, status: ReviewStatus) {
        if let Some((_, s)) = self.entries().get_mut(id) {
            *s = status;
        }
    }

    async fn work_out(&self, id: &str, record: Record, permits: Arc<Semaphore>) -> Result<Review, String> {
        let started = std::time::Instant::now();
        let replayed = record.clone();
        let positions = tokio::task::spawn_blocking(move || positions(&replayed))
            .await
            .map_err(|e| format!("review task: {e}"))?
            .map_err(|e| e.to_string())?;
        let total = positions.len();
        let mut moves: Vec<MoveReview> = Vec::with_capacity(total);
        for (i, (game, played)) in positions.into_iter().enumerate() {
            // One position per permit: the bots of games in play get their
            // turn between positions.
            let permit = Arc::clone(&permits).acquire_owned().await.map_err(|e| e.to_string())?;
            let options = self.options;
            let reviewed = tokio::task::spawn_blocking(move || {
                let _permit = permit;
                carcassonne_ai::review::review_position(&game, played, &options)
            })
            .await
            .map_err(|e| format!("review task: {e}"))?;
            moves.push(reviewed);
            self.set(id, ReviewStatus::Computing { done: i + 1, total });
        }
        Ok(Review::new(&record, &self.options, moves, started.elapsed()))
    }
}

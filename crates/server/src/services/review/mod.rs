//! Game reviews (`GET /api/games/{id}/review`): every move of a finished
//! game judged by the search (`carcassonne_ai::review`, docs/ai.md "Game
//! review"), worked out in the background, once, and kept in the store.
//!
//! Bots first, always. Reviews run on threads of their own
//! (`Config::review_workers`, at the lowest priority the system gives) and
//! start a position only while no bot search waits or runs (`BotGate`): a
//! bot's move never waits behind a review. A review in progress holds one
//! position at a time (the game replayed as it goes), and the reviews being
//! worked out or waiting their turn are capped in all
//! (`Config::max_reviews`) and per client address
//! (`Config::max_reviews_per_ip`): one more is answered `busy` (503 with
//! `Retry-After`). A person with a history (signed in to such an account)
//! counts by their account instead, may take one of [`KNOWN_REVIEW_PLACES`]
//! kept past the cap in all, and their reviews go first in the threads'
//! line: a crowd of fresh addresses asking reviews keeps nobody known out. Kept in memory: the last [`KEPT`] reviews asked for,
//! those in progress included; a finished review is in the store, so a
//! review forgotten here, or asked of another server or after a restart, is
//! read back and never worked out again.

use std::net::IpAddr;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

use carcassonne::record::Record;
use carcassonne_ai::review::Review;

mod work;

pub use self::work::{ReviewStatus, Work, KEPT, KNOWN_REVIEW_PLACES};
use super::bots::BotGate;
use super::games::Games;
use super::history::Histories;
use super::quotas::Spender;
use crate::config::Config;
use crate::error::ApiError;
use crate::services::ids::now_ms;
use crate::store::{Account, ReviewRepo, Store};

/// A server that took a review and said nothing for this long is taken for
/// gone: another may take it.
const CLAIM_STALE: Duration = Duration::from_secs(600);

/// Reviews of finished games.
pub struct Reviews {
    games: Arc<Games>,
    repo: Arc<dyn ReviewRepo>,
    work: Arc<Work>,
    /// Who has a history (the places kept for them).
    histories: Arc<Histories>,
}

impl Reviews {
    pub fn new(
        store: &Store,
        games: Arc<Games>,
        histories: Arc<Histories>,
        config: &Config,
        gate: Arc<BotGate>,
    ) -> Reviews {
        let work = Arc::new(Work::new(config.quick_bots, config, gate));
        Reviews { games, repo: Arc::clone(&store.reviews), work, histories }
    }
}

impl Reviews {
    /// The review of finished game `id` as it stands: kept (here or in the
    /// store), or being worked out; the first request starts it, for a
    /// client at `ip` (signed in to `account`, if any), within the caps.
    ///
    /// # Errors
    /// `not_found`, `not_finished`, `busy` (no room for another review now),
    /// `storage_error`.
    pub async fn review(
        &self,
        id: &str,
        ip: Option<IpAddr>,
        account: Option<&Account>,
    ) -> Result<ReviewStatus, ApiError> {
        let reviews = &self.work;
        if let Some(status) = reviews.held(id) {
            return Ok(status);
        }
        let live = self.games.game(id).await?;
        let record = {
            let t = live.lock().await;
            if !t.game.is_over() {
                return Err(ApiError::NotFinished);
            }
            Record::from_game(&t.game, &t.names())
        };
        if let Some(json) = self.repo.get(id).await? {
            let review: Review = serde_json::from_str(&json)
                .map_err(|e| ApiError::Storage(format!("the kept review of game {id}: {e}")))?;
            let status = ReviewStatus::Done { review: Arc::new(review) };
            reviews.keep(id, status.clone());
            return Ok(status);
        }
        let total = record.moves.len();
        let known = match account {
            Some(a) => self.histories.of(&a.id, a.created_at).await,
            None => false,
        };
        let by = match account {
            Some(a) if known => Some(Spender::Account(a.id.clone())),
            _ => ip.map(Spender::Address),
        };
        if let Some(status) = reviews.reserve(id, total, by, known)? {
            return Ok(status);
        }
        let now = now_ms();
        let stale = now - CLAIM_STALE.as_millis() as i64;
        match self.repo.claim(id, now, stale).await {
            Ok(true) => {}
            Ok(false) => {
                // Another server is working it out: it will be in the store.
                reviews.forget(id);
                return Ok(ReviewStatus::Computing { done: 0, total });
            }
            Err(e) => {
                reviews.forget(id);
                return Err(e.into());
            }
        }
        let status = ReviewStatus::Computing { done: 0, total };
        let done = reviews.work_out(id, record, known);
        let (reviews, repo, id) = (Arc::clone(reviews), Arc::clone(&self.repo), id.to_string());
        tokio::spawn(async move {
            let result = done.await.unwrap_or_else(|_| Err("the review thread stopped".into()));
            let status = match result {
                Ok(review) => {
                    reviews.worked_out.fetch_add(1, Ordering::Relaxed);
                    match serde_json::to_string(&review) {
                        Ok(json) => {
                            if let Err(e) = repo.save(&id, &json).await {
                                tracing::error!(game = %id, error = %e, "cannot keep the review");
                            }
                        }
                        Err(e) => tracing::error!(game = %id, error = %e, "cannot write the review"),
                    }
                    ReviewStatus::Done { review: Arc::new(review) }
                }
                Err(message) => {
                    tracing::error!(game = %id, error = %message, "the review failed");
                    ReviewStatus::Failed { message }
                }
            };
            reviews.set(&id, status);
        });
        Ok(status)
    }

    /// The reviews being worked out and made here.
    pub fn work(&self) -> &Arc<Work> {
        &self.work
    }
}

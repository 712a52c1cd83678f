//! Reviews of finished games, worked out once whichever server is asked.

use super::error::StoreError;

pub(crate) mod pg;
pub(crate) mod sqlite;

/// Takes the work of a review ([`ReviewRepo::claim`]): `$1` game, `$2`
/// server, `$3` now, `$4` stale before. One row changed: taken. (The same
/// text for both backends: SQLite reads `$N` as `?N`.)
const CLAIM: &str = "INSERT INTO reviews (game_id, review, claimed_by, claimed_at)
     VALUES ($1, NULL, $2, $3)
     ON CONFLICT (game_id) DO UPDATE SET claimed_by = excluded.claimed_by, claimed_at = excluded.claimed_at
     WHERE reviews.review IS NULL AND (reviews.claimed_at < $4 OR reviews.claimed_by = excluded.claimed_by)";

/// Keeps a review ([`ReviewRepo::save`]): `$1` game, `$2` review.
const SAVE: &str = "INSERT INTO reviews (game_id, review, claimed_by, claimed_at)
     VALUES ($1, $2, '', 0)
     ON CONFLICT (game_id) DO UPDATE SET review = excluded.review";

#[async_trait::async_trait]
pub trait ReviewRepo: Send + Sync {
    /// The review kept for finished game `id` (JSON), if one was made.
    ///
    /// # Errors
    /// The storage fails.
    async fn get(&self, id: &str) -> Result<Option<String>, StoreError>;

    /// Takes the work of reviewing game `id` for this server, at `now` (Unix
    /// ms): whether it is this server's to do — not when the review is kept
    /// already, nor while another server has it (one that took it before
    /// `stale_before` is taken for gone), so that a game is reviewed once
    /// whichever server is asked.
    ///
    /// # Errors
    /// The storage fails (or the game is gone).
    async fn claim(&self, id: &str, now: i64, stale_before: i64) -> Result<bool, StoreError>;

    /// Keeps the review of game `id` (JSON).
    ///
    /// # Errors
    /// The storage fails.
    async fn save(&self, id: &str, review: &str) -> Result<(), StoreError>;
}

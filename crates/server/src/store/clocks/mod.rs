//! Clocks (services/clocks.rs): kept with the game, as JSON, with the
//! deadline of the move to make now in a column of its own.

use super::error::StoreError;
use super::games::{Progress, Seat};

pub(crate) mod pg;
pub(crate) mod sqlite;

/// Whose turn a game is, and until when (the "your turn" list, clocks).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TurnOf {
    pub id: String,
    pub seats: Vec<Seat>,
    pub progress: Progress,
    pub deadline: Option<i64>,
}

#[async_trait::async_trait]
pub trait ClockRepo: Send + Sync {
    /// Keeps game `id`'s clocks and its deadline (Unix ms; none: untimed).
    ///
    /// # Errors
    /// The storage fails.
    async fn save(&self, id: &str, clock: &str, deadline: Option<i64>) -> Result<(), StoreError>;

    /// Keeps game `id`'s clocks only if its deadline is still `expected`
    /// (none included): whether they were kept. One server acts on an expiry.
    ///
    /// # Errors
    /// The storage fails.
    async fn swap(
        &self,
        id: &str,
        expected: Option<i64>,
        clock: &str,
        deadline: Option<i64>,
    ) -> Result<bool, StoreError>;

    /// Keeps game `id`'s clocks, their `deadline` and, if given, its
    /// `progress` (an abort, an ending), only if the game still holds
    /// `moves` moves and its deadline is still `expected` (none included):
    /// whether they were kept. A clock that ran out and a player's
    /// resignation, abort or ending each happen once, between two moves.
    ///
    /// # Errors
    /// The storage fails.
    async fn change(
        &self,
        id: &str,
        moves: usize,
        expected: Option<i64>,
        clock: &str,
        deadline: Option<i64>,
        progress: Option<&Progress>,
    ) -> Result<bool, StoreError>;

    /// Game `id`'s clocks (none for a game made before clocks were kept).
    ///
    /// # Errors
    /// The storage fails.
    async fn load(&self, id: &str) -> Result<Option<String>, StoreError>;

    /// Games whose deadline is `now` or earlier, earliest first, at most `limit`.
    ///
    /// # Errors
    /// The storage fails.
    async fn due(&self, now: i64, limit: usize) -> Result<Vec<String>, StoreError>;

    /// The seats, progress and deadline of the games `ids` (those found):
    /// the "your turn" list.
    ///
    /// # Errors
    /// The storage fails.
    async fn turns_of(&self, ids: &[String]) -> Result<Vec<TurnOf>, StoreError>;
}

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
    /// Keeps game `id`'s clocks and their deadline (Unix ms; none:
    /// untimed) only if the clocks stored are still at revision `rev` (their
    /// JSON's `rev`, 0 when it has none): whether they were kept. The JSON
    /// kept carries the next revision (`ClockState::rev`), so no server's
    /// write overwrites another's that it has not read.
    ///
    /// # Errors
    /// The storage fails.
    async fn swap(&self, id: &str, rev: u64, clock: &str, deadline: Option<i64>) -> Result<bool, StoreError>;

    /// [`ClockRepo::swap`], and, if given, the game's `progress` (an abort,
    /// an ending), only if the game also still holds `moves` moves. A clock
    /// that ran out and a player's resignation, abort or ending each happen
    /// once, between two moves.
    ///
    /// # Errors
    /// The storage fails.
    async fn change(
        &self,
        id: &str,
        moves: usize,
        rev: u64,
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

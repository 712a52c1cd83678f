//! Takebacks (services/takebacks.rs): a game's latest takeback request,
//! kept with the game as JSON (its `rev` read by the conditional writes),
//! and the grant that removes the moves taken back, in one write.

use super::error::StoreError;
use super::games::Progress;

pub(crate) mod pg;
pub(crate) mod sqlite;

/// The column added to `games` (both backends).
pub(crate) const SCHEMA: &str = "ALTER TABLE games ADD COLUMN takeback TEXT;";

/// The clocks a grant keeps with it: the revision they must still be at,
/// their JSON (at the next revision) and the new deadline.
#[derive(Clone, Copy, Debug)]
pub struct ClockAfter<'a> {
    pub rev: u64,
    pub json: &'a str,
    pub deadline: Option<i64>,
}

/// A takeback granted, as [`TakebackRepo::grant`] writes it.
#[derive(Clone, Copy, Debug)]
pub struct Grant<'a> {
    /// The moves the game must still hold.
    pub moves: usize,
    /// The revision its request must still be at.
    pub rev: u64,
    /// The request as it is kept (its outcome: granted).
    pub json: &'a str,
    /// The move count it goes back to.
    pub to: usize,
    pub progress: &'a Progress,
    pub clock: Option<ClockAfter<'a>>,
}

#[async_trait::async_trait]
pub trait TakebackRepo: Send + Sync {
    /// Game `id`'s takeback request as stored (none: never asked).
    ///
    /// # Errors
    /// The storage fails.
    async fn load(&self, id: &str) -> Result<Option<String>, StoreError>;

    /// Keeps `json` as game `id`'s request only if the one stored is still
    /// at revision `rev` (its JSON's `rev`; 0 when there is none) and the
    /// game still holds `moves` moves and is neither finished nor aborted:
    /// whether it was kept. A refused write changes nothing.
    ///
    /// # Errors
    /// The storage fails.
    async fn put(&self, id: &str, moves: usize, rev: u64, json: &str) -> Result<bool, StoreError>;

    /// A takeback granted, in one write: only if game `id` still holds
    /// `grant.moves` moves, is in play, its request is at revision
    /// `grant.rev` and (if given) its clocks at `grant.clock.rev`, its moves
    /// from number `grant.to` (0-based) on are deleted, and its move count,
    /// progress (and `updated_at` from it), request and clocks are written.
    /// Whether it was done; a refused grant changes nothing.
    ///
    /// # Errors
    /// The storage fails (nothing is written).
    async fn grant(&self, id: &str, grant: &Grant<'_>) -> Result<bool, StoreError>;
}

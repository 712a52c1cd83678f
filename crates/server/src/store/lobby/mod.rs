//! The lobby's storage (`services::lobby`): open tables, and the players
//! waiting for "Play now". Every change that must happen once, whichever
//! server asks (a seat taken, a table started, two waiting players paired),
//! is a conditional write: a table's row changes only at the version it was
//! read at; a waiting player is paired only while nobody has paired them.

use super::error::StoreError;

pub(crate) mod pg;
pub(crate) mod sqlite;

/// A lobby table as stored. Its `body` is the service's JSON; `version`
/// counts its changes (a change names the version it was made from).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LobbyRow {
    pub id: String,
    /// Whom the table counts against (the host's account, or address).
    pub owner: String,
    pub body: String,
    pub version: i64,
    /// Open for seats (false once started).
    pub open: bool,
    /// Unix ms: when its host was last heard from (its start, once started).
    pub seen_at: i64,
    pub created_at: i64,
}

/// A player waiting for "Play now".
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Waiting {
    pub id: String,
    /// Whom the wait counts against (the account, or address).
    pub owner: String,
    /// The hash of the seat token of the game to come.
    pub token_hash: String,
    pub name: String,
    pub rating: i64,
    /// The service's JSON (the bot game offered after a wait).
    pub body: String,
    /// Unix ms: when the wait began, and when the player last asked.
    pub since: i64,
    pub seen_at: i64,
    /// The game they were paired into, and their seat there.
    pub game: Option<String>,
    pub seat: Option<i64>,
}

/// What the lobby's sweep removes (Unix ms): open tables whose host was not
/// heard from since `open_before`, started ones since `started_before`;
/// unpaired waits not asked about since `waiting_before`, paired ones since
/// `paired_before`.
#[derive(Clone, Copy, Debug)]
pub struct LobbySweep {
    pub open_before: i64,
    pub started_before: i64,
    pub waiting_before: i64,
    pub paired_before: i64,
}

pub(crate) const TABLE_COLUMNS: &str = "id, owner, body, version, open, seen_at, created_at";
pub(crate) const WAITING_COLUMNS: &str = "id, owner, token_hash, name, rating, body, since, seen_at, game, seat";

/// A count as SQL takes it.
pub(crate) fn cap(n: usize) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

#[async_trait::async_trait]
pub trait LobbyRepo: Send + Sync {
    /// Opens a lobby table, unless its owner has `per_owner` open already or
    /// the lobby holds `total`: whether it was opened.
    ///
    /// # Errors
    /// The id is taken, or the storage fails.
    async fn open(&self, row: &LobbyRow, per_owner: usize, total: usize) -> Result<bool, StoreError>;

    /// The lobby's tables, oldest first, at most `limit`.
    ///
    /// # Errors
    /// The storage fails.
    async fn tables(&self, limit: usize) -> Result<Vec<LobbyRow>, StoreError>;

    /// One lobby table.
    ///
    /// # Errors
    /// The storage fails.
    async fn table(&self, id: &str) -> Result<Option<LobbyRow>, StoreError>;

    /// Changes table `id` if it is still at `version`: to `(body, open,
    /// seen_at)` (its version goes up by one), or removes it (`None`).
    /// Whether it was changed (false: someone changed it first, or it is gone).
    ///
    /// # Errors
    /// The storage fails.
    async fn update(&self, id: &str, version: i64, next: Option<(&str, bool, i64)>) -> Result<bool, StoreError>;

    /// Removes stale tables and waits; returns the ids of the tables removed.
    ///
    /// # Errors
    /// The storage fails.
    async fn sweep(&self, when: LobbySweep) -> Result<Vec<String>, StoreError>;

    /// Starts a wait for "Play now", unless its owner has `per_owner`
    /// unpaired waits or the storage holds `total`: whether it started.
    ///
    /// # Errors
    /// The id is taken, or the storage fails.
    async fn wait(&self, w: &Waiting, per_owner: usize, total: usize) -> Result<bool, StoreError>;

    /// One wait, its `seen_at` first brought up to `seen_at` if given.
    ///
    /// # Errors
    /// The storage fails.
    async fn waiting(&self, id: &str, seen_at: Option<i64>) -> Result<Option<Waiting>, StoreError>;

    /// The unpaired waits asked about since `seen_after`, longest waiting first.
    ///
    /// # Errors
    /// The storage fails.
    async fn waiters(&self, seen_after: i64, limit: usize) -> Result<Vec<Waiting>, StoreError>;

    /// Pairs the waits `ids` into `game` (seat = place in `ids`), all or none:
    /// false if any is gone or paired already (whoever asked, on any server).
    ///
    /// # Errors
    /// The storage fails.
    async fn pair(&self, ids: &[String], game: &str) -> Result<bool, StoreError>;

    /// Ends an unpaired wait: whether there was one.
    ///
    /// # Errors
    /// The storage fails.
    async fn cancel(&self, id: &str) -> Result<bool, StoreError>;
}

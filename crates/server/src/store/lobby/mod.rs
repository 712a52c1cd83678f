//! The lobby's storage (`services::lobby`): open tables, and the players
//! waiting for "Play now". Every change that must happen once, whichever
//! server asks (a seat taken, a table started, two waiting players paired),
//! is a conditional write: a table's row changes only at the version it was
//! read at; a waiting player is claimed for a pairing only while nobody has
//! claimed them. Who may come in (each person's share, the places kept for
//! people with a history) is decided in the same transaction as the write.

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
    /// The host's address (its key: an IPv6 address by its /64).
    pub address: String,
    /// The host has a history (services/lobby/common.rs, `known`): the
    /// table may take one of the places kept for such hosts.
    pub known: bool,
    pub body: String,
    pub version: i64,
    /// Open for seats (false once started).
    pub open: bool,
    /// Unix ms: when the host's socket was last known open (its server
    /// says so every few seconds); once started, when it started.
    pub seen_at: i64,
    pub created_at: i64,
}

/// A player waiting for "Play now".
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Waiting {
    pub id: String,
    /// Whom the wait counts against (the account, or address).
    pub owner: String,
    /// The person: their address's key, their account, their device (the
    /// page's own id). Two waits sharing any of these are one person's.
    pub address: String,
    pub account: Option<String>,
    pub device: Option<String>,
    /// The person has a history (a signed-in account of some standing): not
    /// counted by address, and may take one of the places kept for such people.
    pub known: bool,
    /// The hash of the seat token of the game to come.
    pub token_hash: String,
    pub name: String,
    pub rating: i64,
    /// The service's JSON (the bot game offered after a wait).
    pub body: String,
    /// Unix ms: when the wait began, and when its socket was last known
    /// open (once claimed or paired: when it was).
    pub since: i64,
    pub seen_at: i64,
    /// The claim on it (a pairing's), then the game it was paired into,
    /// and its seat there.
    pub game: Option<String>,
    pub seat: Option<i64>,
    /// `game` is the game made for the pairing, not only a claim on it.
    pub ready: bool,
}

impl Waiting {
    /// Whether the two waits are one person's: the same account, device,
    /// or address.
    pub fn same_person(&self, other: &Waiting) -> bool {
        let same = |a: &Option<String>, b: &Option<String>| a.is_some() && a == b;
        self.address == other.address || same(&self.account, &other.account) || same(&self.device, &other.device)
    }
}

/// What the lobby's sweep removes (Unix ms): open tables whose host's
/// socket was not known open since `open_before`, started ones since
/// `started_before`; unpaired waits not known held since `waiting_before`,
/// paired ones since `paired_before`. A claim made before `waiting_before`
/// whose game never came is undone (the waits wait again).
#[derive(Clone, Copy, Debug)]
pub struct LobbySweep {
    pub open_before: i64,
    pub started_before: i64,
    pub waiting_before: i64,
    pub paired_before: i64,
}

/// Who may open a table: `per_owner` open tables per owner (account or
/// address); a host without a history also `per_address` open tables per
/// address among such hosts; `total` tables in the lobby, of which hosts
/// without a history take `fresh` at most (the others are kept for hosts
/// with one).
#[derive(Clone, Copy, Debug)]
pub struct TableBounds {
    pub per_owner: usize,
    pub per_address: usize,
    pub total: usize,
    pub fresh: usize,
}

/// Who may start a wait: one unpaired wait per person (account, device;
/// and address, between people without a history); fewer than `pairings`
/// pairings with another person since `pairings_since` (Unix ms) per
/// person; `total` unpaired waits, of which people without a history take
/// `fresh` at most.
#[derive(Clone, Copy, Debug)]
pub struct WaitBounds {
    pub pairings: usize,
    pub pairings_since: i64,
    pub total: usize,
    pub fresh: usize,
}

impl TableBounds {
    /// Whether a table of a host (`known`: with a history) comes in, given
    /// the counts its backend read in the admission's transaction: open
    /// tables of its owner, open tables of fresh hosts at its address,
    /// tables in all, tables of fresh hosts.
    pub(crate) fn admit(&self, known: bool, [mine, here, all, fresh]: [i64; 4]) -> Admission {
        if mine >= cap(self.per_owner) || (!known && here >= cap(self.per_address)) {
            Admission::Share
        } else if all >= cap(self.total) || (!known && fresh >= cap(self.fresh)) {
            Admission::Full
        } else {
            Admission::Admitted
        }
    }
}

impl WaitBounds {
    /// Whether a wait of a person (`known`: with a history) comes in,
    /// given the counts its backend read in the admission's transaction:
    /// the person's waits not paired yet, their pairings with another
    /// person since `pairings_since`, waits not paired in all, those of
    /// fresh people.
    pub(crate) fn admit(&self, known: bool, [theirs, pairings, all, fresh]: [i64; 4]) -> Admission {
        if theirs > 0 {
            Admission::Share
        } else if pairings >= cap(self.pairings) {
            Admission::Pairings
        } else if all >= cap(self.total) || (!known && fresh >= cap(self.fresh)) {
            Admission::Full
        } else {
            Admission::Admitted
        }
    }
}

/// Whether a table or a wait came in, and if not, which bound kept it out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Admission {
    Admitted,
    /// The person's share: their open tables (per owner or per address),
    /// or the wait they have already.
    Share,
    /// The person was paired with others too often lately (waits only).
    Pairings,
    /// No place left for them (for a person without a history, none left
    /// outside the places kept).
    Full,
}

pub(crate) const TABLE_COLUMNS: &str = "id, owner, address, known, body, version, open, seen_at, created_at";
pub(crate) const WAITING_COLUMNS: &str =
    "id, owner, address, account, device, known, token_hash, name, rating, body, since, seen_at, game, seat, ready";

/// A count as SQL takes it.
pub(crate) fn cap(n: usize) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

/// Migration 21 (SQLite): the lobby's people. Tables and waits are held by
/// their person's websocket now; those of before (held by nobody) go.
pub(crate) const SQLITE_SCHEMA: &str = "DELETE FROM lobby_tables;
    DELETE FROM lobby_waiting;
    ALTER TABLE lobby_tables ADD COLUMN address TEXT NOT NULL DEFAULT '';  -- the host's address's key
    ALTER TABLE lobby_tables ADD COLUMN known INTEGER NOT NULL DEFAULT 0;  -- the host has a history
    CREATE INDEX lobby_tables_by_address ON lobby_tables(address);
    ALTER TABLE lobby_waiting ADD COLUMN address TEXT NOT NULL DEFAULT '';
    ALTER TABLE lobby_waiting ADD COLUMN account TEXT;
    ALTER TABLE lobby_waiting ADD COLUMN device TEXT;                       -- the page's own id
    ALTER TABLE lobby_waiting ADD COLUMN known INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE lobby_waiting ADD COLUMN ready INTEGER NOT NULL DEFAULT 0;  -- game: made, not only claimed
    CREATE INDEX lobby_waiting_by_address ON lobby_waiting(address);
    CREATE INDEX lobby_waiting_by_game ON lobby_waiting(game);";

/// Migration 21 (PostgreSQL): as SQLite's.
pub(crate) const PG_SCHEMA: &str = "DELETE FROM lobby_tables;
    DELETE FROM lobby_waiting;
    ALTER TABLE lobby_tables ADD COLUMN address TEXT NOT NULL DEFAULT '';
    ALTER TABLE lobby_tables ADD COLUMN known BOOLEAN NOT NULL DEFAULT false;
    CREATE INDEX lobby_tables_by_address ON lobby_tables (address);
    ALTER TABLE lobby_waiting ADD COLUMN address TEXT NOT NULL DEFAULT '';
    ALTER TABLE lobby_waiting ADD COLUMN account TEXT;
    ALTER TABLE lobby_waiting ADD COLUMN device TEXT;
    ALTER TABLE lobby_waiting ADD COLUMN known BOOLEAN NOT NULL DEFAULT false;
    ALTER TABLE lobby_waiting ADD COLUMN ready BOOLEAN NOT NULL DEFAULT false;
    CREATE INDEX lobby_waiting_by_address ON lobby_waiting (address);
    CREATE INDEX lobby_waiting_by_game ON lobby_waiting (game);";

/// The condition (SQL) that a stored wait is the person of the wait in
/// the parameters `address`, `account`, `device`, `known` (each backend's
/// placeholders): the same account or device, or, between two people
/// without a history, the same address.
pub(crate) fn person_sql(address: &str, account: &str, device: &str, known: &str) -> String {
    format!(
        "(({account} IS NOT NULL AND account = {account}) OR ({device} IS NOT NULL AND device = {device})
          OR (NOT {known} AND NOT known AND address = {address}))"
    )
}

#[async_trait::async_trait]
pub trait LobbyRepo: Send + Sync {
    /// Opens a lobby table within `bounds` (`TableBounds`), all counted in
    /// one transaction with the write: whether it came in, or which bound
    /// kept it out.
    ///
    /// # Errors
    /// The id is taken, or the storage fails.
    async fn open(&self, row: &LobbyRow, bounds: &TableBounds) -> Result<Admission, StoreError>;

    /// The lobby's tables, the open ones first, each kind oldest first, at
    /// most `limit`.
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
    /// seen_at)` (its version goes up by one; `seen_at` never goes back),
    /// or removes it (`None`). Whether it was changed (false: someone
    /// changed it first, or it is gone).
    ///
    /// # Errors
    /// The storage fails.
    async fn update(&self, id: &str, version: i64, next: Option<(&str, bool, i64)>) -> Result<bool, StoreError>;

    /// The sockets of this server still hold these: the open tables
    /// `tables` and the unclaimed waits `waits` are seen at `at` (never
    /// earlier than they were; no version changes).
    ///
    /// # Errors
    /// The storage fails.
    async fn touch(&self, tables: &[String], waits: &[String], at: i64) -> Result<(), StoreError>;

    /// Removes stale tables and waits, and undoes stale claims; returns
    /// the ids of the tables removed.
    ///
    /// # Errors
    /// The storage fails.
    async fn sweep(&self, when: LobbySweep) -> Result<Vec<String>, StoreError>;

    /// Starts a wait for "Play now" within `bounds` (`WaitBounds`), all
    /// counted in one transaction with the write: whether it came in, or
    /// which bound kept it out.
    ///
    /// # Errors
    /// The id is taken, or the storage fails.
    async fn wait(&self, w: &Waiting, bounds: &WaitBounds) -> Result<Admission, StoreError>;

    /// One wait.
    ///
    /// # Errors
    /// The storage fails.
    async fn waiting(&self, id: &str) -> Result<Option<Waiting>, StoreError>;

    /// The waits among `ids` that are still stored, in no order.
    ///
    /// # Errors
    /// The storage fails.
    async fn waits(&self, ids: &[String]) -> Result<Vec<Waiting>, StoreError>;

    /// The unclaimed waits seen since `seen_after`, longest waiting first.
    ///
    /// # Errors
    /// The storage fails.
    async fn waiters(&self, seen_after: i64, limit: usize) -> Result<Vec<Waiting>, StoreError>;

    /// Claims the waits `ids` for a pairing, `claim` (seat = place in
    /// `ids`), seen at `at`, all or none: false if any is gone or claimed
    /// already (whoever asked, on any server).
    ///
    /// # Errors
    /// The storage fails.
    async fn pair(&self, ids: &[String], claim: &str, at: i64) -> Result<bool, StoreError>;

    /// The game of claim `claim` is made: its waits are paired into `game`,
    /// seen at `at`. How many there were (fewer than claimed: a claim undone
    /// meanwhile by the sweep).
    ///
    /// # Errors
    /// The storage fails.
    async fn paired(&self, claim: &str, game: &str, at: i64) -> Result<usize, StoreError>;

    /// Undoes claim `claim` (its game could not be made): its waits wait
    /// again. How many there were.
    ///
    /// # Errors
    /// The storage fails.
    async fn unpair(&self, claim: &str) -> Result<usize, StoreError>;

    /// Ends an unclaimed wait: whether there was one.
    ///
    /// # Errors
    /// The storage fails.
    async fn cancel(&self, id: &str) -> Result<bool, StoreError>;
}

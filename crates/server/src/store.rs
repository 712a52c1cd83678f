//! Where games are kept: a narrow trait of our own, and its SQLite
//! implementation.
//!
//! A game is stored as its record (record.md) split in two: the setup (rules,
//! players, start tile, the whole deck) written once, and the moves appended
//! one row each. The state of a game is always rebuilt by replaying the
//! record, so saving, reloading, restarting and replaying share one path.
//!
//! The trait is async. SQLite's calls run on blocking threads; PostgreSQL
//! (`store_pg`) speaks to the database through an async driver. A storage
//! that several servers share also carries what makes them one game: the
//! news of each change ([`Change`]), which server drives each game's bots
//! (a lease), and who is online where.

use std::fmt;
use std::path::Path;
use std::sync::{Arc, Mutex};

use carcassonne::record::{Record, RecordMove};
use rusqlite::{params, Connection, OptionalExtension};
use serde::{Deserialize, Serialize};

use crate::bots::BotLevel;
mod lobby;
pub use lobby::{LobbyRow, LobbySweep, Waiting};

/// A browser's Web Push subscription, bound to one target: a seat of a
/// game (`seat:<game>:<seat>`) or an account (`account:<id>`)
/// (services/push.rs).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PushSubscription {
    /// The push service's URL for this browser (a secret of the browser's).
    pub endpoint: String,
    /// The browser's P-256 public key, base64url (65 bytes decoded).
    pub p256dh: String,
    /// The browser's authentication secret, base64url (16 bytes decoded).
    pub auth: String,
    /// What it is told about: `seat:<game>:<seat>` or `account:<id>`.
    pub target: String,
    /// The game of a seat's subscription (removed with the game).
    pub game_id: Option<String>,
    /// The account of an account's subscription (removed with the account).
    pub account: Option<String>,
    /// Unix ms.
    pub created_at: i64,
    /// The language its notifications are written in (`en`, `de`, `fr`:
    /// the page's when it subscribed).
    pub lang: String,
}
pub(crate) mod passkeys;
use passkeys::sqlite as passkeys_sql;
pub use passkeys::{PasskeyChallenge, StoredPasskey};

pub(crate) mod ratings;
pub use ratings::{AccountGame, HistoryRow, RatedResult, RatedSeat, RatingChange, RatingRow, DELETED_ACCOUNT};

/// Who sits in a seat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Seat {
    /// A person; whoever holds the token whose [`hash_token`] is
    /// `token_hash` plays this seat. The token itself is never stored.
    Human {
        name: String,
        token_hash: String,
        /// Invited by link to play from another device (rather than at the
        /// creator's screen).
        #[serde(default)]
        remote: bool,
        /// The account this seat is linked to (its id): set when a
        /// signed-in person creates the game or takes the seat, or links the
        /// seats they hold ([`Store::link_seat`]); [`DELETED_ACCOUNT`] once
        /// that account was deleted.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        account: Option<String>,
    },
    /// A computer player that moves on the server.
    Bot { name: String, level: BotLevel },
}

impl Seat {
    pub fn name(&self) -> &str {
        match self {
            Seat::Human { name, .. } | Seat::Bot { name, .. } => name,
        }
    }

    /// Whether `token` holds this seat (compared in constant time).
    pub fn held_by(&self, token: &str) -> bool {
        match self {
            Seat::Human { token_hash, .. } => constant_time_eq(hash_token(token).as_bytes(), token_hash.as_bytes()),
            Seat::Bot { .. } => false,
        }
    }

    /// The account a human seat is linked to.
    pub fn account(&self) -> Option<&str> {
        match self {
            Seat::Human { account, .. } => account.as_deref(),
            Seat::Bot { .. } => None,
        }
    }

    pub fn bot_level(&self) -> Option<BotLevel> {
        match self {
            Seat::Bot { level, .. } => Some(level.clone()),
            Seat::Human { .. } => None,
        }
    }
}

/// What is kept of a seat token: its SHA-256, in hex. Tokens carry 128
/// random bits, so a plain hash cannot be reversed by guessing; a stolen
/// database does not seat anyone.
pub fn hash_token(token: &str) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(token.as_bytes()).iter().map(|b| format!("{b:02x}")).collect()
}

/// Whether two hashes are the same, in a time that does not say where they differ.
pub(crate) fn same_hash(a: &str, b: &str) -> bool {
    constant_time_eq(a.as_bytes(), b.as_bytes())
}

fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// An account as stored: its name as shown, the key names are compared
/// by (`names::name_key`), the argon2id hash of its password (a PHC string)
/// and the SHA-256 of its recovery code ([`hash_token`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Account {
    pub id: String,
    pub name: String,
    pub name_key: String,
    pub password: String,
    pub recovery: String,
    pub created_at: i64,
}

/// A game about to be stored: its record (deck included, no moves yet) and seats.
#[derive(Clone, Debug)]
pub struct NewGame {
    pub id: String,
    pub record: Record,
    /// The seed of the live bag (`Setup::live_seed`): with the `reshuffle`
    /// house rule, where a tile sent back into the bag goes.
    pub live_seed: Option<u64>,
    pub seats: Vec<Seat>,
    /// Unix time in milliseconds.
    pub created_at: i64,
    /// Listed for everyone (anyone may watch); otherwise listed only to
    /// those who name it.
    pub public: bool,
    /// The game's clocks as they start (JSON: services/clock.rs
    /// `ClockState`), kept in the same write as the game.
    pub clock: Option<String>,
    /// When the clocks run out (Unix ms), if they can.
    pub deadline: Option<i64>,
}

impl NewGame {
    /// A new game, its clocks not kept (see `clock`).
    pub fn new(
        id: String,
        record: Record,
        live_seed: Option<u64>,
        seats: Vec<Seat>,
        created_at: i64,
        public: bool,
    ) -> Self {
        NewGame { id, record, live_seed, seats, created_at, public, clock: None, deadline: None }
    }

    /// What a store writes of a game not begun: the record's setup (no
    /// moves) and its progress.
    pub(crate) fn setup_and_progress(&self) -> (Record, Progress) {
        let mut setup = self.record.clone();
        setup.moves.clear();
        let first = setup.first.unwrap_or(0);
        let progress = Progress {
            finished: false,
            scores: vec![0; self.seats.len()],
            to_move: Some(first),
            winners: Vec::new(),
            at: self.created_at,
            bot_turn: self.seats.get(first as usize).is_some_and(|s| s.bot_level().is_some()),
        };
        (setup, progress)
    }
}

/// A stored game: the record with every move, and its seats.
#[derive(Clone, Debug)]
pub struct StoredGame {
    pub id: String,
    /// The record as created (the deck in its first order) with every move since.
    pub record: Record,
    pub live_seed: Option<u64>,
    pub seats: Vec<Seat>,
    pub created_at: i64,
    pub updated_at: i64,
}

/// What a listing needs to know of a game after a move, kept beside the moves
/// so that listing never replays.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Progress {
    pub finished: bool,
    pub scores: Vec<u32>,
    /// Seat to move, `None` once finished.
    pub to_move: Option<u8>,
    pub winners: Vec<u8>,
    /// Unix time in milliseconds.
    pub at: i64,
    /// A bot is to move (a shared storage finds games whose bots nobody drives).
    #[serde(default)]
    pub bot_turn: bool,
}

/// One line of the games list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameSummary {
    pub id: String,
    pub seats: Vec<Seat>,
    pub rules: serde_json::Map<String, serde_json::Value>,
    pub moves: usize,
    pub progress: Progress,
    pub created_at: i64,
    /// Listed for everyone.
    pub public: bool,
}

/// A storage failure. Its text is for the server's log, not for players.
#[derive(Debug)]
pub enum StoreError {
    /// Someone else stored that move first (another server sharing the
    /// storage): the game has moved on and should be reloaded.
    Conflict(String),
    /// The storage failed or holds something unreadable.
    Failed(String),
}

impl StoreError {
    pub fn failed(why: impl Into<String>) -> StoreError {
        StoreError::Failed(why.into())
    }

    pub fn message(&self) -> &str {
        match self {
            StoreError::Conflict(m) | StoreError::Failed(m) => m,
        }
    }
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StoreError::Conflict(m) => write!(f, "storage conflict: {m}"),
            StoreError::Failed(m) => write!(f, "storage: {m}"),
        }
    }
}

impl std::error::Error for StoreError {}

impl From<rusqlite::Error> for StoreError {
    fn from(e: rusqlite::Error) -> Self {
        StoreError::Failed(e.to_string())
    }
}

impl From<serde_json::Error> for StoreError {
    fn from(e: serde_json::Error) -> Self {
        StoreError::Failed(e.to_string())
    }
}

/// How often a server sharing its storage with others says it is alive
/// ([`Store::beat`]).
pub const BEAT_EVERY: std::time::Duration = std::time::Duration::from_millis(250);

/// A named rule set a visitor keeps ("Our table's rules"), by its code.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SavedRules {
    pub id: String,
    pub name: String,
    /// The rule set's code ([`carcassonne::Rules::to_code`]).
    pub code: String,
    /// Unix ms.
    pub created_at: i64,
}

/// A game that changed in the storage: it now holds `moves` moves.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameChanged {
    pub id: String,
    pub moves: usize,
}

/// News from a storage that several servers share, as it is committed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Change {
    /// A move was stored (by any server, this one included).
    Moved(GameChanged),
    /// The websockets that `server` holds open on `game`, per seat.
    Presence { game: String, server: String, online: Vec<u32> },
    /// Who is here through every server, as the storage holds it now
    /// (`(game, server, online)`; a game or server absent: nobody): what
    /// the change feed tells after it was away, when [`Change::Presence`]
    /// news may have been missed. Never published.
    PresenceAll { present: Vec<(String, String, Vec<u32>)> },
    /// `server`'s bot for `seat` is choosing move `version` of `game`;
    /// `seat: None` once it stopped without moving.
    Thinking { game: String, server: String, version: u64, seat: Option<u8> },
    /// `server` stopped, or stopped answering: its websockets and bots are gone.
    Gone { server: String },
    /// Lobby table `table` opened, changed or closed (services/lobby.rs).
    Lobby { table: String },
    /// The clocks of `game` changed (a move, an expiry, a bot standing in):
    /// servers holding it read them again.
    Clock { game: String },
    /// A chat message was stored on `server` (services/chat.rs).
    Chat { game: String, server: String, message: ChatMessage },
    /// A game's chat download consent or rematch changed on `server`: the
    /// others read it again (services/rematch.rs).
    Rematch { game: String, server: String },
}

// ---- Chat and rematch (services/chat.rs, services/rematch.rs) ----

/// A chat message of a game, as stored and as sent.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChatMessage {
    /// Its number in the game's chat (1, 2…).
    pub seq: u64,
    /// The player's seat; `None` for a spectator (spectators' chat).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seat: Option<u8>,
    /// Who wrote it: the seat's name, an account's name, or "Spectator N".
    pub name: String,
    pub text: String,
    /// Unix ms.
    pub at: i64,
    /// Whose it is, for numbering spectators (a hash); never sent.
    #[serde(skip)]
    pub author: String,
}

/// A game's chat settings.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ChatSettings {
    /// Chat was turned off for the game when it was created.
    pub off: bool,
    /// The seats that agreed to the chat's download with the record.
    pub consent: Vec<u8>,
}

/// A game's rematch as stored: the seats that accepted (with the hash of
/// the token each will hold in the new game) and the new game once made.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Rematch {
    pub accepted: Vec<(u8, String)>,
    pub game: Option<String>,
}

/// What a server learns at each heartbeat ([`Store::beat`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Beat {
    /// The servers alive now (this one included).
    pub servers: Vec<String>,
    /// Games whose bots nobody drove (their server died) and whose lease
    /// this server has just taken: it drives them now.
    pub claimed: Vec<String>,
    /// This server had been taken for dead (its heartbeat came too late)
    /// and has just registered again: it publishes its presence anew.
    pub rejoined: bool,
}

/// The storage a server needs, and no more. Every method is durable when it
/// returns `Ok`: the server acknowledges a move only after `append_move`.
#[async_trait::async_trait]
pub trait Store: Send + Sync {
    /// Stores a new game.
    ///
    /// # Errors
    /// The id is taken, or the storage fails.
    async fn create_game(&self, game: &NewGame) -> Result<(), StoreError>;

    /// Appends move number `ply` (0-based) to game `id`, with the game's
    /// progress after it, in one transaction.
    ///
    /// # Errors
    /// [`StoreError::Conflict`] if the game does not hold exactly `ply`
    /// moves (another writer got there first); [`StoreError::Failed`] for no
    /// such game or a storage failure. Nothing is stored on an error.
    async fn append_move(&self, id: &str, ply: usize, mv: &RecordMove, progress: &Progress) -> Result<(), StoreError>;

    /// The game with every move, or `None` if there is no such game.
    ///
    /// # Errors
    /// The storage fails or holds something unreadable.
    async fn load(&self, id: &str) -> Result<Option<StoredGame>, StoreError>;

    /// The most recently played games first, at most `limit`.
    ///
    /// # Errors
    /// The storage fails.
    async fn list(&self, limit: usize) -> Result<Vec<GameSummary>, StoreError>;

    /// The games list a visitor sees: the public games and those named in
    /// `ids` (the games they hold a seat in), most recently played first,
    /// at most `limit`.
    ///
    /// # Errors
    /// The storage fails.
    async fn listed(&self, ids: &[String], limit: usize) -> Result<Vec<GameSummary>, StoreError> {
        let mut all = self.list(usize::MAX >> 1).await?;
        all.retain(|g| g.public || ids.contains(&g.id));
        all.truncate(limit);
        Ok(all)
    }

    /// Every game not finished yet (a restarted server resumes their bots).
    ///
    /// # Errors
    /// The storage fails.
    async fn in_play(&self) -> Result<Vec<GameSummary>, StoreError>;

    /// Deletes the unfinished games whose last move (or creation) is older
    /// than `before` (Unix ms), with their moves; returns their ids.
    ///
    /// # Errors
    /// The storage fails (nothing is deleted).
    async fn expire(&self, before: i64) -> Result<Vec<String>, StoreError>;

    /// Whether the storage answers now (a cheap query).
    ///
    /// # Errors
    /// It does not.
    async fn health(&self) -> Result<(), StoreError> {
        self.list(1).await.map(|_| ())
    }

    /// Changes made by the servers sharing this storage, as they are
    /// committed (this server's own may come too). `None` for a storage
    /// that only one server uses. Called once, when the server starts.
    fn changes(&self) -> Option<tokio::sync::mpsc::UnboundedReceiver<Change>> {
        None
    }

    /// Whether the change feed ([`Store::changes`]) is listening.
    fn feed(&self) -> Feed {
        Feed::None
    }

    /// This server's name among those sharing the storage; `None` for a
    /// storage that only one server uses (then the methods below have
    /// nothing to do).
    fn server(&self) -> Option<&str> {
        None
    }

    /// Takes the lease on game `id`'s bots unless a live server holds it:
    /// whether this server holds it now (and so thinks for its bots).
    ///
    /// # Errors
    /// The storage fails.
    async fn claim_bots(&self, _id: &str) -> Result<bool, StoreError> {
        Ok(true)
    }

    /// Gives up this server's lease on game `id`'s bots (no bot is to move).
    ///
    /// # Errors
    /// The storage fails.
    async fn release_bots(&self, _id: &str) -> Result<(), StoreError> {
        Ok(())
    }

    /// Tells the other servers a [`Change::Presence`] (kept, for servers
    /// that open the game later) or a [`Change::Thinking`].
    ///
    /// # Errors
    /// The storage fails.
    async fn publish(&self, _change: &Change) -> Result<(), StoreError> {
        Ok(())
    }

    /// The websockets other live servers hold open on game `id`: per server, per seat.
    ///
    /// # Errors
    /// The storage fails.
    async fn presence(&self, _id: &str) -> Result<Vec<(String, Vec<u32>)>, StoreError> {
        Ok(Vec::new())
    }

    /// This server is alive: called a few times a second. Servers that
    /// missed their heartbeats are let go (their leases and presence with
    /// them), and the games whose bots nobody drives are shared out.
    ///
    /// # Errors
    /// The storage fails.
    async fn beat(&self) -> Result<Beat, StoreError> {
        Ok(Beat::default())
    }

    /// This server stops: its leases and presence go at once.
    ///
    /// # Errors
    /// The storage fails.
    async fn leave(&self) -> Result<(), StoreError> {
        Ok(())
    }

    /// Keeps a named rule set for the visitor whose key hashes to `owner`
    /// ([`hash_token`]), unless they keep `max` already: whether it was kept.
    ///
    /// # Errors
    /// The id is taken, or the storage fails.
    async fn save_rules(&self, owner: &str, rules: &SavedRules, max: usize) -> Result<bool, StoreError>;

    /// The rule sets the visitor keeps, oldest first.
    ///
    /// # Errors
    /// The storage fails.
    async fn saved_rules(&self, owner: &str) -> Result<Vec<SavedRules>, StoreError>;

    /// Renames one of the visitor's rule sets: whether they keep one of that id.
    ///
    /// # Errors
    /// The storage fails.
    async fn rename_rules(&self, owner: &str, id: &str, name: &str) -> Result<bool, StoreError>;

    /// Deletes one of the visitor's rule sets: whether they kept one of that id.
    ///
    /// # Errors
    /// The storage fails.
    async fn delete_rules(&self, owner: &str, id: &str) -> Result<bool, StoreError>;

    /// The review kept for finished game `id` (JSON), if one was made.
    ///
    /// # Errors
    /// The storage fails.
    async fn review(&self, id: &str) -> Result<Option<String>, StoreError>;

    /// Takes the work of reviewing game `id` for this server, at `now` (Unix
    /// ms): whether it is this server's to do — not when the review is kept
    /// already, nor while another server has it (one that took it before
    /// `stale_before` is taken for gone), so that a game is reviewed once
    /// whichever server is asked.
    ///
    /// # Errors
    /// The storage fails (or the game is gone).
    async fn claim_review(&self, id: &str, now: i64, stale_before: i64) -> Result<bool, StoreError>;

    /// Keeps the review of game `id` (JSON).
    ///
    /// # Errors
    /// The storage fails.
    async fn save_review(&self, id: &str, review: &str) -> Result<(), StoreError>;

    /// Stores a new account: false if its `name_key` is taken.
    ///
    /// # Errors
    /// The storage fails.
    async fn create_account(&self, _account: &Account) -> Result<bool, StoreError> {
        Err(no_accounts())
    }

    /// The account whose name has this key.
    ///
    /// # Errors
    /// The storage fails.
    async fn account_by_key(&self, _name_key: &str) -> Result<Option<Account>, StoreError> {
        Err(no_accounts())
    }

    /// Replaces an account's password hash (and its recovery code's hash,
    /// if given): whether the account exists.
    ///
    /// # Errors
    /// The storage fails.
    async fn set_password(&self, _id: &str, _password: &str, _recovery: Option<&str>) -> Result<bool, StoreError> {
        Err(no_accounts())
    }

    /// Deletes an account and its sessions: whether it existed.
    ///
    /// # Errors
    /// The storage fails.
    async fn delete_account(&self, _id: &str) -> Result<bool, StoreError> {
        Err(no_accounts())
    }

    /// Starts a session for `account` (its token's hash), at `now` (Unix
    /// ms); sessions unused since `idle_before` are removed on the way.
    ///
    /// # Errors
    /// The storage fails (or the account is gone).
    async fn create_session(
        &self,
        _token_hash: &str,
        _account: &str,
        _now: i64,
        _idle_before: i64,
    ) -> Result<(), StoreError> {
        Err(no_accounts())
    }

    /// The account of a session used since `idle_before`, renewed (its use
    /// set to `now`) when last used before `renew_before`. An older session
    /// is removed and gives `None`.
    ///
    /// # Errors
    /// The storage fails.
    async fn session(
        &self,
        _token_hash: &str,
        _now: i64,
        _idle_before: i64,
        _renew_before: i64,
    ) -> Result<Option<Account>, StoreError> {
        Err(no_accounts())
    }

    /// Ends one session: whether there was one.
    ///
    /// # Errors
    /// The storage fails.
    async fn end_session(&self, _token_hash: &str) -> Result<bool, StoreError> {
        Err(no_accounts())
    }

    /// Ends every session of `account` but the one whose hash is `keep`:
    /// how many ended.
    ///
    /// # Errors
    /// The storage fails.
    async fn end_sessions(&self, _account: &str, _keep: Option<&str>) -> Result<u64, StoreError> {
        Err(no_accounts())
    }

    // Lobby (services/lobby.rs; SQLite in store/lobby.rs, PostgreSQL in
    // store_pg/lobby.rs).

    /// Opens a lobby table, unless its owner has `per_owner` open already or
    /// the lobby holds `total`: whether it was opened.
    ///
    /// # Errors
    /// The id is taken, or the storage fails.
    async fn lobby_open(&self, _row: &LobbyRow, _per_owner: usize, _total: usize) -> Result<bool, StoreError> {
        Err(no_lobby())
    }

    /// The lobby's tables, oldest first, at most `limit`.
    ///
    /// # Errors
    /// The storage fails.
    async fn lobby_tables(&self, _limit: usize) -> Result<Vec<LobbyRow>, StoreError> {
        Err(no_lobby())
    }

    /// One lobby table.
    ///
    /// # Errors
    /// The storage fails.
    async fn lobby_table(&self, _id: &str) -> Result<Option<LobbyRow>, StoreError> {
        Err(no_lobby())
    }

    /// Changes table `id` if it is still at `version`: to `(body, open,
    /// seen_at)` (its version goes up by one), or removes it (`None`).
    /// Whether it was changed (false: someone changed it first, or it is gone).
    ///
    /// # Errors
    /// The storage fails.
    async fn lobby_update(
        &self,
        _id: &str,
        _version: i64,
        _next: Option<(&str, bool, i64)>,
    ) -> Result<bool, StoreError> {
        Err(no_lobby())
    }

    /// Removes stale tables and waits; returns the ids of the tables removed.
    ///
    /// # Errors
    /// The storage fails.
    async fn lobby_sweep(&self, _when: LobbySweep) -> Result<Vec<String>, StoreError> {
        Err(no_lobby())
    }

    /// Starts a wait for "Play now", unless its owner has `per_owner`
    /// unpaired waits or the storage holds `total`: whether it started.
    ///
    /// # Errors
    /// The id is taken, or the storage fails.
    async fn lobby_wait(&self, _w: &Waiting, _per_owner: usize, _total: usize) -> Result<bool, StoreError> {
        Err(no_lobby())
    }

    /// One wait, its `seen_at` first brought up to `seen_at` if given.
    ///
    /// # Errors
    /// The storage fails.
    async fn lobby_waiting(&self, _id: &str, _seen_at: Option<i64>) -> Result<Option<Waiting>, StoreError> {
        Err(no_lobby())
    }

    /// The unpaired waits asked about since `seen_after`, longest waiting first.
    ///
    /// # Errors
    /// The storage fails.
    async fn lobby_waiters(&self, _seen_after: i64, _limit: usize) -> Result<Vec<Waiting>, StoreError> {
        Err(no_lobby())
    }

    /// Pairs the waits `ids` into `game` (seat = place in `ids`), all or none:
    /// false if any is gone or paired already (whoever asked, on any server).
    ///
    /// # Errors
    /// The storage fails.
    async fn lobby_pair(&self, _ids: &[String], _game: &str) -> Result<bool, StoreError> {
        Err(no_lobby())
    }

    /// Ends an unpaired wait: whether there was one.
    ///
    /// # Errors
    /// The storage fails.
    async fn lobby_cancel(&self, _id: &str) -> Result<bool, StoreError> {
        Err(no_lobby())
    }

    // Clocks (services/clock.rs): kept with the game, as JSON, with the
    // deadline of the move to make now in a column of its own.

    /// Keeps game `id`'s clocks and its deadline (Unix ms; none: untimed).
    ///
    /// # Errors
    /// The storage fails.
    async fn save_clock(&self, _id: &str, _clock: &str, _deadline: Option<i64>) -> Result<(), StoreError> {
        Err(no_clocks())
    }

    /// Keeps game `id`'s clocks only if its deadline is still `expected`
    /// (none included): whether they were kept. One server acts on an expiry.
    ///
    /// # Errors
    /// The storage fails.
    async fn swap_clock(
        &self,
        _id: &str,
        _expected: Option<i64>,
        _clock: &str,
        _deadline: Option<i64>,
    ) -> Result<bool, StoreError> {
        Err(no_clocks())
    }

    /// Game `id`'s clocks (none for a game made before clocks were kept).
    ///
    /// # Errors
    /// The storage fails.
    async fn load_clock(&self, _id: &str) -> Result<Option<String>, StoreError> {
        Ok(None)
    }

    /// Games whose deadline is `now` or earlier, earliest first, at most `limit`.
    ///
    /// # Errors
    /// The storage fails.
    async fn due_clocks(&self, _now: i64, _limit: usize) -> Result<Vec<String>, StoreError> {
        Ok(Vec::new())
    }

    /// The seats, progress and deadline of the games `ids` (those found):
    /// the "your turn" list.
    ///
    /// # Errors
    /// The storage fails.
    async fn turns_of(&self, _ids: &[String]) -> Result<Vec<TurnOf>, StoreError> {
        Ok(Vec::new())
    }

    // Web Push (services/push.rs).

    /// The storage's VAPID private key (base64url): `candidate` is kept if
    /// none is yet, so that every server sharing the storage signs with one key.
    ///
    /// # Errors
    /// The storage fails.
    async fn vapid_key(&self, _candidate: &str, _now: i64) -> Result<String, StoreError> {
        Err(no_push())
    }

    /// Keeps a subscription (its keys renewed if its endpoint and target are
    /// kept already): false, and nothing kept, when its endpoint has
    /// `per_endpoint` targets already or its target `per_target` endpoints.
    ///
    /// # Errors
    /// The storage fails (or its game or account is gone).
    async fn push_subscribe(
        &self,
        _sub: &PushSubscription,
        _per_endpoint: usize,
        _per_target: usize,
    ) -> Result<bool, StoreError> {
        Err(no_push())
    }

    /// Removes an endpoint's subscription to `target` (to every target when
    /// `None`): how many went.
    ///
    /// # Errors
    /// The storage fails.
    async fn push_unsubscribe(&self, _endpoint: &str, _target: Option<&str>) -> Result<u64, StoreError> {
        Err(no_push())
    }

    /// The subscriptions to `target`.
    ///
    /// # Errors
    /// The storage fails.
    async fn push_subscriptions(&self, _target: &str) -> Result<Vec<PushSubscription>, StoreError> {
        Err(no_push())
    }

    /// Marks invited seat `seat` of game `game` as taken: true the first
    /// time only (whichever server asks), so that its creator is told once.
    ///
    /// # Errors
    /// The storage fails (or the game is gone).
    async fn push_invite_taken(&self, _game: &str, _seat: u8) -> Result<bool, StoreError> {
        Err(no_push())
    }

    // --- Ratings, profiles, games linked to accounts (ratings helper) ---

    /// Marks game `id` (just created) as rated, in `pool` ("duel" or "multi").
    ///
    /// # Errors
    /// The storage fails (or the game is gone).
    async fn mark_rated(&self, _id: &str, _pool: &str) -> Result<(), StoreError> {
        Err(no_accounts())
    }

    /// Whether game `id` is rated: `None` if not, `Some(applied)` if it is
    /// (`applied`: its result was applied, or the game was voided).
    ///
    /// # Errors
    /// The storage fails.
    async fn rated(&self, _id: &str) -> Result<Option<bool>, StoreError> {
        Ok(None)
    }

    /// Links the human seat of game `id` held by the token hashing to
    /// `token_hash` to `account`, unless it is linked to another account:
    /// the seat linked (or already linked to this account).
    ///
    /// # Errors
    /// The storage fails.
    async fn link_seat(&self, _id: &str, _token_hash: &str, _account: &str) -> Result<Option<u8>, StoreError> {
        Err(no_accounts())
    }

    /// Applies a rated game's result, **once**: the game is claimed (its
    /// `applied` flag set from 0) in the same transaction as the new
    /// ratings and their history rows, so that whichever servers try, one
    /// applies it. `None` when it was applied (or voided) already. A result
    /// with no seats voids the game (nothing changes, it is never applied).
    ///
    /// # Errors
    /// The storage fails (nothing is applied).
    async fn apply_rating(&self, _result: &RatedResult) -> Result<Option<Vec<RatingChange>>, StoreError> {
        Err(no_accounts())
    }

    /// The account's ratings, one per pool it played rated games in.
    ///
    /// # Errors
    /// The storage fails.
    async fn account_ratings(&self, _account: &str) -> Result<Vec<RatingRow>, StoreError> {
        Err(no_accounts())
    }

    /// The account's rating history, oldest first, the last `limit` rows.
    ///
    /// # Errors
    /// The storage fails.
    async fn rating_history(&self, _account: &str, _limit: usize) -> Result<Vec<HistoryRow>, StoreError> {
        Err(no_accounts())
    }

    /// The games the account holds a seat in, most recently played first.
    ///
    /// # Errors
    /// The storage fails.
    async fn account_games(&self, _account: &str, _limit: usize) -> Result<Vec<AccountGame>, StoreError> {
        Err(no_accounts())
    }

    /// The names of the accounts of these ids (those that exist).
    ///
    /// # Errors
    /// The storage fails.
    async fn account_names(&self, _ids: &[String]) -> Result<Vec<(String, String)>, StoreError> {
        Err(no_accounts())
    }

    /// The best ratings of `pool` among accounts with at least `min_games`
    /// rated games in it: (name, rating), best first.
    ///
    /// # Errors
    /// The storage fails.
    async fn leaderboard(
        &self,
        _pool: &str,
        _min_games: i64,
        _limit: usize,
    ) -> Result<Vec<(String, RatingRow)>, StoreError> {
        Err(no_accounts())
    }

    /// Before an account is deleted: its seats' links are dropped (each
    /// becomes [`DELETED_ACCOUNT`]).
    ///
    /// # Errors
    /// The storage fails.
    async fn forget_account_seats(&self, _account: &str) -> Result<(), StoreError> {
        Err(no_accounts())
    }

    /// Rated games finished before `before` (Unix ms) whose result is not
    /// applied yet (the server that stored the last move stopped first):
    /// their ids and final scores, at most `limit`.
    ///
    /// # Errors
    /// The storage fails.
    async fn unsettled_ratings(&self, _before: i64, _limit: usize) -> Result<Vec<(String, Vec<u32>)>, StoreError> {
        Ok(Vec::new())
    }

    // Passkeys (docs/web.md, *Passkeys*; SQL in store/passkeys.rs).

    /// Keeps a passkey ceremony begun; those expired before `now` are removed on the way.
    ///
    /// # Errors
    /// The storage fails.
    async fn save_passkey_challenge(&self, _challenge: &PasskeyChallenge, _now: i64) -> Result<(), StoreError> {
        Err(no_accounts())
    }

    /// Takes (removes) the ceremony of this token hash and kind: `None` if
    /// there is none, or it expired before `now`.
    ///
    /// # Errors
    /// The storage fails.
    async fn take_passkey_challenge(
        &self,
        _id_hash: &str,
        _kind: &str,
        _now: i64,
    ) -> Result<Option<PasskeyChallenge>, StoreError> {
        Err(no_accounts())
    }

    /// Adds a passkey: false if its credential is stored already or its
    /// account has `max` passkeys.
    ///
    /// # Errors
    /// The storage fails.
    async fn add_passkey(&self, _passkey: &StoredPasskey, _max: usize) -> Result<bool, StoreError> {
        Err(no_accounts())
    }

    /// An account's passkeys, oldest first.
    ///
    /// # Errors
    /// The storage fails.
    async fn passkeys(&self, _account: &str) -> Result<Vec<StoredPasskey>, StoreError> {
        Err(no_accounts())
    }

    /// The passkey of a credential id and its account.
    ///
    /// # Errors
    /// The storage fails.
    async fn passkey_by_credential(
        &self,
        _credential_id: &str,
    ) -> Result<Option<(StoredPasskey, Account)>, StoreError> {
        Err(no_accounts())
    }

    /// A sign-in with a passkey: its new state (counter) and time of use.
    ///
    /// # Errors
    /// The storage fails.
    async fn passkey_used(&self, _credential_id: &str, _passkey: &str, _now: i64) -> Result<bool, StoreError> {
        Err(no_accounts())
    }

    /// Removes one of an account's passkeys: whether it had it.
    ///
    /// # Errors
    /// The storage fails.
    async fn delete_passkey(&self, _account: &str, _credential_id: &str) -> Result<bool, StoreError> {
        Err(no_accounts())
    }

    // ---- Chat and rematch (services/chat.rs, services/rematch.rs) ----

    /// Appends `message` to game `id`'s chat, numbered after its last
    /// (`message.seq` is ignored), unless the chat holds `max` messages
    /// already: its number, or `None` when the chat is full.
    ///
    /// # Errors
    /// The storage fails.
    async fn add_chat(&self, _id: &str, _message: &ChatMessage, _max: usize) -> Result<Option<u64>, StoreError> {
        Err(no_chat())
    }

    /// Game `id`'s chat, in order.
    ///
    /// # Errors
    /// The storage fails.
    async fn chat(&self, _id: &str) -> Result<Vec<ChatMessage>, StoreError> {
        Ok(Vec::new())
    }

    /// Game `id`'s chat settings.
    ///
    /// # Errors
    /// The storage fails.
    async fn chat_settings(&self, _id: &str) -> Result<ChatSettings, StoreError> {
        Ok(ChatSettings::default())
    }

    /// Turns game `id`'s chat off (at its creation).
    ///
    /// # Errors
    /// The storage fails.
    async fn set_chat_off(&self, _id: &str) -> Result<(), StoreError> {
        Err(no_chat())
    }

    /// Seat `seat` of game `id` agrees (or no longer) to the chat's download.
    ///
    /// # Errors
    /// The storage fails.
    async fn set_chat_consent(&self, _id: &str, _seat: u8, _agree: bool) -> Result<(), StoreError> {
        Err(no_chat())
    }

    /// Seat `seat` accepts game `id`'s rematch, where it will hold the token
    /// whose hash is `token_hash`: `false` if it had accepted already.
    ///
    /// # Errors
    /// The storage fails.
    async fn accept_rematch(&self, _id: &str, _seat: u8, _token_hash: &str) -> Result<bool, StoreError> {
        Err(no_chat())
    }

    /// Game `id`'s rematch: who accepted, and the new game if made.
    ///
    /// # Errors
    /// The storage fails.
    async fn rematch(&self, _id: &str) -> Result<Rematch, StoreError> {
        Ok(Rematch::default())
    }

    /// Claims the making of game `id`'s rematch as game `new_id`: `true`
    /// for the one claim that wins, on every server.
    ///
    /// # Errors
    /// The storage fails.
    async fn claim_rematch(&self, _id: &str, _new_id: &str) -> Result<bool, StoreError> {
        Err(no_chat())
    }
}

/// What a storage without Web Push answers (wrappers in tests).
fn no_push() -> StoreError {
    StoreError::failed("this storage keeps no push subscriptions")
}

/// Whose turn a game is, and until when (the "your turn" list, clocks).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TurnOf {
    pub id: String,
    pub seats: Vec<Seat>,
    pub progress: Progress,
    pub deadline: Option<i64>,
}

/// What a storage without clocks answers (wrappers in tests).
fn no_clocks() -> StoreError {
    StoreError::failed("this storage keeps no clocks")
}

/// What a storage without a lobby answers (wrappers in tests need none).
fn no_lobby() -> StoreError {
    StoreError::failed("this storage keeps no lobby")
}

/// What a storage without accounts answers (the real ones keep them;
/// wrappers in tests need not).
/// What a storage without chat (a test's) answers a write of one.
fn no_chat() -> StoreError {
    StoreError::failed("this storage keeps no chat and no rematches")
}

fn no_accounts() -> StoreError {
    StoreError::failed("this storage keeps no accounts")
}

/// The columns an [`Account`] is read from, in its fields' order.
pub(crate) const ACCOUNT_COLUMNS: &str = "a.id, a.name, a.name_key, a.password, a.recovery, a.created_at";

/// The state of a storage's change feed.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Feed {
    /// A storage only one server uses: there is no feed.
    None,
    /// Listening: moves stored by other servers arrive.
    Up,
    /// Not listening (connecting, or reconnecting after losing its connection).
    Down,
}

impl Feed {
    pub fn word(self) -> &'static str {
        match self {
            Feed::None => "none",
            Feed::Up => "up",
            Feed::Down => "down",
        }
    }
}

/// Schema migrations, applied in order; `PRAGMA user_version` counts those applied.
const MIGRATIONS: &[&str] = &[
    // 1: games and their moves.
    "CREATE TABLE games (
        id          TEXT PRIMARY KEY,
        setup       TEXT NOT NULL,     -- the record without moves (rules, players, start, deck, first)
        seats       TEXT NOT NULL,     -- JSON array of seats
        progress    TEXT NOT NULL,     -- JSON: finished, scores, to_move, winners
        moves       INTEGER NOT NULL DEFAULT 0,
        created_at  INTEGER NOT NULL,
        updated_at  INTEGER NOT NULL
    );
    CREATE TABLE moves (
        game_id     TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        ply         INTEGER NOT NULL,  -- 0-based index into the record's moves
        body        TEXT NOT NULL,     -- the record move as JSON
        PRIMARY KEY (game_id, ply)
    );
    CREATE INDEX games_by_update ON games(updated_at DESC);",
    // 2: the live bag's seed (the reshuffle house rule).
    "ALTER TABLE games ADD COLUMN live_seed INTEGER;",
    // 3: seat tokens are kept hashed (done in Rust: `hash_stored_tokens`).
    "",
    // 4: games listed for everyone.
    "ALTER TABLE games ADD COLUMN public INTEGER NOT NULL DEFAULT 0;",
    // 5: named rule sets visitors keep, by the hash of their key.
    "CREATE TABLE rule_sets (
        id          TEXT PRIMARY KEY,
        owner       TEXT NOT NULL,     -- hash of the visitor's key
        name        TEXT NOT NULL,
        code        TEXT NOT NULL,     -- the rule set's code
        created_at  INTEGER NOT NULL   -- Unix ms
    );
    CREATE INDEX rule_sets_by_owner ON rule_sets(owner, created_at);",
    // 6: reviews of finished games, worked out once.
    "CREATE TABLE reviews (
        game_id     TEXT PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
        review      TEXT,              -- JSON; NULL while a server works it out
        claimed_by  TEXT NOT NULL,     -- the server working it out ('' for SQLite's one)
        claimed_at  INTEGER NOT NULL   -- Unix ms
    );",
    // 7: accounts and their sessions (tokens and recovery codes hashed).
    "CREATE TABLE accounts (
        id          TEXT PRIMARY KEY,
        name        TEXT NOT NULL,     -- as shown
        name_key    TEXT NOT NULL UNIQUE, -- as compared (NFKC, case folded)
        password    TEXT NOT NULL,     -- argon2id, PHC string
        recovery    TEXT NOT NULL,     -- SHA-256 of the recovery code
        created_at  INTEGER NOT NULL   -- Unix ms
    );
    CREATE TABLE sessions (
        token_hash  TEXT PRIMARY KEY,  -- SHA-256 of the cookie's token
        account     TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        created_at  INTEGER NOT NULL,  -- Unix ms
        seen_at     INTEGER NOT NULL   -- Unix ms, last use
    );
    CREATE INDEX sessions_by_account ON sessions(account);
    CREATE INDEX sessions_by_use ON sessions(seen_at);",
    // 8 (ratings): seats linked to accounts, rated games, ratings and their history.
    ratings::SQLITE_MIGRATION,
    // 9: passkeys and passkey ceremonies begun (store/passkeys.rs).
    crate::store::passkeys::SQLITE_MIGRATION,
    // 10: chat and rematch (services/chat.rs, services/rematch.rs).
    "CREATE TABLE chat_messages (
        game_id     TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        seq         INTEGER NOT NULL,  -- 1, 2… in the game
        seat        INTEGER,           -- the player's seat; NULL for a spectator
        author      TEXT NOT NULL,     -- hash naming the writer (numbers spectators)
        name        TEXT NOT NULL,
        text        TEXT NOT NULL,
        at          INTEGER NOT NULL,  -- Unix ms
        PRIMARY KEY (game_id, seq)
    );
    CREATE TABLE chat_off (
        game_id     TEXT PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE
    );
    CREATE TABLE chat_consent (
        game_id     TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        seat        INTEGER NOT NULL,
        PRIMARY KEY (game_id, seat)
    );
    CREATE TABLE rematch_accepts (
        game_id     TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        seat        INTEGER NOT NULL,
        token_hash  TEXT NOT NULL,     -- the seat's token in the new game, hashed
        PRIMARY KEY (game_id, seat)
    );
    CREATE TABLE rematches (
        game_id     TEXT PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
        new_game_id TEXT NOT NULL
    );",
    // 11: Web Push: the VAPID key, browsers' subscriptions, invites taken.
    PUSH_MIGRATION,
    // 12: clocks: each seat's time and the deadline of the move to make now.
    "ALTER TABLE games ADD COLUMN clock TEXT;      -- JSON (services/clock.rs ClockState)
    ALTER TABLE games ADD COLUMN deadline INTEGER; -- Unix ms; NULL: untimed, a bot's, over
    CREATE INDEX games_by_deadline ON games(deadline) WHERE deadline IS NOT NULL;",
    // 13: the lobby's tables (the body is the service's JSON; `version`
    // makes every change conditional) and the players waiting for "Play now".
    "CREATE TABLE lobby_tables (
        id          TEXT PRIMARY KEY,
        owner       TEXT NOT NULL,     -- the host's account or address
        body        TEXT NOT NULL,     -- JSON (services/lobby.rs)
        version     INTEGER NOT NULL,
        open        INTEGER NOT NULL,  -- 1 until started
        seen_at     INTEGER NOT NULL,  -- Unix ms, the host last heard from
        created_at  INTEGER NOT NULL   -- Unix ms
    );
    CREATE INDEX lobby_tables_by_owner ON lobby_tables(owner);
    CREATE TABLE lobby_waiting (
        id          TEXT PRIMARY KEY,
        owner       TEXT NOT NULL,     -- the account or address
        token_hash  TEXT NOT NULL,     -- SHA-256 of the coming game's seat token
        name        TEXT NOT NULL,
        rating      INTEGER NOT NULL,
        body        TEXT NOT NULL,     -- JSON (services/lobby.rs)
        since       INTEGER NOT NULL,  -- Unix ms
        seen_at     INTEGER NOT NULL,  -- Unix ms, last asked about
        game        TEXT,              -- the game paired into
        seat        INTEGER
    );
    CREATE INDEX lobby_waiting_by_seen ON lobby_waiting(seen_at);",
    // 14: the language of a push subscription's notifications.
    PUSH_LANG_MIGRATION,
];
/// Web Push's tables (the same in PostgreSQL, `store_pg`).
pub(crate) const PUSH_MIGRATION: &str = "CREATE TABLE push_keys (
        id          INTEGER PRIMARY KEY CHECK (id = 1),
        private_key TEXT NOT NULL,     -- VAPID: a P-256 private key, base64url
        created_at  BIGINT NOT NULL    -- Unix ms
    );
    CREATE TABLE push_subscriptions (
        endpoint    TEXT NOT NULL,     -- the push service's URL for one browser
        target      TEXT NOT NULL,     -- 'seat:<game>:<seat>' or 'account:<id>'
        p256dh      TEXT NOT NULL,     -- the browser's public key, base64url
        auth        TEXT NOT NULL,     -- the browser's auth secret, base64url
        game_id     TEXT REFERENCES games(id) ON DELETE CASCADE,
        account     TEXT REFERENCES accounts(id) ON DELETE CASCADE,
        created_at  BIGINT NOT NULL,   -- Unix ms
        PRIMARY KEY (endpoint, target)
    );
    CREATE INDEX push_by_target ON push_subscriptions (target);
    CREATE TABLE push_invites (
        game_id     TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        seat        INTEGER NOT NULL,
        PRIMARY KEY (game_id, seat)
    );";

/// The columns a [`PushSubscription`] is read from, in its fields' order.
pub(crate) const PUSH_COLUMNS: &str = "endpoint, p256dh, auth, target, game_id, account, created_at, lang";

/// The language of each push subscription's notifications (SQLite and
/// PostgreSQL alike; the subscriptions made before it are English's).
pub(crate) const PUSH_LANG_MIGRATION: &str =
    "ALTER TABLE push_subscriptions ADD COLUMN lang TEXT NOT NULL DEFAULT 'en';";

/// Takes the work of a review (`Store::claim_review`): `?1` game, `?2`
/// server, `?3` now, `?4` stale before. One row changed: taken.
pub(crate) const CLAIM_REVIEW: &str = "INSERT INTO reviews (game_id, review, claimed_by, claimed_at)
     VALUES ($1, NULL, $2, $3)
     ON CONFLICT (game_id) DO UPDATE SET claimed_by = excluded.claimed_by, claimed_at = excluded.claimed_at
     WHERE reviews.review IS NULL AND (reviews.claimed_at < $4 OR reviews.claimed_by = excluded.claimed_by)";

/// Keeps a review (`Store::save_review`): `?1` game, `?2` review.
pub(crate) const SAVE_REVIEW: &str = "INSERT INTO reviews (game_id, review, claimed_by, claimed_at)
     VALUES ($1, $2, '', 0)
     ON CONFLICT (game_id) DO UPDATE SET review = excluded.review";

/// Migration 3: every stored `token` becomes its `token_hash`.
fn hash_stored_tokens(tx: &rusqlite::Transaction<'_>) -> Result<(), StoreError> {
    let rows: Vec<(String, String)> = {
        let mut stmt = tx.prepare("SELECT id, seats FROM games")?;
        let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?;
        rows.collect::<Result<_, _>>()?
    };
    for (id, seats) in rows {
        let mut seats: Vec<serde_json::Value> = serde_json::from_str(&seats)?;
        for seat in &mut seats {
            if let Some(obj) = seat.as_object_mut() {
                if let Some(serde_json::Value::String(token)) = obj.remove("token") {
                    obj.insert("token_hash".into(), hash_token(&token).into());
                }
            }
        }
        tx.execute("UPDATE games SET seats = ?2 WHERE id = ?1", params![id, serde_json::to_string(&seats)?])?;
    }
    Ok(())
}

/// Games in one SQLite file. Its calls run on tokio's blocking threads.
pub struct SqliteStore(Arc<Sqlite>);

/// The file and its connections; its methods block.
struct Sqlite {
    /// Every write, and the reads inside a write.
    conn: Mutex<Connection>,
    /// Reads that stand alone (games loaded, lists, accounts): on a
    /// connection of their own, so that they never wait behind a commit's
    /// sync to disk. In memory (tests) there is only `conn`.
    reader: Option<Mutex<Connection>>,
    /// Moves to commit, for the writer thread.
    writer: std::sync::mpsc::Sender<Pending>,
    /// Tells the checkpointer thread that the write-ahead log grew.
    checkpoints: Option<std::sync::mpsc::SyncSender<()>>,
    /// Checkpoints the checkpointer thread has run.
    checkpointed: Arc<std::sync::atomic::AtomicU64>,
    /// The checkpoints the writer finished between two batches, each
    /// having the log start over.
    restarted: Arc<std::sync::atomic::AtomicU64>,
    /// Set by the checkpointer when the log is past its limit: the writer
    /// finishes the checkpoint between two batches.
    start_over: Arc<std::sync::atomic::AtomicBool>,
    /// One server per file: an exclusive lock on `FILE-lock`, held while
    /// the storage is open (the system releases it when the process ends).
    _lock: Option<std::fs::File>,
}

/// Group commit: every move and every new game is synced to disk before
/// it is acknowledged, and a sync costs milliseconds, so one writer thread
/// commits the writes that arrived during its last commit all at once.
type Pending = (Write, tokio::sync::oneshot::Sender<Result<(), StoreError>>);

/// A write's answer from the writer thread, once committed (or refused).
struct Committed(tokio::sync::oneshot::Receiver<Result<(), StoreError>>);

impl Committed {
    async fn wait(self) -> Result<(), StoreError> {
        self.0.await.map_err(|_| StoreError::failed("the storage's writer stopped"))?
    }
}

/// The most writes committed in one transaction.
const MAX_BATCH: usize = 512;

/// A write for the writer thread.
enum Write {
    /// A new game, with its clocks.
    Create(Box<Create>),
    /// A game's next move.
    Append(Append),
}

/// A `games` row, as it is inserted.
struct Create {
    id: String,
    setup: String,
    seats: String,
    progress: String,
    created_at: i64,
    live_seed: Option<i64>,
    public: bool,
    clock: Option<String>,
    deadline: Option<i64>,
}

struct Append {
    id: String,
    ply: usize,
    body: String,
    progress: String,
    at: i64,
}

impl SqliteStore {
    /// Opens (or creates) the database file and brings its schema up to date.
    ///
    /// # Errors
    /// The file cannot be opened, or is a database from a newer version.
    pub fn open(path: &Path) -> Result<SqliteStore, StoreError> {
        SqliteStore::open_with(path, WAL_SIZE_LIMIT)
    }

    /// [`SqliteStore::open`], the log started over once it is past
    /// `wal_limit` bytes.
    fn open_with(path: &Path, wal_limit: i64) -> Result<SqliteStore, StoreError> {
        // One server per file: the lock is taken now and held until the
        // storage closes (a killed server's lock goes with it). A second
        // server is refused at once rather than fighting over the games.
        // The lock is a file's, not SQLite's exclusive locking mode, so that
        // this server may open the database more than once: reads and
        // checkpoints on connections of their own, off the writer's path.
        let lock_path = format!("{}-lock", path.display());
        let lock = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&lock_path)
            .map_err(|e| StoreError::failed(format!("cannot open {lock_path}: {e}")))?;
        match try_lock(&lock) {
            Ok(true) => {}
            Ok(false) => {
                return Err(StoreError::failed(format!(
                    "{} is in use by another carcassonne server: stop it, or use another --db",
                    path.display()
                )));
            }
            Err(e) => return Err(StoreError::failed(format!("cannot lock {lock_path}: {e}"))),
        }
        let open =
            || Connection::open(path).map_err(|e| StoreError::failed(format!("cannot open {}: {e}", path.display())));
        let mut conn = open()?;
        SqliteStore::prepare(&mut conn, true)?;
        let reader = open()?;
        reader.busy_timeout(std::time::Duration::from_secs(5))?;
        reader.pragma_update(None, "query_only", "ON")?;
        let checkpointer = open()?;
        checkpointer.busy_timeout(std::time::Duration::from_secs(5))?;
        let (tell, told) = std::sync::mpsc::sync_channel(1);
        let store = SqliteStore::start(Sqlite {
            conn: Mutex::new(conn),
            reader: Some(Mutex::new(reader)),
            writer: std::sync::mpsc::channel().0,
            checkpoints: Some(tell),
            checkpointed: Arc::default(),
            restarted: Arc::default(),
            start_over: Arc::default(),
            _lock: Some(lock),
        })?;
        let (done, start_over) = (Arc::clone(&store.0.checkpointed), Arc::clone(&store.0.start_over));
        std::thread::Builder::new()
            .name("sqlite-checkpoints".into())
            .spawn(move || checkpoint_now_and_then(&checkpointer, &told, &done, &start_over, wal_limit))
            .map_err(|e| StoreError::failed(format!("cannot start the storage's checkpointer: {e}")))?;
        Ok(store)
    }

    /// A database in memory (tests).
    ///
    /// # Errors
    /// SQLite fails to start.
    pub fn in_memory() -> Result<SqliteStore, StoreError> {
        let mut conn = Connection::open_in_memory()?;
        SqliteStore::prepare(&mut conn, false)?;
        SqliteStore::start(Sqlite {
            conn: Mutex::new(conn),
            reader: None,
            writer: std::sync::mpsc::channel().0,
            checkpoints: None,
            checkpointed: Arc::default(),
            restarted: Arc::default(),
            start_over: Arc::default(),
            _lock: None,
        })
    }

    /// Sets the writer's connection up and brings the schema up to date.
    /// `file`: a database on disk (not in memory).
    fn prepare(conn: &mut Connection, file: bool) -> Result<(), StoreError> {
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        // WAL with synchronous=FULL: a committed move survives a power cut.
        conn.pragma_update_and_check(None, "journal_mode", "WAL", |_| Ok(()))?;
        conn.pragma_update(None, "synchronous", "FULL")?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        // A transaction takes the write lock as it begins, waiting for it
        // as long as `busy_timeout` says. One that read first would be
        // refused at once (SQLite's deadlock rule) while the checkpointer
        // holds the lock to have the log start over.
        conn.set_transaction_behavior(rusqlite::TransactionBehavior::Immediate);
        // No checkpoint at the end of a commit (SQLite's default past 1,000
        // pages of log): a checkpoint syncs the whole database file, and
        // on the writer's path it held every move behind it for up to a
        // second under heavy disk writes. The checkpointer thread does them.
        // In memory there is no log to grow.
        if file {
            conn.pragma_update(None, "wal_autocheckpoint", 0)?;
            // The log file is cut back to this size when it starts over.
            conn.pragma_update(None, "journal_size_limit", WAL_SIZE_LIMIT)?;
            conn.pragma_update(None, "cache_size", WRITER_CACHE_KIB)?;
        }
        migrate(conn)
    }

    /// Starts the writer thread of `db` (its `writer` is replaced).
    fn start(mut db: Sqlite) -> Result<SqliteStore, StoreError> {
        let (writer, moves) = std::sync::mpsc::channel();
        db.writer = writer;
        let db = Arc::new(db);
        let weak = Arc::downgrade(&db);
        std::thread::Builder::new()
            .name("sqlite-writer".into())
            .spawn(move || write_all(&weak, &moves))
            .map_err(|e| StoreError::failed(format!("cannot start the storage's writer: {e}")))?;
        Ok(SqliteStore(db))
    }

    /// Runs `f` on a blocking thread.
    async fn run<T: Send + 'static>(
        &self,
        f: impl FnOnce(&Sqlite) -> Result<T, StoreError> + Send + 'static,
    ) -> Result<T, StoreError> {
        let db = Arc::clone(&self.0);
        tokio::task::spawn_blocking(move || f(&db))
            .await
            .map_err(|e| StoreError::failed(format!("storage task: {e}")))?
    }
}

impl Sqlite {
    fn conn(&self) -> std::sync::MutexGuard<'_, Connection> {
        // A panic while holding the lock cannot leave a half-done transaction
        // behind (rusqlite rolls back on drop), so a poisoned lock is usable.
        self.conn.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The connection for a read that stands alone: it sees every commit
    /// made before it starts, and waits for no write.
    fn read(&self) -> std::sync::MutexGuard<'_, Connection> {
        match &self.reader {
            Some(reader) => reader.lock().unwrap_or_else(|e| e.into_inner()),
            None => self.conn(),
        }
    }

    /// Wakes the checkpointer (it runs at most one checkpoint at a time;
    /// a wake-up while one is due is not needed twice).
    fn log_grew(&self) {
        if let Some(tell) = &self.checkpoints {
            let _ = tell.try_send(());
        }
    }
}

/// Takes an exclusive lock on `file` if no one holds it (`false` if someone
/// does). It is released when the file is closed, or the process ends.
#[cfg(unix)]
fn try_lock(file: &std::fs::File) -> std::io::Result<bool> {
    use std::os::fd::AsRawFd;
    // SAFETY: flock on a descriptor this function borrows, open for its call.
    if unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } == 0 {
        return Ok(true);
    }
    let e = std::io::Error::last_os_error();
    if e.raw_os_error() == Some(libc::EWOULDBLOCK) {
        Ok(false)
    } else {
        Err(e)
    }
}

/// Elsewhere than on Unix, a file is not locked: one server per file is the
/// operator's to keep.
#[cfg(not(unix))]
fn try_lock(_file: &std::fs::File) -> std::io::Result<bool> {
    Ok(true)
}

/// The writer's page cache, in KiB (SQLite's negative `cache_size`).
const WRITER_CACHE_KIB: i64 = -(64 << 10);

/// The write-ahead log's size once it starts over, in bytes.
const WAL_SIZE_LIMIT: i64 = 64 << 20;

/// The checkpointer thread: after commits (at most every
/// [`CHECKPOINT_EVERY`]), copies the log's pages into the database file
/// without blocking the writer (a passive checkpoint: it stops where it
/// would have to wait). Ends when the storage is dropped.
///
/// Under a steady stream of commits a passive checkpoint never catches up
/// with the last frame, and SQLite starts the log over only once one has:
/// the log would grow without end (1.8 GB in the 85 s of the 10,000-game
/// load), and commits slow down as it grows. So once the log is past the
/// limit ([`WAL_SIZE_LIMIT`] when the store is opened), the checkpointer
/// sets `start_over` and the writer, between two batches, copies what was
/// committed since (see [`write_all`]): its next commit starts the log over.
/// (A restarting checkpoint here did the same, but it had to take the write
/// lock: it waited for a gap between the writer's commits, then the writer
/// waited for it in SQLite's busy handler, which sleeps 1, 2, 5, 10, 15, 20
/// ms… in turn: at 10,000 games the batch after each, about once a
/// second, took 25-58 ms.) `done` counts the checkpoints.
fn checkpoint_now_and_then(
    conn: &Connection,
    told: &std::sync::mpsc::Receiver<()>,
    done: &Arc<std::sync::atomic::AtomicU64>,
    start_over: &std::sync::atomic::AtomicBool,
    wal_limit: i64,
) {
    let page_size: i64 = conn.query_row("PRAGMA page_size", [], |r| r.get(0)).unwrap_or(4096);
    while told.recv().is_ok() {
        match checkpoint(conn, "PASSIVE") {
            Ok((_, frames, _)) => {
                done.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                if frames.saturating_mul(page_size) > wal_limit {
                    start_over.store(true, std::sync::atomic::Ordering::Relaxed);
                }
            }
            Err(e) => tracing::warn!(error = %e, "checkpoint failed"),
        }
        std::thread::sleep(CHECKPOINT_EVERY);
    }
}

/// A checkpoint of `conn`'s database in `mode`: (busy, frames in the log,
/// frames copied), -1, -1 when not in WAL mode.
fn checkpoint(conn: &Connection, mode: &str) -> rusqlite::Result<(i64, i64, i64)> {
    conn.query_row(&format!("PRAGMA wal_checkpoint({mode})"), [], |r| {
        Ok((r.get::<_, i64>(0)?, r.get::<_, i64>(1)?, r.get::<_, i64>(2)?))
    })
}

/// The least time between two checkpoints.
const CHECKPOINT_EVERY: std::time::Duration = std::time::Duration::from_millis(200);

/// The writer thread: takes the writes queued (all of them, up to
/// [`MAX_BATCH`]), commits them together and answers each. Ends when the
/// storage is dropped.
fn write_all(db: &std::sync::Weak<Sqlite>, writes: &std::sync::mpsc::Receiver<Pending>) {
    while let Ok(first) = writes.recv() {
        let all: Vec<Pending> = std::iter::once(first).chain(writes.try_iter().take(MAX_BATCH - 1)).collect();
        let (batch, replies): (Vec<Write>, Vec<_>) = all.into_iter().unzip();
        let Some(db) = db.upgrade() else {
            for reply in replies {
                let _ = reply.send(Err(StoreError::failed("the storage is closed")));
            }
            continue;
        };
        let outcomes = commit_batch(&mut db.conn(), &batch);
        for (reply, outcome) in replies.into_iter().zip(outcomes) {
            let _ = reply.send(outcome);
        }
        // The batch answered, and before the next: with no commit of its
        // own under way, a checkpoint on the writer's connection copies
        // what the checkpointer has not (the last fraction of a second's
        // commits), and the next commit starts the log over.
        if db.start_over.swap(false, std::sync::atomic::Ordering::Relaxed) {
            match checkpoint(&db.conn(), "PASSIVE") {
                Ok((0, frames, copied)) if frames == copied => {
                    db.restarted.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                }
                // A reader still on an older snapshot: the checkpointer asks again.
                Ok(_) => {}
                Err(e) => tracing::warn!(error = %e, "checkpoint failed"),
            }
        }
        db.log_grew();
    }
}

/// Writes a batch in one transaction (one sync), each write under its own
/// savepoint so that a refused one (a move whose game is gone, or has
/// another move at its place; a game whose id is taken) leaves the others
/// alone. The outcomes are in the batch's order; none is `Ok` unless the
/// commit was.
fn commit_batch(conn: &mut Connection, batch: &[Write]) -> Vec<Result<(), StoreError>> {
    let all_failed = |e: &dyn fmt::Display| batch.iter().map(|_| Err(StoreError::failed(e.to_string()))).collect();
    let mut tx = match conn.transaction() {
        Ok(tx) => tx,
        Err(e) => return all_failed(&e),
    };
    let mut outcomes = Vec::with_capacity(batch.len());
    for w in batch {
        let outcome = match tx.savepoint() {
            Ok(mut sp) => match write_one(&sp, w) {
                Ok(()) => sp.commit().map_err(StoreError::from),
                Err(e) => {
                    let _ = sp.rollback();
                    Err(e)
                }
            },
            Err(e) => Err(e.into()),
        };
        outcomes.push(outcome);
    }
    match tx.commit() {
        Ok(()) => outcomes,
        Err(e) => all_failed(&e),
    }
}

fn write_one(tx: &Connection, w: &Write) -> Result<(), StoreError> {
    match w {
        Write::Create(c) => insert_game(tx, c),
        Write::Append(a) => append_one(tx, a),
    }
}

/// Inserts a new game's row. A taken id is refused.
fn insert_game(tx: &Connection, c: &Create) -> Result<(), StoreError> {
    let taken: bool =
        tx.prepare_cached("SELECT EXISTS (SELECT 1 FROM games WHERE id = ?1)")?.query_row([&c.id], |r| r.get(0))?;
    if taken {
        return Err(StoreError::failed(format!("game id {} is taken", c.id)));
    }
    tx.prepare_cached(
        "INSERT INTO games (id, setup, seats, progress, moves, created_at, updated_at, live_seed, public, clock, deadline)
         VALUES (?1, ?2, ?3, ?4, 0, ?5, ?5, ?6, ?7, ?8, ?9)",
    )?
    .execute(params![c.id, c.setup, c.seats, c.progress, c.created_at, c.live_seed, c.public, c.clock, c.deadline])?;
    Ok(())
}

/// Appends one move. The games row is updated only if the move is the next
/// one (one statement checks and writes), then the move is inserted.
fn append_one(tx: &Connection, a: &Append) -> Result<(), StoreError> {
    let ply = a.ply as i64;
    let updated = tx
        .prepare_cached("UPDATE games SET moves = ?2 + 1, progress = ?3, updated_at = ?4 WHERE id = ?1 AND moves = ?2")?
        .execute(params![a.id, ply, a.progress, a.at])?;
    if updated == 0 {
        let moves: Option<i64> =
            tx.prepare_cached("SELECT moves FROM games WHERE id = ?1")?.query_row([&a.id], |r| r.get(0)).optional()?;
        return Err(match moves {
            None => StoreError::failed(format!("no game {}", a.id)),
            Some(n) => StoreError::Conflict(format!("game {} has {n} moves stored, not {}", a.id, a.ply)),
        });
    }
    tx.prepare_cached("INSERT INTO moves (game_id, ply, body) VALUES (?1, ?2, ?3)")?
        .execute(params![a.id, ply, a.body])?;
    Ok(())
}

fn migrate(conn: &mut Connection) -> Result<(), StoreError> {
    let version: i64 = conn.pragma_query_value(None, "user_version", |r| r.get(0))?;
    let known = MIGRATIONS.len() as i64;
    if version > known {
        return Err(StoreError::failed(format!(
            "the database has schema version {version}, newer than this program's {known}: use a newer carcassonne"
        )));
    }
    for (i, sql) in MIGRATIONS.iter().enumerate().skip(version as usize) {
        let tx = conn.transaction()?;
        tx.execute_batch(sql)?;
        if i + 1 == 3 {
            hash_stored_tokens(&tx)?;
        }
        tx.pragma_update(None, "user_version", i as i64 + 1)?;
        tx.commit()?;
        tracing::info!(version = i + 1, "database migrated");
    }
    Ok(())
}

#[async_trait::async_trait]
impl Store for SqliteStore {
    async fn create_game(&self, game: &NewGame) -> Result<(), StoreError> {
        self.0.create_game(game)?.wait().await
    }

    async fn append_move(&self, id: &str, ply: usize, mv: &RecordMove, progress: &Progress) -> Result<(), StoreError> {
        self.0.append_move(id, ply, mv, progress)?.wait().await
    }

    async fn load(&self, id: &str) -> Result<Option<StoredGame>, StoreError> {
        let id = id.to_string();
        self.run(move |db| db.load(&id)).await
    }

    async fn list(&self, limit: usize) -> Result<Vec<GameSummary>, StoreError> {
        self.run(move |db| db.summaries("1", limit, None)).await
    }

    async fn listed(&self, ids: &[String], limit: usize) -> Result<Vec<GameSummary>, StoreError> {
        let ids = serde_json::to_string(ids)?;
        self.run(move |db| db.summaries("public = 1 OR id IN (SELECT value FROM json_each(?2))", limit, Some(ids)))
            .await
    }

    async fn in_play(&self) -> Result<Vec<GameSummary>, StoreError> {
        self.run(|db| db.summaries("json_extract(progress, '$.finished') = 0", usize::MAX >> 1, None)).await
    }

    async fn health(&self) -> Result<(), StoreError> {
        self.run(|db| {
            db.conn().query_row("SELECT 1", [], |_| Ok(()))?;
            Ok(())
        })
        .await
    }

    async fn expire(&self, before: i64) -> Result<Vec<String>, StoreError> {
        self.run(move |db| db.expire(before)).await
    }

    async fn save_rules(&self, owner: &str, rules: &SavedRules, max: usize) -> Result<bool, StoreError> {
        let (owner, rules) = (owner.to_string(), rules.clone());
        self.run(move |db| db.save_rules(&owner, &rules, max)).await
    }

    async fn saved_rules(&self, owner: &str) -> Result<Vec<SavedRules>, StoreError> {
        let owner = owner.to_string();
        self.run(move |db| db.saved_rules(&owner)).await
    }

    async fn rename_rules(&self, owner: &str, id: &str, name: &str) -> Result<bool, StoreError> {
        let (owner, id, name) = (owner.to_string(), id.to_string(), name.to_string());
        self.run(move |db| db.rename_rules(&owner, &id, &name)).await
    }

    async fn delete_rules(&self, owner: &str, id: &str) -> Result<bool, StoreError> {
        let (owner, id) = (owner.to_string(), id.to_string());
        self.run(move |db| db.delete_rules(&owner, &id)).await
    }

    async fn review(&self, id: &str) -> Result<Option<String>, StoreError> {
        let id = id.to_string();
        self.run(move |db| {
            let conn = db.read();
            let found = conn
                .query_row("SELECT review FROM reviews WHERE game_id = ?1", [&id], |r| r.get::<_, Option<String>>(0))
                .optional()?;
            Ok(found.flatten())
        })
        .await
    }

    async fn claim_review(&self, id: &str, now: i64, stale_before: i64) -> Result<bool, StoreError> {
        let id = id.to_string();
        self.run(move |db| Ok(db.conn().execute(CLAIM_REVIEW, params![id, "", now, stale_before])? == 1)).await
    }

    async fn save_review(&self, id: &str, review: &str) -> Result<(), StoreError> {
        let (id, review) = (id.to_string(), review.to_string());
        self.run(move |db| {
            db.conn().execute(SAVE_REVIEW, params![id, review])?;
            Ok(())
        })
        .await
    }

    async fn create_account(&self, account: &Account) -> Result<bool, StoreError> {
        let a = account.clone();
        self.run(move |db| {
            let n = db.conn().execute(
                "INSERT INTO accounts (id, name, name_key, password, recovery, created_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6) ON CONFLICT (name_key) DO NOTHING",
                params![a.id, a.name, a.name_key, a.password, a.recovery, a.created_at],
            )?;
            Ok(n == 1)
        })
        .await
    }

    async fn account_by_key(&self, name_key: &str) -> Result<Option<Account>, StoreError> {
        let key = name_key.to_string();
        self.run(move |db| {
            let sql = format!("SELECT {ACCOUNT_COLUMNS} FROM accounts a WHERE a.name_key = ?1");
            Ok(db.read().query_row(&sql, [key], account_row).optional()?)
        })
        .await
    }

    async fn set_password(&self, id: &str, password: &str, recovery: Option<&str>) -> Result<bool, StoreError> {
        let (id, password, recovery) = (id.to_string(), password.to_string(), recovery.map(str::to_string));
        self.run(move |db| {
            let n = db.conn().execute(
                "UPDATE accounts SET password = ?2, recovery = COALESCE(?3, recovery) WHERE id = ?1",
                params![id, password, recovery],
            )?;
            Ok(n == 1)
        })
        .await
    }

    async fn delete_account(&self, id: &str) -> Result<bool, StoreError> {
        let id = id.to_string();
        self.run(move |db| Ok(db.conn().execute("DELETE FROM accounts WHERE id = ?1", [id])? == 1)).await
    }

    async fn create_session(
        &self,
        token_hash: &str,
        account: &str,
        now: i64,
        idle_before: i64,
    ) -> Result<(), StoreError> {
        let (hash, account) = (token_hash.to_string(), account.to_string());
        self.run(move |db| {
            let mut conn = db.conn();
            let tx = conn.transaction()?;
            tx.execute("DELETE FROM sessions WHERE seen_at < ?1", [idle_before])?;
            tx.execute(
                "INSERT INTO sessions (token_hash, account, created_at, seen_at) VALUES (?1, ?2, ?3, ?3)",
                params![hash, account, now],
            )?;
            tx.commit()?;
            Ok(())
        })
        .await
    }

    async fn session(
        &self,
        token_hash: &str,
        now: i64,
        idle_before: i64,
        renew_before: i64,
    ) -> Result<Option<Account>, StoreError> {
        let hash = token_hash.to_string();
        self.run(move |db| {
            // Most requests only read; the writer's connection is taken only
            // to end an idle session or to renew one.
            let sql = format!(
                "SELECT {ACCOUNT_COLUMNS}, s.seen_at FROM sessions s JOIN accounts a ON a.id = s.account
                 WHERE s.token_hash = ?1"
            );
            let found = db
                .read()
                .query_row(&sql, [&hash], |r| Ok((account_row(r)?, r.get::<_, i64>("seen_at")?)))
                .optional()?;
            let Some((account, seen_at)) = found else { return Ok(None) };
            if seen_at < idle_before {
                db.conn().execute(
                    "DELETE FROM sessions WHERE token_hash = ?1 AND seen_at < ?2",
                    params![hash, idle_before],
                )?;
                return Ok(None);
            }
            if seen_at < renew_before {
                let renewed = db.conn().execute(
                    "UPDATE sessions SET seen_at = ?2 WHERE token_hash = ?1 AND seen_at < ?3",
                    params![hash, now, renew_before],
                )?;
                if renewed == 0 {
                    // Ended (or renewed) since it was read: read it again.
                    let sql = format!(
                        "SELECT {ACCOUNT_COLUMNS} FROM sessions s JOIN accounts a ON a.id = s.account
                         WHERE s.token_hash = ?1 AND s.seen_at >= ?2"
                    );
                    return Ok(db.conn().query_row(&sql, params![hash, idle_before], account_row).optional()?);
                }
            }
            Ok(Some(account))
        })
        .await
    }

    async fn end_session(&self, token_hash: &str) -> Result<bool, StoreError> {
        let hash = token_hash.to_string();
        self.run(move |db| Ok(db.conn().execute("DELETE FROM sessions WHERE token_hash = ?1", [hash])? == 1)).await
    }

    async fn end_sessions(&self, account: &str, keep: Option<&str>) -> Result<u64, StoreError> {
        let (account, keep) = (account.to_string(), keep.unwrap_or_default().to_string());
        self.run(move |db| {
            let n = db
                .conn()
                .execute("DELETE FROM sessions WHERE account = ?1 AND token_hash <> ?2", params![account, keep])?;
            Ok(n as u64)
        })
        .await
    }

    // --- Ratings (ratings helper): store/ratings.rs ---

    async fn mark_rated(&self, id: &str, pool: &str) -> Result<(), StoreError> {
        self.ratings_mark_rated(id, pool).await
    }

    async fn rated(&self, id: &str) -> Result<Option<bool>, StoreError> {
        self.ratings_rated(id).await
    }

    async fn link_seat(&self, id: &str, token_hash: &str, account: &str) -> Result<Option<u8>, StoreError> {
        self.ratings_link_seat(id, token_hash, account).await
    }

    async fn apply_rating(&self, result: &RatedResult) -> Result<Option<Vec<RatingChange>>, StoreError> {
        self.ratings_apply(result).await
    }

    async fn account_ratings(&self, account: &str) -> Result<Vec<RatingRow>, StoreError> {
        self.ratings_of(account).await
    }

    async fn rating_history(&self, account: &str, limit: usize) -> Result<Vec<HistoryRow>, StoreError> {
        self.ratings_history(account, limit).await
    }

    async fn account_games(&self, account: &str, limit: usize) -> Result<Vec<AccountGame>, StoreError> {
        self.ratings_account_games(account, limit).await
    }

    async fn account_names(&self, ids: &[String]) -> Result<Vec<(String, String)>, StoreError> {
        self.ratings_account_names(ids).await
    }

    async fn leaderboard(
        &self,
        pool: &str,
        min_games: i64,
        limit: usize,
    ) -> Result<Vec<(String, RatingRow)>, StoreError> {
        self.ratings_leaderboard(pool, min_games, limit).await
    }

    async fn forget_account_seats(&self, account: &str) -> Result<(), StoreError> {
        self.ratings_forget_account(account).await
    }

    async fn unsettled_ratings(&self, before: i64, limit: usize) -> Result<Vec<(String, Vec<u32>)>, StoreError> {
        self.ratings_unsettled(before, limit).await
    }

    // Passkeys (store/passkeys.rs).

    async fn save_passkey_challenge(&self, challenge: &PasskeyChallenge, now: i64) -> Result<(), StoreError> {
        let c = challenge.clone();
        self.run(move |db| passkeys_sql::save_challenge(&mut db.conn(), &c, now)).await
    }

    async fn take_passkey_challenge(
        &self,
        id_hash: &str,
        kind: &str,
        now: i64,
    ) -> Result<Option<PasskeyChallenge>, StoreError> {
        let (id_hash, kind) = (id_hash.to_string(), kind.to_string());
        self.run(move |db| passkeys_sql::take_challenge(&db.conn(), &id_hash, &kind, now)).await
    }

    async fn add_passkey(&self, passkey: &StoredPasskey, max: usize) -> Result<bool, StoreError> {
        let p = passkey.clone();
        self.run(move |db| passkeys_sql::add(&db.conn(), &p, max)).await
    }

    async fn passkeys(&self, account: &str) -> Result<Vec<StoredPasskey>, StoreError> {
        let account = account.to_string();
        self.run(move |db| passkeys_sql::list(&db.conn(), &account)).await
    }

    async fn passkey_by_credential(&self, credential_id: &str) -> Result<Option<(StoredPasskey, Account)>, StoreError> {
        let id = credential_id.to_string();
        self.run(move |db| passkeys_sql::by_credential(&db.conn(), &id)).await
    }

    async fn passkey_used(&self, credential_id: &str, passkey: &str, now: i64) -> Result<bool, StoreError> {
        let (id, passkey) = (credential_id.to_string(), passkey.to_string());
        self.run(move |db| passkeys_sql::used(&db.conn(), &id, &passkey, now)).await
    }

    async fn delete_passkey(&self, account: &str, credential_id: &str) -> Result<bool, StoreError> {
        let (account, id) = (account.to_string(), credential_id.to_string());
        self.run(move |db| passkeys_sql::delete(&db.conn(), &account, &id)).await
    }

    // ---- Chat and rematch ----

    async fn add_chat(&self, id: &str, message: &ChatMessage, max: usize) -> Result<Option<u64>, StoreError> {
        let (id, m) = (id.to_string(), message.clone());
        self.run(move |db| {
            let seq = db
                .conn()
                .query_row(
                    "INSERT INTO chat_messages (game_id, seq, seat, author, name, text, at)
                     SELECT ?1, (SELECT COALESCE(MAX(seq), 0) + 1 FROM chat_messages WHERE game_id = ?1),
                            ?2, ?3, ?4, ?5, ?6
                     WHERE (SELECT COUNT(*) FROM chat_messages WHERE game_id = ?1) < ?7
                     RETURNING seq",
                    params![id, m.seat, m.author, m.name, m.text, m.at, max as i64],
                    |r| r.get::<_, i64>(0),
                )
                .optional()?;
            Ok(seq.map(|s| s as u64))
        })
        .await
    }

    async fn chat(&self, id: &str) -> Result<Vec<ChatMessage>, StoreError> {
        let id = id.to_string();
        self.run(move |db| {
            let conn = db.conn();
            let mut st = conn.prepare_cached(
                "SELECT seq, seat, author, name, text, at FROM chat_messages WHERE game_id = ?1 ORDER BY seq",
            )?;
            let rows = st.query_map([&id], |r| {
                Ok(ChatMessage {
                    seq: r.get::<_, i64>(0)? as u64,
                    seat: r.get(1)?,
                    author: r.get(2)?,
                    name: r.get(3)?,
                    text: r.get(4)?,
                    at: r.get(5)?,
                })
            })?;
            Ok(rows.collect::<Result<Vec<_>, _>>()?)
        })
        .await
    }

    async fn chat_settings(&self, id: &str) -> Result<ChatSettings, StoreError> {
        let id = id.to_string();
        self.run(move |db| {
            let conn = db.conn();
            let off =
                conn.query_row("SELECT 1 FROM chat_off WHERE game_id = ?1", [&id], |_| Ok(())).optional()?.is_some();
            let mut st = conn.prepare_cached("SELECT seat FROM chat_consent WHERE game_id = ?1 ORDER BY seat")?;
            let consent = st.query_map([&id], |r| r.get::<_, u8>(0))?.collect::<Result<Vec<_>, _>>()?;
            Ok(ChatSettings { off, consent })
        })
        .await
    }

    async fn set_chat_off(&self, id: &str) -> Result<(), StoreError> {
        let id = id.to_string();
        self.run(move |db| {
            db.conn().execute("INSERT OR IGNORE INTO chat_off (game_id) VALUES (?1)", [&id])?;
            Ok(())
        })
        .await
    }

    async fn set_chat_consent(&self, id: &str, seat: u8, agree: bool) -> Result<(), StoreError> {
        let id = id.to_string();
        self.run(move |db| {
            let sql = if agree {
                "INSERT OR IGNORE INTO chat_consent (game_id, seat) VALUES (?1, ?2)"
            } else {
                "DELETE FROM chat_consent WHERE game_id = ?1 AND seat = ?2"
            };
            db.conn().execute(sql, params![id, seat])?;
            Ok(())
        })
        .await
    }

    async fn accept_rematch(&self, id: &str, seat: u8, token_hash: &str) -> Result<bool, StoreError> {
        let (id, hash) = (id.to_string(), token_hash.to_string());
        self.run(move |db| {
            let n = db.conn().execute(
                "INSERT OR IGNORE INTO rematch_accepts (game_id, seat, token_hash) VALUES (?1, ?2, ?3)",
                params![id, seat, hash],
            )?;
            Ok(n == 1)
        })
        .await
    }

    async fn rematch(&self, id: &str) -> Result<Rematch, StoreError> {
        let id = id.to_string();
        self.run(move |db| {
            let conn = db.conn();
            let mut st =
                conn.prepare_cached("SELECT seat, token_hash FROM rematch_accepts WHERE game_id = ?1 ORDER BY seat")?;
            let accepted = st.query_map([&id], |r| Ok((r.get::<_, u8>(0)?, r.get(1)?)))?.collect::<Result<_, _>>()?;
            let game = conn
                .query_row("SELECT new_game_id FROM rematches WHERE game_id = ?1", [&id], |r| r.get(0))
                .optional()?;
            Ok(Rematch { accepted, game })
        })
        .await
    }

    async fn claim_rematch(&self, id: &str, new_id: &str) -> Result<bool, StoreError> {
        let (id, new_id) = (id.to_string(), new_id.to_string());
        self.run(move |db| {
            let n = db.conn().execute(
                "INSERT OR IGNORE INTO rematches (game_id, new_game_id) VALUES (?1, ?2)",
                params![id, new_id],
            )?;
            Ok(n == 1)
        })
        .await
    }

    async fn vapid_key(&self, candidate: &str, now: i64) -> Result<String, StoreError> {
        let candidate = candidate.to_string();
        self.run(move |db| {
            let conn = db.conn();
            conn.execute(
                "INSERT INTO push_keys (id, private_key, created_at) VALUES (1, ?1, ?2) ON CONFLICT (id) DO NOTHING",
                params![candidate, now],
            )?;
            Ok(conn.query_row("SELECT private_key FROM push_keys WHERE id = 1", [], |r| r.get(0))?)
        })
        .await
    }

    async fn push_subscribe(
        &self,
        sub: &PushSubscription,
        per_endpoint: usize,
        per_target: usize,
    ) -> Result<bool, StoreError> {
        let sub = sub.clone();
        self.run(move |db| {
            let mut conn = db.conn();
            let tx = conn.transaction()?;
            let renewed = tx.execute(
                "UPDATE push_subscriptions SET p256dh = ?3, auth = ?4, lang = ?5 WHERE endpoint = ?1 AND target = ?2",
                params![sub.endpoint, sub.target, sub.p256dh, sub.auth, sub.lang],
            )?;
            if renewed == 0 {
                let count = |sql: &str, key: &str| tx.query_row(sql, [key], |r| r.get::<_, i64>(0));
                let by_endpoint = count("SELECT count(*) FROM push_subscriptions WHERE endpoint = ?1", &sub.endpoint)?;
                let by_target = count("SELECT count(*) FROM push_subscriptions WHERE target = ?1", &sub.target)?;
                if by_endpoint as usize >= per_endpoint || by_target as usize >= per_target {
                    return Ok(false);
                }
                tx.execute(
                    &format!("INSERT INTO push_subscriptions ({PUSH_COLUMNS}) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)"),
                    params![
                        sub.endpoint,
                        sub.p256dh,
                        sub.auth,
                        sub.target,
                        sub.game_id,
                        sub.account,
                        sub.created_at,
                        sub.lang
                    ],
                )?;
            }
            tx.commit()?;
            Ok(true)
        })
        .await
    }

    async fn push_unsubscribe(&self, endpoint: &str, target: Option<&str>) -> Result<u64, StoreError> {
        let (endpoint, target) = (endpoint.to_string(), target.map(str::to_string));
        self.run(move |db| {
            let n = db.conn().execute(
                "DELETE FROM push_subscriptions WHERE endpoint = ?1 AND (?2 IS NULL OR target = ?2)",
                params![endpoint, target],
            )?;
            Ok(n as u64)
        })
        .await
    }

    async fn push_subscriptions(&self, target: &str) -> Result<Vec<PushSubscription>, StoreError> {
        let target = target.to_string();
        self.run(move |db| {
            let conn = db.conn();
            let mut stmt = conn.prepare(&format!(
                "SELECT {PUSH_COLUMNS} FROM push_subscriptions WHERE target = ?1 ORDER BY created_at"
            ))?;
            let rows = stmt.query_map([target], |r| {
                Ok(PushSubscription {
                    endpoint: r.get(0)?,
                    p256dh: r.get(1)?,
                    auth: r.get(2)?,
                    target: r.get(3)?,
                    game_id: r.get(4)?,
                    account: r.get(5)?,
                    created_at: r.get(6)?,
                    lang: r.get(7)?,
                })
            })?;
            Ok(rows.collect::<Result<Vec<_>, _>>()?)
        })
        .await
    }

    async fn push_invite_taken(&self, game: &str, seat: u8) -> Result<bool, StoreError> {
        let game = game.to_string();
        self.run(move |db| {
            let n = db.conn().execute(
                "INSERT INTO push_invites (game_id, seat) VALUES (?1, ?2) ON CONFLICT DO NOTHING",
                params![game, seat],
            )?;
            Ok(n == 1)
        })
        .await
    }

    async fn save_clock(&self, id: &str, clock: &str, deadline: Option<i64>) -> Result<(), StoreError> {
        let (id, clock) = (id.to_string(), clock.to_string());
        self.run(move |db| {
            db.conn()
                .execute("UPDATE games SET clock = ?2, deadline = ?3 WHERE id = ?1", params![id, clock, deadline])?;
            Ok(())
        })
        .await
    }

    async fn swap_clock(
        &self,
        id: &str,
        expected: Option<i64>,
        clock: &str,
        deadline: Option<i64>,
    ) -> Result<bool, StoreError> {
        let (id, clock) = (id.to_string(), clock.to_string());
        self.run(move |db| {
            let n = db.conn().execute(
                "UPDATE games SET clock = ?2, deadline = ?3 WHERE id = ?1 AND deadline IS ?4",
                params![id, clock, deadline, expected],
            )?;
            Ok(n == 1)
        })
        .await
    }

    async fn load_clock(&self, id: &str) -> Result<Option<String>, StoreError> {
        let id = id.to_string();
        self.run(move |db| {
            let found = db
                .conn()
                .query_row("SELECT clock FROM games WHERE id = ?1", [&id], |r| r.get::<_, Option<String>>(0))
                .optional()?;
            Ok(found.flatten())
        })
        .await
    }

    async fn due_clocks(&self, now: i64, limit: usize) -> Result<Vec<String>, StoreError> {
        let limit = limit.min(i64::MAX as usize) as i64;
        self.run(move |db| {
            let conn = db.conn();
            let mut stmt = conn.prepare(
                "SELECT id FROM games WHERE deadline IS NOT NULL AND deadline <= ?1 ORDER BY deadline LIMIT ?2",
            )?;
            let ids = stmt.query_map(params![now, limit], |r| r.get::<_, String>(0))?.collect::<Result<Vec<_>, _>>()?;
            Ok(ids)
        })
        .await
    }

    async fn turns_of(&self, ids: &[String]) -> Result<Vec<TurnOf>, StoreError> {
        let ids = serde_json::to_string(ids)?;
        self.run(move |db| {
            let conn = db.conn();
            let mut stmt = conn.prepare(
                "SELECT id, seats, progress, deadline FROM games WHERE id IN (SELECT value FROM json_each(?1))",
            )?;
            let rows = stmt
                .query_map([ids], |r| {
                    Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?, r.get::<_, String>(2)?, r.get(3)?))
                })?
                .collect::<Result<Vec<_>, _>>()?;
            rows.into_iter()
                .map(|(id, seats, progress, deadline)| {
                    Ok(TurnOf {
                        id,
                        seats: serde_json::from_str(&seats)?,
                        progress: serde_json::from_str(&progress)?,
                        deadline,
                    })
                })
                .collect()
        })
        .await
    }

    // Lobby: in store/lobby.rs.
    async fn lobby_open(&self, row: &LobbyRow, per_owner: usize, total: usize) -> Result<bool, StoreError> {
        lobby::open(self, row, per_owner, total).await
    }

    async fn lobby_tables(&self, limit: usize) -> Result<Vec<LobbyRow>, StoreError> {
        lobby::tables(self, limit).await
    }

    async fn lobby_table(&self, id: &str) -> Result<Option<LobbyRow>, StoreError> {
        lobby::table(self, id).await
    }

    async fn lobby_update(&self, id: &str, version: i64, next: Option<(&str, bool, i64)>) -> Result<bool, StoreError> {
        lobby::update(self, id, version, next).await
    }

    async fn lobby_sweep(&self, when: LobbySweep) -> Result<Vec<String>, StoreError> {
        lobby::sweep(self, when).await
    }

    async fn lobby_wait(&self, w: &Waiting, per_owner: usize, total: usize) -> Result<bool, StoreError> {
        lobby::wait(self, w, per_owner, total).await
    }

    async fn lobby_waiting(&self, id: &str, seen_at: Option<i64>) -> Result<Option<Waiting>, StoreError> {
        lobby::waiting(self, id, seen_at).await
    }

    async fn lobby_waiters(&self, seen_after: i64, limit: usize) -> Result<Vec<Waiting>, StoreError> {
        lobby::waiters(self, seen_after, limit).await
    }

    async fn lobby_pair(&self, ids: &[String], game: &str) -> Result<bool, StoreError> {
        lobby::pair(self, ids, game).await
    }

    async fn lobby_cancel(&self, id: &str) -> Result<bool, StoreError> {
        lobby::cancel(self, id).await
    }
}

fn account_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<Account> {
    Ok(Account {
        id: r.get(0)?,
        name: r.get(1)?,
        name_key: r.get(2)?,
        password: r.get(3)?,
        recovery: r.get(4)?,
        created_at: r.get(5)?,
    })
}

impl Sqlite {
    /// Queues a new game for the writer thread: the answer comes once it is
    /// committed (or refused).
    fn create_game(&self, game: &NewGame) -> Result<Committed, StoreError> {
        let (setup, progress) = game.setup_and_progress();
        self.queue(Write::Create(Box::new(Create {
            id: game.id.clone(),
            setup: serde_json::to_string(&setup)?,
            seats: serde_json::to_string(&game.seats)?,
            progress: serde_json::to_string(&progress)?,
            created_at: game.created_at,
            // SQLite integers are signed: the seed's bits are kept as they are.
            live_seed: game.live_seed.map(|s| s as i64),
            public: game.public,
            clock: game.clock.clone(),
            deadline: game.deadline,
        })))
    }

    /// Queues a move for the writer thread: the answer comes once it is
    /// committed (or refused).
    fn append_move(&self, id: &str, ply: usize, mv: &RecordMove, progress: &Progress) -> Result<Committed, StoreError> {
        self.queue(Write::Append(Append {
            id: id.to_string(),
            ply,
            body: serde_json::to_string(mv)?,
            progress: serde_json::to_string(progress)?,
            at: progress.at,
        }))
    }

    fn queue(&self, write: Write) -> Result<Committed, StoreError> {
        let (reply, answer) = tokio::sync::oneshot::channel();
        self.writer.send((write, reply)).map_err(|_| StoreError::failed("the storage's writer stopped"))?;
        Ok(Committed(answer))
    }

    fn load(&self, id: &str) -> Result<Option<StoredGame>, StoreError> {
        let conn = self.read();
        type Row = (String, String, i64, i64, Option<i64>);
        let row: Option<Row> = conn
            .query_row("SELECT setup, seats, created_at, updated_at, live_seed FROM games WHERE id = ?1", [id], |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?))
            })
            .optional()?;
        let Some((setup, seats, created_at, updated_at, live_seed)) = row else {
            return Ok(None);
        };
        let mut record: Record = serde_json::from_str(&setup)?;
        let seats: Vec<Seat> = serde_json::from_str(&seats)?;
        let mut stmt = conn.prepare("SELECT body FROM moves WHERE game_id = ?1 ORDER BY ply")?;
        let bodies = stmt.query_map([id], |r| r.get::<_, String>(0))?;
        record.moves.clear();
        for body in bodies {
            record.moves.push(serde_json::from_str(&body?)?);
        }
        Ok(Some(StoredGame {
            id: id.to_string(),
            record,
            live_seed: live_seed.map(|s| s as u64),
            seats,
            created_at,
            updated_at,
        }))
    }

    fn save_rules(&self, owner: &str, rules: &SavedRules, max: usize) -> Result<bool, StoreError> {
        let max = i64::try_from(max).unwrap_or(i64::MAX);
        let saved = self.conn().execute(
            "INSERT INTO rule_sets (id, owner, name, code, created_at)
             SELECT ?1, ?2, ?3, ?4, ?5 WHERE (SELECT COUNT(*) FROM rule_sets WHERE owner = ?2) < ?6",
            params![rules.id, owner, rules.name, rules.code, rules.created_at, max],
        )?;
        Ok(saved == 1)
    }

    fn saved_rules(&self, owner: &str) -> Result<Vec<SavedRules>, StoreError> {
        let conn = self.read();
        let mut stmt =
            conn.prepare("SELECT id, name, code, created_at FROM rule_sets WHERE owner = ?1 ORDER BY created_at, id")?;
        let rows = stmt.query_map([owner], |r| {
            Ok(SavedRules { id: r.get(0)?, name: r.get(1)?, code: r.get(2)?, created_at: r.get(3)? })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    fn rename_rules(&self, owner: &str, id: &str, name: &str) -> Result<bool, StoreError> {
        let n =
            self.conn().execute("UPDATE rule_sets SET name = ?3 WHERE owner = ?1 AND id = ?2", [owner, id, name])?;
        Ok(n == 1)
    }

    fn delete_rules(&self, owner: &str, id: &str) -> Result<bool, StoreError> {
        let n = self.conn().execute("DELETE FROM rule_sets WHERE owner = ?1 AND id = ?2", [owner, id])?;
        Ok(n == 1)
    }

    fn expire(&self, before: i64) -> Result<Vec<String>, StoreError> {
        let conn = self.conn();
        let mut stmt = conn.prepare(
            "DELETE FROM games WHERE json_extract(progress, '$.finished') = 0 AND updated_at < ?1 RETURNING id",
        )?;
        let ids = stmt.query_map([before], |r| r.get::<_, String>(0))?.collect::<Result<Vec<_>, _>>()?;
        Ok(ids)
    }
}

impl Sqlite {
    /// Summaries of the games matching `filter` (SQL; `?1` is the limit,
    /// `?2` the `extra` parameter), most recent first.
    fn summaries(&self, filter: &str, limit: usize, extra: Option<String>) -> Result<Vec<GameSummary>, StoreError> {
        let conn = self.read();
        let mut stmt = conn.prepare(&format!(
            "SELECT id, setup, seats, progress, moves, created_at, public FROM games WHERE {filter}
             ORDER BY updated_at DESC, id LIMIT ?1"
        ))?;
        let limit = limit.min(i64::MAX as usize) as i64;
        let row = |r: &rusqlite::Row<'_>| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, String>(2)?,
                r.get::<_, String>(3)?,
                r.get::<_, i64>(4)?,
                r.get::<_, i64>(5)?,
                r.get::<_, bool>(6)?,
            ))
        };
        let rows = match &extra {
            Some(x) => stmt.query_map(params![limit, x], row)?.collect::<Result<Vec<_>, _>>()?,
            None => stmt.query_map(params![limit], row)?.collect::<Result<Vec<_>, _>>()?,
        };
        let mut out = Vec::new();
        for (id, setup, seats, progress, moves, created_at, public) in rows {
            out.push(summary(id, &setup, &seats, &progress, moves, created_at, public)?);
        }
        Ok(out)
    }
}

/// A games-list line from the stored columns. Only the rules are read from
/// the setup: the deck stays where it is.
pub(crate) fn summary(
    id: String,
    setup: &str,
    seats: &str,
    progress: &str,
    moves: i64,
    created_at: i64,
    public: bool,
) -> Result<GameSummary, StoreError> {
    let setup: serde_json::Value = serde_json::from_str(setup)?;
    let rules = setup.get("rules").and_then(|r| r.as_object()).cloned().unwrap_or_default();
    Ok(GameSummary {
        id,
        seats: serde_json::from_str(seats)?,
        rules,
        moves: moves.max(0) as usize,
        progress: serde_json::from_str(progress)?,
        created_at,
        public,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn new_game(id: &str) -> NewGame {
        let record = Record::from_json(
            r#"{ "format": 1, "rules": { "preset": "standard" }, "players": ["Ada", "Bot"], "deck": ["E", "V"] }"#,
        )
        .unwrap();
        NewGame {
            id: id.into(),
            record,
            live_seed: Some(u64::MAX - 5),
            seats: vec![
                Seat::Human { name: "Ada".into(), token_hash: hash_token("t0"), remote: false, account: None },
                Seat::Bot { name: "Bot".into(), level: BotLevel::Random },
            ],
            created_at: 1,
            public: false,
            clock: None,
            deadline: None,
        }
    }

    fn progress(at: i64) -> Progress {
        Progress { finished: false, scores: vec![4, 0], to_move: Some(1), winners: vec![], at, bot_turn: true }
    }

    #[tokio::test]
    async fn a_game_round_trips_with_its_moves_in_order() {
        let store = SqliteStore::in_memory().unwrap();
        store.create_game(&new_game("g1")).await.unwrap();
        let m0 = RecordMove {
            tile: "E".into(),
            at: [0, -1],
            rot: 2,
            meeple: Some("S".into()),
            abbot: None,
            recall: None,
            ..Default::default()
        };
        store.append_move("g1", 0, &m0, &progress(5)).await.unwrap();
        let g = store.load("g1").await.unwrap().unwrap();
        assert_eq!(g.record.moves, vec![m0]);
        assert_eq!(g.record.deck.as_deref(), Some(&["E".to_string(), "V".to_string()][..]));
        assert_eq!(g.seats.len(), 2);
        assert_eq!(g.updated_at, 5);
        assert_eq!(g.live_seed, Some(u64::MAX - 5), "a seed keeps all 64 bits");
        let list = store.list(10).await.unwrap();
        assert_eq!(list.len(), 1);
        assert_eq!(list[0].moves, 1);
        assert_eq!(list[0].progress.scores, vec![4, 0]);
        assert!(store.load("nope").await.unwrap().is_none());
    }

    #[tokio::test]
    async fn only_unfinished_games_without_a_recent_move_expire() {
        let store = SqliteStore::in_memory().unwrap();
        let m = RecordMove {
            tile: "E".into(),
            at: [0, -1],
            rot: 2,
            meeple: None,
            abbot: None,
            recall: None,
            ..Default::default()
        };
        for id in ["old", "done", "recent"] {
            store.create_game(&new_game(id)).await.unwrap();
        }
        store.append_move("old", 0, &m, &progress(10)).await.unwrap();
        store.append_move("done", 0, &m, &Progress { finished: true, to_move: None, ..progress(10) }).await.unwrap();
        store.append_move("recent", 0, &m, &progress(100)).await.unwrap();
        assert_eq!(store.expire(50).await.unwrap(), vec!["old".to_string()]);
        assert!(store.load("old").await.unwrap().is_none());
        assert_eq!(store.load("done").await.unwrap().unwrap().record.moves.len(), 1, "a finished game stays");
        assert!(store.load("recent").await.unwrap().is_some());
        let left: i64 = store.0.conn().query_row("SELECT count(*) FROM moves", [], |r| r.get(0)).unwrap();
        assert_eq!(left, 2, "the expired game's moves went with it");
        assert!(store.expire(50).await.unwrap().is_empty());
    }

    #[tokio::test]
    async fn a_move_out_of_sequence_is_refused() {
        let store = SqliteStore::in_memory().unwrap();
        store.create_game(&new_game("g1")).await.unwrap();
        let m = RecordMove {
            tile: "E".into(),
            at: [0, -1],
            rot: 2,
            meeple: None,
            abbot: None,
            recall: None,
            ..Default::default()
        };
        assert!(store.append_move("g1", 1, &m, &progress(2)).await.is_err());
        store.append_move("g1", 0, &m, &progress(2)).await.unwrap();
        assert!(store.append_move("g1", 0, &m, &progress(3)).await.is_err(), "a second writer of move 0");
        assert!(store.append_move("nope", 0, &m, &progress(3)).await.is_err());
        assert_eq!(store.load("g1").await.unwrap().unwrap().record.moves.len(), 1);
    }

    #[tokio::test]
    async fn a_second_writer_of_a_move_is_a_conflict() {
        let store = SqliteStore::in_memory().unwrap();
        store.create_game(&new_game("g1")).await.unwrap();
        let m = RecordMove {
            tile: "E".into(),
            at: [0, -1],
            rot: 2,
            meeple: None,
            abbot: None,
            recall: None,
            ..Default::default()
        };
        store.append_move("g1", 0, &m, &progress(2)).await.unwrap();
        assert!(matches!(store.append_move("g1", 0, &m, &progress(3)).await, Err(StoreError::Conflict(_))));
        assert!(matches!(store.append_move("nope", 0, &m, &progress(3)).await, Err(StoreError::Failed(_))));
    }

    #[tokio::test]
    async fn tokens_are_kept_hashed_and_still_seat_their_holder() {
        let store = SqliteStore::in_memory().unwrap();
        store.create_game(&new_game("g1")).await.unwrap();
        let seats = store.load("g1").await.unwrap().unwrap().seats;
        assert!(seats[0].held_by("t0"));
        assert!(!seats[0].held_by("t1"));
        assert!(!seats[1].held_by("t0"), "a bot's seat is held by no token");
        let text = serde_json::to_string(&seats).unwrap();
        assert!(!text.contains("\"t0\""), "{text}");
        assert_eq!(hash_token("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    }

    #[tokio::test]
    async fn in_play_lists_only_unfinished_games() {
        let store = SqliteStore::in_memory().unwrap();
        store.create_game(&new_game("g1")).await.unwrap();
        store.create_game(&new_game("g2")).await.unwrap();
        let m = RecordMove {
            tile: "E".into(),
            at: [0, -1],
            rot: 2,
            meeple: None,
            abbot: None,
            recall: None,
            ..Default::default()
        };
        let done =
            Progress { finished: true, scores: vec![1, 0], to_move: None, winners: vec![0], at: 9, bot_turn: false };
        store.append_move("g2", 0, &m, &done).await.unwrap();
        let ids: Vec<String> = store.in_play().await.unwrap().into_iter().map(|g| g.id).collect();
        assert_eq!(ids, vec!["g1".to_string()]);
    }

    #[tokio::test]
    async fn a_file_serves_one_server_at_a_time() {
        let dir = std::env::temp_dir().join(format!("carcassonne-lock-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("games.db");
        let first = SqliteStore::open(&path).unwrap();
        first.create_game(&new_game("g1")).await.unwrap();
        let Err(e) = SqliteStore::open(&path) else { panic!("a second server opened the file") };
        assert!(e.to_string().contains("in use by another carcassonne server"), "{e}");
        drop(first);
        let again = SqliteStore::open(&path).unwrap();
        assert!(again.load("g1").await.unwrap().is_some(), "the game is still there");
        drop(again);
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A database file in a folder of its own, removed on drop.
    struct Folder(std::path::PathBuf);

    impl Folder {
        fn new(name: &str) -> Folder {
            let dir = std::env::temp_dir().join(format!("carcassonne-{name}-{}", std::process::id()));
            std::fs::create_dir_all(&dir).unwrap();
            Folder(dir)
        }
    }

    impl Drop for Folder {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    #[tokio::test]
    #[allow(clippy::await_holding_lock)] // the writer held on purpose, while reading
    async fn a_read_waits_for_no_write() {
        let dir = Folder::new("reads");
        let store = SqliteStore::open(&dir.0.join("games.db")).unwrap();
        store.create_game(&new_game("g1")).await.unwrap();
        // The writer's connection busy (as during a long commit's sync):
        // games are still loaded and listed.
        let writing = store.0.conn();
        let read = tokio::time::timeout(std::time::Duration::from_secs(20), async {
            (store.load("g1").await.unwrap().is_some(), store.list(10).await.unwrap().len())
        });
        assert_eq!(read.await.expect("a read waited for the writer"), (true, 1));
        drop(writing);
    }

    #[tokio::test]
    async fn the_log_is_checkpointed_off_the_writers_path() {
        let dir = Folder::new("checkpoints");
        let store = SqliteStore::open(&dir.0.join("games.db")).unwrap();
        let auto: i64 = store.0.conn().pragma_query_value(None, "wal_autocheckpoint", |r| r.get(0)).unwrap();
        assert_eq!(auto, 0, "the writer leaves checkpoints to the checkpointer");
        store.create_game(&new_game("g1")).await.unwrap();
        let m = RecordMove {
            tile: "E".into(),
            at: [0, -1],
            rot: 2,
            meeple: None,
            abbot: None,
            recall: None,
            ..Default::default()
        };
        for ply in 0..200 {
            store.append_move("g1", ply, &m, &progress(ply as i64)).await.unwrap();
        }
        // Every page of the log reaches the file, without a checkpoint on
        // the writer's side.
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
        loop {
            let (busy, log, copied): (i64, i64, i64) = store
                .0
                .read()
                .query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
                .unwrap();
            let checkpointer = store.0.checkpointed.load(std::sync::atomic::Ordering::Relaxed);
            if checkpointer > 0 && busy == 0 && log == copied {
                break;
            }
            assert!(std::time::Instant::now() < deadline, "checkpoints {checkpointer}, log {log}, copied {copied}");
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
        assert_eq!(store.load("g1").await.unwrap().unwrap().record.moves.len(), 200);
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_stream_of_commits_has_the_log_start_over() {
        let dir = Folder::new("restarts");
        let limit = 64 << 10;
        let store = std::sync::Arc::new(SqliteStore::open_with(&dir.0.join("games.db"), limit).unwrap());
        for g in 0..8 {
            store.create_game(&new_game(&format!("g{g}"))).await.unwrap();
        }
        // Eight games moving all along (for a second or so): the writer
        // commits without a pause, so a passive checkpoint seldom, if ever,
        // finds the log at rest.
        let mut moving = tokio::task::JoinSet::new();
        for g in 0..8 {
            let store = std::sync::Arc::clone(&store);
            moving.spawn(async move {
                let m = RecordMove {
                    tile: "E".into(),
                    at: [g, -1],
                    rot: 2,
                    meeple: None,
                    abbot: None,
                    recall: None,
                    ..Default::default()
                };
                for ply in 0..400 {
                    store.append_move(&format!("g{g}"), ply, &m, &progress(ply as i64)).await.unwrap();
                    tokio::time::sleep(std::time::Duration::from_millis(2)).await;
                }
            });
        }
        let wal = dir.0.join("games.db-wal");
        let mut largest = 0;
        while !moving.is_empty() {
            largest = largest.max(std::fs::metadata(&wal).map(|m| m.len()).unwrap_or(0));
            if let Ok(Some(done)) = tokio::time::timeout(std::time::Duration::from_millis(5), moving.join_next()).await
            {
                done.unwrap();
            }
        }
        // Past the limit, the checkpointer had the log start over (without
        // it, this log keeps growing for as long as the stream lasts).
        let restarts = store.0.restarted.load(std::sync::atomic::Ordering::Relaxed);
        assert!(restarts > 0, "the log never started over; it reached {largest} bytes");
        for g in 0..8 {
            assert_eq!(store.load(&format!("g{g}")).await.unwrap().unwrap().record.moves.len(), 400);
        }
    }

    #[test]
    fn a_write_that_fails_past_its_checks_leaves_the_rest_of_its_batch_alone() {
        let store = SqliteStore::in_memory().unwrap();
        let m = RecordMove {
            tile: "E".into(),
            at: [0, -1],
            rot: 2,
            meeple: None,
            abbot: None,
            recall: None,
            ..Default::default()
        };
        let mut conn = store.0.conn();
        for g in ["a", "b", "c"] {
            let (setup, progress) = new_game(g).setup_and_progress();
            conn.execute(
                "INSERT INTO games (id, setup, seats, progress, moves, created_at, updated_at) VALUES (?1, ?2, '[]', ?3, 0, 1, 1)",
                params![g, serde_json::to_string(&setup).unwrap(), serde_json::to_string(&progress).unwrap()],
            )
            .unwrap();
        }
        // A stray move where game b's first move goes: b's row says the
        // place is free, so only the insert finds out.
        conn.execute("INSERT INTO moves (game_id, ply, body) VALUES ('b', 0, '{}')", []).unwrap();
        let append = |id: &str| {
            Write::Append(Append {
                id: id.into(),
                ply: 0,
                body: serde_json::to_string(&m).unwrap(),
                progress: serde_json::to_string(&progress(5)).unwrap(),
                at: 5,
            })
        };
        let outcomes = commit_batch(&mut conn, &[append("a"), append("b"), append("c"), append("gone")]);
        let ok: Vec<bool> = outcomes.iter().map(Result::is_ok).collect();
        assert_eq!(ok, [true, false, true, false]);
        assert!(matches!(&outcomes[1], Err(StoreError::Failed(_))), "{:?}", outcomes[1]);
        let moves = |g: &str| -> (i64, i64) {
            conn.query_row("SELECT moves, updated_at FROM games WHERE id = ?1", [g], |r| Ok((r.get(0)?, r.get(1)?)))
                .unwrap()
        };
        assert_eq!(moves("a"), (1, 5));
        assert_eq!(moves("b"), (0, 1), "b's row is as it was");
        assert_eq!(moves("c"), (1, 5));
        let again = commit_batch(&mut conn, &[append("a"), append("c")]);
        assert!(again.iter().all(|o| matches!(o, Err(StoreError::Conflict(_)))), "{again:?}");
    }

    #[tokio::test]
    async fn a_game_is_kept_with_its_clocks_in_one_write() {
        let store = SqliteStore::in_memory().unwrap();
        let clock = r#"{"control":{"kind":"fischer"}}"#;
        let game = NewGame { clock: Some(clock.into()), deadline: Some(1_000), ..new_game("g1") };
        store.create_game(&game).await.unwrap();
        assert_eq!(store.load_clock("g1").await.unwrap().as_deref(), Some(clock));
        assert_eq!(store.due_clocks(1_000, 10).await.unwrap(), ["g1"]);
        assert!(store.due_clocks(999, 10).await.unwrap().is_empty());
        // A taken id is refused, and changes nothing.
        let again = NewGame { clock: None, deadline: None, ..new_game("g1") };
        assert!(store.create_game(&again).await.is_err());
        assert_eq!(store.load_clock("g1").await.unwrap().as_deref(), Some(clock));
    }

    #[tokio::test]
    async fn old_databases_have_their_tokens_hashed() {
        let mut conn = Connection::open_in_memory().unwrap();
        conn.execute_batch(MIGRATIONS[0]).unwrap();
        conn.execute_batch(MIGRATIONS[1]).unwrap();
        conn.pragma_update(None, "user_version", 2).unwrap();
        conn.execute(
            "INSERT INTO games (id, setup, seats, progress, moves, created_at, updated_at)
             VALUES ('g1', '{}', ?1, '{}', 0, 1, 1)",
            [r#"[{"kind":"human","name":"Ada","token":"t0"},{"kind":"bot","name":"B","level":"easy"}]"#],
        )
        .unwrap();
        SqliteStore::prepare(&mut conn, false).unwrap();
        let store = SqliteStore::start(Sqlite {
            conn: Mutex::new(conn),
            reader: None,
            writer: std::sync::mpsc::channel().0,
            checkpoints: None,
            checkpointed: Arc::default(),
            restarted: Arc::default(),
            start_over: Arc::default(),
            _lock: None,
        })
        .unwrap();
        let seats: String = store.0.conn().query_row("SELECT seats FROM games", [], |r| r.get(0)).unwrap();
        let seats: Vec<Seat> = serde_json::from_str(&seats).unwrap();
        assert!(seats[0].held_by("t0"));
        assert_eq!(seats[1].bot_level(), Some(BotLevel::Easy));
    }

    #[tokio::test]
    async fn moves_written_at_once_are_committed_together_and_each_checked() {
        let dir = std::env::temp_dir().join(format!("carcassonne-group-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let store = std::sync::Arc::new(SqliteStore::open(&dir.join("games.db")).unwrap());
        for g in 0..8 {
            store.create_game(&new_game(&format!("g{g}"))).await.unwrap();
        }
        // 8 games × 10 moves from 16 threads: two writers race for every move.
        let outcomes: Vec<(usize, usize, bool)> = std::thread::scope(|scope| {
            let handles: Vec<_> = (0..16)
                .map(|w| {
                    let store = std::sync::Arc::clone(&store);
                    scope.spawn(move || {
                        let g = w % 8;
                        let mut out = Vec::new();
                        for ply in 0..10 {
                            let m = RecordMove {
                                tile: "E".into(),
                                at: [w as i32, ply as i32],
                                rot: 0,
                                meeple: None,
                                abbot: None,
                                recall: None,
                                ..Default::default()
                            };
                            let r = store
                                .0
                                .append_move(&format!("g{g}"), ply, &m, &progress(ply as i64))
                                .unwrap()
                                .0
                                .blocking_recv()
                                .unwrap();
                            assert!(!matches!(r, Err(StoreError::Failed(_))), "{r:?}");
                            out.push((g, ply, r.is_ok()));
                        }
                        out
                    })
                })
                .collect();
            handles.into_iter().flat_map(|h| h.join().unwrap()).collect()
        });
        for g in 0..8 {
            let stored = store.load(&format!("g{g}")).await.unwrap().unwrap();
            assert_eq!(stored.record.moves.len(), 10);
            for ply in 0..10 {
                let wins: Vec<_> = outcomes.iter().filter(|o| o.0 == g && o.1 == ply && o.2).collect();
                assert_eq!(wins.len(), 1, "game {g} move {ply}: exactly one writer wins");
            }
        }
        drop(store);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[tokio::test]
    async fn saved_rule_sets_belong_to_their_owner_and_are_bounded() {
        let store = SqliteStore::in_memory().unwrap();
        let set = |id: &str, at: i64| SavedRules {
            id: id.into(),
            name: format!("set {id}"),
            code: "AQAAAQAA".into(),
            created_at: at,
        };
        assert!(store.save_rules("ann", &set("a", 2), 2).await.unwrap());
        assert!(store.save_rules("ann", &set("b", 1), 2).await.unwrap());
        assert!(!store.save_rules("ann", &set("c", 3), 2).await.unwrap(), "a third is over the bound");
        assert!(store.save_rules("bob", &set("d", 3), 2).await.unwrap());
        let ids = |sets: Vec<SavedRules>| sets.into_iter().map(|s| s.id).collect::<Vec<_>>();
        assert_eq!(ids(store.saved_rules("ann").await.unwrap()), ["b", "a"]);
        assert!(!store.rename_rules("bob", "a", "mine now").await.unwrap(), "only the owner renames");
        assert!(store.rename_rules("ann", "a", "Our table").await.unwrap());
        assert_eq!(store.saved_rules("ann").await.unwrap()[1].name, "Our table");
        assert!(!store.delete_rules("bob", "a").await.unwrap(), "only the owner deletes");
        assert!(store.delete_rules("ann", "a").await.unwrap());
        assert_eq!(ids(store.saved_rules("ann").await.unwrap()), ["b"]);
        assert_eq!(ids(store.saved_rules("bob").await.unwrap()), ["d"]);
    }

    #[tokio::test]
    async fn a_review_is_worked_out_once_and_kept() {
        let store = SqliteStore::in_memory().unwrap();
        store.create_game(&new_game("g")).await.unwrap();
        assert_eq!(store.review("g").await.unwrap(), None);
        assert!(store.claim_review("g", 10, 0).await.unwrap());
        assert!(store.claim_review("g", 20, 0).await.unwrap(), "this server again (restarted mid-review)");
        store.save_review("g", "{}").await.unwrap();
        assert_eq!(store.review("g").await.unwrap().as_deref(), Some("{}"));
        assert!(!store.claim_review("g", 30, 30).await.unwrap(), "kept: never worked out again");
        assert!(store.claim_review("nosuchgame", 10, 0).await.is_err(), "only a stored game");
    }

    #[tokio::test]
    async fn a_duplicate_id_is_refused() {
        let store = SqliteStore::in_memory().unwrap();
        store.create_game(&new_game("g1")).await.unwrap();
        assert!(store.create_game(&new_game("g1")).await.is_err());
    }
}

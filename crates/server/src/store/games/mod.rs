//! Games and their moves: the repository of a game's record (setup and
//! seats written once, then one row per move) and of the games lists.
//!
//! A game is stored as its record (record.md) split in two: the setup (rules,
//! players, start tile, the whole deck) written once, and the moves appended
//! one row each. The state of a game is always rebuilt by replaying the
//! record, so saving, reloading, restarting and replaying share one path.

use carcassonne::record::{Record, RecordMove};
use serde::{Deserialize, Serialize};

use super::error::StoreError;
use crate::bots::BotLevel;

pub(crate) mod pg;
pub(crate) mod sqlite;

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
        /// seats they hold (`RatingRepo::link_seat`); `DELETED_ACCOUNT` once
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

/// What is kept of a client's address key (`listen::addr_key`: an IPv6
/// address cut to its /64): the hash of its text, as a game's owner, a
/// seat's link and a report keep it, so that the checks "one address"
/// compare keys without a row showing the address.
pub fn hash_address(key: std::net::IpAddr) -> String {
    hash_token(&key.to_string())
}

/// Whether two hashes are the same, in a time that does not say where they differ.
pub(crate) fn same_hash(a: &str, b: &str) -> bool {
    constant_time_eq(a.as_bytes(), b.as_bytes())
}

fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
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
    /// Whose game it is: the hash of the client address it was made from
    /// (its key: an IPv6 address by its prefix), or none (made by the
    /// server: a rematch, the lobby). What one address keeps is bounded
    /// by it ([`GameRepo::make_room`]) and its bots take turns by it.
    pub owner: Option<String>,
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
        NewGame { id, record, live_seed, seats, created_at, public, clock: None, deadline: None, owner: None }
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
            aborted: false,
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
    /// Whose game it is ([`NewGame::owner`]).
    pub owner: Option<String>,
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
    /// Aborted: a real-time clock ran out before anyone moved (no one is
    /// to move; not finished, so it expires with the abandoned games).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub aborted: bool,
}

/// What [`GameRepo::make_room`] did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Room {
    /// The owner keeps fewer games than allowed.
    Free,
    /// This game of the owner's was deleted to make room.
    Dropped(String),
    /// Every game the owner keeps is rated, or finished with an account's
    /// seat: none is dropped, no new one is kept.
    Full,
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

#[async_trait::async_trait]
pub trait GameRepo: Send + Sync {
    /// Stores a new game.
    ///
    /// # Errors
    /// The id is taken, or the storage fails.
    async fn create(&self, game: &NewGame) -> Result<(), StoreError>;

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
    async fn listed(&self, ids: &[String], limit: usize) -> Result<Vec<GameSummary>, StoreError>;

    /// Every game not finished yet (a restarted server resumes their bots).
    ///
    /// # Errors
    /// The storage fails.
    async fn in_play(&self) -> Result<Vec<GameSummary>, StoreError>;

    /// The public games in play (neither finished nor aborted), the most
    /// recently played first, at most `limit` (the games to watch).
    ///
    /// # Errors
    /// The storage fails.
    async fn watchable(&self, limit: usize) -> Result<Vec<GameSummary>, StoreError>;

    /// Makes room for one more game of `owner`, who may keep `max`: with
    /// fewer kept, nothing to do ([`Room::Free`]); else the oldest of its
    /// unfinished casual (unrated) games is deleted, or failing that the
    /// oldest finished casual game with no seat linked to an account
    /// ([`Room::Dropped`]); else [`Room::Full`]. The check and the delete
    /// are one write (requests that race may each find room: a few over).
    ///
    /// # Errors
    /// The storage fails (nothing is deleted).
    async fn make_room(&self, owner: &str, max: usize) -> Result<Room, StoreError>;

    /// Deletes the unfinished games whose last move (or creation) is older
    /// than `before` (Unix ms), with their moves; returns their ids.
    ///
    /// # Errors
    /// The storage fails (nothing is deleted).
    async fn expire(&self, before: i64) -> Result<Vec<String>, StoreError>;
}

//! A game's chat, its settings (off, consent to the download) and its
//! rematch (services/chat.rs, services/rematch.rs).

use serde::{Deserialize, Serialize};

use super::error::StoreError;

pub(crate) mod pg;
pub(crate) mod sqlite;

/// Migration 18's table of the keys each spectator of a game is known by,
/// the same in SQLite and PostgreSQL.
macro_rules! spectators_table {
    () => {
        "CREATE TABLE chat_spectators (
            game_id     TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
            key         TEXT NOT NULL,     -- hash of an account, a client address or a browser's token
            number      INTEGER NOT NULL,  -- the spectator's number in the game (Spectator N)
            PRIMARY KEY (game_id, key)
        );
        CREATE INDEX chat_spectators_by_number ON chat_spectators (game_id, number);"
    };
}

/// SQLite's migration 18: each message's part of the chat (a signed-in
/// spectator's, `account`) and writer (`spectator`, their number), and the
/// keys each spectator of a game is known by. The spectators numbered
/// before ("Spectator N", by a hash of their address: the key it is now)
/// keep their numbers.
pub(crate) const SQLITE_SPECTATORS: &str = concat!(
    "ALTER TABLE chat_messages ADD COLUMN spectator INTEGER;
    ALTER TABLE chat_messages ADD COLUMN account INTEGER NOT NULL DEFAULT 0;",
    spectators_table!(),
    "INSERT INTO chat_spectators (game_id, key, number)
        SELECT game_id, author, MIN(CAST(substr(name, 11) AS INTEGER)) FROM chat_messages
        WHERE seat IS NULL AND name GLOB 'Spectator [1-9]*' AND substr(name, 11) NOT GLOB '*[^0-9]*'
        GROUP BY game_id, author;
    UPDATE chat_messages SET spectator = (SELECT s.number FROM chat_spectators s
        WHERE s.game_id = chat_messages.game_id AND s.key = chat_messages.author) WHERE seat IS NULL;"
);

/// Migration 24 (SQLite; PostgreSQL's 25): which spectators' messages are
/// in the reserve of spectators with a history (`kept`). Those of signed-in
/// spectators before, the reserve then, stay in it.
pub(crate) const SQLITE_KEPT: &str = "ALTER TABLE chat_messages ADD COLUMN kept INTEGER NOT NULL DEFAULT 0;
    UPDATE chat_messages SET kept = account WHERE seat IS NULL;";

/// PostgreSQL's migration 25: as SQLite's 24 ([`SQLITE_KEPT`]).
pub(crate) const PG_KEPT: &str = "ALTER TABLE chat_messages ADD COLUMN kept BOOLEAN NOT NULL DEFAULT FALSE;
    UPDATE chat_messages SET kept = account WHERE seat IS NULL;";

/// PostgreSQL's migration 18: as SQLite's ([`SQLITE_SPECTATORS`]).
pub(crate) const PG_SPECTATORS: &str = concat!(
    "ALTER TABLE chat_messages ADD COLUMN spectator INTEGER;
    ALTER TABLE chat_messages ADD COLUMN account BOOLEAN NOT NULL DEFAULT FALSE;",
    spectators_table!(),
    "INSERT INTO chat_spectators (game_id, key, number)
        SELECT game_id, author, MIN(substr(name, 11)::int) FROM chat_messages
        WHERE seat IS NULL AND name ~ '^Spectator [1-9][0-9]{0,8}$'
        GROUP BY game_id, author;
    UPDATE chat_messages m SET spectator = s.number FROM chat_spectators s
        WHERE m.seat IS NULL AND s.game_id = m.game_id AND s.key = m.author;"
);

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
    /// A spectator's number in the game ("Spectator N"): whose the message
    /// is, for muting (a player's is their seat).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spectator: Option<u32>,
    /// A signed-in spectator's (under their account's name).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub account: bool,
    /// Its author is a signed-in account (a player's seat linked to one, or
    /// a signed-in spectator): one may block or report them by this line.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub member: bool,
    /// That account (its id): whose lines a blocker does not see; never
    /// sent to a browser (another server is told it beside the line).
    #[serde(skip)]
    pub author_account: Option<String>,
    /// A spectator with a history wrote it: it counts in their reserve
    /// ([`ChatCaps::known`]); never sent.
    #[serde(skip)]
    pub kept: bool,
    /// Whose share of the chat it counts in ([`ChatRepo::add`]): `seat:N`,
    /// or a hash of the spectator's account or client address; never sent.
    #[serde(skip)]
    pub author: String,
}

/// The most messages a game's chat keeps, in each of its three parts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChatCaps {
    /// The players' messages: past it, a player's message is refused.
    pub players: usize,
    /// The messages of spectators with a history (their reserve, which the
    /// others' never take): past it, the oldest message of the account
    /// holding the most goes.
    pub known: usize,
    /// The other spectators' messages (guests', and new accounts'): past
    /// it, the oldest message of the client address holding the most goes.
    pub others: usize,
}

/// The part of a game's chat a message is in, and its share's cap.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Part {
    Players,
    Known,
    Others,
}

impl Part {
    pub(crate) fn of(m: &ChatMessage) -> Part {
        match (m.seat, m.kept) {
            (Some(_), _) => Part::Players,
            (None, true) => Part::Known,
            (None, false) => Part::Others,
        }
    }

    pub(crate) fn cap(self, caps: &ChatCaps) -> usize {
        match self {
            Part::Players => caps.players,
            Part::Known => caps.known,
            Part::Others => caps.others,
        }
    }
}

/// The most keys (addresses, browsers) one spectator of a game is known
/// by ([`ChatRepo::spectator`]): past it, a new key is not remembered.
pub const SPECTATOR_KEYS: usize = 8;

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

#[async_trait::async_trait]
pub trait ChatRepo: Send + Sync {
    /// Appends `message` to game `id`'s chat, numbered after its last
    /// (`message.seq` is ignored): its number. Each part of the chat (the
    /// players', spectators' with a history, other spectators') has its cap in
    /// `caps`. A player's message past the players' cap is refused
    /// (`None`); a spectator's is taken, and then the oldest message of
    /// whoever holds the most in its part goes (the earliest writer's among
    /// equals), so that each `author` keeps at least its fair share. A cap
    /// of 0 refuses every message of its part. Never a number twice.
    ///
    /// # Errors
    /// The storage fails.
    async fn add(&self, id: &str, message: &ChatMessage, caps: &ChatCaps) -> Result<Option<u64>, StoreError>;

    /// The number of the spectator of game `id` whom `keys` name (hashes of
    /// an account; or of a client address, then of a browser's token): that
    /// of the first key known, else the next number, unless `max`
    /// spectators have one already (`None`). Keys not known yet are
    /// remembered for that number (up to [`SPECTATOR_KEYS`] a spectator).
    /// Spectators named at once, on any servers, get numbers of their own.
    ///
    /// # Errors
    /// No key, or the storage fails.
    async fn spectator(&self, id: &str, keys: &[String], max: usize) -> Result<Option<u32>, StoreError>;

    /// Game `id`'s chat, in order.
    ///
    /// # Errors
    /// The storage fails.
    async fn messages(&self, id: &str) -> Result<Vec<ChatMessage>, StoreError>;

    /// Game `id`'s chat settings.
    ///
    /// # Errors
    /// The storage fails.
    async fn settings(&self, id: &str) -> Result<ChatSettings, StoreError>;

    /// Turns game `id`'s chat off (at its creation).
    ///
    /// # Errors
    /// The storage fails.
    async fn set_off(&self, id: &str) -> Result<(), StoreError>;

    /// Seat `seat` of game `id` agrees (or no longer) to the chat's download.
    ///
    /// # Errors
    /// The storage fails.
    async fn set_consent(&self, id: &str, seat: u8, agree: bool) -> Result<(), StoreError>;
}

#[async_trait::async_trait]
pub trait RematchRepo: Send + Sync {
    /// Seat `seat` accepts game `id`'s rematch, where it will hold the token
    /// whose hash is `token_hash`: `false` if it had accepted already.
    ///
    /// # Errors
    /// The storage fails.
    async fn accept(&self, id: &str, seat: u8, token_hash: &str) -> Result<bool, StoreError>;

    /// Game `id`'s rematch: who accepted, and the new game if made.
    ///
    /// # Errors
    /// The storage fails.
    async fn get(&self, id: &str) -> Result<Rematch, StoreError>;

    /// Claims the making of game `id`'s rematch as game `new_id`: `true`
    /// for the one claim that wins, on every server.
    ///
    /// # Errors
    /// The storage fails.
    async fn claim(&self, id: &str, new_id: &str) -> Result<bool, StoreError>;
}

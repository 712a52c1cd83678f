//! What makes several servers sharing one database one game: the news of
//! each change ([`Change`]), which server drives each game's bots (a
//! lease), who is online where, and the servers' heartbeats. With SQLite,
//! one server holds the file and this repository has nothing to share.

use serde::{Deserialize, Serialize};

use super::chat::ChatMessage;
use super::error::StoreError;

pub(crate) mod feed;
pub(crate) mod pg;
pub(crate) mod sqlite;

/// How often a server sharing its storage with others says it is alive
/// ([`ClusterRepo::beat`]).
pub const BEAT_EVERY: std::time::Duration = std::time::Duration::from_millis(250);

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
    /// Lobby table `table` opened, changed or closed (services/lobby/).
    Lobby { table: String },
    /// The clocks of `game` changed (a move, an expiry, a bot standing in):
    /// servers holding it read them again.
    Clock { game: String },
    /// A chat message was stored on `server` (services/chat.rs).
    /// Its author's account goes beside it (the line never says it to a
    /// browser): each server hides it from those who block that account.
    Chat {
        game: String,
        server: String,
        message: ChatMessage,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        author_account: Option<String>,
    },
    /// A game's chat download consent or rematch changed on `server`: the
    /// others read it again (services/rematch.rs).
    Rematch { game: String, server: String },
    /// A seat of `game` was linked to an account on `server` (a player
    /// signed in): the others read its seats again (services/ratings.rs).
    Seats { game: String, server: String },
    /// The takeback request of `game` changed (asked, answered, granted:
    /// services/takebacks.rs): servers holding it read it again, and a game
    /// taken back is rebuilt from its stored moves. Told by the storage at
    /// the write's commit.
    Takeback { game: String },
}

/// What a server learns at each heartbeat ([`ClusterRepo::beat`]).
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

#[async_trait::async_trait]
pub trait ClusterRepo: Send + Sync {
    /// Changes made by the servers sharing this storage, as they are
    /// committed (this server's own may come too). `None` for a storage
    /// that only one server uses. Called once, when the server starts.
    fn changes(&self) -> Option<tokio::sync::mpsc::UnboundedReceiver<Change>>;

    /// Whether the storage answers now (a cheap query).
    ///
    /// # Errors
    /// It does not.
    async fn health(&self) -> Result<(), StoreError>;

    /// Whether the change feed ([`ClusterRepo::changes`]) is listening.
    fn feed(&self) -> Feed;

    /// This server's name among those sharing the storage; `None` for a
    /// storage that only one server uses (then the methods below have
    /// nothing to do).
    fn server(&self) -> Option<&str>;

    /// Takes the lease on game `id`'s bots unless a live server holds it:
    /// whether this server holds it now (and so thinks for its bots).
    ///
    /// # Errors
    /// The storage fails.
    async fn claim_bots(&self, id: &str) -> Result<bool, StoreError>;

    /// Gives up this server's lease on game `id`'s bots (no bot is to move).
    ///
    /// # Errors
    /// The storage fails.
    async fn release_bots(&self, id: &str) -> Result<(), StoreError>;

    /// Tells the other servers a [`Change::Presence`] (kept, for servers
    /// that open the game later) or a [`Change::Thinking`].
    ///
    /// # Errors
    /// The storage fails.
    async fn publish(&self, change: &Change) -> Result<(), StoreError>;

    /// The websockets other live servers hold open on game `id`: per server, per seat.
    ///
    /// # Errors
    /// The storage fails.
    async fn presence(&self, id: &str) -> Result<Vec<(String, Vec<u32>)>, StoreError>;

    /// This server is alive: called a few times a second. Servers that
    /// missed their heartbeats are let go (their leases and presence with
    /// them), and the games whose bots nobody drives are shared out.
    ///
    /// # Errors
    /// The storage fails.
    async fn beat(&self) -> Result<Beat, StoreError>;

    /// This server stops: its leases and presence go at once.
    ///
    /// # Errors
    /// The storage fails.
    async fn leave(&self) -> Result<(), StoreError>;
}

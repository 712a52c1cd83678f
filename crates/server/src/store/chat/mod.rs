//! A game's chat, its settings (off, consent to the download) and its
//! rematch (services/chat.rs, services/rematch.rs).

use serde::{Deserialize, Serialize};

use super::error::StoreError;

pub(crate) mod pg;
pub(crate) mod sqlite;

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

#[async_trait::async_trait]
pub trait ChatRepo: Send + Sync {
    /// Appends `message` to game `id`'s chat, numbered after its last
    /// (`message.seq` is ignored), unless the chat holds `max` messages
    /// already: its number, or `None` when the chat is full.
    ///
    /// # Errors
    /// The storage fails.
    async fn add(&self, id: &str, message: &ChatMessage, max: usize) -> Result<Option<u64>, StoreError>;

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

//! What travels on a game's websocket (docs/web.md, "Websocket"): the
//! client's messages, the server's, and the follower that turns each change
//! of a game into what one socket must be told.
//!
//! Protocol 1 (the default) sends the whole state after every change.
//! Protocol 2 (`?protocol=2`) sends the whole state once — on connecting and
//! when asked (`sync`) — then for each change only what changed: the keys
//! whose values changed, the events, tiles and scores appended since, and
//! the moves played. Each message carries the server's revision of the game
//! (`rev`) and an update names the one it applies to (`base`): a client whose
//! state is not at `base` saw a gap and asks for the state again. The log is
//! never sent twice.

use axum::extract::ws::Message;
use carcassonne::record::RecordMove;
use serde_json::{Map, Value};

use crate::live::{Live, MoveRequest, Viewer};
use crate::view;

/// What a client sends.
#[derive(Debug, serde::Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum ClientMessage {
    /// A move: the version it was made for and the record's move fields.
    Move(MoveRequest),
    /// The state as it is, please.
    Sync,
}

/// What the server sends.
#[derive(Debug, serde::Serialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum ServerMessage {
    /// The game as this viewer may see it: on connecting, on `sync`, and
    /// (protocol 1) after every change.
    State {
        /// Protocol 2: the protocol, and the game's revision this state is at.
        #[serde(skip_serializing_if = "Option::is_none")]
        protocol: Option<u8>,
        #[serde(skip_serializing_if = "Option::is_none")]
        rev: Option<u64>,
        state: Value,
    },
    /// Protocol 2: what changed since revision `base`.
    Update {
        rev: u64,
        base: u64,
        /// The moves played (the game's version after them is `version`).
        version: u64,
        #[serde(skip_serializing_if = "Vec::is_empty")]
        moves: Vec<RecordMove>,
        /// Keys of the state whose values changed, with their new values.
        #[serde(skip_serializing_if = "Map::is_empty")]
        changes: Map<String, Value>,
        /// Keys whose lists grew (`log`, `board`, `score_history`): the new items.
        #[serde(skip_serializing_if = "Map::is_empty")]
        append: Map<String, Value>,
    },
    /// A refusal of the client's last message; nothing changed.
    Error(crate::error::ErrorBody),
}

impl ServerMessage {
    pub fn frame(&self) -> Message {
        Message::Text(serde_json::to_string(self).unwrap_or_default().into())
    }
}

/// The lists that only grow: an update sends their new items.
const GROWING: [&str; 2] = ["board", "score_history"];

/// What one socket was last told, and how to tell it the next change.
pub struct Follower {
    protocol: u8,
    /// Protocol 2: the state last sent (without its log).
    last: Map<String, Value>,
    /// Protocol 2: the game's events already sent (in the log).
    events: usize,
    /// The game's revision last sent.
    rev: u64,
}

impl Follower {
    /// `protocol`: 1 or 2 (anything else is 1).
    pub fn new(protocol: u8) -> Follower {
        Follower { protocol: if protocol == 2 { 2 } else { 1 }, last: Map::new(), events: 0, rev: 0 }
    }

    /// The whole state as it is now.
    pub async fn full(&mut self, live: &Live, viewer: &Viewer) -> Message {
        let rev = live.rev();
        let table = live.lock().await;
        if self.protocol == 1 {
            return ServerMessage::State {
                protocol: None,
                rev: None,
                state: view::state_json(&live.id, &table, viewer),
            }
            .frame();
        }
        let state = view::state_without_log(&live.id, &table, viewer);
        self.last = state.as_object().cloned().unwrap_or_default();
        self.events = table.game.events().len();
        self.rev = rev;
        let mut state = state;
        if let Some(s) = state.as_object_mut() {
            s.insert("log".into(), view::log_json(&table.game, 0).into());
        }
        ServerMessage::State { protocol: Some(2), rev: Some(rev), state }.frame()
    }

    /// What the socket must be told of the game's latest change; `None` when
    /// nothing it sees changed.
    pub async fn next(&mut self, live: &Live, viewer: &Viewer) -> Option<Message> {
        if self.protocol == 1 {
            return Some(self.full(live, viewer).await);
        }
        let rev = live.rev();
        let table = live.lock().await;
        let now = view::state_without_log(&live.id, &table, viewer);
        let Value::Object(now) = now else { return None };
        let events = table.game.events();
        let log = view::log_json(&table.game, self.events);
        let from_version = self.last.get("version").and_then(Value::as_u64).unwrap_or(0);
        let version = table.game.moves_played() as u64;
        let moves: Vec<RecordMove> = table
            .game
            .history()
            .get(from_version as usize..)
            .unwrap_or_default()
            .iter()
            .map(RecordMove::from_move)
            .collect();
        self.events = events.len();
        drop(table);

        let mut changes = Map::new();
        let mut append = Map::new();
        if !log.is_empty() {
            append.insert("log".into(), log.into());
        }
        for (key, value) in &now {
            let old = self.last.get(key);
            if let (true, Some(Value::Array(old)), Value::Array(new)) = (GROWING.contains(&key.as_str()), old, value) {
                // What was laid or scored stays as it was: only the end is compared.
                let kept = old.len() <= new.len() && old.last() == old.len().checked_sub(1).and_then(|i| new.get(i));
                if kept {
                    if new.len() > old.len() {
                        append.insert(key.clone(), new[old.len()..].to_vec().into());
                    }
                    continue;
                }
            } else if old == Some(value) {
                continue;
            }
            changes.insert(key.clone(), value.clone());
        }
        if changes.is_empty() && append.is_empty() {
            return None;
        }
        let base = std::mem::replace(&mut self.rev, rev);
        self.last = now;
        Some(ServerMessage::Update { rev, base, version, moves, changes, append }.frame())
    }
}

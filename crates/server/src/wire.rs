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

use std::sync::Arc;

use axum::extract::ws::Message;
use carcassonne::record::RecordMove;

use crate::services::games::{Live, MoveRequest, Table, Viewer};
use crate::state::{self, Appended, Changes, StateView, WithLog};

/// What a client sends.
#[derive(Debug, serde::Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum ClientMessage {
    /// A move: the version it was made for and the record's move fields.
    Move(MoveRequest),
    /// The state as it is, please.
    Sync,
    /// A chat message (services/chat.rs).
    Chat { text: String },
    /// The seat holder accepts the rematch (services/rematch.rs).
    Rematch,
    /// Seat `seat` resigns (services/endings.rs).
    Resign { seat: u8 },
    /// Seat `seat`'s player leaves the game.
    Leave { seat: u8 },
    /// The game ends unplayed (before every person has moved).
    Abort,
    /// The game ends as it stands (a casual seat's flag fell).
    Finish,
    /// The seat holder asks to take back their last move (services/takebacks.rs).
    Takeback,
    /// The seat holder answers the takeback asked: accepts or declines.
    #[serde(rename = "takeback_answer")]
    TakebackAnswer { accept: bool },
}

impl ClientMessage {
    /// The ending a message asks for, if it is one.
    pub fn ending(&self) -> Option<crate::services::endings::Ending> {
        use crate::services::endings::Ending;
        Some(match self {
            ClientMessage::Resign { seat } => Ending::Resign(*seat),
            ClientMessage::Leave { seat } => Ending::Leave(*seat),
            ClientMessage::Abort => Ending::Abort,
            ClientMessage::Finish => Ending::Finish,
            _ => return None,
        })
    }
}

/// What the server sends.
#[derive(serde::Serialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum ServerMessage<'a> {
    /// The game as this viewer may see it: on connecting, on `sync`, and
    /// (protocol 1) after every change.
    State {
        /// Protocol 2: the protocol, and the game's revision this state is at.
        #[serde(skip_serializing_if = "Option::is_none")]
        protocol: Option<u8>,
        #[serde(skip_serializing_if = "Option::is_none")]
        rev: Option<u64>,
        state: WithLog<'a>,
    },
    /// Protocol 2: what changed since revision `base`.
    Update {
        rev: u64,
        base: u64,
        /// The moves played (the game's version after them is `version`).
        version: u64,
        #[serde(skip_serializing_if = "Vec::is_empty")]
        moves: Vec<RecordMove>,
        /// Fields of the state whose values changed, with their new values.
        changes: Changes<'a>,
        /// Lists that grew (`log`, `board`, `score_history`): the new items.
        append: Appended<'a>,
    },
    /// A refusal of the client's last message; nothing changed.
    Error(crate::error::ErrorBody),
    /// A chat message this viewer may read.
    Chat { message: &'a crate::store::ChatMessage },
    /// What follows the game changed: who agreed to the chat's download,
    /// who accepted the rematch, the rematch's game once made.
    Rematch(&'a crate::services::chat::AfterGame),
    /// To the socket that accepted the rematch alone: its seats' tokens in
    /// the new game (the game's id comes with the `rematch` message).
    Accepted { tokens: Vec<serde_json::Value>, after: &'a crate::services::chat::AfterGame },
}

impl ServerMessage<'_> {
    pub fn frame(&self) -> Message {
        Message::Text(serde_json::to_string(self).unwrap_or_default().into())
    }
}

/// The views of one game at one revision, shared by its sockets: the state
/// each kind of viewer sees (its seats) is built once per change, and an
/// update from a state many sockets were sent (spectators) is written once.
#[derive(Default)]
pub struct Views {
    rev: u64,
    list: Vec<SharedView>,
}

struct SharedView {
    seats: Vec<carcassonne::PlayerId>,
    state: Arc<StateView>,
    /// The game's events when it was built.
    events: usize,
    /// Updates written to it, and what they were written from.
    updates: Vec<Written>,
}

/// An update from one state (with its events and revision) to a shared view.
struct Written {
    from: Arc<StateView>,
    events: usize,
    base: u64,
    message: Option<Message>,
}

impl Views {
    /// The view of `viewer` at revision `rev` (built now if nobody has).
    fn at(&mut self, rev: u64, viewer: &Viewer, build: impl FnOnce() -> (StateView, usize)) -> &mut SharedView {
        if self.rev != rev {
            self.rev = rev;
            self.list.clear();
        }
        let i = match self.list.iter().position(|v| v.seats == viewer.seats) {
            Some(i) => i,
            None => {
                let (state, events) = build();
                self.list.push(SharedView {
                    seats: viewer.seats.clone(),
                    state: Arc::new(state),
                    events,
                    updates: Vec::new(),
                });
                self.list.len() - 1
            }
        };
        &mut self.list[i]
    }
}

/// What one socket was last told, and how to tell it the next change.
pub struct Follower {
    protocol: u8,
    /// Protocol 2: the state last sent (without its log).
    last: Option<Arc<StateView>>,
    /// Protocol 2: the game's events already sent (in the log).
    events: usize,
    /// The game's revision last sent.
    rev: u64,
    /// The game's rewinds when last sent (`Table::rewinds`): a game taken
    /// back is sent whole.
    rewinds: u64,
}

impl Follower {
    /// `protocol`: 1 or 2 (anything else is 1).
    pub fn new(protocol: u8) -> Follower {
        Follower { protocol: if protocol == 2 { 2 } else { 1 }, last: None, events: 0, rev: 0, rewinds: 0 }
    }

    /// The whole state as it is now.
    pub async fn full(&mut self, live: &Live, viewer: &Viewer) -> Message {
        let rev = live.rev();
        let table = live.lock().await;
        let (now, events) = live.with_views(|views: &mut Views| {
            let shared = views.at(rev, viewer, || built(live, &table, viewer));
            (Arc::clone(&shared.state), shared.events)
        });
        // The log as far as the view goes (a view shared by the sockets
        // at this revision may be older than the table by a change).
        let log = state::log(&table.game, 0, events);
        self.rewinds = table.rewinds;
        drop(table);
        let v2 = self.protocol == 2;
        let message = ServerMessage::State {
            protocol: v2.then_some(2),
            rev: v2.then_some(rev),
            state: WithLog { state: &now, log },
        }
        .frame();
        (self.last, self.events, self.rev) = (Some(now), events, rev);
        message
    }

    /// What the socket must be told of the game's latest change; `None` when
    /// nothing it sees changed.
    pub async fn next(&mut self, live: &Live, viewer: &Viewer) -> Option<Message> {
        let Some(last) = self.last.clone().filter(|_| self.protocol == 2) else {
            return Some(self.full(live, viewer).await);
        };
        let rev = live.rev();
        let table = live.lock().await;
        if table.rewinds != self.rewinds {
            // Taken back: the lists shrank and the log with them.
            drop(table);
            return Some(self.full(live, viewer).await);
        }
        live.with_views(|views: &mut Views| {
            let shared = views.at(rev, viewer, || built(live, &table, viewer));
            let base = self.rev;
            let from_events = std::mem::replace(&mut self.events, shared.events);
            self.last = Some(Arc::clone(&shared.state));
            // Another socket was told this already (same view, same starting point).
            let told = shared
                .updates
                .iter()
                .find(|w| Arc::ptr_eq(&w.from, &last) && w.events == from_events && w.base == base);
            if let Some(w) = told {
                if w.message.is_some() {
                    self.rev = rev;
                }
                return w.message.clone();
            }
            let (changes, mut append, any) = last.changes(&shared.state);
            append.log = state::log(&table.game, from_events, shared.events);
            let message = (any || !append.log.is_empty()).then(|| {
                let moves: Vec<RecordMove> = table
                    .game
                    .history()
                    .get(last.version as usize..)
                    .unwrap_or_default()
                    .iter()
                    .map(RecordMove::from_move)
                    .collect();
                let version = shared.state.version;
                ServerMessage::Update { rev, base, version, moves, changes, append }.frame()
            });
            if message.is_some() {
                // (Told nothing, the socket stays at its revision: its next
                // update follows the last one it was sent.)
                self.rev = rev;
            }
            shared.updates.push(Written { from: last, events: from_events, base, message: message.clone() });
            message
        })
    }
}

/// The state of `viewer` (without its log) and the count of events it covers.
fn built(live: &Live, table: &Table, viewer: &Viewer) -> (StateView, usize) {
    (StateView::new(&live.id, table, viewer), table.game.events().len())
}

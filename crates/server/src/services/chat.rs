//! Chat in a game (docs/web.md, "Chat and rematch"): the players' chat and
//! the spectators' chat, kept apart while the game is in play; messages
//! cleaned (text only, no control or bidi characters, NFC, capped), rate
//! limited per seat, per signed-in spectator or per spectator's address,
//! stored with the game and told to every socket on every server sharing
//! the storage. The players' messages have a cap of their own; the
//! spectators' theirs, shared out fairly among addresses, with a reserve
//! for spectators with a history (`ChatRepo::add`). Each spectator is a number
//! of the game's, given out in the store (`ChatRepo::spectator`).

use std::collections::HashMap;
use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::broadcast;

use super::games::live::{Live, Viewer};
use super::ids::now_ms;
use super::moderation::Moderation;
use super::text::clean_message;
use crate::error::ApiError;
use crate::limits::{Keyed, Pruning};
use crate::store::{
    hash_token, Change, ChatCaps, ChatMessage, ChatRepo, ClusterRepo, Rematch, RematchRepo, Seat, Store,
    DELETED_ACCOUNT,
};

/// The most messages each part of a game's chat keeps: the players' (past
/// it a player is refused, `chat_full`), spectators' with a history (their
/// reserve) and other spectators' (past either, the oldest message of
/// whoever holds the most in it goes).
pub const CHAT_CAPS: ChatCaps = ChatCaps { players: 1000, known: 500, others: 500 };
/// A seat, a signed-in spectator or a spectator's address may send this
/// many messages at once…
pub const CHAT_BURST: u32 = 5;
/// …and then one per this period.
pub const CHAT_PERIOD: Duration = Duration::from_secs(2);
/// The spectators of a game who are not signed in, all together, may send
/// this many messages at once…
pub const CROWD_BURST: u32 = 30;
/// …and then one per this period (per server): a crowd of addresses
/// floods the game's pages no faster.
pub const CROWD_PERIOD: Duration = Duration::from_millis(250);
/// What a game's sockets are told besides its state.
#[derive(Clone, Debug)]
pub enum ChatEvent {
    /// A chat message.
    Message(ChatMessage),
    /// The chat download's consent or the rematch changed.
    After(AfterGame),
}

/// What follows the game: who agreed to the chat's download, who accepted
/// the rematch, and the rematch once made.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct AfterGame {
    /// Seats that agreed to the chat's download with the record.
    pub consent: Vec<u8>,
    /// Seats that accepted the rematch.
    pub accepted: Vec<u8>,
    /// The rematch's game, once every player accepted.
    pub game: Option<String>,
}

impl AfterGame {
    pub fn of(consent: Vec<u8>, rematch: &Rematch) -> AfterGame {
        AfterGame { consent, accepted: rematch.accepted.iter().map(|a| a.0).collect(), game: rematch.game.clone() }
    }
}

/// The chat rooms of the games with sockets on this server, and the chat's
/// rate limits.
pub struct Rooms {
    rooms: Mutex<HashMap<String, broadcast::Sender<ChatEvent>>>,
    /// Rooms nobody listens to any more go (bounded by the open sockets).
    pruning: Pruning,
    /// Per seat, signed-in spectator or spectator's address, in a game.
    limiter: Keyed<String>,
    /// Per game, its spectators who are not signed in all together.
    crowd: Keyed<String>,
}

/// `burst` at once, then one per `period`.
fn quota(period: Duration, burst: u32) -> governor::Quota {
    governor::Quota::with_period(period)
        .unwrap_or_else(|| governor::Quota::per_second(NonZeroU32::MIN))
        .allow_burst(NonZeroU32::new(burst).unwrap_or(NonZeroU32::MIN))
}

impl Default for Rooms {
    fn default() -> Rooms {
        Rooms {
            rooms: Mutex::default(),
            pruning: Pruning::new(64),
            limiter: Keyed::new(quota(CHAT_PERIOD, CHAT_BURST)),
            crowd: Keyed::new(quota(CROWD_PERIOD, CROWD_BURST)),
        }
    }
}

impl Rooms {
    fn rooms(&self) -> std::sync::MutexGuard<'_, HashMap<String, broadcast::Sender<ChatEvent>>> {
        self.rooms.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Follows game `id`'s chat (a websocket does, while it is open).
    pub fn subscribe(&self, id: &str) -> broadcast::Receiver<ChatEvent> {
        let mut rooms = self.rooms();
        self.pruning.maybe(rooms.len(), || {
            rooms.retain(|_, tx| tx.receiver_count() > 0);
            rooms.len()
        });
        rooms.entry(id.to_string()).or_insert_with(|| broadcast::channel(64).0).subscribe()
    }

    /// Tells game `id`'s sockets on this server.
    pub fn tell(&self, id: &str, event: ChatEvent) {
        let mut rooms = self.rooms();
        if let Some(tx) = rooms.get(id) {
            if tx.send(event).is_err() {
                rooms.remove(id);
            }
        }
    }

    fn allow(&self, key: String) -> bool {
        self.limiter.check(&key).is_ok()
    }

    fn allow_crowd(&self, game: &str) -> bool {
        self.crowd.check(&game.to_string()).is_ok()
    }
}

/// Who writes: a seat holder, or a spectator: by client address (its key),
/// with their account if they are signed in, and the spectator token their
/// browser keeps (the same from any address).
#[derive(Clone, Debug)]
pub enum Speaker {
    Seats(Viewer),
    Spectator { address: IpAddr, account: Option<Member>, browser: Option<String> },
}

/// A signed-in spectator's account: its id, and the name they write under.
#[derive(Clone, Debug)]
pub struct Member {
    pub id: String,
    pub name: String,
}

impl Speaker {
    /// The speaker for `viewer` (a spectator when it holds no seat).
    pub fn of(viewer: &Viewer, address: IpAddr, account: Option<Member>, browser: Option<String>) -> Speaker {
        if viewer.seats.is_empty() {
            Speaker::Spectator { address, account, browser }
        } else {
            Speaker::Seats(viewer.clone())
        }
    }
}

/// Whether a viewer holding seats (`player`) sees `message` now: players
/// do not see the spectators' chat while the game is in play.
pub fn visible(message: &ChatMessage, player: bool, finished: bool) -> bool {
    !player || finished || message.seat.is_some()
}

/// Whether a reader who blocks the accounts `hidden` is sent `message`.
pub fn not_hidden(message: &ChatMessage, hidden: &std::collections::HashSet<String>) -> bool {
    message.author_account.as_ref().is_none_or(|a| !hidden.contains(a))
}

/// The chat of the games, and what follows a game (consent, rematch).
pub struct Chat {
    repo: Arc<dyn ChatRepo>,
    rematches: Arc<dyn RematchRepo>,
    cluster: Arc<dyn ClusterRepo>,
    moderation: Arc<Moderation>,
    rooms: Rooms,
    /// Spectators numbered in a game before only those with a history are.
    spectators: usize,
}

impl Chat {
    /// `spectators`: how many spectators of a game are numbered before only
    /// accounts with a history are (`Config::chat_spectators`).
    pub fn new(store: &Store, moderation: Arc<Moderation>, spectators: usize) -> Chat {
        Chat {
            spectators,
            repo: Arc::clone(&store.chat),
            rematches: Arc::clone(&store.rematches),
            cluster: Arc::clone(&store.cluster),
            moderation,
            rooms: Rooms::default(),
        }
    }

    /// The accounts whose lines `reader` (a signed-in account's id) is not
    /// sent: those it blocks (none for a reader not signed in).
    pub async fn hidden_for(&self, reader: Option<&str>) -> Arc<std::collections::HashSet<String>> {
        match reader {
            Some(account) => self.moderation.blocked_by(account).await,
            None => Arc::default(),
        }
    }

    /// The chat rooms of this server.
    pub fn rooms(&self) -> &Rooms {
        &self.rooms
    }

    /// Sends `text` to game `live`'s chat for `speaker`: checked, stored,
    /// then told to every socket on every server. A refusal changes nothing.
    ///
    /// # Errors
    /// `chat_off`, `message_too_long`, `empty_message`, `chat_too_fast`,
    /// `chat_full` (the players' messages), `chat_crowded` (a new spectator
    /// past `Config::chat_spectators` without a history), `storage_error`.
    pub async fn say(&self, live: &Arc<Live>, speaker: &Speaker, text: &str) -> Result<ChatMessage, ApiError> {
        let text = clean_message(text)?;
        let settings = self.repo.settings(&live.id).await?;
        if settings.off {
            return Err(ApiError::ChatOff);
        }
        let mut message = match speaker {
            Speaker::Seats(viewer) => {
                let t = live.lock().await;
                // Of the seats a screen holds, the one to move speaks (else the first).
                let seat = t.game.to_move().filter(|p| viewer.holds(*p)).or_else(|| viewer.seats.first().copied());
                let seat = seat.ok_or(ApiError::Unauthorized)?;
                let held = t.seats.get(seat.index()).ok_or(ApiError::Unauthorized)?;
                let name = held.name().to_string();
                let author_account = match held {
                    Seat::Human { account: Some(a), .. } if a != DELETED_ACCOUNT => Some(a.clone()),
                    _ => None,
                };
                drop(t);
                if let Some(account) = &author_account {
                    self.moderation.may_chat(account).await?;
                }
                if !self.rooms.allow(format!("{}/seat:{}", live.id, seat.0)) {
                    return Err(ApiError::ChatTooFast(CHAT_PERIOD.as_secs()));
                }
                ChatMessage {
                    member: author_account.is_some(),
                    author_account,
                    seq: 0,
                    seat: Some(seat.0),
                    name,
                    text,
                    at: now_ms(),
                    spectator: None,
                    account: false,
                    author: format!("seat:{}", seat.0),
                    kept: false,
                }
            }
            Speaker::Spectator { address, account, browser } => {
                if let Some(member) = account {
                    self.moderation.may_chat(&member.id).await?;
                }
                self.spectator(&live.id, *address, account.as_ref(), browser.as_deref(), text).await?
            }
        };
        message.seq =
            self.repo.add(&live.id, &message, &CHAT_CAPS).await?.ok_or(ApiError::ChatFull(CHAT_CAPS.players))?;
        self.rooms.tell(&live.id, ChatEvent::Message(message.clone()));
        if let Some(server) = self.cluster.server() {
            let change = Change::Chat {
                game: live.id.clone(),
                server: server.to_string(),
                message: message.clone(),
                author_account: message.author_account.clone(),
            };
            if let Err(e) = self.cluster.publish(&change).await {
                tracing::warn!(game = %live.id, error = %e, "cannot tell the other servers of a chat message");
            }
        }
        Ok(message)
    }

    /// A spectator's message of game `id`, unnumbered: they are the game's
    /// spectator their account names, else the one their address or their
    /// browser's token names (their address first: a new browser at the
    /// same address, or the same browser at a new one, is the same
    /// spectator), numbered in the store ("Spectator N" unless signed in).
    /// Its rate is the account's, else the address's. Only an account with
    /// a history passes the game's crowd limit, is numbered once the game
    /// has numbered its spectators (`chat_crowded`), and its messages count in
    /// their reserve, each account its share; a newer one's spend its
    /// address's rate too, and count with the guests' in its address's
    /// share, so that puppet accounts made at once are one spectator's worth
    /// and never take the reserve.
    async fn spectator(
        &self,
        id: &str,
        address: IpAddr,
        account: Option<&Member>,
        browser: Option<&str>,
        text: String,
    ) -> Result<ChatMessage, ApiError> {
        let address_key = hash_token(&format!("{id}/{address}"));
        let known = match account {
            Some(member) => self.moderation.known(&member.id).await,
            None => false,
        };
        let (rate, keys) = match account {
            Some(member) => {
                let key = hash_token(&format!("{id}/account/{}", member.id));
                (key.clone(), vec![key])
            }
            None => {
                let mut keys = vec![address_key.clone()];
                keys.extend(browser.map(|b| hash_token(&format!("{id}/browser/{b}"))));
                (address_key.clone(), keys)
            }
        };
        // Past the numbered spectators, a new one only with a history.
        let max = if known { usize::MAX } else { self.spectators };
        // Spent before a new spectator is numbered: a refusal stores nothing.
        let fresh_account = account.is_some() && !known;
        if !self.rooms.allow(format!("{id}/{rate}"))
            || (fresh_account && !self.rooms.allow(format!("{id}/{address_key}")))
            || (!known && !self.rooms.allow_crowd(id))
        {
            return Err(ApiError::ChatTooFast(CHAT_PERIOD.as_secs()));
        }
        let number = self.repo.spectator(id, &keys, max).await?.ok_or(ApiError::ChatCrowded(self.spectators))?;
        let name = account.map_or_else(|| format!("Spectator {number}"), |m| m.name.clone());
        Ok(ChatMessage {
            seq: 0,
            seat: None,
            name,
            text,
            at: now_ms(),
            spectator: Some(number),
            account: account.is_some(),
            member: account.is_some(),
            author_account: account.map(|m| m.id.clone()),
            author: if known { rate } else { address_key },
            kept: known,
        })
    }

    /// The chat of game `live` as `viewer` sees it now (signed in as
    /// `reader`: without the lines of accounts it blocks), with what follows the game.
    ///
    /// # Errors
    /// `storage_error`.
    pub async fn chat_of(
        &self,
        live: &Live,
        viewer: &Viewer,
        reader: Option<&str>,
    ) -> Result<(bool, Vec<ChatMessage>, AfterGame), ApiError> {
        let finished = live.lock().await.finished();
        let settings = self.repo.settings(&live.id).await?;
        let player = !viewer.seats.is_empty();
        let hidden = self.hidden_for(reader).await;
        let messages = self
            .repo
            .messages(&live.id)
            .await?
            .into_iter()
            .filter(|m| visible(m, player, finished) && not_hidden(m, &hidden))
            .collect();
        let rematch = self.rematches.get(&live.id).await?;
        Ok((settings.off, messages, AfterGame::of(settings.consent, &rematch)))
    }

    /// Seat holder `viewer` agrees (or no longer) to the chat's download
    /// with the record, for every seat it holds.
    ///
    /// # Errors
    /// `unauthorized` for a spectator, `storage_error`.
    pub async fn consent(&self, live: &Live, viewer: &Viewer, agree: bool) -> Result<AfterGame, ApiError> {
        if viewer.seats.is_empty() {
            return Err(ApiError::Unauthorized);
        }
        for p in &viewer.seats {
            self.repo.set_consent(&live.id, p.0, agree).await?;
        }
        self.after_game_changed(&live.id).await
    }

    /// The players' chat of a finished game whose players all agreed to
    /// its download: `{"game", "players", "messages"}`.
    ///
    /// # Errors
    /// `game_not_over`, `chat_not_agreed`, `storage_error`.
    pub async fn download(&self, live: &Live) -> Result<serde_json::Value, ApiError> {
        let (finished, names, humans) = {
            let t = live.lock().await;
            let humans: Vec<u8> =
                t.seats.iter().enumerate().filter(|(_, s)| s.bot_level().is_none()).map(|(i, _)| i as u8).collect();
            (t.finished(), t.names(), humans)
        };
        if !finished {
            return Err(ApiError::GameNotOver);
        }
        let settings = self.repo.settings(&live.id).await?;
        if !humans.iter().all(|h| settings.consent.contains(h)) {
            return Err(ApiError::ChatNotAgreed);
        }
        let messages: Vec<ChatMessage> =
            self.repo.messages(&live.id).await?.into_iter().filter(|m| m.seat.is_some()).collect();
        Ok(serde_json::json!({ "game": live.id, "players": names, "messages": messages }))
    }

    /// Reads what follows game `id` again and tells every socket, here and
    /// on the other servers.
    pub async fn after_game_changed(&self, id: &str) -> Result<AfterGame, ApiError> {
        let after = self.after_game(id).await?;
        self.rooms.tell(id, ChatEvent::After(after.clone()));
        if let Some(server) = self.cluster.server() {
            let change = Change::Rematch { game: id.to_string(), server: server.to_string() };
            if let Err(e) = self.cluster.publish(&change).await {
                tracing::warn!(game = %id, error = %e, "cannot tell the other servers of a rematch");
            }
        }
        Ok(after)
    }

    pub async fn after_game(&self, id: &str) -> Result<AfterGame, ApiError> {
        let settings = self.repo.settings(id).await?;
        let rematch = self.rematches.get(id).await?;
        Ok(AfterGame::of(settings.consent, &rematch))
    }

    /// News from another server: a chat message, or what follows a game changed.
    pub async fn learn(&self, change: Change) {
        match change {
            Change::Chat { game, mut message, author_account, .. } => {
                message.member = author_account.is_some();
                message.author_account = author_account;
                self.rooms.tell(&game, ChatEvent::Message(message));
            }
            Change::Rematch { game, .. } => match self.after_game(&game).await {
                Ok(after) => self.rooms.tell(&game, ChatEvent::After(after)),
                Err(e) => tracing::warn!(game = %game, error = %e, "cannot read a game's rematch"),
            },
            _ => {}
        }
    }
}

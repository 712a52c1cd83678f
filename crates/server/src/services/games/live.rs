//! A game in play in memory: its table (the game, seats, clocks, who is
//! here), the websockets open on it, and who is looking.

use std::any::Any;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use carcassonne::{Game, PlayerId};
use tokio::sync::watch;

use super::clock::{ClockState, Now};
use super::takeback::Takeback;
use crate::bots::BotLevel;
use crate::error::ApiError;
use crate::services::ids::now_ms;
use crate::store::Seat;

/// One game in play.
pub struct Live {
    pub id: String,
    pub(crate) table: tokio::sync::Mutex<Table>,
    /// Bumped on every change (a move, a bot starting to think): websockets
    /// watch it and send each viewer a fresh state.
    pub(crate) changes: watch::Sender<u64>,
    /// Websockets open on this game.
    pub(crate) sockets: Mutex<Places>,
    /// When the game was last asked for, played or watched (Unix ms).
    pub(crate) touched: std::sync::atomic::AtomicI64,
    /// What its websockets were last sent, shared between them (`wire`).
    pub(crate) views: Mutex<Option<Box<dyn Any + Send>>>,
}

/// How long after a person's move their game counts as one they are at
/// (a program playing over HTTP holds no page open).
pub const PRESENT_FOR: Duration = Duration::from_secs(5 * 60);

/// Websockets a seat may hold open on its game (a player's tabs and
/// devices), besides every spectator's: a crowd of spectators never takes a
/// player's place.
pub const SEAT_SOCKETS: u32 = 8;
/// Spectators' places on a game kept for people with a history, past
/// `Config::max_spectators_per_game`.
pub const KNOWN_SPECTATOR_PLACES: usize = 16;

/// The websockets open on one game: by seat (a socket holding several seats
/// counts on its first), and the spectators', in all and by client address,
/// and those in the places kept for people with a history, by account.
#[derive(Default)]
pub struct Places {
    seats: [u32; carcassonne::MAX_PLAYERS],
    spectators: usize,
    by_ip: HashMap<std::net::IpAddr, usize>,
    kept: usize,
    kept_by: HashMap<String, usize>,
}

impl Places {
    fn open(&self) -> usize {
        self.spectators + self.kept + self.seats.iter().map(|&n| n as usize).sum::<usize>()
    }
}

/// Who a place was given to.
#[derive(Clone)]
enum Holder {
    Seat(usize),
    Spectator(std::net::IpAddr),
    /// A person with a history (their account's id), in a place kept.
    Known(String),
}

/// One fewer under `key`, the key forgotten at none.
fn release<K: std::hash::Hash + Eq>(map: &mut HashMap<K, usize>, key: &K) {
    if let Some(n) = map.get_mut(key) {
        *n = n.saturating_sub(1);
        if *n == 0 {
            map.remove(key);
        }
    }
}

/// A websocket's place on a game; dropping it frees the place.
pub struct SocketPlace {
    live: Arc<Live>,
    holder: Holder,
}

impl Drop for SocketPlace {
    fn drop(&mut self) {
        let mut places = self.live.places();
        match &self.holder {
            Holder::Seat(i) => places.seats[*i] = places.seats[*i].saturating_sub(1),
            Holder::Spectator(ip) => {
                places.spectators = places.spectators.saturating_sub(1);
                release(&mut places.by_ip, ip);
            }
            Holder::Known(account) => {
                places.kept = places.kept.saturating_sub(1);
                release(&mut places.kept_by, account);
            }
        }
    }
}

/// The state of one game on the server.
pub struct Table {
    pub game: Game,
    pub seats: Vec<Seat>,
    pub created_at: i64,
    pub updated_at: i64,
    /// The bot that is choosing a move here.
    pub thinking: Option<PlayerId>,
    /// Open websockets holding each seat on this server (who is here).
    pub online: Vec<u32>,
    /// The same, on the other servers sharing the storage, by server.
    pub(crate) remote_online: HashMap<String, Vec<u32>>,
    /// A bot choosing a move on another server: (server, seat, version).
    pub(crate) remote_thinking: Option<(String, PlayerId, u64)>,
    pub(crate) bots_running: bool,
    /// The last word for the players about a bot (a program replaced by the
    /// built-in bot), with the version it was said at.
    pub notice: Option<(u64, String)>,
    /// The id and rules its views share, made on first use.
    pub(crate) fixed: OnceLock<Arc<dyn Any + Send + Sync>>,
    /// Its clocks (services/clocks.rs); none for a game made before clocks were kept.
    pub clock: Option<ClockState>,
    /// A rated game (set when made or loaded; its views say so).
    pub rated: bool,
    /// The server's clock, for the views' time left.
    pub(crate) now: Now,
    /// Whose game it is ([`crate::store::NewGame::owner`]): its bots take
    /// turns at the workers in that lane.
    pub owner: Option<String>,
    /// When a person last moved here (Unix ms; when loaded: its last move).
    pub person_at: i64,
    /// The game's latest takeback request (services/takebacks.rs), as stored.
    pub takeback: Option<Takeback>,
    /// Times the game went back here (a takeback granted, or its moves
    /// stored by another server that do not follow these): a bot's move
    /// or a socket's update made before one is made again.
    pub(crate) rewinds: u64,
}

impl Table {
    pub(crate) fn new(game: Game, seats: Vec<Seat>, created_at: i64, updated_at: i64) -> Table {
        let online = vec![0; seats.len()];
        Table {
            game,
            seats,
            created_at,
            updated_at,
            thinking: None,
            online,
            remote_online: HashMap::new(),
            remote_thinking: None,
            bots_running: false,
            notice: None,
            fixed: Default::default(),
            clock: None,
            rated: false,
            now: Default::default(),
            owner: None,
            person_at: updated_at,
            takeback: None,
            rewinds: 0,
        }
    }

    /// Whether a page of one of the game's people is open, on any server.
    pub fn page_open(&self) -> bool {
        self.seats.iter().enumerate().any(|(i, s)| matches!(s, Seat::Human { .. }) && self.seat_online(i))
    }

    /// The accounts of the people with a page open here (on any server).
    pub fn accounts_at_their_page(&self) -> Vec<String> {
        let mut accounts = Vec::new();
        for (i, s) in self.seats.iter().enumerate() {
            if let Seat::Human { account: Some(a), .. } = s {
                if self.seat_online(i) && !accounts.contains(a) {
                    accounts.push(a.clone());
                }
            }
        }
        accounts
    }

    /// Whether a person moved here within [`PRESENT_FOR`] before `now`.
    pub fn moved_lately(&self, now: i64) -> bool {
        now - self.person_at < PRESENT_FOR.as_millis() as i64
    }

    /// Whether a websocket holding seat `i` is open, on any server.
    pub fn seat_online(&self, i: usize) -> bool {
        self.online.get(i).is_some_and(|n| *n > 0)
            || self.remote_online.values().any(|o| o.get(i).is_some_and(|n| *n > 0))
    }

    /// The bot choosing a move now, on this server or another.
    pub fn thinking_seat(&self) -> Option<PlayerId> {
        let version = self.version();
        self.thinking.or_else(|| self.remote_thinking.as_ref().filter(|t| t.2 == version).map(|t| t.1))
    }

    /// Forgets what server `server` said (it stopped); whether anything changed.
    pub(crate) fn forget_server(&mut self, server: &str) -> bool {
        let online = self.remote_online.remove(server).is_some();
        let thinking = self.remote_thinking.take_if(|t| t.0 == server).is_some();
        online || thinking
    }

    pub fn names(&self) -> Vec<String> {
        self.seats.iter().map(|s| s.name().to_string()).collect()
    }

    /// The game goes back to `game` (fewer moves, built by
    /// [`super::rebuild`] from the stored record): a bot thinking on the old
    /// one and every socket's update start again from it. The old game.
    pub(crate) fn rewound(&mut self, game: Game, updated_at: i64) -> Game {
        self.updated_at = updated_at;
        self.thinking = None;
        self.remote_thinking = None;
        self.rewinds = self.rewinds.wrapping_add(1);
        std::mem::replace(&mut self.game, game)
    }

    /// The game's version: the number of moves played. A move must name it.
    pub fn version(&self) -> u64 {
        self.game.moves_played() as u64
    }

    /// Whether the game was aborted (a real-time clock ran out before
    /// anyone moved): nobody moves in it again.
    pub fn aborted(&self) -> bool {
        self.clock.as_ref().is_some_and(|c| c.aborted)
    }

    /// Whether the game ended before its last tile, the results as they
    /// stood (a resignation, or the players' choice at a casual flag).
    pub fn ended(&self) -> bool {
        self.clock.as_ref().is_some_and(|c| c.ended)
    }

    /// Whether the game is finished: played to its end, or ended early.
    pub fn finished(&self) -> bool {
        self.game.is_over() || self.ended()
    }

    /// Whether the game is over: finished, or aborted.
    pub fn over(&self) -> bool {
        self.finished() || self.aborted()
    }

    /// The seat to move, if anyone may move (none once over or aborted).
    pub fn to_move(&self) -> Option<PlayerId> {
        if self.aborted() || self.ended() {
            return None;
        }
        self.game.to_move()
    }

    /// The winners once finished (none before): the best score among the
    /// seats whose player did not resign.
    pub fn winners(&self) -> Vec<u8> {
        match &self.clock {
            _ if !self.finished() => Vec::new(),
            Some(c) => c.winners(self.game.scores()),
            None => self.game.winners().iter().map(|p| p.0).collect(),
        }
    }

    /// The bot to move, if a bot is to move.
    pub(crate) fn bot_to_move(&self) -> Option<(PlayerId, BotLevel)> {
        let p = self.to_move()?;
        let level = self.seats.get(p.index())?.bot_level();
        // A bot standing in for a person (clock.rs).
        let level = level.or_else(|| self.clock.as_ref()?.standin_level(p));
        level.map(|l| (p, l))
    }
}

impl Live {
    /// A game in memory, touched now.
    pub fn new(id: String, table: Table) -> Arc<Live> {
        Arc::new(Live {
            id,
            table: tokio::sync::Mutex::new(table),
            changes: watch::channel(0).0,
            sockets: Mutex::default(),
            touched: now_ms().into(),
            views: Mutex::default(),
        })
    }

    pub async fn lock(&self) -> tokio::sync::MutexGuard<'_, Table> {
        self.table.lock().await
    }

    /// The game's revision on this server: bumped by every change anyone
    /// sees (a move, presence, a bot thinking).
    pub fn rev(&self) -> u64 {
        *self.changes.borrow()
    }

    /// The views of this game its websockets share (`wire::Views`: kept
    /// here, typed by the websocket layer).
    pub(crate) fn with_views<T: Any + Send + Default, R>(&self, f: impl FnOnce(&mut T) -> R) -> R {
        let mut slot = self.views.lock().unwrap_or_else(|e| e.into_inner());
        if !slot.as_ref().is_some_and(|b| b.is::<T>()) {
            *slot = Some(Box::new(T::default()));
        }
        match slot.as_mut().and_then(|b| b.downcast_mut::<T>()) {
            Some(views) => f(views),
            None => f(&mut T::default()),
        }
    }

    /// Whether the game is over or aborted (`false` while its table is in use).
    pub fn finished(&self) -> bool {
        self.table.try_lock().is_ok_and(|t| t.over())
    }

    pub fn subscribe(&self) -> watch::Receiver<u64> {
        self.changes.subscribe()
    }

    fn places(&self) -> std::sync::MutexGuard<'_, Places> {
        self.sockets.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Whether a spectator's websocket is open on this game, on this server.
    pub fn watched(&self) -> bool {
        self.places().spectators > 0
    }

    /// A place for one more websocket on this game, or why there is none:
    /// a seat holder's among their seat's [`SEAT_SOCKETS`], whatever the
    /// spectators; a spectator's (from client address `ip`, its key) if the
    /// game holds fewer than `max_spectators` of them and fewer than
    /// `max_per_ip` from that address; past those, a person with a history
    /// (`known`: their account's id) takes one of the
    /// [`KNOWN_SPECTATOR_PLACES`], `max_per_ip` of them at most, so that a
    /// crowd of fresh addresses watching keeps nobody known out.
    ///
    /// # Errors
    /// Which cap is reached.
    pub fn take_socket_place(
        self: &Arc<Self>,
        viewer: &Viewer,
        ip: std::net::IpAddr,
        known: Option<&str>,
        max_spectators: usize,
        max_per_ip: usize,
    ) -> Result<SocketPlace, &'static str> {
        let mut places = self.places();
        let holder = match viewer.seats.first() {
            Some(p) => {
                let i = p.index().min(carcassonne::MAX_PLAYERS - 1);
                if places.seats[i] >= SEAT_SOCKETS {
                    return Err("this seat has as many live connections open as it can");
                }
                places.seats[i] += 1;
                Holder::Seat(i)
            }
            None => {
                let mine = places.by_ip.get(&ip).copied().unwrap_or(0);
                let open = if places.spectators >= max_spectators {
                    Err("this game has as many spectators as it can take")
                } else if mine >= max_per_ip {
                    Err("too many spectators of this game from your address")
                } else {
                    Ok(())
                };
                match (open, known) {
                    (Ok(()), _) => {
                        places.spectators += 1;
                        places.by_ip.insert(ip, mine + 1);
                        Holder::Spectator(ip)
                    }
                    (Err(e), None) => return Err(e),
                    (Err(e), Some(account)) => {
                        let theirs = places.kept_by.get(account).copied().unwrap_or(0);
                        if places.kept >= KNOWN_SPECTATOR_PLACES || theirs >= max_per_ip {
                            return Err(e);
                        }
                        places.kept += 1;
                        places.kept_by.insert(account.to_string(), theirs + 1);
                        Holder::Known(account.to_string())
                    }
                }
            }
        };
        drop(places);
        Ok(SocketPlace { live: Arc::clone(self), holder })
    }

    pub(crate) fn changed(&self) {
        self.touch();
        self.changes.send_modify(|v| *v = v.wrapping_add(1));
    }

    pub(crate) fn touch(&self) {
        self.touched.store(now_ms(), std::sync::atomic::Ordering::Relaxed);
    }

    /// Whether nothing holds this game in memory: no live connection, no
    /// bot driving it, nobody for `idle` (and its table not in use now).
    pub(crate) fn idle(&self, idle: Duration) -> bool {
        use std::sync::atomic::Ordering;
        let quiet = now_ms() - self.touched.load(Ordering::Relaxed) >= idle.as_millis() as i64;
        quiet
            && self.places().open() == 0
            && self.table.try_lock().is_ok_and(|t| !t.bots_running && t.thinking.is_none())
    }
}

/// Who is looking: the seats their tokens hold (none for a spectator).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Viewer {
    pub seats: Vec<PlayerId>,
}

impl Viewer {
    /// The viewer holding `tokens` (comma-separated in URLs).
    ///
    /// # Errors
    /// A token that holds no seat of this game.
    pub fn from_tokens<'a>(seats: &[Seat], tokens: impl IntoIterator<Item = &'a str>) -> Result<Viewer, ApiError> {
        let mut viewer = Viewer::default();
        for token in tokens.into_iter().map(str::trim).filter(|t| !t.is_empty()) {
            if token.len() > 128 {
                return Err(ApiError::Unauthorized);
            }
            let seat = seats.iter().position(|s| s.held_by(token)).ok_or(ApiError::Unauthorized)?;
            let p = PlayerId(seat as u8);
            if !viewer.seats.contains(&p) {
                viewer.seats.push(p);
            }
        }
        viewer.seats.sort();
        Ok(viewer)
    }

    pub fn holds(&self, p: PlayerId) -> bool {
        self.seats.contains(&p)
    }
}

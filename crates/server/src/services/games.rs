//! Games in memory: one lock per game serialises its commands, every move
//! is checked by the engine and stored before it is applied.

use std::any::Any;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use carcassonne::record::{rules_from_json, Record, RecordMove, ReplayError, Replayer};
use carcassonne::{Game, Move, PlayerId, Rules, Setup};
use serde_json::{Map, Value};
use tokio::sync::watch;

use super::AppState;
use crate::bots::{BotLevel, ExternalBot};
use crate::error::ApiError;
use crate::names::{clean_name, name_key};
use crate::store::{hash_token, Change, NewGame, Progress, Seat, Store, StoreError};

/// One game in play.
pub struct Live {
    pub id: String,
    pub(super) table: tokio::sync::Mutex<Table>,
    /// Bumped on every change (a move, a bot starting to think): websockets
    /// watch it and send each viewer a fresh state.
    pub(super) changes: watch::Sender<u64>,
    /// Websockets open on this game.
    pub(super) sockets: Mutex<Places>,
    /// When the game was last asked for, played or watched (Unix ms).
    pub(super) touched: std::sync::atomic::AtomicI64,
    /// What its websockets were last sent, shared between them (`wire`).
    pub(super) views: Mutex<Option<Box<dyn Any + Send>>>,
}

/// Websockets a seat may hold open on its game (a player's tabs and
/// devices), besides every spectator's: a crowd of spectators never takes a
/// player's place.
pub const SEAT_SOCKETS: u32 = 8;

/// The websockets open on one game: by seat (a socket holding several seats
/// counts on its first), and the spectators', in all and by client address.
#[derive(Default)]
pub struct Places {
    seats: [u32; carcassonne::MAX_PLAYERS],
    spectators: usize,
    by_ip: HashMap<std::net::IpAddr, usize>,
}

impl Places {
    fn open(&self) -> usize {
        self.spectators + self.seats.iter().map(|&n| n as usize).sum::<usize>()
    }
}

/// Who a place was given to.
#[derive(Clone, Copy)]
enum Holder {
    Seat(usize),
    Spectator(std::net::IpAddr),
}

/// A websocket's place on a game; dropping it frees the place.
pub struct SocketPlace {
    live: Arc<Live>,
    holder: Holder,
}

impl Drop for SocketPlace {
    fn drop(&mut self) {
        let mut places = self.live.places();
        match self.holder {
            Holder::Seat(i) => places.seats[i] = places.seats[i].saturating_sub(1),
            Holder::Spectator(ip) => {
                places.spectators = places.spectators.saturating_sub(1);
                if let Some(n) = places.by_ip.get_mut(&ip) {
                    *n = n.saturating_sub(1);
                    if *n == 0 {
                        places.by_ip.remove(&ip);
                    }
                }
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
    pub(super) remote_online: HashMap<String, Vec<u32>>,
    /// A bot choosing a move on another server: (server, seat, version).
    pub(super) remote_thinking: Option<(String, PlayerId, u64)>,
    pub(super) bots_running: bool,
    /// The last word for the players about a bot (a program replaced by the
    /// built-in bot), with the version it was said at.
    pub notice: Option<(u64, String)>,
    /// The id and rules its views share, made on first use.
    pub(crate) fixed: OnceLock<Arc<dyn Any + Send + Sync>>,
    /// Its clocks (services/clock.rs); none for a game made before clocks were kept.
    pub clock: Option<super::clock::ClockState>,
    /// A rated game (set when made or loaded; its views say so).
    pub rated: bool,
    /// The server's clock, for the views' time left.
    pub(crate) now: super::clock::Now,
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
        }
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
    pub(super) fn forget_server(&mut self, server: &str) -> bool {
        let online = self.remote_online.remove(server).is_some();
        let thinking = self.remote_thinking.take_if(|t| t.0 == server).is_some();
        online || thinking
    }

    pub fn names(&self) -> Vec<String> {
        self.seats.iter().map(|s| s.name().to_string()).collect()
    }

    /// The game's version: the number of moves played. A move must name it.
    pub fn version(&self) -> u64 {
        self.game.moves_played() as u64
    }

    /// The bot to move, if a bot is to move.
    pub(crate) fn bot_to_move(&self) -> Option<(PlayerId, BotLevel)> {
        let p = self.game.to_move()?;
        let level = self.seats.get(p.index())?.bot_level();
        // A bot standing in for a person (clock.rs).
        let level = level.or_else(|| self.clock.as_ref()?.standin_level(p));
        level.map(|l| (p, l))
    }
}

impl Live {
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

    /// Whether the game is over (`false` while its table is in use).
    pub fn finished(&self) -> bool {
        self.table.try_lock().is_ok_and(|t| t.game.is_over())
    }

    pub fn subscribe(&self) -> watch::Receiver<u64> {
        self.changes.subscribe()
    }

    fn places(&self) -> std::sync::MutexGuard<'_, Places> {
        self.sockets.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A place for one more websocket on this game, or why there is none:
    /// a seat holder's among their seat's [`SEAT_SOCKETS`], whatever the
    /// spectators; a spectator's (from client address `ip`, its key) if the
    /// game holds fewer than `max_spectators` of them and fewer than
    /// `max_per_ip` from that address.
    ///
    /// # Errors
    /// Which cap is reached.
    pub fn take_socket_place(
        self: &Arc<Self>,
        viewer: &Viewer,
        ip: std::net::IpAddr,
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
                if places.spectators >= max_spectators {
                    return Err("this game has as many spectators as it can take");
                }
                let mine = places.by_ip.get(&ip).copied().unwrap_or(0);
                if mine >= max_per_ip {
                    return Err("too many spectators of this game from your address");
                }
                places.spectators += 1;
                places.by_ip.insert(ip, mine + 1);
                Holder::Spectator(ip)
            }
        };
        drop(places);
        Ok(SocketPlace { live: Arc::clone(self), holder })
    }

    pub(super) fn changed(&self) {
        self.touch();
        self.changes.send_modify(|v| *v = v.wrapping_add(1));
    }

    pub(super) fn touch(&self) {
        self.touched.store(now_ms(), std::sync::atomic::Ordering::Relaxed);
    }

    /// Whether nothing holds this game in memory: no live connection, no
    /// bot driving it, nobody for `idle` (and its table not in use now).
    pub(super) fn idle(&self, idle: Duration) -> bool {
        use std::sync::atomic::Ordering;
        let quiet = now_ms() - self.touched.load(Ordering::Relaxed) >= idle.as_millis() as i64;
        quiet
            && self.places().open() == 0
            && self.table.try_lock().is_ok_and(|t| !t.bots_running && t.thinking.is_none())
    }

    /// Counts a websocket of `viewer` in (`+1`) or out (`-1`), and tells
    /// everyone, on every server sharing the storage.
    pub async fn presence(&self, store: &Arc<dyn Store>, viewer: &Viewer, joined: bool) {
        if viewer.seats.is_empty() {
            return;
        }
        let mut t = self.lock().await;
        for p in &viewer.seats {
            if let Some(n) = t.online.get_mut(p.index()) {
                *n = if joined { n.saturating_add(1) } else { n.saturating_sub(1) };
            }
        }
        let online = t.online.clone();
        drop(t);
        self.changed();
        self.publish_presence(store, online).await;
    }

    pub(super) async fn publish_presence(&self, store: &Arc<dyn Store>, online: Vec<u32>) {
        let Some(server) = store.server() else { return };
        let change = Change::Presence { game: self.id.clone(), server: server.to_string(), online };
        if let Err(e) = store.publish(&change).await {
            tracing::warn!(game = %self.id, error = %e, "cannot tell the other servers who is here");
        }
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

/// A move as a client sends it: the record's move fields plus the version
/// the client saw.
#[derive(Clone, Debug, serde::Deserialize)]
pub struct MoveRequest {
    pub version: u64,
    #[serde(flatten)]
    pub mv: RecordMove,
}

/// A seat as the new-game form asks for it.
#[derive(Clone, Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeatRequest {
    pub kind: String,
    #[serde(default)]
    pub name: Option<String>,
    #[serde(default)]
    pub level: Option<String>,
}

/// The new-game form.
#[derive(Clone, Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreateRequest {
    pub seats: Vec<SeatRequest>,
    #[serde(default)]
    pub rules: Option<Map<String, Value>>,
    /// Listed for everyone to watch (otherwise only those who hold a seat
    /// see it in their list).
    #[serde(default)]
    pub public: bool,
    /// A rated game (docs/web.md, *Ratings and profiles*): the creator
    /// signed in, the rules a preset, every bot a rated level.
    #[serde(default)]
    pub rated: bool,
    /// Chat turned off for everyone in this game (services/chat.rs).
    #[serde(default)]
    pub chat_off: bool,
    /// The time control (services/clock.rs `TimeControl`); none by default.
    #[serde(default)]
    pub clock: Option<Value>,
    /// Minutes a seat to move must have been away before the others may
    /// hand it to a bot (default 5).
    #[serde(default)]
    pub away_minutes: Option<u32>,
}

/// A seat's token as handed out when the game is created (and never again:
/// the server keeps only its hash).
#[derive(Clone, Debug)]
pub struct SeatToken {
    pub seat: PlayerId,
    pub token: String,
    /// An invited seat (played from another device), not one for the creator.
    pub remote: bool,
}

/// A new game's id and the tokens of its human seats.
#[derive(Clone)]
pub struct Created {
    pub live: Arc<Live>,
    pub tokens: Vec<SeatToken>,
}

/// Names bots get when the form leaves them blank.
pub(super) const BOT_NAMES: [&str; 6] = ["Aldric", "Beatrix", "Cedric", "Isolde", "Godfrey", "Matilda"];

/// The most spare games kept.
const SPARE_GAMES: usize = 64;

pub fn now_ms() -> i64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_millis() as i64).unwrap_or(0)
}

/// `n` random bytes from the operating system. Without them no token can
/// be trusted, so the request fails rather than fall back on the clock.
pub(super) fn random_bytes<const N: usize>() -> Result<[u8; N], ApiError> {
    let mut buf = [0u8; N];
    getrandom::fill(&mut buf)
        .map_err(|e| ApiError::Storage(format!("no randomness from the operating system: {e}")))?;
    Ok(buf)
}

/// A game id: 10 characters that are easy to read aloud.
pub(crate) fn new_game_id() -> Result<String, ApiError> {
    const ALPHABET: &[u8] = b"23456789abcdefghjkmnpqrstuvwxyz";
    Ok(random_bytes::<10>()?.iter().map(|b| ALPHABET[*b as usize % ALPHABET.len()] as char).collect())
}

/// A seat token: 128 random bits from the operating system, in hex.
pub(crate) fn new_token() -> Result<String, ApiError> {
    Ok(random_bytes::<16>()?.iter().map(|b| format!("{b:02x}")).collect())
}

/// Whether `id` could be a game id (so that junk never reaches the store).
pub fn plausible_id(id: &str) -> bool {
    (1..=40).contains(&id.len()) && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// The progress a listing shows after a move.
pub fn progress_of(game: &Game, seats: &[Seat]) -> Progress {
    Progress {
        finished: game.is_over(),
        scores: game.scores().to_vec(),
        to_move: game.to_move().map(|p| p.0),
        winners: game.winners().iter().map(|p| p.0).collect(),
        at: now_ms(),
        bot_turn: game.to_move().and_then(|p| seats.get(p.index())).is_some_and(|s| s.bot_level().is_some()),
    }
}

impl AppState {
    /// Starts a game from the new-game form.
    ///
    /// # Errors
    /// `bad_request` for a form the rules refuse (seats, names, levels,
    /// options); `storage_error` if it cannot be saved.
    pub async fn create(&self, req: CreateRequest) -> Result<Created, ApiError> {
        self.create_for(req, None).await
    }

    /// [`AppState::create`] for a client at `ip`, within its quotas
    /// (`quota_exceeded` otherwise).
    ///
    /// # Errors
    /// As [`AppState::create`], and `quota_exceeded`.
    pub async fn create_for(&self, req: CreateRequest, ip: Option<std::net::IpAddr>) -> Result<Created, ApiError> {
        self.create_as(req, ip, None).await
    }

    /// [`AppState::create_for`] by a signed-in `account` (if any): the
    /// first seat at the creator's screen is linked to it.
    ///
    /// # Errors
    /// As [`AppState::create_for`], and `not_ratable` for a rated game that
    /// cannot be one.
    pub async fn create_as(
        &self,
        req: CreateRequest,
        ip: Option<std::net::IpAddr>,
        account: Option<&crate::store::Account>,
    ) -> Result<Created, ApiError> {
        if !(2..=carcassonne::MAX_PLAYERS).contains(&req.seats.len()) {
            return Err(ApiError::BadRequest(format!(
                "a game has 2 to {} seats, not {}",
                carcassonne::MAX_PLAYERS,
                req.seats.len()
            )));
        }
        // Names as given, cleaned; two seats may not share one.
        let given: Vec<Option<String>> = req.seats.iter().map(|s| s.name.as_deref().and_then(clean_name)).collect();
        let mut taken: Vec<String> = Vec::new();
        for (i, name) in given.iter().enumerate() {
            let Some(name) = name else { continue };
            let key = name_key(name);
            if let Some(j) = given[..i].iter().position(|n| n.as_deref().map(name_key).as_ref() == Some(&key)) {
                return Err(ApiError::BadRequest(format!(
                    "seat {}: \"{name}\" is already the name of seat {}",
                    i + 1,
                    j + 1
                )));
            }
            taken.push(key);
        }
        // A default name no seat has taken.
        let mut default_name = |first: String| {
            let name = (1..).map(|k| if k == 1 { first.clone() } else { format!("{first} {k}") });
            let name = name.into_iter().find(|n| !taken.contains(&name_key(n))).unwrap_or(first);
            taken.push(name_key(&name));
            name
        };
        let mut seats = Vec::with_capacity(req.seats.len());
        let mut tokens = Vec::new();
        for (i, s) in req.seats.iter().enumerate() {
            let seat = match s.kind.as_str() {
                kind @ ("human" | "remote") => {
                    let token = new_token()?;
                    let remote = kind == "remote";
                    let token_hash = hash_token(&token);
                    tokens.push(SeatToken { seat: PlayerId(i as u8), token, remote });
                    // The creator's own seat: the first at their screen.
                    let mine = account
                        .filter(|_| !remote && !tokens.iter().any(|t: &SeatToken| !t.remote && t.seat.index() < i));
                    Seat::Human {
                        name: given[i].clone().unwrap_or_else(|| default_name(format!("Player {}", i + 1))),
                        token_hash,
                        remote,
                        account: mine.map(|a| a.id.clone()),
                    }
                }
                "bot" => {
                    let level = match s.level.as_deref() {
                        None => BotLevel::Normal,
                        Some(l) => BotLevel::named(l, &self.inner.config.external_bots).ok_or_else(|| {
                            ApiError::BadRequest(format!("seat {}: unknown bot level \"{l}\"", i + 1))
                        })?,
                    };
                    Seat::Bot {
                        name: given[i].clone().unwrap_or_else(|| default_name(BOT_NAMES[i % BOT_NAMES.len()].into())),
                        level,
                    }
                }
                other => {
                    return Err(ApiError::BadRequest(format!(
                        "seat {}: kind must be \"human\", \"remote\" or \"bot\", not \"{other}\"",
                        i + 1
                    )))
                }
            };
            seats.push(seat);
        }
        let names: Vec<String> = seats.iter().map(|s| s.name().to_string()).collect();
        let rules = req.rules.unwrap_or_default();
        // The engine builds the game from a seeded record, so every rule
        // option it knows (river, first player…) is set up by the engine.
        let rules = rules_from_json(&rules).map_err(|e| ApiError::BadRequest(e.to_string()))?;
        check_rules(&seats, &rules, &self.inner.config.external_bots).map_err(ApiError::BadRequest)?;
        if req.rated {
            super::ratings::check_rated(&seats, &rules, account)?;
        }
        // The engine deals the deck for the rules (the river first, the
        // first player…) from a fresh seed.
        let setup = Setup::standard(rules, names.len(), u64::from_le_bytes(random_bytes::<8>()?));
        let live_seed = setup.live_seed;
        let game = Game::new(setup).map_err(|e| ApiError::BadRequest(e.to_string()))?;
        // Stored: the deck as dealt, and the live bag's seed, so that a
        // replay of the moves rebuilds this very game.
        let record = Record::from_game(&game, &names);
        let clock = self.clock_of(req.clock.as_ref(), req.away_minutes, &game, &seats)?;
        self.inner.quotas.take(ip, &self.inner.config)?;
        let id = new_game_id()?;
        let created_at = now_ms();
        let new =
            clock.kept_with(NewGame::new(id.clone(), record, live_seed, seats.clone(), created_at, req.public))?;
        self.store().create_game(&new).await?;
        self.created_rated(&id, &seats, req.rated).await?;
        if req.chat_off {
            self.store().set_chat_off(&id).await?;
        }
        tracing::info!(game = %id, players = names.len(), "game created");
        let mut table = Table::new(game, seats, created_at, created_at);
        table.clock = Some(clock);
        table.rated = req.rated;
        table.now = self.now().clone();

        let live = Arc::new(Live {
            id: id.clone(),
            table: tokio::sync::Mutex::new(table),
            changes: watch::channel(0).0,
            sockets: Default::default(),
            touched: now_ms().into(),
            views: Mutex::default(),
        });
        self.games().insert(id, Arc::clone(&live));
        self.inner.quotas.count_active(ip, &live);
        self.kick_bots(&live);
        Ok(Created { live, tokens })
    }

    /// The game `id`, loaded from the store and replayed if it is not in play.
    ///
    /// # Errors
    /// `not_found`, or `storage_error` for a store failure or a stored game
    /// that does not replay.
    pub async fn game(&self, id: &str) -> Result<Arc<Live>, ApiError> {
        if let Some(live) = self.games().get(id) {
            live.touch();
            return Ok(Arc::clone(live));
        }
        if !plausible_id(id) {
            return Err(ApiError::NotFound(format!("game {id}")));
        }
        let stored = self.store().load(id).await?.ok_or_else(|| ApiError::NotFound(format!("game {id}")))?;
        let game = rebuild(&stored.record, stored.live_seed)
            .map_err(|e| ApiError::Storage(format!("game {id} does not replay: {e}")))?;
        let mut table = Table::new(game, stored.seats, stored.created_at, stored.updated_at);
        table.rated = self.store().rated(id).await?.is_some();
        // Who is here through the other servers.
        match self.store().presence(id).await {
            Ok(remote) => table.remote_online = remote.into_iter().collect(),
            Err(e) => tracing::warn!(game = %id, error = %e, "cannot ask who is on the other servers"),
        }
        table.now = self.now().clone();
        self.load_clock_into(id, &mut table).await;
        let live = Arc::new(Live {
            id: id.to_string(),
            table: tokio::sync::Mutex::new(table),
            changes: watch::channel(0).0,
            sockets: Default::default(),
            touched: now_ms().into(),
            views: Mutex::default(),
        });
        let (live, fresh) = {
            let mut games = self.games();
            match games.get(id) {
                Some(other) => (Arc::clone(other), false),
                None => {
                    games.insert(id.to_string(), Arc::clone(&live));
                    (live, true)
                }
            }
        };
        if fresh {
            // A bot whose turn it was when the server stopped moves now.
            self.kick_bots(&live);
        }
        Ok(live)
    }

    /// Plays a client's move for `viewer` after every check; the move is
    /// stored before it is applied. A refused move changes nothing.
    ///
    /// # Errors
    /// `game_over`, `stale_version`, `unauthorized`, `not_your_turn`,
    /// `bad_request`, `illegal_move` (with the engine's rule code), `storage_error`.
    pub async fn play(&self, live: &Arc<Live>, viewer: &Viewer, req: &MoveRequest) -> Result<(), ApiError> {
        let mut table = live.lock().await;
        let Some(to_move) = table.game.to_move() else {
            return Err(ApiError::GameOver);
        };
        if req.version != table.version() {
            return Err(ApiError::StaleVersion { current: table.version() });
        }
        if viewer.seats.is_empty() {
            return Err(ApiError::Unauthorized);
        }
        if !viewer.holds(to_move) || table.bot_to_move().is_some() {
            return Err(ApiError::NotYourTurn);
        }
        self.check_time(&table)?;
        let mv = req.mv.to_move().map_err(|e| match e {
            carcassonne::record::RecordError::Illegal(e) => ApiError::Illegal(e),
            other => ApiError::BadRequest(other.to_string()),
        })?;
        self.commit(live, &mut table, mv).await?;
        drop(table);
        self.kick_bots(live);
        Ok(())
    }

    /// Checks, stores, then applies `mv`.
    pub(super) async fn commit(&self, live: &Live, table: &mut Table, mv: Move) -> Result<(), ApiError> {
        table.game.check(&mv).map_err(ApiError::Illegal)?;
        let mut next = self.copy_of(&table.game);
        next.play_unchecked(&mv);
        let progress = progress_of(&next, &table.seats);
        let ply = table.game.moves_played() as usize;
        let (id, rm, at) = (live.id.clone(), RecordMove::from_move(&mv), progress.at);
        match self.store().append_move(&id, ply, &rm, &progress).await {
            Ok(()) => {}
            Err(StoreError::Conflict(why)) => {
                // Another server sharing the storage stored this move first:
                // catch up with it; the client resyncs.
                tracing::info!(game = %live.id, %why, "a move raced another server's");
                self.catch_up(live, table).await?;
                return Err(ApiError::StaleVersion { current: table.version() });
            }
            Err(e) => return Err(e.into()),
        }
        let mover = table.game.to_move();
        let before = std::mem::replace(&mut table.game, next);
        self.spare(before);
        table.updated_at = at;
        self.clock_after_move(live, table, mover).await;
        live.changed();
        if progress.finished {
            // A rated game's result, applied once whichever server tries
            // (a seat that ran out of time placed last).
            let forced = table.clock.as_ref().and_then(|c| c.timed_out).map(usize::from);
            if let Err(e) = self.settle_rating(&live.id, &progress.scores, forced).await {
                tracing::warn!(game = %live.id, error = %e, "the ratings could not be updated");
            }
        }
        self.notify_turn(live, table);
        Ok(())
    }

    /// A copy of `game`, made in a spare game's buffers if there is one.
    pub(super) fn copy_of(&self, game: &Game) -> Game {
        let spare = self.inner.spare_games.lock().unwrap_or_else(|e| e.into_inner()).pop();
        match spare {
            Some(mut copy) => {
                copy.clone_from(game);
                copy
            }
            None => game.clone(),
        }
    }

    /// Keeps `game`'s buffers for a later [`AppState::copy_of`].
    pub(super) fn spare(&self, game: Game) {
        let mut spares = self.inner.spare_games.lock().unwrap_or_else(|e| e.into_inner());
        if spares.len() < SPARE_GAMES {
            spares.push(game);
        }
    }

    /// Plays the moves the storage holds beyond the table's (stored by
    /// another server sharing it), each checked by the engine.
    pub(super) async fn catch_up(&self, live: &Live, table: &mut Table) -> Result<(), ApiError> {
        let stored = self
            .store()
            .load(&live.id)
            .await?
            .ok_or_else(|| ApiError::Storage(format!("game {} is gone from the storage", live.id)))?;
        let have = table.game.moves_played() as usize;
        if stored.record.moves.len() <= have {
            return Ok(());
        }
        let mut next = Replayer::resume(table.game.clone(), have);
        next.run(&stored.record.moves[have..])
            .map_err(|e| ApiError::Storage(format!("game {}: a stored move does not play: {e}", live.id)))?;
        table.game = next.finish();
        table.updated_at = stored.updated_at;
        live.changed();
        Ok(())
    }

    pub(super) fn in_memory(&self, id: &str) -> Option<Arc<Live>> {
        self.games().get(id).cloned()
    }
}

/// Whether every program seated plays `rules`.
///
/// # Errors
/// Which seat's program does not, and the option it lacks.
pub fn check_rules(seats: &[Seat], rules: &Rules, programs: &[ExternalBot]) -> Result<(), String> {
    // The page draws and plays the base game, The River and The Abbot only.
    if rules.expansions() {
        return Err("the web game does not play Inns & Cathedrals or Traders & Builders yet".into());
    }
    for (i, seat) in seats.iter().enumerate() {
        if let Some(BotLevel::External(name)) = seat.bot_level() {
            if let Some(Err(option)) = programs.iter().find(|p| p.name == name).map(|p| p.supports(rules)) {
                return Err(format!("seat {}: the bot {name} does not play the rule option {option}", i + 1));
            }
        }
    }
    Ok(())
}

/// A stored game rebuilt: its record's setup with the live bag's seed, then
/// every move, checked.
///
/// # Errors
/// The record does not replay.
pub fn rebuild(record: &Record, live_seed: Option<u64>) -> Result<Game, ReplayError> {
    let mut setup = record.setup()?;
    setup.live_seed = live_seed;
    let mut replay = Replayer::new(setup)?;
    replay.run(&record.moves)?;
    Ok(replay.finish())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    pub(super) fn ids_and_tokens_look_right() {
        let id = new_game_id().unwrap();
        assert_eq!(id.len(), 10);
        assert!(plausible_id(&id));
        assert_ne!(new_game_id().unwrap(), id);
        assert_eq!(new_token().unwrap().len(), 32);
        assert!(!plausible_id("../etc"));
        assert!(!plausible_id(""));
    }
}

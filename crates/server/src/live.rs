//! Games being played: one lock per game serialises its commands, every move
//! is stored before it is applied, and bots move on the server.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use carcassonne::record::{rules_from_json, Record, RecordMove, ReplayError, Replayer};
use carcassonne::{Game, Move, PlayerId, Setup};
use serde_json::{Map, Value};
use tokio::sync::watch;

use crate::bots::{self, BotLevel};
use crate::error::ApiError;
use crate::names::{clean_name, name_key};
use crate::store::{hash_token, Beat, Change, GameChanged, NewGame, Progress, Seat, Store, StoreError, BEAT_EVERY};

/// Server settings.
#[derive(Clone, Debug)]
pub struct Config {
    /// The least time a bot takes over a move, so that people can follow it.
    pub bot_delay: Duration,
    /// Search bots think only a few iterations (tests).
    pub quick_bots: bool,
    /// HTTP requests to `/api/` per client address: a steady rate and a
    /// burst. `None`: no limit.
    pub http_rate: Option<Rate>,
    /// Messages per websocket. `None`: no limit.
    pub ws_rate: Option<Rate>,
    /// How often websockets are pinged; one silent for three times this is
    /// closed (its seat goes offline).
    pub ws_ping: Duration,
    /// Connections open at once, in all (kept below the process's limit of
    /// open files, which the server raises as far as it may at start).
    pub max_connections: usize,
    /// Connections open at once from one client address.
    pub max_connections_per_ip: usize,
    /// How long a client may take to send a request's headers; a
    /// keep-alive connection idle for as long is closed too.
    pub header_timeout: Duration,
    /// How long a client may take to send a request's body.
    pub body_timeout: Duration,
    /// How long a stopping server waits for requests in flight (it exits
    /// within this plus a second, whatever clients do).
    pub shutdown_grace: Duration,
    /// Websockets open at once from one client address.
    pub max_sockets_per_ip: usize,
    /// Websockets open at once on one game (players and spectators).
    pub max_sockets_per_game: usize,
    /// Origins besides the server's own (`https://example.com`) whose pages
    /// may open websockets; a websocket from any other page is refused.
    pub allowed_origins: Vec<String>,
    /// Bot searches run at once (the others wait their turn), so that
    /// people's moves always find a core free.
    pub bot_workers: usize,
    /// Games one client address may create in an hour.
    pub max_new_games_per_hour_per_ip: usize,
    /// Unfinished games in play that one client address created (since the
    /// server started; a game that left memory, idle, no longer counts).
    pub max_active_games_per_ip: usize,
    /// A game nobody has looked at or played for this long, with no live
    /// connection and no bot thinking, leaves memory (and comes back from
    /// the storage when asked for).
    pub idle_after: Duration,
    /// An unfinished game without a move for this long is abandoned: it is
    /// deleted (checked a minute after start, then every hour). `None`:
    /// games never expire.
    pub expire_after: Option<Duration>,
    /// Programs offered as bots (`serve --bot NAME=CMD`), besides the built-in levels.
    pub external_bots: Vec<bots::ExternalBot>,
}

/// A rate limit: `per_second` on average, `burst` at once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rate {
    pub per_second: u32,
    pub burst: u32,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            bot_delay: Duration::from_millis(700),
            quick_bots: false,
            // A page load is about 20 requests; a person makes a few a second.
            http_rate: Some(Rate { per_second: 50, burst: 200 }),
            ws_rate: Some(Rate { per_second: 20, burst: 60 }),
            ws_ping: Duration::from_secs(15),
            max_connections: 4096,
            max_connections_per_ip: 64,
            header_timeout: Duration::from_secs(10),
            body_timeout: Duration::from_secs(10),
            shutdown_grace: Duration::from_secs(5),
            max_sockets_per_ip: 32,
            max_sockets_per_game: 256,
            allowed_origins: Vec::new(),
            bot_workers: std::thread::available_parallelism().map_or(1, |n| n.get().saturating_sub(1).max(1)),
            max_new_games_per_hour_per_ip: 60,
            max_active_games_per_ip: 20,
            idle_after: Duration::from_secs(15 * 60),
            expire_after: Some(Duration::from_secs(30 * 24 * 3600)),
            external_bots: Vec::new(),
        }
    }
}

impl Config {
    /// The defaults, with `CARCASSONNE_BOT_DELAY_MS`,
    /// `CARCASSONNE_RATE_LIMIT` (HTTP requests per second per address, or
    /// `off`), `CARCASSONNE_HEADER_TIMEOUT_MS` and
    /// `CARCASSONNE_BODY_TIMEOUT_MS` read from the environment.
    pub fn from_env() -> Config {
        let mut c = Config::default();
        let ms = |name: &str| std::env::var(name).ok().and_then(|v| v.trim().parse::<u64>().ok());
        if let Some(ms) = ms("CARCASSONNE_BOT_DELAY_MS") {
            c.bot_delay = Duration::from_millis(ms.min(60_000));
        }
        if let Some(ms) = ms("CARCASSONNE_HEADER_TIMEOUT_MS").filter(|&m| m > 0) {
            c.header_timeout = Duration::from_millis(ms.min(600_000));
        }
        if let Some(ms) = ms("CARCASSONNE_BODY_TIMEOUT_MS").filter(|&m| m > 0) {
            c.body_timeout = Duration::from_millis(ms.min(600_000));
        }
        if let Ok(v) = std::env::var("CARCASSONNE_RATE_LIMIT") {
            let v = v.trim();
            if v == "off" || v == "0" {
                c.http_rate = None;
                c.ws_rate = None;
            } else if let Ok(n) = v.parse::<u32>() {
                c.http_rate = Some(Rate { per_second: n, burst: n.saturating_mul(4) });
            }
        }
        c
    }

    /// Settings for tests: bots move at once and think briefly, no limits.
    pub fn quick() -> Config {
        Config { bot_delay: Duration::ZERO, quick_bots: true, ..Config::unlimited() }
    }

    /// The defaults without rate limits, quotas, caps on connections and
    /// sockets, or expiry (load tests, and tests of other things).
    pub fn unlimited() -> Config {
        Config {
            http_rate: None,
            ws_rate: None,
            max_connections: usize::MAX,
            max_connections_per_ip: usize::MAX,
            max_sockets_per_ip: usize::MAX,
            max_sockets_per_game: usize::MAX,
            max_new_games_per_hour_per_ip: usize::MAX,
            max_active_games_per_ip: usize::MAX,
            expire_after: None,
            ..Config::default()
        }
    }
}

/// One game in play.
pub struct Live {
    pub id: String,
    table: tokio::sync::Mutex<Table>,
    /// Bumped on every change (a move, a bot starting to think): websockets
    /// watch it and send each viewer a fresh state.
    changes: watch::Sender<u64>,
    /// Websockets open on this game.
    sockets: std::sync::atomic::AtomicUsize,
    /// When the game was last asked for, played or watched (Unix ms).
    touched: std::sync::atomic::AtomicI64,
    /// What its websockets were last sent, shared between them (`wire`).
    views: Mutex<crate::wire::Views>,
}

/// A websocket's place on a game; dropping it frees the place.
pub struct SocketPlace {
    live: Arc<Live>,
}

impl Drop for SocketPlace {
    fn drop(&mut self) {
        self.live.sockets.fetch_sub(1, std::sync::atomic::Ordering::Relaxed);
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
    remote_online: HashMap<String, Vec<u32>>,
    /// A bot choosing a move on another server: (server, seat, version).
    remote_thinking: Option<(String, PlayerId, u64)>,
    bots_running: bool,
    /// The last word for the players about a bot (a program replaced by the
    /// built-in bot), with the version it was said at.
    pub notice: Option<(u64, String)>,
    /// The id and rules its views share, made on first use.
    pub(crate) fixed: crate::state::FixedCell,
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
    fn forget_server(&mut self, server: &str) -> bool {
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
    fn bot_to_move(&self) -> Option<(PlayerId, BotLevel)> {
        let p = self.game.to_move()?;
        self.seats.get(p.index())?.bot_level().map(|l| (p, l))
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

    /// The views of this game its websockets share.
    pub(crate) fn views(&self) -> std::sync::MutexGuard<'_, crate::wire::Views> {
        self.views.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub fn subscribe(&self) -> watch::Receiver<u64> {
        self.changes.subscribe()
    }

    /// A place for one more websocket on this game, if it holds fewer than `max`.
    pub fn take_socket_place(self: &Arc<Self>, max: usize) -> Option<SocketPlace> {
        use std::sync::atomic::Ordering;
        self.sockets
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |n| (n < max).then_some(n + 1))
            .ok()
            .map(|_| SocketPlace { live: Arc::clone(self) })
    }

    fn changed(&self) {
        self.touch();
        self.changes.send_modify(|v| *v = v.wrapping_add(1));
    }

    fn touch(&self) {
        self.touched.store(now_ms(), std::sync::atomic::Ordering::Relaxed);
    }

    /// Whether nothing holds this game in memory: no live connection, no
    /// bot driving it, nobody for `idle` (and its table not in use now).
    fn idle(&self, idle: Duration) -> bool {
        use std::sync::atomic::Ordering;
        let quiet = now_ms() - self.touched.load(Ordering::Relaxed) >= idle.as_millis() as i64;
        quiet
            && self.sockets.load(Ordering::Relaxed) == 0
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

    async fn publish_presence(&self, store: &Arc<dyn Store>, online: Vec<u32>) {
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

const HOUR: Duration = Duration::from_secs(3600);

/// Names bots get when the form leaves them blank.
const BOT_NAMES: [&str; 6] = ["Aldric", "Beatrix", "Cedric", "Isolde", "Godfrey", "Matilda"];

/// The server's shared state: the store, the games in play, the settings.
#[derive(Clone)]
pub struct AppState {
    inner: Arc<Inner>,
}

struct Inner {
    store: Arc<dyn Store>,
    games: Mutex<HashMap<String, Arc<Live>>>,
    config: Config,
    connections: Arc<crate::listen::Connections>,
    /// Becomes true when the server begins to stop: websockets close.
    stopping: watch::Sender<bool>,
    /// One permit per bot search that may run at once.
    bot_permits: Arc<tokio::sync::Semaphore>,
    /// Reviews of finished games, made on the bots' workers.
    reviews: Arc<crate::review::Reviews>,
    /// Per client address: when it created games in the last hour, and the
    /// unfinished games it created.
    quotas: Mutex<HashMap<std::net::IpAddr, Quota>>,
    /// Bot searches started on this server (each bot move is thought about
    /// by one server only).
    bot_thoughts: std::sync::atomic::AtomicU64,
    /// This server has left the storage's servers (it is stopping).
    left: std::sync::atomic::AtomicBool,
    /// Games whose buffers a move being checked may reuse (a copy of a game
    /// allocates its board; a copy into a spare one does not).
    spare_games: Mutex<Vec<Game>>,
}

/// The most spare games kept.
const SPARE_GAMES: usize = 64;

#[derive(Default)]
struct Quota {
    created: std::collections::VecDeque<Instant>,
    /// Games in play it created (one that left memory, idle, no longer counts).
    active: Vec<std::sync::Weak<Live>>,
}

pub fn now_ms() -> i64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_millis() as i64).unwrap_or(0)
}

/// `n` random bytes from the operating system. Without them no token can
/// be trusted, so the request fails rather than fall back on the clock.
fn random_bytes<const N: usize>() -> Result<[u8; N], ApiError> {
    let mut buf = [0u8; N];
    getrandom::fill(&mut buf)
        .map_err(|e| ApiError::Storage(format!("no randomness from the operating system: {e}")))?;
    Ok(buf)
}

/// A game id: 10 characters that are easy to read aloud.
fn new_game_id() -> Result<String, ApiError> {
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
    /// The server's state. Inside a tokio runtime, it also starts following
    /// the storage's changes made by other servers (if it reports any).
    pub fn new(store: Arc<dyn Store>, config: Config) -> AppState {
        let connections = Arc::new(crate::listen::Connections::new(&config));
        let inner = Inner {
            store,
            games: Mutex::new(HashMap::new()),
            connections,
            stopping: watch::channel(false).0,
            bot_permits: Arc::new(tokio::sync::Semaphore::new(config.bot_workers.max(1))),
            reviews: Arc::new(crate::review::Reviews::new(config.quick_bots)),
            quotas: Mutex::default(),
            bot_thoughts: Default::default(),
            left: Default::default(),
            spare_games: Mutex::default(),
            config,
        };
        let app = AppState { inner: Arc::new(inner) };
        if tokio::runtime::Handle::try_current().is_ok() {
            app.follow_changes();
            app.beat_now_and_then();
            app.sweep_idle_games();
            app.expire_now_and_then();
        }
        app
    }

    pub fn config(&self) -> &Config {
        &self.inner.config
    }

    pub fn store(&self) -> &Arc<dyn Store> {
        &self.inner.store
    }

    /// The open connections and their caps.
    pub fn connections(&self) -> &Arc<crate::listen::Connections> {
        &self.inner.connections
    }

    /// Games held in memory now.
    pub fn games_in_memory(&self) -> usize {
        self.games().len()
    }

    /// The reviews of finished games, and the workers they run on.
    pub fn reviews(&self) -> (&Arc<crate::review::Reviews>, Arc<tokio::sync::Semaphore>) {
        (&self.inner.reviews, Arc::clone(&self.inner.bot_permits))
    }

    /// Bot searches started by this server since it started.
    pub fn bot_thoughts(&self) -> u64 {
        self.inner.bot_thoughts.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Bot searches running now (at most `Config::bot_workers`).
    pub fn bots_searching(&self) -> usize {
        self.inner.config.bot_workers.max(1) - self.inner.bot_permits.available_permits()
    }

    /// Lets idle games leave memory, now and then (`Config::idle_after`).
    fn sweep_idle_games(&self) {
        let weak = Arc::downgrade(&self.inner);
        let idle = self.inner.config.idle_after;
        let every = (idle / 4).clamp(Duration::from_millis(20), Duration::from_secs(60));
        tokio::spawn(async move {
            loop {
                tokio::time::sleep(every).await;
                let Some(inner) = weak.upgrade() else { return };
                let mut games = inner.games.lock().unwrap_or_else(|e| e.into_inner());
                let before = games.len();
                games.retain(|_, live| !live.idle(idle));
                let left = before - games.len();
                drop(games);
                if left > 0 {
                    tracing::debug!(games = left, "idle games left memory");
                }
            }
        });
    }

    /// Deletes the abandoned games (`Config::expire_after`): a minute after
    /// start, then every hour.
    fn expire_now_and_then(&self) {
        if self.inner.config.expire_after.is_none() {
            return;
        }
        let weak = Arc::downgrade(&self.inner);
        tokio::spawn(async move {
            // A minute after start (not amid it), then every hour.
            tokio::time::sleep(Duration::from_secs(60)).await;
            loop {
                let Some(inner) = weak.upgrade() else { return };
                if let Err(e) = (AppState { inner }).expire_abandoned().await {
                    tracing::error!(error = %e, "cannot expire abandoned games");
                }
                tokio::time::sleep(HOUR).await;
            }
        });
    }

    /// Deletes the unfinished games without a move for `Config::expire_after`
    /// now, and lets them leave memory; returns how many.
    ///
    /// # Errors
    /// The storage fails.
    pub async fn expire_abandoned(&self) -> Result<usize, ApiError> {
        let Some(after) = self.inner.config.expire_after else { return Ok(0) };
        let before = now_ms() - after.as_millis().min(i64::MAX as u128) as i64;
        let ids = self.store().expire(before).await?;
        let mut games = self.games();
        for id in &ids {
            games.remove(id);
        }
        drop(games);
        if !ids.is_empty() {
            tracing::info!(games = ids.len(), "abandoned games expired");
        }
        Ok(ids.len())
    }

    /// Counts a new game against `ip`'s quotas, or says which is used up.
    fn take_quota(&self, ip: Option<std::net::IpAddr>) -> Result<(), ApiError> {
        let Some(ip) = ip else { return Ok(()) };
        let c = &self.inner.config;
        let mut quotas = self.inner.quotas.lock().unwrap_or_else(|e| e.into_inner());
        if quotas.len() > 10_000 {
            quotas.retain(|_, q| !q.active.is_empty() || q.created.back().is_some_and(|t| t.elapsed() < HOUR));
        }
        let q = quotas.entry(ip).or_default();
        while q.created.front().is_some_and(|t| t.elapsed() >= HOUR) {
            q.created.pop_front();
        }
        q.active.retain(|live| {
            live.upgrade().is_some_and(|live| live.table.try_lock().map_or(true, |t| !t.game.is_over()))
        });
        if q.created.len() >= c.max_new_games_per_hour_per_ip {
            return Err(ApiError::Quota(format!(
                "{} new games an hour from one address",
                c.max_new_games_per_hour_per_ip
            )));
        }
        if q.active.len() >= c.max_active_games_per_ip {
            return Err(ApiError::Quota(format!(
                "{} unfinished games from one address: finish one first",
                c.max_active_games_per_ip
            )));
        }
        q.created.push_back(Instant::now());
        Ok(())
    }

    fn count_active(&self, ip: Option<std::net::IpAddr>, live: &Arc<Live>) {
        if let Some(ip) = ip {
            let mut quotas = self.inner.quotas.lock().unwrap_or_else(|e| e.into_inner());
            quotas.entry(ip).or_default().active.push(Arc::downgrade(live));
        }
    }

    /// Tells every websocket that the server is stopping.
    pub fn begin_shutdown(&self) {
        self.inner.stopping.send_replace(true);
    }

    /// Becomes true when the server begins to stop.
    pub fn stopping(&self) -> watch::Receiver<bool> {
        self.inner.stopping.subscribe()
    }

    fn games(&self) -> std::sync::MutexGuard<'_, HashMap<String, Arc<Live>>> {
        self.inner.games.lock().unwrap_or_else(|e| e.into_inner())
    }

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
                    Seat::Human {
                        name: given[i].clone().unwrap_or_else(|| default_name(format!("Player {}", i + 1))),
                        token_hash,
                        remote,
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
        bots::check_rules(&seats, &rules, &self.inner.config.external_bots).map_err(ApiError::BadRequest)?;
        // The engine deals the deck for the rules (the river first, the
        // first player…) from a fresh seed.
        let setup = Setup::standard(rules, names.len(), u64::from_le_bytes(random_bytes::<8>()?));
        let live_seed = setup.live_seed;
        let game = Game::new(setup).map_err(|e| ApiError::BadRequest(e.to_string()))?;
        // Stored: the deck as dealt, and the live bag's seed, so that a
        // replay of the moves rebuilds this very game.
        let record = Record::from_game(&game, &names);
        self.take_quota(ip)?;
        let id = new_game_id()?;
        let created_at = now_ms();
        let new = NewGame { id: id.clone(), record, live_seed, seats: seats.clone(), created_at, public: req.public };
        self.store().create_game(&new).await?;
        tracing::info!(game = %id, players = names.len(), "game created");

        let live = Arc::new(Live {
            id: id.clone(),
            table: tokio::sync::Mutex::new(Table::new(game, seats, created_at, created_at)),
            changes: watch::channel(0).0,
            sockets: Default::default(),
            touched: now_ms().into(),
            views: Mutex::default(),
        });
        self.games().insert(id, Arc::clone(&live));
        self.count_active(ip, &live);
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
        // Who is here through the other servers.
        match self.store().presence(id).await {
            Ok(remote) => table.remote_online = remote.into_iter().collect(),
            Err(e) => tracing::warn!(game = %id, error = %e, "cannot ask who is on the other servers"),
        }
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
        if !viewer.holds(to_move) {
            return Err(ApiError::NotYourTurn);
        }
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
    async fn commit(&self, live: &Live, table: &mut Table, mv: Move) -> Result<(), ApiError> {
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
        let before = std::mem::replace(&mut table.game, next);
        self.spare(before);
        table.updated_at = at;
        live.changed();
        Ok(())
    }

    /// A copy of `game`, made in a spare game's buffers if there is one.
    fn copy_of(&self, game: &Game) -> Game {
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
    fn spare(&self, game: Game) {
        let mut spares = self.inner.spare_games.lock().unwrap_or_else(|e| e.into_inner());
        if spares.len() < SPARE_GAMES {
            spares.push(game);
        }
    }

    /// Plays the moves the storage holds beyond the table's (stored by
    /// another server sharing it), each checked by the engine.
    async fn catch_up(&self, live: &Live, table: &mut Table) -> Result<(), ApiError> {
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

    /// Follows the storage's news from the other servers sharing it (a
    /// PostgreSQL database): a game in play here catches up with a move
    /// stored elsewhere, and learns who is online and which bot is thinking
    /// there; its viewers are told, whichever news it was.
    fn follow_changes(&self) {
        let Some(mut rx) = self.store().changes() else { return };
        let app = self.clone();
        tokio::spawn(async move {
            while let Some(change) = rx.recv().await {
                app.learn(change).await;
            }
        });
    }

    async fn learn(&self, change: Change) {
        let me = self.store().server().unwrap_or_default();
        match change {
            Change::Moved(GameChanged { id, moves }) => {
                let Some(live) = self.in_memory(&id) else { return };
                let mut t = live.lock().await;
                if (t.game.moves_played() as usize) < moves {
                    if let Err(e) = self.catch_up(&live, &mut t).await {
                        tracing::error!(game = %id, error = %e, "cannot catch up with the storage");
                    }
                }
                drop(t);
                self.kick_bots(&live);
            }
            Change::Presence { game, server, online } if server != me => {
                let Some(live) = self.in_memory(&game) else { return };
                let mut t = live.lock().await;
                if online.iter().all(|n| *n == 0) {
                    t.remote_online.remove(&server);
                } else {
                    t.remote_online.insert(server, online);
                }
                drop(t);
                live.changed();
            }
            Change::Thinking { game, server, version, seat } if server != me => {
                let Some(live) = self.in_memory(&game) else { return };
                let mut t = live.lock().await;
                match seat {
                    Some(seat) => t.remote_thinking = Some((server, PlayerId(seat), version)),
                    None => {
                        t.remote_thinking.take_if(|t| t.0 == server);
                    }
                }
                drop(t);
                live.changed();
            }
            Change::Gone { server } if server != me => self.forget_server(&server).await,
            Change::Presence { .. } | Change::Thinking { .. } | Change::Gone { .. } => {}
        }
    }

    fn in_memory(&self, id: &str) -> Option<Arc<Live>> {
        self.games().get(id).cloned()
    }

    /// Server `server` stopped: its players are offline and its bots no
    /// longer thinking, on every game here.
    async fn forget_server(&self, server: &str) {
        let games: Vec<Arc<Live>> = self.games().values().cloned().collect();
        for live in games {
            if live.lock().await.forget_server(server) {
                live.changed();
            }
        }
    }

    /// Says this server is alive a few times a second, while it shares its
    /// storage with others: learns which servers died (their players go
    /// offline here) and drives the bots their deaths orphaned.
    fn beat_now_and_then(&self) {
        if self.store().server().is_none() {
            return;
        }
        let weak = Arc::downgrade(&self.inner);
        tokio::spawn(async move {
            let mut every = tokio::time::interval(BEAT_EVERY);
            every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            let mut servers: Vec<String> = Vec::new();
            let mut failing = false;
            loop {
                every.tick().await;
                let Some(inner) = weak.upgrade() else { return };
                let app = AppState { inner };
                if app.inner.left.load(std::sync::atomic::Ordering::Relaxed) {
                    return;
                }
                match app.store().beat().await {
                    Ok(beat) => {
                        if std::mem::take(&mut failing) {
                            tracing::info!("heartbeats reach the database again");
                        }
                        app.after_beat(beat, &mut servers).await;
                    }
                    Err(e) => {
                        if !std::mem::replace(&mut failing, true) {
                            tracing::error!(error = %e, "cannot say this server is alive");
                        }
                    }
                }
            }
        });
    }

    async fn after_beat(&self, beat: Beat, servers: &mut Vec<String>) {
        for gone in servers.iter().filter(|s| !beat.servers.contains(s)) {
            self.forget_server(gone).await;
        }
        *servers = beat.servers;
        if beat.rejoined {
            // Taken for dead meanwhile: who is here through this server was forgotten.
            let games: Vec<Arc<Live>> = self.games().values().cloned().collect();
            for live in games {
                let online = live.lock().await.online.clone();
                if online.iter().any(|n| *n > 0) {
                    live.publish_presence(self.store(), online).await;
                }
            }
        }
        for id in beat.claimed {
            match self.game(&id).await {
                Ok(live) => {
                    tracing::info!(game = %id, "driving the bots of a game whose server stopped");
                    self.kick_bots(&live);
                }
                Err(e) => {
                    tracing::error!(game = %id, error = %e, "cannot drive the bots of a game");
                    let _ = self.store().release_bots(&id).await;
                }
            }
        }
    }

    /// This server stops: it stops beating, and the other servers sharing
    /// the storage are told at once (its bots go to them, its players offline).
    pub async fn leave(&self) {
        self.inner.left.store(true, std::sync::atomic::Ordering::Relaxed);
        if self.store().server().is_none() {
            return;
        }
        match tokio::time::timeout(Duration::from_secs(2), self.store().leave()).await {
            Ok(Ok(())) => {}
            Ok(Err(e)) => tracing::warn!(error = %e, "cannot tell the other servers this one stops"),
            Err(_) => tracing::warn!("the database did not hear that this server stops"),
        }
    }

    /// Starts the bots of every unfinished game whose turn is a bot's (a
    /// server that stopped mid-game picks up where it left off), with a
    /// storage that only this server uses. Returns how many games were
    /// resumed.
    ///
    /// # Errors
    /// The storage fails.
    pub async fn resume_bots(&self) -> Result<usize, ApiError> {
        if self.store().server().is_some() {
            // Servers sharing the storage claim the bots nobody drives at
            // their heartbeats, a few at a time (`Store::beat`).
            return Ok(0);
        }
        let games = self.store().in_play().await?;
        let mut resumed = 0;
        for g in games {
            let bot_turn =
                g.progress.to_move.and_then(|p| g.seats.get(p as usize)).is_some_and(|s| s.bot_level().is_some());
            if bot_turn {
                match self.game(&g.id).await {
                    Ok(_) => resumed += 1,
                    Err(e) => tracing::error!(game = %g.id, error = %e, "cannot resume the game"),
                }
            }
        }
        Ok(resumed)
    }

    /// Lets the bots play while it is their turn (one driver per game).
    pub fn kick_bots(&self, live: &Arc<Live>) {
        // Most moves leave a person to move: nothing to start then.
        if let Ok(t) = live.table.try_lock() {
            if t.bots_running || t.bot_to_move().is_none() {
                return;
            }
        }
        let app = self.clone();
        let live = Arc::clone(live);
        tokio::spawn(async move { app.drive_bots(live).await });
    }

    async fn drive_bots(self, live: Arc<Live>) {
        {
            let mut t = live.lock().await;
            if t.bots_running || t.bot_to_move().is_none() {
                return;
            }
            t.bots_running = true;
        }
        // One server drives a game's bots: the one holding its lease (with
        // a storage that only this server uses, this one).
        if !self.take_lease(&live).await {
            live.lock().await.bots_running = false;
            return;
        }
        loop {
            let next = {
                let mut t = live.lock().await;
                match t.bot_to_move() {
                    Some((seat, level)) => Ok((self.copy_of(&t.game), level, seat, t.version(), t.names())),
                    None => Err(t.thinking.take().is_some()),
                }
            };
            let (game, level, seat, version, names) = match next {
                Ok(next) => next,
                Err(stopped) => {
                    if stopped {
                        live.changed();
                    }
                    // The lease goes while this driver still counts as
                    // running: no second driver starts here meanwhile.
                    self.release_bots(&live).await;
                    let mut t = live.lock().await;
                    if t.bot_to_move().is_none() {
                        t.bots_running = false;
                        return;
                    }
                    drop(t);
                    // A move came as the lease went: take it again (unless
                    // another server took it first).
                    if self.take_lease(&live).await {
                        continue;
                    }
                    live.lock().await.bots_running = false;
                    return;
                }
            };
            self.inner.bot_thoughts.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let started = Instant::now();
            let seed = bot_seed(&live.id, version);
            let quick = self.inner.config.quick_bots;
            let (programs, id) = (self.inner.config.external_bots.clone(), live.id.clone());
            let permits = Arc::clone(&self.inner.bot_permits);
            let delay = self.inner.config.bot_delay;
            let app = self.clone();
            let thought = async move {
                let chosen = if level == BotLevel::Random {
                    // A random move takes microseconds: no worker needed.
                    let chosen = bots::choose_bot_move(&level, &game, seed, quick, &programs, &id, &names);
                    app.spare(game);
                    Ok(chosen)
                } else {
                    // Bots take turns at the workers: a person's move never
                    // waits for a core behind a crowd of searches.
                    let permit = permits.acquire_owned().await;
                    tokio::task::spawn_blocking(move || {
                        let _permit = permit;
                        bots::choose_bot_move(&level, &game, seed, quick, &programs, &id, &names)
                    })
                    .await
                };
                let wait = delay.saturating_sub(started.elapsed());
                if !wait.is_zero() {
                    tokio::time::sleep(wait).await;
                }
                chosen
            };
            tokio::pin!(thought);
            // A bot that answers within a frame is not shown thinking (one
            // message less for every viewer); one that takes longer is, on
            // every server.
            let (chosen, shown) = tokio::select! {
                chosen = &mut thought => (chosen, false),
                () = tokio::time::sleep(SHOW_THINKING_AFTER) => {
                    let mut t = live.lock().await;
                    if t.version() == version {
                        t.thinking = Some(seat);
                        live.changed();
                    }
                    drop(t);
                    self.publish_thinking(&live, version, Some(seat)).await;
                    (thought.await, true)
                }
            };

            let mut t = live.lock().await;
            t.thinking = None;
            let mut moved = false;
            let chosen = chosen.map(|c| {
                if let Some(n) = c.notice {
                    t.notice = Some((version, n));
                }
                c.mv
            });
            let result = match chosen {
                Ok(Some(mv)) if t.version() == version => match self.commit(&live, &mut t, mv).await {
                    Ok(()) => {
                        moved = true;
                        Ok(())
                    }
                    // Another server moved for the bot first: think again.
                    Err(ApiError::StaleVersion { .. }) => Ok(()),
                    Err(e) => Err(e),
                },
                Ok(Some(_)) => Ok(()), // the game moved meanwhile: think again
                Ok(None) => Err(ApiError::GameOver),
                Err(e) => Err(ApiError::Storage(format!("bot task failed: {e}"))),
            };
            if let Err(e) = result {
                tracing::error!(game = %live.id, seat = seat.0, error = %e, "the bot could not move");
                drop(t);
                live.changed();
                self.publish_thinking(&live, version, None).await;
                self.release_bots(&live).await;
                live.lock().await.bots_running = false;
                return;
            }
            drop(t);
            if !moved && shown {
                // No move came of this thought (the game moved meanwhile,
                // through the change feed or a lost race): viewers were last
                // shown the bot thinking, so they are told it stopped.
                live.changed();
                self.publish_thinking(&live, version, None).await;
            }
        }
    }

    /// Tells the other servers that a bot of this one is choosing move
    /// `version` (or stopped without moving: `seat: None`).
    async fn publish_thinking(&self, live: &Live, version: u64, seat: Option<PlayerId>) {
        let Some(server) = self.store().server() else { return };
        let change =
            Change::Thinking { game: live.id.clone(), server: server.to_string(), version, seat: seat.map(|p| p.0) };
        if let Err(e) = self.store().publish(&change).await {
            tracing::warn!(game = %live.id, error = %e, "cannot tell the other servers a bot is thinking");
        }
    }

    /// Whether this server holds the lease on `live`'s bots (taking it if free).
    async fn take_lease(&self, live: &Live) -> bool {
        match self.store().claim_bots(&live.id).await {
            Ok(held) => held,
            Err(e) => {
                tracing::error!(game = %live.id, error = %e, "cannot take the lease on the game's bots");
                false
            }
        }
    }

    async fn release_bots(&self, live: &Live) {
        if let Err(e) = self.store().release_bots(&live.id).await {
            tracing::warn!(game = %live.id, error = %e, "cannot give up the lease on the game's bots");
        }
    }
}

/// How long a bot may take before its viewers are shown it thinking.
const SHOW_THINKING_AFTER: Duration = Duration::from_millis(16);

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

/// A bot's random seed for one move of one game.
fn bot_seed(id: &str, version: u64) -> u64 {
    // FNV-1a over the id, then the move number.
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in id.bytes().chain(version.to_le_bytes()) {
        h ^= b as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_and_tokens_look_right() {
        let id = new_game_id().unwrap();
        assert_eq!(id.len(), 10);
        assert!(plausible_id(&id));
        assert_ne!(new_game_id().unwrap(), id);
        assert_eq!(new_token().unwrap().len(), 32);
        assert!(!plausible_id("../etc"));
        assert!(!plausible_id(""));
    }
}

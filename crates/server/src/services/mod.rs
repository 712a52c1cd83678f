//! The services: what the server does, whoever asks (the HTTP handlers in
//! `routes`, the websocket sessions). Each part does one job:
//!
//! * `games`: the games in memory, one lock per game; creating, loading,
//!   playing (checked, stored, then applied);
//! * `driver`: the bots of games in play, on the bots' worker pool;
//! * `cluster`: servers sharing a PostgreSQL database (changes, heartbeats,
//!   the bot leases, who is here);
//! * `quotas`: new games per client address;
//! * `sweeps`: idle games leaving memory, abandoned games expiring;
//! * `review`: reviews of finished games, on their own low-priority pool;
//! * `accounts`: accounts, passwords and sessions, sign-in throttles;
//! * `hints`: the search's advice to the seat to move, run like a bot's move.
//! * `ratings`: rated games, profiles, the leaderboard, seats linked to accounts.
//! * `passkeys`: passkeys (WebAuthn) to sign in to accounts.
//! * `chat`: a game's chat (players' and spectators'), its rooms and limits;
//! * `rematch`: the rematch of a finished game, once every player accepts.
//! * `push`: Web Push notifications (the VAPID key, subscriptions, sending).
//! * `clock`: time controls, each seat's time, expiry and bots standing in.
//! * `lobby`: the lobby's tables (kept in the store);
//! * `play_now`: "Play now", pairing people waiting (kept in the store).
//!
//! Services use the store and the engine, never a handler or the connection
//! layer (docs/architecture.md; `tests::services_import_no_handler`).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use tokio::sync::watch;

use crate::config::Config;
use crate::store::Store;

pub mod accounts;
pub mod chat;
pub mod clock;
pub mod cluster;
pub mod driver;
pub mod games;
pub mod hints;
pub mod lobby;
pub mod passkeys;
pub mod play_now;
pub mod push;
pub mod quotas;
pub mod ratings;
pub mod rematch;
pub mod review;
pub mod sweeps;

use carcassonne::Game;

use games::Live;

/// The server's shared state: the store, the games in play, the settings.
#[derive(Clone)]
pub struct AppState {
    inner: Arc<Inner>,
}

struct Inner {
    store: Store,
    games: Mutex<HashMap<String, Arc<Live>>>,
    config: Config,
    /// Becomes true when the server begins to stop: websockets close.
    stopping: watch::Sender<bool>,
    /// One permit per bot search that may run at once.
    bot_permits: Arc<tokio::sync::Semaphore>,
    /// Bot searches waiting or running: reviews wait while there are any.
    bot_gate: Arc<review::BotGate>,
    /// Reviews of finished games, on their own threads.
    reviews: Arc<review::Reviews>,
    /// New games per client address.
    quotas: quotas::Quotas,
    /// Bot searches started on this server (each bot move is thought about
    /// by one server only).
    bot_thoughts: std::sync::atomic::AtomicU64,
    /// This server has left the storage's servers (it is stopping).
    left: std::sync::atomic::AtomicBool,
    /// Games whose buffers a move being checked may reuse (a copy of a game
    /// allocates its board; a copy into a spare one does not).
    spare_games: Mutex<Vec<Game>>,
    /// Sign-in throttles and password hashing.
    accounts: accounts::Accounts,
    /// Hints being worked out, and their rate per address.
    hints: Arc<hints::Hints>,
    /// Passkeys: the relying party, ceremonies started per address.
    passkeys: passkeys::Passkeys,
    /// Chat rooms of the games with sockets here, and chat rate limits.
    chat: chat::Rooms,
    /// Web Push: the VAPID key and the queue of notifications.
    push: push::Push,
    /// The server's clock (tests move it on).
    now: clock::Now,
    /// The lobby's list as this server last read it.
    lobby: lobby::Lobby,
}

impl AppState {
    /// The server's state. Inside a tokio runtime, it also starts following
    /// the storage's changes made by other servers (if it reports any).
    pub fn new(store: Store, config: Config) -> AppState {
        let bot_gate = Arc::new(review::BotGate::default());
        let inner = Inner {
            store,
            games: Mutex::new(HashMap::new()),
            stopping: watch::channel(false).0,
            bot_permits: Arc::new(tokio::sync::Semaphore::new(config.bot_workers.max(1))),
            reviews: Arc::new(review::Reviews::new(config.quick_bots, &config, Arc::clone(&bot_gate))),
            bot_gate,
            quotas: quotas::Quotas::default(),
            bot_thoughts: Default::default(),
            left: Default::default(),
            spare_games: Mutex::default(),
            accounts: accounts::Accounts::default(),
            hints: Arc::new(hints::Hints::new(config.quick_bots, config.bot_workers)),
            passkeys: passkeys::Passkeys::new(&config),
            chat: chat::Rooms::default(),
            push: push::Push::default(),
            now: clock::Now::default(),
            lobby: lobby::Lobby::default(),
            config,
        };
        let app = AppState { inner: Arc::new(inner) };
        if tokio::runtime::Handle::try_current().is_ok() {
            app.follow_changes();
            app.beat_now_and_then();
            app.sweep_idle_games();
            app.expire_now_and_then();
            app.settle_now_and_then();
            app.start_push();
            app.sweep_clocks_now_and_then();
            app.follow_lobby();
        }
        app
    }

    pub fn config(&self) -> &Config {
        &self.inner.config
    }

    pub fn store(&self) -> &Store {
        &self.inner.store
    }

    /// Games held in memory now.
    pub fn games_in_memory(&self) -> usize {
        self.games().len()
    }

    /// Bot searches started by this server since it started.
    pub fn bot_thoughts(&self) -> u64 {
        self.inner.bot_thoughts.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Bot searches running now (at most `Config::bot_workers`).
    pub fn bots_searching(&self) -> usize {
        self.inner.config.bot_workers.max(1) - self.inner.bot_permits.available_permits()
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
}

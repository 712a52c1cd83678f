//! The services: what the server does, whoever asks (the HTTP handlers in
//! `routes`, the websocket sessions). One service per domain, as lila's
//! modules each have their own `Env`: a struct holding only the
//! repositories and the other services it needs, given in its constructor.
//! [`AppState`] only puts them together:
//!
//! | service | what | uses |
//! |---|---|---|
//! | [`Games`] (`games/`) | the games in memory, one lock per game: create, load, play (checked, stored, applied); their clocks | games, clocks, ratings, chat and cluster repositories; quotas |
//! | [`Bots`] (`bots.rs`) | the bots of games in play, on the bots' worker pool; one server per game (the lease) | games, histories |
//! | [`Watch`] (`watchlist.rs`) | the public games in play, the highest rated first, read at most every 5 s | games and ratings repositories |
//! | [`Histories`] (`history.rs`) | who has a history (an account's age and rated games): places and bot time kept for them | accounts and ratings repositories |
//! | [`Clocks`] (`clocks.rs`) | clocks that run out, seats handed to bots and taken back, "your turn" | games, bots |
//! | [`Ratings`] (`ratings.rs`) | rated results, profiles, leaderboard, seats linked to accounts | games |
//! | [`Push`] (`push/`) | Web Push: the VAPID key, subscriptions, notifications sent in the background | games, histories |
//! | [`Chat`] (`chat.rs`) | a game's chat (players' and spectators'), its rooms and limits; what follows a game | moderation |
//! | [`Rematches`] (`rematch.rs`) | the rematch of a finished game, once every player accepts | games, chat, quotas |
//! | [`Lobby`], [`PlayNow`] (`lobby/`) | the lobby's tables; "Play now", pairing people waiting | games, ratings, quotas |
//! | [`Accounts`] (`accounts.rs`) | accounts (argon2id), sessions, sign-in throttles | histories |
//! | [`Moderation`] (`moderation.rs`) | blocks, reports, the operator's mutes, renames and closures | — |
//! | [`Passkeys`] (`passkeys.rs`) | passkeys (WebAuthn) to sign in | accounts, histories |
//! | [`Reviews`] (`review/`) | reviews of finished games, on their own low-priority pool | games, the bots' gate |
//! | [`Hints`] (`hints.rs`) | the search's advice to the seat to move, run like a bot's move | games, the bots' workers |
//! | [`Takebacks`] (`takebacks.rs`) | a casual game's takeback: asked, answered, granted (the moves gone, the game rebuilt) | games, bots |
//! | [`Cluster`] (`cluster.rs`) | servers sharing PostgreSQL: their news, heartbeats, who is here | games, bots, clocks, chat, lobby, takebacks |
//! | [`Sweeps`] (`sweeps.rs`) | idle games leave memory, abandoned games expire | games |
//!
//! Below them: `quotas` (new games per client address), `text` (what people
//! write, cleaned) and `ids` (random ids and tokens). What a move sets off in other services (bots, the next
//! player told, a result applied) goes through [`GameEvents`], wired here,
//! so that the games know none of them. Services use the store and the
//! engine, never a handler or the connection layer (docs/architecture.md;
//! `tests/layers.rs`).

use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Weak};

use tokio::sync::watch;

use crate::config::Config;
use crate::store::Store;

pub mod accounts;
pub mod bots;
pub mod chat;
pub mod clocks;
pub mod cluster;
pub mod endings;
pub mod games;
pub mod hints;
pub mod history;
pub mod ids;
pub mod lobby;
pub mod moderation;
pub mod passkeys;
pub mod push;
pub mod quotas;
pub mod ratings;
pub mod rematch;
pub mod review;
pub mod sweeps;
pub mod takebacks;
pub mod text;
pub mod watchlist;

pub use self::accounts::Accounts;
pub use self::bots::Bots;
pub use self::chat::Chat;
pub use self::clocks::Clocks;
pub use self::cluster::Cluster;
pub use self::games::{GameEvents, Games};
pub use self::hints::Hints;
pub use self::history::Histories;
pub use self::lobby::play_now::PlayNow;
pub use self::lobby::Lobby;
pub use self::moderation::Moderation;
pub use self::passkeys::Passkeys;
pub use self::push::Push;
pub use self::ratings::Ratings;
pub use self::rematch::Rematches;
pub use self::review::Reviews;
pub use self::sweeps::Sweeps;
pub use self::takebacks::Takebacks;
pub use self::watchlist::Watch;

use self::games::live::{Live, Table};

/// The server: its settings, its store, and a service per domain. Cheap to
/// clone; `app.lobby.open(…)`, `app.accounts.sign_in(…)`.
#[derive(Clone)]
pub struct AppState(Arc<Services>);

/// The services, put together once.
pub struct Services {
    pub config: Config,
    pub store: Store,
    pub games: Arc<Games>,
    pub bots: Arc<Bots>,
    pub clocks: Arc<Clocks>,
    pub takebacks: Arc<Takebacks>,
    pub ratings: Arc<Ratings>,
    pub push: Arc<Push>,
    pub chat: Arc<Chat>,
    pub rematches: Rematches,
    pub lobby: Arc<Lobby>,
    pub play_now: Arc<PlayNow>,
    pub accounts: Arc<Accounts>,
    pub moderation: Arc<Moderation>,
    pub passkeys: Passkeys,
    pub reviews: Reviews,
    pub hints: Arc<Hints>,
    pub cluster: Arc<Cluster>,
    pub sweeps: Arc<Sweeps>,
    pub histories: Arc<Histories>,
    pub watch: Watch,
    /// Becomes true when the server begins to stop: websockets close.
    stopping: watch::Sender<bool>,
}

impl std::ops::Deref for AppState {
    type Target = Services;

    fn deref(&self) -> &Services {
        &self.0
    }
}

impl AppState {
    /// The server's state. Inside a tokio runtime, it also starts its
    /// background work: following the storage's changes made by other
    /// servers (if it reports any), heartbeats, sweeps, the clocks'
    /// sweeper, notifications, the lobby.
    pub fn new(store: Store, config: Config) -> AppState {
        let quotas = Arc::new(quotas::Quotas::new(&config));
        let workers = bots::Workers::new(config.bot_workers);
        let left = Arc::new(AtomicBool::new(false));
        let programs = config.external_bots.clone();
        let games = Arc::new(Games::new(&store, programs.clone(), Arc::clone(&quotas), games::clock::Now::default()));
        let histories = Arc::new(Histories::new(&store, config.lobby.clone()));
        let bots = Bots::new(&store, Arc::clone(&games), Arc::clone(&histories), workers.clone(), &config);
        let clocks = Arc::new(Clocks::new(&store, Arc::clone(&games), Arc::clone(&bots), Arc::clone(&left)));
        let takebacks = Arc::new(Takebacks::new(&store, Arc::clone(&games), Arc::clone(&bots)));
        let ratings = Arc::new(Ratings::new(&store, Arc::clone(&games), &config));
        let push = Arc::new(Push::new(&store, Arc::clone(&games), Arc::clone(&histories), config.push.clone()));
        let moderation =
            Arc::new(Moderation::new(&store, Arc::clone(&histories), config.reports).with_operators(&config.operators));
        let chat = Arc::new(Chat::new(&store, Arc::clone(&moderation), config.chat_spectators));
        let rematches = Rematches::new(&store, Arc::clone(&games), Arc::clone(&chat), Arc::clone(&quotas));
        let lobby = Arc::new(Lobby::new(
            &store,
            Arc::clone(&games),
            Arc::clone(&ratings),
            Arc::clone(&quotas),
            programs.clone(),
            config.lobby.clone(),
        ));
        let play_now = Arc::new(PlayNow::new(
            &store,
            Arc::clone(&games),
            Arc::clone(&ratings),
            Arc::clone(&quotas),
            programs,
            config.lobby.clone(),
        ));
        let accounts = Arc::new(Accounts::new(&store, Arc::clone(&ratings), Arc::clone(&histories), &config));
        let passkeys = Passkeys::new(&store, Arc::clone(&accounts), Arc::clone(&histories), &config);
        let reviews =
            Reviews::new(&store, Arc::clone(&games), Arc::clone(&histories), &config, Arc::clone(&workers.gate));
        let hints = Arc::new(Hints::new(
            &store,
            Arc::clone(&games),
            Arc::clone(&histories),
            workers,
            config.quick_bots,
            config.bot_workers,
        ));
        let told = cluster::Told {
            games: Arc::clone(&games),
            bots: Arc::clone(&bots),
            clocks: Arc::clone(&clocks),
            takebacks: Arc::clone(&takebacks),
            chat: Arc::clone(&chat),
            lobby: Arc::clone(&lobby),
        };
        let cluster = Arc::new(Cluster::new(&store, told, left));
        let sweeps = Arc::new(Sweeps::new(&store, Arc::clone(&games), &config));
        let watch = Watch::new(&store);
        games.tell(Arc::new(Followers {
            bots: Arc::downgrade(&bots),
            push: Arc::downgrade(&push),
            ratings: Arc::downgrade(&ratings),
        }));
        let app = AppState(Arc::new(Services {
            config,
            store,
            games,
            bots,
            clocks,
            takebacks,
            ratings,
            push,
            chat,
            rematches,
            lobby,
            play_now,
            accounts,
            moderation,
            passkeys,
            reviews,
            hints,
            cluster,
            sweeps,
            histories,
            watch,
            stopping: watch::channel(false).0,
        }));
        if tokio::runtime::Handle::try_current().is_ok() {
            app.cluster.start();
            app.sweeps.start();
            app.ratings.start();
            app.push.start();
            app.clocks.start();
            app.lobby.start();
            app.play_now.start();
            let moderation = Arc::clone(&app.moderation);
            tokio::spawn(async move { moderation.check_operators().await });
        }
        app
    }

    /// The server's settings.
    pub fn config(&self) -> &Config {
        &self.0.config
    }

    /// The server's store (the repositories of every domain).
    pub fn store(&self) -> &Store {
        &self.0.store
    }

    /// Tells every websocket that the server is stopping.
    pub fn begin_shutdown(&self) {
        self.stopping.send_replace(true);
    }

    /// Becomes true when the server begins to stop.
    pub fn stopping(&self) -> watch::Receiver<bool> {
        self.stopping.subscribe()
    }
}

/// What follows a move, in the services that follow it (held weakly: the
/// games outlive none of them).
struct Followers {
    bots: Weak<Bots>,
    push: Weak<Push>,
    ratings: Weak<Ratings>,
}

#[async_trait::async_trait]
impl GameEvents for Followers {
    fn bots(&self, live: &Arc<Live>) {
        if let Some(bots) = self.bots.upgrade() {
            bots.kick(live);
        }
    }

    fn moved(&self, live: &Live, table: &Table) {
        if let Some(push) = self.push.upgrade() {
            push.notify_turn(live, table);
        }
    }

    async fn finished(&self, id: &str, scores: &[u32], forced_loser: Option<usize>) {
        let Some(ratings) = self.ratings.upgrade() else { return };
        if let Err(e) = ratings.settle(id, scores, forced_loser).await {
            tracing::warn!(game = %id, error = %e, "the ratings could not be updated");
        }
    }
}

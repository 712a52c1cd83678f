//! Where everything is kept: one repository per domain, each a trait of its
//! own holding only what its services ask, with its SQLite and PostgreSQL
//! implementations side by side in the domain's folder (`sqlite.rs`,
//! `pg.rs`), so that a query's two forms are read together. A [`Store`]
//! bundles one backend's repositories; services take the ones they need.
//!
//! | folder | repository | what |
//! |---|---|---|
//! | `games/` | [`GameRepo`] | games as records (setup, then one row per move), the games lists |
//! | `rule_sets/` | [`RuleSetRepo`] | named rule sets a visitor keeps |
//! | `reviews/` | [`ReviewRepo`] | reviews of finished games, worked out once |
//! | `accounts/` | [`AccountRepo`], [`PasskeyRepo`] | accounts, sessions, passkeys |
//! | `lobby/` | [`LobbyRepo`] | the lobby's tables and "Play now" waits |
//! | `clocks/` | [`ClockRepo`] | each game's clocks and deadline |
//! | `push/` | [`PushRepo`] | Web Push: the VAPID key, subscriptions, invites taken |
//! | `ratings/` | [`RatingRepo`] | seats linked to accounts, rated games, ratings, history |
//! | `chat/` | [`ChatRepo`], [`RematchRepo`] | a game's chat and its settings; its rematch |
//! | `moderation/` | [`ModerationRepo`] | blocks between accounts, reports, the operator's mutes and closures |
//! | `takebacks/` | [`TakebackRepo`] | a game's takeback request, and the grant that removes moves |
//! | `cluster/` | [`ClusterRepo`] | servers sharing PostgreSQL: news, heartbeats, bot leases, presence |
//!
//! The backends: `sqlite.rs` (one file, one server; a writer thread commits
//! moves and new games in groups) and `pg.rs` (one database, several
//! servers). Every method is durable when it returns `Ok`: the server
//! acknowledges a move only after [`GameRepo::append_move`]. Both backends
//! pass one conformance suite (`tests/store/`).

use std::path::Path;
use std::sync::Arc;

pub(crate) mod accounts;
pub(crate) mod chat;
pub(crate) mod clocks;
pub(crate) mod cluster;
pub(crate) mod error;
pub(crate) mod games;
pub(crate) mod lobby;
pub(crate) mod moderation;
pub(crate) mod pg;
pub(crate) mod push;
pub(crate) mod ratings;
pub(crate) mod reviews;
pub(crate) mod rule_sets;
pub(crate) mod sqlite;
pub(crate) mod takebacks;

pub use accounts::{Account, AccountRepo, PasskeyChallenge, PasskeyRepo, StoredPasskey};
pub use chat::{ChatCaps, ChatMessage, ChatRepo, ChatSettings, Rematch, RematchRepo, SPECTATOR_KEYS};
pub use clocks::{ClockRepo, TurnOf};
pub use cluster::pg::DEAD_AFTER;
pub use cluster::{Beat, Change, ClusterRepo, Feed, GameChanged, BEAT_EVERY};
pub use error::StoreError;
pub(crate) use games::same_hash;
pub use games::{hash_address, hash_token, GameRepo, GameSummary, NewGame, Progress, Room, Seat, StoredGame};
pub use lobby::{Admission, LobbyRepo, LobbyRow, LobbySweep, TableBounds, WaitBounds, Waiting};
pub use moderation::{BlockRow, Blocked, ModerationRepo, NewReport, Report, ReportBounds, Reported, Sanctions};
pub use pg::{is_postgres_url, redact_url, MIGRATIONS as PG_MIGRATIONS};
pub use push::{PushRepo, PushSubscription};
pub use ratings::{
    AccountGame, HistoryRow, RatedResult, RatedSeat, RatingChange, RatingRepo, RatingRow, DELETED_ACCOUNT,
};
pub use reviews::ReviewRepo;
pub use rule_sets::{RuleSetRepo, SavedRules};
pub use takebacks::{ClockAfter, Grant, TakebackRepo};

/// One backend's repositories, a domain each. Cloning it is cheap; a test
/// may replace one repository (a wrapper that fails, or that hears news
/// from elsewhere) and keep the others.
#[derive(Clone)]
pub struct Store {
    pub games: Arc<dyn GameRepo>,
    pub rule_sets: Arc<dyn RuleSetRepo>,
    pub reviews: Arc<dyn ReviewRepo>,
    pub accounts: Arc<dyn AccountRepo>,
    pub passkeys: Arc<dyn PasskeyRepo>,
    pub lobby: Arc<dyn LobbyRepo>,
    pub clocks: Arc<dyn ClockRepo>,
    pub push: Arc<dyn PushRepo>,
    pub ratings: Arc<dyn RatingRepo>,
    pub chat: Arc<dyn ChatRepo>,
    pub rematches: Arc<dyn RematchRepo>,
    pub moderation: Arc<dyn ModerationRepo>,
    pub takebacks: Arc<dyn TakebackRepo>,
    pub cluster: Arc<dyn ClusterRepo>,
}

impl Store {
    /// Opens (or creates) a SQLite file and brings its schema up to date.
    /// One server per file: a second one is refused while the first runs.
    ///
    /// # Errors
    /// The file cannot be opened or locked, or is a database from a newer
    /// version.
    pub fn sqlite(path: &Path) -> Result<Store, StoreError> {
        Ok(Store::on_sqlite(sqlite::SqliteDb::open(path)?))
    }

    /// A SQLite database in memory (tests).
    ///
    /// # Errors
    /// SQLite fails to start.
    pub fn in_memory() -> Result<Store, StoreError> {
        Ok(Store::on_sqlite(sqlite::SqliteDb::in_memory()?))
    }

    /// Connects to the PostgreSQL database at `url` (`postgres://user:password@host:port/db`;
    /// `?options=-c%20search_path%3Dname` picks a schema, `?sslmode=require`
    /// asks for TLS), brings its schema up to date and registers this server
    /// among those sharing it. Several servers may open the same database at
    /// once.
    ///
    /// # Errors
    /// A URL that does not parse, a server that cannot be reached or refuses
    /// the login, or a schema from a newer version of the program. The
    /// message never holds the password.
    pub async fn postgres(url: &str) -> Result<Store, StoreError> {
        Ok(Store::on_pg(Arc::new(pg::Pg::open(url).await?)))
    }

    /// The storage the `--db` value names: a PostgreSQL URL
    /// ([`is_postgres_url`]), or else the path of a SQLite file; and how to
    /// name it in the log (never with a password).
    ///
    /// # Errors
    /// As [`Store::postgres`] and [`Store::sqlite`].
    pub async fn open(db: &std::ffi::OsStr) -> Result<(Store, String), StoreError> {
        if let Some(url) = db.to_str().filter(|d| is_postgres_url(d)) {
            let pg = Arc::new(pg::Pg::open(url).await?);
            let shown = format!("PostgreSQL at {}", pg.shown());
            return Ok((Store::on_pg(pg), shown));
        }
        let path = Path::new(db);
        Ok((Store::sqlite(path)?, path.display().to_string()))
    }

    fn on_sqlite(db: sqlite::SqliteDb) -> Store {
        Store {
            games: Arc::new(games::sqlite::SqliteGames(db.clone())),
            rule_sets: Arc::new(rule_sets::sqlite::SqliteRuleSets(db.clone())),
            reviews: Arc::new(reviews::sqlite::SqliteReviews(db.clone())),
            accounts: Arc::new(accounts::sqlite::SqliteAccounts(db.clone(), Default::default())),
            passkeys: Arc::new(accounts::sqlite::SqlitePasskeys(db.clone())),
            lobby: Arc::new(lobby::sqlite::SqliteLobby(db.clone())),
            clocks: Arc::new(clocks::sqlite::SqliteClocks(db.clone())),
            push: Arc::new(push::sqlite::SqlitePush(db.clone())),
            ratings: Arc::new(ratings::sqlite::SqliteRatings(db.clone())),
            chat: Arc::new(chat::sqlite::SqliteChat(db.clone())),
            rematches: Arc::new(chat::sqlite::SqliteRematches(db.clone())),
            moderation: Arc::new(moderation::sqlite::SqliteModeration(db.clone())),
            takebacks: Arc::new(takebacks::sqlite::SqliteTakebacks(db.clone())),
            cluster: Arc::new(cluster::sqlite::SqliteCluster(db)),
        }
    }

    fn on_pg(pg: Arc<pg::Pg>) -> Store {
        Store {
            games: Arc::new(games::pg::PgGames(Arc::clone(&pg))),
            rule_sets: Arc::new(rule_sets::pg::PgRuleSets(Arc::clone(&pg))),
            reviews: Arc::new(reviews::pg::PgReviews(Arc::clone(&pg))),
            accounts: Arc::new(accounts::pg::PgAccounts(Arc::clone(&pg))),
            passkeys: Arc::new(accounts::pg::PgPasskeys(Arc::clone(&pg))),
            lobby: Arc::new(lobby::pg::PgLobby(Arc::clone(&pg))),
            clocks: Arc::new(clocks::pg::PgClocks(Arc::clone(&pg))),
            push: Arc::new(push::pg::PgPush(Arc::clone(&pg))),
            ratings: Arc::new(ratings::pg::PgRatings(Arc::clone(&pg))),
            chat: Arc::new(chat::pg::PgChat(Arc::clone(&pg))),
            rematches: Arc::new(chat::pg::PgRematches(Arc::clone(&pg))),
            moderation: Arc::new(moderation::pg::PgModeration(Arc::clone(&pg))),
            takebacks: Arc::new(takebacks::pg::PgTakebacks(Arc::clone(&pg))),
            cluster: Arc::new(cluster::pg::PgCluster(pg)),
        }
    }
}

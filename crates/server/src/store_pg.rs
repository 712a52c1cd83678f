//! Games in PostgreSQL: one database shared by several servers.
//!
//! The tables are those of the SQLite store (a game's setup and seats, its
//! progress, one row per move), brought up to date by numbered migrations
//! under an advisory lock, so that servers starting together do not trip
//! over each other. The store speaks to the database through an async
//! driver (tokio-postgres) and a pool of connections (deadpool), with TLS
//! when the URL asks for it (`sslmode=require`).
//!
//! What makes several servers one game lives here too:
//!
//! - **The change feed.** Every stored move is announced on the
//!   `carcassonne_moves` channel (`NOTIFY`, delivered when its transaction
//!   commits), and presence and bot thinking on `carcassonne_events`;
//!   [`PgStore::changes`] listens on a connection of its own, read as a
//!   stream, and hands the news to the server.
//! - **Heartbeats.** Each server has a row in `servers` that it touches a
//!   few times a second ([`Store::beat`]); one silent for [`DEAD_AFTER`] is
//!   let go, with its bot leases and presence (they reference it).
//! - **One server drives a game's bots**: whoever holds the game's row in
//!   `bot_leases`. A bot whose server died is claimed by another at its next
//!   heartbeat, without anyone watching the game.
//! - **Presence**: each server keeps, per game, how many websockets it holds
//!   on each seat in `presence`, and announces every change; a change feed
//!   that was away reads the whole table when it listens again.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use async_trait::async_trait;
use carcassonne::record::{Record, RecordMove};
use deadpool_postgres::{Manager, ManagerConfig, Pool, RecyclingMethod, Runtime};
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::sync::mpsc::{unbounded_channel, UnboundedReceiver, UnboundedSender};
use tokio_postgres::config::SslMode;
use tokio_postgres::error::SqlState;
use tokio_postgres::{AsyncMessage, Client, Config, IsolationLevel, NoTls, Notification};
use tokio_postgres_rustls::MakeRustlsConnect;

mod lobby;

mod ratings;

use crate::store::passkeys::pg as passkeys_sql;
use crate::store::Rematch;
use crate::store::{
    summary, Account, Beat, Change, ChatMessage, ChatSettings, Feed, GameChanged, GameSummary, NewGame, Progress,
    PushSubscription, SavedRules, Store, StoreError, StoredGame, TurnOf, ACCOUNT_COLUMNS, BEAT_EVERY, CLAIM_REVIEW,
    PUSH_COLUMNS, PUSH_LANG_MIGRATION, PUSH_MIGRATION, SAVE_REVIEW,
};
use crate::store::{LobbyRow, LobbySweep, Waiting};
use crate::store::{PasskeyChallenge, StoredPasskey};

/// The channel on which stored moves are announced: `"<game id>:<moves>"`.
pub const CHANNEL: &str = "carcassonne_moves";

/// The channel of the other news between servers: a [`Change`] in JSON.
pub const EVENTS: &str = "carcassonne_events";

/// A server whose heartbeat is older than this is taken for dead.
pub const DEAD_AFTER: Duration = Duration::from_millis(5 * BEAT_EVERY.as_millis() as u64);

/// A game whose bot is to move, with no server holding its lease, is
/// claimed by a heartbeat once its last move is this old (before that, the
/// server that stored the move is about to claim it).
const ORPHAN_AFTER: Duration = Duration::from_millis(500);

/// The most orphaned games one heartbeat claims (others take the rest).
const CLAIMS_PER_BEAT: i64 = 20;

/// The advisory lock held while migrating ("carcassonne" in a few bytes).
const MIGRATION_LOCK: i64 = 0x6361_7263_6173_736f;

/// Schema migrations, applied in order; `schema_version` counts those applied.
pub const MIGRATIONS: &[&str] = &[
    // 1: games and their moves, as in SQLite; `stored_at` is the database's
    // clock, so that a listener that lost its connection can ask what it missed.
    "CREATE TABLE games (
        id          TEXT PRIMARY KEY,
        setup       TEXT NOT NULL,     -- the record without moves (rules, players, start, deck, first)
        seats       TEXT NOT NULL,     -- JSON array of seats (tokens hashed)
        progress    TEXT NOT NULL,     -- JSON: finished, scores, to_move, winners, at
        moves       BIGINT NOT NULL DEFAULT 0,
        created_at  BIGINT NOT NULL,   -- Unix ms
        updated_at  BIGINT NOT NULL,   -- Unix ms
        live_seed   BIGINT,            -- the u64 seed's bits
        stored_at   TIMESTAMPTZ NOT NULL DEFAULT now()
    );
    CREATE TABLE moves (
        game_id     TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        ply         BIGINT NOT NULL,   -- 0-based index into the record's moves
        body        TEXT NOT NULL,     -- the record move as JSON
        PRIMARY KEY (game_id, ply)
    );
    CREATE INDEX games_by_update ON games (updated_at DESC);
    CREATE INDEX games_by_store ON games (stored_at);",
    // 2: games listed for everyone.
    "ALTER TABLE games ADD COLUMN public BOOLEAN NOT NULL DEFAULT FALSE;",
    // 3: several servers as one: heartbeats, bot leases, presence. What is
    // about live servers is unlogged: after a crash of the database the
    // servers register again and share out the bots anew.
    "ALTER TABLE games ADD COLUMN bot_turn BOOLEAN NOT NULL DEFAULT FALSE;
    UPDATE games SET bot_turn =
        COALESCE((seats::jsonb -> ((progress::jsonb ->> 'to_move')::int) ->> 'kind') = 'bot', FALSE)
        WHERE progress::jsonb ->> 'to_move' IS NOT NULL;
    CREATE INDEX games_bot_turn ON games (stored_at) WHERE bot_turn;
    CREATE UNLOGGED TABLE servers (
        id          TEXT PRIMARY KEY,
        started_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
        seen_at     TIMESTAMPTZ NOT NULL DEFAULT now()
    );
    CREATE UNLOGGED TABLE bot_leases (
        game_id     TEXT PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
        server      TEXT NOT NULL REFERENCES servers(id) ON DELETE CASCADE,
        taken_at    TIMESTAMPTZ NOT NULL DEFAULT now()
    );
    CREATE INDEX bot_leases_by_server ON bot_leases (server);
    CREATE UNLOGGED TABLE presence (
        game_id     TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        server      TEXT NOT NULL REFERENCES servers(id) ON DELETE CASCADE,
        online      TEXT NOT NULL,     -- JSON array: websockets per seat
        PRIMARY KEY (game_id, server)
    );
    CREATE INDEX presence_by_server ON presence (server);",
    // 4: named rule sets visitors keep, by the hash of their key.
    "CREATE TABLE rule_sets (
        id          TEXT PRIMARY KEY,
        owner       TEXT NOT NULL,     -- hash of the visitor's key
        name        TEXT NOT NULL,
        code        TEXT NOT NULL,     -- the rule set's code
        created_at  BIGINT NOT NULL    -- Unix ms
    );
    CREATE INDEX rule_sets_by_owner ON rule_sets (owner, created_at);",
    // 5: reviews of finished games, worked out once whichever server is asked.
    "CREATE TABLE reviews (
        game_id     TEXT PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
        review      TEXT,              -- JSON; NULL while a server works it out
        claimed_by  TEXT NOT NULL,     -- the server working it out
        claimed_at  BIGINT NOT NULL    -- Unix ms
    );",
    // 6: accounts and their sessions (tokens and recovery codes hashed).
    "CREATE TABLE accounts (
        id          TEXT PRIMARY KEY,
        name        TEXT NOT NULL,     -- as shown
        name_key    TEXT NOT NULL UNIQUE, -- as compared (NFKC, case folded)
        password    TEXT NOT NULL,     -- argon2id, PHC string
        recovery    TEXT NOT NULL,     -- SHA-256 of the recovery code
        created_at  BIGINT NOT NULL    -- Unix ms
    );
    CREATE TABLE sessions (
        token_hash  TEXT PRIMARY KEY,  -- SHA-256 of the cookie's token
        account     TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        created_at  BIGINT NOT NULL,   -- Unix ms
        seen_at     BIGINT NOT NULL    -- Unix ms, last use
    );
    CREATE INDEX sessions_by_account ON sessions (account);
    CREATE INDEX sessions_by_use ON sessions (seen_at);",
    // 7 (ratings): seats linked to accounts, rated games, ratings and their history.
    ratings::MIGRATION,
    // 8: passkeys and passkey ceremonies begun (store/passkeys.rs).
    crate::store::passkeys::PG_MIGRATION,
    // 9: chat and rematch (services/chat.rs, services/rematch.rs).
    "CREATE TABLE chat_messages (
        game_id     TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        seq         BIGINT NOT NULL,   -- 1, 2… in the game
        seat        INTEGER,           -- the player's seat; NULL for a spectator
        author      TEXT NOT NULL,     -- hash naming the writer (numbers spectators)
        name        TEXT NOT NULL,
        text        TEXT NOT NULL,
        at          BIGINT NOT NULL,   -- Unix ms
        PRIMARY KEY (game_id, seq)
    );
    CREATE TABLE chat_off (
        game_id     TEXT PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE
    );
    CREATE TABLE chat_consent (
        game_id     TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        seat        INTEGER NOT NULL,
        PRIMARY KEY (game_id, seat)
    );
    CREATE TABLE rematch_accepts (
        game_id     TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        seat        INTEGER NOT NULL,
        token_hash  TEXT NOT NULL,     -- the seat's token in the new game, hashed
        PRIMARY KEY (game_id, seat)
    );
    CREATE TABLE rematches (
        game_id     TEXT PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
        new_game_id TEXT NOT NULL
    );",
    // 10: Web Push: the VAPID key (one for all the servers), browsers'
    // subscriptions, invites taken (the same tables as SQLite's).
    PUSH_MIGRATION,
    // 11: clocks: each seat's time and the deadline of the move to make now.
    "ALTER TABLE games ADD COLUMN clock TEXT;       -- JSON (services/clock.rs ClockState)
    ALTER TABLE games ADD COLUMN deadline BIGINT;   -- Unix ms; NULL: untimed, a bot's, over
    CREATE INDEX games_by_deadline ON games (deadline) WHERE deadline IS NOT NULL;",
    // 12: the lobby's tables (the body is the service's JSON; `version`
    // makes every change conditional) and the players waiting for "Play now".
    "CREATE TABLE lobby_tables (
        id          TEXT PRIMARY KEY,
        owner       TEXT NOT NULL,     -- the host's account or address
        body        TEXT NOT NULL,     -- JSON (services/lobby.rs)
        version     BIGINT NOT NULL,
        open        BOOLEAN NOT NULL,  -- until started
        seen_at     BIGINT NOT NULL,   -- Unix ms, the host last heard from
        created_at  BIGINT NOT NULL    -- Unix ms
    );
    CREATE INDEX lobby_tables_by_owner ON lobby_tables (owner);
    CREATE TABLE lobby_waiting (
        id          TEXT PRIMARY KEY,
        owner       TEXT NOT NULL,     -- the account or address
        token_hash  TEXT NOT NULL,     -- SHA-256 of the coming game's seat token
        name        TEXT NOT NULL,
        rating      BIGINT NOT NULL,
        body        TEXT NOT NULL,     -- JSON (services/lobby.rs)
        since       BIGINT NOT NULL,   -- Unix ms
        seen_at     BIGINT NOT NULL,   -- Unix ms, last asked about
        game        TEXT,              -- the game paired into
        seat        BIGINT
    );
    CREATE INDEX lobby_waiting_by_seen ON lobby_waiting (seen_at);",
    // 13: the language of a push subscription's notifications.
    PUSH_LANG_MIGRATION,
    // 14: for the change feed's look back: chat messages by time, and when
    // a game's chat consent or rematch last changed (Unix ms, the
    // database's clock).
    "CREATE INDEX chat_messages_by_time ON chat_messages (at);
    CREATE TABLE after_game_changes (
        game_id     TEXT PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
        at          BIGINT NOT NULL
    );
    CREATE INDEX after_game_changes_by_time ON after_game_changes (at);",
];

/// The most connections one server keeps open for requests (the change
/// feed has one more of its own).
const POOL_SIZE: usize = 16;

/// How long a request waits for a connection, and a connection for the server.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// How connections are secured: as the URL's `sslmode` says.
#[derive(Clone)]
enum Tls {
    /// `sslmode=disable` or `prefer` (the default): plain TCP.
    Off,
    /// `sslmode=require`: TLS, the server's certificate checked against the
    /// Mozilla roots and those in the file `PGSSLROOTCERT` names.
    On(MakeRustlsConnect),
}

impl Tls {
    fn for_config(config: &Config) -> Result<Tls, StoreError> {
        if config.get_ssl_mode() != SslMode::Require {
            return Ok(Tls::Off);
        }
        let mut roots = rustls::RootCertStore { roots: webpki_roots::TLS_SERVER_ROOTS.to_vec() };
        if let Some(path) = std::env::var_os("PGSSLROOTCERT") {
            use rustls::pki_types::pem::PemObject;
            let certs = rustls::pki_types::CertificateDer::pem_file_iter(&path)
                .map_err(|e| StoreError::failed(format!("PGSSLROOTCERT {}: {e}", path.to_string_lossy())))?;
            for cert in certs {
                let cert = cert.map_err(|e| StoreError::failed(format!("PGSSLROOTCERT: {e}")))?;
                roots.add(cert).map_err(|e| StoreError::failed(format!("PGSSLROOTCERT: {e}")))?;
            }
        }
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let tls = rustls::ClientConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .map_err(|e| StoreError::failed(format!("TLS: {e}")))?
            .with_root_certificates(roots)
            .with_no_client_auth();
        Ok(Tls::On(MakeRustlsConnect::new(tls)))
    }

    /// One connection of our own, and the notifications it receives (the
    /// channel closes when the connection does).
    async fn connect(
        &self,
        config: &Config,
    ) -> Result<(Client, UnboundedReceiver<Notification>), tokio_postgres::Error> {
        match self {
            Tls::Off => config.connect(NoTls).await.map(|(c, conn)| (c, drive(conn))),
            Tls::On(tls) => config.connect(tls.clone()).await.map(|(c, conn)| (c, drive(conn))),
        }
    }

    fn pool(&self, config: &Config) -> Result<Pool, StoreError> {
        let manager = ManagerConfig { recycling_method: RecyclingMethod::Fast };
        let manager = match self {
            Tls::Off => Manager::from_config(config.clone(), NoTls, manager),
            Tls::On(tls) => Manager::from_config(config.clone(), tls.clone(), manager),
        };
        Pool::builder(manager)
            .max_size(POOL_SIZE)
            .runtime(Runtime::Tokio1)
            .wait_timeout(Some(CONNECT_TIMEOUT))
            .create_timeout(Some(CONNECT_TIMEOUT))
            .recycle_timeout(Some(CONNECT_TIMEOUT))
            .build()
            .map_err(|e| StoreError::failed(format!("PostgreSQL pool: {e}")))
    }
}

/// Reads a connection's messages on a task of its own, handing on its
/// notifications: the connection's stream is where `LISTEN` delivers.
fn drive<S, T>(mut conn: tokio_postgres::Connection<S, T>) -> UnboundedReceiver<Notification>
where
    S: AsyncRead + AsyncWrite + Unpin + Send + 'static,
    T: AsyncRead + AsyncWrite + Unpin + Send + 'static,
{
    let (tx, rx) = unbounded_channel();
    tokio::spawn(async move {
        loop {
            match std::future::poll_fn(|cx| conn.poll_message(cx)).await {
                Some(Ok(AsyncMessage::Notification(n))) => {
                    let _ = tx.send(n);
                }
                Some(Ok(_)) => {}
                Some(Err(e)) => {
                    tracing::debug!(error = %describe(&e), "a PostgreSQL connection ended");
                    return;
                }
                None => return,
            }
        }
    });
    rx
}

/// Games in a PostgreSQL database that several servers may share.
pub struct PgStore {
    pool: Pool,
    config: Config,
    tls: Tls,
    /// The URL without its password, for logs and errors.
    shown: String,
    /// The database's clock when the store was opened: the change feed,
    /// once listening, announces what was stored since (games loaded before
    /// it listened must not miss a move).
    opened_at: SystemTime,
    /// Whether the change feed listens now (once started).
    listening: Arc<AtomicBool>,
    feed_started: AtomicBool,
    /// This server's name in `servers`.
    server: String,
}

/// Whether `db` (the `--db` value) names a PostgreSQL database rather than a SQLite file.
pub fn is_postgres_url(db: &str) -> bool {
    scheme_len(db).is_some()
}

/// The length of a `postgres://` or `postgresql://` prefix (any case).
fn scheme_len(db: &str) -> Option<usize> {
    ["postgres://", "postgresql://"]
        .into_iter()
        .find(|p| db.get(..p.len()).is_some_and(|s| s.eq_ignore_ascii_case(p)))
        .map(str::len)
}

/// A PostgreSQL URL fit for a log: the password, wherever it was, is gone.
/// A URL that does not parse shows only its hosts' part, if that.
pub fn redact_url(url: &str) -> String {
    match parse(url) {
        Ok(config) => show(&config),
        Err(_) => "an unreadable PostgreSQL URL".into(),
    }
}

fn parse(url: &str) -> Result<Config, StoreError> {
    let Some(n) = scheme_len(url) else {
        return Err(StoreError::failed("a PostgreSQL URL starts with postgres:// or postgresql://"));
    };
    let normal = format!("postgresql://{}", &url[n..]);
    normal.parse::<Config>().map_err(|e| StoreError::failed(format!("not a PostgreSQL URL: {}", describe(&e))))
}

/// The parts of a configuration that are safe to show.
fn show(config: &Config) -> String {
    use tokio_postgres::config::Host;
    let mut s = String::from("postgres://");
    if let Some(user) = config.get_user() {
        s.push_str(user);
        if config.get_password().is_some() {
            s.push_str(":***");
        }
        s.push('@');
    }
    let ports = config.get_ports();
    let hosts: Vec<String> = config
        .get_hosts()
        .iter()
        .enumerate()
        .map(|(i, h)| {
            let host = match h {
                Host::Tcp(name) => name.clone(),
                #[cfg(unix)]
                Host::Unix(path) => path.display().to_string(),
            };
            match ports.get(i).or(ports.first()) {
                Some(port) => format!("{host}:{port}"),
                None => host,
            }
        })
        .collect();
    s.push_str(&hosts.join(","));
    if let Some(db) = config.get_dbname() {
        s.push('/');
        s.push_str(db);
    }
    s
}

/// A PostgreSQL error with its causes (its own text names only the kind).
fn describe(e: &tokio_postgres::Error) -> String {
    let mut s = e.to_string();
    let mut cause = std::error::Error::source(e);
    while let Some(c) = cause {
        s.push_str(": ");
        s.push_str(&c.to_string());
        cause = c.source();
    }
    s
}

impl From<tokio_postgres::Error> for StoreError {
    fn from(e: tokio_postgres::Error) -> Self {
        StoreError::Failed(format!("PostgreSQL: {}", describe(&e)))
    }
}

/// Whether `e` is a unique-key violation (an id taken, a move stored twice).
fn is_unique_violation(e: &tokio_postgres::Error) -> bool {
    e.code() == Some(&SqlState::UNIQUE_VIOLATION)
}

/// A name for this server: random, so that a restarted server is a new one.
fn new_server_name() -> Result<String, StoreError> {
    let mut bytes = [0u8; 6];
    getrandom::fill(&mut bytes).map_err(|e| StoreError::failed(format!("no randomness: {e}")))?;
    Ok(format!("s-{}", bytes.iter().map(|b| format!("{b:02x}")).collect::<String>()))
}

impl PgStore {
    /// Connects to the database at `url` (`postgres://user:password@host:port/db`;
    /// `?options=-c%20search_path%3Dname` picks a schema, `?sslmode=require`
    /// asks for TLS) and brings its schema up to date, then registers this
    /// server among those sharing it. Several servers may open the same
    /// database at once.
    ///
    /// # Errors
    /// A URL that does not parse, a server that cannot be reached or refuses
    /// the login, or a schema from a newer version of the program. The
    /// message never holds the password.
    pub async fn open(url: &str) -> Result<PgStore, StoreError> {
        let mut config = parse(url).map_err(|e| StoreError::failed(format!("--db: {}", e.message())))?;
        let shown = show(&config);
        if config.get_connect_timeout().is_none() {
            config.connect_timeout(CONNECT_TIMEOUT);
        }
        if config.get_application_name().is_none() {
            config.application_name("carcassonne");
        }
        let tls = Tls::for_config(&config)?;
        // A first connection of our own: a clear error now if the server
        // cannot be reached or refuses us, and the migrations.
        let (mut client, _) = tls
            .connect(&config)
            .await
            .map_err(|e| StoreError::failed(format!("cannot connect to {shown}: {}", describe(&e))))?;
        migrate(&mut client).await.map_err(|e| StoreError::failed(format!("{shown}: {}", e.message())))?;
        let opened_at = client.query_one("SELECT now()", &[]).await?.try_get(0)?;
        let server = new_server_name()?;
        client.execute("INSERT INTO servers (id) VALUES ($1)", &[&server]).await?;
        drop(client);
        let pool = tls.pool(&config)?;
        tracing::debug!(db = %shown, server = %server, "joined the servers sharing the database");
        Ok(PgStore {
            pool,
            config,
            tls,
            shown,
            opened_at,
            listening: Arc::default(),
            feed_started: AtomicBool::new(false),
            server,
        })
    }

    /// The database's URL without its password.
    pub fn shown(&self) -> &str {
        &self.shown
    }

    async fn conn(&self) -> Result<deadpool_postgres::Object, StoreError> {
        self.pool
            .get()
            .await
            .map_err(|e| StoreError::failed(format!("PostgreSQL at {}: no connection: {e}", self.shown)))
    }

    /// Summaries of the games matching `filter` (SQL; `$1` is the limit,
    /// `$2` the ids of `ids`), most recent first.
    async fn summaries(
        &self,
        filter: &str,
        limit: usize,
        ids: Option<&[String]>,
    ) -> Result<Vec<GameSummary>, StoreError> {
        let conn = self.conn().await?;
        let sql = format!(
            "SELECT id, setup, seats, progress, moves, created_at, public FROM games WHERE {filter}
             ORDER BY updated_at DESC, id LIMIT $1"
        );
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let rows = match ids {
            Some(ids) => conn.query(&sql, &[&limit, &ids]).await?,
            None => conn.query(&sql, &[&limit]).await?,
        };
        rows.iter()
            .map(|r| {
                summary(
                    r.try_get(0)?,
                    r.try_get(1)?,
                    r.try_get(2)?,
                    r.try_get(3)?,
                    r.try_get(4)?,
                    r.try_get(5)?,
                    r.try_get(6)?,
                )
            })
            .collect()
    }

    /// Runs one statement that notifies `channel` of `payload` (with whatever it does first).
    async fn notify(&self, channel: &str, payload: &str) -> Result<(), StoreError> {
        self.conn().await?.execute("SELECT pg_notify($1, $2)", &[&channel, &payload]).await?;
        Ok(())
    }
}

/// Brings the schema up to date, under an advisory lock held until the
/// transaction ends: a second server starting at the same time waits, then
/// finds nothing left to do.
async fn migrate(client: &mut Client) -> Result<(), StoreError> {
    let tx = client.transaction().await?;
    tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK]).await?;
    // (Without the notice that the table is there already, on every start.)
    tx.batch_execute(
        "SET LOCAL client_min_messages = warning;
         CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL);",
    )
    .await?;
    let version: i32 = match tx.query_opt("SELECT version FROM schema_version", &[]).await? {
        Some(row) => row.try_get(0)?,
        None => {
            tx.execute("INSERT INTO schema_version (version) VALUES (0)", &[]).await?;
            0
        }
    };
    let known = MIGRATIONS.len() as i32;
    if version > known {
        return Err(StoreError::failed(format!(
            "the database has schema version {version}, newer than this program's {known}: use a newer carcassonne"
        )));
    }
    let from = version;
    for (i, sql) in MIGRATIONS.iter().enumerate().skip(version.max(0) as usize) {
        tx.batch_execute(sql).await?;
        tx.execute("UPDATE schema_version SET version = $1", &[&(i as i32 + 1)]).await?;
    }
    tx.commit().await?;
    if from < known {
        tracing::info!(from, to = known, "PostgreSQL schema migrated");
    }
    Ok(())
}

#[async_trait]
impl Store for PgStore {
    async fn create_game(&self, game: &NewGame) -> Result<(), StoreError> {
        let (setup, progress) = game.setup_and_progress();
        let conn = self.conn().await?;
        let inserted = conn
            .execute(
                "INSERT INTO games (id, setup, seats, progress, moves, created_at, updated_at, live_seed, public, bot_turn,
                                    clock, deadline)
                 VALUES ($1, $2, $3, $4, 0, $5, $5, $6, $7, $8, $9, $10)",
                &[
                    &game.id,
                    &serde_json::to_string(&setup)?,
                    &serde_json::to_string(&game.seats)?,
                    &serde_json::to_string(&progress)?,
                    &game.created_at,
                    // BIGINT is signed: the seed's bits are kept as they are.
                    &game.live_seed.map(|s| s as i64),
                    &game.public,
                    &progress.bot_turn,
                    &game.clock,
                    &game.deadline,
                ],
            )
            .await;
        match inserted {
            Ok(_) => Ok(()),
            Err(e) if is_unique_violation(&e) => Err(StoreError::failed(format!("game id {} is taken", game.id))),
            Err(e) => Err(e.into()),
        }
    }

    async fn append_move(&self, id: &str, ply: usize, mv: &RecordMove, progress: &Progress) -> Result<(), StoreError> {
        let ply = i64::try_from(ply).map_err(|_| StoreError::failed("move number out of range"))?;
        let body = serde_json::to_string(mv)?;
        let progress_json = serde_json::to_string(progress)?;
        let mut conn = self.conn().await?;
        let tx = conn.transaction().await?;
        // The game's row stays locked until commit: a second writer of the
        // same move waits here, then sees the count has moved on.
        let lock = tx.prepare_cached("SELECT moves FROM games WHERE id = $1 FOR UPDATE").await?;
        let moves: i64 = match tx.query_opt(&lock, &[&id]).await? {
            None => return Err(StoreError::failed(format!("no game {id}"))),
            Some(row) => row.try_get(0)?,
        };
        if moves != ply {
            return Err(StoreError::Conflict(format!("game {id} has {moves} moves stored, not {ply}")));
        }
        let insert = tx.prepare_cached("INSERT INTO moves (game_id, ply, body) VALUES ($1, $2, $3)").await?;
        match tx.execute(&insert, &[&id, &ply, &body]).await {
            Ok(_) => {}
            // The row lock makes this unreachable, unless the moves were
            // written by something else: still, never two moves at one ply.
            Err(e) if is_unique_violation(&e) => {
                return Err(StoreError::Conflict(format!("game {id} already has move {ply}")));
            }
            Err(e) => return Err(e.into()),
        }
        // Delivered to every listener when (and only if) the move commits.
        let update = tx
            .prepare_cached(
                "UPDATE games SET moves = $2, progress = $3, updated_at = $4, stored_at = now(), bot_turn = $5
                 WHERE id = $1 RETURNING pg_notify($6, id || ':' || moves)",
            )
            .await?;
        tx.execute(&update, &[&id, &(ply + 1), &progress_json, &progress.at, &progress.bot_turn, &CHANNEL]).await?;
        tx.commit().await?;
        Ok(())
    }

    async fn load(&self, id: &str) -> Result<Option<StoredGame>, StoreError> {
        let mut conn = self.conn().await?;
        // One snapshot for the game and its moves.
        let tx =
            conn.build_transaction().isolation_level(IsolationLevel::RepeatableRead).read_only(true).start().await?;
        let game = tx
            .prepare_cached("SELECT setup, seats, created_at, updated_at, live_seed FROM games WHERE id = $1")
            .await?;
        let Some(row) = tx.query_opt(&game, &[&id]).await? else {
            return Ok(None);
        };
        let mut record: Record = serde_json::from_str(row.try_get::<_, &str>(0)?)?;
        let seats = serde_json::from_str(row.try_get::<_, &str>(1)?)?;
        let (created_at, updated_at): (i64, i64) = (row.try_get(2)?, row.try_get(3)?);
        let live_seed: Option<i64> = row.try_get(4)?;
        record.moves.clear();
        let moves = tx.prepare_cached("SELECT body FROM moves WHERE game_id = $1 ORDER BY ply").await?;
        for m in tx.query(&moves, &[&id]).await? {
            record.moves.push(serde_json::from_str(m.try_get::<_, &str>(0)?)?);
        }
        tx.commit().await?;
        Ok(Some(StoredGame {
            id: id.to_string(),
            record,
            live_seed: live_seed.map(|s| s as u64),
            seats,
            created_at,
            updated_at,
        }))
    }

    async fn list(&self, limit: usize) -> Result<Vec<GameSummary>, StoreError> {
        self.summaries("TRUE", limit, None).await
    }

    async fn listed(&self, ids: &[String], limit: usize) -> Result<Vec<GameSummary>, StoreError> {
        self.summaries("public OR id = ANY($2)", limit, Some(ids)).await
    }

    async fn in_play(&self) -> Result<Vec<GameSummary>, StoreError> {
        self.summaries("NOT COALESCE((progress::jsonb ->> 'finished')::boolean, FALSE)", usize::MAX >> 1, None).await
    }

    async fn health(&self) -> Result<(), StoreError> {
        self.conn().await?.query_one("SELECT 1", &[]).await?;
        Ok(())
    }

    async fn save_rules(&self, owner: &str, rules: &SavedRules, max: usize) -> Result<bool, StoreError> {
        let max = i64::try_from(max).unwrap_or(i64::MAX);
        let mut conn = self.conn().await?;
        let tx = conn.transaction().await?;
        // One visitor's saves one at a time, so that the bound holds.
        tx.execute("SELECT pg_advisory_xact_lock(hashtext($1))", &[&owner]).await?;
        let saved = tx
            .execute(
                "INSERT INTO rule_sets (id, owner, name, code, created_at)
                 SELECT $1, $2, $3, $4, $5 WHERE (SELECT COUNT(*) FROM rule_sets WHERE owner = $2) < $6",
                &[&rules.id, &owner, &rules.name, &rules.code, &rules.created_at, &max],
            )
            .await?;
        tx.commit().await?;
        Ok(saved == 1)
    }

    async fn saved_rules(&self, owner: &str) -> Result<Vec<SavedRules>, StoreError> {
        let rows = self
            .conn()
            .await?
            .query(
                "SELECT id, name, code, created_at FROM rule_sets WHERE owner = $1 ORDER BY created_at, id",
                &[&owner],
            )
            .await?;
        rows.iter()
            .map(|r| {
                Ok(SavedRules {
                    id: r.try_get(0)?,
                    name: r.try_get(1)?,
                    code: r.try_get(2)?,
                    created_at: r.try_get(3)?,
                })
            })
            .collect()
    }

    async fn rename_rules(&self, owner: &str, id: &str, name: &str) -> Result<bool, StoreError> {
        let n = self
            .conn()
            .await?
            .execute("UPDATE rule_sets SET name = $3 WHERE owner = $1 AND id = $2", &[&owner, &id, &name])
            .await?;
        Ok(n == 1)
    }

    async fn delete_rules(&self, owner: &str, id: &str) -> Result<bool, StoreError> {
        let n =
            self.conn().await?.execute("DELETE FROM rule_sets WHERE owner = $1 AND id = $2", &[&owner, &id]).await?;
        Ok(n == 1)
    }

    async fn expire(&self, before: i64) -> Result<Vec<String>, StoreError> {
        let rows = self
            .conn()
            .await?
            .query(
                "DELETE FROM games WHERE NOT COALESCE((progress::jsonb ->> 'finished')::boolean, FALSE)
                 AND updated_at < $1 RETURNING id",
                &[&before],
            )
            .await?;
        rows.iter().map(|r| r.try_get(0).map_err(StoreError::from)).collect()
    }

    fn feed(&self) -> Feed {
        match (self.feed_started.load(Ordering::Relaxed), self.listening.load(Ordering::Relaxed)) {
            (false, _) => Feed::None,
            (true, true) => Feed::Up,
            (true, false) => Feed::Down,
        }
    }

    fn changes(&self) -> Option<UnboundedReceiver<Change>> {
        if tokio::runtime::Handle::try_current().is_err() {
            tracing::error!("the PostgreSQL change feed needs a tokio runtime");
            return None;
        }
        let (tx, rx) = unbounded_channel();
        let listener = Listener {
            config: self.config.clone(),
            tls: self.tls.clone(),
            shown: self.shown.clone(),
            since: self.opened_at,
            tx,
            listening: Arc::clone(&self.listening),
        };
        self.feed_started.store(true, Ordering::Relaxed);
        tokio::spawn(listener.run());
        Some(rx)
    }

    fn server(&self) -> Option<&str> {
        Some(&self.server)
    }

    async fn review(&self, id: &str) -> Result<Option<String>, StoreError> {
        let row = self.conn().await?.query_opt("SELECT review FROM reviews WHERE game_id = $1", &[&id]).await?;
        Ok(row.map(|r| r.try_get::<_, Option<String>>(0)).transpose()?.flatten())
    }

    async fn claim_review(&self, id: &str, now: i64, stale_before: i64) -> Result<bool, StoreError> {
        let n = self.conn().await?.execute(CLAIM_REVIEW, &[&id, &self.server, &now, &stale_before]).await?;
        Ok(n == 1)
    }

    async fn save_review(&self, id: &str, review: &str) -> Result<(), StoreError> {
        self.conn().await?.execute(SAVE_REVIEW, &[&id, &review]).await?;
        Ok(())
    }

    async fn create_account(&self, a: &Account) -> Result<bool, StoreError> {
        let n = self
            .conn()
            .await?
            .execute(
                "INSERT INTO accounts (id, name, name_key, password, recovery, created_at)
                 VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (name_key) DO NOTHING",
                &[&a.id, &a.name, &a.name_key, &a.password, &a.recovery, &a.created_at],
            )
            .await?;
        Ok(n == 1)
    }

    async fn account_by_key(&self, name_key: &str) -> Result<Option<Account>, StoreError> {
        let sql = format!("SELECT {ACCOUNT_COLUMNS} FROM accounts a WHERE a.name_key = $1");
        let row = self.conn().await?.query_opt(&sql, &[&name_key]).await?;
        row.map(|r| account_row(&r)).transpose()
    }

    async fn set_password(&self, id: &str, password: &str, recovery: Option<&str>) -> Result<bool, StoreError> {
        let n = self
            .conn()
            .await?
            .execute(
                "UPDATE accounts SET password = $2, recovery = COALESCE($3, recovery) WHERE id = $1",
                &[&id, &password, &recovery],
            )
            .await?;
        Ok(n == 1)
    }

    async fn delete_account(&self, id: &str) -> Result<bool, StoreError> {
        Ok(self.conn().await?.execute("DELETE FROM accounts WHERE id = $1", &[&id]).await? == 1)
    }

    async fn create_session(
        &self,
        token_hash: &str,
        account: &str,
        now: i64,
        idle_before: i64,
    ) -> Result<(), StoreError> {
        let conn = self.conn().await?;
        conn.execute("DELETE FROM sessions WHERE seen_at < $1", &[&idle_before]).await?;
        conn.execute(
            "INSERT INTO sessions (token_hash, account, created_at, seen_at) VALUES ($1, $2, $3, $3)",
            &[&token_hash, &account, &now],
        )
        .await?;
        Ok(())
    }

    async fn session(
        &self,
        token_hash: &str,
        now: i64,
        idle_before: i64,
        renew_before: i64,
    ) -> Result<Option<Account>, StoreError> {
        let conn = self.conn().await?;
        conn.execute("DELETE FROM sessions WHERE token_hash = $1 AND seen_at < $2", &[&token_hash, &idle_before])
            .await?;
        conn.execute(
            "UPDATE sessions SET seen_at = $2 WHERE token_hash = $1 AND seen_at < $3",
            &[&token_hash, &now, &renew_before],
        )
        .await?;
        let sql = format!(
            "SELECT {ACCOUNT_COLUMNS} FROM sessions s JOIN accounts a ON a.id = s.account WHERE s.token_hash = $1"
        );
        let row = conn.query_opt(&sql, &[&token_hash]).await?;
        row.map(|r| account_row(&r)).transpose()
    }

    async fn end_session(&self, token_hash: &str) -> Result<bool, StoreError> {
        Ok(self.conn().await?.execute("DELETE FROM sessions WHERE token_hash = $1", &[&token_hash]).await? == 1)
    }

    async fn end_sessions(&self, account: &str, keep: Option<&str>) -> Result<u64, StoreError> {
        let keep = keep.unwrap_or_default();
        Ok(self
            .conn()
            .await?
            .execute("DELETE FROM sessions WHERE account = $1 AND token_hash <> $2", &[&account, &keep])
            .await?)
    }

    // --- Ratings (ratings helper): store_pg/ratings.rs ---

    async fn mark_rated(&self, id: &str, pool: &str) -> Result<(), StoreError> {
        self.ratings_mark_rated(id, pool).await
    }

    async fn rated(&self, id: &str) -> Result<Option<bool>, StoreError> {
        self.ratings_rated(id).await
    }

    async fn link_seat(&self, id: &str, token_hash: &str, account: &str) -> Result<Option<u8>, StoreError> {
        self.ratings_link_seat(id, token_hash, account).await
    }

    async fn apply_rating(
        &self,
        result: &crate::store::RatedResult,
    ) -> Result<Option<Vec<crate::store::RatingChange>>, StoreError> {
        self.ratings_apply(result).await
    }

    async fn account_ratings(&self, account: &str) -> Result<Vec<crate::store::RatingRow>, StoreError> {
        self.ratings_of(account).await
    }

    async fn rating_history(&self, account: &str, limit: usize) -> Result<Vec<crate::store::HistoryRow>, StoreError> {
        self.ratings_history(account, limit).await
    }

    async fn account_games(&self, account: &str, limit: usize) -> Result<Vec<crate::store::AccountGame>, StoreError> {
        self.ratings_account_games(account, limit).await
    }

    async fn account_names(&self, ids: &[String]) -> Result<Vec<(String, String)>, StoreError> {
        self.ratings_account_names(ids).await
    }

    async fn leaderboard(
        &self,
        pool: &str,
        min_games: i64,
        limit: usize,
    ) -> Result<Vec<(String, crate::store::RatingRow)>, StoreError> {
        self.ratings_leaderboard(pool, min_games, limit).await
    }

    async fn forget_account_seats(&self, account: &str) -> Result<(), StoreError> {
        self.ratings_forget_account(account).await
    }

    async fn unsettled_ratings(&self, before: i64, limit: usize) -> Result<Vec<(String, Vec<u32>)>, StoreError> {
        self.ratings_unsettled(before, limit).await
    }

    // ---- Chat and rematch ----

    async fn add_chat(&self, id: &str, m: &ChatMessage, max: usize) -> Result<Option<u64>, StoreError> {
        let conn = self.conn().await?;
        let st = conn
            .prepare_cached(
                "INSERT INTO chat_messages (game_id, seq, seat, author, name, text, at)
                 SELECT $1::text, (SELECT COALESCE(MAX(seq), 0) + 1 FROM chat_messages WHERE game_id = $1::text),
                        $2::int, $3::text, $4::text, $5::text, $6::bigint
                 WHERE (SELECT COUNT(*) FROM chat_messages WHERE game_id = $1::text) < $7::bigint
                 RETURNING seq",
            )
            .await?;
        let seat = m.seat.map(i32::from);
        let max = max as i64;
        // Two servers numbering a message at once: the second tries again.
        for _ in 0..8 {
            match conn.query_opt(&st, &[&id, &seat, &m.author, &m.name, &m.text, &m.at, &max]).await {
                Ok(row) => return Ok(row.map(|r| r.try_get::<_, i64>(0)).transpose()?.map(|s| s as u64)),
                Err(e) if is_unique_violation(&e) => continue,
                Err(e) => return Err(e.into()),
            }
        }
        Err(StoreError::failed("too many chat messages at once"))
    }

    async fn chat(&self, id: &str) -> Result<Vec<ChatMessage>, StoreError> {
        let rows = self
            .conn()
            .await?
            .query(
                "SELECT seq, seat, author, name, text, at FROM chat_messages WHERE game_id = $1 ORDER BY seq",
                &[&id],
            )
            .await?;
        rows.iter().map(|r| chat_message(r, 0)).collect()
    }

    async fn chat_settings(&self, id: &str) -> Result<ChatSettings, StoreError> {
        let conn = self.conn().await?;
        let off = conn.query_opt("SELECT 1 FROM chat_off WHERE game_id = $1", &[&id]).await?.is_some();
        let rows = conn.query("SELECT seat FROM chat_consent WHERE game_id = $1 ORDER BY seat", &[&id]).await?;
        let consent = rows.iter().map(|r| Ok(r.try_get::<_, i32>(0)? as u8)).collect::<Result<_, StoreError>>()?;
        Ok(ChatSettings { off, consent })
    }

    async fn set_chat_off(&self, id: &str) -> Result<(), StoreError> {
        self.conn().await?.execute("INSERT INTO chat_off (game_id) VALUES ($1) ON CONFLICT DO NOTHING", &[&id]).await?;
        Ok(())
    }

    async fn set_chat_consent(&self, id: &str, seat: u8, agree: bool) -> Result<(), StoreError> {
        let sql = if agree {
            "INSERT INTO chat_consent (game_id, seat) VALUES ($1, $2) ON CONFLICT DO NOTHING"
        } else {
            "DELETE FROM chat_consent WHERE game_id = $1 AND seat = $2"
        };
        let conn = self.conn().await?;
        conn.execute(AFTER_GAME_CHANGED, &[&id]).await?;
        conn.execute(sql, &[&id, &i32::from(seat)]).await?;
        Ok(())
    }

    async fn accept_rematch(&self, id: &str, seat: u8, token_hash: &str) -> Result<bool, StoreError> {
        let conn = self.conn().await?;
        conn.execute(AFTER_GAME_CHANGED, &[&id]).await?;
        let n = conn
            .execute(
                "INSERT INTO rematch_accepts (game_id, seat, token_hash) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
                &[&id, &i32::from(seat), &token_hash],
            )
            .await?;
        Ok(n == 1)
    }

    async fn rematch(&self, id: &str) -> Result<Rematch, StoreError> {
        let conn = self.conn().await?;
        let rows =
            conn.query("SELECT seat, token_hash FROM rematch_accepts WHERE game_id = $1 ORDER BY seat", &[&id]).await?;
        let accepted = rows
            .iter()
            .map(|r| Ok((r.try_get::<_, i32>(0)? as u8, r.try_get(1)?)))
            .collect::<Result<_, StoreError>>()?;
        let game = conn
            .query_opt("SELECT new_game_id FROM rematches WHERE game_id = $1", &[&id])
            .await?
            .map(|r| r.try_get(0))
            .transpose()?;
        Ok(Rematch { accepted, game })
    }

    async fn claim_rematch(&self, id: &str, new_id: &str) -> Result<bool, StoreError> {
        let conn = self.conn().await?;
        conn.execute(AFTER_GAME_CHANGED, &[&id]).await?;
        let n = conn
            .execute(
                "INSERT INTO rematches (game_id, new_game_id) VALUES ($1, $2) ON CONFLICT DO NOTHING",
                &[&id, &new_id],
            )
            .await?;
        Ok(n == 1)
    }

    async fn vapid_key(&self, candidate: &str, now: i64) -> Result<String, StoreError> {
        let conn = self.conn().await?;
        conn.execute(
            "INSERT INTO push_keys (id, private_key, created_at) VALUES (1, $1, $2) ON CONFLICT (id) DO NOTHING",
            &[&candidate, &now],
        )
        .await?;
        Ok(conn.query_one("SELECT private_key FROM push_keys WHERE id = 1", &[]).await?.try_get(0)?)
    }

    async fn push_subscribe(
        &self,
        sub: &PushSubscription,
        per_endpoint: usize,
        per_target: usize,
    ) -> Result<bool, StoreError> {
        let mut conn = self.conn().await?;
        let tx = conn.transaction().await?;
        // Servers subscribing the same endpoint or target at once take turns.
        tx.execute(
            "SELECT pg_advisory_xact_lock(hashtext('push:' || $1)), pg_advisory_xact_lock(hashtext('push:' || $2))",
            &[&sub.endpoint, &sub.target],
        )
        .await?;
        let renewed = tx
            .execute(
                "UPDATE push_subscriptions SET p256dh = $3, auth = $4, lang = $5 WHERE endpoint = $1 AND target = $2",
                &[&sub.endpoint, &sub.target, &sub.p256dh, &sub.auth, &sub.lang],
            )
            .await?;
        if renewed == 0 {
            let by_endpoint: i64 = tx
                .query_one("SELECT count(*) FROM push_subscriptions WHERE endpoint = $1", &[&sub.endpoint])
                .await?
                .try_get(0)?;
            let by_target: i64 = tx
                .query_one("SELECT count(*) FROM push_subscriptions WHERE target = $1", &[&sub.target])
                .await?
                .try_get(0)?;
            if by_endpoint as usize >= per_endpoint || by_target as usize >= per_target {
                return Ok(false);
            }
            tx.execute(
                &format!("INSERT INTO push_subscriptions ({PUSH_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)"),
                &[
                    &sub.endpoint,
                    &sub.p256dh,
                    &sub.auth,
                    &sub.target,
                    &sub.game_id,
                    &sub.account,
                    &sub.created_at,
                    &sub.lang,
                ],
            )
            .await?;
        }
        tx.commit().await?;
        Ok(true)
    }

    async fn push_unsubscribe(&self, endpoint: &str, target: Option<&str>) -> Result<u64, StoreError> {
        Ok(self
            .conn()
            .await?
            .execute(
                "DELETE FROM push_subscriptions WHERE endpoint = $1 AND ($2::TEXT IS NULL OR target = $2)",
                &[&endpoint, &target],
            )
            .await?)
    }

    async fn push_subscriptions(&self, target: &str) -> Result<Vec<PushSubscription>, StoreError> {
        let sql = format!("SELECT {PUSH_COLUMNS} FROM push_subscriptions WHERE target = $1 ORDER BY created_at");
        let rows = self.conn().await?.query(&sql, &[&target]).await?;
        rows.iter()
            .map(|r| {
                Ok(PushSubscription {
                    endpoint: r.try_get(0)?,
                    p256dh: r.try_get(1)?,
                    auth: r.try_get(2)?,
                    target: r.try_get(3)?,
                    game_id: r.try_get(4)?,
                    account: r.try_get(5)?,
                    created_at: r.try_get(6)?,
                    lang: r.try_get(7)?,
                })
            })
            .collect()
    }

    async fn push_invite_taken(&self, game: &str, seat: u8) -> Result<bool, StoreError> {
        let n = self
            .conn()
            .await?
            .execute(
                "INSERT INTO push_invites (game_id, seat) VALUES ($1, $2) ON CONFLICT DO NOTHING",
                &[&game, &i32::from(seat)],
            )
            .await?;
        Ok(n == 1)
    }

    // Clocks (services/clock.rs).

    async fn save_clock(&self, id: &str, clock: &str, deadline: Option<i64>) -> Result<(), StoreError> {
        let conn = self.conn().await?;
        let save =
            conn.prepare_cached("UPDATE games SET clock = $2, deadline = $3, stored_at = now() WHERE id = $1").await?;
        conn.execute(&save, &[&id, &clock, &deadline]).await?;
        Ok(())
    }

    async fn swap_clock(
        &self,
        id: &str,
        expected: Option<i64>,
        clock: &str,
        deadline: Option<i64>,
    ) -> Result<bool, StoreError> {
        let conn = self.conn().await?;
        let swap = conn
            .prepare_cached(
                // (`stored_at`: a feed that was away announces it, `Listener::session`.)
                "UPDATE games SET clock = $2, deadline = $3, stored_at = now()
                 WHERE id = $1 AND deadline IS NOT DISTINCT FROM $4",
            )
            .await?;
        Ok(conn.execute(&swap, &[&id, &clock, &deadline, &expected]).await? == 1)
    }

    async fn load_clock(&self, id: &str) -> Result<Option<String>, StoreError> {
        let conn = self.conn().await?;
        let row = conn.query_opt("SELECT clock FROM games WHERE id = $1", &[&id]).await?;
        Ok(match row {
            Some(r) => r.try_get::<_, Option<String>>(0)?,
            None => None,
        })
    }

    async fn due_clocks(&self, now: i64, limit: usize) -> Result<Vec<String>, StoreError> {
        let limit = limit.min(i64::MAX as usize) as i64;
        let conn = self.conn().await?;
        let rows = conn
            .query(
                "SELECT id FROM games WHERE deadline IS NOT NULL AND deadline <= $1 ORDER BY deadline LIMIT $2",
                &[&now, &limit],
            )
            .await?;
        rows.iter().map(|r| Ok(r.try_get::<_, String>(0)?)).collect()
    }

    async fn turns_of(&self, ids: &[String]) -> Result<Vec<TurnOf>, StoreError> {
        let conn = self.conn().await?;
        let rows = conn.query("SELECT id, seats, progress, deadline FROM games WHERE id = ANY($1)", &[&ids]).await?;
        rows.iter()
            .map(|r| {
                Ok(TurnOf {
                    id: r.try_get(0)?,
                    seats: serde_json::from_str(r.try_get::<_, &str>(1)?)?,
                    progress: serde_json::from_str(r.try_get::<_, &str>(2)?)?,
                    deadline: r.try_get(3)?,
                })
            })
            .collect()
    }

    // Lobby: in store_pg/lobby.rs.
    async fn lobby_open(&self, row: &LobbyRow, per_owner: usize, total: usize) -> Result<bool, StoreError> {
        lobby::open(self, row, per_owner, total).await
    }

    async fn lobby_tables(&self, limit: usize) -> Result<Vec<LobbyRow>, StoreError> {
        lobby::tables(self, limit).await
    }

    async fn lobby_table(&self, id: &str) -> Result<Option<LobbyRow>, StoreError> {
        lobby::table(self, id).await
    }

    async fn lobby_update(&self, id: &str, version: i64, next: Option<(&str, bool, i64)>) -> Result<bool, StoreError> {
        lobby::update(self, id, version, next).await
    }

    async fn lobby_sweep(&self, when: LobbySweep) -> Result<Vec<String>, StoreError> {
        lobby::sweep(self, when).await
    }

    async fn lobby_wait(&self, w: &Waiting, per_owner: usize, total: usize) -> Result<bool, StoreError> {
        lobby::wait(self, w, per_owner, total).await
    }

    async fn lobby_waiting(&self, id: &str, seen_at: Option<i64>) -> Result<Option<Waiting>, StoreError> {
        lobby::waiting(self, id, seen_at).await
    }

    async fn lobby_waiters(&self, seen_after: i64, limit: usize) -> Result<Vec<Waiting>, StoreError> {
        lobby::waiters(self, seen_after, limit).await
    }

    async fn lobby_pair(&self, ids: &[String], game: &str) -> Result<bool, StoreError> {
        lobby::pair(self, ids, game).await
    }

    async fn lobby_cancel(&self, id: &str) -> Result<bool, StoreError> {
        lobby::cancel(self, id).await
    }

    async fn claim_bots(&self, id: &str) -> Result<bool, StoreError> {
        let conn = self.conn().await?;
        let claim = conn
            .prepare_cached(
                "WITH mine AS (
                    INSERT INTO bot_leases (game_id, server) VALUES ($1, $2)
                    ON CONFLICT (game_id) DO NOTHING RETURNING server
                 )
                 SELECT server FROM mine UNION ALL SELECT server FROM bot_leases WHERE game_id = $1",
            )
            .await?;
        let row = conn.query_opt(&claim, &[&id, &self.server]).await?;
        Ok(match row {
            Some(row) => row.try_get::<_, &str>(0)? == self.server,
            None => false,
        })
    }

    async fn release_bots(&self, id: &str) -> Result<(), StoreError> {
        let conn = self.conn().await?;
        let release = conn.prepare_cached("DELETE FROM bot_leases WHERE game_id = $1 AND server = $2").await?;
        conn.execute(&release, &[&id, &self.server]).await?;
        Ok(())
    }

    async fn publish(&self, change: &Change) -> Result<(), StoreError> {
        let payload = serde_json::to_string(change)?;
        match change {
            Change::Presence { game, online, .. } => {
                let conn = self.conn().await?;
                // Kept for servers that open the game later, and announced.
                let sql = if online.iter().all(|n| *n == 0) {
                    "WITH kept AS (DELETE FROM presence WHERE game_id = $1 AND server = $2 AND $3::text IS NOT NULL)
                     SELECT pg_notify($4, $5)"
                } else {
                    "WITH kept AS (
                        INSERT INTO presence (game_id, server, online) VALUES ($1, $2, $3)
                        ON CONFLICT (game_id, server) DO UPDATE SET online = EXCLUDED.online
                     )
                     SELECT pg_notify($4, $5)"
                };
                let statement = conn.prepare_cached(sql).await?;
                let online = serde_json::to_string(online)?;
                conn.execute(&statement, &[game, &self.server, &online, &EVENTS, &payload]).await?;
                Ok(())
            }
            Change::Thinking { .. }
            | Change::Chat { .. }
            | Change::Rematch { .. }
            | Change::Clock { .. }
            | Change::Lobby { .. } => self.notify(EVENTS, &payload).await,
            Change::Moved(_) | Change::Gone { .. } | Change::PresenceAll { .. } => Ok(()),
        }
    }

    async fn presence(&self, id: &str) -> Result<Vec<(String, Vec<u32>)>, StoreError> {
        let conn = self.conn().await?;
        let rows = conn
            .query("SELECT server, online FROM presence WHERE game_id = $1 AND server <> $2", &[&id, &self.server])
            .await?;
        rows.iter().map(|r| Ok((r.try_get::<_, String>(0)?, serde_json::from_str(r.try_get::<_, &str>(1)?)?))).collect()
    }

    async fn beat(&self) -> Result<Beat, StoreError> {
        let mut conn = self.conn().await?;
        let tx = conn.transaction().await?;
        let touched = tx.execute("UPDATE servers SET seen_at = now() WHERE id = $1", &[&self.server]).await?;
        let rejoined = touched == 0;
        if rejoined {
            tracing::warn!(server = %self.server, "this server was taken for dead (a late heartbeat): joining again");
            tx.execute("INSERT INTO servers (id) VALUES ($1)", &[&self.server]).await?;
        }
        // Servers that stopped beating go, with their leases and presence.
        let dead = DEAD_AFTER.as_secs_f64();
        let gone = tx
            .query("DELETE FROM servers WHERE seen_at < now() - make_interval(secs => $1) RETURNING id", &[&dead])
            .await?;
        for row in &gone {
            let server: String = row.try_get(0)?;
            tracing::warn!(server = %server, "a server stopped answering: its bots and players are let go");
            let payload = serde_json::to_string(&Change::Gone { server })?;
            tx.execute("SELECT pg_notify($1, $2)", &[&EVENTS, &payload]).await?;
        }
        let servers = tx.query("SELECT id FROM servers ORDER BY id", &[]).await?;
        let servers = servers.iter().map(|r| r.try_get(0)).collect::<Result<Vec<String>, _>>()?;
        let orphan_after = ORPHAN_AFTER.as_secs_f64();
        let claimed = tx
            .query(
                "INSERT INTO bot_leases (game_id, server)
                 SELECT g.id, $1 FROM games g
                 WHERE g.bot_turn AND g.stored_at < now() - make_interval(secs => $2)
                   AND NOT EXISTS (SELECT 1 FROM bot_leases l WHERE l.game_id = g.id)
                 ORDER BY g.stored_at LIMIT $3
                 ON CONFLICT (game_id) DO NOTHING RETURNING game_id",
                &[&self.server, &orphan_after, &CLAIMS_PER_BEAT],
            )
            .await?;
        let claimed = claimed.iter().map(|r| r.try_get(0)).collect::<Result<Vec<String>, _>>()?;
        tx.commit().await?;
        Ok(Beat { servers, claimed, rejoined })
    }

    async fn leave(&self) -> Result<(), StoreError> {
        let payload = serde_json::to_string(&Change::Gone { server: self.server.clone() })?;
        self.conn()
            .await?
            .execute(
                "WITH gone AS (DELETE FROM servers WHERE id = $1) SELECT pg_notify($2, $3)",
                &[&self.server, &EVENTS, &payload],
            )
            .await?;
        Ok(())
    }

    // Passkeys (store/passkeys.rs).

    async fn save_passkey_challenge(&self, challenge: &PasskeyChallenge, now: i64) -> Result<(), StoreError> {
        let conn = self.conn().await?;
        passkeys_sql::save_challenge(&conn, challenge, now).await
    }

    async fn take_passkey_challenge(
        &self,
        id_hash: &str,
        kind: &str,
        now: i64,
    ) -> Result<Option<PasskeyChallenge>, StoreError> {
        let conn = self.conn().await?;
        passkeys_sql::take_challenge(&conn, id_hash, kind, now).await
    }

    async fn add_passkey(&self, passkey: &StoredPasskey, max: usize) -> Result<bool, StoreError> {
        let conn = self.conn().await?;
        passkeys_sql::add(&conn, passkey, max).await
    }

    async fn passkeys(&self, account: &str) -> Result<Vec<StoredPasskey>, StoreError> {
        let conn = self.conn().await?;
        passkeys_sql::list(&conn, account).await
    }

    async fn passkey_by_credential(&self, credential_id: &str) -> Result<Option<(StoredPasskey, Account)>, StoreError> {
        let conn = self.conn().await?;
        passkeys_sql::by_credential(&conn, credential_id).await
    }

    async fn passkey_used(&self, credential_id: &str, passkey: &str, now: i64) -> Result<bool, StoreError> {
        let conn = self.conn().await?;
        passkeys_sql::used(&conn, credential_id, passkey, now).await
    }

    async fn delete_passkey(&self, account: &str, credential_id: &str) -> Result<bool, StoreError> {
        let conn = self.conn().await?;
        passkeys_sql::delete(&conn, account, credential_id).await
    }
}

/// Notes that game `$1`'s chat consent or rematch changes now (before the
/// change itself): a change feed that was away looks back for them.
const AFTER_GAME_CHANGED: &str = "INSERT INTO after_game_changes (game_id, at)
     VALUES ($1, (extract(epoch FROM now()) * 1000)::bigint)
     ON CONFLICT (game_id) DO UPDATE SET at = EXCLUDED.at";

/// A chat message from a row whose columns from `first` on are `seq, seat,
/// author, name, text, at`.
fn chat_message(r: &tokio_postgres::Row, first: usize) -> Result<ChatMessage, StoreError> {
    Ok(ChatMessage {
        seq: r.try_get::<_, i64>(first)? as u64,
        seat: r.try_get::<_, Option<i32>>(first + 1)?.map(|s| s as u8),
        author: r.try_get(first + 2)?,
        name: r.try_get(first + 3)?,
        text: r.try_get(first + 4)?,
        at: r.try_get(first + 5)?,
    })
}

/// How often the change feed checks that its connection is alive.
const FEED_HEARTBEAT: Duration = Duration::from_secs(10);

/// How far before the last sign of life a reconnected feed looks for moves
/// it may have missed (a move stored by a transaction that began earlier
/// and committed while the feed was away).
const MISSED_MARGIN_SECS: f64 = 60.0;

/// The longest wait between two attempts to reconnect the change feed.
const MAX_BACKOFF: Duration = Duration::from_secs(30);

/// The change feed: `LISTEN` on a connection of its own, reconnecting with
/// backoff when it is lost, until the server stops reading.
struct Listener {
    config: Config,
    tls: Tls,
    shown: String,
    /// Where the first session looks back from.
    since: SystemTime,
    tx: UnboundedSender<Change>,
    /// Set while a session listens (the server's health says so).
    listening: Arc<AtomicBool>,
}

/// Why a listening session ended.
enum Ended {
    /// Nobody reads the news any more.
    Closed,
    /// The connection failed.
    Lost(String),
}

impl Listener {
    async fn run(self) {
        let mut config = self.config.clone();
        let name = format!("{}:listen", config.get_application_name().unwrap_or("carcassonne"));
        config.application_name(&name);
        // The database's clock when the feed was last known to be listening
        // (at first: when the store was opened).
        let mut alive = self.since;
        let mut first = true;
        let mut backoff = Duration::from_millis(200);
        loop {
            let ended = self.session(&config, &mut alive, std::mem::take(&mut first)).await;
            // A session that listened was a success: the next attempt comes soon.
            let listened = self.listening.swap(false, Ordering::Relaxed);
            match ended {
                Ended::Closed => return,
                Ended::Lost(why) => {
                    if listened {
                        backoff = Duration::from_millis(200);
                    }
                    tracing::warn!(db = %self.shown, error = %why, retry_in = ?backoff,
                        "lost the PostgreSQL change feed; reconnecting");
                    tokio::select! {
                        () = tokio::time::sleep(backoff) => {}
                        () = self.tx.closed() => return,
                    }
                    backoff = (backoff * 2).min(MAX_BACKOFF);
                }
            }
        }
    }

    fn send(&self, change: Change) -> bool {
        self.tx.send(change).is_ok()
    }

    /// One connection's worth of listening.
    async fn session(&self, config: &Config, alive: &mut SystemTime, first: bool) -> Ended {
        let lost = |e: tokio_postgres::Error| Ended::Lost(describe(&e));
        let (client, mut notes) = match self.tls.connect(config).await {
            Ok(c) => c,
            Err(e) => return lost(e),
        };
        if let Err(e) = client.batch_execute(&format!("LISTEN {CHANNEL}; LISTEN {EVENTS}")).await {
            return lost(e);
        }
        let now = match client.query_one("SELECT now()", &[]).await.and_then(|r| r.try_get::<_, SystemTime>(0)) {
            Ok(t) => t,
            Err(e) => return lost(e),
        };
        // Announce what was stored while the feed was not listening (before
        // its first session, or since its last sign of life): the moves, and
        // the clocks (a time that ran out, a seat handed to a bot).
        let since = std::mem::replace(alive, now);
        let missed = client
            .query(
                "SELECT id, moves, clock IS NOT NULL FROM games
                 WHERE stored_at >= $1::timestamptz - make_interval(secs => $2)",
                &[&since, &MISSED_MARGIN_SECS],
            )
            .await;
        let missed = match missed {
            Ok(rows) => rows,
            Err(e) => return lost(e),
        };
        if first {
            tracing::debug!(db = %self.shown, "following PostgreSQL's changes");
        } else {
            tracing::info!(db = %self.shown, games = missed.len(), "the PostgreSQL change feed is back");
        }
        for row in missed {
            if let (Ok(id), Ok(moves)) = (row.try_get::<_, String>(0), row.try_get::<_, i64>(1)) {
                let clock = row.try_get::<_, bool>(2).unwrap_or(true).then(|| Change::Clock { game: id.clone() });
                // The move first: a server reads the clocks once caught up.
                let moved = Change::Moved(GameChanged { id, moves: moves.max(0) as usize });
                if !self.send(moved) || clock.is_some_and(|c| !self.send(c)) {
                    return Ended::Closed;
                }
            }
        }
        // Who is here through each server (players who came or left meanwhile).
        let present = match client.query("SELECT game_id, server, online FROM presence", &[]).await {
            Ok(rows) => rows,
            Err(e) => return lost(e),
        };
        let present = present
            .iter()
            .filter_map(|r| {
                let online = serde_json::from_str(r.try_get::<_, &str>(2).ok()?).ok()?;
                Some((r.try_get(0).ok()?, r.try_get(1).ok()?, online))
            })
            .collect();
        if !self.send(Change::PresenceAll { present }) {
            return Ended::Closed;
        }
        // The lobby's tables are read again (one may have opened or closed meanwhile).
        if !self.send(Change::Lobby { table: String::new() }) {
            return Ended::Closed;
        }
        // And the chat messages written meanwhile: a message reaches the
        // other servers only as news. Told again to the sockets of a game
        // here; a page keeps one message per number, so one it had stays one.
        let from_ms = since.duration_since(SystemTime::UNIX_EPOCH).map_or(0, |d| d.as_millis() as i64)
            - (MISSED_MARGIN_SECS * 1000.0) as i64;
        let lines = client
            .query(
                "SELECT game_id, seq, seat, author, name, text, at FROM chat_messages
                 WHERE at >= $1::bigint ORDER BY game_id, seq",
                &[&from_ms],
            )
            .await;
        let lines = match lines {
            Ok(rows) => rows,
            Err(e) => return lost(e),
        };
        for row in lines {
            if let (Ok(game), Ok(message)) = (row.try_get::<_, String>(0), chat_message(&row, 1)) {
                // From no server: every server, the writer's too, tells it.
                if !self.send(Change::Chat { game, server: String::new(), message }) {
                    return Ended::Closed;
                }
            }
        }
        // And the games whose chat consent or rematch changed meanwhile.
        let changed = client.query("SELECT game_id FROM after_game_changes WHERE at >= $1::bigint", &[&from_ms]).await;
        let changed = match changed {
            Ok(rows) => rows,
            Err(e) => return lost(e),
        };
        for row in changed {
            if let Ok(game) = row.try_get::<_, String>(0) {
                if !self.send(Change::Rematch { game, server: String::new() }) {
                    return Ended::Closed;
                }
            }
        }
        self.listening.store(true, Ordering::Relaxed);
        let mut beat = tokio::time::interval(FEED_HEARTBEAT);
        beat.tick().await;
        loop {
            tokio::select! {
                note = notes.recv() => {
                    let Some(note) = note else { return Ended::Lost("the connection closed".into()) };
                    match read_note(&note) {
                        Some(change) => {
                            if !self.send(change) {
                                return Ended::Closed;
                            }
                        }
                        None => tracing::warn!(channel = note.channel(), payload = note.payload(), "an unreadable notice"),
                    }
                }
                _ = beat.tick() => {
                    // A connection that died quietly shows up here.
                    match client.query_one("SELECT now()", &[]).await.and_then(|r| r.try_get::<_, SystemTime>(0)) {
                        Ok(t) => *alive = t,
                        Err(e) => return lost(e),
                    }
                }
                () = self.tx.closed() => return Ended::Closed,
            }
        }
    }
}

/// A notification read: a move (`"<game id>:<moves>"` on [`CHANNEL`]) or
/// other news (JSON on [`EVENTS`]).
fn read_note(note: &Notification) -> Option<Change> {
    if note.channel() == EVENTS {
        return serde_json::from_str(note.payload()).ok();
    }
    let (id, moves) = parse_note(note.payload())?;
    Some(Change::Moved(GameChanged { id, moves }))
}

/// A notification's payload: `"<game id>:<moves>"`.
fn parse_note(payload: &str) -> Option<(String, usize)> {
    let (id, moves) = payload.rsplit_once(':')?;
    Some((id.to_string(), moves.parse().ok()?))
}

fn account_row(r: &tokio_postgres::Row) -> Result<Account, StoreError> {
    Ok(Account {
        id: r.try_get(0)?,
        name: r.try_get(1)?,
        name_key: r.try_get(2)?,
        password: r.try_get(3)?,
        recovery: r.try_get(4)?,
        created_at: r.try_get(5)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn postgres_urls_are_told_from_sqlite_paths() {
        assert!(is_postgres_url("postgres://u:p@h/db"));
        assert!(is_postgres_url("postgresql://h/db"));
        assert!(is_postgres_url("PostgreSQL://h/db"));
        assert!(!is_postgres_url("carcassonne.db"));
        assert!(!is_postgres_url("/var/lib/postgres/games.db"));
        assert!(!is_postgres_url("postgres:"));
        assert!(!is_postgres_url(""));
    }

    #[test]
    fn passwords_never_show() {
        assert_eq!(
            redact_url("postgres://ada:s3cret@db.example:5433/games"),
            "postgres://ada:***@db.example:5433/games"
        );
        assert_eq!(redact_url("postgresql://ada@localhost/games"), "postgres://ada@localhost:5432/games");
        let q = redact_url("postgres://ada@localhost/games?password=s3cret&application_name=x");
        assert!(!q.contains("s3cret"), "{q}");
        assert!(q.contains("***"), "{q}");
        let odd = redact_url("postgres://ada:p%40ss%2Fw@h/db");
        assert!(!odd.contains("p%40") && !odd.contains("p@ss"), "{odd}");
        // Unparseable: nothing of it is shown.
        let bad = redact_url("postgres://ada:s3cret@h:notaport/db");
        assert!(!bad.contains("s3cret"), "{bad}");
    }

    #[tokio::test]
    async fn a_bad_url_is_a_clear_error_without_the_password() {
        let Err(e) = PgStore::open("postgres://ada:s3cret@h:notaport/db").await else { panic!("opened") };
        let text = e.to_string();
        assert!(text.contains("--db") && text.contains("PostgreSQL URL"), "{text}");
        assert!(!text.contains("s3cret"), "{text}");
    }

    #[test]
    fn notices_are_read_and_junk_is_not() {
        assert_eq!(parse_note("abc:12"), Some(("abc".into(), 12)));
        assert_eq!(parse_note("abc"), None);
        assert_eq!(parse_note("abc:-1"), None);
        assert_eq!(parse_note("abc:x"), None);
    }
}

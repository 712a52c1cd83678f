//! The PostgreSQL backend: one database shared by several servers.
//!
//! The tables are those of the SQLite backend (a game's setup and seats, its
//! progress, one row per move), brought up to date by numbered migrations
//! under an advisory lock, so that servers starting together do not trip
//! over each other. The repositories speak to the database through an async
//! driver (tokio-postgres) and a pool of connections (deadpool), with TLS
//! when the URL asks for it (`sslmode=require`). What makes several servers
//! one game (the change feed, heartbeats, bot leases, presence) is the
//! cluster's repository (`cluster/pg.rs`, `cluster/feed.rs`).

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use deadpool_postgres::{Manager, ManagerConfig, Pool, RecyclingMethod, Runtime};
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::sync::mpsc::{unbounded_channel, UnboundedReceiver};
use tokio_postgres::config::SslMode;
use tokio_postgres::{AsyncMessage, Client, Config, NoTls, Notification};
use tokio_postgres_rustls::MakeRustlsConnect;

use super::error::{describe, StoreError};

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
        name_key    TEXT NOT NULL UNIQUE, -- as compared (names::name_key)
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
    super::ratings::PG_SCHEMA,
    // 8: passkeys and passkey ceremonies begun (store/passkeys.rs).
    super::accounts::PASSKEYS_PG_SCHEMA,
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
    super::push::SCHEMA,
    // 11: clocks: each seat's time and the deadline of the move to make now.
    "ALTER TABLE games ADD COLUMN clock TEXT;       -- JSON (services/clock.rs ClockState)
    ALTER TABLE games ADD COLUMN deadline BIGINT;   -- Unix ms; NULL: untimed, a bot's, over
    CREATE INDEX games_by_deadline ON games (deadline) WHERE deadline IS NOT NULL;",
    // 12: the lobby's tables (the body is the service's JSON; `version`
    // makes every change conditional) and the players waiting for "Play now".
    "CREATE TABLE lobby_tables (
        id          TEXT PRIMARY KEY,
        owner       TEXT NOT NULL,     -- the host's account or address
        body        TEXT NOT NULL,     -- JSON (services/lobby/)
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
        body        TEXT NOT NULL,     -- JSON (services/lobby/)
        since       BIGINT NOT NULL,   -- Unix ms
        seen_at     BIGINT NOT NULL,   -- Unix ms, last asked about
        game        TEXT,              -- the game paired into
        seat        BIGINT
    );
    CREATE INDEX lobby_waiting_by_seen ON lobby_waiting (seen_at);",
    // 13: the language of a push subscription's notifications.
    super::push::LANG_SCHEMA,
    // 14: for the change feed's look back: chat messages by time, and when
    // a game's chat consent or rematch last changed (Unix ms, the
    // database's clock).
    "CREATE INDEX chat_messages_by_time ON chat_messages (at);
    CREATE TABLE after_game_changes (
        game_id     TEXT PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
        at          BIGINT NOT NULL
    );
    CREATE INDEX after_game_changes_by_time ON after_game_changes (at);",
    // 15: accounts' name keys with the confusables skeleton (done in Rust:
    // `rekey_accounts`).
    "",
    // 16: the devices that signed in to an account.
    super::accounts::DEVICES_SCHEMA,
    // 17: the address each seat of a rated game was taken from.
    super::ratings::SEAT_ADDRESS_SCHEMA,
    // 18: the chat's parts and spectators (store/chat/).
    super::chat::PG_SPECTATORS,
    // 19: whose share each push subscription counts in.
    super::push::OWNER_SCHEMA,
    // 20: whose each game and saved rule set is (the hash of the client
    // address it came from): what one address keeps is bounded.
    "ALTER TABLE games ADD COLUMN owner TEXT;
     CREATE INDEX games_by_owner ON games(owner, created_at);
     ALTER TABLE rule_sets ADD COLUMN address TEXT;
     CREATE INDEX rule_sets_by_address ON rule_sets(address);",
    // 21: the lobby's people: a table's host's address and history; a
    // wait's person (address, account, device) and history, and whether its
    // game is made or only claimed (store/lobby/mod.rs).
    super::lobby::PG_SCHEMA,
    // 22: blocks, reports and sanctions; each chat line's author account
    // (store/moderation/).
    super::moderation::PG_SCHEMA,
    // 23: a game's takeback request (store/takebacks/).
    super::takebacks::SCHEMA,
    // 24: sign-in attempts, counted once for every server (store/accounts/).
    super::accounts::ATTEMPTS_SCHEMA,
    // 25: which spectators' messages are in the reserve of those with a
    // history (store/chat/).
    super::chat::PG_KEPT,
];

/// The most connections one server keeps open for requests (the change
/// feed has one more of its own).
const POOL_SIZE: usize = 16;

/// How long a request waits for a connection, and a connection for the server.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// How connections are secured: as the URL's `sslmode` says.
#[derive(Clone)]
pub(crate) enum Tls {
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
    pub(crate) async fn connect(
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

/// A PostgreSQL database that several servers may share, and this
/// server's place among them.
pub(crate) struct Pg {
    pub(crate) pool: Pool,
    pub(crate) config: Config,
    pub(crate) tls: Tls,
    /// The URL without its password, for logs and errors.
    pub(crate) shown: String,
    /// The database's clock when the store was opened: the change feed,
    /// once listening, announces what was stored since (games loaded before
    /// it listened must not miss a move).
    pub(crate) opened_at: SystemTime,
    /// Whether the change feed listens now (once started).
    pub(crate) listening: Arc<AtomicBool>,
    pub(crate) feed_started: AtomicBool,
    /// This server's name in `servers`.
    pub(crate) server: String,
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

/// A name for this server: random, so that a restarted server is a new one.
fn new_server_name() -> Result<String, StoreError> {
    let mut bytes = [0u8; 6];
    getrandom::fill(&mut bytes).map_err(|e| StoreError::failed(format!("no randomness: {e}")))?;
    Ok(format!("s-{}", bytes.iter().map(|b| format!("{b:02x}")).collect::<String>()))
}

impl Pg {
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
    pub async fn open(url: &str) -> Result<Pg, StoreError> {
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
        Ok(Pg {
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

    pub(crate) async fn conn(&self) -> Result<deadpool_postgres::Object, StoreError> {
        self.pool
            .get()
            .await
            .map_err(|e| StoreError::failed(format!("PostgreSQL at {}: no connection: {e}", self.shown)))
    }

    /// Runs one statement that notifies `channel` of `payload` (with whatever it does first).
    pub(crate) async fn notify(&self, channel: &str, payload: &str) -> Result<(), StoreError> {
        self.conn().await?.execute("SELECT pg_notify($1, $2)", &[&channel, &payload]).await?;
        Ok(())
    }
}

/// Migration 15: every account's `name_key` again (`accounts::rekeyed`).
async fn rekey_accounts(tx: &tokio_postgres::Transaction<'_>) -> Result<(), StoreError> {
    let rows = tx.query("SELECT id, name FROM accounts ORDER BY created_at, id", &[]).await?;
    let rows: Vec<(String, String)> =
        rows.iter().map(|r| Ok((r.try_get(0)?, r.try_get(1)?))).collect::<Result<_, StoreError>>()?;
    tx.execute(super::accounts::REKEY_TEMPORARY, &[]).await?;
    for (id, key) in super::accounts::rekeyed(&rows) {
        tx.execute("UPDATE accounts SET name_key = $2 WHERE id = $1", &[&id, &key]).await?;
    }
    Ok(())
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
        if i + 1 == 15 {
            rekey_accounts(&tx).await?;
        }
        tx.execute("UPDATE schema_version SET version = $1", &[&(i as i32 + 1)]).await?;
    }
    tx.commit().await?;
    if from < known {
        tracing::info!(from, to = known, "PostgreSQL schema migrated");
    }
    Ok(())
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
        let Err(e) = Pg::open("postgres://ada:s3cret@h:notaport/db").await else { panic!("opened") };
        let text = e.to_string();
        assert!(text.contains("--db") && text.contains("PostgreSQL URL"), "{text}");
        assert!(!text.contains("s3cret"), "{text}");
    }
}

//! Games in PostgreSQL: one database shared by several servers.
//!
//! The tables are those of the SQLite store (a game's setup and seats, its
//! progress, one row per move), brought up to date by numbered migrations
//! under an advisory lock, so that servers starting together do not trip
//! over each other. Every stored move is announced on the
//! `carcassonne_moves` channel (`NOTIFY`, delivered when its transaction
//! commits); [`PgStore::changes`] listens on a connection of its own and
//! hands the news to the server, whose games in play catch up at once.
//!
//! The store's methods block: the server calls them on blocking threads
//! (`spawn_blocking`), never on an async one.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime};

use carcassonne::record::{Record, RecordMove};
use postgres::error::SqlState;
use postgres::fallible_iterator::FallibleIterator;
use postgres::{Client, Config, IsolationLevel, NoTls};
use r2d2_postgres::PostgresConnectionManager;
use tokio::sync::mpsc::{unbounded_channel, UnboundedReceiver, UnboundedSender};

use crate::store::{
    summary, Feed, GameChanged, GameSummary, NewGame, Progress, SavedRules, Store, StoreError, StoredGame,
};

/// The channel on which stored moves are announced: `"<game id>:<moves>"`.
pub const CHANNEL: &str = "carcassonne_moves";

/// The advisory lock held while migrating ("carcassonne" in a few bytes).
const MIGRATION_LOCK: i64 = 0x6361_7263_6173_736f;

/// Schema migrations, applied in order; `schema_version` counts those applied.
const MIGRATIONS: &[&str] = &[
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
    // 3: named rule sets visitors keep, by the hash of their key.
    "CREATE TABLE rule_sets (
        id          TEXT PRIMARY KEY,
        owner       TEXT NOT NULL,     -- hash of the visitor's key
        name        TEXT NOT NULL,
        code        TEXT NOT NULL,     -- the rule set's code
        created_at  BIGINT NOT NULL    -- Unix ms
    );
    CREATE INDEX rule_sets_by_owner ON rule_sets (owner, created_at);",
];

/// The most connections one server keeps open for requests (the change
/// feed has one more of its own).
const POOL_SIZE: u32 = 8;

/// How long a request waits for a connection, and a connection for the server.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

type Pool = r2d2::Pool<PostgresConnectionManager<NoTls>>;

/// Games in a PostgreSQL database that several servers may share.
pub struct PgStore {
    /// `None` only while being dropped.
    pool: Option<Pool>,
    config: Config,
    /// The URL without its password, for logs and errors.
    shown: String,
    /// The database's clock when the store was opened: the change feed,
    /// once listening, announces what was stored since (games loaded before
    /// it listened must not miss a move).
    opened_at: SystemTime,
    /// Whether the change feed listens now (once started).
    listening: Arc<std::sync::atomic::AtomicBool>,
    feed_started: std::sync::atomic::AtomicBool,
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
    use postgres::config::Host;
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
fn describe(e: &postgres::Error) -> String {
    let mut s = e.to_string();
    let mut cause = std::error::Error::source(e);
    while let Some(c) = cause {
        s.push_str(": ");
        s.push_str(&c.to_string());
        cause = c.source();
    }
    s
}

impl From<postgres::Error> for StoreError {
    fn from(e: postgres::Error) -> Self {
        StoreError::Failed(format!("PostgreSQL: {}", describe(&e)))
    }
}

/// Whether `e` is a unique-key violation (an id taken, a move stored twice).
fn is_unique_violation(e: &postgres::Error) -> bool {
    e.code() == Some(&SqlState::UNIQUE_VIOLATION)
}

/// Logs the pool's connection failures through `tracing`.
#[derive(Debug)]
struct LogErrors(String);

impl r2d2::HandleError<postgres::Error> for LogErrors {
    fn handle_error(&self, e: postgres::Error) {
        tracing::warn!(db = %self.0, error = %describe(&e), "a PostgreSQL connection failed");
    }
}

impl PgStore {
    /// Connects to the database at `url` (`postgres://user:password@host:port/db`;
    /// `?options=-c%20search_path%3Dname` picks a schema) and brings its
    /// schema up to date. Several servers may open the same database at once.
    ///
    /// Blocks while it connects, on a thread of its own: called on an async
    /// thread it stalls that thread (the server calls it from
    /// `spawn_blocking`) but does not panic. A store dropped inside tokio
    /// closes its connections on a thread of its own too.
    ///
    /// # Errors
    /// A URL that does not parse, a server that cannot be reached or refuses
    /// the login, or a schema from a newer version of the program. The
    /// message never holds the password.
    pub fn open(url: &str) -> Result<PgStore, StoreError> {
        std::thread::scope(|s| {
            s.spawn(|| PgStore::open_here(url))
                .join()
                .unwrap_or_else(|_| Err(StoreError::failed("PostgreSQL: the connection thread failed")))
        })
    }

    fn open_here(url: &str) -> Result<PgStore, StoreError> {
        let mut config = parse(url).map_err(|e| StoreError::failed(format!("--db: {}", e.message())))?;
        let shown = show(&config);
        if config.get_connect_timeout().is_none() {
            config.connect_timeout(CONNECT_TIMEOUT);
        }
        if config.get_application_name().is_none() {
            config.application_name("carcassonne");
        }
        // A first connection of our own: a clear error now if the server
        // cannot be reached or refuses us, and the migrations.
        let mut client = config
            .connect(NoTls)
            .map_err(|e| StoreError::failed(format!("cannot connect to {shown}: {}", describe(&e))))?;
        migrate(&mut client).map_err(|e| StoreError::failed(format!("{shown}: {}", e.message())))?;
        let opened_at = client.query_one("SELECT now()", &[])?.try_get(0)?;
        drop(client);
        let pool = r2d2::Pool::builder()
            .max_size(POOL_SIZE)
            .min_idle(Some(1))
            .connection_timeout(CONNECT_TIMEOUT)
            .error_handler(Box::new(LogErrors(shown.clone())))
            .build_unchecked(PostgresConnectionManager::new(config.clone(), NoTls));
        Ok(PgStore {
            pool: Some(pool),
            config,
            shown,
            opened_at,
            listening: Arc::default(),
            feed_started: Default::default(),
        })
    }

    /// The database's URL without its password.
    pub fn shown(&self) -> &str {
        &self.shown
    }

    fn conn(&self) -> Result<r2d2::PooledConnection<PostgresConnectionManager<NoTls>>, StoreError> {
        let pool = self.pool.as_ref().ok_or_else(|| StoreError::failed("PostgreSQL: the store is closed"))?;
        pool.get().map_err(|e| StoreError::failed(format!("PostgreSQL at {}: no connection: {e}", self.shown)))
    }

    /// Summaries of the games matching `filter` (SQL; `$1` is the limit,
    /// `$2` the ids of `ids`), most recent first.
    fn summaries(&self, filter: &str, limit: usize, ids: Option<&[String]>) -> Result<Vec<GameSummary>, StoreError> {
        let mut conn = self.conn()?;
        let sql = format!(
            "SELECT id, setup, seats, progress, moves, created_at, public FROM games WHERE {filter}
             ORDER BY updated_at DESC, id LIMIT $1"
        );
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let rows = match ids {
            Some(ids) => conn.query(&sql, &[&limit, &ids])?,
            None => conn.query(&sql, &[&limit])?,
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
}

/// Brings the schema up to date, under an advisory lock held until the
/// transaction ends: a second server starting at the same time waits, then
/// finds nothing left to do.
fn migrate(client: &mut Client) -> Result<(), StoreError> {
    let mut tx = client.transaction()?;
    tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])?;
    // (Without the notice that the table is there already, on every start.)
    tx.batch_execute(
        "SET LOCAL client_min_messages = warning;
         CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL);",
    )?;
    let version: i32 = match tx.query_opt("SELECT version FROM schema_version", &[])? {
        Some(row) => row.try_get(0)?,
        None => {
            tx.execute("INSERT INTO schema_version (version) VALUES (0)", &[])?;
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
        tx.batch_execute(sql)?;
        tx.execute("UPDATE schema_version SET version = $1", &[&(i as i32 + 1)])?;
    }
    tx.commit()?;
    if from < known {
        tracing::info!(from, to = known, "PostgreSQL schema migrated");
    }
    Ok(())
}

impl Store for PgStore {
    fn create_game(&self, game: &NewGame) -> Result<(), StoreError> {
        let (setup, progress) = game.setup_and_progress();
        let mut conn = self.conn()?;
        let inserted = conn.execute(
            "INSERT INTO games (id, setup, seats, progress, moves, created_at, updated_at, live_seed, public)
             VALUES ($1, $2, $3, $4, 0, $5, $5, $6, $7)",
            &[
                &game.id,
                &serde_json::to_string(&setup)?,
                &serde_json::to_string(&game.seats)?,
                &serde_json::to_string(&progress)?,
                &game.created_at,
                // BIGINT is signed: the seed's bits are kept as they are.
                &game.live_seed.map(|s| s as i64),
                &game.public,
            ],
        );
        match inserted {
            Ok(_) => Ok(()),
            Err(e) if is_unique_violation(&e) => Err(StoreError::failed(format!("game id {} is taken", game.id))),
            Err(e) => Err(e.into()),
        }
    }

    fn append_move(&self, id: &str, ply: usize, mv: &RecordMove, progress: &Progress) -> Result<(), StoreError> {
        let ply = i64::try_from(ply).map_err(|_| StoreError::failed("move number out of range"))?;
        let body = serde_json::to_string(mv)?;
        let progress_json = serde_json::to_string(progress)?;
        let mut conn = self.conn()?;
        let mut tx = conn.transaction()?;
        // The game's row stays locked until commit: a second writer of the
        // same move waits here, then sees the count has moved on.
        let moves: i64 = match tx.query_opt("SELECT moves FROM games WHERE id = $1 FOR UPDATE", &[&id])? {
            None => return Err(StoreError::failed(format!("no game {id}"))),
            Some(row) => row.try_get(0)?,
        };
        if moves != ply {
            return Err(StoreError::Conflict(format!("game {id} has {moves} moves stored, not {ply}")));
        }
        match tx.execute("INSERT INTO moves (game_id, ply, body) VALUES ($1, $2, $3)", &[&id, &ply, &body]) {
            Ok(_) => {}
            // The row lock makes this unreachable, unless the moves were
            // written by something else: still, never two moves at one ply.
            Err(e) if is_unique_violation(&e) => {
                return Err(StoreError::Conflict(format!("game {id} already has move {ply}")));
            }
            Err(e) => return Err(e.into()),
        }
        tx.execute(
            "UPDATE games SET moves = $2, progress = $3, updated_at = $4, stored_at = now() WHERE id = $1",
            &[&id, &(ply + 1), &progress_json, &progress.at],
        )?;
        // Delivered to every listener when (and only if) the move commits.
        tx.execute("SELECT pg_notify($1, id || ':' || moves) FROM games WHERE id = $2", &[&CHANNEL, &id])?;
        tx.commit()?;
        Ok(())
    }

    fn load(&self, id: &str) -> Result<Option<StoredGame>, StoreError> {
        let mut conn = self.conn()?;
        // One snapshot for the game and its moves.
        let mut tx =
            conn.build_transaction().isolation_level(IsolationLevel::RepeatableRead).read_only(true).start()?;
        let Some(row) =
            tx.query_opt("SELECT setup, seats, created_at, updated_at, live_seed FROM games WHERE id = $1", &[&id])?
        else {
            return Ok(None);
        };
        let mut record: Record = serde_json::from_str(row.try_get::<_, &str>(0)?)?;
        let seats = serde_json::from_str(row.try_get::<_, &str>(1)?)?;
        let (created_at, updated_at): (i64, i64) = (row.try_get(2)?, row.try_get(3)?);
        let live_seed: Option<i64> = row.try_get(4)?;
        record.moves.clear();
        for m in tx.query("SELECT body FROM moves WHERE game_id = $1 ORDER BY ply", &[&id])? {
            record.moves.push(serde_json::from_str(m.try_get::<_, &str>(0)?)?);
        }
        tx.commit()?;
        Ok(Some(StoredGame {
            id: id.to_string(),
            record,
            live_seed: live_seed.map(|s| s as u64),
            seats,
            created_at,
            updated_at,
        }))
    }

    fn list(&self, limit: usize) -> Result<Vec<GameSummary>, StoreError> {
        self.summaries("TRUE", limit, None)
    }

    fn listed(&self, ids: &[String], limit: usize) -> Result<Vec<GameSummary>, StoreError> {
        self.summaries("public OR id = ANY($2)", limit, Some(ids))
    }

    fn in_play(&self) -> Result<Vec<GameSummary>, StoreError> {
        self.summaries("NOT COALESCE((progress::jsonb ->> 'finished')::boolean, FALSE)", usize::MAX >> 1, None)
    }

    fn health(&self) -> Result<(), StoreError> {
        self.conn()?.query_one("SELECT 1", &[])?;
        Ok(())
    }

    fn save_rules(&self, owner: &str, rules: &SavedRules, max: usize) -> Result<bool, StoreError> {
        let max = i64::try_from(max).unwrap_or(i64::MAX);
        let mut conn = self.conn()?;
        let mut tx = conn.transaction()?;
        // One visitor's saves one at a time, so that the bound holds.
        tx.execute("SELECT pg_advisory_xact_lock(hashtext($1))", &[&owner])?;
        let saved = tx.execute(
            "INSERT INTO rule_sets (id, owner, name, code, created_at)
             SELECT $1, $2, $3, $4, $5 WHERE (SELECT COUNT(*) FROM rule_sets WHERE owner = $2) < $6",
            &[&rules.id, &owner, &rules.name, &rules.code, &rules.created_at, &max],
        )?;
        tx.commit()?;
        Ok(saved == 1)
    }

    fn saved_rules(&self, owner: &str) -> Result<Vec<SavedRules>, StoreError> {
        let rows = self.conn()?.query(
            "SELECT id, name, code, created_at FROM rule_sets WHERE owner = $1 ORDER BY created_at, id",
            &[&owner],
        )?;
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

    fn rename_rules(&self, owner: &str, id: &str, name: &str) -> Result<bool, StoreError> {
        let n = self
            .conn()?
            .execute("UPDATE rule_sets SET name = $3 WHERE owner = $1 AND id = $2", &[&owner, &id, &name])?;
        Ok(n == 1)
    }

    fn delete_rules(&self, owner: &str, id: &str) -> Result<bool, StoreError> {
        let n = self.conn()?.execute("DELETE FROM rule_sets WHERE owner = $1 AND id = $2", &[&owner, &id])?;
        Ok(n == 1)
    }

    fn expire(&self, before: i64) -> Result<Vec<String>, StoreError> {
        let rows = self.conn()?.query(
            "DELETE FROM games WHERE NOT COALESCE((progress::jsonb ->> 'finished')::boolean, FALSE)
             AND updated_at < $1 RETURNING id",
            &[&before],
        )?;
        rows.iter().map(|r| r.try_get(0).map_err(StoreError::from)).collect()
    }

    fn feed(&self) -> Feed {
        use std::sync::atomic::Ordering;
        match (self.feed_started.load(Ordering::Relaxed), self.listening.load(Ordering::Relaxed)) {
            (false, _) => Feed::None,
            (true, true) => Feed::Up,
            (true, false) => Feed::Down,
        }
    }

    fn changes(&self) -> Option<UnboundedReceiver<GameChanged>> {
        let (tx, rx) = unbounded_channel();
        let listener = Listener {
            config: self.config.clone(),
            shown: self.shown.clone(),
            since: self.opened_at,
            tx,
            listening: Arc::clone(&self.listening),
        };
        self.feed_started.store(true, std::sync::atomic::Ordering::Relaxed);
        match std::thread::Builder::new().name("carcassonne-listen".into()).spawn(move || listener.run()) {
            Ok(_) => Some(rx),
            Err(e) => {
                tracing::error!(error = %e, "cannot start following PostgreSQL's changes");
                None
            }
        }
    }
}

impl Drop for PgStore {
    fn drop(&mut self) {
        let Some(pool) = self.pool.take() else { return };
        if tokio::runtime::Handle::try_current().is_err() {
            return;
        }
        // A `postgres::Client` closes itself by blocking on a runtime of its
        // own, which panics on an async thread: inside tokio, the
        // connections are closed on a thread of their own.
        let slot = Arc::new(Mutex::new(Some(pool)));
        let theirs = Arc::clone(&slot);
        let spawned = std::thread::Builder::new()
            .name("carcassonne-pg-close".into())
            .spawn(move || drop(theirs.lock().unwrap_or_else(|e| e.into_inner()).take()));
        if spawned.is_err() {
            // No thread to be had: leave the connections to the end of the
            // process rather than panic.
            std::mem::forget(slot.lock().unwrap_or_else(|e| e.into_inner()).take());
        }
    }
}

/// How often the change feed checks that its connection is alive.
const HEARTBEAT: Duration = Duration::from_secs(10);

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
    shown: String,
    /// Where the first session looks back from.
    since: SystemTime,
    tx: UnboundedSender<GameChanged>,
    /// Set while a session listens (the server's health says so).
    listening: Arc<std::sync::atomic::AtomicBool>,
}

/// Why a listening session ended.
enum Ended {
    /// Nobody reads the news any more.
    Closed,
    /// The connection failed.
    Lost(String),
}

impl Listener {
    fn run(self) {
        let mut config = self.config.clone();
        let name = format!("{}:listen", config.get_application_name().unwrap_or("carcassonne"));
        config.application_name(&name);
        // The database's clock when the feed was last known to be listening
        // (at first: when the store was opened).
        let mut alive = self.since;
        let mut first = true;
        let mut backoff = Duration::from_millis(200);
        loop {
            let started = Instant::now();
            let ended = self.session(&config, &mut alive, std::mem::take(&mut first));
            self.listening.store(false, std::sync::atomic::Ordering::Relaxed);
            match ended {
                Ended::Closed => return,
                Ended::Lost(why) => {
                    if started.elapsed() > MAX_BACKOFF {
                        backoff = Duration::from_millis(200);
                    }
                    tracing::warn!(db = %self.shown, error = %why, retry_in = ?backoff,
                        "lost the PostgreSQL change feed; reconnecting");
                    if self.sleep(backoff) {
                        return;
                    }
                    backoff = (backoff * 2).min(MAX_BACKOFF);
                }
            }
        }
    }

    /// Sleeps for `d`, or less if nobody reads the news any more (then true).
    fn sleep(&self, d: Duration) -> bool {
        let end = Instant::now() + d;
        while Instant::now() < end {
            if self.tx.is_closed() {
                return true;
            }
            std::thread::sleep((end - Instant::now()).min(Duration::from_millis(200)));
        }
        self.tx.is_closed()
    }

    fn send(&self, id: String, moves: usize) -> bool {
        self.tx.send(GameChanged { id, moves }).is_ok()
    }

    /// One connection's worth of listening.
    fn session(&self, config: &Config, alive: &mut SystemTime, first: bool) -> Ended {
        let lost = |e: postgres::Error| Ended::Lost(describe(&e));
        let mut client = match config.connect(NoTls) {
            Ok(c) => c,
            Err(e) => return lost(e),
        };
        if let Err(e) = client.batch_execute(&format!("LISTEN {CHANNEL}")) {
            return lost(e);
        }
        let now = match client.query_one("SELECT now()", &[]).and_then(|r| r.try_get::<_, SystemTime>(0)) {
            Ok(t) => t,
            Err(e) => return lost(e),
        };
        // Announce what was stored while the feed was not listening (before
        // its first session, or since its last sign of life).
        let since = std::mem::replace(alive, now);
        let missed = client.query(
            "SELECT id, moves FROM games WHERE stored_at >= $1::timestamptz - make_interval(secs => $2)",
            &[&since, &MISSED_MARGIN_SECS],
        );
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
                if !self.send(id, moves.max(0) as usize) {
                    return Ended::Closed;
                }
            }
        }
        self.listening.store(true, std::sync::atomic::Ordering::Relaxed);
        let mut beat = Instant::now();
        loop {
            {
                let mut notes = client.notifications();
                let mut iter = notes.timeout_iter(Duration::from_millis(500));
                loop {
                    match iter.next() {
                        Ok(Some(n)) => match parse_note(n.payload()) {
                            Some((id, moves)) => {
                                if !self.send(id, moves) {
                                    return Ended::Closed;
                                }
                            }
                            None => tracing::warn!(payload = n.payload(), "an unreadable change notice"),
                        },
                        // Half a second without news, or the connection closed.
                        Ok(None) => break,
                        Err(e) => return lost(e),
                    }
                }
            }
            if self.tx.is_closed() {
                return Ended::Closed;
            }
            if client.is_closed() {
                return Ended::Lost("the connection closed".into());
            }
            if beat.elapsed() >= HEARTBEAT {
                // A connection that died quietly shows up here.
                match client.query_one("SELECT now()", &[]).and_then(|r| r.try_get::<_, SystemTime>(0)) {
                    Ok(t) => *alive = t,
                    Err(e) => return lost(e),
                }
                beat = Instant::now();
            }
        }
    }
}

/// A notification's payload: `"<game id>:<moves>"`.
fn parse_note(payload: &str) -> Option<(String, usize)> {
    let (id, moves) = payload.rsplit_once(':')?;
    Some((id.to_string(), moves.parse().ok()?))
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

    #[test]
    fn a_bad_url_is_a_clear_error_without_the_password() {
        let Err(e) = PgStore::open("postgres://ada:s3cret@h:notaport/db") else { panic!("opened") };
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

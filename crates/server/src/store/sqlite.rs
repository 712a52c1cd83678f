//! The SQLite backend: one file, one server (an exclusive lock on
//! `FILE-lock`), shared by the repositories of every domain (`SqliteDb` is
//! a cheap handle to it).
//!
//! Calls run on tokio's blocking threads. Moves and new games go through one
//! writer thread that commits together the writes arriving during a commit
//! (group commit: one sync for many); reads that stand alone use a
//! connection of their own, so that they never wait behind a sync; a
//! checkpointer thread copies the write-ahead log into the file, and the
//! writer has the log start over once it is past its limit
//! (docs/performance.md, *10,000 games*).

use std::fmt;
use std::path::Path;
use std::sync::{Arc, Mutex};

use rusqlite::{params, Connection};

use super::error::StoreError;

/// Schema migrations, applied in order; `PRAGMA user_version` counts those applied.
const MIGRATIONS: &[&str] = &[
    // 1: games and their moves.
    "CREATE TABLE games (
        id          TEXT PRIMARY KEY,
        setup       TEXT NOT NULL,     -- the record without moves (rules, players, start, deck, first)
        seats       TEXT NOT NULL,     -- JSON array of seats
        progress    TEXT NOT NULL,     -- JSON: finished, scores, to_move, winners
        moves       INTEGER NOT NULL DEFAULT 0,
        created_at  INTEGER NOT NULL,
        updated_at  INTEGER NOT NULL
    );
    CREATE TABLE moves (
        game_id     TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        ply         INTEGER NOT NULL,  -- 0-based index into the record's moves
        body        TEXT NOT NULL,     -- the record move as JSON
        PRIMARY KEY (game_id, ply)
    );
    CREATE INDEX games_by_update ON games(updated_at DESC);",
    // 2: the live bag's seed (the reshuffle house rule).
    "ALTER TABLE games ADD COLUMN live_seed INTEGER;",
    // 3: seat tokens are kept hashed (done in Rust: `hash_stored_tokens`).
    "",
    // 4: games listed for everyone.
    "ALTER TABLE games ADD COLUMN public INTEGER NOT NULL DEFAULT 0;",
    // 5: named rule sets visitors keep, by the hash of their key.
    "CREATE TABLE rule_sets (
        id          TEXT PRIMARY KEY,
        owner       TEXT NOT NULL,     -- hash of the visitor's key
        name        TEXT NOT NULL,
        code        TEXT NOT NULL,     -- the rule set's code
        created_at  INTEGER NOT NULL   -- Unix ms
    );
    CREATE INDEX rule_sets_by_owner ON rule_sets(owner, created_at);",
    // 6: reviews of finished games, worked out once.
    "CREATE TABLE reviews (
        game_id     TEXT PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
        review      TEXT,              -- JSON; NULL while a server works it out
        claimed_by  TEXT NOT NULL,     -- the server working it out ('' for SQLite's one)
        claimed_at  INTEGER NOT NULL   -- Unix ms
    );",
    // 7: accounts and their sessions (tokens and recovery codes hashed).
    "CREATE TABLE accounts (
        id          TEXT PRIMARY KEY,
        name        TEXT NOT NULL,     -- as shown
        name_key    TEXT NOT NULL UNIQUE, -- as compared (names::name_key)
        password    TEXT NOT NULL,     -- argon2id, PHC string
        recovery    TEXT NOT NULL,     -- SHA-256 of the recovery code
        created_at  INTEGER NOT NULL   -- Unix ms
    );
    CREATE TABLE sessions (
        token_hash  TEXT PRIMARY KEY,  -- SHA-256 of the cookie's token
        account     TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        created_at  INTEGER NOT NULL,  -- Unix ms
        seen_at     INTEGER NOT NULL   -- Unix ms, last use
    );
    CREATE INDEX sessions_by_account ON sessions(account);
    CREATE INDEX sessions_by_use ON sessions(seen_at);",
    // 8 (ratings): seats linked to accounts, rated games, ratings and their history.
    super::ratings::SQLITE_SCHEMA,
    // 9: passkeys and passkey ceremonies begun (store/passkeys.rs).
    super::accounts::PASSKEYS_SQLITE_SCHEMA,
    // 10: chat and rematch (services/chat.rs, services/rematch.rs).
    "CREATE TABLE chat_messages (
        game_id     TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        seq         INTEGER NOT NULL,  -- 1, 2… in the game
        seat        INTEGER,           -- the player's seat; NULL for a spectator
        author      TEXT NOT NULL,     -- hash naming the writer (numbers spectators)
        name        TEXT NOT NULL,
        text        TEXT NOT NULL,
        at          INTEGER NOT NULL,  -- Unix ms
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
    // 11: Web Push: the VAPID key, browsers' subscriptions, invites taken.
    super::push::SCHEMA,
    // 12: clocks: each seat's time and the deadline of the move to make now.
    "ALTER TABLE games ADD COLUMN clock TEXT;      -- JSON (services/clock.rs ClockState)
    ALTER TABLE games ADD COLUMN deadline INTEGER; -- Unix ms; NULL: untimed, a bot's, over
    CREATE INDEX games_by_deadline ON games(deadline) WHERE deadline IS NOT NULL;",
    // 13: the lobby's tables (the body is the service's JSON; `version`
    // makes every change conditional) and the players waiting for "Play now".
    "CREATE TABLE lobby_tables (
        id          TEXT PRIMARY KEY,
        owner       TEXT NOT NULL,     -- the host's account or address
        body        TEXT NOT NULL,     -- JSON (services/lobby/)
        version     INTEGER NOT NULL,
        open        INTEGER NOT NULL,  -- 1 until started
        seen_at     INTEGER NOT NULL,  -- Unix ms, the host last heard from
        created_at  INTEGER NOT NULL   -- Unix ms
    );
    CREATE INDEX lobby_tables_by_owner ON lobby_tables(owner);
    CREATE TABLE lobby_waiting (
        id          TEXT PRIMARY KEY,
        owner       TEXT NOT NULL,     -- the account or address
        token_hash  TEXT NOT NULL,     -- SHA-256 of the coming game's seat token
        name        TEXT NOT NULL,
        rating      INTEGER NOT NULL,
        body        TEXT NOT NULL,     -- JSON (services/lobby/)
        since       INTEGER NOT NULL,  -- Unix ms
        seen_at     INTEGER NOT NULL,  -- Unix ms, last asked about
        game        TEXT,              -- the game paired into
        seat        INTEGER
    );
    CREATE INDEX lobby_waiting_by_seen ON lobby_waiting(seen_at);",
    // 14: the language of a push subscription's notifications.
    super::push::LANG_SCHEMA,
    // 15: accounts' name keys with the confusables skeleton (done in Rust:
    // `rekey_accounts`).
    "",
    // 16: the devices that signed in to an account.
    super::accounts::DEVICES_SCHEMA,
    // 17: the address each seat of a rated game was taken from.
    super::ratings::SEAT_ADDRESS_SCHEMA,
    // 18: the chat's parts and spectators (store/chat/).
    super::chat::SQLITE_SPECTATORS,
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
    super::lobby::SQLITE_SCHEMA,
    // 22: blocks, reports and sanctions; each chat line's author account
    // (store/moderation/).
    super::moderation::SQLITE_SCHEMA,
    // 23: a game's takeback request (store/takebacks/).
    super::takebacks::SCHEMA,
    // 24: which spectators' messages are in the reserve of those with a
    // history (store/chat/).
    super::chat::SQLITE_KEPT,
];

/// Migration 3: every stored `token` becomes its `token_hash`.
fn hash_stored_tokens(tx: &rusqlite::Transaction<'_>) -> Result<(), StoreError> {
    let rows: Vec<(String, String)> = {
        let mut stmt = tx.prepare("SELECT id, seats FROM games")?;
        let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?;
        rows.collect::<Result<_, _>>()?
    };
    for (id, seats) in rows {
        let mut seats: Vec<serde_json::Value> = serde_json::from_str(&seats)?;
        for seat in &mut seats {
            if let Some(obj) = seat.as_object_mut() {
                if let Some(serde_json::Value::String(token)) = obj.remove("token") {
                    obj.insert("token_hash".into(), super::games::hash_token(&token).into());
                }
            }
        }
        tx.execute("UPDATE games SET seats = ?2 WHERE id = ?1", params![id, serde_json::to_string(&seats)?])?;
    }
    Ok(())
}

/// Migration 15: every account's `name_key` again (`accounts::rekeyed`).
fn rekey_accounts(tx: &rusqlite::Transaction<'_>) -> Result<(), StoreError> {
    let rows: Vec<(String, String)> = {
        let mut stmt = tx.prepare("SELECT id, name FROM accounts ORDER BY created_at, id")?;
        let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?;
        rows.collect::<Result<_, _>>()?
    };
    tx.execute(super::accounts::REKEY_TEMPORARY, [])?;
    for (id, key) in super::accounts::rekeyed(&rows) {
        tx.execute("UPDATE accounts SET name_key = ?2 WHERE id = ?1", params![id, key])?;
    }
    Ok(())
}

/// One SQLite file, shared by its repositories (a cheap handle). Its calls
/// run on tokio's blocking threads.
#[derive(Clone)]
pub(crate) struct SqliteDb(Arc<Sqlite>);

/// The file and its connections; its methods block.
pub(crate) struct Sqlite {
    /// Every write, and the reads inside a write.
    conn: Mutex<Connection>,
    /// Reads that stand alone (games loaded, lists, accounts): on a
    /// connection of their own, so that they never wait behind a commit's
    /// sync to disk. In memory (tests) there is only `conn`.
    reader: Option<Mutex<Connection>>,
    /// Moves to commit, for the writer thread.
    writer: std::sync::mpsc::Sender<Pending>,
    /// Tells the checkpointer thread that the write-ahead log grew.
    checkpoints: Option<std::sync::mpsc::SyncSender<()>>,
    /// Checkpoints the checkpointer thread has run.
    checkpointed: Arc<std::sync::atomic::AtomicU64>,
    /// The checkpoints the writer finished between two batches, each
    /// having the log start over.
    restarted: Arc<std::sync::atomic::AtomicU64>,
    /// Set by the checkpointer when the log is past its limit: the writer
    /// finishes the checkpoint between two batches.
    start_over: Arc<std::sync::atomic::AtomicBool>,
    /// One server per file: an exclusive lock on `FILE-lock`, held while
    /// the storage is open (the system releases it when the process ends).
    _lock: Option<std::fs::File>,
}

/// Group commit: every move and every new game is synced to disk before
/// it is acknowledged, and a sync costs milliseconds, so one writer thread
/// commits the writes that arrived during its last commit all at once.
type Pending = (Write, tokio::sync::oneshot::Sender<Result<(), StoreError>>);

/// A write for the writer thread: it runs inside the batch's transaction,
/// under a savepoint of its own (the repository that queues it holds its SQL).
pub(crate) type Write = Box<dyn FnOnce(&Connection) -> Result<(), StoreError> + Send>;

/// A write's answer from the writer thread, once committed (or refused).
pub(crate) struct Committed(tokio::sync::oneshot::Receiver<Result<(), StoreError>>);

impl Committed {
    pub(crate) async fn wait(self) -> Result<(), StoreError> {
        self.0.await.map_err(|_| StoreError::failed("the storage's writer stopped"))?
    }

    /// The answer, waited for on a thread that is not async (tests).
    #[cfg(test)]
    pub(crate) fn blocking_wait(self) -> Result<(), StoreError> {
        self.0.blocking_recv().map_err(|_| StoreError::failed("the storage's writer stopped"))?
    }
}

/// The most writes committed in one transaction.
const MAX_BATCH: usize = 512;

impl SqliteDb {
    /// Opens (or creates) the database file and brings its schema up to date.
    ///
    /// # Errors
    /// The file cannot be opened, or is a database from a newer version.
    pub(crate) fn open(path: &Path) -> Result<SqliteDb, StoreError> {
        SqliteDb::open_with(path, WAL_SIZE_LIMIT)
    }

    /// [`SqliteDb::open`], the log started over once it is past
    /// `wal_limit` bytes.
    fn open_with(path: &Path, wal_limit: i64) -> Result<SqliteDb, StoreError> {
        // One server per file: the lock is taken now and held until the
        // storage closes (a killed server's lock goes with it). A second
        // server is refused at once rather than fighting over the games.
        // The lock is a file's, not SQLite's exclusive locking mode, so that
        // this server may open the database more than once: reads and
        // checkpoints on connections of their own, off the writer's path.
        let lock_path = format!("{}-lock", path.display());
        let lock = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&lock_path)
            .map_err(|e| StoreError::failed(format!("cannot open {lock_path}: {e}")))?;
        match try_lock(&lock) {
            Ok(true) => {}
            Ok(false) => {
                return Err(StoreError::failed(format!(
                    "{} is in use by another carcassonne server: stop it, or use another --db",
                    path.display()
                )));
            }
            Err(e) => return Err(StoreError::failed(format!("cannot lock {lock_path}: {e}"))),
        }
        let open =
            || Connection::open(path).map_err(|e| StoreError::failed(format!("cannot open {}: {e}", path.display())));
        let mut conn = open()?;
        SqliteDb::prepare(&mut conn, true)?;
        let reader = open()?;
        reader.busy_timeout(std::time::Duration::from_secs(5))?;
        reader.pragma_update(None, "query_only", "ON")?;
        let checkpointer = open()?;
        checkpointer.busy_timeout(std::time::Duration::from_secs(5))?;
        let (tell, told) = std::sync::mpsc::sync_channel(1);
        let store = SqliteDb::start(Sqlite {
            conn: Mutex::new(conn),
            reader: Some(Mutex::new(reader)),
            writer: std::sync::mpsc::channel().0,
            checkpoints: Some(tell),
            checkpointed: Arc::default(),
            restarted: Arc::default(),
            start_over: Arc::default(),
            _lock: Some(lock),
        })?;
        let (done, start_over) = (Arc::clone(&store.0.checkpointed), Arc::clone(&store.0.start_over));
        std::thread::Builder::new()
            .name("sqlite-checkpoints".into())
            .spawn(move || checkpoint_now_and_then(&checkpointer, &told, &done, &start_over, wal_limit))
            .map_err(|e| StoreError::failed(format!("cannot start the storage's checkpointer: {e}")))?;
        Ok(store)
    }

    /// A database in memory (tests).
    ///
    /// # Errors
    /// SQLite fails to start.
    pub(crate) fn in_memory() -> Result<SqliteDb, StoreError> {
        let mut conn = Connection::open_in_memory()?;
        SqliteDb::prepare(&mut conn, false)?;
        SqliteDb::start(Sqlite {
            conn: Mutex::new(conn),
            reader: None,
            writer: std::sync::mpsc::channel().0,
            checkpoints: None,
            checkpointed: Arc::default(),
            restarted: Arc::default(),
            start_over: Arc::default(),
            _lock: None,
        })
    }

    /// Sets the writer's connection up and brings the schema up to date.
    /// `file`: a database on disk (not in memory).
    fn prepare(conn: &mut Connection, file: bool) -> Result<(), StoreError> {
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        // WAL with synchronous=FULL: a committed move survives a power cut.
        conn.pragma_update_and_check(None, "journal_mode", "WAL", |_| Ok(()))?;
        conn.pragma_update(None, "synchronous", "FULL")?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        // A transaction takes the write lock as it begins, waiting for it
        // as long as `busy_timeout` says. One that read first would be
        // refused at once (SQLite's deadlock rule) while the checkpointer
        // holds the lock to have the log start over.
        conn.set_transaction_behavior(rusqlite::TransactionBehavior::Immediate);
        // No checkpoint at the end of a commit (SQLite's default past 1,000
        // pages of log): a checkpoint syncs the whole database file, and
        // on the writer's path it held every move behind it for up to a
        // second under heavy disk writes. The checkpointer thread does them.
        // In memory there is no log to grow.
        if file {
            conn.pragma_update(None, "wal_autocheckpoint", 0)?;
            // The log file is cut back to this size when it starts over.
            conn.pragma_update(None, "journal_size_limit", WAL_SIZE_LIMIT)?;
            conn.pragma_update(None, "cache_size", WRITER_CACHE_KIB)?;
        }
        migrate(conn)
    }

    /// Starts the writer thread of `db` (its `writer` is replaced).
    fn start(mut db: Sqlite) -> Result<SqliteDb, StoreError> {
        let (writer, moves) = std::sync::mpsc::channel();
        db.writer = writer;
        let db = Arc::new(db);
        let weak = Arc::downgrade(&db);
        std::thread::Builder::new()
            .name("sqlite-writer".into())
            .spawn(move || write_all(&weak, &moves))
            .map_err(|e| StoreError::failed(format!("cannot start the storage's writer: {e}")))?;
        Ok(SqliteDb(db))
    }

    /// Runs `f` on a blocking thread.
    pub(crate) async fn run<T: Send + 'static>(
        &self,
        f: impl FnOnce(&Sqlite) -> Result<T, StoreError> + Send + 'static,
    ) -> Result<T, StoreError> {
        let db = Arc::clone(&self.0);
        tokio::task::spawn_blocking(move || f(&db))
            .await
            .map_err(|e| StoreError::failed(format!("storage task: {e}")))?
    }

    /// Queues a write for the writer thread: the answer comes once it is
    /// committed (or refused).
    pub(crate) fn queue(&self, write: Write) -> Result<Committed, StoreError> {
        let (reply, answer) = tokio::sync::oneshot::channel();
        self.0.writer.send((write, reply)).map_err(|_| StoreError::failed("the storage's writer stopped"))?;
        Ok(Committed(answer))
    }
}

impl Sqlite {
    pub(crate) fn conn(&self) -> std::sync::MutexGuard<'_, Connection> {
        // A panic while holding the lock cannot leave a half-done transaction
        // behind (rusqlite rolls back on drop), so a poisoned lock is usable.
        self.conn.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The connection for a read that stands alone: it sees every commit
    /// made before it starts, and waits for no write.
    pub(crate) fn read(&self) -> std::sync::MutexGuard<'_, Connection> {
        match &self.reader {
            Some(reader) => reader.lock().unwrap_or_else(|e| e.into_inner()),
            None => self.conn(),
        }
    }

    /// Wakes the checkpointer (it runs at most one checkpoint at a time;
    /// a wake-up while one is due is not needed twice).
    fn log_grew(&self) {
        if let Some(tell) = &self.checkpoints {
            let _ = tell.try_send(());
        }
    }
}

/// Takes an exclusive lock on `file` if no one holds it (`false` if someone
/// does). It is released when the file is closed, or the process ends.
#[cfg(unix)]
fn try_lock(file: &std::fs::File) -> std::io::Result<bool> {
    use std::os::fd::AsRawFd;
    // SAFETY: flock on a descriptor this function borrows, open for its call.
    if unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } == 0 {
        return Ok(true);
    }
    let e = std::io::Error::last_os_error();
    if e.raw_os_error() == Some(libc::EWOULDBLOCK) {
        Ok(false)
    } else {
        Err(e)
    }
}

/// Elsewhere than on Unix, a file is not locked: one server per file is the
/// operator's to keep.
#[cfg(not(unix))]
fn try_lock(_file: &std::fs::File) -> std::io::Result<bool> {
    Ok(true)
}

/// The writer's page cache, in KiB (SQLite's negative `cache_size`).
const WRITER_CACHE_KIB: i64 = -(64 << 10);

/// The write-ahead log's size once it starts over, in bytes.
const WAL_SIZE_LIMIT: i64 = 64 << 20;

/// The checkpointer thread: after commits (at most every
/// [`CHECKPOINT_EVERY`]), copies the log's pages into the database file
/// without blocking the writer (a passive checkpoint: it stops where it
/// would have to wait). Ends when the storage is dropped.
///
/// Under a steady stream of commits a passive checkpoint never catches up
/// with the last frame, and SQLite starts the log over only once one has:
/// the log would grow without end (1.8 GB in the 85 s of the 10,000-game
/// load), and commits slow down as it grows. So once the log is past the
/// limit ([`WAL_SIZE_LIMIT`] when the store is opened), the checkpointer
/// sets `start_over` and the writer, between two batches, copies what was
/// committed since (see [`write_all`]): its next commit starts the log over.
/// (A restarting checkpoint here did the same, but it had to take the write
/// lock: it waited for a gap between the writer's commits, then the writer
/// waited for it in SQLite's busy handler, which sleeps 1, 2, 5, 10, 15, 20
/// ms… in turn: at 10,000 games the batch after each, about once a
/// second, took 25-58 ms.) `done` counts the checkpoints.
fn checkpoint_now_and_then(
    conn: &Connection,
    told: &std::sync::mpsc::Receiver<()>,
    done: &Arc<std::sync::atomic::AtomicU64>,
    start_over: &std::sync::atomic::AtomicBool,
    wal_limit: i64,
) {
    let page_size: i64 = conn.query_row("PRAGMA page_size", [], |r| r.get(0)).unwrap_or(4096);
    while told.recv().is_ok() {
        match checkpoint(conn, "PASSIVE") {
            Ok((_, frames, _)) => {
                done.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                if frames.saturating_mul(page_size) > wal_limit {
                    start_over.store(true, std::sync::atomic::Ordering::Relaxed);
                }
            }
            Err(e) => tracing::warn!(error = %e, "checkpoint failed"),
        }
        std::thread::sleep(CHECKPOINT_EVERY);
    }
}

/// A checkpoint of `conn`'s database in `mode`: (busy, frames in the log,
/// frames copied), -1, -1 when not in WAL mode.
fn checkpoint(conn: &Connection, mode: &str) -> rusqlite::Result<(i64, i64, i64)> {
    conn.query_row(&format!("PRAGMA wal_checkpoint({mode})"), [], |r| {
        Ok((r.get::<_, i64>(0)?, r.get::<_, i64>(1)?, r.get::<_, i64>(2)?))
    })
}

/// The least time between two checkpoints.
const CHECKPOINT_EVERY: std::time::Duration = std::time::Duration::from_millis(200);

/// The writer thread: takes the writes queued (all of them, up to
/// [`MAX_BATCH`]), commits them together and answers each. Ends when the
/// storage is dropped.
fn write_all(db: &std::sync::Weak<Sqlite>, writes: &std::sync::mpsc::Receiver<Pending>) {
    while let Ok(first) = writes.recv() {
        let all: Vec<Pending> = std::iter::once(first).chain(writes.try_iter().take(MAX_BATCH - 1)).collect();
        let (batch, replies): (Vec<Write>, Vec<_>) = all.into_iter().unzip();
        let Some(db) = db.upgrade() else {
            for reply in replies {
                let _ = reply.send(Err(StoreError::failed("the storage is closed")));
            }
            continue;
        };
        let outcomes = commit_batch(&mut db.conn(), batch);
        for (reply, outcome) in replies.into_iter().zip(outcomes) {
            let _ = reply.send(outcome);
        }
        // The batch answered, and before the next: with no commit of its
        // own under way, a checkpoint on the writer's connection copies
        // what the checkpointer has not (the last fraction of a second's
        // commits), and the next commit starts the log over.
        if db.start_over.swap(false, std::sync::atomic::Ordering::Relaxed) {
            match checkpoint(&db.conn(), "PASSIVE") {
                Ok((0, frames, copied)) if frames == copied => {
                    db.restarted.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                }
                // A reader still on an older snapshot: the checkpointer asks again.
                Ok(_) => {}
                Err(e) => tracing::warn!(error = %e, "checkpoint failed"),
            }
        }
        db.log_grew();
    }
}

/// Writes a batch in one transaction (one sync), each write under its own
/// savepoint so that a refused one (a move whose game is gone, or has
/// another move at its place; a game whose id is taken) leaves the others
/// alone. The outcomes are in the batch's order; none is `Ok` unless the
/// commit was.
fn commit_batch(conn: &mut Connection, batch: Vec<Write>) -> Vec<Result<(), StoreError>> {
    let n = batch.len();
    let all_failed = |e: &dyn fmt::Display| (0..n).map(|_| Err(StoreError::failed(e.to_string()))).collect();
    let mut tx = match conn.transaction() {
        Ok(tx) => tx,
        Err(e) => return all_failed(&e),
    };
    let mut outcomes = Vec::with_capacity(n);
    for w in batch {
        let outcome = match tx.savepoint() {
            Ok(mut sp) => match w(&sp) {
                Ok(()) => sp.commit().map_err(StoreError::from),
                Err(e) => {
                    let _ = sp.rollback();
                    Err(e)
                }
            },
            Err(e) => Err(e.into()),
        };
        outcomes.push(outcome);
    }
    match tx.commit() {
        Ok(()) => outcomes,
        Err(e) => all_failed(&e),
    }
}

fn migrate(conn: &mut Connection) -> Result<(), StoreError> {
    let version: i64 = conn.pragma_query_value(None, "user_version", |r| r.get(0))?;
    let known = MIGRATIONS.len() as i64;
    if version > known {
        return Err(StoreError::failed(format!(
            "the database has schema version {version}, newer than this program's {known}: use a newer carcassonne"
        )));
    }
    for (i, sql) in MIGRATIONS.iter().enumerate().skip(version as usize) {
        let tx = conn.transaction()?;
        tx.execute_batch(sql)?;
        if i + 1 == 3 {
            hash_stored_tokens(&tx)?;
        }
        if i + 1 == 15 {
            rekey_accounts(&tx)?;
        }
        tx.pragma_update(None, "user_version", i as i64 + 1)?;
        tx.commit()?;
        tracing::info!(version = i + 1, "database migrated");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use carcassonne::record::{Record, RecordMove};

    use super::*;
    use crate::bots::BotLevel;
    use crate::store::games::sqlite::SqliteGames;
    use crate::store::games::{hash_token, GameRepo, NewGame, Progress, Seat};

    fn games(db: &SqliteDb) -> SqliteGames {
        SqliteGames(db.clone())
    }

    fn new_game(id: &str) -> NewGame {
        let record = Record::from_json(
            r#"{ "format": 1, "rules": { "preset": "standard" }, "players": ["Ada", "Bot"], "deck": ["E", "V"] }"#,
        )
        .unwrap();
        NewGame {
            id: id.into(),
            record,
            live_seed: Some(u64::MAX - 5),
            seats: vec![
                Seat::Human { name: "Ada".into(), token_hash: hash_token("t0"), remote: false, account: None },
                Seat::Bot { name: "Bot".into(), level: BotLevel::Random },
            ],
            created_at: 1,
            public: false,
            clock: None,
            deadline: None,
            owner: None,
        }
    }

    fn progress(at: i64) -> Progress {
        Progress {
            finished: false,
            scores: vec![4, 0],
            to_move: Some(1),
            winners: vec![],
            at,
            bot_turn: true,
            aborted: false,
        }
    }

    /// A database file in a folder of its own, removed on drop.
    struct Folder(std::path::PathBuf);

    impl Folder {
        fn new(name: &str) -> Folder {
            let dir = std::env::temp_dir().join(format!("carcassonne-{name}-{}", std::process::id()));
            std::fs::create_dir_all(&dir).unwrap();
            Folder(dir)
        }
    }

    impl Drop for Folder {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    #[tokio::test]
    async fn a_file_serves_one_server_at_a_time() {
        let dir = std::env::temp_dir().join(format!("carcassonne-lock-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("games.db");
        let first = SqliteDb::open(&path).unwrap();
        games(&first).create(&new_game("g1")).await.unwrap();
        let Err(e) = SqliteDb::open(&path) else { panic!("a second server opened the file") };
        assert!(e.to_string().contains("in use by another carcassonne server"), "{e}");
        drop(first);
        // (The writer thread lets go of the file once it has answered its
        // last batch: a moment after the last write returned.)
        let mut again = SqliteDb::open(&path);
        for _ in 0..100 {
            if again.is_ok() {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
            again = SqliteDb::open(&path);
        }
        let again = again.unwrap();
        assert!(games(&again).load("g1").await.unwrap().is_some(), "the game is still there");
        drop(again);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[tokio::test]
    #[allow(clippy::await_holding_lock)] // the writer held on purpose, while reading
    async fn a_read_waits_for_no_write() {
        let dir = Folder::new("reads");
        let store = SqliteDb::open(&dir.0.join("games.db")).unwrap();
        games(&store).create(&new_game("g1")).await.unwrap();
        // The writer's connection busy (as during a long commit's sync):
        // games are still loaded and listed.
        let writing = store.0.conn();
        let read = tokio::time::timeout(std::time::Duration::from_secs(20), async {
            (games(&store).load("g1").await.unwrap().is_some(), games(&store).list(10).await.unwrap().len())
        });
        assert_eq!(read.await.expect("a read waited for the writer"), (true, 1));
        drop(writing);
    }

    #[tokio::test]
    async fn the_log_is_checkpointed_off_the_writers_path() {
        let dir = Folder::new("checkpoints");
        let store = SqliteDb::open(&dir.0.join("games.db")).unwrap();
        let auto: i64 = store.0.conn().pragma_query_value(None, "wal_autocheckpoint", |r| r.get(0)).unwrap();
        assert_eq!(auto, 0, "the writer leaves checkpoints to the checkpointer");
        games(&store).create(&new_game("g1")).await.unwrap();
        let m = RecordMove {
            tile: "E".into(),
            at: [0, -1],
            rot: 2,
            meeple: None,
            abbot: None,
            recall: None,
            ..Default::default()
        };
        for ply in 0..200 {
            games(&store).append_move("g1", ply, &m, &progress(ply as i64)).await.unwrap();
        }
        // Every page of the log reaches the file, without a checkpoint on
        // the writer's side.
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
        loop {
            let (busy, log, copied): (i64, i64, i64) = store
                .0
                .read()
                .query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
                .unwrap();
            let checkpointer = store.0.checkpointed.load(std::sync::atomic::Ordering::Relaxed);
            if checkpointer > 0 && busy == 0 && log == copied {
                break;
            }
            assert!(std::time::Instant::now() < deadline, "checkpoints {checkpointer}, log {log}, copied {copied}");
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
        assert_eq!(games(&store).load("g1").await.unwrap().unwrap().record.moves.len(), 200);
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_stream_of_commits_has_the_log_start_over() {
        let dir = Folder::new("restarts");
        let limit = 64 << 10;
        let store = std::sync::Arc::new(SqliteDb::open_with(&dir.0.join("games.db"), limit).unwrap());
        for g in 0..8 {
            games(&store).create(&new_game(&format!("g{g}"))).await.unwrap();
        }
        // Eight games moving all along (for a second or so): the writer
        // commits without a pause, so a passive checkpoint seldom, if ever,
        // finds the log at rest.
        let mut moving = tokio::task::JoinSet::new();
        for g in 0..8 {
            let store = std::sync::Arc::clone(&store);
            moving.spawn(async move {
                let m = RecordMove {
                    tile: "E".into(),
                    at: [g, -1],
                    rot: 2,
                    meeple: None,
                    abbot: None,
                    recall: None,
                    ..Default::default()
                };
                for ply in 0..400 {
                    games(&store).append_move(&format!("g{g}"), ply, &m, &progress(ply as i64)).await.unwrap();
                    tokio::time::sleep(std::time::Duration::from_millis(2)).await;
                }
            });
        }
        let wal = dir.0.join("games.db-wal");
        let mut largest = 0;
        while !moving.is_empty() {
            largest = largest.max(std::fs::metadata(&wal).map(|m| m.len()).unwrap_or(0));
            if let Ok(Some(done)) = tokio::time::timeout(std::time::Duration::from_millis(5), moving.join_next()).await
            {
                done.unwrap();
            }
        }
        // Past the limit, the checkpointer had the log start over (without
        // it, this log keeps growing for as long as the stream lasts).
        let restarts = store.0.restarted.load(std::sync::atomic::Ordering::Relaxed);
        assert!(restarts > 0, "the log never started over; it reached {largest} bytes");
        for g in 0..8 {
            assert_eq!(games(&store).load(&format!("g{g}")).await.unwrap().unwrap().record.moves.len(), 400);
        }
    }

    #[test]
    fn a_write_that_fails_past_its_checks_leaves_the_rest_of_its_batch_alone() {
        let store = SqliteDb::in_memory().unwrap();
        let m = RecordMove {
            tile: "E".into(),
            at: [0, -1],
            rot: 2,
            meeple: None,
            abbot: None,
            recall: None,
            ..Default::default()
        };
        let mut conn = store.0.conn();
        for g in ["a", "b", "c"] {
            let (setup, progress) = new_game(g).setup_and_progress();
            conn.execute(
                "INSERT INTO games (id, setup, seats, progress, moves, created_at, updated_at) VALUES (?1, ?2, '[]', ?3, 0, 1, 1)",
                params![g, serde_json::to_string(&setup).unwrap(), serde_json::to_string(&progress).unwrap()],
            )
            .unwrap();
        }
        // A stray move where game b's first move goes: b's row says the
        // place is free, so only the insert finds out.
        conn.execute("INSERT INTO moves (game_id, ply, body) VALUES ('b', 0, '{}')", []).unwrap();
        // The games repository's own write, as it queues it.
        let append = |id: &str| crate::store::games::sqlite::append(id, 0, &m, &progress(5)).unwrap();
        let outcomes = commit_batch(&mut conn, vec![append("a"), append("b"), append("c"), append("gone")]);
        let ok: Vec<bool> = outcomes.iter().map(Result::is_ok).collect();
        assert_eq!(ok, [true, false, true, false]);
        assert!(matches!(&outcomes[1], Err(StoreError::Failed(_))), "{:?}", outcomes[1]);
        let moves = |g: &str| -> (i64, i64) {
            conn.query_row("SELECT moves, updated_at FROM games WHERE id = ?1", [g], |r| Ok((r.get(0)?, r.get(1)?)))
                .unwrap()
        };
        assert_eq!(moves("a"), (1, 5));
        assert_eq!(moves("b"), (0, 1), "b's row is as it was");
        assert_eq!(moves("c"), (1, 5));
        let again = commit_batch(&mut conn, vec![append("a"), append("c")]);
        assert!(again.iter().all(|o| matches!(o, Err(StoreError::Conflict(_)))), "{again:?}");
    }

    #[tokio::test]
    async fn old_databases_have_their_tokens_hashed() {
        let mut conn = Connection::open_in_memory().unwrap();
        conn.execute_batch(MIGRATIONS[0]).unwrap();
        conn.execute_batch(MIGRATIONS[1]).unwrap();
        conn.pragma_update(None, "user_version", 2).unwrap();
        conn.execute(
            "INSERT INTO games (id, setup, seats, progress, moves, created_at, updated_at)
             VALUES ('g1', '{}', ?1, '{}', 0, 1, 1)",
            [r#"[{"kind":"human","name":"Ada","token":"t0"},{"kind":"bot","name":"B","level":"easy"}]"#],
        )
        .unwrap();
        SqliteDb::prepare(&mut conn, false).unwrap();
        let store = SqliteDb::start(Sqlite {
            conn: Mutex::new(conn),
            reader: None,
            writer: std::sync::mpsc::channel().0,
            checkpoints: None,
            checkpointed: Arc::default(),
            restarted: Arc::default(),
            start_over: Arc::default(),
            _lock: None,
        })
        .unwrap();
        let seats: String = store.0.conn().query_row("SELECT seats FROM games", [], |r| r.get(0)).unwrap();
        let seats: Vec<Seat> = serde_json::from_str(&seats).unwrap();
        assert!(seats[0].held_by("t0"));
        assert_eq!(seats[1].bot_level(), Some(BotLevel::Easy));
    }

    #[test]
    fn accounts_are_keyed_again_when_the_key_changes() {
        let mut conn = Connection::open_in_memory().unwrap();
        for (i, sql) in MIGRATIONS[..14].iter().enumerate() {
            conn.execute_batch(sql).unwrap();
            if i + 1 == 3 {
                let tx = conn.transaction().unwrap();
                hash_stored_tokens(&tx).unwrap();
                tx.commit().unwrap();
            }
        }
        conn.pragma_update(None, "user_version", 14).unwrap();
        // Keys as the old function made them (NFKC, case folded): the
        // Greek "Αda" was a key of its own.
        for (id, name, key, at) in
            [("a1", "Ada", "ada", 1), ("a2", "\u{391}da", "\u{3b1}da", 2), ("a3", "Bernie", "bernie", 3)]
        {
            conn.execute(
                "INSERT INTO accounts (id, name, name_key, password, recovery, created_at) VALUES (?1, ?2, ?3, '', '', ?4)",
                params![id, name, key, at],
            )
            .unwrap();
        }
        SqliteDb::prepare(&mut conn, false).unwrap();
        let key = |id: &str| -> String {
            conn.query_row("SELECT name_key FROM accounts WHERE id = ?1", [id], |r| r.get(0)).unwrap()
        };
        assert_eq!(key("a1"), crate::names::name_key("Ada"));
        assert_eq!(key("a3"), crate::names::name_key("Bernie"), "keyed again: {}", key("a3"));
        assert_eq!(key("a2"), format!("{}#a2", crate::names::name_key("Ada")), "the younger look-alike steps aside");
    }

    /// A database of the schema after `version` migrations, with a game `g`.
    fn with_a_game_at(version: usize) -> Connection {
        let conn = Connection::open_in_memory().unwrap();
        for sql in &MIGRATIONS[..version] {
            conn.execute_batch(sql).unwrap();
        }
        conn.pragma_update(None, "user_version", version as i64).unwrap();
        conn.execute(
            "INSERT INTO games (id, setup, seats, progress, moves, created_at, updated_at)
             VALUES ('g', '{}', '[]', '{}', 0, 1, 1)",
            [],
        )
        .unwrap();
        conn
    }

    #[test]
    fn spectators_numbered_before_keep_their_numbers() {
        let mut conn = with_a_game_at(15);
        // As the older server wrote them: a spectator by a hash of their address.
        for (seq, seat, author, name) in [
            (1, Some(0), "seat:0", "Ada"),
            (2, None, "h1", "Spectator 1"),
            (3, None, "h2", "Eve"),
            (4, None, "h3", "Spectator 3"),
            (5, None, "h1", "Spectator 1"),
            (6, None, "h4", "Spectator Sport"),
        ] {
            conn.execute(
                "INSERT INTO chat_messages (game_id, seq, seat, author, name, text, at) VALUES ('g', ?1, ?2, ?3, ?4, 'hi', 1)",
                params![seq, seat, author, name],
            )
            .unwrap();
        }
        SqliteDb::prepare(&mut conn, false).unwrap();
        let numbers: Vec<(i64, Option<i64>, bool)> = conn
            .prepare("SELECT seq, spectator, account FROM chat_messages ORDER BY seq")
            .unwrap()
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        let expected = [(1, None), (2, Some(1)), (3, None), (4, Some(3)), (5, Some(1)), (6, None)];
        assert_eq!(numbers, expected.map(|(seq, n)| (seq, n, false)));
        let keys: Vec<(String, i64)> = conn
            .prepare("SELECT key, number FROM chat_spectators ORDER BY number")
            .unwrap()
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        assert_eq!(keys, [("h1".to_string(), 1), ("h3".to_string(), 3)], "their addresses name them still");
    }

    #[test]
    fn signed_in_spectators_messages_written_before_stay_in_the_reserve() {
        let mut conn = with_a_game_at(23);
        // A player linked to an account, a signed-in spectator, a guest.
        for (seq, seat, account) in [(1, Some(0), 0), (2, None, 1), (3, None, 0)] {
            conn.execute(
                "INSERT INTO chat_messages (game_id, seq, seat, author, name, text, at, account)
                 VALUES ('g', ?1, ?2, 'x', 'X', 'hi', 1, ?3)",
                params![seq, seat, account],
            )
            .unwrap();
        }
        SqliteDb::prepare(&mut conn, false).unwrap();
        let kept: Vec<(i64, bool)> = conn
            .prepare("SELECT seq, kept FROM chat_messages ORDER BY seq")
            .unwrap()
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        assert_eq!(kept, [(1, false), (2, true), (3, false)]);
    }

    #[tokio::test]
    async fn moves_written_at_once_are_committed_together_and_each_checked() {
        let dir = std::env::temp_dir().join(format!("carcassonne-group-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let store = std::sync::Arc::new(SqliteDb::open(&dir.join("games.db")).unwrap());
        for g in 0..8 {
            games(&store).create(&new_game(&format!("g{g}"))).await.unwrap();
        }
        // 8 games × 10 moves from 16 threads: two writers race for every move.
        let outcomes: Vec<(usize, usize, bool)> = std::thread::scope(|scope| {
            let handles: Vec<_> = (0..16)
                .map(|w| {
                    let store = std::sync::Arc::clone(&store);
                    scope.spawn(move || {
                        let g = w % 8;
                        let mut out = Vec::new();
                        for ply in 0..10 {
                            let m = RecordMove {
                                tile: "E".into(),
                                at: [w as i32, ply as i32],
                                rot: 0,
                                meeple: None,
                                abbot: None,
                                recall: None,
                                ..Default::default()
                            };
                            let write =
                                crate::store::games::sqlite::append(&format!("g{g}"), ply, &m, &progress(ply as i64));
                            let r = store.queue(write.unwrap()).unwrap().blocking_wait();
                            assert!(!matches!(r, Err(StoreError::Failed(_))), "{r:?}");
                            out.push((g, ply, r.is_ok()));
                        }
                        out
                    })
                })
                .collect();
            handles.into_iter().flat_map(|h| h.join().unwrap()).collect()
        });
        for g in 0..8 {
            let stored = games(&store).load(&format!("g{g}")).await.unwrap().unwrap();
            assert_eq!(stored.record.moves.len(), 10);
            for ply in 0..10 {
                let wins: Vec<_> = outcomes.iter().filter(|o| o.0 == g && o.1 == ply && o.2).collect();
                assert_eq!(wins.len(), 1, "game {g} move {ply}: exactly one writer wins");
            }
        }
        drop(store);
        let _ = std::fs::remove_dir_all(&dir);
    }
}

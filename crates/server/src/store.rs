//! Where games are kept: a narrow trait of our own, and its SQLite
//! implementation.
//!
//! A game is stored as its record (record.md) split in two: the setup (rules,
//! players, start tile, the whole deck) written once, and the moves appended
//! one row each. The state of a game is always rebuilt by replaying the
//! record, so saving, reloading, restarting and replaying share one path.

use std::fmt;
use std::path::Path;
use std::sync::Mutex;

use carcassonne::record::{Record, RecordMove};
use rusqlite::{params, Connection, OptionalExtension};
use serde::{Deserialize, Serialize};

use crate::bots::BotLevel;

/// Who sits in a seat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Seat {
    /// A person; whoever holds `token` plays this seat.
    Human { name: String, token: String },
    /// A computer player that moves on the server.
    Bot { name: String, level: BotLevel },
}

impl Seat {
    pub fn name(&self) -> &str {
        match self {
            Seat::Human { name, .. } | Seat::Bot { name, .. } => name,
        }
    }

    pub fn bot_level(&self) -> Option<BotLevel> {
        match self {
            Seat::Bot { level, .. } => Some(*level),
            Seat::Human { .. } => None,
        }
    }
}

/// A game about to be stored: its record (deck included, no moves yet) and seats.
#[derive(Clone, Debug)]
pub struct NewGame {
    pub id: String,
    pub record: Record,
    /// The seed of the live bag (`Setup::live_seed`): with the `reshuffle`
    /// house rule, where a tile sent back into the bag goes.
    pub live_seed: Option<u64>,
    pub seats: Vec<Seat>,
    /// Unix time in milliseconds.
    pub created_at: i64,
}

/// A stored game: the record with every move, and its seats.
#[derive(Clone, Debug)]
pub struct StoredGame {
    pub id: String,
    /// The record as created (the deck in its first order) with every move since.
    pub record: Record,
    pub live_seed: Option<u64>,
    pub seats: Vec<Seat>,
    pub created_at: i64,
    pub updated_at: i64,
}

/// What a listing needs to know of a game after a move, kept beside the moves
/// so that listing never replays.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Progress {
    pub finished: bool,
    pub scores: Vec<u32>,
    /// Seat to move, `None` once finished.
    pub to_move: Option<u8>,
    pub winners: Vec<u8>,
    /// Unix time in milliseconds.
    pub at: i64,
}

/// One line of the games list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameSummary {
    pub id: String,
    pub seats: Vec<Seat>,
    pub rules: serde_json::Map<String, serde_json::Value>,
    pub moves: usize,
    pub progress: Progress,
    pub created_at: i64,
}

/// A storage failure. Its text is for the server's log, not for players.
#[derive(Debug)]
pub struct StoreError(pub String);

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "storage: {}", self.0)
    }
}

impl std::error::Error for StoreError {}

impl From<rusqlite::Error> for StoreError {
    fn from(e: rusqlite::Error) -> Self {
        StoreError(e.to_string())
    }
}

impl From<serde_json::Error> for StoreError {
    fn from(e: serde_json::Error) -> Self {
        StoreError(e.to_string())
    }
}

/// The storage a server needs, and no more. Every method is durable when it
/// returns `Ok`: the server acknowledges a move only after `append_move`.
///
/// The methods block; the server calls them off its async threads.
pub trait Store: Send + Sync {
    /// Stores a new game.
    ///
    /// # Errors
    /// The id is taken, or the storage fails.
    fn create_game(&self, game: &NewGame) -> Result<(), StoreError>;

    /// Appends move number `ply` (0-based) to game `id`, with the game's
    /// progress after it, in one transaction.
    ///
    /// # Errors
    /// No such game, a move `ply` already stored (two writers), or the storage fails.
    fn append_move(&self, id: &str, ply: usize, mv: &RecordMove, progress: &Progress) -> Result<(), StoreError>;

    /// The game with every move, or `None` if there is no such game.
    ///
    /// # Errors
    /// The storage fails or holds something unreadable.
    fn load(&self, id: &str) -> Result<Option<StoredGame>, StoreError>;

    /// The most recently played games first, at most `limit`.
    ///
    /// # Errors
    /// The storage fails.
    fn list(&self, limit: usize) -> Result<Vec<GameSummary>, StoreError>;
}

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
];

/// Games in one SQLite file.
pub struct SqliteStore {
    conn: Mutex<Connection>,
}

impl SqliteStore {
    /// Opens (or creates) the database file and brings its schema up to date.
    ///
    /// # Errors
    /// The file cannot be opened, or is a database from a newer version.
    pub fn open(path: &Path) -> Result<SqliteStore, StoreError> {
        let conn = Connection::open(path).map_err(|e| StoreError(format!("cannot open {}: {e}", path.display())))?;
        SqliteStore::init(conn)
    }

    /// A database in memory (tests).
    ///
    /// # Errors
    /// SQLite fails to start.
    pub fn in_memory() -> Result<SqliteStore, StoreError> {
        SqliteStore::init(Connection::open_in_memory()?)
    }

    fn init(mut conn: Connection) -> Result<SqliteStore, StoreError> {
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        // WAL with synchronous=FULL: a committed move survives a power cut.
        conn.pragma_update_and_check(None, "journal_mode", "WAL", |_| Ok(()))?;
        conn.pragma_update(None, "synchronous", "FULL")?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        migrate(&mut conn)?;
        Ok(SqliteStore { conn: Mutex::new(conn) })
    }

    fn conn(&self) -> std::sync::MutexGuard<'_, Connection> {
        // A panic while holding the lock cannot leave a half-done transaction
        // behind (rusqlite rolls back on drop), so a poisoned lock is usable.
        self.conn.lock().unwrap_or_else(|e| e.into_inner())
    }
}

fn migrate(conn: &mut Connection) -> Result<(), StoreError> {
    let version: i64 = conn.pragma_query_value(None, "user_version", |r| r.get(0))?;
    let known = MIGRATIONS.len() as i64;
    if version > known {
        return Err(StoreError(format!(
            "the database has schema version {version}, newer than this program's {known}: use a newer carcassonne"
        )));
    }
    for (i, sql) in MIGRATIONS.iter().enumerate().skip(version as usize) {
        let tx = conn.transaction()?;
        tx.execute_batch(sql)?;
        tx.pragma_update(None, "user_version", i as i64 + 1)?;
        tx.commit()?;
        tracing::info!(version = i + 1, "database migrated");
    }
    Ok(())
}

impl Store for SqliteStore {
    fn create_game(&self, game: &NewGame) -> Result<(), StoreError> {
        let mut setup = game.record.clone();
        setup.moves.clear();
        let progress = Progress {
            finished: false,
            scores: vec![0; game.seats.len()],
            to_move: Some(setup.first.unwrap_or(0)),
            winners: Vec::new(),
            at: game.created_at,
        };
        self.conn().execute(
            "INSERT INTO games (id, setup, seats, progress, moves, created_at, updated_at, live_seed)
             VALUES (?1, ?2, ?3, ?4, 0, ?5, ?5, ?6)",
            params![
                game.id,
                serde_json::to_string(&setup)?,
                serde_json::to_string(&game.seats)?,
                serde_json::to_string(&progress)?,
                game.created_at,
                // SQLite integers are signed: the seed's bits are kept as they are.
                game.live_seed.map(|s| s as i64)
            ],
        )?;
        Ok(())
    }

    fn append_move(&self, id: &str, ply: usize, mv: &RecordMove, progress: &Progress) -> Result<(), StoreError> {
        let mut conn = self.conn();
        let tx = conn.transaction()?;
        let moves: Option<i64> =
            tx.query_row("SELECT moves FROM games WHERE id = ?1", [id], |r| r.get(0)).optional()?;
        match moves {
            None => return Err(StoreError(format!("no game {id}"))),
            Some(n) if n != ply as i64 => {
                return Err(StoreError(format!("game {id} has {n} moves stored, not {ply}")));
            }
            Some(_) => {}
        }
        tx.execute(
            "INSERT INTO moves (game_id, ply, body) VALUES (?1, ?2, ?3)",
            params![id, ply as i64, serde_json::to_string(mv)?],
        )?;
        tx.execute(
            "UPDATE games SET moves = ?2, progress = ?3, updated_at = ?4 WHERE id = ?1",
            params![id, ply as i64 + 1, serde_json::to_string(progress)?, progress.at],
        )?;
        tx.commit()?;
        Ok(())
    }

    fn load(&self, id: &str) -> Result<Option<StoredGame>, StoreError> {
        let conn = self.conn();
        type Row = (String, String, i64, i64, Option<i64>);
        let row: Option<Row> = conn
            .query_row("SELECT setup, seats, created_at, updated_at, live_seed FROM games WHERE id = ?1", [id], |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?))
            })
            .optional()?;
        let Some((setup, seats, created_at, updated_at, live_seed)) = row else {
            return Ok(None);
        };
        let mut record: Record = serde_json::from_str(&setup)?;
        let seats: Vec<Seat> = serde_json::from_str(&seats)?;
        let mut stmt = conn.prepare("SELECT body FROM moves WHERE game_id = ?1 ORDER BY ply")?;
        let bodies = stmt.query_map([id], |r| r.get::<_, String>(0))?;
        record.moves.clear();
        for body in bodies {
            record.moves.push(serde_json::from_str(&body?)?);
        }
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
        let conn = self.conn();
        let mut stmt = conn.prepare(
            "SELECT id, setup, seats, progress, moves, created_at FROM games
             ORDER BY updated_at DESC, id LIMIT ?1",
        )?;
        let rows = stmt.query_map([limit as i64], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, String>(2)?,
                r.get::<_, String>(3)?,
                r.get::<_, i64>(4)?,
                r.get::<_, i64>(5)?,
            ))
        })?;
        let mut out = Vec::new();
        for row in rows {
            let (id, setup, seats, progress, moves, created_at) = row?;
            // Only the rules are read from the setup: the deck stays where it is.
            let setup: serde_json::Value = serde_json::from_str(&setup)?;
            let rules = setup.get("rules").and_then(|r| r.as_object()).cloned().unwrap_or_default();
            out.push(GameSummary {
                id,
                seats: serde_json::from_str(&seats)?,
                rules,
                moves: moves.max(0) as usize,
                progress: serde_json::from_str(&progress)?,
                created_at,
            });
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
                Seat::Human { name: "Ada".into(), token: "t0".into() },
                Seat::Bot { name: "Bot".into(), level: BotLevel::Random },
            ],
            created_at: 1,
        }
    }

    fn progress(at: i64) -> Progress {
        Progress { finished: false, scores: vec![4, 0], to_move: Some(1), winners: vec![], at }
    }

    #[test]
    fn a_game_round_trips_with_its_moves_in_order() {
        let store = SqliteStore::in_memory().unwrap();
        store.create_game(&new_game("g1")).unwrap();
        let m0 =
            RecordMove { tile: "E".into(), at: [0, -1], rot: 2, meeple: Some("S".into()), abbot: None, recall: None };
        store.append_move("g1", 0, &m0, &progress(5)).unwrap();
        let g = store.load("g1").unwrap().unwrap();
        assert_eq!(g.record.moves, vec![m0]);
        assert_eq!(g.record.deck.as_deref(), Some(&["E".to_string(), "V".to_string()][..]));
        assert_eq!(g.seats.len(), 2);
        assert_eq!(g.updated_at, 5);
        assert_eq!(g.live_seed, Some(u64::MAX - 5), "a seed keeps all 64 bits");
        let list = store.list(10).unwrap();
        assert_eq!(list.len(), 1);
        assert_eq!(list[0].moves, 1);
        assert_eq!(list[0].progress.scores, vec![4, 0]);
        assert!(store.load("nope").unwrap().is_none());
    }

    #[test]
    fn a_move_out_of_sequence_is_refused() {
        let store = SqliteStore::in_memory().unwrap();
        store.create_game(&new_game("g1")).unwrap();
        let m = RecordMove { tile: "E".into(), at: [0, -1], rot: 2, meeple: None, abbot: None, recall: None };
        assert!(store.append_move("g1", 1, &m, &progress(2)).is_err());
        store.append_move("g1", 0, &m, &progress(2)).unwrap();
        assert!(store.append_move("g1", 0, &m, &progress(3)).is_err(), "a second writer of move 0");
        assert!(store.append_move("nope", 0, &m, &progress(3)).is_err());
        assert_eq!(store.load("g1").unwrap().unwrap().record.moves.len(), 1);
    }

    #[test]
    fn a_duplicate_id_is_refused() {
        let store = SqliteStore::in_memory().unwrap();
        store.create_game(&new_game("g1")).unwrap();
        assert!(store.create_game(&new_game("g1")).is_err());
    }
}

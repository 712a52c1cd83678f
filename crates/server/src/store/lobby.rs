//! The lobby's storage (`services::lobby`): open tables, and the players
//! waiting for "Play now". Every change that must happen once, whichever
//! server asks (a seat taken, a table started, two waiting players paired),
//! is a conditional write: a table's row changes only at the version it was
//! read at; a waiting player is paired only while nobody has paired them.

use rusqlite::{params, OptionalExtension};

use super::{SqliteStore, StoreError};

/// A lobby table as stored. Its `body` is the service's JSON; `version`
/// counts its changes (a change names the version it was made from).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LobbyRow {
    pub id: String,
    /// Whom the table counts against (the host's account, or address).
    pub owner: String,
    pub body: String,
    pub version: i64,
    /// Open for seats (false once started).
    pub open: bool,
    /// Unix ms: when its host was last heard from (its start, once started).
    pub seen_at: i64,
    pub created_at: i64,
}

/// A player waiting for "Play now".
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Waiting {
    pub id: String,
    /// Whom the wait counts against (the account, or address).
    pub owner: String,
    /// The hash of the seat token of the game to come.
    pub token_hash: String,
    pub name: String,
    pub rating: i64,
    /// The service's JSON (the bot game offered after a wait).
    pub body: String,
    /// Unix ms: when the wait began, and when the player last asked.
    pub since: i64,
    pub seen_at: i64,
    /// The game they were paired into, and their seat there.
    pub game: Option<String>,
    pub seat: Option<i64>,
}

/// What the lobby's sweep removes (Unix ms): open tables whose host was not
/// heard from since `open_before`, started ones since `started_before`;
/// unpaired waits not asked about since `waiting_before`, paired ones since
/// `paired_before`.
#[derive(Clone, Copy, Debug)]
pub struct LobbySweep {
    pub open_before: i64,
    pub started_before: i64,
    pub waiting_before: i64,
    pub paired_before: i64,
}

pub(super) const TABLE_COLUMNS: &str = "id, owner, body, version, open, seen_at, created_at";
pub(super) const WAITING_COLUMNS: &str = "id, owner, token_hash, name, rating, body, since, seen_at, game, seat";

fn table_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<LobbyRow> {
    Ok(LobbyRow {
        id: r.get(0)?,
        owner: r.get(1)?,
        body: r.get(2)?,
        version: r.get(3)?,
        open: r.get(4)?,
        seen_at: r.get(5)?,
        created_at: r.get(6)?,
    })
}

fn waiting_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<Waiting> {
    Ok(Waiting {
        id: r.get(0)?,
        owner: r.get(1)?,
        token_hash: r.get(2)?,
        name: r.get(3)?,
        rating: r.get(4)?,
        body: r.get(5)?,
        since: r.get(6)?,
        seen_at: r.get(7)?,
        game: r.get(8)?,
        seat: r.get(9)?,
    })
}

fn cap(n: usize) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

pub(super) async fn open(s: &SqliteStore, row: &LobbyRow, per_owner: usize, total: usize) -> Result<bool, StoreError> {
    let row = row.clone();
    s.run(move |db| {
        let n = db.conn().execute(
            "INSERT INTO lobby_tables (id, owner, body, version, open, seen_at, created_at)
             SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7
             WHERE (SELECT COUNT(*) FROM lobby_tables WHERE owner = ?2 AND open) < ?8
               AND (SELECT COUNT(*) FROM lobby_tables) < ?9",
            params![
                row.id,
                row.owner,
                row.body,
                row.version,
                row.open,
                row.seen_at,
                row.created_at,
                cap(per_owner),
                cap(total)
            ],
        )?;
        Ok(n == 1)
    })
    .await
}

pub(super) async fn tables(s: &SqliteStore, limit: usize) -> Result<Vec<LobbyRow>, StoreError> {
    s.run(move |db| {
        let conn = db.conn();
        let mut stmt =
            conn.prepare(&format!("SELECT {TABLE_COLUMNS} FROM lobby_tables ORDER BY created_at, id LIMIT ?1"))?;
        let rows = stmt.query_map([cap(limit)], table_row)?;
        Ok(rows.collect::<Result<_, _>>()?)
    })
    .await
}

pub(super) async fn table(s: &SqliteStore, id: &str) -> Result<Option<LobbyRow>, StoreError> {
    let id = id.to_string();
    s.run(move |db| {
        let conn = db.conn();
        let sql = format!("SELECT {TABLE_COLUMNS} FROM lobby_tables WHERE id = ?1");
        Ok(conn.query_row(&sql, [&id], table_row).optional()?)
    })
    .await
}

pub(super) async fn update(
    s: &SqliteStore,
    id: &str,
    version: i64,
    next: Option<(&str, bool, i64)>,
) -> Result<bool, StoreError> {
    let id = id.to_string();
    let next = next.map(|(body, open, seen)| (body.to_string(), open, seen));
    s.run(move |db| {
        let conn = db.conn();
        let n = match next {
            Some((body, open, seen_at)) => conn.execute(
                "UPDATE lobby_tables SET body = ?3, open = ?4, seen_at = ?5, version = version + 1
                 WHERE id = ?1 AND version = ?2",
                params![id, version, body, open, seen_at],
            )?,
            None => conn.execute("DELETE FROM lobby_tables WHERE id = ?1 AND version = ?2", params![id, version])?,
        };
        Ok(n == 1)
    })
    .await
}

pub(super) async fn sweep(s: &SqliteStore, when: LobbySweep) -> Result<Vec<String>, StoreError> {
    s.run(move |db| {
        let mut conn = db.conn();
        let tx = conn.transaction()?;
        let gone: Vec<String> = {
            let mut stmt = tx.prepare(
                "DELETE FROM lobby_tables WHERE (open AND seen_at < ?1) OR (NOT open AND seen_at < ?2) RETURNING id",
            )?;
            let rows = stmt.query_map(params![when.open_before, when.started_before], |r| r.get(0))?;
            rows.collect::<Result<_, _>>()?
        };
        tx.execute(
            "DELETE FROM lobby_waiting WHERE (game IS NULL AND seen_at < ?1) OR (game IS NOT NULL AND seen_at < ?2)",
            params![when.waiting_before, when.paired_before],
        )?;
        tx.commit()?;
        Ok(gone)
    })
    .await
}

pub(super) async fn wait(s: &SqliteStore, w: &Waiting, per_owner: usize, total: usize) -> Result<bool, StoreError> {
    let w = w.clone();
    s.run(move |db| {
        let n = db.conn().execute(
            "INSERT INTO lobby_waiting (id, owner, token_hash, name, rating, body, since, seen_at, game, seat)
             SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, NULL, NULL
             WHERE (SELECT COUNT(*) FROM lobby_waiting WHERE owner = ?2 AND game IS NULL) < ?9
               AND (SELECT COUNT(*) FROM lobby_waiting) < ?10",
            params![
                w.id,
                w.owner,
                w.token_hash,
                w.name,
                w.rating,
                w.body,
                w.since,
                w.seen_at,
                cap(per_owner),
                cap(total)
            ],
        )?;
        Ok(n == 1)
    })
    .await
}

pub(super) async fn waiting(s: &SqliteStore, id: &str, seen_at: Option<i64>) -> Result<Option<Waiting>, StoreError> {
    let id = id.to_string();
    s.run(move |db| {
        let conn = db.conn();
        if let Some(at) = seen_at {
            conn.execute("UPDATE lobby_waiting SET seen_at = MAX(seen_at, ?2) WHERE id = ?1", params![id, at])?;
        }
        let sql = format!("SELECT {WAITING_COLUMNS} FROM lobby_waiting WHERE id = ?1");
        Ok(conn.query_row(&sql, [&id], waiting_row).optional()?)
    })
    .await
}

pub(super) async fn waiters(s: &SqliteStore, seen_after: i64, limit: usize) -> Result<Vec<Waiting>, StoreError> {
    s.run(move |db| {
        let conn = db.conn();
        let mut stmt = conn.prepare(&format!(
            "SELECT {WAITING_COLUMNS} FROM lobby_waiting WHERE game IS NULL AND seen_at >= ?1
             ORDER BY since, id LIMIT ?2"
        ))?;
        let rows = stmt.query_map(params![seen_after, cap(limit)], waiting_row)?;
        Ok(rows.collect::<Result<_, _>>()?)
    })
    .await
}

pub(super) async fn pair(s: &SqliteStore, ids: &[String], game: &str) -> Result<bool, StoreError> {
    let (ids, game) = (ids.to_vec(), game.to_string());
    s.run(move |db| {
        let mut conn = db.conn();
        let tx = conn.transaction()?;
        for (seat, id) in ids.iter().enumerate() {
            let n = tx.execute(
                "UPDATE lobby_waiting SET game = ?2, seat = ?3 WHERE id = ?1 AND game IS NULL",
                params![id, game, seat as i64],
            )?;
            if n != 1 {
                return Ok(false); // rolled back as the transaction drops
            }
        }
        tx.commit()?;
        Ok(true)
    })
    .await
}

pub(super) async fn cancel(s: &SqliteStore, id: &str) -> Result<bool, StoreError> {
    let id = id.to_string();
    s.run(move |db| Ok(db.conn().execute("DELETE FROM lobby_waiting WHERE id = ?1 AND game IS NULL", [&id])? == 1))
        .await
}

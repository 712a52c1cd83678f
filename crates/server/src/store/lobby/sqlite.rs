//! The lobby's tables and "Play now" waits in SQLite.

use rusqlite::{params, OptionalExtension};

use super::{cap, LobbyRepo, LobbyRow, LobbySweep, Waiting, TABLE_COLUMNS, WAITING_COLUMNS};
use crate::store::error::StoreError;
use crate::store::sqlite::SqliteDb;

/// The lobby of one SQLite file.
pub(crate) struct SqliteLobby(pub(crate) SqliteDb);

#[async_trait::async_trait]
impl LobbyRepo for SqliteLobby {
    async fn open(&self, row: &LobbyRow, per_owner: usize, total: usize) -> Result<bool, StoreError> {
        let row = row.clone();
        self.0
            .run(move |db| {
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

    async fn tables(&self, limit: usize) -> Result<Vec<LobbyRow>, StoreError> {
        self.0
            .run(move |db| {
                let conn = db.conn();
                let mut stmt = conn
                    .prepare(&format!("SELECT {TABLE_COLUMNS} FROM lobby_tables ORDER BY created_at, id LIMIT ?1"))?;
                let rows = stmt.query_map([cap(limit)], table_row)?;
                Ok(rows.collect::<Result<_, _>>()?)
            })
            .await
    }

    async fn table(&self, id: &str) -> Result<Option<LobbyRow>, StoreError> {
        let id = id.to_string();
        self.0
            .run(move |db| {
                let conn = db.conn();
                let sql = format!("SELECT {TABLE_COLUMNS} FROM lobby_tables WHERE id = ?1");
                Ok(conn.query_row(&sql, [&id], table_row).optional()?)
            })
            .await
    }

    async fn update(&self, id: &str, version: i64, next: Option<(&str, bool, i64)>) -> Result<bool, StoreError> {
        let id = id.to_string();
        let next = next.map(|(body, open, seen)| (body.to_string(), open, seen));
        self.0
            .run(move |db| {
                let conn = db.conn();
                let n = match next {
                    Some((body, open, seen_at)) => conn.execute(
                        "UPDATE lobby_tables SET body = ?3, open = ?4, seen_at = ?5, version = version + 1
                     WHERE id = ?1 AND version = ?2",
                        params![id, version, body, open, seen_at],
                    )?,
                    None => {
                        conn.execute("DELETE FROM lobby_tables WHERE id = ?1 AND version = ?2", params![id, version])?
                    }
                };
                Ok(n == 1)
            })
            .await
    }

    async fn sweep(&self, when: LobbySweep) -> Result<Vec<String>, StoreError> {
        self.0.run(move |db| {
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

    async fn wait(&self, w: &Waiting, per_owner: usize, total: usize) -> Result<bool, StoreError> {
        let w = w.clone();
        self.0
            .run(move |db| {
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

    async fn waiting(&self, id: &str, seen_at: Option<i64>) -> Result<Option<Waiting>, StoreError> {
        let id = id.to_string();
        self.0
            .run(move |db| {
                let conn = db.conn();
                if let Some(at) = seen_at {
                    conn.execute("UPDATE lobby_waiting SET seen_at = MAX(seen_at, ?2) WHERE id = ?1", params![id, at])?;
                }
                let sql = format!("SELECT {WAITING_COLUMNS} FROM lobby_waiting WHERE id = ?1");
                Ok(conn.query_row(&sql, [&id], waiting_row).optional()?)
            })
            .await
    }

    async fn waiters(&self, seen_after: i64, limit: usize) -> Result<Vec<Waiting>, StoreError> {
        self.0
            .run(move |db| {
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

    async fn pair(&self, ids: &[String], game: &str) -> Result<bool, StoreError> {
        let (ids, game) = (ids.to_vec(), game.to_string());
        self.0
            .run(move |db| {
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

    async fn cancel(&self, id: &str) -> Result<bool, StoreError> {
        let id = id.to_string();
        self.0
            .run(move |db| {
                Ok(db.conn().execute("DELETE FROM lobby_waiting WHERE id = ?1 AND game IS NULL", [&id])? == 1)
            })
            .await
    }
}

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

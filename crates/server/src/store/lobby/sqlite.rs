//! The lobby's tables and "Play now" waits in SQLite. One connection
//! writes: each admission is counted and written in one transaction.

use rusqlite::{params, OptionalExtension, Transaction};

use super::{
    cap, person_sql, Admission, LobbyRepo, LobbyRow, LobbySweep, TableBounds, WaitBounds, Waiting, TABLE_COLUMNS,
    WAITING_COLUMNS,
};
use crate::store::error::StoreError;
use crate::store::sqlite::SqliteDb;

/// The lobby of one SQLite file.
pub(crate) struct SqliteLobby(pub(crate) SqliteDb);

fn count(tx: &Transaction<'_>, sql: &str, params: impl rusqlite::Params) -> Result<i64, StoreError> {
    Ok(tx.query_row(sql, params, |r| r.get(0))?)
}

#[async_trait::async_trait]
impl LobbyRepo for SqliteLobby {
    async fn open(&self, row: &LobbyRow, bounds: &TableBounds) -> Result<Admission, StoreError> {
        let (row, b) = (row.clone(), *bounds);
        self.0
            .run(move |db| {
                let mut conn = db.conn();
                let tx = conn.transaction()?;
                let mine = count(&tx, "SELECT COUNT(*) FROM lobby_tables WHERE owner = ?1 AND open", [&row.owner])?;
                let here = count(
                    &tx,
                    "SELECT COUNT(*) FROM lobby_tables WHERE address = ?1 AND open AND NOT known",
                    [&row.address],
                )?;
                let all = count(&tx, "SELECT COUNT(*) FROM lobby_tables", [])?;
                let fresh = count(&tx, "SELECT COUNT(*) FROM lobby_tables WHERE NOT known", [])?;
                let admission = b.admit(row.known, [mine, here, all, fresh]);
                if admission == Admission::Admitted {
                    tx.execute(
                        &format!(
                            "INSERT INTO lobby_tables ({TABLE_COLUMNS}) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)"
                        ),
                        params![
                            row.id,
                            row.owner,
                            row.address,
                            row.known,
                            row.body,
                            row.version,
                            row.open,
                            row.seen_at,
                            row.created_at
                        ],
                    )?;
                }
                tx.commit()?;
                Ok(admission)
            })
            .await
    }

    async fn tables(&self, limit: usize) -> Result<Vec<LobbyRow>, StoreError> {
        self.0
            .run(move |db| {
                let conn = db.conn();
                let mut stmt = conn.prepare(&format!(
                    "SELECT {TABLE_COLUMNS} FROM lobby_tables ORDER BY open DESC, created_at, id LIMIT ?1"
                ))?;
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
                        "UPDATE lobby_tables SET body = ?3, open = ?4, seen_at = MAX(seen_at, ?5), version = version + 1
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

    async fn touch(&self, tables: &[String], waits: &[String], at: i64) -> Result<(), StoreError> {
        let (tables, waits) = (tables.to_vec(), waits.to_vec());
        self.0
            .run(move |db| {
                let mut conn = db.conn();
                let tx = conn.transaction()?;
                {
                    let mut t =
                        tx.prepare("UPDATE lobby_tables SET seen_at = MAX(seen_at, ?2) WHERE id = ?1 AND open")?;
                    for id in &tables {
                        t.execute(params![id, at])?;
                    }
                    let mut w = tx.prepare(
                        "UPDATE lobby_waiting SET seen_at = MAX(seen_at, ?2) WHERE id = ?1 AND game IS NULL",
                    )?;
                    for id in &waits {
                        w.execute(params![id, at])?;
                    }
                }
                tx.commit()?;
                Ok(())
            })
            .await
    }

    async fn sweep(&self, when: LobbySweep) -> Result<Vec<String>, StoreError> {
        self.0
            .run(move |db| {
                let mut conn = db.conn();
                let tx = conn.transaction()?;
                let gone: Vec<String> = {
                    let mut stmt = tx.prepare(
                        "DELETE FROM lobby_tables WHERE (open AND seen_at < ?1) OR (NOT open AND seen_at < ?2)
                         RETURNING id",
                    )?;
                    let rows = stmt.query_map(params![when.open_before, when.started_before], |r| r.get(0))?;
                    rows.collect::<Result<_, _>>()?
                };
                tx.execute(
                    "DELETE FROM lobby_waiting WHERE (game IS NULL AND seen_at < ?1) OR (ready AND seen_at < ?2)",
                    params![when.waiting_before, when.paired_before],
                )?;
                // A claim whose game never came (its server stopped between):
                // the waits wait again, seen now (their sockets, if any, say so).
                tx.execute(
                    "UPDATE lobby_waiting SET game = NULL, seat = NULL, seen_at = ?2
                     WHERE game IS NOT NULL AND NOT ready AND seen_at < ?1",
                    params![when.waiting_before, when.waiting_before],
                )?;
                tx.commit()?;
                Ok(gone)
            })
            .await
    }

    async fn wait(&self, w: &Waiting, bounds: &WaitBounds) -> Result<Admission, StoreError> {
        let (w, b) = (w.clone(), *bounds);
        self.0
            .run(move |db| {
                let mut conn = db.conn();
                let tx = conn.transaction()?;
                let person = person_sql("?1", "?2", "?3", "?4");
                let p = params![w.address, w.account, w.device, w.known];
                let theirs =
                    count(&tx, &format!("SELECT COUNT(*) FROM lobby_waiting WHERE NOT ready AND {person}"), p)?;
                let pairings = count(
                    &tx,
                    &format!(
                        "SELECT COUNT(*) FROM lobby_waiting w WHERE ready AND seen_at >= ?5 AND {person}
                         AND EXISTS (SELECT 1 FROM lobby_waiting o WHERE o.game = w.game AND o.id <> w.id)"
                    ),
                    params![w.address, w.account, w.device, w.known, b.pairings_since],
                )?;
                let all = count(&tx, "SELECT COUNT(*) FROM lobby_waiting WHERE NOT ready", [])?;
                let fresh = count(&tx, "SELECT COUNT(*) FROM lobby_waiting WHERE NOT ready AND NOT known", [])?;
                let admission = b.admit(w.known, [theirs, pairings, all, fresh]);
                if admission == Admission::Admitted {
                    tx.execute(
                        &format!(
                            "INSERT INTO lobby_waiting ({WAITING_COLUMNS})
                             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, NULL, NULL, 0)"
                        ),
                        params![
                            w.id,
                            w.owner,
                            w.address,
                            w.account,
                            w.device,
                            w.known,
                            w.token_hash,
                            w.name,
                            w.rating,
                            w.body,
                            w.since,
                            w.seen_at
                        ],
                    )?;
                }
                tx.commit()?;
                Ok(admission)
            })
            .await
    }

    async fn waiting(&self, id: &str) -> Result<Option<Waiting>, StoreError> {
        let id = id.to_string();
        self.0
            .run(move |db| {
                let sql = format!("SELECT {WAITING_COLUMNS} FROM lobby_waiting WHERE id = ?1");
                Ok(db.conn().query_row(&sql, [&id], waiting_row).optional()?)
            })
            .await
    }

    async fn waits(&self, ids: &[String]) -> Result<Vec<Waiting>, StoreError> {
        let ids = ids.to_vec();
        self.0
            .run(move |db| {
                let conn = db.conn();
                let mut stmt = conn.prepare(&format!("SELECT {WAITING_COLUMNS} FROM lobby_waiting WHERE id = ?1"))?;
                let mut out = Vec::new();
                for id in &ids {
                    if let Some(w) = stmt.query_row([id], waiting_row).optional()? {
                        out.push(w);
                    }
                }
                Ok(out)
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

    async fn pair(&self, ids: &[String], claim: &str, at: i64) -> Result<bool, StoreError> {
        let (ids, claim) = (ids.to_vec(), claim.to_string());
        self.0
            .run(move |db| {
                let mut conn = db.conn();
                let tx = conn.transaction()?;
                for (seat, id) in ids.iter().enumerate() {
                    let n = tx.execute(
                        "UPDATE lobby_waiting SET game = ?2, seat = ?3, seen_at = ?4 WHERE id = ?1 AND game IS NULL",
                        params![id, claim, seat as i64, at],
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

    async fn paired(&self, claim: &str, game: &str, at: i64) -> Result<usize, StoreError> {
        let (claim, game) = (claim.to_string(), game.to_string());
        self.0
            .run(move |db| {
                Ok(db.conn().execute(
                    "UPDATE lobby_waiting SET game = ?2, ready = 1, seen_at = ?3 WHERE game = ?1 AND NOT ready",
                    params![claim, game, at],
                )?)
            })
            .await
    }

    async fn unpair(&self, claim: &str) -> Result<usize, StoreError> {
        let claim = claim.to_string();
        self.0
            .run(move |db| {
                Ok(db.conn().execute(
                    "UPDATE lobby_waiting SET game = NULL, seat = NULL WHERE game = ?1 AND NOT ready",
                    [&claim],
                )?)
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
        address: r.get(2)?,
        known: r.get(3)?,
        body: r.get(4)?,
        version: r.get(5)?,
        open: r.get(6)?,
        seen_at: r.get(7)?,
        created_at: r.get(8)?,
    })
}

fn waiting_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<Waiting> {
    Ok(Waiting {
        id: r.get(0)?,
        owner: r.get(1)?,
        address: r.get(2)?,
        account: r.get(3)?,
        device: r.get(4)?,
        known: r.get(5)?,
        token_hash: r.get(6)?,
        name: r.get(7)?,
        rating: r.get(8)?,
        body: r.get(9)?,
        since: r.get(10)?,
        seen_at: r.get(11)?,
        game: r.get(12)?,
        seat: r.get(13)?,
        ready: r.get(14)?,
    })
}

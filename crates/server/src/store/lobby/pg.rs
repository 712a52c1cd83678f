//! The lobby's tables and "Play now" waits in PostgreSQL. Every change
//! that must happen once is one conditional statement: a table's row
//! changes only at the version it was read at (a second server's `UPDATE`
//! waits for the first's commit, then finds the version moved on); waits
//! are claimed in one transaction, their rows locked in id order (no
//! deadlock between two servers pairing the same two people), all or none.
//! Admissions are counted and written under one advisory lock per kind
//! (tables, waits), so that every bound holds whichever servers race.

use std::sync::Arc;

use tokio_postgres::Row;

use super::{
    cap, person_sql, Admission, LobbyRepo, LobbyRow, LobbySweep, TableBounds, WaitBounds, Waiting, TABLE_COLUMNS,
    WAITING_COLUMNS,
};
use crate::store::error::StoreError;
use crate::store::pg::Pg;

/// The lobby of a PostgreSQL database.
pub(crate) struct PgLobby(pub(crate) Arc<Pg>);

#[async_trait::async_trait]
impl LobbyRepo for PgLobby {
    async fn open(&self, row: &LobbyRow, b: &TableBounds) -> Result<Admission, StoreError> {
        let mut conn = self.0.conn().await?;
        let tx = conn.transaction().await?;
        // Tables opened one at a time (a table is opened a few times a minute).
        tx.execute("SELECT pg_advisory_xact_lock(hashtext('lobby:tables'))", &[]).await?;
        let counts = tx
            .query_one(
                "SELECT COUNT(*) FILTER (WHERE owner = $1 AND open),
                        COUNT(*) FILTER (WHERE address = $2 AND open AND NOT known),
                        COUNT(*),
                        COUNT(*) FILTER (WHERE NOT known)
                 FROM lobby_tables",
                &[&row.owner, &row.address],
            )
            .await?;
        let [mine, here, all, fresh]: [i64; 4] =
            [counts.try_get(0)?, counts.try_get(1)?, counts.try_get(2)?, counts.try_get(3)?];
        let admission = b.admit(row.known, [mine, here, all, fresh]);
        if admission == Admission::Admitted {
            tx.execute(
                &format!("INSERT INTO lobby_tables ({TABLE_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)"),
                &[
                    &row.id,
                    &row.owner,
                    &row.address,
                    &row.known,
                    &row.body,
                    &row.version,
                    &row.open,
                    &row.seen_at,
                    &row.created_at,
                ],
            )
            .await?;
        }
        tx.commit().await?;
        Ok(admission)
    }

    async fn tables(&self, limit: usize) -> Result<Vec<LobbyRow>, StoreError> {
        let rows = self
            .0
            .conn()
            .await?
            .query(
                &format!("SELECT {TABLE_COLUMNS} FROM lobby_tables ORDER BY open DESC, created_at, id LIMIT $1"),
                &[&cap(limit)],
            )
            .await?;
        rows.iter().map(table_row).collect()
    }

    async fn table(&self, id: &str) -> Result<Option<LobbyRow>, StoreError> {
        let row = self
            .0
            .conn()
            .await?
            .query_opt(&format!("SELECT {TABLE_COLUMNS} FROM lobby_tables WHERE id = $1"), &[&id])
            .await?;
        row.as_ref().map(table_row).transpose()
    }

    async fn update(&self, id: &str, version: i64, next: Option<(&str, bool, i64)>) -> Result<bool, StoreError> {
        let conn = self.0.conn().await?;
        let n = match next {
            Some((body, open, seen_at)) => {
                conn.execute(
                    "UPDATE lobby_tables SET body = $3, open = $4, seen_at = GREATEST(seen_at, $5), version = version + 1
                     WHERE id = $1 AND version = $2",
                    &[&id, &version, &body, &open, &seen_at],
                )
                .await?
            }
            None => conn.execute("DELETE FROM lobby_tables WHERE id = $1 AND version = $2", &[&id, &version]).await?,
        };
        Ok(n == 1)
    }

    async fn touch(&self, tables: &[String], waits: &[String], at: i64) -> Result<(), StoreError> {
        let conn = self.0.conn().await?;
        if !tables.is_empty() {
            conn.execute(
                "UPDATE lobby_tables SET seen_at = GREATEST(seen_at, $2) WHERE id = ANY($1) AND open",
                &[&tables, &at],
            )
            .await?;
        }
        if !waits.is_empty() {
            conn.execute(
                "UPDATE lobby_waiting SET seen_at = GREATEST(seen_at, $2) WHERE id = ANY($1) AND game IS NULL",
                &[&waits, &at],
            )
            .await?;
        }
        Ok(())
    }

    async fn sweep(&self, when: LobbySweep) -> Result<Vec<String>, StoreError> {
        let mut conn = self.0.conn().await?;
        let tx = conn.transaction().await?;
        let rows = tx
            .query(
                "DELETE FROM lobby_tables WHERE (open AND seen_at < $1) OR (NOT open AND seen_at < $2) RETURNING id",
                &[&when.open_before, &when.started_before],
            )
            .await?;
        tx.execute(
            "DELETE FROM lobby_waiting WHERE (game IS NULL AND seen_at < $1) OR (ready AND seen_at < $2)",
            &[&when.waiting_before, &when.paired_before],
        )
        .await?;
        // A claim whose game never came (its server stopped between): the
        // waits wait again.
        tx.execute(
            "UPDATE lobby_waiting SET game = NULL, seat = NULL, seen_at = $1
             WHERE game IS NOT NULL AND NOT ready AND seen_at < $1",
            &[&when.waiting_before],
        )
        .await?;
        tx.commit().await?;
        rows.iter().map(|r| Ok(r.try_get(0)?)).collect()
    }

    async fn wait(&self, w: &Waiting, b: &WaitBounds) -> Result<Admission, StoreError> {
        let mut conn = self.0.conn().await?;
        let tx = conn.transaction().await?;
        // Waits started one at a time, so that every bound holds.
        tx.execute("SELECT pg_advisory_xact_lock(hashtext('lobby:waits'))", &[]).await?;
        let person = person_sql("$1::text", "$2::text", "$3::text", "$4::boolean");
        let counts = tx
            .query_one(
                &format!(
                    "SELECT COUNT(*) FILTER (WHERE NOT ready AND {person}),
                            COUNT(*) FILTER (WHERE ready AND seen_at >= $5 AND {person}
                                AND EXISTS (SELECT 1 FROM lobby_waiting o WHERE o.game = w.game AND o.id <> w.id)),
                            COUNT(*) FILTER (WHERE NOT ready),
                            COUNT(*) FILTER (WHERE NOT ready AND NOT known)
                     FROM lobby_waiting w"
                ),
                &[&w.address, &w.account, &w.device, &w.known, &b.pairings_since],
            )
            .await?;
        let [theirs, pairings, all, fresh]: [i64; 4] =
            [counts.try_get(0)?, counts.try_get(1)?, counts.try_get(2)?, counts.try_get(3)?];
        let admission = b.admit(w.known, [theirs, pairings, all, fresh]);
        if admission == Admission::Admitted {
            tx.execute(
                &format!(
                    "INSERT INTO lobby_waiting ({WAITING_COLUMNS})
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, NULL, NULL, false)"
                ),
                &[
                    &w.id,
                    &w.owner,
                    &w.address,
                    &w.account,
                    &w.device,
                    &w.known,
                    &w.token_hash,
                    &w.name,
                    &w.rating,
                    &w.body,
                    &w.since,
                    &w.seen_at,
                ],
            )
            .await?;
        }
        tx.commit().await?;
        Ok(admission)
    }

    async fn waiting(&self, id: &str) -> Result<Option<Waiting>, StoreError> {
        let conn = self.0.conn().await?;
        let row = conn.query_opt(&format!("SELECT {WAITING_COLUMNS} FROM lobby_waiting WHERE id = $1"), &[&id]).await?;
        row.as_ref().map(waiting_row).transpose()
    }

    async fn waits(&self, ids: &[String]) -> Result<Vec<Waiting>, StoreError> {
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let conn = self.0.conn().await?;
        let rows =
            conn.query(&format!("SELECT {WAITING_COLUMNS} FROM lobby_waiting WHERE id = ANY($1)"), &[&ids]).await?;
        rows.iter().map(waiting_row).collect()
    }

    async fn waiters(&self, seen_after: i64, limit: usize) -> Result<Vec<Waiting>, StoreError> {
        let rows = self
            .0
            .conn()
            .await?
            .query(
                &format!(
                    "SELECT {WAITING_COLUMNS} FROM lobby_waiting WHERE game IS NULL AND seen_at >= $1
                     ORDER BY since, id LIMIT $2"
                ),
                &[&seen_after, &cap(limit)],
            )
            .await?;
        rows.iter().map(waiting_row).collect()
    }

    async fn pair(&self, ids: &[String], claim: &str, at: i64) -> Result<bool, StoreError> {
        let mut conn = self.0.conn().await?;
        let tx = conn.transaction().await?;
        // Locked in id order: two servers pairing the same people never wait on each other in a circle.
        let mut order: Vec<(usize, &String)> = ids.iter().enumerate().collect();
        order.sort_by(|a, b| a.1.cmp(b.1));
        for (seat, id) in order {
            let seat = seat as i64;
            let n = tx
                .execute(
                    "UPDATE lobby_waiting SET game = $2, seat = $3, seen_at = $4 WHERE id = $1 AND game IS NULL",
                    &[id, &claim, &seat, &at],
                )
                .await?;
            if n != 1 {
                tx.rollback().await?;
                return Ok(false);
            }
        }
        tx.commit().await?;
        Ok(true)
    }

    async fn paired(&self, claim: &str, game: &str, at: i64) -> Result<usize, StoreError> {
        let n = self
            .0
            .conn()
            .await?
            .execute(
                "UPDATE lobby_waiting SET game = $2, ready = true, seen_at = $3 WHERE game = $1 AND NOT ready",
                &[&claim, &game, &at],
            )
            .await?;
        Ok(n as usize)
    }

    async fn unpair(&self, claim: &str) -> Result<usize, StoreError> {
        let n = self
            .0
            .conn()
            .await?
            .execute("UPDATE lobby_waiting SET game = NULL, seat = NULL WHERE game = $1 AND NOT ready", &[&claim])
            .await?;
        Ok(n as usize)
    }

    async fn cancel(&self, id: &str) -> Result<bool, StoreError> {
        let n =
            self.0.conn().await?.execute("DELETE FROM lobby_waiting WHERE id = $1 AND game IS NULL", &[&id]).await?;
        Ok(n == 1)
    }
}

fn table_row(r: &Row) -> Result<LobbyRow, StoreError> {
    Ok(LobbyRow {
        id: r.try_get(0)?,
        owner: r.try_get(1)?,
        address: r.try_get(2)?,
        known: r.try_get(3)?,
        body: r.try_get(4)?,
        version: r.try_get(5)?,
        open: r.try_get(6)?,
        seen_at: r.try_get(7)?,
        created_at: r.try_get(8)?,
    })
}

fn waiting_row(r: &Row) -> Result<Waiting, StoreError> {
    Ok(Waiting {
        id: r.try_get(0)?,
        owner: r.try_get(1)?,
        address: r.try_get(2)?,
        account: r.try_get(3)?,
        device: r.try_get(4)?,
        known: r.try_get(5)?,
        token_hash: r.try_get(6)?,
        name: r.try_get(7)?,
        rating: r.try_get(8)?,
        body: r.try_get(9)?,
        since: r.try_get(10)?,
        seen_at: r.try_get(11)?,
        game: r.try_get(12)?,
        seat: r.try_get(13)?,
        ready: r.try_get(14)?,
    })
}

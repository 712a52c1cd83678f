//! The lobby's tables and "Play now" waits in PostgreSQL. Every change
//! that must happen once is one conditional statement: a table's row
//! changes only at the version it was read at (a second server's `UPDATE`
//! waits for the first's commit, then finds the version moved on); waits
//! are paired in one transaction, their rows locked in id order (no
//! deadlock between two servers pairing the same two people), all or none;
//! an owner's bounds hold under an advisory lock per owner.

use std::sync::Arc;

use tokio_postgres::Row;

use super::{cap, LobbyRepo, LobbyRow, LobbySweep, Waiting, TABLE_COLUMNS, WAITING_COLUMNS};
use crate::store::error::StoreError;
use crate::store::pg::Pg;

/// The lobby of a PostgreSQL database.
pub(crate) struct PgLobby(pub(crate) Arc<Pg>);

#[async_trait::async_trait]
impl LobbyRepo for PgLobby {
    async fn open(&self, row: &LobbyRow, per_owner: usize, total: usize) -> Result<bool, StoreError> {
        let mut conn = self.0.conn().await?;
        let tx = conn.transaction().await?;
        // Tables opened one at a time, so that the owner's bound and the
        // lobby's both hold (a table is opened a few times a minute).
        tx.execute("SELECT pg_advisory_xact_lock(hashtext('lobby:tables'))", &[]).await?;
        let n = tx
            .execute(
                "INSERT INTO lobby_tables (id, owner, body, version, open, seen_at, created_at)
                 SELECT $1, $2, $3, $4, $5, $6, $7
                 WHERE (SELECT COUNT(*) FROM lobby_tables WHERE owner = $2 AND open) < $8
                   AND (SELECT COUNT(*) FROM lobby_tables) < $9",
                &[
                    &row.id,
                    &row.owner,
                    &row.body,
                    &row.version,
                    &row.open,
                    &row.seen_at,
                    &row.created_at,
                    &cap(per_owner),
                    &cap(total),
                ],
            )
            .await?;
        tx.commit().await?;
        Ok(n == 1)
    }

    async fn tables(&self, limit: usize) -> Result<Vec<LobbyRow>, StoreError> {
        let rows = self
            .0
            .conn()
            .await?
            .query(
                &format!("SELECT {TABLE_COLUMNS} FROM lobby_tables ORDER BY created_at, id LIMIT $1"),
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
                    "UPDATE lobby_tables SET body = $3, open = $4, seen_at = $5, version = version + 1
                     WHERE id = $1 AND version = $2",
                    &[&id, &version, &body, &open, &seen_at],
                )
                .await?
            }
            None => conn.execute("DELETE FROM lobby_tables WHERE id = $1 AND version = $2", &[&id, &version]).await?,
        };
        Ok(n == 1)
    }

    async fn sweep(&self, when: LobbySweep) -> Result<Vec<String>, StoreError> {
        let conn = self.0.conn().await?;
        let rows = conn
            .query(
                "DELETE FROM lobby_tables WHERE (open AND seen_at < $1) OR (NOT open AND seen_at < $2) RETURNING id",
                &[&when.open_before, &when.started_before],
            )
            .await?;
        conn.execute(
            "DELETE FROM lobby_waiting WHERE (game IS NULL AND seen_at < $1) OR (game IS NOT NULL AND seen_at < $2)",
            &[&when.waiting_before, &when.paired_before],
        )
        .await?;
        rows.iter().map(|r| Ok(r.try_get(0)?)).collect()
    }

    async fn wait(&self, w: &Waiting, per_owner: usize, total: usize) -> Result<bool, StoreError> {
        let mut conn = self.0.conn().await?;
        let tx = conn.transaction().await?;
        // Waits started one at a time, so that the owner's bound and the
        // store's both hold.
        tx.execute("SELECT pg_advisory_xact_lock(hashtext('lobby:waits'))", &[]).await?;
        let n = tx
            .execute(
                "INSERT INTO lobby_waiting (id, owner, token_hash, name, rating, body, since, seen_at, game, seat)
                 SELECT $1, $2, $3, $4, $5, $6, $7, $8, NULL, NULL
                 WHERE (SELECT COUNT(*) FROM lobby_waiting WHERE owner = $2 AND game IS NULL) < $9
                   AND (SELECT COUNT(*) FROM lobby_waiting) < $10",
                &[
                    &w.id,
                    &w.owner,
                    &w.token_hash,
                    &w.name,
                    &w.rating,
                    &w.body,
                    &w.since,
                    &w.seen_at,
                    &cap(per_owner),
                    &cap(total),
                ],
            )
            .await?;
        tx.commit().await?;
        Ok(n == 1)
    }

    async fn waiting(&self, id: &str, seen_at: Option<i64>) -> Result<Option<Waiting>, StoreError> {
        let conn = self.0.conn().await?;
        let row = match seen_at {
            Some(at) => {
                conn.query_opt(
                    &format!(
                        "UPDATE lobby_waiting SET seen_at = GREATEST(seen_at, $2) WHERE id = $1 RETURNING {WAITING_COLUMNS}"
                    ),
                    &[&id, &at],
                )
                .await?
            }
            None => conn.query_opt(&format!("SELECT {WAITING_COLUMNS} FROM lobby_waiting WHERE id = $1"), &[&id]).await?,
        };
        row.as_ref().map(waiting_row).transpose()
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

    async fn pair(&self, ids: &[String], game: &str) -> Result<bool, StoreError> {
        let mut conn = self.0.conn().await?;
        let tx = conn.transaction().await?;
        // Locked in id order: two servers pairing the same people never wait on each other in a circle.
        let mut order: Vec<(usize, &String)> = ids.iter().enumerate().collect();
        order.sort_by(|a, b| a.1.cmp(b.1));
        for (seat, id) in order {
            let seat = seat as i64;
            let n = tx
                .execute(
                    "UPDATE lobby_waiting SET game = $2, seat = $3 WHERE id = $1 AND game IS NULL",
                    &[id, &game, &seat],
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
        body: r.try_get(2)?,
        version: r.try_get(3)?,
        open: r.try_get(4)?,
        seen_at: r.try_get(5)?,
        created_at: r.try_get(6)?,
    })
}

fn waiting_row(r: &Row) -> Result<Waiting, StoreError> {
    Ok(Waiting {
        id: r.try_get(0)?,
        owner: r.try_get(1)?,
        token_hash: r.try_get(2)?,
        name: r.try_get(3)?,
        rating: r.try_get(4)?,
        body: r.try_get(5)?,
        since: r.try_get(6)?,
        seen_at: r.try_get(7)?,
        game: r.try_get(8)?,
        seat: r.try_get(9)?,
    })
}

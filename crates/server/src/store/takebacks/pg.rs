//! Takebacks in PostgreSQL: the request in the `games` row. Each write sets
//! the game's `stored_at` (a change feed that was away announces it) and
//! tells every server at its commit ([`Change::Takeback`] on the events
//! channel).

use std::sync::Arc;

use super::{Grant, TakebackRepo};
use crate::store::cluster::feed::EVENTS;
use crate::store::cluster::Change;
use crate::store::error::StoreError;
use crate::store::pg::Pg;

/// The stored request's revision (0 without one).
const STORED_REV: &str = "COALESCE((takeback::jsonb ->> 'rev')::bigint, 0)";
/// The stored clocks' revision (as `clocks/pg.rs` reads it).
const CLOCK_REV: &str = "COALESCE((clock::jsonb ->> 'rev')::bigint, 0)";
/// A game in play: neither finished nor aborted.
const IN_PLAY: &str = "NOT COALESCE((progress::jsonb ->> 'finished')::boolean, FALSE)
     AND NOT COALESCE((progress::jsonb ->> 'aborted')::boolean, FALSE)";

/// The takebacks of a PostgreSQL database.
pub(crate) struct PgTakebacks(pub(crate) Arc<Pg>);

fn int(n: u64, what: &str) -> Result<i64, StoreError> {
    i64::try_from(n).map_err(|_| StoreError::failed(format!("{what} out of range")))
}

/// The news of a change of game `id`'s request, for every server.
fn news(id: &str) -> Result<String, StoreError> {
    Ok(serde_json::to_string(&Change::Takeback { game: id.to_string() })?)
}

#[async_trait::async_trait]
impl TakebackRepo for PgTakebacks {
    async fn load(&self, id: &str) -> Result<Option<String>, StoreError> {
        let conn = self.0.conn().await?;
        let row = conn.query_opt("SELECT takeback FROM games WHERE id = $1", &[&id]).await?;
        Ok(match row {
            Some(r) => r.try_get::<_, Option<String>>(0)?,
            None => None,
        })
    }

    async fn put(&self, id: &str, moves: usize, rev: u64, json: &str) -> Result<bool, StoreError> {
        let (moves, rev) = (int(moves as u64, "move count")?, int(rev, "revision")?);
        let conn = self.0.conn().await?;
        let put = conn
            .prepare_cached(&format!(
                "UPDATE games SET takeback = $2, stored_at = now() WHERE id = $1 AND moves = $3 AND {STORED_REV} = $4
                 AND {IN_PLAY} RETURNING pg_notify($5, $6)"
            ))
            .await?;
        Ok(conn.query(&put, &[&id, &json, &moves, &rev, &EVENTS, &news(id)?]).await?.len() == 1)
    }

    async fn grant(&self, id: &str, grant: &Grant<'_>) -> Result<bool, StoreError> {
        let Grant { moves, rev, json, to, progress, clock } = *grant;
        let (moves, rev, to) = (int(moves as u64, "move count")?, int(rev, "revision")?, int(to as u64, "move")?);
        let progress_json = serde_json::to_string(progress)?;
        let mut conn = self.0.conn().await?;
        let tx = conn.transaction().await?;
        // The row stays locked until commit: a move stored meanwhile waits,
        // then finds the count moved.
        let lock = tx
            .prepare_cached(&format!(
                "SELECT {CLOCK_REV} FROM games WHERE id = $1 AND moves = $2 AND {STORED_REV} = $3 AND {IN_PLAY}
                 FOR UPDATE"
            ))
            .await?;
        let Some(row) = tx.query_opt(&lock, &[&id, &moves, &rev]).await? else {
            return Ok(false);
        };
        let stored_clock: i64 = row.try_get(0)?;
        let (clock_json, deadline) = match clock {
            Some(c) if int(c.rev, "clock revision")? != stored_clock => return Ok(false),
            Some(c) => (Some(c.json), c.deadline),
            None => (None, None),
        };
        tx.execute("DELETE FROM moves WHERE game_id = $1 AND ply >= $2", &[&id, &to]).await?;
        let update = tx
            .prepare_cached(
                "UPDATE games SET moves = $2, progress = $3, updated_at = $4, bot_turn = $5, takeback = $6,
                                  clock = COALESCE($7, clock),
                                  deadline = CASE WHEN $7::text IS NULL THEN deadline ELSE $8 END,
                                  stored_at = now()
                 WHERE id = $1 RETURNING pg_notify($9, $10)",
            )
            .await?;
        tx.query(
            &update,
            &[
                &id,
                &to,
                &progress_json,
                &progress.at,
                &progress.bot_turn,
                &json,
                &clock_json,
                &deadline,
                &EVENTS,
                &news(id)?,
            ],
        )
        .await?;
        tx.commit().await?;
        Ok(true)
    }
}

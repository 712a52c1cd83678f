//! Clocks in PostgreSQL. A clock saved sets the game's `stored_at`, so
//! that a change feed that was away announces it (`cluster/feed.rs`).

use std::sync::Arc;

use super::{ClockRepo, TurnOf};
use crate::store::error::StoreError;
use crate::store::games::Progress;
use crate::store::pg::Pg;

/// The stored clocks' revision (`ClockState::rev`; 0 without one, or without clocks).
const STORED_REV: &str = "COALESCE((clock::jsonb ->> 'rev')::bigint, 0)";

/// The clocks of a PostgreSQL database.
pub(crate) struct PgClocks(pub(crate) Arc<Pg>);

#[async_trait::async_trait]
impl ClockRepo for PgClocks {
    async fn swap(&self, id: &str, rev: u64, clock: &str, deadline: Option<i64>) -> Result<bool, StoreError> {
        let rev = i64::try_from(rev).map_err(|_| StoreError::failed("clock revision out of range"))?;
        let conn = self.0.conn().await?;
        let swap = conn
            .prepare_cached(&format!(
                // (`stored_at`: a feed that was away announces it, `Listener::session`.)
                "UPDATE games SET clock = $2, deadline = $3, stored_at = now() WHERE id = $1 AND {STORED_REV} = $4"
            ))
            .await?;
        Ok(conn.execute(&swap, &[&id, &clock, &deadline, &rev]).await? == 1)
    }

    async fn change(
        &self,
        id: &str,
        moves: usize,
        rev: u64,
        clock: &str,
        deadline: Option<i64>,
        progress: Option<&Progress>,
    ) -> Result<bool, StoreError> {
        let moves = i64::try_from(moves).map_err(|_| StoreError::failed("move number out of range"))?;
        let rev = i64::try_from(rev).map_err(|_| StoreError::failed("clock revision out of range"))?;
        let conn = self.0.conn().await?;
        let change = conn
            .prepare_cached(&format!(
                "UPDATE games SET clock = $2, deadline = $3, progress = COALESCE($4, progress),
                                  bot_turn = COALESCE($5, bot_turn), stored_at = now()
                 WHERE id = $1 AND moves = $6 AND {STORED_REV} = $7"
            ))
            .await?;
        let bot_turn = progress.map(|p| p.bot_turn);
        let progress = progress.map(serde_json::to_string).transpose()?;
        Ok(conn.execute(&change, &[&id, &clock, &deadline, &progress, &bot_turn, &moves, &rev]).await? == 1)
    }

    async fn load(&self, id: &str) -> Result<Option<String>, StoreError> {
        let conn = self.0.conn().await?;
        let row = conn.query_opt("SELECT clock FROM games WHERE id = $1", &[&id]).await?;
        Ok(match row {
            Some(r) => r.try_get::<_, Option<String>>(0)?,
            None => None,
        })
    }

    async fn due(&self, now: i64, limit: usize) -> Result<Vec<String>, StoreError> {
        let limit = limit.min(i64::MAX as usize) as i64;
        let conn = self.0.conn().await?;
        let rows = conn
            .query(
                "SELECT id FROM games WHERE deadline IS NOT NULL AND deadline <= $1 ORDER BY deadline, id LIMIT $2",
                &[&now, &limit],
            )
            .await?;
        rows.iter().map(|r| Ok(r.try_get::<_, String>(0)?)).collect()
    }

    async fn turns_of(&self, ids: &[String]) -> Result<Vec<TurnOf>, StoreError> {
        let conn = self.0.conn().await?;
        let rows = conn.query("SELECT id, seats, progress, deadline FROM games WHERE id = ANY($1)", &[&ids]).await?;
        rows.iter()
            .map(|r| {
                Ok(TurnOf {
                    id: r.try_get(0)?,
                    seats: serde_json::from_str(r.try_get::<_, &str>(1)?)?,
                    progress: serde_json::from_str(r.try_get::<_, &str>(2)?)?,
                    deadline: r.try_get(3)?,
                })
            })
            .collect()
    }
}

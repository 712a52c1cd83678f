//! Clocks in SQLite.

use rusqlite::{params, OptionalExtension};

use super::{ClockRepo, TurnOf};
use crate::store::error::StoreError;
use crate::store::games::Progress;
use crate::store::sqlite::SqliteDb;

/// The stored clocks' revision (`ClockState::rev`; 0 without one, or without clocks).
const STORED_REV: &str = "IFNULL(json_extract(clock, '$.rev'), 0)";

/// The clocks of one SQLite file.
pub(crate) struct SqliteClocks(pub(crate) SqliteDb);

#[async_trait::async_trait]
impl ClockRepo for SqliteClocks {
    async fn swap(&self, id: &str, rev: u64, clock: &str, deadline: Option<i64>) -> Result<bool, StoreError> {
        let rev = i64::try_from(rev).map_err(|_| StoreError::failed("clock revision out of range"))?;
        let (id, clock) = (id.to_string(), clock.to_string());
        self.0
            .run(move |db| {
                let n = db.conn().execute(
                    &format!("UPDATE games SET clock = ?2, deadline = ?3 WHERE id = ?1 AND {STORED_REV} = ?4"),
                    params![id, clock, deadline, rev],
                )?;
                Ok(n == 1)
            })
            .await
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
        let (id, clock) = (id.to_string(), clock.to_string());
        let progress = progress.map(serde_json::to_string).transpose()?;
        self.0
            .run(move |db| {
                let n = db.conn().execute(
                    &format!(
                        "UPDATE games SET clock = ?2, deadline = ?3, progress = COALESCE(?4, progress)
                         WHERE id = ?1 AND moves = ?5 AND {STORED_REV} = ?6"
                    ),
                    params![id, clock, deadline, progress, moves, rev],
                )?;
                Ok(n == 1)
            })
            .await
    }

    async fn load(&self, id: &str) -> Result<Option<String>, StoreError> {
        let id = id.to_string();
        self.0
            .run(move |db| {
                let found = db
                    .conn()
                    .query_row("SELECT clock FROM games WHERE id = ?1", [&id], |r| r.get::<_, Option<String>>(0))
                    .optional()?;
                Ok(found.flatten())
            })
            .await
    }

    async fn due(&self, now: i64, limit: usize) -> Result<Vec<String>, StoreError> {
        let limit = limit.min(i64::MAX as usize) as i64;
        self.0
            .run(move |db| {
                let conn = db.conn();
                let mut stmt = conn.prepare(
                    "SELECT id FROM games WHERE deadline IS NOT NULL AND deadline <= ?1 ORDER BY deadline, id LIMIT ?2",
                )?;
                let ids =
                    stmt.query_map(params![now, limit], |r| r.get::<_, String>(0))?.collect::<Result<Vec<_>, _>>()?;
                Ok(ids)
            })
            .await
    }

    async fn turns_of(&self, ids: &[String]) -> Result<Vec<TurnOf>, StoreError> {
        let ids = serde_json::to_string(ids)?;
        self.0
            .run(move |db| {
                let conn = db.conn();
                let mut stmt = conn.prepare(
                    "SELECT id, seats, progress, deadline FROM games WHERE id IN (SELECT value FROM json_each(?1))",
                )?;
                let rows = stmt
                    .query_map([ids], |r| {
                        Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?, r.get::<_, String>(2)?, r.get(3)?))
                    })?
                    .collect::<Result<Vec<_>, _>>()?;
                rows.into_iter()
                    .map(|(id, seats, progress, deadline)| {
                        Ok(TurnOf {
                            id,
                            seats: serde_json::from_str(&seats)?,
                            progress: serde_json::from_str(&progress)?,
                            deadline,
                        })
                    })
                    .collect()
            })
            .await
    }
}

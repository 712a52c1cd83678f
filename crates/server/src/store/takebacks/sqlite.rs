//! Takebacks in SQLite: the request in the `games` row; a grant is one
//! write of the writer thread (the moves deleted and the row updated, or
//! nothing).

use rusqlite::{params, OptionalExtension};

use super::{Grant, TakebackRepo};
use crate::store::error::StoreError;
use crate::store::sqlite::SqliteDb;

/// The stored request's revision (0 without one).
const STORED_REV: &str = "IFNULL(json_extract(takeback, '$.rev'), 0)";
/// The stored clocks' revision (as `clocks/sqlite.rs` reads it).
const CLOCK_REV: &str = "IFNULL(json_extract(clock, '$.rev'), 0)";
/// A game in play: neither finished nor aborted.
const IN_PLAY: &str = "NOT COALESCE(json_extract(progress, '$.finished'), 0)
     AND NOT COALESCE(json_extract(progress, '$.aborted'), 0)";

/// The takebacks of one SQLite file.
pub(crate) struct SqliteTakebacks(pub(crate) SqliteDb);

fn int(n: u64, what: &str) -> Result<i64, StoreError> {
    i64::try_from(n).map_err(|_| StoreError::failed(format!("{what} out of range")))
}

#[async_trait::async_trait]
impl TakebackRepo for SqliteTakebacks {
    async fn load(&self, id: &str) -> Result<Option<String>, StoreError> {
        let id = id.to_string();
        self.0
            .run(move |db| {
                let found = db
                    .read()
                    .query_row("SELECT takeback FROM games WHERE id = ?1", [&id], |r| r.get::<_, Option<String>>(0))
                    .optional()?;
                Ok(found.flatten())
            })
            .await
    }

    async fn put(&self, id: &str, moves: usize, rev: u64, json: &str) -> Result<bool, StoreError> {
        let (moves, rev) = (int(moves as u64, "move count")?, int(rev, "revision")?);
        let (id, json) = (id.to_string(), json.to_string());
        let (tx, rx) = tokio::sync::oneshot::channel();
        let write = Box::new(move |conn: &rusqlite::Connection| {
            let n = conn.execute(
                &format!(
                    "UPDATE games SET takeback = ?2 WHERE id = ?1 AND moves = ?3 AND {STORED_REV} = ?4 AND {IN_PLAY}"
                ),
                params![id, json, moves, rev],
            )?;
            let _ = tx.send(n == 1);
            Ok(())
        });
        self.0.queue(write)?.wait().await?;
        Ok(rx.await.unwrap_or(false))
    }

    async fn grant(&self, id: &str, grant: &Grant<'_>) -> Result<bool, StoreError> {
        let Grant { moves, rev, json, to, progress, clock } = *grant;
        let (moves, rev, to) = (int(moves as u64, "move count")?, int(rev, "revision")?, int(to as u64, "move")?);
        let (id, json, at) = (id.to_string(), json.to_string(), progress.at);
        let progress = serde_json::to_string(progress)?;
        let clock = match clock {
            Some(c) => Some((int(c.rev, "clock revision")?, c.json.to_string(), c.deadline)),
            None => None,
        };
        let (tx, rx) = tokio::sync::oneshot::channel();
        let write = Box::new(move |conn: &rusqlite::Connection| {
            let n = match &clock {
                Some((clock_rev, clock_json, deadline)) => conn.execute(
                    &format!(
                        "UPDATE games SET moves = ?3, progress = ?4, updated_at = ?5, takeback = ?6, clock = ?7,
                                          deadline = ?8
                         WHERE id = ?1 AND moves = ?2 AND {STORED_REV} = ?9 AND {CLOCK_REV} = ?10 AND {IN_PLAY}"
                    ),
                    params![id, moves, to, progress, at, json, clock_json, deadline, rev, clock_rev],
                )?,
                None => conn.execute(
                    &format!(
                        "UPDATE games SET moves = ?3, progress = ?4, updated_at = ?5, takeback = ?6
                         WHERE id = ?1 AND moves = ?2 AND {STORED_REV} = ?7 AND {IN_PLAY}"
                    ),
                    params![id, moves, to, progress, at, json, rev],
                )?,
            };
            if n == 1 {
                conn.execute("DELETE FROM moves WHERE game_id = ?1 AND ply >= ?2", params![id, to])?;
            }
            let _ = tx.send(n == 1);
            Ok(())
        });
        self.0.queue(write)?.wait().await?;
        Ok(rx.await.unwrap_or(false))
    }
}

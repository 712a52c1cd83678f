//! Reviews in SQLite (one server: it claims as `''`).

use rusqlite::{params, OptionalExtension};

use super::{ReviewRepo, CLAIM, SAVE};
use crate::store::error::StoreError;
use crate::store::sqlite::SqliteDb;

/// The reviews of one SQLite file.
pub(crate) struct SqliteReviews(pub(crate) SqliteDb);

#[async_trait::async_trait]
impl ReviewRepo for SqliteReviews {
    async fn get(&self, id: &str) -> Result<Option<String>, StoreError> {
        let id = id.to_string();
        self.0
            .run(move |db| {
                let conn = db.read();
                let found = conn
                    .query_row("SELECT review FROM reviews WHERE game_id = ?1", [&id], |r| {
                        r.get::<_, Option<String>>(0)
                    })
                    .optional()?;
                Ok(found.flatten())
            })
            .await
    }

    async fn claim(&self, id: &str, now: i64, stale_before: i64) -> Result<bool, StoreError> {
        let id = id.to_string();
        self.0.run(move |db| Ok(db.conn().execute(CLAIM, params![id, "", now, stale_before])? == 1)).await
    }

    async fn save(&self, id: &str, review: &str) -> Result<(), StoreError> {
        let (id, review) = (id.to_string(), review.to_string());
        self.0
            .run(move |db| {
                db.conn().execute(SAVE, params![id, review])?;
                Ok(())
            })
            .await
    }
}

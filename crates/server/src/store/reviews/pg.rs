//! Reviews in PostgreSQL.

use std::sync::Arc;

use super::{ReviewRepo, CLAIM, SAVE};
use crate::store::error::StoreError;
use crate::store::pg::Pg;

/// The reviews of a PostgreSQL database.
pub(crate) struct PgReviews(pub(crate) Arc<Pg>);

#[async_trait::async_trait]
impl ReviewRepo for PgReviews {
    async fn get(&self, id: &str) -> Result<Option<String>, StoreError> {
        let row = self.0.conn().await?.query_opt("SELECT review FROM reviews WHERE game_id = $1", &[&id]).await?;
        Ok(row.map(|r| r.try_get::<_, Option<String>>(0)).transpose()?.flatten())
    }

    async fn claim(&self, id: &str, now: i64, stale_before: i64) -> Result<bool, StoreError> {
        let n = self.0.conn().await?.execute(CLAIM, &[&id, &self.0.server, &now, &stale_before]).await?;
        Ok(n == 1)
    }

    async fn save(&self, id: &str, review: &str) -> Result<(), StoreError> {
        self.0.conn().await?.execute(SAVE, &[&id, &review]).await?;
        Ok(())
    }
}

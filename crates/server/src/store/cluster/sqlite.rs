//! One server on one SQLite file: nothing to share (but whether the file answers). No news comes from
//! elsewhere, every bot is this server's to drive, and nobody else is here.

use super::{Beat, Change, ClusterRepo, Feed};
use crate::store::error::StoreError;
use crate::store::sqlite::SqliteDb;

/// The only server of a SQLite file.
pub(crate) struct SqliteCluster(pub(crate) SqliteDb);

#[async_trait::async_trait]
impl ClusterRepo for SqliteCluster {
    fn changes(&self) -> Option<tokio::sync::mpsc::UnboundedReceiver<Change>> {
        None
    }

    async fn health(&self) -> Result<(), StoreError> {
        self.0
            .run(|db| {
                db.conn().query_row("SELECT 1", [], |_| Ok(()))?;
                Ok(())
            })
            .await
    }

    fn feed(&self) -> Feed {
        Feed::None
    }

    fn server(&self) -> Option<&str> {
        None
    }

    async fn claim_bots(&self, _id: &str) -> Result<bool, StoreError> {
        Ok(true)
    }

    async fn release_bots(&self, _id: &str) -> Result<(), StoreError> {
        Ok(())
    }

    async fn publish(&self, _change: &Change) -> Result<(), StoreError> {
        Ok(())
    }

    async fn presence(&self, _id: &str) -> Result<Vec<(String, Vec<u32>)>, StoreError> {
        Ok(Vec::new())
    }

    async fn beat(&self) -> Result<Beat, StoreError> {
        Ok(Beat::default())
    }

    async fn leave(&self) -> Result<(), StoreError> {
        Ok(())
    }
}

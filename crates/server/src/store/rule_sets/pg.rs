//! Saved rule sets in PostgreSQL.

use std::sync::Arc;

use super::{RuleSetRepo, SavedRules};
use crate::store::error::StoreError;
use crate::store::pg::Pg;

/// The saved rule sets of a PostgreSQL database.
pub(crate) struct PgRuleSets(pub(crate) Arc<Pg>);

#[async_trait::async_trait]
impl RuleSetRepo for PgRuleSets {
    async fn save(
        &self,
        owner: &str,
        address: &str,
        rules: &SavedRules,
        max: usize,
        max_per_address: usize,
    ) -> Result<bool, StoreError> {
        let max = i64::try_from(max).unwrap_or(i64::MAX);
        let max_per_address = i64::try_from(max_per_address).unwrap_or(i64::MAX);
        let mut conn = self.0.conn().await?;
        let tx = conn.transaction().await?;
        // One address's saves one at a time (a visitor's are all from
        // addresses, each locked in turn: the bounds hold).
        tx.execute("SELECT pg_advisory_xact_lock(hashtext($1))", &[&owner]).await?;
        tx.execute("SELECT pg_advisory_xact_lock(hashtext('rules@' || $1))", &[&address]).await?;
        let saved = tx
            .execute(
                "INSERT INTO rule_sets (id, owner, name, code, created_at, address)
                 SELECT $1, $2, $3, $4, $5, $7 WHERE (SELECT COUNT(*) FROM rule_sets WHERE owner = $2) < $6
                 AND (SELECT COUNT(*) FROM rule_sets WHERE address = $7) < $8",
                &[&rules.id, &owner, &rules.name, &rules.code, &rules.created_at, &max, &address, &max_per_address],
            )
            .await?;
        tx.commit().await?;
        Ok(saved == 1)
    }

    async fn of(&self, owner: &str) -> Result<Vec<SavedRules>, StoreError> {
        let rows = self
            .0
            .conn()
            .await?
            .query(
                "SELECT id, name, code, created_at FROM rule_sets WHERE owner = $1 ORDER BY created_at, id",
                &[&owner],
            )
            .await?;
        rows.iter()
            .map(|r| {
                Ok(SavedRules {
                    id: r.try_get(0)?,
                    name: r.try_get(1)?,
                    code: r.try_get(2)?,
                    created_at: r.try_get(3)?,
                })
            })
            .collect()
    }

    async fn rename(&self, owner: &str, id: &str, name: &str) -> Result<bool, StoreError> {
        let n = self
            .0
            .conn()
            .await?
            .execute("UPDATE rule_sets SET name = $3 WHERE owner = $1 AND id = $2", &[&owner, &id, &name])
            .await?;
        Ok(n == 1)
    }

    async fn delete(&self, owner: &str, id: &str) -> Result<bool, StoreError> {
        let n =
            self.0.conn().await?.execute("DELETE FROM rule_sets WHERE owner = $1 AND id = $2", &[&owner, &id]).await?;
        Ok(n == 1)
    }
}

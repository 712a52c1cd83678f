//! Saved rule sets in SQLite.

use rusqlite::params;

use super::{RuleSetRepo, SavedRules};
use crate::store::error::StoreError;
use crate::store::sqlite::SqliteDb;

/// The saved rule sets of one SQLite file.
pub(crate) struct SqliteRuleSets(pub(crate) SqliteDb);

#[async_trait::async_trait]
impl RuleSetRepo for SqliteRuleSets {
    async fn save(
        &self,
        owner: &str,
        address: &str,
        rules: &SavedRules,
        max: usize,
        max_per_address: usize,
    ) -> Result<bool, StoreError> {
        let (owner, address, rules) = (owner.to_string(), address.to_string(), rules.clone());
        let max = i64::try_from(max).unwrap_or(i64::MAX);
        let max_per_address = i64::try_from(max_per_address).unwrap_or(i64::MAX);
        self.0
            .run(move |db| {
                let saved = db.conn().execute(
                    "INSERT INTO rule_sets (id, owner, name, code, created_at, address)
                     SELECT ?1, ?2, ?3, ?4, ?5, ?7 WHERE (SELECT COUNT(*) FROM rule_sets WHERE owner = ?2) < ?6
                     AND (SELECT COUNT(*) FROM rule_sets WHERE address = ?7) < ?8",
                    params![rules.id, owner, rules.name, rules.code, rules.created_at, max, address, max_per_address],
                )?;
                Ok(saved == 1)
            })
            .await
    }

    async fn of(&self, owner: &str) -> Result<Vec<SavedRules>, StoreError> {
        let owner = owner.to_string();
        self.0
            .run(move |db| {
                let conn = db.read();
                let mut stmt = conn.prepare(
                    "SELECT id, name, code, created_at FROM rule_sets WHERE owner = ?1 ORDER BY created_at, id",
                )?;
                let rows = stmt.query_map([owner], |r| {
                    Ok(SavedRules { id: r.get(0)?, name: r.get(1)?, code: r.get(2)?, created_at: r.get(3)? })
                })?;
                Ok(rows.collect::<Result<_, _>>()?)
            })
            .await
    }

    async fn rename(&self, owner: &str, id: &str, name: &str) -> Result<bool, StoreError> {
        let (owner, id, name) = (owner.to_string(), id.to_string(), name.to_string());
        self.0
            .run(move |db| {
                let n = db
                    .conn()
                    .execute("UPDATE rule_sets SET name = ?3 WHERE owner = ?1 AND id = ?2", [owner, id, name])?;
                Ok(n == 1)
            })
            .await
    }

    async fn delete(&self, owner: &str, id: &str) -> Result<bool, StoreError> {
        let (owner, id) = (owner.to_string(), id.to_string());
        self.0
            .run(move |db| {
                Ok(db.conn().execute("DELETE FROM rule_sets WHERE owner = ?1 AND id = ?2", [owner, id])? == 1)
            })
            .await
    }
}

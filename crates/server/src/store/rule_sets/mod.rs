//! Named rule sets a visitor keeps ("Our table's rules"), by the hash of
//! their key.

use super::error::StoreError;

pub(crate) mod pg;
pub(crate) mod sqlite;

/// A named rule set a visitor keeps ("Our table's rules"), by its code.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SavedRules {
    pub id: String,
    pub name: String,
    /// The rule set's code ([`carcassonne::Rules::to_code`]).
    pub code: String,
    /// Unix ms.
    pub created_at: i64,
}

#[async_trait::async_trait]
pub trait RuleSetRepo: Send + Sync {
    /// Keeps a named rule set for the visitor whose key hashes to `owner`
    /// (`hash_token`), sent from the client address whose key hashes to
    /// `address`, unless the visitor keeps `max` already or the address
    /// `max_per_address` (whatever the keys): whether it was kept.
    ///
    /// # Errors
    /// The id is taken, or the storage fails.
    async fn save(
        &self,
        owner: &str,
        address: &str,
        rules: &SavedRules,
        max: usize,
        max_per_address: usize,
    ) -> Result<bool, StoreError>;

    /// The rule sets the visitor keeps, oldest first.
    ///
    /// # Errors
    /// The storage fails.
    async fn of(&self, owner: &str) -> Result<Vec<SavedRules>, StoreError>;

    /// Renames one of the visitor's rule sets: whether they keep one of that id.
    ///
    /// # Errors
    /// The storage fails.
    async fn rename(&self, owner: &str, id: &str, name: &str) -> Result<bool, StoreError>;

    /// Deletes one of the visitor's rule sets: whether they kept one of that id.
    ///
    /// # Errors
    /// The storage fails.
    async fn delete(&self, owner: &str, id: &str) -> Result<bool, StoreError>;
}

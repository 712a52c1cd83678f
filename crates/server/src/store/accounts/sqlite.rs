//! Accounts, sessions and passkeys in SQLite.

use rusqlite::{params, OptionalExtension};

use super::{
    Account, AccountRepo, PasskeyChallenge, PasskeyRepo, StoredPasskey, ACCOUNT_COLUMNS, FORGET_OLD_DEVICES,
    KEEP_LATEST_SESSIONS,
};
use crate::store::error::StoreError;
use crate::store::sqlite::SqliteDb;

/// The accounts and sessions of one SQLite file, and the sign-in attempts
/// of its one server.
pub(crate) struct SqliteAccounts(pub(crate) SqliteDb, pub(crate) Attempts);

/// The sign-in budgets spent, in memory: each budget's key and the time its
/// allowance is whole again (as `sign_in_attempts` keeps them in
/// PostgreSQL), those whole again forgotten when the map has doubled.
pub(crate) struct Attempts {
    full_at: std::sync::Mutex<std::collections::HashMap<String, i64>>,
    pruning: crate::limits::Pruning,
}

impl Default for Attempts {
    fn default() -> Attempts {
        // Past 10,000 budgets, those whole again are forgotten (then again
        // each time the map has doubled).
        Attempts { full_at: Default::default(), pruning: crate::limits::Pruning::new(10_000) }
    }
}

impl Attempts {
    /// `AccountRepo::spend_attempt` at `now`.
    fn spend(&self, key: &str, now: i64, every_ms: i64, burst: u32) -> Option<i64> {
        let ahead = every_ms.saturating_mul(i64::from(burst.max(1)) - 1);
        let mut map = self.full_at.lock().unwrap_or_else(|e| e.into_inner());
        self.pruning.maybe(map.len(), || {
            map.retain(|_, full_at| *full_at > now);
            map.len()
        });
        let full_at = map.get(key).copied().unwrap_or(now).max(now);
        if full_at > now + ahead {
            return Some((full_at - ahead - now).max(1));
        }
        map.insert(key.to_string(), full_at + every_ms);
        None
    }
}

/// The passkeys of one SQLite file.
pub(crate) struct SqlitePasskeys(pub(crate) SqliteDb);

#[async_trait::async_trait]
impl AccountRepo for SqliteAccounts {
    async fn create(&self, account: &Account) -> Result<bool, StoreError> {
        let a = account.clone();
        self.0
            .run(move |db| {
                let n = db.conn().execute(
                    "INSERT INTO accounts (id, name, name_key, password, recovery, created_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6) ON CONFLICT (name_key) DO NOTHING",
                    params![a.id, a.name, a.name_key, a.password, a.recovery, a.created_at],
                )?;
                Ok(n == 1)
            })
            .await
    }

    async fn by_key(&self, name_key: &str) -> Result<Option<Account>, StoreError> {
        let key = name_key.to_string();
        self.0
            .run(move |db| {
                let sql = format!("SELECT {ACCOUNT_COLUMNS} FROM accounts a WHERE a.name_key = ?1");
                Ok(db.read().query_row(&sql, [key], account_row).optional()?)
            })
            .await
    }

    async fn set_password(&self, id: &str, password: &str, recovery: Option<&str>) -> Result<bool, StoreError> {
        let (id, password, recovery) = (id.to_string(), password.to_string(), recovery.map(str::to_string));
        self.0
            .run(move |db| {
                let n = db.conn().execute(
                    "UPDATE accounts SET password = ?2, recovery = COALESCE(?3, recovery) WHERE id = ?1",
                    params![id, password, recovery],
                )?;
                Ok(n == 1)
            })
            .await
    }

    async fn rename(&self, id: &str, name: &str, name_key: &str) -> Result<bool, StoreError> {
        let (id, name, key) = (id.to_string(), name.to_string(), name_key.to_string());
        self.0
            .run(move |db| {
                let n = db.conn().execute(
                    "UPDATE accounts SET name = ?2, name_key = ?3 WHERE id = ?1
                     AND NOT EXISTS (SELECT 1 FROM accounts WHERE name_key = ?3 AND id <> ?1)",
                    params![id, name, key],
                )?;
                Ok(n == 1)
            })
            .await
    }

    async fn delete(&self, id: &str) -> Result<bool, StoreError> {
        let id = id.to_string();
        self.0.run(move |db| Ok(db.conn().execute("DELETE FROM accounts WHERE id = ?1", [id])? == 1)).await
    }

    async fn create_session(
        &self,
        token_hash: &str,
        account: &str,
        now: i64,
        idle_before: i64,
        keep: usize,
    ) -> Result<(), StoreError> {
        let (hash, account) = (token_hash.to_string(), account.to_string());
        let keep = i64::try_from(keep).unwrap_or(i64::MAX);
        self.0
            .run(move |db| {
                let mut conn = db.conn();
                let tx = conn.transaction()?;
                tx.execute("DELETE FROM sessions WHERE seen_at < ?1", [idle_before])?;
                tx.execute(
                    "INSERT INTO sessions (token_hash, account, created_at, seen_at) VALUES (?1, ?2, ?3, ?3)",
                    params![hash, account, now],
                )?;
                tx.execute(KEEP_LATEST_SESSIONS, params![account, keep])?;
                tx.commit()?;
                Ok(())
            })
            .await
    }

    async fn session(
        &self,
        token_hash: &str,
        now: i64,
        idle_before: i64,
        renew_before: i64,
    ) -> Result<Option<Account>, StoreError> {
        let hash = token_hash.to_string();
        self.0
            .run(move |db| {
                // Most requests only read; the writer's connection is taken only
                // to end an idle session or to renew one.
                let sql = format!(
                    "SELECT {ACCOUNT_COLUMNS}, s.seen_at FROM sessions s JOIN accounts a ON a.id = s.account
                 WHERE s.token_hash = ?1"
                );
                let found = db
                    .read()
                    .query_row(&sql, [&hash], |r| Ok((account_row(r)?, r.get::<_, i64>("seen_at")?)))
                    .optional()?;
                let Some((account, seen_at)) = found else { return Ok(None) };
                if seen_at < idle_before {
                    db.conn().execute(
                        "DELETE FROM sessions WHERE token_hash = ?1 AND seen_at < ?2",
                        params![hash, idle_before],
                    )?;
                    return Ok(None);
                }
                if seen_at < renew_before {
                    let renewed = db.conn().execute(
                        "UPDATE sessions SET seen_at = ?2 WHERE token_hash = ?1 AND seen_at < ?3",
                        params![hash, now, renew_before],
                    )?;
                    if renewed == 0 {
                        // Ended (or renewed) since it was read: read it again.
                        let sql = format!(
                            "SELECT {ACCOUNT_COLUMNS} FROM sessions s JOIN accounts a ON a.id = s.account
                         WHERE s.token_hash = ?1 AND s.seen_at >= ?2"
                        );
                        return Ok(db.conn().query_row(&sql, params![hash, idle_before], account_row).optional()?);
                    }
                }
                Ok(Some(account))
            })
            .await
    }

    async fn end_session(&self, token_hash: &str) -> Result<bool, StoreError> {
        let hash = token_hash.to_string();
        self.0.run(move |db| Ok(db.conn().execute("DELETE FROM sessions WHERE token_hash = ?1", [hash])? == 1)).await
    }

    async fn end_sessions(&self, account: &str, keep: Option<&str>) -> Result<u64, StoreError> {
        let (account, keep) = (account.to_string(), keep.unwrap_or_default().to_string());
        self.0
            .run(move |db| {
                let n = db
                    .conn()
                    .execute("DELETE FROM sessions WHERE account = ?1 AND token_hash <> ?2", params![account, keep])?;
                Ok(n as u64)
            })
            .await
    }

    async fn by_id(&self, id: &str) -> Result<Option<Account>, StoreError> {
        let id = id.to_string();
        self.0
            .run(move |db| {
                let sql = format!("SELECT {ACCOUNT_COLUMNS} FROM accounts a WHERE a.id = ?1");
                Ok(db.read().query_row(&sql, [id], account_row).optional()?)
            })
            .await
    }

    async fn add_device(&self, token_hash: &str, account: &str, now: i64, keep: usize) -> Result<(), StoreError> {
        let (hash, account) = (token_hash.to_string(), account.to_string());
        let keep = i64::try_from(keep).unwrap_or(i64::MAX);
        self.0
            .run(move |db| {
                let mut conn = db.conn();
                let tx = conn.transaction()?;
                tx.execute(
                    "INSERT INTO devices (token_hash, account, created_at) VALUES (?1, ?2, ?3)
                     ON CONFLICT (token_hash) DO UPDATE SET account = excluded.account, created_at = excluded.created_at",
                    params![hash, account, now],
                )?;
                tx.execute(FORGET_OLD_DEVICES, params![account, keep])?;
                tx.commit()?;
                Ok(())
            })
            .await
    }

    async fn device(&self, token_hash: &str) -> Result<Option<String>, StoreError> {
        let hash = token_hash.to_string();
        self.0
            .run(move |db| {
                Ok(db
                    .read()
                    .query_row("SELECT account FROM devices WHERE token_hash = ?1", [hash], |r| r.get(0))
                    .optional()?)
            })
            .await
    }

    async fn spend_attempt(&self, key: &str, every_ms: i64, burst: u32) -> Result<Option<i64>, StoreError> {
        // One file, one server: the budgets are kept in its memory, and a
        // crowd's attempts cost the disk (and the moves' writer) nothing.
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX / 4));
        Ok(self.1.spend(key, now, every_ms, burst))
    }
}

#[async_trait::async_trait]
impl PasskeyRepo for SqlitePasskeys {
    async fn save_challenge(&self, challenge: &PasskeyChallenge, now: i64, room: usize) -> Result<bool, StoreError> {
        let c = challenge.clone();
        self.0.run(move |db| passkeys::save_challenge(&mut db.conn(), &c, now, room)).await
    }

    async fn take_challenge(
        &self,
        id_hash: &str,
        kind: &str,
        now: i64,
    ) -> Result<Option<PasskeyChallenge>, StoreError> {
        let (id_hash, kind) = (id_hash.to_string(), kind.to_string());
        self.0.run(move |db| passkeys::take_challenge(&db.conn(), &id_hash, &kind, now)).await
    }

    async fn add(&self, passkey: &StoredPasskey, max: usize) -> Result<bool, StoreError> {
        let p = passkey.clone();
        self.0.run(move |db| passkeys::add(&db.conn(), &p, max)).await
    }

    async fn of(&self, account: &str) -> Result<Vec<StoredPasskey>, StoreError> {
        let account = account.to_string();
        self.0.run(move |db| passkeys::list(&db.conn(), &account)).await
    }

    async fn by_credential(&self, credential_id: &str) -> Result<Option<(StoredPasskey, Account)>, StoreError> {
        let id = credential_id.to_string();
        self.0.run(move |db| passkeys::by_credential(&db.conn(), &id)).await
    }

    async fn used(&self, credential_id: &str, passkey: &str, now: i64) -> Result<bool, StoreError> {
        let (id, passkey) = (credential_id.to_string(), passkey.to_string());
        self.0.run(move |db| passkeys::used(&db.conn(), &id, &passkey, now)).await
    }

    async fn delete(&self, account: &str, credential_id: &str) -> Result<bool, StoreError> {
        let (account, id) = (account.to_string(), credential_id.to_string());
        self.0.run(move |db| passkeys::delete(&db.conn(), &account, &id)).await
    }
}

fn account_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<Account> {
    Ok(Account {
        id: r.get(0)?,
        name: r.get(1)?,
        name_key: r.get(2)?,
        password: r.get(3)?,
        recovery: r.get(4)?,
        created_at: r.get(5)?,
    })
}

mod passkeys {
    use rusqlite::{params, Connection, OptionalExtension};

    use crate::store::accounts::{
        unexpired, Account, PasskeyChallenge, StoredPasskey, ACCOUNT_COLUMNS, ADD, PASSKEY_COLUMNS, SAVE, TAKE,
    };
    use crate::store::error::StoreError;

    fn passkey_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<StoredPasskey> {
        Ok(StoredPasskey {
            credential_id: r.get(0)?,
            account: r.get(1)?,
            name: r.get(2)?,
            passkey: r.get(3)?,
            created_at: r.get(4)?,
            used_at: r.get(5)?,
        })
    }

    pub fn save_challenge(
        conn: &mut Connection,
        c: &PasskeyChallenge,
        now: i64,
        room: usize,
    ) -> Result<bool, StoreError> {
        let room = i64::try_from(room).unwrap_or(i64::MAX);
        let tx = conn.transaction()?;
        tx.execute("DELETE FROM passkey_challenges WHERE expires_at < ?1", [now])?;
        let kept = tx.execute(SAVE, params![c.id_hash, c.kind, c.account, c.state, c.expires_at, room])? == 1;
        tx.commit()?;
        Ok(kept)
    }

    pub fn take_challenge(
        conn: &Connection,
        id_hash: &str,
        kind: &str,
        now: i64,
    ) -> Result<Option<PasskeyChallenge>, StoreError> {
        let c = conn
            .query_row(TAKE, params![id_hash, kind], |r| {
                Ok(PasskeyChallenge {
                    id_hash: r.get(0)?,
                    kind: r.get(1)?,
                    account: r.get(2)?,
                    state: r.get(3)?,
                    expires_at: r.get(4)?,
                })
            })
            .optional()?;
        Ok(c.and_then(|c| unexpired(c, now)))
    }

    pub fn add(conn: &Connection, p: &StoredPasskey, max: usize) -> Result<bool, StoreError> {
        let max = i64::try_from(max).unwrap_or(i64::MAX);
        let n = conn.execute(ADD, params![p.credential_id, p.account, p.name, p.passkey, p.created_at, max])?;
        Ok(n == 1)
    }

    pub fn list(conn: &Connection, account: &str) -> Result<Vec<StoredPasskey>, StoreError> {
        let sql = format!(
            "SELECT {PASSKEY_COLUMNS} FROM passkeys p WHERE p.account = ?1 ORDER BY p.created_at, p.credential_id"
        );
        let mut stmt = conn.prepare(&sql)?;
        let rows = stmt.query_map([account], passkey_row)?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    pub fn by_credential(conn: &Connection, id: &str) -> Result<Option<(StoredPasskey, Account)>, StoreError> {
        let sql = format!(
            "SELECT {PASSKEY_COLUMNS}, {ACCOUNT_COLUMNS} FROM passkeys p JOIN accounts a ON a.id = p.account
             WHERE p.credential_id = ?1"
        );
        Ok(conn
            .query_row(&sql, [id], |r| {
                let p = passkey_row(r)?;
                let a = Account {
                    id: r.get(6)?,
                    name: r.get(7)?,
                    name_key: r.get(8)?,
                    password: r.get(9)?,
                    recovery: r.get(10)?,
                    created_at: r.get(11)?,
                };
                Ok((p, a))
            })
            .optional()?)
    }

    pub fn used(conn: &Connection, id: &str, passkey: &str, now: i64) -> Result<bool, StoreError> {
        let n = conn.execute(
            "UPDATE passkeys SET passkey = ?2, used_at = ?3 WHERE credential_id = ?1",
            params![id, passkey, now],
        )?;
        Ok(n == 1)
    }

    pub fn delete(conn: &Connection, account: &str, id: &str) -> Result<bool, StoreError> {
        let n = conn.execute("DELETE FROM passkeys WHERE account = ?1 AND credential_id = ?2", params![account, id])?;
        Ok(n == 1)
    }
}

#[cfg(test)]
mod tests {
    use super::Attempts;

    #[test]
    fn budgets_whole_again_are_forgotten_once_the_map_has_doubled() {
        let attempts = Attempts::default();
        // Three at once, then one every 10 ms.
        for _ in 0..3 {
            assert_eq!(attempts.spend("ada", 0, 10, 3), None);
        }
        assert_eq!(attempts.spend("ada", 0, 10, 3), Some(10));
        assert_eq!(attempts.spend("ada", 5, 10, 3), Some(5), "a refusal spends nothing");
        assert_eq!(attempts.spend("ada", 10, 10, 3), None);
        // A crowd of budgets, each spent once: all whole again after 10 ms.
        for i in 0..10_000 {
            attempts.spend(&format!("crowd {i}"), 0, 10, 3);
        }
        let len = || attempts.full_at.lock().unwrap().len();
        assert_eq!(len(), 10_001);
        attempts.spend("bob", 100, 10, 3);
        assert_eq!(len(), 1, "only Bob's is kept: the others are whole again");
    }
}

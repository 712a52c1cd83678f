//! Passkeys in the storage (docs/web.md, *Passkeys*): the SQL of the
//! `Store` methods under "passkeys", for SQLite (`store.rs`) and PostgreSQL
//! (`store_pg.rs`), which call these functions.
//!
//! Two tables: `passkeys` (each credential's id, the account it signs in,
//! and webauthn-rs's `Passkey` as JSON: its public key and counter), and
//! `passkey_challenges` (a ceremony begun: webauthn-rs's state as JSON,
//! under the hash of the token the browser holds, until it expires; taken
//! once, by whichever server the browser finishes on).

use rusqlite::{params, Connection, OptionalExtension};

use super::{Account, StoreError, ACCOUNT_COLUMNS};

/// A passkey as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredPasskey {
    /// The credential's id, base64url without padding.
    pub credential_id: String,
    /// The account it signs in.
    pub account: String,
    /// Its name as shown in the account's list.
    pub name: String,
    /// webauthn-rs's `Passkey`, JSON.
    pub passkey: String,
    /// Unix ms.
    pub created_at: i64,
    /// The last sign-in with it, Unix ms.
    pub used_at: Option<i64>,
}

/// A ceremony begun and not yet finished.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PasskeyChallenge {
    /// SHA-256 of the token the browser holds (`store::hash_token`).
    pub id_hash: String,
    /// `register` or `signin`.
    pub kind: String,
    /// The account adding a passkey (none for a sign-in).
    pub account: Option<String>,
    /// webauthn-rs's state, JSON.
    pub state: String,
    /// Unix ms: taken after this, it is refused.
    pub expires_at: i64,
}

/// The SQLite migration (the lead renumbers it at merge).
pub const SQLITE_MIGRATION: &str = "CREATE TABLE passkeys (
        credential_id TEXT PRIMARY KEY,  -- base64url
        account       TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        name          TEXT NOT NULL,
        passkey       TEXT NOT NULL,     -- webauthn-rs Passkey (public key, counter), JSON
        created_at    INTEGER NOT NULL,  -- Unix ms
        used_at       INTEGER            -- Unix ms, last sign-in
    );
    CREATE INDEX passkeys_by_account ON passkeys(account);
    CREATE TABLE passkey_challenges (
        id_hash     TEXT PRIMARY KEY,    -- SHA-256 of the browser's token
        kind        TEXT NOT NULL,       -- register | signin
        account     TEXT REFERENCES accounts(id) ON DELETE CASCADE,
        state       TEXT NOT NULL,       -- webauthn-rs state, JSON
        expires_at  INTEGER NOT NULL     -- Unix ms
    );
    CREATE INDEX passkey_challenges_by_expiry ON passkey_challenges(expires_at);";

/// The PostgreSQL migration (the lead renumbers it at merge).
pub const PG_MIGRATION: &str = "CREATE TABLE passkeys (
        credential_id TEXT PRIMARY KEY,  -- base64url
        account       TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        name          TEXT NOT NULL,
        passkey       TEXT NOT NULL,     -- webauthn-rs Passkey (public key, counter), JSON
        created_at    BIGINT NOT NULL,   -- Unix ms
        used_at       BIGINT             -- Unix ms, last sign-in
    );
    CREATE INDEX passkeys_by_account ON passkeys (account);
    CREATE TABLE passkey_challenges (
        id_hash     TEXT PRIMARY KEY,    -- SHA-256 of the browser's token
        kind        TEXT NOT NULL,       -- register | signin
        account     TEXT REFERENCES accounts(id) ON DELETE CASCADE,
        state       TEXT NOT NULL,       -- webauthn-rs state, JSON
        expires_at  BIGINT NOT NULL      -- Unix ms
    );
    CREATE INDEX passkey_challenges_by_expiry ON passkey_challenges (expires_at);";

const PASSKEY_COLUMNS: &str = "p.credential_id, p.account, p.name, p.passkey, p.created_at, p.used_at";

/// Adds a passkey unless its credential is stored already or the account
/// has `max` (`$6`) of them.
const ADD: &str = "INSERT INTO passkeys (credential_id, account, name, passkey, created_at, used_at)
     SELECT $1, $2, $3, $4, $5, NULL
     WHERE (SELECT COUNT(*) FROM passkeys WHERE account = $2) < $6
     ON CONFLICT (credential_id) DO NOTHING";

/// Takes a challenge of a kind: deleted whether expired or not, returned.
const TAKE: &str = "DELETE FROM passkey_challenges WHERE id_hash = $1 AND kind = $2
     RETURNING id_hash, kind, account, state, expires_at";

const SAVE: &str = "INSERT INTO passkey_challenges (id_hash, kind, account, state, expires_at)
     VALUES ($1, $2, $3, $4, $5)";

fn unexpired(c: PasskeyChallenge, now: i64) -> Option<PasskeyChallenge> {
    (c.expires_at >= now).then_some(c)
}

/// SQLite's side (`?N` and `$N` are the same to SQLite).
pub(crate) mod sqlite {
    use super::*;

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

    pub fn save_challenge(conn: &mut Connection, c: &PasskeyChallenge, now: i64) -> Result<(), StoreError> {
        let tx = conn.transaction()?;
        tx.execute("DELETE FROM passkey_challenges WHERE expires_at < ?1", [now])?;
        tx.execute(SAVE, params![c.id_hash, c.kind, c.account, c.state, c.expires_at])?;
        tx.commit()?;
        Ok(())
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

/// PostgreSQL's side.
pub(crate) mod pg {
    use super::*;
    use tokio_postgres::Client;

    fn passkey_row(r: &tokio_postgres::Row) -> Result<StoredPasskey, StoreError> {
        Ok(StoredPasskey {
            credential_id: r.try_get(0)?,
            account: r.try_get(1)?,
            name: r.try_get(2)?,
            passkey: r.try_get(3)?,
            created_at: r.try_get(4)?,
            used_at: r.try_get(5)?,
        })
    }

    pub async fn save_challenge(conn: &Client, c: &PasskeyChallenge, now: i64) -> Result<(), StoreError> {
        conn.execute("DELETE FROM passkey_challenges WHERE expires_at < $1", &[&now]).await?;
        conn.execute(SAVE, &[&c.id_hash, &c.kind, &c.account, &c.state, &c.expires_at]).await?;
        Ok(())
    }

    pub async fn take_challenge(
        conn: &Client,
        id_hash: &str,
        kind: &str,
        now: i64,
    ) -> Result<Option<PasskeyChallenge>, StoreError> {
        let row = conn.query_opt(TAKE, &[&id_hash, &kind]).await?;
        let c = row
            .map(|r| -> Result<PasskeyChallenge, StoreError> {
                Ok(PasskeyChallenge {
                    id_hash: r.try_get(0)?,
                    kind: r.try_get(1)?,
                    account: r.try_get(2)?,
                    state: r.try_get(3)?,
                    expires_at: r.try_get(4)?,
                })
            })
            .transpose()?;
        Ok(c.and_then(|c| unexpired(c, now)))
    }

    pub async fn add(conn: &Client, p: &StoredPasskey, max: usize) -> Result<bool, StoreError> {
        let max = i64::try_from(max).unwrap_or(i64::MAX);
        let n = conn.execute(ADD, &[&p.credential_id, &p.account, &p.name, &p.passkey, &p.created_at, &max]).await?;
        Ok(n == 1)
    }

    pub async fn list(conn: &Client, account: &str) -> Result<Vec<StoredPasskey>, StoreError> {
        let sql = format!(
            "SELECT {PASSKEY_COLUMNS} FROM passkeys p WHERE p.account = $1 ORDER BY p.created_at, p.credential_id"
        );
        conn.query(&sql, &[&account]).await?.iter().map(passkey_row).collect()
    }

    pub async fn by_credential(conn: &Client, id: &str) -> Result<Option<(StoredPasskey, Account)>, StoreError> {
        let sql = format!(
            "SELECT {PASSKEY_COLUMNS}, {ACCOUNT_COLUMNS} FROM passkeys p JOIN accounts a ON a.id = p.account
             WHERE p.credential_id = $1"
        );
        let row = conn.query_opt(&sql, &[&id]).await?;
        row.map(|r| -> Result<_, StoreError> {
            let a = Account {
                id: r.try_get(6)?,
                name: r.try_get(7)?,
                name_key: r.try_get(8)?,
                password: r.try_get(9)?,
                recovery: r.try_get(10)?,
                created_at: r.try_get(11)?,
            };
            Ok((passkey_row(&r)?, a))
        })
        .transpose()
    }

    pub async fn used(conn: &Client, id: &str, passkey: &str, now: i64) -> Result<bool, StoreError> {
        let n = conn
            .execute("UPDATE passkeys SET passkey = $2, used_at = $3 WHERE credential_id = $1", &[&id, &passkey, &now])
            .await?;
        Ok(n == 1)
    }

    pub async fn delete(conn: &Client, account: &str, id: &str) -> Result<bool, StoreError> {
        let n =
            conn.execute("DELETE FROM passkeys WHERE account = $1 AND credential_id = $2", &[&account, &id]).await?;
        Ok(n == 1)
    }
}

//! Accounts, sessions and passkeys in PostgreSQL.

use std::sync::Arc;

use super::{
    Account, AccountRepo, PasskeyChallenge, PasskeyRepo, StoredPasskey, ACCOUNT_COLUMNS, ATTEMPTS_FORGOTTEN,
    FORGET_OLD_DEVICES, KEEP_LATEST_SESSIONS,
};
use crate::store::error::StoreError;
use crate::store::pg::Pg;

/// The accounts and sessions of a PostgreSQL database.
pub(crate) struct PgAccounts(pub(crate) Arc<Pg>);

/// The passkeys of a PostgreSQL database.
pub(crate) struct PgPasskeys(pub(crate) Arc<Pg>);

#[async_trait::async_trait]
impl AccountRepo for PgAccounts {
    async fn create(&self, a: &Account) -> Result<bool, StoreError> {
        let n = self
            .0
            .conn()
            .await?
            .execute(
                "INSERT INTO accounts (id, name, name_key, password, recovery, created_at)
                 VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (name_key) DO NOTHING",
                &[&a.id, &a.name, &a.name_key, &a.password, &a.recovery, &a.created_at],
            )
            .await?;
        Ok(n == 1)
    }

    async fn by_key(&self, name_key: &str) -> Result<Option<Account>, StoreError> {
        let sql = format!("SELECT {ACCOUNT_COLUMNS} FROM accounts a WHERE a.name_key = $1");
        let row = self.0.conn().await?.query_opt(&sql, &[&name_key]).await?;
        row.map(|r| account_row(&r)).transpose()
    }

    async fn set_password(&self, id: &str, password: &str, recovery: Option<&str>) -> Result<bool, StoreError> {
        let n = self
            .0
            .conn()
            .await?
            .execute(
                "UPDATE accounts SET password = $2, recovery = COALESCE($3, recovery) WHERE id = $1",
                &[&id, &password, &recovery],
            )
            .await?;
        Ok(n == 1)
    }

    async fn rename(&self, id: &str, name: &str, name_key: &str) -> Result<bool, StoreError> {
        // The key is unique: a rename onto one held by another account fails
        // the constraint, which is a refusal here.
        let n = self
            .0
            .conn()
            .await?
            .execute(
                "UPDATE accounts SET name = $2, name_key = $3 WHERE id = $1
                 AND NOT EXISTS (SELECT 1 FROM accounts WHERE name_key = $3 AND id <> $1)",
                &[&id, &name, &name_key],
            )
            .await;
        match n {
            Ok(n) => Ok(n == 1),
            Err(e) if e.code() == Some(&tokio_postgres::error::SqlState::UNIQUE_VIOLATION) => Ok(false),
            Err(e) => Err(e.into()),
        }
    }

    async fn delete(&self, id: &str) -> Result<bool, StoreError> {
        Ok(self.0.conn().await?.execute("DELETE FROM accounts WHERE id = $1", &[&id]).await? == 1)
    }

    async fn create_session(
        &self,
        token_hash: &str,
        account: &str,
        now: i64,
        idle_before: i64,
        keep: usize,
    ) -> Result<(), StoreError> {
        let mut conn = self.0.conn().await?;
        // The sweep and the session in one transaction: a refused one sweeps nothing.
        let tx = conn.transaction().await?;
        tx.execute("DELETE FROM sessions WHERE seen_at < $1", &[&idle_before]).await?;
        tx.execute(
            "INSERT INTO sessions (token_hash, account, created_at, seen_at) VALUES ($1, $2, $3, $3)",
            &[&token_hash, &account, &now],
        )
        .await?;
        let keep = i64::try_from(keep).unwrap_or(i64::MAX);
        tx.execute(KEEP_LATEST_SESSIONS, &[&account, &keep]).await?;
        tx.commit().await?;
        Ok(())
    }

    async fn session(
        &self,
        token_hash: &str,
        now: i64,
        idle_before: i64,
        renew_before: i64,
    ) -> Result<Option<Account>, StoreError> {
        let conn = self.0.conn().await?;
        conn.execute("DELETE FROM sessions WHERE token_hash = $1 AND seen_at < $2", &[&token_hash, &idle_before])
            .await?;
        conn.execute(
            "UPDATE sessions SET seen_at = $2 WHERE token_hash = $1 AND seen_at < $3",
            &[&token_hash, &now, &renew_before],
        )
        .await?;
        let sql = format!(
            "SELECT {ACCOUNT_COLUMNS} FROM sessions s JOIN accounts a ON a.id = s.account WHERE s.token_hash = $1"
        );
        let row = conn.query_opt(&sql, &[&token_hash]).await?;
        row.map(|r| account_row(&r)).transpose()
    }

    async fn end_session(&self, token_hash: &str) -> Result<bool, StoreError> {
        Ok(self.0.conn().await?.execute("DELETE FROM sessions WHERE token_hash = $1", &[&token_hash]).await? == 1)
    }

    async fn end_sessions(&self, account: &str, keep: Option<&str>) -> Result<u64, StoreError> {
        let keep = keep.unwrap_or_default();
        Ok(self
            .0
            .conn()
            .await?
            .execute("DELETE FROM sessions WHERE account = $1 AND token_hash <> $2", &[&account, &keep])
            .await?)
    }

    async fn by_id(&self, id: &str) -> Result<Option<Account>, StoreError> {
        let sql = format!("SELECT {ACCOUNT_COLUMNS} FROM accounts a WHERE a.id = $1");
        let row = self.0.conn().await?.query_opt(&sql, &[&id]).await?;
        row.map(|r| account_row(&r)).transpose()
    }

    async fn add_device(&self, token_hash: &str, account: &str, now: i64, keep: usize) -> Result<(), StoreError> {
        let keep = i64::try_from(keep).unwrap_or(i64::MAX);
        let mut conn = self.0.conn().await?;
        let tx = conn.transaction().await?;
        tx.execute(
            "INSERT INTO devices (token_hash, account, created_at) VALUES ($1, $2, $3)
             ON CONFLICT (token_hash) DO UPDATE SET account = excluded.account, created_at = excluded.created_at",
            &[&token_hash, &account, &now],
        )
        .await?;
        tx.execute(FORGET_OLD_DEVICES, &[&account, &keep]).await?;
        tx.commit().await?;
        Ok(())
    }

    async fn device(&self, token_hash: &str) -> Result<Option<String>, StoreError> {
        let row =
            self.0.conn().await?.query_opt("SELECT account FROM devices WHERE token_hash = $1", &[&token_hash]).await?;
        Ok(row.map(|r| r.try_get(0)).transpose()?)
    }

    async fn spend_attempt(&self, key: &str, every_ms: i64, burst: u32) -> Result<Option<i64>, StoreError> {
        let ahead = every_ms.saturating_mul(i64::from(burst.max(1)) - 1);
        let conn = self.0.conn().await?;
        // By the database's clock. The new row's time is now and one
        // attempt, so that `EXCLUDED.full_at - $2` is now; a few other
        // spent budgets whole again are forgotten on the way (not this
        // one: a statement changes a row once). Two servers spending one
        // budget at once queue on its row, the second seeing the first's.
        // Its commit does not wait for the disk (`synchronous_commit` off
        // for this statement's transaction alone).
        let spent = conn
            .query_opt(
                "WITH forgotten AS (DELETE FROM sign_in_attempts WHERE key IN
                     (SELECT key FROM sign_in_attempts
                      WHERE full_at < (extract(epoch FROM now()) * 1000)::bigint AND key <> $1
                      LIMIT $4 FOR UPDATE SKIP LOCKED))
                 INSERT INTO sign_in_attempts AS t (key, full_at)
                 SELECT $1, (extract(epoch FROM now()) * 1000)::bigint + $2
                 FROM (SELECT set_config('synchronous_commit', 'off', true)) AS quick
                 ON CONFLICT (key) DO UPDATE SET full_at = GREATEST(t.full_at + $2, EXCLUDED.full_at)
                 WHERE t.full_at <= EXCLUDED.full_at - $2 + $3
                 RETURNING t.full_at",
                &[&key, &every_ms, &ahead, &ATTEMPTS_FORGOTTEN],
            )
            .await?;
        if spent.is_some() {
            return Ok(None);
        }
        let wait: i64 = conn
            .query_one(
                "SELECT full_at - $2 - (extract(epoch FROM now()) * 1000)::bigint FROM sign_in_attempts WHERE key = $1",
                &[&key, &ahead],
            )
            .await?
            .try_get(0)?;
        Ok(Some(wait.max(1)))
    }
}

#[async_trait::async_trait]
impl PasskeyRepo for PgPasskeys {
    async fn save_challenge(&self, challenge: &PasskeyChallenge, now: i64, room: usize) -> Result<bool, StoreError> {
        let mut conn = self.0.conn().await?;
        // The sweep and the ceremony kept in one transaction: a refused one sweeps nothing.
        let tx = conn.transaction().await?;
        let kept = passkeys::save_challenge(&tx, challenge, now, room).await?;
        tx.commit().await?;
        Ok(kept)
    }

    async fn take_challenge(
        &self,
        id_hash: &str,
        kind: &str,
        now: i64,
    ) -> Result<Option<PasskeyChallenge>, StoreError> {
        let conn = self.0.conn().await?;
        passkeys::take_challenge(&conn, id_hash, kind, now).await
    }

    async fn add(&self, passkey: &StoredPasskey, max: usize) -> Result<bool, StoreError> {
        let mut conn = self.0.conn().await?;
        // One account's passkeys added one at a time, so that the bound holds.
        let tx = conn.transaction().await?;
        tx.execute("SELECT pg_advisory_xact_lock(hashtext('passkeys:' || $1))", &[&passkey.account]).await?;
        let added = passkeys::add(&tx, passkey, max).await?;
        tx.commit().await?;
        Ok(added)
    }

    async fn of(&self, account: &str) -> Result<Vec<StoredPasskey>, StoreError> {
        let conn = self.0.conn().await?;
        passkeys::list(&conn, account).await
    }

    async fn by_credential(&self, credential_id: &str) -> Result<Option<(StoredPasskey, Account)>, StoreError> {
        let conn = self.0.conn().await?;
        passkeys::by_credential(&conn, credential_id).await
    }

    async fn used(&self, credential_id: &str, passkey: &str, now: i64) -> Result<bool, StoreError> {
        let conn = self.0.conn().await?;
        passkeys::used(&conn, credential_id, passkey, now).await
    }

    async fn delete(&self, account: &str, credential_id: &str) -> Result<bool, StoreError> {
        let conn = self.0.conn().await?;
        passkeys::delete(&conn, account, credential_id).await
    }
}

fn account_row(r: &tokio_postgres::Row) -> Result<Account, StoreError> {
    Ok(Account {
        id: r.try_get(0)?,
        name: r.try_get(1)?,
        name_key: r.try_get(2)?,
        password: r.try_get(3)?,
        recovery: r.try_get(4)?,
        created_at: r.try_get(5)?,
    })
}

mod passkeys {
    use tokio_postgres::{Client, Transaction};

    use crate::store::accounts::{
        unexpired, Account, PasskeyChallenge, StoredPasskey, ACCOUNT_COLUMNS, ADD, PASSKEY_COLUMNS, SAVE, TAKE,
    };
    use crate::store::error::StoreError;

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

    pub async fn save_challenge(
        conn: &Transaction<'_>,
        c: &PasskeyChallenge,
        now: i64,
        room: usize,
    ) -> Result<bool, StoreError> {
        let room = i64::try_from(room).unwrap_or(i64::MAX);
        // Ceremonies begun one at a time across servers, so that the count holds.
        conn.execute("SELECT pg_advisory_xact_lock(hashtext('passkey:challenges'))", &[]).await?;
        conn.execute("DELETE FROM passkey_challenges WHERE expires_at < $1", &[&now]).await?;
        let n = conn.execute(SAVE, &[&c.id_hash, &c.kind, &c.account, &c.state, &c.expires_at, &room]).await?;
        Ok(n == 1)
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

    pub async fn add(conn: &Transaction<'_>, p: &StoredPasskey, max: usize) -> Result<bool, StoreError> {
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

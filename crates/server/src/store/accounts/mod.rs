//! Accounts, their sessions and their passkeys (docs/web.md, *Accounts*
//! and *Passkeys*).
//!
//! Passkeys: two tables, `passkeys` (each credential's id, the account it
//! signs in, and webauthn-rs's `Passkey` as JSON: its public key and
//! counter), and `passkey_challenges` (a ceremony begun: webauthn-rs's state
//! as JSON, under the hash of the token the browser holds, until it
//! expires; taken once, by whichever server the browser finishes on).

use super::error::StoreError;

pub(crate) mod pg;
pub(crate) mod sqlite;

/// An account as stored: its name as shown, the key names are compared
/// by (`names::name_key`), the argon2id hash of its password (a PHC string)
/// and the SHA-256 of its recovery code (`hash_token`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Account {
    pub id: String,
    pub name: String,
    pub name_key: String,
    pub password: String,
    pub recovery: String,
    pub created_at: i64,
}

/// The accounts' keys again, after a change of `names::name_key` (a
/// migration): each account's name's key, in the order the accounts were
/// made (`accounts` so sorted). An account whose name's key an older one
/// holds already keeps a key no name gives (`key#id`): it signs in with a
/// passkey, not by its name, and is logged.
pub(crate) fn rekeyed(accounts: &[(String, String)]) -> Vec<(String, String)> {
    let mut taken = std::collections::HashSet::new();
    accounts
        .iter()
        .map(|(id, name)| {
            let key = crate::names::name_key(name);
            if taken.insert(key.clone()) {
                (id.clone(), key)
            } else {
                tracing::warn!(account = %id, "an account's name looks like an older one's: it no longer signs in by name");
                (id.clone(), format!("{key}#{id}"))
            }
        })
        .collect()
}

/// Sets the accounts' keys to `keys` in two passes (each key first made
/// unique by its id), so that no key is held twice on the way.
pub(crate) const REKEY_TEMPORARY: &str = "UPDATE accounts SET name_key = '#' || id";

/// The devices that signed in to an account (migration 16, both backends):
/// the hash of each browser's device token, for the sign-in throttles
/// (services/accounts.rs): a device that signed in before is never locked
/// out, nor starved, by a crowd trying the account's name.
pub(crate) const DEVICES_SCHEMA: &str = "CREATE TABLE devices (
        token_hash  TEXT PRIMARY KEY,  -- SHA-256 of the device cookie's token
        account     TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        created_at  BIGINT NOT NULL    -- Unix ms
    );
    CREATE INDEX devices_by_account ON devices (account, created_at);";

/// The sign-in attempts counted in PostgreSQL (migration 24), so that every
/// server sharing it spends one budget (services/accounts.rs, `Throttles`;
/// SQLite's one server keeps them in memory: `sqlite::Attempts`): each
/// budget's key (a name, an address or a device, hashed with what it is)
/// and the time its allowance is whole again (a generic cell rate: an
/// attempt is let through while that time is no further ahead than the
/// budget's burst less one attempt, and moves it one attempt's period on).
/// A row whose time is past counts for nothing and is forgotten, a few at
/// each attempt. Written with `synchronous_commit` off: a budget lost to a
/// database crash is whole again, which is harmless.
pub(crate) const ATTEMPTS_SCHEMA: &str = "CREATE TABLE sign_in_attempts (
        key      TEXT PRIMARY KEY,  -- SHA-256 of the budget's kind and key
        full_at  BIGINT NOT NULL    -- Unix ms: its allowance is whole again
    );
    CREATE INDEX sign_in_attempts_by_full_at ON sign_in_attempts (full_at);";

/// Spent budgets forgotten at each attempt, at most (those whole again).
pub(crate) const ATTEMPTS_FORGOTTEN: i64 = 8;

/// Forgets an account's devices beyond the newest `$2` (`$1` the account).
const FORGET_OLD_DEVICES: &str = "DELETE FROM devices WHERE account = $1 AND token_hash NOT IN
     (SELECT token_hash FROM devices WHERE account = $1 ORDER BY created_at DESC, token_hash LIMIT $2)";

/// The columns an [`Account`] is read from, in its fields' order.
pub(crate) const ACCOUNT_COLUMNS: &str = "a.id, a.name, a.name_key, a.password, a.recovery, a.created_at";

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

/// The passkeys' tables in SQLite (migration 9).
pub(crate) const PASSKEYS_SQLITE_SCHEMA: &str = "CREATE TABLE passkeys (
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

/// The passkeys' tables in PostgreSQL (migration 8).
pub(crate) const PASSKEYS_PG_SCHEMA: &str = "CREATE TABLE passkeys (
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

pub(crate) const PASSKEY_COLUMNS: &str = "p.credential_id, p.account, p.name, p.passkey, p.created_at, p.used_at";

/// Adds a passkey unless its credential is stored already or the account
/// has `max` (`$6`) of them.
pub(crate) const ADD: &str = "INSERT INTO passkeys (credential_id, account, name, passkey, created_at, used_at)
     SELECT $1, $2, $3, $4, $5, NULL
     WHERE (SELECT COUNT(*) FROM passkeys WHERE account = $2) < $6
     ON CONFLICT (credential_id) DO NOTHING";

/// Takes a challenge of a kind: deleted whether expired or not, returned.
pub(crate) const TAKE: &str = "DELETE FROM passkey_challenges WHERE id_hash = $1 AND kind = $2
     RETURNING id_hash, kind, account, state, expires_at";

/// Forgets account `$1`'s sessions but its `$2` latest used (then started).
pub(crate) const KEEP_LATEST_SESSIONS: &str = "DELETE FROM sessions WHERE account = $1 AND token_hash NOT IN (
     SELECT token_hash FROM sessions WHERE account = $1 ORDER BY seen_at DESC, created_at DESC, token_hash LIMIT $2)";

/// Keeps a challenge while fewer than `$6` are kept (the expired removed first).
pub(crate) const SAVE: &str = "INSERT INTO passkey_challenges (id_hash, kind, account, state, expires_at)
     SELECT $1, $2, $3, $4, $5
     WHERE (SELECT COUNT(*) FROM passkey_challenges) < $6";

pub(crate) fn unexpired(c: PasskeyChallenge, now: i64) -> Option<PasskeyChallenge> {
    (c.expires_at >= now).then_some(c)
}

#[async_trait::async_trait]
pub trait AccountRepo: Send + Sync {
    /// Stores a new account: false if its `name_key` is taken.
    ///
    /// # Errors
    /// The storage fails.
    async fn create(&self, account: &Account) -> Result<bool, StoreError>;

    /// The account whose name has this key.
    ///
    /// # Errors
    /// The storage fails.
    async fn by_key(&self, name_key: &str) -> Result<Option<Account>, StoreError>;

    /// Replaces an account's password hash (and its recovery code's hash,
    /// if given): whether the account exists.
    ///
    /// # Errors
    /// The storage fails.
    async fn set_password(&self, id: &str, password: &str, recovery: Option<&str>) -> Result<bool, StoreError>;

    /// Gives an account a new name (and its key): false if another account
    /// holds that key, or there is no such account.
    ///
    /// # Errors
    /// The storage fails.
    async fn rename(&self, id: &str, name: &str, name_key: &str) -> Result<bool, StoreError>;

    /// Deletes an account and its sessions: whether it existed.
    ///
    /// # Errors
    /// The storage fails.
    async fn delete(&self, id: &str) -> Result<bool, StoreError>;

    /// Starts a session for `account` (its token's hash), at `now` (Unix
    /// ms); sessions unused since `idle_before` are removed on the way, and
    /// the account's beyond its `keep` latest used.
    ///
    /// # Errors
    /// The storage fails (or the account is gone).
    async fn create_session(
        &self,
        token_hash: &str,
        account: &str,
        now: i64,
        idle_before: i64,
        keep: usize,
    ) -> Result<(), StoreError>;

    /// The account of a session used since `idle_before`, renewed (its use
    /// set to `now`) when last used before `renew_before`. An older session
    /// is removed and gives `None`.
    ///
    /// # Errors
    /// The storage fails.
    async fn session(
        &self,
        token_hash: &str,
        now: i64,
        idle_before: i64,
        renew_before: i64,
    ) -> Result<Option<Account>, StoreError>;

    /// Ends one session: whether there was one.
    ///
    /// # Errors
    /// The storage fails.
    async fn end_session(&self, token_hash: &str) -> Result<bool, StoreError>;

    /// Ends every session of `account` but the one whose hash is `keep`:
    /// how many ended.
    ///
    /// # Errors
    /// The storage fails.
    async fn end_sessions(&self, account: &str, keep: Option<&str>) -> Result<u64, StoreError>;

    /// The account of this id.
    ///
    /// # Errors
    /// The storage fails.
    async fn by_id(&self, id: &str) -> Result<Option<Account>, StoreError>;

    /// Keeps a device that signed in to `account` (its token's hash), at
    /// `now`; the account's oldest devices beyond `keep` are forgotten.
    ///
    /// # Errors
    /// The storage fails (or the account is gone).
    async fn add_device(&self, token_hash: &str, account: &str, now: i64, keep: usize) -> Result<(), StoreError>;

    /// The account a device signed in to (its token's hash), if it is kept.
    ///
    /// # Errors
    /// The storage fails.
    async fn device(&self, token_hash: &str) -> Result<Option<String>, StoreError>;

    /// Spends one attempt of the budget `key` — `burst` at once, then one
    /// every `every_ms` — and answers `None`; or, the budget spent, leaves
    /// it as it was and answers how many ms until its next attempt. By the
    /// store's clock (the database's, for PostgreSQL: the servers' may
    /// differ), atomically whichever servers spend it at once.
    ///
    /// # Errors
    /// The storage fails.
    async fn spend_attempt(&self, key: &str, every_ms: i64, burst: u32) -> Result<Option<i64>, StoreError>;
}

#[async_trait::async_trait]
pub trait PasskeyRepo: Send + Sync {
    /// Keeps a passkey ceremony begun, unless `room` ceremonies (of any
    /// kind, by anyone) are kept already: whether it was kept. Those expired
    /// before `now` are removed first. Servers sharing the database count
    /// one set.
    ///
    /// # Errors
    /// The storage fails.
    async fn save_challenge(&self, challenge: &PasskeyChallenge, now: i64, room: usize) -> Result<bool, StoreError>;

    /// Takes (removes) the ceremony of this token hash and kind: `None` if
    /// there is none, or it expired before `now`.
    ///
    /// # Errors
    /// The storage fails.
    async fn take_challenge(&self, id_hash: &str, kind: &str, now: i64)
        -> Result<Option<PasskeyChallenge>, StoreError>;

    /// Adds a passkey: false if its credential is stored already or its
    /// account has `max` passkeys.
    ///
    /// # Errors
    /// The storage fails.
    async fn add(&self, passkey: &StoredPasskey, max: usize) -> Result<bool, StoreError>;

    /// An account's passkeys, oldest first.
    ///
    /// # Errors
    /// The storage fails.
    async fn of(&self, account: &str) -> Result<Vec<StoredPasskey>, StoreError>;

    /// The passkey of a credential id and its account.
    ///
    /// # Errors
    /// The storage fails.
    async fn by_credential(&self, credential_id: &str) -> Result<Option<(StoredPasskey, Account)>, StoreError>;

    /// A sign-in with a passkey: its new state (counter) and time of use.
    ///
    /// # Errors
    /// The storage fails.
    async fn used(&self, credential_id: &str, passkey: &str, now: i64) -> Result<bool, StoreError>;

    /// Removes one of an account's passkeys: whether it had it.
    ///
    /// # Errors
    /// The storage fails.
    async fn delete(&self, account: &str, credential_id: &str) -> Result<bool, StoreError>;
}

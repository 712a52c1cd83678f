//! Web Push (services/push/): the VAPID key, browsers' subscriptions
//! (bounded per endpoint, per target and per subscriber), invites taken.

use super::error::StoreError;

pub(crate) mod pg;
pub(crate) mod sqlite;

/// A browser's Web Push subscription, bound to one target: a seat of a
/// game (`seat:<game>:<seat>`) or an account (`account:<id>`)
/// (services/push.rs).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PushSubscription {
    /// The push service's URL for this browser (a secret of the browser's).
    pub endpoint: String,
    /// The browser's P-256 public key, base64url (65 bytes decoded).
    pub p256dh: String,
    /// The browser's authentication secret, base64url (16 bytes decoded).
    pub auth: String,
    /// What it is told about: `seat:<game>:<seat>` or `account:<id>`.
    pub target: String,
    /// The game of a seat's subscription (removed with the game).
    pub game_id: Option<String>,
    /// The account of an account's subscription (removed with the account).
    pub account: Option<String>,
    /// Unix ms.
    pub created_at: i64,
    /// The language its notifications are written in (`en`, `de`, `fr`:
    /// the page's when it subscribed).
    pub lang: String,
    /// Whose share it counts in: `account:<id>` (a signed-in account) or
    /// `addr:<address>` (a client address, an IPv6 one by its prefix); ""
    /// for those kept before subscribers were counted.
    pub owner: String,
}

/// Web Push's tables (the same text for SQLite and PostgreSQL).
pub(crate) const SCHEMA: &str = "CREATE TABLE push_keys (
        id          INTEGER PRIMARY KEY CHECK (id = 1),
        private_key TEXT NOT NULL,     -- VAPID: a P-256 private key, base64url
        created_at  BIGINT NOT NULL    -- Unix ms
    );
    CREATE TABLE push_subscriptions (
        endpoint    TEXT NOT NULL,     -- the push service's URL for one browser
        target      TEXT NOT NULL,     -- 'seat:<game>:<seat>' or 'account:<id>'
        p256dh      TEXT NOT NULL,     -- the browser's public key, base64url
        auth        TEXT NOT NULL,     -- the browser's auth secret, base64url
        game_id     TEXT REFERENCES games(id) ON DELETE CASCADE,
        account     TEXT REFERENCES accounts(id) ON DELETE CASCADE,
        created_at  BIGINT NOT NULL,   -- Unix ms
        PRIMARY KEY (endpoint, target)
    );
    CREATE INDEX push_by_target ON push_subscriptions (target);
    CREATE TABLE push_invites (
        game_id     TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        seat        INTEGER NOT NULL,
        PRIMARY KEY (game_id, seat)
    );";

/// The columns a [`PushSubscription`] is read from, in its fields' order.
pub(crate) const COLUMNS: &str = "endpoint, p256dh, auth, target, game_id, account, created_at, lang, owner";

/// The language of each push subscription's notifications (SQLite and
/// PostgreSQL alike; the subscriptions made before it are English's).
pub(crate) const LANG_SCHEMA: &str = "ALTER TABLE push_subscriptions ADD COLUMN lang TEXT NOT NULL DEFAULT 'en';";

/// Whose share each push subscription counts in (SQLite and PostgreSQL
/// alike; those made before count in nobody's).
pub(crate) const OWNER_SCHEMA: &str = "ALTER TABLE push_subscriptions ADD COLUMN owner TEXT NOT NULL DEFAULT '';
    CREATE INDEX push_by_owner ON push_subscriptions (owner);";

#[async_trait::async_trait]
pub trait PushRepo: Send + Sync {
    /// The storage's VAPID private key (base64url): `candidate` is kept if
    /// none is yet, so that every server sharing the storage signs with one key.
    ///
    /// # Errors
    /// The storage fails.
    async fn vapid_key(&self, candidate: &str, now: i64) -> Result<String, StoreError>;

    /// Keeps subscriptions, all or none (those whose endpoint and target
    /// are kept already have their keys and language renewed, and stay in
    /// the share they counted in): false, and nothing kept or renewed, when
    /// a new one would give its endpoint more than `per_endpoint` targets,
    /// its target more than `per_target` endpoints or its owner more than
    /// `per_owner` subscriptions. Servers subscribing at once stay within
    /// the bounds.
    ///
    /// # Errors
    /// The storage fails (or a game or account is gone): nothing kept.
    async fn subscribe(
        &self,
        subs: &[PushSubscription],
        per_endpoint: usize,
        per_target: usize,
        per_owner: usize,
    ) -> Result<bool, StoreError>;

    /// Removes an endpoint's subscription to `target` (to every target when
    /// `None`): how many went.
    ///
    /// # Errors
    /// The storage fails.
    async fn unsubscribe(&self, endpoint: &str, target: Option<&str>) -> Result<u64, StoreError>;

    /// Removes the subscriptions to game `game`'s seats (it ended): how
    /// many went.
    ///
    /// # Errors
    /// The storage fails.
    async fn forget_game(&self, game: &str) -> Result<u64, StoreError>;

    /// The subscriptions to `target`.
    ///
    /// # Errors
    /// The storage fails.
    async fn subscriptions(&self, target: &str) -> Result<Vec<PushSubscription>, StoreError>;

    /// Marks invited seat `seat` of game `game` as taken: true the first
    /// time only (whichever server asks), so that its creator is told once.
    ///
    /// # Errors
    /// The storage fails (or the game is gone).
    async fn invite_taken(&self, game: &str, seat: u8) -> Result<bool, StoreError>;
}

//! Moderation (docs/web.md, *Blocking and reporting*): the accounts each
//! account blocks, the reports players make of a name or a chat line, and
//! the operator's sanctions (a mute until a time, an account closed).

use super::error::StoreError;

pub(crate) mod pg;
pub(crate) mod sqlite;

/// Migration 22's tables, the same in SQLite and PostgreSQL but for the
/// reports' numbering (`$ID`), and the chat line's author account.
macro_rules! moderation_schema {
    ($id:literal) => {
        concat!(
            "CREATE TABLE blocks (
                account     TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,  -- who blocks
                blocked     TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,  -- whom
                created_at  BIGINT NOT NULL,                                         -- Unix ms
                PRIMARY KEY (account, blocked)
            );
            CREATE INDEX blocks_by_blocked ON blocks (blocked);
            CREATE TABLE reports (
                id          ",
            $id,
            ",
                reporter    TEXT NOT NULL,    -- an account's id, or `seat:GAME:N` for a guest's seat
                thing       TEXT NOT NULL,    -- `name:ACCOUNT` or `chat:GAME:SEQ`: one report of it per reporter
                target      TEXT,             -- the account reported (none: a guest's chat line)
                target_name TEXT NOT NULL,    -- the name reported, as it was shown then
                game        TEXT,             -- a chat line's game
                seq         BIGINT,           -- and its number
                text        TEXT,             -- the line's text, copied (the chat may go)
                reason      TEXT NOT NULL,    -- offensive_name | abusive_chat | cheating | other
                note        TEXT NOT NULL,
                address     TEXT NOT NULL,    -- hash of the reporter's client address
                created_at  BIGINT NOT NULL,  -- Unix ms
                resolved_at BIGINT,           -- Unix ms, once the operator dealt with it
                UNIQUE (reporter, thing)
            );
            CREATE INDEX reports_open ON reports (resolved_at, created_at);
            CREATE INDEX reports_by_target ON reports (target);
            CREATE INDEX reports_by_address ON reports (address, created_at);
            CREATE TABLE sanctions (
                account     TEXT PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
                muted_until BIGINT,           -- Unix ms: no chat before
                closed_at   BIGINT            -- Unix ms: the account was closed
            );
            ALTER TABLE chat_messages ADD COLUMN author_account TEXT;"
        )
    };
}

/// SQLite's migration 22.
pub(crate) const SQLITE_SCHEMA: &str = moderation_schema!("INTEGER PRIMARY KEY");
/// PostgreSQL's migration 22.
pub(crate) const PG_SCHEMA: &str = moderation_schema!("BIGSERIAL PRIMARY KEY");

/// What a block came to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Blocked {
    /// Added now.
    Added,
    /// It was blocked already (nothing changed).
    Already,
    /// The account blocks as many as it may (nothing changed).
    Full,
}

/// An account one blocks: its id, its name now, when.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BlockRow {
    pub account: String,
    pub name: String,
    pub at: i64,
}

/// A report as made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewReport {
    pub reporter: String,
    /// `name:ACCOUNT` or `chat:GAME:SEQ`: one report per reporter and thing.
    pub thing: String,
    pub target: Option<String>,
    pub target_name: String,
    pub game: Option<String>,
    pub seq: Option<u64>,
    pub text: Option<String>,
    pub reason: String,
    pub note: String,
    /// Hash of the reporter's client address.
    pub address: String,
    pub at: i64,
}

/// What a report came to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reported {
    /// Stored, under this number.
    Added(i64),
    /// This reporter reported this thing already (nothing changed).
    Already,
    /// The reporter (or their address) has as many open reports as they may,
    /// or the server as many in all (nothing changed).
    Full,
}

/// The bounds a new report is kept within.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReportBounds {
    /// Open reports of one reporter.
    pub per_reporter: usize,
    /// Open reports from one address.
    pub per_address: usize,
    /// Open reports in all.
    pub total: usize,
}

/// A report as the operator reads it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    pub id: i64,
    pub reporter: String,
    /// The reporter's account's name now (none: a guest's seat, or gone).
    pub reporter_name: Option<String>,
    pub thing: String,
    pub target: Option<String>,
    /// The name reported, as shown then.
    pub target_name: String,
    /// The reported account's name now (it may have been renamed).
    pub target_now: Option<String>,
    pub game: Option<String>,
    pub seq: Option<u64>,
    pub text: Option<String>,
    pub reason: String,
    pub note: String,
    pub at: i64,
    pub resolved_at: Option<i64>,
    /// Open reports against the same account (this one included).
    pub against: u64,
    /// The reported account's sanctions now.
    pub sanctions: Sanctions,
}

/// An account's sanctions.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Sanctions {
    /// No chat before this (Unix ms).
    pub muted_until: Option<i64>,
    /// The account was closed then (Unix ms).
    pub closed_at: Option<i64>,
}

/// The columns a [`Report`] is read from (with `r` the reports, `ra` the
/// reporter's account, `ta` the target's and `ts` its sanctions), then the
/// open reports against its target, then its sanctions.
pub(crate) const REPORT_COLUMNS: &str = "r.id, r.reporter, ra.name, r.thing, r.target, r.target_name, ta.name, \
     r.game, r.seq, r.text, r.reason, r.note, r.created_at, r.resolved_at, \
     (SELECT COUNT(*) FROM reports o WHERE o.target = r.target AND o.resolved_at IS NULL), \
     ts.muted_until, ts.closed_at";

/// The reports, newest first (the open ones only, or all), at most the
/// number the placeholder `limit` holds.
pub(crate) fn reports_sql(open_only: bool, limit: &str) -> String {
    let open = if open_only { "WHERE r.resolved_at IS NULL" } else { "" };
    format!(
        "SELECT {REPORT_COLUMNS} FROM reports r
         LEFT JOIN accounts ra ON ra.id = r.reporter LEFT JOIN accounts ta ON ta.id = r.target
         LEFT JOIN sanctions ts ON ts.account = r.target
         {open} ORDER BY r.created_at DESC, r.id DESC LIMIT {limit}"
    )
}

/// Keeps a report unless its reporter, its address or the server holds as
/// many open ones as they may (`$12`, `$13`, `$14`), or the reporter
/// reported the thing already (the unique key).
pub(crate) const ADD_REPORT: &str = "INSERT INTO reports
     (reporter, thing, target, target_name, game, seq, text, reason, note, address, created_at)
     SELECT CAST($1 AS TEXT), CAST($2 AS TEXT), CAST($3 AS TEXT), CAST($4 AS TEXT), CAST($5 AS TEXT),
            CAST($6 AS BIGINT), CAST($7 AS TEXT), CAST($8 AS TEXT), CAST($9 AS TEXT), CAST($10 AS TEXT),
            CAST($11 AS BIGINT)
     WHERE (SELECT COUNT(*) FROM reports WHERE reporter = $1 AND resolved_at IS NULL) < CAST($12 AS BIGINT)
       AND (SELECT COUNT(*) FROM reports WHERE address = $10 AND resolved_at IS NULL) < CAST($13 AS BIGINT)
       AND (SELECT COUNT(*) FROM reports WHERE resolved_at IS NULL) < CAST($14 AS BIGINT)
     ON CONFLICT (reporter, thing) DO NOTHING
     RETURNING id";

/// Adds a block unless the account blocks `$4` already.
pub(crate) const ADD_BLOCK: &str = "INSERT INTO blocks (account, blocked, created_at)
     SELECT CAST($1 AS TEXT), CAST($2 AS TEXT), CAST($3 AS BIGINT)
     WHERE (SELECT COUNT(*) FROM blocks WHERE account = $1) < CAST($4 AS BIGINT)
     ON CONFLICT (account, blocked) DO NOTHING";

#[async_trait::async_trait]
pub trait ModerationRepo: Send + Sync {
    /// `account` blocks `blocked`, at `at`, unless it blocks `max` already.
    ///
    /// # Errors
    /// The storage fails (or either account is gone).
    async fn block(&self, account: &str, blocked: &str, at: i64, max: usize) -> Result<Blocked, StoreError>;

    /// `account` no longer blocks `blocked`: whether it did.
    ///
    /// # Errors
    /// The storage fails.
    async fn unblock(&self, account: &str, blocked: &str) -> Result<bool, StoreError>;

    /// The accounts `account` blocks, the latest first.
    ///
    /// # Errors
    /// The storage fails.
    async fn blocks(&self, account: &str) -> Result<Vec<BlockRow>, StoreError>;

    /// The accounts `account` blocks or is blocked by (ids, each once).
    ///
    /// # Errors
    /// The storage fails.
    async fn either_way(&self, account: &str) -> Result<Vec<String>, StoreError>;

    /// Keeps a report within `bounds` (open reports; a reporter's one
    /// report of a thing, open or not).
    ///
    /// # Errors
    /// The storage fails.
    async fn report(&self, report: &NewReport, bounds: &ReportBounds) -> Result<Reported, StoreError>;

    /// The reports, newest first: the open ones only, or all; `limit` at most.
    ///
    /// # Errors
    /// The storage fails.
    async fn reports(&self, open_only: bool, limit: usize) -> Result<Vec<Report>, StoreError>;

    /// Report `id` dealt with, at `at`: whether it was open.
    ///
    /// # Errors
    /// The storage fails.
    async fn resolve(&self, id: i64, at: i64) -> Result<bool, StoreError>;

    /// An account's sanctions (none: the default).
    ///
    /// # Errors
    /// The storage fails.
    async fn sanctions(&self, account: &str) -> Result<Sanctions, StoreError>;

    /// Mutes an account until `until` (Unix ms; a time past lifts the mute).
    ///
    /// # Errors
    /// The storage fails (or the account is gone).
    async fn mute(&self, account: &str, until: i64) -> Result<(), StoreError>;

    /// Closes an account at `at` and ends every session of it, at once:
    /// whether it was open.
    ///
    /// # Errors
    /// The storage fails (or the account is gone).
    async fn close(&self, account: &str, at: i64) -> Result<bool, StoreError>;
}

//! A storage failure, whichever repository and backend it comes from.

use std::fmt;

/// A storage failure. Its text is for the server's log, not for players.
#[derive(Debug)]
pub enum StoreError {
    /// Someone else stored that move first (another server sharing the
    /// storage): the game has moved on and should be reloaded.
    Conflict(String),
    /// The storage failed or holds something unreadable.
    Failed(String),
}

impl StoreError {
    pub fn failed(why: impl Into<String>) -> StoreError {
        StoreError::Failed(why.into())
    }

    pub fn message(&self) -> &str {
        match self {
            StoreError::Conflict(m) | StoreError::Failed(m) => m,
        }
    }
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StoreError::Conflict(m) => write!(f, "storage conflict: {m}"),
            StoreError::Failed(m) => write!(f, "storage: {m}"),
        }
    }
}

impl std::error::Error for StoreError {}

impl From<rusqlite::Error> for StoreError {
    fn from(e: rusqlite::Error) -> Self {
        StoreError::Failed(e.to_string())
    }
}

impl From<serde_json::Error> for StoreError {
    fn from(e: serde_json::Error) -> Self {
        StoreError::Failed(e.to_string())
    }
}

impl From<tokio_postgres::Error> for StoreError {
    fn from(e: tokio_postgres::Error) -> Self {
        StoreError::Failed(format!("PostgreSQL: {}", describe(&e)))
    }
}

/// A PostgreSQL error with its causes (its own text names only the kind).
pub(crate) fn describe(e: &tokio_postgres::Error) -> String {
    let mut s = e.to_string();
    let mut cause = std::error::Error::source(e);
    while let Some(c) = cause {
        s.push_str(": ");
        s.push_str(&c.to_string());
        cause = c.source();
    }
    s
}

/// Whether `e` is a unique-key violation (an id taken, a move stored twice).
pub(crate) fn is_unique_violation(e: &tokio_postgres::Error) -> bool {
    e.code() == Some(&tokio_postgres::error::SqlState::UNIQUE_VIOLATION)
}

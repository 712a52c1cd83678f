//! A PostgreSQL server for the tests that need one: its URL from
//! `CARCASSONNE_TEST_POSTGRES` (`eval "$(bash .ci/postgres start)"` starts
//! one), and a schema of its own per test.

use std::sync::atomic::{AtomicU32, Ordering};

use carcassonne_server::Store;

/// The test server's URL, or `None` (the test then passes without running).
pub fn server_url() -> Option<String> {
    match std::env::var("CARCASSONNE_TEST_POSTGRES") {
        Ok(url) if !url.trim().is_empty() => Some(url.trim().to_string()),
        _ if std::env::var_os("CI").is_some() => panic!(
            "CARCASSONNE_TEST_POSTGRES is not set, and CI is: the PostgreSQL tests must run in CI \
             (eval \"$(bash .ci/postgres start)\" starts a server)"
        ),
        _ => {
            eprintln!(
                "note: CARCASSONNE_TEST_POSTGRES is not set, so the PostgreSQL tests do not run \
                 (eval \"$(bash .ci/postgres start)\" starts a server)"
            );
            None
        }
    }
}

/// Runs `f` with a connection of its own on a plain thread (a
/// `postgres::Client` must not be used or dropped on an async thread).
pub fn with_client<T: Send + 'static>(
    url: &str,
    f: impl FnOnce(&mut postgres::Client) -> Result<T, postgres::Error> + Send + 'static,
) -> Result<T, postgres::Error> {
    let url = url.to_string();
    std::thread::spawn(move || {
        let mut client = postgres::Client::connect(&url, postgres::NoTls)?;
        f(&mut client)
    })
    .join()
    .expect("the database thread")
}

/// Runs `sql` and returns its rows as text.
pub fn rows(url: &str, sql: &str) -> Vec<Vec<Option<String>>> {
    let owned = sql.to_string();
    with_client(url, move |c| {
        Ok(c.simple_query(&owned)?
            .into_iter()
            .filter_map(|m| match m {
                postgres::SimpleQueryMessage::Row(r) => {
                    Some((0..r.len()).map(|i| r.get(i).map(str::to_string)).collect())
                }
                _ => None,
            })
            .collect())
    })
    .unwrap_or_else(|e| panic!("{sql}: {e}"))
}

/// The first column of the first row of `sql`.
pub fn one(url: &str, sql: &str) -> String {
    rows(url, sql).first().and_then(|r| r.first().cloned().flatten()).unwrap_or_default()
}

/// A schema of its own for one test, dropped with everything in it at the end.
pub struct Schema {
    pub server: String,
    pub name: String,
}

impl Schema {
    pub fn new(server: &str) -> Schema {
        static N: AtomicU32 = AtomicU32::new(0);
        let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().subsec_nanos();
        let name = format!("test_{}_{}_{nanos}", std::process::id(), N.fetch_add(1, Ordering::Relaxed));
        let sql = format!("CREATE SCHEMA {name}");
        with_client(server, move |c| c.batch_execute(&sql)).expect("a fresh schema");
        Schema { server: server.to_string(), name }
    }

    /// The server's URL with this schema first on the search path, and this
    /// schema's name as the connections' application name.
    pub fn url(&self) -> String {
        let sep = if self.server.contains('?') { '&' } else { '?' };
        format!("{}{sep}options=-c%20search_path%3D{}&application_name={}", self.server, self.name, self.name)
    }

    pub async fn open(&self) -> Store {
        Store::postgres(&self.url()).await.unwrap_or_else(|e| panic!("{e}"))
    }

    /// Runs `sql` in this schema.
    pub fn rows(&self, sql: &str) -> Vec<Vec<Option<String>>> {
        rows(&self.url(), sql)
    }

    pub fn one(&self, sql: &str) -> String {
        one(&self.url(), sql)
    }
}

impl Drop for Schema {
    fn drop(&mut self) {
        let sql = format!("DROP SCHEMA IF EXISTS {} CASCADE", self.name);
        let _ = with_client(&self.server, move |c| c.batch_execute(&sql));
    }
}

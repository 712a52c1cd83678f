//! The storage's conformance suite: what each repository must do (the
//! trait docs in src/store/*/mod.rs), written once and run against every
//! backend, so that SQLite and PostgreSQL are shown to behave alike.
//!
//! Each test is an `async fn name(given)` in the module of its domain;
//! [`conformance!`] runs it three times:
//!
//! - `DOMAIN::sqlite::name`: SQLite in memory;
//! - `DOMAIN::sqlite_file::name`: a SQLite file (its write-ahead log, and
//!   reads on a connection of their own);
//! - `DOMAIN::postgres::name`: PostgreSQL, in a fresh schema of its own
//!   (`CARCASSONNE_TEST_POSTGRES`; without it these pass without running,
//!   unless `CI` is set).
//!
//! A test is given a [`Store`], or `[Store; 2]`: two servers on one
//! database. With PostgreSQL those are two stores of their own (their own
//! connections, their own names among the servers); SQLite is one server per
//! file, so there both are the one store and a race is between tasks on it.
//! Where the backends promise different things by nature (the cluster: with
//! SQLite no feed, every lease its own), the test says which it checks.

/// Runs each of a domain's tests on every backend (see the top of this
/// file). A test may name a backend that breaks its contract today, and
/// why: `name (postgres: "why")`, `name (sqlite: "why")` (both SQLite
/// runs). Its run there is ignored (a bug to fix in src/store, not in the
/// test); `cargo test --test store -- --ignored` shows it failing.
macro_rules! conformance {
    ($($test:ident $((sqlite: $sqlite:literal))? $((postgres: $postgres:literal))?),* $(,)?) => {
        mod sqlite {
            $($(#[ignore = $sqlite])?
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn $test() { crate::run(crate::Backend::Memory, super::$test).await })*
        }
        mod sqlite_file {
            $($(#[ignore = $sqlite])?
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn $test() { crate::run(crate::Backend::File, super::$test).await })*
        }
        mod postgres {
            $($(#[ignore = $postgres])?
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn $test() { crate::run(crate::Backend::Postgres, super::$test).await })*
        }
    };
}

#[path = "../common/mod.rs"]
mod common;

mod accounts;
mod chat;
mod clocks;
mod cluster;
mod games;
mod lobby;
mod moderation;
mod push;
mod ratings;
mod reviews;
mod rule_sets;
mod takebacks;

use std::future::Future;
use std::sync::Arc;

use carcassonne::record::{Record, RecordMove};
use carcassonne_server::{hash_token, BotLevel, NewGame, Progress, Seat, Store};
use common::pg::{server_url, Schema};
use common::TempDb;
use tokio::sync::Barrier;

pub use common::accounts::{account, passkey};

/// Where a test runs.
#[derive(Clone, Copy)]
enum Backend {
    Memory,
    File,
    Postgres,
}

/// One database for one test, gone at its end.
enum Db {
    /// The file, if any, is removed at the end.
    Sqlite {
        store: Store,
        _file: Option<TempDb>,
    },
    Postgres(Schema),
}

impl Db {
    /// `None`: a PostgreSQL test without a server to run on.
    fn open(backend: Backend) -> Option<Db> {
        Some(match backend {
            Backend::Memory => Db::Sqlite { store: Store::in_memory().unwrap(), _file: None },
            Backend::File => {
                let file = TempDb::new("conformance");
                Db::Sqlite { store: Store::sqlite(&file.0).unwrap(), _file: Some(file) }
            }
            Backend::Postgres => Db::Postgres(Schema::new(&server_url()?)),
        })
    }

    /// A server's store on this database: with PostgreSQL, a new one each
    /// time; with SQLite, the one store of the one server.
    async fn server(&self) -> Store {
        match self {
            Db::Sqlite { store, .. } => store.clone(),
            Db::Postgres(schema) => schema.open().await,
        }
    }
}

/// What a test is given.
trait Given: Sized {
    async fn given(db: &Db) -> Self;
}

impl Given for Store {
    async fn given(db: &Db) -> Self {
        db.server().await
    }
}

/// Two servers on one database, each with connections open for a race
/// (one opened on the way would hold its task back).
impl Given for [Store; 2] {
    async fn given(db: &Db) -> Self {
        let servers = [db.server().await, db.server().await];
        let connect = servers.iter().flat_map(|s| (0..4).map(|_| s.cluster.health()));
        for answer in futures_util::future::join_all(connect).await {
            answer.unwrap();
        }
        servers
    }
}

async fn run<G: Given, F: Future<Output = ()>>(backend: Backend, test: impl FnOnce(G) -> F) {
    let Some(db) = Db::open(backend) else { return };
    test(G::given(&db).await).await;
}

// ---------------------------------------------------------------- fixtures

/// A game of Ada (holding the token `t0`) and a bot, not begun, created at 1.
pub fn new_game(id: &str) -> NewGame {
    with_seats(
        id,
        vec![
            Seat::Human { name: "Ada".into(), token_hash: hash_token("t0"), remote: false, account: None },
            Seat::Bot { name: "Bot".into(), level: BotLevel::Random },
        ],
    )
}

/// A game of these seats, not begun, created at 1.
pub fn with_seats(id: &str, seats: Vec<Seat>) -> NewGame {
    let players: Vec<&str> = seats.iter().map(Seat::name).collect();
    let record = Record::from_json(
        &serde_json::json!({ "format": 1, "rules": { "preset": "standard" }, "players": players, "deck": ["E", "V"] })
            .to_string(),
    )
    .unwrap();
    NewGame {
        id: id.into(),
        record,
        live_seed: Some(u64::MAX - 5),
        seats,
        created_at: 1,
        public: false,
        clock: None,
        deadline: None,
        owner: None,
    }
}

/// A person's seat, held by `token`.
pub fn human(name: &str, token: &str) -> Seat {
    Seat::Human { name: name.into(), token_hash: hash_token(token), remote: true, account: None }
}

pub fn a_move() -> RecordMove {
    RecordMove {
        tile: "E".into(),
        at: [0, -1],
        rot: 2,
        meeple: Some("S".into()),
        abbot: None,
        recall: None,
        ..Default::default()
    }
}

/// The progress of a game in play after a move at `at`, the bot to move.
pub fn progress(at: i64) -> Progress {
    Progress {
        finished: false,
        scores: vec![4, 0],
        to_move: Some(1),
        winners: vec![],
        at,
        bot_turn: true,
        aborted: false,
    }
}

/// The progress of a game that finished at `at` with these scores.
pub fn finished(at: i64, scores: Vec<u32>) -> Progress {
    Progress { finished: true, scores, to_move: None, winners: vec![0], at, bot_turn: false, aborted: false }
}

/// Runs `n` tasks that wait for each other, then each do `f(i, store)` with
/// the stores taken in turn: the outcomes, in the tasks' order.
pub async fn race<T, F>(stores: &[Store], n: usize, f: impl Fn(usize, Store) -> F) -> Vec<T>
where
    T: Send + 'static,
    F: Future<Output = T> + Send + 'static,
{
    let start = Arc::new(Barrier::new(n));
    let tasks: Vec<_> = (0..n)
        .map(|i| {
            let (start, work) = (Arc::clone(&start), f(i, stores[i % stores.len()].clone()));
            tokio::spawn(async move {
                start.wait().await;
                work.await
            })
        })
        .collect();
    let mut out = Vec::with_capacity(n);
    for t in tasks {
        out.push(t.await.unwrap());
    }
    out
}

/// How many of `outcomes` are `true`.
pub fn wins(outcomes: &[bool]) -> usize {
    outcomes.iter().filter(|w| **w).count()
}

/// The ids of a list, in its order.
pub fn ids<T>(list: &[T], id: impl Fn(&T) -> &str) -> Vec<String> {
    list.iter().map(|x| id(x).to_string()).collect()
}

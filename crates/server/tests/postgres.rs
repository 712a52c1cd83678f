//! The PostgreSQL store against a real server: the storage contract, the
//! change feed, migrations racing, and two servers sharing one database.
//!
//! The server's URL comes from `CARCASSONNE_TEST_POSTGRES`
//! (`eval "$(bash .ci/postgres start)"` starts one). Without it the tests fail
//! when `CI` is set, and otherwise say so and pass. Each test works in a
//! fresh schema of its own, dropped at its end.

mod common;

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Barrier};
use std::time::{Duration, Instant};

use axum::http::StatusCode;
use axum::Router;
use carcassonne::record::{Record, RecordMove};
use carcassonne_server::{
    hash_token, rebuild, serve_on, AppState, BotLevel, Feed, GameChanged, GameSummary, NewGame, PgStore, Progress,
    SavedRules, Seat, Store, StoreError, StoredGame,
};
use common::{call, create, post_move, state, two_humans, with_store};
use futures_util::StreamExt;
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::Message;

/// The test server's URL, or `None` (the test then passes without running).
fn server_url() -> Option<String> {
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

/// The test server's URL, or the end of the test.
macro_rules! server {
    () => {
        match server_url() {
            Some(url) => url,
            None => return,
        }
    };
}

/// Runs `f` with a connection of its own on a plain thread (a
/// `postgres::Client` must not be used or dropped on an async thread).
fn with_client<T: Send + 'static>(
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
fn rows(url: &str, sql: &str) -> Vec<Vec<Option<String>>> {
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
fn one(url: &str, sql: &str) -> String {
    rows(url, sql).first().and_then(|r| r.first().cloned().flatten()).unwrap_or_default()
}

/// A schema of its own for one test, dropped with everything in it at the end.
struct Schema {
    server: String,
    name: String,
}

impl Schema {
    fn new(server: &str) -> Schema {
        static N: AtomicU32 = AtomicU32::new(0);
        let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().subsec_nanos();
        let name = format!("test_{}_{}_{nanos}", std::process::id(), N.fetch_add(1, Ordering::Relaxed));
        let sql = format!("CREATE SCHEMA {name}");
        with_client(server, move |c| c.batch_execute(&sql)).expect("a fresh schema");
        Schema { server: server.to_string(), name }
    }

    /// The server's URL with this schema first on the search path, and this
    /// schema's name as the connections' application name.
    fn url(&self) -> String {
        let sep = if self.server.contains('?') { '&' } else { '?' };
        format!("{}{sep}options=-c%20search_path%3D{}&application_name={}", self.server, self.name, self.name)
    }

    fn open(&self) -> PgStore {
        PgStore::open(&self.url()).unwrap_or_else(|e| panic!("{e}"))
    }

    /// Runs `sql` in this schema.
    fn rows(&self, sql: &str) -> Vec<Vec<Option<String>>> {
        rows(&self.url(), sql)
    }

    fn one(&self, sql: &str) -> String {
        one(&self.url(), sql)
    }
}

impl Drop for Schema {
    fn drop(&mut self) {
        let sql = format!("DROP SCHEMA IF EXISTS {} CASCADE", self.name);
        let _ = with_client(&self.server, move |c| c.batch_execute(&sql));
    }
}

fn new_game(id: &str) -> NewGame {
    let record = Record::from_json(
        r#"{ "format": 1, "rules": { "preset": "standard" }, "players": ["Ada", "Bot"], "deck": ["E", "V"] }"#,
    )
    .unwrap();
    NewGame {
        id: id.into(),
        record,
        live_seed: Some(u64::MAX - 5),
        seats: vec![
            Seat::Human { name: "Ada".into(), token_hash: hash_token("t0-secret"), remote: true },
            Seat::Bot { name: "Bot".into(), level: BotLevel::Random },
        ],
        created_at: 1,
        public: false,
    }
}

fn a_move() -> RecordMove {
    RecordMove { tile: "E".into(), at: [0, -1], rot: 2, meeple: Some("S".into()), abbot: None, recall: None }
}

fn progress(at: i64, finished: bool) -> Progress {
    Progress { finished, scores: vec![4, 0], to_move: (!finished).then_some(1), winners: vec![], at }
}

fn load(store: &PgStore, id: &str) -> StoredGame {
    store.load(id).unwrap().unwrap_or_else(|| panic!("no game {id}"))
}

// ---------------------------------------------------------------- the contract

#[test]
fn the_games_list_holds_the_named_games_and_the_public_ones() {
    let server = server!();
    let schema = Schema::new(&server);
    let store = schema.open();
    store.create_game(&new_game("mine")).unwrap();
    store.create_game(&new_game("theirs")).unwrap();
    store.create_game(&NewGame { public: true, ..new_game("open") }).unwrap();
    let ids = |list: Vec<GameSummary>| {
        let mut v: Vec<String> = list.into_iter().map(|g| g.id).collect();
        v.sort();
        v
    };
    assert_eq!(ids(store.listed(&[], 10).unwrap()), vec!["open"]);
    assert_eq!(ids(store.listed(&["mine".into(), "nope".into()], 10).unwrap()), vec!["mine", "open"]);
    assert!(store.listed(&[], 10).unwrap()[0].public);
}

#[test]
fn saved_rule_sets_belong_to_their_owner_and_stay_bounded_under_racing_saves() {
    let server = server!();
    let schema = Schema::new(&server);
    let store = Arc::new(schema.open());
    let set = |id: &str, at: i64| SavedRules {
        id: id.into(),
        name: format!("set {id}"),
        code: "AQAAAQAA".into(),
        created_at: at,
    };
    assert!(store.save_rules("ann", &set("a", 2), 3).unwrap());
    assert!(store.save_rules("ann", &set("b", 1), 3).unwrap());
    assert!(store.save_rules("bob", &set("d", 3), 3).unwrap());
    let ids = |owner: &str| store.saved_rules(owner).unwrap().into_iter().map(|s| s.id).collect::<Vec<_>>();
    assert_eq!(ids("ann"), ["b", "a"]);
    assert!(!store.rename_rules("bob", "a", "mine now").unwrap(), "only the owner renames");
    assert!(store.rename_rules("ann", "a", "Our table").unwrap());
    assert_eq!(store.saved_rules("ann").unwrap()[1].name, "Our table");
    assert!(!store.delete_rules("bob", "a").unwrap(), "only the owner deletes");
    assert!(store.delete_rules("ann", "a").unwrap());
    assert_eq!(ids("ann"), ["b"]);
    // Eight saves at once for one owner with room for two more: two are kept.
    let start = Arc::new(Barrier::new(8));
    let saved: usize = (0..8)
        .map(|i| {
            let (store, start) = (Arc::clone(&store), Arc::clone(&start));
            std::thread::spawn(move || {
                start.wait();
                store.save_rules("ann", &set(&format!("r{i}"), 10 + i), 3).unwrap()
            })
        })
        .collect::<Vec<_>>()
        .into_iter()
        .map(|t| usize::from(t.join().unwrap()))
        .sum();
    assert_eq!(saved, 2);
    assert_eq!(ids("ann").len(), 3);
    assert_eq!(ids("bob"), ["d"]);
}

#[test]
fn only_unfinished_games_without_a_recent_move_expire() {
    let server = server!();
    let schema = Schema::new(&server);
    let store = schema.open();
    for id in ["old", "done", "recent"] {
        store.create_game(&new_game(id)).unwrap();
    }
    store.append_move("old", 0, &a_move(), &progress(10, false)).unwrap();
    store.append_move("done", 0, &a_move(), &progress(10, true)).unwrap();
    store.append_move("recent", 0, &a_move(), &progress(100, false)).unwrap();
    assert_eq!(store.expire(50).unwrap(), vec!["old".to_string()]);
    assert!(store.load("old").unwrap().is_none());
    assert!(store.load("done").unwrap().is_some(), "a finished game stays");
    assert!(store.load("recent").unwrap().is_some());
    assert_eq!(schema.one("SELECT count(*) FROM moves"), "2", "the expired game's moves went with it");
}

#[test]
fn a_game_round_trips_with_its_moves_in_order() {
    let server = server!();
    let schema = Schema::new(&server);
    let store = schema.open();
    store.create_game(&new_game("g1")).unwrap();
    let m0 = a_move();
    store.append_move("g1", 0, &m0, &progress(5, false)).unwrap();
    let g = load(&store, "g1");
    assert_eq!(g.record.moves, vec![m0]);
    assert_eq!(g.record.players, vec!["Ada".to_string(), "Bot".to_string()]);
    assert_eq!(g.record.deck.as_deref(), Some(&["E".to_string(), "V".to_string()][..]));
    assert_eq!(g.seats, new_game("g1").seats);
    assert_eq!((g.created_at, g.updated_at), (1, 5));
    assert_eq!(g.live_seed, Some(u64::MAX - 5), "a seed keeps all 64 bits");
    let list: Vec<GameSummary> = store.list(10).unwrap();
    assert_eq!(list.len(), 1);
    assert_eq!(list[0].moves, 1);
    assert_eq!(list[0].progress, progress(5, false));
    assert_eq!(list[0].rules.get("preset"), Some(&json!("standard")));
    assert!(store.load("nope").unwrap().is_none());
}

#[test]
fn the_list_is_newest_first_and_limited() {
    let server = server!();
    let schema = Schema::new(&server);
    let store = schema.open();
    for (i, id) in ["a", "b", "c"].iter().enumerate() {
        let mut g = new_game(id);
        g.created_at = i as i64 + 1;
        store.create_game(&g).unwrap();
    }
    store.append_move("a", 0, &a_move(), &progress(100, false)).unwrap();
    let ids: Vec<String> = store.list(2).unwrap().into_iter().map(|g| g.id).collect();
    assert_eq!(ids, vec!["a".to_string(), "c".to_string()]);
}

#[test]
fn a_move_out_of_sequence_or_for_no_game_is_refused() {
    let server = server!();
    let schema = Schema::new(&server);
    let store = schema.open();
    store.create_game(&new_game("g1")).unwrap();
    let m = a_move();
    assert!(matches!(store.append_move("g1", 1, &m, &progress(2, false)), Err(StoreError::Conflict(_))));
    store.append_move("g1", 0, &m, &progress(2, false)).unwrap();
    let Err(StoreError::Conflict(why)) = store.append_move("g1", 0, &m, &progress(3, false)) else {
        panic!("a second writer of move 0 was not a conflict")
    };
    assert!(why.contains("1 moves stored"), "{why}");
    assert!(matches!(store.append_move("nope", 0, &m, &progress(3, false)), Err(StoreError::Failed(_))));
    assert_eq!(load(&store, "g1").record.moves.len(), 1);
    assert_eq!(schema.one("SELECT count(*) FROM moves"), "1");
}

#[test]
fn of_many_writers_racing_for_one_move_exactly_one_wins() {
    let server = server!();
    let schema = Schema::new(&server);
    let stores: Vec<Arc<PgStore>> = (0..2).map(|_| Arc::new(schema.open())).collect();
    stores[0].create_game(&new_game("g1")).unwrap();
    for ply in 0..3usize {
        let writers = 6;
        let barrier = Arc::new(Barrier::new(writers));
        let handles: Vec<_> = (0..writers)
            .map(|w| {
                let store = Arc::clone(&stores[w % 2]);
                let barrier = Arc::clone(&barrier);
                std::thread::spawn(move || {
                    let mut m = a_move();
                    m.rot = w as u8 % 4; // each writer's move is its own
                    barrier.wait();
                    store.append_move("g1", ply, &m, &progress(10 + ply as i64, false)).map(|()| m)
                })
            })
            .collect();
        let results: Vec<Result<RecordMove, StoreError>> = handles.into_iter().map(|h| h.join().unwrap()).collect();
        let won: Vec<&RecordMove> = results.iter().filter_map(|r| r.as_ref().ok()).collect();
        assert_eq!(won.len(), 1, "ply {ply}: {results:?}");
        for r in &results {
            if let Err(e) = r {
                assert!(matches!(e, StoreError::Conflict(_)), "ply {ply}: a loser must see a conflict: {e}");
            }
        }
        let stored = load(&stores[1], "g1");
        assert_eq!(stored.record.moves.len(), ply + 1);
        assert_eq!(&stored.record.moves[ply], won[0], "the winner's move is the one stored");
    }
    assert_eq!(schema.one("SELECT moves FROM games WHERE id = 'g1'"), "3");
}

#[test]
fn in_play_lists_only_unfinished_games() {
    let server = server!();
    let schema = Schema::new(&server);
    let store = schema.open();
    store.create_game(&new_game("g1")).unwrap();
    store.create_game(&new_game("g2")).unwrap();
    store.append_move("g2", 0, &a_move(), &progress(9, true)).unwrap();
    let ids: Vec<String> = store.in_play().unwrap().into_iter().map(|g| g.id).collect();
    assert_eq!(ids, vec!["g1".to_string()]);
}

#[test]
fn a_duplicate_id_is_refused() {
    let server = server!();
    let schema = Schema::new(&server);
    let store = schema.open();
    store.create_game(&new_game("g1")).unwrap();
    let Err(e) = store.create_game(&new_game("g1")) else { panic!("a second game g1 was stored") };
    assert!(e.to_string().contains("g1 is taken"), "{e}");
    assert_eq!(schema.one("SELECT count(*) FROM games"), "1");
}

#[test]
fn tokens_are_kept_hashed_and_still_seat_their_holder() {
    let server = server!();
    let schema = Schema::new(&server);
    let store = schema.open();
    store.create_game(&new_game("g1")).unwrap();
    let raw = schema.one("SELECT seats FROM games");
    assert!(!raw.contains("t0-secret"), "{raw}");
    assert!(raw.contains(&hash_token("t0-secret")), "{raw}");
    let seats = load(&store, "g1").seats;
    assert!(seats[0].held_by("t0-secret"));
    assert!(!seats[0].held_by("t1"));
    assert!(!seats[1].held_by("t0-secret"));
}

// ---------------------------------------------------------------- migrations and connecting

#[test]
fn servers_starting_together_migrate_once() {
    let server = server!();
    let schema = Schema::new(&server);
    let url = schema.url();
    let n = 4;
    let barrier = Arc::new(Barrier::new(n));
    let handles: Vec<_> = (0..n)
        .map(|_| {
            let (url, barrier) = (url.clone(), Arc::clone(&barrier));
            std::thread::spawn(move || {
                barrier.wait();
                PgStore::open(&url).map(|_| ())
            })
        })
        .collect();
    for h in handles {
        h.join().unwrap().unwrap_or_else(|e| panic!("a server starting alongside others failed: {e}"));
    }
    assert_eq!(schema.rows("SELECT version FROM schema_version"), vec![vec![Some("3".to_string())]]);
    // And the tables work.
    let store = schema.open();
    store.create_game(&new_game("g1")).unwrap();
    assert_eq!(store.list(5).unwrap().len(), 1);
}

#[test]
fn a_database_from_a_newer_version_is_refused() {
    let server = server!();
    let schema = Schema::new(&server);
    drop(schema.open());
    schema.rows("UPDATE schema_version SET version = 99");
    let Err(e) = PgStore::open(&schema.url()) else { panic!("opened a newer schema") };
    assert!(e.to_string().contains("schema version 99, newer than this program's 3"), "{e}");
}

/// The test server's URL with another password.
fn with_password(server: &str, password: &str) -> String {
    let config: postgres::Config = server.parse().unwrap();
    let host = match &config.get_hosts()[0] {
        postgres::config::Host::Tcp(h) => h.clone(),
        #[allow(unreachable_patterns)]
        other => panic!("a TCP host is needed for this test, not {other:?}"),
    };
    format!(
        "postgres://{}:{password}@{host}:{}/{}",
        config.get_user().unwrap_or("postgres"),
        config.get_ports().first().copied().unwrap_or(5432),
        config.get_dbname().unwrap_or("postgres")
    )
}

#[test]
fn a_wrong_password_or_host_is_a_clear_error_that_hides_the_password() {
    let server = server!();
    let Err(e) = PgStore::open(&with_password(&server, "Wr0ngPassw0rd")) else { panic!("a wrong password opened") };
    let text = e.to_string();
    assert!(text.contains("cannot connect to postgres://"), "{text}");
    assert!(text.contains("password authentication failed"), "{text}");
    assert!(!text.contains("Wr0ngPassw0rd"), "{text}");
    assert!(text.contains(":***@"), "{text}");

    let started = Instant::now();
    let Err(e) = PgStore::open("postgres://ada:Wr0ngPassw0rd@127.0.0.1:1/games") else { panic!("port 1 opened") };
    let text = e.to_string();
    assert!(text.contains("cannot connect to postgres://ada:***@127.0.0.1:1/games"), "{text}");
    assert!(text.contains("error connecting to server"), "{text}");
    assert!(!text.contains("Wr0ngPassw0rd"), "{text}");
    assert!(started.elapsed() < Duration::from_secs(15), "gave up in time");
}

// ---------------------------------------------------------------- the change feed

/// Waits for news of game `id` holding `moves` moves (other tests' news pass by).
fn expect_news(rx: &mut tokio::sync::mpsc::UnboundedReceiver<GameChanged>, id: &str, moves: usize, within: Duration) {
    let end = Instant::now() + within;
    while Instant::now() < end {
        match rx.try_recv() {
            Ok(c) if c.id == id && c.moves == moves => return,
            Ok(_) => {}
            Err(tokio::sync::mpsc::error::TryRecvError::Empty) => std::thread::sleep(Duration::from_millis(20)),
            Err(e) => panic!("the change feed ended: {e}"),
        }
    }
    panic!("no news of {id} at {moves} moves within {within:?}");
}

/// Waits until `sql` returns `want`.
fn wait_until(schema: &Schema, sql: &str, want: &str) {
    let end = Instant::now() + Duration::from_secs(10);
    while schema.one(sql) != want {
        assert!(Instant::now() < end, "{sql} never gave {want}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn a_move_stored_by_one_server_is_announced_to_the_others() {
    let server = server!();
    let schema = Schema::new(&server);
    let (a, b) = (schema.open(), schema.open());
    let mut news = b.changes().expect("PostgreSQL reports changes");
    let listening = format!("SELECT count(*) FROM pg_stat_activity WHERE application_name = '{}:listen'", schema.name);
    wait_until(&schema, &listening, "1");
    a.create_game(&new_game("g1")).unwrap();
    a.append_move("g1", 0, &a_move(), &progress(2, false)).unwrap();
    expect_news(&mut news, "g1", 1, Duration::from_secs(5));
    // A refused move changes nothing; the next stored one is news again.
    assert!(a.append_move("g1", 0, &a_move(), &progress(3, false)).is_err());
    a.append_move("g1", 1, &a_move(), &progress(4, false)).unwrap();
    expect_news(&mut news, "g1", 2, Duration::from_secs(5));
    // The feed ends when nobody reads it.
    drop(news);
    wait_until(&schema, &listening, "0");
}

#[test]
fn moves_stored_before_the_feed_listens_are_announced_too() {
    // A server may load a game before its feed is listening: the feed's
    // first look back covers what was stored since the store was opened.
    let server = server!();
    let schema = Schema::new(&server);
    let (a, b) = (schema.open(), schema.open());
    a.create_game(&new_game("g1")).unwrap();
    a.append_move("g1", 0, &a_move(), &progress(2, false)).unwrap();
    let mut news = b.changes().expect("PostgreSQL reports changes");
    expect_news(&mut news, "g1", 1, Duration::from_secs(5));
}

#[test]
fn the_change_feed_comes_back_after_losing_its_connection() {
    let server = server!();
    let schema = Schema::new(&server);
    let (a, b) = (schema.open(), schema.open());
    assert_eq!(b.feed(), Feed::None, "no feed before it is asked for");
    let mut news = b.changes().expect("PostgreSQL reports changes");
    let listening = format!("SELECT count(*) FROM pg_stat_activity WHERE application_name = '{}:listen'", schema.name);
    wait_until(&schema, &listening, "1");
    let started = Instant::now();
    while b.feed() != Feed::Up {
        assert!(started.elapsed() < Duration::from_secs(10), "the feed never says it listens");
        std::thread::sleep(Duration::from_millis(20));
    }
    b.health().unwrap();
    a.create_game(&new_game("g1")).unwrap();
    for ply in 0..3 {
        // Cut the feed's connection, and store a move at once: whether it
        // comes as a notice or from the look back after reconnecting, it
        // must come.
        let killed = schema.one(&format!(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE application_name = '{}:listen'",
            schema.name
        ));
        assert_eq!(killed, "1", "the feed was connected");
        a.append_move("g1", ply, &a_move(), &progress(ply as i64 + 2, false)).unwrap();
        expect_news(&mut news, "g1", ply + 1, Duration::from_secs(10));
        wait_until(&schema, &listening, "1");
    }
}

// ---------------------------------------------------------------- two servers, one database

/// A server on its own connections to `schema` (bots move at once).
async fn server_on(schema: &Schema) -> (Router, AppState) {
    let url = schema.url();
    let store = tokio::task::spawn_blocking(move || PgStore::open(&url)).await.unwrap().unwrap();
    with_store(Arc::new(store), Duration::ZERO)
}

/// A store that hides its change feed: a server that never hears of the others' moves.
struct Deaf(PgStore);

impl Store for Deaf {
    fn create_game(&self, game: &NewGame) -> Result<(), StoreError> {
        self.0.create_game(game)
    }
    fn append_move(&self, id: &str, ply: usize, mv: &RecordMove, progress: &Progress) -> Result<(), StoreError> {
        self.0.append_move(id, ply, mv, progress)
    }
    fn load(&self, id: &str) -> Result<Option<StoredGame>, StoreError> {
        self.0.load(id)
    }
    fn list(&self, limit: usize) -> Result<Vec<GameSummary>, StoreError> {
        self.0.list(limit)
    }
    fn in_play(&self) -> Result<Vec<GameSummary>, StoreError> {
        self.0.in_play()
    }
    fn expire(&self, before: i64) -> Result<Vec<String>, StoreError> {
        self.0.expire(before)
    }
    fn save_rules(&self, owner: &str, rules: &SavedRules, max: usize) -> Result<bool, StoreError> {
        self.0.save_rules(owner, rules, max)
    }
    fn saved_rules(&self, owner: &str) -> Result<Vec<SavedRules>, StoreError> {
        self.0.saved_rules(owner)
    }
    fn rename_rules(&self, owner: &str, id: &str, name: &str) -> Result<bool, StoreError> {
        self.0.rename_rules(owner, id, name)
    }
    fn delete_rules(&self, owner: &str, id: &str) -> Result<bool, StoreError> {
        self.0.delete_rules(owner, id)
    }
}

/// Polls `app`'s state of game `id` until `done` holds.
async fn eventually(
    app: &Router,
    id: &str,
    token: Option<&str>,
    within: Duration,
    done: impl Fn(&Value) -> bool,
) -> Value {
    let end = Instant::now() + within;
    loop {
        let s = state(app, id, token).await;
        if done(&s) {
            return s;
        }
        assert!(Instant::now() < end, "the game did not get there in {within:?}: {s}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Waits for the websocket's next state at `version`.
async fn ws_state_at(
    ws: &mut tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>,
    version: u64,
) -> Value {
    let end = Instant::now() + Duration::from_secs(5);
    loop {
        let left = end.saturating_duration_since(Instant::now());
        let msg = tokio::time::timeout(left, ws.next()).await.expect("the state in time");
        if let Message::Text(t) = msg.expect("the socket stays open").unwrap() {
            let v: Value = serde_json::from_str(&t).unwrap();
            if v["type"] == "state" && v["state"]["version"] == version {
                return v["state"].clone();
            }
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_on_one_server_reaches_the_other_s_viewers() {
    let server = server!();
    let schema = Schema::new(&server);
    let (a, _) = server_on(&schema).await;
    let (b, state_b) = server_on(&schema).await;
    // B also on a real socket, for a websocket viewer.
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(serve_on(listener, state_b));

    let (id, tokens, s0) = create(&a, two_humans()).await;
    let t0 = tokens[0].clone().unwrap();
    let before = state(&b, &id, None).await;
    assert_eq!(before["version"], 0);
    let (mut ws, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/api/games/{id}/ws")).await.unwrap();
    ws_state_at(&mut ws, 0).await;

    let (status, v) = post_move(&a, &id, &t0, &common::pick_move(&s0, 0, true)).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let seen = ws_state_at(&mut ws, 1).await;
    let on_b = eventually(&b, &id, None, Duration::from_secs(5), |s| s["version"] == 1).await;
    let on_a = state(&a, &id, None).await;
    assert_eq!(on_b["board"], on_a["board"], "B shows A's move");
    assert_eq!(seen["board"], on_a["board"], "B's viewer sees A's move");
    assert_eq!(on_b["players"][0]["score"], on_a["players"][0]["score"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_against_a_version_already_moved_on_elsewhere_is_stale_and_catches_up() {
    let server = server!();
    let schema = Schema::new(&server);
    let (a, _) = server_on(&schema).await;
    // B never hears of A's moves: it learns of them only when storing fails.
    let url = schema.url();
    let deaf = tokio::task::spawn_blocking(move || PgStore::open(&url)).await.unwrap().unwrap();
    let (b, _) = with_store(Arc::new(Deaf(deaf)), Duration::ZERO);

    let (id, tokens, s0) = create(&a, two_humans()).await;
    let (t0, t1) = (tokens[0].clone().unwrap(), tokens[1].clone().unwrap());
    let on_b = state(&b, &id, Some(&t0)).await;
    assert_eq!(on_b["version"], 0);

    // Seat 0 moves on A; B still thinks seat 0 is to move at version 0.
    let (status, v) = post_move(&a, &id, &t0, &common::pick_move(&s0, 0, false)).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let (status, v) = post_move(&b, &id, &t0, &common::pick_move(&on_b, 1, false)).await;
    assert_eq!(status, StatusCode::CONFLICT, "{v}");
    assert_eq!(v["error"], "stale_version", "{v}");
    assert_eq!(v["version"], 1, "{v}");
    // B has caught up: seat 1 may move there, and A hears of it.
    let caught_up = state(&b, &id, Some(&t1)).await;
    assert_eq!(caught_up["version"], 1);
    assert_eq!(caught_up["board"], state(&a, &id, None).await["board"]);
    let (status, v) = post_move(&b, &id, &t1, &common::pick_move(&caught_up, 0, false)).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    eventually(&a, &id, None, Duration::from_secs(5), |s| s["version"] == 2).await;
    let url = schema.url();
    let stored =
        tokio::task::spawn_blocking(move || PgStore::open(&url).unwrap().load(&id).unwrap().unwrap()).await.unwrap();
    assert_eq!(stored.record.moves.len(), 2, "the refused move was not stored");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bots_driven_by_two_servers_play_one_game_to_one_record() {
    let server = server!();
    let schema = Schema::new(&server);
    let (a, _) = server_on(&schema).await;
    let (b, _) = server_on(&schema).await;
    let seats = json!({ "seats": [
        { "kind": "bot", "level": "random" },
        { "kind": "bot", "level": "easy" },
        { "kind": "bot", "level": "random" },
    ] });
    let (status, created) = call(&a, "POST", "/api/games", Some(&seats.to_string())).await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    // B loads the game mid-play: both servers now drive its bots.
    state(&b, &id, None).await;
    let within = Duration::from_secs(120);
    let end_a = eventually(&a, &id, None, within, |s| s["status"] == "finished").await;
    let end_b = eventually(&b, &id, None, within, |s| s["status"] == "finished").await;
    assert_eq!(end_a["version"], end_b["version"]);
    assert_eq!(end_a["board"], end_b["board"]);
    assert_eq!(end_a["players"], end_b["players"]);
    assert_eq!(end_a["winners"], end_b["winners"]);

    let moves = end_a["version"].as_u64().unwrap();
    assert!(moves > 50, "a whole game: {moves} moves");
    // One row per move, numbered without a gap, and a record that replays to the same end.
    assert_eq!(
        schema.rows(&format!("SELECT count(*), min(ply), max(ply) FROM moves WHERE game_id = '{id}'")),
        vec![vec![Some(moves.to_string()), Some("0".into()), Some((moves - 1).to_string())]]
    );
    assert_eq!(schema.one(&format!("SELECT moves FROM games WHERE id = '{id}'")), moves.to_string());
    let url = schema.url();
    let key = id.clone();
    let stored =
        tokio::task::spawn_blocking(move || PgStore::open(&url).unwrap().load(&key).unwrap().unwrap()).await.unwrap();
    let game = rebuild(&stored.record, stored.live_seed).expect("the stored record replays");
    assert!(game.is_over());
    let scores: Vec<Value> = game.scores().iter().map(|s| json!(s)).collect();
    let shown: Vec<Value> = end_a["players"].as_array().unwrap().iter().map(|p| p["score"].clone()).collect();
    assert_eq!(scores, shown, "the record scores what the servers showed");
    let listed = tokio::task::spawn_blocking({
        let url = schema.url();
        move || PgStore::open(&url).unwrap().in_play().unwrap()
    })
    .await
    .unwrap();
    assert!(listed.iter().all(|g| g.id != id), "a finished game is not in play");
}

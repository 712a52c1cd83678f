//! The PostgreSQL store against a real server: the change feed, migrations
//! racing, and two servers sharing one database. (What every store must
//! do, PostgreSQL's included, is the conformance suite's: tests/store/.)
//!
//! The server's URL comes from `CARCASSONNE_TEST_POSTGRES`
//! (`eval "$(bash .ci/postgres start)"` starts one). Without it the tests fail
//! when `CI` is set, and otherwise say so and pass. Each test works in a
//! fresh schema of its own, dropped at its end.

mod common;

use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::Barrier;

use axum::http::StatusCode;
use axum::Router;
use carcassonne::record::{Record, RecordMove};
use carcassonne_server::{
    hash_token, rebuild, serve_on, AppState, Beat, BotLevel, Change, ChatCaps, ChatMessage, ClusterRepo, Feed, Grant,
    NewGame, Progress, Seat, Store, StoreError,
};
use common::pg::{server_url, Schema};
use common::{call, create, post_move, state, two_humans, with_store};
use futures_util::StreamExt;
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::Message;

/// The test server's URL, or the end of the test.
macro_rules! server {
    () => {
        match server_url() {
            Some(url) => url,
            None => return,
        }
    };
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
            Seat::Human { name: "Ada".into(), token_hash: hash_token("t0-secret"), remote: true, account: None },
            Seat::Bot { name: "Bot".into(), level: BotLevel::Random },
        ],
        created_at: 1,
        public: false,
        clock: None,
        deadline: None,
        owner: None,
    }
}

fn a_move() -> RecordMove {
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

fn progress(at: i64, finished: bool) -> Progress {
    Progress {
        finished,
        scores: vec![4, 0],
        to_move: (!finished).then_some(1),
        winners: vec![],
        at,
        bot_turn: false,
        aborted: false,
    }
}

// ---------------------------------------------------------------- migrations and connecting

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn servers_starting_together_migrate_once() {
    let server = server!();
    let schema = Schema::new(&server);
    let url = schema.url();
    let n = 4;
    let barrier = Arc::new(Barrier::new(n));
    let handles: Vec<_> = (0..n)
        .map(|_| {
            let (url, barrier) = (url.clone(), Arc::clone(&barrier));
            tokio::spawn(async move {
                barrier.wait().await;
                Store::postgres(&url).await.map(|_| ())
            })
        })
        .collect();
    for h in handles {
        h.await.unwrap().unwrap_or_else(|e| panic!("a server starting alongside others failed: {e}"));
    }
    let version = carcassonne_server::PG_MIGRATIONS.len().to_string();
    assert_eq!(schema.rows("SELECT version FROM schema_version"), vec![vec![Some(version)]]);
    // And the tables work.
    let store = schema.open().await;
    store.games.create(&new_game("g1")).await.unwrap();
    assert_eq!(store.games.list(5).await.unwrap().len(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_database_from_a_newer_version_is_refused() {
    let server = server!();
    let schema = Schema::new(&server);
    drop(schema.open().await);
    schema.rows("UPDATE schema_version SET version = 99");
    let Err(e) = Store::postgres(&schema.url()).await else { panic!("opened a newer schema") };
    let known = carcassonne_server::PG_MIGRATIONS.len();
    assert!(e.to_string().contains(&format!("schema version 99, newer than this program's {known}")), "{e}");
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_wrong_password_or_host_is_a_clear_error_that_hides_the_password() {
    let server = server!();
    let Err(e) = Store::postgres(&with_password(&server, "Wr0ngPassw0rd")).await else {
        panic!("a wrong password opened")
    };
    let text = e.to_string();
    assert!(text.contains("cannot connect to postgres://"), "{text}");
    assert!(text.contains("password authentication failed"), "{text}");
    assert!(!text.contains("Wr0ngPassw0rd"), "{text}");
    assert!(text.contains(":***@"), "{text}");

    let started = Instant::now();
    let Err(e) = Store::postgres("postgres://ada:Wr0ngPassw0rd@127.0.0.1:1/games").await else {
        panic!("port 1 opened")
    };
    let text = e.to_string();
    assert!(text.contains("cannot connect to postgres://ada:***@127.0.0.1:1/games"), "{text}");
    assert!(text.contains("error connecting to server"), "{text}");
    assert!(!text.contains("Wr0ngPassw0rd"), "{text}");
    assert!(started.elapsed() < Duration::from_secs(15), "gave up in time");
}

// ---------------------------------------------------------------- the change feed

/// Waits for news of game `id` holding `moves` moves (other tests' news pass by).
async fn expect_news(rx: &mut tokio::sync::mpsc::UnboundedReceiver<Change>, id: &str, moves: usize, within: Duration) {
    let wait = async {
        loop {
            match rx.recv().await {
                Some(Change::Moved(c)) if c.id == id && c.moves == moves => return,
                Some(_) => {}
                None => panic!("the change feed ended"),
            }
        }
    };
    tokio::time::timeout(within, wait)
        .await
        .unwrap_or_else(|_| panic!("no news of {id} at {moves} moves within {within:?}"));
}

/// The SQL counting the change feed's connections to `schema`.
fn listening(schema: &Schema) -> String {
    format!("SELECT count(*) FROM pg_stat_activity WHERE application_name = '{}:listen'", schema.name)
}

/// Cuts the change feed's connection (it was connected).
fn cut_feed(schema: &Schema) {
    let killed = schema.one(&format!(
        "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE application_name = '{}:listen'",
        schema.name
    ));
    assert_eq!(killed, "1", "the feed was connected");
}

/// Waits until `sql` returns `want`.
async fn wait_until(schema: &Schema, sql: &str, want: &str) {
    let end = Instant::now() + Duration::from_secs(10);
    while schema.one(sql) != want {
        assert!(Instant::now() < end, "{sql} never gave {want}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_stored_by_one_server_is_announced_to_the_others() {
    let server = server!();
    let schema = Schema::new(&server);
    let (a, b) = (schema.open().await, schema.open().await);
    let mut news = b.cluster.changes().expect("PostgreSQL reports changes");
    let listening = listening(&schema);
    wait_until(&schema, &listening, "1").await;
    a.games.create(&new_game("g1")).await.unwrap();
    a.games.append_move("g1", 0, &a_move(), &progress(2, false)).await.unwrap();
    expect_news(&mut news, "g1", 1, Duration::from_secs(5)).await;
    // A refused move changes nothing; the next stored one is news again.
    assert!(a.games.append_move("g1", 0, &a_move(), &progress(3, false)).await.is_err());
    a.games.append_move("g1", 1, &a_move(), &progress(4, false)).await.unwrap();
    expect_news(&mut news, "g1", 2, Duration::from_secs(5)).await;
    // The feed ends when nobody reads it.
    drop(news);
    wait_until(&schema, &listening, "0").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn moves_stored_before_the_feed_listens_are_announced_too() {
    // A server may load a game before its feed is listening: the feed's
    // first look back covers what was stored since the store was opened.
    let server = server!();
    let schema = Schema::new(&server);
    let (a, b) = (schema.open().await, schema.open().await);
    a.games.create(&new_game("g1")).await.unwrap();
    a.games.append_move("g1", 0, &a_move(), &progress(2, false)).await.unwrap();
    let mut news = b.cluster.changes().expect("PostgreSQL reports changes");
    expect_news(&mut news, "g1", 1, Duration::from_secs(5)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn clocks_changed_before_the_feed_listens_are_announced_too() {
    // A time that ran out (or a seat handed to a bot) while a server's feed
    // was not yet listening: that server reads the game's clocks again when
    // its feed starts, after the game's moves. (Two servers once disagreed
    // on an expiry for want of this: clocks.rs, two_servers_act_on_an_expiry_once.)
    let server = server!();
    let schema = Schema::new(&server);
    let (a, b) = (schema.open().await, schema.open().await);
    a.games.create(&new_game("g1")).await.unwrap();
    a.games.create(&new_game("g2")).await.unwrap();
    a.games.append_move("g1", 0, &a_move(), &progress(2, false)).await.unwrap();
    assert!(a.clocks.swap("g1", 0, r#"{"rev":1,"seen":1}"#, Some(5)).await.unwrap());
    let mut news = b.cluster.changes().expect("PostgreSQL reports changes");
    let wait = async {
        let mut seen = Vec::new();
        while !seen.iter().any(|c| matches!(c, Change::Lobby { .. })) {
            match news.recv().await {
                Some(c @ (Change::Moved(_) | Change::Clock { .. } | Change::Lobby { .. })) => seen.push(c),
                Some(_) => {}
                None => panic!("the change feed ended"),
            }
        }
        seen
    };
    let seen = tokio::time::timeout(Duration::from_secs(5), wait).await.expect("the feed's look back");
    let told: Vec<String> = seen
        .iter()
        .map(|c| match c {
            Change::Moved(m) => format!("moved {} {}", m.id, m.moves),
            Change::Clock { game } => format!("clock {game}"),
            _ => "lobby".to_string(),
        })
        .collect();
    // g2 has no clock: its clocks are not read again. The lobby is, last.
    let g1: Vec<&String> = told.iter().filter(|t| t.contains("g1")).collect();
    assert_eq!(g1, ["moved g1 1", "clock g1"], "{told:?}");
    assert!(!told.contains(&"clock g2".to_string()), "{told:?}");
    assert_eq!(told.last().map(String::as_str), Some("lobby"), "{told:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn takeback_requests_are_announced_as_stored_and_after_the_feed_was_away() {
    // A takeback request written (asked, answered, granted) is news for
    // every server at its commit; one written while a server's feed was
    // not listening comes with the feed's look back.
    let server = server!();
    let schema = Schema::new(&server);
    let (a, b) = (schema.open().await, schema.open().await);
    a.games.create(&new_game("g1")).await.unwrap();
    a.games.create(&new_game("g2")).await.unwrap();
    a.games.append_move("g1", 0, &a_move(), &progress(2, false)).await.unwrap();
    a.games.append_move("g2", 0, &a_move(), &progress(2, false)).await.unwrap();
    assert!(a.takebacks.put("g1", 1, 0, r#"{"rev":1}"#).await.unwrap());
    let mut news = b.cluster.changes().expect("PostgreSQL reports changes");
    let mut told = Vec::new();
    let wait = async {
        while !told.iter().any(|c| matches!(c, Change::Lobby { .. })) {
            match news.recv().await {
                Some(c @ (Change::Takeback { .. } | Change::Lobby { .. })) => told.push(c),
                Some(_) => {}
                None => panic!("the change feed ended"),
            }
        }
    };
    tokio::time::timeout(Duration::from_secs(5), wait).await.expect("the feed's look back");
    assert!(told.contains(&Change::Takeback { game: "g1".into() }), "{told:?}");
    assert!(!told.contains(&Change::Takeback { game: "g2".into() }), "g2 has no request: {told:?}");
    // Listening: a grant is news at its commit.
    let grant = Grant { moves: 1, rev: 1, json: r#"{"rev":2}"#, to: 0, progress: &progress(3, false), clock: None };
    assert!(a.takebacks.grant("g1", &grant).await.unwrap());
    let heard = async {
        loop {
            match news.recv().await {
                Some(Change::Takeback { game }) if game == "g1" => return,
                Some(_) => {}
                None => panic!("the change feed ended"),
            }
        }
    };
    tokio::time::timeout(Duration::from_secs(5), heard).await.expect("the grant's news");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_change_feed_comes_back_after_losing_its_connection() {
    let server = server!();
    let schema = Schema::new(&server);
    let (a, b) = (schema.open().await, schema.open().await);
    assert_eq!(b.cluster.feed(), Feed::None, "no feed before it is asked for");
    let mut news = b.cluster.changes().expect("PostgreSQL reports changes");
    let listening = listening(&schema);
    wait_until(&schema, &listening, "1").await;
    let started = Instant::now();
    while b.cluster.feed() != Feed::Up {
        assert!(started.elapsed() < Duration::from_secs(10), "the feed never says it listens");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    b.cluster.health().await.unwrap();
    a.games.create(&new_game("g1")).await.unwrap();
    for ply in 0..3 {
        // Cut the feed's connection, and store a move at once: whether it
        // comes as a notice or from the look back after reconnecting, it
        // must come.
        cut_feed(&schema);
        a.games.append_move("g1", ply, &a_move(), &progress(ply as i64 + 2, false)).await.unwrap();
        expect_news(&mut news, "g1", ply + 1, Duration::from_secs(10)).await;
        wait_until(&schema, &listening, "1").await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chat_written_while_the_feed_is_away_is_told_when_it_comes_back() {
    // A chat message (or a rematch's acceptance) reaches the other servers
    // only as news: one made while a server's feed reconnects comes with the
    // feed's look back.
    let server = server!();
    let schema = Schema::new(&server);
    let (a, b) = (schema.open().await, schema.open().await);
    let mut news = b.cluster.changes().expect("PostgreSQL reports changes");
    wait_until(&schema, &listening(&schema), "1").await;
    a.games.create(&new_game("g1")).await.unwrap();
    // Stored, and published by nobody (as if while the feed was away: a
    // line written after the cut could race the reconnection): only the
    // look back of the session after the cut can tell them.
    let at = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_millis() as i64;
    let line = ChatMessage {
        seq: 0,
        seat: Some(0),
        name: "Ada".into(),
        text: "still there?".into(),
        at,
        spectator: None,
        account: false,
        member: true,
        author_account: Some("acc-ada".into()),
        author: "seat:0".into(),
        kept: false,
    };
    let caps = ChatCaps { players: 100, known: 100, others: 100 };
    let seq = a.chat.add("g1", &line, &caps).await.unwrap().expect("room for it");
    // A rematch accepted meanwhile, too: the pages there read it again.
    assert!(a.rematches.accept("g1", 0, "hash").await.unwrap());
    cut_feed(&schema);
    let wait = async {
        let (mut told, mut rematch) = (None, false);
        while told.is_none() || !rematch {
            match news.recv().await {
                Some(Change::Chat { game, message, .. }) if game == "g1" => told = Some(message),
                Some(Change::Rematch { game, .. }) if game == "g1" => rematch = true,
                Some(_) => {}
                None => panic!("the change feed ended"),
            }
        }
        told
    };
    let told =
        tokio::time::timeout(Duration::from_secs(10), wait).await.expect("the message and the rematch within 10 s");
    assert_eq!(told, Some(ChatMessage { seq, ..line }));
}

// ---------------------------------------------------------------- two servers, one database

/// A server on its own connections to `schema` (bots move at once).
async fn server_on(schema: &Schema) -> (Router, AppState) {
    let url = schema.url();
    let store = Store::postgres(&url).await.unwrap();
    with_store(store, Duration::ZERO)
}

/// A cluster of one: a server on the shared database that never hears of
/// the others' moves (no change feed) and drives every bot it meets.
struct Deaf(Arc<dyn ClusterRepo>);

#[async_trait::async_trait]
impl ClusterRepo for Deaf {
    fn changes(&self) -> Option<tokio::sync::mpsc::UnboundedReceiver<Change>> {
        None
    }
    async fn health(&self) -> Result<(), StoreError> {
        self.0.health().await
    }
    fn feed(&self) -> Feed {
        Feed::None
    }
    fn server(&self) -> Option<&str> {
        None
    }
    async fn claim_bots(&self, _id: &str) -> Result<bool, StoreError> {
        Ok(true)
    }
    async fn release_bots(&self, _id: &str) -> Result<(), StoreError> {
        Ok(())
    }
    async fn publish(&self, _change: &Change) -> Result<(), StoreError> {
        Ok(())
    }
    async fn presence(&self, _id: &str) -> Result<Vec<(String, Vec<u32>)>, StoreError> {
        Ok(Vec::new())
    }
    async fn beat(&self) -> Result<Beat, StoreError> {
        Ok(Beat::default())
    }
    async fn leave(&self) -> Result<(), StoreError> {
        Ok(())
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
    let deaf = Store::postgres(&url).await.unwrap();
    let (b, _) = with_store(Store { cluster: Arc::new(Deaf(deaf.cluster.clone())), ..deaf }, Duration::ZERO);

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
    let stored = Store::postgres(&url).await.unwrap().games.load(&id).await.unwrap().unwrap();
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
    let stored = Store::postgres(&url).await.unwrap().games.load(&key).await.unwrap().unwrap();
    let game = rebuild(&stored.record, stored.live_seed).expect("the stored record replays");
    assert!(game.is_over());
    let scores: Vec<Value> = game.scores().iter().map(|s| json!(s)).collect();
    let shown: Vec<Value> = end_a["players"].as_array().unwrap().iter().map(|p| p["score"].clone()).collect();
    assert_eq!(scores, shown, "the record scores what the servers showed");
    let listed = Store::postgres(&schema.url()).await.unwrap().games.in_play().await.unwrap();
    assert!(listed.iter().all(|g| g.id != id), "a finished game is not in play");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sslmode_require_speaks_tls_or_says_why_not() {
    let server = server!();
    let schema = Schema::new(&server);
    // The test server speaks no TLS: asked to require it, the store says so
    // (rather than fall back to plain TCP), and still hides the password.
    let url = format!("{}&sslmode=require", schema.url());
    let Err(e) = Store::postgres(&url).await else { panic!("a server without TLS was used with sslmode=require") };
    let text = e.to_string().to_lowercase();
    assert!(text.contains("tls") || text.contains("ssl"), "{text}");
    assert!(!text.contains(":s3cret") && text.contains("cannot connect"), "{text}");
    // And disable is plain TCP, as prefer (the default) is.
    let plain = Store::postgres(&format!("{}&sslmode=disable", schema.url())).await.unwrap();
    plain.cluster.health().await.unwrap();
}

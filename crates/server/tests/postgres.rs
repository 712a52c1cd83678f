//! The PostgreSQL store against a real server: the storage contract, the
//! change feed, migrations racing, and two servers sharing one database.
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
    hash_token, rebuild, serve_on, AppState, BotLevel, Change, ChatMessage, Feed, GameSummary, NewGame, PgStore,
    Progress, SavedRules, Seat, Store, StoreError, StoredGame,
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
    Progress { finished, scores: vec![4, 0], to_move: (!finished).then_some(1), winners: vec![], at, bot_turn: false }
}

async fn load(store: &PgStore, id: &str) -> StoredGame {
    store.load(id).await.unwrap().unwrap_or_else(|| panic!("no game {id}"))
}

// ---------------------------------------------------------------- the contract

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_games_list_holds_the_named_games_and_the_public_ones() {
    let server = server!();
    let schema = Schema::new(&server);
    let store = schema.open().await;
    store.create_game(&new_game("mine")).await.unwrap();
    store.create_game(&new_game("theirs")).await.unwrap();
    store.create_game(&NewGame { public: true, ..new_game("open") }).await.unwrap();
    let ids = |list: Vec<GameSummary>| {
        let mut v: Vec<String> = list.into_iter().map(|g| g.id).collect();
        v.sort();
        v
    };
    assert_eq!(ids(store.listed(&[], 10).await.unwrap()), vec!["open"]);
    assert_eq!(ids(store.listed(&["mine".into(), "nope".into()], 10).await.unwrap()), vec!["mine", "open"]);
    assert!(store.listed(&[], 10).await.unwrap()[0].public);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn saved_rule_sets_belong_to_their_owner_and_stay_bounded_under_racing_saves() {
    let server = server!();
    let schema = Schema::new(&server);
    let store = Arc::new(schema.open().await);
    let set = |id: &str, at: i64| SavedRules {
        id: id.into(),
        name: format!("set {id}"),
        code: "AQAAAQAA".into(),
        created_at: at,
    };
    let ids = |sets: Vec<SavedRules>| sets.into_iter().map(|s| s.id).collect::<Vec<_>>();
    assert!(store.save_rules("ann", &set("a", 2), 3).await.unwrap());
    assert!(store.save_rules("ann", &set("b", 1), 3).await.unwrap());
    assert!(store.save_rules("bob", &set("d", 3), 3).await.unwrap());
    assert_eq!(ids(store.saved_rules("ann").await.unwrap()), ["b", "a"]);
    assert!(!store.rename_rules("bob", "a", "mine now").await.unwrap(), "only the owner renames");
    assert!(store.rename_rules("ann", "a", "Our table").await.unwrap());
    assert_eq!(store.saved_rules("ann").await.unwrap()[1].name, "Our table");
    assert!(!store.delete_rules("bob", "a").await.unwrap(), "only the owner deletes");
    assert!(store.delete_rules("ann", "a").await.unwrap());
    assert_eq!(ids(store.saved_rules("ann").await.unwrap()), ["b"]);
    // Eight saves at once for one owner with room for two more: two are kept.
    let start = Arc::new(Barrier::new(8));
    let saves: Vec<_> = (0..8)
        .map(|i| {
            let (store, start) = (Arc::clone(&store), Arc::clone(&start));
            tokio::spawn(async move {
                start.wait().await;
                store.save_rules("ann", &set(&format!("r{i}"), 10 + i), 3).await.unwrap()
            })
        })
        .collect();
    let mut saved = 0;
    for s in saves {
        saved += usize::from(s.await.unwrap());
    }
    assert_eq!(saved, 2);
    assert_eq!(store.saved_rules("ann").await.unwrap().len(), 3);
    assert_eq!(ids(store.saved_rules("bob").await.unwrap()), ["d"]);
}

#[tokio::test]
async fn accounts_and_sessions_are_kept() {
    let server = server!();
    let schema = Schema::new(&server);
    common::accounts::accounts_contract(&schema.open().await).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_review_is_worked_out_by_one_server_and_kept_for_all() {
    let server = server!();
    let schema = Schema::new(&server);
    let (one, two) = (schema.open().await, schema.open().await);
    one.create_game(&new_game("g")).await.unwrap();
    assert_eq!(one.review("g").await.unwrap(), None);
    assert!(one.claim_review("g", 1_000, 0).await.unwrap(), "the first server takes it");
    assert!(!two.claim_review("g", 1_001, 0).await.unwrap(), "not a second while the first works it out");
    assert!(one.claim_review("g", 1_002, 0).await.unwrap(), "the first server may take it again (a restart)");
    // A server silent since before `stale_before` is taken for gone.
    assert!(two.claim_review("g", 5_000, 2_000).await.unwrap());
    two.save_review("g", "{\"moves\":[]}").await.unwrap();
    assert_eq!(one.review("g").await.unwrap().as_deref(), Some("{\"moves\":[]}"));
    assert!(!one.claim_review("g", 9_000, 9_000).await.unwrap(), "a kept review is never worked out again");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn only_unfinished_games_without_a_recent_move_expire() {
    let server = server!();
    let schema = Schema::new(&server);
    let store = schema.open().await;
    for id in ["old", "done", "recent"] {
        store.create_game(&new_game(id)).await.unwrap();
    }
    store.append_move("old", 0, &a_move(), &progress(10, false)).await.unwrap();
    store.append_move("done", 0, &a_move(), &progress(10, true)).await.unwrap();
    store.append_move("recent", 0, &a_move(), &progress(100, false)).await.unwrap();
    assert_eq!(store.expire(50).await.unwrap(), vec!["old".to_string()]);
    assert!(store.load("old").await.unwrap().is_none());
    assert!(store.load("done").await.unwrap().is_some(), "a finished game stays");
    assert!(store.load("recent").await.unwrap().is_some());
    assert_eq!(schema.one("SELECT count(*) FROM moves"), "2", "the expired game's moves went with it");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_round_trips_with_its_moves_in_order() {
    let server = server!();
    let schema = Schema::new(&server);
    let store = schema.open().await;
    store.create_game(&new_game("g1")).await.unwrap();
    let m0 = a_move();
    store.append_move("g1", 0, &m0, &progress(5, false)).await.unwrap();
    let g = load(&store, "g1").await;
    assert_eq!(g.record.moves, vec![m0]);
    assert_eq!(g.record.players, vec!["Ada".to_string(), "Bot".to_string()]);
    assert_eq!(g.record.deck.as_deref(), Some(&["E".to_string(), "V".to_string()][..]));
    assert_eq!(g.seats, new_game("g1").seats);
    assert_eq!((g.created_at, g.updated_at), (1, 5));
    assert_eq!(g.live_seed, Some(u64::MAX - 5), "a seed keeps all 64 bits");
    let list: Vec<GameSummary> = store.list(10).await.unwrap();
    assert_eq!(list.len(), 1);
    assert_eq!(list[0].moves, 1);
    assert_eq!(list[0].progress, progress(5, false));
    assert_eq!(list[0].rules.get("preset"), Some(&json!("standard")));
    assert!(store.load("nope").await.unwrap().is_none());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_list_is_newest_first_and_limited() {
    let server = server!();
    let schema = Schema::new(&server);
    let store = schema.open().await;
    for (i, id) in ["a", "b", "c"].iter().enumerate() {
        let mut g = new_game(id);
        g.created_at = i as i64 + 1;
        store.create_game(&g).await.unwrap();
    }
    store.append_move("a", 0, &a_move(), &progress(100, false)).await.unwrap();
    let ids: Vec<String> = store.list(2).await.unwrap().into_iter().map(|g| g.id).collect();
    assert_eq!(ids, vec!["a".to_string(), "c".to_string()]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_out_of_sequence_or_for_no_game_is_refused() {
    let server = server!();
    let schema = Schema::new(&server);
    let store = schema.open().await;
    store.create_game(&new_game("g1")).await.unwrap();
    let m = a_move();
    assert!(matches!(store.append_move("g1", 1, &m, &progress(2, false)).await, Err(StoreError::Conflict(_))));
    store.append_move("g1", 0, &m, &progress(2, false)).await.unwrap();
    let Err(StoreError::Conflict(why)) = store.append_move("g1", 0, &m, &progress(3, false)).await else {
        panic!("a second writer of move 0 was not a conflict")
    };
    assert!(why.contains("1 moves stored"), "{why}");
    assert!(matches!(store.append_move("nope", 0, &m, &progress(3, false)).await, Err(StoreError::Failed(_))));
    assert_eq!(load(&store, "g1").await.record.moves.len(), 1);
    assert_eq!(schema.one("SELECT count(*) FROM moves"), "1");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn of_many_writers_racing_for_one_move_exactly_one_wins() {
    let server = server!();
    let schema = Schema::new(&server);
    let stores: Vec<Arc<PgStore>> = vec![Arc::new(schema.open().await), Arc::new(schema.open().await)];
    stores[0].create_game(&new_game("g1")).await.unwrap();
    for ply in 0..3usize {
        let writers = 6;
        let barrier = Arc::new(Barrier::new(writers));
        let handles: Vec<_> = (0..writers)
            .map(|w| {
                let store = Arc::clone(&stores[w % 2]);
                let barrier = Arc::clone(&barrier);
                tokio::spawn(async move {
                    let mut m = a_move();
                    m.rot = w as u8 % 4; // each writer's move is its own
                    barrier.wait().await;
                    store.append_move("g1", ply, &m, &progress(10 + ply as i64, false)).await.map(|()| m)
                })
            })
            .collect();
        let mut results: Vec<Result<RecordMove, StoreError>> = Vec::new();
        for h in handles {
            results.push(h.await.unwrap());
        }
        let won: Vec<&RecordMove> = results.iter().filter_map(|r| r.as_ref().ok()).collect();
        assert_eq!(won.len(), 1, "ply {ply}: {results:?}");
        for r in &results {
            if let Err(e) = r {
                assert!(matches!(e, StoreError::Conflict(_)), "ply {ply}: a loser must see a conflict: {e}");
            }
        }
        let stored = load(&stores[1], "g1").await;
        assert_eq!(stored.record.moves.len(), ply + 1);
        assert_eq!(&stored.record.moves[ply], won[0], "the winner's move is the one stored");
    }
    assert_eq!(schema.one("SELECT moves FROM games WHERE id = 'g1'"), "3");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn in_play_lists_only_unfinished_games() {
    let server = server!();
    let schema = Schema::new(&server);
    let store = schema.open().await;
    store.create_game(&new_game("g1")).await.unwrap();
    store.create_game(&new_game("g2")).await.unwrap();
    store.append_move("g2", 0, &a_move(), &progress(9, true)).await.unwrap();
    let ids: Vec<String> = store.in_play().await.unwrap().into_iter().map(|g| g.id).collect();
    assert_eq!(ids, vec!["g1".to_string()]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_is_kept_with_its_clocks_in_one_write() {
    let server = server!();
    let schema = Schema::new(&server);
    let store = schema.open().await;
    let clock = r#"{"control":{"kind":"fischer"}}"#;
    store.create_game(&NewGame { clock: Some(clock.into()), deadline: Some(1_000), ..new_game("g1") }).await.unwrap();
    assert_eq!(store.load_clock("g1").await.unwrap().as_deref(), Some(clock));
    assert_eq!(store.due_clocks(1_000, 10).await.unwrap(), ["g1"]);
    assert!(store.due_clocks(999, 10).await.unwrap().is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_duplicate_id_is_refused() {
    let server = server!();
    let schema = Schema::new(&server);
    let store = schema.open().await;
    store.create_game(&new_game("g1")).await.unwrap();
    let Err(e) = store.create_game(&new_game("g1")).await else { panic!("a second game g1 was stored") };
    assert!(e.to_string().contains("g1 is taken"), "{e}");
    assert_eq!(schema.one("SELECT count(*) FROM games"), "1");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tokens_are_kept_hashed_and_still_seat_their_holder() {
    let server = server!();
    let schema = Schema::new(&server);
    let store = schema.open().await;
    store.create_game(&new_game("g1")).await.unwrap();
    let raw = schema.one("SELECT seats FROM games");
    assert!(!raw.contains("t0-secret"), "{raw}");
    assert!(raw.contains(&hash_token("t0-secret")), "{raw}");
    let seats = load(&store, "g1").await.seats;
    assert!(seats[0].held_by("t0-secret"));
    assert!(!seats[0].held_by("t1"));
    assert!(!seats[1].held_by("t0-secret"));
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
                PgStore::open(&url).await.map(|_| ())
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
    store.create_game(&new_game("g1")).await.unwrap();
    assert_eq!(store.list(5).await.unwrap().len(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_database_from_a_newer_version_is_refused() {
    let server = server!();
    let schema = Schema::new(&server);
    drop(schema.open().await);
    schema.rows("UPDATE schema_version SET version = 99");
    let Err(e) = PgStore::open(&schema.url()).await else { panic!("opened a newer schema") };
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
    let Err(e) = PgStore::open(&with_password(&server, "Wr0ngPassw0rd")).await else {
        panic!("a wrong password opened")
    };
    let text = e.to_string();
    assert!(text.contains("cannot connect to postgres://"), "{text}");
    assert!(text.contains("password authentication failed"), "{text}");
    assert!(!text.contains("Wr0ngPassw0rd"), "{text}");
    assert!(text.contains(":***@"), "{text}");

    let started = Instant::now();
    let Err(e) = PgStore::open("postgres://ada:Wr0ngPassw0rd@127.0.0.1:1/games").await else { panic!("port 1 opened") };
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
    let mut news = b.changes().expect("PostgreSQL reports changes");
    let listening = listening(&schema);
    wait_until(&schema, &listening, "1").await;
    a.create_game(&new_game("g1")).await.unwrap();
    a.append_move("g1", 0, &a_move(), &progress(2, false)).await.unwrap();
    expect_news(&mut news, "g1", 1, Duration::from_secs(5)).await;
    // A refused move changes nothing; the next stored one is news again.
    assert!(a.append_move("g1", 0, &a_move(), &progress(3, false)).await.is_err());
    a.append_move("g1", 1, &a_move(), &progress(4, false)).await.unwrap();
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
    a.create_game(&new_game("g1")).await.unwrap();
    a.append_move("g1", 0, &a_move(), &progress(2, false)).await.unwrap();
    let mut news = b.changes().expect("PostgreSQL reports changes");
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
    a.create_game(&new_game("g1")).await.unwrap();
    a.create_game(&new_game("g2")).await.unwrap();
    a.append_move("g1", 0, &a_move(), &progress(2, false)).await.unwrap();
    assert!(a.swap_clock("g1", None, r#"{"seen":1}"#, Some(5)).await.unwrap());
    let mut news = b.changes().expect("PostgreSQL reports changes");
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
async fn the_change_feed_comes_back_after_losing_its_connection() {
    let server = server!();
    let schema = Schema::new(&server);
    let (a, b) = (schema.open().await, schema.open().await);
    assert_eq!(b.feed(), Feed::None, "no feed before it is asked for");
    let mut news = b.changes().expect("PostgreSQL reports changes");
    let listening = listening(&schema);
    wait_until(&schema, &listening, "1").await;
    let started = Instant::now();
    while b.feed() != Feed::Up {
        assert!(started.elapsed() < Duration::from_secs(10), "the feed never says it listens");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    b.health().await.unwrap();
    a.create_game(&new_game("g1")).await.unwrap();
    for ply in 0..3 {
        // Cut the feed's connection, and store a move at once: whether it
        // comes as a notice or from the look back after reconnecting, it
        // must come.
        cut_feed(&schema);
        a.append_move("g1", ply, &a_move(), &progress(ply as i64 + 2, false)).await.unwrap();
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
    let mut news = b.changes().expect("PostgreSQL reports changes");
    wait_until(&schema, &listening(&schema), "1").await;
    a.create_game(&new_game("g1")).await.unwrap();
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
        author: "seat:0".into(),
    };
    let seq = a.add_chat("g1", &line, 100).await.unwrap().expect("room for it");
    // A rematch accepted meanwhile, too: the pages there read it again.
    assert!(a.accept_rematch("g1", 0, "hash").await.unwrap());
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
    let store = PgStore::open(&url).await.unwrap();
    with_store(Arc::new(store), Duration::ZERO)
}

/// A store that hides its change feed: a server that never hears of the others' moves.
struct Deaf(PgStore);

#[async_trait::async_trait]
impl Store for Deaf {
    async fn create_game(&self, game: &NewGame) -> Result<(), StoreError> {
        self.0.create_game(game).await
    }
    async fn append_move(&self, id: &str, ply: usize, mv: &RecordMove, progress: &Progress) -> Result<(), StoreError> {
        self.0.append_move(id, ply, mv, progress).await
    }
    async fn load(&self, id: &str) -> Result<Option<StoredGame>, StoreError> {
        self.0.load(id).await
    }
    async fn list(&self, limit: usize) -> Result<Vec<GameSummary>, StoreError> {
        self.0.list(limit).await
    }
    async fn in_play(&self) -> Result<Vec<GameSummary>, StoreError> {
        self.0.in_play().await
    }
    async fn expire(&self, before: i64) -> Result<Vec<String>, StoreError> {
        self.0.expire(before).await
    }
    async fn save_rules(&self, owner: &str, rules: &SavedRules, max: usize) -> Result<bool, StoreError> {
        self.0.save_rules(owner, rules, max).await
    }
    async fn saved_rules(&self, owner: &str) -> Result<Vec<SavedRules>, StoreError> {
        self.0.saved_rules(owner).await
    }
    async fn rename_rules(&self, owner: &str, id: &str, name: &str) -> Result<bool, StoreError> {
        self.0.rename_rules(owner, id, name).await
    }
    async fn delete_rules(&self, owner: &str, id: &str) -> Result<bool, StoreError> {
        self.0.delete_rules(owner, id).await
    }
    async fn review(&self, id: &str) -> Result<Option<String>, StoreError> {
        self.0.review(id).await
    }
    async fn claim_review(&self, id: &str, now: i64, stale_before: i64) -> Result<bool, StoreError> {
        self.0.claim_review(id, now, stale_before).await
    }
    async fn save_review(&self, id: &str, review: &str) -> Result<(), StoreError> {
        self.0.save_review(id, review).await
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
    let deaf = PgStore::open(&url).await.unwrap();
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
    let stored = PgStore::open(&url).await.unwrap().load(&id).await.unwrap().unwrap();
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
    let stored = PgStore::open(&url).await.unwrap().load(&key).await.unwrap().unwrap();
    let game = rebuild(&stored.record, stored.live_seed).expect("the stored record replays");
    assert!(game.is_over());
    let scores: Vec<Value> = game.scores().iter().map(|s| json!(s)).collect();
    let shown: Vec<Value> = end_a["players"].as_array().unwrap().iter().map(|p| p["score"].clone()).collect();
    assert_eq!(scores, shown, "the record scores what the servers showed");
    let listed = PgStore::open(&schema.url()).await.unwrap().in_play().await.unwrap();
    assert!(listed.iter().all(|g| g.id != id), "a finished game is not in play");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sslmode_require_speaks_tls_or_says_why_not() {
    let server = server!();
    let schema = Schema::new(&server);
    // The test server speaks no TLS: asked to require it, the store says so
    // (rather than fall back to plain TCP), and still hides the password.
    let url = format!("{}&sslmode=require", schema.url());
    let Err(e) = PgStore::open(&url).await else { panic!("a server without TLS was used with sslmode=require") };
    let text = e.to_string().to_lowercase();
    assert!(text.contains("tls") || text.contains("ssl"), "{text}");
    assert!(!text.contains(":s3cret") && text.contains("cannot connect"), "{text}");
    // And disable is plain TCP, as prefer (the default) is.
    let plain = PgStore::open(&format!("{}&sslmode=disable", schema.url())).await.unwrap();
    plain.health().await.unwrap();
}

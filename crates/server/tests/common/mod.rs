//! Helpers shared by the server's integration tests.
#![allow(dead_code)]

use std::path::PathBuf;
use std::time::Duration;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use axum::Router;
use carcassonne_server::{app, AppState, Config, Store};
use http_body_util::BodyExt;
use serde_json::{json, Value};
use tower::ServiceExt;

pub mod accounts;
pub mod page;
pub mod pg;
pub mod push;

/// A server on an in-memory database whose bots move at once.
pub fn test_app() -> (Router, AppState) {
    let store: Store = Store::in_memory().unwrap();
    with_store(store, Duration::ZERO)
}

pub fn with_store(store: Store, bot_delay: Duration) -> (Router, AppState) {
    let state = AppState::new(store, Config { bot_delay, ..Config::quick() });
    (app(state.clone()), state)
}

/// Two servers on one store whose bots move at once: two stores of their
/// own on one PostgreSQL schema (`None` without PostgreSQL), or the same
/// SQLite store in memory twice.
pub async fn two_servers(pg: bool) -> Option<[(Router, AppState); 2]> {
    let config = || Config { bot_delay: Duration::ZERO, ..Config::quick() };
    let (one, two) = if pg {
        let url = pg::server_url()?;
        let schema = pg::Schema::new(&url);
        let one = schema.open().await;
        let two = schema.open().await;
        std::mem::forget(schema);
        (one, two)
    } else {
        let store = Store::in_memory().unwrap();
        (store.clone(), store)
    };
    let s1 = AppState::new(one, config());
    let s2 = AppState::new(two, config());
    Some([(app(s1.clone()), s1), (app(s2.clone()), s2)])
}

/// A temporary database file, removed (with its WAL files) on drop.
pub struct TempDb(pub PathBuf);

impl TempDb {
    pub fn new(name: &str) -> TempDb {
        let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos();
        TempDb(std::env::temp_dir().join(format!("carcassonne-test-{name}-{}-{nanos}.db", std::process::id())))
    }
}

impl Drop for TempDb {
    fn drop(&mut self) {
        for suffix in ["", "-wal", "-shm", "-lock"] {
            let _ = std::fs::remove_file(format!("{}{suffix}", self.0.display()));
        }
    }
}

/// Sends a request through the router without a socket.
pub async fn call(app: &Router, method: &str, uri: &str, body: Option<&str>) -> (StatusCode, Value) {
    let (status, bytes) = call_raw(app, method, uri, body.map(|b| b.as_bytes().to_vec())).await;
    let value = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
    (status, value)
}

pub async fn call_raw(app: &Router, method: &str, uri: &str, body: Option<Vec<u8>>) -> (StatusCode, Vec<u8>) {
    let req = Request::builder()
        .method(method)
        .uri(uri)
        .header("content-type", "application/json")
        .body(body.map(Body::from).unwrap_or_else(Body::empty))
        .unwrap();
    let resp = app.clone().oneshot(req).await.unwrap();
    let status = resp.status();
    let bytes = resp.into_body().collect().await.unwrap().to_bytes().to_vec();
    (status, bytes)
}

/// A new game; returns its id and the tokens by seat (`None` for bots).
pub async fn create(app: &Router, body: Value) -> (String, Vec<Option<String>>, Value) {
    let (status, v) = call(app, "POST", "/api/games", Some(&body.to_string())).await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    let n = v["state"]["players"].as_array().unwrap().len();
    let mut tokens = vec![None; n];
    for t in v["tokens"].as_array().unwrap() {
        tokens[t["seat"].as_u64().unwrap() as usize] = Some(t["token"].as_str().unwrap().to_string());
    }
    (v["id"].as_str().unwrap().to_string(), tokens, v["state"].clone())
}

pub fn two_humans() -> Value {
    json!({ "seats": [ { "kind": "human", "name": "Ada" }, { "kind": "human", "name": "Bob" } ] })
}

pub async fn state(app: &Router, id: &str, token: Option<&str>) -> Value {
    let uri = match token {
        Some(t) => format!("/api/games/{id}?token={t}"),
        None => format!("/api/games/{id}"),
    };
    let (status, v) = call(app, "GET", &uri, None).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    v
}

/// A legal move from a state's `legal` list: the `k`-th placement, with a
/// follower on its first spot when `meeple` is set and one is allowed.
pub fn pick_move(state: &Value, k: usize, meeple: bool) -> Value {
    let legal = state["legal"].as_array().expect("legal moves for the player to move");
    let p = &legal[k % legal.len()];
    let mut mv = json!({ "version": state["version"], "tile": p["tile"], "at": p["at"], "rot": p["rot"] });
    if meeple {
        if let Some(s) = p["meeple"].as_array().and_then(|s| s.first()) {
            mv["meeple"] = s.clone();
        }
    }
    mv
}

/// A legal move that tries every kind of action along a game: the abbot,
/// a recall, a follower or nothing, by turn `k`.
pub fn varied_move(state: &Value, k: usize) -> Value {
    let legal = state["legal"].as_array().expect("legal moves for the player to move");
    let p = &legal[(k * 7) % legal.len()];
    let mut mv = json!({ "version": state["version"], "tile": p["tile"], "at": p["at"], "rot": p["rot"] });
    let first = |key: &str| p[key].as_array().and_then(|s| s.first()).cloned();
    if k % 3 == 0 {
        if let Some(s) = first("abbot") {
            mv["abbot"] = s;
            return mv;
        }
    }
    if k % 4 == 1 && p["recall"] == true {
        mv["recall"] = true.into();
        return mv;
    }
    if k % 2 == 0 {
        if let Some(s) = first("meeple") {
            mv["meeple"] = s;
        }
    }
    mv
}

pub async fn post_move(app: &Router, id: &str, token: &str, mv: &Value) -> (StatusCode, Value) {
    call(app, "POST", &format!("/api/games/{id}/moves?token={token}"), Some(&mv.to_string())).await
}

/// Polls the game until `done` holds (bots move on their own tasks), for up
/// to 30 s: a bound on the wait, not a speed check (the tests of one file
/// run at once, and a `normal` bot's search in a debug build can hold both
/// cores for seconds).
pub async fn wait_for(app: &Router, id: &str, token: Option<&str>, done: impl Fn(&Value) -> bool) -> Value {
    match wait_a_while(app, id, token, done).await {
        Some(s) => s,
        None => panic!("the game did not reach the expected state: {}", state(app, id, token).await),
    }
}

/// As [`wait_for`], but `None` after the 30 s (the caller says what it saw).
pub async fn wait_a_while(app: &Router, id: &str, token: Option<&str>, done: impl Fn(&Value) -> bool) -> Option<Value> {
    let until = std::time::Instant::now() + Duration::from_secs(30);
    while std::time::Instant::now() < until {
        let s = state(app, id, token).await;
        if done(&s) {
            return Some(s);
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    None
}

/// Each seat's score breakdown in a game's state (during play and final)
/// adds up to its score.
pub fn assert_breakdown_adds_up(state: &Value) {
    for (i, b) in state["breakdown"].as_array().unwrap().iter().enumerate() {
        let sum: u64 = ["during", "final"]
            .iter()
            .flat_map(|w| b[w].as_object().unwrap().values())
            .map(|v| v.as_u64().unwrap())
            .sum();
        assert_eq!(sum, state["players"][i]["score"].as_u64().unwrap(), "seat {i}'s breakdown");
    }
}

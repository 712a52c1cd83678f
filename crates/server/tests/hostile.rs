//! Hostile input: malformed and malicious requests over HTTP (the router,
//! `oneshot`) and over a real websocket (loopback TCP), mixed between the
//! legal moves of whole games. Every one is refused with its stable code,
//! leaves the game (its full state and its stored record) as it was, and the
//! server keeps serving. Cases come from proptest with a fixed seed.

mod common;

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use axum::http::StatusCode;
use axum::Router;
use carcassonne_server::{app, AppState, Config, Rate, Store, MAX_BODY, MAX_WS_MESSAGE};
use common::*;
use futures_util::{SinkExt, StreamExt};
use proptest::prelude::*;
use proptest::test_runner::{Config as PropConfig, RngAlgorithm, TestRng, TestRunner};
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::protocol::frame::coding::{Data, OpCode};
use tokio_tungstenite::tungstenite::protocol::frame::Frame;
use tokio_tungstenite::tungstenite::Message;

type Socket = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// How long any one answer may take before the test fails (not a speed check:
/// a bound so that a hung server fails the test instead of hanging it).
const PATIENCE: Duration = Duration::from_secs(20);

/// A server on a loopback port (so that websockets are real) and its router
/// for `oneshot` requests; both share one state and one store.
async fn start(config: Config) -> (Router, AppState, String) {
    let store: Store = Store::in_memory().unwrap();
    let state = AppState::new(store, config);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap().to_string();
    let served = app(state.clone()).into_make_service_with_connect_info::<SocketAddr>();
    tokio::spawn(async move { axum::serve(listener, served).await });
    (app(state.clone()), state, addr)
}

async fn connect(addr: &str, id: &str, token: Option<&str>) -> Result<Socket, String> {
    let url = match token {
        Some(t) => format!("ws://{addr}/api/games/{id}/ws?token={t}"),
        None => format!("ws://{addr}/api/games/{id}/ws"),
    };
    match tokio::time::timeout(PATIENCE, tokio_tungstenite::connect_async(url)).await.expect("connected in time") {
        Ok((mut ws, _)) => {
            let first = next_json(&mut ws).await.expect("a state on connecting");
            assert_eq!(first["type"], "state", "{first}");
            Ok(ws)
        }
        Err(e) => Err(e.to_string()),
    }
}

/// The next text message as JSON, or `None` once the socket is closed.
async fn next_json(ws: &mut Socket) -> Option<Value> {
    loop {
        let msg = tokio::time::timeout(PATIENCE, ws.next()).await.expect("a message in time");
        match msg {
            Some(Ok(Message::Text(t))) => return Some(serde_json::from_str(&t).expect("the server sends JSON")),
            Some(Ok(Message::Close(_))) | None | Some(Err(_)) => return None,
            Some(Ok(_)) => {}
        }
    }
}

/// Waits for the socket to close, skipping whatever comes before.
async fn closed(ws: &mut Socket) -> bool {
    let end = tokio::time::timeout(PATIENCE, async {
        loop {
            match ws.next().await {
                None | Some(Err(_)) | Some(Ok(Message::Close(_))) => return true,
                Some(Ok(_)) => {}
            }
        }
    });
    end.await.unwrap_or(false)
}

/// The websockets a test holds open on a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Role {
    Seat(usize),
    Spectator,
}

/// A game of two people with its tokens and open websockets.
struct Table {
    id: String,
    tokens: [String; 2],
    sockets: HashMap<Role, Socket>,
}

impl Table {
    async fn new(app: &Router, addr: &str) -> Table {
        let (id, tokens, _) = create(app, two_humans()).await;
        let tokens = [tokens[0].clone().unwrap(), tokens[1].clone().unwrap()];
        let mut t = Table { id, tokens, sockets: HashMap::new() };
        for role in [Role::Seat(0), Role::Seat(1), Role::Spectator] {
            t.reopen(addr, role).await;
        }
        t
    }

    fn both(&self) -> String {
        format!("{},{}", self.tokens[0], self.tokens[1])
    }

    async fn reopen(&mut self, addr: &str, role: Role) {
        let token = match role {
            Role::Seat(i) => Some(self.tokens[i].as_str()),
            Role::Spectator => None,
        };
        let ws = connect(addr, &self.id, token).await.expect("a socket for a seat");
        self.sockets.insert(role, ws);
    }

    /// Reads what each socket was sent since the last look (the states of
    /// moves and of others coming and going), so that replies are not mixed up.
    async fn drain(&mut self) {
        for ws in self.sockets.values_mut() {
            while let Ok(Some(Ok(_))) = tokio::time::timeout(Duration::from_millis(1), ws.next()).await {}
        }
    }
}

/// What must not change: the full state as a seated viewer sees it, and the
/// stored record (with its seats and the time of the last move).
async fn snapshot(app: &Router, store: &Store, id: &str, tokens: &str) -> (Value, String) {
    let s = state(app, id, Some(tokens)).await;
    let stored = store.games.load(id).await.unwrap().expect("the game is stored");
    let seats = serde_json::to_string(&stored.seats).unwrap();
    (s, format!("{}\n{}\n{}", stored.record.to_json(), seats, stored.updated_at))
}

/// The kinds of hostile request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    WrongToken,
    OtherGamesToken,
    Spectator,
    WrongSeat,
    StaleVersion,
    FutureVersion,
    Oversized,
    Garbage,
    InvalidUtf8,
    Binary,
    DeepNesting,
    WrongType,
    HugeNumber,
    UnknownTile,
    UnknownSpot,
    FarCoordinates,
    ExtraFields,
    Illegal,
    GameOver,
    NotFound,
}

const KINDS: [Kind; 20] = [
    Kind::WrongToken,
    Kind::OtherGamesToken,
    Kind::Spectator,
    Kind::WrongSeat,
    Kind::StaleVersion,
    Kind::FutureVersion,
    Kind::Oversized,
    Kind::Garbage,
    Kind::InvalidUtf8,
    Kind::Binary,
    Kind::DeepNesting,
    Kind::WrongType,
    Kind::HugeNumber,
    Kind::UnknownTile,
    Kind::UnknownSpot,
    Kind::FarCoordinates,
    Kind::ExtraFields,
    Kind::Illegal,
    Kind::GameOver,
    Kind::NotFound,
];

/// One generated case: a hostile request, sent over HTTP or the websocket,
/// then (maybe) a legal move.
#[derive(Clone, Debug)]
struct Case {
    kind: Kind,
    ws: bool,
    bytes: Vec<u8>,
    n: u64,
    i: i64,
    depth: usize,
    word: String,
    pick: usize,
    then_move: bool,
}

fn cases() -> impl Strategy<Value = Case> {
    (
        prop::sample::select(KINDS.to_vec()),
        any::<bool>(),
        prop::collection::vec(any::<u8>(), 0..300),
        any::<u64>(),
        any::<i64>(),
        200usize..5000,
        "[a-zA-Z0-9_]{1,12}",
        any::<usize>(),
        prop::bool::weighted(0.7),
    )
        .prop_map(|(kind, ws, bytes, n, i, depth, word, pick, then_move)| Case {
            kind,
            ws,
            bytes,
            n,
            i,
            depth,
            word,
            pick,
            then_move,
        })
}

/// Where a hostile request goes and what must come back.
#[derive(Debug)]
struct Attack {
    what: String,
    /// `None`: the game being played; `Some(id)`: another (finished, missing).
    game: Option<String>,
    /// The `?token=` of the request; over the websocket, which socket sends it.
    token: Option<String>,
    role: Role,
    body: Vec<u8>,
    /// Over the websocket: send as a binary frame / as a raw text frame.
    binary: bool,
    raw_text: bool,
    /// Over the websocket: refused when connecting (`Some(status)`).
    upgrade_refused: Option<u16>,
    /// The stable code, or `None` when the websocket is to be closed.
    code: Option<&'static str>,
}

/// A legal move for the player to move (`s` is their state).
fn legal(s: &Value, pick: usize) -> Value {
    pick_move(s, pick, pick % 2 == 0)
}

fn with(mv: &Value, key: &str, v: Value) -> Value {
    let mut m = mv.clone();
    m[key] = v;
    m
}

fn nested(depth: usize, open: &str, close: &str) -> String {
    format!("{}{}", open.repeat(depth), close.repeat(depth))
}

/// Builds the attack of `case` against the game whose state (seen by both
/// seats) is `s`.
fn attack(case: &Case, s: &Value, t: &Table, other_token: &str, over: &(String, String)) -> Attack {
    let to_move = s["turn"]["seat"].as_u64().unwrap() as usize;
    let version = s["version"].as_u64().unwrap();
    let good = legal(s, case.pick);
    let mover = t.tokens[to_move].clone();
    let mut a = Attack {
        what: format!("{:?}", case.kind),
        game: None,
        token: Some(mover),
        role: Role::Seat(to_move),
        body: Vec::new(),
        binary: false,
        raw_text: false,
        upgrade_refused: None,
        code: Some("bad_request"),
    };
    let text = |v: Value| v.to_string().into_bytes();
    match case.kind {
        Kind::WrongToken => {
            // Random hex of any length, or longer than any token.
            let len = 1 + (case.n % 200) as usize;
            let hex: String = case.bytes.iter().chain(&[7u8; 200]).map(|b| format!("{b:02x}")).collect();
            a.token = Some(hex[..len].to_string());
            a.body = text(good);
            a.upgrade_refused = Some(403);
            a.code = Some("unauthorized");
        }
        Kind::OtherGamesToken => {
            a.token = Some(other_token.to_string());
            a.body = text(good);
            a.upgrade_refused = Some(403);
            a.code = Some("unauthorized");
        }
        Kind::Spectator => {
            a.token = None;
            a.role = Role::Spectator;
            a.body = text(good);
            a.code = Some("unauthorized");
        }
        Kind::WrongSeat => {
            a.token = Some(t.tokens[1 - to_move].clone());
            a.role = Role::Seat(1 - to_move);
            a.body = text(good);
            a.code = Some("not_your_turn");
        }
        Kind::StaleVersion => {
            let v = if version == 0 { u64::MAX } else { version - 1 - case.n % version };
            a.body = text(with(&good, "version", v.into()));
            a.code = Some("stale_version");
        }
        Kind::FutureVersion => {
            let v = version + 1 + case.n % (u64::MAX - version - 1);
            a.body = text(with(&good, "version", v.into()));
            a.code = Some("stale_version");
        }
        Kind::Oversized => {
            // A legal move padded past the limit, or garbage past it.
            let limit = if case.ws { MAX_WS_MESSAGE } else { MAX_BODY };
            let pad = "x".repeat(limit + 1 + (case.n % 4096) as usize);
            a.body = if case.i % 2 == 0 {
                text(with(&good, "pad", pad.into()))
            } else {
                case.bytes.iter().copied().chain([b'x']).cycle().take(limit + 1 + case.depth).collect()
            };
            a.raw_text = case.i % 2 != 0;
            a.code = if case.ws { None } else { Some("too_large") };
        }
        Kind::Garbage => {
            a.body = case.bytes.clone();
            if case.ws {
                a.body = String::from_utf8_lossy(&case.bytes).into_owned().into_bytes();
            }
        }
        Kind::InvalidUtf8 => {
            // A move whose tile name is not UTF-8.
            let mut body = text(with(&good, "tile", "@@".into()));
            let at = body.windows(2).position(|w| w == b"@@").unwrap();
            body.splice(at..at + 2, [0xff, 0xfe, 0xc3].into_iter().chain(case.bytes.iter().copied().take(5)));
            a.body = body;
            a.raw_text = true;
            // Text frames must be UTF-8: the socket is closed.
            if case.ws {
                a.code = None;
            }
        }
        Kind::Binary => {
            // Over HTTP the body is bytes anyway: a binary frame is a
            // websocket matter. Over HTTP this is a legal move with a NUL
            // byte in front, which is not JSON.
            let mut m = with(&good, "type", "move".into()).to_string().into_bytes();
            if case.ws {
                a.binary = true;
            } else {
                m.insert(0, 0);
            }
            a.body = m;
        }
        Kind::DeepNesting => {
            let deep = if case.n % 2 == 0 {
                nested(case.depth, "[", "]")
            } else {
                nested((case.depth / 3).max(130), "{\"a\":", "}")
            };
            a.body = if case.i % 2 == 0 {
                deep.into_bytes()
            } else {
                // Deep nesting inside an extra field of a legal move.
                let m = good.to_string();
                format!("{},\"deep\":{deep}}}", &m[..m.len() - 1]).into_bytes()
            };
        }
        Kind::WrongType => {
            let wrong: [(&str, Value); 16] = [
                ("version", json!("0")),
                ("version", json!(-1)),
                ("version", json!(0.5)),
                ("version", json!(null)),
                ("tile", json!(5)),
                ("tile", json!(["A"])),
                ("at", json!("1,0")),
                ("at", json!([1])),
                ("at", json!([1, 0, 0])),
                ("at", json!([0.5, 0])),
                ("at", json!({ "x": 1, "y": 0 })),
                ("rot", json!("0")),
                ("rot", json!(-1)),
                ("meeple", json!(3)),
                ("recall", json!("yes")),
                ("abbot", json!({})),
            ];
            let (key, v) = &wrong[case.pick % wrong.len()];
            a.body = text(with(&good, key, v.clone()));
            a.what = format!("WrongType {key}={v}");
        }
        Kind::HugeNumber => {
            let huge: [(&str, Value); 6] = [
                ("version", serde_json::from_str("18446744073709551616").unwrap()),
                ("version", json!(1e300)),
                ("rot", json!(4 + case.n % 252)),
                ("rot", json!(256 + case.n % 1_000_000)),
                ("at", json!([(1u64 << 31) + case.n % (1 << 40), 0])),
                ("at", json!([0, -(1i64 << 31) - 1 - (case.i.unsigned_abs() % (1 << 40)) as i64])),
            ];
            let (key, v) = &huge[case.pick % huge.len()];
            a.body = text(with(&good, key, v.clone()));
            a.what = format!("HugeNumber {key}={v}");
        }
        Kind::UnknownTile => {
            let name = if carcassonne::TileId::from_name(&case.word).is_some() { "??" } else { &case.word };
            a.body = text(with(&good, "tile", name.into()));
        }
        Kind::UnknownSpot => {
            let spot = if case.word.parse::<carcassonne::Spot>().is_ok() { "??" } else { &case.word };
            let key = if case.n % 2 == 0 { "meeple" } else { "abbot" };
            let mut m = good.clone();
            m.as_object_mut().unwrap().retain(|k, _| k != "meeple");
            a.body = text(with(&m, key, spot.into()));
        }
        Kind::FarCoordinates => {
            // Within i32 but far from every tile (or at its very ends): illegal.
            let far = [
                [-1000 - (case.i.unsigned_abs() % 1_000_000_000) as i64, 0],
                [0, -1000 - (case.n % 1_000_000_000) as i64],
                [i32::MIN as i64, i32::MIN as i64],
                [i32::MAX as i64, i32::MAX as i64],
                [i32::MIN as i64, 0],
                [0, i32::MAX as i64],
            ];
            let at = far[case.pick % far.len()];
            a.body = text(with(&good, "at", json!(at)));
            a.what = format!("FarCoordinates {at:?}");
            a.code = Some("illegal_move");
        }
        Kind::ExtraFields => {
            // Unknown fields are ignored; what they ride on decides.
            let mut m = with(&good, "version", (version + 1).into());
            m[format!("x_{}", case.word).as_str()] = json!({ "x": case.n, "list": [1, 2, 3], "s": "…" });
            m["token"] = json!(t.tokens[to_move]);
            a.body = text(m);
            a.code = Some("stale_version");
        }
        Kind::Illegal => {
            // Onto the start tile, onto a cell it does not fit, or a tile
            // that is not in hand.
            let legal_list = s["legal"].as_array().unwrap();
            let mv = match case.n % 3 {
                0 => with(&good, "at", json!([0, 0])),
                1 => {
                    let fits: Vec<u64> = legal_list
                        .iter()
                        .filter(|p| p["tile"] == good["tile"] && p["at"] == good["at"])
                        .map(|p| p["rot"].as_u64().unwrap())
                        .collect();
                    match (0..4).find(|r| !fits.contains(r)) {
                        Some(r) => with(&good, "rot", r.into()),
                        None => with(&good, "at", json!([0, 0])),
                    }
                }
                _ => {
                    let other = ["A", "B", "C", "D", "E"].into_iter().find(|x| good["tile"] != *x).unwrap();
                    with(&good, "tile", other.into())
                }
            };
            let mut mv = mv;
            mv.as_object_mut().unwrap().retain(|k, _| k != "meeple");
            a.body = text(mv);
            a.code = Some("illegal_move");
        }
        Kind::GameOver => {
            a.game = Some(over.0.clone());
            a.token = Some(over.1.clone());
            a.body = text(json!({ "version": case.n % 100, "tile": "D", "at": [1, 0], "rot": 0 }));
            a.code = Some("game_over");
        }
        Kind::NotFound => {
            a.game = Some(format!("no{}", case.word));
            a.body = text(good);
            a.upgrade_refused = Some(404);
            a.code = Some("not_found");
        }
    }
    a
}

/// Sends `a` over HTTP; checks the status and the code.
async fn send_http(app: &Router, t: &Table, a: &Attack) {
    let id = a.game.as_deref().unwrap_or(&t.id);
    let uri = match &a.token {
        Some(tok) => format!("/api/games/{id}/moves?token={tok}"),
        None => format!("/api/games/{id}/moves"),
    };
    let (status, bytes) = call_raw(app, "POST", &uri, Some(a.body.clone())).await;
    let v: Value = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
    let code = a.code.expect("over HTTP every refusal has a code");
    assert_eq!(v["error"], code, "{}: {status} {v}", a.what);
    let want = match code {
        "bad_request" => StatusCode::BAD_REQUEST,
        "unauthorized" => StatusCode::FORBIDDEN,
        "not_found" => StatusCode::NOT_FOUND,
        "not_your_turn" | "stale_version" | "game_over" => StatusCode::CONFLICT,
        "too_large" => StatusCode::PAYLOAD_TOO_LARGE,
        "illegal_move" => StatusCode::UNPROCESSABLE_ENTITY,
        other => panic!("unexpected code {other}"),
    };
    assert_eq!(status, want, "{}: {v}", a.what);
    assert!(v["message"].as_str().is_some_and(|m| !m.is_empty()), "{}: {v}", a.what);
    if code == "illegal_move" {
        assert!(v["rule"].as_str().is_some_and(|r| !r.is_empty()), "{}: {v}", a.what);
    }
}

/// Sends `a` over the websocket; checks the error and the state after it, or
/// that the socket was closed (then opens another).
async fn send_ws(addr: &str, t: &mut Table, over_ws: &mut Socket, over: &(String, String), a: &Attack) {
    if let Some(status) = a.upgrade_refused {
        let id = a.game.as_deref().unwrap_or(&t.id);
        let err = connect(addr, id, a.token.as_deref()).await.expect_err("the upgrade is refused");
        assert!(err.contains(&status.to_string()), "{}: {err}", a.what);
        return;
    }
    let on_over = a.game.is_some();
    let ws = if on_over { &mut *over_ws } else { t.sockets.get_mut(&a.role).unwrap() };
    let msg = if a.binary {
        Message::Binary(a.body.clone().into())
    } else if a.raw_text {
        // Bypasses the client's UTF-8 check: the server must cope.
        Message::Frame(Frame::message(a.body.clone(), OpCode::Data(Data::Text), true))
    } else {
        let mut v: Value = serde_json::from_slice(&a.body).unwrap_or(Value::Null);
        if v.is_object() {
            v["type"] = "move".into();
            Message::Text(v.to_string().into())
        } else {
            Message::Text(String::from_utf8(a.body.clone()).unwrap().into())
        }
    };
    let sent = ws.send(msg).await;
    match a.code {
        None => {
            assert!(sent.is_err() || closed(ws).await, "{}: the socket should be closed", a.what);
            if on_over {
                *over_ws = connect(addr, &over.0, Some(&over.1)).await.unwrap();
            } else {
                t.reopen(addr, a.role).await;
            }
        }
        Some(code) => {
            sent.unwrap();
            let e = loop {
                let v = next_json(ws).await.unwrap_or_else(|| panic!("{}: the socket stays open", a.what));
                if v["type"] == "error" {
                    break v;
                }
            };
            assert_eq!(e["error"], code, "{}: {e}", a.what);
            if code == "illegal_move" {
                assert!(e["rule"].as_str().is_some_and(|r| !r.is_empty()), "{}: {e}", a.what);
            }
            // The refusal comes alone (it costs the server next to nothing);
            // the state follows only when asked for.
            let more = tokio::time::timeout(Duration::from_millis(100), next_json(ws)).await;
            assert!(more.is_err(), "{}: a message followed the refusal: {more:?}", a.what);
            ws.send(Message::Text(json!({ "type": "sync" }).to_string().into())).await.unwrap();
            let after = next_json(ws).await.expect("the state, asked for");
            assert_eq!(after["type"], "state", "{}: {after}", a.what);
        }
    }
}

/// Plays a whole game, and the start of another, with a hostile request
/// before each legal move (or several between two): proptest draws them,
/// from a fixed seed.
#[test]
fn hostile_requests_between_legal_moves_are_refused_and_change_nothing() {
    let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    let (app, server, addr) = rt.block_on(start(Config::quick()));
    let store = server.store().clone();
    let setup = rt.block_on(async {
        // Another game (for its token), and a finished one.
        let (_, other, _) = create(&app, two_humans()).await;
        let other_token = other[0].clone().unwrap();
        let (over_id, over_tokens, _) = create(&app, two_humans()).await;
        let both = format!("{},{}", over_tokens[0].as_ref().unwrap(), over_tokens[1].as_ref().unwrap());
        for k in 0.. {
            let s = state(&app, &over_id, Some(&both)).await;
            if s["status"] == "finished" {
                break;
            }
            let seat = s["turn"]["seat"].as_u64().unwrap() as usize;
            let (status, v) =
                post_move(&app, &over_id, over_tokens[seat].as_ref().unwrap(), &pick_move(&s, k, false)).await;
            assert_eq!(status, StatusCode::OK, "{v}");
        }
        let over = (over_id, over_tokens[0].clone().unwrap());
        let over_ws = connect(&addr, &over.0, Some(&over.1)).await.unwrap();
        let table = Table::new(&app, &addr).await;
        (other_token, over, Mutex::new((table, over_ws, Vec::<Value>::new(), 0usize)))
    });
    let (other_token, over, shared) = setup;

    let config = PropConfig { cases: 180, failure_persistence: None, max_shrink_iters: 0, ..PropConfig::default() };
    let mut runner = TestRunner::new_with_rng(config, TestRng::from_seed(RngAlgorithm::ChaCha, &[42; 32]));
    let result = runner.run(&cases(), |case| {
        let mut guard = shared.lock().unwrap_or_else(|e| e.into_inner());
        let (table, over_ws, played, finished) = &mut *guard;
        rt.block_on(async {
            table.drain().await;
            let both = table.both();
            let (before, stored_before) = snapshot(&app, &store, &table.id, &both).await;
            let (over_before, over_stored) = snapshot(&app, &store, &over.0, &over.1).await;
            let a = attack(&case, &before, table, &other_token, &over);
            if case.ws {
                send_ws(&addr, table, over_ws, &over, &a).await;
            } else {
                send_http(&app, table, &a).await;
            }
            let (after, stored_after) = snapshot(&app, &store, &table.id, &both).await;
            assert_eq!(after, before, "{}: the state changed", a.what);
            assert_eq!(stored_after, stored_before, "{}: the stored game changed", a.what);
            assert_eq!(snapshot(&app, &store, &over.0, &over.1).await, (over_before, over_stored), "{}", a.what);

            if case.then_move {
                // A legal move still plays, over HTTP or the websocket.
                let seat = before["turn"]["seat"].as_u64().unwrap() as usize;
                let mv = legal(&before, case.pick);
                if case.ws {
                    let ws = table.sockets.get_mut(&Role::Seat(seat)).unwrap();
                    ws.send(Message::Text(with(&mv, "type", "move".into()).to_string().into())).await.unwrap();
                    let want = before["version"].as_u64().unwrap() + 1;
                    loop {
                        let v = next_json(ws).await.expect("the socket stays open");
                        assert_ne!(v["type"], "error", "{v}");
                        if v["state"]["version"] == want {
                            break;
                        }
                    }
                } else {
                    let (status, v) = post_move(&app, &table.id, &table.tokens[seat], &mv).await;
                    assert_eq!(status, StatusCode::OK, "{v}");
                }
                let mut stored = mv.clone();
                stored.as_object_mut().unwrap().remove("version");
                played.push(stored);
                let now = state(&app, &table.id, Some(&both)).await;
                assert_eq!(now["version"], before["version"].as_u64().unwrap() + 1);
                if now["status"] == "finished" {
                    // Every acknowledged move is stored, in order, and the
                    // record replays to the scores shown.
                    let record = store.games.load(&table.id).await.unwrap().unwrap().record;
                    let moves: Vec<Value> = record.moves.iter().map(|m| serde_json::to_value(m).unwrap()).collect();
                    assert_eq!(&moves, played);
                    let (status, bytes) = call_raw(&app, "GET", &format!("/api/games/{}/record", table.id), None).await;
                    assert_eq!(status, StatusCode::OK);
                    let game = carcassonne::record::Record::from_json(std::str::from_utf8(&bytes).unwrap())
                        .unwrap()
                        .replay()
                        .unwrap();
                    let scores: Vec<Value> =
                        now["players"].as_array().unwrap().iter().map(|p| p["score"].clone()).collect();
                    assert_eq!(json!(game.scores()), json!(scores));
                    *finished += 1;
                    played.clear();
                    *table = Table::new(&app, &addr).await;
                }
            }
        });
        Ok(())
    });
    result.unwrap();
    let finished = shared.lock().unwrap().3;
    assert!(finished >= 1, "at least one whole game was played between the hostile requests");
    // Still serving.
    let (status, _) = rt.block_on(call(&app, "GET", "/api/health", None));
    assert_eq!(status, StatusCode::OK);
}

/// Past its burst, a client gets `rate_limited` (429) and changes nothing;
/// once the bucket refills it plays again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_burst_of_requests_is_rate_limited_and_changes_nothing() {
    let rate = Rate { per_second: 5, burst: 10 };
    let (app, server, _) = start(Config { http_rate: Some(rate), ..Config::quick() }).await;
    let store = server.store().clone();
    let (id, tokens, first) = create(&app, two_humans()).await;
    let t0 = tokens[0].clone().unwrap();
    let stored_before = store.games.load(&id).await.unwrap().unwrap();

    let started = Instant::now();
    let mut ok = 1; // the game's creation
    let mut limited = 0;
    for _ in 0..40 {
        let (status, v) = call(&app, "GET", "/api/health", None).await;
        match status {
            StatusCode::OK => ok += 1,
            StatusCode::TOO_MANY_REQUESTS => {
                assert_eq!(v["error"], "rate_limited", "{v}");
                limited += 1;
            }
            other => panic!("unexpected {other}: {v}"),
        }
    }
    // A legal move while limited is refused and not played.
    let (status, v) = post_move(&app, &id, &t0, &pick_move(&first, 0, false)).await;
    let elapsed = started.elapsed().as_secs_f64();
    assert!(limited > 0, "nothing was limited");
    // The bucket lets through the burst plus what refilled meanwhile.
    let allowed = rate.burst as f64 + elapsed * rate.per_second as f64 + 1.0;
    assert!((ok as f64) <= allowed, "{ok} requests passed, at most {allowed} may");
    if status == StatusCode::TOO_MANY_REQUESTS {
        assert_eq!(v["error"], "rate_limited");
        let after = store.games.load(&id).await.unwrap().unwrap();
        assert_eq!(after.record.to_json(), stored_before.record.to_json());
        assert_eq!(after.updated_at, stored_before.updated_at);
        assert!(after.record.moves.is_empty());
    }
    // The UI's files are not limited.
    let (status, _) = call_raw(&app, "GET", "/", None).await;
    assert_eq!(status, StatusCode::OK);

    // Refilled: the move plays.
    tokio::time::sleep(Duration::from_millis(1200)).await;
    let s = state(&app, &id, Some(&t0)).await;
    if s["version"] == 0 {
        let (status, v) = post_move(&app, &id, &t0, &pick_move(&s, 0, false)).await;
        assert_eq!(status, StatusCode::OK, "{v}");
    }
    assert_eq!(store.games.load(&id).await.unwrap().unwrap().record.moves.len(), 1);
}

/// A socket flooding messages past its rate gets `rate_limited` errors, its
/// moves are not played meanwhile, and it stays open.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flooding_websocket_is_rate_limited_and_stays_open() {
    let rate = Rate { per_second: 2, burst: 5 };
    let (app, server, addr) = start(Config { ws_rate: Some(rate), ..Config::quick() }).await;
    let store = server.store().clone();
    let (id, tokens, first) = create(&app, two_humans()).await;
    let t0 = tokens[0].clone().unwrap();
    let mut ws = connect(&addr, &id, Some(&t0)).await.unwrap();

    let flood = 30;
    let started = Instant::now();
    for _ in 0..flood {
        ws.send(Message::Text(json!({ "type": "sync" }).to_string().into())).await.unwrap();
    }
    // While limited, a legal move is refused too.
    let mut mv = pick_move(&first, 0, false);
    mv["type"] = "move".into();
    ws.send(Message::Text(mv.to_string().into())).await.unwrap();
    // Every message is answered once: a state, or the refusal alone (the
    // move, if it passed, by the state of the game it changed).
    let (mut states, mut limited) = (0, 0);
    while states + limited < flood + 1 {
        let v = next_json(&mut ws).await.expect("the socket stays open");
        match v["type"].as_str() {
            Some("state") => states += 1,
            Some("error") => {
                assert_eq!(v["error"], "rate_limited", "{v}");
                limited += 1;
            }
            _ => panic!("{v}"),
        }
    }
    // The bucket lets through the burst plus what refilled meanwhile.
    let passed = (flood + 1 - limited) as f64;
    let allowed = rate.burst as f64 + started.elapsed().as_secs_f64() * rate.per_second as f64 + 1.0;
    assert!(limited > 0 && passed <= allowed, "{passed} messages passed, at most {allowed} may");
    let stored = store.games.load(&id).await.unwrap().unwrap();
    let played = stored.record.moves.len();
    // The move was either among the first few (allowed) or refused; over
    // this flood it is refused unless the bucket refilled.
    assert!(played <= 1);

    // Still open: once refilled, it syncs and plays.
    tokio::time::sleep(Duration::from_millis(3000)).await;
    ws.send(Message::Text(json!({ "type": "sync" }).to_string().into())).await.unwrap();
    let v = next_json(&mut ws).await.expect("the socket stays open");
    assert_eq!(v["type"], "state", "{v}");
    if played == 0 {
        ws.send(Message::Text(mv.to_string().into())).await.unwrap();
        loop {
            let v = next_json(&mut ws).await.expect("the socket stays open");
            assert_ne!(v["type"], "error", "{v}");
            if v["state"]["version"] == 1 {
                break;
            }
        }
    }
    assert_eq!(store.games.load(&id).await.unwrap().unwrap().record.moves.len(), 1);
}

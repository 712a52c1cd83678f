//! A real server on a real socket: a whole game against a bot over the
//! websocket, with refusals along the way.

mod common;

use std::time::Duration;

use carcassonne_server::{serve_on, AppState, Config, Store};
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::Message;

type Socket = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

async fn start_server() -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let state = AppState::new(Store::in_memory().unwrap(), Config::quick());
    tokio::spawn(serve_on(listener, state));
    addr.to_string()
}

/// Nothing else arrives for a while (a refusal comes alone).
async fn nothing_more(ws: &mut Socket) {
    let next = tokio::time::timeout(Duration::from_millis(150), ws.next()).await;
    assert!(next.is_err(), "a message followed the refusal: {next:?}");
}

/// A tiny HTTP/1.1 client: enough for the tests' JSON requests.
async fn http(addr: &str, method: &str, path: &str, body: &str) -> (u16, Value) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).await.unwrap();
    let mut out = Vec::new();
    s.read_to_end(&mut out).await.unwrap();
    let text = String::from_utf8_lossy(&out);
    let status: u16 = text.split_whitespace().nth(1).unwrap().parse().unwrap();
    let body = text.split("\r\n\r\n").nth(1).unwrap_or("");
    // Chunked bodies: take the JSON between the first '{' and the last '}'.
    let json = match (body.find('{'), body.rfind('}')) {
        (Some(a), Some(b)) => &body[a..=b],
        _ => "null",
    };
    (status, serde_json::from_str(json).unwrap_or(Value::Null))
}

async fn next_json(ws: &mut Socket) -> Value {
    loop {
        let msg = tokio::time::timeout(Duration::from_secs(10), ws.next()).await.expect("a message in time");
        match msg.expect("the socket stays open").unwrap() {
            Message::Text(t) => {
                // Whatever a socket carries, it never names the bag, its
                // seed or a seat's secret.
                for secret in ["\"deck\"", "\"seed\"", "live_seed", "token"] {
                    assert!(!t.contains(secret), "a websocket message holds {secret}: {t}");
                }
                return serde_json::from_str(&t).unwrap();
            }
            Message::Close(_) => panic!("closed"),
            _ => {}
        }
    }
}

/// The next state message, skipping others; errors are returned too.
async fn next_state(ws: &mut Socket) -> Value {
    loop {
        let v = next_json(ws).await;
        if v["type"] == "state" {
            return v["state"].clone();
        }
    }
}

async fn send(ws: &mut Socket, v: &Value) {
    ws.send(Message::Text(v.to_string().into())).await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_whole_game_against_a_bot_over_the_websocket() {
    let addr = start_server().await;
    let (status, created) = http(
        &addr,
        "POST",
        "/api/games",
        &json!({ "seats": [ { "kind": "human", "name": "Ada" }, { "kind": "bot", "level": "normal" } ] }).to_string(),
    )
    .await;
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().unwrap();
    let token = created["tokens"][0]["token"].as_str().unwrap();

    let (mut ws, _) =
        tokio_tungstenite::connect_async(format!("ws://{addr}/api/games/{id}/ws?token={token}")).await.unwrap();
    let (mut spectator, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/api/games/{id}/ws")).await.unwrap();
    let mut s = next_state(&mut ws).await;
    assert_eq!(s["you"], json!([0]));
    assert!(next_state(&mut spectator).await["legal"].is_null());

    // Malformed messages are refused, the refusal alone; the state asked
    // for after it is unchanged.
    for (bad, code) in [
        ("{oops".to_string(), "bad_request"),
        (json!({ "type": "dance" }).to_string(), "bad_request"),
        (json!({ "no": "type" }).to_string(), "bad_request"),
        (json!({ "type": "move", "version": 0 }).to_string(), "bad_request"),
        (json!({ "type": "move", "version": 9, "tile": "A", "at": [1, 0], "rot": 0 }).to_string(), "stale_version"),
        (
            json!({ "type": "move", "version": 0, "tile": s["turn"]["tiles"][0], "at": [0, 0], "rot": 0 }).to_string(),
            "illegal_move",
        ),
    ] {
        ws.send(Message::Text(bad.into())).await.unwrap();
        let e = next_json(&mut ws).await;
        assert_eq!(e["type"], "error");
        assert_eq!(e["error"], code, "{e}");
        nothing_more(&mut ws).await;
        send(&mut ws, &json!({ "type": "sync" })).await;
        let after = next_state(&mut ws).await;
        assert_eq!(after["version"], s["version"]);
        assert_eq!(after["board"], s["board"]);
    }
    // A binary frame is refused too.
    ws.send(Message::Binary(vec![1, 2, 3].into())).await.unwrap();
    assert_eq!(next_json(&mut ws).await["error"], "bad_request");
    send(&mut ws, &json!({ "type": "sync" })).await;
    s = next_state(&mut ws).await;

    // A spectator cannot move.
    let mut mv = common::pick_move(&s, 0, false);
    mv["type"] = "move".into();
    send(&mut spectator, &mv).await;
    let e = next_json(&mut spectator).await;
    assert_eq!(e["error"], "unauthorized", "{e}");

    // Play to the end; the bot answers each move, and while it thinks a
    // move of ours is not our turn.
    let mut turns = 0;
    while s["status"] != "finished" {
        if s["turn"]["seat"] == 0 && !s["legal"].is_null() {
            let mut mv = common::pick_move(&s, turns * 5, turns % 2 == 1);
            mv["type"] = "move".into();
            send(&mut ws, &mv).await;
            turns += 1;
        } else if s["turn"]["seat"] == 1 {
            // Our tile is not drawn yet: whatever we send is refused.
            let probe = json!({ "type": "move", "version": s["version"], "tile": "A", "at": [1, 0], "rot": 0 });
            send(&mut ws, &probe).await;
            loop {
                let v = next_json(&mut ws).await;
                if v["type"] == "error" {
                    // Either the bot was still to move, or it has moved already.
                    let code = v["error"].as_str().unwrap();
                    assert!(["not_your_turn", "stale_version", "game_over"].contains(&code), "{v}");
                    // The state as it is now (the bot's move may have come before the refusal).
                    send(&mut ws, &json!({ "type": "sync" })).await;
                    break;
                }
            }
        }
        s = next_state(&mut ws).await;
    }
    assert!(turns > 30);
    assert_eq!(s["players"][0]["score"], s["score_history"].as_array().unwrap().last().unwrap()[0]);
    // The spectator saw the end as well.
    let mut last = next_state(&mut spectator).await;
    while last["status"] != "finished" {
        last = next_state(&mut spectator).await;
    }
    assert_eq!(last["players"], {
        let mut p = s["players"].clone();
        p[0]["you"] = false.into();
        p
    });
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_websocket_for_an_unknown_game_or_token_is_refused() {
    let addr = start_server().await;
    let err = tokio_tungstenite::connect_async(format!("ws://{addr}/api/games/nosuchgame/ws")).await.unwrap_err();
    assert!(err.to_string().contains("404"), "{err}");
    let (_, created) = http(&addr, "POST", "/api/games", &common::two_humans().to_string()).await;
    let id = created["id"].as_str().unwrap();
    let err = tokio_tungstenite::connect_async(format!("ws://{addr}/api/games/{id}/ws?token=bad")).await.unwrap_err();
    assert!(err.to_string().contains("403"), "{err}");
    // An oversized message closes the socket instead of being read.
    let token = created["tokens"][0]["token"].as_str().unwrap();
    let (mut ws, _) =
        tokio_tungstenite::connect_async(format!("ws://{addr}/api/games/{id}/ws?token={token}")).await.unwrap();
    next_state(&mut ws).await;
    let _ = ws.send(Message::Text("x".repeat(carcassonne_server::MAX_WS_MESSAGE * 2).into())).await;
    let end = tokio::time::timeout(Duration::from_secs(5), async {
        loop {
            match ws.next().await {
                None | Some(Err(_)) | Some(Ok(Message::Close(_))) => return true,
                _ => {}
            }
        }
    })
    .await;
    assert_eq!(end.ok(), Some(true));
    // The server is still up.
    let (status, _) = http(&addr, "GET", "/api/health", "").await;
    assert_eq!(status, 200);
}

/// The seats' presence in the state of `ws`'s next message that satisfies `done`.
async fn state_where(ws: &mut Socket, done: impl Fn(&Value) -> bool) -> Value {
    loop {
        let s = next_state(ws).await;
        if done(&s) {
            return s;
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_invited_friend_joins_by_link_and_everyone_sees_who_is_here() {
    let addr = start_server().await;
    let form = json!({ "seats": [ { "kind": "human", "name": "Ada" }, { "kind": "remote", "name": "Bob" } ] });
    let (status, created) = http(&addr, "POST", "/api/games", &form.to_string()).await;
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().unwrap();
    assert_eq!(created["tokens"][1]["remote"], true);
    assert_eq!(created["state"]["you"], json!([0]), "the creator does not play the invited seat");
    let ada = created["tokens"][0]["token"].as_str().unwrap();
    let bob = created["tokens"][1]["token"].as_str().unwrap();

    let online = |s: &Value| (s["players"][0]["online"].clone(), s["players"][1]["online"].clone());
    let (mut a, _) =
        tokio_tungstenite::connect_async(format!("ws://{addr}/api/games/{id}/ws?token={ada}")).await.unwrap();
    let s = state_where(&mut a, |s| s["players"][0]["online"] == true).await;
    assert_eq!(online(&s), (json!(true), json!(false)));
    assert_eq!(s["players"][1]["remote"], true);

    // Bob opens his link: Ada sees him arrive; a spectator changes nothing.
    let (mut b, _) =
        tokio_tungstenite::connect_async(format!("ws://{addr}/api/games/{id}/ws?token={bob}")).await.unwrap();
    let (mut watcher, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/api/games/{id}/ws")).await.unwrap();
    let s = state_where(&mut a, |s| s["players"][1]["online"] == true).await;
    assert_eq!(online(&s), (json!(true), json!(true)));
    let sb = state_where(&mut b, |s| s["players"][1]["online"] == true).await;
    assert_eq!(sb["you"], json!([1]));
    let sw = next_state(&mut watcher).await;
    assert_eq!(sw["you"], json!([]));

    // They take turns over their own sockets (the first player is seat 0).
    assert_eq!(s["turn"]["seat"], 0);
    let mut mv = common::pick_move(&s, 0, false);
    mv["type"] = "move".into();
    send(&mut a, &mv).await;
    let s = state_where(&mut b, |s| s["version"] == 1 && !s["legal"].is_null()).await;
    let mut mv = common::pick_move(&s, 1, false);
    mv["type"] = "move".into();
    send(&mut b, &mv).await;
    state_where(&mut watcher, |s| s["version"] == 2).await;

    // Bob leaves: Ada sees him go.
    b.close(None).await.unwrap();
    drop(b);
    let s = state_where(&mut a, |s| s["players"][1]["online"] == false).await;
    assert_eq!(s["version"], 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flood_of_websocket_messages_is_slowed_down_not_served() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap().to_string();
    let config = Config { ws_rate: Some(carcassonne_server::Rate { per_second: 1, burst: 3 }), ..Config::quick() };
    tokio::spawn(serve_on(listener, AppState::new(Store::in_memory().unwrap(), config)));
    let (_, created) = http(&addr, "POST", "/api/games", &common::two_humans().to_string()).await;
    let id = created["id"].as_str().unwrap();
    let (mut ws, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/api/games/{id}/ws")).await.unwrap();
    next_state(&mut ws).await;
    for _ in 0..10 {
        send(&mut ws, &json!({ "type": "sync" })).await;
    }
    // Each message is answered once: a state, or the refusal alone.
    let mut limited = 0;
    let mut states = 0;
    while states + limited < 10 {
        let v = next_json(&mut ws).await;
        match v["type"].as_str() {
            Some("state") => states += 1,
            Some("error") => {
                assert_eq!(v["error"], "rate_limited", "{v}");
                limited += 1;
            }
            _ => panic!("unexpected {v}"),
        }
    }
    assert!(limited >= 6, "{limited} of 10 were limited");
    // The socket is still open and answers once the rate allows.
    tokio::time::sleep(Duration::from_millis(1100)).await;
    send(&mut ws, &json!({ "type": "sync" })).await;
    assert_eq!(next_json(&mut ws).await["type"], "state");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_socket_that_went_silent_is_let_go() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap().to_string();
    let config = Config { ws_ping: Duration::from_millis(100), ..Config::quick() };
    tokio::spawn(serve_on(listener, AppState::new(Store::in_memory().unwrap(), config)));
    let form = json!({ "seats": [ { "kind": "human", "name": "Ada" }, { "kind": "remote", "name": "Bob" } ] });
    let (_, created) = http(&addr, "POST", "/api/games", &form.to_string()).await;
    let id = created["id"].as_str().unwrap();
    let ada = created["tokens"][0]["token"].as_str().unwrap();
    let bob = created["tokens"][1]["token"].as_str().unwrap();
    let (mut a, _) =
        tokio_tungstenite::connect_async(format!("ws://{addr}/api/games/{id}/ws?token={ada}")).await.unwrap();
    // Bob's device connects and then never reads again (so never answers a ping).
    let (_bob_asleep, _) =
        tokio_tungstenite::connect_async(format!("ws://{addr}/api/games/{id}/ws?token={bob}")).await.unwrap();
    state_where(&mut a, |s| s["players"][1]["online"] == true).await;
    // Ada keeps reading (tungstenite answers her pings); Bob goes offline.
    let s = state_where(&mut a, |s| s["players"][1]["online"] == false).await;
    assert_eq!(s["players"][0]["online"], true);
}

/// A protocol 2 update applied as a client does (docs/web.md): `None` when
/// it does not follow from the state at `rev`.
fn apply_update(state: &Value, rev: u64, msg: &Value) -> Option<Value> {
    if msg["base"].as_u64() != Some(rev) {
        return None;
    }
    let mut next = state.as_object().unwrap().clone();
    for (k, v) in msg["changes"].as_object().into_iter().flatten() {
        next.insert(k.clone(), v.clone());
    }
    for (k, items) in msg["append"].as_object().into_iter().flatten() {
        let list = next.entry(k.clone()).or_insert_with(|| json!([]));
        list.as_array_mut().unwrap().extend(items.as_array().unwrap().iter().cloned());
    }
    Some(Value::Object(next))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn protocol_2_sends_the_state_once_then_only_what_changed() {
    let addr = start_server().await;
    let body = json!({ "seats": [ { "kind": "human", "name": "Ada" }, { "kind": "bot", "level": "easy" } ] });
    let (status, created) = http(&addr, "POST", "/api/games", &body.to_string()).await;
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    let token = created["tokens"][0]["token"].as_str().unwrap().to_string();

    // Ada speaks protocol 2; a spectator on each protocol watches.
    let url = |q: &str| format!("ws://{addr}/api/games/{id}/ws?{q}");
    let (mut ada, _) = tokio_tungstenite::connect_async(url(&format!("protocol=2&token={token}"))).await.unwrap();
    let (mut v1, _) = tokio_tungstenite::connect_async(url("protocol=1")).await.unwrap();
    let (mut v2, _) = tokio_tungstenite::connect_async(url("protocol=2")).await.unwrap();
    let (status, _) = http(&addr, "GET", &format!("/api/games/{id}/ws?protocol=3"), "").await;
    assert_eq!(status, 400, "an unknown protocol is refused");

    let first = next_json(&mut ada).await;
    assert_eq!((first["type"].as_str(), first["protocol"].as_u64()), (Some("state"), Some(2)), "{first}");
    let (mut state, mut rev) = (first["state"].clone(), first["rev"].as_u64().unwrap());
    let mut k = 0;
    // Ada plays whenever her moves come; the game runs to its end.
    let mut played = None;
    while state["status"] != "finished" {
        if state["legal"].as_array().is_some_and(|l| !l.is_empty()) && played != Some(state["version"].clone()) {
            let mut mv = common::pick_move(&state, k, k % 2 == 0);
            mv["type"] = "move".into();
            ada.send(Message::Text(mv.to_string().into())).await.unwrap();
            played = Some(state["version"].clone());
            k += 1;
        }
        let msg = next_json(&mut ada).await;
        assert_eq!(msg["type"], "update", "after the first state, only updates: {msg}");
        assert!(msg.get("state").is_none());
        state = apply_update(&state, rev, &msg).unwrap_or_else(|| panic!("at {rev}, an update from elsewhere: {msg}"));
        rev = msg["rev"].as_u64().unwrap();
        assert_eq!(msg["version"], state["version"]);
    }
    // What Ada's page rebuilt is what the server shows her.
    let (_, shown) = http(&addr, "GET", &format!("/api/games/{id}?token={token}"), "").await;
    assert_eq!(state, shown, "the state rebuilt from updates is the server's");

    // The spectators: the same end, for a fraction of the bytes, each event once.
    let (mut bytes1, mut bytes2) = (0usize, 0usize);
    let mut end1 = Value::Null;
    while end1["status"] != "finished" {
        let msg = tokio::time::timeout(Duration::from_secs(10), v1.next()).await.unwrap().unwrap().unwrap();
        if let Message::Text(t) = msg {
            bytes1 += t.len();
            end1 = serde_json::from_str::<Value>(&t).unwrap()["state"].clone();
        }
    }
    let mut spectator = Value::Null;
    let mut srev = 0;
    let mut events_sent = 0;
    while spectator["status"] != "finished" {
        let msg = tokio::time::timeout(Duration::from_secs(10), v2.next()).await.unwrap().unwrap().unwrap();
        let Message::Text(t) = msg else { continue };
        bytes2 += t.len();
        let msg: Value = serde_json::from_str(&t).unwrap();
        if msg["type"] == "state" {
            spectator = msg["state"].clone();
            events_sent += spectator["log"].as_array().unwrap().len();
        } else {
            events_sent += msg["append"]["log"].as_array().map_or(0, Vec::len);
            spectator = apply_update(&spectator, srev, &msg).expect("each update follows the one before");
        }
        srev = msg["rev"].as_u64().unwrap();
    }
    assert_eq!(spectator, end1, "protocol 2 rebuilds what protocol 1 sends");
    assert_eq!(events_sent, end1["log"].as_array().unwrap().len(), "each event is sent once");
    eprintln!("a whole game to a spectator: protocol 1 {bytes1} bytes, protocol 2 {bytes2} bytes");
    assert!(bytes2 * 5 < bytes1, "protocol 2 sends far less: {bytes2} against {bytes1}");

    // `sync` answers with the whole state at the current revision.
    v2.send(Message::Text(json!({ "type": "sync" }).to_string().into())).await.unwrap();
    let again = next_json(&mut v2).await;
    assert_eq!(again["type"], "state");
    assert_eq!(again["state"], end1);
}

/// A takeback over the websocket (`takeback`; against a bot, granted at
/// once): a protocol-2 socket gets the whole state again (the lists
/// shrank), equal to the server's; an answer with nothing asked is refused
/// alone.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_takeback_sends_protocol_2_the_whole_state_again() {
    let addr = start_server().await;
    let body = json!({ "seats": [ { "kind": "human", "name": "Ada" }, { "kind": "bot", "level": "random" } ] });
    let (status, created) = http(&addr, "POST", "/api/games", &body.to_string()).await;
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    let token = created["tokens"][0]["token"].as_str().unwrap().to_string();
    let url = |q: &str| format!("ws://{addr}/api/games/{id}/ws?{q}");
    let (mut ada, _) = tokio_tungstenite::connect_async(url(&format!("protocol=2&token={token}"))).await.unwrap();
    let (mut watcher, _) = tokio_tungstenite::connect_async(url("protocol=2")).await.unwrap();
    let first = next_json(&mut ada).await;
    let (mut state, mut rev) = (first["state"].clone(), first["rev"].as_u64().unwrap());
    // Ada's turn (the bot may begin).
    while !state["legal"].is_array() {
        let msg = next_json(&mut ada).await;
        state = apply_update(&state, rev, &msg).expect("an update");
        rev = msg["rev"].as_u64().unwrap();
    }
    let before = state.clone();
    let mut mv = common::pick_move(&state, 1, true);
    mv["type"] = "move".into();
    send(&mut ada, &mv).await;
    let v = before["version"].as_u64().unwrap();
    while state["version"].as_u64() != Some(v + 2) {
        let msg = next_json(&mut ada).await;
        assert_eq!(msg["type"], "update", "{msg}");
        state = apply_update(&state, rev, &msg).expect("an update");
        rev = msg["rev"].as_u64().unwrap();
    }
    send(&mut ada, &json!({ "type": "takeback" })).await;
    let msg = loop {
        let msg = next_json(&mut ada).await;
        if msg["type"] == "state" {
            break msg;
        }
        assert_eq!(msg["type"], "update", "{msg}");
        assert!(msg["version"].as_u64() >= Some(v + 2), "no update goes back: {msg}");
    };
    let back = &msg["state"];
    assert_eq!(back["version"], v, "{back}");
    assert_eq!(back["takeback"]["status"], "granted", "{back}");
    assert_eq!(back["board"], before["board"]);
    assert_eq!(back["legal"], before["legal"]);
    let (_, shown) = http(&addr, "GET", &format!("/api/games/{id}?token={token}"), "").await;
    assert_eq!(back, &shown, "the whole state, as the server shows it");
    // The spectator's socket too comes back whole.
    let seen = loop {
        let msg = next_json(&mut watcher).await;
        if msg["type"] == "state" && msg["state"]["takeback"]["status"] == "granted" {
            break msg["state"].clone();
        }
    };
    assert_eq!(seen["board"], before["board"]);
    send(&mut ada, &json!({ "type": "takeback_answer", "accept": true })).await;
    let refused = next_json(&mut ada).await;
    assert_eq!((refused["type"].as_str(), refused["error"].as_str()), (Some("error"), Some("no_takeback_asked")));
}

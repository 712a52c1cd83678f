//! A crowd at the connection cap: half-sent requests and idle spectators'
//! websockets from many addresses (127.0.0.0/8 is all loopback on Linux)
//! give way to a newcomer, so that health and a player's move still answer
//! (listen.rs). A reduced form of issue 26's attack (a cap of 40, not the
//! file limit); `full_crowd` is the full one, against a server of its own.

mod common;

use std::net::SocketAddr;
use std::time::Duration;

use carcassonne_server::{serve_until, AppState, Config, Store};
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;

type Socket = tokio_tungstenite::WebSocketStream<TcpStream>;

/// A bound on every wait (not a speed check).
const PATIENCE: Duration = Duration::from_secs(20);

/// A server on a port of its own with a cap of `cap` connections in all,
/// whose header timeout is far longer than the test: only displacement can
/// free a place.
async fn start(cap: usize) -> SocketAddr {
    start_with(Config { max_connections: cap, ..Config::quick() }).await.0
}

/// A server of `config` (its header timeout far longer than the test).
async fn start_with(config: Config) -> (SocketAddr, AppState) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let config = Config { header_timeout: Duration::from_secs(600), ..config };
    let state = AppState::new(Store::in_memory().unwrap(), config);
    let serving = state.clone();
    tokio::spawn(async move { serve_until(listener, serving, std::future::pending()).await.unwrap() });
    (addr, state)
}

/// The `i`-th address of the crowd (127.1.0.1, 127.1.0.2, …).
fn crowd_ip(i: usize) -> String {
    format!("127.1.{}.{}", i / 250, i % 250 + 1)
}

async fn connect_from(ip: &str, to: SocketAddr) -> std::io::Result<TcpStream> {
    let socket = TcpSocket::new_v4()?;
    socket.bind(format!("{ip}:0").parse().unwrap())?;
    socket.connect(to).await
}

/// One whole request from 127.0.0.1 on a fresh connection: status and body
/// (status 0 when the connection was closed without an answer).
async fn request(addr: SocketAddr, head: &str, body: &str) -> (u16, String) {
    let mut s = connect_from("127.0.0.1", addr).await.unwrap();
    let req = format!(
        "{head}\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    let _ = s.write_all(req.as_bytes()).await;
    let mut out = Vec::new();
    let _ = tokio::time::timeout(PATIENCE, s.read_to_end(&mut out)).await.expect("an answer or a close");
    let text = String::from_utf8_lossy(&out).to_string();
    let status = text.split_whitespace().nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    (status, text.split_once("\r\n\r\n").map_or("", |(_, b)| b).to_string())
}

/// A game of two humans: its id and the first seat's token.
async fn new_game(addr: SocketAddr) -> (String, String) {
    let (status, body) = request(addr, "POST /api/games HTTP/1.1", &common::two_humans().to_string()).await;
    assert_eq!(status, 201, "{body}");
    let v: Value = serde_json::from_str(&body).unwrap();
    let token = v["tokens"].as_array().unwrap().iter().find(|t| t["seat"] == 0).unwrap()["token"].clone();
    (v["id"].as_str().unwrap().to_string(), token.as_str().unwrap().to_string())
}

async fn health(addr: SocketAddr) -> u16 {
    request(addr, "GET /api/health HTTP/1.1", "").await.0
}

/// The first seat's state, then its move over HTTP: the move's status.
async fn play(addr: SocketAddr, id: &str, token: &str) -> u16 {
    let (status, body) = request(addr, &format!("GET /api/games/{id}?token={token} HTTP/1.1"), "").await;
    assert_eq!(status, 200, "{body}");
    let mv = common::pick_move(&serde_json::from_str(&body).unwrap(), 0, false);
    request(addr, &format!("POST /api/games/{id}/moves?token={token} HTTP/1.1"), &mv.to_string()).await.0
}

/// A websocket on game `id` from `ip` (with `token`, a seat holder's).
async fn open_ws(addr: SocketAddr, ip: &str, id: &str, token: Option<&str>) -> Option<Socket> {
    open_ws_as(addr, ip, id, token, None).await
}

/// [`open_ws`], signed in with the session `cookie` (`name=value`) if given.
async fn open_ws_as(addr: SocketAddr, ip: &str, id: &str, token: Option<&str>, cookie: Option<&str>) -> Option<Socket> {
    let stream = connect_from(ip, addr).await.ok()?;
    let query = token.map(|t| format!("?token={t}")).unwrap_or_default();
    let mut req = format!("ws://{addr}/api/games/{id}/ws{query}").into_client_request().unwrap();
    if let Some(cookie) = cookie {
        req.headers_mut().insert("cookie", cookie.parse().unwrap());
    }
    let (ws, _) = tokio::time::timeout(PATIENCE, tokio_tungstenite::client_async(req, stream)).await.ok()?.ok()?;
    Some(ws)
}

/// The next JSON message on `ws` (within [`PATIENCE`]).
async fn next_json(ws: &mut Socket) -> Option<Value> {
    loop {
        match tokio::time::timeout(PATIENCE, ws.next()).await.ok()?? {
            Ok(Message::Text(t)) => return serde_json::from_str(t.as_str()).ok(),
            Ok(Message::Close(_)) | Err(_) => return None,
            Ok(_) => continue,
        }
    }
}

/// How many of `streams` the server has closed (end of stream or an error).
async fn closed(streams: &mut [TcpStream]) -> usize {
    let mut n = 0;
    for s in streams {
        let mut buf = [0u8; 64];
        if let Ok(Ok(0) | Err(_)) = tokio::time::timeout(Duration::from_millis(20), s.read(&mut buf)).await {
            n += 1;
        }
    }
    n
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn half_sent_requests_from_many_addresses_give_way_to_newcomers() {
    let addr = start(40).await;
    let (id, token) = new_game(addr).await;
    // 100 half-sent requests, each from its own address: more than the cap.
    let mut crowd = Vec::new();
    for i in 0..100 {
        if let Ok(mut s) = connect_from(&crowd_ip(i), addr).await {
            let _ = s.write_all(b"GET /api/health HTTP/1.1\r\nHost: x\r\n").await;
            crowd.push(s);
        }
    }
    assert_eq!(crowd.len(), 100);
    // A new visitor and a player are answered all the same.
    assert_eq!(health(addr).await, 200);
    assert_eq!(play(addr, &id, &token).await, 200);
    // The oldest of the crowd made room; no more than the cap is held.
    let gone = closed(&mut crowd).await;
    assert!(gone >= 60, "only {gone} of the crowd's 100 connections gave way to the cap of 40");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn idle_spectators_give_way_to_a_player_and_a_visitor() {
    let addr = start(40).await;
    let (id, token) = new_game(addr).await;
    // 60 spectators' websockets, each from its own address, that never say a word.
    let mut spectators = Vec::new();
    for i in 0..60 {
        spectators.extend(open_ws(addr, &crowd_ip(i), &id, None).await);
    }
    assert!(spectators.len() >= 39, "only {} spectators got in: the crowd should fill the cap", spectators.len());
    // The player connects and moves over the socket, and health answers.
    let mut player = open_ws(addr, "127.0.0.1", &id, Some(&token)).await.expect("the player's socket");
    let state = next_json(&mut player).await.expect("the state");
    let mut mv = common::pick_move(&state["state"], 0, false);
    mv["type"] = "move".into();
    assert_eq!(health(addr).await, 200);
    player.send(Message::Text(mv.to_string().into())).await.unwrap();
    let version = mv["version"].as_u64().unwrap();
    loop {
        let next = next_json(&mut player).await.expect("the state after the move");
        assert_ne!(next["type"], json!("error"), "{next}");
        if next["state"]["version"].as_u64().is_some_and(|v| v > version) {
            break;
        }
    }
    // A seat holder's socket is never displaced: newcomers displace spectators.
    for _ in 0..50 {
        assert_eq!(health(addr).await, 200);
    }
    player.send(Message::Text(json!({ "type": "sync" }).to_string().into())).await.unwrap();
    assert!(next_json(&mut player).await.is_some(), "the player's socket was closed");
    // The first spectator gave way first, and was told why: 1013, try again later.
    let code = loop {
        match tokio::time::timeout(PATIENCE, spectators[0].next()).await {
            Ok(Some(Ok(Message::Close(frame)))) => break frame.map(|f| u16::from(f.code)),
            Ok(Some(Ok(_))) => continue,
            _ => break None,
        }
    };
    assert_eq!(code, Some(1013), "a displaced spectator's socket is closed with 1013");
}

/// A request on a new connection from `ip` that is kept alive after its
/// answer: the connection, once answered.
async fn answered_from(ip: &str, addr: SocketAddr) -> TcpStream {
    let mut s = connect_from(ip, addr).await.unwrap();
    s.write_all(b"GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n").await.unwrap();
    let mut buf = [0u8; 1024];
    let n = tokio::time::timeout(PATIENCE, s.read(&mut buf)).await.unwrap().unwrap();
    assert!(String::from_utf8_lossy(&buf[..n]).starts_with("HTTP/1.1 200"), "{}", String::from_utf8_lossy(&buf[..n]));
    s
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kept_alive_connections_between_requests_give_way_too() {
    let addr = start(40).await;
    // 40 connections, each from its own address, that were answered once
    // and stay open for more (HTTP/1.1 keeps them alive).
    let mut crowd = Vec::new();
    for i in 0..40 {
        crowd.push(answered_from(&crowd_ip(i), addr).await);
    }
    // Five newcomers are answered, and stay too: the oldest of the crowd made room.
    let mut newcomers = Vec::new();
    for i in 40..45 {
        newcomers.push(answered_from(&crowd_ip(i), addr).await);
    }
    let gone = closed(&mut crowd).await;
    assert_eq!(gone, 5, "idle kept-alive connections that gave way");
    assert_eq!(closed(&mut newcomers).await, 0);
}

/// Signs up `name` (from 127.0.0.1): the session cookie, `name=value`.
async fn sign_up(addr: SocketAddr, name: &str) -> String {
    let mut s = connect_from("127.0.0.1", addr).await.unwrap();
    let body = json!({ "name": name, "password": "correct horse" }).to_string();
    let req = format!(
        "POST /api/account/signup HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).await.unwrap();
    let mut out = Vec::new();
    tokio::time::timeout(PATIENCE, s.read_to_end(&mut out)).await.expect("an answer").unwrap();
    let text = String::from_utf8_lossy(&out).to_string();
    let cookie =
        text.lines().find_map(|l| l.strip_prefix("set-cookie: carcassonne_session=")).expect("a session cookie");
    format!("carcassonne_session={}", cookie.split(';').next().unwrap())
}

/// Players' sockets, each from an address of its own in a game of its own,
/// hold three quarters of the places at most: a player with a history
/// still connects (in place of one of the crowd's sockets past its
/// quarters), and is then never displaced; newcomers come and go in what
/// is left (listen.rs, `Class::Kept`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn players_holding_seats_leave_a_known_player_a_place() {
    // 12 places: the crowd holds 9 at most (a websocket takes a second place
    // while its handshake is answered).
    let mut config = Config { max_connections: 12, ..Config::quick() };
    config.lobby.known_after = Duration::ZERO;
    config.lobby.known_rated_games = 1;
    let (addr, state) = start_with(config).await;
    let cookie = sign_up(addr, "Regular").await;
    common::accounts::rated(state.store(), "Regular", carcassonne_server::Pool::Duel, 1500.0).await;
    let mut games = Vec::new();
    for _ in 0..13 {
        games.push(new_game(addr).await);
    }
    // The crowd: a seat's socket from each of 12 addresses, as many as the places.
    let mut crowd = Vec::new();
    for (i, (id, token)) in games[1..].iter().enumerate() {
        let mut ws = open_ws(addr, &crowd_ip(i), id, Some(token)).await.expect("a place");
        next_json(&mut ws).await.expect("the state");
        crowd.push(ws);
    }
    // The regular's seat socket takes a place (of the crowd's last three, idle).
    let (id, token) = &games[0];
    let mut regular = open_ws_as(addr, "127.0.0.1", id, Some(token), Some(&cookie)).await.expect("the regular gets in");
    next_json(&mut regular).await.expect("the state");
    // Newcomers come and go in the last quarter (spectators displacing one
    // another, the idle longest first); the regular stays.
    let mut spectators = Vec::new();
    for i in 0..3 {
        spectators
            .push(open_ws(addr, &crowd_ip(100 + i), id, None).await.unwrap_or_else(|| panic!("spectator {i} gets in")));
        assert_eq!(health(addr).await, 200);
    }
    regular.send(Message::Text(json!({ "type": "sync" }).to_string().into())).await.unwrap();
    assert!(next_json(&mut regular).await.is_some(), "the regular's socket was closed");
}

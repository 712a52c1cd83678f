//! The server on the open internet: connection caps and timeouts
//! (slowloris), a bounded shutdown, websocket caps, origins, content types,
//! headers, and sockets that abuse their rate. Each test runs a real
//! listener on loopback; attackers connect from 127.0.0.2, so that the
//! checks from 127.0.0.1 are another client.

mod common;

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use carcassonne_server::{serve_until, AppState, Config, Rate, Store};
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;

type Socket = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<TcpStream>>;

/// A server with `config` on a port of its own, and the way to stop it.
struct Server {
    addr: SocketAddr,
    state: AppState,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    done: tokio::task::JoinHandle<()>,
}

async fn start(config: Config) -> Server {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let state = AppState::new(Store::in_memory().unwrap(), config);
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let served = state.clone();
    let done = tokio::spawn(async move {
        serve_until(listener, served, async move {
            let _ = stopped.await;
        })
        .await
        .unwrap();
    });
    Server { addr, state, stop: Some(stop), done }
}

/// A connection from another client address than the tests' own checks.
async fn connect_from(ip: &str, to: SocketAddr) -> TcpStream {
    let socket = TcpSocket::new_v4().unwrap();
    socket.bind(format!("{ip}:0").parse().unwrap()).unwrap();
    socket.connect(to).await.unwrap()
}

/// One whole HTTP/1.1 request on a fresh connection: status, headers and body.
async fn request(addr: SocketAddr, head: &str, body: &str) -> (u16, String, String) {
    request_from("127.0.0.1", addr, head, body).await
}

/// [`request`] from the client address `ip`.
async fn request_from(ip: &str, addr: SocketAddr, head: &str, body: &str) -> (u16, String, String) {
    let mut s = connect_from(ip, addr).await;
    let req = format!("{head}\r\nHost: {addr}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}", body.len());
    s.write_all(req.as_bytes()).await.unwrap();
    let mut out = Vec::new();
    tokio::time::timeout(Duration::from_secs(10), s.read_to_end(&mut out)).await.expect("an answer").unwrap();
    let text = String::from_utf8_lossy(&out).to_string();
    let status = text.split_whitespace().nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    let (headers, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    (status, headers.to_ascii_lowercase(), body.to_string())
}

/// Whether the server closed `s` within `wait` (it reads end of stream or an error).
async fn closed_within(s: &mut TcpStream, wait: Duration) -> bool {
    let mut buf = [0u8; 1024];
    let deadline = Instant::now() + wait;
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match tokio::time::timeout(left, s.read(&mut buf)).await {
            Err(_) => return false,
            Ok(Ok(0)) | Ok(Err(_)) => return true,
            Ok(Ok(_)) => continue, // an error response before the close
        }
    }
}

fn tight() -> Config {
    Config {
        max_connections_per_ip: 20,
        header_timeout: Duration::from_millis(1500),
        body_timeout: Duration::from_millis(1500),
        shutdown_grace: Duration::from_secs(2),
        ..Config::quick()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn half_sent_requests_cannot_crowd_out_other_clients() {
    let server = start(tight()).await;
    // 60 connections from one address, each sending a request's first
    // line and one header, and never the rest.
    let mut held = Vec::new();
    for _ in 0..60 {
        let mut s = connect_from("127.0.0.2", server.addr).await;
        let _ = s.write_all(b"GET /api/health HTTP/1.1\r\nHost: x\r\n").await;
        held.push(s);
    }
    // Those over the address's cap were closed at once (all looked at together).
    let checks: Vec<_> = held
        .into_iter()
        .map(|mut s| {
            tokio::spawn(async move { (!closed_within(&mut s, Duration::from_millis(300)).await).then_some(s) })
        })
        .collect();
    let mut open = Vec::new();
    for c in checks {
        open.extend(c.await.unwrap());
    }
    assert!(open.len() <= 20, "{} half-sent connections stay open, the cap is 20", open.len());
    assert!(open.len() >= 15, "only {} were admitted", open.len());
    // Another client is served meanwhile.
    let (status, _, body) = request(server.addr, "GET /api/health HTTP/1.1", "").await;
    assert_eq!(status, 200, "{body}");
    // The half-sent ones are let go once their headers are overdue.
    let started = Instant::now();
    for s in &mut open {
        assert!(closed_within(s, Duration::from_secs(5)).await, "a half-sent request outlived the header timeout");
    }
    assert!(started.elapsed() < Duration::from_secs(4));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_idle_keep_alive_connection_and_a_slow_body_are_let_go() {
    let server = start(tight()).await;
    // A request answered, then silence on the kept-alive connection.
    let mut s = TcpStream::connect(server.addr).await.unwrap();
    s.write_all(format!("GET /api/health HTTP/1.1\r\nHost: {}\r\n\r\n", server.addr).as_bytes()).await.unwrap();
    let mut buf = [0u8; 512];
    let n = s.read(&mut buf).await.unwrap();
    assert!(String::from_utf8_lossy(&buf[..n]).starts_with("HTTP/1.1 200"));
    assert!(closed_within(&mut s, Duration::from_secs(5)).await, "the idle connection stays open");

    // A body announced and never sent in full.
    let mut s = TcpStream::connect(server.addr).await.unwrap();
    let head = format!(
        "POST /api/games HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{{\"seats\"",
        server.addr
    );
    s.write_all(head.as_bytes()).await.unwrap();
    assert!(closed_within(&mut s, Duration::from_secs(5)).await, "the slow body is still being waited for");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stopping_closes_websockets_and_does_not_wait_for_slow_clients() {
    let mut server = start(tight()).await;
    let (_, _, created) = request(
        server.addr,
        "POST /api/games HTTP/1.1\r\nContent-Type: application/json",
        &common::two_humans().to_string(),
    )
    .await;
    let id = serde_json::from_str::<Value>(&created).unwrap()["id"].as_str().unwrap().to_string();
    let (mut ws, _) =
        tokio_tungstenite::connect_async(format!("ws://{}/api/games/{id}/ws", server.addr)).await.unwrap();
    assert_eq!(next_json(&mut ws).await.unwrap()["type"], "state");
    let mut slow = TcpStream::connect(server.addr).await.unwrap();
    slow.write_all(
        b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 900\r\n\r\n{",
    )
    .await
    .unwrap();

    let started = Instant::now();
    server.stop.take().unwrap().send(()).unwrap();
    // The websocket hears that the server stops.
    let close = loop {
        match tokio::time::timeout(Duration::from_secs(5), ws.next()).await.expect("a close frame") {
            Some(Ok(Message::Close(frame))) => break frame,
            Some(Ok(_)) => continue,
            other => panic!("{other:?}"),
        }
    };
    assert_eq!(close.map(|f| u16::from(f.code)), Some(1001));
    tokio::time::timeout(Duration::from_secs(5), server.done).await.expect("stopped within the grace").unwrap();
    assert!(started.elapsed() < Duration::from_secs(4), "took {:?}", started.elapsed());
    // Nobody is listening any more.
    assert!(TcpStream::connect(server.addr).await.is_err());
}

async fn next_json(ws: &mut Socket) -> Option<Value> {
    loop {
        match tokio::time::timeout(Duration::from_secs(10), ws.next()).await.ok()?? {
            Ok(Message::Text(t)) => return serde_json::from_str(t.as_str()).ok(),
            Ok(Message::Close(_)) | Err(_) => return None,
            Ok(_) => continue,
        }
    }
}

/// Opens a websocket on game `id` with these extra headers; the refusal's status otherwise.
async fn open_ws(addr: SocketAddr, id: &str, headers: &[(&str, &str)]) -> Result<Socket, u16> {
    let mut req = format!("ws://{addr}/api/games/{id}/ws").into_client_request().unwrap();
    for (k, v) in headers {
        let name = axum::http::HeaderName::from_bytes(k.as_bytes()).unwrap();
        req.headers_mut().insert(name, v.parse().unwrap());
    }
    match tokio_tungstenite::connect_async(req).await {
        Ok((ws, _)) => Ok(ws),
        Err(tokio_tungstenite::tungstenite::Error::Http(resp)) => Err(resp.status().as_u16()),
        Err(e) => panic!("{e}"),
    }
}

async fn new_game(addr: SocketAddr) -> String {
    let (status, _, body) = request(
        addr,
        "POST /api/games HTTP/1.1\r\nContent-Type: application/json; charset=utf-8",
        &common::two_humans().to_string(),
    )
    .await;
    assert_eq!(status, 201, "{body}");
    serde_json::from_str::<Value>(&body).unwrap()["id"].as_str().unwrap().to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn websockets_are_capped_per_game_and_per_address() {
    let server = start(Config { max_sockets_per_game: 3, max_sockets_per_ip: 4, ..Config::quick() }).await;
    let (a, b) = (new_game(server.addr).await, new_game(server.addr).await);
    let mut on_a = Vec::new();
    for _ in 0..3 {
        on_a.push(open_ws(server.addr, &a, &[]).await.unwrap());
    }
    assert_eq!(open_ws(server.addr, &a, &[]).await.err(), Some(503), "a fourth socket on one game");
    let first_b = open_ws(server.addr, &b, &[]).await.unwrap();
    assert_eq!(open_ws(server.addr, &b, &[]).await.err(), Some(503), "a fifth socket from one address");
    // A closed socket frees its places.
    let mut gone = on_a.pop().unwrap();
    gone.close(None).await.unwrap();
    drop(gone);
    let mut reopened = None;
    for _ in 0..50 {
        if let Ok(ws) = open_ws(server.addr, &a, &[]).await {
            reopened = Some(ws);
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(reopened.is_some(), "the place was not freed");
    drop(first_b);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn websockets_from_other_sites_are_refused() {
    let config = Config { allowed_origins: vec!["https://friends.example".into()], ..Config::quick() };
    let server = start(config).await;
    let id = new_game(server.addr).await;
    let own = format!("http://{}", server.addr);
    assert!(open_ws(server.addr, &id, &[("origin", &own)]).await.is_ok(), "the server's own pages");
    assert!(open_ws(server.addr, &id, &[]).await.is_ok(), "a client that is not a browser");
    assert!(open_ws(server.addr, &id, &[("origin", "https://friends.example")]).await.is_ok(), "an allowed site");
    for evil in ["http://evil.example", "null", "http://127.0.0.1.evil.example"] {
        assert_eq!(open_ws(server.addr, &id, &[("origin", evil)]).await.err(), Some(403), "{evil}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn posts_must_say_json_and_every_answer_says_nosniff() {
    let server = start(Config::quick()).await;
    let form = common::two_humans().to_string();
    for head in [
        "POST /api/games HTTP/1.1",
        "POST /api/games HTTP/1.1\r\nContent-Type: text/plain",
        "POST /api/games HTTP/1.1\r\nContent-Type: application/x-www-form-urlencoded",
        "POST /api/qr HTTP/1.1\r\nContent-Type: multipart/form-data; boundary=x",
    ] {
        let (status, headers, body) = request(server.addr, head, &form).await;
        assert_eq!(status, 415, "{head}: {body}");
        assert_eq!(serde_json::from_str::<Value>(&body).unwrap()["error"], "unsupported_media_type");
        assert!(headers.contains("x-content-type-options: nosniff"), "{headers}");
    }
    let (_, _, list) = request(server.addr, "GET /api/games HTTP/1.1", "").await;
    assert_eq!(serde_json::from_str::<Value>(&list).unwrap()["games"], json!([]), "nothing was created");
    // Errors that echo what was sent are never sniffed into something else.
    let (status, headers, _) = request(server.addr, "GET /api/games/%3Cscript%3E HTTP/1.1", "").await;
    assert_eq!(status, 404);
    assert!(headers.contains("x-content-type-options: nosniff"), "{headers}");
    // The page may talk to its own origin only.
    let (_, headers, _) = request(server.addr, "GET / HTTP/1.1", "").await;
    let csp = headers.lines().find(|l| l.starts_with("content-security-policy:")).expect("a CSP").to_string();
    assert!(csp.contains("connect-src 'self';"), "{csp}");
    assert!(!csp.contains("ws:") && !csp.contains("wss:"), "{csp}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_socket_that_keeps_flooding_is_closed_and_a_refusal_costs_no_state() {
    let server = start(Config { ws_rate: Some(Rate { per_second: 1, burst: 2 }), ..Config::quick() }).await;
    let id = new_game(server.addr).await;
    let mut ws = open_ws(server.addr, &id, &[]).await.unwrap();
    assert_eq!(next_json(&mut ws).await.unwrap()["type"], "state");
    let mut bytes = 0usize;
    let mut close = None;
    let sender = async {
        for _ in 0..400 {
            if ws.send(Message::Text("{}".into())).await.is_err() {
                break;
            }
        }
    };
    // Send everything first (the server reads as fast as it can), then read.
    tokio::time::timeout(Duration::from_secs(10), sender).await.expect("sent");
    // The socket ends: with its close frame, or reset (the server closed it
    // with the rest of the flood unread), never left open.
    let mut ended = false;
    while let Ok(next) = tokio::time::timeout(Duration::from_secs(10), ws.next()).await {
        match next {
            Some(Ok(Message::Text(t))) => {
                bytes += t.len();
                let v: Value = serde_json::from_str(t.as_str()).unwrap();
                assert_eq!(v["type"], "error", "refusals only: {v}");
            }
            Some(Ok(Message::Close(frame))) => {
                close = frame;
                ended = true;
                break;
            }
            Some(Ok(_)) => {}
            Some(Err(_)) | None => {
                ended = true;
                break;
            }
        }
    }
    assert!(ended, "the flooding socket is still open");
    if let Some(frame) = close {
        assert_eq!(u16::from(frame.code), 1008, "{frame:?}");
    }
    // Each refusal is a short error, never a state.
    assert!(bytes < 200 * 120, "{bytes} bytes of answers");
}

/// Creates a game from `ip` with these seats: the status and the answer.
async fn create_from(ip: &str, addr: SocketAddr, seats: Value) -> (u16, Value) {
    let head = "POST /api/games HTTP/1.1\r\nContent-Type: application/json";
    let (status, _, body) = request_from(ip, addr, head, &json!({ "seats": seats }).to_string()).await;
    (status, serde_json::from_str(&body).unwrap_or(Value::Null))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_address_may_hold_only_so_many_unfinished_games() {
    let server = start(Config { max_active_games_per_ip: 3, ..Config::quick() }).await;
    let people = json!([{ "kind": "human" }, { "kind": "human" }]);
    for _ in 0..3 {
        assert_eq!(create_from("127.0.0.2", server.addr, people.clone()).await.0, 201);
    }
    let (status, v) = create_from("127.0.0.2", server.addr, people.clone()).await;
    assert_eq!((status, v["error"].as_str()), (429, Some("quota_exceeded")), "{v}");
    assert!(v["message"].as_str().unwrap().contains("unfinished"), "{v}");
    assert_eq!(create_from("127.0.0.3", server.addr, people).await.0, 201, "another address is not held back");
}

/// The store keeps so many games per address: one more drops the
/// address's oldest unfinished casual game (it is gone for everybody, and
/// leaves memory too); another address's games are untouched.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_address_keeps_only_so_many_games_in_the_store() {
    let server = start(Config { max_kept_games_per_ip: 2, ..Config::quick() }).await;
    let people = json!([{ "kind": "human" }, { "kind": "human" }]);
    let (status, v) = create_from("127.0.0.9", server.addr, people.clone()).await;
    assert_eq!(status, 201, "{v}");
    let theirs = v["id"].as_str().unwrap().to_string();
    let mut ids = Vec::new();
    for _ in 0..3 {
        let (status, v) = create_from("127.0.0.8", server.addr, people.clone()).await;
        assert_eq!(status, 201, "{v}");
        ids.push(v["id"].as_str().unwrap().to_string());
    }
    let status = |id: String| async move { request(server.addr, &format!("GET /api/games/{id} HTTP/1.1"), "").await.0 };
    assert_eq!(status(ids[0].clone()).await, 404, "the oldest made room");
    assert_eq!(status(ids[1].clone()).await, 200);
    assert_eq!(status(ids[2].clone()).await, 200);
    assert_eq!(status(theirs).await, 200, "another address keeps its game");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_address_may_start_only_so_many_games_an_hour() {
    let server =
        start(Config { max_new_games_per_hour_per_ip: 4, max_active_games_per_ip: 2, ..Config::quick() }).await;
    // Bots only: the games end by themselves, so only the hourly count binds.
    let bots = json!([{ "kind": "bot", "level": "random" }, { "kind": "bot", "level": "random" }]);
    for _ in 0..4 {
        let (status, v) = create_from("127.0.0.2", server.addr, bots.clone()).await;
        assert_eq!(status, 201, "{v}");
        let id = v["id"].as_str().unwrap().to_string();
        // Wait for the game to end before the next (it no longer counts as unfinished).
        let started = Instant::now();
        loop {
            let (_, _, body) = request(server.addr, &format!("GET /api/games/{id} HTTP/1.1"), "").await;
            if serde_json::from_str::<Value>(&body).unwrap()["status"] == "finished" {
                break;
            }
            assert!(started.elapsed() < Duration::from_secs(30), "the bots' game did not end");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
    let (status, v) = create_from("127.0.0.2", server.addr, bots).await;
    assert_eq!((status, v["error"].as_str()), (429, Some("quota_exceeded")), "{v}");
    assert!(v["message"].as_str().unwrap().contains("an hour"), "{v}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bots_search_one_at_a_time_on_one_worker() {
    let config = Config { bot_workers: 1, quick_bots: false, ..Config::quick() };
    let server = start(config).await;
    let bots = json!([{ "kind": "bot", "level": "easy" }, { "kind": "bot", "level": "easy" }]);
    for _ in 0..4 {
        assert_eq!(create_from("127.0.0.2", server.addr, bots.clone()).await.0, 201);
    }
    // Four games want a search at once; the pool runs one.
    let (mut most, started) = (0, Instant::now());
    while started.elapsed() < Duration::from_millis(1500) {
        most = most.max(server.state.bots.searching());
        tokio::time::sleep(Duration::from_millis(1)).await;
    }
    assert_eq!(most, 1, "searches at once");
    // A person's request is answered meanwhile.
    assert_eq!(request(server.addr, "GET /api/health HTTP/1.1", "").await.0, 200);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_idle_game_leaves_memory_and_comes_back_when_asked_for() {
    let server = start(Config { idle_after: Duration::from_millis(200), ..Config::quick() }).await;
    let (status, v) = create_from("127.0.0.2", server.addr, json!([{ "kind": "human" }, { "kind": "human" }])).await;
    assert_eq!(status, 201);
    let id = v["id"].as_str().unwrap().to_string();
    let watched = new_game(server.addr).await;
    let _ws = open_ws(server.addr, &watched, &[]).await.unwrap();
    let started = Instant::now();
    while server.state.games.count() > 1 {
        assert!(started.elapsed() < Duration::from_secs(5), "the idle game stays in memory");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(server.state.games.count(), 1, "the watched game stays");
    let (status, _, body) = request(server.addr, &format!("GET /api/games/{id} HTTP/1.1"), "").await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(serde_json::from_str::<Value>(&body).unwrap()["id"], id.as_str());
    assert_eq!(server.state.games.count(), 2, "back from the storage");
}

/// A new game of two people from `addr`: its id and the seats' tokens.
async fn new_game_with_tokens(addr: SocketAddr) -> (String, Vec<String>) {
    let (status, _, body) =
        request(addr, "POST /api/games HTTP/1.1\r\nContent-Type: application/json", &common::two_humans().to_string())
            .await;
    assert_eq!(status, 201, "{body}");
    let v: Value = serde_json::from_str(&body).unwrap();
    let tokens = v["tokens"].as_array().unwrap().iter().map(|t| t["token"].as_str().unwrap().to_string()).collect();
    (v["id"].as_str().unwrap().to_string(), tokens)
}

/// A websocket on game `id` from client address `ip`, holding `tokens`.
async fn open_ws_from(
    ip: &str,
    addr: SocketAddr,
    id: &str,
    tokens: &[&str],
) -> Result<tokio_tungstenite::WebSocketStream<TcpStream>, u16> {
    let stream = connect_from(ip, addr).await;
    let req = format!("ws://{addr}/api/games/{id}/ws?token={}", tokens.join(",")).into_client_request().unwrap();
    match tokio_tungstenite::client_async(req, stream).await {
        Ok((ws, _)) => Ok(ws),
        Err(tokio_tungstenite::tungstenite::Error::Http(resp)) => Err(resp.status().as_u16()),
        Err(e) => panic!("{e}"),
    }
}

/// Issue 26: 256 spectators from 8 addresses took every place on a public
/// game, and both players' websockets were refused. Reduced: 4 places for
/// spectators, 2 per address.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn spectators_never_lock_the_players_out() {
    let config =
        Config { max_sockets_per_game: 4, max_spectators_per_ip_per_game: 2, max_sockets_per_ip: 2, ..Config::quick() };
    let server = start(config).await;
    let (id, tokens) = new_game_with_tokens(server.addr).await;
    let mut crowd = Vec::new();
    for ip in ["127.0.0.2", "127.0.0.2", "127.0.0.3", "127.0.0.3"] {
        crowd.push(open_ws_from(ip, server.addr, &id, &[]).await.unwrap());
    }
    assert_eq!(open_ws_from("127.0.0.2", server.addr, &id, &[]).await.err(), Some(503), "a third from one address");
    assert_eq!(open_ws_from("127.0.0.4", server.addr, &id, &[]).await.err(), Some(503), "a fifth spectator");
    // Both players still connect, one even from a crowded address, and play.
    let mut first = open_ws_from("127.0.0.2", server.addr, &id, &[&tokens[0]]).await.expect("the first player");
    let _second = open_ws_from("127.0.0.6", server.addr, &id, &[&tokens[1]]).await.expect("the second player");
    let hello: Value = match first.next().await.unwrap().unwrap() {
        Message::Text(t) => serde_json::from_str(&t).unwrap(),
        other => panic!("{other:?}"),
    };
    let mut mv = common::pick_move(&hello["state"], 0, false);
    mv["type"] = json!("move");
    first.send(Message::Text(mv.to_string().into())).await.unwrap();
    let after = server.state.games.game(&id).await.unwrap();
    let mut moved = false;
    for _ in 0..100 {
        if after.lock().await.version() == 1 {
            moved = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(moved, "the player's move was played");
    drop(crowd);
}

/// A crowd of fresh addresses watching a game takes every spectator's place;
/// people with a history (signed in) still watch, in places kept for them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_crowd_of_spectators_leaves_places_for_people_with_a_history() {
    // Every account has a history at once here (no age, no rated games asked).
    let lobby = carcassonne_server::LobbySettings {
        known_after: Duration::ZERO,
        known_rated_games: 0,
        ..Config::quick().lobby
    };
    let config = Config { max_sockets_per_game: 2, max_spectators_per_ip_per_game: 2, lobby, ..Config::quick() };
    let server = start(config).await;
    let (id, _) = new_game_with_tokens(server.addr).await;
    let mut crowd = Vec::new();
    for ip in ["127.0.0.2", "127.0.0.3"] {
        crowd.push(open_ws_from(ip, server.addr, &id, &[]).await.unwrap());
    }
    assert_eq!(open_ws_from("127.0.0.4", server.addr, &id, &[]).await.err(), Some(503), "the places are taken");
    // Ada, signed in, watches from the crowd's own address, twice at most.
    let head = "POST /api/account/signup HTTP/1.1\r\nContent-Type: application/json";
    let (status, headers, body) = request(server.addr, head, r#"{"name": "Ada", "password": "correct horse"}"#).await;
    assert_eq!(status, 201, "{body}");
    let cookie = headers
        .lines()
        .filter_map(|l| l.strip_prefix("set-cookie: "))
        .find(|c| c.starts_with(&format!("{}=", carcassonne_server::COOKIE)))
        .and_then(|c| c.split(';').next())
        .expect("a session cookie")
        .to_string();
    let watch = |cookie: String| {
        let (addr, id) = (server.addr, id.clone());
        async move {
            let stream = connect_from("127.0.0.2", addr).await;
            let mut req = format!("ws://{addr}/api/games/{id}/ws").into_client_request().unwrap();
            req.headers_mut().insert("cookie", cookie.parse().unwrap());
            match tokio_tungstenite::client_async(req, stream).await {
                Ok((ws, _)) => Ok(ws),
                Err(tokio_tungstenite::tungstenite::Error::Http(resp)) => Err(resp.status().as_u16()),
                Err(e) => panic!("{e}"),
            }
        }
    };
    let first = watch(cookie.clone()).await.expect("Ada watches");
    let second = watch(cookie.clone()).await.expect("Ada watches on a second page");
    assert_eq!(watch(cookie.clone()).await.err(), Some(503), "two places at most for one person");
    drop(first);
    tokio::time::sleep(Duration::from_millis(200)).await;
    let _again = watch(cookie).await.expect("a place freed is hers again");
    // Fresh addresses are still refused: the places kept are not theirs.
    assert_eq!(open_ws_from("127.0.0.5", server.addr, &id, &[]).await.err(), Some(503));
    drop((crowd, second));
}

/// Issue 26: one valid token repeated 1,900 times in a URL cost 12.6 ms
/// under the game's lock. At most one token per seat of the largest game,
/// refused before the lock.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_request_names_a_few_tokens_at_most() {
    let server = start(Config::quick()).await;
    let (id, tokens) = new_game_with_tokens(server.addr).await;
    let many = vec![tokens[0].as_str(); 1900].join(",");
    let (status, _, body) = request(server.addr, &format!("GET /api/games/{id}?token={many} HTTP/1.1"), "").await;
    assert_eq!(status, 200, "the same token many times is one token: {body}");
    let distinct: Vec<String> = (0..=carcassonne_server::MAX_TOKENS).map(|i| format!("{i:032x}")).collect();
    let (status, headers, body) =
        request(server.addr, &format!("GET /api/games/{id}?token={} HTTP/1.1", distinct.join(",")), "").await;
    assert_eq!(status, 400, "{body}");
    assert_eq!(serde_json::from_str::<Value>(&body).unwrap()["error"], "too_many_tokens");
    assert!(headers.contains("x-content-type-options: nosniff"), "{headers}");
    let post =
        format!("POST /api/games/{id}/moves?token={} HTTP/1.1\r\nContent-Type: application/json", distinct.join(","));
    let (status, _, body) = request(server.addr, &post, "{\"version\": 0}").await;
    assert_eq!(
        (status, serde_json::from_str::<Value>(&body).unwrap()["error"].as_str()),
        (400, Some("too_many_tokens"))
    );
}

/// Issue 26: the rate limit's refusals lacked `nosniff`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_rate_limits_refusals_say_nosniff() {
    let server = start(Config { http_rate: Some(Rate { per_second: 1, burst: 1 }), ..Config::quick() }).await;
    let mut refused = None;
    for _ in 0..5 {
        let (status, headers, body) = request(server.addr, "GET /api/health HTTP/1.1", "").await;
        if status == 429 {
            refused = Some((headers, body));
            break;
        }
    }
    let (headers, body) = refused.expect("a refusal");
    assert_eq!(serde_json::from_str::<Value>(&body).unwrap()["error"], "rate_limited");
    assert!(headers.contains("x-content-type-options: nosniff"), "{headers}");
}

/// Issue 26: every per-address limit counted each IPv6 address apart, so one
/// host with a /64 had unlimited addresses.
#[test]
fn an_ipv6_host_is_one_client_by_its_prefix() {
    use carcassonne_server::addr_key;
    use std::net::IpAddr;
    let ip = |s: &str| s.parse::<IpAddr>().unwrap();
    assert_eq!(addr_key(ip("2001:db8:1:2:aaaa::1"), 64), addr_key(ip("2001:db8:1:2:ffff::9"), 64));
    assert_ne!(addr_key(ip("2001:db8:1:2::1"), 64), addr_key(ip("2001:db8:1:3::1"), 64));
    assert_eq!(addr_key(ip("2001:db8:1:2::1"), 64), ip("2001:db8:1:2::"));
    assert_eq!(addr_key(ip("2001:db8::1"), 128), ip("2001:db8::1"), "a prefix of 128: each address");
    assert_eq!(addr_key(ip("2001:db8::1"), 0), ip("::"));
    assert_eq!(addr_key(ip("10.1.2.3"), 64), ip("10.1.2.3"), "IPv4 one by one");
    assert_eq!(addr_key(ip("::ffff:10.1.2.3"), 64), ip("10.1.2.3"), "IPv4 mapped into IPv6");
}

/// Issue 26: a save with an invalid visitor key spent one of the address's
/// saves. Refused requests spend nothing: after more invalid saves than the
/// hour allows, a valid one is kept.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_invalid_save_spends_none_of_the_addresss_saves() {
    let server = start(Config::quick()).await;
    let code = carcassonne::Rules::default().to_code();
    let head = "POST /api/rulesets HTTP/1.1\r\nContent-Type: application/json";
    for _ in 0..=carcassonne_server::SAVES_PER_HOUR {
        let bad = json!({ "name": "Mine", "code": code, "key": "not a key" }).to_string();
        let (status, _, body) = request_from("127.0.0.7", server.addr, head, &bad).await;
        assert_eq!(status, 400, "{body}");
    }
    let good = json!({ "name": "Mine", "code": code }).to_string();
    let (status, _, body) = request_from("127.0.0.7", server.addr, head, &good).await;
    assert_eq!(status, 201, "{body}");
}

//! The lobby end to end (docs/web.md, *Lobby*): tables opened, sat at,
//! stood up from and started; every refusal with its code and nothing
//! changed; "Play now" pairing two people, or a bot after the wait chosen.
//! With PostgreSQL (`CARCASSONNE_TEST_POSTGRES`), two servers over one
//! database: a table opened on one appears live on the other's websocket;
//! two people waiting on two servers are paired once; a table filled from
//! both servers at once starts once.

mod common;

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use carcassonne_server::{serve_until, AppState, Config, Store};
use common::pg::{server_url, Schema};
use common::{call, call_raw, state, test_app};
use futures_util::StreamExt;
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio_tungstenite::tungstenite::Message;

async fn post(app: &axum::Router, uri: &str, body: Value) -> (u16, Value) {
    let (s, v) = call(app, "POST", uri, Some(&body.to_string())).await;
    (s.as_u16(), v)
}

async fn get(app: &axum::Router, uri: &str) -> (u16, Value) {
    let (s, v) = call(app, "GET", uri, None).await;
    (s.as_u16(), v)
}

fn host_two_open() -> Value {
    json!({ "name": "Ada", "seats": [{"kind": "me"}, {"kind": "open"}, {"kind": "open"}, {"kind": "bot", "level": "easy"}] })
}

#[tokio::test]
async fn tables_open_sit_stand_start_and_refuse() {
    let (app, _) = test_app();
    // Open: the host sits at their seat and holds its token.
    let (s, v) = post(&app, "/api/lobby/tables", host_two_open()).await;
    assert_eq!(s, 201, "{v}");
    let id = v["table"]["id"].as_str().unwrap().to_string();
    let host = v["token"].as_str().unwrap().to_string();
    assert_eq!(v["seat"], 0);
    let t = &v["table"];
    assert_eq!(t["state"], "open");
    assert_eq!(t["host"], "Ada");
    assert_eq!(t["free"], 2);
    assert_eq!(t["rating"], Value::Null);
    assert_eq!(t["clock_text"], "no clock");
    assert_eq!(t["rated"], false);
    assert!(t["headline"].as_str().unwrap().starts_with("Today"), "{t}");
    assert_eq!(t["seats"][3]["kind"], "bot");
    assert_eq!(t["seats"][3]["level"], "easy");
    assert!(!t["rules_code"].as_str().unwrap().is_empty());

    // Listed.
    let (s, list) = get(&app, "/api/lobby/tables").await;
    assert_eq!(s, 200);
    assert_eq!(list["tables"].as_array().unwrap().len(), 1);
    let before = get(&app, &format!("/api/lobby/tables/{id}")).await.1;

    // Refusals change nothing.
    let refusals: Vec<(Value, &str, u16, &str)> = vec![
        (json!({"seat": 0}), "sit", 409, "seat_taken"),
        (json!({"seat": 3}), "sit", 409, "seat_taken"),
        (json!({"seat": 9}), "sit", 400, "bad_request"),
        (json!({"seat": 1, "name": "  "}), "sit", 400, "bad_request"),
        (json!({"seat": 1, "name": "ada"}), "sit", 409, "name_taken_here"),
        (json!({"seat": 1, "extra": true}), "sit", 400, "bad_request"),
        (json!({"seat": "one"}), "sit", 400, "bad_request"),
        (json!({"token": "0123456789abcdef0123456789abcdef"}), "stand", 403, "unauthorized"),
        (json!({"token": "junk"}), "start", 403, "unauthorized"),
        (json!({}), "start", 400, "bad_request"),
    ];
    for (body, what, status, code) in refusals {
        let (s, v) = post(&app, &format!("/api/lobby/tables/{id}/{what}"), body.clone()).await;
        assert_eq!((s, v["error"].as_str().unwrap_or("")), (status, code), "{what} {body}: {v}");
    }
    let (s, v) = post(&app, "/api/lobby/tables/nosuchtable/sit", json!({"seat": 1})).await;
    assert_eq!((s, v["error"].as_str().unwrap()), (404, "not_found"));
    let (s, _) = call_raw(&app, "POST", &format!("/api/lobby/tables/{id}/sit"), Some(vec![b' '; 8 * 1024])).await;
    assert_eq!(s.as_u16(), 413);
    assert_eq!(get(&app, &format!("/api/lobby/tables/{id}")).await.1, before, "refusals changed the table");

    // Sit down, then stand up: the seat is open again.
    let (s, v) = post(&app, &format!("/api/lobby/tables/{id}/sit"), json!({"seat": 1, "name": "Bea"})).await;
    assert_eq!(s, 200, "{v}");
    let bea = v["token"].as_str().unwrap().to_string();
    assert_eq!(v["table"]["free"], 1);
    assert_eq!(v["table"]["seats"][1]["name"], "Bea");
    let (s, v) = post(&app, &format!("/api/lobby/tables/{id}/stand"), json!({"token": bea})).await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["table"]["free"], 2);
    // Her token no longer holds a seat.
    let (s, v) = post(&app, &format!("/api/lobby/tables/{id}/stand"), json!({"token": bea})).await;
    assert_eq!((s, v["error"].as_str().unwrap()), (403, "unauthorized"));

    // Sit again (a guest name given by the server); only the host starts.
    let (_, v) = post(&app, &format!("/api/lobby/tables/{id}/sit"), json!({"seat": 2})).await;
    let guest = v["token"].as_str().unwrap().to_string();
    assert!(v["table"]["seats"][2]["name"].as_str().unwrap().starts_with("Guest "), "{v}");
    let (s, v) = post(&app, &format!("/api/lobby/tables/{id}/start"), json!({"token": guest})).await;
    assert_eq!((s, v["error"].as_str().unwrap()), (409, "not_host"));
    // The host says they are here.
    let (s, _) = post(&app, &format!("/api/lobby/tables/{id}/here"), json!({"token": host})).await;
    assert_eq!(s, 200);
    let (s, v) = post(&app, &format!("/api/lobby/tables/{id}/start"), json!({"token": host})).await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["table"]["state"], "started");
    let game = v["table"]["game"].as_str().unwrap().to_string();

    // The game seats the tokens handed out at the table: the empty seat is left out.
    let g = state(&app, &game, Some(&host)).await;
    let players = g["players"].as_array().unwrap();
    assert_eq!(players.len(), 3, "{g}");
    assert!(players[0]["you"].as_bool().unwrap());
    assert_eq!(players[0]["name"], "Ada");
    assert_eq!(players[2]["kind"], "bot");
    let g = state(&app, &game, Some(&guest)).await;
    assert!(g["players"][1]["you"].as_bool().unwrap(), "{g}");

    // Out of order after the start.
    for (what, body) in
        [("stand", json!({"token": guest})), ("sit", json!({"seat": 1})), ("start", json!({"token": host}))]
    {
        let (s, v) = post(&app, &format!("/api/lobby/tables/{id}/{what}"), body).await;
        assert_eq!((s, v["error"].as_str().unwrap()), (409, "table_started"), "{what}: {v}");
    }
}

#[tokio::test]
async fn bad_tables_are_refused_and_hosts_are_capped() {
    let (app, _) = test_app();
    let bad: Vec<(Value, u16, &str)> = vec![
        (json!({"seats": [{"kind": "me"}]}), 400, "bad_request"),
        (json!({"seats": [{"kind": "open"}, {"kind": "open"}]}), 400, "bad_request"),
        (json!({"seats": [{"kind": "me"}, {"kind": "me"}]}), 400, "bad_request"),
        (json!({"seats": [{"kind": "me"}, {"kind": "bot"}]}), 400, "bad_request"),
        (json!({"seats": [{"kind": "me"}, {"kind": "open"}, {"kind": "bot", "level": "godlike"}]}), 400, "bad_request"),
        (
            json!({"seats": [{"kind": "me"}, {"kind": "open"}], "clock": {"kind": "turn", "days": 2}}),
            400,
            "bad_request",
        ),
        (json!({"seats": [{"kind": "me"}, {"kind": "open"}], "rules": {"farms": "nonsense"}}), 400, "bad_request"),
        (json!({"seats": [{"kind": "me"}, {"kind": "open"}], "rated": true}), 401, "not_signed_in"),
        (json!({"seats": [{"kind": "me"}, {"kind": "open"}], "colour": "red"}), 400, "bad_request"),
        (json!({"seats": vec![json!({"kind": "open"}); 7]}), 400, "bad_request"),
    ];
    for (body, status, code) in bad {
        let (s, v) = post(&app, "/api/lobby/tables", body.clone()).await;
        assert_eq!((s, v["error"].as_str().unwrap_or("")), (status, code), "{body}: {v}");
    }
    assert_eq!(get(&app, "/api/lobby/tables").await.1["tables"], json!([]));
    // A clock as given, in words.
    let body = json!({"seats": [{"kind": "me"}, {"kind": "open"}], "clock": {"kind": "realtime", "minutes": 10, "increment": 5}});
    let (s, v) = post(&app, "/api/lobby/tables", body.clone()).await;
    assert_eq!(s, 201, "{v}");
    assert_eq!(v["table"]["clock_text"], "10 min + 5 s");
    assert_eq!(v["table"]["clock"]["minutes"], 10);
    // Three open tables per host (this address), then no more.
    let host = v["token"].as_str().unwrap().to_string();
    let id = v["table"]["id"].as_str().unwrap().to_string();
    for _ in 0..2 {
        assert_eq!(post(&app, "/api/lobby/tables", body.clone()).await.0, 201);
    }
    let (s, v) = post(&app, "/api/lobby/tables", body.clone()).await;
    assert_eq!((s, v["error"].as_str().unwrap()), (429, "quota_exceeded"));
    let (_, list) = get(&app, "/api/lobby/tables").await;
    assert_eq!(list["tables"].as_array().unwrap().len(), 3);
    // The host standing up closes their table: room for another.
    assert_eq!(post(&app, &format!("/api/lobby/tables/{id}/stand"), json!({"token": host})).await.0, 200);
    assert_eq!(post(&app, "/api/lobby/tables", body.clone()).await.0, 201);
}

#[tokio::test]
async fn a_host_leaving_closes_the_table_and_a_full_table_starts() {
    let (app, _) = test_app();
    let (_, v) = post(&app, "/api/lobby/tables", json!({"seats": [{"kind": "me"}, {"kind": "open"}]})).await;
    let (id, host) = (v["table"]["id"].as_str().unwrap().to_string(), v["token"].as_str().unwrap().to_string());
    let (s, v) = post(&app, &format!("/api/lobby/tables/{id}/stand"), json!({"token": host})).await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["closed"], true);
    assert_eq!(get(&app, &format!("/api/lobby/tables/{id}")).await.0, 404);

    // Full: it starts by itself, the last sitter's answer names the game.
    let (_, v) = post(&app, "/api/lobby/tables", json!({"seats": [{"kind": "me"}, {"kind": "open"}]})).await;
    let (id, host) = (v["table"]["id"].as_str().unwrap().to_string(), v["token"].as_str().unwrap().to_string());
    let (s, v) = post(&app, &format!("/api/lobby/tables/{id}/sit"), json!({"seat": 1, "name": "Cy"})).await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["table"]["state"], "started");
    let game = v["table"]["game"].as_str().unwrap();
    let cy = v["token"].as_str().unwrap();
    assert!(state(&app, game, Some(cy)).await["players"][1]["you"].as_bool().unwrap());
    assert!(state(&app, game, Some(&host)).await["players"][0]["you"].as_bool().unwrap());
}

#[tokio::test]
async fn play_now_pairs_two_people_or_offers_a_bot() {
    let (app, _) = test_app();
    let (s, a) = post(&app, "/api/lobby/play-now", json!({"name": "Ann"})).await;
    assert_eq!(s, 201, "{a}");
    assert_eq!(a["wait"]["state"], "waiting");
    assert_eq!(a["wait"]["rating"], 1500);
    let (a_id, a_tok) = (a["wait"]["id"].as_str().unwrap(), a["token"].as_str().unwrap());
    // Someone else's token is refused.
    let (s, v) =
        post(&app, &format!("/api/lobby/play-now/{a_id}"), json!({"token": "0123456789abcdef0123456789abcdef"})).await;
    assert_eq!((s, v["error"].as_str().unwrap()), (403, "unauthorized"));
    // The second person is paired at once with the first.
    let (s, b) = post(&app, "/api/lobby/play-now", json!({"name": "Ann"})).await;
    assert_eq!(s, 201, "{b}");
    assert_eq!(b["wait"]["state"], "paired", "{b}");
    let game = b["wait"]["game"].as_str().unwrap().to_string();
    let (_, a2) = post(&app, &format!("/api/lobby/play-now/{a_id}"), json!({"token": a_tok})).await;
    assert_eq!(a2["wait"]["state"], "paired");
    assert_eq!(a2["wait"]["game"], game.as_str());
    assert_ne!(a2["wait"]["seat"], b["wait"]["seat"]);
    // Both tokens hold their seats; the same names were told apart.
    let g = state(&app, &game, Some(a_tok)).await;
    assert_eq!(g["players"].as_array().unwrap().len(), 2);
    assert!(g["players"][a2["wait"]["seat"].as_u64().unwrap() as usize]["you"].as_bool().unwrap());
    assert_ne!(g["players"][0]["name"], g["players"][1]["name"]);
    let g = state(&app, &game, Some(b["token"].as_str().unwrap())).await;
    assert!(g["players"][b["wait"]["seat"].as_u64().unwrap() as usize]["you"].as_bool().unwrap());
    // Too late to cancel.
    let (s, v) = post(&app, &format!("/api/lobby/play-now/{a_id}/cancel"), json!({"token": a_tok})).await;
    assert_eq!((s, v["error"].as_str().unwrap()), (409, "already_paired"));

    // Bad requests.
    for body in [json!({"bot_after": 1}), json!({"level": "godlike"}), json!({"when": 1}), json!({"name": ""})] {
        let (s, v) = post(&app, "/api/lobby/play-now", body.clone()).await;
        assert_eq!((s, v["error"].as_str().unwrap()), (400, "bad_request"), "{body}");
    }

    // Alone: a bot game at the level chosen once the wait chosen is over.
    let (_, c) = post(&app, "/api/lobby/play-now", json!({"name": "Cid", "bot_after": 5, "level": "easy"})).await;
    assert_eq!(c["wait"]["state"], "waiting", "{c}");
    let (c_id, c_tok) = (c["wait"]["id"].as_str().unwrap().to_string(), c["token"].as_str().unwrap().to_string());
    let started = Instant::now();
    let paired = loop {
        let (_, v) = post(&app, &format!("/api/lobby/play-now/{c_id}"), json!({"token": c_tok})).await;
        if v["wait"]["state"] == "paired" {
            break v;
        }
        assert!(started.elapsed() < Duration::from_secs(15), "no bot game: {v}");
        tokio::time::sleep(Duration::from_millis(250)).await;
    };
    assert!(started.elapsed() >= Duration::from_millis(4000), "the bot came before the wait chosen");
    assert_eq!(paired["wait"]["bot"], true);
    let g = state(&app, paired["wait"]["game"].as_str().unwrap(), Some(&c_tok)).await;
    assert_eq!(g["players"][1]["kind"], "bot");
    assert_eq!(g["players"][1]["level"], "easy");

    // A wait cancelled is over.
    let (_, d) = post(&app, "/api/lobby/play-now", json!({})).await;
    let (d_id, d_tok) = (d["wait"]["id"].as_str().unwrap(), d["token"].as_str().unwrap());
    assert_eq!(post(&app, &format!("/api/lobby/play-now/{d_id}/cancel"), json!({"token": d_tok})).await.0, 200);
    let (s, _) = post(&app, &format!("/api/lobby/play-now/{d_id}"), json!({"token": d_tok})).await;
    assert_eq!(s, 404);
}

// ---- Two servers over one PostgreSQL database ----

macro_rules! server {
    () => {
        match server_url() {
            Some(url) => url,
            None => return,
        }
    };
}

struct Node {
    state: AppState,
    addr: SocketAddr,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
}

impl Node {
    async fn start(schema: &Schema) -> Node {
        let store: Store = schema.open().await;
        let state = AppState::new(store, Config::quick());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let (tx, rx) = tokio::sync::oneshot::channel::<()>();
        let s = state.clone();
        tokio::spawn(async move {
            let _ = serve_until(listener, s, async move {
                let _ = rx.await;
            })
            .await;
        });
        Node { state, addr, stop: Some(tx) }
    }

    async fn post(&self, path: &str, body: Value) -> (u16, Value) {
        http(self.addr, "POST", path, Some(&body)).await
    }
}

impl Drop for Node {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        self.state.begin_shutdown();
    }
}

/// One HTTP/1.1 request on a connection of its own.
async fn http(addr: SocketAddr, method: &str, path: &str, body: Option<&Value>) -> (u16, Value) {
    let mut s = tokio::net::TcpStream::connect(addr).await.expect("the server listens");
    let body = body.map(Value::to_string).unwrap_or_default();
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\
         Connection: close\r\n\r\n{body}",
        body.len()
    );
    s.write_all(request.as_bytes()).await.unwrap();
    let mut buf = Vec::new();
    s.read_to_end(&mut buf).await.unwrap();
    let text = String::from_utf8_lossy(&buf);
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or_else(|| panic!("an HTTP answer: {text}"));
    let status = head.split(' ').nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    (status, serde_json::from_str(body).unwrap_or(Value::Null))
}

type Ws = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// The next lobby message within `within` (pings skipped).
async fn next_message(ws: &mut Ws, within: Duration) -> Value {
    let deadline = tokio::time::Instant::now() + within;
    loop {
        let msg = tokio::time::timeout_at(deadline, ws.next()).await.expect("a lobby message in time");
        match msg.expect("the socket is open").expect("a message") {
            Message::Text(t) => return serde_json::from_str(t.as_str()).unwrap(),
            Message::Close(c) => panic!("closed: {c:?}"),
            _ => {}
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_table_opened_on_one_server_is_live_on_the_other() {
    let url = server!();
    let schema = Schema::new(&url);
    let (a, b) = (Node::start(&schema).await, Node::start(&schema).await);
    let (mut ws_b, _) = tokio_tungstenite::connect_async(format!("ws://{}/api/lobby/ws", b.addr)).await.unwrap();
    let first = next_message(&mut ws_b, Duration::from_secs(5)).await;
    assert_eq!(first, json!({"type": "tables", "tables": []}));
    // Give B's first sweep (at its start) time to pass: what comes next
    // comes through the change feed.
    tokio::time::sleep(Duration::from_millis(300)).await;

    let opened = Instant::now();
    let (s, v) = a
        .post(
            "/api/lobby/tables",
            json!({"name": "Ada", "seats": [{"kind": "me"}, {"kind": "open"}, {"kind": "open"}]}),
        )
        .await;
    assert_eq!(s, 201, "{v}");
    let id = v["table"]["id"].as_str().unwrap().to_string();
    let m = next_message(&mut ws_b, Duration::from_secs(5)).await;
    assert_eq!(m["type"], "table", "{m}");
    assert_eq!(m["table"]["id"], id.as_str());
    assert_eq!(m["table"]["host"], "Ada");
    assert!(opened.elapsed() < Duration::from_secs(5));

    // A sit on B shows on A's socket; then B's list sees the start.
    let (mut ws_a, _) = tokio_tungstenite::connect_async(format!("ws://{}/api/lobby/ws", a.addr)).await.unwrap();
    let first = next_message(&mut ws_a, Duration::from_secs(5)).await;
    assert_eq!(first["tables"][0]["id"], id.as_str());
    let (s, v) = b.post(&format!("/api/lobby/tables/{id}/sit"), json!({"seat": 1, "name": "Bo"})).await;
    assert_eq!(s, 200, "{v}");
    let m = next_message(&mut ws_a, Duration::from_secs(5)).await;
    assert_eq!(m["table"]["seats"][1]["name"], "Bo", "{m}");
    let m = next_message(&mut ws_b, Duration::from_secs(5)).await;
    assert_eq!(m["table"]["free"], 1, "{m}");

    let bo = v["token"].as_str().unwrap(); // not the host's
    let (s, v) = a.post(&format!("/api/lobby/tables/{id}/start"), json!({"token": bo})).await;
    assert_eq!((s, v["error"].as_str().unwrap()), (409, "not_host"));

    // The host not heard from for 5 minutes (made so in the database): the
    // next sweep (every 10 s) closes the table, and both lists say so.
    schema.rows("UPDATE lobby_tables SET seen_at = seen_at - 5 * 60 * 1000 - 1");
    for ws in [&mut ws_a, &mut ws_b] {
        let m = next_message(ws, Duration::from_secs(25)).await;
        assert_eq!(m, json!({"type": "gone", "id": id}));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn people_waiting_on_two_servers_are_paired_once() {
    let url = server!();
    let schema = Schema::new(&url);
    let (a, b) = (Node::start(&schema).await, Node::start(&schema).await);
    let nodes = [&a, &b];
    for round in 0..6 {
        // Four people, two on each server, all asking at once and again.
        let mut waits = Vec::new();
        for (i, node) in [&a, &b, &a, &b].into_iter().enumerate() {
            let (s, v) = node.post("/api/lobby/play-now", json!({"name": format!("P{round}-{i}")})).await;
            assert_eq!(s, 201, "{v}");
            waits.push((
                i % 2,
                v["wait"]["id"].as_str().unwrap().to_string(),
                v["token"].as_str().unwrap().to_string(),
            ));
        }
        let mut outcome = vec![Value::Null; waits.len()];
        for _ in 0..20 {
            let polls = waits.iter().map(|(n, id, tok)| {
                let node = nodes[*n];
                async move { node.post(&format!("/api/lobby/play-now/{id}"), json!({"token": tok})).await.1 }
            });
            let answers = futures_util::future::join_all(polls).await;
            for (k, v) in answers.into_iter().enumerate() {
                outcome[k] = v["wait"].clone();
            }
            if outcome.iter().all(|w| w["state"] == "paired") {
                break;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        // Everyone is in exactly one game, two to a game, each seat once.
        let mut games: std::collections::HashMap<String, Vec<u64>> = Default::default();
        for w in &outcome {
            assert_eq!(w["state"], "paired", "{outcome:?}");
            games.entry(w["game"].as_str().unwrap().to_string()).or_default().push(w["seat"].as_u64().unwrap());
        }
        assert_eq!(games.len(), 2, "{outcome:?}");
        for seats in games.values_mut() {
            seats.sort();
            assert_eq!(seats, &vec![0, 1]);
        }
        // And the storage agrees: four waits paired, into two games.
        let sql = format!("SELECT COUNT(*)::text || ' ' || COUNT(DISTINCT game)::text FROM lobby_waiting WHERE name LIKE 'P{round}-%' AND game IS NOT NULL");
        assert_eq!(schema.one(&sql), "4 2");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_table_filled_from_both_servers_at_once_starts_once() {
    let url = server!();
    let schema = Schema::new(&url);
    let (a, b) = (Node::start(&schema).await, Node::start(&schema).await);
    for round in 0..5 {
        let seats = json!([{"kind": "me"}, {"kind": "open"}, {"kind": "open"}, {"kind": "open"}]);
        let (s, v) = a.post("/api/lobby/tables", json!({"name": format!("H{round}"), "seats": seats})).await;
        assert_eq!(s, 201, "{v}");
        let id = v["table"]["id"].as_str().unwrap().to_string();
        let games_before: i64 = schema.one("SELECT COUNT(*)::text FROM games").parse().unwrap();
        let sits = [(&a, 1), (&b, 2), (&b, 3)].map(|(node, seat)| {
            let id = id.clone();
            async move {
                node.post(&format!("/api/lobby/tables/{id}/sit"), json!({"seat": seat, "name": format!("S{seat}")}))
                    .await
            }
        });
        let answers = futures_util::future::join_all(sits).await;
        for (s, v) in &answers {
            assert_eq!(*s, 200, "{v}");
        }
        let games_after: i64 = schema.one("SELECT COUNT(*)::text FROM games").parse().unwrap();
        assert_eq!(games_after - games_before, 1, "one game for one table: {answers:?}");
        let (_, t) = http(b.addr, "GET", &format!("/api/lobby/tables/{id}"), None).await;
        assert_eq!(t["state"], "started");
        let game = t["game"].as_str().unwrap();
        // Every sitter's token holds their seat in that game.
        for (_, v) in &answers {
            let token = v["token"].as_str().unwrap();
            let (s, g) = http(a.addr, "GET", &format!("/api/games/{game}?token={token}"), None).await;
            assert_eq!(s, 200, "{g}");
            let me = g["players"].as_array().unwrap().iter().filter(|p| p["you"] == true).count();
            assert_eq!(me, 1, "{g}");
        }
    }
}

// ---- Signed in: rated tables ----

/// A request through the router with an optional session cookie and
/// `Sec-Fetch-Site`; answers status, `Set-Cookie` and body.
async fn send(
    app: &axum::Router,
    uri: &str,
    body: Value,
    session: Option<&str>,
    fetch_site: Option<&str>,
) -> (u16, Option<String>, Value) {
    use http_body_util::BodyExt;
    use tower::ServiceExt;
    let mut b = axum::http::Request::builder()
        .method("POST")
        .uri(uri)
        .header("host", "play.example")
        .header("content-type", "application/json");
    if let Some(t) = session {
        b = b.header("cookie", format!("{}={t}", carcassonne_server::COOKIE));
    }
    if let Some(f) = fetch_site {
        b = b.header("sec-fetch-site", f);
    }
    let resp = app.clone().oneshot(b.body(axum::body::Body::from(body.to_string())).unwrap()).await.unwrap();
    let cookie = resp.headers().get("set-cookie").map(|v| v.to_str().unwrap().to_string());
    let status = resp.status().as_u16();
    let bytes = resp.into_body().collect().await.unwrap().to_bytes();
    (status, cookie, serde_json::from_slice(&bytes).unwrap_or(Value::Null))
}

async fn sign_up(app: &axum::Router, name: &str) -> String {
    let (s, cookie, v) =
        send(app, "/api/account/signup", json!({"name": name, "password": "password!"}), None, None).await;
    assert_eq!(s, 201, "{v}");
    let c = cookie.expect("a session cookie");
    c.split(';').next().unwrap().split_once('=').unwrap().1.to_string()
}

#[tokio::test]
async fn rated_tables_seat_signed_in_people_only_and_refuse_house_rules() {
    let (app, _) = test_app();
    let ada = sign_up(&app, "Ada").await;
    let bob = sign_up(&app, "Bob").await;
    let seats = json!([{"kind": "me"}, {"kind": "open"}, {"kind": "open"}]);
    // House rules are not rated.
    let body = json!({"seats": seats, "rated": true, "rules": {"preset": "standard", "small_city": true}});
    let (s, _, v) = send(&app, "/api/lobby/tables", body, Some(&ada), None).await;
    assert_eq!((s, v["error"].as_str().unwrap()), (409, "rated_needs_preset"));
    // A cookie from a page of another site acts for nobody.
    let body = json!({"seats": seats, "rated": true});
    let (s, _, v) = send(&app, "/api/lobby/tables", body.clone(), Some(&ada), Some("cross-site")).await;
    assert_eq!((s, v["error"].as_str().unwrap()), (403, "forbidden_origin"));
    assert_eq!(get(&app, "/api/lobby/tables").await.1["tables"], json!([]));
    // Signed in, a preset: open. The host sits under the account's name.
    let (s, _, v) =
        send(&app, "/api/lobby/tables", json!({"name": "Not Ada", "seats": seats, "rated": true}), Some(&ada), None)
            .await;
    assert_eq!(s, 201, "{v}");
    let id = v["table"]["id"].as_str().unwrap().to_string();
    assert_eq!(v["table"]["rated"], true);
    assert_eq!(v["table"]["host"], "Ada");
    assert_eq!(v["table"]["seats"][0]["signed_in"], true);
    // A guest may not sit; an account may, once.
    let sit = format!("/api/lobby/tables/{id}/sit");
    let (s, _, v) = send(&app, &sit, json!({"seat": 1, "name": "Guest"}), None, None).await;
    assert_eq!((s, v["error"].as_str().unwrap()), (401, "not_signed_in"));
    let (s, _, v) = send(&app, &sit, json!({"seat": 1}), Some(&bob), None).await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["table"]["seats"][1]["name"], "Bob");
    assert_eq!(v["table"]["seats"][1]["signed_in"], true);
    let (s, _, v) = send(&app, &sit, json!({"seat": 2}), Some(&bob), None).await;
    assert_eq!((s, v["error"].as_str().unwrap()), (409, "already_seated"));
    assert_eq!(get(&app, &format!("/api/lobby/tables/{id}")).await.1["free"], 1);
}

#[tokio::test]
async fn a_rated_table_starts_a_rated_game_on_its_clock_with_the_sitters_accounts() {
    let (app, state) = test_app();
    let ada = sign_up(&app, "Ada").await;
    let bob = sign_up(&app, "Bob").await;
    let clock = json!({"kind": "realtime", "minutes": 10, "increment": 5});
    let body = json!({"seats": [{"kind": "me"}, {"kind": "open"}], "rated": true, "clock": clock});
    let (s, _, v) = send(&app, "/api/lobby/tables", body, Some(&ada), None).await;
    assert_eq!(s, 201, "{v}");
    assert_eq!(v["table"]["rating"], 1500, "Ada has no rated duel yet: the starting rating");
    assert_eq!(v["table"]["provisional"], true);
    assert_eq!(v["table"]["clock_text"], "10 min + 5 s");
    let id = v["table"]["id"].as_str().unwrap().to_string();
    let (s, _, v) = send(&app, &format!("/api/lobby/tables/{id}/sit"), json!({"seat": 1}), Some(&bob), None).await;
    assert_eq!(s, 200, "{v}");
    let game = v["table"]["game"].as_str().expect("full: started").to_string();
    let (s, g) = get(&app, &format!("/api/games/{game}")).await;
    assert_eq!(s, 200, "{g}");
    assert_eq!((g["clock"]["kind"].as_str(), g["clock"]["minutes"].as_u64()), (Some("realtime"), Some(10)), "{g}");
    assert!(state.store().ratings.rated(&game).await.unwrap().is_some(), "the game is rated");
    let stored = state.store().games.load(&game).await.unwrap().unwrap();
    for (seat, name) in stored.seats.iter().zip(["ada", "bob"]) {
        let account = state.store().accounts.by_key(name).await.unwrap().unwrap();
        assert_eq!(seat.account(), Some(account.id.as_str()), "{name}'s seat is linked to their account");
    }
}

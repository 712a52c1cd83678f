//! The lobby end to end (docs/web.md, *Lobby*), through its websocket on a
//! server of its own: tables opened, sat at, stood up from and started;
//! every refusal with its code and nothing changed; a table and a wait
//! living while their person's socket is open; "Play now" pairing two
//! people, or a bot after the wait chosen; rated tables. With PostgreSQL
//! (`CARCASSONNE_TEST_POSTGRES`), two servers over one database: a table
//! opened on one appears live on the other's websocket and goes from both
//! with its host's socket; what a stopped server's sockets held is held
//! again on the other, or swept. The attacks of issue 45 are
//! tests/lobby_attacks.rs.

mod common;
mod lobby_socket;

use std::time::{Duration, Instant};

use common::pg::{server_url, Schema};
use lobby_socket::{config, http, refusal, seated, waiting, Node, Page, SOON};
use serde_json::{json, Value};

fn host_two_open() -> Value {
    json!({ "name": "Ada", "seats": [{"kind": "me"}, {"kind": "open"}, {"kind": "open"}, {"kind": "bot", "level": "easy"}] })
}

/// The game `game` as `token`'s holder sees it.
async fn game_state(node: &Node, game: &str, token: &str) -> Value {
    let (s, v) = node.get(&format!("/api/games/{game}?token={token}")).await;
    assert_eq!(s, 200, "{v}");
    v
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tables_open_sit_stand_start_and_refuse() {
    let node = Node::sqlite(config(|_| {})).await;
    let mut ada = node.page().await;
    assert_eq!(ada.first, json!({"type": "tables", "tables": [], "known": false}));
    // Open: the host sits at their seat and holds its token.
    let v = ada.open_table(host_two_open()).await;
    let (id, host) = seated(&v);
    assert_eq!(v["seat"], 0);
    assert_eq!(v["ref"], 1, "the answer names the message's ref");
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
    let (s, list) = node.get("/api/lobby/tables").await;
    assert_eq!(s, 200);
    assert_eq!(list["tables"].as_array().unwrap().len(), 1);
    let before = node.get(&format!("/api/lobby/tables/{id}")).await.1;

    // Refusals change nothing.
    let mut bea = Page::open(&node, "127.0.0.2", None, None).await;
    let refusals: Vec<(Value, &str)> = vec![
        (json!({"type": "sit", "table": id, "seat": 0}), "seat_taken"),
        (json!({"type": "sit", "table": id, "seat": 3}), "seat_taken"),
        (json!({"type": "sit", "table": id, "seat": 9}), "bad_request"),
        (json!({"type": "sit", "table": id, "seat": 1, "name": "  "}), "bad_request"),
        (json!({"type": "sit", "table": id, "seat": 1, "name": "ada"}), "name_taken_here"),
        (json!({"type": "sit", "table": id, "seat": 1, "extra": true}), "bad_request"),
        (json!({"type": "sit", "table": id, "seat": "one"}), "bad_request"),
        (json!({"type": "sit", "table": "nosuchtable", "seat": 1}), "not_found"),
        (json!({"type": "sit", "seat": 1}), "bad_request"),
        (json!({"type": "dance"}), "bad_request"),
        (json!({"type": "hold", "table": id, "token": "0123456789abcdef0123456789abcdef"}), "unauthorized"),
        (json!({"type": "hold", "table": id, "wait": "w", "token": host}), "bad_request"),
    ];
    for (msg, code) in refusals {
        let v = bea.ask(msg.clone()).await;
        assert_eq!(refusal(&v), code, "{msg}: {v}");
    }
    for text in ["not json".to_string(), json!({"type": "sit", "table": id, "seat": 1, "ref": [1]}).to_string()] {
        bea.send_text(text).await;
        assert_eq!(bea.next_of("error", SOON).await["error"], "bad_request");
    }
    for (body, what, status, code) in [
        (json!({"token": "0123456789abcdef0123456789abcdef"}), "stand", 403, "unauthorized"),
        (json!({"token": "junk"}), "start", 403, "unauthorized"),
        (json!({}), "start", 400, "bad_request"),
    ] {
        let (s, v) = node.post(&format!("/api/lobby/tables/{id}/{what}"), body.clone()).await;
        assert_eq!((s, v["error"].as_str().unwrap_or("")), (status, code), "{what} {body}: {v}");
    }
    assert_eq!(node.get(&format!("/api/lobby/tables/{id}")).await.1, before, "refusals changed the table");

    // Sit down, then stand up: the seat is open again.
    let v = bea.sit(&id, 1, Some("Bea")).await;
    let (_, bea_token) = seated(&v);
    assert_eq!(v["table"]["free"], 1);
    assert_eq!(v["table"]["seats"][1]["name"], "Bea");
    let (s, v) = node.post(&format!("/api/lobby/tables/{id}/stand"), json!({"token": bea_token})).await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["table"]["free"], 2);
    // Her token no longer holds a seat.
    let (s, v) = node.post(&format!("/api/lobby/tables/{id}/stand"), json!({"token": bea_token})).await;
    assert_eq!((s, v["error"].as_str().unwrap()), (403, "unauthorized"));

    // Sit again (a guest name given by the server); only the host starts.
    let mut guest = Page::open(&node, "127.0.0.3", None, None).await;
    let v = guest.sit(&id, 2, None).await;
    let (_, guest_token) = seated(&v);
    assert!(v["table"]["seats"][2]["name"].as_str().unwrap().starts_with("Guest "), "{v}");
    let (s, v) = node.post(&format!("/api/lobby/tables/{id}/start"), json!({"token": guest_token})).await;
    assert_eq!((s, v["error"].as_str().unwrap()), (409, "not_host"));
    let (s, v) = node.post(&format!("/api/lobby/tables/{id}/start"), json!({"token": host})).await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["table"]["state"], "started");
    let game = v["table"]["game"].as_str().unwrap().to_string();

    // The game seats the tokens handed out at the table: the empty seat is left out.
    let g = game_state(&node, &game, &host).await;
    let players = g["players"].as_array().unwrap();
    assert_eq!(players.len(), 3, "{g}");
    assert!(players[0]["you"].as_bool().unwrap());
    assert_eq!(players[0]["name"], "Ada");
    assert_eq!(players[2]["kind"], "bot");
    let g = game_state(&node, &game, &guest_token).await;
    assert!(g["players"][1]["you"].as_bool().unwrap(), "{g}");

    // Out of order after the start.
    let v = bea.sit(&id, 1, None).await;
    assert_eq!(refusal(&v), "table_started", "{v}");
    for (what, body) in [("stand", json!({"token": guest_token})), ("start", json!({"token": host}))] {
        let (s, v) = node.post(&format!("/api/lobby/tables/{id}/{what}"), body).await;
        assert_eq!((s, v["error"].as_str().unwrap()), (409, "table_started"), "{what}: {v}");
    }
    // The sockets going changes nothing of a game begun.
    ada.close().await;
    guest.close().await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(node.get(&format!("/api/lobby/tables/{id}")).await.1["state"], "started");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_tables_are_refused_and_hosts_are_capped() {
    let node = Node::sqlite(config(|_| {})).await;
    let mut page = node.page().await;
    let bad: Vec<(Value, &str)> = vec![
        (json!({"seats": [{"kind": "me"}]}), "bad_request"),
        (json!({"seats": [{"kind": "open"}, {"kind": "open"}]}), "bad_request"),
        (json!({"seats": [{"kind": "me"}, {"kind": "me"}]}), "bad_request"),
        (json!({"seats": [{"kind": "me"}, {"kind": "bot"}]}), "bad_request"),
        (json!({"seats": [{"kind": "me"}, {"kind": "open"}, {"kind": "bot", "level": "godlike"}]}), "bad_request"),
        (json!({"seats": [{"kind": "me"}, {"kind": "open"}], "clock": {"kind": "turn", "days": 2}}), "bad_request"),
        (json!({"seats": [{"kind": "me"}, {"kind": "open"}], "rules": {"farms": "nonsense"}}), "bad_request"),
        (json!({"seats": [{"kind": "me"}, {"kind": "open"}], "rated": true}), "not_signed_in"),
        (json!({"seats": [{"kind": "me"}, {"kind": "open"}], "colour": "red"}), "bad_request"),
        (json!({"seats": vec![json!({"kind": "open"}); 7]}), "bad_request"),
        (json!({"seats": [{"kind": "me"}, {"kind": "open"}], "name": "x".repeat(5000)}), ""),
    ];
    for (body, code) in bad {
        if code.is_empty() {
            // Over 4 KiB: the socket refuses the message and closes.
            let mut big = Page::open(&node, "127.0.0.9", None, None).await;
            let mut msg = body.clone();
            msg["type"] = json!("open");
            big.send_text(msg.to_string()).await;
            assert!(big.closed_within(SOON).await, "a message over 4 KiB closes the socket");
            continue;
        }
        let v = page.open_table(body.clone()).await;
        assert_eq!(refusal(&v), code, "{body}: {v}");
    }
    assert_eq!(node.get("/api/lobby/tables").await.1["tables"], json!([]));
    // A clock as given, in words.
    let body = json!({"seats": [{"kind": "me"}, {"kind": "open"}], "clock": {"kind": "realtime", "minutes": 10, "increment": 5}});
    let v = page.open_table(body.clone()).await;
    let (id, host) = seated(&v);
    assert_eq!(v["table"]["clock_text"], "10 min + 5 s");
    assert_eq!(v["table"]["clock"]["minutes"], 10);
    // Three open tables per host (this address), then no more.
    for _ in 0..2 {
        seated(&page.open_table(body.clone()).await);
    }
    let v = page.open_table(body.clone()).await;
    assert_eq!(refusal(&v), "quota_exceeded", "{v}");
    assert!(v["message"].as_str().unwrap().contains("3 open tables per host"), "{v}");
    // Another socket from the same address: the same host.
    let mut again = node.page().await;
    assert_eq!(refusal(&again.open_table(body.clone()).await), "quota_exceeded");
    assert_eq!(node.get("/api/lobby/tables").await.1["tables"].as_array().unwrap().len(), 3);
    // The host standing up closes their table: room for another.
    assert_eq!(node.post(&format!("/api/lobby/tables/{id}/stand"), json!({"token": host})).await.0, 200);
    seated(&again.open_table(body.clone()).await);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_host_leaving_closes_the_table_and_a_full_table_starts() {
    let node = Node::sqlite(config(|_| {})).await;
    let mut host = node.page().await;
    let (id, token) = seated(&host.open_table(json!({"seats": [{"kind": "me"}, {"kind": "open"}]})).await);
    let (s, v) = node.post(&format!("/api/lobby/tables/{id}/stand"), json!({"token": token})).await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["closed"], true);
    assert_eq!(node.get(&format!("/api/lobby/tables/{id}")).await.0, 404);

    // Full: it starts by itself, the last sitter's answer names the game.
    let (id, token) = seated(&host.open_table(json!({"seats": [{"kind": "me"}, {"kind": "open"}]})).await);
    let mut cy = Page::open(&node, "127.0.0.2", None, None).await;
    let v = cy.sit(&id, 1, Some("Cy")).await;
    let (_, cy_token) = seated(&v);
    assert_eq!(v["table"]["state"], "started");
    let game = v["table"]["game"].as_str().unwrap();
    assert!(game_state(&node, game, &cy_token).await["players"][1]["you"].as_bool().unwrap());
    assert!(game_state(&node, game, &token).await["players"][0]["you"].as_bool().unwrap());
    // The host's page learns it from the list.
    let m = loop {
        let m = host.next_of("table", SOON).await;
        if m["table"]["id"] == id.as_str() && m["table"]["state"] == "started" {
            break m;
        }
    };
    assert_eq!(m["table"]["game"], game);
}

/// A table and its seats, and a wait, live while their person's socket is
/// open: a closed socket takes them along at once (the others' lists say
/// so), and a request without a socket holds nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tables_seats_and_waits_live_while_their_socket_is_open() {
    let node = Node::sqlite(config(|_| {})).await;
    let mut watcher = Page::open(&node, "127.0.0.9", None, None).await;
    // Without a socket: nothing is opened, sat or waited for.
    for (path, body) in [
        ("/api/lobby/tables", json!({"seats": [{"kind": "me"}, {"kind": "open"}]})),
        ("/api/lobby/tables/abc/sit", json!({"seat": 1})),
        ("/api/lobby/tables/abc/here", json!({"token": "0123456789abcdef0123456789abcdef"})),
        ("/api/lobby/play-now", json!({})),
    ] {
        let (s, v) = node.post(path, body).await;
        assert_eq!((s, v["error"].as_str().unwrap_or("")), (409, "needs_socket"), "{path}: {v}");
    }
    assert_eq!(node.get("/api/lobby/tables").await.1["tables"], json!([]));

    let mut host = Page::open(&node, "127.0.0.2", None, None).await;
    let body = json!({"name": "Hal", "seats": [{"kind": "me"}, {"kind": "open"}, {"kind": "open"}]});
    let (id, host_token) = seated(&host.open_table(body).await);
    assert_eq!(watcher.next_of("table", SOON).await["table"]["id"], id.as_str());
    let mut sitter = Page::open(&node, "127.0.0.3", None, None).await;
    seated(&sitter.sit(&id, 1, Some("Sal")).await);
    assert_eq!(watcher.next_of("table", SOON).await["table"]["free"], 1);
    // The sitter's page goes: their seat opens again.
    sitter.close().await;
    let m = watcher.next_of("table", SOON).await;
    assert_eq!((m["table"]["free"].as_u64(), m["table"]["seats"][1]["kind"].as_str()), (Some(2), Some("open")), "{m}");
    // A second page holding the host's seat (another tab): the table stays
    // while either is open.
    let mut tab = Page::open(&node, "127.0.0.2", None, None).await;
    let v = tab.ask(json!({"type": "hold", "table": id, "token": host_token})).await;
    assert_eq!((v["type"].as_str(), v["seat"].as_u64()), (Some("held"), Some(0)), "{v}");
    host.close().await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(node.get(&format!("/api/lobby/tables/{id}")).await.0, 200, "the other tab holds it");
    tab.close().await;
    assert_eq!(watcher.next_of("gone", SOON).await, json!({"type": "gone", "id": id}));
    assert_eq!(node.get(&format!("/api/lobby/tables/{id}")).await.0, 404);

    // A wait goes with its socket: nobody is paired with a page gone.
    let mut ann = Page::open(&node, "127.0.0.4", None, None).await;
    let (wait, token) = waiting(&ann.play_now(json!({"name": "Ann"})).await);
    ann.close().await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let (s, _) = node.post(&format!("/api/lobby/play-now/{wait}"), json!({"token": token})).await;
    assert_eq!(s, 404, "the wait ended with its socket");
    let mut bob = Page::open(&node, "127.0.0.5", None, None).await;
    let v = bob.play_now(json!({"name": "Bob"})).await;
    assert_eq!(v["wait"]["state"], "waiting", "not paired with a page gone: {v}");
    // Asking about a wait keeps nothing alive; its page held again, it waits on.
    let (bob_wait, bob_token) = waiting(&v);
    let mut bob_again = Page::open(&node, "127.0.0.5", None, None).await;
    let v = bob_again.ask(json!({"type": "hold", "wait": bob_wait, "token": bob_token})).await;
    assert_eq!((v["type"].as_str(), v["wait"]["state"].as_str()), (Some("held"), Some("waiting")), "{v}");
    bob.close().await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let (s, v) = node.post(&format!("/api/lobby/play-now/{bob_wait}"), json!({"token": bob_token})).await;
    assert_eq!((s, v["wait"]["state"].as_str()), (200, Some("waiting")), "held by the other page: {v}");
    bob_again.close().await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(node.post(&format!("/api/lobby/play-now/{bob_wait}"), json!({"token": bob_token})).await.0, 404);
}

/// A socket that stops answering (a phone asleep, a network gone) is closed
/// after three pings unanswered, and what it held goes.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_socket_that_stops_answering_lets_go() {
    let node = Node::sqlite(config(|c| c.ws_ping = Duration::from_millis(100))).await;
    let mut watcher = Page::open(&node, "127.0.0.9", None, None).await;
    let mut host = Page::open(&node, "127.0.0.2", None, None).await;
    let (id, _) = seated(&host.open_table(json!({"seats": [{"kind": "me"}, {"kind": "open"}]})).await);
    let (wait, token) = waiting(&host.play_now(json!({})).await);
    assert_eq!(watcher.next_of("table", SOON).await["table"]["id"], id.as_str());
    let started = Instant::now();
    let _silent = host.go_silent();
    assert_eq!(watcher.next_of("gone", SOON).await["id"], id.as_str());
    assert!(started.elapsed() >= Duration::from_millis(200), "not before its pings went unanswered");
    assert_eq!(node.post(&format!("/api/lobby/play-now/{wait}"), json!({"token": token})).await.0, 404);
}

/// The server full, a newcomer displaces a watcher's lobby socket, never
/// one that holds a table or a wait (the host's, older than the watcher's).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_socket_holding_something_is_never_displaced() {
    // An open socket takes one place; one opening, two (its connection's
    // and its own): the host's and the watcher's fill three places when a
    // third socket opens.
    let node = Node::sqlite(config(|c| c.max_connections = 3)).await;
    let mut host = Page::open(&node, "127.0.0.2", None, None).await;
    let (id, _) = seated(&host.open_table(json!({"seats": [{"kind": "me"}, {"kind": "open"}]})).await);
    let mut watcher = Page::open(&node, "127.0.0.3", None, None).await;
    // A newcomer: the watcher gives way, the host does not.
    let newcomer = Page::open(&node, "127.0.0.4", None, None).await;
    assert!(watcher.closed_within(SOON).await, "the watcher gave way");
    assert_eq!(newcomer.first["tables"][0]["id"], id.as_str(), "the host's table is still there");
    let v = host.ask(json!({"type": "hold", "table": id, "token": "0123456789abcdef0123456789abcdef"})).await;
    assert_eq!(refusal(&v), "unauthorized", "the host's socket is still open: {v}");
}

/// A lobby socket takes its messages at the websocket rate, and its
/// commands count with its address's API requests: past either, a message
/// is answered `rate_limited` and not done.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lobby_messages_and_commands_are_rate_limited() {
    let slow = carcassonne_server::Rate { per_second: 1, burst: 3 };
    let node = Node::sqlite(config(|c| c.ws_rate = Some(slow))).await;
    let mut page = Page::open(&node, "127.0.0.2", None, None).await;
    let codes: Vec<String> = {
        let mut out = Vec::new();
        for _ in 0..5 {
            out.push(refusal(&page.ask(json!({"type": "dance"})).await).to_string());
        }
        out
    };
    assert_eq!(codes, ["bad_request", "bad_request", "bad_request", "rate_limited", "rate_limited"]);
    // Commands, at the address's API rate: spread over two sockets, counted together.
    let node = Node::sqlite(config(|c| c.http_rate = Some(slow))).await;
    let mut first = Page::open(&node, "127.0.0.77", None, None).await;
    let mut second = Page::open(&node, "127.0.0.77", None, None).await;
    let mut codes = Vec::new();
    for k in 0..5 {
        let page = if k % 2 == 0 { &mut first } else { &mut second };
        codes.push(refusal(&page.sit("nosuchtable", 1, None).await).to_string());
    }
    assert_eq!(codes, ["not_found", "not_found", "not_found", "rate_limited", "rate_limited"]);
    let mut elsewhere = Page::open(&node, "127.0.0.78", None, None).await;
    assert_eq!(refusal(&elsewhere.sit("nosuchtable", 1, None).await), "not_found", "another address's own rate");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn play_now_pairs_two_people_or_offers_a_bot() {
    let node = Node::sqlite(config(|_| {})).await;
    let mut ann = Page::open(&node, "127.0.0.2", Some("device-of-ann-0001"), None).await;
    let a = ann.play_now(json!({"name": "Ann"})).await;
    let (a_id, a_tok) = waiting(&a);
    assert_eq!(a["wait"]["state"], "waiting");
    assert_eq!(a["wait"]["rating"], 1500);
    // Someone else's token is refused.
    let (s, v) =
        node.post(&format!("/api/lobby/play-now/{a_id}"), json!({"token": "0123456789abcdef0123456789abcdef"})).await;
    assert_eq!((s, v["error"].as_str().unwrap()), (403, "unauthorized"));
    // The second person (another address) is paired at once with the first.
    let mut bo = Page::open(&node, "127.0.0.3", Some("device-of-bo-00001"), None).await;
    let b = bo.play_now(json!({"name": "Ann"})).await;
    let (_, b_tok) = waiting(&b);
    assert_eq!(b["wait"]["state"], "paired", "{b}");
    let game = b["wait"]["game"].as_str().unwrap().to_string();
    // The first learns it on their socket, at once.
    let a2 = ann.paired(SOON).await.expect("Ann told of the pairing");
    assert_eq!(a2["state"], "paired");
    assert_eq!(a2["game"], game.as_str());
    assert_ne!(a2["seat"], b["wait"]["seat"]);
    let (_, a3) = node.post(&format!("/api/lobby/play-now/{a_id}"), json!({"token": a_tok})).await;
    assert_eq!(
        a3["wait"],
        a2.clone()
            .as_object()
            .map(|o| {
                let mut o = o.clone();
                o["waited_ms"] = a3["wait"]["waited_ms"].clone();
                Value::Object(o)
            })
            .unwrap(),
        "the same over HTTP"
    );
    // Both tokens hold their seats; the same names were told apart.
    let g = game_state(&node, &game, &a_tok).await;
    assert_eq!(g["players"].as_array().unwrap().len(), 2);
    assert!(g["players"][a2["seat"].as_u64().unwrap() as usize]["you"].as_bool().unwrap());
    assert_ne!(g["players"][0]["name"], g["players"][1]["name"]);
    let g = game_state(&node, &game, &b_tok).await;
    assert!(g["players"][b["wait"]["seat"].as_u64().unwrap() as usize]["you"].as_bool().unwrap());
    // Too late to cancel.
    let (s, v) = node.post(&format!("/api/lobby/play-now/{a_id}/cancel"), json!({"token": a_tok})).await;
    assert_eq!((s, v["error"].as_str().unwrap()), (409, "already_paired"));

    // Bad requests.
    let mut cid = Page::open(&node, "127.0.0.4", None, None).await;
    for body in [json!({"bot_after": 1}), json!({"level": "godlike"}), json!({"when": 1}), json!({"name": ""})] {
        let v = cid.play_now(body.clone()).await;
        assert_eq!(refusal(&v), "bad_request", "{body}: {v}");
    }
    for name in ["Guest 1234", "Spectator 1", "admin"] {
        let v = cid.play_now(json!({ "name": name })).await;
        assert_eq!(refusal(&v), "bad_request", "a name of the server's: {name:?}");
    }

    // Alone: a bot game at the level chosen once the wait chosen is over,
    // told on the socket.
    let c = cid.play_now(json!({"name": "Cid", "bot_after": 5, "level": "easy"})).await;
    let (_, c_tok) = waiting(&c);
    assert_eq!(c["wait"]["state"], "waiting", "{c}");
    let started = Instant::now();
    let paired = cid.paired(Duration::from_secs(15)).await.expect("a bot game");
    assert!(started.elapsed() >= Duration::from_millis(4000), "the bot came before the wait chosen");
    assert_eq!(paired["bot"], true);
    let g = game_state(&node, paired["game"].as_str().unwrap(), &c_tok).await;
    assert_eq!(g["players"][1]["kind"], "bot");
    assert_eq!(g["players"][1]["level"], "easy");

    // A wait cancelled is over.
    let mut dee = Page::open(&node, "127.0.0.5", None, None).await;
    let (d_id, d_tok) = waiting(&dee.play_now(json!({})).await);
    assert_eq!(node.post(&format!("/api/lobby/play-now/{d_id}/cancel"), json!({"token": d_tok})).await.0, 200);
    assert_eq!(node.post(&format!("/api/lobby/play-now/{d_id}"), json!({"token": d_tok})).await.0, 404);
    assert_eq!(dee.next_of("wait-gone", SOON).await["id"], d_id.as_str(), "its socket is told");
}

/// "Play now" pairs by time control: two people asking for different
/// clocks wait on; the next asking for the same one is paired, on that clock.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn play_now_pairs_only_people_asking_for_the_same_clock() {
    let node = Node::sqlite(config(|_| {})).await;
    let blitz = json!({ "kind": "realtime", "minutes": 5, "increment": 3 });
    let mut ann = Page::open(&node, "127.0.0.2", None, None).await;
    let a = ann.play_now(json!({ "name": "Ann", "clock": blitz })).await;
    assert_eq!(a["wait"]["state"], "waiting", "{a}");
    let mut bo = Page::open(&node, "127.0.0.3", None, None).await;
    let b = bo.play_now(json!({ "name": "Bo" })).await;
    assert_eq!(b["wait"]["state"], "waiting", "no clock and 5+3 are not paired: {b}");
    let mut cy = Page::open(&node, "127.0.0.4", None, None).await;
    let (_, c_tok) = waiting(&cy.play_now(json!({ "name": "Cy", "clock": blitz })).await);
    let paired = match cy.paired(SOON).await {
        Some(p) => p,
        None => panic!("Cy, asking for 5+3 too, is paired with Ann"),
    };
    let game = paired["game"].as_str().unwrap().to_string();
    assert_eq!(ann.paired(SOON).await.expect("Ann told")["game"], game.as_str());
    let g = game_state(&node, &game, &c_tok).await;
    let c = &g["clock"];
    assert_eq!((&c["kind"], &c["minutes"], &c["increment"]), (&json!("realtime"), &json!(5), &json!(3)), "{g}");
    assert!(bo.maybe_next_of("wait", Duration::from_millis(300)).await.is_none(), "Bo waits on");
    // A clock that is not one is refused, and nothing waits.
    let mut dee = Page::open(&node, "127.0.0.5", None, None).await;
    let v = dee.play_now(json!({ "name": "Dee", "clock": { "kind": "realtime", "minutes": 0 } })).await;
    assert_eq!(refusal(&v), "bad_clock", "{v}");
}

/// People with a history make lobby games on their account's games of the
/// hour, not their address's: guests on a shared address spending its hour
/// shut none of them out, and their own hour is counted all the same.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_crowd_on_a_known_player_s_address_spends_none_of_their_games() {
    let node = Node::sqlite(config(|c| c.max_new_games_per_hour_per_ip = 2)).await;
    let table = json!({ "seats": [{ "kind": "me" }, { "kind": "open" }] });
    let is_hourly = |v: &Value, whose: &str| {
        v["error"] == "quota_exceeded" && v["message"].as_str().unwrap().contains(&format!("an hour from {whose}"))
    };
    let mut guest = Page::open(&node, "127.0.0.9", None, None).await;
    for _ in 0..2 {
        seated(&guest.open_table(table.clone()).await);
    }
    let v = guest.open_table(table.clone()).await;
    assert!(is_hourly(&v, "one address"), "{v}");
    // Every account has a history here (`config`): Ada's games are her own.
    let cookie = node.sign_up("127.0.0.9", "Ada").await;
    let mut ada = Page::open(&node, "127.0.0.9", None, Some(&cookie)).await;
    seated(&ada.open_table(table.clone()).await);
    waiting(&ada.play_now(json!({})).await);
    let v = ada.open_table(table.clone()).await;
    assert!(is_hourly(&v, "one account"), "{v}");
}

/// Each lobby table and each "Play now" wait makes one game at most, and
/// spends one of the address's new games of the hour when it is made: a
/// guest sitting at their own table (or waiting for a bot) again and again
/// makes no more games than the new-game form allows. A table or a wait
/// refused for another reason spends nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lobby_tables_and_waits_spend_the_new_games_of_the_hour() {
    let node = Node::sqlite(config(|c| c.max_new_games_per_hour_per_ip = 4)).await;
    let table = json!({ "seats": [{ "kind": "me" }, { "kind": "open" }] });
    let is_hourly = |v: &Value| v["error"] == "quota_exceeded" && v["message"].as_str().unwrap().contains("an hour");
    let mut page = Page::open(&node, "127.0.0.4", None, None).await;
    for _ in 0..3 {
        let (id, _) = seated(&page.open_table(table.clone()).await);
        let v = page.sit(&id, 1, Some("Cy")).await;
        assert_eq!(v["table"]["state"], "started", "{v}");
    }
    waiting(&page.play_now(json!({ "name": "Bo" })).await);
    let v = page.open_table(table.clone()).await;
    assert!(is_hourly(&v), "{v}");
    let v = page.play_now(json!({ "name": "Bo" })).await;
    assert!(is_hourly(&v), "{v}");
    let body = json!([{ "kind": "human" }, { "kind": "human" }]);
    let (s, _, v) = http(node.addr, "127.0.0.4", "POST", "/api/games", Some(&json!({"seats": body})), None).await;
    assert!(s == 429 && is_hourly(&v), "the form's games count with the lobby's: {s} {v}");

    // Three open tables per host: the fourth is refused, and spends nothing.
    let mut host = Page::open(&node, "127.0.0.5", None, None).await;
    for _ in 0..3 {
        seated(&host.open_table(table.clone()).await);
    }
    let v = host.open_table(table.clone()).await;
    assert!(v["message"].as_str().unwrap().contains("open tables per host"), "{v}");
    waiting(&host.play_now(json!({ "name": "Bo" })).await);
    let v = host.open_table(table.clone()).await;
    assert!(is_hourly(&v), "the refused table gave its game back, the wait took it: {v}");
}

/// Games of lobby tables and of "Play now" count among the games the
/// store keeps for their host's (or the pairing wait's) address: one more
/// game from there drops the oldest unfinished casual one (docs/web.md,
/// *Storage caps*).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lobby_and_play_now_games_count_among_the_games_an_address_keeps() {
    let node = Node::sqlite(config(|c| c.max_kept_games_per_ip = 2)).await;
    let exists = |id: String| {
        let node = &node;
        async move { node.get(&format!("/api/games/{id}")).await.0 == 200 }
    };
    let mut host = Page::open(&node, "127.0.0.6", None, None).await;
    let (table, _) = seated(&host.open_table(json!({ "seats": [{ "kind": "me" }, { "kind": "open" }] })).await);
    let mut cy = Page::open(&node, "127.0.0.7", None, None).await;
    let v = cy.sit(&table, 1, Some("Cy")).await;
    assert_eq!(v["table"]["state"], "started", "{v}");
    let tabled = v["table"]["game"].as_str().unwrap().to_string();
    let bot = host.play_now(json!({ "name": "Ada", "bot_after": 5, "level": "random" })).await;
    let paired = match bot["wait"]["game"].as_str() {
        Some(game) => game.to_string(),
        None => {
            host.paired(Duration::from_secs(15)).await.expect("paired with a bot")["game"].as_str().unwrap().to_string()
        }
    };
    assert!(exists(tabled.clone()).await && exists(paired.clone()).await);
    // The host's address keeps two: its next game drops the table's, then the pairing's.
    let people = json!({ "seats": [{ "kind": "human" }, { "kind": "human" }] });
    let (s, _, v) = http(node.addr, "127.0.0.6", "POST", "/api/games", Some(&people), None).await;
    assert_eq!(s, 201, "{v}");
    assert!(!exists(tabled).await, "the table's game made room");
    assert!(exists(paired.clone()).await);
    let (s, _, v) = http(node.addr, "127.0.0.6", "POST", "/api/games", Some(&people), None).await;
    assert_eq!(s, 201, "{v}");
    assert!(!exists(paired).await, "the pairing's game made room");
}

// ---- Signed in: rated tables ----

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rated_tables_seat_signed_in_people_only_and_refuse_house_rules() {
    let node = Node::sqlite(config(|_| {})).await;
    let ada = node.sign_up("127.0.0.2", "Ada").await;
    let bob = node.sign_up("127.0.0.3", "Bob").await;
    let mut ada_page = Page::open(&node, "127.0.0.2", None, Some(&ada)).await;
    let seats = json!([{"kind": "me"}, {"kind": "open"}, {"kind": "open"}]);
    // House rules are not rated.
    let body = json!({"seats": seats, "rated": true, "rules": {"preset": "standard", "small_city": true}});
    assert_eq!(refusal(&ada_page.open_table(body).await), "rated_needs_preset");
    // A bot is never rated against.
    let body = json!({"seats": [{"kind": "me"}, {"kind": "open"}, {"kind": "bot", "level": "hard"}], "rated": true});
    assert_eq!(refusal(&ada_page.open_table(body).await), "not_ratable");
    // A socket from a page of another site acts for nobody.
    let mut request = tokio_tungstenite::tungstenite::client::IntoClientRequest::into_client_request(format!(
        "ws://{}/api/lobby/ws",
        node.addr
    ))
    .unwrap();
    request.headers_mut().insert("cookie", format!("carcassonne_session={ada}").parse().unwrap());
    request.headers_mut().insert("origin", "https://evil.example".parse().unwrap());
    let stream = lobby_socket::connect_from("127.0.0.2", node.addr).await;
    assert!(tokio_tungstenite::client_async(request, stream).await.is_err(), "another site's page is refused");
    assert_eq!(node.get("/api/lobby/tables").await.1["tables"], json!([]));
    // Signed in, a preset: open. The host sits under the account's name.
    let v = ada_page.open_table(json!({"name": "Not Ada", "seats": seats, "rated": true})).await;
    let (id, _) = seated(&v);
    assert_eq!(v["table"]["rated"], true);
    assert_eq!(v["table"]["host"], "Ada");
    assert_eq!(v["table"]["seats"][0]["signed_in"], true);
    // A guest may not sit; an account may, once.
    let mut guest = Page::open(&node, "127.0.0.4", None, None).await;
    assert_eq!(refusal(&guest.sit(&id, 1, Some("Guest")).await), "not_signed_in");
    let mut bob_page = Page::open(&node, "127.0.0.3", None, Some(&bob)).await;
    let v = bob_page.sit(&id, 1, None).await;
    seated(&v);
    assert_eq!(v["table"]["seats"][1]["name"], "Bob");
    assert_eq!(v["table"]["seats"][1]["signed_in"], true);
    assert_eq!(refusal(&bob_page.sit(&id, 2, None).await), "already_seated");
    assert_eq!(node.get(&format!("/api/lobby/tables/{id}")).await.1["free"], 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rated_table_starts_a_rated_game_on_its_clock_with_the_sitters_accounts() {
    let node = Node::sqlite(config(|_| {})).await;
    let ada = node.sign_up("127.0.0.2", "Ada").await;
    let bob = node.sign_up("127.0.0.3", "Bob").await;
    let clock = json!({"kind": "realtime", "minutes": 10, "increment": 5});
    let mut ada_page = Page::open(&node, "127.0.0.2", None, Some(&ada)).await;
    let v =
        ada_page.open_table(json!({"seats": [{"kind": "me"}, {"kind": "open"}], "rated": true, "clock": clock})).await;
    let (id, _) = seated(&v);
    assert_eq!(v["table"]["rating"], 1500, "Ada has no rated duel yet: the starting rating");
    assert_eq!(v["table"]["provisional"], true);
    assert_eq!(v["table"]["clock_text"], "10 min + 5 s");
    let mut bob_page = Page::open(&node, "127.0.0.3", None, Some(&bob)).await;
    let v = bob_page.sit(&id, 1, None).await;
    let game = v["table"]["game"].as_str().expect("full: started").to_string();
    let (s, g) = node.get(&format!("/api/games/{game}")).await;
    assert_eq!(s, 200, "{g}");
    assert_eq!((g["clock"]["kind"].as_str(), g["clock"]["minutes"].as_u64()), (Some("realtime"), Some(10)), "{g}");
    let store = node.state.store();
    assert!(store.ratings.rated(&game).await.unwrap().is_some(), "the game is rated");
    let stored = store.games.load(&game).await.unwrap().unwrap();
    for (seat, name) in stored.seats.iter().zip(["ada", "bob"]) {
        let account = store.accounts.by_key(name).await.unwrap().unwrap();
        assert_eq!(seat.account(), Some(account.id.as_str()), "{name}'s seat is linked to their account");
    }
    // Each link keeps the address its sitter sat from: the rating checks'
    // one address, one player holds at lobby tables too.
    let links = store.ratings.linked(&game).await.unwrap();
    let from: Vec<Option<String>> = links.iter().map(|l| l.2.clone()).collect();
    let hash = carcassonne_server::hash_token;
    assert_eq!(from, [Some(hash("127.0.0.2")), Some(hash("127.0.0.3"))], "{links:?}");
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

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_table_opened_on_one_server_is_live_on_the_other_and_goes_with_its_host() {
    let url = server!();
    let schema = Schema::new(&url);
    let (a, b) = (Node::postgres(&schema, config(|_| {})).await, Node::postgres(&schema, config(|_| {})).await);
    let mut on_b = b.page().await;
    assert_eq!(on_b.first, json!({"type": "tables", "tables": [], "known": false}));
    // Give B's first sweep (at its start) time to pass: what comes next
    // comes through the change feed.
    tokio::time::sleep(Duration::from_millis(300)).await;

    let mut host = Page::open(&a, "127.0.0.2", None, None).await;
    let body = json!({"name": "Ada", "seats": [{"kind": "me"}, {"kind": "open"}, {"kind": "open"}]});
    let (id, _) = seated(&host.open_table(body).await);
    let m = on_b.next_of("table", Duration::from_secs(5)).await;
    assert_eq!(m["table"]["id"], id.as_str());
    assert_eq!(m["table"]["host"], "Ada");

    // A sit on B shows on A's sockets.
    let mut on_a = a.page().await;
    assert_eq!(on_a.first["tables"][0]["id"], id.as_str());
    let mut bo = Page::open(&b, "127.0.0.3", None, None).await;
    let v = bo.sit(&id, 1, Some("Bo")).await;
    let (_, bo_token) = seated(&v);
    assert_eq!(on_a.next_of("table", Duration::from_secs(5)).await["table"]["seats"][1]["name"], "Bo");
    assert_eq!(on_b.next_of("table", Duration::from_secs(5)).await["table"]["free"], 1);
    let (s, v) = a.post(&format!("/api/lobby/tables/{id}/start"), json!({"token": bo_token})).await;
    assert_eq!((s, v["error"].as_str().unwrap()), (409, "not_host"));

    // The host's page goes (on A): the table goes from both lists at once.
    host.close().await;
    for page in [&mut on_a, &mut on_b] {
        let m = page.next_of("gone", Duration::from_secs(5)).await;
        assert_eq!(m, json!({"type": "gone", "id": id}));
    }
}

/// A server that stops (SIGTERM) leaves what its sockets held: a page that
/// comes back on the other server holds it again; what no page holds again
/// is swept once no server has said it open for `hold_gone`.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn what_a_stopped_server_held_is_held_again_elsewhere_or_swept() {
    let url = server!();
    let schema = Schema::new(&url);
    let quick = || config(|c| c.lobby.hold_gone = Duration::from_millis(900));
    let (a, b) = (Node::postgres(&schema, quick()).await, Node::postgres(&schema, quick()).await);
    let mut on_b = b.page().await;
    let mut kept = Page::open(&a, "127.0.0.2", None, None).await;
    let (kept_id, kept_token) =
        seated(&kept.open_table(json!({"name": "Kay", "seats": [{"kind": "me"}, {"kind": "open"}]})).await);
    let (wait, wait_token) = waiting(&kept.play_now(json!({})).await);
    let mut lost = Page::open(&a, "127.0.0.3", None, None).await;
    let (lost_id, _) =
        seated(&lost.open_table(json!({"name": "Lou", "seats": [{"kind": "me"}, {"kind": "open"}]})).await);
    for _ in 0..2 {
        on_b.next_of("table", SOON).await;
    }
    a.stop();
    // Kay's page comes back on B and holds her table and her wait again.
    let mut back = Page::open(&b, "127.0.0.2", None, None).await;
    let v = back.ask(json!({"type": "hold", "table": kept_id, "token": kept_token})).await;
    assert_eq!(v["type"], "held", "{v}");
    let v = back.ask(json!({"type": "hold", "wait": wait, "token": wait_token})).await;
    assert_eq!(v["type"], "held", "{v}");
    // Lou's does not: B's sweep removes it, and says so.
    let m = on_b.next_of("gone", Duration::from_secs(5)).await;
    assert_eq!(m["id"], lost_id.as_str());
    tokio::time::sleep(Duration::from_secs(2)).await;
    assert_eq!(b.get(&format!("/api/lobby/tables/{kept_id}")).await.0, 200, "held again on B");
    let (s, v) = b.post(&format!("/api/lobby/play-now/{wait}"), json!({"token": wait_token})).await;
    assert_eq!((s, v["wait"]["state"].as_str()), (200, Some("waiting")), "{v}");
    drop(lost);
}

/// A person with a history is a signed-in account a day old with a rated
/// game played to the end: such a host takes a place kept, a newer
/// account (or one without a rated game) does not, and is counted by its
/// address.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_history_is_a_day_old_account_with_a_rated_game() {
    let url = server!();
    let schema = Schema::new(&url);
    let settings = |c: &mut carcassonne_server::Config| {
        c.lobby.max_tables = 2;
        c.lobby.tables_kept = 1;
    };
    let node = Node::postgres(
        &schema,
        lobby_socket::config(|c| {
            settings(c);
            c.lobby.known_after = Duration::from_secs(24 * 3600);
            c.lobby.known_rated_games = 1;
        }),
    )
    .await;
    let table = json!({"seats": [{"kind": "me"}, {"kind": "open"}]});
    let mut guest = Page::open(&node, "127.0.0.2", None, None).await;
    seated(&guest.open_table(table.clone()).await);
    let mut ids = Vec::new();
    for name in ["Old", "Rated", "Both"] {
        let cookie = node.sign_up("127.0.0.3", name).await;
        ids.push(schema.one(&format!("SELECT id FROM accounts WHERE name = '{name}'")));
        ids.push(cookie);
    }
    let day = 24 * 3600 * 1000 + 1000;
    schema.rows(&format!("UPDATE accounts SET created_at = created_at - {day} WHERE name IN ('Old', 'Both')"));
    for name in ["Rated", "Both"] {
        schema.rows(&format!(
            "INSERT INTO ratings (account, pool, rating, deviation, volatility, games, updated_at)
             SELECT id, 'duel', 0, 1, 0.06, 1, 0 FROM accounts WHERE name = '{name}'"
        ));
    }
    // The one place not kept is the guest's: a day old without a rated
    // game, or a rated game a minute old, is fresh; both, known.
    for (k, name, code) in [(1, "Old", "quota_exceeded"), (3, "Rated", "quota_exceeded"), (5, "Both", "")] {
        let mut page = Page::open(&node, &format!("127.0.1.{k}"), None, Some(&ids[k])).await;
        let v = page.open_table(table.clone()).await;
        assert_eq!(refusal(&v), code, "{name}: {v}");
    }
}

/// A host may keep their table's seats for people with a history: a crowd
/// of guests and new accounts cannot sit there (`needs_history`, nothing
/// changed), a person with a history can; each page hears first whether it
/// has one. A guest cannot ask for such a table.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_table_for_people_with_a_history_seats_no_one_else() {
    let node = Node::sqlite(config(|c| c.lobby.known_rated_games = 1)).await;
    let ada = node.sign_up("127.0.0.2", "Ada").await;
    let bob = node.sign_up("127.0.0.3", "Bob").await;
    let cleo = node.sign_up("127.0.0.4", "Cleo").await;
    common::accounts::rated(node.state.store(), "Ada", carcassonne_server::Pool::Duel, 1600.0).await;
    common::accounts::rated(node.state.store(), "Bob", carcassonne_server::Pool::Duel, 1500.0).await;
    let table = json!({"seats": [{"kind": "me"}, {"kind": "open"}, {"kind": "open"}], "known_only": true});
    let mut guest = Page::open(&node, "127.0.0.9", None, None).await;
    assert_eq!(guest.first["known"], false, "{}", guest.first);
    let v = guest.open_table(table.clone()).await;
    assert_eq!(refusal(&v), "not_signed_in", "{v}");
    let mut ada_page = Page::open(&node, "127.0.0.2", None, Some(&ada)).await;
    assert_eq!(ada_page.first["known"], true, "{}", ada_page.first);
    let v = ada_page.open_table(table).await;
    let (id, _) = seated(&v);
    assert_eq!((&v["table"]["known_only"], &v["table"]["free"]), (&json!(true), &json!(2)), "{v}");
    // The crowd: guests from many addresses, and an account with no rated game.
    for k in 10..20 {
        let mut page = Page::open(&node, &format!("127.0.5.{k}"), None, None).await;
        let v = page.sit(&id, 1 + k % 2, Some("Mallory")).await;
        assert_eq!(refusal(&v), "needs_history", "{v}");
    }
    let mut cleo_page = Page::open(&node, "127.0.0.4", None, Some(&cleo)).await;
    assert_eq!(cleo_page.first["known"], false, "{}", cleo_page.first);
    let v = cleo_page.sit(&id, 1, None).await;
    assert_eq!(refusal(&v), "needs_history", "{v}");
    assert!(v["message"].as_str().unwrap().contains("a rated game played to the end"), "{v}");
    let (_, t) = node.get(&format!("/api/lobby/tables/{id}")).await;
    assert_eq!((&t["free"], &t["known_only"]), (&json!(2), &json!(true)), "nothing changed: {t}");
    // Bob has a history: he sits.
    let mut bob_page = Page::open(&node, "127.0.0.3", None, Some(&bob)).await;
    let v = bob_page.sit(&id, 2, None).await;
    seated(&v);
    assert_eq!(v["table"]["free"], 1, "{v}");
    // A table without the choice seats anyone, as before.
    let v = ada_page.open_table(json!({"seats": [{"kind": "me"}, {"kind": "open"}]})).await;
    let (open_id, _) = seated(&v);
    assert_eq!(v["table"]["known_only"], false, "{v}");
    seated(&cleo_page.sit(&open_id, 1, None).await);
}

// ---- The Big Box (issue 47) ----

/// A Big Box table: the form's `big-box` preset, rated allowed; the table
/// says its rule family and pool, and shows its host with their rating in
/// that pool (a new Big Box player's start, whatever their base game's);
/// its game plays the Big Box, rated.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_big_box_table_says_its_pool_and_its_host_s_rating_there() {
    let node = Node::sqlite(config(|_| {})).await;
    let ada = node.sign_up("127.0.0.2", "Ada").await;
    let bob = node.sign_up("127.0.0.3", "Bob").await;
    common::accounts::rated(node.state.store(), "Ada", carcassonne_server::Pool::Duel, 1900.0).await;
    let mut ada_page = Page::open(&node, "127.0.0.2", None, Some(&ada)).await;
    // Her base game table shows her base game's rating.
    let base = ada_page.open_table(json!({"seats": [{"kind": "me"}, {"kind": "open"}]})).await;
    seated(&base);
    assert_eq!((&base["table"]["pool"], &base["table"]["family"]), (&json!("duel"), &json!("base")), "{base}");
    let base_rating = base["table"]["rating"].as_i64().unwrap();
    assert!(base_rating > 1500, "{base}");
    let v = ada_page
        .open_table(json!({"seats": [{"kind": "me"}, {"kind": "open"}], "rated": true, "rules": {"preset": "big-box"}}))
        .await;
    let (id, _) = seated(&v);
    let t = &v["table"];
    assert_eq!(
        (&t["pool"], &t["family"], &t["rated"]),
        (&json!("big-box-duel"), &json!("big-box"), &json!(true)),
        "{v}"
    );
    assert_eq!(t["rules"]["preset"], "big-box", "{v}");
    assert_eq!((&t["rating"], &t["provisional"]), (&json!(1500), &json!(true)), "the Big Box pool's start: {v}");
    // Three seats: the Big Box's pool of three to six.
    let mut bob_page = Page::open(&node, "127.0.0.3", None, Some(&bob)).await;
    let three = bob_page
        .open_table(
            json!({"seats": [{"kind": "me"}, {"kind": "open"}, {"kind": "open"}], "rules": {"preset": "big-box"}}),
        )
        .await;
    assert_eq!(three["table"]["pool"], "big-box-multi", "{three}");
    seated(&three);
    let v = bob_page.sit(&id, 1, None).await;
    let game = v["table"]["game"].as_str().expect("full: started").to_string();
    let (s, g) = node.get(&format!("/api/games/{game}")).await;
    assert_eq!(s, 200, "{g}");
    assert_eq!((&g["rated"], &g["rules"]["preset"]), (&json!(true), &json!("big-box")), "{g}");
    let (_, r) = node.get(&format!("/api/games/{game}/ratings")).await;
    assert_eq!(r["pool"], "big-box-duel", "{r}");
}

/// "Play now" pairs only people asking for the same rule family, and
/// makes their game on its preset; a family that is not one is refused.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn play_now_pairs_only_people_asking_for_the_same_rule_family() {
    let node = Node::sqlite(config(|_| {})).await;
    let mut ann = Page::open(&node, "127.0.0.2", None, None).await;
    let a = ann.play_now(json!({ "name": "Ann", "rules": "big-box" })).await;
    assert_eq!((&a["wait"]["state"], &a["wait"]["family"]), (&json!("waiting"), &json!("big-box")), "{a}");
    let mut bo = Page::open(&node, "127.0.0.3", None, None).await;
    let b = bo.play_now(json!({ "name": "Bo" })).await;
    assert_eq!((&b["wait"]["state"], &b["wait"]["family"]), (&json!("waiting"), &json!("base")), "not paired: {b}");
    let mut cy = Page::open(&node, "127.0.0.4", None, None).await;
    let (_, c_tok) = waiting(&cy.play_now(json!({ "name": "Cy", "rules": "big-box" })).await);
    let paired = match cy.paired(SOON).await {
        Some(p) => p,
        None => panic!("Cy, asking for the Big Box too, is paired with Ann"),
    };
    let game = paired["game"].as_str().unwrap().to_string();
    assert_eq!(ann.paired(SOON).await.expect("Ann told")["game"], game.as_str());
    let g = game_state(&node, &game, &c_tok).await;
    assert_eq!(g["rules"]["preset"], "big-box", "{g}");
    assert!(bo.maybe_next_of("wait", Duration::from_millis(300)).await.is_none(), "Bo waits on");
    let mut dee = Page::open(&node, "127.0.0.5", None, None).await;
    let v = dee.play_now(json!({ "name": "Dee", "rules": "inns" })).await;
    assert_eq!(refusal(&v), "bad_request", "{v}");
}

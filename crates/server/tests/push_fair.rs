//! Web Push on the open internet (issue 45, 3 and 10; docs/web.md,
//! *Notifications*, "Sending fairly" and "Limits"), the attacks reduced:
//!
//! * push services that accept connections and never answer, holding an
//!   attacker's subscriptions flooded with hot-seat moves, cost only those
//!   subscriptions: a real player's notifications at another service all
//!   arrive (counted as they arrive, with a generous bound on the wait),
//!   and the silent services are written to a few times, never held open;
//! * at one busy push service, an address flooding moves waits its turn
//!   among the others (counted by order of arrival);
//! * subscriptions per client address are bounded, a signed-in account's
//!   counted apart (strangers at its address never refuse it), and a
//!   game's end frees its seats' subscriptions.

mod common;

use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use axum::http::StatusCode;
use axum::Router;
use carcassonne_server::Store;
use common::page::{req, send, Answer, Req};
use common::push::{push_config, push_service, server_with, Browser, Received};
use common::{create, pick_move, post_move, state, two_humans};
use serde_json::{json, Value};
use tokio::io::AsyncReadExt as _;
use tokio::sync::mpsc;

/// The attacker's address, and the real player's.
const ATTACKER: &str = "203.0.113.7";
const PLAYER: &str = "198.51.100.20";

/// What a push service that never answers went through: connections opened
/// to it, open now, and open at most at once.
#[derive(Default)]
struct Silent {
    opened: AtomicUsize,
    open: AtomicUsize,
    most_open: AtomicUsize,
}

/// A push service on 127.0.0.1 that accepts connections, reads what it is
/// sent and never answers (it keeps every connection until the server
/// closes it).
async fn silent_service() -> (SocketAddr, Arc<Silent>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let seen = Arc::new(Silent::default());
    let counts = Arc::clone(&seen);
    tokio::spawn(async move {
        loop {
            let Ok((mut stream, _)) = listener.accept().await else { return };
            counts.opened.fetch_add(1, Ordering::SeqCst);
            let open = counts.open.fetch_add(1, Ordering::SeqCst) + 1;
            counts.most_open.fetch_max(open, Ordering::SeqCst);
            let counts = Arc::clone(&counts);
            tokio::spawn(async move {
                let mut buf = [0u8; 4096];
                while matches!(stream.read(&mut buf).await, Ok(n) if n > 0) {}
                counts.open.fetch_sub(1, Ordering::SeqCst);
            });
        }
    });
    (addr, seen)
}

/// `POST /api/push/subscribe` from `ip`, with the session `cookie` if any.
async fn subscribe_from(app: &Router, ip: &str, cookie: Option<&str>, body: Value) -> Answer {
    let r = req("localhost", "http://localhost", "POST", "/api/push/subscribe", Some(body));
    send(app, Req { ip: ip.parse().unwrap(), token: cookie, ..r }).await
}

/// `browsers` browsers (endpoints `{base}/{seat}-{n}`) following each seat
/// of game `id`, subscribed from `ip`.
async fn follow_every_seat(app: &Router, ip: &str, id: &str, tokens: &[String], bases: &[String], browsers: usize) {
    for (seat, token) in tokens.iter().enumerate() {
        for n in 0..browsers {
            let base = &bases[n % bases.len()];
            let browser = Browser::new(&format!("{id} {seat} {n}"));
            let body = json!({
                "subscription": browser.subscription(&format!("{base}/{seat}-{n}")),
                "game": id,
                "tokens": token,
            });
            let a = subscribe_from(app, ip, None, body).await;
            assert_eq!(a.status, StatusCode::OK, "{}", a.body);
        }
    }
}

/// A game of six people at one screen (hot-seat), its tokens by seat.
async fn hot_seat(app: &Router) -> (String, Vec<String>) {
    let six =
        json!({ "seats": (0..6).map(|i| json!({ "kind": "human", "name": format!("P{i}") })).collect::<Vec<_>>() });
    let (id, tokens, _) = create(app, six).await;
    (id, tokens.into_iter().map(Option::unwrap).collect())
}

/// `moves` moves of the hot-seat game, each by the seat to move.
async fn flood(app: &Router, id: &str, tokens: &[String], moves: usize) {
    for _ in 0..moves {
        let s = state(app, id, None).await;
        let seat = s["turn"]["seat"].as_u64().expect("the game goes on") as usize;
        let s = state(app, id, Some(&tokens[seat])).await;
        let (status, v) = post_move(app, id, &tokens[seat], &pick_move(&s, 0, false)).await;
        assert_eq!(status, StatusCode::OK, "{v}");
    }
}

/// One move by whoever holds `token` (the seat to move).
async fn play(app: &Router, id: &str, token: &str) {
    let s = state(app, id, Some(token)).await;
    let (status, v) = post_move(app, id, token, &pick_move(&s, 0, false)).await;
    assert_eq!(status, StatusCode::OK, "{v}");
}

/// The next request the push service received, within a generous bound.
async fn arrival(rx: &mut mpsc::UnboundedReceiver<Received>) -> Option<Received> {
    tokio::time::timeout(Duration::from_secs(60), rx.recv()).await.ok().flatten()
}

/// A game of two people, "Ada" to move first: its id, Ada's and Bob's tokens.
async fn ada_and_bob(app: &Router) -> (String, String, String) {
    let (id, tokens, created) = create(app, two_humans()).await;
    let first = created["turn"]["seat"].as_u64().unwrap() as usize;
    (id, tokens[first].clone().unwrap(), tokens[1 - first].clone().unwrap())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn push_services_that_never_answer_cost_only_their_own_subscriptions() {
    let (silent_one, one) = silent_service().await;
    let (silent_two, two) = silent_service().await;
    let (real, mut arrived) = push_service().await;
    let (app, _) = server_with(Store::in_memory().unwrap(), push_config());

    // The attacker: a hot-seat game of six, each seat followed by eight
    // browsers whose push services (two of them) never answer.
    let (flooded, flood_tokens) = hot_seat(&app).await;
    let bases = [format!("http://{silent_one}/silent"), format!("http://{silent_two}/silent")];
    follow_every_seat(&app, ATTACKER, &flooded, &flood_tokens, &bases, 8).await;

    // A real player, Bob, at a push service that answers.
    let (id, ada, bob) = ada_and_bob(&app).await;
    let browser = Browser::new("bob");
    let body =
        json!({ "subscription": browser.subscription(&format!("http://{real}/push/bob")), "game": id, "tokens": bob });
    assert_eq!(subscribe_from(&app, PLAYER, None, body).await.status, StatusCode::OK);

    // Six flood moves (48 notifications to the silent services) before
    // each of Ada's: Bob is told of each of his ten turns.
    const TURNS: usize = 10;
    for _ in 0..TURNS {
        flood(&app, &flooded, &flood_tokens, 6).await;
        play(&app, &id, &ada).await;
        play(&app, &id, &bob).await;
    }
    let mut told = 0;
    while told < TURNS {
        let Some(got) = arrival(&mut arrived).await else { break };
        assert_eq!(got.path, "/push/bob");
        told += 1;
    }
    assert_eq!(told, TURNS, "every one of Bob's turns reaches his push service");

    // The silent services were written to, a few times only, and each
    // connection given up on was closed.
    for (name, silent) in [("one", &one), ("two", &two)] {
        let (opened, most) = (silent.opened.load(Ordering::SeqCst), silent.most_open.load(Ordering::SeqCst));
        assert!(opened >= 1, "silent service {name}: the attacker's notifications were tried");
        assert!(most <= 2, "silent service {name}: {most} connections at once");
    }
    for _ in 0..300 {
        if one.open.load(Ordering::SeqCst) + two.open.load(Ordering::SeqCst) == 0 {
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("the connections to the silent services are kept open");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_address_flooding_a_busy_push_service_waits_its_turn_there() {
    let (busy, mut arrived) = push_service().await;
    let (app, _) = server_with(Store::in_memory().unwrap(), push_config());
    let (flooded, flood_tokens) = hot_seat(&app).await;
    follow_every_seat(&app, ATTACKER, &flooded, &flood_tokens, &[format!("http://{busy}/slow/flood")], 8).await;
    let (id, ada, bob) = ada_and_bob(&app).await;
    let browser = Browser::new("bob");
    let body =
        json!({ "subscription": browser.subscription(&format!("http://{busy}/slow/bob")), "game": id, "tokens": bob });
    assert_eq!(subscribe_from(&app, PLAYER, None, body).await.status, StatusCode::OK);

    // Sixty moves: 480 notifications for a service that answers each after
    // a quarter of a second. Then Ada moves.
    flood(&app, &flooded, &flood_tokens, 60).await;
    play(&app, &id, &ada).await;
    while arrived.try_recv().is_ok() {}
    // Bob's comes within the next few, not after the flood's backlog.
    let mut before = 0;
    loop {
        let got = arrival(&mut arrived).await.expect("Bob is told");
        if got.path == "/slow/bob" {
            break;
        }
        before += 1;
    }
    assert!(before <= 24, "{before} of the flood's notifications went before Bob's");
    // The flood still had a backlog when Bob's went (else this shows nothing).
    let mut after = 0;
    while after < 8 && arrival(&mut arrived).await.is_some() {
        after += 1;
    }
    assert_eq!(after, 8, "the flood's backlog went on after Bob's");
}

/// Signs up `name` from `ip`: the session cookie's token.
async fn sign_up(app: &Router, ip: &str, name: &str) -> String {
    let r = req(
        "localhost",
        "http://localhost",
        "POST",
        "/api/account/signup",
        Some(json!({ "name": name, "password": "long enough" })),
    );
    let a = send(app, Req { ip: ip.parse().unwrap(), ..r }).await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.body);
    a.token()
}

/// Subscribes browser `endpoint` from `ip` (signed in with `cookie` if
/// any) to every seat of `id`: the answer.
async fn follow(app: &Router, ip: &str, cookie: Option<&str>, endpoint: &str, id: &str, tokens: &[String]) -> Answer {
    let browser = Browser::new(endpoint);
    let body = json!({ "subscription": browser.subscription(endpoint), "game": id, "tokens": tokens.join(",") });
    subscribe_from(app, ip, cookie, body).await
}

/// A game of two people: its id and both tokens.
async fn two(app: &Router) -> (String, Vec<String>) {
    let (id, tokens, _) = create(app, two_humans()).await;
    (id, tokens.into_iter().map(Option::unwrap).collect())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn subscriptions_per_address_are_bounded_and_an_account_s_are_its_own() {
    let (service, _arrived) = push_service().await;
    let store = Store::in_memory().unwrap();
    let mut config = push_config();
    config.lobby.known_after = Duration::ZERO;
    let (app, _) = server_with(store.clone(), config);
    let endpoint = |name: &str| format!("http://{service}/push/{name}");
    // One /64 fills its share: ten hot-seat games of six, two games of two.
    let here = "2001:db8:5:6::1";
    for g in 0..10 {
        let (id, tokens) = hot_seat(&app).await;
        let a = follow(&app, here, None, &endpoint(&format!("hot{g}")), &id, &tokens).await;
        assert_eq!(a.status, StatusCode::OK, "game {g}: {}", a.body);
    }
    let (ending, ending_tokens) = two(&app).await;
    assert_eq!(follow(&app, here, None, &endpoint("ending"), &ending, &ending_tokens).await.status, StatusCode::OK);
    let (kept, kept_tokens) = two(&app).await;
    assert_eq!(follow(&app, here, None, &endpoint("kept"), &kept, &kept_tokens).await.status, StatusCode::OK);
    // The 65th is refused, from anywhere in that /64, and nothing is kept.
    let (more, more_tokens) = two(&app).await;
    for ip in [here, "2001:db8:5:6::ffff"] {
        let a = follow(&app, ip, None, &endpoint("more"), &more, &more_tokens).await;
        assert_eq!((a.status, a.code()), (StatusCode::CONFLICT, "too_many_subscriptions"), "{ip}: {}", a.body);
    }
    assert!(store.push.subscriptions(&format!("seat:{more}:0")).await.unwrap().is_empty(), "nothing kept");
    assert!(store.push.subscriptions(&format!("seat:{more}:1")).await.unwrap().is_empty(), "nothing kept");
    // Another /64 has its own share.
    assert_eq!(
        follow(&app, "2001:db8:5:7::1", None, &endpoint("more"), &more, &more_tokens).await.status,
        StatusCode::OK
    );

    // A new account at the full address (no rated game yet) counts in the
    // address's share: accounts made for it are no way around it.
    let newcomer = sign_up(&app, here, "Newcomer").await;
    let (mine, mine_tokens) = two(&app).await;
    let a = follow(&app, here, Some(&newcomer), &endpoint("new"), &mine, &mine_tokens).await;
    assert_eq!((a.status, a.code()), (StatusCode::CONFLICT, "too_many_subscriptions"), "{}", a.body);
    // With a history, a signed-in account's subscriptions are its own, seats'
    // and the account's, up to 128.
    let cookie = sign_up(&app, here, "Known").await;
    common::accounts::rated(&store, "Known", carcassonne_server::Pool::Duel, 1500.0).await;
    let a = follow(&app, here, Some(&cookie), &endpoint("known"), &mine, &mine_tokens).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.body);
    let browser = Browser::new("known");
    let body = json!({ "subscription": browser.subscription(&endpoint("known")), "account": true });
    let a = subscribe_from(&app, here, Some(&cookie), body).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.body);
    for g in 0..20 {
        let (id, tokens) = hot_seat(&app).await;
        let a = follow(&app, here, Some(&cookie), &endpoint(&format!("known{g}")), &id, &tokens).await;
        assert_eq!(a.status, StatusCode::OK, "game {g}: {}", a.body);
    }
    let (id, tokens) = hot_seat(&app).await;
    let a = follow(&app, here, Some(&cookie), &endpoint("known-more"), &id, &tokens).await;
    assert_eq!((a.status, a.code()), (StatusCode::CONFLICT, "too_many_subscriptions"), "129 for one account");

    // A game's end frees its seats' subscriptions: room again at the address.
    let mut k = 0;
    loop {
        let s = state(&app, &ending, Some(&ending_tokens.join(","))).await;
        if s["status"] == "finished" {
            break;
        }
        let seat = s["turn"]["seat"].as_u64().unwrap() as usize;
        play(&app, &ending, &ending_tokens[seat]).await;
        k += 1;
        assert!(k < 300, "the game ends");
    }
    let mut freed = false;
    for _ in 0..200 {
        if store.push.subscriptions(&format!("seat:{ending}:0")).await.unwrap().is_empty()
            && store.push.subscriptions(&format!("seat:{ending}:1")).await.unwrap().is_empty()
        {
            freed = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(freed, "a finished game's subscriptions are kept");
    // A game that is over has nothing more to say: nothing is kept for it.
    let a = follow(&app, "2001:db8:5:8::1", None, &endpoint("late"), &ending, &ending_tokens).await;
    assert_eq!((a.status, &a.body["targets"]), (StatusCode::OK, &json!([])), "{}", a.body);
    assert!(store.push.subscriptions(&format!("seat:{ending}:0")).await.unwrap().is_empty());
    let (last, last_tokens) = two(&app).await;
    let a = follow(&app, here, None, &endpoint("last"), &last, &last_tokens).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.body);
    let a = follow(&app, here, None, &endpoint("last"), &kept, &kept_tokens).await;
    assert_eq!(a.code(), "too_many_subscriptions", "full again");
}

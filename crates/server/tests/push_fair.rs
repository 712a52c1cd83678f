//! Web Push on the open internet (issue 45, 10; docs/web.md,
//! *Notifications*, "Limits"), the attack reduced: subscriptions per
//! client address are bounded, a signed-in account's counted apart
//! (strangers at its address never refuse it), and a game's end frees its
//! seats' subscriptions.

mod common;

use std::time::Duration;

use axum::http::StatusCode;
use axum::Router;
use carcassonne_server::Store;
use common::page::{req, send, Answer, Req};
use common::push::{push_config, push_service, server_with, Browser};
use common::{create, pick_move, post_move, state, two_humans};
use serde_json::{json, Value};

/// `POST /api/push/subscribe` from `ip`, with the session `cookie` if any.
async fn subscribe_from(app: &Router, ip: &str, cookie: Option<&str>, body: Value) -> Answer {
    let r = req("localhost", "http://localhost", "POST", "/api/push/subscribe", Some(body));
    send(app, Req { ip: ip.parse().unwrap(), token: cookie, ..r }).await
}

/// A game of six people at one screen (hot-seat), its tokens by seat.
async fn hot_seat(app: &Router) -> (String, Vec<String>) {
    let six =
        json!({ "seats": (0..6).map(|i| json!({ "kind": "human", "name": format!("P{i}") })).collect::<Vec<_>>() });
    let (id, tokens, _) = create(app, six).await;
    (id, tokens.into_iter().map(Option::unwrap).collect())
}

/// One move by whoever holds `token` (the seat to move).
async fn play(app: &Router, id: &str, token: &str) {
    let s = state(app, id, Some(token)).await;
    let (status, v) = post_move(app, id, token, &pick_move(&s, 0, false)).await;
    assert_eq!(status, StatusCode::OK, "{v}");
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
    let (app, _) = server_with(store.clone(), push_config());
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

    // A signed-in account at the full address: its subscriptions are its
    // own, seats' and the account's, up to 128.
    let cookie = sign_up(&app, here, "Known").await;
    let (mine, mine_tokens) = two(&app).await;
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

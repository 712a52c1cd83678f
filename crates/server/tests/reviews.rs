//! Reviews of finished games under a crowd (issue 26): capped in all and per
//! address with a clear `busy`, worked out once and read back from the store.

mod common;

use std::net::SocketAddr;
use std::time::Duration;

use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{Request, StatusCode};
use axum::Router;
use carcassonne_server::{app, AppState, Config, Store};
use common::*;
use http_body_util::BodyExt;
use serde_json::{json, Value};
use tower::ServiceExt;

/// A bound on every wait (not a speed check).
const PATIENCE: Duration = Duration::from_secs(90);

/// A finished game of two random bots.
async fn finished_game(app: &Router) -> String {
    let (id, _, _) =
        create(app, json!({ "seats": [ { "kind": "bot", "level": "random" }, { "kind": "bot", "level": "random" } ] }))
            .await;
    wait_for(app, &id, None, |s| s["status"] == "finished").await;
    id
}

/// `GET` from client address `from`: status, `Retry-After`, body.
async fn get_from(app: &Router, uri: &str, from: &str) -> (StatusCode, Option<String>, Value) {
    let mut req = Request::builder().uri(uri).body(Body::empty()).unwrap();
    let peer = SocketAddr::new(from.parse().unwrap(), 5000);
    req.extensions_mut().insert(ConnectInfo(peer));
    let resp = app.clone().oneshot(req).await.unwrap();
    let status = resp.status();
    let retry = resp.headers().get("retry-after").map(|v| v.to_str().unwrap().to_string());
    let bytes = resp.into_body().collect().await.unwrap().to_bytes();
    (status, retry, serde_json::from_slice(&bytes).unwrap_or(Value::Null))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reviews_beyond_the_caps_are_told_to_try_later() {
    // Reviews at their real budget (half a second a position): each stays
    // in progress for the whole test.
    let config = Config {
        bot_delay: Duration::ZERO,
        quick_bots: false,
        max_reviews: 2,
        max_reviews_per_ip: 1,
        ..Config::unlimited()
    };
    let store: Store = Store::in_memory().unwrap();
    let app = app(AppState::new(store, config));
    let games = [finished_game(&app).await, finished_game(&app).await, finished_game(&app).await];
    let url = |g: &str| format!("/api/games/{g}/review");
    let (status, _, v) = get_from(&app, &url(&games[0]), "10.0.0.1").await;
    assert_eq!((status, v["status"].as_str()), (StatusCode::ACCEPTED, Some("computing")), "{v}");
    // A second from the same address: busy, with when to come back.
    let (status, retry, v) = get_from(&app, &url(&games[1]), "10.0.0.1").await;
    assert_eq!((status, v["error"].as_str()), (StatusCode::SERVICE_UNAVAILABLE, Some("busy")), "{v}");
    assert_eq!(retry.as_deref(), Some("30"));
    // The same /64 is the same client.
    let (status, _, v) = get_from(&app, &url(&games[1]), "2001:db8::1").await;
    assert_eq!(status, StatusCode::ACCEPTED, "{v}");
    let (status, _, v) = get_from(&app, &url(&games[2]), "2001:db8::2").await;
    assert_eq!((status, v["error"].as_str()), (StatusCode::SERVICE_UNAVAILABLE, Some("busy")), "{v}");
    // Two in all: a third address waits too…
    let (status, _, v) = get_from(&app, &url(&games[2]), "10.0.0.3").await;
    assert_eq!((status, v["error"].as_str()), (StatusCode::SERVICE_UNAVAILABLE, Some("busy")), "{v}");
    // …but anyone may follow one in progress.
    let (status, _, v) = get_from(&app, &url(&games[0]), "10.0.0.3").await;
    assert_eq!((status, v["status"].as_str()), (StatusCode::ACCEPTED, Some("computing")), "{v}");
    // A refused request for a game in play, or none, costs nothing.
    let (status, _, v) = get_from(&app, "/api/games/nosuchgame/review", "10.0.0.4").await;
    assert_eq!((status, v["error"].as_str()), (StatusCode::NOT_FOUND, Some("not_found")));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_review_is_worked_out_once_and_read_back_from_the_store() {
    let store: Store = Store::in_memory().unwrap();
    let first = AppState::new(store.clone(), Config { bot_delay: Duration::ZERO, ..Config::quick() });
    let one = app(first.clone());
    let id = finished_game(&one).await;
    let url = format!("/api/games/{id}/review");
    let started = std::time::Instant::now();
    let review = loop {
        let (status, v) = call(&one, "GET", &url, None).await;
        if status == StatusCode::OK {
            break v;
        }
        assert_eq!(status, StatusCode::ACCEPTED, "{v}");
        assert!(started.elapsed() < PATIENCE, "the review did not finish");
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert_eq!(first.reviews.work().worked_out(), 1);
    // Another server on the same store (or this one restarted): read back at once.
    let second = AppState::new(store, Config::quick());
    let two = app(second.clone());
    let (status, again) = call(&two, "GET", &url, None).await;
    assert_eq!((status, &again), (StatusCode::OK, &review));
    assert_eq!(second.reviews.work().worked_out(), 0, "never worked out twice");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_crowd_s_reviews_leave_places_for_people_with_a_history() {
    // Every account has a history at once here (no age, no rated games asked).
    let lobby = carcassonne_server::LobbySettings {
        known_after: Duration::ZERO,
        known_rated_games: 0,
        ..Config::unlimited().lobby
    };
    let config = Config {
        bot_delay: Duration::ZERO,
        quick_bots: false,
        max_reviews: 2,
        max_reviews_per_ip: 1,
        lobby,
        ..Config::unlimited()
    };
    let app = app(AppState::new(Store::in_memory().unwrap(), config));
    let mut games = Vec::new();
    for _ in 0..5 {
        games.push(finished_game(&app).await);
    }
    let url = |g: &str| format!("/api/games/{g}/review");
    // Two fresh addresses take every place; a third is told busy.
    for (g, from) in [(&games[0], "10.0.0.1"), (&games[1], "10.0.0.2")] {
        assert_eq!(get_from(&app, &url(g), from).await.0, StatusCode::ACCEPTED);
    }
    let (status, _, v) = get_from(&app, &url(&games[2]), "10.0.0.3").await;
    assert_eq!((status, v["error"].as_str()), (StatusCode::SERVICE_UNAVAILABLE, Some("busy")), "{v}");
    // People with a history take the places kept past the cap, from the
    // crowd's own address (they count by their account), two of them.
    let mut answers = Vec::new();
    for (name, game) in [("Ada", &games[2]), ("Bob", &games[3]), ("Cleo", &games[4])] {
        let ip = "10.0.0.1".parse().unwrap();
        let body = json!({ "name": name, "password": "correct horse" });
        let host = ("play.example", "http://play.example");
        let made =
            page::send(&app, page::Req { ip, ..page::req(host.0, host.1, "POST", "/api/account/signup", Some(body)) })
                .await;
        assert_eq!(made.status, StatusCode::CREATED, "{}", made.body);
        let token = made.token();
        let uri = url(game);
        let asked =
            page::send(&app, page::Req { ip, token: Some(&token), ..page::req(host.0, host.1, "GET", &uri, None) })
                .await;
        answers.push((asked.status, asked.code().to_string()));
    }
    assert_eq!(
        answers,
        [
            (StatusCode::ACCEPTED, String::new()),
            (StatusCode::ACCEPTED, String::new()),
            (StatusCode::SERVICE_UNAVAILABLE, "busy".to_string())
        ]
    );
}

//! Hints (`POST /api/games/{id}/hint`): the search's move for the seat to
//! move, in casual games against bots and at one screen; refused in online
//! games with people, to spectators, out of turn and once the game is over.

mod common;

use std::net::SocketAddr;

use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{Request, StatusCode};
use axum::Router;
use common::*;
use http_body_util::BodyExt;
use serde_json::{json, Value};
use tower::ServiceExt;

/// Asks for a hint with `body`, from client address `from`.
async fn ask(app: &Router, id: &str, body: Value, from: &str) -> (StatusCode, Value) {
    let mut req = Request::builder()
        .method("POST")
        .uri(format!("/api/games/{id}/hint"))
        .header("content-type", "application/json")
        .body(Body::from(body.to_string()))
        .unwrap();
    req.extensions_mut().insert(ConnectInfo(SocketAddr::new(from.parse().unwrap(), 4000)));
    let resp = app.clone().oneshot(req).await.unwrap();
    let status = resp.status();
    let bytes = resp.into_body().collect().await.unwrap().to_bytes();
    (status, serde_json::from_slice(&bytes).unwrap_or(Value::Null))
}

/// Whether `mv` (a hint's move) is among the state's legal moves.
fn is_legal(state: &Value, mv: &Value) -> bool {
    state["legal"].as_array().unwrap().iter().any(|p| {
        p["tile"] == mv["tile"]
            && p["at"] == mv["at"]
            && p["rot"] == mv["rot"]
            && ["meeple", "abbot"]
                .iter()
                .all(|k| mv.get(k).is_none_or(|s| p[*k].as_array().is_some_and(|spots| spots.contains(s))))
            && (mv.get("recall").is_none() || p["recall"] == true)
    })
}

fn versus_bot() -> Value {
    json!({ "seats": [ { "kind": "human", "name": "Ada" }, { "kind": "bot", "level": "random" } ] })
}

/// In a game against a bot, the seat to move gets a legal move with its
/// gain, and the move plays; along several turns.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hint_is_a_legal_move_in_a_game_against_a_bot() {
    let (app, _) = test_app();
    let (id, tokens, _) = create(&app, versus_bot()).await;
    let token = tokens[0].clone().unwrap();
    for turn in 0..3 {
        let s = wait_for(&app, &id, Some(&token), |s| s["turn"]["seat"] == 0 || s["status"] == "finished").await;
        assert_eq!(s["status"], "playing");
        let (status, h) = ask(&app, &id, json!({ "token": token, "version": s["version"] }), "10.1.0.1").await;
        assert_eq!(status, StatusCode::OK, "{h}");
        assert_eq!((h["version"].clone(), h["seat"].as_u64()), (s["version"].clone(), Some(0)), "{h}");
        assert!(is_legal(&s, &h["move"]), "turn {turn}: the hint {h} is legal");
        assert!(h["gain"].as_f64().is_some_and(f64::is_finite), "{h}");
        let gain = h["best_margin"].as_f64().unwrap() - h["average_margin"].as_f64().unwrap();
        assert!((gain - h["gain"].as_f64().unwrap()).abs() < 1e-9, "{h}");
        assert!(h["legal"].as_u64().unwrap() >= 1 && h["samples"].as_u64().unwrap() >= 1, "{h}");
        assert_eq!(h["budget"], "60it");
        // The engine takes it.
        let mut mv = h["move"].clone();
        mv["version"] = s["version"].clone();
        let (status, v) = post_move(&app, &id, &token, &mv).await;
        assert_eq!(status, StatusCode::OK, "{v}");
    }
}

/// At one screen (hot-seat), the seat to move gets hints; the other seat's
/// token is out of turn; a stale version is told so.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hot_seat_hints_go_to_the_seat_to_move() {
    let (app, _) = test_app();
    let (id, tokens, s) = create(&app, two_humans()).await;
    let to_move = s["turn"]["seat"].as_u64().unwrap() as usize;
    let (mine, other) = (tokens[to_move].clone().unwrap(), tokens[1 - to_move].clone().unwrap());
    let s = state(&app, &id, Some(&mine)).await;
    let (status, h) = ask(&app, &id, json!({ "token": mine }), "10.2.0.1").await;
    assert_eq!(status, StatusCode::OK, "{h}");
    assert!(is_legal(&s, &h["move"]), "{h}");
    let (status, v) = ask(&app, &id, json!({ "token": other }), "10.2.0.1").await;
    assert_eq!((status, v["error"].as_str()), (StatusCode::CONFLICT, Some("not_your_turn")), "{v}");
    let (status, v) = ask(&app, &id, json!({ "token": mine, "version": 7 }), "10.2.0.1").await;
    assert_eq!((status, v["error"].as_str()), (StatusCode::CONFLICT, Some("stale_version")), "{v}");
    // Both tokens at once (one browser holding both seats): the seat to move's hint.
    let (status, h) = call(&app, "POST", &format!("/api/games/{id}/hint?token={mine},{other}"), Some("{}")).await;
    assert_eq!((status, h["seat"].as_u64()), (StatusCode::OK, Some(to_move as u64)), "{h}");
}

/// No hints in an online game with people, for a spectator or a stranger's
/// token, or once the game is over; a refusal changes nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hints_are_refused_online_to_spectators_and_after_the_end() {
    let (app, _) = test_app();
    // A person invited to play from elsewhere: an online game with people.
    let (id, tokens, s) =
        create(&app, json!({ "seats": [ { "kind": "human", "name": "Ada" }, { "kind": "remote", "name": "Bob" } ] }))
            .await;
    let to_move = s["turn"]["seat"].as_u64().unwrap() as usize;
    let token = tokens[to_move].clone().unwrap();
    let (status, v) = ask(&app, &id, json!({ "token": token }), "10.3.0.1").await;
    assert_eq!((status, v["error"].as_str()), (StatusCode::FORBIDDEN, Some("no_hints")), "{v}");
    // With bots as well, still online with a person.
    let (id2, tokens2, _) = create(
        &app,
        json!({ "seats": [ { "kind": "human" }, { "kind": "bot", "level": "random" }, { "kind": "remote" } ] }),
    )
    .await;
    let s2 = wait_for(&app, &id2, None, |s| s["turn"]["seat"] != 1).await;
    let seat = s2["turn"]["seat"].as_u64().unwrap() as usize;
    let (status, v) = ask(&app, &id2, json!({ "token": tokens2[seat].clone().unwrap() }), "10.3.0.1").await;
    assert_eq!((status, v["error"].as_str()), (StatusCode::FORBIDDEN, Some("no_hints")), "{v}");

    // A spectator (no token) and a token of no seat.
    let (bot_game, _, _) = create(&app, versus_bot()).await;
    let (status, v) = ask(&app, &bot_game, json!({}), "10.3.0.1").await;
    assert_eq!((status, v["error"].as_str()), (StatusCode::FORBIDDEN, Some("unauthorized")), "{v}");
    let (status, v) = ask(&app, &bot_game, json!({ "token": "0123456789abcdef0123456789abcdef" }), "10.3.0.1").await;
    assert_eq!((status, v["error"].as_str()), (StatusCode::FORBIDDEN, Some("unauthorized")), "{v}");
    // A malformed request.
    let (status, v) = ask(&app, &bot_game, json!({ "token": 5 }), "10.3.0.1").await;
    assert_eq!((status, v["error"].as_str()), (StatusCode::BAD_REQUEST, Some("bad_request")), "{v}");
    let (status, v) = ask(&app, &bot_game, json!({ "nonsense": true }), "10.3.0.1").await;
    assert_eq!((status, v["error"].as_str()), (StatusCode::BAD_REQUEST, Some("bad_request")), "{v}");

    // A finished game.
    let (done, _, _) = create(
        &app,
        json!({ "seats": [ { "kind": "bot", "level": "random" }, { "kind": "bot", "level": "random" } ] }),
    )
    .await;
    wait_for(&app, &done, None, |s| s["status"] == "finished").await;
    let (status, v) = ask(&app, &done, json!({}), "10.3.0.1").await;
    assert_eq!((status, v["error"].as_str()), (StatusCode::CONFLICT, Some("game_over")), "{v}");
    // No such game.
    let (status, v) = ask(&app, "nosuchgame", json!({}), "10.3.0.1").await;
    assert_eq!((status, v["error"].as_str()), (StatusCode::NOT_FOUND, Some("not_found")), "{v}");
    // Nothing moved for any of it.
    assert_eq!(state(&app, &id, None).await["version"], s["version"]);
}

/// A person's hint out of turn: the bot is to move (a bot that takes its
/// time, so that the test sees its turn).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hint_out_of_turn_is_refused() {
    let store: carcassonne_server::Store = carcassonne_server::Store::in_memory().unwrap();
    let (app, _) = with_store(store, std::time::Duration::from_secs(5));
    let (id, tokens, _) = create(&app, versus_bot()).await;
    let token = tokens[0].clone().unwrap();
    // Move until the bot is to move (it then waits its 5 s).
    let s = state(&app, &id, Some(&token)).await;
    let s = if s["turn"]["seat"] == 0 {
        let (status, v) = post_move(&app, &id, &token, &pick_move(&s, 0, false)).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        v
    } else {
        s
    };
    assert_eq!(s["turn"]["seat"], 1, "{s}");
    let (status, v) = ask(&app, &id, json!({ "token": token }), "10.4.0.1").await;
    assert_eq!((status, v["error"].as_str()), (StatusCode::CONFLICT, Some("not_your_turn")), "{v}");
}

/// Hints are rate-limited per client address (a burst, then the minute's
/// rate); another address is not held back.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hints_are_rate_limited_per_address() {
    let (app, _) = test_app();
    let (id, tokens, s) = create(&app, two_humans()).await;
    let token = tokens[s["turn"]["seat"].as_u64().unwrap() as usize].clone().unwrap();
    let burst = carcassonne_server::hints::HINT_BURST;
    for i in 0..burst {
        let (status, v) = ask(&app, &id, json!({ "token": token }), "10.5.0.1").await;
        assert_eq!(status, StatusCode::OK, "hint {i}: {v}");
    }
    let (status, v) = ask(&app, &id, json!({ "token": token }), "10.5.0.1").await;
    assert_eq!((status, v["error"].as_str()), (StatusCode::TOO_MANY_REQUESTS, Some("rate_limited")), "{v}");
    let (status, v) = ask(&app, &id, json!({ "token": token }), "10.5.0.2").await;
    assert_eq!(status, StatusCode::OK, "{v}");
}

/// Two hints at once for one game: one is worked out, the other told to
/// come back (`busy`). Hints here at their real budget (400 ms).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_hint_at_a_time_per_game() {
    let store: carcassonne_server::Store = carcassonne_server::Store::in_memory().unwrap();
    let config = carcassonne_server::Config {
        bot_delay: std::time::Duration::ZERO,
        quick_bots: false,
        ..carcassonne_server::Config::quick()
    };
    let server = carcassonne_server::AppState::new(store, config);
    let app = carcassonne_server::app(server.clone());
    let (id, tokens, s) = create(&app, two_humans()).await;
    let token = tokens[s["turn"]["seat"].as_u64().unwrap() as usize].clone().unwrap();
    let first = {
        let (app, id, token) = (app.clone(), id.clone(), token.clone());
        tokio::spawn(async move { ask(&app, &id, json!({ "token": token }), "10.6.0.1").await })
    };
    for _ in 0..400 {
        if server.hints.in_progress() == 1 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(1)).await;
    }
    assert_eq!(server.hints.in_progress(), 1);
    let (status, v) = ask(&app, &id, json!({ "token": token }), "10.6.0.2").await;
    assert_eq!((status, v["error"].as_str()), (StatusCode::SERVICE_UNAVAILABLE, Some("busy")), "{v}");
    let (status, v) = first.await.unwrap();
    assert_eq!((status, v["budget"].as_str()), (StatusCode::OK, Some("400ms")), "{v}");
    assert_eq!(server.hints.in_progress(), 0);
    // Its place is free again.
    let (status, v) = ask(&app, &id, json!({ "token": token }), "10.6.0.2").await;
    assert_eq!(status, StatusCode::OK, "{v}");
}

//! A game ended early by its players (services/endings.rs; docs/web.md,
//! *Resigning, aborting and leaving*): a resignation in a duel ends it and
//! the other wins, in a rated one as a loss; an abort before everyone has
//! moved ends it with no result and no rating, and is refused after; a
//! seat left to a bot; the choice at a casual flag (end as it stands, or
//! play on against a bot); refusals change nothing. Each on SQLite and on
//! PostgreSQL with two servers (what one acknowledged, the other and a
//! restarted server see; a stale server's move after it is refused).

mod common;

use std::time::Duration;

use axum::http::StatusCode;
use axum::Router;
use carcassonne_server::{app, AppState, Config};
use common::*;
use serde_json::{json, Value};

const HOST: &str = "play.example";
const ORIGIN: &str = "http://play.example";

/// Two servers on one store (`common::two_servers`).
async fn servers(pg: bool) -> Option<[(Router, AppState); 2]> {
    two_servers(pg).await
}

/// A request from the server's own page, from client address 192.0.2.`ip`,
/// with the session `cookie` (`common::page::send`); a session cookie set
/// comes back in the body as `_cookie`.
async fn send(
    app: &Router,
    ip: u8,
    method: &str,
    uri: &str,
    body: Option<Value>,
    cookie: Option<&str>,
) -> (StatusCode, Value) {
    let r = page::Req { token: cookie, ip: [192, 0, 2, ip].into(), ..page::req(HOST, ORIGIN, method, uri, body) };
    let answer = page::send(app, r).await;
    let mut v = answer.body.clone();
    if let (Some(_), Some(obj)) = (&answer.set_cookie, v.as_object_mut()) {
        obj.insert("_cookie".into(), answer.token().into());
    }
    (answer.status, v)
}

async fn sign_up(app: &Router, ip: u8, name: &str) -> String {
    let body = json!({ "name": name, "password": "long enough" });
    let (status, v) = send(app, ip, "POST", "/api/account/signup", Some(body), None).await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    v["_cookie"].as_str().unwrap().to_string()
}

/// A rated duel of Ada (address .10) against Bob (.11): server, id, tokens, cookies.
async fn rated_duel(app: &Router) -> (String, Vec<Option<String>>) {
    let ada = sign_up(app, 10, &format!("Ada{}", rand_suffix())).await;
    let bob = sign_up(app, 11, &format!("Bob{}", rand_suffix())).await;
    let body = json!({ "seats": [ { "kind": "human" }, { "kind": "remote" } ], "rated": true });
    let (status, v) = send(app, 10, "POST", "/api/games", Some(body), Some(&ada)).await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    let id = v["id"].as_str().unwrap().to_string();
    let mut tokens = vec![None, None];
    for t in v["tokens"].as_array().unwrap() {
        tokens[t["seat"].as_u64().unwrap() as usize] = Some(t["token"].as_str().unwrap().to_string());
    }
    let link = json!({ "seats": [ { "game": id, "token": tokens[1].as_deref().unwrap() } ] });
    let (status, v) = send(app, 11, "POST", "/api/account/seats", Some(link), Some(&bob)).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    (id, tokens)
}

fn rand_suffix() -> u32 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().subsec_nanos() % 100_000
}

async fn act(app: &Router, id: &str, token: &str, action: &str, body: Value) -> (StatusCode, Value) {
    call(app, "POST", &format!("/api/games/{id}/{action}?token={token}"), Some(&body.to_string())).await
}

/// Plays one move of the seat to move (its token among `tokens`).
async fn one_move(app: &Router, id: &str, tokens: &[Option<String>]) {
    let all: Vec<&str> = tokens.iter().flatten().map(String::as_str).collect();
    let st = state(app, id, Some(&all.join(","))).await;
    let seat = st["turn"]["seat"].as_u64().unwrap() as usize;
    let (status, v) = post_move(app, id, tokens[seat].as_deref().unwrap(), &pick_move(&st, 0, false)).await;
    assert_eq!(status, StatusCode::OK, "{v}");
}

/// What a refusal must leave as it was.
fn essence(s: &Value) -> Value {
    json!([s["status"], s["version"], s["players"], s["clock"]["events"], s["clock"]["standin"], s["winners"]])
}

fn code(v: &Value) -> &str {
    v["error"].as_str().unwrap_or("")
}

async fn resign_in_a_duel_ends_it(pg: bool) {
    let Some([(a, sa), (b, _)]) = servers(pg).await else { return };
    let (id, tokens, _) = create(&a, two_humans()).await;
    let (ada, bob) = (tokens[0].clone().unwrap(), tokens[1].clone().unwrap());
    one_move(&a, &id, &tokens).await;
    // The second server holds the game, one move in.
    let before_b = state(&b, &id, Some(&bob)).await;
    assert_eq!(before_b["version"], 1);
    let (status, s) = act(&a, &id, &ada, "resign", json!({ "seat": 0 })).await;
    assert_eq!(status, StatusCode::OK, "{s}");
    assert_eq!(s["status"], "finished");
    assert_eq!(s["winners"], json!([1]), "the other wins");
    assert_eq!(s["clock"]["resigned"], json!([0]));
    assert_eq!(s["clock"]["ended"], true);
    assert!(s["turn"].is_null() || s["legal"].is_null(), "{s}");
    // A stale server's move after it is refused, and it catches up.
    let mv = pick_move(&before_b, 0, false);
    let (status, v) = post_move(&b, &id, &bob, &mv).await;
    assert_eq!((status, code(&v)), (StatusCode::CONFLICT, "game_over"), "{v}");
    assert_eq!(state(&b, &id, Some(&bob)).await["status"], "finished");
    // Resigning again: the game is over.
    let (status, v) = act(&a, &id, &bob, "resign", json!({ "seat": 1 })).await;
    assert_eq!((status, code(&v)), (StatusCode::CONFLICT, "game_over"), "{v}");
    // It is finished in the list, and after a restart.
    let restarted = AppState::new(sa.store().clone(), Config::quick());
    let s = state(&app(restarted), &id, Some(&ada)).await;
    assert_eq!((&s["status"], &s["winners"]), (&json!("finished"), &json!([1])), "{s}");
    let (_, list) = call(&a, "GET", &format!("/api/games?ids={id}"), None).await;
    let line = list["games"].as_array().unwrap().iter().find(|g| g["id"] == id.as_str()).cloned();
    if let Some(line) = line {
        assert_eq!(line["status"], "finished", "{line}");
    }
}

#[tokio::test]
async fn sqlite_resigning_a_duel_ends_it_and_the_other_wins() {
    resign_in_a_duel_ends_it(false).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_resigning_a_duel_ends_it_and_the_other_wins() {
    resign_in_a_duel_ends_it(true).await;
}

async fn rated_resignation_is_a_loss(pg: bool) {
    let Some([(a, sa), _]) = servers(pg).await else { return };
    let (id, tokens) = rated_duel(&a).await;
    one_move(&a, &id, &tokens).await;
    one_move(&a, &id, &tokens).await;
    // Bob resigns, whatever the scores: he loses, Ada wins.
    let (status, s) = act(&a, &id, tokens[1].as_deref().unwrap(), "resign", json!({ "seat": 1 })).await;
    assert_eq!(status, StatusCode::OK, "{s}");
    assert_eq!((&s["status"], &s["winners"]), (&json!("finished"), &json!([0])), "{s}");
    let (status, r) = call(&a, "GET", &format!("/api/games/{id}/ratings"), None).await;
    assert_eq!(status, StatusCode::OK, "{r}");
    assert_eq!(r["settled"], true, "{r}");
    let players = r["players"].as_array().unwrap();
    let after = |seat: u64| players.iter().find(|p| p["seat"] == seat).unwrap()["after"].as_f64().unwrap();
    assert!(after(0) > 1500.0 && after(1) < 1500.0, "a resignation is a loss: {r}");
    // Applied once: a later sweep changes nothing.
    assert_eq!(sa.ratings.settle_unsettled().await.unwrap(), 0);
}

#[tokio::test]
async fn sqlite_a_rated_resignation_is_a_loss() {
    rated_resignation_is_a_loss(false).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_a_rated_resignation_is_a_loss() {
    rated_resignation_is_a_loss(true).await;
}

async fn abort_before_everyone_moved_only(pg: bool) {
    let Some([(a, _), (b, _)]) = servers(pg).await else { return };
    // Rated: Ada moved, Bob has not: Bob aborts; no result, no rating.
    let (id, tokens) = rated_duel(&a).await;
    let s0 = state(&a, &id, tokens[0].as_deref()).await;
    assert_eq!(s0["clock"]["may_abort"], true, "{s0}");
    one_move(&a, &id, &tokens).await;
    let stale = state(&a, &id, tokens[1].as_deref()).await;
    let (status, s) = act(&b, &id, tokens[1].as_deref().unwrap(), "abort", json!({})).await;
    assert_eq!(status, StatusCode::OK, "{s}");
    assert_eq!(s["status"], "aborted");
    assert_eq!(s["clock"]["may_abort"], false);
    let (_, r) = call(&a, "GET", &format!("/api/games/{id}/ratings"), None).await;
    assert_ne!(r["settled"], true, "an aborted game is never rated: {r}");
    // The first server, stale, refuses a move: the game is over.
    let (status, v) = post_move(&a, &id, tokens[1].as_deref().unwrap(), &pick_move(&stale, 0, false)).await;
    assert_eq!((status, code(&v)), (StatusCode::CONFLICT, "game_over"), "{v}");
    assert_eq!(state(&a, &id, None).await["status"], "aborted");

    // Every person moved: refused, nothing changed.
    let (id, tokens, _) = create(&a, two_humans()).await;
    one_move(&a, &id, &tokens).await;
    one_move(&a, &id, &tokens).await;
    let before = state(&a, &id, tokens[0].as_deref()).await;
    assert_eq!(before["clock"]["may_abort"], false);
    let (status, v) = act(&a, &id, tokens[0].as_deref().unwrap(), "abort", json!({})).await;
    assert_eq!((status, code(&v)), (StatusCode::CONFLICT, "cannot_abort"), "{v}");
    assert_eq!(essence(&state(&a, &id, tokens[0].as_deref()).await), essence(&before));
}

#[tokio::test]
async fn sqlite_abort_only_before_everyone_moved_and_never_rated() {
    abort_before_everyone_moved_only(false).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_abort_only_before_everyone_moved_and_never_rated() {
    abort_before_everyone_moved_only(true).await;
}

async fn leave_and_resign_hand_the_seat_to_a_bot(pg: bool) {
    let Some([(a, _), _]) = servers(pg).await else { return };
    let three = json!({ "seats": [
        { "kind": "human", "name": "Ada" }, { "kind": "human", "name": "Bob" }, { "kind": "human", "name": "Cy" } ] });
    let (id, tokens, _) = create(&a, three).await;
    one_move(&a, &id, &tokens).await;
    let bob = tokens[1].as_deref().unwrap();
    let (status, s) = act(&a, &id, bob, "leave", json!({ "seat": 1 })).await;
    assert_eq!(status, StatusCode::OK, "{s}");
    assert_eq!(s["status"], "playing");
    assert_eq!(s["clock"]["left"], json!([1]));
    assert_eq!(s["clock"]["standin"][1], "normal");
    let events: Vec<&str> =
        s["clock"]["events"].as_array().unwrap().iter().map(|e| e["what"].as_str().unwrap()).collect();
    assert!(events.contains(&"left"), "said in the log: {events:?}");
    // The bot plays Bob's move; Bob cannot take the seat back.
    let s = wait_for(&a, &id, Some(bob), |s| s["version"].as_u64() >= Some(2)).await;
    assert_eq!(s["clock"]["standin"][1], "normal");
    let (_, v) = call(&a, "POST", &format!("/api/games/{id}/back?token={bob}"), Some("{}")).await;
    assert_eq!(v["clock"]["standin"][1], "normal", "{v}");
    // Cy resigns: only Ada is left in it (Bob left): the game ends as it
    // stands, and Cy is never among the winners.
    let cy = tokens[2].as_deref().unwrap();
    let (status, s) = act(&a, &id, cy, "resign", json!({ "seat": 2 })).await;
    assert_eq!(status, StatusCode::OK, "{s}");
    assert_eq!((&s["status"], &s["clock"]["resigned"]), (&json!("finished"), &json!([2])), "{s}");
    assert!(!s["winners"].as_array().unwrap().contains(&json!(2)), "{s}");
    assert!(!s["winners"].as_array().unwrap().is_empty(), "{s}");
}

async fn resign_of_three_plays_on(pg: bool) {
    let Some([(a, _), _]) = servers(pg).await else { return };
    let three = json!({ "seats": [
        { "kind": "human", "name": "Ada" }, { "kind": "human", "name": "Bob" }, { "kind": "human", "name": "Cy" } ] });
    let (id, tokens, _) = create(&a, three).await;
    // Ada, to move, resigns: a bot plays her seat, Bob and Cy play on.
    let (status, s) = act(&a, &id, tokens[0].as_deref().unwrap(), "resign", json!({ "seat": 0 })).await;
    assert_eq!(status, StatusCode::OK, "{s}");
    assert_eq!((&s["status"], &s["clock"]["standin"][0]), (&json!("playing"), &json!("normal")), "{s}");
    let s = wait_for(&a, &id, tokens[1].as_deref(), |s| s["version"].as_u64() >= Some(1)).await;
    assert_eq!(s["status"], "playing");
}

#[tokio::test]
async fn sqlite_a_resignation_of_three_plays_on_with_a_bot() {
    resign_of_three_plays_on(false).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_a_resignation_of_three_plays_on_with_a_bot() {
    resign_of_three_plays_on(true).await;
}

#[tokio::test]
async fn sqlite_leaving_or_resigning_hands_the_seat_to_a_bot() {
    leave_and_resign_hand_the_seat_to_a_bot(false).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_leaving_or_resigning_hands_the_seat_to_a_bot() {
    leave_and_resign_hand_the_seat_to_a_bot(true).await;
}

/// Cy resigns on one server while another, which read the game before,
/// takes the next move: the clocks that server keeps after the move are
/// read again and carry the resignation (a write is kept only over the
/// revision it read).
async fn a_resignation_survives_a_move_on_a_server_that_had_not_read_it(pg: bool) {
    let Some([(a, _), (b, _)]) = servers(pg).await else { return };
    let three = json!({ "seats": [
        { "kind": "human", "name": "Ada" }, { "kind": "human", "name": "Bob" }, { "kind": "human", "name": "Cy" } ],
        "clock": { "kind": "realtime", "minutes": 10, "increment": 5 } });
    let (id, tokens, first) = create(&a, three).await;
    let all: Vec<&str> = tokens.iter().flatten().map(String::as_str).collect();
    let all = all.join(",");
    let mover = first["turn"]["seat"].as_u64().unwrap() as usize;
    let out = (mover + 1) % 3;
    let before = state(&b, &id, Some(&all)).await;
    assert_eq!(before["clock"]["resigned"], json!([]), "{before}");
    let (status, s) = act(&a, &id, tokens[out].as_deref().unwrap(), "resign", json!({ "seat": out })).await;
    assert_eq!(status, StatusCode::OK, "{s}");
    assert_eq!(s["clock"]["resigned"], json!([out]), "{s}");
    one_move(&b, &id, &tokens).await;
    let s = state(&b, &id, Some(&all)).await;
    assert!(s["version"].as_u64() >= Some(1), "{s}");
    assert_eq!(s["status"], "playing", "{s}");
    assert_eq!(s["clock"]["resigned"], json!([out]), "the resignation stands: {s}");
    assert_eq!(s["clock"]["standin"][out], "normal", "{s}");
    let used = s["clock"]["remaining"][mover].as_i64().unwrap();
    assert!(used > 0 && used <= 10 * 60_000 + 5_000, "the mover's time counted: {s}");
}

#[tokio::test]
async fn sqlite_a_resignation_survives_a_move_on_a_server_that_had_not_read_it() {
    a_resignation_survives_a_move_on_a_server_that_had_not_read_it(false).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_a_resignation_survives_a_move_on_a_server_that_had_not_read_it() {
    a_resignation_survives_a_move_on_a_server_that_had_not_read_it(true).await;
}

/// A casual real-time duel where both moved, then Ada's flag fell.
async fn flagged(app: &Router, s: &AppState) -> (String, Vec<Option<String>>) {
    let body = json!({ "seats": [ { "kind": "human", "name": "Ada" }, { "kind": "human", "name": "Bob" } ],
        "clock": { "kind": "realtime", "minutes": 1, "increment": 0 } });
    let (id, tokens, _) = create(app, body).await;
    one_move(app, &id, &tokens).await;
    one_move(app, &id, &tokens).await;
    s.games.now().advance(Duration::from_secs(61));
    s.clocks.sweep().await.unwrap();
    let st = state(app, &id, tokens[1].as_deref()).await;
    assert_eq!((&st["clock"]["expired"], &st["clock"]["may_end"]), (&json!([0]), &json!(0)), "{st}");
    (id, tokens)
}

async fn casual_flag_choice(pg: bool) {
    let Some([(a, sa), (b, _)]) = servers(pg).await else { return };
    // End: the game is over as it stands.
    let (id, tokens) = flagged(&a, &sa).await;
    let (ada, bob) = (tokens[0].as_deref().unwrap(), tokens[1].as_deref().unwrap());
    // The flagged seat does not choose for the others.
    let before = state(&a, &id, Some(bob)).await;
    let (status, v) = act(&a, &id, ada, "finish", json!({})).await;
    assert_eq!((status, code(&v)), (StatusCode::FORBIDDEN, "unauthorized"), "{v}");
    assert_eq!(essence(&state(&a, &id, Some(bob)).await), essence(&before));
    let (status, s) = act(&b, &id, bob, "finish", json!({})).await;
    assert_eq!(status, StatusCode::OK, "{s}");
    assert_eq!(s["status"], "finished");
    let scores: Vec<u64> = s["players"].as_array().unwrap().iter().map(|p| p["score"].as_u64().unwrap()).collect();
    let best = *scores.iter().max().unwrap();
    let want: Vec<u64> = (0..2).filter(|&i| scores[i as usize] == best).collect();
    assert_eq!(s["winners"], json!(want), "results as they stand: {s}");
    assert_eq!(s["clock"]["may_end"], Value::Null);

    // Play on: a bot takes the seat; ending is no longer offered.
    let (id, tokens) = flagged(&a, &sa).await;
    let bob = tokens[1].as_deref().unwrap();
    let (status, s) = call(&a, "POST", &format!("/api/games/{id}/handover?token={bob}"), Some(r#"{"seat":0}"#)).await;
    assert_eq!(status, StatusCode::OK, "{s}");
    assert_eq!(s["clock"]["standin"][0], "normal");
    let before = state(&a, &id, Some(bob)).await;
    let (status, v) = act(&a, &id, bob, "finish", json!({})).await;
    assert_eq!((status, code(&v)), (StatusCode::CONFLICT, "cannot_end"), "{v}");
    assert_eq!(essence(&state(&a, &id, Some(bob)).await), essence(&before));
}

#[tokio::test]
async fn sqlite_a_casual_flag_ends_the_game_or_a_bot_plays_on() {
    casual_flag_choice(false).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_a_casual_flag_ends_the_game_or_a_bot_plays_on() {
    casual_flag_choice(true).await;
}

#[tokio::test]
async fn bad_endings_are_refused_with_a_code_and_change_nothing() {
    let (app, s) = test_app();
    let (id, tokens, _) = create(&app, two_humans()).await;
    let (ada, bob) = (tokens[0].as_deref().unwrap(), tokens[1].as_deref().unwrap());
    one_move(&app, &id, &tokens).await;
    let before = state(&app, &id, Some(ada)).await;
    let cases: Vec<(String, Value, StatusCode, &str)> = vec![
        (format!("/api/games/{id}/resign?token={bob}"), json!({ "seat": 0 }), StatusCode::FORBIDDEN, "unauthorized"),
        (format!("/api/games/{id}/resign"), json!({ "seat": 0 }), StatusCode::FORBIDDEN, "unauthorized"),
        (format!("/api/games/{id}/resign?token=nope"), json!({ "seat": 0 }), StatusCode::FORBIDDEN, "unauthorized"),
        (format!("/api/games/{id}/resign?token={ada}"), json!({}), StatusCode::BAD_REQUEST, "bad_request"),
        (format!("/api/games/{id}/resign?token={ada}"), json!({ "seat": 9 }), StatusCode::FORBIDDEN, "unauthorized"),
        (
            format!("/api/games/{id}/resign?token={ada}"),
            json!({ "seat": 0, "x": 1 }),
            StatusCode::BAD_REQUEST,
            "bad_request",
        ),
        (format!("/api/games/{id}/abort?token={ada}"), json!({ "seat": 0 }), StatusCode::BAD_REQUEST, "bad_request"),
        (format!("/api/games/{id}/finish?token={ada}"), json!({}), StatusCode::CONFLICT, "cannot_end"),
        (format!("/api/games/{id}/explode?token={ada}"), json!({}), StatusCode::NOT_FOUND, "not_found"),
        (format!("/api/games/nosuchgame/resign?token={ada}"), json!({ "seat": 0 }), StatusCode::NOT_FOUND, "not_found"),
    ];
    for (uri, body, want, want_code) in cases {
        let (status, v) = call(&app, "POST", &uri, Some(&body.to_string())).await;
        assert_eq!((status, code(&v)), (want, want_code), "{uri} {body}: {v}");
        assert_eq!(essence(&state(&app, &id, Some(ada)).await), essence(&before), "{uri} {body}");
    }
    // Leaving twice: out already.
    let three = json!({ "seats": [
        { "kind": "human", "name": "Ada" }, { "kind": "human", "name": "Bob" }, { "kind": "bot", "level": "random" } ] });
    let (id, tokens, _) = create(&app, three).await;
    let bob = tokens[1].as_deref().unwrap();
    let (status, _) = act(&app, &id, bob, "leave", json!({ "seat": 1 })).await;
    assert_eq!(status, StatusCode::OK);
    let before = state(&app, &id, Some(bob)).await;
    let (status, v) = act(&app, &id, bob, "resign", json!({ "seat": 1 })).await;
    assert_eq!((status, code(&v)), (StatusCode::BAD_REQUEST, "bad_request"), "{v}");
    let after = state(&app, &id, Some(bob)).await;
    assert_eq!(after["clock"]["events"], before["clock"]["events"]);
    drop(s);
}

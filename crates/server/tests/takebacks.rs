//! Takebacks in casual games (services/takebacks.rs; docs/web.md,
//! *Takebacks*): granted, the game goes back to the state before the move
//! taken back and its record is the record of the moves that remain;
//! declined, nothing changes and the same move is not asked again; a
//! request lapses when a person moves, or after its time; bots accept at
//! once; never in a rated game; refusals change nothing. On SQLite, and on
//! PostgreSQL with two servers (what one does, the other shows).

mod common;

use std::time::Duration;

use axum::http::StatusCode;
use axum::Router;
use carcassonne_server::{app, AppState, Config};
use common::*;
use serde_json::{json, Value};

/// Asks (`answer`: none) or answers a takeback for the tokens' player.
async fn takeback(app: &Router, id: &str, token: &str, answer: Option<&str>) -> (StatusCode, Value) {
    let uri = match answer {
        Some(a) => format!("/api/games/{id}/takeback/{a}?token={token}"),
        None => format!("/api/games/{id}/takeback?token={token}"),
    };
    call(app, "POST", &uri, Some("{}")).await
}

fn code(v: &Value) -> &str {
    v["error"].as_str().unwrap_or("")
}

/// Plays the `k`-th legal move (a follower on it) of the seat to move;
/// returns the state it was played from.
async fn play(app: &Router, id: &str, tokens: &[Option<String>], k: usize) -> Value {
    let all: Vec<&str> = tokens.iter().flatten().map(String::as_str).collect();
    let seat = state(app, id, Some(&all.join(","))).await["turn"]["seat"].as_u64().unwrap() as usize;
    let token = tokens[seat].as_deref().unwrap();
    let before = state(app, id, Some(token)).await;
    let (status, v) = post_move(app, id, token, &pick_move(&before, k, true)).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    before
}

/// What a seat sees of the game, but for when it was last changed and the
/// takeback itself: what a takeback must give back exactly.
fn position(s: &Value) -> Value {
    json!([
        s["version"],
        s["status"],
        s["board"],
        s["followers"],
        s["players"].as_array().unwrap().iter().map(|p| json!([p["score"], p["supply"], p["hand"]])).collect::<Value>(),
        s["turn"],
        s["legal"],
        s["tiles_left"],
        s["remaining"],
        s["score_history"],
        s["breakdown"],
    ])
}

/// Two people in a real-time game: three moves, the third taken back by
/// its player and accepted on the other server. The game is as it was
/// before that move, on both servers and after a restart; its record is
/// the two moves left, and replays; the time used is not given back.
async fn a_takeback_granted_rewinds(pg: bool) {
    let Some([(a, sa), (b, _)]) = two_servers(pg).await else { return };
    // (On SQLite one server holds the file: no news between two.)
    let b = if pg { b } else { a.clone() };
    let body = json!({ "seats": [ { "kind": "human", "name": "Ada" }, { "kind": "human", "name": "Bob" } ],
        "clock": { "kind": "realtime", "minutes": 10, "increment": 5 } });
    let (id, tokens, _) = create(&a, body).await;
    play(&a, &id, &tokens, 0).await;
    play(&a, &id, &tokens, 1).await;
    let before = play(&a, &id, &tokens, 2).await;
    let mover = before["turn"]["seat"].as_u64().unwrap() as usize;
    let other = 1 - mover;
    let (me, them) = (tokens[mover].as_deref().unwrap(), tokens[other].as_deref().unwrap());
    let moved = state(&a, &id, Some(me)).await;
    assert_eq!(moved["version"], 3);
    assert_eq!(moved["may_take_back"], true, "{moved}");
    let used = moved["clock"]["remaining"][mover].as_i64().unwrap();
    let (_, record) = call(&a, "GET", &format!("/api/games/{id}/record"), None).await;
    let first_two = record["moves"].as_array().unwrap()[..2].to_vec();

    let (status, s) = takeback(&a, &id, me, None).await;
    assert_eq!(status, StatusCode::OK, "{s}");
    assert_eq!(s["takeback"]["status"], "pending", "{s}");
    assert_eq!(s["takeback"]["seat"], mover);
    assert_eq!(s["takeback"]["waiting"], json!([other]));
    assert_eq!((&s["takeback"]["move_number"], &s["takeback"]["moves"]), (&json!(3), &json!(1)));
    assert_eq!(s["may_take_back"], false, "one request at a time");
    assert_eq!(s["version"], 3, "nothing is taken back before the answer");
    // The other server shows the request, to the other player and to spectators.
    let seen = wait_for(&b, &id, Some(them), |s| s["takeback"]["status"] == "pending").await;
    assert_eq!(seen["takeback"]["waiting"], json!([other]));
    assert_eq!(state(&b, &id, None).await["takeback"]["status"], "pending");

    let (status, s) = takeback(&b, &id, them, Some("accept")).await;
    assert_eq!(status, StatusCode::OK, "{s}");
    assert_eq!(s["takeback"]["status"], "granted", "{s}");
    assert_eq!(s["takeback"]["accepted"], json!([other]));
    assert_eq!(s["version"], 2, "{s}");
    // Both servers show the game as it was before the move, to its player.
    let back_b = state(&b, &id, Some(me)).await;
    let back_a = wait_for(&a, &id, Some(me), |s| s["version"] == 2).await;
    assert_eq!(position(&back_a), position(&before), "server one: the position before the move");
    assert_eq!(position(&back_b), position(&before), "server two: the position before the move");
    assert_eq!(back_a["takeback"]["status"], "granted");
    // The clock carries on, the mover's running; their time is not given back.
    assert_eq!(back_a["clock"]["running"], mover, "{back_a}");
    let left = back_a["clock"]["remaining"][mover].as_i64().unwrap();
    assert!(left <= used && left > used - 5_000, "{used} ms left after the move, {left} now: {back_a}");
    // The record is the moves left, and it replays.
    let (status, record) = call(&a, "GET", &format!("/api/games/{id}/record"), None).await;
    assert_eq!(status, StatusCode::OK, "{record}");
    assert_eq!(record["moves"].as_array().unwrap(), &first_two);
    let (status, replay) = call(&a, "POST", "/api/replay", Some(&record.to_string())).await;
    assert_eq!(status, StatusCode::OK, "{replay}");
    // A restarted server rebuilds the same game from the store.
    let restarted = app(AppState::new(sa.store().clone(), Config::quick()));
    assert_eq!(position(&state(&restarted, &id, Some(me)).await), position(&before));
    // The game goes on: the mover plays another move, on either server.
    play(&b, &id, &tokens, 5).await;
    let s = wait_for(&a, &id, Some(them), |s| s["version"] == 3).await;
    assert_eq!(s["turn"]["seat"], other, "{s}");
    assert_eq!(s["takeback"]["status"], "granted", "{s}");
}

#[tokio::test]
async fn sqlite_a_takeback_granted_rewinds_the_game_and_its_record() {
    a_takeback_granted_rewinds(false).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_a_takeback_granted_on_another_server_rewinds_both() {
    a_takeback_granted_rewinds(true).await;
}

/// Declined: nothing changes, the other server says so, and the same move
/// is not asked again; a later move is.
async fn declined(pg: bool) {
    let Some([(a, _), (b, _)]) = two_servers(pg).await else { return };
    let b = if pg { b } else { a.clone() };
    let (id, tokens, _) = create(&a, two_humans()).await;
    let before = play(&a, &id, &tokens, 0).await;
    let mover = before["turn"]["seat"].as_u64().unwrap() as usize;
    let (me, them) = (tokens[mover].as_deref().unwrap(), tokens[1 - mover].as_deref().unwrap());
    let moved = state(&a, &id, Some(them)).await;
    let (status, s) = takeback(&a, &id, me, None).await;
    assert_eq!(status, StatusCode::OK, "{s}");
    wait_for(&b, &id, Some(them), |s| s["takeback"]["status"] == "pending").await;
    let (status, s) = takeback(&b, &id, them, Some("decline")).await;
    assert_eq!(status, StatusCode::OK, "{s}");
    assert_eq!((&s["takeback"]["status"], &s["takeback"]["declined_by"]), (&json!("declined"), &json!(1 - mover)));
    assert_eq!(position(&s), position(&moved), "a decline changes nothing");
    let s = wait_for(&a, &id, Some(me), |s| s["takeback"]["status"] == "declined").await;
    assert_eq!(s["may_take_back"], false, "{s}");
    // Not asked again for the same move; nothing left to answer.
    let (status, v) = takeback(&a, &id, me, None).await;
    assert_eq!((status, code(&v)), (StatusCode::CONFLICT, "takeback_declined"), "{v}");
    let (status, v) = takeback(&a, &id, them, Some("accept")).await;
    assert_eq!((status, code(&v)), (StatusCode::CONFLICT, "no_takeback_asked"), "{v}");
    assert_eq!(position(&state(&a, &id, Some(them)).await), position(&moved));
    // After the next moves, the mover's new move may be asked about.
    play(&b, &id, &tokens, 0).await;
    play(&b, &id, &tokens, 1).await;
    let s = wait_for(&a, &id, Some(me), |s| s["version"] == 3).await;
    assert_eq!(s["may_take_back"], true, "{s}");
    let (status, s) = takeback(&a, &id, me, None).await;
    assert_eq!(status, StatusCode::OK, "{s}");
    assert_eq!((&s["takeback"]["status"], &s["takeback"]["move_number"]), (&json!("pending"), &json!(3)));
    assert_eq!(s["takeback"]["number"], 2);
}

#[tokio::test]
async fn sqlite_a_declined_takeback_changes_nothing_and_is_not_asked_again() {
    declined(false).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_a_declined_takeback_changes_nothing_and_is_not_asked_again() {
    declined(true).await;
}

/// A request lapses when a person moves (the other played rather than
/// answer), and after its time (two minutes): then there is nothing to
/// answer, and it may be asked again.
#[tokio::test]
async fn a_request_lapses_after_a_move_or_its_time() {
    let (a, sa) = test_app();
    let (id, tokens, _) = create(&a, two_humans()).await;
    let before = play(&a, &id, &tokens, 0).await;
    let mover = before["turn"]["seat"].as_u64().unwrap() as usize;
    let (me, them) = (tokens[mover].as_deref().unwrap(), tokens[1 - mover].as_deref().unwrap());
    assert_eq!(takeback(&a, &id, me, None).await.0, StatusCode::OK);
    play(&a, &id, &tokens, 0).await;
    let s = state(&a, &id, Some(them)).await;
    assert_eq!((&s["takeback"]["status"], &s["version"]), (&json!("lapsed"), &json!(2)), "{s}");
    let (status, v) = takeback(&a, &id, them, Some("accept")).await;
    assert_eq!((status, code(&v)), (StatusCode::CONFLICT, "no_takeback_asked"), "{v}");
    assert_eq!(state(&a, &id, None).await["version"], 2, "nothing taken back");
    // Asked again (its moves: the mover's and the one after), it lapses with time.
    let (status, s) = takeback(&a, &id, me, None).await;
    assert_eq!(status, StatusCode::OK, "{s}");
    assert_eq!((&s["takeback"]["status"], &s["takeback"]["moves"]), (&json!("pending"), &json!(2)), "{s}");
    let left = s["takeback"]["left_ms"].as_i64().unwrap();
    assert!(left > 60_000 && left <= 120_000, "{s}");
    sa.games.now().advance(Duration::from_secs(121));
    let s = state(&a, &id, Some(them)).await;
    assert_eq!(s["takeback"]["status"], "lapsed", "{s}");
    let (status, v) = takeback(&a, &id, them, Some("accept")).await;
    assert_eq!((status, code(&v)), (StatusCode::CONFLICT, "no_takeback_asked"), "{v}");
    assert_eq!(state(&a, &id, Some(me)).await["may_take_back"], true);
}

/// Against bots a request is granted at once: the player's last move and
/// the bots' replies go, the player is to move, and the bots play on.
#[tokio::test]
async fn against_bots_it_is_granted_at_once_and_the_bots_play_on() {
    let (a, _) = test_app();
    let body = json!({ "seats": [ { "kind": "human", "name": "Ada" }, { "kind": "bot", "level": "random" },
        { "kind": "bot", "level": "random" } ] });
    let (id, tokens, _) = create(&a, body).await;
    let ada = tokens[0].as_deref().unwrap();
    let mine = wait_for(&a, &id, Some(ada), |s| s["turn"]["seat"] == 0 && s["legal"].is_array()).await;
    let v = mine["version"].as_u64().unwrap();
    let (status, r) = post_move(&a, &id, ada, &pick_move(&mine, 3, true)).await;
    assert_eq!(status, StatusCode::OK, "{r}");
    // Both bots reply.
    wait_for(&a, &id, Some(ada), |s| s["version"] == v + 3).await;
    let (status, s) = takeback(&a, &id, ada, None).await;
    assert_eq!(status, StatusCode::OK, "{s}");
    assert_eq!(s["takeback"]["status"], "granted", "{s}");
    assert_eq!((&s["takeback"]["waiting"], &s["takeback"]["moves"]), (&json!([]), &json!(3)));
    assert_eq!(position(&s), position(&mine), "back before Ada's move, the bots' replies gone");
    // Ada moves again (another move) and the bots reply again.
    let (status, r) = post_move(&a, &id, ada, &pick_move(&s, 0, false)).await;
    assert_eq!(status, StatusCode::OK, "{r}");
    let s = wait_for(&a, &id, Some(ada), |s| s["version"] == v + 3).await;
    assert_eq!(s["turn"]["seat"], 0, "{s}");
}

/// Refused with a stable code, each changing nothing: a rated game, no
/// move played yet, a request pending, no seat held, answering one's own
/// request, an unknown answer or field; after a game's end.
#[tokio::test]
async fn refusals_have_a_code_and_change_nothing() {
    let (a, sa) = test_app();
    let (id, tokens, _) = create(&a, two_humans()).await;
    let before = play(&a, &id, &tokens, 0).await;
    let mover = before["turn"]["seat"].as_u64().unwrap() as usize;
    let (me, them) = (tokens[mover].as_deref().unwrap(), tokens[1 - mover].as_deref().unwrap());
    let moved = state(&a, &id, Some(them)).await;
    let refused = [
        (takeback(&a, &id, them, None).await, StatusCode::CONFLICT, "nothing_to_take_back"),
        (takeback(&a, &id, them, Some("accept")).await, StatusCode::CONFLICT, "no_takeback_asked"),
        (
            call(&a, "POST", &format!("/api/games/{id}/takeback"), Some("{}")).await,
            StatusCode::FORBIDDEN,
            "unauthorized",
        ),
        (takeback(&a, &id, "nope", None).await, StatusCode::FORBIDDEN, "unauthorized"),
        (takeback(&a, &id, me, Some("maybe")).await, StatusCode::NOT_FOUND, "not_found"),
        (
            call(&a, "POST", &format!("/api/games/{id}/takeback?token={me}"), Some(r#"{"seat":0}"#)).await,
            StatusCode::BAD_REQUEST,
            "bad_request",
        ),
        (takeback(&a, "nosuchgame", me, None).await, StatusCode::NOT_FOUND, "not_found"),
    ];
    for ((status, v), want, want_code) in refused {
        assert_eq!((status, code(&v)), (want, want_code), "{v}");
    }
    assert!(state(&a, &id, None).await["takeback"].is_null(), "nothing was asked");
    assert_eq!(takeback(&a, &id, me, None).await.0, StatusCode::OK);
    let (status, v) = takeback(&a, &id, me, None).await;
    assert_eq!((status, code(&v)), (StatusCode::CONFLICT, "takeback_pending"), "{v}");
    let (status, v) = takeback(&a, &id, me, Some("accept")).await;
    assert_eq!((status, code(&v)), (StatusCode::FORBIDDEN, "unauthorized"), "the asker does not answer: {v}");
    let (status, v) = takeback(&a, &id, them, None).await;
    assert_eq!((status, code(&v)), (StatusCode::CONFLICT, "nothing_to_take_back"), "{v}");
    let s = state(&a, &id, Some(them)).await;
    assert_eq!(position(&s), position(&moved));
    assert_eq!((&s["takeback"]["status"], &s["takeback"]["number"]), (&json!("pending"), &json!(1)));

    // A rated game (marked so in the store, read by a restarted server).
    let (rated, rt, _) = create(&a, two_humans()).await;
    play(&a, &rated, &rt, 0).await;
    sa.store().ratings.mark_rated(&rated, "duel").await.unwrap();
    let restarted = app(AppState::new(sa.store().clone(), Config::quick()));
    let all = rt.iter().flatten().cloned().collect::<Vec<_>>().join(",");
    let s = state(&restarted, &rated, Some(&all)).await;
    assert_eq!((&s["rated"], &s["may_take_back"]), (&json!(true), &json!(false)), "{s}");
    for t in rt.iter().flatten() {
        let (status, v) = takeback(&restarted, &rated, t, None).await;
        assert!(matches!(code(&v), "not_in_rated"), "{v}");
        assert_eq!(status, StatusCode::FORBIDDEN);
    }
    assert!(state(&restarted, &rated, None).await["takeback"].is_null());

    // A game over.
    let (status, v) =
        call(&a, "POST", &format!("/api/games/{id}/resign?token={me}"), Some(&json!({ "seat": mover }).to_string()))
            .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let (status, v) = takeback(&a, &id, them, Some("accept")).await;
    assert_eq!((status, code(&v)), (StatusCode::CONFLICT, "game_over"), "{v}");
    let (status, v) = takeback(&a, &id, me, None).await;
    assert_eq!((status, code(&v)), (StatusCode::CONFLICT, "game_over"), "{v}");
}

/// A bot that chose its reply before a takeback never plays it on the game
/// as it is after: Ada moves, the bot chooses at once (a random bot) and
/// waits out its delay; meanwhile Ada takes her move back (granted at once)
/// and plays another, far from the first. The bot's reply is chosen again
/// for that game (its old one would be at the same version, and is
/// illegal there as a rule, or stale): the bot moves, and the game goes on.
/// Over a few games, so that an old reply illegal on the new board shows.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_never_plays_a_reply_chosen_before_a_takeback() {
    let (a, _) = with_store(carcassonne_server::Store::in_memory().unwrap(), Duration::from_millis(1500));
    let mut games = Vec::new();
    for _ in 0..3 {
        let body = json!({ "seats": [ { "kind": "human", "name": "Ada" }, { "kind": "bot", "level": "random" } ] });
        let (id, tokens, _) = create(&a, body).await;
        games.push((id, tokens[0].clone().unwrap()));
    }
    for (id, ada) in &games {
        let mine = wait_for(&a, id, Some(ada), |s| s["legal"].is_array()).await;
        let v = mine["version"].as_u64().unwrap();
        let (status, r) = post_move(&a, id, ada, &pick_move(&mine, 0, true)).await;
        assert_eq!(status, StatusCode::OK, "{r}");
        let (status, s) = takeback(&a, id, ada, None).await;
        assert_eq!(
            (status, &s["version"]),
            (StatusCode::OK, &json!(v)),
            "granted at once, before the bot's reply: {s}"
        );
        let far = s["legal"].as_array().unwrap().len() - 1;
        let (status, r) = post_move(&a, id, ada, &pick_move(&s, far, false)).await;
        assert_eq!(status, StatusCode::OK, "{r}");
    }
    for (id, ada) in &games {
        let s = wait_a_while(&a, id, Some(ada), |s| s["legal"].is_array() && s["version"].as_u64() > Some(1)).await;
        let s = s.unwrap_or_else(|| panic!("the bot did not reply after the takeback"));
        let (_, record) = call(&a, "GET", &format!("/api/games/{id}/record"), None).await;
        let (status, replay) = call(&a, "POST", "/api/replay", Some(&record.to_string())).await;
        assert_eq!(status, StatusCode::OK, "{replay}");
        assert_eq!(s["takeback"]["status"], "granted");
    }
}

/// The clocks after a takeback: nobody gets time back and nobody is
/// charged the time the request took; the asker's clock runs from the
/// grant. A turn-based game's request waits a day for its answers.
#[tokio::test]
async fn the_clock_carries_on_with_no_time_given_back() {
    let (a, sa) = test_app();
    let body = json!({ "seats": [ { "kind": "human", "name": "Ada" }, { "kind": "human", "name": "Bob" } ],
        "clock": { "kind": "realtime", "minutes": 10, "increment": 5 } });
    let (id, tokens, _) = create(&a, body).await;
    sa.games.now().advance(Duration::from_secs(20));
    let before = play(&a, &id, &tokens, 0).await;
    let mover = before["turn"]["seat"].as_u64().unwrap() as usize;
    let other = 1 - mover;
    let (me, them) = (tokens[mover].as_deref().unwrap(), tokens[other].as_deref().unwrap());
    let moved = state(&a, &id, Some(me)).await;
    let (mine, theirs) =
        (moved["clock"]["remaining"][mover].as_i64().unwrap(), moved["clock"]["remaining"][other].as_i64().unwrap());
    assert!(mine < 10 * 60_000 - 10_000, "the 20 s the move took are used: {moved}");
    sa.games.now().advance(Duration::from_secs(30));
    assert_eq!(takeback(&a, &id, me, None).await.0, StatusCode::OK);
    let (status, s) = takeback(&a, &id, them, Some("accept")).await;
    assert_eq!(status, StatusCode::OK, "{s}");
    assert_eq!(s["clock"]["running"], mover, "{s}");
    let other_left = s["clock"]["remaining"][other].as_i64().unwrap();
    assert!(other_left >= theirs && other_left < theirs + 1_000, "the other is not charged the 30 s: {s}");
    let left = s["clock"]["remaining"][mover].as_i64().unwrap();
    assert!(left <= mine && left > mine - 1_000, "the asker's time is not given back, and runs from the grant: {s}");

    let body = json!({ "seats": [ { "kind": "human", "name": "Ada" }, { "kind": "human", "name": "Bob" } ],
        "clock": { "kind": "turn", "days": 1 } });
    let (id, tokens, _) = create(&a, body).await;
    let before = play(&a, &id, &tokens, 0).await;
    let me = tokens[before["turn"]["seat"].as_u64().unwrap() as usize].as_deref().unwrap();
    let (status, s) = takeback(&a, &id, me, None).await;
    assert_eq!(status, StatusCode::OK, "{s}");
    let left = s["takeback"]["left_ms"].as_i64().unwrap();
    assert!(left > 23 * 3_600_000 && left <= 24 * 3_600_000, "a day: {s}");
}

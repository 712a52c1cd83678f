//! Chat and rematch (docs/web.md, "Chat and rematch"): the players' and the
//! spectators' chat apart, cleaning, caps and rate limits, the chat's
//! download when every player agreed, and the rematch accepted by every
//! player, over HTTP and the websocket, on SQLite and (when
//! `CARCASSONNE_TEST_POSTGRES` is set) on two servers sharing PostgreSQL.

mod common;

use std::net::SocketAddr;
use std::time::Duration;

use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{Request, StatusCode};
use axum::Router;
use carcassonne_server::{serve_on, AppState, Config, Store};
use common::*;
use futures_util::{SinkExt, StreamExt};
use http_body_util::BodyExt;
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::Message;
use tower::ServiceExt;

type Socket = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// A request from client address `from`: status and body.
async fn from(app: &Router, method: &str, uri: &str, body: Option<Value>, from: &str) -> (StatusCode, Value) {
    let mut req = Request::builder()
        .method(method)
        .uri(uri)
        .header("content-type", "application/json")
        .body(body.map(|b| Body::from(b.to_string())).unwrap_or_else(Body::empty))
        .unwrap();
    req.extensions_mut().insert(ConnectInfo(SocketAddr::new(from.parse().unwrap(), 5000)));
    let resp = app.clone().oneshot(req).await.unwrap();
    let status = resp.status();
    let bytes = resp.into_body().collect().await.unwrap().to_bytes();
    (status, serde_json::from_slice(&bytes).unwrap_or(Value::Null))
}

async fn say(app: &Router, id: &str, token: Option<&str>, text: &str) -> (StatusCode, Value) {
    say_from(app, id, token, text, "10.0.0.1").await
}

async fn say_from(app: &Router, id: &str, token: Option<&str>, text: &str, addr: &str) -> (StatusCode, Value) {
    let uri = match token {
        Some(t) => format!("/api/games/{id}/chat?token={t}"),
        None => format!("/api/games/{id}/chat"),
    };
    from(app, "POST", &uri, Some(json!({ "text": text })), addr).await
}

async fn chat(app: &Router, id: &str, token: Option<&str>) -> Value {
    let uri = match token {
        Some(t) => format!("/api/games/{id}/chat?token={t}"),
        None => format!("/api/games/{id}/chat"),
    };
    let (status, v) = call(app, "GET", &uri, None).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    v
}

fn texts(chat: &Value) -> Vec<String> {
    chat["messages"].as_array().unwrap().iter().map(|m| m["text"].as_str().unwrap().to_string()).collect()
}

fn error(v: &(StatusCode, Value)) -> (StatusCode, &str) {
    (v.0, v.1["error"].as_str().unwrap_or("?"))
}

/// Plays game `id` to its end with whatever seats `tokens` hold (bots move on their own).
async fn play_to_end(app: &Router, id: &str, tokens: &[Option<String>]) {
    let all: Vec<&str> = tokens.iter().flatten().map(String::as_str).collect();
    let all = all.join(",");
    for _ in 0..400 {
        let s = state(app, id, Some(&all)).await;
        if s["status"] == "finished" {
            return;
        }
        let seat = s["turn"]["seat"].as_u64().unwrap() as usize;
        let Some(token) = tokens[seat].as_ref() else {
            tokio::time::sleep(Duration::from_millis(5)).await;
            continue;
        };
        let (status, v) = post_move(app, id, token, &pick_move(&s, 0, false)).await;
        assert!(status == StatusCode::OK || v["error"] == "stale_version", "{v}");
    }
    panic!("the game did not end");
}

#[tokio::test]
async fn players_and_spectators_chat_apart_until_the_end() {
    let (app, _) = test_app();
    let (id, tokens, _) = create(&app, two_humans()).await;
    let (ada, bob) = (tokens[0].as_deref(), tokens[1].as_deref());
    let v = say(&app, &id, ada, "Good luck!").await;
    assert_eq!(v.0, StatusCode::OK, "{}", v.1);
    assert_eq!(v.1["message"]["name"], "Ada");
    assert_eq!(v.1["message"]["seat"], 0);
    assert_eq!(v.1["message"]["seq"], 1);
    // Spectators are numbered by address, and keep their number.
    let s1 = say_from(&app, &id, None, "Ada will win", "10.0.0.7").await;
    assert_eq!((s1.0, s1.1["message"]["name"].as_str()), (StatusCode::OK, Some("Spectator 1")), "{}", s1.1);
    assert!(s1.1["message"].get("seat").is_none());
    let s2 = say_from(&app, &id, None, "No, Bob", "10.0.0.8").await;
    assert_eq!(s2.1["message"]["name"], "Spectator 2");
    let s1 = say_from(&app, &id, None, "We will see", "10.0.0.7").await;
    assert_eq!(s1.1["message"]["name"], "Spectator 1");
    assert_eq!(say(&app, &id, bob, "Thanks").await.1["message"]["name"], "Bob");

    // Players read the players' chat only; spectators read both.
    assert_eq!(texts(&chat(&app, &id, ada).await), ["Good luck!", "Thanks"]);
    assert_eq!(texts(&chat(&app, &id, bob).await), ["Good luck!", "Thanks"]);
    let all = chat(&app, &id, None).await;
    assert_eq!(texts(&all), ["Good luck!", "Ada will win", "No, Bob", "We will see", "Thanks"]);
    assert_eq!(all["off"], false);
    // No token in what anyone reads.
    assert!(!all.to_string().contains(ada.unwrap()));

    play_to_end(&app, &id, &tokens).await;
    assert_eq!(texts(&chat(&app, &id, ada).await).len(), 5, "after the end players read the spectators too");
}

#[tokio::test]
async fn bad_messages_are_refused_and_change_nothing() {
    let (app, _) = test_app();
    let (id, tokens, _) = create(&app, two_humans()).await;
    let ada = tokens[0].as_deref();
    assert_eq!(error(&say(&app, &id, ada, " \u{200B}\n ").await), (StatusCode::BAD_REQUEST, "empty_message"));
    assert_eq!(
        error(&say(&app, &id, ada, &"x".repeat(201)).await),
        (StatusCode::PAYLOAD_TOO_LARGE, "message_too_long")
    );
    assert_eq!(
        error(&say(&app, &id, ada, &"é".repeat(5000)).await),
        (StatusCode::PAYLOAD_TOO_LARGE, "message_too_long")
    );
    assert_eq!(error(&say(&app, &id, Some("0123456789abcdef0123456789abcdef"), "hi").await).1, "unauthorized");
    let (status, v) = call(&app, "POST", &format!("/api/games/{id}/chat"), Some("{\"text\": 5}")).await;
    assert_eq!((status, v["error"].as_str()), (StatusCode::BAD_REQUEST, Some("bad_request")));
    let (status, v) = call(&app, "POST", &format!("/api/games/{id}/chat"), Some("{\"text\": \"a\", \"x\": 1}")).await;
    assert_eq!((status, v["error"].as_str()), (StatusCode::BAD_REQUEST, Some("bad_request")));
    assert_eq!(chat(&app, &id, None).await["messages"], json!([]), "nothing was stored");

    // Text stays text: markup is kept as characters, bidi and control characters go.
    let v = say(&app, &id, ada, "<img src=x onerror=alert(1)>\u{202E}gg\u{0007}").await;
    assert_eq!(v.1["message"]["text"], "<img src=x onerror=alert(1)>gg", "{}", v.1);
    assert_eq!(say(&app, &id, ada, &"y".repeat(200)).await.0, StatusCode::OK, "200 characters pass");

    // A burst of five per seat, then one every two seconds: the sixth is refused.
    for i in 0..3 {
        assert_eq!(say(&app, &id, ada, &format!("m{i}")).await.0, StatusCode::OK);
    }
    assert_eq!(error(&say(&app, &id, ada, "too fast").await), (StatusCode::TOO_MANY_REQUESTS, "chat_too_fast"));
    // Another seat, and a spectator, have limits of their own.
    assert_eq!(say(&app, &id, tokens[1].as_deref(), "mine").await.0, StatusCode::OK);
    assert_eq!(say_from(&app, &id, None, "watching", "10.0.0.9").await.0, StatusCode::OK);
    let count = chat(&app, &id, None).await["messages"].as_array().unwrap().len();
    assert_eq!(count, 7);

    // A game made with the chat off refuses every message.
    let mut quiet = two_humans();
    quiet["chat_off"] = true.into();
    let (qid, qtokens, _) = create(&app, quiet).await;
    assert_eq!(error(&say(&app, &qid, qtokens[0].as_deref(), "hello").await), (StatusCode::FORBIDDEN, "chat_off"));
    assert_eq!(error(&say_from(&app, &qid, None, "hello", "10.0.0.3").await).1, "chat_off");
    let q = chat(&app, &qid, None).await;
    assert_eq!((q["off"].clone(), q["messages"].clone()), (json!(true), json!([])));
}

#[tokio::test]
async fn the_chat_is_downloaded_only_when_every_player_agreed() {
    let (app, _) = test_app();
    let (id, tokens, _) =
        create(&app, json!({ "seats": [ { "kind": "human", "name": "Ada" }, { "kind": "bot", "level": "random" }, { "kind": "human", "name": "Cy" } ] }))
            .await;
    let (ada, cy) = (tokens[0].as_deref().unwrap(), tokens[2].as_deref().unwrap());
    say(&app, &id, Some(ada), "Hi Cy").await;
    say_from(&app, &id, None, "a spectator's word", "10.0.0.5").await;
    let download = format!("/api/games/{id}/chat/download");
    assert_eq!(error(&call(&app, "GET", &download, None).await), (StatusCode::CONFLICT, "game_not_over"));
    let consent = |t: &str| format!("/api/games/{id}/chat/consent?token={t}");
    let (status, v) = call(&app, "POST", &consent(ada), Some("{\"include\": true}")).await;
    assert_eq!((status, v["rematch"]["consent"].clone()), (StatusCode::OK, json!([0])), "{v}");
    let (status, v) = call(&app, "POST", &format!("/api/games/{id}/chat/consent"), Some("{\"include\": true}")).await;
    assert_eq!((status, v["error"].as_str()), (StatusCode::FORBIDDEN, Some("unauthorized")), "spectators have no say");
    play_to_end(&app, &id, &tokens).await;
    assert_eq!(error(&call(&app, "GET", &download, None).await), (StatusCode::FORBIDDEN, "chat_not_agreed"));
    call(&app, "POST", &consent(cy), Some("{\"include\": true}")).await;
    // Changed her mind, then agreed again.
    call(&app, "POST", &consent(ada), Some("{\"include\": false}")).await;
    assert_eq!(error(&call(&app, "GET", &download, None).await).1, "chat_not_agreed");
    let (_, v) = call(&app, "POST", &consent(ada), Some("{\"include\": true}")).await;
    assert_eq!(v["rematch"]["consent"], json!([0, 2]));
    let (status, v) = call(&app, "GET", &download, None).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!((v["players"][0].as_str(), v["players"][2].as_str()), (Some("Ada"), Some("Cy")));
    assert_eq!(texts(&v), ["Hi Cy"], "the players' chat only");
    // The record itself is unchanged: no chat in it.
    let (status, record) = call(&app, "GET", &format!("/api/games/{id}/record"), None).await;
    assert_eq!(status, StatusCode::OK);
    assert!(!record.to_string().contains("Hi Cy"));
}

/// The acceptance that makes a rematch spends one of its address's new
/// games of the hour: past the quota it is refused and not kept (a chain
/// of quick games rematched made games without end).
#[tokio::test]
async fn a_rematch_counts_among_the_new_games_of_the_hour() {
    let state =
        AppState::new(Store::in_memory().unwrap(), Config { max_new_games_per_hour_per_ip: 2, ..Config::quick() });
    let app = carcassonne_server::app(state);
    let (id, tokens, _) = create(&app, two_humans()).await;
    let accept = |id: &str, t: &str| format!("/api/games/{id}/rematch?token={t}");
    play_to_end(&app, &id, &tokens).await;
    let (ada, bob) = (tokens[0].as_deref().unwrap(), tokens[1].as_deref().unwrap());
    let (status, a) = call(&app, "POST", &accept(&id, ada), Some("{}")).await;
    assert_eq!(status, StatusCode::OK, "{a}");
    let (status, b) = call(&app, "POST", &accept(&id, bob), Some("{}")).await;
    assert_eq!(status, StatusCode::OK, "the second game of the hour: {b}");
    let second = b["rematch"]["game"].as_str().expect("the rematch is made").to_string();
    let mut held = vec![None; 2];
    for t in a["tokens"].as_array().unwrap().iter().chain(b["tokens"].as_array().unwrap()) {
        held[t["seat"].as_u64().unwrap() as usize] = Some(t["token"].as_str().unwrap().to_string());
    }
    play_to_end(&app, &second, &held).await;
    let (first, last) = (held[0].as_deref().unwrap(), held[1].as_deref().unwrap());
    assert_eq!(call(&app, "POST", &accept(&second, first), Some("{}")).await.0, StatusCode::OK);
    let (status, v) = call(&app, "POST", &accept(&second, last), Some("{}")).await;
    assert_eq!((status, v["error"].as_str()), (StatusCode::TOO_MANY_REQUESTS, Some("quota_exceeded")), "{v}");
    let after = chat(&app, &second, None).await;
    assert_eq!(after["rematch"]["accepted"], json!([0]), "the refused acceptance is not kept: {after}");
    assert_eq!(after["rematch"]["game"], Value::Null);
}

#[tokio::test]
async fn a_rematch_is_made_when_every_player_accepted() {
    let (app, _) = test_app();
    let (id, tokens, first) = create(
        &app,
        json!({ "seats": [ { "kind": "human", "name": "Ada" }, { "kind": "bot", "name": "Robo", "level": "random" }, { "kind": "human", "name": "Cy" } ],
                "rules": { "preset": "standard", "river": true } }),
    )
    .await;
    let (ada, cy) = (tokens[0].as_deref().unwrap(), tokens[2].as_deref().unwrap());
    let accept = |t: &str| format!("/api/games/{id}/rematch?token={t}");
    assert_eq!(error(&call(&app, "POST", &accept(ada), Some("{}")).await), (StatusCode::CONFLICT, "game_not_over"));
    play_to_end(&app, &id, &tokens).await;
    let (status, v) = call(&app, "POST", &format!("/api/games/{id}/rematch"), Some("{}")).await;
    assert_eq!((status, v["error"].as_str()), (StatusCode::FORBIDDEN, Some("unauthorized")));

    let (status, a) = call(&app, "POST", &accept(ada), Some("{}")).await;
    assert_eq!(status, StatusCode::OK, "{a}");
    assert_eq!(a["rematch"]["accepted"], json!([0]));
    assert_eq!(a["rematch"]["game"], Value::Null, "Cy has yet to accept");
    // Ada (seat 0) moves to the last seat.
    assert_eq!(a["tokens"][0]["seat"], 2);
    let ada_new = a["tokens"][0]["token"].as_str().unwrap().to_string();
    assert_eq!(error(&call(&app, "POST", &accept(ada), Some("{}")).await), (StatusCode::CONFLICT, "already_accepted"));
    assert_eq!(chat(&app, &id, None).await["rematch"]["accepted"], json!([0]));

    let (status, c) = call(&app, "POST", &accept(cy), Some("{}")).await;
    assert_eq!(status, StatusCode::OK, "{c}");
    let new_id = c["rematch"]["game"].as_str().expect("the rematch is made").to_string();
    assert_eq!(c["rematch"]["accepted"], json!([0, 2]));
    assert_eq!(c["tokens"][0]["seat"], 1);
    let cy_new = c["tokens"][0]["token"].as_str().unwrap().to_string();
    assert_ne!(new_id, id);
    assert_eq!(chat(&app, &id, None).await["rematch"]["game"], new_id.as_str());

    // Seats rotated: Robo first, then Cy, then Ada; same rules; new tokens hold them.
    let s = state(&app, &new_id, Some(&format!("{cy_new},{ada_new}"))).await;
    let names: Vec<&str> = s["players"].as_array().unwrap().iter().map(|p| p["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["Robo", "Cy", "Ada"]);
    assert_eq!(s["rules"], first["rules"]);
    let (status, _) = call(&app, "GET", &format!("/api/games/{new_id}?token={ada}"), None).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "the old token holds no seat in the new game");
    let only_ada = state(&app, &new_id, Some(&ada_new)).await;
    assert_ne!(only_ada.to_string(), Value::Null.to_string());
    // The rematch of the rematch is another matter: the new game is in play.
    let (status, v) = call(&app, "POST", &format!("/api/games/{new_id}/rematch?token={ada_new}"), Some("{}")).await;
    assert_eq!((status, v["error"].as_str()), (StatusCode::CONFLICT, Some("game_not_over")));
}

/// A timed game's rematch is timed alike, its clocks started afresh (an
/// untimed rematch of a rated game could be stalled for ever).
#[tokio::test]
async fn a_rematch_keeps_the_time_control() {
    let (app, _) = test_app();
    for clock in [json!({ "kind": "realtime", "minutes": 5, "increment": 3 }), json!({ "kind": "turn", "days": 3 })] {
        let mut request = two_humans();
        request["clock"] = clock.clone();
        let (id, tokens, first) = create(&app, request).await;
        play_to_end(&app, &id, &tokens).await;
        let mut held = vec![None; 2];
        for t in tokens.iter().flatten() {
            let (status, v) = call(&app, "POST", &format!("/api/games/{id}/rematch?token={t}"), Some("{}")).await;
            assert_eq!(status, StatusCode::OK, "{v}");
            for t in v["tokens"].as_array().unwrap() {
                held[t["seat"].as_u64().unwrap() as usize] = Some(t["token"].as_str().unwrap().to_string());
            }
        }
        let new_id = chat(&app, &id, None).await["rematch"]["game"].as_str().expect("the rematch is made").to_string();
        let s = state(&app, &new_id, held[0].as_deref()).await;
        for key in ["kind", "minutes", "increment", "days"] {
            assert_eq!(s["clock"][key], first["clock"][key], "{key}: {}", s["clock"]);
        }
        // Afresh: the seat to move has (nearly) its whole time, as in the first game.
        let left = |v: &Value| v["clock"]["left_ms"].as_i64().unwrap();
        assert!((left(&s) - left(&first)).abs() < 5_000, "{} {}", s["clock"], first["clock"]);
        assert_eq!(s["clock"]["running"], 0, "{}", s["clock"]);
        assert!(s["clock"]["deadline"].is_i64(), "the clock runs: {}", s["clock"]);
    }
}

/// A rematch is its first game's owner's: it counts among the games that
/// address keeps, as every game it makes does.
#[tokio::test]
async fn a_rematch_is_owned_as_its_first_game() {
    let (app, state) = test_app();
    let (id, tokens, _) = create(&app, two_humans()).await;
    play_to_end(&app, &id, &tokens).await;
    for t in tokens.iter().flatten() {
        let (status, v) = call(&app, "POST", &format!("/api/games/{id}/rematch?token={t}"), Some("{}")).await;
        assert_eq!(status, StatusCode::OK, "{v}");
    }
    let new_id = chat(&app, &id, None).await["rematch"]["game"].as_str().expect("the rematch is made").to_string();
    let games = &state.store().games;
    let owner = games.load(&id).await.unwrap().unwrap().owner;
    assert!(owner.is_some(), "the first game has an owner");
    assert_eq!(games.load(&new_id).await.unwrap().unwrap().owner, owner);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn acceptances_at_once_make_one_rematch() {
    let (app, _) = test_app();
    for _ in 0..3 {
        let (id, tokens, _) = create(&app, two_humans()).await;
        play_to_end(&app, &id, &tokens).await;
        let accept = |t: &Option<String>| format!("/api/games/{id}/rematch?token={}", t.as_deref().unwrap());
        let (ua, ub) = (accept(&tokens[0]), accept(&tokens[1]));
        let (a, b) = tokio::join!(call(&app, "POST", &ua, Some("{}")), call(&app, "POST", &ub, Some("{}")));
        assert_eq!((a.0, b.0), (StatusCode::OK, StatusCode::OK), "{} {}", a.1, b.1);
        let game = chat(&app, &id, None).await["rematch"]["game"].clone();
        assert!(game.is_string(), "the rematch is made");
        // Whichever answer named the game names the one kept.
        for v in [&a.1, &b.1] {
            assert!(v["rematch"]["game"].is_null() || v["rematch"]["game"] == game, "{v}");
        }
        let both =
            format!("{},{}", a.1["tokens"][0]["token"].as_str().unwrap(), b.1["tokens"][0]["token"].as_str().unwrap());
        assert_eq!(state(&app, game.as_str().unwrap(), Some(&both)).await["you"], json!([0, 1]));
    }
}

// ---------------------------------------------------------------- websockets

async fn start(state: AppState) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(serve_on(listener, state));
    addr.to_string()
}

async fn connect(addr: &str, id: &str, token: Option<&str>) -> Socket {
    let url = match token {
        Some(t) => format!("ws://{addr}/api/games/{id}/ws?token={t}"),
        None => format!("ws://{addr}/api/games/{id}/ws"),
    };
    tokio_tungstenite::connect_async(url).await.unwrap().0
}

/// The next message of type `kind` (others skipped).
async fn next_of(ws: &mut Socket, kind: &str) -> Value {
    loop {
        let msg = tokio::time::timeout(Duration::from_secs(10), ws.next()).await.expect("a message in time");
        if let Message::Text(t) = msg.expect("the socket stays open").unwrap() {
            let v: Value = serde_json::from_str(&t).unwrap();
            if v["type"] == kind {
                return v;
            }
        }
    }
}

async fn send(ws: &mut Socket, v: Value) {
    ws.send(Message::Text(v.to_string().into())).await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_websocket_carries_chat_to_those_who_may_read_it() {
    let server = AppState::new(Store::in_memory().unwrap(), Config::quick());
    let app = carcassonne_server::app(server.clone());
    let addr = start(server).await;
    let (id, tokens, _) = create(&app, two_humans()).await;
    let mut ada = connect(&addr, &id, tokens[0].as_deref()).await;
    let mut bob = connect(&addr, &id, tokens[1].as_deref()).await;
    // A spectator's browser sends its spectator token.
    let browser = "00112233445566778899aabbccddeeff";
    let url = format!("ws://{addr}/api/games/{id}/ws?spectator={browser}");
    let mut watcher = tokio_tungstenite::connect_async(url).await.unwrap().0;
    let bad = tokio_tungstenite::connect_async(format!("ws://{addr}/api/games/{id}/ws?spectator=zz")).await;
    assert!(bad.is_err(), "a malformed spectator token is refused");
    for ws in [&mut ada, &mut bob, &mut watcher] {
        next_of(ws, "state").await;
    }
    // A spectator's message reaches spectators only…
    send(&mut watcher, json!({ "type": "chat", "text": "go Ada" })).await;
    let m = next_of(&mut watcher, "chat").await;
    assert_eq!((m["message"]["name"].as_str(), m["message"]["text"].as_str()), (Some("Spectator 1"), Some("go Ada")));
    // …and the same browser writing from another address is the same spectator.
    let phone = watch_say(&app, &id, "from my phone", "10.8.8.8", Some(browser), None).await;
    assert_eq!(
        (phone.1["message"]["name"].as_str(), phone.1["message"]["spectator"].as_u64()),
        (Some("Spectator 1"), Some(1))
    );
    assert_eq!(next_of(&mut watcher, "chat").await["message"]["text"], "from my phone");
    // …and a player's reaches everyone (the first chat the players see is this one).
    send(&mut ada, json!({ "type": "chat", "text": "Good game" })).await;
    for ws in [&mut ada, &mut bob, &mut watcher] {
        let m = next_of(ws, "chat").await;
        assert_eq!((m["message"]["name"].as_str(), m["message"]["text"].as_str()), (Some("Ada"), Some("Good game")));
    }
    // The HTTP fallback's messages come over the websocket too.
    let (status, _) = say(&app, &id, tokens[1].as_deref(), "One moment").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(next_of(&mut ada, "chat").await["message"]["text"], "One moment");
    // Refusals come back as errors on the socket that sent them.
    send(&mut bob, json!({ "type": "chat", "text": "" })).await;
    assert_eq!(next_of(&mut bob, "error").await["error"], "empty_message");
    send(&mut bob, json!({ "type": "rematch" })).await;
    assert_eq!(next_of(&mut bob, "error").await["error"], "game_not_over");
    send(&mut watcher, json!({ "type": "rematch" })).await;
    assert_eq!(next_of(&mut watcher, "error").await["error"], "unauthorized");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rematch_over_the_websocket_hands_each_player_their_token() {
    let server = AppState::new(Store::in_memory().unwrap(), Config::quick());
    let app = carcassonne_server::app(server.clone());
    let addr = start(server).await;
    let (id, tokens, _) = create(&app, two_humans()).await;
    play_to_end(&app, &id, &tokens).await;
    let mut ada = connect(&addr, &id, tokens[0].as_deref()).await;
    let mut bob = connect(&addr, &id, tokens[1].as_deref()).await;
    let mut watcher = connect(&addr, &id, None).await;
    for ws in [&mut ada, &mut bob, &mut watcher] {
        next_of(ws, "state").await;
    }
    send(&mut ada, json!({ "type": "rematch" })).await;
    let a = next_of(&mut ada, "accepted").await;
    assert_eq!(a["tokens"][0]["seat"], 1);
    let ada_new = a["tokens"][0]["token"].as_str().unwrap().to_string();
    // The others hear that Ada accepted, without her token.
    let r = next_of(&mut bob, "rematch").await;
    assert_eq!((r["accepted"].clone(), r["game"].clone()), (json!([0]), Value::Null));
    assert!(!r.to_string().contains(&ada_new));
    let r = next_of(&mut watcher, "rematch").await;
    assert!(!r.to_string().contains(&ada_new));
    send(&mut bob, json!({ "type": "rematch" })).await;
    let b = next_of(&mut bob, "accepted").await;
    let new_id = b["after"]["game"].as_str().expect("made").to_string();
    let bob_new = b["tokens"][0]["token"].as_str().unwrap().to_string();
    // Ada hears of her own acceptance, then of the game made.
    let mut r = next_of(&mut ada, "rematch").await;
    if r["game"].is_null() {
        r = next_of(&mut ada, "rematch").await;
    }
    assert_eq!(r["game"], new_id.as_str());
    let s = state(&app, &new_id, Some(&format!("{ada_new},{bob_new}"))).await;
    let names: Vec<&str> = s["players"].as_array().unwrap().iter().map(|p| p["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["Bob", "Ada"]);
}

// ---------------------------------------------------------------- two servers, one PostgreSQL database

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_two_servers_chat_and_rematch_reach_everyone() {
    let Some(server) = pg::server_url() else { return };
    let schema = pg::Schema::new(&server);
    let one = AppState::new(Store::postgres(&schema.url()).await.unwrap(), Config::quick());
    let two = AppState::new(Store::postgres(&schema.url()).await.unwrap(), Config::quick());
    let (app_one, app_two) = (carcassonne_server::app(one.clone()), carcassonne_server::app(two.clone()));
    let addr_two = start(two).await;
    // A chat line is told to the other servers once, through their change
    // feeds (moves are caught up on, chat lines are not): both listening.
    for app in [&app_one, &app_two] {
        let end = std::time::Instant::now() + Duration::from_secs(20);
        while call(app, "GET", "/api/health", None).await.1["feed"] != "up" {
            assert!(std::time::Instant::now() < end, "a change feed never listened");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
    let (id, tokens, _) = create(&app_one, two_humans()).await;
    let mut bob = connect(&addr_two, &id, tokens[1].as_deref()).await;
    next_of(&mut bob, "state").await;
    // Written on server one, read on server two: live and after a reload.
    assert_eq!(say(&app_one, &id, tokens[0].as_deref(), "Hello from one").await.0, StatusCode::OK);
    assert_eq!(next_of(&mut bob, "chat").await["message"]["text"], "Hello from one");
    assert_eq!(say(&app_two, &id, tokens[1].as_deref(), "Hi from two").await.1["message"]["seq"], 2);
    assert_eq!(texts(&chat(&app_one, &id, None).await), ["Hello from one", "Hi from two"]);

    play_to_end(&app_one, &id, &tokens).await;
    let accept = |t: &str| format!("/api/games/{id}/rematch?token={t}");
    let (status, a) = call(&app_one, "POST", &accept(tokens[0].as_deref().unwrap()), Some("{}")).await;
    assert_eq!(status, StatusCode::OK, "{a}");
    assert_eq!(next_of(&mut bob, "rematch").await["accepted"], json!([0]));
    let (status, b) = call(&app_two, "POST", &accept(tokens[1].as_deref().unwrap()), Some("{}")).await;
    assert_eq!(status, StatusCode::OK, "{b}");
    let new_id = b["rematch"]["game"].as_str().unwrap().to_string();
    assert_eq!(chat(&app_one, &id, None).await["rematch"]["game"], new_id.as_str());
    let ada_new = a["tokens"][0]["token"].as_str().unwrap();
    assert_eq!(state(&app_one, &new_id, Some(ada_new)).await["players"][1]["name"], "Ada");
    let (status, v) = call(&app_one, "POST", &accept(tokens[0].as_deref().unwrap()), Some("{}")).await;
    assert_eq!((status, v["error"].as_str()), (StatusCode::CONFLICT, Some("already_accepted")));
}

// ---------------------------------------------------------------- fair play (issue 45, 7)

const HOST: &str = "play.example";
const ORIGIN: &str = "http://play.example";

/// A signed-in account's session token (an account named `name`, made now).
async fn account(app: &Router, name: &str) -> String {
    let body = json!({ "name": name, "password": "correct horse" });
    let up = page::send(app, page::req(HOST, ORIGIN, "POST", "/api/account/signup", Some(body))).await;
    assert_eq!(up.status, StatusCode::CREATED, "{}", up.body);
    up.token()
}

/// A spectator's message from address `addr`, from a browser holding
/// `browser` (its spectator token), signed in with `session`: status and body.
async fn watch_say(
    app: &Router,
    id: &str,
    text: &str,
    addr: &str,
    browser: Option<&str>,
    session: Option<&str>,
) -> (StatusCode, Value) {
    let uri = match browser {
        Some(b) => format!("/api/games/{id}/chat?spectator={b}"),
        None => format!("/api/games/{id}/chat"),
    };
    let r = page::Req {
        ip: addr.parse().unwrap(),
        token: session,
        ..page::req(HOST, ORIGIN, "POST", &uri, Some(json!({ "text": text })))
    };
    let a = page::send(app, r).await;
    (a.status, a.body)
}

/// The attack, whole: 200 spectators' addresses × 5 messages filled
/// the game's 1,000-message chat in 2 s, and both players were refused
/// (`chat_full`). The players' chat has a cap of its own now; the
/// spectators who are not signed in share a rate per game, and signed-in
/// spectators have a reserve of their own (the caps' fair shares:
/// tests/store/chat.rs).
#[tokio::test]
async fn a_crowd_of_spectators_never_silences_the_players() {
    // Every account has a history here: the Watcher passes the crowd.
    let mut config = Config { bot_delay: Duration::ZERO, ..Config::quick() };
    config.lobby.known_after = Duration::ZERO;
    config.lobby.known_rated_games = 0;
    let app = carcassonne_server::app(AppState::new(Store::in_memory().unwrap(), config));
    let (id, tokens, _) = create(&app, two_humans()).await;
    let (ada, bob) = (tokens[0].as_deref(), tokens[1].as_deref());
    assert_eq!(say(&app, &id, ada, "Good luck").await.0, StatusCode::OK);
    let member = account(&app, "Watcher").await;
    let signed = watch_say(&app, &id, "signed in and watching", "10.9.0.1", None, Some(&member)).await;
    assert_eq!(signed.0, StatusCode::OK, "{}", signed.1);
    let quiet = say_from(&app, &id, None, "a quiet word", "10.9.0.2").await;
    assert_eq!(quiet.0, StatusCode::OK, "{}", quiet.1);
    let mut taken = 0;
    for a in 0..200 {
        for m in 0..5 {
            let v =
                say_from(&app, &id, None, &format!("flood {a}/{m}"), &format!("10.{}.{}.1", 100 + a / 100, a % 100))
                    .await;
            match error(&v) {
                (StatusCode::OK, _) => taken += 1,
                (StatusCode::TOO_MANY_REQUESTS, "chat_too_fast") => {}
                other => panic!("a crowd is slowed at worst: {other:?} {}", v.1),
            }
        }
    }
    // The crowd's burst of 30, less the quiet word's (and one more a quarter second).
    assert!(taken >= 29, "the crowd's burst is taken ({taken})");
    for (token, text) in [(ada, "Still here"), (bob, "Me too")] {
        let v = say(&app, &id, token, text).await;
        assert_eq!(v.0, StatusCode::OK, "the players are never refused for the spectators: {}", v.1);
    }
    let again = watch_say(&app, &id, "still watching", "10.9.0.1", None, Some(&member)).await;
    assert_eq!(again.0, StatusCode::OK, "a signed-in spectator is not slowed by the crowd: {}", again.1);
    assert_eq!(texts(&chat(&app, &id, ada).await), ["Good luck", "Still here", "Me too"]);
    let all = chat(&app, &id, None).await;
    let all = all["messages"].as_array().unwrap();
    let kept = |text: &str| all.iter().any(|m| m["text"] == text);
    assert!(kept("signed in and watching") && kept("a quiet word") && kept("still watching"));
}

/// Accounts made at once from one address, with no history, are one
/// spectator's worth: each message also spends the address's rate, and the
/// game's crowd limit holds them (only accounts with a history pass it).
#[tokio::test]
async fn puppet_accounts_watching_from_one_address_are_one_spectator() {
    let (app, _) = test_app();
    let (id, _, _) = create(&app, two_humans()).await;
    let mut taken = 0;
    for n in 0..10 {
        let puppet = account(&app, &format!("Puppet{n}")).await;
        let v = watch_say(&app, &id, &format!("flood {n}"), "10.9.9.1", None, Some(&puppet)).await;
        match error(&v) {
            (StatusCode::OK, _) => taken += 1,
            (StatusCode::TOO_MANY_REQUESTS, "chat_too_fast") => {}
            other => panic!("{other:?} {}", v.1),
        }
    }
    assert!(taken < 10, "the address's rate holds the puppets ({taken} of 10 taken)");
    let other = watch_say(&app, &id, "someone else", "10.9.9.2", None, None).await;
    assert_eq!(other.0, StatusCode::OK, "{}", other.1);
}

/// A server on `config` where an account with a rated game has a history,
/// a game of two people, and the session tokens of a regular (an account
/// with a history) and of a new account.
async fn a_regular_and_a_newcomer(mut config: Config) -> (AppState, Router, String, String, String) {
    config.bot_delay = Duration::ZERO;
    config.lobby.known_after = Duration::ZERO;
    config.lobby.known_rated_games = 1;
    let state = AppState::new(Store::in_memory().unwrap(), config);
    let app = carcassonne_server::app(state.clone());
    let (id, _, _) = create(&app, two_humans()).await;
    let regular = account(&app, "Regular").await;
    common::accounts::rated(state.store(), "Regular", carcassonne_server::Pool::Duel, 1500.0).await;
    let newcomer = account(&app, "Newcomer").await;
    (state, app, id, regular, newcomer)
}

/// The spectators' reserve is for spectators with a history: a new
/// account's message counts with the guests', in its address's share, so
/// that puppet accounts never push a known spectator's messages out (what
/// a part keeps: tests/store/chat.rs).
#[tokio::test]
async fn only_spectators_with_a_history_write_in_the_reserve() {
    let (state, app, id, regular, newcomer) = a_regular_and_a_newcomer(Config::quick()).await;
    for (text, address, session) in [
        ("from a regular", "10.8.0.1", Some(&regular)),
        ("from a new account", "10.8.0.2", Some(&newcomer)),
        ("from a guest", "10.8.0.2", None),
    ] {
        let v = watch_say(&app, &id, text, address, None, session.map(String::as_str)).await;
        assert_eq!(v.0, StatusCode::OK, "{}", v.1);
    }
    let stored = state.store().chat.messages(&id).await.unwrap();
    let of = |text: &str| stored.iter().find(|m| m.text == text).unwrap().clone();
    let (known, new, guest) = (of("from a regular"), of("from a new account"), of("from a guest"));
    assert!(known.account && known.kept, "in the reserve");
    assert!(new.account && !new.kept, "signed in, not in the reserve");
    assert_eq!(new.author, guest.author, "in its address's share");
    assert_ne!(known.author, guest.author);
}

/// A game numbers so many spectators (here three), then only regulars: a
/// guest and a new account are refused, `chat_crowded`, and nothing is
/// stored, while a regular is numbered and those numbered write on.
#[tokio::test]
async fn past_the_numbered_spectators_only_a_regular_is_numbered() {
    let (state, app, id, regular, newcomer) =
        a_regular_and_a_newcomer(Config { chat_spectators: 3, ..Config::quick() }).await;
    for i in 1..=3 {
        let v = watch_say(&app, &id, &format!("guest {i}"), &format!("10.7.0.{i}"), None, None).await;
        assert_eq!(v.0, StatusCode::OK, "{}", v.1);
    }
    for (address, session) in [("10.7.0.4", None), ("10.7.0.5", Some(&newcomer))] {
        let v = watch_say(&app, &id, "one too many", address, None, session.map(String::as_str)).await;
        assert_eq!(error(&v), (StatusCode::FORBIDDEN, "chat_crowded"), "{}", v.1);
    }
    let v = watch_say(&app, &id, "a regular", "10.7.0.6", None, Some(&regular)).await;
    assert_eq!(v.0, StatusCode::OK, "{}", v.1);
    assert_eq!(v.1["message"]["spectator"], 4, "{}", v.1);
    let v = watch_say(&app, &id, "guest 1 again", "10.7.0.1", None, None).await;
    assert_eq!(v.0, StatusCode::OK, "{}", v.1);
    let stored: Vec<String> = state.store().chat.messages(&id).await.unwrap().into_iter().map(|m| m.text).collect();
    assert_eq!(stored, ["guest 1", "guest 2", "guest 3", "a regular", "guest 1 again"]);
}

/// "A muted watcher comes back under a new 'Spectator N' from another
/// address": a spectator is the same spectator of the game from another
/// address with the same browser (its spectator token), and from the same
/// address with another browser; only both new make a new one.
#[tokio::test]
async fn a_spectator_stays_themselves_from_another_address() {
    let (app, _) = test_app();
    let (id, _, _) = create(&app, two_humans()).await;
    let (b1, b2) = ("0123456789abcdef0123456789abcdef", "fedcba9876543210fedcba9876543210");
    let first = watch_say(&app, &id, "hello", "10.0.0.7", Some(b1), None).await;
    assert_eq!(first.0, StatusCode::OK, "{}", first.1);
    let me = (first.1["message"]["name"].clone(), first.1["message"]["spectator"].clone());
    assert_eq!(me, (json!("Spectator 1"), json!(1)));
    let who = |v: &(StatusCode, Value)| (v.1["message"]["name"].clone(), v.1["message"]["spectator"].clone());
    assert_eq!(who(&watch_say(&app, &id, "on my phone", "2001:db8:1::5", Some(b1), None).await), me, "the browser");
    assert_eq!(
        who(&watch_say(&app, &id, "cookies gone", "2001:db8:1::9", None, None).await),
        me,
        "the address (its /64)"
    );
    assert_eq!(who(&watch_say(&app, &id, "private window", "10.0.0.7", Some(b2), None).await), me, "the address");
    let other = watch_say(&app, &id, "someone else", "10.0.0.8", None, None).await;
    assert_eq!(who(&other), (json!("Spectator 2"), json!(2)));
    // A malformed token is refused, and changes nothing.
    let bad = watch_say(&app, &id, "x", "10.0.0.9", Some("nothex"), None).await;
    assert_eq!((bad.0, bad.1["error"].as_str()), (StatusCode::BAD_REQUEST, Some("bad_request")), "{}", bad.1);
    assert_eq!(chat(&app, &id, None).await["messages"].as_array().unwrap().len(), 5);
}

/// "Muting a watcher named 'Bob' also mutes the player 'Bob'": a page mutes
/// by whose a message is (`seat`, or `spectator`: the spectator's number in
/// the game, an account's wherever it writes from), never by name.
#[tokio::test]
async fn a_spectator_named_as_a_player_is_told_apart() {
    let (app, _) = test_app();
    let (id, tokens, _) = create(&app, two_humans()).await;
    let bob = account(&app, "Bob").await;
    let player = say(&app, &id, tokens[1].as_deref(), "I am Bob, playing").await;
    let watcher = watch_say(&app, &id, "I am Bob, watching", "10.0.0.5", None, Some(&bob)).await;
    assert_eq!(watcher.0, StatusCode::OK, "{}", watcher.1);
    let (p, w) = (&player.1["message"], &watcher.1["message"]);
    assert_eq!((p["name"].as_str(), w["name"].as_str()), (Some("Bob"), Some("Bob")));
    assert_eq!((p["seat"].clone(), p.get("spectator")), (json!(1), None));
    assert_eq!((w.get("seat"), w["spectator"].clone(), w["account"].clone()), (None, json!(1), json!(true)));
    // The account is the same spectator from anywhere, in any browser.
    let again =
        watch_say(&app, &id, "from the train", "10.7.7.7", Some("00000000000000000000000000000001"), Some(&bob));
    assert_eq!(again.await.1["message"]["spectator"], 1);
}

/// The names `n` spectators from addresses of their own get, writing at
/// once, each through one of `apps` in turn.
async fn names_written_at_once(apps: &[Router], id: &str, n: usize) -> Vec<String> {
    let tasks: Vec<_> = (0..n)
        .map(|i| {
            let (app, id) = (apps[i % apps.len()].clone(), id.to_string());
            tokio::spawn(async move { say_from(&app, &id, None, "hi", &format!("10.3.0.{i}")).await })
        })
        .collect();
    let mut names = Vec::new();
    for t in tasks {
        let (status, v) = t.await.unwrap();
        assert_eq!(status, StatusCode::OK, "{v}");
        names.push(v["message"]["name"].as_str().unwrap().to_string());
    }
    names.sort();
    names
}

/// "Two watchers writing at once often get the same name": the numbers
/// are given out in the store, at once (`ChatRepo::spectator`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn spectators_writing_at_once_get_names_of_their_own() {
    let (app, _) = test_app();
    let (id, _, _) = create(&app, two_humans()).await;
    let names = names_written_at_once(&[app], &id, 24).await;
    let mut expected: Vec<String> = (1..=24).map(|n| format!("Spectator {n}")).collect();
    expected.sort();
    assert_eq!(names, expected, "one name each");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_two_servers_spectators_writing_at_once_get_names_of_their_own() {
    let Some(server) = pg::server_url() else { return };
    let schema = pg::Schema::new(&server);
    let apps = [
        carcassonne_server::app(AppState::new(Store::postgres(&schema.url()).await.unwrap(), Config::quick())),
        carcassonne_server::app(AppState::new(Store::postgres(&schema.url()).await.unwrap(), Config::quick())),
    ];
    let (id, _, _) = create(&apps[0], two_humans()).await;
    let mut names = names_written_at_once(&apps, &id, 16).await;
    names.dedup();
    assert_eq!(names.len(), 16, "one name each: {names:?}");
}

/// A database from before spectators were numbered in the store: those
/// who wrote keep their numbers (their address's hash is the key it is
/// now), and the next is numbered after them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_postgresql_spectators_numbered_before_keep_their_numbers() {
    let Some(server) = pg::server_url() else { return };
    let schema = pg::Schema::new(&server);
    let mut sql =
        String::from("CREATE TABLE schema_version (version INTEGER NOT NULL); INSERT INTO schema_version VALUES (15);");
    for m in &carcassonne_server::PG_MIGRATIONS[..15] {
        sql.push_str(m);
        sql.push(';');
    }
    sql.push_str(
        "INSERT INTO games (id, setup, seats, progress, created_at, updated_at) VALUES ('g', '{}', '[]', '{}', 1, 1);
         INSERT INTO chat_messages (game_id, seq, seat, author, name, text, at) VALUES
             ('g', 1, 0, 'seat:0', 'Ada', 'hi', 1), ('g', 2, NULL, 'h1', 'Spectator 1', 'hi', 1),
             ('g', 3, NULL, 'h2', 'Eve', 'hi', 1), ('g', 4, NULL, 'h3', 'Spectator 3', 'hi', 1),
             ('g', 5, NULL, 'h1', 'Spectator 1', 'hi', 1), ('g', 6, NULL, 'h4', 'Spectator Sport', 'hi', 1);",
    );
    schema.rows(&sql);
    let store = schema.open().await;
    let numbers: Vec<(u64, Option<u32>)> =
        store.chat.messages("g").await.unwrap().iter().map(|m| (m.seq, m.spectator)).collect();
    assert_eq!(numbers, [(1, None), (2, Some(1)), (3, None), (4, Some(3)), (5, Some(1)), (6, None)]);
    assert_eq!(store.chat.spectator("g", &["h1".to_string()], 9).await.unwrap(), Some(1));
    assert_eq!(store.chat.spectator("g", &["someone new".to_string()], 9).await.unwrap(), Some(4));
}

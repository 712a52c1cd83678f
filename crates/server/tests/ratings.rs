//! Ratings (docs/web.md, *Ratings and profiles*): the maths against worked
//! examples; a rated game played to the end through the API moves both
//! ratings once; refusals of games that cannot be rated; seats linked to
//! accounts (at creation, by token after signing in), deleted accounts;
//! the profile and the leaderboard; and a result applied exactly once by
//! several servers sharing a PostgreSQL database (or one SQLite file).

mod common;

use std::net::SocketAddr;

use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{Request, StatusCode};
use axum::Router;
use carcassonne::record::Record;
use carcassonne_server::{
    app, bot_rating, hash_token, rank_seats, update_ratings, AppState, BotLevel, Config, NewGame, Pool, Progress,
    Rating, Seat, Store, COOKIE, DELETED_ACCOUNT, PROVISIONAL_GAMES,
};
use common::accounts::account;
use common::pick_move;
use http_body_util::BodyExt;
use serde_json::{json, Value};
use tower::ServiceExt;

const HOST: &str = "play.example";
const ORIGIN: &str = "http://play.example";

fn close(a: f64, b: f64, within: f64) -> bool {
    (a - b).abs() <= within
}

#[test]
fn glicko2_matches_the_papers_example() {
    // Glickman's example: 1500/200 beats 1400/30, loses to 1550/100 and
    // 1700/300 → 1464.06/151.52 (a rating period of three games).
    let r = |rating, deviation| Rating { rating, deviation, volatility: 0.06 };
    let players = [(r(1500.0, 200.0), 2), (r(1400.0, 30.0), 3), (r(1550.0, 100.0), 1), (r(1700.0, 300.0), 1)];
    let after = update_ratings(Pool::Duel, &players);
    assert!(close(after[0].rating, 1464.06, 0.01), "{:?}", after[0]);
    assert!(close(after[0].deviation, 151.52, 0.01), "{:?}", after[0]);
    assert!(close(after[0].volatility, 0.059_996, 0.000_001), "{:?}", after[0]);
}

#[test]
fn glicko2_two_new_players_and_a_draw() {
    let new = Pool::Duel.start();
    // Worked by hand from the paper's steps: μ = 0, φ = 350/173.7178 =
    // 2.014762; g(φ) = 1/√(1 + 3φ²/π²) = 0.669069; E = 0.5; v = 1/(g²·E·(1−E))
    // = 8.935475; the volatility barely moves, φ* = √(φ² + σ²) = 2.015655,
    // φ' = 1/√(1/φ*² + 1/v) = 1.671210 (290.32), μ' = φ'²·g·(1 − E) =
    // 0.934337 → 1500 + 173.7178·0.934337 = 1662.31.
    let after = update_ratings(Pool::Duel, &[(new, 1), (new, 2)]);
    assert!(close(after[0].rating, 1662.31, 0.01), "{:?}", after[0]);
    assert!(close(after[0].deviation, 290.32, 0.01), "{:?}", after[0]);
    assert!(close(after[0].rating - 1500.0, 1500.0 - after[1].rating, 1e-9), "symmetric");
    let draw = update_ratings(Pool::Duel, &[(new, 1), (new, 1)]);
    assert!(close(draw[0].rating, 1500.0, 1e-9) && close(draw[1].rating, 1500.0, 1e-9), "{draw:?}");
    assert!(draw[0].deviation < 350.0, "a draw is still a game played");
}

#[test]
fn weng_lin_one_against_one_by_hand() {
    // Two new players (μ 25, σ 25/3, β 25/6): c = √(2β² + 2σ²) = 13.176,
    // p = 0.5; Ω = σ²/c·(1 − p) = 2.635 → the winner 27.635, the loser
    // 22.365; η = γ·σ²/c²·p(1 − p) with γ = σ/c: σ' = σ·√(1 − η) = 8.0655.
    let new = Pool::Multi.start();
    let after = update_ratings(Pool::Multi, &[(new, 1), (new, 2)]);
    assert!(close(after[0].rating, 27.635, 0.001), "{after:?}");
    assert!(close(after[1].rating, 22.365, 0.001), "{after:?}");
    assert!(close(after[0].deviation, 8.0655, 0.001), "{after:?}");
    // Three players, two share the win: they move alike, the third drops.
    let three = update_ratings(Pool::Multi, &[(new, 1), (new, 1), (new, 3)]);
    assert!(close(three[0].rating, three[1].rating, 1e-9) && three[0].rating > 25.0, "{three:?}");
    assert!(three[2].rating < 25.0);
    assert!(close(Pool::Multi.shown(&new).0, 1500.0, 1e-9), "shown on the duel's scale");
}

#[test]
fn places_follow_scores_and_a_timeout() {
    assert_eq!(rank_seats(&[50, 50], None), vec![1, 1], "a shared win");
    assert_eq!(rank_seats(&[80, 20], Some(0)), vec![2, 1], "out of time loses whatever the score");
    for level in BotLevel::ALL {
        assert!(bot_rating(&level).is_some(), "{level} is rated");
    }
    assert!(bot_rating(&BotLevel::Random) < bot_rating(&BotLevel::Easy));
    assert!(bot_rating(&BotLevel::Easy) < bot_rating(&BotLevel::Normal));
    assert!(bot_rating(&BotLevel::Normal) < bot_rating(&BotLevel::Hard));
}

// --- through the API -------------------------------------------------------

struct Server {
    app: Router,
    state: AppState,
}

fn server() -> Server {
    server_with(Config { bot_delay: std::time::Duration::ZERO, ..Config::quick() })
}

fn server_with(config: Config) -> Server {
    let state = AppState::new(Store::in_memory().unwrap(), config);
    Server { app: app(state.clone()), state }
}

/// A request from the server's own page, with the session `cookie`.
async fn send(s: &Server, method: &str, uri: &str, body: Option<Value>, cookie: Option<&str>) -> (StatusCode, Value) {
    send_from(s, None, method, uri, body, cookie).await
}

/// [`send`] from client address 192.0.2.`ip` (by default each account's own).
/// The client address (192.0.2.N) of the session `cookie`: each its own,
/// in the order first seen (a hash could give two accounts one address).
fn address_of(cookie: &str) -> u8 {
    static SEEN: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());
    let mut seen = SEEN.lock().unwrap_or_else(|e| e.into_inner());
    let i = seen.iter().position(|c| c == cookie).unwrap_or_else(|| {
        seen.push(cookie.to_string());
        seen.len() - 1
    });
    10 + (i % 240) as u8
}

async fn send_from(
    s: &Server,
    ip: Option<u8>,
    method: &str,
    uri: &str,
    body: Option<Value>,
    cookie: Option<&str>,
) -> (StatusCode, Value) {
    let mut b = Request::builder().method(method).uri(uri).header("host", HOST).header("origin", ORIGIN);
    if body.is_some() {
        b = b.header("content-type", "application/json");
    }
    if let Some(t) = cookie {
        b = b.header("cookie", format!("{COOKIE}={t}"));
    }
    let mut request = b.body(body.map(|v| Body::from(v.to_string())).unwrap_or_else(Body::empty)).unwrap();
    // Each account from an address of its own (seats of one rated game
    // taken from one address count for nothing).
    let ip = ip.unwrap_or_else(|| cookie.map_or(7, address_of));
    request.extensions_mut().insert(ConnectInfo(SocketAddr::new([192, 0, 2, ip].into(), 40_000)));
    let resp = s.app.clone().oneshot(request).await.unwrap();
    let status = resp.status();
    let cookie = resp.headers().get("set-cookie").map(|v| v.to_str().unwrap().to_string());
    let bytes = resp.into_body().collect().await.unwrap().to_bytes();
    let mut v: Value = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
    if let (Some(c), Some(obj)) = (cookie, v.as_object_mut()) {
        let token = c.strip_prefix(&format!("{COOKIE}=")).unwrap().split(';').next().unwrap().to_string();
        obj.insert("_cookie".into(), token.into());
    }
    (status, v)
}

async fn sign_up(s: &Server, name: &str) -> String {
    let (status, v) =
        send(s, "POST", "/api/account/signup", Some(json!({ "name": name, "password": "long enough" })), None).await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    v["_cookie"].as_str().unwrap().to_string()
}

/// A new game by the holder of `cookie`: its id and its tokens by seat.
async fn create(s: &Server, cookie: Option<&str>, body: Value) -> (String, Vec<Option<String>>) {
    let (status, v) = send(s, "POST", "/api/games", Some(body), cookie).await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    let n = v["state"]["players"].as_array().unwrap().len();
    let mut tokens = vec![None; n];
    for t in v["tokens"].as_array().unwrap() {
        tokens[t["seat"].as_u64().unwrap() as usize] = Some(t["token"].as_str().unwrap().to_string());
    }
    (v["id"].as_str().unwrap().to_string(), tokens)
}

async fn link(s: &Server, cookie: &str, game: &str, token: &str) -> Value {
    let body = json!({ "seats": [ { "game": game, "token": token } ] });
    let (status, v) = send(s, "POST", "/api/account/seats", Some(body), Some(cookie)).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    v["linked"].clone()
}

/// Plays the game to its end through the API (the people's moves; bots move
/// on their own): the final scores.
async fn play_to_the_end(s: &Server, id: &str, tokens: &[Option<String>]) -> Vec<u64> {
    let all: Vec<&str> = tokens.iter().flatten().map(String::as_str).collect();
    let all = all.join(",");
    for k in 0.. {
        assert!(k < 400, "the game ends");
        let (status, st) = send(s, "GET", &format!("/api/games/{id}?token={all}"), None, None).await;
        assert_eq!(status, StatusCode::OK, "{st}");
        if st["status"] == "finished" {
            return st["players"].as_array().unwrap().iter().map(|p| p["score"].as_u64().unwrap()).collect();
        }
        let seat = st["turn"]["seat"].as_u64().unwrap() as usize;
        let Some(token) = tokens[seat].as_deref() else {
            tokio::time::sleep(std::time::Duration::from_millis(5)).await;
            continue;
        };
        if st["legal"].as_array().is_none_or(|l| l.is_empty()) {
            tokio::time::sleep(std::time::Duration::from_millis(5)).await;
            continue;
        }
        let mv = pick_move(&st, k, k % 3 == 0);
        let (status, after) = send(s, "POST", &format!("/api/games/{id}/moves?token={token}"), Some(mv), None).await;
        assert!(status == StatusCode::OK || status == StatusCode::CONFLICT, "{after}");
    }
    unreachable!()
}

async fn profile(s: &Server, name: &str) -> Value {
    let (status, v) = send(s, "GET", &format!("/api/players/{name}"), None, None).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    v
}

#[tokio::test]
async fn a_rated_game_to_the_end_moves_both_ratings_once() {
    let s = server();
    let ada = sign_up(&s, "Ada").await;
    let bob = sign_up(&s, "Bob").await;
    let (id, tokens) = create(
        &s,
        Some(&ada),
        json!({ "seats": [ { "kind": "human" }, { "kind": "remote" } ], "rules": { "preset": "standard" }, "rated": true }),
    )
    .await;
    // Bob, signed in, takes the invited seat: it is linked to him.
    assert_eq!(link(&s, &bob, &id, tokens[1].as_deref().unwrap()).await, json!([{ "game": id, "seat": 1 }]));
    // Ada cannot take it from him.
    assert_eq!(link(&s, &ada, &id, tokens[1].as_deref().unwrap()).await, json!([]));
    let scores = play_to_the_end(&s, &id, &tokens).await;

    let (pa, pb) = (profile(&s, "ada").await, profile(&s, "Bob").await);
    for (p, seat) in [(&pa, 0usize), (&pb, 1)] {
        let ratings = p["ratings"].as_array().unwrap();
        assert_eq!(ratings.len(), 1, "{p}");
        assert_eq!(ratings[0]["pool"], "duel");
        assert_eq!(ratings[0]["games"], 1, "applied once");
        assert_eq!(ratings[0]["provisional"], true);
        let rating = ratings[0]["rating"].as_f64().unwrap();
        let other = scores[1 - seat];
        let expected = if scores[seat] > other {
            1662.3
        } else if scores[seat] < other {
            1337.7
        } else {
            1500.0
        };
        assert!(close(rating, expected, 0.2), "seat {seat} scored {scores:?}: {rating}");
        assert_eq!(p["history"].as_array().unwrap().len(), 1);
        assert_eq!(p["history"][0]["game"], id);
        assert_eq!(p["history"][0]["before"], 1500.0);
        let game = &p["games"][0];
        assert_eq!(game["id"], id);
        assert_eq!(game["rated"], true);
        assert_eq!(game["seat"], seat);
        assert_eq!(game["players"][1 - seat]["player"], if seat == 0 { "Bob" } else { "Ada" });
        assert_ne!(game["result"], "in play");
        assert_eq!(p["by_players"], json!([{ "players": 2, "games": 1, "wins": u32::from(game["result"] != "lost") }]));
        assert_eq!(p["by_preset"][0]["preset"], "standard");
    }
    // The game's own account of it (the results dialog): each seat's
    // account, before and after, on the shown scale.
    let (status, r) = send(&s, "GET", &format!("/api/games/{id}/ratings"), None, None).await;
    assert_eq!(status, StatusCode::OK, "{r}");
    assert_eq!((&r["rated"], &r["settled"]), (&json!(true), &json!(true)), "{r}");
    let players = r["players"].as_array().unwrap();
    assert_eq!(players.len(), 2, "{r}");
    for (p, (seat, name, profile)) in players.iter().zip([(0, "Ada", &pa), (1, "Bob", &pb)]) {
        assert_eq!((p["seat"].as_u64(), p["player"].as_str()), (Some(seat), Some(name)), "{r}");
        assert_eq!(p["before"], 1500.0);
        let rating = profile["ratings"][0]["rating"].as_f64().unwrap();
        assert_eq!(p["after"].as_f64(), Some(rating.round()), "{r}");
    }

    // Asking again (another server, a restart) changes nothing.
    let again = s.state.ratings.settle(&id, &scores.iter().map(|&x| x as u32).collect::<Vec<_>>(), None).await.unwrap();
    assert!(again.is_none());
    assert_eq!(profile(&s, "Ada").await["ratings"][0]["games"], 1);

    // Unknown names: 404 with a code.
    let (status, v) = send(&s, "GET", "/api/players/Nobody", None, None).await;
    assert_eq!((status, v["error"].as_str()), (StatusCode::NOT_FOUND, Some("not_found")));

    // Bob deletes his account: Ada's game names a deleted player; his profile is gone.
    let (status, v) =
        send(&s, "POST", "/api/account/delete", Some(json!({ "password": "long enough" })), Some(&bob)).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let pa = profile(&s, "Ada").await;
    assert_eq!(pa["games"][0]["players"][1]["name"], "deleted player");
    assert!(pa["games"][0]["players"][1].get("player").is_none());
    let (status, _) = send(&s, "GET", "/api/players/Bob", None, None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let seats = s.state.store().games.load(&id).await.unwrap().unwrap().seats;
    assert_eq!(seats[1].account(), Some(DELETED_ACCOUNT), "the link is dropped");
    assert_eq!(seats[1].name(), "Player 2", "the record keeps the name it was played under");
}

#[tokio::test]
async fn a_game_against_a_bot_is_never_rated() {
    let s = server();
    let ada = sign_up(&s, "Ada").await;
    for seats in [
        json!([ { "kind": "human" }, { "kind": "bot", "level": "random" } ]),
        json!([ { "kind": "human" }, { "kind": "bot", "level": "hard" } ]),
        json!([ { "kind": "human" }, { "kind": "remote" }, { "kind": "bot", "level": "normal" } ]),
    ] {
        let (status, v) =
            send(&s, "POST", "/api/games", Some(json!({ "seats": seats, "rated": true })), Some(&ada)).await;
        assert_eq!((status, v["error"].as_str()), (StatusCode::BAD_REQUEST, Some("not_ratable")), "{v}");
        assert!(v["message"].as_str().unwrap().contains("between people"), "{v}");
    }
    // Casual, the same game is made, and moves no rating.
    let casual = json!({ "seats": [ { "kind": "human" }, { "kind": "bot", "level": "random" } ] });
    let (id, tokens) = create(&s, Some(&ada), casual).await;
    play_to_the_end(&s, &id, &tokens).await;
    let p = profile(&s, "Ada").await;
    assert_eq!(p["ratings"], json!([]), "{p}");
    assert_eq!(p["games"][0]["rated"], false);
    assert_eq!(p["games"][0]["players"][1]["bot"], "random");
    // The leaderboard still says how strong the bots are.
    let (_, board) = send(&s, "GET", "/api/leaderboard", None, None).await;
    assert_eq!(board["bots"].as_array().unwrap().len(), 4);
    assert_eq!(board["provisional_games"], PROVISIONAL_GAMES);
}

#[tokio::test]
async fn a_rated_game_of_three_uses_weng_lin() {
    let s = server();
    let ada = sign_up(&s, "Ada").await;
    let (bob, cy) = (sign_up(&s, "Bob").await, sign_up(&s, "Cy").await);
    let (id, tokens) = create(
        &s,
        Some(&ada),
        json!({ "seats": [ { "kind": "remote" }, { "kind": "human" }, { "kind": "remote" } ], "rated": true }),
    )
    .await;
    for (cookie, seat) in [(&bob, 0usize), (&cy, 2)] {
        let linked = link(&s, cookie, &id, tokens[seat].as_deref().unwrap()).await;
        assert_eq!(linked, json!([{ "game": id, "seat": seat }]));
    }
    let scores = play_to_the_end(&s, &id, &tokens).await;
    let p = profile(&s, "Ada").await;
    let r = &p["ratings"][0];
    assert_eq!((r["pool"].as_str(), r["games"].as_u64()), (Some("multi"), Some(1)), "{p}");
    let rating = r["rating"].as_f64().unwrap();
    let place = 1 + scores.iter().filter(|&&x| x > scores[1]).count();
    let shared = scores.iter().filter(|&&x| x == scores[1]).count();
    // Three new players: first alone gains, last alone loses; a shared
    // place sits between (rating.rs has the figures worked by hand).
    match (place, shared) {
        (1, 1) => assert!(rating > 1500.0, "first of {scores:?}: {rating}"),
        (3, 1) => assert!(rating < 1500.0, "last of {scores:?}: {rating}"),
        _ => {}
    }
    assert_eq!(p["history"][0]["place"], place);
    assert_eq!(p["by_players"], json!([{ "players": 3, "games": 1, "wins": u32::from(place == 1) }]));
    for name in ["Bob", "Cy"] {
        assert_eq!(profile(&s, name).await["ratings"][0]["games"], 1, "{name}'s too");
    }
}

#[tokio::test]
async fn games_that_cannot_be_rated_are_refused() {
    let s = server();
    let ada = sign_up(&s, "Ada").await;
    let refused = |v: &Value| v["error"] == "not_ratable";
    let cases = [
        (None, json!({ "seats": [ { "kind": "human" }, { "kind": "remote" } ], "rated": true }), "not signed in"),
        (
            Some(ada.as_str()),
            json!({ "seats": [ { "kind": "human" }, { "kind": "remote" } ], "rules": { "preset": "standard", "river": true }, "rated": true }),
            "house rules",
        ),
        (
            Some(ada.as_str()),
            json!({ "seats": [ { "kind": "human" }, { "kind": "human" } ], "rated": true }),
            "seated twice",
        ),
        (Some(ada.as_str()), json!({ "seats": [ { "kind": "bot" }, { "kind": "bot" } ], "rated": true }), "not seated"),
    ];
    for (cookie, body, why) in cases {
        let (status, v) = send(&s, "POST", "/api/games", Some(body), cookie).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{why}: {v}");
        assert!(refused(&v), "{why}: {v}");
    }
    // A page of another site acts for nobody: not signed in there.
    let mut b = Request::builder().method("POST").uri("/api/games").header("host", HOST);
    b = b.header("origin", "https://evil.example").header("content-type", "application/json");
    b = b.header("cookie", format!("{COOKIE}={ada}"));
    let body = json!({ "seats": [ { "kind": "human" }, { "kind": "remote" } ], "rated": true });
    let mut request = b.body(Body::from(body.to_string())).unwrap();
    request.extensions_mut().insert(ConnectInfo(SocketAddr::new("192.0.2.7".parse().unwrap(), 40_000)));
    let resp = s.app.clone().oneshot(request).await.unwrap();
    assert_eq!(resp.status(), StatusCode::BAD_REQUEST);
    // Unrated games by a signed-in person are linked to them, not rated.
    let (id, _) = create(&s, Some(&ada), json!({ "seats": [ { "kind": "human" }, { "kind": "human" } ] })).await;
    let p = profile(&s, "Ada").await;
    assert_eq!(p["games"].as_array().unwrap().len(), 1, "only the first seat at the screen is hers: {p}");
    assert_eq!(p["games"][0]["id"], id);
    assert_eq!(p["games"][0]["rated"], false);
    // Linking needs a session, and a bounded list.
    let (status, v) = send(&s, "POST", "/api/account/seats", Some(json!({ "seats": [] })), None).await;
    assert_eq!((status, v["error"].as_str()), (StatusCode::UNAUTHORIZED, Some("not_signed_in")));
    let many: Vec<Value> = (0..51).map(|i| json!({ "game": format!("g{i}"), "token": "00" })).collect();
    let (status, _) = send(&s, "POST", "/api/account/seats", Some(json!({ "seats": many })), Some(&ada)).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn a_guest_who_signs_up_keeps_their_seats_and_an_unlinked_seat_voids_a_rated_game() {
    let s = server();
    // As a guest: a game of their own.
    let (id, tokens) = create(&s, None, json!({ "seats": [ { "kind": "human" }, { "kind": "bot" } ] })).await;
    let ada = sign_up(&s, "Ada").await;
    assert_eq!(link(&s, &ada, &id, tokens[0].as_deref().unwrap()).await, json!([{ "game": id, "seat": 0 }]));
    assert_eq!(link(&s, &ada, &id, "not a token").await, json!([]));
    assert_eq!(profile(&s, "Ada").await["games"][0]["id"], id);
    // A rated game whose invited seat nobody signed in took: void.
    let (id, tokens) =
        create(&s, Some(&ada), json!({ "seats": [ { "kind": "human" }, { "kind": "remote" } ], "rated": true })).await;
    play_to_the_end(&s, &id, &tokens).await;
    assert_eq!(profile(&s, "Ada").await["ratings"], json!([]));
    assert_eq!(s.state.store().ratings.rated(&id).await.unwrap(), Some(true), "settled (void), never applied later");
}

// --- the stores ------------------------------------------------------------

fn new_game(id: &str, seats: Vec<Seat>) -> NewGame {
    let record = Record::from_json(
        r#"{ "format": 1, "rules": { "preset": "standard" }, "players": ["Ada", "Bob"], "deck": ["E", "V"] }"#,
    )
    .unwrap();
    NewGame {
        id: id.into(),
        record,
        live_seed: None,
        seats,
        created_at: 1,
        public: false,
        clock: None,
        deadline: None,
        owner: None,
    }
}

fn human(name: &str, token: &str) -> Seat {
    Seat::Human { name: name.into(), token_hash: hash_token(token), remote: true, account: None }
}

/// A rated game finished (its last move stored) whose result was never
/// applied: the server that stored it stopped first.
async fn unsettled_game(store: &Store) {
    store.accounts.create(&account("a1", "Ada")).await.unwrap();
    store.accounts.create(&account("b1", "Bob")).await.unwrap();
    store.games.create(&new_game("u", vec![human("Ada", "au"), human("Bob", "bu")])).await.unwrap();
    store.ratings.mark_rated("u", "duel").await.unwrap();
    store.ratings.link_seat("u", &hash_token("au"), "a1", None).await.unwrap();
    store.ratings.link_seat("u", &hash_token("bu"), "b1", None).await.unwrap();
    let m = carcassonne::record::RecordMove {
        tile: "E".into(),
        at: [0, -1],
        rot: 2,
        meeple: None,
        abbot: None,
        recall: None,
        ..Default::default()
    };
    let done = Progress {
        finished: true,
        scores: vec![3, 10],
        to_move: None,
        winners: vec![1],
        at: 5,
        bot_turn: false,
        aborted: false,
    };
    store.games.append_move("u", 0, &m, &done).await.unwrap();
}

async fn a_sweep_settles_what_was_left(stores: [Store; 2]) {
    unsettled_game(&stores[0]).await;
    let apps = stores.map(|s| AppState::new(s, Config::quick()));
    let (a, b) = tokio::join!(apps[0].ratings.settle_unsettled(), apps[1].ratings.settle_unsettled());
    assert_eq!(a.unwrap() + b.unwrap(), 1, "applied once");
    assert_eq!(apps[0].ratings.settle_unsettled().await.unwrap(), 0);
    let bob = apps[1].store().ratings.of("b1").await.unwrap();
    assert!(bob[0].rating.rating > 1500.0 && bob[0].games == 1, "{bob:?}");
}

#[tokio::test]
async fn sqlite_a_sweep_settles_a_result_left_unapplied() {
    let store: Store = Store::in_memory().unwrap();
    a_sweep_settles_what_was_left([store.clone(), store]).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn postgres_a_sweep_settles_a_result_left_unapplied() {
    let Some(url) = common::pg::server_url() else { return };
    let schema = common::pg::Schema::new(&url);
    a_sweep_settles_what_was_left([schema.open().await, schema.open().await]).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_servers_on_postgres_finish_a_rated_game_once() {
    let Some(url) = common::pg::server_url() else { return };
    let schema = common::pg::Schema::new(&url);
    let one: Store = schema.open().await;
    let two: Store = schema.open().await;
    let s1 = AppState::new(one.clone(), Config { bot_delay: std::time::Duration::ZERO, ..Config::quick() });
    let s2 = AppState::new(two.clone(), Config { bot_delay: std::time::Duration::ZERO, ..Config::quick() });
    let server = Server { app: app(s1.clone()), state: s1 };
    let ada = sign_up(&server, "Ada").await;
    let bob = sign_up(&server, "Bob").await;
    let (id, tokens) =
        create(&server, Some(&ada), json!({ "seats": [ { "kind": "human" }, { "kind": "remote" } ], "rated": true }))
            .await;
    link(&server, &bob, &id, tokens[1].as_deref().unwrap()).await;
    let scores: Vec<u32> = play_to_the_end(&server, &id, &tokens).await.into_iter().map(|x| x as u32).collect();
    // The second server (asked late, or after a restart) applies nothing more.
    assert!(s2.ratings.settle(&id, &scores, None).await.unwrap().is_none());
    assert_eq!(schema.one("SELECT sum(games) FROM ratings"), "2");
    assert_eq!(schema.one("SELECT count(*) FROM rating_history"), "2");
}

#[tokio::test]
async fn a_rated_game_says_so_and_gives_no_hints() {
    let store: Store = Store::in_memory().unwrap();
    let on = |store: &Store| {
        let state = AppState::new(store.clone(), Config { bot_delay: std::time::Duration::ZERO, ..Config::quick() });
        Server { app: app(state.clone()), state }
    };
    let s = on(&store);
    let ada = sign_up(&s, "Ada").await;
    // (A casual game against a bot gives hints; a rated one is between people.)
    let against_a_bot = json!([ { "kind": "human" }, { "kind": "bot", "level": "random" } ]);
    let against_bob = json!([ { "kind": "human" }, { "kind": "remote" } ]);
    for (rated, seats, want) in [(false, against_a_bot, StatusCode::OK), (true, against_bob, StatusCode::FORBIDDEN)] {
        let (id, tokens) = create(&s, Some(&ada), json!({ "seats": seats, "rated": rated })).await;
        let token = tokens[0].as_deref().unwrap();
        let (status, state) = send(&s, "GET", &format!("/api/games/{id}?token={token}"), None, None).await;
        assert_eq!((status, &state["rated"]), (StatusCode::OK, &json!(rated)), "{state}");
        // …and so does the game loaded from the store (another server).
        let (_, state) = send(&on(&store), "GET", &format!("/api/games/{id}"), None, None).await;
        assert_eq!(state["rated"], json!(rated), "loaded again: {state}");
        let (_, r) = send(&s, "GET", &format!("/api/games/{id}/ratings"), None, None).await;
        // In play, nothing applied yet: the players' ratings now (Ada has none yet).
        let players = if rated { json!([{ "seat": 0, "player": "Ada", "rating": null }]) } else { json!([]) };
        let mut expected = json!({ "rated": rated, "settled": false, "players": players });
        if rated {
            expected["pool"] = "duel".into();
        }
        assert_eq!(r, expected, "in play");
        let (status, v) = send(&s, "POST", &format!("/api/games/{id}/hint?token={token}"), Some(json!({})), None).await;
        assert_eq!(status, want, "rated {rated}: {v}");
        if rated {
            assert_eq!(v["error"], "no_hints", "{v}");
        }
    }
}

/// Issue 45, 11: a seat linked to an account on the server that does not
/// hold the game is linked on every server. Before, only the linking
/// server's memory learnt it: the holder's results dialog listed the
/// creator alone and the rematch it made seated Bob unlinked (a rated
/// rematch voided).
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_seat_linked_on_another_server_is_linked_on_every_server() {
    let Some(url) = common::pg::server_url() else { return };
    let schema = common::pg::Schema::new(&url);
    let config = || Config { bot_delay: std::time::Duration::ZERO, ..Config::quick() };
    let a = AppState::new(schema.open().await, config());
    let b = AppState::new(schema.open().await, config());
    let (on_a, on_b) = (Server { app: app(a.clone()), state: a.clone() }, Server { app: app(b.clone()), state: b });
    let ada = sign_up(&on_a, "Ada").await;
    let body = json!({ "seats": [ { "kind": "human" }, { "kind": "remote" } ], "rated": true });
    let (id, tokens) = create(&on_a, Some(&ada), body).await;
    // Bob signs in on the other server and takes his seat there.
    let bob = sign_up(&on_b, "Bob").await;
    assert_eq!(link(&on_b, &bob, &id, tokens[1].as_deref().unwrap()).await, json!([{ "game": id, "seat": 1 }]));
    // The server holding the game hears of it.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    loop {
        let live = a.games.game(&id).await.unwrap();
        if live.lock().await.seats[1].account().is_some() {
            break;
        }
        assert!(std::time::Instant::now() < deadline, "the holder never learnt that Bob took his seat");
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    play_to_the_end(&on_a, &id, &tokens).await;
    // The results dialog (on the holder) lists both players.
    let (status, ratings) = send(&on_a, "GET", &format!("/api/games/{id}/ratings"), None, None).await;
    assert_eq!(status, StatusCode::OK, "{ratings}");
    let players: Vec<&str> =
        ratings["players"].as_array().unwrap().iter().map(|p| p["player"].as_str().unwrap()).collect();
    assert_eq!(players.len(), 2, "{ratings}");
    // The rematch made there seats both accounts, rated.
    for token in tokens.iter().flatten() {
        let (status, v) =
            send(&on_a, "POST", &format!("/api/games/{id}/rematch?token={token}"), Some(json!({})), None).await;
        assert_eq!(status, StatusCode::OK, "{v}");
    }
    let (_, v) =
        send(&on_a, "GET", &format!("/api/games/{id}/chat?token={}", tokens[0].as_deref().unwrap()), None, None).await;
    let rematch = v["rematch"]["game"].as_str().unwrap_or_else(|| panic!("a rematch: {v}")).to_string();
    let stored = a.store().games.load(&rematch).await.unwrap().unwrap();
    assert!(stored.seats.iter().all(|s| s.account().is_some()), "{:?}", stored.seats);
    assert!(a.store().ratings.rated(&rematch).await.unwrap().is_some(), "the rematch is rated");
}

/// A rated duel of Ada's (`ada`, her cookie) against the holder of `bob`'s
/// cookie, who takes his invited seat from client address 192.0.2.`ip` (his
/// own by default): the game, played to the end.
async fn rated_duel(s: &Server, ada: &str, bob: &str, ip: Option<u8>) -> String {
    let body = json!({ "seats": [ { "kind": "human" }, { "kind": "remote" } ], "rated": true });
    let (id, tokens) = create(s, Some(ada), body).await;
    let link = json!({ "seats": [ { "game": id, "token": tokens[1].as_deref().unwrap() } ] });
    let (status, v) = send_from(s, ip, "POST", "/api/account/seats", Some(link), Some(bob)).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    play_to_the_end(s, &id, &tokens).await;
    id
}

/// [`rated_duel`] on the `big-box` preset.
async fn rated_big_box_duel(s: &Server, ada: &str, bob: &str) -> String {
    let body = json!({ "seats": [ { "kind": "human" }, { "kind": "remote" } ], "rated": true,
                       "rules": { "preset": "big-box" } });
    let (id, tokens) = create(s, Some(ada), body).await;
    link(s, bob, &id, tokens[1].as_deref().unwrap()).await;
    play_to_the_end(s, &id, &tokens).await;
    id
}

/// The rated games `name` played in `pool` (its rating's game count there).
async fn games_in(s: &Server, name: &str, pool: &str) -> u64 {
    let p = profile(s, name).await;
    p["ratings"].as_array().unwrap().iter().find(|r| r["pool"] == pool).map_or(0, |r| r["games"].as_u64().unwrap())
}

/// Issue 47: the fair-play rules apply per pool. Two accounts' third rated
/// duel of the day counts for nothing in the base game, while their Big Box
/// duels, a pool of its own, count (twice a day there too).
#[tokio::test]
async fn the_same_pair_s_rated_games_of_a_day_are_counted_per_pool() {
    let s = server();
    let ada = sign_up(&s, "Ada").await;
    let bob = sign_up(&s, "Bob").await;
    for _ in 0..3 {
        rated_duel(&s, &ada, &bob, None).await;
    }
    assert_eq!(games_in(&s, "Ada", "duel").await, 2, "a third duel in a day");
    rated_big_box_duel(&s, &ada, &bob).await;
    assert_eq!(games_in(&s, "Ada", "big-box-duel").await, 1, "the Big Box counts its own");
    assert_eq!(games_in(&s, "Bob", "big-box-duel").await, 1);
    rated_big_box_duel(&s, &ada, &bob).await;
    rated_big_box_duel(&s, &ada, &bob).await;
    assert_eq!(games_in(&s, "Ada", "big-box-duel").await, 2, "a third Big Box duel in a day");
    assert_eq!(games_in(&s, "Ada", "duel").await, 2);
}

/// The rated duels `name` played (its duel rating's game count).
async fn duels(s: &Server, name: &str) -> u64 {
    profile(s, name).await["ratings"].as_array().unwrap().first().map_or(0, |r| r["games"].as_u64().unwrap())
}

/// Issue 45, 8: puppet accounts farm no rating. A rating moves only for
/// accounts a day old or with a history (`rated_min_games`), for seats
/// taken from different addresses, and twice a day at most per pair.
#[tokio::test]
async fn puppets_farm_no_rating() {
    let config = Config {
        bot_delay: std::time::Duration::ZERO,
        rated_min_age: std::time::Duration::from_secs(24 * 3600),
        rated_min_games: 1,
        ..Config::quick()
    };
    let s = server_with(config);
    let ada = sign_up(&s, "Ada").await;
    let puppet = sign_up(&s, "Puppet").await;
    // Two fresh accounts: the game is played, and counts for nothing.
    rated_duel(&s, &ada, &puppet, None).await;
    assert_eq!((duels(&s, "Ada").await, duels(&s, "Puppet").await), (0, 0), "fresh accounts");
    // With a game behind each (that one), their next duel counts…
    rated_duel(&s, &ada, &puppet, None).await;
    assert_eq!((duels(&s, "Ada").await, duels(&s, "Puppet").await), (1, 1));
    rated_duel(&s, &ada, &puppet, None).await;
    assert_eq!(duels(&s, "Ada").await, 2);
    // …but not a third time in a day between the same two.
    rated_duel(&s, &ada, &puppet, None).await;
    assert_eq!((duels(&s, "Ada").await, duels(&s, "Puppet").await), (2, 2), "a third duel in a day");
    // Another account with a history, its seat taken from Ada's address: nothing.
    let carl = sign_up(&s, "Carl").await;
    let casual = json!({ "seats": [ { "kind": "human" }, { "kind": "bot", "level": "random" } ] });
    let (game, tokens) = create(&s, Some(&carl), casual).await;
    play_to_the_end(&s, &game, &tokens).await;
    let ada_ip = address_of(&ada);
    rated_duel(&s, &ada, &carl, Some(ada_ip)).await;
    assert_eq!((duels(&s, "Ada").await, duels(&s, "Carl").await), (2, 0), "two seats from one address");
    rated_duel(&s, &ada, &carl, None).await;
    assert_eq!((duels(&s, "Ada").await, duels(&s, "Carl").await), (3, 1), "from two addresses it counts");
}

/// Issue 45, 8: an account deleted before the end voids nothing; its
/// opponents' results stand (against the starting rating).
#[tokio::test]
async fn a_deleted_loser_leaves_the_winners_result_standing() {
    let s = server();
    let ada = sign_up(&s, "Ada").await;
    let bob = sign_up(&s, "Bob").await;
    let body = json!({ "seats": [ { "kind": "human" }, { "kind": "remote" } ], "rated": true });
    let (id, tokens) = create(&s, Some(&ada), body).await;
    link(&s, &bob, &id, tokens[1].as_deref().unwrap()).await;
    // Bob deletes his account while the game is on.
    let (status, v) =
        send(&s, "POST", "/api/account/delete", Some(json!({ "password": "long enough" })), Some(&bob)).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    play_to_the_end(&s, &id, &tokens).await;
    assert_eq!(duels(&s, "Ada").await, 1, "Ada's result stands");
}

/// A server whose rated games need accounts a day old or with one game
/// behind them (`rated_min_games`).
fn server_with_history_rule() -> Server {
    server_with(Config {
        bot_delay: std::time::Duration::ZERO,
        rated_min_age: std::time::Duration::from_secs(24 * 3600),
        rated_min_games: 1,
        ..Config::quick()
    })
}

/// A casual game of the holder of `cookie` against a random bot, played to
/// the end, or resigned at once if `resign`.
async fn casual_game(s: &Server, cookie: &str, resign: bool) {
    let casual = json!({ "seats": [ { "kind": "human" }, { "kind": "bot", "level": "random" } ] });
    let (id, tokens) = create(s, Some(cookie), casual).await;
    if resign {
        let uri = format!("/api/games/{id}/resign?token={}", tokens[0].as_deref().unwrap());
        let (status, v) = send(s, "POST", &uri, Some(json!({ "seat": 0 })), None).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        let (_, st) = send(s, "GET", &format!("/api/games/{id}"), None, None).await;
        assert_eq!(st["status"], "finished", "{st}");
    } else {
        play_to_the_end(s, &id, &tokens).await;
    }
}

/// A puppet deleted during a rated game is judged as it goes, while its age
/// and the address its seat was taken from are known: a game that would
/// have counted for nothing with it counts for nothing without it.
#[tokio::test]
async fn a_puppet_deleted_during_a_rated_game_moves_no_rating() {
    let s = server_with_history_rule();
    let ada = sign_up(&s, "Ada").await;
    casual_game(&s, &ada, false).await;
    let delete = json!({ "password": "long enough" });
    // A fresh puppet, from an address of its own; then one with a game behind
    // it whose seat is taken from Ada's address.
    for (name, history, ip) in [("Puppet", false, None), ("Muppet", true, Some(address_of(&ada)))] {
        let puppet = sign_up(&s, name).await;
        if history {
            casual_game(&s, &puppet, false).await;
        }
        let body = json!({ "seats": [ { "kind": "human" }, { "kind": "remote" } ], "rated": true });
        let (id, tokens) = create(&s, Some(&ada), body).await;
        let link = json!({ "seats": [ { "game": id, "token": tokens[1].as_deref().unwrap() } ] });
        let (status, v) = send_from(&s, ip, "POST", "/api/account/seats", Some(link), Some(&puppet)).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        let (status, v) = send(&s, "POST", "/api/account/delete", Some(delete.clone()), Some(&puppet)).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        play_to_the_end(&s, &id, &tokens).await;
        assert_eq!(duels(&s, "Ada").await, 0, "{name}'s game moves no rating");
    }
    // A player with a history, from an address of his own: the result stands.
    let bob = sign_up(&s, "Bob").await;
    casual_game(&s, &bob, false).await;
    let body = json!({ "seats": [ { "kind": "human" }, { "kind": "remote" } ], "rated": true });
    let (id, tokens) = create(&s, Some(&ada), body).await;
    link(&s, &bob, &id, tokens[1].as_deref().unwrap()).await;
    let (status, v) = send(&s, "POST", "/api/account/delete", Some(delete.clone()), Some(&bob)).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    play_to_the_end(&s, &id, &tokens).await;
    assert_eq!(duels(&s, "Ada").await, 1, "Ada's result stands");
    // The deletion judges the deleted account alone: Cleo, too new when Dan
    // goes, has a history by the game's end, and her result counts.
    let (cleo, dan) = (sign_up(&s, "Cleo").await, sign_up(&s, "Dan").await);
    casual_game(&s, &dan, false).await;
    let body = json!({ "seats": [ { "kind": "human" }, { "kind": "remote" } ], "rated": true });
    let (id, tokens) = create(&s, Some(&cleo), body).await;
    link(&s, &dan, &id, tokens[1].as_deref().unwrap()).await;
    let (status, v) = send(&s, "POST", "/api/account/delete", Some(delete), Some(&dan)).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    casual_game(&s, &cleo, false).await;
    play_to_the_end(&s, &id, &tokens).await;
    assert_eq!(duels(&s, "Cleo").await, 1, "Cleo's result stands");
}

/// A new account's history (`rated_min_games`) counts games played, not
/// games resigned at once.
#[tokio::test]
async fn games_resigned_at_once_make_no_history() {
    let s = server_with_history_rule();
    let ada = sign_up(&s, "Ada").await;
    casual_game(&s, &ada, false).await;
    let puppet = sign_up(&s, "Puppet").await;
    for _ in 0..3 {
        casual_game(&s, &puppet, true).await;
    }
    rated_duel(&s, &ada, &puppet, None).await;
    assert_eq!((duels(&s, "Ada").await, duels(&s, "Puppet").await), (0, 0), "three games resigned at once");
    casual_game(&s, &puppet, false).await;
    rated_duel(&s, &ada, &puppet, None).await;
    assert_eq!((duels(&s, "Ada").await, duels(&s, "Puppet").await), (1, 1), "one game played");
}

/// Issue 45, 8: a rated player who stops moving for the away minutes (the
/// page open or not) is handed over and loses: placed last whatever the
/// bot then scores for the seat.
#[tokio::test]
async fn a_rated_seat_handed_over_for_being_away_loses() {
    let s = server();
    let ada = sign_up(&s, "Ada").await;
    let bob = sign_up(&s, "Bob").await;
    let (id, tokens) = rated_duel_begun(&s, &ada, &bob, json!({ "away_minutes": 2 })).await;
    let t0 = tokens[0].as_deref().unwrap();
    let (status, v) = moved_then_away(&s, &id, t0).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["clock"]["timed_out"], 1, "{}", v["clock"]);
    // Bob never moved, but the game is no longer abortable: his loss stands.
    assert_eq!(v["clock"]["may_abort"], false, "{}", v["clock"]);
    for token in [t0, tokens[1].as_deref().unwrap()] {
        let (status, v) =
            send(&s, "POST", &format!("/api/games/{id}/abort?token={token}"), Some(json!({})), None).await;
        assert_eq!((status, v["error"].as_str()), (StatusCode::CONFLICT, Some("cannot_abort")), "{v}");
    }
    // The bot plays Bob's seat to the end (Ada's moves by her token).
    play_to_the_end(&s, &id, &[Some(t0.to_string()), None]).await;
    let (pa, pb) = (profile(&s, "Ada").await, profile(&s, "Bob").await);
    assert!(close(pa["ratings"][0]["rating"].as_f64().unwrap(), 1662.3, 0.2), "Ada wins: {pa}");
    assert!(close(pb["ratings"][0]["rating"].as_f64().unwrap(), 1337.7, 0.2), "Bob loses: {pb}");
}

/// Both players accept the rematch of game `id` (their tokens by seat):
/// the new game's state, as its players' new tokens see it.
async fn rematch(s: &Server, id: &str, tokens: &[Option<String>]) -> Value {
    let mut held = Vec::new();
    for t in tokens.iter().flatten() {
        let (status, v) = send(s, "POST", &format!("/api/games/{id}/rematch?token={t}"), Some(json!({})), None).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        held.extend(v["tokens"].as_array().unwrap().iter().map(|t| t["token"].as_str().unwrap().to_string()));
    }
    let (_, v) =
        send(s, "GET", &format!("/api/games/{id}/chat?token={}", tokens[0].as_deref().unwrap()), None, None).await;
    let new_id = v["rematch"]["game"].as_str().expect("the rematch is made").to_string();
    let (status, st) = send(s, "GET", &format!("/api/games/{new_id}?token={}", held.join(",")), None, None).await;
    assert_eq!(status, StatusCode::OK, "{st}");
    st
}

/// A rated duel of Ada's (by her session cookie) with Bob at the invited
/// seat, `extra` added to the form (a clock…): its id and tokens by seat.
async fn rated_duel_begun(s: &Server, ada: &str, bob: &str, extra: Value) -> (String, Vec<Option<String>>) {
    let mut body = json!({ "seats": [ { "kind": "human" }, { "kind": "remote" } ], "rated": true });
    body.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
    let (id, tokens) = create(s, Some(ada), body).await;
    link(s, bob, &id, tokens[1].as_deref().unwrap()).await;
    (id, tokens)
}

/// Ada (seat 0, token `t0`) moves, Bob does not for the away minutes (2),
/// and Ada hands his seat to a bot: the answer to the hand-over.
async fn moved_then_away(s: &Server, id: &str, t0: &str) -> (StatusCode, Value) {
    let (_, st) = send(s, "GET", &format!("/api/games/{id}?token={t0}"), None, None).await;
    let (status, v) =
        send(s, "POST", &format!("/api/games/{id}/moves?token={t0}"), Some(pick_move(&st, 0, false)), None).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    s.state.games.now().advance(std::time::Duration::from_secs(2 * 60 + 1));
    let handover = json!({ "seat": 1, "level": "random" });
    send(s, "POST", &format!("/api/games/{id}/handover?token={t0}"), Some(handover), None).await
}

/// A rated game's rematch is rated while both seats are still their
/// players' accounts; once one was deleted, the rematch is casual (a
/// deleted account's seat would stand as a fixed opponent for ever).
#[tokio::test]
async fn a_rated_rematch_needs_every_account_still_there() {
    let s = server();
    let ada = sign_up(&s, "Ada").await;
    let bob = sign_up(&s, "Bob").await;
    for delete in [false, true] {
        let (id, tokens) = rated_duel_begun(&s, &ada, &bob, json!({})).await;
        if delete {
            let (status, v) =
                send(&s, "POST", "/api/account/delete", Some(json!({ "password": "long enough" })), Some(&bob)).await;
            assert_eq!(status, StatusCode::OK, "{v}");
        }
        play_to_the_end(&s, &id, &tokens).await;
        let st = rematch(&s, &id, &tokens).await;
        assert_eq!(st["rated"], !delete, "deleted: {delete}: {st}");
    }
}

/// A rated game with a clock is claimed by its clock alone: a seat that
/// thinks for the away minutes of its own time is not handed over (it
/// would lose), and a seat that leaves stays in, its clock running on — a
/// rated duel does not end at once, the results as they stand.
#[tokio::test]
async fn a_rated_game_with_a_clock_is_claimed_by_the_clock_alone() {
    let s = server();
    let ada = sign_up(&s, "Ada").await;
    let bob = sign_up(&s, "Bob").await;
    for clock in [json!({ "kind": "turn", "days": 1 }), json!({ "kind": "realtime", "minutes": 10, "increment": 5 })] {
        let (id, tokens) = rated_duel_begun(&s, &ada, &bob, json!({ "away_minutes": 2, "clock": clock })).await;
        let (t0, t1) = (tokens[0].as_deref().unwrap(), tokens[1].as_deref().unwrap());
        let (status, v) = moved_then_away(&s, &id, t0).await;
        assert_eq!((status, v["error"].as_str()), (StatusCode::CONFLICT, Some("not_away")), "{clock}: {v}");
        let (_, st) = send(&s, "GET", &format!("/api/games/{id}?token={t0}"), None, None).await;
        assert_eq!(st["clock"]["may_hand_over"], json!([]), "{}", st["clock"]);
        // Bob leaves: he stays in, the game goes on, his clock runs.
        let (status, v) =
            send(&s, "POST", &format!("/api/games/{id}/leave?token={t1}"), Some(json!({ "seat": 1 })), None).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        let (_, st) = send(&s, "GET", &format!("/api/games/{id}?token={t0}"), None, None).await;
        assert_eq!(st["status"], "playing", "{clock}: {st}");
        assert_eq!(st["clock"]["left"], json!([1]), "{}", st["clock"]);
        assert!(st["clock"]["deadline"].is_i64(), "{}", st["clock"]);
    }
}

/// Issue 46: the games to watch are the public games in play, the highest
/// rated first; private and finished games are not among them.
#[tokio::test]
async fn the_games_to_watch_are_public_games_in_play_highest_rated_first() {
    let s = server();
    let (ada, bob) = (sign_up(&s, "Ada").await, sign_up(&s, "Bob").await);
    // A finished rated duel gives them ratings (one up, one down, or both 1500).
    let done = rated_duel(&s, &ada, &bob, None).await;
    let casual = json!({ "seats": [ { "kind": "human" }, { "kind": "bot", "level": "random" } ], "public": true });
    let (open, _) = create(&s, None, casual).await;
    let (hidden, _) = create(&s, None, json!({ "seats": [ { "kind": "human" }, { "kind": "human" } ] })).await;
    let body = json!({ "seats": [ { "kind": "human" }, { "kind": "remote" } ], "rated": true, "public": true });
    let (rated, tokens) = create(&s, Some(&ada), body).await;
    link(&s, &bob, &rated, tokens[1].as_deref().unwrap()).await;
    let (status, v) = send(&s, "GET", "/api/watch", None, None).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let games = v["games"].as_array().unwrap();
    let ids: Vec<&str> = games.iter().map(|g| g["id"].as_str().unwrap()).collect();
    assert_eq!(ids[0], rated, "the rated players' game first: {v}");
    assert!(ids.contains(&open.as_str()), "{v}");
    assert!(!ids.contains(&hidden.as_str()) && !ids.contains(&done.as_str()), "private or finished: {v}");
    let first = &games[0];
    assert_eq!(first["rated"], true);
    let (ra, rb) = (profile(&s, "Ada").await, profile(&s, "Bob").await);
    let shown = |p: &Value| p["ratings"][0]["rating"].as_f64().unwrap().round() as i64;
    assert_eq!(first["ratings"], json!([shown(&ra), shown(&rb)]), "{first}");
    assert_eq!(first["top"], json!(shown(&ra).max(shown(&rb))));
    assert_eq!((&first["players"][0]["player"], &first["players"][1]["player"]), (&json!("Ada"), &json!("Bob")));
    // The rated game in play tells its players whom they play, with their ratings.
    let (_, r) = send(&s, "GET", &format!("/api/games/{rated}/ratings"), None, None).await;
    let expect = json!([
        { "seat": 0, "player": "Ada", "rating": shown(&ra) as f64 },
        { "seat": 1, "player": "Bob", "rating": shown(&rb) as f64 },
    ]);
    assert_eq!((&r["settled"], &r["players"]), (&json!(false), &expect), "{r}");
    let other = games.iter().find(|g| g["id"] == open.as_str()).unwrap();
    assert_eq!(
        (&other["rated"], &other["ratings"], &other["top"]),
        (&json!(false), &json!([null, null]), &Value::Null)
    );
}

/// Issue 47: ratings are kept per pool of rule family. A rated Big Box
/// duel (the `big-box` preset) played to the end through the API moves
/// its players' `big-box-duel` ratings, from the start, and leaves their
/// base game's `duel` ratings as they were; the profile, the game's own
/// account and the history say which pool.
#[tokio::test]
async fn a_rated_big_box_game_moves_only_the_big_box_pools_ratings() {
    let s = server();
    let ada = sign_up(&s, "Ada").await;
    let bob = sign_up(&s, "Bob").await;
    rated_duel(&s, &ada, &bob, None).await;
    let before = profile(&s, "Ada").await["ratings"].clone();
    assert_eq!(before.as_array().map(|r| r.len()), Some(1), "{before}");
    assert_eq!(before[0]["pool"], "duel");

    let body = json!({ "seats": [ { "kind": "human" }, { "kind": "remote" } ], "rules": { "preset": "big-box" },
                       "rated": true });
    let (id, tokens) = create(&s, Some(&ada), body).await;
    assert_eq!(link(&s, &bob, &id, tokens[1].as_deref().unwrap()).await, json!([{ "game": id, "seat": 1 }]));
    let (_, r) = send(&s, "GET", &format!("/api/games/{id}/ratings"), None, None).await;
    assert_eq!((&r["pool"], &r["settled"]), (&json!("big-box-duel"), &json!(false)), "{r}");
    assert_eq!(r["players"][0]["rating"], Value::Null, "no Big Box rating yet: {r}");
    assert_eq!(s.state.store().ratings.rated(&id).await.unwrap(), Some(false));
    let scores = play_to_the_end(&s, &id, &tokens).await;

    for (name, seat) in [("Ada", 0usize), ("Bob", 1)] {
        let p = profile(&s, name).await;
        let ratings = p["ratings"].as_array().unwrap();
        let pools: Vec<&str> = ratings.iter().map(|r| r["pool"].as_str().unwrap()).collect();
        assert_eq!(pools, ["duel", "big-box-duel"], "the base game's first: {p}");
        let duel = ratings.iter().find(|r| r["pool"] == "duel").unwrap();
        assert_eq!(duel["games"], 1, "the base game's rating stays: {p}");
        if name == "Ada" {
            assert_eq!(duel, &before[0], "as it was");
        }
        let big = ratings.iter().find(|r| r["pool"] == "big-box-duel").unwrap();
        assert_eq!(big["games"], 1);
        let expected = match scores[seat].cmp(&scores[1 - seat]) {
            std::cmp::Ordering::Greater => 1662.3,
            std::cmp::Ordering::Less => 1337.7,
            std::cmp::Ordering::Equal => 1500.0,
        };
        let rating = big["rating"].as_f64().unwrap();
        assert!(close(rating, expected, 0.2), "from the start, whatever the base game's: {rating}");
        let history = p["history"].as_array().unwrap();
        assert_eq!(history.len(), 2);
        assert_eq!((&history[1]["game"], &history[1]["pool"]), (&json!(id), &json!("big-box-duel")));
        assert_eq!(history[1]["before"], 1500.0);
        let game = &p["games"][0];
        assert_eq!((&game["id"], &game["preset"], &game["family"]), (&json!(id), &json!("big-box"), &json!("big-box")));
        assert_eq!(game["pool"], "big-box-duel");
        assert_eq!((&p["games"][1]["family"], &p["games"][1]["pool"]), (&json!("base"), &json!("duel")));
    }
    let (_, r) = send(&s, "GET", &format!("/api/games/{id}/ratings"), None, None).await;
    assert_eq!((&r["pool"], &r["settled"]), (&json!("big-box-duel"), &json!(true)), "{r}");
    assert_eq!(r["players"][0]["before"], 1500.0, "{r}");
}

/// The leaderboard lists each pool's established players under the pool's
/// word: `duel`, `multi`, `big-box-duel`, `big-box-multi`.
#[tokio::test]
async fn the_leaderboard_lists_each_pool_apart() {
    let s = server();
    let store = s.state.store();
    for (id, name) in [("a1", "Ada"), ("b1", "Bob")] {
        store.accounts.create(&account(id, name)).await.unwrap();
    }
    // Big Box duels only: Ada wins each.
    for g in 0..PROVISIONAL_GAMES {
        let id = format!("g{g}");
        store
            .games
            .create(&new_game(&id, vec![human("Ada", &format!("{id}a")), human("Bob", &format!("{id}b"))]))
            .await
            .unwrap();
        store.ratings.mark_rated(&id, Pool::BigBoxDuel.word()).await.unwrap();
        let seat = |i: u8, a: &str, place| carcassonne_server::RatedSeat {
            seat: i,
            account: Some(a.into()),
            fixed: None,
            place,
        };
        let result = carcassonne_server::RatedResult {
            game: id.clone(),
            pool: Pool::BigBoxDuel,
            seats: vec![seat(0, "a1", 1), seat(1, "b1", 2)],
            at: g,
        };
        store.ratings.apply(&result).await.unwrap().unwrap();
    }
    let (status, board) = send(&s, "GET", "/api/leaderboard", None, None).await;
    assert_eq!(status, StatusCode::OK, "{board}");
    let names = |pool: &str| -> Vec<(String, String)> {
        board[pool]
            .as_array()
            .unwrap_or_else(|| panic!("{pool}: {board}"))
            .iter()
            .map(|r| (r["name"].as_str().unwrap().to_string(), r["pool"].as_str().unwrap().to_string()))
            .collect()
    };
    let big = |n: &str| (n.to_string(), "big-box-duel".to_string());
    assert_eq!(names("big-box-duel"), [big("Ada"), big("Bob")]);
    assert!(names("duel").is_empty() && names("multi").is_empty() && names("big-box-multi").is_empty(), "{board}");
    assert_eq!(board["big-box-duel"][0]["rank"], 1);
    assert!(board["big-box-duel"][0]["rating"].as_f64().unwrap() > 1500.0);
}

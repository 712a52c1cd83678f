//! The HTTP API through the router (`oneshot`, no socket): whole games, every
//! refusal with its stable code and the state unchanged, hidden information.

mod common;

use axum::http::StatusCode;
use carcassonne::record::Record;
use carcassonne_server::{AppState, Config, Store};
use common::*;
use serde_json::{json, Value};

/// What a refusal must leave as it was.
fn fingerprint(s: &Value) -> Value {
    json!([s["version"], s["board"], s["followers"], s["players"], s["turn"]])
}

#[tokio::test]
async fn tiles_and_options_describe_the_engine() {
    let (app, _) = test_app();
    let (status, tiles) = call(&app, "GET", "/api/tiles", None).await;
    assert_eq!(status, StatusCode::OK);
    let list = tiles["tiles"].as_array().unwrap();
    // Every tile kind, each with its expansion (the option's name) and its marks.
    assert_eq!(list.len(), carcassonne::TILE_KINDS);
    let tile = |id: &str| list.iter().find(|t| t["id"] == id).unwrap();
    let of = |e: Value| list.iter().filter(|t| t["expansion"] == e).count();
    assert_eq!([of(Value::Null), of(json!("inns_cathedrals")), of(json!("traders_builders"))], [43, 17, 24]);
    let marks = |id: &str| -> Vec<Value> {
        tile(id)["segments"].as_array().unwrap().iter().map(|s| json!([s["inn"], s["cathedral"], s["goods"]])).collect()
    };
    assert_eq!(marks("IC11"), [json!([false, true, null])], "a cathedral in the city");
    assert_eq!(marks("IC13")[1], json!([true, false, null]), "an inn by the road");
    assert_eq!(marks("TB04")[0], json!([false, false, "wheat"]));
    assert_eq!(marks("TB11")[0], json!([false, false, "cloth"]));
    assert_eq!(marks("TB17")[0], json!([false, false, "wine"]));
    assert_eq!(marks("D"), vec![json!([false, false, null]); 4], "a base tile has no marks");
    assert_eq!((tile("TB02")["bridge"].clone(), tile("D")["bridge"].clone()), (json!(true), json!(false)));

    // A replay names the expansions its rules play (a preset's included), for the page to draw their tiles.
    for (off, want) in
        [(None, json!(["inns_cathedrals", "traders_builders"])), (Some("traders"), json!(["inns_cathedrals"]))]
    {
        let mut rules = carcassonne::Rules::preset(carcassonne::Preset::BigBox);
        rules.traders_builders = off.is_none();
        let game = carcassonne::Game::new(carcassonne::Setup::standard(rules, 2, 1)).unwrap();
        let record = Record::from_game(&game, &["Ada".to_string(), "Bob".to_string()]);
        let (status, replay) = call(&app, "POST", "/api/replay", Some(&record.to_json())).await;
        assert_eq!(status, StatusCode::OK, "{replay}");
        assert_eq!(replay["expansions"], want, "{}", replay["rules"]);
    }
    let d = list.iter().find(|t| t["id"] == "D").unwrap();
    assert_eq!(d["edges"], json!(["city", "road", "field", "road"]));
    assert_eq!(d["course"], "CRFR50", "the CMSC 22001 name beside the letter");
    assert_eq!(list.iter().find(|t| t["id"] == "Eg").unwrap()["course"], Value::Null);
    let total: u64 = tiles["standard_counts"].as_object().unwrap().values().map(|v| v.as_u64().unwrap()).sum();
    assert_eq!(total, 72, "the box holds 72 land tiles");

    let (status, options) = call(&app, "GET", "/api/options", None).await;
    assert_eq!(status, StatusCode::OK);
    let presets: Vec<&str> =
        options["presets"].as_array().unwrap().iter().map(|p| p["name"].as_str().unwrap()).collect();
    assert_eq!(presets, ["standard", "beginner", "first-edition", "big-box"]);
    // The form offers each expansion whole, not its parts one by one.
    let keys: Vec<&str> = options["options"].as_array().unwrap().iter().map(|o| o["key"].as_str().unwrap()).collect();
    assert!(keys.contains(&"inns_cathedrals") && keys.contains(&"traders_builders"), "{keys:?}");
    assert!(!keys.contains(&"big_follower") && !keys.contains(&"pig"), "{keys:?}");
    assert!(options["options"].as_array().unwrap().iter().any(|o| o["key"] == "farms"));
    assert_eq!(options["bot_levels"].as_array().unwrap().len(), 4);
}

#[tokio::test]
async fn a_whole_game_between_two_people_plays_through_the_api() {
    let (app, _) = test_app();
    let (id, tokens, first) = create(&app, two_humans()).await;
    assert_eq!(first["version"], 0);
    assert_eq!(first["status"], "playing");
    assert_eq!(first["tiles_left"], 70, "71 tiles after the start tile, one of them drawn");
    let mut k = 0;
    loop {
        let s =
            state(&app, &id, Some(&format!("{},{}", tokens[0].as_ref().unwrap(), tokens[1].as_ref().unwrap()))).await;
        if s["status"] == "finished" {
            break;
        }
        let seat = s["turn"]["seat"].as_u64().unwrap() as usize;
        let mv = pick_move(&s, k * 7, k % 3 == 0);
        let (status, after) = post_move(&app, &id, tokens[seat].as_ref().unwrap(), &mv).await;
        assert_eq!(status, StatusCode::OK, "{after}");
        assert_eq!(after["version"].as_u64().unwrap(), s["version"].as_u64().unwrap() + 1);
        k += 1;
    }
    let end = state(&app, &id, None).await;
    assert_eq!(end["status"], "finished");
    assert!(end["turn"].is_null());
    assert!(end["log"].as_array().unwrap().iter().any(|e| e["type"] == "end"));
    let scores: Vec<u64> = end["players"].as_array().unwrap().iter().map(|p| p["score"].as_u64().unwrap()).collect();
    let history = end["score_history"].as_array().unwrap();
    assert_eq!(history.last().unwrap(), &json!(scores), "the chart ends at the final scores");
    assert_eq!(history.len(), k + 2, "a row before the first move, one per move, one after final scoring");
    // The breakdown adds up to the scores.
    assert_breakdown_adds_up(&end);

    // The downloaded record replays to the same scores.
    let (status, bytes) = call_raw(&app, "GET", &format!("/api/games/{id}/record"), None).await;
    assert_eq!(status, StatusCode::OK);
    let record = Record::from_json(std::str::from_utf8(&bytes).unwrap()).unwrap();
    assert_eq!(record.players, ["Ada", "Bob"]);
    let game = record.replay().unwrap();
    assert!(game.is_over());
    assert_eq!(game.scores().iter().map(|&s| s as u64).collect::<Vec<_>>(), scores);

    // And the replay viewer's steps end there too.
    let (status, replay) = call(&app, "POST", "/api/replay", Some(std::str::from_utf8(&bytes).unwrap())).await;
    assert_eq!(status, StatusCode::OK, "{replay}");
    let steps = replay["steps"].as_array().unwrap();
    assert_eq!(steps.len(), k + 1);
    assert_eq!(steps.last().unwrap()["scores"], json!(scores));
    assert_eq!(replay["expansions"], json!([]), "the page draws no expansion's tiles for it");
    let (status, stored) = call(&app, "GET", &format!("/api/games/{id}/replay"), None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(stored["steps"], replay["steps"]);

    // The list shows it finished (to those who name it: it is not public).
    let (_, list) = call(&app, "GET", &format!("/api/games?ids={id}"), None).await;
    let g = list["games"].as_array().unwrap().iter().find(|g| g["id"] == id.as_str()).unwrap();
    assert_eq!(g["status"], "finished");
    assert_eq!(g["moves"], k);
}

#[tokio::test]
async fn every_refusal_has_a_stable_code_and_changes_nothing() {
    let (app, _) = test_app();
    let (id, tokens, _) = create(&app, two_humans()).await;
    let (t0, t1) = (tokens[0].clone().unwrap(), tokens[1].clone().unwrap());
    let s = state(&app, &id, Some(&t0)).await;
    let before = fingerprint(&s);
    let good = pick_move(&s, 0, false);
    let uri = format!("/api/games/{id}/moves?token={t0}");

    let mut cases: Vec<(&str, String, String, StatusCode)> = Vec::new();
    let with = |f: &dyn Fn(&mut Value)| {
        let mut m = good.clone();
        f(&mut m);
        m.to_string()
    };
    // Illegal by the rules: far from every tile, or onto the start tile.
    cases.push(("not adjacent", uri.clone(), with(&|m| m["at"] = json!([9, 9])), StatusCode::UNPROCESSABLE_ENTITY));
    cases.push(("occupied", uri.clone(), with(&|m| m["at"] = json!([0, 0])), StatusCode::UNPROCESSABLE_ENTITY));
    let wrong_tile = if good["tile"] == "A" { "B" } else { "A" };
    cases.push(("wrong tile", uri.clone(), with(&|m| m["tile"] = json!(wrong_tile)), StatusCode::UNPROCESSABLE_ENTITY));
    // Not well formed.
    cases.push(("not json", uri.clone(), "{not json".into(), StatusCode::BAD_REQUEST));
    cases.push(("empty", uri.clone(), String::new(), StatusCode::BAD_REQUEST));
    cases.push(("array", uri.clone(), "[1,2]".into(), StatusCode::BAD_REQUEST));
    cases.push(("string version", uri.clone(), with(&|m| m["version"] = json!("zero")), StatusCode::BAD_REQUEST));
    cases.push((
        "no version",
        uri.clone(),
        with(&|m| m.as_object_mut().unwrap().retain(|k, _| k != "version")),
        StatusCode::BAD_REQUEST,
    ));
    cases.push(("unknown tile", uri.clone(), with(&|m| m["tile"] = json!("ZZ")), StatusCode::BAD_REQUEST));
    cases.push(("rot 7", uri.clone(), with(&|m| m["rot"] = json!(7)), StatusCode::BAD_REQUEST));
    cases.push(("rot -1", uri.clone(), with(&|m| m["rot"] = json!(-1)), StatusCode::BAD_REQUEST));
    cases.push(("huge at", uri.clone(), with(&|m| m["at"] = json!([1e12, 0])), StatusCode::BAD_REQUEST));
    cases.push(("bad spot", uri.clone(), with(&|m| m["meeple"] = json!("Q")), StatusCode::BAD_REQUEST));
    cases.push((
        "two actions",
        uri.clone(),
        with(&|m| {
            m["meeple"] = json!("N");
            m["recall"] = json!(true);
        }),
        StatusCode::BAD_REQUEST,
    ));
    // Whose move and which version.
    cases.push(("wrong turn", format!("/api/games/{id}/moves?token={t1}"), good.to_string(), StatusCode::CONFLICT));
    cases.push(("stale", uri.clone(), with(&|m| m["version"] = json!(5)), StatusCode::CONFLICT));
    cases.push(("no token", format!("/api/games/{id}/moves"), good.to_string(), StatusCode::FORBIDDEN));
    cases.push(("bad token", format!("/api/games/{id}/moves?token=nope"), good.to_string(), StatusCode::FORBIDDEN));
    cases.push(("no game", format!("/api/games/nosuchgame/moves?token={t0}"), good.to_string(), StatusCode::NOT_FOUND));
    cases.push((
        "junk id",
        format!("/api/games/..%2F..%2Fetc/moves?token={t0}"),
        good.to_string(),
        StatusCode::NOT_FOUND,
    ));

    let codes = [
        "illegal_move",
        "illegal_move",
        "illegal_move",
        "bad_request",
        "bad_request",
        "bad_request",
        "bad_request",
        "bad_request",
        "bad_request",
        "bad_request",
        "bad_request",
        "bad_request",
        "bad_request",
        "bad_request",
        "not_your_turn",
        "stale_version",
        "unauthorized",
        "unauthorized",
        "not_found",
        "not_found",
    ];
    assert_eq!(cases.len(), codes.len());
    for ((name, uri, body, status), code) in cases.into_iter().zip(codes) {
        let (got, v) = call(&app, "POST", &uri, Some(&body)).await;
        assert_eq!(got, status, "{name}: {v}");
        assert_eq!(v["error"], code, "{name}: {v}");
        assert!(v["message"].as_str().is_some_and(|m| !m.is_empty()), "{name}: a message for people");
        assert_eq!(fingerprint(&state(&app, &id, Some(&t0)).await), before, "{name} changed the game");
    }

    // The engine's own rule code comes along with an illegal move.
    let (_, v) = post_move(&app, &id, &t0, &{
        let mut m = good.clone();
        m["at"] = json!([0, 0]);
        m
    })
    .await;
    assert_eq!(v["rule"], "cell_occupied");
    let (_, v) = post_move(&app, &id, &t0, &{
        let mut m = good.clone();
        m["version"] = json!(3);
        m
    })
    .await;
    assert_eq!(v["version"], 0, "a stale client learns the current version");

    // A body over the limit is refused before it is read.
    let big = format!("{{\"version\":0,\"pad\":\"{}\"}}", "x".repeat(carcassonne_server::MAX_BODY + 10));
    let (got, v) = call(&app, "POST", &uri, Some(&big)).await;
    assert_eq!((got, v["error"].as_str()), (StatusCode::PAYLOAD_TOO_LARGE, Some("too_large")));

    // A state for an unknown token is refused too.
    let (got, v) = call(&app, "GET", &format!("/api/games/{id}?token=nope"), None).await;
    assert_eq!((got, v["error"].as_str()), (StatusCode::FORBIDDEN, Some("unauthorized")));
    let (got, v) = call(&app, "GET", "/api/games/nosuchgame", None).await;
    assert_eq!((got, v["error"].as_str()), (StatusCode::NOT_FOUND, Some("not_found")));

    // The good move still plays.
    let (got, v) = post_move(&app, &id, &t0, &good).await;
    assert_eq!(got, StatusCode::OK, "{v}");
}

#[tokio::test]
async fn a_finished_game_refuses_moves_with_game_over() {
    let (app, _) = test_app();
    // A two-tile deck: the game ends after two moves.
    let (id, tokens, _) = create(&app, two_humans()).await;
    let all = format!("{},{}", tokens[0].as_ref().unwrap(), tokens[1].as_ref().unwrap());
    let mut last = Value::Null;
    for _ in 0..200 {
        let s = state(&app, &id, Some(&all)).await;
        if s["status"] == "finished" {
            break;
        }
        let seat = s["turn"]["seat"].as_u64().unwrap() as usize;
        last = pick_move(&s, 0, false);
        let (status, _) = post_move(&app, &id, tokens[seat].as_ref().unwrap(), &last).await;
        assert_eq!(status, StatusCode::OK);
    }
    let before = fingerprint(&state(&app, &id, None).await);
    let (status, v) = post_move(&app, &id, tokens[0].as_ref().unwrap(), &last).await;
    assert_eq!((status, v["error"].as_str()), (StatusCode::CONFLICT, Some("game_over")));
    assert_eq!(fingerprint(&state(&app, &id, None).await), before);
}

#[tokio::test]
async fn new_games_check_their_form() {
    let (app, server) = test_app();
    let bad = [
        ("one seat", json!({ "seats": [ { "kind": "human" } ] })),
        ("seven seats", json!({ "seats": vec![json!({ "kind": "bot" }); 7] })),
        ("bad kind", json!({ "seats": [ { "kind": "cat" }, { "kind": "bot" } ] })),
        ("bad level", json!({ "seats": [ { "kind": "human" }, { "kind": "bot", "level": "godlike" } ] })),
        ("bad preset", json!({ "seats": [ { "kind": "human" }, { "kind": "bot" } ], "rules": { "preset": "nope" } })),
        ("bad option", json!({ "seats": [ { "kind": "human" }, { "kind": "bot" } ], "rules": { "farms": "lots" } })),
        (
            "unknown option",
            json!({ "seats": [ { "kind": "human" }, { "kind": "bot" } ], "rules": { "dragons": true } }),
        ),
        ("unknown field", json!({ "seats": [ { "kind": "human" }, { "kind": "bot" } ], "deck": ["A"] })),
        ("no seats", json!({})),
    ];
    for (name, body) in bad {
        let (status, v) = call(&app, "POST", "/api/games", Some(&body.to_string())).await;
        assert_eq!((status, v["error"].as_str()), (StatusCode::BAD_REQUEST, Some("bad_request")), "{name}: {v}");
    }
    let (status, v) = call(&app, "POST", "/api/games", Some("{")).await;
    assert_eq!((status, v["error"].as_str()), (StatusCode::BAD_REQUEST, Some("bad_request")));
    assert_eq!(server.store().games.list(10).await.unwrap().len(), 0, "no refused form made a game");

    // A rule set and names come through; blank names get defaults; names are cut.
    let (_, _, s) = create(
        &app,
        json!({ "seats": [ { "kind": "human", "name": "  " }, { "kind": "bot", "level": "easy" },
                           { "kind": "human", "name": "x".repeat(80) } ],
                "rules": { "preset": "first-edition", "small_city": false } }),
    )
    .await;
    assert_eq!(s["rules"], json!({ "preset": "first-edition", "small_city": false }));
    assert_eq!(s["players"][0]["name"], "Player 1");
    assert_eq!(s["players"][1]["kind"], "bot");
    assert_eq!(s["players"][1]["level"], "easy");
    assert_eq!(s["players"][2]["name"].as_str().unwrap().chars().count(), 24);
    assert_eq!(s["players"][2]["color"], "green");
}

/// The order of the bag must never reach a browser: not in a state (a
/// player's or a spectator's), not in a record of a game in play.
#[tokio::test]
async fn the_deck_order_never_leaves_the_server() {
    let (app, state_handle) = test_app();
    let (id, tokens, created) = create(&app, two_humans()).await;
    let t0 = tokens[0].clone().unwrap();
    // Play a few moves so that there is a past and a future.
    let mut s = created;
    for i in 0..6 {
        let seat = s["turn"]["seat"].as_u64().unwrap() as usize;
        let tok = tokens[seat].clone().unwrap();
        let st = state(&app, &id, Some(&tok)).await;
        let (status, next) = post_move(&app, &id, &tok, &pick_move(&st, i, true)).await;
        assert_eq!(status, StatusCode::OK);
        s = next;
    }
    let stored = state_handle.store().games.load(&id).await.unwrap().unwrap();
    let deck = stored.record.deck.clone().unwrap();
    let played = 6;
    let drawn = deck.len() - s["tiles_left"].as_u64().unwrap() as usize;
    assert!(drawn > played, "the current tile is drawn");
    let future: Vec<String> = deck[drawn..].to_vec();
    assert!(future.len() > 50);
    // The detector below does find the order where it is: in the stored record.
    assert!(contains_run(&serde_json::to_value(&stored.record).unwrap(), &future, 4));

    let texts = [
        serde_json::to_string(&state(&app, &id, Some(&t0)).await).unwrap(),
        serde_json::to_string(&state(&app, &id, Some(tokens[1].as_ref().unwrap())).await).unwrap(),
        serde_json::to_string(&state(&app, &id, None).await).unwrap(),
        serde_json::to_string(&call(&app, "GET", "/api/games", None).await.1).unwrap(),
        serde_json::to_string(&call(&app, "GET", &format!("/api/games/{id}/replay"), None).await.1).unwrap(),
    ];
    for text in &texts {
        assert!(!text.contains("\"deck\""), "a view names the deck");
        assert!(!text.contains("\"seed\""), "a view names the seed");
        // No run of four upcoming tiles appears in order, in any array.
        let v: Value = serde_json::from_str(text).unwrap();
        assert!(!contains_run(&v, &future, 4), "a view holds the order of the bag");
    }
    // The counts are there, and add up.
    let st = state(&app, &id, Some(&t0)).await;
    let counted: u64 = st["remaining"].as_object().unwrap().values().map(|v| v.as_u64().unwrap()).sum();
    assert_eq!(counted as usize, future.len());

    // The record of a game in play holds the draws so far, not the bag.
    let (_, bytes) = call_raw(&app, "GET", &format!("/api/games/{id}/record"), None).await;
    let record = Record::from_json(std::str::from_utf8(&bytes).unwrap()).unwrap();
    assert_eq!(record.deck.as_deref(), Some(&deck[..drawn]));
    assert_eq!(record.moves.len(), played);
    assert_eq!(record.replay().unwrap().moves_played() as usize, played, "the save replays");
}

/// Whether any array of strings in `v` contains `run` consecutive items of `seq` in order.
fn contains_run(v: &Value, seq: &[String], run: usize) -> bool {
    match v {
        Value::Array(items) => {
            let strings: Vec<&str> = items.iter().filter_map(Value::as_str).collect();
            if strings.len() >= run {
                for w in strings.windows(run) {
                    if seq.windows(run).any(|s| s.iter().zip(w).all(|(a, b)| a == b)) {
                        return true;
                    }
                }
            }
            items.iter().any(|i| contains_run(i, seq, run))
        }
        Value::Object(m) => m.values().any(|i| contains_run(i, seq, run)),
        _ => false,
    }
}

#[tokio::test]
async fn a_bot_moves_on_its_own_and_a_person_only_sees_their_own_legal_moves() {
    let (app, _) = test_app();
    let (id, tokens, s) =
        create(&app, json!({ "seats": [ { "kind": "bot", "level": "random" }, { "kind": "human", "name": "Ada" } ] }))
            .await;
    assert!(tokens[0].is_none());
    let t1 = tokens[1].clone().unwrap();
    assert_eq!(s["players"][0]["kind"], "bot");
    // The bot opens; then it is Ada's turn, and only Ada gets legal moves.
    let s = wait_for(&app, &id, Some(&t1), |s| s["version"] == 1 && s["thinking"].is_null()).await;
    assert_eq!(s["turn"]["seat"], 1);
    assert!(s["legal"].as_array().is_some_and(|l| !l.is_empty()));
    assert!(state(&app, &id, None).await["legal"].is_null(), "a spectator gets no legal moves");
    // Play on until the end; the bot answers every move.
    let mut i = 0;
    let mut s = s;
    while s["status"] != "finished" {
        let (status, v) = post_move(&app, &id, &t1, &pick_move(&s, i, i % 2 == 0)).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        let v0 = v["version"].as_u64().unwrap();
        s = wait_for(&app, &id, Some(&t1), |s| {
            s["status"] == "finished" || (s["version"].as_u64().unwrap() > v0 && s["thinking"].is_null())
        })
        .await;
        i += 1;
    }
    assert!(s["winners"].as_array().is_some_and(|w| !w.is_empty()));
}

#[tokio::test]
async fn records_that_do_not_replay_are_refused_with_the_reason() {
    let (app, _) = test_app();
    let bad_move = r#"{ "format": 1, "players": ["A", "B"], "deck": ["E"],
                        "moves": [ { "tile": "E", "at": [5, 5], "rot": 0 } ] }"#;
    let (status, v) = call(&app, "POST", "/api/replay", Some(bad_move)).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(v["message"].as_str().unwrap().starts_with("move 1:"), "{v}");
    let (status, v) = call(&app, "POST", "/api/replay", Some("not a record")).await;
    assert_eq!((status, v["error"].as_str()), (StatusCode::BAD_REQUEST, Some("bad_request")));
    let big = "x".repeat(carcassonne_server::MAX_RECORD + 1);
    let (status, v) = call(&app, "POST", "/api/replay", Some(&big)).await;
    assert_eq!((status, v["error"].as_str()), (StatusCode::PAYLOAD_TOO_LARGE, Some("too_large")));
}

#[tokio::test]
async fn the_ui_is_served_and_unknown_api_paths_are_json() {
    let (app, _) = test_app();
    let (status, bytes) = call_raw(&app, "GET", "/", None).await;
    assert_eq!(status, StatusCode::OK);
    assert!(String::from_utf8_lossy(&bytes).contains("<title>Carcassonne"));
    let (status, v) = call(&app, "GET", "/api/nothing/here", None).await;
    assert_eq!((status, v["error"].as_str()), (StatusCode::NOT_FOUND, Some("not_found")));
    let (status, _) = call_raw(&app, "GET", "/no-such-file.js", None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, v) = call(&app, "GET", "/api/health", None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(v, json!({ "ok": true, "store": "up", "feed": "none" }), "one server on SQLite: no feed");
}

/// Plays a whole game of two people with `rules` through the API, checking
/// on the way that a restarted server sees the same game, and at the end that
/// the chart, the breakdown and the record agree with the scores.
async fn play_out(rules: Value) -> Value {
    let (app, state_handle) = test_app();
    let (id, tokens, _) =
        create(&app, json!({ "seats": [ { "kind": "human" }, { "kind": "human" } ], "rules": rules })).await;
    let all = format!("{},{}", tokens[0].as_ref().unwrap(), tokens[1].as_ref().unwrap());
    let mut k = 0;
    let mut recalls = 0;
    let mut abbots = 0;
    loop {
        let s = state(&app, &id, Some(&all)).await;
        if s["status"] == "finished" {
            break;
        }
        let seat = s["turn"]["seat"].as_u64().unwrap() as usize;
        let mv = varied_move(&s, k);
        abbots += mv.get("abbot").is_some() as usize;
        recalls += mv.get("recall").is_some() as usize;
        let (status, after) = post_move(&app, &id, tokens[seat].as_ref().unwrap(), &mv).await;
        assert_eq!(status, StatusCode::OK, "{rules}: move {k} {mv}: {after}");
        k += 1;
        if k == 20 {
            // A second server on the same store rebuilds the same game.
            let (app2, _) = with_store(state_handle.store().clone(), std::time::Duration::ZERO);
            let a = state(&app, &id, Some(&all)).await;
            let b = state(&app2, &id, Some(&all)).await;
            for key in ["version", "board", "followers", "players", "turn", "legal", "remaining", "log"] {
                assert_eq!(a[key], b[key], "{rules}: {key} differs in a rebuilt game");
            }
        }
        assert!(k < 300, "the game ends");
    }
    let end = state(&app, &id, None).await;
    let scores: Vec<u64> = end["players"].as_array().unwrap().iter().map(|p| p["score"].as_u64().unwrap()).collect();
    assert_eq!(end["score_history"].as_array().unwrap().last().unwrap(), &json!(scores), "{rules}");
    assert_breakdown_adds_up(&end);
    let (status, bytes) = call_raw(&app, "GET", &format!("/api/games/{id}/record"), None).await;
    assert_eq!(status, StatusCode::OK);
    let game = Record::from_json(std::str::from_utf8(&bytes).unwrap()).unwrap().replay().unwrap();
    assert_eq!(game.scores().iter().map(|&s| s as u64).collect::<Vec<_>>(), scores, "{rules}: the record replays");
    json!({ "end": end, "abbots": abbots, "recalls": recalls, "moves": k })
}

#[tokio::test]
async fn games_with_every_rule_option_play_through() {
    let river = play_out(json!({ "river": true })).await;
    let placed = |id: &str| river["end"]["board"].as_array().unwrap().iter().any(|t| t["tile"] == id);
    let discarded =
        |id: &str| river["end"]["log"].as_array().unwrap().iter().any(|e| e["type"] == "discard" && e["tile"] == id);
    assert!(placed("RV02") || discarded("RV02"), "the lake was drawn");
    let river_tiles = river["end"]["board"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t["tile"].as_str().unwrap().starts_with("RV"))
        .count();
    assert!(river_tiles >= 6, "the river was laid ({river_tiles} tiles)");
    assert_eq!(river["end"]["board"][0]["tile"], "RV01", "the spring starts the game");

    let abbot = play_out(json!({ "abbot": true })).await;
    assert!(abbot["abbots"].as_u64().unwrap() > 0, "abbots were deployed");
    assert!(abbot["end"]["players"][0]["abbot"].is_boolean());
    let none = play_out(json!({ "preset": "beginner" })).await;
    assert!(none["end"]["players"][0]["abbot"].is_null(), "no abbot without The Abbot");
    // Nor the Big Box's figures or goods without its expansions (their switches are on by default).
    for p in none["end"]["players"].as_array().unwrap() {
        for key in ["big", "builder", "pig", "goods"] {
            assert!(p.get(key).is_none(), "no {key} without the Big Box: {p}");
        }
    }

    for rules in [
        json!({ "hand": 3, "hand_visible": true }),
        json!({ "draw_at_turn_end": true, "unplaceable": "reshuffle" }),
        json!({ "hole_bonus_turn": true, "incomplete_scoring": false, "first_player": "random" }),
        json!({ "board_limit": [9, 9], "border_completes": true, "farms": "per-city", "small_city": true }),
    ] {
        play_out(rules).await;
    }
}

#[tokio::test]
async fn a_hidden_hand_is_seen_only_by_its_owner() {
    let (app, _) = test_app();
    let (id, tokens, _) =
        create(&app, json!({ "seats": [ { "kind": "human" }, { "kind": "human" } ], "rules": { "hand": 2 } })).await;
    let (t0, t1) = (tokens[0].clone().unwrap(), tokens[1].clone().unwrap());
    let mine = state(&app, &id, Some(&t0)).await;
    let theirs = state(&app, &id, Some(&t1)).await;
    let watcher = state(&app, &id, None).await;
    assert_eq!(mine["players"][0]["hand"].as_array().unwrap().len(), 2);
    assert!(mine["players"][1]["hand"].is_null(), "seat 1's hand is hidden from seat 0");
    assert_eq!(mine["players"][1]["hand_count"], 2);
    assert_eq!(theirs["players"][1]["hand"].as_array().unwrap().len(), 2);
    assert!(theirs["players"][0]["hand"].is_null());
    assert_eq!(theirs["turn"]["tiles"], json!([]), "the player to move's tiles are theirs alone");
    assert_eq!(theirs["turn"]["count"], 2);
    assert!(watcher["players"][0]["hand"].is_null() && watcher["players"][1]["hand"].is_null());
    let legal_tiles: Vec<&str> =
        mine["legal"].as_array().unwrap().iter().map(|m| m["tile"].as_str().unwrap()).collect();
    for t in legal_tiles {
        assert!(mine["players"][0]["hand"].as_array().unwrap().iter().any(|h| h == t), "legal moves use my own tiles");
    }
    // While hands are hidden, the record (whose draws include them) waits for the end.
    let (status, v) = call(&app, "GET", &format!("/api/games/{id}/record"), None).await;
    assert_eq!((status, v["error"].as_str()), (StatusCode::CONFLICT, Some("hidden_information")));
}

#[tokio::test]
async fn invite_links_have_qr_codes() {
    let (app, _) = test_app();
    let (status, svg) = call_raw(
        &app,
        "POST",
        "/api/qr",
        Some(json!({ "text": "http://127.0.0.1:8080/#/game/abc?join=0123" }).to_string().into_bytes()),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let svg = String::from_utf8(svg).unwrap();
    assert!(svg.contains("<svg") && svg.contains("</svg>"), "{svg}");
    for bad in [json!({ "text": "" }), json!({ "text": "x".repeat(carcassonne_server::MAX_QR_TEXT + 1) }), json!({})] {
        let (status, v) = call(&app, "POST", "/api/qr", Some(&bad.to_string())).await;
        assert_eq!((status, v["error"].as_str()), (StatusCode::BAD_REQUEST, Some("bad_request")));
    }
}

#[tokio::test]
async fn seat_tokens_are_not_kept_and_invited_seats_are_not_the_creators() {
    let (app, state) = test_app();
    let form = json!({ "seats": [ { "kind": "human", "name": "Ada" }, { "kind": "remote", "name": "Bob" } ] });
    let (id, tokens, created) = create(&app, form).await;
    assert_eq!(created["you"], json!([0]));
    assert_eq!(created["players"][1]["remote"], true);
    assert_eq!(created["players"][1]["online"], false);
    let (ada, bob) = (tokens[0].clone().unwrap(), tokens[1].clone().unwrap());
    assert_eq!(bob.len(), 32, "128 bits in hex");
    assert_ne!(ada, bob);
    // What is stored holds neither token.
    let stored = state.store().games.load(&id).await.unwrap().unwrap();
    let seats = serde_json::to_string(&stored.seats).unwrap();
    assert!(!seats.contains(&ada) && !seats.contains(&bob), "{seats}");
    // Bob's link seats him (and only him).
    let s = state_json_for(&app, &id, &bob).await;
    assert_eq!(s["you"], json!([1]));
    let (status, v) = post_move(&app, &id, &bob, &pick_move(&state_json_for(&app, &id, &ada).await, 0, false)).await;
    assert_eq!((status, v["error"].as_str()), (StatusCode::CONFLICT, Some("not_your_turn")));
}

async fn state_json_for(app: &axum::Router, id: &str, token: &str) -> Value {
    state(app, id, Some(token)).await
}

#[tokio::test]
async fn too_many_requests_are_refused_and_change_nothing() {
    let store: Store = Store::in_memory().unwrap();
    let config = Config { http_rate: Some(carcassonne_server::Rate { per_second: 1, burst: 5 }), ..Config::quick() };
    let app = carcassonne_server::app(AppState::new(store, config));
    let mut codes = Vec::new();
    for _ in 0..8 {
        let (status, v) = call(&app, "POST", "/api/games", Some(&two_humans().to_string())).await;
        codes.push((status.as_u16(), v["error"].as_str().map(str::to_string)));
    }
    assert_eq!(codes.iter().filter(|c| c.0 == 201).count(), 5, "{codes:?}");
    assert!(codes[5..].iter().all(|c| c.0 == 429 && c.1.as_deref() == Some("rate_limited")), "{codes:?}");
    let (_, list) = call(&app, "GET", "/api/games", None).await;
    assert_eq!(list["error"], "rate_limited");
    // Pages are not API calls: the UI still loads.
    let (status, _) = call_raw(&app, "GET", "/", None).await;
    assert_eq!(status, StatusCode::OK);
}

/// Names are cleaned of what could make one player pass for another, and
/// two seats never share one.
#[tokio::test]
async fn names_cannot_pose_as_another_player() {
    let (app, server) = test_app();
    let seats =
        |a: &str, b: &str| json!({ "seats": [ { "kind": "human", "name": a }, { "kind": "human", "name": b } ] });

    // A right-to-left override and zero-width characters are dropped.
    let (_, _, state) = create(&app, seats("\u{202E}adA\u{202C}", "B\u{200B}ob")).await;
    assert_eq!(state["players"][0]["name"], "adA");
    assert_eq!(state["players"][1]["name"], "Bob");

    // The same name, in another case, in full-width letters or with a hidden
    // character, is refused, and no game is made.
    let before = server.store().games.list(10).await.unwrap().len();
    for twin in ["ADA", "\u{FF21}\u{FF44}\u{FF41}", "A\u{200D}da", " Ada "] {
        let (status, v) = call(&app, "POST", "/api/games", Some(&seats("Ada", twin).to_string())).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{twin:?}: {v}");
        assert_eq!(v["error"], "bad_request", "{v}");
        assert!(v["message"].as_str().unwrap().contains("already the name of seat 1"), "{v}");
    }
    assert_eq!(server.store().games.list(10).await.unwrap().len(), before);

    // A default name steps aside for a name a seat has taken.
    let body = json!({ "seats": [ { "kind": "human", "name": "Player 2" }, { "kind": "human" } ] });
    let (_, _, state) = create(&app, body).await;
    assert_eq!(state["players"][1]["name"], "Player 2 2");
}

/// The games list shows a visitor the public games and the games they name
/// (those they hold a seat in), never every game on the server.
#[tokio::test]
async fn the_games_list_holds_the_visitors_games_and_the_public_ones() {
    let (app, _) = test_app();
    let (mine, _, _) = create(&app, two_humans()).await;
    let (other, _, _) = create(&app, two_humans()).await;
    let mut public_form = two_humans();
    public_form["public"] = true.into();
    let (public, _, _) = create(&app, public_form).await;
    let ids = |list: &Value| -> Vec<String> {
        let mut v: Vec<String> =
            list["games"].as_array().unwrap().iter().map(|g| g["id"].as_str().unwrap().to_string()).collect();
        v.sort();
        v
    };
    let sorted = |mut v: Vec<String>| {
        v.sort();
        v
    };
    let (status, list) = call(&app, "GET", "/api/games", None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(ids(&list), vec![public.clone()], "a stranger sees the public game only");
    assert_eq!(list["games"][0]["public"], true);
    let (_, list) = call(&app, "GET", &format!("/api/games?ids={mine}"), None).await;
    assert_eq!(ids(&list), sorted(vec![mine.clone(), public.clone()]));
    let (_, list) = call(&app, "GET", &format!("/api/games?ids={mine}%2C{other},nosuchgame,../etc"), None).await;
    assert_eq!(ids(&list), sorted(vec![mine, other, public]));
    // Junk is ignored, not an error.
    let (status, _) = call(&app, "GET", &format!("/api/games?ids={}", "x,".repeat(5000)), None).await;
    assert_eq!(status, StatusCode::OK);
}

/// An unfinished game without a move for the configured time is deleted as
/// abandoned; a finished one is not.
#[tokio::test]
async fn abandoned_games_expire() {
    let config = Config { expire_after: Some(std::time::Duration::from_millis(1)), ..Config::quick() };
    let server = AppState::new(Store::in_memory().unwrap(), config);
    let app = carcassonne_server::app(server.clone());
    let (id, _, _) = create(&app, two_humans()).await;
    let bots = json!({ "seats": [ { "kind": "bot", "level": "random" }, { "kind": "bot", "level": "random" } ] });
    let (done, _, _) = create(&app, bots).await;
    // The bots' game plays to its end.
    for _ in 0..3000 {
        if state(&app, &done, None).await["status"] == "finished" {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    assert_eq!(server.sweeps.expire_abandoned().await.unwrap(), 1);
    let (status, v) = call(&app, "GET", &format!("/api/games/{id}"), None).await;
    assert_eq!((status, v["error"].as_str()), (StatusCode::NOT_FOUND, Some("not_found")));
    assert_eq!(call(&app, "GET", &format!("/api/games/{done}"), None).await.0, StatusCode::OK);
}

#[tokio::test]
async fn a_rules_page_reads_any_code_and_refuses_plainly_what_it_cannot() {
    let (app, _) = test_app();
    let rules = carcassonne::Rules::parse("first-edition,river=true,hand=2").unwrap();
    let (status, page) = call(&app, "GET", &format!("/api/rules/{}", rules.to_code()), None).await;
    assert_eq!(status, StatusCode::OK, "{page}");
    assert_eq!(page["text"], rules.to_string());
    assert_eq!(page["rules"], json!({ "preset": "first-edition", "river": true, "hand": 2 }));
    assert_eq!(page["farms"]["rule"], "per-city");
    assert!(page["summary"].as_array().unwrap().iter().any(|s| s["title"] == "Farms"));
    let river = page["options"].as_array().unwrap().iter().find(|o| o["key"] == "river").unwrap();
    assert_eq!((river["value"].clone(), river["changed"].clone()), (json!(true), json!(true)));

    let built = json!({ "preset": "first-edition", "river": true, "hand": 2 }).to_string();
    let (status, same) = call(&app, "POST", "/api/rules", Some(&built)).await;
    assert_eq!((status, &same), (StatusCode::OK, &page), "a rule set being built has the same page");
    let (status, _) = call(&app, "POST", "/api/rules", Some(r#"{"hand": 9}"#)).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);

    // The rules in words, as the command line writes them, have the same page.
    let (status, words) = call(&app, "GET", "/api/rules/first-edition,river=true,hand=2", None).await;
    assert_eq!((status, &words), (StatusCode::OK, &page));
    let (status, big) = call(&app, "GET", "/api/rules/big-box", None).await;
    assert_eq!((status, big["rules"].clone()), (StatusCode::OK, json!({ "preset": "big-box" })), "{big}");
    assert_eq!(big["code"], carcassonne::Rules::parse("big-box").unwrap().to_code());

    let (status, err) = call(&app, "GET", "/api/rules/not-a-code", None).await;
    assert_eq!((status, err["error"].as_str()), (StatusCode::BAD_REQUEST, Some("bad_rules_code")));
    // Version 2: from a later version of the game.
    let (status, err) = call(&app, "GET", "/api/rules/AgAAAQAA", None).await;
    assert_eq!((status, err["error"].as_str()), (StatusCode::BAD_REQUEST, Some("later_rules_code")), "{err}");
    assert!(err["message"].as_str().unwrap().contains("later version"));
}

#[tokio::test]
async fn the_game_state_carries_its_rules_code() {
    let (app, _) = test_app();
    let (_, _, s) =
        create(&app, json!({ "seats": [ { "kind": "human" }, { "kind": "bot" } ], "rules": { "abbot": true } })).await;
    let code = s["rules_code"].as_str().unwrap();
    assert_eq!(carcassonne::Rules::from_code(code).unwrap(), carcassonne::Rules::parse("standard,abbot=true").unwrap());
    assert_eq!(s["expansions"], json!([]), "and the expansions it plays: none");
}

#[tokio::test]
async fn saved_rule_sets_are_kept_per_visitor_renamed_and_deleted() {
    let (app, _) = test_app();
    let code = carcassonne::Rules::parse("standard,hand=3").unwrap().to_code();
    let body = json!({ "name": "  Our table's rules ", "code": code }).to_string();
    let (status, saved) = call(&app, "POST", "/api/rulesets", Some(&body)).await;
    assert_eq!(status, StatusCode::CREATED, "{saved}");
    let key = saved["key"].as_str().unwrap().to_string();
    assert_eq!(saved["set"]["name"], "Our table's rules");
    let id = saved["set"]["id"].as_str().unwrap().to_string();

    let (_, list) = call(&app, "GET", &format!("/api/rulesets?key={key}"), None).await;
    assert_eq!(list["sets"].as_array().unwrap().len(), 1);
    assert_eq!(list["sets"][0]["code"], code.as_str());
    let (_, other) = call(&app, "GET", &format!("/api/rulesets?key={}", "0".repeat(32)), None).await;
    assert_eq!(other["sets"], json!([]), "another visitor sees nothing");

    // Bad input changes nothing.
    for bad in [
        json!({ "name": "x", "code": "garbage!", "key": key }),
        json!({ "name": "\u{200b}", "code": code, "key": key }),
        json!({ "name": "x", "code": code, "key": "not-a-key" }),
        json!({ "name": "x", "code": code, "key": key, "extra": 1 }),
    ] {
        let (status, _) = call(&app, "POST", "/api/rulesets", Some(&bad.to_string())).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{bad}");
    }
    let rename = json!({ "key": "0".repeat(32), "name": "Theirs" }).to_string();
    let (status, _) = call(&app, "POST", &format!("/api/rulesets/{id}"), Some(&rename)).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "only the owner renames");
    let rename = json!({ "key": key, "name": "Friday night" }).to_string();
    let (status, _) = call(&app, "POST", &format!("/api/rulesets/{id}"), Some(&rename)).await;
    assert_eq!(status, StatusCode::OK);
    let (_, list) = call(&app, "GET", &format!("/api/rulesets?key={key}"), None).await;
    assert_eq!(list["sets"][0]["name"], "Friday night");

    // A visitor keeps a bounded number.
    for i in 1..carcassonne_server::MAX_SAVED_RULES {
        let body = json!({ "name": format!("set {i}"), "code": code, "key": key }).to_string();
        assert_eq!(call(&app, "POST", "/api/rulesets", Some(&body)).await.0, StatusCode::CREATED);
    }
    let body = json!({ "name": "one too many", "code": code, "key": key }).to_string();
    let (status, err) = call(&app, "POST", "/api/rulesets", Some(&body)).await;
    assert_eq!((status, err["error"].as_str()), (StatusCode::TOO_MANY_REQUESTS, Some("quota_exceeded")));

    let delete = json!({ "key": key, "delete": true }).to_string();
    assert_eq!(call(&app, "POST", &format!("/api/rulesets/{id}"), Some(&delete)).await.0, StatusCode::OK);
    assert_eq!(call(&app, "POST", &format!("/api/rulesets/{id}"), Some(&delete)).await.0, StatusCode::NOT_FOUND);
    let (_, list) = call(&app, "GET", &format!("/api/rulesets?key={key}"), None).await;
    assert_eq!(list["sets"].as_array().unwrap().len(), carcassonne_server::MAX_SAVED_RULES - 1);
}

#[tokio::test]
async fn static_files_and_fixed_json_go_compressed_and_revalidate_by_etag() {
    use axum::body::Body;
    use axum::http::Request;
    use http_body_util::BodyExt;
    use tower::ServiceExt;
    let (app, _) = test_app();
    let get = |uri: &str, headers: &[(&str, &str)]| {
        let mut req = Request::builder().uri(uri);
        for (k, v) in headers {
            req = req.header(*k, *v);
        }
        app.clone().oneshot(req.body(Body::empty()).unwrap())
    };
    for uri in ["/js/game.js", "/css/style.css", "/api/tiles", "/api/options", "/"] {
        let plain = get(uri, &[]).await.unwrap();
        assert_eq!(plain.status(), StatusCode::OK, "{uri}");
        assert!(plain.headers().get("content-encoding").is_none());
        let etag = plain.headers()["etag"].to_str().unwrap().to_string();
        assert_eq!(plain.headers()["cache-control"], "no-cache", "{uri}");
        let plain_len = plain.into_body().collect().await.unwrap().to_bytes().len();
        for encoding in ["br", "gzip"] {
            let packed = get(uri, &[("accept-encoding", encoding)]).await.unwrap();
            assert_eq!(packed.headers()["content-encoding"], encoding, "{uri}");
            let len = packed.into_body().collect().await.unwrap().to_bytes().len();
            assert!(len < plain_len, "{uri} in {encoding}: {len} of {plain_len} bytes");
        }
        let again = get(uri, &[("if-none-match", &etag)]).await.unwrap();
        assert_eq!(again.status(), StatusCode::NOT_MODIFIED, "{uri}");
        assert!(again.into_body().collect().await.unwrap().to_bytes().is_empty());
    }
}

#[tokio::test]
async fn one_address_saves_a_bounded_number_of_rule_sets_whatever_the_keys() {
    use axum::body::Body;
    use axum::extract::ConnectInfo;
    use axum::http::Request;
    use tower::ServiceExt;
    let (app, _) = test_app();
    let code = carcassonne::Rules::default().to_code();
    let from = |ip: &str| {
        let addr: std::net::SocketAddr = format!("{ip}:5000").parse().unwrap();
        let body = json!({ "name": "ours", "code": code }).to_string();
        let mut req =
            Request::post("/api/rulesets").header("content-type", "application/json").body(Body::from(body)).unwrap();
        req.extensions_mut().insert(ConnectInfo(addr));
        app.clone().oneshot(req)
    };
    // Each save without a key makes a new visitor: the address is what is bounded.
    for _ in 0..carcassonne_server::SAVES_PER_HOUR {
        assert_eq!(from("203.0.113.7").await.unwrap().status(), StatusCode::CREATED);
    }
    assert_eq!(from("203.0.113.7").await.unwrap().status(), StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(from("203.0.113.8").await.unwrap().status(), StatusCode::CREATED, "another address is not held back");
}

//! The Big Box (Inns & Cathedrals and Traders & Builders) in the web game:
//! a game made through the API and played to the end against bots, with
//! what the page needs in every state (each seat's figures and goods, the
//! big follower's, builder's and pig's spots, the builder's second tile),
//! and bots alone playing it.

mod common;

use axum::http::StatusCode;
use common::*;
use serde_json::{json, Value};

/// A legal move trying the Big Box's figures along a game: by turn `k` the
/// big follower, the builder, the pig or a follower, where one may go; and
/// the builder's second tile says so (`bonus`).
fn box_move(state: &Value, k: usize) -> Value {
    let legal = state["legal"].as_array().expect("legal moves for the player to move");
    let p = &legal[(k * 7) % legal.len()];
    let mut mv = json!({ "version": state["version"], "tile": p["tile"], "at": p["at"], "rot": p["rot"] });
    if let Some(bonus) = state["turn"]["bonus"].as_str() {
        mv["bonus"] = bonus.into();
    }
    let order =
        [["big", "builder", "pig", "meeple"], ["builder", "pig", "meeple", "big"], ["pig", "meeple", "big", "builder"]];
    for key in order[k % 3] {
        if let Some(s) = p[key].as_array().and_then(|s| s.first()) {
            mv[key] = s.clone();
            break;
        }
    }
    mv
}

/// What one game showed: how often each rare event happened.
struct Seen {
    /// Placements offering the big follower's, builder's and pig's spots.
    offered: [usize; 3],
    /// Big followers, builders and pigs deployed.
    deployed: [usize; 3],
    /// Second tiles the builder gave (anyone's).
    seconds: usize,
    /// Goods taken with completed cities, and majorities paid at the end.
    goods: [usize; 2],
}

impl Seen {
    fn all(&self) -> bool {
        self.offered.iter().chain(&self.deployed).chain(&self.goods).all(|&n| n > 0) && self.seconds > 0
    }
}

/// Plays one Big Box game of Ada against an easy and a random bot through
/// the API to its end, checks what must hold in every game, and returns
/// what happened in it.
async fn play_big_box_game() -> Seen {
    let (app, _) = test_app();
    let body = json!({
        "seats": [
            { "kind": "human", "name": "Ada" },
            { "kind": "bot", "level": "easy" },
            { "kind": "bot", "level": "random" },
        ],
        "rules": { "preset": "big-box" },
    });
    let (id, tokens, first) = create(&app, body).await;
    let token = tokens[0].clone().unwrap();
    assert_eq!(first["expansions"], json!(["inns_cathedrals", "traders_builders"]));
    for p in first["players"].as_array().unwrap() {
        assert_eq!(
            json!([p["supply"], p["big"], p["builder"], p["pig"], p["abbot"], p["goods"]]),
            json!([7, true, true, true, true, [0, 0, 0]]),
            "every figure at home, no goods: {p}"
        );
    }
    let (mut k, mut offered, mut bonuses, mut refused) = (0, [0usize; 3], 0, false);
    loop {
        let s = wait_for(&app, &id, Some(&token), |s| {
            s["status"] == "finished" || (s["turn"]["seat"] == 0 && s["legal"].is_array())
        })
        .await;
        if s["status"] == "finished" {
            break;
        }
        for p in s["legal"].as_array().unwrap() {
            for (i, key) in ["big", "builder", "pig"].into_iter().enumerate() {
                offered[i] += usize::from(p[key].as_array().is_some_and(|s| !s.is_empty()));
            }
        }
        let mv = box_move(&s, k);
        if s["turn"]["bonus"] == "builder" {
            bonuses += 1;
            // The second tile's move must say it is one: refused, nothing changed.
            let mut plain = mv.clone();
            plain.as_object_mut().unwrap().remove("bonus");
            let (status, err) = post_move(&app, &id, &token, &plain).await;
            assert_eq!(
                (status, err["error"].as_str()),
                (StatusCode::UNPROCESSABLE_ENTITY, Some("illegal_move")),
                "{err}"
            );
            refused = true;
        }
        let (status, after) = post_move(&app, &id, &token, &mv).await;
        assert_eq!(status, StatusCode::OK, "{mv} {after}");
        k += 1;
    }
    let end = state(&app, &id, None).await;
    let log = end["log"].as_array().unwrap();
    let figures = |role: &str| log.iter().filter(|e| e["type"] == "deploy" && e["role"] == role).count();
    let big = log.iter().filter(|e| e["type"] == "deploy" && e["big"] == true).count();
    // The builder's second tiles: the log marks each; Ada's were said in her state (and refused without `bonus`).
    let seconds = log.iter().filter(|e| e["type"] == "tile" && e["bonus"] == "builder").count();
    assert!(seconds >= bonuses, "Ada's second tiles are in the log: {seconds} < {bonuses}");
    assert_eq!(refused, bonuses > 0);
    // Goods taken with completed cities pay no points; at the end each kind's majority pays 10.
    let taken: Vec<&Value> = log.iter().filter(|e| e["kind"] == "goods" && e["when"] == "completed").collect();
    assert!(taken.iter().all(|e| e["points"].is_null() && e["goods"].is_object()));
    let finals: Vec<&Value> = log.iter().filter(|e| e["kind"] == "goods" && e["when"] == "final").collect();
    for e in &finals {
        assert_eq!(e["points"], 10, "{e}");
        assert!(["wine", "wheat", "cloth"].contains(&e["good"].as_str().unwrap()), "{e}");
        let count = e["count"].as_u64().unwrap();
        for seat in e["to"].as_array().unwrap() {
            let held = &end["players"][seat.as_u64().unwrap() as usize]["goods"];
            let i = ["wine", "wheat", "cloth"].iter().position(|g| e["good"] == *g).unwrap();
            assert_eq!(held[i].as_u64(), Some(count), "the majority's holder holds the count: {e}");
        }
    }
    // The goods' points show in the breakdown, which adds up to the scores.
    let goods_points: u64 =
        end["breakdown"].as_array().unwrap().iter().filter_map(|b| b["final"]["goods"].as_u64()).sum();
    assert_eq!(goods_points, finals.iter().map(|e| 10 * e["to"].as_array().unwrap().len() as u64).sum::<u64>());
    assert_breakdown_adds_up(&end);
    // The record replays to the same end.
    let (status, bytes) = call_raw(&app, "GET", &format!("/api/games/{id}/record"), None).await;
    assert_eq!(status, StatusCode::OK);
    let record = carcassonne::record::Record::from_json(std::str::from_utf8(&bytes).unwrap()).unwrap();
    let (status, replay) = call(&app, "POST", "/api/replay", Some(&record.to_json())).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        replay["steps"].as_array().unwrap().last().unwrap()["scores"],
        json!(end["score_history"].as_array().unwrap().last().unwrap())
    );
    Seen { offered, deployed: [big, figures("builder"), figures("pig")], seconds, goods: [taken.len(), finals.len()] }
}

/// The server deals from a secret seed, so one game may by chance lack a
/// builder's second tile or a goods majority: games are played (each one
/// checked through) until one shows every figure played, a second tile and
/// goods taken and paid — nearly always the first, within six by far.
#[tokio::test]
async fn a_big_box_game_against_bots_plays_to_the_end_through_the_api() {
    let mut seen = Vec::new();
    for _ in 0..6 {
        let game = play_big_box_game().await;
        let all = game.all();
        seen.push(format!(
            "offered {:?} deployed {:?} seconds {} goods {:?}",
            game.offered, game.deployed, game.seconds, game.goods
        ));
        if all {
            return;
        }
    }
    panic!("no game of six showed every Big Box figure played, a second tile and goods: {seen:#?}");
}

/// A game of bots alone (one of each built-in level's quick search and the
/// random bot) plays the Big Box to its end.
#[tokio::test]
async fn bots_alone_play_the_big_box() {
    let (app, _) = test_app();
    let body = json!({
        "seats": [ { "kind": "bot", "level": "hard" }, { "kind": "bot", "level": "random" }, { "kind": "bot", "level": "easy" } ],
        "rules": { "preset": "big-box" },
    });
    let (status, v) = call(&app, "POST", "/api/games", Some(&body.to_string())).await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    let id = v["id"].as_str().unwrap().to_string();
    let end = wait_for(&app, &id, None, |s| s["status"] == "finished").await;
    assert!(end["log"].as_array().unwrap().iter().any(|e| e["type"] == "end"));
}

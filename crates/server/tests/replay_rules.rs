//! `POST /api/replay` refusing a record: the refusal carries the rule the
//! move breaks as a stable code (`rule`, the engine's), the parts a
//! sentence needs (`facts`) and the move's number (`move`), besides the
//! message — so that a client never parses the words.

mod common;

use axum::http::StatusCode;
use carcassonne::record::{Record, RecordMove};
use carcassonne::{Action, Game, IllegalMove, Move, Pos, Rotation, Rules, Setup, Spot};
use common::*;
use serde_json::Value;

/// The record of `game` with `mv` after its moves, replayed by the server.
async fn replay_with(app: &axum::Router, game: &Game, mv: &Move) -> (StatusCode, Value) {
    let mut record = Record::from_game(game, &["Ada".to_string(), "Bob".to_string()]);
    record.moves.push(RecordMove::from_move(mv));
    call(app, "POST", "/api/replay", Some(&record.to_json())).await
}

#[tokio::test]
async fn a_refused_move_names_its_rule_and_its_facts() {
    let (app, _) = test_app();
    // A tile that does not fit next to the start.
    let mut checked = false;
    for seed in 0..20 {
        let game = Game::new(Setup::standard(Rules::default(), 2, seed)).unwrap();
        let tile = game.tile().unwrap();
        let cells = [Pos::new(0, -1), Pos::new(1, 0), Pos::new(0, 1), Pos::new(-1, 0)];
        let Some(mv) = cells
            .iter()
            .flat_map(|&pos| Rotation::ALL.map(|rot| Move { tile, pos, rot, action: Action::Pass, bonus: None }))
            .find(|mv| matches!(game.check(mv), Err(IllegalMove::EdgeMismatch { .. })))
        else {
            continue;
        };
        let (status, v) = replay_with(&app, &game, &mv).await;
        assert_eq!(
            (status, v["error"].as_str(), v["rule"].as_str()),
            (StatusCode::BAD_REQUEST, Some("bad_request"), Some("edge_mismatch")),
            "{v}"
        );
        assert_eq!(v["move"], 1, "{v}");
        let Err(IllegalMove::EdgeMismatch { side, ours, theirs, .. }) = game.check(&mv) else { unreachable!() };
        assert_eq!(v["facts"]["side"], side.word(), "{v}");
        assert_eq!(v["facts"]["ours"], ours.word(), "{v}");
        assert_eq!(v["facts"]["theirs"], theirs.word(), "{v}");
        assert!(v["message"].as_str().unwrap().starts_with("move 1: "), "{v}");
        checked = true;
        break;
    }
    assert!(checked, "some first tile does not fit some way next to the start");

    // A follower on a feature that holds one.
    let mut game = Game::new(Setup::standard(Rules::default(), 2, 4)).unwrap();
    let occupied = 'play: loop {
        for mv in game.legal_moves().into_iter().filter(|m| m.action == Action::Pass) {
            for spot in Spot::all() {
                let with = Move { action: Action::Follower(spot), ..mv };
                if let Err(IllegalMove::FeatureOccupied { kind, .. }) = game.check(&with) {
                    break 'play (with, kind);
                }
            }
        }
        let moves = game.legal_moves();
        let mv = moves.iter().find(|m| matches!(m.action, Action::Follower(_))).unwrap_or(&moves[0]);
        game.play(mv).unwrap();
        assert!(!game.is_over());
    };
    let (status, v) = replay_with(&app, &game, &occupied.0).await;
    assert_eq!((status, v["rule"].as_str()), (StatusCode::BAD_REQUEST, Some("feature_occupied")), "{v}");
    assert_eq!(v["facts"]["feature"], occupied.1.word(), "{v}");
    assert_eq!(v["move"], game.moves_played() + 1, "{v}");

    // A tile far from the others: a rule with no facts.
    let bad = r#"{ "format": 1, "players": ["A", "B"], "deck": ["E"], "moves": [ { "tile": "E", "at": [5, 5], "rot": 0 } ] }"#;
    let (status, v) = call(&app, "POST", "/api/replay", Some(bad)).await;
    assert_eq!(
        (status, v["rule"].as_str(), v["move"].as_u64()),
        (StatusCode::BAD_REQUEST, Some("not_adjacent"), Some(1)),
        "{v}"
    );
    assert!(v.get("facts").is_none(), "{v}");
    // A record that does not read, or a move that names no tile: no rule.
    let (status, v) = call(&app, "POST", "/api/replay", Some("not a record")).await;
    assert_eq!((status, v["error"].as_str()), (StatusCode::BAD_REQUEST, Some("bad_request")));
    assert!(v.get("rule").is_none(), "{v}");
    let unknown = r#"{ "format": 1, "players": ["A", "B"], "deck": ["E"], "moves": [ { "tile": "ZZ", "at": [0, 1], "rot": 0 } ] }"#;
    let (status, v) = call(&app, "POST", "/api/replay", Some(unknown)).await;
    assert_eq!((status, v["move"].as_u64()), (StatusCode::BAD_REQUEST, Some(1)), "{v}");
    assert!(v.get("rule").is_none(), "{v}");
}

/// A move refused in a game in play carries its facts too.
#[tokio::test]
async fn an_illegal_move_in_play_carries_its_facts() {
    let (app, _) = test_app();
    for _ in 0..10 {
        let (id, tokens, s) = create(&app, two_humans()).await;
        let seat = s["turn"]["seat"].as_u64().unwrap() as usize;
        let token = tokens[seat].clone().unwrap();
        let legal = s["legal"].as_array().unwrap();
        let tile = s["turn"]["tiles"][0].clone();
        // A rotation of the tile at a legal cell that the legal list does not hold.
        for p in legal {
            for rot in 0..4 {
                if legal.iter().any(|q| q["at"] == p["at"] && q["rot"] == rot) {
                    continue;
                }
                let mv = serde_json::json!({ "version": s["version"], "tile": tile, "at": p["at"], "rot": rot });
                let (status, v) = post_move(&app, &id, &token, &mv).await;
                assert_eq!(
                    (status, v["rule"].as_str()),
                    (StatusCode::UNPROCESSABLE_ENTITY, Some("edge_mismatch")),
                    "{v}"
                );
                for k in ["side", "ours", "theirs"] {
                    assert!(v["facts"][k].is_string(), "{v}");
                }
                return;
            }
        }
    }
    panic!("ten first tiles fit every way at every cell");
}

/// The placements (tile, cell, turn) of a list of moves, as JSON, sorted and once each.
fn placements(moves: impl Iterator<Item = Value>) -> Vec<String> {
    let mut out: Vec<String> = moves.map(|m| serde_json::json!([m["tile"], m["at"], m["rot"]]).to_string()).collect();
    out.sort();
    out.dedup();
    out
}

#[tokio::test]
async fn a_replayed_position_lists_where_the_tile_to_play_fits() {
    // (The tutorial and the puzzles light only those cells.)
    let (app, _) = test_app();
    let names = ["Ada".to_string(), "Bob".to_string()];
    for (seed, rules) in [(3, Rules::default()), (5, Rules { river: true, abbot: true, ..Rules::default() })] {
        let mut game = Game::new(Setup::standard(rules, 2, seed)).unwrap();
        for turn in 0..6 {
            let (status, v) =
                call(&app, "POST", "/api/replay", Some(&Record::from_game(&game, &names).to_json())).await;
            assert_eq!(status, StatusCode::OK, "{v}");
            let listed = placements(v["legal"].as_array().expect("a list").iter().cloned());
            let engine =
                placements(game.legal_moves().iter().map(|m| serde_json::to_value(RecordMove::from_move(m)).unwrap()));
            assert!(!engine.is_empty());
            assert_eq!(listed, engine, "seed {seed}, turn {turn}");
            let moves = game.legal_moves();
            game.play(&moves[turn % moves.len()]).unwrap();
        }
    }
    // A game over: nothing to place.
    let mut game = Game::new(Setup::standard(Rules::default(), 2, 1)).unwrap();
    while !game.is_over() {
        let mv = game.legal_moves()[0];
        game.play(&mv).unwrap();
    }
    let (status, v) = call(&app, "POST", "/api/replay", Some(&Record::from_game(&game, &names).to_json())).await;
    assert_eq!((status, v["legal"].as_array().map(Vec::len)), (StatusCode::OK, Some(0)), "{v}");
}

//! A game survives the server: a new server on the same database file
//! carries on where the old one stopped, bots included.

mod common;

use std::time::Duration;

use axum::http::StatusCode;
use carcassonne_server::Store;
use common::*;
use serde_json::json;

#[tokio::test]
async fn a_game_continues_after_a_restart() {
    let db = TempDb::new("restart");
    let (id, tokens, before) = {
        let store: Store = Store::sqlite(&db.0).unwrap();
        let (app, _) = with_store(store, Duration::ZERO);
        let (id, tokens, _) = create(&app, two_humans()).await;
        for i in 0..5 {
            let s = state(&app, &id, Some(&format!("{},{}", tokens[0].as_ref().unwrap(), tokens[1].as_ref().unwrap())))
                .await;
            let seat = s["turn"]["seat"].as_u64().unwrap() as usize;
            let (status, _) = post_move(&app, &id, tokens[seat].as_ref().unwrap(), &pick_move(&s, i, true)).await;
            assert_eq!(status, StatusCode::OK);
        }
        let before = state(&app, &id, Some(tokens[1].as_ref().unwrap())).await;
        (id, tokens, before)
        // The server, its store and its connection are dropped here.
    };

    // (Tasks of the first server may still hold its file for a moment.)
    let mut reopened = Store::sqlite(&db.0);
    for _ in 0..100 {
        if reopened.is_ok() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
        reopened = Store::sqlite(&db.0);
    }
    let store: Store = reopened.unwrap();
    let (app, _) = with_store(store, Duration::ZERO);
    let after = state(&app, &id, Some(tokens[1].as_ref().unwrap())).await;
    for key in ["version", "board", "followers", "players", "turn", "legal", "remaining", "log", "score_history"] {
        assert_eq!(after[key], before[key], "{key} differs after the restart");
    }
    assert_eq!(after["version"], 5);
    // The same tokens still hold their seats, and play on.
    let seat = after["turn"]["seat"].as_u64().unwrap() as usize;
    let (status, v) = post_move(&app, &id, tokens[seat].as_ref().unwrap(), &pick_move(&after, 0, false)).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["version"], 6);
    let (_, list) = call(&app, "GET", &format!("/api/games?ids={id}"), None).await;
    assert_eq!(list["games"][0]["moves"], 6);
}

#[test]
fn a_bot_whose_turn_it_was_moves_after_a_restart() {
    let db = TempDb::new("restart-bot");
    // The first server runs on a runtime of its own, which stops (as a
    // process would) while its bot is thinking: bots that take an hour.
    let first = tokio::runtime::Runtime::new().unwrap();
    let (id, token) = first.block_on(async {
        let store: Store = Store::sqlite(&db.0).unwrap();
        let (app, _) = with_store(store, Duration::from_secs(3600));
        let (id, tokens, s) = create(
            &app,
            json!({ "seats": [ { "kind": "human", "name": "Ada" }, { "kind": "bot", "level": "random" } ] }),
        )
        .await;
        let token = tokens[0].clone().unwrap();
        let (status, _) = post_move(&app, &id, &token, &pick_move(&s, 0, false)).await;
        assert_eq!(status, StatusCode::OK);
        let v = wait_for(&app, &id, None, |s| s["thinking"] == 1).await;
        assert_eq!(v["version"], 1);
        (id, token)
    });
    drop(first);
    tokio::runtime::Runtime::new().unwrap().block_on(async {
        let store: Store = Store::sqlite(&db.0).unwrap();
        let (app, state) = with_store(store, Duration::ZERO);
        // Resumed when the server starts, before anyone opens the game.
        assert_eq!(state.bots.resume().await.unwrap(), 1);
        let s = wait_for(&app, &id, Some(&token), |s| s["version"] == 2 && s["thinking"].is_null()).await;
        assert_eq!(s["turn"]["seat"], 0);
        assert!(s["legal"].as_array().is_some_and(|l| !l.is_empty()));
    });
}

#[test]
fn a_database_from_a_newer_version_is_refused() {
    let db = TempDb::new("newer");
    drop(Store::sqlite(&db.0).unwrap());
    let conn = rusqlite::Connection::open(&db.0).unwrap();
    conn.pragma_update(None, "user_version", 999).unwrap();
    drop(conn);
    let err = Store::sqlite(&db.0).err().expect("a newer schema is refused");
    assert!(err.to_string().contains("newer"), "{err}");
}

//! `carcassonne puzzles`: puzzles from a record and from the bots' games,
//! written as JSON whose positions replay and whose answers are legal;
//! nothing to look in, or a bad record, is refused with a clear error.

use std::process::Command;

use carcassonne::record::Record;
use serde_json::Value;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_carcassonne"))
}

fn temp_dir(name: &str) -> std::path::PathBuf {
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos();
    let dir = std::env::temp_dir().join(format!("carcassonne-puzzles-{name}-{}-{nanos}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn puzzles_from_a_record_and_a_bot_game_replay_with_their_answers() {
    let dir = temp_dir("ok");
    let game = dir.join("game.json");
    assert!(bin().args(["play", "--seed", "4", "--save"]).arg(&game).output().unwrap().status.success());
    let out = dir.join("puzzles.json");
    let small = ["--samples", "12", "--screen", "2", "--keep", "3", "--gap", "1", "--max-per-game", "4"];
    let run = bin()
        .arg("puzzles")
        .arg(&game)
        .args(["--games", "1", "--bots", "random,greedy", "--out"])
        .arg(&out)
        .args(small)
        .output()
        .unwrap();
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(doc["selection"]["min_gap"], 1.0);
    let puzzles = doc["puzzles"].as_array().unwrap();
    assert!(!puzzles.is_empty(), "random players leave clear best moves");
    let sources: std::collections::BTreeSet<&str> = puzzles.iter().map(|p| p["source"].as_str().unwrap()).collect();
    assert!(sources.contains("game"), "the record's puzzles are named by its file: {sources:?}");
    assert!(puzzles.len() <= 8, "at most 4 a game");
    for p in puzzles {
        assert!(p["gap"].as_f64().unwrap() >= 1.0);
        let mut record: Record = serde_json::from_value(p["record"].clone()).unwrap();
        assert!(record.seed.is_none(), "no seed: it would give the bag's order away");
        let game = record.replay().unwrap();
        assert_eq!(game.tile().map(|t| t.name()), p["tile"].as_str());
        record.moves.push(serde_json::from_value(p["best"].clone()).unwrap());
        record.replay().unwrap_or_else(|e| panic!("{}: the answer is legal: {e}", p["id"]));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn nothing_to_look_in_or_a_bad_record_is_refused() {
    let out = bin().arg("puzzles").output().unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--games"), "says what to give");
    let dir = temp_dir("bad");
    let game = dir.join("game.json");
    assert!(bin().args(["play", "--seed", "6", "--save"]).arg(&game).output().unwrap().status.success());
    let mut record: Value = serde_json::from_str(&std::fs::read_to_string(&game).unwrap()).unwrap();
    record["moves"][2]["at"] = serde_json::json!([40, 40]);
    std::fs::write(&game, record.to_string()).unwrap();
    let out = bin().arg("puzzles").arg(&game).output().unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("move 3: "), "names the move");
    assert!(out.stdout.is_empty());
    let _ = std::fs::remove_dir_all(&dir);
}

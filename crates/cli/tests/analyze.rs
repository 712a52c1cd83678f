//! `carcassonne analyze`: a review of every move of a record, as text and
//! JSON; a bad record or budget is refused with a clear error.

use std::process::Command;

use serde_json::Value;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_carcassonne"))
}

/// A played game's record (random players, 2 seats).
fn game(dir: &std::path::Path) -> std::path::PathBuf {
    let path = dir.join("game.json");
    let out = bin().args(["play", "--seed", "6", "--save"]).arg(&path).output().unwrap();
    assert!(out.status.success());
    path
}

fn temp_dir() -> std::path::PathBuf {
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos();
    let dir = std::env::temp_dir().join(format!("carcassonne-analyze-{}-{nanos}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn every_move_is_reviewed_in_json_and_text() {
    let dir = temp_dir();
    let path = game(&dir);
    let record: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let moves = record["moves"].as_array().unwrap();
    let out = bin().arg("analyze").arg(&path).args(["--budget", "60it", "--json", "--threads", "2"]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let review: Value = serde_json::from_slice(&out.stdout).unwrap();
    let reviewed = review["moves"].as_array().unwrap();
    assert_eq!(reviewed.len(), moves.len());
    let mut lost = [0.0, 0.0];
    for (i, m) in reviewed.iter().enumerate() {
        assert_eq!(m["turn"], i + 1);
        assert_eq!(&m["move"], &moves[i], "the move played, in the record's form");
        let (best, played, l) =
            (m["best_margin"].as_f64().unwrap(), m["played_margin"].as_f64().unwrap(), m["lost"].as_f64().unwrap());
        assert!(l >= 0.0 && (best - played - l).abs() < 1e-9, "{m}");
        lost[m["seat"].as_u64().unwrap() as usize] += l;
    }
    // Random players lose points to the search's picks.
    assert!(lost.iter().all(|&l| l > 0.0), "{lost:?}");
    assert!((review["lost"][0].as_f64().unwrap() - lost[0]).abs() < 1e-6);

    let out = bin().arg("analyze").arg(&path).args(["--budget", "40it"]).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("move  player"), "{text}");
    assert_eq!(text.lines().filter(|l| l.trim_start().starts_with(|c: char| c.is_ascii_digit())).count(), moves.len());
    assert!(text.contains("Ada: ") && text.contains("expected points lost"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_bad_record_or_budget_is_refused() {
    let dir = temp_dir().join("bad");
    std::fs::create_dir_all(&dir).unwrap();
    let path = game(&dir);
    let mut record: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    record["moves"][3]["at"] = serde_json::json!([50, 50]);
    std::fs::write(&path, record.to_string()).unwrap();
    let out = bin().arg("analyze").arg(&path).args(["--budget", "10it"]).output().unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("move 4: "), "names the move");
    assert!(out.stdout.is_empty());
    let out = bin().arg("analyze").arg(&path).args(["--budget", "fast"]).output().unwrap();
    assert!(String::from_utf8_lossy(&out.stderr).contains("not a budget"));
    assert!(out.stdout.is_empty());
    let _ = std::fs::remove_dir_all(&dir);
}

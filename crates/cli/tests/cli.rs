//! The binary's contract (record.md): `score` prints JSON on stdout, or on
//! an illegal record exits 2 with one stderr line naming the move and the
//! reason; `replay` draws the board; `rules` round-trips codes.

use std::path::PathBuf;
use std::process::Command;

use serde_json::Value;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_carcassonne"))
}

fn scenarios() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/scenarios")
}

#[test]
fn score_prints_the_json_of_record_md() {
    let out = bin().arg("score").arg(scenarios().join("008-city-three-tiles-one-shield.json")).output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let v: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["finished"], true);
    assert_eq!(v["scores"], serde_json::json!([8, 0]));
    assert_eq!(v["winners"], serde_json::json!([0]));
    // Keys in record.md's order, one event per line.
    assert!(text.starts_with("{\n  \"finished\": true,\n  \"scores\": [8, 0],\n  \"winners\": [0],\n  \"events\": [\n"));
    assert!(text.contains(
        "    { \"turn\": 2, \"kind\": \"city\", \"when\": \"completed\", \"points\": 8, \"to\": [0], \"tiles\": 3, \"shields\": 1 }\n"
    ));
}

#[test]
fn every_illegal_scenario_exits_2_with_one_line_naming_the_move() {
    let mut checked = 0;
    for entry in std::fs::read_dir(scenarios()).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "json") {
            continue;
        }
        let doc: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let Some(err) = doc["expect"].get("error") else { continue };
        let out = bin().arg("score").arg(&path).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{}", path.display());
        assert!(out.stdout.is_empty(), "{}: stdout must stay empty", path.display());
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert_eq!(stderr.lines().count(), 1, "{}: {stderr}", path.display());
        let prefix = match err["move"].as_u64() {
            Some(n) => format!("move {n}: "),
            None => "record: ".to_string(),
        };
        assert!(stderr.starts_with(&prefix), "{}: {stderr}", path.display());
        checked += 1;
    }
    assert!(checked >= 10);
}

#[test]
fn score_refuses_garbage_and_missing_files() {
    let dir = std::env::temp_dir().join(format!("carcassonne-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.json");
    std::fs::write(&bad, "{ not json").unwrap();
    for path in [bad, dir.join("missing.json")] {
        let out = bin().arg("score").arg(&path).output().unwrap();
        assert_eq!(out.status.code(), Some(2));
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert!(stderr.starts_with("record: "), "{stderr}");
    }
}

#[test]
fn replay_draws_the_board_and_the_breakdown() {
    let out = bin()
        .args(["replay", "--step"])
        .arg(scenarios().join("008-city-three-tiles-one-shield.json"))
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("== move 2"), "{text}");
    assert!(text.contains("city of 3 tiles and 1 shields: 8 to"), "{text}");
    assert!(text.contains("winner: "), "{text}");
}

#[test]
fn tiles_go_by_letter_or_course_name() {
    let path = scenarios().join("008-city-three-tiles-one-shield.json");
    let letters = std::fs::read_to_string(&path).unwrap();
    let mut doc: Value = serde_json::from_str(&letters).unwrap();
    // The same record with every tile by its CMSC 22001 name.
    let course = |v: &mut Value| {
        let name = carcassonne::TileId::from_name(v.as_str().unwrap()).unwrap().course_name().unwrap();
        *v = Value::from(name);
    };
    course(&mut doc["start"]["tile"]);
    doc["deck"].as_array_mut().unwrap().iter_mut().for_each(course);
    doc["moves"].as_array_mut().unwrap().iter_mut().for_each(|m| course(&mut m["tile"]));
    let dir = std::env::temp_dir().join(format!("carcassonne-course-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let renamed = dir.join("course.json");
    std::fs::write(&renamed, doc.to_string()).unwrap();
    assert!(doc.to_string().contains("CCFCS50") || doc.to_string().contains("CFFF50"), "{doc}");

    let score = |p: &PathBuf| bin().arg("score").arg(p).output().unwrap();
    let (a, b) = (score(&path), score(&renamed));
    assert!(b.status.success(), "{}", String::from_utf8_lossy(&b.stderr));
    assert_eq!(a.stdout, b.stdout, "the same scores and events, tiles by letter");

    let replay = bin().args(["replay", "--step"]).arg(&renamed).output().unwrap();
    let text = String::from_utf8(replay.stdout).unwrap();
    assert!(text.contains("tiles: ") && text.contains("D (CRFR50)"), "{text}");
    assert!(text.contains("== move 1: Ada plays "), "{text}");
    assert!(text.lines().any(|l| l.starts_with("== move 1") && l.contains(" (") && l.contains("50)")), "{text}");
}

#[test]
fn rules_codes_round_trip_through_the_command() {
    let out = bin().args(["rules", "--preset", "first-edition", "--set", "river=true"]).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let code = text.lines().next().unwrap().strip_prefix("code: ").unwrap().to_string();
    let back = bin().args(["rules", &code]).output().unwrap();
    assert_eq!(String::from_utf8(back.stdout).unwrap(), text);
    assert!(text.contains("\"river\":true"));
    let bad = bin().args(["rules", "not-a-code"]).output().unwrap();
    assert!(!bad.status.success());
}

#[test]
fn a_played_game_saves_a_record_that_scores_the_same() {
    let dir = std::env::temp_dir().join(format!("carcassonne-play-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("game.json");
    let out = bin()
        .args(["play", "--seed", "4", "--players", "3", "--rules", "standard,abbot=true"])
        .arg("--save")
        .arg(&path)
        .output()
        .unwrap();
    assert!(out.status.success());
    let shown = String::from_utf8(out.stdout).unwrap();
    let scored: Value = serde_json::from_slice(&bin().arg("score").arg(&path).output().unwrap().stdout).unwrap();
    let totals: Vec<String> = scored["scores"].as_array().unwrap().iter().map(|v| v.to_string()).collect();
    for (name, total) in ["Ada", "Bob", "Cy"].iter().zip(&totals) {
        let line = shown.lines().find(|l| l.starts_with(name)).unwrap();
        assert!(line.trim_end().ends_with(&format!(" {total}")), "{line} vs {total}");
    }
}

#[test]
fn bench_splits_the_games_over_threads() {
    let text = |out: std::process::Output| String::from_utf8(out.stdout).unwrap();
    let one = text(bin().args(["bench", "--games", "6", "--seed", "3"]).output().unwrap());
    assert!(one.contains("6 random 2-player games (standard)") && one.contains("on one thread"), "{one}");
    // One thread plays the same games however it is asked for.
    let also_one = text(bin().args(["bench", "--games", "6", "--seed", "3", "--threads", "1"]).output().unwrap());
    let points = |s: &str| s.lines().find(|l| l.starts_with("mean moves/game")).map(str::to_string);
    assert_eq!(points(&one), points(&also_one));
    let two = text(bin().args(["bench", "--games", "6", "--threads", "2"]).output().unwrap());
    assert!(two.contains("on 2 threads") && two.contains("per thread:"), "{two}");
    let none = bin().args(["bench", "--games", "0"]).output().unwrap();
    assert!(!none.status.success());
}

/// `carcassonne score` prints, for every scenario written before the
/// expansions, exactly what it printed then (stdout, or the stderr line of
/// a refusal): tests/scenarios/before-expansions/.
#[test]
fn old_scenarios_score_byte_for_byte_as_before_the_expansions() {
    let dir = scenarios().join("before-expansions");
    let mut checked = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let want = entry.unwrap().path();
        let stem = want.file_stem().unwrap().to_string_lossy().to_string();
        let out = bin().arg("score").arg(scenarios().join(format!("{stem}.json"))).output().unwrap();
        let expected = std::fs::read(&want).unwrap();
        if want.extension().is_some_and(|e| e == "err") {
            assert_eq!(out.status.code(), Some(2), "{stem}");
            assert_eq!(out.stderr, expected, "{stem}");
            assert!(out.stdout.is_empty(), "{stem}");
        } else {
            assert_eq!(out.status.code(), Some(0), "{stem}");
            assert_eq!(String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&expected), "{stem}");
        }
        checked += 1;
    }
    assert_eq!(checked, 121);
}

/// A whole Big Box game (`play --rules big-box --save`): `score` replays
/// its record (second parts, big followers, builders, pigs, goods), and so
/// does `replay`, whose breakdown adds a goods column that sums to the scores.
#[test]
fn a_whole_big_box_game_scores_and_replays_through_the_binary() {
    let dir = std::env::temp_dir().join(format!("carcassonne-bigbox-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("bigbox.json");
    let mut kinds = std::collections::BTreeSet::new();
    for seed in 1..=6u64 {
        let out = bin()
            .args(["play", "--seed", &seed.to_string(), "--players", "3", "--rules", "big-box", "--save"])
            .arg(&path)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let record: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        assert_eq!(record["rules"]["preset"], "big-box");
        for m in record["moves"].as_array().unwrap() {
            kinds.extend(["big", "builder", "pig", "bonus", "abbot"].into_iter().filter(|k| m.get(k).is_some()));
        }
        let score = bin().arg("score").arg(&path).output().unwrap();
        assert!(score.status.success(), "{}", String::from_utf8_lossy(&score.stderr));
        let doc: Value = serde_json::from_slice(&score.stdout).unwrap();
        assert_eq!(doc["finished"], true);
        let scores: Vec<u64> = doc["scores"].as_array().unwrap().iter().map(|s| s.as_u64().unwrap()).collect();
        let replay = bin().arg("replay").arg(&path).output().unwrap();
        assert!(replay.status.success());
        let text = String::from_utf8(replay.stdout).unwrap();
        let header = text.lines().position(|l| l.starts_with("player")).expect("a breakdown");
        assert!(text.lines().nth(header).unwrap().contains("goods"), "{text}");
        for (row, want) in text.lines().skip(header + 1).zip(&scores) {
            let cells: Vec<u64> = row.split_whitespace().skip(1).map(|c| c.parse().unwrap()).collect();
            let (parts, total) = cells.split_at(cells.len() - 1);
            assert_eq!(parts.iter().sum::<u64>(), total[0], "{row}");
            assert_eq!(total[0], *want, "{row}");
        }
    }
    assert_eq!(kinds.len(), 5, "every expansion figure and the second part appear: {kinds:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The §6 example of expansions.md through the binary: its scores and the
/// goods and inn fields in the output.
#[test]
fn the_expansions_example_record_scores_through_the_binary() {
    let out = bin().arg("score").arg(scenarios().join("122-bigbox-record-md-example.json")).output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("{\n  \"finished\": true,\n  \"scores\": [26, 12],\n  \"winners\": [0],\n"), "{text}");
    assert!(text.contains(
        "    { \"turn\": 3, \"kind\": \"goods\", \"when\": \"completed\", \"to\": [0], \"goods\": { \"wine\": 1 } },\n"
    ));
    assert!(text.contains("\"tiles\": 5, \"inn\": true }"));
    let rules = bin().args(["rules", "--list"]).output().unwrap();
    let list = String::from_utf8(rules.stdout).unwrap();
    for name in ["big-box", "inns_cathedrals", "traders_builders", "big_follower", "builder", "pig", "goods"] {
        assert!(list.contains(name), "`rules --list` names {name}");
    }
}

//! Hand-worked scenario records (`tests/scenarios/*.json` at the workspace
//! root): each is a game record plus `why` (where its expectation comes
//! from) and `expect` (scores and every scoring event, or the error).

use std::path::PathBuf;

use carcassonne::record::{event_json, Record};
use serde_json::Value;

fn scenario_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/scenarios")
}

fn scenario_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(scenario_dir())
        .expect("tests/scenarios exists")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    files
}

/// Every expected event must match a distinct actual event on the fields it
/// gives, and no actual event may be left over.
fn compare_events(expected: &[Value], actual: &[Value]) -> Result<(), String> {
    let mut left: Vec<&Value> = actual.iter().collect();
    for e in expected {
        let fields = e.as_object().ok_or("an expected event is not an object")?;
        let pos = left.iter().position(|a| fields.iter().all(|(k, v)| a.get(k) == Some(v)));
        match pos {
            Some(i) => {
                left.remove(i);
            }
            None => return Err(format!("expected event {e} not found among {actual:?}")),
        }
    }
    if !left.is_empty() {
        return Err(format!("unexpected events: {left:?}"));
    }
    Ok(())
}

fn check(path: &PathBuf) -> Result<(), String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let doc: Value = serde_json::from_str(&text).map_err(|e| e.to_string())?;
    let why = doc.get("why").and_then(Value::as_str).unwrap_or("");
    if why.len() < 20 {
        return Err("a scenario must say in `why` where its expectation comes from".into());
    }
    let expect = doc.get("expect").ok_or("no `expect`")?;
    let result = Record::from_json(&text).and_then(|r| r.replay());
    if let Some(err) = expect.get("error") {
        let want_move = err.get("move").and_then(Value::as_u64).map(|m| m as usize);
        let want_code = err.get("code").and_then(Value::as_str).ok_or("error without code")?;
        return match result {
            Ok(_) => Err(format!("expected error {want_code} at move {want_move:?}, but the record replays")),
            Err(e) if e.move_no == want_move && e.error.code() == want_code => Ok(()),
            Err(e) => Err(format!(
                "expected {want_code} at move {want_move:?}, got {} at move {:?}: {e}",
                e.error.code(),
                e.move_no
            )),
        };
    }
    let game = result.map_err(|e| format!("replay failed: {e}"))?;
    if let Some(f) = expect.get("finished").and_then(Value::as_bool) {
        if f != game.is_over() {
            return Err(format!("finished: expected {f}, got {}", game.is_over()));
        }
    }
    let actual_events: Vec<Value> = game.events().iter().filter_map(event_json).collect();
    let scores: Vec<u64> = game.scores().iter().map(|&s| s as u64).collect();
    let want: Vec<u64> = expect
        .get("scores")
        .and_then(Value::as_array)
        .ok_or("no expected scores")?
        .iter()
        .map(|v| v.as_u64().unwrap_or(u64::MAX))
        .collect();
    if scores != want {
        return Err(format!("scores: expected {want:?}, got {scores:?}; events {actual_events:?}"));
    }
    if let Some(events) = expect.get("events").and_then(Value::as_array) {
        compare_events(events, &actual_events)?;
    }
    Ok(())
}

#[test]
fn every_scenario_plays_as_worked_by_hand() {
    let files = scenario_files();
    let failures: Vec<String> = files
        .iter()
        .filter_map(|p| check(p).err().map(|e| format!("{}: {e}", p.file_name().unwrap().to_string_lossy())))
        .collect();
    assert!(failures.is_empty(), "{} of {} scenarios fail:\n{}", failures.len(), files.len(), failures.join("\n"));
}

#[test]
fn there_are_enough_scenarios() {
    let files = scenario_files();
    let illegal = files.iter().filter(|p| std::fs::read_to_string(p).unwrap().contains("\"error\"")).count();
    assert!(files.len() >= 110, "only {} scenarios", files.len());
    assert!(illegal >= 30, "only {illegal} illegal-record scenarios");
}

/// The record with every tile that has a course name (`CRFR50` for `D`)
/// written by that name, and whether any was.
fn with_course_names(record: &Record) -> (Record, bool) {
    let mut renamed = false;
    let mut course = |name: &mut String| {
        if let Some(c) = carcassonne::TileId::from_name(name).and_then(carcassonne::TileId::course_name) {
            *name = c.to_string();
            renamed = true;
        }
    };
    let mut r = record.clone();
    if let Some(s) = r.start.as_mut() {
        course(&mut s.tile);
    }
    r.deck.iter_mut().flatten().for_each(&mut course);
    r.moves.iter_mut().for_each(|m| course(&mut m.tile));
    (r, renamed)
}

#[test]
fn a_record_in_course_names_scores_as_the_same_record_in_letters() {
    let mut renamed = 0;
    for path in scenario_files() {
        let record = Record::from_json(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let (course, any) = with_course_names(&record);
        renamed += any as usize;
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let score = |r: &Record| r.replay().map(|g| carcassonne::record::score_json(&g)).map_err(|e| e.to_string());
        assert_eq!(score(&course), score(&record), "{name}");
        if let Ok(game) = course.replay() {
            // A record the engine writes names tiles by letter.
            assert_eq!(
                Record::from_game(&game, &record.players).deck,
                record.replay().ok().map(|g| { Record::from_game(&g, &record.players).deck.unwrap() })
            );
        }
    }
    assert!(renamed >= 100, "only {renamed} scenarios have a tile with a course name");
}

/// The `score` output of every scenario written before the expansions
/// (`tests/scenarios/before-expansions/NAME.out`, or `NAME.err` for the
/// refusal's line), kept as the engine printed it then: old records must
/// replay and score byte for byte as they did.
#[test]
fn old_scenarios_score_byte_for_byte_as_before_the_expansions() {
    let dir = scenario_dir().join("before-expansions");
    let mut checked = 0;
    for path in scenario_files() {
        let stem = path.file_stem().unwrap().to_string_lossy().to_string();
        let (out, err) = (dir.join(format!("{stem}.out")), dir.join(format!("{stem}.err")));
        let text = std::fs::read_to_string(&path).unwrap();
        let got = Record::from_json(&text).and_then(|r| r.replay());
        match (std::fs::read_to_string(&out), std::fs::read_to_string(&err), got) {
            (Ok(want), _, Ok(game)) => assert_eq!(carcassonne::record::score_json(&game), want, "{stem}"),
            (_, Ok(want), Err(e)) => assert_eq!(format!("{e}\n"), want, "{stem}"),
            (Err(_), Err(_), _) => continue,
            (_, _, got) => panic!("{stem}: replays differently than before: {:?}", got.map(|g| g.scores().to_vec())),
        }
        checked += 1;
    }
    assert_eq!(checked, 121, "every scenario written before the expansions has its output");
}

/// expansions.md §6: the example record replays to exactly the final state
/// and events shown there (every field, no other event), as `score` prints them.
#[test]
fn the_expansions_record_example_scores_exactly_as_shown() {
    let text = std::fs::read_to_string(scenario_dir().join("122-bigbox-record-md-example.json")).unwrap();
    let game = Record::from_json(&text).unwrap().replay().unwrap();
    let got: Value = serde_json::from_str(&carcassonne::record::score_json(&game)).unwrap();
    let want: Value = serde_json::from_str(
        r#"{
  "finished": true, "scores": [26, 12], "winners": [0],
  "events": [
    { "turn": 3, "kind": "city", "when": "completed", "points": 8, "to": [1], "tiles": 4, "shields": 0 },
    { "turn": 3, "kind": "goods", "when": "completed", "to": [0], "goods": { "wine": 1 } },
    { "turn": 7, "kind": "road", "when": "completed", "points": 10, "to": [0], "tiles": 5, "inn": true },
    { "kind": "cloister", "when": "final", "points": 4, "to": [1] },
    { "kind": "cloister", "when": "final", "points": 2, "to": [0] },
    { "kind": "farm", "when": "final", "points": 4, "to": [0], "cities": 1, "pig": 1 },
    { "kind": "goods", "when": "final", "points": 10, "to": [0], "good": "wine", "count": 1 }
  ]
}"#,
    )
    .unwrap();
    for key in ["finished", "scores", "winners"] {
        assert_eq!(got[key], want[key], "{key}");
    }
    let mut left: Vec<&Value> = got["events"].as_array().unwrap().iter().collect();
    for e in want["events"].as_array().unwrap() {
        let i = left.iter().position(|g| *g == e).unwrap_or_else(|| panic!("{e} not among {left:?}"));
        left.remove(i);
    }
    assert!(left.is_empty(), "events not in the example: {left:?}");
}

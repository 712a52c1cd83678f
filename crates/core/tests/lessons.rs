//! The tutorial's lessons (web/learn/lessons.json, the page's `#/learn`)
//! are real positions: every lesson's record replays, leaves the learner
//! (seat 0) to move with the solution's tile, its intended solution is
//! legal and meets the goal the page checks, its goal text states the points
//! the engine scores (in every language), and each wrong move it lists is
//! refused for the rule it names (or, with no rule, is legal and misses the
//! goal). The lessons' words are messages of the page's Fluent files
//! (web/i18n/LANG.ftl: `lesson-KEY-title`, `-intro`, `-goal`, `-done`, and
//! the refusals' `learn-error-CODE`); crates/server/tests/i18n.rs checks
//! that every language has every message.

use std::collections::BTreeMap;

use carcassonne::record::{event_json, Record, RecordMove};
use carcassonne::{Event, PlayerId};
use serde_json::Value;

const LESSONS: &str = include_str!("../../../web/learn/lessons.json");
const FTL: [(&str, &str); 3] = [
    ("en", include_str!("../../../web/i18n/en.ftl")),
    ("de", include_str!("../../../web/i18n/de.ftl")),
    ("fr", include_str!("../../../web/i18n/fr.ftl")),
];

/// A Fluent file's messages as their source text: `id = value` and its
/// indented continuation lines (attributes and terms left out; enough to
/// read the words, not to format them).
fn ftl_messages(src: &str) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let mut cur: Option<(String, String)> = None;
    for line in src.lines() {
        if line.starts_with(' ') && !line.trim_start().starts_with('.') {
            if let Some((_, text)) = cur.as_mut() {
                text.push('\n');
                text.push_str(line.trim());
            }
            continue;
        }
        if line.starts_with(' ') {
            continue;
        }
        out.extend(cur.take());
        if let Some((id, value)) = line.split_once(" = ").or_else(|| line.strip_suffix(" =").map(|id| (id, ""))) {
            if id.chars().next().is_some_and(|c| c.is_ascii_lowercase()) && !id.contains(' ') {
                cur = Some((id.to_string(), value.to_string()));
            }
        }
    }
    out.extend(cur);
    out
}

/// The lessons, and the English messages.
fn lessons() -> (Vec<Value>, BTreeMap<String, String>) {
    let doc: Value = serde_json::from_str(LESSONS).expect("lessons.json is JSON");
    assert!(doc.get("messages").is_none(), "the words are in web/i18n/*.ftl, not in lessons.json");
    let lessons = doc["lessons"].as_array().expect("a list of lessons").clone();
    (lessons, ftl_messages(FTL[0].1))
}

/// The variables a message uses (`$name`), in order, without repeats.
fn variables(text: &str) -> Vec<&str> {
    let mut vars: Vec<&str> = Vec::new();
    for part in text.split('$').skip(1) {
        let end = part.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-')).unwrap_or(part.len());
        if !vars.contains(&&part[..end]) {
            vars.push(&part[..end]);
        }
    }
    vars
}

/// The record of a lesson with `mv` appended.
fn with_move(lesson: &Value, mv: &Value) -> Record {
    let mut record = lesson["record"].clone();
    record["moves"].as_array_mut().expect("moves").push(mv.clone());
    Record::from_json(&record.to_string()).expect("a lesson's record reads")
}

/// What the page compares with the goal: the scorings (and recalls) of the
/// move's own turn and of the final scoring, and its followers deployed.
fn outcome(record: &Record) -> Result<(Vec<Value>, Vec<&'static str>), String> {
    let game = record.replay().map_err(|e| e.error.code().to_string())?;
    let turn = record.moves.len() as u64;
    let events = game
        .events()
        .iter()
        .filter_map(event_json)
        .filter(|e| e.get("turn").and_then(Value::as_u64) == Some(turn) || e["when"] == "final")
        .collect();
    let deployed = game
        .events()
        .iter()
        .filter_map(|e| match e {
            Event::FollowerDeployed { turn: t, role, .. } if u64::from(t.0) == turn => Some(role.word()),
            _ => None,
        })
        .collect();
    Ok((events, deployed))
}

/// Whether the outcome meets the goal: every goal event (kind, points, to)
/// matched by a distinct event, and the follower asked for deployed.
fn meets(goal: &Value, (events, deployed): &(Vec<Value>, Vec<&'static str>)) -> bool {
    let mut left: Vec<&Value> = events.iter().collect();
    for want in goal["events"].as_array().into_iter().flatten() {
        let Some(i) = left
            .iter()
            .position(|e| e["kind"] == want["kind"] && e["points"] == want["points"] && e["to"] == want["to"])
        else {
            return false;
        };
        left.remove(i);
    }
    goal["deploy"].as_str().is_none_or(|role| deployed.contains(&role))
}

/// Whether `text` names the number `n` as a whole number.
fn says_number(text: &str, n: u64) -> bool {
    text.split(|c: char| !c.is_ascii_digit()).any(|w| w == n.to_string())
}

#[test]
fn every_lesson_is_a_legal_position_for_the_learner() {
    let (lessons, _) = lessons();
    assert!(lessons.len() >= 12, "the tutorial's lessons");
    for lesson in &lessons {
        let key = lesson["key"].as_str().expect("a key");
        let record = Record::from_json(&lesson["record"].to_string()).expect("a lesson's record reads");
        assert_eq!(record.players[0], "You", "{key}: the learner is seat 0");
        let game = record.replay().unwrap_or_else(|e| panic!("{key}: the position replays: {e}"));
        assert_eq!(game.to_move(), Some(PlayerId(0)), "{key}: the learner is to move");
        let solution = &lesson["solution"];
        assert_eq!(game.tile().map(|t| t.name()), solution["tile"].as_str(), "{key}: the tile to lay");
    }
}

#[test]
fn every_solution_meets_its_goal_and_the_text_says_its_points() {
    let (lessons, _) = lessons();
    for lesson in &lessons {
        let key = lesson["key"].as_str().expect("a key");
        let goal = &lesson["goal"];
        let got = outcome(&with_move(lesson, &lesson["solution"]))
            .unwrap_or_else(|code| panic!("{key}: the solution is refused ({code})"));
        assert!(meets(goal, &got), "{key}: the solution meets the goal {goal}: got {:?}", got);
        for (lang, src) in FTL {
            let messages = ftl_messages(src);
            let text = messages.get(&format!("lesson-{key}-goal")).unwrap_or_else(|| panic!("{lang}: {key}'s goal"));
            for want in goal["events"].as_array().into_iter().flatten() {
                let points = want["points"].as_u64().expect("points");
                assert!(says_number(text, points), "{key}: the goal text says {points} points in {lang}: {text}");
            }
        }
    }
}

#[test]
fn every_wrong_move_is_refused_for_its_rule_or_misses_the_goal() {
    let (lessons, _) = lessons();
    let mut rules = 0;
    for lesson in &lessons {
        let key = lesson["key"].as_str().expect("a key");
        let wrong = lesson["wrong"].as_array().expect("wrong moves");
        assert!(!wrong.is_empty(), "{key}: a wrong move to explain");
        for w in wrong {
            let got = outcome(&with_move(lesson, &w["move"]));
            match w["code"].as_str() {
                Some(code) => {
                    assert_eq!(got.as_ref().err().map(String::as_str), Some(code), "{key}: {}", w["move"]);
                    rules += 1;
                }
                None => {
                    let got = got.unwrap_or_else(|code| panic!("{key}: {} is legal, refused {code}", w["move"]));
                    assert!(!meets(&lesson["goal"], &got), "{key}: {} misses the goal", w["move"]);
                }
            }
        }
    }
    assert!(rules >= 7, "most lessons show a rule's refusal");
}

#[test]
fn every_lesson_has_its_texts_and_every_text_is_used() {
    let (lessons, _) = lessons();
    for (lang, src) in FTL {
        let messages = ftl_messages(src);
        let mut used = std::collections::BTreeSet::new();
        for lesson in &lessons {
            let key = lesson["key"].as_str().expect("a key");
            for part in ["title", "intro", "goal", "done"] {
                let id = format!("lesson-{key}-{part}");
                assert!(messages.get(&id).is_some_and(|t| !t.trim().is_empty()), "{id} is written in {lang}");
                used.insert(id);
            }
            // The solution's move is well formed (the page sends it as it stands).
            serde_json::from_value::<RecordMove>(lesson["solution"].clone()).expect("a move");
        }
        // Every lesson text belongs to a lesson (none left over from a removed one).
        for id in messages.keys().filter(|id| id.starts_with("lesson-")) {
            assert!(used.contains(id), "{id} ({lang}) belongs to no lesson");
        }
    }
}

/// Every text the pages ask for by name is written, and every rule the page
/// reads from a refusal has its sentence.
#[test]
fn every_text_the_pages_name_is_written() {
    let (_, messages) = lessons();
    let pages = [
        include_str!("../../../web/js/learn.js"),
        include_str!("../../../web/js/practice.js"),
        include_str!("../../../web/js/puzzles.js"),
    ];
    let mut named = 0;
    for page in pages {
        for quoted in page.split(['\'', '`']).skip(1).step_by(2) {
            let is_key = ["learn-", "puzzle-", "lesson-"].iter().any(|p| quoted.starts_with(p))
                && quoted.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
            if is_key && !quoted.ends_with('-') {
                assert!(messages.contains_key(quoted), "{quoted} is named by a page and written");
                named += 1;
            }
        }
    }
    assert!(named >= 25, "the pages name their texts ({named})");
    // `refusalRule` reads the refusal's rule code and facts from the wire
    // (never the words): every rule sentence written names a rule of the
    // engine (`IllegalMove::code`), fills only the facts the engine gives
    // (`IllegalMove::facts`, and the role the page adds), and a rule
    // without a sentence falls back on the written `learn-error-other`.
    let practice = pages[1];
    let start = practice.find("export function refusalRule").expect("refusalRule");
    let body = &practice[start..start + practice[start..].find("\n}\n").expect("its end")];
    assert!(body.contains("b.rule") && body.contains("b.facts"), "refusalRule reads the code and the facts");
    let error_rs = include_str!("../src/error.rs");
    let code_fn = &error_rs[error_rs.find("pub const fn code").expect("IllegalMove::code")..];
    let code_fn = &code_fn[..code_fn.find("\n    }\n").expect("its end")];
    let engine: Vec<&str> = code_fn.split('"').skip(1).step_by(2).collect();
    assert!(engine.len() >= 15, "the engine's rules: {engine:?}");
    let mut sentences = 0;
    for (key, text) in &messages {
        let Some(code) = key.strip_prefix("learn-error-") else { continue };
        let vars = variables(text);
        if code == "other" {
            assert_eq!(vars, ["message"], "{key}");
            continue;
        }
        assert!(engine.contains(&code), "{key} names a rule of the engine");
        for v in vars {
            assert!(
                ["side", "ours", "theirs", "feature", "role"].contains(&v),
                "{key}: {{${v}}} is a fact the page has"
            );
        }
        sentences += 1;
    }
    assert!(sentences >= 12, "the rules have their sentences ({sentences})");
    for code in ["edge_mismatch", "feature_occupied", "not_adjacent", "farmers_off"] {
        assert!(messages.contains_key(&format!("learn-error-{code}")), "learn-error-{code} is written");
    }
}

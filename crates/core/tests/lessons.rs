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

/// A lesson's steps, as the page plays them: the lesson's own goal,
/// solution and wrong moves first, then each of its `steps` (a lesson of
/// several moves, e.g. an expansion's), each with its record (the lesson's,
/// every earlier step's solution and the moves played before the step) and
/// the prefix of its messages (`lesson-KEY`, then `lesson-KEY-2`, …).
fn steps(lesson: &Value) -> Vec<(String, Value, Value)> {
    let key = lesson["key"].as_str().expect("a key");
    let mut record = lesson["record"].clone();
    let mut out = vec![(format!("lesson-{key}"), record.clone(), lesson.clone())];
    for (i, step) in lesson["steps"].as_array().into_iter().flatten().enumerate() {
        let moves = record["moves"].as_array_mut().expect("moves");
        moves.push(out[i].2["solution"].clone());
        moves.extend(step["moves"].as_array().expect("a step's moves").iter().cloned());
        out.push((format!("lesson-{key}-{}", i + 2), record.clone(), step.clone()));
    }
    out
}

/// The record of a step with `mv` appended, and the move.
fn with_move(record: &Value, mv: &Value) -> (Record, Value) {
    let mut record = record.clone();
    record["moves"].as_array_mut().expect("moves").push(mv.clone());
    (Record::from_json(&record.to_string()).expect("a lesson's record reads"), mv.clone())
}

/// What the page compares with the goal: the scorings (and recalls, goods
/// taken) of the move's own turn and of the final scoring, its followers
/// deployed, the move, and whether its player is to move again (a builder's
/// second part).
struct Outcome {
    events: Vec<Value>,
    deployed: Vec<&'static str>,
    mv: Value,
    again: bool,
}

impl std::fmt::Debug for Outcome {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:?} deployed {:?}, again {}", self.events, self.deployed, self.again)
    }
}

fn outcome((record, mv): &(Record, Value)) -> Result<Outcome, String> {
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
    let mv = mv.clone();
    let again = game.to_move() == Some(PlayerId(0));
    Ok(Outcome { events, deployed, mv, again })
}

/// Whether the outcome meets the goal: every goal event (kind, points, to)
/// matched by a distinct event, the follower asked for deployed, the figure
/// asked for used by the move (`big`: the big follower), and the player to
/// move again when the goal is a builder's second part (`bonus`).
fn meets(goal: &Value, Outcome { events, deployed, mv, again }: &Outcome) -> bool {
    if goal["figure"].as_str().is_some_and(|f| mv.get(f).is_none()) || (goal["bonus"].is_string() && !again) {
        return false;
    }
    let mut left: Vec<&Value> = events.iter().collect();
    for want in goal["events"].as_array().into_iter().flatten() {
        let Some(i) = left.iter().position(|e| {
            e["kind"] == want["kind"]
                && (want["points"].is_null() || e["points"] == want["points"])
                && e["to"] == want["to"]
        }) else {
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
    let mut steps_played = 0;
    for lesson in &lessons {
        for (key, record, step) in steps(lesson) {
            let record = Record::from_json(&record.to_string()).expect("a lesson's record reads");
            assert_eq!(record.players[0], "You", "{key}: the learner is seat 0");
            let game = record.replay().unwrap_or_else(|e| panic!("{key}: the position replays: {e}"));
            assert_eq!(game.to_move(), Some(PlayerId(0)), "{key}: the learner is to move");
            let solution = &step["solution"];
            assert_eq!(game.tile().map(|t| t.name()), solution["tile"].as_str(), "{key}: the tile to lay");
            steps_played += 1;
        }
    }
    // Each expansion has a lesson of several steps.
    for (option, key) in [("inns_cathedrals", "inns-cathedrals"), ("traders_builders", "traders-builders")] {
        let lesson = lessons.iter().find(|l| l["key"] == key).unwrap_or_else(|| panic!("the {key} lesson"));
        assert_eq!(lesson["record"]["rules"][option], true, "{key} plays its expansion");
        assert!(steps(lesson).len() >= 3, "{key}: a few steps");
    }
    assert!(steps_played > lessons.len());
}

#[test]
fn every_solution_meets_its_goal_and_the_text_says_its_points() {
    let (lessons, _) = lessons();
    for lesson in &lessons {
        for (key, record, step) in steps(lesson) {
            let goal = &step["goal"];
            let got = outcome(&with_move(&record, &step["solution"]))
                .unwrap_or_else(|code| panic!("{key}: the solution is refused ({code})"));
            assert!(meets(goal, &got), "{key}: the solution meets the goal {goal}: got {:?}", got);
            for (lang, src) in FTL {
                let messages = ftl_messages(src);
                let text = messages.get(&format!("{key}-goal")).unwrap_or_else(|| panic!("{lang}: {key}'s goal"));
                // (Goods taken are no points: their goal says the kind.)
                for points in goal["events"].as_array().into_iter().flatten().filter_map(|e| e["points"].as_u64()) {
                    assert!(says_number(text, points), "{key}: the goal text says {points} points in {lang}: {text}");
                }
            }
        }
    }
}

#[test]
fn every_wrong_move_is_refused_for_its_rule_or_misses_the_goal() {
    let (lessons, _) = lessons();
    let mut rules = 0;
    for lesson in &lessons {
        for (key, record, step) in steps(lesson) {
            let wrong = step["wrong"].as_array().expect("wrong moves");
            assert!(!wrong.is_empty(), "{key}: a wrong move to explain");
            for w in wrong {
                let got = outcome(&with_move(&record, &w["move"]));
                match w["code"].as_str() {
                    Some(code) => {
                        assert_eq!(got.as_ref().err().map(String::as_str), Some(code), "{key}: {}", w["move"]);
                        rules += 1;
                    }
                    None => {
                        let got = got.unwrap_or_else(|code| panic!("{key}: {} is legal, refused {code}", w["move"]));
                        assert!(!meets(&step["goal"], &got), "{key}: {} misses the goal", w["move"]);
                    }
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
            let title = format!("lesson-{key}-title");
            assert!(messages.get(&title).is_some_and(|t| !t.trim().is_empty()), "{title} is written in {lang}");
            used.insert(title);
            for (prefix, _, step) in steps(lesson) {
                for part in ["intro", "goal", "done"] {
                    let id = format!("{prefix}-{part}");
                    assert!(messages.get(&id).is_some_and(|t| !t.trim().is_empty()), "{id} is written in {lang}");
                    used.insert(id);
                }
                // The solution's move is well formed (the page sends it as it stands).
                serde_json::from_value::<RecordMove>(step["solution"].clone()).expect("a move");
            }
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

/// The rules page's worked examples of the Big Box (web/rules/examples.json):
/// every record replays to its end, holds the scorings it lists (and no
/// other), ends with the scores it lists, and each example's words say those
/// points in every language.
#[test]
fn every_rules_example_is_the_engines_and_its_words_say_its_points() {
    let doc: Value =
        serde_json::from_str(include_str!("../../../web/rules/examples.json")).expect("examples.json is JSON");
    let examples = doc["examples"].as_array().expect("a list of examples");
    let parts: Vec<&str> = examples.iter().filter_map(|e| e["option"].as_str()).collect();
    for option in ["inns", "cathedrals", "big_follower", "goods", "builder", "pig"] {
        assert!(parts.contains(&option), "an example of {option}");
    }
    for example in examples {
        let key = example["key"].as_str().expect("a key");
        let record = Record::from_json(&example["record"].to_string()).expect("an example's record reads");
        let game = record.replay().unwrap_or_else(|e| panic!("{key}: replays: {e}"));
        assert!(game.is_over(), "{key}: played to its end");
        let events: Vec<Value> = game.events().iter().filter_map(event_json).collect();
        let mut want: Vec<Value> = example["events"].as_array().expect("events").clone();
        for w in &mut want {
            w.as_object_mut().expect("an event").remove("turn");
        }
        let got: Vec<Value> = events
            .iter()
            .filter(|e| e["kind"].is_string())
            .map(|e| {
                let mut e = e.clone();
                e.as_object_mut().expect("an event").remove("turn");
                e
            })
            .collect();
        assert_eq!(got.len(), want.len(), "{key}: the scorings {got:?}");
        for w in &want {
            assert!(got.contains(w), "{key}: {w} in {got:?}");
        }
        let scores: Vec<u64> = game.scores().iter().map(|&s| u64::from(s)).collect();
        let listed: Vec<u64> = example["scores"].as_array().expect("scores").iter().filter_map(Value::as_u64).collect();
        assert_eq!(scores, listed, "{key}: the final scores");
        for (lang, src) in FTL {
            let messages = ftl_messages(src);
            for part in ["-title", ""] {
                let id = format!("rules-ex-{key}{part}");
                assert!(messages.get(&id).is_some_and(|t| !t.trim().is_empty()), "{id} is written in {lang}");
            }
            let text = &messages[&format!("rules-ex-{key}")];
            for points in want.iter().filter_map(|e| e["points"].as_u64()).chain(listed.iter().copied()) {
                assert!(says_number(text, points), "{key}: the words say {points} in {lang}: {text}");
            }
        }
    }
}

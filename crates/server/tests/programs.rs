//! Programs as opponents (`serve --bot NAME=CMD`) and reviews of finished
//! games (`GET /api/games/{id}/review`), through the router.

mod common;

use std::path::{Path, PathBuf};
use std::time::Duration;

use axum::http::StatusCode;
use axum::Router;
use carcassonne_server::{app, AppState, Config, ExternalBot, Store};
use common::*;
use serde_json::{json, Value};

/// A bound on every wait, so that a stuck game fails the test instead of
/// hanging it (not a speed check).
const PATIENCE: Duration = Duration::from_secs(90);

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn server(config: Config) -> Router {
    let store: Store = Store::in_memory().unwrap();
    app(AppState::new(store, config))
}

/// Polls the game (as a spectator) until `done` holds.
async fn until(app: &Router, id: &str, done: impl Fn(&Value) -> bool) -> Value {
    let started = std::time::Instant::now();
    loop {
        let s = state(app, id, None).await;
        if done(&s) {
            return s;
        }
        assert!(started.elapsed() < PATIENCE, "the game did not get there: {s}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// A Python bot that shakes hands (playing no rule option) and exits when asked for a move.
fn quitter(dir: &Path) -> String {
    let path = dir.join("quitter.py");
    std::fs::write(
        &path,
        "import sys, json\nfor line in sys.stdin:\n    m = json.loads(line)\n    if m['type'] == 'hello':\n        print(json.dumps({'type': 'hello', 'name': 'quitter', 'protocol': 1, 'rules': []}), flush=True)\n    elif m['type'] == 'decide':\n        sys.exit(1)\n",
    )
    .unwrap();
    format!("python3 {}", path.display())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn programs_are_offered_play_and_are_replaced_when_they_fail() {
    let dir = std::env::temp_dir().join(format!("carcassonne-programs-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let example = format!("pybot=python3 {}", repo().join("examples/bot.py").display());
    let pybot = ExternalBot::start(&example, Duration::from_secs(2)).unwrap();
    let broken = ExternalBot::start(&format!("broken={}", quitter(&dir)), Duration::from_secs(2)).unwrap();
    assert!(pybot.description.starts_with("example.py by the carcassonne project"), "{}", pybot.description);
    let app = server(Config { external_bots: vec![pybot, broken], ..Config::quick() });

    let (status, options) = call(&app, "GET", "/api/options", None).await;
    assert_eq!(status, StatusCode::OK);
    let names: Vec<&str> =
        options["bot_levels"].as_array().unwrap().iter().map(|l| l["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["random", "easy", "normal", "hard", "pybot", "broken"]);

    // The example bot plays a whole game against the random bot.
    let (id, _, _) =
        create(&app, json!({ "seats": [ { "kind": "bot", "level": "pybot" }, { "kind": "bot", "level": "random" } ] }))
            .await;
    let end = until(&app, &id, |s| s["status"] == "finished").await;
    assert!(end["notice"].is_null(), "the program never failed: {}", end["notice"]);
    assert_eq!(end["players"][0]["level"], "pybot");

    // A program that fails is replaced for the move, and the players are told.
    let (id, _, _) =
        create(&app, json!({ "seats": [ { "kind": "bot", "level": "broken" }, { "kind": "human", "name": "Ada" } ] }))
            .await;
    let s = until(&app, &id, |s| s["version"] == 1 && s["thinking"].is_null()).await;
    assert_eq!(s["turn"]["seat"], 1, "the built-in bot moved for it");
    let text = s["notice"]["text"].as_str().unwrap();
    assert!(text.contains("broken") && text.contains("exited") && text.contains("instead"), "{text}");
    assert_eq!(s["notice"]["version"], 0);

    // Rules it does not play, and names nobody registered, are refused.
    let (status, v) = call(
        &app,
        "POST",
        "/api/games",
        Some(&json!({ "seats": [ { "kind": "bot", "level": "broken" }, { "kind": "human" } ], "rules": { "abbot": true } }).to_string()),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(v["message"].as_str().unwrap().contains("does not play the rule option abbot"), "{v}");
    // A preset's own options count too: the Big Box is not the standard game.
    let (status, v) = call(
        &app,
        "POST",
        "/api/games",
        Some(&json!({ "seats": [ { "kind": "bot", "level": "broken" }, { "kind": "human" } ], "rules": { "preset": "big-box" } }).to_string()),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(v["message"].as_str().unwrap().contains("does not play the rule option river"), "{v}");
    let (status, _) = call(
        &app,
        "POST",
        "/api/games",
        Some(&json!({ "seats": [ { "kind": "bot", "level": "nobody" }, { "kind": "human" } ] }).to_string()),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_program_specs_are_refused() {
    for (spec, why) in [
        ("nocommand", "NAME=COMMAND"),
        ("hard=python3 x.py", "built-in"),
        ("Big Name=python3 x.py", "a-z"),
        ("ok=", "bad bot command"),
        ("ok=/nonexistent/bot", "could not start"),
        ("ok=true", "exited"),
    ] {
        let e = ExternalBot::start(spec, Duration::from_secs(1)).unwrap_err().to_string();
        assert!(e.contains(why), "{spec}: {e}");
    }
}

/// The hello's long limit is for the first start only: a program whose
/// hello comes late (6 s, within the 10 s the first start allows) gets the
/// move's limit (1 s) for each move's session, hello included, and fails
/// its move in about that, not after its slow start.
#[test]
fn a_slow_hello_does_not_stretch_the_moves() {
    let dir = std::env::temp_dir().join(format!("carcassonne-slow-hello-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let script = dir.join("slow.sh");
    let bot = repo().join("examples/bot.py");
    std::fs::write(&script, format!("#!/bin/sh\nsleep 6\nexec python3 '{}'\n", bot.display())).unwrap();
    let slow = ExternalBot::start(&format!("slow=sh '{}'", script.display()), Duration::from_secs(1)).unwrap();
    let game = carcassonne::Game::new(carcassonne::Setup::standard(carcassonne::Rules::default(), 2, 3)).unwrap();
    let started = std::time::Instant::now();
    let answer = slow.choose(&game, "g", &["slow".into(), "Ada".into()]);
    let took = started.elapsed();
    // The hello (6 s away, by the script's own sleep) cannot have come.
    assert!(answer.as_ref().is_err_and(|e| e.contains("no answer within 1000 ms")), "{answer:?}");
    assert!(took < Duration::from_secs(6), "{took:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A program started through a launcher script that forks a sleeping
/// child, and that sleeps when asked for a move: after its late move, no
/// process the launcher started is left (crates/ai/tests/groups.rs tests
/// the same on the host's side, with its threads).
#[test]
fn a_late_programs_whole_process_group_goes() {
    let dir = std::env::temp_dir().join(format!("carcassonne-late-group-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bot = dir.join("late.py");
    std::fs::write(
        &bot,
        "import sys, json, time\nfor line in sys.stdin:\n    m = json.loads(line)\n    if m['type'] == 'hello':\n        print(json.dumps({'type': 'hello', 'name': 'late', 'protocol': 1, 'rules': []}), flush=True)\n    elif m['type'] == 'decide':\n        time.sleep(600)\n",
    )
    .unwrap();
    let script = dir.join("launch.sh");
    let pids = dir.join("pids");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\necho $$ >> '{p}'\nsleep 600 &\necho $! >> '{p}'\npython3 '{b}'\n",
            p = pids.display(),
            b = bot.display()
        ),
    )
    .unwrap();
    let late = ExternalBot::start(&format!("late=sh '{}'", script.display()), Duration::from_millis(300)).unwrap();
    let game = carcassonne::Game::new(carcassonne::Setup::standard(carcassonne::Rules::default(), 2, 3)).unwrap();
    let answer = late.choose(&game, "g", &["late".into(), "Ada".into()]);
    assert!(answer.as_ref().is_err_and(|e| e.contains("no answer within")), "{answer:?}");
    // The pids of both sessions' launchers and sleepers (the first start's and the move's).
    let started: Vec<u32> =
        std::fs::read_to_string(&pids).unwrap().lines().map(|l| l.trim().parse().unwrap()).collect();
    assert_eq!(started.len(), 4, "{started:?}");
    let alive = |pid: &u32| {
        std::fs::read_to_string(format!("/proc/{pid}/stat"))
            .is_ok_and(|s| !s.rsplit_once(')').is_some_and(|(_, rest)| rest.trim_start().starts_with(['Z', 'X'])))
    };
    let since = std::time::Instant::now();
    while started.iter().any(alive) {
        if since.elapsed() > PATIENCE {
            for p in started.iter().filter(|p| alive(p)) {
                let _ = std::process::Command::new("kill").arg("-9").arg(p.to_string()).status();
            }
            panic!("processes of the program's group outlived its late move: {started:?}");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_game_is_reviewed_in_the_background_and_kept() {
    let app = server(Config::quick());
    let (status, v) = call(&app, "GET", "/api/games/nosuchgame/review", None).await;
    assert_eq!((status, v["error"].as_str()), (StatusCode::NOT_FOUND, Some("not_found")));
    let (playing, _, _) = create(&app, two_humans()).await;
    let (status, v) = call(&app, "GET", &format!("/api/games/{playing}/review"), None).await;
    assert_eq!((status, v["error"].as_str()), (StatusCode::CONFLICT, Some("not_finished")));

    let (id, _, _) =
        create(&app, json!({ "seats": [ { "kind": "bot", "level": "random" }, { "kind": "bot", "level": "easy" } ] }))
            .await;
    let end = until(&app, &id, |s| s["status"] == "finished").await;
    let moves = end["version"].as_u64().unwrap() as usize;
    let url = format!("/api/games/{id}/review");
    let (status, first) = call(&app, "GET", &url, None).await;
    assert_eq!(status, StatusCode::ACCEPTED, "{first}");
    assert_eq!((first["status"].as_str(), first["total"].as_u64()), (Some("computing"), Some(moves as u64)));
    let started = std::time::Instant::now();
    let review = loop {
        let (status, v) = call(&app, "GET", &url, None).await;
        if status == StatusCode::OK {
            break v;
        }
        assert_eq!(status, StatusCode::ACCEPTED, "{v}");
        assert!(v["done"].as_u64().unwrap() <= moves as u64);
        assert!(started.elapsed() < PATIENCE, "the review did not finish");
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert_eq!(review["status"], "done");
    let reviewed = review["review"]["moves"].as_array().unwrap();
    assert_eq!(reviewed.len(), moves);
    for (i, m) in reviewed.iter().enumerate() {
        assert_eq!(m["turn"], i + 1);
        assert!(m["lost"].as_f64().unwrap() >= 0.0);
        assert!(m["best"]["tile"].is_string() && m["move"]["tile"] == m["best"]["tile"]);
    }
    // The random bot loses more to the search's picks than the search bot.
    let lost = &review["review"]["lost"];
    assert!(lost[0].as_f64().unwrap() > lost[1].as_f64().unwrap(), "{lost}");
    // Kept: asked again, the same review at once.
    let (status, again) = call(&app, "GET", &url, None).await;
    assert_eq!((status, &again), (StatusCode::OK, &review));
}

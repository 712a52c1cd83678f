//! Bots in other processes, through the bot protocol: the example Python bot
//! and `carcassonne bot` play whole arena games; bots that answer illegally,
//! late, with garbage, with an endless line, or that exit, forfeit their
//! game and are reported as such, and nothing waits on them for long.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

/// A bound on every run, so that a hung arena fails the test instead of
/// hanging it (not a speed check).
const PATIENCE: Duration = Duration::from_secs(120);

fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_carcassonne")
}

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Runs `carcassonne arena --json` with these bots; its report.
fn arena(bots: &str, games: usize, move_time: &str) -> Result<Value, String> {
    let mut child = Command::new(bin())
        .args(["arena", "--quiet", "--json", "--seed", "3", "--move-time", move_time])
        .args(["--games", &games.to_string(), "--bots", bots])
        .current_dir(repo())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let started = Instant::now();
    loop {
        if child.try_wait().unwrap().is_some() {
            break;
        }
        if started.elapsed() > PATIENCE {
            child.kill().unwrap();
            panic!("the arena with {bots} did not finish within {PATIENCE:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().unwrap();
    if out.status.success() {
        Ok(serde_json::from_slice(&out.stdout).expect("a JSON report"))
    } else {
        Err(String::from_utf8_lossy(&out.stderr).into_owned())
    }
}

/// A Python bot that shakes hands, then answers each decision with `answer`
/// (Python code evaluated with `view` in scope, printed as is).
fn python_bot(dir: &Path, name: &str, body: &str) -> String {
    let path = dir.join(format!("{name}.py"));
    let script = format!(
        r#"import json, sys, time
def send(m):
    sys.stdout.write(m + "\n"); sys.stdout.flush()
for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "hello":
        send(json.dumps({{"type": "hello", "name": "{name}", "protocol": 1, "rules": ["*"]}}))
    elif msg["type"] == "decide":
        view = msg["view"]
{body}
    elif msg["type"] == "quit":
        break
"#
    );
    std::fs::write(&path, script).unwrap();
    format!("cmd:python3 {}", path.display())
}

struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos();
        let dir = std::env::temp_dir().join(format!("carcassonne-bots-{name}-{}-{nanos}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn forfeits(report: &Value, bot: usize) -> u64 {
    report["bots"][bot]["forfeits"].as_u64().unwrap()
}

#[test]
fn the_example_python_bot_plays_whole_games() {
    let report = arena("cmd:python3 examples/bot.py,greedy", 2, "2s").unwrap();
    assert_eq!(report["games"], 2);
    assert_eq!(report["forfeits"], Value::Array(vec![]), "{report}");
    // Whole games: about 71 moves of the 72-tile deck, shared by the seats.
    let moves: u64 = report["bots"].as_array().unwrap().iter().map(|b| b["moves"].as_u64().unwrap()).sum();
    assert!(moves >= 2 * 60, "{moves} moves in two games");
    assert!(report["bots"][0]["mean_score"].as_f64().unwrap() > 0.0);
}

#[test]
fn two_copies_of_this_program_play_through_the_protocol() {
    let me = format!("cmd:{} bot --bot greedy", bin());
    let report = arena(&format!("{me},random"), 2, "2s").unwrap();
    assert_eq!(forfeits(&report, 0), 0, "{report}");
    // Greedy beats random by a wide margin: the moves are really greedy's.
    assert!(report["bots"][0]["margin_mean"].as_f64().unwrap() > 10.0, "{report}");
    // And the search bot within a time per move it is told.
    let report = arena(&format!("cmd:{} bot --bot mcts:5s,{me}", bin()), 2, "150ms").unwrap();
    assert_eq!((forfeits(&report, 0), forfeits(&report, 1)), (0, 0), "{report}");
}

/// Each misbehaviour loses the game by forfeit with its reason; the other
/// bot is credited with the win.
#[test]
fn misbehaving_bots_forfeit_and_nothing_hangs() {
    let dir = TempDir::new("hostile");
    let cases = [
        (
            "illegal",
            "        send(json.dumps({\"type\": \"move\", \"move\": {\"tile\": \"A\", \"at\": [40, 40], \"rot\": 0}}))",
            "illegal",
        ),
        ("late", "        time.sleep(30)", "late"),
        ("garbage", "        send(\"I resign\")", "garbage"),
        ("exits", "        sys.exit(3)", "exited"),
        ("endless", "        sys.stdout.write(\"x\" * (1 << 22)); sys.stdout.flush(); time.sleep(30)", "too_long"),
    ];
    for (name, body, code) in cases {
        let bot = python_bot(&dir.0, name, body);
        let started = Instant::now();
        let report = arena(&format!("{bot},random"), 2, "300ms").unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(forfeits(&report, 0), 2, "{name}: {report}");
        assert_eq!(forfeits(&report, 1), 0, "{name}: {report}");
        assert_eq!(report["bots"][1]["wins"], 2, "{name}: the other bot wins");
        let listed = report["forfeits"].as_array().unwrap();
        assert_eq!(listed.len(), 2);
        for f in listed {
            assert_eq!(f["reason"], code, "{name}: {f}");
            assert_eq!(f["turn"].as_u64().unwrap() % 2, if f["game"] == 0 { 1 } else { 0 }, "{name}: its first move");
        }
        // A late bot is dropped at its deadline, not waited for.
        assert!(started.elapsed() < Duration::from_secs(25), "{name}: {:?}", started.elapsed());
    }
}

#[test]
fn a_program_that_does_not_start_or_shake_hands_stops_the_run() {
    let e = arena("cmd:/nonexistent/bot,random", 2, "1s").unwrap_err();
    assert!(e.contains("could not start"), "{e}");
    let dir = TempDir::new("handshake");
    let path = dir.0.join("old.py");
    std::fs::write(
        &path,
        "import sys\nsys.stdin.readline()\nprint('{\"type\": \"hello\", \"name\": \"old\", \"protocol\": 0}', flush=True)\n",
    )
    .unwrap();
    let e = arena(&format!("cmd:python3 {},random", path.display()), 2, "1s").unwrap_err();
    assert!(e.contains("speaks protocol 0"), "{e}");
    let e = arena("cmd:python3 examples/bot.py,random,cmd:'unclosed", 3, "1s").unwrap_err();
    assert!(e.contains("bad bot command"), "{e}");
}

/// Runs played in parts pool into the report of all their games.
#[test]
fn arena_runs_pool() {
    let dir = TempDir::new("pool");
    let part = |seed: &str| {
        let out = Command::new(bin())
            .args(["arena", "--quiet", "--json", "--games", "2", "--bots", "greedy,random", "--seed", seed])
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let path = dir.0.join(format!("{seed}.json"));
        std::fs::write(&path, out.stdout).unwrap();
        path
    };
    let (one, two) = (part("1"), part("2"));
    let pool = |files: &[&Path]| Command::new(bin()).args(["arena", "--pool"]).args(files).output().unwrap();
    let out = pool(&[&one, &two]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success() && text.starts_with("4 games (2 deals x 2 seatings)"), "{text}");
    assert!(text.contains("2 runs (seeds 1–2)"), "{text}");
    let out = pool(&[&one, &one]);
    let error = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && error.contains("two runs with seed 1"), "{error}");
}

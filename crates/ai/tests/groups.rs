//! A bot program started through a launcher script that forks: after a late
//! answer, a bad answer and the host letting it go (an arena's end, a
//! server's shutdown), no process the launcher started is left, and no
//! thread of the host waits on its pipes. (One test: it counts the
//! process's threads.)

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use carcassonne::{Game, PlayerId, Rules, Setup, View};
use carcassonne_ai::external::{BotCommand, BotFailure, BotProcess, Limits};

/// A bound on every wait for the system to tidy up (not a speed check).
const PATIENCE: Duration = Duration::from_secs(30);

struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos();
        let dir = std::env::temp_dir().join(format!("carcassonne-groups-{name}-{}-{nanos}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A launcher script that writes its pid, starts a child that ignores its
/// input and sleeps (holding the bot's output open), and runs a Python bot
/// (not `exec`: the shell stays its parent) that writes its pid, shakes
/// hands, and answers a move request as `on_decide` says: `"sleep"` (late)
/// or `"garbage"`.
fn launcher(dir: &Path, on_decide: &str) -> BotCommand {
    let bot = dir.join("bot.py");
    std::fs::write(
        &bot,
        format!(
            "import sys, json, os, time\n\
             open(os.path.join(sys.argv[1], 'bot'), 'w').write(str(os.getpid()))\n\
             for line in sys.stdin:\n\
             \x20   m = json.loads(line)\n\
             \x20   if m['type'] == 'hello':\n\
             \x20       print(json.dumps({{'type': 'hello', 'name': 'forker', 'protocol': 1, 'rules': []}}), flush=True)\n\
             \x20   elif m['type'] == 'decide':\n\
             \x20       if '{on_decide}' == 'sleep':\n\
             \x20           time.sleep(600)\n\
             \x20       else:\n\
             \x20           print('not json', flush=True)\n"
        ),
    )
    .unwrap();
    let script = dir.join("launch.sh");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\necho $$ > '{d}/launcher'\nsleep 600 &\necho $! > '{d}/sleeper'\npython3 '{b}' '{d}'\n",
            d = dir.display(),
            b = bot.display()
        ),
    )
    .unwrap();
    format!("sh '{}'", script.display()).parse().unwrap()
}

fn limits() -> Limits {
    Limits {
        handshake: PATIENCE,
        per_move: Duration::from_millis(300),
        grace: Duration::from_millis(200),
        stderr: false,
        ..Limits::default()
    }
}

/// The pids the launcher and its bot wrote.
fn pids(dir: &Path) -> Vec<u32> {
    let started = Instant::now();
    loop {
        let read: Option<Vec<u32>> = ["launcher", "sleeper", "bot"]
            .iter()
            .map(|f| std::fs::read_to_string(dir.join(f)).ok()?.trim().parse().ok())
            .collect();
        if let Some(pids) = read {
            return pids;
        }
        assert!(started.elapsed() < PATIENCE, "the launcher did not write its pids");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Whether `pid` is a live process (a zombie waiting for its reaper is not).
fn alive(pid: u32) -> bool {
    let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
        return false;
    };
    let state = stat.rsplit_once(')').map(|(_, rest)| rest.trim_start().chars().next());
    !matches!(state, Some(Some('Z' | 'X')))
}

/// This process's threads that read or write a bot's pipes.
fn pipe_threads() -> usize {
    std::fs::read_dir("/proc/self/task")
        .unwrap()
        .filter_map(|t| std::fs::read_to_string(t.ok()?.path().join("comm")).ok())
        .filter(|comm| comm.trim().starts_with("bot-"))
        .count()
}

/// Waits (within [`PATIENCE`]) until none of `pids` lives and no thread
/// waits on a bot's pipe.
fn all_gone(pids: &[u32], case: &str) {
    let started = Instant::now();
    while pids.iter().any(|&p| alive(p)) || pipe_threads() > 0 {
        if started.elapsed() > PATIENCE {
            let left: Vec<u32> = pids.iter().copied().filter(|&p| alive(p)).collect();
            // Leave nothing behind the failing test either.
            for &p in &left {
                let _ = std::process::Command::new("kill").arg("-9").arg(p.to_string()).status();
            }
            panic!("{case}: processes {left:?} of the bot's group outlived it; {} pipe threads", pipe_threads());
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn a_bots_whole_process_group_goes_with_it() {
    let game = Game::new(Setup::standard(Rules::default(), 2, 7)).unwrap();
    let view = View::new(&game, PlayerId(0));

    // A late move: the group is killed at once, before the bot is dropped.
    let dir = TempDir::new("late");
    let mut bot = BotProcess::spawn(&launcher(&dir.0, "sleep"), limits()).unwrap();
    let started = pids(&dir.0);
    assert!(matches!(bot.decide(&view), Err(BotFailure::Late(_))));
    all_gone(&started, "late answer");
    drop(bot);

    // A bad answer.
    let dir = TempDir::new("garbage");
    let mut bot = BotProcess::spawn(&launcher(&dir.0, "garbage"), limits()).unwrap();
    let started = pids(&dir.0);
    assert!(matches!(bot.decide(&view), Err(BotFailure::Garbage(_))));
    all_gone(&started, "bad answer");
    drop(bot);

    // Let go without a failure (the end of an arena, a server stopping): the
    // bot is told to quit (this one does not listen), and its group goes.
    let dir = TempDir::new("drop");
    let bot = BotProcess::spawn(&launcher(&dir.0, "sleep"), limits()).unwrap();
    let started = pids(&dir.0);
    assert!(started.iter().all(|&p| alive(p)));
    drop(bot);
    all_gone(&started, "dropped");

    // A host that stops with a bot still running (an interrupted arena, a
    // server stopping) kills its group before it goes.
    let dir = TempDir::new("all");
    let bot = BotProcess::spawn(&launcher(&dir.0, "sleep"), limits()).unwrap();
    let started = pids(&dir.0);
    carcassonne_ai::external::kill_all();
    let stopped = Instant::now();
    while started.iter().any(|&p| alive(p)) {
        assert!(stopped.elapsed() < PATIENCE, "kill_all left {started:?}");
        std::thread::sleep(Duration::from_millis(50));
    }
    drop(bot);
    all_gone(&started, "killed all");
}

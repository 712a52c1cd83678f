//! A bot in another process, spoken to through the bot protocol
//! ([`crate::protocol`], docs/bot-protocol.md).
//!
//! The host never waits on the bot without a deadline: lines are read by a
//! thread of their own and handed over through a channel that the host waits
//! on with a timeout, lines are written by another thread (a bot that does
//! not read its input cannot block the host), a line longer than
//! [`Limits::max_line`] is refused without being kept.
//!
//! The program runs in a process group of its own (a launcher script and
//! whatever it forks with it): the whole group is killed as soon as the bot
//! fails (a late or bad answer) and when its [`BotProcess`] is dropped, so
//! that nothing of it outlives its game and no pipe stays open — the
//! reading and writing threads end when the pipes close. (A program that
//! leaves its group on purpose, with `setsid`, is beyond the host's reach.)

use std::fmt;
use std::io::{BufRead, BufReader, Read, Write};
use std::os::unix::process::CommandExt;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::str::FromStr;
use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::time::{Duration, Instant};

use carcassonne::{Move, Rules, View};

use crate::protocol::{rules_json, BotView, Forfeited, FromBot, ToBot, PROTOCOL_VERSION};

/// A command line that starts a bot, split as a POSIX shell would split it
/// (quotes and backslashes), but run without a shell.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BotCommand {
    /// As written.
    pub line: String,
    pub program: String,
    pub args: Vec<String>,
}

/// A command line that could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CommandError(pub String);

impl fmt::Display for CommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bad bot command \"{}\" (expected a program and its arguments)", self.0)
    }
}

impl std::error::Error for CommandError {}

impl FromStr for BotCommand {
    type Err = CommandError;

    fn from_str(line: &str) -> Result<BotCommand, CommandError> {
        let words = shlex::split(line).filter(|w| !w.is_empty()).ok_or_else(|| CommandError(line.to_string()))?;
        let (program, args) = words.split_first().ok_or_else(|| CommandError(line.to_string()))?;
        Ok(BotCommand { line: line.trim().to_string(), program: program.clone(), args: args.to_vec() })
    }
}

impl fmt::Display for BotCommand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.line)
    }
}

/// How long and how much a host grants a bot.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    /// For the hello answer (an interpreter may take a while to start).
    pub handshake: Duration,
    /// For each move, as told to the bot.
    pub per_move: Duration,
    /// Added to `per_move` before an answer is late: the pipes and the
    /// host's own work.
    pub grace: Duration,
    /// The longest line read from the bot, in bytes.
    pub max_line: usize,
    /// Whether the bot's standard error goes to ours (else it is discarded).
    pub stderr: bool,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            handshake: Duration::from_secs(10),
            per_move: Duration::from_secs(1),
            grace: Duration::from_millis(250),
            max_line: 64 * 1024,
            stderr: true,
        }
    }
}

/// Why a bot lost its game (or could not start one).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BotFailure {
    /// The program could not be started.
    Spawn(String),
    /// It closed its output or exited.
    Exited(String),
    /// No answer within the time.
    Late(Duration),
    /// A line that is not a message the protocol allows here.
    Garbage(String),
    /// A line longer than the limit.
    TooLong(usize),
    /// It speaks another version of the protocol.
    Version(u32),
    /// The game's rules use an option it did not list in its hello.
    Unsupported(&'static str),
    /// A move that is not among the legal ones.
    Illegal(String),
}

impl BotFailure {
    /// A stable code for reports.
    pub fn code(&self) -> &'static str {
        match self {
            BotFailure::Spawn(_) => "spawn",
            BotFailure::Exited(_) => "exited",
            BotFailure::Late(_) => "late",
            BotFailure::Garbage(_) => "garbage",
            BotFailure::TooLong(_) => "too_long",
            BotFailure::Version(_) => "version",
            BotFailure::Unsupported(_) => "unsupported_rules",
            BotFailure::Illegal(_) => "illegal",
        }
    }
}

impl fmt::Display for BotFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BotFailure::Spawn(e) => write!(f, "could not start: {e}"),
            BotFailure::Exited(how) => write!(f, "exited ({how})"),
            BotFailure::Late(d) => write!(f, "no answer within {} ms", d.as_millis()),
            BotFailure::Garbage(line) => write!(f, "sent a line that is not a protocol message here: {line}"),
            BotFailure::TooLong(n) => write!(f, "sent a line longer than {n} bytes"),
            BotFailure::Version(v) => write!(f, "speaks protocol {v}, not {PROTOCOL_VERSION}"),
            BotFailure::Unsupported(o) => write!(f, "does not play the rule option {o}"),
            BotFailure::Illegal(why) => write!(f, "played an illegal move: {why}"),
        }
    }
}

impl std::error::Error for BotFailure {}

/// What a bot said about itself.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BotInfo {
    pub name: String,
    pub author: String,
    pub rules: Vec<String>,
}

/// The process groups of the bots running (0: a free place), for
/// [`kill_all`]: atomics, which a signal handler may read. A bot beyond
/// the places is not listed (it is still killed when let go).
static GROUPS: [AtomicI32; 1024] = [const { AtomicI32::new(0) }; 1024];

fn listed(pgid: i32, listed: bool) {
    let (from, to) = if listed { (0, pgid) } else { (pgid, 0) };
    let _ = GROUPS.iter().any(|g| g.compare_exchange(from, to, Ordering::SeqCst, Ordering::SeqCst).is_ok());
}

/// Kills the process group of every bot this process still runs (a host
/// that stops). Safe in a signal handler: atomics and `kill(2)` only.
pub fn kill_all() {
    for g in &GROUPS {
        let pgid = g.swap(0, Ordering::SeqCst);
        if pgid > 0 {
            // SAFETY: kill(2) touches no memory of ours.
            unsafe {
                libc::kill(-pgid, libc::SIGKILL);
            }
        }
    }
}

/// Makes an interrupt (`SIGINT`, `SIGTERM`, `SIGHUP`) kill every bot's
/// process group before the process ends as it would have: bots run in
/// groups of their own, which the terminal's Ctrl-C does not reach. For
/// hosts that do not handle these signals themselves (the arena).
pub fn kill_all_on_interrupt() {
    extern "C" fn on_signal(signal: libc::c_int) {
        kill_all();
        // SAFETY: signal(2) and raise(3) are async-signal-safe; the default
        // action ends the process as the signal would have.
        unsafe {
            libc::signal(signal, libc::SIG_DFL);
            libc::raise(signal);
        }
    }
    for signal in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
        // SAFETY: the handler only calls async-signal-safe functions.
        unsafe {
            libc::signal(signal, on_signal as *const () as libc::sighandler_t);
        }
    }
}

/// A line read from the bot, or why there are no more.
type Line = Result<String, BotFailure>;

/// A running bot. Dropping it tells it to quit and kills it.
pub struct BotProcess {
    child: Child,
    lines: Receiver<Line>,
    writer: Option<Sender<String>>,
    limits: Limits,
    info: BotInfo,
    /// Set once the bot has failed: it is not spoken to again.
    failed: Option<BotFailure>,
    /// Set once its group is killed and it is reaped.
    gone: bool,
}

impl fmt::Debug for BotProcess {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BotProcess").field("pid", &self.child.id()).field("info", &self.info).finish()
    }
}

impl BotProcess {
    /// Starts the bot and shakes hands with it.
    ///
    /// # Errors
    /// The program does not start, or does not answer the hello in time
    /// with a hello of this protocol version.
    pub fn spawn(command: &BotCommand, limits: Limits) -> Result<BotProcess, BotFailure> {
        let mut child = Command::new(&command.program)
            .args(&command.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(if limits.stderr { Stdio::inherit() } else { Stdio::null() })
            .process_group(0)
            .spawn()
            .map_err(|e| BotFailure::Spawn(format!("{}: {e}", command.program)))?;
        if let Ok(pgid) = i32::try_from(child.id()) {
            listed(pgid, true);
        }
        let stdin = child.stdin.take().expect("piped");
        let stdout = child.stdout.take().expect("piped");
        let mut bot = BotProcess {
            lines: read_lines(stdout, limits.max_line),
            writer: Some(write_lines(stdin)),
            child,
            limits,
            info: BotInfo { name: String::new(), author: String::new(), rules: Vec::new() },
            failed: None,
            gone: false,
        };
        bot.send(&ToBot::Hello {
            protocol: PROTOCOL_VERSION,
            host: format!("carcassonne {}", env!("CARGO_PKG_VERSION")),
        });
        match bot.receive(limits.handshake)? {
            FromBot::Hello { name, author, protocol, rules } => {
                if protocol != PROTOCOL_VERSION {
                    return Err(bot.fail(BotFailure::Version(protocol)));
                }
                bot.info = BotInfo { name, author, rules };
                Ok(bot)
            }
            other => Err(bot.fail(BotFailure::Garbage(short(&format!("{other:?}"))))),
        }
    }

    pub fn info(&self) -> &BotInfo {
        &self.info
    }

    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// Tells the bot a game begins.
    ///
    /// # Errors
    /// The rules use an option the bot did not say it plays.
    pub fn new_game(&mut self, game: &str, rules: &Rules, players: &[String], seat: u8) -> Result<(), BotFailure> {
        if let Err(option) = FromBot::supports(&self.info.rules, rules) {
            return Err(BotFailure::Unsupported(option));
        }
        self.send(&ToBot::NewGame {
            game: game.to_string(),
            rules: rules_json(rules),
            players: players.to_vec(),
            seat,
            time_ms: self.limits.per_move.as_millis() as u64,
        });
        Ok(())
    }

    /// Asks the bot for its move in `view` (its seat's, with it to move)
    /// and checks it against the legal moves.
    ///
    /// # Errors
    /// The bot failed before, or does not answer a legal move in time.
    pub fn decide(&mut self, view: &View<'_>) -> Result<Move, BotFailure> {
        let started = Instant::now();
        let legal = view.legal_moves();
        let view = Box::new(BotView::new(view));
        let turn = view.turn;
        self.send(&ToBot::Decide { turn, time_ms: self.limits.per_move.as_millis() as u64, view });
        let deadline = self.limits.per_move + self.limits.grace;
        let answer = self.receive(deadline.saturating_sub(started.elapsed()))?;
        let FromBot::Move { mv } = answer else {
            return Err(self.fail(BotFailure::Garbage("a hello where a move was expected".into())));
        };
        // Read as a record's move (a tile's course name, `"recall": false`
        // are fine), then looked for among the engine's legal moves.
        let text = serde_json::to_string(&mv).unwrap_or_default();
        match mv.to_move() {
            Ok(m) if legal.contains(&m) => Ok(m),
            Ok(_) => Err(self.fail(BotFailure::Illegal(format!("{text} is not among the legal moves")))),
            Err(e) => Err(self.fail(BotFailure::Illegal(format!("{text}: {e}")))),
        }
    }

    /// Tells the bot a move was played. A bot that cannot hear it any more
    /// is found out at its next decision.
    pub fn played(&mut self, turn: u16, seat: u8, mv: &Move, scores: &[u32]) {
        self.send(&ToBot::Played {
            turn,
            seat,
            mv: carcassonne::record::RecordMove::from_move(mv),
            scores: scores.to_vec(),
        });
    }

    /// Tells the bot the game is over.
    pub fn game_over(&mut self, scores: &[u32], winners: &[u8], forfeit: Option<Forfeited>) {
        self.send(&ToBot::GameOver { scores: scores.to_vec(), winners: winners.to_vec(), forfeit });
    }

    /// Marks the bot failed and kills its whole process group: it is not
    /// spoken to again.
    fn fail(&mut self, failure: BotFailure) -> BotFailure {
        self.failed = Some(failure.clone());
        self.kill_group();
        failure
    }

    /// Kills every process of the bot's group (the program, and whatever it
    /// started), then reaps the program.
    fn kill_group(&mut self) {
        // The writer ends when its channel closes.
        self.writer = None;
        if std::mem::replace(&mut self.gone, true) {
            // Reaped: its id may be another's by now.
            return;
        }
        // The group's id is the program's pid (`process_group(0)`); while
        // any process of the group lives, the id is not given to another.
        if let Ok(pgid) = libc::pid_t::try_from(self.child.id()) {
            // SAFETY: kill(2) with a negative pid signals a process group; it
            // touches no memory of ours.
            unsafe {
                libc::kill(-pgid, libc::SIGKILL);
            }
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
        if let Ok(pgid) = i32::try_from(self.child.id()) {
            listed(pgid, false);
        }
    }

    fn send(&mut self, msg: &ToBot) {
        if self.failed.is_some() {
            return;
        }
        let line = serde_json::to_string(msg).expect("messages serialize");
        if let Some(w) = &self.writer {
            // A writer that is gone means a bot that is gone: it shows when
            // an answer is awaited.
            let _ = w.send(line);
        }
    }

    /// The bot's next message, waiting at most `within`. Blank lines are skipped.
    fn receive(&mut self, within: Duration) -> Result<FromBot, BotFailure> {
        if let Some(f) = &self.failed {
            return Err(f.clone());
        }
        let deadline = Instant::now() + within;
        loop {
            let line = match self.lines.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
                Ok(Ok(line)) => line,
                Ok(Err(e)) => {
                    let e = self.exit_reason(e);
                    return Err(self.fail(e));
                }
                Err(RecvTimeoutError::Timeout) => return Err(self.fail(BotFailure::Late(within))),
                Err(RecvTimeoutError::Disconnected) => {
                    let e = self.exit_reason(BotFailure::Exited("output closed".into()));
                    return Err(self.fail(e));
                }
            };
            if line.trim().is_empty() {
                continue;
            }
            return serde_json::from_str(&line).map_err(|_| self.fail(BotFailure::Garbage(short(&line))));
        }
    }

    /// An end of output named by the exit status when there is one.
    fn exit_reason(&mut self, e: BotFailure) -> BotFailure {
        if !matches!(e, BotFailure::Exited(_)) {
            return e;
        }
        // The status may lag the closed pipe by a moment.
        for _ in 0..20 {
            if let Ok(Some(status)) = self.child.try_wait() {
                return BotFailure::Exited(status.to_string());
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        e
    }
}

impl Drop for BotProcess {
    fn drop(&mut self) {
        if self.failed.is_none() {
            self.send(&ToBot::Quit);
        }
        // The writer ends when its channel closes, which closes the bot's input.
        self.writer = None;
        // A well-behaved bot exits on quit; give it a moment, then make sure.
        // (Whatever else it started goes with its group in any case.)
        let until = Instant::now() + Duration::from_millis(if self.failed.is_none() { 200 } else { 0 });
        while Instant::now() < until && !matches!(self.child.try_wait(), Ok(Some(_))) {
            std::thread::sleep(Duration::from_millis(2));
        }
        self.kill_group();
    }
}

/// The first 200 characters of a line, for messages.
fn short(line: &str) -> String {
    let mut s: String = line.chars().take(200).collect();
    if s.len() < line.len() {
        s.push('…');
    }
    s
}

/// Reads the bot's lines on a thread of its own; the first failure ends it.
fn read_lines(stdout: ChildStdout, max_line: usize) -> Receiver<Line> {
    // Bounded: a bot that floods lines waits for us, it does not fill our memory.
    let (tx, rx) = mpsc::sync_channel(16);
    std::thread::Builder::new()
        .name("bot-reader".into())
        .spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                // Never more than the limit (and a byte to tell) in memory.
                let read = reader.by_ref().take(max_line as u64 + 1).read_until(b'\n', &mut buf);
                let line = match read {
                    Ok(0) => Err(BotFailure::Exited("output closed".into())),
                    Ok(_) if buf.last() != Some(&b'\n') && buf.len() > max_line => Err(BotFailure::TooLong(max_line)),
                    Ok(_) => match String::from_utf8(std::mem::take(&mut buf)) {
                        Ok(s) => Ok(s),
                        Err(_) => Err(BotFailure::Garbage("a line that is not UTF-8".into())),
                    },
                    Err(e) => Err(BotFailure::Exited(format!("output unreadable: {e}"))),
                };
                let stop = line.is_err();
                if tx.send(line).is_err() || stop {
                    return;
                }
            }
        })
        .expect("a thread for the bot's output");
    rx
}

/// Writes lines to the bot on a thread of its own, until the channel closes
/// or the bot stops reading.
fn write_lines(mut stdin: ChildStdin) -> Sender<String> {
    let (tx, rx) = mpsc::channel::<String>();
    std::thread::Builder::new()
        .name("bot-writer".into())
        .spawn(move || {
            for mut line in rx {
                line.push('\n');
                if stdin.write_all(line.as_bytes()).and_then(|()| stdin.flush()).is_err() {
                    return;
                }
            }
        })
        .expect("a thread for the bot's input");
    tx
}

//! The load generator shared by `examples/load.rs` (the measurement) and
//! `tests/load.rs` (a reduced run that checks correctness, not speed).
//!
//! It creates games (one seat for the load client, the others `random`
//! bots), opens one websocket per game over real TCP (websocket protocol 2,
//! or 1), and plays every game at once: on its turn the client waits
//! `pace` (a person thinking), sends a random legal move (a seeded RNG) and
//! times it until the state that includes the move comes back. Spectators
//! (`spectators` per game) watch each game on sockets of their own and
//! must end on the game's last version.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use carcassonne_server::{rebuild, serve_on, AppState, Config, Store};
use futures_util::{SinkExt, StreamExt};
use indicatif::ProgressBar;
use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio_tungstenite::tungstenite::Message;

/// How long any one answer may take before it counts as an error (and the
/// game is given up): a bound, not a measurement.
pub const PATIENCE: Duration = Duration::from_secs(120);

/// What to run.
#[derive(Clone, Debug)]
pub struct Options {
    pub games: usize,
    /// Stop each game after the client's `n`-th move (`None`: play to the end).
    pub moves_per_game: Option<usize>,
    /// Bot seats per game (1 to 5).
    pub bots: usize,
    pub seed: u64,
    /// How long the client thinks once its turn starts (zero: flat out).
    pub pace: Duration,
    /// Spectator sockets per game.
    pub spectators: usize,
    /// The websocket protocol spoken (1 or 2).
    pub protocol: u8,
    /// Game `i` of `n` starts `i/n` of this after the first (people do not
    /// all sit down in the same second).
    pub ramp: Duration,
}

impl Options {
    /// Flat out, protocol 2, no spectators.
    pub fn new(games: usize) -> Options {
        Options {
            games,
            moves_per_game: None,
            bots: 1,
            seed: 1,
            pace: Duration::ZERO,
            spectators: 0,
            protocol: 2,
            ramp: Duration::ZERO,
        }
    }
}

/// One game as the client saw it.
#[derive(Clone, Debug)]
pub struct GameRun {
    pub id: String,
    /// The client's moves as sent (record form), with the version each was made for.
    pub sent: Vec<(u64, Value)>,
    /// The last version the client saw.
    pub last_version: u64,
    pub finished: bool,
}

/// What a run measured.
#[derive(Debug, Default)]
pub struct Report {
    pub games: Vec<GameRun>,
    pub wall: Duration,
    /// Client move latencies: from sending the move to the state that includes it.
    pub latencies: Vec<Duration>,
    /// When each of `latencies` was sent, from the start of the run.
    pub sent_at: Vec<Duration>,
    pub errors: Vec<String>,
    /// Spectator sockets opened, and the messages and bytes they received.
    pub spectators: usize,
    pub spectator_messages: u64,
    pub spectator_bytes: u64,
    /// Bytes the playing client received.
    pub client_bytes: u64,
}

impl Report {
    pub fn client_moves(&self) -> usize {
        self.games.iter().map(|g| g.sent.len()).sum()
    }

    /// Every move played while the client watched (its own and the bots').
    pub fn total_moves(&self) -> u64 {
        self.games.iter().map(|g| g.last_version).sum()
    }

    pub fn percentile(&self, q: f64) -> Duration {
        let mut l = self.latencies.clone();
        l.sort();
        if l.is_empty() {
            return Duration::ZERO;
        }
        l[((l.len() - 1) as f64 * q).round() as usize]
    }

    pub fn summary(&self) -> String {
        let ms = |d: Duration| format!("{:.1} ms", d.as_secs_f64() * 1000.0);
        let wall = self.wall.as_secs_f64();
        format!(
            "games: {} ({} finished)\ntotal moves: {} ({} client, {} bot)\nwall time: {:.2} s\nmoves/s: {:.0}\n\
             client move latency: p50 {}  p90 {}  p99 {}  max {}\n\
             received: {:.1} MB by the players, {:.1} MB by {} spectators ({} messages)\nerrors: {}",
            self.games.len(),
            self.games.iter().filter(|g| g.finished).count(),
            self.total_moves(),
            self.client_moves(),
            self.total_moves() - self.client_moves() as u64,
            wall,
            self.total_moves() as f64 / wall.max(1e-9),
            ms(self.percentile(0.5)),
            ms(self.percentile(0.9)),
            ms(self.percentile(0.99)),
            ms(self.percentile(1.0)),
            self.client_bytes as f64 / 1e6,
            self.spectator_bytes as f64 / 1e6,
            self.spectators,
            self.spectator_messages,
            self.errors.len(),
        ) + &self.timeline()
    }

    /// The p99 latency of the moves sent in each 10 s of the run (where a
    /// slow tail comes from: the games starting, or all along).
    pub fn timeline(&self) -> String {
        let mut windows: Vec<Vec<Duration>> = Vec::new();
        for (at, latency) in self.sent_at.iter().zip(&self.latencies) {
            let w = (at.as_secs() / 10) as usize;
            if windows.len() <= w {
                windows.resize(w + 1, Vec::new());
            }
            windows[w].push(*latency);
        }
        let p99 = |l: &mut Vec<Duration>| {
            l.sort();
            l.get(((l.len().max(1) - 1) as f64 * 0.99).round() as usize).map_or(0.0, |d| d.as_secs_f64() * 1000.0)
        };
        let figures: Vec<String> = windows.iter_mut().map(|l| format!("{:.0}", p99(l))).collect();
        format!("\nclient move latency p99 by 10 s of the run (ms): {}", figures.join(" "))
    }
}

/// An in-process server on a loopback port with its games in a temporary
/// SQLite file; bots move at once, no limits. Returns `host:port`, the
/// state, the file.
pub async fn start_server(name: &str) -> (String, AppState, TempFile) {
    start_server_on(name, "127.0.0.1:0", unlimited()).await
}

/// No limits, bots move at once (`load` and the reduced test).
pub fn unlimited() -> Config {
    Config { bot_delay: Duration::ZERO, ..Config::unlimited() }
}

/// The shipped defaults (`Config::default()`), less what the one address
/// every load player comes from would trip, and bots that move at once.
/// Lifted: the limits per address (the HTTP rate, connections, sockets,
/// games made and active, reviews, spectators per game). Raised: the
/// connection cap, to `max_connections` (4,096 by default, fewer than one
/// socket per game at 10,000 games). Kept: each socket's message rate, the
/// sockets per game, the reviews in all, the timeouts, expiry, and the
/// connection layer's giving way to newcomers at the cap.
pub fn shipped(max_connections: usize) -> Config {
    Config {
        bot_delay: Duration::ZERO,
        http_rate: None,
        max_connections,
        max_connections_per_ip: usize::MAX,
        max_sockets_per_ip: usize::MAX,
        max_new_games_per_hour_per_ip: usize::MAX,
        max_active_games_per_ip: usize::MAX,
        max_reviews_per_ip: usize::MAX,
        max_spectators_per_ip_per_game: usize::MAX,
        ..Config::default()
    }
}

/// A server as [`start_server`] with `config`, on `addr`.
pub async fn start_server_on(name: &str, addr: &str, config: Config) -> (String, AppState, TempFile) {
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos();
    let file = TempFile(std::env::temp_dir().join(format!("carcassonne-{name}-{}-{nanos}.db", std::process::id())));
    let store: Store = Store::sqlite(&file.0).expect("a database file");
    let state = AppState::new(store, config);
    let listener = carcassonne_server::bind(addr).await.expect("an address to listen on");
    let addr = listener.local_addr().unwrap().to_string();
    tokio::spawn(serve_on(listener, state.clone()));
    (addr, state, file)
}

/// A database file removed (with its WAL files) on drop.
pub struct TempFile(pub PathBuf);

impl TempFile {
    pub fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        for suffix in ["", "-wal", "-shm", "-lock"] {
            let _ = std::fs::remove_file(format!("{}{suffix}", self.0.display()));
        }
    }
}

/// A tiny HTTP/1.1 client: one JSON request per connection.
pub async fn http(addr: &str, method: &str, path: &str, body: &str) -> Result<(u16, Value), String> {
    let mut s = tokio::net::TcpStream::connect(addr).await.map_err(|e| format!("connect: {e}"))?;
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).await.map_err(|e| format!("write: {e}"))?;
    let mut out = Vec::new();
    s.read_to_end(&mut out).await.map_err(|e| format!("read: {e}"))?;
    let text = String::from_utf8_lossy(&out);
    let (head, body) = text.split_once("\r\n\r\n").ok_or("no end of headers")?;
    let status: u16 = head.split_whitespace().nth(1).and_then(|s| s.parse().ok()).ok_or("no status")?;
    // Bodies here have a length (axum's JSON); a chunked one is cut to its JSON.
    let json = match (body.find(['{', '[']), body.rfind(['}', ']'])) {
        (Some(a), Some(b)) => &body[a..=b],
        _ => "null",
    };
    Ok((status, serde_json::from_str(json).map_err(|e| format!("not JSON: {e}"))?))
}

/// Plays `opts.games` games at once against the server at `addr`.
pub async fn run(addr: &str, opts: &Options, progress: Option<ProgressBar>) -> Report {
    let started = Instant::now();
    let mut tasks = Vec::with_capacity(opts.games);
    for i in 0..opts.games {
        let (addr, opts, progress) = (addr.to_string(), opts.clone(), progress.clone());
        let start = started + opts.ramp.mul_f64(i as f64 / opts.games as f64);
        tasks.push(tokio::spawn(async move {
            tokio::time::sleep_until(start.into()).await;
            let out = play_one(&addr, &opts, i).await;
            if let Some(p) = progress {
                p.inc(1);
            }
            out
        }));
    }
    let mut report = Report::default();
    for t in tasks {
        match t.await {
            Ok(out) => {
                report.games.extend(out.game);
                for (sent, latency) in out.latencies {
                    report.sent_at.push(sent.saturating_duration_since(started));
                    report.latencies.push(latency);
                }
                report.errors.extend(out.errors);
                report.client_bytes += out.bytes;
                report.spectators += out.spectators;
                report.spectator_messages += out.spectator_messages;
                report.spectator_bytes += out.spectator_bytes;
            }
            Err(e) => report.errors.push(format!("a game task failed: {e}")),
        }
    }
    report.wall = started.elapsed();
    report
}

type Socket = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// What one game's run brought back.
#[derive(Default)]
struct Outcome {
    game: Option<GameRun>,
    latencies: Vec<(Instant, Duration)>,
    errors: Vec<String>,
    bytes: u64,
    spectators: usize,
    spectator_messages: u64,
    spectator_bytes: u64,
}

/// A websocket that keeps what the client needs of the game's state as the
/// server describes it, in either protocol (protocol 2's updates applied as
/// docs/web.md says). The rest of each message (board, log, counts…) is
/// skipped unread, so that the load client costs the machine little.
struct Follow {
    ws: Socket,
    state: Seen,
    rev: u64,
    messages: u64,
    bytes: u64,
}

/// What the load client reads of the state.
#[derive(Clone, Debug, Default)]
struct Seen {
    version: u64,
    finished: bool,
    /// The seat to move.
    turn: Option<u8>,
    /// The placements the client may make (sent to the player to move).
    legal: Vec<Placement>,
}

#[derive(Clone, Debug, serde::Deserialize)]
struct Placement {
    tile: String,
    at: [i32; 2],
    rot: u8,
    meeple: Vec<String>,
}

#[derive(serde::Deserialize)]
struct Turn {
    seat: u8,
}

/// A state, or the changes of an update: each field when present.
#[derive(Default, serde::Deserialize)]
#[serde(default)]
struct Patch {
    version: Option<u64>,
    status: Option<String>,
    #[serde(deserialize_with = "present")]
    turn: Option<Option<Turn>>,
    #[serde(deserialize_with = "present")]
    legal: Option<Option<Vec<Placement>>>,
}

/// A field that is present (`null` included).
fn present<'de, T: serde::Deserialize<'de>, D: serde::Deserializer<'de>>(d: D) -> Result<Option<T>, D::Error> {
    T::deserialize(d).map(Some)
}

/// A server message, as far as the client reads it.
#[derive(serde::Deserialize)]
struct Incoming {
    #[serde(rename = "type")]
    kind: String,
    #[serde(default)]
    rev: u64,
    base: Option<u64>,
    state: Option<Patch>,
    changes: Option<Patch>,
}

impl Seen {
    fn apply(&mut self, p: Patch) {
        if let Some(v) = p.version {
            self.version = v;
        }
        if let Some(s) = p.status {
            self.finished = s == "finished";
        }
        if let Some(t) = p.turn {
            self.turn = t.map(|t| t.seat);
        }
        if let Some(l) = p.legal {
            self.legal = l.unwrap_or_default();
        }
    }
}

impl Follow {
    async fn open(addr: &str, id: &str, token: Option<&str>, protocol: u8) -> Result<Follow, String> {
        let token = token.map(|t| format!("&token={t}")).unwrap_or_default();
        let url = format!("ws://{addr}/api/games/{id}/ws?protocol={protocol}{token}");
        // As a browser does: a connection refused or reset in a crowd of
        // thousands opening at once is tried again, a little later.
        let mut wait = Duration::from_millis(100);
        let ws = loop {
            // (A read buffer of 16 KiB rather than 128 KiB, zeroed before
            // every read: the client shares the machine with the server.)
            let config =
                tokio_tungstenite::tungstenite::protocol::WebSocketConfig::default().read_buffer_size(16 * 1024);
            match tokio_tungstenite::connect_async_with_config(&url, Some(config), false).await {
                Ok((ws, _)) => break ws,
                Err(e) if wait > Duration::from_secs(5) => return Err(format!("websocket: {e}")),
                Err(_) => {
                    tokio::time::sleep(wait).await;
                    wait *= 2;
                }
            }
        };
        Ok(Follow { ws, state: Seen::default(), rev: 0, messages: 0, bytes: 0 })
    }

    /// The next state (after an error message: `Err` with it).
    async fn next(&mut self) -> Result<Result<&Seen, String>, String> {
        let mut synced = false;
        loop {
            let text = match tokio::time::timeout(PATIENCE, self.ws.next()).await {
                Err(_) => return Err(format!("no message for {PATIENCE:?}")),
                Ok(None | Some(Ok(Message::Close(_)))) => return Err("the socket closed".into()),
                Ok(Some(Err(e))) => return Err(e.to_string()),
                Ok(Some(Ok(Message::Text(t)))) => t,
                Ok(Some(Ok(_))) => continue,
            };
            self.messages += 1;
            self.bytes += text.len() as u64;
            let m: Incoming = serde_json::from_str(&text).map_err(|e| format!("not a message: {e}: {text}"))?;
            match (m.kind.as_str(), m.state, m.changes) {
                ("state", Some(state), _) => {
                    // Protocol 1's states are whole; so is protocol 2's first.
                    self.state = Seen::default();
                    self.state.apply(state);
                    self.rev = m.rev;
                    return Ok(Ok(&self.state));
                }
                ("update", _, changes) => {
                    if m.base != Some(self.rev) {
                        // A gap: the whole state again (asked once).
                        if !synced {
                            let sync = Message::Text(json!({ "type": "sync" }).to_string().into());
                            self.ws.send(sync).await.map_err(|e| format!("send: {e}"))?;
                            synced = true;
                        }
                        continue;
                    }
                    self.state.apply(changes.unwrap_or_default());
                    self.rev = m.rev;
                    return Ok(Ok(&self.state));
                }
                ("error", ..) => return Ok(Err(text.to_string())),
                _ => return Err(format!("an unknown message: {text}")),
            }
        }
    }

    async fn send(&mut self, msg: &Value) -> Result<(), String> {
        self.ws.send(Message::Text(msg.to_string().into())).await.map_err(|e| format!("send: {e}"))
    }
}

/// A spectator: follows the game until it ends or reaches the version the
/// player stopped at (`stop`); returns the last version seen, messages and bytes.
async fn spectate(
    addr: String,
    id: String,
    protocol: u8,
    mut stop: tokio::sync::watch::Receiver<Option<u64>>,
) -> Result<(u64, u64, u64), String> {
    let mut f = Follow::open(&addr, &id, None, protocol).await?;
    let mut version = 0;
    loop {
        if stop.borrow().is_some_and(|last| version >= last) {
            break;
        }
        tokio::select! {
            next = f.next() => {
                if let Ok(s) = next? {
                    version = s.version;
                    if s.finished {
                        break;
                    }
                }
            }
            _ = stop.changed() => {}
        }
    }
    let _ = f.ws.close(None).await;
    Ok((version, f.messages, f.bytes))
}

/// One game: create, connect (with its spectators), play.
async fn play_one(addr: &str, opts: &Options, i: usize) -> Outcome {
    let mut out = Outcome::default();
    let mut seats = vec![json!({ "kind": "human", "name": "Load" })];
    seats.extend((0..opts.bots.clamp(1, 5)).map(|_| json!({ "kind": "bot", "level": "random" })));
    let created = match http(addr, "POST", "/api/games", &json!({ "seats": seats }).to_string()).await {
        Ok((201, v)) => v,
        Ok((status, v)) => {
            out.errors.push(format!("game {i}: create: {status} {v}"));
            return out;
        }
        Err(e) => {
            out.errors.push(format!("game {i}: create: {e}"));
            return out;
        }
    };
    let id = created["id"].as_str().unwrap_or_default().to_string();
    let token = created["tokens"][0]["token"].as_str().unwrap_or_default().to_string();
    let mut game = GameRun { id: id.clone(), sent: Vec::new(), last_version: 0, finished: false };
    let (stop, stopped) = tokio::sync::watch::channel(None);
    let watchers: Vec<_> = (0..opts.spectators)
        .map(|_| tokio::spawn(spectate(addr.to_string(), id.clone(), opts.protocol, stopped.clone())))
        .collect();
    let mut ws = match Follow::open(addr, &id, Some(&token), opts.protocol).await {
        Ok(ws) => ws,
        Err(e) => {
            out.errors.push(format!("game {id}: {e}"));
            out.game = Some(game);
            return out;
        }
    };
    let mut rng = ChaCha8Rng::seed_from_u64(opts.seed.wrapping_add(i as u64));
    // The move in flight: the version it was made for and when it was sent.
    let mut pending: Option<(u64, Instant)> = None;
    loop {
        let s = match ws.next().await {
            Err(e) => {
                out.errors.push(format!("game {id}: {e}"));
                break;
            }
            Ok(Err(refusal)) => {
                out.errors.push(format!("game {id}: {refusal}"));
                continue;
            }
            Ok(Ok(s)) => s,
        };
        let (version, finished) = (s.version, s.finished);
        let ours = s.turn == Some(0) && !s.legal.is_empty();
        // Only what a move needs is kept (the state stays with the socket).
        let legal = if ours { s.legal.clone() } else { Vec::new() };
        game.last_version = game.last_version.max(version);
        if let Some((at, sent)) = pending {
            if version > at {
                out.latencies.push((sent, sent.elapsed()));
                pending = None;
            }
        }
        if finished {
            game.finished = true;
            break;
        }
        if pending.is_none() && opts.moves_per_game.is_some_and(|n| game.sent.len() >= n) {
            break;
        }
        if pending.is_none() && ours && game.sent.last().is_none_or(|(at, _)| *at < version) {
            // A person looks at the board before moving.
            tokio::time::sleep(opts.pace).await;
            let p = &legal[(rng.next_u64() % legal.len() as u64) as usize];
            let mut mv = json!({ "tile": p.tile, "at": p.at, "rot": p.rot });
            if !p.meeple.is_empty() && rng.next_u64() % 3 == 0 {
                mv["meeple"] = p.meeple[(rng.next_u64() % p.meeple.len() as u64) as usize].clone().into();
            }
            let mut msg = mv.clone();
            msg["type"] = "move".into();
            msg["version"] = version.into();
            pending = Some((version, Instant::now()));
            if let Err(e) = ws.send(&msg).await {
                out.errors.push(format!("game {id}: {e}"));
                break;
            }
            game.sent.push((version, mv));
        }
    }
    let _ = ws.ws.close(None).await;
    out.bytes = ws.bytes;
    let _ = stop.send(Some(game.last_version));
    for w in watchers {
        out.spectators += 1;
        match w.await {
            Ok(Ok((version, messages, bytes))) => {
                out.spectator_messages += messages;
                out.spectator_bytes += bytes;
                // (A game left unfinished may have moved on past the player.)
                if version < game.last_version || (game.finished && version != game.last_version) {
                    out.errors
                        .push(format!("game {id}: a spectator ended at version {version}, not {}", game.last_version));
                }
            }
            Ok(Err(e)) => out.errors.push(format!("game {id}: spectator: {e}")),
            Err(e) => out.errors.push(format!("game {id}: spectator task: {e}")),
        }
    }
    out.game = Some(game);
    out
}

/// Checks the store against what the client saw: every game stored, the
/// client's moves where it played them, at least as many moves stored as it
/// saw, and every stored record replays through the engine. Returns what
/// is wrong (nothing: all is well).
pub async fn verify(store: &Store, report: &Report) -> Vec<String> {
    let mut wrong = Vec::new();
    let mut ids = std::collections::HashSet::new();
    for g in &report.games {
        if !ids.insert(g.id.clone()) {
            wrong.push(format!("{}: the id was given twice", g.id));
        }
        match store.games.load(&g.id).await {
            Ok(Some(s)) => check(g, &s.record, s.live_seed, &mut wrong),
            Ok(None) => wrong.push(format!("{}: not stored", g.id)),
            Err(e) => wrong.push(format!("{}: {e}", g.id)),
        }
    }
    wrong
}

/// [`verify`] against a server in another process, through the record
/// anyone may download of each game (its moves are the stored ones).
pub async fn verify_remote(addr: &str, report: &Report) -> Vec<String> {
    let mut wrong = Vec::new();
    for g in &report.games {
        match http(addr, "GET", &format!("/api/games/{}/record", g.id), "").await {
            Ok((200, v)) => match serde_json::from_value::<carcassonne::record::Record>(v) {
                Ok(record) => check(g, &record, None, &mut wrong),
                Err(e) => wrong.push(format!("{}: the record does not read: {e}", g.id)),
            },
            Ok((status, v)) => wrong.push(format!("{}: record: {status} {v}", g.id)),
            Err(e) => wrong.push(format!("{}: record: {e}", g.id)),
        }
    }
    wrong
}

/// One game's record against what the client saw.
fn check(g: &GameRun, record: &carcassonne::record::Record, live_seed: Option<u64>, wrong: &mut Vec<String>) {
    let moves = &record.moves;
    if (moves.len() as u64) < g.last_version {
        wrong.push(format!("{}: {} moves stored, {} seen", g.id, moves.len(), g.last_version));
    }
    for (version, mv) in &g.sent {
        let here = moves.get(*version as usize).and_then(|m| serde_json::to_value(m).ok());
        if here.as_ref() != Some(mv) {
            wrong.push(format!("{} move {version}: sent {mv}, stored {here:?}", g.id));
        }
    }
    match rebuild(record, live_seed) {
        Ok(game) if game.moves_played() as usize == moves.len() => {}
        Ok(_) => wrong.push(format!("{}: the record replays to another length", g.id)),
        Err(e) => wrong.push(format!("{}: the record does not replay: {e}", g.id)),
    }
}

//! The real `carcassonne serve`, killed with SIGKILL mid-game: right after
//! it acknowledged a move, and while a move is in flight. Restarted on the
//! same database file, every acknowledged move is there in order, a move in
//! flight is there whole or not at all, the same tokens play on to the end,
//! and a bot whose turn it was moves without anyone opening its game. A
//! second server on a file in use is refused.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

/// A bound on every wait, so that a hung server fails the test instead of
/// hanging it (not a speed check).
const PATIENCE: Duration = Duration::from_secs(30);

/// A temporary directory for the database and the servers' logs.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos();
        let dir = std::env::temp_dir().join(format!("carcassonne-crash-{name}-{}-{nanos}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A tiny blocking HTTP/1.1 client: one request per connection.
fn http(port: u16, method: &str, path: &str, body: Option<&Value>) -> std::io::Result<(u16, Value)> {
    let mut s = TcpStream::connect(("127.0.0.1", port))?;
    s.set_read_timeout(Some(PATIENCE))?;
    let body = body.map(Value::to_string).unwrap_or_default();
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes())?;
    let mut out = Vec::new();
    s.read_to_end(&mut out)?;
    let text = String::from_utf8_lossy(&out);
    let bad = |what: &str| std::io::Error::new(std::io::ErrorKind::InvalidData, format!("{what}: {text:.200}"));
    let (head, rest) = text.split_once("\r\n\r\n").ok_or_else(|| bad("no end of headers"))?;
    let status: u16 = head.split_whitespace().nth(1).and_then(|s| s.parse().ok()).ok_or_else(|| bad("no status"))?;
    let chunked = head.to_ascii_lowercase().contains("transfer-encoding: chunked");
    let body = if chunked {
        let mut out = String::new();
        let mut rest = rest;
        loop {
            let (size, after) = rest.split_once("\r\n").ok_or_else(|| bad("bad chunk"))?;
            let size = usize::from_str_radix(size.trim(), 16).map_err(|_| bad("bad chunk size"))?;
            if size == 0 {
                break;
            }
            out.push_str(after.get(..size).ok_or_else(|| bad("short chunk"))?);
            rest = after.get(size + 2..).ok_or_else(|| bad("short chunk"))?;
        }
        out
    } else {
        rest.to_string()
    };
    let value = serde_json::from_str(&body).map_err(|_| bad("not JSON"))?;
    Ok((status, value))
}

fn get(port: u16, path: &str) -> Value {
    let (status, v) = http(port, "GET", path, None).unwrap();
    assert_eq!(status, 200, "GET {path}: {v}");
    v
}

/// A running `carcassonne serve`.
struct Server {
    child: Child,
    port: u16,
}

impl Server {
    /// Starts the binary on a free port and waits until it answers.
    fn start(db: &Path, bot_delay_ms: u64) -> Server {
        for attempt in 0..5 {
            // A free port: bound, then released for the server (another
            // process may take it meanwhile: then try again).
            let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
            let log = std::fs::File::create(db.with_extension(format!("log-{port}"))).unwrap();
            let mut child = Command::new(env!("CARGO_BIN_EXE_carcassonne"))
                .args(["serve", "--addr", &format!("127.0.0.1:{port}"), "--db"])
                .arg(db)
                .env("CARCASSONNE_BOT_DELAY_MS", bot_delay_ms.to_string())
                .env("CARCASSONNE_RATE_LIMIT", "off")
                .stdout(Stdio::null())
                .stderr(log)
                .spawn()
                .unwrap();
            let started = Instant::now();
            while started.elapsed() < PATIENCE {
                if let Ok((200, _)) = http(port, "GET", "/api/health", None) {
                    return Server { child, port };
                }
                if let Some(status) = child.try_wait().unwrap() {
                    eprintln!("attempt {attempt}: the server exited ({status}) before answering");
                    break;
                }
                std::thread::sleep(Duration::from_millis(20));
            }
            let _ = child.kill();
            let _ = child.wait();
        }
        panic!("the server did not start");
    }

    /// SIGKILL: no shutdown, no flush, no goodbye. (`Child::kill` sends
    /// SIGKILL on Unix.)
    fn kill(mut self) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A small seeded generator (xorshift) for the test's choices.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// A legal move for the player to move: a random placement from `legal`,
/// with a follower on one of its spots now and then.
fn choose(s: &Value, rng: &mut Rng) -> Value {
    let legal = s["legal"].as_array().expect("legal moves for the player to move");
    let p = &legal[rng.next() as usize % legal.len()];
    let mut mv = json!({ "version": s["version"], "tile": p["tile"], "at": p["at"], "rot": p["rot"] });
    if let Some(spots) = p["meeple"].as_array().filter(|s| !s.is_empty()) {
        if rng.next() % 2 == 0 {
            mv["meeple"] = spots[rng.next() as usize % spots.len()].clone();
        }
    }
    mv
}

/// A move as the record keeps it (no version).
fn as_recorded(mv: &Value) -> Value {
    let mut m = mv.clone();
    m.as_object_mut().unwrap().remove("version");
    m
}

/// The moves the server has stored, from the game's record.
fn recorded(port: u16, id: &str) -> Vec<Value> {
    get(port, &format!("/api/games/{id}/record"))["moves"].as_array().unwrap().clone()
}

fn create(port: u16, seats: Value) -> (String, Vec<Option<String>>) {
    let (status, v) = http(port, "POST", "/api/games", Some(&json!({ "seats": seats }))).unwrap();
    assert_eq!(status, 201, "{v}");
    let mut tokens = vec![None; seats.as_array().unwrap().len()];
    for t in v["tokens"].as_array().unwrap() {
        tokens[t["seat"].as_u64().unwrap() as usize] = Some(t["token"].as_str().unwrap().to_string());
    }
    (v["id"].as_str().unwrap().to_string(), tokens)
}

/// Checks that the restarted server holds exactly the acknowledged moves,
/// plus the in-flight one if it got there (then it counts as acknowledged).
fn check_after_restart(port: u16, id: &str, acked: &mut Vec<Value>, in_flight: Option<(Value, bool)>) {
    let moves = recorded(port, id);
    match in_flight {
        None => assert_eq!(&moves, acked, "the acknowledged moves, in order, and nothing else"),
        Some((mv, answered)) => {
            assert_eq!(&moves[..acked.len().min(moves.len())], &acked[..], "every acknowledged move is there");
            match moves.len() - acked.len() {
                0 => assert!(!answered, "an acknowledged move was lost"),
                1 => {
                    assert_eq!(moves[acked.len()], as_recorded(&mv), "the move in flight, whole");
                    acked.push(moves[acked.len()].clone());
                }
                n => panic!("{n} moves more than were sent"),
            }
        }
    }
    let s = get(port, &format!("/api/games/{id}"));
    assert_eq!(s["version"], acked.len(), "{s}");
    assert_eq!(s["board"].as_array().unwrap().len(), acked.len() + 1, "the start tile and one per move");
}

#[test]
fn a_killed_server_keeps_every_acknowledged_move_and_plays_on() {
    let dir = TempDir::new("humans");
    let db = dir.0.join("games.db");
    let mut server = Server::start(&db, 0);
    let (id, tokens) =
        create(server.port, json!([{ "kind": "human", "name": "Ada" }, { "kind": "human", "name": "Bob" }]));
    let tokens: Vec<String> = tokens.into_iter().map(Option::unwrap).collect();
    let both = format!("{},{}", tokens[0], tokens[1]);

    // While it runs, a second server on the same file is refused.
    let second = Command::new(env!("CARGO_BIN_EXE_carcassonne"))
        .args(["serve", "--addr", "127.0.0.1:0", "--db"])
        .arg(&db)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let out = wait_with_timeout(second);
    assert!(!out.status.success(), "a second server on a file in use must not start");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("in use"), "{stderr}");
    assert_eq!(get(server.port, "/api/health")["ok"], true, "the first server is unharmed");

    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut acked: Vec<Value> = Vec::new();
    // Kill right after these acknowledgments, and with these moves in flight.
    let kill_after = [3usize, 17, 40];
    let kill_during = [8usize, 11, 25, 29, 33, 44, 50, 60];
    let (mut kills, mut in_flight_landed, mut in_flight_answered) = (0, 0, 0);
    // Each in-flight kill once (a move that did not land is sent again).
    let mut killed_during = Vec::new();
    loop {
        let s = get(server.port, &format!("/api/games/{id}?token={both}"));
        if s["status"] == "finished" {
            break;
        }
        let n = acked.len();
        assert_eq!(s["version"], n);
        let seat = s["turn"]["seat"].as_u64().unwrap() as usize;
        let mv = choose(&s, &mut rng);
        let path = format!("/api/games/{id}/moves?token={}", tokens[seat]);
        if kill_during.contains(&n) && !killed_during.contains(&n) {
            killed_during.push(n);
            // Fire the move from another thread and kill the server after a
            // short random delay, without waiting for its answer.
            let port = server.port;
            let (p, body) = (path.clone(), mv.clone());
            let sender = std::thread::spawn(move || http(port, "POST", &p, Some(&body)));
            std::thread::sleep(Duration::from_micros(rng.next() % 8_000));
            server.kill();
            let answered = matches!(sender.join().unwrap(), Ok((200, _)));
            in_flight_answered += usize::from(answered);
            server = Server::start(&db, 0);
            kills += 1;
            let before = acked.len();
            check_after_restart(server.port, &id, &mut acked, Some((mv, answered)));
            in_flight_landed += acked.len() - before;
            continue;
        }
        let (status, v) = http(server.port, "POST", &path, Some(&mv)).unwrap();
        assert_eq!(status, 200, "{v}");
        assert_eq!(v["version"], n + 1);
        acked.push(as_recorded(&mv));
        if kill_after.contains(&n) {
            server.kill();
            server = Server::start(&db, 0);
            kills += 1;
            check_after_restart(server.port, &id, &mut acked, None);
        }
    }
    assert_eq!(kills, kill_after.len() + kill_during.len());
    eprintln!(
        "{kills} kills; of {} moves in flight {in_flight_landed} landed, {in_flight_answered} were answered",
        kill_during.len()
    );
    // The game ended, with every move in it; the list agrees.
    assert_eq!(recorded(server.port, &id), acked);
    let list = get(server.port, &format!("/api/games?ids={id}"));
    let g = list["games"].as_array().unwrap().iter().find(|g| g["id"] == id.as_str()).unwrap();
    assert_eq!((g["status"].as_str(), g["moves"].as_u64()), (Some("finished"), Some(acked.len() as u64)));
    server.kill();
}

/// The moves the games list shows for `id`, without opening the game.
fn listed_moves(port: u16, id: &str) -> u64 {
    let list = get(port, &format!("/api/games?ids={id}"));
    let g = list["games"].as_array().unwrap().iter().find(|g| g["id"] == id).expect("the game is listed");
    g["moves"].as_u64().unwrap()
}

#[test]
fn a_bot_whose_turn_it_was_moves_after_a_kill_without_anyone_opening_the_game() {
    let dir = TempDir::new("bot");
    let db = dir.0.join("games.db");
    let mut server = Server::start(&db, 0);
    let (id, tokens) =
        create(server.port, json!([{ "kind": "human", "name": "Ada" }, { "kind": "bot", "level": "random" }]));
    let token = tokens[0].clone().unwrap();
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let mut mine: Vec<(usize, Value)> = Vec::new(); // (ply, move) acknowledged
    let kill_at = [0usize, 6, 13];
    let mut kills = 0;
    loop {
        let s = get(server.port, &format!("/api/games/{id}?token={token}"));
        if s["status"] == "finished" {
            break;
        }
        if s["turn"]["seat"] != 0 || s["legal"].is_null() {
            // The bot's turn: it moves on its own.
            std::thread::sleep(Duration::from_millis(5));
            continue;
        }
        let kill_now = kills < kill_at.len() && mine.len() == kill_at[kills];
        if kill_now {
            // Before this kill the bot takes a minute over its move, so that
            // the server is surely killed while the bot is to move. (This
            // kill, on our turn, is harmless.)
            server.kill();
            server = Server::start(&db, 60_000);
        }
        let v0 = s["version"].as_u64().unwrap() as usize;
        let mv = choose(&s, &mut rng);
        let (status, v) =
            http(server.port, "POST", &format!("/api/games/{id}/moves?token={token}"), Some(&mv)).unwrap();
        assert_eq!(status, 200, "{v}");
        mine.push((v0, as_recorded(&mv)));
        if kill_now && v["status"] != "finished" {
            // The bot is to move (and thinking for a minute): kill, and
            // restart with bots that move at once.
            assert_eq!(v["turn"]["seat"], 1, "{v}");
            assert_eq!(listed_moves(server.port, &id), v0 as u64 + 1);
            server.kill();
            server = Server::start(&db, 0);
            kills += 1;
            // The bot moves on its own: the list shows its move before anyone
            // opens the game.
            let started = Instant::now();
            while listed_moves(server.port, &id) < v0 as u64 + 2 {
                assert!(started.elapsed() < PATIENCE, "the bot did not resume");
                std::thread::sleep(Duration::from_millis(20));
            }
        }
    }
    assert_eq!(kills, kill_at.len());
    // Every acknowledged move of ours is where it was played.
    let moves = recorded(server.port, &id);
    for (ply, mv) in &mine {
        assert_eq!(&moves[*ply], mv, "move {}", ply + 1);
    }
    assert!(moves.len() > mine.len(), "the bot played too");
    server.kill();
}

fn wait_with_timeout(mut child: Child) -> std::process::Output {
    let started = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > PATIENCE {
            let _ = child.kill();
            panic!("the second server neither started nor gave up");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

/// SIGTERM ends the server within ten seconds, however many requests are
/// left half-sent and whatever a websocket client does, and the games are
/// all there when it starts again.
#[test]
fn sigterm_stops_the_server_within_ten_seconds_whatever_clients_do() {
    let dir = TempDir::new("sigterm");
    let db = dir.0.join("games.db");
    let server = Server::start(&db, 0);
    let (id, _) = create(server.port, json!([ { "kind": "human" }, { "kind": "human" } ]));
    // Half-sent requests (headers never finished, a body never sent) and a
    // websocket that is never read.
    let mut held = Vec::new();
    for i in 0..30 {
        let mut s = TcpStream::connect(("127.0.0.1", server.port)).unwrap();
        let part = if i % 2 == 0 {
            "GET /api/health HTTP/1.1\r\nHost: x\r\n".to_string()
        } else {
            "POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 999\r\n\r\n{"
                .to_string()
        };
        s.write_all(part.as_bytes()).unwrap();
        held.push(s);
    }
    let mut ws = TcpStream::connect(("127.0.0.1", server.port)).unwrap();
    let upgrade = format!(
        "GET /api/games/{id}/ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
         Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
    );
    ws.write_all(upgrade.as_bytes()).unwrap();
    std::thread::sleep(Duration::from_millis(300));

    let started = Instant::now();
    let status = Command::new("kill").args(["-TERM", &server.child.id().to_string()]).status().unwrap();
    assert!(status.success());
    let mut child = {
        let mut server = server;
        // Take the child out of the guard that would SIGKILL it.
        let child = std::mem::replace(&mut server.child, Command::new("true").spawn().unwrap());
        drop(server);
        child
    };
    let exit = loop {
        if let Some(exit) = child.try_wait().unwrap() {
            break exit;
        }
        assert!(started.elapsed() < Duration::from_secs(10), "the server still runs 10 s after SIGTERM");
        std::thread::sleep(Duration::from_millis(20));
    };
    assert!(exit.success(), "a clean exit: {exit}");
    drop(held);
    drop(ws);
    let again = Server::start(&db, 0);
    assert_eq!(get(again.port, &format!("/api/games/{id}"))["version"], 0, "the game is still there");
}

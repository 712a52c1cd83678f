//! Several servers over one PostgreSQL database are one game: three servers
//! in this process (each on a runtime of its own, so that one can be killed
//! as a crash would: its tasks and connections gone at once), clients on
//! each through real sockets.
//!
//! Checked: every socket on every server converges to the same state; the
//! person to move gets their legal moves within a second of their turn
//! starting, whichever server their page is on; presence is the same on
//! every server, and a dead server's players go offline; each bot move is
//! thought about by exactly one server; a bot whose server died moves
//! within two seconds with nobody watching; races of one move sent to every
//! server store it once; a restarted server and a cut change feed catch up;
//! no move is stored twice or lost, and every record replays.
//!
//! Needs `CARCASSONNE_TEST_POSTGRES` (see `tests/common/pg.rs`).

mod common;

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use carcassonne_server::{rebuild, serve_until, AppState, Config, Store};
use common::pg::{server_url, Schema};
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::sync::{mpsc, watch};
use tokio_tungstenite::tungstenite::Message;

macro_rules! server {
    () => {
        match server_url() {
            Some(url) => url,
            None => return,
        }
    };
}

/// The tests here run one at a time: each is three servers already, and a
/// turn's latency is what they measure.
static ONE_AT_A_TIME: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// How long a person may wait for their legal moves once their turn starts.
const TURN_LATENCY: Duration = Duration::from_secs(1);
/// How long presence may take to reach every server. It is announced at
/// once (a notification per change), so this is a liveness bound, not a
/// latency target: generous, as a starved CI machine once took over 3 s.
const PRESENCE_WITHIN: Duration = Duration::from_secs(10);

/// How long a bot whose server died may wait for another server to move it.
const TAKEOVER: Duration = Duration::from_secs(2);

/// One server: its own runtime, its own connections to the database.
struct Node {
    runtime: Option<tokio::runtime::Runtime>,
    state: AppState,
    addr: SocketAddr,
    name: String,
}

impl Node {
    async fn start(url: &str, config: Config) -> Node {
        let runtime =
            tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().expect("a runtime");
        let (tx, rx) = tokio::sync::oneshot::channel();
        let url = url.to_string();
        runtime.spawn(async move {
            let store = Store::postgres(&url).await.unwrap_or_else(|e| panic!("{e}"));
            let state = AppState::new(store, config);
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            let addr = listener.local_addr().unwrap();
            let _ = tx.send((state.clone(), addr));
            let _ = serve_until(listener, state, std::future::pending()).await;
        });
        let (state, addr) = rx.await.expect("the server started");
        let name = state.store().cluster.server().expect("a shared store names its server").to_string();
        Node { runtime: Some(runtime), state, addr, name }
    }

    /// As a crash: every task and connection of this server ends now,
    /// without a word to the others.
    fn kill(&mut self) {
        if let Some(rt) = self.runtime.take() {
            rt.shutdown_background();
        }
    }

    fn thoughts(&self) -> u64 {
        self.state.bots.thoughts()
    }

    async fn get(&self, path: &str) -> (u16, Value) {
        http(self.addr, "GET", path, None).await
    }

    async fn post(&self, path: &str, body: &Value) -> (u16, Value) {
        http(self.addr, "POST", path, Some(body)).await
    }

    async fn create(&self, body: Value) -> (String, Vec<Option<String>>) {
        let (status, v) = self.post("/api/games", &body).await;
        assert_eq!(status, 201, "{v}");
        let n = v["state"]["players"].as_array().unwrap().len();
        let mut tokens = vec![None; n];
        for t in v["tokens"].as_array().unwrap() {
            tokens[t["seat"].as_u64().unwrap() as usize] = Some(t["token"].as_str().unwrap().to_string());
        }
        (v["id"].as_str().unwrap().to_string(), tokens)
    }
}

impl Drop for Node {
    fn drop(&mut self) {
        self.kill();
    }
}

/// One HTTP/1.1 request on a connection of its own.
async fn http(addr: SocketAddr, method: &str, path: &str, body: Option<&Value>) -> (u16, Value) {
    let mut s = tokio::net::TcpStream::connect(addr).await.expect("the server listens");
    let body = body.map(Value::to_string).unwrap_or_default();
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\
         Connection: close\r\n\r\n{body}",
        body.len()
    );
    s.write_all(request.as_bytes()).await.unwrap();
    let mut buf = Vec::new();
    s.read_to_end(&mut buf).await.unwrap();
    let text = String::from_utf8_lossy(&buf);
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or_else(|| panic!("an HTTP answer: {text}"));
    let status = head.split(' ').nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    (status, serde_json::from_str(body).unwrap_or(Value::Null))
}

/// A websocket on one server: the latest state it was sent, when it first
/// saw each version, and a way to send moves.
struct Sock {
    latest: watch::Receiver<Value>,
    seen: Arc<Mutex<HashMap<u64, Instant>>>,
    out: mpsc::UnboundedSender<String>,
    task: tokio::task::JoinHandle<()>,
}

impl Sock {
    async fn open(node: &Node, id: &str, token: Option<&str>) -> Sock {
        let url = match token {
            Some(t) => format!("ws://{}/api/games/{id}/ws?token={t}", node.addr),
            None => format!("ws://{}/api/games/{id}/ws", node.addr),
        };
        let (mut ws, _) = tokio_tungstenite::connect_async(url).await.expect("a websocket");
        let (tx, latest) = watch::channel(Value::Null);
        let (out, mut outgoing) = mpsc::unbounded_channel::<String>();
        let seen: Arc<Mutex<HashMap<u64, Instant>>> = Arc::default();
        let seen_here = Arc::clone(&seen);
        let task = tokio::spawn(async move {
            loop {
                tokio::select! {
                    msg = ws.next() => match msg {
                        Some(Ok(Message::Text(t))) => {
                            let v: Value = serde_json::from_str(t.as_str()).unwrap();
                            if v["type"] == "state" {
                                let version = v["state"]["version"].as_u64().unwrap();
                                seen_here.lock().unwrap().entry(version).or_insert_with(Instant::now);
                                tx.send_replace(v["state"].clone());
                            } else if v["type"] == "error" && v["error"] != "stale_version" {
                                panic!("refused: {v}");
                            }
                        }
                        Some(Ok(_)) => {}
                        _ => return,
                    },
                    Some(text) = outgoing.recv() => {
                        if ws.send(Message::Text(text.into())).await.is_err() {
                            return;
                        }
                    }
                }
            }
        });
        let mut sock = Sock { latest, seen, out, task };
        sock.wait("the first state", Duration::from_secs(5), |s| !s.is_null()).await;
        sock
    }

    /// Waits until the latest state satisfies `done`.
    async fn wait(&mut self, what: &str, within: Duration, done: impl Fn(&Value) -> bool) -> Value {
        let found = tokio::time::timeout(within, self.latest.wait_for(|s| done(s))).await.map(|r| r.map(|s| s.clone()));
        match found {
            Ok(Ok(s)) => s,
            _ => panic!("{what}: not within {within:?}; last state: {}", brief(&self.latest.borrow())),
        }
    }

    fn first_seen(&self, version: u64) -> Option<Instant> {
        self.seen.lock().unwrap().get(&version).copied()
    }

    fn play(&self, state: &Value, k: usize) {
        let mut mv = common::pick_move(state, k, k % 3 == 0);
        mv["type"] = "move".into();
        self.out.send(mv.to_string()).expect("the socket is open");
    }
}

impl Drop for Sock {
    fn drop(&mut self) {
        self.task.abort();
    }
}

fn brief(s: &Value) -> String {
    format!(
        "version {} status {} turn {} thinking {} legal {} online {:?}",
        s["version"],
        s["status"],
        s["turn"]["seat"],
        s["thinking"],
        s["legal"].as_array().map_or(0, Vec::len),
        s["players"].as_array().map(|p| p.iter().map(|p| p["online"].clone()).collect::<Vec<_>>())
    )
}

/// What every viewer of a game sees alike.
fn public(s: &Value) -> Value {
    let players: Vec<Value> = s["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| json!([p["name"], p["score"], p["supply"], p["online"], p["hand_count"]]))
        .collect();
    json!({
        "version": s["version"], "status": s["status"], "board": s["board"], "followers": s["followers"],
        "players": players, "thinking": s["thinking"], "turn": s["turn"]["seat"], "winners": s["winners"],
        "log": s["log"],
    })
}

fn online(s: &Value) -> Vec<bool> {
    s["players"].as_array().unwrap().iter().map(|p| p["online"] == true).collect()
}

/// Every socket shows the same game at `version` (presence and "thinking"
/// come from other servers a moment later: they are waited for too).
async fn converge(socks: &mut [&mut Sock], version: u64) -> Value {
    for sock in socks.iter_mut() {
        sock.wait("converging", Duration::from_secs(5), |s| s["version"] == version).await;
    }
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let seen: Vec<Value> = socks.iter().map(|s| public(&s.latest.borrow())).collect();
        if seen.iter().all(|s| s == &seen[0]) {
            return seen[0].clone();
        }
        if Instant::now() > deadline {
            let keys: Vec<String> = seen[0]
                .as_object()
                .unwrap()
                .iter()
                .filter(|(k, v)| seen.iter().any(|s| &s[k.as_str()] != *v))
                .map(|(k, _)| format!("{k}: {:?}", seen.iter().map(|s| s[k.as_str()].to_string()).collect::<Vec<_>>()))
                .collect();
            panic!("two servers show the game at version {version} differently: {keys:?}");
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// The moves stored for `id`: as many rows as the game's count, numbered without a gap.
fn stored_moves(schema: &Schema, id: &str) -> u64 {
    let rows = schema.rows(&format!(
        "SELECT count(*), count(DISTINCT ply), coalesce(max(ply), -1) FROM moves WHERE game_id = '{id}'"
    ));
    let r: Vec<i64> = rows[0].iter().map(|c| c.as_deref().unwrap().parse().unwrap()).collect();
    assert_eq!(r[0], r[1], "a move stored twice");
    assert_eq!(r[0], r[2] + 1, "a move missing");
    let count: i64 = schema.one(&format!("SELECT moves FROM games WHERE id = '{id}'")).parse().unwrap();
    assert_eq!(count, r[0], "the game's count and its moves agree");
    r[0] as u64
}

/// The stored record replays, to the scores shown.
async fn replays(url: &str, id: &str, shown: &Value) {
    let store = Store::postgres(url).await.unwrap();
    let stored = store.games.load(id).await.unwrap().expect("the game is stored");
    let game = rebuild(&stored.record, stored.live_seed).expect("the record replays");
    let scores: Vec<Value> = game.scores().iter().map(|s| json!(s)).collect();
    let shown: Vec<Value> = shown["players"].as_array().unwrap().iter().map(|p| p[1].clone()).collect();
    assert_eq!(scores, shown);
}

/// A fresh schema, its URL, and three servers on it.
async fn cluster(server: &str) -> (Schema, String, [Node; 3]) {
    let schema = Schema::new(server);
    let url = schema.url();
    let nodes =
        [Node::start(&url, config()).await, Node::start(&url, config()).await, Node::start(&url, config()).await];
    (schema, url, nodes)
}

fn config() -> Config {
    Config { bot_delay: Duration::from_millis(150), ..Config::quick() }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn people_play_across_servers_and_see_one_game() {
    let server = server!();
    let _alone = ONE_AT_A_TIME.lock().await;
    let (schema, url, nodes) = cluster(&server).await;
    let seats = json!({ "seats": [ { "kind": "human", "name": "Ada" }, { "kind": "remote", "name": "Bob" } ] });
    let (id, tokens) = nodes[0].create(seats).await;
    let (ada, bob) = (tokens[0].clone().unwrap(), tokens[1].clone().unwrap());

    // Ada through A, Bob through B, a spectator on C.
    let mut a = Sock::open(&nodes[0], &id, Some(&ada)).await;
    let mut spectator = Sock::open(&nodes[2], &id, None).await;
    // Presence: Bob is not here yet, on any server.
    for node in &nodes {
        let end = Instant::now() + PRESENCE_WITHIN;
        loop {
            let (_, s) = node.get(&format!("/api/games/{id}")).await;
            if online(&s) == [true, false] {
                break;
            }
            assert!(Instant::now() < end, "Ada online, Bob not, on {}: {}", node.name, brief(&s));
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
    let mut b = Sock::open(&nodes[1], &id, Some(&bob)).await;
    for sock in [&mut a, &mut b, &mut spectator] {
        sock.wait("both online everywhere", PRESENCE_WITHIN, |s| online(s) == [true, true]).await;
    }

    // The whole game, each moving from their own page; the turn passes
    // between servers at every move.
    let mut turn_started = Instant::now();
    let mut slowest = Duration::ZERO;
    let mut version = 0u64;
    loop {
        let s = spectator.wait("the next turn", Duration::from_secs(5), |s| s["version"] == version).await;
        if s["status"] == "finished" {
            break;
        }
        let seat = s["turn"]["seat"].as_u64().unwrap();
        let mover = if seat == 0 { &mut a } else { &mut b };
        let mine = mover
            .wait("legal moves for the person to move", TURN_LATENCY * 3, |s| {
                s["version"] == version && s["legal"].as_array().is_some_and(|l| !l.is_empty())
            })
            .await;
        let waited = turn_started.elapsed();
        slowest = slowest.max(waited);
        assert!(waited < TURN_LATENCY, "move {version}: the person to move waited {waited:?} for their moves");
        turn_started = Instant::now();
        mover.play(&mine, version as usize);
        version += 1;
    }
    eprintln!("people across servers: {version} moves, the slowest turn reached its player in {slowest:?}");
    let end = converge(&mut [&mut a, &mut b, &mut spectator], version).await;
    assert_eq!(end["status"], "finished");
    for node in &nodes {
        let (_, s) = node.get(&format!("/api/games/{id}")).await;
        assert_eq!(public(&s), end, "{} shows the end", node.name);
    }
    assert_eq!(stored_moves(&schema, &id), version);
    replays(&url, &id, &end).await;

    // Bob leaves: offline on every server.
    drop(b);
    for sock in [&mut a, &mut spectator] {
        sock.wait("Bob offline everywhere", PRESENCE_WITHIN, |s| online(s) == [true, false]).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_server_thinks_for_each_bot_and_another_takes_over_when_it_dies() {
    let server = server!();
    let _alone = ONE_AT_A_TIME.lock().await;
    let (schema, url, mut nodes) = cluster(&server).await;

    // A person against two bots, the person's page on C, watchers on A and B.
    let seats = json!({ "seats": [
        { "kind": "remote", "name": "Ada" },
        { "kind": "bot", "level": "easy" },
        { "kind": "bot", "level": "normal" },
    ] });
    let (id, tokens) = nodes[1].create(seats).await;
    let ada = tokens[0].clone().unwrap();
    let mut me = Sock::open(&nodes[2], &id, Some(&ada)).await;
    let mut wa = Sock::open(&nodes[0], &id, None).await;
    let mut wb = Sock::open(&nodes[1], &id, None).await;
    let thoughts_before: u64 = nodes.iter().map(Node::thoughts).sum();
    let version;
    let mut mine = 0u64;
    let mut slowest = Duration::ZERO;
    loop {
        let s = me
            .wait("Ada's turn or the end", Duration::from_secs(10), |s| {
                s["status"] == "finished" || s["legal"].as_array().is_some_and(|l| !l.is_empty())
            })
            .await;
        let at = s["version"].as_u64().unwrap();
        if s["status"] == "finished" {
            version = at;
            break;
        }
        // Her turn started when the first page anywhere saw this version.
        let started = [&me, &wa, &wb].iter().filter_map(|w| w.first_seen(at)).min().unwrap();
        let got = me.first_seen(at).unwrap();
        let waited = got.saturating_duration_since(started);
        // (The state that first showed the version may have come before her
        // moves: the bot had just stopped thinking.)
        slowest = slowest.max(waited);
        assert!(waited < TURN_LATENCY, "move {at}: Ada waited {waited:?} for her moves");
        me.play(&s, mine as usize);
        mine += 1;
        me.wait("Ada's move taken", Duration::from_secs(5), |s| s["version"].as_u64() > Some(at)).await;
    }
    let end = converge(&mut [&mut me, &mut wa, &mut wb], version).await;
    assert_eq!(end["status"], "finished");
    let bot_moves = version - mine;
    let thoughts: u64 = nodes.iter().map(Node::thoughts).sum::<u64>() - thoughts_before;
    eprintln!(
        "a person against bots: {version} moves ({bot_moves} by bots, {thoughts} bot thoughts), \
         the person waited at most {slowest:?}"
    );
    assert_eq!(thoughts, bot_moves, "each bot move is thought about by exactly one server");
    assert_eq!(stored_moves(&schema, &id), version);
    replays(&url, &id, &end).await;

    // Bots alone, nobody watching: the server driving them dies, another
    // takes over within two seconds.
    let seats = json!({ "seats": [
        { "kind": "bot", "level": "random" },
        { "kind": "bot", "level": "random" },
    ] });
    let (bots, _) = nodes[0].create(seats).await;
    let moves = || -> i64 { schema.one(&format!("SELECT moves FROM games WHERE id = '{bots}'")).parse().unwrap() };
    while moves() < 5 {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let holder = schema.one(&format!("SELECT server FROM bot_leases WHERE game_id = '{bots}'"));
    let k = nodes.iter().position(|n| n.name == holder).expect("a server holds the game's bots");
    nodes[k].kill();
    let killed_at = Instant::now();
    let at_kill = moves();
    while moves() <= at_kill + 1 {
        // (One move may have been on its way when the server died.)
        assert!(killed_at.elapsed() < TAKEOVER + config().bot_delay, "nobody took over the bots");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let took = killed_at.elapsed();
    let new_holder = schema.one(&format!("SELECT server FROM bot_leases WHERE game_id = '{bots}'"));
    eprintln!("the bots' server died; {new_holder} moved them {took:?} later");
    assert_ne!(new_holder, holder);
    assert!(took < TAKEOVER + config().bot_delay, "takeover took {took:?}");

    // The killed server comes back (a new one on the same database) and
    // shows the game where it is.
    nodes[k] = Node::start(&url, config()).await;
    let end = Instant::now() + Duration::from_secs(120);
    let finished = loop {
        let (_, s) = nodes[(k + 1) % 3].get(&format!("/api/games/{bots}")).await;
        if s["status"] == "finished" {
            break s;
        }
        assert!(Instant::now() < end, "the bots' game never ended: {}", brief(&s));
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    let (_, again) = nodes[k].get(&format!("/api/games/{bots}")).await;
    assert_eq!(public(&again), public(&finished), "the restarted server shows the game as it is");
    assert_eq!(stored_moves(&schema, &bots), finished["version"].as_u64().unwrap());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn races_a_dead_server_and_a_cut_feed_leave_one_game() {
    let server = server!();
    let _alone = ONE_AT_A_TIME.lock().await;
    let (schema, url, mut nodes) = cluster(&server).await;
    let seats = json!({ "seats": [ { "kind": "remote", "name": "Ada" }, { "kind": "remote", "name": "Bob" } ] });
    let (id, tokens) = nodes[0].create(seats).await;
    let tokens: Vec<String> = tokens.into_iter().map(Option::unwrap).collect();

    // Races: the same move, or different ones, sent to every server at once.
    let mut accepted = 0;
    for turn in 0..12usize {
        let (_, s) = nodes[turn % 3].get(&format!("/api/games/{id}?token={}", tokens.join(","))).await;
        let version = s["version"].as_u64().unwrap();
        let seat = s["turn"]["seat"].as_u64().unwrap() as usize;
        let sends = nodes.iter().enumerate().map(|(i, n)| {
            let k = if turn % 2 == 0 { 0 } else { i };
            let mv = common::pick_move(&s, k, false);
            let path = format!("/api/games/{id}/moves?token={}", tokens[seat]);
            async move { n.post(&path, &mv).await }
        });
        let results = futures_util::future::join_all(sends).await;
        let ok: Vec<_> = results.iter().filter(|(st, _)| *st == 200).collect();
        assert_eq!(ok.len(), 1, "turn {turn}: exactly one server takes the move: {results:?}");
        for (status, v) in &results {
            if *status != 200 {
                assert_eq!(*status, 409, "{v}");
                assert_eq!(v["error"], "stale_version", "{v}");
            }
        }
        accepted += 1;
        assert_eq!(stored_moves(&schema, &id), version + 1);
    }

    // Ada's page on C; C dies: she is offline on A and B within seconds.
    let mut ada = Sock::open(&nodes[2], &id, Some(&tokens[0])).await;
    let mut watch_a = Sock::open(&nodes[0], &id, None).await;
    let mut watch_b = Sock::open(&nodes[1], &id, None).await;
    for w in [&mut ada, &mut watch_a, &mut watch_b] {
        w.wait("Ada online everywhere", PRESENCE_WITHIN, |s| online(s) == [true, false]).await;
    }
    nodes[2].kill();
    let killed = Instant::now();
    for w in [&mut watch_a, &mut watch_b] {
        w.wait("Ada offline once her server died", Duration::from_secs(5), |s| online(s) == [false, false]).await;
    }
    eprintln!("a dead server's player shown offline after {:?}", killed.elapsed());
    drop(ada);

    // The change feed cut on every server while moves are stored: each
    // catches up when it reconnects.
    let listening = format!("SELECT count(*) FROM pg_stat_activity WHERE application_name = '{}:listen'", schema.name);
    let cut = format!(
        "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE application_name = '{}:listen'",
        schema.name
    );
    for turn in 0..6usize {
        // Both feeds listening again, then cut, and a move stored at once.
        let end = Instant::now() + Duration::from_secs(10);
        while schema.one(&listening) != "2" {
            assert!(Instant::now() < end, "the feeds never came back");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        assert_eq!(schema.one(&cut), "2", "both feeds were cut");
        let node = &nodes[turn % 2];
        let (_, s) = node.get(&format!("/api/games/{id}?token={}", tokens.join(","))).await;
        let seat = s["turn"]["seat"].as_u64().unwrap() as usize;
        let mv = common::pick_move(&s, turn, true);
        let (status, v) = node.post(&format!("/api/games/{id}/moves?token={}", tokens[seat]), &mv).await;
        assert_eq!(status, 200, "{v}");
        accepted += 1;
    }
    let version = stored_moves(&schema, &id);
    assert_eq!(version, accepted);
    nodes[2] = Node::start(&url, config()).await;
    let mut socks = Vec::new();
    for node in &nodes {
        socks.push(Sock::open(node, &id, None).await);
    }
    let mut refs: Vec<&mut Sock> = socks.iter_mut().collect();
    converge(&mut refs, version).await;
    converge(&mut [&mut watch_a, &mut watch_b], version).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn who_came_or_left_while_a_feed_was_away_is_shown_when_it_comes_back() {
    // Who is here through another server reaches a server as news (and from
    // the storage when it opens the game). News missed while its change
    // feed reconnects is read from the storage by the feed's look back.
    let server = server!();
    let _alone = ONE_AT_A_TIME.lock().await;
    let schema = Schema::new(&server);
    let url = schema.url();
    let nodes = [Node::start(&url, config()).await, Node::start(&url, config()).await];
    let seats = json!({ "seats": [ { "kind": "remote", "name": "Ada" }, { "kind": "remote", "name": "Bob" } ] });
    let (id, _) = nodes[0].create(seats).await;
    let mut watch_b = Sock::open(&nodes[1], &id, None).await;
    watch_b.wait("nobody online", PRESENCE_WITHIN, |s| online(s) == [false, false]).await;
    let listening = format!("SELECT count(*) FROM pg_stat_activity WHERE application_name = '{}:listen'", schema.name);
    let cut = format!(
        "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE application_name = '{}:listen'",
        schema.name
    );
    let steps = [
        // Ada's page on A, as A keeps it, its news lost: written here, not announced.
        (
            format!("INSERT INTO presence (game_id, server, online) VALUES ('{id}', '{}', '[1,0]')", nodes[0].name),
            [true, false],
        ),
        // And she leaves the same way.
        (format!("DELETE FROM presence WHERE game_id = '{id}'"), [false, false]),
    ];
    for (sql, want) in steps {
        let end = Instant::now() + Duration::from_secs(10);
        while schema.one(&listening) != "2" {
            assert!(Instant::now() < end, "the feeds never listened");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        schema.rows(&sql);
        tokio::time::sleep(Duration::from_millis(300)).await;
        assert_eq!(online(&watch_b.latest.borrow()), [!want[0], false], "nothing was announced");
        assert_eq!(schema.one(&cut), "2", "both feeds were cut");
        watch_b.wait("presence read again after the feed came back", PRESENCE_WITHIN, |s| online(s) == want).await;
    }
}

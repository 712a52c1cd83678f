//! The lobby's tests' helpers (tests/lobby.rs, tests/lobby_attacks.rs): a
//! server on a port of its own (SQLite in memory, or a PostgreSQL schema),
//! HTTP from an address of one's own (127.0.0.x: Linux's loopback is a /8),
//! and a page's lobby websocket (`Page`), each message it asks answered by
//! its `ref`.
#![allow(dead_code)]

use std::collections::VecDeque;
use std::net::SocketAddr;
use std::time::Duration;

use carcassonne_server::{serve_until, AppState, Config, Store};
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;

use crate::common::pg::Schema;

/// How long a test waits for a message it expects.
pub const SOON: Duration = Duration::from_secs(10);

/// Settings for the lobby's tests: `Config::quick`, every signed-in
/// account known (a history from its first minute), as `f` changes them.
pub fn config(f: impl FnOnce(&mut Config)) -> Config {
    let mut c = Config::quick();
    c.lobby.known_after = Duration::ZERO;
    c.lobby.known_rated_games = 0;
    f(&mut c);
    c
}

/// A server listening on a port of its own.
pub struct Node {
    pub state: AppState,
    pub addr: SocketAddr,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
}

impl Node {
    pub async fn start(store: Store, config: Config) -> Node {
        let state = AppState::new(store, config);
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let (tx, rx) = tokio::sync::oneshot::channel::<()>();
        let s = state.clone();
        tokio::spawn(async move {
            let _ = serve_until(listener, s, async move {
                let _ = rx.await;
            })
            .await;
        });
        Node { state, addr, stop: Some(tx) }
    }

    /// A server on SQLite in memory.
    pub async fn sqlite(config: Config) -> Node {
        Node::start(Store::in_memory().unwrap(), config).await
    }

    /// A server on a PostgreSQL schema (another server may share it).
    pub async fn postgres(schema: &Schema, config: Config) -> Node {
        Node::start(schema.open().await, config).await
    }

    /// A POST from 127.0.0.1.
    pub async fn post(&self, path: &str, body: Value) -> (u16, Value) {
        let (s, _, v) = http(self.addr, "127.0.0.1", "POST", path, Some(&body), None).await;
        (s, v)
    }

    pub async fn get(&self, path: &str) -> (u16, Value) {
        let (s, _, v) = http(self.addr, "127.0.0.1", "GET", path, None, None).await;
        (s, v)
    }

    /// Signs up `name` from `from`: the session cookie's value.
    pub async fn sign_up(&self, from: &str, name: &str) -> String {
        let body = json!({ "name": name, "password": "password!" });
        let (s, headers, v) = http(self.addr, from, "POST", "/api/account/signup", Some(&body), None).await;
        assert_eq!(s, 201, "{v}");
        let line = headers.lines().find(|l| l.to_ascii_lowercase().starts_with("set-cookie:")).expect("a cookie");
        let value = line.split_once(':').unwrap().1.trim();
        value.split(';').next().unwrap().split_once('=').unwrap().1.to_string()
    }

    /// A page's lobby socket from 127.0.0.1, no device.
    pub async fn page(&self) -> Page {
        Page::open(self, "127.0.0.1", None, None).await
    }

    /// The server stops as it does on SIGTERM: its sockets are told, and
    /// what they hold is left for their pages to hold again.
    pub fn stop(mut self) {
        self.state.begin_shutdown();
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
    }
}

impl Drop for Node {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        self.state.begin_shutdown();
    }
}

/// A TCP connection to `addr` from `from` (an address of 127.0.0.0/8).
pub async fn connect_from(from: &str, addr: SocketAddr) -> TcpStream {
    let socket = TcpSocket::new_v4().unwrap();
    socket.bind(format!("{from}:0").parse().unwrap()).unwrap();
    socket.connect(addr).await.expect("the server listens")
}

/// One HTTP/1.1 request from `from` on a connection of its own: the
/// status, the headers (as sent) and the body.
pub async fn http(
    addr: SocketAddr,
    from: &str,
    method: &str,
    path: &str,
    body: Option<&Value>,
    cookie: Option<&str>,
) -> (u16, String, Value) {
    http_with(addr, from, method, path, body, cookie, &[]).await
}

/// The same with more headers (`("Origin", "https://evil.example")`).
pub async fn http_with(
    addr: SocketAddr,
    from: &str,
    method: &str,
    path: &str,
    body: Option<&Value>,
    cookie: Option<&str>,
    headers: &[(&str, &str)],
) -> (u16, String, Value) {
    let mut s = connect_from(from, addr).await;
    let body = body.map(Value::to_string).unwrap_or_default();
    let cookie = cookie.map(|c| format!("Cookie: carcassonne_session={c}\r\n")).unwrap_or_default();
    let more: String = headers.iter().map(|(k, v)| format!("{k}: {v}\r\n")).collect();
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\
         {cookie}{more}Connection: close\r\n\r\n{body}",
        body.len()
    );
    s.write_all(request.as_bytes()).await.unwrap();
    let mut buf = Vec::new();
    tokio::time::timeout(SOON, s.read_to_end(&mut buf)).await.expect("an answer in time").unwrap();
    let text = String::from_utf8_lossy(&buf);
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or_else(|| panic!("an HTTP answer: {text}"));
    let status = head.split(' ').nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    (status, head.to_string(), serde_json::from_str(body).unwrap_or(Value::Null))
}

type Ws = tokio_tungstenite::WebSocketStream<TcpStream>;

/// A lobby page: its socket, the list it was sent first, and what came
/// that it has not read yet.
pub struct Page {
    ws: Ws,
    pub first: Value,
    unread: VecDeque<Value>,
    next_ref: u64,
}

impl Page {
    /// Opens `/api/lobby/ws` from `from`, naming `device`, with the session
    /// `cookie`; reads the first message (the whole list).
    pub async fn open(node: &Node, from: &str, device: Option<&str>, cookie: Option<&str>) -> Page {
        Page::try_open(node.addr, from, device, cookie).await.unwrap_or_else(|e| panic!("the lobby's socket: {e}"))
    }

    pub async fn try_open(
        addr: SocketAddr,
        from: &str,
        device: Option<&str>,
        cookie: Option<&str>,
    ) -> Result<Page, tokio_tungstenite::tungstenite::Error> {
        let query = device.map(|d| format!("?device={d}")).unwrap_or_default();
        let mut request = format!("ws://{addr}/api/lobby/ws{query}").into_client_request()?;
        if let Some(c) = cookie {
            request.headers_mut().insert("cookie", format!("carcassonne_session={c}").parse().unwrap());
        }
        let stream = connect_from(from, addr).await;
        let (ws, _) = tokio_tungstenite::client_async(request, stream).await?;
        let mut page = Page { ws, first: Value::Null, unread: VecDeque::new(), next_ref: 1 };
        page.first = page.next_of("tables", SOON).await;
        Ok(page)
    }

    /// The next message off the socket within `within` (pings skipped).
    async fn read(&mut self, within: Duration) -> Option<Value> {
        let deadline = tokio::time::Instant::now() + within;
        loop {
            let msg = tokio::time::timeout_at(deadline, self.ws.next()).await.ok()?;
            match msg {
                Some(Ok(Message::Text(t))) => return Some(serde_json::from_str(t.as_str()).unwrap()),
                Some(Ok(Message::Close(c))) => panic!("the lobby's socket closed: {c:?}"),
                Some(Ok(_)) => {}
                Some(Err(e)) => panic!("the lobby's socket failed: {e}"),
                None => panic!("the lobby's socket ended"),
            }
        }
    }

    /// The next message of type `kind` (those of other types kept for later).
    pub async fn next_of(&mut self, kind: &str, within: Duration) -> Value {
        self.maybe_next_of(kind, within).await.unwrap_or_else(|| panic!("no {kind:?} message in {within:?}"))
    }

    /// The next message of type `kind` within `within`, if one comes.
    pub async fn maybe_next_of(&mut self, kind: &str, within: Duration) -> Option<Value> {
        if let Some(i) = self.unread.iter().position(|m| m["type"] == kind) {
            return self.unread.remove(i);
        }
        let deadline = tokio::time::Instant::now() + within;
        loop {
            let left = deadline.saturating_duration_since(tokio::time::Instant::now());
            let m = self.read(left).await?;
            if m["type"] == kind {
                return Some(m);
            }
            self.unread.push_back(m);
        }
    }

    /// Sends `msg` with a `ref` of its own: the answer naming it.
    pub async fn ask(&mut self, mut msg: Value) -> Value {
        let r = self.next_ref;
        self.next_ref += 1;
        msg["ref"] = json!(r);
        self.send_text(msg.to_string()).await;
        if let Some(i) = self.unread.iter().position(|m| m["ref"] == r) {
            return self.unread.remove(i).unwrap();
        }
        loop {
            let m = self.read(SOON).await.unwrap_or_else(|| panic!("no answer to {msg}"));
            if m["ref"] == r {
                return m;
            }
            self.unread.push_back(m);
        }
    }

    pub async fn send_text(&mut self, text: String) {
        self.ws.send(Message::Text(text.into())).await.unwrap();
    }

    /// `{"type": "play-now", …body}`.
    pub async fn play_now(&mut self, body: Value) -> Value {
        let mut msg = body;
        msg["type"] = json!("play-now");
        self.ask(msg).await
    }

    /// `{"type": "open", …body}`.
    pub async fn open_table(&mut self, body: Value) -> Value {
        let mut msg = body;
        msg["type"] = json!("open");
        self.ask(msg).await
    }

    /// `{"type": "sit", "table", "seat", "name"?}`.
    pub async fn sit(&mut self, table: &str, seat: usize, name: Option<&str>) -> Value {
        let mut msg = json!({ "type": "sit", "table": table, "seat": seat });
        if let Some(n) = name {
            msg["name"] = json!(n);
        }
        self.ask(msg).await
    }

    /// Waits for this page's wait to be paired (`{"type": "wait"}`): the wait.
    pub async fn paired(&mut self, within: Duration) -> Option<Value> {
        self.maybe_next_of("wait", within).await.map(|m| m["wait"].clone())
    }

    /// Closes the socket as a page does when it goes.
    pub async fn close(mut self) {
        let _ = self.ws.close(None).await;
        // Read to the end, so that the close is seen through.
        while let Ok(Some(Ok(_))) = tokio::time::timeout(Duration::from_secs(2), self.ws.next()).await {}
    }

    /// Whether the server closes the socket within `within` (what comes
    /// before the close is dropped).
    pub async fn closed_within(&mut self, within: Duration) -> bool {
        let deadline = tokio::time::Instant::now() + within;
        loop {
            match tokio::time::timeout_at(deadline, self.ws.next()).await {
                Err(_) => return false,
                Ok(Some(Ok(Message::Close(_))) | None | Some(Err(_))) => return true,
                Ok(Some(Ok(_))) => {}
            }
        }
    }

    /// Leaves the socket open but unread: pings go unanswered.
    pub fn go_silent(self) -> Ws {
        self.ws
    }
}

/// The table and token a `seated` answer carries (the answer must be one).
pub fn seated(v: &Value) -> (String, String) {
    assert_eq!(v["type"], "seated", "{v}");
    (v["table"]["id"].as_str().unwrap().to_string(), v["token"].as_str().unwrap().to_string())
}

/// The wait and token a `waiting` answer carries (the answer must be one).
pub fn waiting(v: &Value) -> (String, String) {
    assert_eq!(v["type"], "waiting", "{v}");
    (v["wait"]["id"].as_str().unwrap().to_string(), v["token"].as_str().unwrap().to_string())
}

/// The error code of an answer (`""` if it is no error).
pub fn refusal(v: &Value) -> &str {
    if v["type"] == "error" {
        v["error"].as_str().unwrap_or("")
    } else {
        ""
    }
}

//! The lobby over HTTP and its websocket (docs/web.md, *Lobby*): the live
//! list; tables opened, sat at and "Play now" waits started through the
//! socket, which holds them while it is open; stand, start and cancel by
//! token over HTTP.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{DefaultBodyLimit, Path, RawQuery, State};
use axum::http::request::Parts;
use axum::response::Response;
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};
use tokio::sync::mpsc;

use super::common::{client_key, query_list, DirectLimiter, Shared, WS_READ_BUFFER};
use super::session::{cookie_token, same_site};
use crate::error::{parse_body, ApiError, ErrorBody};
use crate::listen::{client_ip, until_set, Class, Connections, Slot};
use crate::services::lobby::common::{plausible_device, refused};
use crate::services::lobby::holds::socket_id;
use crate::services::lobby::play_now::{PlayNowRequest, WaitEvent, WaitSocket, WaitView};
use crate::services::lobby::{OpenRequest, TableView, Who};
use crate::services::AppState;

/// The largest body of a lobby request, and the largest message on the
/// lobby's websocket.
pub const MAX_LOBBY_BODY: usize = 4 * 1024;
/// The lobby's websocket is pinged at least this often: one silent for
/// three times as long is closed, and what it held goes.
const LOBBY_PING: Duration = Duration::from_secs(5);

/// The lobby's routes (registered by `app_with`).
pub(super) fn routes() -> Router<Shared> {
    Router::new()
        .route("/api/lobby/tables", get(list).post(needs_socket))
        .route("/api/lobby/tables/{id}", get(one))
        .route("/api/lobby/tables/{id}/sit", post(needs_socket))
        .route("/api/lobby/tables/{id}/stand", post(stand))
        .route("/api/lobby/tables/{id}/start", post(start))
        .route("/api/lobby/tables/{id}/here", post(needs_socket))
        .route("/api/lobby/play-now", post(needs_socket))
        .route("/api/lobby/play-now/{id}", post(waiting))
        .route("/api/lobby/play-now/{id}/cancel", post(cancel))
        .route("/api/lobby/ws", get(websocket))
        .layer(DefaultBodyLimit::max(MAX_LOBBY_BODY))
}

/// Who opens a lobby socket: the signed-in account of the session cookie
/// (the socket must come from the server's own pages) and whether it has a
/// history, or a guest counted by address; the device the page names.
async fn who(parts: &Parts, app: &AppState, device: Option<String>) -> Result<Who, ApiError> {
    let ip = client_key(&parts.extensions, app.config());
    if let Some(token) = cookie_token(&parts.headers) {
        if let Some(account) = app.accounts.session(&token).await? {
            same_site(parts, app)?;
            return Ok(Who {
                owner: format!("account:{}", account.id),
                known: app.histories.of(&account.id, account.created_at).await,
                account: Some((account.id, account.name)),
                ip: Some(ip),
                device,
            });
        }
    }
    Ok(Who { account: None, owner: format!("address:{ip}"), ip: Some(ip), device, known: false })
}

/// A body holding a seat token.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TokenBody {
    token: String,
}

/// What opening a table, sitting down or "Play now" over HTTP answers: a
/// table or a wait lives while its person's socket is open.
async fn needs_socket() -> ApiError {
    refused(
        "needs_socket",
        "tables, seats and waits are held by the lobby's websocket: open /api/lobby/ws and send \
         {\"type\": \"open\" | \"sit\" | \"play-now\", …}",
    )
}

async fn list(State(app): State<AppState>) -> Result<Json<Value>, ApiError> {
    Ok(Json(json!({ "tables": app.lobby.tables().await? })))
}

async fn one(State(app): State<AppState>, Path(id): Path<String>) -> Result<Json<TableView>, ApiError> {
    Ok(Json(app.lobby.table(&id).await?))
}

async fn stand(
    State(app): State<AppState>,
    Path(id): Path<String>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<Value>, ApiError> {
    let req: TokenBody = parse_body(body)?;
    let table = app.lobby.stand(&id, &req.token).await?;
    Ok(Json(json!({ "table": table, "closed": table.is_none() })))
}

async fn start(
    State(app): State<AppState>,
    Path(id): Path<String>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<Value>, ApiError> {
    let req: TokenBody = parse_body(body)?;
    Ok(Json(json!({ "table": app.lobby.start_table(&id, &req.token).await? })))
}

async fn waiting(
    State(app): State<AppState>,
    Path(id): Path<String>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<Value>, ApiError> {
    let req: TokenBody = parse_body(body)?;
    Ok(Json(json!({ "wait": app.play_now.waiting(&id, &req.token).await? })))
}

async fn cancel(
    State(app): State<AppState>,
    Path(id): Path<String>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<Value>, ApiError> {
    let req: TokenBody = parse_body(body)?;
    app.play_now.stop(&id, &req.token).await?;
    Ok(Json(json!({ "cancelled": true })))
}

/// What the lobby's websocket sends, JSON tagged by `type`: the whole list
/// first, then each table that appeared or changed, and each that went;
/// the answer to each of the client's messages (naming its `ref`); a held
/// wait's news.
#[derive(Serialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum LobbyMessage<'a> {
    /// The whole list, first; and whether the socket's person has a
    /// history (may sit at tables for people with one).
    Tables {
        tables: &'a [TableView],
        known: bool,
    },
    Table {
        table: &'a TableView,
    },
    Gone {
        id: &'a str,
    },
    /// A wait started (`play-now`).
    Waiting {
        #[serde(rename = "ref", skip_serializing_if = "Option::is_none")]
        reference: Option<Value>,
        wait: WaitView,
        token: String,
    },
    /// A seat taken (`open`, `sit`).
    Seated {
        #[serde(rename = "ref", skip_serializing_if = "Option::is_none")]
        reference: Option<Value>,
        table: TableView,
        seat: usize,
        token: String,
    },
    /// A seat or a wait held again (`hold`).
    Held {
        #[serde(rename = "ref", skip_serializing_if = "Option::is_none")]
        reference: Option<Value>,
        #[serde(skip_serializing_if = "Option::is_none")]
        table: Option<TableView>,
        #[serde(skip_serializing_if = "Option::is_none")]
        seat: Option<usize>,
        #[serde(skip_serializing_if = "Option::is_none")]
        wait: Option<WaitView>,
    },
    /// A held wait was paired.
    Wait {
        wait: WaitView,
    },
    /// A held wait ended (cancelled elsewhere, or its place swept).
    WaitGone {
        id: String,
    },
    /// A message refused (nothing changed).
    Error {
        #[serde(rename = "ref", skip_serializing_if = "Option::is_none")]
        reference: Option<Value>,
        #[serde(flatten)]
        error: ErrorBody,
    },
}

impl LobbyMessage<'_> {
    fn frame(&self) -> Message {
        Message::Text(serde_json::to_string(self).unwrap_or_default().into())
    }
}

/// A client's message that holds something: what it asks, by its `type`.
enum Command {
    PlayNow(PlayNowRequest),
    Open(OpenRequest),
    Sit(SitCommand),
    Hold(HoldCommand),
}

/// `{"type": "sit", "table", "seat", "name"?}`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SitCommand {
    table: String,
    seat: usize,
    #[serde(default)]
    name: Option<String>,
}

/// `{"type": "hold", "token", "table" | "wait"}`: a seat or a wait held
/// again by a page that came back.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct HoldCommand {
    token: String,
    #[serde(default)]
    table: Option<String>,
    #[serde(default)]
    wait: Option<String>,
}

/// Reads a client's message: its `ref` (a number, or a string of 64
/// characters at most, sent back with the answer) and what it asks.
fn read_command(text: &str) -> (Option<Value>, Result<Command, ApiError>) {
    let mut obj: Map<String, Value> = match serde_json::from_str(text) {
        Ok(obj) => obj,
        Err(e) => return (None, Err(ApiError::BadRequest(format!("malformed message: {e}")))),
    };
    let reference = obj.remove("ref");
    if let Some(r) = &reference {
        let fits = r.is_u64() || r.as_str().is_some_and(|s| s.chars().count() <= 64);
        if !fits {
            return (None, Err(ApiError::BadRequest("ref: a number, or a string of 64 characters at most".into())));
        }
    }
    let kind = obj.remove("type");
    let rest = Value::Object(obj);
    let bad = |e: serde_json::Error| ApiError::BadRequest(e.to_string());
    let command = match kind.as_ref().and_then(Value::as_str) {
        Some("play-now") => serde_json::from_value(rest).map(Command::PlayNow).map_err(bad),
        Some("open") => serde_json::from_value(rest).map(Command::Open).map_err(bad),
        Some("sit") => serde_json::from_value(rest).map(Command::Sit).map_err(bad),
        Some("hold") => serde_json::from_value(rest).map(Command::Hold).map_err(bad),
        _ => Err(ApiError::BadRequest("type: \"play-now\", \"open\", \"sit\" or \"hold\"".into())),
    };
    (reference, command)
}

/// Lobby commands per client address (each reaches the store), at the
/// rate of its HTTP requests when those are limited (`Config::http_rate`).
static COMMANDS: OnceLock<crate::limits::Keyed<IpAddr>> = OnceLock::new();

/// A lobby socket as its session knows it.
struct Holder {
    who: Who,
    wait: WaitSocket,
}

/// Does what a client's message asks: the answer to send, and whether it
/// was done (not refused).
async fn answer(app: &AppState, holder: &Holder, text: &str) -> (Message, bool) {
    let (reference, command) = read_command(text);
    let limited = match (app.config().http_rate, holder.who.ip) {
        (Some(rate), Some(ip)) => COMMANDS.get_or_init(|| crate::limits::Keyed::new(rate.quota())).check(&ip).is_err(),
        _ => false,
    };
    let result = match command {
        _ if limited => Err(ApiError::RateLimited),
        Err(e) => Err(e),
        Ok(Command::PlayNow(req)) => app
            .play_now
            .wait(req, &holder.who, &holder.wait)
            .await
            .map(|s| LobbyMessage::Waiting { reference: reference.clone(), wait: s.view, token: s.token }.frame()),
        Ok(Command::Open(req)) => app.lobby.open(req, &holder.who, holder.wait.id).await.map(|s| {
            LobbyMessage::Seated { reference: reference.clone(), table: s.view, seat: s.seat, token: s.token }.frame()
        }),
        Ok(Command::Sit(c)) => {
            app.lobby.sit(&c.table, c.seat, c.name.as_deref(), &holder.who, holder.wait.id).await.map(|s| {
                LobbyMessage::Seated { reference: reference.clone(), table: s.view, seat: s.seat, token: s.token }
                    .frame()
            })
        }
        Ok(Command::Hold(HoldCommand { token, table: Some(table), wait: None })) => {
            app.lobby.hold(&table, &token, holder.wait.id).await.map(|(table, seat)| {
                LobbyMessage::Held { reference: reference.clone(), table: Some(table), seat: Some(seat), wait: None }
                    .frame()
            })
        }
        Ok(Command::Hold(HoldCommand { token, table: None, wait: Some(wait) })) => {
            app.play_now.hold(&wait, &token, &holder.wait).await.map(|wait| {
                LobbyMessage::Held { reference: reference.clone(), table: None, seat: None, wait: Some(wait) }.frame()
            })
        }
        Ok(Command::Hold(_)) => Err(ApiError::BadRequest("hold: a \"table\" or a \"wait\", and its \"token\"".into())),
    };
    match result {
        Ok(frame) => (frame, true),
        Err(e) => (LobbyMessage::Error { reference, error: e.body() }.frame(), false),
    }
}

async fn websocket(
    State(app): State<AppState>,
    State(conns): State<Arc<Connections>>,
    RawQuery(query): RawQuery,
    request: Parts,
    ws: WebSocketUpgrade,
) -> Result<Response, ApiError> {
    if !super::session::origin_allowed(&request.headers, &app.config().allowed_origins) {
        return Err(ApiError::ForbiddenOrigin);
    }
    let device = query_list(&query, "device").into_iter().next();
    if device.as_deref().is_some_and(|d| !plausible_device(d)) {
        return Err(ApiError::BadRequest("device: 16 to 64 letters, digits, - or _".into()));
    }
    let who = who(&request, &app, device).await?;
    // A watcher's socket (displaced first when the server is full) until
    // it holds something.
    let slot = conns.admit(client_ip(&request.extensions), true).map_err(ApiError::Busy)?;
    slot.set_class(Class::Idle);
    let ws = ws.max_message_size(MAX_LOBBY_BODY).max_frame_size(MAX_LOBBY_BODY).read_buffer_size(WS_READ_BUFFER);
    Ok(ws.on_upgrade(move |mut socket| async move {
        let mut list = app.lobby.list().await;
        let first = Arc::clone(&list.borrow_and_update());
        if socket.send(LobbyMessage::Tables { tables: &first, known: who.known }.frame()).await.is_err() {
            return;
        }
        let (events, mut told) = mpsc::channel(8);
        let holder = Holder { who, wait: WaitSocket { id: socket_id(), events } };
        let mut stopping = app.stopping();
        let stopped = session(&app, &mut socket, &mut list, first, &mut stopping, &slot, &holder, &mut told).await;
        // What the socket held goes with it; not when the server stops
        // (its pages come back, here or on another server, and hold it again).
        if !stopped {
            app.play_now.release(holder.wait.id).await;
            app.lobby.release(holder.wait.id).await;
        }
    }))
}

/// The socket's life: the list's changes out, the client's messages
/// answered, its wait's news out. Whether it ended as the server stopped.
#[allow(clippy::too_many_arguments)]
async fn session(
    app: &AppState,
    socket: &mut WebSocket,
    list: &mut tokio::sync::watch::Receiver<Arc<Vec<TableView>>>,
    mut sent: Arc<Vec<TableView>>,
    stopping: &mut tokio::sync::watch::Receiver<bool>,
    slot: &Slot,
    holder: &Holder,
    told: &mut mpsc::Receiver<WaitEvent>,
) -> bool {
    let limiter: Option<DirectLimiter> = app.config().ws_rate.map(|r| governor::RateLimiter::direct(r.quota()));
    let ping_every = app.config().ws_ping.min(LOBBY_PING);
    let mut heartbeat = tokio::time::interval_at(tokio::time::Instant::now() + ping_every, ping_every);
    heartbeat.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut last_heard = tokio::time::Instant::now();
    let mut holds = false;
    loop {
        tokio::select! {
            () = until_set(stopping) => {
                let bye = axum::extract::ws::CloseFrame { code: 1001, reason: "the server is stopping".into() };
                let _ = socket.send(Message::Close(Some(bye))).await;
                return true;
            }
            () = slot.displaced() => {
                let bye = axum::extract::ws::CloseFrame { code: 1013, reason: "the server is full; try again later".into() };
                let _ = socket.send(Message::Close(Some(bye))).await;
                return false;
            }
            _ = heartbeat.tick() => {
                if last_heard.elapsed() > ping_every * 3
                    || socket.send(Message::Ping(Bytes::from_static(b"carcassonne"))).await.is_err()
                {
                    return false;
                }
            }
            msg = socket.recv() => {
                last_heard = tokio::time::Instant::now();
                let reply = match msg {
                    Some(Ok(Message::Text(text))) => {
                        if limiter.as_ref().is_some_and(|l| l.check().is_err()) {
                            // Not done: read only for the answer to name its `ref`.
                            let (reference, _) = read_command(text.as_str());
                            LobbyMessage::Error { reference, error: ApiError::RateLimited.body() }.frame()
                        } else {
                            let (reply, done) = answer(app, holder, text.as_str()).await;
                            if done && !holds {
                                // It holds something now: never displaced by a
                                // newcomer (within the crowd's bounds, unless
                                // its person has a history: `listen`).
                                slot.set_class(if holder.who.known { Class::Kept } else { Class::Held });
                                holds = true;
                            }
                            reply
                        }
                    }
                    Some(Ok(Message::Binary(_))) => {
                        LobbyMessage::Error { reference: None, error: ApiError::BadRequest("messages are JSON text".into()).body() }.frame()
                    }
                    Some(Ok(Message::Close(_))) | None | Some(Err(_)) => return false,
                    Some(Ok(_)) => continue, // ping/pong: answered by the library
                };
                if socket.send(reply).await.is_err() {
                    return false;
                }
            }
            Some(event) = told.recv() => {
                let frame = match event {
                    WaitEvent::Changed(wait) => LobbyMessage::Wait { wait }.frame(),
                    WaitEvent::Gone(id) => LobbyMessage::WaitGone { id }.frame(),
                };
                if socket.send(frame).await.is_err() {
                    return false;
                }
            }
            changed = list.changed() => {
                if changed.is_err() {
                    return false;
                }
                let now = Arc::clone(&list.borrow_and_update());
                for m in differences(&sent, &now) {
                    if socket.send(m.frame()).await.is_err() {
                        return false;
                    }
                }
                sent = now;
            }
        }
    }
}

/// The messages that bring a client from list `old` to list `new`.
fn differences<'a>(old: &'a [TableView], new: &'a [TableView]) -> Vec<LobbyMessage<'a>> {
    let before: HashMap<&str, &TableView> = old.iter().map(|t| (t.id.as_str(), t)).collect();
    let after: HashMap<&str, &TableView> = new.iter().map(|t| (t.id.as_str(), t)).collect();
    let mut out: Vec<LobbyMessage<'a>> =
        old.iter().filter(|t| !after.contains_key(t.id.as_str())).map(|t| LobbyMessage::Gone { id: &t.id }).collect();
    out.extend(new.iter().filter(|t| before.get(t.id.as_str()) != Some(t)).map(|t| LobbyMessage::Table { table: t }));
    out
}

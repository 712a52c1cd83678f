//! The lobby over HTTP and its websocket (docs/web.md, *Lobby*): tables to
//! open, sit at, stand up from and start; "Play now"; the live list.

use std::collections::HashMap;
use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{DefaultBodyLimit, Path, State};
use axum::http::request::Parts;
use axum::http::StatusCode;
use axum::response::Response;
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use super::common::{client_key, Shared, MAX_WS_MESSAGE, WS_READ_BUFFER};
use super::session::{cookie_token, same_site};
use crate::error::parse_body;
use crate::error::ApiError;
use crate::listen::{client_ip, until_set, Class, Connections};
use crate::services::lobby::play_now::PlayNowRequest;
use crate::services::lobby::{OpenRequest, TableView, Who};
use crate::services::AppState;

/// The largest body of a lobby request.
pub const MAX_LOBBY_BODY: usize = 4 * 1024;

/// The lobby's routes (registered by `app_with`).
pub(super) fn routes() -> Router<Shared> {
    Router::new()
        .route("/api/lobby/tables", get(list).post(open))
        .route("/api/lobby/tables/{id}", get(one))
        .route("/api/lobby/tables/{id}/sit", post(sit))
        .route("/api/lobby/tables/{id}/stand", post(stand))
        .route("/api/lobby/tables/{id}/start", post(start))
        .route("/api/lobby/tables/{id}/here", post(here))
        .route("/api/lobby/play-now", post(play_now))
        .route("/api/lobby/play-now/{id}", post(waiting))
        .route("/api/lobby/play-now/{id}/cancel", post(cancel))
        .route("/api/lobby/ws", get(websocket))
        .layer(DefaultBodyLimit::max(MAX_LOBBY_BODY))
}

/// Who asks: the signed-in account of the session cookie (a request acting
/// for it must come from the server's own pages), or a guest counted by
/// address.
async fn who(parts: &Parts, app: &AppState) -> Result<Who, ApiError> {
    if let Some(token) = cookie_token(&parts.headers) {
        if let Some(account) = app.accounts.session(&token).await? {
            same_site(parts, app)?;
            return Ok(Who {
                owner: format!("account:{}", account.id),
                account: Some((account.id, account.name)),
                ip: Some(client_key(&parts.extensions, app.config())),
            });
        }
    }
    let ip = client_key(&parts.extensions, app.config());
    Ok(Who { account: None, owner: format!("address:{ip}"), ip: Some(ip) })
}

/// A body holding a seat token.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TokenBody {
    token: String,
}

/// The body of a sit-down.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SitBody {
    seat: usize,
    #[serde(default)]
    name: Option<String>,
}

async fn list(State(app): State<AppState>) -> Result<Json<Value>, ApiError> {
    Ok(Json(json!({ "tables": app.lobby.tables().await? })))
}

async fn one(State(app): State<AppState>, Path(id): Path<String>) -> Result<Json<TableView>, ApiError> {
    Ok(Json(app.lobby.table(&id).await?))
}

async fn open(
    State(app): State<AppState>,
    parts: Parts,
    body: Result<Bytes, BytesRejection>,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    let req: OpenRequest = parse_body(body)?;
    let who = who(&parts, &app).await?;
    let seated = app.lobby.open(req, &who).await?;
    Ok((StatusCode::CREATED, Json(json!({ "table": seated.view, "seat": seated.seat, "token": seated.token }))))
}

async fn sit(
    State(app): State<AppState>,
    Path(id): Path<String>,
    parts: Parts,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<Value>, ApiError> {
    let req: SitBody = parse_body(body)?;
    let who = who(&parts, &app).await?;
    let seated = app.lobby.sit(&id, req.seat, req.name.as_deref(), &who).await?;
    Ok(Json(json!({ "table": seated.view, "seat": seated.seat, "token": seated.token })))
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

async fn here(
    State(app): State<AppState>,
    Path(id): Path<String>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<Value>, ApiError> {
    let req: TokenBody = parse_body(body)?;
    Ok(Json(json!({ "table": app.lobby.here(&id, &req.token).await? })))
}

async fn play_now(
    State(app): State<AppState>,
    parts: Parts,
    body: Result<Bytes, BytesRejection>,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    let req: PlayNowRequest = parse_body(body)?;
    let who = who(&parts, &app).await?;
    let seated = app.play_now.wait(req, &who).await?;
    Ok((StatusCode::CREATED, Json(json!({ "wait": seated.view, "token": seated.token }))))
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

/// What the lobby's websocket sends: the whole list first, then each table
/// that appeared or changed, and each that went.
#[derive(Serialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum LobbyMessage<'a> {
    Tables { tables: &'a [TableView] },
    Table { table: &'a TableView },
    Gone { id: &'a str },
}

impl LobbyMessage<'_> {
    fn frame(&self) -> Message {
        Message::Text(serde_json::to_string(self).unwrap_or_default().into())
    }
}

async fn websocket(
    State(app): State<AppState>,
    State(conns): State<Arc<Connections>>,
    request: Parts,
    ws: WebSocketUpgrade,
) -> Result<Response, ApiError> {
    if !super::session::origin_allowed(&request.headers, &app.config().allowed_origins) {
        return Err(ApiError::ForbiddenOrigin);
    }
    // A watcher's socket: counted among the address's, displaced first
    // when the server is full.
    let slot = conns.admit(client_ip(&request.extensions), true).map_err(ApiError::Busy)?;
    slot.set_class(Class::Idle);
    let ws = ws.max_message_size(MAX_WS_MESSAGE).max_frame_size(MAX_WS_MESSAGE).read_buffer_size(WS_READ_BUFFER);
    Ok(ws.on_upgrade(move |mut socket| async move {
        let mut list = app.lobby.list().await;
        let first = Arc::clone(&list.borrow_and_update());
        if socket.send(LobbyMessage::Tables { tables: &first }.frame()).await.is_err() {
            return;
        }
        let mut stopping = app.stopping();
        session(&app, &mut socket, &mut list, first, &mut stopping, &slot).await;
    }))
}

async fn session(
    app: &AppState,
    socket: &mut WebSocket,
    list: &mut tokio::sync::watch::Receiver<Arc<Vec<TableView>>>,
    mut sent: Arc<Vec<TableView>>,
    stopping: &mut tokio::sync::watch::Receiver<bool>,
    slot: &crate::listen::Slot,
) {
    let ping_every = app.config().ws_ping;
    let mut heartbeat = tokio::time::interval_at(tokio::time::Instant::now() + ping_every, ping_every);
    heartbeat.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut last_heard = tokio::time::Instant::now();
    loop {
        tokio::select! {
            () = until_set(stopping) => {
                let bye = axum::extract::ws::CloseFrame { code: 1001, reason: "the server is stopping".into() };
                let _ = socket.send(Message::Close(Some(bye))).await;
                return;
            }
            () = slot.displaced() => {
                let bye = axum::extract::ws::CloseFrame { code: 1013, reason: "the server is full; try again later".into() };
                let _ = socket.send(Message::Close(Some(bye))).await;
                return;
            }
            _ = heartbeat.tick() => {
                if last_heard.elapsed() > ping_every * 3
                    || socket.send(Message::Ping(Bytes::from_static(b"carcassonne"))).await.is_err()
                {
                    return;
                }
            }
            msg = socket.recv() => {
                last_heard = tokio::time::Instant::now();
                match msg {
                    // The lobby's socket only listens: whatever a client
                    // says is ignored (the library answers pings).
                    Some(Ok(Message::Close(_))) | None | Some(Err(_)) => return,
                    Some(Ok(_)) => {}
                }
            }
            changed = list.changed() => {
                if changed.is_err() {
                    return;
                }
                let now = Arc::clone(&list.borrow_and_update());
                for m in differences(&sent, &now) {
                    if socket.send(m.frame()).await.is_err() {
                        return;
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

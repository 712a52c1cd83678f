//! The HTTP API, the websocket and the embedded UI (docs/web.md).

use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{DefaultBodyLimit, Path, RawQuery, Request, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use carcassonne::record::Record;
use serde::de::DeserializeOwned;
use serde_json::{json, Value};

use crate::error::ApiError;
use crate::listen::{client_ip, Class};
use crate::live::{AppState, CreateRequest, Live, MoveRequest, Rate, Viewer};
use crate::view;
use crate::wire::{ClientMessage, Follower, ServerMessage};

/// The largest request body for moves and new games.
pub const MAX_BODY: usize = 16 * 1024;
/// The largest record the replay viewer accepts.
pub const MAX_RECORD: usize = 256 * 1024;
/// The largest websocket message.
pub const MAX_WS_MESSAGE: usize = 16 * 1024;
/// A websocket's read buffer: clients send small messages (a move is a
/// few hundred bytes). The library's default, 128 KiB, is zeroed before
/// every read and held by every socket.
const WS_READ_BUFFER: usize = 4 * 1024;

type KeyedLimiter = governor::DefaultKeyedRateLimiter<IpAddr>;
type DirectLimiter = governor::DefaultDirectRateLimiter;

fn quota(rate: Rate) -> governor::Quota {
    let per_second = NonZeroU32::new(rate.per_second).unwrap_or(NonZeroU32::MIN);
    governor::Quota::per_second(per_second).allow_burst(NonZeroU32::new(rate.burst).unwrap_or(per_second))
}

/// Refuses `/api/` requests over the client address's rate with `rate_limited`.
async fn rate_limit(limiter: Arc<KeyedLimiter>, req: Request, next: Next) -> Response {
    let ip = client_ip(req.extensions());
    if req.uri().path().starts_with("/api/") {
        if limiter.len() > 10_000 {
            limiter.retain_recent();
        }
        if limiter.check_key(&ip).is_err() {
            return ApiError::RateLimited.into_response();
        }
    }
    next.run(req).await
}

/// Whether a `content-type` header says JSON (`application/json`, any parameters).
fn is_json(headers: &HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|t| t.trim().eq_ignore_ascii_case("application/json"))
}

/// Refuses API POSTs whose body is not declared JSON: a page on another
/// site can send a form or plain text anywhere without asking, but JSON only
/// after a CORS preflight that this server never grants.
async fn json_posts_only(req: Request, next: Next) -> Response {
    if req.method() == axum::http::Method::POST && req.uri().path().starts_with("/api/") && !is_json(req.headers()) {
        return ApiError::UnsupportedMediaType.into_response();
    }
    next.run(req).await
}

/// The whole application: API, websocket and UI.
pub fn app(state: AppState) -> Router {
    let http_rate = state.config().http_rate;
    let body_timeout = state.config().body_timeout;
    let api = Router::new()
        .route("/api/health", get(health))
        .route("/api/tiles", get(|headers: HeaderMap| async move { revalidated_json(&TILES_JSON, &headers) }))
        .route(
            "/api/options",
            get(|State(app): State<AppState>, headers: HeaderMap| async move {
                // (The server's programs are among the bot levels: built per request.)
                revalidated_json(&FixedJson::new(view::options_json(&app.config().external_bots)), &headers)
            }),
        )
        .route("/api/games", get(list_games).post(create_game))
        .route("/api/games/{id}", get(game_state))
        .route("/api/games/{id}/moves", post(post_move))
        .route("/api/games/{id}/record", get(download_record))
        .route("/api/games/{id}/replay", get(game_replay))
        .route("/api/games/{id}/review", get(game_review))
        .route("/api/games/{id}/ws", get(websocket))
        .route("/api/qr", crate::qr::route(http_rate.is_some()))
        .route("/api/rules", post(crate::rulesets::rules_of))
        .route("/api/rules/{code}", get(crate::rulesets::rules_page))
        .route("/api/rulesets", get(crate::rulesets::list).post(crate::rulesets::save))
        .route("/api/rulesets/{id}", post(crate::rulesets::change))
        .layer(DefaultBodyLimit::max(MAX_BODY));
    let replay = Router::new().route("/api/replay", post(replay_record)).layer(DefaultBodyLimit::max(MAX_RECORD));
    let router = api
        .merge(replay)
        .fallback(crate::assets::static_file)
        .with_state(state)
        .layer(middleware::from_fn(json_posts_only))
        .layer(tower_http::timeout::RequestBodyTimeoutLayer::new(body_timeout))
        // Text, JSON and SVG go compressed to clients that take it (brotli or gzip).
        .layer(tower_http::compression::CompressionLayer::new().br(true).gzip(true))
        // Every response, JSON errors included, is read as what it says it is.
        .layer(tower_http::set_header::SetResponseHeaderLayer::if_not_present(
            header::X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        ));
    let router = crate::assets::limited(router, http_rate);
    match http_rate {
        Some(rate) => {
            let limiter = Arc::new(governor::RateLimiter::keyed(quota(rate)));
            router.layer(middleware::from_fn(move |req, next| rate_limit(Arc::clone(&limiter), req, next)))
        }
        None => router,
    }
}

/// For load balancers: 200 when the storage answers (within two seconds)
/// and, with several servers, the change feed listens; 503 otherwise, so
/// that a balancer stops sending players here. `{"ok", "store", "feed"}`,
/// each part `up`, `down` (or `none`: no feed with one server).
async fn health(State(app): State<AppState>) -> Response {
    let probe = app.store().health();
    let store_up = match tokio::time::timeout(std::time::Duration::from_secs(2), probe).await {
        Ok(Ok(())) => true,
        Ok(Err(e)) => {
            tracing::warn!(error = %e, "health: the storage does not answer");
            false
        }
        _ => false,
    };
    #[derive(serde::Serialize)]
    struct Health {
        ok: bool,
        store: &'static str,
        feed: &'static str,
    }
    let feed = app.store().feed();
    let ok = store_up && feed != crate::store::Feed::Down;
    let body = Health { ok, store: if store_up { "up" } else { "down" }, feed: feed.word() };
    let status = if ok { StatusCode::OK } else { StatusCode::SERVICE_UNAVAILABLE };
    (status, Json(body)).into_response()
}

/// A JSON document that changes only with the program, with its ETag.
struct FixedJson {
    body: Bytes,
    etag: String,
}

impl FixedJson {
    fn new(value: Value) -> FixedJson {
        let body = Bytes::from(value.to_string());
        FixedJson { etag: etag_of(&body), body }
    }
}

static TILES_JSON: std::sync::LazyLock<FixedJson> = std::sync::LazyLock::new(|| FixedJson::new(view::tiles_json()));

/// A strong ETag: the first 12 bytes of the content's SHA-256, in hex.
fn etag_of(bytes: &[u8]) -> String {
    use sha2::Digest;
    let hash = sha2::Sha256::digest(bytes);
    format!("\"{}\"", hash.iter().take(12).map(|b| format!("{b:02x}")).collect::<String>())
}

/// Whether the client already holds this version (`If-None-Match`).
fn fresh(headers: &HeaderMap, etag: &str) -> bool {
    headers
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(',').any(|t| t.trim() == etag || t.trim() == "*"))
}

/// A fixed JSON document, revalidated by its ETag on every use (`no-cache`):
/// a client that holds it gets `304 Not Modified` and no body.
fn revalidated_json(doc: &FixedJson, headers: &HeaderMap) -> Response {
    let mut resp = if fresh(headers, &doc.etag) {
        StatusCode::NOT_MODIFIED.into_response()
    } else {
        ([(header::CONTENT_TYPE, HeaderValue::from_static("application/json"))], doc.body.clone()).into_response()
    };
    let h = resp.headers_mut();
    if let Ok(v) = HeaderValue::from_str(&doc.etag) {
        h.insert(header::ETAG, v);
    }
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    resp
}

/// The body's bytes, mapping a refused body to a stable code.
fn body_bytes(body: Result<Bytes, BytesRejection>) -> Result<Bytes, ApiError> {
    body.map_err(|r| {
        if r.status() == StatusCode::PAYLOAD_TOO_LARGE {
            ApiError::TooLarge
        } else {
            ApiError::BadRequest(r.body_text())
        }
    })
}

/// Parses a JSON body, mapping every failure to a stable code.
pub(crate) fn parse_body<T: DeserializeOwned>(body: Result<Bytes, BytesRejection>) -> Result<T, ApiError> {
    let bytes = body_bytes(body)?;
    serde_json::from_slice(&bytes).map_err(|e| ApiError::BadRequest(format!("malformed request: {e}")))
}

/// The values of `?key=a,b` (also `%2C`-separated; the key may repeat).
pub(crate) fn query_list(query: &Option<String>, key: &str) -> Vec<String> {
    let Some(q) = query else { return Vec::new() };
    q.split('&')
        .filter_map(|kv| kv.split_once('=').filter(|(k, _)| *k == key).map(|(_, v)| v))
        .flat_map(|v| v.replace("%2C", ",").replace("%2c", ",").split(',').map(str::to_string).collect::<Vec<_>>())
        .filter(|t| !t.is_empty())
        .collect()
}

/// The tokens in `?token=a,b`.
fn tokens(query: &Option<String>) -> Vec<String> {
    query_list(query, "token")
}

async fn viewer_of(live: &Live, tokens: &[String]) -> Result<Viewer, ApiError> {
    let table = live.lock().await;
    Viewer::from_tokens(&table.seats, tokens.iter().map(String::as_str))
}

async fn state_of(live: &Live, viewer: &Viewer) -> Value {
    let table = live.lock().await;
    view::state_json(&live.id, &table, viewer)
}

/// The most ids one games list may name.
pub const MAX_LISTED_IDS: usize = 200;

/// The games list a visitor sees: the public games and those named in
/// `?ids=a,b` (the games they hold a seat in), never every game of the server.
async fn list_games(State(app): State<AppState>, RawQuery(query): RawQuery) -> Result<Json<Value>, ApiError> {
    let ids: Vec<String> =
        query_list(&query, "ids").into_iter().filter(|id| crate::live::plausible_id(id)).take(MAX_LISTED_IDS).collect();
    let games = app.store().listed(&ids, 200).await?;
    Ok(Json(json!({ "games": games.iter().map(view::summary_json).collect::<Vec<_>>() })))
}

async fn create_game(
    State(app): State<AppState>,
    request: axum::http::request::Parts,
    body: Result<Bytes, BytesRejection>,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    let req: CreateRequest = parse_body(body)?;
    let created = app.create_for(req, Some(client_ip(&request.extensions))).await?;
    // The creator plays the seats at their screen; invited seats are for others.
    let viewer = Viewer { seats: created.tokens.iter().filter(|t| !t.remote).map(|t| t.seat).collect() };
    let state = state_of(&created.live, &viewer).await;
    let tokens: Vec<Value> =
        created.tokens.iter().map(|t| json!({ "seat": t.seat.0, "token": t.token, "remote": t.remote })).collect();
    Ok((StatusCode::CREATED, Json(json!({ "id": created.live.id, "tokens": tokens, "state": state }))))
}

async fn game_state(
    State(app): State<AppState>,
    Path(id): Path<String>,
    RawQuery(query): RawQuery,
) -> Result<Json<Value>, ApiError> {
    let live = app.game(&id).await?;
    let viewer = viewer_of(&live, &tokens(&query)).await?;
    Ok(Json(state_of(&live, &viewer).await))
}

async fn post_move(
    State(app): State<AppState>,
    Path(id): Path<String>,
    RawQuery(query): RawQuery,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<Value>, ApiError> {
    let live = app.game(&id).await?;
    let body: Value = parse_body(body)?;
    let mut toks = tokens(&query);
    if let Some(t) = body.get("token").and_then(Value::as_str) {
        toks.push(t.to_string());
    }
    let viewer = viewer_of(&live, &toks).await?;
    let req: MoveRequest =
        serde_json::from_value(body).map_err(|e| ApiError::BadRequest(format!("malformed move: {e}")))?;
    app.play(&live, &viewer, &req).await?;
    Ok(Json(state_of(&live, &viewer).await))
}

async fn download_record(State(app): State<AppState>, Path(id): Path<String>) -> Result<Response, ApiError> {
    let live = app.game(&id).await?;
    let record = view::public_record(&*live.lock().await).ok_or(ApiError::HiddenInformation)?;
    let disposition = format!("attachment; filename=\"carcassonne-{}.json\"", live.id);
    Ok((
        [
            (header::CONTENT_TYPE, HeaderValue::from_static("application/json")),
            (
                header::CONTENT_DISPOSITION,
                HeaderValue::from_str(&disposition).unwrap_or(HeaderValue::from_static("attachment")),
            ),
        ],
        record.to_json(),
    )
        .into_response())
}

async fn game_replay(State(app): State<AppState>, Path(id): Path<String>) -> Result<Json<Value>, ApiError> {
    let live = app.game(&id).await?;
    // The full record stays here: the replay shows only what happened.
    let record = {
        let t = live.lock().await;
        Record::from_game(&t.game, &t.names())
    };
    let mut replay = view::replay_json(&record).map_err(|e| ApiError::Storage(format!("game {id}: {e}")))?;
    replay["id"] = id.into();
    Ok(Json(replay))
}

/// The search's review of a finished game: `202` with the progress while it
/// is worked out (ask again), `200` with the review once done
/// (`crate::review`).
async fn game_review(State(app): State<AppState>, Path(id): Path<String>) -> Result<Response, ApiError> {
    let live = app.game(&id).await?;
    let record = {
        let t = live.lock().await;
        if !t.game.is_over() {
            return Err(ApiError::NotFinished);
        }
        Record::from_game(&t.game, &t.names())
    };
    let (reviews, permits) = app.reviews();
    let status = reviews.get_or_start(&id, record, permits);
    let code = match status {
        crate::review::ReviewStatus::Computing { .. } => StatusCode::ACCEPTED,
        crate::review::ReviewStatus::Done { .. } => StatusCode::OK,
        crate::review::ReviewStatus::Failed { .. } => StatusCode::INTERNAL_SERVER_ERROR,
    };
    Ok((code, Json(status)).into_response())
}

async fn replay_record(body: Result<Bytes, BytesRejection>) -> Result<Json<Value>, ApiError> {
    let bytes = body_bytes(body)?;
    let text = std::str::from_utf8(&bytes).map_err(|_| ApiError::BadRequest("a record is UTF-8 JSON".into()))?;
    let record = Record::from_json(text).map_err(|e| ApiError::BadRequest(e.to_string()))?;
    if record.moves.len() > carcassonne::MAX_TILES {
        return Err(ApiError::BadRequest("the record has more moves than a game can hold".into()));
    }
    let replay = view::replay_json(&record).map_err(|e| ApiError::BadRequest(e.to_string()))?;
    Ok(Json(replay))
}

/// Whether a websocket may be opened from the page at `origin` (none: not
/// a browser): the server's own (the origin's host is the request's
/// `Host`), or one of `Config::allowed_origins`.
fn origin_allowed(headers: &HeaderMap, allowed: &[String]) -> bool {
    let Some(origin) = headers.get(header::ORIGIN) else { return true };
    let Ok(origin) = origin.to_str() else { return false };
    if allowed.iter().any(|a| a.trim_end_matches('/').eq_ignore_ascii_case(origin)) {
        return true;
    }
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok());
    let origin_host = origin.split_once("://").map(|(_, rest)| rest);
    matches!((origin_host, host), (Some(o), Some(h)) if o.eq_ignore_ascii_case(h))
}

async fn websocket(
    State(app): State<AppState>,
    Path(id): Path<String>,
    RawQuery(query): RawQuery,
    request: axum::http::request::Parts,
    ws: WebSocketUpgrade,
) -> Result<Response, ApiError> {
    if !origin_allowed(&request.headers, &app.config().allowed_origins) {
        return Err(ApiError::ForbiddenOrigin);
    }
    let protocol = match query_list(&query, "protocol").first().map(String::as_str) {
        None | Some("1") => 1,
        Some("2") => 2,
        Some(other) => return Err(ApiError::BadRequest(format!("protocol {other} is not spoken here (1 or 2)"))),
    };
    let live = app.game(&id).await?;
    let viewer = viewer_of(&live, &tokens(&query)).await?;
    let slot = app.connections().admit(client_ip(&request.extensions), true).map_err(ApiError::Busy)?;
    // A spectator's socket may be displaced by a newcomer when the server is full; a seat holder's never.
    slot.set_class(if viewer.seats.is_empty() { Class::Idle } else { Class::Held });
    let place = live
        .take_socket_place(app.config().max_sockets_per_game)
        .ok_or(ApiError::Busy("this game has as many live connections as it can take"))?;
    let ws = ws.max_message_size(MAX_WS_MESSAGE).max_frame_size(MAX_WS_MESSAGE).read_buffer_size(WS_READ_BUFFER);
    Ok(ws.on_upgrade(move |socket| async move {
        let _held = place;
        tokio::select! {
            () = ws_session(app, live, viewer, protocol, socket) => {}
            () = slot.displaced() => {}
        }
    }))
}

/// A socket sending this many messages over its rate, with no calm spell
/// of [`STRIKES_FORGOTTEN`] between them, is closed.
const STRIKES: u32 = 100;
const STRIKES_FORGOTTEN: std::time::Duration = std::time::Duration::from_secs(5);

fn error_message(e: &ApiError) -> Message {
    ServerMessage::Error(e.body()).frame()
}

/// One websocket: the viewer's state, then each change (in the protocol
/// the client asked for, `crate::wire`); moves in, errors out.
async fn ws_session(app: AppState, live: Arc<Live>, viewer: Viewer, protocol: u8, mut socket: WebSocket) {
    live.presence(app.store(), &viewer, true).await;
    let mut changes = live.subscribe();
    changes.mark_unchanged();
    let mut follower = Follower::new(protocol);
    if socket.send(follower.full(&live, &viewer).await).await.is_ok() {
        ws_loop(&app, &live, &viewer, &mut socket, &mut changes, &mut follower).await;
    }
    live.presence(app.store(), &viewer, false).await;
}

async fn ws_loop(
    app: &AppState,
    live: &Arc<Live>,
    viewer: &Viewer,
    socket: &mut WebSocket,
    changes: &mut tokio::sync::watch::Receiver<u64>,
    follower: &mut Follower,
) {
    let limiter: Option<DirectLimiter> = app.config().ws_rate.map(|r| governor::RateLimiter::direct(quota(r)));
    // A socket that died silently (a phone asleep, a lost network) would
    // keep its seat "online": ping it, and give up on it when nothing comes
    // back. Browsers answer pings by themselves.
    let ping_every = app.config().ws_ping;
    let mut heartbeat = tokio::time::interval_at(tokio::time::Instant::now() + ping_every, ping_every);
    heartbeat.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut last_heard = tokio::time::Instant::now();
    let mut strikes = 0u32;
    let mut last_strike = tokio::time::Instant::now();
    let mut stopping = app.stopping();
    loop {
        tokio::select! {
            () = crate::listen::until_set(&mut stopping) => {
                let bye = axum::extract::ws::CloseFrame { code: 1001, reason: "the server is stopping".into() };
                let _ = socket.send(Message::Close(Some(bye))).await;
                break;
            }
            _ = heartbeat.tick() => {
                if last_heard.elapsed() > ping_every * 3
                    || socket.send(Message::Ping(Bytes::from_static(b"carcassonne"))).await.is_err()
                {
                    break;
                }
            }
            msg = socket.recv() => {
                last_heard = tokio::time::Instant::now();
                let over = |m: &Option<Result<Message, axum::Error>>| {
                    matches!(m, Some(Ok(Message::Text(_) | Message::Binary(_))))
                        && limiter.as_ref().is_some_and(|l| l.check().is_err())
                };
                let limited = over(&msg);
                if limited {
                    // Refusals count until the socket has been calm for a while.
                    if last_strike.elapsed() > STRIKES_FORGOTTEN {
                        strikes = 0;
                    }
                    strikes += 1;
                    last_strike = tokio::time::Instant::now();
                }
                if strikes > STRIKES {
                    let bye = axum::extract::ws::CloseFrame { code: 1008, reason: "too many messages".into() };
                    let _ = socket.send(Message::Close(Some(bye))).await;
                    break;
                }
                let reply = match msg {
                    _ if limited => Reply::Error(ApiError::RateLimited),
                    Some(Ok(Message::Text(text))) => ws_command(app, live, viewer, text.as_str()).await,
                    Some(Ok(Message::Binary(_))) => Reply::Error(ApiError::BadRequest("messages are JSON text".into())),
                    Some(Ok(Message::Close(_))) | None | Some(Err(_)) => break,
                    Some(Ok(_)) => Reply::Nothing, // ping/pong: answered by the library
                };
                let sent = match reply {
                    Reply::Nothing => Ok(()),
                    Reply::State => socket.send(follower.full(live, viewer).await).await,
                    // The error alone: a refusal costs the server next to
                    // nothing. A client that needs the state asks (`sync`).
                    Reply::Error(e) => socket.send(error_message(&e)).await,
                };
                if sent.is_err() {
                    break;
                }
            }
            changed = changes.changed() => {
                if changed.is_err() {
                    break;
                }
                if let Some(message) = follower.next(live, viewer).await {
                    if socket.send(message).await.is_err() {
                        break;
                    }
                }
            }
        }
    }
}

/// What to answer a client's message with.
enum Reply {
    /// Nothing now (a move that was played shows up as the next state).
    Nothing,
    /// The state as it is.
    State,
    /// A refusal (the client asks for the state if it needs it).
    Error(ApiError),
}

/// Handles one client message: `{"type": "move", "version": …, "tile": …}`
/// or `{"type": "sync"}`.
async fn ws_command(app: &AppState, live: &Arc<Live>, viewer: &Viewer, text: &str) -> Reply {
    match serde_json::from_str::<ClientMessage>(text) {
        Ok(ClientMessage::Move(req)) => match app.play(live, viewer, &req).await {
            Ok(()) => Reply::Nothing,
            Err(e) => Reply::Error(e),
        },
        Ok(ClientMessage::Sync) => Reply::State,
        Err(e) => Reply::Error(ApiError::BadRequest(format!("malformed message: {e}"))),
    }
}

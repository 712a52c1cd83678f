//! The HTTP API, the websocket and the embedded UI (docs/web.md).

use std::net::IpAddr;
use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{DefaultBodyLimit, FromRef, Path, RawQuery, Request, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use carcassonne::record::Record;
use serde_json::{json, Value};

use crate::config::Config;
use crate::error::{body_bytes, parse_body, ApiError};
use crate::listen::{addr_key, client_ip, Connections};
use crate::services::games::{CreateRequest, Live, MoveRequest, Viewer};
use crate::services::ids::plausible_id;
use crate::services::review::ReviewStatus;
use crate::services::AppState;
use crate::view;

mod accounts;
mod hints;
// (i18n) error messages in the reader's language
mod chat;
mod clocks;
mod lobby;
mod localize;
mod passkeys;
mod players;
mod push;
mod rulesets;
mod ws;

pub use accounts::{COOKIE, COOKIE_MAX_AGE, MAX_ACCOUNT_BODY};
pub use passkeys::MAX_PASSKEY_BODY;
pub use rulesets::{MAX_SAVED_RULES, SAVES_PER_HOUR};

/// The largest request body for moves and new games.
pub const MAX_BODY: usize = 16 * 1024;
/// The largest record the replay viewer accepts.
pub const MAX_RECORD: usize = 256 * 1024;
/// The largest websocket message.
pub const MAX_WS_MESSAGE: usize = 16 * 1024;
/// A websocket's read buffer: clients send small messages (a move is a
/// few hundred bytes). The library's default, 128 KiB, is zeroed before
/// every read and held by every socket.
pub(crate) const WS_READ_BUFFER: usize = 4 * 1024;

type KeyedLimiter = crate::limits::Keyed<IpAddr>;
pub(crate) type DirectLimiter = governor::DefaultDirectRateLimiter;

/// The address a client's limits are counted under (an IPv6 address by its
/// prefix, `Config::ipv6_prefix`).
pub(crate) fn client_key(extensions: &axum::http::Extensions, config: &Config) -> IpAddr {
    addr_key(client_ip(extensions), config.ipv6_prefix)
}

/// Refuses `/api/` requests over the client address's rate with `rate_limited`.
async fn rate_limit(limiter: Arc<KeyedLimiter>, prefix: u8, req: Request, next: Next) -> Response {
    let ip = addr_key(client_ip(req.extensions()), prefix);
    if req.uri().path().starts_with("/api/") && limiter.check(&ip).is_err() {
        return ApiError::RateLimited.into_response();
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

/// What the handlers share: the services, and the connection counts (a
/// websocket takes a place among them).
#[derive(Clone)]
pub struct Shared {
    pub app: AppState,
    pub conns: Arc<Connections>,
}

impl FromRef<Shared> for AppState {
    fn from_ref(s: &Shared) -> AppState {
        s.app.clone()
    }
}

impl FromRef<Shared> for Arc<Connections> {
    fn from_ref(s: &Shared) -> Arc<Connections> {
        Arc::clone(&s.conns)
    }
}

/// The whole application: API, websocket and UI (with connection counts of
/// its own: tests call it directly).
pub fn app(state: AppState) -> Router {
    let conns = Arc::new(Connections::new(state.config()));
    app_with(state, conns)
}

/// [`app`], counting websockets among the listener's connections `conns`.
pub fn app_with(state: AppState, conns: Arc<Connections>) -> Router {
    let http_rate = state.config().http_rate;
    let prefix = state.config().ipv6_prefix;
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
        .route("/api/games/{id}/ws", get(ws::websocket))
        .route("/api/games/{id}/hint", post(hints::hint))
        // Clocks: a seat handed to a bot, taken back.
        .route("/api/games/{id}/handover", post(clocks::hand_over))
        .route("/api/games/{id}/back", post(clocks::take_back))
        .route("/api/yourturn", post(clocks::your_turn))
        .route("/api/qr", crate::qr::route(http_rate.is_some(), prefix))
        .route("/api/rules", post(rulesets::rules_of))
        .route("/api/rules/{code}", get(rulesets::rules_page))
        .route("/api/rulesets", get(rulesets::list).post(rulesets::save))
        .route("/api/rulesets/{id}", post(rulesets::change))
        .layer(DefaultBodyLimit::max(MAX_BODY));
    let replay = Router::new().route("/api/replay", post(replay_record)).layer(DefaultBodyLimit::max(MAX_RECORD));
    let router = api
        .merge(replay)
        .merge(accounts::routes())
        .merge(players::routes())
        .merge(passkeys::routes())
        .merge(chat::routes().layer(DefaultBodyLimit::max(MAX_BODY)))
        .merge(push::routes())
        .merge(lobby::routes())
        .fallback(crate::assets::static_file)
        .with_state(Shared { app: state, conns })
        // (i18n) refusals in the reader's language (Accept-Language)
        .layer(middleware::from_fn(localize::localize_errors))
        .layer(middleware::from_fn(json_posts_only))
        .layer(tower_http::timeout::RequestBodyTimeoutLayer::new(body_timeout))
        // Text, JSON and SVG go compressed to clients that take it (brotli or gzip).
        .layer(tower_http::compression::CompressionLayer::new().br(true).gzip(true));
    let router = crate::assets::limited(router, http_rate, prefix);
    let router = match http_rate {
        Some(rate) => {
            let limiter = Arc::new(KeyedLimiter::new(rate.quota()));
            router.layer(middleware::from_fn(move |req, next| rate_limit(Arc::clone(&limiter), prefix, req, next)))
        }
        None => router,
    };
    // Every response, JSON errors and the rate limit's refusals included, is
    // read as what it says it is (the outermost layer).
    router.layer(tower_http::set_header::SetResponseHeaderLayer::if_not_present(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    ))
}

/// For load balancers: 200 when the storage answers (within two seconds)
/// and, with several servers, the change feed listens; 503 otherwise, so
/// that a balancer stops sending players here. `{"ok", "store", "feed"}`,
/// each part `up`, `down` (or `none`: no feed with one server).
async fn health(State(app): State<AppState>) -> Response {
    let probe = app.store().cluster.health();
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
    let feed = app.store().cluster.feed();
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

/// The values of `?key=a,b` (also `%2C`-separated; the key may repeat).
pub(crate) fn query_list(query: &Option<String>, key: &str) -> Vec<String> {
    let Some(q) = query else { return Vec::new() };
    q.split('&')
        .filter_map(|kv| kv.split_once('=').filter(|(k, _)| *k == key).map(|(_, v)| v))
        .flat_map(|v| v.replace("%2C", ",").replace("%2c", ",").split(',').map(str::to_string).collect::<Vec<_>>())
        .filter(|t| !t.is_empty())
        .collect()
}

/// The most seat tokens one request may name: one per seat of the largest
/// game. Checked before the game's lock is taken, so that a long URL of
/// tokens costs next to nothing.
pub const MAX_TOKENS: usize = carcassonne::MAX_PLAYERS;

/// The tokens in `?token=a,b` (each once), at most [`MAX_TOKENS`].
///
/// # Errors
/// `too_many_tokens`.
pub(crate) fn tokens(query: &Option<String>) -> Result<Vec<String>, ApiError> {
    let mut tokens = query_list(query, "token");
    tokens.sort_unstable();
    tokens.dedup();
    if tokens.len() > MAX_TOKENS {
        return Err(ApiError::TooManyTokens);
    }
    Ok(tokens)
}

pub(crate) async fn viewer_of(live: &Live, tokens: &[String]) -> Result<Viewer, ApiError> {
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
        query_list(&query, "ids").into_iter().filter(|id| plausible_id(id)).take(MAX_LISTED_IDS).collect();
    let games = app.store().games.listed(&ids, 200).await?;
    Ok(Json(json!({ "games": games.iter().map(view::summary_json).collect::<Vec<_>>() })))
}

async fn create_game(
    State(app): State<AppState>,
    request: axum::http::request::Parts,
    body: Result<Bytes, BytesRejection>,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    let req: CreateRequest = parse_body(body)?;
    // A signed-in creator's seat is linked to their account (ratings).
    let account = accounts::account_of(&request, &app).await?;
    let created = app.games.create(req, Some(client_key(&request.extensions, app.config())), account.as_ref()).await?;
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
    let tokens = tokens(&query)?;
    let live = app.games.game(&id).await?;
    let viewer = viewer_of(&live, &tokens).await?;
    Ok(Json(state_of(&live, &viewer).await))
}

async fn post_move(
    State(app): State<AppState>,
    Path(id): Path<String>,
    RawQuery(query): RawQuery,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<Value>, ApiError> {
    let body: Value = parse_body(body)?;
    let mut toks = tokens(&query)?;
    if let Some(t) = body.get("token").and_then(Value::as_str) {
        if !toks.iter().any(|k| k == t) {
            toks.push(t.to_string());
        }
    }
    if toks.len() > MAX_TOKENS {
        return Err(ApiError::TooManyTokens);
    }
    let live = app.games.game(&id).await?;
    let viewer = viewer_of(&live, &toks).await?;
    let req: MoveRequest =
        serde_json::from_value(body).map_err(|e| ApiError::BadRequest(format!("malformed move: {e}")))?;
    app.games.play(&live, &viewer, &req).await?;
    Ok(Json(state_of(&live, &viewer).await))
}

async fn download_record(State(app): State<AppState>, Path(id): Path<String>) -> Result<Response, ApiError> {
    let live = app.games.game(&id).await?;
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
    let live = app.games.game(&id).await?;
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
async fn game_review(
    State(app): State<AppState>,
    Path(id): Path<String>,
    request: axum::http::request::Parts,
) -> Result<Response, ApiError> {
    let status = app.reviews.review(&id, Some(client_key(&request.extensions, app.config()))).await?;
    let code = match status {
        ReviewStatus::Computing { .. } => StatusCode::ACCEPTED,
        ReviewStatus::Done { .. } => StatusCode::OK,
        ReviewStatus::Failed { .. } => StatusCode::INTERNAL_SERVER_ERROR,
    };
    Ok((code, Json(status)).into_response())
}

async fn replay_record(body: Result<Bytes, BytesRejection>) -> Result<Json<Value>, ApiError> {
    let bytes = body_bytes(body)?;
    let text = std::str::from_utf8(&bytes).map_err(|_| ApiError::BadRequest("a record is UTF-8 JSON".into()))?;
    let record = Record::from_json(text).map_err(ApiError::Replay)?;
    if record.moves.len() > carcassonne::MAX_TILES {
        return Err(ApiError::BadRequest("the record has more moves than a game can hold".into()));
    }
    let replay = view::replay_json(&record).map_err(ApiError::Replay)?;
    Ok(Json(replay))
}

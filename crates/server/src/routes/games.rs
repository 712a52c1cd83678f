//! The games: listed, made, watched, played; their records, replays and
//! reviews; the server's health.

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{Path, RawQuery, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use carcassonne::record::Record;
use serde_json::{json, Value};

use super::common::{client_key, query_list, state_of, tokens, viewer_of, MAX_TOKENS};
use crate::error::{body_bytes, parse_body, ApiError};
use crate::services::games::{CreateRequest, MoveRequest, Viewer};
use crate::services::ids::plausible_id;
use crate::services::review::ReviewStatus;
use crate::services::AppState;
use crate::view;

/// For load balancers: 200 when the storage answers (within two seconds)
/// and, with several servers, the change feed listens; 503 otherwise, so
/// that a balancer stops sending players here. `{"ok", "store", "feed"}`,
/// each part `up`, `down` (or `none`: no feed with one server).
pub(super) async fn health(State(app): State<AppState>) -> Response {
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
pub(super) struct FixedJson {
    body: Bytes,
    etag: String,
}

impl FixedJson {
    pub(super) fn new(value: Value) -> FixedJson {
        let body = Bytes::from(value.to_string());
        FixedJson { etag: etag_of(&body), body }
    }
}

pub(super) static TILES_JSON: std::sync::LazyLock<FixedJson> =
    std::sync::LazyLock::new(|| FixedJson::new(view::tiles_json()));

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
pub(super) fn revalidated_json(doc: &FixedJson, headers: &HeaderMap) -> Response {
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

/// The most ids one games list may name.
pub const MAX_LISTED_IDS: usize = 200;

/// The games list a visitor sees: the public games and those named in
/// `?ids=a,b` (the games they hold a seat in), never every game of the server.
pub(super) async fn list_games(
    State(app): State<AppState>,
    RawQuery(query): RawQuery,
) -> Result<Json<Value>, ApiError> {
    let ids: Vec<String> =
        query_list(&query, "ids").into_iter().filter(|id| plausible_id(id)).take(MAX_LISTED_IDS).collect();
    let games = app.store().games.listed(&ids, 200).await?;
    Ok(Json(json!({ "games": games.iter().map(view::summary_json).collect::<Vec<_>>() })))
}

/// The games to watch: the public games in play, the highest rated first
/// (`services/watchlist.rs`), each as the games list has it with `rated`, its
/// seats' `ratings` and their `top`, and each account's seat its `player`.
pub(super) async fn watch_games(State(app): State<AppState>) -> Result<Json<Value>, ApiError> {
    let list = app.watch.live().await?;
    let games: Vec<Value> = list
        .iter()
        .map(|w| {
            let mut v = view::summary_json(&w.game);
            v["rated"] = w.rated.into();
            v["ratings"] = json!(w.ratings);
            v["top"] = json!(w.top);
            for (p, name) in v["players"].as_array_mut().into_iter().flatten().zip(&w.players) {
                if let Some(name) = name {
                    p["player"] = name.clone().into();
                }
            }
            v
        })
        .collect();
    Ok(Json(json!({ "games": games })))
}

pub(super) async fn create_game(
    State(app): State<AppState>,
    request: axum::http::request::Parts,
    body: Result<Bytes, BytesRejection>,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    let req: CreateRequest = parse_body(body)?;
    // A signed-in creator's seat is linked to their account (ratings).
    let account = super::session::account_of(&request, &app).await?;
    let client = client_key(&request.extensions, app.config());
    let spender = super::common::spender(&app, account.as_ref(), client).await;
    let created = app.games.create(req, Some(client), Some(spender), account.as_ref()).await?;
    // The creator plays the seats at their screen; invited seats are for others.
    let viewer = Viewer { seats: created.tokens.iter().filter(|t| !t.remote).map(|t| t.seat).collect() };
    let state = state_of(&created.live, &viewer).await;
    let tokens: Vec<Value> =
        created.tokens.iter().map(|t| json!({ "seat": t.seat.0, "token": t.token, "remote": t.remote })).collect();
    Ok((StatusCode::CREATED, Json(json!({ "id": created.live.id, "tokens": tokens, "state": state }))))
}

pub(super) async fn game_state(
    State(app): State<AppState>,
    Path(id): Path<String>,
    RawQuery(query): RawQuery,
) -> Result<Json<Value>, ApiError> {
    let tokens = tokens(&query)?;
    let live = app.games.game(&id).await?;
    let viewer = viewer_of(&live, &tokens).await?;
    Ok(Json(state_of(&live, &viewer).await))
}

pub(super) async fn post_move(
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

pub(super) async fn download_record(State(app): State<AppState>, Path(id): Path<String>) -> Result<Response, ApiError> {
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

pub(super) async fn game_replay(State(app): State<AppState>, Path(id): Path<String>) -> Result<Json<Value>, ApiError> {
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
pub(super) async fn game_review(
    State(app): State<AppState>,
    Path(id): Path<String>,
    request: axum::http::request::Parts,
) -> Result<Response, ApiError> {
    let account = super::session::account_of(&request, &app).await?;
    let status = app.reviews.review(&id, Some(client_key(&request.extensions, app.config())), account.as_ref()).await?;
    let code = match status {
        ReviewStatus::Computing { .. } => StatusCode::ACCEPTED,
        ReviewStatus::Done { .. } => StatusCode::OK,
        ReviewStatus::Failed { .. } => StatusCode::INTERNAL_SERVER_ERROR,
    };
    Ok((code, Json(status)).into_response())
}

pub(super) async fn replay_record(body: Result<Bytes, BytesRejection>) -> Result<Json<Value>, ApiError> {
    let bytes = body_bytes(body)?;
    let text = std::str::from_utf8(&bytes).map_err(|_| ApiError::BadRequest("a record is UTF-8 JSON".into()))?;
    let record = Record::from_json(text).map_err(ApiError::Replay)?;
    if record.moves.len() > carcassonne::MAX_TILES {
        return Err(ApiError::BadRequest("the record has more moves than a game can hold".into()));
    }
    let replay = view::practice_json(&record).map_err(ApiError::Replay)?;
    Ok(Json(replay))
}

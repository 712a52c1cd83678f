//! Chat and rematch over HTTP (the websocket's fallback, and the chat's
//! download): handlers only, the work is in `services::chat` and
//! `services::rematch`.

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{Path, RawQuery, State};
use axum::http::{header, request::Parts, HeaderValue};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde_json::{json, Value};

use super::common::{client_key, query_list, tokens, viewer_of, Shared};
use crate::error::{parse_body, ApiError};
use crate::services::chat::{Member, Speaker};
use crate::services::AppState;

pub(super) fn routes() -> Router<Shared> {
    Router::new()
        .route("/api/games/{id}/chat", get(chat).post(say))
        .route("/api/games/{id}/chat/consent", post(consent))
        .route("/api/games/{id}/chat/download", get(download))
        .route("/api/games/{id}/rematch", post(rematch))
}

/// `GET /api/games/ID/chat?token=…`: the chat as this viewer sees it now,
/// whether it is off, who agreed to its download and the rematch.
async fn chat(
    State(app): State<AppState>,
    Path(id): Path<String>,
    RawQuery(query): RawQuery,
    parts: Parts,
) -> Result<Json<Value>, ApiError> {
    let tokens = tokens(&query)?;
    let live = app.games.game(&id).await?;
    let viewer = viewer_of(&live, &tokens).await?;
    let reader = super::session::account_of(&parts, &app).await?.map(|a| a.id);
    let (off, messages, after) = app.chat.chat_of(&live, &viewer, reader.as_deref()).await?;
    Ok(Json(json!({ "off": off, "messages": messages, "rematch": after })))
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Say {
    text: String,
}

/// The spectator token of `?spectator=`: 32 hex digits a browser keeps and
/// sends with a spectator's messages, so that they stay the same spectator
/// of a game from another address.
///
/// # Errors
/// `bad_request` for another value, or more than one.
pub(super) fn spectator_token(query: &Option<String>) -> Result<Option<String>, ApiError> {
    match query_list(query, "spectator").as_slice() {
        [] => Ok(None),
        [t] if t.len() == 32 && t.bytes().all(|b| b.is_ascii_hexdigit()) => Ok(Some(t.to_ascii_lowercase())),
        _ => Err(ApiError::BadRequest("spectator: one token of 32 hex digits".into())),
    }
}

/// `POST /api/games/ID/chat?token=…` `{"text"}`: a message (a spectator's
/// without a token; `&spectator=` their browser's spectator token).
async fn say(
    State(app): State<AppState>,
    Path(id): Path<String>,
    RawQuery(query): RawQuery,
    parts: Parts,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<Value>, ApiError> {
    let req: Say = parse_body(body)?;
    let tokens = tokens(&query)?;
    let live = app.games.game(&id).await?;
    let viewer = viewer_of(&live, &tokens).await?;
    let browser = spectator_token(&query)?;
    // A signed-in spectator writes under their account's name: only from
    // this site's own pages (the cookie would come along from any site).
    let account = if viewer.seats.is_empty() && super::session::same_site(&parts, &app).is_ok() {
        super::session::signed_in(&parts, &app).await.ok().map(|(a, _)| Member { id: a.id, name: a.name })
    } else {
        None
    };
    let speaker = Speaker::of(&viewer, client_key(&parts.extensions, app.config()), account, browser);
    let message = app.chat.say(&live, &speaker, &req.text).await?;
    Ok(Json(json!({ "message": message })))
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Consent {
    include: bool,
}

/// `POST /api/games/ID/chat/consent?token=…` `{"include": bool}`: the seat
/// holder agrees (or no longer) to the chat's download.
async fn consent(
    State(app): State<AppState>,
    Path(id): Path<String>,
    RawQuery(query): RawQuery,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<Value>, ApiError> {
    let req: Consent = parse_body(body)?;
    let tokens = tokens(&query)?;
    let live = app.games.game(&id).await?;
    let viewer = viewer_of(&live, &tokens).await?;
    let after = app.chat.consent(&live, &viewer, req.include).await?;
    Ok(Json(json!({ "rematch": after })))
}

/// `GET /api/games/ID/chat/download`: the players' chat of a finished game
/// whose players all agreed, as a JSON file (apart from the record, whose
/// format is fixed).
async fn download(State(app): State<AppState>, Path(id): Path<String>) -> Result<Response, ApiError> {
    let live = app.games.game(&id).await?;
    let chat = app.chat.download(&live).await?;
    let disposition = format!("attachment; filename=\"carcassonne-{}-chat.json\"", live.id);
    Ok((
        [
            (header::CONTENT_TYPE, HeaderValue::from_static("application/json")),
            (
                header::CONTENT_DISPOSITION,
                HeaderValue::from_str(&disposition).unwrap_or(HeaderValue::from_static("attachment")),
            ),
        ],
        chat.to_string(),
    )
        .into_response())
}

/// `POST /api/games/ID/rematch?token=…` `{}`: the seat holder accepts the
/// rematch; the answer holds their seats' tokens in the new game (for them
/// alone) and the new game's id once every player accepted.
async fn rematch(
    State(app): State<AppState>,
    Path(id): Path<String>,
    RawQuery(query): RawQuery,
    parts: Parts,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<Value>, ApiError> {
    let _: Value = parse_body(body)?;
    let tokens = tokens(&query)?;
    let live = app.games.game(&id).await?;
    let viewer = viewer_of(&live, &tokens).await?;
    let account = super::session::account_of(&parts, &app).await?;
    let spender = super::common::spender(&app, account.as_ref(), client_key(&parts.extensions, app.config())).await;
    let accepted = app.rematches.accept(&live, &viewer, Some(spender)).await?;
    let tokens: Vec<Value> =
        accepted.tokens.iter().map(|(seat, token)| json!({ "seat": seat.0, "token": token })).collect();
    Ok(Json(json!({ "tokens": tokens, "rematch": accepted.after })))
}

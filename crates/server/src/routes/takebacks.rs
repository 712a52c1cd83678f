//! Takebacks in casual games (services/takebacks.rs): asked by a player,
//! answered by the others.

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{Path, RawQuery, State};
use axum::Json;
use serde_json::Value;

use super::clocks::tokens_with;
use super::common::{state_of, viewer_of};
use crate::error::{parse_body, ApiError};
use crate::services::AppState;

/// A takeback request or answer: only a seat token, which may also come in
/// the query.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct TakebackBody {
    #[serde(default)]
    token: Option<String>,
}

/// `POST /api/games/{id}/takeback` `{}`: the tokens' player asks to take
/// back their last move (granted at once when no other person plays). The
/// viewer's state answers.
pub(super) async fn ask(
    State(app): State<AppState>,
    Path(id): Path<String>,
    RawQuery(query): RawQuery,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<Value>, ApiError> {
    let req: TakebackBody = parse_body(body)?;
    let toks = tokens_with(&query, req.token.as_deref())?;
    let live = app.games.game(&id).await?;
    let viewer = viewer_of(&live, &toks).await?;
    app.takebacks.ask(&live, &viewer).await?;
    Ok(Json(state_of(&live, &viewer).await))
}

/// `POST /api/games/{id}/takeback/{accept,decline}` `{}`: the tokens'
/// player answers the takeback asked. The viewer's state answers.
pub(super) async fn answer(
    State(app): State<AppState>,
    Path((id, answer)): Path<(String, String)>,
    RawQuery(query): RawQuery,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<Value>, ApiError> {
    let accept = match answer.as_str() {
        "accept" => true,
        "decline" => false,
        _ => return Err(ApiError::NotFound(format!("no answer {answer}: accept or decline"))),
    };
    let req: TakebackBody = parse_body(body)?;
    let toks = tokens_with(&query, req.token.as_deref())?;
    let live = app.games.game(&id).await?;
    let viewer = viewer_of(&live, &toks).await?;
    app.takebacks.answer(&live, &viewer, accept).await?;
    Ok(Json(state_of(&live, &viewer).await))
}

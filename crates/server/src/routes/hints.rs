//! `POST /api/games/{id}/hint`: the search's best move for the seat to move
//! (`services::hints`; docs/web.md, "Hints").

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{Path, RawQuery, State};
use axum::Json;
use serde::Deserialize;

use super::common::{client_key, tokens, viewer_of, MAX_TOKENS};
use crate::error::{parse_body, ApiError};
use crate::services::hints::HintAnswer;
use crate::services::AppState;

/// A hint's request: the seat token (here or in `?token=`) and, if the
/// client names it, the version it sees.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct HintRequest {
    #[serde(default)]
    token: Option<String>,
    #[serde(default)]
    version: Option<u64>,
}

pub async fn hint(
    State(app): State<AppState>,
    Path(id): Path<String>,
    RawQuery(query): RawQuery,
    request: axum::http::request::Parts,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<HintAnswer>, ApiError> {
    let req: HintRequest = parse_body(body)?;
    let mut toks = tokens(&query)?;
    if let Some(t) = req.token {
        if !toks.contains(&t) {
            toks.push(t);
        }
    }
    if toks.len() > MAX_TOKENS {
        return Err(ApiError::TooManyTokens);
    }
    let live = app.games.game(&id).await?;
    let viewer = viewer_of(&live, &toks).await?;
    let ip = client_key(&request.extensions, app.config());
    Ok(Json(app.hints.hint(&live, &viewer, req.version, Some(ip)).await?))
}

//! Clocks: a seat whose time ran out (or whose player is away) handed to a
//! bot by the others, and taken back by its player (services/clocks.rs).

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{Path, RawQuery, State};
use axum::Json;
use serde_json::Value;

use super::common::{state_of, tokens, viewer_of, MAX_TOKENS};
use crate::error::{parse_body, ApiError};
use crate::services::clocks::{HandOver, MAX_TURN_GAMES};
use crate::services::endings::{Ending, EndingRequest};
use crate::services::AppState;

/// The tokens of `?token=` and of the body's `token`, at most [`MAX_TOKENS`].
pub(super) fn tokens_with(query: &Option<String>, body: Option<&str>) -> Result<Vec<String>, ApiError> {
    let mut toks = tokens(query)?;
    if let Some(t) = body {
        if !toks.iter().any(|k| k == t) {
            toks.push(t.to_string());
        }
    }
    if toks.len() > MAX_TOKENS {
        return Err(ApiError::TooManyTokens);
    }
    Ok(toks)
}

/// `POST /api/games/{id}/handover` `{"seat": S, "level": "normal"}`: a bot
/// of that level stands in for seat `S`. The viewer's state answers.
pub(super) async fn hand_over(
    State(app): State<AppState>,
    Path(id): Path<String>,
    RawQuery(query): RawQuery,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<Value>, ApiError> {
    let req: HandOver = parse_body(body)?;
    let toks = tokens_with(&query, req.token.as_deref())?;
    let live = app.games.game(&id).await?;
    let viewer = viewer_of(&live, &toks).await?;
    app.clocks.hand_over(&live, &viewer, &req).await?;
    Ok(Json(state_of(&live, &viewer).await))
}

/// A request to take one's seats back (the token may come in the body).
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Back {
    #[serde(default)]
    token: Option<String>,
}

/// `POST /api/games/{id}/back`: the seats the tokens hold that a bot stands
/// in for are their players' again, at once. The viewer's state answers.
pub(super) async fn take_back(
    State(app): State<AppState>,
    Path(id): Path<String>,
    RawQuery(query): RawQuery,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<Value>, ApiError> {
    let req: Back = parse_body(body)?;
    let toks = tokens_with(&query, req.token.as_deref())?;
    let live = app.games.game(&id).await?;
    let viewer = viewer_of(&live, &toks).await?;
    if viewer.seats.is_empty() {
        return Err(ApiError::Unauthorized);
    }
    app.clocks.take_back(&live, &viewer).await?;
    Ok(Json(state_of(&live, &viewer).await))
}

/// `POST /api/games/{id}/{resign,leave,abort,finish}` `{"seat": S}` (resign
/// and leave name the seat): the game ends, or the seat's part in it
/// (services/endings.rs). The viewer's state answers.
pub(super) async fn ending(
    State(app): State<AppState>,
    Path((id, action)): Path<(String, String)>,
    RawQuery(query): RawQuery,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<Value>, ApiError> {
    let req: EndingRequest = parse_body(body)?;
    let seat = || req.seat.ok_or_else(|| ApiError::BadRequest(format!("{action} names the \"seat\"")));
    let ending = match action.as_str() {
        "resign" => Ending::Resign(seat()?),
        "leave" => Ending::Leave(seat()?),
        "abort" | "finish" if req.seat.is_some() => {
            return Err(ApiError::BadRequest(format!("{action} names no seat")));
        }
        "abort" => Ending::Abort,
        "finish" => Ending::Finish,
        _ => return Err(ApiError::NotFound(format!("no action {action}"))),
    };
    let toks = tokens_with(&query, req.token.as_deref())?;
    let live = app.games.game(&id).await?;
    let viewer = viewer_of(&live, &toks).await?;
    app.clocks.end(&live, &viewer, ending).await?;
    Ok(Json(state_of(&live, &viewer).await))
}

/// `POST /api/yourturn` `{"games": {"<id>": ["<token>", ...], ...}}`: the
/// games among them where a seat those tokens hold is to move (the "your
/// turn" list every page shows). At most `MAX_TURN_GAMES` games are looked at.
pub(super) async fn your_turn(
    State(app): State<AppState>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<Value>, ApiError> {
    #[derive(serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Held {
        games: std::collections::BTreeMap<String, Vec<String>>,
    }
    let held: Held = parse_body(body)?;
    if held.games.len() > MAX_TURN_GAMES {
        return Err(ApiError::BadRequest(format!("name at most {MAX_TURN_GAMES} games")));
    }
    let held: Vec<(String, Vec<String>)> = held.games.into_iter().collect();
    let games = app.clocks.your_turn(&held).await?;
    Ok(Json(serde_json::json!({ "games": games })))
}

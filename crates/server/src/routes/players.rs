//! Profiles, the leaderboard and seats linked to accounts over HTTP
//! (docs/web.md, *Ratings and profiles*): `GET /api/players/{name}`,
//! `GET /api/leaderboard`, `GET /api/games/{id}/ratings`, `POST /api/account/seats`.

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{Path, State};
use axum::http::request::Parts;
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{json, Value};

use super::common::Shared;
use crate::error::ApiError;
use crate::services::AppState;

pub(super) fn routes() -> Router<Shared> {
    Router::new()
        .route("/api/players/{name}", get(profile))
        .route("/api/leaderboard", get(leaderboard))
        .route("/api/games/{id}/ratings", get(game_ratings))
        .route("/api/account/seats", post(link_seats))
        .layer(axum::extract::DefaultBodyLimit::max(super::common::MAX_BODY))
}

async fn profile(State(app): State<AppState>, Path(name): Path<String>) -> Result<Json<Value>, ApiError> {
    Ok(Json(app.ratings.profile(&name).await?))
}

async fn leaderboard(State(app): State<AppState>) -> Result<Json<Value>, ApiError> {
    Ok(Json(app.ratings.leaderboard().await?))
}

async fn game_ratings(State(app): State<AppState>, Path(id): Path<String>) -> Result<Json<Value>, ApiError> {
    Ok(Json(app.ratings.game_ratings(&id).await?))
}

/// One seat the browser holds.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Held {
    game: String,
    token: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LinkRequest {
    seats: Vec<Held>,
}

/// `POST /api/account/seats` `{"seats": [{"game", "token"}]}`: links the
/// seats the signed-in person's browser holds to their account (after
/// signing up or in, and on taking an invited seat): `{"linked": [{"game", "seat"}]}`.
async fn link_seats(
    State(app): State<AppState>,
    parts: Parts,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<Value>, ApiError> {
    let (req, account): (LinkRequest, _) = super::session::signed_in_request(&parts, &app, body).await?;
    let held: Vec<(String, String)> = req.seats.into_iter().map(|h| (h.game, h.token)).collect();
    let address = super::common::client_key(&parts.extensions, app.config());
    let linked = app.ratings.link_seats(&account, &held, Some(address)).await?;
    let linked: Vec<Value> = linked.into_iter().map(|(game, seat)| json!({ "game": game, "seat": seat })).collect();
    Ok(Json(json!({ "linked": linked })))
}

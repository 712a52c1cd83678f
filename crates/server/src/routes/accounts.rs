//! Accounts over HTTP: sign up, sign in and out, the password, deletion,
//! `GET /api/me` (docs/web.md, *Accounts*). The session travels in a
//! cookie (`session::COOKIE`); every request that changes something must
//! come from the server's own pages (`session::same_site`).

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{DefaultBodyLimit, State};
use axum::http::request::Parts;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::json;

use super::common::Shared;
use super::session::{cookie, cookie_token, device_token, read, same_site, signed_in, started};
use crate::error::ApiError;
use crate::services::AppState;

/// The largest body of an account request.
pub const MAX_ACCOUNT_BODY: usize = 2 * 1024;

/// The accounts' routes (registered by `app_with`).
pub(super) fn routes() -> Router<Shared> {
    Router::new()
        .route("/api/me", get(me))
        .route("/api/account/signup", post(sign_up))
        .route("/api/account/signin", post(sign_in))
        .route("/api/account/signout", post(sign_out))
        .route("/api/account/signout-everywhere", post(sign_out_everywhere))
        .route("/api/account/password", post(change_password))
        .route("/api/account/recover", post(recover))
        .route("/api/account/delete", post(delete))
        .layer(DefaultBodyLimit::max(MAX_ACCOUNT_BODY))
}

/// The body of a sign-up or sign-in.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Credentials {
    name: String,
    password: String,
}

/// The body of a change of password.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NewPassword {
    current: String,
    new: String,
}

/// The body of a recovery.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Recovery {
    name: String,
    recovery_code: String,
    password: String,
}

/// The body of a deletion: the password asked again.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Password {
    password: String,
}

/// `GET /api/me`: `{"name": …}` (the session renewed), `null` when not
/// signed in (and a cookie of a session no longer in use removed).
async fn me(State(app): State<AppState>, parts: Parts) -> Result<Response, ApiError> {
    match signed_in(&parts, &app).await {
        // An operator is told so (the page then links to #/admin); nobody else hears of it.
        Ok((account, _)) if app.moderation.is_operator(&account) => {
            Ok(Json(json!({ "name": account.name, "admin": true })).into_response())
        }
        Ok((account, _)) => Ok(Json(json!({ "name": account.name })).into_response()),
        Err(ApiError::NotSignedIn) if cookie_token(&parts.headers).is_some() => Ok(signed_out(&parts, &app)),
        Err(ApiError::NotSignedIn) => Ok(Json(json!({ "name": null })).into_response()),
        Err(e) => Err(e),
    }
}

async fn sign_up(
    State(app): State<AppState>,
    parts: Parts,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let (req, address): (Credentials, _) = read(&parts, &app, body)?;
    let (session, recovery) = app.accounts.sign_up(&req.name, &req.password, address).await?;
    Ok(started(StatusCode::CREATED, &session, Some(recovery), &parts, &app))
}

async fn sign_in(
    State(app): State<AppState>,
    parts: Parts,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let (req, address): (Credentials, _) = read(&parts, &app, body)?;
    let device = device_token(&parts.headers);
    let session = app.accounts.sign_in(&req.name, &req.password, address, device.as_deref()).await?;
    Ok(started(StatusCode::OK, &session, None, &parts, &app))
}

/// Signed out: `{"name": null}` and the cookie removed.
fn signed_out(parts: &Parts, app: &AppState) -> Response {
    ([cookie(None, parts, app)], Json(json!({ "name": null }))).into_response()
}

async fn sign_out(State(app): State<AppState>, parts: Parts) -> Result<Response, ApiError> {
    same_site(&parts, &app)?;
    if let Some(token) = cookie_token(&parts.headers) {
        app.accounts.sign_out(&token).await?;
    }
    Ok(signed_out(&parts, &app))
}

async fn sign_out_everywhere(State(app): State<AppState>, parts: Parts) -> Result<Response, ApiError> {
    same_site(&parts, &app)?;
    let (account, _) = signed_in(&parts, &app).await?;
    app.accounts.sign_out_everywhere(&account).await?;
    Ok(signed_out(&parts, &app))
}

async fn change_password(
    State(app): State<AppState>,
    parts: Parts,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let (req, address): (NewPassword, _) = read(&parts, &app, body)?;
    let (account, token) = signed_in(&parts, &app).await?;
    let device = device_token(&parts.headers);
    app.accounts.change_password(&account, &token, &req.current, &req.new, address, device.as_deref()).await?;
    Ok(Json(json!({ "name": account.name })).into_response())
}

async fn recover(
    State(app): State<AppState>,
    parts: Parts,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let (req, address): (Recovery, _) = read(&parts, &app, body)?;
    let device = device_token(&parts.headers);
    let (session, recovery) =
        app.accounts.recover(&req.name, &req.recovery_code, &req.password, address, device.as_deref()).await?;
    Ok(started(StatusCode::OK, &session, Some(recovery), &parts, &app))
}

async fn delete(
    State(app): State<AppState>,
    parts: Parts,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let (req, address): (Password, _) = read(&parts, &app, body)?;
    let (account, _) = signed_in(&parts, &app).await?;
    let device = device_token(&parts.headers);
    app.accounts.delete(&account, &req.password, address, device.as_deref()).await?;
    Ok(signed_out(&parts, &app))
}

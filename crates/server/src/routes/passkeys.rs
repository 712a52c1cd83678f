//! Passkeys over HTTP (docs/web.md, *Passkeys*): a signed-in account adds,
//! lists and removes its passkeys; anyone signs in with one. Every request
//! that changes something comes from the server's own pages (the accounts'
//! `same_site`); the sign-in answers as a password sign-in does (the
//! session cookie and `{"name": …}`).

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{DefaultBodyLimit, State};
use axum::http::request::Parts;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::json;
use webauthn_rs::prelude::{PublicKeyCredential, RegisterPublicKeyCredential};

use super::common::{client_key, Shared};
use super::session::{read, same_site, signed_in, started};
use crate::error::ApiError;
use crate::services::passkeys::{PasskeyInfo, Started};
use crate::services::AppState;

/// The largest body of a passkey request (an attestation with its
/// certificates fits well).
pub const MAX_PASSKEY_BODY: usize = 32 * 1024;

/// The passkeys' routes (merged by `app_with`).
pub(super) fn routes() -> Router<Shared> {
    Router::new()
        .route("/api/passkeys", get(list))
        .route("/api/passkeys/available", get(available))
        .route("/api/passkeys/register/start", post(register_start))
        .route("/api/passkeys/register/finish", post(register_finish))
        .route("/api/passkeys/delete", post(delete))
        .route("/api/passkeys/signin/start", post(sign_in_start))
        .route("/api/passkeys/signin/finish", post(sign_in_finish))
        .layer(DefaultBodyLimit::max(MAX_PASSKEY_BODY))
}

/// The `Origin` of the page (checked against the server's own by `same_site`).
fn origin(parts: &Parts) -> Option<&str> {
    parts.headers.get(header::ORIGIN).and_then(|o| o.to_str().ok())
}

fn listed(passkeys: Vec<PasskeyInfo>) -> Json<serde_json::Value> {
    Json(json!({ "passkeys": passkeys }))
}

fn begun(s: Started) -> Response {
    Json(json!({ "challenge": s.challenge, "options": s.options })).into_response()
}

/// The body of a registration's finish.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RegisterFinish {
    challenge: String,
    credential: RegisterPublicKeyCredential,
    #[serde(default)]
    name: Option<String>,
}

/// The body of a sign-in's finish.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SignInFinish {
    challenge: String,
    credential: PublicKeyCredential,
}

/// The body of a removal.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Remove {
    id: String,
}

/// `GET /api/passkeys/available`: `{"available": bool}`, whether passkeys
/// work for pages of the address the request came to.
async fn available(State(app): State<AppState>, parts: Parts) -> Response {
    let host = parts.headers.get(header::HOST).and_then(|h| h.to_str().ok());
    Json(json!({ "available": app.passkeys.available(host) })).into_response()
}

/// `GET /api/passkeys`: the account's passkeys.
async fn list(State(app): State<AppState>, parts: Parts) -> Result<Response, ApiError> {
    let (account, _) = signed_in(&parts, &app).await?;
    Ok(listed(app.passkeys.of(&account).await?).into_response())
}

async fn register_start(State(app): State<AppState>, parts: Parts) -> Result<Response, ApiError> {
    same_site(&parts, &app)?;
    let (account, _) = signed_in(&parts, &app).await?;
    let address = client_key(&parts.extensions, app.config());
    Ok(begun(app.passkeys.start_registration(&account, origin(&parts), address).await?))
}

async fn register_finish(
    State(app): State<AppState>,
    parts: Parts,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let (req, _): (RegisterFinish, _) = read(&parts, &app, body)?;
    let (account, _) = signed_in(&parts, &app).await?;
    let passkeys =
        app.passkeys.finish_registration(&account, &req.challenge, &req.credential, req.name.as_deref()).await?;
    Ok((StatusCode::CREATED, listed(passkeys)).into_response())
}

async fn delete(
    State(app): State<AppState>,
    parts: Parts,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let (req, _): (Remove, _) = read(&parts, &app, body)?;
    let (account, _) = signed_in(&parts, &app).await?;
    Ok(listed(app.passkeys.remove(&account, &req.id).await?).into_response())
}

async fn sign_in_start(State(app): State<AppState>, parts: Parts) -> Result<Response, ApiError> {
    same_site(&parts, &app)?;
    let address = client_key(&parts.extensions, app.config());
    let device = super::session::device_token(&parts.headers);
    Ok(begun(app.passkeys.start_sign_in(origin(&parts), address, device.as_deref()).await?))
}

async fn sign_in_finish(
    State(app): State<AppState>,
    parts: Parts,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let (req, address): (SignInFinish, _) = read(&parts, &app, body)?;
    let device = super::session::device_token(&parts.headers);
    let session = app.passkeys.finish_sign_in(&req.challenge, &req.credential, address, device.as_deref()).await?;
    Ok(started(StatusCode::OK, &session, None, &parts, &app))
}

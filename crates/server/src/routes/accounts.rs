//! Accounts over HTTP: sign up, sign in and out, the password, deletion,
//! `GET /api/me` (docs/web.md, *Accounts*). The session travels in a
//! cookie ([`COOKIE`]); every request that changes something must come
//! from the server's own pages (`ws::origin_allowed`, and `Sec-Fetch-Site`).

use std::net::IpAddr;

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{DefaultBodyLimit, State};
use axum::http::request::Parts;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::json;

use super::{client_key, parse_body, Shared};
use crate::error::ApiError;
use crate::services::accounts::Session;
use crate::services::AppState;
use crate::store::Account;

/// The session cookie's name.
pub const COOKIE: &str = "carcassonne_session";
/// How long the browser keeps the session cookie: the most browsers allow
/// (400 days). The session itself ends on the server once unused for
/// `Config::session_idle`, so the cookie is never renewed: a renewal sent
/// to a `GET` (which carries no `Origin`) could not tell whether the page is
/// https, and would drop `Secure`.
pub const COOKIE_MAX_AGE: u64 = 400 * 24 * 3600;
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

/// Refuses a request from a page of another site: its `Origin` must be the
/// server's own (as for websockets), and `Sec-Fetch-Site`, when a browser
/// sends it, `same-origin` or `none`.
pub(super) fn same_site(parts: &Parts, app: &AppState) -> Result<(), ApiError> {
    let fetch_site = parts.headers.get("sec-fetch-site").map(|v| v.to_str().unwrap_or("?"));
    let fetch_ok = fetch_site.is_none_or(|s| s.eq_ignore_ascii_case("same-origin") || s.eq_ignore_ascii_case("none"));
    if fetch_ok && super::ws::origin_allowed(&parts.headers, &app.config().allowed_origins) {
        Ok(())
    } else {
        Err(ApiError::ForbiddenOrigin)
    }
}

/// The session token the request's cookie holds, if it looks like one.
pub(super) fn cookie_token(headers: &HeaderMap) -> Option<String> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(name, _)| *name == COOKIE)
        .map(|(_, value)| value.trim().to_string())
        .filter(|t| t.len() == 32 && t.bytes().all(|b| b.is_ascii_hexdigit()))
}

/// Whether the session cookie is `Secure`: when the page is https (its
/// `Origin`, already checked to be this server's, says so; a browser cannot
/// forge it), or always with `Config::secure_cookies`.
fn secure(parts: &Parts, app: &AppState) -> bool {
    let https_page = parts
        .headers
        .get(header::ORIGIN)
        .and_then(|o| o.to_str().ok())
        .is_some_and(|o| o.len() >= 8 && o[..8].eq_ignore_ascii_case("https://"));
    app.config().secure_cookies || https_page
}

/// The `Set-Cookie` header for `token` (or one that removes the cookie).
fn cookie(token: Option<&str>, parts: &Parts, app: &AppState) -> (header::HeaderName, HeaderValue) {
    let max_age = if token.is_some() { COOKIE_MAX_AGE } else { 0 };
    let secure = if secure(parts, app) { "; Secure" } else { "" };
    let value =
        format!("{COOKIE}={}; Path=/; Max-Age={max_age}; HttpOnly; SameSite=Lax{secure}", token.unwrap_or_default());
    (header::SET_COOKIE, HeaderValue::from_str(&value).unwrap_or(HeaderValue::from_static("")))
}

/// The signed-in account of a request from the server's own pages, if any
/// (a request from another site acts for nobody).
///
/// # Errors
/// The storage fails.
pub(super) async fn account_of(parts: &Parts, app: &AppState) -> Result<Option<Account>, ApiError> {
    if same_site(parts, app).is_err() {
        return Ok(None);
    }
    match signed_in(parts, app).await {
        Ok((account, _)) => Ok(Some(account)),
        Err(ApiError::NotSignedIn) => Ok(None),
        Err(e) => Err(e),
    }
}

/// A signed-in request that changes something: from the server's own
/// pages, with a session, its body read.
///
/// # Errors
/// `forbidden_origin`, `not_signed_in`, `bad_request`.
pub(super) async fn signed_in_request<T: DeserializeOwned>(
    parts: &Parts,
    app: &AppState,
    body: Result<Bytes, BytesRejection>,
) -> Result<(T, Account), ApiError> {
    same_site(parts, app)?;
    let (account, _) = signed_in(parts, app).await?;
    Ok((parse_body(body)?, account))
}

/// The signed-in account of the request, or `not_signed_in`.
pub(super) async fn signed_in(parts: &Parts, app: &AppState) -> Result<(Account, String), ApiError> {
    let token = cookie_token(&parts.headers).ok_or(ApiError::NotSignedIn)?;
    let account = app.accounts.session(&token).await?.ok_or(ApiError::NotSignedIn)?;
    Ok((account, token))
}

pub(super) fn started(
    status: StatusCode,
    session: &Session,
    recovery: Option<String>,
    parts: &Parts,
    app: &AppState,
) -> Response {
    let mut body = json!({ "name": session.account.name });
    if let Some(code) = recovery {
        body["recovery_code"] = code.into();
    }
    (status, [cookie(Some(&session.token), parts, app)], Json(body)).into_response()
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

/// A request that changes something: refused unless it comes from the
/// server's own pages; its body read; the address its attempts count under.
pub(super) fn read<T: DeserializeOwned>(
    parts: &Parts,
    app: &AppState,
    body: Result<Bytes, BytesRejection>,
) -> Result<(T, IpAddr), ApiError> {
    same_site(parts, app)?;
    let req = parse_body(body)?;
    Ok((req, client_key(&parts.extensions, app.config())))
}

/// `GET /api/me`: `{"name": …}` (the session renewed), `null` when not
/// signed in (and a cookie of a session no longer in use removed).
async fn me(State(app): State<AppState>, parts: Parts) -> Result<Response, ApiError> {
    match signed_in(&parts, &app).await {
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
    let session = app.accounts.sign_in(&req.name, &req.password, address).await?;
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
    app.accounts.change_password(&account, &token, &req.current, &req.new, address).await?;
    Ok(Json(json!({ "name": account.name })).into_response())
}

async fn recover(
    State(app): State<AppState>,
    parts: Parts,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let (req, address): (Recovery, _) = read(&parts, &app, body)?;
    let (session, recovery) = app.accounts.recover(&req.name, &req.recovery_code, &req.password, address).await?;
    Ok(started(StatusCode::OK, &session, Some(recovery), &parts, &app))
}

async fn delete(
    State(app): State<AppState>,
    parts: Parts,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let (req, address): (Password, _) = read(&parts, &app, body)?;
    let (account, _) = signed_in(&parts, &app).await?;
    app.accounts.delete(&account, &req.password, address).await?;
    Ok(signed_out(&parts, &app))
}

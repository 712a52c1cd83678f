//! Who a request comes from, and from where: the session cookie and the
//! account it signs in, and whether a page of the server's own site sent it
//! (docs/web.md, *Accounts*). Every request that changes something must
//! come from the server's own pages ([`origin_allowed`], and `Sec-Fetch-Site`).

use std::net::IpAddr;

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::http::request::Parts;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::de::DeserializeOwned;
use serde_json::json;

use super::common::client_key;
use crate::error::{parse_body, ApiError};
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
/// The device cookie's name: a browser that signed in to an account before
/// (services/accounts.rs), sent with the API's requests only.
pub const DEVICE_COOKIE: &str = "carcassonne_device";

/// Whether a websocket may be opened from the page at `origin` (none: not
/// a browser): the server's own (the origin's host is the request's
/// `Host`), or one of `Config::allowed_origins`.
pub(super) fn origin_allowed(headers: &HeaderMap, allowed: &[String]) -> bool {
    let Some(origin) = headers.get(header::ORIGIN) else { return true };
    let Ok(origin) = origin.to_str() else { return false };
    if allowed.iter().any(|a| a.trim_end_matches('/').eq_ignore_ascii_case(origin)) {
        return true;
    }
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok());
    let origin_host = origin.split_once("://").map(|(_, rest)| rest);
    matches!((origin_host, host), (Some(o), Some(h)) if o.eq_ignore_ascii_case(h))
}

/// Refuses a request from a page of another site: its `Origin` must be the
/// server's own (as for websockets), and `Sec-Fetch-Site`, when a browser
/// sends it, `same-origin` or `none`.
pub(super) fn same_site(parts: &Parts, app: &AppState) -> Result<(), ApiError> {
    let fetch_site = parts.headers.get("sec-fetch-site").map(|v| v.to_str().unwrap_or("?"));
    let fetch_ok = fetch_site.is_none_or(|s| s.eq_ignore_ascii_case("same-origin") || s.eq_ignore_ascii_case("none"));
    if fetch_ok && origin_allowed(&parts.headers, &app.config().allowed_origins) {
        Ok(())
    } else {
        Err(ApiError::ForbiddenOrigin)
    }
}

/// The session token the request's cookie holds, if it looks like one.
pub(super) fn cookie_token(headers: &HeaderMap) -> Option<String> {
    named_token(headers, COOKIE)
}

/// The token of the device cookie, if it is one.
pub(super) fn device_token(headers: &HeaderMap) -> Option<String> {
    named_token(headers, DEVICE_COOKIE)
}

/// The value of cookie `cookie`, if it is a token (32 hex digits).
fn named_token(headers: &HeaderMap, cookie: &str) -> Option<String> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(name, _)| *name == cookie)
        .map(|(_, value)| value.trim().to_string())
        .filter(|t| t.len() == 32 && t.bytes().all(|b| b.is_ascii_hexdigit()))
}

/// Whether the session cookie is `Secure`: when the page is https (its
/// `Origin`, already checked to be this server's, says so; a browser cannot
/// forge it), or always with `Config::secure_cookies`.
pub(super) fn secure(parts: &Parts, app: &AppState) -> bool {
    let https_page = parts
        .headers
        .get(header::ORIGIN)
        .and_then(|o| o.to_str().ok())
        .is_some_and(|o| o.len() >= 8 && o[..8].eq_ignore_ascii_case("https://"));
    app.config().secure_cookies || https_page
}

/// The `Set-Cookie` header for `token` (or one that removes the cookie).
pub(super) fn cookie(token: Option<&str>, parts: &Parts, app: &AppState) -> (header::HeaderName, HeaderValue) {
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
    let mut response = (status, [cookie(Some(&session.token), parts, app)], Json(body)).into_response();
    if let Some(device) = &session.device {
        // The device cookie: kept as long as browsers allow, sent only with
        // the API's requests, never from another site.
        let secure = if secure(parts, app) { "; Secure" } else { "" };
        let value =
            format!("{DEVICE_COOKIE}={device}; Path=/api; Max-Age={COOKIE_MAX_AGE}; HttpOnly; SameSite=Strict{secure}");
        if let Ok(value) = HeaderValue::from_str(&value) {
            response.headers_mut().append(header::SET_COOKIE, value);
        }
    }
    response
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

//! Web Push over HTTP (docs/web.md, *Notifications*): the server's public
//! key, and browsers subscribing and unsubscribing for a seat (by its
//! token) or for the signed-in account. The work is the service's
//! (`services::push`).

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{DefaultBodyLimit, State};
use axum::http::request::Parts;
use axum::http::{header, HeaderValue};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::json;

use super::common::{client_key, Shared};
use crate::error::parse_body;
use crate::error::ApiError;
use crate::i18n::Lang;
use crate::services::push::{BrowserSubscription, PushFor, Subscriber};
use crate::services::AppState;
use crate::store::Account;

/// The largest body of a push request (a subscription is under 1 KiB; its
/// endpoint at most `services::push::MAX_ENDPOINT`).
pub const MAX_PUSH_BODY: usize = 4 * 1024;

/// Web Push's routes (registered by `app_with`).
pub(super) fn routes() -> Router<Shared> {
    Router::new()
        .route("/api/push/key", get(key))
        .route("/api/push/subscribe", post(subscribe))
        .route("/api/push/unsubscribe", post(unsubscribe))
        .layer(DefaultBodyLimit::max(MAX_PUSH_BODY))
}

/// `GET /api/push/key`: `{"key": <the VAPID public key, base64url>}`.
async fn key(State(app): State<AppState>) -> Result<Response, ApiError> {
    let vapid = app.push.vapid().await?;
    let mut resp = Json(json!({ "key": vapid.public_key() })).into_response();
    resp.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    Ok(resp)
}

/// The body of a subscription.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Subscribe {
    subscription: BrowserSubscription,
    #[serde(default)]
    game: Option<String>,
    #[serde(default)]
    tokens: Option<String>,
    #[serde(default)]
    account: bool,
    /// The language of the notifications (`en`, `de`, `fr`); without it,
    /// the request's `Accept-Language`.
    #[serde(default)]
    lang: Option<String>,
}

/// The body of an unsubscription.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Unsubscribe {
    endpoint: String,
    #[serde(default)]
    game: Option<String>,
    #[serde(default)]
    tokens: Option<String>,
    #[serde(default)]
    account: bool,
}

/// The account a request names (`"account": true`): it must come from the
/// server's own pages and carry a session.
async fn account_of(what: &PushFor, parts: &Parts, app: &AppState) -> Result<Option<Account>, ApiError> {
    if !what.account {
        return Ok(None);
    }
    super::session::same_site(parts, app)?;
    Ok(Some(super::session::signed_in(parts, app).await?.0))
}

/// `POST /api/push/subscribe`: `{"subscription": {endpoint, keys: {p256dh,
/// auth}}, "game": ID, "tokens": "T1,T2"}` or `{…, "account": true}`, and
/// `"lang"` → `{"targets": [...]}`, in the share of the signed-in account
/// or else of the client's address.
async fn subscribe(
    State(app): State<AppState>,
    parts: Parts,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let req: Subscribe = parse_body(body)?;
    let lang = match req.lang.as_deref() {
        Some(code) => Lang::from_code(code)
            .filter(|l| l.code() == code)
            .ok_or_else(|| ApiError::BadRequest(format!("no language {code:?} here: en, de or fr")))?,
        None => Lang::from_accept_language(
            parts.headers.get(header::ACCEPT_LANGUAGE).and_then(|v| v.to_str().ok()).unwrap_or(""),
        ),
    };
    let what = PushFor { game: req.game, tokens: req.tokens, account: req.account };
    let account = account_of(&what, &parts, &app).await?;
    // The subscriptions of a signed-in account with a history count in its
    // own share, whoever else is at its address; anyone else's (new
    // accounts' too: puppets made for it are one address's worth) in the
    // address's.
    let signed_in = match account.clone() {
        Some(a) => Some(a),
        None => super::session::account_of(&parts, &app).await?,
    };
    let by = match signed_in {
        Some(a) if app.histories.of(&a.id, a.created_at).await => Subscriber::Account(a.id),
        _ => Subscriber::Address(client_key(&parts.extensions, app.config())),
    };
    let targets = app.push.subscribe(&req.subscription, &what, account.as_ref(), &by, lang).await?;
    Ok(Json(json!({ "targets": targets })).into_response())
}

/// `POST /api/push/unsubscribe`: `{"endpoint": URL}` (every target of that
/// browser), with `"game"` and `"tokens"`, or `"account": true`, for those
/// only → `{"removed": N}`.
async fn unsubscribe(
    State(app): State<AppState>,
    parts: Parts,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let req: Unsubscribe = parse_body(body)?;
    let what = PushFor { game: req.game, tokens: req.tokens, account: req.account };
    let account = account_of(&what, &parts, &app).await?;
    let removed = app.push.unsubscribe(&req.endpoint, &what, account.as_ref()).await?;
    Ok(Json(json!({ "removed": removed })).into_response())
}

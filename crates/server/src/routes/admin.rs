//! The operator's admin page over HTTP (docs/web.md, *Blocking and
//! reporting*): handlers only, the work is `services::moderation`'s, the
//! same methods `carcassonne admin` calls.
//!
//! - `GET /api/admin/reports[?all=1]`: `{"reports": [...], "all", "max"}`,
//!   the open reports (all with `all`), newest first;
//! - `POST /api/admin/mute` `{"name", "hours"}`: `{"name", "hours", "muted_until"}`;
//! - `POST /api/admin/rename` `{"name", "new"}`: `{"name", "was"}`;
//! - `POST /api/admin/close` `{"name"}`: `{"name", "closed"}`;
//! - `POST /api/admin/resolve` `{"report"}`: `{"resolved"}`.
//!
//! Only for a signed-in operator (`serve --admin NAME`): to anyone else,
//! signed in or not, these paths answer as an unknown one does (404
//! `not_found`), so that the page is not advertised. An operator's request
//! from another site's page is `forbidden_origin`. Each action is logged
//! with the operator's name.

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{DefaultBodyLimit, RawQuery, State};
use axum::http::request::Parts;
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{json, Value};

use super::common::Shared;
use super::session::{same_site, signed_in};
use crate::error::{parse_body, ApiError};
use crate::services::moderation::MAX_LISTED;
use crate::services::AppState;
use crate::store::{Account, Report};

pub(super) fn routes() -> Router<Shared> {
    Router::new()
        .route("/api/admin/reports", get(reports))
        .route("/api/admin/mute", post(mute))
        .route("/api/admin/rename", post(rename))
        .route("/api/admin/close", post(close))
        .route("/api/admin/resolve", post(resolve))
        .layer(DefaultBodyLimit::max(super::common::MAX_BODY))
}

/// The signed-in operator who sent the request. Anyone else is answered as
/// for a path the server does not have; an operator's request from another
/// site is refused.
///
/// # Errors
/// `not_found`, `forbidden_origin`, `storage_error`.
async fn operator(parts: &Parts, app: &AppState) -> Result<Account, ApiError> {
    let hidden = || ApiError::NotFound(parts.uri.path().to_string());
    let account = match signed_in(parts, app).await {
        Ok((account, _)) if app.moderation.is_operator(&account) => account,
        Ok(_) | Err(ApiError::NotSignedIn) => return Err(hidden()),
        Err(e) => return Err(e),
    };
    same_site(parts, app)?;
    Ok(account)
}

/// A report as the page shows it (no account's id).
fn report_json(r: &Report) -> Value {
    json!({
        "id": r.id,
        "what": if r.game.is_some() { "chat" } else { "name" },
        "name": r.target_name,
        // The account's name now: none for a guest's line or a deleted account.
        "name_now": r.target_now,
        "member": r.target.is_some(),
        "game": r.game,
        "seq": r.seq,
        "text": r.text,
        "reason": r.reason,
        "note": r.note,
        // None: a guest's seat, or an account since deleted.
        "reporter": r.reporter_name,
        "at": r.at,
        "resolved_at": r.resolved_at,
        "against": r.against,
        // The account's sanctions now (a mute may have ended since).
        "muted_until": r.sanctions.muted_until,
        "closed_at": r.sanctions.closed_at,
    })
}

/// Whether the query asks for all the reports (`all`, `all=1`, `all=true`).
fn all_asked(query: Option<&str>) -> Result<bool, ApiError> {
    match query.unwrap_or("") {
        "" | "all=0" | "all=false" => Ok(false),
        "all" | "all=1" | "all=true" => Ok(true),
        _ => Err(ApiError::BadRequest("the query is `all=1` or nothing".into())),
    }
}

async fn reports(
    State(app): State<AppState>,
    RawQuery(query): RawQuery,
    parts: Parts,
) -> Result<Json<Value>, ApiError> {
    operator(&parts, &app).await?;
    let all = all_asked(query.as_deref())?;
    let reports = app.moderation.reports(!all).await?;
    let list: Vec<Value> = reports.iter().map(report_json).collect();
    Ok(Json(json!({ "reports": list, "all": all, "max": MAX_LISTED })))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Mute {
    name: String,
    hours: u64,
}

async fn mute(
    State(app): State<AppState>,
    parts: Parts,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<Value>, ApiError> {
    let op = operator(&parts, &app).await?;
    let req: Mute = parse_body(body)?;
    let (account, until) = app.moderation.mute(&req.name, req.hours).await?;
    tracing::info!(operator = %op.name, account = %account.name, hours = req.hours, "admin: mute");
    let until = (req.hours > 0).then_some(until);
    Ok(Json(json!({ "name": account.name, "hours": req.hours, "muted_until": until })))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Rename {
    name: String,
    new: String,
}

async fn rename(
    State(app): State<AppState>,
    parts: Parts,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<Value>, ApiError> {
    let op = operator(&parts, &app).await?;
    let req: Rename = parse_body(body)?;
    let new = app.moderation.rename(&req.name, &req.new).await?;
    tracing::info!(operator = %op.name, account = %req.name, new = %new, "admin: rename");
    Ok(Json(json!({ "name": new, "was": req.name })))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Named {
    name: String,
}

async fn close(
    State(app): State<AppState>,
    parts: Parts,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<Value>, ApiError> {
    let op = operator(&parts, &app).await?;
    let req: Named = parse_body(body)?;
    let closed = app.moderation.close(&req.name).await?;
    tracing::info!(operator = %op.name, account = %req.name, was_open = closed, "admin: close");
    Ok(Json(json!({ "name": req.name, "closed": closed })))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Resolve {
    report: i64,
}

async fn resolve(
    State(app): State<AppState>,
    parts: Parts,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<Value>, ApiError> {
    let op = operator(&parts, &app).await?;
    let req: Resolve = parse_body(body)?;
    app.moderation.resolve(req.report).await?;
    tracing::info!(operator = %op.name, report = req.report, "admin: resolve");
    Ok(Json(json!({ "resolved": req.report })))
}

#[cfg(test)]
mod tests {
    use super::all_asked;

    #[test]
    fn the_query_asks_for_all_or_nothing_else() {
        assert!(!all_asked(None).unwrap());
        assert!(!all_asked(Some("all=0")).unwrap());
        assert!(all_asked(Some("all=1")).unwrap());
        assert!(all_asked(Some("all")).unwrap());
        assert_eq!(all_asked(Some("all=2")).unwrap_err().code(), "bad_request");
        assert_eq!(all_asked(Some("open=1")).unwrap_err().code(), "bad_request");
    }
}

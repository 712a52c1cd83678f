//! Blocking and reporting over HTTP (docs/web.md, *Blocking and
//! reporting*): handlers only, the work is in `services::moderation`.
//!
//! - `GET /api/account/blocks`: `{"blocks": [{"name", "at"}]}`, the latest first;
//! - `POST /api/account/blocks` `{"name"}` or `{"game", "seq"}` (a chat
//!   line's author): `{"blocked": name}`;
//! - `POST /api/account/unblock` `{"name"}`: `{"unblocked": name}`;
//! - `POST /api/reports?token=…` `{"name"}` or `{"game", "seq"}`, with
//!   `"reason"` and `"note"`: `{"report": id}`. Signed in; or, for a line of a
//!   game's chat, a guest holding a seat of that game (its token).

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{RawQuery, State};
use axum::http::request::Parts;
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{json, Value};

use super::common::{client_key, tokens, viewer_of, Shared};
use super::session::{account_of, same_site, signed_in, signed_in_request};
use crate::error::{parse_body, ApiError};
use crate::services::moderation::{Reporter, Target};
use crate::services::AppState;

pub(super) fn routes() -> Router<Shared> {
    Router::new()
        .route("/api/account/blocks", get(blocks).post(block))
        .route("/api/account/unblock", post(unblock))
        .route("/api/reports", post(report))
        .layer(axum::extract::DefaultBodyLimit::max(super::common::MAX_BODY))
}

/// What a block or a report names: an account by its name, or a chat line.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Named {
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    game: Option<String>,
    #[serde(default)]
    seq: Option<u64>,
}

impl Named {
    fn target(self) -> Result<Target, ApiError> {
        match (self.name, self.game, self.seq) {
            (Some(name), None, None) => Ok(Target::Name(name)),
            (None, Some(game), Some(seq)) => Ok(Target::Line { game, seq }),
            _ => Err(ApiError::BadRequest("name an account (\"name\") or a chat line (\"game\" and \"seq\")".into())),
        }
    }
}

async fn blocks(State(app): State<AppState>, parts: Parts) -> Result<Json<Value>, ApiError> {
    same_site(&parts, &app)?;
    let (account, _) = signed_in(&parts, &app).await?;
    let rows = app.moderation.blocks(&account).await?;
    let list: Vec<Value> = rows.iter().map(|b| json!({ "name": b.name, "at": b.at })).collect();
    Ok(Json(json!({ "blocks": list, "max": crate::services::moderation::MAX_BLOCKS })))
}

async fn block(
    State(app): State<AppState>,
    parts: Parts,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<Value>, ApiError> {
    let (req, account): (Named, _) = signed_in_request(&parts, &app, body).await?;
    let name = match req.target()? {
        Target::Name(name) => app.moderation.block(&account, &name).await?,
        Target::Line { game, seq } => app.moderation.block_author(&account, &game, seq).await?,
    };
    Ok(Json(json!({ "blocked": name })))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Unblock {
    name: String,
}

async fn unblock(
    State(app): State<AppState>,
    parts: Parts,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<Value>, ApiError> {
    let (req, account): (Unblock, _) = signed_in_request(&parts, &app, body).await?;
    let name = app.moderation.unblock(&account, &req.name).await?;
    Ok(Json(json!({ "unblocked": name })))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ReportRequest {
    #[serde(flatten)]
    what: Named,
    reason: String,
    #[serde(default)]
    note: String,
}

/// Flattened fields and `deny_unknown_fields` do not go together in serde:
/// the body is read as a map and its keys checked here.
fn report_request(body: Result<Bytes, BytesRejection>) -> Result<ReportRequest, ApiError> {
    let map: serde_json::Map<String, Value> = parse_body(body)?;
    if let Some(k) = map.keys().find(|k| !["name", "game", "seq", "reason", "note"].contains(&k.as_str())) {
        return Err(ApiError::BadRequest(format!("malformed request: unknown field `{k}`")));
    }
    serde_json::from_value(Value::Object(map)).map_err(|e| ApiError::BadRequest(format!("malformed request: {e}")))
}

async fn report(
    State(app): State<AppState>,
    RawQuery(query): RawQuery,
    parts: Parts,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<Value>, ApiError> {
    same_site(&parts, &app)?;
    let req = report_request(body)?;
    let target = req.what.target()?;
    let reporter = match account_of(&parts, &app).await? {
        Some(account) => Reporter::Account(account),
        None => {
            // A guest: the seat they hold in the game whose line they report.
            let Target::Line { game, .. } = &target else { return Err(ApiError::NotSignedIn) };
            let tokens = tokens(&query)?;
            if tokens.is_empty() {
                return Err(ApiError::NotSignedIn);
            }
            let live = app.games.game(game).await?;
            let viewer = viewer_of(&live, &tokens).await?;
            let seat = viewer.seats.first().ok_or(ApiError::NotSignedIn)?;
            Reporter::Seat { game: live.id.clone(), seat: seat.0 }
        }
    };
    let address = client_key(&parts.extensions, app.config());
    let id = app.moderation.report(&reporter, &target, &req.reason, &req.note, address).await?;
    Ok(Json(json!({ "report": id })))
}

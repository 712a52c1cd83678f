//! Rule sets by code (the rules page) and the named rule sets a visitor
//! keeps (docs/web.md, "Rule sets").
//!
//! A visitor is known by a key of their own, handed out with their first
//! saved rule set and kept by their browser; the server keeps only its hash.
//! A visitor keeps at most [`MAX_SAVED_RULES`] rule sets, each named in at
//! most [`crate::names::MAX_NAME`] characters; since anyone may make a new
//! key, one address saves at most [`SAVES_PER_HOUR`] rule sets an hour
//! (after a first burst of as many), and keeps at most
//! [`MAX_SAVED_RULES_PER_ADDRESS`], whatever the keys.

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{Path, RawQuery, State};
use axum::http::{HeaderMap, StatusCode};
use axum::Json;
use carcassonne::Rules;
use serde_json::{json, Value};

use crate::error::ApiError;
use crate::i18n::{rules_summary, Lang};
use crate::services::ids::{new_token, now_ms};
use crate::services::AppState;
use crate::store::{hash_token, SavedRules};

/// The most rule sets one visitor keeps.
pub const MAX_SAVED_RULES: usize = 50;

/// The most rule sets kept from one client address, whatever the keys
/// (an IPv6 address by its prefix).
pub const MAX_SAVED_RULES_PER_ADDRESS: usize = 200;

/// Rule sets one client address may save in an hour (and at once).
pub const SAVES_PER_HOUR: u32 = 120;

/// Saves by client address, across every key.
static SAVES: std::sync::LazyLock<crate::limits::Keyed<std::net::IpAddr>> = std::sync::LazyLock::new(|| {
    let per_hour = std::num::NonZeroU32::new(SAVES_PER_HOUR).unwrap_or(std::num::NonZeroU32::MIN);
    crate::limits::Keyed::new(governor::Quota::per_hour(per_hour))
});

/// Reads a rule-set code, or says plainly why it cannot.
///
/// # Errors
/// [`ApiError::RulesCode`]: not a code, or one from a later version.
pub fn read_code(code: &str) -> Result<Rules, ApiError> {
    if code.len() > 64 {
        return Err(ApiError::RulesCode(carcassonne::RulesError::BadCode("too long".into())));
    }
    Rules::from_code(code).map_err(ApiError::RulesCode)
}

/// `GET /api/rules/{code}`: the rules page's content. The code may also be
/// the rules in words, as the command line writes them (`big-box`,
/// `standard,inns_cathedrals=true`): the page then carries their code.
pub async fn rules_page(Path(code): Path<String>, headers: HeaderMap) -> Result<Json<Value>, ApiError> {
    let rules = read_code(&code).or_else(|e| {
        if code.len() > 512 {
            return Err(e);
        }
        Rules::parse(&code).map_err(|_| e)
    })?;
    let mut page = crate::view::rules_json(&rules);
    // (i18n) the summary in the reader's language (Accept-Language).
    let lang = headers
        .get(axum::http::header::ACCEPT_LANGUAGE)
        .and_then(|v| v.to_str().ok())
        .map_or(Lang::En, Lang::from_accept_language);
    if lang != Lang::En {
        let summary: Vec<Value> = rules_summary(lang, &rules)
            .into_iter()
            .map(|(title, lines)| json!({ "title": title, "lines": lines }))
            .collect();
        page["summary"] = summary.into();
        page["lang"] = lang.code().into();
    }
    Ok(Json(page))
}

/// `POST /api/rules` with a record's `rules` object: the same page, for a
/// rule set being built (its code to share).
pub async fn rules_of(body: Result<Bytes, BytesRejection>) -> Result<Json<Value>, ApiError> {
    let obj: serde_json::Map<String, Value> = crate::error::parse_body(body)?;
    let rules = carcassonne::record::rules_from_json(&obj).map_err(|e| ApiError::BadRequest(e.to_string()))?;
    Ok(Json(crate::view::rules_json(&rules)))
}

fn saved_json(s: &SavedRules) -> Value {
    json!({ "id": s.id, "name": s.name, "code": s.code, "created_at": s.created_at })
}

/// A visitor key as it may come: 32 hex digits.
fn owner_hash(key: &str) -> Result<String, ApiError> {
    if key.len() == 32 && key.bytes().all(|b| b.is_ascii_hexdigit()) {
        Ok(hash_token(key))
    } else {
        Err(ApiError::BadRequest("that is not a visitor key".into()))
    }
}

fn rule_set_name(raw: &str) -> Result<String, ApiError> {
    crate::names::clean_name(raw).ok_or_else(|| {
        ApiError::BadRequest(format!("a rule set needs a name of 1 to {} characters", crate::names::MAX_NAME))
    })
}

/// `GET /api/rulesets?key=K`: the rule sets the visitor keeps.
pub async fn list(State(app): State<AppState>, RawQuery(query): RawQuery) -> Result<Json<Value>, ApiError> {
    let key = super::common::query_list(&query, "key").into_iter().next();
    let Some(key) = key else { return Ok(Json(json!({ "sets": [] }))) };
    let owner = owner_hash(&key)?;
    let sets = app.store().rule_sets.of(&owner).await?;
    Ok(Json(json!({ "sets": sets.iter().map(saved_json).collect::<Vec<_>>(), "max": MAX_SAVED_RULES })))
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct SaveRequest {
    name: String,
    code: String,
    /// The visitor's key; none for their first rule set (one is made).
    key: Option<String>,
}

/// `POST /api/rulesets {name, code, key?}`: keeps a named rule set; answers
/// with it and the visitor's key.
pub async fn save(
    State(app): State<AppState>,
    request: axum::http::request::Parts,
    body: Result<Bytes, BytesRejection>,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    let req: SaveRequest = crate::error::parse_body(body)?;
    let rules = read_code(&req.code)?;
    let name = rule_set_name(&req.name)?;
    let key = match req.key {
        Some(k) => k,
        None => new_token()?,
    };
    let owner = owner_hash(&key)?;
    // Only a request that could be kept spends one of the address's saves.
    let ip = super::common::client_key(&request.extensions, app.config());
    if SAVES.check(&ip).is_err() {
        return Err(ApiError::Quota(format!("{SAVES_PER_HOUR} saved rule sets an hour from one address")));
    }
    let set = SavedRules { id: new_token()?, name, code: rules.to_code(), created_at: now_ms() };
    let kept = set.clone();
    let address = hash_token(&ip.to_string());
    let sets = &app.store().rule_sets;
    if !sets.save(&owner, &address, &kept, MAX_SAVED_RULES, MAX_SAVED_RULES_PER_ADDRESS).await? {
        if sets.of(&owner).await?.len() >= MAX_SAVED_RULES {
            return Err(ApiError::Quota(format!("{MAX_SAVED_RULES} saved rule sets per visitor: delete one first")));
        }
        return Err(ApiError::Quota(format!(
            "{MAX_SAVED_RULES_PER_ADDRESS} saved rule sets kept from one address: delete some first"
        )));
    }
    Ok((StatusCode::CREATED, Json(json!({ "key": key, "set": saved_json(&set) }))))
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct ChangeRequest {
    key: String,
    /// A new name (to rename it).
    name: Option<String>,
    #[serde(default)]
    delete: bool,
}

/// `POST /api/rulesets/{id} {key, name}` renames; `{key, "delete": true}` deletes.
pub async fn change(
    State(app): State<AppState>,
    Path(id): Path<String>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<Value>, ApiError> {
    let req: ChangeRequest = crate::error::parse_body(body)?;
    let owner = owner_hash(&req.key)?;
    let found = match (req.delete, req.name) {
        (true, None) => app.store().rule_sets.delete(&owner, &id).await?,
        (false, Some(name)) => {
            let name = rule_set_name(&name)?;
            app.store().rule_sets.rename(&owner, &id, &name).await?
        }
        _ => return Err(ApiError::BadRequest("send either a new name or \"delete\": true".into())),
    };
    if !found {
        return Err(ApiError::NotFound("that saved rule set".into()));
    }
    Ok(Json(json!({ "ok": true })))
}

//! Refusals in the reader's language: an error response (`{"error": code,
//! "message": …}`) to a request whose `Accept-Language` asks for German or
//! French says its `message` in that language (web/i18n/LANG.ftl,
//! `error-CODE`, formatted by [`crate::i18n`]), and keeps the server's
//! English sentence, which may name a detail (a rule, a field), as
//! `detail`. English requests, and codes without a message, are left as
//! they are.

use axum::body::Body;
use axum::extract::Request;
use axum::http::{header, HeaderValue};
use axum::middleware::Next;
use axum::response::Response;
use serde_json::Value;

use crate::i18n::{error_text, Lang};

/// The largest error body rewritten (they are a few hundred bytes).
const MAX_ERROR_BODY: usize = 16 * 1024;

pub(super) async fn localize_errors(req: Request, next: Next) -> Response {
    let lang = req
        .headers()
        .get(header::ACCEPT_LANGUAGE)
        .and_then(|v| v.to_str().ok())
        .map_or(Lang::En, Lang::from_accept_language);
    let resp = next.run(req).await;
    let is_json = resp
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    if lang == Lang::En || !(resp.status().is_client_error() || resp.status().is_server_error()) || !is_json {
        return resp;
    }
    let (mut parts, body) = resp.into_parts();
    let Ok(bytes) = axum::body::to_bytes(body, MAX_ERROR_BODY).await else {
        // Too large to be one of ours: nothing to say instead.
        parts.headers.remove(header::CONTENT_LENGTH);
        return Response::from_parts(parts, Body::empty());
    };
    let localized = serde_json::from_slice::<Value>(&bytes).ok().and_then(|mut v| {
        let code = v.get("error")?.as_str()?.to_string();
        let words = error_text(lang, &code, v.get("version").and_then(Value::as_u64))?;
        let english = v.get("message").cloned().unwrap_or(Value::Null);
        v["detail"] = english;
        v["message"] = Value::String(words);
        serde_json::to_vec(&v).ok()
    });
    let out = localized.unwrap_or_else(|| bytes.to_vec());
    parts.headers.insert(header::CONTENT_LENGTH, HeaderValue::from(out.len()));
    parts.headers.append(header::VARY, HeaderValue::from_static("accept-language"));
    Response::from_parts(parts, Body::from(out))
}

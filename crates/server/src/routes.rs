//! The HTTP API, the websocket and the embedded UI (docs/web.md).

use std::sync::Arc;

use axum::extract::{DefaultBodyLimit, Request, State};
use axum::http::{header, HeaderMap, HeaderValue};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;

use crate::error::ApiError;
use crate::listen::{addr_key, client_ip, Connections};
use crate::services::AppState;
use crate::view;

mod accounts;
mod admin;
mod chat;
mod clocks;
mod common;
mod games;
mod hints;
// (i18n) error messages in the reader's language
mod lobby;
mod localize;
mod moderation;
mod passkeys;
mod players;
mod push;
mod rulesets;
mod session;
mod takebacks;
mod ws;

pub use accounts::MAX_ACCOUNT_BODY;
pub use common::{MAX_BODY, MAX_RECORD, MAX_TOKENS, MAX_WS_MESSAGE};
pub use passkeys::MAX_PASSKEY_BODY;
pub use rulesets::{MAX_SAVED_RULES, SAVES_PER_HOUR};
pub use session::{COOKIE, COOKIE_MAX_AGE, DEVICE_COOKIE};

use common::{KeyedLimiter, Shared};

/// Refuses `/api/` requests over the client address's rate with `rate_limited`.
async fn rate_limit(limiter: Arc<KeyedLimiter>, prefix: u8, req: Request, next: Next) -> Response {
    let ip = addr_key(client_ip(req.extensions()), prefix);
    if req.uri().path().starts_with("/api/") && limiter.check(&ip).is_err() {
        return ApiError::RateLimited.into_response();
    }
    next.run(req).await
}

/// Whether a `content-type` header says JSON (`application/json`, any parameters).
fn is_json(headers: &HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|t| t.trim().eq_ignore_ascii_case("application/json"))
}

/// Refuses API POSTs whose body is not declared JSON: a page on another
/// site can send a form or plain text anywhere without asking, but JSON only
/// after a CORS preflight that this server never grants.
async fn json_posts_only(req: Request, next: Next) -> Response {
    if req.method() == axum::http::Method::POST && req.uri().path().starts_with("/api/") && !is_json(req.headers()) {
        return ApiError::UnsupportedMediaType.into_response();
    }
    next.run(req).await
}

/// The whole application: API, websocket and UI (with connection counts of
/// its own: tests call it directly).
pub fn app(state: AppState) -> Router {
    let conns = Arc::new(Connections::new(state.config()));
    app_with(state, conns)
}

/// [`app`], counting websockets among the listener's connections `conns`.
pub fn app_with(state: AppState, conns: Arc<Connections>) -> Router {
    let http_rate = state.config().http_rate;
    let prefix = state.config().ipv6_prefix;
    let body_timeout = state.config().body_timeout;
    let api = Router::new()
        .route("/api/health", get(games::health))
        .route(
            "/api/tiles",
            get(|headers: HeaderMap| async move { games::revalidated_json(&games::TILES_JSON, &headers) }),
        )
        .route(
            "/api/options",
            get(|State(app): State<AppState>, headers: HeaderMap| async move {
                // (The server's programs are among the bot levels: built per request.)
                games::revalidated_json(
                    &games::FixedJson::new(view::options_json(&app.config().external_bots)),
                    &headers,
                )
            }),
        )
        .route("/api/games", get(games::list_games).post(games::create_game))
        .route("/api/watch", get(games::watch_games))
        .route("/api/games/{id}", get(games::game_state))
        .route("/api/games/{id}/moves", post(games::post_move))
        .route("/api/games/{id}/record", get(games::download_record))
        .route("/api/games/{id}/replay", get(games::game_replay))
        .route("/api/games/{id}/review", get(games::game_review))
        .route("/api/games/{id}/ws", get(ws::websocket))
        .route("/api/games/{id}/hint", post(hints::hint))
        // Clocks: a seat handed to a bot, taken back.
        .route("/api/games/{id}/handover", post(clocks::hand_over))
        .route("/api/games/{id}/back", post(clocks::take_back))
        // Takebacks in casual games (services/takebacks.rs).
        .route("/api/games/{id}/takeback", post(takebacks::ask))
        .route("/api/games/{id}/takeback/{answer}", post(takebacks::answer))
        // A game's end: resign, leave, abort, finish (services/endings.rs).
        .route("/api/games/{id}/{action}", post(clocks::ending))
        .route("/api/yourturn", post(clocks::your_turn))
        .route("/api/qr", crate::qr::route(http_rate.is_some(), prefix))
        .route("/api/rules", post(rulesets::rules_of))
        .route("/api/rules/{code}", get(rulesets::rules_page))
        .route("/api/rulesets", get(rulesets::list).post(rulesets::save))
        .route("/api/rulesets/{id}", post(rulesets::change))
        .layer(DefaultBodyLimit::max(MAX_BODY));
    let replay =
        Router::new().route("/api/replay", post(games::replay_record)).layer(DefaultBodyLimit::max(MAX_RECORD));
    let router = api
        .merge(replay)
        .merge(accounts::routes())
        .merge(players::routes())
        .merge(passkeys::routes())
        .merge(chat::routes().layer(DefaultBodyLimit::max(MAX_BODY)))
        .merge(push::routes())
        .merge(lobby::routes())
        .merge(moderation::routes())
        .merge(admin::routes())
        .fallback(crate::assets::static_file)
        .with_state(Shared { app: state, conns })
        // (i18n) refusals in the reader's language (Accept-Language)
        .layer(middleware::from_fn(localize::localize_errors))
        .layer(middleware::from_fn(json_posts_only))
        .layer(tower_http::timeout::RequestBodyTimeoutLayer::new(body_timeout))
        // Text, JSON and SVG go compressed to clients that take it (brotli or gzip).
        .layer(tower_http::compression::CompressionLayer::new().br(true).gzip(true));
    let router = crate::assets::limited(router, http_rate, prefix);
    let router = match http_rate {
        Some(rate) => {
            let limiter = Arc::new(KeyedLimiter::new(rate.quota()));
            router.layer(middleware::from_fn(move |req, next| rate_limit(Arc::clone(&limiter), prefix, req, next)))
        }
        None => router,
    };
    // Every response, JSON errors and the rate limit's refusals included, is
    // read as what it says it is (the outermost layer).
    router.layer(tower_http::set_header::SetResponseHeaderLayer::if_not_present(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    ))
}

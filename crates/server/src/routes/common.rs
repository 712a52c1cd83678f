//! What the handlers share: the state they are given, the sizes they
//! take, who a request comes from (its address's key), and the seats its
//! tokens hold.

use std::net::IpAddr;
use std::sync::Arc;

use axum::extract::FromRef;
use serde_json::Value;

use crate::config::Config;
use crate::error::ApiError;
use crate::listen::{addr_key, client_ip, Connections};
use crate::services::games::{Live, Viewer};
use crate::services::quotas::Spender;
use crate::services::AppState;
use crate::store::Account;
use crate::view;

/// The largest request body for moves and new games.
pub const MAX_BODY: usize = 16 * 1024;
/// The largest record the replay viewer accepts.
pub const MAX_RECORD: usize = 256 * 1024;
/// The largest websocket message.
pub const MAX_WS_MESSAGE: usize = 16 * 1024;
/// A websocket's read buffer: clients send small messages (a move is a
/// few hundred bytes). The library's default, 128 KiB, is zeroed before
/// every read and held by every socket.
pub(crate) const WS_READ_BUFFER: usize = 4 * 1024;

pub(crate) type KeyedLimiter = crate::limits::Keyed<IpAddr>;
pub(crate) type DirectLimiter = governor::DefaultDirectRateLimiter;

/// The address a client's limits are counted under (an IPv6 address by its
/// prefix, `Config::ipv6_prefix`).
pub(crate) fn client_key(extensions: &axum::http::Extensions, config: &Config) -> IpAddr {
    addr_key(client_ip(extensions), config.ipv6_prefix)
}

/// Whose new games a request spends (`--max-games-per-hour-per-ip`, the
/// unfinished games at once): a signed-in account with a history its own,
/// so that a crowd on its address does not count against it (as in the
/// lobby); anyone else their address's (`client`, its key).
pub(crate) async fn spender(app: &AppState, account: Option<&Account>, client: IpAddr) -> Spender {
    let history = match account {
        Some(a) => app.histories.of(&a.id, a.created_at).await,
        None => false,
    };
    spender_of(account, history, client)
}

/// [`spender`] where whether the account has a history is known already.
pub(crate) fn spender_of(account: Option<&Account>, history: bool, client: IpAddr) -> Spender {
    match account {
        Some(a) if history => Spender::Account(a.id.clone()),
        _ => Spender::Address(client),
    }
}

/// What the handlers share: the services, and the connection counts (a
/// websocket takes a place among them).
#[derive(Clone)]
pub struct Shared {
    pub app: AppState,
    pub conns: Arc<Connections>,
}

impl FromRef<Shared> for AppState {
    fn from_ref(s: &Shared) -> AppState {
        s.app.clone()
    }
}

impl FromRef<Shared> for Arc<Connections> {
    fn from_ref(s: &Shared) -> Arc<Connections> {
        Arc::clone(&s.conns)
    }
}

/// The values of `?key=a,b` (also `%2C`-separated; the key may repeat).
pub(crate) fn query_list(query: &Option<String>, key: &str) -> Vec<String> {
    let Some(q) = query else { return Vec::new() };
    q.split('&')
        .filter_map(|kv| kv.split_once('=').filter(|(k, _)| *k == key).map(|(_, v)| v))
        .flat_map(|v| v.replace("%2C", ",").replace("%2c", ",").split(',').map(str::to_string).collect::<Vec<_>>())
        .filter(|t| !t.is_empty())
        .collect()
}

/// The most seat tokens one request may name: one per seat of the largest
/// game. Checked before the game's lock is taken, so that a long URL of
/// tokens costs next to nothing.
pub const MAX_TOKENS: usize = carcassonne::MAX_PLAYERS;

/// The tokens in `?token=a,b` (each once), at most [`MAX_TOKENS`].
///
/// # Errors
/// `too_many_tokens`.
pub(crate) fn tokens(query: &Option<String>) -> Result<Vec<String>, ApiError> {
    let mut tokens = query_list(query, "token");
    tokens.sort_unstable();
    tokens.dedup();
    if tokens.len() > MAX_TOKENS {
        return Err(ApiError::TooManyTokens);
    }
    Ok(tokens)
}

pub(crate) async fn viewer_of(live: &Live, tokens: &[String]) -> Result<Viewer, ApiError> {
    let table = live.lock().await;
    Viewer::from_tokens(&table.seats, tokens.iter().map(String::as_str))
}

pub(crate) async fn state_of(live: &Live, viewer: &Viewer) -> Value {
    let table = live.lock().await;
    view::state_json(&live.id, &table, viewer)
}

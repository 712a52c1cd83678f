//! The web game: an axum server with the games kept in SQLite (one server)
//! or PostgreSQL (several servers sharing the games), and the browser UI
//! embedded in the binary.
//!
//! The server is the authority: browsers send moves, the engine checks them,
//! each move is committed to the store before it is acknowledged, bots move
//! here, and the order of the bag never leaves the server. A game is stored
//! as its record (setup and moves) and rebuilt by replaying it.
//!
//! ```no_run
//! # async fn run() -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
//! // What `carcassonne serve` does: a SQLite file…
//! carcassonne_server::serve("127.0.0.1:8080", "carcassonne.db").await?;
//! // …or a PostgreSQL database that other servers may share.
//! carcassonne_server::serve("127.0.0.1:8081", "postgres://carcassonne:secret@db.internal/carcassonne").await?;
//! # Ok(()) }
//! ```
//!
//! Tests drive [`app`] directly (`tower::ServiceExt::oneshot`), with a
//! [`Store::in_memory`] store.

mod assets;
mod bots;
mod config;
mod error;
pub mod i18n;
mod limits;
mod listen;
mod names;
mod qr;
mod rating;
mod routes;
mod services;
mod state;
mod store;
mod view;
mod wire;

use std::net::SocketAddr;
use std::sync::Arc;

pub use bots::{choose_bot_move, choose_move, BotLevel, BotMove, ExternalBot, ExternalBotError};
pub use config::{
    operator_names, Config, LobbySettings, PasskeyCeremonies, PasswordCost, PushSettings, Rate, ReportSettings,
};
pub use error::ApiError;
pub use listen::{addr_key, serve_until, Class, ConnHandle, Connections, Site, Slot};
pub use qr::MAX_QR_TEXT;
pub use rating::{
    bot_rating, rank_seats, update as update_ratings, Family, Pool, Rating, MULTI_SCALE, PROVISIONAL_GAMES,
};
pub use routes::MAX_PASSKEY_BODY;
pub use routes::{
    app, app_with, COOKIE, COOKIE_MAX_AGE, DEVICE_COOKIE, MAX_ACCOUNT_BODY, MAX_BODY, MAX_RECORD, MAX_SAVED_RULES,
    MAX_TOKENS, MAX_WS_MESSAGE, SAVES_PER_HOUR,
};
pub use services::games::{rebuild, MoveRequest, SeatToken, Viewer};
pub use services::passkeys::{passkey_origin, MAX_PASSKEYS, STARTS_PER_ADDRESS};
pub use services::{hints, moderation, review, AppState, Histories};
pub use state::{score_history, StateView};
pub use store::{
    hash_token, is_postgres_url, redact_url, Account, AccountGame, AccountRepo, Admission, Beat, BlockRow, Blocked,
    Change, ChatCaps, ChatMessage, ChatRepo, ChatSettings, ClockAfter, ClockRepo, ClusterRepo, Feed, GameChanged,
    GameRepo, GameSummary, Grant, HistoryRow, LobbyRepo, LobbyRow, LobbySweep, ModerationRepo, NewGame, NewReport,
    PasskeyChallenge, PasskeyRepo, Progress, PushRepo, PushSubscription, RatedResult, RatedSeat, RatingChange,
    RatingRepo, RatingRow, Rematch, RematchRepo, Report, ReportBounds, Reported, ReviewRepo, Room, RuleSetRepo,
    Sanctions, SavedRules, Seat, Store, StoreError, StoredGame, StoredPasskey, TableBounds, TakebackRepo, TurnOf,
    WaitBounds, Waiting, BEAT_EVERY, DEAD_AFTER, DELETED_ACCOUNT, PG_MIGRATIONS, SPECTATOR_KEYS,
};
pub use view::{options_json, replay_json, rules_json, state_json, tiles_json, COLORS};

/// An error on the way to serving.
pub type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// How the server writes its log.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum LogFormat {
    /// Lines of text; coloured only when stderr is a terminal.
    #[default]
    Text,
    /// One JSON object per line, for log collectors.
    Json,
}

/// Logs to stderr (`RUST_LOG` filters; `info` by default). Safe to call twice.
pub fn init_logging(format: LogFormat) {
    use std::io::IsTerminal;
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let builder = tracing_subscriber::fmt().with_env_filter(filter).with_writer(std::io::stderr);
    let _ = match format {
        LogFormat::Text => builder.with_ansi(std::io::stderr().is_terminal()).try_init(),
        LogFormat::Json => builder.json().try_init(),
    };
}

/// Opens the games' storage named by `db` (the `--db` value), listens on
/// `addr`, prints the URL to open and serves until Ctrl-C. `db` is a
/// PostgreSQL URL (`postgres://…` or `postgresql://…`, see [`Store::postgres`]),
/// shared with any other server given the same one, or else the path of a
/// SQLite file (created if missing) that only this server uses (a `&str`, or
/// a `&Path` as before). Settings come from the environment
/// ([`Config::from_env`]).
///
/// # Errors
/// The database cannot be opened or migrated, or the address cannot be bound.
pub async fn serve(addr: &str, db: impl AsRef<std::ffi::OsStr>) -> Result<(), BoxError> {
    serve_with(addr, db, Config::from_env()).await
}

/// [`serve`] with these settings.
///
/// # Errors
/// As [`serve`].
pub async fn serve_with(addr: &str, db: impl AsRef<std::ffi::OsStr>, config: Config) -> Result<(), BoxError> {
    let db = db.as_ref();
    let (store, shown) = Store::open(db).await?;
    let listener = bind(addr).await.map_err(|e| format!("cannot listen on {addr}: {e}"))?;
    let state = AppState::new(store, config);
    tracing::info!(db = %shown, "games are kept in {shown}");
    // The VAPID key (Web Push): a bad one given by the operator stops the server here.
    state.push.ready().await.map_err(|e| match e {
        ApiError::Storage(detail) => format!("Web Push: {detail}"),
        other => format!("Web Push: {other}"),
    })?;
    let resumed = state.bots.resume().await?;
    if resumed > 0 {
        tracing::info!(games = resumed, "bots resumed");
    }
    serve_on(listener, state).await
}

/// How many connections the kernel may hold accepted but not yet taken by the
/// server. Tokio's `TcpListener::bind` asks for 1,024; a crowd arriving at
/// 5,000 connections a second overflowed it and saw resets. Linux caps the
/// number at `net.core.somaxconn` (4,096 by default since 5.4).
pub const LISTEN_BACKLOG: u32 = 4096;

/// Listens on `addr` (`host:port`; the first address it names that binds),
/// with address reuse as the standard library sets it and a
/// [`LISTEN_BACKLOG`]-deep queue.
///
/// # Errors
/// The address does not resolve, or none of its addresses can be bound.
pub async fn bind(addr: &str) -> std::io::Result<tokio::net::TcpListener> {
    let mut last = None;
    for a in tokio::net::lookup_host(addr).await? {
        let socket = if a.is_ipv4() { tokio::net::TcpSocket::new_v4()? } else { tokio::net::TcpSocket::new_v6()? };
        #[cfg(unix)]
        socket.set_reuseaddr(true)?;
        match socket.bind(a).and_then(|()| socket.listen(LISTEN_BACKLOG)) {
            Ok(listener) => return Ok(listener),
            Err(e) => last = Some(e),
        }
    }
    Err(last.unwrap_or_else(|| std::io::Error::new(std::io::ErrorKind::InvalidInput, "no address to listen on")))
}

/// Serves `state` on a bound listener (tests bind port 0) until Ctrl-C or
/// SIGTERM, with the caps and timeouts of its [`Config`] ([`serve_until`]).
///
/// # Errors
/// The listener fails.
pub async fn serve_on(listener: tokio::net::TcpListener, state: AppState) -> Result<(), BoxError> {
    let local = listener.local_addr()?;
    println!("Carcassonne is ready: open {}", url_for(local));
    serve_until(listener, state, shutdown_signal()).await
}

/// The URL to print for a listening address (a wildcard address is reached on localhost).
fn url_for(addr: SocketAddr) -> String {
    match addr {
        SocketAddr::V4(a) if a.ip().is_unspecified() => format!("http://127.0.0.1:{}/", a.port()),
        SocketAddr::V6(a) if a.ip().is_unspecified() => format!("http://[::1]:{}/", a.port()),
        SocketAddr::V6(a) => format!("http://[{}]:{}/", a.ip(), a.port()),
        SocketAddr::V4(a) => format!("http://{}:{}/", a.ip(), a.port()),
    }
}

/// The connection layer serves the HTTP layer over the services.
impl Site for AppState {
    fn config(&self) -> &Config {
        AppState::config(self)
    }

    fn router(&self, conns: Arc<Connections>) -> axum::Router {
        app_with(self.clone(), conns)
    }

    fn begin_shutdown(&self) {
        AppState::begin_shutdown(self);
    }

    async fn leave(&self) {
        self.cluster.leave().await;
    }
}

/// Resolves on Ctrl-C or, on Unix, SIGTERM.
pub async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = term => {},
    }
    tracing::info!("shutting down");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_printed_url_is_one_a_browser_opens() {
        assert_eq!(url_for("127.0.0.1:8080".parse().unwrap()), "http://127.0.0.1:8080/");
        assert_eq!(url_for("0.0.0.0:9000".parse().unwrap()), "http://127.0.0.1:9000/");
    }
}

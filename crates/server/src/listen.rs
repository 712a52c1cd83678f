//! Accepting connections on the open internet.
//!
//! Every connection is counted against a cap for its client address and a
//! cap in all (kept below the process's limit of open files): one over is
//! closed at once, so that a client holding many sockets (slowloris) cannot
//! starve the others. A request's headers must arrive within
//! `Config::header_timeout` (an idle keep-alive connection is let go after
//! as long) and its body within `Config::body_timeout` (`routes::app`).
//! Websockets hold a slot of their own from the same counts. Accepted
//! sockets set `TCP_NODELAY`, so that a move reaches the player to move as
//! soon as the spectators. On Ctrl-C or SIGTERM the listener closes, open
//! websockets are told the server is stopping, requests in flight get
//! `Config::shutdown_grace` to finish, and then the server returns whatever
//! clients do.

use std::collections::HashMap;
use std::future::Future;
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::extract::ConnectInfo;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;
use tower::ServiceExt;

use crate::config::Config;
use crate::BoxError;

/// What the connection layer serves: a router, over connections it counts,
/// and whom it tells that the server stops. It knows nothing of games.
pub trait Site: Send + 'static {
    /// The caps and timeouts.
    fn config(&self) -> &Config;
    /// The router, counting websockets among `conns`.
    fn router(&self, conns: Arc<Connections>) -> axum::Router;
    /// The server begins to stop (websockets are told).
    fn begin_shutdown(&self);
    /// The server stops (after the grace).
    fn leave(&self) -> impl Future<Output = ()> + Send;
}

/// Open connections (websockets included), in all and per client address.
pub struct Connections {
    max_total: usize,
    max_per_ip: usize,
    max_sockets_per_ip: usize,
    ipv6_prefix: u8,
    counts: Mutex<Counts>,
}

#[derive(Default)]
struct Counts {
    total: usize,
    /// Per address: connections (websockets included), and websockets.
    by_ip: HashMap<IpAddr, (usize, usize)>,
}

/// One admitted connection or websocket; dropping it frees its place.
pub struct Slot {
    conns: Arc<Connections>,
    ip: IpAddr,
    websocket: bool,
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut c = self.conns.counts();
        c.total = c.total.saturating_sub(1);
        if let Some(n) = c.by_ip.get_mut(&self.ip) {
            n.0 = n.0.saturating_sub(1);
            if self.websocket {
                n.1 = n.1.saturating_sub(1);
            }
            if n.0 == 0 {
                c.by_ip.remove(&self.ip);
            }
        }
    }
}

/// Files the process keeps for other things than client connections (the
/// database, logs, the listener).
const RESERVED_FILES: u64 = 64;

impl Connections {
    /// The caps of `config`, the total kept below the limit of open files
    /// (raised first to the most the system allows this process).
    pub fn new(config: &Config) -> Connections {
        let files = rlimit::increase_nofile_limit(u64::MAX).unwrap_or(1024);
        let room = files.saturating_sub(RESERVED_FILES).max(16);
        Connections {
            max_total: config.max_connections.min(usize::try_from(room).unwrap_or(usize::MAX)),
            max_per_ip: config.max_connections_per_ip,
            max_sockets_per_ip: config.max_sockets_per_ip,
            ipv6_prefix: config.ipv6_prefix,
            counts: Mutex::new(Counts::default()),
        }
    }

    fn counts(&self) -> std::sync::MutexGuard<'_, Counts> {
        self.counts.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A place for a connection (or, with `websocket`, a websocket) from
    /// `ip` (counted under [`addr_key`]), or why there is none.
    pub fn admit(self: &Arc<Self>, ip: IpAddr, websocket: bool) -> Result<Slot, &'static str> {
        let ip = addr_key(ip, self.ipv6_prefix);
        let mut c = self.counts();
        if c.total >= self.max_total {
            return Err("the server holds as many connections as it can");
        }
        let n = c.by_ip.entry(ip).or_default();
        if n.0 >= self.max_per_ip {
            return Err("too many connections from your address");
        }
        if websocket && n.1 >= self.max_sockets_per_ip {
            return Err("too many live connections from your address");
        }
        n.0 += 1;
        if websocket {
            n.1 += 1;
        }
        c.total += 1;
        Ok(Slot { conns: Arc::clone(self), ip, websocket })
    }

    /// Connections open now.
    pub fn open(&self) -> usize {
        self.counts().total
    }
}

/// Serves `state` on `listener` until `stop` completes, then shuts down
/// within `Config::shutdown_grace` (see the module's documentation).
///
/// # Errors
/// None so far: accept errors (out of files) are logged and retried.
pub async fn serve_until(
    listener: TcpListener,
    state: impl Site,
    stop: impl Future<Output = ()>,
) -> Result<(), BoxError> {
    let config = state.config().clone();
    let conns = Arc::new(Connections::new(&config));
    let router = state.router(Arc::clone(&conns));
    let mut builder = http1::Builder::new();
    builder.timer(TokioTimer::new()).header_read_timeout(config.header_timeout).keep_alive(true);
    let (closing, closed) = tokio::sync::watch::channel(false);
    let mut refused: u64 = 0;
    let mut last_warned: Option<Instant> = None;
    tokio::pin!(stop);
    loop {
        let (stream, peer) = tokio::select! {
            biased;
            () = &mut stop => break,
            accepted = listener.accept() => match accepted {
                Ok(a) => a,
                Err(e) => {
                    // Out of files, most likely: wait for some to close.
                    tracing::warn!(error = %e, "accept failed");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
        };
        let slot = match conns.admit(peer.ip(), false) {
            Ok(slot) => slot,
            Err(why) => {
                refused += 1;
                if last_warned.is_none_or(|t| t.elapsed() > Duration::from_secs(10)) {
                    tracing::warn!(client = %peer.ip(), refused, "connection refused: {why}");
                    last_warned = Some(Instant::now());
                }
                continue; // dropped: closed at once
            }
        };
        let _ = stream.set_nodelay(true);
        let service = router.clone().map_request(move |mut req: axum::http::Request<Incoming>| {
            req.extensions_mut().insert(ConnectInfo(peer));
            req
        });
        let connection = builder.serve_connection(TokioIo::new(stream), TowerToHyperService::new(service));
        let mut closed = closed.clone();
        tokio::spawn(async move {
            let _slot = slot;
            let connection = connection.with_upgrades();
            tokio::pin!(connection);
            tokio::select! {
                _ = connection.as_mut() => {}
                () = until_set(&mut closed) => {
                    connection.as_mut().graceful_shutdown();
                    let _ = connection.await;
                }
            }
        });
    }
    drop(listener);
    tracing::info!(open = conns.open(), "shutting down: no new connections");
    state.begin_shutdown();
    let _ = closing.send(true);
    let deadline = Instant::now() + config.shutdown_grace;
    while conns.open() > 0 && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    if conns.open() > 0 {
        tracing::warn!(open = conns.open(), "stopping with connections still open");
    }
    state.leave().await;
    Ok(())
}

/// Returns once `flag` is true (or its sender is gone).
pub async fn until_set(flag: &mut tokio::sync::watch::Receiver<bool>) {
    while !*flag.borrow_and_update() {
        if flag.changed().await.is_err() {
            std::future::pending::<()>().await;
        }
    }
}

/// The address limits count `ip` under: an IPv4 address as it is, an IPv6
/// address cut to its first `ipv6_prefix` bits (a host is given a /64 and
/// may use every address in it; `Config::ipv6_prefix`). An IPv4 address
/// mapped into IPv6 counts as the IPv4 one.
pub fn addr_key(ip: IpAddr, ipv6_prefix: u8) -> IpAddr {
    match ip {
        IpAddr::V4(_) => ip,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => {
                let bits = u32::from(ipv6_prefix.min(128));
                let mask = u128::MAX.checked_shl(128 - bits).unwrap_or(0);
                IpAddr::V6((u128::from(v6) & mask).into())
            }
        },
    }
}

/// The client's address, as the listener saw it.
pub fn client_ip(extensions: &axum::http::Extensions) -> IpAddr {
    // Forwarded headers are not trusted: anyone can write them. Tests that
    // call the router directly have no peer.
    extensions
        .get::<ConnectInfo<SocketAddr>>()
        .map_or(IpAddr::V4(std::net::Ipv4Addr::UNSPECIFIED), |ConnectInfo(a)| a.ip())
}

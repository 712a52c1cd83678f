//! Accepting connections on the open internet.
//!
//! Every connection is counted against a cap for its client address and a
//! cap in all (kept below the process's limit of open files): one over its
//! address's cap is closed at once, so that a client holding many sockets
//! (slowloris) cannot starve the others. At the cap in all, **the newcomer
//! wins over the idle**: a new connection displaces the connection that has
//! waited longest for a request's headers (a half-sent request, or a
//! kept-alive connection between requests), else the websocket idle
//! longest among those the layers above class [`Class::Idle`] (spectators);
//! only when every connection is busy or held is the newcomer refused. So a
//! crowd of half-open or idle connections, from however many addresses,
//! cannot keep a player or a new visitor out. Held places are bounded per
//! address too ([`HELD_PER_ADDRESS`]: a seat holder's socket beyond them is
//! classed `Idle`), and in all to three quarters of the places
//! ([`Connections::held_cap`]), so that addresses holding seats in games of
//! their own, however many, cannot hold every place: the last quarter is
//! for people with a history, whose sockets the layers above class
//! [`Class::Kept`], and for everyone else to come and go. The same
//! displacement frees a file when `accept` finds none left (`EMFILE`), and
//! the loop waits for the place to free rather than spinning.
//!
//! This layer knows nothing of games: the layers above say what a
//! connection is with [`Slot::set_class`] (a websocket's own slot) or the
//! [`ConnHandle`] found in each request's extensions, and a websocket
//! waits on [`Slot::displaced`] to close when it is chosen.
//!
//! A request's headers must arrive within `Config::header_timeout` (an idle
//! keep-alive connection is let go after as long) and its body within
//! `Config::body_timeout` (`routes::app`). Websockets hold a slot of their
//! own from the same counts. Accepted sockets set `TCP_NODELAY`, so that a
//! move reaches the player to move as soon as the spectators. On Ctrl-C or
//! SIGTERM the listener closes, open websockets are told the server is
//! stopping, requests in flight get `Config::shutdown_grace` to finish, and
//! then the server returns whatever clients do.

use std::collections::HashMap;
use std::future::Future;
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::body::Body;
use axum::extract::ConnectInfo;
use http_body_util::BodyExt;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;
use tokio::sync::{watch, Notify};
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

/// What a connection is doing, as far as displacing it goes. The listener
/// sets `Waiting` and `Busy` on HTTP connections; the layers above class
/// websockets (`Idle` for a spectator, `Held` for a seat holder).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Class {
    /// Waiting for a request's headers: displaced first, the oldest first.
    Waiting,
    /// Serving a request (or a websocket not classed yet): never displaced.
    Busy,
    /// Displaced once no connection is `Waiting`, the longest idle first
    /// ([`ConnHandle::set_class`] again, or [`Slot::touch`], restarts its time).
    Idle,
    /// Never displaced ([`HELD_PER_ADDRESS`] of an address at most, and
    /// [`Connections::held_cap`] in all: the next ones are `Idle`).
    Held,
    /// Held by a person with a history (as the layers above know them):
    /// never displaced, and counted in neither bound of `Held`, so that no
    /// crowd of addresses holding seats keeps them out.
    Kept,
}

/// Connections one client address (its [`addr_key`]) may hold `Held` at
/// once: a person's games open in several tabs, or a table's hot-seat
/// screens. Its further seat holders' sockets are displaced as spectators
/// are, once the server is full: so taking every place takes
/// `max_connections / HELD_PER_ADDRESS` addresses (512 at the defaults),
/// not `max_connections / max_connections_per_ip` (64).
pub const HELD_PER_ADDRESS: usize = 8;

/// Open connections (websockets included), in all and per client address.
pub struct Connections {
    max_total: usize,
    max_per_ip: usize,
    max_sockets_per_ip: usize,
    ipv6_prefix: u8,
    counts: Mutex<Counts>,
    /// Told whenever a place frees.
    freed: Notify,
}

#[derive(Default)]
struct Counts {
    total: usize,
    /// Per address: connections (websockets included), websockets, and
    /// connections classed `Held`.
    by_ip: HashMap<IpAddr, (usize, usize, usize)>,
    /// Connections classed `Held`, in all.
    held: usize,
    /// Every open connection, by its number.
    open: HashMap<u64, Entry>,
    next: u64,
    /// Connections told to leave that have not yet.
    leaving: usize,
}

struct Entry {
    class: Class,
    /// The address it is counted under.
    ip: IpAddr,
    since: Instant,
    leaving: bool,
    leave: watch::Sender<bool>,
}

/// Connections told to leave at once, at most, before newcomers wait for
/// them to go.
const MAX_LEAVING: usize = 64;

/// A way to class one connection, cheap to clone; every HTTP request
/// carries its connection's in its extensions.
#[derive(Clone)]
pub struct ConnHandle {
    conns: Arc<Connections>,
    id: u64,
}

impl ConnHandle {
    /// Classes the connection as `class` from now on.
    pub fn set_class(&self, class: Class) {
        self.change(|_| true, class);
    }

    /// Sets `to` when the class is `when`'s (`Idle` for `Held` past the
    /// address's [`HELD_PER_ADDRESS`] or the [`Connections::held_cap`]).
    fn change(&self, when: impl Fn(Class) -> bool, to: Class) {
        let cap = self.conns.held_cap();
        let mut c = self.conns.counts();
        let Counts { open, by_ip, held: all, .. } = &mut *c;
        let Some(e) = open.get_mut(&self.id).filter(|e| when(e.class)) else {
            return;
        };
        let held = &mut by_ip.entry(e.ip).or_default().2;
        if e.class == Class::Held {
            *held -= 1;
            *all -= 1;
        }
        e.class = if to == Class::Held && (*held >= HELD_PER_ADDRESS || *all >= cap) { Class::Idle } else { to };
        if e.class == Class::Held {
            *held += 1;
            *all += 1;
        }
        e.since = Instant::now();
    }
}

/// One admitted connection or websocket; dropping it frees its place.
pub struct Slot {
    handle: ConnHandle,
    ip: IpAddr,
    websocket: bool,
    leave: watch::Receiver<bool>,
}

impl Slot {
    /// Classes the connection (see [`Class`]).
    pub fn set_class(&self, class: Class) {
        self.handle.set_class(class);
    }

    /// Restarts an `Idle` connection's idle time (it did something).
    pub fn touch(&self) {
        self.handle.change(|c| c == Class::Idle, Class::Idle);
    }

    /// A handle to class the connection from elsewhere.
    pub fn handle(&self) -> ConnHandle {
        self.handle.clone()
    }

    /// Completes when the connection is displaced by a newcomer: its owner
    /// should close it then.
    pub async fn displaced(&self) {
        until_set(&mut self.leave.clone()).await;
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        let conns = &self.handle.conns;
        let mut c = conns.counts();
        c.total = c.total.saturating_sub(1);
        let mut held = false;
        if let Some(e) = c.open.remove(&self.handle.id) {
            if e.leaving {
                c.leaving = c.leaving.saturating_sub(1);
            }
            held = e.class == Class::Held;
        }
        c.held -= usize::from(held);
        if let Some(n) = c.by_ip.get_mut(&self.ip) {
            n.0 = n.0.saturating_sub(1);
            n.2 = n.2.saturating_sub(usize::from(held));
            if self.websocket {
                n.1 = n.1.saturating_sub(1);
            }
            if n.0 == 0 {
                c.by_ip.remove(&self.ip);
            }
        }
        drop(c);
        conns.freed.notify_waiters();
    }
}

/// Files the process keeps for other things than client connections (the
/// database, logs, the listener, bot programs' pipes).
const RESERVED_FILES: u64 = 128;

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
            freed: Notify::new(),
        }
    }

    fn counts(&self) -> std::sync::MutexGuard<'_, Counts> {
        self.counts.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A place for a connection (or, with `websocket`, a websocket) from
    /// `ip` (counted under [`addr_key`]), displacing another at the cap in
    /// all (see the module's documentation), or why there is none. A new
    /// place is `Busy` for a websocket, `Waiting` for a connection.
    pub fn admit(self: &Arc<Self>, ip: IpAddr, websocket: bool) -> Result<Slot, &'static str> {
        let ip = addr_key(ip, self.ipv6_prefix);
        let mut c = self.counts();
        let n = c.by_ip.get(&ip).copied().unwrap_or_default();
        if n.0 >= self.max_per_ip {
            return Err("too many connections from your address");
        }
        if websocket && n.1 >= self.max_sockets_per_ip {
            return Err("too many live connections from your address");
        }
        if c.total - c.leaving >= self.max_total && (c.leaving >= MAX_LEAVING || !c.displace_one()) {
            return Err("the server holds as many connections as it can");
        }
        let n = c.by_ip.entry(ip).or_default();
        n.0 += 1;
        if websocket {
            n.1 += 1;
        }
        c.total += 1;
        c.next += 1;
        let id = c.next;
        let (leave, left) = watch::channel(false);
        let class = if websocket { Class::Busy } else { Class::Waiting };
        c.open.insert(id, Entry { class, ip, since: Instant::now(), leaving: false, leave });
        Ok(Slot { handle: ConnHandle { conns: Arc::clone(self), id }, ip, websocket, leave: left })
    }

    /// Tells one connection to leave (the oldest waiting, else the longest
    /// idle) when the process is out of files, and waits (a while at most)
    /// for a place to free; else only waits a while.
    async fn make_room(&self) {
        let freed = self.freed.notified();
        let told = {
            let mut c = self.counts();
            c.leaving < MAX_LEAVING && c.displace_one()
        };
        let wait = if told { Duration::from_millis(100) } else { Duration::from_millis(50) };
        let _ = tokio::time::timeout(wait, freed).await;
    }

    /// Waits (a while at most) while too many displaced connections have
    /// not left yet.
    async fn until_few_leaving(&self) {
        let freed = self.freed.notified();
        if self.counts().leaving >= MAX_LEAVING {
            let _ = tokio::time::timeout(Duration::from_millis(100), freed).await;
        }
    }

    /// Connections classed `Held` at most, in all: three quarters of the
    /// places (the rest for [`Class::Kept`] and those that come and go).
    pub fn held_cap(&self) -> usize {
        self.max_total - self.max_total / 4
    }

    /// Connections open now.
    pub fn open(&self) -> usize {
        self.counts().total
    }
}

impl Counts {
    /// Tells the oldest `Waiting` connection, else the longest `Idle`, to
    /// leave; whether there was one.
    fn displace_one(&mut self) -> bool {
        let oldest = |class: Class| {
            self.open
                .iter()
                .filter(|(_, e)| e.class == class && !e.leaving)
                .min_by_key(|(_, e)| e.since)
                .map(|(id, _)| *id)
        };
        let Some(id) = oldest(Class::Waiting).or_else(|| oldest(Class::Idle)) else {
            return false;
        };
        if let Some(e) = self.open.get_mut(&id) {
            e.leaving = true;
            let _ = e.leave.send(true);
        }
        self.leaving += 1;
        true
    }
}

/// Whether an accept failed for want of files (the process's or the system's).
fn out_of_files(e: &std::io::Error) -> bool {
    matches!(e.raw_os_error(), Some(libc::EMFILE | libc::ENFILE))
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
        conns.until_few_leaving().await;
        let (stream, peer) = tokio::select! {
            biased;
            () = &mut stop => break,
            accepted = listener.accept() => match accepted {
                Ok(a) => a,
                Err(e) => {
                    if last_warned.is_none_or(|t| t.elapsed() > Duration::from_secs(10)) {
                        tracing::warn!(error = %e, "accept failed");
                        last_warned = Some(Instant::now());
                    }
                    if out_of_files(&e) {
                        // The newcomer waits in the kernel's queue while the
                        // oldest waiting connection makes room.
                        conns.make_room().await;
                    } else {
                        tokio::time::sleep(Duration::from_millis(10)).await;
                    }
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
        let handle = slot.handle();
        let router = router.clone();
        let service = tower::service_fn(move |mut req: axum::http::Request<Incoming>| {
            // Busy from the request's headers until its answer is sent.
            handle.change(|c| c == Class::Waiting, Class::Busy);
            let answered = Answered(handle.clone());
            req.extensions_mut().insert(ConnectInfo(peer));
            req.extensions_mut().insert(handle.clone());
            let router = router.clone();
            async move {
                let resp = router.oneshot(req).await?;
                // Waiting again once the body is sent (or dropped).
                Ok::<_, std::convert::Infallible>(resp.map(|body| {
                    Body::new(body.map_frame(move |frame| {
                        let _held = &answered;
                        frame
                    }))
                }))
            }
        });
        let connection = builder.serve_connection(TokioIo::new(stream), TowerToHyperService::new(service));
        let mut closed = closed.clone();
        tokio::spawn(async move {
            let connection = connection.with_upgrades();
            tokio::pin!(connection);
            tokio::select! {
                _ = connection.as_mut() => {}
                () = slot.displaced() => {}
                () = until_set(&mut closed) => {
                    connection.as_mut().graceful_shutdown();
                    let _ = connection.await;
                }
            }
            drop(slot);
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
    // No bot program outlives the server (a move in progress included).
    carcassonne_ai::external::kill_all();
    Ok(())
}

/// Marks its connection `Waiting` again when dropped (with the answer's body).
struct Answered(ConnHandle);

impl Drop for Answered {
    fn drop(&mut self) {
        self.0.change(|c| c == Class::Busy, Class::Waiting);
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_spectator_that_spoke_gives_way_after_the_one_idle_longer() {
        let config = Config { max_connections: 2, ..Config::quick() };
        let conns = Arc::new(Connections::new(&config));
        let ip = |n| IpAddr::from([10, 0, 0, n]);
        let first = conns.admit(ip(1), true).unwrap();
        first.set_class(Class::Idle);
        let second = conns.admit(ip(2), true).unwrap();
        second.set_class(Class::Idle);
        first.touch();
        let newcomer = conns.admit(ip(3), false).expect("a newcomer displaces an idle spectator");
        newcomer.set_class(Class::Busy);
        tokio::time::timeout(Duration::from_secs(1), second.displaced()).await.expect("the one idle longer goes");
        let stays = tokio::time::timeout(Duration::from_millis(50), first.displaced()).await.is_err();
        assert!(stays, "the spectator that spoke last was displaced");
        // A seat holder's socket is never displaced, nor a request being served.
        drop(second);
        first.set_class(Class::Held);
        assert!(conns.admit(ip(4), false).is_err(), "a held socket or a busy request gave way");
    }

    /// Addresses holding seats, however many, hold three quarters of the
    /// places: past them, their sockets give way as spectators' do, and the
    /// rest is for people with a history (`Kept`) and newcomers.
    #[tokio::test]
    async fn a_crowd_of_addresses_holds_three_quarters_of_the_places() {
        let config = Config { max_connections: 8, ..Config::quick() };
        let conns = Arc::new(Connections::new(&config));
        assert_eq!(conns.held_cap(), 6);
        let crowd: Vec<Slot> = (0..8)
            .map(|n| {
                let slot = conns.admit(IpAddr::from([10, 1, 0, n]), false).unwrap();
                slot.set_class(Class::Held);
                slot
            })
            .collect();
        assert_eq!(conns.counts().held, 6, "the last two are idle");
        // People with a history come in, in place of the crowd's last two,
        // and then hold their places.
        let mut known = Vec::new();
        for (k, extra) in crowd[6..].iter().enumerate() {
            let slot = conns.admit(IpAddr::from([10, 2, 0, k as u8]), false).expect("a place");
            slot.set_class(Class::Kept);
            tokio::time::timeout(Duration::from_secs(1), extra.displaced()).await.expect("the extra one goes");
            known.push(slot);
        }
        for slot in &crowd[..6] {
            assert!(tokio::time::timeout(Duration::from_millis(20), slot.displaced()).await.is_err());
        }
        let mut crowd = crowd;
        crowd.truncate(6);
        assert!(conns.admit(IpAddr::from([10, 3, 0, 1]), false).is_err(), "every place held or kept");
        // A held place freed is the crowd's again, once; a kept one is not counted.
        crowd.pop();
        let again = conns.admit(IpAddr::from([10, 1, 0, 9]), false).unwrap();
        again.set_class(Class::Held);
        assert_eq!(conns.counts().held, 6);
        known[0].set_class(Class::Kept);
        assert_eq!(conns.counts().held, 6);
        drop(again);
        assert_eq!(conns.counts().held, 5);
    }

    /// One address's seat holders' sockets beyond `HELD_PER_ADDRESS` give
    /// way as spectators do: a crowd holding seats cannot fill the server.
    #[tokio::test]
    async fn an_address_holds_a_few_places_and_no_more() {
        let config = Config { max_connections: HELD_PER_ADDRESS + 2, ..Config::quick() };
        let conns = Arc::new(Connections::new(&config));
        let crowd = IpAddr::from([10, 0, 0, 1]);
        let held: Vec<Slot> = (0..HELD_PER_ADDRESS + 2)
            .map(|_| {
                let slot = conns.admit(crowd, false).unwrap();
                slot.set_class(Class::Held);
                slot
            })
            .collect();
        // The server is full; a player from elsewhere displaces the first
        // socket past the address's held places, then the second.
        let mut players = Vec::new();
        for (k, extra) in held[HELD_PER_ADDRESS..].iter().enumerate() {
            let player = conns.admit(IpAddr::from([10, 0, 0, 2 + k as u8]), false).expect("a place");
            player.set_class(Class::Held);
            tokio::time::timeout(Duration::from_secs(1), extra.displaced()).await.expect("the extra one goes");
            players.push(player);
        }
        // Those within the address's share stay; so does a held socket
        // freed and taken again (the count follows drops and classes).
        for slot in &held[..HELD_PER_ADDRESS] {
            assert!(tokio::time::timeout(Duration::from_millis(20), slot.displaced()).await.is_err());
        }
        let mut held = held;
        held.truncate(HELD_PER_ADDRESS);
        held.pop();
        let again = conns.admit(crowd, false).unwrap();
        again.set_class(Class::Held);
        assert_eq!(conns.counts().by_ip[&crowd].2, HELD_PER_ADDRESS);
        held[0].set_class(Class::Idle);
        assert_eq!(conns.counts().by_ip[&crowd].2, HELD_PER_ADDRESS - 1);
    }
}

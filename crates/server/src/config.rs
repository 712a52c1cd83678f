//! The server's settings: limits, timeouts, bots and quotas.

use std::time::Duration;

use crate::bots;

/// Server settings.
#[derive(Clone, Debug)]
pub struct Config {
    /// The least time a bot takes over a move, so that people can follow it.
    pub bot_delay: Duration,
    /// Search bots think only a few iterations (tests).
    pub quick_bots: bool,
    /// HTTP requests to `/api/` per client address: a steady rate and a
    /// burst. `None`: no limit.
    pub http_rate: Option<Rate>,
    /// Messages per websocket. `None`: no limit.
    pub ws_rate: Option<Rate>,
    /// How often websockets are pinged; one silent for three times this is
    /// closed (its seat goes offline).
    pub ws_ping: Duration,
    /// Connections open at once, in all (kept below the process's limit of
    /// open files, which the server raises as far as it may at start).
    pub max_connections: usize,
    /// Connections open at once from one client address.
    pub max_connections_per_ip: usize,
    /// How long a client may take to send a request's headers; a
    /// keep-alive connection idle for as long is closed too.
    pub header_timeout: Duration,
    /// How long a client may take to send a request's body.
    pub body_timeout: Duration,
    /// How long a stopping server waits for requests in flight (it exits
    /// within this plus a second, whatever clients do).
    pub shutdown_grace: Duration,
    /// Spectators' websockets open at once from one client address (a seat
    /// holder's websocket counts only among the address's connections).
    pub max_sockets_per_ip: usize,
    /// Spectators' websockets open at once on one game. A seat holder's
    /// websocket never counts here: each seat has places of its own
    /// (`SEAT_SOCKETS`), so that a crowd of spectators cannot lock the
    /// players out.
    pub max_sockets_per_game: usize,
    /// Origins besides the server's own (`https://example.com`) whose pages
    /// may open websockets; a websocket from any other page is refused.
    pub allowed_origins: Vec<String>,
    /// Bot searches run at once (the others wait their turn), so that
    /// people's moves always find a core free.
    pub bot_workers: usize,
    /// Games one client address may create in an hour.
    pub max_new_games_per_hour_per_ip: usize,
    /// Unfinished games in play that one client address created (since the
    /// server started; a game that left memory, idle, no longer counts).
    pub max_active_games_per_ip: usize,
    /// Games kept in the store that were made from one client address (an
    /// IPv6 address by its prefix), on every server: one more drops its
    /// oldest unfinished casual game, or its oldest finished casual game
    /// no account played; failing both it is refused (`quota_exceeded`).
    pub max_kept_games_per_ip: usize,
    /// A game nobody has looked at or played for this long, with no live
    /// connection and no bot thinking, leaves memory (and comes back from
    /// the storage when asked for).
    pub idle_after: Duration,
    /// An unfinished game without a move for this long is abandoned: it is
    /// deleted (checked a minute after start, then every hour). `None`:
    /// games never expire.
    pub expire_after: Option<Duration>,
    /// Programs offered as bots (`serve --bot NAME=CMD`), besides the built-in levels.
    pub external_bots: Vec<bots::ExternalBot>,
    /// Threads working out reviews of finished games, at the lowest
    /// priority, and only while no bot search waits or runs.
    pub review_workers: usize,
    /// Reviews being worked out or waiting their turn, in all: one more is
    /// answered `busy` (503, `Retry-After`).
    pub max_reviews: usize,
    /// The same, started by one client address.
    pub max_reviews_per_ip: usize,
    /// The prefix length that makes one client address of an IPv6 host
    /// (its /64 by default: a host is given a /64, so every address in
    /// it counts as one). IPv4 addresses count one by one.
    pub ipv6_prefix: u8,
    /// Spectators' websockets on one game from one client address.
    pub max_spectators_per_ip_per_game: usize,
    /// Spectators numbered in a game's chat (each who wrote), past whom
    /// only an account with a history is numbered: a new one is refused
    /// `chat_crowded`.
    pub chat_spectators: usize,
    /// What hashing an account's password costs (docs/web.md, *Accounts*).
    pub password_cost: PasswordCost,
    /// Password checks that may wait for a hashing thread; more are
    /// answered `busy` at once (a crowd of sign-ins neither queues without
    /// bound nor keeps a connection each).
    pub password_queue: usize,
    /// A session unused this long ends (each use renews it).
    pub session_idle: Duration,
    /// An account plays rated games once it is this old, or has finished
    /// `rated_min_games` games (services/ratings.rs): puppets made at once
    /// farm no rating.
    pub rated_min_age: Duration,
    pub rated_min_games: usize,
    /// Seats of one rated game may be taken from one client address (a
    /// club playing behind one router); otherwise such a game counts for
    /// nothing, as a puppet's would.
    pub rated_shared_address: bool,
    /// Session cookies are `Secure` whatever the page's origin says (a
    /// server behind a TLS proxy whose pages are all https).
    pub secure_cookies: bool,
    /// The origin people open the game at (`https://carcassonne.example`):
    /// passkeys are made for its host and accepted only from its pages.
    /// `None`: passkeys work on `http://localhost` at any port
    /// (development; docs/web.md, *Passkeys*).
    pub public_url: Option<String>,
    /// How long a passkey ceremony begun may take to finish.
    pub passkey_challenge_ttl: Duration,
    /// Passkey ceremonies kept at once, and those kept for people with a
    /// history.
    pub passkey_ceremonies: PasskeyCeremonies,
    /// Web Push: the VAPID key and who the push services may write to.
    pub push: PushSettings,
    /// The lobby's places, each person's share and the places kept for
    /// people with a history.
    pub lobby: LobbySettings,
    /// Open reports: each reporter's share, and the places kept for
    /// reporters with a history.
    pub reports: ReportSettings,
    /// The operators: the names of the accounts that may use the admin page
    /// (`#/admin`, `/api/admin/…`; docs/web.md, *Blocking and reporting*).
    pub operators: Vec<String>,
}

/// Argon2id's cost: memory in KiB, passes, lanes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PasswordCost {
    pub memory_kib: u32,
    pub passes: u32,
    pub lanes: u32,
}

impl PasswordCost {
    /// OWASP's first recommendation for argon2id: 19 MiB, 2 passes, 1 lane.
    pub const STANDARD: PasswordCost = PasswordCost { memory_kib: 19 * 1024, passes: 2, lanes: 1 };
    /// The least argon2 allows: for tests only (`Config::quick`).
    pub const TESTS: PasswordCost = PasswordCost { memory_kib: 8, passes: 1, lanes: 1 };
}

/// A rate limit: `per_second` on average, `burst` at once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rate {
    pub per_second: u32,
    pub burst: u32,
}

impl Rate {
    /// The limiter's quota (a zero rate counts as one per second, a zero
    /// burst as one second's worth).
    pub(crate) fn quota(self) -> governor::Quota {
        let per_second = std::num::NonZeroU32::new(self.per_second).unwrap_or(std::num::NonZeroU32::MIN);
        governor::Quota::per_second(per_second).allow_burst(std::num::NonZeroU32::new(self.burst).unwrap_or(per_second))
    }
}

impl Default for Config {
    fn default() -> Self {
        Config {
            bot_delay: Duration::from_millis(700),
            quick_bots: false,
            // A page load is about 20 requests; a person makes a few a second.
            http_rate: Some(Rate { per_second: 50, burst: 200 }),
            ws_rate: Some(Rate { per_second: 20, burst: 60 }),
            ws_ping: Duration::from_secs(15),
            max_connections: 4096,
            max_connections_per_ip: 64,
            header_timeout: Duration::from_secs(10),
            body_timeout: Duration::from_secs(10),
            shutdown_grace: Duration::from_secs(5),
            max_sockets_per_ip: 32,
            max_sockets_per_game: 256,
            allowed_origins: Vec::new(),
            bot_workers: std::thread::available_parallelism().map_or(1, |n| n.get().saturating_sub(1).max(1)),
            max_new_games_per_hour_per_ip: 60,
            max_active_games_per_ip: 20,
            max_kept_games_per_ip: 300,
            idle_after: Duration::from_secs(15 * 60),
            expire_after: Some(Duration::from_secs(30 * 24 * 3600)),
            external_bots: Vec::new(),
            review_workers: 1,
            max_reviews: 8,
            max_reviews_per_ip: 2,
            ipv6_prefix: 64,
            max_spectators_per_ip_per_game: 8,
            chat_spectators: 2000,
            password_cost: PasswordCost::STANDARD,
            password_queue: 32,
            session_idle: Duration::from_secs(30 * 24 * 3600),
            rated_min_age: Duration::from_secs(24 * 3600),
            rated_min_games: 5,
            rated_shared_address: false,
            secure_cookies: false,
            public_url: None,
            passkey_challenge_ttl: Duration::from_secs(5 * 60),
            passkey_ceremonies: PasskeyCeremonies::default(),
            push: PushSettings::default(),
            lobby: LobbySettings::default(),
            reports: ReportSettings::default(),
            operators: Vec::new(),
        }
    }
}

impl Config {
    /// The defaults, with `CARCASSONNE_BOT_DELAY_MS`,
    /// `CARCASSONNE_RATE_LIMIT` (HTTP requests per second per address, or
    /// `off`), `CARCASSONNE_HEADER_TIMEOUT_MS` and
    /// `CARCASSONNE_BODY_TIMEOUT_MS`, `CARCASSONNE_ADMIN` (operators' names,
    /// comma-separated) read from the environment.
    pub fn from_env() -> Config {
        let mut c = Config::default();
        let ms = |name: &str| std::env::var(name).ok().and_then(|v| v.trim().parse::<u64>().ok());
        if let Some(ms) = ms("CARCASSONNE_BOT_DELAY_MS") {
            c.bot_delay = Duration::from_millis(ms.min(60_000));
        }
        if let Some(ms) = ms("CARCASSONNE_HEADER_TIMEOUT_MS").filter(|&m| m > 0) {
            c.header_timeout = Duration::from_millis(ms.min(600_000));
        }
        if let Some(ms) = ms("CARCASSONNE_BODY_TIMEOUT_MS").filter(|&m| m > 0) {
            c.body_timeout = Duration::from_millis(ms.min(600_000));
        }
        if let Ok(key) = std::env::var("CARCASSONNE_VAPID_KEY") {
            c.push.vapid_key = Some(key).filter(|k| !k.trim().is_empty());
        }
        if let Ok(subject) = std::env::var("CARCASSONNE_VAPID_SUBJECT") {
            c.push.subject = subject.trim().to_string();
        }
        if std::env::var("CARCASSONNE_SECURE_COOKIES").is_ok_and(|v| v.trim() == "1") {
            c.secure_cookies = true;
        }
        if let Ok(v) = std::env::var("CARCASSONNE_PUBLIC_URL") {
            c.public_url = Some(v.trim().trim_end_matches('/').to_string()).filter(|v| !v.is_empty());
        }
        if let Ok(v) = std::env::var("CARCASSONNE_ADMIN") {
            c.operators.extend(operator_names(&v));
        }
        if let Ok(v) = std::env::var("CARCASSONNE_RATE_LIMIT") {
            let v = v.trim();
            if v == "off" || v == "0" {
                c.http_rate = None;
                c.ws_rate = None;
            } else if let Ok(n) = v.parse::<u32>() {
                c.http_rate = Some(Rate { per_second: n, burst: n.saturating_mul(4) });
            }
        }
        c
    }

    /// Settings for tests: bots move at once and think briefly, no limits.
    pub fn quick() -> Config {
        Config {
            bot_delay: Duration::ZERO,
            quick_bots: true,
            password_cost: PasswordCost::TESTS,
            // (Tests of rated games sign up their players just before.)
            rated_min_age: Duration::ZERO,
            rated_min_games: 0,
            ..Config::unlimited()
        }
    }

    /// The defaults without rate limits, quotas, caps on connections and
    /// sockets, or expiry (load tests, and tests of other things).
    pub fn unlimited() -> Config {
        Config {
            http_rate: None,
            ws_rate: None,
            max_connections: usize::MAX,
            max_connections_per_ip: usize::MAX,
            max_sockets_per_ip: usize::MAX,
            max_sockets_per_game: usize::MAX,
            max_reviews: usize::MAX,
            max_reviews_per_ip: usize::MAX,
            max_spectators_per_ip_per_game: usize::MAX,
            max_new_games_per_hour_per_ip: usize::MAX,
            max_active_games_per_ip: usize::MAX,
            max_kept_games_per_ip: usize::MAX,
            expire_after: None,
            ..Config::default()
        }
    }
}

/// The operators' names a comma-separated list gives (`CARCASSONNE_ADMIN`,
/// `serve --admin`): each trimmed, empty ones left out.
pub fn operator_names(list: &str) -> impl Iterator<Item = String> + '_ {
    list.split(',').map(str::trim).filter(|n| !n.is_empty()).map(str::to_string)
}

// Web Push (services/push.rs; docs/web.md, *Notifications*).

/// Targets (seats and accounts) one browser's push endpoint follows at most.
pub const PUSH_PER_ENDPOINT: usize = 32;
/// Browsers (push endpoints) one seat or one account is followed by at most.
pub const PUSH_PER_TARGET: usize = 8;
/// Subscriptions made from one client address (an IPv6 address by its
/// prefix, `Config::ipv6_prefix`) kept at once, by anyone not signed in.
pub const PUSH_PER_ADDRESS: usize = 64;
/// Subscriptions made by one signed-in account kept at once: its own share,
/// apart from its address's.
pub const PUSH_PER_ACCOUNT: usize = 128;

/// Web Push's settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PushSettings {
    /// The operator's VAPID private key (base64url of its 32 bytes, or a PEM
    /// SEC1/PKCS#8 P-256 key): `None`, the storage's own (made on first
    /// start, shared by every server of the storage).
    pub vapid_key: Option<String>,
    /// Who the push services may write to about this server: the JWT's
    /// `sub` (`mailto:…` or `https://…`).
    pub subject: String,
    /// Push endpoints `http://127.0.0.1`, `http://localhost` and
    /// `http://[::1]` are accepted (tests and development only: otherwise
    /// an endpoint is https, on port 443, at a public address).
    pub allow_loopback_http: bool,
}

impl Default for PushSettings {
    fn default() -> Self {
        PushSettings { vapid_key: None, subject: "mailto:push@carcassonne.invalid".into(), allow_loopback_http: false }
    }
}

// Reports (services/moderation.rs; docs/web.md, *Blocking and reporting*).

/// Open reports, waiting for the operator: how many each reporter and each
/// address may have, how many in all (the disk is finite), and of those the
/// places only reporters with a history (`LobbySettings::known_after`…)
/// may take, so that a crowd of fresh addresses and guest seats filling
/// its share leaves the people the server knows free to report.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReportSettings {
    pub per_reporter: usize,
    pub per_address: usize,
    pub total: usize,
    /// Of `total`, the places kept for reporters with a history.
    pub kept: usize,
}

impl Default for ReportSettings {
    fn default() -> Self {
        ReportSettings { per_reporter: 50, per_address: 100, total: 20_000, kept: 5_000 }
    }
}

/// Passkey ceremonies under way at once (each a row in the store until it
/// is finished or expires), across the servers sharing the database: at
/// most `total`, of which `kept` only people with a history may begin
/// (`LobbySettings::known_after`…: a sign-in from a device of such an
/// account, or such an account adding a passkey), so that a crowd of fresh
/// addresses filling the rest leaves them free to sign in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PasskeyCeremonies {
    pub total: usize,
    pub kept: usize,
}

impl Default for PasskeyCeremonies {
    fn default() -> Self {
        PasskeyCeremonies { total: 5_000, kept: 1_000 }
    }
}

// The lobby (services/lobby/; docs/web.md, *Lobby*).

/// The lobby's doors: how many tables and waits it holds, each person's
/// share, and the places only people with a history may take, so that a
/// crowd of fresh addresses can at worst slow newcomers, never shut out
/// people already known. A person with a history ("known") is a signed-in
/// account at least `known_after` old with `known_rated_games` rated games
/// played to the end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LobbySettings {
    /// Tables in the lobby at most, open and lately started.
    pub max_tables: usize,
    /// Of those, the places only hosts with a history may take.
    pub tables_kept: usize,
    /// Open tables per host (account, or address for a guest), and per
    /// address among hosts without a history.
    pub tables_per_host: usize,
    /// People waiting for "Play now" at most.
    pub max_waits: usize,
    /// Of those, the places only people with a history may take.
    pub waits_kept: usize,
    /// Pairings with another person per person in `pairings_window`: one
    /// who waits again and again is the opponent of a few people at most.
    pub pairings_per_person: usize,
    pub pairings_window: std::time::Duration,
    /// An account's age and rated games played to the end before it counts
    /// as known.
    pub known_after: std::time::Duration,
    pub known_rated_games: i64,
    /// A table or a wait whose socket no server has said open for this
    /// long is gone (a server says so for its sockets every third of it).
    pub hold_gone: std::time::Duration,
}

impl Default for LobbySettings {
    fn default() -> Self {
        LobbySettings {
            max_tables: 200,
            tables_kept: 50,
            tables_per_host: 3,
            max_waits: 1000,
            waits_kept: 250,
            pairings_per_person: 3,
            pairings_window: std::time::Duration::from_secs(10 * 60),
            known_after: std::time::Duration::from_secs(24 * 3600),
            known_rated_games: 1,
            hold_gone: std::time::Duration::from_secs(30),
        }
    }
}

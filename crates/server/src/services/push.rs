//! Web Push: telling a browser whose page is closed that it is its turn,
//! or that its invite was taken (docs/web.md, *Notifications*).
//!
//! * **Keys.** The server signs its requests to the push services with a
//!   VAPID key (RFC 8292): the operator's (`Config::push`), or one made on
//!   first start and kept in the storage, so that every server sharing a
//!   database signs with the same key (`PushRepo::vapid_key`).
//! * **Subscriptions.** A browser subscribes (its push service's endpoint,
//!   its P-256 key and auth secret) for a seat, proved by the seat's token,
//!   or for the signed-in account; within bounds ([`PER_ENDPOINT`],
//!   [`PER_TARGET`], and per subscriber: [`PER_ADDRESS`] for a client
//!   address, [`PER_ACCOUNT`] for a signed-in account, counted apart).
//!   Endpoints are https on port 443 at a public address (checked again,
//!   resolved, when a message is sent: see [`allowed_ip`]). A game's end
//!   forgets its seats' subscriptions.
//! * **Sending** is background work: a move only puts a message on a
//!   bounded queue ([`QUEUE`]; when full, the message is dropped and logged),
//!   a worker sends it, [`SENDS_AT_ONCE`] at a time, each within
//!   [`SEND_TIMEOUT`]. The payload is encrypted for the browser (RFC 8291,
//!   `aes128gcm`, by the `web-push-native` crate); the request is ours (a
//!   plain hyper client over rustls, connecting only to the address it
//!   checked). A push service answering 404 or 410 has forgotten the
//!   subscription: it is removed.

use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use fluent_bundle::FluentValue;
use p256::ecdsa::signature::Signer as _;
use p256::elliptic_curve::sec1::ToEncodedPoint as _;
use serde::Deserialize;
use serde_json::{json, Value};
use tokio::sync::{mpsc, OnceCell, Semaphore};

use super::games::live::{Live, Table, Viewer};
use super::games::Games;
use super::ids::now_ms;
use crate::config::PushSettings;
use crate::error::ApiError;
use crate::i18n::{self, Lang};
use crate::store::{Account, PushRepo, PushSubscription, Seat, Store};

/// The longest endpoint URL accepted (the push services' are 150–500 bytes).
pub const MAX_ENDPOINT: usize = 1024;
pub use crate::config::{
    PUSH_PER_ACCOUNT as PER_ACCOUNT, PUSH_PER_ADDRESS as PER_ADDRESS, PUSH_PER_ENDPOINT as PER_ENDPOINT,
    PUSH_PER_TARGET as PER_TARGET,
};
/// Messages waiting to be sent, at most: a move never waits for the queue.
pub const QUEUE: usize = 256;
/// Requests to push services under way at once.
pub const SENDS_AT_ONCE: usize = 8;
/// The time one request to a push service may take, connection included.
pub const SEND_TIMEOUT: Duration = Duration::from_secs(10);
/// How long a push service keeps a "your turn" for a browser that is away (a day).
pub const TURN_TTL: u32 = 24 * 3600;
/// How long it keeps "your invite was taken" (an hour: later it is old news).
pub const INVITE_TTL: u32 = 3600;
/// How long a VAPID signature is valid (at most 24 hours, RFC 8292).
const JWT_VALID: Duration = Duration::from_secs(12 * 3600);

/// The server's VAPID key pair.
pub struct Vapid {
    key: p256::ecdsa::SigningKey,
    /// The public key as the browsers want it: base64url of its 65
    /// uncompressed bytes (`applicationServerKey`).
    public: String,
}

impl Vapid {
    /// A key from its text: base64url of the 32-byte scalar, or a PEM
    /// (SEC1 `EC PRIVATE KEY` or PKCS#8 `PRIVATE KEY`) P-256 key.
    ///
    /// # Errors
    /// Anything else.
    pub fn parse(text: &str) -> Result<Vapid, String> {
        let text = text.trim();
        let secret = if text.starts_with("-----BEGIN") {
            use p256::pkcs8::DecodePrivateKey as _;
            p256::SecretKey::from_pkcs8_pem(text)
                .or_else(|_| p256::SecretKey::from_sec1_pem(text))
                .map_err(|e| format!("not a P-256 private key in PEM: {e}"))?
        } else {
            let bytes =
                URL_SAFE_NO_PAD.decode(text.trim_end_matches('=')).map_err(|e| format!("not base64url: {e}"))?;
            if bytes.len() != 32 {
                return Err(format!("a P-256 private key is 32 bytes, not {}", bytes.len()));
            }
            p256::SecretKey::from_slice(&bytes).map_err(|_| "not a P-256 private key".to_string())?
        };
        let public = secret.public_key().to_encoded_point(false);
        Ok(Vapid { key: secret.into(), public: URL_SAFE_NO_PAD.encode(public.as_bytes()) })
    }

    /// A new key, as text for [`Vapid::parse`].
    fn generate() -> Result<String, String> {
        loop {
            let mut bytes = [0u8; 32];
            getrandom::fill(&mut bytes).map_err(|e| format!("no randomness: {e}"))?;
            if p256::SecretKey::from_slice(&bytes).is_ok() {
                return Ok(URL_SAFE_NO_PAD.encode(bytes));
            }
        }
    }

    /// The public key, base64url (what `GET /api/push/key` serves).
    pub fn public_key(&self) -> &str {
        &self.public
    }

    /// The `Authorization` header of a request to `origin` (RFC 8292:
    /// `vapid t=<JWT ES256>, k=<public key>`).
    fn authorization(&self, origin: &str, subject: &str, now_s: u64) -> String {
        let header = URL_SAFE_NO_PAD.encode(br#"{"typ":"JWT","alg":"ES256"}"#);
        let claims = json!({ "aud": origin, "exp": now_s + JWT_VALID.as_secs(), "sub": subject });
        let claims = URL_SAFE_NO_PAD.encode(claims.to_string());
        let input = format!("{header}.{claims}");
        let signature: p256::ecdsa::Signature = self.key.sign(input.as_bytes());
        format!("vapid t={input}.{}, k={}", URL_SAFE_NO_PAD.encode(signature.to_bytes()), self.public)
    }
}

/// One message for the browsers following some targets.
struct Job {
    targets: Vec<String>,
    /// What the service worker reads (`kind`, `game`, `seat`, `url`);
    /// `title` and `body` are added in each subscription's language.
    payload: Value,
    words: Words,
    ttl: u32,
    urgency: &'static str,
    /// A newer message of the same topic replaces one not yet delivered.
    topic: Option<String>,
}

/// A notification's title and body: their messages (`web/i18n/*.ftl`) and
/// the arguments they take, written in each subscription's language.
struct Words {
    title: &'static str,
    body: &'static str,
    args: Vec<(&'static str, String)>,
}

impl Words {
    /// `payload` with the title and body in `lang` (English if `lang` is
    /// not one the server speaks), as the JSON sent.
    fn payload_in(&self, payload: &Value, lang: &str) -> String {
        let lang = Lang::from_code(lang).unwrap_or(Lang::En);
        let args: Vec<(&str, FluentValue<'_>)> =
            self.args.iter().map(|(k, v)| (*k, FluentValue::from(v.as_str()))).collect();
        let say = |key: &str| i18n::text(lang, key, &args).or_else(|| i18n::text(Lang::En, key, &args));
        let mut payload = payload.clone();
        payload["title"] = say(self.title).unwrap_or_else(|| "Carcassonne".into()).into();
        payload["body"] = say(self.body).unwrap_or_default().into();
        payload.to_string()
    }
}

/// A target, its game (a seat's) and its account (an account's).
type Target = (String, Option<String>, Option<String>);

/// Web Push: subscriptions, and the notifications sent in the background.
pub struct Push {
    repo: Arc<dyn PushRepo>,
    games: Arc<Games>,
    settings: PushSettings,
    vapid: Arc<OnceCell<Arc<Vapid>>>,
    queue: mpsc::Sender<Job>,
    waiting: Mutex<Option<mpsc::Receiver<Job>>>,
    /// Invited seats known to be taken (so that a reconnecting invitee
    /// costs the storage nothing); forgotten when it holds [`TAKEN_KEPT`].
    taken: Mutex<std::collections::HashSet<(String, usize)>>,
}

/// The most invited seats remembered as taken.
const TAKEN_KEPT: usize = 10_000;

impl Push {
    pub fn new(store: &Store, games: Arc<Games>, settings: PushSettings) -> Push {
        let (queue, waiting) = mpsc::channel(QUEUE);
        Push {
            repo: Arc::clone(&store.push),
            games,
            settings,
            vapid: Arc::default(),
            queue,
            waiting: Mutex::new(Some(waiting)),
            taken: Mutex::default(),
        }
    }
}

/// Who subscribes: the share a subscription counts in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Subscriber {
    /// A signed-in account: its own share ([`PER_ACCOUNT`]), whoever else
    /// is at its address.
    Account(String),
    /// Anyone else, by client address (an IPv6 address by its prefix):
    /// [`PER_ADDRESS`].
    Address(IpAddr),
}

impl Subscriber {
    /// The key its subscriptions are counted under (`PushSubscription::owner`).
    fn owner(&self) -> String {
        match self {
            Subscriber::Account(id) => format!("account:{id}"),
            Subscriber::Address(ip) => format!("addr:{ip}"),
        }
    }

    /// Its share.
    fn share(&self) -> usize {
        match self {
            Subscriber::Account(_) => PER_ACCOUNT,
            Subscriber::Address(_) => PER_ADDRESS,
        }
    }
}

/// A subscription as the browser's `PushSubscription.toJSON()` gives it.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BrowserSubscription {
    pub endpoint: String,
    #[serde(default, rename = "expirationTime")]
    pub expiration_time: Option<Value>,
    pub keys: BrowserKeys,
}

/// A subscription's keys, base64url.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BrowserKeys {
    pub p256dh: String,
    pub auth: String,
}

/// What a subscription is for: the seats the tokens hold in `game`, or the
/// signed-in account (`account: true`).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PushFor {
    #[serde(default)]
    pub game: Option<String>,
    /// Seat tokens, comma-separated.
    #[serde(default)]
    pub tokens: Option<String>,
    #[serde(default)]
    pub account: bool,
}

/// The target of a seat.
pub fn seat_target(game: &str, seat: usize) -> String {
    format!("seat:{game}:{seat}")
}

/// The target of an account.
pub fn account_target(account: &str) -> String {
    format!("account:{account}")
}

/// Whether a push service at `ip` may be written to: a public address
/// (never loopback, private, link-local, shared, multicast, documentation or
/// reserved ranges, nor IPv6 forms of those), or loopback when the settings
/// allow it (tests).
pub fn allowed_ip(ip: IpAddr, settings: &PushSettings) -> bool {
    if ip.is_loopback() {
        return settings.allow_loopback_http;
    }
    match ip {
        IpAddr::V4(v4) => public_v4(v4),
        IpAddr::V6(v6) => {
            if let Some(v4) = v6.to_ipv4_mapped() {
                return allowed_ip(IpAddr::V4(v4), settings);
            }
            let s = v6.segments();
            !(v6.is_unspecified()
                || v6.is_multicast()
                || (s[0] & 0xfe00) == 0xfc00 // unique local
                || (s[0] & 0xffc0) == 0xfe80 // link-local
                || (s[0] & 0xffc0) == 0xfec0 // site-local (deprecated)
                || (s[0] == 0x2001 && s[1] == 0x0db8) // documentation
                || (s[0] == 0x0064 && s[1] == 0xff9b) // NAT64: an IPv4 address inside
                || (s[0] == 0x2002) // 6to4: the same
                || (s[0] == 0x2001 && s[1] == 0)) // Teredo
        }
    }
}

fn public_v4(ip: std::net::Ipv4Addr) -> bool {
    let o = ip.octets();
    !(ip.is_private()
        || ip.is_loopback()
        || ip.is_link_local()
        || ip.is_broadcast()
        || ip.is_documentation()
        || ip.is_unspecified()
        || ip.is_multicast()
        || o[0] == 0
        || (o[0] == 100 && (o[1] & 0xc0) == 64) // shared (CGNAT) 100.64/10
        || (o[0] == 192 && o[1] == 0 && o[2] == 0) // IETF protocol assignments
        || (o[0] == 198 && (o[1] & 0xfe) == 18) // benchmarking 198.18/15
        || o[0] >= 240) // reserved
}

/// A checked endpoint: its URL, host, port and whether it is https.
#[derive(Clone, Debug)]
struct Endpoint {
    uri: axum::http::Uri,
    host: String,
    port: u16,
    tls: bool,
}

impl Endpoint {
    /// `url` as an endpoint this server may write to (before resolving its
    /// host): https on port 443 (or http on loopback when allowed), no user
    /// name, a host that is not an address this server may not reach.
    fn parse(url: &str, settings: &PushSettings) -> Result<Endpoint, String> {
        if url.len() > MAX_ENDPOINT {
            return Err(format!("an endpoint is at most {MAX_ENDPOINT} bytes"));
        }
        let uri: axum::http::Uri = url.parse().map_err(|_| "the endpoint is not a URL".to_string())?;
        let authority = uri.authority().ok_or("the endpoint has no host")?.clone();
        if authority.as_str().contains('@') {
            return Err("the endpoint may not carry a user name".into());
        }
        let host = authority.host().trim_start_matches('[').trim_end_matches(']').to_ascii_lowercase();
        if host.is_empty() {
            return Err("the endpoint has no host".into());
        }
        let ip = host.parse::<IpAddr>().ok();
        let loopback = host == "localhost" || ip.is_some_and(|ip| ip.is_loopback());
        let (tls, port) = match uri.scheme_str() {
            Some("https") => (true, authority.port_u16().unwrap_or(443)),
            Some("http") if settings.allow_loopback_http && loopback => (false, authority.port_u16().unwrap_or(80)),
            _ => return Err("the endpoint must be an https URL".into()),
        };
        if tls && port != 443 && !(settings.allow_loopback_http && loopback) {
            return Err("the endpoint must be on port 443".into());
        }
        if loopback && !settings.allow_loopback_http {
            return Err("the endpoint must be at a public address".into());
        }
        if ip.is_some_and(|ip| !allowed_ip(ip, settings))
            || host.ends_with(".localhost")
            || host.ends_with(".local")
            || host.ends_with(".internal")
            || (ip.is_none() && !host.contains('.') && host != "localhost")
        {
            return Err("the endpoint must be at a public address".into());
        }
        Ok(Endpoint { uri, host, port, tls })
    }

    /// `scheme://host[:port]`: the JWT's audience.
    fn origin(&self) -> String {
        let scheme = if self.tls { "https" } else { "http" };
        let default = if self.tls { 443 } else { 80 };
        let host = if self.host.contains(':') { format!("[{}]", self.host) } else { self.host.clone() };
        if self.port == default {
            format!("{scheme}://{host}")
        } else {
            format!("{scheme}://{host}:{}", self.port)
        }
    }
}

/// A subscription's keys decoded and checked: the browser's public key (a
/// point of P-256) and its 16-byte auth secret.
fn browser_keys(keys: &BrowserKeys) -> Result<(p256::PublicKey, [u8; 16]), String> {
    if keys.p256dh.len() > 100 || keys.auth.len() > 32 {
        return Err("the subscription's keys are too long".into());
    }
    let decode = |s: &str| URL_SAFE_NO_PAD.decode(s.trim_end_matches('='));
    let public = decode(&keys.p256dh).map_err(|_| "keys.p256dh is not base64url")?;
    if public.len() != 65 {
        return Err("keys.p256dh is not an uncompressed P-256 key (65 bytes)".into());
    }
    let public = p256::PublicKey::from_sec1_bytes(&public).map_err(|_| "keys.p256dh is not a P-256 key")?;
    let auth = decode(&keys.auth).map_err(|_| "keys.auth is not base64url")?;
    let auth: [u8; 16] = auth.try_into().map_err(|_| "keys.auth is not 16 bytes")?;
    Ok((public, auth))
}

impl Push {
    /// The VAPID key: the operator's, or the storage's (made now if it has none).
    ///
    /// # Errors
    /// `storage_error`: the storage fails, or the key does not parse.
    pub async fn vapid(&self) -> Result<Arc<Vapid>, ApiError> {
        vapid_of(&self.vapid, &self.settings, self.repo.as_ref()).await
    }

    /// Makes sure the VAPID key is there (at start: a bad operator key stops the server).
    ///
    /// # Errors
    /// As [`Push::vapid`].
    pub async fn ready(&self) -> Result<(), ApiError> {
        self.vapid().await.map(|_| ())
    }

    /// Keeps `sub` for the seats `what.tokens` hold in `what.game`, or for
    /// `account` (`what.account`), in `by`'s share: the targets it now
    /// follows (none for a game that is over: it has nothing more to say).
    /// All of them or, refused, none.
    ///
    /// # Errors
    /// `bad_subscription` (malformed, oversized, an endpoint this server
    /// may not write to), `bad_request`, `not_found`, `unauthorized`,
    /// `too_many_tokens`, `not_signed_in`, `too_many_subscriptions`, `storage_error`.
    pub async fn subscribe(
        &self,
        sub: &BrowserSubscription,
        what: &PushFor,
        account: Option<&Account>,
        by: &Subscriber,
        lang: Lang,
    ) -> Result<Vec<String>, ApiError> {
        Endpoint::parse(&sub.endpoint, &self.settings).map_err(ApiError::BadSubscription)?;
        browser_keys(&sub.keys).map_err(ApiError::BadSubscription)?;
        let (targets, over) = self.targets(what, account).await?;
        if over {
            return Ok(Vec::new());
        }
        let (now, owner) = (now_ms(), by.owner());
        let rows: Vec<PushSubscription> = targets
            .into_iter()
            .map(|(target, game_id, account)| PushSubscription {
                endpoint: sub.endpoint.clone(),
                p256dh: sub.keys.p256dh.trim_end_matches('=').to_string(),
                auth: sub.keys.auth.trim_end_matches('=').to_string(),
                target,
                game_id,
                account,
                created_at: now,
                lang: lang.code().to_string(),
                owner: owner.clone(),
            })
            .collect();
        if !self.repo.subscribe(&rows, PER_ENDPOINT, PER_TARGET, by.share()).await? {
            return Err(ApiError::TooManySubscriptions);
        }
        Ok(rows.into_iter().map(|r| r.target).collect())
    }

    /// Removes `endpoint`'s subscriptions to what `what` names (to
    /// everything when it names nothing: knowing the endpoint, a secret of
    /// the browser's, is enough): how many went.
    ///
    /// # Errors
    /// As [`Push::subscribe`].
    pub async fn unsubscribe(
        &self,
        endpoint: &str,
        what: &PushFor,
        account: Option<&Account>,
    ) -> Result<u64, ApiError> {
        if endpoint.is_empty() || endpoint.len() > MAX_ENDPOINT {
            return Err(ApiError::BadSubscription(format!("an endpoint is 1 to {MAX_ENDPOINT} bytes")));
        }
        if what.game.is_none() && what.tokens.is_none() && !what.account {
            return Ok(self.repo.unsubscribe(endpoint, None).await?);
        }
        let mut removed = 0;
        for (target, _, _) in self.targets(what, account).await?.0 {
            removed += self.repo.unsubscribe(endpoint, Some(&target)).await?;
        }
        Ok(removed)
    }

    /// The targets a request names: (target, game, account), and whether
    /// their game is over.
    async fn targets(&self, what: &PushFor, account: Option<&Account>) -> Result<(Vec<Target>, bool), ApiError> {
        match (&what.game, &what.tokens, what.account) {
            (None, None, true) => {
                let account = account.ok_or(ApiError::NotSignedIn)?;
                Ok((vec![(account_target(&account.id), None, Some(account.id.clone()))], false))
            }
            (Some(game), Some(tokens), false) => {
                let tokens: Vec<&str> = tokens.split(',').collect();
                if tokens.len() > carcassonne::MAX_PLAYERS {
                    return Err(ApiError::TooManyTokens);
                }
                let live = self.games.game(game).await?;
                let table = live.lock().await;
                let viewer = Viewer::from_tokens(&table.seats, tokens)?;
                if viewer.seats.is_empty() {
                    return Err(ApiError::Unauthorized);
                }
                let targets = viewer
                    .seats
                    .iter()
                    .map(|p| (seat_target(&live.id, p.index()), Some(live.id.clone()), None))
                    .collect();
                Ok((targets, table.game.is_over()))
            }
            _ => Err(ApiError::BadRequest(
                "name a game and its seat tokens (\"game\", \"tokens\"), or \"account\": true".into(),
            )),
        }
    }

    /// After a move: tells the seat to move that it is its turn, if it is a
    /// person with no websocket open on the game (on any server). Called by
    /// the server that stored the move (only one can: `append_move`), once.
    /// The game's last move forgets its seats' subscriptions instead.
    pub fn notify_turn(&self, live: &Live, table: &Table) {
        if table.game.is_over() {
            self.game_over(&live.id);
            return;
        }
        let Some(p) = table.game.to_move() else { return };
        let Some(Seat::Human { name, account, .. }) = table.seats.get(p.index()) else { return };
        // A player on the game's page (a websocket open) needs no
        // notification; one away is told, in any game, timed or turn-based.
        if table.seat_online(p.index()) {
            return;
        }
        let others: Vec<&str> =
            table.seats.iter().enumerate().filter(|(i, _)| *i != p.index()).map(|(_, s)| s.name()).collect();
        let payload = json!({
            "kind": "turn",
            "game": live.id,
            "seat": p.index(),
            "url": format!("/#/game/{}", live.id),
        });
        let words = Words {
            title: "push-turn-title",
            body: "push-turn-body",
            args: vec![("game", live.id.clone()), ("name", name.clone()), ("others", others.join(", "))],
        };
        // The browsers following the seat, and those following its account.
        let mut targets = vec![seat_target(&live.id, p.index())];
        targets.extend(account.as_deref().filter(|a| *a != crate::store::DELETED_ACCOUNT).map(account_target));
        self.enqueue(Job { targets, payload, words, ttl: TURN_TTL, urgency: "high", topic: topic(&live.id, "t") });
    }

    /// A websocket of `viewer` opened on `live`: an invited seat it holds
    /// that nobody had taken yet is taken now, and the creator's seats are told
    /// (once, whichever server the invitee came to: `PushRepo::invite_taken`).
    pub async fn notify_invite_taken(&self, live: &Live, viewer: &Viewer) {
        let invited: Vec<(usize, String)> = {
            let table = live.lock().await;
            viewer
                .seats
                .iter()
                .filter_map(|p| match table.seats.get(p.index()) {
                    Some(Seat::Human { name, remote: true, .. }) => Some((p.index(), name.clone())),
                    _ => None,
                })
                .collect()
        };
        if invited.is_empty() {
            return;
        }
        let creators: Vec<String> = {
            let table = live.lock().await;
            table
                .seats
                .iter()
                .enumerate()
                .filter(|(_, s)| matches!(s, Seat::Human { remote: false, .. }))
                .map(|(i, _)| seat_target(&live.id, i))
                .collect()
        };
        for (seat, name) in invited {
            {
                let mut taken = self.taken.lock().unwrap_or_else(|e| e.into_inner());
                if taken.len() >= TAKEN_KEPT {
                    taken.clear();
                }
                if !taken.insert((live.id.clone(), seat)) {
                    continue;
                }
            }
            match self.repo.invite_taken(&live.id, seat as u8).await {
                Ok(true) if !creators.is_empty() => self.enqueue(Job {
                    targets: creators.clone(),
                    payload: json!({
                        "kind": "invite",
                        "game": live.id,
                        "seat": seat,
                        "url": format!("/#/game/{}", live.id),
                    }),
                    words: Words {
                        title: "push-invite-title",
                        body: "push-invite-body",
                        args: vec![("game", live.id.clone()), ("name", name.clone())],
                    },
                    ttl: INVITE_TTL,
                    urgency: "normal",
                    topic: None,
                }),
                Ok(_) => {}
                Err(e) => tracing::warn!(game = %live.id, error = %e, "cannot mark an invite taken"),
            }
        }
    }

    /// Puts a message on the queue, or drops it (logged) when the queue is full.
    fn enqueue(&self, job: Job) {
        if let Err(e) = self.queue.try_send(job) {
            tracing::warn!(error = %e, "push queue full: a notification is dropped");
        }
    }

    /// Forgets the seats' subscriptions of game `id`, which just ended (in
    /// the background: the last move does not wait for it).
    fn game_over(&self, id: &str) {
        let (repo, id) = (Arc::clone(&self.repo), id.to_string());
        if tokio::runtime::Handle::try_current().is_ok() {
            tokio::spawn(async move {
                if let Err(e) = repo.forget_game(&id).await {
                    tracing::warn!(game = %id, error = %e, "cannot forget an ended game's push subscriptions");
                }
            });
        }
    }

    /// Starts the worker that sends the queued messages (inside a runtime).
    pub fn start(&self) {
        let Some(mut waiting) = self.waiting.lock().unwrap_or_else(|e| e.into_inner()).take() else {
            return;
        };
        // The worker holds the storage, never the service: it ends when the
        // service (and with it the queue's sender) is dropped.
        let store = Arc::clone(&self.repo);
        let settings = self.settings.clone();
        let cell = Arc::clone(&self.vapid);
        tokio::spawn(async move {
            let sends = Arc::new(Semaphore::new(SENDS_AT_ONCE));
            let tls = tls_connector();
            while let Some(job) = waiting.recv().await {
                let vapid = match vapid_of(&cell, &settings, store.as_ref()).await {
                    Ok(v) => v,
                    Err(e) => {
                        tracing::warn!(error = %e, "no VAPID key: a notification is dropped");
                        continue;
                    }
                };
                let job = Arc::new(job);
                for target in &job.targets {
                    let subs = match store.subscriptions(target).await {
                        Ok(subs) => subs,
                        Err(e) => {
                            tracing::warn!(%target, error = %e, "cannot read push subscriptions");
                            continue;
                        }
                    };
                    for sub in subs {
                        let Ok(permit) = Arc::clone(&sends).acquire_owned().await else { return };
                        let (store, settings, vapid, tls) =
                            (Arc::clone(&store), settings.clone(), Arc::clone(&vapid), tls.clone());
                        let job = Arc::clone(&job);
                        tokio::spawn(async move {
                            let (body, urgency, ttl, topic) = (
                                job.words.payload_in(&job.payload, &sub.lang),
                                job.urgency,
                                job.ttl,
                                job.topic.clone(),
                            );
                            let message = Message { body: &body, ttl, urgency, topic: topic.as_deref() };
                            let sent =
                                tokio::time::timeout(SEND_TIMEOUT, send(&sub, &message, &vapid, &settings, &tls)).await;
                            drop(permit);
                            match sent {
                                Ok(Ok(404 | 410)) => {
                                    tracing::info!("a push subscription is gone: removed");
                                    if let Err(e) = store.unsubscribe(&sub.endpoint, None).await {
                                        tracing::warn!(error = %e, "cannot remove a gone push subscription");
                                    }
                                }
                                Ok(Ok(status)) if (200..300).contains(&status) => {
                                    tracing::debug!(status, "push sent");
                                }
                                Ok(Ok(status)) => tracing::warn!(status, "a push service refused a notification"),
                                Ok(Err(e)) => tracing::warn!(error = %e, "cannot send a notification"),
                                Err(_) => tracing::warn!("a push service took too long"),
                            }
                        });
                    }
                }
            }
        });
    }
}

/// The VAPID key kept in `cell`, loaded (or made) the first time.
async fn vapid_of(
    cell: &OnceCell<Arc<Vapid>>,
    settings: &PushSettings,
    store: &dyn PushRepo,
) -> Result<Arc<Vapid>, ApiError> {
    let key = cell
        .get_or_try_init(|| async {
            let text = match &settings.vapid_key {
                Some(text) => text.clone(),
                None => {
                    let candidate = Vapid::generate().map_err(ApiError::Storage)?;
                    store.vapid_key(&candidate, now_ms()).await?
                }
            };
            Vapid::parse(&text).map(Arc::new).map_err(|e| ApiError::Storage(format!("the VAPID key: {e}")))
        })
        .await?;
    Ok(Arc::clone(key))
}

/// The push service's topic for game `id` (at most 32 base64url characters).
fn topic(id: &str, kind: &str) -> Option<String> {
    let t = format!("{kind}{id}");
    (t.len() <= 32 && t.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')).then_some(t)
}

/// What one request carries.
struct Message<'a> {
    body: &'a str,
    ttl: u32,
    urgency: &'static str,
    topic: Option<&'a str>,
}

fn tls_connector() -> tokio_rustls::TlsConnector {
    let roots = rustls::RootCertStore { roots: webpki_roots::TLS_SERVER_ROOTS.to_vec() };
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map(|b| b.with_root_certificates(roots).with_no_client_auth())
        .unwrap_or_else(|_| {
            rustls::ClientConfig::builder_with_provider(Arc::new(rustls::crypto::ring::default_provider()))
                .with_protocol_versions(&[&rustls::version::TLS13])
                .expect("ring supports TLS 1.3")
                .with_root_certificates(rustls::RootCertStore::empty())
                .with_no_client_auth()
        });
    tokio_rustls::TlsConnector::from(Arc::new(config))
}

/// Sends one encrypted message to one subscription: the push service's status.
async fn send(
    sub: &PushSubscription,
    message: &Message<'_>,
    vapid: &Vapid,
    settings: &PushSettings,
    tls: &tokio_rustls::TlsConnector,
) -> Result<u16, String> {
    use http_body_util::Full;
    use hyper_util::rt::TokioIo;

    let endpoint = Endpoint::parse(&sub.endpoint, settings)?;
    let (public, auth) = browser_keys(&BrowserKeys { p256dh: sub.p256dh.clone(), auth: sub.auth.clone() })?;
    let auth = web_push_native::Auth::clone_from_slice(&auth);
    let payload = web_push_native::encrypt(message.body.as_bytes().to_vec(), &public, &auth)
        .map_err(|e| format!("cannot encrypt: {e}"))?;
    // The host is resolved once and checked: the connection goes to the
    // address checked (a name that resolves elsewhere later changes nothing).
    let addrs: Vec<SocketAddr> = match endpoint.host.parse::<IpAddr>() {
        Ok(ip) => vec![SocketAddr::new(ip, endpoint.port)],
        Err(_) => tokio::net::lookup_host((endpoint.host.as_str(), endpoint.port))
            .await
            .map_err(|e| format!("cannot resolve {}: {e}", endpoint.host))?
            .collect(),
    };
    let addr = addrs
        .into_iter()
        .find(|a| allowed_ip(a.ip(), settings))
        .ok_or_else(|| format!("{} is not at a public address", endpoint.host))?;
    let tcp = tokio::net::TcpStream::connect(addr).await.map_err(|e| format!("cannot connect: {e}"))?;
    let now_s = u64::try_from(now_ms() / 1000).unwrap_or(0);
    let path = endpoint.uri.path_and_query().map_or("/", |p| p.as_str()).to_string();
    let mut request = axum::http::Request::post(path)
        .header(axum::http::header::HOST, endpoint.uri.authority().map_or("", |a| a.as_str()))
        .header("TTL", message.ttl)
        .header("Urgency", message.urgency)
        .header(axum::http::header::CONTENT_ENCODING, "aes128gcm")
        .header(axum::http::header::CONTENT_TYPE, "application/octet-stream")
        .header(axum::http::header::AUTHORIZATION, vapid.authorization(&endpoint.origin(), &settings.subject, now_s));
    if let Some(topic) = message.topic {
        request = request.header("Topic", topic);
    }
    let request =
        request.body(Full::new(axum::body::Bytes::from(payload))).map_err(|e| format!("a bad request: {e}"))?;
    let status = if endpoint.tls {
        let name = rustls::pki_types::ServerName::try_from(endpoint.host.clone())
            .map_err(|e| format!("a bad host name: {e}"))?;
        let stream = tls.connect(name, tcp).await.map_err(|e| format!("TLS: {e}"))?;
        exchange(TokioIo::new(stream), request).await?
    } else {
        exchange(TokioIo::new(tcp), request).await?
    };
    Ok(status)
}

/// One HTTP/1.1 request on a connection: the answer's status.
async fn exchange<T>(
    io: T,
    request: axum::http::Request<http_body_util::Full<axum::body::Bytes>>,
) -> Result<u16, String>
where
    T: hyper::rt::Read + hyper::rt::Write + Unpin + Send + 'static,
{
    let (mut sender, conn) = hyper::client::conn::http1::handshake(io).await.map_err(|e| format!("HTTP: {e}"))?;
    tokio::spawn(async move {
        let _ = conn.await;
    });
    let response = sender.send_request(request).await.map_err(|e| format!("HTTP: {e}"))?;
    Ok(response.status().as_u16())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_public_addresses_are_written_to() {
        let real = PushSettings::default();
        let dev = PushSettings { allow_loopback_http: true, ..PushSettings::default() };
        for ip in ["142.250.74.42", "17.188.128.1", "2a00:1450:4001:82b::200a", "8.8.8.8"] {
            assert!(allowed_ip(ip.parse().unwrap(), &real), "{ip}");
        }
        for ip in [
            "127.0.0.1",
            "10.0.0.1",
            "172.31.255.255",
            "192.168.1.1",
            "169.254.169.254",
            "100.100.1.1",
            "0.0.0.0",
            "255.255.255.255",
            "224.0.0.1",
            "198.18.0.1",
            "192.0.0.8",
            "240.0.0.1",
            "::1",
            "::",
            "fd12::1",
            "fe80::1",
            "::ffff:192.168.0.1",
            "64:ff9b::a00:1",
            "2002:a00:1::1",
            "2001:db8::1",
        ] {
            assert!(!allowed_ip(ip.parse().unwrap(), &real), "{ip}");
        }
        assert!(allowed_ip("127.0.0.1".parse().unwrap(), &dev));
        assert!(!allowed_ip("10.0.0.1".parse().unwrap(), &dev), "loopback only, in tests");
    }

    #[test]
    fn the_audience_is_the_endpoint_s_origin() {
        let real = PushSettings::default();
        let e = Endpoint::parse("https://fcm.googleapis.com/fcm/send/abc", &real).unwrap();
        assert_eq!(e.origin(), "https://fcm.googleapis.com");
        let dev = PushSettings { allow_loopback_http: true, ..PushSettings::default() };
        let e = Endpoint::parse("http://127.0.0.1:9999/p", &dev).unwrap();
        assert_eq!(e.origin(), "http://127.0.0.1:9999");
    }
}

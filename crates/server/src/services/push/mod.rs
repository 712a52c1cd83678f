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
//!   resolved, when a message is sent: `send::allowed_ip`). A game's end
//!   forgets its seats' subscriptions.
//! * **Sending** is background work (`worker.rs`): a move files its message
//!   in a lane of whose it is (`intake.rs`), the lanes read in turn, and the
//!   deliveries are scheduled fairly by push service and by subscriber
//!   (`queue.rs`); the requests are
//!   `send.rs`'s. A push service answering 404 or 410 has forgotten the
//!   subscription: it is removed.

mod intake;
mod queue;
mod send;
mod worker;

use std::net::IpAddr;
use std::sync::{Arc, Mutex};

use serde::Deserialize;
use serde_json::{json, Value};
use tokio::sync::OnceCell;

use super::games::live::{Live, Table, Viewer};
use super::games::Games;
use super::history::Histories;
use super::ids::now_ms;
use crate::config::PushSettings;
use crate::error::ApiError;
use crate::i18n::Lang;
use crate::store::{Account, PushRepo, PushSubscription, Seat, Store};
use intake::{Intake, LaneKey};
use send::{browser_keys, vapid_of, Endpoint};
use worker::{Job, Words, ACCOUNT_OWNER};

pub use crate::config::{
    PUSH_PER_ACCOUNT as PER_ACCOUNT, PUSH_PER_ADDRESS as PER_ADDRESS, PUSH_PER_ENDPOINT as PER_ENDPOINT,
    PUSH_PER_TARGET as PER_TARGET,
};
pub use send::{Vapid, MAX_ENDPOINT};

/// How long a push service keeps a "your turn" for a browser that is away (a day).
pub const TURN_TTL: u32 = 24 * 3600;
/// How long it keeps "your invite was taken" (an hour: later it is old news).
pub const INVITE_TTL: u32 = 3600;

/// Web Push: subscriptions, and the notifications sent in the background.
pub struct Push {
    repo: Arc<dyn PushRepo>,
    games: Arc<Games>,
    /// Whose lanes may take the places kept ([`intake::KEPT`]).
    histories: Arc<Histories>,
    settings: PushSettings,
    vapid: Arc<OnceCell<Arc<Vapid>>>,
    /// The messages waiting to be read (`intake.rs`).
    intake: Arc<Intake<Job>>,
    /// The intake's reader and the dispatcher are running.
    started: std::sync::atomic::AtomicBool,
    /// Invited seats known to be taken (so that a reconnecting invitee
    /// costs the storage nothing); forgotten when it holds [`TAKEN_KEPT`].
    taken: Mutex<std::collections::HashSet<(String, usize)>>,
}

/// The most invited seats remembered as taken.
const TAKEN_KEPT: usize = 10_000;

impl Push {
    pub fn new(store: &Store, games: Arc<Games>, histories: Arc<Histories>, settings: PushSettings) -> Push {
        Push {
            repo: Arc::clone(&store.push),
            games,
            histories,
            settings,
            vapid: Arc::default(),
            intake: Arc::default(),
            started: Default::default(),
            taken: Mutex::default(),
        }
    }
}

/// Who subscribes: the share a subscription counts in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Subscriber {
    /// A signed-in account with a history (the route decides): its own
    /// share ([`PER_ACCOUNT`]), whoever else is at its address, and its
    /// deliveries in the sending queue's reserve (`queue.rs`).
    Account(String),
    /// Anyone else, by client address (an IPv6 address by its prefix):
    /// [`PER_ADDRESS`].
    Address(IpAddr),
}

impl Subscriber {
    /// The key its subscriptions are counted under (`PushSubscription::owner`).
    fn owner(&self) -> String {
        match self {
            Subscriber::Account(id) => format!("{ACCOUNT_OWNER}{id}"),
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

/// A target, its game (a seat's) and its account (an account's).
type Target = (String, Option<String>, Option<String>);

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
        browser_keys(&sub.keys.p256dh, &sub.keys.auth).map_err(ApiError::BadSubscription)?;
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
                Ok((targets, table.finished()))
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
        let job = Job { targets, payload, words, ttl: TURN_TTL, urgency: "high", topic: topic(&live.id, "t") };
        // Whose message it is: the account the seat is linked to (whose
        // lane takes the places kept if it has a history: read in the
        // background, the move does not wait), or else whoever made the game.
        match account.as_deref().filter(|a| *a != crate::store::DELETED_ACCOUNT) {
            Some(a) if tokio::runtime::Handle::try_current().is_ok() => {
                let (intake, histories, a) = (Arc::clone(&self.intake), Arc::clone(&self.histories), a.to_string());
                tokio::spawn(async move {
                    let known = histories.of_id(&a).await;
                    file(&intake, job, LaneKey { key: account_target(&a), account: known });
                });
            }
            Some(a) => self.enqueue(job, LaneKey { key: account_target(a), account: false }),
            None => self.enqueue(job, owner_lane(&live.id, table.owner.as_deref())),
        }
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
        let (creators, from): (Vec<String>, LaneKey) = {
            let table = live.lock().await;
            let creators = table
                .seats
                .iter()
                .enumerate()
                .filter(|(_, s)| matches!(s, Seat::Human { remote: false, .. }))
                .map(|(i, _)| seat_target(&live.id, i))
                .collect();
            (creators, owner_lane(&live.id, table.owner.as_deref()))
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
                Ok(true) if !creators.is_empty() => self.enqueue(
                    Job {
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
                    },
                    from.clone(),
                ),
                Ok(_) => {}
                Err(e) => tracing::warn!(game = %live.id, error = %e, "cannot mark an invite taken"),
            }
        }
    }

    /// Files a message in the lane `from` (`intake.rs`: what it drops to
    /// make room is counted and logged with the dispatcher's drops).
    fn enqueue(&self, job: Job, from: LaneKey) {
        file(&self.intake, job, from);
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

    /// Starts sending what is queued (inside a runtime): `worker.rs`.
    pub fn start(&self) {
        if self.started.swap(true, std::sync::atomic::Ordering::SeqCst) {
            return;
        }
        worker::start(Arc::clone(&self.intake), Arc::clone(&self.repo), self.settings.clone(), Arc::clone(&self.vapid));
    }
}

impl Drop for Push {
    /// No more messages: the intake's reader ends once it has filed those waiting.
    fn drop(&mut self) {
        self.intake.close();
    }
}

/// Files `job` in its lane `from`: a newer message replaces one waiting for
/// the same people (a game's topic is its players', each told of their
/// own turns).
fn file(intake: &Intake<Job>, job: Job, from: LaneKey) {
    let replaces = job.topic.as_ref().map(|topic| format!("{topic} {}", job.targets.join(" ")));
    intake.push(job, replaces, from);
}

/// The lane of a message for the people of game `id`: its owner's (the
/// address it was made from), or else the game's own.
fn owner_lane(id: &str, owner: Option<&str>) -> LaneKey {
    let key = match owner {
        Some(owner) => format!("owner:{owner}"),
        None => format!("game:{id}"),
    };
    LaneKey { key, account: false }
}

/// The push service's topic for game `id` (at most 32 base64url characters).
fn topic(id: &str, kind: &str) -> Option<String> {
    let t = format!("{kind}{id}");
    (t.len() <= 32 && t.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')).then_some(t)
}

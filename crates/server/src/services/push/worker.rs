//! Sending in the background (docs/web.md, *Notifications*, "Sending
//! fairly"). A move only files a message in the intake's lanes
//! (`intake.rs`; what they drop to make room is logged). The intake reads who follows
//! the message's targets and files one delivery per subscription in the
//! fair queue (`queue.rs`): by push service (the endpoint's origin), then
//! by subscriber (the address or account whose share it counts in). The
//! dispatcher sends what the queue lets go, each send within
//! [`SEND_TIMEOUT`], connection included, and tells the queue how it went.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use fluent_bundle::FluentValue;
use serde_json::Value;
use tokio::sync::{Notify, OnceCell};
use tokio::time::Instant;

use super::intake::Intake;
use super::queue::{Delivery, Limits, Outcome, Queue, Ticket};
use super::send::{send, tls_connector, vapid_of, Endpoint, Message, SendError, Vapid};
use crate::config::PushSettings;
use crate::i18n::{self, Lang};
use crate::store::{PushRepo, PushSubscription};

/// How the key of an account's subscriptions begins (`Subscriber::owner`):
/// an account's share is its own only with a history, so its lanes are the
/// queue's kept ones.
pub(crate) const ACCOUNT_OWNER: &str = "account:";
/// Requests to push services under way at once, in all.
pub const SENDS_AT_ONCE: usize = 32;
/// Requests under way at once to one push service, at most.
pub const SENDS_PER_SERVICE: usize = 8;
/// Requests under way at once to the push services not proven (that have
/// not answered quickly since their last failure), together.
pub const UNPROVEN_SENDS: usize = 8;
/// The time one request to a push service may take, connection included.
pub const SEND_TIMEOUT: Duration = Duration::from_secs(5);
/// An answer within this is quick: it proves the service.
pub const QUICK_ANSWER: Duration = Duration::from_secs(2);
/// Deliveries waiting, in all; for one push service; for one subscriber at
/// one push service.
pub const WAITING: usize = 2048;
pub const WAITING_PER_SERVICE: usize = 512;
pub const WAITING_PER_SUBSCRIBER: usize = 32;
/// A failing push service waits this long after its first failure, twice
/// as long after each further one, up to [`BACKOFF_MOST`]; a failure is
/// forgiven after [`FORGIVE_AFTER`] without one.
pub const BACKOFF_FIRST: Duration = Duration::from_secs(5);
pub const BACKOFF_MOST: Duration = Duration::from_secs(600);
pub const FORGIVE_AFTER: Duration = Duration::from_secs(600);
/// Push services remembered (their windows and failures), at most.
const SERVICES_KEPT: usize = 1024;
/// Notifications dropped are logged together, at most this often.
const REPORT_EVERY: Duration = Duration::from_secs(10);

const LIMITS: Limits = Limits {
    sends: SENDS_AT_ONCE,
    per_service: SENDS_PER_SERVICE,
    unproven: UNPROVEN_SENDS,
    waiting: WAITING,
    per_service_waiting: WAITING_PER_SERVICE,
    per_lane: WAITING_PER_SUBSCRIBER,
    backoff_first: BACKOFF_FIRST,
    backoff_most: BACKOFF_MOST,
    forgive_after: FORGIVE_AFTER,
    services: SERVICES_KEPT,
};

/// One message for the browsers following some targets.
pub(crate) struct Job {
    pub targets: Vec<String>,
    /// What the service worker reads (`kind`, `game`, `seat`, `url`);
    /// `title` and `body` are added in each subscription's language.
    pub payload: Value,
    pub words: Words,
    pub ttl: u32,
    pub urgency: &'static str,
    /// A newer message of the same topic replaces one not yet delivered
    /// (here while it waits, and at the push service).
    pub topic: Option<String>,
}

/// A notification's title and body: their messages (`web/i18n/*.ftl`) and
/// the arguments they take, written in each subscription's language.
pub(crate) struct Words {
    pub title: &'static str,
    pub body: &'static str,
    pub args: Vec<(&'static str, String)>,
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

/// What the intake, the dispatcher and the sends share.
struct Shared {
    queue: Mutex<Queue<(Arc<Job>, PushSubscription)>>,
    /// Something changed: a delivery filed, a send over, the intake closed.
    wake: Notify,
    dropped: AtomicUsize,
    closed: AtomicBool,
    store: Arc<dyn PushRepo>,
    settings: PushSettings,
    vapid: Arc<OnceCell<Arc<Vapid>>>,
    tls: tokio_rustls::TlsConnector,
}

impl Shared {
    fn queue(&self) -> MutexGuard<'_, Queue<(Arc<Job>, PushSubscription)>> {
        self.queue.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// Starts the intake and the dispatcher (inside a runtime). They hold the
/// storage and the intake, never the service: they end when the service is
/// dropped (closing the intake) and what was filed is sent.
pub(crate) fn start(
    jobs: Arc<Intake<Job>>,
    store: Arc<dyn PushRepo>,
    settings: PushSettings,
    vapid: Arc<OnceCell<Arc<Vapid>>>,
) {
    let shared = Arc::new(Shared {
        queue: Mutex::new(Queue::new(LIMITS)),
        wake: Notify::new(),
        dropped: AtomicUsize::new(0),
        closed: AtomicBool::new(false),
        store,
        settings,
        vapid,
        tls: tls_connector(),
    });
    tokio::spawn(intake(jobs, Arc::clone(&shared)));
    tokio::spawn(dispatch(shared));
}

/// Files a delivery per subscription following each message's targets.
async fn intake(jobs: Arc<Intake<Job>>, shared: Arc<Shared>) {
    while let Some(job) = jobs.next().await {
        shared.dropped.fetch_add(jobs.dropped(), Ordering::Relaxed);
        let job = Arc::new(job);
        for target in &job.targets {
            let subs = match shared.store.subscriptions(target).await {
                Ok(subs) => subs,
                Err(e) => {
                    tracing::warn!(%target, error = %e, "cannot read push subscriptions");
                    continue;
                }
            };
            let now = Instant::now();
            let mut queue = shared.queue();
            for sub in subs {
                let service = match Endpoint::parse(&sub.endpoint, &shared.settings) {
                    Ok(endpoint) => endpoint.origin(),
                    Err(e) => {
                        tracing::debug!(error = %e, "a push subscription not written to");
                        continue;
                    }
                };
                // Kept before subscribers were counted: its target stands in.
                let lane = if sub.owner.is_empty() { sub.target.clone() } else { sub.owner.clone() };
                let replaces = job.topic.as_ref().map(|topic| format!("{topic} {}", sub.endpoint));
                let kept = sub.owner.starts_with(ACCOUNT_OWNER);
                let dropped =
                    queue.push(Delivery { service, lane, replaces, kept, item: (Arc::clone(&job), sub) }, now);
                shared.dropped.fetch_add(dropped, Ordering::Relaxed);
            }
        }
        shared.wake.notify_one();
    }
    shared.closed.store(true, Ordering::SeqCst);
    shared.wake.notify_one();
}

/// Sends what the queue lets go, whenever something changes or a push
/// service's wait is over.
async fn dispatch(shared: Arc<Shared>) {
    let mut dropped = 0;
    let mut reported = Instant::now();
    loop {
        let now = Instant::now();
        let (taken, wake_at, idle) = {
            let mut queue = shared.queue();
            let taken: Vec<_> = std::iter::from_fn(|| queue.next(now)).collect();
            (taken, queue.wake_at(now), queue.waiting() == 0 && queue.sending() == 0)
        };
        for (ticket, (job, sub)) in taken {
            tokio::spawn(deliver(Arc::clone(&shared), ticket, job, sub));
        }
        dropped += shared.dropped.swap(0, Ordering::Relaxed);
        if dropped > 0 && now.duration_since(reported) >= REPORT_EVERY {
            tracing::warn!(
                dropped,
                "push queues full: notifications dropped (a flooder's, or a stuck service's, first)"
            );
            (dropped, reported) = (0, now);
        }
        if idle && shared.closed.load(Ordering::SeqCst) {
            return;
        }
        match wake_at {
            Some(at) => {
                tokio::select! {
                    () = shared.wake.notified() => {}
                    () = tokio::time::sleep_until(at) => {}
                }
            }
            None => shared.wake.notified().await,
        }
    }
}

/// Sends one delivery, and tells the queue how it went.
async fn deliver(shared: Arc<Shared>, ticket: Ticket, job: Arc<Job>, sub: PushSubscription) {
    let (outcome, status) = match vapid_of(&shared.vapid, &shared.settings, shared.store.as_ref()).await {
        Ok(vapid) => {
            let body = job.words.payload_in(&job.payload, &sub.lang);
            let message = Message { body: &body, ttl: job.ttl, urgency: job.urgency, topic: job.topic.as_deref() };
            let started = Instant::now();
            let sent = tokio::time::timeout(SEND_TIMEOUT, send(&sub, &message, &vapid, &shared.settings, &shared.tls));
            match sent.await {
                Ok(Ok(status)) if status == 429 || status >= 500 => (Outcome::Failed, Some(status)),
                Ok(Ok(status)) if started.elapsed() <= QUICK_ANSWER => (Outcome::Quick, Some(status)),
                Ok(Ok(status)) => (Outcome::Slow, Some(status)),
                Ok(Err(SendError::Ours(e))) => {
                    tracing::warn!(error = %e, "a notification cannot be sent");
                    (Outcome::Neither, None)
                }
                Ok(Err(SendError::Theirs(e))) => {
                    tracing::debug!(service = ticket.service(), error = %e, "a push service failed");
                    (Outcome::Failed, None)
                }
                Err(_) => {
                    tracing::debug!(service = ticket.service(), "a push service took too long");
                    (Outcome::Failed, None)
                }
            }
        }
        Err(e) => {
            tracing::warn!(error = %e, "no VAPID key: a notification is dropped");
            (Outcome::Neither, None)
        }
    };
    let service = ticket.service().to_string();
    let strike = shared.queue().done(ticket, outcome, Instant::now());
    shared.wake.notify_one();
    if let Some(strike) = strike {
        tracing::warn!(%service, strikes = strike.strikes, wait_s = strike.wait.as_secs(), "a push service failed: backed off");
    }
    match status {
        Some(404 | 410) => {
            tracing::info!("a push subscription is gone: removed");
            if let Err(e) = shared.store.unsubscribe(&sub.endpoint, None).await {
                tracing::warn!(error = %e, "cannot remove a gone push subscription");
            }
        }
        Some(status) if (200..300).contains(&status) => tracing::debug!(status, "push sent"),
        Some(status) => tracing::debug!(%service, status, "a push service refused a notification"),
        None => {}
    }
}

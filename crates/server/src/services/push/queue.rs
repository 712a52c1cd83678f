//! Which notification goes next (docs/web.md, *Notifications*, "Sending
//! fairly"). Deliveries (one message for one subscription) wait by push
//! service (the endpoint's origin) and, within a service, by lane (who
//! subscribed: an address or an account). Services take turns, and within a
//! service its lanes do, so that neither a service that never answers nor
//! one address flooding moves holds anyone else's notifications up.
//!
//! * **Slots.** At most [`Limits::sends`] sends at once; a service at most
//!   its *window* of them: one until it answers quickly, one more with each
//!   quick answer (up to [`Limits::per_service`]), one again after a slow
//!   answer or a failure. Services not *proven* (no quick answer since their
//!   last failure: new, slow or failing ones) share [`Limits::unproven`]
//!   slots between them, so the others always have the rest.
//! * **Backing off.** A failure (no answer in time, no connection, 429 or
//!   5xx) is a strike: the service waits [`Limits::backoff_first`], twice
//!   as long at each strike, up to [`Limits::backoff_most`]; a strike is
//!   forgiven after [`Limits::forgive_after`] without a failure. Sends
//!   already under way when it failed add no strike (one failure, however
//!   many sends it cost).
//! * **Memory.** The deliveries waiting are bounded in a lane, in a service
//!   and in all; past a bound, the oldest of the lane, of the service's
//!   longest lane, or of the longest lane of the largest service that
//!   cannot send now goes. A newer delivery of the same topic for the same
//!   browser replaces one waiting. Services are remembered up to
//!   [`Limits::services`].
//! * **The reserve.** A lane is *kept* when its subscriber is someone the
//!   server knows (an account with a history, [`Delivery::kept`]): a
//!   service's kept lanes give way only when it has no other, and they take
//!   every other turn of its sends while any waits, so that a crowd of
//!   fresh addresses, however many, can slow a regular's notification at
//!   worst, never drop it.
//!
//! Bookkeeping only: the caller gives the time and sends (`push/mod.rs`).

use std::collections::{HashMap, VecDeque};
use std::time::Duration;

use tokio::time::Instant;

/// The bounds of a [`Queue`].
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Sends under way at once, in all.
    pub sends: usize,
    /// Sends under way at once to one service, at most (its window's top).
    pub per_service: usize,
    /// Sends under way at once to services not proven, together.
    pub unproven: usize,
    /// Deliveries waiting, in all.
    pub waiting: usize,
    /// Deliveries waiting for one service.
    pub per_service_waiting: usize,
    /// Deliveries waiting in one lane of a service.
    pub per_lane: usize,
    /// The wait after a first strike (doubled at each further one).
    pub backoff_first: Duration,
    /// The longest wait.
    pub backoff_most: Duration,
    /// A strike is forgiven after this long without a failure.
    pub forgive_after: Duration,
    /// Services remembered (their windows, strikes), at most.
    pub services: usize,
}

/// One message for one subscription, waiting to be sent.
pub struct Delivery<T> {
    /// The push service: the endpoint's origin.
    pub service: String,
    /// Whose it is within the service: the subscriber.
    pub lane: String,
    /// Replaces a delivery waiting in its lane with the same key (the
    /// browser and the message's topic): the newer says it all.
    pub replaces: Option<String>,
    /// Its subscriber is someone the server knows: its lane is in the
    /// reserve (the module's note).
    pub kept: bool,
    pub item: T,
}

/// A delivery taken to be sent: handed back with its outcome ([`Queue::done`]).
#[derive(Debug)]
pub struct Ticket {
    service: String,
    /// The service's failures counted when it was taken.
    epoch: u64,
    /// It took one of the unproven services' slots.
    unproven: bool,
}

impl Ticket {
    /// The push service it goes to.
    pub fn service(&self) -> &str {
        &self.service
    }
}

/// How a send went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Answered quickly (any status but 429 and 5xx).
    Quick,
    /// Answered, slowly.
    Slow,
    /// No answer in time, no connection, or 429 or 5xx.
    Failed,
    /// Not the service's doing (the subscription's keys do not work, say).
    Neither,
}

/// A service backed off by a failure (for the log).
#[derive(Debug, PartialEq, Eq)]
pub struct Strike {
    pub strikes: u32,
    pub wait: Duration,
}

/// One subscriber's deliveries waiting at a service.
struct Lane<T> {
    waiting: VecDeque<(Option<String>, T)>,
    kept: bool,
}

/// One push service: its lanes, the sends under way, its record.
struct Service<T> {
    lanes: HashMap<String, Lane<T>>,
    /// Lanes with deliveries waiting, in turn order: the open ones, the
    /// kept ones.
    turns: [VecDeque<String>; 2],
    /// The kept lanes have the next turn if any waits.
    kept_next: bool,
    waiting: usize,
    sending: usize,
    window: usize,
    /// Answered quickly since its last failure.
    proven: bool,
    strikes: u32,
    /// Failures counted (a send taken before the last one adds no strike).
    epoch: u64,
    last_failure: Option<Instant>,
    /// Backed off until then.
    until: Option<Instant>,
    last_used: Instant,
}

impl<T> Service<T> {
    fn new(now: Instant) -> Service<T> {
        Service {
            lanes: HashMap::new(),
            turns: Default::default(),
            kept_next: false,
            waiting: 0,
            sending: 0,
            window: 1,
            proven: false,
            strikes: 0,
            epoch: 0,
            last_failure: None,
            until: None,
            last_used: now,
        }
    }

    fn backed_off(&self, now: Instant) -> bool {
        self.until.is_some_and(|t| t > now)
    }

    /// The oldest delivery of its longest open lane goes, or of its
    /// longest kept lane if it has no open one.
    fn drop_from_longest(&mut self) -> bool {
        let longest = self.lanes.iter().max_by_key(|(_, l)| (!l.kept, l.waiting.len())).map(|(k, _)| k.clone());
        longest.is_some_and(|lane| self.drop_front(&lane))
    }

    /// The oldest delivery of `lane` goes.
    fn drop_front(&mut self, lane: &str) -> bool {
        let Some(l) = self.lanes.get_mut(lane) else { return false };
        let dropped = l.waiting.pop_front().is_some();
        if dropped {
            self.waiting -= 1;
        }
        if l.waiting.is_empty() {
            let turn = &mut self.turns[usize::from(l.kept)];
            self.lanes.remove(lane);
            turn.retain(|l| l != lane);
        }
        dropped
    }

    /// The next delivery: the kept lanes and the open ones take turns
    /// while both wait, and the lanes of each in turn.
    fn take(&mut self) -> Option<T> {
        let kept = if self.turns[0].is_empty() || self.turns[1].is_empty() {
            self.turns[0].is_empty()
        } else {
            self.kept_next
        };
        self.kept_next = !kept;
        let turn = &mut self.turns[usize::from(kept)];
        let lane = turn.pop_front()?;
        let l = self.lanes.get_mut(&lane)?;
        let (_, item) = l.waiting.pop_front()?;
        self.waiting -= 1;
        if l.waiting.is_empty() {
            self.lanes.remove(&lane);
        } else {
            turn.push_back(lane);
        }
        Some(item)
    }

    /// Nothing waiting or under way, and nothing held against it.
    fn idle(&self, now: Instant) -> bool {
        self.waiting == 0 && self.sending == 0 && !self.backed_off(now)
    }
}

/// The deliveries waiting, and the sends under way, by service.
pub struct Queue<T> {
    limits: Limits,
    services: HashMap<String, Service<T>>,
    /// Services with deliveries waiting, in turn order.
    turn: VecDeque<String>,
    waiting: usize,
    sending: usize,
    sending_unproven: usize,
}

impl<T> Queue<T> {
    pub fn new(limits: Limits) -> Queue<T> {
        Queue { limits, services: HashMap::new(), turn: VecDeque::new(), waiting: 0, sending: 0, sending_unproven: 0 }
    }

    /// Deliveries waiting, in all.
    pub fn waiting(&self) -> usize {
        self.waiting
    }

    /// Sends under way, in all.
    pub fn sending(&self) -> usize {
        self.sending
    }

    /// Puts `d` in its service's lane: how many deliveries were dropped to
    /// make room (0 or 1; one it replaced is not counted).
    pub fn push(&mut self, d: Delivery<T>, now: Instant) -> usize {
        if !self.services.contains_key(&d.service) {
            self.forget_idle(now);
        }
        let service = self.services.entry(d.service.clone()).or_insert_with(|| Service::new(now));
        service.last_used = now;
        let lane =
            service.lanes.entry(d.lane.clone()).or_insert_with(|| Lane { waiting: VecDeque::new(), kept: d.kept });
        if let Some(key) = &d.replaces {
            if let Some(waiting) = lane.waiting.iter_mut().find(|(k, _)| k.as_ref() == Some(key)) {
                waiting.1 = d.item;
                return 0;
            }
        }
        if lane.waiting.is_empty() {
            service.turns[usize::from(lane.kept)].push_back(d.lane.clone());
        }
        lane.waiting.push_back((d.replaces, d.item));
        service.waiting += 1;
        if service.waiting == 1 {
            self.turn.push_back(d.service.clone());
        }
        self.waiting += 1;
        let dropped = if lane.waiting.len() > self.limits.per_lane {
            service.drop_front(&d.lane)
        } else if service.waiting > self.limits.per_service_waiting {
            service.drop_from_longest()
        } else if self.waiting > self.limits.waiting {
            // The largest of the services that cannot send now (backed off
            // or unproven), else the largest.
            let victim = self
                .services
                .iter()
                .filter(|(_, s)| s.waiting > 0)
                .max_by_key(|(_, s)| (s.backed_off(now) || !s.proven, s.waiting))
                .map(|(name, _)| name.clone());
            victim.is_some_and(|v| self.services.get_mut(&v).is_some_and(Service::drop_from_longest))
        } else {
            false
        };
        if dropped {
            self.waiting -= 1;
        }
        self.turn.retain(|s| self.services.get(s).is_some_and(|s| s.waiting > 0));
        usize::from(dropped)
    }

    /// The next delivery to send now, if a slot is free for it: services
    /// take turns, skipping those backed off or at their window.
    pub fn next(&mut self, now: Instant) -> Option<(Ticket, T)> {
        if self.sending >= self.limits.sends {
            return None;
        }
        let unproven_full = self.sending_unproven >= self.limits.unproven;
        let i = self.turn.iter().position(|name| {
            self.services.get(name).is_some_and(|s| {
                s.waiting > 0 && !s.backed_off(now) && s.sending < s.window && (s.proven || !unproven_full)
            })
        })?;
        let name = self.turn.remove(i)?;
        let service = self.services.get_mut(&name)?;
        let item = service.take()?;
        service.sending += 1;
        service.last_used = now;
        let unproven = !service.proven;
        if service.waiting > 0 {
            self.turn.push_back(name.clone());
        }
        self.waiting -= 1;
        self.sending += 1;
        self.sending_unproven += usize::from(unproven);
        Some((Ticket { service: name, epoch: service.epoch, unproven }, item))
    }

    /// A send is over: its slot is free, and its service's record follows
    /// the outcome. A failure that backs the service off is returned.
    pub fn done(&mut self, ticket: Ticket, outcome: Outcome, now: Instant) -> Option<Strike> {
        self.sending -= 1;
        self.sending_unproven -= usize::from(ticket.unproven);
        let limits = self.limits;
        let service = self.services.get_mut(&ticket.service)?;
        service.sending -= 1;
        service.last_used = now;
        match outcome {
            Outcome::Quick => {
                service.proven = true;
                service.window = (service.window + 1).min(limits.per_service);
                None
            }
            Outcome::Slow => {
                service.proven = false;
                service.window = 1;
                None
            }
            Outcome::Neither => None,
            Outcome::Failed if ticket.epoch != service.epoch => None,
            Outcome::Failed => {
                let forgiven = service.last_failure.map_or(0, |at| {
                    let quiet = now.saturating_duration_since(at).as_secs();
                    u32::try_from(quiet / limits.forgive_after.as_secs().max(1)).unwrap_or(u32::MAX)
                });
                service.strikes = service.strikes.saturating_sub(forgiven).saturating_add(1);
                service.epoch += 1;
                service.last_failure = Some(now);
                service.proven = false;
                service.window = 1;
                let doubled = limits.backoff_first.saturating_mul(1 << (service.strikes - 1).min(20));
                let wait = doubled.min(limits.backoff_most);
                service.until = Some(now + wait);
                Some(Strike { strikes: service.strikes, wait })
            }
        }
    }

    /// When a service backed off with deliveries waiting may send again
    /// (the soonest), if one is.
    pub fn wake_at(&self, now: Instant) -> Option<Instant> {
        self.services.values().filter(|s| s.waiting > 0).filter_map(|s| s.until).filter(|t| *t > now).min()
    }

    /// Room for one more service: the idle ones used least lately go,
    /// those with nothing against them first.
    fn forget_idle(&mut self, now: Instant) {
        while self.services.len() >= self.limits.services {
            let gone = self
                .services
                .iter()
                .filter(|(_, s)| s.idle(now))
                .min_by_key(|(_, s)| (s.strikes > 0, s.last_used))
                .map(|(name, _)| name.clone());
            match gone {
                Some(name) => self.services.remove(&name),
                None => return,
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LIMITS: Limits = Limits {
        sends: 6,
        per_service: 3,
        unproven: 2,
        waiting: 20,
        per_service_waiting: 10,
        per_lane: 4,
        backoff_first: Duration::from_secs(5),
        backoff_most: Duration::from_secs(60),
        forgive_after: Duration::from_secs(600),
        services: 8,
    };

    fn d(service: &str, lane: &str, item: u32) -> Delivery<u32> {
        Delivery { service: service.into(), lane: lane.into(), replaces: None, kept: false, item }
    }

    /// Everything sendable now: (service, item).
    fn drain(q: &mut Queue<u32>, now: Instant) -> Vec<(Ticket, u32)> {
        std::iter::from_fn(|| q.next(now)).collect()
    }

    /// A service proven with its window at `window`.
    fn prove(q: &mut Queue<u32>, service: &str, window: usize, now: Instant) {
        for _ in 0..window {
            q.push(d(service, "proof", 0), now);
            let (t, _) = q.next(now).expect("a slot");
            q.done(t, Outcome::Quick, now);
        }
    }

    #[test]
    fn services_take_turns_and_lanes_within_a_service() {
        let now = Instant::now();
        let mut q = Queue::new(Limits { per_service: 1, ..LIMITS });
        prove(&mut q, "a", 1, now);
        prove(&mut q, "b", 1, now);
        for i in 0..4 {
            q.push(d("a", "flood", i), now);
        }
        q.push(d("a", "ada", 100), now);
        q.push(d("b", "bob", 200), now);
        let mut order = Vec::new();
        while let Some((t, item)) = q.next(now) {
            order.push(item);
            q.done(t, Outcome::Quick, now);
        }
        assert_eq!(order, [0, 200, 100, 1, 2, 3], "a, b, then a's lanes in turn");
    }

    #[test]
    fn a_service_s_window_opens_with_quick_answers_and_closes_with_slow_ones() {
        let now = Instant::now();
        let mut q = Queue::new(LIMITS);
        for i in 0..10 {
            q.push(d("a", &format!("l{i}"), i), now);
        }
        assert_eq!(drain(&mut q, now).len(), 1, "one at a time at first");
        let mut q = Queue::new(LIMITS);
        prove(&mut q, "a", 3, now);
        for i in 0..10 {
            q.push(d("a", &format!("l{i}"), i), now);
        }
        let taken = drain(&mut q, now);
        assert_eq!(taken.len(), 3, "the window's top");
        let mut taken = taken.into_iter();
        q.done(taken.next().unwrap().0, Outcome::Slow, now);
        q.done(taken.next().unwrap().0, Outcome::Quick, now);
        q.done(taken.next().unwrap().0, Outcome::Quick, now);
        assert_eq!(drain(&mut q, now).len(), 3, "reopened by quick answers");
    }

    #[test]
    fn services_not_proven_share_a_few_slots_and_the_proven_keep_the_rest() {
        let now = Instant::now();
        let mut q = Queue::new(LIMITS);
        prove(&mut q, "good", 3, now);
        for s in 0..5 {
            for i in 0..3 {
                q.push(d(&format!("silent{s}"), "x", i), now);
            }
        }
        let taken = drain(&mut q, now);
        assert_eq!(taken.len(), 2, "the unproven share");
        for i in 0..4 {
            q.push(d("good", "ada", 100 + i), now);
        }
        let taken: Vec<u32> = drain(&mut q, now).into_iter().map(|(_, i)| i).collect();
        assert_eq!(taken, [100, 101, 102], "the proven service's window, untouched by the silent ones");
    }

    #[test]
    fn a_failing_service_is_backed_off_longer_at_each_strike_and_forgiven_in_time() {
        let start = Instant::now();
        let mut q = Queue::new(LIMITS);
        prove(&mut q, "a", 3, start);
        for i in 0..20 {
            q.push(d("a", &format!("l{}", i % 5), i), start);
        }
        let taken = drain(&mut q, start);
        assert_eq!(taken.len(), 3);
        let mut at = start + Duration::from_secs(5);
        let mut strikes = Vec::new();
        for (t, _) in taken {
            strikes.push(q.done(t, Outcome::Failed, at));
        }
        assert_eq!(
            strikes,
            [Some(Strike { strikes: 1, wait: Duration::from_secs(5) }), None, None],
            "one failure, whatever it cost"
        );
        assert!(q.next(at).is_none(), "backed off");
        assert_eq!(q.wake_at(at), Some(at + Duration::from_secs(5)));
        let mut waits = Vec::new();
        for _ in 0..6 {
            at = q.wake_at(at).unwrap();
            let (t, _) = q.next(at).expect("a probe once the wait is over");
            assert!(q.next(at).is_none(), "one probe at a time");
            at += Duration::from_secs(5);
            waits.push(q.done(t, Outcome::Failed, at).unwrap().wait.as_secs());
        }
        assert_eq!(waits, [10, 20, 40, 60, 60, 60], "doubled, up to the most");
        // Quick answers prove it again, and do not wipe its record: the
        // next failure waits as long; an hour without one forgives six.
        for i in 0..3 {
            q.push(d("a", "more", 100 + i), at);
        }
        at = q.wake_at(at).unwrap();
        let (t, _) = q.next(at).unwrap();
        assert_eq!(q.done(t, Outcome::Quick, at), None);
        let (t, _) = q.next(at).unwrap();
        assert_eq!(q.done(t, Outcome::Failed, at).unwrap(), Strike { strikes: 8, wait: Duration::from_secs(60) });
        at += Duration::from_secs(3600);
        let (t, _) = q.next(at).unwrap();
        assert_eq!(q.done(t, Outcome::Failed, at).unwrap(), Strike { strikes: 3, wait: Duration::from_secs(20) });
    }

    #[test]
    fn the_waiting_are_bounded_the_flooder_s_going_first() {
        let now = Instant::now();
        let mut q = Queue::new(Limits { per_lane: 6, ..LIMITS });
        prove(&mut q, "good", 1, now);
        // A lane keeps its newest six.
        let dropped: usize = (0..8).map(|i| q.push(d("a", "flood", i), now)).sum();
        assert_eq!((dropped, q.waiting()), (2, 6));
        // A service keeps ten: its longest lane gives way.
        for i in 0..2 {
            q.push(d("a", "ada", 100 + i), now);
        }
        for i in 0..3 {
            assert_eq!(q.push(d("a", "cy", 200 + i), now), usize::from(i == 2));
        }
        assert_eq!(q.waiting(), 10);
        // In all, twenty: the largest service that cannot send now gives way.
        for i in 0..4 {
            q.push(d("good", "bob", 300 + i), now);
        }
        for s in 0..2 {
            for i in 0..3 {
                q.push(d(&format!("silent{s}"), "x", 400 + i), now);
            }
        }
        assert_eq!(q.waiting(), 20);
        assert_eq!(q.push(d("silent2", "x", 500), now), 1);
        assert_eq!(q.waiting(), 20);
        let mut items = Vec::new();
        while let Some((t, item)) = q.next(now) {
            items.push(item);
            q.done(t, Outcome::Quick, now);
        }
        items.sort_unstable();
        let flood: Vec<u32> = items.iter().copied().filter(|i| *i < 100).collect();
        assert_eq!(flood, [4, 5, 6, 7], "the flood lost its oldest, to its lane, its service, and all");
        assert_eq!(
            items.iter().filter(|i| (100..300).contains(*i)).count(),
            5,
            "the others in the service kept theirs"
        );
        assert_eq!(items.iter().filter(|i| (300..304).contains(*i)).count(), 4, "the proven service lost nothing");
        assert_eq!(items.len(), 20);
    }

    #[test]
    fn a_crowd_of_lanes_drops_and_delays_none_of_a_known_subscriber_s() {
        let now = Instant::now();
        let mut q = Queue::new(Limits { per_service: 1, ..LIMITS });
        prove(&mut q, "a", 1, now);
        let kept =
            |item| Delivery { service: "a".into(), lane: "account:ada".into(), replaces: None, kept: true, item };
        // Ten fresh addresses fill the service's ten places, one each.
        for i in 0..10 {
            assert_eq!(q.push(d("a", &format!("addr:{i}"), i), now), 0);
        }
        // A regular's two notifications: each makes room by dropping a
        // crowd's, never the other regular's (all lanes are as long).
        for i in 0..2 {
            assert_eq!(q.push(kept(100 + i), now), 1);
            assert_eq!(q.waiting(), 10);
        }
        // More of the crowd drop the crowd's own.
        for i in 10..30 {
            assert_eq!(q.push(d("a", &format!("addr:{i}"), i), now), 1);
        }
        let mut order = Vec::new();
        while let Some((t, item)) = q.next(now) {
            order.push(item);
            q.done(t, Outcome::Quick, now);
        }
        assert_eq!(order.len(), 10);
        assert_eq!(order.iter().filter(|&&i| i >= 100).count(), 2, "the regular's both kept: {order:?}");
        // The kept lane and the open ones take turns: the regular's are
        // among the first four sent, not after the crowd's eight.
        assert!(order[..4].contains(&100) && order[..4].contains(&101), "{order:?}");
        // With no open lane left, a kept one gives way as any lane does.
        let mut q = Queue::new(LIMITS);
        for i in 0..11 {
            q.push(Delivery { lane: format!("account:{}", i % 3), ..kept(i) }, now);
        }
        assert_eq!(q.waiting(), 10);
    }

    #[test]
    fn a_newer_message_of_the_same_topic_replaces_the_one_waiting() {
        let now = Instant::now();
        let mut q = Queue::new(LIMITS);
        let turn = |item| Delivery {
            service: "a".into(),
            lane: "l".into(),
            replaces: Some("e1 tG".into()),
            kept: false,
            item,
        };
        q.push(turn(1), now);
        q.push(d("a", "l", 2), now);
        assert_eq!(q.push(turn(3), now), 0);
        assert_eq!(q.waiting(), 2);
        let (t, first) = q.next(now).unwrap();
        q.done(t, Outcome::Quick, now);
        assert_eq!((first, q.next(now).map(|(_, i)| i)), (3, Some(2)));
    }

    #[test]
    fn services_are_remembered_within_a_bound_the_idle_and_blameless_forgotten_first() {
        let now = Instant::now();
        let mut q = Queue::new(LIMITS);
        // A failing service, backed off then idle.
        q.push(d("bad", "x", 0), now);
        let (t, _) = q.next(now).unwrap();
        q.done(t, Outcome::Failed, now);
        let later = now + Duration::from_secs(10);
        for s in 0..20 {
            q.push(d(&format!("s{s}"), "x", s), later);
            let (t, _) = q.next(later).unwrap();
            q.done(t, Outcome::Quick, later);
        }
        assert!(q.services.len() <= LIMITS.services);
        assert!(q.services.contains_key("bad"), "its strike is remembered");
        assert!(q.services.contains_key("s19"));
    }
}

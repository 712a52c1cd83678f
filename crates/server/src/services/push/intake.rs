//! The messages waiting to be read (docs/web.md, *Notifications*, "Sending
//! fairly"): a move only files its message here and never waits. Messages
//! wait in lanes by whose they are — the account the seat to move is linked
//! to, or else the game's owner (the address it was made from) — and the
//! intake reads the lanes in turn, so that nobody's flood of moves holds
//! anyone else's "your turn" up or out.
//!
//! * A newer message of the same topic for the same people (a seat's "your
//!   turn" in a game) replaces one waiting in its lane: a seat has one
//!   waiting at most.
//! * A lane holds [`PER_LANE`] messages at most (its oldest goes).
//! * The lanes of addresses hold [`OPEN`] messages together, and every lane
//!   [`OPEN`] + [`KEPT`]: past a bound, the oldest message of the longest
//!   lane goes (of the addresses' lanes, if they are over theirs). So a
//!   lane of one message goes only when every lane has one (hundreds of
//!   addresses moving at once), and the lanes of accounts with a history
//!   always have [`KEPT`] places that no crowd of addresses, nor of new
//!   accounts, can take (a new account's lane is one of the open ones).

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use tokio::sync::Notify;

/// Messages waiting in the addresses' lanes, together, at most.
pub const OPEN: usize = 256;
/// More places only the lanes of accounts with a history may take.
pub const KEPT: usize = 64;
/// Messages waiting in one lane, at most.
pub const PER_LANE: usize = 16;

/// Whose a message is: its lane.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct LaneKey {
    pub key: String,
    /// The lane of an account with a history (it may take the places kept).
    pub account: bool,
}

struct Lane<T> {
    /// Each message with its topic.
    waiting: VecDeque<(Option<String>, T)>,
    account: bool,
}

struct Lines<T> {
    lanes: HashMap<String, Lane<T>>,
    /// The lanes with a message, in the order they are read.
    turns: VecDeque<String>,
    /// Messages waiting in the addresses' lanes, and in all.
    open: usize,
    all: usize,
    /// No more messages come: the reader ends once the lanes are empty.
    closed: bool,
}

/// The messages waiting, in lanes read in turn.
pub(crate) struct Intake<T> {
    lines: Mutex<Lines<T>>,
    ready: Notify,
    /// Messages dropped to make room, since last told.
    dropped: AtomicUsize,
}

impl<T> Default for Intake<T> {
    fn default() -> Intake<T> {
        Intake {
            lines: Mutex::new(Lines { lanes: HashMap::new(), turns: VecDeque::new(), open: 0, all: 0, closed: false }),
            ready: Notify::new(),
            dropped: AtomicUsize::new(0),
        }
    }
}

impl<T> Lines<T> {
    /// Drops the oldest message of the longest lane (of the addresses' lanes
    /// only, if `open_only`).
    fn drop_from_longest(&mut self, open_only: bool) {
        let longest = self
            .lanes
            .iter()
            .filter(|(_, l)| !(open_only && l.account))
            .max_by_key(|(_, l)| l.waiting.len())
            .map(|(k, _)| k.clone());
        if let Some(key) = longest {
            self.drop_oldest(&key);
        }
    }

    fn drop_oldest(&mut self, key: &str) {
        let Some(lane) = self.lanes.get_mut(key) else { return };
        if lane.waiting.pop_front().is_some() {
            self.all -= 1;
            if !lane.account {
                self.open -= 1;
            }
        }
        if lane.waiting.is_empty() {
            self.lanes.remove(key);
            self.turns.retain(|k| k != key);
        }
    }
}

impl<T> Intake<T> {
    fn lines(&self) -> std::sync::MutexGuard<'_, Lines<T>> {
        self.lines.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Files `item` in the lane `from`, in place of one waiting there with
    /// the same `topic` (if any); how many messages went to make room.
    pub fn push(&self, item: T, topic: Option<String>, from: LaneKey) -> usize {
        let mut lines = self.lines();
        let lane = lines
            .lanes
            .entry(from.key.clone())
            .or_insert_with(|| Lane { waiting: VecDeque::new(), account: from.account });
        if let Some(waiting) = topic.as_ref().and_then(|t| lane.waiting.iter_mut().find(|(w, _)| w.as_ref() == Some(t)))
        {
            waiting.1 = item;
            return 0;
        }
        lane.waiting.push_back((topic, item));
        let (len, account) = (lane.waiting.len(), lane.account);
        lines.all += 1;
        if !account {
            lines.open += 1;
        }
        if len == 1 {
            lines.turns.push_back(from.key.clone());
        }
        let mut dropped = 0;
        if len > PER_LANE {
            lines.drop_oldest(&from.key);
            dropped += 1;
        }
        while lines.open > OPEN || lines.all > OPEN + KEPT {
            let open_only = lines.open > OPEN;
            lines.drop_from_longest(open_only);
            dropped += 1;
        }
        drop(lines);
        self.dropped.fetch_add(dropped, Ordering::Relaxed);
        self.ready.notify_one();
        dropped
    }

    /// Messages dropped to make room since last asked.
    pub fn dropped(&self) -> usize {
        self.dropped.swap(0, Ordering::Relaxed)
    }

    /// The next message, from the next lane in turn, once there is one;
    /// none once closed and empty.
    pub async fn next(&self) -> Option<T> {
        loop {
            let notified = self.ready.notified();
            {
                let mut lines = self.lines();
                if let Some(key) = lines.turns.pop_front() {
                    let Some((_, item)) = lines.lanes.get_mut(&key).and_then(|l| l.waiting.pop_front()) else {
                        lines.lanes.remove(&key);
                        continue;
                    };
                    let lane = &lines.lanes[&key];
                    let (left, account) = (lane.waiting.len(), lane.account);
                    if left == 0 {
                        lines.lanes.remove(&key);
                    } else {
                        lines.turns.push_back(key);
                    }
                    lines.all -= 1;
                    if !account {
                        lines.open -= 1;
                    }
                    return Some(item);
                }
                if lines.closed {
                    return None;
                }
            }
            notified.await;
        }
    }

    /// No more messages come: the reader ends once it has read those waiting.
    pub fn close(&self) {
        self.lines().closed = true;
        self.ready.notify_one();
    }

    /// Messages waiting.
    #[cfg(test)]
    fn len(&self) -> usize {
        self.lines().all
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn address(i: usize) -> LaneKey {
        LaneKey { key: format!("addr{i}"), account: false }
    }

    fn account(i: usize) -> LaneKey {
        LaneKey { key: format!("account{i}"), account: true }
    }

    async fn drain(intake: &Intake<String>) -> Vec<String> {
        intake.close();
        let mut read = Vec::new();
        while let Some(m) = intake.next().await {
            read.push(m);
        }
        read
    }

    #[tokio::test]
    async fn lanes_are_read_in_turn_and_a_seat_s_turn_waits_once() {
        let intake = Intake::default();
        for g in 0..3 {
            assert_eq!(intake.push(format!("flood {g}"), Some(format!("t{g}")), address(1)), 0);
        }
        // A newer "your turn" of the same game replaces the one waiting.
        intake.push("flood 1 again".into(), Some("t1".into()), address(1));
        intake.push("ada".into(), Some("tada".into()), account(1));
        intake.push("bob".into(), None, address(2));
        assert_eq!(drain(&intake).await, ["flood 0", "ada", "bob", "flood 1 again", "flood 2"]);
    }

    #[tokio::test]
    async fn a_crowd_of_addresses_drops_its_own_messages_first() {
        let intake = Intake::default();
        // One address floods: its lane keeps its newest few.
        for m in 0..100 {
            intake.push(format!("flood {m}"), None, address(0));
        }
        assert_eq!(intake.len(), PER_LANE);
        // Ada's and Bob's "your turn", then a crowd of addresses with many
        // games each, far past every bound.
        intake.push("ada".into(), None, account(1));
        intake.push("bob".into(), None, address(1));
        let mut dropped = 0;
        for a in 2..200 {
            for m in 0..8 {
                dropped += intake.push(format!("crowd {a} {m}"), None, address(a));
            }
        }
        assert!(dropped > 0);
        assert_eq!(intake.len(), OPEN + 1, "the addresses' lanes at their bound, and Ada's");
        let read = drain(&intake).await;
        assert_eq!(read.len(), OPEN + 1);
        assert!(
            read.contains(&"ada".to_string()) && read.contains(&"bob".to_string()),
            "the shortest lanes keep theirs"
        );
        assert!(read.iter().filter(|m| m.starts_with("flood")).count() <= 2, "the flood is one lane among many");
        // Accounts' lanes have places of their own: a crowd of addresses
        // cannot take them, and accounts take every one.
        let intake = Intake::default();
        for a in 0..OPEN * 2 {
            intake.push(format!("crowd {a}"), None, address(a));
        }
        for a in 0..KEPT {
            assert_eq!(intake.push(format!("known {a}"), None, account(a)), 0);
        }
        let read = drain(&intake).await;
        assert_eq!(read.iter().filter(|m| m.starts_with("known")).count(), KEPT);
        assert_eq!(read.len(), OPEN + KEPT);
    }

    #[tokio::test]
    async fn the_reader_waits_for_a_message_and_ends_once_closed() {
        let intake = std::sync::Arc::new(Intake::<String>::default());
        let reader = {
            let intake = std::sync::Arc::clone(&intake);
            tokio::spawn(async move { intake.next().await })
        };
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        intake.push("late".into(), None, address(1));
        assert_eq!(reader.await.unwrap().as_deref(), Some("late"));
        intake.close();
        assert_eq!(intake.next().await, None);
    }
}

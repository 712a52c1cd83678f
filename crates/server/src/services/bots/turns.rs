//! Turns at the bots' workers (docs/web.md, *Bot time*): a search waits for
//! a worker in one of two lines — games where one of their people is here
//! (a page of theirs open, or a person's move in the last minutes) before
//! games nobody is at (abandoned, or bots among themselves) — and within a
//! line the lanes take turns: one per client address the game was made
//! from (a game made by the server, a lane of its own). So a crowd of
//! games from a few addresses costs a real player at most a search per
//! address ahead of them, and abandoned games only the time nobody else
//! wants.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};

use tokio::sync::oneshot;

/// Which line a search waits in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Line {
    /// One of the game's people is here: served first.
    Here = 0,
    /// Nobody is: served when no one here waits.
    Away = 1,
}

/// The lanes of one line: whose turn comes next, and who waits in each.
#[derive(Default)]
struct Lanes {
    /// Lanes with someone waiting, in turn order (each once).
    order: VecDeque<String>,
    waiting: HashMap<String, VecDeque<oneshot::Sender<Turn>>>,
}

impl Lanes {
    fn push(&mut self, lane: &str, tx: oneshot::Sender<Turn>) {
        let q = self.waiting.entry(lane.to_string()).or_default();
        if q.is_empty() {
            self.order.push_back(lane.to_string());
        }
        q.push_back(tx);
    }

    /// The next in turn: the first of the lane whose turn it is (the lane
    /// goes to the back of the order if more wait in it).
    fn pop(&mut self) -> Option<oneshot::Sender<Turn>> {
        let lane = self.order.pop_front()?;
        let q = self.waiting.get_mut(&lane)?;
        let next = q.pop_front();
        if q.is_empty() {
            self.waiting.remove(&lane);
        } else {
            self.order.push_back(lane);
        }
        next
    }

    fn len(&self) -> usize {
        self.waiting.values().map(VecDeque::len).sum()
    }
}

struct Inner {
    free: usize,
    lines: [Lanes; 2],
    /// Turns given from each line since the start (tests, health).
    served: [u64; 2],
}

/// The workers' turns: `size` searches at once.
pub struct Turns {
    inner: Mutex<Inner>,
}

/// A worker's turn: held while its search runs; dropping it gives the
/// worker to the next in turn.
pub struct Turn {
    /// None: handed on already (or never a worker's).
    turns: Option<Arc<Turns>>,
}

impl Turns {
    pub fn new(size: usize) -> Arc<Turns> {
        let inner = Inner { free: size.max(1), lines: Default::default(), served: [0; 2] };
        Arc::new(Turns { inner: Mutex::new(inner) })
    }

    fn inner(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Waits for a worker in `line`, in `lane`'s turn.
    pub async fn take(self: &Arc<Self>, line: Line, lane: &str) -> Turn {
        let rx = {
            let mut inner = self.inner();
            if inner.free > 0 && inner.lines.iter().all(|l| l.order.is_empty()) {
                inner.free -= 1;
                inner.served[line as usize] += 1;
                return Turn { turns: Some(Arc::clone(self)) };
            }
            let (tx, rx) = oneshot::channel();
            inner.lines[line as usize].push(lane, tx);
            rx
        };
        // (A waiter's sender is only dropped by handing it a turn, while
        // `self` lives: an error cannot come; it would run uncounted.)
        rx.await.unwrap_or(Turn { turns: None })
    }

    /// Searches waiting in each line now.
    pub fn waiting(&self) -> [usize; 2] {
        let inner = self.inner();
        [inner.lines[0].len(), inner.lines[1].len()]
    }

    /// Turns given from each line since the start.
    pub fn served(&self) -> [u64; 2] {
        self.inner().served
    }

    /// Workers free now.
    pub fn free(&self) -> usize {
        self.inner().free
    }
}

impl Drop for Turn {
    fn drop(&mut self) {
        let Some(turns) = self.turns.take() else { return };
        loop {
            let next = {
                let mut inner = turns.inner();
                let here = inner.lines[0].pop().map(|tx| (tx, 0));
                match here.or_else(|| inner.lines[1].pop().map(|tx| (tx, 1))) {
                    Some((tx, line)) => {
                        inner.served[line] += 1;
                        tx
                    }
                    None => {
                        inner.free += 1;
                        return;
                    }
                }
            };
            match next.send(Turn { turns: Some(Arc::clone(&turns)) }) {
                Ok(()) => return,
                // The waiter left: the turn goes on to the next (disarmed
                // first: dropped, it would hand the worker over twice).
                Err(mut turn) => drop(turn.turns.take()),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Waits for a turn in the background, notes it and gives it back.
    fn ask(turns: &Arc<Turns>, line: Line, lane: &str, log: &Arc<Mutex<Vec<String>>>) -> tokio::task::JoinHandle<()> {
        let (turns, lane, log) = (Arc::clone(turns), lane.to_string(), Arc::clone(log));
        tokio::spawn(async move {
            let _turn = turns.take(line, &lane).await;
            log.lock().unwrap().push(lane);
        })
    }

    async fn settle() {
        for _ in 0..50 {
            tokio::task::yield_now().await;
        }
    }

    #[tokio::test]
    async fn people_here_first_then_the_lanes_take_turns() {
        let turns = Turns::new(1);
        let log = Arc::new(Mutex::new(Vec::new()));
        let busy = turns.take(Line::Away, "x").await;
        // 100 abandoned games' searches from five addresses, in a crowd…
        let mut waiting = Vec::new();
        for i in 0..100 {
            waiting.push(ask(&turns, Line::Away, &format!("crowd{}", i % 5), &log));
            settle().await;
        }
        // …then another address's, and last a real player's.
        waiting.push(ask(&turns, Line::Away, "zed", &log));
        settle().await;
        waiting.push(ask(&turns, Line::Here, "ada", &log));
        settle().await;
        assert_eq!(turns.waiting(), [1, 101]);
        drop(busy);
        for w in waiting {
            w.await.unwrap();
        }
        let order = log.lock().unwrap().clone();
        assert_eq!(order[0], "ada", "the player here goes first: {order:?}");
        assert_eq!(order[1..8], ["crowd0", "crowd1", "crowd2", "crowd3", "crowd4", "zed", "crowd0"], "{order:?}");
        assert_eq!(order.len(), 102);
        assert_eq!((turns.free(), turns.served()), (1, [1, 102]));
    }

    #[tokio::test]
    async fn a_free_worker_is_taken_at_once_and_given_back() {
        let turns = Turns::new(2);
        let a = turns.take(Line::Here, "a").await;
        let b = turns.take(Line::Away, "b").await;
        assert_eq!(turns.free(), 0);
        drop(a);
        assert_eq!(turns.free(), 1);
        drop(b);
        assert_eq!((turns.free(), turns.served()), (2, [1, 1]));
    }

    #[tokio::test]
    async fn a_waiter_that_left_passes_its_turn_on() {
        let turns = Turns::new(1);
        let log = Arc::new(Mutex::new(Vec::new()));
        let busy = turns.take(Line::Here, "a").await;
        let gone = ask(&turns, Line::Here, "gone", &log);
        settle().await;
        let next = ask(&turns, Line::Here, "next", &log);
        settle().await;
        gone.abort();
        settle().await;
        drop(busy);
        next.await.unwrap();
        assert_eq!(log.lock().unwrap().as_slice(), ["next"]);
        assert_eq!(turns.free(), 1, "no worker lost");
    }
}

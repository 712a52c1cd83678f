//! Turns at the bots' workers (docs/web.md, *Bot time*): a search waits for
//! a worker in one of four lines — games with a page open of one of their
//! people who has a history (an account the server knows), then games with
//! a page of one of their people open, then games someone is still at (a
//! person's move in the last minutes, or a spectator watching), then games
//! nobody is at (abandoned, or bots among themselves) — and within a line
//! the lanes take turns: one per client address the game was made from (a
//! game made by the server, a lane of its own). So a person at their page
//! waits at most for the searches running now, whatever crowd of games
//! from elsewhere queues (one search per other address with a page open,
//! at worst, and none for people with a history), and abandoned games get
//! only the time nobody else wants.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};

use tokio::sync::oneshot;

/// Which line a search waits in, first served first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Line {
    /// A page is open of one of the game's people who has a history
    /// (services/history.rs): served first, the place kept for them.
    Known = 0,
    /// A page of one of the game's people is open (or a person asks for a
    /// hint).
    Open = 1,
    /// No page of theirs is open, but a person moved a moment ago (a
    /// program over HTTP, a page just closed) or someone watches.
    Recent = 2,
    /// Nobody is at the game: served when nobody else waits.
    Away = 3,
}

/// How many lines there are.
const LINES: usize = 4;

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
    lines: [Lanes; LINES],
    /// Turns given from each line since the start (tests, health).
    served: [u64; LINES],
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
        let inner = Inner { free: size.max(1), lines: Default::default(), served: [0; LINES] };
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
    pub fn waiting(&self) -> [usize; LINES] {
        let inner = self.inner();
        std::array::from_fn(|i| inner.lines[i].len())
    }

    /// Turns given from each line since the start.
    pub fn served(&self) -> [u64; LINES] {
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
                let first = (0..LINES).find_map(|line| inner.lines[line].pop().map(|tx| (tx, line)));
                match first {
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
    async fn an_open_page_first_then_the_lanes_take_turns_then_nobody_s_games() {
        let turns = Turns::new(1);
        let log = Arc::new(Mutex::new(Vec::new()));
        let busy = turns.take(Line::Away, "x").await;
        // An abandoned game's search, then 100 searches of games their
        // people just moved in and left, from five addresses…
        let mut waiting = vec![ask(&turns, Line::Away, "abandoned", &log)];
        settle().await;
        for i in 0..100 {
            waiting.push(ask(&turns, Line::Recent, &format!("crowd{}", i % 5), &log));
            settle().await;
        }
        // …then another address's, and last a player's at their page.
        waiting.push(ask(&turns, Line::Recent, "zed", &log));
        settle().await;
        waiting.push(ask(&turns, Line::Open, "ada", &log));
        settle().await;
        assert_eq!(turns.waiting(), [0, 1, 101, 1]);
        drop(busy);
        for w in waiting {
            w.await.unwrap();
        }
        let order = log.lock().unwrap().clone();
        assert_eq!(order[0], "ada", "the player at their page goes first: {order:?}");
        assert_eq!(order[1..8], ["crowd0", "crowd1", "crowd2", "crowd3", "crowd4", "zed", "crowd0"], "{order:?}");
        assert_eq!(order.last().map(String::as_str), Some("abandoned"), "nobody's game last: {order:?}");
        assert_eq!(order.len(), 103);
        assert_eq!((turns.free(), turns.served()), (1, [0, 1, 101, 2]));
    }

    #[tokio::test]
    async fn people_with_a_history_go_before_a_crowd_at_their_pages() {
        let turns = Turns::new(1);
        let log = Arc::new(Mutex::new(Vec::new()));
        let busy = turns.take(Line::Open, "x").await;
        // Fifty fresh addresses, each with a page open on a bot game…
        let mut waiting = Vec::new();
        for i in 0..50 {
            waiting.push(ask(&turns, Line::Open, &format!("fresh{i}"), &log));
            settle().await;
        }
        // …and last, someone the server knows, at their page.
        waiting.push(ask(&turns, Line::Known, "known", &log));
        settle().await;
        drop(busy);
        for w in waiting {
            w.await.unwrap();
        }
        let order = log.lock().unwrap().clone();
        assert_eq!(order[0], "known", "{order:?}");
        assert_eq!(order[1], "fresh0", "then the crowd, in turn: {order:?}");
        assert_eq!(turns.served(), [1, 51, 0, 0]);
    }

    #[tokio::test]
    async fn a_free_worker_is_taken_at_once_and_given_back() {
        let turns = Turns::new(2);
        let a = turns.take(Line::Open, "a").await;
        let b = turns.take(Line::Away, "b").await;
        assert_eq!(turns.free(), 0);
        drop(a);
        assert_eq!(turns.free(), 1);
        drop(b);
        assert_eq!((turns.free(), turns.served()), (2, [0, 1, 0, 1]));
    }

    #[tokio::test]
    async fn a_waiter_that_left_passes_its_turn_on() {
        let turns = Turns::new(1);
        let log = Arc::new(Mutex::new(Vec::new()));
        let busy = turns.take(Line::Open, "a").await;
        let gone = ask(&turns, Line::Open, "gone", &log);
        settle().await;
        let next = ask(&turns, Line::Open, "next", &log);
        settle().await;
        gone.abort();
        settle().await;
        drop(busy);
        next.await.unwrap();
        assert_eq!(log.lock().unwrap().as_slice(), ["next"]);
        assert_eq!(turns.free(), 1, "no worker lost");
    }
}

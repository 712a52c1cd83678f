//! The reviews being worked out: their threads (the lowest priority, each
//! position after the bots), the caps, and the last ones asked for.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use carcassonne::record::{Record, Replayer};
use carcassonne_ai::review::{MoveReview, Review, ReviewOptions};
use carcassonne_ai::Budget;
use serde::Serialize;

use crate::error::ApiError;
use crate::services::bots::BotGate;
use crate::services::quotas::Spender;

/// Reviews kept in memory (those in progress included).
pub const KEPT: usize = 256;

/// What `GET /api/games/{id}/review` answers.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum ReviewStatus {
    /// Being worked out: `done` of `total` moves reviewed (`202 Accepted`).
    Computing { done: usize, total: usize },
    /// The whole review (`200 OK`).
    Done { review: Arc<Review> },
    /// It could not be made (the record does not replay, a task failed).
    Failed { message: String },
}

type Job = Box<dyn FnOnce() + Send>;

/// Places for reviews kept for people with a history, past
/// `Config::max_reviews`; their reviews go first in the threads' line.
pub const KNOWN_REVIEW_PLACES: usize = 2;

/// The reviews waiting for a thread: those of people with a history first.
#[derive(Default)]
struct Lines {
    known: std::collections::VecDeque<Job>,
    open: std::collections::VecDeque<Job>,
    /// The pool is gone: its threads end.
    closed: bool,
}

/// The reviews' own threads, at the lowest priority.
struct Pool {
    lines: Arc<(Mutex<Lines>, std::sync::Condvar)>,
}

impl Pool {
    fn new(workers: usize) -> Pool {
        let lines: Arc<(Mutex<Lines>, std::sync::Condvar)> = Arc::default();
        for i in 0..workers.max(1) {
            let lines = Arc::clone(&lines);
            let spawned = std::thread::Builder::new().name(format!("review-{i}")).spawn(move || {
                lowest_priority();
                while let Some(job) = Pool::next(&lines) {
                    job();
                }
            });
            if let Err(e) = spawned {
                tracing::error!(error = %e, "cannot start a review thread");
            }
        }
        Pool { lines }
    }

    /// The next review to work out, once there is one; none once the pool is gone.
    fn next(lines: &(Mutex<Lines>, std::sync::Condvar)) -> Option<Job> {
        let (lock, ready) = lines;
        let mut l = lock.lock().unwrap_or_else(|e| e.into_inner());
        loop {
            if l.closed {
                return None;
            }
            if let Some(job) = l.known.pop_front().or_else(|| l.open.pop_front()) {
                return Some(job);
            }
            l = ready.wait(l).unwrap_or_else(|e| e.into_inner());
        }
    }

    /// Puts `job` in its line: a known person's before everyone else's.
    fn run(&self, job: Job, known: bool) {
        let (lock, ready) = &*self.lines;
        let mut l = lock.lock().unwrap_or_else(|e| e.into_inner());
        if known { &mut l.known } else { &mut l.open }.push_back(job);
        ready.notify_one();
    }
}

impl Drop for Pool {
    fn drop(&mut self) {
        let (lock, ready) = &*self.lines;
        lock.lock().unwrap_or_else(|e| e.into_inner()).closed = true;
        ready.notify_all();
    }
}

/// The calling thread runs at the lowest priority (nice 19) where the system
/// allows it, so that the bots' and requests' threads always go first.
fn lowest_priority() {
    #[cfg(target_os = "linux")]
    // SAFETY: setpriority only reads its arguments; `who = 0` is this thread
    // (Linux gives each thread its own nice value).
    unsafe {
        libc::setpriority(libc::PRIO_PROCESS, 0, 19);
    }
}

struct Entry {
    /// When it was last asked for (`Reviews::clock`).
    asked: u64,
    status: ReviewStatus,
    /// Who started it (while it is being worked out).
    by: Option<Spender>,
    /// Whether in a place kept for people with a history.
    kept: bool,
}

/// The reviews being worked out and made, by game id, on their own threads.
pub struct Work {
    entries: Mutex<HashMap<String, Entry>>,
    options: ReviewOptions,
    /// Counts requests, to forget the least recently asked for first.
    clock: AtomicU64,
    gate: Arc<BotGate>,
    pool: Pool,
    max_running: usize,
    max_per_ip: usize,
    /// Reviews worked out by this server since it started.
    pub(crate) worked_out: AtomicU64,
}

impl Work {
    /// With `quick`, a few iterations a position (tests); else
    /// `CARCASSONNE_REVIEW_MS` milliseconds a position, by default 500 (a
    /// 72-tile game in about 40 s of one worker). Positions wait at `gate`.
    pub fn new(quick: bool, config: &crate::config::Config, gate: Arc<BotGate>) -> Work {
        let ms = std::env::var("CARCASSONNE_REVIEW_MS").ok().and_then(|v| v.trim().parse::<u64>().ok());
        let budget = if quick {
            Budget::Iterations(40)
        } else {
            Budget::Time(Duration::from_millis(ms.unwrap_or(500).clamp(10, 60_000)))
        };
        Work {
            entries: Mutex::default(),
            options: ReviewOptions { budget, seed: 1, threads: 1 },
            clock: Default::default(),
            gate,
            pool: Pool::new(config.review_workers),
            max_running: config.max_reviews.min(KEPT - 1),
            max_per_ip: config.max_reviews_per_ip,
            worked_out: Default::default(),
        }
    }

    pub fn options(&self) -> &ReviewOptions {
        &self.options
    }

    /// Reviews worked out by this server since it started (not read back
    /// from the store).
    pub fn worked_out(&self) -> u64 {
        self.worked_out.load(Ordering::Relaxed)
    }

    /// Reviews being worked out or waiting their turn now.
    pub fn in_progress(&self) -> usize {
        self.entries().values().filter(|e| matches!(e.status, ReviewStatus::Computing { .. })).count()
    }

    fn entries(&self) -> std::sync::MutexGuard<'_, HashMap<String, Entry>> {
        self.entries.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn tick(&self) -> u64 {
        self.clock.fetch_add(1, Ordering::Relaxed)
    }

    /// The review of `id` if this server holds it.
    pub(crate) fn held(&self, id: &str) -> Option<ReviewStatus> {
        let now = self.tick();
        let mut entries = self.entries();
        let e = entries.get_mut(id)?;
        e.asked = now;
        Some(e.status.clone())
    }

    /// Keeps `status` for `id`, forgetting the least recently asked for
    /// finished review if full (one in progress is never forgotten).
    pub(crate) fn keep(&self, id: &str, status: ReviewStatus) {
        self.keep_for(id, status, None, false);
    }

    fn keep_for(&self, id: &str, status: ReviewStatus, by: Option<Spender>, kept: bool) {
        let now = self.tick();
        let mut entries = self.entries();
        if entries.len() >= KEPT && !entries.contains_key(id) {
            let old = entries
                .iter()
                .filter(|(_, e)| !matches!(e.status, ReviewStatus::Computing { .. }))
                .min_by_key(|(_, e)| e.asked)
                .map(|(k, _)| k.clone());
            if let Some(k) = old {
                entries.remove(&k);
            }
        }
        entries.insert(id.to_string(), Entry { asked: now, status, by, kept });
    }

    /// Takes a place for the review of `id` (of `total` moves) asked for by
    /// `by` (a person with a history by their account, if `known`, anyone
    /// else by their address), within the caps: `None` when taken, or the
    /// status of one already there (two requests at once start one review).
    /// A known person may take one of the [`KNOWN_REVIEW_PLACES`] kept past
    /// the cap in all, so that a crowd of addresses keeps nobody known out.
    ///
    /// # Errors
    /// `busy`: as many reviews are in progress, in all or for `by`.
    pub(crate) fn reserve(
        &self,
        id: &str,
        total: usize,
        by: Option<Spender>,
        known: bool,
    ) -> Result<Option<ReviewStatus>, ApiError> {
        let entries = self.entries();
        if let Some(e) = entries.get(id) {
            return Ok(Some(e.status.clone()));
        }
        let running = entries.values().filter(|e| matches!(e.status, ReviewStatus::Computing { .. }));
        let (mut open, mut kept, mut mine) = (0, 0, 0);
        for e in running {
            if e.kept {
                kept += 1;
            } else {
                open += 1;
            }
            if by.is_some() && e.by == by {
                mine += 1;
            }
        }
        let in_kept_place = open >= self.max_running;
        if in_kept_place && !(known && kept < KNOWN_REVIEW_PLACES) {
            return Err(ApiError::TryLater(format!("{} reviews are being worked out", self.max_running)));
        }
        if by.is_some() && mine >= self.max_per_ip {
            return Err(ApiError::TryLater(format!("{} reviews being worked out for one person", self.max_per_ip)));
        }
        drop(entries);
        self.keep_for(id, ReviewStatus::Computing { done: 0, total }, by, in_kept_place);
        Ok(None)
    }

    /// Forgets `id` (a place taken for a review this server does not make).
    pub(crate) fn forget(&self, id: &str) {
        self.entries().remove(id);
    }

    pub(crate) fn set(&self, id: &str, status: ReviewStatus) {
        if let Some(e) = self.entries().get_mut(id) {
            e.status = status;
            if !matches!(e.status, ReviewStatus::Computing { .. }) {
                e.by = None;
            }
        }
    }

    /// Works the review out on the pool, each position once no bot waits.
    pub(crate) fn work_out(
        self: &Arc<Self>,
        id: &str,
        record: Record,
        known: bool,
    ) -> tokio::sync::oneshot::Receiver<Result<Review, String>> {
        let (tx, rx) = tokio::sync::oneshot::channel();
        let reviews = Arc::clone(self);
        let id = id.to_string();
        let job: Job = Box::new(move || {
            let _ = tx.send(reviews.positions_reviewed(&id, &record));
        });
        self.pool.run(job, known);
        rx
    }

    /// Every position of `record`, one at a time (the replay holds only the
    /// position being reviewed), each after the bots.
    fn positions_reviewed(&self, id: &str, record: &Record) -> Result<Review, String> {
        let started = std::time::Instant::now();
        let total = record.moves.len();
        let mut replay = Replayer::new(record.setup().map_err(|e| e.to_string())?).map_err(|e| e.to_string())?;
        let mut moves: Vec<MoveReview> = Vec::with_capacity(total);
        for (i, m) in record.moves.iter().enumerate() {
            let before = replay.game().clone();
            replay.step(m).map_err(|e| e.to_string())?;
            let played = *replay.game().history().last().ok_or("a move was not played")?;
            // Bots first, always: wait until none waits or runs.
            self.gate.wait_for_bots();
            moves.push(carcassonne_ai::review::review_position(&before, played, &self.options));
            self.set(id, ReviewStatus::Computing { done: i + 1, total });
        }
        Ok(Review::new(record, &self.options, moves, started.elapsed()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use carcassonne::{Game, Setup};

    fn address(i: u8) -> Option<Spender> {
        Some(Spender::Address(std::net::IpAddr::from([10, 0, 0, i])))
    }

    fn finished_record() -> Record {
        let mut game = Game::new(Setup::standard(carcassonne::Rules::default(), 2, 7)).unwrap();
        let mut rng = <rand_chacha::ChaCha8Rng as rand_core::SeedableRng>::seed_from_u64(7);
        let mut mover = carcassonne::RandomMover::new();
        while let Some(mv) = mover.choose(&game, &mut rng) {
            game.play(&mv).unwrap();
        }
        assert!(game.is_over());
        Record::from_game(&game, &["A".into(), "B".into()])
    }

    #[tokio::test]
    async fn a_review_waits_while_a_bot_searches() {
        let gate = Arc::new(BotGate::default());
        let config = crate::config::Config::quick();
        let reviews = Arc::new(Work::new(true, &config, Arc::clone(&gate)));
        let record = finished_record();
        let total = record.moves.len();
        // A bot asks for a worker before the review starts.
        let turn = gate.bot_turn();
        reviews.keep("g", ReviewStatus::Computing { done: 0, total });
        let done = reviews.work_out("g", record, false);
        tokio::time::sleep(Duration::from_millis(300)).await;
        assert_eq!(reviews.held("g"), Some(ReviewStatus::Computing { done: 0, total }), "no position before the bot");
        drop(turn);
        let review = tokio::time::timeout(Duration::from_secs(60), done).await.unwrap().unwrap().unwrap();
        assert_eq!(review.moves.len(), total);
    }

    #[test]
    fn reviews_in_progress_are_capped_in_all_and_per_address() {
        let config = crate::config::Config { max_reviews: 3, max_reviews_per_ip: 2, ..crate::config::Config::quick() };
        let reviews = Work::new(true, &config, Arc::default());
        let (a, b) = (address(1), address(2));
        assert_eq!(reviews.reserve("1", 1, a.clone(), false).unwrap(), None);
        assert_eq!(reviews.reserve("2", 1, a.clone(), false).unwrap(), None);
        let refused = reviews.reserve("x", 1, a.clone(), false).unwrap_err();
        assert_eq!(refused.code(), "busy");
        // One in progress is followed, whoever asks.
        let computing = ReviewStatus::Computing { done: 0, total: 1 };
        assert_eq!(reviews.reserve("1", 1, b.clone(), false).unwrap(), Some(computing));
        assert_eq!(reviews.reserve("3", 1, b.clone(), false).unwrap(), None);
        assert_eq!(reviews.reserve("y", 1, b, false).unwrap_err().code(), "busy", "three in all");
        // A finished one makes room.
        reviews.set("1", ReviewStatus::Failed { message: "x".into() });
        assert_eq!(reviews.reserve("x", 1, a, false).unwrap(), None);
    }

    #[test]
    fn the_cache_never_forgets_a_review_in_progress() {
        let config = crate::config::Config::quick();
        let reviews = Work::new(true, &config, Arc::default());
        for i in 0..KEPT {
            reviews.keep(&i.to_string(), ReviewStatus::Computing { done: 0, total: 1 });
        }
        reviews.set("0", ReviewStatus::Failed { message: "x".into() });
        reviews.keep("new", ReviewStatus::Failed { message: "y".into() });
        let entries = reviews.entries();
        assert_eq!(entries.len(), KEPT);
        assert!(!entries.contains_key("0"), "the finished one went");
        assert!(entries.values().filter(|e| matches!(e.status, ReviewStatus::Computing { .. })).count() == KEPT - 1);
    }

    #[test]
    fn a_crowd_s_reviews_leave_the_places_kept_for_people_with_a_history() {
        let config = crate::config::Config { max_reviews: 4, max_reviews_per_ip: 2, ..crate::config::Config::quick() };
        let reviews = Work::new(true, &config, Arc::default());
        // Two fresh addresses fill the places, a third is told busy.
        for i in 0..4 {
            assert_eq!(reviews.reserve(&format!("crowd{i}"), 1, address(10 + i / 2), false).unwrap(), None);
        }
        assert_eq!(reviews.reserve("more", 1, address(20), false).unwrap_err().code(), "busy");
        // People with a history take the places kept, each counted by the
        // account, not the crowded address they share.
        let ada = || Some(Spender::Account("ada".into()));
        assert_eq!(reviews.reserve("ada1", 1, ada(), true).unwrap(), None);
        assert_eq!(reviews.reserve("bob1", 1, Some(Spender::Account("bob".into())), true).unwrap(), None);
        assert_eq!(
            reviews.reserve("cleo1", 1, Some(Spender::Account("cleo".into())), true).unwrap_err().code(),
            "busy"
        );
        // A crowd's review ending frees an open place, not a kept one.
        reviews.set("crowd0", ReviewStatus::Failed { message: "x".into() });
        assert_eq!(reviews.reserve("ada2", 1, ada(), true).unwrap(), None, "an open place");
        assert_eq!(reviews.reserve("ada3", 1, ada(), true).unwrap_err().code(), "busy", "two for one person");
        reviews.set("bob1", ReviewStatus::Failed { message: "x".into() });
        assert_eq!(reviews.reserve("more", 1, address(20), false).unwrap_err().code(), "busy", "a kept place");
        assert_eq!(reviews.reserve("cleo1", 1, Some(Spender::Account("cleo".into())), true).unwrap(), None);
    }

    #[test]
    fn a_known_person_s_review_goes_first_in_the_threads_line() {
        let pool = Pool::new(1);
        let order = Arc::new(Mutex::new(Vec::new()));
        // The one thread is held while the line forms.
        let (hold, held) = std::sync::mpsc::channel::<()>();
        pool.run(Box::new(move || held.recv().unwrap_or_default()), false);
        let (done, finished) = std::sync::mpsc::channel();
        for (name, known) in [("open1", false), ("open2", false), ("known", true), ("open3", false)] {
            let (order, done) = (Arc::clone(&order), done.clone());
            pool.run(
                Box::new(move || {
                    order.lock().unwrap().push(name);
                    done.send(()).unwrap();
                }),
                known,
            );
        }
        hold.send(()).unwrap();
        for _ in 0..4 {
            finished.recv_timeout(Duration::from_secs(10)).unwrap();
        }
        assert_eq!(*order.lock().unwrap(), ["known", "open1", "open2", "open3"]);
    }
}

//! The reviews being worked out: their threads (the lowest priority, each
//! position after the bots), the caps, and the last ones asked for.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use carcassonne::record::{Record, Replayer};
use carcassonne_ai::review::{MoveReview, Review, ReviewOptions};
use carcassonne_ai::Budget;
use serde::Serialize;

use crate::error::ApiError;
use crate::services::bots::BotGate;

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

/// The reviews' own threads, at the lowest priority.
struct Pool {
    jobs: Mutex<std::sync::mpsc::Sender<Job>>,
}

impl Pool {
    fn new(workers: usize) -> Pool {
        let (tx, rx) = std::sync::mpsc::channel::<Job>();
        let rx = Arc::new(Mutex::new(rx));
        for i in 0..workers.max(1) {
            let rx = Arc::clone(&rx);
            let spawned = std::thread::Builder::new().name(format!("review-{i}")).spawn(move || {
                lowest_priority();
                loop {
                    let job = rx.lock().unwrap_or_else(|e| e.into_inner()).recv();
                    match job {
                        Ok(job) => job(),
                        Err(_) => return, // the pool is gone
                    }
                }
            });
            if let Err(e) = spawned {
                tracing::error!(error = %e, "cannot start a review thread");
            }
        }
        Pool { jobs: Mutex::new(tx) }
    }

    fn run(&self, job: Job) -> bool {
        self.jobs.lock().unwrap_or_else(|e| e.into_inner()).send(job).is_ok()
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
    by: Option<IpAddr>,
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
    pub(crate) fn keep(&self, id: &str, status: ReviewStatus, by: Option<IpAddr>) {
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
        entries.insert(id.to_string(), Entry { asked: now, status, by });
    }

    /// Takes a place for the review of `id` (of `total` moves) started by
    /// `ip`, within the caps: `None` when taken, or the status of one
    /// already there (two requests at once start one review).
    ///
    /// # Errors
    /// `busy`: as many reviews are in progress, in all or for `ip`.
    pub(crate) fn reserve(&self, id: &str, total: usize, ip: Option<IpAddr>) -> Result<Option<ReviewStatus>, ApiError> {
        let entries = self.entries();
        if let Some(e) = entries.get(id) {
            return Ok(Some(e.status.clone()));
        }
        let running = entries.values().filter(|e| matches!(e.status, ReviewStatus::Computing { .. }));
        let (mut all, mut mine) = (0, 0);
        for e in running {
            all += 1;
            if ip.is_some() && e.by == ip {
                mine += 1;
            }
        }
        if all >= self.max_running {
            return Err(ApiError::TryLater(format!("{} reviews are being worked out", self.max_running)));
        }
        if ip.is_some() && mine >= self.max_per_ip {
            return Err(ApiError::TryLater(format!("{} reviews being worked out for one address", self.max_per_ip)));
        }
        drop(entries);
        self.keep(id, ReviewStatus::Computing { done: 0, total }, ip);
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
    ) -> tokio::sync::oneshot::Receiver<Result<Review, String>> {
        let (tx, rx) = tokio::sync::oneshot::channel();
        let reviews = Arc::clone(self);
        let id = id.to_string();
        let job: Job = Box::new(move || {
            let _ = tx.send(reviews.positions_reviewed(&id, &record));
        });
        if !self.pool.run(job) {
            tracing::error!("the review threads are gone");
        }
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
        reviews.keep("g", ReviewStatus::Computing { done: 0, total }, None);
        let done = reviews.work_out("g", record);
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
        let (a, b): (IpAddr, IpAddr) = ("10.0.0.1".parse().unwrap(), "10.0.0.2".parse().unwrap());
        assert_eq!(reviews.reserve("1", 1, Some(a)).unwrap(), None);
        assert_eq!(reviews.reserve("2", 1, Some(a)).unwrap(), None);
        let refused = reviews.reserve("x", 1, Some(a)).unwrap_err();
        assert_eq!(refused.code(), "busy");
        // One in progress is followed, whoever asks.
        let computing = ReviewStatus::Computing { done: 0, total: 1 };
        assert_eq!(reviews.reserve("1", 1, Some(b)).unwrap(), Some(computing));
        assert_eq!(reviews.reserve("3", 1, Some(b)).unwrap(), None);
        assert_eq!(reviews.reserve("y", 1, Some(b)).unwrap_err().code(), "busy", "three in all");
        // A finished one makes room.
        reviews.set("1", ReviewStatus::Failed { message: "x".into() });
        assert_eq!(reviews.reserve("x", 1, Some(a)).unwrap(), None);
    }

    #[test]
    fn the_cache_never_forgets_a_review_in_progress() {
        let config = crate::config::Config::quick();
        let reviews = Work::new(true, &config, Arc::default());
        for i in 0..KEPT {
            reviews.keep(&i.to_string(), ReviewStatus::Computing { done: 0, total: 1 }, None);
        }
        reviews.set("0", ReviewStatus::Failed { message: "x".into() });
        reviews.keep("new", ReviewStatus::Failed { message: "y".into() }, None);
        let entries = reviews.entries();
        assert_eq!(entries.len(), KEPT);
        assert!(!entries.contains_key("0"), "the finished one went");
        assert!(entries.values().filter(|e| matches!(e.status, ReviewStatus::Computing { .. })).count() == KEPT - 1);
    }
}

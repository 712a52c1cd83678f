//! The bots of games in play: one driver per game, searches on the bots'
//! worker pool in turn (`turns.rs`: games with a person here first, the
//! lanes of the addresses taking turns), one server per game (the lease).
//! Bots first, always: the gate counts the searches of games with a person
//! here, waiting or running, and reviews wait for it.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, Weak};
use std::time::{Duration, Instant};

use carcassonne::PlayerId;

use super::games::live::Live;
use super::games::Games;
use super::history::Histories;
use crate::bots::{self, BotLevel, ExternalBot};
use crate::config::Config;
use crate::error::ApiError;
use crate::store::{Change, ClusterRepo, GameRepo, Store};

pub mod turns;

use self::turns::{Line, Turns};

/// The bots' worker pool: the turns at its workers (one search each at
/// once), and the gate reviews wait at.
#[derive(Clone)]
pub struct Workers {
    pub turns: Arc<Turns>,
    pub gate: Arc<BotGate>,
}

impl Workers {
    pub fn new(workers: usize) -> Workers {
        Workers { turns: Turns::new(workers), gate: Arc::default() }
    }
}

/// Bot searches waiting or running: reviews start a position only when
/// there are none.
#[derive(Debug, Default)]
pub struct BotGate {
    busy: Mutex<usize>,
    calm: Condvar,
}

/// A bot search counted at the gate, from when it asks for a worker until it
/// has moved; dropping it counts it out.
pub struct BotTurn(Arc<BotGate>);

impl BotGate {
    fn busy(&self) -> std::sync::MutexGuard<'_, usize> {
        self.busy.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Counts a bot search in (until the turn is dropped).
    pub fn bot_turn(self: &Arc<Self>) -> BotTurn {
        *self.busy() += 1;
        BotTurn(Arc::clone(self))
    }

    /// Bot searches waiting or running now.
    pub fn bots(&self) -> usize {
        *self.busy()
    }

    /// Blocks (a review worker's thread) until no bot search waits or runs.
    pub fn wait_for_bots(&self) {
        let mut busy = self.busy();
        while *busy > 0 {
            busy = self.calm.wait(busy).unwrap_or_else(|e| e.into_inner());
        }
    }
}

impl Drop for BotTurn {
    fn drop(&mut self) {
        let mut busy = self.0.busy();
        *busy = busy.saturating_sub(1);
        if *busy == 0 {
            self.0.calm.notify_all();
        }
    }
}

/// The bots of the games in play here.
pub struct Bots {
    games: Arc<Games>,
    stored: Arc<dyn GameRepo>,
    cluster: Arc<dyn ClusterRepo>,
    workers: Workers,
    size: usize,
    quick: bool,
    programs: Vec<ExternalBot>,
    delay: Duration,
    /// Bot searches started on this server (each bot move is thought about
    /// by one server only).
    thoughts: AtomicU64,
    /// Who has a history: their games' bots think first.
    histories: Arc<Histories>,
    /// Itself, for the drivers it starts.
    me: Weak<Bots>,
}

impl Bots {
    pub fn new(
        store: &Store,
        games: Arc<Games>,
        histories: Arc<Histories>,
        workers: Workers,
        config: &Config,
    ) -> Arc<Bots> {
        Arc::new_cyclic(|me| Bots {
            games,
            histories,
            stored: Arc::clone(&store.games),
            cluster: Arc::clone(&store.cluster),
            workers,
            size: config.bot_workers.max(1),
            quick: config.quick_bots,
            programs: config.external_bots.clone(),
            delay: config.bot_delay,
            thoughts: AtomicU64::new(0),
            me: me.clone(),
        })
    }

    /// Bot searches started by this server since it started.
    pub fn thoughts(&self) -> u64 {
        self.thoughts.load(Ordering::Relaxed)
    }

    /// Bot searches running now (at most `Config::bot_workers`).
    pub fn searching(&self) -> usize {
        self.size.saturating_sub(self.workers.turns.free())
    }

    /// The workers' turns (searches waiting, turns given by line).
    pub fn turns(&self) -> &Turns {
        &self.workers.turns
    }

    /// Starts the bots of every unfinished game whose turn is a bot's (a
    /// server that stopped mid-game picks up where it left off), with a
    /// storage that only this server uses. Returns how many games were
    /// resumed.
    ///
    /// # Errors
    /// The storage fails.
    pub async fn resume(&self) -> Result<usize, ApiError> {
        if self.cluster.server().is_some() {
            // Servers sharing the storage claim the bots nobody drives at
            // their heartbeats, a few at a time (`ClusterRepo::beat`).
            return Ok(0);
        }
        let games = self.stored.in_play().await?;
        let mut resumed = 0;
        for g in games {
            let bot_turn =
                g.progress.to_move.and_then(|p| g.seats.get(p as usize)).is_some_and(|s| s.bot_level().is_some());
            if bot_turn {
                match self.games.game(&g.id).await {
                    Ok(_) => resumed += 1,
                    Err(e) => tracing::error!(game = %g.id, error = %e, "cannot resume the game"),
                }
            }
        }
        Ok(resumed)
    }

    /// Lets the bots play while it is their turn (one driver per game).
    pub fn kick(&self, live: &Arc<Live>) {
        // Most moves leave a person to move: nothing to start then.
        if let Ok(t) = live.table.try_lock() {
            if t.bots_running || t.bot_to_move().is_none() {
                return;
            }
        }
        let Some(bots) = self.me.upgrade() else { return };
        let live = Arc::clone(live);
        tokio::spawn(async move { bots.drive(live).await });
    }

    async fn drive(self: Arc<Self>, live: Arc<Live>) {
        {
            let mut t = live.lock().await;
            if t.bots_running || t.bot_to_move().is_none() {
                return;
            }
            t.bots_running = true;
        }
        // One server drives a game's bots: the one holding its lease (with
        // a storage that only this server uses, this one).
        if !self.take_lease(&live).await {
            tracing::debug!(game = %live.id, "another server drives the game's bots");
            live.lock().await.bots_running = false;
            return;
        }
        loop {
            let quick = self.quick;
            let programs = &self.programs;
            let next = {
                let mut t = live.lock().await;
                match t.bot_to_move() {
                    Some((seat, level)) => {
                        // (The game may go back to an earlier move and come to
                        // this version again: a takeback. `rewinds` tells.)
                        let (version, rewinds, names) = (t.version(), t.rewinds, t.names());
                        // (Whether one of them has a history is read below,
                        // off the table's lock.)
                        let line = if t.page_open() {
                            Line::Open
                        } else if t.moved_lately(crate::services::ids::now_ms()) || live.watched() {
                            Line::Recent
                        } else {
                            Line::Away
                        };
                        // Nobody is at the game: its bots play as the
                        // cheapest search, whatever their level.
                        let level = if line == Line::Away { level.at_most_easy() } else { level };
                        let lane = t.owner.clone().unwrap_or_else(|| live.id.clone());
                        // A random move takes microseconds: chosen now, on
                        // the table's game (no copy, no worker); a search
                        // gets a copy to think on while the game is free.
                        let game = if level == BotLevel::Random {
                            let seed = bot_seed(&live.id, version);
                            Think::Chosen(bots::choose_bot_move(
                                &level, &t.game, seed, quick, programs, &live.id, &names,
                            ))
                        } else {
                            Think::On(self.games.copy_of(&t.game))
                        };
                        let here = if line == Line::Open { t.accounts_at_their_page() } else { Vec::new() };
                        Ok((game, level, seat, (version, rewinds), names, line, lane, here))
                    }
                    None => Err(t.thinking.take().is_some()),
                }
            };
            let (game, level, seat, (version, rewinds), names, line, lane, here) = match next {
                Ok(next) => next,
                Err(stopped) => {
                    if stopped {
                        live.changed();
                    }
                    // The lease goes while this driver still counts as
                    // running: no second driver starts here meanwhile.
                    self.release_bots(&live).await;
                    let mut t = live.lock().await;
                    if t.bot_to_move().is_none() {
                        t.bots_running = false;
                        return;
                    }
                    drop(t);
                    // A move came as the lease went: take it again (unless
                    // another server took it first).
                    if self.take_lease(&live).await {
                        continue;
                    }
                    live.lock().await.bots_running = false;
                    return;
                }
            };
            let mut line = line;
            for account in &here {
                if self.histories.of_id(account).await {
                    line = Line::Known;
                    break;
                }
            }
            self.thoughts.fetch_add(1, Ordering::Relaxed);
            let started = Instant::now();
            let seed = bot_seed(&live.id, version);
            let (programs, id) = (programs.clone(), live.id.clone());
            let turns = Arc::clone(&self.workers.turns);
            let gate = Arc::clone(&self.workers.gate);
            let delay = self.delay;
            let thought = async move {
                let chosen = match game {
                    Think::Chosen(chosen) => Ok(chosen),
                    Think::On(game) => {
                        // Bots take turns at the workers: a person's move never
                        // waits for a core behind a crowd of searches, nor
                        // behind games nobody is at. Counted at the gate from
                        // now until its search is done: reviews wait meanwhile
                        // (bots first, always; abandoned games' bots aside).
                        let _counted = (line != Line::Away).then(|| gate.bot_turn());
                        let turn = turns.take(line, &lane).await;
                        tokio::task::spawn_blocking(move || {
                            let _turn = turn;
                            bots::choose_bot_move(&level, &game, seed, quick, &programs, &id, &names)
                        })
                        .await
                    }
                };
                let wait = delay.saturating_sub(started.elapsed());
                if !wait.is_zero() {
                    tokio::time::sleep(wait).await;
                }
                chosen
            };
            tokio::pin!(thought);
            // A bot that answers within a frame is not shown thinking (one
            // message less for every viewer); one that takes longer is, on
            // every server.
            let (chosen, shown) = tokio::select! {
                chosen = &mut thought => (chosen, false),
                () = tokio::time::sleep(SHOW_THINKING_AFTER) => {
                    let mut t = live.lock().await;
                    if t.version() == version && t.rewinds == rewinds {
                        t.thinking = Some(seat);
                        live.changed();
                    }
                    drop(t);
                    self.publish_thinking(&live, version, Some(seat)).await;
                    (thought.await, true)
                }
            };

            let mut t = live.lock().await;
            t.thinking = None;
            let mut moved = false;
            let chosen = chosen.map(|c| {
                if let Some(n) = c.notice {
                    t.notice = Some((version, n));
                }
                c.mv
            });
            let result = match chosen {
                // A bot stands in no longer (its player took the seat back): no move.
                Ok(Some(_)) if t.bot_to_move().is_none_or(|(p, _)| p != seat) => Ok(()),
                Ok(Some(mv)) if t.version() == version && t.rewinds == rewinds => {
                    match self.games.commit(&live, &mut t, mv).await {
                        Ok(()) => {
                            moved = true;
                            Ok(())
                        }
                        // Another server moved for the bot first: think again.
                        Err(ApiError::StaleVersion { .. }) => Ok(()),
                        Err(e) => Err(e),
                    }
                }
                Ok(Some(_)) => Ok(()), // the game moved meanwhile: think again
                Ok(None) => Err(ApiError::GameOver),
                Err(e) => Err(ApiError::Storage(format!("bot task failed: {e}"))),
            };
            if let Err(e) = result {
                tracing::error!(game = %live.id, seat = seat.0, error = %e, "the bot could not move");
                drop(t);
                live.changed();
                self.publish_thinking(&live, version, None).await;
                self.release_bots(&live).await;
                live.lock().await.bots_running = false;
                return;
            }
            drop(t);
            if !moved && shown {
                // No move came of this thought (the game moved meanwhile,
                // through the change feed or a lost race): viewers were last
                // shown the bot thinking, so they are told it stopped.
                live.changed();
                self.publish_thinking(&live, version, None).await;
            }
        }
    }

    /// Tells the other servers that a bot of this one is choosing move
    /// `version` (or stopped without moving: `seat: None`).
    async fn publish_thinking(&self, live: &Live, version: u64, seat: Option<PlayerId>) {
        let Some(server) = self.cluster.server() else { return };
        let change =
            Change::Thinking { game: live.id.clone(), server: server.to_string(), version, seat: seat.map(|p| p.0) };
        if let Err(e) = self.cluster.publish(&change).await {
            tracing::warn!(game = %live.id, error = %e, "cannot tell the other servers a bot is thinking");
        }
    }

    /// Whether this server holds the lease on `live`'s bots (taking it if free).
    async fn take_lease(&self, live: &Live) -> bool {
        match self.cluster.claim_bots(&live.id).await {
            Ok(held) => held,
            Err(e) => {
                tracing::error!(game = %live.id, error = %e, "cannot take the lease on the game's bots");
                false
            }
        }
    }

    async fn release_bots(&self, live: &Live) {
        if let Err(e) = self.cluster.release_bots(&live.id).await {
            tracing::warn!(game = %live.id, error = %e, "cannot give up the lease on the game's bots");
        }
    }
}

/// How long a bot may take before its viewers are shown it thinking.
const SHOW_THINKING_AFTER: Duration = Duration::from_millis(16);

/// A bot's random seed for one move of one game.
fn bot_seed(id: &str, version: u64) -> u64 {
    // FNV-1a over the id, then the move number.
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in id.bytes().chain(version.to_le_bytes()) {
        h ^= b as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// A bot's move: chosen already, or to be searched for on a copy of the game.
// (Made once per bot move and moved to the search's thread: not boxed.)
#[allow(clippy::large_enum_variant)]
enum Think {
    Chosen(bots::BotMove),
    On(carcassonne::Game),
}

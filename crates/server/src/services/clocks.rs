//! Clocks that run out, and seats handed to bots (docs/web.md, *Clocks*):
//! the sweeper acts on each deadline passed, on one server only (the one
//! whose conditional update of the stored clock succeeds); the others may
//! hand a seat that ran out of time, or whose player is away, to a bot, and
//! its player takes it back. The clocks themselves are part of a game's
//! state (`games/clock.rs`).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Weak};
use std::time::Duration;

use carcassonne::PlayerId;
use serde::{Deserialize, Serialize};

use super::bots::Bots;
use super::games::clock::{minute_ms, Now};
use super::games::live::{Live, Table, Viewer};
use super::games::new::progress_with;
use super::games::Games;
use super::ids::plausible_id;
use crate::bots::BotLevel;
use crate::error::ApiError;
use crate::store::{ClockRepo, Seat, Store};

/// A request to hand a seat to a bot.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HandOver {
    pub seat: u8,
    #[serde(default)]
    pub level: Option<String>,
    /// A seat token may also come in the body (as with moves).
    #[serde(default)]
    pub token: Option<String>,
}

/// The clocks' sweeper, and seats handed to bots and back.
pub struct Clocks {
    pub(super) games: Arc<Games>,
    pub(super) bots: Arc<Bots>,
    pub(super) repo: Arc<dyn ClockRepo>,
    pub(super) now: Now,
    /// Set once the server leaves: the sweeper stops.
    left: Arc<AtomicBool>,
}

impl Clocks {
    pub fn new(store: &Store, games: Arc<Games>, bots: Arc<Bots>, left: Arc<AtomicBool>) -> Clocks {
        let now = games.now().clone();
        Clocks { games, bots, repo: Arc::clone(&store.clocks), now, left }
    }

    /// Another server changed a game's clocks: this one reads them again.
    pub async fn changed(&self, id: &str) {
        let Some(live) = self.games.in_memory(id) else { return };
        let mut t = live.lock().await;
        // (A move comes before its clocks on the feed: `Change::Moved` caught up.)
        self.games.load_clock_into(id, &mut t).await;
        drop(t);
        live.changed();
        self.bots.kick(&live);
    }

    /// Acts on the clocks that ran out, now and then (every second, or
    /// sooner with a test minute).
    pub fn start(self: &Arc<Self>) {
        let weak: Weak<Clocks> = Arc::downgrade(self);
        let every = Duration::from_millis((minute_ms() / 60).clamp(50, 1000) as u64);
        tokio::spawn(async move {
            loop {
                tokio::time::sleep(every).await;
                let Some(clocks) = weak.upgrade() else { return };
                if clocks.left.load(Ordering::Relaxed) {
                    return;
                }
                if let Err(e) = clocks.sweep().await {
                    tracing::warn!(error = %e, "cannot act on the clocks that ran out");
                }
            }
        });
    }

    /// Acts on every deadline passed now, each on one server only (the one
    /// whose conditional update of the stored clock succeeds). Returns how
    /// many this server acted on.
    ///
    /// # Errors
    /// The storage fails.
    pub async fn sweep(&self) -> Result<usize, ApiError> {
        let now = self.now.ms();
        let due = self.repo.due(now, 100).await?;
        let mut acted = 0;
        for id in due {
            let live = match self.games.game(&id).await {
                Ok(live) => live,
                Err(e) => {
                    tracing::warn!(game = %id, error = %e, "cannot load a game whose clock ran out");
                    continue;
                }
            };
            match self.act_on_clock(&live, now).await {
                Ok(true) => acted += 1,
                Ok(false) => {}
                Err(e) => tracing::warn!(game = %id, error = %e, "cannot act on a clock that ran out"),
            }
        }
        Ok(acted)
    }

    async fn act_on_clock(&self, live: &Arc<Live>, now: i64) -> Result<bool, ApiError> {
        let mut t = live.lock().await;
        // What the storage holds is what counts: another server may have
        // moved or acted.
        self.games.catch_up(live, &mut t).await?;
        self.games.load_clock_into(&live.id, &mut t).await;
        let Some(clock) = t.clock.clone() else { return Ok(false) };
        if clock.deadline.is_none_or(|d| d > now) {
            return Ok(false);
        }
        let Some(p) = t.game.to_move() else { return Ok(false) };
        if clock.offered_version != t.version() {
            return Ok(false);
        }
        let clock_rev = clock.rev;
        let mut next = clock;
        let turn = t.game.moves_played().saturating_add(1);
        // A game whose people all left (no page of theirs open on any
        // server) gets the cheapest stand-in: a random bot needs no worker.
        let anyone_here = t.seats.iter().enumerate().any(|(i, s)| matches!(s, Seat::Human { .. }) && t.seat_online(i));
        let standin = if anyone_here { "normal" } else { "random" };
        if !next.expire(p, turn, now, standin) {
            return Ok(false);
        }
        let json = next.stored_after(clock_rev)?;
        let progress = next.aborted.then(|| progress_with(&t.game, &t.seats, Some(&next)));
        let kept = self
            .repo
            .change(&live.id, t.game.moves_played() as usize, clock_rev, &json, next.deadline, progress.as_ref())
            .await?;
        if !kept {
            // Another server acted first: what it did is read when it says so.
            return Ok(false);
        }
        if next.aborted {
            tracing::info!(game = %live.id, seat = p.0, "a game was aborted: a clock ran out before anyone moved");
        } else {
            tracing::info!(game = %live.id, seat = p.0, "a clock ran out");
        }
        t.clock = Some(next);
        drop(t);
        live.changed();
        self.games.publish_clock(&live.id).await;
        self.bots.kick(live);
        Ok(true)
    }

    /// Seat `seat` is handed to a bot of `level` by `viewer` (holding
    /// another seat), if its time ran out or its player has been away.
    ///
    /// # Errors
    /// `unauthorized` (no seat held, or only that one), `bad_request` (no
    /// such seat, a bot's, a bot stands in already, an unknown level),
    /// `game_over`, `not_away` (time left, or not away long enough),
    /// `stale_version` (the clocks changed meanwhile).
    pub async fn hand_over(&self, live: &Arc<Live>, viewer: &Viewer, req: &HandOver) -> Result<(), ApiError> {
        let level = req.level.as_deref().unwrap_or("normal");
        if BotLevel::from_name(level).is_none() {
            return Err(ApiError::BadRequest(format!("unknown bot level \"{level}\"")));
        }
        let mut t = live.lock().await;
        let p = PlayerId(req.seat);
        if viewer.seats.is_empty() || viewer.holds(p) {
            return Err(ApiError::Unauthorized);
        }
        if t.over() {
            return Err(ApiError::GameOver);
        }
        if !matches!(t.seats.get(p.index()), Some(Seat::Human { .. })) {
            return Err(ApiError::BadRequest(format!("seat {} is not a person's", req.seat)));
        }
        let now = self.now.ms();
        let version = t.version();
        let Some(c) = t.clock.as_ref() else {
            return Err(ApiError::NotAway);
        };
        if c.standin[p.index()].is_some() {
            return Err(ApiError::BadRequest(format!("a bot stands in for seat {} already", req.seat)));
        }
        if !c.may_hand_over(&t.game, p, now, t.updated_at, t.rated) {
            return Err(ApiError::NotAway);
        }
        let mut next = c.clone();
        let turn = t.game.moves_played().saturating_add(1);
        let by = viewer.seats.first().map(|s| s.0);
        next.stand_in(p, level, by, turn, now);
        // In a rated game the seat handed over loses, as one that ran out
        // of time does (a claim of the game): placed last at the end.
        if t.rated && next.timed_out.is_none() {
            next.timed_out = Some(p.0);
        }
        let json = next.stored_after(c.rev)?;
        if !self.repo.swap(&live.id, c.rev, &json, next.deadline).await? {
            self.games.load_clock_into(&live.id, &mut t).await;
            return Err(ApiError::StaleVersion { current: version });
        }
        tracing::info!(game = %live.id, seat = req.seat, level, "a seat handed to a bot");
        t.clock = Some(next);
        drop(t);
        live.changed();
        self.games.publish_clock(&live.id).await;
        self.bots.kick(live);
        Ok(())
    }

    /// The seats `viewer` holds that a bot stands in for become theirs
    /// again, at once (their page connected, or they asked). Whether any did.
    ///
    /// # Errors
    /// The storage fails, or the clocks changed meanwhile (`stale_version`).
    pub async fn take_back(&self, live: &Arc<Live>, viewer: &Viewer) -> Result<bool, ApiError> {
        let mut t = live.lock().await;
        let now = self.now.ms();
        let version = t.version();
        let Table { clock, game, seats, .. } = &mut *t;
        let Some(c) = clock.as_ref() else { return Ok(false) };
        // (A seat whose real-time clock ran out moves no more: a bot keeps it.)
        let mine: Vec<PlayerId> = viewer
            .seats
            .iter()
            .copied()
            .filter(|p| c.standin.get(p.index()).is_some_and(Option::is_some) && !c.flagged(*p) && !c.is_out(*p))
            .collect();
        if mine.is_empty() || game.is_over() || c.aborted || c.ended {
            return Ok(false);
        }
        let mut next = c.clone();
        for p in mine {
            next.take_back(p, game, seats, now);
        }
        let json = next.stored_after(c.rev)?;
        if !self.repo.swap(&live.id, c.rev, &json, next.deadline).await? {
            self.games.load_clock_into(&live.id, &mut t).await;
            return Err(ApiError::StaleVersion { current: version });
        }
        tracing::info!(game = %live.id, "a player took their seat back from a bot");
        t.clock = Some(next);
        drop(t);
        live.changed();
        self.games.publish_clock(&live.id).await;
        Ok(true)
    }
}

/// The most games one "your turn" request may name, and tokens per game.
pub const MAX_TURN_GAMES: usize = 100;

/// A game where it is the asker's turn.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct YourTurn {
    pub id: String,
    pub seat: u8,
    /// The seats' names, in order.
    pub names: Vec<String>,
    /// When the move runs out of time (Unix ms), and how long from now (ms).
    pub deadline: Option<i64>,
    pub left_ms: Option<i64>,
}

impl Clocks {
    /// The games among `held` (game id, the seat tokens this browser holds
    /// in it) where a seat those tokens hold is to move: read from the
    /// stored progress (no game is loaded), at most [`MAX_TURN_GAMES`] games
    /// and [`carcassonne::MAX_PLAYERS`] tokens a game looked at.
    ///
    /// # Errors
    /// The storage fails.
    pub async fn your_turn(&self, held: &[(String, Vec<String>)]) -> Result<Vec<YourTurn>, ApiError> {
        let held: Vec<&(String, Vec<String>)> =
            held.iter().filter(|(id, _)| plausible_id(id)).take(MAX_TURN_GAMES).collect();
        let ids: Vec<String> = held.iter().map(|(id, _)| id.clone()).collect();
        let now = self.now.ms();
        let mut out = Vec::new();
        for t in self.repo.turns_of(&ids).await? {
            let Some(p) = t.progress.to_move.filter(|_| !t.progress.finished) else { continue };
            let Some(seat) = t.seats.get(p as usize) else { continue };
            let tokens = held.iter().find(|(id, _)| *id == t.id).map(|(_, k)| k.as_slice()).unwrap_or_default();
            let mine = tokens.iter().take(carcassonne::MAX_PLAYERS).any(|k| k.len() <= 128 && seat.held_by(k));
            if mine {
                out.push(YourTurn {
                    id: t.id,
                    seat: p,
                    names: t.seats.iter().map(|s| s.name().to_string()).collect(),
                    deadline: t.deadline,
                    left_ms: t.deadline.map(|d| (d - now).max(0)),
                });
            }
        }
        // The most pressing first.
        out.sort_by_key(|y| (y.deadline.unwrap_or(i64::MAX), y.id.clone()));
        Ok(out)
    }
}

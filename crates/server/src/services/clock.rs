//! Clocks: the time control chosen when a game is made (real time, a
//! number of days per move, or none), each seat's time kept by the server
//! with the game (so it survives a restart and is the same on every
//! server), and what happens when a seat's time runs out or its player is
//! away: the others hand the seat to a bot, which stands in until the
//! player comes back.
//!
//! * A move's time counts from the moment the server offered it: the
//!   previous move stored (or the game created).
//! * Bots' clocks do not run: a bot seat (or a seat a bot stands in for)
//!   has no deadline; bots move within their delay.
//! * Real time: a seat whose time runs out stays out of time for the rest
//!   of the game (it plays on untimed if its player takes it back); after
//!   [`GRACE_MINUTES`] with nobody acting, a `normal` bot stands in.
//! * Turn-based: each move has its days; a seat that took longer may be
//!   handed to a bot by the others; its next move has its days again.
//! * Expiry is acted on by one server: the sweeper claims a due deadline
//!   with a conditional update of the stored clock ([`crate::store::Store::swap_clock`]).

use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use carcassonne::{Game, PlayerId};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::games::{now_ms, Live, Table, Viewer};
use super::AppState;
use crate::bots::BotLevel;
use crate::error::ApiError;
use crate::store::{Change, NewGame, Seat};

/// Real-time minutes per player, at most.
pub const MAX_MINUTES: u32 = 180;
/// Seconds added per move, at most.
pub const MAX_INCREMENT: u32 = 180;
/// Days per move a turn-based game may have.
pub const DAYS: [u32; 3] = [1, 3, 7];
/// Minutes a seat must have been away (not connected, to move) before the
/// others may hand it to a bot, when the game was made without saying.
pub const DEFAULT_AWAY_MINUTES: u32 = 5;
/// The most away minutes a game may ask for (a week).
pub const MAX_AWAY_MINUTES: u32 = 7 * 24 * 60;
/// Minutes after a real-time expiry with nobody acting before a `normal`
/// bot takes the seat.
pub const GRACE_MINUTES: i64 = 1;
/// Clock log lines kept per game.
const MAX_EVENTS: usize = 64;
const DAY_MS: i64 = 24 * 3600 * 1000;

/// A minute of a real-time clock (and of its grace period) in
/// milliseconds: 60 000, or `CARCASSONNE_TEST_MINUTE_MS` (a test-only
/// setting: browser tests play real-time games of a few seconds).
pub fn minute_ms() -> i64 {
    static MINUTE: OnceLock<i64> = OnceLock::new();
    *MINUTE.get_or_init(|| {
        std::env::var("CARCASSONNE_TEST_MINUTE_MS")
            .ok()
            .and_then(|v| v.parse().ok())
            .filter(|m| *m > 0)
            .unwrap_or(60_000)
    })
}

/// The server's clock: the system's, moved on by tests ([`Now::advance`]).
#[derive(Clone, Debug, Default)]
pub struct Now(Arc<AtomicI64>);

impl Now {
    /// Unix time in milliseconds.
    pub fn ms(&self) -> i64 {
        now_ms() + self.0.load(Ordering::Relaxed)
    }

    /// Moves this clock on (tests).
    pub fn advance(&self, by: Duration) {
        self.0.fetch_add(by.as_millis().min(i64::MAX as u128 / 2) as i64, Ordering::Relaxed);
    }
}

/// A time control: the `clock` of a game-creation request.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum TimeControl {
    #[default]
    None,
    /// `minutes` per player, `increment` seconds added after each move.
    Realtime { minutes: u32, increment: u32 },
    /// `days` per move.
    Turn { days: u32 },
}

impl TimeControl {
    /// The time control a request names, checked strictly.
    ///
    /// # Errors
    /// `bad_clock`: not an object, an unknown kind or field, a number out of bounds.
    pub fn parse(v: &Value) -> Result<TimeControl, ApiError> {
        let bad = |why: String| ApiError::BadClock(why);
        let obj = v.as_object().ok_or_else(|| bad("a clock is an object with a \"kind\"".into()))?;
        let kind = obj.get("kind").and_then(Value::as_str).ok_or_else(|| bad("a clock needs a \"kind\"".into()))?;
        let allowed: &[&str] = match kind {
            "none" => &["kind"],
            "realtime" => &["kind", "minutes", "increment"],
            "turn" => &["kind", "days"],
            other => {
                return Err(bad(format!("clock kind must be \"none\", \"realtime\" or \"turn\", not \"{other}\"")))
            }
        };
        if let Some(k) = obj.keys().find(|k| !allowed.contains(&k.as_str())) {
            return Err(bad(format!("a {kind} clock has no field \"{k}\"")));
        }
        let number = |k: &str, lo: u32, hi: u32| -> Result<u32, ApiError> {
            let n = obj.get(k).ok_or_else(|| bad(format!("a {kind} clock needs \"{k}\"")))?;
            n.as_u64()
                .filter(|n| (lo as u64..=hi as u64).contains(n))
                .map(|n| n as u32)
                .ok_or_else(|| bad(format!("clock {k} must be a whole number from {lo} to {hi}")))
        };
        Ok(match kind {
            "none" => TimeControl::None,
            "realtime" => TimeControl::Realtime {
                minutes: number("minutes", 1, MAX_MINUTES)?,
                increment: number("increment", 0, MAX_INCREMENT)?,
            },
            _ => {
                let days = number("days", 1, 7)?;
                if !DAYS.contains(&days) {
                    return Err(bad("a turn-based clock has 1, 3 or 7 days per move".into()));
                }
                TimeControl::Turn { days }
            }
        })
    }

    fn word(self) -> &'static str {
        match self {
            TimeControl::None => "none",
            TimeControl::Realtime { .. } => "realtime",
            TimeControl::Turn { .. } => "turn",
        }
    }
}

/// A line of the clock's log (shown in the game's log; not in the record).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClockEvent {
    /// `timeout` (the seat's time ran out), `bot` (a bot stands in for it)
    /// or `back` (its player took it back).
    pub what: String,
    pub seat: u8,
    /// The move it happened at (1-based, as the turn shown).
    pub turn: u16,
    /// Unix ms.
    pub at: i64,
    /// The bot's level (`bot`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub level: Option<String>,
    /// The seat whose player handed it over (`bot`; none when the server did).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub by: Option<u8>,
}

/// A game's clocks as stored with it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClockState {
    pub control: TimeControl,
    pub away_minutes: u32,
    /// Real time: each seat's time left (ms) when its last move was offered
    /// or made.
    pub remaining: Vec<i64>,
    /// When the move to make now was offered (Unix ms), and which it is.
    pub offered_at: i64,
    pub offered_version: u64,
    /// When the seat to move runs out of time (none: untimed, a bot's, over).
    pub deadline: Option<i64>,
    /// Seats out of time: for the rest of the game in real time; for the
    /// move to make now in a turn-based game.
    pub expired: Vec<bool>,
    /// The level of the bot standing in for a seat.
    pub standin: Vec<Option<String>>,
    /// The first seat whose real-time clock ran out.
    #[serde(default)]
    pub timed_out: Option<u8>,
    #[serde(default)]
    pub events: Vec<ClockEvent>,
}

impl ClockState {
    /// `new` with these clocks, kept in the same write as the game.
    pub(super) fn kept_with(&self, new: NewGame) -> Result<NewGame, ApiError> {
        let json = serde_json::to_string(self).map_err(|e| ApiError::Storage(e.to_string()))?;
        Ok(NewGame { clock: Some(json), deadline: self.deadline, ..new })
    }

    /// The clocks of a game about to begin, its first move offered `now`.
    pub fn new(control: TimeControl, away_minutes: u32, game: &Game, seats: &[Seat], now: i64) -> ClockState {
        let n = seats.len();
        let start = match control {
            TimeControl::Realtime { minutes, .. } => minutes as i64 * minute_ms(),
            _ => 0,
        };
        let mut c = ClockState {
            control,
            away_minutes,
            remaining: vec![start; n],
            offered_at: now,
            offered_version: 0,
            deadline: None,
            expired: vec![false; n],
            standin: vec![None; n],
            timed_out: None,
            events: Vec::new(),
        };
        c.offer(game, seats, now);
        c
    }

    /// Whether a bot plays seat `p` now: a bot seat, or one a bot stands in for.
    fn bot_plays(&self, seats: &[Seat], p: PlayerId) -> bool {
        seats.get(p.index()).is_some_and(|s| s.bot_level().is_some())
            || self.standin.get(p.index()).is_some_and(Option::is_some)
    }

    /// The move to make now is offered at `now`: its deadline.
    pub fn offer(&mut self, game: &Game, seats: &[Seat], now: i64) {
        self.offered_at = now;
        self.offered_version = game.moves_played() as u64;
        self.deadline = match game.to_move() {
            None => None,
            Some(p) if self.bot_plays(seats, p) => None,
            Some(p) => match self.control {
                TimeControl::None => None,
                TimeControl::Realtime { .. } => {
                    (!self.expired[p.index()]).then(|| now + self.remaining[p.index()].max(0))
                }
                TimeControl::Turn { days } => {
                    self.expired[p.index()] = false;
                    Some(now + days as i64 * DAY_MS)
                }
            },
        };
    }

    /// Seat `mover` moved at `now`: its time used, its increment added.
    pub fn moved(&mut self, mover: PlayerId, seats: &[Seat], now: i64) {
        let i = mover.index();
        if let TimeControl::Realtime { increment, .. } = self.control {
            if i < self.remaining.len() && !self.bot_plays(seats, mover) && !self.expired[i] {
                let used = (now - self.offered_at).max(0);
                self.remaining[i] = (self.remaining[i] - used).max(0) + increment as i64 * 1000;
            }
        }
    }

    fn log(&mut self, event: ClockEvent) {
        if self.events.len() >= MAX_EVENTS {
            self.events.remove(0);
        }
        self.events.push(event);
    }

    /// What the sweeper does with a due deadline at `now`, seat `p` to
    /// move: the seat runs out of time, or (real time, after the grace
    /// period) a `normal` bot takes it. Whether anything changed.
    pub fn expire(&mut self, p: PlayerId, turn: u16, now: i64) -> bool {
        let i = p.index();
        if i >= self.expired.len() {
            return false;
        }
        if !self.expired[i] {
            self.expired[i] = true;
            self.log(ClockEvent { what: "timeout".into(), seat: p.0, turn, at: now, level: None, by: None });
            self.deadline = match self.control {
                TimeControl::Realtime { .. } => {
                    self.remaining[i] = 0;
                    if self.timed_out.is_none() {
                        // In a rated game, the seat that ran out of time
                        // first is placed last whatever the scores, when
                        // the game ends (`AppState::settle_rating`).
                        self.timed_out = Some(p.0);
                    }
                    Some(now + GRACE_MINUTES * minute_ms())
                }
                _ => None,
            };
            return true;
        }
        if matches!(self.control, TimeControl::Realtime { .. }) && self.standin[i].is_none() {
            self.stand_in(p, "normal", None, turn, now);
            return true;
        }
        let changed = self.deadline.is_some();
        self.deadline = None;
        changed
    }

    /// A bot of `level` stands in for seat `p` (handed over by seat `by`).
    pub fn stand_in(&mut self, p: PlayerId, level: &str, by: Option<u8>, turn: u16, now: i64) {
        self.standin[p.index()] = Some(level.to_string());
        self.deadline = None;
        self.log(ClockEvent { what: "bot".into(), seat: p.0, turn, at: now, level: Some(level.to_string()), by });
    }

    /// The player of seat `p` takes it back at `now`.
    pub fn take_back(&mut self, p: PlayerId, game: &Game, seats: &[Seat], now: i64) {
        self.standin[p.index()] = None;
        let turn = game.moves_played().saturating_add(1);
        self.log(ClockEvent { what: "back".into(), seat: p.0, turn, at: now, level: None, by: None });
        if game.to_move() == Some(p) {
            self.offer(game, seats, now);
        }
    }

    /// Whether seat `p` may be handed to a bot at `now`: its time ran out,
    /// or it is to move and has been away (no connection open) for the
    /// game's away minutes.
    fn may_hand_over(&self, game: &Game, p: PlayerId, online: bool, now: i64, last_move: i64) -> bool {
        if self.expired.get(p.index()).copied().unwrap_or(false) {
            return true;
        }
        let since = self.offered_at.max(last_move);
        // (Real minutes: the test minute scales clocks only.)
        game.to_move() == Some(p) && !online && now - since >= self.away_minutes as i64 * 60_000
    }

    /// The level of the bot standing in for `p`.
    pub fn standin_level(&self, p: PlayerId) -> Option<BotLevel> {
        let name = self.standin.get(p.index())?.as_deref()?;
        Some(BotLevel::from_name(name).unwrap_or(BotLevel::Normal))
    }
}

/// The clocks as a page sees them (`clock` in the state).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ClockView {
    pub kind: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub minutes: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub increment: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub days: Option<u32>,
    pub away_minutes: u32,
    /// Real time: each seat's time left now (ms), the running one's included.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub remaining: Option<Vec<i64>>,
    /// The seat whose clock runs now.
    pub running: Option<u8>,
    /// When it runs out (Unix ms), and how long that is from now (ms, as
    /// the server saw it when it sent this: pages count down from it).
    pub deadline: Option<i64>,
    pub left_ms: Option<i64>,
    /// Seats out of time.
    pub expired: Vec<u8>,
    /// The level of the bot standing in for each seat (null: none).
    pub standin: Vec<Option<String>>,
    pub timed_out: Option<u8>,
    /// The seat to move may be handed to a bot by the others now.
    pub may_hand_over: Vec<u8>,
    pub events: Vec<ClockEvent>,
}

impl ClockView {
    pub fn new(table: &Table) -> Option<ClockView> {
        let c = table.clock.as_ref()?;
        let now = table.now.ms();
        let running = c.deadline.and(table.game.to_move());
        let remaining = match c.control {
            TimeControl::Realtime { .. } => Some(
                c.remaining
                    .iter()
                    .enumerate()
                    .map(|(i, r)| match running {
                        Some(p) if p.index() == i => (r - (now - c.offered_at)).max(0),
                        _ => *r,
                    })
                    .collect(),
            ),
            _ => None,
        };
        let (minutes, increment, days) = match c.control {
            TimeControl::Realtime { minutes, increment } => (Some(minutes), Some(increment), None),
            TimeControl::Turn { days } => (None, None, Some(days)),
            TimeControl::None => (None, None, None),
        };
        let may_hand_over = (0..table.seats.len())
            .filter(|&i| {
                let p = PlayerId(i as u8);
                matches!(table.seats[i], Seat::Human { .. })
                    && c.standin[i].is_none()
                    && !table.game.is_over()
                    && c.may_hand_over(&table.game, p, table.seat_online(i), now, table.updated_at)
            })
            .map(|i| i as u8)
            .collect();
        Some(ClockView {
            kind: c.control.word(),
            minutes,
            increment,
            days,
            away_minutes: c.away_minutes,
            remaining,
            running: running.map(|p| p.0),
            deadline: c.deadline,
            left_ms: c.deadline.map(|d| (d - now).max(0)),
            expired: c.expired.iter().enumerate().filter(|(_, e)| **e).map(|(i, _)| i as u8).collect(),
            standin: c.standin.clone(),
            timed_out: c.timed_out,
            may_hand_over,
            events: c.events.clone(),
        })
    }
}

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

impl AppState {
    /// The server's clock (tests move it on).
    pub fn now(&self) -> &Now {
        &self.inner.now
    }

    /// The clocks of a new game: checked, then kept with it.
    ///
    /// # Errors
    /// `bad_clock`.
    pub(super) fn clock_of(
        &self,
        clock: Option<&Value>,
        away_minutes: Option<u32>,
        game: &Game,
        seats: &[Seat],
    ) -> Result<ClockState, ApiError> {
        let control = match clock {
            Some(v) => TimeControl::parse(v)?,
            None => TimeControl::None,
        };
        let away = away_minutes.unwrap_or(DEFAULT_AWAY_MINUTES);
        if !(1..=MAX_AWAY_MINUTES).contains(&away) {
            return Err(ApiError::BadClock(format!("away_minutes must be from 1 to {MAX_AWAY_MINUTES}")));
        }
        Ok(ClockState::new(control, away, game, seats, self.now().ms()))
    }

    /// Stores a game's clocks as they are now (after a move or at creation).
    pub(super) async fn save_clock(&self, id: &str, clock: &ClockState) {
        let saved = match serde_json::to_string(clock) {
            Ok(json) => self.store().clocks.save(id, &json, clock.deadline).await,
            Err(e) => Err(e.into()),
        };
        if let Err(e) = saved {
            tracing::error!(game = %id, error = %e, "cannot keep the game's clocks");
        }
        self.publish_clock(id).await;
    }

    async fn publish_clock(&self, id: &str) {
        if self.store().cluster.server().is_none() {
            return;
        }
        if let Err(e) = self.store().cluster.publish(&Change::Clock { game: id.to_string() }).await {
            tracing::warn!(game = %id, error = %e, "cannot tell the other servers about the game's clocks");
        }
    }

    /// The clocks as stored, into the table (another server changed them).
    pub(super) async fn load_clock_into(&self, id: &str, table: &mut Table) {
        match self.store().clocks.load(id).await {
            Ok(Some(json)) => match serde_json::from_str::<ClockState>(&json) {
                Ok(c) if c.remaining.len() == table.seats.len() => table.clock = Some(c),
                Ok(_) => tracing::error!(game = %id, "stored clocks for another number of seats"),
                Err(e) => tracing::error!(game = %id, error = %e, "stored clocks do not read"),
            },
            Ok(None) => {}
            Err(e) => tracing::warn!(game = %id, error = %e, "cannot read the game's clocks"),
        }
    }

    /// A move was stored: the mover's time used, the next move offered.
    pub(super) async fn clock_after_move(&self, live: &Live, table: &mut Table, mover: Option<PlayerId>) {
        let now = self.now().ms();
        let Table { clock, game, seats, .. } = table;
        let Some(c) = clock.as_mut() else { return };
        if let Some(p) = mover {
            c.moved(p, seats, now);
        }
        c.offer(game, seats, now);
        // Without a clock nothing timed changed: the stored clocks stay (the
        // away minutes count from the last move stored, `Table::updated_at`).
        if c.control != TimeControl::None {
            let c = c.clone();
            self.save_clock(&live.id, &c).await;
        }
    }

    /// Refuses a person's move after their deadline (the sweeper acts on it).
    pub(super) fn check_time(&self, table: &Table) -> Result<(), ApiError> {
        match table.clock.as_ref().and_then(|c| c.deadline) {
            Some(d) if d <= self.now().ms() => Err(ApiError::TimeUp),
            _ => Ok(()),
        }
    }

    /// Another server changed a game's clocks: this one reads them again.
    pub(super) async fn clock_changed(&self, id: &str) {
        let Some(live) = self.in_memory(id) else { return };
        let mut t = live.lock().await;
        // (A move comes before its clocks on the feed: `Change::Moved` caught up.)
        self.load_clock_into(id, &mut t).await;
        drop(t);
        live.changed();
        self.kick_bots(&live);
    }

    /// Acts on the clocks that ran out, now and then (every second, or
    /// sooner with a test minute).
    pub(super) fn sweep_clocks_now_and_then(&self) {
        let weak = Arc::downgrade(&self.inner);
        let every = Duration::from_millis((minute_ms() / 60).clamp(50, 1000) as u64);
        tokio::spawn(async move {
            loop {
                tokio::time::sleep(every).await;
                let Some(inner) = weak.upgrade() else { return };
                let app = AppState { inner };
                if app.inner.left.load(Ordering::Relaxed) {
                    return;
                }
                if let Err(e) = app.sweep_clocks().await {
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
    pub async fn sweep_clocks(&self) -> Result<usize, ApiError> {
        let now = self.now().ms();
        let due = self.store().clocks.due(now, 100).await?;
        let mut acted = 0;
        for id in due {
            let live = match self.game(&id).await {
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
        self.catch_up(live, &mut t).await?;
        self.load_clock_into(&live.id, &mut t).await;
        let Some(clock) = t.clock.clone() else { return Ok(false) };
        let Some(deadline) = clock.deadline.filter(|d| *d <= now) else { return Ok(false) };
        let Some(p) = t.game.to_move() else { return Ok(false) };
        if clock.offered_version != t.version() {
            return Ok(false);
        }
        let mut next = clock;
        let turn = t.game.moves_played().saturating_add(1);
        if !next.expire(p, turn, now) {
            return Ok(false);
        }
        let json = serde_json::to_string(&next).map_err(|e| ApiError::Storage(e.to_string()))?;
        if !self.store().clocks.swap(&live.id, Some(deadline), &json, next.deadline).await? {
            // Another server acted first: what it did is read when it says so.
            return Ok(false);
        }
        tracing::info!(game = %live.id, seat = p.0, "a clock ran out");
        t.clock = Some(next);
        drop(t);
        live.changed();
        self.publish_clock(&live.id).await;
        self.kick_bots(live);
        Ok(true)
    }

    /// The seat of game `id` that ran out of time first (its stored
    /// clocks), if one did: a rated game places it last.
    pub(super) async fn timed_out_seat(&self, id: &str) -> Option<usize> {
        let json = self.store().clocks.load(id).await.ok()??;
        let clock: ClockState = serde_json::from_str(&json).ok()?;
        clock.timed_out.map(usize::from)
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
        if t.game.is_over() {
            return Err(ApiError::GameOver);
        }
        if !matches!(t.seats.get(p.index()), Some(Seat::Human { .. })) {
            return Err(ApiError::BadRequest(format!("seat {} is not a person's", req.seat)));
        }
        let now = self.now().ms();
        let online = t.seat_online(p.index());
        let version = t.version();
        let Some(c) = t.clock.as_ref() else {
            return Err(ApiError::NotAway);
        };
        if c.standin[p.index()].is_some() {
            return Err(ApiError::BadRequest(format!("a bot stands in for seat {} already", req.seat)));
        }
        if !c.may_hand_over(&t.game, p, online, now, t.updated_at) {
            return Err(ApiError::NotAway);
        }
        let mut next = c.clone();
        let turn = t.game.moves_played().saturating_add(1);
        let by = viewer.seats.first().map(|s| s.0);
        next.stand_in(p, level, by, turn, now);
        let json = serde_json::to_string(&next).map_err(|e| ApiError::Storage(e.to_string()))?;
        if !self.store().clocks.swap(&live.id, c.deadline, &json, next.deadline).await? {
            self.load_clock_into(&live.id, &mut t).await;
            return Err(ApiError::StaleVersion { current: version });
        }
        tracing::info!(game = %live.id, seat = req.seat, level, "a seat handed to a bot");
        t.clock = Some(next);
        drop(t);
        live.changed();
        self.publish_clock(&live.id).await;
        self.kick_bots(live);
        Ok(())
    }

    /// The seats `viewer` holds that a bot stands in for become theirs
    /// again, at once (their page connected, or they asked). Whether any did.
    ///
    /// # Errors
    /// The storage fails, or the clocks changed meanwhile (`stale_version`).
    pub async fn take_back(&self, live: &Arc<Live>, viewer: &Viewer) -> Result<bool, ApiError> {
        let mut t = live.lock().await;
        let now = self.now().ms();
        let version = t.version();
        let Table { clock, game, seats, .. } = &mut *t;
        let Some(c) = clock.as_ref() else { return Ok(false) };
        let mine: Vec<PlayerId> =
            viewer.seats.iter().copied().filter(|p| c.standin.get(p.index()).is_some_and(Option::is_some)).collect();
        if mine.is_empty() || game.is_over() {
            return Ok(false);
        }
        let mut next = c.clone();
        for p in mine {
            next.take_back(p, game, seats, now);
        }
        let json = serde_json::to_string(&next).map_err(|e| ApiError::Storage(e.to_string()))?;
        if !self.store().clocks.swap(&live.id, c.deadline, &json, next.deadline).await? {
            self.load_clock_into(&live.id, &mut t).await;
            return Err(ApiError::StaleVersion { current: version });
        }
        tracing::info!(game = %live.id, "a player took their seat back from a bot");
        t.clock = Some(next);
        drop(t);
        live.changed();
        self.publish_clock(&live.id).await;
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

impl AppState {
    /// The games among `held` (game id, the seat tokens this browser holds
    /// in it) where a seat those tokens hold is to move: read from the
    /// stored progress (no game is loaded), at most [`MAX_TURN_GAMES`] games
    /// and [`carcassonne::MAX_PLAYERS`] tokens a game looked at.
    ///
    /// # Errors
    /// The storage fails.
    pub async fn your_turn(&self, held: &[(String, Vec<String>)]) -> Result<Vec<YourTurn>, ApiError> {
        let held: Vec<&(String, Vec<String>)> =
            held.iter().filter(|(id, _)| super::games::plausible_id(id)).take(MAX_TURN_GAMES).collect();
        let ids: Vec<String> = held.iter().map(|(id, _)| id.clone()).collect();
        let now = self.now().ms();
        let mut out = Vec::new();
        for t in self.store().clocks.turns_of(&ids).await? {
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn time_controls_are_checked_strictly() {
        let ok = [
            (json!({"kind": "none"}), TimeControl::None),
            (
                json!({"kind": "realtime", "minutes": 10, "increment": 5}),
                TimeControl::Realtime { minutes: 10, increment: 5 },
            ),
            (
                json!({"kind": "realtime", "minutes": 1, "increment": 0}),
                TimeControl::Realtime { minutes: 1, increment: 0 },
            ),
            (json!({"kind": "turn", "days": 3}), TimeControl::Turn { days: 3 }),
        ];
        for (v, want) in ok {
            assert_eq!(TimeControl::parse(&v).unwrap(), want, "{v}");
        }
        let bad = [
            json!("realtime"),
            json!({}),
            json!({"kind": "blitz"}),
            json!({"kind": "realtime", "minutes": 0, "increment": 5}),
            json!({"kind": "realtime", "minutes": 181, "increment": 5}),
            json!({"kind": "realtime", "minutes": 10}),
            json!({"kind": "realtime", "minutes": 10, "increment": -1}),
            json!({"kind": "realtime", "minutes": 2.5, "increment": 1}),
            json!({"kind": "realtime", "minutes": 10, "increment": 181}),
            json!({"kind": "turn", "days": 2}),
            json!({"kind": "turn", "days": 3, "minutes": 1}),
            json!({"kind": "none", "days": 1}),
        ];
        for v in bad {
            let e = TimeControl::parse(&v).unwrap_err();
            assert_eq!(e.code(), "bad_clock", "{v}");
        }
    }
}

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
//!   of the game and moves no more (a bot keeps it to the end); after
//!   [`GRACE_MINUTES`] with nobody acting, a bot stands in (`normal`, or
//!   `random` when none of the game's people is here). A game where no
//!   person moved before the first clock ran out is aborted.
//! * Turn-based: each move has its days; a seat that took longer may be
//!   handed to a bot by the others; its next move has its days again.
//! * Expiry is acted on by one server: the sweeper claims a due deadline
//!   with a conditional update of the stored clock ([`crate::store::ClockRepo::swap`]).

use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use carcassonne::{Game, PlayerId};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::bots::BotLevel;
use crate::error::ApiError;
use crate::services::ids::now_ms;
use crate::store::{NewGame, Seat};

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
    /// `timeout` (the seat's time ran out), `bot` (a bot stands in for it),
    /// `back` (its player took it back), `aborted` (the seat's real-time
    /// clock ran out before any person moved, or with `by` its player
    /// aborted the game: it ends unplayed), `resigned` or `left` (the
    /// seat's player is out), `ended` (the game ended as it stood: `by` the
    /// player who chose it when `seat`'s flag fell, or the last resignation).
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
    /// No person has moved yet (a game made before this was kept: false).
    #[serde(default)]
    pub unmoved: bool,
    /// The game was aborted: a real-time clock ran out before any person
    /// moved. Nobody moves in it again, no bot plays it.
    #[serde(default)]
    pub aborted: bool,
    /// Each seat's player has moved (a state kept before this: empty, read
    /// from `unmoved`).
    #[serde(default)]
    pub moved: Vec<bool>,
    /// Seats whose player resigned: out for good, ranked last; a bot plays
    /// them if the game goes on.
    #[serde(default)]
    pub resigned: Vec<bool>,
    /// Seats whose player left: out for good (a bot plays them in a casual
    /// game; the clock runs on in a rated one).
    #[serde(default)]
    pub left: Vec<bool>,
    /// The game ended before its last tile, the results as they stand: a
    /// resignation left one seat (or no person) in it, or the players ended
    /// it when a casual seat's flag fell.
    #[serde(default)]
    pub ended: bool,
    /// The clocks' revision: each write stores the next one, and is kept
    /// only if the store still holds the one it started from
    /// ([`crate::store::ClockRepo::swap`]), so that no server overwrites a
    /// change it has not read (another seat's resignation, a hand-over).
    #[serde(default)]
    pub rev: u64,
}

impl ClockState {
    /// `self`, a change of clocks at revision `base`, as stored: its JSON at
    /// the next revision.
    ///
    /// # Errors
    /// `storage_error` (it does not serialize).
    pub fn stored_after(&mut self, base: u64) -> Result<String, ApiError> {
        self.rev = base.wrapping_add(1);
        serde_json::to_string(self).map_err(|e| ApiError::Storage(e.to_string()))
    }

    /// `new` with these clocks, kept in the same write as the game.
    pub fn kept_with(&self, new: NewGame) -> Result<NewGame, ApiError> {
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
            unmoved: true,
            aborted: false,
            moved: vec![false; n],
            resigned: vec![false; n],
            left: vec![false; n],
            ended: false,
            rev: 0,
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
        if !self.bot_plays(seats, mover) {
            self.unmoved = false;
            if let Some(m) = self.moved.get_mut(i) {
                *m = true;
            }
        }
        if let TimeControl::Realtime { increment, .. } = self.control {
            if i < self.remaining.len() && !self.bot_plays(seats, mover) && !self.expired[i] {
                let used = (now - self.offered_at).max(0);
                self.remaining[i] = (self.remaining[i] - used).max(0) + increment as i64 * 1000;
            }
        }
    }

    /// Whether seat `p`'s player has moved in this game.
    pub fn has_moved(&self, p: PlayerId) -> bool {
        match self.moved.get(p.index()) {
            Some(m) => *m,
            None => !self.unmoved,
        }
    }

    /// Whether seat `p`'s player is out of the game: resigned or left.
    pub fn is_out(&self, p: PlayerId) -> bool {
        let i = p.index();
        self.resigned.get(i).copied().unwrap_or(false) || self.left.get(i).copied().unwrap_or(false)
    }

    /// Whether seat `p`'s player resigned.
    pub fn has_resigned(&self, p: PlayerId) -> bool {
        self.resigned.get(p.index()).copied().unwrap_or(false)
    }

    /// The winners of a finished game with `scores`: the best score among
    /// the seats whose player did not resign.
    pub fn winners(&self, scores: &[u32]) -> Vec<u8> {
        let in_it = |i: &usize| !self.has_resigned(PlayerId(*i as u8));
        let best = (0..scores.len()).filter(in_it).map(|i| scores[i]).max();
        (0..scores.len()).filter(|i| in_it(i) && Some(scores[*i]) == best).map(|i| i as u8).collect()
    }

    /// Marks seat `p` out (`resigned` or `left`), said in the log.
    pub fn mark_out(&mut self, p: PlayerId, what: &str, turn: u16, now: i64) {
        let n = self.remaining.len();
        let list = if what == "resigned" { &mut self.resigned } else { &mut self.left };
        list.resize(n, false);
        if let Some(o) = list.get_mut(p.index()) {
            *o = true;
        }
        self.log(ClockEvent { what: what.into(), seat: p.0, turn, at: now, level: None, by: Some(p.0) });
    }

    /// The game ends now, the results as they stand (`ended`, by seat `by`
    /// or, none, by the server) or unplayed (`aborted`, by seat `by`).
    pub fn close(&mut self, what: &str, seat: u8, by: Option<u8>, turn: u16, now: i64) {
        if what == "aborted" {
            self.aborted = true;
        } else {
            self.ended = true;
        }
        self.deadline = None;
        self.log(ClockEvent { what: what.into(), seat, turn, at: now, level: None, by });
    }

    fn log(&mut self, event: ClockEvent) {
        if self.events.len() >= MAX_EVENTS {
            self.events.remove(0);
        }
        self.events.push(event);
    }

    /// What the sweeper does with a due deadline at `now`, seat `p` to
    /// move: the game is aborted (real time, before any person moved), the
    /// seat runs out of time, or (real time, after the grace period) a bot
    /// of `standin` level takes it. Whether anything changed.
    pub fn expire(&mut self, p: PlayerId, turn: u16, now: i64, standin: &str) -> bool {
        let i = p.index();
        if i >= self.expired.len() || self.aborted {
            return false;
        }
        let realtime = matches!(self.control, TimeControl::Realtime { .. });
        if realtime && self.unmoved {
            // Nobody ever played: nothing to hand to a bot, nobody to rate.
            self.aborted = true;
            self.deadline = None;
            self.log(ClockEvent { what: "aborted".into(), seat: p.0, turn, at: now, level: None, by: None });
            return true;
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
                        // the game ends (`Ratings::settle`).
                        self.timed_out = Some(p.0);
                    }
                    Some(now + GRACE_MINUTES * minute_ms())
                }
                _ => None,
            };
            return true;
        }
        if realtime && self.standin[i].is_none() {
            self.stand_in(p, standin, None, turn, now);
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

    /// A bot of `level` plays seat `p` from now on, its player out (the
    /// seat to move now: its clock stops).
    pub fn bot_for_good(&mut self, p: PlayerId, level: &str, to_move: bool) {
        self.standin[p.index()] = Some(level.to_string());
        if to_move {
            self.deadline = None;
        }
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

    /// Whether seat `p`'s real-time clock ran out: it moves no more (a
    /// bot stands in for it).
    pub fn flagged(&self, p: PlayerId) -> bool {
        matches!(self.control, TimeControl::Realtime { .. }) && self.expired.get(p.index()).copied().unwrap_or(false)
    }

    /// Whether seat `p` may be handed to a bot at `now`: its time ran out,
    /// or it is to move and has not moved for the game's away minutes —
    /// its page open or not (a player who keeps the page open and never
    /// moves holds nobody hostage). In a rated game with a clock, the
    /// clock alone says when a seat may be claimed: only once its time ran
    /// out (else a rated seat thinking for the away minutes of a 25+10 or
    /// 3-days game would lose).
    pub fn may_hand_over(&self, game: &Game, p: PlayerId, now: i64, last_move: i64, rated: bool) -> bool {
        if self.expired.get(p.index()).copied().unwrap_or(false) {
            return true;
        }
        if rated && self.control != TimeControl::None {
            return false;
        }
        let since = self.offered_at.max(last_move);
        // (Real minutes: the test minute scales clocks only.)
        game.to_move() == Some(p) && now - since >= self.away_minutes as i64 * 60_000
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
    /// Seats whose player resigned, and whose player left.
    pub resigned: Vec<u8>,
    pub left: Vec<u8>,
    /// The game ended before its last tile, as it stood.
    pub ended: bool,
    /// The game may be aborted now: a person has not moved yet.
    pub may_abort: bool,
    /// The seat whose flag just fell in a casual game, none standing in:
    /// the others may end the game as it stands, or hand it to a bot.
    pub may_end: Option<u8>,
}

impl ClockView {
    /// The clocks `c` of a game at `now`: its `game` and `seats`, and when
    /// its last move was stored.
    pub fn new(c: &ClockState, game: &Game, seats: &[Seat], last_move: i64, now: i64, rated: bool) -> ClockView {
        let running = c.deadline.and(game.to_move());
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
        let may_hand_over = (0..seats.len())
            .filter(|&i| {
                let p = PlayerId(i as u8);
                matches!(seats[i], Seat::Human { .. })
                    && c.standin[i].is_none()
                    && !game.is_over()
                    && !c.aborted
                    && !c.ended
                    && c.may_hand_over(game, p, now, last_move, rated)
            })
            .map(|i| i as u8)
            .collect();
        ClockView {
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
            resigned: seats_where(&c.resigned),
            left: seats_where(&c.left),
            ended: c.ended,
            may_abort: c.may_abort(game, seats, rated),
            may_end: c.may_end(game, rated),
        }
    }
}

fn seats_where(flags: &[bool]) -> Vec<u8> {
    flags.iter().enumerate().filter(|(_, f)| **f).map(|(i, _)| i as u8).collect()
}

impl ClockState {
    /// Whether the game may be aborted: in play, a person not yet moved.
    /// In a rated game that person's seat must also be theirs still (not
    /// out, out of time or handed to a bot), and no seat forced last: else
    /// a seat handed over before its first move kept the game abortable to
    /// its end, and its loss could be wiped out.
    pub fn may_abort(&self, game: &Game, seats: &[Seat], rated: bool) -> bool {
        let waiting = |i: usize| {
            let p = PlayerId(i as u8);
            let theirs = !self.is_out(p)
                && !self.expired.get(i).copied().unwrap_or(false)
                && self.standin.get(i).is_none_or(Option::is_none);
            !self.has_moved(p) && (!rated || theirs)
        };
        let forced = rated && self.timed_out.is_some();
        let closed = game.is_over() || self.aborted || self.ended || forced;
        !closed && seats.iter().enumerate().any(|(i, s)| matches!(s, Seat::Human { .. }) && waiting(i))
    }

    /// The seat whose real-time flag just fell in a casual game (`rated`
    /// false), no bot standing in yet: the others may end the game as it
    /// stands, or hand the seat to a bot.
    pub fn may_end(&self, game: &Game, rated: bool) -> Option<u8> {
        if rated || game.is_over() || self.aborted || self.ended {
            return None;
        }
        let p = game.to_move()?;
        (self.flagged(p) && self.standin.get(p.index()).is_some_and(Option::is_none)).then_some(p.0)
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

//! Takebacks (docs/web.md, *Takebacks*): in a casual game, a player asks to
//! take back their last move (and every move played after it); every other
//! person in the game accepts or declines; bots accept at once. Never in a
//! rated game.
//!
//! A game holds one request at a time, its latest ([`Takeback`]), kept with
//! the game in the store (`TakebackRepo`) so that every server sharing it
//! sees the same one: each write is conditional on the revision read, and
//! tells the others ([`crate::store::Change::Takeback`]). A request lapses
//! when a person moves, or after [`lapse_ms`]. Granted, the moves are
//! deleted from the store and the game is built again from its stored
//! record by the one replay path ([`rebuild`]), in the same write as the
//! request's outcome and the clocks (nobody gets time back: the clock
//! carries on, the requester's running).

use std::sync::Arc;

use carcassonne::{Game, PlayerId};

use super::bots::Bots;
use super::games::clock::{minute_ms, Now, TimeControl};
use super::games::live::{Live, Table, Viewer};
use super::games::takeback::{is_person, movers};
pub use super::games::takeback::{Outcome, Takeback, TakebackView};
use super::games::{progress_with, rebuild, Games};
use crate::error::ApiError;
use crate::store::{ClockAfter, GameRepo, Grant, Store, TakebackRepo};

/// How long a request waits for its answers in a real-time or untimed
/// game: two minutes.
const LAPSE_MINUTES: i64 = 2;
/// In a turn-based game: a day (the others may be away for hours).
const LAPSE_TURN_MS: i64 = 24 * 3600 * 1000;

/// How long a request waits for its answers in a game of `control`.
pub fn lapse_ms(control: Option<&TimeControl>) -> i64 {
    match control {
        Some(TimeControl::Turn { .. }) => LAPSE_TURN_MS,
        _ => LAPSE_MINUTES * minute_ms(),
    }
}

/// The move count a takeback by `viewer` goes back to: before the last
/// move one of its seats played (with the parts of that turn the same
/// seat played just before it: a builder's second part, a bonus turn).
/// `None` when they have played none.
fn target(game: &Game, viewer: &Viewer) -> Option<(usize, PlayerId)> {
    let movers = movers(game);
    let last = movers.iter().rposition(|p| viewer.holds(*p))?;
    let seat = movers[last];
    let mut to = last;
    while to > 0 && movers[to - 1] == seat {
        to -= 1;
    }
    Some((to, seat))
}

/// Whether `viewer` may ask for a takeback now (the state's
/// `may_take_back`: the page shows its button).
pub fn may_ask(table: &Table, viewer: &Viewer, now: i64) -> bool {
    check_ask(table, viewer, now).is_ok()
}

/// What a request by `viewer` would be refused for; else the move count
/// it goes back to and the seat asking.
fn check_ask(table: &Table, viewer: &Viewer, now: i64) -> Result<(usize, PlayerId), ApiError> {
    if viewer.seats.is_empty() {
        return Err(ApiError::Unauthorized);
    }
    if table.over() {
        return Err(ApiError::GameOver);
    }
    if table.rated {
        return Err(ApiError::NotInRated);
    }
    let out = |p: PlayerId| table.clock.as_ref().is_some_and(|c| c.is_out(p));
    let (to, seat) = target(&table.game, viewer).ok_or(ApiError::NothingToTakeBack)?;
    if out(seat) {
        return Err(ApiError::Unauthorized);
    }
    if let Some(t) = &table.takeback {
        if t.pending(&table.game, &table.seats, now) {
            return Err(ApiError::TakebackPending);
        }
        if t.declined.contains(&[seat.index(), to]) {
            return Err(ApiError::TakebackDeclined);
        }
    }
    Ok((to, seat))
}

/// The takebacks of the games in play.
pub struct Takebacks {
    games: Arc<Games>,
    bots: Arc<Bots>,
    repo: Arc<dyn TakebackRepo>,
    stored: Arc<dyn GameRepo>,
    now: Now,
}

impl Takebacks {
    pub fn new(store: &Store, games: Arc<Games>, bots: Arc<Bots>) -> Takebacks {
        let now = games.now().clone();
        Takebacks { games, bots, repo: Arc::clone(&store.takebacks), stored: Arc::clone(&store.games), now }
    }

    /// `viewer` asks to take back their last move (and every move after
    /// it). Granted at once when no other person is in the game (bots
    /// accept).
    ///
    /// # Errors
    /// `unauthorized` (no seat held, or the seat is out of the game),
    /// `game_over`, `not_in_rated`, `nothing_to_take_back`,
    /// `takeback_pending`, `takeback_declined` (declined already for this
    /// move), `stale_version` (another server changed the game first:
    /// nothing changed), `storage_error`.
    pub async fn ask(&self, live: &Arc<Live>, viewer: &Viewer) -> Result<(), ApiError> {
        let t = live.lock().await;
        let now = self.now.ms();
        let (to, seat) = check_ask(&t, viewer, now)?;
        let out = |i: usize| t.clock.as_ref().is_some_and(|c| c.is_out(PlayerId(i as u8)));
        let waiting: Vec<u8> = (0..t.seats.len())
            .filter(|&i| is_person(&t.seats, PlayerId(i as u8)) && !viewer.holds(PlayerId(i as u8)) && !out(i))
            .map(|i| i as u8)
            .collect();
        let before = t.takeback.clone();
        let moves = t.game.moves_played() as usize;
        let next = Takeback {
            rev: before.as_ref().map_or(0, |b| b.rev),
            number: before.as_ref().map_or(0, |b| b.number) + 1,
            seat: seat.0,
            to,
            moves,
            asked_at: now,
            lapses_at: now + lapse_ms(t.clock.as_ref().map(|c| &c.control)),
            waiting,
            accepted: Vec::new(),
            outcome: None,
            declined: before.as_ref().map(|b| b.declined.clone()).unwrap_or_default(),
            granted: before.as_ref().map_or(0, |b| b.granted),
        };
        tracing::info!(game = %live.id, seat = seat.0, to, "a takeback asked");
        if next.waiting.is_empty() {
            return self.grant(live, t, next).await;
        }
        self.keep(live, t, next).await
    }

    /// `viewer` answers the pending request: accepts (granted once every
    /// other person has) or declines.
    ///
    /// # Errors
    /// `unauthorized` (no seat held whose answer it waits for),
    /// `no_takeback_asked` (none pending: never asked, answered, or
    /// lapsed), `game_over`, `stale_version`, `storage_error`.
    pub async fn answer(&self, live: &Arc<Live>, viewer: &Viewer, accept: bool) -> Result<(), ApiError> {
        let t = live.lock().await;
        if viewer.seats.is_empty() {
            return Err(ApiError::Unauthorized);
        }
        if t.over() {
            return Err(ApiError::GameOver);
        }
        let now = self.now.ms();
        let Some(mut next) = t.takeback.clone().filter(|r| r.pending(&t.game, &t.seats, now)) else {
            return Err(ApiError::NoTakebackAsked);
        };
        let mine: Vec<u8> = next.waiting.iter().copied().filter(|&i| viewer.holds(PlayerId(i))).collect();
        let Some(&by) = mine.first() else {
            return Err(ApiError::Unauthorized);
        };
        next.waiting.retain(|i| !mine.contains(i));
        tracing::info!(game = %live.id, seat = by, accept, "a takeback answered");
        if !accept {
            next.outcome = Some(Outcome::Declined { by });
            let asked = [usize::from(next.seat), next.to];
            if !next.declined.contains(&asked) {
                next.declined.push(asked);
            }
            return self.keep(live, t, next).await;
        }
        next.accepted.extend(mine);
        if next.waiting.is_empty() {
            return self.grant(live, t, next).await;
        }
        self.keep(live, t, next).await
    }

    /// Another server changed game `id`'s request: read again, and a game
    /// taken back is built again from its stored moves.
    pub async fn changed(&self, id: &str) {
        let Some(live) = self.games.in_memory(id) else { return };
        let mut t = live.lock().await;
        let known = t.takeback.as_ref().map(|r| (r.rev, r.granted));
        self.games.load_takeback_into(id, &mut t).await;
        let now = t.takeback.as_ref().map(|r| (r.rev, r.granted));
        if known == now {
            return;
        }
        if now.map(|n| n.1) != known.map(|k| k.1) {
            if let Err(e) = self.games.catch_up(&live, &mut t).await {
                tracing::error!(game = %id, error = %e, "cannot read a game taken back");
            }
            self.games.load_clock_into(id, &mut t).await;
        }
        drop(t);
        live.changed();
        self.bots.kick(&live);
    }

    /// Keeps `next` as the game's request (over the revision the table
    /// holds), and tells everyone.
    async fn keep(
        &self,
        live: &Arc<Live>,
        mut t: tokio::sync::MutexGuard<'_, Table>,
        mut next: Takeback,
    ) -> Result<(), ApiError> {
        let base = t.takeback.as_ref().map_or(0, |b| b.rev);
        next.rev = base + 1;
        let json = serde_json::to_string(&next).map_err(|e| ApiError::Storage(e.to_string()))?;
        let moves = t.game.moves_played() as usize;
        if !self.repo.put(&live.id, moves, base, &json).await? {
            return Err(self.refresh(live, t).await);
        }
        t.takeback = Some(next);
        drop(t);
        live.changed();
        Ok(())
    }

    /// Grants `next`: the game goes back to `next.to` moves, built again
    /// from its stored record, and the store keeps the moves that remain,
    /// the request's outcome and the clocks in one write.
    async fn grant(
        &self,
        live: &Arc<Live>,
        mut t: tokio::sync::MutexGuard<'_, Table>,
        mut next: Takeback,
    ) -> Result<(), ApiError> {
        let base = t.takeback.as_ref().map_or(0, |b| b.rev);
        next.rev = base + 1;
        next.outcome = Some(Outcome::Granted);
        next.granted += 1;
        next.declined.clear();
        let moves = t.game.moves_played() as usize;
        next.moves = moves;
        let stored = self
            .stored
            .load(&live.id)
            .await?
            .ok_or_else(|| ApiError::Storage(format!("game {} is gone from the storage", live.id)))?;
        if stored.record.moves.len() != moves {
            return Err(self.refresh(live, t).await);
        }
        let mut record = stored.record;
        record.moves.truncate(next.to);
        let game = rebuild(&record, stored.live_seed)
            .map_err(|e| ApiError::Storage(format!("game {} does not replay: {e}", live.id)))?;
        let now = self.now.ms();
        // The clock carries on from the game as it was: nobody gets time
        // back; the move to make now (the requester's) is offered now.
        let mut clock = t.clock.clone();
        let clock_json = match clock.as_mut() {
            Some(c) => {
                let base = c.rev;
                c.offer(&game, &t.seats, now);
                Some((base, c.stored_after(base)?))
            }
            None => None,
        };
        let after = match (&clock, &clock_json) {
            (Some(c), Some((rev, json))) => Some(ClockAfter { rev: *rev, json, deadline: c.deadline }),
            _ => None,
        };
        let progress = progress_with(&game, &t.seats, clock.as_ref());
        let json = serde_json::to_string(&next).map_err(|e| ApiError::Storage(e.to_string()))?;
        let grant = Grant { moves, rev: base, json: &json, to: next.to, progress: &progress, clock: after };
        if !self.repo.grant(&live.id, &grant).await? {
            return Err(self.refresh(live, t).await);
        }
        tracing::info!(game = %live.id, seat = next.seat, to = next.to, from = moves, "a takeback granted");
        let before = t.rewound(game, progress.at);
        self.games.spare(before);
        t.clock = clock;
        t.takeback = Some(next);
        drop(t);
        live.changed();
        self.bots.kick(live);
        Ok(())
    }

    /// A write refused (another server moved or changed the request
    /// first): the table reads the game again; the answer says so.
    async fn refresh(&self, live: &Arc<Live>, mut t: tokio::sync::MutexGuard<'_, Table>) -> ApiError {
        if let Err(e) = self.games.catch_up(live, &mut t).await {
            return e;
        }
        self.games.load_clock_into(&live.id, &mut t).await;
        self.games.load_takeback_into(&live.id, &mut t).await;
        let version = t.version();
        let over = t.over();
        drop(t);
        live.changed();
        if over {
            return ApiError::GameOver;
        }
        ApiError::StaleVersion { current: version }
    }
}

//! A game ended before its last tile by a player (docs/web.md, *Resigning,
//! aborting and leaving*): a seat resigns or leaves, the game is aborted
//! before every person has moved, or (casual, real time) the others end it
//! as it stands when a seat's flag falls. What a game's end is lives with
//! its clocks (`games/clock.rs`), written once between two moves by a
//! conditional update ([`crate::store::ClockRepo::change`]), on whichever
//! server: the others read it when told.

use std::sync::Arc;

use carcassonne::PlayerId;

use super::clocks::Clocks;
use super::games::clock::TimeControl;
use super::games::live::{Live, Viewer};
use super::games::new::progress_with;
use crate::error::ApiError;
use crate::store::Seat;

/// What a player asks: one of the ways a game ends early for them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// Seat `0` resigns: out, never among the winners (ranked last in a
    /// rated game). With one seat left (or no person), the game ends; else
    /// a bot plays the seat.
    Resign(u8),
    /// Seat `0`'s player leaves: a bot plays the seat (casual); in a rated
    /// game its clock runs on, or without a clock it resigns.
    Leave(u8),
    /// The game ends unplayed, no result: before every person has moved.
    Abort,
    /// The game ends as it stands: a casual seat's real-time flag fell.
    Finish,
}

/// The body of an ending request over HTTP: the seat (`resign`, `leave`)
/// and a seat token, which may also come in the query.
#[derive(Clone, Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EndingRequest {
    #[serde(default)]
    pub seat: Option<u8>,
    #[serde(default)]
    pub token: Option<String>,
}

impl Clocks {
    /// `viewer` ends the game (or their part in it) as `ending` says.
    ///
    /// # Errors
    /// `unauthorized` (no seat held, or not the seat named; the seat whose
    /// flag fell ending its own game), `game_over`, `bad_request` (a seat
    /// out already, a game made before endings were kept), `cannot_abort`
    /// (every person has moved), `cannot_end` (no casual flag just fell),
    /// `stale_version` (another server moved or acted first: nothing
    /// changed), `storage_error`.
    pub async fn end(&self, live: &Arc<Live>, viewer: &Viewer, ending: Ending) -> Result<(), ApiError> {
        let mut t = live.lock().await;
        if viewer.seats.is_empty() {
            return Err(ApiError::Unauthorized);
        }
        if t.over() {
            return Err(ApiError::GameOver);
        }
        let Some(c) = t.clock.clone() else {
            return Err(ApiError::BadRequest("this game was made before its endings were kept".into()));
        };
        let now = self.now.ms();
        let turn = t.game.moves_played().saturating_add(1);
        let to_move = t.game.to_move();
        let by = viewer.seats.first().map(|p| p.0);
        let mut next = c.clone();
        match ending {
            Ending::Resign(seat) | Ending::Leave(seat) => {
                let p = PlayerId(seat);
                if !viewer.holds(p) {
                    return Err(ApiError::Unauthorized);
                }
                if c.is_out(p) {
                    return Err(ApiError::BadRequest(format!("seat {seat} is out of the game already")));
                }
                // A rated game without a clock has none to run on: leaving
                // it is resigning.
                let resign = matches!(ending, Ending::Resign(_)) || (t.rated && c.control == TimeControl::None);
                next.mark_out(p, if resign { "resigned" } else { "left" }, turn, now);
                if t.rated && resign && next.timed_out.is_none() {
                    // Placed last whatever the scores (`Ratings::settle`).
                    next.timed_out = Some(seat);
                }
                let n = t.seats.len();
                // A rated seat left with a clock is still in the game (its
                // clock runs on): leaving must not end a rated duel at once,
                // the results as they stand, the leaver perhaps ahead.
                let out = |i: usize| {
                    let p = PlayerId(i as u8);
                    if t.rated {
                        next.has_resigned(p)
                    } else {
                        next.is_out(p)
                    }
                };
                let in_it = (0..n).filter(|&i| !out(i)).count();
                let person_in = t.seats.iter().enumerate().any(|(i, s)| matches!(s, Seat::Human { .. }) && !out(i));
                if in_it <= 1 || !person_in {
                    next.close("ended", seat, Some(seat), turn, now);
                } else if resign || !t.rated {
                    // A bot plays the seat to the end (the one standing in
                    // already, if any).
                    let level = c.standin[p.index()].clone().unwrap_or_else(|| "normal".into());
                    next.bot_for_good(p, &level, to_move == Some(p));
                }
                // (Rated, leaving with a clock: the seat's clock runs on.)
            }
            Ending::Abort => {
                if !c.may_abort(&t.game, &t.seats, t.rated) {
                    return Err(ApiError::CannotAbort);
                }
                let seat = by.unwrap_or(0);
                next.close("aborted", seat, Some(seat), turn, now);
            }
            Ending::Finish => {
                let Some(flagged) = c.may_end(&t.game, t.rated) else {
                    return Err(ApiError::CannotEnd);
                };
                let Some(other) = viewer.seats.iter().find(|p| p.0 != flagged) else {
                    return Err(ApiError::Unauthorized);
                };
                next.close("ended", flagged, Some(other.0), turn, now);
            }
        }
        let json = next.stored_after(c.rev)?;
        let closed = next.aborted || next.ended;
        let progress = closed.then(|| progress_with(&t.game, &t.seats, Some(&next)));
        let moves = t.game.moves_played() as usize;
        if !self.repo.change(&live.id, moves, c.rev, &json, next.deadline, progress.as_ref()).await? {
            // Another server moved or acted first: this one catches up.
            self.games.catch_up(live, &mut t).await?;
            self.games.load_clock_into(&live.id, &mut t).await;
            let version = t.version();
            drop(t);
            live.changed();
            return Err(ApiError::StaleVersion { current: version });
        }
        tracing::info!(game = %live.id, ?ending, "a game's ending");
        let forced = next.timed_out.map(usize::from);
        t.clock = Some(next);
        drop(t);
        live.changed();
        self.games.publish_clock(&live.id).await;
        match progress {
            Some(p) if p.finished => self.games.ended(&live.id, &p.scores, forced).await,
            _ => self.bots.kick(live),
        }
        Ok(())
    }
}

//! A game's takeback request (services/takebacks.rs), the model: what is
//! stored of it, whether it is pending, and what everyone sees of it.

use carcassonne::{Event, Game, PlayerId};
use serde::{Deserialize, Serialize};

use crate::store::Seat;

/// How a request ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "what", rename_all = "lowercase")]
pub enum Outcome {
    /// Seat `by` declined.
    Declined { by: u8 },
    /// Every other person accepted (or there was none): the moves are gone.
    Granted,
}

/// A game's latest takeback request, as stored (JSON in the game's row).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Takeback {
    /// Bumped by every write: a write is kept only over the revision it read.
    pub rev: u64,
    /// The request's number in this game (1, 2, …).
    pub number: u32,
    /// The seat asking (the one whose move is taken back).
    pub seat: u8,
    /// The move count the game goes back to: the number of moves before
    /// the one taken back.
    pub to: usize,
    /// The moves played when it was asked (once granted: when granted).
    pub moves: usize,
    pub asked_at: i64,
    /// When it lapses unanswered (Unix ms).
    pub lapses_at: i64,
    /// The seats whose answer it waits for.
    pub waiting: Vec<u8>,
    /// The seats that accepted.
    pub accepted: Vec<u8>,
    pub outcome: Option<Outcome>,
    /// Requests declined since the last takeback granted, `[seat, to]`:
    /// the same seat does not ask again for the same move.
    pub declined: Vec<[usize; 2]>,
    /// Takebacks granted in this game.
    pub granted: u32,
}

impl Takeback {
    /// Whether it still waits for answers at `now` in `game`: no outcome,
    /// not lapsed (no person moved since, its time not up).
    pub fn pending(&self, game: &Game, seats: &[Seat], now: i64) -> bool {
        self.outcome.is_none()
            && now < self.lapses_at
            && game.moves_played() as usize >= self.moves
            && !movers(game).get(self.moves..).unwrap_or_default().iter().any(|p| is_person(seats, *p))
    }

    /// Its state in words: `pending`, `declined`, `granted` or `lapsed`.
    pub fn status(&self, game: &Game, seats: &[Seat], now: i64) -> &'static str {
        match self.outcome {
            Some(Outcome::Declined { .. }) => "declined",
            Some(Outcome::Granted) => "granted",
            None if self.pending(game, seats, now) => "pending",
            None => "lapsed",
        }
    }
}

/// The request as everyone sees it (the state's `takeback`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TakebackView {
    pub number: u32,
    /// The seat asking.
    pub seat: u8,
    /// The number of the first move taken back (1-based).
    pub move_number: usize,
    /// How many moves it takes back (that one and those after it).
    pub moves: usize,
    /// `pending`, `declined`, `granted` or `lapsed`.
    pub status: &'static str,
    pub waiting: Vec<u8>,
    pub accepted: Vec<u8>,
    /// The seat that declined.
    pub declined_by: Option<u8>,
    /// While pending: how long until it lapses, as the server saw it when
    /// it sent the state (ms).
    pub left_ms: Option<i64>,
    /// Takebacks granted in this game so far (a page orders the states it
    /// gets by it, then by version: a game taken back has a lower version).
    pub granted: u32,
}

impl TakebackView {
    pub fn new(t: &Takeback, game: &Game, seats: &[Seat], now: i64) -> TakebackView {
        let status = t.status(game, seats, now);
        TakebackView {
            number: t.number,
            seat: t.seat,
            move_number: t.to + 1,
            // (While pending, the bots' moves since count too.)
            moves: if status == "pending" { game.moves_played() as usize } else { t.moves }.saturating_sub(t.to),
            status,
            waiting: t.waiting.clone(),
            accepted: t.accepted.clone(),
            declined_by: match t.outcome {
                Some(Outcome::Declined { by }) => Some(by),
                _ => None,
            },
            left_ms: (status == "pending").then(|| (t.lapses_at - now).max(0)),
            granted: t.granted,
        }
    }
}

/// Who played each move of `game`, in order (every move lays a tile).
pub(crate) fn movers(game: &Game) -> Vec<PlayerId> {
    game.events()
        .iter()
        .filter_map(|e| match *e {
            Event::TilePlaced { player, .. } => Some(player),
            _ => None,
        })
        .collect()
}

pub(crate) fn is_person(seats: &[Seat], p: PlayerId) -> bool {
    matches!(seats.get(p.index()), Some(Seat::Human { .. }))
}

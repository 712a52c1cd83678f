//! Hints (`POST /api/games/{id}/hint`): the search's best move for the
//! seat to move, with its expected gain over the player's average move
//! (`carcassonne_ai::hint`, docs/ai.md "Hints").
//!
//! Only where nobody is wronged by them: in casual games against bots and
//! at one screen (hot-seat), never in a game with a person invited to play
//! from elsewhere. Only the seat to move asks, while the game is on.
//!
//! A hint is a bot move's worth of work and is run like one: on the bots'
//! worker pool, under the same permits (`Config::bot_workers`), counted at
//! the reviews' gate (reviews wait meanwhile), so that hints queue with the
//! bots' moves and never run beside more searches than there are workers.
//! One hint at a time per game; at most one per worker at once on the
//! server (more are answered `busy`), and [`KNOWN_HINT_PLACES`] more kept
//! for people with a history (a seat linked to such an account), whose
//! hints also wait in the bots' first line: a crowd of fresh addresses
//! asking hints in games of their own keeps nobody known out;
//! [`HINTS_PER_MINUTE`] per client address (after a burst of
//! [`HINT_BURST`]), then `rate_limited`.

use std::collections::HashSet;
use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use carcassonne::record::RecordMove;
use carcassonne_ai::Budget;
use serde::Serialize;

use super::bots::turns::Line;
use super::bots::Workers;
use super::games::live::{Live, Viewer};
use super::games::Games;
use super::history::Histories;
use crate::error::ApiError;
use crate::store::{RatingRepo, Seat, Store};

/// Hints worked out at once beyond one per worker, kept for people with a
/// history.
pub const KNOWN_HINT_PLACES: usize = 1;

/// Hints one client address may ask for in a minute.
pub const HINTS_PER_MINUTE: u32 = 20;
/// Hints one client address may ask for at once before the minute's rate holds.
pub const HINT_BURST: u32 = 6;
/// The search's budget for a hint (half searching, half valuing), unless
/// `CARCASSONNE_HINT_MS` says otherwise.
pub const HINT_MS: u64 = 400;

/// What a hint answers.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct HintAnswer {
    /// The version of the game the hint is for (a move names it).
    pub version: u64,
    /// The seat the hint is for.
    pub seat: u8,
    /// The search's move, as a record writes it.
    #[serde(rename = "move")]
    pub best: RecordMove,
    /// Expected final margin after it, minus that after an average legal move.
    pub gain: f64,
    pub best_margin: f64,
    pub average_margin: f64,
    /// How many legal moves there were.
    pub legal: usize,
    /// Play-outs behind the values.
    pub samples: u32,
    /// The search's budget, as written (`400ms`, `60it`).
    pub budget: String,
}

/// The hints being worked out, and who may ask.
pub struct Hints {
    games: Arc<Games>,
    /// Who has a history (the places kept for them).
    histories: Arc<Histories>,
    ratings: Arc<dyn RatingRepo>,
    workers: Workers,
    budget: Budget,
    /// Games with a hint being worked out.
    running: Mutex<HashSet<String>>,
    /// The most hints worked out at once on this server.
    max_running: usize,
    per_address: crate::limits::Keyed<IpAddr>,
}

impl Hints {
    /// With `quick`, a few iterations (tests); else [`HINT_MS`] milliseconds
    /// (or `CARCASSONNE_HINT_MS`, 10 to 5,000).
    pub fn new(
        store: &Store,
        games: Arc<Games>,
        histories: Arc<Histories>,
        workers: Workers,
        quick: bool,
        bot_workers: usize,
    ) -> Hints {
        let ms = std::env::var("CARCASSONNE_HINT_MS").ok().and_then(|v| v.trim().parse::<u64>().ok());
        let budget = if quick {
            Budget::Iterations(60)
        } else {
            Budget::Time(Duration::from_millis(ms.unwrap_or(HINT_MS).clamp(10, 5_000)))
        };
        let per_minute = NonZeroU32::new(HINTS_PER_MINUTE).unwrap_or(NonZeroU32::MIN);
        let burst = NonZeroU32::new(HINT_BURST).unwrap_or(NonZeroU32::MIN);
        Hints {
            games,
            histories,
            ratings: Arc::clone(&store.ratings),
            workers,
            budget,
            running: Mutex::default(),
            max_running: bot_workers.max(1),
            per_address: crate::limits::Keyed::new(governor::Quota::per_minute(per_minute).allow_burst(burst)),
        }
    }

    pub fn budget(&self) -> Budget {
        self.budget
    }

    fn running(&self) -> std::sync::MutexGuard<'_, HashSet<String>> {
        self.running.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Takes the game's one place for a hint, within the server's cap (and
    /// the places kept for people with a history, if `known`).
    fn reserve(self: &Arc<Self>, id: &str, known: bool) -> Result<Running, ApiError> {
        let mut running = self.running();
        if running.contains(id) {
            return Err(ApiError::TryLater("a hint for this game is being worked out".into()));
        }
        if running.len() >= places(self.max_running, known) {
            return Err(ApiError::TryLater(format!("{} hints are being worked out", running.len())));
        }
        running.insert(id.to_string());
        Ok(Running { hints: Arc::clone(self), id: id.to_string() })
    }

    /// Hints being worked out now.
    pub fn in_progress(&self) -> usize {
        self.running().len()
    }
}

/// The hints that may be worked out at once for someone: one per worker,
/// and the places kept for people with a history if `known`.
fn places(max_running: usize, known: bool) -> usize {
    max_running + if known { KNOWN_HINT_PLACES } else { 0 }
}

/// A game's place for a hint; dropping it frees the place.
struct Running {
    hints: Arc<Hints>,
    id: String,
}

impl Drop for Running {
    fn drop(&mut self) {
        self.hints.running().remove(&self.id);
    }
}

/// Whether hints are given in a game with these seats: not with a person
/// invited to play from elsewhere (an online game with people).
/// (A rated game gives none either: [`Hints::hint`] asks the store.)
pub fn hints_allowed(seats: &[Seat]) -> bool {
    !seats.iter().any(|s| matches!(s, Seat::Human { remote: true, .. }))
}

impl Hints {
    /// The search's best move for `viewer`, who holds the seat to move of
    /// `live` (at `version` if given), asked from client address `ip`.
    ///
    /// # Errors
    /// `game_over`; `unauthorized` (a spectator: no seat of this game);
    /// `no_hints` (an online game with people, or a rated game); `not_your_turn`;
    /// `stale_version`; `rate_limited` (too many from this address); `busy`
    /// (a hint for this game is being worked out, or as many as the server
    /// works out at once).
    pub async fn hint(
        self: &Arc<Self>,
        live: &Arc<Live>,
        viewer: &Viewer,
        version: Option<u64>,
        ip: Option<IpAddr>,
    ) -> Result<HintAnswer, ApiError> {
        let hints = self;
        let (game, seat, at, accounts) = {
            let t = live.lock().await;
            let Some(to_move) = t.to_move() else {
                return Err(ApiError::GameOver);
            };
            if viewer.seats.is_empty() {
                return Err(ApiError::Unauthorized);
            }
            if !hints_allowed(&t.seats) {
                return Err(ApiError::NoHints);
            }
            if !viewer.holds(to_move) {
                return Err(ApiError::NotYourTurn);
            }
            if version.is_some_and(|v| v != t.version()) {
                return Err(ApiError::StaleVersion { current: t.version() });
            }
            let accounts: Vec<String> =
                viewer.seats.iter().filter_map(|p| t.seats.get(p.index())?.account().map(str::to_string)).collect();
            (self.games.copy_of(&t.game), to_move, t.version(), accounts)
        };
        // A person with a history: a seat of theirs linked to such an account.
        let mut known = false;
        for account in &accounts {
            if self.histories.of_id(account).await {
                known = true;
                break;
            }
        }
        if self.ratings.rated(&live.id).await?.is_some() {
            self.games.spare(game);
            return Err(ApiError::NoHints);
        }
        if let Some(ip) = ip {
            if hints.per_address.check(&ip).is_err() {
                self.games.spare(game);
                return Err(ApiError::RateLimited);
            }
        }
        let place = match hints.reserve(&live.id, known) {
            Ok(place) => place,
            Err(e) => {
                self.games.spare(game);
                return Err(e);
            }
        };
        let budget = hints.budget;
        let seed = hint_seed(&live.id, at);
        // Like a bot's move: counted at the gate (reviews wait), then a
        // worker's permit, in turn with the bots' searches.
        let _counted = self.workers.gate.bot_turn();
        let lane = ip.map_or_else(|| live.id.clone(), |ip| ip.to_string());
        let turn = self.workers.turns.take(if known { Line::Known } else { Line::Open }, &lane).await;
        let games = Arc::clone(&self.games);
        let found = tokio::task::spawn_blocking(move || {
            let _turn = turn;
            let _place = place;
            let h = carcassonne_ai::hint::hint(&game, budget, seed);
            games.spare(game);
            h
        })
        .await
        .map_err(|e| ApiError::Storage(format!("the hint's task failed: {e}")))?;
        let h = found.ok_or(ApiError::GameOver)?;
        Ok(HintAnswer {
            version: at,
            seat: seat.0,
            best: RecordMove::from_move(&h.best),
            gain: h.gain,
            best_margin: h.best_margin,
            average_margin: h.average_margin,
            legal: h.legal,
            samples: h.samples,
            budget: budget.to_string(),
        })
    }
}

/// A hint's random seed: the game and its move (the same position, the same hint).
fn hint_seed(id: &str, version: u64) -> u64 {
    // FNV-1a over the id, then the move number.
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in id.bytes().chain(version.to_le_bytes()).chain(*b"hint") {
        h ^= b as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

#[cfg(test)]
mod tests {
    use crate::config::Config;
    use crate::services::AppState;
    use crate::store::Store;

    /// A crowd's hints, one per worker, leave the places kept for people
    /// with a history; those are few, and free again when a hint ends.
    #[tokio::test]
    async fn a_crowd_s_hints_leave_the_places_kept_for_people_with_a_history() {
        let app = AppState::new(Store::in_memory().unwrap(), Config { bot_workers: 2, ..Config::quick() });
        let hints = &app.hints;
        let crowd: Vec<_> = (0..2).map(|i| hints.reserve(&format!("crowd{i}"), false).unwrap()).collect();
        assert!(hints.reserve("newcomer", false).is_err(), "a newcomer waits for a place");
        let known: Vec<_> =
            (0..super::KNOWN_HINT_PLACES).map(|i| hints.reserve(&format!("known{i}"), true).unwrap()).collect();
        assert!(hints.reserve("known again", true).is_err(), "the places kept are few");
        assert!(hints.reserve("crowd0", true).is_err(), "one hint at a time per game");
        drop(known);
        drop(crowd);
        assert!(hints.reserve("newcomer", false).is_ok(), "places free when hints end");
    }
}

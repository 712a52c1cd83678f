//! Game review: every move of a record judged by the search from the
//! mover's view (docs/ai.md, "Game review").
//!
//! For each position the search bot ([`MctsBot`]) picks its best move with
//! half the budget. Then the two candidates — its pick and the move played —
//! are valued with the other half on the same footing: the **expected
//! margin** of a move is the mean, over tile orders sampled from what the
//! mover sees, of the mover's final score minus the best other final score
//! when the move is made and the game is played out by the search's playout
//! policy (uniformly random legal moves). Both candidates are played out on
//! the same samples with the same random choices (common random numbers),
//! so that their difference is measured much more precisely than either
//! value. The move played **lost** the better candidate's expected margin
//! minus its own (0 when it is the better one, or the search's pick).
//!
//! These values are what the search believes under random continuation:
//! they rank moves well and show the swing of a game, but they are not a
//! forecast of the real final margin between strong players.
//!
//! ```
//! use carcassonne::record::Record;
//! use carcassonne::{Game, Rules, Setup};
//! use carcassonne_ai::review::{review, ReviewOptions};
//! use carcassonne_ai::Budget;
//!
//! let mut game = Game::new(Setup::standard(Rules::default(), 2, 3)).unwrap();
//! for _ in 0..3 {
//!     let mv = game.legal_moves()[0];
//!     game.play(&mv).unwrap();
//! }
//! let record = Record::from_game(&game, &["Ada".into(), "Bob".into()]);
//! let options = ReviewOptions { budget: Budget::Iterations(200), ..ReviewOptions::default() };
//! let review = review(&record, &options, |_, _| {}).unwrap();
//! assert_eq!(review.moves.len(), 3);
//! assert!(review.moves.iter().all(|m| m.lost >= 0.0));
//! ```

use std::time::{Duration, Instant};

use carcassonne::record::{Record, RecordMove, ReplayError, Replayer};
use carcassonne::{seeded_rng, Game, Move, PlayerId, RandomMover, View};
use serde::{Deserialize, Serialize};

use crate::bot::Bot;
use crate::eval::margin_of;
use crate::mcts::{Budget, MctsBot, MctsConfig};
use crate::parallel::map_jobs;
use crate::sample::Determinizer;
use crate::seed::derive;

/// How hard to look at each position.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct ReviewOptions {
    /// Per position: half for the search, half for valuing the candidates.
    pub budget: Budget,
    pub seed: u64,
    /// Positions reviewed at once.
    pub threads: usize,
}

impl Default for ReviewOptions {
    fn default() -> Self {
        ReviewOptions { budget: Budget::Time(Duration::from_secs(1)), seed: 1, threads: 1 }
    }
}

/// The review of one move.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MoveReview {
    /// 1-based move number (the record's `moves` index + 1).
    pub turn: u16,
    pub seat: u8,
    /// How many legal moves there were.
    pub legal: usize,
    #[serde(rename = "move")]
    pub played: RecordMove,
    /// The better of the search's pick and the move played.
    pub best: RecordMove,
    /// The search's pick (which may value below the move played).
    pub search: RecordMove,
    /// Expected final margin of the mover after `best`.
    pub best_margin: f64,
    /// Expected final margin of the mover after the move played.
    pub played_margin: f64,
    /// `best_margin - played_margin`, at least 0.
    pub lost: f64,
    /// Play-outs behind each of the two values.
    pub samples: u32,
}

/// A whole game's review.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Review {
    pub players: Vec<String>,
    /// The budget per position, as written (`1s`, `2000it`).
    pub budget: String,
    pub moves: Vec<MoveReview>,
    /// Per seat: points lost in all (the sum of its moves' `lost`).
    pub lost: Vec<f64>,
    pub elapsed_ms: u64,
}

/// Reviews every move of `record`, calling `progress(done, total)` as
/// positions are finished (from the reviewing threads).
///
/// # Errors
/// The record does not replay.
pub fn review(
    record: &Record,
    options: &ReviewOptions,
    progress: impl Fn(usize, usize) + Sync,
) -> Result<Review, ReplayError> {
    let started = Instant::now();
    let positions = positions(record)?;
    let moves =
        each_position(&positions, options.threads, progress, |game, played| review_position(game, played, options));
    Ok(Review::new(record, options, moves, started.elapsed()))
}

impl Review {
    /// The review of `record` made of its moves' reviews (in order).
    pub fn new(record: &Record, options: &ReviewOptions, moves: Vec<MoveReview>, elapsed: Duration) -> Review {
        let mut lost = vec![0.0; record.players.len()];
        for m in &moves {
            if let Some(l) = lost.get_mut(m.seat as usize) {
                *l += m.lost;
            }
        }
        Review {
            players: record.players.clone(),
            budget: options.budget.to_string(),
            moves,
            lost,
            elapsed_ms: elapsed.as_millis() as u64,
        }
    }
}

/// `judge` applied to every position (in order), on `threads` threads,
/// calling `progress(done, total)` as each is finished.
pub(crate) fn each_position<T: Send>(
    positions: &[(Game, Move)],
    threads: usize,
    progress: impl Fn(usize, usize) + Sync,
    judge: impl Fn(&Game, Move) -> T + Sync,
) -> Vec<T> {
    let total = positions.len();
    map_jobs(total, threads, |done| progress(done, total), |i| judge(&positions[i].0, positions[i].1))
}

/// Every position of `record` before a move, with the move played there.
///
/// # Errors
/// The record does not replay.
pub fn positions(record: &Record) -> Result<Vec<(Game, Move)>, ReplayError> {
    let mut replay = Replayer::new(record.setup()?)?;
    let mut out = Vec::with_capacity(record.moves.len());
    for m in &record.moves {
        let before = replay.game().clone();
        replay.step(m)?;
        out.push((before, *replay.game().history().last().expect("a move was played")));
    }
    Ok(out)
}

/// One position: the search's pick, then both candidates valued.
pub fn review_position(game: &Game, played: Move, options: &ReviewOptions) -> MoveReview {
    let me = game.to_move().expect("a position before a move has a player to move");
    let view = View::new(game, me);
    let legal = view.legal_moves();
    let seed = derive(options.seed, &[game.moves_played() as u64]);
    let (search_budget, value_budget) = match options.budget {
        Budget::Iterations(n) => (Budget::Iterations((n / 2).max(1)), Budget::Iterations((n / 2).max(1))),
        Budget::Time(d) => (Budget::Time(d / 2), Budget::Time(d / 2)),
    };
    let pick = if legal.len() > 1 {
        let mut bot = MctsBot::new(MctsConfig { budget: search_budget, seed, ..MctsConfig::default() });
        bot.choose(&view).unwrap_or(played)
    } else {
        played
    };
    let candidates: Vec<Move> = if pick == played { vec![played] } else { vec![played, pick] };
    let (values, samples) = expected_margins(&view, &candidates, value_budget, derive(seed, &[1]));
    let (best, best_margin) =
        if candidates.len() == 2 && values[1] > values[0] { (pick, values[1]) } else { (played, values[0]) };
    MoveReview {
        turn: game.moves_played() + 1,
        seat: me.0,
        legal: legal.len(),
        played: RecordMove::from_move(&played),
        best: RecordMove::from_move(&best),
        search: RecordMove::from_move(&pick),
        best_margin,
        played_margin: values[0],
        lost: best_margin - values[0],
        samples,
    }
}

/// The mean final margin of the viewer after each candidate, over sampled
/// tile orders and random play-outs shared by the candidates.
pub(crate) fn expected_margins(view: &View<'_>, candidates: &[Move], budget: Budget, seed: u64) -> (Vec<f64>, u32) {
    let me = view.player();
    let det = Determinizer::new(view);
    let deadline = match budget {
        Budget::Time(d) => Some(Instant::now() + d),
        Budget::Iterations(_) => None,
    };
    let limit = match budget {
        Budget::Iterations(n) => (n as usize / candidates.len()).max(1) as u32,
        Budget::Time(_) => u32::MAX,
    };
    let mut mover = RandomMover::new();
    let mut sums = vec![0.0; candidates.len()];
    let mut game = det.base().clone();
    let mut n = 0u32;
    let mut values = [0.0; carcassonne::MAX_PLAYERS];
    while n < limit && (n == 0 || deadline.is_none_or(|d| Instant::now() < d)) {
        let sample_seed = derive(seed, &[n as u64]);
        let sample = det.sample(&mut seeded_rng(sample_seed));
        for (sum, mv) in sums.iter_mut().zip(candidates) {
            game.clone_from(&sample);
            game.play_unchecked(mv);
            // The same random choices after each candidate.
            mover.playout(&mut game, &mut seeded_rng(derive(sample_seed, &[1])));
            let n_players = game.num_players();
            for (v, &s) in values.iter_mut().zip(game.scores()) {
                *v = s as f64;
            }
            *sum += margin_of(&values[..n_players], PlayerId(me.0));
        }
        n += 1;
    }
    (sums.iter().map(|s| s / n as f64).collect(), n)
}

#[cfg(test)]
mod tests {
    use super::*;
    use carcassonne::{Rules, Setup};
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// A game where seat 0 plays the engine's last legal move each turn
    /// (often a follower thrown away on a field) is reviewed move by move;
    /// the search's pick is never valued below the move played, and with an
    /// iteration budget the review is the same twice.
    #[test]
    fn reviews_are_consistent_and_reproducible() {
        let mut game = Game::new(Setup::standard(Rules::default(), 2, 9)).unwrap();
        for _ in 0..8 {
            let mv = *game.legal_moves().last().unwrap();
            game.play(&mv).unwrap();
        }
        let record = Record::from_game(&game, &["A".into(), "B".into()]);
        let options = ReviewOptions { budget: Budget::Iterations(400), seed: 5, threads: 2 };
        let calls = AtomicUsize::new(0);
        let r = review(&record, &options, |_, total| {
            calls.fetch_add(1, Ordering::Relaxed);
            assert_eq!(total, 8);
        })
        .unwrap();
        assert_eq!(calls.into_inner(), 8);
        assert_eq!(r.moves.len(), 8);
        for (i, m) in r.moves.iter().enumerate() {
            assert_eq!((m.turn as usize, m.seat as usize), (i + 1, i % 2));
            assert_eq!(m.played, record.moves[i]);
            assert!(m.lost >= 0.0 && (m.best_margin - m.played_margin - m.lost).abs() < 1e-9);
            assert!(m.samples >= 100);
            if m.best == m.played {
                assert_eq!(m.lost, 0.0);
            }
        }
        assert!(r.lost[0] > 0.0, "some of these moves are worse than the search's");
        let again = review(&record, &ReviewOptions { threads: 1, ..options }, |_, _| {}).unwrap();
        assert_eq!(again.moves, r.moves);
    }

    #[test]
    fn a_bad_record_is_refused() {
        let mut record =
            Record::from_game(&Game::new(Setup::standard(Rules::default(), 2, 1)).unwrap(), &["A".into(), "B".into()]);
        record.moves.push(RecordMove { tile: "A".into(), at: [9, 9], rot: 0, ..Default::default() });
        assert_eq!(review(&record, &ReviewOptions::default(), |_, _| {}).unwrap_err().move_no, Some(1));
    }
}

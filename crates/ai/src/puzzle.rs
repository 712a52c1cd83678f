//! Puzzles: positions from games where one move is clearly best (the web
//! page's `#/puzzles`, `carcassonne puzzles`; docs/web.md, "Puzzles").
//!
//! Every position of a game is valued as the review values moves
//! ([`crate::review`]): the **expected margin** of a move is the mover's mean
//! final score minus the best other score over tile orders sampled from what
//! the mover sees, played out at random, with common random numbers for all
//! the moves compared. A position is a puzzle when
//!
//! 1. a wide pass values **every** legal move with a few play-outs each
//!    (`screen`) and keeps the best few (`keep`),
//! 2. two independent passes (other seeds: other tile orders and play-outs)
//!    value the kept moves with `samples` play-outs each, and both put the
//!    same move first,
//! 3. by at least `min_gap` expected points over the next move in each.
//!
//! Moves that lead to the same position (a symmetric tile turned round, a
//! field named by another of its spots) play out identically on the same
//! samples, so they value exactly the same: they are one answer, all listed
//! in [`Puzzle::answers`]. A puzzle shows only what the mover saw: its record
//! holds the draws up to the tile to play (never the bag's order), and
//! [`Puzzle::remaining`] the counts of the tiles still in the bag.
//!
//! ```
//! use carcassonne::record::Record;
//! use carcassonne::{Game, Rules, Setup};
//! use carcassonne_ai::puzzle::{find_puzzles, PuzzleOptions};
//!
//! let mut game = Game::new(Setup::standard(Rules::default(), 2, 3)).unwrap();
//! for _ in 0..4 {
//!     let mv = *game.legal_moves().last().unwrap();
//!     game.play(&mv).unwrap();
//! }
//! let record = Record::from_game(&game, &["Ada".into(), "Bob".into()]);
//! let options = PuzzleOptions { screen: 2, keep: 3, samples: 8, min_gap: 0.0, ..PuzzleOptions::default() };
//! let puzzles = find_puzzles(&record, "doc", &options, |_, _| {}).unwrap();
//! assert!(puzzles.iter().all(|p| p.gap >= 0.0 && p.answers.contains(&p.best)));
//! ```

use carcassonne::record::{Record, RecordMove, ReplayError};
use carcassonne::{Game, Move, TileId, View};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

use crate::mcts::Budget;
use crate::review::{each_position, expected_margins, positions};
use crate::seed::derive;

/// How puzzles are chosen (the module's text says how these are used).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct PuzzleOptions {
    /// Play-outs per legal move in the wide pass.
    pub screen: u32,
    /// Moves kept from the wide pass (with every move valued the same as one kept).
    pub keep: usize,
    /// Play-outs per kept move in each of the two checking passes.
    pub samples: u32,
    /// The least lead, in expected points, of the best move over the next in both passes.
    pub min_gap: f64,
    /// At most this many puzzles from one game (the clearest).
    pub max_per_game: usize,
    pub seed: u64,
    /// Positions valued at once.
    pub threads: usize,
}

impl Default for PuzzleOptions {
    fn default() -> Self {
        PuzzleOptions { screen: 8, keep: 8, samples: 96, min_gap: 4.0, max_per_game: 3, seed: 1, threads: 1 }
    }
}

/// One puzzle: a position, the move to find and how clearly it is best.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Puzzle {
    /// `SOURCE-mTURN`.
    pub id: String,
    /// Where the position comes from (a file name, a self-play game).
    pub source: String,
    /// The game up to the move: rules, players, the draws so far (the tile to
    /// play last) and the moves before it.
    pub record: Record,
    /// 1-based number of the move to find.
    pub turn: u16,
    pub seat: u8,
    /// The tile to lay.
    pub tile: String,
    pub scores: Vec<u32>,
    /// Tiles still in the bag after this one, by id (what every player may count).
    pub remaining: BTreeMap<String, u8>,
    /// How many legal moves there are.
    pub legal: usize,
    /// The best move, and every move leading to the same position.
    pub best: RecordMove,
    pub answers: Vec<RecordMove>,
    /// The runner-up.
    pub second: RecordMove,
    /// Expected margins (the mean of the two checking passes).
    pub best_margin: f64,
    pub second_margin: f64,
    /// The smaller of the two passes' leads of `best` over the next move.
    pub gap: f64,
    /// The move played in the game, and whether it was an answer.
    pub played: RecordMove,
    pub played_best: bool,
    /// Play-outs per move in each checking pass.
    pub samples: u32,
}

/// The puzzles of one game (at most `max_per_game`, the clearest first),
/// calling `progress(done, total)` as positions are valued.
///
/// # Errors
/// The record does not replay.
pub fn find_puzzles(
    record: &Record,
    source: &str,
    options: &PuzzleOptions,
    progress: impl Fn(usize, usize) + Sync,
) -> Result<Vec<Puzzle>, ReplayError> {
    let positions = positions(record)?;
    let mut found: Vec<Puzzle> = each_position(&positions, options.threads, progress, |game, played| {
        judge(record, source, game, played, options)
    })
    .into_iter()
    .flatten()
    .collect();
    found.sort_by(|a, b| b.gap.total_cmp(&a.gap).then(a.turn.cmp(&b.turn)));
    found.truncate(options.max_per_game);
    found.sort_by_key(|p| p.turn);
    Ok(found)
}

/// Values the moves kept after the wide pass with another seed: the order
/// (best first) and the values.
fn pass(view: &View<'_>, moves: &[Move], samples: u32, seed: u64) -> Vec<f64> {
    let budget = Budget::Iterations(samples.max(1).saturating_mul(moves.len() as u32));
    expected_margins(view, moves, budget, seed).0
}

/// The index of the best value and the values' lead over the best value that differs.
fn lead(values: &[f64]) -> (usize, f64) {
    let best = (0..values.len()).max_by(|&a, &b| values[a].total_cmp(&values[b])).expect("some moves");
    let second = values.iter().copied().filter(|&v| v != values[best]).fold(f64::NEG_INFINITY, f64::max);
    (best, values[best] - second)
}

/// The position before `played` as a puzzle, if one move is clearly best there.
fn judge(record: &Record, source: &str, game: &Game, played: Move, options: &PuzzleOptions) -> Option<Puzzle> {
    // With a hand the mover chooses among tiles; such positions are left out.
    if game.rules().hand > 1 || game.rules().draw_at_turn_end {
        return None;
    }
    let me = game.to_move()?;
    let view = View::new(game, me);
    let legal = view.legal_moves();
    if legal.len() < 2 {
        return None;
    }
    let turn = game.moves_played() + 1;
    let seed = derive(options.seed, &[u64::from(turn)]);
    // The wide pass: every legal move, a few play-outs each.
    let wide = pass(&view, &legal, options.screen, derive(seed, &[0]));
    let mut order: Vec<usize> = (0..legal.len()).collect();
    order.sort_by(|&a, &b| wide[b].total_cmp(&wide[a]));
    let mut kept_values: Vec<f64> = Vec::new();
    let mut kept: Vec<Move> = Vec::new();
    for i in order {
        if !kept_values.contains(&wide[i]) {
            if kept_values.len() == options.keep.max(2) {
                break;
            }
            kept_values.push(wide[i]);
        }
        kept.push(legal[i]);
    }
    // Two checking passes on other samples: the same move first, by the gap in both.
    let first = pass(&view, &kept, options.samples, derive(seed, &[1]));
    let again = pass(&view, &kept, options.samples, derive(seed, &[2]));
    let (best, gap1) = lead(&first);
    let (best2, gap2) = lead(&again);
    let answers: Vec<usize> = (0..kept.len()).filter(|&i| first[i] == first[best] && again[i] == again[best]).collect();
    let gap = gap1.min(gap2);
    if !answers.contains(&best2) || !gap.is_finite() || gap < options.min_gap {
        return None;
    }
    let mean = |i: usize| (first[i] + again[i]) / 2.0;
    let second = (0..kept.len()).filter(|i| !answers.contains(i)).max_by(|&a, &b| mean(a).total_cmp(&mean(b)))?;
    let mut prefix = record.clone();
    prefix.deck = Some(game.drawn().iter().map(|t| t.name().to_string()).collect());
    prefix.seed = None;
    prefix.moves.truncate(usize::from(turn) - 1);
    let remaining = TileId::all()
        .filter_map(|t| {
            let n = view.remaining()[t.index()];
            (n > 0).then(|| (t.name().to_string(), n))
        })
        .collect();
    let answer_moves: Vec<RecordMove> = answers.iter().map(|&i| RecordMove::from_move(&kept[i])).collect();
    Some(Puzzle {
        id: format!("{source}-m{turn}"),
        source: source.to_string(),
        record: prefix,
        turn,
        seat: me.0,
        tile: game.tile()?.name().to_string(),
        scores: game.scores().to_vec(),
        remaining,
        legal: legal.len(),
        best: RecordMove::from_move(&kept[best]),
        played_best: answers.iter().any(|&i| kept[i] == played),
        answers: answer_moves,
        second: RecordMove::from_move(&kept[second]),
        best_margin: mean(best),
        second_margin: mean(second),
        gap,
        played: RecordMove::from_move(&played),
        samples: options.samples,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use carcassonne::record::Replayer;
    use carcassonne::{Rules, Setup};

    fn game_record(seed: u64, moves: usize) -> Record {
        let mut game = Game::new(Setup::standard(Rules::default(), 2, seed)).unwrap();
        for _ in 0..moves {
            // The engine's last legal move: often a follower thrown away on a field.
            let mv = *game.legal_moves().last().unwrap();
            game.play(&mv).unwrap();
        }
        Record::from_game(&game, &["A".into(), "B".into()])
    }

    /// Each puzzle is the position before its move, shown without the bag's
    /// order; its answers are legal there and lead by the gap asked for.
    #[test]
    fn puzzles_are_the_movers_positions_with_a_clear_best_move() {
        let record = game_record(11, 14);
        let options =
            PuzzleOptions { screen: 4, keep: 4, samples: 24, min_gap: 1.0, max_per_game: 20, ..Default::default() };
        let puzzles = find_puzzles(&record, "t", &options, |_, _| {}).unwrap();
        assert!(!puzzles.is_empty(), "poor moves leave some clear best moves");
        for p in &puzzles {
            assert!(p.gap >= 1.0 && p.best_margin > p.second_margin);
            let deck = p.record.deck.as_ref().unwrap();
            assert!(deck.len() < record.deck.as_ref().unwrap().len(), "{}: the bag's order stays hidden", p.id);
            assert_eq!(p.record.moves.len() + 1, usize::from(p.turn));
            let mut replay = Replayer::new(p.record.setup().unwrap()).unwrap();
            replay.run(&p.record.moves).unwrap();
            assert_eq!(replay.game().tile().map(|t| t.name()), Some(p.tile.as_str()));
            assert_eq!(replay.game().to_move().map(|s| s.0), Some(p.seat));
            for answer in &p.answers {
                let mut r = replay.clone();
                r.step(answer).unwrap();
            }
            let bag = record.deck.as_ref().unwrap().len() - deck.len();
            assert_eq!(p.remaining.values().map(|&n| usize::from(n)).sum::<usize>(), bag, "{}: the bag's counts", p.id);
        }
        // The same options find the same puzzles.
        assert_eq!(find_puzzles(&record, "t", &options, |_, _| {}).unwrap(), puzzles);
    }

    #[test]
    fn a_gap_too_wide_finds_nothing() {
        let record = game_record(5, 6);
        let options = PuzzleOptions { screen: 2, keep: 3, samples: 8, min_gap: 1000.0, ..Default::default() };
        assert!(find_puzzles(&record, "t", &options, |_, _| {}).unwrap().is_empty());
    }
}

//! Hints: the search's best move for the player to move, and how much it
//! is worth against the player's average move (docs/ai.md, "Hints").
//!
//! Half the budget goes to the search bot ([`MctsBot`]) choosing its move
//! from what the mover sees; the other half values it against the
//! **average legal move** on the same footing as a game review
//! ([`crate::review`]): on each tile order sampled from what the mover
//! sees, the search's move and one legal move drawn uniformly at random are
//! each played, then the game is played out by random legal moves with the
//! same random choices after both (common random numbers). The mean final
//! margin of the random draws is the average move's expected margin; the
//! hint's **gain** is the search's move's expected margin minus it.
//!
//! ```
//! use carcassonne::{Game, Rules, Setup};
//! use carcassonne_ai::hint::hint;
//! use carcassonne_ai::Budget;
//!
//! let game = Game::new(Setup::standard(Rules::default(), 2, 7)).unwrap();
//! let h = hint(&game, Budget::Iterations(200), 1).unwrap();
//! assert!(game.legal_moves().contains(&h.best));
//! assert!(h.samples >= 1);
//! ```

use std::time::Instant;

use carcassonne::{seeded_rng, Game, Move, PlayerId, RandomMover, View};
use rand_core::RngCore;

use crate::bot::Bot;
use crate::eval::margin_of;
use crate::mcts::{Budget, MctsBot, MctsConfig};
use crate::sample::Determinizer;
use crate::seed::derive;

/// The search's advice for the player to move.
#[derive(Clone, Debug, PartialEq)]
pub struct Hint {
    /// The search's move.
    pub best: Move,
    /// The mover's expected final margin after it.
    pub best_margin: f64,
    /// The mover's expected final margin after a legal move drawn at random.
    pub average_margin: f64,
    /// `best_margin - average_margin`.
    pub gain: f64,
    /// How many legal moves there were.
    pub legal: usize,
    /// Play-outs behind each of the two values.
    pub samples: u32,
}

/// The hint for the player to move in `game` (`None` once it is over),
/// thinking within `budget` (half searching, half valuing), reproducible
/// for an iteration budget and a `seed`.
pub fn hint(game: &Game, budget: Budget, seed: u64) -> Option<Hint> {
    let me = game.to_move()?;
    let view = View::new(game, me);
    let legal = view.legal_moves();
    let first = *legal.first()?;
    let seed = derive(seed, &[game.moves_played() as u64]);
    let (search, value) = match budget {
        Budget::Iterations(n) => (Budget::Iterations((n / 2).max(1)), Budget::Iterations((n / 2).max(1))),
        Budget::Time(d) => (Budget::Time(d / 2), Budget::Time(d / 2)),
    };
    let best = if legal.len() > 1 {
        let mut bot = MctsBot::new(MctsConfig { budget: search, seed, ..MctsConfig::default() });
        bot.choose(&view).unwrap_or(first)
    } else {
        first
    };
    let (best_margin, average_margin, samples) = against_average(&view, &legal, best, value, derive(seed, &[1]));
    Some(Hint { best, best_margin, average_margin, gain: best_margin - average_margin, legal: legal.len(), samples })
}

/// The mean final margin of the viewer after `best` and after a legal move
/// drawn at random, over sampled tile orders and random play-outs shared by
/// the two.
fn against_average(view: &View<'_>, legal: &[Move], best: Move, budget: Budget, seed: u64) -> (f64, f64, u32) {
    let me = view.player();
    let det = Determinizer::new(view);
    let deadline = match budget {
        Budget::Time(d) => Some(Instant::now() + d),
        Budget::Iterations(_) => None,
    };
    let limit = match budget {
        Budget::Iterations(n) => (n / 2).max(1),
        Budget::Time(_) => u32::MAX,
    };
    let mut mover = RandomMover::new();
    let mut game = det.base().clone();
    let (mut best_sum, mut average_sum) = (0.0, 0.0);
    let mut values = [0.0; carcassonne::MAX_PLAYERS];
    let mut n = 0u32;
    while n < limit && (n == 0 || deadline.is_none_or(|d| Instant::now() < d)) {
        let sample_seed = derive(seed, &[n as u64]);
        let mut rng = seeded_rng(sample_seed);
        let sample = det.sample(&mut rng);
        let drawn = legal[(rng.next_u64() % legal.len() as u64) as usize];
        for (sum, mv) in [(&mut best_sum, best), (&mut average_sum, drawn)] {
            game.clone_from(&sample);
            game.play_unchecked(&mv);
            mover.playout(&mut game, &mut seeded_rng(derive(sample_seed, &[1])));
            let n_players = game.num_players();
            for (v, &s) in values.iter_mut().zip(game.scores()) {
                *v = s as f64;
            }
            *sum += margin_of(&values[..n_players], PlayerId(me.0));
        }
        n += 1;
    }
    (best_sum / n as f64, average_sum / n as f64, n)
}

#[cfg(test)]
mod tests {
    use super::*;
    use carcassonne::{Rules, Setup};

    /// Along a game, every hint is a legal move, reproducible, and no worse
    /// on average than a random move by much (the search beats chance).
    #[test]
    fn hints_are_legal_reproducible_and_better_than_chance() {
        let mut game = Game::new(Setup::standard(Rules::default(), 2, 11)).unwrap();
        let mut gains = 0.0;
        for i in 0..10 {
            let h = hint(&game, Budget::Iterations(400), 3).expect("a hint while the game is on");
            assert!(game.legal_moves().contains(&h.best), "move {i}: the hint is legal");
            assert_eq!(hint(&game, Budget::Iterations(400), 3), Some(h.clone()));
            assert!((h.gain - (h.best_margin - h.average_margin)).abs() < 1e-9);
            assert_eq!(h.samples, 100);
            gains += h.gain;
            let mv = *game.legal_moves().last().unwrap();
            game.play(&mv).unwrap();
        }
        assert!(gains > 0.0, "the search's moves beat random ones on the whole ({gains})");
    }

    #[test]
    fn no_hint_once_the_game_is_over() {
        let mut game = Game::new(Setup::standard(Rules::default(), 2, 2)).unwrap();
        while let Some(&mv) = game.legal_moves().first() {
            game.play(&mv).unwrap();
        }
        assert!(game.is_over());
        assert_eq!(hint(&game, Budget::Iterations(10), 1), None);
    }
}

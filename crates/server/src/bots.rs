//! Computer players. Every bot move the server makes goes through
//! [`choose_move`]: the one place to plug in stronger bots.
//!
//! The levels are the bots of `carcassonne-ai`: random legal moves, and
//! Monte Carlo tree search with growing budgets (docs/ai.md).

use std::fmt;

use carcassonne::{Game, Move, View};
use carcassonne_ai::{BotSpec, Budget, Difficulty};
use serde::{Deserialize, Serialize};

/// How strong a computer player is.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BotLevel {
    Random,
    Easy,
    Normal,
    Hard,
}

impl BotLevel {
    pub const ALL: [BotLevel; 4] = [BotLevel::Random, BotLevel::Easy, BotLevel::Normal, BotLevel::Hard];

    pub const fn name(self) -> &'static str {
        match self {
            BotLevel::Random => "random",
            BotLevel::Easy => "easy",
            BotLevel::Normal => "normal",
            BotLevel::Hard => "hard",
        }
    }

    pub fn from_name(s: &str) -> Option<BotLevel> {
        BotLevel::ALL.into_iter().find(|l| l.name() == s)
    }

    /// What the level plays today, for the new-game form.
    pub const fn description(self) -> &'static str {
        match self {
            BotLevel::Random => "random legal moves",
            BotLevel::Easy => "a quick search (300 playouts a move)",
            BotLevel::Normal => "a real search (3,000 playouts a move)",
            BotLevel::Hard => "a second of search a move",
        }
    }
}

impl fmt::Display for BotLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The move a bot of `level` makes in `game`, `None` once the game is over.
/// `seed` makes the choice reproducible (the server derives it from the game
/// id and the move number). With `quick`, the search bots think for a few
/// iterations only (tests). Runs on a blocking thread: it may think for a
/// while (`hard`: about a second).
pub fn choose_move(level: BotLevel, game: &Game, seed: u64, quick: bool) -> Option<Move> {
    let me = game.to_move()?;
    let spec = match level {
        BotLevel::Random => BotSpec::Random,
        _ if quick => BotSpec::mcts(Budget::Iterations(24)),
        BotLevel::Easy => Difficulty::Easy.spec(),
        BotLevel::Normal => Difficulty::Normal.spec(),
        BotLevel::Hard => Difficulty::Hard.spec(),
    };
    // A bot sees what its seat sees, never the order of the bag.
    spec.build(seed).choose(&View::new(game, me))
}

#[cfg(test)]
mod tests {
    use super::*;
    use carcassonne::{Rules, Setup};

    #[test]
    fn every_level_finishes_a_game_with_legal_moves() {
        for (i, level) in BotLevel::ALL.into_iter().enumerate() {
            let mut game = Game::new(Setup::standard(Rules::default(), 2, i as u64)).unwrap();
            let mut n = 0;
            while let Some(mv) = choose_move(level, &game, n, true) {
                game.play(&mv).expect("a bot plays legal moves");
                n += 1;
            }
            assert!(game.is_over());
        }
    }

    #[test]
    fn levels_round_trip_their_names() {
        for level in BotLevel::ALL {
            assert_eq!(BotLevel::from_name(level.name()), Some(level));
        }
    }
}

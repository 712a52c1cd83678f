//! Computer players. Every bot move the server makes goes through
//! [`choose_move`]: the one place to plug in stronger bots.
//!
//! The levels are the bots of `carcassonne-ai`: random legal moves, and
//! Monte Carlo tree search with growing budgets (docs/ai.md); and the
//! programs the server was started with (`serve --bot NAME=CMD`), spoken to
//! through the bot protocol (docs/bot-protocol.md). A program that fails a
//! move (late, illegal, gone) is replaced for that move by the built-in
//! `normal` bot, and the players are told.

use std::fmt;
use std::time::Duration;

use carcassonne::{Game, Move, Rules, View};
use carcassonne_ai::external::{BotCommand, BotProcess, Limits};
use carcassonne_ai::protocol::FromBot;
use carcassonne_ai::{BotSpec, Budget, Difficulty};
use serde::{Deserialize, Serialize};

/// How strong a computer player is, or which program plays.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum BotLevel {
    Random,
    Easy,
    Normal,
    Hard,
    /// A program registered with `serve --bot NAME=CMD`, by its name.
    External(String),
}

impl BotLevel {
    /// The built-in levels.
    pub const ALL: [BotLevel; 4] = [BotLevel::Random, BotLevel::Easy, BotLevel::Normal, BotLevel::Hard];

    pub fn name(&self) -> &str {
        match self {
            BotLevel::Random => "random",
            BotLevel::Easy => "easy",
            BotLevel::Normal => "normal",
            BotLevel::Hard => "hard",
            BotLevel::External(name) => name,
        }
    }

    /// A built-in level by name.
    pub fn from_name(s: &str) -> Option<BotLevel> {
        BotLevel::ALL.into_iter().find(|l| l.name() == s)
    }

    /// A built-in level or one of `programs`, by name.
    pub fn named(s: &str, programs: &[ExternalBot]) -> Option<BotLevel> {
        BotLevel::from_name(s)
            .or_else(|| programs.iter().any(|p| p.name == s).then(|| BotLevel::External(s.to_string())))
    }

    /// This level, or `easy` if it costs more (a program's included): how
    /// bots play a game nobody is at (docs/web.md, *Bot time*).
    #[must_use]
    pub fn at_most_easy(self) -> BotLevel {
        match self {
            BotLevel::Random | BotLevel::Easy => self,
            BotLevel::Normal | BotLevel::Hard | BotLevel::External(_) => BotLevel::Easy,
        }
    }

    /// What a built-in level plays today, for the new-game form.
    pub const fn description(&self) -> &'static str {
        match self {
            BotLevel::Random => "random legal moves",
            BotLevel::Easy => "a quick search (300 playouts a move)",
            BotLevel::Normal => "a real search (3,000 playouts a move)",
            BotLevel::Hard => "a second of search a move",
            BotLevel::External(_) => "a program",
        }
    }
}

impl fmt::Display for BotLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Stored as its name: a built-in level, or a program's name (which stays
/// readable when the server is started without that program: its seat is
/// then played by the built-in bot).
impl Serialize for BotLevel {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for BotLevel {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<BotLevel, D::Error> {
        let name = String::deserialize(d)?;
        Ok(BotLevel::from_name(&name).unwrap_or(BotLevel::External(name)))
    }
}

/// A program that plays through the bot protocol, offered as an opponent.
#[derive(Clone, Debug, PartialEq)]
pub struct ExternalBot {
    /// The name players choose it by (a level name).
    pub name: String,
    pub command: BotCommand,
    /// What it said of itself: its name and author.
    pub description: String,
    /// The rule options it plays (its hello's `rules`).
    pub rules: Vec<String>,
    pub limits: Limits,
}

/// A `--bot NAME=CMD` that could not be set up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExternalBotError(pub String);

impl fmt::Display for ExternalBotError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ExternalBotError {}

impl ExternalBot {
    /// Reads `NAME=CMD` and starts the program once to shake hands with it
    /// (so that a command that does not work stops the server at once).
    /// Its standard error is discarded.
    ///
    /// # Errors
    /// A bad name (not 1–24 of `a-z 0-9 - _`, or a built-in level's), a
    /// bad command, or a program that does not answer the hello.
    pub fn start(spec: &str, per_move: Duration) -> Result<ExternalBot, ExternalBotError> {
        let bad = |m: String| ExternalBotError(format!("--bot {spec}: {m}"));
        let (name, line) = spec.split_once('=').ok_or_else(|| bad("expected NAME=COMMAND".into()))?;
        let name = name.trim();
        if !(1..=24).contains(&name.len())
            || !name.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'_')
        {
            return Err(bad("the name must be 1 to 24 of a-z, 0-9, - and _".into()));
        }
        if BotLevel::from_name(name).is_some() {
            return Err(bad(format!("{name} is a built-in level")));
        }
        let command: BotCommand =
            line.parse().map_err(|e: carcassonne_ai::external::CommandError| bad(e.to_string()))?;
        let limits = Limits { per_move, stderr: false, ..Limits::default() };
        let probe = BotProcess::spawn(&command, limits).map_err(|e| bad(format!("the program {e}")))?;
        let info = probe.info().clone();
        let by = if info.author.is_empty() { String::new() } else { format!(" by {}", info.author) };
        Ok(ExternalBot {
            name: name.to_string(),
            command,
            description: format!("{}{by} (a program, {} ms a move)", info.name, per_move.as_millis()),
            rules: info.rules,
            limits,
        })
    }

    /// Whether it plays these rules; else the first option it does not.
    ///
    /// # Errors
    /// The name of an option the rules change that it did not list.
    pub fn supports(&self, rules: &Rules) -> Result<(), &'static str> {
        FromBot::supports(&self.rules, rules)
    }

    /// Its move in `game`, through a session of its own: started, told of
    /// the game (the view carries the whole game so far), asked, and
    /// stopped. One process per move keeps no program running between
    /// moves, whatever happens to the game or the server. The long hello
    /// limit is for the first start only (`start`): here the hello gets the
    /// move's limit, so a program slow to start fails its move in at most
    /// twice the move's limit (and the grace), not the hello's.
    ///
    /// # Errors
    /// Why it gave no legal move in time.
    pub fn choose(&self, game: &Game, id: &str, names: &[String]) -> Result<Move, String> {
        let me = game.to_move().ok_or("the game is over")?;
        let limits = Limits { handshake: self.limits.handshake.min(self.limits.per_move), ..self.limits };
        let mut bot = BotProcess::spawn(&self.command, limits).map_err(|e| e.to_string())?;
        bot.new_game(id, game.rules(), names, me.0).map_err(|e| e.to_string())?;
        bot.decide(&View::new(game, me)).map_err(|e| e.to_string())
    }
}

/// A bot's move, and what the players should be told about it.
#[derive(Clone, Debug, PartialEq)]
pub struct BotMove {
    pub mv: Option<Move>,
    /// Set when a program failed and the built-in bot moved instead.
    pub notice: Option<String>,
}

/// The move of the bot of `level` in `game`: a built-in level's, or a
/// program's from `programs`; a program that fails (or is not registered
/// any more) is replaced by the built-in `normal` bot for this move, with a
/// notice saying so.
pub fn choose_bot_move(
    level: &BotLevel,
    game: &Game,
    seed: u64,
    quick: bool,
    programs: &[ExternalBot],
    id: &str,
    names: &[String],
) -> BotMove {
    let BotLevel::External(name) = level else {
        return BotMove { mv: choose_move(level.clone(), game, seed, quick), notice: None };
    };
    let failure = match programs.iter().find(|p| &p.name == name) {
        None => format!("the bot {name} is not available on this server"),
        Some(p) => match p.choose(game, id, names) {
            Ok(mv) => return BotMove { mv: Some(mv), notice: None },
            Err(e) => format!("the bot {name} {e}"),
        },
    };
    tracing::warn!(game = %id, bot = %name, reason = %failure, "a program failed its move; the built-in bot moves");
    BotMove {
        mv: choose_move(BotLevel::Normal, game, seed, quick),
        notice: Some(format!("{failure}: the built-in {} bot moved instead", BotLevel::Normal)),
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
        // A program is asked through `choose_bot_move`; here, the stand-in.
        BotLevel::External(_) => Difficulty::Normal.spec(),
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
            while let Some(mv) = choose_move(level.clone(), &game, n, true) {
                game.play(&mv).expect("a bot plays legal moves");
                n += 1;
            }
            assert!(game.is_over());
        }
    }

    /// Every level plays the Big Box (its figures, the builder's second
    /// tile) to the end with legal moves; the real searches' specs choose a
    /// legal move in it.
    #[test]
    fn every_level_plays_the_big_box() {
        let rules = Rules::preset(carcassonne::Preset::BigBox);
        for (i, level) in BotLevel::ALL.into_iter().enumerate() {
            let mut game = Game::new(Setup::standard(rules, 3, i as u64)).unwrap();
            let mut n = 0;
            while let Some(mv) = choose_move(level.clone(), &game, n, true) {
                game.play(&mv).expect("a bot plays legal moves");
                n += 1;
            }
            assert!(game.is_over());
        }
        let game = Game::new(Setup::standard(rules, 2, 9)).unwrap();
        for level in [BotLevel::Easy, BotLevel::Normal] {
            let mv = choose_move(level, &game, 1, false).unwrap();
            assert!(game.check(&mv).is_ok(), "{mv:?}");
        }
    }

    #[test]
    fn levels_round_trip_their_names() {
        for level in BotLevel::ALL {
            assert_eq!(BotLevel::from_name(level.name()), Some(level));
        }
    }
}

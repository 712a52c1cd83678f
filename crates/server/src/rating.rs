//! The maths of ratings (docs/web.md, *Ratings and profiles*), from the
//! `skillratings` crate: pure functions, no storage.
//!
//! - **Two players** (pool `duel`): Glicko-2 (Glickman), each game its own
//!   rating period; τ = 0.5, convergence tolerance 10⁻⁶; a new player starts
//!   at 1500, deviation 350, volatility 0.06.
//! - **Three to six players** (pool `multi`): Weng-Lin (the Bayesian
//!   Bradley-Terry model OpenSkill uses), every player a team of one, ranked
//!   by final score; β = 25/6. Its native scale (μ = 25, σ = 25/3 at the
//!   start) is shown multiplied by [`MULTI_SCALE`] (so 1500 and 500), the
//!   same scale as the duel pool's.
//!
//! Each pool is kept per rule family ([`Family`]: the base game, the Big
//! Box), so four pools: `duel`, `multi`, `big-box-duel`, `big-box-multi`.
//! The bots' fixed ratings ([`bot_rating`]) are the same in every pool.
//!
//! Players with equal final scores share their place (the rules' shared
//! win): a draw in Glicko-2, an equal rank in Weng-Lin. A player who ran
//! out of time ([`rank_seats`] `forced_loser`) takes the last place alone.

use serde::{Deserialize, Serialize};
use skillratings::glicko2::{glicko2_rating_period, Glicko2Config, Glicko2Rating};
use skillratings::weng_lin::{weng_lin_multi_team, WengLinConfig, WengLinRating};
use skillratings::{MultiTeamOutcome, Outcomes};

use carcassonne::{Preset, Rules};

use crate::bots::BotLevel;

/// The Weng-Lin scale shown: μ and σ times this (μ = 25 shows as 1500).
pub const MULTI_SCALE: f64 = 60.0;

/// A rating is provisional until its holder has played this many rated
/// games in its pool.
pub const PROVISIONAL_GAMES: i64 = 5;

/// The deviation the bots' fixed ratings are given (on the shown scale).
pub const BOT_DEVIATION: f64 = 60.0;

/// The rule families rated separately, as lichess keeps one rating per
/// variant: the base game (every rule set without the expansions: the
/// presets `standard`, `beginner`, `first-edition`), and the Big Box (a rule
/// set with Inns & Cathedrals or Traders & Builders; rated tables play a
/// preset as it stands, so a rated Big Box game plays the `big-box` preset).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum Family {
    #[default]
    Base,
    BigBox,
}

impl Family {
    pub const ALL: [Family; 2] = [Family::Base, Family::BigBox];

    /// The family of a rule set: the Big Box if it plays an expansion.
    pub fn of(rules: &Rules) -> Family {
        if rules.expansions() {
            Family::BigBox
        } else {
            Family::Base
        }
    }

    pub fn word(self) -> &'static str {
        match self {
            Family::Base => "base",
            Family::BigBox => "big-box",
        }
    }

    pub fn from_word(s: &str) -> Option<Family> {
        Family::ALL.into_iter().find(|f| f.word() == s)
    }

    /// The family of rules in record form (`preset` and options); the
    /// base game's for rules that do not read (a stored game's always do).
    pub fn of_json(rules: &serde_json::Map<String, serde_json::Value>) -> Family {
        carcassonne::record::rules_from_json(rules).map_or(Family::Base, |r| Family::of(&r))
    }

    /// The rules a game of this family is made with when none are asked
    /// (Play now): the preset `standard` or `big-box`.
    pub fn rules(self) -> Rules {
        match self {
            Family::Base => Rules::default(),
            Family::BigBox => Rules::preset(Preset::BigBox),
        }
    }
}

/// The rating pools: a game of two players, or of three to six, in each
/// rule family ([`Family`]). Each keeps its own ratings; the base game's
/// pools keep the words they had before the Big Box was rated (`duel`,
/// `multi`), so ratings stored then stay theirs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Pool {
    #[serde(rename = "duel")]
    Duel,
    #[serde(rename = "multi")]
    Multi,
    #[serde(rename = "big-box-duel")]
    BigBoxDuel,
    #[serde(rename = "big-box-multi")]
    BigBoxMulti,
}

impl Pool {
    pub const ALL: [Pool; 4] = [Pool::Duel, Pool::Multi, Pool::BigBoxDuel, Pool::BigBoxMulti];

    /// The pool of a game of `n` players in rule family `family`.
    pub fn of(n: usize, family: Family) -> Pool {
        match (n == 2, family) {
            (true, Family::Base) => Pool::Duel,
            (false, Family::Base) => Pool::Multi,
            (true, Family::BigBox) => Pool::BigBoxDuel,
            (false, Family::BigBox) => Pool::BigBoxMulti,
        }
    }

    /// The pool of a game of `n` players on `rules`.
    pub fn of_game(n: usize, rules: &Rules) -> Pool {
        Pool::of(n, Family::of(rules))
    }

    /// Whether its games are of two players (Glicko-2), not three to six
    /// (Weng-Lin).
    pub fn duel(self) -> bool {
        matches!(self, Pool::Duel | Pool::BigBoxDuel)
    }

    pub fn family(self) -> Family {
        match self {
            Pool::Duel | Pool::Multi => Family::Base,
            Pool::BigBoxDuel | Pool::BigBoxMulti => Family::BigBox,
        }
    }

    pub fn word(self) -> &'static str {
        match self {
            Pool::Duel => "duel",
            Pool::Multi => "multi",
            Pool::BigBoxDuel => "big-box-duel",
            Pool::BigBoxMulti => "big-box-multi",
        }
    }

    pub fn from_word(s: &str) -> Option<Pool> {
        Pool::ALL.into_iter().find(|p| p.word() == s)
    }

    /// A new player's rating in this pool (its native scale).
    pub fn start(self) -> Rating {
        if self.duel() {
            let g = Glicko2Rating::new();
            Rating { rating: g.rating, deviation: g.deviation, volatility: g.volatility }
        } else {
            let w = WengLinRating::new();
            Rating { rating: w.rating, deviation: w.uncertainty, volatility: 0.0 }
        }
    }

    /// A rating of this pool on the shown scale: (rating, deviation).
    pub fn shown(self, r: &Rating) -> (f64, f64) {
        if self.duel() {
            (r.rating, r.deviation)
        } else {
            (r.rating * MULTI_SCALE, r.deviation * MULTI_SCALE)
        }
    }

    /// A rating given on the shown scale, in this pool's native one.
    pub fn native(self, rating: f64, deviation: f64) -> Rating {
        if self.duel() {
            Rating { rating, deviation, volatility: 0.06 }
        } else {
            Rating { rating: rating / MULTI_SCALE, deviation: deviation / MULTI_SCALE, volatility: 0.0 }
        }
    }
}

/// A rating in its pool's native scale (Glicko-2: rating, deviation,
/// volatility; Weng-Lin: μ, σ and no volatility).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rating {
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
}

/// The fixed public rating of a built-in bot level (shown scale), one for
/// every pool (calibrated on the base game), from arena runs (docs/ai.md, *Bot ratings*); `None` for the server's
/// programs, which rated games do not seat.
pub fn bot_rating(level: &BotLevel) -> Option<f64> {
    match level {
        BotLevel::Random => Some(BOT_RANDOM),
        BotLevel::Easy => Some(BOT_EASY),
        BotLevel::Normal => Some(BOT_NORMAL),
        BotLevel::Hard => Some(BOT_HARD),
        BotLevel::External(_) => None,
    }
}

/// Calibrated ratings (docs/ai.md, *Bot ratings*): Elo differences from
/// arena win rates against `greedy` (one draw added to each pairing),
/// anchored at `random` = 600, rounded to 5.
pub const BOT_RANDOM: f64 = 600.0;
pub const BOT_EASY: f64 = 1570.0;
pub const BOT_NORMAL: f64 = 1760.0;
pub const BOT_HARD: f64 = 1855.0;

/// The places of the seats (1 = first; equal scores share a place), from
/// their final scores; a seat that ran out of time (`forced_loser`) is last,
/// alone, and the others are placed by score among themselves.
pub fn rank_seats(scores: &[u32], forced_loser: Option<usize>) -> Vec<usize> {
    (0..scores.len())
        .map(|i| {
            if Some(i) == forced_loser {
                return scores.len();
            }
            1 + (0..scores.len()).filter(|&j| Some(j) != forced_loser && scores[j] > scores[i]).count()
        })
        .collect()
}

/// The new ratings of a game's players: `players[i]` is seat `i`'s rating
/// before the game and its place ([`rank_seats`]). Every seat gets a new
/// rating; the caller keeps those of the seats whose ratings move.
pub fn update(pool: Pool, players: &[(Rating, usize)]) -> Vec<Rating> {
    if pool.duel() {
        let g = |r: &Rating| Glicko2Rating { rating: r.rating, deviation: r.deviation, volatility: r.volatility };
        let config = Glicko2Config::new();
        players
            .iter()
            .enumerate()
            .map(|(i, (me, my_place))| {
                let results: Vec<(Glicko2Rating, Outcomes)> = players
                    .iter()
                    .enumerate()
                    .filter(|(j, _)| *j != i)
                    .map(|(_, (them, their_place))| {
                        let outcome = match my_place.cmp(their_place) {
                            std::cmp::Ordering::Less => Outcomes::WIN,
                            std::cmp::Ordering::Greater => Outcomes::LOSS,
                            std::cmp::Ordering::Equal => Outcomes::DRAW,
                        };
                        (g(them), outcome)
                    })
                    .collect();
                let new = glicko2_rating_period(&g(me), &results, &config);
                Rating { rating: new.rating, deviation: new.deviation, volatility: new.volatility }
            })
            .collect()
    } else {
        let teams: Vec<[WengLinRating; 1]> =
            players.iter().map(|(r, _)| [WengLinRating { rating: r.rating, uncertainty: r.deviation }]).collect();
        let ranked: Vec<(&[WengLinRating], MultiTeamOutcome)> =
            teams.iter().zip(players).map(|(t, (_, place))| (&t[..], MultiTeamOutcome::new(*place))).collect();
        weng_lin_multi_team(&ranked, &WengLinConfig::new())
            .into_iter()
            .zip(players)
            .map(|(team, (before, _))| match team.first() {
                Some(w) => Rating { rating: w.rating, deviation: w.uncertainty, volatility: 0.0 },
                None => *before,
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A rule set's family: the Big Box's if it plays an expansion; the
    /// pools' words read back, the base game's as they were stored before.
    #[test]
    fn pools_are_per_players_and_rule_family() {
        for p in carcassonne::Preset::ALL {
            let family = Family::of(&Rules::preset(p));
            assert_eq!(family == Family::BigBox, p == carcassonne::Preset::BigBox, "{p:?}");
        }
        let inns = Rules { inns_cathedrals: true, ..Rules::default() };
        assert_eq!(Family::of(&inns), Family::BigBox);
        assert_eq!(Pool::of_game(2, &Rules::default()), Pool::Duel);
        assert_eq!(Pool::of_game(4, &Rules::default()), Pool::Multi);
        assert_eq!(Pool::of_game(2, &Rules::preset(carcassonne::Preset::BigBox)), Pool::BigBoxDuel);
        assert_eq!(Pool::of_game(3, &Rules::preset(carcassonne::Preset::BigBox)), Pool::BigBoxMulti);
        let words: Vec<&str> = Pool::ALL.iter().map(|p| p.word()).collect();
        assert_eq!(words, ["duel", "multi", "big-box-duel", "big-box-multi"]);
        for p in Pool::ALL {
            assert_eq!(Pool::from_word(p.word()), Some(p));
            assert_eq!(serde_json::to_value(p).unwrap(), p.word());
            assert_eq!(p.start(), if p.duel() { Pool::Duel.start() } else { Pool::Multi.start() });
        }
        assert_eq!(Pool::from_word("big-box"), None);
        assert_eq!(Family::from_word("big-box"), Some(Family::BigBox));
        assert_eq!(Family::BigBox.rules(), Rules::preset(carcassonne::Preset::BigBox));
    }

    #[test]
    fn places_share_ties_and_a_timeout_is_last() {
        assert_eq!(rank_seats(&[10, 20, 20, 5], None), vec![3, 1, 1, 4]);
        assert_eq!(rank_seats(&[30, 20], Some(0)), vec![2, 1]);
        assert_eq!(rank_seats(&[30, 20, 25], Some(1)), vec![1, 3, 2]);
    }

    /// A shared place is a draw between the two, and a draw with a much
    /// weaker player costs in Weng-Lin as in Glicko-2 (the model expected a
    /// win): a new player (1500) tied first with the random bot (600) and
    /// ahead of another falls to about 1450; tied with the hard bot (1855),
    /// rises; first alone rises most.
    #[test]
    fn a_shared_first_is_a_draw_between_the_two() {
        let me = Pool::Multi.start();
        let bot = |r: f64| Pool::Multi.native(r, BOT_DEVIATION);
        let after = |places: [usize; 3], partner: f64| {
            Pool::Multi
                .shown(
                    &update(Pool::Multi, &[(bot(BOT_RANDOM), places[0]), (me, places[1]), (bot(partner), places[2])])
                        [1],
                )
                .0
        };
        let tied_with_random = after([3, 1, 1], BOT_RANDOM);
        assert!((tied_with_random - 1449.7).abs() < 0.1, "{tied_with_random}");
        let tied_with_hard = after([3, 1, 1], BOT_HARD);
        let alone = after([3, 1, 2], BOT_HARD);
        assert!(1500.0 < tied_with_hard && tied_with_hard < alone, "{tied_with_hard} {alone}");
        // All three tied: two draws with weaker players.
        assert!(after([1, 1, 1], BOT_RANDOM) < 1500.0);
    }
}

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
//! Players with equal final scores share their place (the rules' shared
//! win): a draw in Glicko-2, an equal rank in Weng-Lin. A player who ran
//! out of time ([`rank_seats`] `forced_loser`) takes the last place alone.

use serde::{Deserialize, Serialize};
use skillratings::glicko2::{glicko2_rating_period, Glicko2Config, Glicko2Rating};
use skillratings::weng_lin::{weng_lin_multi_team, WengLinConfig, WengLinRating};
use skillratings::{MultiTeamOutcome, Outcomes};

use crate::bots::BotLevel;

/// The Weng-Lin scale shown: μ and σ times this (μ = 25 shows as 1500).
pub const MULTI_SCALE: f64 = 60.0;

/// A rating is provisional until its holder has played this many rated
/// games in its pool.
pub const PROVISIONAL_GAMES: i64 = 5;

/// The deviation the bots' fixed ratings are given (on the shown scale).
pub const BOT_DEVIATION: f64 = 60.0;

/// The two rating pools: a game of two players, or of three to six.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Pool {
    Duel,
    Multi,
}

impl Pool {
    pub fn of_players(n: usize) -> Pool {
        if n == 2 {
            Pool::Duel
        } else {
            Pool::Multi
        }
    }

    pub fn word(self) -> &'static str {
        match self {
            Pool::Duel => "duel",
            Pool::Multi => "multi",
        }
    }

    pub fn from_word(s: &str) -> Option<Pool> {
        match s {
            "duel" => Some(Pool::Duel),
            "multi" => Some(Pool::Multi),
            _ => None,
        }
    }

    /// A new player's rating in this pool (its native scale).
    pub fn start(self) -> Rating {
        match self {
            Pool::Duel => {
                let g = Glicko2Rating::new();
                Rating { rating: g.rating, deviation: g.deviation, volatility: g.volatility }
            }
            Pool::Multi => {
                let w = WengLinRating::new();
                Rating { rating: w.rating, deviation: w.uncertainty, volatility: 0.0 }
            }
        }
    }

    /// A rating of this pool on the shown scale: (rating, deviation).
    pub fn shown(self, r: &Rating) -> (f64, f64) {
        match self {
            Pool::Duel => (r.rating, r.deviation),
            Pool::Multi => (r.rating * MULTI_SCALE, r.deviation * MULTI_SCALE),
        }
    }

    /// A rating given on the shown scale, in this pool's native one.
    pub fn native(self, rating: f64, deviation: f64) -> Rating {
        match self {
            Pool::Duel => Rating { rating, deviation, volatility: 0.06 },
            Pool::Multi => Rating { rating: rating / MULTI_SCALE, deviation: deviation / MULTI_SCALE, volatility: 0.0 },
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

/// The fixed public rating of a built-in bot level (shown scale), calibrated
/// from arena runs (docs/ai.md, *Bot ratings*); `None` for the server's
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
pub const BOT_EASY: f64 = 1430.0;
pub const BOT_NORMAL: f64 = 1640.0;
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
    match pool {
        Pool::Duel => {
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
        }
        Pool::Multi => {
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
}

#[cfg(test)]
mod tests {
    use super::*;

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

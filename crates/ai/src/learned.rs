//! A valuation learned from the search's own playouts.
//!
//! It predicts, for each player, what the rest of a game played by the
//! search's playout policy ([`MctsConfig`]'s) will add to their score, as a
//! linear function of a few features of the position
//! (`eval::features`: the open roads, cities, cloisters and farms
//! the player holds, their followers in supply), each feature weighed by a
//! quadratic in the share of the bag left. A search whose playouts stop
//! after a few moves (`depth=k`) can value the position with it instead of
//! the hand-set [`crate::Valuation`] (`learned=1`).
//!
//! The weights in `learned_weights.rs` are fitted by least squares on
//! playouts of the standard rules for two players, and are reproduced by
//!
//! ```sh
//! cargo run --release -p carcassonne-ai --example train_eval -- --games 4000 --seed 1 > crates/ai/src/learned_weights.rs
//! ```
//!
//! (docs/ai.md, "A learned valuation", tells what it is worth).

use carcassonne::{seeded_rng, Game, Rules, Setup, MAX_PLAYERS};

use crate::eval::{features, Scratch, Values, FEATURES, FULL_BAG};
use crate::mcts::{MctsConfig, Playout};
use crate::seed::derive;

/// Weights of the model: per feature, its weight, times the bag's share
/// left, times its square; then the share and its square alone.
pub const TERMS: usize = 3 * FEATURES + 2;

/// The learned valuation: linear weights over [`TERMS`] terms.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Learned {
    pub weights: [f64; TERMS],
}

impl Default for Learned {
    /// The committed weights (see the module docs).
    fn default() -> Self {
        Learned { weights: crate::learned_weights::WEIGHTS }
    }
}

/// The terms of one player's features at the bag's share left `phase`.
fn terms(x: &[f64; FEATURES], phase: f64) -> [f64; TERMS] {
    let mut t = [0.0; TERMS];
    for (i, &v) in x.iter().enumerate() {
        t[3 * i] = v;
        t[3 * i + 1] = v * phase;
        t[3 * i + 2] = v * phase * phase;
    }
    t[3 * FEATURES] = phase;
    t[3 * FEATURES + 1] = phase * phase;
    t
}

fn phase(game: &Game) -> f64 {
    (game.tiles_left() as f64 / FULL_BAG).min(1.0)
}

impl Learned {
    /// Each seat's expected final score: its score plus the predicted gain
    /// (a finished game is worth its scores).
    pub fn values(&self, game: &Game, scratch: &mut Scratch, out: &mut [f64; MAX_PLAYERS]) {
        *out = [0.0; MAX_PLAYERS];
        for (o, &s) in out.iter_mut().zip(game.scores()) {
            *o = s as f64;
        }
        if game.is_over() {
            return;
        }
        let mut x = [[0.0; FEATURES]; MAX_PLAYERS];
        features(game, scratch, &mut x);
        let phase = phase(game);
        for (o, x) in out.iter_mut().zip(&x).take(game.num_players()) {
            *o += self.gain(x, phase);
        }
    }

    fn gain(&self, x: &[f64; FEATURES], phase: f64) -> f64 {
        terms(x, phase).iter().zip(&self.weights).map(|(t, w)| t * w).sum()
    }
}

impl Values for Learned {
    fn values(&self, game: &Game, scratch: &mut Scratch, out: &mut [f64; MAX_PLAYERS]) {
        Learned::values(self, game, scratch, out);
    }
}

/// What [`train`] measured: the mean squared error of the predicted gain
/// on held-out games, for the fitted model, for the hand-set valuation
/// (its worth minus the score) and for predicting no gain at all.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Fit {
    pub rows: usize,
    pub mse: f64,
    pub mse_hand: f64,
    pub mse_zero: f64,
}

/// One player at one position of a training game: the terms and the score
/// then.
struct Row {
    terms: [f64; TERMS],
    player: usize,
    score: f64,
    hand: f64,
}

/// Plays `games` games of two players under the standard rules with the
/// playouts of `config`, each from its own deal (seeded by `seed` and the
/// game's number), and fits the weights by least squares on every position
/// of the first 90 % of them (both players); the rest are held out to
/// measure the fit. The same arguments give the same weights.
#[allow(clippy::needless_range_loop)] // matrix indices
pub fn train(games: usize, seed: u64, config: &MctsConfig) -> (Learned, Fit) {
    let held_out = games / 10;
    let mut xtx = vec![[0.0f64; TERMS]; TERMS];
    let mut xty = [0.0f64; TERMS];
    let mut test = Vec::new();
    let mut rows = 0;
    let mut playout = Playout::new(config);
    let mut scratch = Scratch::default();
    let mut game_rows = Vec::new();
    for g in 0..games {
        let s = derive(seed, &[g as u64]);
        let Ok(mut game) = Game::new(Setup::standard(Rules::default(), 2, s)) else { continue };
        game.set_event_log(false);
        let mut rng = seeded_rng(derive(s, &[1]));
        game_rows.clear();
        while !game.is_over() {
            let mut x = [[0.0; FEATURES]; MAX_PLAYERS];
            features(&game, &mut scratch, &mut x);
            let mut hand = [0.0; MAX_PLAYERS];
            config.valuation.values(&game, &mut scratch, &mut hand);
            let phase = phase(&game);
            for (p, x) in x.iter().enumerate().take(2) {
                let score = game.scores()[p] as f64;
                game_rows.push(Row { terms: terms(x, phase), player: p, score, hand: hand[p] - score });
            }
            let Some(mv) = playout.choose(&game, &mut rng) else { break };
            game.play_unchecked(&mv);
        }
        let finals: Vec<f64> = game.scores().iter().map(|&s| s as f64).collect();
        for row in game_rows.drain(..) {
            let y = finals[row.player] - row.score;
            if g >= games - held_out {
                test.push((row.terms, row.hand, y));
                continue;
            }
            rows += 1;
            for i in 0..TERMS {
                xty[i] += row.terms[i] * y;
                for j in 0..=i {
                    xtx[i][j] += row.terms[i] * row.terms[j];
                }
            }
        }
    }
    for i in 0..TERMS {
        for j in 0..i {
            xtx[j][i] = xtx[i][j];
        }
    }
    let weights = solve(xtx, xty);
    let model = Learned { weights };
    let n = test.len().max(1) as f64;
    let mse = |f: &dyn Fn(&[f64; TERMS], f64) -> f64| {
        test.iter().map(|(t, hand, y)| (f(t, *hand) - y).powi(2)).sum::<f64>() / n
    };
    let fit = Fit {
        rows,
        mse: mse(&|t, _| t.iter().zip(&weights).map(|(a, b)| a * b).sum()),
        mse_hand: mse(&|_, hand| hand),
        mse_zero: mse(&|_, _| 0.0),
    };
    (model, fit)
}

/// Solves `(a + ridge) w = b` by Gaussian elimination with partial
/// pivoting; a tiny ridge keeps terms that never occur (all zero) at 0.
#[allow(clippy::needless_range_loop)] // matrix indices
fn solve(mut a: Vec<[f64; TERMS]>, mut b: [f64; TERMS]) -> [f64; TERMS] {
    let trace: f64 = (0..TERMS).map(|i| a[i][i]).sum();
    let ridge = 1e-9 * trace.max(1.0);
    for (i, row) in a.iter_mut().enumerate() {
        row[i] += ridge;
    }
    for col in 0..TERMS {
        let pivot = (col..TERMS).max_by(|&x, &y| a[x][col].abs().total_cmp(&a[y][col].abs())).unwrap_or(col);
        a.swap(col, pivot);
        b.swap(col, pivot);
        let d = a[col][col];
        if d.abs() < 1e-300 {
            continue;
        }
        for r in col + 1..TERMS {
            let f = a[r][col] / d;
            if f != 0.0 {
                for k in col..TERMS {
                    a[r][k] -= f * a[col][k];
                }
                b[r] -= f * b[col];
            }
        }
    }
    let mut w = [0.0; TERMS];
    for col in (0..TERMS).rev() {
        let d = a[col][col];
        if d.abs() < 1e-300 {
            continue;
        }
        let s: f64 = (col + 1..TERMS).map(|k| a[col][k] * w[k]).sum();
        w[col] = (b[col] - s) / d;
    }
    w
}

/// The weights as the Rust source of `learned_weights.rs`.
pub fn weights_source(model: &Learned, command: &str, fit: &Fit) -> String {
    let mut s = String::new();
    s.push_str("//! The learned valuation's weights (`crate::learned`), written by\n");
    s.push_str(&format!("//! `{command}`.\n"));
    s.push_str(&format!(
        "//! Fitted on {} rows; held-out mean squared error of the predicted gain: {:.2} (hand-set valuation: {:.2}, no gain: {:.2}).\n\n",
        fit.rows, fit.mse, fit.mse_hand, fit.mse_zero
    ));
    s.push_str(&format!("pub(crate) const WEIGHTS: [f64; {TERMS}] = [\n"));
    for w in model.weights {
        s.push_str(&format!("    {w:e},\n"));
    }
    s.push_str("];\n");
    s
}

/// The gain each player's features predict, for tests.
#[cfg(test)]
pub(crate) fn predicted_gain(model: &Learned, game: &Game, p: carcassonne::PlayerId) -> f64 {
    let mut x = [[0.0; FEATURES]; MAX_PLAYERS];
    features(game, &mut Scratch::default(), &mut x);
    model.gain(&x[p.index()], phase(game))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Trained on a few games, the model predicts held-out playouts better
    /// than predicting no gain; the same arguments give the same weights.
    #[test]
    fn training_fits_and_is_reproducible() {
        let config = MctsConfig::default();
        let (a, fit) = train(60, 7, &config);
        assert!(fit.rows > 4000, "{fit:?}");
        assert!(fit.mse < 0.8 * fit.mse_zero, "{fit:?}");
        let (b, _) = train(60, 7, &config);
        assert_eq!(a, b);
        // Every term's weight is a number.
        assert!(a.weights.iter().all(|w| w.is_finite()));
    }

    /// The committed weights predict more the more a player holds.
    #[test]
    #[allow(clippy::needless_range_loop)] // p is a seat
    fn committed_weights_value_what_is_held() {
        let model = Learned::default();
        let mut g = Game::new(Setup::standard(Rules::default(), 2, 3)).unwrap();
        let mut rng = seeded_rng(3);
        let mut playout = Playout::new(&MctsConfig::default());
        while g.moves_played() < 30 {
            let mv = playout.choose(&g, &mut rng).unwrap();
            g.play_unchecked(&mv);
        }
        let mut v = [0.0; MAX_PLAYERS];
        model.values(&g, &mut Scratch::default(), &mut v);
        for p in 0..2 {
            let gain = predicted_gain(&model, &g, carcassonne::PlayerId(p as u8));
            assert!(gain.is_finite() && gain > 0.0, "{gain}");
            assert_eq!(v[p], g.scores()[p] as f64 + gain);
        }
    }
}

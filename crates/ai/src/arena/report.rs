//! A run's summary: each bot's wins with their Wilson interval, its margin
//! with its interval over deals, its thinking time, the forfeits; as text
//! or JSON. Runs of the same bots and rules on different seeds (a long
//! measurement played in parts) are pooled into the summary of all their
//! games, read back from their JSON.

use std::fmt::{self, Write as _};
use std::time::Duration;

use serde_json::{json, Value};

use super::{ArenaOptions, GameResult};
use crate::stats::{mean_ci, pool_means, wilson, Mean, Proportion, Z95};

/// One bot's results.
#[derive(Clone, Debug, PartialEq)]
pub struct BotReport {
    pub name: String,
    pub games: usize,
    pub wins: usize,
    pub ties: usize,
    pub losses: usize,
    /// Win rate (a tie counts as a share) with its Wilson interval.
    pub win: Proportion,
    /// Score minus the best other score; the interval is over deals.
    pub margin: Mean,
    pub mean_score: f64,
    pub moves: u64,
    pub mean_move: Duration,
    pub max_move: Duration,
    /// Games it lost by forfeit (a program's late, illegal or missing answer).
    pub forfeits: usize,
}

/// A game lost by forfeit, as the report lists it.
#[derive(Clone, Debug, PartialEq)]
pub struct ForfeitNote {
    /// The run's seed and the game's index in it.
    pub seed: u64,
    pub game: usize,
    pub bot: String,
    /// The move it was asked for (1-based).
    pub turn: u16,
    /// The failure's stable code ([`crate::external::BotFailure::code`]) and what it says.
    pub reason: String,
    pub message: String,
}

/// The summary of a run, or of several pooled.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    pub rules: String,
    /// The run's seed; the runs' seeds, for runs pooled.
    pub seeds: Vec<u64>,
    pub games: usize,
    pub deals: usize,
    pub threads: usize,
    pub elapsed: Duration,
    pub bots: Vec<BotReport>,
    pub forfeits: Vec<ForfeitNote>,
}

/// Why runs could not be pooled.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PoolError {
    /// No runs given.
    Empty,
    /// A report that is not an arena run's JSON (`--json`): the field at fault.
    NotAReport(String),
    /// Runs of other bots, rules or threads than the first run's.
    Different { field: &'static str, first: String, other: String },
    /// Two runs with the same seed: the same games, counted twice.
    SameSeed(u64),
}

impl fmt::Display for PoolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PoolError::Empty => write!(f, "no runs to pool"),
            PoolError::NotAReport(field) => write!(f, "not an arena run's JSON report (--json): {field}"),
            PoolError::Different { field, first, other } => {
                write!(f, "runs with different {field} do not pool: {first} and {other}")
            }
            PoolError::SameSeed(seed) => write!(f, "two runs with seed {seed}: the same games twice"),
        }
    }
}

impl std::error::Error for PoolError {}

impl Report {
    /// Sums up finished games (all of them, or a part of a run).
    pub fn new(options: &ArenaOptions, results: &[GameResult], elapsed: Duration) -> Report {
        let n = options.bots.len();
        let mut deals: Vec<usize> = results.iter().map(|g| g.deal).collect();
        deals.sort_unstable();
        deals.dedup();
        let bots = (0..n)
            .map(|b| {
                let share: f64 = results.iter().map(|g| g.win_share(b)).sum();
                let wins = results.iter().filter(|g| g.win_share(b) == 1.0).count();
                let ties =
                    results.iter().filter(|g| (0.0..1.0).contains(&g.win_share(b)) && g.win_share(b) > 0.0).count();
                let per_deal: Vec<f64> = deals
                    .iter()
                    .map(|&d| {
                        let games: Vec<f64> = results.iter().filter(|g| g.deal == d).map(|g| g.margin(b)).collect();
                        games.iter().sum::<f64>() / games.len() as f64
                    })
                    .collect();
                let moves: u64 = results.iter().map(|g| g.moves[b].0 as u64).sum();
                let time: Duration = results.iter().map(|g| g.moves[b].1).sum();
                BotReport {
                    name: options.bots[b].to_string(),
                    games: results.len(),
                    wins,
                    ties,
                    losses: results.len() - wins - ties,
                    win: wilson(share, results.len() as f64, Z95),
                    margin: mean_ci(&per_deal),
                    mean_score: results.iter().map(|g| g.scores[g.seat_of(b)] as f64).sum::<f64>()
                        / results.len().max(1) as f64,
                    moves,
                    mean_move: if moves == 0 { Duration::ZERO } else { time / moves as u32 },
                    max_move: results.iter().map(|g| g.moves[b].2).max().unwrap_or_default(),
                    forfeits: results.iter().filter(|g| g.forfeit.as_ref().is_some_and(|f| f.bot == b)).count(),
                }
            })
            .collect();
        Report {
            rules: options.rules.to_string(),
            seeds: vec![options.seed],
            games: results.len(),
            deals: deals.len(),
            threads: options.threads,
            elapsed,
            bots,
            forfeits: results
                .iter()
                .filter_map(|g| {
                    g.forfeit.as_ref().map(|f| ForfeitNote {
                        seed: options.seed,
                        game: g.index,
                        bot: options.bots[f.bot].to_string(),
                        turn: f.turn,
                        reason: f.failure.code().to_string(),
                        message: f.failure.to_string(),
                    })
                })
                .collect(),
        }
    }

    /// The summary of every game of `runs` (the same bots in the same
    /// order, rules and threads; each its own seed): the report one run
    /// of all their deals would give — the same wins and interval, and the
    /// margin's mean and interval over all the deals.
    ///
    /// # Errors
    /// No runs, runs that differ, or two with one seed.
    pub fn pool(runs: &[Report]) -> Result<Report, PoolError> {
        let first = runs.first().ok_or(PoolError::Empty)?;
        let names = |r: &Report| r.bots.iter().map(|b| b.name.as_str()).collect::<Vec<_>>().join(",");
        let mut seeds: Vec<u64> = Vec::new();
        for run in runs {
            for (field, a, b) in [
                ("bots", names(first), names(run)),
                ("rules", first.rules.clone(), run.rules.clone()),
                ("threads", first.threads.to_string(), run.threads.to_string()),
            ] {
                if a != b {
                    return Err(PoolError::Different { field, first: a, other: b });
                }
            }
            for &seed in &run.seeds {
                if seeds.contains(&seed) {
                    return Err(PoolError::SameSeed(seed));
                }
                seeds.push(seed);
            }
        }
        let bots = (0..first.bots.len())
            .map(|b| {
                let of = |f: fn(&BotReport) -> f64| runs.iter().map(|r| f(&r.bots[b])).sum::<f64>();
                let games = runs.iter().map(|r| r.bots[b].games).sum::<usize>();
                let moves = runs.iter().map(|r| r.bots[b].moves).sum::<u64>();
                let time = of(|x| x.mean_move.as_secs_f64() * x.moves as f64);
                BotReport {
                    name: first.bots[b].name.clone(),
                    games,
                    wins: runs.iter().map(|r| r.bots[b].wins).sum(),
                    ties: runs.iter().map(|r| r.bots[b].ties).sum(),
                    losses: runs.iter().map(|r| r.bots[b].losses).sum(),
                    win: wilson(of(|x| x.win.rate * x.games as f64), games as f64, Z95),
                    margin: pool_means(&runs.iter().map(|r| r.bots[b].margin).collect::<Vec<_>>()),
                    mean_score: of(|x| x.mean_score * x.games as f64) / games.max(1) as f64,
                    moves,
                    mean_move: Duration::try_from_secs_f64(if moves == 0 { 0.0 } else { time / moves as f64 })
                        .unwrap_or(Duration::MAX),
                    max_move: runs.iter().map(|r| r.bots[b].max_move).max().unwrap_or_default(),
                    forfeits: runs.iter().map(|r| r.bots[b].forfeits).sum(),
                }
            })
            .collect();
        Ok(Report {
            rules: first.rules.clone(),
            seeds,
            games: runs.iter().map(|r| r.games).sum(),
            deals: runs.iter().map(|r| r.deals).sum(),
            threads: first.threads,
            elapsed: runs.iter().fold(Duration::ZERO, |sum, r| sum.saturating_add(r.elapsed)),
            bots,
            forfeits: runs.iter().flat_map(|r| r.forfeits.iter().cloned()).collect(),
        })
    }

    pub fn to_json(&self) -> Value {
        let ms = |d: Duration| d.as_secs_f64() * 1000.0;
        let mut report = json!({
            "rules": self.rules,
            "games": self.games,
            "deals": self.deals,
            "threads": self.threads,
            "elapsed_s": self.elapsed.as_secs_f64(),
            "bots": self.bots.iter().map(|b| json!({
                "bot": b.name,
                "games": b.games,
                "wins": b.wins,
                "ties": b.ties,
                "losses": b.losses,
                "win_rate": b.win.rate,
                "win_rate_95": [b.win.low, b.win.high],
                "margin_mean": b.margin.mean,
                "margin_95": [b.margin.low, b.margin.high],
                "margin_sd": b.margin.sd,
                "mean_score": b.mean_score,
                "moves": b.moves,
                "move_ms_mean": ms(b.mean_move),
                "move_ms_max": ms(b.max_move),
                "forfeits": b.forfeits,
            })).collect::<Vec<_>>(),
            "forfeits": self.forfeits.iter().map(|f| json!({
                "seed": f.seed, "game": f.game, "bot": f.bot, "turn": f.turn, "reason": f.reason, "message": f.message,
            })).collect::<Vec<_>>(),
        });
        // A run's seed, or the pooled runs'.
        match self.seeds.as_slice() {
            [seed] => report["seed"] = json!(seed),
            seeds => report["seeds"] = json!(seeds),
        }
        report
    }

    /// The report as `carcassonne arena` prints it: the table, or with
    /// `json` its JSON, pretty-printed.
    pub fn render(&self, json: bool) -> String {
        if json {
            format!("{:#}\n", self.to_json())
        } else {
            self.to_string()
        }
    }

    /// A report read back from its JSON ([`Report::to_json`]), for pooling.
    ///
    /// # Errors
    /// The first field missing or of the wrong kind.
    pub fn from_json(v: &Value) -> Result<Report, PoolError> {
        let bad = |field: &str| PoolError::NotAReport(field.to_string());
        let float = |v: &Value, field: &str| v[field].as_f64().ok_or_else(|| bad(field));
        let count = |v: &Value, field: &str| v[field].as_u64().ok_or_else(|| bad(field));
        let text = |v: &Value, field: &str| v[field].as_str().map(str::to_string).ok_or_else(|| bad(field));
        // An interval's ends; an unbounded one (a margin over one deal) is
        // written as nulls, JSON having no infinity.
        let end = |x: &Value, unbounded: f64, field: &str| match x {
            Value::Null => Ok(unbounded),
            x => x.as_f64().ok_or_else(|| bad(field)),
        };
        let pair = |v: &Value, field: &str| match v[field].as_array().map(Vec::as_slice) {
            Some([a, b]) => Ok((end(a, f64::NEG_INFINITY, field)?, end(b, f64::INFINITY, field)?)),
            _ => Err(bad(field)),
        };
        let ms = |v: &Value, field: &str| {
            float(v, field).and_then(|x| Duration::try_from_secs_f64(x / 1000.0).map_err(|_| bad(field)))
        };
        let deals = count(v, "deals")? as usize;
        let seeds = match v.get("seeds") {
            Some(list) => {
                list.as_array().and_then(|l| l.iter().map(Value::as_u64).collect()).ok_or_else(|| bad("seeds"))?
            }
            None => vec![count(v, "seed")?],
        };
        let bots = v["bots"]
            .as_array()
            .ok_or_else(|| bad("bots"))?
            .iter()
            .map(|b| {
                let games = count(b, "games")? as usize;
                let (low, high) = pair(b, "win_rate_95")?;
                let (margin_low, margin_high) = pair(b, "margin_95")?;
                Ok(BotReport {
                    name: text(b, "bot")?,
                    games,
                    wins: count(b, "wins")? as usize,
                    ties: count(b, "ties")? as usize,
                    losses: count(b, "losses")? as usize,
                    win: Proportion { rate: float(b, "win_rate")?, low, high, n: games as f64 },
                    margin: Mean {
                        mean: float(b, "margin_mean")?,
                        low: margin_low,
                        high: margin_high,
                        sd: float(b, "margin_sd")?,
                        n: deals,
                    },
                    mean_score: float(b, "mean_score")?,
                    moves: count(b, "moves")?,
                    mean_move: ms(b, "move_ms_mean")?,
                    max_move: ms(b, "move_ms_max")?,
                    forfeits: count(b, "forfeits")? as usize,
                })
            })
            .collect::<Result<Vec<_>, PoolError>>()?;
        let forfeits = v["forfeits"]
            .as_array()
            .ok_or_else(|| bad("forfeits"))?
            .iter()
            .map(|f| {
                Ok(ForfeitNote {
                    seed: count(f, "seed")?,
                    game: count(f, "game")? as usize,
                    bot: text(f, "bot")?,
                    turn: u16::try_from(count(f, "turn")?).map_err(|_| bad("turn"))?,
                    reason: text(f, "reason")?,
                    message: text(f, "message")?,
                })
            })
            .collect::<Result<Vec<_>, PoolError>>()?;
        Ok(Report {
            rules: text(v, "rules")?,
            seeds,
            games: count(v, "games")? as usize,
            deals,
            threads: count(v, "threads")? as usize,
            elapsed: Duration::try_from_secs_f64(float(v, "elapsed_s")?).map_err(|_| bad("elapsed_s"))?,
            bots,
            forfeits,
        })
    }
}

/// [`Report::pool`] of the JSON reports in `paths` (`arena --json`'s output,
/// one run a file).
///
/// # Errors
/// A file that cannot be read or is not a report (named), or runs that do not pool.
pub fn pool_files(paths: &[std::path::PathBuf]) -> Result<Report, Box<dyn std::error::Error + Send + Sync>> {
    let runs = paths
        .iter()
        .map(|path| {
            let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
            let json: Value = serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
            Report::from_json(&json).map_err(|e| format!("{}: {e}", path.display()).into())
        })
        .collect::<Result<Vec<_>, Box<dyn std::error::Error + Send + Sync>>>()?;
    Ok(Report::pool(&runs)?)
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let seatings = self.games.checked_div(self.deals).unwrap_or(0);
        let seeds = match self.seeds.as_slice() {
            [seed] => format!("seed {seed}"),
            seeds => format!("{} runs (seeds {})", seeds.len(), seed_list(seeds)),
        };
        writeln!(
            f,
            "{} games ({} deals x {} seatings), rules {}, {seeds}, {:.1} s",
            self.games,
            self.deals,
            seatings,
            self.rules,
            self.elapsed.as_secs_f64()
        )?;
        let width = self.bots.iter().map(|b| b.name.len()).max().unwrap_or(3).max(3);
        writeln!(
            f,
            "{:width$}  {:>5}  {:>17}  {:>7}  {:>20}  {:>10}  {:>10}  {:>8}",
            "bot", "games", "win % [95% CI]", "w/t/l", "margin [95% CI]", "move mean", "move max", "forfeits"
        )?;
        for b in &self.bots {
            let mut line = String::new();
            write!(
                line,
                "{:width$}  {:>5}  {:>5.1} [{:>4.1}, {:>5.1}]  {:>7}  {:>+6.1} [{:>+5.1}, {:>+5.1}]  {:>10}  {:>10}  {:>8}",
                b.name,
                b.games,
                100.0 * b.win.rate,
                100.0 * b.win.low,
                100.0 * b.win.high,
                format!("{}/{}/{}", b.wins, b.ties, b.losses),
                b.margin.mean,
                b.margin.low,
                b.margin.high,
                duration(b.mean_move),
                duration(b.max_move),
                b.forfeits,
            )?;
            writeln!(f, "{line}")?;
        }
        for x in &self.forfeits {
            let seed = if self.seeds.len() > 1 { format!("seed {}, ", x.seed) } else { String::new() };
            writeln!(f, "forfeit: {seed}game {}, move {}: {} {}", x.game, x.turn, x.bot, x.message)?;
        }
        Ok(())
    }
}

/// Seeds as ranges: `600–605, 610`.
fn seed_list(seeds: &[u64]) -> String {
    let mut sorted = seeds.to_vec();
    sorted.sort_unstable();
    let mut parts: Vec<String> = Vec::new();
    let mut i = 0;
    while i < sorted.len() {
        let mut j = i;
        while j + 1 < sorted.len() && sorted[j + 1] == sorted[j] + 1 {
            j += 1;
        }
        parts.push(if j > i { format!("{}–{}", sorted[i], sorted[j]) } else { sorted[i].to_string() });
        i = j + 1;
    }
    parts.join(", ")
}

fn duration(d: Duration) -> String {
    let s = d.as_secs_f64();
    if s >= 1.0 {
        format!("{s:.2} s")
    } else if s >= 1e-3 {
        format!("{:.1} ms", s * 1e3)
    } else {
        format!("{:.0} us", s * 1e6)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::run;
    use crate::bot::BotSpec;
    use crate::external::Limits;
    use carcassonne::Rules;

    fn options(seed: u64) -> ArenaOptions {
        ArenaOptions {
            bots: vec![BotSpec::Random.into(), BotSpec::Greedy.into()],
            games: 6,
            rules: Rules::default(),
            seed,
            threads: 1,
            limits: Limits::default(),
        }
    }

    /// A run's report and its games.
    fn played(seed: u64) -> (Report, Vec<GameResult>) {
        let mut games = Vec::new();
        let report = run(&options(seed), |g| games.push(g.clone())).unwrap();
        (report, games)
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9 * (1.0 + a.abs())
    }

    #[test]
    fn pooled_runs_report_what_one_run_of_all_their_games_would() {
        let ((a, mut games), (b, more)) = (played(3), played(4));
        // The second run's deals after the first's, as in one run.
        games.extend(more.into_iter().map(|g| GameResult { deal: g.deal + a.deals, ..g }));
        let whole = Report::new(&options(3), &games, a.elapsed + b.elapsed);
        let pooled = Report::pool(&[a.clone(), b.clone()]).unwrap();
        assert_eq!((pooled.games, pooled.deals, pooled.seeds.clone()), (12, 6, vec![3, 4]));
        for (p, w) in pooled.bots.iter().zip(&whole.bots) {
            assert_eq!((p.games, p.wins, p.ties, p.losses, p.moves), (w.games, w.wins, w.ties, w.losses, w.moves));
            for (x, y) in [
                (p.win.rate, w.win.rate),
                (p.win.low, w.win.low),
                (p.win.high, w.win.high),
                (p.margin.mean, w.margin.mean),
                (p.margin.sd, w.margin.sd),
                (p.margin.low, w.margin.low),
                (p.margin.high, w.margin.high),
                (p.mean_score, w.mean_score),
            ] {
                assert!(close(x, y), "{p:?} against {w:?}");
            }
        }
        // Read back from their JSON, as `arena --pool` reads them.
        let read = |r: &Report| Report::from_json(&r.to_json()).unwrap();
        let again = Report::pool(&[read(&a), read(&b)]).unwrap();
        assert_eq!(again.to_string(), pooled.to_string());
        assert_eq!(read(&pooled).seeds, vec![3, 4]);
        // Forfeits are listed with their run's seed.
        let note = |seed| ForfeitNote {
            seed,
            game: 1,
            bot: "cmd:./bot".into(),
            turn: 9,
            reason: "late".into(),
            message: "gave no answer within 1 s".into(),
        };
        let (mut a, mut b) = (a, b);
        a.forfeits.push(note(3));
        b.forfeits.push(note(4));
        let pooled = Report::pool(&[read(&a), read(&b)]).unwrap();
        assert_eq!(pooled.forfeits, vec![note(3), note(4)]);
        assert!(pooled.to_string().contains("forfeit: seed 4, game 1, move 9: cmd:./bot gave no answer"), "{pooled}");
        assert!(pooled.to_string().contains("2 runs (seeds 3–4)"), "{pooled}");
    }

    #[test]
    fn runs_that_differ_or_repeat_a_seed_do_not_pool() {
        let (a, _) = played(3);
        assert_eq!(Report::pool(&[]), Err(PoolError::Empty));
        assert_eq!(Report::pool(&[a.clone(), a.clone()]), Err(PoolError::SameSeed(3)));
        let mut other = a.clone();
        other.seeds = vec![4];
        other.rules = "first-edition".into();
        assert!(matches!(Report::pool(&[a.clone(), other]), Err(PoolError::Different { field: "rules", .. })));
        let mut json = a.to_json();
        json["bots"][0].as_object_mut().unwrap().remove("margin_sd");
        assert_eq!(Report::from_json(&json), Err(PoolError::NotAReport("margin_sd".into())));
        assert_eq!(seed_list(&[605, 600, 601, 602, 610]), "600–602, 605, 610");
    }
}

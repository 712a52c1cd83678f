//! How well a ranking of the root's moves foresees a long search: where
//! the network's margin after each move, and the hand-set valuation's,
//! place the move the search picks, and what share of its visits goes to
//! the moves they rank first. A prior that foresaw the search well would
//! let a shorter one spend its time on fewer moves (docs/ai.md, "How well
//! the rankings foresee a long search").
//!
//! ```sh
//! cargo run --release -p carcassonne-ai --example root_ranking -- \
//!     --games 100 --per-game 7 --expert mcts:30000it --seed 1 --threads 2
//! ```
//!
//! Positions come from games of `--bot` (`easy`) against itself, two
//! players, standard rules; about `--per-game` of each game's moves are
//! searched by `--expert`. Iteration budgets make the run the same
//! whatever `--threads`.

use carcassonne::{Game, Move, PlayerId, Rules, Setup, View};
use carcassonne_ai::net::Net;
use carcassonne_ai::parallel::map_jobs;
use carcassonne_ai::{Bot, BotSpec, MctsBot, MctsConfig, Scratch, Valuation, Values};
use clap::Parser;
use indicatif::{ProgressBar, ProgressStyle};

/// The root's rankings against a long search.
#[derive(Parser)]
struct Args {
    /// Games to take positions from.
    #[arg(long, default_value_t = 100)]
    games: usize,
    /// Positions searched, about, per game.
    #[arg(long, default_value_t = 7)]
    per_game: u64,
    /// The search whose choices the rankings should foresee (an `mcts` spec).
    #[arg(long, default_value = "mcts:30000it")]
    expert: String,
    /// The bot that plays the games.
    #[arg(long, default_value = "easy")]
    bot: String,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Games played at once.
    #[arg(long, default_value_t = 2)]
    threads: usize,
}

/// How one ranking did at one position.
#[derive(Copy, Clone, Default)]
struct Foresight {
    /// Where it ranks the search's pick (0: first).
    rank: usize,
    /// The share of the search's visits on its first 5 and first 10 moves.
    top5: f64,
    top10: f64,
}

const RANKINGS: [&str; 2] = ["the network's margin", "the hand-set valuation's"];

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let Args { games, per_game, expert, bot, seed, threads } = Args::parse();
    let BotSpec::Mcts(config) = expert.parse()? else {
        return Err(format!("the expert must be a search (mcts:…), not {expert}").into());
    };
    let bot: BotSpec = bot.parse()?;
    let every = (70 / per_game.max(1)).max(1);
    let bar = ProgressBar::new(games as u64);
    bar.set_style(ProgressStyle::with_template("{elapsed_precise} [{bar:40}] {pos}/{len} games, eta {eta}")?);
    let positions: Vec<(usize, [Foresight; 2])> = map_jobs(
        games,
        threads,
        |_| bar.inc(1),
        |g| {
            let game_seed = seed.wrapping_mul(1_000_003).wrapping_add(g as u64);
            let mut game = Game::new(Setup::standard(Rules::default(), 2, game_seed)).expect("a standard setup");
            let mut bots = [bot.build(game_seed ^ 1), bot.build(game_seed ^ 2)];
            let mut found = Vec::new();
            let mut turn = 0u64;
            while let Some(seat) = game.to_move() {
                turn += 1;
                if (turn.wrapping_mul(0x9e37_79b9) ^ game_seed) % every == 0 {
                    let mut search = MctsBot::new(MctsConfig { seed: game_seed ^ turn << 8, ..config });
                    let pick = search.choose(&View::new(&game, seat)).expect("a move in a game not over");
                    let root = &search.last_search().map_or(&[][..], |s| &s.root[..]);
                    if root.len() > 1 {
                        let rankings: [&dyn Values; 2] = [Net::shared(), &Valuation::default()];
                        found.push((root.len(), rankings.map(|v| foresight(&game, seat, root, pick, v))));
                    }
                }
                let mv = bots[seat.index()].choose(&View::new(&game, seat)).expect("a move in a game not over");
                game.play(&mv).expect("a bot's move is legal");
            }
            found
        },
    )
    .into_iter()
    .flatten()
    .collect();
    bar.finish_and_clear();
    let n = positions.len() as f64;
    let moves = positions.iter().map(|p| p.0 as f64).sum::<f64>() / n;
    println!("{} positions searched by `{expert}` ({moves:.1} moves at the root on average)", positions.len());
    println!(
        "{:<26} {:>8} {:>8} {:>8} {:>12} {:>12} {:>12}",
        "ranking", "pick 1st", "top 3", "top 10", "median rank", "visits top 5", "top 10"
    );
    for (k, name) in RANKINGS.iter().enumerate() {
        let share = |f: &dyn Fn(&Foresight) -> bool| positions.iter().filter(|p| f(&p.1[k])).count() as f64 / n;
        let mean = |f: &dyn Fn(&Foresight) -> f64| positions.iter().map(|p| f(&p.1[k])).sum::<f64>() / n;
        let mut ranks: Vec<usize> = positions.iter().map(|p| p.1[k].rank).collect();
        ranks.sort_unstable();
        println!(
            "{name:<26} {:>8.3} {:>8.3} {:>8.3} {:>12} {:>12.3} {:>12.3}",
            share(&|f| f.rank == 0),
            share(&|f| f.rank < 3),
            share(&|f| f.rank < 10),
            ranks[ranks.len() / 2] + 1,
            mean(&|f| f.top5),
            mean(&|f| f.top10),
        );
    }
    Ok(())
}

/// How `values`' margin after each move foresees the search's visits
/// (`root`: each move, its visits and mean reward) and its `pick`: the
/// moves ranked as the search ranks them, best first, ties in the
/// engine's order.
fn foresight(game: &Game, seat: PlayerId, root: &[(Move, u32, f64)], pick: Move, values: &dyn Values) -> Foresight {
    let mut scratch = Scratch::default();
    let mut ranked: Vec<(f64, Move, u32)> = game
        .legal_moves()
        .into_iter()
        .map(|mv| {
            let mut after = game.clone();
            after.play(&mv).expect("a legal move");
            let visits = root.iter().find(|r| r.0 == mv).map_or(0, |r| r.1);
            (values.margin(&after, seat, &mut scratch), mv, visits)
        })
        .collect();
    ranked.sort_by(|a, b| b.0.total_cmp(&a.0));
    let rank = ranked.iter().position(|r| r.1 == pick).expect("the pick is a legal move");
    let total = ranked.iter().map(|r| f64::from(r.2)).sum::<f64>();
    let share = |k: usize| ranked.iter().take(k).map(|r| f64::from(r.2)).sum::<f64>() / total;
    Foresight { rank, top5: share(5), top10: share(10) }
}

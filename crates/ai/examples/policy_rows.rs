//! Rows for a prior over the root's moves: positions searched by a long
//! search, and for every legal move there what the search made of it and
//! what a prior could see. `crates/ai/training/fit_prior.py` reads them,
//! says how well the search's own rankings (the network's margin after
//! each move, the hand-set valuation's) foresee the search, and fits a
//! prior to its visits (docs/ai.md, "How well the rankings foresee a long
//! search").
//!
//! ```sh
//! cargo run --release -p carcassonne-ai --example policy_rows -- \
//!     --games 100 --expert mcts:30000it --seed 1 --threads 2 --out policy.npy
//! ```
//!
//! Positions come from games of `--bot` (`easy`) against itself, two
//! players, standard rules; every `--every`-th (2) is searched by
//! `--expert`. A row per legal move, in the engine's order: the
//! position's number, the game's, the move's visits, whether the search
//! picked it, its mean reward there (−1 if unvisited), then the prior's
//! inputs for it ([`move_inputs`]: the network's margin after it and the
//! hand-set valuation's, the network's inputs after it for the player to
//! move and for the other). Iteration budgets make the file the same
//! whatever `--threads`.

use carcassonne::{Game, Move, PlayerId, Rules, Setup, View};
use carcassonne_ai::npy::write_rows;
use carcassonne_ai::parallel::map_jobs;
use carcassonne_ai::prior::{move_inputs, INPUTS};
use carcassonne_ai::{Bot, BotSpec, MctsBot, MctsConfig, Scratch};
use clap::Parser;
use indicatif::{ProgressBar, ProgressStyle};

/// Columns of a row (see the module docs).
const COLUMNS: usize = 5 + INPUTS;

/// A long search's visits at the root, for a prior to learn.
#[derive(Parser)]
struct Args {
    /// Games to take positions from.
    #[arg(long, default_value_t = 100)]
    games: usize,
    /// The search whose choices a prior should foresee (an `mcts` spec).
    #[arg(long, default_value = "mcts:30000it")]
    expert: String,
    /// The bot that plays the games.
    #[arg(long, default_value = "easy")]
    bot: String,
    /// Search one position in this many.
    #[arg(long, default_value_t = 2)]
    every: u64,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Games played at once.
    #[arg(long, default_value_t = 2)]
    threads: usize,
    /// The NumPy file to write.
    #[arg(long, default_value = "policy.npy")]
    out: String,
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let Args { games, expert, bot, every, seed, threads, out } = Args::parse();
    let BotSpec::Mcts(config) = expert.parse()? else {
        return Err(format!("the expert must be a search (mcts:…), not {expert}").into());
    };
    let bot: BotSpec = bot.parse()?;
    let bar = ProgressBar::new(games as u64);
    bar.set_style(ProgressStyle::with_template("{elapsed_precise} [{bar:40}] {pos}/{len} games, eta {eta}")?);
    let rows: Vec<f32> = map_jobs(games, threads, |_| bar.inc(1), |g| game_rows(g, seed, bot, config, every.max(1)))
        .into_iter()
        .flatten()
        .collect();
    bar.finish_and_clear();
    write_rows(&out, &rows, COLUMNS)?;
    eprintln!("{} rows of {games} games written to {out}", rows.len() / COLUMNS);
    Ok(())
}

/// The rows of game `g`'s searched positions, flattened.
fn game_rows(g: usize, seed: u64, bot: BotSpec, config: MctsConfig, every: u64) -> Vec<f32> {
    let game_seed = seed.wrapping_mul(1_000_003).wrapping_add(g as u64);
    let mut game = Game::new(Setup::standard(Rules::default(), 2, game_seed)).expect("a standard setup");
    let mut bots = [bot.build(game_seed ^ 1), bot.build(game_seed ^ 2)];
    let mut rows = Vec::new();
    let mut turn = 0u64;
    while let Some(seat) = game.to_move() {
        turn += 1;
        if (turn + g as u64) % every == 0 {
            let position = (g as u64 * 1000 + turn) as f32;
            let mut search = MctsBot::new(MctsConfig { seed: game_seed ^ (turn << 8), ..config });
            let pick = search.choose(&View::new(&game, seat)).expect("a move in a game not over");
            let root = search.last_search().map_or(&[][..], |s| &s.root[..]);
            if root.len() > 1 {
                move_rows(&game, seat, root, pick, [position, g as f32], &mut rows);
            }
        }
        let mv = bots[seat.index()].choose(&View::new(&game, seat)).expect("a move in a game not over");
        game.play(&mv).expect("a bot's move is legal");
    }
    rows
}

/// A row per legal move of `game` (see the module docs), appended to `rows`.
fn move_rows(game: &Game, seat: PlayerId, root: &[(Move, u32, f64)], pick: Move, ids: [f32; 2], rows: &mut Vec<f32>) {
    let mut scratch = Scratch::default();
    for mv in game.legal_moves() {
        let mut after = game.clone();
        after.play(&mv).expect("a legal move");
        let (visits, mean) = root.iter().find(|r| r.0 == mv).map_or((0, -1.0), |r| (r.1, r.2));
        rows.extend_from_slice(&ids);
        rows.push(visits as f32);
        rows.push(f32::from(u8::from(mv == pick)));
        rows.push(if visits == 0 { -1.0 } else { mean as f32 });
        rows.extend_from_slice(&move_inputs(&after, seat, &mut scratch));
    }
}

//! The arena without the `carcassonne` binary:
//! `cargo run --release -p carcassonne-ai --example arena -- --bots mcts:1s,greedy --games 400`.
//! Takes the same flags as `carcassonne arena`.

use carcassonne_ai::arena::{run_with_progress, ArenaOptions};
use clap::Parser;

#[derive(Parser, Debug)]
struct Args {
    /// Bots, one per seat, comma-separated: random, greedy, mcts, mcts:1s,
    /// mcts:300ms, mcts:5000it (optionally :2t for threads), easy, normal, hard.
    #[arg(long, default_value = "mcts:1s,greedy")]
    bots: String,
    /// Games to play, rounded up to whole deals (a multiple of the bot count).
    #[arg(long, default_value_t = 400)]
    games: usize,
    /// Rule set: a preset with options, e.g. `first-edition,small_city=false`.
    #[arg(long, default_value = "standard")]
    rules: String,
    /// Seed of the deals and the bots: the same seed replays the same run.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Print the report as JSON.
    #[arg(long)]
    json: bool,
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
}

fn main() -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    let a = Args::parse();
    let options = ArenaOptions::parse(&a.bots, a.games, &a.rules, a.seed, a.threads)?;
    let report = run_with_progress(&options, !a.quiet)?;
    if a.json {
        println!("{}", serde_json::to_string_pretty(&report.to_json())?);
    } else {
        print!("{report}");
    }
    Ok(())
}

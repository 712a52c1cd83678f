//! `carcassonne arena`: bots against each other in paired games (the logic
//! lives in `carcassonne_ai::arena`).

use carcassonne_ai::arena::{run_with_progress, ArenaOptions};

#[derive(clap::Args, Debug)]
pub struct ArenaArgs {
    /// Bots, one per seat, comma-separated: random, greedy, mcts, mcts:1s,
    /// mcts:300ms, mcts:5000it (optionally :2t for threads), easy, normal, hard.
    #[arg(long, default_value = "mcts:1s,greedy")]
    pub bots: String,
    /// Games to play, rounded up to whole deals (a multiple of the bot count):
    /// each deal is played once per seating, the seats rotated.
    #[arg(long, default_value_t = 400)]
    pub games: usize,
    /// Rule set: a preset with options, e.g. `first-edition,small_city=false`.
    #[arg(long, default_value = "standard")]
    pub rules: String,
    /// Seed of the deals and the bots: the same seed replays the same run.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Games played at once (time budgets are then shared cores).
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Print the report as JSON.
    #[arg(long)]
    pub json: bool,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
}

pub fn run(args: ArenaArgs) -> Result<(), Box<dyn std::error::Error>> {
    let options = ArenaOptions::parse(&args.bots, args.games, &args.rules, args.seed, args.threads)
        .map_err(|e| -> Box<dyn std::error::Error> { e })?;
    let report = run_with_progress(&options, !args.quiet)?;
    if args.json {
        println!("{}", serde_json::to_string_pretty(&report.to_json())?);
    } else {
        print!("{report}");
    }
    Ok(())
}

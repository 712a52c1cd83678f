//! `carcassonne arena`: bots against each other in paired games (the logic
//! lives in `carcassonne_ai::arena`).

use carcassonne_ai::arena::{pool_files, run_with_progress, ArenaOptions};

#[derive(clap::Args, Debug)]
pub struct ArenaArgs {
    /// Bots, one per seat, comma-separated: random, greedy, mcts, mcts:1s,
    /// mcts:300ms, mcts:5000it (optionally :2t for threads), easy, normal,
    /// hard, or `cmd:<command>`, a program speaking the bot protocol
    /// (docs/bot-protocol.md), e.g. `"cmd:python3 examples/bot.py",mcts:1s`.
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
    /// Time per move for the programs (`cmd:`), e.g. `1s`, `300ms`; an
    /// answer later than this (and a quarter second for the pipes) forfeits the game.
    #[arg(long, default_value = "1s", value_parser = parse_duration)]
    pub move_time: std::time::Duration,
    /// Pass the programs' standard error through (by default it is discarded).
    #[arg(long)]
    pub bot_stderr: bool,
    /// Print the report as JSON.
    #[arg(long)]
    pub json: bool,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
    /// Play nothing: pool the JSON reports of runs (`--json`, one run a
    /// file: the same bots, rules and threads, each its own seed) into the
    /// report of all their games, e.g. a long measurement played in parts.
    #[arg(long, num_args = 1.., value_name = "REPORT.json", conflicts_with_all = ["bots", "games", "rules", "seed"])]
    pub pool: Vec<std::path::PathBuf>,
}

pub fn run(args: ArenaArgs) -> Result<(), Box<dyn std::error::Error>> {
    if !args.pool.is_empty() {
        let report = pool_files(&args.pool).map_err(|e| -> Box<dyn std::error::Error> { e })?;
        print!("{}", report.render(args.json));
        return Ok(());
    }
    let mut options = ArenaOptions::parse(&args.bots, args.games, &args.rules, args.seed, args.threads)
        .map_err(|e| -> Box<dyn std::error::Error> { e })?;
    options.limits.per_move = args.move_time;
    options.limits.stderr = args.bot_stderr;
    // Programs run in process groups of their own: Ctrl-C reaches them through us.
    carcassonne_ai::external::kill_all_on_interrupt();
    let report = run_with_progress(&options, !args.quiet)?;
    print!("{}", report.render(args.json));
    Ok(())
}

/// A duration as a search budget is written: `1s`, `0.5s`, `300ms`.
pub fn parse_duration(s: &str) -> Result<std::time::Duration, String> {
    match s.parse::<carcassonne_ai::Budget>() {
        Ok(carcassonne_ai::Budget::Time(d)) => Ok(d),
        _ => Err(format!("\"{s}\" is not a time (e.g. 1s, 0.5s, 300ms)")),
    }
}

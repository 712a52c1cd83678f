//! The arena without the web server: the same run as `carcassonne arena`,
//! for measuring the bots from this crate alone (a faster build while the
//! search is being worked on).
//!
//! ```sh
//! cargo run --release -p carcassonne-ai --example arena -- --bots mcts:1000it,mcts-v1:1000it --games 100 --seed 1000
//! ```
//!
//! Flags: `--bots`, `--games`, `--rules`, `--seed`, `--threads`, `--json`,
//! `--pool` and the reports' files last (as `carcassonne arena`; no
//! progress bar).

use carcassonne_ai::arena::{pool_files, run, ArenaOptions};

fn main() -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    let (mut bots, mut games, mut rules, mut seed, mut threads, mut json) =
        ("mcts:1s,greedy".to_string(), 400, "standard".to_string(), 1, 1, false);
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let mut value = || args.next().ok_or_else(|| format!("{flag} needs a value"));
        match flag.as_str() {
            "--bots" => bots = value()?,
            "--games" => games = value()?.parse()?,
            "--rules" => rules = value()?,
            "--seed" => seed = value()?.parse()?,
            "--threads" => threads = value()?.parse()?,
            "--json" => json = true,
            "--quiet" => {}
            "--pool" => {
                let report = pool_files(&args.by_ref().map(Into::into).collect::<Vec<_>>())?;
                print!("{}", report.render(json));
                return Ok(());
            }
            _ => return Err(format!("unknown flag {flag} (see the example's docs)").into()),
        }
    }
    let report = run(&ArenaOptions::parse(&bots, games, &rules, seed, threads)?, |_| {})?;
    print!("{}", report.render(json));
    Ok(())
}

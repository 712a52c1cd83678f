//! Fits the learned valuation (`carcassonne_ai::learned`) on the search's
//! playouts and prints the Rust source of its weights:
//!
//! ```sh
//! cargo run --release -p carcassonne-ai --example train_eval -- --games 4000 --seed 1 > crates/ai/src/learned_weights.rs
//! ```
//!
//! `--playout SPEC` takes the playout policy of another search spec
//! (default `mcts`, the current default settings). The fit's held-out
//! errors go to standard error.

use carcassonne_ai::learned::{train, weights_source};
use carcassonne_ai::BotSpec;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let (mut games, mut seed, mut playout) = (4000usize, 1u64, "mcts".to_string());
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let mut value = || args.next().ok_or_else(|| format!("{flag} needs a value"));
        match flag.as_str() {
            "--games" => games = value()?.parse()?,
            "--seed" => seed = value()?.parse()?,
            "--playout" => playout = value()?,
            _ => return Err(format!("unknown flag {flag} (--games N, --seed S, --playout SPEC)").into()),
        }
    }
    let BotSpec::Mcts(config) = playout.parse::<BotSpec>()? else {
        return Err(format!("{playout} is not a search spec").into());
    };
    let (model, fit) = train(games, seed, &config);
    eprintln!("{fit:?}");
    let mut command =
        format!("cargo run --release -p carcassonne-ai --example train_eval -- --games {games} --seed {seed}");
    if playout != "mcts" {
        command.push_str(&format!(" --playout {playout}"));
    }
    print!("{}", weights_source(&model, &command, &fit));
    Ok(())
}

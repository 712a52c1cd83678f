//! Self-play for the valuation network ([`carcassonne_ai::net`]): plays
//! games between search bots and writes, for every position before a
//! move and every seat, the network's inputs and what the seat went on to
//! score, as a NumPy file that `crates/ai/training/train_net.py` reads.
//!
//! ```sh
//! cargo run --release -p carcassonne-ai --example selfplay -- \
//!     --games 4000 --bots mcts:300it --seed 1 --threads 2 --out round0.npy
//! ```
//!
//! `--bots` (`easy`) takes one spec for every seat or one per seat
//! (`easy,normal`); `--players` (2) and `--rules` (standard) set the games
//! (`--help` lists the flags). Each row holds the [`INPUTS`] inputs, the
//! points still to score, and the game's index (so that training can hold
//! whole games out for validation). The same flags give the same file,
//! whatever `--threads` (the bots' budgets count iterations).

use carcassonne::{Game, Rules, Setup, View};
use carcassonne_ai::net::{inputs, INPUTS};
use carcassonne_ai::npy::write_rows;
use carcassonne_ai::parallel::map_jobs;
use carcassonne_ai::{BotSpec, Scratch};
use clap::Parser;
use indicatif::{ProgressBar, ProgressStyle};

/// Columns of a row: the inputs, the points still to score, the game.
const COLUMNS: usize = INPUTS + 2;

/// Self-play rows for the valuation network.
#[derive(Parser)]
struct Args {
    /// Games to play.
    #[arg(long, default_value_t = 1000)]
    games: usize,
    /// One bot spec for every seat, or one per seat.
    #[arg(long, default_value = "easy")]
    bots: String,
    #[arg(long, default_value_t = 2)]
    players: usize,
    #[arg(long, default_value = "standard")]
    rules: String,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Games played at once.
    #[arg(long, default_value_t = 2)]
    threads: usize,
    /// The NumPy file to write.
    #[arg(long, default_value = "selfplay.npy")]
    out: String,
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let Args { games, bots, players, rules, seed, threads, out } = Args::parse();
    let rules = Rules::parse(&rules)?;
    let specs: Vec<BotSpec> = bots.split(',').map(str::parse).collect::<Result<_, _>>()?;
    if !(2..=carcassonne::MAX_PLAYERS).contains(&players) {
        return Err(format!("{players} players: 2 to {} play", carcassonne::MAX_PLAYERS).into());
    }
    if specs.len() != 1 && specs.len() != players {
        return Err(format!("{} bot specs for {players} players", specs.len()).into());
    }
    let bar = ProgressBar::new(games as u64);
    bar.set_style(ProgressStyle::with_template("{elapsed_precise} [{bar:40}] {pos}/{len} games, eta {eta}  {msg}")?);
    let done = map_jobs(games, threads, |_| bar.inc(1), |i| play(i, seed, rules, players, &specs));
    bar.finish();
    let data: Vec<f32> = done.into_iter().flatten().collect();
    write_rows(&out, &data, COLUMNS)?;
    eprintln!("{} rows of {games} games written to {out}", data.len() / COLUMNS);
    Ok(())
}

/// Plays game `index`; its rows, flattened.
fn play(index: usize, seed: u64, rules: Rules, players: usize, specs: &[BotSpec]) -> Vec<f32> {
    let game_seed = mix(seed ^ mix(index as u64 + 1));
    let mut game = Game::new(Setup::standard(rules, players, game_seed)).expect("a standard setup");
    let mut bots: Vec<_> = (0..players).map(|p| specs[p % specs.len()].build(mix(game_seed + p as u64 + 1))).collect();
    let mut scratch = Scratch::default();
    // Per position: each seat's inputs and its score then.
    let mut positions: Vec<([[f32; INPUTS]; carcassonne::MAX_PLAYERS], Vec<u32>)> = Vec::new();
    while let Some(seat) = game.to_move() {
        positions.push((inputs(&game, &mut scratch), game.scores().to_vec()));
        let mv = bots[seat.index()].choose(&View::new(&game, seat)).expect("a move in a game not over");
        game.play(&mv).expect("a bot's move is legal");
    }
    let mut rows = Vec::with_capacity(positions.len() * players * COLUMNS);
    for (x, scores) in &positions {
        for p in 0..players {
            rows.extend_from_slice(&x[p]);
            rows.push((game.scores()[p] - scores[p]) as f32);
            rows.push(index as f32);
        }
    }
    rows
}

/// SplitMix64's finaliser: well-spread seeds from nearby numbers.
fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

//! Moves per second of two rule sets, measured in one process: blocks of
//! random games (the bench loop: `Game::restart`, `RandomMover::playout`)
//! alternate between them, so that a shared machine's noise falls on both
//! alike and their ratio holds steady where separate runs vary by a tenth
//! (docs/performance.md). Also for comparing two ways of doing one thing.
//!
//! ```sh
//! cargo build --release -p carcassonne --example ratio
//! taskset -c 1 target/release/examples/ratio standard big-box 30
//! ```
use carcassonne::{seeded_rng, Game, RandomMover, Rules, Setup};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let a = Rules::parse(args.get(1).map_or("standard", String::as_str)).unwrap();
    let b = Rules::parse(args.get(2).map_or("big-box", String::as_str)).unwrap();
    let rounds: u64 = args.get(3).map_or(40, |s| s.parse().unwrap());
    let mut mover = RandomMover::new();
    let mut game = Game::new(Setup::standard(a, 2, 0)).unwrap();
    game.set_event_log(false);
    let mut t = [0f64; 2];
    let mut moves = [0u64; 2];
    for r in 0..rounds {
        for (k, rules, block) in [(0, a, 2000u64), (1, b, 1000u64)] {
            let mut rng = seeded_rng(r);
            let start = Instant::now();
            for i in 0..block {
                game.restart(Setup::standard(rules, 2, r * block + i)).unwrap();
                mover.playout(&mut game, &mut rng);
                moves[k] += u64::from(game.moves_played());
            }
            t[k] += start.elapsed().as_secs_f64();
        }
    }
    let rate = |k: usize| moves[k] as f64 / t[k];
    println!("A {:.0} moves/s  B {:.0} moves/s  B/A {:.3}", rate(0), rate(1), rate(1) / rate(0));
}

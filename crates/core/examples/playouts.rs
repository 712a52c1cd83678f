//! The loop of `carcassonne bench` against the engine alone (no binary's
//! allocator, threads or progress bar): random 2-player games on one
//! thread, each started with `Game::restart` and played by the engine's
//! random mover. For profilers and for comparing builds of the engine
//! (docs/performance.md):
//!
//! ```sh
//! cargo build --release -p carcassonne --example playouts
//! valgrind --tool=callgrind target/release/examples/playouts 300 standard
//! taskset -c 1 target/release/examples/playouts 100000 big-box
//! ```

use carcassonne::{seeded_rng, Game, RandomMover, Rules, Setup};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let games: u64 = args.get(1).map_or(Ok(2000), |s| s.parse())?;
    let rules = Rules::parse(args.get(2).map_or("standard", String::as_str))?;
    let mut mover = RandomMover::new();
    let mut rng = seeded_rng(0);
    let mut game = Game::new(Setup::standard(rules, 2, 0))?;
    game.set_event_log(false);
    let (mut moves, mut points) = (0u64, 0u64);
    let start = std::time::Instant::now();
    for i in 0..games {
        game.restart(Setup::standard(rules, 2, i))?;
        mover.playout(&mut game, &mut rng);
        moves += u64::from(game.moves_played());
        points += game.scores().iter().map(|&s| u64::from(s)).sum::<u64>();
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{games} games {:.0} games/s {:.1} ns/move moves {moves} points {points}",
        games as f64 / secs,
        secs * 1e9 / moves as f64
    );
    Ok(())
}

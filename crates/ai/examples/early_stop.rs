//! What stopping the search early saves: plays games of the search against
//! greedy and counts the iterations each search move used out of its
//! iteration budget (the moves are the same as with the whole budget).
//!
//! ```sh
//! cargo run --release -p carcassonne-ai --example early_stop -- 3000 20
//! ```
//!
//! Arguments: the iteration budget (3000), the games (20, seeds 1…).

use carcassonne::{Game, Rules, Setup, View};
use carcassonne_ai::{Bot, Budget, GreedyBot, MctsBot, MctsConfig};

fn main() {
    let args: Vec<u64> = std::env::args().skip(1).map(|a| a.parse().expect("a number")).collect();
    let budget = args.first().copied().unwrap_or(3000);
    let games = args.get(1).copied().unwrap_or(20);
    let (mut moves, mut stopped, mut used) = (0u64, 0u64, 0u64);
    for g in 1..=games {
        let mut game = Game::new(Setup::standard(Rules::default(), 2, g)).expect("a game");
        let config = MctsConfig { budget: Budget::Iterations(budget as u32), seed: g, ..MctsConfig::default() };
        let mut search = MctsBot::new(config);
        let mut greedy = GreedyBot::new(g);
        let me = (g % 2) as usize;
        while let Some(p) = game.to_move() {
            let view = View::new(&game, p);
            let mv = if p.index() == me {
                let before = search.last_search().cloned();
                let mv = search.choose(&view).expect("a move");
                if let Some(info) = search.last_search().filter(|&i| Some(i) != before.as_ref()) {
                    moves += 1;
                    used += info.iterations;
                    stopped += u64::from(info.iterations < budget);
                }
                mv
            } else {
                greedy.choose(&view).expect("a move")
            };
            game.play(&mv).expect("a legal move");
        }
    }
    println!(
        "{games} games, {moves} searched moves at {budget} iterations: {:.1} % stopped early, {:.1} % of the iterations used",
        100.0 * stopped as f64 / moves.max(1) as f64,
        100.0 * used as f64 / (moves * budget).max(1) as f64
    );
}

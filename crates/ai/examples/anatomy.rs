//! Where two bots' points come from: followers deployed by role and points
//! by feature kind, over paired games.
//! `cargo run --release -p carcassonne-ai --example anatomy -- mcts:3000it greedy 20`

use carcassonne::{Event, Game, Rules, Setup, View};
use carcassonne_ai::BotSpec;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let specs: Vec<BotSpec> = vec![args[1].parse().unwrap(), args[2].parse().unwrap()];
    let games: u64 = args.get(3).map_or(10, |s| s.parse().unwrap());
    let rules = Rules::parse(args.get(4).map_or("standard", |s| s.as_str())).unwrap();
    let roles = ["thief", "knight", "monk", "farmer", "abbot"];
    let kinds = ["road", "city", "cloister", "farm", "garden"];
    let mut deployed = [[0u32; 5]; 2];
    let mut points = [[[0u32; 5]; 2]; 2]; // bot, completed/final, kind
    for g in 0..games {
        let swap = (g % 2) as usize;
        let mut game = Game::new(Setup::standard(rules, 2, 7000 + g / 2)).unwrap();
        let mut bots: Vec<_> = (0..2).map(|s| specs[(s + swap) % 2].build(g)).collect();
        while let Some(p) = game.to_move() {
            let mv = bots[p.index()].choose(&View::new(&game, p)).unwrap();
            game.play(&mv).unwrap();
        }
        for e in game.events() {
            match e {
                Event::FollowerDeployed { player, role, .. } => {
                    let b = (player.index() + swap) % 2;
                    deployed[b][roles.iter().position(|r| *r == role.word()).unwrap()] += 1;
                }
                Event::Scored(s) => {
                    for p in s.to.iter() {
                        let b = (p.index() + swap) % 2;
                        let w = matches!(s.when, carcassonne::When::Final) as usize;
                        points[b][w][kinds.iter().position(|k| *k == s.kind.word()).unwrap()] += s.points;
                    }
                }
                _ => {}
            }
        }
    }
    for b in 0..2 {
        println!("{}", specs[b]);
        println!("  deployed per game: {}", fmt(&deployed[b], &roles, games));
        println!("  completed points : {}", fmt(&points[b][0], &kinds, games));
        println!("  final points     : {}", fmt(&points[b][1], &kinds, games));
    }
}

fn fmt(xs: &[u32; 5], names: &[&str; 5], games: u64) -> String {
    names.iter().zip(xs).map(|(n, &x)| format!("{n} {:.1}", x as f64 / games as f64)).collect::<Vec<_>>().join(", ")
}

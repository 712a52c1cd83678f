//! Times the pieces of a search iteration on mid-game positions.

use std::hint::black_box;
use std::time::Instant;

use carcassonne::{seeded_rng, Game, PlayerId, RandomMover, Rules, Setup, View};
use carcassonne_ai::{Determinizer, Scratch, Valuation};

fn main() {
    if let Some(spec) = std::env::args().nth(1) {
        search(&spec);
        return;
    }
    let mut mover = RandomMover::new();
    let games: Vec<Game> = (0..50u64)
        .map(|s| {
            let mut g = Game::new(Setup::standard(Rules::default(), 2, s)).unwrap();
            g.set_event_log(false);
            let mut rng = seeded_rng(s);
            while g.moves_played() < 30 {
                let mv = mover.choose(&g, &mut rng).unwrap();
                g.play_unchecked(&mv);
            }
            g
        })
        .collect();
    let mut rng = seeded_rng(1);
    let n = 20_000;
    let time = |name: &str, f: &mut dyn FnMut(usize)| {
        let t = Instant::now();
        for i in 0..n {
            f(i);
        }
        println!("{name:28} {:8.2} us", t.elapsed().as_secs_f64() * 1e6 / n as f64);
    };
    time("clone", &mut |i| {
        black_box(games[i % 50].clone());
    });
    let dets: Vec<Determinizer> =
        games.iter().map(|g| Determinizer::new(&View::new(g, g.to_move().unwrap()))).collect();
    let mut g = games[0].clone();
    time("determinizer sample_into", &mut |i| {
        dets[i % 50].sample_into(&mut g, &mut rng);
    });
    time("legal_moves", &mut |i| {
        black_box(games[i % 50].legal_moves());
    });
    time("random move choose", &mut |i| {
        black_box(mover.choose(&games[i % 50], &mut rng));
    });
    time("random playout (from 30)", &mut |i| {
        let mut g = games[i % 50].clone();
        mover.playout(&mut g, &mut rng);
        black_box(g.scores());
    });
    let v = Valuation::default();
    let mut scratch = Scratch::default();
    time("valuation", &mut |i| {
        black_box(v.margin(&games[i % 50], PlayerId(0), &mut scratch));
    });
    time("clone+play+valuation", &mut |i| {
        let mut g = games[i % 50].clone();
        let mv = mover.choose(&g, &mut rng).unwrap();
        g.play_unchecked(&mv);
        black_box(v.margin(&g, PlayerId(0), &mut scratch));
    });
}

/// Search statistics of one bot spec on positions at several turns.
fn search(spec: &str) {
    use carcassonne_ai::{BotSpec, MctsBot};
    let BotSpec::Mcts(config) = spec.parse::<BotSpec>().unwrap() else { panic!("an mcts spec") };
    let mut mover = RandomMover::new();
    for turn in [0u16, 10, 30, 50, 65] {
        let mut g = Game::new(Setup::standard(Rules::default(), 2, 3)).unwrap();
        let mut rng = seeded_rng(3);
        while g.moves_played() < turn {
            let mv = mover.choose(&g, &mut rng).unwrap();
            g.play_unchecked(&mv);
        }
        let mut bot = MctsBot::new(config);
        let t = Instant::now();
        carcassonne_ai::Bot::choose(&mut bot, &View::new(&g, g.to_move().unwrap()));
        let info = bot.last_search().unwrap();
        println!(
            "turn {turn:2}: {:6} iterations, {:6} nodes, {} root moves, {:7.1} ms, {:5.1} us/iteration",
            info.iterations,
            info.nodes,
            info.root.len(),
            t.elapsed().as_secs_f64() * 1e3,
            t.elapsed().as_secs_f64() * 1e6 / info.iterations as f64
        );
    }
}

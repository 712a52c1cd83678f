//! How much of the valuation network's error no valuation can remove: the
//! part that is the draw of the tiles still to come.
//!
//! Plays games between search bots to positions a random number of moves
//! in (2 to 60); from each, plays the rest of the game several times with
//! fresh bots, the tile in hand and the bag drawn anew each time (the
//! network sees neither; with hands of several tiles, only the bag is).
//! Over those continuations, what a
//! seat still scores varies by the draw alone: the variance within a
//! position is the least squared error any valuation of that position can
//! have (for these bots' play). The network's squared error on the same
//! continuations is that floor plus its own bias, squared: the most that
//! a better network could win.
//!
//! ```sh
//! cargo run --release -p carcassonne-ai --example value_floor -- \
//!     --positions 400 --continuations 8 --bot mcts:300it:net=1 --seed 1 --threads 2
//! ```
//!
//! Two players, standard rules by default (`--rules`); iteration budgets
//! make the run the same whatever `--threads`. The difference of the two
//! errors estimates the bias squared without bias: the floor is each
//! position's sample variance, the network's error its mean square about
//! the prediction. docs/ai.md ("How much a better network could win")
//! has the figures.

use carcassonne::{seeded_rng, shuffle_with, Game, Rules, Setup, View};
use carcassonne_ai::net::Net;
use carcassonne_ai::parallel::map_jobs;
use carcassonne_ai::stats::{mean_ci, Mean};
use carcassonne_ai::{BotSpec, Scratch};
use clap::Parser;
use indicatif::{ProgressBar, ProgressStyle};

/// The valuation network's error against the draw's own variance.
#[derive(Parser)]
struct Args {
    /// Positions to value.
    #[arg(long, default_value_t = 300)]
    positions: usize,
    /// Games played on from each position.
    #[arg(long, default_value_t = 8)]
    continuations: usize,
    /// The bot of every seat, to the position and after it.
    #[arg(long, default_value = "mcts:300it:net=1")]
    bot: String,
    #[arg(long, default_value = "standard")]
    rules: String,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Positions played at once.
    #[arg(long, default_value_t = 2)]
    threads: usize,
    /// Keep the tile the player to move holds in every continuation (the
    /// floor given that tile, which the network does not see); by default
    /// it goes back into the bag and is drawn again.
    #[arg(long)]
    keep_tile: bool,
}

/// One position: the network's prediction of what each seat still scores,
/// and what each seat did score in each continuation.
struct Position {
    predicted: [f64; 2],
    scored: Vec<[f64; 2]>,
}

impl Position {
    /// For each seat and for the margin (seat 0's points less seat 1's):
    /// the variance of what was scored, and the mean squared error of the
    /// prediction.
    fn spreads(&self) -> [(f64, f64); 3] {
        let margin = |v: &[f64; 2]| v[0] - v[1];
        let of = |pick: &dyn Fn(&[f64; 2]) -> f64| {
            let xs: Vec<f64> = self.scored.iter().map(pick).collect();
            let m = mean_ci(&xs);
            let predicted = pick(&self.predicted);
            let error = xs.iter().map(|x| (x - predicted).powi(2)).sum::<f64>() / xs.len() as f64;
            (m.sd * m.sd, error)
        };
        [of(&|v| v[0]), of(&|v| v[1]), of(&margin)]
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let Args { positions, continuations, bot, rules, seed, threads, keep_tile } = Args::parse();
    let spec: BotSpec = bot.parse()?;
    let rules = Rules::parse(&rules)?;
    if continuations < 2 {
        return Err("a variance needs at least 2 continuations".into());
    }
    let bar = ProgressBar::new(positions as u64);
    bar.set_style(ProgressStyle::with_template("{elapsed_precise} [{bar:40}] {pos}/{len} positions, eta {eta}")?);
    let done = map_jobs(
        positions,
        threads,
        |_| bar.inc(1),
        |i| position(seed.wrapping_mul(1_000_003).wrapping_add(i as u64), rules, spec, continuations, keep_tile),
    );
    bar.finish_and_clear();
    let spreads: Vec<[(f64, f64); 3]> = done.iter().map(Position::spreads).collect();
    println!("{positions} positions, {continuations} continuations each, `{bot}`; points², 95 % intervals");
    println!("{:<30} {:>22} {:>22} {:>10}", "", "the draw (floor)", "the network", "bias²");
    for (k, name) in ["seat 0's points still to score", "seat 1's points still to score", "the margin still to come"]
        .into_iter()
        .enumerate()
    {
        let floor = mean_ci(&spreads.iter().map(|s| s[k].0).collect::<Vec<_>>());
        let net = mean_ci(&spreads.iter().map(|s| s[k].1).collect::<Vec<_>>());
        println!("{name:<30} {:>22} {:>22} {:>10.1}", shown(floor), shown(net), net.mean - floor.mean);
    }
    Ok(())
}

fn shown(m: Mean) -> String {
    format!("{:.1} [{:.1}, {:.1}]", m.mean, m.low, m.high)
}

/// Plays a game to a position, then the rest of it `continuations` times.
fn position(game_seed: u64, rules: Rules, spec: BotSpec, continuations: usize, keep_tile: bool) -> Position {
    let setup = Setup::standard(rules, 2, game_seed);
    let mut game = Game::new(setup.clone()).expect("a standard setup");
    let mut bots = [spec.build(game_seed ^ 1), spec.build(game_seed ^ 2)];
    let moves = 2 + (game_seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 32) % 59;
    let mut played = Vec::new();
    for _ in 0..moves {
        let Some(seat) = game.to_move() else { break };
        let mv = bots[seat.index()].choose(&View::new(&game, seat)).expect("a move in a game not over");
        game.play(&mv).expect("a bot's move is legal");
        played.push(mv);
    }
    let before = [f64::from(game.scores()[0]), f64::from(game.scores()[1])];
    let mut values = [0.0; carcassonne::MAX_PLAYERS];
    Net::shared().values(&game, &mut Scratch::default(), &mut values);
    let predicted = [values[0] - before[0], values[1] - before[1]];
    // The tile of the player to move, the last drawn, is drawn again from
    // the bag (unless kept): the network does not see it.
    let drawn = game.drawn().len();
    let redraw = !keep_tile && game.to_move().is_some_and(|seat| *game.hand(seat) == game.drawn()[drawn - 1..]);
    let scored = (0..continuations as u64)
        .map(|c| {
            let mut rng = seeded_rng(game_seed.wrapping_mul(31).wrapping_add(c));
            let mut g = if redraw {
                let mut deck = game.deck().to_vec();
                shuffle_with(&mut deck[drawn - 1..], &mut rng);
                let mut g = Game::new(Setup { deck, ..setup.clone() }).expect("the same setup");
                for mv in &played {
                    g.play(mv).expect("the same draws, the same moves");
                }
                assert_eq!(g.scores(), game.scores(), "the same position, but for the tile drawn");
                g
            } else {
                let mut g = game.clone();
                g.shuffle_bag(&mut rng);
                g
            };
            let mut bots = [spec.build(game_seed ^ (c << 32 | 3)), spec.build(game_seed ^ (c << 32 | 4))];
            while let Some(seat) = g.to_move() {
                let mv = bots[seat.index()].choose(&View::new(&g, seat)).expect("a move in a game not over");
                g.play(&mv).expect("a bot's move is legal");
            }
            [f64::from(g.scores()[0]) - before[0], f64::from(g.scores()[1]) - before[1]]
        })
        .collect();
    Position { predicted, scored }
}

//! `carcassonne puzzles`: positions where one move is clearly best, from
//! game records or from games the bots play here, written as JSON for the
//! web page's `#/puzzles` (the selection lives in `carcassonne_ai::puzzle`).

use std::path::PathBuf;

use carcassonne::record::Record;
use carcassonne::{Game, Rules, Setup, View};
use carcassonne_ai::parse_specs;
use carcassonne_ai::puzzle::{find_puzzles, Puzzle, PuzzleOptions};
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::json;

#[derive(clap::Args, Debug)]
pub struct PuzzlesArgs {
    /// Game records (JSON, record.md) to look for puzzles in.
    pub records: Vec<PathBuf>,
    /// Also play this many games between the `--bots` and look in them.
    #[arg(long, default_value_t = 0)]
    pub games: u64,
    /// The bots of those games, one per seat: random, greedy, easy, normal, mcts:2000it…
    #[arg(long, default_value = "greedy,easy")]
    pub bots: String,
    /// Rule set of those games.
    #[arg(long, default_value = "standard")]
    pub rules: String,
    /// Write the puzzles here (JSON) instead of standard output.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Play-outs per candidate move in each of the two checking passes.
    #[arg(long, alias = "budget", default_value_t = PuzzleOptions::default().samples)]
    pub samples: u32,
    /// Play-outs per legal move in the wide first pass.
    #[arg(long, default_value_t = PuzzleOptions::default().screen)]
    pub screen: u32,
    /// Moves kept from the wide pass for the checking passes.
    #[arg(long, default_value_t = PuzzleOptions::default().keep)]
    pub keep: usize,
    /// The least lead, in expected points, of the best move over the next.
    #[arg(long, default_value_t = PuzzleOptions::default().min_gap)]
    pub gap: f64,
    /// At most this many puzzles from one game (the clearest).
    #[arg(long, default_value_t = PuzzleOptions::default().max_per_game)]
    pub max_per_game: usize,
    /// Seed of the valuations, and of the bots' games.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Positions valued at once.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
}

pub fn run(args: PuzzlesArgs) -> Result<(), Box<dyn std::error::Error>> {
    let options = PuzzleOptions {
        screen: args.screen,
        keep: args.keep,
        samples: args.samples,
        min_gap: args.gap,
        max_per_game: args.max_per_game,
        seed: args.seed,
        threads: args.threads.max(1),
    };
    let mut sources: Vec<(String, Record)> = Vec::new();
    for path in &args.records {
        let (record, _) = crate::load(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let name = path.file_stem().map_or("game".into(), |s| s.to_string_lossy().into_owned());
        sources.push((name, record));
    }
    if args.games > 0 {
        let rules = Rules::parse(&args.rules).map_err(|e| format!("--rules: {e}"))?;
        let bots = parse_specs(&args.bots).map_err(|e| format!("--bots: {e}"))?;
        for g in 0..args.games {
            let name = format!("{}-s{}g{g}", args.bots.replace([',', ':'], "-"), args.seed);
            sources.push((name, bot_game(&bots, rules, args.seed.wrapping_add(g))?));
        }
    }
    if sources.is_empty() {
        return Err("give game records, or --games N for games between the --bots".into());
    }
    let mut puzzles: Vec<Puzzle> = Vec::new();
    for (name, record) in &sources {
        let bar = ProgressBar::new(record.moves.len() as u64);
        bar.set_style(ProgressStyle::with_template(&format!(
            "{name} [{{bar:30}}] {{pos}}/{{len}} moves, eta {{eta}}"
        ))?);
        puzzles.extend(find_puzzles(record, name, &options, |done, _| bar.set_position(done as u64))?);
        bar.finish_and_clear();
        eprintln!("{name}: {} puzzle(s)", puzzles.iter().filter(|p| &p.source == name).count());
    }
    let doc = json!({
        "about": "Positions where one move is clearly best (docs/web.md, Puzzles): made by `carcassonne puzzles`.",
        "selection": {
            "screen": options.screen, "keep": options.keep, "samples": options.samples,
            "min_gap": options.min_gap, "max_per_game": options.max_per_game, "seed": options.seed,
        },
        "puzzles": puzzles,
    });
    let text = serde_json::to_string_pretty(&doc)?;
    match &args.out {
        Some(path) => std::fs::write(path, text + "\n").map_err(|e| format!("{}: {e}", path.display()))?,
        None => say!("{text}"),
    }
    Ok(())
}

/// A game between `bots` (one per seat) on the deal of `seed`, as a record.
fn bot_game(bots: &[carcassonne_ai::BotSpec], rules: Rules, seed: u64) -> Result<Record, String> {
    let mut game = Game::new(Setup::standard(rules, bots.len(), seed)).map_err(|e| e.to_string())?;
    let mut players: Vec<_> =
        bots.iter().enumerate().map(|(i, b)| b.build(seed.wrapping_mul(31).wrapping_add(i as u64))).collect();
    while let Some(seat) = game.to_move() {
        let mv = players[seat.index()].choose(&View::new(&game, seat)).ok_or("a bot gave no move")?;
        game.play(&mv).map_err(|e| e.to_string())?;
    }
    let names: Vec<String> = bots.iter().map(ToString::to_string).collect();
    Ok(Record::from_game(&game, &names))
}

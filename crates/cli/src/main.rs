//! `carcassonne`: the command-line front door.

use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use carcassonne::record::{score_json, Record, ReplayError, Replayer};
use carcassonne::{seeded_rng, Event, Game, PlayerId, RandomMover, Rules, ScoredKind, Setup, When};
use clap::{Parser, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};

/// `println!` that ends the program quietly when the reader has gone (a
/// closed pipe, as with `| head`), instead of panicking.
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        if let Err(e) = writeln!(std::io::stdout().lock(), $($arg)*) {
            if e.kind() == std::io::ErrorKind::BrokenPipe {
                std::process::exit(0);
            }
        }
    }};
}

/// `print!` with the same care as [`say!`].
macro_rules! say_raw {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        if let Err(e) = write!(std::io::stdout().lock(), $($arg)*) {
            if e.kind() == std::io::ErrorKind::BrokenPipe {
                std::process::exit(0);
            }
        }
    }};
}

mod admin;
mod analyze;
mod arena;
mod draw;
mod puzzles;
mod serve;

#[derive(Parser)]
#[command(name = "carcassonne", version, about = "Carcassonne: rules engine, records and benchmarks")]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Serve the web game on http://127.0.0.1:8080 (the default).
    Serve(Box<serve::ServeArgs>),
    /// The operator's moderation: list reports; mute, rename or close an
    /// account; resolve a report (on the server's `--db`).
    Admin(admin::AdminArgs),
    /// Play bots against each other in paired games and report their strength.
    Arena(arena::ArenaArgs),
    /// Review a game: every move judged by the search from the mover's view
    /// (the search's best move, its expected margin, what the move played lost).
    Analyze(analyze::AnalyzeArgs),
    /// Find puzzles: positions of games where one move is clearly best, as JSON (docs/web.md).
    Puzzles(puzzles::PuzzlesArgs),
    /// Speak the bot protocol (docs/bot-protocol.md) on standard input and
    /// output as one of this program's bots, for another host's arena.
    Bot {
        /// The bot: random, greedy, mcts:1s, mcts:5000it, easy, normal, hard…
        /// (a time budget is cut to the host's time per move).
        #[arg(long, alias = "level", default_value = "hard")]
        bot: String,
    },
    /// Play a game between random players in the terminal and show the board.
    Play {
        /// Seed of the tile order and of the players' choices.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Number of players (2–6).
        #[arg(long, default_value_t = 2)]
        players: usize,
        /// Rule set: a preset with options, e.g. `first-edition,small_city=false`.
        #[arg(long, default_value = "standard")]
        rules: String,
        /// Write the game's record to this file.
        #[arg(long)]
        save: Option<PathBuf>,
    },
    /// Replay a record, check every move and print the scores as JSON (record.md).
    Score {
        /// The record (JSON); `-` reads standard input.
        record: PathBuf,
    },
    /// Replay a record and draw the board and the score breakdown.
    Replay {
        record: PathBuf,
        /// Show the board after every move.
        #[arg(long)]
        step: bool,
    },
    /// Build a rule set and print its shareable code and JSON, or explain a
    /// code; `--list` lists every preset and option.
    Rules {
        /// A rule-set code to explain (e.g. from an invite link).
        code: Option<String>,
        /// Start from this preset: standard, beginner, first-edition, big-box.
        #[arg(long, default_value = "standard")]
        preset: String,
        /// Set an option, e.g. `--set river=true --set farms=per-city --set board_limit=9x9`.
        #[arg(long = "set", value_name = "OPTION=VALUE")]
        set: Vec<String>,
        /// List the presets and every option with its values and default.
        #[arg(long, conflicts_with_all = ["code", "set"])]
        list: bool,
    },
    /// Time complete random games (every move uniformly random among the legal ones).
    Bench {
        /// Games to play.
        #[arg(long, default_value_t = 100_000, value_parser = clap::value_parser!(u64).range(1..))]
        games: u64,
        #[arg(long, default_value_t = 2)]
        players: usize,
        #[arg(long, default_value = "standard")]
        rules: String,
        /// First seed; game i uses seed + i.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Threads to play on (0: one per core). Each plays its share of
        /// the games, one after the other, with its own generator.
        #[arg(long, default_value_t = 1)]
        threads: usize,
    },
}

/// mimalloc (without transparent huge pages, see the workspace manifest):
/// the server builds and drops many small values per move,
/// where glibc's allocator spent half the time (docs/performance.md).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result =
        // The web game is the default: `cargo run --release` starts it.
        match cli.command.unwrap_or_else(|| Command::Serve(Box::default())) {
            Command::Serve(args) => serve::run(*args),
            Command::Admin(args) => admin::run(args),
            Command::Arena(args) => arena::run(args),
            Command::Bot { bot } => bot_command(&bot),
            Command::Analyze(args) => analyze::run(args),
            Command::Puzzles(args) => puzzles::run(args),
            Command::Play { seed, players, rules, save } => play(seed, players, &rules, save),
            Command::Score { record } => return score(&record),
            Command::Replay { record, step } => replay(&record, step),
            Command::Bench { games, players, rules, seed, threads } => bench(games, players, &rules, seed, threads),
            Command::Rules { list: true, .. } => rules_list(),
            Command::Rules { code, preset, set, .. } => rules_command(code, &preset, &set),
        };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("carcassonne: {e}");
            ExitCode::FAILURE
        }
    }
}

type Result<T> = std::result::Result<T, Box<dyn std::error::Error>>;

fn read_text(path: &PathBuf) -> std::io::Result<String> {
    if path.as_os_str() == "-" {
        std::io::read_to_string(std::io::stdin())
    } else {
        std::fs::read_to_string(path)
    }
}

fn load(path: &PathBuf) -> std::result::Result<(Record, Game), String> {
    let text = read_text(path).map_err(|e| format!("record: cannot read {}: {e}", path.display()))?;
    let record = Record::from_json(&text).map_err(|e: ReplayError| e.to_string())?;
    let game = record.replay().map_err(|e| e.to_string())?;
    Ok((record, game))
}

/// record.md: JSON on stdout; an illegal record prints one line to stderr and exits 2.
fn score(path: &PathBuf) -> ExitCode {
    match load(path) {
        Ok((_, game)) => {
            say_raw!("{}", score_json(&game));
            ExitCode::SUCCESS
        }
        Err(line) => {
            eprintln!("{line}");
            ExitCode::from(2)
        }
    }
}

fn names(n: usize) -> Vec<String> {
    ["Ada", "Bob", "Cy", "Dee", "Eve", "Fay"].iter().take(n).map(|s| s.to_string()).collect()
}

fn play(seed: u64, players: usize, rules: &str, save: Option<PathBuf>) -> Result<()> {
    let rules = Rules::parse(rules)?;
    let mut game = Game::new(Setup::standard(rules, players, seed))?;
    let mut rng = seeded_rng(seed ^ 0x9e37_79b9_7f4a_7c15);
    RandomMover::new().playout(&mut game, &mut rng);
    let names = names(players);
    say!("{}", draw::game_board(&game));
    print_summary(&game, &names);
    if let Some(path) = save {
        std::fs::write(&path, Record::from_game(&game, &names).to_json())?;
        say!("record written to {}", path.display());
    }
    Ok(())
}

fn replay(path: &PathBuf, step: bool) -> Result<()> {
    let (record, game) = load(path)?;
    let names: Vec<String> = record.players.clone();
    if step {
        // One pass through the record: the board after each move.
        let mut replay = Replayer::new(record.setup()?)?;
        for n in 0..=record.moves.len() {
            if n > 0 {
                replay.step(&record.moves[n - 1])?;
            }
            let g = replay.game();
            if n == 0 {
                say!("== start");
            } else {
                let m = &record.moves[n - 1];
                let who = &names[(n - 1 + record.first.unwrap_or(0) as usize) % names.len()];
                let action = m.meeple.as_ref().map(|s| format!(", follower on {s}")).unwrap_or_default();
                let tile = m.to_move().map(|mv| draw::tile_label(mv.tile)).unwrap_or_else(|_| m.tile.clone());
                say!("== move {n}: {who} plays {tile} at [{},{}] rot {}{action}", m.at[0], m.at[1], m.rot);
            }
            say!("{}", draw::game_board(g));
            for e in g.events().iter().filter(|e| event_turn(e) == Some(n as u16)) {
                if let Some(line) = describe(e, &names) {
                    say!("   {line}");
                }
            }
            say!("   scores: {}", score_line(g, &names));
            say!();
        }
    } else {
        say!("{}", draw::game_board(&game));
    }
    say!("{}", draw::tile_legend(game.board()));
    say!();
    print_summary(&game, &names);
    Ok(())
}

fn event_turn(e: &Event) -> Option<u16> {
    match e {
        Event::Scored(s) => s.turn.map(|t| t.0),
        Event::TileDiscarded { turn, .. }
        | Event::TileReshuffled { turn, .. }
        | Event::AbbotRecalled { turn, .. }
        | Event::BonusTurn { turn, .. }
        | Event::FollowerReturned { turn, .. } => Some(turn.0),
        _ => None,
    }
}

fn seats(to: carcassonne::Seats, names: &[String]) -> String {
    to.iter().map(|p| names[p.index()].clone()).collect::<Vec<_>>().join(" and ")
}

fn describe(e: &Event, names: &[String]) -> Option<String> {
    Some(match e {
        Event::Scored(s) => {
            let what = match s.kind {
                ScoredKind::Road if s.inn => format!("road of {} tiles with an inn", s.tiles),
                ScoredKind::Road => format!("road of {} tiles", s.tiles),
                ScoredKind::City if s.cathedral => {
                    format!("city of {} tiles and {} shields with a cathedral", s.tiles, s.shields)
                }
                ScoredKind::City => format!("city of {} tiles and {} shields", s.tiles, s.shields),
                ScoredKind::Cloister => "cloister".to_string(),
                ScoredKind::Garden => "garden".to_string(),
                ScoredKind::Farm if s.pig > 0 => {
                    format!("farm feeding {} cities, {} fattened by a pig", s.cities, s.pig)
                }
                ScoredKind::Farm => format!("farm feeding {} cities", s.cities),
                ScoredKind::Goods if s.when == When::Completed => {
                    let kinds = carcassonne::Good::ALL.into_iter().zip(s.goods).filter(|&(_, n)| n > 0);
                    let taken: Vec<String> = kinds.map(|(g, n)| format!("{n} {g}")).collect();
                    return Some(format!("{} takes {}", seats(s.to, names), taken.join(", ")));
                }
                ScoredKind::Goods => {
                    let good = s.good().map_or("goods", |g| g.word());
                    format!("most {good} ({} tokens)", s.good().map_or(0, |g| s.goods[g.index()]))
                }
            };
            let when = if s.when == When::Final { "final: " } else { "" };
            format!("{when}{what}: {} to {}", s.points, seats(s.to, names))
        }
        Event::TileDiscarded { tile, .. } => format!("tile {tile} fits nowhere and is discarded"),
        Event::TileReshuffled { tile, .. } => format!("tile {tile} fits nowhere and goes back into the bag"),
        Event::AbbotRecalled { player, points, .. } => {
            format!("{} recalls the abbot for {points}", names[player.index()])
        }
        Event::BonusTurn { player, .. } => format!("{} filled a hole and plays again", names[player.index()]),
        _ => return None,
    })
}

fn score_line(game: &Game, names: &[String]) -> String {
    game.scores().iter().enumerate().map(|(i, s)| format!("{} {s}", names[i])).collect::<Vec<_>>().join(", ")
}

/// Scores by feature kind and the winners.
fn print_summary(game: &Game, names: &[String]) {
    let table = breakdown(game);
    // The goods column only where goods are played.
    let goods = game.rules().has_goods();
    let column = |text: String| if goods { format!(" {text:>6}") } else { String::new() };
    say!(
        "{:<8} {:>6} {:>6} {:>9} {:>7} {:>6}{} {:>6}",
        "player",
        "roads",
        "cities",
        "cloisters",
        "gardens",
        "farms",
        column("goods".into()),
        "total"
    );
    for (i, row) in table.iter().enumerate() {
        say!(
            "{:<8} {:>6} {:>6} {:>9} {:>7} {:>6}{} {:>6}",
            names[i],
            row[0],
            row[1],
            row[2],
            row[3],
            row[4],
            column(row[5].to_string()),
            game.scores()[i]
        );
    }
    if game.is_over() {
        let w = seats(game.winners(), names);
        let shared = if game.winners().iter().count() > 1 { " (shared victory)" } else { "" };
        say!("winner: {w}{shared}");
    } else {
        let next = game.to_move().map(|p: PlayerId| names[p.index()].clone()).unwrap_or_default();
        say!("unfinished: {} tiles left, {next} to move", game.tiles_left());
    }
}

/// Points per player by kind: roads, cities, cloisters, gardens, farms, goods.
fn breakdown(game: &Game) -> Vec<[u32; 6]> {
    let kinds = [
        ScoredKind::Road,
        ScoredKind::City,
        ScoredKind::Cloister,
        ScoredKind::Garden,
        ScoredKind::Farm,
        ScoredKind::Goods,
    ];
    let mut table = vec![[0u32; 6]; game.num_players()];
    for e in game.events() {
        match e {
            Event::Scored(s) => {
                let k = kinds.iter().position(|&k| k == s.kind).expect("every kind has a column");
                for p in s.to.iter() {
                    table[p.index()][k] += s.points;
                }
            }
            // A recalled abbot's points count with its cloister or garden.
            Event::AbbotRecalled { player, pos, points, .. } => {
                let garden = game.board().tile_at(*pos).is_some_and(|t| !t.tile.def().has_cloister());
                table[player.index()][if garden { 3 } else { 2 }] += points;
            }
            _ => {}
        }
    }
    table
}

fn bot_command(spec: &str) -> Result<()> {
    let spec: carcassonne_ai::BotSpec = spec.parse()?;
    carcassonne_ai::protocol::play_as_bot(&spec, std::io::stdin().lock(), std::io::stdout().lock())?;
    Ok(())
}

/// Every preset and option, from the engine's one description of them.
fn rules_list() -> Result<()> {
    use carcassonne::{OptionKind, Preset, RULE_OPTIONS};
    say!("presets:");
    for p in Preset::ALL {
        say!("  {:<14} {}", p.name(), p.summary());
    }
    say!();
    say!("options (--set OPTION=VALUE; the default is the standard preset's):");
    for o in &RULE_OPTIONS {
        let values = match o.kind {
            OptionKind::Flag => "true | false".to_string(),
            OptionKind::Choice(words) => words.join(" | "),
            OptionKind::Count { min, max } => format!("{min} to {max}"),
            OptionKind::Table { .. } => "none | WxH (odd)".to_string(),
        };
        let needs = o.needs.map(|e| format!(" (only with {e})")).unwrap_or_default();
        say!("  {:<20} {values}; default {}{needs}", o.name, o.default_for(Preset::Standard).text());
        say!("  {:<20} {}", "", o.about);
    }
    Ok(())
}

fn rules_command(code: Option<String>, preset: &str, set: &[String]) -> Result<()> {
    let rules = match code {
        Some(code) => Rules::from_code(&code)?,
        None => {
            let mut spec = preset.to_string();
            for s in set {
                spec.push(',');
                spec.push_str(s);
            }
            Rules::parse(&spec)?
        }
    };
    say!("code: {}", rules.to_code());
    say!("json: {}", serde_json::Value::Object(carcassonne::record::rules_to_json(&rules)));
    say!();
    for line in rules.explain() {
        say!("  {line}");
    }
    Ok(())
}

fn bench(games: u64, players: usize, rules: &str, seed: u64, threads: usize) -> Result<()> {
    let rules = Rules::parse(rules)?;
    Game::new(Setup::standard(rules, players, seed))?;
    let threads = match threads {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    }
    .clamp(1, games as usize);
    let bar = ProgressBar::new(games);
    bar.set_style(ProgressStyle::with_template("{bar:40} {pos}/{len} games  {per_sec}  eta {eta}")?);
    let start = Instant::now();
    // Thread t plays games [t·games/threads, (t+1)·games/threads) with the
    // generator of seed + t: one thread plays exactly the games it always did.
    let totals: Vec<(u64, u64, f64)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads as u64)
            .map(|t| {
                let bar = bar.clone();
                let (from, to) = (t * games / threads as u64, (t + 1) * games / threads as u64);
                scope.spawn(move || {
                    let mut mover = RandomMover::new();
                    let mut rng = seeded_rng(seed.wrapping_add(t));
                    let (mut placed, mut points) = (0u64, 0u64);
                    let chunk = ((to - from) / 200).max(1);
                    // One game's memory, restarted for each game.
                    let mut game = Game::new(Setup::standard(rules, players, seed)).expect("checked above");
                    game.set_event_log(false);
                    for i in from..to {
                        game.restart(Setup::standard(rules, players, seed.wrapping_add(i))).expect("checked above");
                        mover.playout(&mut game, &mut rng);
                        placed += game.moves_played() as u64;
                        points += game.scores().iter().map(|&s| s as u64).sum::<u64>();
                        if (i - from + 1) % chunk == 0 {
                            bar.inc(chunk);
                        }
                    }
                    (placed, points, start.elapsed().as_secs_f64())
                })
            })
            .collect();
        workers.into_iter().map(|w| w.join().expect("a bench thread")).collect()
    });
    let secs = start.elapsed().as_secs_f64();
    bar.finish_and_clear();
    let placed: u64 = totals.iter().map(|t| t.0).sum();
    let points: u64 = totals.iter().map(|t| t.1).sum();
    let rate = games as f64 / secs;
    let on = if threads == 1 { "one thread".to_string() } else { format!("{threads} threads") };
    say!("{games} random {players}-player games ({rules}) in {secs:.2} s on {on}");
    say!("{rate:.0} games/s, {:.2} µs/game, {:.0} ns/move", 1e6 / rate, secs * 1e9 / placed as f64);
    if threads > 1 {
        // Each thread's own pace: its games over its own wall time.
        let per: Vec<String> = totals
            .iter()
            .enumerate()
            .map(|(t, &(_, _, s))| {
                let n = (t as u64 + 1) * games / threads as u64 - t as u64 * games / threads as u64;
                format!("{:.0}", n as f64 / s)
            })
            .collect();
        say!("per thread: {} games/s", per.join(", "));
    }
    say!("mean moves/game {:.1}, mean points/game {:.1}", placed as f64 / games as f64, points as f64 / games as f64);
    std::io::stdout().flush()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_breakdown_adds_up_to_the_scores() {
        for (seed, rules) in [(1, "standard"), (2, "standard,abbot=true,river=true"), (3, "first-edition,abbot=true")] {
            let mut game = Game::new(Setup::standard(Rules::parse(rules).unwrap(), 3, seed)).unwrap();
            RandomMover::new().playout(&mut game, &mut seeded_rng(seed));
            for (row, &score) in breakdown(&game).iter().zip(game.scores()) {
                assert_eq!(row.iter().sum::<u32>(), score, "{rules}");
            }
        }
    }
}

#[cfg(test)]
mod serve_tests {
    use super::*;

    #[test]
    fn operators_are_named_by_repeated_or_comma_separated_admin_flags() {
        let cli = Cli::try_parse_from(["carcassonne", "serve", "--admin", "Ada, Bob", "--admin", "Cy", "--admin", ","])
            .unwrap();
        let Some(Command::Serve(args)) = cli.command else { panic!("serve") };
        assert_eq!(args.admins, ["Ada", " Bob", "Cy", "", ""]);
        let config = args.config().unwrap();
        // (CARCASSONNE_ADMIN, if the environment sets it, comes first.)
        assert!(config.operators.ends_with(&["Ada".to_string(), "Bob".into(), "Cy".into()]), "{:?}", config.operators);
    }
}

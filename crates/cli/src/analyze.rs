//! `carcassonne analyze`: a game review, every move judged by the search
//! (the logic lives in `carcassonne_ai::review`).

use std::path::PathBuf;

use carcassonne::record::RecordMove;
use carcassonne_ai::review::{review, Review, ReviewOptions};
use carcassonne_ai::Budget;
use indicatif::{ProgressBar, ProgressStyle};

#[derive(clap::Args, Debug)]
pub struct AnalyzeArgs {
    /// The game's record (JSON, record.md); `-` reads standard input.
    pub record: PathBuf,
    /// Search per position, e.g. `1s`, `300ms`, `4000it` (an iteration
    /// budget gives the same review every time): half picks the search's
    /// best move, half values it and the move played.
    #[arg(long, default_value = "1s")]
    pub budget: String,
    /// Positions reviewed at once.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Print the review as JSON.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: AnalyzeArgs) -> Result<(), Box<dyn std::error::Error>> {
    let budget: Budget =
        args.budget.parse().map_err(|()| format!("\"{}\" is not a budget (e.g. 1s, 300ms, 4000it)", args.budget))?;
    let (record, _) = crate::load(&args.record)?;
    let options = ReviewOptions { budget, seed: args.seed, threads: args.threads.max(1) };
    // Drawn only when standard error is a terminal.
    let bar = ProgressBar::new(record.moves.len() as u64);
    bar.set_style(
        ProgressStyle::with_template("{elapsed_precise} [{bar:40}] {pos}/{len} moves, eta {eta}")?
            .progress_chars("=> "),
    );
    let reviewed = review(&record, &options, |done, _| bar.set_position(done as u64))?;
    bar.finish_and_clear();
    if args.json {
        say!("{}", serde_json::to_string_pretty(&reviewed)?);
    } else {
        print_review(&reviewed);
    }
    Ok(())
}

/// A move in a few characters: `V 1,0 r1 +W`, `+abbot G`, `+recall`.
pub fn move_text(m: &RecordMove) -> String {
    let mut s = format!("{} {},{} r{}", m.tile, m.at[0], m.at[1], m.rot);
    if let Some(spot) = &m.meeple {
        s.push_str(&format!(" +{spot}"));
    }
    if let Some(spot) = &m.abbot {
        s.push_str(&format!(" +abbot {spot}"));
    }
    if m.recall == Some(true) {
        s.push_str(" +recall");
    }
    s
}

fn print_review(r: &Review) {
    let width = r.players.iter().map(|p| p.chars().count()).max().unwrap_or(6).max(6);
    say!(
        "{:>4}  {:width$}  {:<20}  {:>8}  {:<20}  {:>8}  {:>6}",
        "move",
        "player",
        "played",
        "expected",
        "better was",
        "expected",
        "lost"
    );
    for m in &r.moves {
        let who = r.players.get(m.seat as usize).map_or("?", String::as_str);
        let better = if m.lost > 0.0 { move_text(&m.best) } else { "-".to_string() };
        let better_margin = if m.lost > 0.0 { format!("{:+.1}", m.best_margin) } else { String::new() };
        say!(
            "{:>4}  {:width$}  {:<20}  {:>+8.1}  {:<20}  {:>8}  {:>6.1}",
            m.turn,
            who,
            move_text(&m.played),
            m.played_margin,
            better,
            better_margin,
            m.lost
        );
    }
    say!();
    for (p, lost) in r.players.iter().zip(&r.lost) {
        let moves = r.moves.iter().filter(|m| r.players.get(m.seat as usize) == Some(p)).count();
        say!("{p}: {lost:.1} expected points lost over {moves} moves");
    }
    say!("budget {} per position, {:.1} s", r.budget, r.elapsed_ms as f64 / 1000.0);
}

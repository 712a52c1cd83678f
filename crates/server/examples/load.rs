//! A load test of the online server: many games at once over websockets.
//!
//! ```text
//! cargo run --release -p carcassonne-server --example load -- --games 200 [--moves-per-game N] [--bots B] [--seed S] [--url http://HOST:PORT]
//! ```
//!
//! Without `--url` it starts a server in this process (loopback port, a
//! temporary SQLite file, bots at level `random` with no delay, no rate
//! limits). Each game has one seat played by this client and `--bots`
//! random bots; the client plays a random legal move (seeded) on its turn
//! and times it until the state that includes it comes back. The summary
//! goes to stdout, a progress bar to stderr. Exits 1 if anything failed.

#[path = "../tests/loadgen/mod.rs"]
mod loadgen;

use std::process::ExitCode;

use indicatif::{ProgressBar, ProgressStyle};

fn usage() -> ExitCode {
    eprintln!("usage: load [--games N] [--moves-per-game N] [--bots B] [--seed S] [--url http://HOST:PORT]");
    ExitCode::from(2)
}

#[tokio::main]
async fn main() -> ExitCode {
    let mut opts = loadgen::Options { games: 200, moves_per_game: None, bots: 1, seed: 1 };
    let mut url: Option<String> = None;
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let Some(value) = args.next() else { return usage() };
        let number = || value.parse::<u64>().ok();
        match (flag.as_str(), number()) {
            ("--games", Some(n)) => opts.games = n as usize,
            ("--moves-per-game", Some(n)) => opts.moves_per_game = Some(n as usize),
            ("--bots", Some(n)) if (1..=5).contains(&n) => opts.bots = n as usize,
            ("--seed", Some(n)) => opts.seed = n,
            ("--url", _) => url = Some(value.trim_end_matches('/').to_string()),
            _ => return usage(),
        }
    }
    let (addr, _server) = match &url {
        Some(u) => match u.strip_prefix("http://") {
            Some(a) => (a.to_string(), None),
            None => return usage(),
        },
        None => {
            let (addr, state, db) = loadgen::start_server("load").await;
            eprintln!("server on {addr}, games in {}", db.path().display());
            (addr, Some((state, db)))
        }
    };
    let bar = ProgressBar::new(opts.games as u64);
    bar.set_style(
        ProgressStyle::with_template("{elapsed_precise} [{bar:40}] {pos}/{len} games {per_sec}")
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> "),
    );
    let report = loadgen::run(&addr, &opts, Some(bar.clone())).await;
    bar.finish_and_clear();
    println!("server: {}", url.as_deref().unwrap_or("in-process"));
    println!("bots per game: {} (random)", opts.bots);
    println!("{}", report.summary());
    for e in report.errors.iter().take(10) {
        eprintln!("error: {e}");
    }
    if report.errors.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

//! A load test of the online server: many games at once over websockets.
//!
//! ```text
//! cargo run --release -p carcassonne-server --example load -- --games 200 [--pace-ms 2000] [--ramp-ms MS] [--spectators N]
//!     [--protocol 1|2] [--moves-per-game N] [--bots B] [--seed S] [--url http://HOST:PORT]
//! ```
//!
//! Without `--url` it starts a server in this process (loopback port, a
//! temporary SQLite file, bots at level `random` with no delay, no rate
//! limits). Each game has one seat played by this client and `--bots`
//! random bots; on its turn the client waits `--pace-ms` (2000 by default:
//! a person looking at the board; 0 plays flat out), plays a random legal
//! move (seeded) and times it until the state that includes it comes back.
//! The games start one after the other over `--ramp-ms` (by default one
//! pace: people do not all sit down at once; 0 starts them together).
//! `--spectators N` watches each game on N more sockets. The summary goes
//! to stdout, a progress bar to stderr. Exits 1 if anything failed.
//!
//! `load --serve ADDR` runs only that server, on ADDR, until it is stopped
//! (Ctrl-C or SIGTERM); `load --url http://ADDR …` in another process then plays
//! against it (each process gets its own limit of open files: one process
//! holding both ends of 10,000 sockets would need 20,000) and checks each
//! game's downloadable record. `--limits shipped` (with `--serve`, or
//! without `--url`) gives that server the shipped defaults less the limits
//! per address, which the one address every player here comes from would
//! trip, and a connection cap of `--max-connections` (16,384 by default;
//! the shipped 4,096 is fewer than one socket per game at 10,000 games):
//! each socket's message rate, the sockets per game, the reviews in all and
//! the timeouts stay on. `--limits none` (the default) lifts every limit.

#[path = "../tests/loadgen/mod.rs"]
mod loadgen;

use std::process::ExitCode;

use indicatif::{ProgressBar, ProgressStyle};

/// As the `carcassonne` binary.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn usage() -> ExitCode {
    eprintln!(
        "usage: load [--games N] [--pace-ms MS] [--ramp-ms MS] [--spectators N] [--protocol 1|2] [--moves-per-game N] [--bots B] \
         [--seed S] [--url http://HOST:PORT] [--limits none|shipped] [--max-connections N]\n       \
         load --serve ADDR [--limits none|shipped] [--max-connections N]"
    );
    ExitCode::from(2)
}

#[tokio::main]
async fn main() -> ExitCode {
    let mut opts = loadgen::Options { pace: std::time::Duration::from_secs(2), ..loadgen::Options::new(200) };
    let mut url: Option<String> = None;
    let mut serve: Option<String> = None;
    let mut ramp = None;
    let mut shipped = false;
    let mut max_connections = 16_384;
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let Some(value) = args.next() else { return usage() };
        let number = || value.parse::<u64>().ok();
        match (flag.as_str(), number()) {
            ("--games", Some(n)) => opts.games = n as usize,
            ("--moves-per-game", Some(n)) => opts.moves_per_game = Some(n as usize),
            ("--bots", Some(n)) if (1..=5).contains(&n) => opts.bots = n as usize,
            ("--seed", Some(n)) => opts.seed = n,
            ("--pace-ms", Some(n)) => opts.pace = std::time::Duration::from_millis(n),
            ("--ramp-ms", Some(n)) => ramp = Some(std::time::Duration::from_millis(n)),
            ("--spectators", Some(n)) => opts.spectators = n as usize,
            ("--protocol", Some(n @ 1..=2)) => opts.protocol = n as u8,
            ("--url", _) => url = Some(value.trim_end_matches('/').to_string()),
            ("--serve", _) => serve = Some(value),
            ("--limits", _) if value == "none" || value == "shipped" => shipped = value == "shipped",
            ("--max-connections", Some(n)) if n > 0 => max_connections = n as usize,
            _ => return usage(),
        }
    }
    // By default the games start over one pace (none at once when flat out).
    opts.ramp = ramp.unwrap_or(opts.pace);
    // Every socket is two files here (both ends in one process).
    let _ = rlimit::increase_nofile_limit(1 << 20);
    let config = if shipped { loadgen::shipped(max_connections) } else { loadgen::unlimited() };
    if let Some(addr) = serve {
        let (addr, _state, db) = loadgen::start_server_on("load", &addr, config).await;
        let limits = if shipped { "shipped less per address" } else { "none" };
        eprintln!("server on {addr}, limits {limits}, games in {} (Ctrl-C or SIGTERM stops it)", db.path().display());
        carcassonne_server::shutdown_signal().await;
        return ExitCode::SUCCESS;
    }
    let (addr, _server) = match &url {
        Some(u) => match u.strip_prefix("http://") {
            Some(a) => (a.to_string(), None),
            None => return usage(),
        },
        None => {
            let (addr, state, db) = loadgen::start_server_on("load", "127.0.0.1:0", config).await;
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
    println!(
        "bots per game: {} (random); pace {} ms; games started over {} ms; {} spectators per game; protocol {}",
        opts.bots,
        opts.pace.as_millis(),
        opts.ramp.as_millis(),
        opts.spectators,
        opts.protocol
    );
    println!("{}", report.summary());
    let mut report = report;
    // Nothing lost: what the client saw is stored, and every record replays.
    let wrong = match &_server {
        Some((state, _)) => loadgen::verify(state.store(), &report).await,
        None => loadgen::verify_remote(&addr, &report).await,
    };
    println!("stored games checked: {} ({} wrong; every record replayed)", report.games.len(), wrong.len());
    report.errors.extend(wrong);
    for e in report.errors.iter().take(10) {
        eprintln!("error: {e}");
    }
    if report.errors.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

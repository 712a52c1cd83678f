//! The arena: bots play each other in paired games and the results are
//! summed up with their uncertainty.
//!
//! With `n` bots, each deal (a tile order drawn from the run's seed) is
//! played `n` times, the seats rotated one step each time, so that every bot
//! plays every seat with the same tiles: with two bots, the same tile order
//! twice with the seats swapped. The luck of the draw then cancels within a
//! deal, which is why the margin's interval is computed over deals (the
//! mean over a deal's seatings is one observation).
//!
//! Besides the bots of this crate, a contestant may be a program that
//! speaks the bot protocol (`cmd:python3 my_bot.py`, docs/bot-protocol.md):
//! each game starts its own process per seat. A program that answers late,
//! illegally, with garbage or not at all forfeits that game: it loses it,
//! the others share the win, and the report counts and lists the forfeits.
//!
//! Every move goes through the engine's checked [`Game::play`]: one of this
//! crate's bots that answers an illegal move stops the run with an error.

use std::fmt;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

mod report;
pub use report::{pool_files, BotReport, ForfeitNote, PoolError, Report};

use carcassonne::{Game, IllegalMove, PlayerId, Rules, Setup, View};

use crate::bot::{Bot, BotSpec};
use crate::external::{BotCommand, BotFailure, BotProcess, Limits};
use crate::protocol::Forfeited;
use crate::seed::derive;

/// A player in the arena: one of this crate's bots, or a program that
/// speaks the bot protocol.
#[derive(Clone, Debug, PartialEq)]
pub enum Contestant {
    Bot(BotSpec),
    /// `cmd:<command line>`: started once per game and seat.
    Command(BotCommand),
}

impl fmt::Display for Contestant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Contestant::Bot(spec) => spec.fmt(f),
            Contestant::Command(c) => write!(f, "cmd:{c}"),
        }
    }
}

impl std::str::FromStr for Contestant {
    type Err = Box<dyn std::error::Error + Send + Sync>;

    /// A bot spec (`mcts:1s`, `greedy`…) or `cmd:` and a command line.
    fn from_str(s: &str) -> Result<Contestant, Self::Err> {
        match s.trim().strip_prefix("cmd:") {
            Some(line) => Ok(Contestant::Command(line.parse()?)),
            None => Ok(Contestant::Bot(s.parse::<BotSpec>()?)),
        }
    }
}

impl From<BotSpec> for Contestant {
    fn from(spec: BotSpec) -> Contestant {
        Contestant::Bot(spec)
    }
}

/// Parses a comma-separated list of contestants (`cmd:python3 bot.py,mcts:1s`);
/// a command line may not contain a comma.
///
/// # Errors
/// The first one that could not be read.
pub fn parse_contestants(list: &str) -> Result<Vec<Contestant>, Box<dyn std::error::Error + Send + Sync>> {
    list.split(',').filter(|s| !s.trim().is_empty()).map(str::parse).collect()
}

/// What to play.
#[derive(Clone, Debug)]
pub struct ArenaOptions {
    /// One contestant per seat (2–6).
    pub bots: Vec<Contestant>,
    /// Games to play, rounded up to whole deals (a multiple of the bot count).
    pub games: usize,
    pub rules: Rules,
    /// Seed of the deals and of the bots.
    pub seed: u64,
    /// Games played at once (each bot itself uses the threads its spec asks for).
    pub threads: usize,
    /// Time and limits for the programs (`cmd:`); the other bots keep their own budgets.
    pub limits: Limits,
}

impl ArenaOptions {
    /// Options from their text forms: bot specs (`mcts:1s,greedy`) and a
    /// rule set (`first-edition,small_city=false`).
    ///
    /// # Errors
    /// A bot spec or rule set that could not be read, or a bot count
    /// outside 2–6.
    pub fn parse(
        bots: &str,
        games: usize,
        rules: &str,
        seed: u64,
        threads: usize,
    ) -> Result<ArenaOptions, Box<dyn std::error::Error + Send + Sync>> {
        let bots = parse_contestants(bots)?;
        if !(2..=carcassonne::MAX_PLAYERS).contains(&bots.len()) {
            return Err(ArenaError::BotCount(bots.len()).into());
        }
        let rules = Rules::parse(rules)?;
        Ok(ArenaOptions { bots, games, rules, seed, threads: threads.max(1), limits: Limits::default() })
    }

    pub fn deals(&self) -> usize {
        self.games.div_ceil(self.bots.len().max(1))
    }

    pub fn total_games(&self) -> usize {
        self.deals() * self.bots.len()
    }
}

/// One finished game.
#[derive(Clone, Debug, PartialEq)]
pub struct GameResult {
    /// Index in the run: `deal * bots + rotation`.
    pub index: usize,
    pub deal: usize,
    /// The bot (index into the options' list) in each seat.
    pub seats: Vec<usize>,
    /// Final scores by seat.
    pub scores: Vec<u32>,
    /// Per bot: moves made, total and longest thinking time.
    pub moves: Vec<(u32, Duration, Duration)>,
    /// The bot that lost this game by forfeit, and why.
    pub forfeit: Option<Forfeit>,
}

/// A game lost by a program that did not answer a legal move in time.
#[derive(Clone, Debug, PartialEq)]
pub struct Forfeit {
    /// The bot (index into the options' list).
    pub bot: usize,
    pub seat: usize,
    /// The move it was asked for (1-based).
    pub turn: u16,
    pub failure: BotFailure,
}

impl GameResult {
    /// The seat bot `b` played.
    pub fn seat_of(&self, b: usize) -> usize {
        self.seats.iter().position(|&x| x == b).expect("every bot has a seat")
    }

    /// Bot `b`'s share of the win: 1 alone on top, 1/k when k seats tie,
    /// else 0. A forfeit is a loss, and the others share the win.
    pub fn win_share(&self, b: usize) -> f64 {
        if let Some(f) = &self.forfeit {
            return if f.bot == b { 0.0 } else { 1.0 / (self.seats.len() - 1) as f64 };
        }
        let best = self.scores.iter().copied().max().unwrap_or(0);
        let tied = self.scores.iter().filter(|&&s| s == best).count();
        if self.scores[self.seat_of(b)] == best {
            1.0 / tied as f64
        } else {
            0.0
        }
    }

    /// Bot `b`'s score minus the best other score.
    pub fn margin(&self, b: usize) -> f64 {
        let seat = self.seat_of(b);
        let other = self.scores.iter().enumerate().filter(|&(s, _)| s != seat).map(|(_, &x)| x).max().unwrap_or(0);
        self.scores[seat] as f64 - other as f64
    }
}

/// Why a run stopped.
#[derive(Clone, Debug, PartialEq)]
pub enum ArenaError {
    /// Fewer than 2 or more than 6 bots.
    BotCount(usize),
    /// No games asked for.
    NoGames,
    /// A bot answered an illegal move.
    IllegalMove { bot: String, game: usize, error: IllegalMove },
    /// A bot gave no move in a game that was not over.
    NoMove { bot: String, game: usize },
    /// A program (`cmd:`) could not start, shake hands or play the rules.
    Program { bot: String, failure: BotFailure },
}

impl fmt::Display for ArenaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ArenaError::BotCount(n) => write!(f, "the arena needs 2 to 6 bots, not {n}"),
            ArenaError::NoGames => write!(f, "no games to play"),
            ArenaError::IllegalMove { bot, game, error } => {
                write!(f, "bot {bot} played an illegal move in game {game}: {error}")
            }
            ArenaError::NoMove { bot, game } => write!(f, "bot {bot} gave no move in game {game}"),
            ArenaError::Program { bot, failure } => write!(f, "bot {bot} {failure}"),
        }
    }
}

impl std::error::Error for ArenaError {}

/// Plays game `index` of the run.
///
/// # Errors
/// A bot's illegal move or missing move.
pub fn play_game(options: &ArenaOptions, index: usize) -> Result<GameResult, ArenaError> {
    let n = options.bots.len();
    let deal = index / n;
    let rotation = index % n;
    let seats: Vec<usize> = (0..n).map(|s| (s + rotation) % n).collect();
    let mut game = Game::new(Setup::standard(options.rules, n, derive(options.seed, &[deal as u64])))
        .expect("a standard setup for 2–6 players");
    let names: Vec<String> = seats.iter().map(|&b| options.bots[b].to_string()).collect();
    let mut forfeit = None;
    let mut bots: Vec<Player> = Vec::with_capacity(n);
    for (s, &b) in seats.iter().enumerate() {
        bots.push(match &options.bots[b] {
            Contestant::Bot(spec) => {
                Player::Bot(spec.build(derive(options.seed, &[deal as u64, rotation as u64, b as u64, 1])))
            }
            Contestant::Command(cmd) => {
                match BotProcess::spawn(cmd, options.limits)
                    .and_then(|mut p| p.new_game(&index.to_string(), &options.rules, &names, s as u8).map(|()| p))
                {
                    Ok(p) => Player::Program(Box::new(p)),
                    Err(failure) => {
                        forfeit.get_or_insert(Forfeit { bot: b, seat: s, turn: 1, failure });
                        Player::Failed
                    }
                }
            }
        });
    }
    let mut moves = vec![(0u32, Duration::ZERO, Duration::ZERO); n];
    while let (None, Some(seat)) = (&forfeit, game.to_move()) {
        let s = seat.index();
        let b = seats[s];
        let turn = game.moves_played() + 1;
        let started = Instant::now();
        let view = View::new(&game, seat);
        let mv = match &mut bots[s] {
            Player::Bot(bot) => bot.choose(&view),
            Player::Program(p) => match p.decide(&view) {
                Ok(mv) => Some(mv),
                Err(failure) => {
                    forfeit = Some(Forfeit { bot: b, seat: s, turn, failure });
                    break;
                }
            },
            Player::Failed => unreachable!("a failed program ends the game"),
        };
        let took = started.elapsed();
        let Some(mv) = mv else {
            return Err(ArenaError::NoMove { bot: options.bots[b].to_string(), game: index });
        };
        game.play(&mv).map_err(|error| ArenaError::IllegalMove {
            bot: options.bots[b].to_string(),
            game: index,
            error,
        })?;
        for p in &mut bots {
            if let Player::Program(p) = p {
                p.played(turn, seat.0, &mv, game.scores());
            }
        }
        let m = &mut moves[b];
        m.0 += 1;
        m.1 += took;
        m.2 = m.2.max(took);
    }
    let result = GameResult { index, deal, seats, scores: game.scores().to_vec(), moves, forfeit };
    let winners: Vec<u8> = (0..n).filter(|&s| result.win_share(result.seats[s]) > 0.0).map(|s| s as u8).collect();
    let told = result.forfeit.as_ref().map(|f| Forfeited { seat: f.seat as u8, reason: f.failure.to_string() });
    for p in &mut bots {
        if let Player::Program(p) = p {
            p.game_over(&result.scores, &winners, told.clone());
        }
    }
    Ok(result)
}

/// Who plays a seat in one game.
enum Player {
    Bot(Box<dyn Bot>),
    Program(Box<BotProcess>),
    /// A program that could not start the game (it has forfeited).
    Failed,
}

/// Starts each program once to check that it shakes hands and plays the rules.
///
/// # Errors
/// The first program that does not.
pub fn check_programs(options: &ArenaOptions) -> Result<(), ArenaError> {
    for c in &options.bots {
        if let Contestant::Command(cmd) = c {
            let program = BotProcess::spawn(cmd, options.limits)
                .map_err(|failure| ArenaError::Program { bot: c.to_string(), failure })?;
            if let Err(option) = crate::protocol::FromBot::supports(&program.info().rules, &options.rules) {
                return Err(ArenaError::Program { bot: c.to_string(), failure: BotFailure::Unsupported(option) });
            }
        }
    }
    Ok(())
}

/// Plays the whole run, `options.threads` games at a time, calling
/// `on_game` (on this thread) as each game ends, and sums it up.
///
/// # Errors
/// Bad options, or the first bot error (the run stops there).
pub fn run(options: &ArenaOptions, mut on_game: impl FnMut(&GameResult)) -> Result<Report, ArenaError> {
    let n = options.bots.len();
    if !(2..=carcassonne::MAX_PLAYERS).contains(&n) {
        return Err(ArenaError::BotCount(n));
    }
    if options.games == 0 {
        return Err(ArenaError::NoGames);
    }
    check_programs(options)?;
    let total = options.total_games();
    let started = Instant::now();
    let next = AtomicUsize::new(0);
    let stop = std::sync::atomic::AtomicBool::new(false);
    let (tx, rx) = mpsc::channel();
    let mut results: Vec<GameResult> = Vec::with_capacity(total);
    let mut error = None;
    std::thread::scope(|s| {
        for _ in 0..options.threads.clamp(1, total) {
            let tx = tx.clone();
            let (next, stop) = (&next, &stop);
            s.spawn(move || loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= total || stop.load(Ordering::Relaxed) {
                    break;
                }
                let r = play_game(options, i);
                if r.is_err() {
                    stop.store(true, Ordering::Relaxed);
                }
                if tx.send(r).is_err() {
                    break;
                }
            });
        }
        drop(tx);
        for r in rx {
            match r {
                Ok(g) => {
                    on_game(&g);
                    results.push(g);
                }
                Err(e) => {
                    error.get_or_insert(e);
                }
            }
        }
    });
    if let Some(e) = error {
        return Err(e);
    }
    results.sort_by_key(|g| g.index);
    Ok(Report::new(options, &results, started.elapsed()))
}

/// Plays the run with a progress bar on standard error (hidden when
/// standard error is not a terminal or `show` is false).
///
/// # Errors
/// As [`run`].
pub fn run_with_progress(options: &ArenaOptions, show: bool) -> Result<Report, ArenaError> {
    use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
    let bar = ProgressBar::with_draw_target(
        Some(options.total_games() as u64),
        if show { ProgressDrawTarget::stderr() } else { ProgressDrawTarget::hidden() },
    );
    bar.set_style(
        ProgressStyle::with_template("{elapsed_precise} [{bar:40}] {pos}/{len} games, eta {eta}  {msg}")
            .expect("a valid template")
            .progress_chars("=> "),
    );
    let first = options.bots[0].to_string();
    let (mut share, mut played) = (0.0, 0usize);
    let report = run(options, |g| {
        share += g.win_share(0);
        played += 1;
        bar.set_message(format!("{first} wins {:.1}%", 100.0 * share / played as f64));
        bar.inc(1);
    });
    bar.finish_and_clear();
    report
}

/// A convenience for callers: the seat `p`'s bot in a result.
pub fn bot_in_seat(result: &GameResult, p: PlayerId) -> usize {
    result.seats[p.index()]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result(seats: Vec<usize>, scores: Vec<u32>) -> GameResult {
        let n = seats.len();
        GameResult {
            index: 0,
            deal: 0,
            seats,
            scores,
            moves: vec![(1, Duration::ZERO, Duration::ZERO); n],
            forfeit: None,
        }
    }

    #[test]
    fn wins_ties_and_margins() {
        let g = result(vec![1, 0], vec![80, 70]);
        assert_eq!((g.win_share(1), g.win_share(0)), (1.0, 0.0));
        assert_eq!((g.margin(1), g.margin(0)), (10.0, -10.0));
        let t = result(vec![0, 1, 2], vec![50, 50, 20]);
        assert_eq!((t.win_share(0), t.win_share(1), t.win_share(2)), (0.5, 0.5, 0.0));
        assert_eq!(t.margin(2), -30.0);
    }

    #[test]
    fn a_forfeit_is_a_loss_and_the_others_share_the_win() {
        let mut g = result(vec![0, 1, 2], vec![50, 10, 20]);
        g.forfeit = Some(Forfeit { bot: 0, seat: 0, turn: 7, failure: BotFailure::Late(Duration::from_secs(1)) });
        assert_eq!((g.win_share(0), g.win_share(1), g.win_share(2)), (0.0, 0.5, 0.5));
        assert_eq!(g.margin(0), 30.0, "margins are those of the scores when it stopped");
        assert_eq!(
            "cmd:python3 'my bot.py' -x".parse::<Contestant>().unwrap().to_string(),
            "cmd:python3 'my bot.py' -x"
        );
        let Ok(Contestant::Command(c)) = "cmd:python3 'my bot.py' -x".parse() else { panic!() };
        assert_eq!((c.program.as_str(), c.args.clone()), ("python3", vec!["my bot.py".to_string(), "-x".to_string()]));
        assert!("cmd:".parse::<Contestant>().is_err());
        assert_eq!(parse_contestants("cmd:./bot --fast,mcts:1s").unwrap().len(), 2);
    }

    #[test]
    fn a_paired_run_plays_every_seating_of_every_deal() {
        let options = ArenaOptions {
            bots: vec![BotSpec::Random.into(), BotSpec::Greedy.into()],
            games: 3,
            rules: Rules::default(),
            seed: 11,
            threads: 2,
            limits: Limits::default(),
        };
        let mut seen = Vec::new();
        let report = run(&options, |g| seen.push((g.deal, g.seats.clone()))).unwrap();
        seen.sort();
        assert_eq!(seen, vec![(0, vec![0, 1]), (0, vec![1, 0]), (1, vec![0, 1]), (1, vec![1, 0])]);
        assert_eq!((report.games, report.deals), (4, 2));
        let shares: f64 = report.bots.iter().map(|b| b.win.rate).sum();
        assert!((shares - 1.0).abs() < 1e-12);
        assert_eq!(report.bots[0].margin.mean, -report.bots[1].margin.mean);
        // The same seed gives the same games.
        let again = run(&ArenaOptions { threads: 1, ..options }, |_| {}).unwrap();
        assert_eq!(
            report.bots.iter().map(|b| (b.wins, b.margin.mean)).collect::<Vec<_>>(),
            again.bots.iter().map(|b| (b.wins, b.margin.mean)).collect::<Vec<_>>()
        );
    }
}

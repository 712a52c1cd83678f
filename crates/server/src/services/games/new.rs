//! A new game: the new-game form, the seats it makes, the checks a game
//! passes before it is stored (the programs seated play its rules; a rated
//! game may be one).

use std::sync::Arc;

use carcassonne::record::{Record, ReplayError, Replayer};
use carcassonne::{Game, PlayerId, Rules};
use serde_json::{Map, Value};

use super::clock::ClockState;
use super::live::Live;
use crate::bots::{BotLevel, ExternalBot};
use crate::error::ApiError;
use crate::names::{clean_name, name_key};
use crate::services::ids::{new_token, now_ms};
use crate::store::{hash_token, Account, Progress, Seat};

/// A seat as the new-game form asks for it.
#[derive(Clone, Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeatRequest {
    pub kind: String,
    #[serde(default)]
    pub name: Option<String>,
    #[serde(default)]
    pub level: Option<String>,
}

/// The new-game form.
#[derive(Clone, Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreateRequest {
    pub seats: Vec<SeatRequest>,
    #[serde(default)]
    pub rules: Option<Map<String, Value>>,
    /// Listed for everyone to watch (otherwise only those who hold a seat
    /// see it in their list).
    #[serde(default)]
    pub public: bool,
    /// A rated game (docs/web.md, *Ratings and profiles*): the creator
    /// signed in, the rules a preset, every bot a rated level.
    #[serde(default)]
    pub rated: bool,
    /// Chat turned off for everyone in this game (services/chat.rs).
    #[serde(default)]
    pub chat_off: bool,
    /// The time control (services/games/clock.rs `TimeControl`); none by default.
    #[serde(default)]
    pub clock: Option<Value>,
    /// Minutes a seat to move must have been away before the others may
    /// hand it to a bot (default 5).
    #[serde(default)]
    pub away_minutes: Option<u32>,
}

/// A seat's token as handed out when the game is created (and never again:
/// the server keeps only its hash).
#[derive(Clone, Debug)]
pub struct SeatToken {
    pub seat: PlayerId,
    pub token: String,
    /// An invited seat (played from another device), not one for the creator.
    pub remote: bool,
}

/// A new game's id and the tokens of its human seats.
#[derive(Clone)]
pub struct Created {
    pub live: Arc<Live>,
    pub tokens: Vec<SeatToken>,
}

/// Names bots get when the form leaves them blank.
pub(crate) const BOT_NAMES: [&str; 6] = ["Aldric", "Beatrix", "Cedric", "Isolde", "Godfrey", "Matilda"];

/// The seats of a new-game form: each person's seat with a fresh token
/// (handed back once; the seat keeps its hash), the creator's first seat at
/// their screen linked to their `account`, names cleaned and told apart.
///
/// # Errors
/// `bad_request`: seats, names or levels the form cannot have.
pub fn seats_of(
    req: &CreateRequest,
    account: Option<&Account>,
    programs: &[ExternalBot],
) -> Result<(Vec<Seat>, Vec<SeatToken>), ApiError> {
    if !(2..=carcassonne::MAX_PLAYERS).contains(&req.seats.len()) {
        return Err(ApiError::BadRequest(format!(
            "a game has 2 to {} seats, not {}",
            carcassonne::MAX_PLAYERS,
            req.seats.len()
        )));
    }
    // Names as given, cleaned; two seats may not share one.
    let given: Vec<Option<String>> = req.seats.iter().map(|s| s.name.as_deref().and_then(clean_name)).collect();
    let mut taken: Vec<String> = Vec::new();
    for (i, name) in given.iter().enumerate() {
        let Some(name) = name else { continue };
        let key = name_key(name);
        if let Some(j) = given[..i].iter().position(|n| n.as_deref().map(name_key).as_ref() == Some(&key)) {
            return Err(ApiError::BadRequest(format!(
                "seat {}: \"{name}\" is already the name of seat {}",
                i + 1,
                j + 1
            )));
        }
        taken.push(key);
    }
    // A default name no seat has taken.
    let mut default_name = |first: String| {
        let name = (1..).map(|k| if k == 1 { first.clone() } else { format!("{first} {k}") });
        let name = name.into_iter().find(|n| !taken.contains(&name_key(n))).unwrap_or(first);
        taken.push(name_key(&name));
        name
    };
    let mut seats = Vec::with_capacity(req.seats.len());
    let mut tokens = Vec::new();
    for (i, s) in req.seats.iter().enumerate() {
        let seat = match s.kind.as_str() {
            kind @ ("human" | "remote") => {
                let token = new_token()?;
                let remote = kind == "remote";
                let token_hash = hash_token(&token);
                tokens.push(SeatToken { seat: PlayerId(i as u8), token, remote });
                // The creator's own seat: the first at their screen.
                let mine =
                    account.filter(|_| !remote && !tokens.iter().any(|t: &SeatToken| !t.remote && t.seat.index() < i));
                Seat::Human {
                    name: given[i].clone().unwrap_or_else(|| default_name(format!("Player {}", i + 1))),
                    token_hash,
                    remote,
                    account: mine.map(|a| a.id.clone()),
                }
            }
            "bot" => {
                let level = match s.level.as_deref() {
                    None => BotLevel::Normal,
                    Some(l) => BotLevel::named(l, programs)
                        .ok_or_else(|| ApiError::BadRequest(format!("seat {}: unknown bot level \"{l}\"", i + 1)))?,
                };
                Seat::Bot {
                    name: given[i].clone().unwrap_or_else(|| default_name(BOT_NAMES[i % BOT_NAMES.len()].into())),
                    level,
                }
            }
            other => {
                return Err(ApiError::BadRequest(format!(
                    "seat {}: kind must be \"human\", \"remote\" or \"bot\", not \"{other}\"",
                    i + 1
                )))
            }
        };
        seats.push(seat);
    }
    Ok((seats, tokens))
}

/// The progress a listing shows after a move.
pub fn progress_of(game: &Game, seats: &[Seat]) -> Progress {
    Progress {
        finished: game.is_over(),
        scores: game.scores().to_vec(),
        to_move: game.to_move().map(|p| p.0),
        winners: game.winners().iter().map(|p| p.0).collect(),
        at: now_ms(),
        bot_turn: game.to_move().and_then(|p| seats.get(p.index())).is_some_and(|s| s.bot_level().is_some()),
        aborted: false,
    }
}

/// The progress a listing shows after a move or an ending, the clocks'
/// say included: an aborted game has no one to move; one ended as it
/// stood is finished; a seat that resigned is never among the winners.
pub fn progress_with(game: &Game, seats: &[Seat], clock: Option<&ClockState>) -> Progress {
    let mut p = progress_of(game, seats);
    let Some(c) = clock else { return p };
    if c.aborted {
        return Progress { to_move: None, bot_turn: false, aborted: true, ..p };
    }
    if c.ended {
        p.finished = true;
        p.to_move = None;
        p.bot_turn = false;
    }
    if p.finished {
        p.winners = c.winners(game.scores());
    }
    p
}

/// Whether a game may be rated: the creator signed in, seated once at
/// their screen (everyone else is invited, and links their seat by
/// signing in), the rules a preset without house rules, every bot a rated
/// level.
///
/// # Errors
/// `not_ratable`, saying why.
pub fn check_rated(seats: &[Seat], rules: &Rules, account: Option<&Account>) -> Result<(), ApiError> {
    let refuse = |why: &str| Err(ApiError::NotRatable(why.into()));
    if account.is_none() {
        return refuse("sign in to play a rated game");
    }
    let here = seats.iter().filter(|s| matches!(s, Seat::Human { remote: false, .. })).count();
    if here != 1 {
        return refuse("a rated game seats you once: invite the other people to their own seats");
    }
    // As lichess never rates a game against the computer: people only.
    if let Some(i) = seats.iter().position(|s| s.bot_level().is_some()) {
        return refuse(&format!("seat {}: rated games are between people; a game against a bot is never rated", i + 1));
    }
    if *rules != Rules::preset(rules.preset) {
        return refuse("rated games are played by a preset's rules, without house rules");
    }
    Ok(())
}

/// Whether every program seated plays `rules`.
///
/// # Errors
/// Which seat's program does not, and the option it lacks.
pub fn check_rules(seats: &[Seat], rules: &Rules, programs: &[ExternalBot]) -> Result<(), String> {
    for (i, seat) in seats.iter().enumerate() {
        if let Some(BotLevel::External(name)) = seat.bot_level() {
            if let Some(Err(option)) = programs.iter().find(|p| p.name == name).map(|p| p.supports(rules)) {
                return Err(format!("seat {}: the bot {name} does not play the rule option {option}", i + 1));
            }
        }
    }
    Ok(())
}

/// A stored game rebuilt: its record's setup with the live bag's seed, then
/// every move, checked.
///
/// # Errors
/// The record does not replay.
pub fn rebuild(record: &Record, live_seed: Option<u64>) -> Result<Game, ReplayError> {
    let mut setup = record.setup()?;
    setup.live_seed = live_seed;
    let mut replay = Replayer::new(setup)?;
    replay.run(&record.moves)?;
    Ok(replay.finish())
}

//! Game records (record.md): the JSON form of a whole game, read, written and
//! replayed, and the `score` output built from a replay.
//!
//! Reading is two steps, as with chess notation: the text is parsed into a
//! [`Record`] (plain data, any values), then [`Record::replay`] checks it
//! against the rules move by move.
//!
//! ```
//! use carcassonne::record::Record;
//!
//! let text = r#"{ "format": 1, "rules": { "preset": "standard" }, "players": ["Ada", "Bob"],
//!                 "deck": ["E"], "moves": [ { "tile": "E", "at": [0, -1], "rot": 2, "meeple": "S" } ] }"#;
//! let record = Record::from_json(text).unwrap();
//! let game = record.replay().unwrap();
//! assert_eq!(game.scores(), &[4, 0]); // a two-tile city, completed with a knight in it
//! ```

use std::fmt::{self, Write as _};

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::deck::Setup;
use crate::error::{IllegalMove, SetupError};
use crate::event::{Event, PlayerId, Scoring};
use crate::game::{Action, Bonus, Game, Move};
use crate::geom::{Pos, Rotation, Spot};
use crate::rules::{OptionKind, OptionValue, Preset, RuleOption, Rules, RulesError};
use crate::tile::TileId;

/// A game record as written in JSON: unchecked data.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Record {
    pub format: u32,
    #[serde(default)]
    pub rules: Map<String, Value>,
    pub players: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start: Option<RecordStart>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deck: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    #[serde(default)]
    pub moves: Vec<RecordMove>,
}

/// The start tile of a record.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordStart {
    pub tile: String,
    #[serde(default)]
    pub rot: u8,
}

/// One move of a record.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordMove {
    pub tile: String,
    pub at: [i32; 2],
    pub rot: u8,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub meeple: Option<String>,
    /// The big follower's spot (Inns & Cathedrals).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub big: Option<String>,
    /// The builder's spot, a road or city (Traders & Builders).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub builder: Option<String>,
    /// The pig's spot, a field (Traders & Builders).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pig: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub abbot: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub recall: Option<bool>,
    /// `"builder"` on the builder's extra tile, required exactly there
    /// (expansions.md §6).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bonus: Option<String>,
}

/// What is wrong with a record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordError {
    /// The text is not a record (JSON syntax, missing or mistyped fields).
    Syntax(String),
    /// A format other than 1.
    Format(u32),
    UnknownTile(String),
    Rules(RulesError),
    Setup(SetupError),
    /// Neither `deck` nor `seed`.
    NoDeck,
    /// A move that is not well formed (bad rotation, unknown spot, two actions…).
    BadMove(String),
    /// A well-formed move the rules do not allow.
    Illegal(IllegalMove),
}

impl RecordError {
    /// A stable code for the error (the illegal move's own code for rule breaks).
    pub fn code(&self) -> &'static str {
        match self {
            RecordError::Syntax(_) => "bad_json",
            RecordError::Format(_) => "bad_format",
            RecordError::UnknownTile(_) => "unknown_tile",
            RecordError::Rules(_) => "bad_rules",
            RecordError::Setup(e) => e.code(),
            RecordError::NoDeck => "no_deck",
            RecordError::BadMove(_) => "bad_move",
            RecordError::Illegal(e) => e.code(),
        }
    }
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordError::Syntax(m) => write!(f, "not a game record: {m}"),
            RecordError::Format(n) => write!(f, "format {n} is not supported (only format 1)"),
            RecordError::UnknownTile(t) => write!(f, "unknown tile id \"{t}\""),
            RecordError::Rules(e) => e.fmt(f),
            RecordError::Setup(e) => e.fmt(f),
            RecordError::NoDeck => write!(f, "the record has neither a deck nor a seed"),
            RecordError::BadMove(m) => f.write_str(m),
            RecordError::Illegal(e) => e.fmt(f),
        }
    }
}

/// A record error and where it is: a 1-based move, or the record as a whole.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplayError {
    pub move_no: Option<usize>,
    pub error: RecordError,
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.move_no {
            Some(n) => write!(f, "move {n}: {}", self.error),
            None => write!(f, "record: {}", self.error),
        }
    }
}

impl std::error::Error for ReplayError {}

impl ReplayError {
    /// The rule the refused move breaks, when the rules refused it (not
    /// when the record is malformed): its code is [`IllegalMove::code`].
    pub fn rule(&self) -> Option<&IllegalMove> {
        match &self.error {
            RecordError::Illegal(e) => Some(e),
            _ => None,
        }
    }
}

fn at_record(error: RecordError) -> ReplayError {
    ReplayError { move_no: None, error }
}

fn tile_id(name: &str) -> Result<TileId, RecordError> {
    TileId::from_name(name).ok_or_else(|| RecordError::UnknownTile(name.to_string()))
}

/// Reads the `rules` object of a record: a preset (default `standard`) and
/// any option of rules.md, with JSON types (`"farms": "per-city"`,
/// `"hand": 2`, `"board_limit": [7, 5]`, `"river": true`).
///
/// # Errors
/// An unknown preset or option, a value of the wrong type, or options that
/// do not fit together.
pub fn rules_from_json(obj: &Map<String, Value>) -> Result<Rules, RulesError> {
    let mut rules = match obj.get("preset") {
        None => Rules::default(),
        Some(Value::String(p)) => {
            Rules::preset(Preset::from_name(p).ok_or_else(|| RulesError::UnknownPreset(p.clone()))?)
        }
        Some(v) => return Err(RulesError::UnknownPreset(v.to_string())),
    };
    for (key, value) in obj.iter().filter(|(k, _)| *k != "preset") {
        let option = RuleOption::named(key).ok_or_else(|| RulesError::UnknownOption(key.clone()))?;
        let bad = || RulesError::BadValue { option: key.clone(), value: value.to_string() };
        let value = match (option.kind, value) {
            (OptionKind::Flag, Value::Bool(b)) => OptionValue::Flag(*b),
            (OptionKind::Choice(_), Value::String(s)) => option.parse(s)?,
            (OptionKind::Count { .. }, Value::Number(n)) => option.parse(&n.to_string())?,
            (OptionKind::Table { .. }, Value::Null) => OptionValue::Table(None),
            (OptionKind::Table { .. }, Value::Array(a)) => match a.as_slice() {
                [Value::Number(w), Value::Number(h)] => option.parse(&format!("{w}x{h}"))?,
                _ => return Err(bad()),
            },
            _ => return Err(bad()),
        };
        option.set(&mut rules, value);
    }
    rules.check_named(obj.keys().map(String::as_str))?;
    rules.validate()?;
    Ok(rules)
}

/// An option's value as the record's JSON writes it: `true`, `"per-city"`,
/// `2`, `[7, 5]` or `null`.
pub fn option_json(value: OptionValue) -> Value {
    match value {
        OptionValue::Flag(b) => Value::from(b),
        OptionValue::Choice(w) => Value::from(w),
        OptionValue::Count(n) => Value::from(n),
        OptionValue::Table(Some((w, h))) => Value::from(vec![w, h]),
        OptionValue::Table(None) => Value::Null,
    }
}

/// The `rules` object for a rule set: the preset plus every option that differs from it.
pub fn rules_to_json(rules: &Rules) -> Map<String, Value> {
    let mut m = Map::new();
    m.insert("preset".into(), Value::from(rules.preset.name()));
    for option in rules.changed_options() {
        m.insert(option.name.into(), option_json(option.value(rules)));
    }
    m
}

impl Record {
    /// Parses a record's text.
    ///
    /// # Errors
    /// Invalid JSON or fields of the wrong shape; a malformed move is named
    /// by its 1-based number.
    pub fn from_json(text: &str) -> Result<Record, ReplayError> {
        serde_json::from_str(text).map_err(|e| {
            // Name the move when one entry of `moves` is what is wrong.
            let doc: Option<Value> = serde_json::from_str(text).ok();
            let moves = doc.as_ref().and_then(|d| d.get("moves")).and_then(Value::as_array);
            let bad = moves.and_then(|ms| {
                ms.iter()
                    .enumerate()
                    .find_map(|(i, m)| serde_json::from_value::<RecordMove>(m.clone()).err().map(|e| (i + 1, e)))
            });
            match bad {
                Some((n, e)) => ReplayError { move_no: Some(n), error: RecordError::BadMove(e.to_string()) },
                None => at_record(RecordError::Syntax(e.to_string())),
            }
        })
    }

    /// The record as pretty JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a record serialises")
    }

    /// The setup a record describes.
    ///
    /// # Errors
    /// A bad format, rule set, tile id, player count or deck.
    pub fn setup(&self) -> Result<Setup, ReplayError> {
        if self.format != 1 {
            return Err(at_record(RecordError::Format(self.format)));
        }
        let rules = rules_from_json(&self.rules).map_err(|e| at_record(RecordError::Rules(e)))?;
        let players = self.players.len();
        // Without `start`, the setup's own: `D`, or the spring with The River.
        let start = match &self.start {
            None => None,
            Some(s) => Some((
                tile_id(&s.tile).map_err(at_record)?,
                Rotation::new(s.rot)
                    .ok_or_else(|| at_record(RecordError::BadMove(format!("start rotation {} is not 0-3", s.rot))))?,
            )),
        };
        let mut setup = match (&self.deck, self.seed) {
            (Some(deck), _) => {
                let deck = deck.iter().map(|t| tile_id(t)).collect::<Result<Vec<_>, _>>().map_err(at_record)?;
                Setup::with_deck(rules, players, deck)
            }
            (None, Some(seed)) => Setup::standard(rules, players, seed),
            (None, None) => return Err(at_record(RecordError::NoDeck)),
        };
        if let Some((tile, rot)) = start {
            setup.start = tile;
            setup.start_rot = rot;
        }
        if let Some(first) = self.first {
            setup.first = PlayerId(first);
        }
        Ok(setup)
    }

    /// Replays the record, checking every move.
    ///
    /// # Errors
    /// The first problem found, with the 1-based move it is in.
    pub fn replay(&self) -> Result<Game, ReplayError> {
        let mut r = Replayer::new(self.setup()?)?;
        r.run(&self.moves)?;
        Ok(r.finish())
    }

    /// The record of a game (its whole deck included, so it replays alone).
    pub fn from_game(game: &Game, players: &[String]) -> Record {
        let (start, start_rot) = game.start();
        Record {
            format: 1,
            rules: rules_to_json(game.rules()),
            players: players.to_vec(),
            start: (start != TileId::START || start_rot != Rotation::default())
                .then(|| RecordStart { tile: start.name().to_string(), rot: start_rot.quarter_turns() }),
            deck: Some(game.deck().iter().map(|t| t.name().to_string()).collect()),
            first: (game.first() != PlayerId(0)).then_some(game.first().0),
            seed: None,
            moves: game.history().iter().map(RecordMove::from_move).collect(),
        }
    }
}

/// The one way a game is stepped through a record's moves: each move is
/// read ([`RecordMove::to_move`]) and checked by the engine ([`Game::play`]),
/// and the first problem is reported with its 1-based move number. Records,
/// the server's rebuilding and catching up, the replay viewer and
/// `carcassonne replay --step` all go through it.
///
/// ```
/// use carcassonne::record::{Record, Replayer};
///
/// let record = Record::from_json(r#"{ "format": 1, "players": ["Ada", "Bob"], "deck": ["E", "E"],
///     "moves": [ { "tile": "E", "at": [0, -1], "rot": 2, "meeple": "S" },
///                { "tile": "E", "at": [9, 9], "rot": 0 } ] }"#).unwrap();
/// let mut replayer = Replayer::new(record.setup().unwrap()).unwrap();
/// replayer.step(&record.moves[0]).unwrap();
/// assert_eq!(replayer.game().scores(), &[4, 0]);
/// let refused = replayer.step(&record.moves[1]).unwrap_err();
/// assert_eq!(refused.move_no, Some(2));
/// assert_eq!(replayer.moves(), 1, "a refused move changes nothing");
/// ```
#[derive(Clone, Debug)]
pub struct Replayer {
    game: Game,
    /// Moves stepped through (the next one is number `moves + 1`).
    moves: usize,
}

impl Replayer {
    /// A replay from the start of `setup`.
    ///
    /// # Errors
    /// A setup the engine refuses (players, deck, options).
    pub fn new(setup: Setup) -> Result<Replayer, ReplayError> {
        let game = Game::new(setup).map_err(|e| at_record(RecordError::Setup(e)))?;
        Ok(Replayer { game, moves: 0 })
    }

    /// Goes on from a game `moves` moves into its record (catching up with
    /// moves stored elsewhere).
    pub fn resume(game: Game, moves: usize) -> Replayer {
        Replayer { game, moves }
    }

    /// Plays the record's next move.
    ///
    /// # Errors
    /// A malformed or illegal move, with its number; the game is unchanged.
    pub fn step(&mut self, m: &RecordMove) -> Result<(), ReplayError> {
        let at = |error| ReplayError { move_no: Some(self.moves + 1), error };
        let mv = m.to_move().map_err(at)?;
        self.game.play(&mv).map_err(|e| at(RecordError::Illegal(e)))?;
        self.moves += 1;
        Ok(())
    }

    /// Plays these moves in order.
    ///
    /// # Errors
    /// The first malformed or illegal one; those before it are played.
    pub fn run<'a>(&mut self, moves: impl IntoIterator<Item = &'a RecordMove>) -> Result<(), ReplayError> {
        moves.into_iter().try_for_each(|m| self.step(m))
    }

    /// The game so far.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// Moves stepped through so far.
    pub fn moves(&self) -> usize {
        self.moves
    }

    pub fn finish(self) -> Game {
        self.game
    }
}

impl RecordMove {
    /// The move this entry names, well-formedness checked (legality is the game's).
    ///
    /// # Errors
    /// An unknown tile, a rotation outside 0–3, an unknown spot, more than one action.
    pub fn to_move(&self) -> Result<Move, RecordError> {
        let tile = tile_id(&self.tile)?;
        let rot =
            Rotation::new(self.rot).ok_or_else(|| RecordError::BadMove(format!("rot {} is not 0-3", self.rot)))?;
        let deployments = [
            (&self.meeple, Action::Follower as fn(Spot) -> Action),
            (&self.big, Action::BigFollower),
            (&self.builder, Action::Builder),
            (&self.pig, Action::Pig),
            (&self.abbot, Action::Abbot),
        ];
        let actions = deployments.iter().filter(|(s, _)| s.is_some()).count() + self.recall.unwrap_or(false) as usize;
        if actions > 1 {
            let what = if self.big.is_some() || self.builder.is_some() || self.pig.is_some() {
                "a move takes at most one of meeple, big, builder, pig, abbot and recall"
            } else {
                "a move takes at most one of meeple, abbot and recall"
            };
            return Err(RecordError::BadMove(what.into()));
        }
        let spot = |s: &String| s.parse::<Spot>().map_err(|()| RecordError::BadMove(format!("\"{s}\" is not a spot")));
        let action = match deployments.iter().find_map(|(s, make)| s.as_ref().map(|s| (s, make))) {
            Some((s, make)) => make(spot(s)?),
            None if self.recall == Some(true) => Action::Recall,
            None => Action::Pass,
        };
        let bonus = match self.bonus.as_deref() {
            None => None,
            Some("builder") => Some(Bonus::Builder),
            Some(other) => return Err(RecordError::BadMove(format!("\"{other}\" is not a bonus (only \"builder\")"))),
        };
        Ok(Move { tile, pos: Pos::new(self.at[0], self.at[1]), rot, action, bonus })
    }

    pub fn from_move(mv: &Move) -> RecordMove {
        RecordMove {
            tile: mv.tile.name().to_string(),
            at: [mv.pos.x, mv.pos.y],
            rot: mv.rot.quarter_turns(),
            meeple: match mv.action {
                Action::Follower(s) => Some(s.name().to_string()),
                _ => None,
            },
            big: match mv.action {
                Action::BigFollower(s) => Some(s.name().to_string()),
                _ => None,
            },
            builder: match mv.action {
                Action::Builder(s) => Some(s.name().to_string()),
                _ => None,
            },
            pig: match mv.action {
                Action::Pig(s) => Some(s.name().to_string()),
                _ => None,
            },
            abbot: match mv.action {
                Action::Abbot(s) => Some(s.name().to_string()),
                _ => None,
            },
            recall: matches!(mv.action, Action::Recall).then_some(true),
            bonus: mv.bonus.map(|b| b.word().to_string()),
        }
    }
}

/// One line of the `score` output's `events` (record.md): its JSON object
/// with the required fields, in the documented order.
pub fn event_json(e: &Event) -> Option<Value> {
    let mut m = Map::new();
    match *e {
        Event::Scored(ref s @ Scoring { turn, kind, when, points, to, tiles, shields, cities, .. }) => {
            if let Some(t) = turn {
                m.insert("turn".into(), t.0.into());
            }
            m.insert("kind".into(), kind.word().into());
            m.insert("when".into(), when.word().into());
            // Goods taken with a completed city pay no points (expansions.md §6).
            if !(kind == crate::ScoredKind::Goods && when == crate::When::Completed) {
                m.insert("points".into(), points.into());
            }
            m.insert("to".into(), to.iter().map(|p| Value::from(p.0)).collect());
            match kind {
                crate::ScoredKind::Road => {
                    m.insert("tiles".into(), tiles.into());
                    if s.inn {
                        m.insert("inn".into(), true.into());
                    }
                }
                crate::ScoredKind::City => {
                    m.insert("tiles".into(), tiles.into());
                    m.insert("shields".into(), shields.into());
                    if s.cathedral {
                        m.insert("cathedral".into(), true.into());
                    }
                }
                crate::ScoredKind::Farm => {
                    m.insert("cities".into(), cities.into());
                    if s.pig > 0 {
                        m.insert("pig".into(), s.pig.into());
                    }
                }
                crate::ScoredKind::Goods if when == crate::When::Completed => {
                    let kinds = crate::Good::ALL.into_iter().zip(s.goods).filter(|&(_, n)| n > 0);
                    m.insert("goods".into(), kinds.map(|(g, n)| (g.word().to_string(), Value::from(n))).collect());
                }
                crate::ScoredKind::Goods => {
                    if let Some(good) = s.good() {
                        m.insert("good".into(), good.word().into());
                        m.insert("count".into(), s.goods[good.index()].into());
                    }
                }
                crate::ScoredKind::Cloister | crate::ScoredKind::Garden => {}
            }
        }
        Event::TileDiscarded { turn, tile } | Event::TileReshuffled { turn, tile } => {
            m.insert("turn".into(), turn.0.into());
            let kind = if matches!(e, Event::TileDiscarded { .. }) { "discard" } else { "reshuffle" };
            m.insert("kind".into(), kind.into());
            m.insert("tile".into(), tile.name().into());
        }
        Event::AbbotRecalled { turn, player, points, .. } => {
            m.insert("turn".into(), turn.0.into());
            m.insert("kind".into(), "recall".into());
            m.insert("points".into(), points.into());
            m.insert("to".into(), Value::from(vec![player.0]));
        }
        _ => return None,
    }
    Some(Value::Object(m))
}

/// The `score` command's output for a replayed game (record.md): pretty JSON
/// with one event per line.
pub fn score_json(game: &Game) -> String {
    let list = |xs: &mut dyn Iterator<Item = String>| xs.collect::<Vec<_>>().join(", ");
    let mut out = String::new();
    out.push_str("{\n");
    let _ = writeln!(out, "  \"finished\": {},", game.is_over());
    let _ = writeln!(out, "  \"scores\": [{}],", list(&mut game.scores().iter().map(|s| s.to_string())));
    let _ = writeln!(out, "  \"winners\": [{}],", list(&mut game.winners().iter().map(|p| p.0.to_string())));
    let events: Vec<String> = game.events().iter().filter_map(event_json).map(|v| one_line(&v)).collect();
    if events.is_empty() {
        out.push_str("  \"events\": []\n");
    } else {
        out.push_str("  \"events\": [\n");
        for (i, e) in events.iter().enumerate() {
            let comma = if i + 1 < events.len() { "," } else { "" };
            let _ = writeln!(out, "    {e}{comma}");
        }
        out.push_str("  ]\n");
    }
    out.push_str("}\n");
    out
}

/// `{ "a": 1, "b": [0, 1] }` with spaces as in record.md.
fn one_line(v: &Value) -> String {
    match v {
        Value::Object(m) => {
            let fields: Vec<String> =
                m.iter().map(|(k, v)| format!("{}: {}", Value::from(k.as_str()), one_line(v))).collect();
            format!("{{ {} }}", fields.join(", "))
        }
        Value::Array(a) => format!("[{}]", a.iter().map(one_line).collect::<Vec<_>>().join(", ")),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_malformed_move_is_named() {
        let text = r#"{"format": 1, "players": ["A", "B"], "deck": ["E"],
                       "moves": [{"tile": "E", "at": [0, -1], "rot": 2}, {"tile": "E", "at": "here", "rot": 0}]}"#;
        let e = Record::from_json(text).unwrap_err();
        assert_eq!(e.move_no, Some(2));
        assert!(e.to_string().starts_with("move 2: invalid type"), "{e}");
        let e = Record::from_json(r#"{"format": 1, "players": "A"}"#).unwrap_err();
        assert_eq!(e.move_no, None);
    }

    #[test]
    fn a_replay_resumed_part_way_ends_where_the_whole_replay_does() {
        let mut game = Game::new(Setup::standard(Rules::default(), 3, 5)).unwrap();
        while let Some(mv) = game.legal_moves().last().copied() {
            game.play(&mv).unwrap();
        }
        let record = Record::from_game(&game, &["A".into(), "B".into(), "C".into()]);
        let whole = record.replay().unwrap();
        for k in [0, 1, 30, record.moves.len()] {
            let mut first = Replayer::new(record.setup().unwrap()).unwrap();
            first.run(&record.moves[..k]).unwrap();
            let mut rest = Replayer::resume(first.game().clone(), k);
            rest.run(&record.moves[k..]).unwrap();
            assert_eq!(rest.moves(), record.moves.len());
            assert_eq!(score_json(rest.game()), score_json(&whole), "resumed after {k}");
        }
        // A bad move later on is numbered in the whole record.
        let mut bad = record.moves.clone();
        bad[40].at = [99, 99];
        let mut r = Replayer::resume(whole.clone(), 0);
        let mut from_start = Replayer::new(record.setup().unwrap()).unwrap();
        assert_eq!(from_start.run(&bad).unwrap_err().move_no, Some(41));
        assert_eq!(from_start.moves(), 40);
        assert!(r.step(&bad[0]).is_err(), "the finished game takes no move");
    }

    #[test]
    fn a_river_record_without_start_starts_at_the_spring() {
        for text in [
            r#"{"format": 1, "rules": {"river": true}, "players": ["A", "B"], "seed": 3, "moves": []}"#,
            r#"{"format": 1, "rules": {"river": true}, "players": ["A", "B"], "deck": ["RV07"], "moves": []}"#,
        ] {
            let game = Record::from_json(text).unwrap().replay().unwrap();
            assert_eq!(game.start().0.name(), "RV01");
            assert!(game.tile().is_some_and(|t| t.is_river()), "the first river tile fits");
        }
        let plain = r#"{"format": 1, "players": ["A", "B"], "seed": 3, "moves": []}"#;
        assert_eq!(Record::from_json(plain).unwrap().replay().unwrap().start().0, TileId::START);
    }

    /// A refused move carries the rule it breaks (its code and the parts a
    /// sentence needs); a malformed record names no rule.
    #[test]
    fn a_refusal_names_the_rule_broken() {
        let names = ["A".to_string(), "B".to_string()];
        let refused = |game: &Game, mv: Move| {
            let mut record = Record::from_game(game, &names);
            record.moves.push(RecordMove::from_move(&mv));
            record.replay().unwrap_err()
        };
        // An edge that meets the wrong kind of edge.
        let mut found = false;
        for seed in 0..20 {
            let game = Game::new(Setup::standard(Rules::default(), 2, seed)).unwrap();
            let tile = game.tile().unwrap();
            let cells = [Pos::new(0, -1), Pos::new(1, 0), Pos::new(0, 1), Pos::new(-1, 0)];
            let bad = cells
                .iter()
                .flat_map(|&pos| Rotation::ALL.map(|rot| Move { tile, pos, rot, action: Action::Pass, bonus: None }));
            let Some(mv) = bad.into_iter().find(|mv| matches!(game.check(mv), Err(IllegalMove::EdgeMismatch { .. })))
            else {
                continue;
            };
            let e = refused(&game, mv);
            assert_eq!(e.move_no, Some(game.moves_played() as usize + 1));
            let rule = e.rule().expect("a rule is broken");
            assert_eq!((rule.code(), e.error.code()), ("edge_mismatch", "edge_mismatch"));
            let facts = rule.facts();
            assert_eq!(facts.iter().map(|f| f.0).collect::<Vec<_>>(), ["side", "ours", "theirs"]);
            assert!(["north", "east", "south", "west"].contains(&facts[0].1), "{facts:?}");
            assert_ne!(facts[1].1, facts[2].1, "{facts:?}");
            found = true;
            break;
        }
        assert!(found, "some first tile does not fit some way next to the start");
        // A follower on a feature that already holds one.
        let mut game = Game::new(Setup::standard(Rules::default(), 2, 4)).unwrap();
        let occupied = 'play: loop {
            for mv in game.legal_moves() {
                if mv.action != Action::Pass {
                    continue;
                }
                for spot in Spot::all() {
                    let with = Move { action: Action::Follower(spot), ..mv };
                    if matches!(game.check(&with), Err(IllegalMove::FeatureOccupied { .. })) {
                        break 'play with;
                    }
                }
            }
            let moves = game.legal_moves();
            let mv = moves.iter().find(|m| matches!(m.action, Action::Follower(_))).unwrap_or(&moves[0]);
            game.play(mv).unwrap();
            assert!(!game.is_over(), "a follower's feature is met again before the end");
        };
        let e = refused(&game, occupied);
        let rule = e.rule().expect("a rule is broken");
        assert_eq!(rule.code(), "feature_occupied");
        let facts = rule.facts();
        assert_eq!(facts.len(), 1);
        assert_eq!(facts[0].0, "feature");
        assert!(["city", "road", "field"].contains(&facts[0].1), "{facts:?}");
        // A record that does not read names no rule.
        let e = Record::from_json(r#"{"format": 1, "players": "A"}"#).unwrap_err();
        assert!(e.rule().is_none());
        let mut record = Record::from_game(&game, &names);
        record.moves.push(RecordMove { tile: "nonsense".into(), at: [0, 0], rot: 0, ..RecordMove::default() });
        assert!(record.replay().unwrap_err().rule().is_none());
    }
}

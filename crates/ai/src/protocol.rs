//! The open bot protocol (docs/bot-protocol.md): JSON lines between a host
//! (the arena, the web server) and a bot in any language, one typed message
//! per line, one enum per direction.
//!
//! A bot's view is built from the engine's [`View`] and speaks in the
//! record's terms (record.md): tiles by letter, cells `[x, y]`, moves as
//! [`RecordMove`]s, events in the `score` form. It carries the game so far
//! (the moves and the public events), so that a bot may rebuild the
//! position with the engine itself ([`rebuild`]) or work from the view alone.
//!
//! ```
//! use carcassonne::{Game, Rules, Setup, View};
//! use carcassonne_ai::protocol::{rebuild, BotView, ToBot};
//!
//! let mut game = Game::new(Setup::standard(Rules::default(), 2, 7)).unwrap();
//! let mv = game.legal_moves()[0];
//! game.play(&mv).unwrap();
//! let seat = game.to_move().unwrap();
//! let view = BotView::new(&View::new(&game, seat));
//! let line = serde_json::to_string(&ToBot::Decide { turn: view.turn, time_ms: 1000, view: Box::new(view.clone()) })
//!     .unwrap();
//! assert!(line.starts_with(r#"{"type":"decide""#));
//! // A bot that rebuilds the game sees the same moves as the host.
//! let rules = Rules::default();
//! let rebuilt = rebuild(&view, &rules, 2).unwrap();
//! assert_eq!(rebuilt.legal_moves(), game.legal_moves());
//! ```

use std::collections::BTreeMap;
use std::fmt;
use std::time::Duration;

use carcassonne::record::{event_json, rules_to_json, Record, RecordMove, RecordStart};
use carcassonne::{Figure, Game, PlayerId, Rules, TileId, View, RULE_OPTIONS};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::bot::{Bot, BotSpec};
use crate::mcts::Budget;

/// The protocol's version; a bot says which one it speaks in its `hello`.
pub const PROTOCOL_VERSION: u32 = 1;

/// What a host sends to a bot, one per line.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ToBot {
    /// The first line: the host and the protocol it speaks. The bot answers
    /// with [`FromBot::Hello`].
    Hello { protocol: u32, host: String },
    /// A game begins (or a host joins a game under way: the view of each
    /// decision carries the whole game, so a bot needs nothing earlier).
    NewGame {
        /// The host's name for the game (unique for the bot's lifetime).
        game: String,
        /// The rule set in the record's form (record.md, `rules`).
        rules: Map<String, Value>,
        /// The players' names in seat order.
        players: Vec<String>,
        /// The bot's seat (0-based).
        seat: u8,
        /// The time it has for each move, in milliseconds.
        time_ms: u64,
    },
    /// The bot's seat is to move: answer with [`FromBot::Move`] within `time_ms`.
    Decide { turn: u16, time_ms: u64, view: Box<BotView> },
    /// A move was played (by any seat, the bot's own too), with the scores after it.
    Played {
        /// 1-based number of the move (the record's `moves` index + 1).
        turn: u16,
        seat: u8,
        #[serde(rename = "move")]
        mv: RecordMove,
        scores: Vec<u32>,
    },
    /// The game is over: final scores, the winners, and, if it was stopped
    /// early, the seat that forfeited and why.
    GameOver {
        scores: Vec<u32>,
        winners: Vec<u8>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        forfeit: Option<Forfeited>,
    },
    /// The host is done: the bot should exit.
    Quit,
}

/// A seat that lost a game by not answering a legal move in time.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Forfeited {
    pub seat: u8,
    pub reason: String,
}

/// What a bot sends to its host, one per line.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum FromBot {
    /// The answer to the host's hello.
    Hello {
        name: String,
        #[serde(default)]
        author: String,
        protocol: u32,
        /// The rule options (record.md / rules.md names, e.g. `farms`,
        /// `abbot`) it can play when they differ from the standard preset
        /// (whatever preset a game names); `"*"` for all of them.
        #[serde(default)]
        rules: Vec<String>,
    },
    /// The bot's move, one of the view's `legal` moves.
    Move {
        #[serde(rename = "move")]
        mv: RecordMove,
    },
}

impl FromBot {
    /// Whether a bot that said hello with `options` can play `rules`;
    /// otherwise the first option it does not support.
    ///
    /// The options are those that differ from the **standard** preset,
    /// whatever preset the rules name: a bot that listed none plays the
    /// standard game only, not `big-box` or `first-edition`, whose
    /// options are their preset's own.
    ///
    /// # Errors
    /// The name of an option the rules change that the bot did not list.
    pub fn supports(options: &[String], rules: &Rules) -> Result<(), &'static str> {
        if options.iter().any(|o| o == "*") {
            return Ok(());
        }
        let standard = Rules::default();
        let changed = RULE_OPTIONS.iter().filter(|o| o.value(rules) != o.value(&standard));
        match changed.map(|o| o.name).find(|&name| !options.iter().any(|o| o == name)) {
            Some(name) => Err(name),
            None => Ok(()),
        }
    }
}

/// A placed tile.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoardTile {
    pub tile: String,
    pub at: [i32; 2],
    pub rot: u8,
}

/// A follower on the board.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoardFollower {
    pub seat: u8,
    pub at: [i32; 2],
    /// The spot it stands on (record.md spot names).
    pub spot: String,
    /// `thief`, `knight`, `monk`, `farmer`, `abbot`, `builder` or `pig`.
    pub role: String,
    /// The big follower (Inns & Cathedrals); absent for any other figure.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub big: bool,
}

/// One player's view of the game, in the record's terms: everything on the
/// table and the counts of the tiles it cannot see, never their order.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BotView {
    /// Whose view this is.
    pub seat: u8,
    /// The seat to move (absent once the game is over).
    pub to_move: Option<u8>,
    /// The seat that played first.
    pub first: u8,
    /// 1-based number of the move to make.
    pub turn: u16,
    pub scores: Vec<u32>,
    /// Followers (meeples) in each seat's supply.
    pub supply: Vec<u8>,
    /// Whether each seat's abbot is in its supply (The Abbot).
    pub abbot: Vec<bool>,
    /// Whether each seat's big follower is in its supply (Inns &
    /// Cathedrals; absent without it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub big: Option<Vec<bool>>,
    /// Whether each seat's builder is in its supply (Traders & Builders;
    /// absent without it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub builder: Option<Vec<bool>>,
    /// Whether each seat's pig is in its supply (Traders & Builders; absent
    /// without it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pig: Option<Vec<bool>>,
    /// Each seat's goods tokens, `[wine, wheat, cloth]` (Traders &
    /// Builders; absent without goods).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub goods: Option<Vec<[u8; 3]>>,
    /// `"builder"` when the move to make is the builder's second tile (its
    /// `legal` moves carry the same mark); absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bonus: Option<String>,
    /// The tiles on the board in the order they were placed, the start tile first.
    pub board: Vec<BoardTile>,
    pub followers: Vec<BoardFollower>,
    /// The tile drawn for the player to move (absent with a hand rule).
    pub tile: Option<String>,
    /// Each seat's hand where this seat may see it (its own, or every hand
    /// with `hand_visible`), else `null`.
    pub hands: Vec<Option<Vec<String>>>,
    /// How many tiles each seat holds.
    pub hand_sizes: Vec<usize>,
    /// Tiles still in the bag.
    pub bag: usize,
    /// How many of each tile this seat cannot see (the bag and hidden hands), by letter.
    pub unseen: BTreeMap<String, u8>,
    /// The moves so far, in the record's form.
    pub moves: Vec<RecordMove>,
    /// The public events so far, in the `score` form of record.md (scorings,
    /// discards, reshuffles, abbot recalls).
    pub events: Vec<Value>,
    /// The legal moves of the seat to move (empty for other seats).
    pub legal: Vec<RecordMove>,
}

impl BotView {
    /// The wire form of `view`.
    pub fn new(view: &View<'_>) -> BotView {
        let n = view.num_players();
        let seats = (0..n).map(|p| PlayerId(p as u8));
        let at = |p: carcassonne::Pos| [p.x, p.y];
        let names = |ts: &[TileId]| ts.iter().map(|t| t.name().to_string()).collect::<Vec<_>>();
        let legal = if view.to_move() == Some(view.player()) {
            view.legal_moves().iter().map(RecordMove::from_move).collect()
        } else {
            Vec::new()
        };
        let rules = view.rules();
        let figure = |on: bool, figure: Figure| on.then(|| seats.clone().map(|p| view.in_supply(p, figure)).collect());
        BotView {
            seat: view.player().0,
            to_move: view.to_move().map(|p| p.0),
            first: view.first().0,
            turn: view.moves_played() + 1,
            scores: view.scores().to_vec(),
            supply: seats.clone().map(|p| view.supply(p)).collect(),
            abbot: seats.clone().map(|p| view.abbot_in_supply(p)).collect(),
            big: figure(rules.has_big_follower(), Figure::BigFollower),
            builder: figure(rules.has_builder(), Figure::Builder),
            pig: figure(rules.has_pig(), Figure::Pig),
            goods: rules.has_goods().then(|| seats.clone().map(|p| view.goods(p)).collect()),
            bonus: view.bonus().map(|b| b.word().to_string()),
            board: view
                .board()
                .tiles()
                .iter()
                .map(|t| BoardTile { tile: t.tile.name().to_string(), at: at(t.pos), rot: t.rot.quarter_turns() })
                .collect(),
            followers: view
                .followers()
                .iter()
                .map(|f| BoardFollower {
                    seat: f.player.0,
                    at: at(f.pos),
                    spot: f.spot.name().to_string(),
                    role: f.role.word().to_string(),
                    big: f.big,
                })
                .collect(),
            tile: (!view.rules().hand_mode()).then(|| view.tile()).flatten().map(|t| t.name().to_string()),
            hands: seats.clone().map(|p| view.hand(p).map(names)).collect(),
            hand_sizes: seats.map(|p| view.hand_len(p)).collect(),
            bag: view.tiles_left(),
            unseen: TileId::all()
                .zip(view.unseen())
                .filter(|&(_, n)| n > 0)
                .map(|(t, n)| (t.name().to_string(), n))
                .collect(),
            moves: view.history().iter().map(RecordMove::from_move).collect(),
            events: view.events().iter().filter_map(event_json).collect(),
            legal,
        }
    }
}

/// The rules in the record's form, as sent in [`ToBot::NewGame`].
pub fn rules_json(rules: &Rules) -> Map<String, Value> {
    rules_to_json(rules)
}

/// The rule options [`rebuild`] can play: all but the hand rules (with a
/// hand, the order of the draws is not in a view).
pub fn rebuildable_options() -> Vec<String> {
    RULE_OPTIONS
        .iter()
        .map(|o| o.name)
        .filter(|o| !matches!(*o, "hand" | "hand_visible" | "draw_at_turn_end"))
        .map(str::to_string)
        .collect()
}

/// Why a view could not be made into a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RebuildError(pub String);

impl fmt::Display for RebuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cannot rebuild the game from the view: {}", self.0)
    }
}

impl std::error::Error for RebuildError {}

/// A game with the view's table, its tile to move and, in the bag, the
/// tiles it cannot see in some order: the position a bot of this crate
/// searches from (it samples the bag's order itself). Built by replaying
/// the view's moves through the engine, the draws being the moves' tiles
/// with the discards (and reshuffles) where the events put them.
///
/// # Errors
/// Rules with a hand (see [`rebuildable_options`]), or a view the engine's
/// replay does not reach (a view that does not come from a real game).
pub fn rebuild(view: &BotView, rules: &Rules, players: usize) -> Result<Game, RebuildError> {
    let bad = |m: String| RebuildError(m);
    if rules.hand_mode() {
        return Err(bad("the rules have a hand".into()));
    }
    let start = view.board.first().ok_or_else(|| bad("the board is empty".into()))?;
    // Tiles drawn for a move and set aside, by 1-based move number.
    let mut set_aside: BTreeMap<u64, Vec<String>> = BTreeMap::new();
    for e in &view.events {
        if matches!(e.get("kind").and_then(Value::as_str), Some("discard" | "reshuffle")) {
            let turn = e.get("turn").and_then(Value::as_u64).ok_or_else(|| bad("a discard without a turn".into()))?;
            let tile = e.get("tile").and_then(Value::as_str).ok_or_else(|| bad("a discard without a tile".into()))?;
            set_aside.entry(turn).or_default().push(tile.to_string());
        }
    }
    let mut deck = Vec::new();
    for (i, m) in view.moves.iter().enumerate() {
        deck.extend(set_aside.remove(&(i as u64 + 1)).unwrap_or_default());
        deck.push(m.tile.clone());
    }
    deck.extend(set_aside.remove(&(view.moves.len() as u64 + 1)).unwrap_or_default());
    deck.extend(view.tile.clone());
    for (tile, &n) in &view.unseen {
        deck.extend(std::iter::repeat_n(tile.clone(), n as usize));
    }
    let record = Record {
        format: 1,
        rules: rules_to_json(rules),
        players: (0..players).map(|p| format!("seat {p}")).collect(),
        start: Some(RecordStart { tile: start.tile.clone(), rot: start.rot }),
        deck: Some(deck),
        first: Some(view.first),
        seed: None,
        moves: view.moves.clone(),
    };
    let game = record.replay().map_err(|e| bad(e.to_string()))?;
    if game.scores() != view.scores.as_slice() || game.to_move().map(|p| p.0) != view.to_move {
        return Err(bad("the replay does not reach the view's scores and player to move".into()));
    }
    Ok(game)
}

/// Plays one of this crate's bots through the protocol: reads the host's
/// lines from `input`, answers on `output`, until `quit` or the end of the
/// input (the `carcassonne bot` command). Each decision is taken on the
/// game [`rebuild`] makes of the view; a time budget is cut to the host's
/// time per move (less a tenth for the pipes).
///
/// # Errors
/// Reading or writing failed, or the host sent a line that is not a message.
pub fn play_as_bot(
    spec: &BotSpec,
    input: impl std::io::BufRead,
    mut output: impl std::io::Write,
) -> std::io::Result<()> {
    use std::io::{Error, ErrorKind};
    let mut game: Option<(Rules, usize, Box<dyn Bot>)> = None;
    let mut send = |msg: &FromBot| -> std::io::Result<()> {
        serde_json::to_writer(&mut output, msg)?;
        output.write_all(b"\n")?;
        output.flush()
    };
    for line in input.lines() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        let msg: ToBot = serde_json::from_str(&line)
            .map_err(|e| Error::new(ErrorKind::InvalidData, format!("not a protocol message ({e}): {line}")))?;
        match msg {
            ToBot::Hello { .. } => send(&FromBot::Hello {
                name: format!("carcassonne {spec}"),
                author: "the carcassonne project".into(),
                protocol: PROTOCOL_VERSION,
                rules: rebuildable_options(),
            })?,
            ToBot::NewGame { game: id, rules, players, seat, time_ms } => {
                let rules = carcassonne::record::rules_from_json(&rules)
                    .map_err(|e| Error::new(ErrorKind::InvalidData, e.to_string()))?;
                let seed = id
                    .bytes()
                    .chain([seat])
                    .fold(0xcbf2_9ce4_8422_2325u64, |h, b| (h ^ b as u64).wrapping_mul(0x0100_0000_01b3));
                game = Some((rules, players.len(), within(spec, time_ms).build(seed)));
            }
            ToBot::Decide { view, .. } => {
                let (rules, players, bot) =
                    game.as_mut().ok_or_else(|| Error::new(ErrorKind::InvalidData, "a decision before new_game"))?;
                let rebuilt = rebuild(&view, rules, *players);
                let mv = match &rebuilt {
                    Ok(g) => bot.choose(&View::new(g, PlayerId(view.seat))).map(|m| RecordMove::from_move(&m)),
                    Err(e) => {
                        // Still a legal move, so that the game goes on.
                        eprintln!("carcassonne bot: {e}; playing the first legal move");
                        None
                    }
                };
                let mv = mv
                    .or_else(|| view.legal.first().cloned())
                    .ok_or_else(|| Error::new(ErrorKind::InvalidData, "asked for a move with no legal moves"))?;
                send(&FromBot::Move { mv })?;
            }
            ToBot::Played { .. } | ToBot::GameOver { .. } => {}
            ToBot::Quit => break,
        }
    }
    Ok(())
}

/// `spec` with a time budget cut to fit `time_ms` (a tenth and 20 ms kept
/// for the pipes and the rebuild).
fn within(spec: &BotSpec, time_ms: u64) -> BotSpec {
    match *spec {
        BotSpec::Mcts(mut c) => {
            if let Budget::Time(d) = c.budget {
                let room = Duration::from_millis((time_ms * 9 / 10).saturating_sub(20).max(1));
                c.budget = Budget::Time(d.min(room));
            }
            BotSpec::Mcts(c)
        }
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use carcassonne::{seeded_rng, RandomMover, Setup};

    #[test]
    fn messages_are_json_lines_with_a_type() {
        let hello = FromBot::Hello { name: "b".into(), author: String::new(), protocol: 1, rules: vec![] };
        let line = serde_json::to_string(&hello).unwrap();
        assert_eq!(line, r#"{"type":"hello","name":"b","author":"","protocol":1,"rules":[]}"#);
        let mv: FromBot =
            serde_json::from_str(r#"{"type":"move","move":{"tile":"V","at":[1,0],"rot":1,"meeple":"W"}}"#).unwrap();
        let FromBot::Move { mv } = mv else { panic!() };
        assert_eq!((mv.tile.as_str(), mv.at, mv.meeple.as_deref()), ("V", [1, 0], Some("W")));
        assert!(serde_json::from_str::<FromBot>(r#"{"type":"resign"}"#).is_err());
        assert_eq!(serde_json::to_string(&ToBot::Quit).unwrap(), r#"{"type":"quit"}"#);
    }

    /// The view's fields, in the order docs/bot-protocol.md lists them,
    /// and the move form of record.md.
    #[test]
    fn a_view_has_the_documented_fields() {
        let game = Game::new(Setup::standard(Rules::parse("standard,abbot=true").unwrap(), 2, 3)).unwrap();
        let view = BotView::new(&View::new(&game, PlayerId(0)));
        let json = serde_json::to_value(ToBot::Decide { turn: 1, time_ms: 500, view: Box::new(view) }).unwrap();
        let keys: Vec<&str> = json["view"].as_object().unwrap().keys().map(String::as_str).collect();
        assert_eq!(
            keys,
            [
                "seat",
                "to_move",
                "first",
                "turn",
                "scores",
                "supply",
                "abbot",
                "board",
                "followers",
                "tile",
                "hands",
                "hand_sizes",
                "bag",
                "unseen",
                "moves",
                "events",
                "legal"
            ]
        );
        assert_eq!(json["type"], "decide");
        assert_eq!(json["view"]["board"][0], serde_json::json!({ "tile": "D", "at": [0, 0], "rot": 0 }));
        assert_eq!(json["view"]["supply"], serde_json::json!([7, 7]));
        let unseen: u64 = json["view"]["unseen"].as_object().unwrap().values().map(|v| v.as_u64().unwrap()).sum();
        assert_eq!(unseen as usize, game.tiles_left(), "the bag, the drawn tile being on the table");
        let legal = json["view"]["legal"].as_array().unwrap();
        assert_eq!(legal.len(), game.legal_moves().len());
        assert!(legal.iter().all(|m| m["tile"] == json["view"]["tile"] && m["at"].is_array()));
        // The other seat gets no legal moves.
        let other = BotView::new(&View::new(&game, PlayerId(1)));
        assert!(other.legal.is_empty() && other.hands[0].is_some());
    }

    /// Under the Big Box the view also says each seat's expansion figures
    /// in supply and goods, the big follower on the board, and the
    /// builder's second tile; the base game's view has none of these keys.
    #[test]
    fn a_big_box_view_says_the_expansions_figures_goods_and_second_tile() {
        let (mut mover, mut rng) = (RandomMover::new(), seeded_rng(5));
        let (mut saw_bonus, mut saw_big, mut saw_goods) = (false, false, false);
        for seed in 0..10 {
            let mut game = Game::new(Setup::standard(Rules::parse("big-box").unwrap(), 2, seed)).unwrap();
            while let Some(mv) = mover.choose(&game, &mut rng) {
                let me = game.to_move().unwrap();
                let json = serde_json::to_value(BotView::new(&View::new(&game, me))).unwrap();
                for (key, figure) in [("big", Figure::BigFollower), ("builder", Figure::Builder), ("pig", Figure::Pig)]
                {
                    let home: Vec<bool> = (0..2).map(|p| game.in_supply(PlayerId(p), figure)).collect();
                    assert_eq!(json[key], serde_json::json!(home), "{key}");
                }
                let goods: Vec<[u8; 3]> = (0..2).map(|p| game.goods(PlayerId(p))).collect();
                assert_eq!(json["goods"], serde_json::json!(goods));
                saw_goods |= goods.iter().flatten().any(|&n| n > 0);
                let bonus = game.bonus().map(|b| b.word());
                assert_eq!(json.get("bonus").and_then(Value::as_str), bonus);
                saw_bonus |= bonus.is_some();
                assert!(json["legal"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .all(|m| m.get("bonus").and_then(Value::as_str) == bonus));
                let bigs = game.followers().iter().filter(|f| f.big).count();
                let marked = json["followers"].as_array().unwrap().iter().filter(|f| f["big"] == true).count();
                assert_eq!(marked, bigs);
                saw_big |= bigs > 0;
                game.play_unchecked(&mv);
            }
        }
        assert!(saw_bonus && saw_big && saw_goods, "the game reached a second tile, a big follower and goods");
        let base = Game::new(Setup::standard(Rules::default(), 2, 5)).unwrap();
        let json = serde_json::to_value(BotView::new(&View::new(&base, PlayerId(0)))).unwrap();
        assert!(["big", "builder", "pig", "goods", "bonus"].iter().all(|k| json.get(k).is_none()));
    }

    #[test]
    fn supported_options_are_checked_against_the_rules_changes() {
        let rules = Rules::parse("standard,abbot=true").unwrap();
        assert_eq!(FromBot::supports(&[], &rules), Err("abbot"));
        assert_eq!(FromBot::supports(&["abbot".into()], &rules), Ok(()));
        assert_eq!(FromBot::supports(&["*".into()], &rules), Ok(()));
        assert_eq!(FromBot::supports(&[], &Rules::default()), Ok(()));
        // Options are counted from the standard preset, not the rules' own.
        let big_box = Rules::parse("big-box").unwrap();
        assert_eq!(FromBot::supports(&[], &big_box), Err("river"));
        let all: Vec<String> =
            ["river", "abbot", "inns_cathedrals", "traders_builders"].into_iter().map(String::from).collect();
        assert_eq!(FromBot::supports(&all, &big_box), Ok(()));
        assert_eq!(FromBot::supports(&all[..3], &big_box), Err("traders_builders"));
        assert_eq!(FromBot::supports(&[], &Rules::parse("first-edition").unwrap()), Err("farms"));
    }

    /// Every position of random games, under rules with discards, the
    /// river, the abbot and reshuffles, rebuilds to the same legal moves.
    #[test]
    fn views_rebuild_to_the_same_position() {
        for (seed, spec, players) in [
            (1, "standard", 2),
            (2, "standard,river=true,abbot=true", 3),
            (3, "first-edition,unplaceable=reshuffle,hole_bonus_turn=true", 2),
            (4, "standard,board_limit=5x5,unplaceable=reshuffle", 4),
        ] {
            let rules = Rules::parse(spec).unwrap();
            let mut game = Game::new(Setup::standard(rules, players, seed)).unwrap();
            let mut rng = seeded_rng(seed);
            let mut mover = RandomMover::new();
            while let Some(p) = game.to_move() {
                let view = BotView::new(&View::new(&game, p));
                let rebuilt = rebuild(&view, &rules, players).unwrap_or_else(|e| panic!("{spec}: {e}"));
                assert_eq!(rebuilt.legal_moves(), game.legal_moves(), "{spec}, move {}", view.turn);
                assert_eq!(BotView::new(&View::new(&rebuilt, p)), view, "{spec}, move {}", view.turn);
                let mv = mover.choose(&game, &mut rng).unwrap();
                game.play(&mv).unwrap();
            }
        }
        let hand = Rules::parse("standard,hand=2").unwrap();
        let game = Game::new(Setup::standard(hand, 2, 1)).unwrap();
        let view = BotView::new(&View::new(&game, PlayerId(0)));
        assert!(rebuild(&view, &hand, 2).is_err());
    }
}

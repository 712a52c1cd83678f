//! What the server sends: a game as one player (or a spectator) may see it,
//! the tile data the browser draws from, the options of the new-game form,
//! and replays.
//!
//! A view is built from the engine's public, per-player information only
//! (`remaining()` counts, never `deck()`): the order of the bag never leaves
//! the server while a game is in play.

use carcassonne::record::{option_json, rules_to_json, Record, ReplayError};
use carcassonne::{
    standard_deck, Dir, EdgeKind, Game, OptionKind, OptionValue, PlayerId, Preset, RuleOption, Rules, TileId,
    HALF_NAMES, RULE_OPTIONS,
};
use serde_json::{json, Map, Value};

use crate::bots::BotLevel;
use crate::services::games::{Table, Viewer};
use crate::state::{self, breakdown, score_history, seat_kind, Counts, Laid, Standing, StateView, WithLog};
use crate::store::GameSummary;

pub use crate::state::COLORS;

/// Whether some player's tiles are hidden from the others.
pub fn hidden_hands(game: &Game) -> bool {
    !game.is_over() && (0..game.num_players()).any(|p| !game.hand_visible_to_all(PlayerId(p as u8)))
}

/// The whole game as `viewer` may see it, log included ([`StateView`]).
pub fn state_json(id: &str, table: &Table, viewer: &Viewer) -> Value {
    let state = StateView::new(id, table, viewer);
    serde_json::to_value(WithLog { state: &state, log: state::log(&table.game, 0, usize::MAX) }).unwrap_or(Value::Null)
}

/// The record anyone may download: the whole record once the game is over;
/// while it is in play, the deck holds only the tiles drawn so far. `None`
/// while hands are hidden (the draws so far include them).
pub fn public_record(table: &Table) -> Option<Record> {
    if hidden_hands(&table.game) {
        return None;
    }
    let mut record = Record::from_game(&table.game, &table.names());
    if !table.game.is_over() {
        record.deck = Some(table.game.drawn().iter().map(|t| t.name().to_string()).collect());
    }
    Some(record)
}

/// One line of the games list.
pub fn summary_json(s: &GameSummary) -> Value {
    let players: Vec<Value> = s
        .seats
        .iter()
        .enumerate()
        .map(|(i, seat)| {
            let (kind, level) = seat_kind(seat);
            json!({
                "seat": i, "name": seat.name(), "kind": kind, "level": level, "color": COLORS[i % COLORS.len()],
                "score": s.progress.scores.get(i).copied().unwrap_or(0),
            })
        })
        .collect();
    json!({
        "id": s.id,
        "status": if s.progress.finished {
            "finished"
        } else if s.progress.aborted {
            "aborted"
        } else {
            "playing"
        },
        "players": players,
        "rules": s.rules,
        "rules_code": carcassonne::record::rules_from_json(&s.rules).ok().map(|r| r.to_code()),
        "moves": s.moves,
        "to_move": s.progress.to_move,
        "winners": s.progress.winners,
        "created_at": s.created_at,
        "updated_at": s.progress.at,
        "public": s.public,
    })
}

fn dirs(mask: u8) -> Vec<&'static str> {
    Dir::ALL.into_iter().filter(|d| mask & (1 << d.index()) != 0).map(|d| d.name()).collect()
}

/// Every tile's shape in its canonical orientation, for the browser to draw:
/// the base game's, The River's and the expansions' (`expansion`: the
/// option's name, or null), each segment with its marks (a road's `inn`, a
/// city's `cathedral` and `goods`: the record's word, or null). The page
/// draws an expansion's tiles only when a game or replay plays it.
pub fn tiles_json() -> Value {
    let mut standard = [0u8; carcassonne::TILE_KINDS];
    standard[TileId::START.index()] += 1;
    for t in standard_deck() {
        standard[t.index()] += 1;
    }
    let tiles: Vec<Value> = TileId::all()
        .map(|t| {
            let def = t.def();
            let segments: Vec<Value> = def
                .segments
                .iter()
                .map(|s| {
                    let halves: Vec<&str> =
                        (0..8).filter(|h| s.halves & (1 << h) != 0).map(|h| HALF_NAMES[h]).collect();
                    let cities: Vec<u32> = (0..16).filter(|c| s.cities & (1 << c) != 0).collect();
                    json!({
                        "kind": s.kind.word(), "edges": dirs(s.edges), "halves": halves, "cities": cities,
                        "inn": s.inn, "cathedral": s.cathedral, "goods": s.goods.map(|g| g.word()),
                    })
                })
                .collect();
            json!({
                "id": t.name(),
                "expansion": t.expansion().map(|e| e.option()),
                "course": t.course_name(),
                "edges": def.edges.map(EdgeKind::word),
                "segments": segments,
                "river": dirs(def.river),
                "shield": def.shield,
                "cloister": def.has_cloister(),
                "garden": def.has_garden(),
                "bridge": def.bridge,
            })
        })
        .collect();
    json!({ "halves": HALF_NAMES, "tiles": tiles, "standard_counts": Counts(standard), "start": TileId::START.name() })
}

/// How the new-game form shows a rule option (from the engine's one
/// description of it, [`RULE_OPTIONS`]).
fn option_form(o: &RuleOption) -> Value {
    let mut form = json!({
        "key": o.name, "label": o.label, "about": o.about, "message": o.key,
        "default": option_json(o.default_for(Preset::Standard)),
    });
    match o.kind {
        OptionKind::Flag => form["type"] = "bool".into(),
        OptionKind::Choice(words) => {
            form["type"] = "choice".into();
            form["values"] = json!(words);
            let labels: Vec<String> = words.iter().map(|&w| o.value_words(OptionValue::Choice(w))).collect();
            form["value_labels"] = json!(labels);
            let keys: Vec<Option<String>> = words.iter().map(|&w| o.value_key(OptionValue::Choice(w))).collect();
            form["value_messages"] = json!(keys);
        }
        OptionKind::Count { min, max } => {
            form["type"] = "number".into();
            form["min"] = min.into();
            form["max"] = max.into();
        }
        OptionKind::Table { sizes } => {
            form["type"] = "limit".into();
            let values: Vec<Value> =
                std::iter::once(Value::Null).chain(sizes.iter().map(|&(w, h)| json!([w, h]))).collect();
            form["values"] = values.into();
        }
    }
    form
}

/// The new-game form: presets (with every option's value in each), the
/// rule options, bot levels (the built-in ones, then the server's programs).
pub fn options_json(programs: &[crate::bots::ExternalBot]) -> Value {
    // The form offers the expansions whole (Inns & Cathedrals, Traders &
    // Builders), not their parts one by one (a record or a rules code may
    // still turn a part off).
    let web = |o: &&RuleOption| o.expansion().is_none_or(|e| e.option() == o.name);
    let presets: Vec<Value> = Preset::ALL
        .into_iter()
        .map(|p| {
            let r = Rules::preset(p);
            let values: Map<String, Value> =
                RULE_OPTIONS.iter().filter(web).map(|o| (o.name.to_string(), option_json(o.value(&r)))).collect();
            json!({ "name": p.name(), "summary": p.summary(), "values": values, "code": r.to_code() })
        })
        .collect();
    let options: Vec<Value> = RULE_OPTIONS.iter().filter(web).map(option_form).collect();
    let levels: Vec<Value> = BotLevel::ALL
        .into_iter()
        .map(|l| json!({ "name": l.name(), "description": l.description() }))
        .chain(programs.iter().map(|p| json!({ "name": p.name, "description": p.description, "program": true })))
        .collect();
    json!({
        "presets": presets,
        "options": options,
        "bot_levels": levels,
        "default_bot_level": BotLevel::Normal.name(),
        "colors": COLORS,
        "min_players": 2,
        "max_players": carcassonne::MAX_PLAYERS,
        "max_name": crate::names::MAX_NAME,
    })
}

/// A rule set for its rules page: the code, the record's `rules` object,
/// the whole game in plain words, the farm rule with an example, and every
/// option with its value, the preset's and what it changes.
pub fn rules_json(rules: &Rules) -> Value {
    let base = Rules::preset(rules.preset);
    let options: Vec<Value> = RULE_OPTIONS
        .iter()
        .map(|o| {
            json!({
                "key": o.name, "label": o.label, "about": o.about, "message": o.key,
                "value": option_json(o.value(rules)),
                "value_words": o.value_words(o.value(rules)),
                "value_message": o.value_key(o.value(rules)),
                "preset_value": option_json(o.value(&base)),
                "preset_value_words": o.value_words(o.value(&base)),
                "preset_value_message": o.value_key(o.value(&base)),
                "changed": o.value(rules) != o.value(&base),
                "line": o.line(rules),
            })
        })
        .collect();
    let summary: Vec<Value> =
        rules.summary().into_iter().map(|s| json!({ "title": s.title, "lines": s.lines })).collect();
    json!({
        "code": rules.to_code(),
        "text": rules.to_string(),
        "rules": rules_to_json(rules),
        "preset": rules.preset.name(),
        "preset_summary": rules.headline(),
        "farms": { "rule": rules.farms.name(), "summary": rules.farms.summary(), "example": rules.farms.example() },
        "summary": summary,
        "options": options,
        "explain": rules.explain(),
    })
}

/// A record replayed step by step for the replay viewer: the tiles in the
/// order placed, and after each move the followers, scores and events.
///
/// # Errors
/// The record does not replay (the engine's message says which move and why).
pub fn replay_json(record: &Record) -> Result<Value, ReplayError> {
    Ok(replayed(record)?.0)
}

/// A record the client sent replayed (`POST /api/replay`: a lesson's or a
/// puzzle's position), with `legal`: the placements of the player to move,
/// as a game's state lists them (empty once the game is over). The record
/// is the sender's own, so its next tile is no secret; a stored game's
/// replay (`replay_json`) never lists them.
///
/// # Errors
/// The record does not replay (the engine's message says which move and why).
pub fn practice_json(record: &Record) -> Result<Value, ReplayError> {
    let (mut replay, game) = replayed(record)?;
    replay["legal"] = serde_json::to_value(state::legal_placements(&game)).unwrap_or(Value::Null);
    Ok(replay)
}

fn replayed(record: &Record) -> Result<(Value, Game), ReplayError> {
    let mut replay = carcassonne::record::Replayer::new(record.setup()?)?;
    let mut steps = vec![step_json(replay.game(), 0)];
    for m in &record.moves {
        let before = replay.game().events().len();
        replay.step(m)?;
        let mut step = step_json(replay.game(), before);
        step["move"] = serde_json::to_value(m).unwrap_or(Value::Null);
        steps.push(step);
    }
    let game = replay.finish();
    let board = Laid::all(&game);
    let players: Vec<Value> = record
        .players
        .iter()
        .enumerate()
        .map(|(i, name)| json!({ "seat": i, "name": name, "color": COLORS[i % COLORS.len()] }))
        .collect();
    let value = json!({
        "players": players,
        "rules": rules_to_json(game.rules()),
        "rules_text": game.rules().to_string(),
        "rules_code": game.rules().to_code(),
        "expansions": state::expansions(game.rules()),
        "board": board,
        "steps": steps,
        "finished": game.is_over(),
        "winners": game.winners().iter().map(|p| p.0).collect::<Vec<_>>(),
        "score_history": score_history(&game),
        "breakdown": breakdown(&game),
    });
    Ok((value, game))
}

/// The table after a move: followers, scores, supply and the move's events
/// (events from index `from`).
fn step_json(game: &Game, from: usize) -> Value {
    let followers = Standing::all(game);
    let supply: Vec<u8> = (0..game.num_players()).map(|p| game.supply(PlayerId(p as u8))).collect();
    json!({
        "tiles": game.board().tiles().len(),
        "followers": followers,
        "scores": game.scores(),
        "supply": supply,
        "tiles_left": game.tiles_left(),
        "to_move": game.to_move().map(|p| p.0),
        "events": state::log(game, from, usize::MAX),
    })
}

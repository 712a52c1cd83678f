//! What the server sends: a game as one player (or a spectator) may see it,
//! the tile data the browser draws from, the options of the new-game form,
//! and replays.
//!
//! A view is built from the engine's public, per-player information only
//! (`remaining()` counts, never `deck()`): the order of the bag never leaves
//! the server while a game is in play.

use std::collections::BTreeMap;

use carcassonne::record::{event_json, option_json, rules_to_json, Record, ReplayError};
use carcassonne::{
    standard_deck, Action, Dir, EdgeKind, Event, Game, OptionKind, OptionValue, PlayerId, Preset, RuleOption, Rules,
    TileId, HALF_NAMES, RULE_OPTIONS,
};
use serde_json::{json, Map, Value};

use crate::bots::BotLevel;
use crate::live::{Table, Viewer};
use crate::store::{GameSummary, Seat};

/// Seat colours, in seat order (rules.md: the box's five, then pink).
pub const COLORS: [&str; 6] = ["yellow", "red", "green", "blue", "black", "pink"];

fn at(pos: carcassonne::Pos) -> Value {
    json!([pos.x, pos.y])
}

fn seats_json(to: carcassonne::Seats) -> Value {
    to.iter().map(|p| Value::from(p.0)).collect()
}

/// One event for the game log (all events are public).
pub fn event_to_json(e: &Event) -> Option<Value> {
    Some(match *e {
        Event::TilePlaced { turn, player, tile, pos, rot } => json!({
            "type": "tile", "turn": turn.0, "seat": player.0, "tile": tile.name(), "at": at(pos),
            "rot": rot.quarter_turns(),
        }),
        Event::FollowerDeployed { turn, player, pos, spot, role } => json!({
            "type": "deploy", "turn": turn.0, "seat": player.0, "at": at(pos), "spot": spot.name(),
            "role": role.word(),
        }),
        Event::FollowerReturned { turn, player, pos, spot } => json!({
            "type": "return", "turn": turn.0, "seat": player.0, "at": at(pos), "spot": spot.name(),
        }),
        Event::GameOver { winners } => json!({ "type": "end", "winners": seats_json(winners) }),
        Event::BonusTurn { turn, player } => json!({ "type": "bonus", "turn": turn.0, "seat": player.0 }),
        Event::Scored(_) => {
            let mut v = event_json(e)?;
            v["type"] = "score".into();
            v
        }
        // Discards, and whatever events the engine adds later, in the
        // record's `score` form.
        _ => {
            let mut v = event_json(e)?;
            let kind = v.get("kind").cloned().unwrap_or(Value::Null);
            v["type"] = kind;
            v
        }
    })
}

/// Every award of points: the move (none in the final scoring), what for,
/// how many points each, to whom. Scorings and abbot recalls.
fn points_of(game: &Game) -> Vec<(Option<usize>, &'static str, u32, Vec<PlayerId>)> {
    game.events()
        .iter()
        .filter_map(|e| match *e {
            Event::Scored(s) => Some((s.turn.map(|t| t.0 as usize), s.kind.word(), s.points, s.to.iter().collect())),
            Event::AbbotRecalled { turn, player, points, .. } => {
                Some((Some(turn.0 as usize), "recall", points, vec![player]))
            }
            _ => None,
        })
        .collect()
}

/// Scores after each move (row 0: before the first move), plus a last row
/// after the final scoring once the game is over.
pub fn score_history(game: &Game) -> Vec<Vec<u32>> {
    let n = game.num_players();
    let moves = game.moves_played() as usize;
    let mut rows = vec![vec![0u32; n]; moves + 1];
    let mut last = vec![0u32; n];
    let mut final_row: Option<Vec<u32>> = None;
    for (turn, _, points, to) in points_of(game) {
        let row = match turn {
            Some(t) if t <= moves => &mut rows[t],
            _ => final_row.get_or_insert_with(|| vec![0; n]),
        };
        for p in to {
            if let Some(x) = row.get_mut(p.index()) {
                *x += points;
            }
        }
    }
    for row in rows.iter_mut() {
        for (x, l) in row.iter_mut().zip(last.iter_mut()) {
            *x += *l;
            *l = *x;
        }
    }
    if game.is_over() {
        let mut row = final_row.unwrap_or_else(|| vec![0; n]);
        for (x, l) in row.iter_mut().zip(&last) {
            *x += *l;
        }
        rows.push(row);
    }
    rows
}

/// Points per seat by feature kind, split into those scored during the game
/// and those of the final scoring.
pub fn breakdown(game: &Game) -> Vec<Value> {
    let n = game.num_players();
    let mut during = vec![BTreeMap::<String, u32>::new(); n];
    let mut fin = vec![BTreeMap::<String, u32>::new(); n];
    for (turn, kind, points, to) in points_of(game) {
        let side = if turn.is_some() { &mut during } else { &mut fin };
        for p in to {
            if let Some(m) = side.get_mut(p.index()) {
                *m.entry(kind.to_string()).or_default() += points;
            }
        }
    }
    during.into_iter().zip(fin).map(|(d, f)| json!({ "during": d, "final": f })).collect()
}

/// Counts by tile id, only the ids present.
fn counts_json(counts: &[u8]) -> Map<String, Value> {
    TileId::all()
        .zip(counts.iter())
        .filter(|(_, &n)| n > 0)
        .map(|(t, &n)| (t.name().to_string(), Value::from(n)))
        .collect()
}

/// The legal moves of the player to move, one entry per placement with the
/// actions it allows.
fn legal_json(game: &Game) -> Vec<Value> {
    let mut groups: Vec<(carcassonne::Move, Vec<Value>, Vec<Value>, bool)> = Vec::new();
    for mv in game.legal_moves() {
        let i = match groups.iter().position(|(m, ..)| m.tile == mv.tile && m.pos == mv.pos && m.rot == mv.rot) {
            Some(i) => i,
            None => {
                groups.push((mv, Vec::new(), Vec::new(), false));
                groups.len() - 1
            }
        };
        let g = &mut groups[i];
        match mv.action {
            Action::Follower(s) => g.1.push(s.name().into()),
            Action::Abbot(s) => g.2.push(s.name().into()),
            Action::Recall => g.3 = true,
            _ => {}
        }
    }
    groups
        .into_iter()
        .map(|(m, meeple, abbot, recall)| {
            json!({
                "tile": m.tile.name(), "at": at(m.pos), "rot": m.rot.quarter_turns(),
                "meeple": meeple, "abbot": abbot, "recall": recall,
            })
        })
        .collect()
}

fn seat_kind(seat: &Seat) -> (&'static str, Option<&str>) {
    match seat {
        Seat::Human { .. } => ("human", None),
        Seat::Bot { level, .. } => ("bot", Some(level.name())),
    }
}

/// Whether `viewer` may see what `p` holds: their own seat, or a hand on the table.
fn sees_hand(game: &Game, viewer: &Viewer, p: PlayerId) -> bool {
    viewer.holds(p) || game.hand_visible_to_all(p)
}

/// Whether some player's tiles are hidden from the others.
pub fn hidden_hands(game: &Game) -> bool {
    !game.is_over() && (0..game.num_players()).any(|p| !game.hand_visible_to_all(PlayerId(p as u8)))
}

/// The game as `viewer` may see it. The bag's order is not in it; a player's
/// legal moves are sent only to the player to move.
pub fn state_json(id: &str, table: &Table, viewer: &Viewer) -> Value {
    let mut state = state_without_log(id, table, viewer);
    if let Some(s) = state.as_object_mut() {
        s.insert("log".into(), log_json(&table.game, 0).into());
    }
    state
}

/// The log from the game's event number `from` on (events the log does not
/// show are skipped, so `from` counts [`Game::events`], not log entries).
pub fn log_json(game: &Game, from: usize) -> Vec<Value> {
    game.events().get(from..).unwrap_or_default().iter().filter_map(event_to_json).collect()
}

/// [`state_json`] without its `log`, which grows with every move: protocol 2
/// sends each event once.
pub fn state_without_log(id: &str, table: &Table, viewer: &Viewer) -> Value {
    let game = &table.game;
    let players: Vec<Value> = table
        .seats
        .iter()
        .enumerate()
        .map(|(i, seat)| {
            let p = PlayerId(i as u8);
            let (kind, level) = seat_kind(seat);
            let hand = game.hand(p);
            json!({
                "seat": i, "name": seat.name(), "kind": kind, "level": level, "color": COLORS[i % COLORS.len()],
                "score": game.scores().get(i).copied().unwrap_or(0), "supply": game.supply(p),
                "abbot": game.rules().abbot.then(|| game.abbot_in_supply(p)),
                "hand": sees_hand(game, viewer, p).then(|| hand.iter().map(|t| t.name()).collect::<Vec<_>>()),
                "hand_count": hand.len(),
                "you": viewer.holds(p),
                "remote": matches!(seat, Seat::Human { remote: true, .. }),
                // A websocket holding this seat is open (a bot is always here).
                "online": seat.bot_level().is_some() || table.seat_online(i),
            })
        })
        .collect();
    let board = board_json(game);
    let followers: Vec<Value> = game
        .followers()
        .iter()
        .map(|f| json!({ "seat": f.player.0, "at": at(f.pos), "spot": f.spot.name(), "role": f.role.word() }))
        .collect();
    let turn = game.to_move().map(|p| {
        // Everyone sees the drawn tile in the base game; a hidden hand only
        // its owner sees, hence a list that may be empty.
        let tiles: Vec<&str> =
            if sees_hand(game, viewer, p) { game.hand(p).iter().map(|t| t.name()).collect() } else { Vec::new() };
        json!({ "seat": p.0, "number": game.moves_played() + 1, "tiles": tiles, "count": game.hand(p).len() })
    });
    let legal = match game.to_move() {
        Some(p) if viewer.holds(p) && table.thinking_seat().is_none() => Value::from(legal_json(game)),
        _ => Value::Null,
    };
    // Built by moving each part in (the `json!` macro would copy every
    // part through the serializer: the board, the legal moves, the scores).
    let mut state = Map::with_capacity(24);
    let mut put = |key: &str, value: Value| {
        state.insert(key.to_string(), value);
    };
    put("id", id.into());
    put("version", table.version().into());
    put("status", if game.is_over() { "finished" } else { "playing" }.into());
    put("rules", rules_to_json(game.rules()).into());
    put("rules_text", game.rules().to_string().into());
    put("rules_code", game.rules().to_code().into());
    put("players", players.into());
    put("you", viewer.seats.iter().map(|p| p.0).collect::<Vec<_>>().into());
    put("board", board.into());
    put("followers", followers.into());
    put("turn", turn.unwrap_or(Value::Null));
    put("thinking", table.thinking_seat().map(|p| p.0).into());
    // The last word about a bot: a program replaced by the built-in bot.
    put(
        "notice",
        table.notice.as_ref().map_or(Value::Null, |(version, text)| json!({ "version": version, "text": text })),
    );
    put("legal", legal);
    put("tiles_left", game.tiles_left().into());
    // Tiles this viewer cannot see (the bag and hands hidden from them):
    // counts of the bag alone would give away the others' hands.
    put("remaining", counts_json(&game.unseen(|p| sees_hand(game, viewer, p))).into());
    put("deck_counts", counts_json(&game.tile_counts()).into());
    put("score_history", score_history(game).into_iter().map(Value::from).collect::<Vec<_>>().into());
    put("breakdown", breakdown(game).into());
    put("winners", game.winners().iter().map(|p| p.0).collect::<Vec<_>>().into());
    put("created_at", table.created_at.into());
    put("updated_at", table.updated_at.into());
    Value::Object(state)
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
        "status": if s.progress.finished { "finished" } else { "playing" },
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

/// Every tile's shape in its canonical orientation, for the browser to draw.
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
                    json!({ "kind": s.kind.word(), "edges": dirs(s.edges), "halves": halves, "cities": cities })
                })
                .collect();
            json!({
                "id": t.name(),
                "course": t.course_name(),
                "edges": def.edges.map(EdgeKind::word),
                "segments": segments,
                "river": dirs(def.river),
                "shield": def.shield,
                "cloister": def.has_cloister(),
                "garden": def.has_garden(),
            })
        })
        .collect();
    json!({ "halves": HALF_NAMES, "tiles": tiles, "standard_counts": counts_json(&standard), "start": TileId::START.name() })
}

/// How the new-game form shows a rule option (from the engine's one
/// description of it, [`RULE_OPTIONS`]).
fn option_form(o: &RuleOption) -> Value {
    let mut form = json!({
        "key": o.name, "label": o.label, "about": o.about,
        "default": option_json(o.default_for(Preset::Standard)),
    });
    match o.kind {
        OptionKind::Flag => form["type"] = "bool".into(),
        OptionKind::Choice(words) => {
            form["type"] = "choice".into();
            form["values"] = json!(words);
            let labels: Vec<String> = words.iter().map(|&w| o.value_words(OptionValue::Choice(w))).collect();
            form["value_labels"] = json!(labels);
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
    let presets: Vec<Value> = Preset::ALL
        .into_iter()
        .map(|p| {
            let r = Rules::preset(p);
            let values: Map<String, Value> =
                RULE_OPTIONS.iter().map(|o| (o.name.to_string(), option_json(o.value(&r)))).collect();
            json!({ "name": p.name(), "summary": p.summary(), "values": values, "code": r.to_code() })
        })
        .collect();
    let options: Vec<Value> = RULE_OPTIONS.iter().map(option_form).collect();
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
                "key": o.name, "label": o.label, "about": o.about,
                "value": option_json(o.value(rules)),
                "value_words": o.value_words(o.value(rules)),
                "preset_value": option_json(o.value(&base)),
                "preset_value_words": o.value_words(o.value(&base)),
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
        "preset_summary": rules.preset.summary(),
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
    let board = board_json(&game);
    let players: Vec<Value> = record
        .players
        .iter()
        .enumerate()
        .map(|(i, name)| json!({ "seat": i, "name": name, "color": COLORS[i % COLORS.len()] }))
        .collect();
    Ok(json!({
        "players": players,
        "rules": rules_to_json(game.rules()),
        "rules_text": game.rules().to_string(),
        "rules_code": game.rules().to_code(),
        "board": board,
        "steps": steps,
        "finished": game.is_over(),
        "winners": game.winners().iter().map(|p| p.0).collect::<Vec<_>>(),
        "score_history": score_history(&game),
        "breakdown": breakdown(&game),
    }))
}

/// The table after a move: followers, scores, supply and the move's events
/// (events from index `from`).
fn step_json(game: &Game, from: usize) -> Value {
    let followers: Vec<Value> = game
        .followers()
        .iter()
        .map(|f| json!({ "seat": f.player.0, "at": at(f.pos), "spot": f.spot.name(), "role": f.role.word() }))
        .collect();
    let supply: Vec<u8> = (0..game.num_players()).map(|p| game.supply(PlayerId(p as u8))).collect();
    json!({
        "tiles": game.board().tiles().len(),
        "followers": followers,
        "scores": game.scores(),
        "supply": supply,
        "tiles_left": game.tiles_left(),
        "to_move": game.to_move().map(|p| p.0),
        "events": game.events()[from.min(game.events().len())..].iter().filter_map(event_to_json).collect::<Vec<_>>(),
    })
}

/// The placed tiles, in the order they were placed.
fn board_json(game: &Game) -> Vec<Value> {
    game.board()
        .tiles()
        .iter()
        .map(|t| json!({ "tile": t.tile.name(), "at": at(t.pos), "rot": t.rot.quarter_turns() }))
        .collect()
}

#[cfg(test)]
mod tests {
    use carcassonne::{seeded_rng, Game, PlayerId, RandomMover, Rules, Setup};

    use super::state_json;
    use crate::live::{Table, Viewer};
    use crate::store::Seat;

    fn table(game: Game) -> Table {
        let seats = (0..game.num_players())
            .map(|i| Seat::Human { name: format!("P{i}"), token_hash: String::new(), remote: false })
            .collect();
        Table::new(game, seats, 0, 0)
    }

    fn bytes(game: &Game, viewer: &Viewer) -> String {
        state_json("g", &table(game.clone()), viewer).to_string()
    }

    /// Two games with the same public history and different hidden hands
    /// send the same bytes to every viewer who cannot see those hands: the
    /// opponent and the spectator. Over random games with every hand option.
    #[test]
    fn hidden_hands_never_show_in_a_view() {
        let options = [
            Rules { hand: 2, ..Rules::default() },
            Rules { hand: 3, ..Rules::default() },
            Rules { draw_at_turn_end: true, ..Rules::default() },
            Rules { hand: 3, draw_at_turn_end: true, river: true, ..Rules::default() },
            Rules { hand: 2, abbot: true, ..Rules::default() },
        ];
        let mut hands_differed = 0;
        for seed in 0..60u64 {
            let rules = options[seed as usize % options.len()];
            let players = 2 + (seed as usize % 3);
            let mut game = Game::new(Setup::standard(rules, players, seed)).unwrap();
            let mut rng = seeded_rng(seed);
            let mut mover = RandomMover::new();
            let turns = (seed * 7 % 60) as u16;
            while game.moves_played() < turns {
                let Some(mv) = mover.choose(&game, &mut rng) else { break };
                game.play(&mv).unwrap();
            }
            if game.is_over() {
                continue;
            }
            for me in 0..players {
                let me = PlayerId(me as u8);
                // Another game the same to `me`'s eyes: the bag and the
                // others' hands dealt again.
                let mut other = game.clone();
                other.resample_hidden(me, &mut rng);
                let others = (0..players as u8).map(PlayerId).filter(|&p| p != me);
                if others.clone().any(|p| other.hand(p) != game.hand(p)) {
                    hands_differed += 1;
                }
                let seat = Viewer { seats: vec![me] };
                assert_eq!(bytes(&game, &seat), bytes(&other, &seat), "seed {seed} {rules}: seat {}", me.0);
                let spectator = Viewer::default();
                assert_eq!(bytes(&game, &spectator), bytes(&other, &spectator), "seed {seed} {rules}: spectator");
                // The player whose hand was dealt again sees the difference.
                if let Some(p) = others.clone().find(|&p| other.hand(p) != game.hand(p)) {
                    let them = Viewer { seats: vec![p] };
                    assert_ne!(bytes(&game, &them), bytes(&other, &them), "seed {seed}: a hand that changed");
                }
            }
        }
        assert!(hands_differed > 50, "only {hands_differed} cases had different hidden hands");
    }
}

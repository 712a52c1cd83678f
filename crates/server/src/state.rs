//! The game as one viewer may see it, typed: what `GET /api/games/{id}` and
//! a websocket's `state` carry, and the parts an `update` sends when they
//! change (docs/web.md, "Websocket").
//!
//! A [`StateView`] is built from the engine's public, per-player information
//! only (`unseen()` counts, never `deck()`): the order of the bag never leaves
//! the server while a game is in play, and a hand hidden from the viewer shows
//! only as a count and inside the counts of unseen tiles.
//!
//! Its fields are declared once, in [`state_fields!`]: the struct, the
//! changes an update carries and the comparison that finds them are all
//! written from that one list.

use std::any::Any;
use std::sync::{Arc, OnceLock};

use carcassonne::record::rules_to_json;
use carcassonne::{Action, Event, Expansion, Figure, Game, Good, PlayerId, Rules, TileId, MAX_PLAYERS, TILE_KINDS};
use serde::ser::{SerializeMap, SerializeSeq};
use serde::{Serialize, Serializer};
use serde_json::{Map, Value};

use crate::services::games::clock::ClockView;
use crate::services::games::{Table, Viewer};
use crate::services::takebacks::{self, TakebackView};
use crate::store::Seat;

/// A cell of the board: `[x, y]`.
pub type At = [i32; 2];

fn at(pos: carcassonne::Pos) -> At {
    [pos.x, pos.y]
}

/// A tile on the board.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Laid {
    pub tile: &'static str,
    pub at: At,
    pub rot: u8,
}

impl Laid {
    pub fn all(game: &Game) -> Vec<Laid> {
        game.board()
            .tiles()
            .iter()
            .map(|t| Laid { tile: t.tile.name(), at: at(t.pos), rot: t.rot.quarter_turns() })
            .collect()
    }
}

/// A follower on the board.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Standing {
    pub seat: u8,
    pub at: At,
    pub spot: &'static str,
    pub role: &'static str,
    /// The big follower (Inns & Cathedrals; left out for the others).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub big: bool,
}

impl Standing {
    pub fn of(f: &carcassonne::Follower) -> Standing {
        Standing { seat: f.player.0, at: at(f.pos), spot: f.spot.name(), role: f.role.word(), big: f.big }
    }

    pub fn all(game: &Game) -> Vec<Standing> {
        game.followers().iter().map(Standing::of).collect()
    }
}

/// A seat as everyone sees it, with its hand when this viewer may see it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PlayerView {
    pub seat: usize,
    pub name: String,
    pub kind: &'static str,
    pub level: Option<String>,
    pub color: &'static str,
    pub score: u32,
    pub supply: u8,
    /// Whether the abbot is in the supply (The Abbot only).
    pub abbot: Option<bool>,
    /// Whether the big follower, the builder, the pig are in the supply
    /// (left out in games without them).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub big: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub builder: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pig: Option<bool>,
    /// Goods tokens held: wine, wheat, cloth (left out in games without goods).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub goods: Option<[u8; 3]>,
    pub hand: Option<Tiles>,
    pub hand_count: usize,
    pub you: bool,
    pub remote: bool,
    /// A websocket holding this seat is open (a bot is always here).
    pub online: bool,
}

/// Whose turn it is; the tiles they hold if this viewer may see them.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TurnView {
    pub seat: u8,
    pub number: u16,
    pub tiles: Tiles,
    pub count: usize,
    /// The part of the turn to play: `builder` for the builder's second
    /// tile (a move then says `"bonus": "builder"`); left out otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bonus: Option<&'static str>,
}

/// The last word about a bot (a program replaced by the built-in bot).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Notice {
    pub version: u64,
    pub text: String,
}

/// One placement the player to move may make, with the follower decisions
/// it allows. (`abbot` and `recall` are left out where they do not apply:
/// most games have no abbot, and the list goes with every turn.)
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LegalPlacement {
    pub tile: &'static str,
    pub at: At,
    pub rot: u8,
    /// Spots a follower may go to.
    pub meeple: Spots,
    /// Spots the abbot may go to.
    #[serde(skip_serializing_if = "Spots::is_empty")]
    pub abbot: Spots,
    /// Whether the abbot may be taken back instead.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub recall: bool,
    /// Spots the big follower, the builder, the pig may go to (the expansions).
    #[serde(skip_serializing_if = "Spots::is_empty")]
    pub big: Spots,
    #[serde(skip_serializing_if = "Spots::is_empty")]
    pub builder: Spots,
    #[serde(skip_serializing_if = "Spots::is_empty")]
    pub pig: Spots,
}

/// The legal moves of the player to move, one entry per placement, in the
/// engine's order (each tile of the hand once, its placements, and each
/// placement's decisions).
pub fn legal_placements(game: &Game) -> Vec<LegalPlacement> {
    let mut out = Vec::new();
    if game.is_over() {
        return out;
    }
    let mut placements = Vec::new();
    for (_, tile) in game.tiles_to_place() {
        placements.clear();
        game.placements_of(tile, &mut placements);
        out.reserve(placements.len());
        for &placement in &placements {
            let none = Spots::default();
            let (at, rot) = (at(placement.pos), placement.rot.quarter_turns());
            let mut g = LegalPlacement {
                tile: tile.name(),
                at,
                rot,
                meeple: none,
                abbot: none,
                recall: false,
                big: none,
                builder: none,
                pig: none,
            };
            game.each_action(tile, placement, |action| match action {
                Action::Follower(s) => g.meeple.add(s),
                Action::Abbot(s) => g.abbot.add(s),
                Action::Recall => g.recall = true,
                Action::Pass => {}
                Action::BigFollower(s) => g.big.add(s),
                Action::Builder(s) => g.builder.add(s),
                Action::Pig(s) => g.pig.add(s),
            });
            out.push(g);
        }
    }
    out
}

/// A set of a tile's spots, listed by name (in the order they were added).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Spots {
    len: u8,
    list: [&'static str; 16],
}

impl Spots {
    fn is_empty(&self) -> bool {
        self.len == 0
    }

    fn add(&mut self, s: carcassonne::Spot) {
        if let Some(slot) = self.list.get_mut(self.len as usize) {
            *slot = s.name();
            self.len += 1;
        }
    }
}

impl Serialize for Spots {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(&self.list[..self.len as usize])
    }
}

/// Tiles by name.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tiles(Vec<TileId>);

impl Serialize for Tiles {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.iter().map(|t| t.name()))
    }
}

/// Counts by tile, listed as `{name: count}` for the tiles present.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Counts(pub [u8; TILE_KINDS]);

impl Serialize for Counts {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(None)?;
        for (t, &n) in TileId::all().zip(self.0.iter()) {
            if n > 0 {
                map.serialize_entry(t.name(), &n)?;
            }
        }
        map.end()
    }
}

/// One number per seat.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PerSeat {
    len: u8,
    of: [u32; MAX_PLAYERS],
}

impl PerSeat {
    fn zeros(n: usize) -> PerSeat {
        PerSeat { len: n.min(MAX_PLAYERS) as u8, of: [0; MAX_PLAYERS] }
    }

    fn add(&mut self, p: PlayerId, points: u32) {
        if p.index() < self.len as usize {
            self.of[p.index()] += points;
        }
    }

    pub fn as_slice(&self) -> &[u32] {
        &self.of[..self.len as usize]
    }
}

impl Serialize for PerSeat {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(self.len as usize))?;
        for x in self.as_slice() {
            seq.serialize_element(x)?;
        }
        seq.end()
    }
}

/// Points by what they were for (`city`, `road`, `farm`, …, `recall`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Kinds(Vec<(&'static str, u32)>);

impl Kinds {
    fn add(&mut self, kind: &'static str, points: u32) {
        match self.0.binary_search_by(|(k, _)| k.cmp(&kind)) {
            Ok(i) => self.0[i].1 += points,
            Err(i) => self.0.insert(i, (kind, points)),
        }
    }
}

impl Serialize for Kinds {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

/// A seat's points by kind, scored during the game and in the final scoring.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Breakdown {
    pub during: Kinds,
    #[serde(rename = "final")]
    pub fin: Kinds,
}

/// Every award of points: the move (none in the final scoring), what for,
/// how many points each, to whom. Scorings and abbot recalls.
fn points_of(game: &Game) -> impl Iterator<Item = (Option<usize>, &'static str, u32, carcassonne::Seats)> + '_ {
    game.events().iter().filter_map(|e| match *e {
        Event::Scored(s) => Some((s.turn.map(|t| t.0 as usize), s.kind.word(), s.points, s.to)),
        Event::AbbotRecalled { turn, player, points, .. } => {
            Some((Some(turn.0 as usize), "recall", points, carcassonne::Seats(1 << player.0)))
        }
        _ => None,
    })
}

/// Scores after each move (row 0: before the first move), plus a last row
/// after the final scoring once the game is over.
pub fn score_history(game: &Game) -> Vec<PerSeat> {
    let n = game.num_players();
    let moves = game.moves_played() as usize;
    let mut rows = vec![PerSeat::zeros(n); moves + 1];
    let mut final_row = PerSeat::zeros(n);
    for (turn, _, points, to) in points_of(game) {
        let row = match turn {
            Some(t) if t <= moves => &mut rows[t],
            _ => &mut final_row,
        };
        for p in to.iter() {
            row.add(p, points);
        }
    }
    let mut last = PerSeat::zeros(n);
    for row in rows.iter_mut() {
        for (x, l) in row.of.iter_mut().zip(last.of.iter_mut()) {
            *x += *l;
            *l = *x;
        }
    }
    if game.is_over() {
        for (x, l) in final_row.of.iter_mut().zip(last.of) {
            *x += l;
        }
        rows.push(final_row);
    }
    rows
}

/// Points per seat by feature kind, split into those scored during the game
/// and those of the final scoring.
pub fn breakdown(game: &Game) -> Vec<Breakdown> {
    let mut seats = vec![Breakdown::default(); game.num_players()];
    for (turn, kind, points, to) in points_of(game) {
        for p in to.iter() {
            if let Some(b) = seats.get_mut(p.index()) {
                let side = if turn.is_some() { &mut b.during } else { &mut b.fin };
                side.add(kind, points);
            }
        }
    }
    seats
}

/// Seat colours, in seat order (rules.md: the box's five, then pink).
pub const COLORS: [&str; 6] = ["yellow", "red", "green", "blue", "black", "pink"];

pub(crate) fn seat_kind(seat: &Seat) -> (&'static str, Option<&str>) {
    match seat {
        Seat::Human { .. } => ("human", None),
        Seat::Bot { level, .. } => ("bot", Some(level.name())),
    }
}

/// Whether `viewer` may see what `p` holds: their own seat, or a hand on the table.
pub(crate) fn sees_hand(game: &Game, viewer: &Viewer, p: PlayerId) -> bool {
    viewer.holds(p) || game.hand_visible_to_all(p)
}

/// What a table's views share and never changes: the game's id, whether it
/// is rated, and its rules.
#[derive(Debug, PartialEq, Serialize)]
pub struct Fixed {
    pub id: String,
    pub rated: bool,
    pub rules: Map<String, Value>,
    pub rules_text: String,
    pub rules_code: String,
    /// The expansions in play, by their options' names ([`expansions`]).
    pub expansions: Vec<&'static str>,
}

/// The expansions `rules` play, by their options' names (`inns_cathedrals`,
/// `traders_builders`): the page draws their tiles when a game or a replay
/// needs them (a preset such as `big-box` names none in `rules`).
pub fn expansions(rules: &Rules) -> Vec<&'static str> {
    let on = |e: &Expansion| match e {
        Expansion::InnsCathedrals => rules.inns_cathedrals,
        Expansion::TradersBuilders => rules.traders_builders,
    };
    Expansion::ALL.into_iter().filter(on).map(Expansion::option).collect()
}

/// [`Fixed`], made once per table (kept in `Table::fixed`).
fn fixed(cell: &OnceLock<Arc<dyn Any + Send + Sync>>, id: &str, game: &Game, rated: bool) -> Arc<Fixed> {
    let make = || {
        let rules = game.rules();
        Fixed {
            id: id.to_string(),
            rated,
            rules: rules_to_json(rules),
            rules_text: rules.to_string(),
            rules_code: rules.to_code(),
            expansions: expansions(rules),
        }
    };
    let kept = Arc::clone(cell.get_or_init(|| Arc::new(make())));
    kept.downcast::<Fixed>().unwrap_or_else(|_| Arc::new(make()))
}

/// Writes [`StateView`] (every field in order), [`Changes`] (each field that
/// changed, an `Option` of a reference to it) and the comparison between two
/// views that yields the changes, from one list of fields. Fields under
/// `grows` are lists that only grow while a game is played (what was laid or
/// scored stays): an update appends their new items.
macro_rules! state_fields {
    (
        fixed: $fixed:ident;
        fields { $( $(#[$m:meta])* $field:ident : $ty:ty ),* $(,)? }
        grows { $( $(#[$gm:meta])* $grow:ident : $gty:ty ),* $(,)? }
        after { $( $(#[$am:meta])* $after:ident : $aty:ty ),* $(,)? }
    ) => {
        /// The game as one viewer may see it (without its log).
        #[derive(Clone, Debug, PartialEq, Serialize)]
        pub struct StateView {
            #[serde(flatten)]
            pub $fixed: Arc<Fixed>,
            $( $(#[$m])* pub $field: $ty, )*
            $( $(#[$gm])* pub $grow: Vec<$gty>, )*
            $( $(#[$am])* pub $after: $aty, )*
        }

        /// The fields of a [`StateView`] whose values changed, with their new values.
        #[derive(Default, Serialize)]
        pub struct Changes<'a> {
            $( #[serde(skip_serializing_if = "Option::is_none")] pub $field: Option<&'a $ty>, )*
            $( #[serde(skip_serializing_if = "Option::is_none")] pub $grow: Option<&'a [$gty]>, )*
            $( #[serde(skip_serializing_if = "Option::is_none")] pub $after: Option<&'a $aty>, )*
        }

        /// The lists that grew: their new items (and the log's new entries).
        #[derive(Default, Serialize)]
        pub struct Appended<'a> {
            #[serde(skip_serializing_if = "Vec::is_empty")]
            pub log: Vec<LogEntry>,
            $( #[serde(skip_serializing_if = "Option::is_none")] pub $grow: Option<&'a [$gty]>, )*
        }

        impl StateView {
            /// What changed from `self` to `now`: values that differ, and
            /// the new items of the lists that grew. A list that did not
            /// just grow (a different game, a rewound one) is sent whole.
            pub fn changes<'a>(&self, now: &'a StateView) -> (Changes<'a>, Appended<'a>, bool) {
                let mut changes = Changes::default();
                let mut appended = Appended::default();
                let mut any = false;
                $( if self.$field != now.$field { changes.$field = Some(&now.$field); any = true; } )*
                $( match grown(&self.$grow, &now.$grow) {
                    Some(new) if new.is_empty() => {}
                    Some(new) => { appended.$grow = Some(new); any = true; }
                    None => { changes.$grow = Some(&now.$grow); any = true; }
                } )*
                $( if self.$after != now.$after { changes.$after = Some(&now.$after); any = true; } )*
                (changes, appended, any)
            }
        }
    };
}

/// `now`'s new items if it is `old` grown (compared by their ends: what
/// was laid or scored stays as it was); `None` if it is not.
fn grown<'a, T: PartialEq>(old: &[T], now: &'a [T]) -> Option<&'a [T]> {
    let kept = old.len() <= now.len() && old.last() == old.len().checked_sub(1).and_then(|i| now.get(i));
    kept.then(|| &now[old.len()..])
}

state_fields! {
    fixed: fixed;
    fields {
        version: u64,
        status: &'static str,
        players: Vec<PlayerView>,
        /// The seats this viewer holds.
        you: Vec<u8>,
    }
    grows {
        board: Laid,
        /// Scores after each move (and after the final scoring).
        score_history: PerSeat,
    }
    after {
        followers: Vec<Standing>,
        turn: Option<TurnView>,
        /// The bot choosing a move now.
        thinking: Option<u8>,
        notice: Option<Notice>,
        /// Sent only to the player to move, while no bot thinks.
        legal: Option<Vec<LegalPlacement>>,
        tiles_left: usize,
        /// Tiles this viewer cannot see (the bag and hands hidden from
        /// them): counts of the bag alone would give away the others' hands.
        remaining: Counts,
        deck_counts: Counts,
        breakdown: Vec<Breakdown>,
        winners: Vec<u8>,
        created_at: i64,
        updated_at: i64,
        /// The clocks (services/clocks.rs): none for a game made before them.
        clock: Option<ClockView>,
        /// Whether this viewer may ask to take back their last move now
        /// (services/takebacks.rs).
        may_take_back: bool,
        /// The game's latest takeback request (none: never asked).
        takeback: Option<TakebackView>,
    }
}

impl StateView {
    /// The game at `table` as `viewer` may see it. A player's legal moves
    /// are sent only to the player to move.
    pub fn new(id: &str, table: &Table, viewer: &Viewer) -> StateView {
        let game = &table.game;
        let sees = |p: PlayerId| sees_hand(game, viewer, p);
        let players = table
            .seats
            .iter()
            .enumerate()
            .map(|(i, seat)| {
                let p = PlayerId(i as u8);
                let (kind, level) = seat_kind(seat);
                let hand = game.hand(p);
                PlayerView {
                    seat: i,
                    name: seat.name().to_string(),
                    kind,
                    level: level.map(str::to_string),
                    color: COLORS[i % COLORS.len()],
                    score: game.scores().get(i).copied().unwrap_or(0),
                    supply: game.supply(p),
                    abbot: game.rules().abbot.then(|| game.abbot_in_supply(p)),
                    big: game.rules().has_big_follower().then(|| game.in_supply(p, Figure::BigFollower)),
                    builder: game.rules().has_builder().then(|| game.in_supply(p, Figure::Builder)),
                    pig: game.rules().has_pig().then(|| game.in_supply(p, Figure::Pig)),
                    goods: game.rules().has_goods().then(|| game.goods(p)),
                    hand: sees(p).then(|| Tiles(hand.to_vec())),
                    hand_count: hand.len(),
                    you: viewer.holds(p),
                    remote: matches!(seat, Seat::Human { remote: true, .. }),
                    online: matches!(seat, Seat::Bot { .. }) || table.seat_online(i),
                }
            })
            .collect();
        // Everyone sees the drawn tile in the base game; a hidden hand only
        // its owner sees, hence a list that may be empty.
        let turn = game.to_move().map(|p| TurnView {
            seat: p.0,
            number: game.moves_played() + 1,
            tiles: if sees(p) { Tiles(game.hand(p).to_vec()) } else { Tiles::default() },
            count: game.hand(p).len(),
            bonus: game.bonus().map(|b| b.word()),
        });
        let thinking = table.thinking_seat();
        let legal = match table.to_move() {
            Some(p) if viewer.holds(p) && thinking.is_none() && table.bot_to_move().is_none() => {
                Some(legal_placements(game))
            }
            _ => None,
        };
        StateView {
            fixed: fixed(&table.fixed, id, game, table.rated),
            version: table.version(),
            status: if table.finished() {
                "finished"
            } else if table.aborted() {
                "aborted"
            } else {
                "playing"
            },
            players,
            you: viewer.seats.iter().map(|p| p.0).collect(),
            board: Laid::all(game),
            followers: Standing::all(game),
            turn,
            thinking: thinking.map(|p| p.0),
            notice: table.notice.as_ref().map(|(version, text)| Notice { version: *version, text: text.clone() }),
            legal,
            tiles_left: game.tiles_left(),
            remaining: Counts(game.unseen(sees)),
            deck_counts: Counts(game.tile_counts()),
            score_history: score_history(game),
            breakdown: breakdown(game),
            winners: table.winners(),
            created_at: table.created_at,
            updated_at: table.updated_at,
            clock: table
                .clock
                .as_ref()
                .map(|c| ClockView::new(c, game, &table.seats, table.updated_at, table.now.ms(), table.rated)),
            may_take_back: takebacks::may_ask(table, viewer, table.now.ms()),
            takeback: table.takeback.as_ref().map(|t| TakebackView::new(t, game, &table.seats, table.now.ms())),
        }
    }
}

/// A [`StateView`] with its log: the whole state.
#[derive(Serialize)]
pub struct WithLog<'a> {
    #[serde(flatten)]
    pub state: &'a StateView,
    pub log: Vec<LogEntry>,
}

/// One entry of the game log (every event is public). Scorings, discards
/// and abbot recalls carry the fields of the record's `score` output
/// (record.md), `kind` included.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum LogEntry {
    Tile {
        turn: u16,
        seat: u8,
        tile: &'static str,
        at: At,
        rot: u8,
        /// `builder`: the builder's second tile (Traders & Builders).
        #[serde(skip_serializing_if = "Option::is_none")]
        bonus: Option<&'static str>,
    },
    Deploy {
        turn: u16,
        seat: u8,
        at: At,
        spot: &'static str,
        role: &'static str,
        /// The big follower (Inns & Cathedrals).
        #[serde(skip_serializing_if = "std::ops::Not::not")]
        big: bool,
    },
    Return {
        turn: u16,
        seat: u8,
        at: At,
        spot: &'static str,
        /// The figure that came home, as it was deployed (in a game's log:
        /// a builder or a pig is no follower, a big follower counts two).
        #[serde(skip_serializing_if = "Option::is_none")]
        role: Option<&'static str>,
        #[serde(skip_serializing_if = "std::ops::Not::not")]
        big: bool,
    },
    Score(ScoreEntry),
    Discard {
        turn: u16,
        kind: &'static str,
        tile: &'static str,
    },
    Reshuffle {
        turn: u16,
        kind: &'static str,
        tile: &'static str,
    },
    Recall {
        turn: u16,
        kind: &'static str,
        points: u32,
        to: [u8; 1],
    },
    Bonus {
        turn: u16,
        seat: u8,
    },
    End {
        winners: Vec<u8>,
    },
}

/// A scoring, as the record's `score` output lists it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ScoreEntry {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub turn: Option<u16>,
    pub kind: &'static str,
    pub when: &'static str,
    /// Left out for goods taken with a completed city (they pay no points).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub points: Option<u32>,
    pub to: Vec<u8>,
    /// Roads and cities.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tiles: Option<u8>,
    /// Cities.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shields: Option<u8>,
    /// Farms: the completed cities they supply.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cities: Option<u8>,
    /// A road with an inn, a city with a cathedral, that scored as such.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub inn: bool,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub cathedral: bool,
    /// Farms: of their cities, how many paid 1 more for a pig.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pig: Option<u8>,
    /// Goods taken with a completed city, by kind (`{"wine": 1}`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub goods: Option<GoodsTaken>,
    /// The final goods majority: the kind and the top count.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub good: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub count: Option<u8>,
    /// The tiles it was for, as indices into the board in the order laid
    /// (for showing why it scored; not in the record).
    pub cover: Vec<u8>,
    /// The final scoring: the followers that stood on what it scored,
    /// `counted` for those of the seats it paid (the others were
    /// outnumbered). Empty for a feature completed in play (its followers'
    /// `return` entries follow it).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub followers: Vec<Counted>,
}

/// Goods tokens by kind, listed as `{kind: count}` for the kinds taken.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GoodsTaken(pub [u8; 3]);

impl Serialize for GoodsTaken {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(None)?;
        for (g, &n) in Good::ALL.iter().zip(self.0.iter()) {
            if n > 0 {
                map.serialize_entry(g.word(), &n)?;
            }
        }
        map.end()
    }
}

/// A follower on a feature scored at the end: whether it counted.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Counted {
    #[serde(flatten)]
    pub follower: Standing,
    pub counted: bool,
}

impl LogEntry {
    pub fn of(e: &Event) -> LogEntry {
        use carcassonne::{ScoredKind, When};
        match *e {
            Event::TilePlaced { turn, player, tile, pos, rot } => LogEntry::Tile {
                turn: turn.0,
                seat: player.0,
                tile: tile.name(),
                at: at(pos),
                rot: rot.quarter_turns(),
                bonus: None,
            },
            Event::FollowerDeployed { turn, player, pos, spot, role, big } => LogEntry::Deploy {
                turn: turn.0,
                seat: player.0,
                at: at(pos),
                spot: spot.name(),
                role: role.word(),
                big,
            },
            Event::FollowerReturned { turn, player, pos, spot } => LogEntry::Return {
                turn: turn.0,
                seat: player.0,
                at: at(pos),
                spot: spot.name(),
                role: None,
                big: false,
            },
            Event::Scored(s) => LogEntry::Score(ScoreEntry {
                turn: s.turn.map(|t| t.0),
                kind: s.kind.word(),
                when: s.when.word(),
                points: (s.kind != ScoredKind::Goods || s.when == When::Final).then_some(s.points),
                to: s.to.iter().map(|p| p.0).collect(),
                tiles: matches!(s.kind, ScoredKind::Road | ScoredKind::City).then_some(s.tiles),
                shields: matches!(s.kind, ScoredKind::City).then_some(s.shields),
                cities: matches!(s.kind, ScoredKind::Farm).then_some(s.cities),
                inn: s.inn,
                cathedral: s.cathedral,
                pig: (s.kind == ScoredKind::Farm && s.pig > 0).then_some(s.pig),
                goods: (s.kind == ScoredKind::Goods && s.when == When::Completed).then_some(GoodsTaken(s.goods)),
                good: s.good().map(Good::word),
                count: s.good().map(|g| s.goods[g.index()]),
                cover: (0..128u8).filter(|&i| s.cover & (1 << i) != 0).collect(),
                followers: Vec::new(),
            }),
            Event::TileDiscarded { turn, tile } => {
                LogEntry::Discard { turn: turn.0, kind: "discard", tile: tile.name() }
            }
            Event::TileReshuffled { turn, tile } => {
                LogEntry::Reshuffle { turn: turn.0, kind: "reshuffle", tile: tile.name() }
            }
            Event::AbbotRecalled { turn, player, points, .. } => {
                LogEntry::Recall { turn: turn.0, kind: "recall", points, to: [player.0] }
            }
            Event::BonusTurn { turn, player } => LogEntry::Bonus { turn: turn.0, seat: player.0 },
            Event::GameOver { winners } => LogEntry::End { winners: winners.iter().map(|p| p.0).collect() },
        }
    }
}

/// The log of the game's events number `from` to `to` (not included).
pub fn log(game: &Game, from: usize, to: usize) -> Vec<LogEntry> {
    game.events()
        .get(from..to.min(game.events().len()))
        .unwrap_or_default()
        .iter()
        .map(|e| LogEntry::in_game(e, game))
        .collect()
}

impl LogEntry {
    /// [`LogEntry::of`] an event of `game`, a final scoring with the
    /// followers on what it scored (`Scoring::followers`, indices into the
    /// followers the finished game leaves on the board).
    pub fn in_game(e: &Event, game: &Game) -> LogEntry {
        let mut entry = LogEntry::of(e);
        if let LogEntry::Return { at: home, spot: from, role, big, .. } = &mut entry {
            // A tile's spot holds one figure ever: the deployment there says which.
            let deployed = game.events().iter().find_map(|d| match *d {
                Event::FollowerDeployed { pos, spot, role, big, .. } if at(pos) == *home && spot.name() == *from => {
                    Some((role.word(), big))
                }
                _ => None,
            });
            if let Some((r, b)) = deployed {
                (*role, *big) = (Some(r), b);
            }
        }
        if let LogEntry::Tile { turn, bonus, .. } = &mut entry {
            let mv = game.history().get(usize::from(*turn).wrapping_sub(1));
            *bonus = mv.and_then(|m| m.bonus).map(|b| b.word());
        }
        if let (LogEntry::Score(score), Event::Scored(s)) = (&mut entry, e) {
            let men = game.followers();
            score.followers = (0..men.len().min(64))
                .filter(|&i| s.followers & (1 << i) != 0)
                .map(|i| {
                    let f = &men[i];
                    Counted { follower: Standing::of(f), counted: s.to.contains(f.player) }
                })
                .collect();
        }
        entry
    }
}

#[cfg(test)]
mod tests {
    use carcassonne::{seeded_rng, Game, PlayerId, Preset, RandomMover, Rules, Setup};
    use serde_json::Value;

    use super::StateView;
    use crate::services::games::{Table, Viewer};
    use crate::store::Seat;
    use crate::view::state_json;

    fn table(game: Game) -> Table {
        let seats = (0..game.num_players())
            .map(|i| Seat::Human { name: format!("P{i}"), token_hash: String::new(), remote: false, account: None })
            .collect();
        Table::new(game, seats, 0, 0)
    }

    /// An update applied to the state it was made from (as docs/web.md
    /// tells a client to: changed fields replaced, grown lists extended)
    /// gives the new state, for every viewer after every move, over random
    /// games with several rule sets; and nothing changed, no update.
    #[test]
    fn an_update_turns_the_last_state_into_the_next() {
        let options = [
            Rules::default(),
            Rules { hand: 3, ..Rules::default() },
            Rules { river: true, abbot: true, ..Rules::default() },
            Rules::preset(Preset::BigBox),
        ];
        let mut appended = std::collections::BTreeMap::<String, usize>::new();
        for seed in 0..12u64 {
            let rules = options[seed as usize % options.len()];
            let players = 2 + (seed as usize % 3);
            let mut t = table(Game::new(Setup::standard(rules, players, seed)).unwrap());
            let (mut rng, mut mover) = (seeded_rng(seed), RandomMover::new());
            let viewers: Vec<Viewer> = std::iter::once(Viewer::default())
                .chain((0..players as u8).map(|p| Viewer { seats: vec![PlayerId(p)] }))
                .collect();
            let mut last: Vec<StateView> = viewers.iter().map(|v| StateView::new("g", &t, v)).collect();
            while let Some(mv) = mover.choose(&t.game, &mut rng) {
                t.game.play(&mv).unwrap();
                for (v, old) in viewers.iter().zip(last.iter_mut()) {
                    let now = StateView::new("g", &t, v);
                    let (changes, append, any) = old.changes(&now);
                    let mut state = serde_json::to_value(&*old).unwrap();
                    let state_map = state.as_object_mut().unwrap();
                    for (k, value) in serde_json::to_value(&changes).unwrap().as_object().unwrap() {
                        state_map.insert(k.clone(), value.clone());
                    }
                    for (k, items) in serde_json::to_value(&append).unwrap().as_object().unwrap() {
                        *appended.entry(k.clone()).or_default() += 1;
                        let list = state_map.get_mut(k).and_then(Value::as_array_mut).unwrap();
                        list.extend(items.as_array().unwrap().iter().cloned());
                    }
                    assert_eq!(
                        state,
                        serde_json::to_value(&now).unwrap(),
                        "seed {seed}, move {}",
                        t.game.moves_played()
                    );
                    assert!(any, "a move changes every view (the version at least)");
                    assert!(!old.changes(old).2, "a view compared with itself has no changes");
                    *old = now;
                }
            }
        }
        // The board and the score history grow by appending, every move.
        for key in ["board", "score_history"] {
            assert!(appended.get(key).is_some_and(|&n| n > 1000), "{key} appended: {appended:?}");
        }
    }

    /// The `legal` list, read back as record moves, is every legal move of
    /// the engine once; `abbot`, `recall`, `big`, `builder` and `pig`
    /// appear only where they apply, and the builder's second tile is the
    /// turn's `bonus`. Over random games with the abbot, the river, hands
    /// and the Big Box.
    #[test]
    fn the_legal_list_is_the_engines_moves() {
        let options = [
            Rules::default(),
            Rules { abbot: true, river: true, ..Rules::default() },
            Rules { hand: 3, abbot: true, ..Rules::default() },
            Rules::preset(Preset::BigBox),
        ];
        let (mut abbots, mut recalls, mut figures, mut bonuses) = (0, 0, 0, 0);
        for seed in 0..12u64 {
            let rules = options[seed as usize % options.len()];
            let mut game = Game::new(Setup::standard(rules, 2 + seed as usize % 3, seed)).unwrap();
            let (mut rng, mut mover) = (seeded_rng(seed), RandomMover::new());
            loop {
                let listed = serde_json::to_value(super::legal_placements(&game)).unwrap();
                let bonus = game.bonus().map(|b| b.word());
                bonuses += usize::from(bonus.is_some());
                let mut moves = Vec::new();
                for p in listed.as_array().unwrap() {
                    let mut base = serde_json::json!({ "tile": p["tile"], "at": p["at"], "rot": p["rot"] });
                    if let Some(b) = bonus {
                        base["bonus"] = b.into();
                    }
                    moves.push(base.clone());
                    let keys = [
                        ("meeple", false),
                        ("abbot", false),
                        ("recall", true),
                        ("big", false),
                        ("builder", false),
                        ("pig", false),
                    ];
                    for (key, one) in keys {
                        match &p[key] {
                            Value::Null => {}
                            Value::Array(spots) if !one => {
                                assert!(key == "meeple" || !spots.is_empty(), "an empty {key} is left out: {p}");
                                abbots += (key == "abbot") as usize;
                                figures += ["big", "builder", "pig"].contains(&key) as usize;
                                for s in spots {
                                    let mut m = base.clone();
                                    m[key] = s.clone();
                                    moves.push(m);
                                }
                            }
                            Value::Bool(true) if one => {
                                recalls += 1;
                                let mut m = base.clone();
                                m[key] = true.into();
                                moves.push(m);
                            }
                            other => panic!("{key}: {other}"),
                        }
                    }
                }
                let engine: Vec<Value> = game
                    .legal_moves()
                    .iter()
                    .map(|m| serde_json::to_value(carcassonne::record::RecordMove::from_move(m)).unwrap())
                    .collect();
                let (mut a, mut b) = (moves.clone(), engine.clone());
                a.sort_by_key(Value::to_string);
                b.sort_by_key(Value::to_string);
                assert_eq!(a, b, "seed {seed}, move {}", game.moves_played());
                let Some(mv) = mover.choose(&game, &mut rng) else { break };
                game.play(&mv).unwrap();
            }
        }
        assert!(abbots > 0 && recalls > 0, "abbot {abbots}, recall {recalls}");
        // (Random movers seldom extend their builder's road: the second tile is tested in tests/big_box.rs.)
        assert!(figures > 0, "big, builder, pig {figures}, second tiles {bonuses}");
    }

    /// The log's scorings, discards and recalls carry the record's `score`
    /// fields (record.md), over games with every kind of event.
    #[test]
    fn the_log_says_what_the_record_says() {
        let options = [
            Rules::default(),
            Rules { abbot: true, river: true, ..Rules::default() },
            Rules { hand: 2, ..Rules::default() },
            Rules::preset(Preset::BigBox),
        ];
        let mut kinds = std::collections::BTreeSet::new();
        for seed in 0..30u64 {
            let rules = options[seed as usize % options.len()];
            let mut game = Game::new(Setup::standard(rules, 2 + seed as usize % 3, seed)).unwrap();
            let (mut rng, mut mover) = (seeded_rng(seed), RandomMover::new());
            while let Some(mv) = mover.choose(&game, &mut rng) {
                game.play(&mv).unwrap();
            }
            for e in game.events() {
                let mut entry = serde_json::to_value(super::LogEntry::of(e)).unwrap();
                let kind = entry.as_object_mut().unwrap().remove("type").unwrap();
                kinds.insert(kind.as_str().unwrap().to_string());
                // A scoring's tiles are the log's own (for showing why it scored), not the record's.
                let cover = entry.as_object_mut().unwrap().remove("cover");
                assert_eq!(cover.is_some(), kind == "score", "{e:?}");
                if let Some(record) = carcassonne::record::event_json(e) {
                    assert_eq!(entry, record, "{e:?}");
                }
            }
        }
        for k in ["tile", "deploy", "return", "score", "recall", "end"] {
            assert!(kinds.contains(k), "no {k} in {kinds:?}");
        }
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

    /// In a game's log each figure that came home says which it was, as
    /// deployed: builders and pigs are no followers, a big follower counts
    /// two (for showing why a feature scored). Over random Big Box games.
    #[test]
    fn returns_say_which_figure_came_home() {
        let mut roles = std::collections::BTreeSet::new();
        let mut deployed = std::collections::BTreeMap::<String, usize>::new();
        let mut big = 0;
        for seed in 0..30 {
            let mut game =
                Game::new(Setup::standard(Rules::preset(Preset::BigBox), 2 + seed as usize % 2, seed)).unwrap();
            RandomMover::new().playout(&mut game, &mut seeded_rng(seed));
            let log = serde_json::to_value(super::log(&game, 0, usize::MAX)).unwrap();
            let list = log.as_array().unwrap();
            for d in list.iter().filter(|d| d["type"] == "deploy") {
                *deployed.entry(format!("{}{}", d["role"], d["big"])).or_default() += 1;
            }
            for e in list.iter().filter(|e| e["type"] == "return") {
                let deployed = list
                    .iter()
                    .find(|d| d["type"] == "deploy" && d["at"] == e["at"] && d["spot"] == e["spot"])
                    .expect("every figure that came home was deployed");
                assert_eq!(
                    (&e["role"], &e["big"], &e["seat"]),
                    (&deployed["role"], &deployed["big"], &deployed["seat"])
                );
                roles.insert(e["role"].as_str().unwrap().to_string());
                big += usize::from(e["big"] == true);
            }
        }
        assert!(roles.contains("builder") && roles.contains("knight") && big > 0, "{roles:?}, {big} big, {deployed:?}");
    }

    /// A final scoring's log entry names the followers on what it scored:
    /// those of the seats paid `counted`, the others outnumbered.
    #[test]
    fn final_scorings_say_which_followers_counted() {
        let mut outnumbered = 0;
        for seed in 0..60 {
            let mut game = Game::new(Setup::standard(Rules::default(), 4, seed)).unwrap();
            RandomMover::new().playout(&mut game, &mut seeded_rng(seed));
            let log = serde_json::to_value(super::log(&game, 0, usize::MAX)).unwrap();
            for e in log.as_array().unwrap().iter().filter(|e| e["type"] == "score") {
                let to: Vec<u64> = e["to"].as_array().unwrap().iter().map(|s| s.as_u64().unwrap()).collect();
                if e["when"] == "completed" {
                    assert!(e.get("followers").is_none(), "{e}");
                    continue;
                }
                let men = e["followers"].as_array().expect("a final scoring names its followers");
                assert!(!men.is_empty(), "{e}");
                for f in men {
                    let seat = f["seat"].as_u64().unwrap();
                    assert_eq!(f["counted"], to.contains(&seat), "{e}");
                    assert!(f["role"].is_string() && f["spot"].is_string() && f["at"].is_array(), "{f}");
                    let standing = game.followers().iter().any(|g| {
                        u64::from(g.player.0) == seat
                            && f["spot"] == g.spot.name()
                            && f["at"] == serde_json::json!([g.pos.x, g.pos.y])
                    });
                    assert!(standing, "{f} stands on the board at the end");
                    outnumbered += usize::from(f["counted"] == false);
                }
            }
        }
        assert!(outnumbered > 0, "some follower was outnumbered at the end of 60 random games");
    }
}

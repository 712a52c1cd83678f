//! The core of the PettingZoo environment: a game with a fixed, flat action
//! space, its action masks and its observations as numpy arrays. The
//! Python classes in `carcassonne/env.py` add the PettingZoo and Gymnasium
//! protocols around it. The layout is documented in python/README.md.
//!
//! An action is `((slot · W² + cell) · 4 + rot) · D + decision`:
//! - `slot`: which tile of the hand (0 without a hand rule);
//! - `cell`: `(y + R) · W + (x + R)` for the cell `(x, y)` in the window of
//!   radius `R` (width `W = 2R + 1`) around the start tile;
//! - `rot`: quarter turns clockwise;
//! - `decision`: an entry of [`DECISION_TABLE`], the first `D` of it: the
//!   base game's 18 ([`DECISIONS`]: 0 deploy nothing, 1–14 a follower on
//!   spot `N E S W Nw Ne En Es Se Sw Ws Wn C G` in that order, 15 the abbot
//!   on `C`, 16 the abbot on `G`, 17 recall the abbot), and with an
//!   expansion all [`ALL_DECISIONS`]: then also a follower on the enclosed
//!   field `I`, the big follower on each spot but `G`, the builder on `N E
//!   S W` and the pig on each field spot.
//!
//! Observations never hold what the observer cannot see: hidden hands are
//! zero, and tile counts are of the tiles unseen by the observer. With an
//! expansion they grow ([`Spaces`]); without one they are the base game's.

use carcassonne::{
    Action, EdgeKind, Figure, Follower, Game, Move, PlacedTile, PlayerId, Pos, Role, Rotation, Rules, Setup, Spot, View,
};
use numpy::{PyArray1, PyArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::game::{PyGame, PyMove};
use crate::play::PyBot;
use crate::{illegal, natural, parse_rules, setup_error};

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<EnvCore>()?;
    m.add("DECISIONS", DECISIONS)?;
    m.add("ALL_DECISIONS", ALL_DECISIONS)?;
    m.add("DECISION_NAMES", DECISION_TABLE.iter().map(|&a| decision_name(a)).collect::<Vec<_>>())?;
    m.add("TILE_KINDS", TILE_KINDS)?;
    m.add("ALL_TILE_KINDS", carcassonne::TILE_KINDS)?;
    m.add("DEFAULT_RADIUS", DEFAULT_RADIUS)?;
    m.add("EXPANSION_RADIUS", EXPANSION_RADIUS)?;
    Ok(())
}

/// The tile kinds the environments observe without an expansion: the base
/// game's and The River's (the engine's first 43 tile ids). With an
/// expansion they observe every tile id ([`carcassonne::TILE_KINDS`]).
pub const TILE_KINDS: usize = 43;
const _: () = assert!(TILE_KINDS <= carcassonne::TILE_KINDS);
// The `tile` plane holds a tile's id + 1 in a byte.
const _: () = assert!(carcassonne::TILE_KINDS < 256);

/// Decisions after placing a tile without an expansion: pass, 14 follower
/// spots, abbot on C or G, recall (the first entries of [`DECISION_TABLE`]).
pub const DECISIONS: usize = 18;
/// Decisions with an expansion: the base game's, a follower on `I`, the big
/// follower on 14 spots, the builder on 4, the pig on 9.
pub const ALL_DECISIONS: usize = 46;
const SPOTS: usize = 14;
/// The window's default radius: 15 cells each way from the start tile
/// (31 × 31 cells). Measured over 2,000 random 2-player games, no legal
/// placement ever fell outside it (python/README.md).
pub const DEFAULT_RADIUS: usize = 15;
/// The window's default radius with an expansion (twice the tiles, a
/// wider table): 20 cells each way (41 × 41). Measured over random Big Box
/// games (python/README.md).
pub const EXPANSION_RADIUS: usize = 20;

/// The window's radius: `radius` if given, else the rules' default.
pub(crate) fn radius_of(rules: &Rules, radius: Option<usize>) -> PyResult<usize> {
    let radius = radius.unwrap_or(if rules.expansions() { EXPANSION_RADIUS } else { DEFAULT_RADIUS });
    if !(1..=64).contains(&radius) {
        return Err(PyValueError::new_err("radius must be 1 to 64"));
    }
    Ok(radius)
}

/// A radius argument: None (the rules' default) or a whole number.
pub(crate) fn radius_arg(obj: &Bound<'_, PyAny>) -> PyResult<Option<usize>> {
    if obj.is_none() {
        Ok(None)
    } else {
        natural(obj).map(Some)
    }
}

/// The spot of index `i` in [`Spot::all`]'s order.
const fn spot(i: usize) -> Spot {
    match i {
        0 => Spot::N,
        1 => Spot::E,
        2 => Spot::S,
        3 => Spot::W,
        4..=11 => Spot::half((i - 4) as u8),
        12 => Spot::CLOISTER,
        13 => Spot::GARDEN,
        _ => Spot::ENCLOSED,
    }
}

/// Every decision after placing a tile, by its number (the last factor of
/// a flat action); the base game's rules use its first [`DECISIONS`].
pub(crate) const DECISION_TABLE: [Action; ALL_DECISIONS] = {
    let mut t = [Action::Pass; ALL_DECISIONS];
    let mut i = 0;
    while i < SPOTS {
        t[1 + i] = Action::Follower(spot(i));
        i += 1;
    }
    t[15] = Action::Abbot(Spot::CLOISTER);
    t[16] = Action::Abbot(Spot::GARDEN);
    t[17] = Action::Recall;
    t[18] = Action::Follower(Spot::ENCLOSED);
    // The big follower: every spot but the garden.
    let mut k = BIG_AT;
    i = 0;
    while i < 15 {
        if i != Spot::GARDEN.index() {
            t[k] = Action::BigFollower(spot(i));
            k += 1;
        }
        i += 1;
    }
    // The builder: a road or a city, named by an edge.
    i = 0;
    while i < 4 {
        t[BUILDER_AT + i] = Action::Builder(spot(i));
        i += 1;
    }
    // The pig: a field, named by a half-edge or `I`.
    i = 0;
    while i < 8 {
        t[PIG_AT + i] = Action::Pig(spot(4 + i));
        i += 1;
    }
    t[PIG_AT + 8] = Action::Pig(Spot::ENCLOSED);
    t
};
const BIG_AT: usize = 19;
const BUILDER_AT: usize = BIG_AT + 14;
const PIG_AT: usize = BUILDER_AT + 4;
const _: () = assert!(PIG_AT + 9 == ALL_DECISIONS);

/// A decision's name: `pass`, `recall`, or the figure and spot
/// (`follower N`, `abbot C`, `big_follower Nw`, `builder E`, `pig I`).
fn decision_name(a: Action) -> String {
    let (figure, spot) = match a {
        Action::Pass => return "pass".to_string(),
        Action::Recall => return "recall".to_string(),
        Action::Follower(s) => ("follower", s),
        Action::Abbot(s) => ("abbot", s),
        Action::BigFollower(s) => ("big_follower", s),
        Action::Builder(s) => ("builder", s),
        Action::Pig(s) => ("pig", s),
    };
    format!("{figure} {}", spot.name())
}

/// The number of a decision in [`DECISION_TABLE`]; `None` for one no
/// rules allow (the big follower on a garden, the builder off an edge,
/// the pig off a field).
#[inline]
pub(crate) fn decision(action: Action) -> Option<usize> {
    let d = match action {
        Action::Pass => 0,
        Action::Follower(s) if s == Spot::ENCLOSED => 18,
        Action::Follower(s) => 1 + s.index(),
        Action::Abbot(s) if s == Spot::GARDEN => 16,
        Action::Abbot(s) if s == Spot::CLOISTER => 15,
        Action::Abbot(_) => return None,
        Action::Recall => 17,
        Action::BigFollower(s) if s == Spot::GARDEN => return None,
        Action::BigFollower(s) if s == Spot::ENCLOSED => BIG_AT + 13,
        Action::BigFollower(s) => BIG_AT + s.index(),
        Action::Builder(s) if s.index() < 4 => BUILDER_AT + s.index(),
        Action::Builder(_) => return None,
        Action::Pig(s) if s.is_half_edge() => PIG_AT + s.index() - 4,
        Action::Pig(s) if s == Spot::ENCLOSED => PIG_AT + 8,
        Action::Pig(_) => return None,
    };
    Some(d)
}

/// The shapes of an environment's spaces for one rule set, seat count and
/// window: what every part of the observation and the action holds. The
/// single environment and the batch both read them from here.
#[derive(Clone, Debug)]
pub(crate) struct Spaces {
    pub rules: Rules,
    pub players: usize,
    pub radius: i32,
    pub width: usize,
    pub slots: usize,
    /// Decisions per placement: [`DECISIONS`], or [`ALL_DECISIONS`] with an expansion.
    pub decisions: usize,
    /// Tile kinds observed: [`TILE_KINDS`], or every tile id with an expansion.
    pub tile_kinds: usize,
    /// The expansions' planes and arrays are in the observation.
    pub expansions: bool,
}

/// The per-cell planes before the per-seat ones.
pub(crate) const BASE_PLANES: [&str; 19] = [
    "occupied",
    "city_n",
    "city_e",
    "city_s",
    "city_w",
    "road_n",
    "road_e",
    "road_s",
    "road_w",
    "river_n",
    "river_e",
    "river_s",
    "river_w",
    "shield",
    "cloister",
    "garden",
    "tile",
    "rotation",
    "last_placed",
];
/// The figures' roles (after the per-seat planes), then the spot plane.
pub(crate) const ROLE_PLANES: [&str; 5] = ["thief", "knight", "monk", "farmer", "abbot"];
/// With an expansion, after the spot plane: the figures of the expansions
/// (a big follower also shows its role), then the tiles' marks: the inn
/// beside the road on each edge, the cathedral, the goods symbols.
pub(crate) const EXPANSION_PLANES: [&str; 11] =
    ["big_follower", "builder", "pig", "inn_n", "inn_e", "inn_s", "inn_w", "cathedral", "wine", "wheat", "cloth"];
/// The plane of `BASE_PLANES` that marks the cell of the last tile placed.
pub(crate) const LAST_PLACED: usize = 18;

/// A figure's role bits (`Spaces::write_figure`): the five roles of
/// `ROLE_PLANES`, then big follower, builder and pig.
const BIG_BIT: u8 = 1 << 5;

impl Spaces {
    pub(crate) fn new(rules: Rules, players: usize, radius: usize) -> Spaces {
        let expansions = rules.expansions();
        Spaces {
            rules,
            players,
            radius: radius as i32,
            width: 2 * radius + 1,
            slots: rules.hand.max(1) as usize,
            decisions: if expansions { ALL_DECISIONS } else { DECISIONS },
            tile_kinds: if expansions { carcassonne::TILE_KINDS } else { TILE_KINDS },
            expansions,
        }
    }

    #[inline]
    pub(crate) fn cells(&self) -> usize {
        self.width * self.width
    }

    pub(crate) fn actions(&self) -> usize {
        self.slots * self.cells() * 4 * self.decisions
    }

    /// The first plane of the per-seat figure planes.
    const fn seats_at(&self) -> usize {
        BASE_PLANES.len()
    }

    fn roles_at(&self) -> usize {
        self.seats_at() + self.players
    }

    /// The `follower_spot` plane.
    fn spot_at(&self) -> usize {
        self.roles_at() + ROLE_PLANES.len()
    }

    /// The first of `EXPANSION_PLANES`.
    fn expansion_at(&self) -> usize {
        self.spot_at() + 1
    }

    pub(crate) fn planes(&self) -> usize {
        self.expansion_at() + if self.expansions { EXPANSION_PLANES.len() } else { 0 }
    }

    /// The names of the board planes, in order.
    pub(crate) fn plane_names(&self) -> Vec<String> {
        let mut names: Vec<String> = BASE_PLANES.iter().map(|s| s.to_string()).collect();
        names.extend((0..self.players).map(|r| format!("follower_seat_{r}")));
        names.extend(ROLE_PLANES.iter().map(|s| s.to_string()));
        names.push("follower_spot".to_string());
        if self.expansions {
            names.extend(EXPANSION_PLANES.iter().map(|s| s.to_string()));
        }
        names
    }

    /// The cell of `pos` in the window, if it is inside.
    #[inline]
    pub(crate) fn cell(&self, pos: Pos) -> Option<usize> {
        window_cell(pos, self.radius, self.width)
    }

    /// The flat action of hand slot `slot`, window cell `cell`, rotation
    /// `rot` and decision `d`.
    #[inline]
    pub(crate) fn flat_action(&self, slot: usize, cell: usize, rot: Rotation, d: usize) -> usize {
        ((slot * self.cells() + cell) * 4 + rot.quarter_turns() as usize) * self.decisions + d
    }

    /// The move of flat action `action` for the player to move of `game`;
    /// `None` when nobody is to move, the hand has no such slot or the
    /// action is outside the space.
    #[inline(always)]
    pub(crate) fn action_move(&self, game: &Game, action: usize) -> Option<Move> {
        if action >= self.actions() {
            return None;
        }
        let p = game.to_move()?;
        let d = action % self.decisions;
        let rest = action / self.decisions;
        let rot = Rotation::new((rest % 4) as u8)?;
        let rest = rest / 4;
        let (slot, cell) = (rest / self.cells(), rest % self.cells());
        let tile = *game.hand(p).get(slot)?;
        let pos = Pos::new((cell % self.width) as i32 - self.radius, (cell / self.width) as i32 - self.radius);
        Some(Move { tile, pos, rot, action: DECISION_TABLE[d], bonus: game.bonus() })
    }

    /// The flat action of a move of the player to move of `game`, if it
    /// has one (its tile in hand, its cell in the window, its decision in
    /// the table of these rules).
    pub(crate) fn encode(&self, game: &Game, mv: &Move) -> Option<usize> {
        let p = game.to_move()?;
        let slot = game.hand(p).iter().position(|&t| t == mv.tile)?;
        let cell = self.cell(mv.pos)?;
        let d = decision(mv.action).filter(|&d| d < self.decisions)?;
        Some(self.flat_action(slot, cell, mv.rot, d))
    }

    /// Writes the planes of a placed tile at cell `c` of `board`. The cell
    /// was empty, so only the planes that are not zero are written.
    pub(crate) fn write_tile(&self, board: &mut [u8], c: usize, t: &PlacedTile) {
        let cells = self.cells();
        let mut set = |plane: usize, v: u8| {
            if v != 0 {
                board[plane * cells + c] = v;
            }
        };
        let def = t.tile.def();
        let rot = t.rot.quarter_turns() as usize;
        set(0, 1);
        for d in 0..4 {
            // The edge facing direction d came from canonical edge d - rot.
            match def.edges[(d + 4 - rot) % 4] {
                EdgeKind::City => set(1 + d, 1),
                EdgeKind::Road => set(5 + d, 1),
                EdgeKind::River => set(9 + d, 1),
                EdgeKind::Field => {}
            }
        }
        set(13, def.shield as u8);
        set(14, def.has_cloister() as u8);
        set(15, (def.has_garden() && self.rules.abbot) as u8);
        set(16, t.tile.index() as u8 + 1);
        set(17, rot as u8);
        if self.expansions {
            let at = self.expansion_at() + 3;
            let r = &self.rules;
            for s in &def.segments {
                if s.inn && r.has_inns() {
                    for d in (0..4).filter(|d| s.edges & (1 << d) != 0) {
                        // Canonical edge d faces direction d + rot.
                        set(at + (d + rot) % 4, 1);
                    }
                }
                set(at + 4, (s.cathedral && r.has_cathedrals()) as u8);
                if let Some(g) = s.goods.filter(|_| r.has_goods()) {
                    set(at + 5 + g.index(), 1);
                }
            }
        }
    }

    /// A figure as the planes show it to `seat`: its seat relative to
    /// `seat`, its role bits and its spot (index + 1).
    #[inline]
    pub(crate) fn figure_of(&self, f: &Follower, seat: PlayerId) -> (usize, u8, u8) {
        let players = self.players;
        // (player - seat) mod players, without a division.
        let rel = f.player.index() + players - seat.index();
        let rel = if rel >= players { rel - players } else { rel };
        let roles = match f.role {
            Role::Thief => 1,
            Role::Knight => 2,
            Role::Monk => 4,
            Role::Farmer => 8,
            Role::Abbot => 16,
            Role::Builder => 64,
            Role::Pig => 128,
        } | if f.big { BIG_BIT } else { 0 };
        (rel, roles, 1 + f.spot.index() as u8)
    }

    /// Sets a figure's planes at cell `c` (`on`), or clears them.
    #[inline]
    pub(crate) fn write_figure(&self, board: &mut [u8], c: usize, figure: (usize, u8, u8), on: bool) {
        let cells = self.cells();
        let (seat, roles, spot) = figure;
        board[(self.seats_at() + seat) * cells + c] = on as u8;
        let mut bits = roles;
        while bits != 0 {
            let b = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            // Roles 0–4 before the spot plane; big follower, builder, pig after it.
            let plane = if b < 5 { self.roles_at() + b } else { self.expansion_at() + b - 5 };
            board[plane * cells + c] = on as u8;
        }
        board[self.spot_at() * cells + c] = if on { spot } else { 0 };
    }

    /// Moves the seat plane of a figure at cell `c` from relative seat
    /// `from` to `to`.
    #[inline]
    pub(crate) fn reseat(&self, board: &mut [u8], c: usize, from: usize, to: usize) {
        let cells = self.cells();
        board[(self.seats_at() + from) * cells + c] = 0;
        board[(self.seats_at() + to) * cells + c] = 1;
    }

    /// The board planes of `game` as `seat` sees them, into `out` (zeros,
    /// `planes() × cells()` long): everything on the board is public.
    fn board_planes(&self, game: &Game, seat: PlayerId, out: &mut [u8]) {
        for t in game.board().tiles() {
            if let Some(c) = self.cell(t.pos) {
                self.write_tile(out, c, t);
            }
        }
        if let Some(last) = game.history().last().and_then(|m| self.cell(m.pos)) {
            out[LAST_PLACED * self.cells() + last] = 1;
        }
        for f in game.followers() {
            if let Some(c) = self.cell(f.pos) {
                self.write_figure(out, c, self.figure_of(f, seat), true);
            }
        }
    }

    /// The most goods tokens of each kind a player can hold: the symbols
    /// on the tiles of the rules (0 without Traders & Builders' goods).
    pub(crate) fn goods_high(&self) -> [u8; 3] {
        let mut high = [0u8; 3];
        if self.rules.has_goods() {
            for t in carcassonne::expansion_tiles(carcassonne::Expansion::TradersBuilders) {
                for g in t.def().segments.iter().filter_map(|s| s.goods) {
                    high[g.index()] += 1;
                }
            }
        }
        high
    }

    /// Writes the per-seat arrays of `view`'s observation (seats relative
    /// to the viewer) into `a`, whose arrays hold zeros where the viewer
    /// sees no hand (`a.hands` is cleared here).
    #[inline(always)]
    pub(crate) fn write_seats(&self, view: &View, a: SeatArrays<'_>) {
        let n = self.players;
        let me = view.player();
        let kinds = self.tile_kinds;
        a.hands.fill(0);
        for p in (0..n).map(|p| PlayerId(p as u8)) {
            let r = (p.index() + n - me.index()) % n;
            if let Some(hand) = view.hand(p) {
                for (i, t) in hand.iter().enumerate().take(self.slots) {
                    a.hands[(r * self.slots + i) * kinds + t.index()] = 1;
                }
            }
            a.hand_sizes[r] = view.hand_len(p) as u8;
            a.scores[r] = view.scores()[p.index()] as i32;
            a.supply[r] = view.supply(p);
            a.abbot[r] = view.abbot_in_supply(p) as u8;
            a.to_move[r] = (view.to_move() == Some(p)) as u8;
            if self.expansions {
                a.big_follower[r] = view.in_supply(p, Figure::BigFollower) as u8;
                a.builder[r] = view.in_supply(p, Figure::Builder) as u8;
                a.pig[r] = view.in_supply(p, Figure::Pig) as u8;
                a.goods[3 * r..3 * r + 3].copy_from_slice(&view.goods(p));
            }
        }
        a.unseen.copy_from_slice(&view.unseen()[..kinds]);
        if self.expansions {
            a.bonus[0] = view.bonus().is_some() as u8;
        }
    }
}

/// The per-seat arrays of one observation ([`Spaces::write_seats`]); the
/// expansions' are empty without an expansion.
pub(crate) struct SeatArrays<'a> {
    pub hands: &'a mut [u8],
    pub hand_sizes: &'a mut [u8],
    pub unseen: &'a mut [u8],
    pub scores: &'a mut [i32],
    pub supply: &'a mut [u8],
    pub abbot: &'a mut [u8],
    pub to_move: &'a mut [u8],
    pub big_follower: &'a mut [u8],
    pub builder: &'a mut [u8],
    pub pig: &'a mut [u8],
    pub goods: &'a mut [u8],
    pub bonus: &'a mut [u8],
}

/// The cell of `pos` in a window of `radius` cells each way around the
/// start (`width` = 2 × radius + 1 cells a side), if it is inside.
#[inline]
pub(crate) fn window_cell(pos: Pos, radius: i32, width: usize) -> Option<usize> {
    let (x, y) = (pos.x + radius, pos.y + radius);
    let w = width as i32;
    ((0..w).contains(&x) && (0..w).contains(&y)).then(|| (y * w + x) as usize)
}

/// A game with a flat action space, masks and array observations.
#[pyclass(name = "EnvCore", module = "carcassonne")]
#[derive(Clone)]
pub struct EnvCore {
    game: Game,
    /// The legal moves of the player to move, worked out once per state
    /// (masks, action lists and steps all read them).
    legal: Vec<Move>,
    sp: Spaces,
    names: Vec<String>,
}

impl EnvCore {
    fn cell(&self, pos: Pos) -> Option<usize> {
        self.sp.cell(pos)
    }

    fn encode_move(&self, mv: &Move) -> Option<usize> {
        self.sp.encode(&self.game, mv)
    }

    fn decode_action(&self, action: usize) -> Option<Move> {
        self.sp.action_move(&self.game, action)
    }

    fn actions(&self) -> usize {
        self.sp.actions()
    }

    fn seat(&self, seat: usize) -> PyResult<PlayerId> {
        if seat < self.sp.players {
            Ok(PlayerId(seat as u8))
        } else {
            Err(PyValueError::new_err(format!("seat {seat} is not at this table of {}", self.sp.players)))
        }
    }

    /// The mask of `seat`'s legal actions (all zero unless it is to move).
    fn mask_vec(&self, seat: PlayerId) -> Vec<i8> {
        let mut mask = vec![0i8; self.actions()];
        if self.game.to_move() == Some(seat) {
            for mv in &self.legal {
                if let Some(a) = self.encode_move(mv) {
                    mask[a] = 1;
                }
            }
        }
        mask
    }

    /// The per-cell planes as `seat` sees them (everything on the board is public).
    fn board_planes(&self, seat: PlayerId) -> Vec<u8> {
        let mut out = vec![0u8; self.sp.planes() * self.sp.cells()];
        self.sp.board_planes(&self.game, seat, &mut out);
        out
    }

    /// The per-seat arrays of `seat`'s observation, by name, in order.
    fn seat_arrays(&self, seat: PlayerId) -> Seats {
        let (n, sp) = (self.sp.players, &self.sp);
        let x = if sp.expansions { 1 } else { 0 };
        let mut s = Seats {
            hands: vec![0; n * sp.slots * sp.tile_kinds],
            hand_sizes: vec![0; n],
            unseen: vec![0; sp.tile_kinds],
            scores: vec![0; n],
            supply: vec![0; n],
            abbot: vec![0; n],
            to_move: vec![0; n],
            big_follower: vec![0; x * n],
            builder: vec![0; x * n],
            pig: vec![0; x * n],
            goods: vec![0; x * 3 * n],
            bonus: vec![0; x],
        };
        let a = SeatArrays {
            hands: &mut s.hands,
            hand_sizes: &mut s.hand_sizes,
            unseen: &mut s.unseen,
            scores: &mut s.scores,
            supply: &mut s.supply,
            abbot: &mut s.abbot,
            to_move: &mut s.to_move,
            big_follower: &mut s.big_follower,
            builder: &mut s.builder,
            pig: &mut s.pig,
            goods: &mut s.goods,
            bonus: &mut s.bonus,
        };
        sp.write_seats(&View::new(&self.game, seat), a);
        s
    }
}

/// An observation's per-seat arrays ([`SeatArrays`], owned).
struct Seats {
    hands: Vec<u8>,
    hand_sizes: Vec<u8>,
    unseen: Vec<u8>,
    scores: Vec<i32>,
    supply: Vec<u8>,
    abbot: Vec<u8>,
    to_move: Vec<u8>,
    big_follower: Vec<u8>,
    builder: Vec<u8>,
    pig: Vec<u8>,
    goods: Vec<u8>,
    bonus: Vec<u8>,
}

#[pymethods]
impl EnvCore {
    #[new]
    #[pyo3(signature = (rules = "standard", players = 2, radius = None, seed = 0))]
    fn new(
        py: Python<'_>,
        rules: &str,
        #[pyo3(from_py_with = natural)] players: usize,
        #[pyo3(from_py_with = radius_arg)] radius: Option<usize>,
        #[pyo3(from_py_with = natural)] seed: u64,
    ) -> PyResult<EnvCore> {
        let rules = parse_rules(py, rules)?;
        let radius = radius_of(&rules, radius)?;
        let game = Game::new(Setup::standard(rules, players, seed)).map_err(|e| setup_error(py, e))?;
        Ok(EnvCore {
            legal: game.legal_moves(),
            game,
            sp: Spaces::new(rules, players, radius),
            names: (0..players).map(|i| format!("player_{i}")).collect(),
        })
    }

    /// Pickling: the rule set, seats and window, and the game as `Game`
    /// pickles (its record and live bag), so the copy plays on exactly.
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> crate::game::Reduce<'py, (String, usize, i32, String, Option<crate::game::LiveState>)> {
        let this = slf.borrow();
        let record = carcassonne::record::Record::from_game(&this.game, &this.names).to_json();
        let args =
            (this.sp.rules.to_code(), this.sp.players, this.sp.radius, record, crate::game::live_state(&this.game));
        Ok((slf.get_type().getattr("_restore")?, args))
    }

    /// The inverse of `__reduce__` (not for use otherwise).
    #[staticmethod]
    fn _restore(
        py: Python<'_>,
        rules: &str,
        players: usize,
        radius: usize,
        record: &str,
        live: Option<crate::game::LiveState>,
    ) -> PyResult<EnvCore> {
        let mut core = EnvCore::new(py, rules, players, Some(radius), 0)?;
        core.game = crate::game::restore_game(py, record, live)?.game;
        core.legal = core.game.legal_moves();
        Ok(core)
    }

    /// The length of `state()`.
    #[getter]
    fn state_size(&self) -> usize {
        let (n, sp) = (self.sp.players, &self.sp);
        let extra = if sp.expansions { 6 * n + 1 } else { 0 };
        sp.planes() * sp.cells() + n * sp.slots * sp.tile_kinds + sp.tile_kinds + 5 * n + extra
    }

    /// The whole table for a centralised critic, one flat int32 array
    /// (python/README.md, "State"): the board planes with absolute seats
    /// (seat 0's observation planes), every hand (hidden ones too), the
    /// hand sizes, the bag's counts per tile kind (never its order), then
    /// per seat the scores, supply, abbot in supply and who is to move;
    /// with an expansion then per seat the big follower, builder and pig
    /// in supply, the goods (3 a seat), and whether the turn is the
    /// builder's bonus.
    fn state<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i32>> {
        let (n, sp) = (self.sp.players, &self.sp);
        let kinds = sp.tile_kinds;
        let mut out: Vec<i32> = Vec::with_capacity(self.state_size());
        out.extend(self.board_planes(PlayerId(0)).into_iter().map(i32::from));
        let seats = || (0..n).map(|p| PlayerId(p as u8));
        for p in seats() {
            let mut rows = vec![0i32; sp.slots * kinds];
            for (i, t) in self.game.hand(p).iter().enumerate().take(sp.slots) {
                rows[i * kinds + t.index()] = 1;
            }
            out.extend(rows);
        }
        out.extend(seats().map(|p| self.game.hand(p).len() as i32));
        out.extend(self.game.remaining()[..kinds].iter().map(|&c| i32::from(c)));
        out.extend(self.game.scores().iter().take(n).map(|&s| s as i32));
        out.extend(seats().map(|p| i32::from(self.game.supply(p))));
        let view = View::new(&self.game, PlayerId(0));
        out.extend(seats().map(|p| i32::from(view.abbot_in_supply(p))));
        out.extend(seats().map(|p| i32::from(self.game.to_move() == Some(p))));
        if sp.expansions {
            for figure in [Figure::BigFollower, Figure::Builder, Figure::Pig] {
                out.extend(seats().map(|p| i32::from(self.game.in_supply(p, figure))));
            }
            out.extend(seats().flat_map(|p| self.game.goods(p)).map(i32::from));
            out.push(i32::from(self.game.bonus().is_some()));
        }
        PyArray1::from_vec(py, out)
    }

    /// A new game shuffled from `seed`.
    fn reset(&mut self, py: Python<'_>, #[pyo3(from_py_with = natural)] seed: u64) -> PyResult<()> {
        self.game = Game::new(Setup::standard(self.sp.rules, self.sp.players, seed)).map_err(|e| setup_error(py, e))?;
        self.legal = self.game.legal_moves();
        Ok(())
    }

    #[getter]
    fn action_size(&self) -> usize {
        self.actions()
    }

    /// Tiles a hand holds (the number of `slot`s in an action).
    #[getter]
    fn slots(&self) -> usize {
        self.sp.slots
    }

    #[getter]
    fn radius(&self) -> i32 {
        self.sp.radius
    }

    #[getter]
    fn width(&self) -> usize {
        self.sp.width
    }

    #[getter]
    fn players(&self) -> usize {
        self.sp.players
    }

    /// Decisions per placement (the last factor of an action): 18 without
    /// an expansion, 46 with one.
    #[getter]
    fn decisions(&self) -> usize {
        self.sp.decisions
    }

    /// The names of the decisions, in order (`DECISION_NAMES`' first `decisions`).
    #[getter]
    fn decision_names(&self) -> Vec<String> {
        DECISION_TABLE[..self.sp.decisions].iter().map(|&a| decision_name(a)).collect()
    }

    /// Tile kinds observed (`hands`, `unseen`): 43 without an expansion,
    /// every tile id with one.
    #[getter]
    fn tile_kinds(&self) -> usize {
        self.sp.tile_kinds
    }

    /// Whether the observation has the expansions' planes and arrays.
    #[getter]
    fn expansions(&self) -> bool {
        self.sp.expansions
    }

    /// The most goods tokens of each kind (wine, wheat, cloth) a player can hold.
    #[getter]
    fn goods_high(&self) -> Vec<u32> {
        self.sp.goods_high().map(u32::from).to_vec()
    }

    /// The rule set's code.
    #[getter]
    fn rules(&self) -> String {
        self.sp.rules.to_code()
    }

    /// The names of the board planes, in order.
    #[getter]
    fn plane_names(&self) -> Vec<String> {
        self.sp.plane_names()
    }

    #[getter]
    fn to_move(&self) -> Option<usize> {
        self.game.to_move().map(PlayerId::index)
    }

    #[getter]
    fn finished(&self) -> bool {
        self.game.is_over()
    }

    #[getter]
    fn moves_played(&self) -> u16 {
        self.game.moves_played()
    }

    /// Tiles still to be drawn.
    #[getter]
    fn tiles_left(&self) -> usize {
        self.game.tiles_left()
    }

    fn __copy__(&self) -> EnvCore {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> EnvCore {
        self.clone()
    }

    #[getter]
    fn scores(&self) -> Vec<u32> {
        self.game.scores().to_vec()
    }

    #[getter]
    fn winners(&self) -> Vec<usize> {
        self.game.winners().iter().map(PlayerId::index).collect()
    }

    /// Redraws what `seat` cannot see (the bag's order, other players'
    /// hidden hands) from `rng`, keeping everything it sees: a determinized
    /// sample in place (and the check that observations leak nothing).
    fn resample_hidden(&mut self, #[pyo3(from_py_with = natural)] seat: usize, rng: &Bound<'_, PyAny>) -> PyResult<()> {
        let p = self.seat(seat)?;
        self.game.resample_hidden(p, &mut carcassonne::seeded_rng(crate::seed_of(rng)?));
        self.legal = self.game.legal_moves();
        Ok(())
    }

    /// The game so far (a copy).
    fn game(&self) -> PyGame {
        PyGame { game: self.game.clone(), names: self.names.clone() }
    }

    /// The action mask of `seat` (int8, 1 = legal; all zero unless `seat` is to move).
    fn mask<'py>(
        &self,
        py: Python<'py>,
        #[pyo3(from_py_with = natural)] seat: usize,
    ) -> PyResult<Bound<'py, PyArray1<i8>>> {
        Ok(PyArray1::from_vec(py, self.mask_vec(self.seat(seat)?)))
    }

    /// The legal actions of the player to move, ascending.
    fn legal_actions<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        let mut v: Vec<i64> = self.legal.iter().filter_map(|m| self.encode_move(m)).map(|a| a as i64).collect();
        v.sort_unstable();
        v.dedup();
        PyArray1::from_vec(py, v)
    }

    /// Legal moves of the player to move that lie outside the window (no
    /// action names them).
    fn moves_outside(&self) -> usize {
        self.legal.iter().filter(|m| self.cell(m.pos).is_none()).count()
    }

    /// The move an action stands for, or None if it names no tile in hand
    /// (or the game is over).
    fn decode(&self, #[pyo3(from_py_with = natural)] action: usize) -> Option<PyMove> {
        self.decode_action(action).map(|mv| PyMove { mv })
    }

    /// The action that names a move of the player to move, or None (outside
    /// the window, or not a tile in hand).
    fn encode(&self, mv: &Bound<'_, PyAny>) -> PyResult<Option<usize>> {
        Ok(self.encode_move(&crate::game::move_arg(mv)?.mv))
    }

    /// Whether an action is legal for the player to move (the same as its
    /// mask entry, without building the mask).
    fn is_legal(&self, #[pyo3(from_py_with = natural)] action: usize) -> bool {
        self.decode_action(action).is_some_and(|mv| self.legal.contains(&mv))
    }

    /// Plays the move an action stands for; raises `IllegalMoveError` (the
    /// game unchanged) if it is not legal.
    fn step(&mut self, py: Python<'_>, #[pyo3(from_py_with = natural)] action: usize) -> PyResult<()> {
        let mv = self.decode_action(action).ok_or_else(|| {
            PyValueError::new_err(format!("action {action} names no move (game over, or no such tile in hand)"))
        })?;
        if self.legal.contains(&mv) {
            self.game.play(&mv).map_err(|e| illegal(py, e))?;
            self.legal = self.game.legal_moves();
            Ok(())
        } else {
            // The checked path says which rule the move breaks; a legal
            // move with a non-canonical spot is refused too (masks name
            // each choice once).
            self.game.check(&mv).map_err(|e| illegal(py, e))?;
            Err(PyValueError::new_err(format!(
                "action {action} is not in the mask (name each follower choice by its first spot)"
            )))
        }
    }

    /// The built-in `bot` plays the turn of the player to move (the GIL released).
    fn play_bot(&mut self, py: Python<'_>, bot: &PyBot) -> PyResult<()> {
        let (game, lock) = (&mut self.game, &bot.bot);
        let result = py.detach(|| {
            let p = game.to_move()?;
            let mv = lock.lock().unwrap_or_else(|e| e.into_inner()).choose(&View::new(game, p))?;
            Some(game.play(&mv))
        });
        match result {
            None => Err(PyValueError::new_err("the game is over")),
            Some(r) => {
                r.map_err(|e| illegal(py, e))?;
                self.legal = self.game.legal_moves();
                Ok(())
            }
        }
    }

    /// Everything `seat` may see, as numpy arrays (python/README.md):
    /// `board` (planes × W × W, uint8), `hands` (seats × slots × tile kinds),
    /// `hand_sizes`, `unseen`, `scores`, `supply`, `abbot`, `to_move`; with
    /// an expansion `big_follower`, `builder`, `pig` (in supply, per seat),
    /// `goods` (seats × 3) and `bonus` (the builder's second tile is to
    /// play); and `action_mask`. Seats are relative: index 0 is the observer.
    fn observe<'py>(
        &self,
        py: Python<'py>,
        #[pyo3(from_py_with = natural)] seat: usize,
    ) -> PyResult<Bound<'py, PyDict>> {
        let me = self.seat(seat)?;
        let (n, sp) = (self.sp.players, &self.sp);
        let s = self.seat_arrays(me);
        let d = PyDict::new(py);
        let w = sp.width;
        d.set_item("board", PyArray1::from_vec(py, self.board_planes(me)).reshape([sp.planes(), w, w])?)?;
        d.set_item("hands", PyArray1::from_vec(py, s.hands).reshape([n, sp.slots, sp.tile_kinds])?)?;
        d.set_item("hand_sizes", PyArray1::from_vec(py, s.hand_sizes))?;
        d.set_item("unseen", PyArray1::from_vec(py, s.unseen))?;
        d.set_item("scores", PyArray1::from_vec(py, s.scores))?;
        d.set_item("supply", PyArray1::from_vec(py, s.supply))?;
        d.set_item("abbot", PyArray1::from_vec(py, s.abbot))?;
        d.set_item("to_move", PyArray1::from_vec(py, s.to_move))?;
        if sp.expansions {
            d.set_item("big_follower", PyArray1::from_vec(py, s.big_follower))?;
            d.set_item("builder", PyArray1::from_vec(py, s.builder))?;
            d.set_item("pig", PyArray1::from_vec(py, s.pig))?;
            d.set_item("goods", PyArray1::from_vec(py, s.goods).reshape([n, 3])?)?;
            d.set_item("bonus", PyArray1::from_vec(py, s.bonus))?;
        }
        d.set_item("action_mask", PyArray1::from_vec(py, self.mask_vec(me)))?;
        Ok(d)
    }
}

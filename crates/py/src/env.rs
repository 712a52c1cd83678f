//! The core of the PettingZoo environment: a game with a fixed, flat action
//! space, its action masks and its observations as numpy arrays. The
//! Python classes in `carcassonne/env.py` add the PettingZoo and Gymnasium
//! protocols around it. The layout is documented in python/README.md.
//!
//! An action is `((slot · W² + cell) · 4 + rot) · 18 + decision`:
//! - `slot`: which tile of the hand (0 without a hand rule);
//! - `cell`: `(y + R) · W + (x + R)` for the cell `(x, y)` in the window of
//!   radius `R` (width `W = 2R + 1`) around the start tile;
//! - `rot`: quarter turns clockwise;
//! - `decision`: 0 deploy nothing, 1–14 a follower on spot `N E S W Nw Ne
//!   En Es Se Sw Ws Wn C G` (in that order), 15 the abbot on `C`, 16 the
//!   abbot on `G`, 17 recall the abbot.
//!
//! Observations never hold what the observer cannot see: hidden hands are
//! zero, and tile counts are of the tiles unseen by the observer.

use carcassonne::{
    Action, EdgeKind, Follower, Game, Move, PlacedTile, PlayerId, Pos, Role, Rotation, Rules, Setup, Spot, View,
};
use numpy::{PyArray1, PyArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::game::{PyGame, PyMove};
use crate::play::PyBot;
use crate::{env_rules, illegal, natural, setup_error};

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<EnvCore>()?;
    m.add("DECISIONS", DECISIONS)?;
    m.add("TILE_KINDS", TILE_KINDS)?;
    m.add("DEFAULT_RADIUS", DEFAULT_RADIUS)?;
    Ok(())
}

/// The tile kinds the environments observe: the base game's and The River's
/// (the engine's first 43 tile ids). The environments refuse the
/// expansions' rules (`env_rules`), so no other tile ever reaches them, and
/// their observations keep the layout of the base game.
pub const TILE_KINDS: usize = 43;
const _: () = assert!(TILE_KINDS <= carcassonne::TILE_KINDS);

/// Decisions after placing a tile: pass, 14 follower spots, abbot on C or G, recall.
pub const DECISIONS: usize = 18;
const SPOTS: usize = 14;
/// The window's default radius: 15 cells each way from the start tile
/// (31 × 31 cells). Measured over 2,000 random 2-player games, no legal
/// placement ever fell outside it (python/README.md).
pub const DEFAULT_RADIUS: usize = 15;

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
pub(crate) const ROLE_PLANES: [&str; 5] = ["thief", "knight", "monk", "farmer", "abbot"];

pub(crate) fn decision(action: Action) -> usize {
    match action {
        Action::Pass => 0,
        Action::Follower(s) => 1 + s.index(),
        Action::Abbot(s) if s == Spot::GARDEN => 16,
        Action::Abbot(_) => 15,
        Action::Recall => 17,
        Action::BigFollower(_) | Action::Builder(_) | Action::Pig(_) => {
            unreachable!("environments refuse the expansions' rules (env_rules)")
        }
    }
}

fn action_of(d: usize) -> Action {
    match d {
        0 => Action::Pass,
        1..=SPOTS => Action::Follower(Spot::all().nth(d - 1).expect("14 spots")),
        15 => Action::Abbot(Spot::CLOISTER),
        16 => Action::Abbot(Spot::GARDEN),
        _ => Action::Recall,
    }
}

/// The move of flat action `action` ([`flat_action`]) for the player to move
/// of `game`, in the window of `radius` (`width` cells a side); `None` when
/// nobody is to move or the hand has no such slot.
pub(crate) fn action_move(game: &Game, radius: i32, width: usize, action: usize) -> Option<Move> {
    let p = game.to_move()?;
    let d = action % DECISIONS;
    let rest = action / DECISIONS;
    let rot = Rotation::new((rest % 4) as u8)?;
    let rest = rest / 4;
    let cells = width * width;
    let (slot, cell) = (rest / cells, rest % cells);
    let tile = *game.hand(p).get(slot)?;
    let pos = Pos::new((cell % width) as i32 - radius, (cell / width) as i32 - radius);
    Some(Move { tile, pos, rot, action: action_of(d), bonus: game.bonus() })
}

/// The plane of `BASE_PLANES` that marks the cell of the last tile placed.
pub(crate) const LAST_PLACED: usize = 18;

/// The cell of `pos` in a window of `radius` cells each way around the
/// start (`width` = 2 × radius + 1 cells a side), if it is inside.
pub(crate) fn window_cell(pos: Pos, radius: i32, width: usize) -> Option<usize> {
    let (x, y) = (pos.x + radius, pos.y + radius);
    let w = width as i32;
    ((0..w).contains(&x) && (0..w).contains(&y)).then(|| (y * w + x) as usize)
}

/// The flat action of hand slot `slot`, window cell `cell` (of `cells`),
/// rotation `rot` and decision `d`.
pub(crate) fn flat_action(slot: usize, cells: usize, cell: usize, rot: Rotation, d: usize) -> usize {
    ((slot * cells + cell) * 4 + rot.quarter_turns() as usize) * DECISIONS + d
}

/// Writes the planes of a placed tile at cell `c` of `board` (planes of
/// `cells` bytes each). The cell was empty, so only the planes that are not
/// zero are written.
pub(crate) fn write_tile(board: &mut [u8], cells: usize, c: usize, t: &PlacedTile, abbot: bool) {
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
    set(15, (def.has_garden() && abbot) as u8);
    set(16, t.tile.index() as u8 + 1);
    set(17, rot as u8);
}

/// A figure as the planes show it to `seat`: its seat relative to `seat`,
/// its role and its spot (index + 1).
pub(crate) fn figure_of(f: &Follower, seat: PlayerId, players: usize) -> (usize, usize, u8) {
    // (player - seat) mod players, without a division.
    let rel = f.player.index() + players - seat.index();
    let rel = if rel >= players { rel - players } else { rel };
    (rel, role_index(f.role), 1 + f.spot.index() as u8)
}

/// Sets a figure's planes at cell `c` (`on`), or clears them.
pub(crate) fn write_figure(
    board: &mut [u8],
    cells: usize,
    players: usize,
    c: usize,
    figure: (usize, usize, u8),
    on: bool,
) {
    let (seat, role, spot) = figure;
    let seats_at = BASE_PLANES.len();
    let roles_at = seats_at + players;
    let spot_at = roles_at + ROLE_PLANES.len();
    board[(seats_at + seat) * cells + c] = on as u8;
    board[(roles_at + role) * cells + c] = on as u8;
    board[spot_at * cells + c] = if on { spot } else { 0 };
}

pub(crate) fn role_index(r: Role) -> usize {
    match r {
        Role::Thief => 0,
        Role::Knight => 1,
        Role::Monk => 2,
        Role::Farmer => 3,
        Role::Abbot => 4,
        Role::Builder | Role::Pig => unreachable!("environments refuse the expansions' rules (env_rules)"),
    }
}

/// A game with a flat action space, masks and array observations.
#[pyclass(name = "EnvCore", module = "carcassonne")]
#[derive(Clone)]
pub struct EnvCore {
    game: Game,
    /// The legal moves of the player to move, worked out once per state
    /// (masks, action lists and steps all read them).
    legal: Vec<Move>,
    rules: Rules,
    players: usize,
    radius: i32,
    width: usize,
    slots: usize,
    names: Vec<String>,
}

impl EnvCore {
    fn cell(&self, pos: Pos) -> Option<usize> {
        window_cell(pos, self.radius, self.width)
    }

    fn encode_move(&self, mv: &Move) -> Option<usize> {
        let p = self.game.to_move()?;
        let slot = self.game.hand(p).iter().position(|&t| t == mv.tile)?;
        let cell = self.cell(mv.pos)?;
        Some(flat_action(slot, self.width * self.width, cell, mv.rot, decision(mv.action)))
    }

    fn decode_action(&self, action: usize) -> Option<Move> {
        if action >= self.actions() {
            return None;
        }
        action_move(&self.game, self.radius, self.width, action)
    }

    fn actions(&self) -> usize {
        self.slots * self.width * self.width * 4 * DECISIONS
    }

    fn planes(&self) -> usize {
        BASE_PLANES.len() + self.players + ROLE_PLANES.len() + 1
    }

    fn seat(&self, seat: usize) -> PyResult<PlayerId> {
        if seat < self.players {
            Ok(PlayerId(seat as u8))
        } else {
            Err(PyValueError::new_err(format!("seat {seat} is not at this table of {}", self.players)))
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
        let cells = self.width * self.width;
        let mut out = vec![0u8; self.planes() * cells];
        for t in self.game.board().tiles() {
            if let Some(c) = self.cell(t.pos) {
                write_tile(&mut out, cells, c, t, self.rules.abbot);
            }
        }
        if let Some(last) = self.game.history().last().and_then(|m| self.cell(m.pos)) {
            out[LAST_PLACED * cells + last] = 1;
        }
        for f in self.game.followers() {
            if let Some(c) = self.cell(f.pos) {
                write_figure(&mut out, cells, self.players, c, figure_of(f, seat, self.players), true);
            }
        }
        out
    }
}

#[pymethods]
impl EnvCore {
    #[new]
    #[pyo3(signature = (rules = "standard", players = 2, radius = DEFAULT_RADIUS, seed = 0))]
    fn new(
        py: Python<'_>,
        rules: &str,
        #[pyo3(from_py_with = natural)] players: usize,
        #[pyo3(from_py_with = natural)] radius: usize,
        #[pyo3(from_py_with = natural)] seed: u64,
    ) -> PyResult<EnvCore> {
        let rules = env_rules(py, rules)?;
        if !(1..=64).contains(&radius) {
            return Err(PyValueError::new_err("radius must be 1 to 64"));
        }
        let game = Game::new(Setup::standard(rules, players, seed)).map_err(|e| setup_error(py, e))?;
        Ok(EnvCore {
            legal: game.legal_moves(),
            game,
            rules,
            players,
            radius: radius as i32,
            width: 2 * radius + 1,
            slots: rules.hand.max(1) as usize,
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
        let args = (this.rules.to_code(), this.players, this.radius, record, crate::game::live_state(&this.game));
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
        let mut core = EnvCore::new(py, rules, players, radius, 0)?;
        core.game = crate::game::restore_game(py, record, live)?.game;
        core.legal = core.game.legal_moves();
        Ok(core)
    }

    /// The length of `state()`.
    #[getter]
    fn state_size(&self) -> usize {
        let (n, cells) = (self.players, self.width * self.width);
        self.planes() * cells + n * self.slots * TILE_KINDS + TILE_KINDS + 5 * n
    }

    /// The whole table for a centralised critic, one flat int32 array
    /// (python/README.md, "State"): the board planes with absolute seats
    /// (seat 0's observation planes), every hand (hidden ones too), the
    /// hand sizes, the bag's counts per tile kind (never its order), then
    /// per seat the scores, supply, abbot in supply and who is to move.
    fn state<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i32>> {
        let n = self.players;
        let mut out: Vec<i32> = Vec::with_capacity(self.state_size());
        out.extend(self.board_planes(PlayerId(0)).into_iter().map(i32::from));
        let seats = || (0..n).map(|p| PlayerId(p as u8));
        for p in seats() {
            let mut rows = vec![0i32; self.slots * TILE_KINDS];
            for (i, t) in self.game.hand(p).iter().enumerate().take(self.slots) {
                rows[i * TILE_KINDS + t.index()] = 1;
            }
            out.extend(rows);
        }
        out.extend(seats().map(|p| self.game.hand(p).len() as i32));
        out.extend(self.game.remaining()[..TILE_KINDS].iter().map(|&c| i32::from(c)));
        out.extend(self.game.scores().iter().take(n).map(|&s| s as i32));
        out.extend(seats().map(|p| i32::from(self.game.supply(p))));
        let view = View::new(&self.game, PlayerId(0));
        out.extend(seats().map(|p| i32::from(view.abbot_in_supply(p))));
        out.extend(seats().map(|p| i32::from(self.game.to_move() == Some(p))));
        PyArray1::from_vec(py, out)
    }

    /// A new game shuffled from `seed`.
    fn reset(&mut self, py: Python<'_>, #[pyo3(from_py_with = natural)] seed: u64) -> PyResult<()> {
        self.game = Game::new(Setup::standard(self.rules, self.players, seed)).map_err(|e| setup_error(py, e))?;
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
        self.slots
    }

    #[getter]
    fn radius(&self) -> i32 {
        self.radius
    }

    #[getter]
    fn width(&self) -> usize {
        self.width
    }

    #[getter]
    fn players(&self) -> usize {
        self.players
    }

    /// The names of the board planes, in order.
    #[getter]
    fn plane_names(&self) -> Vec<String> {
        let mut names: Vec<String> = BASE_PLANES.iter().map(|s| s.to_string()).collect();
        names.extend((0..self.players).map(|r| format!("follower_seat_{r}")));
        names.extend(ROLE_PLANES.iter().map(|s| s.to_string()));
        names.push("follower_spot".to_string());
        names
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
    /// `hand_sizes`, `unseen`, `scores`, `supply`, `abbot`, `to_move`, and
    /// `action_mask`. Seats are relative: index 0 is the observer.
    fn observe<'py>(
        &self,
        py: Python<'py>,
        #[pyo3(from_py_with = natural)] seat: usize,
    ) -> PyResult<Bound<'py, PyDict>> {
        let me = self.seat(seat)?;
        let view = View::new(&self.game, me);
        let n = self.players;
        let rel = |p: usize| (p + n - me.index()) % n;
        let seats = || (0..n).map(|p| PlayerId(p as u8));

        let mut hands = vec![0u8; n * self.slots * TILE_KINDS];
        let mut hand_sizes = vec![0u8; n];
        let mut scores = vec![0i32; n];
        let mut supply = vec![0u8; n];
        let mut abbot = vec![0u8; n];
        let mut to_move = vec![0u8; n];
        for p in seats() {
            let r = rel(p.index());
            if let Some(hand) = view.hand(p) {
                for (i, t) in hand.iter().enumerate().take(self.slots) {
                    hands[(r * self.slots + i) * TILE_KINDS + t.index()] = 1;
                }
            }
            hand_sizes[r] = view.hand_len(p) as u8;
            scores[r] = view.scores()[p.index()] as i32;
            supply[r] = view.supply(p);
            abbot[r] = view.abbot_in_supply(p) as u8;
            to_move[r] = (view.to_move() == Some(p)) as u8;
        }
        let unseen = view.unseen()[..TILE_KINDS].to_vec();

        let d = PyDict::new(py);
        let w = self.width;
        d.set_item("board", PyArray1::from_vec(py, self.board_planes(me)).reshape([self.planes(), w, w])?)?;
        d.set_item("hands", PyArray1::from_vec(py, hands).reshape([n, self.slots, TILE_KINDS])?)?;
        d.set_item("hand_sizes", PyArray1::from_vec(py, hand_sizes))?;
        d.set_item("unseen", PyArray1::from_vec(py, unseen))?;
        d.set_item("scores", PyArray1::from_vec(py, scores))?;
        d.set_item("supply", PyArray1::from_vec(py, supply))?;
        d.set_item("abbot", PyArray1::from_vec(py, abbot))?;
        d.set_item("to_move", PyArray1::from_vec(py, to_move))?;
        d.set_item("action_mask", PyArray1::from_vec(py, self.mask_vec(me)))?;
        Ok(d)
    }
}

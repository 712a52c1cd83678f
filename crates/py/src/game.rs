//! `Move`, `Game`, `View` and `Tile`: the engine as Python classes.

use std::sync::Arc;

use carcassonne::record::{event_json, Record, RecordMove};
use carcassonne::{seeded_rng, Action, Game, Move, PlayerId, RandomMover, Setup, TileId, View};
use pyo3::exceptions::{PyIndexError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use crate::{
    bad_move, illegal, natural, parse_rules, record_text, replay_error, seed_of, setup_error, tile_arg, to_py,
};

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyMove>()?;
    m.add_class::<PyGame>()?;
    m.add_class::<PyView>()?;
    m.add_class::<PyTile>()?;
    m.add_function(wrap_pyfunction!(tiles, m)?)?;
    m.add_function(wrap_pyfunction!(tile, m)?)?;
    Ok(())
}

/// `D (CRFR50)`: a tile's letter and, for a base tile, its course name.
pub(crate) fn tile_label(t: TileId) -> String {
    match crate::course_name(t) {
        Some(c) => format!("{t} ({c})"),
        None => t.to_string(),
    }
}

/// One turn: the tile, where it goes (`at`, east and south positive, the
/// start tile at `(0, 0)`), its quarter turns clockwise, and at most one of
/// a follower spot (`meeple`), an abbot spot (`abbot`, `C` or `G`) or
/// `recall`. The same fields as a record's move (record.md); `tile` may be
/// given by letter or by course name and is kept by letter.
#[pyclass(name = "Move", module = "carcassonne", frozen, eq, hash)]
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct PyMove {
    pub(crate) mv: Move,
}

impl PyMove {
    fn record(&self) -> RecordMove {
        RecordMove::from_move(&self.mv)
    }
}

#[pymethods]
impl PyMove {
    #[new]
    #[pyo3(signature = (tile, at, rot = 0, meeple = None, abbot = None, recall = false))]
    fn new(
        py: Python<'_>,
        tile: &str,
        #[pyo3(from_py_with = crate::coords)] at: (i32, i32),
        #[pyo3(from_py_with = natural)] rot: u8,
        meeple: Option<String>,
        abbot: Option<String>,
        recall: bool,
    ) -> PyResult<PyMove> {
        let tile = tile_arg(py, tile)?;
        let rm = RecordMove {
            tile: tile.name().to_string(),
            at: [at.0, at.1],
            rot,
            meeple,
            abbot,
            recall: recall.then_some(true),
            ..RecordMove::default()
        };
        Ok(PyMove { mv: rm.to_move().map_err(|e| bad_move(py, e))? })
    }

    /// A move from its record form: `{"tile": "E", "at": [0, -1], "rot": 2, "meeple": "S"}`.
    #[staticmethod]
    fn from_dict(obj: &Bound<'_, PyAny>) -> PyResult<PyMove> {
        move_arg(obj)
    }

    /// The move in record form (record.md), ready for `json.dumps`.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &serde_json::to_value(self.record()).expect("a move serialises"))
    }

    /// Pickling, by the record form.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> Reduce<'py, (Bound<'py, PyAny>,)> {
        Ok((slf.get_type().getattr("from_dict")?, (slf.get().to_dict(slf.py())?,)))
    }

    /// The tile's letter id (`D`, `Eg`, `RV01`).
    #[getter]
    fn tile(&self) -> &'static str {
        self.mv.tile.name()
    }

    /// The tile's CMSC 22001 course name (`CRFR50`; `CFFF50g` for the garden copy `Eg`), or None for river tiles.
    #[getter]
    fn course(&self) -> Option<String> {
        crate::course_name(self.mv.tile)
    }

    #[getter]
    fn at(&self) -> (i32, i32) {
        (self.mv.pos.x, self.mv.pos.y)
    }

    #[getter]
    fn rot(&self) -> u8 {
        self.mv.rot.quarter_turns()
    }

    #[getter]
    fn meeple(&self) -> Option<&'static str> {
        match self.mv.action {
            Action::Follower(s) => Some(s.name()),
            _ => None,
        }
    }

    #[getter]
    fn abbot(&self) -> Option<&'static str> {
        match self.mv.action {
            Action::Abbot(s) => Some(s.name()),
            _ => None,
        }
    }

    #[getter]
    fn recall(&self) -> bool {
        self.mv.action == Action::Recall
    }

    fn __repr__(&self) -> String {
        let action = match self.mv.action {
            Action::Pass => String::new(),
            Action::Follower(s) => format!(", meeple='{s}'"),
            Action::Abbot(s) => format!(", abbot='{s}'"),
            Action::Recall => ", recall=True".to_string(),
            Action::BigFollower(s) => format!(", big='{s}'"),
            Action::Builder(s) => format!(", builder='{s}'"),
            Action::Pig(s) => format!(", pig='{s}'"),
        };
        let bonus = self.mv.bonus.map(|b| format!(", bonus='{}'", b.word())).unwrap_or_default();
        format!(
            "Move('{}'{}, at=({}, {}), rot={}{action}{bonus})",
            self.mv.tile.name(),
            crate::course_name(self.mv.tile).map(|c| format!(" ({c})")).unwrap_or_default(),
            self.mv.pos.x,
            self.mv.pos.y,
            self.mv.rot.quarter_turns()
        )
    }
}

/// A move from a `Move` or its record-form dict.
pub(crate) fn move_arg(obj: &Bound<'_, PyAny>) -> PyResult<PyMove> {
    let py = obj.py();
    if let Ok(m) = obj.cast::<PyMove>() {
        return Ok(m.get().clone());
    }
    let Ok(d) = obj.cast::<PyDict>() else {
        return Err(PyValueError::new_err("a move is a carcassonne.Move or a dict in record form"));
    };
    let field = |k: &str| d.get_item(k);
    let tile: String = field("tile")?.ok_or_else(|| PyValueError::new_err("a move needs \"tile\""))?.extract()?;
    let at = field("at")?.ok_or_else(|| PyValueError::new_err("a move needs \"at\": [x, y]"))?;
    let (x, y) = crate::coords(&at)?;
    let rot: u8 = field("rot")?.map(|r| natural(&r)).transpose()?.unwrap_or(0);
    let opt =
        |k: &str| -> PyResult<Option<String>> { field(k)?.filter(|v| !v.is_none()).map(|v| v.extract()).transpose() };
    let recall: bool = field("recall")?.filter(|v| !v.is_none()).map(|v| v.extract()).transpose()?.unwrap_or(false);
    PyMove::new(py, &tile, (x, y), rot, opt("meeple")?, opt("abbot")?, recall)
}

fn moves_list(moves: Vec<Move>) -> Vec<PyMove> {
    moves.into_iter().map(|mv| PyMove { mv }).collect()
}

fn seat_arg(n: usize, seat: usize) -> PyResult<PlayerId> {
    if seat < n {
        Ok(PlayerId(seat as u8))
    } else {
        Err(PyIndexError::new_err(format!("seat {seat} is not at this table of {n}")))
    }
}

fn board_list<'py>(py: Python<'py>, game: &Game) -> PyResult<Bound<'py, PyList>> {
    let list = PyList::empty(py);
    for t in game.board().tiles() {
        let d = PyDict::new(py);
        d.set_item("tile", t.tile.name())?;
        d.set_item("at", (t.pos.x, t.pos.y))?;
        d.set_item("rot", t.rot.quarter_turns())?;
        list.append(d)?;
    }
    Ok(list)
}

fn followers_list<'py>(py: Python<'py>, game: &Game) -> PyResult<Bound<'py, PyList>> {
    let list = PyList::empty(py);
    for f in game.followers() {
        let d = PyDict::new(py);
        d.set_item("seat", f.player.index())?;
        d.set_item("at", (f.pos.x, f.pos.y))?;
        d.set_item("spot", f.spot.name())?;
        d.set_item("role", f.role.word())?;
        list.append(d)?;
    }
    Ok(list)
}

fn events_list<'py>(py: Python<'py>, game: &Game) -> PyResult<Bound<'py, PyList>> {
    let list = PyList::empty(py);
    for e in game.events().iter().filter_map(event_json) {
        list.append(to_py(py, &e)?)?;
    }
    Ok(list)
}

/// What `__reduce__` returns: the function that rebuilds and its arguments.
pub(crate) type Reduce<'py, A> = PyResult<(Bound<'py, PyAny>, A)>;

/// A live bag's generator as Python can pickle it: its key and word position.
pub(crate) type LiveState = (Vec<u8>, u128);

pub(crate) fn live_state(game: &Game) -> Option<LiveState> {
    game.live_state().map(|(key, pos)| (key.to_vec(), pos))
}

/// A game from its record and live generator, as pickled (`live_state`).
pub(crate) fn restore_game(py: Python<'_>, record: &str, live: Option<LiveState>) -> PyResult<PyGame> {
    let live = match live {
        None => None,
        Some((key, pos)) => {
            let key: [u8; 32] = key.try_into().map_err(|_| PyValueError::new_err("a live state's key is 32 bytes"))?;
            Some((key, pos))
        }
    };
    let (mut game, names) = py
        .detach(|| {
            let r = Record::from_json(record)?;
            Ok((r.replay()?, r.players))
        })
        .map_err(|e| replay_error(py, e))?;
    game.set_live_state(live);
    Ok(PyGame { game, names })
}

fn names_of(n: usize) -> Vec<String> {
    (1..=n).map(|i| format!("Player {i}")).collect()
}

/// A game of Carcassonne: every rule option of the engine, deterministic
/// from its seed.
///
/// `Game(rules="first-edition,river=true", players=3, seed=7)`; `players` is
/// a count (2–6) or a list of names. `rules` is a preset with options, as
/// `carcassonne rules` takes them, or a rule-set code.
///
/// This object knows everything (the bag's order, every hand); give a
/// player `view(seat)`, which shows only what that seat may see.
#[pyclass(name = "Game", module = "carcassonne")]
#[derive(Clone)]
pub struct PyGame {
    pub(crate) game: Game,
    pub(crate) names: Vec<String>,
}

#[pymethods]
impl PyGame {
    #[new]
    #[pyo3(signature = (rules = "standard", players = None, seed = 0))]
    fn new(
        py: Python<'_>,
        rules: &str,
        players: Option<&Bound<'_, PyAny>>,
        #[pyo3(from_py_with = natural)] seed: u64,
    ) -> PyResult<PyGame> {
        let rules = parse_rules(py, rules)?;
        let names = match players {
            None => names_of(2),
            Some(p) if p.is_instance_of::<pyo3::types::PyInt>() => names_of(natural(p)?),
            Some(p) => p.extract::<Vec<String>>()?,
        };
        let game = Game::new(Setup::standard(rules, names.len(), seed)).map_err(|e| setup_error(py, e))?;
        Ok(PyGame { game, names })
    }

    /// A game replayed from a record (JSON text, a dict or a path), every move
    /// checked. Raises `RecordError` naming the move and the reason. The
    /// replayed game can be played on (`seed` draws what the rules leave to
    /// chance from here on, such as a reshuffled tile's place).
    #[staticmethod]
    #[pyo3(signature = (record, seed = 0))]
    fn from_record(
        py: Python<'_>,
        record: &Bound<'_, PyAny>,
        #[pyo3(from_py_with = natural)] seed: u64,
    ) -> PyResult<PyGame> {
        let text = record_text(record)?;
        let (game, names) = py
            .detach(|| {
                let r = Record::from_json(&text)?;
                let mut game = r.replay()?;
                game.make_live(r.seed.unwrap_or(seed));
                Ok((game, r.players))
            })
            .map_err(|e| replay_error(py, e))?;
        Ok(PyGame { game, names })
    }

    /// The game's record (record.md) as JSON text: rules, players, the whole
    /// draw order and every move; `Game.from_record` and `carcassonne score`
    /// read it back.
    fn to_record(&self) -> String {
        Record::from_game(&self.game, &self.names).to_json()
    }

    /// Every legal move of the player to move (each tile of a hand, each
    /// placement, each follower / big follower / builder / pig / abbot /
    /// recall decision), or [] once the game is over.
    fn legal_moves(&self) -> Vec<PyMove> {
        moves_list(self.game.legal_moves())
    }

    /// Plays a move (a `Move` or its record-form dict). An illegal move
    /// raises `IllegalMoveError` whose `code` names the rule it breaks, and
    /// changes nothing.
    fn play(&mut self, py: Python<'_>, mv: &Bound<'_, PyAny>) -> PyResult<()> {
        let mv = move_arg(mv)?.mv;
        self.game.play(&mv).map_err(|e| illegal(py, e))
    }

    /// Plays random legal moves to the end of the game (a fast playout; the
    /// GIL is released).
    #[pyo3(signature = (rng = None))]
    fn playout(&mut self, py: Python<'_>, rng: Option<&Bound<'_, PyAny>>) -> PyResult<()> {
        let seed = rng.map(seed_of).transpose()?.unwrap_or(0);
        let game = &mut self.game;
        py.detach(|| RandomMover::new().playout(game, &mut seeded_rng(seed)));
        Ok(())
    }

    /// What `seat` may see: the table, its own hand (and every hand with
    /// `hand_visible`), the counts of unseen tiles, never the bag's order.
    fn view(&self, #[pyo3(from_py_with = natural)] seat: usize) -> PyResult<PyView> {
        let player = seat_arg(self.game.num_players(), seat)?;
        Ok(PyView { game: Arc::new(self.game.clone()), player, names: self.names.clone() })
    }

    /// A game consistent with what `seat` sees, the hidden part (the bag's
    /// order, other players' hidden hands) drawn from `rng` (an int seed or a
    /// random generator): for determinized search.
    fn sample(&self, #[pyo3(from_py_with = natural)] seat: usize, rng: &Bound<'_, PyAny>) -> PyResult<PyGame> {
        let player = seat_arg(self.game.num_players(), seat)?;
        let game = View::new(&self.game, player).sample(&mut seeded_rng(seed_of(rng)?));
        Ok(PyGame { game, names: self.names.clone() })
    }

    /// Pickling (`pickle`, `copy`, multiprocessing): the game's record and
    /// its live bag's generator, so the copy is the same game and plays on
    /// exactly as the original would.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> Reduce<'py, (String, Option<LiveState>)> {
        let this = slf.borrow();
        let restore = slf.get_type().getattr("_restore")?;
        Ok((restore, (this.to_record(), live_state(&this.game))))
    }

    /// The inverse of `__reduce__` (not for use otherwise).
    #[staticmethod]
    fn _restore(py: Python<'_>, record: &str, live: Option<LiveState>) -> PyResult<PyGame> {
        restore_game(py, record, live)
    }

    fn copy(&self) -> PyGame {
        self.clone()
    }

    fn __copy__(&self) -> PyGame {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyGame {
        self.clone()
    }

    #[getter]
    fn scores(&self) -> Vec<u32> {
        self.game.scores().to_vec()
    }

    /// The scoring events so far, as `carcassonne score` prints them (record.md).
    #[getter]
    fn events<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        events_list(py, &self.game)
    }

    #[getter]
    fn finished(&self) -> bool {
        self.game.is_over()
    }

    /// The seats with the top score (after the end of the game: the winners).
    #[getter]
    fn winners(&self) -> Vec<usize> {
        self.game.winners().iter().map(PlayerId::index).collect()
    }

    /// The seat to move, or None once the game is over.
    #[getter]
    fn to_move(&self) -> Option<usize> {
        self.game.to_move().map(PlayerId::index)
    }

    /// The tile the player to move places (the drawn tile), or None.
    #[getter]
    fn tile(&self) -> Option<&'static str> {
        self.game.tile().map(TileId::name)
    }

    /// The tiles `seat` holds (with a hand rule; otherwise the drawn tile of the player to move).
    fn hand(&self, #[pyo3(from_py_with = natural)] seat: usize) -> PyResult<Vec<&'static str>> {
        let p = seat_arg(self.game.num_players(), seat)?;
        Ok(self.game.hand(p).iter().map(|t| t.name()).collect())
    }

    /// Followers `seat` has in supply (0–7).
    fn supply(&self, #[pyo3(from_py_with = natural)] seat: usize) -> PyResult<u8> {
        Ok(self.game.supply(seat_arg(self.game.num_players(), seat)?))
    }

    #[getter]
    fn num_players(&self) -> usize {
        self.game.num_players()
    }

    #[getter]
    fn players(&self) -> Vec<String> {
        self.names.clone()
    }

    /// The rule set as text (`standard,river=true`).
    #[getter]
    fn rules(&self) -> String {
        self.game.rules().to_string()
    }

    /// The rule set's shareable code.
    #[getter]
    fn rules_code(&self) -> String {
        self.game.rules().to_code()
    }

    #[getter]
    fn moves_played(&self) -> u16 {
        self.game.moves_played()
    }

    /// The moves played so far.
    #[getter]
    fn history(&self) -> Vec<PyMove> {
        moves_list(self.game.history().to_vec())
    }

    /// Tiles still to be drawn.
    #[getter]
    fn tiles_left(&self) -> usize {
        self.game.tiles_left()
    }

    /// The board as an RGB image, a `(height, width, 3)` uint8 array:
    /// `tile` pixels a tile (8–256), the placed tiles and a free cell
    /// around them, drawn in the web page's colours (python/README.md,
    /// "Rendering").
    #[pyo3(signature = (tile = 48))]
    fn to_rgb<'py>(
        &self,
        py: Python<'py>,
        #[pyo3(from_py_with = natural)] tile: usize,
    ) -> PyResult<Bound<'py, numpy::PyArray3<u8>>> {
        if !(8..=256).contains(&tile) {
            return Err(PyValueError::new_err(format!("tile is 8 to 256 pixels, not {tile}")));
        }
        let game = &self.game;
        let (img, h, w) = py.detach(|| crate::render::rgb(game, tile));
        numpy::PyArrayMethods::reshape(&numpy::PyArray1::from_vec(py, img), [h, w, 3])
    }

    /// The placed tiles: `{"tile", "at", "rot"}` each, the start tile first.
    #[getter]
    fn board<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        board_list(py, &self.game)
    }

    /// The followers on the board: `{"seat", "at", "spot", "role"}` each.
    #[getter]
    fn followers<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        followers_list(py, &self.game)
    }

    fn __repr__(&self) -> String {
        let state = match (self.game.to_move(), self.game.tile()) {
            (Some(p), Some(t)) => format!("seat {} to move with {}", p.index(), tile_label(t)),
            (Some(p), None) => format!("seat {} to move", p.index()),
            _ => "finished".to_string(),
        };
        format!(
            "<carcassonne.Game {} players, rules {}, {} moves, scores {:?}, {state}>",
            self.game.num_players(),
            self.game.rules(),
            self.game.moves_played(),
            self.game.scores()
        )
    }
}

/// What one seat may see of a game, frozen at the moment `Game.view` was
/// called. Bots choose from a view.
#[pyclass(name = "View", module = "carcassonne", frozen)]
pub struct PyView {
    pub(crate) game: Arc<Game>,
    pub(crate) player: PlayerId,
    names: Vec<String>,
}

impl PyView {
    pub(crate) fn view(&self) -> View<'_> {
        View::new(&self.game, self.player)
    }
}

#[pymethods]
impl PyView {
    /// Whose view this is.
    #[getter]
    fn seat(&self) -> usize {
        self.player.index()
    }

    #[getter]
    fn scores(&self) -> Vec<u32> {
        self.view().scores().to_vec()
    }

    #[getter]
    fn to_move(&self) -> Option<usize> {
        self.view().to_move().map(PlayerId::index)
    }

    /// The tile the player to move places (everyone sees it), or None.
    #[getter]
    fn tile(&self) -> Option<&'static str> {
        self.view().tile().map(TileId::name)
    }

    /// What `seat` holds if this view may see it (its own hand; every hand
    /// with `hand_visible`; the drawn tile without a hand rule), else None.
    fn hand(&self, #[pyo3(from_py_with = natural)] seat: usize) -> PyResult<Option<Vec<&'static str>>> {
        let p = seat_arg(self.game.num_players(), seat)?;
        Ok(self.view().hand(p).map(|h| h.iter().map(|t| t.name()).collect()))
    }

    /// How many tiles `seat` holds (public).
    fn hand_len(&self, #[pyo3(from_py_with = natural)] seat: usize) -> PyResult<usize> {
        Ok(self.view().hand_len(seat_arg(self.game.num_players(), seat)?))
    }

    fn supply(&self, #[pyo3(from_py_with = natural)] seat: usize) -> PyResult<u8> {
        Ok(self.view().supply(seat_arg(self.game.num_players(), seat)?))
    }

    fn abbot_in_supply(&self, #[pyo3(from_py_with = natural)] seat: usize) -> PyResult<bool> {
        Ok(self.view().abbot_in_supply(seat_arg(self.game.num_players(), seat)?))
    }

    /// How many of each tile this seat has not seen: the bag and the hands
    /// hidden from it (`{"D": 3, …}`, kinds with none left omitted).
    #[getter]
    fn unseen(&self) -> Vec<(&'static str, u8)> {
        let counts = self.view().unseen();
        TileId::all().filter(|t| counts[t.index()] > 0).map(|t| (t.name(), counts[t.index()])).collect()
    }

    #[getter]
    fn tiles_left(&self) -> usize {
        self.view().tiles_left()
    }

    #[getter]
    fn finished(&self) -> bool {
        self.view().is_over()
    }

    #[getter]
    fn num_players(&self) -> usize {
        self.view().num_players()
    }

    #[getter]
    fn players(&self) -> Vec<String> {
        self.names.clone()
    }

    #[getter]
    fn rules(&self) -> String {
        self.view().rules().to_string()
    }

    #[getter]
    fn moves_played(&self) -> u16 {
        self.view().moves_played()
    }

    #[getter]
    fn events<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        events_list(py, &self.game)
    }

    #[getter]
    fn board<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        board_list(py, &self.game)
    }

    #[getter]
    fn followers<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        followers_list(py, &self.game)
    }

    /// The legal moves of the player to move.
    fn legal_moves(&self) -> Vec<PyMove> {
        moves_list(self.view().legal_moves())
    }

    /// A full game consistent with this view, what it cannot see drawn from
    /// `rng` (an int seed or a random generator): for determinized search.
    fn sample(&self, rng: &Bound<'_, PyAny>) -> PyResult<PyGame> {
        let game = self.view().sample(&mut seeded_rng(seed_of(rng)?));
        Ok(PyGame { game, names: self.names.clone() })
    }

    /// Pickling: the game behind the view (as `Game` pickles) and the
    /// seat, so the copy answers every call as the original, `sample` too.
    /// The pickle holds the whole game, what the seat cannot see included:
    /// it is for moving views between processes, not for showing a player.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> Reduce<'py, (String, Option<LiveState>, usize)> {
        let this = slf.get();
        let record = Record::from_game(&this.game, &this.names).to_json();
        Ok((slf.get_type().getattr("_restore")?, (record, live_state(&this.game), this.player.index())))
    }

    /// The inverse of `__reduce__` (not for use otherwise).
    #[staticmethod]
    fn _restore(py: Python<'_>, record: &str, live: Option<LiveState>, seat: usize) -> PyResult<PyView> {
        let PyGame { game, names } = restore_game(py, record, live)?;
        let player = seat_arg(game.num_players(), seat)?;
        Ok(PyView { game: Arc::new(game), player, names })
    }

    fn __repr__(&self) -> String {
        format!("<carcassonne.View of seat {} after {} moves>", self.player.index(), self.game.moves_played())
    }
}

/// A tile kind: its letter id, course name, edges and how many the
/// standard box holds.
#[pyclass(name = "Tile", module = "carcassonne", frozen, eq, hash)]
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct PyTile {
    id: TileId,
}

#[pymethods]
impl PyTile {
    /// Pickling, by the letter id.
    fn __reduce__<'py>(&self, py: Python<'py>) -> Reduce<'py, (&'static str,)> {
        Ok((py.import("carcassonne._carcassonne")?.getattr("tile")?, (self.id.name(),)))
    }

    /// The letter id (`D`, `Eg`, `RV01`).
    #[getter]
    fn id(&self) -> &'static str {
        self.id.name()
    }

    /// The CMSC 22001 course name (`CRFR50`; `CFFF50g` for the garden copy `Eg`), None for river tiles.
    #[getter]
    fn course(&self) -> Option<String> {
        crate::course_name(self.id)
    }

    /// Edge kinds N, E, S, W in the canonical orientation: `city`, `road`, `field`, `river`.
    #[getter]
    fn edges(&self) -> [&'static str; 4] {
        self.id.def().edges.map(|e| e.word())
    }

    #[getter]
    fn shield(&self) -> bool {
        self.id.def().shield
    }

    #[getter]
    fn cloister(&self) -> bool {
        self.id.def().has_cloister()
    }

    #[getter]
    fn garden(&self) -> bool {
        self.id.def().has_garden()
    }

    #[getter]
    fn river(&self) -> bool {
        self.id.is_river()
    }

    /// Copies in the box: the 72 land tiles (start tile included) and the 12 river tiles.
    #[getter]
    fn count(&self) -> usize {
        let in_deck = |deck: Vec<TileId>| deck.iter().filter(|&&t| t == self.id).count();
        in_deck(carcassonne::standard_deck())
            + in_deck(carcassonne::river_tiles())
            + (self.id == TileId::START) as usize
    }

    /// Index in observation arrays (0 … number of kinds − 1).
    #[getter]
    fn index(&self) -> usize {
        self.id.index()
    }

    fn __repr__(&self) -> String {
        let course = crate::course_name(self.id).map(|c| format!(", course='{c}'")).unwrap_or_default();
        format!("Tile('{}'{course})", self.id.name())
    }

    fn __str__(&self) -> String {
        tile_label(self.id)
    }
}

/// Every tile kind, in the engine's order (the order of observation arrays).
#[pyfunction]
fn tiles() -> Vec<PyTile> {
    TileId::all().map(|id| PyTile { id }).collect()
}

/// A tile kind by letter id (`D`) or course name (`CRFR50`).
#[pyfunction]
fn tile(py: Python<'_>, name: &str) -> PyResult<PyTile> {
    Ok(PyTile { id: tile_arg(py, name)? })
}

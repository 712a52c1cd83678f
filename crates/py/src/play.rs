//! The built-in bots and the arena.

use std::sync::Mutex;

use carcassonne_ai::arena::{run, ArenaOptions};
use carcassonne_ai::{Bot, BotSpec};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::game::{PyMove, PyView};
use crate::{natural, to_py};

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyBot>()?;
    m.add_function(wrap_pyfunction!(arena, m)?)?;
    Ok(())
}

pub(crate) fn parse_spec(spec: &str) -> PyResult<BotSpec> {
    spec.parse::<BotSpec>().map_err(|e| PyValueError::new_err(e.to_string()))
}

/// A built-in bot, from a spec as the `arena` command takes it: `random`,
/// `greedy`, `mcts:1s`, `mcts:250ms`, `mcts:5000it`, `mcts:2000it:2t`, or a
/// level (`easy`, `normal`, `hard`). `seed` fixes every random choice it
/// makes. Call it on a view to get its move: `Bot("greedy")(game.view(0))`.
/// The search runs without the GIL.
#[pyclass(name = "Bot", module = "carcassonne", frozen)]
pub struct PyBot {
    pub(crate) bot: Mutex<Box<dyn Bot>>,
    spec: String,
}

impl PyBot {
    pub(crate) fn build(spec: &str, seed: u64) -> PyResult<PyBot> {
        let parsed = parse_spec(spec)?;
        Ok(PyBot { bot: Mutex::new(parsed.build(seed)), spec: parsed.to_string() })
    }
}

#[pymethods]
impl PyBot {
    #[new]
    #[pyo3(signature = (spec = "greedy", seed = 0))]
    fn new(spec: &str, #[pyo3(from_py_with = natural)] seed: u64) -> PyResult<PyBot> {
        PyBot::build(spec, seed)
    }

    /// The bot's move for the player to move in `view` (the view should be
    /// that player's), or None once the game is over.
    fn __call__(&self, py: Python<'_>, view: &PyView) -> Option<PyMove> {
        let bot = &self.bot;
        py.detach(|| bot.lock().unwrap_or_else(|e| e.into_inner()).choose(&view.view())).map(|mv| PyMove { mv })
    }

    /// Same as calling the bot.
    fn choose(&self, py: Python<'_>, view: &PyView) -> Option<PyMove> {
        self.__call__(py, view)
    }

    #[getter]
    fn name(&self) -> String {
        self.spec.clone()
    }

    fn __repr__(&self) -> String {
        format!("Bot('{}')", self.spec)
    }
}

/// Paired games between built-in bots, as `carcassonne arena --json`
/// prints them: the report's dict (win shares and margins with 95 %
/// intervals, per bot and per seat). `bots` is a list of specs or one
/// comma-separated string. The games run without the GIL, `threads` at once.
#[pyfunction]
#[pyo3(signature = (bots, games = 100, rules = "standard", seed = 1, threads = 1))]
fn arena<'py>(
    py: Python<'py>,
    bots: &Bound<'py, PyAny>,
    #[pyo3(from_py_with = natural)] games: usize,
    rules: &str,
    #[pyo3(from_py_with = natural)] seed: u64,
    #[pyo3(from_py_with = natural)] threads: usize,
) -> PyResult<Bound<'py, PyAny>> {
    let specs: String = match bots.extract::<String>() {
        Ok(s) => s,
        Err(_) => bots.extract::<Vec<String>>()?.join(","),
    };
    let rules = crate::parse_rules(py, rules)?.to_string();
    let options =
        ArenaOptions::parse(&specs, games, &rules, seed, threads).map_err(|e| PyValueError::new_err(e.to_string()))?;
    let report = py.detach(|| run(&options, |_| {})).map_err(|e| PyValueError::new_err(e.to_string()))?;
    to_py(py, &report.to_json())
}

//! The `carcassonne` Python package's native module (`carcassonne._carcassonne`):
//! the engine's games, moves and views, the built-in bots and the arena,
//! record scoring, and the core of the PettingZoo environment (action
//! encoding, masks and observations), all in Rust. The Python side
//! (`python/carcassonne`) re-exports these and adds the environment classes.
//!
//! Every call that runs the engine or a search for long (playouts, bots,
//! the arena, replays) releases the GIL.

use pyo3::exceptions::{PyOverflowError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

mod env;
mod game;
mod play;
mod render;
mod vector;

/// The engine's allocations in the module (the bots' move lists, games
/// growing, the threads of `carcassonne.vector`) go to mimalloc, as in the
/// `carcassonne` binary: glibc's allocator made the vector environment's
/// threads wait on each other's arena locks.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use carcassonne::record::RecordError as RecordProblem;
use carcassonne::{IllegalMove, Rules, RulesError as RulesProblem, SetupError, TileId};

pyo3::create_exception!(
    carcassonne,
    CarcassonneError,
    PyValueError,
    "Base of the engine's errors; `code` is a stable word naming what is wrong."
);
pyo3::create_exception!(
    carcassonne,
    IllegalMoveError,
    CarcassonneError,
    "A move the rules do not allow; `code` names the rule (e.g. `edge_mismatch`). The game is unchanged."
);
pyo3::create_exception!(
    carcassonne,
    RecordError,
    CarcassonneError,
    "A game record that cannot be read or replayed; `code` names the problem, `move_no` the 1-based move (or None)."
);
pyo3::create_exception!(
    carcassonne,
    RulesError,
    CarcassonneError,
    "A rule set (preset and options, or a code) that cannot be read; `code` is `bad_rules`."
);

/// An exception of class `E` with `message`, its `code` attribute set.
fn error<E: pyo3::PyTypeInfo>(py: Python<'_>, message: String, code: &str) -> PyErr {
    let err = PyErr::new::<E, _>(message);
    let _ = err.value(py).setattr("code", code);
    err
}

pub(crate) fn illegal(py: Python<'_>, e: IllegalMove) -> PyErr {
    error::<IllegalMoveError>(py, e.to_string(), e.code())
}

pub(crate) fn rules_error(py: Python<'_>, e: RulesProblem) -> PyErr {
    error::<RulesError>(py, e.to_string(), "bad_rules")
}

pub(crate) fn setup_error(py: Python<'_>, e: SetupError) -> PyErr {
    error::<CarcassonneError>(py, e.to_string(), e.code())
}

pub(crate) fn bad_move(py: Python<'_>, e: RecordProblem) -> PyErr {
    error::<CarcassonneError>(py, e.to_string(), e.code())
}

pub(crate) fn replay_error(py: Python<'_>, e: carcassonne::record::ReplayError) -> PyErr {
    let err = error::<RecordError>(py, e.to_string(), e.error.code());
    let _ = err.value(py).setattr("move_no", e.move_no);
    err
}

/// A rule set from its text (`first-edition,river=true`) or its code.
pub(crate) fn parse_rules(py: Python<'_>, text: &str) -> PyResult<Rules> {
    Rules::parse(text).or_else(|e| Rules::from_code(text).map_err(|_| rules_error(py, e)))
}

/// A 64-bit seed from an int or from a random generator with `getrandbits`
/// (`random.Random`, `numpy.random.Generator` through `integers`).
pub(crate) fn seed_of(rng: &Bound<'_, PyAny>) -> PyResult<u64> {
    if let Ok(n) = rng.extract::<u64>() {
        return Ok(n);
    }
    if let Ok(n) = rng.extract::<i64>() {
        return Ok(n as u64);
    }
    if rng.hasattr("getrandbits")? {
        return rng.call_method1("getrandbits", (64,))?.extract();
    }
    if rng.hasattr("integers")? {
        let n: i64 = rng.call_method1("integers", (i64::MIN, i64::MAX))?.extract()?;
        return Ok(n as u64);
    }
    Err(PyValueError::new_err("rng must be an int seed or a random generator (random.Random, numpy Generator)"))
}

/// A whole number argument (a seed, a seat, a count, an action): any
/// Python integer (numpy's too), never a float (`TypeError`); a negative or
/// too large one is a `ValueError` naming the value, not an `OverflowError`.
/// Used as `#[pyo3(from_py_with = natural)]`.
pub(crate) fn natural<T: TryFrom<i128>>(obj: &Bound<'_, PyAny>) -> PyResult<T> {
    let n = integer(obj)?;
    if n < 0 {
        return Err(PyValueError::new_err(format!("{n} is negative: a whole number is needed")));
    }
    T::try_from(n).map_err(|_| PyValueError::new_err(format!("{n} is out of range")))
}

/// A board coordinate pair `(x, y)` (negative allowed): out of range is a
/// `ValueError`, as for `natural`.
pub(crate) fn coords(obj: &Bound<'_, PyAny>) -> PyResult<(i32, i32)> {
    let items: Vec<Bound<'_, PyAny>> = obj.extract()?;
    let [x, y] = &items[..] else {
        return Err(PyValueError::new_err("a position is two numbers, (x, y)"));
    };
    let one = |v: &Bound<'_, PyAny>| {
        let n = integer(v)?;
        i32::try_from(n).map_err(|_| PyValueError::new_err(format!("{n} is out of range for a position")))
    };
    Ok((one(x)?, one(y)?))
}

/// Any Python integer, as wide as Python allows up to 128 bits.
fn integer(obj: &Bound<'_, PyAny>) -> PyResult<i128> {
    let py = obj.py();
    match obj.extract::<i128>() {
        Ok(n) => Ok(n),
        Err(e) if e.is_instance_of::<PyOverflowError>(py) => {
            Err(PyValueError::new_err(format!("{obj} is out of range")))
        }
        Err(_) => {
            let kind = obj.get_type().name()?;
            Err(PyTypeError::new_err(format!("an integer is needed, not {kind} ({obj})")))
        }
    }
}

/// A JSON value as Python data (dicts keep their order).
pub(crate) fn to_py<'py>(py: Python<'py>, v: &serde_json::Value) -> PyResult<Bound<'py, PyAny>> {
    use serde_json::Value;
    Ok(match v {
        Value::Null => py.None().into_bound(py),
        Value::Bool(b) => b.into_pyobject(py)?.to_owned().into_any(),
        Value::Number(n) => match (n.as_i64(), n.as_u64()) {
            (Some(i), _) => i.into_pyobject(py)?.into_any(),
            (None, Some(u)) => u.into_pyobject(py)?.into_any(),
            _ => n.as_f64().unwrap_or(f64::NAN).into_pyobject(py)?.into_any(),
        },
        Value::String(s) => s.into_pyobject(py)?.into_any(),
        Value::Array(a) => {
            let list = PyList::empty(py);
            for x in a {
                list.append(to_py(py, x)?)?;
            }
            list.into_any()
        }
        Value::Object(m) => {
            let dict = PyDict::new(py);
            for (k, x) in m {
                dict.set_item(k, to_py(py, x)?)?;
            }
            dict.into_any()
        }
    })
}

/// Text of a record given as JSON text, a dict, or a path (`pathlib.Path`).
pub(crate) fn record_text(obj: &Bound<'_, PyAny>) -> PyResult<String> {
    let py = obj.py();
    if let Ok(s) = obj.extract::<String>() {
        if !s.trim_start().starts_with('{') {
            // Not JSON text: most likely a file name. A str is always the
            // record's text, never a path, so that no string is read both ways.
            let shown: String = s.chars().take(60).collect();
            let error = RecordProblem::Syntax(format!(
                "a str is a record's JSON text, and {shown:?} is not JSON: for a file, pass pathlib.Path({shown:?})"
            ));
            return Err(replay_error(py, carcassonne::record::ReplayError { move_no: None, error }));
        }
        return Ok(s);
    }
    if obj.is_instance_of::<PyDict>() {
        return py.import("json")?.call_method1("dumps", (obj,))?.extract();
    }
    let os = py.import("os")?;
    if obj.is_instance(&os.getattr("PathLike")?)? {
        let path: std::path::PathBuf = obj.extract()?;
        return std::fs::read_to_string(&path).map_err(|e| {
            let error = RecordProblem::Syntax(format!("cannot read {}: {e}", path.display()));
            replay_error(py, carcassonne::record::ReplayError { move_no: None, error })
        });
    }
    Err(PyValueError::new_err("a record is JSON text, a dict or a path"))
}

/// A tile id by letter (`D`, `Vg`) or course name (`CRFR50`, `FFRR50g`
/// for the garden copy of `V`), in any case.
pub(crate) fn tile_arg(py: Python<'_>, name: &str) -> PyResult<TileId> {
    let by_any_case = || {
        TileId::all().find(|&t| {
            t.name().eq_ignore_ascii_case(name) || course_name(t).is_some_and(|c| c.eq_ignore_ascii_case(name))
        })
    };
    TileId::from_name(name)
        .or_else(by_any_case)
        .ok_or_else(|| bad_move(py, RecordProblem::UnknownTile(name.to_string())))
}

/// A tile's CMSC 22001 course name: the course's own for the 24 base
/// tiles (`FFRR50` for `V`), that name and `g` for a garden copy
/// (`FFRR50g` for `Vg`, as its letter id adds `g`); None for river tiles.
pub(crate) fn course_name(t: TileId) -> Option<String> {
    if let Some(c) = t.course_name() {
        return Some(c.to_string());
    }
    let base = t.name().strip_suffix('g').and_then(TileId::from_name)?;
    base.course_name().map(|c| format!("{c}g"))
}

/// `carcassonne score`'s output for a record: pretty JSON, byte for byte
/// what the command prints (record.md).
///
/// Raises `RecordError` (with `code` and `move_no`) for a record that does
/// not replay.
#[pyfunction]
fn score_record(py: Python<'_>, record: &Bound<'_, PyAny>) -> PyResult<String> {
    let text = record_text(record)?;
    let result = py.detach(|| {
        carcassonne::record::Record::from_json(&text)
            .and_then(|r| r.replay())
            .map(|g| carcassonne::record::score_json(&g))
    });
    result.map_err(|e| replay_error(py, e))
}

/// The rule set's canonical text and its shareable code:
/// `rules("first-edition,river=true")` → `("first-edition,river=true", "AQ…")`.
#[pyfunction]
fn rules(py: Python<'_>, rules: &str) -> PyResult<(String, String)> {
    let r = parse_rules(py, rules)?;
    Ok((r.to_string(), r.to_code()))
}

/// The rule set in plain words, one line per rule that is in force.
#[pyfunction]
fn explain_rules(py: Python<'_>, rules: &str) -> PyResult<Vec<String>> {
    Ok(parse_rules(py, rules)?.explain())
}

#[pymodule]
fn _carcassonne(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("CarcassonneError", py.get_type::<CarcassonneError>())?;
    m.add("IllegalMoveError", py.get_type::<IllegalMoveError>())?;
    m.add("RecordError", py.get_type::<RecordError>())?;
    m.add("RulesError", py.get_type::<RulesError>())?;
    m.add_function(wrap_pyfunction!(score_record, m)?)?;
    m.add_function(wrap_pyfunction!(rules, m)?)?;
    m.add_function(wrap_pyfunction!(explain_rules, m)?)?;
    game::register(m)?;
    play::register(m)?;
    env::register(m)?;
    vector::register(m)?;
    Ok(())
}

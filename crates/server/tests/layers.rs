//! The server's parts and their arrows (docs/architecture.md, "The
//! server's parts"): read from the sources, so that a cycle or an arrow the
//! wrong way fails here rather than creeping back.
//!
//! A module is a file of `src/` or a folder (`routes/`, `services/`); it
//! depends on another when its code (comments and unit tests aside) names
//! `crate::other`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The layers, top first: a module may depend only on modules of its own
/// layer or the layers below. `lib.rs` (which puts them together) is left out.
const LAYERS: &[(&str, &[&str])] = &[
    ("handlers", &["routes", "assets", "qr"]),
    ("connections", &["listen"]),
    ("views", &["wire", "view", "state"]),
    ("services", &["services"]),
    ("errors", &["error"]),
    ("store", &["store"]),
    ("leaves", &["bots", "config", "names", "i18n", "rating", "limits"]),
];

/// What the connection layer may know: settings, never games.
const CONNECTIONS_MAY_USE: &[&str] = &["config"];

/// Each module and the modules it names.
fn graph() -> BTreeMap<String, BTreeSet<String>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut files = vec![src.clone()];
    while let Some(path) = files.pop() {
        if path.is_dir() {
            files.extend(std::fs::read_dir(&path).unwrap().map(|e| e.unwrap().path()));
            continue;
        }
        if path.extension().is_none_or(|e| e != "rs") {
            continue;
        }
        let rel = path.strip_prefix(&src).unwrap();
        let first = rel.components().next().unwrap().as_os_str().to_string_lossy().into_owned();
        let module = first.trim_end_matches(".rs").to_string();
        if module == "lib" {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let uses = graph.entry(module.clone()).or_default();
        // (A module's unit tests may use anything.)
        let code = text.split("#[cfg(test)]").next().unwrap_or_default();
        for line in code.lines().filter(|l| !l.trim_start().starts_with("//")) {
            for (i, _) in line.match_indices("crate::") {
                let name: String =
                    line[i + 7..].chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
                if name != module && !name.is_empty() {
                    uses.insert(name);
                }
            }
        }
    }
    graph
}

fn layer_of(module: &str) -> usize {
    LAYERS
        .iter()
        .position(|(_, ms)| ms.contains(&module))
        .unwrap_or_else(|| panic!("src/{module}: say which layer it is in (tests/layers.rs, docs/architecture.md)"))
}

#[test]
fn arrows_run_one_way() {
    let graph = graph();
    assert!(graph.contains_key("services") && graph.contains_key("routes"), "{graph:?}");
    for (module, uses) in &graph {
        for used in uses {
            if !graph.contains_key(used) {
                continue; // a macro or a name from lib.rs (`crate::BoxError`)
            }
            assert!(
                layer_of(used) >= layer_of(module),
                "src/{module} ({}) uses src/{used} ({}): arrows run from handlers to services to the store",
                LAYERS[layer_of(module)].0,
                LAYERS[layer_of(used)].0
            );
        }
    }
    // The connection layer knows nothing of games.
    let listen = &graph["listen"];
    for used in listen {
        assert!(
            !graph.contains_key(used) || CONNECTIONS_MAY_USE.contains(&used.as_str()),
            "src/listen.rs uses src/{used}: the connection layer serves a `Site`, it knows nothing of games"
        );
    }
}

#[test]
fn modules_form_no_cycle() {
    let graph = graph();
    // Depth-first: a module met again while it is on the path closes a cycle.
    fn visit<'a>(
        m: &'a str,
        graph: &'a BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<&'a str>,
        done: &mut BTreeSet<&'a str>,
    ) {
        if done.contains(m) {
            return;
        }
        if let Some(i) = path.iter().position(|p| *p == m) {
            panic!("a cycle: {} → {m}", path[i..].join(" → "));
        }
        path.push(m);
        for next in graph.get(m).into_iter().flatten() {
            if graph.contains_key(next) {
                visit(next, graph, path, done);
            }
        }
        path.pop();
        done.insert(m);
    }
    let mut done = BTreeSet::new();
    for m in graph.keys() {
        visit(m, &graph, &mut Vec::new(), &mut done);
    }
}

#[test]
fn the_check_sees_an_arrow_the_wrong_way() {
    // The parser finds what a service would name if it used a handler.
    let graph = graph();
    assert!(graph["routes"].contains("services"), "routes uses the services: {:?}", graph["routes"]);
    assert!(graph["services"].contains("store"), "{:?}", graph["services"]);
    assert!(!graph["services"].contains("routes"), "{:?}", graph["services"]);
}

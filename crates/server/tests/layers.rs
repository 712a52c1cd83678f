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

// ---------------------------------------------------------------- files

/// The most lines a file of the server may hold.
const MAX_LINES: usize = 1200;

/// The most public methods a type or a trait may have.
const MAX_METHODS: usize = 25;

/// Every `.rs` file under `src/` (but `lib.rs`, which puts the modules
/// together), by its module path (`services::games::live`), with its code
/// (unit tests and comment lines left out).
fn files() -> BTreeMap<String, (std::path::PathBuf, String)> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut out = BTreeMap::new();
    let mut todo = vec![src.clone()];
    while let Some(path) = todo.pop() {
        if path.is_dir() {
            todo.extend(std::fs::read_dir(&path).unwrap().map(|e| e.unwrap().path()));
            continue;
        }
        if path.extension().is_none_or(|e| e != "rs") {
            continue;
        }
        let rel = path.strip_prefix(&src).unwrap().with_extension("");
        let mut parts: Vec<String> = rel.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect();
        if parts.last().is_some_and(|p| p == "mod") {
            parts.pop();
        }
        if parts == ["lib"] {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let code: String = text
            .split("#[cfg(test)]")
            .next()
            .unwrap_or_default()
            .lines()
            .filter(|l| !l.trim_start().starts_with("//"))
            .collect::<Vec<_>>()
            .join("\n");
        out.insert(parts.join("::"), (path, code));
    }
    out
}

/// The paths a file's code names from `crate::`, `super::` or `self::`,
/// `use` groups (`super::{a, b::c}`) spread out.
fn named_paths(code: &str) -> Vec<(String, Vec<String>)> {
    fn word(s: &str) -> (&str, &str) {
        let end = s.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(s.len());
        s.split_at(end)
    }
    /// The paths of `rest` (what follows a `::`), each as its segments.
    fn spread(rest: &str, prefix: &[String], out: &mut Vec<Vec<String>>) {
        let rest = rest.trim_start();
        if let Some(group) = rest.strip_prefix('{') {
            // Items split at top-level commas, up to the matching brace.
            let (mut depth, mut start) = (0, 0);
            for (i, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => {
                        spread(&group[start..i], prefix, out);
                        return;
                    }
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        spread(&group[start..i], prefix, out);
                        start = i + 1;
                    }
                    _ => {}
                }
            }
            return;
        }
        let (w, after) = word(rest);
        if w.is_empty() {
            out.push(prefix.to_vec());
            return;
        }
        let mut path = prefix.to_vec();
        path.push(w.to_string());
        match after.strip_prefix("::") {
            Some(more) => spread(more, &path, out),
            None => out.push(path),
        }
    }
    let mut found = Vec::new();
    for root in ["crate::", "super::", "self::"] {
        for (i, _) in code.match_indices(root) {
            let before = code[..i].chars().last();
            if before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == ':') {
                continue; // `super::super::x` is read from its first `super`
            }
            let mut head = vec![root.trim_end_matches(':').to_string()];
            let mut rest = &code[i + root.len()..];
            while let Some(more) = rest.strip_prefix("super::") {
                head.push("super".into());
                rest = more;
            }
            let mut paths = Vec::new();
            spread(rest, &[], &mut paths);
            found.extend(paths.into_iter().map(|p| (head.join("::"), p)));
        }
    }
    found
}

/// Each file and the files it names.
fn file_graph() -> BTreeMap<String, BTreeSet<String>> {
    let files = files();
    let mut graph = BTreeMap::new();
    for (module, (_, code)) in &files {
        let here: Vec<&str> = if module.is_empty() { vec![] } else { module.split("::").collect() };
        let uses = graph.entry(module.clone()).or_insert_with(BTreeSet::new);
        for (head, segments) in named_paths(code) {
            let mut at: Vec<&str> = match head.split("::").next() {
                Some("crate") => vec![],
                _ => here.clone(),
            };
            for h in head.split("::") {
                if h == "super" {
                    at.pop();
                }
            }
            // The deepest file the path reaches.
            let mut target: Option<String> = None;
            let mut cur: Vec<String> = at.iter().map(|s| s.to_string()).collect();
            if !cur.is_empty() {
                target = Some(cur.join("::"));
            }
            for s in &segments {
                cur.push(s.clone());
                if files.contains_key(&cur.join("::")) {
                    target = Some(cur.join("::"));
                } else {
                    break;
                }
            }
            if let Some(t) = target.filter(|t| t != module && files.contains_key(t)) {
                uses.insert(t);
            }
        }
        // A module declared here (`mod x;`) and named without a prefix (`x::f`).
        for line in code.lines() {
            let line = line.trim_start().trim_start_matches("pub ").trim_start_matches("pub(crate) ");
            let Some(child) = line.strip_prefix("mod ").and_then(|l| l.strip_suffix(';')) else { continue };
            let child_path = if module.is_empty() { child.to_string() } else { format!("{module}::{child}") };
            let named = code.match_indices(&format!("{child}::")).any(|(i, _)| {
                let before = code[..i].chars().last();
                !before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == ':')
            });
            if named && files.contains_key(&child_path) {
                uses.insert(child_path);
            }
        }
    }
    graph
}

#[test]
fn files_form_no_cycle() {
    let graph = file_graph();
    fn visit<'a>(
        m: &'a str,
        graph: &'a BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<&'a str>,
        done: &mut BTreeSet<&'a str>,
        cycles: &mut Vec<String>,
    ) {
        if done.contains(m) {
            return;
        }
        if let Some(i) = path.iter().position(|p| *p == m) {
            cycles.push(format!("{} → {m}", path[i..].join(" → ")));
            return;
        }
        path.push(m);
        for next in graph.get(m).into_iter().flatten() {
            visit(next, graph, path, done, cycles);
        }
        path.pop();
        done.insert(m);
    }
    let (mut done, mut cycles) = (BTreeSet::new(), Vec::new());
    for m in graph.keys() {
        visit(m, &graph, &mut Vec::new(), &mut done, &mut cycles);
    }
    assert!(cycles.is_empty(), "files in a circle (src/, as module paths):\n{}", cycles.join("\n"));
}

#[test]
fn files_are_short() {
    let long: Vec<String> = files()
        .values()
        .filter_map(|(path, _)| {
            let lines = std::fs::read_to_string(path).unwrap().lines().count();
            (lines > MAX_LINES).then(|| format!("{} ({lines} lines)", path.display()))
        })
        .collect();
    assert!(long.is_empty(), "files over {MAX_LINES} lines: split them by what they do\n{}", long.join("\n"));
}

/// The public methods of each type (its own `impl` blocks, wherever they
/// are) and of each trait: `pub fn` and `pub(crate) fn` of an inherent
/// impl, every `fn` of a trait.
fn public_methods() -> BTreeMap<String, usize> {
    let mut count: BTreeMap<String, usize> = BTreeMap::new();
    for (_, code) in files().values() {
        let mut owner: Option<(String, bool)> = None; // (name, is a trait)
        for line in code.lines() {
            if !line.starts_with(' ') && !line.is_empty() {
                owner = None;
                let head = line.trim_start_matches("pub ").trim_start_matches("pub(crate) ");
                if let Some(rest) = head.strip_prefix("impl") {
                    // `impl<T> Name<T> {` (not `impl Trait for Name`).
                    let rest = if rest.starts_with('<') { rest.split_once("> ").map_or("", |r| r.1) } else { rest };
                    let rest = rest.trim_start();
                    if !rest.contains(" for ") && line.trim_end().ends_with('{') {
                        let name: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
                        owner = Some((name, false));
                    }
                } else if let Some(rest) = head.strip_prefix("trait ") {
                    let name: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
                    owner = Some((name, true));
                }
                continue;
            }
            let Some((name, is_trait)) = &owner else { continue };
            let Some(item) = line.strip_prefix("    ") else { continue };
            let item = item.trim_start_matches("async ");
            let public = if *is_trait {
                item.starts_with("fn ") || item.starts_with("async fn ")
            } else {
                ["pub fn ", "pub async fn ", "pub(crate) fn ", "pub(crate) async fn "]
                    .iter()
                    .any(|p| item.starts_with(p))
            };
            if public {
                *count.entry(name.clone()).or_default() += 1;
            }
        }
    }
    count
}

#[test]
fn no_type_or_trait_has_too_many_public_methods() {
    let methods = public_methods();
    assert!(methods.get("Games").is_some_and(|n| *n > 5), "the count sees the games' methods: {methods:?}");
    let big: Vec<String> =
        methods.iter().filter(|(_, n)| **n > MAX_METHODS).map(|(t, n)| format!("{t}: {n}")).collect();
    assert!(big.is_empty(), "more than {MAX_METHODS} public methods: split the part\n{}", big.join("\n"));
}

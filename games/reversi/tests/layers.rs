//! The workspace's layers point one way: no source file depends on another
//! that depends back on it, directly or through others; and in the core and
//! the game crates, no lower layer names a higher one (the rules know no evaluation or search,
//! the evaluation no search, the search no game).
//!
//! A file depends on another when it imports from it (`use crate::..`,
//! `use super::..`, `use child::..`) or names a `crate::` path in its code,
//! anywhere in the file; an import through a re-export (`pub use`) depends
//! on the module that defines the item. Re-exports themselves and the
//! files' test modules are not dependencies. The binaries in `src/bin` are
//! crates of their own and not checked. Between crates, Cargo keeps the
//! arrows one way; `the_generic_crates_depend_on_no_game` checks that the
//! core and the match runner list no game.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A module's path inside its crate (`["search", "tt"]`; the crate root is
/// empty).
type Module = Vec<String>;

/// Every module file of the crate whose sources are in `src`.
fn module_files(src: &Path) -> BTreeMap<Module, PathBuf> {
    fn walk(dir: &Path, src: &Path, out: &mut BTreeMap<Module, PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                if path != src.join("bin") {
                    walk(&path, src, out);
                }
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let relative = path.strip_prefix(src).unwrap().with_extension("");
            let mut module: Module = relative.iter().map(|s| s.to_string_lossy().into_owned()).collect();
            if matches!(module.last().map(String::as_str), Some("mod" | "lib" | "main")) {
                module.pop();
            }
            out.insert(module, path);
        }
    }
    let mut out = BTreeMap::new();
    walk(src, src, &mut out);
    out
}

/// The code of a file without comments and without its `#[cfg(test)]`
/// modules (an inline module's whole block, wherever it stands in the
/// file; a `mod tests;` line), read to the end of the file.
fn code(text: &str) -> String {
    let mut out = String::new();
    let mut lines = text.lines().peekable();
    while let Some(line) = lines.next() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("#[cfg(test)]")
            && lines.peek().is_some_and(|next| {
                let next = next.trim_start();
                next.starts_with("mod ") || next.starts_with("pub mod ") || next.starts_with("pub(crate) mod ")
            })
        {
            let header = lines.next().unwrap_or_default();
            if header.trim_end().ends_with(';') {
                continue;
            }
            // Skip the block: braces counted outside comments.
            let count = |l: &str| {
                let l = l.find("//").map_or(l, |i| &l[..i]);
                l.matches('{').count() as i64 - l.matches('}').count() as i64
            };
            let mut depth = count(header);
            while depth > 0 {
                let Some(inner) = lines.next() else { break };
                depth += count(inner);
            }
            continue;
        }
        let line = line.find("//").map_or(line, |i| &line[..i]);
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// The paths a use tree names: `a::{b, c::{d, e as f}}` gives `a::b`,
/// `a::c::d`, `a::c::e`.
fn expand(tree: &str) -> Vec<String> {
    let renamed = tree.split_whitespace().collect::<Vec<_>>().join(" ").replace(" as ", "@");
    expand_keeping_renames(&renamed).into_iter().map(|p| p.split('@').next().unwrap_or_default().to_string()).collect()
}

/// The paths a file's code names: those of its private `use` statements and
/// every `crate::` path elsewhere.
fn named_paths(code: &str) -> Vec<String> {
    let mut paths = Vec::new();
    let mut rest = String::new();
    let mut lines = code.lines();
    while let Some(line) = lines.next() {
        let trimmed = line.trim_start();
        let public = trimmed.starts_with("pub ") || trimmed.starts_with("pub(");
        let unqualified = if public { trimmed.split_once(' ').map_or("", |(_, r)| r.trim_start()) } else { trimmed };
        let Some(tree) = unqualified.strip_prefix("use ") else {
            rest.push_str(line);
            rest.push('\n');
            continue;
        };
        let mut statement = tree.to_string();
        while !statement.contains(';') {
            let Some(next) = lines.next() else { break };
            statement.push_str(next);
        }
        if !public {
            paths.extend(expand(statement.split(';').next().unwrap_or_default()));
        }
    }
    let mut at = 0;
    while let Some(i) = rest[at..].find("crate::") {
        let start = at + i;
        let before = rest[..start].chars().next_back();
        let end = rest[start..]
            .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
            .map_or(rest.len(), |n| start + n);
        if !before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$') {
            paths.push(rest[start..end].to_string());
        }
        at = end.max(start + 1);
    }
    paths
}

/// The module a path from `from` leads to: the longest prefix that is a
/// module file, and the segments after it; `None` for other crates.
fn resolve(path: &str, from: &Module, files: &BTreeMap<Module, PathBuf>) -> Option<(Module, Vec<String>)> {
    let segments: Vec<&str> = path.split("::").filter(|s| !s.is_empty()).collect();
    let (mut base, rest): (Module, &[&str]) = match segments.first()? {
        &"crate" => (Vec::new(), &segments[1..]),
        &"self" => (from.clone(), &segments[1..]),
        &"super" => {
            let mut base = from.clone();
            let ups = segments.iter().take_while(|s| **s == "super").count();
            base.truncate(base.len().saturating_sub(ups));
            (base, &segments[ups..])
        }
        first => {
            let mut child = from.clone();
            child.push(first.to_string());
            if !files.contains_key(&child) {
                return None;
            }
            (from.clone(), &segments[..])
        }
    };
    let mut found = files.contains_key(&base).then(|| (base.clone(), 0));
    for (i, segment) in rest.iter().enumerate() {
        base.push(segment.to_string());
        if files.contains_key(&base) {
            found = Some((base.clone(), i + 1));
        }
    }
    found.map(|(module, used)| (module, rest[used..].iter().map(|s| s.to_string()).collect()))
}

/// The names each module re-exports (`pub use a::b::C;` gives `C` ->
/// `a::b::C`; `pub use a::b::C as D;` gives `D`; `pub use a::*;` gives `*`).
type Reexports = BTreeMap<Module, Vec<(String, String)>>;

/// The re-exports of a file's code.
fn reexports(code: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut lines = code.lines();
    while let Some(line) = lines.next() {
        let trimmed = line.trim_start();
        if !(trimmed.starts_with("pub ") || trimmed.starts_with("pub(")) {
            continue;
        }
        let Some(tree) = trimmed.split_once(' ').map_or("", |(_, r)| r.trim_start()).strip_prefix("use ") else {
            continue;
        };
        let mut statement = tree.to_string();
        while !statement.contains(';') {
            let Some(next) = lines.next() else { break };
            statement.push_str(next);
        }
        let tree = statement.split(';').next().unwrap_or_default();
        let renamed = tree.split_whitespace().collect::<Vec<_>>().join(" ").replace(" as ", "@");
        for path in expand_keeping_renames(&renamed) {
            let (path, name) = match path.split_once('@') {
                Some((path, alias)) => (path.to_string(), alias.to_string()),
                None => {
                    let name = path.rsplit("::").next().unwrap_or_default().to_string();
                    (path, name)
                }
            };
            out.push((name, path));
        }
    }
    out
}

/// [`expand`], keeping `x@y` renames on the leaves.
fn expand_keeping_renames(tree: &str) -> Vec<String> {
    let tree: String = tree.chars().filter(|c| !c.is_whitespace()).collect();
    let Some(open) = tree.find('{') else { return vec![tree] };
    let prefix = &tree[..open];
    let inner = &tree[open + 1..tree.rfind('}').unwrap_or(tree.len())];
    let (mut parts, mut depth, mut current) = (Vec::new(), 0, String::new());
    for c in inner.chars() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(std::mem::take(&mut current));
                continue;
            }
            _ => {}
        }
        current.push(c);
    }
    parts.push(current);
    parts
        .iter()
        .filter(|p| !p.is_empty())
        .flat_map(|p| expand_keeping_renames(p))
        .map(|p| format!("{prefix}{p}"))
        .collect()
}

/// The module that defines what `path`, named in `from`, leads to: like
/// [`resolve`], then through the re-exports (`pub use`) of the module it
/// reaches, so that an import through a parent's re-export depends on the
/// module that defines the item.
fn resolve_item(path: &str, from: &Module, files: &BTreeMap<Module, PathBuf>, re: &Reexports) -> Option<Module> {
    let (mut module, mut rest) = resolve(path, from, files)?;
    // Re-export chains are short; the bound stops a malformed circle.
    for _ in 0..8 {
        let Some(first) = rest.first() else { break };
        let Some((_, target)) = re.get(&module).and_then(|names| names.iter().find(|(name, _)| name == first)) else {
            break;
        };
        let mut target = target.clone();
        for segment in &rest[1..] {
            target.push_str("::");
            target.push_str(segment);
        }
        let Some((next, next_rest)) = resolve(&target, &module, files) else { break };
        if next == module && next_rest == rest {
            break;
        }
        (module, rest) = (next, next_rest);
    }
    Some(module)
}

/// Which modules each module of the crate in `src` depends on.
fn dependencies(src: &Path) -> BTreeMap<Module, BTreeSet<Module>> {
    let files = module_files(src);
    let codes: BTreeMap<Module, String> =
        files.iter().map(|(m, path)| (m.clone(), code(&std::fs::read_to_string(path).unwrap()))).collect();
    let re: Reexports = codes.iter().map(|(m, code)| (m.clone(), reexports(code))).collect();
    let mut edges: BTreeMap<Module, BTreeSet<Module>> = files.keys().map(|m| (m.clone(), BTreeSet::new())).collect();
    for (module, code) in &codes {
        for named in named_paths(code) {
            if let Some(target) = resolve_item(&named, module, &files, &re).filter(|t| t != module) {
                edges.entry(module.clone()).or_default().insert(target);
            }
        }
    }
    edges
}

/// The import circles among the modules of the crate in `src`, each as the
/// list of its modules.
fn circles(src: &Path) -> Vec<Vec<String>> {
    let edges = dependencies(src);
    strongly_connected(&edges.keys().cloned().collect::<Vec<_>>(), &edges)
        .into_iter()
        .filter(|component| component.len() > 1)
        .map(|component| component.iter().map(|m| format!("{}::{}", src.display(), m.join("::"))).collect())
        .collect()
}

/// Tarjan's strongly connected components of the graph.
fn strongly_connected(nodes: &[Module], edges: &BTreeMap<Module, BTreeSet<Module>>) -> Vec<Vec<Module>> {
    struct State<'a> {
        edges: &'a BTreeMap<Module, BTreeSet<Module>>,
        index: BTreeMap<Module, usize>,
        low: BTreeMap<Module, usize>,
        stack: Vec<Module>,
        on_stack: BTreeSet<Module>,
        components: Vec<Vec<Module>>,
    }
    fn visit(v: &Module, s: &mut State) {
        let n = s.index.len();
        s.index.insert(v.clone(), n);
        s.low.insert(v.clone(), n);
        s.stack.push(v.clone());
        s.on_stack.insert(v.clone());
        for w in s.edges.get(v).into_iter().flatten() {
            if !s.index.contains_key(w) {
                visit(w, s);
                let low = s.low[v].min(s.low[w]);
                s.low.insert(v.clone(), low);
            } else if s.on_stack.contains(w) {
                let low = s.low[v].min(s.index[w]);
                s.low.insert(v.clone(), low);
            }
        }
        if s.low[v] == s.index[v] {
            let mut component = Vec::new();
            while let Some(w) = s.stack.pop() {
                s.on_stack.remove(&w);
                let done = &w == v;
                component.push(w);
                if done {
                    break;
                }
            }
            s.components.push(component);
        }
    }
    let mut state = State {
        edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        components: Vec::new(),
    };
    for v in nodes {
        if !state.index.contains_key(v) {
            visit(v, &mut state);
        }
    }
    state.components
}

/// The `src` folders of the workspace's library crates.
fn crate_sources() -> Vec<PathBuf> {
    let root = workspace_root();
    ["core", "selfplay", "tuner", "benches", "workbench", "games/connect4", "games/pente", "games/reversi"]
        .iter()
        .map(|c| root.join(c).join("src"))
        .collect()
}

/// Layers of a crate, lowest first: modules whose path starts with one of
/// a layer's prefixes (`eval::pattern`, or `eval` for all of it) must
/// not depend on a module of a higher layer; modules not listed are not
/// checked.
type Layers = &'static [&'static [&'static str]];

/// The core's layers.
const CORE_LAYERS: Layers = &[
    &["bitboard", "cpu", "cputime", "memory", "mix"],
    &["game", "playout", "eval", "weights"],
    &["agent", "textbook"],
    &["search"],
];

/// Reversi's layers: rules, evaluation, search glue (the search hooks, the
/// endgame solver and its parameters, FFO), players, then the protocols,
/// the analysis and the match and tuner glue.
const REVERSI_LAYERS: Layers = &[
    &["geometry", "last_flip", "position", "perft", "stability", "text", "variant", "key", "ggf"],
    &["eval", "textbook", "reference"],
    &["params", "search", "endgame", "endgame_fit", "ffo"],
    &["agents"],
    &["protocol", "analysis", "matches", "tuning"],
];

/// Pente's layers: rules, evaluation, search glue, players, then the
/// protocol and the match and tuner glue.
const PENTE_LAYERS: Layers = &[
    &["pattern", "board"],
    &["weights", "eval"],
    &["search", "threats", "length"],
    &["agents"],
    &["protocol", "matches", "tuning"],
];

/// The layer of `module` in `layers`, if it is listed.
fn layer_of(layers: Layers, module: &Module) -> Option<usize> {
    let name = module.join("::");
    layers
        .iter()
        .position(|layer| layer.iter().any(|prefix| name == *prefix || name.starts_with(&format!("{prefix}::"))))
}

/// The arrows pointing up `layers` among the modules of the crate in `src`.
fn upward_arrows(src: &Path, layers: Layers) -> Vec<String> {
    let mut wrong = Vec::new();
    for (module, targets) in dependencies(src) {
        if module.last().is_some_and(|m| m == "tests") {
            continue;
        }
        for target in targets {
            if let (Some(from), Some(to)) = (layer_of(layers, &module), layer_of(layers, &target))
                && to > from
            {
                wrong.push(format!("{} -> {}", module.join("::"), target.join("::")));
            }
        }
    }
    wrong
}

/// The workspace's root folder.
fn workspace_root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR")).ancestors().nth(2).expect("the crate is two folders below the workspace")
}

#[test]
fn no_layer_names_a_higher_one() {
    for (krate, layers) in [("core", CORE_LAYERS), ("games/reversi", REVERSI_LAYERS), ("games/pente", PENTE_LAYERS)] {
        let wrong = upward_arrows(&workspace_root().join(krate).join("src"), layers);
        assert!(wrong.is_empty(), "{krate}: arrows pointing up the layers: {wrong:?}");
    }
}

/// The workspace's game crates (by folder): each implements games on the
/// core.
const GAME_CRATES: &[&str] = &["games/reversi", "games/pente", "games/connect4"];
/// The crates that must name no game: the core, and the match runner and
/// the tuner that every game's crate builds on.
const GENERIC_CRATES: &[&str] = &["core", "selfplay", "tuner"];

#[test]
fn the_generic_crates_depend_on_no_game() {
    // The package names of the game crates, and each generic crate's
    // dependencies of every kind.
    let root = workspace_root();
    let manifest = |dir: &str| std::fs::read_to_string(root.join(dir).join("Cargo.toml")).unwrap();
    let package_name = |dir: &str| {
        manifest(dir).lines().find_map(|l| l.strip_prefix("name = ")).map(|n| n.trim_matches('"').to_string()).unwrap()
    };
    let games: Vec<String> = GAME_CRATES.iter().map(|d| package_name(d)).collect();
    assert_eq!(games, ["reversi", "pente", "connect4"]);
    let mut wrong = Vec::new();
    for krate in GENERIC_CRATES {
        let mut section = String::new();
        for line in manifest(krate).lines().map(str::trim) {
            if line.starts_with('[') {
                section = line.to_string();
                continue;
            }
            let name = line.split(['=', '.', ' ']).next().unwrap_or_default();
            if section.contains("dependencies") && games.iter().any(|g| g == name) {
                wrong.push(format!("{krate} {section} {name}"));
            }
        }
    }
    assert!(wrong.is_empty(), "generic crates depend on games: {wrong:?}");
}

#[test]
fn no_module_imports_a_module_that_imports_it_back() {
    let found: Vec<_> = crate_sources().iter().flat_map(|src| circles(src)).collect();
    assert!(found.is_empty(), "import circles: {found:?}");
}

/// The circles of a crate made of `files` (path, text) in a temporary
/// folder, each as its modules' last names, sorted.
fn circles_of(name: &str, files: &[(&str, &str)]) -> Vec<Vec<String>> {
    let dir = std::env::temp_dir().join(format!("layers-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    for (path, text) in files {
        let path = dir.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    let found = circles(&dir);
    let _ = std::fs::remove_dir_all(&dir);
    found
        .iter()
        .map(|circle| {
            let mut names: Vec<_> = circle.iter().map(|m| m.rsplit("::").next().unwrap().to_string()).collect();
            names.sort();
            names
        })
        .collect()
}

#[test]
fn the_circle_check_sees_a_circle() {
    let found = circles_of(
        "circle",
        &[
            ("lib.rs", "pub mod a;\npub mod b;\n"),
            ("a/mod.rs", "pub mod c;\npub use c::Z;\npub struct X;\n"),
            ("a/c.rs", "use crate::{b::{self, Y as Class}};\npub struct Z;\n"),
            ("b.rs", "// use crate::a::c::Z;\npub struct Y(pub super::a::X);\nfn f() -> crate::a::c::Z { todo!() }\n"),
        ],
    );
    assert_eq!(found, [["b", "c"]]);
}

#[test]
fn the_circle_check_follows_re_exports_and_reads_past_test_modules() {
    // `a` imports `crate::b::Y`, which `b` re-exports from `c`; `c` names
    // `crate::a::X` after a test module: a circle between `a` and `c`.
    let found = circles_of(
        "reexport",
        &[
            ("lib.rs", "pub mod a;\npub mod b;\npub mod c;\n"),
            ("a.rs", "use crate::b::Y;\npub struct X(Y);\n"),
            ("b.rs", "pub use crate::c::Y;\n"),
            (
                "c.rs",
                "pub struct Y;\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn t() {}\n}\nfn f() -> crate::a::X { todo!() }\n",
            ),
        ],
    );
    assert_eq!(found, [["a", "c"]]);
}

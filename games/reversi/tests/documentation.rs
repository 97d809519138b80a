//! The documentation stays true to the programs: every program's `--help`
//! opens with what it does, every relative link of the README, the book and
//! the data folders' READMEs leads somewhere, every `console` example of the
//! README and the book runs, and `data/` keeps its size rule.
//!
//! The examples and `--help` run the programs of the whole workspace, which
//! `cargo test --workspace` builds before any test runs (the test command
//! of the README); with only this crate built those tests fail and say so.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The workspace's root folder.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .nth(2)
        .expect("the crate is two folders below the workspace")
        .to_path_buf()
}

/// The folder of the programs this test build made (`target/<profile>`).
fn programs_dir() -> PathBuf {
    Path::new(env!("CARGO_BIN_EXE_ffo")).parent().expect("a program lies in a folder").to_path_buf()
}

/// The workspace's member folders, from its `Cargo.toml`.
fn members() -> Vec<PathBuf> {
    let text = std::fs::read_to_string(root().join("Cargo.toml")).unwrap();
    let start = text.find("members").expect("a members list");
    let list = &text[start..text[start..].find(']').map(|e| start + e).unwrap()];
    list.split('"').skip(1).step_by(2).map(|m| root().join(m)).collect()
}

/// The value of `key = "..."` on a line of a `Cargo.toml`, if the line sets it.
fn toml_string<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let rest = line.trim().strip_prefix(key)?.trim_start().strip_prefix('=')?.trim();
    rest.strip_prefix('"')?.split('"').next()
}

/// Every program of the workspace (`[[bin]]` names) and every crate
/// description (what `--help` must not open with).
fn programs_and_descriptions() -> (Vec<String>, Vec<String>) {
    let (mut programs, mut descriptions) = (Vec::new(), Vec::new());
    for member in members() {
        let text = std::fs::read_to_string(member.join("Cargo.toml")).unwrap();
        let mut in_bin = false;
        for line in text.lines() {
            if line.trim_start().starts_with('[') {
                in_bin = line.trim() == "[[bin]]";
            } else if let Some(name) = toml_string(line, "name").filter(|_| in_bin) {
                programs.push(name.to_string());
            } else if let Some(d) = toml_string(line, "description") {
                descriptions.push(d.to_string());
            }
        }
    }
    (programs, descriptions)
}

#[test]
fn every_program_opens_its_help_with_what_it_does() {
    let (programs, descriptions) = programs_and_descriptions();
    assert!(programs.len() >= 14, "found only the programs {programs:?}");
    let scratch = Scratch::new("help");
    let mut first_lines = BTreeMap::new();
    for program in &programs {
        let path = programs_dir().join(program);
        assert!(
            path.exists(),
            "{} is not built: run the README's test command (cargo test --workspace)",
            path.display()
        );
        // In an empty folder, so a program that ignored `--help` would fail
        // on its missing input rather than write anything here.
        let out = Command::new(&path).arg("--help").current_dir(&scratch.0).output().unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{program} --help: {}\n{}", out.status, String::from_utf8_lossy(&out.stderr));
        let first = text.lines().next().unwrap_or("").trim().to_string();
        assert!(first.split_whitespace().count() >= 4, "{program} --help opens with `{first}`, not a sentence");
        assert!(!descriptions.contains(&first), "{program} --help opens with its crate's description `{first}`");
        if let Some(other) = first_lines.insert(first.clone(), program) {
            panic!("{program} and {other} both open their help with `{first}`");
        }
        assert_eq!(std::fs::read_dir(&scratch.0).unwrap().count(), 0, "{program} --help wrote files");
    }
}

/// A scratch folder under the system's temporary folder, removed on drop.
struct Scratch(PathBuf);

impl Scratch {
    fn new(tag: &str) -> Scratch {
        use std::sync::atomic::{AtomicUsize, Ordering};
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("workbench-docs-{}-{tag}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The documents a reader meets: the README, the book's chapters and the
/// data folders' READMEs.
fn documents() -> Vec<PathBuf> {
    fn walk(dir: &Path, keep: &dyn Fn(&Path) -> bool, out: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else { return };
        for entry in entries {
            let path = entry.unwrap().path();
            if path.is_dir() {
                if path.file_name().is_some_and(|n| n != "runs" && n != "book") {
                    walk(&path, keep, out);
                }
            } else if keep(&path) {
                out.push(path);
            }
        }
    }
    let mut out = vec![root().join("README.md")];
    walk(&root().join("docs/src"), &|p| p.extension().is_some_and(|e| e == "md"), &mut out);
    walk(&root().join("data"), &|p| p.file_name().is_some_and(|n| n == "README.md"), &mut out);
    out.sort();
    out
}

/// A line of a document outside fenced code, with inline code blanked.
fn prose_lines(text: &str) -> Vec<(usize, String)> {
    let mut fenced = false;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        let mut prose = String::with_capacity(line.len());
        for (k, part) in line.split('`').enumerate() {
            if k % 2 == 0 {
                prose.push_str(part);
            } else {
                prose.push_str(&" ".repeat(part.len() + 2));
            }
        }
        out.push((i + 1, prose));
    }
    out
}

/// The targets of a line's links: `[text](target)` and `[label]: target`.
fn link_targets(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = line;
    while let Some(k) = rest.find("](") {
        let after = &rest[k + 2..];
        let end = after.find(')').unwrap_or(after.len());
        out.push(after[..end].split_whitespace().next().unwrap_or("").to_string());
        rest = &after[end..];
    }
    let t = line.trim_start();
    if t.starts_with('[')
        && let Some(k) = t.find("]: ")
    {
        out.push(t[k + 3..].split_whitespace().next().unwrap_or("").to_string());
    }
    out
}

/// The anchor GitHub and mdBook give a heading: lowercase, spaces to `-`,
/// other punctuation but `-` and `_` dropped.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// The anchors of a Markdown file's headings.
fn anchors(text: &str) -> BTreeSet<String> {
    let mut fenced = false;
    let mut out = BTreeSet::new();
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        } else if !fenced && line.starts_with('#') {
            let heading = line.trim_start_matches('#');
            let base = anchor(heading);
            let mut id = base.clone();
            let mut n = 0;
            while !out.insert(id.clone()) {
                n += 1;
                id = format!("{base}-{n}");
            }
        }
    }
    out
}

/// True when `doc` is a page of the book and `target` lies outside its
/// sources (`docs/src`): mdBook copies only those into the HTML book.
fn leaves_the_book(doc: &Path, target: &Path) -> bool {
    let book = root().join("docs").join("src");
    let inside = |p: &Path| p.canonicalize().is_ok_and(|p| p.starts_with(book.canonicalize().unwrap()));
    inside(doc) && !inside(target)
}

#[test]
fn every_relative_link_leads_somewhere() {
    let mut broken = Vec::new();
    let docs = documents();
    assert!(docs.len() > 10, "found only {docs:?}");
    for doc in &docs {
        let text = std::fs::read_to_string(doc).unwrap();
        for (line, prose) in prose_lines(&text) {
            for target in link_targets(&prose) {
                if target.is_empty() || target.contains("://") || target.starts_with("mailto:") {
                    continue;
                }
                let (file, fragment) = target.split_once('#').unwrap_or((&target, ""));
                let path = if file.is_empty() { doc.clone() } else { doc.parent().unwrap().join(file) };
                let place = format!("{}:{line}: `{target}`", doc.strip_prefix(root()).unwrap().display());
                if !path.exists() {
                    broken.push(format!("{place}: no such file"));
                } else if leaves_the_book(doc, &path) {
                    broken.push(format!(
                        "{place}: leaves docs/src, so the HTML book has no such page (name the path as code)"
                    ));
                } else if !fragment.is_empty() && path.extension().is_some_and(|e| e == "md") {
                    let headings = anchors(&std::fs::read_to_string(&path).unwrap());
                    if !headings.contains(fragment) {
                        broken.push(format!("{place}: no heading with that anchor"));
                    }
                }
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

/// A `console` block: the line of its fence and its commands with their lines.
struct Example {
    place: String,
    commands: Vec<(usize, String)>,
}

/// The `console` blocks of a document.
fn examples(doc: &Path) -> Vec<Example> {
    let text = std::fs::read_to_string(doc).unwrap();
    let name = doc.strip_prefix(root()).unwrap().display().to_string();
    let mut out = Vec::new();
    // `Some(_)` inside a fenced block; `Some(Some(_))` inside a console block.
    let mut open: Option<Option<Example>> = None;
    for (i, line) in text.lines().enumerate() {
        if let Some(info) = line.trim_start().strip_prefix("```") {
            match open.take() {
                Some(example) => out.extend(example),
                None => {
                    let console = info.trim() == "console";
                    open = Some(console.then(|| Example { place: format!("{name}:{}", i + 1), commands: Vec::new() }));
                }
            }
        } else if let Some(Some(example)) = open.as_mut()
            && let Some(command) = line.trim_start().strip_prefix("$ ")
        {
            example.commands.push((i + 1, command.to_string()));
        }
    }
    out
}

#[test]
fn every_console_example_runs() {
    let docs: Vec<PathBuf> = documents().into_iter().filter(|d| !d.starts_with(root().join("data"))).collect();
    let all: Vec<Example> = docs.iter().flat_map(|d| examples(d)).collect();
    assert!(all.len() >= 5, "found only {} console examples", all.len());
    let path = format!("{}:{}", programs_dir().display(), std::env::var("PATH").unwrap_or_default());
    for example in &all {
        assert!(!example.commands.is_empty(), "{}: a console block without a `$ ` command", example.place);
        let scratch = Scratch::new("example");
        for folder in ["data", "docs", "games"] {
            std::os::unix::fs::symlink(root().join(folder), scratch.0.join(folder)).unwrap();
        }
        let mut script = String::from("set -e\n");
        for (line, command) in &example.commands {
            script.push_str(&format!("echo '@@line {line}' >&2\n{command}\n"));
        }
        let out = Command::new("bash")
            .arg("-c")
            .arg(&script)
            .current_dir(&scratch.0)
            .env("PATH", &path)
            .output()
            .expect("bash runs");
        if !out.status.success() {
            let stderr = String::from_utf8_lossy(&out.stderr);
            let line = stderr.lines().filter_map(|l| l.strip_prefix("@@line ")).next_back().unwrap_or("?");
            let tail: Vec<&str> = stderr.lines().filter(|l| !l.starts_with("@@line ")).collect();
            panic!(
                "{} (the command on line {line}) failed with {}:\n{}",
                example.place,
                out.status,
                tail[tail.len().saturating_sub(15)..].join("\n")
            );
        }
    }
}

/// A file under `data/` may have at most this many bytes...
const MAX_FILE_BYTES: u64 = 256 * 1024;
/// ...a folder (all it holds) at most this many...
const MAX_FOLDER_BYTES: u64 = 2 * 1024 * 1024;
/// ...and `data/` in all at most this many, unless `data/size-exceptions.txt`
/// lists the path (a fixture or suite that a test, benchmark or notebook reads).
const MAX_DATA_BYTES: u64 = 8 * 1024 * 1024;

/// The bytes of a folder's files, recursively; records every file's and
/// folder's size into `sizes` (paths relative to `base`).
fn measure(dir: &Path, base: &Path, sizes: &mut BTreeMap<PathBuf, u64>) -> u64 {
    let mut total = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let entry = entry.unwrap();
        let path = entry.path();
        let relative = path.strip_prefix(base).unwrap().to_path_buf();
        // `data/runs/` is the programs' default output folder, ignored by git.
        if relative == Path::new("runs") {
            continue;
        }
        let size = if entry.file_type().unwrap().is_dir() {
            measure(&path, base, sizes)
        } else {
            entry.metadata().unwrap().len()
        };
        sizes.insert(relative, size);
        total += size;
    }
    total
}

#[test]
fn data_keeps_its_size_rule() {
    let data = root().join("data");
    let exceptions_file = data.join("size-exceptions.txt");
    let text = std::fs::read_to_string(&exceptions_file).expect("data/size-exceptions.txt");
    let mut exceptions = BTreeSet::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (path, reason) = line.split_once('#').unwrap_or((line, ""));
        let path = PathBuf::from(path.trim());
        assert!(!reason.trim().is_empty(), "data/size-exceptions.txt:{}: expected `PATH # reason`", i + 1);
        assert!(data.join(&path).exists(), "data/size-exceptions.txt:{}: {} does not exist", i + 1, path.display());
        exceptions.insert(path);
    }
    let mut sizes = BTreeMap::new();
    let total = measure(&data, &data, &mut sizes);
    assert!(total <= MAX_DATA_BYTES, "data/ holds {total} bytes, more than {MAX_DATA_BYTES}");
    let exempt = |p: &Path| p.ancestors().any(|a| exceptions.contains(a));
    let mut over = Vec::new();
    for (path, &size) in &sizes {
        let limit = if data.join(path).is_dir() { MAX_FOLDER_BYTES } else { MAX_FILE_BYTES };
        if size > limit && !exempt(path) {
            over.push(format!("data/{}: {size} bytes (limit {limit})", path.display()));
        }
    }
    assert!(
        over.is_empty(),
        "over the size rule of data/README.md, and not in data/size-exceptions.txt:\n{}",
        over.join("\n")
    );
}

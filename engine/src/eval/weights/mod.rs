//! Weight sets of the pattern evaluations (every Reversi variant and Pente):
//! the compiled-in sets (one generated source file per [`WeightKey`], the
//! only place weights live), the plain-text weights file read at run time,
//! and the writers of both.
//!
//! Text form (`format pattern-weights 1`): `#` comment lines and blank lines
//! are ignored; then a `format pattern-weights 1` line, a `variant NAME`
//! line (a Reversi variant or `pente`), and for every phase and table of the
//! key's [`Layout`] a section
//! `table PHASE NAME` followed by exactly that table's number of integers
//! (whitespace separated, any line breaks). Sections may come in any order;
//! each must appear once.

mod duo12;
mod othello10;
mod othello12;
mod othello6;
mod othello8;
mod pente;
mod tiny4;

use super::layout::Layout;
use super::registry::{POSITIONAL, WeightKey};
use crate::reversi::Variant;
use std::fmt::Write as _;
use std::path::Path;

/// The first line of a weights file (after comments).
pub const FORMAT_LINE: &str = "format pattern-weights 1";

/// Entries per line for pattern tables in both written forms (three base-3
/// digits vary along a line).
const PATTERN_LINE: usize = 27;

/// The compiled-in weights of `key`, in registry order.
pub fn compiled(key: impl Into<WeightKey>) -> &'static [i16] {
    let key = key.into();
    let weights: &'static [i16] = match key {
        WeightKey::Reversi(Variant::Tiny4) => &tiny4::WEIGHTS,
        WeightKey::Reversi(Variant::Othello6) => &othello6::WEIGHTS,
        WeightKey::Reversi(Variant::Othello8) => &othello8::WEIGHTS,
        WeightKey::Reversi(Variant::Othello10) => &othello10::WEIGHTS,
        WeightKey::Reversi(Variant::Othello12) => &othello12::WEIGHTS,
        WeightKey::Reversi(Variant::Duo12) => &duo12::WEIGHTS,
        WeightKey::Pente => &pente::WEIGHTS,
    };
    assert_eq!(
        weights.len(),
        key.layout().len(),
        "compiled weights of {key} do not match the registry: regenerate engine/src/eval/weights/{key}.rs"
    );
    weights
}

/// A full weight set of one [`WeightKey`], in registry order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WeightSet {
    /// What the weights are for.
    pub key: WeightKey,
    /// One value per registry weight.
    pub values: Vec<i16>,
}

/// Lengths of the written lines of a table: one line per triangle row for
/// a Reversi positional table, [`PATTERN_LINE`] entries for long tables.
fn line_lengths(key: WeightKey, layout: &Layout, table: usize) -> Vec<usize> {
    let len = layout.tables[table].len;
    match key {
        WeightKey::Reversi(v) if table == POSITIONAL => {
            let h = v.size() / 2;
            (0..h).map(|r| h - r).collect()
        }
        _ if len >= PATTERN_LINE => vec![PATTERN_LINE; len / PATTERN_LINE],
        _ => vec![len],
    }
}

impl WeightSet {
    /// The compiled-in weights of `key`.
    pub fn compiled(key: impl Into<WeightKey>) -> Self {
        let key = key.into();
        WeightSet { key, values: compiled(key).to_vec() }
    }

    /// The Reversi variant the weights are for (`None` for Pente).
    pub const fn variant(&self) -> Option<Variant> {
        match self.key {
            WeightKey::Reversi(v) => Some(v),
            WeightKey::Pente => None,
        }
    }

    /// Checks the length and every value against the registry.
    pub fn validate(&self) -> Result<(), String> {
        let reg = self.key.layout();
        if self.values.len() != reg.len() {
            return Err(format!("{} weights, expected {} for {}", self.values.len(), reg.len(), self.key));
        }
        for (i, &v) in self.values.iter().enumerate() {
            let (phase, table, entry) = reg.locate(i);
            let t = &reg.tables[table];
            if !(t.min..=t.max).contains(&i32::from(v)) {
                return Err(format!("phase {phase} table {} entry {entry}: {v} outside {}..={}", t.name, t.min, t.max));
            }
        }
        Ok(())
    }

    /// Calls `line(phase, table, values)` for every written line, in order,
    /// and `section(phase, table)` before each table.
    fn for_each_line(&self, mut section: impl FnMut(usize, usize), mut line: impl FnMut(&[i16])) {
        let reg = self.key.layout();
        for phase in 0..reg.phases {
            for table in 0..reg.tables.len() {
                section(phase, table);
                let mut at = reg.index(phase, table, 0);
                for len in line_lengths(self.key, reg, table) {
                    line(&self.values[at..at + len]);
                    at += len;
                }
            }
        }
    }

    /// The text form (see the module documentation).
    pub fn to_text(&self) -> String {
        let reg = self.key.layout();
        let mut out = String::new();
        out.push_str("# Pattern evaluation weights; layout: engine::eval::registry.\n");
        let _ = writeln!(out, "{FORMAT_LINE}\nvariant {}", self.key);
        let out = std::cell::RefCell::new(out);
        self.for_each_line(
            |phase, table| {
                let _ = writeln!(out.borrow_mut(), "table {phase} {}", reg.tables[table].name);
            },
            |values| {
                let mut o = out.borrow_mut();
                let text: Vec<String> = values.iter().map(i16::to_string).collect();
                let _ = writeln!(o, "{}", text.join(" "));
            },
        );
        out.into_inner()
    }

    /// Parses the text form; errors name `origin`, the line and what was
    /// expected.
    pub fn parse(text: &str, origin: &str) -> Result<Self, String> {
        let err = |line: usize, msg: String| format!("{origin}: line {line}: {msg}");
        let mut lines = text
            .lines()
            .enumerate()
            .map(|(i, l)| (i + 1, l.trim()))
            .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'));
        let (n, first) = lines.next().ok_or_else(|| err(1, format!("expected `{FORMAT_LINE}`, found end of file")))?;
        if first != FORMAT_LINE {
            return Err(err(n, format!("expected `{FORMAT_LINE}`, found `{first}`")));
        }
        let (n, vline) = lines.next().ok_or_else(|| err(n + 1, "expected `variant NAME`, found end of file".into()))?;
        let key: WeightKey = vline
            .strip_prefix("variant ")
            .ok_or_else(|| err(n, format!("expected `variant NAME`, found `{vline}`")))?
            .trim()
            .parse()
            .map_err(|e| err(n, e))?;
        let reg = key.layout();
        let mut values = vec![0i16; reg.len()];
        let mut seen = vec![false; reg.phases * reg.tables.len()];
        // (start index, table spec, values read, header line) of the open section.
        let mut open: Option<(usize, usize, usize, usize)> = None;
        let close = |open: Option<(usize, usize, usize, usize)>| -> Result<(), String> {
            if let Some((_, table, read, line)) = open {
                let t = &reg.tables[table];
                if read != t.len {
                    return Err(err(line, format!("table {} has {read} values, expected {}", t.name, t.len)));
                }
            }
            Ok(())
        };
        let mut last = 0;
        for (n, l) in lines {
            last = n;
            if let Some(rest) = l.strip_prefix("table ") {
                close(open)?;
                let mut parts = rest.split_whitespace();
                let phase = parts.next().and_then(|p| p.parse::<usize>().ok()).filter(|&p| p < reg.phases);
                let phase = phase.ok_or_else(|| err(n, format!("expected a phase 0..{} after `table`", reg.phases)))?;
                let name = parts.next().unwrap_or("");
                let table = reg.table(name).ok_or_else(|| err(n, format!("unknown table `{name}` for {key}")))?;
                if parts.next().is_some() {
                    return Err(err(n, "expected `table PHASE NAME`, found more".into()));
                }
                let slot = phase * reg.tables.len() + table;
                if std::mem::replace(&mut seen[slot], true) {
                    return Err(err(n, format!("table {phase} {name} appears twice")));
                }
                open = Some((reg.index(phase, table, 0), table, 0, n));
                continue;
            }
            let Some((start, table, read, header)) = open.as_mut() else {
                return Err(err(n, format!("expected `table PHASE NAME`, found `{l}`")));
            };
            let t = &reg.tables[*table];
            for word in l.split_whitespace() {
                let v: i32 = word.parse().map_err(|_| err(n, format!("expected an integer, found `{word}`")))?;
                if !(t.min..=t.max).contains(&v) {
                    return Err(err(n, format!("{v} outside {}..={} of table {}", t.min, t.max, t.name)));
                }
                if *read >= t.len {
                    return Err(err(n, format!("table {} (line {header}) has more than {} values", t.name, t.len)));
                }
                values[*start + *read] = v as i16;
                *read += 1;
            }
        }
        close(open)?;
        if let Some(slot) = seen.iter().position(|&s| !s) {
            let (phase, table) = (slot / reg.tables.len(), slot % reg.tables.len());
            return Err(err(last + 1, format!("missing table {phase} {}", reg.tables[table].name)));
        }
        Ok(WeightSet { key, values })
    }

    /// Reads a weights file.
    pub fn load(path: &Path) -> Result<Self, String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        Self::parse(&text, &path.display().to_string())
    }

    /// Writes the text form to `path`.
    pub fn save(&self, path: &Path) -> Result<(), String> {
        std::fs::write(path, self.to_text()).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// The generated Rust source that compiles these weights in, marked
    /// `@generated by {command}`.
    pub fn to_rust_source(&self, command: &str) -> String {
        let reg = self.key.layout();
        let mut out = String::new();
        let _ = writeln!(out, "// @generated by {command}");
        let _ = writeln!(out, "// Weights of the pattern evaluation for `{}` ({FORMAT_LINE}),", self.key);
        out.push_str("// in the layout of engine::eval::registry. Do not edit by hand: rerun the\n");
        out.push_str("// command above, or load a weights file at run time.\n\n");
        let _ = writeln!(out, "/// The compiled-in weights of `{}`, in registry order.", self.key);
        out.push_str("#[rustfmt::skip]\n");
        let _ = writeln!(out, "pub(super) static WEIGHTS: [i16; {}] = [", self.values.len());
        let out = std::cell::RefCell::new(out);
        self.for_each_line(
            |phase, table| {
                let _ = writeln!(out.borrow_mut(), "// table {phase} {}", reg.tables[table].name);
            },
            |values| {
                let mut o = out.borrow_mut();
                for v in values {
                    let _ = write!(o, "{v},");
                }
                o.push('\n');
            },
        );
        let mut out = out.into_inner();
        out.push_str("];\n");
        out
    }

    /// Reads back what [`WeightSet::to_rust_source`] wrote for `key`.
    pub fn parse_rust_source(text: &str, key: WeightKey) -> Result<Self, String> {
        if !text.starts_with("// @generated by ") {
            return Err("line 1: expected `// @generated by COMMAND`".into());
        }
        let mut values = Vec::new();
        let mut inside = false;
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if !inside {
                inside = line.starts_with("pub(super) static WEIGHTS") && line.ends_with("= [");
                continue;
            }
            if line == "];" {
                let set = WeightSet { key, values };
                set.validate()?;
                return Ok(set);
            }
            if line.starts_with("//") {
                continue;
            }
            for word in line.split(',').map(str::trim).filter(|w| !w.is_empty()) {
                values.push(word.parse().map_err(|_| format!("line {}: expected an i16, found `{word}`", i + 1))?);
            }
        }
        Err("expected `];` closing the WEIGHTS table, found end of file".into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::Evaluator;
    use crate::eval::pattern::PatternEval;
    use crate::game::Game;
    use crate::reversi::{Position, Size12};

    /// The generated file of `key`, as checked in.
    fn checked_in(key: WeightKey) -> &'static str {
        match key {
            WeightKey::Reversi(Variant::Tiny4) => include_str!("tiny4.rs"),
            WeightKey::Reversi(Variant::Othello6) => include_str!("othello6.rs"),
            WeightKey::Reversi(Variant::Othello8) => include_str!("othello8.rs"),
            WeightKey::Reversi(Variant::Othello10) => include_str!("othello10.rs"),
            WeightKey::Reversi(Variant::Othello12) => include_str!("othello12.rs"),
            WeightKey::Reversi(Variant::Duo12) => include_str!("duo12.rs"),
            WeightKey::Pente => include_str!("pente.rs"),
        }
    }

    #[test]
    fn compiled_weights_fit_the_registry_and_match_their_source() {
        for v in WeightKey::ALL {
            let set = WeightSet::compiled(v);
            set.validate().unwrap();
            assert_eq!(WeightSet::parse_rust_source(checked_in(v), v).unwrap(), set, "{v}");
            assert!(checked_in(v).starts_with("// @generated by "));
        }
    }

    #[test]
    fn text_and_source_round_trip() {
        for v in WeightKey::ALL {
            let mut set = WeightSet::compiled(v);
            // Vary the values so that a layout slip would show.
            let layout = v.layout();
            for (i, x) in set.values.iter_mut().enumerate() {
                let t = layout.spec_of(i);
                *x = (t.min + (i * 7919 % 601) as i32 % (t.max - t.min + 1)) as i16;
            }
            let text = set.to_text();
            assert_eq!(WeightSet::parse(&text, "mem").unwrap(), set, "{v}");
            let src = set.to_rust_source("test");
            assert_eq!(WeightSet::parse_rust_source(&src, v).unwrap(), set, "{v}");
        }
    }

    #[test]
    fn weights_file_round_trip_gives_identical_evaluations() {
        let dir = std::env::temp_dir().join(format!("engine-weights-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("duo12.weights");
        let mut set = WeightSet::compiled(Variant::Duo12);
        for (i, x) in set.values.iter_mut().enumerate() {
            *x = ((i * 7919) % 201) as i16 - 100;
        }
        set.save(&path).unwrap();
        let direct = PatternEval::<Size12>::with_weights(set);
        let loaded = PatternEval::<Size12>::from_file(Variant::Duo12, &path).unwrap();
        let mut pos: Position<Size12> = Variant::Duo12.start();
        while !pos.is_terminal() {
            assert_eq!(direct.evaluate(&pos), loaded.evaluate(&pos));
            pos = pos.play(pos.legal_moves()[0]);
        }
        assert!(PatternEval::<Size12>::from_file(Variant::Othello12, &path).unwrap_err().contains("duo12"));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn malformed_weights_files_are_rejected_with_the_line() {
        let good = WeightSet::compiled(Variant::Tiny4).to_text();
        let cases: Vec<(String, &str)> = vec![
            (String::new(), "line 1: expected `format"),
            ("format other 2\n".into(), "line 1: expected `format"),
            (format!("{FORMAT_LINE}\nvariant chess\n"), "line 2: unknown variant"),
            (good.replace("table 1 parity", "table 9 parity"), "expected a phase"),
            (good.replace("table 1 parity", "table 1 bogus"), "unknown table `bogus`"),
            (good.replace("table 1 parity", "table 0 parity"), "appears twice"),
            (good.replacen("\n0\n", "\nzero\n", 1), "expected an integer"),
            (good.replacen("\n0\n", "\n30000\n", 1), "outside"),
            (good.replacen("\n0\n", "\n0 0\n", 1), "has more than"),
            (good.replacen("\n0\n", "\n\n", 1), "values, expected 1"),
        ];
        for (text, want) in cases {
            let e = WeightSet::parse(&text, "w.txt").unwrap_err();
            assert!(e.starts_with("w.txt: line ") && e.contains(want), "{e} (wanted {want})");
        }
        let cut: String = good.lines().take(good.lines().count() - 1).map(|l| format!("{l}\n")).collect();
        assert!(WeightSet::parse(&cut, "w.txt").unwrap_err().contains("expected"));
    }
}

//! Weight sets of the pattern evaluations (every Reversi variant and Pente):
//! the compiled-in sets (one generated binary file per [`WeightKey`] in
//! `engine/weights/`, the only place weights live, included as bytes so that
//! no table is ever compiled as code), the plain-text weights file read at
//! run time and used for exchange, and the readers and writers of both.
//!
//! Binary form (`format pattern-weights-binary 2`): a text header of lines,
//! the format line, `variant NAME`, `values COUNT`, then `# ` lines saying
//! which command made the file and from what; an empty line; then exactly
//! `COUNT` little-endian `i16` values: the canonical entries of the layout
//! in registry order ([`Layout::pack`]: one value per orbit of a
//! self-symmetric table), each standing for its whole orbit. Version 1 (one
//! value per entry, orbits stored apart) is still read.
//!
//! Text form (`format pattern-weights 1`): `#` comment lines and blank lines
//! are ignored; then a `format pattern-weights 1` line, a `variant NAME`
//! line (a Reversi variant or `pente`), and for every phase and table of the
//! key's [`Layout`] a section
//! `table PHASE NAME` followed by exactly that table's number of integers
//! (whitespace separated, any line breaks). Sections may come in any order;
//! each must appear once.

use super::layout::Layout;
use super::registry::{POSITIONAL, WeightKey};
use crate::reversi::Variant;
use std::fmt::Write as _;
use std::path::Path;
use std::sync::OnceLock;

/// The first line of a weights file (after comments).
pub const FORMAT_LINE: &str = "format pattern-weights 1";

/// The first line of a binary weights file (packed by symmetry).
pub const BINARY_FORMAT_LINE: &str = "format pattern-weights-binary 2";

/// The first line of a binary weights file of the first version: every
/// entry stored, still read.
pub const BINARY_FORMAT_LINE_V1: &str = "format pattern-weights-binary 1";

/// What the first line of every version of the binary form starts with.
const BINARY_FORMAT_PREFIX: &str = "format pattern-weights-binary ";

/// Where the compiled-in binary weight files live, from the engine crate.
pub const COMPILED_DIR: &str = "weights";

/// The file name of `key`'s compiled-in weights inside [`COMPILED_DIR`].
pub fn compiled_file_name(key: WeightKey) -> String {
    format!("{key}.bin")
}

/// The bytes of `key`'s compiled-in weights file.
pub fn compiled_bytes(key: WeightKey) -> &'static [u8] {
    // A match, not a table: a program that plays one variant links one file.
    match key {
        WeightKey::Reversi(Variant::Tiny4) => include_bytes!("../../../weights/tiny4.bin"),
        WeightKey::Reversi(Variant::Othello6) => include_bytes!("../../../weights/othello6.bin"),
        WeightKey::Reversi(Variant::Othello8) => include_bytes!("../../../weights/othello8.bin"),
        WeightKey::Reversi(Variant::Othello10) => include_bytes!("../../../weights/othello10.bin"),
        WeightKey::Reversi(Variant::Othello12) => include_bytes!("../../../weights/othello12.bin"),
        WeightKey::Reversi(Variant::Duo12) => include_bytes!("../../../weights/duo12.bin"),
        WeightKey::Pente => include_bytes!("../../../weights/pente.bin"),
    }
}

/// Entries per line for pattern tables in both written forms (three base-3
/// digits vary along a line).
const PATTERN_LINE: usize = 27;

/// The compiled-in weights of `key`, in registry order (decoded once).
///
/// # Panics
/// When the file in `engine/weights/` does not fit the registry: the build
/// is broken until it is regenerated (`tuner tune`, or the `hand_weights`
/// example for the hand-set seeds).
pub fn compiled(key: impl Into<WeightKey>) -> &'static [i16] {
    static DECODED: [OnceLock<Vec<i16>>; WeightKey::ALL.len()] = [const { OnceLock::new() }; WeightKey::ALL.len()];
    let key = key.into();
    let slot = WeightKey::ALL.iter().position(|&k| k == key).expect("every key is in WeightKey::ALL");
    DECODED[slot].get_or_init(|| {
        let origin = format!("engine/{COMPILED_DIR}/{}", compiled_file_name(key));
        match WeightSet::parse_binary(compiled_bytes(key), &origin) {
            Ok(set) if set.key == key => set.values,
            Ok(set) => panic!("{origin}: holds the weights of {}, expected {key}", set.key),
            Err(e) => panic!("{e}: regenerate it"),
        }
    })
}

/// What the text parser does with a table the file lacks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Missing {
    /// An error naming the first one.
    Refuse,
    /// Zeros, and the table is reported.
    Zero,
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
        // Table by table (a program checks its compiled-in weights at every
        // start, within the 0.01 s it may have left).
        for phase in 0..reg.phases {
            for (table, t) in reg.tables.iter().enumerate() {
                let start = reg.index(phase, table, 0);
                let values = &self.values[start..start + t.len];
                if let Some(entry) = values.iter().position(|&v| !(t.min..=t.max).contains(&i32::from(v))) {
                    let v = values[entry];
                    return Err(format!(
                        "phase {phase} table {} entry {entry}: {v} outside {}..={}",
                        t.name, t.min, t.max
                    ));
                }
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
        Self::parse_tables(text, origin, Missing::Refuse).map(|(set, _)| set)
    }

    /// Parses the text form of a set made for an older layout of its key:
    /// tables the registry has gained since are filled with zeros and
    /// named (`PHASE NAME`) in the second value. Every other rule of
    /// [`WeightSet::parse`] holds.
    pub fn parse_filling(text: &str, origin: &str) -> Result<(Self, Vec<String>), String> {
        Self::parse_tables(text, origin, Missing::Zero)
    }

    fn parse_tables(text: &str, origin: &str, missing: Missing) -> Result<(Self, Vec<String>), String> {
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
        let absent: Vec<String> = (0..seen.len())
            .filter(|&slot| !seen[slot])
            .map(|slot| {
                let (phase, table) = (slot / reg.tables.len(), slot % reg.tables.len());
                format!("{phase} {}", reg.tables[table].name)
            })
            .collect();
        match (missing, absent.first()) {
            (Missing::Refuse, Some(first)) => Err(err(last + 1, format!("missing table {first}"))),
            _ => Ok((WeightSet { key, values }, absent)),
        }
    }

    /// Reads a weights file.
    pub fn load(path: &Path) -> Result<Self, String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        Self::parse(&text, &path.display().to_string())
    }

    /// Reads a weights file made for an older layout (see
    /// [`WeightSet::parse_filling`]).
    pub fn load_filling(path: &Path) -> Result<(Self, Vec<String>), String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        Self::parse_filling(&text, &path.display().to_string())
    }

    /// Writes the text form to `path`.
    pub fn save(&self, path: &Path) -> Result<(), String> {
        std::fs::write(path, self.to_text()).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// True when `bytes` start like the binary form (any version).
    pub fn is_binary(bytes: &[u8]) -> bool {
        bytes.starts_with(BINARY_FORMAT_PREFIX.as_bytes())
    }

    /// The same weights with every orbit of a self-symmetric table at the
    /// mean of its entries ([`Layout::tie`]): what the binary form keeps.
    pub fn tied(&self) -> Self {
        let mut values = self.values.clone();
        self.key.layout().tie(&mut values);
        WeightSet { key: self.key, values }
    }

    /// The binary form (see the module doc), with `notes` as its `# ` lines
    /// (the command that made it first). Orbits whose entries disagree are
    /// stored at their mean ([`WeightSet::tied`]).
    pub fn to_binary(&self, notes: &[String]) -> Vec<u8> {
        let layout = self.key.layout();
        let packed = layout.pack(&self.tied().values);
        let mut header = format!("{BINARY_FORMAT_LINE}\nvariant {}\nvalues {}\n", self.key, packed.len());
        for note in notes {
            for line in note.lines() {
                let _ = writeln!(header, "# {line}");
            }
        }
        header.push('\n');
        let mut out = header.into_bytes();
        out.reserve(2 * packed.len());
        for v in &packed {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out
    }

    /// The `# ` lines of a binary form's header (what made it).
    pub fn binary_notes(bytes: &[u8]) -> Vec<String> {
        let end = bytes.windows(2).position(|w| w == b"\n\n").unwrap_or(bytes.len());
        String::from_utf8_lossy(&bytes[..end]).lines().filter_map(|l| l.strip_prefix("# ")).map(String::from).collect()
    }

    /// Reads the binary form; errors name `origin`, the header line and
    /// what was expected.
    pub fn parse_binary(bytes: &[u8], origin: &str) -> Result<Self, String> {
        let err = |line: usize, msg: String| format!("{origin}: line {line}: {msg}");
        let end = bytes
            .windows(2)
            .position(|w| w == b"\n\n")
            .ok_or_else(|| format!("{origin}: expected a header ended by an empty line"))?;
        let header =
            std::str::from_utf8(&bytes[..end]).map_err(|_| format!("{origin}: expected a UTF-8 text header"))?;
        let mut lines = header.lines().enumerate().map(|(i, l)| (i + 1, l));
        let mut next = |what: &str| -> Result<(usize, &str), String> {
            lines.next().ok_or_else(|| err(0, format!("expected {what}, found the end of the header")))
        };
        let (n, first) = next(BINARY_FORMAT_LINE)?;
        let packed = match first {
            BINARY_FORMAT_LINE => true,
            BINARY_FORMAT_LINE_V1 => false,
            _ => return Err(err(n, format!("expected `{BINARY_FORMAT_LINE}`, found `{first}`"))),
        };
        let (n, vline) = next("`variant NAME`")?;
        let key: WeightKey = vline
            .strip_prefix("variant ")
            .ok_or_else(|| err(n, format!("expected `variant NAME`, found `{vline}`")))?
            .parse()
            .map_err(|e| err(n, e))?;
        let (n, cline) = next("`values COUNT`")?;
        let count: usize = cline
            .strip_prefix("values ")
            .and_then(|c| c.parse().ok())
            .ok_or_else(|| err(n, format!("expected `values COUNT`, found `{cline}`")))?;
        let layout = key.layout();
        let expected = if packed { layout.packed_len() } else { layout.len() };
        if count != expected {
            return Err(err(n, format!("{count} values, expected {expected} for {key}")));
        }
        for (n, line) in lines {
            if !line.starts_with("# ") && line != "#" {
                return Err(err(n, format!("expected a `# ` note line, found `{line}`")));
            }
        }
        let payload = &bytes[end + 2..];
        if payload.len() != 2 * count {
            return Err(format!(
                "{origin}: expected {} bytes of values after the header, found {}",
                2 * count,
                payload.len()
            ));
        }
        let stored: Vec<i16> = payload.chunks_exact(2).map(|b| i16::from_le_bytes([b[0], b[1]])).collect();
        let values = if packed { layout.unpack(&stored) } else { stored };
        let set = WeightSet { key, values };
        set.validate().map_err(|e| format!("{origin}: {e}"))?;
        Ok(set)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::Evaluator;
    use crate::eval::pattern::PatternEval;
    use crate::reversi::{Position, Size12};
    use engine_core::game::Game;

    #[test]
    fn compiled_weights_fit_the_registry_and_say_what_made_them() {
        for v in WeightKey::ALL {
            let set = WeightSet::compiled(v);
            set.validate().unwrap();
            let notes = WeightSet::binary_notes(compiled_bytes(v));
            assert!(notes.first().is_some_and(|n| n.starts_with("@generated by ")), "{v}: {notes:?}");
        }
    }

    #[test]
    fn text_and_binary_round_trip() {
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
            let notes = vec!["@generated by test".to_string(), "two\nlines".to_string()];
            let bytes = set.to_binary(&notes);
            // The binary form keeps one value per orbit: the set comes back
            // tied, and a tied set comes back as it was.
            let tied = set.tied();
            assert_eq!(WeightSet::parse_binary(&bytes, "mem").unwrap(), tied, "{v}");
            assert_eq!(WeightSet::parse_binary(&tied.to_binary(&notes), "mem").unwrap(), tied, "{v}");
            assert_eq!(bytes.len() - header_len(&bytes), 2 * layout.packed_len(), "{v}");
            assert_eq!(WeightSet::binary_notes(&bytes), ["@generated by test", "two", "lines"]);
        }
    }

    /// Bytes up to and including the empty line that ends a binary header.
    fn header_len(bytes: &[u8]) -> usize {
        bytes.windows(2).position(|w| w == b"\n\n").unwrap() + 2
    }

    #[test]
    fn the_first_binary_version_still_reads_entry_by_entry() {
        let mut set = WeightSet::compiled(Variant::Othello6);
        for (i, x) in set.values.iter_mut().enumerate() {
            *x = (i % 41) as i16 - 20;
        }
        assert_ne!(set.tied(), set, "the varied set has orbits that disagree");
        let mut bytes =
            format!("{BINARY_FORMAT_LINE_V1}\nvariant othello6\nvalues {}\n# v1\n\n", set.values.len()).into_bytes();
        for v in &set.values {
            bytes.extend_from_slice(&v.to_le_bytes());
        }
        assert!(WeightSet::is_binary(&bytes));
        assert_eq!(WeightSet::parse_binary(&bytes, "old.bin").unwrap(), set);
    }

    /// The eight images of a position text (side line, then rows) under the
    /// square's rotations and reflections.
    fn images(text: &str) -> Vec<String> {
        let mut lines = text.lines();
        let side = lines.next().unwrap();
        let rows: Vec<&[u8]> = lines.map(str::as_bytes).collect();
        let n = rows.len();
        (0..8)
            .map(|sym| {
                let mut out = format!("{side}\n");
                for r in 0..n {
                    for c in 0..n {
                        let (i, j) = crate::eval::registry::transform(n, sym, (r, c));
                        out.push(char::from(rows[i][j]));
                    }
                    out.push('\n');
                }
                out
            })
            .collect()
    }

    /// Evaluations of the positions of one game and their eight images.
    fn symmetric_evaluations<G: crate::reversi::Geometry>(v: Variant, set: WeightSet) -> Vec<Vec<i32>> {
        let eval = PatternEval::<G>::with_weights(set);
        let mut pos: Position<G> = v.start();
        let mut out = Vec::new();
        let mut ply = 0;
        while !pos.is_terminal() {
            let seen = images(&pos.to_string())
                .iter()
                .map(|t| eval.evaluate(&Position::<G>::parse(t, v.scoring()).unwrap()))
                .collect();
            out.push(seen);
            let moves = pos.legal_moves();
            pos = pos.play(moves[(ply * 7) % moves.len()]);
            ply += 1;
        }
        out
    }

    #[test]
    fn tied_weights_evaluate_every_symmetric_image_alike() {
        use crate::reversi::Size8;
        let mut varied = WeightSet::compiled(Variant::Othello8);
        for (i, x) in varied.values.iter_mut().enumerate() {
            *x = ((i * 7919) % 201) as i16 - 100;
        }
        // Untied tables read a mirrored edge as another entry...
        let untied = symmetric_evaluations::<Size8>(Variant::Othello8, varied.clone());
        assert!(untied.iter().any(|images| images.iter().any(|&e| e != images[0])));
        // ...tied ones, and the compiled-in sets, cannot tell the images apart.
        for (name, set) in [("tied", varied.tied()), ("compiled", WeightSet::compiled(Variant::Othello8))] {
            for images in symmetric_evaluations::<Size8>(Variant::Othello8, set) {
                assert!(images.iter().all(|&e| e == images[0]), "{name}: {images:?}");
            }
        }
        for images in symmetric_evaluations::<Size12>(Variant::Duo12, WeightSet::compiled(Variant::Duo12)) {
            assert!(images.iter().all(|&e| e == images[0]), "{images:?}");
        }
    }

    #[test]
    fn malformed_binary_files_are_rejected_with_the_place() {
        let good = WeightSet::compiled(Variant::Tiny4).to_binary(&["@generated by test".into()]);
        let text_part = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
        let replaced = |from: &str, to: &str| {
            let end = good.windows(2).position(|w| w == b"\n\n").unwrap();
            let mut out = text_part(&good[..end]).replacen(from, to, 1).into_bytes();
            out.extend_from_slice(&good[end..]);
            out
        };
        let cases: Vec<(Vec<u8>, &str)> = vec![
            (Vec::new(), "expected a header"),
            (replaced("binary 2", "binary 3"), "line 1: expected `format"),
            (replaced("variant tiny4", "variant chess"), "line 2: unknown variant"),
            (replaced("values ", "values 1"), "line 3: "),
            (replaced("# @generated", "@generated"), "line 4: expected a `# ` note"),
            (good[..good.len() - 1].to_vec(), "bytes of values"),
            ([good.as_slice(), &[0, 0]].concat(), "bytes of values"),
        ];
        for (bytes, want) in cases {
            let e = WeightSet::parse_binary(&bytes, "w.bin").unwrap_err();
            assert!(e.starts_with("w.bin: ") && e.contains(want), "{e} (wanted {want})");
        }
        // A value outside its table's bounds.
        let mut wild = good.clone();
        let n = wild.len();
        wild[n - 2..].copy_from_slice(&i16::MAX.to_le_bytes());
        assert!(WeightSet::parse_binary(&wild, "w.bin").unwrap_err().contains("outside"));
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

    #[test]
    fn an_older_layout_loads_with_its_new_tables_zero_and_named() {
        let mut set = WeightSet::compiled(Variant::Othello6);
        for (i, x) in set.values.iter_mut().enumerate() {
            *x = (i % 97) as i16 - 48;
        }
        // The file of a layout without `parity` (a table added later).
        let reg = WeightKey::from(Variant::Othello6).layout();
        let parity = reg.table("parity").unwrap();
        let text = set.to_text();
        let mut old = String::new();
        let mut skipping = false;
        for line in text.lines() {
            if let Some(rest) = line.strip_prefix("table ") {
                skipping = rest.ends_with(" parity");
            }
            if !skipping {
                old += line;
                old.push('\n');
            }
        }
        assert!(WeightSet::parse(&old, "old.txt").unwrap_err().contains("missing table 0 parity"));
        let (filled, zeroed) = WeightSet::parse_filling(&old, "old.txt").unwrap();
        let names: Vec<String> = (0..reg.phases).map(|p| format!("{p} parity")).collect();
        assert_eq!(zeroed, names);
        for (i, (&a, &b)) in filled.values.iter().zip(&set.values).enumerate() {
            let (_, table, _) = reg.locate(i);
            assert_eq!(a, if table == parity { 0 } else { b }, "weight {i}");
        }
        // A whole file is filled by nothing.
        assert_eq!(WeightSet::parse_filling(&text, "new.txt").unwrap(), (set, vec![]));
    }
}

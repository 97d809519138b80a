//! Weight files: the text and binary forms of a weight set laid out by a
//! [`Layout`], for any game. A game names its sets by a key type that
//! implements [`WeightKind`] (its layouts, its compiled-in files, how its
//! tables are written); everything else here is shared.
//!
//! Binary form (`format pattern-weights-binary 2`): a text header of lines,
//! the format line, `variant NAME`, `values COUNT`, then `# ` lines saying
//! which command made the file and from what; an empty line; then exactly
//! `COUNT` little-endian `i16` values: the canonical entries of the layout
//! in layout order ([`Layout::pack`]: one value per orbit of a
//! self-symmetric table), each standing for its whole orbit. Version 1 (one
//! value per entry, orbits stored apart) is still read.
//!
//! Text form (`format pattern-weights 1`): `#` comment lines and blank lines
//! are ignored; then a `format pattern-weights 1` line, a `variant NAME`
//! line (the key), and for every phase and table of the key's [`Layout`] a
//! section `table PHASE NAME` followed by exactly that table's number of
//! integers (whitespace separated, any line breaks). Sections may come in
//! any order; each must appear once.

pub mod layout;

pub use layout::{Bounds, Layout, TableSpec};
use std::fmt::{Debug, Display, Write as _};
use std::path::{Path, PathBuf};
use std::str::FromStr;

/// The first line of a weights file (after comments).
pub const FORMAT_LINE: &str = "format pattern-weights 1";

/// The first line of a binary weights file (packed by symmetry).
pub const BINARY_FORMAT_LINE: &str = "format pattern-weights-binary 2";

/// The first line of a binary weights file of the first version: every
/// entry stored, still read.
pub const BINARY_FORMAT_LINE_V1: &str = "format pattern-weights-binary 1";

/// What the first line of every version of the binary form starts with.
const BINARY_FORMAT_PREFIX: &str = "format pattern-weights-binary ";

/// Entries per written line of a long table in both forms (three base-3
/// digits vary along a line).
pub const PATTERN_LINE: usize = 27;

/// What a game's weight sets are keyed by: one key per layout (a variant,
/// a game). Its name is the `variant` line of both file forms.
pub trait WeightKind: Copy + Eq + Debug + Display + FromStr<Err = String> + 'static {
    /// Where the layouts are declared, named in the text form's first
    /// comment line (a module path).
    const LAYOUT_SOURCE: &'static str;
    /// The folder of the compiled-in binary files, from the workspace root.
    const COMPILED_DIR: &'static str;

    /// The layout of the key's weights.
    fn layout(self) -> &'static Layout;

    /// The compiled-in weights of the key, in layout order.
    fn compiled(self) -> &'static [i16];

    /// Lengths of the written lines of `table`: [`PATTERN_LINE`] entries
    /// for long tables, one line otherwise.
    fn line_lengths(self, layout: &Layout, table: usize) -> Vec<usize> {
        pattern_lines(layout.tables[table].len)
    }

    /// Where the key's compiled-in file lives, from the workspace root.
    fn compiled_path(self) -> PathBuf {
        Path::new(Self::COMPILED_DIR).join(format!("{self}.bin"))
    }
}

/// Declares the key of a game that has one weight set: a unit struct
/// named `$key` whose name (`$key::NAME`, `$name`) is the `variant` line of
/// its files and the tuner's `--variant`, with its `Display` and its
/// `FromStr` (whose error names the one name expected). The game then
/// implements [`WeightKind`] for it.
#[macro_export]
macro_rules! single_weight_key {
    ($(#[$meta:meta])* $vis:vis $key:ident = $name:literal) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        $vis struct $key;

        impl $key {
            /// The name in weight files and on the command line.
            pub const NAME: &'static str = $name;
        }

        impl ::std::fmt::Display for $key {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str(Self::NAME)
            }
        }

        impl ::std::str::FromStr for $key {
            type Err = String;

            fn from_str(s: &str) -> Result<Self, String> {
                if s == Self::NAME {
                    Ok($key)
                } else {
                    Err(format!("unknown weight set `{s}`: expected {}", Self::NAME))
                }
            }
        }
    };
}

/// Lengths of the written lines of a table of `len` entries:
/// [`PATTERN_LINE`] entries each when it is that long, else one line.
pub fn pattern_lines(len: usize) -> Vec<usize> {
    if len >= PATTERN_LINE { vec![PATTERN_LINE; len / PATTERN_LINE] } else { vec![len] }
}

/// Decodes a compiled-in binary file of `key` (read once by the game's
/// [`WeightKind::compiled`]).
///
/// # Panics
/// When the file does not fit the key's layout: the build is broken until
/// the file is regenerated.
pub fn decode_compiled<K: WeightKind>(key: K, bytes: &[u8]) -> Vec<i16> {
    let origin = key.compiled_path().display().to_string();
    match WeightSet::<K>::parse_binary(bytes, &origin) {
        Ok(set) if set.key == key => set.values,
        Ok(set) => panic!("{origin}: holds the weights of {}, expected {key}", set.key),
        Err(e) => panic!("{e}: regenerate it"),
    }
}

/// True when `bytes` start like the binary form (any version).
pub fn is_binary(bytes: &[u8]) -> bool {
    bytes.starts_with(BINARY_FORMAT_PREFIX.as_bytes())
}

/// The `# ` lines of a binary form's header (what made it).
pub fn binary_notes(bytes: &[u8]) -> Vec<String> {
    let end = bytes.windows(2).position(|w| w == b"\n\n").unwrap_or(bytes.len());
    String::from_utf8_lossy(&bytes[..end]).lines().filter_map(|l| l.strip_prefix("# ")).map(String::from).collect()
}

/// The key name of a weights file in either form (its `variant` line), so
/// that a program can choose the game before parsing; `None` when there is
/// no `variant` line where one belongs.
pub fn kind_name(bytes: &[u8]) -> Option<String> {
    let end = bytes.windows(2).position(|w| w == b"\n\n").unwrap_or(bytes.len());
    let head = String::from_utf8_lossy(&bytes[..end.min(1 << 16)]);
    let mut lines = head.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#'));
    lines.next()?;
    lines.next()?.strip_prefix("variant ").map(|n| n.trim().to_string())
}

/// What the text parser does with a table the file lacks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Missing {
    /// An error naming the first one.
    Refuse,
    /// Zeros, and the table is reported.
    Zero,
}

/// A full weight set of one key of kind `K`, in layout order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WeightSet<K> {
    /// What the weights are for.
    pub key: K,
    /// One value per weight of the key's layout.
    pub values: Vec<i16>,
}

impl<K: WeightKind> WeightSet<K> {
    /// The compiled-in weights of `key`.
    pub fn compiled(key: impl Into<K>) -> Self {
        let key = key.into();
        WeightSet { key, values: key.compiled().to_vec() }
    }

    /// The values widened to `i32`, in layout order: the form the tuner
    /// fits.
    pub fn widened(&self) -> Vec<i32> {
        self.values.iter().map(|&v| i32::from(v)).collect()
    }

    /// Checks the length and every value against the layout.
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
                for len in self.key.line_lengths(reg, table) {
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
        let _ = writeln!(out, "# Evaluation weights of {}; layout: {}.", self.key, K::LAYOUT_SOURCE);
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
    /// tables the layout has gained since are filled with zeros and
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
        let key: K = vline
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
        let key: K = vline
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
    use std::sync::OnceLock;

    crate::single_weight_key! {
        /// A one-key game of two phases and two tables, one long enough to
        /// be written in several lines.
        Toy = "toy"
    }

    #[test]
    fn a_single_key_reads_its_name_and_refuses_others() {
        assert_eq!(Toy.to_string(), "toy");
        assert_eq!("toy".parse::<Toy>(), Ok(Toy));
        assert_eq!("othello8".parse::<Toy>(), Err("unknown weight set `othello8`: expected toy".to_string()));
    }

    impl WeightKind for Toy {
        const LAYOUT_SOURCE: &'static str = "core::weights::tests";
        const COMPILED_DIR: &'static str = "nowhere";
        fn layout(self) -> &'static Layout {
            static LAYOUT: OnceLock<Layout> = OnceLock::new();
            LAYOUT.get_or_init(|| {
                let mut l = Layout::new(2);
                l.push("small", 3, (-5, 5, 1));
                l.push("long", 2 * PATTERN_LINE, (-100, 100, 1));
                l
            })
        }
        fn compiled(self) -> &'static [i16] {
            &[]
        }
    }

    fn varied() -> WeightSet<Toy> {
        let layout = Toy.layout();
        let values = (0..layout.len())
            .map(|i| {
                let t = layout.spec_of(i);
                (t.min + (i * 37 % 11) as i32) as i16
            })
            .collect();
        WeightSet { key: Toy, values }
    }

    #[test]
    fn both_forms_round_trip_and_name_their_key() {
        let set = varied();
        let text = set.to_text();
        assert!(text.starts_with("# Evaluation weights of toy; layout: core::weights::tests.\n"));
        assert_eq!(text.lines().filter(|l| l.split_whitespace().count() == PATTERN_LINE).count(), 2 * 2);
        assert_eq!(WeightSet::<Toy>::parse(&text, "t").unwrap(), set);
        let bytes = set.to_binary(&["@generated by test".into()]);
        assert!(is_binary(&bytes) && !is_binary(text.as_bytes()));
        assert_eq!(WeightSet::<Toy>::parse_binary(&bytes, "b").unwrap(), set);
        assert_eq!(binary_notes(&bytes), ["@generated by test"]);
        assert_eq!(kind_name(&bytes).as_deref(), Some("toy"));
        assert_eq!(kind_name(text.as_bytes()).as_deref(), Some("toy"));
        assert_eq!(kind_name(b"format pattern-weights 1\nno variant\n"), None);
    }

    #[test]
    fn a_file_of_another_kind_is_refused_with_the_line() {
        let text = varied().to_text().replace("variant toy", "variant chess");
        let e = WeightSet::<Toy>::parse(&text, "w.txt").unwrap_err();
        assert!(e.starts_with("w.txt: line 3: unknown weight set `chess`"), "{e}");
    }
}

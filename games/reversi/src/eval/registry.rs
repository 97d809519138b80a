//! The weight registry: the single list of every weight an evaluation
//! reads, per [`WeightKey`] (a Reversi variant). The evaluators, the
//! weight files and the tuner all take their [`Layout`] from here.
//!
//! A weight set is a flat `i16` vector in the [`Layout`] of its key, which
//! the pattern evaluation's [`Registry`] builds below.
//!
//! Reversi tables, per phase:
//! - `positional`: one weight per symmetry class of cells (the triangle
//!   `row <= col < N/2` of the top-left quadrant); its multiplicity is the
//!   mover's discs minus the opponent's discs in that class.
//! - `mobility`: mover's legal moves minus the opponent's.
//! - `potential_mobility`: empty cells next to an opponent disc minus empty
//!   cells next to a mover disc.
//! - `parity`: +1 when the number of empty cells is odd (the mover would get
//!   the last move), -1 when it is even.
//! - the classic counts ([`ClassicCounts`](super::classic::ClassicCounts)),
//!   each the mover's minus the opponent's: `corners`; `x_squares` and
//!   `c_squares` next to an empty corner; `stable` discs; `frontier` discs;
//!   `discs`.
//! - one table per pattern shape, `3^cells` entries: the cells of an instance,
//!   in the shape's order, read as base-3 digits (first cell most
//!   significant; 0 empty, 1 mover, 2 opponent). Every symmetric instance of a
//!   shape (a rotation or reflection with a different cell set) reads the same
//!   table.
//!
//! Phases are buckets of the disc count, equally wide from the start position
//! to the full board, each with its own copy of every table.

pub use super::layout::TableSpec;
use super::layout::{Bounds, Layout};
use crate::Variant;
use std::fmt;
use std::str::FromStr;
use std::sync::OnceLock;

/// Largest number of cells in one pattern shape (tables have `3^10` entries).
pub const MAX_PATTERN_CELLS: usize = 10;

/// Longest edge or line segment a pattern covers: longer lines are covered by
/// overlapping segments from both ends.
const MAX_SEGMENT: usize = 8;

/// Shortest corner-cutting diagonal that gets its own pattern.
const MIN_DIAGONAL: usize = 4;

/// Bounds and tuner step of pattern table entries.
const PATTERN_BOUNDS: Bounds = (-4000, 4000, 1);
/// Bounds and tuner step of positional weights.
const POSITIONAL_BOUNDS: Bounds = (-2000, 2000, 1);
/// Bounds and tuner step of the per-move and per-cell scalar weights.
const SCALAR_BOUNDS: Bounds = (-500, 500, 1);
/// Bounds and tuner step of the parity weight.
const PARITY_BOUNDS: Bounds = (-1000, 1000, 1);

/// A pattern shape and the cells of each of its board instances.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PatternSpec {
    /// Index of the shape's table in [`Registry::tables`].
    pub table: usize,
    /// Cell indices (`row * N + col`) of every instance, each in the shape's
    /// digit order.
    pub instances: Vec<Vec<usize>>,
}

/// Every weight of one variant's pattern evaluation: its [`Layout`] (which
/// the registry dereferences to) and what each table reads on the board.
#[derive(Clone, Debug)]
pub struct Registry {
    /// The variant the registry describes.
    pub variant: Variant,
    /// Board side length.
    pub n: usize,
    /// Discs on the board at the start of a game.
    pub start_discs: usize,
    /// The weights: disc-count phases, tables, flat index.
    pub layout: Layout,
    /// The pattern shapes (tables from [`Registry::FIRST_PATTERN_TABLE`] on).
    pub patterns: Vec<PatternSpec>,
    /// Cells of each positional class, in table order.
    pub classes: Vec<Vec<usize>>,
}

impl std::ops::Deref for Registry {
    type Target = Layout;

    fn deref(&self) -> &Layout {
        &self.layout
    }
}

/// What a weight set is for: the pattern evaluation of a Reversi variant.
/// Names a weights file's `variant` line and the tuner's `--variant`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct WeightKey(pub Variant);

impl WeightKey {
    /// Every key, in [`Variant::ALL`] order.
    pub const ALL: [WeightKey; Variant::ALL.len()] = {
        let mut all = [WeightKey(Variant::ALL[0]); Variant::ALL.len()];
        let mut i = 0;
        while i < Variant::ALL.len() {
            all[i] = WeightKey(Variant::ALL[i]);
            i += 1;
        }
        all
    };

    /// The name on the command line and in weight files (the variant's).
    pub const fn name(self) -> &'static str {
        self.0.name()
    }

    /// The Reversi variant of the key.
    pub const fn variant(self) -> Variant {
        self.0
    }

    /// The layout of the key's weights.
    pub fn layout(self) -> &'static Layout {
        &Registry::of(self.0).layout
    }
}

impl From<Variant> for WeightKey {
    fn from(v: Variant) -> Self {
        WeightKey(v)
    }
}

impl fmt::Display for WeightKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for WeightKey {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        s.parse().map(WeightKey).map_err(|_| {
            let names: Vec<_> = Self::ALL.iter().map(|k| k.name()).collect();
            format!("unknown variant `{s}`: expected one of {}", names.join(", "))
        })
    }
}

/// Index of the `positional` table.
pub const POSITIONAL: usize = 0;
/// Index of the `mobility` table.
pub const MOBILITY: usize = 1;
/// Index of the `potential_mobility` table.
pub const POTENTIAL_MOBILITY: usize = 2;
/// Index of the `parity` table.
pub const PARITY: usize = 3;
/// Index of the `corners` table.
pub const CORNERS: usize = 4;
/// Index of the `x_squares` table.
pub const X_SQUARES: usize = 5;
/// Index of the `c_squares` table.
pub const C_SQUARES: usize = 6;
/// Index of the `stable` table.
pub const STABLE: usize = 7;
/// Index of the `frontier` table.
pub const FRONTIER: usize = 8;
/// Index of the `discs` table.
pub const DISCS: usize = 9;

/// The eight symmetries of the square, applied to (row, col) on an `n` board.
pub(crate) const fn transform(n: usize, sym: usize, (r, c): (usize, usize)) -> (usize, usize) {
    let (r, c) = if sym & 4 != 0 { (c, r) } else { (r, c) };
    let r = if sym & 1 != 0 { n - 1 - r } else { r };
    let c = if sym & 2 != 0 { n - 1 - c } else { c };
    (r, c)
}

/// The pattern shapes of an `n` board, in the top-left corner's frame:
/// (name, cells in digit order).
fn shapes(n: usize) -> Vec<(String, Vec<(usize, usize)>)> {
    let seg = n.min(MAX_SEGMENT);
    let mut out = Vec::new();
    let mut edge: Vec<_> = (0..seg).map(|c| (0, c)).collect();
    edge.push((1, 1));
    if seg == n {
        edge.push((1, n - 2));
    }
    out.push(("edge_x".to_string(), edge));
    out.push(("corner3x3".to_string(), (0..9).map(|i| (i / 3, i % 3)).collect()));
    if n >= 6 {
        out.push(("corner2x5".to_string(), (0..10).map(|i| (i / 5, i % 5)).collect()));
    }
    out.push(("row2".to_string(), (0..seg).map(|c| (1, c)).collect()));
    for k in MIN_DIAGONAL..=seg {
        out.push((format!("diag{k}"), (0..k).map(|i| (i, k - 1 - i)).collect()));
    }
    if n > MAX_SEGMENT {
        out.push((format!("diag_x{MAX_SEGMENT}"), (0..MAX_SEGMENT).map(|i| (i, i)).collect()));
    }
    out
}

/// The digit permutations under which the shape `cells` (an `n` board)
/// maps onto itself: `perm[j]` is the digit that cell `j` lands on. The
/// identity is among them.
fn self_symmetries(n: usize, cells: &[(usize, usize)]) -> Vec<Vec<usize>> {
    let mut perms: Vec<Vec<usize>> = (0..8)
        .filter_map(|sym| cells.iter().map(|&rc| cells.iter().position(|&c| c == transform(n, sym, rc))).collect())
        .collect();
    // Symmetries that fix every cell of the shape are its identity.
    perms.sort_unstable();
    perms.dedup();
    perms
}

/// The canonical entry of every entry of the table of shape `cells`: the
/// smallest entry that one of the shape's own symmetries maps it to (an
/// orbit's entries describe the same cells seen from the other side).
/// `None` for a shape with no symmetry of its own.
fn canonical_entries(n: usize, cells: &[(usize, usize)]) -> Option<Vec<u32>> {
    let perms = self_symmetries(n, cells);
    if perms.len() == 1 {
        return None;
    }
    let k = cells.len();
    // The place value each digit lands on, per symmetry.
    let places: Vec<Vec<u32>> =
        perms.iter().map(|perm| perm.iter().map(|&to| 3u32.pow((k - 1 - to) as u32)).collect()).collect();
    let mut digits = vec![0u32; k];
    (0..3u32.pow(k as u32))
        .map(|entry| {
            let mut rest = entry;
            for d in digits.iter_mut().rev() {
                *d = rest % 3;
                rest /= 3;
            }
            places.iter().map(|place| digits.iter().zip(place).map(|(d, p)| d * p).sum::<u32>()).min().unwrap_or(entry)
        })
        .collect::<Vec<u32>>()
        .into()
}

/// Number of phases of a variant: more for the boards that matter most.
const fn phase_count(variant: Variant) -> usize {
    match variant {
        Variant::Tiny4 => 2,
        Variant::Othello6 | Variant::Othello10 | Variant::Othello12 => 4,
        Variant::Othello8 | Variant::Duo12 => 6,
    }
}

impl Registry {
    /// Index in [`Registry::tables`] of the first pattern table.
    pub const FIRST_PATTERN_TABLE: usize = 10;

    /// The registry of `variant` (built once, then shared).
    pub fn of(variant: Variant) -> &'static Registry {
        static ALL: [OnceLock<Registry>; Variant::ALL.len()] = [const { OnceLock::new() }; Variant::ALL.len()];
        let slot = Variant::ALL.iter().position(|&v| v == variant).expect("every variant is in Variant::ALL");
        ALL[slot].get_or_init(|| Registry::build(variant))
    }

    fn build(variant: Variant) -> Registry {
        let n = variant.size();
        let h = n / 2;
        let mut layout = Layout::new(phase_count(variant));
        let mut add = |name: &str, len: usize, bounds: Bounds| layout.push(name, len, bounds);
        add("positional", h * (h + 1) / 2, POSITIONAL_BOUNDS);
        add("mobility", 1, SCALAR_BOUNDS);
        add("potential_mobility", 1, SCALAR_BOUNDS);
        add("parity", 1, PARITY_BOUNDS);
        add("corners", 1, POSITIONAL_BOUNDS);
        add("x_squares", 1, POSITIONAL_BOUNDS);
        add("c_squares", 1, POSITIONAL_BOUNDS);
        add("stable", 1, POSITIONAL_BOUNDS);
        add("frontier", 1, SCALAR_BOUNDS);
        add("discs", 1, SCALAR_BOUNDS);
        let mut patterns = Vec::new();
        let mut orbit_maps = Vec::new();
        for (name, cells) in shapes(n) {
            debug_assert!(cells.len() <= MAX_PATTERN_CELLS);
            let table = add(&name, 3usize.pow(cells.len() as u32), PATTERN_BOUNDS);
            let mut instances: Vec<Vec<usize>> = Vec::new();
            for sym in 0..8 {
                let inst: Vec<usize> = cells
                    .iter()
                    .map(|&rc| {
                        let (r, c) = transform(n, sym, rc);
                        r * n + c
                    })
                    .collect();
                let mut set = inst.clone();
                set.sort_unstable();
                if !instances.iter().any(|other| {
                    let mut o = other.clone();
                    o.sort_unstable();
                    o == set
                }) {
                    instances.push(inst);
                }
            }
            patterns.push(PatternSpec { table, instances });
            if let Some(canonical) = canonical_entries(n, &cells) {
                orbit_maps.push((table, canonical));
            }
        }
        for (table, canonical) in orbit_maps {
            layout.set_canonical(table, canonical);
        }
        let mut classes = vec![Vec::new(); h * (h + 1) / 2];
        for cell in 0..n * n {
            let (r, c) = (cell / n, cell % n);
            let (r, c) = (r.min(n - 1 - r), c.min(n - 1 - c));
            classes[class_index(h, r.min(c), r.max(c))].push(cell);
        }
        let start_discs = variant.start_discs() as usize;
        Registry { variant, n, start_discs, layout, patterns, classes }
    }

    /// The phase of a position with `discs` discs on the board.
    pub fn phase_of(&self, discs: usize) -> usize {
        let span = self.n * self.n + 1 - self.start_discs;
        (discs.saturating_sub(self.start_discs) * self.phases / span).min(self.phases - 1)
    }

    /// The positional class of the quadrant cell (`r`, `c`), `r <= c < N/2`.
    pub fn class_of(&self, r: usize, c: usize) -> usize {
        class_index(self.n / 2, r, c)
    }
}

/// Index of the quadrant-triangle cell (`a`, `b`), `a <= b < h`, in row
/// order: row `i` of the triangle holds the `h - i` cells `b = i..h`.
const fn class_index(h: usize, a: usize, b: usize) -> usize {
    a * h - a * a.saturating_sub(1) / 2 + (b - a)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layouts_are_contiguous_and_classes_partition_the_board() {
        for v in Variant::ALL {
            let reg = Registry::of(v);
            let mut next = 0;
            for t in &reg.tables {
                assert_eq!(t.offset, next, "{v} {}", t.name);
                next += t.len;
            }
            assert_eq!(next, reg.phase_len);
            let mut seen = vec![0; reg.n * reg.n];
            for class in &reg.classes {
                assert!(!class.is_empty(), "{v}: empty positional class");
                for &c in class {
                    seen[c] += 1;
                }
            }
            assert!(seen.iter().all(|&k| k == 1), "{v}: classes do not partition the board");
            // The corner is class 0 and has 4 cells.
            assert_eq!(reg.classes[reg.class_of(0, 0)].len(), 4);
            for p in &reg.patterns {
                let len = reg.tables[p.table].len;
                for inst in &p.instances {
                    assert_eq!(3usize.pow(inst.len() as u32), len);
                    let mut s = inst.clone();
                    s.sort_unstable();
                    s.dedup();
                    assert_eq!(s.len(), inst.len(), "{v}: repeated cell in {}", reg.tables[p.table].name);
                    assert!(s.iter().all(|&c| c < reg.n * reg.n));
                }
            }
            assert_eq!(
                reg.locate(reg.index(reg.phases - 1, reg.tables.len() - 1, 7)),
                (reg.phases - 1, reg.tables.len() - 1, 7)
            );
        }
    }

    #[test]
    fn instances_follow_the_board_symmetries() {
        let reg = Registry::of(Variant::Othello8);
        let count =
            |name: &str| reg.patterns.iter().find(|p| reg.tables[p.table].name == name).unwrap().instances.len();
        // A full edge with both X-squares is mirror-symmetric: one per side.
        assert_eq!(count("edge_x"), 4);
        assert_eq!(count("corner3x3"), 4);
        assert_eq!(count("corner2x5"), 8);
        assert_eq!(count("diag8"), 2);
        assert_eq!(count("diag4"), 4);
        let duo = Registry::of(Variant::Duo12);
        let count =
            |name: &str| duo.patterns.iter().find(|p| duo.tables[p.table].name == name).unwrap().instances.len();
        // 12-cell edges are covered by two 8-cell segments, one from each corner.
        assert_eq!(count("edge_x"), 8);
        assert_eq!(count("diag_x8"), 4);
    }

    #[test]
    fn self_symmetric_shapes_pack_to_their_orbit_counts() {
        let packed = |v: Variant, name: &str| {
            let reg = Registry::of(v);
            reg.tables[reg.table(name).unwrap()].packed_len()
        };
        // Burnside: a mirror that pairs p cells and fixes f leaves
        // (3^(2p+f) + 3^(p+f)) / 2 orbits.
        // The 8x8 edge with both X-squares: 5 pairs.
        assert_eq!(packed(Variant::Othello8, "edge_x"), (3usize.pow(10) + 3usize.pow(5)) / 2);
        // A corner 3x3 block under the diagonal: 3 pairs, 3 fixed cells.
        assert_eq!(packed(Variant::Othello8, "corner3x3"), (3usize.pow(9) + 3usize.pow(6)) / 2);
        // A corner-cutting diagonal of 8 and of 5 cells: 4 pairs; 2 pairs
        // and the middle cell.
        assert_eq!(packed(Variant::Othello8, "diag8"), (3usize.pow(8) + 3usize.pow(4)) / 2);
        assert_eq!(packed(Variant::Othello8, "diag5"), (3usize.pow(5) + 3usize.pow(3)) / 2);
        // The main diagonal's first 8 cells on 12x12 lie on the mirror line.
        assert_eq!(packed(Variant::Duo12, "diag_x8"), 3usize.pow(8));
        // An 8-cell segment of a 12-cell edge has no symmetry of its own.
        assert_eq!(packed(Variant::Duo12, "edge_x"), 3usize.pow(9));
        assert!(Registry::of(Variant::Duo12).tables.iter().find(|t| t.name == "edge_x").unwrap().canonical.is_none());
        // Each canonical entry is the smallest of its orbit, and an orbit's
        // entries read the same cells: mirroring the 8x8 edge's digits
        // (cells 0-7 reversed, the X-squares swapped) lands in the orbit.
        let reg = Registry::of(Variant::Othello8);
        let spec = &reg.tables[reg.table("edge_x").unwrap()];
        let digits_of = |e: usize| (0..10).map(|j| e / 3usize.pow(9 - j) % 3).collect::<Vec<_>>();
        let entry_of = |d: &[usize]| d.iter().fold(0, |acc, &x| acc * 3 + x);
        for e in [1usize, 2, 3 * 3 * 3, 12345, 59048] {
            let d = digits_of(e);
            let mut m: Vec<usize> = d[..8].iter().rev().copied().collect();
            m.extend([d[9], d[8]]);
            let mirrored = entry_of(&m);
            assert_eq!(spec.canonical_entry(e), e.min(mirrored), "entry {e}");
            assert_eq!(spec.canonical_entry(mirrored), e.min(mirrored), "entry {mirrored}");
        }
    }

    #[test]
    fn keys_parse_their_names_and_find_their_layouts() {
        for key in WeightKey::ALL {
            assert_eq!(key.name().parse::<WeightKey>(), Ok(key));
            assert!(!key.layout().is_empty(), "{key}");
        }
        assert_eq!(WeightKey::ALL.len(), Variant::ALL.len());
        let v = Variant::Duo12;
        assert!(std::ptr::eq(WeightKey::from(v).layout(), &Registry::of(v).layout));
        let e = "chess".parse::<WeightKey>().unwrap_err();
        assert!(e.starts_with("unknown variant `chess`") && e.ends_with("othello12, duo12"), "{e}");
    }

    #[test]
    fn phases_span_the_game() {
        for v in Variant::ALL {
            let reg = Registry::of(v);
            assert_eq!(reg.phase_of(reg.start_discs), 0);
            assert_eq!(reg.phase_of(reg.n * reg.n), reg.phases - 1);
            let mut last = 0;
            for d in 0..=reg.n * reg.n {
                let p = reg.phase_of(d);
                assert!(p == last || p == last + 1);
                last = p;
            }
        }
    }
}

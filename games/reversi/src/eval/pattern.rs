//! The pattern evaluation: a sum of weights over the features of a position,
//! linear in the weights.
//!
//! [`Features`] turns a position into its active (weight index,
//! multiplicity) pairs following the [`Registry`] layout; [`PatternEval`]
//! adds the weights of a [`WeightSet`] over the same pairs, so
//! `evaluate(pos) == Σ weights[index] * multiplicity` exactly, with no
//! scaling: weights are in [`SCORE_PER_DISC`](super::SCORE_PER_DISC) units.
//! One traversal ([`Features::visit`]) serves both, so they cannot disagree.
//!
//! In a search the pattern indices are not read at the horizon but kept up
//! to date move by move ([`PatternTrail`], the evaluation's
//! [`Evaluator::Trail`]): a move adds each changed cell's place value to
//! the indices of the instances through it, from both colours' sides. The
//! trail also keeps the stable discs of its first position, from which the
//! stable discs of every later one grow in fewer rounds.
//!
//! The positional weights need no reading of their own where a pattern
//! covers their class ([`ClassFold`]: every class on 8x8, all but two on
//! 12x12): [`PatternEval`] adds them into that pattern's table entries when
//! it is made, so the evaluation is the same sum with fewer reads, and the
//! trail then keeps no class counts.

use super::Evaluator;
use super::classic::ClassicCounts;
use super::registry::{
    C_SQUARES, CORNERS, DISCS, FRONTIER, MAX_PATTERN_CELLS, MOBILITY, PARITY, POSITIONAL, POTENTIAL_MOBILITY, Registry,
    STABLE, X_SQUARES,
};
use super::weights::{WeightSet, compiled};
use crate::{
    CornerRegion, Geometry, Move, Position, Variant, corner_regions, legal_moves_with, neighbours, stable_discs,
};
use engine_core::bitboard::{BitSet, Isa, Portable};
use engine_core::game::Color;
use engine_core::memory::PageArray;
use std::borrow::Cow;
use std::path::Path;

/// Words of the widest board's bit set (12x12: 3).
const MAX_WORDS: usize = 3;

/// Most pattern instances on any board (duo12 has 52).
const MAX_INSTANCES: usize = 64;

/// Most positional classes on any board (12x12 has 21).
const MAX_CLASSES: usize = 32;

/// One number for each pattern instance, in slot order: the instances'
/// indices read from one side, or one cell's place value in each instance
/// (0 where the instance does not read the cell). Whole views are added
/// lane by lane, which the compiler turns into a few vector instructions
/// (a cache line each, hence the alignment).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(64))]
struct View([u16; MAX_INSTANCES]);

impl View {
    /// Every lane 0.
    const ZERO: View = View([0; MAX_INSTANCES]);

    /// Adds `other` lane by lane.
    #[inline(always)]
    fn add(&mut self, other: &View) {
        for (lane, &x) in self.0.iter_mut().zip(&other.0) {
            *lane = lane.wrapping_add(x);
        }
    }

    /// Adds `other` twice lane by lane.
    #[inline(always)]
    fn add_twice(&mut self, other: &View) {
        for (lane, &x) in self.0.iter_mut().zip(&other.0) {
            *lane = lane.wrapping_add(x << 1);
        }
    }

    /// Subtracts `other` lane by lane.
    #[inline(always)]
    fn sub(&mut self, other: &View) {
        for (lane, &x) in self.0.iter_mut().zip(&other.0) {
            *lane = lane.wrapping_sub(x);
        }
    }
}

/// What a trail keeps of one position: every pattern instance's index read
/// from each colour's side, and Black's discs less White's in each
/// positional class.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Tracked {
    /// Indexed by [`Color::index`]: a cell's digit is 1 for that colour's
    /// disc, 2 for the other colour's, 0 when empty.
    views: [View; 2],
    classes: [i8; MAX_CLASSES],
}

/// What one side sees of a position: the pattern indices read from its
/// side and Black's discs less White's in each positional class.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Seen {
    view: View,
    classes: [i8; MAX_CLASSES],
}

impl Tracked {
    /// What `side` sees of the position.
    #[inline(always)]
    fn seen_by(&self, side: Color) -> Seen {
        Seen { view: self.views[side.index()], classes: self.classes }
    }
}

/// The pattern indices and class counts of every position along a
/// search's line, the last one the current position's, and the stable
/// discs of the first: [`PatternEval`]'s [`Evaluator::Trail`].
#[derive(Clone, Debug, Default)]
pub struct PatternTrail<B> {
    stack: Vec<Tracked>,
    /// Indexed by [`Color::index`]: the stable discs of that colour in the
    /// trail's first position ([`crate::stable_discs_from`]).
    stable: [B; 2],
}

/// One active feature: the weight at `index` counts `multiplicity` times.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Feature {
    /// Flat weight index (see [`Registry::index`]).
    pub index: usize,
    /// How many times the weight counts (may be negative).
    pub multiplicity: i32,
}

/// Receives the features of a position.
trait Sink {
    fn add(&mut self, index: usize, multiplicity: i32);
}

/// Room for the weights of every variant's layout: a power of two, so
/// that a weight index masked by `WEIGHT_SLOTS - 1` is in bounds by its
/// type and the evaluation reads its weights without bounds checks.
const WEIGHT_SLOTS: usize = 1 << 20;

/// A variant's weights in registry order, then zeros up to [`WEIGHT_SLOTS`].
type PaddedWeights = [i16; WEIGHT_SLOTS];

/// [`PaddedWeights`] on pages of their own: one huge page where the
/// kernel offers it, as a phase's tables spread over hundreds of base pages
/// and the evaluation reads them at random (othello8 depth 12: 2.7% less
/// time, book: journal/search-speed.md, "The weights on a huge page").
struct Padded(PageArray<i16>);

impl Padded {
    /// `values` padded with zeros to [`WEIGHT_SLOTS`].
    ///
    /// # Panics
    /// When a layout outgrows [`WEIGHT_SLOTS`].
    fn of(values: &[i16]) -> Self {
        assert!(values.len() <= WEIGHT_SLOTS, "{} weights: more than WEIGHT_SLOTS", values.len());
        let mut all = Padded(PageArray::zeroed(WEIGHT_SLOTS));
        all.0[..values.len()].copy_from_slice(values);
        all
    }

    /// The weights.
    #[inline(always)]
    fn table(&self) -> &PaddedWeights {
        (&self.0[..]).try_into().expect("WEIGHT_SLOTS weights")
    }

    /// The weights, to change.
    fn table_mut(&mut self) -> &mut PaddedWeights {
        (&mut self.0[..]).try_into().expect("WEIGHT_SLOTS weights")
    }
}

impl std::fmt::Debug for Padded {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Padded({} weights)", self.0.len())
    }
}

/// Adds the positional weight of every class of `folds` to its pattern
/// table in `weights` (registry order, padded), phase by phase; `Err` when
/// an entry would leave the `i16` range (then `weights` is half folded).
fn fold_classes(registry: &Registry, folds: &[ClassFold], weights: &mut PaddedWeights) -> Result<(), ()> {
    for fold in folds {
        let balance = fold.disc_balance();
        for phase in 0..registry.phases {
            let base = phase * registry.phase_len;
            let weight = i32::from(weights[base + registry.tables[POSITIONAL].offset + fold.class]);
            let table = base + registry.tables[fold.table].offset;
            // Checked once per table, after the loop, so that it vectorizes.
            let mut out_of_range = false;
            for (slot, &discs) in weights[table..table + balance.len()].iter_mut().zip(&balance) {
                let sum = i32::from(*slot) + weight * i32::from(discs);
                out_of_range |= sum != i32::from(sum as i16);
                *slot = sum as i16;
            }
            if out_of_range {
                return Err(());
            }
        }
    }
    Ok(())
}

/// Sums weights: the evaluation.
struct Sum<'a> {
    weights: &'a PaddedWeights,
    /// The number of real weights (the rest is padding).
    len: usize,
    total: i32,
}

impl Sink for Sum<'_> {
    #[inline(always)]
    fn add(&mut self, index: usize, multiplicity: i32) {
        debug_assert!(index < self.len, "weight index {index} beyond the layout's {}", self.len);
        self.total += i32::from(self.weights[index & (WEIGHT_SLOTS - 1)]) * multiplicity;
    }
}

impl Sink for Vec<Feature> {
    #[inline]
    fn add(&mut self, index: usize, multiplicity: i32) {
        if multiplicity != 0 {
            self.push(Feature { index, multiplicity });
        }
    }
}

/// Hands each non-zero feature to a closure.
struct Each<F>(F);

impl<F: FnMut(usize, i32)> Sink for Each<F> {
    #[inline(always)]
    fn add(&mut self, index: usize, multiplicity: i32) {
        if multiplicity != 0 {
            (self.0)(index, multiplicity);
        }
    }
}

/// One pattern instance: the (word, bit) of each cell in digit order and the
/// table offset within a phase.
#[derive(Clone, Copy, Debug)]
struct Instance {
    offset: u32,
    len: u8,
    cells: [(u8, u8); MAX_PATTERN_CELLS],
}

/// The cells of one pattern instance within one board word, read with one
/// PEXT per side: `ternary[table + pext(word, mask)]` is those cells' share
/// of the instance's index when the extracted bits are the side's discs.
#[derive(Clone, Copy, Debug, Default)]
struct PextPart {
    word: u8,
    mask: u64,
    table: u32,
}

/// One pattern instance read word by word with PEXT.
#[derive(Clone, Copy, Debug)]
struct PextInstance {
    offset: u32,
    parts: u8,
    part: [PextPart; MAX_WORDS],
}

/// The PEXT form of a [`Features`]' pattern instances, with the tables that
/// turn extracted bits into base-3 digits in the pattern's digit order.
#[derive(Clone, Debug, Default)]
struct PextPatterns {
    instances: Vec<PextInstance>,
    /// The tables of every part, one after another, identical ones shared.
    ternary: Vec<u16>,
}

impl PextPatterns {
    /// The PEXT form of `instances`.
    fn new(instances: &[Instance]) -> Self {
        let mut out = PextPatterns::default();
        let mut shared: std::collections::HashMap<Vec<u16>, u32> = std::collections::HashMap::new();
        for inst in instances {
            let cells = &inst.cells[..inst.len as usize];
            let mut pext = PextInstance { offset: inst.offset, parts: 0, part: [PextPart::default(); MAX_WORDS] };
            for word in 0..MAX_WORDS as u8 {
                // Digit `d` (0 first, the most significant) of each cell in
                // this word, in ascending bit order: the order PEXT packs.
                let mut digits: Vec<(u8, usize)> =
                    cells.iter().enumerate().filter(|(_, c)| c.0 == word).map(|(d, c)| (c.1, d)).collect();
                if digits.is_empty() {
                    continue;
                }
                digits.sort_unstable();
                let mask = digits.iter().fold(0u64, |m, &(bit, _)| m | 1 << bit);
                let place = |d: usize| 3u16.pow((cells.len() - 1 - d) as u32);
                let table: Vec<u16> = (0..1usize << digits.len())
                    .map(|bits| {
                        digits.iter().enumerate().filter(|(j, _)| bits >> j & 1 == 1).map(|(_, &(_, d))| place(d)).sum()
                    })
                    .collect();
                let start = *shared.entry(table).or_insert_with_key(|table| {
                    out.ternary.extend_from_slice(table);
                    (out.ternary.len() - table.len()) as u32
                });
                pext.part[pext.parts as usize] = PextPart { word, mask, table: start };
                pext.parts += 1;
            }
            out.instances.push(pext);
        }
        out
    }
}

/// The feature extractor of one variant on geometry `G`, precomputed from
/// its [`Registry`].
#[derive(Clone, Debug)]
pub struct Features<G: Geometry> {
    registry: &'static Registry,
    /// Phase of each disc count `0..=N*N`.
    phase_of: Vec<u8>,
    /// Cells of each positional class.
    classes: Vec<G::Bits>,
    /// The positional class of each cell.
    class_of: Vec<u8>,
    /// The corner regions the classic counts read.
    corners: [CornerRegion<G::Bits>; 4],
    /// Pattern instances, sorted by length.
    instances: Vec<Instance>,
    /// `by_len[k]`: the range of `instances` of length `k`.
    by_len: [(usize, usize); MAX_PATTERN_CELLS + 1],
    /// The same instances, read with PEXT where it is fast.
    pext: PextPatterns,
    /// Table offset of each instance, in `instances` order (its slot).
    offsets: Vec<u32>,
    /// The place value of each cell in every instance (by slot).
    places: Vec<View>,
    /// The cells some instance reads.
    covered: G::Bits,
    /// Every positional class, in table order (what a feature listing feeds).
    all_classes: Vec<u8>,
    /// The positional classes an evaluation can fold into pattern tables.
    folds: Vec<ClassFold>,
    /// The weight offset within a phase of each scalar feature table.
    scalar: ScalarOffsets,
}

/// Where a positional class's weight can live inside a pattern table: the
/// cells at `digits` of every instance of the pattern whose table is
/// `table` are exactly the class's cells, each once, so adding the class's
/// weight to each entry once per such digit that holds a disc (plus for the
/// mover's, minus for the opponent's) counts every disc of the class once,
/// as the positional feature does.
#[derive(Clone, Debug, PartialEq, Eq)]
struct ClassFold {
    class: usize,
    table: usize,
    /// Cells of the pattern (its table has `3^cells` entries).
    cells: usize,
    digits: Vec<usize>,
}

impl ClassFold {
    /// The class's disc balance (the mover's discs minus the opponent's on
    /// `digits`) in every entry of the pattern's table, built digit by digit
    /// from the most significant: linear in the table's length.
    fn disc_balance(&self) -> Vec<i8> {
        /// A digit's disc, from the mover's side: none, the mover's, the opponent's.
        const DISC_SIGN: [i8; 3] = [0, 1, -1];
        let mut balance = vec![0i8];
        for digit in 0..self.cells {
            let signs = if self.digits.contains(&digit) { DISC_SIGN } else { [0; 3] };
            balance = balance.iter().flat_map(|&b| signs.map(|s| b + s)).collect();
        }
        balance
    }
}

/// The weight offset within a phase of each scalar feature's table.
#[derive(Clone, Copy, Debug)]
struct ScalarOffsets {
    positional: usize,
    mobility: usize,
    potential_mobility: usize,
    parity: usize,
    corners: usize,
    x_squares: usize,
    c_squares: usize,
    stable: usize,
    frontier: usize,
    discs: usize,
}

impl ScalarOffsets {
    /// The offsets of `registry`'s tables.
    fn of(registry: &Registry) -> Self {
        let at = |table: usize| registry.tables[table].offset;
        ScalarOffsets {
            positional: at(POSITIONAL),
            mobility: at(MOBILITY),
            potential_mobility: at(POTENTIAL_MOBILITY),
            parity: at(PARITY),
            corners: at(CORNERS),
            x_squares: at(X_SQUARES),
            c_squares: at(C_SQUARES),
            stable: at(STABLE),
            frontier: at(FRONTIER),
            discs: at(DISCS),
        }
    }
}

/// The fold of each positional class of `registry` that has one (see
/// [`ClassFold`]): the first pattern, in registry order, some of whose digit
/// positions cover the class exactly once.
fn class_folds(registry: &Registry) -> Vec<ClassFold> {
    let mut folds = Vec::new();
    for (class, cells) in registry.classes.iter().enumerate() {
        let mut wanted: Vec<usize> = cells.clone();
        wanted.sort_unstable();
        'patterns: for pattern in &registry.patterns {
            let Some(first) = pattern.instances.first() else { continue };
            let mut covered: Vec<usize> = Vec::new();
            let mut digits = Vec::new();
            for digit in 0..first.len() {
                let mut at: Vec<usize> = pattern.instances.iter().map(|inst| inst[digit]).collect();
                at.sort_unstable();
                let distinct = at.windows(2).all(|w| w[0] != w[1]);
                let inside = at.iter().all(|c| wanted.binary_search(c).is_ok());
                let fresh = at.iter().all(|c| !covered.contains(c));
                if distinct && inside && fresh {
                    covered.extend(&at);
                    digits.push(digit);
                    if covered.len() == wanted.len() {
                        folds.push(ClassFold { class, table: pattern.table, cells: first.len(), digits });
                        break 'patterns;
                    }
                }
            }
        }
    }
    folds
}

impl<G: Geometry> Features<G> {
    /// The extractor for `variant`, whose board must be `G`.
    pub fn new(variant: Variant) -> Self {
        assert_eq!(variant.size(), G::N, "variant {variant} is not played on this geometry");
        let registry = Registry::of(variant);
        let phase_of = (0..=G::CELLS).map(|d| registry.phase_of(d) as u8).collect();
        let classes = registry
            .classes
            .iter()
            .map(|cells| cells.iter().fold(G::Bits::EMPTY, |b, &c| b | G::Bits::bit(c)))
            .collect();
        let mut class_of = vec![0u8; G::CELLS];
        for (class, cells) in registry.classes.iter().enumerate() {
            for &cell in cells {
                class_of[cell] = class as u8;
            }
        }
        assert!(registry.classes.len() <= MAX_CLASSES, "{variant}: more positional classes than MAX_CLASSES");
        let mut instances = Vec::new();
        for p in &registry.patterns {
            let offset = registry.tables[p.table].offset as u32;
            for inst in &p.instances {
                let mut cells = [(0u8, 0u8); MAX_PATTERN_CELLS];
                for (slot, &c) in cells.iter_mut().zip(inst) {
                    *slot = ((c / 64) as u8, (c % 64) as u8);
                }
                instances.push(Instance { offset, len: inst.len() as u8, cells });
            }
        }
        instances.sort_by_key(|i| i.len);
        let mut by_len = [(0, 0); MAX_PATTERN_CELLS + 1];
        for (k, range) in by_len.iter_mut().enumerate() {
            let start = instances.partition_point(|i| (i.len as usize) < k);
            *range = (start, instances.partition_point(|i| (i.len as usize) <= k));
        }
        let pext = PextPatterns::new(&instances);
        assert!(instances.len() <= MAX_INSTANCES, "{variant}: more pattern instances than MAX_INSTANCES");
        let offsets = instances.iter().map(|i| i.offset).collect();
        let mut places = vec![View::ZERO; G::CELLS];
        let mut covered = G::Bits::EMPTY;
        for (cell, row) in places.iter_mut().enumerate() {
            let at = ((cell / 64) as u8, (cell % 64) as u8);
            for (slot, inst) in instances.iter().enumerate() {
                let cells = &inst.cells[..inst.len as usize];
                if let Some(d) = cells.iter().position(|&c| c == at) {
                    row.0[slot] = 3u16.pow((cells.len() - 1 - d) as u32);
                    covered |= G::Bits::bit(cell);
                }
            }
        }
        let all_classes = (0..registry.classes.len() as u8).collect();
        Features {
            folds: class_folds(registry),
            scalar: ScalarOffsets::of(registry),
            all_classes,
            registry,
            phase_of,
            classes,
            class_of,
            corners: corner_regions::<G>(),
            instances,
            by_len,
            pext,
            offsets,
            places,
            covered,
        }
    }

    /// The registry this extractor follows.
    pub fn registry(&self) -> &'static Registry {
        self.registry
    }

    /// Replaces `out` by the active features of `pos` (zero multiplicities
    /// left out; a pattern entry hit by several instances appears once per
    /// instance).
    pub fn features(&self, pos: &Position<G>, out: &mut Vec<Feature>) {
        out.clear();
        self.visit::<_, Portable>(pos, &self.all_classes, out);
    }

    /// Calls `each(index, multiplicity)` for every active feature of `pos`,
    /// in the order [`Features::features`] lists them, without allocating.
    pub fn for_each_feature(&self, pos: &Position<G>, each: impl FnMut(usize, i32)) {
        self.visit::<_, Portable>(pos, &self.all_classes, &mut Each(each));
    }

    /// Feeds every feature of `pos` to `sink`, computed with instruction
    /// set `I`, of the positional classes only `classes`.
    #[inline(always)]
    fn visit<S: Sink, I: Isa>(&self, pos: &Position<G>, classes: &[u8], sink: &mut S) {
        let base = self.phase_base(pos);
        let (me, you) = (pos.player(), pos.opponent());
        let positional = base + self.scalar.positional;
        for &i in classes {
            let class = self.classes[usize::from(i)];
            sink.add(positional + usize::from(i), (me & class).count() as i32 - (you & class).count() as i32);
        }
        self.visit_scalars::<S, I>(pos, base, (G::Bits::EMPTY, G::Bits::EMPTY), sink);
        let mut mine = [0u64; MAX_WORDS];
        let mut theirs = [0u64; MAX_WORDS];
        for w in 0..G::Bits::WORDS {
            mine[w] = me.word(w);
            theirs[w] = you.word(w);
        }
        let words = (&mine, &theirs);
        if I::fast_pext() {
            self.patterns_pext::<S, I>(words, base, sink);
            return;
        }
        self.patterns::<1, S>(words, base, sink);
        self.patterns::<2, S>(words, base, sink);
        self.patterns::<3, S>(words, base, sink);
        self.patterns::<4, S>(words, base, sink);
        self.patterns::<5, S>(words, base, sink);
        self.patterns::<6, S>(words, base, sink);
        self.patterns::<7, S>(words, base, sink);
        self.patterns::<8, S>(words, base, sink);
        self.patterns::<9, S>(words, base, sink);
        self.patterns::<10, S>(words, base, sink);
    }

    /// The weight index where the phase of `pos` starts.
    #[inline(always)]
    fn phase_base(&self, pos: &Position<G>) -> usize {
        let discs = G::CELLS - pos.empty_count() as usize;
        self.phase_of[discs] as usize * self.registry.phase_len
    }

    /// Feeds every feature of `pos` but the positional classes and the
    /// patterns to `sink`, in the phase starting at weight `base`, computed
    /// with instruction set `I`; `stable_seeds` are stable discs of the
    /// mover and the opponent known from an earlier position, or none.
    #[inline(always)]
    fn visit_scalars<S: Sink, I: Isa>(
        &self,
        pos: &Position<G>,
        base: usize,
        stable_seeds: (G::Bits, G::Bits),
        sink: &mut S,
    ) {
        let (me, you) = (pos.player(), pos.opponent());
        let empty = pos.empty();
        let at = &self.scalar;
        let mobility =
            legal_moves_with::<G, I>(me, you).count() as i32 - legal_moves_with::<G, I>(you, me).count() as i32;
        sink.add(base + at.mobility, mobility);
        let potential = neighbours::<G>(you, empty).count() as i32 - neighbours::<G>(me, empty).count() as i32;
        sink.add(base + at.potential_mobility, potential);
        let parity = if empty.count() % 2 == 1 { 1 } else { -1 };
        sink.add(base + at.parity, parity);
        let counts = ClassicCounts::of::<G>(&self.corners, me, you, stable_seeds);
        for (offset, count) in [
            (at.corners, counts.corners),
            (at.x_squares, counts.x_squares),
            (at.c_squares, counts.c_squares),
            (at.stable, counts.stable),
            (at.frontier, counts.frontier),
            (at.discs, counts.discs),
        ] {
            sink.add(base + offset, count);
        }
    }

    /// Feeds the pattern features and the positional ones of `classes` of
    /// a position whose side to move, of colour sign `sign`
    /// ([`Color::sign`]), sees `seen`, in the phase starting at weight
    /// `base`.
    #[inline(always)]
    fn seen_features<S: Sink>(&self, seen: &Seen, classes: &[u8], sign: i32, base: usize, sink: &mut S) {
        let positional = base + self.scalar.positional;
        for &i in classes {
            sink.add(positional + usize::from(i), sign * i32::from(seen.classes[usize::from(i)]));
        }
        for (&offset, &index) in self.offsets.iter().zip(&seen.view.0) {
            sink.add(base + (offset + u32::from(index)) as usize, 1);
        }
    }

    /// What the side to move after `mover` places a disc on `cell` and
    /// turns `flips` over sees, from `tracked` before the move: the one
    /// view of [`Features::advance`] an evaluation reads (with the class
    /// counts only when `classes`).
    #[inline(always)]
    fn seen_after(&self, tracked: &Tracked, mover: Color, cell: usize, flips: G::Bits, classes: bool) -> Seen {
        let mut seen = tracked.seen_by(mover.opponent());
        // The placed disc: digit 0 -> 2 from the opponent's side.
        seen.view.add_twice(&self.places[cell]);
        // A flipped disc: 1 -> 2 from the opponent's side.
        for flipped in (flips & self.covered).iter() {
            seen.view.add(&self.places[flipped]);
        }
        if classes {
            self.count_move(&mut seen.classes, mover, cell, flips);
        }
        seen
    }

    /// Updates the class counts `classes` for `mover` placing a disc on
    /// `cell` and turning `flips` over.
    #[inline(always)]
    fn count_move(&self, classes: &mut [i8; MAX_CLASSES], mover: Color, cell: usize, flips: G::Bits) {
        let sign = mover.sign() as i8;
        classes[usize::from(self.class_of[cell])] += sign;
        for flipped in flips.iter() {
            classes[usize::from(self.class_of[flipped])] += 2 * sign;
        }
    }

    /// The pattern indices and class counts of `pos`, read cell by cell.
    fn tracked(&self, pos: &Position<G>) -> Tracked {
        let side = |colour: Color| if pos.to_move() == colour { pos.player() } else { pos.opponent() };
        let (black, white) = (side(Color::Black), side(Color::White));
        let mut classes = [0i8; MAX_CLASSES];
        for (count, &class) in classes.iter_mut().zip(&self.classes) {
            *count = (black & class).count() as i8 - (white & class).count() as i8;
        }
        let mut views = [View::ZERO; 2];
        for (slot, inst) in self.instances.iter().enumerate() {
            for &(w, b) in &inst.cells[..inst.len as usize] {
                let cell = usize::from(w) * 64 + usize::from(b);
                let (from_black, from_white) = match (black.contains(cell), white.contains(cell)) {
                    (true, _) => (1, 2),
                    (_, true) => (2, 1),
                    _ => (0, 0),
                };
                views[0].0[slot] = views[0].0[slot] * 3 + from_black;
                views[1].0[slot] = views[1].0[slot] * 3 + from_white;
            }
        }
        Tracked { views, classes }
    }

    /// Updates `tracked` for `mover` placing a disc on `cell` and turning
    /// `flips` over; its class counts only when `classes` (an evaluation
    /// with every class folded reads none).
    #[inline(always)]
    fn advance(&self, tracked: &mut Tracked, mover: Color, cell: usize, flips: G::Bits, classes: bool) {
        if classes {
            self.count_move(&mut tracked.classes, mover, cell, flips);
        }
        let [black, white] = &mut tracked.views;
        let (mine, theirs) = if mover == Color::Black { (black, white) } else { (white, black) };
        // An empty cell becomes the mover's: digit 0 -> 1 on its side, 0 -> 2
        // on the other.
        mine.add(&self.places[cell]);
        theirs.add_twice(&self.places[cell]);
        // A flipped disc: 2 -> 1 on the mover's side, 1 -> 2 on the other.
        for flipped in (flips & self.covered).iter() {
            let row = &self.places[flipped];
            mine.sub(row);
            theirs.add(row);
        }
    }

    /// Feeds the pattern features of the `K`-cell instances (a loop of
    /// constant length, unrolled by the compiler).
    #[inline(always)]
    fn patterns<const K: usize, S: Sink>(&self, (mine, theirs): Words, base: usize, sink: &mut S) {
        let (start, end) = self.by_len[K];
        for inst in &self.instances[start..end] {
            let mut index = 0u32;
            for &(w, b) in &inst.cells[..K] {
                let (w, b) = (w as usize, b as u32);
                let digit = (mine[w] >> b & 1) | (theirs[w] >> b & 1) << 1;
                index = index * 3 + digit as u32;
            }
            sink.add(base + (inst.offset + index) as usize, 1);
        }
    }
}

impl<G: Geometry> Features<G> {
    /// Feeds the pattern features with two PEXTs and two table reads per
    /// instance and board word it covers.
    #[inline(always)]
    fn patterns_pext<S: Sink, I: Isa>(&self, (mine, theirs): Words, base: usize, sink: &mut S) {
        let ternary = &self.pext.ternary[..];
        for inst in &self.pext.instances {
            let mut index = 0u32;
            for part in &inst.part[..inst.parts as usize] {
                let (word, table) = (part.word as usize, part.table as usize);
                let me = ternary[table + I::pext(mine[word], part.mask) as usize];
                let you = ternary[table + I::pext(theirs[word], part.mask) as usize];
                index += u32::from(me) + 2 * u32::from(you);
            }
            sink.add(base + (inst.offset + index) as usize, 1);
        }
    }
}

/// The mover's and the opponent's bit-set words.
type Words<'a> = (&'a [u64; MAX_WORDS], &'a [u64; MAX_WORDS]);

/// The pattern evaluation of one variant: [`Features`] with a weight set.
#[derive(Debug)]
pub struct PatternEval<G: Geometry> {
    features: Features<G>,
    /// The weights in registry order (borrowed when compiled in).
    values: Cow<'static, [i16]>,
    /// The weights the evaluation reads: `values` padded, with the
    /// positional weights of the classes not in `summed` folded into the
    /// pattern tables ([`ClassFold`]).
    weights: Padded,
    /// The positional classes whose weights are read apart.
    summed: Vec<u8>,
}

impl<G: Geometry> Clone for PatternEval<G> {
    fn clone(&self) -> Self {
        let mut weights = Padded::of(&[]);
        weights.table_mut().copy_from_slice(self.weights.table());
        PatternEval {
            features: self.features.clone(),
            values: self.values.clone(),
            weights,
            summed: self.summed.clone(),
        }
    }
}

impl<G: Geometry> PatternEval<G> {
    /// The evaluation of `features` with `values` (registry order), padded.
    fn from_values(features: Features<G>, values: Cow<'static, [i16]>) -> Self {
        let mut weights = Padded::of(&values);
        let summed = match fold_classes(features.registry, &features.folds, weights.table_mut()) {
            Ok(()) => {
                let folded: Vec<usize> = features.folds.iter().map(|f| f.class).collect();
                features.all_classes.iter().copied().filter(|&c| !folded.contains(&usize::from(c))).collect()
            }
            Err(()) => {
                weights = Padded::of(&values);
                features.all_classes.clone()
            }
        };
        PatternEval { features, values, weights, summed }
    }

    /// True when the evaluation reads class counts (some class did not fold).
    #[inline(always)]
    fn reads_classes(&self) -> bool {
        !self.summed.is_empty()
    }

    /// What a trail keeps of `tracked`: without the class counts when the
    /// evaluation reads none.
    fn kept(&self, tracked: Tracked) -> Tracked {
        if self.reads_classes() { tracked } else { Tracked { classes: [0; MAX_CLASSES], ..tracked } }
    }

    /// A sum over these weights, at zero.
    #[inline(always)]
    fn sum(&self) -> Sum<'_> {
        Sum { weights: self.weights.table(), len: self.values.len(), total: 0 }
    }

    /// The evaluation with the variant's compiled-in weights.
    pub fn compiled(variant: Variant) -> Self {
        PatternEval::from_values(Features::new(variant), Cow::Borrowed(compiled(variant)))
    }

    /// The evaluation with `weights` (which must be for a variant on `G`).
    pub fn with_weights(weights: WeightSet) -> Self {
        let variant = weights.key.variant();
        PatternEval::from_values(Features::new(variant), Cow::Owned(weights.values))
    }

    /// The evaluation of `variant` with the weights file at `path`.
    pub fn from_file(variant: Variant, path: &Path) -> Result<Self, String> {
        let set = WeightSet::load(path)?;
        if set.key.variant() != variant {
            return Err(format!("{}: weights are for {}, expected {variant}", path.display(), set.key));
        }
        Ok(Self::with_weights(set))
    }

    /// The feature extractor.
    pub fn features(&self) -> &Features<G> {
        &self.features
    }

    /// The weights, in registry order.
    pub fn weights(&self) -> &[i16] {
        &self.values
    }
}

engine_core::cpu::multiversion! {
    /// Evaluates every position once with this copy's instructions; returns
    /// the sum of the scores.
    #[inline(never)]
    fn sum_evaluations<G: Geometry>(eval: &PatternEval<G>, positions: &[Position<G>]) -> i64 {
        positions.iter().map(|p| i64::from(eval.evaluate_on::<Simd>(std::hint::black_box(p)))).sum()
    }
}

impl<G: Geometry> PatternEval<G> {
    /// The sum of the evaluations of `positions`, computed on the code path
    /// the search takes on this CPU: what speed measurements time.
    pub fn evaluate_sum(&self, positions: &[Position<G>]) -> i64 {
        engine_core::cpu::dispatch!(sum_evaluations::<G>(self, positions))
    }
}

impl<G: Geometry> PatternEval<G> {
    /// The value of `pos`, whose side to move sees `seen`, with the stable
    /// discs grown from those of `trail`'s first position.
    #[inline(always)]
    fn evaluate_seen<I: Isa>(&self, trail: &PatternTrail<G::Bits>, seen: &Seen, pos: &Position<G>) -> i32 {
        let mut sum = self.sum();
        let base = self.features.phase_base(pos);
        self.features.seen_features(seen, &self.summed, pos.to_move().sign(), base, &mut sum);
        let seeds = (trail.stable[pos.to_move().index()], trail.stable[pos.to_move().opponent().index()]);
        self.features.visit_scalars::<_, I>(pos, base, seeds, &mut sum);
        sum.total
    }
}

impl<G: Geometry> Evaluator<Position<G>> for PatternEval<G> {
    type Trail = PatternTrail<G::Bits>;

    #[inline(always)]
    fn evaluate(&self, pos: &Position<G>) -> i32 {
        self.evaluate_on::<Portable>(pos)
    }

    fn trail_start(&self, trail: &mut PatternTrail<G::Bits>, root: &Position<G>) {
        trail.stack.clear();
        trail.stack.push(self.features.tracked(root));
        let (mine, theirs) = stable_discs::<G>(root.player(), root.opponent());
        trail.stable[root.to_move().index()] = mine;
        trail.stable[root.to_move().opponent().index()] = theirs;
    }

    #[inline(always)]
    fn trail_push(&self, trail: &mut PatternTrail<G::Bits>, after: &Position<G>, mv: Move<G>, before: &Position<G>) {
        let Some(&top) = trail.stack.last() else { return };
        trail.stack.push(top);
        if let Some(cell) = mv.cell()
            && let Some(tracked) = trail.stack.last_mut()
        {
            // The discs that were the opponent's and are now the mover's.
            let flips = after.opponent() & before.opponent();
            self.features.advance(tracked, before.to_move(), cell, flips, self.reads_classes());
        }
    }

    #[inline(always)]
    fn trail_pop(&self, trail: &mut PatternTrail<G::Bits>) {
        trail.stack.pop();
    }

    #[inline(always)]
    fn evaluate_trail_on<I: Isa>(&self, trail: &PatternTrail<G::Bits>, pos: &Position<G>) -> i32 {
        let Some(tracked) = trail.stack.last() else { return self.evaluate_on::<I>(pos) };
        debug_assert_eq!(
            self.kept(*tracked),
            self.kept(self.features.tracked(pos)),
            "the trail has lost its position\n{pos}"
        );
        self.evaluate_seen::<I>(trail, &tracked.seen_by(pos.to_move()), pos)
    }

    #[inline(always)]
    fn evaluate_after_on<I: Isa>(
        &self,
        trail: &mut PatternTrail<G::Bits>,
        after: &Position<G>,
        mv: Move<G>,
        before: &Position<G>,
    ) -> i32 {
        let Some(tracked) = trail.stack.last() else { return self.evaluate_on::<I>(after) };
        let seen = match mv.cell() {
            // The discs that were the opponent's and are now the mover's.
            Some(cell) => {
                let flips = after.opponent() & before.opponent();
                self.features.seen_after(tracked, before.to_move(), cell, flips, self.reads_classes())
            }
            None => tracked.seen_by(after.to_move()),
        };
        debug_assert_eq!(
            seen.view,
            self.features.tracked(after).views[after.to_move().index()],
            "the horizon reading has lost its position\n{after}"
        );
        self.evaluate_seen::<I>(trail, &seen, after)
    }

    #[inline(always)]
    fn evaluate_on<I: Isa>(&self, pos: &Position<G>) -> i32 {
        let mut sum = self.sum();
        self.features.visit::<_, I>(pos, &self.summed, &mut sum);
        sum.total
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Size4, Size6, Size8, Size10, Size12};
    use engine_core::game::Game;
    use engine_core::mix::SplitMix;
    use engine_core::playout::{random_line, random_move, random_playout};
    use rand::RngExt;

    /// Positions from random games of `variant`, every ply.
    fn random_positions<G: Geometry>(variant: Variant, games: usize, seed: u64) -> Vec<Position<G>> {
        let mut rng = SplitMix(seed);
        let mut out = Vec::new();
        for _ in 0..games {
            let end = random_playout(variant.start(), &mut rng, |pos: &Position<G>| {
                out.push(*pos);
                true
            });
            out.push(end);
        }
        out
    }

    /// Random weights within each table's bounds.
    fn random_weights(variant: Variant, seed: u64) -> WeightSet {
        let reg = Registry::of(variant);
        let mut rng = SplitMix(seed);
        let mut values = Vec::with_capacity(reg.len());
        for _ in 0..reg.phases {
            for t in &reg.tables {
                values.extend((0..t.len).map(|_| rng.random_range(t.min..=t.max) as i16));
            }
        }
        WeightSet { key: variant.into(), values }
    }

    fn check_linear<G: Geometry>(variant: Variant) {
        let eval = PatternEval::<G>::with_weights(random_weights(variant, 7));
        let compiled = PatternEval::<G>::compiled(variant);
        let mut feats = Vec::new();
        for pos in random_positions::<G>(variant, 4, 11) {
            eval.features().features(&pos, &mut feats);
            let dot: i64 = feats.iter().map(|f| i64::from(eval.weights()[f.index]) * i64::from(f.multiplicity)).sum();
            assert_eq!(i64::from(eval.evaluate(&pos)), dot, "{variant}\n{pos}");
            let dot: i64 =
                feats.iter().map(|f| i64::from(compiled.weights()[f.index]) * i64::from(f.multiplicity)).sum();
            assert_eq!(i64::from(compiled.evaluate(&pos)), dot, "{variant}\n{pos}");
            let mut each = Vec::new();
            eval.features().for_each_feature(&pos, |index, multiplicity| each.push(Feature { index, multiplicity }));
            assert_eq!(each, feats, "{variant}\n{pos}");
        }
    }

    /// Runs `check::<G>(variant)` for every Reversi variant on its board.
    macro_rules! on_every_board {
        ($check:ident) => {
            $check::<Size4>(Variant::Tiny4);
            $check::<Size6>(Variant::Othello6);
            $check::<Size8>(Variant::Othello8);
            $check::<Size10>(Variant::Othello10);
            $check::<Size12>(Variant::Othello12);
            $check::<Size12>(Variant::Duo12);
        };
    }

    #[test]
    fn evaluation_is_features_dot_weights_on_every_board() {
        on_every_board!(check_linear);
    }

    /// On 8x8 the corner, edge, line and diagonal patterns cover every
    /// positional class (book: engine/evaluation.md, "Reading a position"),
    /// so the evaluation reads no class counts there.
    #[test]
    fn every_positional_class_folds_into_a_pattern_on_8x8() {
        let eight = PatternEval::<Size8>::compiled(Variant::Othello8);
        assert!(eight.summed.is_empty(), "othello8 sums classes {:?} apart", eight.summed);
        assert!(!eight.reads_classes());
    }

    #[test]
    fn a_fold_that_leaves_the_i16_range_is_not_made() {
        // Pattern entries at the top of the range and positive positional
        // weights: folding would overflow, so the classes are summed apart
        // and the evaluation is still the dot product.
        let variant = Variant::Othello8;
        let reg = Registry::of(variant);
        let mut set = random_weights(variant, 9);
        for phase in 0..reg.phases {
            for (t, table) in reg.tables.iter().enumerate() {
                let value = if t == POSITIONAL {
                    100
                } else if t >= Registry::FIRST_PATTERN_TABLE {
                    i16::MAX
                } else {
                    continue;
                };
                let start = phase * reg.phase_len + table.offset;
                set.values[start..start + table.len].fill(value);
            }
        }
        let eval = PatternEval::<Size8>::with_weights(set);
        assert_eq!(eval.summed.len(), reg.classes.len());
        let mut feats = Vec::new();
        for pos in random_positions::<Size8>(variant, 2, 19) {
            eval.features().features(&pos, &mut feats);
            let dot: i64 = feats.iter().map(|f| i64::from(eval.weights()[f.index]) * i64::from(f.multiplicity)).sum();
            assert_eq!(i64::from(eval.evaluate(&pos)), dot, "{pos}");
        }
    }

    /// Plays random games forward and back through a trail started at the
    /// start or after a random opening (so that it holds stable discs): the
    /// trail's evaluation, and each move's horizon reading
    /// ([`Evaluator::evaluate_after_on`]), equal the one read afresh at
    /// every position.
    fn check_trail<G: Geometry>(variant: Variant) {
        let eval = PatternEval::<G>::with_weights(random_weights(variant, 5));
        let mut rng = SplitMix(17);
        for game in 0..8 {
            let opening = if game < 2 { 0 } else { rng.random_range(0..G::CELLS * 3 / 4) };
            let mut pos: Position<G> = random_line(variant.start(), opening as u32, &mut rng);
            let mut trail = PatternTrail::default();
            eval.trail_start(&mut trail, &pos);
            let mut line = Vec::new();
            while !pos.is_terminal() {
                let mv = random_move(&pos, &mut rng).expect("an unfinished game has a move");
                let undo = pos.make(mv);
                let depth = trail.stack.len();
                let after = eval.evaluate_after_on::<Portable>(&mut trail, &pos, mv, &undo);
                assert_eq!(after, eval.evaluate(&pos), "{variant}: the horizon reading\n{pos}");
                assert_eq!(trail.stack.len(), depth, "the horizon reading leaves the trail as it was");
                eval.trail_push(&mut trail, &pos, mv, &undo);
                line.push((mv, undo));
                assert_eq!(eval.evaluate_trail_on::<Portable>(&trail, &pos), eval.evaluate(&pos), "{variant}\n{pos}");
            }
            while let Some((mv, undo)) = line.pop() {
                pos.unmake(mv, undo);
                eval.trail_pop(&mut trail);
                assert_eq!(eval.evaluate_trail_on::<Portable>(&trail, &pos), eval.evaluate(&pos), "{variant}\n{pos}");
            }
            assert_eq!(trail.stack.len(), 1);
        }
    }

    #[test]
    fn a_trail_evaluates_as_a_fresh_reading_on_every_board() {
        on_every_board!(check_trail);
    }

    /// PEXT in plain Rust, declared fast: the PEXT reading on any CPU.
    #[derive(Clone, Copy, Debug)]
    enum SoftPext {}

    impl Isa for SoftPext {
        type Four<const W: usize> = engine_core::bitboard::Four<W>;
        fn fast_pext() -> bool {
            true
        }
    }

    fn check_pext<G: Geometry>(variant: Variant) {
        let eval = PatternEval::<G>::with_weights(random_weights(variant, 3));
        for pos in random_positions::<G>(variant, 4, 13) {
            let cells = eval.evaluate_on::<Portable>(&pos);
            assert_eq!(eval.evaluate_on::<SoftPext>(&pos), cells, "{variant}\n{pos}");
            #[cfg(target_arch = "x86_64")]
            if engine_core::cpu::has_avx512_path() {
                // SAFETY: the CPU has the features of the avx512 copy.
                let on = |p: &Position<G>| unsafe { avx512_eval(&eval, p) };
                assert_eq!(on(&pos), cells, "{variant}\n{pos}");
            }
        }
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,lzcnt,avx512f,avx512vl,avx512vbmi2,avx512vpopcntdq")]
    fn avx512_eval<G: Geometry>(eval: &PatternEval<G>, pos: &Position<G>) -> i32 {
        eval.evaluate_on::<engine_core::bitboard::avx2::Avx512>(pos)
    }

    #[test]
    fn reading_patterns_with_pext_gives_the_same_evaluation() {
        on_every_board!(check_pext);
    }

    #[test]
    fn software_pext_packs_the_masked_bits_in_order() {
        assert_eq!(engine_core::bitboard::pext_portable(0b1011_0110, 0b1111_0000), 0b1011);
        assert_eq!(engine_core::bitboard::pext_portable(0b1011_0110, 0b0101_0101), 0b0110);
        assert_eq!(engine_core::bitboard::pext_portable(u64::MAX, 1 << 63 | 1), 0b11);
        assert_eq!(engine_core::bitboard::pext_portable(0, u64::MAX), 0);
    }

    /// Feature multiplicities match counts taken by hand from the rules.
    #[test]
    fn features_count_what_the_rules_say() {
        let pos: Position<Size8> = Variant::Othello8.start();
        let reg = Registry::of(Variant::Othello8);
        let feats = {
            let mut f = Vec::new();
            Features::<Size8>::new(Variant::Othello8).features(&pos, &mut f);
            f
        };
        let sum_of = |table: usize| -> i32 {
            let t = &reg.tables[table];
            feats
                .iter()
                .filter(|f| (t.offset..t.offset + t.len).contains(&(f.index % reg.phase_len)))
                .map(|f| f.multiplicity)
                .sum()
        };
        // Start: 4 legal moves each side, even empties, two discs each.
        assert_eq!(sum_of(MOBILITY), 0);
        assert_eq!(sum_of(PARITY), -1);
        assert_eq!(sum_of(POSITIONAL), 0);
        // Every pattern instance appears once, with multiplicity 1.
        let instances: usize = reg.patterns.iter().map(|p| p.instances.len()).sum();
        let pattern_hits: i32 =
            feats.iter().filter(|f| f.index % reg.phase_len >= reg.tables[4].offset).map(|f| f.multiplicity).sum();
        assert_eq!(pattern_hits as usize, instances);
        // A lone mover disc in the corner a1, reading edge_x from a1: the
        // first digit (most significant) is 1.
        let corner = Position::<Size8>::from_discs(
            <Size8 as Geometry>::Bits::bit(0),
            <Size8 as Geometry>::Bits::bit(9 * 3),
            engine_core::game::Color::Black,
            Variant::Othello8.scoring(),
        );
        let mut f = Vec::new();
        Features::<Size8>::new(Variant::Othello8).features(&corner, &mut f);
        let edge = &reg.tables[reg.table("edge_x").unwrap()];
        let phase = reg.phase_of(2) * reg.phase_len;
        assert!(f.contains(&Feature { index: phase + edge.offset + 3usize.pow(9), multiplicity: 1 }));
        let corner_class = reg.index(reg.phase_of(2), POSITIONAL, reg.class_of(0, 0));
        assert!(f.contains(&Feature { index: corner_class, multiplicity: 1 }));
    }

    fn evals_per_second<G: Geometry>(variant: Variant) -> f64 {
        let eval = PatternEval::<G>::compiled(variant);
        let positions = random_positions::<G>(variant, 20, 5);
        let timer = engine_core::cputime::CpuTimer::start();
        let (mut count, mut sink) = (0usize, 0i64);
        while timer.elapsed().as_secs_f64() < 0.5 {
            sink = sink.wrapping_add(eval.evaluate_sum(&positions));
            count += positions.len();
        }
        std::hint::black_box(sink);
        count as f64 / timer.elapsed().as_secs_f64()
    }

    /// Measures evaluations per CPU second on positions of random games
    /// (`cargo test -p reversi --release --lib evaluation_speed -- --ignored --nocapture`).
    #[test]
    #[ignore = "measurement, not a check"]
    fn evaluation_speed() {
        let rates = [
            (Variant::Tiny4, evals_per_second::<Size4>(Variant::Tiny4)),
            (Variant::Othello6, evals_per_second::<Size6>(Variant::Othello6)),
            (Variant::Othello8, evals_per_second::<Size8>(Variant::Othello8)),
            (Variant::Othello10, evals_per_second::<Size10>(Variant::Othello10)),
            (Variant::Othello12, evals_per_second::<Size12>(Variant::Othello12)),
            (Variant::Duo12, evals_per_second::<Size12>(Variant::Duo12)),
        ];
        for (v, r) in rates {
            println!("{:10} {:>6.2} M evaluations/s ({:.0} ns each)", v.name(), r / 1e6, 1e9 / r);
        }
    }
}

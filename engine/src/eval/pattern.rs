//! The pattern evaluation: a sum of weights over the features of a position,
//! linear in the weights.
//!
//! [`Features`] turns a position into its active (weight index,
//! multiplicity) pairs following the [`Registry`] layout; [`PatternEval`]
//! adds the weights of a [`WeightSet`] over the same pairs, so
//! `evaluate(pos) == Σ weights[index] * multiplicity` exactly, with no
//! scaling: weights are in [`SCORE_PER_DISC`](super::SCORE_PER_DISC) units.
//! One traversal ([`Features::visit`]) serves both, so they cannot disagree.

use super::Evaluator;
use super::classic::ClassicCounts;
use super::registry::{
    C_SQUARES, CORNERS, DISCS, FRONTIER, MAX_PATTERN_CELLS, MOBILITY, PARITY, POSITIONAL, POTENTIAL_MOBILITY, Registry,
    STABLE, X_SQUARES,
};
use super::weights::{WeightSet, compiled};
use crate::bitboard::{BitSet, Isa, Portable};
use crate::reversi::{CornerRegion, Geometry, Position, Variant, corner_regions, neighbours};
use std::borrow::Cow;
use std::path::Path;

/// Words of the widest board's bit set (12x12: 3).
const MAX_WORDS: usize = 3;

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

/// Sums weights: the evaluation.
struct Sum<'a> {
    weights: &'a [i16],
    total: i32,
}

impl Sink for Sum<'_> {
    #[inline(always)]
    fn add(&mut self, index: usize, multiplicity: i32) {
        self.total += i32::from(self.weights[index]) * multiplicity;
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
    /// The corner regions the classic counts read.
    corners: [CornerRegion<G::Bits>; 4],
    /// Pattern instances, sorted by length.
    instances: Vec<Instance>,
    /// `by_len[k]`: the range of `instances` of length `k`.
    by_len: [(usize, usize); MAX_PATTERN_CELLS + 1],
    /// The same instances, read with PEXT where it is fast.
    pext: PextPatterns,
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
        Features { registry, phase_of, classes, corners: corner_regions::<G>(), instances, by_len, pext }
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
        self.visit::<_, Portable>(pos, out);
    }

    /// Calls `each(index, multiplicity)` for every active feature of `pos`,
    /// in the order [`Features::features`] lists them, without allocating.
    pub fn for_each_feature(&self, pos: &Position<G>, each: impl FnMut(usize, i32)) {
        self.visit::<_, Portable>(pos, &mut Each(each));
    }

    /// Feeds every feature of `pos` to `sink`, computed with instruction
    /// set `I`.
    #[inline(always)]
    fn visit<S: Sink, I: Isa>(&self, pos: &Position<G>, sink: &mut S) {
        let (me, you) = (pos.player(), pos.opponent());
        let empty = pos.empty();
        let discs = G::CELLS - empty.count() as usize;
        let base = self.phase_of[discs] as usize * self.registry.phase_len;
        let tables = &self.registry.tables;

        let positional = base + tables[POSITIONAL].offset;
        for (i, &class) in self.classes.iter().enumerate() {
            sink.add(positional + i, (me & class).count() as i32 - (you & class).count() as i32);
        }
        let mobility = pos.moves().count() as i32 - pos.opponent_moves().count() as i32;
        sink.add(base + tables[MOBILITY].offset, mobility);
        let potential = neighbours::<G>(you, empty).count() as i32 - neighbours::<G>(me, empty).count() as i32;
        sink.add(base + tables[POTENTIAL_MOBILITY].offset, potential);
        let parity = if empty.count() % 2 == 1 { 1 } else { -1 };
        sink.add(base + tables[PARITY].offset, parity);
        let counts = ClassicCounts::of::<G>(&self.corners, me, you);
        for (table, count) in [
            (CORNERS, counts.corners),
            (X_SQUARES, counts.x_squares),
            (C_SQUARES, counts.c_squares),
            (STABLE, counts.stable),
            (FRONTIER, counts.frontier),
            (DISCS, counts.discs),
        ] {
            sink.add(base + tables[table].offset, count);
        }

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
#[derive(Clone, Debug)]
pub struct PatternEval<G: Geometry> {
    features: Features<G>,
    weights: Cow<'static, [i16]>,
}

impl<G: Geometry> PatternEval<G> {
    /// The evaluation with the variant's compiled-in weights.
    pub fn compiled(variant: Variant) -> Self {
        PatternEval { features: Features::new(variant), weights: Cow::Borrowed(compiled(variant)) }
    }

    /// The evaluation with `weights` (which must be for a variant on `G`).
    pub fn with_weights(weights: WeightSet) -> Self {
        let variant = weights.variant().expect("Reversi weights for a Reversi evaluation");
        PatternEval { features: Features::new(variant), weights: Cow::Owned(weights.values) }
    }

    /// The evaluation of `variant` with the weights file at `path`.
    pub fn from_file(variant: Variant, path: &Path) -> Result<Self, String> {
        let set = WeightSet::load(path)?;
        if set.variant() != Some(variant) {
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
        &self.weights
    }
}

crate::cpu::multiversion! {
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
        crate::cpu::dispatch!(sum_evaluations::<G>(self, positions))
    }
}

impl<G: Geometry> Evaluator<Position<G>> for PatternEval<G> {
    #[inline(always)]
    fn evaluate(&self, pos: &Position<G>) -> i32 {
        self.evaluate_on::<Portable>(pos)
    }

    #[inline(always)]
    fn evaluate_on<I: Isa>(&self, pos: &Position<G>) -> i32 {
        let mut sum = Sum { weights: &self.weights, total: 0 };
        self.features.visit::<_, I>(pos, &mut sum);
        sum.total
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::reversi::{Size4, Size6, Size8, Size10, Size12};
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// Positions from random games of `variant`, every ply.
    fn random_positions<G: Geometry>(variant: Variant, games: usize, seed: u64) -> Vec<Position<G>> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut out = Vec::new();
        for _ in 0..games {
            let mut pos: Position<G> = variant.start();
            while !pos.is_terminal() {
                out.push(pos);
                let moves = pos.legal_moves();
                pos = pos.play(moves[rng.random_range(0..moves.len())]);
            }
            out.push(pos);
        }
        out
    }

    /// Random weights within each table's bounds.
    fn random_weights(variant: Variant, seed: u64) -> WeightSet {
        let reg = Registry::of(variant);
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
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

    /// PEXT in plain Rust, declared fast: the PEXT reading on any CPU.
    #[derive(Clone, Copy, Debug)]
    enum SoftPext {}

    impl Isa for SoftPext {
        type Four<const W: usize> = crate::bitboard::Four<W>;
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
            if crate::cpu::has_avx512_path() {
                // SAFETY: the CPU has the features of the avx512 copy.
                let on = |p: &Position<G>| unsafe { avx512_eval(&eval, p) };
                assert_eq!(on(&pos), cells, "{variant}\n{pos}");
            }
        }
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,lzcnt,avx512f,avx512vl,avx512vbmi2,avx512vpopcntdq")]
    fn avx512_eval<G: Geometry>(eval: &PatternEval<G>, pos: &Position<G>) -> i32 {
        eval.evaluate_on::<crate::bitboard::avx2::Avx512>(pos)
    }

    #[test]
    fn reading_patterns_with_pext_gives_the_same_evaluation() {
        on_every_board!(check_pext);
    }

    #[test]
    fn software_pext_packs_the_masked_bits_in_order() {
        assert_eq!(crate::bitboard::pext_portable(0b1011_0110, 0b1111_0000), 0b1011);
        assert_eq!(crate::bitboard::pext_portable(0b1011_0110, 0b0101_0101), 0b0110);
        assert_eq!(crate::bitboard::pext_portable(u64::MAX, 1 << 63 | 1), 0b11);
        assert_eq!(crate::bitboard::pext_portable(0, u64::MAX), 0);
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
            crate::game::Color::Black,
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
        let timer = crate::cputime::CpuTimer::start();
        let (mut count, mut sink) = (0usize, 0i64);
        while timer.elapsed().as_secs_f64() < 0.5 {
            sink = sink.wrapping_add(eval.evaluate_sum(&positions));
            count += positions.len();
        }
        std::hint::black_box(sink);
        count as f64 / timer.elapsed().as_secs_f64()
    }

    /// Measures evaluations per CPU second on positions of random games
    /// (`cargo test -p engine --release --lib evaluation_speed -- --ignored --nocapture`).
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

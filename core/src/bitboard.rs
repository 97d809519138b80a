//! Fixed-width bit sets: the storage layer under every board.
//!
//! [`BitSet`] is the one interface the rules are written against. It is
//! implemented by `u64` (boards up to 8x8) and by [`Bits`], a
//! `#[repr(transparent)]` array of `u64` words (10x10 and 12x12). Every method
//! is `#[inline(always)]` so that, once the rules are monomorphised for a board
//! size, shift amounts and masks are compile-time constants.
//!
//! [`Lanes`] adds a four-wide form of every set ([`Four`]): four sets side by
//! side, each shifted by its own amount. The Reversi kernels walk four
//! directions at once through it; inside a function compiled with AVX2 (see
//! `reversi::cpu`) the [`Isa`] `Avx2` keeps each word of the four lanes in one
//! 256-bit register.

use std::fmt::Debug;
use std::hash::Hash;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Sub};

/// A set of cell indices `0..BITS`, with bitwise set operators.
///
/// `a - b` is set difference (`a & !b`).
pub trait BitSet:
    Copy
    + Eq
    + Hash
    + Debug
    + Default
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + Sub<Output = Self>
    + BitAndAssign
    + BitOrAssign
    + BitXorAssign
{
    /// Number of bits the set can hold.
    const BITS: usize;
    /// The empty set.
    const EMPTY: Self;

    /// The set holding only `index`.
    fn bit(index: usize) -> Self;
    /// Number of members.
    fn count(self) -> u32;
    /// True when the set has no member.
    fn is_empty(self) -> bool;
    /// True when `index` is a member.
    fn contains(self, index: usize) -> bool;
    /// Smallest member; meaningless on the empty set.
    fn lowest(self) -> usize;
    /// The set without its smallest member.
    fn without_lowest(self) -> Self;
    /// Every member moved up by `n` places (members past `BITS` are lost).
    fn shl(self, n: u32) -> Self;
    /// Every member moved down by `n` places (members below 0 are lost).
    fn shr(self, n: u32) -> Self;
    /// Word `i` of the representation (bits `64 * i .. 64 * i + 64`).
    fn word(self, i: usize) -> u64;
    /// Number of 64-bit words in the representation.
    const WORDS: usize;
    /// Builds a set from its 64-bit words, low word first.
    fn from_words(words: &[u64]) -> Self;

    /// True when the set has at least one member.
    #[inline(always)]
    fn any(self) -> bool {
        !self.is_empty()
    }

    /// Iterator over the members in increasing order.
    #[inline(always)]
    fn iter(self) -> Members<Self> {
        Members::new(self)
    }
}

/// Iterator over the members of a [`BitSet`], smallest first. It walks one
/// 64-bit word at a time, so the word in hand stays in a register.
#[derive(Clone, Copy, Debug)]
pub struct Members<B> {
    set: B,
    /// The members of word `index` not yet returned.
    word: u64,
    index: usize,
}

impl<B: BitSet> Members<B> {
    #[inline(always)]
    fn new(set: B) -> Self {
        Members { set, word: set.word(0), index: 0 }
    }
}

impl<B: BitSet> Iterator for Members<B> {
    type Item = usize;

    #[inline(always)]
    fn next(&mut self) -> Option<usize> {
        while self.word == 0 {
            self.index += 1;
            if self.index >= B::WORDS {
                return None;
            }
            self.word = self.set.word(self.index);
        }
        let member = self.index * 64 + self.word.trailing_zeros() as usize;
        self.word &= self.word - 1;
        Some(member)
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let later: u32 = (self.index + 1..B::WORDS).map(|k| self.set.word(k).count_ones()).sum();
        let n = (self.word.count_ones() + later) as usize;
        (n, Some(n))
    }
}

impl<B: BitSet> ExactSizeIterator for Members<B> {}

/// A bit set of `64 * W` bits stored as `W` little-endian `u64` words.
#[repr(transparent)]
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Bits<const W: usize>(pub [u64; W]);

impl<const W: usize> Default for Bits<W> {
    #[inline(always)]
    fn default() -> Self {
        Bits([0; W])
    }
}

impl<const W: usize> Bits<W> {
    /// The set whose members are the indices `0..n`.
    pub const fn low_bits(n: usize) -> Self {
        let mut words = [0u64; W];
        let mut i = 0;
        while i < W {
            let lo = i * 64;
            words[i] = if n >= lo + 64 {
                u64::MAX
            } else if n > lo {
                (1u64 << (n - lo)) - 1
            } else {
                0
            };
            i += 1;
        }
        Bits(words)
    }
}

macro_rules! wide_binop {
    ($tr:ident, $f:ident, $atr:ident, $af:ident, $op:tt) => {
        impl<const W: usize> $atr for Bits<W> {
            #[inline(always)]
            fn $af(&mut self, rhs: Self) {
                for (word, r) in self.0.iter_mut().zip(rhs.0) {
                    *word $op r;
                }
            }
        }
        impl<const W: usize> $tr for Bits<W> {
            type Output = Self;
            #[inline(always)]
            fn $f(mut self, rhs: Self) -> Self {
                $atr::$af(&mut self, rhs);
                self
            }
        }
    };
}

wide_binop!(BitAnd, bitand, BitAndAssign, bitand_assign, &=);
wide_binop!(BitOr, bitor, BitOrAssign, bitor_assign, |=);
wide_binop!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^=);

impl<const W: usize> Not for Bits<W> {
    type Output = Self;
    #[inline(always)]
    fn not(self) -> Self {
        Bits(self.0.map(|w| !w))
    }
}

impl<const W: usize> Sub for Bits<W> {
    type Output = Self;
    #[inline(always)]
    fn sub(self, rhs: Self) -> Self {
        self & !rhs
    }
}

impl<const W: usize> BitSet for Bits<W> {
    const BITS: usize = 64 * W;
    const EMPTY: Self = Bits([0; W]);
    const WORDS: usize = W;

    #[inline(always)]
    fn bit(index: usize) -> Self {
        // Selected word by word (no indexed store), so the set stays in
        // registers instead of being built in memory and reloaded.
        Bits(std::array::from_fn(|k| if k == index / 64 { 1 << (index % 64) } else { 0 }))
    }
    #[inline(always)]
    fn count(self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }
    #[inline(always)]
    fn is_empty(self) -> bool {
        self.0.iter().fold(0, |acc, w| acc | w) == 0
    }
    #[inline(always)]
    fn contains(self, index: usize) -> bool {
        self.0[index / 64] >> (index % 64) & 1 != 0
    }
    #[inline(always)]
    fn lowest(self) -> usize {
        let mut i = 0;
        while i + 1 < W && self.0[i] == 0 {
            i += 1;
        }
        i * 64 + self.0[i].trailing_zeros() as usize
    }
    #[inline(always)]
    fn without_lowest(self) -> Self {
        let mut words = self.0;
        let mut i = 0;
        while i < W {
            if words[i] != 0 {
                words[i] &= words[i] - 1;
                break;
            }
            i += 1;
        }
        Bits(words)
    }
    #[inline(always)]
    fn shl(self, n: u32) -> Self {
        debug_assert!(n < 64);
        let mut out = [0u64; W];
        out[0] = self.0[0] << n;
        let mut i = 1;
        while i < W {
            out[i] = (self.0[i] << n) | (self.0[i - 1] >> (64 - n));
            i += 1;
        }
        Bits(out)
    }
    #[inline(always)]
    fn shr(self, n: u32) -> Self {
        debug_assert!(n < 64);
        let mut out = [0u64; W];
        let mut i = 0;
        while i + 1 < W {
            out[i] = (self.0[i] >> n) | (self.0[i + 1] << (64 - n));
            i += 1;
        }
        out[W - 1] = self.0[W - 1] >> n;
        Bits(out)
    }
    #[inline(always)]
    fn word(self, i: usize) -> u64 {
        self.0[i]
    }
    #[inline(always)]
    fn from_words(words: &[u64]) -> Self {
        let mut out = [0; W];
        out.copy_from_slice(&words[..W]);
        Bits(out)
    }
}

/// A [`BitSet`] that also has a four-lane form, for running one computation
/// on four sets at once.
pub trait Lanes: BitSet {
    /// Four sets of this type side by side, computed with instruction set `I`.
    type Four<I: Isa>: FourSets<Set = Self>;
}

/// The code path whose `cpu::multiversion!` copies compute with
/// instruction set `I` (the copy a function generic on `I` should call).
#[inline(always)]
pub fn code_path_of<I: Isa>() -> crate::cpu::CodePath {
    use std::any::TypeId;
    #[cfg(target_arch = "x86_64")]
    {
        if TypeId::of::<I>() == TypeId::of::<avx2::Avx512>() {
            return crate::cpu::CodePath::Avx512;
        }
        if TypeId::of::<I>() == TypeId::of::<avx2::Avx2>() {
            return crate::cpu::CodePath::Fast;
        }
    }
    crate::cpu::CodePath::Portable
}

/// An instruction set the four-lane forms are computed with.
pub trait Isa: Copy + Debug + Send + Sync + 'static {
    /// Four [`Bits<W>`] side by side.
    type Four<const W: usize>: FourSets<Set = Bits<W>>;

    /// True when [`Isa::pext`] is one fast instruction on the running CPU,
    /// so that gathering cells with it beats reading them one by one.
    #[inline(always)]
    fn fast_pext() -> bool {
        false
    }

    /// The bits of `x` at the set bits of `mask`, packed into the low bits
    /// in ascending order (BMI2's PEXT).
    #[inline(always)]
    fn pext(x: u64, mask: u64) -> u64 {
        pext_portable(x, mask)
    }
}

/// [`Isa::pext`] in plain Rust: one step per set bit of `mask`.
#[inline]
pub const fn pext_portable(x: u64, mut mask: u64) -> u64 {
    let mut out = 0;
    let mut bit = 1;
    while mask != 0 {
        if x & mask & mask.wrapping_neg() != 0 {
            out |= bit;
        }
        mask &= mask - 1;
        bit <<= 1;
    }
    out
}

/// Plain Rust that runs on any CPU (the compiler may still vectorise it).
/// A type-level marker: it has no values.
#[derive(Clone, Copy, Debug)]
pub enum Portable {}

impl Isa for Portable {
    type Four<const W: usize> = Four<W>;
}

/// Four bit sets processed side by side: every operator acts lane by lane.
pub trait FourSets:
    Copy + Debug + BitAnd<Output = Self> + BitOr<Output = Self> + Sub<Output = Self> + BitAndAssign + BitOrAssign
{
    /// The set type of one lane.
    type Set: BitSet;
    /// The same set in every lane.
    fn splat(set: Self::Set) -> Self;
    /// The four sets, lane 0 first.
    fn from_sets(sets: [Self::Set; 4]) -> Self;
    /// The set in lane `i`.
    fn lane(self, i: usize) -> Self::Set;
    /// Lane `i` moved up by `n[i]` places, each `n[i]` in `1..64`.
    fn shl_each(self, n: [u32; 4]) -> Self;
    /// Lane `i` moved down by `n[i]` places, each `n[i]` in `1..64`.
    fn shr_each(self, n: [u32; 4]) -> Self;
    /// The union of the four lanes.
    fn union(self) -> Self::Set;
    /// The union of the four lanes, in every lane.
    fn spread(self) -> Self;
}

/// Four [`Bits<W>`] side by side in plain Rust, word-major: `self.0[k][i]`
/// is word `k` of lane `i`.
#[repr(C, align(32))]
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Four<const W: usize>(pub [[u64; 4]; W]);

impl<const W: usize> Lanes for Bits<W> {
    type Four<I: Isa> = I::Four<W>;
}

/// Applies `$f(word_a, word_b)` to the words of every lane.
macro_rules! four_binop {
    ($tr:ident, $f:ident, $atr:ident, $af:ident, $op:tt) => {
        impl<const W: usize> $atr for Four<W> {
            #[inline(always)]
            fn $af(&mut self, rhs: Self) {
                for k in 0..W {
                    for i in 0..4 {
                        self.0[k][i] $op rhs.0[k][i];
                    }
                }
            }
        }
        impl<const W: usize> $tr for Four<W> {
            type Output = Self;
            #[inline(always)]
            fn $f(mut self, rhs: Self) -> Self {
                $atr::$af(&mut self, rhs);
                self
            }
        }
    };
}

four_binop!(BitAnd, bitand, BitAndAssign, bitand_assign, &=);
four_binop!(BitOr, bitor, BitOrAssign, bitor_assign, |=);

impl<const W: usize> Sub for Four<W> {
    type Output = Self;
    #[inline(always)]
    fn sub(mut self, rhs: Self) -> Self {
        for k in 0..W {
            for i in 0..4 {
                self.0[k][i] &= !rhs.0[k][i];
            }
        }
        self
    }
}

impl<const W: usize> FourSets for Four<W> {
    type Set = Bits<W>;

    #[inline(always)]
    fn splat(set: Bits<W>) -> Self {
        Four(set.0.map(|word| [word; 4]))
    }
    #[inline(always)]
    fn from_sets(sets: [Bits<W>; 4]) -> Self {
        let mut out = [[0; 4]; W];
        for (k, words) in out.iter_mut().enumerate() {
            *words = sets.map(|set| set.0[k]);
        }
        Four(out)
    }
    #[inline(always)]
    fn lane(self, i: usize) -> Bits<W> {
        Bits(self.0.map(|words| words[i]))
    }
    // Word `k` takes the bits carried out of word `k - 1` (or `k + 1`).
    #[allow(clippy::needless_range_loop)]
    #[inline(always)]
    fn shl_each(self, n: [u32; 4]) -> Self {
        debug_assert!(n.iter().all(|&n| (1..64).contains(&n)));
        let mut out = [[0; 4]; W];
        for k in 0..W {
            for i in 0..4 {
                out[k][i] = self.0[k][i] << n[i];
                if k > 0 {
                    out[k][i] |= self.0[k - 1][i] >> (64 - n[i]);
                }
            }
        }
        Four(out)
    }
    // Word `k` takes the bits carried out of word `k - 1` (or `k + 1`).
    #[allow(clippy::needless_range_loop)]
    #[inline(always)]
    fn shr_each(self, n: [u32; 4]) -> Self {
        debug_assert!(n.iter().all(|&n| (1..64).contains(&n)));
        let mut out = [[0; 4]; W];
        for k in 0..W {
            for i in 0..4 {
                out[k][i] = self.0[k][i] >> n[i];
                if k + 1 < W {
                    out[k][i] |= self.0[k + 1][i] << (64 - n[i]);
                }
            }
        }
        Four(out)
    }
    #[inline(always)]
    fn union(self) -> Bits<W> {
        Bits(self.0.map(|[a, b, c, d]| (a | b) | (c | d)))
    }
    #[inline(always)]
    fn spread(self) -> Self {
        Self::splat(self.union())
    }
}

/// The AVX2 form of the four-lane sets: each word of the four lanes is one
/// 256-bit register.
///
/// Only code compiled with AVX2 enabled may be instantiated with [`Avx2`]
/// (with AVX-512 VL/VBMI2 for [`Avx512`]), and only run where the CPU has
/// it: the `fast` (`avx512`) copy of a `cpu::multiversion!` function, which
/// names it `Simd`.
#[cfg(target_arch = "x86_64")]
pub mod avx2 {
    use super::{BitAnd, BitAndAssign, BitOr, BitOrAssign, Bits, FourSets, Isa, Sub};
    use core::arch::x86_64::{
        __m256i, _mm_cvtsi128_si64, _mm_or_si128, _mm_unpackhi_epi64, _mm256_and_si256, _mm256_andnot_si256,
        _mm256_castsi256_si128, _mm256_extracti128_si256, _mm256_or_si256, _mm256_permute4x64_epi64, _mm256_set_epi64x,
        _mm256_set1_epi64x, _mm256_setzero_si256, _mm256_shldv_epi64, _mm256_shrdv_epi64, _mm256_shuffle_epi32,
        _mm256_sllv_epi64, _mm256_srlv_epi64, _pext_u64,
    };

    /// AVX2 instructions (see the module documentation for when they may be
    /// used). A type-level marker with no values, so no code can hold a
    /// capability it was not compiled for.
    #[derive(Clone, Copy, Debug)]
    pub enum Avx2 {}

    impl Isa for Avx2 {
        type Four<const W: usize> = FourAvx2<W, false>;

        /// BMI2 is there, but AMD before Zen 3 runs PEXT as slow microcode.
        #[inline(always)]
        fn fast_pext() -> bool {
            crate::cpu::pext_is_fast()
        }

        #[inline(always)]
        fn pext(x: u64, mask: u64) -> u64 {
            bmi2_pext(x, mask)
        }
    }

    /// BMI2's PEXT, for both instruction sets of this module.
    #[inline(always)]
    fn bmi2_pext(x: u64, mask: u64) -> u64 {
        // SAFETY: this module's sets run only on CPUs with BMI2 (module
        // documentation).
        unsafe { _pext_u64(x, mask) }
    }

    /// AVX2 plus AVX-512 VL and VBMI2: a shift that carries across words is
    /// one funnel shift per word, and the compiler merges logic into
    /// three-input instructions. Only for the `avx512` copy of a
    /// `cpu::multiversion!` function.
    #[derive(Clone, Copy, Debug)]
    pub enum Avx512 {}

    impl Isa for Avx512 {
        type Four<const W: usize> = FourAvx2<W, true>;

        /// Every CPU with these AVX-512 extensions runs PEXT in one fast step.
        #[inline(always)]
        fn fast_pext() -> bool {
            true
        }

        #[inline(always)]
        fn pext(x: u64, mask: u64) -> u64 {
            bmi2_pext(x, mask)
        }
    }

    /// Four [`Bits<W>`] side by side: register `k` holds word `k` of each
    /// lane. `FUNNEL` selects the AVX-512 VBMI2 funnel shifts.
    #[derive(Clone, Copy, Debug)]
    pub struct FourAvx2<const W: usize, const FUNNEL: bool>([__m256i; W]);

    /// Runs an AVX2 intrinsic.
    macro_rules! avx2 {
        ($e:expr) => {
            // SAFETY: `FourAvx2` only exists inside code compiled for and run
            // on CPUs with AVX2 (module documentation).
            unsafe { $e }
        };
    }

    /// `[f(0), f(1), ..]` for the `W` words, as a plain loop. Everything in
    /// this module avoids closures handed to library functions (`map`,
    /// `from_fn`): when such a function is not inlined, the closure is
    /// compiled without AVX2 and every intrinsic in it becomes a call.
    macro_rules! per_word {
        ($w:expr, |$k:ident| $body:expr) => {{
            let mut out = [avx2!(_mm256_setzero_si256()); $w];
            let mut $k = 0;
            while $k < $w {
                out[$k] = $body;
                $k += 1;
            }
            out
        }};
    }

    /// The four amounts as a vector, lane 0 first.
    #[inline(always)]
    fn amounts(n: [u32; 4]) -> __m256i {
        avx2!(_mm256_set_epi64x(n[3] as i64, n[2] as i64, n[1] as i64, n[0] as i64))
    }

    /// `64 - n` for each of the four amounts, as a vector.
    #[inline(always)]
    fn carries(n: [u32; 4]) -> __m256i {
        amounts([64 - n[0], 64 - n[1], 64 - n[2], 64 - n[3]])
    }

    impl<const W: usize, const FUNNEL: bool> BitAnd for FourAvx2<W, FUNNEL> {
        type Output = Self;
        #[inline(always)]
        fn bitand(self, rhs: Self) -> Self {
            FourAvx2(per_word!(W, |k| avx2!(_mm256_and_si256(self.0[k], rhs.0[k]))))
        }
    }

    impl<const W: usize, const FUNNEL: bool> BitOr for FourAvx2<W, FUNNEL> {
        type Output = Self;
        #[inline(always)]
        fn bitor(self, rhs: Self) -> Self {
            FourAvx2(per_word!(W, |k| avx2!(_mm256_or_si256(self.0[k], rhs.0[k]))))
        }
    }

    impl<const W: usize, const FUNNEL: bool> Sub for FourAvx2<W, FUNNEL> {
        type Output = Self;
        #[inline(always)]
        fn sub(self, rhs: Self) -> Self {
            FourAvx2(per_word!(W, |k| avx2!(_mm256_andnot_si256(rhs.0[k], self.0[k]))))
        }
    }

    impl<const W: usize, const FUNNEL: bool> BitAndAssign for FourAvx2<W, FUNNEL> {
        #[inline(always)]
        fn bitand_assign(&mut self, rhs: Self) {
            *self = *self & rhs;
        }
    }

    impl<const W: usize, const FUNNEL: bool> BitOrAssign for FourAvx2<W, FUNNEL> {
        #[inline(always)]
        fn bitor_assign(&mut self, rhs: Self) {
            *self = *self | rhs;
        }
    }

    impl<const W: usize, const FUNNEL: bool> FourSets for FourAvx2<W, FUNNEL> {
        type Set = Bits<W>;

        #[inline(always)]
        fn splat(set: Bits<W>) -> Self {
            FourAvx2(per_word!(W, |k| avx2!(_mm256_set1_epi64x(set.0[k] as i64))))
        }
        #[inline(always)]
        fn from_sets(sets: [Bits<W>; 4]) -> Self {
            FourAvx2(per_word!(W, |k| avx2!(_mm256_set_epi64x(
                sets[3].0[k] as i64,
                sets[2].0[k] as i64,
                sets[1].0[k] as i64,
                sets[0].0[k] as i64
            ))))
        }
        #[inline(always)]
        fn lane(self, i: usize) -> Bits<W> {
            let mut words = [0; W];
            for (k, word) in words.iter_mut().enumerate() {
                // SAFETY: `__m256i` and `[u64; 4]` have the same size, and
                // every bit pattern is valid for both.
                *word = unsafe { std::mem::transmute::<__m256i, [u64; 4]>(self.0[k]) }[i];
            }
            Bits(words)
        }
        #[inline(always)]
        fn shl_each(self, n: [u32; 4]) -> Self {
            debug_assert!(n.iter().all(|&n| (1..64).contains(&n)));
            let up = amounts(n);
            if FUNNEL {
                return FourAvx2(per_word!(W, |k| {
                    let below = if k > 0 { self.0[k - 1] } else { avx2!(_mm256_setzero_si256()) };
                    avx2!(_mm256_shldv_epi64(self.0[k], below, up))
                }));
            }
            let carry = carries(n);
            FourAvx2(per_word!(W, |k| {
                let word = avx2!(_mm256_sllv_epi64(self.0[k], up));
                if k > 0 { avx2!(_mm256_or_si256(word, _mm256_srlv_epi64(self.0[k - 1], carry))) } else { word }
            }))
        }
        #[inline(always)]
        fn shr_each(self, n: [u32; 4]) -> Self {
            debug_assert!(n.iter().all(|&n| (1..64).contains(&n)));
            let down = amounts(n);
            if FUNNEL {
                return FourAvx2(per_word!(W, |k| {
                    let above = if k + 1 < W { self.0[k + 1] } else { avx2!(_mm256_setzero_si256()) };
                    avx2!(_mm256_shrdv_epi64(self.0[k], above, down))
                }));
            }
            let carry = carries(n);
            FourAvx2(per_word!(W, |k| {
                let word = avx2!(_mm256_srlv_epi64(self.0[k], down));
                if k + 1 < W { avx2!(_mm256_or_si256(word, _mm256_sllv_epi64(self.0[k + 1], carry))) } else { word }
            }))
        }
        #[inline(always)]
        fn union(self) -> Bits<W> {
            let mut words = [0; W];
            for (k, word) in words.iter_mut().enumerate() {
                let v = self.0[k];
                *word = avx2!({
                    let halves = _mm_or_si128(_mm256_castsi256_si128(v), _mm256_extracti128_si256::<1>(v));
                    _mm_cvtsi128_si64(_mm_or_si128(halves, _mm_unpackhi_epi64(halves, halves))) as u64
                });
            }
            Bits(words)
        }
        #[inline(always)]
        fn spread(self) -> Self {
            FourAvx2(per_word!(W, |k| {
                let v = self.0[k];
                avx2!({
                    // Swap the 128-bit halves, then the words of each half.
                    let pairs = _mm256_or_si256(v, _mm256_permute4x64_epi64::<0b01_00_11_10>(v));
                    _mm256_or_si256(pairs, _mm256_shuffle_epi32::<0b01_00_11_10>(pairs))
                })
            }))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn members<B: BitSet>(b: B) -> Vec<usize> {
        b.iter().collect()
    }

    #[test]
    fn wide_shifts_carry_across_words() {
        let b = Bits::<3>::bit(63) | Bits::<3>::bit(127) | Bits::<3>::bit(5);
        assert_eq!(members(b.shl(1)), vec![6, 64, 128]);
        assert_eq!(members(b.shl(13)), vec![18, 76, 140]);
        assert_eq!(members(b.shr(6)), vec![57, 121]);
        assert_eq!(members(Bits::<3>::bit(191).shl(1)), Vec::<usize>::new());
    }

    #[test]
    fn low_bits_and_counts() {
        let b = Bits::<3>::low_bits(144);
        assert_eq!(b.count(), 144);
        assert!(b.contains(143) && !b.contains(144));
        assert_eq!(Bits::<2>::low_bits(100).count(), 100);
        assert_eq!(Bits::<2>::low_bits(0), Bits::<2>::EMPTY);
    }

    #[test]
    fn iteration_crosses_words() {
        let x: u64 = 0x8000_0000_0001_0401;
        let w = Bits::<2>([x, x]);
        let lo: Vec<usize> = members(Bits([x]));
        let mut both = lo.clone();
        both.extend(lo.iter().map(|i| i + 64));
        assert_eq!(members(w), both);
        assert_eq!(w.iter().len(), 8);
        assert_eq!(w - Bits([x, 0]), Bits([0, x]));
        // Set difference, not integer subtraction.
        assert_eq!(Bits([1]) - Bits([2]), Bits([1]));
    }

    #[test]
    fn four_lanes_act_like_four_sets() {
        let sets = [
            Bits::<3>::bit(63) | Bits::<3>::bit(0),
            Bits::<3>::bit(127) | Bits::<3>::bit(130),
            Bits::<3>::bit(64),
            Bits::<3>::EMPTY,
        ];
        check_four::<Four<3>>(sets);
        #[cfg(target_arch = "x86_64")]
        if crate::cpu::has_fast_path() {
            check_four::<avx2::FourAvx2<3, false>>(sets);
        }
        #[cfg(target_arch = "x86_64")]
        if crate::cpu::CodePath::available().contains(&crate::cpu::CodePath::Avx512) {
            check_four::<avx2::FourAvx2<3, true>>(sets);
        }
    }

    fn check_four<F: FourSets<Set = Bits<3>>>(sets: [Bits<3>; 4]) {
        let four = F::from_sets(sets);
        let n = [1, 13, 40, 63];
        for i in 0..4 {
            assert_eq!(four.lane(i), sets[i]);
            assert_eq!(four.shl_each(n).lane(i), sets[i].shl(n[i]), "shl lane {i}");
            assert_eq!(four.shr_each(n).lane(i), sets[i].shr(n[i]), "shr lane {i}");
        }
        assert_eq!(four.union(), sets.iter().fold(Bits::EMPTY, |a, &b| a | b));
        let spread = four.spread();
        assert_eq!([0, 1, 2, 3].map(|i| spread.lane(i)), [four.union(); 4]);
        let other = F::splat(sets[1]);
        assert_eq!((four & other).lane(1), sets[1]);
        assert_eq!((four - other).lane(1), Bits::EMPTY);
        assert_eq!((four | other).lane(2), sets[1] | sets[2]);
    }
}

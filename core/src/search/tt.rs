//! The transposition table: a fixed-size array of four-entry buckets (one
//! cache line each), allocated once and reused across searches.
//!
//! An entry is two `u64` words: the full hash key, and the packed data
//! (score, best move index, depth, bound, age). Within a bucket an existing
//! entry of the same key is updated in place; otherwise the entry that is
//! empty, or from an older search, or shallowest, makes room.

use crate::memory::{PageArray, Zeroable};

/// Entries per bucket (4 x 16 bytes = one 64-byte cache line).
const BUCKET: usize = 4;
/// The largest move index an entry can hold (16 bits hold the index + 1).
const MAX_MOVE_INDEX: usize = u16::MAX as usize - 1;

/// One bucket: [`BUCKET`] entries as (key, data) word pairs, aligned to a
/// cache line so that a probe touches one line.
#[derive(Clone, Copy)]
#[repr(C, align(64))]
struct Bucket([[u64; 2]; BUCKET]);

/// The table's memory: zeroed buckets on huge pages where the kernel offers
/// them, so that a probe misses the TLB far less often.
type Buckets = PageArray<Bucket>;

// SAFETY: a bucket is plain words; all zero is an empty bucket.
unsafe impl Zeroable for Bucket {}

/// Depths from this one up mark exact endgame results (usable at every
/// depth): `SOLVED_BASE + empties`, so results of bigger subtrees are kept
/// first. Midgame depths stay below it.
pub const SOLVED_BASE: u8 = 128;

/// The depth recorded for an exact result with `plies` plies to the end.
#[inline(always)]
pub const fn solved_depth(plies: u32) -> u8 {
    let plies = if plies > (u8::MAX - SOLVED_BASE) as u32 { (u8::MAX - SOLVED_BASE) as u32 } else { plies };
    SOLVED_BASE + plies as u8
}
/// The confidence of a result no selective cut shaped: every midgame entry
/// and every exact solve (see [`TtEntry::confidence`]).
pub const FULL_CONFIDENCE: u8 = u8::MAX;

/// Age bits kept per entry.
const AGE_MASK: u8 = 0x3f;
/// Replacement penalty, in plies of depth, for an entry of an older search.
const STALE_PENALTY: i32 = 16;

/// What a stored score says about the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true value is at least the score (a fail high).
    Lower = 1,
    /// The true value is at most the score (a fail low).
    Upper = 2,
    /// The score is the value.
    Exact = 3,
}

impl Bound {
    /// What `score`, searched with the window (`alpha`, `beta`), says about the
    /// true value: a fail high at or above `beta`, a fail low at or below `alpha`.
    pub const fn of(score: i32, alpha: i32, beta: i32) -> Bound {
        if score >= beta {
            Bound::Lower
        } else if score <= alpha {
            Bound::Upper
        } else {
            Bound::Exact
        }
    }
}

/// One stored search result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TtEntry {
    /// Score in score units, from the side to move.
    pub score: i32,
    /// Index of the best (or refuting) move, if any.
    pub best: Option<usize>,
    /// Depth searched; [`solved_depth`] for exact endgame results.
    pub depth: u8,
    /// What `score` bounds.
    pub bound: Bound,
    /// For a solved entry, the confidence of the selective solve that found
    /// it, in tenths of a standard deviation of its ProbCut cuts;
    /// [`FULL_CONFIDENCE`] for an exact solve and for midgame entries.
    pub confidence: u8,
}

impl TtEntry {
    /// True for an exact endgame result.
    #[inline(always)]
    pub const fn is_solved(&self) -> bool {
        self.depth >= SOLVED_BASE
    }

    /// True for a solved entry at least as sure as a solve at `confidence`
    /// needs (an exact solve needs [`FULL_CONFIDENCE`]).
    #[inline(always)]
    pub const fn is_solved_at(&self, confidence: u8) -> bool {
        self.is_solved() && self.confidence >= confidence
    }

    /// True when this entry's score decides a search of window
    /// (`alpha`, `beta`) by itself.
    #[inline(always)]
    pub fn cuts(&self, alpha: i32, beta: i32) -> bool {
        match self.bound {
            Bound::Exact => true,
            Bound::Lower => self.score >= beta,
            Bound::Upper => self.score <= alpha,
        }
    }
}

/// A fixed-size transposition table.
pub struct TranspositionTable {
    /// A power of two of buckets.
    buckets: Buckets,
    bucket_mask: usize,
    age: u8,
    mb: usize,
}

impl TranspositionTable {
    /// A table of about `mb` MiB (rounded down to a power of two buckets, at
    /// least one bucket).
    pub fn new(mb: usize) -> Self {
        let bytes = mb.max(1) << 20;
        let buckets = (bytes / size_of::<Bucket>()).max(1);
        let buckets = 1usize << buckets.ilog2();
        TranspositionTable { buckets: Buckets::zeroed(buckets), bucket_mask: buckets - 1, age: 0, mb }
    }

    /// The size asked for, in MiB.
    pub fn mb(&self) -> usize {
        self.mb
    }

    /// Forgets every entry (a fresh mapping, whose pages the kernel zeroes:
    /// cheaper than writing zeros over the old one).
    pub fn clear(&mut self) {
        *self = TranspositionTable::new(self.mb);
    }

    /// Starts a new search: older entries become preferred victims.
    pub fn new_search(&mut self) {
        self.age = (self.age + 1) & AGE_MASK;
    }

    #[inline(always)]
    fn bucket(&self, key: u64) -> usize {
        (key >> 32) as usize & self.bucket_mask
    }

    /// The entry stored for `key`, if any.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<TtEntry> {
        self.buckets[self.bucket(key)].0.iter().find(|s| s[0] == key && s[1] != 0).map(|s| unpack(s[1]))
    }

    /// Asks the memory system for `key`'s bucket ahead of its probe, so the
    /// cache (and TLB) miss of a large table overlaps other work.
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let bucket: *const Bucket = &self.buckets[self.bucket(key)];
            // SAFETY: SSE is part of the x86-64 baseline, and a prefetch of
            // any address has no effect on the program's state.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(bucket.cast()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// Stores a result for `key`.
    #[inline(always)]
    pub fn store(&mut self, key: u64, entry: TtEntry) {
        let index = self.bucket(key);
        let age = self.age;
        let bucket = &mut self.buckets[index].0;
        let mut victim = 0;
        let mut victim_value = i32::MAX;
        for (i, slot) in bucket.iter().enumerate() {
            if slot[1] == 0 {
                if victim_value > i32::MIN {
                    victim = i;
                    victim_value = i32::MIN;
                }
                continue;
            }
            if slot[0] == key {
                let old = unpack(slot[1]);
                // Keep a deeper result of this position unless the new one is exact.
                if old.depth > entry.depth && entry.bound != Bound::Exact && slot_age(slot[1]) == age {
                    return;
                }
                victim = i;
                break;
            }
            let stale = if slot_age(slot[1]) == age { 0 } else { STALE_PENALTY };
            let value = i32::from(unpack(slot[1]).depth) - stale;
            if value < victim_value {
                victim = i;
                victim_value = value;
            }
        }
        bucket[victim] = [key, pack(entry, age)];
    }
}

const fn slot_age(data: u64) -> u8 {
    (data >> 58) as u8 & AGE_MASK
}

/// Bits of a packed score (scores lie within +-2^23: the search's
/// infinity is 10^6).
const SCORE_BITS: u32 = 24;
/// The mask of a packed score.
const SCORE_MASK: u64 = (1 << SCORE_BITS) - 1;

/// Packs an entry: score in bits 0-23, confidence in 24-31, move index + 1
/// in 32-47, depth in 48-55, bound in 56-57, age in 58-63. A zero word is an
/// empty slot (the bound is never 0).
#[inline(always)]
fn pack(e: TtEntry, age: u8) -> u64 {
    debug_assert!(e.best.is_none_or(|m| m <= MAX_MOVE_INDEX));
    debug_assert!(e.score.unsigned_abs() < 1 << (SCORE_BITS - 1));
    let best = e.best.map_or(0, |m| m as u64 + 1);
    (e.score as u64 & SCORE_MASK)
        | u64::from(e.confidence) << SCORE_BITS
        | best << 32
        | u64::from(e.depth) << 48
        | (e.bound as u64) << 56
        | u64::from(age) << 58
}

#[inline(always)]
fn unpack(data: u64) -> TtEntry {
    let best = (data >> 32) as u16;
    let bound = match (data >> 56) & 3 {
        1 => Bound::Lower,
        2 => Bound::Upper,
        _ => Bound::Exact,
    };
    TtEntry {
        // Sign-extend the low 24 bits.
        score: ((data as u32) << (32 - SCORE_BITS)) as i32 >> (32 - SCORE_BITS),
        confidence: (data >> SCORE_BITS) as u8,
        best: (best != 0).then(|| best as usize - 1),
        depth: (data >> 48) as u8,
        bound,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_round_trip() {
        let mut tt = TranspositionTable::new(1);
        let e = TtEntry { score: -1234, best: Some(143), depth: 7, bound: Bound::Upper, confidence: FULL_CONFIDENCE };
        tt.store(0xdead_beef_0000_0001, e);
        assert_eq!(tt.probe(0xdead_beef_0000_0001), Some(e));
        assert_eq!(tt.probe(0xdead_beef_0000_0002), None);
        let solved = TtEntry { score: 6400, best: None, depth: solved_depth(20), bound: Bound::Exact, confidence: 20 };
        tt.store(0xdead_beef_0000_0001, solved);
        assert_eq!(tt.probe(0xdead_beef_0000_0001), Some(solved));
        assert!(solved.is_solved() && !e.is_solved());
        assert!(solved.is_solved_at(15) && solved.is_solved_at(20) && !solved.is_solved_at(FULL_CONFIDENCE));
        // The extreme scores of the search survive the packing.
        for score in [1_000_000, -1_000_000, -1, 0] {
            let extreme = TtEntry { score, confidence: FULL_CONFIDENCE, ..solved };
            tt.store(3, extreme);
            assert_eq!(tt.probe(3), Some(extreme));
        }
        assert_eq!(solved_depth(500), u8::MAX);
    }

    #[test]
    fn buckets_fill_cache_lines() {
        assert_eq!(size_of::<Bucket>(), 64);
        let tt = TranspositionTable::new(1);
        assert_eq!(tt.buckets.len() * size_of::<Bucket>(), 1 << 20);
        assert_eq!(tt.buckets.as_ptr() as usize % 64, 0);
    }

    #[test]
    fn large_tables_start_on_a_huge_page_and_are_empty() {
        let mut tt = TranspositionTable::new(8);
        assert_eq!(tt.buckets.len() * size_of::<Bucket>(), 8 << 20);
        #[cfg(target_os = "linux")]
        assert_eq!(tt.buckets.as_ptr() as usize % crate::memory::HUGE_PAGE, 0);
        assert!(tt.buckets.iter().all(|b| b.0.iter().all(|s| *s == [0, 0])));
        // The last bucket is writable memory of this table.
        let key = u64::MAX;
        let entry = TtEntry { score: 7, best: Some(3), depth: 5, bound: Bound::Exact, confidence: FULL_CONFIDENCE };
        tt.store(key, entry);
        assert_eq!(tt.probe(key), Some(entry));
        tt.clear();
        assert_eq!(tt.probe(key), None);
    }

    #[test]
    fn a_full_bucket_drops_its_shallowest_entry() {
        let mut tt = TranspositionTable::new(1);
        // Same high word: same bucket.
        let keys: Vec<u64> = (1..=5).map(|i| 0x0000_0001_0000_0000 | i).collect();
        for (i, &k) in keys.iter().enumerate() {
            let depth = if i == 2 { 1 } else { 10 };
            tt.store(
                k,
                TtEntry { score: i as i32, best: None, depth, bound: Bound::Exact, confidence: FULL_CONFIDENCE },
            );
        }
        assert_eq!(tt.probe(keys[2]), None);
        for i in [0, 1, 3, 4] {
            assert_eq!(tt.probe(keys[i]).map(|e| e.score), Some(i as i32));
        }
    }
}

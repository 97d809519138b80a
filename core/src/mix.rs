//! SplitMix64, the workspace's one small deterministic generator and hash,
//! and FNV-1a for digests of byte strings. SplitMix64 serves
//! fixed hash keys (the Zobrist tables), the tuner's train/validation split,
//! and reproducible position streams for benches and tests. What users seed
//! (openings, random players, samplers) uses `rand`'s ChaCha8 instead.

/// FNV-1a 64-bit hash of `bytes`: a stable digest for files and checksums
/// (the Duo program's playdata, the tuner's record of which weights scored
/// a reference).
pub const fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut i = 0;
    while i < bytes.len() {
        h ^= bytes[i] as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
        i += 1;
    }
    h
}

/// The golden-ratio increment of SplitMix64.
const GAMMA: u64 = 0x9e37_79b9_7f4a_7c15;

/// SplitMix64's output for the state `x`: a fixed, well-mixed hash of `x`.
pub const fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(GAMMA);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The SplitMix64 generator from a seed.
#[derive(Clone, Debug)]
pub struct SplitMix(pub u64);

impl SplitMix {
    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        let state = self.0;
        self.0 = state.wrapping_add(GAMMA);
        splitmix64(state)
    }

    /// A uniform-enough index below `n` (which must not be 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The published first outputs of SplitMix64 seeded with 0 and 1.
    #[test]
    fn the_stream_matches_the_reference_generator() {
        let mut g = SplitMix(0);
        assert_eq!(g.next_u64(), 0xe220_a839_7b1d_cdaf);
        assert_eq!(g.next_u64(), 0x6e78_9e6a_a1b9_65f4);
        assert_eq!(SplitMix(1).next_u64(), 0x910a_2dec_8902_5cc1);
    }
}

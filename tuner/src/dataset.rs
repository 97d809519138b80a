//! The training set as features: each position's active evaluation
//! features (weight index, multiplicity) stored once, row by row, with its
//! target and the game it came from; plus the inverted index (for each weight,
//! the positions that use it) that makes a one-weight trial cheap. [`Rows`]
//! is what the optimisers read, from this or from packed boards.

/// One labelled position, as extracted from a `positions.csv` row.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    /// Identifies the game (and the file it came from): the split key.
    pub game: u64,
    /// Active features: (weight index, multiplicity).
    pub features: Vec<(u32, i32)>,
    /// Target in [0, 1] from the mover's side (1 win, 0.5 draw, 0 loss).
    pub target: f64,
}

/// Positions with their features in compressed rows.
#[derive(Clone, Debug, Default)]
pub struct Dataset {
    starts: Vec<usize>,
    index: Vec<u32>,
    multiplicity: Vec<i32>,
    targets: Vec<f64>,
    games: Vec<u64>,
}

impl Dataset {
    /// An empty dataset.
    pub fn new() -> Self {
        Dataset { starts: vec![0], ..Default::default() }
    }

    /// Appends one sample.
    pub fn push(&mut self, sample: &Sample) {
        for &(i, m) in &sample.features {
            self.index.push(i);
            self.multiplicity.push(m);
        }
        self.starts.push(self.index.len());
        self.targets.push(sample.target);
        self.games.push(sample.game);
    }

    /// Game key of position `p`.
    pub fn game(&self, p: usize) -> u64 {
        self.games[p]
    }

    /// Mean bytes a position takes here (features, row start, target and
    /// game key; the inverted index of a local search doubles the features).
    pub fn bytes_per_position(&self) -> usize {
        let features = self.index.len() * (size_of::<u32>() + size_of::<i32>());
        let rows = self.len() * (size_of::<usize>() + size_of::<f64>() + size_of::<u64>());
        (features + rows).div_ceil(self.len().max(1))
    }

    /// The features of position `p`.
    pub fn features(&self, p: usize) -> impl Iterator<Item = (u32, i32)> + '_ {
        let range = self.starts[p]..self.starts[p + 1];
        self.index[range.clone()].iter().copied().zip(self.multiplicity[range].iter().copied())
    }

    /// The linear evaluation `Σ weights[i] * multiplicity` of position `p`.
    pub fn evaluate(&self, p: usize, weights: &[i32]) -> i64 {
        self.features(p).map(|(i, m)| i64::from(weights[i as usize]) * i64::from(m)).sum()
    }

    /// Splits by game: a game goes to the second set when `in_second(game)`.
    /// Positions of one game never land on both sides.
    pub fn split_by_game(&self, in_second: impl Fn(u64) -> bool) -> (Dataset, Dataset) {
        let (mut first, mut second) = (Dataset::new(), Dataset::new());
        for p in 0..self.len() {
            let sample = Sample { game: self.games[p], features: self.features(p).collect(), target: self.targets[p] };
            if in_second(sample.game) { &mut second } else { &mut first }.push(&sample);
        }
        (first, second)
    }

    /// For each of `weights` weight indices, the positions that use it with
    /// their multiplicity, in position order.
    pub fn inverted(&self, weights: usize) -> Inverted {
        let mut counts = vec![0usize; weights + 1];
        for &i in &self.index {
            counts[i as usize + 1] += 1;
        }
        for i in 1..counts.len() {
            counts[i] += counts[i - 1];
        }
        let starts = counts.clone();
        let mut fill = counts;
        let mut entries = vec![(0u32, 0i32); self.index.len()];
        for p in 0..self.len() {
            for (i, m) in self.features(p) {
                let slot = &mut fill[i as usize];
                entries[*slot] = (p as u32, m);
                *slot += 1;
            }
        }
        Inverted { starts, entries }
    }
}

/// For each weight, the (position, multiplicity) pairs that use it.
#[derive(Clone, Debug)]
pub struct Inverted {
    starts: Vec<usize>,
    entries: Vec<(u32, i32)>,
}

impl Inverted {
    /// The positions that use weight `w`.
    pub fn users(&self, w: usize) -> &[(u32, i32)] {
        &self.entries[self.starts[w]..self.starts[w + 1]]
    }
}

/// The training positions an optimiser reads: each one's target and its
/// features, however they are stored ([`Dataset`] keeps the features,
/// [`PackedDataset`](crate::packed::PackedDataset) the boards).
pub trait Rows: Sync {
    /// Number of positions.
    fn len(&self) -> usize;
    /// Target of position `p`, in [0, 1].
    fn target(&self, p: usize) -> f64;
    /// Replaces `out` by the features of position `p` (a weight may appear
    /// more than once: its multiplicities add).
    fn features_into(&self, p: usize, out: &mut Vec<(u32, i32)>);

    /// True when there is no position.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Evaluations of every position under integer `weights`.
    fn evaluate_all(&self, weights: &[i32]) -> Vec<i64> {
        use rayon::prelude::*;
        (0..self.len())
            .into_par_iter()
            .map_init(Vec::new, |features, p| {
                self.features_into(p, features);
                features.iter().map(|&(i, m)| i64::from(weights[i as usize]) * i64::from(m)).sum()
            })
            .collect()
    }
}

impl Rows for Dataset {
    fn len(&self) -> usize {
        self.targets.len()
    }

    fn target(&self, p: usize) -> f64 {
        self.targets[p]
    }

    fn features_into(&self, p: usize, out: &mut Vec<(u32, i32)>) {
        out.clear();
        out.extend(self.features(p));
    }
}

/// A fixed, well-mixed hash of a game key: decides the train/validation split.
pub const fn mix(key: u64) -> u64 {
    engine_core::mix::splitmix64(key)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(game: u64, features: &[(u32, i32)], target: f64) -> Sample {
        Sample { game, features: features.to_vec(), target }
    }

    #[test]
    fn rows_inverted_index_and_split_agree() {
        let mut ds = Dataset::new();
        ds.push(&sample(1, &[(0, 1), (2, -1)], 1.0));
        ds.push(&sample(2, &[(2, 3)], 0.0));
        ds.push(&sample(1, &[], 0.5));
        assert_eq!(ds.len(), 3);
        assert_eq!(ds.evaluate(0, &[10, 20, 30]), 10 - 30);
        assert_eq!(ds.evaluate(1, &[10, 20, 30]), 90);
        let inv = ds.inverted(3);
        assert_eq!(inv.users(0), &[(0, 1)]);
        assert_eq!(inv.users(1), &[]);
        assert_eq!(inv.users(2), &[(0, -1), (1, 3)]);
        let (a, b) = ds.split_by_game(|g| g == 1);
        assert_eq!((a.len(), b.len()), (1, 2));
        assert!((0..b.len()).all(|p| b.game(p) == 1));
    }
}

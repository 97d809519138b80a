//! Pattern evaluation of Pente positions, and the named registry of its
//! weight tables.
//!
//! Every empty cell near the stones is scored by what each player would make
//! there along each of the four lines (looked up in the pattern tables): the
//! side to move's shapes count for it, the opponent's against it. Captured
//! pairs and capturable pairs (pair vulnerability) add to that. Scores are
//! from the side to move's point of view.

use super::board::Position;
use super::pattern::{SHAPES, patterns};
use super::weights;
use crate::eval::Evaluator;
use crate::game::Game;

/// A weight table in the registry: its name, length and the range and step
/// the tuner may use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Table {
    /// Registry name, `pente.` then the table.
    pub name: &'static str,
    /// Number of entries.
    pub len: usize,
    /// Smallest allowed value.
    pub min: i32,
    /// Largest allowed value.
    pub max: i32,
    /// Tuning step.
    pub step: i32,
}

/// Pairs whose capture counts are weighted (five pairs win).
pub const CAPTURED_PAIRS: usize = 5;

/// The weight tables, in the order [`Weights::from_flat`] reads them.
pub const TABLES: [Table; 4] = [
    Table { name: "pente.own_shape", len: SHAPES, min: 0, max: 50_000, step: 5 },
    Table { name: "pente.opp_shape", len: SHAPES, min: 0, max: 50_000, step: 5 },
    Table { name: "pente.captured", len: CAPTURED_PAIRS, min: 0, max: 5_000, step: 10 },
    Table { name: "pente.capture_move", len: 2, min: 0, max: 1_000, step: 5 },
];

/// The evaluation weights, one field per registry table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Weights {
    /// `pente.own_shape`.
    pub own_shape: [i32; SHAPES],
    /// `pente.opp_shape`.
    pub opp_shape: [i32; SHAPES],
    /// `pente.captured`.
    pub captured: [i32; CAPTURED_PAIRS],
    /// `pente.capture_move`.
    pub capture_move: [i32; 2],
}

impl Default for Weights {
    fn default() -> Self {
        Weights {
            own_shape: weights::OWN_SHAPE,
            opp_shape: weights::OPP_SHAPE,
            captured: weights::CAPTURED,
            capture_move: weights::CAPTURE_MOVE,
        }
    }
}

impl Weights {
    /// All weights in registry order.
    pub fn to_flat(&self) -> Vec<i32> {
        [&self.own_shape[..], &self.opp_shape[..], &self.captured[..], &self.capture_move[..]].concat()
    }

    /// Weights from values in registry order; fails on a wrong count or a
    /// value outside its table's range.
    pub fn from_flat(values: &[i32]) -> Result<Weights, String> {
        let total: usize = TABLES.iter().map(|t| t.len).sum();
        if values.len() != total {
            return Err(format!("expected {total} Pente weights, got {}", values.len()));
        }
        let mut at = 0;
        for t in &TABLES {
            if let Some(v) = values[at..at + t.len].iter().find(|v| !(t.min..=t.max).contains(v)) {
                return Err(format!("{}: {v} outside {}..={}", t.name, t.min, t.max));
            }
            at += t.len;
        }
        let mut w = Weights::default();
        let (a, rest) = values.split_at(SHAPES);
        let (b, rest) = rest.split_at(SHAPES);
        let (c, d) = rest.split_at(CAPTURED_PAIRS);
        w.own_shape.copy_from_slice(a);
        w.opp_shape.copy_from_slice(b);
        w.captured.copy_from_slice(c);
        w.capture_move.copy_from_slice(d);
        Ok(w)
    }
}

/// The pattern evaluator.
#[derive(Clone, Debug, Default)]
pub struct PatternEval {
    /// The weights in use.
    pub weights: Weights,
}

impl PatternEval {
    /// The value of `pair_count` captured pairs.
    #[inline]
    fn captured_value(&self, stones: u32) -> i32 {
        self.weights.captured[(stones as usize / 2).min(CAPTURED_PAIRS - 1)]
    }
}

impl Evaluator<Position> for PatternEval {
    fn evaluate(&self, pos: &Position) -> i32 {
        let me = pos.to_move();
        let opp = me.opponent();
        let w = &self.weights;
        let mut score = self.captured_value(pos.captured(me)) - self.captured_value(pos.captured(opp));
        for cell in pos.candidates() {
            for p in patterns(pos, cell, me) {
                score += w.own_shape[p.shape() as usize] + w.capture_move[0] * p.captures() as i32;
            }
            for p in patterns(pos, cell, opp) {
                score -= w.opp_shape[p.shape() as usize] + w.capture_move[1] * p.captures() as i32;
            }
        }
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn registry_round_trips_and_matches_the_tables() {
        let w = Weights::default();
        let flat = w.to_flat();
        assert_eq!(flat.len(), TABLES.iter().map(|t| t.len).sum::<usize>());
        assert_eq!(Weights::from_flat(&flat).unwrap(), w);
        for (t, start) in TABLES.iter().scan(0, |at, t| {
            let s = *at;
            *at += t.len;
            Some((t, s))
        }) {
            assert!(flat[start..start + t.len].iter().all(|v| (t.min..=t.max).contains(v)), "{}", t.name);
        }
        assert!(Weights::from_flat(&flat[1..]).is_err());
    }
}

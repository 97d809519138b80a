//! Pattern evaluation of Pente positions.
//!
//! Every empty cell near the stones is scored by what each player would make
//! there along each of the four lines (looked up in the pattern tables): the
//! side to move's shapes count for it, the opponent's against it. Captured
//! pairs and capturable pairs (pair vulnerability) add to that. Scores are
//! from the side to move's point of view. The position keeps those counts
//! as stones come and go ([`PentePosition::shape_counts`]), so an evaluation
//! is a dot product of a few dozen numbers.
//!
//! The weights are a [`WeightSet`] keyed [`PenteWeights`] in the
//! [`layout`] of [`crate::weights`] (one phase), compiled in from
//! `games/pente/weights/pente.bin` or read from a weights file. The
//! evaluation is linear in them: [`features`] gives the counts each weight
//! is multiplied by.

use super::board::PentePosition;
use super::pattern::SHAPES;
use crate::weights::{PenteWeights, WeightSet};
use engine_core::eval::Evaluator;
use engine_core::game::Game;
use std::path::Path;

pub use crate::weights::{CAPTURE_MOVE, CAPTURED, CAPTURED_PAIRS, OPP_SHAPE, OWN_SHAPE, layout};

/// The evaluation weights, one field per registry table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Weights {
    /// Table [`OWN_SHAPE`].
    pub own_shape: [i32; SHAPES],
    /// Table [`OPP_SHAPE`].
    pub opp_shape: [i32; SHAPES],
    /// Table [`CAPTURED`].
    pub captured: [i32; CAPTURED_PAIRS],
    /// Table [`CAPTURE_MOVE`].
    pub capture_move: [i32; 2],
}

impl Default for Weights {
    /// The compiled-in weights.
    fn default() -> Self {
        Weights::from_set(&WeightSet::compiled(PenteWeights)).expect("compiled Pente weights fit the registry")
    }
}

impl Weights {
    /// The weights of `set` (keyed Pente by its type); fails unless every
    /// value fits the layout.
    pub fn from_set(set: &WeightSet) -> Result<Weights, String> {
        set.validate()?;
        let layout = layout();
        let table =
            |t: usize| set.values[layout.index(0, t, 0)..][..layout.tables[t].len].iter().map(|&v| i32::from(v));
        let fill = |dst: &mut [i32], t: usize| dst.iter_mut().zip(table(t)).for_each(|(d, v)| *d = v);
        let mut w = Weights {
            own_shape: [0; SHAPES],
            opp_shape: [0; SHAPES],
            captured: [0; CAPTURED_PAIRS],
            capture_move: [0; 2],
        };
        fill(&mut w.own_shape, OWN_SHAPE);
        fill(&mut w.opp_shape, OPP_SHAPE);
        fill(&mut w.captured, CAPTURED);
        fill(&mut w.capture_move, CAPTURE_MOVE);
        Ok(w)
    }

    /// The weight set holding these weights.
    pub fn to_set(&self) -> WeightSet {
        let values = [&self.own_shape[..], &self.opp_shape[..], &self.captured[..], &self.capture_move[..]]
            .concat()
            .into_iter()
            .map(|v| v as i16)
            .collect();
        WeightSet { key: PenteWeights, values }
    }
}

/// The captured-pairs entry of `stones` captured stones.
#[inline]
const fn captured_entry(stones: u32) -> usize {
    let pairs = stones as usize / 2;
    if pairs < CAPTURED_PAIRS { pairs } else { CAPTURED_PAIRS - 1 }
}

/// Replaces `out` by the features of `pos`: (flat weight index in
/// [`layout`], multiplicity) such that the evaluation is
/// `Σ weight[index] * multiplicity` (entries may repeat; zero
/// multiplicities are left out).
pub fn features(pos: &PentePosition, out: &mut Vec<(usize, i32)>) {
    out.clear();
    let layout = layout();
    let at = |table: usize, entry: usize| layout.index(0, table, entry);
    let me = pos.to_move();
    let opp = me.opponent();
    out.push((at(CAPTURED, captured_entry(pos.captured(me))), 1));
    out.push((at(CAPTURED, captured_entry(pos.captured(opp))), -1));
    let tables = [(OWN_SHAPE, pos.shape_counts(me), 1), (OPP_SHAPE, pos.shape_counts(opp), -1)];
    for (table, counts, sign) in tables {
        let present = counts.iter().enumerate().filter(|&(_, &n)| n != 0);
        out.extend(present.map(|(shape, &n)| (at(table, shape), sign * n)));
    }
    for (entry, color, sign) in [(0, me, 1), (1, opp, -1)] {
        if pos.capture_count(color) != 0 {
            out.push((at(CAPTURE_MOVE, entry), sign * pos.capture_count(color)));
        }
    }
}

/// The pattern evaluator.
#[derive(Clone, Debug, Default)]
pub struct PenteEval {
    /// The weights in use.
    pub weights: Weights,
}

impl PenteEval {
    /// The evaluation with the weights of `set` (a valid Pente set).
    pub fn with_weights(set: &WeightSet) -> Result<Self, String> {
        Ok(PenteEval { weights: Weights::from_set(set)? })
    }

    /// The evaluation with the weights file at `path`; errors name the file.
    pub fn from_file(path: &Path) -> Result<Self, String> {
        Self::with_weights(&WeightSet::load(path)?).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// The value of `stones` captured stones.
    #[inline]
    fn captured_value(&self, stones: u32) -> i32 {
        self.weights.captured[captured_entry(stones)]
    }
}

impl Evaluator<PentePosition> for PenteEval {
    type Trail = ();

    fn evaluate(&self, pos: &PentePosition) -> i32 {
        let me = pos.to_move();
        let opp = me.opponent();
        let w = &self.weights;
        let mut score = self.captured_value(pos.captured(me)) - self.captured_value(pos.captured(opp));
        score += w.capture_move[0] * pos.capture_count(me) - w.capture_move[1] * pos.capture_count(opp);
        let (own, theirs) = (pos.shape_counts(me), pos.shape_counts(opp));
        for s in 0..SHAPES {
            score += w.own_shape[s] * own[s] - w.opp_shape[s] * theirs[s];
        }
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine_core::game::Game;
    use engine_core::mix::SplitMix;
    use engine_core::playout::random_playout;
    use rand::RngExt;

    /// Positions of a few seeded games between random candidate moves.
    fn seeded_positions(games: u64, plies: usize) -> Vec<PentePosition> {
        let mut out = Vec::new();
        for seed in 0..games {
            let mut left = plies;
            let end = random_playout(PentePosition::new(), &mut SplitMix(seed), |pos: &PentePosition| {
                if left == 0 {
                    return false;
                }
                out.push(pos.clone());
                left -= 1;
                true
            });
            if end.is_terminal() {
                out.push(end);
            }
        }
        out
    }

    #[test]
    fn registry_round_trips_and_matches_the_tables() {
        let w = Weights::default();
        let set = w.to_set();
        assert_eq!(set.values.len(), layout().len());
        set.validate().unwrap();
        assert_eq!(set, WeightSet::compiled(PenteWeights));
        assert_eq!(Weights::from_set(&set).unwrap(), w);
        let names: Vec<&str> = layout().tables.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(names, ["own_shape", "opp_shape", "captured", "capture_move"]);
        let mut short = set.clone();
        short.values.pop();
        assert!(Weights::from_set(&short).is_err());
        let mut out_of_range = set.clone();
        out_of_range.values[layout().index(0, CAPTURED, 1)] = -1;
        assert!(Weights::from_set(&out_of_range).unwrap_err().contains("captured"));
    }

    #[test]
    fn features_times_weights_is_the_evaluation() {
        let mut set = WeightSet::compiled(PenteWeights);
        // Distinct values per entry as well as the compiled ones, so that a
        // wrong index shows.
        let compiled = PenteEval::default();
        for (i, v) in set.values.iter_mut().enumerate() {
            *v = (17 + 31 * i as i16) % 900;
        }
        let varied = PenteEval::with_weights(&set).unwrap();
        let mut feats = Vec::new();
        for pos in seeded_positions(4, 40) {
            features(&pos, &mut feats);
            for eval in [&compiled, &varied] {
                let values = eval.weights.to_set().values;
                let sum: i32 = feats.iter().map(|&(i, m)| i32::from(values[i]) * m).sum();
                assert_eq!(sum, eval.evaluate(&pos));
            }
        }
    }

    /// The evaluation as a scan of every candidate cell's patterns, the
    /// definition the kept counts must reproduce.
    fn scanned_evaluation(eval: &PenteEval, pos: &PentePosition) -> i32 {
        let (me, opp, w) = (pos.to_move(), pos.to_move().opponent(), &eval.weights);
        let mut score = eval.captured_value(pos.captured(me)) - eval.captured_value(pos.captured(opp));
        for cell in pos.candidates() {
            for p in pos.patterns(cell, me) {
                score += w.own_shape[p.shape() as usize] + w.capture_move[0] * p.captures() as i32;
            }
            for p in pos.patterns(cell, opp) {
                score -= w.opp_shape[p.shape() as usize] + w.capture_move[1] * p.captures() as i32;
            }
        }
        score
    }

    #[test]
    fn kept_counts_give_the_scanned_evaluation_through_make_and_unmake() {
        let eval = PenteEval::default();
        let mut rng = SplitMix(7);
        let mut checked = 0;
        for mut pos in seeded_positions(6, 60) {
            assert_eq!(eval.evaluate(&pos), scanned_evaluation(&eval, &pos));
            // A short line of moves and back, captures included.
            let mut line = Vec::new();
            while line.len() < 6 && !pos.is_terminal() {
                let moves = pos.legal_moves();
                let mv = moves[rng.random_range(0..moves.len())];
                line.push((mv, pos.make(mv)));
                assert_eq!(eval.evaluate(&pos), scanned_evaluation(&eval, &pos));
                checked += 1;
            }
            while let Some((mv, undo)) = line.pop() {
                pos.unmake(mv, undo);
                assert_eq!(eval.evaluate(&pos), scanned_evaluation(&eval, &pos));
            }
        }
        assert!(checked > 100);
    }

    #[test]
    fn weights_file_round_trip_gives_identical_evaluations() {
        let dir = std::env::temp_dir().join(format!("pente-weights-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("pente.txt");
        let mut set = WeightSet::compiled(PenteWeights);
        for (i, v) in set.values.iter_mut().enumerate() {
            *v = (5 + 13 * i as i16) % 400;
        }
        set.save(&path).unwrap();
        assert_eq!(WeightSet::load(&path).unwrap(), set);
        let direct = PenteEval::with_weights(&set).unwrap();
        let loaded = PenteEval::from_file(&path).unwrap();
        for pos in seeded_positions(2, 30) {
            assert_eq!(direct.evaluate(&pos), loaded.evaluate(&pos));
        }
        // Another game's file (a Reversi variant's key) is refused by name.
        std::fs::write(&path, set.to_text().replace("variant pente", "variant othello8")).unwrap();
        let e = PenteEval::from_file(&path).unwrap_err();
        assert!(e.contains("pente.txt") && e.contains("othello8"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

//! The Reversi pattern evaluation as a tuning [`Model`]: weights and bounds
//! from the engine's weight registry, features from its extractor.

use crate::run::Model;
use engine::eval::{Features, WeightKey, WeightSet};
use engine::reversi::{Geometry, Position, Variant};

/// The pattern evaluation of one variant, starting from a weight set.
///
/// Each orbit of a self-symmetric pattern table is one weight here: the
/// features name canonical entries only, and the start is tied
/// ([`WeightSet::tied`]), so the tuner trains every pattern weight once and
/// [`weight_set`](crate::run::weight_set) spreads it over its orbit.
pub struct ReversiModel<G: Geometry> {
    variant: Variant,
    features: Features<G>,
    /// The flat canonical index of every flat index.
    canonical: Vec<u32>,
    start: WeightSet,
}

impl<G: Geometry> ReversiModel<G> {
    /// The model of the variant of `start` (Reversi weights), whose board
    /// must be `G`.
    pub fn new(start: WeightSet) -> Self {
        let variant = start.variant().expect("Reversi weights for a Reversi model");
        let canonical = start.key.layout().canonical_map();
        ReversiModel { variant, features: Features::new(variant), canonical, start: start.tied() }
    }
}

/// Turns a flattened board (`X/..../.OX./...`, rows joined by `/` after the
/// side letter) back into the position text form.
pub fn unflatten(board: &str) -> String {
    board.split('/').map(|line| format!("{line}\n")).collect()
}

impl<G: Geometry> Model for ReversiModel<G> {
    fn key(&self) -> WeightKey {
        WeightKey::Reversi(self.variant)
    }

    fn weights(&self) -> Vec<i32> {
        self.start.values.iter().map(|&v| i32::from(v)).collect()
    }

    fn score_span(&self) -> usize {
        G::CELLS
    }

    fn features(&self, board: &str) -> Result<Vec<(u32, i32)>, String> {
        let pos = Position::<G>::parse(&unflatten(board), self.variant.scoring())
            .map_err(|e| format!("board field {e} of `{board}`"))?;
        let mut out = Vec::new();
        self.features.features(&pos, &mut out);
        // One feature per weight: the entries of an orbit, and instances
        // that read the same entry, add up.
        let mut pairs: Vec<(u32, i32)> = out.into_iter().map(|f| (self.canonical[f.index], f.multiplicity)).collect();
        pairs.sort_unstable_by_key(|&(i, _)| i);
        let mut merged: Vec<(u32, i32)> = Vec::with_capacity(pairs.len());
        for (index, m) in pairs {
            match merged.last_mut() {
                Some((last, total)) if *last == index => *total += m,
                _ => merged.push((index, m)),
            }
        }
        merged.retain(|&(_, m)| m != 0);
        Ok(merged)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::eval::{Evaluator, PatternEval};
    use engine::game::Game;
    use engine::reversi::Size8;

    #[test]
    fn features_times_weights_is_the_engine_evaluation() {
        // Weights whose orbits disagree: the model ties them, and its
        // features, one per orbit, give the engine's evaluation of the tied set.
        let mut set = WeightSet::compiled(Variant::Othello8);
        for (i, x) in set.values.iter_mut().enumerate() {
            *x = ((i * 7919) % 201) as i16 - 100;
        }
        let model = ReversiModel::<Size8>::new(set.clone());
        let eval = PatternEval::<Size8>::with_weights(set.tied());
        let canonical = set.key.layout().canonical_map();
        let weights = model.weights();
        let mut pos: Position<Size8> = Variant::Othello8.start();
        for ply in 0..30 {
            let text = pos.to_string();
            let flat = text.trim_end().replace('\n', "/");
            assert_eq!(unflatten(&flat), text);
            let sum = model.linear_eval(&weights, &flat).unwrap();
            assert_eq!(sum, i64::from(eval.evaluate(&pos)), "ply {ply}");
            let features = model.features(&flat).unwrap();
            assert!(features.iter().all(|&(i, _)| canonical[i as usize] == i), "ply {ply}");
            assert!(features.windows(2).all(|w| w[0].0 < w[1].0), "one feature per weight, ply {ply}");
            let moves = pos.legal_moves();
            pos.make(moves[ply % moves.len()]);
        }
    }
}

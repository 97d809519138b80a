//! The Reversi pattern evaluation as a tuning [`Model`]: weights and bounds
//! from the engine's weight registry, features from its extractor.

use crate::run::Model;
use engine::eval::{Features, WeightKey, WeightSet};
use engine::reversi::{Geometry, Position, Variant};

/// The pattern evaluation of one variant, starting from a weight set.
pub struct ReversiModel<G: Geometry> {
    variant: Variant,
    features: Features<G>,
    start: WeightSet,
}

impl<G: Geometry> ReversiModel<G> {
    /// The model of the variant of `start` (Reversi weights), whose board
    /// must be `G`.
    pub fn new(start: WeightSet) -> Self {
        let variant = start.variant().expect("Reversi weights for a Reversi model");
        ReversiModel { variant, features: Features::new(variant), start }
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
        Ok(out.into_iter().map(|f| (f.index as u32, f.multiplicity)).collect())
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
        let set = WeightSet::compiled(Variant::Othello8);
        let model = ReversiModel::<Size8>::new(set.clone());
        let eval = PatternEval::<Size8>::with_weights(set);
        let weights = model.weights();
        let mut pos: Position<Size8> = Variant::Othello8.start();
        for ply in 0..30 {
            let text = pos.to_string();
            let flat = text.trim_end().replace('\n', "/");
            assert_eq!(unflatten(&flat), text);
            let sum = model.linear_eval(&weights, &flat).unwrap();
            assert_eq!(sum, i64::from(eval.evaluate(&pos)), "ply {ply}");
            let moves = pos.legal_moves();
            pos.make(moves[ply % moves.len()]);
        }
    }
}

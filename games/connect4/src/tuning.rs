//! Connect Four as the tuner's game: the window evaluation as a linear
//! tuning [`Model`] (its features are [`WindowEval::features`]) and the
//! [`TuningGame`] that plays its matches through the registry entry
//! [`CONNECT4`].

use crate::eval::WindowEval;
use crate::matches::{CONNECT4, Connect4Protocol};
use crate::weights::Connect4Weights;
use engine_core::weights::{Layout, WeightKind, WeightSet};
use selfplay::family::GameFamily;
use selfplay::protocol::GameProtocol;
use tuner::game::TuningGame;
use tuner::run::Model;

/// Largest magnitude of a Connect Four final score (a win counts 1).
const SCORE_SPAN: usize = 1;

/// The window evaluation, starting from a weight set.
pub struct Connect4Model {
    start: WeightSet<Connect4Weights>,
}

impl Model for Connect4Model {
    fn layout(&self) -> &'static Layout {
        Connect4Weights.layout()
    }

    fn weights(&self) -> Vec<i32> {
        self.start.widened()
    }

    fn score_span(&self) -> usize {
        SCORE_SPAN
    }

    fn features(&self, board: &str) -> Result<Vec<(u32, i32)>, String> {
        let pos = Connect4Protocol.parse_flat(board).map_err(|e| format!("board: {e} in `{board}`"))?;
        Ok(WindowEval::features(&pos).into_iter().filter(|&(_, m)| m != 0).map(|(i, m)| (i as u32, m)).collect())
    }
}

/// Connect Four's half of the tuner.
pub struct Connect4Tuning;

impl TuningGame for Connect4Tuning {
    type Key = Connect4Weights;

    fn model(&self, start: WeightSet<Connect4Weights>) -> Box<dyn Model> {
        Box::new(Connect4Model { start })
    }

    fn family(&self, _key: Connect4Weights) -> &'static dyn GameFamily {
        &CONNECT4
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Position;
    use engine_core::eval::Evaluator;
    use engine_core::mix::SplitMix;
    use engine_core::playout::random_playout;

    #[test]
    fn features_times_weights_is_the_engine_evaluation() {
        // Distinct in-bounds weights, so that an index slip shows.
        let values: Vec<i16> = (0..crate::weights::WEIGHTS as i16).map(|i| 3 * i - 20).collect();
        let set = WeightSet { key: Connect4Weights, values };
        let eval = WindowEval::with_weights(&set).unwrap();
        let model = Connect4Tuning.model(set);
        let weights = model.weights();
        let mut rng = SplitMix(3);
        let mut phases = std::collections::HashSet::new();
        for _ in 0..20 {
            random_playout(Position::default(), &mut rng, |pos: &Position| {
                let flat = Connect4Protocol.flatten(pos);
                let sum = model.linear_eval(&weights, &flat).unwrap();
                assert_eq!(sum, i64::from(eval.evaluate(pos)), "{flat}");
                phases.extend(
                    model.features(&flat).unwrap().iter().map(|&(i, _)| i as usize / crate::weights::TABLE_COUNT),
                );
                true
            });
        }
        assert_eq!(phases.len(), crate::weights::PHASES, "every phase was seen");
        let err = model.features("X/bad").unwrap_err();
        assert!(err.starts_with("board: ") && !err.contains('\n'), "{err}");
    }
}

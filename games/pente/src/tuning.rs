//! Pente's half of the tuner: the pattern evaluation as a tuning
//! [`Model`] (weights and bounds from its weight set, [`PenteWeights`];
//! features from the evaluation's extractor, [`crate::eval::features`];
//! positions read back from self-play's flattened form, [`PenteProtocol`])
//! and the [`TuningGame`] the `tuner` program drives ([`PenteTuning`]).

use crate::eval::features;
use crate::matches::{PENTE, PenteProtocol};
use crate::weights::{PenteWeights, WeightSet};
use engine_core::weights::{Layout, WeightKind};
use selfplay::family::GameFamily;
use selfplay::protocol::GameProtocol;
use tuner::game::TuningGame;
use tuner::run::Model;

/// Largest magnitude of a Pente final score (a win counts 1).
const PENTE_SCORE_SPAN: usize = 1;

/// The Pente pattern evaluation, starting from a weight set.
pub struct PenteModel {
    start: WeightSet,
}

impl PenteModel {
    /// The model starting from `start`.
    pub fn new(start: WeightSet) -> Self {
        PenteModel { start }
    }
}

impl Model for PenteModel {
    fn layout(&self) -> &'static Layout {
        PenteWeights.layout()
    }

    fn weights(&self) -> Vec<i32> {
        self.start.widened()
    }

    fn score_span(&self) -> usize {
        PENTE_SCORE_SPAN
    }

    fn features(&self, board: &str) -> Result<Vec<(u32, i32)>, String> {
        let pos = PenteProtocol.parse_flat(board).map_err(|e| format!("board {e} in `{board}`"))?;
        let mut out = Vec::new();
        features(&pos, &mut out);
        Ok(out.into_iter().map(|(i, m)| (i as u32, m)).collect())
    }
}

/// Pente's half of the tuner (no reference search labels its positions).
pub struct PenteTuning;

impl TuningGame for PenteTuning {
    type Key = PenteWeights;

    fn model(&self, start: WeightSet) -> Box<dyn Model> {
        Box::new(PenteModel::new(start))
    }

    fn family(&self, _key: PenteWeights) -> &'static dyn GameFamily {
        &PENTE
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::PenteEval;
    use crate::{NearRandomAgent, PentePosition};
    use engine_core::agent::{Agent, Clock};
    use engine_core::eval::Evaluator;
    use engine_core::game::Game;
    use tuner::run::{Target, load};

    #[test]
    fn features_times_weights_is_the_engine_evaluation() {
        let mut set = WeightSet::compiled(PenteWeights);
        for (i, v) in set.values.iter_mut().enumerate() {
            // Distinct in-bounds values, so that an index slip shows.
            *v += 3 * i as i16 + 1;
        }
        for set in [WeightSet::compiled(PenteWeights), set] {
            let model = PenteModel::new(set.clone());
            let eval = PenteEval::with_weights(&set).unwrap();
            let weights = model.weights();
            for seed in 0..3 {
                let mut agent = NearRandomAgent::new(seed);
                let mut pos = PentePosition::new();
                for ply in 0..40 {
                    let flat = PenteProtocol.flatten(&pos);
                    let sum = model.linear_eval(&weights, &flat).unwrap();
                    assert_eq!(sum, i64::from(eval.evaluate(&pos)), "game {seed} ply {ply}");
                    if pos.is_terminal() {
                        break;
                    }
                    let mv = agent.choose(&pos, &Clock::UNLIMITED).mv;
                    pos.make(mv);
                }
            }
        }
    }

    #[test]
    fn a_malformed_board_names_the_file_and_line() {
        let dir = std::env::temp_dir().join(format!("tuner-pente-bad-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("positions.csv");
        let good = PenteProtocol.flatten(&PentePosition::new());
        let bad = good.replacen("w/0,0", "w/0,x", 1);
        let rows = format!(
            "game,ply,side,board,score,depth,result,disc_diff\n0,0,w,\"{good}\",,,1,1\n0,1,w,\"{bad}\",,,1,1\n"
        );
        std::fs::write(&path, rows).unwrap();
        let model = PenteModel::new(WeightSet::compiled(PenteWeights));
        let err = load(std::slice::from_ref(&path), &model, Target::Result).unwrap_err();
        let prefix = format!("{}:3: board field 2", path.display());
        assert!(err.starts_with(&prefix) && !err.contains('\n'), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

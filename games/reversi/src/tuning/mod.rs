//! Reversi as the tuner's game: its pattern evaluation as a tuning model
//! ([`reversi`]), its reference search that labels positions and grades
//! evaluations ([`label`], [`eval_error`]), and the [`TuningGame`] that
//! hands them to the tuner's loop.

pub mod cli;
pub mod eval_error;
pub mod label;
pub mod reversi;

use crate::eval::{WeightKey, WeightSet};
use crate::with_geometry;
use selfplay::family::GameFamily;
use tuner::game::{LabelRequest, TuningGame};
use tuner::run::Model;

/// Every Reversi variant: the engine's weight sets as one tuning game.
pub struct EngineTuning;

impl TuningGame for EngineTuning {
    type Key = WeightKey;

    fn model(&self, start: WeightSet) -> Box<dyn Model> {
        let v = start.key.variant();
        with_geometry!(v, G => Box::new(reversi::ReversiModel::<G>::new(start)))
    }

    fn family(&self, _key: WeightKey) -> &'static dyn GameFamily {
        &crate::matches::REVERSI
    }

    fn can_label(&self, _key: WeightKey) -> bool {
        true
    }

    fn label(
        &self,
        key: WeightKey,
        request: &LabelRequest<'_>,
        progress: &mut dyn FnMut(usize, usize),
    ) -> Result<usize, String> {
        let variant = key.variant();
        let options = label::LabelOptions {
            depth: request.depth,
            weights: Some(request.weights.to_path_buf()),
            threads: request.threads,
            ..label::LabelOptions::default()
        };
        let summary = with_geometry!(variant, G => label::label::<G>(variant, request.input, request.out, &options, &mut *progress))?;
        Ok(summary.selected)
    }
}

/// Small Reversi positions with exact values, for the tests of the
/// reference search and the labels.
#[cfg(test)]
pub(crate) mod testdata {
    use crate::{Position, Size4, Variant};
    use engine_core::game::Game;
    use engine_core::mix::SplitMix;
    use engine_core::playout::random_line;

    /// The exact value for the side to move, by plain negamax (4x4 games
    /// are at most 12 plies).
    pub(crate) fn negamax(pos: &Position<Size4>) -> i32 {
        if pos.is_terminal() {
            return pos.final_score_for_mover();
        }
        pos.legal_moves().iter().map(|&mv| -negamax(&pos.result(mv))).max().unwrap()
    }

    /// `count` unfinished 4x4 positions, each up to 7 random plies from the
    /// start (seeded).
    pub(crate) fn tiny_positions(count: usize, seed: u64) -> Vec<Position<Size4>> {
        let mut rng = SplitMix(seed);
        let mut out = Vec::new();
        while out.len() < count {
            let plies = rng.below(8) as u32;
            let pos = random_line(Variant::Tiny4.start(), plies, &mut rng);
            if !pos.is_terminal() {
                out.push(pos);
            }
        }
        out
    }
}

//! Static evaluation: what a search calls at its horizon.
//!
//! Scores are from the side to move's point of view, in units where
//! [`SCORE_PER_DISC`] is one disc of final margin, so evaluations and exact
//! endgame scores (disc difference times [`SCORE_PER_DISC`]) compare directly.
//!
//! The strong evaluation is [`PatternEval`]: linear in weights laid out by the
//! per-variant [`Registry`], compiled in from generated files under
//! `weights/` or loaded from a weights file ([`WeightSet`]). Pente's
//! evaluation keeps its weights in the same [`Layout`] and files, keyed by
//! [`WeightKey`].

pub mod classic;
pub mod hand;
pub mod pattern;
pub mod registry;
pub mod weights;

pub use engine_core::weights::layout;

pub use classic::ClassicEval;
pub use layout::Layout;
pub use pattern::{Feature, Features, PatternEval};
pub use registry::{Registry, TableSpec, WeightKey};
pub use weights::WeightSet;

pub use engine_core::eval::{Evaluation, Evaluator, FinalScore};
use engine_core::eval::{SCORE_PER_POINT, points};

/// Score units per disc of final margin: a Reversi disc is the core's point
/// of final score.
pub const SCORE_PER_DISC: i32 = SCORE_PER_POINT;

/// A score in score units as discs.
pub const fn discs(score: i32) -> f64 {
    points(score)
}

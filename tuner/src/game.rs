//! What the tuner needs from a game: [`TuningGame`], implemented beside
//! each game. The tuner's fits, matches and loop are written against it
//! and name no game.

use crate::run::Model;
use engine_core::weights::{WeightKind, WeightSet};
use selfplay::family::GameFamily;
use std::path::Path;

/// A game whose evaluation weights the tuner fits and whose engines it
/// plays against each other.
pub trait TuningGame: Sync {
    /// The game's weight sets (a variant, or the game itself).
    type Key: WeightKind + Send + Sync;

    /// The game's evaluation of `start`'s key as a tuning model, starting
    /// from `start`.
    fn model(&self, start: WeightSet<Self::Key>) -> Box<dyn Model>;

    /// The entry in the programs' registry that plays `key`'s matches.
    fn family(&self, key: Self::Key) -> &'static dyn GameFamily;

    /// Whether the game has a reference search to label positions with
    /// ([`TuningGame::label`]).
    fn can_label(&self, _key: Self::Key) -> bool {
        false
    }

    /// Scores the unfinished positions of `input` (a `positions.csv`) by a
    /// reference search of `label.depth` with the weights `label.weights`,
    /// writing them with a `label` column to `out`; returns how many were
    /// labelled. `progress(done, total)` is told as it goes.
    fn label(
        &self,
        key: Self::Key,
        _label: &LabelRequest<'_>,
        _progress: &mut dyn FnMut(usize, usize),
    ) -> Result<usize, String> {
        Err(format!("{key}: no reference search to label with"))
    }
}

/// What the loop's label step asks of [`TuningGame::label`].
#[derive(Clone, Copy, Debug)]
pub struct LabelRequest<'a> {
    /// The positions to label.
    pub input: &'a Path,
    /// Where the labelled rows go (appended; a rerun resumes).
    pub out: &'a Path,
    /// Depth of the reference search.
    pub depth: u32,
    /// Its weights.
    pub weights: &'a Path,
    /// Worker threads.
    pub threads: usize,
}

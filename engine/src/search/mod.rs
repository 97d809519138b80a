//! The strong engine's search.
//!
//! INTERIM: this module fixes the public interface ([`EngineConfig`],
//! [`ReversiEngine`]) that self-play and the programs use. The search behind
//! it is a plain fixed-depth negamax on disc difference until the real engine
//! (iterative deepening PVS, transposition table, endgame solver) lands.

use crate::agent::{Agent, Clock, Decision};
use crate::game::Game;
use crate::reversi::{Geometry, Position, Variant};
use std::path::PathBuf;

/// How an engine player searches: the limits of one move and its resources.
/// Unset limits fall back to the game clock.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EngineConfig {
    /// Search exactly this many plies (iterative deepening stops there).
    pub depth: Option<u32>,
    /// Stop after about this many nodes.
    pub nodes: Option<u64>,
    /// Seconds of CPU time per move.
    pub move_time: Option<f64>,
    /// Transposition table size in MiB (0: the engine's default).
    pub tt_mb: usize,
    /// Evaluation weights file written by the tuner (default: compiled in).
    pub weights: Option<PathBuf>,
    /// Nodes per second this machine searches, as measured by a calibration
    /// program; scales the time plan (default: the engine's own estimate).
    pub nps_hint: Option<f64>,
}

/// The strong engine as a player of Reversi on geometry `G`.
pub struct ReversiEngine<G: Geometry> {
    variant: Variant,
    config: EngineConfig,
    nodes: u64,
    geometry: std::marker::PhantomData<G>,
}

impl<G: Geometry> ReversiEngine<G> {
    /// An engine for `variant` (whose board must be `G`) with `config`; fails
    /// when the weights file cannot be used.
    pub fn new(variant: Variant, config: EngineConfig) -> Result<Self, String> {
        assert_eq!(variant.size(), G::N, "variant {variant} is not played on this geometry");
        if let Some(path) = &config.weights {
            return Err(format!("{}: weight files are not supported yet", path.display()));
        }
        Ok(ReversiEngine { variant, config, nodes: 0, geometry: std::marker::PhantomData })
    }

    fn negamax(&mut self, pos: &Position<G>, depth: u32) -> i32 {
        self.nodes += 1;
        if depth == 0 || pos.is_terminal() {
            return pos.final_score_for_mover();
        }
        pos.legal_moves().iter().map(|&mv| -self.negamax(&pos.play(mv), depth - 1)).max().unwrap_or(i32::MIN + 1)
    }
}

impl<G: Geometry> Agent<Position<G>> for ReversiEngine<G> {
    fn name(&self) -> String {
        format!("engine-{}", self.variant)
    }

    fn choose(&mut self, state: &Position<G>, _clock: &Clock) -> Decision<crate::reversi::Move<G>> {
        self.nodes = 0;
        let depth = self.config.depth.unwrap_or(2).max(1);
        let moves = state.legal_moves();
        let mut best = (moves[0], i32::MIN);
        for &mv in moves.iter() {
            let score = -self.negamax(&state.play(mv), depth - 1);
            if score > best.1 {
                best = (mv, score);
            }
        }
        Decision { mv: best.0, score: Some(best.1), depth: Some(depth), nodes: self.nodes }
    }
}

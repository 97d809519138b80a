//! The Reversi pattern evaluation as a tuning [`Model`]: weights and bounds
//! from the engine's weight registry, features from its extractor.

use crate::packed::{PackedBoard, Packer, SIDE_WORDS};
use crate::run::Model;
use engine::eval::{Features, WeightKey, WeightSet};
use engine::reversi::{Geometry, Position, Variant};
use engine_core::bitboard::BitSet;
use engine_core::game::Color;

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
        let variant = start.key.variant().expect("Reversi weights for a Reversi model");
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
        let pos = self.position(board)?;
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

    fn packer(&self) -> Option<&dyn Packer> {
        Some(self)
    }
}

impl<G: Geometry> ReversiModel<G> {
    /// The position `board` (flattened text form).
    fn position(&self, board: &str) -> Result<Position<G>, String> {
        Position::<G>::parse(&unflatten(board), self.variant.scoring())
            .map_err(|e| format!("board field {e} of `{board}`"))
    }
}

impl<G: Geometry> Packer for ReversiModel<G> {
    fn pack(&self, board: &str) -> Result<PackedBoard, String> {
        const { assert!(<G::Bits as BitSet>::WORDS <= SIDE_WORDS, "a side packs into SIDE_WORDS words") };
        let pos = self.position(board)?;
        let words = |bits: G::Bits| -> [u64; SIDE_WORDS] {
            std::array::from_fn(|i| if i < <G::Bits as BitSet>::WORDS { bits.word(i) } else { 0 })
        };
        Ok(PackedBoard::new(&words(pos.player()), &words(pos.opponent()), pos.to_move() == Color::White))
    }

    fn packed_features(&self, board: &PackedBoard, out: &mut Vec<(u32, i32)>) {
        let words = <G::Bits as BitSet>::WORDS;
        let player = G::Bits::from_words(&board.player()[..words]);
        let opponent = G::Bits::from_words(&board.opponent()[..words]);
        let (to_move, black, white) =
            if board.white_to_move() { (Color::White, opponent, player) } else { (Color::Black, player, opponent) };
        let pos = Position::<G>::from_discs(black, white, to_move, self.variant.scoring());
        out.clear();
        self.features.for_each_feature(&pos, |index, m| out.push((self.canonical[index], m)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::packed::Packer;
    use engine::eval::{Evaluator, PatternEval};
    use engine::matches::ReversiProtocol;
    use engine::reversi::Size8;
    use engine_core::game::Game;
    use selfplay::protocol::GameProtocol;

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

    /// A packed board gives the features of its text form (as sums per
    /// weight), on the 8x8 and on the 12x12 board, either side to move.
    fn check_packing<G: engine::reversi::CompiledGeometry>(variant: Variant) {
        let model = ReversiModel::<G>::new(WeightSet::compiled(variant));
        let mut rng = engine_core::mix::SplitMix(5);
        let mut pos: Position<G> = variant.start();
        let mut unpacked = Vec::new();
        let mut sides = [false; 2];
        let protocol = ReversiProtocol::<G>::new(variant);
        for ply in 0..40 {
            let flat = protocol.flatten(&pos);
            let board = model.pack(&flat).unwrap();
            sides[usize::from(board.white_to_move())] = true;
            model.packed_features(&board, &mut unpacked);
            let mut sums = std::collections::BTreeMap::new();
            for &(i, m) in &unpacked {
                *sums.entry(i).or_insert(0) += m;
            }
            sums.retain(|_, m| *m != 0);
            assert_eq!(sums.into_iter().collect::<Vec<_>>(), model.features(&flat).unwrap(), "{variant} ply {ply}");
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.make(moves[rng.below(moves.len())]);
        }
        assert_eq!(sides, [true, true], "both sides to move were packed");
    }

    #[test]
    fn packed_boards_give_the_features_of_their_text() {
        check_packing::<Size8>(Variant::Othello8);
        check_packing::<engine::reversi::Size12>(Variant::Duo12);
    }
}

//! The Reversi pattern evaluation as a tuning [`Model`]: weights and bounds
//! from the engine's weight registry, features from its extractor.

use crate::eval::layout::Layout;
use crate::eval::{Features, WeightKey, WeightSet};
use crate::{Geometry, Position, Variant};
use engine_core::bitboard::BitSet;
use engine_core::game::Color;
use tuner::packed::{PackedBoard, Packer, SIDE_WORDS};
use tuner::run::Model;

/// The pattern evaluation of one variant, starting from a weight set.
///
/// Each orbit of a self-symmetric pattern table is one weight here: the
/// features name canonical entries only, and the start is tied
/// ([`WeightSet::tied`]), so the tuner trains every pattern weight once and
/// [`weight_set`](tuner::run::weight_set) spreads it over its orbit.
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
        let variant = start.key.variant();
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
    fn layout(&self) -> &'static Layout {
        WeightKey(self.variant).layout()
    }

    fn weights(&self) -> Vec<i32> {
        self.start.widened()
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
    use crate::Size8;
    use crate::eval::{Evaluator, PatternEval};
    use crate::matches::ReversiProtocol;
    use engine_core::game::Game;
    use engine_core::playout::random_playout;
    use selfplay::protocol::GameProtocol;
    use tuner::dataset::Rows;
    use tuner::packed::Packer;

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
    fn check_packing<G: crate::CompiledGeometry>(variant: Variant) {
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
        check_packing::<crate::Size12>(Variant::Duo12);
    }

    #[test]
    fn positions_files_load_with_or_without_the_cpu_and_nodes_columns() {
        let model = ReversiModel::<Size8>::new(WeightSet::compiled(Variant::Othello8));
        let board = "X/......../......../....O.../..XOO.../..OXOX../...OO.../...XO.../........";
        let dir = std::env::temp_dir().join(format!("tuner-columns-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let old = dir.join("old.csv");
        let new = dir.join("new.csv");
        std::fs::write(&old, format!("game,ply,side,board,score,depth,result,disc_diff\n0,0,X,{board},-54,2,1.0,50\n"))
            .unwrap();
        std::fs::write(
            &new,
            format!(
                "game,ply,side,board,score,depth,result,disc_diff,cpu,nodes\n0,0,X,{board},-54,2,1.0,50,0.01,1234\n\
                 1,0,X,{board},,,0.0,-50,0.0,\n"
            ),
        )
        .unwrap();
        let old_data = tuner::run::load(std::slice::from_ref(&old), &model, tuner::run::Target::Result).unwrap();
        let new_data = tuner::run::load(std::slice::from_ref(&new), &model, tuner::run::Target::Result).unwrap();
        assert_eq!((old_data.len(), new_data.len()), (1, 2));
        assert_eq!((old_data.target(0), new_data.target(0), new_data.target(1)), (1.0, 1.0, 0.0));
        assert_eq!(old_data.features(0).collect::<Vec<_>>(), new_data.features(0).collect::<Vec<_>>());
        // `label` reads the label column where there is one (32 discs of 64:
        // target 0.75), else the final disc difference (50: 0.890625).
        let labelled = dir.join("labelled.csv");
        std::fs::write(&labelled, format!("game,board,result,disc_diff,label\n0,{board},1.0,50,32.00\n")).unwrap();
        let data = tuner::run::load(&[labelled, old], &model, tuner::run::Target::Label).unwrap();
        assert_eq!((data.target(0), data.target(1)), (0.75, 0.890625));
        // Through the fit's logistic: 32 discs at K = 0.0005 is
        // sigmoid(1.6); the unlabelled row keeps its disc difference, 50.
        let data = tuner::run::load(
            &[dir.join("labelled.csv"), dir.join("old.csv")],
            &model,
            tuner::run::Target::Score(0.0005),
        )
        .unwrap();
        assert!((data.target(0) - 1.0 / (1.0 + (-1.6f64).exp())).abs() < 1e-12);
        assert!((data.target(1) - 1.0 / (1.0 + (-2.5f64).exp())).abs() < 1e-12);
        // Game 0 of either file is one split key: a labelled sample goes
        // where its run's positions go.
        assert_eq!(data.game(0), data.game(1));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// The same positions as boards and as features: one fit, to the bit,
    /// on one thread or many.
    #[test]
    fn packed_boards_fit_like_their_features_on_any_thread_count() {
        use crate::Size6;
        use tuner::dataset::{Dataset, Sample, mix};
        use tuner::gradient::{GradientOptions, fit};
        use tuner::packed::PackedDataset;
        use tuner::run::Model;
        const K: f64 = 0.01;
        let model = ReversiModel::<Size6>::new(WeightSet::compiled(Variant::Othello6));
        let (mut features, mut packed) = (Dataset::new(), PackedDataset::new(&model));
        let mut rng = engine_core::mix::SplitMix(3);
        let protocol = ReversiProtocol::<Size6>::new(Variant::Othello6);
        for game in 0..300u64 {
            let target = [0.0, 0.5, 1.0][rng.below(3)];
            random_playout(Variant::Othello6.start(), &mut rng, |pos: &Position<Size6>| {
                let flat = protocol.flatten(pos);
                features.push(&Sample { game, features: model.features(&flat).unwrap(), target });
                packed.push(game, tuner::packed::Packer::pack(&model, &flat).unwrap(), target);
                true
            });
        }
        assert!(features.len() > 2 * tuner::loss::CHUNK, "several chunks: {}", features.len());
        let split = |g: u64| mix(g).is_multiple_of(5);
        let (train, validation) = features.split_by_game(split);
        let (packed_train, packed_validation) = packed.split_by_game(split);
        let bounds = model.bounds();
        let start = model.weights();
        let options =
            GradientOptions { learning_rate: 2.0, l2: 1.0, epochs: 3, patience: 3, decays: 0, anchored: false };
        let on_features = fit(&train, &validation, &bounds, &start, K, &options, |_| {});
        let on_boards = || fit(&packed_train, &packed_validation, &bounds, &start, K, &options, |_| {});
        let boards = on_boards();
        assert!(on_features.log[3].train_loss < on_features.log[0].train_loss, "{:?}", on_features.log);
        for (a, b) in on_features.log.iter().zip(&boards.log) {
            assert!((a.train_loss - b.train_loss).abs() < 1e-9 && (a.validation_loss - b.validation_loss).abs() < 1e-9);
        }
        let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
        let one_thread = pool.install(on_boards);
        assert_eq!(one_thread.weights, boards.weights);
        assert_eq!(
            one_thread.log.iter().map(|r| r.train_loss).collect::<Vec<_>>(),
            boards.log.iter().map(|r| r.train_loss).collect::<Vec<_>>()
        );
    }
}

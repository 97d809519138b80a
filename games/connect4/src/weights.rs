//! The window evaluation's weight set: its key ([`Connect4Weights`], one
//! set for every board size), its layout (five one-entry tables, repeated
//! for [`PHASES`] phases of the game) and the compiled-in file
//! `games/connect4/weights/connect4.bin`, the only place the weights live.
//! The file forms are the core's ([`engine_core::weights`]).

use engine_core::weights::{Bounds, Layout, WeightKind, WeightSet, decode_compiled};
use std::sync::OnceLock;

/// Phases of the game, by the share of the board's cells filled.
pub const PHASES: usize = 3;

/// The tables of a phase, in layout order: what a window of four holding
/// one, two or three of a player's discs and none of the opponent's is
/// worth to its holder, a disc in the centre column (the two centre
/// columns of an even board), and having the move.
pub const TABLES: [&str; 5] = ["window_one", "window_two", "window_three", "center", "tempo"];

/// The table of open windows holding one of the player's discs.
pub const WINDOW_ONE: usize = 0;
/// Holding two.
pub const WINDOW_TWO: usize = 1;
/// Holding three (a threat of four).
pub const WINDOW_THREE: usize = 2;
/// A disc in a centre column.
pub const CENTER: usize = 3;
/// The side to move's tempo.
pub const TEMPO: usize = 4;

/// Weights per phase.
pub const TABLE_COUNT: usize = TABLES.len();

/// Weights in all.
pub const WEIGHTS: usize = PHASES * TABLE_COUNT;

/// Every weight's bounds and tuner step: small enough that no evaluation
/// of a standard board reaches [`crate::eval::MAX_EVAL`] (at most 138
/// window differences, 12 centre discs and the tempo, times 64).
pub const WEIGHT_BOUNDS: Bounds = (-64, 64, 1);

/// The hand-set weights of every phase (the evaluation before any
/// tuning), in [`TABLES`] order.
pub const HAND: [i16; TABLE_COUNT] = [1, 4, 16, 0, 2];

/// The command that writes the hand-set file.
pub const REGENERATE_COMMAND: &str = "cargo run -p connect4 --example connect4_weights";

/// The phase of a position with `discs` discs on a board of `cells` cells.
pub const fn phase(discs: usize, cells: usize) -> usize {
    discs * PHASES / (cells + 1)
}

engine_core::single_weight_key! {
    /// The key of Connect Four's weight set (`variant connect4` in a file,
    /// the game's variant name too).
    pub Connect4Weights = "connect4"
}

impl WeightKind for Connect4Weights {
    const LAYOUT_SOURCE: &'static str = "connect4::weights";
    const COMPILED_DIR: &'static str = "games/connect4/weights";

    fn layout(self) -> &'static Layout {
        static LAYOUT: OnceLock<Layout> = OnceLock::new();
        LAYOUT.get_or_init(|| {
            let mut layout = Layout::new(PHASES);
            for name in TABLES {
                layout.push(name, 1, WEIGHT_BOUNDS);
            }
            layout
        })
    }

    fn compiled(self) -> &'static [i16] {
        static DECODED: OnceLock<Vec<i16>> = OnceLock::new();
        DECODED.get_or_init(|| decode_compiled(self, include_bytes!("../weights/connect4.bin")))
    }
}

/// The hand-set weights as a weight set.
pub fn hand_set() -> WeightSet<Connect4Weights> {
    WeightSet { key: Connect4Weights, values: HAND.repeat(PHASES) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_layout_is_the_tables_per_phase_and_the_phases_cover_the_game() {
        let layout = Connect4Weights.layout();
        assert_eq!(layout.len(), WEIGHTS);
        for (t, name) in TABLES.iter().enumerate() {
            assert_eq!(layout.table(name), Some(t));
        }
        // An empty board is the first phase and a full one the last, on
        // every board size, and the phase never falls as discs are added.
        for cells in [16, 42, 56] {
            assert_eq!((phase(0, cells), phase(cells, cells)), (0, PHASES - 1));
            assert!((1..=cells).all(|d| phase(d, cells) >= phase(d - 1, cells)));
        }
    }

    #[test]
    fn the_compiled_file_holds_a_valid_set_and_the_hand_set_round_trips() {
        let compiled = Connect4Weights.compiled();
        assert_eq!(compiled.len(), WEIGHTS);
        let set = WeightSet { key: Connect4Weights, values: compiled.to_vec() };
        set.validate().unwrap();
        let hand = hand_set();
        let text = hand.to_text();
        assert_eq!(WeightSet::<Connect4Weights>::parse(&text, "hand").unwrap(), hand);
        let bytes = hand.to_binary(&["test".into()]);
        assert_eq!(WeightSet::<Connect4Weights>::parse_binary(&bytes, "hand").unwrap(), hand);
        assert!("othello8".parse::<Connect4Weights>().is_err());
    }
}

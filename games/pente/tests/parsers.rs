//! Property tests of Pente's file protocol: random positions round-trip
//! through `input.txt` and `output.txt`; random bytes and truncations of a
//! valid file give a one-line error (or a valid reading), never a panic.

use engine_core::game::Game;
use engine_core::playout::chosen_line;
use pente::PentePosition;
use pente::protocol;
use proptest::prelude::*;
use selfplay::checks::{one_line, prefixes};

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn pente_input_files_round_trip(choices in proptest::collection::vec(any::<u16>(), 0..80), time in 0.0f64..1000.0) {
        let pos = chosen_line(PentePosition::new(), &choices);
        prop_assume!(!pos.is_terminal());
        let read = protocol::parse_input(&protocol::input_text(&pos, time)).unwrap();
        prop_assert!(read.position == pos, "the position changed");
        prop_assert_eq!(read.time_left, time);
        for &mv in pos.legal_moves().iter() {
            prop_assert_eq!(protocol::parse_output(&protocol::output_text(mv)), Ok(mv));
        }
    }

    #[test]
    fn random_bytes_are_an_error_not_a_panic(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        let text = String::from_utf8_lossy(&bytes);
        if let Err(e) = protocol::parse_input(&text) {
            prop_assert!(one_line(&e.to_string()), "{e}");
        }
        if let Err(e) = protocol::parse_output(&text) {
            prop_assert!(one_line(&e), "{e:?}");
        }
    }
}

#[test]
fn truncated_input_files_are_an_error_or_a_reading_never_a_panic() {
    let text = protocol::input_text(&chosen_line(PentePosition::new(), &[2, 7, 1, 8, 2, 8]), 42.5);
    for prefix in prefixes(&text) {
        if let Err(e) = protocol::parse_input(prefix) {
            assert!(one_line(&e.to_string()), "{e}");
        }
    }
}

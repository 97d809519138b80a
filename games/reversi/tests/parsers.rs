//! Property tests of the input parsers: random positions round-trip through
//! every text form; random bytes and truncations of valid files give a
//! one-line error (or a valid reading), never a panic.

use engine_core::game::Game;
use engine_core::playout::chosen_line;
use proptest::prelude::*;
use reversi::eval::{WeightKey, WeightSet};
use reversi::protocol::duo;
use reversi::{Geometry, Position, Size8, Size12, Variant, ffo};
use selfplay::checks::{one_line, prefixes};

fn reversi_text_round_trips<G: Geometry>(variant: Variant, choices: &[u16]) {
    let pos: Position<G> = chosen_line(variant.start(), choices);
    let text = pos.to_string();
    assert_eq!(Position::<G>::parse(&text, variant.scoring()), Ok(pos), "{text}");
}

/// A Duo `input.txt` written by the game master's writer.
fn duo_input(choices: &[u16], own: f64, opponent: f64) -> (Position<Size12>, String) {
    let pos: Position<Size12> = chosen_line(Variant::Duo12.start(), choices);
    (pos, duo::input_text(&pos, own, opponent))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn reversi_positions_round_trip_through_the_text_form(choices in proptest::collection::vec(any::<u16>(), 0..150)) {
        reversi_text_round_trips::<Size8>(Variant::Othello8, &choices);
        reversi_text_round_trips::<Size12>(Variant::Duo12, &choices);
    }

    #[test]
    fn duo_input_files_round_trip(
        choices in proptest::collection::vec(any::<u16>(), 0..140),
        own in 0.0f64..1000.0,
        opponent in 0.0f64..1000.0,
    ) {
        let (pos, text) = duo_input(&choices, own, opponent);
        // A side with no move is not a position the game master asks about.
        prop_assume!(!pos.legal_moves().is_empty() && !pos.legal_moves()[0].is_pass());
        let read = duo::parse_input(&text).unwrap();
        prop_assert_eq!(read.position, pos);
        prop_assert_eq!(read.own_time, Some(own));
        prop_assert_eq!(read.opponent_time, Some(opponent));
        prop_assert!(read.warnings.is_empty());
        for &mv in pos.legal_moves().iter() {
            prop_assert_eq!(duo::parse_output::<Size12>(&duo::output_text(mv)), Ok(mv));
        }
    }

    #[test]
    fn random_bytes_are_an_error_not_a_panic(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        let text = String::from_utf8_lossy(&bytes);
        if let Err(e) = duo::parse_input(&text) {
            prop_assert!(one_line(&e), "{e:?}");
        }
        if let Err(e) = duo::parse_output::<Size12>(&text) {
            prop_assert!(one_line(&e), "{e:?}");
        }
        if let Err(e) = Position::<Size8>::parse(&text, Variant::Othello8.scoring()) {
            prop_assert!(one_line(&e.to_string()), "{e}");
        }
        if let Err(e) = ffo::parse_line(&text, 1) {
            prop_assert!(one_line(&e), "{e:?}");
        }
        if let Err(e) = WeightSet::parse_binary(&bytes, "random") {
            prop_assert!(one_line(&e), "{e:?}");
        }
        if let Err(e) = WeightSet::parse(&text, "random") {
            prop_assert!(one_line(&e), "{e:?}");
        }
    }

    #[test]
    fn a_changed_byte_in_a_weights_file_is_an_error_or_a_reading(at in any::<usize>(), byte in any::<u8>()) {
        let mut bytes = WeightSet::compiled(WeightKey(Variant::Othello6)).to_binary(&[]);
        let at = at % bytes.len();
        bytes[at] = byte;
        if let Err(e) = WeightSet::parse_binary(&bytes, "changed") {
            prop_assert!(one_line(&e), "{e:?}");
        }
    }
}

#[test]
fn truncated_input_files_are_an_error_or_a_reading_never_a_panic() {
    let (_, duo_text) = duo_input(&[3, 1, 4, 1, 5, 9, 2, 6], 123.25, 99.5);
    for prefix in prefixes(&duo_text) {
        if let Err(e) = duo::parse_input(prefix) {
            assert!(one_line(&e), "{e:?}");
        }
    }
    let weights = WeightSet::compiled(WeightKey(Variant::Othello6));
    let binary = weights.to_binary(&["note".into()]);
    for end in 0..binary.len() {
        let e = WeightSet::parse_binary(&binary[..end], "truncated").unwrap_err();
        assert!(one_line(&e), "{e:?}");
    }
    let text = weights.to_text();
    for prefix in prefixes(&text).step_by(97) {
        if let Err(e) = WeightSet::parse(prefix, "truncated") {
            assert!(one_line(&e), "{e:?}");
        }
    }
}

// @generated: Pente evaluation weights. Hand-set initial values; regenerate with
// `cargo run --release -p tuner -- --variant pente --write engine/src/pente/weights.rs`
// once the tuner reads the Pente registry (`engine::pente::eval::TABLES`).
// This file is the only place the values live.

//! Pente evaluation weights (see [`super::eval::TABLES`] for names and ranges).

/// `pente.own_shape`: per line and candidate cell, the side to move's shape
/// (indexed by [`super::pattern::Shape`]).
#[rustfmt::skip]
pub const OWN_SHAPE: [i32; 9] = [0, 1, 6, 14, 30, 80, 150, 1200, 20000];

/// `pente.opp_shape`: the same for the opponent (subtracted).
#[rustfmt::skip]
pub const OPP_SHAPE: [i32; 9] = [0, 1, 5, 12, 25, 60, 100, 600, 8000];

/// `pente.captured`: value of having captured 0..=4 pairs.
#[rustfmt::skip]
pub const CAPTURED: [i32; 5] = [0, 60, 150, 320, 700];

/// `pente.capture_move`: per capturable pair, for the side to move, then for
/// the opponent (subtracted: a vulnerable pair of the side to move).
#[rustfmt::skip]
pub const CAPTURE_MOVE: [i32; 2] = [40, 50];

//! Reversi (Othello-family games from 4x4 to 12x12, Duo-Othello) on the
//! game-free core (`engine_core`): its rules, evaluations, endgame solver,
//! search glue, players, file protocols and programs. Pente and Connect
//! Four are crates of their own beside it (`games/`).
//!
//! Layers, lowest first; each names only layers below it and the core
//! (checked by `tests/layers.rs`):
//!
//! 1. the rules: [`reversi`]'s geometry, positions, variants, text form,
//!    hashing, perft and stable discs;
//! 2. evaluation: [`eval`] (pattern and classic evaluations, the weight
//!    registry and files), the textbook programs' evaluations
//!    ([`textbook`]) and the reference agent's ([`reference`]);
//! 3. the search glue beside the rules: `reversi::{search, endgame, ffo}`;
//! 4. players: `reversi::agents`;
//! 5. [`protocol`]: the competition programs' file protocols; [`analysis`]:
//!    the `analyze` command's work; [`matches`]: Reversi's half of a match
//!    for the generic match runner (`selfplay`); [`tuning`]: its half of
//!    the generic tuner (the evaluation as a tuning model, the labelling
//!    search); then the binaries in `src/bin`.

pub mod analysis;
pub mod eval;
pub mod matches;
pub mod protocol;
pub mod reference;
pub mod reversi;
pub mod textbook;
pub mod tuning;

#[cfg(test)]
mod search_tests;

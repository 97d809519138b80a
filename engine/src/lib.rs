//! Reversi (Othello-family games from 4x4 to 12x12, Duo-Othello) and
//! Pente on the game-free core (`engine_core`): their rules, evaluations,
//! search glue, players and file protocols.
//!
//! Layers, lowest first; each names only layers below it and the core
//! (checked by `tests/layers.rs`):
//!
//! 1. the rules: [`reversi`]'s geometry, positions, variants, text form,
//!    hashing, perft and stable discs; [`pente`]'s board and shapes;
//! 2. evaluation: [`eval`] (pattern and classic evaluations, the weight
//!    registry and files) and Pente's evaluation;
//! 3. each game's search glue beside its rules: `reversi::{search, endgame,
//!    ffo}`, `pente::{search, threats, length}`;
//! 4. players: `reversi::agents`, `pente::agents`, [`textbook`],
//!    [`reference`];
//! 5. [`protocol`]: the competition programs' file protocols; [`analysis`]:
//!    the `analyze` command's work; [`matches`]: the games' halves of a
//!    match for the generic match runner (`selfplay`); [`tuning`]: the
//!    games' halves of the generic tuner (their evaluations as tuning
//!    models, Reversi's labelling search); then the binaries in `src/bin`.

pub mod analysis;
pub mod eval;
pub mod matches;
pub mod pente;
pub mod protocol;
pub mod reference;
pub mod reversi;
pub mod textbook;
pub mod tuning;

#[cfg(test)]
mod search_tests;

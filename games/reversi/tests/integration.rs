//! The engine's integration tests, one module per program or topic, built
//! as one test binary (each test binary is another fat-LTO link under
//! `cargo test --release`).

mod documentation;
mod duo_program;
mod ffo;
mod layers;
mod nboard;
mod parsers;
mod perft;
mod reversi_2014;
mod reversi_play;
mod reversi_tiny;

//! The engine's integration tests, one module per program or topic, built
//! as one test binary (each test binary is another fat-LTO link under
//! `cargo test --release`).

mod analyze;
mod documentation;
mod duo_program;
mod ffo;
mod layers;
mod nboard;
mod parsers;
mod pente_agents;
mod pente_common;
mod pente_program;
mod pente_rules;
mod pente_tactics;
mod perft;
mod programs;
mod reversi_2014;
mod reversi_play;
mod reversi_tiny;

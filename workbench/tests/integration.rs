//! The workbench programs' integration tests (selfplay, tuner), built as
//! one test binary (each test binary is another fat-LTO link under
//! `cargo test --release`).

mod analyze;
mod game_master;
mod nboard;
mod pente;
mod registry;
mod report;
mod runs;
mod slurm;
mod suites;
mod tuner_convert;
mod tuner_loop;
mod tuner_pente;
mod tuner_spsa;

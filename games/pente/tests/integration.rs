//! Pente's integration tests, one module per topic, built as one test
//! binary.

mod agents;
mod common;
mod parsers;
mod program;
mod rules;
mod tactics;

//! Placeholder: the perft benches land with the engine-core benches.

fn main() {}

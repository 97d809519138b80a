//! File protocols of the competition programs: what the game masters write
//! and read, parsed and validated here so the programs stay thin and the
//! formats are unit-tested.

pub mod duo;

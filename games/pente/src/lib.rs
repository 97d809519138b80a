//! Pente on 19x19 with captures, under the rules of the competition handout
//! (`docs/src/protocols/handouts/pente.txt`) as settled by PROTOCOLS.md,
//! built on the game-free core ([`engine_core`]) like any game's crate.
//!
//! Dependencies run one way: [`pattern`] (line keys and line-pattern
//! tables) under [`board`] (rules, and the line counts it keeps from the
//! tables) under [`threats`] (immediate wins, forcing moves, VCF) and
//! [`eval`] (pattern evaluation; its weight set is keyed and laid out in
//! [`weights`], its values compiled in from `games/pente/weights/pente.bin`);
//! [`search`] gives the shared search ([`engine_core::search`]) its Pente
//! hooks (tactics, move ordering, VCF at the root, the expected game length
//! of [`length`] for the time plan); [`agents`] puts the engine and the
//! reference players together as [`engine_core::agent::Agent`]s. Above
//! them: the file protocol ([`protocol`]), the match glue and registry
//! entry ([`matches`]) and the tuner's model ([`tuning`]).

pub mod agents;
pub mod board;
pub mod eval;
pub mod length;
pub mod matches;
pub mod pattern;
pub mod protocol;
pub mod search;
pub mod threats;
pub mod tuning;
pub mod weights;

pub use agents::{NearRandomAgent, PenteEngine, PenteMinimax, pente_engine, pente_minimax};
pub use board::{Cell, PentePosition};
pub use matches::{PENTE, PenteProtocol};

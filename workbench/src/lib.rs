//! The registry of the games the workbench's programs play: a game's crate
//! provides its entry (a [`GameFamily`]: its variants' names, a match, a
//! balanced suite) and registers it here, in [`GAMES`], the one place that
//! names every game. `selfplay --variant NAME` looks the name up with
//! [`game`].

use selfplay::family::{self, GameFamily};

/// Every game the programs play, in the order `--help` lists them.
pub static GAMES: &[&dyn GameFamily] =
    &[&engine::matches::REVERSI, &engine::matches::PENTE, &connect4::matches::CONNECT4];

/// The registry entry that plays `variant`; the error lists every variant.
pub fn game(variant: &str) -> Result<&'static dyn GameFamily, String> {
    family::find(GAMES, variant)
}

/// Every variant name, comma separated (for help texts and errors).
pub fn variant_names() -> String {
    GAMES.iter().flat_map(|g| g.variants().iter().copied()).collect::<Vec<_>>().join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_variant_is_registered_once_and_found() {
        let mut seen = std::collections::HashSet::new();
        for g in GAMES {
            for v in g.variants() {
                assert!(seen.insert(*v), "{v} registered twice");
                assert!(std::ptr::addr_eq(game(v).unwrap(), *g), "{v}");
            }
        }
        for v in ["tiny4", "othello8", "duo12", "pente", "connect4"] {
            assert!(seen.contains(v), "{v} is not registered");
        }
        let err = game("go").err().unwrap();
        assert!(err.starts_with("unknown variant `go`: expected one of tiny4"), "{err}");
    }
}

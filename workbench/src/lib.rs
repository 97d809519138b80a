//! The registry of the games the workbench's programs play: a game's crate
//! provides its entry (a [`GameFamily`]: its variants' names, a match, a
//! balanced suite) and registers it here, the one file that names every
//! game: in [`GAMES`], and, when it has weights to tune, in
//! [`with_tuning_game!`] (its `TuningGame`). `selfplay --variant NAME`
//! looks the name up with [`game`]; the `tuner` program finds the game
//! whose weight set `--variant` names with [`with_tuning_game!`].

use selfplay::family::{self, GameFamily};

/// Every game the programs play, in the order `--help` lists them.
pub static GAMES: &[&dyn GameFamily] = &[&reversi::matches::REVERSI, &pente::PENTE, &connect4::matches::CONNECT4];

/// The registry entry that plays `variant`; the error lists every variant.
pub fn game(variant: &str) -> Result<&'static dyn GameFamily, String> {
    family::find(GAMES, variant)
}

/// Every variant name, comma separated (for help texts and errors).
pub fn variant_names() -> String {
    GAMES.iter().flat_map(|g| g.variants().iter().copied()).collect::<Vec<_>>().join(", ")
}

/// Runs `$body` with `$game` bound to the tuning game
/// ([`tuner::game::TuningGame`]) whose weight sets include the one named
/// `$variant` (a `&str`); else an `Err` naming every weight set the tuner
/// knows.
#[macro_export]
macro_rules! with_tuning_game {
    ($variant:expr, $game:ident => $body:expr) => {{
        let variant: &str = $variant;
        if variant.parse::<reversi::eval::WeightKey>().is_ok() {
            let $game = &reversi::tuning::EngineTuning;
            $body
        } else if variant.parse::<pente::weights::PenteWeights>().is_ok() {
            let $game = &pente::tuning::PenteTuning;
            $body
        } else if variant.parse::<connect4::weights::Connect4Weights>().is_ok() {
            let $game = &connect4::tuning::Connect4Tuning;
            $body
        } else {
            Err($crate::unknown_tunable(variant))
        }
    }};
}

/// The names of the weight sets the tuner knows.
pub fn tunable_variants() -> Vec<String> {
    let mut names: Vec<String> = reversi::eval::WeightKey::ALL.iter().map(|k| k.to_string()).collect();
    names.push(pente::weights::PenteWeights.to_string());
    names.push(connect4::weights::Connect4Weights.to_string());
    names
}

/// The error for a weight set named `variant` that no game has.
pub fn unknown_tunable(variant: &str) -> String {
    format!("unknown variant `{variant}`: expected one of {}", tunable_variants().join(", "))
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

//! Reversi's own registered parameters: the exact endgame solver's
//! settings, the Multi-ProbCut guard against wipeouts and the Duo
//! program's blockade check. They are set by name like the core's search
//! and time parameters (`--param NAME=VALUE`, `engine:NAME=VALUE`); the
//! defaults of each board size are in `super::search`.

engine_core::param_registry! {
    /// Values of every Reversi parameter.
    pub struct ReversiParams {
    /// Players that answer with less depth than this many plies plus one
    /// (a tiny clock, the one-ply answer) refuse a move after which the
    /// opponent can force the game to end with its win within this many
    /// plies, when a move without that exists (Duo-Othello's opening
    /// blockades; 0: no check).
    blockade_plies = "search.blockade_plies", 3.0, 0.0, 8.0;
    /// Nodes whose side to move holds less than this share of the discs
    /// are never cut (0: all may be): a shallow search does not see the
    /// wipeouts that lie a few plies ahead of them, and the evaluation
    /// misjudges such lopsided positions (book: engine/selectivity.md).
    mpc_min_disc_share = "mpc.min_disc_share", 0.0, 0.0, 0.5;
    /// The exact solver walks the empty cells in parity order, with no move
    /// generation and no table, at most this many empties from the end (the
    /// last two always take their own shortcut).
    endgame_shallow_empties = "endgame.shallow_empties", 6.0, 0.0, 20.0;
    /// The exact solver tries the stable-disc ceiling (a cut when the
    /// opponent's stable discs hold the score at or below alpha) at nodes
    /// with at least this many empties.
    endgame_stability_empties = "endgame.stability_empties", 7.0, 0.0, 64.0;
    /// ...when alpha is at least this many discs per empty cell (a ceiling
    /// seldom cuts a low alpha, and the stable discs cost a few hundred
    /// instructions; the lowest value, the default, never skips it).
    endgame_stability_alpha_per_empty = "endgame.stability_alpha_per_empty", -64.0, -64.0, 64.0;
    /// The exact solver uses the transposition table from this many
    /// empties on...
    endgame_table_empties = "endgame.table_empties", 9.0, 0.0, 64.0;
    /// ...and first looks up every child there from this many (enhanced
    /// transposition cut-off).
    endgame_etc_empties = "endgame.etc_empties", 15.0, 0.0, 64.0;
    /// Solver move ordering (fastest first): weight of one opponent reply...
    endgame_reply_weight = "endgame.reply_weight", 64.0, 0.0, 1000.0;
    /// ...of one empty cell next to the opponent's discs (a reply to come)...
    endgame_potential_weight = "endgame.potential_weight", 4.0, 0.0, 1000.0;
    /// ...of the mobility kept after the opponent's best reply, looked at
    /// from this many empties on...
    endgame_lookahead_weight = "endgame.lookahead_weight", 32.0, 0.0, 1000.0;
    /// ...(the two-ply look-ahead's threshold)...
    endgame_lookahead_empties = "endgame.lookahead_empties", 14.0, 0.0, 64.0;
    /// ...of one disc of the evaluation of the child, used from this many
    /// empties on (far from the end mobility alone misjudges many moves)...
    endgame_eval_disc_weight = "endgame.eval_disc_weight", 32.0, 0.0, 1000.0;
    /// ...(the evaluation's threshold)...
    endgame_eval_order_empties = "endgame.eval_order_empties", 16.0, 0.0, 64.0;
    /// ...where from this many empties on the child's value is a search
    /// of the evaluation (alpha-beta, full window) instead of its static
    /// value...
    endgame_sort_empties = "endgame.sort_empties", 64.0, 0.0, 64.0;
    /// ...this many plies deep there...
    endgame_sort_depth = "endgame.sort_depth", 1.0, 1.0, 8.0;
    /// ...and two plies deeper every this many empties more (64: never;
    /// two, as the depth's parity changes how the evaluation judges)...
    endgame_sort_step = "endgame.sort_step", 64.0, 1.0, 64.0;
    /// ...and the bonus of a move into a region with an odd number of empties.
    endgame_parity_bonus = "endgame.parity_bonus", 8.0, 0.0, 1000.0;
    /// A selective solve (see `solve.first_confidence`) tries ProbCut at
    /// null-window nodes with at least this many empties...
    endgame_probcut_empties = "endgame.probcut_empties", 12.0, 3.0, 128.0;
    /// ...with a search of the evaluation this many plies deep...
    endgame_probcut_depth = "endgame.probcut_depth", 2.0, 0.0, 8.0;
    /// ...whose score, times this scale...
    endgame_probcut_scale = "endgame.probcut_scale", 1.0, 0.01, 100.0;
    /// ...plus this many discs, predicts the exact score...
    endgame_probcut_offset = "endgame.probcut_offset", 0.0, -64.0, 64.0;
    /// ...with an error of this standard deviation, in discs...
    endgame_probcut_sigma = "endgame.probcut_sigma", 4.0, 0.01, 64.0;
    /// ...plus this many discs per empty cell (`analyze --fit-endgame`).
    endgame_probcut_sigma_per_empty = "endgame.probcut_sigma_per_empty", 0.0, 0.0, 16.0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine_core::search::{ParamRegistry, ParamSettings, SearchParams};

    #[test]
    fn the_book_lists_every_reversi_parameter_with_its_default_and_range() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/src/engine/parameters.md");
        let chapter = std::fs::read_to_string(path).expect("the book's parameter chapter");
        for p in ReversiParams::REGISTRY {
            assert!(chapter.contains(&p.book_row()), "docs/src/engine/parameters.md lacks the row {}", p.book_row());
        }
    }

    #[test]
    fn reversi_names_are_its_own_and_set_within_their_ranges() {
        for info in ReversiParams::REGISTRY {
            assert!(!SearchParams::knows(info.name), "{} is the core's too", info.name);
            assert!(info.min <= info.default && info.default <= info.max, "{info:?}");
            let mut settings = ParamSettings::default();
            settings.set(info.name, info.max).unwrap();
            assert_eq!(settings.check::<ReversiParams>(), Ok(()));
            assert_eq!(settings.over(ReversiParams::DEFAULT).get(info.name), Some(info.max));
            settings.set(info.name, info.max + 1.0).unwrap();
            assert!(settings.check::<ReversiParams>().is_err(), "{}", info.name);
        }
    }
}

//! Balanced opening suites for the Reversi variants and Pente: positions a
//! number of random plies from the start whose shallow-search score lies
//! within a window around level, one per symmetry class, written in the
//! openings file form `--openings FILE` reads (one flattened position a
//! line). One code path serves every game through [`SuiteGame`].

use crate::protocol::{GameProtocol, PenteProtocol, ROW_SEPARATOR, ReversiProtocol};
use crate::run::{ends_within, random_line, stream_rng};
use engine::analysis::Budget;
use engine::eval::SCORE_PER_DISC;
use engine::pente::{self, PenteEngine, pente_engine};
use engine::reversi::{CompiledGeometry, ReversiEngine, ReversiEvaluator, reversi_engine};
use engine_core::agent::Agent;
use engine_core::search::{CompiledSearch, Engine, EngineConfig, Objective, SearchGame};
use std::collections::HashSet;

/// Stream of the random plies of candidate `k` (apart from the runs' streams).
const SUITE_STREAM: u64 = 1 << 62;
/// Candidates drawn per position wanted, at most.
const ATTEMPTS_PER_POSITION: usize = 200;
/// Transposition table of the scoring search, in MiB: shallow searches
/// need little, and it is cleared for every candidate.
const SUITE_TT_MB: usize = 4;
/// Plies after an opening within which no line may end the game, unless
/// the suite asks for more ([`SuiteSpec::lookahead`]).
pub const LOOKAHEAD: u32 = 2;
/// Largest `--lookahead`: every line of that many plies is played out.
const MAX_LOOKAHEAD: u32 = 6;
/// Depth of the scoring engine's play in the `--playout` check.
pub const PLAYOUT_DEPTH: u32 = 2;
/// Symmetries of a square board: four rotations, each with its reflection.
const SYMMETRIES: usize = 8;

/// What a suite holds.
#[derive(Clone, Debug, PartialEq)]
pub struct SuiteSpec {
    /// Random plies from the start.
    pub plies: u32,
    /// Largest |score| kept, in the game's window unit ([`SuiteGame::UNIT`]).
    pub window: f64,
    /// Positions wanted.
    pub count: usize,
    /// Depth of the search that scores a candidate.
    pub depth: u32,
    /// Seed of the random plies.
    pub seed: u64,
    /// Plies within which no line may end the game (at least [`LOOKAHEAD`]).
    pub lookahead: u32,
    /// Plies the scoring engine at depth [`PLAYOUT_DEPTH`] plays from a
    /// candidate, both sides, without the game ending (0: no playout). On
    /// large boards a few random plies can leave groups that block each
    /// other, and the game ends decided within a few dozen plies whoever
    /// plays it.
    pub playout: u32,
}

impl SuiteSpec {
    /// Checks the numbers; the error is one line naming the option.
    pub fn validate(&self) -> Result<(), String> {
        if !(self.window.is_finite() && self.window >= 0.0) {
            return Err(format!("--window {}: expected a number at least 0", self.window));
        }
        if self.count == 0 {
            return Err("--count 0: expected at least one position".into());
        }
        if !(LOOKAHEAD..=MAX_LOOKAHEAD).contains(&self.lookahead) {
            return Err(format!("--lookahead {}: expected {LOOKAHEAD} to {MAX_LOOKAHEAD} plies", self.lookahead));
        }
        if self.depth == 0 {
            return Err("--depth 0: expected a search depth of at least 1".into());
        }
        Ok(())
    }
}

/// A game [`make_suite`] writes balanced openings of: its protocol (start,
/// rules, flattened form), the engine that scores a candidate, and the unit
/// of the window.
pub trait SuiteGame: GameProtocol<State: SearchGame> {
    /// The scoring engine's evaluation.
    type Eval: CompiledSearch<Self::State>;
    /// Fields of the flattened form before the board rows, which the board's
    /// symmetries leave alone: the side letter (Pente: and the captured stones).
    const HEADER_FIELDS: usize;
    /// Engine score units in one unit of the window.
    const SCORE_PER_UNIT: f64;
    /// The window's unit, as the suite file's header names it.
    const UNIT: &'static str;

    /// The engine that scores candidates, with `config`.
    fn scorer(&self, config: EngineConfig) -> Result<Engine<Self::State, Self::Eval>, String>;
}

impl<G: CompiledGeometry> SuiteGame for ReversiProtocol<G> {
    type Eval = ReversiEvaluator<G>;
    const HEADER_FIELDS: usize = 1;
    const SCORE_PER_UNIT: f64 = SCORE_PER_DISC as f64;
    const UNIT: &'static str = "discs";

    fn scorer(&self, config: EngineConfig) -> Result<ReversiEngine<G>, String> {
        reversi_engine::<G>(self.reversi_variant(), config)
    }
}

/// Pente's window is in the engine's own score units (the pattern
/// evaluation's, as `positions.csv` and the `played` line report them):
/// Pente has no discs to count.
impl SuiteGame for PenteProtocol {
    type Eval = pente::eval::PenteEval;
    const HEADER_FIELDS: usize = 2;
    const SCORE_PER_UNIT: f64 = 1.0;
    const UNIT: &'static str = "score units";

    fn scorer(&self, config: EngineConfig) -> Result<PenteEngine, String> {
        pente_engine(config)
    }
}

/// The smallest of the eight images of a flattened position under the
/// board's rotations and reflections: positions that are the same game up
/// to symmetry share it. The first `header` fields (the side letter; Pente:
/// and the captured stones) are kept as they are; the rest are the rows of a
/// square board, joined by [`ROW_SEPARATOR`].
pub fn canonical(flat: &str, header: usize) -> String {
    let fields: Vec<&str> = flat.split(ROW_SEPARATOR).collect();
    let (head, rows) = fields.split_at(header.min(fields.len()));
    let rows: Vec<&[u8]> = rows.iter().map(|r| r.as_bytes()).collect();
    let n = rows.len();
    let image = |t: usize| {
        let mut out = head.join(&ROW_SEPARATOR.to_string());
        for r in 0..n {
            out.push(ROW_SEPARATOR);
            for c in 0..n {
                let (i, j) = match t {
                    0 => (r, c),
                    1 => (c, r),
                    2 => (n - 1 - r, c),
                    3 => (r, n - 1 - c),
                    4 => (n - 1 - r, n - 1 - c),
                    5 => (c, n - 1 - r),
                    6 => (n - 1 - c, r),
                    _ => (n - 1 - c, n - 1 - r),
                };
                out.push(char::from(rows[i][j]));
            }
        }
        out
    };
    (0..SYMMETRIES).map(image).min().unwrap_or_default()
}

/// One position of a suite.
#[derive(Clone, Debug, PartialEq)]
pub struct SuiteEntry {
    /// The position as the suite file holds it: the canonical form of `drawn`.
    pub flat: String,
    /// The position as the random plies drew it, flattened.
    pub drawn: String,
    /// The scoring search's score of `drawn`, in the window's unit. Its
    /// canonical image may score a little differently where the evaluation
    /// (Duo-Othello's edge tables) or the search's move order is not
    /// symmetric; scoring the drawn position keeps the Reversi suites what
    /// this command wrote before it served Pente.
    pub score: f64,
}

/// A balanced suite of the game `protocol` plays, in the order drawn.
/// Fewer than `spec.count` entries when the draws run out.
pub fn make_suite<P: SuiteGame>(protocol: &P, spec: &SuiteSpec) -> Result<Vec<SuiteEntry>, String> {
    spec.validate()?;
    // Balance is judged on the disc margin the evaluation predicts.
    let config = EngineConfig { tt_mb: SUITE_TT_MB, objective: Objective::Margin, ..EngineConfig::default() };
    let mut engine = protocol.scorer(config)?;
    let limits = Budget::Depth(spec.depth).limits();
    let (mut seen, mut suite) = (HashSet::new(), Vec::new());
    for k in 0..spec.count.saturating_mul(ATTEMPTS_PER_POSITION) {
        if suite.len() == spec.count {
            break;
        }
        let mut rng = stream_rng(spec.seed, SUITE_STREAM + k as u64);
        let state = random_line(protocol.start(), spec.plies, &mut rng);
        if ends_within(&state, spec.lookahead) || ends_in_playout(&mut engine, &state, spec.playout) {
            continue;
        }
        let flat = canonical(&protocol.flatten(&state), P::HEADER_FIELDS);
        if !seen.insert(flat.clone()) {
            continue;
        }
        engine.new_game();
        let r = engine.search(&state, &limits);
        let score = f64::from(r.score.unwrap_or(0)) / P::SCORE_PER_UNIT;
        if score.abs() <= spec.window {
            suite.push(SuiteEntry { flat, drawn: protocol.flatten(&state), score });
        }
    }
    Ok(suite)
}

/// True when `engine` at depth [`PLAYOUT_DEPTH`], playing both sides from
/// `state`, ends the game within `plies` plies.
pub fn ends_in_playout<S: SearchGame, E: CompiledSearch<S>>(engine: &mut Engine<S, E>, state: &S, plies: u32) -> bool {
    let limits = Budget::Depth(PLAYOUT_DEPTH).limits();
    let mut pos = state.clone();
    engine.new_game();
    for _ in 0..plies {
        if pos.is_terminal() {
            return true;
        }
        let best = engine.search(&pos, &limits).best;
        pos.make(best);
    }
    pos.is_terminal()
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::pente::{Cell, PentePosition};
    use engine::reversi::{Size8, Size12, Variant};
    use engine_core::game::{Color, Game};

    #[test]
    fn the_eight_images_of_a_position_share_one_canonical_form() {
        let protocol = ReversiProtocol::<Size8>::new(Variant::Othello8);
        let mut state = protocol.start();
        // f5, then the reply d6: an opening with no symmetry of its own.
        for name in ["f5", "d6", "c3"] {
            let mv = state.legal_moves().iter().copied().find(|m| m.to_string() == name).unwrap();
            state.make(mv);
        }
        let flat = protocol.flatten(&state);
        let rows: Vec<String> = flat.split('/').skip(1).map(String::from).collect();
        let side = flat.split('/').next().unwrap();
        let transposed: Vec<String> = (0..8).map(|c| rows.iter().map(|r| r.as_bytes()[c] as char).collect()).collect();
        let mirrored: Vec<String> = rows.iter().map(|r| r.chars().rev().collect()).collect();
        for image in [transposed, mirrored] {
            let other = format!("{side}/{}", image.join("/"));
            assert_ne!(other, flat);
            assert_eq!(canonical(&other, 1), canonical(&flat, 1));
        }
        // The start position is its own image; another opening is not.
        let start = protocol.flatten(&protocol.start());
        assert_ne!(canonical(&start, 1), canonical(&flat, 1));
    }

    /// The 19x19 cell `(line, col)` under symmetry `t` of the square.
    fn image_cell(t: usize, (line, col): (usize, usize)) -> Cell {
        let n = pente::board::SIZE;
        let (l, c) = if t & 4 != 0 { (col, line) } else { (line, col) };
        let l = if t & 1 != 0 { n - 1 - l } else { l };
        let c = if t & 2 != 0 { n - 1 - c } else { c };
        Cell::at(l, c)
    }

    /// Plays `moves` (board-text line, column) from the start under symmetry `t`.
    fn pente_line(t: usize, moves: &[(usize, usize)]) -> PentePosition {
        let mut pos = PentePosition::new();
        for &m in moves {
            let cell = image_cell(t, m);
            assert!(pos.is_legal(cell), "{cell} under symmetry {t}");
            pos.make(cell);
        }
        pos
    }

    #[test]
    fn a_pente_position_and_its_images_share_one_canonical_form_with_the_captures_kept() {
        let protocol = PenteProtocol;
        let header = PenteProtocol::HEADER_FIELDS;
        // White takes the pair 10L-10M with 10N, then two stones off the
        // axes and diagonals: a line with no symmetry of its own.
        let moves = [(9, 9), (9, 10), (6, 6), (9, 11), (9, 12), (8, 10), (12, 7)];
        let pos = pente_line(0, &moves);
        assert_eq!((pos.captured(Color::White), pos.captured(Color::Black)), (2, 0));
        let flat = protocol.flatten(&pos);
        let form = canonical(&flat, header);
        assert!(form.starts_with("b/2,0/"), "{form}");
        assert_eq!(protocol.parse_flat(&form).unwrap().captured(Color::White), 2);
        let mut images = HashSet::new();
        for t in 0..SYMMETRIES {
            let image = protocol.flatten(&pente_line(t, &moves));
            images.insert(image.clone());
            assert_eq!(canonical(&image, header), form, "symmetry {t}");
        }
        assert_eq!(images.len(), SYMMETRIES, "the line has a symmetry of its own");
        // One stone fewer is another position.
        let shorter = protocol.flatten(&pente_line(0, &moves[..moves.len() - 1]));
        assert_ne!(canonical(&shorter, header), form);
    }

    /// Plies played to reach `pos` (every ply puts one stone down).
    fn pente_plies(pos: &PentePosition) -> u32 {
        pos.stone_count() + pos.captured(Color::White) + pos.captured(Color::Black)
    }

    /// Checks what a suite promises: `spec.count` positions, each in
    /// canonical form and unique under the symmetries, `plies` of it
    /// `spec.plies`, no line of `spec.lookahead` plies ending the game, nor
    /// `spec.playout` plies of a fresh depth-[`PLAYOUT_DEPTH`] engine's play,
    /// and a fresh search at `spec.depth` scoring it within the window.
    fn check_suite<P: SuiteGame>(protocol: &P, spec: &SuiteSpec, plies: impl Fn(&P::State) -> u32) {
        let suite = make_suite(protocol, spec).unwrap();
        assert_eq!(suite.len(), spec.count);
        let distinct: HashSet<String> = suite.iter().map(|e| canonical(&e.flat, P::HEADER_FIELDS)).collect();
        assert_eq!(distinct.len(), suite.len());
        let mut engine = protocol.scorer(EngineConfig::default()).unwrap();
        for SuiteEntry { flat, drawn, score } in &suite {
            assert_eq!(&canonical(flat, P::HEADER_FIELDS), flat);
            assert_eq!(&canonical(drawn, P::HEADER_FIELDS), flat);
            for text in [flat, drawn] {
                let pos = protocol.parse_flat(text).unwrap();
                assert_eq!(plies(&pos), spec.plies, "{text}");
                assert!(!ends_within(&pos, spec.lookahead), "{text}");
            }
            let start = protocol.parse_flat(drawn).unwrap();
            assert!(
                !ends_in_playout(&mut engine, &start, spec.playout),
                "{drawn}: over within {} plies of play",
                spec.playout
            );
            engine.new_game();
            let again = engine.search(&start, &Budget::Depth(spec.depth).limits()).score.unwrap();
            let again = f64::from(again) / P::SCORE_PER_UNIT;
            assert_eq!(again, *score, "{drawn}");
            assert!(again.abs() <= spec.window, "{drawn}: {again}");
        }
    }

    #[test]
    fn suites_hold_distinct_balanced_playable_positions() {
        let spec = SuiteSpec { plies: 6, window: 2.0, count: 12, depth: 3, seed: 4, lookahead: LOOKAHEAD, playout: 0 };
        let protocol = ReversiProtocol::<Size8>::new(Variant::Othello8);
        check_suite(&protocol, &spec, |pos| 60 - pos.empty_count());
    }

    /// Two positions of the first duo12 depth-12 suite whose games, in a
    /// match against `classic` at 300 s (2026-11-27), ended after 3 and 4
    /// plies with 19 discs on the board, whoever played which side.
    const BLOCKED_DUO12: [&str; 2] = [
        "O/............/............/........OX../........XO../.........XXX/............/............/...O......../..OO......../..XO......../.XO........./.OX.........",
        "O/............/........X.../........XOO./........OO../.......OO.X./............/............/............/..OX......../XXXX......../...X......../............",
    ];

    #[test]
    fn duo12_suites_with_lookahead_and_playout_hold_no_blocked_position() {
        let protocol = ReversiProtocol::<Size12>::new(Variant::Duo12);
        let spec = SuiteSpec { plies: 8, window: 6.0, count: 4, depth: 2, seed: 26, lookahead: 4, playout: 40 };
        let start_empties = protocol.start().empty_count();
        check_suite(&protocol, &spec, |pos| start_empties - pos.empty_count());
        let mut engine = protocol.scorer(EngineConfig::default()).unwrap();
        for flat in BLOCKED_DUO12 {
            let pos = protocol.parse_flat(flat).unwrap();
            assert!(!ends_within(&pos, LOOKAHEAD), "{flat}: the old suites' check let it through");
            assert!(ends_within(&pos, 4) || ends_in_playout(&mut engine, &pos, 40), "{flat}");
        }
    }

    #[test]
    fn pente_suites_hold_distinct_balanced_playable_positions() {
        let spec = SuiteSpec { plies: 4, window: 40.0, count: 6, depth: 2, seed: 4, lookahead: LOOKAHEAD, playout: 0 };
        check_suite(&PenteProtocol, &spec, pente_plies);
    }

    #[test]
    fn bad_numbers_are_one_line_errors() {
        let good = SuiteSpec { plies: 4, window: 1.0, count: 2, depth: 2, seed: 1, lookahead: LOOKAHEAD, playout: 0 };
        for bad in [
            SuiteSpec { window: -1.0, ..good.clone() },
            SuiteSpec { window: f64::NAN, ..good.clone() },
            SuiteSpec { count: 0, ..good.clone() },
            SuiteSpec { depth: 0, ..good.clone() },
            SuiteSpec { lookahead: LOOKAHEAD - 1, ..good.clone() },
            SuiteSpec { lookahead: MAX_LOOKAHEAD + 1, ..good.clone() },
        ] {
            let e = make_suite(&PenteProtocol, &bad).unwrap_err();
            assert!(e.starts_with("--") && !e.contains('\n'), "{e}");
        }
    }
}

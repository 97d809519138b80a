//! Position analysis, the work of the `analyze` command: positions read
//! from files (the position text form for Reversi variants, OBF lines for
//! 8x8; the program reads a Pente `input.txt` with Pente's own parser),
//! each searched on its own within one budget (generic over the game), and
//! one line a position that scripts can parse:
//!
//! `position K depth D score S move M nodes N seconds T pv M1 M2 ...`
//!
//! `score` is in discs for Reversi (an integer when exact, else two
//! decimals) and in score units for Pente; `seconds` is the search's CPU
//! time; `pv` is the expected line, read from the transposition table.

use crate::endgame::shallow_value;
use crate::endgame_fit::EndgameFit;
use crate::eval::{Evaluation, SCORE_PER_DISC, discs};
use crate::ffo::parse_obf;
use crate::{Geometry, Position, Scoring, Size8, disc_char};
use engine_core::agent::Agent;
use engine_core::bitboard::Portable;
use engine_core::game::Game;
use engine_core::search::Budget;
use engine_core::search::control::Control;
use engine_core::search::probcut::{ProbCutFit, confidence_for};
use engine_core::search::{
    Band, CompiledSearch, Engine, EngineConfig, INFINITY, Objective, ParamSettings, SearchGame, SearchResult,
};
use std::fmt::Display;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Moves of the printed principal variation at most.
pub const MAX_PV: usize = 40;

/// The selectivity that means full width...
pub const FULL_WIDTH_PERCENT: f64 = 100.0;
/// ...which is ProbCut's confidence 0.
const FULL_WIDTH_CONFIDENCE: f64 = 0.0;

/// The engine setup the `analyze` and `nboard` programs share: table size,
/// evaluation, weights, selectivity and search parameters.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct EngineOptions {
    /// Transposition table size in MiB (0: the engine's default).
    #[arg(long, default_value_t = 0)]
    pub tt: usize,
    /// Evaluation of the Reversi variants: pattern or classic.
    #[arg(long, default_value = "pattern")]
    pub eval: Evaluation,
    /// A weights file written by the tuner (default: compiled in).
    #[arg(long, value_name = "FILE")]
    pub weights: Option<PathBuf>,
    /// Multi-ProbCut at this confidence in percent (87: cuts right 87% of
    /// the time, `mpc.confidence` 1.5); 100: full width. Absent: `analyze`
    /// searches full width, `nboard` plays with the engine's default.
    #[arg(long, value_name = "PCT")]
    pub selectivity: Option<f64>,
    /// A search parameter, NAME=VALUE (repeatable; the core's or the game's, docs/src/engine/parameters.md).
    #[arg(long, value_name = "NAME=VALUE")]
    pub param: Vec<String>,
    /// What the search maximises: `discs` (the exact margin, as Edax
    /// reports it) or `wins` (proven wins above every evaluation, printed
    /// `W+3`/`L-1`). Absent: `analyze` counts discs, `nboard` plays for wins.
    #[arg(long, value_name = "wins|discs")]
    pub objective: Option<Objective>,
}

impl EngineOptions {
    /// The engine configuration; `absent` is the selectivity in percent
    /// when `--selectivity` is not given (`None`: the engine's default),
    /// `objective` the objective when `--objective` is not.
    pub fn config(&self, absent: Option<f64>, objective: Objective) -> Result<EngineConfig, String> {
        let mut params = ParamSettings::default();
        if let Some(percent) = self.selectivity.or(absent) {
            let confidence = if percent == FULL_WIDTH_PERCENT {
                FULL_WIDTH_CONFIDENCE
            } else {
                confidence_for(percent)
                    .ok_or_else(|| format!("--selectivity {percent}: expected a percentage above 0 and up to 100"))?
            };
            params.set("mpc.confidence", confidence).map_err(|e| format!("--selectivity: {e}"))?;
        }
        for pair in &self.param {
            params.set_text(pair).map_err(|e| format!("--param: {e}"))?;
        }
        Ok(EngineConfig {
            tt_mb: self.tt,
            evaluation: self.eval,
            weights: self.weights.clone(),
            params,
            objective: self.objective.unwrap_or(objective),
            ..EngineConfig::default()
        })
    }
}

/// A position to analyse and where it came from (`FILE:LINE`).
#[derive(Clone, Debug)]
pub struct Source<G> {
    /// `FILE:LINE` of the position's first line.
    pub origin: String,
    /// The position.
    pub position: G,
}

/// The text of `path`, or an error naming it.
pub fn read(path: &Path) -> Result<String, String> {
    std::fs::read_to_string(path).map_err(|e| format!("{}: cannot read: {e}", path.display()))
}

/// A finished game cannot be analysed: the error names where it came from.
pub fn playable<G: Game>(source: Source<G>) -> Result<Source<G>, String> {
    if source.position.is_terminal() {
        return Err(format!("{}: expected a position with moves left, found a finished game", source.origin));
    }
    Ok(source)
}

/// The position of a file in the position text form (side line, then rows).
pub fn read_position<G: Geometry>(path: &Path, scoring: Scoring) -> Result<Source<Position<G>>, String> {
    let position = Position::<G>::parse(&read(path)?, scoring)
        .map_err(|e| format!("{}:{}: {}", path.display(), e.line, e.message))?;
    playable(Source { origin: format!("{}:1", path.display()), position })
}

/// The positions of an OBF file, one a line (blank lines and lines starting
/// with `%` or `#` are skipped), on an 8x8 board `G` with `scoring`.
pub fn read_obf<G: Geometry>(path: &Path, scoring: Scoring) -> Result<Vec<Source<Position<G>>>, String> {
    if G::N != Size8::N {
        return Err(format!("{}: OBF positions are 8x8, not {}x{}", path.display(), G::N, G::N));
    }
    let text = read(path)?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('%') || line.starts_with('#') {
            continue;
        }
        let origin = format!("{}:{}", path.display(), i + 1);
        let obf = parse_obf(line).map_err(|e| format!("{origin}: {e}"))?;
        // The same board on `G` (8x8 too), through the position text form.
        let text = format!("{}\n{}\n", disc_char(obf.to_move()), obf.rows().join("\n"));
        let position = Position::<G>::parse(&text, scoring).map_err(|e| format!("{origin}: {e}"))?;
        out.push(playable(Source { origin, position })?);
    }
    if out.is_empty() {
        return Err(format!("{}: expected at least one OBF position line", path.display()));
    }
    Ok(out)
}

/// A Reversi score (score units) in discs: an integer when exact, a
/// proven result of a search for wins as its band (`W+3`, `L-1`).
pub fn disc_score(score: i32, exact: bool) -> String {
    match Band::of(score) {
        Band::Unproven(_) if exact => format!("{:+}", score / SCORE_PER_DISC),
        Band::Unproven(_) => format!("{:+.2}", discs(score)),
        band => band.to_string(),
    }
}

/// The output line of position `k`.
pub fn line<M: Display>(k: usize, result: &SearchResult<M>, score: &str, pv: &[M]) -> String {
    let mut out = format!(
        "position {k} depth {} score {score} move {} nodes {} seconds {:.3} pv",
        result.depth, result.best, result.nodes, result.seconds
    );
    for mv in pv {
        out += &format!(" {mv}");
    }
    out
}

/// The root score in discs of every position searched full width to each
/// depth `1..=max_depth`, each search from a cleared table:
/// `scores[p][d - 1]`, what [`ProbCutFit::from_scores`] fits.
pub fn depth_scores<G: SearchGame, E: CompiledSearch<G>>(
    engine: &mut Engine<G, E>,
    positions: &[Source<G>],
    max_depth: u32,
) -> Result<Vec<Vec<f64>>, String> {
    let mut scores = Vec::with_capacity(positions.len());
    for source in positions {
        let mut row = Vec::with_capacity(max_depth as usize);
        for depth in 1..=max_depth {
            engine.new_game();
            let result = engine.search(&source.position, &Budget::Depth(depth).limits());
            let score = result.score.ok_or_else(|| format!("{}: no score at depth {depth}", source.origin))?;
            row.push(discs(score));
        }
        scores.push(row);
    }
    Ok(scores)
}

/// `(empties, exact score, shallow score)` of every position, in discs:
/// the exact score from `engine`'s solve (a cleared table each), the
/// shallow one from the selective solver's `depth`-ply search of the
/// engine's evaluation, what [`EndgameFit::from_scores`] fits.
pub fn endgame_scores<G: Geometry, E: CompiledSearch<Position<G>>>(
    engine: &mut Engine<Position<G>, E>,
    positions: &[Source<Position<G>>],
    depth: u32,
) -> Result<Vec<(u32, f64, f64)>, String> {
    let mut scores = Vec::with_capacity(positions.len());
    for source in positions {
        engine.new_game();
        let result = engine.search(&source.position, &Budget::Exact.limits());
        let exact = result.score.ok_or_else(|| format!("{}: no exact score", source.origin))?;
        let predicted = shallow_value::<_, _, Portable>(
            &mut Control::default(),
            engine.evaluator(),
            &source.position,
            depth,
            -INFINITY,
            INFINITY,
        );
        scores.push((source.position.empty_count(), discs(exact), discs(predicted)));
    }
    Ok(scores)
}

/// The lines `analyze --fit-endgame` prints for `fit` (shallow depth
/// `depth`): one per number of empties, then the registry settings.
pub fn endgame_fit_lines(fit: &EndgameFit, depth: u32) -> Vec<String> {
    let mut out: Vec<String> = fit
        .by_empties
        .iter()
        .map(|e| format!("endgame empties {} positions {} mean {:+.3} sd {:.3}", e.empties, e.positions, e.mean, e.sd))
        .collect();
    out.push(format!(
        "endgame fit endgame.probcut_depth={depth} endgame.probcut_scale={:.3} endgame.probcut_offset={:.3} \
         endgame.probcut_sigma={:.3} endgame.probcut_sigma_per_empty={:.3}",
        fit.scale, fit.offset, fit.sigma, fit.sigma_per_empty
    ));
    out
}

/// The lines `analyze --fit-probcut` prints for `fit`: one per depth gap,
/// then the registry settings.
pub fn probcut_lines(fit: &ProbCutFit) -> Vec<String> {
    let mut out: Vec<String> = fit
        .gaps
        .iter()
        .map(|g| format!("probcut gap {} pairs {} mean {:+.3} sd {:.3}", g.gap, g.pairs, g.mean, g.sd))
        .collect();
    out.push(format!("probcut fit mpc.sigma={:.3} mpc.sigma_per_ply={:.3}", fit.sigma, fit.sigma_per_ply));
    out
}

/// Searches every position within `budget` and writes one line each to
/// `out`, numbering from 1; a fresh table per position unless `keep_tt`.
/// `score` turns a result into its printed score. Returns the total nodes
/// and CPU seconds.
pub fn analyze<G: SearchGame, E: CompiledSearch<G>>(
    engine: &mut Engine<G, E>,
    positions: &[Source<G>],
    budget: Budget,
    keep_tt: bool,
    score: impl Fn(&SearchResult<G::Move>) -> String,
    out: &mut impl Write,
) -> Result<(u64, f64), String> {
    let limits = budget.limits();
    let (mut nodes, mut seconds) = (0, 0.0);
    for (k, source) in positions.iter().enumerate() {
        if !keep_tt || k == 0 {
            engine.new_game();
        }
        let result = engine.search(&source.position, &limits);
        let pv = engine.principal_variation(&source.position, result.best, MAX_PV);
        writeln!(out, "{}", line(k + 1, &result, &score(&result), &pv)).map_err(|e| format!("output: {e}"))?;
        out.flush().map_err(|e| format!("output: {e}"))?;
        nodes += result.nodes;
        seconds += result.seconds;
    }
    Ok((nodes, seconds))
}

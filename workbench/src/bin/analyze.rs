//! `analyze --variant V (--depth D | --seconds S | --nodes N | --exact)
//! [--obf FILE] [POSITION_FILE...]`: searches each position on one thread
//! and prints `position K depth D score S move M nodes N seconds T pv ...`
//! (see `reversi::analysis`); the totals go to stderr.

use clap::{ArgGroup, Parser};
use engine_core::game::Game;
use engine_core::search::Budget;
use engine_core::search::probcut::ProbCutFit;
use engine_core::search::{EngineConfig, Objective, Outcomes, SearchGame, SearchResult, quick_end};
use pente::PentePosition;
use pente::pente_engine;
use pente::weights::PenteWeights;
use reversi::analysis::{self, EngineOptions, FULL_WIDTH_PERCENT, Source, disc_score};
use reversi::endgame_fit::EndgameFit;
use reversi::with_geometry;
use reversi::{CompiledGeometry, Position, Variant, reversi_engine};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The variant name that selects Pente.
const PENTE: &str = PenteWeights::NAME;

/// The position of a Pente `input.txt` (its clock is ignored).
fn read_pente(path: &Path) -> Result<Source<PentePosition>, String> {
    let input = pente::protocol::parse_input(&analysis::read(path)?)
        .map_err(|e| format!("{}:{}: {}", path.display(), e.line, e.message))?;
    analysis::playable(Source { origin: format!("{}:1", path.display()), position: input.position })
}

/// Searches positions and prints one parseable line each.
#[derive(Parser)]
#[command(version, group(ArgGroup::new("budget").required(true).args(["depth", "seconds", "nodes", "exact", "fit_endgame", "quick_ends"])))]
struct Args {
    /// Variant: tiny4, othello6, othello8, othello10, othello12, duo12 or pente.
    #[arg(long)]
    variant: String,
    /// Search to this depth, full width.
    #[arg(long)]
    depth: Option<u32>,
    /// CPU seconds per position.
    #[arg(long)]
    seconds: Option<f64>,
    /// About this many nodes per position.
    #[arg(long)]
    nodes: Option<u64>,
    /// Solve exactly (Reversi variants).
    #[arg(long)]
    exact: bool,
    /// An OBF file: one 8x8 position a line (`64 cells, space, side[; comment]`).
    #[arg(long, value_name = "FILE")]
    obf: Vec<PathBuf>,
    /// Keep the transposition table from one position to the next.
    #[arg(long)]
    keep_tt: bool,
    #[command(flatten)]
    engine: EngineOptions,
    /// Instead of one line a position: search each position full width to
    /// every depth from 1 to --depth (a cleared table each time) and print
    /// Multi-ProbCut's error model fitted to the root scores (Reversi).
    #[arg(long, requires = "depth")]
    fit_probcut: bool,
    /// Instead of one line a position: solve each position exactly and
    /// print the selective solve's error model (`endgame.probcut_*`) for a
    /// prediction this many plies deep (Reversi).
    #[arg(long, value_name = "DEPTH", conflicts_with_all = ["depth", "seconds", "nodes", "fit_probcut"])]
    fit_endgame: Option<u32>,
    /// Instead of one line a position: whether each side can force the
    /// game to end with its win within this many plies (exact AND-OR
    /// search; a level score goes by the tie rule at equal time), and the
    /// moves of the side to move that leave the opponent no such win
    /// (Reversi).
    #[arg(long, value_name = "PLIES", conflicts_with_all = ["depth", "seconds", "nodes", "fit_probcut"])]
    quick_ends: Option<u32>,
    /// Files in the position text form (Pente: an input.txt).
    files: Vec<PathBuf>,
}

impl Args {
    fn budget(&self) -> Budget {
        match (self.depth, self.seconds, self.nodes) {
            (Some(d), _, _) => Budget::Depth(d),
            (_, Some(s), _) => Budget::Seconds(s),
            (_, _, Some(n)) => Budget::Nodes(n),
            _ => Budget::Exact,
        }
    }

    /// The engine: full width unless --selectivity says otherwise.
    fn config(&self) -> Result<EngineConfig, String> {
        self.engine.config(Some(FULL_WIDTH_PERCENT), Objective::Margin)
    }
}

fn totals(nodes: u64, seconds: f64) {
    eprintln!("total nodes {nodes} seconds {seconds:.3} nodes/s {:.0}", nodes as f64 / seconds.max(1e-9));
}

/// Prints `position K side C forces_end_in_P yes|no opponent_forces_end_in_P
/// yes|no safe_moves N of M: MOVES` for each position (`--quick-ends`).
fn quick_ends<G: CompiledGeometry>(positions: &[Source<Position<G>>], plies: u32) {
    for (k, source) in positions.iter().enumerate() {
        let pos = &source.position;
        let outcomes = Outcomes::wins(SearchGame::tie_break(pos));
        let mover = pos.to_move();
        let yes = |b: bool| if b { "yes" } else { "no" };
        let own = quick_end::forces_winning_end(pos, plies, mover, outcomes);
        let theirs = quick_end::forces_winning_end(pos, plies, mover.opponent(), outcomes);
        let all = pos.legal_moves().len();
        let safe = quick_end::safe_moves(pos, plies, outcomes);
        let safe_text: Vec<String> = safe.iter().map(|m| m.to_string()).collect();
        println!(
            "position {} side {} forces_end_in_{plies} {} opponent_forces_end_in_{plies} {} safe_moves {} of {all}: {}",
            k + 1,
            reversi::disc_char(mover),
            yes(own),
            yes(theirs),
            safe.len(),
            safe_text.join(" ")
        );
    }
}

fn reversi<G: CompiledGeometry>(args: &Args, variant: Variant) -> Result<(), String> {
    if !args.obf.is_empty() && variant != Variant::Othello8 {
        return Err(format!("--obf: OBF positions are 8x8: expected --variant othello8, found {variant}"));
    }
    let mut positions: Vec<Source<Position<G>>> = Vec::new();
    for path in &args.obf {
        positions.extend(analysis::read_obf::<G>(path, variant.scoring())?);
    }
    for path in &args.files {
        positions.push(analysis::read_position::<G>(path, variant.scoring())?);
    }
    if let Some(plies) = args.quick_ends {
        quick_ends(&positions, plies);
        return Ok(());
    }
    let mut engine = reversi_engine::<G>(variant, args.config()?)?;
    if args.fit_probcut {
        let max_depth = args.depth.unwrap_or(0);
        let scores = analysis::depth_scores(&mut engine, &positions, max_depth)?;
        let fit = ProbCutFit::from_scores(&scores)
            .ok_or_else(|| format!("--fit-probcut: expected --depth 3 or more, found {max_depth}"))?;
        for line in analysis::probcut_lines(&fit) {
            println!("{line}");
        }
        return Ok(());
    }
    if let Some(depth) = args.fit_endgame {
        let scores = analysis::endgame_scores(&mut engine, &positions, depth)?;
        let fit = EndgameFit::from_scores(&scores).ok_or(
            "--fit-endgame: expected two positions or more with the same number of empties, of different scores",
        )?;
        for line in analysis::endgame_fit_lines(&fit, depth) {
            println!("{line}");
        }
        return Ok(());
    }
    let score = |r: &SearchResult<_>| r.score.map_or_else(|| "none".into(), |s| disc_score(s, r.exact));
    let (nodes, seconds) =
        analysis::analyze(&mut engine, &positions, args.budget(), args.keep_tt, score, &mut std::io::stdout().lock())?;
    totals(nodes, seconds);
    Ok(())
}

fn pente(args: &Args) -> Result<(), String> {
    if args.exact {
        return Err("--exact: Pente has no exact solver: expected --depth, --seconds or --nodes".into());
    }
    if args.fit_probcut || args.fit_endgame.is_some() {
        return Err("--fit-probcut, --fit-endgame: Pente's search has no ProbCut: expected a Reversi variant".into());
    }
    if !args.obf.is_empty() {
        return Err("--obf: OBF positions are 8x8: expected --variant othello8".into());
    }
    let positions = args.files.iter().map(|p| read_pente(p)).collect::<Result<Vec<_>, _>>()?;
    let mut engine = pente_engine(args.config()?)?;
    let score = |r: &SearchResult<_>| r.score.map_or_else(|| "none".into(), |s| s.to_string());
    let (nodes, seconds) =
        analysis::analyze(&mut engine, &positions, args.budget(), args.keep_tt, score, &mut std::io::stdout().lock())?;
    totals(nodes, seconds);
    Ok(())
}

fn run(args: &Args) -> Result<(), String> {
    if args.obf.is_empty() && args.files.is_empty() {
        return Err("expected --obf FILE or at least one position file".into());
    }
    if args.variant == PENTE {
        return pente(args);
    }
    let variant: Variant = args.variant.parse().map_err(|e| format!("--variant: {e} or {PENTE}"))?;
    with_geometry!(variant, G => reversi::<G>(args, variant))
}

fn main() -> ExitCode {
    let args = Args::parse();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("analyze: {e}");
            ExitCode::FAILURE
        }
    }
}

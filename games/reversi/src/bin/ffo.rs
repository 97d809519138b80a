//! `ffo [--dir DIR] [--from A] [--to B] [--tt-mb MB] [--warm-up] [--param
//! NAME=VALUE]...`: solves FFO endgame positions exactly and reports time,
//! nodes and node rate of each.

use clap::Parser;
use engine_core::search::{Limits, ParamSettings, SearchGame, Searcher};
use reversi::eval::PatternEval;
use reversi::eval::SCORE_PER_DISC;
use reversi::ffo;
use reversi::{Position, ReversiParams, Size8, Variant};
use std::path::PathBuf;
use std::process::ExitCode;

/// The table size the suite is solved with by default, the size of the
/// book's figures (docs/src/journal/endgame.md). The deepest positions store more solved nodes than
/// 64 MiB hold, but the table's size matters little: FFO #53 took
/// 4,583 M nodes at 64 MiB, 4,560 M at 256 MiB, 4,548 M and 4,546 M at 1
/// and 4 GiB (whose page misses cost more time than those nodes save).
const SUITE_TT_MB: usize = 256;

/// Solves the FFO endgame suite and checks the exact scores.
#[derive(Parser)]
#[command(version)]
struct Args {
    /// Folder with the fforum-*.obf files (default: `data/ffo` in the
    /// current folder or the nearest ancestor that has one, else the
    /// repository this program was built from).
    #[arg(long)]
    dir: Option<PathBuf>,
    /// First position number.
    #[arg(long, default_value_t = 40)]
    from: usize,
    /// Last position number.
    #[arg(long, default_value_t = 44)]
    to: usize,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = SUITE_TT_MB)]
    tt_mb: usize,
    /// Run midgame iterations before the exact solve (as the engine does
    /// in play) instead of solving at once.
    #[arg(long)]
    warm_up: bool,
    /// A search parameter over the engine's 8x8 defaults (repeat), e.g.
    /// `endgame.eval_disc_weight=16`: the book's parameter table (docs/src/engine/parameters.md).
    #[arg(long = "param", value_name = "NAME=VALUE")]
    params: Vec<String>,
}

fn main() -> ExitCode {
    let args = Args::parse();
    let cwd = std::env::current_dir().unwrap_or_default();
    let built_from = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let found = args.dir.clone().or_else(|| ffo::find_suite_dir(&cwd)).or_else(|| ffo::find_suite_dir(built_from));
    let Some(dir) = found else {
        eprintln!("error: no {} folder above {}: pass --dir", ffo::SUITE_DIR, cwd.display());
        return ExitCode::FAILURE;
    };
    let suite = match ffo::read_suite(&dir) {
        Ok(suite) => suite,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let mut settings = ParamSettings::default();
    if let Some(e) = args.params.iter().find_map(|pair| settings.set_text(pair).err()) {
        eprintln!("error: --param {e}");
        return ExitCode::FAILURE;
    }
    if let Err(e) = settings.check::<ReversiParams>() {
        eprintln!("error: --param {e}");
        return ExitCode::FAILURE;
    }
    let mut searcher = Searcher::new(Box::new(PatternEval::<Size8>::compiled(Variant::Othello8)), args.tt_mb);
    searcher.set_params(settings.over(Position::<Size8>::PARAMS));
    searcher.set_game_params(settings.over(Position::<Size8>::GAME_PARAMS));
    let (mut total_time, mut total_nodes, mut wrong) = (0.0, 0u64, 0);
    println!(
        "{:>3} {:>7} {:>5} {:>5} {:>9} {:>13} {:>11}",
        "#", "empties", "want", "got", "seconds", "nodes", "nodes/s"
    );
    for p in suite.iter().filter(|p| (args.from..=args.to).contains(&p.number)) {
        searcher.clear();
        let empties = p.position.empty_count();
        let limits = Limits { depth: Some(empties), solve: !args.warm_up, ..Limits::default() };
        let r = searcher.search(&p.position, &limits);
        let got = r.score.unwrap_or(i32::MIN) / SCORE_PER_DISC;
        let ok = got == p.score() && p.moves.iter().any(|&(mv, s)| mv == r.best && s == got);
        wrong += usize::from(!ok);
        total_time += r.seconds;
        total_nodes += r.nodes;
        println!(
            "{:>3} {:>7} {:>+5} {:>+5} {:>9.3} {:>13} {:>11.0} {} {}",
            p.number,
            empties,
            p.score(),
            got,
            r.seconds,
            r.nodes,
            r.nodes as f64 / r.seconds.max(1e-9),
            r.best,
            if ok { "" } else { "WRONG" }
        );
    }
    println!(
        "total {:.3} s, {} nodes, {:.0} nodes/s, {} wrong",
        total_time,
        total_nodes,
        total_nodes as f64 / total_time.max(1e-9),
        wrong
    );
    if wrong == 0 { ExitCode::SUCCESS } else { ExitCode::FAILURE }
}

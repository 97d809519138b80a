//! `searchbench --variant V [--seconds S | --depth D] [--positions N]
//! [--empties E] [--seed K] [--write DIR]`: searches positions reached by
//! seeded random play for S CPU seconds (or D plies) each and reports depth,
//! nodes and node rate; `--write` also saves each position in the position
//! text form (`DIR/pNN.txt`), for `analyze` and for other builds.

use clap::Parser;
use engine_core::game::Game;
use engine_core::mix::SplitMix;
use engine_core::playout::random_playout;
use engine_core::search::{EngineConfig, Limits, Objective, TimePlan};
use reversi::with_geometry;
use reversi::{CompiledGeometry, reversi_engine};
use reversi::{Position, Variant};
use std::path::PathBuf;

/// Measures the engine's search on random middle-game positions.
#[derive(Parser)]
#[command(version)]
struct Args {
    /// Variant: tiny4, othello6, othello8, othello10, othello12 or duo12.
    #[arg(long, default_value = "duo12")]
    variant: Variant,
    /// CPU seconds per position.
    #[arg(long, default_value_t = 1.0)]
    seconds: f64,
    /// Search this many plies instead (the engine's default selectivity).
    #[arg(long, conflicts_with = "seconds")]
    depth: Option<u32>,
    /// Number of positions.
    #[arg(long, default_value_t = 5)]
    positions: usize,
    /// Empty cells of each position.
    #[arg(long, default_value_t = 90)]
    empties: u32,
    /// Seed of the random play.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Write each position to this folder as `pNN.txt` (position text form).
    #[arg(long)]
    write: Option<PathBuf>,
}

fn run<G: CompiledGeometry>(args: &Args) -> Result<(), String> {
    let config = EngineConfig { objective: Objective::Margin, ..EngineConfig::default() };
    let mut engine = reversi_engine::<G>(args.variant, config)?;
    if let Some(dir) = &args.write {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    let mut rng = SplitMix(args.seed);
    let (mut nodes, mut seconds) = (0u64, 0.0);
    let mut done = 0;
    while done < args.positions {
        let pos = random_playout(args.variant.start(), &mut rng, |pos: &Position<G>| pos.empty_count() > args.empties);
        if pos.is_terminal() || pos.legal_moves().len() < 2 {
            continue;
        }
        if let Some(dir) = &args.write {
            let path = dir.join(format!("p{done:02}.txt"));
            std::fs::write(&path, pos.to_string()).map_err(|e| format!("{}: {e}", path.display()))?;
        }
        done += 1;
        let limits = match args.depth {
            Some(depth) => Limits { depth: Some(depth), ..Limits::default() },
            None => Limits { time: Some(TimePlan::fixed(args.seconds)), ..Limits::default() },
        };
        let r = engine.search(&pos, &limits);
        println!(
            "empties {:>3}  depth {:>2}{}  score {:>+6}  move {:>4}  nodes {:>10}  {:.3} s  {:.0} nodes/s",
            pos.empty_count(),
            r.depth,
            if r.exact { " exact" } else { "" },
            r.score.unwrap_or(0),
            r.best,
            r.nodes,
            r.seconds,
            r.nodes as f64 / r.seconds.max(1e-9)
        );
        nodes += r.nodes;
        seconds += r.seconds;
    }
    println!("total {nodes} nodes in {seconds:.3} s: {:.0} nodes/s", nodes as f64 / seconds.max(1e-9));
    Ok(())
}

fn main() -> std::process::ExitCode {
    let args = Args::parse();
    match with_geometry!(args.variant, G => run::<G>(&args)) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}

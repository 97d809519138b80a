//! The `tuner` program's Reversi commands: `eval-error` (evaluations
//! against the reference search) and `label` (training positions scored
//! by it).

use super::{eval_error, label::LabelOptions};
use crate::eval::{ClassicEval, PatternEval};
use crate::{CompiledGeometry, ReversiEvaluator, Variant};
use std::path::PathBuf;
use tuner::cli::{data_files, threads_or_cores};
use tuner::run;

/// `tuner label`'s arguments.
#[derive(clap::Args)]
pub struct LabelArgs {
    /// Reversi variant.
    #[arg(long)]
    pub variant: Variant,
    /// A positions.csv file, or a self-play output folder holding one.
    #[arg(long)]
    data: PathBuf,
    /// The labelled file to write (appended to when it exists).
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// Depth of the reference search (full width).
    #[arg(long, default_value_t = LabelOptions::default().depth)]
    depth: u32,
    /// At or below this many empties the label is the exact score.
    #[arg(long, default_value_t = LabelOptions::default().exact_empties)]
    exact_empties: u32,
    /// Only positions with at least this many empties.
    #[arg(long, default_value_t = 0)]
    min_empties: u32,
    /// Only positions with at most this many empties.
    #[arg(long, default_value_t = u32::MAX)]
    max_empties: u32,
    /// Label a seeded sample of this many of the selected positions.
    #[arg(long)]
    sample: Option<usize>,
    /// Seed of the sample.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Weights of the reference search (default: compiled in).
    #[arg(long, value_name = "FILE")]
    weights: Option<PathBuf>,
    /// Worker threads (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
}

/// `tuner eval-error`'s arguments.
#[derive(clap::Args)]
pub struct EvalErrorArgs {
    /// Reversi variant.
    #[arg(long)]
    pub variant: Variant,
    /// positions.csv files, or self-play output folders holding one (games
    /// the evaluations were not trained on).
    #[arg(long, required = true, num_args = 1..)]
    data: Vec<PathBuf>,
    /// Positions sampled (distinct, unfinished).
    #[arg(long, default_value_t = 400)]
    positions: usize,
    /// Seed of the sample.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Depth of the reference search (full width).
    #[arg(long, default_value_t = 8)]
    depth: u32,
    /// At or below this many empties the reference is the exact score.
    #[arg(long, default_value_t = 16)]
    exact_empties: u32,
    /// Weights of the reference search (default: compiled in); repeat for
    /// a committee: the reference is the mean of their searches.
    #[arg(long, value_name = "FILE")]
    reference: Vec<PathBuf>,
    /// Keep the reference scores in this file: read them from it when it
    /// exists (it must have been made with the same options and reference
    /// weights, and hold the same sample), else score and write it, so
    /// later checks of other weights skip the searches.
    #[arg(long, value_name = "FILE")]
    scores: Option<PathBuf>,
    /// Weights files to check besides the compiled-in weights (repeat).
    #[arg(long, value_name = "FILE")]
    weights: Vec<PathBuf>,
    /// Check the classic heuristic too.
    #[arg(long)]
    classic: bool,
    /// Write the table as CSV here too.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
}

/// Header of the `eval-error` table.
const EVAL_ERROR_HEADER: &str = "evaluation,phase,positions,exact,mae,bias,scaled_mae";
/// Progress lines while the reference scores are searched.
const EVAL_ERROR_REPORTS: usize = 10;

/// `tuner eval-error` on the board `G` of `args.variant`.
pub fn eval_error<G: CompiledGeometry>(args: &EvalErrorArgs) -> Result<(), String> {
    let positions = eval_error::sample::<G>(&data_files(&args.data), args.variant, args.positions, args.seed)?;
    let references: Vec<Option<PathBuf>> =
        if args.reference.is_empty() { vec![None] } else { args.reference.iter().cloned().map(Some).collect() };
    let committee = references
        .iter()
        .map(|weights| eval_error::weights_id::<G>(args.variant, weights.as_deref()))
        .collect::<Result<Vec<_>, _>>()?
        .join(" ");
    let options = format!(
        "variant={} positions={} seed={} depth={} exact_empties={} reference={committee}",
        args.variant.name(),
        args.positions,
        args.seed,
        args.depth,
        args.exact_empties,
    );
    let saved = match &args.scores {
        Some(path) if path.exists() => {
            let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
            Some(eval_error::read_scores(path, &text, &options, positions.clone())?)
        }
        _ => None,
    };
    let scored = match saved {
        Some(scored) => scored,
        None => {
            let mut engines = references
                .into_iter()
                .map(|weights| eval_error::reference_engine::<G>(args.variant, weights, 0))
                .collect::<Result<Vec<_>, _>>()?;
            let total = positions.len();
            let report_every = total.div_ceil(EVAL_ERROR_REPORTS).max(1);
            let scored =
                eval_error::score_by_committee(&mut engines, positions, args.depth, args.exact_empties, |done| {
                    if done % report_every == 0 || done == total {
                        eprintln!("reference scores: {done}/{total}");
                    }
                });
            if let Some(path) = &args.scores {
                run::write_atomically(path, eval_error::scores_text(&options, &scored))?;
            }
            scored
        }
    };
    let mut evaluations: Vec<(String, ReversiEvaluator<G>)> =
        vec![("compiled".into(), ReversiEvaluator::Pattern(PatternEval::compiled(args.variant)))];
    for path in &args.weights {
        evaluations
            .push((path.display().to_string(), ReversiEvaluator::Pattern(PatternEval::from_file(args.variant, path)?)));
    }
    if args.classic {
        evaluations.push(("classic".into(), ReversiEvaluator::Classic(ClassicEval::new(args.variant.start_discs()))));
    }
    let mut csv = format!("{EVAL_ERROR_HEADER}\n");
    println!(
        "{:<40} {:>5} {:>9} {:>6} {:>7} {:>7} {:>10}",
        "evaluation", "phase", "positions", "exact", "mae", "bias", "scaled_mae"
    );
    for (name, eval) in &evaluations {
        for p in eval_error::errors(eval, &scored, args.variant) {
            let (phase, n, exact, mae, bias, scaled) = (p.phase, p.positions, p.exact, p.mae, p.bias, p.scaled_mae);
            println!("{name:<40} {phase:>5} {n:>9} {exact:>6} {mae:>7.2} {bias:>+7.2} {scaled:>10.2}");
            csv += &format!("{name},{phase},{n},{exact},{mae:.4},{bias:.4},{scaled:.4}\n");
        }
    }
    if let Some(out) = &args.out {
        run::write_atomically(out, csv)?;
    }
    Ok(())
}

/// `tuner label` on the board `G` of `args.variant`.
pub fn label<G: CompiledGeometry>(args: &LabelArgs) -> Result<(), String> {
    let input = data_files(std::slice::from_ref(&args.data)).remove(0);
    let options = LabelOptions {
        depth: args.depth,
        exact_empties: args.exact_empties,
        min_empties: args.min_empties,
        max_empties: args.max_empties,
        sample: args.sample,
        seed: args.seed,
        weights: args.weights.clone(),
        threads: threads_or_cores(args.threads),
    };
    let started = std::time::Instant::now();
    let bar = indicatif::ProgressBar::new(0);
    let summary = super::label::label::<G>(args.variant, &input, &args.out, &options, |done, total| {
        bar.set_length(total as u64);
        bar.set_position(done as u64);
    })?;
    bar.finish_and_clear();
    eprintln!(
        "{} positions labelled in {} ({} were there already, {} exact) in {:.1} s",
        summary.selected,
        args.out.display(),
        summary.resumed,
        summary.exact,
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

//! `tuner`: fits a game's evaluation weights to self-play positions,
//! proves them by matches, runs the overnight loop and converts weight
//! files, and tunes search parameters by SPSA. The commands are the tuner library's, for the game that
//! `--variant` (or a weights file's `variant` line) names in the
//! workbench's registry; `eval-error` and `label` are Reversi's.

use clap::{Parser, Subcommand};
use engine_core::weights::kind_name;
use reversi::tuning::cli::{EvalErrorArgs, LabelArgs};
use reversi::with_geometry;
use std::process::ExitCode;
use tuner::cli::{ConvertArgs, LoopArgs, SpsaArgs, TuneArgs, VerifyArgs};
use workbench::with_tuning_game;

/// Tunes evaluation weights on self-play positions (Texel loss: Adam or local search).
#[derive(Parser)]
#[command(version)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Fit the weights to positions.csv files and write them out.
    Tune(TuneArgs),
    /// Play the tuned weights against the starting ones at equal fixed depth
    /// (colour-swapped pairs from varied openings) and report Elo ± 95% CI.
    Verify(VerifyArgs),
    /// Measure evaluations against a reference search on positions they
    /// were not trained on: mean absolute error per phase, in discs
    /// (Reversi).
    EvalError(EvalErrorArgs),
    /// Score positions with a deeper search for training: the input's rows
    /// (unfinished, within the empties range, optionally a seeded sample)
    /// plus a `label` column in discs (Reversi). Resumable: rerun the same
    /// command.
    Label(LabelArgs),
    /// The overnight loop: rounds of self-play with the current best
    /// weights, a fit from them, and an SPRT of the fit against them at
    /// equal nodes; the accepted fits climb `ladder.csv`. Resumable: rerun
    /// the same command.
    Loop(LoopArgs),
    /// Tune search parameters of the registry by SPSA: each iteration plays
    /// colour-swapped pairs of theta+delta against theta-delta and moves
    /// theta by the result; then a proof match of the tuned values against
    /// the start. Resumable: rerun the same command.
    Spsa(SpsaArgs),
    /// Convert a weights file between the text and the compiled-in binary
    /// form (a file of an older layout gains its missing tables as zeros;
    /// the binary form keeps one value per orbit of a self-symmetric table,
    /// the mean of its entries; a binary source's notes carry over).
    Convert(ConvertArgs),
}

fn main() -> ExitCode {
    let result = match Cli::parse().command {
        Command::Tune(args) => with_tuning_game!(&args.variant, game => tuner::cli::tune(game, &args)),
        Command::Verify(args) => with_tuning_game!(&args.variant, game => tuner::cli::verify(game, &args)),
        Command::Loop(args) => with_tuning_game!(&args.variant, game => tuner::cli::tuner_loop(game, &args)),
        Command::Spsa(args) => workbench::game(&args.variant).and_then(|family| tuner::cli::spsa(family, &args)),
        Command::Convert(args) => convert(&args),
        Command::EvalError(args) => with_geometry!(args.variant, G => reversi::tuning::cli::eval_error::<G>(&args)),
        Command::Label(args) => with_geometry!(args.variant, G => reversi::tuning::cli::label::<G>(&args)),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("tuner: {message}");
            ExitCode::FAILURE
        }
    }
}

/// `convert` for the game the file's `variant` line names.
fn convert(args: &ConvertArgs) -> Result<(), String> {
    let shown = args.from.display();
    let bytes = std::fs::read(&args.from).map_err(|e| format!("{shown}: {e}"))?;
    let variant =
        kind_name(&bytes).ok_or_else(|| format!("{shown}: expected a `variant` line after the format line"))?;
    if !workbench::tunable_variants().contains(&variant) {
        // The number of the `variant` line, for the error.
        let line = bytes.split(|&b| b == b'\n').position(|l| l.starts_with(b"variant ")).map_or(0, |i| i + 1);
        return Err(format!("{shown}: line {line}: {}", workbench::unknown_tunable(&variant)));
    }
    with_tuning_game!(&variant, game => tuner::cli::convert(game, args))
}

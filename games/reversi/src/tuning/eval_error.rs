//! The evaluation check that does not grade an evaluation by itself:
//! positions sampled from the `positions.csv` of runs the evaluations were
//! not trained on (games against other opponents), each scored once by a
//! reference search (full width to a fixed depth with the reference
//! weights, exact at or below a number of empties); then each evaluation's
//! mean absolute error and mean signed error (bias) against that score, in
//! discs, phase by phase (the phases of the variant's weight registry).

use super::reversi::unflatten;
use crate::eval::{Evaluator, PatternEval, Registry, discs};
use crate::{CompiledGeometry, Geometry, Position, ReversiEngine, Variant, reversi_engine};
use engine_core::agent::Agent;
use engine_core::game::Game;
use engine_core::search::Budget;
use engine_core::search::{EngineConfig, Objective};
use std::path::PathBuf;
use tuner::run::columns::BOARD;
use tuner::run::seeded_draw;

/// A position with its reference score.
#[derive(Clone, Debug)]
pub struct Scored<G: Geometry> {
    /// The position (not finished).
    pub position: Position<G>,
    /// The reference search's score for the side to move, in discs.
    pub reference: f64,
    /// True when the reference is the exact value.
    pub exact: bool,
}

/// Samples `count` distinct unfinished positions from the `board` column of
/// `files` (seeded; every position when there are fewer). Errors name the
/// file and line.
pub fn sample<G: Geometry>(
    files: &[PathBuf],
    variant: Variant,
    count: usize,
    seed: u64,
) -> Result<Vec<Position<G>>, String> {
    let mut all = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for path in files {
        let shown = path.display();
        let mut reader = csv::Reader::from_path(path).map_err(|e| format!("{shown}: cannot read: {e}"))?;
        let headers = reader.headers().map_err(|e| format!("{shown}:1: bad header: {e}"))?.clone();
        let board =
            headers.iter().position(|h| h == BOARD).ok_or_else(|| format!("{shown}:1: expected a `{BOARD}` column"))?;
        for record in reader.records() {
            let record = record.map_err(|e| format!("{shown}: {e}"))?;
            let line = record.position().map_or(0, |p| p.line());
            let text = record.get(board).unwrap_or("");
            let position = Position::<G>::parse(&unflatten(text), variant.scoring())
                .map_err(|e| format!("{shown}:{line}: board field {e}"))?;
            if !position.is_terminal() && seen.insert(position.hash()) {
                all.push(position);
            }
        }
    }
    Ok(seeded_draw(all.len(), count, seed).into_iter().map(|i| all[i]).collect())
}

/// Scores `positions` with `engine`: exact at or below `exact_empties`
/// empties, else full width to `depth`. `progress` is told each one done.
pub fn score<G: CompiledGeometry>(
    engine: &mut ReversiEngine<G>,
    positions: Vec<Position<G>>,
    depth: u32,
    exact_empties: u32,
    progress: impl FnMut(usize),
) -> Vec<Scored<G>> {
    score_by_committee(std::slice::from_mut(engine), positions, depth, exact_empties, progress)
}

/// Scores `positions` with a committee of `engines` (at least one): exact
/// at or below `exact_empties` empties (by the first engine: every engine
/// finds the same value), else the mean of every engine's full-width search
/// to `depth`. A committee of the evaluations under test grades each of them
/// against a reference that favours none. `progress` is told each one done.
pub fn score_by_committee<G: CompiledGeometry>(
    engines: &mut [ReversiEngine<G>],
    positions: Vec<Position<G>>,
    depth: u32,
    exact_empties: u32,
    mut progress: impl FnMut(usize),
) -> Vec<Scored<G>> {
    assert!(!engines.is_empty(), "a reference needs at least one engine");
    let mut out = Vec::with_capacity(positions.len());
    for (i, position) in positions.into_iter().enumerate() {
        let solve = position.empty_count() <= exact_empties;
        let limits = if solve { Budget::Exact } else { Budget::Depth(depth) }.limits();
        let voters = if solve { &mut engines[..1] } else { &mut engines[..] };
        let mut sum = 0.0;
        let mut exact = true;
        for engine in voters.iter_mut() {
            engine.new_game();
            let r = engine.search(&position, &limits);
            sum += discs(r.score.unwrap_or(0));
            exact &= r.exact;
        }
        out.push(Scored { position, reference: sum / voters.len() as f64, exact });
        progress(i + 1);
    }
    out
}

/// Names the weights of a reference search in a reference-score file: the
/// file's name (or `compiled`) and an FNV-1a digest of its values, so the
/// record does not depend on where the file lies.
pub fn weights_id<G: Geometry>(variant: Variant, weights: Option<&std::path::Path>) -> Result<String, String> {
    let eval: PatternEval<G> = match weights {
        Some(path) => PatternEval::from_file(variant, path)?,
        None => PatternEval::compiled(variant),
    };
    let bytes: Vec<u8> = eval.weights().iter().flat_map(|w| w.to_le_bytes()).collect();
    let name = weights.and_then(|p| p.file_name()).map_or("compiled".into(), |n| n.to_string_lossy().into_owned());
    Ok(format!("{name}#{:016x}", engine_core::mix::fnv1a(&bytes)))
}

/// Column header of a reference-score file (`eval-error --scores`), the
/// line after the options.
pub const SCORES_HEADER: &str = "index,hash,reference,exact";

/// The reference scores of `scored` as a file: a `# ` line with `options`
/// (what made them), the header, then one row per position in sample order.
pub fn scores_text<G: Geometry>(options: &str, scored: &[Scored<G>]) -> String {
    let mut text = format!("# {options}\n{SCORES_HEADER}\n");
    for (i, s) in scored.iter().enumerate() {
        text += &format!("{i},{},{},{}\n", s.position.hash(), s.reference, u8::from(s.exact));
    }
    text
}

/// Reads reference scores written by [`scores_text`] for `positions` (the
/// same sample) made with `options`. Errors name the file and line.
pub fn read_scores<G: Geometry>(
    path: &std::path::Path,
    text: &str,
    options: &str,
    positions: Vec<Position<G>>,
) -> Result<Vec<Scored<G>>, String> {
    let shown = path.display();
    let mut lines = text.lines();
    let made = lines.next().and_then(|l| l.strip_prefix("# ")).unwrap_or("");
    if made != options {
        return Err(format!("{shown}:1: made by `{made}`, expected `{options}` (remove the file to score again)"));
    }
    if lines.next() != Some(SCORES_HEADER) {
        return Err(format!("{shown}:2: expected the header `{SCORES_HEADER}`"));
    }
    let mut out = Vec::with_capacity(positions.len());
    for (i, position) in positions.into_iter().enumerate() {
        let line = i + 3;
        let row = lines.next().ok_or_else(|| format!("{shown}:{line}: expected the score of position {i}"))?;
        let parse = || {
            let mut fields = row.split(',');
            let index = fields.next()?.parse::<usize>().ok().filter(|&n| n == i)?;
            let hash = fields.next()?.parse::<u64>().ok().filter(|&h| h == position.hash())?;
            let reference = fields.next()?.parse::<f64>().ok().filter(|r| r.is_finite())?;
            let exact = match fields.next()? {
                "0" => false,
                "1" => true,
                _ => return None,
            };
            fields.next().is_none().then_some((index, hash, reference, exact))
        };
        let Some((_, _, reference, exact)) = parse() else {
            return Err(format!(
                "{shown}:{line}: expected `{i},{},SCORE,0|1` (position {i} of the sample), found `{row}`",
                position.hash()
            ));
        };
        out.push(Scored { position, reference, exact });
    }
    if let Some(row) = lines.next() {
        let line = out.len() + 3;
        return Err(format!("{shown}:{line}: expected the end of the file, found `{row}`"));
    }
    Ok(out)
}

/// One phase's errors.
#[derive(Clone, Debug, PartialEq)]
pub struct PhaseError {
    /// The registry's phase.
    pub phase: usize,
    /// Positions in it.
    pub positions: usize,
    /// Of them, scored exactly.
    pub exact: usize,
    /// Mean |evaluation - reference|, in discs.
    pub mae: f64,
    /// Mean (evaluation - reference), in discs.
    pub bias: f64,
    /// Mean |s * evaluation - reference| with the one scale `s` that fits
    /// all phases best (least squares): the error of an evaluation that is
    /// not in discs (the classic heuristic), once put in discs.
    pub scaled_mae: f64,
}

/// The errors of `eval` against the reference scores, per phase of
/// `variant`'s registry (phases with no position are left out).
pub fn errors<G: Geometry>(
    eval: &impl Evaluator<Position<G>>,
    scored: &[Scored<G>],
    variant: Variant,
) -> Vec<PhaseError> {
    let registry = Registry::of(variant);
    let values: Vec<f64> = scored.iter().map(|s| discs(eval.evaluate(&s.position))).collect();
    let (cross, square) = values.iter().zip(scored).fold((0.0, 0.0), |(c, q), (v, s)| (c + v * s.reference, q + v * v));
    let scale = if square > 0.0 { cross / square } else { 1.0 };
    let mut phases: Vec<PhaseError> = (0..registry.phases)
        .map(|phase| PhaseError { phase, positions: 0, exact: 0, mae: 0.0, bias: 0.0, scaled_mae: 0.0 })
        .collect();
    for (s, value) in scored.iter().zip(values) {
        let discs = G::CELLS - s.position.empty_count() as usize;
        let p = &mut phases[registry.phase_of(discs)];
        let error = value - s.reference;
        p.positions += 1;
        p.exact += usize::from(s.exact);
        p.mae += error.abs();
        p.bias += error;
        p.scaled_mae += (scale * value - s.reference).abs();
    }
    phases.retain(|p| p.positions > 0);
    for p in &mut phases {
        let n = p.positions as f64;
        p.mae /= n;
        p.bias /= n;
        p.scaled_mae /= n;
    }
    phases
}

/// The reference engine: the pattern evaluation with `weights` (default:
/// compiled in) and a transposition table of `tt_mb` MiB (0: the default).
pub fn reference_engine<G: Geometry>(
    variant: Variant,
    weights: Option<PathBuf>,
    tt_mb: usize,
) -> Result<ReversiEngine<G>, String> {
    reversi_engine::<G>(
        variant,
        EngineConfig { weights, tt_mb, objective: Objective::Margin, ..EngineConfig::default() },
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Size4;
    use crate::eval::FinalScore;
    use crate::tuning::testdata::{negamax, tiny_positions};

    #[test]
    fn exact_reference_scores_are_the_game_values_and_errors_add_up_by_phase() {
        let variant = Variant::Tiny4;
        let mut engine = reference_engine::<Size4>(variant, None, 0).unwrap();
        let scored = score(&mut engine, tiny_positions(40, 5), 2, 16, |_| {});
        for s in &scored {
            assert!(s.exact);
            assert_eq!(s.reference, f64::from(negamax(&s.position)), "{}", s.position);
        }
        // Against the disc count as it stands, by hand.
        let registry = Registry::of(variant);
        let phases = errors(&FinalScore, &scored, variant);
        assert_eq!(phases.iter().map(|p| p.positions).sum::<usize>(), scored.len());
        for p in &phases {
            let in_phase: Vec<&Scored<Size4>> = scored
                .iter()
                .filter(|s| registry.phase_of(16 - s.position.empty_count() as usize) == p.phase)
                .collect();
            let diffs: Vec<f64> =
                in_phase.iter().map(|s| discs(FinalScore.evaluate(&s.position)) - s.reference).collect();
            let n = diffs.len() as f64;
            assert!((p.mae - diffs.iter().map(|d| d.abs()).sum::<f64>() / n).abs() < 1e-9);
            assert!((p.bias - diffs.iter().sum::<f64>() / n).abs() < 1e-9);
        }
        // An evaluation on another scale has the same scaled error.
        let doubled = errors(&Doubled, &scored, variant);
        for (d, p) in doubled.iter().zip(&phases) {
            assert!((d.scaled_mae - p.scaled_mae).abs() < 1e-9, "{d:?} {p:?}");
        }
        assert!(doubled.iter().zip(&phases).any(|(d, p)| d.mae != p.mae));
    }

    #[test]
    fn reference_scores_read_back_as_written_and_bad_files_name_their_line() {
        let positions = tiny_positions(12, 3);
        let scored: Vec<Scored<Size4>> = positions
            .iter()
            .enumerate()
            .map(|(i, &position)| Scored { position, reference: i as f64 * 1.25 - 3.0, exact: i % 3 == 0 })
            .collect();
        let path = std::path::Path::new("scores.csv");
        let text = scores_text("depth=2", &scored);
        let back = read_scores(path, &text, "depth=2", positions.clone()).unwrap();
        for (a, b) in back.iter().zip(&scored) {
            assert_eq!((a.position, a.reference, a.exact), (b.position, b.reference, b.exact));
        }
        assert_eq!(back.len(), scored.len());
        let err = |text: &str, options: &str, positions: Vec<Position<Size4>>| {
            read_scores(path, text, options, positions).unwrap_err()
        };
        assert!(err(&text, "depth=3", positions.clone()).starts_with("scores.csv:1: "));
        // Another sample: the fourth position's hash differs (line 6).
        let mut other = positions.clone();
        other.swap(3, 4);
        assert!(err(&text, "depth=2", other).starts_with("scores.csv:6: expected `3,"));
        let garbled = text.replacen(",1\n", ",x\n", 1);
        assert!(err(&garbled, "depth=2", positions.clone()).starts_with("scores.csv:3: "));
        assert!(err(&text, "depth=2", positions[..11].to_vec()).starts_with("scores.csv:14: expected the end"));
        let cut: String = text.lines().take(5).map(|l| format!("{l}\n")).collect();
        assert!(err(&cut, "depth=2", positions).starts_with("scores.csv:6: expected the score of position 3"));
    }

    #[test]
    fn a_committee_reference_is_the_mean_of_its_searches_and_exact_scores_are_shared() {
        let variant = Variant::Tiny4;
        let dir = std::env::temp_dir().join(format!("tuner-committee-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let zero = dir.join("zero.txt");
        let mut set = crate::eval::WeightSet::compiled(variant);
        set.values.iter_mut().for_each(|v| *v = 0);
        set.save(&zero).unwrap();
        let positions = tiny_positions(30, 9);
        let engine = |weights: Option<PathBuf>| reference_engine::<Size4>(variant, weights, 0).unwrap();
        let (mut compiled, mut zeroed) = (engine(None), engine(Some(zero.clone())));
        let alone = score(&mut compiled, positions.clone(), 2, 4, |_| {});
        let zero_alone = score(&mut zeroed, positions.clone(), 2, 4, |_| {});
        let mut committee = [engine(None), engine(Some(zero))];
        let both = score_by_committee(&mut committee, positions, 2, 4, |_| {});
        assert!(alone.iter().zip(&zero_alone).any(|(a, z)| a.reference != z.reference));
        for ((a, z), c) in alone.iter().zip(&zero_alone).zip(&both) {
            assert_eq!(c.exact, a.exact);
            if c.position.empty_count() <= 4 {
                assert!(c.exact);
                assert_eq!(c.reference, f64::from(negamax(&c.position)));
            } else {
                assert_eq!(c.reference, (a.reference + z.reference) / 2.0, "{}", c.position);
            }
        }
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn a_reference_is_named_by_its_values_wherever_its_file_lies() {
        let variant = Variant::Tiny4;
        let dir = std::env::temp_dir().join(format!("tuner-weights-id-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("elsewhere")).unwrap();
        let mut set = crate::eval::WeightSet::compiled(variant);
        let (here, there, changed) = (dir.join("w.txt"), dir.join("elsewhere").join("w.txt"), dir.join("v.txt"));
        set.save(&here).unwrap();
        set.save(&there).unwrap();
        set.values[0] += 1;
        set.save(&changed).unwrap();
        let id = |path: Option<&std::path::Path>| weights_id::<Size4>(variant, path).unwrap();
        let compiled = id(None);
        assert_eq!(id(Some(&here)), id(Some(&there)));
        assert_eq!(id(Some(&here)).split_once('#').unwrap().1, compiled.split_once('#').unwrap().1);
        assert!(compiled.starts_with("compiled#") && id(Some(&here)).starts_with("w.txt#"));
        assert_ne!(id(Some(&changed)).split_once('#').unwrap().1, compiled.split_once('#').unwrap().1);
        assert!(weights_id::<Size4>(variant, Some(&dir.join("missing.txt"))).is_err());
        std::fs::remove_dir_all(&dir).ok();
    }

    /// Twice the disc count.
    struct Doubled;

    impl Evaluator<Position<Size4>> for Doubled {
        type Trail = ();

        fn evaluate(&self, state: &Position<Size4>) -> i32 {
            2 * FinalScore.evaluate(state)
        }
    }
}

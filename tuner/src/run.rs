//! A tuning run on disk: loading `positions.csv` files through a feature
//! [`Model`], the checkpoint written after every pass, `tune_log.csv`, and
//! the progress display.

use crate::dataset::{Dataset, Rows, Sample, mix};
use crate::gradient::{self, GradientFit, GradientOptions};
use crate::local_search::{Bounds, LocalSearch, PassLog, TuneState};
use crate::loss::sigmoid;
use crate::packed::{PackedDataset, Packer};
use engine_core::eval::SCORE_PER_POINT;
use engine_core::weights::{Layout, WeightKind, WeightSet};
use indicatif::{ProgressBar, ProgressStyle};
use serde::{Deserialize, Serialize};
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};

/// What the tuner needs from an evaluation: its weights, their limits, and
/// the features of a position given in the flattened text form.
pub trait Model: Sync {
    /// The layout of the weights.
    fn layout(&self) -> &'static Layout;
    /// Current weights, in layout order.
    fn weights(&self) -> Vec<i32>;
    /// Limits of each weight, in layout order: from the layout.
    fn bounds(&self) -> Vec<Bounds> {
        let layout = self.layout();
        (0..layout.len())
            .map(|i| {
                let table = layout.spec_of(i);
                Bounds { min: table.min, max: table.max, step: table.step }
            })
            .collect()
    }
    /// Largest magnitude of a final score (`disc_diff`), which scales
    /// [`Target::Discs`].
    fn score_span(&self) -> usize;
    /// Active features (weight index, multiplicity) of the position `board`
    /// (flattened text form) such that the evaluation is `Σ w[i] * m`.
    fn features(&self, board: &str) -> Result<Vec<(u32, i32)>, String>;
    /// The packing of the model's positions into 64 bytes, when it has one
    /// (Reversi boards): the gradient fit then keeps boards, not features.
    fn packer(&self) -> Option<&dyn Packer> {
        None
    }

    /// The evaluation of `board` under `weights`: its features times the
    /// weights (what the engine's evaluation gives for the same weights).
    fn linear_eval(&self, weights: &[i32], board: &str) -> Result<i64, String> {
        Ok(self.features(board)?.iter().map(|&(i, m)| i64::from(weights[i as usize]) * i64::from(m)).sum())
    }
}

/// The weight set of `key` holding `values` (which the bounds keep within
/// the `i16` of weight files), each orbit of a self-symmetric table at its
/// canonical entry's value (the one weight the tuner trained).
pub fn weight_set<K: WeightKind>(key: K, values: &[i32]) -> WeightSet<K> {
    let mut values: Vec<i16> = values.iter().map(|&v| v as i16).collect();
    key.layout().share(&mut values);
    WeightSet { key, values }
}

/// What the training target is made of.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Target {
    /// The game result from the mover's side: 1, 0.5, 0.
    Result,
    /// The final disc difference from the mover's side, mapped to [0, 1].
    Discs,
    /// `λ * result + (1 - λ) * discs`.
    Blend(f64),
    /// The deeper-search score of `tuner label` (the `label` column, in
    /// discs, mapped like [`Target::Discs`]) where the file has one, else
    /// the final disc difference.
    Label,
    /// The same score through the fit's own logistic with this K:
    /// `sigmoid(K × score units)`, so that a perfect fit evaluates each
    /// position at its label in discs (the linear map of [`Target::Label`]
    /// compresses the evaluation's scale).
    Score(f64),
}

impl Target {
    /// The K of [`Target::Score`], which the fit must use.
    pub fn fixed_k(self) -> Option<f64> {
        match self {
            Target::Score(k) => Some(k),
            _ => None,
        }
    }
}

impl std::str::FromStr for Target {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "result" => Ok(Target::Result),
            "discs" => Ok(Target::Discs),
            "label" => Ok(Target::Label),
            _ => {
                let number = |prefix: &str| s.strip_prefix(prefix).and_then(|x| x.parse::<f64>().ok());
                number("blend=")
                    .filter(|l| (0.0..=1.0).contains(l))
                    .map(Target::Blend)
                    .or_else(|| number("score=").filter(|k| *k > 0.0 && k.is_finite()).map(Target::Score))
                    .ok_or_else(|| {
                        format!(
                            "unknown target `{s}`: expected result, discs, label, blend=L with L in [0, 1] \
                             or score=K with K > 0"
                        )
                    })
            }
        }
    }
}

/// Columns of `positions.csv` the tuner reads (see the selfplay docs).
pub mod columns {
    /// Game id within its run.
    pub const GAME: &str = "game";
    /// Position in the flattened text form.
    pub const BOARD: &str = "board";
    /// Final result from the mover's side: 1, 0.5 or 0.
    pub const RESULT: &str = "result";
    /// Final disc difference from the mover's side.
    pub const DISC_DIFF: &str = "disc_diff";
    /// The deeper-search score `tuner label` adds, in discs, from the side
    /// to move.
    pub const LABEL: &str = "label";
}

/// A tuning folder's starting weights.
pub const START_NAME: &str = "start.txt";
/// A tuning folder's log of passes or epochs.
pub const LOG_NAME: &str = "tune_log.csv";

/// Games per colour-swapped pair in a self-play run (`pair = game / 2`).
const GAMES_PER_PAIR: u64 = 2;

/// Reads every position of `files`, turning each board with `convert` and
/// handing it to `push` with its game key and target (keyed by the number
/// of the game pair alone, so a train/validation split keeps each pair on
/// one side and puts the positions `tuner label` took from a run on the
/// same side as the run's other positions, whatever the order of the
/// files); `span` scales final scores for [`Target::Discs`]. Errors
/// name the file and line. Each file's games go in the order of their ids
/// (a game's rows in file order), so the data, and a fit on it, do not
/// depend on the order in which a run's threads finished its games.
fn read_positions<T>(
    files: &[PathBuf],
    span: usize,
    target: Target,
    convert: impl Fn(&str) -> Result<T, String>,
    mut push: impl FnMut(u64, T, f64),
) -> Result<(), String> {
    for path in files {
        let mut rows: Vec<(u64, u64, T, f64)> = Vec::new();
        let shown = path.display();
        let mut reader = csv::Reader::from_path(path).map_err(|e| format!("{shown}: cannot read: {e}"))?;
        let headers = reader.headers().map_err(|e| format!("{shown}:1: bad header: {e}"))?.clone();
        let column = |name: &str| {
            headers.iter().position(|h| h == name).ok_or_else(|| format!("{shown}:1: expected a `{name}` column"))
        };
        let (game, board, result, discs) =
            (column(columns::GAME)?, column(columns::BOARD)?, column(columns::RESULT)?, column(columns::DISC_DIFF)?);
        let label = headers.iter().position(|h| h == columns::LABEL);
        for record in reader.records() {
            let record = record.map_err(|e| format!("{shown}: {e}"))?;
            let line = record.position().map_or(0, |p| p.line());
            let field = |i: usize| record.get(i).unwrap_or("");
            let number = |i: usize, what: &str| {
                field(i).parse::<f64>().map_err(|_| format!("{shown}:{line}: expected {what}, found `{}`", field(i)))
            };
            let game_id: u64 = number(game, "a game id")? as u64;
            let outcome = number(result, "a result of 1, 0.5 or 0")?;
            let diff = match (target, label) {
                (Target::Label | Target::Score(_), Some(label)) => number(label, "a label in discs")?,
                _ => number(discs, "a disc difference")?,
            };
            let converted = convert(field(board)).map_err(|e| format!("{shown}:{line}: {e}"))?;
            let from_discs = ((diff / span as f64) + 1.0) / 2.0;
            let value = match target {
                Target::Result => outcome,
                Target::Discs | Target::Label => from_discs,
                Target::Score(k) => sigmoid(k * diff * f64::from(SCORE_PER_POINT)),
                Target::Blend(l) => l * outcome + (1.0 - l) * from_discs,
            };
            // Split by pair, not by game: the two games of a self-play pair
            // start from one opening and, between equal engines, are the same
            // game with colours swapped. Pair k of every file goes one way.
            let pair = game_id / GAMES_PER_PAIR;
            rows.push((game_id, mix(pair), converted, value));
        }
        // Stable: a game's rows keep their order.
        rows.sort_by_key(|&(game, ..)| game);
        for (_, key, converted, value) in rows {
            push(key, converted, value);
        }
    }
    Ok(())
}

/// Loads every position of `files` as samples with their features (see
/// [`read_positions`] for the keys, targets and order).
pub fn load(files: &[PathBuf], model: &dyn Model, target: Target) -> Result<Dataset, String> {
    let mut data = Dataset::new();
    read_positions(
        files,
        model.score_span(),
        target,
        |board| model.features(board),
        |game, features, target| data.push(&Sample { game, features, target }),
    )?;
    Ok(data)
}

/// Loads every position of `files` as packed boards (the same keys,
/// targets and order as [`load`]).
pub fn load_packed<'m>(
    files: &[PathBuf],
    model: &dyn Model,
    packer: &'m dyn Packer,
    target: Target,
) -> Result<PackedDataset<'m>, String> {
    let mut data = PackedDataset::new(packer);
    read_positions(
        files,
        model.score_span(),
        target,
        |board| packer.pack(board),
        |game, board, target| data.push(game, board, target),
    )?;
    Ok(data)
}

/// The positions of `files` split into a training and a validation set
/// (one game pair in `validation_every` validates), both non-empty.
pub fn load_split(
    files: &[PathBuf],
    model: &dyn Model,
    target: Target,
    validation_every: u64,
) -> Result<(Dataset, Dataset), String> {
    let all = load(files, model, target)?;
    non_empty(all.split_by_game(|g| is_validation(g, validation_every)))
}

/// [`load_split`] into packed boards.
pub fn load_split_packed<'m>(
    files: &[PathBuf],
    model: &dyn Model,
    packer: &'m dyn Packer,
    target: Target,
    validation_every: u64,
) -> Result<(PackedDataset<'m>, PackedDataset<'m>), String> {
    let all = load_packed(files, model, packer, target)?;
    non_empty(all.split_by_game(|g| is_validation(g, validation_every)))
}

/// The split, or an error when a side is empty.
fn non_empty<R: Rows>((train, validation): (R, R)) -> Result<(R, R), String> {
    if train.is_empty() || validation.is_empty() {
        return Err("need positions in both the training and the validation set: give more games".into());
    }
    Ok((train, validation))
}

/// A finished Adam fit on disk: its K and the fit.
pub struct AdamRun {
    /// The logistic scale the fit used.
    pub k: f64,
    /// The fitted weights and the log of every epoch.
    pub fit: GradientFit,
}

/// What a fit starts from: the data, the weights' limits, the starting
/// weights and the logistic scale K.
pub struct FitInput<'a, R: Rows> {
    /// Training set.
    pub train: &'a R,
    /// Validation set.
    pub validation: &'a R,
    /// Limits of each weight.
    pub bounds: &'a [Bounds],
    /// Starting weights.
    pub start: &'a [i32],
    /// Logistic scale.
    pub k: f64,
}

/// K for a fit from `start`: `given`, else fitted to the training set.
pub fn scale_k<R: Rows>(train: &R, start: &[i32], given: Option<f64>) -> f64 {
    given.unwrap_or_else(|| crate::loss::fit_k(train, &train.evaluate_all(start)))
}

/// Full-batch Adam from `start` with scale `k`, writing `tune_log.csv` to
/// `log_path` after every epoch (a kill loses nothing shown) and once more
/// at the end; `each` sees every epoch's row. The one Adam run of `tune`
/// and `loop`: deterministic given its inputs.
pub fn adam<R: Rows>(
    input: &FitInput<'_, R>,
    options: &GradientOptions,
    log_path: &Path,
    mut each: impl FnMut(&PassLog),
) -> Result<AdamRun, String> {
    let FitInput { train, validation, bounds, start, k } = input;
    let (train, validation, bounds, start, k) = (*train, *validation, *bounds, *start, *k);
    let mut rows: Vec<PassLog> = Vec::new();
    let mut log_error = None;
    let fit = gradient::fit(train, validation, bounds, start, k, options, |row| {
        each(row);
        rows.push(row.clone());
        if let Err(e) = write_atomically(log_path, log_csv(&rows)) {
            log_error.get_or_insert(e);
        }
    });
    if let Some(e) = log_error {
        return Err(e);
    }
    write_atomically(log_path, log_csv(&fit.log))?;
    Ok(AdamRun { k, fit })
}

/// The row of `log` with the lowest validation loss (pass 0 on ties).
pub fn best_row(log: &[PassLog]) -> &PassLog {
    log.iter().min_by(|a, b| a.validation_loss.total_cmp(&b.validation_loss)).expect("pass 0 is always logged")
}

/// Writes `set` as a compiled-in binary weights file at `path`, with the
/// command line first among its header notes.
pub fn write_compiled<K: WeightKind>(path: &Path, set: &WeightSet<K>, notes: &[String]) -> Result<(), String> {
    let command = std::env::args().collect::<Vec<_>>().join(" ");
    let mut all = vec![format!("@generated by {command}")];
    all.extend(notes.iter().cloned());
    write_atomically(path, set.to_binary(&all))
}

/// Writes `set` in the text form through a temporary file.
pub fn save_atomically<K: WeightKind>(path: &Path, set: &WeightSet<K>) -> Result<(), String> {
    write_atomically(path, set.to_text())
}

/// The first `count` indices (all of them when `len` is smaller) of a
/// Fisher-Yates shuffle of `0..len` seeded by `seed`: the one way the tuner
/// samples rows (`eval-error`, `label`).
pub fn seeded_draw(len: usize, count: usize, seed: u64) -> Vec<usize> {
    let mut order: Vec<usize> = (0..len).collect();
    let mut rng = engine_core::mix::SplitMix(seed);
    let count = count.min(len);
    for i in 0..count {
        let j = i + rng.below(len - i);
        order.swap(i, j);
    }
    order.truncate(count);
    order
}

/// True for the games that go to the validation set (one in `every`).
pub fn is_validation(game: u64, every: u64) -> bool {
    mix(game).is_multiple_of(every)
}

/// Writes `value` to `path` atomically (temporary file, then rename).
pub fn write_atomically(path: &Path, contents: impl AsRef<[u8]>) -> Result<(), String> {
    let tmp = path.with_extension("tmp");
    let mut file = std::fs::File::create(&tmp).map_err(|e| format!("{}: {e}", tmp.display()))?;
    file.write_all(contents.as_ref()).and_then(|()| file.sync_all()).map_err(|e| format!("{}: {e}", tmp.display()))?;
    std::fs::rename(&tmp, path).map_err(|e| format!("{}: {e}", path.display()))
}

/// Reads the JSON file `path`, if it exists.
pub fn read_json<T: for<'de> Deserialize<'de>>(path: &Path) -> Result<Option<T>, String> {
    if !path.exists() {
        return Ok(None);
    }
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
    serde_json::from_str(&text).map(Some).map_err(|e| format!("{}:{}: {e}", path.display(), e.line()))
}

/// Writes `value` as JSON to `path` through a temporary file and a rename.
pub fn write_json<T: Serialize>(path: &Path, value: &T) -> Result<(), String> {
    let text = serde_json::to_string_pretty(value).map_err(|e| format!("{}: {e}", path.display()))?;
    write_atomically(path, text + "\n")
}

/// Checks `settings` against the settings file `path` of a resumable run
/// (`what`: "a loop", ..), or writes it with the command line: a rerun on
/// the same folder must decide the same way.
pub fn check_or_write_settings<T>(path: &Path, settings: &T, what: &str) -> Result<(), String>
where
    T: Serialize + for<'de> Deserialize<'de> + PartialEq + Clone,
{
    #[derive(Serialize, Deserialize)]
    struct SettingsFile<T> {
        command: Vec<String>,
        settings: T,
    }
    match read_json::<SettingsFile<T>>(path)? {
        Some(old) if old.settings != *settings => {
            let (a, b) = (serde_json::to_value(&old.settings), serde_json::to_value(settings));
            let (a, b) = (a.map_err(|e| e.to_string())?, b.map_err(|e| e.to_string())?);
            let field = a
                .as_object()
                .and_then(|a| a.iter().find(|(k, v)| b.get(k.as_str()) != Some(v)).map(|(k, _)| k.clone()))
                .unwrap_or_default();
            Err(format!(
                "{}: this folder holds {what} with other settings (`{field}` differs); use another --out or the same options",
                path.display()
            ))
        }
        Some(_) => Ok(()),
        None => write_json(path, &SettingsFile { command: std::env::args().collect(), settings: settings.clone() }),
    }
}

/// Saves the checkpoint.
pub fn save_checkpoint(path: &Path, state: &TuneState) -> Result<(), String> {
    let json = serde_json::to_string_pretty(state).map_err(|e| e.to_string())?;
    write_atomically(path, json)
}

/// Loads a checkpoint written by [`save_checkpoint`].
pub fn load_checkpoint(path: &Path) -> Result<TuneState, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
    serde_json::from_str(&text).map_err(|e| format!("{}:{}: not a tuner checkpoint: {e}", path.display(), e.line()))
}

/// The tuning log as CSV: `pass,train_loss,validation_loss,changed,seconds`.
pub fn log_csv(log: &[PassLog]) -> String {
    let mut out = String::from("pass,train_loss,validation_loss,changed,seconds\n");
    for row in log {
        out += &format!(
            "{},{:.9},{:.9},{},{:.3}\n",
            row.pass, row.train_loss, row.validation_loss, row.changed, row.seconds
        );
    }
    out
}

/// Runs passes until the search stops, checkpointing after each pass.
pub fn run_passes(
    search: &mut LocalSearch<'_>,
    patience: usize,
    max_passes: usize,
    checkpoint: &Path,
    log_path: &Path,
) -> Result<(), String> {
    let weights = search.state.weights.len() as u64;
    let interactive = std::io::stderr().is_terminal();
    while !search.state.finished && search.state.log.len() <= max_passes {
        let pass = search.state.log.len();
        let bar = if interactive { ProgressBar::new(weights) } else { ProgressBar::hidden() };
        bar.set_style(
            ProgressStyle::with_template("pass {msg} [{bar:30}] {pos}/{len} weights, ETA {eta}")
                .expect("valid template")
                .progress_chars("=> "),
        );
        bar.set_message(pass.to_string());
        let row = search.pass(patience, |w| bar.set_position(w as u64 + 1));
        bar.finish_and_clear();
        eprintln!(
            "pass {}: train {:.6}, validation {:.6}, {} weights changed, {:.1} s",
            row.pass, row.train_loss, row.validation_loss, row.changed, row.seconds
        );
        save_checkpoint(checkpoint, &search.state)?;
        write_atomically(log_path, log_csv(&search.state.log))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeded_draws_are_distinct_indices_fixed_by_the_seed() {
        let draw = seeded_draw(50, 20, 9);
        let mut sorted = draw.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!((draw.len(), sorted.len()), (20, 20));
        assert!(draw.iter().all(|&i| i < 50));
        assert_eq!(draw, seeded_draw(50, 20, 9));
        assert_ne!(draw, seeded_draw(50, 20, 10));
        // The first draws of a longer sample are the shorter sample.
        assert_eq!(seeded_draw(50, 30, 9)[..20], draw[..]);
        let mut all = seeded_draw(7, 99, 1);
        all.sort_unstable();
        assert_eq!(all, (0..7).collect::<Vec<_>>());
    }

    #[test]
    fn targets_parse() {
        assert_eq!("result".parse(), Ok(Target::Result));
        assert_eq!("blend=0.25".parse(), Ok(Target::Blend(0.25)));
        assert_eq!("label".parse(), Ok(Target::Label));
        assert_eq!("score=0.0003".parse(), Ok(Target::Score(0.0003)));
        assert_eq!(Target::Score(0.0003).fixed_k(), Some(0.0003));
        assert_eq!(Target::Label.fixed_k(), None);
        for bad in ["blend=2", "score=0", "score=-1", "score=x"] {
            assert!(bad.parse::<Target>().is_err(), "{bad}");
        }
        assert!("wins".parse::<Target>().is_err());
    }
}

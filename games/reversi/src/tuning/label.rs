//! Deeper labels for training positions (`tuner label`): the rows of a
//! `positions.csv` whose position is unfinished and within an empties range,
//! optionally a seeded sample of them, each scored by a reference search
//! (full width to a depth, exact at or below a number of empties; see
//! [`eval_error::score`]) and written with the input's columns plus
//! [`LABEL`] (discs, from the side to move). `tune --target label`
//! trains on that column.
//!
//! Rows are appended and flushed chunk by chunk, in input order; rerunning
//! the same command on the same output continues after its last row (the
//! selection is seeded, so a rerun selects the same rows; the file's rows
//! are checked against it). A run holds an OS lock on its output file, so
//! two runs never write one file.

use super::eval_error;
use super::reversi::unflatten;
use crate::{CompiledGeometry, Geometry, Position, ReversiEngine, Variant};
use engine_core::game::Game;
use std::path::{Path, PathBuf};
use tuner::run::columns::{BOARD, LABEL};
use tuner::run::seeded_draw;

/// Transposition table of each labelling engine, in MiB (cleared before
/// every position: a small table keeps that cheap).
const LABEL_TT_MB: usize = 16;

/// Positions each worker searches between two flushes of the output.
const ROWS_PER_WORKER_AND_CHUNK: usize = 16;

/// What `label` selects and how it scores.
#[derive(Clone, Debug)]
pub struct LabelOptions {
    /// Depth of the reference search (full width).
    pub depth: u32,
    /// At or below this many empties the label is the exact score.
    pub exact_empties: u32,
    /// Only positions with at least this many empties.
    pub min_empties: u32,
    /// Only positions with at most this many empties.
    pub max_empties: u32,
    /// Label a seeded sample of this many of the selected rows (all when
    /// fewer or unset).
    pub sample: Option<usize>,
    /// Seed of the sample.
    pub seed: u64,
    /// Weights of the reference search (default: compiled in).
    pub weights: Option<PathBuf>,
    /// Worker threads, each with its own engine.
    pub threads: usize,
}

impl Default for LabelOptions {
    /// `tuner label`'s defaults: depth 8, exact at 14 empties or fewer,
    /// every unfinished position, the compiled-in weights, one thread.
    fn default() -> Self {
        LabelOptions {
            depth: 8,
            exact_empties: 14,
            min_empties: 0,
            max_empties: u32::MAX,
            sample: None,
            seed: 1,
            weights: None,
            threads: 1,
        }
    }
}

/// What a `label` run did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LabelSummary {
    /// Rows selected from the input.
    pub selected: usize,
    /// Of them, already in the output before this run.
    pub resumed: usize,
    /// Of them, scored exactly.
    pub exact: usize,
}

/// A selected input row.
struct Row<G: Geometry> {
    record: csv::StringRecord,
    position: Position<G>,
}

/// Labels the selected rows of `input` into `out` (see the module docs);
/// `progress(done, total)` is told after every chunk. Errors name the file
/// and line.
pub fn label<G: CompiledGeometry>(
    variant: Variant,
    input: &Path,
    out: &Path,
    options: &LabelOptions,
    mut progress: impl FnMut(usize, usize),
) -> Result<LabelSummary, String> {
    let (header, rows) = select::<G>(variant, input, options)?;
    let mut out_header = header.clone();
    out_header.push_field(LABEL);
    let shown = out.display();
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(out)
        .map_err(|e| format!("{shown}: cannot write: {e}"))?;
    // Held until the run ends or dies: a second run on the file stops here.
    file.try_lock().map_err(|_| format!("{shown}: another run is writing this file"))?;
    let resumed = resume_point(out, &out_header, &rows)?;
    let fresh = file.metadata().map_err(|e| format!("{shown}: {e}"))?.len() == 0;
    let mut writer = csv::WriterBuilder::new().has_headers(false).from_writer(file);
    if fresh {
        writer.write_record(&out_header).map_err(|e| format!("{shown}: {e}"))?;
    }
    let threads = options.threads.max(1);
    let mut engines = (0..threads)
        .map(|_| eval_error::reference_engine::<G>(variant, options.weights.clone(), LABEL_TT_MB))
        .collect::<Result<Vec<ReversiEngine<G>>, String>>()?;
    let (mut exact, mut done, total) = (0, resumed, rows.len());
    for rows in rows[resumed..].chunks(threads * ROWS_PER_WORKER_AND_CHUNK) {
        let scored = score_chunk(&mut engines, rows, options);
        for (row, (label, solved)) in rows.iter().zip(scored) {
            let mut record = row.record.clone();
            record.push_field(&format_label(label));
            writer.write_record(&record).map_err(|e| format!("{shown}: {e}"))?;
            exact += usize::from(solved);
        }
        writer.flush().map_err(|e| format!("{shown}: cannot write: {e}"))?;
        done += rows.len();
        progress(done, total);
    }
    Ok(LabelSummary { selected: total, resumed, exact })
}

/// Reads `input` and keeps the rows `options` select, in input order.
fn select<G: Geometry>(
    variant: Variant,
    input: &Path,
    options: &LabelOptions,
) -> Result<(csv::StringRecord, Vec<Row<G>>), String> {
    let shown = input.display();
    let mut reader = csv::Reader::from_path(input).map_err(|e| format!("{shown}: cannot read: {e}"))?;
    let header = reader.headers().map_err(|e| format!("{shown}:1: bad header: {e}"))?.clone();
    if header.iter().any(|h| h == LABEL) {
        return Err(format!("{shown}:1: already has a `{LABEL}` column: label the original positions.csv"));
    }
    let board =
        header.iter().position(|h| h == BOARD).ok_or_else(|| format!("{shown}:1: expected a `{BOARD}` column"))?;
    let mut rows = Vec::new();
    for record in reader.records() {
        let record = record.map_err(|e| format!("{shown}: {e}"))?;
        let line = record.position().map_or(0, |p| p.line());
        let position = Position::<G>::parse(&unflatten(record.get(board).unwrap_or("")), variant.scoring())
            .map_err(|e| format!("{shown}:{line}: board field {e}"))?;
        let empties = position.empty_count();
        if !position.is_terminal() && (options.min_empties..=options.max_empties).contains(&empties) {
            rows.push(Row { record, position });
        }
    }
    if let Some(count) = options.sample.filter(|&n| n < rows.len()) {
        // The drawn rows, in input order.
        let mut keep = vec![false; rows.len()];
        for i in seeded_draw(rows.len(), count, options.seed) {
            keep[i] = true;
        }
        let mut k = keep.iter();
        rows.retain(|_| *k.next().expect("one flag a row"));
    }
    Ok((header, rows))
}

/// The number of rows `out` already holds, after checking that they are the
/// first of `rows` under `header` (0 when `out` does not exist or is empty).
fn resume_point<G: Geometry>(out: &Path, header: &csv::StringRecord, rows: &[Row<G>]) -> Result<usize, String> {
    let shown = out.display();
    if !out.exists() {
        return Ok(0);
    }
    drop_partial_line(out)?;
    if std::fs::metadata(out).map_err(|e| format!("{shown}: {e}"))?.len() == 0 {
        return Ok(0);
    }
    let mut reader = csv::Reader::from_path(out).map_err(|e| format!("{shown}: cannot read: {e}"))?;
    let found = reader.headers().map_err(|e| format!("{shown}:1: bad header: {e}"))?.clone();
    if &found != header {
        return Err(format!("{shown}:1: columns differ from the input's plus `{LABEL}`: use another --out"));
    }
    let label = header.len() - 1;
    let mut done = 0;
    for record in reader.records() {
        let record = record.map_err(|e| format!("{shown}: {e}"))?;
        let line = record.position().map_or(0, |p| p.line());
        let same = rows.get(done).is_some_and(|row| {
            record.len() == header.len() && row.record.iter().zip(record.iter()).take(label).all(|(a, b)| a == b)
        });
        if !same || record[label].parse::<f64>().is_err() {
            return Err(format!(
                "{shown}:{line}: expected row {} of this selection with a label: the file comes from another command",
                done + 1
            ));
        }
        done += 1;
    }
    Ok(done)
}

/// Cuts a last line that a kill left without its newline (rows are written
/// whole, so such a line is the start of a row that never finished).
fn drop_partial_line(out: &Path) -> Result<(), String> {
    let shown = out.display();
    let bytes = std::fs::read(out).map_err(|e| format!("{shown}: cannot read: {e}"))?;
    if bytes.last() == Some(&b'\n') {
        return Ok(());
    }
    let keep = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let file = std::fs::OpenOptions::new().write(true).open(out).map_err(|e| format!("{shown}: cannot write: {e}"))?;
    file.set_len(keep as u64).map_err(|e| format!("{shown}: cannot write: {e}"))
}

/// Scores `rows` on the workers' engines (row `i` on worker `i % workers`):
/// (label in discs, exact) per row, in order.
fn score_chunk<G: CompiledGeometry>(
    engines: &mut [ReversiEngine<G>],
    rows: &[Row<G>],
    options: &LabelOptions,
) -> Vec<(f64, bool)> {
    let workers = engines.len();
    let mut scored = vec![(0.0, false); rows.len()];
    std::thread::scope(|scope| {
        let handles: Vec<_> = engines
            .iter_mut()
            .enumerate()
            .map(|(w, engine)| {
                scope.spawn(move || {
                    let mine: Vec<Position<G>> = rows.iter().skip(w).step_by(workers).map(|r| r.position).collect();
                    eval_error::score(engine, mine, options.depth, options.exact_empties, |_| {})
                })
            })
            .collect();
        for (w, handle) in handles.into_iter().enumerate() {
            let results = handle.join().expect("a labelling worker panicked");
            for (k, s) in results.into_iter().enumerate() {
                scored[w + k * workers] = (s.reference, s.exact);
            }
        }
    });
    scored
}

/// A label as written: discs with two decimals (the evaluation's resolution).
fn format_label(discs: f64) -> String {
    format!("{discs:.2}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Size4;
    use crate::matches::ReversiProtocol;
    use crate::tuning::testdata::{negamax, tiny_positions};
    use selfplay::protocol::GameProtocol;

    const VARIANT: Variant = Variant::Tiny4;

    /// A positions.csv of `count` random 4x4 positions (one game each) and
    /// the positions.
    fn input(dir: &Path, count: usize) -> (PathBuf, Vec<Position<Size4>>) {
        let protocol = ReversiProtocol::<Size4>::new(VARIANT);
        let positions = tiny_positions(count, 11);
        let mut text = String::from("game,ply,board,result,disc_diff\n");
        for (g, pos) in positions.iter().enumerate() {
            text += &format!("{g},0,{},0.5,0\n", protocol.flatten(pos));
        }
        let path = dir.join("positions.csv");
        std::fs::write(&path, text).unwrap();
        (path, positions)
    }

    fn options(threads: usize) -> LabelOptions {
        LabelOptions {
            depth: 2,
            exact_empties: 16,
            min_empties: 0,
            max_empties: 16,
            sample: None,
            seed: 3,
            weights: None,
            threads,
        }
    }

    fn labels(path: &Path) -> Vec<(String, f64)> {
        let mut reader = csv::Reader::from_path(path).unwrap();
        reader.records().map(|r| r.unwrap()).map(|r| (r[2].to_string(), r[5].parse().unwrap())).collect()
    }

    #[test]
    fn exact_labels_are_the_game_values_in_input_order() {
        let dir = tempfile_dir("exact");
        let (path, positions) = input(&dir, 50);
        let out = dir.join("labelled.csv");
        let summary = label::<Size4>(VARIANT, &path, &out, &options(3), |_, _| {}).unwrap();
        assert_eq!(summary, LabelSummary { selected: 50, resumed: 0, exact: 50 });
        let protocol = ReversiProtocol::<Size4>::new(VARIANT);
        let found = labels(&out);
        assert_eq!(found.len(), positions.len());
        for ((board, label), pos) in found.iter().zip(&positions) {
            assert_eq!(board, &protocol.flatten(pos));
            assert_eq!(*label, f64::from(negamax(pos)), "{pos}");
        }
        // The empties range keeps only the rows within it.
        let narrow = dir.join("narrow.csv");
        let opts = LabelOptions { min_empties: 10, max_empties: 11, ..options(1) };
        let kept = label::<Size4>(VARIANT, &path, &narrow, &opts, |_, _| {}).unwrap();
        let expected = positions.iter().filter(|p| (10..=11).contains(&p.empty_count())).count();
        assert_eq!(kept.selected, expected);
        assert!(expected > 0 && expected < positions.len());
    }

    #[test]
    fn a_rerun_after_a_kill_gives_the_file_of_an_uninterrupted_run() {
        let dir = tempfile_dir("resume");
        let (path, _) = input(&dir, 120);
        let opts = LabelOptions { sample: Some(70), ..options(2) };
        let straight = dir.join("straight.csv");
        label::<Size4>(VARIANT, &path, &straight, &opts, |_, _| {}).unwrap();
        let whole = std::fs::read_to_string(&straight).unwrap();
        assert_eq!(whole.lines().count(), 71);
        // Killed after the header and 23 rows, in the middle of the 24th.
        let killed = dir.join("killed.csv");
        let mut cut: String = whole.lines().take(24).map(|l| format!("{l}\n")).collect();
        cut += &whole.lines().nth(24).unwrap()[..10];
        std::fs::write(&killed, cut).unwrap();
        let summary = label::<Size4>(VARIANT, &path, &killed, &opts, |_, _| {}).unwrap();
        assert_eq!((summary.selected, summary.resumed), (70, 23));
        assert_eq!(std::fs::read_to_string(&killed).unwrap(), whole);
        // A second run on a file in use stops at once.
        let held = std::fs::OpenOptions::new().append(true).open(&killed).unwrap();
        held.lock().unwrap();
        let e = label::<Size4>(VARIANT, &path, &killed, &opts, |_, _| {}).unwrap_err();
        assert_eq!(e, format!("{}: another run is writing this file", killed.display()));
        drop(held);
        // Another selection refuses the file, naming its line.
        let other = LabelOptions { seed: 4, ..opts };
        let e = label::<Size4>(VARIANT, &path, &killed, &other, |_, _| {}).unwrap_err();
        assert!(e.starts_with(&format!("{}:", killed.display())) && e.contains("another command"), "{e}");
    }

    #[test]
    fn bad_input_names_the_file_and_line() {
        let dir = tempfile_dir("bad");
        let path = dir.join("positions.csv");
        std::fs::write(&path, "game,board\n0,X/..../.XO./.OX./....\n1,X/...\n").unwrap();
        let e = label::<Size4>(VARIANT, &path, &dir.join("out.csv"), &options(1), |_, _| {}).unwrap_err();
        assert!(e.starts_with(&format!("{}:3: board field", path.display())), "{e}");
        std::fs::write(&path, "game,cells\n0,X\n").unwrap();
        let e = label::<Size4>(VARIANT, &path, &dir.join("out.csv"), &options(1), |_, _| {}).unwrap_err();
        assert_eq!(e, format!("{}:1: expected a `board` column", path.display()));
    }

    /// A fresh folder in the temporary directory for one test, removed
    /// when the test is done with it.
    struct TempDir(PathBuf);

    impl std::ops::Deref for TempDir {
        type Target = Path;

        fn deref(&self) -> &Path {
            &self.0
        }
    }

    impl Drop for TempDir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    fn tempfile_dir(name: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("tuner-label-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }
}

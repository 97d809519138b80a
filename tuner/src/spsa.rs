//! `tuner spsa`: tunes search parameters of the registry (the core's and a
//! game's, set by name as `engine:NAME=VALUE` takes them) by simultaneous
//! perturbation stochastic approximation, in the form OpenBench and
//! fishtest use for chess engines.
//!
//! Each parameter has a start, a range, a final perturbation `c_end` and a
//! final learning rate `r_end`. Iteration `k` draws a sign `Δᵢ = ±1` per
//! parameter, plays colour-swapped pairs of `θ + cₖΔ` against `θ - cₖΔ`
//! from varied openings, and moves `θᵢ` by `rₖ cₖ (W - L) Δᵢ`, `W - L`
//! being the first side's wins less its losses. The gains shrink as
//! Spall's standard sequences, `cₖ = c / (k + 1)^γ` and `aₖ = a / (A + k +
//! 1)^α` with `rₖ = aₖ / cₖ²`, scaled so that the last iteration has
//! `c_end` and `r_end`.
//!
//! In the run's folder: `spsa.json` (the settings; a rerun must match
//! them), `spsa.csv` (one row per finished iteration, appended and flushed:
//! the games, the result and every parameter after the step), `iter-NNNNN/`
//! (each iteration's match, resumed game by game), `tuned.txt` (the result
//! as `--param` flags and as rows for the registry) and `verify/` (the
//! proof match of the tuned values against the start). The signs and the
//! openings of iteration `k` come from the seed and `k` alone and the
//! values are read back exactly, so a killed and rerun tuning follows the
//! same trajectory as an uninterrupted one whenever the games themselves
//! are reproducible (node or depth budgets).

use engine_core::mix::SplitMix;
use serde::{Deserialize, Serialize};
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::Path;

/// The exponent of the learning-rate sequence `aₖ` (Spall's value).
pub const ALPHA: f64 = 0.602;
/// The exponent of the perturbation sequence `cₖ` (Spall's value).
pub const GAMMA: f64 = 0.101;
/// The stability constant `A` of `aₖ` as a share of the iterations.
pub const STABILITY_SHARE: f64 = 0.1;
/// The record of finished iterations in the run's folder (the name the
/// report looks for).
pub const SPSA_FILE: &str = selfplay::report::SPSA_FILE;
/// The settings of the run in its folder.
pub const SETTINGS_FILE: &str = selfplay::report::SPSA_SETTINGS_FILE;
/// The proof match's folder in the run's folder.
pub const VERIFY_DIR: &str = "verify";
/// The tuned values as flags and registry rows.
pub const TUNED_FILE: &str = "tuned.txt";
/// The columns of [`SPSA_FILE`] before the parameters'.
const FIXED_COLUMNS: [&str; 6] = ["iteration", "games", "wins", "draws", "losses", "cpu_seconds"];

/// One parameter under tuning.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SpsaParam {
    /// Its registry name (`search.lmr_base`, `endgame.min_empties`, ..).
    pub name: String,
    /// True when the engine is given whole numbers (θ± are rounded).
    pub integer: bool,
    /// Its value at iteration 0.
    pub start: f64,
    /// The smallest value tried.
    pub min: f64,
    /// The largest value tried.
    pub max: f64,
    /// The perturbation `cₖ` at the last iteration.
    pub c_end: f64,
    /// The learning rate `rₖ` at the last iteration.
    pub r_end: f64,
}

impl SpsaParam {
    /// The value the engine is given for `x`: within the range, rounded
    /// for a whole-number parameter.
    pub fn playable(&self, x: f64) -> f64 {
        let x = x.clamp(self.min, self.max);
        if self.integer { x.round() } else { x }
    }
}

/// Reads a parameters file: one parameter a line, `NAME, int|float,
/// START, MIN, MAX, C_END, R_END` (OpenBench's form); `#` starts a
/// comment. An error names the file, the line and what was expected.
pub fn read_params(path: &Path) -> Result<Vec<SpsaParam>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
    parse_params(&text).map_err(|(line, e)| format!("{}: line {line}: {e}", path.display()))
}

/// [`read_params`] on text; an error carries its line number.
pub fn parse_params(text: &str) -> Result<Vec<SpsaParam>, (usize, String)> {
    const EXPECTED: &str = "expected NAME, int|float, START, MIN, MAX, C_END, R_END";
    let mut params: Vec<SpsaParam> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let fail = |what: String| (i + 1, what);
        let fields: Vec<&str> = line.split(',').map(str::trim).collect();
        let [name, kind, numbers @ ..] = fields.as_slice() else {
            return Err(fail(EXPECTED.into()));
        };
        if numbers.len() != 5 {
            return Err(fail(format!("{} fields: {EXPECTED}", fields.len())));
        }
        let integer = match *kind {
            "int" => true,
            "float" => false,
            other => return Err(fail(format!("`{other}`: expected int or float"))),
        };
        let mut v = [0.0; 5];
        for (slot, text) in v.iter_mut().zip(numbers) {
            *slot = text
                .parse::<f64>()
                .ok()
                .filter(|x| x.is_finite())
                .ok_or_else(|| fail(format!("`{text}`: expected a number ({EXPECTED})")))?;
        }
        let [start, min, max, c_end, r_end] = v;
        if name.is_empty() || name.contains(['=', ' ']) {
            return Err(fail(format!("`{name}`: expected a parameter name")));
        }
        if !(min <= start && start <= max && min < max) {
            return Err(fail(format!("expected MIN <= START <= MAX and MIN < MAX, got {min}, {start}, {max}")));
        }
        if !(c_end > 0.0 && r_end > 0.0) {
            return Err(fail(format!("expected C_END and R_END above 0, got {c_end}, {r_end}")));
        }
        if params.iter().any(|p| p.name == *name) {
            return Err(fail(format!("`{name}` is listed twice")));
        }
        params.push(SpsaParam { name: name.to_string(), integer, start, min, max, c_end, r_end });
    }
    if params.is_empty() {
        return Err((text.lines().count().max(1), format!("no parameter: {EXPECTED}")));
    }
    Ok(params)
}

/// The gains of one parameter at one iteration.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Gains {
    /// The perturbation `cₖ`.
    pub c: f64,
    /// The learning rate `rₖ = aₖ / cₖ²`.
    pub r: f64,
}

/// The SPSA schedule of a set of parameters over a number of iterations.
#[derive(Clone, Debug, PartialEq)]
pub struct Spsa {
    /// The parameters.
    pub params: Vec<SpsaParam>,
    /// Iterations of the whole run (the gains reach `c_end`, `r_end` at
    /// the last).
    pub iterations: u64,
    /// Seed of the signs (the openings have their own streams).
    pub seed: u64,
}

/// Stream of [`SplitMix::stream`] numbers where iteration `k`'s signs are
/// drawn (`SIGN_STREAMS + k`), apart from the openings' seeds.
const SIGN_STREAMS: u64 = 1 << 40;

impl Spsa {
    /// The gains of parameter `p` at iteration `k` (from 0).
    pub fn gains(&self, p: &SpsaParam, k: u64) -> Gains {
        let n = self.iterations as f64;
        let stability = STABILITY_SHARE * n;
        let c0 = p.c_end * n.powf(GAMMA);
        let a0 = p.r_end * p.c_end * p.c_end * (stability + n).powf(ALPHA);
        let c = c0 / (k as f64 + 1.0).powf(GAMMA);
        let a = a0 / (stability + k as f64 + 1.0).powf(ALPHA);
        Gains { c, r: a / (c * c) }
    }

    /// The signs `Δᵢ` of iteration `k`: +1 or -1 per parameter.
    pub fn signs(&self, k: u64) -> Vec<f64> {
        let mut rng = SplitMix::stream(self.seed, SIGN_STREAMS + k);
        self.params.iter().map(|_| if rng.next_u64() >> 63 == 0 { 1.0 } else { -1.0 }).collect()
    }

    /// The values played at iteration `k` from `theta`: `(θ + cₖΔ, θ - cₖΔ)`,
    /// each as the engine is given it.
    pub fn perturbed(&self, theta: &[f64], k: u64) -> (Vec<f64>, Vec<f64>) {
        let signs = self.signs(k);
        let side = |sign: f64| {
            self.params
                .iter()
                .zip(theta)
                .zip(&signs)
                .map(|((p, &t), &d)| p.playable(t + sign * self.gains(p, k).c * d))
                .collect()
        };
        (side(1.0), side(-1.0))
    }

    /// θ after iteration `k`, whose match gave the first side (`θ + cₖΔ`)
    /// `result` = wins less losses.
    pub fn step(&self, theta: &[f64], k: u64, result: f64) -> Vec<f64> {
        let signs = self.signs(k);
        self.params
            .iter()
            .zip(theta)
            .zip(&signs)
            .map(|((p, &t), &d)| {
                let g = self.gains(p, k);
                (t + g.r * g.c * result * d).clamp(p.min, p.max)
            })
            .collect()
    }

    /// The start values.
    pub fn start(&self) -> Vec<f64> {
        self.params.iter().map(|p| p.start).collect()
    }
}

/// What one iteration's match gave the first side.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct IterationResult {
    /// Its wins.
    pub wins: u64,
    /// The draws.
    pub draws: u64,
    /// Its losses.
    pub losses: u64,
    /// CPU seconds of both sides.
    pub cpu_seconds: f64,
}

impl IterationResult {
    /// Games played.
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// Wins less losses.
    pub fn result(&self) -> f64 {
        self.wins as f64 - self.losses as f64
    }
}

/// One row of [`SPSA_FILE`]: an iteration and θ after it.
#[derive(Clone, Debug, PartialEq)]
pub struct SpsaRow {
    /// The iteration (from 0).
    pub iteration: u64,
    /// Its match.
    pub result: IterationResult,
    /// Every parameter after the step, in the file's order.
    pub theta: Vec<f64>,
}

/// The header line of [`SPSA_FILE`] for `params`.
pub fn header(params: &[SpsaParam]) -> String {
    FIXED_COLUMNS.iter().copied().chain(params.iter().map(|p| p.name.as_str())).collect::<Vec<_>>().join(",")
}

/// The line of `row` in [`SPSA_FILE`] (values written exactly: Rust prints
/// the shortest text that reads back as the same `f64`).
pub fn row_line(row: &SpsaRow) -> String {
    let r = &row.result;
    let mut line = format!("{},{},{},{},{},{:.3}", row.iteration, r.games(), r.wins, r.draws, r.losses, r.cpu_seconds);
    for t in &row.theta {
        let _ = write!(line, ",{t}");
    }
    line
}

/// Reads the finished iterations of `path` (none when it does not exist),
/// checking its header against `params` and that iterations count up from 0.
pub fn read_rows(path: &Path, params: &[SpsaParam]) -> Result<Vec<SpsaRow>, String> {
    let Ok(text) = std::fs::read_to_string(path) else {
        return Ok(Vec::new());
    };
    let shown = path.display();
    let mut lines = text.lines();
    let expected = header(params);
    match lines.next() {
        Some(h) if h == expected => {}
        Some(h) => return Err(format!("{shown}: line 1: expected the header `{expected}`, found `{h}`")),
        None => return Ok(Vec::new()),
    }
    let mut rows = Vec::new();
    for (i, line) in lines.enumerate() {
        let fail = |what: &str| format!("{shown}: line {}: {what}", i + 2);
        let fields: Vec<&str> = line.split(',').collect();
        if fields.len() != FIXED_COLUMNS.len() + params.len() {
            return Err(fail(&format!("expected {} fields", FIXED_COLUMNS.len() + params.len())));
        }
        let whole =
            |j: usize| fields[j].parse::<u64>().map_err(|_| fail(&format!("`{}`: expected a count", fields[j])));
        let number = |j: usize| {
            fields[j]
                .parse::<f64>()
                .ok()
                .filter(|x| x.is_finite())
                .ok_or_else(|| fail(&format!("`{}`: expected a number", fields[j])))
        };
        let iteration = whole(0)?;
        if iteration != rows.len() as u64 {
            return Err(fail(&format!("iteration {iteration}: expected {}", rows.len())));
        }
        let result = IterationResult { wins: whole(2)?, draws: whole(3)?, losses: whole(4)?, cpu_seconds: number(5)? };
        let theta = (FIXED_COLUMNS.len()..fields.len()).map(number).collect::<Result<_, _>>()?;
        rows.push(SpsaRow { iteration, result, theta });
    }
    Ok(rows)
}

/// Appends `row` to `path` (writing the header first into a new file) and
/// flushes it to disk.
pub fn append_row(path: &Path, params: &[SpsaParam], row: &SpsaRow) -> Result<(), String> {
    let fresh = std::fs::metadata(path).map(|m| m.len() == 0).unwrap_or(true);
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(|e| format!("{}: cannot open: {e}", path.display()))?;
    let mut text = String::new();
    if fresh {
        text.push_str(&header(params));
        text.push('\n');
    }
    text.push_str(&row_line(row));
    text.push('\n');
    file.write_all(text.as_bytes()).and_then(|()| file.sync_data()).map_err(|e| format!("{}: {e}", path.display()))
}

/// Runs or resumes the iterations of `spsa` recorded in `csv`: each one
/// not yet in the file is played by `play(k, plus, minus)` and appended.
/// `observe(row)` sees every finished iteration, resumed ones first.
/// Returns every row.
pub fn run(
    spsa: &Spsa,
    csv: &Path,
    mut play: impl FnMut(u64, &[f64], &[f64]) -> Result<IterationResult, String>,
    mut observe: impl FnMut(&SpsaRow),
) -> Result<Vec<SpsaRow>, String> {
    let mut rows = read_rows(csv, &spsa.params)?;
    if rows.len() as u64 > spsa.iterations {
        return Err(format!(
            "{}: {} iterations, more than the {} asked for",
            csv.display(),
            rows.len(),
            spsa.iterations
        ));
    }
    rows.iter().for_each(&mut observe);
    let mut theta = rows.last().map_or_else(|| spsa.start(), |r| r.theta.clone());
    for k in rows.len() as u64..spsa.iterations {
        let (plus, minus) = spsa.perturbed(&theta, k);
        let result = play(k, &plus, &minus)?;
        theta = spsa.step(&theta, k, result.result());
        let row = SpsaRow { iteration: k, result, theta: theta.clone() };
        append_row(csv, &spsa.params, &row)?;
        observe(&row);
        rows.push(row);
    }
    Ok(rows)
}

/// The tuned values as the engines take them: `--param NAME=VALUE` flags
/// (for the competition programs and `analyze`) and `NAME=VALUE` player
/// options (for `selfplay`'s `engine:` specs), rounded as played.
pub fn flags(params: &[SpsaParam], theta: &[f64]) -> (String, String) {
    let pairs: Vec<String> = params.iter().zip(theta).map(|(p, &t)| format!("{}={}", p.name, p.playable(t))).collect();
    let flags = pairs.iter().map(|p| format!("--param {p}")).collect::<Vec<_>>().join(" ");
    (flags, pairs.join(","))
}

/// The text of [`TUNED_FILE`]: the flags, the player options, and one line
/// per parameter for the registry (its new default beside the start).
pub fn tuned_text(params: &[SpsaParam], theta: &[f64], iterations: u64) -> String {
    let (flags, options) = flags(params, theta);
    let mut text = format!("# tuner spsa: the values after {iterations} iterations\n");
    let _ = writeln!(text, "# as flags of the programs:\n{flags}");
    let _ = writeln!(text, "# as options of a selfplay engine: engine:{options}");
    let _ = writeln!(text, "# the registry's defaults to change (NAME: START -> TUNED):");
    for (p, &t) in params.iter().zip(theta) {
        let _ = writeln!(text, "{}: {} -> {}", p.name, p.start, p.playable(t));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::RngExt;

    fn param(name: &str, start: f64, min: f64, max: f64, c_end: f64, r_end: f64) -> SpsaParam {
        SpsaParam { name: name.into(), integer: false, start, min, max, c_end, r_end }
    }

    #[test]
    fn the_gains_end_at_c_end_and_r_end_and_shrink_before() {
        let p = param("x", 0.0, -10.0, 10.0, 0.5, 0.002);
        let spsa = Spsa { params: vec![p.clone()], iterations: 200, seed: 1 };
        let last = spsa.gains(&p, 199);
        assert!((last.c - 0.5).abs() < 1e-12 && (last.r - 0.002).abs() < 1e-12, "{last:?}");
        let first = spsa.gains(&p, 0);
        // c shrinks as k^-0.101 over the run: 200^0.101 = 1.708.
        assert!((first.c / last.c - 200f64.powf(GAMMA)).abs() < 1e-9);
        // a shrinks from (A + 1)^-alpha to (A + N)^-alpha, A = 20.
        let a = |g: Gains| g.r * g.c * g.c;
        assert!((a(first) / a(last) - (220f64 / 21.0).powf(ALPHA)).abs() < 1e-9);
    }

    #[test]
    fn signs_are_fixed_by_seed_and_iteration_and_balanced() {
        let params = (0..8).map(|i| param(&format!("p{i}"), 0.0, -1.0, 1.0, 0.1, 0.1)).collect();
        let spsa = Spsa { params, iterations: 10, seed: 7 };
        assert_eq!(spsa.signs(3), spsa.signs(3));
        assert_ne!(spsa.signs(3), spsa.signs(4));
        let plus: usize = (0..500).map(|k| spsa.signs(k).iter().filter(|&&s| s > 0.0).count()).sum();
        // 4,000 fair signs: within 4 standard deviations (sd = 31.6) of 2,000.
        assert!((plus as i64 - 2000).abs() < 127, "{plus}");
    }

    #[test]
    fn whole_number_parameters_are_played_rounded_and_within_range() {
        let p = SpsaParam { integer: true, ..param("n", 3.0, 1.0, 6.0, 1.0, 0.01) };
        assert_eq!([p.playable(3.4), p.playable(3.6), p.playable(0.2), p.playable(9.0)], [3.0, 4.0, 1.0, 6.0]);
    }

    /// The expected score of a pair's side at `x` against one at `y`
    /// under an objective whose Elo falls quadratically away from `best`.
    fn first_wins(x: &[f64], y: &[f64], best: &[f64], rng: &mut SplitMix) -> (u64, u64, u64) {
        let elo = |v: &[f64]| -v.iter().zip(best).map(|(a, b)| 40.0 * (a - b) * (a - b)).sum::<f64>();
        let p = 1.0 / (1.0 + 10f64.powf((elo(y) - elo(x)) / 400.0));
        let (mut w, mut l) = (0, 0);
        for _ in 0..2 {
            if rng.random::<f64>() < p {
                w += 1;
            } else {
                l += 1;
            }
        }
        (w, 0, l)
    }

    #[test]
    fn a_synthetic_objective_is_found_within_the_tolerance() {
        // Two parameters whose best values (1.5 and -2) are known by
        // construction: Elo -40 (x - best)^2 each. From 0 and 0, with 16
        // pairs an iteration, 400 iterations end within 0.5 of both.
        let best = [1.5, -2.0];
        let params = vec![param("a", 0.0, -5.0, 5.0, 0.5, 0.002), param("b", 0.0, -5.0, 5.0, 0.5, 0.002)];
        let spsa = Spsa { params, iterations: 400, seed: 3 };
        let dir = selfplay::checks::temp_dir("spsa", "synthetic");
        let csv = dir.join(SPSA_FILE);
        let mut rng = SplitMix::stream(9, 0);
        let rows = run(
            &spsa,
            &csv,
            |_, plus, minus| {
                let mut r = IterationResult::default();
                for _ in 0..16 {
                    let (w, d, l) = first_wins(plus, minus, &best, &mut rng);
                    (r.wins, r.draws, r.losses) = (r.wins + w, r.draws + d, r.losses + l);
                }
                Ok(r)
            },
            |_| {},
        )
        .unwrap();
        let theta = &rows.last().unwrap().theta;
        for (t, b) in theta.iter().zip(best) {
            assert!((t - b).abs() < 0.5, "tuned {theta:?}, best {best:?}");
        }
    }

    #[test]
    fn a_resumed_run_follows_the_same_trajectory() {
        let params = vec![
            param("a", 0.0, -5.0, 5.0, 0.5, 0.002),
            SpsaParam { integer: true, ..param("n", 4.0, 0.0, 9.0, 1.0, 0.002) },
        ];
        let spsa = Spsa { params, iterations: 30, seed: 5 };
        // A deterministic match: the result depends on the values only.
        let play = |_: u64, plus: &[f64], minus: &[f64]| {
            let better = plus[0] + plus[1] / 10.0 > minus[0] + minus[1] / 10.0;
            Ok(IterationResult { wins: if better { 3 } else { 1 }, draws: 1, losses: 1, cpu_seconds: 0.5 })
        };
        let whole = selfplay::checks::temp_dir("spsa", "whole").join(SPSA_FILE);
        let straight = run(&spsa, &whole, play, |_| {}).unwrap();
        let cut = selfplay::checks::temp_dir("spsa", "cut").join(SPSA_FILE);
        // Killed after 12 iterations: the error stops the run there.
        let err = run(&spsa, &cut, |k, p, m| if k == 12 { Err("killed".into()) } else { play(k, p, m) }, |_| {});
        assert_eq!(err.unwrap_err(), "killed");
        assert_eq!(read_rows(&cut, &spsa.params).unwrap().len(), 12);
        let mut seen = 0;
        let resumed = run(&spsa, &cut, play, |_| seen += 1).unwrap();
        assert_eq!(resumed, straight);
        assert_eq!(seen, 30);
        assert_eq!(std::fs::read_to_string(&cut).unwrap(), std::fs::read_to_string(&whole).unwrap());
    }

    #[test]
    fn bad_parameter_files_name_the_line_and_what_was_expected() {
        let good = "# name, kind, start, min, max, c_end, r_end\nsearch.x, float, 1.5, 0, 3, 0.2, 0.002\n\nsearch.n, int, 4, 1, 8, 1, 0.002 # whole\n";
        let params = parse_params(good).unwrap();
        assert_eq!(params.len(), 2);
        assert_eq!((params[1].name.as_str(), params[1].integer, params[1].max), ("search.n", true, 8.0));
        for (text, line, says) in [
            ("a, float, 1, 0, 2, 0.1\n", 1, "6 fields"),
            ("\na, real, 1, 0, 2, 0.1, 0.1\n", 2, "expected int or float"),
            ("a, float, 1, 0, x, 0.1, 0.1\n", 1, "`x`: expected a number"),
            ("a, float, 3, 0, 2, 0.1, 0.1\n", 1, "MIN <= START <= MAX"),
            ("a, float, 1, 0, 2, 0, 0.1\n", 1, "above 0"),
            ("a, float, 1, 0, 2, 0.1, 0.1\na, int, 1, 0, 2, 1, 0.1\n", 2, "listed twice"),
            ("# nothing\n", 1, "no parameter"),
        ] {
            let (at, what) = parse_params(text).unwrap_err();
            assert!(at == line && what.contains(says), "{text:?}: line {at}: {what}");
        }
    }

    #[test]
    fn a_file_with_other_parameters_or_a_gap_is_refused() {
        let params = vec![param("a", 0.0, -1.0, 1.0, 0.1, 0.1)];
        let dir = selfplay::checks::temp_dir("spsa", "refuse");
        let csv = dir.join(SPSA_FILE);
        std::fs::write(&csv, "iteration,games,wins,draws,losses,cpu_seconds,b\n").unwrap();
        assert!(read_rows(&csv, &params).unwrap_err().contains("line 1: expected the header"));
        std::fs::write(&csv, format!("{}\n0,2,1,0,1,0.1,0.5\n2,2,1,0,1,0.1,0.5\n", header(&params))).unwrap();
        assert!(read_rows(&csv, &params).unwrap_err().contains("line 3: iteration 2: expected 1"));
    }

    #[test]
    fn the_tuned_file_gives_flags_options_and_registry_lines() {
        let params = vec![
            param("search.x", 1.5, 0.0, 3.0, 0.2, 0.002),
            SpsaParam { integer: true, ..param("n", 4.0, 1.0, 8.0, 1.0, 0.1) },
        ];
        let text = tuned_text(&params, &[1.75, 5.4], 100);
        assert!(text.contains("--param search.x=1.75 --param n=5\n"), "{text}");
        assert!(text.contains("engine:search.x=1.75,n=5\n"), "{text}");
        assert!(text.contains("n: 4 -> 5\n"), "{text}");
    }
}

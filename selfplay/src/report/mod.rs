//! `selfplay report`: one self-contained HTML page of run folders, for a
//! browser left open on it while a run rewrites it (the page reloads itself
//! every [`REFRESH_SECONDS`]).
//!
//! This module owns reading the folders the programs leave behind, each
//! recognised by the files present (a folder may be several kinds at once;
//! sub-folders are not searched):
//! - a match ([`record::GAMES_FILE`], [`record::POSITIONS_FILE`],
//!   [`record::RUN_FILE`], [`record::GGF_FILE`]): per pairing W-D-L, Elo,
//!   pentanomial pairs and the SPRT, their course game by game, forfeits,
//!   the time plan (CPU seconds and depth per ply), scores per ply and a
//!   game viewer;
//! - the tuner's loop ([`LADDER_FILE`], [`LOOP_FILE`]): the ladder and its
//!   cumulative Elo;
//! - an SPSA run ([`SPSA_FILE`], [`SPSA_SETTINGS_FILE`]): each parameter's
//!   trajectory and the running result;
//!
//! and drawing them: HTML tables, SVG plots drawn here ([`plot`]), and a
//! small script of its own for the game viewer. No network, no libraries:
//! the page opens from disk anywhere. Every number on it comes from the
//! files. CSV files are read up to their last complete line, so a page
//! written while a run appends to them stays readable.
//!
//! The module names no game: a board is drawn from the flattened position
//! form alone (the side letter, then rows of cells separated by
//! [`crate::protocol::ROW_SEPARATOR`]; `X`, `B` or `b` is a dark stone, `O`,
//! `W` or `w` a light one; a field with a comma, such as captured stones,
//! is shown as text).

use crate::record::{self, GameRecord, PositionRecord};
use crate::stats::{self, Pentanomial, Sprt, Verdict, Wdl};
use engine_core::eval::SCORE_PER_POINT;
use engine_core::search::DECIDED;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

pub mod plot;

/// The report's default file name in the first folder.
pub const REPORT_FILE: &str = "report.html";
/// The page reloads itself after this many seconds.
pub const REFRESH_SECONDS: u32 = 30;
/// The tuner loop's ladder (one row per round).
pub const LADDER_FILE: &str = "ladder.csv";
/// The tuner loop's settings.
pub const LOOP_FILE: &str = "loop.json";
/// An SPSA run's iterations (one row each).
pub const SPSA_FILE: &str = "spsa.csv";
/// An SPSA run's settings.
pub const SPSA_SETTINGS_FILE: &str = "spsa.json";
/// Games offered by the game viewer: the first this many finished on the board.
pub const VIEWER_GAMES: usize = 20;
/// Games with a score-per-ply plot: the first this many of the viewer's games.
pub const SCORE_PLOT_GAMES: usize = 6;
/// Points drawn per plotted series at most (evenly sampled beyond).
pub const MAX_PLOT_POINTS: usize = 400;
/// Forfeits listed at most.
const MAX_FORFEITS: usize = 50;
/// Ladder rows listed at most (the last ones).
const MAX_LADDER_ROWS: usize = 200;
/// Settings rows listed at most.
const MAX_SETTINGS_ROWS: usize = 80;
/// Series a plot tells apart at most (one colour each).
const MAX_SERIES: usize = plot::PALETTE.len();
/// Pixel width and height of the viewer's board.
const BOARD_PIXELS: u32 = 360;
/// The leading columns of [`SPSA_FILE`], before the parameters'.
const SPSA_COLUMNS: [&str; 6] = ["iteration", "games", "wins", "draws", "losses", "cpu_seconds"];
/// Ladder columns that must hold numbers when present.
const LADDER_NUMBERS: [&str; 6] = ["round", "games", "elo", "elo_error", "llr", "cumulative_elo"];
/// The pentanomial categories, from the first player's side.
const PAIR_LABELS: [&str; 5] = ["LL", "LD", "WL+DD", "WD", "WW"];
/// Side letters of the dark (first colour, `black` in `games.csv`) stones.
const DARK_LETTERS: [&str; 3] = ["X", "B", "b"];
/// Side letters of the light (`white` in `games.csv`) stones.
const LIGHT_LETTERS: [&str; 3] = ["O", "W", "w"];

/// Writes a self-contained HTML report of the run folders `dirs` to `out`,
/// atomically (temp file + rename).
pub fn write_report(dirs: &[PathBuf], out: &Path) -> Result<(), String> {
    let html = render(dirs)?;
    let name = out.file_name().ok_or_else(|| format!("{}: expected a file name", out.display()))?;
    let tmp = out.with_file_name(format!(".{}.tmp", name.to_string_lossy()));
    std::fs::write(&tmp, html).map_err(|e| format!("{}: cannot write: {e}", tmp.display()))?;
    std::fs::rename(&tmp, out).map_err(|e| format!("{}: cannot write: {e}", out.display()))
}

/// A report that a long run rewrites as it goes (`--report`): at most once
/// every [`REFRESH_SECONDS`], the reload interval of the page, and at the
/// end. A page that cannot be written is a warning, never the end of the
/// run.
pub struct LiveReport {
    dirs: Vec<PathBuf>,
    out: PathBuf,
    last: Option<std::time::Instant>,
}

impl LiveReport {
    /// The report of `dirs` at `out`.
    pub fn new(dirs: Vec<PathBuf>, out: PathBuf) -> Self {
        LiveReport { dirs, out, last: None }
    }

    /// The report of the run folder `dir`, written as [`REPORT_FILE`] in it.
    pub fn of(dir: &Path) -> Self {
        LiveReport::new(vec![dir.to_path_buf()], dir.join(REPORT_FILE))
    }

    /// Where the page is written.
    pub fn path(&self) -> &Path {
        &self.out
    }

    /// Shows the run folder `current` after the first of the report's
    /// folders from now on, in place of the one shown before (the match a
    /// long run is playing now, beside the run's own files).
    pub fn follow(&mut self, current: &Path) {
        self.dirs.truncate(1);
        self.dirs.push(current.to_path_buf());
    }

    /// Rewrites the page when none was written yet or the interval has
    /// passed since the last one.
    pub fn tick(&mut self) {
        let due = self.last.is_none_or(|t| t.elapsed().as_secs() >= u64::from(REFRESH_SECONDS));
        if due {
            self.write_now();
        }
    }

    /// Rewrites the page now.
    pub fn write_now(&mut self) {
        self.last = Some(std::time::Instant::now());
        // Folders with no run files yet (a run that has not finished its
        // first game) have nothing to show.
        let ready: Vec<PathBuf> = self.dirs.iter().filter(|d| has_run_files(d)).cloned().collect();
        if ready.is_empty() {
            return;
        }
        if let Err(e) = write_report(&ready, &self.out) {
            eprintln!("warning: report {}: {e}", self.out.display());
        }
    }
}

/// True when `dir` holds a file the report reads.
fn has_run_files(dir: &Path) -> bool {
    !game_folders(dir).is_empty() || [LADDER_FILE, SPSA_FILE].iter().any(|f| dir.join(f).is_file())
}

/// The folders whose game files make up the match in `dir`: `dir` itself
/// when it holds its games, else, while a Slurm run plays, the folders of
/// its shards that hold games so far (merged into `dir` when every task
/// has ended); none when it holds no match.
fn game_folders(dir: &Path) -> Vec<PathBuf> {
    if dir.join(record::GAMES_FILE).is_file() {
        vec![dir.to_path_buf()]
    } else {
        crate::cluster::shard_folders_with_games(dir)
    }
}

/// The HTML text (what [`write_report`] writes).
pub fn render(dirs: &[PathBuf]) -> Result<String, String> {
    if dirs.is_empty() {
        return Err("report: expected at least one run folder".into());
    }
    let mut body = String::new();
    let mut viewers = 0;
    for (k, dir) in dirs.iter().enumerate() {
        body += &folder_section(dir, k, &mut viewers)?;
    }
    let shown: Vec<String> = dirs.iter().map(|d| format!("<code>{}</code>", esc(&d.display().to_string()))).collect();
    let mut page = String::new();
    page += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
    page += &format!("<meta http-equiv=\"refresh\" content=\"{REFRESH_SECONDS}\">\n");
    page += "<title>selfplay report</title>\n";
    page += &format!("<style>{STYLE}</style>\n</head>\n<body>\n");
    page += &format!("<h1>Run report: {}</h1>\n", shown.join(", "));
    page += &format!(
        "<p class=\"note\">Written by <code>selfplay report</code>; the page reloads every {REFRESH_SECONDS} s \
         (a run started with <code>--report</code> rewrites it as it goes; else rerun the command). <span id=\"written\"></span> Plots draw at most \
         {MAX_PLOT_POINTS} points per series, evenly sampled; every number comes from the folders' files.</p>\n"
    );
    page += &body;
    page += &format!("<script>{WRITTEN_SCRIPT}</script>\n");
    if viewers > 0 {
        page += &format!("<script>{VIEWER_SCRIPT}</script>\n");
    }
    page += "</body>\n</html>\n";
    Ok(page)
}

/// The page's style sheet.
const STYLE: &str = "body{font-family:sans-serif;margin:1.5em;color:#222;max-width:1400px}\
table{border-collapse:collapse;margin:.5em 0}\
td,th{border:1px solid #ccc;padding:2px 6px;font-size:13px;text-align:right}\
th{background:#f0f0f0}td.text,th.text{text-align:left}.wide{overflow-x:auto}.wide td{white-space:nowrap}\
section{border-top:2px solid #888;margin-top:1.5em}h2,h3{overflow-wrap:anywhere}\
.plots{display:flex;flex-wrap:wrap;gap:12px}svg.plot{background:#fff;border:1px solid #ddd}\
svg text{font-size:11px;font-family:sans-serif}.note{color:#555;font-size:13px}.viewer-info{font-family:monospace}";

/// Shows when the page file was written (the browser knows its date).
const WRITTEN_SCRIPT: &str =
    "document.getElementById('written').textContent = 'Page written ' + document.lastModified + '.';";

/// The game viewer: draws the chosen position of the chosen game on the
/// viewer's SVG board from the flattened form, and keeps the choice across
/// the page's reloads.
const VIEWER_SCRIPT: &str = r#"
document.querySelectorAll('.viewer').forEach(function (root) {
  var games = JSON.parse(root.querySelector('.viewer-data').textContent);
  var pick = root.querySelector('.viewer-game');
  var slider = root.querySelector('.viewer-slider');
  var info = root.querySelector('.viewer-info');
  var board = root.querySelector('.board');
  var size = Number(board.getAttribute('width'));
  var key = 'selfplay-report-' + root.id;
  function node(name, attrs) {
    var e = document.createElementNS(board.namespaceURI, name);
    for (var k in attrs) { e.setAttribute(k, attrs[k]); }
    board.appendChild(e);
  }
  function show() {
    var game = games[Number(pick.value)];
    var i = Number(slider.value);
    var p = game.positions[i];
    var fields = p[4].split('/').slice(1);
    var rows = fields.filter(function (f) { return f.indexOf(',') < 0; });
    var extra = fields.filter(function (f) { return f.indexOf(',') >= 0; });
    var w = Math.max.apply(null, rows.map(function (r) { return r.length; }).concat([1]));
    var cell = size / Math.max(w, rows.length, 1);
    while (board.firstChild) { board.removeChild(board.firstChild); }
    node('rect', {x: 0, y: 0, width: cell * w, height: cell * rows.length, fill: '#2f7d4a'});
    rows.forEach(function (row, r) {
      for (var c = 0; c < row.length; c++) {
        node('rect', {x: c * cell, y: r * cell, width: cell, height: cell, fill: 'none', stroke: '#174026'});
        var dark = 'XBb'.indexOf(row[c]) >= 0, light = 'OWw'.indexOf(row[c]) >= 0;
        if (dark || light) {
          node('circle', {cx: (c + 0.5) * cell, cy: (r + 0.5) * cell, r: cell * 0.4,
                          fill: dark ? '#111' : '#f4f4f4', stroke: '#000'});
        }
      }
    });
    info.textContent = 'game ' + game.game + ' (' + game.black + ' vs ' + game.white + ', ' + game.result +
      '): position ' + (i + 1) + ' of ' + game.positions.length + ', ply ' + p[0] + ', ' + p[1] +
      ' to move, score ' + (p[2] === null ? '-' : p[2]) + ', depth ' + (p[3] === null ? '-' : p[3]) +
      (extra.length ? ', other fields: ' + extra.join(' ') : '');
    try { sessionStorage.setItem(key, pick.value + ' ' + slider.value); } catch (e) {}
  }
  function choose() {
    slider.max = games[Number(pick.value)].positions.length - 1;
    slider.value = 0;
    show();
  }
  function step(by) { slider.value = Number(slider.value) + by; show(); }
  pick.addEventListener('change', choose);
  slider.addEventListener('input', show);
  root.querySelector('.viewer-prev').addEventListener('click', function () { step(-1); });
  root.querySelector('.viewer-next').addEventListener('click', function () { step(1); });
  var saved = null;
  try { saved = sessionStorage.getItem(key); } catch (e) {}
  var parts = saved ? saved.split(' ') : [];
  if (parts.length === 2 && Number(parts[0]) < games.length) { pick.value = parts[0]; }
  choose();
  if (parts.length === 2) { slider.value = parts[1]; show(); }
});
"#;

/// `text` with the HTML special characters escaped.
fn esc(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out += "&amp;",
            '<' => out += "&lt;",
            '>' => out += "&gt;",
            '"' => out += "&quot;",
            '\'' => out += "&#39;",
            _ => out.push(c),
        }
    }
    out
}

/// The section(s) of one folder; `viewers` counts the game viewers so far
/// (their element ids must differ).
fn folder_section(dir: &Path, index: usize, viewers: &mut usize) -> Result<String, String> {
    if !dir.is_dir() {
        return Err(format!("{}: expected a run folder, found no folder", dir.display()));
    }
    let has = |name: &str| dir.join(name).is_file();
    let mut out = String::new();
    let sources = game_folders(dir);
    if !sources.is_empty() {
        out += &match_section(dir, &sources, index, viewers)?;
    }
    if has(LADDER_FILE) {
        out += &loop_section(dir)?;
    }
    if has(SPSA_FILE) {
        out += &spsa_section(dir)?;
    }
    if out.is_empty() {
        return Err(format!(
            "{}: expected a run folder holding {}, {LADDER_FILE} or {SPSA_FILE}, found none of them",
            dir.display(),
            record::GAMES_FILE
        ));
    }
    Ok(out)
}

/// `… last changed N s before this page`, from the file's modification time.
fn age_text(path: &Path) -> String {
    let modified = std::fs::metadata(path).and_then(|m| m.modified());
    match modified.ok().and_then(|m| SystemTime::now().duration_since(m).ok()) {
        Some(age) => format!("{} last changed {} s before this page", file_name(path), age.as_secs()),
        None => format!("{} last changed just now", file_name(path)),
    }
}

/// The last component of `path`, for messages.
fn file_name(path: &Path) -> String {
    path.file_name().map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into_owned())
}

// ---------------------------------------------------------------------------
// Reading the files.

/// A CSV reader of the complete lines of `path`, and its header.
fn csv_reader(path: &Path) -> Result<(csv::Reader<std::io::Take<File>>, csv::StringRecord), String> {
    let mut file = File::open(path).map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
    let len = record::complete_len(&mut file, path)?;
    let mut reader = csv::Reader::from_reader(file.take(len));
    let header = reader.headers().map_err(|e| format!("{}:1: expected a CSV header: {e}", path.display()))?.clone();
    Ok((reader, header))
}

/// The next row of `reader` with its line number; the error names `path`,
/// the line and `what` was expected.
fn next_row(
    rows: &mut csv::StringRecordsIter<'_, std::io::Take<File>>,
    path: &Path,
    what: &str,
) -> Option<Result<(u64, csv::StringRecord), String>> {
    rows.next().map(|row| match row {
        Ok(row) => Ok((row.position().map_or(0, |p| p.line()), row)),
        Err(e) => {
            let line = e.position().map_or(0, |p| p.line());
            Err(format!("{}:{line}: expected {what}: {e}", path.display()))
        }
    })
}

/// Checks the header `found` of `path` against the accepted `headers`.
fn expect_header(path: &Path, found: &csv::StringRecord, headers: &[&[&str]]) -> Result<(), String> {
    if headers.iter().any(|h| found.iter().eq(h.iter().copied())) {
        return Ok(());
    }
    let wanted: Vec<String> = headers.iter().map(|h| format!("`{}`", h.join(","))).collect();
    Err(format!(
        "{}:1: expected the header {}, found `{}`",
        path.display(),
        wanted.join(" or "),
        found.iter().collect::<Vec<_>>().join(",")
    ))
}

/// Every complete row of a `games.csv`, in game id order.
fn read_games(path: &Path) -> Result<Vec<GameRecord>, String> {
    let (mut reader, header) = csv_reader(path)?;
    expect_header(path, &header, &[&record::GAMES_HEADER])?;
    let what = format!("a game row of {} columns", record::GAMES_HEADER.len());
    let mut rows = reader.records();
    let mut games = Vec::new();
    while let Some(row) = next_row(&mut rows, path, &what) {
        let (line, row) = row?;
        let game: GameRecord =
            row.deserialize(Some(&header)).map_err(|e| format!("{}:{line}: expected {what}: {e}", path.display()))?;
        if game.black_points().is_none() {
            return Err(format!(
                "{}:{line}: expected a result 1-0, 0-1 or 1/2-1/2, found `{}`",
                path.display(),
                game.result
            ));
        }
        games.push(game);
    }
    games.sort_by_key(|g| g.game);
    Ok(games)
}

/// Streams the complete rows of a `positions.csv` (current or older header) to `each`.
fn read_positions(path: &Path, mut each: impl FnMut(PositionRecord)) -> Result<(), String> {
    let (mut reader, header) = csv_reader(path)?;
    expect_header(path, &header, &[&record::POSITIONS_HEADER, &record::OLD_POSITIONS_HEADER])?;
    let what = "a position row";
    let mut rows = reader.records();
    while let Some(row) = next_row(&mut rows, path, what) {
        let (line, row) = row?;
        let position: PositionRecord =
            row.deserialize(Some(&header)).map_err(|e| format!("{}:{line}: expected {what}: {e}", path.display()))?;
        each(position);
    }
    Ok(())
}

/// A JSON file, parsed; the error names the file and line.
fn read_json(path: &Path) -> Result<serde_json::Value, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
    serde_json::from_str(&text).map_err(|e| format!("{}:{}: expected JSON: {e}", path.display(), e.line()))
}

/// The column `name` of `row` as a number; the error names the file, the
/// line, the column and the text found.
fn number_at(row: &csv::StringRecord, column: usize, name: &str, path: &Path, line: u64) -> Result<f64, String> {
    let text = row.get(column).unwrap_or("").trim();
    text.parse::<f64>()
        .map_err(|_| format!("{}:{line}: expected a number in column `{name}`, found `{text}`", path.display()))
}

// ---------------------------------------------------------------------------
// A match folder.

/// What `run.json` says, as far as the report shows it.
#[derive(Default)]
struct RunInfo {
    variant: Option<String>,
    games_per_pairing: Option<u64>,
    tc: Option<f64>,
    sample_every: Option<u64>,
    command: Option<String>,
    sprt: Option<Sprt>,
}

impl RunInfo {
    /// Reads `path` (an SPRT that does not parse is an error).
    fn read(path: &Path) -> Result<RunInfo, String> {
        let value = read_json(path)?;
        let job = &value["job"];
        let sprt = match &value["sprt"] {
            serde_json::Value::Null => None,
            v => Some(
                serde_json::from_value::<Sprt>(v.clone())
                    .map_err(|e| format!("{}: expected `sprt` as {{elo0, elo1, alpha, beta}}: {e}", path.display()))?,
            ),
        };
        Ok(RunInfo {
            variant: job["variant"].as_str().map(str::to_string),
            games_per_pairing: job["games"].as_u64(),
            tc: job["tc"].as_f64(),
            sample_every: job["sample_every"].as_u64(),
            command: command_text(&value),
            sprt,
        })
    }
}

/// The `command` array of a JSON file, joined by spaces.
fn command_text(value: &serde_json::Value) -> Option<String> {
    let words: Vec<&str> = value["command"].as_array()?.iter().filter_map(|w| w.as_str()).collect();
    Some(words.join(" "))
}

/// The points of `game` for the first player of its pairing: the player
/// with Black in the even games (colours swap with `game % 2`).
fn first_player_points(game: &GameRecord) -> f64 {
    let black = game.black_points().unwrap_or(0.5);
    if game.game.is_multiple_of(2) { black } else { 1.0 - black }
}

/// The first and second player of `game`'s pairing.
fn players_of(game: &GameRecord) -> (&str, &str) {
    if game.game.is_multiple_of(2) { (&game.black, &game.white) } else { (&game.white, &game.black) }
}

/// One pairing's tally, from its first player's side, and its course.
struct PairingTally {
    first: String,
    second: String,
    wdl: Wdl,
    pairs: Pentanomial,
    /// Points of the first game of a pair waiting for its partner.
    halves: HashMap<u64, f64>,
    /// `(games so far, Elo, half interval)` after each completed pair.
    elo: Vec<(f64, f64, f64)>,
    /// `(games so far, LLR)` after each completed pair, with an SPRT.
    llr: Vec<(f64, f64)>,
}

impl PairingTally {
    fn new(first: &str, second: &str) -> Self {
        PairingTally {
            first: first.to_string(),
            second: second.to_string(),
            wdl: Wdl::default(),
            pairs: Pentanomial::default(),
            halves: HashMap::new(),
            elo: Vec::new(),
            llr: Vec::new(),
        }
    }

    /// Adds the next game (in game id order).
    fn add(&mut self, game: &GameRecord, sprt: Option<&Sprt>) {
        let points = first_player_points(game);
        self.wdl.add(points);
        let Some(first) = self.halves.remove(&game.pair) else {
            self.halves.insert(game.pair, points);
            return;
        };
        self.pairs.add(first + points);
        let played = self.wdl.games() as f64;
        if let Some(e) = self.pairs.elo() {
            self.elo.push((played, e.elo, e.error));
        }
        if let Some(sprt) = sprt {
            self.llr.push((played, sprt.llr(&self.pairs)));
        }
    }

    /// `first vs second`.
    fn title(&self) -> String {
        format!("{} vs {}", self.first, self.second)
    }
}

/// The pairings of `games` (in id order), in order of their first game.
fn tally_pairings(games: &[GameRecord], sprt: Option<&Sprt>) -> Vec<PairingTally> {
    let mut tallies: Vec<PairingTally> = Vec::new();
    let mut index: HashMap<(String, String), usize> = HashMap::new();
    for game in games {
        let (first, second) = players_of(game);
        let k = *index.entry((first.to_string(), second.to_string())).or_insert_with(|| {
            tallies.push(PairingTally::new(first, second));
            tallies.len() - 1
        });
        tallies[k].add(game, sprt);
    }
    tallies
}

/// The colour letter's player of `game`: `black` for a dark side letter,
/// `white` for a light one.
fn side_player<'a>(game: &'a GameRecord, side: &str) -> Option<&'a str> {
    if DARK_LETTERS.contains(&side) {
        Some(&game.black)
    } else if LIGHT_LETTERS.contains(&side) {
        Some(&game.white)
    } else {
        None
    }
}

/// True when `side` is a dark (first colour) side letter.
fn is_dark(side: &str) -> bool {
    DARK_LETTERS.contains(&side)
}

/// A running mean.
#[derive(Clone, Copy, Default)]
struct Mean {
    sum: f64,
    count: u64,
}

impl Mean {
    fn add(&mut self, x: f64) {
        self.sum += x;
        self.count += 1;
    }

    fn value(&self) -> f64 {
        self.sum / self.count as f64
    }
}

/// Means per ply of one quantity, per series (`player as side`).
type PerPly = BTreeMap<String, BTreeMap<u32, Mean>>;

/// What the report keeps of `positions.csv`.
#[derive(Default)]
struct PositionSummary {
    rows: u64,
    /// CPU seconds per move, per series and ply.
    cpu: PerPly,
    /// Completed depth, per series and ply.
    depth: PerPly,
    /// The positions of the viewer's games, by game id.
    kept: HashMap<u64, Vec<PositionRecord>>,
}

/// Reads the `positions.csv` files `paths` into a [`PositionSummary`]:
/// rows of games not in `games` (in flight) are left out; the positions of
/// the games `keep` are kept.
fn summarise_positions(
    paths: &[PathBuf],
    games: &HashMap<u64, &GameRecord>,
    keep: &HashSet<u64>,
) -> Result<PositionSummary, String> {
    let mut summary = PositionSummary::default();
    for path in paths {
        summarise_positions_of(path, games, keep, &mut summary)?;
    }
    for rows in summary.kept.values_mut() {
        rows.sort_by_key(|p| p.ply);
    }
    Ok(summary)
}

/// Adds the rows of one `positions.csv` to `summary` (see
/// [`summarise_positions`]).
fn summarise_positions_of(
    path: &Path,
    games: &HashMap<u64, &GameRecord>,
    keep: &HashSet<u64>,
    summary: &mut PositionSummary,
) -> Result<(), String> {
    read_positions(path, |p| {
        let Some(game) = games.get(&p.game) else { return };
        summary.rows += 1;
        let series = match side_player(game, &p.side) {
            Some(player) => format!("{player} as {}", p.side),
            None => format!("side {}", p.side),
        };
        if let Some(cpu) = p.cpu {
            summary.cpu.entry(series.clone()).or_default().entry(p.ply).or_default().add(cpu);
        }
        if let Some(depth) = p.depth {
            summary.depth.entry(series).or_default().entry(p.ply).or_default().add(f64::from(depth));
        }
        if keep.contains(&p.game) {
            summary.kept.entry(p.game).or_default().push(p);
        }
    })
}

/// The section of the match folder `dir`, whose games are in the folders
/// `sources` ([`game_folders`]).
fn match_section(dir: &Path, sources: &[PathBuf], index: usize, viewers: &mut usize) -> Result<String, String> {
    let in_each =
        |name: &str| -> Vec<PathBuf> { sources.iter().map(|s| s.join(name)).filter(|p| p.is_file()).collect() };
    let games_paths = in_each(record::GAMES_FILE);
    let mut games = Vec::new();
    for path in &games_paths {
        games.extend(read_games(path)?);
    }
    games.sort_by_key(|g| g.game);
    let run_path = dir.join(record::RUN_FILE);
    let run = if run_path.is_file() { RunInfo::read(&run_path)? } else { RunInfo::default() };
    let mut out =
        format!("<section class=\"match\">\n<h2>Match: <code>{}</code></h2>\n", esc(&dir.display().to_string()));
    out += &run_summary(&run, run_path.is_file());
    if sources.iter().all(|s| s != dir) {
        out += &format!(
            "<p class=\"note\">Live from the games of {} Slurm shard folders so far (<code>{}/</code>); \
             the run merges them into this folder when every task has ended.</p>\n",
            sources.len(),
            crate::cluster::SHARDS_DIR
        );
    }

    let by_id: HashMap<u64, &GameRecord> = games.iter().map(|g| (g.game, g)).collect();
    let viewer_ids: Vec<u64> = games.iter().filter(|g| !g.forfeited()).take(VIEWER_GAMES).map(|g| g.game).collect();
    let keep: HashSet<u64> = viewer_ids.iter().copied().collect();
    let positions_paths = in_each(record::POSITIONS_FILE);
    let positions =
        if positions_paths.is_empty() { None } else { Some(summarise_positions(&positions_paths, &by_id, &keep)?) };
    let mut files = vec![format!("{}: {} games", record::GAMES_FILE, games.len())];
    if let Some(p) = &positions {
        files.push(format!("{}: {} rows of finished games", record::POSITIONS_FILE, p.rows));
    }
    let ggf_paths = in_each(record::GGF_FILE);
    if !ggf_paths.is_empty() {
        let mut records = 0;
        for path in &ggf_paths {
            let text = std::fs::read_to_string(path).map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
            records += text.lines().filter(|l| !l.trim().is_empty()).count();
        }
        files.push(format!("{}: {records} records", record::GGF_FILE));
    }
    let newest = games_paths.iter().max_by_key(|p| std::fs::metadata(p).and_then(|m| m.modified()).ok());
    let age = newest.map_or_else(String::new, |p| format!("; {}", age_text(p)));
    out += &format!("<p class=\"count\">{}{}.</p>\n", esc(&files.join("; ")), esc(&age));

    let tallies = tally_pairings(&games, run.sprt.as_ref());
    out += &pairing_table(&tallies, run.sprt.as_ref());
    for t in &tallies {
        out += &pairing_plots(t, run.sprt.as_ref());
    }
    out += &forfeit_list(&games);
    match &positions {
        Some(p) => {
            out += &time_plan(p, run.sample_every);
            let shown: Vec<(&GameRecord, &[PositionRecord])> = viewer_ids
                .iter()
                .filter_map(|id| Some((by_id[id], p.kept.get(id)?.as_slice())))
                .filter(|(_, rows)| !rows.is_empty())
                .collect();
            out += &score_plots(&shown);
            if !shown.is_empty() {
                out += &game_viewer(&shown, index, *viewers)?;
                *viewers += 1;
            }
        }
        None => {
            out += &format!("<p class=\"note\">No {}: no time plan, scores or viewer.</p>\n", record::POSITIONS_FILE)
        }
    }
    out += "</section>\n";
    Ok(out)
}

/// The line about `run.json`.
fn run_summary(run: &RunInfo, present: bool) -> String {
    if !present {
        return format!("<p class=\"note\">No {}.</p>\n", record::RUN_FILE);
    }
    let mut parts = Vec::new();
    if let Some(v) = &run.variant {
        parts.push(format!("variant {v}"));
    }
    if let Some(g) = run.games_per_pairing {
        parts.push(format!("{g} games per pairing"));
    }
    if let Some(tc) = run.tc {
        parts.push(format!("--tc {tc} s"));
    }
    if let Some(s) = run.sample_every {
        parts.push(format!("--sample {s}"));
    }
    if let Some(s) = &run.sprt {
        parts.push(format!("SPRT elo0 {} elo1 {} alpha {} beta {}", s.elo0, s.elo1, s.alpha, s.beta));
    }
    let mut out = format!("<p>{}: {}.</p>\n", record::RUN_FILE, esc(&parts.join(", ")));
    if let Some(c) = &run.command {
        out += &format!("<p class=\"note\">Command: <code>{}</code></p>\n", esc(c));
    }
    out
}

/// `LL 0, LD 1, WL+DD 2, WD 0, WW 3`.
fn pairs_text(p: &Pentanomial) -> String {
    PAIR_LABELS.iter().zip(p.0).map(|(label, n)| format!("{label} {n}")).collect::<Vec<_>>().join(", ")
}

/// The SPRT's LLR, bounds and verdict for `pairs`.
fn sprt_text(sprt: &Sprt, pairs: &Pentanomial) -> String {
    let (lo, hi) = sprt.bounds();
    let verdict = match sprt.verdict(pairs) {
        Verdict::H1 => "H1 accepted",
        Verdict::H0 => "H0 accepted",
        Verdict::Continue => "no verdict yet",
    };
    format!("LLR {:.2} ({lo:.2}, {hi:.2}), {verdict}", sprt.llr(pairs))
}

/// The table of the pairings' results.
fn pairing_table(tallies: &[PairingTally], sprt: Option<&Sprt>) -> String {
    if tallies.is_empty() {
        return "<p>No games yet.</p>\n".into();
    }
    let mut out = String::from(
        "<table>\n<tr><th class=\"text\">first vs second player</th><th>games</th><th>W-D-L</th><th>score</th>\
         <th class=\"text\">Elo (games)</th><th class=\"text\">pairs</th><th class=\"text\">Elo (pairs)</th>\
         <th class=\"text\">normalized Elo</th><th>LOS (pairs)</th>",
    );
    if sprt.is_some() {
        out += "<th class=\"text\">SPRT</th>";
    }
    out += "</tr>\n";
    for t in tallies {
        let w = &t.wdl;
        let games_elo = w.elo().map_or_else(String::new, |e| e.to_string());
        let score = w.elo().map_or_else(String::new, |e| format!("{:.1}%", 100.0 * e.score));
        let (pair_elo, nelo, los) = match t.pairs.elo() {
            Some(e) => (
                stats::elo_text(e.elo, e.error),
                stats::elo_text(e.nelo, e.nelo_error),
                format!("{:.1}%", 100.0 * e.los),
            ),
            None => (String::new(), String::new(), String::new()),
        };
        out += &format!(
            "<tr><td class=\"text\">{}</td><td>{}</td><td>{}-{}-{}</td><td>{score}</td><td class=\"text\">{}</td>\
             <td class=\"text\">{}</td><td class=\"text\">{}</td><td class=\"text\">n{}</td><td>{los}</td>",
            esc(&t.title()),
            w.games(),
            w.wins,
            w.draws,
            w.losses,
            esc(&games_elo),
            pairs_text(&t.pairs),
            esc(&pair_elo),
            esc(&nelo),
        );
        if let Some(s) = sprt {
            out += &format!("<td class=\"text\">{}</td>", sprt_text(s, &t.pairs));
        }
        out += "</tr>\n";
    }
    out += "</table>\n<p class=\"note\">From the first player's side: it has Black (the first colour) in the \
            even games. Pairs are the two games of one opening, colours swapped.</p>\n";
    out
}

/// The pentanomial bars and the Elo and LLR courses of one pairing.
fn pairing_plots(t: &PairingTally, sprt: Option<&Sprt>) -> String {
    let mut out = format!("<h3>{}</h3>\n<div class=\"plots\">\n", esc(&t.title()));
    out += &plot::Bars {
        title: "pairs by the first player's points".into(),
        y_label: "pairs".into(),
        labels: PAIR_LABELS.iter().map(|s| s.to_string()).collect(),
        values: t.pairs.0.iter().map(|&n| n as f64).collect(),
        size: plot::SMALL,
    }
    .svg();
    let elo: Vec<(f64, f64, f64)> = t.elo.iter().copied().filter(|(_, e, _)| e.is_finite()).collect();
    let elo = plot::thin(&elo, MAX_PLOT_POINTS);
    out += &plot::Plot {
        title: "Elo of the first player (pairs, 95% band) by games played".into(),
        x_label: "games played".into(),
        y_label: "Elo".into(),
        size: plot::WIDE,
        integer_x: true,
        series: vec![plot::Series {
            name: "Elo".into(),
            mark: plot::Mark::Line,
            points: elo.iter().map(|&(x, e, _)| (x, e)).collect(),
            band: elo.iter().filter(|(_, _, d)| d.is_finite()).map(|&(x, e, d)| (x, e - d, e + d)).collect(),
        }],
        rules: vec![plot::Rule { y: 0.0, label: String::new() }],
        edge_beyond: None,
    }
    .svg();
    if let Some(s) = sprt {
        let (lo, hi) = s.bounds();
        out += &plot::Plot {
            title: "SPRT log-likelihood ratio by games played".into(),
            x_label: "games played".into(),
            y_label: "LLR".into(),
            size: plot::WIDE,
            integer_x: true,
            series: vec![plot::Series::line("LLR", plot::thin(&t.llr, MAX_PLOT_POINTS))],
            rules: vec![
                plot::Rule { y: lo, label: format!("H0 {lo:.2}") },
                plot::Rule { y: hi, label: format!("H1 {hi:.2}") },
            ],
            edge_beyond: None,
        }
        .svg();
    }
    out += "</div>\n";
    out
}

/// The games lost by forfeit.
fn forfeit_list(games: &[GameRecord]) -> String {
    let forfeits: Vec<&GameRecord> = games.iter().filter(|g| g.forfeited()).collect();
    if forfeits.is_empty() {
        return "<h3>Forfeits</h3>\n<p>None.</p>\n".into();
    }
    let mut out = format!("<h3>Forfeits</h3>\n<p>{} games lost by forfeit.</p>\n<table>\n", forfeits.len());
    out += "<tr><th>game</th><th class=\"text\">black</th><th class=\"text\">white</th><th>result</th>\
            <th class=\"text\">ending</th><th class=\"text\">detail</th></tr>\n";
    for g in forfeits.iter().take(MAX_FORFEITS) {
        out += &format!(
            "<tr><td>{}</td><td class=\"text\">{}</td><td class=\"text\">{}</td><td>{}</td><td class=\"text\">{}</td>\
             <td class=\"text\">{}</td></tr>\n",
            g.game,
            esc(&g.black),
            esc(&g.white),
            esc(&g.result),
            esc(&g.ending),
            esc(&g.detail)
        );
    }
    out += "</table>\n";
    if forfeits.len() > MAX_FORFEITS {
        out += &format!("<p class=\"note\">The first {MAX_FORFEITS} are listed.</p>\n");
    }
    out
}

/// The series of a [`PerPly`] table: one line per series (the first
/// [`MAX_SERIES`]), the mean per ply.
fn per_ply_series(table: &PerPly) -> Vec<plot::Series> {
    table
        .iter()
        .take(MAX_SERIES)
        .map(|(name, plies)| {
            let points: Vec<(f64, f64)> = plies.iter().map(|(&ply, m)| (f64::from(ply), m.value())).collect();
            plot::Series::line(name, plot::thin(&points, MAX_PLOT_POINTS))
        })
        .collect()
}

/// The time plan: mean CPU seconds per move and mean depth, per ply.
fn time_plan(p: &PositionSummary, sample_every: Option<u64>) -> String {
    let mut out = String::from("<h3>Time plan</h3>\n");
    let sampled = match sample_every {
        Some(n) if n > 1 => format!(" (--sample {n}: one in {n} of the positions a player chose)"),
        _ => String::new(),
    };
    out += &format!(
        "<p class=\"note\">Means over the games' rows of {} per ply from the opening, per player and \
         side{sampled}.</p>\n",
        record::POSITIONS_FILE
    );
    let mut plots = Vec::new();
    if !p.cpu.is_empty() {
        plots.push(plot::Plot {
            title: "CPU seconds per move by ply".into(),
            x_label: "ply".into(),
            y_label: "CPU s".into(),
            size: plot::WIDE,
            integer_x: true,
            series: per_ply_series(&p.cpu),
            rules: Vec::new(),
            edge_beyond: None,
        });
    }
    if !p.depth.is_empty() {
        plots.push(plot::Plot {
            title: "completed depth by ply".into(),
            x_label: "ply".into(),
            y_label: "depth".into(),
            size: plot::WIDE,
            integer_x: true,
            series: per_ply_series(&p.depth),
            rules: Vec::new(),
            edge_beyond: None,
        });
    }
    if plots.is_empty() {
        out += "<p>No CPU times or depths in the positions.</p>\n";
        return out;
    }
    if p.cpu.len().max(p.depth.len()) > MAX_SERIES {
        out += &format!("<p class=\"note\">The first {MAX_SERIES} series are drawn.</p>\n");
    }
    out += "<div class=\"plots\">\n";
    for plot in plots {
        out += &plot.svg();
    }
    out += "</div>\n";
    out
}

/// One small score-per-ply plot for each of the first [`SCORE_PLOT_GAMES`]
/// games with scores, from the side of the `black` player; proven results
/// (beyond [`DECIDED`]) on the plot's edge.
fn score_plots(shown: &[(&GameRecord, &[PositionRecord])]) -> String {
    let mut out = String::from("<h3>Score by ply</h3>\n");
    let with_scores: Vec<_> =
        shown.iter().filter(|(_, rows)| rows.iter().any(|p| p.score.is_some())).take(SCORE_PLOT_GAMES).collect();
    if with_scores.is_empty() {
        out += "<p>No scores in the positions.</p>\n";
        return out;
    }
    out += &format!(
        "<p class=\"note\">The search score of each recorded move ({SCORE_PER_POINT} per point of final score), \
         from the side of the <code>black</code> player of {}, for the first {} games finished on the board; \
         scores of proven results \
         (|score| &ge; {DECIDED}) are drawn hollow on the top or bottom edge.</p>\n<div class=\"plots\">\n",
        record::GAMES_FILE,
        with_scores.len()
    );
    for (game, rows) in with_scores {
        let mut series = Vec::new();
        for (dark, player) in [(true, &game.black), (false, &game.white)] {
            let mine: Vec<&PositionRecord> = rows.iter().filter(|p| is_dark(&p.side) == dark).collect();
            let points: Vec<(f64, f64)> = mine
                .iter()
                .filter_map(|p| {
                    let s = f64::from(p.score?);
                    Some((f64::from(p.ply), if dark { s } else { -s }))
                })
                .collect();
            if let Some(first) = mine.first()
                && !points.is_empty()
            {
                let name = format!("{player} as {}", first.side);
                series.push(plot::Series::dots(&name, plot::thin(&points, MAX_PLOT_POINTS)));
            }
        }
        out += &plot::Plot {
            title: format!("game {}: {} ({} plies)", game.game, game.result, game.plies),
            x_label: "ply".into(),
            y_label: "score".into(),
            size: plot::SMALL,
            integer_x: true,
            series,
            rules: vec![plot::Rule { y: 0.0, label: String::new() }],
            edge_beyond: Some(f64::from(DECIDED)),
        }
        .svg();
    }
    out += "</div>\n";
    out
}

/// The game viewer of the games `shown`: a selector, prev/next buttons, a
/// slider and a board the script draws on.
fn game_viewer(shown: &[(&GameRecord, &[PositionRecord])], index: usize, viewer: usize) -> Result<String, String> {
    let data: Vec<serde_json::Value> = shown
        .iter()
        .map(|(g, rows)| {
            let positions: Vec<serde_json::Value> =
                rows.iter().map(|p| serde_json::json!([p.ply, p.side, p.score, p.depth, p.board])).collect();
            serde_json::json!({
                "game": g.game, "black": g.black, "white": g.white, "result": g.result, "positions": positions
            })
        })
        .collect();
    let json = serde_json::to_string(&data).map_err(|e| e.to_string())?.replace('<', "\\u003c");
    let mut out = String::from("<h3>Game viewer</h3>\n");
    out += &format!(
        "<p class=\"note\">The first {} games finished on the board (at most {VIEWER_GAMES}), their positions of \
         {} in ply order; the score and depth are the mover's.</p>\n",
        shown.len(),
        record::POSITIONS_FILE
    );
    out += &format!("<div class=\"viewer\" id=\"viewer-{index}-{viewer}\">\n");
    out += &format!("<script type=\"application/json\" class=\"viewer-data\">{json}</script>\n");
    out += "<p><label>game <select class=\"viewer-game\">";
    for (k, (g, rows)) in shown.iter().enumerate() {
        out += &format!(
            "<option value=\"{k}\">game {}: {} vs {}, {} ({} positions)</option>",
            g.game,
            esc(&g.black),
            esc(&g.white),
            esc(&g.result),
            rows.len()
        );
    }
    out += "</select></label>\n<button type=\"button\" class=\"viewer-prev\">prev</button>\n";
    out += "<input type=\"range\" class=\"viewer-slider\" min=\"0\" max=\"0\" value=\"0\">\n";
    out += "<button type=\"button\" class=\"viewer-next\">next</button></p>\n";
    out += "<p class=\"viewer-info\"></p>\n";
    out += &format!(
        "<svg class=\"board\" width=\"{BOARD_PIXELS}\" height=\"{BOARD_PIXELS}\" \
         viewBox=\"0 0 {BOARD_PIXELS} {BOARD_PIXELS}\"></svg>\n</div>\n"
    );
    Ok(out)
}

// ---------------------------------------------------------------------------
// The tuner's loop.

/// The section of a loop folder: settings, the ladder and its cumulative Elo.
fn loop_section(dir: &Path) -> Result<String, String> {
    let path = dir.join(LADDER_FILE);
    let (mut reader, header) = csv_reader(&path)?;
    let column = |name: &str| header.iter().position(|h| h == name);
    let (Some(round_at), Some(cumulative_at)) = (column("round"), column("cumulative_elo")) else {
        return Err(format!(
            "{}:1: expected a header with the columns `round` and `cumulative_elo`, found `{}`",
            path.display(),
            header.iter().collect::<Vec<_>>().join(",")
        ));
    };
    let accepted_at = column("accepted");
    let numbers: Vec<(usize, &str)> = LADDER_NUMBERS.iter().filter_map(|&n| Some((column(n)?, n))).collect();
    let mut rows = Vec::new();
    let mut records = reader.records();
    while let Some(row) = next_row(&mut records, &path, "a ladder row") {
        let (line, row) = row?;
        for &(at, name) in &numbers {
            number_at(&row, at, name, &path, line)?;
        }
        let accepted = match accepted_at.map(|at| row.get(at).unwrap_or("").trim()) {
            None => false,
            Some("true") => true,
            Some("false") => false,
            Some(other) => {
                return Err(format!(
                    "{}:{line}: expected true or false in column `accepted`, found `{other}`",
                    path.display()
                ));
            }
        };
        let round = number_at(&row, round_at, "round", &path, line)?;
        let cumulative = number_at(&row, cumulative_at, "cumulative_elo", &path, line)?;
        rows.push((row, round, cumulative, accepted));
    }
    let mut out =
        format!("<section class=\"loop\">\n<h2>Tuner loop: <code>{}</code></h2>\n", esc(&dir.display().to_string()));
    out += &settings_table(&dir.join(LOOP_FILE))?;
    let accepted = rows.iter().filter(|r| r.3).count();
    out += &format!(
        "<p class=\"count\">{}: {} rounds, {accepted} accepted; {}.</p>\n",
        LADDER_FILE,
        rows.len(),
        esc(&age_text(&path))
    );
    let line: Vec<(f64, f64)> = rows.iter().map(|r| (r.1, r.2)).collect();
    let kept: Vec<(f64, f64)> = rows.iter().filter(|r| r.3).map(|r| (r.1, r.2)).collect();
    out += "<div class=\"plots\">\n";
    out += &plot::Plot {
        title: "cumulative Elo by round (against round 0)".into(),
        x_label: "round".into(),
        y_label: "cumulative Elo".into(),
        size: plot::WIDE,
        integer_x: true,
        series: vec![
            plot::Series::line("cumulative Elo", plot::thin(&line, MAX_PLOT_POINTS)),
            plot::Series::dots("accepted rounds", plot::thin(&kept, MAX_PLOT_POINTS)),
        ],
        rules: Vec::new(),
        edge_beyond: None,
    }
    .svg();
    out += "</div>\n<div class=\"wide\">\n<table>\n<tr>";
    for h in header.iter() {
        out += &format!("<th>{}</th>", esc(h));
    }
    out += "</tr>\n";
    let skip = rows.len().saturating_sub(MAX_LADDER_ROWS);
    for (row, ..) in rows.iter().skip(skip) {
        out += "<tr>";
        for cell in row.iter() {
            out += &format!("<td>{}</td>", esc(cell));
        }
        out += "</tr>\n";
    }
    out += "</table>\n</div>\n";
    if skip > 0 {
        out += &format!("<p class=\"note\">The last {MAX_LADDER_ROWS} rounds are listed.</p>\n");
    }
    out += "</section>\n";
    Ok(out)
}

/// The settings of a `loop.json` or `spsa.json` (`{command, settings}`), as
/// a table of flattened keys; nothing when the file is absent.
fn settings_table(path: &Path) -> Result<String, String> {
    if !path.is_file() {
        return Ok(format!("<p class=\"note\">No {}.</p>\n", file_name(path)));
    }
    let value = read_json(path)?;
    let mut rows = Vec::new();
    let settings = if value["settings"].is_null() { &value } else { &value["settings"] };
    flatten_json("", settings, &mut rows);
    rows.retain(|(k, _)| k != "command");
    let mut out = String::new();
    if let Some(c) = command_text(&value) {
        out += &format!("<p class=\"note\">Command: <code>{}</code></p>\n", esc(&c));
    }
    out += &format!("<details><summary>{} ({} settings)</summary>\n<table>\n", esc(&file_name(path)), rows.len());
    for (key, text) in rows.iter().take(MAX_SETTINGS_ROWS) {
        out += &format!("<tr><td class=\"text\">{}</td><td class=\"text\">{}</td></tr>\n", esc(key), esc(text));
    }
    out += "</table>\n</details>\n";
    Ok(out)
}

/// `value`'s leaves as `(dotted key, JSON text)`; array elements are
/// leaves (`key[i]`).
fn flatten_json(prefix: &str, value: &serde_json::Value, rows: &mut Vec<(String, String)>) {
    let key = |k: &str| if prefix.is_empty() { k.to_string() } else { format!("{prefix}.{k}") };
    match value {
        serde_json::Value::Object(map) => {
            for (k, v) in map {
                flatten_json(&key(k), v, rows);
            }
        }
        serde_json::Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                rows.push((format!("{prefix}[{i}]"), v.to_string()));
            }
        }
        v => rows.push((prefix.to_string(), v.to_string())),
    }
}

// ---------------------------------------------------------------------------
// An SPSA run.

/// One row of [`SPSA_FILE`].
struct SpsaRow {
    iteration: f64,
    games: f64,
    wins: f64,
    draws: f64,
    losses: f64,
    cpu_seconds: f64,
    theta: Vec<f64>,
}

/// The section of an SPSA folder: settings, totals, the running result and
/// each parameter's trajectory.
fn spsa_section(dir: &Path) -> Result<String, String> {
    let path = dir.join(SPSA_FILE);
    let (mut reader, header) = csv_reader(&path)?;
    let names: Vec<&str> = header.iter().collect();
    if names.len() < SPSA_COLUMNS.len() || names[..SPSA_COLUMNS.len()] != SPSA_COLUMNS {
        return Err(format!(
            "{}:1: expected the header `{},<parameter names>`, found `{}`",
            path.display(),
            SPSA_COLUMNS.join(","),
            names.join(",")
        ));
    }
    let params: Vec<String> = names[SPSA_COLUMNS.len()..].iter().map(|s| s.to_string()).collect();
    let mut rows = Vec::new();
    let mut records = reader.records();
    while let Some(row) = next_row(&mut records, &path, "an SPSA row") {
        let (line, row) = row?;
        let at = |j: usize| number_at(&row, j, names[j], &path, line);
        rows.push(SpsaRow {
            iteration: at(0)?,
            games: at(1)?,
            wins: at(2)?,
            draws: at(3)?,
            losses: at(4)?,
            cpu_seconds: at(5)?,
            theta: (SPSA_COLUMNS.len()..names.len()).map(&at).collect::<Result<_, _>>()?,
        });
    }
    let mut out =
        format!("<section class=\"spsa\">\n<h2>SPSA: <code>{}</code></h2>\n", esc(&dir.display().to_string()));
    out += &settings_table(&dir.join(SPSA_SETTINGS_FILE))?;
    let sum = |f: fn(&SpsaRow) -> f64| rows.iter().map(f).sum::<f64>();
    out += &format!(
        "<p class=\"count\">{SPSA_FILE}: {} iterations, {} games, W-D-L {}-{}-{} (the plus side's), \
         {:.1} CPU s; {}.</p>\n",
        rows.len(),
        sum(|r| r.games),
        sum(|r| r.wins),
        sum(|r| r.draws),
        sum(|r| r.losses),
        sum(|r| r.cpu_seconds),
        esc(&age_text(&path))
    );
    let starts = spsa_starts(&dir.join(SPSA_SETTINGS_FILE), &params)?;
    if let Some(last) = rows.last() {
        out += "<table>\n<tr><th class=\"text\">parameter</th><th>start</th><th>range</th><th>now</th>\
                <th>moved (in c_end)</th></tr>\n";
        for (k, name) in params.iter().enumerate() {
            let now = last.theta[k];
            let shown = format!("{now:.SPSA_DECIMALS$}");
            let shown = shown.trim_end_matches('0').trim_end_matches('.');
            let (start, range, moved) = match &starts[k] {
                Some(s) => {
                    (s.start.to_string(), format!("{}-{}", s.min, s.max), format!("{:+.2}", (now - s.start) / s.c_end))
                }
                None => ("?".into(), "?".into(), "?".into()),
            };
            out += &format!(
                "<tr><td class=\"text\">{}</td><td>{start}</td><td>{range}</td><td>{shown}</td><td>{moved}</td></tr>\n",
                esc(name)
            );
        }
        out += "</table>\n";
    }
    let mut running = 0.0;
    let result: Vec<(f64, f64)> = rows
        .iter()
        .map(|r| {
            running += r.wins - r.losses;
            (r.iteration, running)
        })
        .collect();
    out += "<div class=\"plots\">\n";
    out += &plot::Plot {
        title: "running result: wins less losses of the plus side".into(),
        x_label: "iteration".into(),
        y_label: "W - L".into(),
        size: plot::WIDE,
        integer_x: true,
        series: vec![plot::Series::line("W - L", plot::thin(&result, MAX_PLOT_POINTS))],
        rules: vec![plot::Rule { y: 0.0, label: String::new() }],
        edge_beyond: None,
    }
    .svg();
    for (k, name) in params.iter().enumerate() {
        let points: Vec<(f64, f64)> = rows.iter().map(|r| (r.iteration, r.theta[k])).collect();
        out += &plot::Plot {
            title: name.clone(),
            x_label: "iteration".into(),
            y_label: "value".into(),
            size: plot::SMALL,
            integer_x: true,
            series: vec![plot::Series::line(name, plot::thin(&points, MAX_PLOT_POINTS))],
            rules: starts[k].iter().map(|s| plot::Rule { y: s.start, label: "start".into() }).collect(),
            edge_beyond: None,
        }
        .svg();
    }
    out += "</div>\n</section>\n";
    Ok(out)
}

/// Decimals of an SPSA parameter's value in the table (`tuned.txt` has
/// them all).
const SPSA_DECIMALS: usize = 4;

/// Where an SPSA parameter started and what bounds it (`tuner spsa`'s
/// settings in [`SPSA_SETTINGS_FILE`]).
struct SpsaStart {
    start: f64,
    min: f64,
    max: f64,
    c_end: f64,
}

/// The start of each of `params` as the run's settings (`path`) give it;
/// `None` for a parameter they do not name (or when there is no file).
fn spsa_starts(path: &Path, params: &[String]) -> Result<Vec<Option<SpsaStart>>, String> {
    if !path.is_file() {
        return Ok(params.iter().map(|_| None).collect());
    }
    let value = read_json(path)?;
    let listed = value["settings"]["params"].as_array().map(Vec::as_slice).unwrap_or_default();
    Ok(params
        .iter()
        .map(|name| {
            let p = listed.iter().find(|p| p["name"].as_str() == Some(name))?;
            let field = |k: &str| p[k].as_f64();
            Some(SpsaStart { start: field("start")?, min: field("min")?, max: field("max")?, c_end: field("c_end")? })
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    /// The first player: Black in the even games.
    const A: &str = "engine:depth=2";
    /// The second player.
    const B: &str = "random";
    /// A 4x4 position in the flattened form.
    const BOARD: &str = "X/..../.OX./.XO./....";

    fn temp_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("selfplay-report-{}-{name}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    /// A `games.csv` row of game `id` (A has Black in the even games).
    fn game_line(id: u64, result: &str, ending: &str, detail: &str) -> String {
        let (black, white) = if id.is_multiple_of(2) { (A, B) } else { (B, A) };
        format!("{id},{},1,{BOARD},{black},{white},{result},9,7,2,12,0.5,0.25,{ending},{detail}\n", id / 2)
    }

    /// Games 0-5: from A's side W W | W L | D W(forfeit by B): 4-1-1, pairs WW, WL, DW.
    /// From Black's side they would read 3-1-2.
    fn games_csv() -> String {
        let mut text = record::GAMES_HEADER.join(",") + "\n";
        for (id, result, ending, detail) in [
            (0, "1-0", "normal", ""),
            (1, "0-1", "normal", ""),
            (2, "1-0", "normal", ""),
            (3, "1-0", "normal", ""),
            (4, "1/2-1/2", "tiebreak", ""),
            (5, "0-1", "timeout", "X: no move in 300 s"),
        ] {
            text += &game_line(id, result, ending, detail);
        }
        text
    }

    /// Two positions of each of the games 0-2 and one of game 9, which has
    /// no games.csv row (in flight).
    fn positions_csv() -> String {
        let mut text = record::POSITIONS_HEADER.join(",") + "\n";
        for game in [0, 1, 2] {
            text += &format!("{game},0,X,{BOARD},100,3,1,2,0.5,1000\n");
            text += &format!("{game},1,O,O/..../.XXX/.XO./....,-150,2,0,-2,0.25,\n");
        }
        text += &format!("9,0,X,{BOARD},,,1,2,0.5,\n");
        text
    }

    const RUN_JSON: &str = r#"{"command": ["selfplay", "--variant", "tiny4"],
        "job": {"variant": "tiny4", "players": ["engine:depth=2", "random"], "games": 6, "tc": 300.0, "sample_every": 1},
        "sprt": {"elo0": 0.0, "elo1": 10.0, "alpha": 0.05, "beta": 0.05}}"#;

    fn match_dir(name: &str) -> PathBuf {
        let dir = temp_dir(name);
        fs::write(dir.join(record::GAMES_FILE), games_csv()).unwrap();
        fs::write(dir.join(record::POSITIONS_FILE), positions_csv()).unwrap();
        fs::write(dir.join(record::RUN_FILE), RUN_JSON).unwrap();
        fs::write(dir.join(record::GGF_FILE), "(;PC[selfplay game 0];)\n(;PC[selfplay game 1];)\n").unwrap();
        dir
    }

    const LADDER: &str = "round,games,positions,train_positions,k,train_loss,validation_loss,verify_games,wins,draws,\
losses,elo,elo_error,llr,accepted,cumulative_elo,weights,selfplay_cpu,label_cpu,tune_cpu,verify_cpu
1,2000,99806,89916,0.00057655,0.011827,0.016069,20,20,0,0,inf,NaN,3.07,true,416.56,round-001/tune/weights.txt,288.03,0.0,7.01,2.74
2,2000,99862,179884,0.00060203,0.009507,0.012545,180,108,6,66,82.59,45.28,3.01,true,497.29,round-002/tune/weights.txt,291.13,0.0,9.22,26.18
3,2000,99862,179884,0.00060203,0.009507,0.012545,180,80,6,94,-20.5,45.28,-3.01,false,497.29,round-002/tune/weights.txt,291.13,0.0,9.22,26.18
";

    fn loop_dir(name: &str) -> PathBuf {
        let dir = temp_dir(name);
        fs::write(dir.join(LADDER_FILE), LADDER).unwrap();
        fs::write(
            dir.join(LOOP_FILE),
            r#"{"command": ["tuner", "loop"], "settings": {"variant": "tiny4", "games": 2000}}"#,
        )
        .unwrap();
        dir
    }

    const SPSA: &str = "iteration,games,wins,draws,losses,cpu_seconds,search.a,search.b
0,4,3,0,1,1.2,10.5,3
1,4,1,1,2,1.5,10.75,2.5
2,4,2,2,0,1.0,11,2.25
";

    fn spsa_dir(name: &str) -> PathBuf {
        let dir = temp_dir(name);
        fs::write(dir.join(SPSA_FILE), SPSA).unwrap();
        fs::write(
            dir.join(SPSA_SETTINGS_FILE),
            r#"{"command": ["tuner", "spsa"], "settings": {"iterations": 3, "params": [
                {"name": "search.a", "integer": false, "start": 10, "min": 5, "max": 20, "c_end": 0.5, "r_end": 0.01}]}}"#,
        )
        .unwrap();
        dir
    }

    /// Elements whose end tag HTML leaves out.
    const VOID_ELEMENTS: [&str; 6] = ["meta", "br", "input", "hr", "img", "link"];

    /// Checks that every element opened is closed in order (`<script>` and
    /// `<style>` contents skipped, void and self-closed elements alone).
    fn balanced(html: &str) -> Result<(), String> {
        let mut open: Vec<String> = Vec::new();
        let mut rest = html;
        while let Some(at) = rest.find('<') {
            rest = &rest[at..];
            let end = rest.find('>').ok_or_else(|| format!("unclosed tag at `{}`", &rest[..rest.len().min(40)]))?;
            let tag = &rest[1..end];
            rest = &rest[end + 1..];
            if tag.starts_with('!') {
                continue;
            }
            if let Some(name) = tag.strip_prefix('/') {
                match open.pop() {
                    Some(top) if top == name.trim() => {}
                    top => return Err(format!("`</{name}>` closes {top:?}")),
                }
                continue;
            }
            let name = tag.split(|c: char| c.is_whitespace() || c == '/').next().unwrap_or("").to_string();
            if name.is_empty() {
                return Err(format!("a tag without a name: `<{tag}>`"));
            }
            if tag.ends_with('/') || VOID_ELEMENTS.contains(&name.as_str()) {
                continue;
            }
            if name == "script" || name == "style" {
                let close = format!("</{name}>");
                let i = rest.find(&close).ok_or_else(|| format!("`<{name}>` never closed"))?;
                rest = &rest[i + close.len()..];
                continue;
            }
            open.push(name);
        }
        if open.is_empty() { Ok(()) } else { Err(format!("never closed: {open:?}")) }
    }

    fn no_network(html: &str) {
        assert!(!html.contains("http://") && !html.contains("https://"), "a network reference");
        assert!(!html.contains(" src="), "an external resource");
    }

    #[test]
    fn the_balance_checker_catches_what_it_should() {
        assert!(balanced("<div><p>a</p><br><svg><line/></svg></div>").is_ok());
        assert!(balanced("<div><p>a</div>").is_err());
        assert!(balanced("<div>").is_err());
        assert!(balanced("</p>").is_err());
        assert!(balanced("<script>if (a < b) {}</script><p></p>").is_ok());
    }

    #[test]
    fn a_match_folder_shows_its_counts_from_the_first_players_side() {
        let dir = match_dir("match");
        let html = render(std::slice::from_ref(&dir)).unwrap();
        balanced(&html).unwrap();
        no_network(&html);
        assert!(html.contains(&format!("<meta http-equiv=\"refresh\" content=\"{REFRESH_SECONDS}\">")));
        assert!(html.contains("games.csv: 6 games; positions.csv: 6 rows of finished games; games.ggf: 2 records"));
        assert!(html.contains(&format!("<td class=\"text\">{A} vs {B}</td><td>6</td><td>4-1-1</td>")), "{html}");
        assert!(html.contains("LL 0, LD 0, WL+DD 1, WD 1, WW 1"));
        let pairs = Pentanomial([0, 0, 1, 1, 1]);
        let e = pairs.elo().unwrap();
        assert!(html.contains(&stats::elo_text(e.elo, e.error)));
        let games_elo = Wdl { wins: 4, draws: 1, losses: 1 }.elo().unwrap();
        assert!(html.contains(&games_elo.to_string()));
        let sprt = Sprt { elo0: 0.0, elo1: 10.0, alpha: 0.05, beta: 0.05 };
        assert!(html.contains(&format!("LLR {:.2} (-2.94, 2.94), no verdict yet", sprt.llr(&pairs))), "{html}");
        // The forfeit is listed; the tiebreak is not a forfeit.
        assert!(html.contains("1 games lost by forfeit"));
        assert!(html.contains("<td class=\"text\">timeout</td><td class=\"text\">X: no move in 300 s</td>"));
        // Plots: the pairs' bars, Elo, LLR; CPU and depth per ply; scores of
        // games 0-2; the viewer's board.
        assert_eq!(html.matches("<svg").count(), 9, "{html}");
        assert_eq!(html.matches("<svg class=\"board\"").count(), 1);
        // The viewer offers the games with positions, not the forfeit, nor
        // the game in flight.
        assert!(html.contains("\"game\":0") && html.contains("\"game\":2"));
        assert!(!html.contains("\"game\":5") && !html.contains("\"game\":9"));
        assert!(html.contains(&format!("[0,\"X\",100,3,\"{BOARD}\"]")));
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_torn_last_line_is_left_out() {
        let dir = match_dir("torn");
        let mut text = games_csv();
        text += "6,3,1,X/..";
        fs::write(dir.join(record::GAMES_FILE), text).unwrap();
        let html = render(std::slice::from_ref(&dir)).unwrap();
        assert!(html.contains("games.csv: 6 games"));
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_slurm_run_in_flight_shows_its_shards_games() {
        // The games of `match_dir` split between two shards as Slurm plays
        // them (odd and even ids), a torn last line in one, a shard that has
        // not finished a game and a stray folder; the run's own folder holds
        // only run.json until the merge.
        let whole = match_dir("whole");
        let dir = temp_dir("slurm");
        fs::write(dir.join(record::RUN_FILE), RUN_JSON).unwrap();
        let shards = dir.join(crate::cluster::SHARDS_DIR);
        let header = record::GAMES_HEADER.join(",") + "\n";
        for (k, parity) in [(1, 0), (2, 1)] {
            let shard = shards.join(format!("shard-{k}"));
            fs::create_dir_all(&shard).unwrap();
            let lines: String = games_csv().lines().skip(1).skip(parity).step_by(2).map(|l| format!("{l}\n")).collect();
            fs::write(shard.join(record::GAMES_FILE), format!("{header}{lines}")).unwrap();
        }
        fs::write(shards.join("shard-1").join(record::POSITIONS_FILE), positions_csv()).unwrap();
        let mut torn = fs::read_to_string(shards.join("shard-2").join(record::GAMES_FILE)).unwrap();
        torn += "7,3,1,X/..";
        fs::write(shards.join("shard-2").join(record::GAMES_FILE), torn).unwrap();
        fs::create_dir_all(shards.join("shard-3")).unwrap();
        fs::create_dir_all(shards.join("merged-x")).unwrap();
        assert_eq!(
            crate::cluster::shard_folders_with_games(&dir),
            vec![shards.join("shard-1"), shards.join("shard-2")]
        );

        let html = render(std::slice::from_ref(&dir)).unwrap();
        balanced(&html).unwrap();
        assert!(html.contains("Live from the games of 2 Slurm shard folders"), "{html}");
        assert!(html.contains("games.csv: 6 games; positions.csv: 6 rows of finished games"), "{html}");
        // The same tallies as the merged folder's.
        let table = |h: &str| h[h.find("<table").unwrap()..h.find("</table>").unwrap()].to_string();
        assert_eq!(table(&html), table(&render(std::slice::from_ref(&whole)).unwrap()));
        let mut live = LiveReport::of(&dir);
        live.write_now();
        assert!(fs::read_to_string(dir.join(REPORT_FILE)).unwrap().contains("6 games"));
        fs::remove_dir_all(&dir).unwrap();
        fs::remove_dir_all(&whole).unwrap();
    }

    #[test]
    fn a_loop_folder_shows_its_ladder() {
        let dir = loop_dir("loop");
        let html = render(std::slice::from_ref(&dir)).unwrap();
        balanced(&html).unwrap();
        no_network(&html);
        assert!(html.contains("ladder.csv: 3 rounds, 2 accepted"));
        assert!(html.contains("<td>497.29</td>") && html.contains("<td>-20.5</td>"));
        assert_eq!(html.matches("<svg").count(), 1);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn an_spsa_folder_shows_each_parameter() {
        let dir = spsa_dir("spsa");
        let html = render(std::slice::from_ref(&dir)).unwrap();
        balanced(&html).unwrap();
        no_network(&html);
        assert!(html.contains("spsa.csv: 3 iterations, 12 games, W-D-L 6-3-3 (the plus side's), 3.7 CPU s"), "{html}");
        // search.a's start and range come from spsa.json, which does not
        // name search.b.
        assert!(
            html.contains("<td class=\"text\">search.a</td><td>10</td><td>5-20</td><td>11</td><td>+2.00</td>"),
            "{html}"
        );
        assert!(html.contains("<td class=\"text\">search.b</td><td>?</td><td>?</td><td>2.25</td><td>?</td>"));
        assert_eq!(html.matches(">start</text>").count(), 1, "one start line, search.a's");
        // The running result and one plot per parameter.
        assert_eq!(html.matches("<svg").count(), 3);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn several_folders_make_one_well_formed_page_written_atomically() {
        let dirs = [match_dir("all-match"), loop_dir("all-loop"), spsa_dir("all-spsa")];
        let out = dirs[0].join(REPORT_FILE);
        write_report(&dirs, &out).unwrap();
        let html = fs::read_to_string(&out).unwrap();
        assert!(!dirs[0].join(format!(".{REPORT_FILE}.tmp")).exists());
        balanced(&html).unwrap();
        no_network(&html);
        assert_eq!(html.matches("<svg").count(), 9 + 1 + 3);
        assert_eq!(html.matches("<section").count(), 3);
        for d in &dirs {
            fs::remove_dir_all(d).unwrap();
        }
    }

    /// The error of `render` on `dir`, checked to be one line naming `file` and `line`.
    fn error_at(dir: &Path, file: &str, line: u32) -> String {
        let err = render(&[dir.to_path_buf()]).unwrap_err();
        assert!(!err.contains('\n'), "one line: {err}");
        assert!(err.starts_with(&format!("{}:{line}: expected ", dir.join(file).display())), "{err}");
        err
    }

    #[test]
    fn bad_lines_are_named_with_their_file_and_line() {
        let dir = match_dir("bad-games");
        let mut text = games_csv();
        text = text.replacen(",9,7,2,12,", ",nine,7,2,12,", 2);
        fs::write(dir.join(record::GAMES_FILE), &text).unwrap();
        error_at(&dir, record::GAMES_FILE, 2);
        fs::write(dir.join(record::GAMES_FILE), games_csv().replace("1/2-1/2", "draw")).unwrap();
        let err = error_at(&dir, record::GAMES_FILE, 6);
        assert!(err.contains("expected a result"), "{err}");
        fs::write(dir.join(record::GAMES_FILE), games_csv()).unwrap();
        fs::write(dir.join(record::POSITIONS_FILE), positions_csv().replacen(",100,3,", ",100,three,", 1)).unwrap();
        error_at(&dir, record::POSITIONS_FILE, 2);
        fs::write(dir.join(record::POSITIONS_FILE), "game,ply\n0,1\n").unwrap();
        let err = error_at(&dir, record::POSITIONS_FILE, 1);
        assert!(err.contains("expected the header"), "{err}");
        fs::remove_dir_all(&dir).unwrap();

        let dir = loop_dir("bad-loop");
        fs::write(dir.join(LADDER_FILE), LADDER.replace(",-20.5,", ",abc,")).unwrap();
        let err = error_at(&dir, LADDER_FILE, 4);
        assert!(err.contains("expected a number in column `elo`, found `abc`"), "{err}");
        fs::write(dir.join(LADDER_FILE), LADDER.replace(",false,", ",maybe,")).unwrap();
        error_at(&dir, LADDER_FILE, 4);
        fs::remove_dir_all(&dir).unwrap();

        let dir = spsa_dir("bad-spsa");
        fs::write(dir.join(SPSA_FILE), SPSA.replace("1,4,1,1,2", "1,4,x,1,2")).unwrap();
        let err = error_at(&dir, SPSA_FILE, 3);
        assert!(err.contains("column `wins`, found `x`"), "{err}");
        fs::write(dir.join(SPSA_FILE), SPSA.replace("2,4,2,2,0,1.0,11,2.25", "2,4,2,2,0,1.0,11")).unwrap();
        error_at(&dir, SPSA_FILE, 4);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_folder_without_run_files_is_refused() {
        let dir = temp_dir("empty");
        let err = render(std::slice::from_ref(&dir)).unwrap_err();
        assert!(err.starts_with(&format!("{}: expected a run folder", dir.display())), "{err}");
        assert!(err.contains("games.csv") && !err.contains('\n'), "{err}");
        fs::remove_dir_all(&dir).unwrap();
        assert!(render(&[]).is_err());
        assert!(render(std::slice::from_ref(&dir)).unwrap_err().contains("found no folder"));
    }

    #[test]
    fn plots_mark_their_data_and_thin_long_series() {
        assert_eq!(plot::thin(&[1, 2, 3, 4, 5], 3), vec![1, 3, 5]);
        assert_eq!(plot::thin(&[1, 2], 3), vec![1, 2]);
        let svg = plot::Plot {
            title: "t <x>".into(),
            x_label: "x".into(),
            y_label: "y".into(),
            size: plot::SMALL,
            integer_x: true,
            series: vec![plot::Series::line("a", vec![(0.0, 1.0), (10.0, f64::INFINITY), (20.0, 3.0)])],
            rules: Vec::new(),
            edge_beyond: None,
        }
        .svg();
        balanced(&svg).unwrap();
        assert!(
            svg.contains("t &lt;x&gt;") && svg.contains("<polyline") && !svg.contains("NaN") && !svg.contains("inf")
        );
        let empty = plot::Plot {
            title: "e".into(),
            x_label: "x".into(),
            y_label: "y".into(),
            size: plot::SMALL,
            integer_x: false,
            series: vec![plot::Series::line("a", Vec::new())],
            rules: Vec::new(),
            edge_beyond: None,
        }
        .svg();
        assert!(empty.contains("no finite values yet"));
        let proven = plot::Plot {
            title: "p".into(),
            x_label: "x".into(),
            y_label: "y".into(),
            size: plot::SMALL,
            integer_x: true,
            series: vec![plot::Series::dots("a", vec![(0.0, 5.0), (1.0, -20.0), (2.0, 200_000.0)])],
            rules: Vec::new(),
            edge_beyond: Some(1000.0),
        }
        .svg();
        assert_eq!(proven.matches("<circle").count(), 3);
        assert_eq!(proven.matches("fill=\"none\" stroke=\"#1f77b4\"").count(), 1, "one hollow dot: {proven}");
        assert!(!proven.contains(">200000<") && proven.contains(">-20<"), "the axis spans the others: {proven}");
        let bars = plot::Bars {
            title: "b".into(),
            y_label: "n".into(),
            labels: vec!["p".into(), "q".into()],
            values: vec![0.0, 7.0],
            size: plot::SMALL,
        }
        .svg();
        balanced(&bars).unwrap();
        assert_eq!(bars.matches("<rect").count(), 3, "the frame and two bars");
        assert!(bars.contains(">7</text>"));
    }
}

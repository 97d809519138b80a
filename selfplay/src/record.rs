//! The run folder: `games.csv`, `positions.csv`, `games.ggf` (Reversi
//! variants) and `run.json`, appended and flushed game by game, and
//! repaired and re-read when a run resumes.
//!
//! A game's positions and its GGF record are written and flushed before its
//! `games.csv` row, so a row in `games.csv` means the game is complete in
//! every file. On resume a half-written last line is cut off, and position
//! rows and GGF records of games that have no `games.csv` row (games in
//! flight when the run stopped) are dropped.

use engine_core::game::Color;
use serde::{Deserialize, Serialize};
use std::collections::HashSet;
use std::fs::{self, File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// File name of the game table.
pub const GAMES_FILE: &str = "games.csv";
/// File name of the position table.
pub const POSITIONS_FILE: &str = "positions.csv";
/// File name of the run description.
pub const RUN_FILE: &str = "run.json";
/// File name of the game records in the Generic Game Format, one game a
/// line (Reversi variants only: GGF has no Pente).
pub const GGF_FILE: &str = "games.ggf";
/// What the `PC` (place) tag of a GGF record in [`GGF_FILE`] holds before
/// the game's id: `PC[selfplay game 17]` ties the record to its
/// `games.csv` row.
pub const GGF_PLACE: &str = "selfplay game ";
/// File whose OS lock a run holds while it writes its folder.
pub const LOCK_FILE: &str = "lock";

/// The claim of one run on an output folder: an OS lock on its
/// [`LOCK_FILE`] (which names the holder's process id), released when the
/// run ends or dies, so two runs never write one folder at once.
#[derive(Debug)]
pub struct FolderLock {
    _file: File,
}

impl FolderLock {
    /// Takes `dir` (which must exist) for this process, or says who holds it.
    pub fn acquire(dir: &Path) -> Result<Self, String> {
        let path = dir.join(LOCK_FILE);
        let shown = path.display();
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .map_err(|e| format!("{shown}: cannot open: {e}"))?;
        match file.try_lock() {
            Ok(()) => {}
            Err(fs::TryLockError::WouldBlock) => {
                let mut holder = String::new();
                let _ = file.read_to_string(&mut holder);
                return Err(format!(
                    "{}: another run (process {}) is writing this folder: wait for it to end or stop it",
                    dir.display(),
                    holder.trim()
                ));
            }
            Err(fs::TryLockError::Error(e)) => return Err(format!("{shown}: cannot lock: {e}")),
        }
        file.set_len(0)
            .and_then(|()| file.write_all(format!("{}\n", std::process::id()).as_bytes()))
            .map_err(|e| format!("{shown}: cannot write: {e}"))?;
        Ok(FolderLock { _file: file })
    }
}

/// The `ending` of a game that ran to the end of the rules.
pub const ENDING_NORMAL: &str = "normal";
/// The `ending` of a game whose level score a tie rule decided.
pub const ENDING_TIEBREAK: &str = "tiebreak";
/// The `ending` of a game its loser lost on time.
pub const ENDING_TIMEOUT: &str = "timeout";

/// One row of `games.csv`: one finished game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    /// Game id (0-based; fixes the colours, the opening and the RNG stream).
    pub game: u64,
    /// Colour-swapped pair the game belongs to (`game / 2`).
    pub pair: u64,
    /// The run's `--seed`.
    pub seed: u64,
    /// Start position of the game (flattened position form).
    pub opening: String,
    /// Player spec playing Black (`X`).
    pub black: String,
    /// Player spec playing White (`O`).
    pub white: String,
    /// `1-0` (Black won), `0-1` (White won) or `1/2-1/2`.
    pub result: String,
    /// Black discs on the final board.
    pub black_count: u32,
    /// White discs on the final board.
    pub white_count: u32,
    /// Final score from Black's side under the variant's scoring.
    pub score: i32,
    /// Plies played from the opening position, passes included.
    pub plies: u32,
    /// CPU seconds Black used.
    pub black_cpu: f64,
    /// CPU seconds White used.
    pub white_cpu: f64,
    /// How it ended: `normal`, `tiebreak`, or the loser's forfeit (`timeout`,
    /// `crash`, `no-output`, `bad-output`, `illegal-move`).
    pub ending: String,
    /// For a forfeit: the loser's side letter and what happened.
    pub detail: String,
}

impl GameRecord {
    /// The `result` text for `winner`.
    pub const fn result_text(winner: Option<Color>) -> &'static str {
        match winner {
            Some(Color::Black) => "1-0",
            Some(Color::White) => "0-1",
            None => "1/2-1/2",
        }
    }

    /// True when the loser forfeited (the game did not end on the board).
    pub fn forfeited(&self) -> bool {
        self.ending != ENDING_NORMAL && self.ending != ENDING_TIEBREAK
    }

    /// Black's points: 1, 0.5 or 0; `None` for an unknown result text.
    pub fn black_points(&self) -> Option<f64> {
        match self.result.as_str() {
            "1-0" => Some(1.0),
            "0-1" => Some(0.0),
            "1/2-1/2" => Some(0.5),
            _ => None,
        }
    }
}

/// One row of `positions.csv`: a position in which a player chose a move.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PositionRecord {
    /// Game id (the `game` of `games.csv`).
    pub game: u64,
    /// Plies played from the game's opening before this position.
    pub ply: u32,
    /// Side to move: `X` or `O`.
    pub side: String,
    /// The position, flattened (`X/row1/row2/...`).
    pub board: String,
    /// Mover's search score (engine units, 100 per disc), if it searched.
    pub score: Option<i32>,
    /// Mover's completed search depth, if it searched.
    pub depth: Option<u32>,
    /// Final result from the mover's side: 1, 0.5 or 0.
    pub result: f64,
    /// Final score (disc difference under the variant's scoring) from the
    /// mover's side.
    pub disc_diff: i32,
    /// CPU seconds the mover was charged for this move (`None` in files
    /// written before the column existed).
    #[serde(default)]
    pub cpu: Option<f64>,
    /// Search nodes of this move, if known (`None` when the mover did not
    /// search or did not say, and in files written before the column existed).
    #[serde(default)]
    pub nodes: Option<u64>,
}

/// One move as it was played, as a game record keeps it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoveNote<M> {
    /// The move (a pass the game master played included).
    pub mv: M,
    /// The mover's search score (100 per disc), if it reported one.
    pub score: Option<i32>,
    /// CPU seconds the mover was charged (`None` for a forced pass).
    pub cpu: Option<f64>,
}

/// The game id a GGF record of [`GGF_FILE`] names in its `PC` tag.
pub fn ggf_game_id(line: &str) -> Option<u64> {
    let from = line.find(&format!("PC[{GGF_PLACE}"))? + "PC[".len() + GGF_PLACE.len();
    let len = line[from..].find(']')?;
    line[from..from + len].parse().ok()
}

/// Column names of `games.csv`, in order.
pub const GAMES_HEADER: [&str; 15] = [
    "game",
    "pair",
    "seed",
    "opening",
    "black",
    "white",
    "result",
    "black_count",
    "white_count",
    "score",
    "plies",
    "black_cpu",
    "white_cpu",
    "ending",
    "detail",
];
/// Column names of `positions.csv`, in order.
pub const POSITIONS_HEADER: [&str; 10] =
    ["game", "ply", "side", "board", "score", "depth", "result", "disc_diff", "cpu", "nodes"];
/// Column names of `positions.csv` before `cpu` and `nodes` were added: such
/// files are still read (those fields `None`), but a run is not resumed
/// into one.
pub const OLD_POSITIONS_HEADER: [&str; 8] = ["game", "ply", "side", "board", "score", "depth", "result", "disc_diff"];

/// The length of `file` (read from `path`, for errors) up to the end of its
/// last complete line: a run may be appending a line that is not whole
/// yet. Scans back from the end a block at a time and leaves the file at
/// its start.
pub fn complete_len(file: &mut File, path: &Path) -> Result<u64, String> {
    /// Bytes read at a time, scanning back from the end.
    const BLOCK: u64 = 1 << 16;
    let err = |e: std::io::Error| format!("{}: cannot read: {e}", path.display());
    let mut end = file.metadata().map_err(err)?.len();
    let mut keep = 0;
    while end > 0 {
        let start = end.saturating_sub(BLOCK);
        let mut buf = vec![0u8; (end - start) as usize];
        file.seek(SeekFrom::Start(start)).map_err(err)?;
        file.read_exact(&mut buf).map_err(err)?;
        if let Some(i) = buf.iter().rposition(|&b| b == b'\n') {
            keep = start + i as u64 + 1;
            break;
        }
        end = start;
    }
    file.seek(SeekFrom::Start(0)).map_err(err)?;
    Ok(keep)
}

/// Cuts a half-written last line (no final newline) off `path`; returns
/// true when the file exists and holds at least one complete line.
fn repair_tail(path: &Path) -> Result<bool, String> {
    let err = |e: std::io::Error| format!("{}: {e}", path.display());
    let mut file = match OpenOptions::new().read(true).write(true).open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(false),
        Err(e) => return Err(err(e)),
    };
    let len = file.metadata().map_err(err)?.len();
    let keep = complete_len(&mut file, path)?;
    if keep != len {
        file.set_len(keep).map_err(err)?;
    }
    Ok(keep > 0)
}

/// Checks that the header `found` of `path` is `expected` or one of the
/// `older` headers still read; the error names the file and both headers.
fn check_header(path: &Path, found: &csv::StringRecord, expected: &[&str], older: &[&[&str]]) -> Result<(), String> {
    let is = |header: &[&str]| found.iter().eq(header.iter().copied());
    if is(expected) || older.iter().any(|h| is(h)) {
        return Ok(());
    }
    let also = older.iter().map(|h| format!(" or the older `{}`", h.join(","))).collect::<String>();
    Err(format!(
        "{}:1: expected the header `{}`{also}, found `{}`",
        path.display(),
        expected.join(","),
        found.iter().collect::<Vec<_>>().join(",")
    ))
}

/// Checks that the `positions.csv` at `path` has the current header, so
/// that rows can be appended to it; [`OLD_POSITIONS_HEADER`] is refused
/// with the columns expected (a resume would mix row widths).
fn check_appendable_positions(path: &Path) -> Result<(), String> {
    let mut reader = csv::Reader::from_path(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let header = reader.headers().map_err(|e| format!("{}:1: {e}", path.display()))?;
    if header.iter().eq(OLD_POSITIONS_HEADER) {
        return Err(format!(
            "{}:1: cannot resume into this file: it has the columns `{}`, expected `{}` (written by an older \
             selfplay; use a new --out)",
            path.display(),
            header.iter().collect::<Vec<_>>().join(","),
            POSITIONS_HEADER.join(",")
        ));
    }
    check_header(path, header, &POSITIONS_HEADER, &[])
}

/// Reads every row of a `games.csv` (after checking its header).
pub fn read_games(path: &Path) -> Result<Vec<GameRecord>, String> {
    let mut reader = csv::Reader::from_path(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let header = reader.headers().map_err(|e| format!("{}:1: {e}", path.display()))?.clone();
    check_header(path, &header, &GAMES_HEADER, &[])?;
    let mut games = Vec::new();
    for (i, row) in reader.deserialize().enumerate() {
        let game: GameRecord = row.map_err(|e| format!("{}:{}: bad game row: {e}", path.display(), i + 2))?;
        if game.black_points().is_none() {
            return Err(format!("{}:{}: expected a result 1-0, 0-1 or 1/2-1/2", path.display(), i + 2));
        }
        games.push(game);
    }
    Ok(games)
}

/// Every game record of the run folder `dir`, in game id order.
pub fn games_in(dir: &Path) -> Result<Vec<GameRecord>, String> {
    let mut games = read_games(&dir.join(GAMES_FILE))?;
    games.sort_by_key(|g| g.game);
    Ok(games)
}

/// Every position record of the run folder `dir`, in game and ply order.
pub fn positions_in(dir: &Path) -> Result<Vec<PositionRecord>, String> {
    let mut rows = Vec::new();
    read_positions(&dir.join(POSITIONS_FILE), |p| {
        rows.push(p);
        Ok(())
    })?;
    rows.sort_by_key(|p| (p.game, p.ply));
    Ok(rows)
}

/// Streams the rows of a `positions.csv` (after checking its header) to
/// `each`. Files with [`OLD_POSITIONS_HEADER`] are read too, with `cpu` and
/// `nodes` `None`.
pub fn read_positions(path: &Path, mut each: impl FnMut(PositionRecord) -> Result<(), String>) -> Result<(), String> {
    let mut reader = csv::Reader::from_path(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let header = reader.headers().map_err(|e| format!("{}:1: {e}", path.display()))?.clone();
    check_header(path, &header, &POSITIONS_HEADER, &[&OLD_POSITIONS_HEADER])?;
    for (i, row) in reader.deserialize().enumerate() {
        each(row.map_err(|e| format!("{}:{}: bad position row: {e}", path.display(), i + 2))?)?;
    }
    Ok(())
}

/// Opens `path` for appending, writing the header when the file is new.
fn appender(path: &Path, header: &[&str], exists: bool) -> Result<csv::Writer<File>, String> {
    let file =
        OpenOptions::new().create(true).append(true).open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut writer = csv::WriterBuilder::new().has_headers(false).from_writer(file);
    if !exists {
        writer.write_record(header).map_err(|e| format!("{}: {e}", path.display()))?;
        writer.flush().map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok(writer)
}

/// The open output files of a run.
pub struct Store {
    dir: PathBuf,
    games: csv::Writer<File>,
    positions: csv::Writer<File>,
    /// [`GGF_FILE`], opened when the first record comes.
    ggf: Option<File>,
}

impl Store {
    /// Opens (creating or resuming) the run folder `dir`; returns the store
    /// and the games already finished there.
    pub fn open(dir: &Path) -> Result<(Store, Vec<GameRecord>), String> {
        fs::create_dir_all(dir).map_err(|e| format!("{}: cannot create: {e}", dir.display()))?;
        let games_path = dir.join(GAMES_FILE);
        let positions_path = dir.join(POSITIONS_FILE);
        let positions_exist = repair_tail(&positions_path)?;
        if positions_exist {
            check_appendable_positions(&positions_path)?;
        }
        let games_exist = repair_tail(&games_path)?;
        let games = if games_exist { read_games(&games_path)? } else { Vec::new() };
        let mut seen = HashSet::with_capacity(games.len());
        for g in &games {
            if !seen.insert(g.game) {
                return Err(format!("{}: game {} appears twice", games_path.display(), g.game));
            }
        }
        if positions_exist {
            drop_unfinished_positions(&positions_path, &seen)?;
        }
        let ggf_path = dir.join(GGF_FILE);
        if repair_tail(&ggf_path)? {
            drop_unfinished_records(&ggf_path, &seen)?;
        }
        let store = Store {
            dir: dir.to_path_buf(),
            games: appender(&games_path, &GAMES_HEADER, games_exist)?,
            positions: appender(&positions_path, &POSITIONS_HEADER, positions_exist)?,
            ggf: None,
        };
        Ok((store, games))
    }

    /// Appends position rows and flushes them (used by `merge`).
    pub fn append_positions(&mut self, positions: &[PositionRecord]) -> Result<(), String> {
        let path = self.dir.join(POSITIONS_FILE);
        for p in positions {
            self.positions.serialize(p).map_err(|e| format!("{}: {e}", path.display()))?;
        }
        self.positions.flush().map_err(|e| format!("{}: {e}", path.display()))
    }

    /// Appends a finished game (positions and its GGF record, if any,
    /// first) and flushes every file.
    pub fn append(&mut self, game: &GameRecord, positions: &[PositionRecord], ggf: Option<&str>) -> Result<(), String> {
        let err = |file: &str, e: &dyn std::fmt::Display| format!("{}: {e}", self.dir.join(file).display());
        for p in positions {
            self.positions.serialize(p).map_err(|e| err(POSITIONS_FILE, &e))?;
        }
        self.positions.flush().map_err(|e| err(POSITIONS_FILE, &e))?;
        if let Some(line) = ggf {
            if self.ggf.is_none() {
                let path = self.dir.join(GGF_FILE);
                let file = OpenOptions::new().create(true).append(true).open(&path).map_err(|e| err(GGF_FILE, &e))?;
                self.ggf = Some(file);
            }
            let file = self.ggf.as_mut().expect("opened above");
            file.write_all(format!("{line}\n").as_bytes())
                .and_then(|()| file.flush())
                .map_err(|e| err(GGF_FILE, &e))?;
        }
        self.games.serialize(game).map_err(|e| err(GAMES_FILE, &e))?;
        self.games.flush().map_err(|e| err(GAMES_FILE, &e))
    }
}

/// Rewrites `path` without the rows of games not in `finished` (if any).
fn drop_unfinished_positions(path: &Path, finished: &HashSet<u64>) -> Result<(), String> {
    let mut stray = false;
    read_positions(path, |p| {
        stray |= !finished.contains(&p.game);
        Ok(())
    })?;
    if !stray {
        return Ok(());
    }
    let tmp = path.with_extension("csv.tmp");
    let file = File::create(&tmp).map_err(|e| format!("{}: {e}", tmp.display()))?;
    let mut writer = csv::Writer::from_writer(file);
    read_positions(path, |p| {
        if finished.contains(&p.game) {
            writer.serialize(&p).map_err(|e| format!("{}: {e}", tmp.display()))?;
        }
        Ok(())
    })?;
    writer.flush().map_err(|e| format!("{}: {e}", tmp.display()))?;
    drop(writer);
    fs::rename(&tmp, path).map_err(|e| format!("{}: {e}", path.display()))
}

/// Reads the GGF records of a [`GGF_FILE`], each with its game id; the
/// error names the file and line of a record without one.
pub fn read_ggf(path: &Path) -> Result<Vec<(u64, String)>, String> {
    let text = fs::read_to_string(path).map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
    let mut records = Vec::new();
    for (i, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        let id = ggf_game_id(line).ok_or_else(|| {
            format!("{}:{}: expected a GGF game with PC[{GGF_PLACE}ID], found `{line}`", path.display(), i + 1)
        })?;
        records.push((id, line.to_string()));
    }
    Ok(records)
}

/// Rewrites the GGF file `path` without the records of games not in
/// `finished` (if any).
fn drop_unfinished_records(path: &Path, finished: &HashSet<u64>) -> Result<(), String> {
    let records = read_ggf(path)?;
    if records.iter().all(|(id, _)| finished.contains(id)) {
        return Ok(());
    }
    let kept: String =
        records.iter().filter(|(id, _)| finished.contains(id)).map(|(_, line)| format!("{line}\n")).collect();
    let tmp = path.with_extension("ggf.tmp");
    fs::write(&tmp, kept).map_err(|e| format!("{}: {e}", tmp.display()))?;
    fs::rename(&tmp, path).map_err(|e| format!("{}: {e}", path.display()))
}

/// Writes `value` as pretty JSON to `path` (via a temporary file).
pub fn write_json(path: &Path, value: &serde_json::Value) -> Result<(), String> {
    let tmp = path.with_extension("json.tmp");
    let text = serde_json::to_string_pretty(value).map_err(|e| e.to_string())? + "\n";
    let mut file = File::create(&tmp).map_err(|e| format!("{}: {e}", tmp.display()))?;
    file.write_all(text.as_bytes()).map_err(|e| format!("{}: {e}", tmp.display()))?;
    fs::rename(&tmp, path).map_err(|e| format!("{}: {e}", path.display()))
}

/// The variant a run folder played, from its `run.json`.
pub fn run_variant(dir: &Path) -> Result<String, String> {
    let path = dir.join(RUN_FILE);
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
    let value: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| format!("{}:{}: {e}", path.display(), e.line()))?;
    value["job"]["variant"]
        .as_str()
        .map(str::to_string)
        .ok_or_else(|| format!("{}: expected a `job` object with a `variant`", path.display()))
}

#[cfg(test)]
mod tests {

    #[test]
    fn a_folder_is_held_by_one_run_at_a_time() {
        let dir = std::env::temp_dir().join(format!("selfplay-lock-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let first = FolderLock::acquire(&dir).unwrap();
        let err = FolderLock::acquire(&dir).unwrap_err();
        assert!(err.contains(&format!("process {}", std::process::id())), "{err}");
        drop(first);
        let again = FolderLock::acquire(&dir);
        assert!(again.is_ok(), "{again:?}");
        fs::remove_dir_all(&dir).unwrap();
    }

    use super::*;

    fn game(id: u64) -> GameRecord {
        GameRecord {
            game: id,
            pair: id / 2,
            seed: 1,
            opening: "X/..../.OX./.XO./....".into(),
            black: "random".into(),
            white: "engine:depth=2,tt=1".into(),
            result: "1-0".into(),
            black_count: 9,
            white_count: 7,
            score: 2,
            plies: 12,
            black_cpu: 0.001,
            white_cpu: 0.25,
            ending: "normal".into(),
            detail: String::new(),
        }
    }

    fn position(id: u64, ply: u32) -> PositionRecord {
        PositionRecord {
            game: id,
            ply,
            side: "X".into(),
            board: "X/..../.OX./.XO./....".into(),
            score: Some(-100),
            depth: None,
            result: 1.0,
            disc_diff: 2,
            cpu: Some(0.125),
            nodes: if ply.is_multiple_of(2) { Some(4321) } else { None },
        }
    }

    #[test]
    fn resume_repairs_a_torn_line_and_drops_unfinished_positions() {
        let record = |id: u64| format!("(;GM[Othello]PC[{GGF_PLACE}{id}]TY[4]BO[4 ---------O*--*O------ *];)");
        let dir = std::env::temp_dir().join(format!("selfplay-record-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        {
            let (mut store, old) = Store::open(&dir).unwrap();
            assert!(old.is_empty());
            store.append(&game(0), &[position(0, 0), position(0, 1)], Some(&record(0))).unwrap();
            store.append(&game(1), &[position(1, 0)], Some(&record(1))).unwrap();
        }
        // Games in flight: game 2's positions and GGF record are out and its
        // games row is torn; game 3's GGF record is torn.
        let mut f = OpenOptions::new().append(true).open(dir.join(POSITIONS_FILE)).unwrap();
        f.write_all(b"2,0,X,X/..../.OX./.XO./....,,,1,2,0.5,\n2,1,O,X/...").unwrap();
        let mut f = OpenOptions::new().append(true).open(dir.join(GAMES_FILE)).unwrap();
        f.write_all(b"2,1,1,X/..").unwrap();
        let mut f = OpenOptions::new().append(true).open(dir.join(GGF_FILE)).unwrap();
        f.write_all(format!("{}\n(;GM[Othello]PC[{GGF_PLACE}3]TY[", record(2)).as_bytes()).unwrap();
        let (mut store, old) = Store::open(&dir).unwrap();
        assert_eq!(old, vec![game(0), game(1)]);
        let ids = |dir: &Path| read_ggf(&dir.join(GGF_FILE)).unwrap().into_iter().map(|(id, _)| id).collect::<Vec<_>>();
        assert_eq!(ids(&dir), [0, 1]);
        store.append(&game(2), &[position(2, 0)], Some(&record(2))).unwrap();
        drop(store);
        assert_eq!(ids(&dir), [0, 1, 2]);
        assert_eq!(read_ggf(&dir.join(GGF_FILE)).unwrap()[2].1, record(2));
        let games = read_games(&dir.join(GAMES_FILE)).unwrap();
        assert_eq!(games.iter().map(|g| g.game).collect::<Vec<_>>(), [0, 1, 2]);
        let mut rows = Vec::new();
        read_positions(&dir.join(POSITIONS_FILE), |p| {
            rows.push(p);
            Ok(())
        })
        .unwrap();
        assert_eq!(rows, vec![position(0, 0), position(0, 1), position(1, 0), position(2, 0)]);
        fs::remove_dir_all(&dir).unwrap();
    }

    /// Two rows of a `positions.csv` written before `cpu` and `nodes`
    /// existed (from the fixture run `data/fixtures/selfplay-othello8`).
    const OLD_POSITIONS: &str = "game,ply,side,board,score,depth,result,disc_diff
0,0,X,X/......../......../....O.../..XOO.../..OXOX../...OO.../...XO.../........,-54,2,1.0,50
0,3,O,O/......../......../.O..O.../..OXXX../..OOXX../...OX.../...XX.../....X...,,,0.0,-50
";

    #[test]
    fn old_positions_files_read_with_no_cpu_or_nodes() {
        let dir = std::env::temp_dir().join(format!("selfplay-old-positions-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        fs::write(dir.join(POSITIONS_FILE), OLD_POSITIONS).unwrap();
        let rows = positions_in(&dir).unwrap();
        assert_eq!(rows.len(), 2);
        assert_eq!((rows[0].score, rows[0].depth, rows[0].disc_diff), (Some(-54), Some(2), 50));
        assert_eq!((rows[1].score, rows[1].depth, rows[1].result), (None, None, 0.0));
        assert!(rows.iter().all(|p| p.cpu.is_none() && p.nodes.is_none()), "{rows:?}");
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn new_positions_files_keep_cpu_and_nodes() {
        let dir = std::env::temp_dir().join(format!("selfplay-new-positions-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        let (mut store, _) = Store::open(&dir).unwrap();
        store.append(&game(0), &[position(0, 0), position(0, 1)], None).unwrap();
        drop(store);
        let text = fs::read_to_string(dir.join(POSITIONS_FILE)).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], POSITIONS_HEADER.join(","));
        assert!(lines[1].ends_with(",0.125,4321") && lines[2].ends_with(",0.125,"), "{text}");
        assert_eq!(positions_in(&dir).unwrap(), vec![position(0, 0), position(0, 1)]);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn resuming_into_an_old_positions_file_is_refused() {
        let dir = std::env::temp_dir().join(format!("selfplay-old-resume-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        let games = format!(
            "{}\n0,0,1,X/..../.OX./.XO./....,random,random,1-0,9,7,2,12,0.1,0.2,normal,\n",
            GAMES_HEADER.join(",")
        );
        fs::write(dir.join(GAMES_FILE), &games).unwrap();
        fs::write(dir.join(POSITIONS_FILE), OLD_POSITIONS).unwrap();
        let err = Store::open(&dir).err().unwrap();
        assert!(!err.contains('\n'), "one line: {err}");
        assert!(err.starts_with(&format!("{}:1: ", dir.join(POSITIONS_FILE).display())), "{err}");
        assert!(err.contains(&format!("expected `{}`", POSITIONS_HEADER.join(","))), "{err}");
        // Nothing was touched.
        assert_eq!(fs::read_to_string(dir.join(POSITIONS_FILE)).unwrap(), OLD_POSITIONS);
        assert_eq!(fs::read_to_string(dir.join(GAMES_FILE)).unwrap(), games);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_foreign_positions_header_is_refused_naming_both_headers() {
        let dir = std::env::temp_dir().join(format!("selfplay-positions-header-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        fs::write(dir.join(POSITIONS_FILE), "game,ply,side\n0,0,X\n").unwrap();
        let err = positions_in(&dir).unwrap_err();
        assert!(err.contains("positions.csv:1: expected the header `game,ply,"), "{err}");
        assert!(err.contains("disc_diff,cpu,nodes` or the older `game,"), "{err}");
        let err = Store::open(&dir).err().unwrap();
        assert!(err.contains("positions.csv:1: expected the header `game,ply,"), "{err}");
        assert!(err.contains("disc_diff,cpu,nodes`, found `game,ply,side`"), "{err}");
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_foreign_header_is_refused() {
        let dir = std::env::temp_dir().join(format!("selfplay-header-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        fs::write(dir.join(GAMES_FILE), "id,winner\n1,X\n").unwrap();
        let err = Store::open(&dir).err().unwrap();
        assert!(err.contains("games.csv:1: expected the header `game,pair,"), "{err}");
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_ggf_record_without_its_game_id_is_refused_naming_the_line() {
        let dir = std::env::temp_dir().join(format!("selfplay-ggf-id-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        let good = format!("(;GM[Othello]PC[{GGF_PLACE}0]TY[4]BO[4 ---------O*--*O------ *];)");
        fs::write(dir.join(GGF_FILE), format!("{good}\n(;GM[Othello]PC[elsewhere]TY[4];)\n")).unwrap();
        assert_eq!(ggf_game_id(&good), Some(0));
        let err = Store::open(&dir).err().unwrap();
        assert!(err.contains("games.ggf:2: expected a GGF game with PC[selfplay game ID]"), "{err}");
        fs::remove_dir_all(&dir).unwrap();
    }
}

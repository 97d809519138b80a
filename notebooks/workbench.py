"""Readers shared by the analysis notebooks: where the repository is, the
weights text format of `reversi::eval::weights`, the positional table's
symmetry classes of `reversi::eval::registry`, the logistic Elo of
`selfplay::stats`, and the per-move views of a `selfplay` run's
`positions.csv` (CPU time by game stage, search scores of one game)."""

import gzip
import math
from pathlib import Path

import numpy as np
import pandas as pd

#: Two-sided 95% normal quantile (the one `selfplay::stats` uses).
Z95 = 1.959963984540054

#: First line of a weights file after comments (`reversi::eval::weights::FORMAT_LINE`).
FORMAT_LINE = "format pattern-weights 1"

#: Tables of one value per phase (the rest are the positional table and patterns).
SCALAR_TABLES = ("mobility", "potential_mobility", "parity")

#: Side letters of Black in `positions.csv` (`selfplay::protocol`'s
#: `side_letter`): `X` in the Reversi variants, `b` in Pente. The `black`
#: column of `games.csv` names the player of these rows.
BLACK_SIDES = ("X", "b")

#: Side letters of the Reversi variants (Pente's are `w` and `b`).
REVERSI_SIDES = ("X", "O")

#: Separator of the rows of a flattened board (`selfplay::protocol::ROW_SEPARATOR`).
ROW_SEPARATOR = "/"

#: An empty cell in the board text form.
EMPTY_CELL = "."


def repo_root() -> Path:
    """The repository root: the notebooks run in `notebooks/` (Jupyter and nbmake)."""
    here = Path.cwd().resolve()
    for folder in (here, *here.parents):
        if (folder / "Cargo.toml").exists() and (folder / "notebooks").is_dir():
            return folder
    return here


def existing(path: Path) -> Path:
    """`path`, or `path.gz` when only the gzipped file exists (the fixtures)."""
    path = Path(path)
    if not path.exists() and path.with_name(path.name + ".gz").exists():
        return path.with_name(path.name + ".gz")
    return path


def read_weights(path: Path):
    """Parses a weights file (plain or gzipped): returns the variant name and
    a dict `(phase, table name) -> numpy int array`. Errors name the line."""
    path = existing(path)
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt") as f:
        lines = [(i + 1, line.strip()) for i, line in enumerate(f)]
    lines = [(n, l) for n, l in lines if l and not l.startswith("#")]
    if not lines or lines[0][1] != FORMAT_LINE:
        raise ValueError(f"{path}: line {lines[0][0] if lines else 1}: expected `{FORMAT_LINE}`")
    if len(lines) < 2 or not lines[1][1].startswith("variant "):
        raise ValueError(f"{path}: line {lines[1][0] if len(lines) > 1 else lines[0][0] + 1}: expected `variant NAME`")
    variant = lines[1][1].split()[1]
    tables, key, values = {}, None, []
    for n, line in lines[2:]:
        if line.startswith("table "):
            if key is not None:
                tables[key] = np.array(values, dtype=np.int32)
            _, phase, name = line.split()
            key, values = (int(phase), name), []
        elif key is None:
            raise ValueError(f"{path}: line {n}: expected `table PHASE NAME`")
        else:
            try:
                values.extend(int(v) for v in line.split())
            except ValueError:
                raise ValueError(f"{path}: line {n}: expected integers") from None
    if key is not None:
        tables[key] = np.array(values, dtype=np.int32)
    return variant, tables


def phases(tables) -> int:
    """Number of phases in a parsed weight set."""
    return 1 + max(phase for phase, _ in tables)


def table_names(tables) -> list:
    """Table names of a parsed weight set, in file order."""
    return list(dict.fromkeys(name for _, name in tables))


def class_index(h: int, a: int, b: int) -> int:
    """Index of the quadrant-triangle cell (a, b), a <= b < h, in row order
    (as `reversi::eval::registry`): row a holds the h - a cells b = a..h."""
    return a * h - a * max(a - 1, 0) // 2 + (b - a)


def positional_board(triangle) -> np.ndarray:
    """The positional table (one weight per symmetry class) spread over the
    whole board: cell (r, c) folds into the top-left quadrant, then onto the
    triangle row <= col."""
    length = len(triangle)
    h = int((math.isqrt(8 * length + 1) - 1) // 2)
    if h * (h + 1) // 2 != length:
        raise ValueError(f"a positional table of {length} values is not a triangle")
    n = 2 * h
    board = np.zeros((n, n), dtype=float)
    for r in range(n):
        for c in range(n):
            rr, cc = min(r, n - 1 - r), min(c, n - 1 - c)
            board[r, c] = triangle[class_index(h, min(rr, cc), max(rr, cc))]
    return board


def score_to_elo(score):
    """Logistic Elo difference of an expected score in (0, 1)."""
    return -400.0 * np.log10(1.0 / np.asarray(score, dtype=float) - 1.0)


def cumulative_elo(points):
    """Running Elo and 95% half width after each game, from one player's
    points per game (1, 0.5, 0) in order: score s = mean points, variance of
    one game's points v, interval s ± 1.96 sqrt(v / n) mapped through the
    Elo curve, half its width reported (as `selfplay::stats::Wdl::elo`).
    Infinite while a side has scored everything."""
    points = np.asarray(points, dtype=float)
    n = np.arange(1, len(points) + 1)
    s = np.cumsum(points) / n
    variance = np.cumsum(points**2) / n - s**2
    half = Z95 * np.sqrt(np.maximum(variance, 0.0) / n)
    with np.errstate(divide="ignore", invalid="ignore"):
        elo = score_to_elo(s)
        error = (score_to_elo(s + half) - score_to_elo(s - half)) / 2.0
    return s, elo, error


def empties(board: str) -> int:
    """Empty cells of a flattened Reversi board (`X/..../.OX./.XO./....`):
    the `.` after the side letter."""
    _side, _, rows = board.partition(ROW_SEPARATOR)
    return rows.count(EMPTY_CELL)


def is_reversi(positions: pd.DataFrame) -> bool:
    """True when the rows' side letters are Reversi's `X`/`O` (Pente: `w`/`b`)."""
    return positions["side"].isin(REVERSI_SIDES).all()


def game_stage(positions: pd.DataFrame):
    """How far each row's game has gone, and its axis label: empty cells in
    the Reversi variants (falling as the game goes on), plies in Pente
    (whose board is mostly empty throughout)."""
    if is_reversi(positions):
        return positions["board"].map(empties).rename("stage"), "empty cells"
    return positions["ply"].rename("stage"), "ply"


def has_values(frame: pd.DataFrame, column: str) -> bool:
    """True when `column` exists and holds at least one value (runs written
    before `cpu` and `nodes` existed have neither column)."""
    return column in frame.columns and frame[column].notna().any()


def movers(positions: pd.DataFrame, games: pd.DataFrame) -> pd.Series:
    """The player spec that moved in each row of `positions`: the game's
    `black` for Black's side letter, else its `white` (index of `positions`).
    Rows of games missing from `games` get NaN."""
    spec = games.set_index("game")[["black", "white"]]
    black = positions["game"].map(spec["black"])
    white = positions["game"].map(spec["white"])
    return black.where(positions["side"].isin(BLACK_SIDES), white).rename("player")


def cpu_per_move(positions: pd.DataFrame, games: pd.DataFrame):
    """CPU seconds charged for each recorded move with the mover's spec and
    the game stage (see `game_stage`): a frame with columns `game`, `ply`,
    `player`, `stage`, `cpu` (rows without a `cpu` value left out), and the
    stage's axis label. Empty when the run has no `cpu` column."""
    columns = ["game", "ply", "player", "stage", "cpu"]
    stage, label = game_stage(positions)
    if not has_values(positions, "cpu"):
        return pd.DataFrame(columns=columns), label
    frame = pd.DataFrame(
        {
            "game": positions["game"],
            "ply": positions["ply"],
            "player": movers(positions, games),
            "stage": stage,
            "cpu": positions["cpu"],
        }
    )
    return frame.dropna(subset=["cpu", "player"]).reset_index(drop=True), label


def cpu_by_stage(per_move: pd.DataFrame) -> pd.DataFrame:
    """Per player and stage of `cpu_per_move`'s frame: move count, mean and
    median CPU seconds (columns `player`, `stage`, `moves`, `mean`, `median`)."""
    grouped = per_move.groupby(["player", "stage"])["cpu"]
    return grouped.agg(moves="count", mean="mean", median="median").reset_index()


def game_scores(positions: pd.DataFrame, games: pd.DataFrame, game: int) -> pd.DataFrame:
    """The recorded moves of game `game` in ply order: `ply`, `side`,
    `player` and the mover's search `score` (NaN where it did not search),
    plus `depth` and, when the run has them, `cpu` and `nodes`."""
    rows = positions[positions["game"] == game].sort_values("ply")
    keep = ["ply", "side", "score", "depth"] + [c for c in ("cpu", "nodes") if c in positions.columns]
    frame = rows[keep].copy()
    frame.insert(2, "player", movers(rows, games))
    return frame.reset_index(drop=True)


# The columns of `tuner loop`'s ladder.csv (docs/src/formats/csv.md, "ladder.csv").
LADDER_CPU_COLUMNS = ["selfplay_cpu", "label_cpu", "tune_cpu", "verify_cpu"]


def read_ladder(path) -> pd.DataFrame:
    """A `tuner loop` ladder.csv with two derived columns: `cpu_hours`, the
    CPU hours of every step up to the end of the round, and
    `cumulative_error`, the 95% half width of `cumulative_elo` (the accepted
    rounds' intervals added in quadrature, as independent matches)."""
    ladder = pd.read_csv(path)
    ladder["cpu_hours"] = ladder[LADDER_CPU_COLUMNS].sum(axis=1).cumsum() / 3600.0
    accepted = ladder["accepted"].astype(bool)
    ladder["cumulative_error"] = np.sqrt((ladder["elo_error"].where(accepted, 0.0) ** 2).cumsum())
    return ladder

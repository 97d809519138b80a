"""Checks of the notebooks' readers against facts stated elsewhere: the
registry's symmetry classes, the weights file layout, and the Elo figures the
`selfplay` report printed for the same results."""

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import workbench as wb

FIXTURES = Path(__file__).resolve().parent.parent / "data" / "fixtures"


@pytest.mark.parametrize("n", [4, 6, 8, 10, 12])
def test_positional_classes_are_the_board_symmetries(n):
    h = n // 2
    triangle = np.arange(h * (h + 1) // 2)
    board = wb.positional_board(triangle)
    # Every class value appears, the board is invariant under the 8
    # symmetries of the square, and the corner class holds 4 cells.
    assert sorted(set(board.flatten().astype(int))) == list(triangle)
    for transformed in (board.T, board[::-1], board[:, ::-1], np.rot90(board)):
        assert (transformed == board).all()
    assert (board == board[0, 0]).sum() == 4
    # Row order of the triangle: row 0 is (0, 0..h), row 1 starts at (1, 1).
    assert [board[0, c] for c in range(h)] == list(range(h))
    if h > 1:
        assert board[1, 1] == h


def test_a_non_triangle_is_refused():
    with pytest.raises(ValueError):
        wb.positional_board(np.zeros(7))


@pytest.mark.parametrize("run", ["tune-othello8", "tune-duo12"])
def test_fixture_weights_follow_the_registry_layout(run):
    for name in ("start.txt", "weights.txt"):
        variant, tables = wb.read_weights(FIXTURES / run / name)
        n = {"othello8": 8, "duo12": 12}[variant]
        assert wb.phases(tables) == 6
        for (phase, table), values in tables.items():
            if table == "positional":
                assert len(values) == (n // 2) * (n // 2 + 1) // 2
            elif table in wb.SCALAR_TABLES:
                assert len(values) == 1
            else:
                cells = round(np.log(len(values)) / np.log(3))
                assert 3**cells == len(values), f"{run}/{name}: {table} of phase {phase}"


def test_a_malformed_weights_file_names_the_line(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text("# comment\nformat pattern-weights 1\nvariant othello8\ntable 0 positional\n1 2 x\n")
    with pytest.raises(ValueError, match="line 5"):
        wb.read_weights(path)


def test_elo_matches_the_selfplay_report():
    # The selfplay report of the fixture's first 40-game trial printed
    # "W-D-L 25-0-15, score 62.5%, Elo +88.7 ± 116.1"; the order of the
    # games does not change the final figures.
    points = [1.0] * 25 + [0.0] * 15
    for order in (points, points[::-1]):
        score, elo, error = wb.cumulative_elo(order)
        assert score[-1] == pytest.approx(0.625)
        assert elo[-1] == pytest.approx(88.7, abs=0.05)
        assert error[-1] == pytest.approx(116.1, abs=0.05)


def test_elo_is_infinite_while_one_side_scores_everything():
    _, elo, _ = wb.cumulative_elo([1.0, 1.0, 0.5])
    assert np.isinf(elo[:2]).all() and np.isfinite(elo[2])
    assert wb.score_to_elo(0.5) == 0.0


def test_empties_counts_the_dots_after_the_side_letter():
    assert wb.empties("X/..../.OX./.XO./....") == 12
    assert wb.empties("O/XXXX/XXXX/XXXX/XXXO") == 0


def _run_frames():
    """A two-game Reversi run in the current format: game 0 has A as Black,
    game 1 has B as Black."""
    games = pd.DataFrame({"game": [0, 1], "black": ["A", "B"], "white": ["B", "A"]})
    positions = pd.DataFrame(
        {
            "game": [0, 0, 0, 1, 1],
            "ply": [2, 0, 1, 0, 1],
            "side": ["X", "X", "O", "X", "O"],
            "board": [
                "X/..../XXO./.XO./....",
                "X/..../.OX./.XO./....",
                "O/..../XXX./.XX./....",
                "X/..../.OX./.XO./....",
                "O/..../XXX./XXO./....",
            ],
            "score": [300.0, 100.0, np.nan, -100.0, 200.0],
            "depth": [2.0, 2.0, np.nan, 1.0, 1.0],
            "result": [1.0, 1.0, 0.0, 0.5, 0.5],
            "disc_diff": [4, 4, -4, 0, 0],
            "cpu": [0.3, 0.1, 0.2, 0.4, 0.5],
            "nodes": [30.0, 10.0, np.nan, 40.0, 50.0],
        }
    )
    return positions, games


def test_movers_follow_the_side_and_the_games_colours():
    positions, games = _run_frames()
    assert list(wb.movers(positions, games)) == ["A", "A", "B", "B", "A"]
    pente = pd.DataFrame({"game": [0, 0], "side": ["w", "b"]})
    assert list(wb.movers(pente, games)) == ["B", "A"], "Pente: b is Black"


def test_cpu_per_move_by_empties_per_player():
    positions, games = _run_frames()
    per_move, label = wb.cpu_per_move(positions, games)
    assert label == "empty cells"
    assert list(per_move["player"]) == ["A", "A", "B", "B", "A"]
    assert list(per_move["stage"]) == [11, 12, 11, 12, 10]
    summary = wb.cpu_by_stage(per_move).set_index(["player", "stage"])
    assert summary.loc[("A", 12), "moves"] == 1
    assert summary.loc[("A", 11), "mean"] == pytest.approx(0.3)
    assert summary.loc[("B", 12), "median"] == pytest.approx(0.4)


def test_pente_moves_are_staged_by_ply():
    games = pd.DataFrame({"game": [0], "black": ["A"], "white": ["B"]})
    positions = pd.DataFrame(
        {"game": [0, 0], "ply": [4, 5], "side": ["w", "b"], "board": ["w/0,0/.", "b/0,0/."], "cpu": [0.1, 0.2]}
    )
    per_move, label = wb.cpu_per_move(positions, games)
    assert label == "ply"
    assert list(per_move["stage"]) == [4, 5]
    assert list(per_move["player"]) == ["B", "A"]


def test_a_run_without_the_cpu_column_gives_no_moves():
    positions, games = _run_frames()
    old = positions.drop(columns=["cpu", "nodes"])
    per_move, label = wb.cpu_per_move(old, games)
    assert per_move.empty and label == "empty cells"
    assert list(per_move.columns) == ["game", "ply", "player", "stage", "cpu"]
    assert not wb.has_values(old, "cpu") and wb.has_values(positions, "cpu")
    assert len(wb.cpu_by_stage(per_move)) == 0


def test_game_scores_are_in_ply_order_with_their_mover():
    positions, games = _run_frames()
    scores = wb.game_scores(positions, games, 0)
    assert list(scores["ply"]) == [0, 1, 2]
    assert list(scores["player"]) == ["A", "B", "A"]
    assert scores["score"].tolist()[0] == 100.0 and np.isnan(scores["score"][1])
    assert list(scores.columns) == ["ply", "side", "player", "score", "depth", "cpu", "nodes"]
    old = wb.game_scores(positions.drop(columns=["cpu", "nodes"]), games, 1)
    assert list(old.columns) == ["ply", "side", "player", "score", "depth"]


def test_the_fixture_run_reads_without_cpu_or_nodes():
    run = FIXTURES / "selfplay-othello8"
    games = pd.read_csv(run / "games.csv")
    positions = pd.read_csv(wb.existing(run / "positions.csv"))
    assert wb.is_reversi(positions)
    assert set(wb.movers(positions, games).dropna()) == {"engine:depth=1", "engine:depth=2"}
    per_move, _ = wb.cpu_per_move(positions, games)
    if not wb.has_values(positions, "cpu"):
        assert per_move.empty
    scores = wb.game_scores(positions, games, int(games["game"].iloc[0]))
    assert not scores.empty and scores["ply"].is_monotonic_increasing


def test_the_loop_ladder_adds_up():
    ladder = wb.read_ladder(FIXTURES / "loop-othello6" / "ladder.csv")
    assert list(ladder["round"]) == list(range(1, len(ladder) + 1))
    # Cumulative Elo is the running sum of the accepted rounds' Elo, as the
    # tuner wrote it (two decimals), and the CPU hours only grow.
    accepted = ladder["accepted"].astype(bool)
    assert np.allclose(ladder["cumulative_elo"], ladder["elo"].where(accepted, 0.0).cumsum(), atol=0.02)
    assert (ladder["cpu_hours"].diff().dropna() > 0).all()
    assert (ladder["wins"] + ladder["draws"] + ladder["losses"] == ladder["verify_games"]).all()
    # The current best only moves on an accepted round.
    moved = ladder["weights"] != ladder["weights"].shift(fill_value="start.txt")
    assert (moved == accepted).all()

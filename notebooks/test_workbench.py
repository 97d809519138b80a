"""Checks of the notebooks' readers against facts stated elsewhere: the
registry's symmetry classes, the weights file layout, and the Elo figures the
`selfplay` report printed for the same results."""

from pathlib import Path

import numpy as np
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

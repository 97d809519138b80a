"""The notebooks are committed without outputs (nbmake runs them fresh)."""

from pathlib import Path

import nbformat
import pytest

NOTEBOOKS = sorted(Path(__file__).parent.glob("*.ipynb"))


def test_there_are_notebooks():
    assert NOTEBOOKS, "no notebooks found next to this test"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_has_no_outputs(path):
    book = nbformat.read(path, as_version=4)
    dirty = [i for i, c in enumerate(book.cells) if c.cell_type == "code" and (c.outputs or c.execution_count is not None)]
    assert not dirty, f"{path.name}: cells {dirty} hold outputs: run python3 notebooks/clear_outputs.py"

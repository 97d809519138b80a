"""Clears the outputs and execution counts of notebooks before a commit:
`python3 notebooks/clear_outputs.py` (all notebooks here) or with paths."""

import sys
from pathlib import Path

import nbformat


def clear(path: Path) -> bool:
    """Clears `path` in place; True when it held outputs."""
    book = nbformat.read(path, as_version=4)
    dirty = False
    for cell in book.cells:
        if cell.cell_type == "code" and (cell.outputs or cell.execution_count is not None):
            cell.outputs, cell.execution_count = [], None
            dirty = True
    if dirty:
        nbformat.write(book, path)
    return dirty


if __name__ == "__main__":
    paths = [Path(p) for p in sys.argv[1:]] or sorted(Path(__file__).parent.glob("*.ipynb"))
    for path in paths:
        if clear(path):
            print(f"cleared {path}")

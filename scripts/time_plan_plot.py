#!/usr/bin/env python3
"""The time plan's plot: mean CPU seconds per move against the empties left,
for each player of one or more duo12 runs (notebooks/workbench.py reads them).

usage: python3 scripts/time_plan_plot.py OUT.png RUN_DIR[=LABEL]...

It drew docs/src/images/time-plan-duo300.png (data/time-plan/README.md).
"""
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "notebooks"))
import workbench as wb  # noqa: E402

BIN = 8  # empties per point


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__.strip())
    fig, ax = plt.subplots(figsize=(9, 4.5))
    for arg in argv[2:]:
        run, _, label = arg.partition("=")
        games = pd.read_csv(Path(run) / "games.csv")
        positions = pd.read_csv(Path(run) / "positions.csv")
        per_move, axis = wb.cpu_per_move(positions, games)
        per_move["bin"] = (per_move["stage"] // BIN) * BIN
        for player, moves in per_move.groupby("player"):
            mean = moves.groupby("bin")["cpu"].mean()
            name = player.split("/")[-2] if "/" in player else player
            ax.plot(mean.index, mean.values, marker="o", label=f"{label or run}: {name}")
    ax.invert_xaxis()
    ax.set_xlabel(f"{axis} (bins of {BIN})")
    ax.set_ylabel("mean CPU seconds per move")
    ax.set_title("duo12, 300 s a game: time per move through the game")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(argv[1], dpi=90)


if __name__ == "__main__":
    main(sys.argv)

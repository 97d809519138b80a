"""Writes position files (the position text form: the side to move, then
the rows) of a seeded sample of a selfplay run's positions.csv, COUNT per
number of empties from LOW to HIGH, named eEE-II.txt, for
`analyze --fit-endgame` and `analyze --exact` on boards OBF cannot hold.

    python3 scripts/sample_positions.py RUN/positions.csv OUT_DIR LOW HIGH COUNT SEED

It wrote the positions of data/endgame-fit (data/endgame-fit/README.md).
"""
import csv
import os
import random
import sys


def main():
    source, out, low, high, count, seed = sys.argv[1:7]
    low, high, count = int(low), int(high), int(count)
    by_empties, seen = {}, set()
    with open(source, newline="") as f:
        for row in csv.DictReader(f):
            board = row["board"]
            empties = board.count(".")
            if low <= empties <= high and board not in seen:
                seen.add(board)
                by_empties.setdefault(empties, []).append(board)
    rng = random.Random(int(seed))
    os.makedirs(out, exist_ok=True)
    for empties in sorted(by_empties):
        boards = by_empties[empties]
        for i, board in enumerate(rng.sample(boards, min(count, len(boards)))):
            with open(os.path.join(out, f"e{empties:02d}-{i:02d}.txt"), "w") as f:
                f.write(board.replace("/", "\n") + "\n")


if __name__ == "__main__":
    main()

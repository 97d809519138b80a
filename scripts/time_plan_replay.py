#!/usr/bin/env python3
"""What-if replay of a duo12 time plan over recorded selfplay games.

usage: python3 scripts/time_plan_replay.py RUN_DIR NEEDLE BUDGET [NAME=VALUE...]

(data/time-plan/README.md has its figures: the replay table of
data/time-plan/duo300-9381a9d and data/time-plan/duo300-879c2cc/replay.txt.)

For each game, the moves of the player whose spec contains NEEDLE (with a
leading `!`: whose spec lacks the rest, for two specs one of which extends
the other) are replayed: under the recorded plan (registry defaults of the run's build,
`time.overrun=1`) each searched move's overrun is its CPU time over the
plan's target; under the plan set by NAME=VALUE (the `time.*` names without
the prefix, e.g. `overrun=1.4 safety=0.08`) each such move spends the same
overrun times its new target, capped at its new hard limit. Exact solves
and moves under 16 empties keep their recorded cost. Prints, per game, the
share of the budget used and the moves with >= 16 empties under a third of
the game's mean (issue 14's rule: forced moves, recorded without a depth,
do not count; exact solves marked `exact`), then the
totals. With no NAME=VALUE it reports the recorded games as they are.

The plan below mirrors `reversi::search::TimePlan::from_clock` and
`reversi::search::moves_ahead` (duo12, no calibration file); it ignores the
program's per-move reserve of a few milliseconds.
"""
import csv
import math
import sys

CELLS = 144
RESERVE = 0.004
SOLVE_PLIES_AT_ONE_SECOND, SOLVE_PLIES_PER_DOUBLING = 17.0, 0.65
SHORT_FROM_EMPTIES = 16
RECORDED = dict(safety=0.06, extra_moves=3.0, peak_bonus=0.6, peak_progress=0.55,
                peak_spread=0.55, endgame_moves=2.0, hard_factor=3.0, hard_fraction=0.2,
                overrun=1.0)


def weight(progress, p):
    x = (progress - p['peak_progress']) / p['peak_spread']
    return 1 + p['peak_bonus'] * max(0.0, 1 - x * x)


def plan(remaining, empties, p):
    """(target, hard) of a move with `remaining` seconds and `empties`."""
    progress = 1 - empties / CELLS
    hard_guess = remaining * (1 - p['safety']) / (empties / 2 + p['extra_moves']) * p['hard_factor']
    solve = min(int(max(0.0, SOLVE_PLIES_AT_ONE_SECOND
                        + SOLVE_PLIES_PER_DOUBLING * math.log2(max(hard_guess, 1e-6)))), empties)
    midgame = max((empties - solve) / 2, 1.0)
    final = progress + (1 - progress) * (empties - solve) / max(empties, 1)
    endgame = p['endgame_moves'] if solve > 0 else 0.0
    usable = max(remaining * (1 - p['safety']) - RESERVE, 0.0)
    n = min(max(math.ceil(midgame), 1), 64)
    mean = sum(weight(progress + (0 if n == 1 else i / (n - 1)) * (final - progress), p)
               for i in range(n)) / n
    total = midgame * mean + (endgame + p['extra_moves']) * weight(final, p)
    share = usable * weight(progress, p) / max(total, 1.0) / p['overrun']
    hard = min(share * p['hard_factor'], usable * p['hard_fraction'])
    return min(share, hard), hard


def main(argv):
    run, needle, budget = argv[1], argv[2], float(argv[3])
    params = dict(RECORDED)
    for kv in argv[4:]:
        name, value = kv.split('=')
        if name not in params:
            sys.exit(f"replay.py: unknown parameter `{name}`: expected one of {', '.join(params)}")
        params[name] = float(value)
    def matches(spec):
        return needle[1:] not in spec if needle.startswith('!') else needle in spec

    games = {r['game']: r for r in csv.DictReader(open(f'{run}/games.csv'))}
    rows = list(csv.DictReader(open(f'{run}/positions.csv')))
    uses, shorts = [], 0
    for gid in sorted(games, key=int):
        side = 'X' if matches(games[gid]['black']) else 'O' if matches(games[gid]['white']) else None
        moves = [(r['board'].count('.'), float(r['cpu']), r['depth'])
                 for r in rows if r['game'] == gid and r['side'] == side]
        if not moves:
            continue
        left, spent = budget, []
        recorded_left = budget
        for empties, cpu, depth in moves:
            target, _ = plan(recorded_left, empties, RECORDED)
            recorded_left -= cpu
            overrun = cpu / max(target, 1e-3)
            kept = empties < SHORT_FROM_EMPTIES or not depth or int(depth) >= empties
            new_target, new_hard = plan(left, empties, params)
            cost = cpu if kept or len(argv) == 4 else min(overrun * new_target, new_hard)
            exact = bool(depth) and int(depth) >= empties
            spent.append((empties, cost, exact, not depth))
            left -= cost
        total = sum(c for _, c, _, _ in spent)
        mean = total / len(spent)
        short = [f"{e}:{c:.2f}{' exact' if x else ''}" for e, c, x, forced in spent
                 if e >= SHORT_FROM_EMPTIES and c < mean / 3 and not forced]
        uses.append(100 * total / budget)
        shorts += len(short)
        print(f"game {gid}: {uses[-1]:.1f}% of the budget, mean {mean:.2f} s, short {' '.join(short) or 'none'}")
    if uses:
        print(f"all: {min(uses):.1f}-{max(uses):.1f}% of the budget, {shorts} short moves")


if __name__ == '__main__':
    main(sys.argv)

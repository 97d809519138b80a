"""Completed search depth by empties and nodes per CPU second, per program.

usage: python3 scripts/depth_by_empties.py RUN... (selfplay run folders; their
games.csv and positions.csv are read together, e.g. the shards of one match)

It wrote the depth.txt summaries of data/search-speed/duo12-tc30-73d321f and
data/duo12-tc300-classic (and the depth table of
data/search-speed/duo12-tc300-977c513/README.md).
"""
import csv
import statistics
import sys

BANDS = [(100, 10**6), (60, 100), (30, 60), (0, 30)]  # empties, low <= e < high

games, rows = {}, []
for run in sys.argv[1:]:
    for g in csv.DictReader(open(f'{run}/games.csv')):
        games[(run, g['game'])] = g
    for p in csv.DictReader(open(f'{run}/positions.csv')):
        p['run'] = run
        rows.append(p)
per = {}
for p in rows:
    g = games.get((p['run'], p['game']))
    if g is None or not (p['depth'] and p['nodes'] and p['cpu']):
        continue
    prog = g['black'] if p['side'] == 'X' else g['white']
    d = per.setdefault(prog, {'depth': {b: [] for b in BANDS}, 'nodes': 0, 'cpu': 0.0})
    empties = p['board'].count('.')
    for low, high in BANDS:
        if low <= empties < high:
            d['depth'][(low, high)].append(int(p['depth']))
    d['nodes'] += int(p['nodes'])
    d['cpu'] += float(p['cpu'])
for prog, d in per.items():
    print(prog)
    for (low, high), v in d['depth'].items():
        label = f'{low}+' if high == 10**6 else f'{low}-{high - 1}'
        if v:
            print(f'  empties {label}: moves {len(v)} median depth {statistics.median(v)} mean {statistics.mean(v):.1f}')
    print(f"  nodes per CPU second {d['nodes'] / d['cpu'] / 1e6:.2f} M over {d['cpu']:.0f} s")

"""Compares `analyze` outputs of the same positions: sums nodes and seconds
over the positions both files have and counts the positions where OTHER
needed fewer nodes (and any whose score differs).

usage: python3 scripts/compare_solves.py BASE OTHER...

It made the sigma table of data/search-speed/status-2026-12-03-sigma/README.md
(e.g. `python3 scripts/compare_solves.py e26-sigma6.97.txt e26-sigma5.5.txt`
in that folder).
"""
import sys,re
def load(f):
    d={}
    for l in open(f):
        m=re.match(r'position (\d+) depth \d+ score (\S+) move (\S+) nodes (\d+) seconds (\S+)',l)
        if m: d[int(m[1])]=(m[2],int(m[4]),float(m[5]))
    return d
base=load(sys.argv[1])
for f in sys.argv[2:]:
    o=load(f); ks=sorted(set(base)&set(o))
    bn=sum(base[k][1] for k in ks); on=sum(o[k][1] for k in ks)
    bs=sum(base[k][2] for k in ks); os_=sum(o[k][2] for k in ks)
    wrong=[k for k in ks if base[k][0]!=o[k][0]]
    better=sum(1 for k in ks if o[k][1]<base[k][1])
    print(f"{f}: {len(ks)} positions, nodes {on/1e6:.0f} M vs {bn/1e6:.0f} M ({100*(on/bn-1):+.1f}%), seconds {os_:.1f} vs {bs:.1f}, fewer nodes in {better}, score differs {wrong}")

import statistics
import sys
import time

from sudoku.grid import parse_string
from sudoku.reduction import empty_grid_problem, givens

name=sys.argv[1]; n=int(sys.argv[2])
lines=[l.strip() for l in open(f'/work/shared/data/sudoku/{name}') if l.strip() and not l.startswith('#')][:n]
configs = {"plain": {}, "w": dict(weighted=True), "la": dict(lookahead=30), "w+la": dict(weighted=True, lookahead=30),
           "w+r": dict(weighted=True, restarts=1000, seed=0), "w+la+r": dict(weighted=True, lookahead=30, restarts=1000, seed=0)}
probs=[]
for l in lines:
    geo, values = parse_string(l)
    p = empty_grid_problem(geo.layout); probs.append((p, givens(geo, values)))
for c, kw in configs.items():
    p,f=probs[0]; p.first(forced=f, backend='numba', **kw)
    nodes=[]; t=time.process_time()
    for p, f in probs:
        r = p.first(forced=f, backend='numba', timeout=20, **kw); assert r is not None
        nodes.append(p.stats.nodes)
    print(name, c, "total nodes", sum(nodes), "median", statistics.median(nodes), "max", max(nodes), "cpu s", round(time.process_time()-t, 3), flush=True)

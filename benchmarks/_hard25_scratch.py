import sys
import time

from sudoku.grid import parse_string
from sudoku.reduction import empty_grid_problem, givens

lines=[l.strip() for l in open('/work/shared/data/sudoku/gecode_25x25.txt') if l.strip()]
kw = eval(sys.argv[1]); cap=float(sys.argv[2]); which = eval(sys.argv[3]) if len(sys.argv)>3 else range(len(lines))
for k in which:
    geo, values = parse_string(lines[k])
    p = empty_grid_problem(geo.layout)
    f = givens(geo, values)
    t=time.process_time(); w=time.time()
    r = p.first(forced=f, timeout=cap, backend='numba', **kw)
    print(k, r is not None, p.stats.nodes, p.stats.restarts, round(time.process_time()-t,2), round(time.time()-w,2), flush=True)

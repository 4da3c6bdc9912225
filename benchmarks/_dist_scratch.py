import sys
import time

from sudoku.grid import parse_string
from sudoku.reduction import empty_grid_problem, givens

lines=[l.strip() for l in open('/work/shared/data/sudoku/gecode_25x25.txt') if l.strip()]
k=int(sys.argv[1]); w = sys.argv[2]=='w'; cap=int(sys.argv[3]); n=int(sys.argv[4])
geo, values = parse_string(lines[k])
p = empty_grid_problem(geo.layout); f = givens(geo, values)
found=[]
t=time.process_time()
for s in range(n):
    r = p.first(forced=f, backend='numba', seed=s, weighted=w, max_nodes=cap)
    if r is not None: found.append((s, p.stats.nodes))
print(k, w, found, time.process_time()-t)

import cProfile
import pstats

from sudoku.grid import parse_string
from sudoku.reduction import empty_grid_problem, givens

lines=[l.strip() for l in open('/work/shared/data/sudoku/gecode_25x25.txt') if l.strip()]
geo, values = parse_string(lines[0])
p = empty_grid_problem(geo.layout); f = givens(geo, values)
p.first(forced=f, backend='numba', weighted=True, restarts=100, max_nodes=1000)
cProfile.run("p.first(forced=f, backend='numba', weighted=True, restarts=100, max_nodes=20000)", "/tmp/prof.out")
print(p.stats)
pstats.Stats("/tmp/prof.out").sort_stats("cumtime").print_stats(18)

"""A first call without the wait (issue 44, part 3): what a new process pays before its
first numba search, and ``auto``'s early move to numba.

No clock is read here: the tests hold the behaviour that the timings rest on (numba's
disk-cache load sets up only its runtime; a search that the tree-size estimate says is
long moves at once; one that ends soon never loads numba), and that results never depend
on which backend ran.
"""

from __future__ import annotations

import subprocess
import sys

from backends import needs_numba

from dlx.problems import queens


def _fresh(code: str) -> subprocess.CompletedProcess:
    """``code`` in a new Python process (numba's disk cache as this machine has it)."""
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=600, check=False)


@needs_numba
def test_a_cache_load_sets_up_only_numbas_runtime_and_numba_still_compiles():
    """A kernel loaded from numba's disk cache does not import numba's lowering of every
    feature (``numba.np.arraymath`` among them: ~0.1-0.25 s of a fresh process); a
    compile afterwards, of the user's own function, gets it all, and runs."""
    queens(6).count(backend="numba")  # fills the cache, if this machine had none
    code = """if True:
        import sys
        from dlx.problems import queens
        assert queens(6).count(backend="numba") == 4
        print("arraymath" if "numba.np.arraymath" in sys.modules else "lean")
        import numba, numpy as np

        @numba.njit
        def f(a):
            return np.sum(np.sqrt(a)) + len(str(12))

        print(f(np.array([1.0, 4.0, 9.0])))
        assert queens(7).count(backend="numba") == 40
    """
    out = _fresh(code)
    assert out.stdout.split() == ["lean", "8.0"], out.stderr

"""The kernels: one module per search, each declaring itself once, one recipe for all.

======================  ==================================================================
``algorithm_c``         Algorithm C (X with colors) on dancing links: Knuth's DLX1/DLX2
``lookahead``           item domination at every node (``lookahead=K``), C's ``REDUCE``
``record``              the batch protocol: a record's layout, ``begin``, ``record``
``batch``               the batch driver ``search_batch``, over any kernel's steps
``algorithm_m``         Algorithm M: multiplicities (DLX3) and costs (DLX5's bound)
``unrolled``            Algorithm X unrolled for CPython (problems without colors)
``bits``                Algorithm X over Python ints as bitsets (long lists, few items)
``words``               compiled batches of small problems over bit words
``memo``, ``parts``     DLX6's memoized search to a ZDD, and its independent parts
``cells``               dancing cells (Knuth's SSXCC)
``zdd``                 the canonical ZDD store's set algebra
``frontier``            the top-down (frontier-based) construction of a solution set
``cdcl``                conflict-driven clause learning (``learn=True``), a package
``codes``, ``declare``  the statuses and pause codes; the declaration and the recipe
======================  ==================================================================

**Which kernel runs.** One function decides, [`kernel_for`][]; the python backend's
``kernel``, the numba backend's ``kernel`` and ``batch`` (and so ``auto``'s move from one
to the other mid-search, which asks the numba backend) all call it:

===================  ==============================  ===================================
problem, use         python                          numba
===================  ==============================  ===================================
plain                ``bits`` if its lists are long  ``algorithm_c`` (``COLORS`` False)
                     ([`dlx.kernels.bits.bits_pay`][]),
                     else ``unrolled``
colors               ``algorithm_c``                 ``algorithm_c``
multiplicities       ``algorithm_m``                 ``algorithm_m``
costs                ``algorithm_m``                 ``algorithm_m``
weighted, lookahead  ``algorithm_c`` (switched on)   ``algorithm_c`` (switched on)
batch                the search's, one instance at   ``words`` if small and plain
                     a time ([`dlx.search.Search`][])  ([`dlx.kernels.words.fits`][]),
                                                     else the search's (its borrowed
                                                     ``search_batch``)
one call             as a batch                      as a batch
memo                 ``memo``                        ``memo``
learning             ``cdcl``                        ``cdcl``
cells                ``cells``                       ``cells``
===================  ==============================  ===================================

(Over python, a kernel's lists are a ``bytearray`` where every list is shorter than 128.
The numba ``algorithm_c`` walks in ``choose`` past ``SCAN_ITEMS`` primary items: its
``WALK`` switch.) The memoized search, the learner and dancing cells are asked for by
name (``count_memo``, ``learn=True``, ``backend="cells"``): their rows are no choice.

**Adding a kernel** (``tests/dlx/kernels/test_declarations.py`` holds the recipe):

1. One module here, written once for both backends: integer arrays, indexing and
   arithmetic only, steps labelled as its source labels them (Knuth's, or its own
   letters where they would clash: DLX6's memo steps are D1-D8, never M's).
2. Its state: a named tuple of arrays, each explained once where it is defined; its
   registers a table of names, read as ``REG_<name>`` (``S.REG[REG_LEVEL]``), never bare
   numbers, and tuning constants apart from them; statuses from [`codes`][] (a new
   pause goes into [`dlx.kernels.codes.Pause`][]).
3. At its end, ``DECLARATION = Declaration(...)`` ([`dlx.kernels.declare.Declaration`][]):
   its functions, entry points with their arguments' kinds, compile switches, state,
   registers, what it borrows (the batch driver, another kernel's steps) and its numba
   options. A call into another kernel's steps is an import, or a borrowed module.
4. Its name in [`KERNELS`][]; the recipe then makes it on each backend:
   [`dlx.kernels.declare.namespace`][] (python: as written, or with switches re-bound),
   [`dlx.jit.numba_namespace`][] and [`dlx.jit.compile_entry`][] (numba: wrapped, tagged
   for the disk cache, compiled for the signature its declaration derives).
5. A row in the table above and in [`kernel_for`][], if it is ever chosen for a problem;
   its tests, a file of ``tests/dlx/kernels/`` named after it.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, NamedTuple

from .declare import Declaration

if TYPE_CHECKING:
    from ..links import Links

__all__ = ["KERNELS", "Choice", "declaration", "kernel_for"]

KERNELS: tuple[str, ...] = ("lookahead", "record", "batch", "algorithm_c", "algorithm_m",
                            "unrolled", "bits", "words", "parts", "memo", "cells", "zdd",
                            "frontier", "cdcl")
"""Every module that declares a kernel or a piece of one (``DECLARATION``)."""

USES = ("search", "batch", "one_call", "memo", "learn", "cells")
"""What a problem is searched for: [`kernel_for`][]'s ``use``."""


def declaration(name: str) -> Declaration:
    """The declaration of the kernel module ``name`` (one of [`KERNELS`][])."""
    return importlib.import_module(f"{__name__}.{name}").DECLARATION


class Choice(NamedTuple):
    """The kernel that searches a problem: its module and its switches for the problem."""

    module: str
    switches: tuple[tuple[str, object], ...] = ()


def kernel_for(links: Links, backend: str, use: str = "search", *, weighted: bool = False,
               reduce: bool = False) -> Choice:
    """THE choice of kernel (the table above): which kernel ``backend`` (``python`` or
    ``numba``) runs for ``links`` searched for ``use`` ([`USES`][]), with the strategy
    switches ``weighted`` (the weighted choice) and ``reduce`` (the lookahead)."""
    if use in ("memo", "learn", "cells"):
        return Choice({"memo": "memo", "learn": "cdcl", "cells": "cells"}[use])
    if use in ("batch", "one_call") and backend == "numba" and not (weighted or reduce):
        from .words import fits

        if fits(links):
            return Choice("words")
    if links.mcc:  # the strategies are refused for these problems (ExactCover.solutions)
        return Choice("algorithm_m", (("COLORS", links.colored),) if backend == "numba"
                      else ())
    if backend == "python":
        from .bits import bits_pay

        small = links.max_len < 128
        if weighted or reduce:
            return Choice("algorithm_c", (("SMALL", small), ("WEIGHTED", weighted),
                                          ("REDUCE", reduce)))
        if bits_pay(links):
            return Choice("bits")
        return Choice("unrolled" if not links.colored else "algorithm_c", (("SMALL", small),))
    from .algorithm_c import SCAN_ITEMS

    walk = links.n_primary + 1 > SCAN_ITEMS and not weighted
    return Choice("algorithm_c", (("COLORS", links.colored), ("WALK", walk),
                                  ("WEIGHTED", weighted), ("REDUCE", reduce)))

"""The kernels package's recipe (`dlx.kernels`, "Adding a kernel"), held: every kernel
module declares itself, the one recipe builds each declared kernel on each of its
backends, registers are named tables, and `kernel_for` is the package's table."""

from __future__ import annotations

import importlib
import pkgutil
import re
from pathlib import Path

import pytest

import dlx.kernels
from dlx import Colored, ExactCover
from dlx.kernels import KERNELS, declaration, kernel_for
from dlx.kernels.declare import Declaration, namespace, signature
from dlx.problems import langford, queens
from tests.helpers.backends import needs_numba

HERE = Path(__file__).parent
NOT_KERNELS = {"codes", "declare"}
"""Modules of the package that are no kernel: the statuses and the recipe itself."""
PIECES = {"lookahead", "record", "batch"}
"""Pieces of other kernels (borrowed by them), tested through them."""
BARE_REGISTERS: set[str] = set()
"""Kernels that name their registers without ``REG_``: none (issue 41 renamed the memo's,
the parts', the cells' and the ZDD algebra's)."""


def test_every_module_is_a_declared_kernel():
    modules = {m.name for m in pkgutil.iter_modules(dlx.kernels.__path__)}
    assert modules - NOT_KERNELS == set(KERNELS)
    for name in KERNELS:
        decl = declaration(name)
        assert isinstance(decl, Declaration) and decl.module == name
        module = importlib.import_module(f"dlx.kernels.{name}")
        for f in decl.functions:
            assert callable(getattr(module, f, None)) or decl.merged is not None, (name, f)
        functions = decl.all_functions()
        assert set(decl.entries) <= set(functions) or decl.merged is not None, name
        assert set(decl.borrows) <= set(KERNELS) - {name}


@pytest.mark.parametrize("name", KERNELS)
def test_registers_are_a_table(name):
    """Each register one name and one slot; a module that names a slot says its number
    (``REG_<name>``, or the bare name for the kernels of `BARE_REGISTERS`)."""
    decl = declaration(name)
    module = importlib.import_module(f"dlx.kernels.{name}")
    assert len(set(decl.registers)) == len(decl.registers)
    bare = False
    for i, reg in enumerate(decl.registers):
        named = getattr(module, f"REG_{reg}", None)
        if named is not None:
            assert named == i, (name, reg)
        value = getattr(module, reg, None)
        if named is None and type(value) is int and value == i:
            bare = True
    assert bare == (name in BARE_REGISTERS)


@pytest.mark.parametrize("name", KERNELS)
def test_the_recipe_makes_each_kernel_in_python(name):
    decl = declaration(name)
    made = namespace(decl)
    for f in decl.all_functions():
        assert callable(getattr(made, f)), (name, f)


@needs_numba
@pytest.mark.parametrize("name", KERNELS)
def test_the_recipe_derives_each_entrys_numba_signature(name):
    decl = declaration(name)
    if "numba" not in decl.backends or decl.on_call:
        return  # the learner's array types are the problem's: signed on each call
    for entry, kinds in decl.entries.items():
        assert len(signature(decl, entry)) == len(kinds)


@pytest.mark.parametrize("name", sorted(set(KERNELS) - PIECES))
def test_each_kernel_has_its_tests(name):
    assert (HERE / f"test_{name}.py").is_file()


def test_kernel_for_is_the_table():
    """The package docstring's table, row by row, on problems of each shape."""
    plain, wide = queens(8).links, langford(9).links
    colored = ExactCover([["a", Colored("x", 1)], ["b", Colored("x", 2)], ["b"]],
                         secondary=["x"]).links
    bounded = ExactCover([["a"], ["a"], ["b"]], multiplicity={"a": (1, 2)}).links
    assert kernel_for(plain, "numba").module == "algorithm_c"
    assert kernel_for(colored, "numba").module == kernel_for(colored, "python").module \
        == "algorithm_c"
    assert kernel_for(bounded, "python").module == kernel_for(bounded, "numba").module \
        == "algorithm_m"
    assert kernel_for(wide, "python").module in ("bits", "unrolled")
    small = ExactCover([["a", "b"], ["a"], ["b"]]).links
    assert kernel_for(small, "python").module == "unrolled"
    assert kernel_for(plain, "numba", "batch").module == "words"
    assert kernel_for(plain, "numba", "one_call").module == "words"
    assert kernel_for(plain, "numba", "batch", reduce=True).module == "algorithm_c"
    assert dict(kernel_for(plain, "python", weighted=True).switches)["WEIGHTED"] is True
    for use, module in (("memo", "memo"), ("learn", "cdcl"), ("cells", "cells")):
        for backend in ("python", "numba"):
            assert kernel_for(plain, backend, use).module == module
    table = (dlx.kernels.__doc__ or "").split("**Which kernel runs.**")[1]
    named = set(re.findall(r"``(\w+)``", table.split("**Adding a kernel**")[0]))
    assert named & set(KERNELS) == {"algorithm_c", "algorithm_m", "bits", "unrolled",
                                    "words", "memo", "cdcl", "cells", "batch"}

"""What a kernel declares, and the one recipe that makes a backend's kernel from it.

Every kernel module ends with a [`Declaration`][] (``DECLARATION``): its functions, the
modules it borrows functions from, its entry points and their arguments, its compile
switches, its state (a named tuple, with the dtypes of its arrays) and its registers.
[`namespace`][] re-creates the functions over one namespace (the python backend's
kernels: switches or helpers re-bound; the numba backend's: each wrapped by numba),
[`signature`][] derives an entry point's numba signature, and [`sources`][] what the
disk cache's tag hashes. Nothing here imports numba.
"""

from __future__ import annotations

import importlib
import inspect
import types
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Declaration", "namespace", "signature", "sources"]


@dataclass(frozen=True)
class Declaration:
    """One kernel, declared once, in its own module (``DECLARATION``)."""

    module: str
    """The kernel's module, under ``dlx.kernels`` (``"algorithm_c"``, ``"cdcl"``)."""
    functions: tuple[str, ...]
    """Its functions that the recipe re-creates (those of ``borrows`` are added)."""
    entries: Mapping[str, str]
    """Its entry points, each with its arguments' kinds: ``S`` the state, ``a`` an
    int64 array, ``i`` an int64, ``b`` a uint8 array, ``l`` an int32 array, ``f`` a
    float64 array."""
    state: Any
    """The named tuple of its arrays (the first argument ``S``)."""
    registers: tuple[str, ...]
    """The names of ``REG``'s slots, in order (the kernel reads ``REG_<name>``)."""
    borrows: tuple[str, ...] = ()
    """Modules under ``dlx.kernels`` whose functions run over this kernel's namespace
    (their globals first, this module's over them): the batch driver, Algorithm C's
    steps. A call into another kernel's steps is one of these, or an import."""
    switches: Mapping[str, Any] = field(default_factory=dict)
    """Its compile switches (global constants a twin re-binds) and their defaults."""
    dtypes: Callable[[], tuple[str, ...]] | None = None
    """The dtype of each array of ``state``; None: all int64. (The learner's vary with
    the problem: its entry points compile on each call with new ones, ``on_call``.)"""
    inline: frozenset[str] = frozenset()
    """Functions numba inlines into their callers (``inline="always"``)."""
    options: Mapping[str, Any] = field(default_factory=dict)
    """More numba options (``_nrt``: no reference counting)."""
    on_call: bool = False
    """Compile each entry point on its first call with new array types (the learner)."""
    backends: tuple[str, ...] = ("python", "numba")
    """The backends that run it (the unrolled and the bitset kernels are CPython's
    only; the bit words numba's)."""
    merged: Callable[[], dict[str, Any]] | None = None
    """The kernel's globals, for a package of modules (the learner's
    [`dlx.kernels.cdcl.namespace`][]); None: its modules' globals, as ``borrows`` says."""

    def modules(self) -> tuple[types.ModuleType, ...]:
        """The modules whose globals make the namespace: ``borrows``, then its own."""
        return tuple(importlib.import_module(f"dlx.kernels.{m}")
                     for m in (*self.borrows, self.module))

    def all_functions(self) -> tuple[str, ...]:
        """Every function re-created: the borrowed modules', then its own (no repeats)."""
        names: dict[str, None] = {}
        for m in self.modules()[:-1]:
            names.update(dict.fromkeys(m.DECLARATION.all_functions()))
        names.update(dict.fromkeys(self.functions))
        return tuple(names)


def globals_of(decl: Declaration) -> dict[str, Any]:
    """The merged globals of ``decl``'s modules (its own last), or its ``merged()``."""
    if decl.merged is not None:
        return decl.merged()
    merged: dict[str, Any] = {}
    for m in decl.modules():
        merged.update(vars(m))
    return merged


def namespace(decl: Declaration, overrides: Mapping[str, Any] | None = None,
              wrap: Callable[[Any], Any] = lambda f: f) -> types.SimpleNamespace:
    """THE recipe: ``decl``'s functions re-created from their code over one namespace,
    its modules' globals with ``overrides`` (switches, or functions that replace the
    kernel's own), each function passed through ``wrap`` (numba's, for the compiled
    backend). Its constants stay readable (``INACTIVE``)."""
    overrides = dict(overrides or {})
    merged = {**globals_of(decl), **overrides}
    names = decl.all_functions()
    for name in names:
        if name not in overrides:
            f = merged[name]
            merged[name] = wrap(types.FunctionType(f.__code__, merged, name))
    return types.SimpleNamespace(**{k: v for k, v in merged.items() if not k.startswith("__")})


def signature(decl: Declaration, name: str, dtypes: tuple[Any, ...] | None = None) -> tuple:
    """numba's signature of the entry point ``name``: the state a named tuple of its
    arrays (``dtypes``, else the declared ones), the rest as ``entries`` says."""
    import numba
    import numpy as np

    def array(dtype: Any) -> Any:
        return numba.types.Array(numba.from_dtype(np.dtype(dtype)), 1, "C")

    state = decl.state
    kinds = dtypes or (decl.dtypes() if decl.dtypes else ("int64",) * len(state._fields))
    arrays = [array(d) for d in kinds]
    S: Any = (numba.types.NamedUniTuple(arrays[0], len(arrays), state)
              if all(a == arrays[0] for a in arrays) else numba.types.NamedTuple(arrays, state))
    narrow = next((d for d in kinds if np.dtype(d) != np.int64), "int32")
    kind = {"S": S, "a": array("int64"), "i": numba.types.int64, "b": array("uint8"),
            "l": array(narrow),  # l: the state's narrower arrays, packed in one
            "f": array("float64")}
    return tuple(kind[k] for k in decl.entries[name])


def sources(decl: Declaration) -> tuple[str, list[tuple[str, Any]]]:
    """What the disk cache's tag hashes of ``decl``: the source of every module its
    namespace is made of (a module without its source, which numba could not cache
    either, counts by its name), and their public int and float constants."""
    modules = list(decl.modules())
    if decl.merged is not None:
        package = modules[-1]
        modules += [m for m in vars(package).values() if isinstance(m, types.ModuleType)
                    and m.__name__.startswith(package.__name__ + ".")]

    def source(m: types.ModuleType) -> str:
        try:
            return inspect.getsource(m)
        except (OSError, TypeError):
            return m.__name__

    constants = sorted((f"{m.__name__}.{k}", v) for m in modules for k, v in vars(m).items()
                       if isinstance(v, (int, float)) and not k.startswith("_"))
    return "".join(source(m) for m in modules), constants

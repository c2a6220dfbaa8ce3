"""Kernels with one rule deliberately changed, for the tests that must catch them.

A mutant is the kernel's source with one piece of text replaced, imported as its own module.
Compiling a whole kernel takes numba many seconds, so a mutant compiles only what the change
reaches: each compiled function whose source, constants and callees are all the kernel's own
is the kernel's compiled function (compiled once per process and shared by every mutant);
the function the change is in, and every compiled function that calls it, directly or
through others, is compiled from the mutant's source.
"""

from __future__ import annotations

import importlib.util
import inspect
import sys
from pathlib import Path
from types import CodeType, ModuleType
from typing import Any

import pytest

np = pytest.importorskip("numpy")
numba_dispatcher = pytest.importorskip("numba.core.dispatcher")


def mutant_folder(request: pytest.FixtureRequest, tmp_path: Path, label: str) -> Path:
    """Where mutants are kept: pytest's cache when it is on (so numba's cache of them stays
    valid from run to run), else the test's own temporary folder."""
    cache = getattr(request.config, "cache", None)  # none without the cacheprovider plugin
    return cache.mkdir(label) if cache is not None else tmp_path


def compile_mutant(kernel: ModuleType, old: str, new: str, name: str, folder: Path) -> ModuleType:
    """The kernel's source with ``old`` replaced by ``new``, compiled as its own module named
    ``name``. The file is rewritten only when the kernel changes.

    The module's ``RECOMPILED`` names its compiled functions that differ from the kernel's
    (the others are the kernel's own)."""
    source = Path(str(kernel.__file__)).read_text()
    assert source.count(old) == 1, f"the rule {name} changes is not in the kernel"
    text = source.replace(old, new)
    path = folder / f"{name}.py"
    if not path.exists() or path.read_text() != text:
        path.write_text(text)
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    recompiled = _share_unchanged(kernel, module)
    module.RECOMPILED = recompiled  # type: ignore[attr-defined]
    return module


def _is_compiled(value: Any) -> bool:
    return isinstance(value, numba_dispatcher.Dispatcher)


def _names(code: CodeType) -> set[str]:
    """The global (and attribute) names a function's code reads, nested code included."""
    out = set(code.co_names)
    for const in code.co_consts:
        if isinstance(const, CodeType):
            out |= _names(const)
    return out


def _same_value(a: Any, b: Any) -> bool:
    if a is b:
        return True
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return (
            isinstance(a, np.ndarray)
            and isinstance(b, np.ndarray)
            and a.dtype == b.dtype
            and np.array_equal(a, b)
        )
    if isinstance(a, (int, float, str, bytes, bool, tuple, frozenset, type(None))):
        return type(a) is type(b) and bool(a == b)
    return False  # anything else (a function of the mutant's own, ...): not the kernel's


def _share_unchanged(kernel: ModuleType, module: ModuleType) -> frozenset[str]:
    """Bind to the kernel's compiled functions every compiled function of ``module`` whose
    source is the same and whose globals (constants, and compiled callees, transitively)
    are the kernel's; returns the names of the others. Must run before anything of
    ``module`` is compiled (numba reads a callee from the module's globals when compiling
    its caller)."""
    ours = {k: v for k, v in vars(module).items() if _is_compiled(v)}
    theirs = vars(kernel)
    verdict: dict[str, bool] = {}

    def unchanged(key: str, visiting: frozenset[str]) -> bool:
        if key in verdict:
            return verdict[key]
        original = theirs.get(key)
        if not _is_compiled(original):
            return False
        func = ours[key].py_func
        if inspect.getsource(func) != inspect.getsource(original.py_func):
            verdict[key] = False
            return False
        same = True
        for used in sorted(_names(func.__code__)):
            value = vars(module).get(used)
            if used in ours and ours[used] is value:
                if used in visiting:
                    continue  # recursion: decided by the rest of the cycle
                same = unchanged(used, visiting | {key})
            elif used in vars(module) or used in theirs:
                same = used in vars(module) and used in theirs and _same_value(value, theirs[used])
            if not same:
                break
        verdict[key] = same
        return same

    for key in ours:
        unchanged(key, frozenset())
    for key, same in verdict.items():
        if same:
            setattr(module, key, theirs[key])
    return frozenset(key for key in ours if not verdict.get(key, False))

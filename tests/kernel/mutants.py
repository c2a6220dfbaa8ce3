"""Kernels with one rule deliberately changed, for the tests that must catch them."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest


def mutant_folder(request: pytest.FixtureRequest, tmp_path: Path, label: str) -> Path:
    """Where mutants are kept: pytest's cache when it is on (so numba's cache of them stays
    valid from run to run), else the test's own temporary folder."""
    cache = getattr(request.config, "cache", None)  # none without the cacheprovider plugin
    return cache.mkdir(label) if cache is not None else tmp_path


def compile_mutant(kernel: ModuleType, old: str, new: str, name: str, folder: Path) -> ModuleType:
    """The kernel's source with ``old`` replaced by ``new``, compiled as its own module named
    ``name``. The file is rewritten only when the kernel changes."""
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
    return module

"""Which package may import which: the server and the simulator stand side by side, and the
tools in wolfden_bench are loaded only by the commands that name them."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

WATCHED = ("wolfden.server", "wolfden.sim", "wolfden_bench", "matplotlib")


def imported_by(package: str) -> set[str]:
    """Every watched module loaded by importing each module of ``package``, in a fresh
    interpreter (this one has imported everything already)."""
    code = f"""
import importlib, json, pkgutil, sys
top = importlib.import_module({package!r})
for info in pkgutil.iter_modules(getattr(top, "__path__", [])):
    importlib.import_module({package!r} + "." + info.name)
print(json.dumps(sorted(
    n for n in sys.modules if n == {package!r} or n.startswith({package!r} + ".") or
    any(n == w or n.startswith(w + ".") for w in {WATCHED!r})
)))
"""
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=300
    )
    return set(json.loads(out.stdout.splitlines()[-1]))


def loaded(modules: set[str], package: str) -> list[str]:
    return sorted(n for n in modules if n == package or n.startswith(package + "."))


@pytest.mark.parametrize(
    ("package", "forbidden"),
    [
        ("wolfden.server", ("wolfden.sim", "wolfden_bench", "matplotlib")),
        ("wolfden.sim", ("wolfden.server", "wolfden_bench", "matplotlib")),
        ("wolfden.cli", ("wolfden_bench", "matplotlib")),
    ],
)
def test_a_package_does_not_import_the_layers_beside_or_above_it(package, forbidden):
    modules = imported_by(package)
    assert loaded(modules, package), f"{package} was not imported at all"
    for other in forbidden:
        assert loaded(modules, other) == [], f"importing {package} loads {other}"


def test_the_bench_commands_load_the_tools_when_named():
    from click.testing import CliRunner

    from wolfden.cli import cli

    result = CliRunner().invoke(cli, ["--help"])
    assert result.exit_code == 0, result.output
    assert "bench" in result.output and "soak" in result.output
    result = CliRunner().invoke(cli, ["soak", "--help"])
    assert result.exit_code == 0, result.output
    assert "run" in result.output and "roles" in result.output

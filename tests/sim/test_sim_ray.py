"""The Ray backend plays the same matches and gives the same figures as local processes."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import sim_tinygame as tiny

from wolfden.sim import simulate as sim
from wolfden.sim.report import RUN_KEYS, summary

ray = pytest.importorskip("ray", reason="Ray is not installed (pip install 'wolfden[cluster]')")

HERE = Path(__file__).resolve().parent


def test_ray_backend_gives_the_same_figures_as_local_processes(monkeypatch):
    # Ray's workers are fresh interpreters: they find the test game through PYTHONPATH.
    paths = [str(HERE), str(HERE.parents[1] / "src"), os.environ.get("PYTHONPATH", "")]
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(p for p in paths if p))
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    config = tiny.Config(players=3)
    # Bots by team too: the workers seat them after each match's setup, as local processes do.
    bots = sim.bot_plan(tiny, config, "odds=random")
    plan = sim.make_plan(tiny, config, games=120, seed=21, bots=bots)
    local = summary(tiny, config, sim.run(plan, workers=1))
    remote = summary(tiny, config, sim.run(plan, workers=2, backend="ray", chunk_size=15))
    assert remote["backend"] == "ray"
    for key in RUN_KEYS:
        local.pop(key)
        remote.pop(key)
    assert remote == local
    assert not ray.is_initialized()

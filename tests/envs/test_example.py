"""The training example in docs/rl.md keeps running (a few deals; the real run is documented)."""

from __future__ import annotations

import runpy
import sys
from pathlib import Path

import pytest

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "train_robbers_horror.py"


def test_the_training_example_trains_and_compares(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "argv", [str(EXAMPLE), "--deals", "250", "--eval", "40"])
    runpy.run_path(str(EXAMPLE), run_name="__main__")
    out = capsys.readouterr().out
    assert "training deal   250: mean reward" in out
    assert "trained policy: mean reward" in out
    assert "random bot    : mean reward" in out
    assert "on the same 40 deals the trained policy gains" in out

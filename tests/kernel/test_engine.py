"""``--engine``: the simulator plays on the kernel when it can, and the figures are the same.

The kernel plays the reference's matches seed for seed, so a study gives the same summary and
the same raw rows on either engine; only the run's own keys (time, speed, the engine) differ.
"""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

pytest.importorskip("numba")

from wolfden import games as registry
from wolfden import kernel
from wolfden.engine.errors import ConfigError
from wolfden.games import robbers_horror as rh
from wolfden.games import werewolf as ww
from wolfden.sim import simulate as sim
from wolfden.sim.cli import balance_command, simulate_command
from wolfden.sim.report import RUN_KEYS, summary

CASES = [
    (rh, rh.Config(players=4, deals=2), sim.BotPlan()),
    (rh, rh.Config(players=5, deals=1), sim.BotPlan(default="rules")),
    (rh, rh.Config(players=3), sim.BotPlan(teams=(("werewolves", "rules"),))),
    (ww, ww.Config(players=7), sim.BotPlan()),
    (ww, ww.Config(players=9), sim.BotPlan(default="rules")),
    (ww, ww.Config(players=8), sim.BotPlan(seats=((0, "rules"),))),
]


def figures(game, config, study):
    data = summary(game, config, study)
    for key in RUN_KEYS:
        data.pop(key)
    return data


@pytest.mark.parametrize("case", range(len(CASES)))
def test_kernel_and_reference_give_the_same_study(case: int) -> None:
    game, config, bots = CASES[case]
    studies = {}
    for engine in ("kernel", "reference"):
        plan = sim.make_plan(
            game, config, games=60, seed=9, bots=bots, keep_rows=True, engine=engine
        )
        assert plan.engine == engine
        studies[engine] = sim.run(plan, workers=1, chunk_size=25)
    fast, ref = studies["kernel"], studies["reference"]
    assert figures(game, config, fast) == figures(game, config, ref)
    assert fast.rows == ref.rows
    assert summary(game, config, fast)["engine"] == "kernel"
    assert summary(game, config, ref)["engine"] == "reference"


def test_auto_takes_the_kernel_when_every_bot_has_a_policy() -> None:
    config = rh.Config()
    assert sim.choose_engine(rh, config, sim.BotPlan("rules")) == ("kernel", "")
    engine, why = sim.choose_engine(rh, config, sim.BotPlan(seats=((1, "ismcts"),)))
    assert engine == "reference" and "no ismcts bot" in why
    engine, why = sim.choose_engine(registry.get("werewords"), None, sim.BotPlan())
    assert engine == "reference" and "has no kernel" in why
    assert sim.choose_engine(ww, ww.Config(), sim.BotPlan(), "reference") == ("reference", "")


def test_the_kernel_asked_for_says_why_it_cannot_play() -> None:
    with pytest.raises(ConfigError, match="--engine kernel: the kernel has no ismcts bot"):
        sim.make_plan(rh, rh.Config(), games=5, seed=1, bots=sim.BotPlan("ismcts"), engine="kernel")
    with pytest.raises(ConfigError, match="unknown engine 'fast'"):
        sim.choose_engine(rh, rh.Config(), sim.BotPlan(), "fast")


def test_without_numba_the_reference_plays_with_a_note(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_numba(game_id: str) -> None:
        raise ModuleNotFoundError("No module named 'numba'", name="numba")

    monkeypatch.setattr(kernel, "load", no_numba)
    for engine in ("auto", "kernel"):
        chosen, why = sim.choose_engine(rh, rh.Config(), sim.BotPlan(), engine)
        assert chosen == "reference" and "needs numba" in why
    result = CliRunner().invoke(
        simulate_command,
        ["robbers-horror", "--games", "4", "--workers", "1", "--bots", "random"],
        catch_exceptions=False,
    )
    assert result.exit_code == 0, result.output
    notes = [line for line in result.stderr.splitlines() if "needs numba" in line]
    assert len(notes) == 1
    assert "engine: reference rules (the kernel needs numba" in result.stdout


@pytest.mark.parametrize("engine", ["auto", "kernel", "reference"])
def test_the_report_says_which_engine_played(engine: str) -> None:
    args = ["werewolf", "--games", "20", "--workers", "1", "--bots", "random"]
    result = CliRunner().invoke(
        simulate_command, [*args, "--engine", engine], catch_exceptions=False
    )
    assert result.exit_code == 0, result.output
    shown = "kernel" if engine != "reference" else "reference rules"
    assert f"engine: {shown}" in result.stdout
    data = json.loads(
        CliRunner()
        .invoke(simulate_command, [*args, "--engine", engine, "--json"], catch_exceptions=False)
        .stdout
    )
    assert data["engine"] == ("kernel" if engine != "reference" else "reference")


def test_balance_studies_run_on_either_engine_with_the_same_figures() -> None:
    from wolfden.sim import balance

    results = {}
    for engine in ("kernel", "reference"):
        study = balance.studies_for(rh, 12)[0]
        study.bots = ["random"]
        study.games_by_kind = {"random": 12}
        balance.run_study(study, seed=4, workers=1, pool=None, engine=engine)
        assert all(cell["engine"] == engine for cell in study.results.values())
        results[engine] = {
            key: {k: v for k, v in cell.items() if k not in RUN_KEYS}
            for key, cell in study.results.items()
        }
    assert results["kernel"] == results["reference"]


def test_balance_has_the_engine_option() -> None:
    result = CliRunner().invoke(balance_command, ["--help"])
    assert "--engine [auto|kernel|reference]" in result.output

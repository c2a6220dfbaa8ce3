"""Kernel playouts with their own seeds win as often as reference matches do.

For every documented config family of Robbers' Horror and Werewolf (the games' sample and
bench configs), the reference engine plays a study with one seed and the kernel a study twenty
times larger with another, through the simulator's two engines. Each team's win rate (for
Robbers' Horror: its share of the deals, since a match of several deals is won by seats) must
agree: the two rates may differ by no more than a two-sample test allows with a false alarm
once in a hundred runs of the whole module (a Bonferroni correction over every comparison made
here: one 95 % interval per rate would fail about once in twenty comparisons by chance, and
there are dozens; even at 95 % for the whole module, one family whose kernel and reference
agree seed for seed failed by chance). With independent seeds this is a statement about
distributions, beside the seed-for-seed tests of the other kernel test modules.

``WOLFDEN_KERNEL_DISTRIBUTION`` sets the reference matches per family (default 300).
"""

from __future__ import annotations

import math
import os
from statistics import NormalDist
from typing import Any

import pytest

pytest.importorskip("numba")

from wolfden.games import robbers_horror as rh
from wolfden.games import werewolf as ww
from wolfden.kernel import werewolf as kernel_werewolf
from wolfden.sim import simulate as sim
from wolfden.sim.report import summary

GAMES = int(os.environ.get("WOLFDEN_KERNEL_DISTRIBUTION", "300"))
KERNEL_TIMES = 20
COMPARISONS = 70
"""At most this many rates are compared in this module (2 or 3 per family)."""
FALSE_ALARM = 0.01
"""The chance that the module fails although the kernel plays the reference's distribution."""

FAMILIES: list[tuple[Any, Any, str]] = [
    *((rh, config, "random") for config in rh.sample_configs()),
    *((rh, config, "random") for _, config in rh.bench_configs()),
    (rh, rh.Config(players=4, deals=1), "rules"),
    # every sample config the kernel plays (structured talk is the reference's alone)
    *(
        (ww, config, "random")
        for config in ww.sample_configs()
        if kernel_werewolf.unsupported(config) is None
    ),
    (ww, ww.Config(players=7), "rules"),
    (ww, ww.Config(players=10), "rules"),
]


def team_wins(game: Any, config: Any, kind: str, seed: int, games: int, engine: str) -> dict:
    """Each team's (wins, trials) in a study on one engine."""
    plan = sim.make_plan(
        game, config, games=games, seed=seed, bots=sim.BotPlan(kind), engine=engine
    )
    assert plan.engine == engine
    data = summary(game, config, sim.run(plan, workers=1))
    if game is rh:
        share = data["extras"]["deal_winners"]["share"]
        return {team: (share[team]["wins"], share[team]["games"]) for team in share}
    out = {team: (entry["wins"], entry["games"]) for team, entry in data["win_rate"].items()}
    out["draw"] = (data["draws"], data["games"])
    return out


def agree(a: tuple[int, int], b: tuple[int, int], comparisons: int) -> bool:
    """Whether two counts of wins are consistent with one rate: the two-proportion z-test,
    each of ``comparisons`` tests at ``FALSE_ALARM / comparisons``."""
    (x, n), (y, m) = a, b
    pooled = (x + y) / (n + m)
    if pooled in (0.0, 1.0):
        return True
    z = NormalDist().inv_cdf(1 - FALSE_ALARM / (2 * comparisons))
    spread = math.sqrt(pooled * (1 - pooled) * (1 / n + 1 / m))
    return abs(x / n - y / m) <= z * spread


@pytest.mark.parametrize(
    "family",
    range(len(FAMILIES)),
    ids=[f"{g.id}-{i}-{kind}" for i, (g, _, kind) in enumerate(FAMILIES)],
)
def test_win_rates_agree_with_the_reference(family: int) -> None:
    game, config, kind = FAMILIES[family]
    reference = team_wins(game, config, kind, 1000 + family, GAMES, "reference")
    kernel = team_wins(game, config, kind, 2000 + family, GAMES * KERNEL_TIMES, "kernel")
    assert set(kernel) <= set(reference) | {"draw", "tie"}
    for team in reference:
        wins, trials = reference[team]
        k_wins, k_trials = kernel.get(team, (0, next(iter(kernel.values()))[1]))
        assert agree((k_wins, k_trials), (wins, trials), COMPARISONS), (
            f"{game.id} {config} {kind}: {team} wins {k_wins / k_trials:.3f} of the kernel's "
            f"{k_trials} but {wins / trials:.3f} of the reference's {trials}"
        )


def test_the_comparisons_are_counted() -> None:
    assert len(FAMILIES) * 3 <= COMPARISONS


def test_a_different_rate_does_not_agree() -> None:
    assert agree((547, 1000), (46, 100), COMPARISONS)
    assert not agree((5470, 10000), (300, 1000), COMPARISONS)
    assert not agree((0, 4000), (20, 300), COMPARISONS)

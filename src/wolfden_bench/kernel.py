"""The compiled kernel's speed beside OpenSpiel's C++ playouts, and its compile time.

Two figures are compared in one run, timed in turns (kernel, then OpenSpiel, repetition by
repetition) on one core in CPU time, the median of the repetitions reported:

- Robbers' Horror, 4 players, one random deal per playout, played by the kernel's batch entry
  point (:func:`wolfden.kernel.robbers_horror.play`), beside OpenSpiel's ``oh_hell`` (4
  players, 4 suits of 9 cards, 8 tricks) played to the end in C++ by ``pyspiel.evaluate_bots``
  with uniform random bots;
- Werewolf, 7 players, random bots, beside ``social_deduction`` (7 players, 2 imposters) the
  same way.

The kernel's rules-bot playouts are measured too, for information. The compile time is
measured in fresh processes: once with an empty numba cache (everything compiled) and once
more with the cache that run left (everything loaded).
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

TARGET = 4.0
"""The speed the kernel is held to: this many times OpenSpiel's C++ random playouts."""

OH_HELL = {"players": 4, "num_suits": 4, "num_cards_per_suit": 9, "num_tricks_fixed": 8}
SOCIAL_DEDUCTION = {"players": 7, "imposters": 2}

Batch = Callable[[int, int], int]
"""Plays ``games`` playouts from a first seed; returns the actions played."""


@dataclass(frozen=True)
class Rate:
    label: str
    games_per_s: float
    actions_per_game: float
    low: float = 0.0
    high: float = 0.0
    """The slowest and fastest repetitions (the machine may be shared)."""


def kernel_batch(game_id: str, config: Any, kind: str = "random") -> Batch:
    """Playouts by a kernel's batch entry point with every seat's bot of one kind."""
    import numpy as np

    from wolfden import kernel
    from wolfden.sim.seating import BotPlan

    module = kernel.load(game_id)
    if module is None:
        raise ValueError(f"{game_id} has no kernel")
    bots = BotPlan(kind)

    def play(games: int, first: int) -> int:
        batch = module.play(config, np.arange(first, first + games, dtype=np.uint64), bots)
        return int(batch.steps.sum())

    return play


def spiel_batch(name: str, params: dict[str, Any]) -> Batch:
    """OpenSpiel's C++ playouts: ``evaluate_bots`` with uniform random bots, one call a game
    (chance nodes, such as the deal, sampled in C++ from the call's seed)."""
    import pyspiel

    game = pyspiel.load_game(name, params)
    players = game.num_players()
    bots = [pyspiel.make_uniform_random_bot(p, 1 + p) for p in range(players)]
    # Actions per game, counted once outside the timing (evaluate_bots does not say).
    counted = []
    for seed in range(50):
        state = game.new_initial_state()
        actions = 0
        rng = __import__("random").Random(seed)
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(outcomes, probs)[0])
                continue
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
            actions += 1
        counted.append(actions)
    per_game = sum(counted) / len(counted)

    def play(games: int, first: int) -> int:
        evaluate = pyspiel.evaluate_bots
        for seed in range(first, first + games):
            evaluate(game.new_initial_state(), bots, seed)
        return int(games * per_game)

    return play


def _calibrate(play: Batch, seconds: float) -> int:
    """How many games take about ``seconds`` of CPU time. A first call warms up untimed: it
    loads (or compiles) the kernel, and timing it made the batches a few dozen games, whose
    per-call overhead then halved the kernel's measured rate."""
    play(64, 0)
    games = 64
    while True:
        began = time.process_time()
        play(games, 0)
        spent = time.process_time() - began
        if spent >= seconds / 4 or games >= 1 << 24:
            return max(1, int(games * seconds / max(spent, 1e-9)))
        games *= 4


def measure_in_turns(
    entries: list[tuple[str, Batch]], *, repeats: int, seconds: float
) -> list[Rate]:
    """Each entry timed for about ``seconds`` of CPU time per repetition, the entries in turns
    within every repetition; the median games/s of each."""
    sizes = [_calibrate(play, seconds) for _, play in entries]
    rates: list[list[float]] = [[] for _ in entries]
    actions: list[list[float]] = [[] for _ in entries]
    for r in range(repeats):
        for i, (_, play) in enumerate(entries):
            first = (r + 1) * 10_000_000
            began = time.process_time()
            steps = play(sizes[i], first)
            spent = time.process_time() - began
            rates[i].append(sizes[i] / spent)
            actions[i].append(steps / sizes[i])
    return [
        Rate(
            label,
            statistics.median(rates[i]),
            statistics.median(actions[i]),
            min(rates[i]),
            max(rates[i]),
        )
        for i, (label, _) in enumerate(entries)
    ]


COMPILE_SCRIPT = """
import time
began = time.process_time()
from wolfden.sim.seating import BotPlan
from wolfden.kernel import {module} as kernel
from wolfden.games.{module} import Config
for kind in kernel.POLICIES:
    kernel.play(Config(players={players}), [1], BotPlan(kind))
print(time.process_time() - began)
"""


def compile_seconds(module: str, players: int) -> tuple[float, float]:
    """CPU seconds of a fresh process that imports a kernel and plays one match with each of
    its policies: with an empty numba cache (compiling), then with the cache it left."""
    import os

    script = COMPILE_SCRIPT.format(module=module, players=players)
    out = []
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache}
        for _ in range(2):
            done = subprocess.run(
                [sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True
            )
            out.append(float(done.stdout.strip().splitlines()[-1]))
    return out[0], out[1]


def spiel_version() -> str | None:
    try:
        import pyspiel
    except ImportError:
        return None
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("open_spiel")
    except PackageNotFoundError:
        return str(getattr(pyspiel, "__version__", "installed"))


def section(
    repeat: int, seconds: float, command: str, host: str, echo: Callable[[str], None]
) -> str:
    """Measure, say each figure through ``echo`` and return the markdown section."""
    from wolfden.games import robbers_horror as rh
    from wolfden.games.werewolf.config import Config as WerewolfConfig

    try:
        import numba
    except ImportError:
        echo("the kernel needs numba, which cannot be imported; skipping it")
        return ""
    spiel = spiel_version()
    rh_config = rh.Config(players=4, deals=1)
    ww_config = WerewolfConfig(players=7)
    echo(f"compiled kernel (numba {numba.__version__}) beside OpenSpiel's C++ playouts, one core")
    pairs: list[tuple[str, Batch, str, Batch | None, str]] = []
    social = None
    if spiel is not None:
        import pyspiel

        registered = {g.short_name for g in pyspiel.registered_games()}
        if "social_deduction" in registered:
            social = spiel_batch("social_deduction", SOCIAL_DEDUCTION)
    pairs.append(
        (
            "Robbers' Horror, 4 players, one deal, random",
            kernel_batch(rh.id, rh_config),
            "`oh_hell` (players=4, num_suits=4, num_cards_per_suit=9, num_tricks_fixed=8)",
            spiel_batch("oh_hell", OH_HELL) if spiel else None,
            "deals/s",
        )
    )
    pairs.append(
        (
            "Werewolf, 7 players, random",
            kernel_batch("werewolf", ww_config),
            "`social_deduction` (players=7, imposters=2)"
            if social is not None or spiel is None
            else f"`social_deduction` is not in OpenSpiel {spiel}",
            social,
            "games/s",
        )
    )
    rows = [
        "| kernel playouts | per second | actions per game | OpenSpiel C++ (`evaluate_bots`, "
        "uniform random) | per second | actions per game | ratio (kernel / OpenSpiel) "
        "| target |",
        "|---|---:|---:|---|---:|---:|---:|---:|",
    ]
    for label, ours, theirs_label, theirs, unit in pairs:
        entries = [(label, ours)] + ([(theirs_label, theirs)] if theirs is not None else [])
        rates = measure_in_turns(entries, repeats=repeat, seconds=seconds)
        mine = rates[0]
        if len(rates) > 1:
            other = rates[1]
            ratio = mine.games_per_s / other.games_per_s
            echo(
                f"  {label}: {mine.games_per_s:,.0f} {unit} ({mine.low:,.0f}–{mine.high:,.0f}); "
                f"{theirs_label}: {other.games_per_s:,.0f} ({other.low:,.0f}–{other.high:,.0f}); "
                f"ratio {ratio:.2f}× (target {TARGET:g}×)"
            )
            rows.append(
                f"| {label} | {mine.games_per_s:,.0f} {unit} | {mine.actions_per_game:.1f} "
                f"| {theirs_label} | {other.games_per_s:,.0f} | {other.actions_per_game:.1f} "
                f"| **{ratio:.2f}×** | ≥ {TARGET:g}× |"
            )
        else:
            echo(f"  {label}: {mine.games_per_s:,.0f} {unit}; {theirs_label}: not measured")
            rows.append(
                f"| {label} | {mine.games_per_s:,.0f} {unit} | {mine.actions_per_game:.1f} "
                f"| {theirs_label if spiel else 'OpenSpiel is not installed'} | — | — | — "
                f"| ≥ {TARGET:g}× |"
            )
    rules = measure_in_turns(
        [
            (
                "Robbers' Horror, 4 players, one deal, rules",
                kernel_batch(rh.id, rh_config, "rules"),
            ),
            ("Werewolf, 7 players, rules", kernel_batch("werewolf", ww_config, "rules")),
        ],
        repeats=repeat,
        seconds=seconds,
    )
    for r in rules:
        echo(f"  {r.label}: {r.games_per_s:,.0f} games/s")
        rows.append(
            f"| {r.label} | {r.games_per_s:,.0f} games/s | {r.actions_per_game:.1f} "
            "| (no counterpart) | | | | |"
        )
    compile_rows = [
        "| kernel | first run: compiling (empty cache) | cached run: loading the cache |",
        "|---|---:|---:|",
    ]
    for name, module, players in (
        ("Robbers' Horror", "robbers_horror", 4),
        ("Werewolf", "werewolf", 7),
    ):
        first, cached = compile_seconds(module, players)
        echo(f"  {name} kernel: compile {first:.1f} s, cached {cached:.1f} s")
        compile_rows.append(f"| {name} | {first:.1f} s | {cached:.1f} s |")
    spiel_text = f"OpenSpiel {spiel}" if spiel else "OpenSpiel (not installed)"
    return (
        f"Command: `{command}` — the compiled kernel (numba {numba.__version__}) through its "
        f"batch entry point (`wolfden.kernel.<game>.play`: a config, an array of seeds and the "
        f"seats' bots in, outcomes out), beside {spiel_text}'s C++ playouts run by "
        "`pyspiel.evaluate_bots` with uniform random bots (one call per game, its seed "
        "sampling the deal). Both timed in turns in the same run, in CPU time on one core, "
        f"after a warm-up; median of {repeat} repetitions of about {seconds:g} s each. "
        "Actions per game count the players' actions only (OpenSpiel's chance nodes and "
        "wolfden's deal are not actions).\n\n"
        f"Machine: {host}.\n\n"
        + "\n".join(rows)
        + "\n\nCompile time, in CPU seconds of a fresh process that imports the kernel and "
        "plays one match with each of its policies (so the import of numba is included in "
        "both columns):\n\n" + "\n".join(compile_rows)
    )

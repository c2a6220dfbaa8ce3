"""Benchmarks: random playouts through the public contract, OpenSpiel beside them, scaling.

Every figure is the median of several repetitions in the same run, so a busy machine disturbs
the ratios less than the absolute numbers. Nothing here is a test: speed is reported, not
asserted.
"""

from __future__ import annotations

import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from wolfden.engine.contract import Game
from wolfden.engine.rng import derive_seed


@dataclass
class Measure:
    """Median throughput of ``repeats`` timed runs of ``games`` playouts each."""

    label: str
    games: int
    repeats: int
    games_per_s: float
    actions_per_s: float
    actions_per_game: float


Playout = Callable[[int], int]
"""Play one complete game from a seed; return how many actions it took."""


def draws(seed: int = 0xBE7C) -> Callable[[], float]:
    """The uniform draws of a benchmark loop: one generator per loop, seeded once.

    A loop picks ``items[int(draw() * len(items))]``: uniform over the items (the bias is
    below 2**-45 for lists shorter than 256) and done in C, where ``randrange`` runs two
    Python functions per pick. Seeding a Mersenne Twister per game would cost about 3.5 µs,
    some 5 % of a Robbers' Horror deal, and say nothing about the engine being measured; so
    a loop's games are reproducible as a sequence, the first game after building the loop
    always being the same.
    """
    return random.Random(seed).random


def playout_of(game: Game, config: Any) -> Playout:
    """A random playout through the public contract only (no views: the random bot needs none).

    The seed deals the game. When several seats may act, a random choice picks who acts
    first, as at a real table; when nobody may act, the phase's deadline passes. The choices
    are drawn exactly as in :func:`spiel_playout`, so that the two loops around the engines
    being compared are the same loop: see :func:`draws`.
    """
    setup, actors, legal_actions = game.setup, game.actors, game.legal_actions
    apply, deadline, outcome = game.apply, game.deadline, game.outcome
    draw = draws()

    def play(seed: int) -> int:
        state = setup(config, seed)
        steps = 0
        while outcome(state) is None:
            seats = actors(state)
            if seats:
                if len(seats) == 1:
                    (seat,) = seats
                else:
                    order = sorted(seats)
                    seat = order[int(draw() * len(order))]
                legal = legal_actions(state, seat)
                state, _ = apply(state, seat, legal[int(draw() * len(legal))])
            else:
                due = deadline(state)
                if due is None:
                    raise RuntimeError(f"{game.id}: nobody may act and no deadline is set")
                state, _ = apply(state, None, due.action)
            steps += 1
            if steps > 1_000_000:
                raise RuntimeError(f"{game.id}: a random playout did not end")
        return steps

    return play


@dataclass(frozen=True)
class LoopAlone:
    """A game whose calls do nothing: it steps through recorded random playouts of a real game.

    Each call answers what the real game answered at that step (the same actors, the same
    legal lists, the same deadlines, an outcome at the same step), found by a list index; the
    state is the step's number. Driven by :func:`playout_of`, it makes the loop run exactly
    as it does over the real game, with as many actions a game, while the rules cost nothing:
    its rate is the most any engine could reach under that loop, and the difference between
    the two per-game times is what the rules themselves take.
    """

    id: str
    starts: tuple[int, ...]
    ends: list[Any]
    actors_at: list[frozenset[int]]
    legal_at: list[list[Any]]
    deadlines: list[Any]

    def setup(self, config: Any, seed: int) -> int:
        return self.starts[seed % len(self.starts)]

    def outcome(self, state: int) -> Any:
        return self.ends[state]

    def actors(self, state: int) -> frozenset[int]:
        return self.actors_at[state]

    def legal_actions(self, state: int, seat: int | None) -> list[Any]:
        return self.legal_at[state]

    def apply(self, state: int, seat: int | None, action: Any) -> tuple[int, list[Any]]:
        return state + 1, _NO_EVENTS

    def deadline(self, state: int) -> Any:
        return self.deadlines[state]


_NO_EVENTS: list[Any] = []


class _Recorder:
    """A game that passes every call on to ``game`` and notes the answers, one step of the
    benchmark's loop at a time (each ``outcome`` call begins a step), for :func:`loop_alone`."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.id = game.id
        self.starts: list[int] = []
        self.ends: list[Any] = []
        self.actors_at: list[frozenset[int]] = []
        self.legal_at: list[list[Any]] = []
        self.deadlines: list[Any] = []

    def setup(self, config: Any, seed: int) -> Any:
        self.starts.append(len(self.ends))
        return self.game.setup(config, seed)

    def outcome(self, state: Any) -> Any:
        result = self.game.outcome(state)
        self.ends.append(result)
        self.actors_at.append(frozenset())
        self.legal_at.append([])
        self.deadlines.append(None)
        return result

    def actors(self, state: Any) -> frozenset[int]:
        seats = self.actors_at[-1] = self.game.actors(state)
        return seats

    def legal_actions(self, state: Any, seat: int | None) -> list[Any]:
        legal = self.legal_at[-1] = self.game.legal_actions(state, seat)
        return legal

    def apply(self, state: Any, seat: int | None, action: Any) -> Any:
        return self.game.apply(state, seat, action)

    def deadline(self, state: Any) -> Any:
        due = self.deadlines[-1] = self.game.deadline(state)
        return due


def loop_alone(game: Game, config: Any, *, games: int = 256) -> LoopAlone:
    """Record ``games`` random playouts of ``game``, played by the benchmark's own loop, as a
    :class:`LoopAlone`."""
    recorder = _Recorder(game)
    play = playout_of(recorder, config)  # type: ignore[arg-type]
    for i in range(games):
        play(derive_seed(0x100F, i))
    return LoopAlone(
        f"{game.id} (loop alone)",
        tuple(recorder.starts),
        recorder.ends,
        recorder.actors_at,
        recorder.legal_at,
        recorder.deadlines,
    )


RATE_NOTE = "rates per second of CPU time of the benchmark process"

CLOCK = time.process_time
"""Benchmarks count the CPU time of this process: on a shared machine, time spent waiting for
a core while other work runs does not count against the code being measured."""


def _calibrate(play: Playout, seconds: float) -> int:
    """How many playouts take about ``seconds``."""
    started = CLOCK()
    games = 0
    while CLOCK() - started < min(0.2, seconds / 2) or games < 3:
        play(derive_seed(999, games))
        games += 1
    per_game = max(1e-9, (CLOCK() - started) / games)
    return max(5, round(seconds / per_game))


def measure_together(
    entries: Sequence[tuple[str, Playout]], *, repeats: int = 5, seconds: float = 0.4
) -> list[Measure]:
    """Time several playouts in turns (A, B, A, B, ...) so that each repetition of each sees the
    same machine; report each one's medians. Ratios between them are the robust figures."""
    batches = [_calibrate(play, seconds) for _, play in entries]
    rates: list[list[float]] = [[] for _ in entries]
    action_rates: list[list[float]] = [[] for _ in entries]
    counts = [0 for _ in entries]
    for r in range(repeats):
        for k, ((_, play), batch) in enumerate(zip(entries, batches)):
            actions = 0
            t0 = CLOCK()
            for i in range(batch):
                actions += play(derive_seed(r, i))
            elapsed = max(1e-9, CLOCK() - t0)
            rates[k].append(batch / elapsed)
            action_rates[k].append(actions / elapsed)
            counts[k] += actions
    return [
        Measure(
            label=label,
            games=batch,
            repeats=repeats,
            games_per_s=statistics.median(rates[k]),
            actions_per_s=statistics.median(action_rates[k]),
            actions_per_game=counts[k] / (batch * repeats),
        )
        for k, ((label, _), batch) in enumerate(zip(entries, batches))
    ]


def measure(label: str, play: Playout, *, repeats: int = 5, seconds: float = 0.4) -> Measure:
    """Calibrate a batch to about ``seconds`` of CPU time, time ``repeats`` batches, report
    the medians."""
    return measure_together([(label, play)], repeats=repeats, seconds=seconds)[0]


def bench_configs(game: Game) -> list[tuple[str, Any]]:
    """The game's own ``bench_configs()``, or its default config."""
    configs = getattr(game, "bench_configs", None)
    if configs is None:
        return [("default", game.Config())]
    return list(configs())


def bench_game(game: Game, *, repeats: int = 5, seconds: float = 0.4) -> list[tuple[Any, Measure]]:
    return [
        (config, measure(label, playout_of(game, config), repeats=repeats, seconds=seconds))
        for label, config in bench_configs(game)
    ]


# -- OpenSpiel ----------------------------------------------------------------------------


@dataclass(frozen=True)
class SpielGame:
    """An OpenSpiel game to run beside a wolfden game with ``seats`` seats."""

    name: str
    params: dict[str, Any]
    partner: str
    seats: int
    why: str


SPIEL_GAMES = (
    SpielGame(
        "oh_hell",
        {"players": 4, "num_suits": 4, "num_cards_per_suit": 9, "num_tricks_fixed": 8},
        "robbers-horror",
        4,
        "trick-taking, 4 players, 36 cards (one turned up for trumps, so 8 tricks of 4)",
    ),
    SpielGame("hearts", {}, "robbers-horror", 4, "trick-taking, 4 players, 52 cards, passing"),
    SpielGame(
        "social_deduction",
        {"players": 7, "imposters": 2},
        "werewolf",
        7,
        "hidden roles, 7 players with 2 imposters (as 7-player Werewolf has 2 Werewolves)",
    ),
)


def spiel_available() -> str | None:
    """The installed OpenSpiel version, or None."""
    try:
        import pyspiel  # type: ignore[import-not-found]  # noqa: F401
    except ImportError:
        return None
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("open_spiel")
    except PackageNotFoundError:
        return "unknown version"


def spiel_playout(name: str, params: dict[str, Any]) -> Playout:
    """The same random-playout loop over an OpenSpiel game, driven from Python.

    Chance nodes (deals) are sampled from their outcome probabilities and counted apart: the
    returned count is the players' actions only, as wolfden deals inside ``setup``. OpenSpiel
    deals through those chance nodes, so the loop's generator deals too and ``seed`` is not
    used.
    """
    import pyspiel

    game = pyspiel.load_game(name, params)
    rng = random.Random(0x5EED)
    draw = rng.random

    def play(seed: int) -> int:
        state = game.new_initial_state()
        steps = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(outcomes, probs)[0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[int(draw() * len(legal))])
                steps += 1
        return steps

    return play


def spiel_registered() -> set[str]:
    import pyspiel

    return {g.short_name for g in pyspiel.registered_games()}


# -- scaling ------------------------------------------------------------------------------


@dataclass
class Scaling:
    game: str
    label: str
    games: int
    repeats: int
    one: float
    two: float
    busy: float
    """Cores the many-worker runs got on average (the workers' CPU time over the wall time)."""
    load: float
    """The machine's one-minute load average before the runs (other work on a shared machine)."""
    startup: float
    """Seconds a many-worker run takes for one game per worker: mostly starting the workers."""

    @property
    def ratio(self) -> float:
        return self.two / self.one if self.one else 0.0


def bench_scaling(
    game: Game, config: Any, *, games: int, repeats: int = 3, workers: int = 2
) -> Scaling:
    """Throughput of ``simulate`` (random bots) on 1 worker and on ``workers`` workers.

    Each run is timed from start to finish, starting the worker processes included, as a
    user of ``wolfden simulate`` would time it.
    """
    from wolfden.sim import simulate as sim
    from wolfden.sim.options import config_label

    plan = sim.make_plan(game, config, games=games, seed=1)
    one: list[float] = []
    many: list[float] = []
    busy: list[float] = []
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else 0.0
    tiny = sim.make_plan(game, config, games=workers, seed=1)
    startup = statistics.median(
        sim.run(tiny, workers=workers, chunk_size=1).seconds for _ in range(repeats)
    )
    for _ in range(repeats):
        for count, out in ((1, one), (workers, many)):
            study = sim.run(plan, workers=count)
            out.append(study.tally.games / study.seconds)
            if count == workers:
                busy.append(study.busy / study.seconds)
    label = config_label(game, config) or "defaults"
    return Scaling(
        game.id,
        label,
        games,
        repeats,
        statistics.median(one),
        statistics.median(many),
        statistics.median(busy),
        load,
        startup,
    )


# -- docs/benchmarks.md -------------------------------------------------------------------


def machine() -> str:
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return (
        f"{cpu}, {cores} cores, Python {platform.python_version()} "
        f"({sys.implementation.name}), {datetime.now(UTC):%Y-%m-%d}"
    )


def table(measures: Sequence[Measure]) -> str:
    lines = [
        "| setup | games/s | actions/s | actions per game | games per repetition × repetitions |",
        "|---|---:|---:|---:|---:|",
    ]
    for m in measures:
        lines.append(
            f"| {m.label} | {m.games_per_s:,.0f} | {m.actions_per_s:,.0f} | "
            f"{m.actions_per_game:.1f} | {m.games} × {m.repeats} |"
        )
    return "\n".join(lines)

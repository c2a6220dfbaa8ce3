"""Play many matches with bots, on all cores or on a Ray cluster, with identical results.

Match ``i`` of a study with seed ``S`` is played with seed ``derive_seed(S, i)``, so its result
depends on nothing but the game, the config, the bots, ``S`` and ``i``. The work is cut into
chunks of consecutive matches; each chunk returns a :class:`~wolfden.sim.stats.Tally` (and, when
asked, the raw rows), and tallies add up the same in any order. The number of workers, the
chunk size and the backend therefore never change the figures.

A chunk is played by the reference engine (the game's own rules, through the match runner) or,
when the game has a compiled kernel with a policy for every requested bot, by the kernel
(:mod:`wolfden.kernel`), which plays the same matches from the same seeds much faster. The
``engine`` of a plan says which; :func:`choose_engine` decides it.
"""

from __future__ import annotations

import importlib
import math
import os
import signal
import time
from collections.abc import Callable, Generator, Mapping, Sequence
from concurrent import futures
from dataclasses import dataclass, field
from typing import Any, cast

from wolfden import games as game_registry
from wolfden.engine.config import config_from_json, config_to_json
from wolfden.engine.contract import Game
from wolfden.engine.errors import ConfigError
from wolfden.engine.rng import derive_seed
from wolfden.sim.runner import play_match
from wolfden.sim.seating import (
    BotPlan,
    bot_kinds,
    bot_plan,
    bots_help,
    check_bots,
    parse_bots,
    seat_kinds,
    seat_players,
)
from wolfden.sim.stats import Row, Tally

BACKENDS = ("local", "ray")
ENGINES = ("auto", "kernel", "reference")
"""``auto`` plays on the kernel whenever it can, else on the reference engine."""

__all__ = [
    "BACKENDS",
    "ENGINES",
    "BotPlan",
    "ChunkResult",
    "Plan",
    "Progress",
    "Study",
    "bot_kinds",
    "bot_plan",
    "bots_help",
    "check_bots",
    "choose_engine",
    "chunks",
    "default_workers",
    "game_ref",
    "ignore_sigint",
    "load_game",
    "make_plan",
    "parse_bots",
    "run",
    "run_chunk",
    "seat_kinds",
    "seat_players",
]


def load_game(ref: str) -> Game:
    """A registered game by id, or (for tests and experiments) a game module by import path."""
    if ref in game_registry.ids():
        return game_registry.get(ref)
    if "." in ref or ref.isidentifier():
        try:
            module = importlib.import_module(ref)
        except ModuleNotFoundError:
            pass
        else:
            if all(hasattr(module, name) for name in ("id", "Config", "setup", "apply")):
                return cast(Game, module)
    return game_registry.get(ref)  # raises UnknownGame naming the registered games


def game_ref(game: Game) -> str:
    """How a worker finds ``game`` again: its id if registered, else its module path."""
    if game.id in game_registry.ids():
        return game.id
    name = getattr(game, "__name__", None)
    if not isinstance(name, str):
        raise ConfigError(f"{game.id} is neither registered nor an importable module")
    return name


# -- the work -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Plan:
    """A study: ``games`` matches of one game and config with the given bots and seed."""

    game: str
    config: Mapping[str, Any]
    bots: BotPlan
    seed: int
    games: int
    keep_rows: bool = False
    engine: str = "reference"
    """``kernel`` or ``reference``: what plays the matches (see :func:`choose_engine`)."""
    engine_note: str = ""
    """Why the reference plays when the kernel was asked for or chosen automatically."""


@dataclass
class ChunkResult:
    start: int
    stop: int
    tally: Tally
    rows: list[Row] | None
    seconds: float
    cpu: float


def run_chunk(plan: Plan, start: int, stop: int) -> ChunkResult:
    """Play matches ``start`` … ``stop - 1`` of the plan (in a worker process or in-line)."""
    began, cpu = time.perf_counter(), time.process_time()
    game = load_game(plan.game)
    config = config_from_json(game.Config, dict(plan.config))
    factories = bot_kinds(game)
    num_seats = game.num_seats(config)
    tally = Tally()
    rows: list[Row] | None = [] if plan.keep_rows else None

    if plan.engine == "kernel":
        _kernel_chunk(plan, game, config, start, stop, tally, rows)
        return ChunkResult(
            start, stop, tally, rows, time.perf_counter() - began, time.process_time() - cpu
        )

    def make(kind: str, seat: int) -> Any:
        return factories[kind](seat)

    for index in range(start, stop):
        seed = derive_seed(plan.seed, index)
        players = seat_players(plan.bots, make, num_seats)
        result = play_match(game, config, seed, players)
        tally.add(result.outcome, result.steps)
        if rows is not None:
            teams = {seat: str(team) for seat, team in result.outcome.teams.items()}
            kinds = plan.bots.kinds_for(num_seats, teams)
            rows.append(Row.of(index, seed, result.outcome, result.steps, kinds))
    return ChunkResult(
        start, stop, tally, rows, time.perf_counter() - began, time.process_time() - cpu
    )


def _kernel_chunk(
    plan: Plan,
    game: Game,
    config: Any,
    start: int,
    stop: int,
    tally: Tally,
    rows: list[Row] | None,
) -> None:
    """Matches ``start`` … ``stop - 1`` played by the game's kernel: the same seeds, bots and
    outcomes as the reference, added up the same way."""
    from wolfden import kernel

    module = kernel.load(game.id)
    if module is None:  # make_plan chose the kernel only for a game that has one
        raise ConfigError(f"{game.id} has no kernel")
    seeds = [derive_seed(plan.seed, index) for index in range(start, stop)]
    batch = module.play(config, seeds, plan.bots)
    num_seats = game.num_seats(config)
    for i, outcome in enumerate(module.outcomes(batch)):
        steps = int(batch.steps[i])
        tally.add(outcome, steps)
        if rows is not None:
            teams = {seat: str(team) for seat, team in outcome.teams.items()}
            kinds = plan.bots.kinds_for(num_seats, teams)
            rows.append(Row.of(start + i, seeds[i], outcome, steps, kinds))


def choose_engine(game: Game, config: Any, bots: BotPlan, engine: str = "auto") -> tuple[str, str]:
    """What plays a study: ``("kernel", "")``, or ``("reference", why)`` where ``why`` is
    empty when the reference was asked for. ``auto`` takes the kernel when the game has one
    that plays this config and has a policy for every requested bot kind; ``kernel`` insists
    (ConfigError saying why it cannot), except that both fall back to the reference with a
    note when numba cannot be imported."""
    if engine not in ENGINES:
        raise ConfigError(f"unknown engine {engine!r}; choose {', '.join(ENGINES)}")
    if engine == "reference":
        return "reference", ""
    from wolfden import kernel

    if game.id not in kernel.MODULES:
        reason = f"{game.id} has no kernel"
    else:
        try:
            module = kernel.load(game.id)
        except ImportError as exc:
            return "reference", f"the kernel needs numba, which cannot be imported ({exc})"
        assert module is not None
        wanted = {bots.default, *(k for _, k in bots.seats), *(k for _, k in bots.teams)}
        lacking = sorted(wanted - set(module.POLICIES))
        unsupported = module.unsupported(config)
        if unsupported:
            reason = f"the kernel does not play this config: {unsupported}"
        elif lacking:
            reason = (
                f"the kernel has no {', '.join(lacking)} bot "
                f"(it plays {', '.join(module.POLICIES)})"
            )
        else:
            return "kernel", ""
    if engine == "kernel":
        raise ConfigError(f"--engine kernel: {reason}")
    return "reference", reason


def chunks(games: int, workers: int, size: int | None = None) -> list[tuple[int, int]]:
    """Consecutive index ranges: small enough for a live progress bar and a prompt Ctrl-C."""
    if size is None:
        size = max(1, min(500, math.ceil(games / max(1, workers * 24))))
    return [(start, min(games, start + size)) for start in range(0, games, size)]


@dataclass
class Study:
    """The result of a simulation run (possibly interrupted)."""

    plan: Plan
    tally: Tally = field(default_factory=Tally)
    rows: list[Row] = field(default_factory=list)
    done: list[tuple[int, int]] = field(default_factory=list)
    seconds: float = 0.0
    busy: float = 0.0
    """CPU seconds the workers spent playing, added up (``busy / seconds`` = cores used)."""
    interrupted: bool = False
    workers: int = 1
    backend: str = "local"

    def add(self, chunk: ChunkResult) -> None:
        self.tally += chunk.tally
        self.busy += chunk.cpu
        self.done.append((chunk.start, chunk.stop))
        if chunk.rows is not None:
            self.rows.extend(chunk.rows)

    def finish(self) -> None:
        self.done.sort()
        self.rows.sort(key=lambda row: row.index)


Progress = Callable[[int], None]
"""Called with the number of matches just finished."""


def default_workers() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def run(
    plan: Plan,
    *,
    workers: int | None = None,
    backend: str = "local",
    chunk_size: int | None = None,
    progress: Progress | None = None,
    executor: futures.Executor | None = None,
) -> Study:
    """Run the plan and return its study. Ctrl-C stops it: the study then holds what finished
    and has ``interrupted`` set. A local run may share an ``executor`` (a process pool) with
    other runs, which saves starting the workers again."""
    workers = workers or default_workers()
    if backend not in BACKENDS:
        raise ConfigError(f"unknown backend {backend!r}; choose {', '.join(BACKENDS)}")
    study = Study(plan, workers=workers, backend=backend)
    pieces = chunks(plan.games, workers, chunk_size)
    began = time.perf_counter()
    if backend == "ray":
        stream = _run_ray(plan, pieces, workers)
    else:
        stream = _run_local(plan, pieces, workers, executor)

    def take(chunk: ChunkResult) -> None:
        study.add(chunk)
        if progress is not None:
            progress(chunk.stop - chunk.start)

    try:
        for chunk in stream:
            take(chunk)
    except KeyboardInterrupt:
        study.interrupted = True
        # Let the backend hand over the chunks its workers finish after the interrupt.
        try:
            take(stream.throw(KeyboardInterrupt()))
            for chunk in stream:
                take(chunk)
        except (KeyboardInterrupt, StopIteration):
            pass
    study.seconds = time.perf_counter() - began
    study.finish()
    return study


def ignore_sigint() -> None:
    """Worker processes leave Ctrl-C to the main process, which stops handing out work."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _run_local(
    plan: Plan,
    pieces: Sequence[tuple[int, int]],
    workers: int,
    executor: futures.Executor | None = None,
) -> Generator[ChunkResult, None, None]:
    if workers <= 1 and executor is None:
        for start, stop in pieces:
            yield run_chunk(plan, start, stop)
        return
    import multiprocessing

    pool = executor or futures.ProcessPoolExecutor(
        workers, mp_context=multiprocessing.get_context("spawn"), initializer=ignore_sigint
    )
    pending: set[futures.Future[ChunkResult]] = set()
    queue = iter(pieces)
    try:
        for start, stop in queue:
            pending.add(pool.submit(run_chunk, plan, start, stop))
            if len(pending) >= workers * 3:
                break
        while pending:
            done, pending = futures.wait(pending, return_when=futures.FIRST_COMPLETED)
            for fut in sorted(done, key=lambda f: f.result().start):
                yield fut.result()
            for start, stop in queue:
                pending.add(pool.submit(run_chunk, plan, start, stop))
                if len(pending) >= workers * 3:
                    break
    except KeyboardInterrupt:
        for fut in pending:
            fut.cancel()
        # The workers ignore Ctrl-C and finish the chunk in hand; keep what they finish.
        done, _ = futures.wait(pending, timeout=30)
        for fut in done:
            if not fut.cancelled() and fut.exception() is None:
                yield fut.result()
        raise
    finally:
        if executor is None:
            pool.shutdown(wait=True, cancel_futures=True)


def _run_ray(
    plan: Plan, pieces: Sequence[tuple[int, int]], workers: int
) -> Generator[ChunkResult, None, None]:
    import logging

    try:
        import ray
    except ImportError as exc:
        raise ConfigError("the ray backend needs Ray: pip install 'wolfden[cluster]'") from exc
    started = not ray.is_initialized()
    if started:
        # RAY_ADDRESS in the environment joins an existing cluster; otherwise Ray starts locally.
        ray.init(
            num_cpus=None if os.environ.get("RAY_ADDRESS") else workers,
            include_dashboard=False,
            log_to_driver=False,
            logging_level=logging.ERROR,
        )
    remote = ray.remote(run_chunk)
    pending: list[Any] = []
    queue = iter(pieces)
    window = workers * 3
    try:
        for start, stop in queue:
            pending.append(remote.remote(plan, start, stop))
            if len(pending) >= window:
                break
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                yield ray.get(ref)
            for start, stop in queue:
                pending.append(remote.remote(plan, start, stop))
                if len(pending) >= window:
                    break
    except KeyboardInterrupt:
        for ref in pending:
            ray.cancel(ref, force=True)
        raise
    finally:
        if started:
            ray.shutdown()


def make_plan(
    game: Game,
    config: Any,
    *,
    games: int,
    seed: int,
    bots: BotPlan | None = None,
    keep_rows: bool = False,
    engine: str = "auto",
) -> Plan:
    """Check the bots against the game, choose the engine (:func:`choose_engine`) and freeze
    everything a worker needs."""
    if games < 1:
        raise ConfigError(f"--games must be at least 1, got {games}")
    bots = bots or BotPlan()
    check_bots(game, bots, config)
    chosen, note = choose_engine(game, config, bots, engine)
    return Plan(game_ref(game), config_to_json(config), bots, seed, games, keep_rows, chosen, note)

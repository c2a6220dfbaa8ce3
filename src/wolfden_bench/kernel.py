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

The compiled ISMCTS (:mod:`wolfden.kernel.robbers_horror_ismcts`) is measured twice:

- its CPU time per move at 1,000 simulations, beside OpenSpiel's C++ ``ISMCTSBot`` at 1,000
  simulations on the same ``oh_hell``, each playing whole games against itself, timed in turns,
  counting the moves with a choice (at least two legal actions);
- its strength against the reference ISMCTS bot (:class:`wolfden.bots.robbers_horror.IsmctsBot`)
  at equal simulations: 4-player one-deal matches through the match runner, the two kinds on
  alternating seats, each seed played twice with the seats swapped; the compiled search's share
  of the game points, with a 95 % bootstrap interval over the seeds.
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


ISMCTS_COMPILE_SCRIPT = """
import time
began = time.process_time()
import numpy as np
from wolfden.kernel import robbers_horror_ismcts as search
from wolfden.games.robbers_horror import Config
search.match_points(Config(players={players}, deals=1), [1], np.full((1, {players}), 2),
                    iterations=10, rollout="rules")
search.match_points(Config(players={players}, deals=1), [1], np.full((1, {players}), 2),
                    iterations=10, rollout="random")
print(time.process_time() - began)
"""


def compile_seconds(
    module: str, players: int, template: str = COMPILE_SCRIPT
) -> tuple[float, float]:
    """CPU seconds of a fresh process that imports a kernel and plays one match with each of
    its policies (or runs ``template``): with an empty numba cache (compiling), then with the
    cache it left."""
    import os

    script = template.format(module=module, players=players)
    out = []
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache}
        for _ in range(2):
            done = subprocess.run(
                [sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True
            )
            out.append(float(done.stdout.strip().splitlines()[-1]))
    return out[0], out[1]


SIMULATIONS = 1000
"""The simulations per move at which the two ISMCTS are timed."""


@dataclass(frozen=True)
class MoveTime:
    label: str
    ms_per_move: float
    low: float
    high: float
    moves: int


def kernel_ismcts_moves(
    simulations: int = SIMULATIONS, rollout: str = "random"
) -> tuple[Batch, list[float]]:
    """Whole 4-player one-deal Robbers' Horror games played by the compiled search at every
    seat, and the list that gets the CPU seconds of each move with a choice (the batch returns
    how many)."""
    from wolfden.games import robbers_horror as rh
    from wolfden.kernel import robbers_horror as kernel
    from wolfden.kernel import robbers_horror_ismcts as ismcts
    from wolfden.kernel.rng import generator

    cfg = kernel.config_array(rh.Config(players=4, deals=1))
    policy = ismcts.rollout_index(rollout)

    def play(games: int, first: int) -> int:
        moves = 0
        for seed in range(first, first + games):
            st = kernel.new_state()
            rng = generator(seed)
            kernel.start(st, cfg, rng)
            search_rng = generator(seed + 1)
            while st[kernel.TURN] >= 0:
                hand = int(st[kernel.HANDS + st[kernel.TURN]])
                choice = kernel.popcount(kernel.playable(hand)) > 1
                began = time.process_time()
                card = ismcts.choose(st, cfg, simulations, search_rng, policy, 0.7)
                if choice:
                    _spent.append(time.process_time() - began)
                    moves += 1
                kernel.apply_card(st, cfg, rng, card)
        return moves

    _spent: list[float] = []
    return play, _spent


def spiel_ismcts_moves(simulations: int = SIMULATIONS) -> tuple[Batch, list[float]]:
    """Whole ``oh_hell`` games played by OpenSpiel's C++ ``ISMCTSBot`` (random rollouts, UCT
    constant 2, the most visited move) at every seat, chance nodes sampled in Python."""
    import random

    import pyspiel

    game = pyspiel.load_game("oh_hell", OH_HELL)
    _spent: list[float] = []

    def play(games: int, first: int) -> int:
        moves = 0
        for seed in range(first, first + games):
            bot = pyspiel.ISMCTSBot(
                seed,
                pyspiel.RandomRolloutEvaluator(1, seed),
                2.0,
                simulations,
                -1,
                pyspiel.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
                False,
                False,
            )
            rng = random.Random(seed)
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes, probs = zip(*state.chance_outcomes())
                    state.apply_action(rng.choices(outcomes, probs)[0])
                    continue
                choice = len(state.legal_actions()) > 1
                began = time.process_time()
                action = bot.step(state)
                if choice:
                    _spent.append(time.process_time() - began)
                    moves += 1
                state.apply_action(action)
        return moves

    return play, _spent


def move_times(
    entries: list[tuple[str, tuple[Batch, list[float]], int]], *, repeats: int
) -> list[MoveTime]:
    """Each entry plays its number of games per repetition, the entries in turns; the median
    over the repetitions of the CPU ms per move with a choice (after one untimed game)."""
    for _, (play, _), _ in entries:
        play(1, 0)
    per: list[list[float]] = [[] for _ in entries]
    counts = [0] * len(entries)
    for r in range(repeats):
        for i, (_, (play, spent), games) in enumerate(entries):
            spent.clear()
            moves = play(games, (r + 1) * 1000)
            per[i].append(1000 * sum(spent) / max(moves, 1))
            counts[i] += moves
    return [
        MoveTime(label, statistics.median(per[i]), min(per[i]), max(per[i]), counts[i])
        for i, (label, _, _) in enumerate(entries)
    ]


@dataclass(frozen=True)
class HeadToHead:
    simulations: int
    pairs: int
    share: float
    low: float
    high: float
    points: int
    seconds: float


def bootstrap(mine: list[int], total: list[int], resamples: int = 4000) -> tuple[float, float]:
    """The 95 % percentile bootstrap interval of ``sum(mine) / sum(total)`` over the units."""
    import numpy as np

    a = np.asarray(mine, dtype=np.float64)
    b = np.asarray(total, dtype=np.float64)
    rng = np.random.default_rng(0x15C7)
    picks = rng.integers(0, len(a), size=(resamples, len(a)))
    sums = b[picks].sum(axis=1)
    ratios = a[picks].sum(axis=1) / np.where(sums > 0, sums, 1)
    return float(np.quantile(ratios, 0.025)), float(np.quantile(ratios, 0.975))


def kernel_vs_reference_ismcts(
    simulations: int, pairs: int, seed: int = 28, progress: Callable[[str], None] | None = None
) -> HeadToHead:
    """The compiled search (random rollouts) against today's ISMCTS bot at ``simulations`` each,
    in 4-player one-deal matches through the match runner: seats 0 and 2 compiled, 1 and 3
    reference, then the same seed with the seats swapped."""
    from wolfden import games
    from wolfden.bots.robbers_horror import IsmctsBot, KernelIsmctsBot
    from wolfden.engine.rng import derive_seed
    from wolfden.games import robbers_horror as rh
    from wolfden.sim.runner import play_match

    game = games.get(rh.id)
    config = rh.Config(players=4, deals=1)
    mine: list[int] = []
    total: list[int] = []
    began = time.perf_counter()
    for p in range(pairs):
        match_seed = derive_seed(seed, p)
        got = 0
        points = 0
        for swap in (0, 1):
            compiled = {s for s in range(4) if (s + swap) % 2 == 0}
            seats = {
                s: KernelIsmctsBot(s, iterations=simulations)
                if s in compiled
                else IsmctsBot(s, iterations=simulations)
                for s in range(4)
            }
            result = play_match(game, config, match_seed, seats)
            scored = result.outcome.stats["points"] if result.outcome else [0] * 4
            got += sum(int(scored[s]) for s in compiled)
            points += sum(int(x) for x in scored)
        mine.append(got)
        total.append(points)
        if progress is not None and (p + 1) % 10 == 0:
            progress(
                f"    {p + 1}/{pairs} seeds, share so far {sum(mine) / max(sum(total), 1):.3f}"
            )
    low, high = bootstrap(mine, total)
    return HeadToHead(
        simulations,
        pairs,
        sum(mine) / max(sum(total), 1),
        low,
        high,
        sum(total),
        time.perf_counter() - began,
    )


HEAD_TO_HEAD_SIMULATIONS = 200
HEAD_TO_HEAD_PAIRS = 60
"""The head-to-head's size: the reference bot takes about 0.1 s a move at 200 simulations, so
120 matches take a few minutes."""


def ismcts_section(repeat: int, spiel: bool, echo: Callable[[str], None]) -> str:
    """The compiled ISMCTS's time per move beside OpenSpiel's and its strength against the
    reference ISMCTS bot: what to say and the markdown."""
    entries: list[tuple[str, tuple[Batch, list[float]], int]] = [
        ("compiled ISMCTS, random rollouts", kernel_ismcts_moves(SIMULATIONS, "random"), 2),
        ("compiled ISMCTS, rules rollouts", kernel_ismcts_moves(SIMULATIONS, "rules"), 1),
    ]
    if spiel:
        entries.append(("OpenSpiel `ISMCTSBot` (C++)", spiel_ismcts_moves(SIMULATIONS), 1))
    times = move_times(entries, repeats=repeat)
    rows = [
        "| search, 1,000 simulations a move | game | CPU ms per move | range | moves timed |",
        "|---|---|---:|---:|---:|",
    ]
    for t, (_, _, _) in zip(times, entries):
        game = "`oh_hell` (as above)" if "OpenSpiel" in t.label else "Robbers' Horror, 4 players"
        echo(
            f"  {t.label}: {t.ms_per_move:.2f} ms/move ({t.low:.2f}–{t.high:.2f}), {t.moves} moves"
        )
        rows.append(
            f"| {t.label} | {game} | {t.ms_per_move:.2f} | {t.low:.2f}–{t.high:.2f} | {t.moves} |"
        )
    verdict = ""
    if spiel:
        ratio = times[0].ms_per_move / times[-1].ms_per_move
        echo(f"  compiled ISMCTS / OpenSpiel ISMCTSBot time per move: {ratio:.2f} (target ≤ 1)")
        verdict = (
            f"\n\nThe compiled search (random rollouts) takes **{ratio:.2f}×** OpenSpiel's time "
            "per move (target ≤ 1×)."
        )
    echo(
        f"  compiled ISMCTS against the reference ISMCTS bot, {HEAD_TO_HEAD_SIMULATIONS} "
        f"simulations each, {2 * HEAD_TO_HEAD_PAIRS} matches"
    )
    h = kernel_vs_reference_ismcts(HEAD_TO_HEAD_SIMULATIONS, HEAD_TO_HEAD_PAIRS, progress=echo)
    echo(f"  share of the game points {h.share:.3f} (95 % interval {h.low:.3f}–{h.high:.3f})")
    return (
        "ISMCTS: CPU milliseconds per move at 1,000 simulations, each search playing whole "
        "games against itself (every seat), timed in turns in the same run, median of "
        f"{repeat} repetitions; only moves with a choice are counted. OpenSpiel's bot: "
        "`pyspiel.ISMCTSBot(seed, RandomRolloutEvaluator(1, seed), uct_c=2.0, "
        "max_simulations=1000, max_world_samples=-1, MAX_VISIT_COUNT)`.\n\n"
        + "\n".join(rows)
        + verdict
        + "\n\nStrength: the compiled search (random rollouts) against today's ISMCTS bot "
        f"(`IsmctsBot`), {h.simulations} simulations a move each, {2 * h.pairs} 4-player "
        "one-deal matches through the match runner (the two kinds on alternating seats, each "
        "seed played twice with the seats swapped): the compiled search took "
        f"**{h.share:.3f}** of the {h.points} game points (95 % bootstrap interval over the "
        f"seeds {h.low:.3f}–{h.high:.3f}; one half is equal strength)."
    )


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
    ismcts_text = ismcts_section(repeat, spiel is not None, echo)
    compile_rows = [
        "| kernel | first run: compiling (empty cache) | cached run: loading the cache |",
        "|---|---:|---:|",
    ]
    for name, module, players, template in (
        ("Robbers' Horror", "robbers_horror", 4, COMPILE_SCRIPT),
        ("Robbers' Horror ISMCTS (with the kernel it plays on)", "", 4, ISMCTS_COMPILE_SCRIPT),
        ("Werewolf", "werewolf", 7, COMPILE_SCRIPT),
    ):
        first, cached = compile_seconds(module, players, template)
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
        + "\n\n"
        + ismcts_text
        + "\n\nCompile time, in CPU seconds of a fresh process that imports the kernel and "
        "plays one match with each of its policies (the ISMCTS: one match with each rollout "
        "policy; so the import of numba is included in both columns):\n\n" + "\n".join(compile_rows)
    )

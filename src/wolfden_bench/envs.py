"""Environment step throughput for ``wolfden bench``: agent steps per second of the AEC and
parallel environments beside the engine's own actions per second for the same game config.

An *agent step* is one action an agent chooses: a ``step(index)`` of the AEC environment
(with the ``last()`` that shows the agent its observation and mask before it), or one acting
agent's entry in a parallel ``step`` (with the observations the step returns). The engine's
figure counts every action applied, clock actions included, by :func:`playout_of`, which
needs no views; the environments encode every observation an agent is shown. Random masked
actions, drawn as the engine's loop draws them; each playout is one whole match.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from wolfden import envs, games
from wolfden_bench.playouts import Playout, draws, playout_of

ENV_OPTIONS: dict[str, dict[str, Any]] = {
    "werwoelfe-kids": {"max_cycles": 500},  # the village's placement has no clock
}
"""Options the benchmark gives an environment (and none to the engine's own loop)."""


def aec_playout(game_id: str, **options: Any) -> Playout:
    """Whole matches of the raw AEC environment with masked random actions; the number of
    agent steps each took."""
    env = envs.module(game_id).raw_env(**{**ENV_OPTIONS.get(game_id, {}), **options})
    draw = draws()

    def play(seed: int) -> int:
        env.reset(seed=seed)
        steps = 0
        last, step = env.last, env.step
        while env.agents:
            observation, _, termination, truncation, _ = last()
            if termination or truncation:
                step(None)
                continue
            legal = np.flatnonzero(observation["action_mask"])
            step(int(legal[int(draw() * len(legal))]))
            steps += 1
        return steps

    return play


def parallel_playout(game_id: str, **options: Any) -> Playout:
    """Whole matches of the parallel environment with masked random actions; the number of
    agent steps (acting agents' actions) each took."""
    env = envs.module(game_id).parallel_env(**{**ENV_OPTIONS.get(game_id, {}), **options})
    draw = draws()

    def play(seed: int) -> int:
        observations, _ = env.reset(seed=seed)
        steps = 0
        while env.agents:
            actions = {}
            for agent in env.acting():
                legal = np.flatnonzero(observations[agent]["action_mask"])
                actions[agent] = int(legal[int(draw() * len(legal))])
            steps += len(actions)
            observations, *_ = env.step(actions)
        return steps

    return play


VECTOR_MATCHES = 1024
"""Matches the batched environment steps at once in the benchmark."""


def vector_playout(game_id: str, num_envs: int = VECTOR_MATCHES) -> Playout | None:
    """``num_envs`` whole matches of the batched kernel environment, stepped together with
    random masked actions (drawn in compiled code); the agent steps they took. None for a game
    without a batched environment (or without numba)."""
    if game_id == "werewolf":
        return werewolf_vector_playout(num_envs)
    if game_id != "robbers-horror":
        return None
    try:
        from wolfden.envs.robbers_horror_vector import VectorEnv
        from wolfden.kernel.rng import generator
    except ImportError:
        return None
    venv = VectorEnv(num_envs)
    config = venv.config
    hand = 7 if config.players == 5 else 9
    steps = config.num_deals * hand * config.players
    rng = generator(1)

    def play(seed: int) -> int:
        venv.reset(seed=seed % 2**62)
        for _ in range(steps):
            venv.step(venv.random_actions(rng))
        return num_envs * steps

    return play


WEREWOLF_VECTOR_STEPS = 26
"""Steps per batched Werewolf playout: about one 7-player match with random actions."""


def werewolf_vector_playout(num_envs: int = VECTOR_MATCHES) -> Playout | None:
    """The batched Werewolf environment on its default config, stepped as many times as a
    match takes on average. Its matches differ in length, so they are not dealt together: the
    environment is reset once, and each match is dealt anew as it ends (as in training)."""
    try:
        from wolfden.envs.werewolf_vector import VectorEnv
        from wolfden.kernel.rng import generator
    except ImportError:
        return None
    venv = VectorEnv(num_envs, seed=1)
    venv.reset()
    rng = generator(1)

    def play(seed: int) -> int:
        for _ in range(WEREWOLF_VECTOR_STEPS):
            venv.step(venv.random_actions(rng))
        return num_envs * WEREWOLF_VECTOR_STEPS

    return play


def entries(game_id: str) -> list[tuple[str, Playout]]:
    """The engine's loop, the AEC and the parallel environment, on the environment's default
    config."""
    raw = envs.module(game_id).raw_env(**ENV_OPTIONS.get(game_id, {}))
    game = games.get(game_id)
    out = [
        (f"{game_id} engine", playout_of(game, raw.config)),
        (f"{game_id} AEC env", aec_playout(game_id)),
        (f"{game_id} parallel env", parallel_playout(game_id)),
    ]
    vector = vector_playout(game_id)
    if vector is not None:
        out.append((f"{game_id} batched env", vector))
    return out


def section(
    measure_together: Callable[..., list[Any]], game_ids: list[str], repeat: int, seconds: float
) -> tuple[str, list[str]]:
    """The Markdown table of every game's rates, and one line per game for the console."""
    rows = [
        "| game | engine actions/s | AEC env agent steps/s | share | parallel env agent "
        "steps/s | share | batched kernel env agent steps/s | share | agent steps per match "
        "(AEC) |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    lines = []
    for game_id in game_ids:
        engine, aec, par, *vector = measure_together(
            entries(game_id), repeats=repeat, seconds=seconds
        )
        a = aec.actions_per_s / engine.actions_per_s
        p = par.actions_per_s / engine.actions_per_s
        batched, batched_line = "—", ""
        if vector:
            v = vector[0].actions_per_s
            batched = f"{v:,.0f} | {v / engine.actions_per_s:.0%}"
            batched_line = f" | batched {v:>10,.0f} ({v / engine.actions_per_s:.0%})"
        else:
            batched = "— | —"
        rows.append(
            f"| {game_id} | {engine.actions_per_s:,.0f} | {aec.actions_per_s:,.0f} | "
            f"{a:.0%} | {par.actions_per_s:,.0f} | {p:.0%} | {batched} | "
            f"{aec.actions_per_game:.1f} |"
        )
        lines.append(
            f"  {game_id:<16} engine {engine.actions_per_s:>10,.0f} actions/s | AEC "
            f"{aec.actions_per_s:>8,.0f} agent steps/s ({a:.0%}) | parallel "
            f"{par.actions_per_s:>8,.0f} ({p:.0%}){batched_line}"
        )
    return "\n".join(rows), lines

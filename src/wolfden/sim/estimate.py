"""A Werewolf setup's balance, quickly: how often the Town wins between ``rules`` bots.

The setup editor asks for this while the host edits (the server runs :func:`play_chunk` in
worker processes of its own, so the server process never loads the simulator), and
``wolfden balance --setups`` measures the built-in library with it. Match ``i`` of an estimate
uses the seed ``derive_seed(ESTIMATE_SEED, i)``, as ``wolfden simulate --seed 1`` does, so an
estimate of a setup is the same on every run and for every room: it depends on the setup alone.

The compiled kernel plays the setups of the seed's roles (2,000 games in about a second);
for a setup with variant roles the rules play in Python, about 50 times slower, so an
estimate of such a setup is made of fewer games and its interval is wider (it says so).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from wolfden.engine.config import config_from_json
from wolfden.engine.rng import derive_seed
from wolfden.sim.stats import wilson

ESTIMATE_SEED = 1
BOTS = "rules"
KERNEL_GAMES = 2000
"""Games in an estimate of a setup the kernel plays."""
REFERENCE_GAMES = 2000
"""At most this many games for a setup the rules play in Python (fewer when time runs out)."""


@dataclass(frozen=True)
class Chunk:
    """Games ``start`` … ``stop - 1`` of an estimate: how many the Town won, and what played."""

    start: int
    stop: int
    town: int
    engine: str
    seconds: float


def engine_for(config: Any) -> str:
    """``kernel`` when the compiled kernel plays this Werewolf config, else ``reference``."""
    try:
        from wolfden.kernel import werewolf as kernel
    except ImportError:
        return "reference"
    return "kernel" if kernel.unsupported(config) is None else "reference"


def play_chunk(config_json: dict[str, Any], start: int, stop: int) -> Chunk:
    """Play matches ``start`` … ``stop - 1`` of a Werewolf config's estimate (in a worker)."""
    from wolfden import games
    from wolfden.sim.seating import BotPlan

    began = time.perf_counter()
    game = games.get("werewolf")
    config = config_from_json(game.Config, dict(config_json))
    seeds = [derive_seed(ESTIMATE_SEED, i) for i in range(start, stop)]
    engine = engine_for(config)
    if engine == "kernel":
        from wolfden.kernel import werewolf as kernel

        batch = kernel.play(config, seeds, BotPlan(default=BOTS))
        town_index = batch.team_names.index("town")
        town = int((batch.winning_team == town_index).sum())
    else:
        from wolfden.sim.runner import play_match
        from wolfden.sim.seating import bot_kinds

        make = bot_kinds(game)[BOTS]
        town = 0
        for seed in seeds:
            players = {seat: make(seat) for seat in range(game.num_seats(config))}
            outcome = play_match(game, config, seed, players).outcome
            town += outcome.winning_team == "town"
    return Chunk(start, stop, town, engine, time.perf_counter() - began)


def warm_up() -> str:
    """Load the kernel (compiled once, then from numba's cache) in a fresh worker."""
    from wolfden import games
    from wolfden.engine.config import config_to_json

    game = games.get("werewolf")

    play_chunk(config_to_json(game.Config(players=7)), 0, 2)
    return "ready"


def summary(town: int, games: int, engine: str) -> dict[str, Any]:
    """An estimate as the server sends it: the Town's share with its Wilson 95 % interval."""
    low, high = wilson(town, games)
    return {
        "town": town / games if games else 0.0,
        "low": low,
        "high": high,
        "games": games,
        "town_wins": town,
        "engine": engine,
        "bots": BOTS,
        "text": describe(town, games, engine),
    }


def describe(town: int, games: int, engine: str) -> str:
    """``Town wins 43 % (95 % interval 40–46 %, 2,000 simulated games with rules bots)``."""
    low, high = wilson(town, games)
    how = (
        ""
        if engine == "kernel" or games >= KERNEL_GAMES
        else "; these roles play in Python, so fewer games"
    )
    return (
        f"Town wins {round(100 * town / games)} % (95 % interval {round(100 * low)}–"
        f"{round(100 * high)} %, {games:,} simulated games with {BOTS} bots{how})"
    )


def measure(config_json: dict[str, Any], games: int, seconds: float) -> dict[str, Any]:
    """``games`` matches of an estimate, the summary of what was played. The kernel plays them
    all (in chunks of 500; 2,000 take well under a second); the rules in Python play chunks
    of 10 and stop once ``seconds`` have passed (at least one chunk is always played)."""
    began = time.perf_counter()
    from wolfden import games as registry

    config = config_from_json(registry.get("werewolf").Config, dict(config_json))
    size = 500 if engine_for(config) == "kernel" else 10
    town = played = 0
    engine = "kernel"
    while played < games:
        chunk = play_chunk(config_json, played, min(games, played + size))
        town += chunk.town
        played = chunk.stop
        engine = chunk.engine
        if engine == "reference" and time.perf_counter() - began >= seconds:
            break
    return summary(town, played, engine)


LIBRARY_SECTION = "Werewolf: the setup editor's built-in setups"


def measure_library(reference_games: int, command: str, echo: Callable[[str], None]) -> str:
    """Measure every built-in setup as the editor estimates a setup (``rules`` bots, the
    same seeds), write the figures beside the library (``setups_measured.json``) and return
    the Markdown table for docs/balance.md."""
    from wolfden.engine.config import config_to_json
    from wolfden.games.werewolf import setups

    figures: dict[str, Any] = {}
    rows = []
    for named in setups.library():
        config = setups.config_from_setup(named.setup)
        kernel = engine_for(config) == "kernel"
        games = KERNEL_GAMES if kernel else reference_games
        began = time.perf_counter()
        found = measure(config_to_json(config), games, float("inf"))
        found["measured"] = time.strftime("%Y-%m-%d")
        figures[named.key] = found
        setup = setups.parse_setup(named.setup)
        echo(f"  {named.name:<20} {found['text']} ({time.perf_counter() - began:.1f} s)")
        rows.append(
            f"| {named.name} | {setup.players} | `{named.setup}` | "
            f"{100 * found['town']:.1f} % ({100 * found['low']:.1f}–{100 * found['high']:.1f}) | "
            f"{found['games']:,} | {found['engine']} |"
        )
    path = resources.files(setups.__name__.rpartition(".")[0]).joinpath(setups.MEASURED)
    Path(str(path)).write_text(json.dumps(figures, indent=1, sort_keys=True) + "\n")
    return (
        "\n".join(
            [
                f"Command: `{command}` — each built-in setup of the lobby's setup editor "
                f"(`src/wolfden/games/werewolf/setups.py`), measured as the editor estimates a "
                f"setup: `rules` bots, match i with the seed derived from 1 and i. Setups of the "
                f"seed's roles play on the compiled kernel ({KERNEL_GAMES:,} games); setups with "
                f"variant roles play the rules in Python ({reference_games:,} games). "
                f"The figures are also written to `setups_measured.json` beside the library, and "
                f"the editor shows them.",
                "",
                "| setup | players | roles | Town wins (95 % interval) | games | engine |",
                "|---|---:|---|---:|---:|---|",
                *rows,
            ]
        )
        + "\n"
    )

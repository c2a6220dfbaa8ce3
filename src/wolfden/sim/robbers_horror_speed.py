"""How fast robbers-horror plays random deals through the public game contract, on one core.

    python -m wolfden.sim.robbers_horror_speed --deals 5000 --repeat 3

For each of the game's ``bench_configs()`` (one deal with 3, 4 and 5 players) it plays random
deals the way any client of the contract would: ``setup``, then until ``outcome`` is set,
``actors``, ``legal_actions`` for the seat to act, a uniform choice with the engine's seeded
generator, and ``apply``. It prints deals/s and card plays/s, best of ``--repeat`` runs.
``--clock cpu`` times with the process's CPU time instead of the wall clock.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

from wolfden import games
from wolfden.engine.rng import Rng


def random_deals(
    game: Any, config: Any, deals: int, seed: int, clock: Callable[[], float] = time.perf_counter
) -> tuple[float, int]:
    """Play ``deals`` random matches of ``config``: (seconds by ``clock``, actions)."""
    setup, actors, legal_actions = game.setup, game.actors, game.legal_actions
    apply, outcome = game.apply, game.outcome
    rng = Rng(seed)
    below = rng.below
    actions = 0
    start = clock()
    for i in range(deals):
        state = setup(config, seed + i)
        while outcome(state) is None:
            for seat in actors(state):
                legal = legal_actions(state, seat)
                state, _events = apply(state, seat, legal[below(len(legal))])
                actions += 1
                break
    return clock() - start, actions


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m wolfden.sim.robbers_horror_speed",
        description="Random robbers-horror deals per second through the game contract.",
    )
    parser.add_argument("--deals", type=int, default=5000, help="deals per run")
    parser.add_argument("--repeat", type=int, default=3, help="runs per config (best counts)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--clock",
        choices=("wall", "cpu"),
        default="wall",
        help="wall time, or the process's CPU time (steadier on a machine shared with others)",
    )
    args = parser.parse_args(argv)
    if args.deals < 1 or args.repeat < 1:
        parser.error("--deals and --repeat must be at least 1")
    game = games.get("robbers-horror")
    print("| config | deals/s | card plays/s |")
    print("|---|---:|---:|")
    for label, config in game.bench_configs():  # type: ignore[attr-defined]
        best = None
        for _ in range(args.repeat):
            clock = time.perf_counter if args.clock == "wall" else time.process_time
            seconds, actions = random_deals(game, config, args.deals, args.seed, clock)
            if best is None or seconds < best[0]:
                best = (seconds, actions)
        assert best is not None
        seconds, actions = best
        print(f"| {label} | {args.deals / seconds:,.0f} | {actions / seconds:,.0f} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

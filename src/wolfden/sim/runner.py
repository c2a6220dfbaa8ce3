"""Play one match to the end with bots (and, in the terminal, people) on a virtual clock.

The runner keeps the same rules of time as the server: every phase has a start, a deadline
from the game is measured from that start, and the clock applies the deadline's action when it
passes. Each bot decision takes ``think`` virtual seconds, so nothing waits for real time.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from wolfden.engine.contract import Game
from wolfden.engine.record import MatchRecord, new_record
from wolfden.engine.rng import Rng, derive_seed
from wolfden.engine.types import Action, Event, Outcome, Seat, Viewer

StepHook = Callable[[Any, Seat | None, Action, list[Event], float], None]
WaitHook = Callable[[Any, str], None]


class StuckMatch(RuntimeError):
    """The game waits for nobody and has no deadline: a bug in the game."""


@dataclass
class MatchResult:
    outcome: Outcome
    record: MatchRecord
    state: Any
    steps: int
    seconds: float
    stats: dict[str, Any] = field(default_factory=dict)


def play_match(
    game: Game,
    config: Any,
    seed: int,
    players: Mapping[Seat, Any],
    *,
    think: float = 1.0,
    max_steps: int = 100_000,
    on_step: StepHook | None = None,
    on_wait: WaitHook | None = None,
) -> MatchResult:
    """Run a match to its outcome. ``players`` maps every seat to a bot (or a terminal person).

    A player object has ``act(view, legal, rng)``; one with ``needs_view = False`` is handed an
    empty view (the random bot), which keeps simulations fast. ``on_step`` sees every applied
    action with its events; ``on_wait`` is called before the clock ends a phase nobody acts in.
    """
    state = game.setup(config, seed)
    record = new_record(game, config, seed)
    rng = Rng(derive_seed(seed, 0x5EA7))
    now = 0.0
    started: dict[int, float] = {}
    steps = 0
    empty: dict[str, Any] = {}
    while (result := game.outcome(state)) is None:
        if steps >= max_steps:
            raise StuckMatch(f"{game.id}: no outcome after {max_steps} steps")
        started.setdefault(game.phase_seq(state), now)
        actors = game.actors(state)
        dl = game.deadline(state)
        seat: Seat | None = None
        if dl is not None and (
            not actors or now + think >= started.setdefault(dl.phase, now) + dl.seconds
        ):
            now = max(now, started[dl.phase] + dl.seconds)
            action = dl.action
            if on_wait is not None and not actors:
                on_wait(state, dl.label)
        elif not actors:
            raise StuckMatch(f"{game.id}: nobody may act and no deadline is set")
        else:
            order = sorted(actors)
            seat = order[rng.below(len(order))] if len(order) > 1 else order[0]
            player = players[seat]
            legal = game.legal_actions(state, seat)
            wants_view = getattr(player, "needs_view", True)
            view = game.view(state, Viewer.of(seat)) if wants_view else empty
            action = player.act(view, legal, rng)
            now += think
        state, events = game.apply(state, seat, action)
        record.actions.append((seat, action))
        steps += 1
        if on_step is not None:
            on_step(state, seat, action, events, now)
    return MatchResult(result, record, state, steps, now)


def seats_of(game: Game, config: Any) -> Sequence[Seat]:
    return range(game.num_seats(config))

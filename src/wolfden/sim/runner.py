"""Play one match to the end with bots (and, in the terminal, people) on a virtual clock.

The runner keeps the same rules of time as the server: every phase has a start, a deadline
from the game is measured from that start, and the clock applies the deadline's action when it
passes. Each bot decision takes ``think`` virtual seconds, so nothing waits for real time.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from wolfden.engine.config import config_to_json
from wolfden.engine.contract import Game
from wolfden.engine.record import MatchRecord
from wolfden.engine.rng import Rng, derive_seed
from wolfden.engine.types import Action, Event, Outcome, Seat, Viewer

StepHook = Callable[[Any, Seat | None, Action, list[Event], float], None]
WaitHook = Callable[[Any, str], None]
Seating = Callable[[Mapping[Seat, str]], Mapping[Seat, Any]]
"""Players by team: given each seat's team (the game's ``seat_teams``), a player per seat."""


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
    players: Mapping[Seat, Any] | Seating,
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

    ``players`` may instead be a :data:`Seating` (bots by team): it is called with the game's
    ``seat_teams(state)`` once the match is set up, and again whenever a new phase begins and
    the teams are no longer the same (a new deal), and the players it returns play on.
    """
    # The game's functions and the bots' needs are looked up once: this loop is the
    # simulator's hot path.
    outcome, phase_seq, actors_of = game.outcome, game.phase_seq, game.actors
    deadline, legal_actions, view, apply = game.deadline, game.legal_actions, game.view, game.apply
    state = game.setup(config, seed)
    seating: Seating | None = None
    teams: Mapping[Seat, str] | None = None
    last_phase: int | None = None
    if isinstance(players, Mapping):
        seated = players
    else:
        if getattr(game, "seat_teams", None) is None:
            raise TypeError(f"{game.id} has no seat_teams, so it cannot seat bots by team")
        seating, teams = players, game.seat_teams(state)
        seated = seating(teams)
    wants_view = {seat: getattr(p, "needs_view", True) for seat, p in seated.items()}
    record = MatchRecord(game.id, game.version, _config_json(config), seed)
    append = record.actions.append
    rng = Rng(derive_seed(seed, 0x5EA7))
    below = rng.below
    now = 0.0
    started: dict[int, float] = {}
    steps = 0
    empty: dict[str, Any] = {}
    while (result := outcome(state)) is None:
        if steps >= max_steps:
            raise StuckMatch(f"{game.id}: no outcome after {max_steps} steps")
        phase = phase_seq(state)
        if phase not in started:
            started[phase] = now
        if seating is not None and phase != last_phase:
            last_phase = phase
            now_teams = game.seat_teams(state)
            if now_teams != teams:
                teams = now_teams
                seated = seating(teams)
                wants_view = {seat: getattr(p, "needs_view", True) for seat, p in seated.items()}
        actors = actors_of(state)
        dl = deadline(state)
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
            if len(actors) == 1:
                (seat,) = actors
            else:
                order = sorted(actors)
                seat = order[below(len(order))]
            legal = legal_actions(state, seat)
            seen = view(state, Viewer.of(seat)) if wants_view[seat] else empty
            action = seated[seat].act(seen, legal, rng)
            now += think
        state, events = apply(state, seat, action)
        append((seat, action))
        steps += 1
        if on_step is not None:
            on_step(state, seat, action, events, now)
    return MatchResult(result, record, state, steps, now)


_CONFIG_JSON: dict[int, tuple[Any, dict[str, Any]]] = {}


def _config_json(config: Any) -> dict[str, Any]:
    """The config as JSON for the match record, converted once per config object."""
    cached = _CONFIG_JSON.get(id(config))
    if cached is None or cached[0] is not config:
        if len(_CONFIG_JSON) > 64:
            _CONFIG_JSON.clear()
        cached = _CONFIG_JSON[id(config)] = (config, config_to_json(config))
    return dict(cached[1])

"""Checks that every registered game keeps the contract.

Run by the test suite over every game (``tests/test_conformance.py``); also usable on a game
under construction: ``run_all(game, playouts=100)``.
"""

from __future__ import annotations

import json
import pickle
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from wolfden.engine.contract import Game
from wolfden.engine.errors import IllegalAction, MatchOver, NotYourTurn
from wolfden.engine.rng import Rng, derive_seed
from wolfden.engine.types import (
    OMNISCIENT,
    SPECTATOR,
    TABLE,
    Action,
    Event,
    Seat,
    Viewer,
)


class ConformanceError(AssertionError):
    pass


@dataclass
class Report:
    playouts: int = 0
    steps: int = 0
    max_steps: int = 0
    largest_view: int = 0
    largest_view_where: str = ""
    largest_events: int = 0
    wall_checks: int = 0
    wall_event_checks: int = 0
    illegal_checks: int = 0
    outcomes: dict[str, int] = field(default_factory=dict)


def viewers_of(game: Game, state: Any) -> list[Viewer]:
    n = game.num_seats(state_config(state))
    return [Viewer.of(s) for s in range(n)] + [SPECTATOR, TABLE]


def state_config(state: Any) -> Any:
    return state.config


def _snapshot(state: Any) -> bytes:
    return pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL)


def random_steps(
    game: Game, config: Any, seed: int, *, max_steps: int, timeout_chance: float = 0.05
) -> Iterator[tuple[Any, Seat | None, Action, Any, list[Event], Rng]]:
    """A random playout: yields (before, seat, action, after, events, rng) for every step.

    The clock's deadline action is taken when nobody may act, and now and then at random
    (a phase running out of time) so that timeouts are exercised too.
    """
    rng = Rng(derive_seed(seed, 0xC0F))
    state = game.setup(config, seed)
    for _ in range(max_steps):
        if game.outcome(state) is not None:
            return
        actors = sorted(game.actors(state))
        dl = game.deadline(state)
        seat: Seat | None
        if dl is not None and (not actors or rng.chance(timeout_chance)):
            seat, action = None, dl.action
        elif not actors:
            raise ConformanceError(f"{game.id}: nobody may act and there is no deadline")
        else:
            seat = actors[rng.below(len(actors))]
            legal = game.legal_actions(state, seat)
            if not legal:
                raise ConformanceError(f"{game.id}: actor {seat} has no legal action")
            action = legal[rng.below(len(legal))]
        after, events = game.apply(state, seat, action)
        yield state, seat, action, after, events, rng
        state = after
    raise ConformanceError(f"{game.id}: no outcome within {max_steps} steps (seed {seed})")


def check_playout(
    game: Game, config: Any, seed: int, report: Report, *, max_steps: int, deep: bool
) -> None:
    """One random playout with every per-step check. ``deep`` adds the costly ones."""
    actions: list[tuple[Seat | None, Action]] = []
    views_seen: list[str] = []
    steps = 0
    last_state = None
    for before, seat, action, after, events, rng in random_steps(
        game, config, seed, max_steps=max_steps
    ):
        steps += 1
        actions.append((seat, action))
        check_action_roundtrip(action)
        if deep:
            snap = _snapshot(before)
            game.apply(before, seat, action)
            if _snapshot(before) != snap:
                raise ConformanceError(f"{game.id}: apply mutated its input state at {action}")
            check_illegal_rejected(game, before, rng, report)
            check_views(game, after, events, report, views_seen)
            check_information_wall(game, before, rng, report)
        last_state = after
    report.playouts += 1
    report.steps += steps
    report.max_steps = max(report.max_steps, steps)
    outcome = game.outcome(last_state)
    if outcome is None:
        raise ConformanceError(f"{game.id}: the playout ended without an outcome")
    key = outcome.winning_team or "draw"
    report.outcomes[key] = report.outcomes.get(key, 0) + 1
    json.dumps(outcome.to_json())
    try:
        game.apply(last_state, None, Action("nonsense"))
    except MatchOver:
        pass
    except IllegalAction as exc:
        raise ConformanceError(f"{game.id}: an action after the end must raise MatchOver") from exc
    else:
        raise ConformanceError(f"{game.id}: an action after the end was accepted")
    check_seat_teams(game, config, seed, last_state, outcome.teams)
    if deep:
        check_determinism(game, config, seed, actions, views_seen)


def check_seat_teams(
    game: Game, config: Any, seed: int, end: Any, outcome_teams: Mapping[Seat, str]
) -> None:
    """The optional ``seat_teams`` names seats and teams from ``team_names``, at the start and
    at the end, and after the end agrees with the Outcome's teams."""
    seat_teams = getattr(game, "seat_teams", None)
    team_names = getattr(game, "team_names", None)
    if seat_teams is None and team_names is None:
        return
    if seat_teams is None or team_names is None:
        raise ConformanceError(f"{game.id}: give both seat_teams and team_names, or neither")
    names = set(team_names(config))
    seats = range(game.num_seats(config))
    for when, state in (("at the start", game.setup(config, seed)), ("at the end", end)):
        teams = seat_teams(state)
        wrong = {s: t for s, t in teams.items() if s not in seats or t not in names}
        if wrong:
            raise ConformanceError(
                f"{game.id}: seat_teams {when} gives {wrong}; the seats are 0 to "
                f"{len(seats) - 1} and team_names are {sorted(names)}"
            )
    differ = {
        s: (t, outcome_teams.get(s))
        for s, t in seat_teams(end).items()
        if outcome_teams.get(s) != t
    }
    if differ:
        raise ConformanceError(
            f"{game.id}: after the end seat_teams disagrees with the Outcome's teams "
            f"(seat: (seat_teams, Outcome)): {differ}"
        )


def check_action_roundtrip(action: Action) -> None:
    if Action.parse(str(action)) != action:
        raise ConformanceError(f"{action!r} does not round-trip through its string form")
    if Action.from_json(json.loads(json.dumps(action.to_json()))) != action:
        raise ConformanceError(f"{action!r} does not round-trip through JSON")


def check_views(
    game: Game, state: Any, events: list[Event], report: Report, views_seen: list[str]
) -> None:
    for viewer in [*viewers_of(game, state), OMNISCIENT]:
        try:
            text = json.dumps(game.view(state, viewer), ensure_ascii=False, allow_nan=False)
            ev = json.dumps(game.visible_events(state, events, viewer), ensure_ascii=False)
        except (TypeError, ValueError) as exc:
            raise ConformanceError(f"{game.id}: view for {viewer} is not JSON: {exc}") from exc
        views_seen.append(text)
        views_seen.append(ev)
        if len(text) > report.largest_view:
            report.largest_view = len(text)
            report.largest_view_where = f"{viewer} in phase {game.view(state, viewer).get('phase')}"
        report.largest_events = max(report.largest_events, len(ev))


def check_illegal_rejected(game: Game, state: Any, rng: Rng, report: Report) -> None:
    """Actions outside legal_actions raise a typed error and leave the state unchanged."""
    snap = _snapshot(state)
    actors = game.actors(state)
    n = game.num_seats(state_config(state))
    candidates: list[tuple[Seat, Action, type[IllegalAction]]] = []
    for seat in range(n):
        legal = set(game.legal_actions(state, seat)) if seat in actors else set()
        if seat in actors and not legal:
            raise ConformanceError(f"{game.id}: actor {seat} has no legal action")
        candidates.append((seat, Action("nonsense", (seat,)), IllegalAction))
        other = (seat + 1 + rng.below(n - 1)) % n if n > 1 else seat
        for foreign in game.legal_actions(state, other) if other in actors else []:
            if foreign not in legal:
                expected: type[IllegalAction] = IllegalAction if seat in actors else NotYourTurn
                candidates.append((seat, foreign, expected))
                break
    for seat, action, expected in candidates:
        try:
            game.apply(state, seat, action)
        except expected:
            report.illegal_checks += 1
        except Exception as exc:
            raise ConformanceError(
                f"{game.id}: seat {seat} {action} raised {type(exc).__name__}, "
                f"expected {expected.__name__}: {exc}"
            ) from exc
        else:
            raise ConformanceError(f"{game.id}: illegal {action} by seat {seat} was accepted")
        if _snapshot(state) != snap:
            raise ConformanceError(f"{game.id}: a rejected action changed the state")


def check_information_wall(game: Game, state: Any, rng: Rng, report: Report) -> None:
    """Change what a viewer cannot know; the viewer must not notice, in the view or the events."""
    actors = sorted(game.actors(state))
    for viewer in viewers_of(game, state):
        other = game.perturb_hidden(state, viewer, rng)
        if other is None:
            continue
        mine, theirs = game.view(state, viewer), game.view(other, viewer)
        if mine != theirs:
            raise ConformanceError(
                f"{game.id}: {viewer} can tell apart two states that differ only in what it "
                f"may not know:\n{_diff(mine, theirs)}"
            )
        report.wall_checks += 1
        for seat in actors:
            if viewer.seat == seat:
                continue
            legal = game.legal_actions(state, seat)
            action = legal[rng.below(len(legal))]
            try:
                after_other, events_other = game.apply(other, seat, action)
            except IllegalAction:
                continue
            after, events = game.apply(state, seat, action)
            a = game.visible_events(after, events, viewer)
            b = game.visible_events(after_other, events_other, viewer)
            if a != b:
                raise ConformanceError(
                    f"{game.id}: the events of {action} by seat {seat} tell {viewer} "
                    f"something it may not know:\n{a}\n  vs\n{b}"
                )
            va, vb = game.view(after, viewer), game.view(after_other, viewer)
            if va != vb:
                raise ConformanceError(
                    f"{game.id}: after {action} by seat {seat}, {viewer} can tell apart states "
                    f"that differ only in what it may not know:\n{_diff(va, vb)}"
                )
            report.wall_event_checks += 1
            break


def _diff(a: Any, b: Any, path: str = "view") -> str:
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b), key=str):
            if a.get(k) != b.get(k):
                return _diff(a.get(k), b.get(k), f"{path}.{k}")
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b)):
            if x != y:
                return _diff(x, y, f"{path}[{i}]")
    return f"  {path}: {a!r} != {b!r}"


def check_determinism(
    game: Game,
    config: Any,
    seed: int,
    actions: list[tuple[Seat | None, Action]],
    views_seen: list[str],
) -> None:
    """The same config, seed and actions give the same views and events, step by step."""
    state = game.setup(config, seed)
    replayed: list[str] = []
    for seat, action in actions:
        state, events = game.apply(state, seat, action)
        for viewer in [*viewers_of(game, state), OMNISCIENT]:
            replayed.append(json.dumps(game.view(state, viewer), ensure_ascii=False))
            replayed.append(
                json.dumps(game.visible_events(state, events, viewer), ensure_ascii=False)
            )
    if replayed != views_seen:
        first = next(i for i, (x, y) in enumerate(zip(replayed, views_seen)) if x != y)
        raise ConformanceError(f"{game.id}: replay differs at record {first}")


def run_all(
    game: Game,
    *,
    playouts: int = 1000,
    deep_every: int = 10,
    max_steps: int = 5000,
    seed: int = 2026,
    progress: Callable[[int], None] | None = None,
) -> Report:
    """Random playouts over the game's sample configs; every ``deep_every``-th one deeply."""
    report = Report()
    configs = list(game.sample_configs())
    if not configs:
        raise ConformanceError(f"{game.id}: sample_configs() is empty")
    for i in range(playouts):
        config = configs[i % len(configs)]
        check_playout(
            game,
            config,
            derive_seed(seed, i),
            report,
            max_steps=max_steps,
            deep=(i % deep_every == 0),
        )
        if progress is not None:
            progress(i)
    return report

"""A tiny game for the simulator's tests: two teams add up secret picks, parity scores a point.

Every round each seat secretly picks 1, 2 or 3 (all at once). An even total scores for the
Evens (even seats), an odd total for the Odds; one round in ten is void (the game's RNG). After
each round a short pause ends by its deadline. The first team to ``target`` points wins; at
``max_rounds`` the match is a draw. Seats 0 and 1 are captains; in the ``loaded`` variant their
picks count double. It follows the game contract so the simulator can run it like any game.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any, NamedTuple

from wolfden.engine.config import option
from wolfden.engine.errors import ConfigError, IllegalAction, MatchOver, NotYourTurn
from wolfden.engine.rng import Rng
from wolfden.engine.types import Action, Deadline, Event, Outcome, Viewer, filter_events

id = "tiny-parity"
version = "1"
title = "Tiny Parity"


class Variant(enum.Enum):
    PLAIN = "plain"
    LOADED = "loaded"


@dataclass(frozen=True)
class Config:
    players: int = option(4, "Players at the table.", min=2, max=6, label="Players")
    target: int = option(3, "Points a team needs to win.", min=1, max=9)
    variant: Variant = option(Variant.PLAIN, "plain, or loaded (captains count double).")  # noqa: RUF009
    pause_seconds: float = option(5.0, "Length of the pause after a round.")
    max_rounds: int | None = option(12, "Rounds before a draw (none: no limit).")
    void_chance: float = option(0.1, "Chance that a round scores nothing.")
    announce: bool = option(True, "Announce each round's total.")

    def validate(self) -> None:
        if not 2 <= self.players <= 6:
            raise ConfigError(f"players must be 2 to 6, got {self.players}")
        if self.max_rounds is not None and self.max_rounds < 1:
            raise ConfigError("max_rounds must be at least 1, or none")


TEAMS = ("evens", "odds")
PICKS = tuple(Action("pick", (n,)) for n in (1, 2, 3))
NEXT = Action("next")


class State(NamedTuple):
    config: Config
    rng: int
    round: int
    pausing: bool
    seq: int
    picks: tuple[int, ...]
    points: tuple[int, int]
    first_point: str | None
    over: bool


def team_of(seat: int) -> str:
    return TEAMS[seat % 2]


def role_of(seat: int) -> str:
    return "captain" if seat < 2 else "player"


def setup(config: Config, seed: int) -> State:
    config.validate()
    return State(config, seed, 1, False, 0, (0,) * config.players, (0, 0), None, False)


def num_seats(config: Config) -> int:
    return config.players


def team_names(config: Config) -> tuple[str, ...]:
    return TEAMS


def seat_teams(state: State) -> dict[int, str]:
    return {seat: team_of(seat) for seat in range(state.config.players)}


def actors(state: State) -> frozenset[int]:
    if state.over or state.pausing:
        return frozenset()
    return frozenset(s for s, p in enumerate(state.picks) if p == 0)


def legal_actions(state: State, seat: int | None) -> list[Action]:
    if seat is None or seat not in actors(state):
        return []
    return list(PICKS)


def apply(state: State, seat: int | None, action: Action) -> tuple[State, list[Event]]:
    if state.over:
        raise MatchOver("the match is over")
    if seat is None:
        if not state.pausing or action != NEXT:
            raise IllegalAction("only the clock ends the pause")
        nxt = state._replace(
            pausing=False, round=state.round + 1, seq=state.seq + 1, picks=(0,) * len(state.picks)
        )
        return nxt, [Event("round", {"round": nxt.round}, text=f"Round {nxt.round}.")]
    if seat not in actors(state):
        raise NotYourTurn(f"seat {seat} has already picked")
    if action not in PICKS:
        raise IllegalAction(f"{action} is not allowed; pick 1, 2 or 3")
    picks = list(state.picks)
    picks[seat] = int(action.args[0])
    state = state._replace(picks=tuple(picks))
    if 0 in picks:
        return state, []
    return resolve_round(state)


def resolve_round(state: State) -> tuple[State, list[Event]]:
    weight = 2 if state.config.variant is Variant.LOADED else 1
    total = sum(p * (weight if s < 2 else 1) for s, p in enumerate(state.picks))
    rng = Rng(state.rng)
    points = list(state.points)
    scorer = None
    if not rng.chance(state.config.void_chance):
        scorer = total % 2
        points[scorer] += 1
    first = state.first_point or (TEAMS[scorer] if scorer is not None else None)
    over = max(points) >= state.config.target or (
        state.config.max_rounds is not None and state.round >= state.config.max_rounds
    )
    nxt = state._replace(
        rng=rng.state,
        points=(points[0], points[1]),
        first_point=first,
        over=over,
        pausing=not over,
        seq=state.seq + 1,
    )
    text = f"The total is {total}." if state.config.announce else ""
    return nxt, [Event("total", {"total": total, "points": points}, text=text)]


def deadline(state: State) -> Deadline | None:
    if state.pausing:
        return Deadline(state.seq, state.config.pause_seconds, NEXT, "pause")
    return None


def view(state: State, viewer: Viewer) -> dict[str, Any]:
    out: dict[str, Any] = {"round": state.round, "points": list(state.points)}
    if viewer.seat is not None:
        out["my_pick"] = state.picks[viewer.seat]
    return out


def visible_events(state: State, events: Any, viewer: Viewer) -> list[dict[str, Any]]:
    return filter_events(events, viewer)


def outcome(state: State) -> Outcome | None:
    if not state.over:
        return None
    seats = range(state.config.players)
    evens, odds = state.points
    team = None if evens == odds else TEAMS[0 if evens > odds else 1]
    return Outcome(
        winners=frozenset(s for s in seats if team_of(s) == team),
        winning_team=team,
        summary=f"{evens}:{odds}",
        teams={s: team_of(s) for s in seats},
        roles={s: role_of(s) for s in seats},
        rounds=state.round,
        stats={
            "first_point": state.first_point,
            "margin": abs(evens - odds),
            "points": {"evens": evens, "odds": odds},
        },
    )


def phase_seq(state: State) -> int:
    return state.seq


def sample_configs() -> list[Config]:
    return [Config(), Config(players=5, variant=Variant.LOADED)]


def perturb_hidden(state: State, viewer: Viewer, rng: Rng) -> State | None:
    return None

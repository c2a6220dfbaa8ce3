"""Which bot plays which seat: the ``--bots`` grammar shared by ``simulate`` and ``play``.

``--bots`` takes one of:

- ``KIND``: that kind at every seat;
- ``KIND,KIND,…``: one kind per seat, seat 0 first;
- items ``SEAT=KIND`` (a seat by number), ``TEAM=KIND`` (every seat on that team) and
  ``*=KIND`` (every other seat; a single plain ``KIND`` among the items says the same). Seats
  that no item reaches get ``random``.

A seat named by number comes first, then a seat chosen by the game's own flags (such as
Werwölfe Kids' ``--vs-bot``), then the seat's team, then the kind for the other seats.

Teams are dealt in secret, so bots by team are seated once the match is set up: the runner
asks the game's ``seat_teams(state)`` (see :mod:`wolfden.engine.contract`) and asks again when
a new phase begins, so that a game which deals new teams during a match (each deal of Robbers'
Horror, each round of Werewords) has each deal's teams played by the bots chosen for them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from wolfden import bots as bot_registry
from wolfden.engine.contract import Game
from wolfden.engine.errors import ConfigError
from wolfden.engine.types import Seat
from wolfden.sim.runner import Seating

OTHERS = "*"
DEFAULT = "random"
GRAMMAR = (
    "--bots takes KIND (every seat), KIND,KIND,… (one per seat) or items SEAT=KIND, "
    "TEAM=KIND and *=KIND (* = every other seat, random if not given)"
)


@dataclass(frozen=True)
class BotPlan:
    """Bot kinds by seat, by team (decided after the deal), and for everyone else."""

    default: str = DEFAULT
    seats: tuple[tuple[int, str], ...] = ()
    teams: tuple[tuple[str, str], ...] = ()

    def describe(self, teams: Sequence[str] = ()) -> str:
        """For reports: ``werewolves: rules, others: random``. ``teams`` (the game's teams)
        leaves out the others when every team has its own kind."""
        if not self.seats and not self.teams:
            return f"{self.default} (all seats)"
        parts = [f"seat {seat}: {kind}" for seat, kind in self.seats]
        parts += [f"{team}: {kind}" for team, kind in self.teams]
        if not (teams and set(teams) <= {team for team, _ in self.teams}):
            parts.append(f"others: {self.default}")
        return ", ".join(parts)

    def to_json(self) -> dict[str, Any]:
        return {
            "default": self.default,
            "seats": {str(seat): kind for seat, kind in self.seats},
            "teams": dict(self.teams),
        }

    def kinds(self) -> set[str]:
        return {self.default, *(k for _, k in self.seats), *(k for _, k in self.teams)}

    def kinds_for(self, num_seats: int, teams: Mapping[Seat, str] | None = None) -> list[str]:
        """Each seat's bot kind, given each seat's team (needed only for bots by team)."""
        kinds = [self.default] * num_seats
        if self.teams and teams:
            by_team = dict(self.teams)
            for seat, team in teams.items():
                kind = by_team.get(team)
                if kind is not None and 0 <= seat < num_seats:
                    kinds[seat] = kind
        for seat, kind in self.seats:
            kinds[seat] = kind
        return kinds


def parse_bots(
    spec: str | None, num_seats: int, overrides: Mapping[int, str] | None = None
) -> BotPlan:
    """Read ``--bots`` (see the module's description). ``overrides`` (from a game's own flags)
    set seats that ``--bots`` does not name by number. Raises ConfigError for a bad spec."""
    items = [part.strip() for part in (spec or "").split(",")] if spec else []
    if spec is not None and (not items or any(not item for item in items)):
        raise ConfigError(f"--bots {spec!r} has an empty item")
    plain = [item for item in items if "=" not in item]
    named = [item for item in items if "=" in item]
    seats: dict[int, str] = {}
    teams: dict[str, str] = {}
    default: str | None = None
    if len(plain) == 1:
        default = plain[0]
    elif plain and named:
        raise ConfigError(
            f"--bots mixes {len(plain)} plain kinds with SEAT=KIND / TEAM=KIND items; among "
            "items give at most one plain kind (for the other seats)"
        )
    elif plain and len(plain) != num_seats:
        raise ConfigError(
            f"--bots lists {len(plain)} kinds for {num_seats} seats; give one kind for all seats "
            f"or one per seat"
        )
    elif plain:
        seats = dict(enumerate(plain))
    for item in named:
        key, _, kind = (s.strip() for s in item.partition("="))
        if not key or not kind or "=" in kind:
            raise ConfigError(f"--bots item {item!r}: write SEAT=KIND, TEAM=KIND or *=KIND")
        if key == OTHERS:
            if default is not None:
                raise ConfigError(f"--bots gives the kind for the other seats twice ({item!r})")
            default = kind
        elif key.isdigit():
            seat = int(key)
            if seat >= num_seats:
                raise ConfigError(f"--bots names seat {seat}; the seats are 0 to {num_seats - 1}")
            if seat in seats:
                raise ConfigError(f"--bots names seat {seat} twice")
            seats[seat] = kind
        else:
            if key in teams:
                raise ConfigError(f"--bots names team {key!r} twice")
            teams[key] = kind
    for seat, kind in (overrides or {}).items():
        seats.setdefault(seat, kind)
    return BotPlan(default or DEFAULT, tuple(sorted(seats.items())), tuple(sorted(teams.items())))


def bot_kinds(game: Game) -> dict[str, Callable[[int], Any]]:
    """The bot factories of a game by kind; a game whose entry names no bots has the random
    bot (so has a game module that is not registered)."""
    return bot_registry.kinds(game.id)


def known_teams(game: Game, config: Any) -> tuple[str, ...]:
    """The teams a game can seat bots by with this config (none without ``seat_teams``)."""
    if getattr(game, "seat_teams", None) is None or getattr(game, "team_names", None) is None:
        return ()
    return tuple(game.team_names(config))


def check_bots(game: Game, plan: BotPlan, config: Any = None, *, lists: bool = True) -> None:
    """Every kind is one of the game's bots and every team one of its teams. The errors name
    the kinds or teams allowed (unless ``lists`` is false: the caller adds them)."""
    available = bot_kinds(game)
    for kind in sorted(plan.kinds()):
        if kind not in available:
            choose = f"; choose {', '.join(available)}" if lists else ""
            raise ConfigError(f"unknown bot {kind!r} for {game.id}{choose}")
    if not plan.teams:
        return
    if getattr(game, "seat_teams", None) is None:
        raise ConfigError(
            f"{game.id} does not say who is on which team before the end; give bots per seat"
        )
    config = game.Config() if config is None else config
    teams = known_teams(game, config)
    if not teams:
        raise ConfigError(
            f"{game.id} with these options cannot tell who is on which team; give bots per seat"
        )
    for team, _ in plan.teams:
        if team not in teams:
            choose = f"; its teams are {', '.join(teams)}" if lists else ""
            raise ConfigError(f"unknown team {team!r} for {game.id}{choose}")


def bots_help(game: Game, config: Any) -> str:
    """What ``--bots`` accepts for this game: the grammar, its bot kinds and its teams."""
    kinds = ", ".join(bot_kinds(game))
    teams = known_teams(game, config)
    shown = f"teams {', '.join(teams)}" if teams else "no teams to seat bots by"
    return f"{game.id} has bots {kinds} and {shown}; {GRAMMAR}"


def bot_plan(
    game: Game, config: Any, spec: str | None, overrides: Mapping[int, str] | None = None
) -> BotPlan:
    """Parse and check ``--bots`` for a game; an error says what was wrong and what is allowed."""
    try:
        plan = parse_bots(spec, game.num_seats(config), overrides)
        check_bots(game, plan, config, lists=False)
    except ConfigError as exc:
        raise ConfigError(f"{exc}. {bots_help(game, config)}") from exc
    return plan


def seat_kinds(game: Game, plan: BotPlan, state: Any, num_seats: int) -> list[str]:
    """Each seat's bot kind in ``state`` (teams read from the state only for bots by team)."""
    teams = game.seat_teams(state) if plan.teams else None
    return plan.kinds_for(num_seats, teams)


def seat_players(
    plan: BotPlan,
    make: Callable[[str, Seat], Any],
    num_seats: int,
    fixed: Mapping[Seat, Any] | None = None,
) -> Mapping[Seat, Any] | Seating:
    """The players of one match: bots made by ``make(kind, seat)`` and the ``fixed`` players
    (people at the terminal). Without bots by team, a mapping of seat to player; with them, a
    :data:`Seating` for the runner, which keeps one bot per seat and kind for the whole match
    (a seat that changes team between deals gets that team's bot, and its own bot back later).
    """
    fixed = dict(fixed or {})
    if not plan.teams:
        kinds = plan.kinds_for(num_seats)
        return {
            seat: fixed[seat] if seat in fixed else make(kinds[seat], seat)
            for seat in range(num_seats)
        }
    made: dict[tuple[Seat, str], Any] = {}

    def seating(teams: Mapping[Seat, str]) -> Mapping[Seat, Any]:
        players: dict[Seat, Any] = {}
        for seat, kind in enumerate(plan.kinds_for(num_seats, teams)):
            if seat in fixed:
                players[seat] = fixed[seat]
                continue
            bot = made.get((seat, kind))
            if bot is None:
                bot = made[seat, kind] = make(kind, seat)
            players[seat] = bot
        return players

    return seating

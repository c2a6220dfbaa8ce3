"""Balance statistics: Wilson intervals and a mergeable tally of match outcomes.

A :class:`Tally` counts wins per team, role and seat, the length of each game and the
game-specific figures of ``Outcome.stats``. Tallies merge by addition, so the order in which
workers finish never changes the totals: the same seed gives the same report on one core,
on many, or on a cluster.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from wolfden.engine.types import Outcome

Z95 = 1.959963984540054
"""The two-sided 95% quantile of the standard normal distribution."""

DRAW = "draw"


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion (95% by default).

    Unlike the normal approximation it stays inside [0, 1] and is sensible for rates near
    0 or 1 and for small samples. With no trials at all the interval is the whole [0, 1].
    """
    if trials <= 0:
        return (0.0, 1.0)
    if not 0 <= successes <= trials:
        raise ValueError(f"successes must be between 0 and {trials}, got {successes}")
    p = successes / trials
    z2 = z * z
    denom = 1.0 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / denom
    # The interval always contains the observed rate (also against rounding at 0 and 1).
    return (max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half)))


def rate(successes: int, trials: int) -> dict[str, Any]:
    """``{"wins", "games", "rate", "ci95"}`` for a count of successes out of trials."""
    lo, hi = wilson(successes, trials)
    return {
        "wins": successes,
        "games": trials,
        "rate": successes / trials if trials else 0.0,
        "ci95": [lo, hi],
    }


@dataclass
class Row:
    """One finished match, small enough to keep a million of them for the raw CSV."""

    index: int
    seed: int
    winning_team: str | None
    winners: tuple[int, ...]
    teams: tuple[str, ...]
    roles: tuple[str, ...]
    rounds: int
    steps: int
    stats: dict[str, Any]
    bots: tuple[str, ...] = ()
    """Each seat's bot kind (with bots by team: the kind of the seat's team in the Outcome)."""

    @classmethod
    def of(
        cls, index: int, seed: int, outcome: Outcome, steps: int, bots: Sequence[str] = ()
    ) -> Row:
        seats = sorted(set(outcome.teams) | set(outcome.roles))
        return cls(
            index=index,
            seed=seed,
            winning_team=outcome.winning_team,
            winners=tuple(sorted(outcome.winners)),
            teams=tuple(str(outcome.teams.get(s, "")) for s in seats),
            roles=tuple(str(outcome.roles.get(s, "")) for s in seats),
            rounds=outcome.rounds,
            steps=steps,
            stats=dict(outcome.stats),
            bots=tuple(bots),
        )


class Extra:
    """Aggregate of one ``Outcome.stats`` figure over many games.

    ``games`` counts the games in which the figure appeared. Its values are aggregated over
    every occurrence: numbers are summed (mean, minimum, maximum) and, when whole, counted by
    value; text, true/false and null are counted by value, with each value's share of all
    occurrences and its Wilson interval (who died first; which team won each deal). A list
    contributes each of its items (so a list of numbers per game, one per deal, gives the mean
    per deal); nested mappings become dotted names, and a list of mappings (one record per
    death, per deal) aggregates each field over all records under ``list.field``.
    """

    __slots__ = ("counts", "games", "high", "labels", "low", "numbers", "total")

    def __init__(self) -> None:
        self.games = 0
        self.numbers = 0
        self.labels = 0
        self.total = 0.0
        self.low: float | None = None
        self.high: float | None = None
        self.counts: Counter[str | int] = Counter()
        """Occurrences per value: text keys for labels, whole-number keys for numbers."""

    def add_number(self, value: float) -> None:
        self.numbers += 1
        self.total += value
        if self.low is None or value < self.low:
            self.low = value
        if self.high is None or value > self.high:
            self.high = value
        if type(value) is int:
            self.counts[value] += 1
        elif float(value).is_integer():
            self.counts[int(value)] += 1

    def add_label(self, value: str) -> None:
        self.labels += 1
        self.counts[value] += 1

    def merge(self, other: Extra) -> None:
        self.games += other.games
        self.numbers += other.numbers
        self.labels += other.labels
        self.total += other.total
        for bound in (other.low, other.high):
            if bound is not None:
                self.low = bound if self.low is None else min(self.low, bound)
                self.high = bound if self.high is None else max(self.high, bound)
        self.counts.update(other.counts)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"games": self.games}
        if self.numbers:
            out["values"] = self.numbers
            out["mean"] = self.total / self.numbers
            out["min"] = self.low
            out["max"] = self.high
            out["total"] = self.total
        if self.counts:
            out["counts"] = {str(k): n for k, n in sorted(self.counts.items(), key=_count_key)}
        if self.labels and not self.numbers:
            out["share"] = {
                str(k): rate(n, self.labels) for k, n in sorted(self.counts.items(), key=_count_key)
            }
        return out


def _count_key(item: tuple[str | int, int]) -> tuple[int, float, str]:
    key = item[0]
    if isinstance(key, int):
        return (0, float(key), "")
    return (1, 0.0, key)


def flatten_stats(stats: Mapping[str, Any], prefix: str = "") -> Iterable[tuple[str, Any]]:
    for key, value in stats.items():
        name = f"{prefix}{key}"
        if isinstance(value, Mapping):
            yield from flatten_stats(value, name + ".")
        else:
            yield name, value


@dataclass
class Tally:
    """Everything the simulator reports, for any number of games; merge with ``+=``."""

    games: int = 0
    team_wins: Counter[str] = field(default_factory=Counter)
    team_games: Counter[str] = field(default_factory=Counter)
    role_wins: Counter[str] = field(default_factory=Counter)
    role_games: Counter[str] = field(default_factory=Counter)
    seat_wins: Counter[int] = field(default_factory=Counter)
    seat_games: Counter[int] = field(default_factory=Counter)
    rounds: Counter[int] = field(default_factory=Counter)
    steps: int = 0
    solo_wins: int = 0
    """Games won by players rather than a team (no winning team, but winners)."""
    extras: dict[str, Extra] = field(default_factory=dict)

    def add(self, outcome: Outcome, steps: int) -> None:
        self.games += 1
        self.steps += steps
        self.rounds[outcome.rounds] += 1
        winners = outcome.winners
        if outcome.winning_team is not None:
            self.team_wins[outcome.winning_team] += 1
        elif winners:
            self.solo_wins += 1
        else:
            self.team_wins[DRAW] += 1
        for team in set(outcome.teams.values()):
            self.team_games[team] += 1
        seats = set(outcome.teams) | set(outcome.roles) | set(winners)
        for seat in seats:
            won = seat in winners
            self.seat_games[seat] += 1
            self.seat_wins[seat] += won
            role = outcome.roles.get(seat)
            if role is not None:
                self.role_games[role] += 1
                self.role_wins[role] += won
        seen: set[str] = set()
        for name, value in flatten_stats(outcome.stats):
            self._add_extra(name, value, seen)
        extras = self.extras
        for name in seen:
            extras[name].games += 1

    def _extra(self, name: str, seen: set[str]) -> Extra:
        seen.add(name)
        try:
            return self.extras[name]
        except KeyError:
            extra = self.extras[name] = Extra()
            return extra

    def _add_extra(self, name: str, value: Any, seen: set[str]) -> None:
        kind = type(value)
        if kind is str:
            self._extra(name, seen).add_label(value)
        elif kind is int or kind is float:
            self._extra(name, seen).add_number(value)
        elif isinstance(value, bool) or value is None:
            self._extra(name, seen).add_label(str(value).lower())
        elif isinstance(value, (int, float)):
            self._extra(name, seen).add_number(value)
        elif isinstance(value, Mapping):
            for key, field_value in flatten_stats(value, name + "."):
                self._add_extra(key, field_value, seen)
        elif isinstance(value, (list, tuple, set, frozenset)):
            self._extra(name, seen)
            items = sorted(value, key=str) if isinstance(value, (set, frozenset)) else value
            for item in items:
                self._add_extra(name, item, seen)
        else:
            self._extra(name, seen).add_label(str(value))

    def __iadd__(self, other: Tally) -> Tally:
        self.games += other.games
        self.steps += other.steps
        self.solo_wins += other.solo_wins
        for mine, theirs in (
            (self.team_wins, other.team_wins),
            (self.team_games, other.team_games),
            (self.role_wins, other.role_wins),
            (self.role_games, other.role_games),
            (self.seat_wins, other.seat_wins),
            (self.seat_games, other.seat_games),
            (self.rounds, other.rounds),
        ):
            mine.update(theirs)  # type: ignore[arg-type]
        for name, extra in other.extras.items():
            if name in self.extras:
                self.extras[name].merge(extra)
            else:
                copy = self.extras[name] = Extra()
                copy.merge(extra)
        return self

    # -- reporting -----------------------------------------------------------------------

    @property
    def teams(self) -> list[str]:
        """Every team seen, most wins first, then by name; draws are not a team. A game whose
        matches are never won by a team (only by players) reports no team win rates."""
        names = {t for t in self.team_wins if t != DRAW}
        if names or not self.solo_wins:
            names |= set(self.team_games)
        return sorted(names, key=lambda t: (-self.team_wins[t], t))

    @property
    def draws(self) -> int:
        return self.team_wins[DRAW]

    @property
    def mean_rounds(self) -> float:
        if not self.games:
            return 0.0
        return sum(r * n for r, n in self.rounds.items()) / self.games

    def to_json(self) -> dict[str, Any]:
        wins = {team: self.team_wins[team] for team in self.teams}
        if self.draws:
            wins[DRAW] = self.draws
        return {
            "games": self.games,
            "wins": wins,
            "draws": self.draws,
            "won_by_players": self.solo_wins,
            "teams": sorted(self.team_games),
            "win_rate": {team: rate(self.team_wins[team], self.games) for team in self.teams},
            "roles": {
                role: rate(self.role_wins[role], self.role_games[role])
                for role in sorted(self.role_games)
            },
            "seats": {
                str(seat): rate(self.seat_wins[seat], self.seat_games[seat])
                for seat in sorted(self.seat_games)
            },
            "mean_rounds": self.mean_rounds,
            "rounds": {
                "mean": self.mean_rounds,
                "min": min(self.rounds) if self.rounds else 0,
                "max": max(self.rounds) if self.rounds else 0,
                "histogram": {str(r): n for r, n in sorted(self.rounds.items())},
            },
            "mean_actions": self.steps / self.games if self.games else 0.0,
            "extras": {name: self.extras[name].to_json() for name in sorted(self.extras)},
        }

"""Balance statistics: Wilson intervals and a mergeable tally of match outcomes.

A :class:`Tally` counts wins per team, role and seat, the length of each game and the
game-specific figures of ``Outcome.stats``. Tallies merge by addition, so the order in which
workers finish never changes the totals: the same seed gives the same report on one core,
on many, or on a cluster.

Several seats share one game: the three Villagers of a match win or lose together. A rate
counted over seats (per role, per seat, per death) therefore has fewer independent trials
than it has seats. Such rates carry a :class:`Clustered` accumulator and their interval is
**clustered by game**: the variance of the ratio is estimated from the per-game sums (the
cluster-robust "sandwich" estimate), turned into an effective number of independent trials,
and the Wilson interval is taken with that number (see :func:`clustered_interval`).

Variants of one game are compared **pairwise**: match ``i`` of every variant uses the same
seed (common random numbers), so the matches pair up; :func:`mcnemar` tests each pair of
variants on one team's wins and :func:`holm` corrects the p-values of a family of tests.
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


def wilson_rate(p: float, trials: float, z: float = Z95) -> tuple[float, float]:
    """The Wilson interval of an observed rate ``p`` over a (possibly fractional, effective)
    number of trials."""
    if trials <= 0:
        return (0.0, 1.0)
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"a rate must be between 0 and 1, got {p}")
    z2 = z * z
    denom = 1.0 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / denom
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


CLUSTER_METHOD = "95% Wilson interval, clustered by game"
"""How the intervals of per-role, per-seat and per-death rates are computed (for reports)."""


@dataclass
class Clustered:
    """Successes out of trials where a game holds several trials (its seats of one role, its
    deaths): the per-game sums a clustered interval needs. Merges by addition."""

    successes: int = 0
    trials: int = 0
    games: int = 0
    """Games with at least one trial."""
    ss: int = 0
    """Sum over games of (successes in the game)²."""
    st: int = 0
    """Sum over games of successes × trials in the game."""
    tt: int = 0
    """Sum over games of (trials in the game)²."""

    def add_game(self, successes: int, trials: int) -> None:
        if trials <= 0:
            return
        self.successes += successes
        self.trials += trials
        self.games += 1
        self.ss += successes * successes
        self.st += successes * trials
        self.tt += trials * trials

    def merge(self, other: Clustered) -> None:
        self.successes += other.successes
        self.trials += other.trials
        self.games += other.games
        self.ss += other.ss
        self.st += other.st
        self.tt += other.tt

    @property
    def rate(self) -> float:
        return self.successes / self.trials if self.trials else 0.0

    @property
    def effective_trials(self) -> float:
        """The number of independent trials the data are worth (see clustered_interval)."""
        n = self.trials
        if n == 0:
            return 0.0
        p = self.successes / n
        if p <= 0.0 or p >= 1.0:
            # No spread to measure: count each game as one trial (as if its seats agreed).
            return float(self.games)
        spread = max(0.0, self.ss - 2 * p * self.st + p * p * self.tt)
        design_effect = spread / (n * p * (1 - p))
        return n / max(1.0, design_effect)

    def interval(self, z: float = Z95) -> tuple[float, float]:
        return clustered_interval(self, z)

    def to_json(self) -> dict[str, Any]:
        lo, hi = self.interval()
        return {
            "wins": self.successes,
            "games": self.trials,
            "matches": self.games,
            "rate": self.rate,
            "ci95": [lo, hi],
            "effective_trials": round(self.effective_trials, 1),
        }


def clustered_interval(data: Clustered, z: float = Z95) -> tuple[float, float]:
    """A 95% interval for a rate whose trials come in clusters (games).

    The ratio estimate p = Σy/Σn has the cluster-robust variance Σ(y_g − p·n_g)² / (Σn)²
    (y_g, n_g: successes and trials in game g). Divided into the binomial variance
    p(1−p)/Σn it gives the design effect; Σn over the design effect is the effective number
    of independent trials, never more than Σn (a design effect below 1 is taken as 1, so the
    interval is never narrower than treating every trial as independent). The interval is
    the Wilson interval of p with that number of trials: with one trial per game it is the
    plain Wilson interval, and when every game's trials agree it is the Wilson interval of
    the games.
    """
    return wilson_rate(data.rate, data.effective_trials, z)


def binomial_tail(k: int, n: int) -> float:
    """P(X ≤ k) for X ~ Binomial(n, ½), exactly."""
    if k < 0:
        return 0.0
    if k >= n:
        return 1.0
    total: int = sum(math.comb(n, i) for i in range(k + 1))
    return total / (1 << n)


def mcnemar(only_first: int, only_second: int) -> float:
    """The exact (binomial) McNemar test of paired binary outcomes: the two-sided p-value
    that a success is as likely under either variant, from the discordant pairs (matches won
    under the first variant only, and under the second only)."""
    if only_first < 0 or only_second < 0:
        raise ValueError("discordant counts cannot be negative")
    n = only_first + only_second
    if n == 0:
        return 1.0
    return min(1.0, 2.0 * binomial_tail(min(only_first, only_second), n))


def holm(pvalues: Sequence[float]) -> list[float]:
    """Holm's step-down adjustment of a family of p-values (controls the family-wise error
    rate); returned in the order given."""
    m = len(pvalues)
    order = sorted(range(m), key=lambda i: pvalues[i])
    adjusted = [0.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * pvalues[i]))
        adjusted[i] = running
    return adjusted


@dataclass(frozen=True)
class Paired:
    """One team's wins under two variants played with the same seeds, match by match."""

    games: int
    first: int
    """Matches the team won under the first variant."""
    second: int
    only_first: int
    only_second: int

    @property
    def difference(self) -> float:
        """Second variant's win rate minus the first's."""
        return (self.second - self.first) / self.games if self.games else 0.0

    @property
    def p(self) -> float:
        return mcnemar(self.only_first, self.only_second)


def paired(first: Mapping[int, bool], second: Mapping[int, bool]) -> Paired:
    """Pair the matches of two variants by match index (the seed): only matches played under
    both count."""
    common = sorted(set(first) & set(second))
    a = sum(first[i] for i in common)
    b = sum(second[i] for i in common)
    only_a = sum(first[i] and not second[i] for i in common)
    only_b = sum(second[i] and not first[i] for i in common)
    return Paired(len(common), a, b, only_a, only_b)


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

    __slots__ = (
        "counts",
        "games",
        "high",
        "label_games",
        "labels",
        "low",
        "numbers",
        "total",
        "tt",
        "value_ss",
        "value_st",
    )

    def __init__(self) -> None:
        self.games = 0
        self.numbers = 0
        self.labels = 0
        self.total = 0.0
        self.low: float | None = None
        self.high: float | None = None
        self.counts: Counter[str | int] = Counter()
        """Occurrences per value: text keys for labels, whole-number keys for numbers."""
        # Per-game sums for the clustered intervals of the label shares (see Clustered).
        self.label_games = 0
        self.tt = 0
        self.value_ss: Counter[str | int] = Counter()
        self.value_st: Counter[str | int] = Counter()

    def close_game(self, labels: Counter[str | int]) -> None:
        """Record one game's label occurrences (after they were added one by one)."""
        n = sum(labels.values())
        if not n:
            return
        self.label_games += 1
        self.tt += n * n
        for value, y in labels.items():
            self.value_ss[value] += y * y
            self.value_st[value] += y * n

    def clustered(self, value: str | int) -> Clustered:
        """One label's share of all occurrences, with the per-game sums of its interval."""
        return Clustered(
            self.counts[value],
            self.labels,
            self.label_games,
            self.value_ss[value],
            self.value_st[value],
            self.tt,
        )

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
        self.label_games += other.label_games
        self.tt += other.tt
        self.value_ss.update(other.value_ss)
        self.value_st.update(other.value_st)

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
                str(k): self.clustered(k).to_json()
                for k, _ in sorted(self.counts.items(), key=_count_key)
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


def _extra(table: dict[str, Extra], name: str) -> Extra:
    try:
        return table[name]
    except KeyError:
        extra = table[name] = Extra()
        return extra


def _add_extra(table: dict[str, Extra], name: str, value: Any) -> None:
    """Add one game's figure (and, recursively, its items and fields) to ``table``."""
    kind = type(value)
    if kind is str:
        _extra(table, name).add_label(value)
    elif kind is int or kind is float:
        _extra(table, name).add_number(value)
    elif isinstance(value, bool) or value is None:
        _extra(table, name).add_label(str(value).lower())
    elif isinstance(value, (int, float)):
        _extra(table, name).add_number(value)
    elif isinstance(value, Mapping):
        for key, field_value in flatten_stats(value, name + "."):
            _add_extra(table, key, field_value)
    elif isinstance(value, (list, tuple, set, frozenset)):
        _extra(table, name)
        items = sorted(value, key=str) if isinstance(value, (set, frozenset)) else value
        for item in items:
            _add_extra(table, name, item)
    else:
        _extra(table, name).add_label(str(value))


def _cluster(table: dict[Any, Clustered], key: Any) -> Clustered:
    try:
        return table[key]
    except KeyError:
        made = table[key] = Clustered()
        return made


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
    roles_clustered: dict[str, Clustered] = field(default_factory=dict)
    """Per role: wins out of seats, with the per-game sums of a clustered interval."""
    seats_clustered: dict[int, Clustered] = field(default_factory=dict)
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
        role_seats: Counter[str] = Counter()
        role_won: Counter[str] = Counter()
        for seat in seats:
            won = seat in winners
            self.seat_games[seat] += 1
            self.seat_wins[seat] += won
            _cluster(self.seats_clustered, seat).add_game(int(won), 1)
            role = outcome.roles.get(seat)
            if role is not None:
                self.role_games[role] += 1
                self.role_wins[role] += won
                role_seats[role] += 1
                role_won[role] += won
        for role, n in role_seats.items():
            _cluster(self.roles_clustered, role).add_game(role_won[role], n)
        game: dict[str, Extra] = {}
        for name, value in flatten_stats(outcome.stats):
            _add_extra(game, name, value)
        extras = self.extras
        for name, extra in game.items():
            extra.games = 1
            if extra.labels and not extra.numbers:
                extra.close_game(extra.counts)
            if name in extras:
                extras[name].merge(extra)
            else:
                extras[name] = extra

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
        for mine_c, theirs_c in (
            (self.roles_clustered, other.roles_clustered),
            (self.seats_clustered, other.seats_clustered),
        ):
            for key, data in theirs_c.items():
                _cluster(mine_c, key).merge(data)
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
                role: self.roles_clustered[role].to_json() for role in sorted(self.roles_clustered)
            },
            "seats": {
                str(seat): self.seats_clustered[seat].to_json()
                for seat in sorted(self.seats_clustered)
            },
            "interval_method": {"win_rate": "95% Wilson interval", "roles": CLUSTER_METHOD},
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


# -- comparing two simulations from their raw results ----------------------------------------


def team_wins_from_csv(path: str, team: str) -> dict[int, bool]:
    """Match index → whether ``team`` won, from a simulation's ``results.csv``."""
    import csv

    with open(path, newline="", encoding="utf-8") as fh:
        return {int(row["game"]): row["winning_team"] == team for row in csv.DictReader(fh)}


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m wolfden.sim.stats TEAM FIRST.csv SECOND.csv [TEAM FIRST SECOND …]``: each
    comparison of one team's wins between two runs with the same seed, paired match by match,
    with the exact McNemar p-value and the Holm-corrected one over all comparisons given."""
    import sys

    args = list(sys.argv[1:] if argv is None else argv)
    if not args or len(args) % 3:
        print(main.__doc__, file=sys.stderr)
        return 2
    tests = []
    for i in range(0, len(args), 3):
        team, first, second = args[i : i + 3]
        tests.append(
            (
                team,
                first,
                second,
                paired(team_wins_from_csv(first, team), team_wins_from_csv(second, team)),
            )
        )
    adjusted = holm([pair.p for *_, pair in tests])
    for (team, first, second, pair), p in zip(tests, adjusted, strict=True):
        lo1, hi1 = wilson(pair.first, pair.games)
        lo2, hi2 = wilson(pair.second, pair.games)
        print(
            f"{team}: {first} {100 * pair.first / pair.games:.1f}% [{100 * lo1:.1f}, "
            f"{100 * hi1:.1f}] -> {second} {100 * pair.second / pair.games:.1f}% "
            f"[{100 * lo2:.1f}, {100 * hi2:.1f}]; {pair.games} paired games, "
            f"{100 * pair.difference:+.1f} pp, discordant {pair.only_first}/{pair.only_second}, "
            f"McNemar p = {pair.p:.2g}, Holm p = {p:.2g}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Balance studies: win rates across player counts, role sets, variants and bot kinds.

``wolfden balance`` runs the studies of every registered game and writes ``docs/balance.md``
with one section per game and a figure per study in ``docs/figures/``. Werewolf has studies of
its own (player counts, custom role sets); any other game gets the generic ones: its player
counts (a ``players`` option with a range), and each variant (every true/false and choice
option of its Config, and every choice of its own extra flags, such as a bot team's memory
level) against the defaults.

Every study plays each game with its strongest bots and, beside them, the next tier
(:data:`STRENGTH`), so a reader sees whether a finding is about the game or about the bots;
each row of a table names its bots.

Per-role and per-death figures are rates over seats, several of which share one game; their
intervals are clustered by game (see :mod:`wolfden.sim.stats`). The points of a variant
study (and of Werewolf's role sets) are compared with the study's first point match by match:
match ``i`` of every point is played with the same seed (common random numbers), the exact
McNemar test gives each comparison a p-value, and Holm's method corrects the p-values for the
number of comparisons in the study.
"""

from __future__ import annotations

import dataclasses
import enum
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent import futures
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import click

from wolfden.engine.config import field_types
from wolfden.engine.contract import Game
from wolfden.engine.errors import ConfigError
from wolfden.sim import simulate as sim
from wolfden.sim.options import extra_variants, parse_game_flags
from wolfden.sim.report import human, plot_series
from wolfden.sim.stats import CLUSTER_METHOD, Paired, holm, paired

SLOW_GAMES_PER_S = 20.0
"""A bot kind slower than this (games/s on one core) is left out of the default studies."""

STRENGTH = ("ismcts", "belief", "perfect", "older", "rules", "young", "random")
"""Bot kinds from the strongest down; a study uses the two strongest a game has."""

TIERS = 2
"""Bot tiers per study: the strongest, and beside it the next (see prepare_study)."""

STUDY_SECONDS = 45.0
"""About how long one study may take by default; slow bots then play fewer games per row."""


@dataclass
class Study:
    """Win rates of one game at several settings (``points``) for each bot line-up."""

    slug: str
    title: str
    game: Game
    xlabel: str
    points: list[tuple[str, Any]]
    bots: list[str]
    games: int
    note: str = ""
    seat_bots: dict[str, dict[int, str]] = field(default_factory=dict)
    games_by_kind: dict[str, int] = field(default_factory=dict)
    """Games per row for each bot kind, once the study is prepared."""
    prune: bool = False
    """Leave out the points whose every figure equals the first point's (options that change
    nothing between bots, such as the language of the narration)."""
    unchanged: list[str] = field(default_factory=list)
    """Bots that a point's own game options choose for some seats, by point label."""
    results: dict[tuple[str, str], dict[str, Any]] = field(default_factory=dict)
    skipped: dict[str, str] = field(default_factory=dict)
    paired: bool = False
    """Compare every point with the first, match by match (same seeds), with a paired test."""
    winners: dict[tuple[str, str], dict[int, str | None]] = field(default_factory=dict)
    """Each cell's winning team by match index (paired studies only)."""
    comparisons: dict[tuple[str, str], dict[str, tuple[Paired, float]]] = field(
        default_factory=dict
    )
    """(point, bots) → team → (the paired counts against the first point, Holm-corrected p)."""


def strongest(kinds: Sequence[str], tiers: int = TIERS + 1) -> list[str]:
    """The ``tiers`` strongest bot kinds of a game (in the order of :data:`STRENGTH`; kinds
    not ranked there come after, in their own order): one more than a study plays, for when
    the strongest is too slow for a study without ``--games``."""
    ranked = sorted(kinds, key=lambda k: STRENGTH.index(k) if k in STRENGTH else len(STRENGTH))
    return ranked[:tiers]


# -- which studies ------------------------------------------------------------------------


def werewolf_studies(game: Game, games: int, bot_kinds: list[str]) -> list[Study]:
    config = game.Config
    kinds = strongest(bot_kinds)
    by_count = Study(
        "werewolf-players",
        "Werewolf: win rate by player count (standard deal)",
        game,
        "players",
        [(str(n), config(players=n)) for n in range(7, 13)],
        kinds,
        games,
        "7–9 players deal 2 Werewolves, 10–12 deal 3; one Seer and one Guardian.",
    )
    role_sets = [
        ("9p standard: 2W 1S 1G", config(players=9)),
        ("9p no specials: 2W", config(players=9, seers=0, guardians=0)),
        ("9p no Guardian: 2W 1S", config(players=9, guardians=0)),
        ("9p two Seers: 2W 2S 1G", config(players=9, seers=2)),
        ("9p three wolves: 3W 1S 1G", config(players=9, werewolves=3)),
        ("12p four wolves: 4W 1S 1G", config(players=12, werewolves=4)),
        ("12p strong town: 3W 2S 2G", config(players=12, seers=2, guardians=2)),
    ]
    custom = Study(
        "werewolf-role-sets",
        "Werewolf: custom role sets",
        game,
        "role set (W = Werewolves, S = Seers, G = Guardians)",
        role_sets,
        kinds,
        games,
        "The custom-counts variant of the rules: any counts with at least one Werewolf and more "
        "non-Werewolves than Werewolves.",
        paired=True,
    )
    return [by_count, custom]


def generic_studies(game: Game, games: int, bot_kinds: list[str]) -> list[Study]:
    """Player counts (when the game has a ``players`` range) and variants, for every bot kind."""
    studies = []
    hints = field_types(game.Config)
    fields = {f.name: f for f in dataclasses.fields(game.Config)}
    players = fields.get("players")
    if players is not None and "min" in players.metadata and "max" in players.metadata:
        points = []
        for n in _spread(range(players.metadata["min"], players.metadata["max"] + 1)):
            try:
                points.append((str(n), _config(game, players=n)))
            except ConfigError:
                continue
        if len(points) > 1:
            studies.append(
                Study(
                    f"{game.id}-players",
                    f"{game.title}: win rate by player count",
                    game,
                    "players",
                    points,
                    bot_kinds,
                    games,
                )
            )
    variants: list[tuple[str, Any]] = [("defaults", game.Config())]
    for name, f in fields.items():
        tp = hints[name]
        default = f.default
        values: list[Any] = []
        if tp is bool:
            values = [not default]
        elif isinstance(tp, type) and issubclass(tp, enum.Enum):
            values = [m for m in tp if m != default]
        for value in values:
            shown = value.value if isinstance(value, enum.Enum) else value
            flag = "--" + name.replace("_", "-")
            label = (
                f"{flag} {shown}"
                if not isinstance(value, bool)
                else (flag if value else "--no-" + flag[2:])
            )
            try:
                variants.append((label, _config(game, **{name: value})))
            except ConfigError:
                continue
    seat_bots: dict[str, dict[int, str]] = {}
    for flags in extra_variants(game):
        label = " ".join(flags)
        try:
            config, seats = parse_game_flags(game, flags)
            sim.check_bots(game, sim.BotPlan(bot_kinds[0], tuple(sorted(seats.items()))))
        except (ConfigError, click.ClickException):
            continue
        variants.append((label, config))
        if seats:
            seat_bots[label] = seats
    if len(variants) > 1:
        studies.append(
            Study(
                f"{game.id}-variants",
                f"{game.title}: variants against the defaults",
                game,
                "variant",
                variants,
                bot_kinds,
                games,
                "Each variant is one option changed from the defaults.",
                seat_bots=seat_bots,
                prune=True,
                paired=True,
            )
        )
    return studies


def _spread(values: Sequence[int], most: int = 7) -> list[int]:
    """At most ``most`` values from the first to the last, evenly spread."""
    if len(values) <= most:
        return list(values)
    picks = {values[round(i * (len(values) - 1) / (most - 1))] for i in range(most)}
    return sorted(picks)


def _config(game: Game, **kwargs: Any) -> Any:
    config = game.Config(**kwargs)
    config.validate()
    return config


SPECIFIC: dict[str, Callable[[Game, int, list[str]], list[Study]]] = {
    "werewolf": werewolf_studies,
}


def studies_for(game: Game, games: int) -> list[Study]:
    kinds = strongest(list(sim.bot_kinds(game)))
    return SPECIFIC.get(game.id, generic_studies)(game, games, kinds)


# -- running ------------------------------------------------------------------------------


@contextmanager
def shared_pool(workers: int) -> Iterator[futures.Executor | None]:
    """One set of worker processes for every cell of every study."""
    if workers <= 1:
        yield None
        return
    import multiprocessing

    pool = futures.ProcessPoolExecutor(
        workers, mp_context=multiprocessing.get_context("spawn"), initializer=sim.ignore_sigint
    )
    try:
        yield pool
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def probe_speed(game: Game, config: Any, kind: str, seed: int, engine: str = "auto") -> float:
    """Games per second of CPU time of one bot kind, from a few games (CPU time, so that a
    busy machine does not make a bot look slow; the kernel is loaded before it is timed)."""
    plan = sim.make_plan(game, config, games=6, seed=seed, bots=sim.BotPlan(kind), engine=engine)
    study = sim.run(plan, workers=1)
    if plan.engine == "kernel":
        study = sim.run(plan, workers=1)
    return study.tally.games / study.busy if study.busy else float("inf")


def prepare_study(
    study: Study,
    *,
    seed: int,
    workers: int,
    budget: float | None = STUDY_SECONDS,
    engine: str = "auto",
) -> None:
    """Decide the games per row of each bot kind.

    Each kind's speed is probed on a few games; a kind too slow for a study of many games
    (such as a search bot) is left out, and the page says so. Without a time ``budget`` the
    others play ``study.games`` per row. With one (seconds for the whole study) the fastest
    kinds go first and the time left is shared among the rest, a slow kind playing fewer
    games per row (500, 200 or 100).
    """
    speeds: dict[str, float] = {}
    kept: list[str] = []
    for kind in study.bots:  # strongest first; the two strongest fast enough are kept
        if len(kept) == TIERS:
            break
        speed = speeds[kind] = probe_speed(study.game, study.points[0][1], kind, seed, engine)
        if budget is not None and speed < SLOW_GAMES_PER_S:
            study.skipped[kind] = (
                f"left out: about {speed:.2g} games/s on one core is too slow for a study of "
                f"this size (run `wolfden simulate {study.game.id} --bots {kind}` for it, "
                f"or give `--games`)"
            )
            continue
        kept.append(kind)
    remaining = budget or 0.0
    order = sorted(kept, key=lambda kind: -speeds[kind])
    for i, kind in enumerate(order):
        speed = speeds[kind]
        games = study.games
        if budget is not None:
            share = remaining / (len(order) - i)
            rate = speed * workers * 0.8
            for candidate in (study.games, 500, 200, 100):
                games = min(study.games, candidate)
                if len(study.points) * games / rate <= share:
                    break
            remaining -= len(study.points) * games / rate
        study.games_by_kind[kind] = games
    study.bots = [kind for kind in study.bots if kind in study.games_by_kind]
    study.games_by_kind = {kind: study.games_by_kind[kind] for kind in study.bots}


def study_games(study: Study) -> int:
    return sum(len(study.points) * n for n in study.games_by_kind.values())


def run_study(
    study: Study,
    *,
    seed: int,
    workers: int,
    pool: futures.Executor | None,
    progress: Callable[[int], None] | None = None,
    engine: str = "auto",
) -> None:
    """Fill ``study.results[(point, bots)]`` with each cell's summary (after prepare_study);
    ``engine`` as ``wolfden simulate --engine`` (each summary says which one played)."""
    from wolfden.sim.report import summary

    for kind, games in study.games_by_kind.items():
        for label, config in study.points:
            seats = tuple(sorted(study.seat_bots.get(label, {}).items()))
            plan = sim.make_plan(
                study.game,
                config,
                games=games,
                seed=seed,
                bots=sim.BotPlan(kind, seats),
                keep_rows=study.paired,
                engine=engine,
            )
            result = sim.run(plan, workers=workers, executor=pool, progress=progress)
            if result.interrupted:
                raise KeyboardInterrupt
            study.results[(label, kind)] = summary(study.game, config, result)
            if study.paired:
                study.winners[(label, kind)] = {r.index: r.winning_team for r in result.rows}
    if study.prune:
        _prune(study)
    if study.paired:
        compare_points(study)


def compared_teams(teams: Sequence[str], draws: bool) -> list[str]:
    """The teams a comparison tests: with two teams and no draws one team's wins say it all."""
    teams = sorted(teams)
    return teams[:1] if len(teams) == 2 and not draws else teams


def compare_points(study: Study) -> None:
    """Each point against the first, per bot kind and team; Holm over each kind's family."""
    if len(study.points) < 2:
        return
    first = study.points[0][0]
    for kind in study.bots:
        base = study.winners.get((first, kind))
        if base is None:
            continue
        cells = [study.results[(label, kind)] for label, _ in study.points]
        teams = sorted({t for data in cells for t in data["win_rate"]})
        draws = any(data["draws"] for data in cells)
        tests: list[tuple[str, str, Paired]] = []
        for label, _ in study.points[1:]:
            other = study.winners.get((label, kind))
            if other is None:
                continue
            for team in compared_teams(teams, draws):
                won_base = {i: w == team for i, w in base.items()}
                won_other = {i: w == team for i, w in other.items()}
                tests.append((label, team, paired(won_base, won_other)))
        adjusted = holm([t[2].p for t in tests])
        for (label, team, pair), p in zip(tests, adjusted, strict=True):
            study.comparisons.setdefault((label, kind), {})[team] = (pair, p)


_COMPARED = ("win_rate", "draws", "won_by_players", "rounds", "mean_actions", "extras")


def _prune(study: Study) -> None:
    first = study.points[0][0]
    kept = [study.points[0]]
    for label, config in study.points[1:]:
        same = all(
            all(
                study.results[(label, kind)][key] == study.results[(first, kind)][key]
                for key in _COMPARED
            )
            for kind in study.bots
        )
        if same:
            study.unchanged.append(label)
            for kind in study.bots:
                del study.results[(label, kind)]
        else:
            kept.append((label, config))
    study.points = kept


# -- writing ------------------------------------------------------------------------------


def _pct(entry: Mapping[str, Any]) -> str:
    lo, hi = entry["ci95"]
    return f"{100 * entry['rate']:.1f}% ({100 * lo:.1f}–{100 * hi:.1f})"


def _p(p: float) -> str:
    return "< 0.001" if p < 0.001 else f"= {p:.3f}"


def _label_extras(data: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """Counted extras worth a column: text values (who died first, which team won each deal)."""
    out = {}
    for name, extra in data["extras"].items():
        share = extra.get("share") or {}
        if "." in name or not 0 < len(share) <= 8:
            continue
        out[name] = share
    return out


def study_markdown(study: Study, figure: str, command: str, seed: int) -> str:
    results = study.results.values()
    teams = sorted({team for data in results for team in data["win_rate"]})
    solo = ["won by players"] if any(data["won_by_players"] for data in results) else []
    extras: list[str] = []
    for data in results:
        for name in _label_extras(data):
            if name not in extras:
                extras.append(name)
    lines = [f"### {study.title}", ""]
    bots = ", ".join(f"`{k}`" for k in study.bots) or "none"
    counts = sorted(set(study.games_by_kind.values()), reverse=True)
    if len(counts) == 1:
        games = f"{counts[0]} per row"
    else:
        games = "per row " + ", ".join(f"{n} with `{k}`" for k, n in study.games_by_kind.items())
    lines.append(
        f"Bots: {bots} (every seat the same kind; the strongest the game has and the next "
        f"tier). Games: {games}. Seed: {seed} (match i uses a seed derived from it and i, the "
        f"same for every point). Command: `{command}`."
    )
    if study.note:
        lines += ["", study.note]
    for label, seats in study.seat_bots.items():
        chosen = ", ".join(f"seat {seat}: `{kind}`" for seat, kind in sorted(seats.items()))
        lines += ["", f"With `{label}` the game's option sets these seats' bots: {chosen}."]
    for kind, why in study.skipped.items():
        lines += ["", f"Bot `{kind}`: {why}."]
    if study.unchanged:
        shown = ", ".join(f"`{label}`" for label in study.unchanged)
        lines += [
            "",
            f"Changing nothing between these bots (every figure as with the defaults): {shown}.",
        ]
    compare = [f"vs {study.points[0][0]}"] if study.comparisons else []
    header = [
        study.xlabel,
        "bots",
        *(human(t) for t in teams),
        *solo,
        "draws",
        "mean rounds",
        *compare,
        *(human(e) for e in extras),
    ]
    lines += [
        "",
        "Team win rates with 95% Wilson intervals in brackets (one trial per game). Each "
        "game's counted figures (such as who died first, or the role of each death) as shares "
        f"of all their occurrences, with the {CLUSTER_METHOD} (a game counts several deaths).",
    ]
    if compare:
        lines.append(
            f"The column *{compare[0]}* compares each row with the first point, match by "
            "match (the same seeds): the change in a team's win rate in percentage points, and "
            "the exact McNemar test's p-value, Holm-corrected over the study's comparisons "
            "with the same bots."
        )
    lines += [
        "",
        "| " + " | ".join(header) + " |",
        "|"
        + "---|" * 2
        + "---:|" * (len(teams) + len(solo) + 2)
        + "---|" * (len(compare) + len(extras)),
    ]
    for kind in study.bots:
        for label, _ in study.points:
            row = study.results.get((label, kind))
            if row is None:
                continue
            games = max(1, row["games"])
            cells = [label, kind]
            cells += [_pct(row["win_rate"][t]) if t in row["win_rate"] else "—" for t in teams]
            if solo:
                cells.append(f"{100 * row['won_by_players'] / games:.1f}%")
            cells.append(f"{100 * row['draws'] / games:.1f}%")
            cells.append(f"{row['mean_rounds']:.2f}")
            if compare:
                tests = study.comparisons.get((label, kind), {})
                cells.append(
                    "; ".join(
                        f"{human(team)} {100 * pair.difference:+.1f} pp, p {_p(p)}"
                        for team, (pair, p) in tests.items()
                    )
                    or "—"
                )
            found = _label_extras(row)
            for name in extras:
                share = found.get(name, {})
                top = sorted(share.items(), key=lambda kv: -kv[1]["wins"])[:4]
                cells.append(", ".join(f"{k} {_pct(v)}" for k, v in top) or "—")
            lines.append("| " + " | ".join(cells) + " |")
    if study.bots:
        lines += ["", f"![{study.title}]({figure})"]
    return "\n".join(lines)


MAX_SERIES = 5
"""At most this many series in one figure."""


def _plotted(data: Mapping[str, Any]) -> dict[str, Mapping[str, Any]]:
    """What a figure shows of one cell: the team win rates (one team when the two teams'
    rates add up to one), or for a game whose matches are won by players rather than teams,
    the shares of its counted figures (who won each deal)."""
    if data["win_rate"]:
        compared = compared_teams(list(data["win_rate"]), bool(data["draws"]))
        return {f"{human(t)} wins": data["win_rate"][t] for t in compared}
    teams = set(data["teams"])
    shares = _label_extras(data)
    chosen = {name: share for name, share in shares.items() if teams & set(share)} or shares
    return {
        f"{human(name)}: {human(value)}": entry
        for name, share in chosen.items()
        for value, entry in share.items()
    }


def plot_study(study: Study, path: Path) -> None:
    labels = [label for label, _ in study.points]
    series: dict[str, list[Mapping[str, Any] | None]] = {}
    for kind in study.bots:
        cells = {label: _plotted(study.results[(label, kind)]) for label in labels}
        names = sorted({name for cell in cells.values() for name in cell})
        for name in names:
            key = f"{name} ({kind} bots)" if len(study.bots) > 1 else name
            series[key] = [cells[label].get(name) for label in labels]
    left_out = len(series) - MAX_SERIES
    series = dict(list(series.items())[:MAX_SERIES])
    path.parent.mkdir(parents=True, exist_ok=True)
    ordered = all(label.isdigit() for label in labels)
    counts = sorted(set(study.games_by_kind.values()), reverse=True)
    per_point = (
        f"{counts[0]} games per point"
        if len(counts) == 1
        else "games per point: " + ", ".join(f"{n} ({k})" for k, n in study.games_by_kind.items())
    )
    method = (
        "95% Wilson interval"
        if any(study.results[(labels[0], k)]["win_rate"] for k in study.bots)
        else CLUSTER_METHOD
    )
    note = f"{per_point}; error bars: {method}."
    if left_out > 0:
        note += f" {left_out} more series in the table."
    plot_series(path, study.title, labels, series, study.xlabel, connect=ordered, note=note)


def slugify(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def section_title(game: Game) -> str:
    return f"{game.title} (`{game.id}`)"


def game_markdown(
    game: Game, studies: Sequence[Study], figures: Path, doc: Path, command: str, seed: int
) -> str:
    parts = []
    for study in studies:
        path = figures / f"balance-{slugify(study.slug)}.png"
        if study.bots:
            plot_study(study, path)
        try:
            rel = path.resolve().relative_to(doc.resolve().parent)
        except ValueError:
            rel = path.resolve()
        parts.append(study_markdown(study, rel.as_posix(), command, seed))
    return "\n\n".join(parts)


INTRO = """# Balance

How fair is each game's setup? These tables come from many simulated matches between bots;
a bot is not a person, so read them as the balance *between these bots*. Regenerate the
whole page, with its figures in `docs/figures/`, with `wolfden balance`. Each study says the
bots, the number of games and the seed; the same command gives the same figures on any
number of cores.

**Which bots.** Every study plays a game with its strongest bots and, beside them, the next
tier (each row names its bots), so a reader can see whether a finding is about the game or
about the bots: if the two tiers disagree, it is the bots. A search bot too slow for the
default time budget is left out (the study says so) unless `--games` is given.

**Intervals.** A team's win rate has one trial per game: its 95% Wilson interval. Rates
counted over seats or events (per role, per seat, per death: who died first, the role of
each death) have several trials in one game, which win or lose together; their intervals
are **clustered by game**: the cluster-robust variance of the ratio gives an effective number
of independent trials, and the Wilson interval is taken with that number
(`wolfden.sim.stats.clustered_interval`).

**Comparisons.** Match *i* of every point of a study uses the same seed (common random
numbers). Variants and role sets are compared with the study's first point match by match
with the exact McNemar test on one team's wins (the other team's follow when the two are
complementary); the p-values are Holm-corrected over the study's comparisons with the same
bots.
"""

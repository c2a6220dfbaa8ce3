"""What a simulation says: the JSON summary, the terminal text, and the HTML report with plots."""

from __future__ import annotations

import csv
import html
import json
import textwrap
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from wolfden.engine.config import config_to_json
from wolfden.engine.contract import Game
from wolfden.sim.options import config_label
from wolfden.sim.simulate import Study
from wolfden.sim.stats import Row, flatten_stats

RUN_KEYS = ("seconds", "games_per_second", "workers", "backend", "engine", "engine_note")
"""Summary keys that describe the run rather than the results (they vary between runs; the
kernel and the reference engine play the same matches, so the engine is one of them)."""


def summary(game: Game, config: Any, study: Study) -> dict[str, Any]:
    """One JSON object: the settings, then the figures of :meth:`Tally.to_json`."""
    plan = study.plan
    tally = study.tally.to_json()
    out: dict[str, Any] = {
        "game": game.id,
        "games": tally.pop("games"),
        "requested": plan.games,
        "interrupted": study.interrupted,
        "seed": plan.seed,
        "config": config_to_json(config),
        "options": config_label(game, config),
        "bots": plan.bots.to_json(),
        **tally,
        "seconds": round(study.seconds, 3),
        "games_per_second": round(study.tally.games / study.seconds, 1) if study.seconds else 0.0,
        "workers": study.workers,
        "backend": study.backend,
        "engine": plan.engine,
        "engine_note": plan.engine_note,
    }
    return out


def _pct(x: float) -> str:
    return f"{100 * x:5.1f}%"


def _rate_line(name: str, entry: Mapping[str, Any], width: int) -> str:
    lo, hi = entry["ci95"]
    return (
        f"  {name:<{width}} {entry['wins']:>8} / {entry['games']:<8} {_pct(entry['rate'])}"
        f"   95% CI [{_pct(lo)}, {_pct(hi)}]"
    )


def text(data: Mapping[str, Any], bots: str) -> str:
    """The summary as plain text for the terminal."""
    lines = []
    head = f"{data['game']}: {data['games']} games"
    if data["interrupted"]:
        head += f" of {data['requested']} (interrupted; the figures cover the finished games)"
    lines.append(head)
    if data["options"]:
        lines.append(f"  options: {data['options']}")
    lines.append(f"  bots: {bots}; seed {data['seed']}")
    lines.append(
        f"  {data['seconds']:.2f} s, {data['games_per_second']:.0f} games/s on "
        f"{data['workers']} worker{'s' if data['workers'] != 1 else ''} ({data['backend']})"
    )
    engine = data.get("engine", "reference")
    if engine == "kernel":
        lines.append("  engine: kernel (compiled; the same matches as the reference rules)")
    else:
        note = data.get("engine_note")
        lines.append(f"  engine: reference rules{f' ({note})' if note else ''}")
    for title, key, method in (
        ("team", "win_rate", "Wilson 95% interval"),
        ("role", "roles", "95% interval clustered by game"),
        ("seat", "seats", "95% interval clustered by game"),
    ):
        entries = data[key]
        if not entries:
            continue
        width = max(len(str(k)) for k in entries)
        lines.append(f"Win rate by {title} ({method}):")
        lines.extend(_rate_line(str(name), entry, width) for name, entry in entries.items())
    if data["draws"]:
        lines.append(f"  draws: {data['draws']} ({_pct(data['draws'] / max(1, data['games']))})")
    if data["won_by_players"]:
        lines.append(
            f"  won by players rather than a team: {data['won_by_players']} "
            f"({_pct(data['won_by_players'] / max(1, data['games']))}; see the seats and roles)"
        )
    rounds = data["rounds"]
    lines.append(
        f"Game length: mean {rounds['mean']:.2f} rounds (min {rounds['min']}, max "
        f"{rounds['max']}), {data['mean_actions']:.1f} actions per game"
    )
    hist = rounds["histogram"]
    top = max(hist.values(), default=0)
    for r, n in hist.items():
        bar = "█" * max(1, round(30 * n / top)) if top else ""
        lines.append(f"  {r:>4} {bar} {n}")
    if data["extras"]:
        lines.append("Extras (from each game's statistics):")
        for name, extra in data["extras"].items():
            parts = []
            if "mean" in extra:
                parts.append(
                    f"mean {extra['mean']:.3g} (min {extra['min']:g}, max {extra['max']:g})"
                )
            counts = extra.get("counts")
            if "share" in extra:
                parts.append(
                    ", ".join(
                        f"{k}: {v['wins']} ({_pct(v['rate']).strip()})"
                        for k, v in extra["share"].items()
                    )
                )
            elif counts and not ("mean" in extra and len(counts) > 8):
                parts.append(", ".join(f"{k}: {v}" for k, v in counts.items()))
            if parts:
                lines.append(f"  {name}: {'; '.join(parts)}")
    return "\n".join(lines)


# -- plots --------------------------------------------------------------------------------


def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def human(key: str) -> str:
    """A label for people from an internal key: ``first_death_role`` → ``First death role``."""
    text = str(key).replace("_", " ").replace(".", ": ").strip()
    return text[:1].upper() + text[1:] if text else text


def _top(entries: Sequence[Mapping[str, Any]]) -> float:
    """Room above the highest interval so that no error bar is cut off at 1.0."""
    high = max((e["ci95"][1] for e in entries), default=1.0)
    return max(1.0, high) + 0.08


def plot_rates(
    path: Path, title: str, entries: Mapping[str, Mapping[str, Any]], note: str = ""
) -> None:
    """A bar per entry with its interval; ``note`` (games, interval method) under the axes."""
    plt = _pyplot()
    names = [textwrap.fill(human(str(n)), 14) for n in entries]
    rates = [e["rate"] for e in entries.values()]
    lows = [max(0.0, e["rate"] - e["ci95"][0]) for e in entries.values()]
    highs = [max(0.0, e["ci95"][1] - e["rate"]) for e in entries.values()]
    widest = max((len(n) for n in names), default=1)
    each = max(0.7, min(1.4, 0.09 * min(widest, 14)))
    fig, ax = plt.subplots(figsize=(max(5.0, each * len(names) + 2), 3.8))
    ax.bar(names, rates, yerr=[lows, highs], capsize=4, color="#4c72b0")
    ax.set_ylim(0, _top(list(entries.values())))
    ax.axhline(1.0, color="#999", linewidth=0.8)
    ax.set_ylabel("win rate")
    ax.set_title(textwrap.fill(title, 50))
    if note:
        fig.text(0.01, 0.01, textwrap.fill(note, 90), fontsize="x-small", color="#444")
    ax.grid(axis="y", alpha=0.3)
    turn = len(names) > 6
    plt.setp(ax.get_xticklabels(), rotation=30 if turn else 0, ha="right" if turn else "center")
    fig.tight_layout(rect=(0, 0.07 if note else 0, 1, 1))
    fig.savefig(path, dpi=100)
    plt.close(fig)


def plot_counts(
    path: Path, title: str, counts: Mapping[str, int], xlabel: str = "", ylabel: str = "games"
) -> None:
    """A histogram of counted values (game lengths, categorical extras)."""
    plt = _pyplot()
    names = [str(k) for k in counts]
    fig, ax = plt.subplots(figsize=(max(4.0, 0.45 * len(names) + 2), 3.2))
    ax.bar(names, list(counts.values()), color="#55a868")
    ax.set_ylabel(ylabel)
    ax.set_xlabel(xlabel)
    ax.set_title(title)
    ax.grid(axis="y", alpha=0.3)
    turn = len(names) > 8
    plt.setp(ax.get_xticklabels(), rotation=30 if turn else 0, ha="right" if turn else "center")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def plot_series(
    path: Path,
    title: str,
    xlabels: Sequence[str],
    series: Mapping[str, Sequence[Mapping[str, Any] | None]],
    xlabel: str = "",
    connect: bool = True,
    note: str = "",
) -> None:
    """Win rate against a setting (player count, variant): one series per team with interval
    bars, joined by lines when the setting is ordered (``connect``); ``note`` (games per
    point, interval method) under the axes."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(max(5.0, 0.8 * len(xlabels) + 2.5) + 2.2, 4.0))
    xs = list(range(len(xlabels)))
    shift = min(0.08, 0.36 / len(series)) if len(series) > 1 else 0.0
    for i, (name, entries) in enumerate(series.items()):
        offset = (i - (len(series) - 1) / 2) * shift
        points = [(x + offset, e) for x, e in zip(xs, entries) if e is not None]
        if not points:
            continue
        ax.errorbar(
            [x for x, _ in points],
            [e["rate"] for _, e in points],
            yerr=[
                [max(0.0, e["rate"] - e["ci95"][0]) for _, e in points],
                [max(0.0, e["ci95"][1] - e["rate"]) for _, e in points],
            ],
            marker="o",
            capsize=4,
            linestyle="-" if connect else "none",
            label=str(name),
        )
    ax.set_xticks(xs)
    ax.set_xticklabels(list(xlabels), rotation=30 if len(xlabels) > 6 else 0, ha="right")
    shown = [e for entries in series.values() for e in entries if e is not None]
    ax.set_ylim(0, _top(shown))
    ax.axhline(1.0, color="#999", linewidth=0.8)
    ax.set_ylabel("win rate")
    ax.set_xlabel(xlabel)
    ax.set_title(textwrap.fill(title, 48))
    ax.grid(alpha=0.3)
    ax.legend(fontsize="small", bbox_to_anchor=(1.02, 1), loc="upper left", borderaxespad=0)
    if note:
        fig.text(0.01, 0.01, textwrap.fill(note, 100), fontsize="x-small", color="#444")
    fig.tight_layout(rect=(0, 0.07 if note else 0, 1, 1))
    fig.savefig(path, dpi=100)
    plt.close(fig)


# -- the HTML report ----------------------------------------------------------------------


def write_csv(path: Path, rows: Sequence[Row]) -> None:
    """The raw results: one line per game, with every seat's team, role and bot kind and the
    game's stats."""
    seats = max((max(len(r.teams), len(r.bots)) for r in rows), default=0)
    stat_names = sorted({name for r in rows for name, _ in flatten_stats(r.stats)})
    with path.open("w", newline="", encoding="utf-8") as fh:
        out = csv.writer(fh)
        out.writerow(
            [
                "game",
                "seed",
                "winning_team",
                "winners",
                "rounds",
                "actions",
                *(f"team_{s}" for s in range(seats)),
                *(f"role_{s}" for s in range(seats)),
                *(f"bot_{s}" for s in range(seats)),
                *stat_names,
            ]
        )
        for r in rows:
            stats = dict(flatten_stats(r.stats))
            out.writerow(
                [
                    r.index,
                    r.seed,
                    r.winning_team or "draw",
                    " ".join(map(str, r.winners)),
                    r.rounds,
                    r.steps,
                    *(r.teams[s] if s < len(r.teams) else "" for s in range(seats)),
                    *(r.roles[s] if s < len(r.roles) else "" for s in range(seats)),
                    *(r.bots[s] if s < len(r.bots) else "" for s in range(seats)),
                    *(_cell(stats.get(name)) for name in stat_names),
                ]
            )


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, (list, tuple, set, frozenset)):
        return " ".join(str(v) for v in value)
    return str(value)


def _rate_table(
    title: str, entries: Mapping[str, Mapping[str, Any]], method: str = "Wilson"
) -> str:
    rows = "".join(
        f"<tr><td>{html.escape(str(name))}</td><td>{e['wins']}</td><td>{e['games']}</td>"
        f"<td>{100 * e['rate']:.1f}%</td>"
        f"<td>{100 * e['ci95'][0]:.1f}% – {100 * e['ci95'][1]:.1f}%</td></tr>"
        for name, e in entries.items()
    )
    return (
        f"<h2>{html.escape(title)}</h2><table><tr><th></th><th>wins</th><th>games</th>"
        f"<th>rate</th><th>95% interval ({html.escape(method)})</th></tr>{rows}</table>"
    )


_STYLE = (
    "body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem}"
    "table{border-collapse:collapse;margin:.5rem 0 1rem}td,th{border:1px solid #ccc;"
    "padding:.2rem .6rem;text-align:right}td:first-child{text-align:left}"
    "img{max-width:100%;display:block;margin:.5rem 0 1.5rem}code{background:#f3f3f3}"
)


def write_report(directory: Path, data: Mapping[str, Any], rows: Sequence[Row], bots: str) -> Path:
    """``index.html`` with the figures as PNG plots, ``results.csv`` and ``summary.json``."""
    directory.mkdir(parents=True, exist_ok=True)
    game = data["game"]
    parts = [
        f"<!doctype html><html lang='en'><meta charset='utf-8'>"
        f"<title>{html.escape(game)} simulation</title><style>{_STYLE}</style>",
        f"<h1>{html.escape(game)}: {data['games']} simulated games</h1>",
        "<p>"
        + html.escape(
            f"Options: {data['options'] or 'defaults'}. Bots: {bots}. Seed {data['seed']}."
        )
        + (
            " The run was interrupted; the figures cover the finished games."
            if data["interrupted"]
            else ""
        )
        + " Raw results: <a href='results.csv'>results.csv</a>, summary:"
        " <a href='summary.json'>summary.json</a>.</p>",
    ]
    images: list[tuple[str, str]] = []
    for key, title, file, method in (
        ("win_rate", "Win rate by team", "teams.png", "95% Wilson interval"),
        ("roles", "Win rate by role", "roles.png", "95% Wilson interval clustered by game"),
        ("seats", "Win rate by seat", "seats.png", "95% Wilson interval clustered by game"),
    ):
        if data[key]:
            note = f"{data['games']} games; error bars: {method}. Bots: {bots}."
            plot_rates(directory / file, title, data[key], note)
            parts.append(_rate_table(title, data[key], method))
            parts.append(f"<img src='{file}' alt='{html.escape(title)}'>")
            images.append((title, file))
    plot_counts(directory / "rounds.png", "Game length", data["rounds"]["histogram"], "rounds")
    parts.append(
        f"<h2>Game length</h2><p>Mean {data['rounds']['mean']:.2f} rounds, "
        f"{data['mean_actions']:.1f} actions per game.</p><img src='rounds.png' alt='Game length'>"
    )
    if data["extras"]:
        parts.append("<h2>Extras</h2>")
    for i, (name, extra) in enumerate(data["extras"].items()):
        summary_text = f"{extra['games']} games"
        if "mean" in extra:
            summary_text += (
                f", mean {extra['mean']:.3g}, min {extra['min']:g}, max {extra['max']:g}"
            )
        parts.append(f"<h3>{html.escape(name)}</h3><p>{html.escape(summary_text)}</p>")
        if extra.get("counts"):
            file = f"extra-{i}.png"
            plot_counts(directory / file, human(name), extra["counts"], ylabel="occurrences")
            parts.append(f"<img src='{file}' alt='{html.escape(name)}'>")
    (directory / "index.html").write_text("\n".join(parts) + "\n</html>\n", encoding="utf-8")
    write_csv(directory / "results.csv", rows)
    (directory / "summary.json").write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    return directory / "index.html"

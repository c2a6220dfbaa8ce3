"""The strength table of the robbers-horror bots: every bot against every other.

    python -m wolfden_bench.robbers_horror_strength --matches 1000 --jobs 2 --iterations 100

How a pairing is played: a full match (as many deals as players) with the two kinds of bot on
alternating seats, A B A B in even-numbered matches and B A B A in odd-numbered ones, so each
kind sits in every seat and deals equally often. A kind *wins a match* when every seat with
the most game points is of that kind; when the top is shared between both kinds the match is
a draw. The table gives A's share of the decisive matches with its Wilson 95% interval: A
*beats B significantly* when the whole interval lies above one half. It also gives the share
of all winning places that A's seats took.

With ``--write FILE`` the table replaces the text between the markers
``<!-- strength:begin -->`` and ``<!-- strength:end -->`` in FILE.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import re
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from wolfden import bots, games
from wolfden.engine.rng import derive_seed
from wolfden.games import robbers_horror as rh
from wolfden.sim.runner import play_match

KINDS = ("random", "rules", "ismcts")
BEGIN, END = "<!-- strength:begin -->", "<!-- strength:end -->"


def wilson(successes: float, n: float, z: float = 1.959964) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default)."""
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def make_bot(kind: str, seat: int, iterations: int) -> Any:
    if kind == "ismcts":
        from wolfden.bots.robbers_horror import IsmctsBot

        return IsmctsBot(seat, iterations=iterations)
    return bots.make(rh.id, kind, seat)


def layout(a: str, b: str, players: int, match: int) -> list[str]:
    """A B A B … in even matches, B A B A … in odd ones."""
    return [(a, b)[(seat + match) % 2] for seat in range(players)]


def play_one(args: tuple[str, str, int, int, int, int]) -> tuple[int, int, float]:
    """One match of a pairing: (A won, B won, A's share of the winning places)."""
    a, b, players, match, seed, iterations = args
    kinds = layout(a, b, players, match)
    seats = {s: make_bot(kind, s, iterations) for s, kind in enumerate(kinds)}
    game = games.get("robbers-horror")
    result = play_match(game, rh.Config(players=players), derive_seed(seed, match), seats)
    winners = result.outcome.winners
    share = sum(1 for s in winners if kinds[s] == a) / len(winners)
    return (int(share == 1.0), int(share == 0.0), share)


@dataclass
class Pairing:
    a: str
    b: str
    matches: int
    a_wins: int
    b_wins: int
    a_places: float
    seconds: float

    @property
    def draws(self) -> int:
        return self.matches - self.a_wins - self.b_wins

    @property
    def decisive(self) -> int:
        return self.a_wins + self.b_wins

    @property
    def share(self) -> float:
        return self.a_wins / self.decisive if self.decisive else 0.5

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.a_wins, self.decisive)

    @property
    def verdict(self) -> str:
        low, high = self.interval
        if low > 0.5:
            return f"{self.a} beats {self.b}"
        if high < 0.5:
            return f"{self.b} beats {self.a}"
        return "no significant difference"


def run_pairing(
    a: str,
    b: str,
    *,
    players: int,
    matches: int,
    seed: int,
    iterations: int,
    jobs: int,
    progress: bool = False,
) -> Pairing:
    pairing_seed = derive_seed(seed, KINDS.index(a), KINDS.index(b))
    tasks = [(a, b, players, m, pairing_seed, iterations) for m in range(matches)]
    start = time.perf_counter()
    results: list[tuple[int, int, float]] = []

    def note(result: tuple[int, int, float]) -> None:
        results.append(result)
        if progress and len(results) % 100 == 0:
            elapsed = time.perf_counter() - start
            print(f"  {a} vs {b}: {len(results)}/{matches} ({elapsed:.0f} s)", file=sys.stderr)

    if jobs > 1:
        with multiprocessing.get_context("spawn").Pool(jobs) as pool:
            for result in pool.imap_unordered(play_one, tasks, chunksize=4):
                note(result)
    else:
        for task in tasks:
            note(play_one(task))
    return Pairing(
        a,
        b,
        matches,
        sum(r[0] for r in results),
        sum(r[1] for r in results),
        sum(r[2] for r in results) / matches,
        time.perf_counter() - start,
    )


def table(pairings: Sequence[Pairing], *, players: int, iterations: int, command: str) -> str:
    lines = [
        f"{players} players, full matches ({players} deals); `ismcts` with {iterations} "
        f"iterations per decision. Produced by `{command}`.",
        "",
        "| A vs B | matches | A wins | B wins | draws | A's share of decisive matches "
        "(Wilson 95%) | A's share of winning places | verdict |",
        "|---|---:|---:|---:|---:|---|---:|---|",
    ]
    for p in pairings:
        low, high = p.interval
        lines.append(
            f"| {p.a} vs {p.b} | {p.matches} | {p.a_wins} | {p.b_wins} | {p.draws} | "
            f"{p.share:.3f} [{low:.3f}, {high:.3f}] | {p.a_places:.3f} | {p.verdict} |"
        )
    return "\n".join(lines)


def write_into(path: Path, text: str) -> None:
    doc = path.read_text(encoding="utf-8")
    pattern = re.compile(re.escape(BEGIN) + ".*?" + re.escape(END), re.DOTALL)
    if not pattern.search(doc):
        raise SystemExit(f"{path} has no {BEGIN} … {END} markers to write the table between")
    path.write_text(pattern.sub(lambda _: f"{BEGIN}\n{text}\n{END}", doc), encoding="utf-8")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m wolfden_bench.robbers_horror_strength",
        description="Play every robbers-horror bot against every other and print the table.",
    )
    parser.add_argument("--matches", type=int, default=1000, help="matches per pairing")
    parser.add_argument("--players", type=int, default=4, choices=(3, 4, 5))
    parser.add_argument("--iterations", type=int, default=100, help="ismcts iterations")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--pairs", default="ismcts:rules,rules:random,ismcts:random")
    parser.add_argument("--write", type=Path, help="put the table between the markers in FILE")
    args = parser.parse_args(argv)
    if args.matches < 1 or args.jobs < 1 or args.iterations < 1:
        parser.error("--matches, --jobs and --iterations must be at least 1")
    pairs = []
    for item in args.pairs.split(","):
        a, _, b = item.partition(":")
        if a not in KINDS or b not in KINDS or a == b:
            parser.error(f"--pairs takes A:B pairs of different kinds among {', '.join(KINDS)}")
        pairs.append((a, b))
    pairings = []
    for a, b in pairs:
        p = run_pairing(
            a,
            b,
            players=args.players,
            matches=args.matches,
            seed=args.seed,
            iterations=args.iterations,
            jobs=args.jobs,
            progress=True,
        )
        print(f"{a} vs {b}: {p.verdict} ({p.seconds:.0f} s)", file=sys.stderr, flush=True)
        pairings.append(p)
    command = "python -m wolfden_bench.robbers_horror_strength " + " ".join(
        f"--{k} {v}"
        for k, v in (
            ("matches", args.matches),
            ("players", args.players),
            ("iterations", args.iterations),
            ("seed", args.seed),
        )
    )
    text = table(pairings, players=args.players, iterations=args.iterations, command=command)
    print(text)
    if args.write:
        write_into(args.write, text)
    return 0


if __name__ == "__main__":
    sys.exit(main())

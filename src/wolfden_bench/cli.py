"""``wolfden bench``: the games' playout benchmarks, OpenSpiel beside them, the simulator's
scaling, the environments and (``wolfden bench server``) the server. wolfden.cli loads this
module only when ``bench`` is asked for."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from wolfden import games as game_registry
from wolfden.engine.contract import Game
from wolfden.sim import simulate as sim
from wolfden.sim.cli import CliError, friendly
from wolfden.sim.markdown import replace_sections

BENCH_INTRO = """# Benchmarks

Speed is measured by commands, never by unit tests. Each section below says the exact command
that produced it; rerun that command to refresh the section (other sections stay as they are).
Figures are medians of several repetitions in one run; the machine is shared, so compare the
ratios within a section rather than absolute numbers across sections.
"""


class BenchGroup(click.Group):
    """``wolfden bench [GAME ...] [options]`` benchmarks games; ``wolfden bench server ...``
    hands over to the server's own benchmark."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        named = {*self.commands, *self.list_commands(ctx), "--help", "-h"}
        if not args or args[0] not in named:
            args = ["games", *args]
        return super().parse_args(ctx, args)

    def list_commands(self, ctx: click.Context) -> list[str]:
        return ["server", "setups"]

    def format_usage(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        formatter.write_usage(ctx.command_path, "[GAME]... [OPTIONS]  |  server [ARGS]...")

    def format_options(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        games = self.commands["games"]
        options = [p for p in games.get_params(ctx) if isinstance(p, click.Option)]
        records = [r for p in options if (r := p.get_help_record(ctx))]
        with formatter.section("Options"):
            formatter.write_dl(records)
        self.format_commands(ctx, formatter)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name == "server":
            return _server_bench()
        return self.commands.get(name)


def _server_bench() -> click.Command:
    try:
        from wolfden_bench.server import bench_server_command
    except ModuleNotFoundError as exc:
        message = (
            f"the server's benchmark needs {exc.name}, which is not installed "
            "(pip install 'wolfden[dev]')"
        )
    else:
        bench_server_command.name = "server"
        return bench_server_command

    @click.command(
        "server",
        context_settings={"ignore_unknown_options": True, "allow_extra_args": True},
        help="Benchmark the multiplayer server (when its benchmark is installed).",
    )
    def missing() -> None:
        raise CliError(message)

    return missing


bench_command = BenchGroup(
    name="bench",
    invoke_without_command=False,
    help="Benchmark every game (or the GAMEs named): random playouts through the public "
    "contract on one core, OpenSpiel's closest games beside them when it is installed, and "
    "the multi-core scaling of simulate. Results go to docs/benchmarks.md. "
    "'wolfden bench server' benchmarks the server.",
)


@bench_command.command("games", hidden=True)
@click.argument("names", nargs=-1, metavar="[GAME]...")
@click.option(
    "--repeat",
    type=click.IntRange(1),
    default=5,
    show_default=True,
    help="Timed repetitions per figure (the median is reported).",
)
@click.option(
    "--seconds",
    type=click.FloatRange(0.05),
    default=0.4,
    show_default=True,
    help="Length of one repetition, in seconds of CPU time.",
)
@click.option(
    "--openspiel/--no-openspiel",
    default=None,
    help="Run OpenSpiel's closest games too (default: when no GAME is named).",
)
@click.option(
    "--scaling/--no-scaling",
    default=None,
    help="Measure simulate on 1 and 2 workers (default: when no GAME is named).",
)
@click.option(
    "--kernel/--no-kernel",
    default=None,
    help="Measure the compiled kernel beside OpenSpiel's C++ playouts, and its compile time "
    "(default: when no GAME is named).",
)
@click.option(
    "--envs/--no-envs",
    "environments",
    default=None,
    help="Measure the PettingZoo environments' agent steps/s beside the engine's actions/s "
    "(default: when no GAME is named).",
)
@click.option(
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    default=Path("docs/benchmarks.md"),
    show_default=True,
    help="Markdown file whose sections are rewritten.",
)
@click.option(
    "--write/--no-write", default=True, show_default=True, help="Write the results into --output."
)
@friendly
def bench_games(
    names: tuple[str, ...],
    repeat: int,
    seconds: float,
    openspiel: bool | None,
    scaling: bool | None,
    environments: bool | None,
    kernel: bool | None,
    output: Path,
    write: bool,
) -> None:
    from wolfden_bench import playouts as bench

    chosen = [sim.load_game(n) for n in names] if names else game_registry.all()
    everything = not names
    command = "wolfden bench" + "".join(f" {n}" for n in names)
    if repeat != 5:
        command += f" --repeat {repeat}"
    if seconds != 0.4:
        command += f" --seconds {seconds:g}"
    flags = (("openspiel", openspiel), ("scaling", scaling), ("envs", environments))
    for flag, value in (*flags, ("kernel", kernel)):
        if value is not None:
            command += f" --{flag}" if value else f" --no-{flag}"
    host = bench.machine()
    sections: dict[str, str] = {}
    for game in chosen:
        click.echo(f"{game.id}: random playouts through the public contract, one core")
        results = bench.bench_game(game, repeats=repeat, seconds=seconds)
        for _, m in results:
            click.echo(
                f"  {m.label:<32} {m.games_per_s:>10,.0f} games/s {m.actions_per_s:>12,.0f} "
                f"actions/s  ({m.actions_per_game:.1f} actions per game)"
            )
        sections[game.id] = (
            f"Command: `{command}` — complete random-bot playouts through the public contract "
            f"(setup, actors, legal_actions, apply, deadline; no views) on one core; "
            f"{bench.RATE_NOTE}; median of {repeat} repetitions.\n\n"
            f"Machine: {host}.\n\n" + bench.table([m for _, m in results])
        )
    if openspiel if openspiel is not None else everything:
        section = _bench_openspiel(bench, repeat, seconds, command, host)
        if section:
            sections["OpenSpiel side by side"] = section
    if (scaling if scaling is not None else everything) and chosen:
        sections["Simulator scaling"] = _bench_scaling(bench, chosen, command, host)
    if environments if environments is not None else everything:
        section = _bench_environments(bench, chosen, repeat, seconds, command, host)
        if section:
            sections["Environments"] = section
    if kernel if kernel is not None else everything:
        from wolfden_bench import kernel as kernel_bench

        section = kernel_bench.section(repeat, seconds, command, host, click.echo)
        if section:
            sections["Compiled kernel"] = section
    if write and sections:
        replace_sections(
            output, sections, BENCH_INTRO, before=("OpenSpiel side by side", "Simulator scaling")
        )
        click.echo(f"written to {output}", err=True)


@bench_command.command(
    "setups",
    help="Time the Werewolf setup editor's balance estimate and suggestion through a real "
    "server, for 7 to 16 players. Results go to docs/benchmarks.md.",
)
@click.option(
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    default=Path("docs/benchmarks.md"),
    show_default=True,
)
@click.option("--write/--no-write", default=True, show_default=True)
@friendly
def bench_setups(output: Path, write: bool) -> None:
    from wolfden_bench import playouts as bench
    from wolfden_bench import setups

    click.echo("the setup editor's estimates, through wolfden serve:")
    rows = setups.run(click.echo)
    if write:
        text = setups.section(rows, "wolfden bench setups", bench.machine())
        replace_sections(output, {"Setup editor estimates": text}, BENCH_INTRO)
        click.echo(f"written to {output}", err=True)


def _bench_environments(
    bench: Any, chosen: list[Any], repeat: int, seconds: float, command: str, host: str
) -> str:
    try:
        from wolfden import envs
        from wolfden_bench import envs as env_bench
    except ImportError:
        click.echo("the environments need pettingzoo (pip install 'wolfden[rl]'); skipping them")
        return ""
    ids = [g.id for g in chosen if g.id in envs.ids()]
    click.echo("environments: agent steps/s beside the engine's actions/s, in turns, one core")
    table, lines = env_bench.section(bench.measure_together, ids, repeat, seconds)
    for line in lines:
        click.echo(line)
    return (
        f"Command: `{command}` — whole matches with random masked actions on each game's "
        "default environment config: the engine's loop (every action, clock actions included, "
        "no views), the raw AEC environment (one agent step = `last()` then `step(index)`) "
        "and the parallel environment (one agent step = one acting agent's action; every "
        "step returns every live agent's observation), timed in turns; share = agent steps/s "
        f"÷ engine actions/s; median of {repeat} repetitions.\n\n"
        f"Machine: {host}.\n\n{table}"
    )


def _partner(
    bench: Any, game_id: str, seats: int, recorded: dict[tuple[str, int], Any]
) -> list[tuple[str, Any]]:
    """The wolfden game's benchmark playout with ``seats`` seats and the same loop over its
    recorded playouts with rules that cost nothing (see ``bench.LoopAlone``, recorded once per
    game and seats in ``recorded``: Robbers' Horror stands beside two OpenSpiel games);
    nothing when the game is not registered."""
    if game_id not in game_registry.ids():
        return []
    game = game_registry.get(game_id)
    for label, config in bench.bench_configs(game):
        if game.num_seats(config) == seats:
            alone = recorded.get((game_id, seats))
            if alone is None:
                alone = recorded[game_id, seats] = bench.loop_alone(game, config)
            return [
                (f"{game_id} ({label})", bench.playout_of(game, config)),
                (alone.id, bench.playout_of(alone, config)),
            ]
    return []


def _loop_share(ours: Any, alone: Any) -> str:
    """How a wolfden game's time splits between the benchmark's loop and the rules."""
    total = 1e6 / ours.games_per_s
    loop = 1e6 / alone.games_per_s
    return (
        f"{ours.label}: the same loop over recorded playouts of it with rules that cost "
        f"nothing (the same actors, legal lists and {alone.actions_per_game:.1f} actions a "
        f"game), timed in the same turns, ran {alone.games_per_s:,.0f} games/s: of a game's "
        f"{total:.0f} µs the loop takes {loop:.0f} µs and the rules {total - loop:.0f} µs."
    )


def _bench_openspiel(bench: Any, repeat: int, seconds: float, command: str, host: str) -> str:
    version = bench.spiel_available()
    if version is None:
        click.echo("OpenSpiel is not installed (pip install 'wolfden[bench]'); skipping it")
        return ""
    registered = bench.spiel_registered()
    click.echo(f"OpenSpiel {version} beside wolfden, the same loop in turns on one core")
    rows = [
        "| OpenSpiel game | parameters | games/s | actions/s | actions per game "
        "| wolfden game | its games/s | its actions/s | ratio of games/s (wolfden / OpenSpiel) |",
        "|---|---|---:|---:|---:|---|---:|---:|---:|",
    ]
    notes = []
    recorded: dict[tuple[str, int], Any] = {}
    for spec in bench.SPIEL_GAMES:
        name, params, why = spec.name, spec.params, spec.why
        if name not in registered:
            notes.append(
                f"`{name}` is not in OpenSpiel {version}; `liars_dice` (hidden dice, bluffing) "
                "stands in for it."
            )
            name, params, why = "liars_dice", {}, "closest hidden-information game available"
        entries = [(name, bench.spiel_playout(name, params))]
        entries += _partner(bench, spec.partner, spec.seats, recorded)
        measures = bench.measure_together(entries, repeats=repeat, seconds=seconds)
        theirs = measures[0]
        ours = measures[1] if len(measures) > 1 else None
        alone = measures[2] if len(measures) > 2 else None
        ratio = f"{ours.games_per_s / theirs.games_per_s:.2f}×" if ours else "—"
        shown_partner = ours.label if ours else f"{spec.partner} (not registered yet)"
        click.echo(
            f"  {name:<18} {theirs.games_per_s:>9,.0f} games/s {theirs.actions_per_s:>10,.0f} "
            f"actions/s | {shown_partner}: "
            + (f"{ours.games_per_s:,.0f} games/s, ratio {ratio}" if ours else "—")
        )
        if alone is not None:
            click.echo(f"    the loop alone: {alone.games_per_s:,.0f} games/s")
        shown = ", ".join(f"{k}={v}" for k, v in params.items()) or "defaults"
        rows.append(
            f"| `{name}` | {shown} | {theirs.games_per_s:,.0f} | {theirs.actions_per_s:,.0f} | "
            f"{theirs.actions_per_game:.1f} | {shown_partner} | "
            + (
                f"{ours.games_per_s:,.0f} | {ours.actions_per_s:,.0f} | {ratio} |"
                if ours
                else "— | — | — |"
            )
        )
        notes.append(f"`{name}`: {why}.")
        if ours is not None and alone is not None:
            notes.append(_loop_share(ours, alone))
    return (
        f"Command: `{command}` — OpenSpiel {version}, each game driven from Python by the same "
        f"random-playout loop as wolfden's games (uniform over the legal actions: "
        f"`items[int(random() * len(items))]` from one `random.Random` per loop, seeded once, "
        f"in both; chance nodes "
        f"such as the deal sampled from their probabilities and not counted as actions, since "
        f"wolfden deals inside `setup`). Each pair is timed in turns in the same run; "
        f"{bench.RATE_NOTE}; median of {repeat} repetitions.\n\nMachine: {host}.\n\n"
        + "\n".join(rows)
        + "\n\n"
        + "\n".join(f"- {n}" for n in notes)
    )


def _bench_scaling(bench: Any, chosen: list[Game], command: str, host: str) -> str:
    game = next((g for g in chosen if g.id == "werewolf"), chosen[0])
    config = bench.bench_configs(game)[0][1]
    probe = bench.measure("probe", bench.playout_of(game, config), repeats=1, seconds=0.3)
    games = max(200, int(probe.games_per_s * 5))
    click.echo(f"simulate scaling: {game.id}, {games} games, 1 worker against 2")
    result = bench.bench_scaling(game, config, games=games)
    click.echo(
        f"  1 worker {result.one:,.0f} games/s, 2 workers {result.two:,.0f} games/s: "
        f"{result.ratio:.2f}× (workers got {result.busy:.2f} cores; load {result.load:.2f}; "
        f"starting the workers {result.startup:.2f} s)"
    )
    options = "" if result.label == "defaults" else result.label + " "
    return (
        f"Command: `{command}` — `wolfden simulate {game.id} {options}--bots random "
        f"--games {games} --workers W`, timed by the wall clock from start to finish (starting "
        f"the worker processes included), median of {result.repeats} runs each.\n\n"
        f"Machine: {host}; one-minute load average {result.load:.2f} before the runs. "
        f"During the 2-worker runs the workers got {result.busy:.2f} cores on average (their "
        "CPU time over the wall time): with both cores free this is close to 2, and a lower "
        "figure means other work on the shared machine held a core. Starting the 2 workers "
        f"costs about {result.startup:.2f} s (a run of one game per worker), included in "
        "the 2-worker figure.\n\n"
        "| workers | games/s | scaling |\n|---:|---:|---:|\n"
        f"| 1 | {result.one:,.0f} | 1.00× |\n"
        f"| 2 | {result.two:,.0f} | {result.ratio:.2f}× |"
    )

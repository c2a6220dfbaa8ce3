"""The simulator's commands: ``simulate``, ``balance`` and ``bench``, registered by wolfden.cli."""

from __future__ import annotations

import functools
import json
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import click

from wolfden import games as game_registry
from wolfden.engine.contract import Game
from wolfden.engine.errors import WolfdenError
from wolfden.sim import simulate as sim
from wolfden.sim.options import build_config, game_params
from wolfden.sim.seating import known_teams


class CliError(click.ClickException):
    """One clear line on stderr and exit code 2."""

    exit_code = 2

    def show(self, file: Any = None) -> None:
        click.echo(f"wolfden: {self.format_message()}", err=True)


def friendly(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Turn wolfden's errors (and file errors) into one line on stderr with exit code 2."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except (WolfdenError, OSError) as exc:
            raise CliError(str(exc)) from exc
        except click.exceptions.Exit:
            raise
        except click.ClickException:
            raise
        except Exception as exc:
            if os.environ.get("WOLFDEN_DEBUG"):
                raise
            click.echo(f"wolfden: {type(exc).__name__}: {exc}", err=True)
            raise click.exceptions.Exit(1) from exc

    return wrapper


class GameGroup(click.Group):
    """A command with one subcommand per registered game, built when it is asked for.

    ``wolfden simulate werewolf --players 9 ...``: the game's options come from its Config, so
    a newly registered game gets its subcommand without any change here.
    """

    def __init__(self, make: Callable[[Game], click.Command], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._make = make

    def list_commands(self, ctx: click.Context) -> list[str]:
        return game_registry.ids()

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        try:
            game = sim.load_game(name)
        except WolfdenError:
            return None
        return self._make(game)

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        name = args[0]
        if name.startswith("-"):
            raise CliError(f"{self.name}: name the game first; the games are {_games_list()}")
        try:
            game = sim.load_game(name)
        except WolfdenError as exc:
            raise CliError(str(exc)) from exc
        return name, self._make(game), args[1:]


def _games_list() -> str:
    return ", ".join(game_registry.ids())


@contextmanager
def progress_bar(total: int, label: str) -> Iterator[Callable[[int], None] | None]:
    """A rich progress bar with rate and ETA on a terminal; nothing otherwise."""
    if not sys.stderr.isatty():
        yield None
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TaskProgressColumn,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TaskProgressColumn(),
        TextColumn("{task.fields[rate]}"),
        TimeElapsedColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task(label, total=total, rate="")

        def advance(n: int) -> None:
            bar.advance(task, n)
            speed = bar.tasks[0].speed
            bar.update(task, rate=f"{speed:,.0f} games/s" if speed else "")

        yield advance


ENGINE_HELP = (
    "What plays the matches: the compiled kernel (Robbers' Horror and Werewolf with random "
    "and rules bots; the same matches as the rules, faster), the reference rules, or auto: "
    "the kernel whenever it can."
)


def _simulate_game(game: Game) -> click.Command:
    @friendly
    def callback(**kwargs: Any) -> None:
        from wolfden.sim.report import summary, text, write_report

        config, seat_bots = build_config(game, kwargs)
        spec = kwargs["bots"]
        if spec is None:
            spec = "rules" if "rules" in sim.bot_kinds(game) else "random"
        bots = sim.bot_plan(game, config, spec, seat_bots)
        shown_bots = bots.describe(known_teams(game, config))
        report_dir: Path | None = kwargs["report"]
        plan = sim.make_plan(
            game,
            config,
            games=kwargs["games"],
            seed=kwargs["seed"],
            bots=bots,
            keep_rows=report_dir is not None,
            engine=kwargs["engine"],
        )
        if plan.engine_note and kwargs["engine"] != "reference":
            click.echo(f"engine: reference rules ({plan.engine_note})", err=True)
        with progress_bar(plan.games, game.id) as advance:
            study = sim.run(
                plan, workers=kwargs["workers"], backend=kwargs["backend"], progress=advance
            )
        data = summary(game, config, study)
        if kwargs["json"]:
            click.echo(json.dumps(data))
        else:
            click.echo(text(data, shown_bots))
        if report_dir is not None:
            page = write_report(report_dir, data, study.rows, shown_bots)
            click.echo(f"report written to {page}", err=True)
        if study.interrupted:
            click.echo(f"interrupted: {study.tally.games} of {plan.games} games finished", err=True)
            sys.exit(130)

    params: list[click.Parameter] = [
        *game_params(game),
        click.Option(
            ["--games", "-n"],
            type=click.IntRange(1),
            default=1000,
            show_default=True,
            help="How many matches to play.",
        ),
        click.Option(
            ["--bots"],
            default=None,
            metavar="SPEC",
            help="KIND for every seat, KIND,KIND,… one per seat, or items SEAT=KIND, "
            "TEAM=KIND (bots by the team dealt; a new deal re-seats them) and *=KIND (every "
            "other seat, random if not given). Default: rules (random if the game has none).",
        ),
        click.Option(
            ["--workers", "-w"],
            type=click.IntRange(1),
            default=None,
            help="Processes to use (default: every core).",
        ),
        click.Option(
            ["--backend"],
            type=click.Choice(sim.BACKENDS),
            default="local",
            show_default=True,
            help="local processes, or ray (RAY_ADDRESS joins a running cluster).",
        ),
        click.Option(
            ["--seed"],
            type=int,
            default=1,
            show_default=True,
            help="Match i is played with a seed derived from this seed and i.",
        ),
        click.Option(
            ["--engine"],
            type=click.Choice(sim.ENGINES),
            default="auto",
            show_default=True,
            help=ENGINE_HELP,
        ),
        click.Option(["--json", "json"], is_flag=True, help="Print one JSON object."),
        click.Option(
            ["--report"],
            type=click.Path(file_okay=False, path_type=Path),
            default=None,
            metavar="DIR",
            help="Write an HTML report with plots and the raw results as CSV.",
        ),
    ]
    return click.Command(
        game.id,
        callback=callback,
        params=params,
        help=f"Simulate {getattr(game, 'title', game.id)} matches between bots.",
    )


simulate_command = GameGroup(
    _simulate_game,
    name="simulate",
    help="Play many matches between bots and report win rates with 95% intervals.",
)


# -- balance ------------------------------------------------------------------------------


@click.command(
    "balance",
    help="Regenerate docs/balance.md and its figures: win rates of every registered game "
    "across player counts, role sets, variants and bot kinds (or only the GAMEs named; "
    "the other games' sections stay as they are).",
)
@click.argument("names", nargs=-1, metavar="[GAME]...")
@click.option(
    "--games",
    "-n",
    type=click.IntRange(10),
    default=None,
    help="Games per table row for every bot (default: 1000, fewer for slow bots so that each "
    "study takes about a minute on two cores; each table says its count).",
)
@click.option("--seed", type=int, default=1, show_default=True)
@click.option(
    "--workers",
    "-w",
    type=click.IntRange(1),
    default=None,
    help="Processes to use (default: every core).",
)
@click.option(
    "--engine",
    type=click.Choice(sim.ENGINES),
    default="auto",
    show_default=True,
    help=ENGINE_HELP,
)
@click.option(
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    default=Path("docs/balance.md"),
    show_default=True,
)
@click.option(
    "--figures",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("docs/figures"),
    show_default=True,
)
@click.option(
    "--setups",
    is_flag=True,
    help="Measure only Werewolf's built-in setups (the setup editor's library): 2,000 games "
    "each where the kernel plays, --games (default 200) where the rules play in Python; "
    "writes their figures beside the library and their table into --output.",
)
@friendly
def balance_command(
    names: tuple[str, ...],
    games: int | None,
    seed: int,
    workers: int | None,
    engine: str,
    output: Path,
    figures: Path,
    setups: bool,
) -> None:
    from wolfden.sim import balance
    from wolfden.sim.markdown import replace_sections

    if setups:
        from wolfden.sim import estimate

        command = "wolfden balance --setups" + (f" --games {games}" if games else "")
        text = estimate.measure_library(games or 200, command, click.echo)
        replace_sections(output, {estimate.LIBRARY_SECTION: text}, balance.INTRO)
        click.echo(f"written to {output}", err=True)
        return

    chosen = [sim.load_game(n) for n in names] if names else game_registry.all()
    workers = workers or sim.default_workers()
    command = "wolfden balance" + "".join(f" {n}" for n in names)
    if games:
        command += f" --games {games}"
    if seed != 1:
        command += f" --seed {seed}"
    if engine != "auto":
        command += f" --engine {engine}"
    plans = [(game, balance.studies_for(game, games or 1000)) for game in chosen]
    budget = None if games else balance.STUDY_SECONDS
    for _, studies in plans:
        for study in studies:
            balance.prepare_study(study, seed=seed, workers=workers, budget=budget, engine=engine)
    total = sum(balance.study_games(s) for _, studies in plans for s in studies)
    sections: dict[str, str] = {}
    with balance.shared_pool(workers) as pool, progress_bar(total, "balance") as advance:
        for game, studies in plans:
            for study in studies:
                click.echo(
                    f"{study.title}: {len(study.points)} settings, games per row "
                    f"{study.games_by_kind}",
                    err=True,
                )
                balance.run_study(
                    study,
                    seed=seed,
                    workers=workers,
                    pool=pool,
                    progress=advance,
                    engine=engine,
                )
            sections[balance.section_title(game)] = balance.game_markdown(
                game, studies, figures, output, command, seed
            )
    replace_sections(output, sections, balance.INTRO)
    click.echo(f"written to {output} and {figures}/", err=True)

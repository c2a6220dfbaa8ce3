"""The ``wolfden`` command."""

from __future__ import annotations

import importlib
import json
import sys
from collections.abc import Sequence
from typing import Any, ClassVar

import click

from wolfden import __version__, bots, games
from wolfden.engine.errors import WolfdenError
from wolfden.engine.record import MatchRecord, replay
from wolfden.engine.rng import derive_seed
from wolfden.engine.types import TABLE, Viewer
from wolfden.server.cli import serve_command
from wolfden.sim.cli import balance_command, simulate_command
from wolfden.sim.options import build_config, game_params
from wolfden.sim.seating import bot_plan, known_teams, seat_players
from wolfden.terminal import render
from wolfden.words.cli import words_group


class WolfdenGroup(click.Group):
    """The ``wolfden`` group; the tools in wolfden_bench are imported only when named."""

    TOOLS: ClassVar[dict[str, str]] = {
        "bench": "wolfden_bench.cli:bench_command",
        "soak": "wolfden_bench.soak:main",
    }

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted([*super().list_commands(ctx), *self.TOOLS])

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name not in self.TOOLS:
            return super().get_command(ctx, name)
        module, attribute = self.TOOLS[name].split(":")
        command = getattr(importlib.import_module(module), attribute)
        assert isinstance(command, click.Command)
        command.name = name
        return command


@click.group(cls=WolfdenGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="wolfden")
def cli() -> None:
    """wolfden: the moderator, table and bots for werewolf-themed games."""


@cli.command("games")
def games_command() -> None:
    """List the games."""
    for game in games.all():
        kinds = ", ".join(bots.kinds(game.id))
        teams = ", ".join(known_teams(game, game.Config()))
        shown = f"bots: {kinds}" + (f"; teams: {teams}" if teams else "")
        click.echo(f"{game.id:<16} {game.title} — {getattr(game, 'summary', '')} ({shown})")


class PlayCommands(click.Group):
    """``wolfden play GAME``: one subcommand per registered game, with that game's options."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return games.ids()

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name not in games.ids():
            return None
        return _play_command(name)

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        if args and not args[0].startswith("-") and args[0] not in games.ids():
            raise click.UsageError(
                f"unknown game {args[0]!r}; the games are {', '.join(games.ids())}"
            )
        return super().resolve_command(ctx, args)


def _play_command(game_id: str) -> click.Command:
    game = games.get(game_id)

    def run(**options: Any) -> None:
        config, seat_bots = build_config(game, options)
        seed = options["seed"] if options["seed"] is not None else _fresh_seed()
        _play(game_id, config, seed, options["human"], options["bots"], seat_bots, options["save"])

    params: list[click.Parameter] = [
        *game_params(game),
        click.Option(
            ["--human", "human"],
            type=int,
            multiple=True,
            help="a seat (from 0) played by a person at this keyboard; repeat for more",
        ),
        click.Option(
            ["--bots"],
            default="rules",
            show_default=True,
            metavar="SPEC",
            help="bots for the seats without a person: KIND for all, KIND,KIND,… one per seat, "
            "or items SEAT=KIND, TEAM=KIND (by the team dealt) and *=KIND (the others)",
        ),
        click.Option(["--seed"], type=int, default=None, help="the match's seed (default: random)"),
        click.Option(
            ["--save"],
            type=click.Path(dir_okay=False),
            default=None,
            help="write the match record (JSON) to this file at the end",
        ),
    ]
    return click.Command(
        game_id, params=params, callback=run, help=f"Play {game.title} in the terminal."
    )


def _fresh_seed() -> int:
    import secrets

    return secrets.randbits(32)


def _play(
    game_id: str,
    config: Any,
    seed: int,
    humans: Sequence[int],
    bot_spec: str,
    seat_bots: dict[int, str],
    save: str | None,
) -> None:
    from wolfden.sim.runner import play_match
    from wolfden.terminal.play import PlaySession, TerminalPlayer

    game = games.get(game_id)
    n = game.num_seats(config)
    bad = [h for h in humans if not 0 <= h < n]
    if bad:
        raise click.UsageError(f"--human {bad[0]}: seats are numbered 0 to {n - 1}")
    plan = bot_plan(game, config, bot_spec, seat_bots)
    state = game.setup(config, seed)
    names = (
        [game.view(state, TABLE)["seats"][s]["name"] for s in range(n)]
        if _has_seats(game, state)
        else [f"Seat {s}" for s in range(n)]
    )
    session = PlaySession(game, humans, names)
    people = {seat: TerminalPlayer(game, seat, names[seat], session) for seat in humans}
    players = seat_players(plan, lambda kind, seat: bots.make(game_id, kind, seat), n, fixed=people)
    if not humans:
        click.echo("No --human seats: the bots play while you watch.")
    table = game.view(state, TABLE)
    click.echo(render(game_id, table))
    click.echo("")
    session.deal(state)
    for line in table.get("narration", []):
        click.echo(line)
    result = play_match(
        game, config, seed, players, on_step=session.on_step, on_wait=session.on_wait
    )
    click.echo("")
    click.echo(render(game_id, game.view(result.state, Viewer.parse("all"))))
    if save:
        result.record.save(save)
        click.echo(f"Saved the match record to {save}")


def _has_seats(game: Any, state: Any) -> bool:
    seats = game.view(state, TABLE).get("seats")
    return isinstance(seats, list) and all(isinstance(s, dict) and "name" in s for s in seats)


cli.add_command(PlayCommands("play", help="Play a game in the terminal with bots and people."))
cli.add_command(simulate_command)
cli.add_command(balance_command)
cli.add_command(words_group)


@cli.command("replay")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option(
    "--as",
    "as_",
    default="table",
    show_default=True,
    help="whose eyes: a seat number, 'table', 'spectator' or 'all'",
)
def replay_command(file: str, as_: str) -> None:
    """Step through a saved match as one viewer saw it."""
    record = MatchRecord.load(file)
    game = games.get(record.game)
    viewer = Viewer.of(int(as_)) if as_.isdigit() else Viewer.parse(as_)
    steps = replay(game, record)
    state, _, _, _ = next(steps)
    if viewer.seat is not None and viewer.seat >= game.num_seats(state.config):
        raise click.UsageError(
            f"--as {as_}: this match has seats 0 to {game.num_seats(state.config) - 1}"
        )
    click.echo(f"{game.title}, seed {record.seed}, {len(record.actions)} actions, as {viewer}")
    click.echo(render(game.id, game.view(state, viewer)))
    for i, (state, seat, _action, events) in enumerate(steps, 1):
        for event in game.visible_events(state, events, viewer):
            if event.get("text"):
                who = "clock" if seat is None else f"seat {seat}"
                click.echo(f"[{i:>3} {who}] {event['text']}")
    click.echo("")
    click.echo(render(game.id, game.view(state, viewer)))


cli.add_command(serve_command)


def main(argv: Sequence[str] | None = None) -> None:
    """Entry point: errors become one clear line on stderr and exit code 2."""
    try:
        cli.main(
            args=list(argv) if argv is not None else None,
            prog_name="wolfden",
            standalone_mode=False,
        )
    except click.exceptions.Abort:
        click.echo("Stopped.", err=True)
        sys.exit(130)
    except click.ClickException as exc:
        message = exc.format_message().strip().replace("\n", " ")
        click.echo(f"wolfden: {message}", err=True)
        sys.exit(2)
    except (WolfdenError, OSError, json.JSONDecodeError) as exc:
        click.echo(f"wolfden: {exc}", err=True)
        sys.exit(2)
    except KeyboardInterrupt:
        click.echo("Stopped.", err=True)
        sys.exit(130)


__all__ = ["cli", "derive_seed", "main"]

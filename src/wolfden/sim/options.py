"""A game's command-line options for ``simulate``, ``balance`` and ``bench``.

The flags themselves come from :mod:`wolfden.config_options` (one ``--field-name`` per field
of the game's ``Config``, as ``wolfden play`` has them), plus the game's own flags:
``EXTRA_OPTIONS`` in the terminal module its registry entry names, which
``apply_extra(options, config_kwargs, seat_bots)`` turns into config values and per-seat bot
kinds.
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Callable, Mapping
from typing import Any

import click

from wolfden.config_options import config_from_options, config_options
from wolfden.engine.contract import Game
from wolfden.terminal import module_for


def extra_params(game: Game) -> list[click.Parameter]:
    """The game's own flags (may be empty)."""
    return list(getattr(module_for(game.id), "EXTRA_OPTIONS", []) or [])


def game_params(game: Game) -> list[click.Parameter]:
    """Every game-specific flag: the Config fields, then the game's extra options."""
    return [*config_options(game.Config), *extra_params(game)]


def build_config(game: Game, options: dict[str, Any]) -> tuple[Any, dict[int, str]]:
    """``(config, seat_bots)`` from parsed flags. Raises ConfigError for an invalid config."""
    seat_bots: dict[int, str] = {}
    config_kwargs: dict[str, Any] = {}
    apply_extra: Callable[..., None] | None = getattr(module_for(game.id), "apply_extra", None)
    if apply_extra is not None:
        apply_extra(options, config_kwargs, seat_bots)
    values = dict(options)
    for key, value in config_kwargs.items():
        values["cfg_" + key] = value
    return config_from_options(game.Config, values), seat_bots


def _shown(value: Any) -> str:
    if isinstance(value, enum.Enum):
        return str(value.value)
    if isinstance(value, (tuple, list)):
        return ",".join(str(v) for v in value)
    if isinstance(value, Mapping):
        return ",".join(f"{k}={v}" for k, v in value.items())
    return str(value)


def config_label(game: Game, config: Any) -> str:
    """The options that differ from the defaults, as flags (``--players 9 --round-limit 2``)."""
    defaults = game.Config()
    parts = []
    for f in dataclasses.fields(game.Config):
        value = getattr(config, f.name)
        if value == getattr(defaults, f.name):
            continue
        flag = "--" + f.name.replace("_", "-")
        if isinstance(value, bool):
            parts.append(flag if value else "--no-" + flag[2:])
        elif isinstance(value, tuple):
            parts.extend(f"{flag} {_shown(v)}" for v in value)
        else:
            parts.append(f"{flag} {_shown(value)}")
    return " ".join(parts)


def parse_game_flags(game: Game, args: list[str]) -> tuple[Any, dict[int, str]]:
    """``(config, seat_bots)`` from flags written as on the command line (``["--memory",
    "young"]``), parsed exactly as ``play`` and ``simulate`` parse them."""
    command = click.Command(game.id, params=game_params(game))
    with command.make_context(game.id, list(args)) as ctx:
        return build_config(game, dict(ctx.params))


def extra_variants(game: Game) -> list[list[str]]:
    """Flags that change one of the game's own options from its default: every other choice
    of a choice option, and every off-by-default switch."""
    out: list[list[str]] = []
    for param in extra_params(game):
        if not isinstance(param, click.Option) or param.multiple or not param.opts:
            continue
        flag = param.opts[0]
        if param.is_flag and not param.secondary_opts:
            out.append([flag])
        elif isinstance(param.type, click.Choice):
            ctx = click.Context(click.Command(game.id))
            default = param.get_default(ctx)
            out.extend([flag, str(c)] for c in param.type.choices if c != default)
    return out

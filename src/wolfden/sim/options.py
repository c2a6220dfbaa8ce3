"""Command-line options built from a game's ``Config``, shared by ``simulate`` and ``play``.

Every field of a game's frozen ``Config`` dataclass becomes a ``--field-name`` flag with the
field's help text; true/false fields become ``--name/--no-name``. A game may add its own flags
through ``wolfden.terminal.<module>.EXTRA_OPTIONS`` and turn them into config values and per-seat
bot kinds with ``apply_extra(options, config_kwargs, seat_bots)``.

Typical use by a command::

    params = game_params(game, reserved={"games", "seed"})
    ...
    config, seat_bots = build_config(game, parsed_kwargs)
"""

from __future__ import annotations

import dataclasses
import enum
import importlib
import json
import types
import typing
from collections.abc import Callable, Mapping
from typing import Any, get_args, get_origin

import click

from wolfden.engine.config import config_from_json, field_types
from wolfden.engine.contract import Game

PARAM_PREFIX = "config__"
"""Parsed config flags are stored under this prefix so they never clash with a command's own."""


class _Clear:
    """``--option none`` for an optional field: set it to None (unset flags stay None)."""

    def __repr__(self) -> str:
        return "none"


CLEAR = _Clear()


def _module_name(game: Game) -> str:
    return game.id.replace("-", "_")


def terminal_module(game: Game) -> Any | None:
    """``wolfden.terminal.<module>`` of a game, or None while the game has none."""
    name = "wolfden.terminal." + _module_name(game)
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name in (name, "wolfden.terminal"):
            return None
        raise


def _flag(name: str) -> str:
    return "--" + name.replace("_", "-")


def _unwrap_optional(tp: Any) -> tuple[Any, bool]:
    if get_origin(tp) in (types.UnionType, typing.Union):
        args = [a for a in get_args(tp) if a is not type(None)]
        if len(args) == 1 and len(args) < len(get_args(tp)):
            return args[0], True
    return tp, False


class _Structured(click.ParamType):
    """A list or mapping option: JSON, or ``a,b,c`` / ``key=value,key=value``."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self.name = "list" if kind == "list" else "mapping"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if not isinstance(value, str):
            return value
        text = value.strip()
        if text[:1] in "[{":
            try:
                return json.loads(text)
            except json.JSONDecodeError:
                self.fail(f"{value!r} is not valid JSON", param, ctx)
        if text.lower() in ("none", "null"):
            return None
        items = [part.strip() for part in text.split(",") if part.strip()]
        if self.kind == "list":
            return [_scalar(item) for item in items]
        out: dict[str, Any] = {}
        for item in items:
            key, sep, val = item.partition("=")
            if not sep or not key.strip():
                self.fail(f"write {self.name} values as key=value,key=value (got {item!r})")
            out[key.strip()] = _scalar(val.strip())
        return out


def _scalar(text: str) -> Any:
    for convert in (int, float):
        try:
            return convert(text)
        except ValueError:
            pass
    lowered = text.lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    return text


class _Nullable(click.ParamType):
    """An optional value: the inner type, or ``none`` to clear it."""

    def __init__(self, inner: click.ParamType) -> None:
        self.inner = inner
        self.name = f"{inner.name} or none"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if value is CLEAR or (
            isinstance(value, str) and value.strip().lower() in ("none", "null", "off")
        ):
            return CLEAR
        return self.inner.convert(value, param, ctx)


def config_params(
    game: Game, reserved: frozenset[str] | set[str] = frozenset()
) -> list[click.Option]:
    """One click option per field of ``game.Config``; unset options keep the config's default.

    A field whose flag would clash with one of the command's own (``reserved``, in flag form
    without dashes, e.g. ``games``) is offered as ``--config-NAME`` instead.
    """
    hints = field_types(game.Config)
    params: list[click.Option] = []
    for f in dataclasses.fields(game.Config):
        tp, nullable = _unwrap_optional(hints[f.name])
        flag = _flag(f.name)
        if f.name.replace("_", "-") in reserved:
            flag = _flag("config_" + f.name)
        default = f.default if f.default is not dataclasses.MISSING else None
        help_text = str(f.metadata.get("help", ""))
        shown = _shown_default(default)
        if shown is not None:
            help_text = f"{help_text} [default: {shown}]".strip()
        dest = PARAM_PREFIX + f.name
        ptype: click.ParamType
        if tp is bool and not nullable:
            params.append(
                click.Option([f"{flag}/--no-{flag[2:]}", dest], default=None, help=help_text)
            )
            continue
        if isinstance(tp, type) and issubclass(tp, enum.Enum):
            ptype = click.Choice([str(m.value) for m in tp])
        elif tp is int:
            ptype = click.IntRange(f.metadata.get("min"), f.metadata.get("max"))
        elif tp is float:
            ptype = click.FloatRange(f.metadata.get("min"), f.metadata.get("max"))
        elif tp is str:
            ptype = click.STRING
        elif tp is bool:
            ptype = click.BOOL
        elif get_origin(tp) is tuple:
            ptype = _Structured("list")
        elif get_origin(tp) in (dict, Mapping) or get_origin(tp) is typing.Mapping:
            ptype = _Structured("mapping")
        else:
            ptype = click.STRING
        if nullable:
            ptype = _Nullable(ptype)
        params.append(click.Option([flag, dest], type=ptype, default=None, help=help_text))
    return params


def _shown_default(default: Any) -> str | None:
    if default is None:
        return None
    if isinstance(default, enum.Enum):
        return str(default.value)
    if isinstance(default, bool):
        return "on" if default else "off"
    if isinstance(default, (tuple, list)):
        return ",".join(str(v) for v in default) or None
    if isinstance(default, Mapping):
        return ",".join(f"{k}={v}" for k, v in default.items()) or None
    return str(default)


def extra_params(game: Game) -> list[click.Parameter]:
    """The game's own flags from ``wolfden.terminal.<module>.EXTRA_OPTIONS`` (may be empty)."""
    module = terminal_module(game)
    return list(getattr(module, "EXTRA_OPTIONS", []) or []) if module else []


def game_params(
    game: Game, reserved: frozenset[str] | set[str] = frozenset()
) -> list[click.Parameter]:
    """Every game-specific flag: the Config fields, then the game's extra options."""
    extras = extra_params(game)
    taken = set(reserved) | {opt.lstrip("-") for p in extras for opt in getattr(p, "opts", [])}
    return [*config_params(game, taken), *extras]


def build_config(game: Game, kwargs: dict[str, Any]) -> tuple[Any, dict[int, str]]:
    """Turn parsed flags into ``(config, seat_bots)``; removes the game's flags from ``kwargs``.

    Raises ConfigError (with the game's own message) for an invalid combination.
    """
    config_kwargs: dict[str, Any] = {}
    for key in list(kwargs):
        if key.startswith(PARAM_PREFIX):
            value = kwargs.pop(key)
            if value is not None:
                config_kwargs[key[len(PARAM_PREFIX) :]] = None if value is CLEAR else _plain(value)
    seat_bots: dict[int, str] = {}
    module = terminal_module(game)
    extras = extra_params(game)
    if extras:
        names = {p.name for p in extras if p.name}
        options = {name: kwargs.pop(name) for name in names if name in kwargs}
        apply: Callable[..., None] | None = getattr(module, "apply_extra", None)
        if apply is not None:
            apply(options, config_kwargs, seat_bots)
    return config_from_json(
        game.Config, {k: _plain(v) for k, v in config_kwargs.items()}
    ), seat_bots


def _plain(value: Any) -> Any:
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, tuple):
        return list(value)
    return value


def config_label(game: Game, config: Any) -> str:
    """The options that differ from the defaults, as flags (``--players 9 --round-limit 2``)."""
    defaults = game.Config()
    parts = []
    for f in dataclasses.fields(game.Config):
        value = getattr(config, f.name)
        if value != getattr(defaults, f.name):
            shown = _shown_default(value)
            if isinstance(value, bool):
                parts.append(_flag(f.name) if value else "--no-" + _flag(f.name)[2:])
            else:
                parts.append(f"{_flag(f.name)} {shown if shown is not None else 'none'}")
    return " ".join(parts)

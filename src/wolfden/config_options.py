"""Command-line options made from a game's Config dataclass, and back into a Config.

Every field becomes ``--field-name``: numbers and text take a value, booleans are
``--name/--no-name`` switches, enums offer their values, and tuples may be repeated.
"""

from __future__ import annotations

import dataclasses
import enum
import types
import typing
from collections.abc import Mapping
from typing import Any, get_args, get_origin

import click

from wolfden.engine.config import config_from_json, field_types


def _unwrap_optional(tp: Any) -> Any:
    if get_origin(tp) in (types.UnionType, typing.Union):
        args = [a for a in get_args(tp) if a is not type(None)]
        if len(args) == 1:
            return args[0]
    return tp


def _click_type(tp: Any) -> Any:
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return click.Choice([str(m.value) for m in tp])
    return {int: click.INT, float: click.FLOAT, str: click.STRING}.get(tp, click.STRING)


def config_options(config_cls: type[Any]) -> list[click.Option]:
    hints = field_types(config_cls)
    options = []
    for f in dataclasses.fields(config_cls):
        tp = _unwrap_optional(hints[f.name])
        flag = "--" + f.name.replace("_", "-")
        help_text = f.metadata.get("help", "")
        default = f.default
        dest = "cfg_" + f.name
        if tp is bool:
            options.append(
                click.Option(
                    [f"{flag}/--no-{f.name.replace('_', '-')}", dest],
                    default=None,
                    help=f"{help_text} (default: {'on' if default else 'off'})",
                )
            )
        elif get_origin(tp) is tuple:
            inner = get_args(tp)[0] if get_args(tp) else str
            options.append(
                click.Option(
                    [flag, dest],
                    type=_click_type(inner),
                    multiple=True,
                    default=None,
                    help=f"{help_text} (repeat the option for several)",
                )
            )
        else:
            shown = default.value if isinstance(default, enum.Enum) else default
            options.append(
                click.Option(
                    [flag, dest],
                    type=_click_type(tp),
                    default=None,
                    help=f"{help_text} (default: {shown})",
                )
            )
    return options


def config_from_options(config_cls: type[Any], values: Mapping[str, Any]) -> Any:
    """The Config from parsed options; options left out keep their defaults."""
    hints = field_types(config_cls)
    data: dict[str, Any] = {}
    for f in dataclasses.fields(config_cls):
        value = values.get("cfg_" + f.name)
        if value is None or (isinstance(value, tuple) and not value):
            continue
        tp = _unwrap_optional(hints[f.name])
        if get_origin(tp) is tuple:
            value = list(value)
        elif isinstance(tp, type) and issubclass(tp, enum.Enum):
            value = str(value)
        data[f.name] = value
    return config_from_json(config_cls, data)

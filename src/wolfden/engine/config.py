"""Game configurations: frozen dataclasses with defaults from the seed, to and from JSON.

Every game's ``Config`` is a frozen dataclass whose fields carry a ``help`` text in their
metadata (``option(default, "help")``) and which has a ``validate()`` method raising
:class:`ConfigError`. The functions here turn such a config into JSON and back, with a clear
error for every unknown key or wrong type, so the CLI, the server and match records share them.
"""

from __future__ import annotations

import dataclasses
import enum
import math
import types
import typing
from collections.abc import Mapping
from typing import Any, Protocol, TypeVar, get_args, get_origin

from wolfden.engine.errors import ConfigError


class GameConfig(Protocol):
    __dataclass_fields__: typing.ClassVar[dict[str, Any]]

    def validate(self) -> None: ...


C = TypeVar("C", bound=GameConfig)


def option(
    default: Any,
    help: str,
    *,
    label: str | None = None,
    advanced: bool = False,
    hidden: bool = False,
    **meta: Any,
) -> Any:
    """A config field with a default and a help text (shown by the CLI and the web client).

    For the web client's options form: ``label`` is the field's short name (default: the
    field's name in words), ``advanced`` puts it under "More options", ``hidden`` leaves it
    out of the form (it is set by other means, such as the players' names).
    """
    if isinstance(default, (list, dict, set)):
        raise TypeError("use a tuple or a Mapping proxy for container defaults")
    shown: dict[str, Any] = {"label": label} if label is not None else {}
    shown.update({k: True for k, v in (("advanced", advanced), ("hidden", hidden)) if v})
    return dataclasses.field(default=default, metadata={"help": help, **shown, **meta})


def _json_value(value: Any) -> Any:
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, (tuple, list, frozenset)):
        return [_json_value(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): _json_value(v) for k, v in value.items()}
    return value


def config_to_json(config: GameConfig) -> dict[str, Any]:
    return {f.name: _json_value(getattr(config, f.name)) for f in dataclasses.fields(config)}


def _type_name(tp: Any) -> str:
    origin = get_origin(tp)
    if origin in (types.UnionType, typing.Union):
        return " or ".join(_type_name(a) for a in get_args(tp))
    if tp is type(None):
        return "null"
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return "one of " + ", ".join(repr(m.value) for m in tp)
    if origin is tuple:
        return "a list"
    if origin is not None and origin in (dict, Mapping):
        return "an object"
    return {int: "a whole number", float: "a number", bool: "true or false", str: "text"}.get(
        tp, getattr(tp, "__name__", str(tp))
    )


def _convert(name: str, tp: Any, value: Any) -> Any:
    origin = get_origin(tp)
    if origin in (types.UnionType, typing.Union):
        errors = []
        for alt in get_args(tp):
            try:
                return _convert(name, alt, value)
            except ConfigError as exc:
                errors.append(exc)
        raise ConfigError(f"{name}: expected {_type_name(tp)}, got {value!r}")
    if tp is type(None):
        if value is None:
            return None
        raise ConfigError(f"{name}: expected null, got {value!r}")
    if tp is Any:
        return value
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        for member in tp:
            if value == member.value or value == member.name or value is member:
                return member
        raise ConfigError(f"{name}: {value!r} is not allowed; use {_type_name(tp)}")
    if tp is bool:
        if isinstance(value, bool):
            return value
        raise ConfigError(f"{name}: expected true or false, got {value!r}")
    if tp is int:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        raise ConfigError(f"{name}: expected a whole number, got {value!r}")
    if tp is float:
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            try:
                number = float(value)
            except OverflowError:
                number = math.inf
            if not math.isfinite(number):
                raise ConfigError(f"{name}: expected a finite number, got {value!r:.40}")
            return number
        raise ConfigError(f"{name}: expected a number, got {value!r}")
    if tp is str:
        if isinstance(value, str):
            return value
        raise ConfigError(f"{name}: expected text, got {value!r}")
    if origin is tuple:
        if not isinstance(value, (list, tuple)):
            raise ConfigError(f"{name}: expected a list, got {value!r}")
        args = get_args(tp)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_convert(f"{name}[{i}]", args[0], v) for i, v in enumerate(value))
        if len(args) != len(value):
            raise ConfigError(f"{name}: expected a list of {len(args)} items, got {len(value)}")
        return tuple(_convert(f"{name}[{i}]", a, v) for i, (a, v) in enumerate(zip(args, value)))
    if origin in (dict, Mapping) or (origin is not None and origin is typing.Mapping):
        if not isinstance(value, Mapping):
            raise ConfigError(f"{name}: expected an object, got {value!r}")
        ktp, vtp = get_args(tp)
        return types.MappingProxyType(
            {
                _convert(f"{name} key", ktp, k): _convert(f"{name}[{k}]", vtp, v)
                for k, v in value.items()
            }
        )
    raise ConfigError(f"{name}: unsupported option type {tp!r}")


def field_types(cls: type[Any]) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def config_from_json(cls: type[C], data: Any) -> C:
    """Build and validate a config from a JSON object; unknown keys and wrong types are errors."""
    if data is None:
        data = {}
    if not isinstance(data, Mapping):
        raise ConfigError("a game configuration is a JSON object of option names and values")
    hints = field_types(cls)
    names = [f.name for f in dataclasses.fields(cls)]
    unknown = sorted(set(data) - set(names))
    if unknown:
        raise ConfigError(
            f"unknown option{'s' if len(unknown) > 1 else ''} {', '.join(unknown)}; "
            f"the options are {', '.join(names)}"
        )
    kwargs = {k: _convert(k, hints[k], v) for k, v in data.items()}
    try:
        config = cls(**kwargs)
    except TypeError as exc:
        raise ConfigError(str(exc)) from exc
    config.validate()
    return config


def describe_options(cls: type[Any]) -> list[dict[str, Any]]:
    """Name, type, default and help of every option, for the CLI, the docs and the web client."""
    hints = field_types(cls)
    out = []
    for f in dataclasses.fields(cls):
        tp = hints[f.name]
        entry: dict[str, Any] = {
            "name": f.name,
            "type": _type_name(tp),
            "default": _json_value(f.default) if f.default is not dataclasses.MISSING else None,
            "help": f.metadata.get("help", ""),
        }
        if isinstance(tp, type) and issubclass(tp, enum.Enum):
            entry["choices"] = [m.value for m in tp]
        for key in ("min", "max", "label", "advanced", "hidden"):
            if key in f.metadata:
                entry[key] = f.metadata[key]
        out.append(entry)
    return out

"""The contract every game implements and what all games share."""

from wolfden.engine.config import config_from_json, config_to_json, describe_options, option
from wolfden.engine.contract import Bot, Game
from wolfden.engine.errors import (
    ConfigError,
    IllegalAction,
    MatchOver,
    NotYourTurn,
    ParseError,
    UnknownGame,
    WolfdenError,
)
from wolfden.engine.record import MatchRecord, replay
from wolfden.engine.rng import Rng, derive_seed
from wolfden.engine.types import (
    NOBODY,
    OMNISCIENT,
    PUBLIC,
    SPECTATOR,
    TABLE,
    Action,
    Audience,
    Deadline,
    Event,
    Outcome,
    Seat,
    Viewer,
    ViewerKind,
    filter_events,
)

__all__ = [
    "NOBODY",
    "OMNISCIENT",
    "PUBLIC",
    "SPECTATOR",
    "TABLE",
    "Action",
    "Audience",
    "Bot",
    "ConfigError",
    "Deadline",
    "Event",
    "Game",
    "IllegalAction",
    "MatchOver",
    "MatchRecord",
    "NotYourTurn",
    "Outcome",
    "ParseError",
    "Rng",
    "Seat",
    "UnknownGame",
    "Viewer",
    "ViewerKind",
    "WolfdenError",
    "config_from_json",
    "config_to_json",
    "derive_seed",
    "describe_options",
    "filter_events",
    "option",
    "replay",
]

"""Typed errors. Every message says what was wrong and what is allowed."""

from __future__ import annotations


class WolfdenError(Exception):
    """Base class of every error wolfden raises on purpose."""

    code = "error"


class ConfigError(WolfdenError, ValueError):
    """A game configuration is invalid."""

    code = "bad_config"


class IllegalAction(WolfdenError, ValueError):
    """An action that the rules do not allow in this state."""

    code = "illegal_action"


class NotYourTurn(IllegalAction):
    """A seat tried to act when the game is not waiting for it."""

    code = "not_your_turn"


class MatchOver(IllegalAction):
    """An action arrived after the match ended."""

    code = "match_over"


class ParseError(WolfdenError, ValueError):
    """Text or JSON that does not describe a valid value."""

    code = "parse_error"


class UnknownGame(WolfdenError, LookupError):
    """A game id that is not registered."""

    code = "unknown_game"

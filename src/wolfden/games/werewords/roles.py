"""Werewords' words: the roles and their teams, the night's steps, the phases of a round and
the Mayor's tokens.

A match has one card more than players: the Mayor card plus one role card per player. The
holder of the Mayor card is the Mayor and takes the leftover card as their secret role, so every
role card is in play.
"""

from __future__ import annotations

import enum


class Team(enum.Enum):
    VILLAGE = "village"
    WEREWOLVES = "werewolves"


class Role(enum.Enum):
    VILLAGER = "villager"
    SEER = "seer"
    FORTUNE_TELLER = "fortune_teller"
    APPRENTICE = "apprentice"
    WEREWOLF = "werewolf"
    MINION = "minion"
    MASON = "mason"
    THING = "thing"
    BEHOLDER = "beholder"
    DOPPELGANGER = "doppelganger"

    @property
    def title(self) -> str:
        return ROLE_TITLES[self]

    @property
    def team(self) -> Team:
        """The Werewolves and the Minion are the werewolf team; everyone else the village."""
        return Team.WEREWOLVES if self in WEREWOLF_TEAM else Team.VILLAGE


ROLE_TITLES = {
    Role.VILLAGER: "Villager",
    Role.SEER: "Seer",
    Role.FORTUNE_TELLER: "Fortune Teller",
    Role.APPRENTICE: "Apprentice",
    Role.WEREWOLF: "Werewolf",
    Role.MINION: "Minion",
    Role.MASON: "Mason",
    Role.THING: "Thing",
    Role.BEHOLDER: "Beholder",
    Role.DOPPELGANGER: "Doppelgänger",
}

DELUXE = frozenset(
    {
        Role.FORTUNE_TELLER,
        Role.APPRENTICE,
        Role.MINION,
        Role.MASON,
        Role.THING,
        Role.BEHOLDER,
        Role.DOPPELGANGER,
    }
)
"""The roles of Werewords Deluxe."""

WEREWOLF_TEAM = frozenset({Role.WEREWOLF, Role.MINION})

SINGLE = (
    Role.SEER,
    Role.FORTUNE_TELLER,
    Role.APPRENTICE,
    Role.MINION,
    Role.THING,
    Role.BEHOLDER,
    Role.DOPPELGANGER,
)
"""Roles of which a set holds at most one card."""

FINDS_SEER = frozenset({Role.SEER, Role.FORTUNE_TELLER})
"""Roles the Werewolves win by pointing at (and the Apprentice acting as Seer)."""


def team_of(role: Role) -> Team:
    return role.team


class Phase(enum.Enum):
    CLAIM_MAYOR = "claim_mayor"  # companion: whoever holds the Mayor card says so
    NIGHT = "night"
    DAY = "day"
    POINTING = "pointing"  # word guessed: the Werewolves point at the Seer
    DISCUSSION = "discussion"  # word not guessed: talk before the vote
    VOTING = "voting"  # word not guessed: everyone points at a player
    REPORT = "report"  # companion: the table taps who was found
    RESULT = "result"  # the round is decided; Play Again or finish
    OVER = "over"


class Step(enum.Enum):
    """The roles the night calls, in the ruled order."""

    DOPPELGANGER = "doppelganger"
    MAYOR_ROLE = "mayor_role"  # companion: the Mayor taps their secret role
    MAYOR_WORD = "mayor_word"
    MAYOR_CONFIRM = "mayor_confirm"
    SEER = "seer"
    FORTUNE_TELLER = "fortune_teller"
    APPRENTICE = "apprentice"
    WEREWOLVES = "werewolves"
    MINION = "minion"
    MASONS = "masons"
    BEHOLDER = "beholder"
    THING = "thing"


MAYOR_STEPS = (Step.MAYOR_ROLE, Step.MAYOR_WORD, Step.MAYOR_CONFIRM)

ROLE_STEPS = (
    Step.SEER,
    Step.FORTUNE_TELLER,
    Step.APPRENTICE,
    Step.WEREWOLVES,
    Step.MINION,
    Step.MASONS,
    Step.BEHOLDER,
    Step.THING,
)
"""The steps after the Mayor's, in the order the night calls them."""

STEP_ROLE = {
    Step.DOPPELGANGER: Role.DOPPELGANGER,
    Step.SEER: Role.SEER,
    Step.FORTUNE_TELLER: Role.FORTUNE_TELLER,
    Step.APPRENTICE: Role.APPRENTICE,
    Step.WEREWOLVES: Role.WEREWOLF,
    Step.MINION: Role.MINION,
    Step.MASONS: Role.MASON,
    Step.BEHOLDER: Role.BEHOLDER,
    Step.THING: Role.THING,
}
"""The role each night step calls."""


class Token(enum.Enum):
    """The Mayor's tokens, as a player receives them."""

    YES = "yes"
    NO = "no"
    MAYBE = "maybe"
    SO_CLOSE = "so_close"
    WAY_OFF = "way_off"
    CORRECT = "correct"

    @property
    def supply(self) -> str:
        """The pile it comes from: Yes/No tokens are two-sided, so one pile serves both."""
        return "yes_no" if self in (Token.YES, Token.NO) else self.value


ANSWERS = (Token.YES, Token.NO, Token.MAYBE, Token.SO_CLOSE, Token.CORRECT)
"""The tokens that answer a question (Way Way Off goes beside an answer, never instead)."""

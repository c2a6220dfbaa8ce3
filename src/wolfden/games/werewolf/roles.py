"""Werewolf's words: the roles and their teams, the phases of a round, and the role cards."""

from __future__ import annotations

import enum
from dataclasses import dataclass

from wolfden.games.werewolf.config import Config


class Team(enum.Enum):
    TOWN = "town"
    WEREWOLVES = "werewolves"


class Role(enum.Enum):
    WEREWOLF = "werewolf"
    SEER = "seer"
    GUARDIAN = "guardian"
    VILLAGER = "villager"

    @property
    def title(self) -> str:
        return self.value.capitalize()

    @property
    def team(self) -> Team:
        """The Werewolves are one team; Villagers, Seer and Guardian are the Town."""
        return Team.WEREWOLVES if self is Role.WEREWOLF else Team.TOWN

    @property
    def acts_at_night(self) -> bool:
        return self is not Role.VILLAGER


class Phase(enum.Enum):
    NIGHT = "night"
    DISCUSSION = "discussion"
    VOTE = "vote"
    REVOTE = "revote"
    END = "end"


@dataclass(frozen=True, slots=True)
class Card:
    """A role card of the print deck: ``Card('R_WEREWOLF-004')`` is the Seer."""

    id: str
    role: Role
    label: str
    text: str

    def __repr__(self) -> str:
        return f"card({self.id!r})"


CARD_TEXTS = {
    Role.WEREWOLF: (
        "You hunt with the pack. Each night, agree with the other Werewolves on one player to "
        "remove. By day, talk like everyone else and keep your card to yourself."
    ),
    Role.SEER: (
        "Each night, choose one player. You learn at once, privately, whether they are a "
        "Werewolf. Use what you learn by day as carefully as you like."
    ),
    Role.GUARDIAN: (
        "Each night, choose one player to shield from the Werewolves. You may shield yourself, "
        "but never the same player two nights running."
    ),
    Role.VILLAGER: (
        "You sleep through the night. By day, listen, weigh what you hear, and vote or abstain."
    ),
}


def _card(number: int, role: Role, label: str) -> Card:
    return Card(f"R_WEREWOLF-{number:03d}", role, label, CARD_TEXTS[role])


PRINT_DECK: tuple[Card, ...] = (
    *(_card(i + 1, Role.WEREWOLF, f"Werewolf {letter}") for i, letter in enumerate("ABC")),
    _card(4, Role.SEER, "Seer"),
    _card(5, Role.GUARDIAN, "Guardian"),
    *(_card(i + 6, Role.VILLAGER, f"Villager {i + 1}") for i in range(7)),
)
"""The print deck: Werewolves A–C, the Seer, the Guardian and Villagers 1–7."""


def role_counts(config: Config) -> dict[Role, int]:
    """How many cards of each role a deal has: 7–9 players get 2 Werewolves, 10–12 get 3,
    always 1 Seer and 1 Guardian, Villagers for the rest (or the custom variant's counts)."""
    return {
        Role.WEREWOLF: config.werewolf_count,
        Role.SEER: config.seer_count,
        Role.GUARDIAN: config.guardian_count,
        Role.VILLAGER: config.villager_count,
    }


def cards_for(config: Config) -> tuple[Card, ...]:
    """The cards of a deal: the print deck's cards of each role, numbered on from 013 for the
    custom variant when a role needs more copies than the print deck has."""
    cards: list[Card] = []
    extra = len(PRINT_DECK)
    for role, count in role_counts(config).items():
        printed = [card for card in PRINT_DECK if card.role is role]
        for i in range(count):
            if i < len(printed):
                cards.append(printed[i])
            else:
                extra += 1
                cards.append(_card(extra, role, f"{role.title} {i + 1}"))
    return tuple(cards)


def team_names(config: Config) -> tuple[str, ...]:
    """The teams a seat can be on: the names the Outcome uses."""
    return tuple(team.value for team in Team)

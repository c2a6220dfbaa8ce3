"""Werewolf's words: the roles and their teams, the phases of a round, and the role cards."""

from __future__ import annotations

import enum
from dataclasses import dataclass

from wolfden.games.werewolf.config import Config


class Team(enum.Enum):
    TOWN = "town"
    WEREWOLVES = "werewolves"
    TANNER = "tanner"
    """The Tanner plays for themselves (only with the variant role)."""
    LOVERS = "lovers"
    """Cupid's Lovers when they are on different teams: they win together (variant role)."""


class Role(enum.Enum):
    WEREWOLF = "werewolf"
    SEER = "seer"
    GUARDIAN = "guardian"
    VILLAGER = "villager"
    # The documented variants beyond the seed (none is dealt by default).
    LYCAN = "lycan"
    TANNER = "tanner"
    MINION = "minion"
    HUNTER = "hunter"
    VILLAGE_IDIOT = "village_idiot"
    WITCH = "witch"
    CUPID = "cupid"

    @property
    def title(self) -> str:
        return self.value.replace("_", " ").title()

    @property
    def team(self) -> Team:
        """The Werewolves and the Minion are one team; the Tanner plays alone; everyone else
        is the Town."""
        if self in (Role.WEREWOLF, Role.MINION):
            return Team.WEREWOLVES
        if self is Role.TANNER:
            return Team.TANNER
        return Team.TOWN

    @property
    def acts_at_night(self) -> bool:
        return self in (Role.WEREWOLF, Role.SEER, Role.GUARDIAN)

    @property
    def seen_as_werewolf(self) -> bool:
        """What the Seer is told: a Werewolf, or a Lycan (a Villager with a wolfish look)."""
        return self in (Role.WEREWOLF, Role.LYCAN)


class Phase(enum.Enum):
    NIGHT = "night"
    DISCUSSION = "discussion"
    VOTE = "vote"
    REVOTE = "revote"
    HUNT = "hunt"
    """A Hunter was eliminated and takes one living player with them (variant role)."""
    ELECTION = "election"
    """The first day's election of the Sheriff (the ``sheriff`` option)."""
    BADGE = "badge"
    """An eliminated Sheriff passes the badge to a living player."""
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
    Role.LYCAN: (
        "You are a Villager and play for the Town, but something wild runs in your family: "
        "if the Seer looks into you, they are told you are a Werewolf."
    ),
    Role.TANNER: (
        "You hate your job and want out. You win alone if the village votes you out by day; "
        "if the game ends any other way, you lose. You sleep through the night."
    ),
    Role.MINION: (
        "You serve the pack. You know who the Werewolves are, but they do not know you, and "
        "you cannot join their hunt. You win if the Werewolves win; to the Seer you are not "
        "a Werewolf."
    ),
    Role.HUNTER: (
        "You sleep through the night and play for the Town. When you are eliminated, by night "
        "or by day, you at once take one living player of your choice with you."
    ),
    Role.VILLAGE_IDIOT: (
        "You play for the Town and sleep through the night. The first time the village votes "
        "you out, your card is shown and you stay in the game, but you may no longer vote."
    ),
    Role.WITCH: (
        "You play for the Town. Each night, once the Werewolves have chosen, you learn whom. "
        "You have one healing potion, which saves tonight's target, and one poison, which "
        "takes any other player: each once per game, at most one a night."
    ),
    Role.CUPID: (
        "You play for the Town. On the first night, link two players as Lovers (yourself "
        "allowed). If one Lover dies, the other dies of grief; Lovers of different teams win "
        "together if they are the last two alive."
    ),
}

VARIANT_ROLE_OF = {
    "lycans": Role.LYCAN,
    "tanners": Role.TANNER,
    "minions": Role.MINION,
    "hunters": Role.HUNTER,
    "village_idiots": Role.VILLAGE_IDIOT,
    "witches": Role.WITCH,
    "cupids": Role.CUPID,
}
"""Each variant role's count option (config.VARIANT_ROLES) and its role."""


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
    always 1 Seer and 1 Guardian, Villagers for the rest (or the custom variant's counts),
    then the variant roles the setup asks for (they take the place of Villagers)."""
    counts = {
        Role.WEREWOLF: config.werewolf_count,
        Role.SEER: config.seer_count,
        Role.GUARDIAN: config.guardian_count,
        Role.VILLAGER: config.villager_count,
    }
    for name, count in config.variant_counts.items():
        counts[VARIANT_ROLE_OF[name]] = count
    return counts


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
                # A variant role dealt once is just "Lycan"; more copies are numbered.
                label = role.title if not printed and count == 1 else f"{role.title} {i + 1}"
                cards.append(_card(extra, role, label))
    return tuple(cards)


def team_names(config: Config) -> tuple[str, ...]:
    """The teams a seat can be on: the names the Outcome uses (the Tanner's and the Lovers'
    only when the setup deals a Tanner or Cupid)."""
    teams = [Team.TOWN, Team.WEREWOLVES]
    if config.tanners:
        teams.append(Team.TANNER)
    if config.cupids:
        teams.append(Team.LOVERS)
    return tuple(team.value for team in teams)

"""Werewolf's domain words and its immutable state."""

from __future__ import annotations

import enum
import functools
from dataclasses import dataclass
from typing import Any

from wolfden.engine.types import Audience, Event
from wolfden.games.werewolf.config import Config


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
        return Team.WEREWOLVES if self is Role.WEREWOLF else Team.TOWN


WEREWOLF = Role.WEREWOLF


class Team(enum.Enum):
    TOWN = "town"
    WEREWOLVES = "werewolves"


class Phase(enum.Enum):
    NIGHT = "night"
    DISCUSSION = "discussion"
    VOTE = "vote"
    REVOTE = "revote"
    END = "end"


@dataclass(frozen=True)
class Card:
    """A role card of the print deck: ``Card('R_WEREWOLF-004')`` is the Seer."""

    id: str
    role: Role
    label: str
    text: str

    def __repr__(self) -> str:
        return f"card({self.id!r})"


_WOLF_TEXT = (
    "You hunt with the pack. Each night, agree with the other Werewolves on one player to "
    "remove. By day, talk like everyone else and keep your card to yourself."
)
_SEER_TEXT = (
    "Each night, choose one player. You learn at once, privately, whether they are a "
    "Werewolf. Use what you learn by day as carefully as you like."
)
_GUARDIAN_TEXT = (
    "Each night, choose one player to shield from the Werewolves. You may shield yourself, "
    "but never the same player two nights running."
)
_VILLAGER_TEXT = (
    "You sleep through the night. By day, listen, weigh what you hear, and vote or abstain."
)
_TEXTS = {
    Role.WEREWOLF: _WOLF_TEXT,
    Role.SEER: _SEER_TEXT,
    Role.GUARDIAN: _GUARDIAN_TEXT,
    Role.VILLAGER: _VILLAGER_TEXT,
}


def _deck() -> tuple[Card, ...]:
    cards = [
        Card(f"R_WEREWOLF-00{i + 1}", Role.WEREWOLF, f"Werewolf {'ABC'[i]}", _WOLF_TEXT)
        for i in range(3)
    ]
    cards.append(Card("R_WEREWOLF-004", Role.SEER, "Seer", _SEER_TEXT))
    cards.append(Card("R_WEREWOLF-005", Role.GUARDIAN, "Guardian", _GUARDIAN_TEXT))
    cards += [
        Card(f"R_WEREWOLF-{i + 6:03d}", Role.VILLAGER, f"Villager {i + 1}", _VILLAGER_TEXT)
        for i in range(7)
    ]
    return tuple(cards)


PRINT_DECK: tuple[Card, ...] = _deck()
CARDS_BY_ID = {c.id: c for c in PRINT_DECK}


@functools.lru_cache(maxsize=256)
def deck_for(config: Config) -> tuple[Card, ...]:
    """The cards of a deal for this config (made once per config)."""
    return tuple(cards_for(config))


def cards_for(config: Config) -> list[Card]:
    """The cards of a deal: the print deck's cards of each role, numbered on from 013 for the
    custom variant when a role needs more copies than the print deck has."""
    wanted = {
        Role.WEREWOLF: config.werewolf_count,
        Role.SEER: config.seer_count,
        Role.GUARDIAN: config.guardian_count,
        Role.VILLAGER: config.villager_count,
    }
    out: list[Card] = []
    extra = len(PRINT_DECK)
    for role, count in wanted.items():
        printed = [c for c in PRINT_DECK if c.role is role]
        for i in range(count):
            if i < len(printed):
                out.append(printed[i])
            else:
                extra += 1
                out.append(
                    Card(f"R_WEREWOLF-{extra:03d}", role, f"{role.title} {i + 1}", _TEXTS[role])
                )
    return out


class State:
    """One moment of a match. Never mutated once returned by ``setup`` or ``apply``.

    Per-seat facts are tuples indexed by seat; the living are a bit mask, and so are the seats
    dealt a Werewolf (``wolf_mask``) and the seats whose role acts at night (``caller_mask``),
    kept with ``roles`` by ``rules.refresh_pack``.
    """

    __slots__ = (
        "alive",
        "ballot",
        "caller_mask",
        "candidates",
        "cards",
        "checked",
        "config",
        "deaths",
        "guard_choice",
        "last_protected",
        "living_seats",
        "locked",
        "night_calls",
        "night_log",
        "night_result",
        "pack",
        "pack_audience",
        "pending",
        "phase",
        "pick_round",
        "picks",
        "prev_picks",
        "result",
        "rng",
        "roles",
        "round",
        "seer_checks",
        "seq",
        "tallies",
        "unmet_requests",
        "wolf_mask",
    )

    config: Config
    rng: int
    phase: Phase
    seq: int
    round: int
    roles: tuple[Role, ...]
    cards: tuple[Card, ...]
    wolf_mask: int
    caller_mask: int
    alive: int
    living_seats: tuple[int, ...]
    pending: frozenset[int]
    pack: tuple[int, ...]
    pack_audience: Audience
    picks: tuple[int, ...]
    prev_picks: tuple[int, ...]
    pick_round: int
    locked: int
    checked: tuple[int, ...]
    guard_choice: tuple[int, ...]
    last_protected: tuple[int, ...]
    seer_checks: tuple[tuple[int, int, int, bool], ...]
    night_calls: tuple[Event, ...]
    night_log: tuple[dict[str, Any], ...]
    ballot: tuple[int, ...]
    candidates: tuple[int, ...]
    tallies: tuple[dict[str, Any], ...]
    unmet_requests: frozenset[int]
    deaths: tuple[tuple[int, int, str], ...]
    night_result: dict[str, Any] | None
    result: tuple[Team | None, str] | None

    def copy(self) -> State:
        new = State.__new__(State)
        new.alive = self.alive
        new.living_seats = self.living_seats
        new.ballot = self.ballot
        new.candidates = self.candidates
        new.checked = self.checked
        new.cards = self.cards
        new.config = self.config
        new.deaths = self.deaths
        new.guard_choice = self.guard_choice
        new.last_protected = self.last_protected
        new.locked = self.locked
        new.night_log = self.night_log
        new.night_calls = self.night_calls
        new.pending = self.pending
        new.pack = self.pack
        new.pack_audience = self.pack_audience
        new.phase = self.phase
        new.pick_round = self.pick_round
        new.picks = self.picks
        new.prev_picks = self.prev_picks
        new.result = self.result
        new.rng = self.rng
        new.roles = self.roles
        new.round = self.round
        new.seer_checks = self.seer_checks
        new.seq = self.seq
        new.tallies = self.tallies
        new.unmet_requests = self.unmet_requests
        new.night_result = self.night_result
        new.wolf_mask = self.wolf_mask
        new.caller_mask = self.caller_mask
        return new

    def __getstate__(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in State.__slots__}

    def __setstate__(self, data: dict[str, Any]) -> None:
        for name, value in data.items():
            setattr(self, name, value)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return self.__getstate__() == other.__getstate__()

    __hash__ = None  # type: ignore[assignment]

    def is_alive(self, seat: int) -> bool:
        return bool(self.alive >> seat & 1)

    def living(self) -> tuple[int, ...]:
        """The living seats in seat order (kept with ``alive``)."""
        return self.living_seats

    def living_wolves(self) -> list[int]:
        return list(self.pack)

    def __repr__(self) -> str:
        return (
            f"<werewolf State round {self.round} {self.phase.value} "
            f"living {self.living()} seq {self.seq}>"
        )

"""Werewolf's domain words and its immutable state."""

from __future__ import annotations

import enum
import functools
from dataclasses import dataclass
from operator import attrgetter
from typing import Any, NamedTuple

from wolfden.engine.types import Action, Event
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
VILLAGER = Role.VILLAGER


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


class NightRecord(NamedTuple):
    """A past night as the omniscient log shows it (written out as JSON by the views)."""

    round: int
    target: int
    """The pack's target at dawn, -1 for no one."""
    protected: tuple[int, ...]
    """The seats the Guardians protected, in seat order."""
    checks: tuple[tuple[int, int, int, bool], ...]
    """The Seers' checks of that night: (seer, round, target, is a Werewolf), as they came in."""
    pack: tuple[int, ...]
    picks: tuple[int, ...]
    """Each seat's pick in the pack's last round of picks, -1 for none."""


class Deal:
    """What a match keeps from its deal to its end: the config, the card of each seat and what
    follows from them. Every state of a match shares one, so ``apply`` never copies these.

    ``wolf_mask`` and ``caller_mask`` are the seats dealt a Werewolf and the seats whose role
    acts at night, as bit masks; ``no_choices`` and ``no_votes`` are a night's and a ballot's
    empty per-seat tuples.
    """

    __slots__ = (
        "caller_mask",
        "cards",
        "config",
        "names",
        "night_calls",
        "no_choices",
        "no_votes",
        "pack_rounds",
        "players",
        "roles",
        "unmet_requests",
        "wolf_mask",
    )

    config: Config
    players: int
    names: tuple[str, ...]
    pack_rounds: int
    night_calls: tuple[Event, ...]
    cards: tuple[Card, ...]
    roles: tuple[Role, ...]
    wolf_mask: int
    caller_mask: int
    unmet_requests: frozenset[int]
    no_choices: tuple[int, ...]
    no_votes: tuple[int, ...]

    def __init__(
        self,
        config: Config,
        night_calls: tuple[Event, ...],
        cards: tuple[Card, ...],
        unmet_requests: frozenset[int],
    ) -> None:
        n = self.players = config.players
        self.config = config
        self.names = config.display_names
        self.pack_rounds = config.pack_rounds
        self.night_calls = night_calls
        self.cards = cards
        self.unmet_requests = unmet_requests
        roles = self.roles = tuple([c.role for c in cards])
        wolves = callers = 0
        for seat, role in enumerate(roles):
            if role is WEREWOLF:
                wolves |= 1 << seat
            if role is not VILLAGER:
                callers |= 1 << seat
        self.wolf_mask = wolves
        self.caller_mask = callers
        self.no_choices = (-1,) * n
        self.no_votes = (-2,) * n

    def with_cards(self, cards: tuple[Card, ...]) -> Deal:
        """The same deal with other cards in the seats (tests set tables up this way, and
        ``perturb_hidden`` swaps cards the viewer cannot tell apart)."""
        return Deal(self.config, self.night_calls, cards, self.unmet_requests)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Deal):
            return NotImplemented
        return (self.config, self.cards, self.unmet_requests) == (
            other.config,
            other.cards,
            other.unmet_requests,
        )

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"<werewolf Deal {[c.id for c in self.cards]}>"


class _Slotted:
    """Value semantics for a class of ``__slots__``: pickled, compared and printed by the
    values of its slots (Table and State)."""

    __slots__ = ()

    def __getstate__(self) -> dict[str, Any]:
        names: tuple[str, ...] = type(self).__slots__
        return {name: getattr(self, name) for name in names}

    def __setstate__(self, data: dict[str, Any]) -> None:
        for name, value in data.items():
            setattr(self, name, value)

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return self.__getstate__() == other.__getstate__()

    __hash__ = None  # type: ignore[assignment]


def _read(path: str) -> Any:
    """A read-only attribute that reads ``path`` (``"table.alive"``) through C, not a frame."""
    return property(attrgetter(path))


class Table(_Slotted):
    """What changes only from one phase to the next: the generator, the round, the living,
    the Guardians' last protections, the ballot's candidates and menus, and the record of the
    match so far. A state keeps it as one reference, so an action within a phase (a pick, a
    check, a vote) copies it as one field; a step that changes it copies it first.

    The living are a bit mask, kept with the living seats in order and the living Werewolves
    (``pack``, in seat order; as a mask they are ``alive & deal.wolf_mask``).
    """

    __slots__ = (
        "alive",
        "candidates",
        "deaths",
        "last_protected",
        "living_seats",
        "menus",
        "night_log",
        "night_result",
        "pack",
        "rng",
        "round",
        "tallies",
    )

    rng: int
    round: int
    alive: int
    living_seats: tuple[int, ...]
    pack: tuple[int, ...]
    last_protected: tuple[int, ...]
    night_log: tuple[NightRecord, ...]
    candidates: tuple[int, ...]
    menus: tuple[tuple[Action, ...], ...]
    tallies: tuple[dict[str, Any], ...]
    deaths: tuple[tuple[int, int, str], ...]
    night_result: dict[str, Any] | None

    def copy(self) -> Table:
        new = Table.__new__(Table)
        new.rng = self.rng
        new.round = self.round
        new.alive = self.alive
        new.living_seats = self.living_seats
        new.pack = self.pack
        new.last_protected = self.last_protected
        new.night_log = self.night_log
        new.candidates = self.candidates
        new.menus = self.menus
        new.tallies = self.tallies
        new.deaths = self.deaths
        new.night_result = self.night_result
        return new

    def __repr__(self) -> str:
        return f"Table({self.__getstate__()!r})"


class State(_Slotted):
    """One moment of a match. Never mutated once returned by ``setup`` or ``apply``.

    What never changes during a match is in ``deal`` (shared by every state of the match), what
    changes only from one phase to the next in ``table`` (shared until a step changes it, which
    copies it first); the rest, what the actions within a phase change, is copied by every
    action. Per-seat facts are tuples indexed by seat. The table's fields can be read on the
    state too (``state.alive`` is ``state.table.alive``).
    """

    __slots__ = (
        "ballot",
        "checked",
        "deal",
        "guard_choice",
        "locked",
        "pending",
        "phase",
        "pick_round",
        "picks",
        "prev_picks",
        "result",
        "seer_checks",
        "seq",
        "table",
    )

    deal: Deal
    table: Table
    phase: Phase
    seq: int
    pending: frozenset[int]
    picks: tuple[int, ...]
    prev_picks: tuple[int, ...]
    pick_round: int
    locked: int
    checked: tuple[int, ...]
    guard_choice: tuple[int, ...]
    seer_checks: tuple[tuple[int, int, int, bool], ...]
    ballot: tuple[int, ...]
    result: tuple[Team | None, str] | None

    def copy(self) -> State:
        """A copy sharing the deal and the table (copy the table too before changing it)."""
        new = State.__new__(State)
        new.deal = self.deal
        new.table = self.table
        new.phase = self.phase
        new.seq = self.seq
        new.pending = self.pending
        new.picks = self.picks
        new.prev_picks = self.prev_picks
        new.pick_round = self.pick_round
        new.locked = self.locked
        new.checked = self.checked
        new.guard_choice = self.guard_choice
        new.seer_checks = self.seer_checks
        new.ballot = self.ballot
        new.result = self.result
        return new

    # What never changes, read through the deal.

    config: Config = _read("deal.config")
    cards: tuple[Card, ...] = _read("deal.cards")
    roles: tuple[Role, ...] = _read("deal.roles")
    wolf_mask: int = _read("deal.wolf_mask")
    unmet_requests: frozenset[int] = _read("deal.unmet_requests")
    night_calls: tuple[Event, ...] = _read("deal.night_calls")

    # What changes from phase to phase, read through the table.

    rng: int = _read("table.rng")
    round: int = _read("table.round")
    alive: int = _read("table.alive")
    living_seats: tuple[int, ...] = _read("table.living_seats")
    pack: tuple[int, ...] = _read("table.pack")
    last_protected: tuple[int, ...] = _read("table.last_protected")
    night_log: tuple[NightRecord, ...] = _read("table.night_log")
    candidates: tuple[int, ...] = _read("table.candidates")
    menus: tuple[tuple[Action, ...], ...] = _read("table.menus")
    tallies: tuple[dict[str, Any], ...] = _read("table.tallies")
    deaths: tuple[tuple[int, int, str], ...] = _read("table.deaths")
    night_result: dict[str, Any] | None = _read("table.night_result")

    def is_alive(self, seat: int) -> bool:
        return bool(self.table.alive >> seat & 1)

    def living(self) -> tuple[int, ...]:
        """The living seats in seat order (kept with ``alive``)."""
        return self.table.living_seats

    def living_wolves(self) -> list[int]:
        return list(self.table.pack)

    def __repr__(self) -> str:
        return (
            f"<werewolf State round {self.table.round} {self.phase.value} "
            f"living {self.living()} seq {self.seq}>"
        )

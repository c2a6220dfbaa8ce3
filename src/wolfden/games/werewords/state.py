"""The state of a Werewords match: immutable values, changed with ``dataclasses.replace``."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from wolfden.games.werewords.config import Config, Difficulty
from wolfden.games.werewords.questions import Form
from wolfden.games.werewords.roles import Phase, Role, Step, Token


@dataclass(frozen=True, slots=True)
class Question:
    id: int
    seat: int
    text: str
    answer: str | None = None
    form: Form | None = None  # a question with a defined truth (questions.py); None: free text


@dataclass(frozen=True, slots=True)
class Note:
    """Something one seat learned at night: ``kind`` and a JSON-ready value."""

    kind: str
    value: Any


@dataclass(frozen=True, slots=True)
class Copy:
    """What the Doppelgänger did: looked at ``target``'s card and became ``role``."""

    seat: int
    role: Role
    target: int


@dataclass(frozen=True, slots=True)
class Supply:
    """The tokens left in the Mayor's box."""

    yes_no: int
    maybe: int
    so_close: int
    way_off: int
    correct: int

    def left(self, token: Token) -> int:
        return int(getattr(self, token.supply))

    def take(self, token: Token) -> Supply:
        return replace(self, **{token.supply: self.left(token) - 1})


@dataclass(frozen=True, slots=True)
class Received:
    """The tokens one player has been given."""

    yes: int = 0
    no: int = 0
    maybe: int = 0
    so_close: int = 0
    way_off: int = 0
    correct: int = 0

    def gain(self, token: Token) -> Received:
        return replace(self, **{token.value: getattr(self, token.value) + 1})


@dataclass(frozen=True, slots=True)
class RoundResult:
    winning_team: str
    guessed: bool
    found: tuple[int, ...]  # seats found (the Seer by the Werewolves, or Werewolves by the vote)
    reason: str


@dataclass(frozen=True, slots=True)
class State:
    """Everything about a match."""

    config: Config
    rng: int
    seq: int
    phase: Phase
    round: int
    difficulty: Difficulty
    last_mayor: int | None
    mayor: int | None
    cards: tuple[Role | None, ...]
    copied: Copy | None
    night: tuple[Step, ...]
    step: int  # which of the night's steps is called
    acted: frozenset[int]
    candidates: tuple[str, ...]
    choice: int | None
    notes: tuple[tuple[Note, ...], ...]
    clues: tuple[str, ...]
    supply: Supply
    received: tuple[Received, ...]
    table_way_off: int
    questions: tuple[Question, ...]
    asking: frozenset[int]  # seats whose typed question waits for its answer
    guessed: bool | None
    guesser: int | None
    ended_by: str
    word_public: bool
    revealed: frozenset[int]
    points: tuple[int | None, ...]
    result: RoundResult | None
    history: tuple[RoundResult, ...]

    @property
    def n(self) -> int:
        return self.config.players

    @property
    def word(self) -> str | None:
        return None if self.choice is None else self.candidates[self.choice]

    def role(self, seat: int) -> Role | None:
        """The seat's role now: the card, or what the Doppelgänger became."""
        if self.copied is not None and self.copied.seat == seat:
            return self.copied.role
        return self.cards[seat]

    def holders(self, role: Role) -> tuple[int, ...]:
        return tuple(s for s in range(self.n) if self.role(s) is role)

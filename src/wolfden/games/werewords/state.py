"""The state of a Werewords match: immutable values, copied on change."""

from __future__ import annotations

import enum
from typing import Any, NamedTuple

from wolfden.games.werewords.config import Config, Difficulty, Role


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

TOKENS = ("yes", "no", "maybe", "so_close", "way_off", "correct")
YES, NO, MAYBE, SO_CLOSE, WAY_OFF, CORRECT = range(6)
# the supply: Yes/No tokens are two-sided, so one pool serves both
SUPPLY = ("yes_no", "maybe", "so_close", "way_off", "correct")
SUPPLY_OF = (0, 0, 1, 2, 3, 4)


class Question(NamedTuple):
    id: int
    seat: int
    text: str
    answer: str | None = None


class Note(NamedTuple):
    """Something one seat learned at night: ``kind`` and a JSON-ready value."""

    kind: str
    value: Any


class RoundResult(NamedTuple):
    winning_team: str
    guessed: bool
    found: tuple[int, ...]  # seats found (the Seer by the Werewolves, or Werewolves by the vote)
    reason: str


class State(NamedTuple):
    """Everything about a match, as one immutable tuple (``replace`` makes the next one)."""

    config: Config
    rng: int
    seq: int
    phase: Phase
    round: int
    difficulty: Difficulty
    last_mayor: int | None
    mayor: int | None
    cards: tuple[Role | None, ...]
    copied: tuple[int, Role, int] | None  # (doppelganger seat, role taken, seat looked at)
    night: tuple[Step, ...]
    step: int
    acted: frozenset[int]
    candidates: tuple[str, ...]
    choice: int | None
    notes: tuple[tuple[Note, ...], ...]
    clues: tuple[str, ...]
    supply: tuple[int, ...]
    received: tuple[tuple[int, ...], ...]
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

    def replace(self, **changes: Any) -> State:
        return self._replace(**changes)

    @property
    def n(self) -> int:
        return self.config.players

    @property
    def word(self) -> str | None:
        return None if self.choice is None else self.candidates[self.choice]

    @property
    def current_step(self) -> Step | None:
        if self.phase is not Phase.NIGHT:
            return None
        return self.night[self.step]

    def role(self, seat: int) -> Role | None:
        """The seat's role now: the card, or what the Doppelgänger became."""
        if self.copied is not None and self.copied[0] == seat:
            return self.copied[1]
        return self.cards[seat]

    def holders(self, role: Role) -> tuple[int, ...]:
        return tuple(s for s in range(self.n) if self.role(s) is role)

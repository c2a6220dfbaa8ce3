"""Difficulties, modes and the configuration of a Werewords match (the roles are in
``roles.py``)."""

from __future__ import annotations

import enum
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache

from wolfden.engine.config import option
from wolfden.engine.errors import ConfigError
from wolfden.games.werewords.roles import DELUXE, SINGLE, WEREWOLF_TEAM, Role

MIN_PLAYERS = 3
MAX_PLAYERS = 20
MAX_QUESTION = 140
MAX_CLUE = 40


class Difficulty(enum.Enum):
    EASY = "easy"
    MEDIUM = "medium"
    HARD = "hard"
    RIDICULOUS = "ridiculous"

    def easier(self) -> Difficulty:
        order = list(Difficulty)
        return order[max(0, order.index(self) - 1)]


class Mode(enum.Enum):
    ONLINE = "online"
    COMPANION = "companion"


class AgeRating(enum.Enum):
    ALL = "all"
    TEN_PLUS = "10+"
    ADULTS = "adults"


def werewolf_count(players: int) -> int:
    """One Werewolf; two with 7-11 players; three with 12 or more."""
    if players >= 12:
        return 3
    if players >= 7:
        return 2
    return 1


def standard_roles(players: int) -> tuple[Role, ...]:
    """The seed's deck besides the Mayor card: a Seer, the Werewolves, Villagers to fill."""
    wolves = werewolf_count(players)
    return (Role.SEER,) + (Role.WEREWOLF,) * wolves + (Role.VILLAGER,) * (players - 1 - wolves)


@dataclass(frozen=True)
class Config:
    players: int = option(
        6, "number of players (3-20; 3 is the small variant)", min=3, max=20, label="Players"
    )
    mode: Mode = option(  # noqa: RUF009
        Mode.ONLINE,
        "online: the app deals and every phone shows its secrets; companion: one shared "
        "device beside physical cards",
        label="How you play",
    )
    roles: tuple[Role, ...] = option(
        (),
        "the role cards besides the Mayor card, one per player; empty = the standard set",
        advanced=True,
    )
    deluxe: tuple[Role, ...] = option(
        (), "Deluxe roles that replace Villagers in the standard set", label="Deluxe roles"
    )
    difficulty: Difficulty = option(  # noqa: RUF009
        Difficulty.MEDIUM, "difficulty of the Magic Word", label="Word difficulty"
    )
    word_choices: int = option(
        2,
        "how many words the Mayor chooses from (1-5)",
        min=1,
        max=5,
        label="Words the Mayor chooses from",
    )
    easier_for_seer_mayor: bool = option(
        True,
        "a Mayor whose secret role is Seer or Fortune Teller is offered easier words",
        advanced=True,
    )
    fortune_teller_letters: int = option(
        1,
        "letters the Fortune Teller sees of each word of the Magic Word (1-3)",
        min=1,
        max=3,
        advanced=True,
    )
    typed_questions: bool = option(
        True, "players may type questions into the public log", label="Type questions on phones"
    )
    day_seconds: int = option(
        240, "day timer in seconds", min=30, max=1800, label="Day timer (seconds)"
    )
    speedwords: bool = option(
        False, "Speedwords: letter pattern shown, Werewolf clues, 2 min", label="Speedwords"
    )
    speedwords_day_seconds: int = option(
        120, "day timer in Speedwords", min=30, max=1800, advanced=True
    )
    pointing_seconds: int = option(
        15, "seconds the Werewolves have to point at the Seer", min=5, max=120, advanced=True
    )
    discussion_seconds: int = option(
        60,
        "discussion before the vote when the word was not guessed",
        min=10,
        max=600,
        advanced=True,
    )
    vote_seconds: int = option(
        20, "seconds to point at a player in the vote", min=5, max=120, advanced=True
    )
    night_step_seconds: int = option(
        8, "seconds each role is called at night", min=2, max=60, advanced=True
    )
    word_choice_seconds: int = option(
        30, "seconds the Mayor has to choose the word", min=5, max=300, advanced=True
    )
    result_seconds: int = option(
        60,
        "seconds the result stays before the match ends (Play Again meanwhile)",
        min=5,
        max=3600,
        advanced=True,
    )
    yes_no_tokens: int = option(35, "Yes/No tokens", min=1, max=200, advanced=True)
    maybe_tokens: int = option(10, "Maybe tokens", min=0, max=100, advanced=True)
    so_close_tokens: int = option(1, "So Close tokens", min=0, max=10, advanced=True)
    way_off_tokens: int = option(1, "Way Way Off tokens", min=0, max=10, advanced=True)
    correct_tokens: int = option(1, "Correct tokens", min=1, max=1, advanced=True)
    last_mayor: int | None = option(
        None,
        "seat of the previous game's Mayor (a Mayor card left in the centre goes to the "
        "player on their left); none = a first game, which redeals",
        hidden=True,
    )
    names: tuple[str, ...] = option((), "players' names by seat (default: Player 1, Player 2, ...)")
    categories: tuple[str, ...] = option(
        (), "built-in word categories to draw from; empty = all", advanced=True
    )
    max_age: AgeRating = option(  # noqa: RUF009
        AgeRating.ADULTS, "highest age rating of built-in words", advanced=True
    )
    words_easy: tuple[str, ...] = option(
        (), "Easy words; empty = the built-in list", label="Your own easy words", advanced=True
    )
    words_medium: tuple[str, ...] = option(
        (), "Medium words; empty = the built-in list", label="Your own medium words", advanced=True
    )
    words_hard: tuple[str, ...] = option(
        (), "Hard words; empty = the built-in list", label="Your own hard words", advanced=True
    )
    words_ridiculous: tuple[str, ...] = option(
        (),
        "Ridiculous words; empty = the built-in list",
        label="Your own ridiculous words",
        advanced=True,
    )

    def role_cards(self) -> tuple[Role, ...]:
        """The role cards besides the Mayor card (validated by ``validate``)."""
        if self.roles:
            return self.roles
        cards = list(standard_roles(self.players))
        for role in self.deluxe:
            if Role.VILLAGER not in cards:
                raise ConfigError(
                    f"deluxe: {len(self.deluxe)} Deluxe roles do not fit; {self.players} "
                    f"players have only {standard_roles(self.players).count(Role.VILLAGER)} "
                    "Villagers to replace"
                )
            cards[cards.index(Role.VILLAGER)] = role
        return tuple(cards)

    def name(self, seat: int) -> str:
        if self.names:
            return " ".join(self.names[seat].split())
        return f"Player {seat + 1}"

    def day_length(self) -> int:
        return self.speedwords_day_seconds if self.speedwords else self.day_seconds

    def pool(self, difficulty: Difficulty) -> tuple[str, ...]:
        return {
            Difficulty.EASY: self.words_easy,
            Difficulty.MEDIUM: self.words_medium,
            Difficulty.HARD: self.words_hard,
            Difficulty.RIDICULOUS: self.words_ridiculous,
        }[difficulty]

    def validate(self) -> None:
        if not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            raise ConfigError(f"players: {self.players} is not allowed; use 3 to 20")
        if self.deluxe and self.roles:
            raise ConfigError(
                "roles and deluxe: give either the whole role set (roles) or the Deluxe roles "
                "that replace Villagers (deluxe), not both"
            )
        if self.deluxe:
            bad = [r.value for r in self.deluxe if r not in DELUXE]
            if bad:
                raise ConfigError(
                    f"deluxe: {', '.join(bad)} is not a Deluxe role; the Deluxe roles are "
                    + ", ".join(sorted(r.value for r in DELUXE))
                )
        validate_roles(self.role_cards(), self.players)
        if self.last_mayor is not None and not 0 <= self.last_mayor < self.players:
            raise ConfigError(
                f"last_mayor: seat {self.last_mayor} does not exist; use 0 to "
                f"{self.players - 1} or none"
            )
        if self.names:
            if len(self.names) != self.players:
                raise ConfigError(
                    f"names: {len(self.names)} names for {self.players} players; give one per "
                    "seat or none"
                )
            for seat, name in enumerate(self.names):
                text = " ".join(name.split())
                if not text or len(text) > 40 or not text.isprintable():
                    raise ConfigError(
                        f"names: the name of seat {seat} has 1 to 40 printable characters"
                    )
        for name, lo, hi in _RANGES:
            value = getattr(self, name)
            if not lo <= value <= hi:
                raise ConfigError(f"{name}: {value} is not allowed; use {lo} to {hi}")
        for difficulty in Difficulty:
            problem = pool_problem(self.pool(difficulty))
            if problem:
                raise ConfigError(f"words_{difficulty.value}: {problem}")
        if self.categories:
            from wolfden.words.builtin import CATEGORIES

            unknown = [c for c in self.categories if c not in CATEGORIES]
            if unknown:
                raise ConfigError(
                    f"categories: unknown {', '.join(unknown)}; the built-in categories are "
                    + ", ".join(CATEGORIES)
                )


_RANGES = (
    ("word_choices", 1, 5),
    ("fortune_teller_letters", 1, 3),
    ("day_seconds", 30, 1800),
    ("speedwords_day_seconds", 30, 1800),
    ("pointing_seconds", 5, 120),
    ("discussion_seconds", 10, 600),
    ("vote_seconds", 5, 120),
    ("night_step_seconds", 2, 60),
    ("word_choice_seconds", 5, 300),
    ("result_seconds", 5, 3600),
    ("yes_no_tokens", 1, 200),
    ("maybe_tokens", 0, 100),
    ("so_close_tokens", 0, 10),
    ("way_off_tokens", 0, 10),
    ("correct_tokens", 1, 1),
)


@lru_cache(maxsize=64)
def pool_problem(words: tuple[str, ...]) -> str | None:
    """What is wrong with a word pool (checked once per pool, however many matches use it)."""
    from wolfden.words.validate import MAX_ENTRIES, WordError, validate_entry

    if len(words) > MAX_ENTRIES:
        return f"{len(words)} words; a pool holds at most {MAX_ENTRIES}"
    for i, word in enumerate(words):
        try:
            validate_entry(word)
        except WordError as exc:
            return f"word {i + 1} ({word!r}) {exc}"
    return None


def validate_roles(cards: tuple[Role, ...], players: int) -> None:
    """The ruling: a Mayor (always), a Seer or Fortune Teller, at least one Werewolf, and more
    village-team roles than Werewolves and Minion. The error names the broken constraint."""
    if len(cards) != players:
        raise ConfigError(
            f"roles: {len(cards)} role cards given, but {players} players need {players} "
            "(one each; the Mayor card is the extra card)"
        )
    count = Counter(cards)
    if count[Role.SEER] + count[Role.FORTUNE_TELLER] == 0:
        raise ConfigError("roles: the role set needs a Seer or a Fortune Teller")
    if count[Role.WEREWOLF] == 0:
        raise ConfigError("roles: the role set needs at least one Werewolf")
    for role in SINGLE:
        if count[role] > 1:
            raise ConfigError(f"roles: at most one {role.title} (got {count[role]})")
    if count[Role.MASON] not in (0, 2):
        raise ConfigError(f"roles: Masons come as a pair (got {count[Role.MASON]})")
    if count[Role.APPRENTICE] and not count[Role.SEER]:
        raise ConfigError("roles: the Apprentice needs a Seer in the role set")
    wolves = count[Role.WEREWOLF] + count[Role.MINION]
    village = sum(
        n for r, n in count.items() if r not in WEREWOLF_TEAM and r is not Role.DOPPELGANGER
    )
    if village <= wolves:
        raise ConfigError(
            f"roles: village-team roles ({village}) must outnumber Werewolves and Minion ({wolves})"
        )

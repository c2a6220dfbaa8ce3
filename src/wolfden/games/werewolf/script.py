"""What the moderator says in the matches of one config, made once per config.

Most announcements depend only on the config and a few small numbers (who picked whom in which
round, whom a Seer checked, who was eliminated and how). A match asks the ``Script`` of its
config for them (``script_for``) instead of writing them out again: each is made the first
time it is needed and then shared. Events are never changed once made, so sharing them is
safe. The script is looked up by the config, never kept in a state: it is shared by every
match of that config (its memo tables hold the announcements of all of them), so a state holds
only its own match.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

from wolfden.engine.types import PUBLIC, Audience, Event
from wolfden.games.werewolf import narration as say
from wolfden.games.werewolf.config import Config
from wolfden.games.werewolf.state import CARDS_BY_ID, Card, Deal, cards_for, deck_for

T = TypeVar("T")

MEMO_LIMIT = 100_000
"""The most events of one kind a script keeps; past it, they are made afresh each time."""


def _seats(mask: int) -> tuple[int, ...]:
    return tuple(seat for seat in range(mask.bit_length()) if mask >> seat & 1)


class Memo(dict[Hashable, T]):
    """Events (or lines) by their key, each made by ``make(*key)`` the first time it is asked
    for."""

    __slots__ = ("make",)

    def __init__(self, make: Callable[..., T]) -> None:
        super().__init__()
        self.make = make

    def __missing__(self, key: Any) -> T:
        event = self.make(*key)
        if len(self) < MEMO_LIMIT:
            self[key] = event
        return event


class Script:
    """A config's deck, its night calls, and its announcements by key:

    - ``picks[seat, target, round, pack]``: a Werewolf's pick, for the pack (a mask of seats);
    - ``disagreements[round, pack]`` and ``locks[target, pack]``: the pack's round ends;
    - ``answers[seat, target, is_wolf]``: a Seer's answer; ``protections[seat, target]``;
    - ``eliminations[seat, card_id, by_vote]``; ``ballots[candidates, revote]``;

    and ``tally_line(candidates, counts)``, the line read out when a ballot closes (made afresh
    each time: the counts of a ballot seldom come again).
    """

    __slots__ = (
        "answers",
        "ballots",
        "cards_by_id",
        "config",
        "deck",
        "disagreements",
        "eliminations",
        "locks",
        "names",
        "night_calls",
        "picks",
        "protections",
    )

    def __init__(self, config: Config) -> None:
        self.config = config
        self.deck = deck_for(config)
        # every card a seat can hold: the deck's, and the print deck's (tests deal from it)
        self.cards_by_id = {**CARDS_BY_ID, **{card.id: card for card in self.deck}}
        self.night_calls = night_events(config)
        self.names = config.display_names
        self.picks = Memo(self._pick)
        self.disagreements = Memo(self._disagreement)
        self.locks = Memo(self._lock)
        self.answers = Memo(self._answer)
        self.protections = Memo(self._protection)
        self.eliminations = Memo(self._elimination)
        self.ballots = Memo(self._ballot)

    def deal(self, cards: tuple[Card, ...], unmet_requests: frozenset[int]) -> Deal:
        return Deal(self.config, self.night_calls, cards, unmet_requests)

    def _pick(self, seat: int, target: int, round: int, pack: int) -> Event:
        names = self.names
        return Event(
            "pack_pick",
            {"seat": seat, "target": target, "round": round},
            Audience.of(_seats(pack)),
            f"{names[seat]} picks {names[target]}.",
        )

    def _disagreement(self, round: int, pack: int) -> Event:
        of = self.config.pack_rounds
        return Event(
            "pack_disagrees",
            {"round": round, "of": of},
            Audience.of(_seats(pack)),
            f"The pack disagrees. Choose again (round {round} of {of}).",
        )

    def _lock(self, target: int, pack: int) -> Event:
        return Event(
            "pack_locked",
            {"target": target},
            Audience.of(_seats(pack)),
            f"The pack has chosen {self.names[target]}.",
        )

    def _answer(self, seat: int, target: int, is_wolf: bool) -> Event:
        line = say.seer_answer(self.names[target], is_wolf)
        return Event(
            "seer_answer", {"target": target, "werewolf": is_wolf}, Audience.only(seat), line
        )

    def _protection(self, seat: int, target: int) -> Event:
        line = f"You protect {self.names[target]} tonight."
        return Event("protecting", {"target": target}, Audience.only(seat), line)

    def _elimination(self, seat: int, card_id: str, by_vote: bool) -> Event:
        card = self.cards_by_id[card_id]
        by = "vote" if by_vote else "night"
        return Event(
            "eliminated",
            {"seat": seat, "role": card.role.value, "card": card.id, "by": by},
            PUBLIC,
            say.eliminated(self.names[seat], card, by_vote),
        )

    def _ballot(self, candidates: tuple[int, ...], revote: bool) -> Event:
        line = say.REVOTE_OPEN if revote else say.BALLOT_OPEN
        return Event(
            "ballot_open", {"candidates": list(candidates), "revote": revote}, PUBLIC, line
        )

    def tally_line(self, candidates: tuple[int, ...], counts: tuple[int, ...]) -> str:
        names = self.names
        parts = [f"{names[c]}: {n}" for c, n in zip(candidates, counts) if n]
        closed = "The ballot is closed. "
        return closed + ("; ".join(parts) + "." if parts else "No votes were cast.")


def night_events(config: Config) -> tuple[Event, ...]:
    """The night's script as events; it depends only on the cards of the deal."""
    dealt = {c.role for c in cards_for(config)}
    return tuple(
        Event("narration", {"phase": "night"}, PUBLIC, line) for line in say.night_script(dealt)
    )


@functools.lru_cache(maxsize=256)
def _script(config: Config) -> Script:
    config.validate()
    return Script(config)


_last: Script | None = None
"""The script used last: a simulation sets up the same config over and over, and this spares
it hashing the config every time."""


def script_for(config: Config) -> Script:
    """The config's script, made once per config (which is validated then: configs are
    frozen, and an invalid one raises every time)."""
    global _last
    last = _last
    if last is not None and last.config is config:
        return last
    last = _last = _script(config)
    return last

"""Bot teams for Werwölfe Kids with a child's memory.

A bot sees only its team's view, like a child at the table: what is behind a door is in the
view only while the door is open. So the bot keeps its own notes of what it saw, and forgets:
at the start of every new day each remembered house is forgotten with a probability that
depends on the memory level (identical doors make it worse). With what it still remembers it
plays sensibly:

- Village: a person it placed who went missing means a werewolf now lives in that person's
  house; a werewolf that won a duel escapes to a house at most 2 steps away, and if someone
  went missing that night it is probably there. It opens such houses first, then houses it
  knows nothing about, then houses it remembers as empty (a werewolf may have moved in); it
  never opens a house whose person it saw and who is not missing (no werewolf can be there).
- Werewolves: it opens a house where it remembers one of its werewolves (preferring the one the
  village is most likely to find), and drives out people it remembers, or tries houses it knows
  nothing about; it leaves its Discovered werewolves (caught at once if found) alone when it can,
  and an escaping one hides in an empty house. It never walks into a house where it remembers
  another werewolf.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from wolfden.engine.rng import Rng
from wolfden.engine.types import Action, Seat

LEVELS: dict[str, float] = {"young": 0.3, "older": 0.1, "perfect": 0.0}
"""Per-day probability of forgetting one remembered house, by memory level."""

DIFFICULT_DOORS = 1.5
"""Identical doors make every memory that much harder to keep."""

WOLF = "werewolf"
DISCOVERED = "werewolf-discovered"
EMPTY = "empty"
VILLAGE = 0


class MemoryBot:
    """A team that remembers imperfectly. ``level`` is young, older or perfect."""

    def __init__(self, seat: Seat, level: str = "older") -> None:
        if level not in LEVELS:
            raise ValueError(f"unknown memory level {level!r}; use {', '.join(LEVELS)}")
        self.seat = seat
        self.level = level
        self.memory: dict[str, tuple[str, int]] = {}
        """house -> (what the bot believes is there, the day it learned it)"""
        self.day = 0
        self.missing: list[str] = []
        self.caught = 0
        self.duel_house: str | None = None
        self.escaped_from: str | None = None
        self.escape_day = -1
        self.exposed: dict[str, int] = {}
        """Werewolf team: houses of its werewolves the village may know about, by day."""

    # -- remembering -------------------------------------------------------------------

    def observe(self, view: Mapping[str, Any], rng: Rng) -> None:
        day = int(view.get("day", 0))
        forget = LEVELS[self.level] * (DIFFICULT_DOORS if view.get("doors") == "difficult" else 1)
        for _ in range(max(0, day - self.day)):
            for house in list(self.memory):
                if rng.random() < forget:
                    del self.memory[house]
        self.day = max(self.day, day)
        for entry in view.get("houses", ()):
            if "content" in entry:
                self.memory[entry["house"]] = (entry["content"], day)
        for seen in view.get("peek", {}).get("houses", ()):
            if seen["now"] in (WOLF, DISCOVERED) and seen["found"] not in (EMPTY, WOLF, DISCOVERED):
                self.exposed[seen["house"]] = day  # a person went missing from here
        caught = int(view.get("caught", 0))
        duel = view.get("duel")
        if duel is not None:
            self.duel_house = duel["house"]
        elif self.duel_house is not None:
            house, self.duel_house = self.duel_house, None
            if caught > self.caught:
                self.memory[house] = (EMPTY, day)
            else:
                self.escaped_from, self.escape_day = house, day
                self.exposed[house] = day
                if self.seat == VILLAGE:
                    self.memory.pop(house, None)
        self.caught = caught
        missing = list(view.get("missing", ()))
        fresh = missing[len(self.missing) :]
        self.missing = missing
        for person in fresh:
            self._person_missing(person, day)

    def _person_missing(self, person: str, day: int) -> None:
        """Whoever lived where this person lived has been replaced by a werewolf."""
        for house, (content, _seen) in list(self.memory.items()):
            if content == person:
                escaped = self.escaped_from is not None and self.escape_day == day
                self.memory[house] = (DISCOVERED if escaped else WOLF, day)
                self.exposed[house] = day
                if escaped:
                    self.escaped_from = None

    def believed(self, house: str) -> str | None:
        item = self.memory.get(house)
        return item[0] if item is not None else None

    # -- acting ------------------------------------------------------------------------

    def act(self, view: Mapping[str, Any], legal: Sequence[Action], rng: Rng) -> Action:
        self.observe(view, rng)
        by_name: dict[str, list[Action]] = {}
        for action in legal:
            by_name.setdefault(action.name, []).append(action)
        for simple in ("close", "roll", "wake", "done"):
            if simple in by_name:
                return by_name[simple][0]
        if "scatter" in by_name:
            return by_name["scatter"][0]
        if "haunt" in by_name:
            return self._haunt(by_name["haunt"], rng)
        if "move" in by_name or "stay" in by_name:
            return self._move(view, by_name, rng)
        if "open" in by_name:
            if view.get("you") == "village":
                return self._village_open(view, by_name["open"], rng)
            return self._werewolf_open(by_name["open"], rng)
        return legal[rng.below(len(legal))]

    def _haunt(self, options: list[Action], rng: Rng) -> Action:
        return options[rng.below(len(options))]

    def _village_open(self, view: Mapping[str, Any], options: list[Action], rng: Rng) -> Action:
        too_hard = bool(view.get("rules", {}).get("too_hard", False))
        escape_targets = self._escape_targets(view)
        scored: list[tuple[float, int, Action]] = []
        for action in options:
            house = str(action.args[0])
            belief = self.believed(house)
            if belief == DISCOVERED:
                score = 0.0 if too_hard else -1.0
            elif belief == WOLF:
                score = 0.0
            elif house in escape_targets and (belief is None or belief == EMPTY):
                score = 1.0
            elif belief is None:
                score = 2.0
            elif belief == EMPTY:
                score = 3.0
            else:
                score = 4.0
            scored.append((score, rng.below(1 << 30), action))
        scored.sort(key=lambda item: (item[0], item[1]))
        return scored[0][2]

    def _escape_targets(self, view: Mapping[str, Any]) -> set[str]:
        if self.escaped_from is None or self.escape_day < self.day - 1:
            return set()
        return set(_near(self.escaped_from, int(view.get("rows", 3)), int(view.get("cols", 4))))

    def _werewolf_open(self, options: list[Action], rng: Rng) -> Action:
        scored: list[tuple[float, int, Action]] = []
        for action in options:
            house = str(action.args[0])
            belief = self.believed(house)
            if belief == WOLF:
                score = -100.0 - float(self.exposed.get(house, -1))
            elif belief == DISCOVERED:
                score = -50.0
            elif belief is None:
                score = 0.0
            elif belief == EMPTY:
                score = 1.0
            else:
                score = 2.0
            scored.append((score, rng.below(1 << 30), action))
        scored.sort(key=lambda item: (item[0], item[1]))
        return scored[0][2]

    def _move(
        self, view: Mapping[str, Any], by_name: Mapping[str, list[Action]], rng: Rng
    ) -> Action:
        move = view.get("move", {})
        origin = str(move.get("from", ""))
        hide = bool(move.get("escape"))
        scored: list[tuple[float, int, Action]] = []
        for action in by_name.get("move", ()):
            house = str(action.args[0])
            belief = self.believed(house)
            if belief in (WOLF, DISCOVERED):
                score = 9.0
            elif belief == EMPTY:
                score = 0.0 if hide else 2.0
            elif belief is None:
                score = 1.0
            else:
                score = 2.0 if hide else 0.0
            scored.append((score, rng.below(1 << 30), action))
        for action in by_name.get("stay", ()):
            scored.append((8.0, 0, action))
        scored.sort(key=lambda item: (item[0], item[1]))
        choice = scored[0][2]
        if choice.name == "move" and origin:
            self.exposed.pop(origin, None)
            target = str(choice.args[0])
            if self.believed(target) not in (None, EMPTY):
                self.exposed[target] = self.day
        return choice


def _near(house: str, rows: int, cols: int) -> list[str]:
    """Houses 1–2 orthogonal steps from ``house`` (and the house itself: it may stay)."""
    r, c = "ABCD".index(house[0]), int(house[1:]) - 1
    out = []
    for tr in range(rows):
        for tc in range(cols):
            if abs(tr - r) + abs(tc - c) <= 2:
                out.append(f"{'ABCD'[tr]}{tc + 1}")
    return out


def _factory(level: str) -> Any:
    def make(seat: Seat) -> MemoryBot:
        return MemoryBot(seat, level)

    make.__doc__ = f"A team with a{'n' if level[0] in 'aeiou' else ''} {level} memory."
    return make


BOTS = {
    "rules": _factory("older"),
    "young": _factory("young"),
    "older": _factory("older"),
    "perfect": _factory("perfect"),
}

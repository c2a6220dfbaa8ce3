"""A table for the rulebook tests: a match driven through the public contract, action by action."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any

from wolfden import games
from wolfden.engine.rng import derive_seed
from wolfden.engine.types import OMNISCIENT, Action, Event, Viewer
from wolfden.games.werwoelfe_kids import VILLAGE, WEREWOLVES, Config

GAME = games.get("werwoelfe-kids")

# A standard village: 10 people, C3 and C4 empty.
PEOPLE = {
    "A1": "ada",
    "A2": "bruno",
    "A3": "clara",
    "A4": "dario",
    "B1": "elsa",
    "B2": "fritz",
    "B3": "greta",
    "B4": "hugo",
    "C1": "ida",
    "C2": "jonas",
}


class Table:
    def __init__(self, config: Config | None = None, seed: int = 7) -> None:
        self.state = GAME.setup(config or Config(), seed)
        self.events: list[Event] = []

    def do(self, seat: int | None, text: str) -> list[Event]:
        self.state, self.events = GAME.apply(self.state, seat, Action.parse(text))
        return self.events

    def view(self, seat: int) -> dict[str, Any]:
        return GAME.view(self.state, Viewer.of(seat))

    def legal(self, seat: int) -> list[str]:
        return [str(a) for a in GAME.legal_actions(self.state, seat)]

    def behind(self, house: str) -> str:
        """What is really behind a door (the view for everyone, as after the match)."""
        for entry in GAME.view(self.state, OMNISCIENT)["houses"]:
            if entry["house"] == house:
                return str(entry["content"])
        raise KeyError(house)

    def cues(self) -> list[str]:
        return [e.data["cue"] for e in self.events if e.type == "cue"]

    @property
    def phase(self) -> str:
        return str(self.state.phase.value)

    def place(self, people: Mapping[str, str]) -> None:
        for house, person in people.items():
            self.do(VILLAGE, f"pick {person}")
            self.do(VILLAGE, f"put {house}")
        self.do(VILLAGE, "done")

    def haunt(self, houses: Iterable[str]) -> None:
        for house in houses:
            self.do(WEREWOLVES, f"haunt {house}")
            self.do(WEREWOLVES, "close")

    def day_look(self, house: str) -> None:
        self.do(VILLAGE, f"open {house}")
        self.do(VILLAGE, "close")

    def night_move(self, frm: str, to: str) -> None:
        self.do(WEREWOLVES, f"open {frm}")
        self.do(WEREWOLVES, f"move {to}")
        if self.phase == "peek":
            self.do(WEREWOLVES, "close")

    def duel_won_by(self, team: int) -> None:
        """Roll the duel out; the dice are re-seeded until ``team`` wins (the dice are fair)."""
        start = self.state
        for attempt in range(200):
            self.state = replace(start, rng=derive_seed(attempt, 99))
            turn = 0
            while self.phase == "duel":
                acting = sorted(GAME.actors(self.state))
                self.do(acting[turn % len(acting)], "roll")
                turn += 1
            caught = self.state.caught > start.caught
            if caught == (team == VILLAGE):
                return
        raise AssertionError("no dice fell that way in 200 tries")

"""The information wall: what a team cannot see may change without the team noticing."""

from __future__ import annotations

from wolfden.engine.rng import Rng
from wolfden.engine.types import SPECTATOR, Viewer
from wolfden.games.werwoelfe_kids import VILLAGE, WEREWOLVES

from .kids_table import GAME, PEOPLE, Table


def _positions(state: object, kind: str) -> set[int]:
    houses = state.houses  # type: ignore[attr-defined]
    if kind == "werewolf":
        return {h for h, c in enumerate(houses) if c >= 13}
    return {h for h, c in enumerate(houses) if 0 <= c < 13}


def _night() -> Table:
    t = Table()
    t.place(PEOPLE)
    t.haunt(["C3", "C4", "C2"])
    t.day_look("A1")
    return t


def test_at_night_the_village_cannot_know_where_werewolves_and_people_are() -> None:
    t = _night()
    wolves_moved = people_moved = 0
    for seed in range(20):
        other = GAME.perturb_hidden(t.state, Viewer.of(VILLAGE), Rng(seed))
        assert other is not None
        assert GAME.view(other, Viewer.of(VILLAGE)) == t.view(VILLAGE)
        wolves_moved += _positions(other, "werewolf") != _positions(t.state, "werewolf")
        people_moved += other.houses != t.state.houses
    assert wolves_moved > 10 and people_moved == 20


def test_by_day_the_werewolves_cannot_know_where_the_people_are_but_the_duel_would_tell() -> None:
    t = _night()
    t.do(WEREWOLVES, "open A1")
    t.do(WEREWOLVES, "close")
    assert t.phase == "day"
    for seed in range(20):
        other = GAME.perturb_hidden(t.state, Viewer.of(WEREWOLVES), Rng(seed))
        assert other is not None and other.houses != t.state.houses
        assert _positions(other, "werewolf") == _positions(t.state, "werewolf")
        assert GAME.view(other, Viewer.of(WEREWOLVES)) == t.view(WEREWOLVES)


def test_an_open_door_and_the_destinations_of_a_moving_werewolf_stay_as_they_are() -> None:
    t = _night()
    t.do(WEREWOLVES, "open C4")
    near = {"A4", "B3", "B4", "C2", "C3", "C4"}
    names = [h["house"] for h in t.view(VILLAGE)["houses"]]
    for seed in range(20):
        other = GAME.perturb_hidden(t.state, SPECTATOR, Rng(seed))
        assert other is not None
        for h, name in enumerate(names):
            if name in near:
                assert other.houses[h] == t.state.houses[h]

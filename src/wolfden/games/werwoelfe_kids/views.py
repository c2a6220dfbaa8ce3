"""What each viewer may see, and the check that nothing else leaks.

A team sees what lies behind a door only while that door is open for it: during its own
placement (the Village team's people, before the doors go on), while a peek is open, and
while it moves or rescues a werewolf it is looking at. Everything else about the houses is
never in a view or an event: the teams have to remember (or, with the ``notebook`` aid,
read their own notes of what they saw). During a dice duel the duel's house is public.
When the match is over every door is lifted for everyone.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from wolfden.engine.rng import Rng
from wolfden.engine.types import Event, Viewer, ViewerKind, filter_events
from wolfden.games.werwoelfe_kids.config import MISSING_TO_WIN, WEREWOLF_TILES, DuelMode, Language
from wolfden.games.werwoelfe_kids.narration import say
from wolfden.games.werwoelfe_kids.pieces import (
    CAST,
    DISCOVERED,
    EMPTY,
    TEAMS,
    VILLAGE,
    WEREWOLVES,
    WOLF,
    Phase,
    content_name,
    door_id,
    is_person,
    is_wolf,
    labels,
    reach,
)
from wolfden.games.werwoelfe_kids.rules import actors, placed_count
from wolfden.games.werwoelfe_kids.state import State


def _team_of(viewer: Viewer) -> int | None:
    if viewer.kind is ViewerKind.SEAT and viewer.seat in (VILLAGE, WEREWOLVES):
        return viewer.seat
    return None


def coarse_phase(state: State) -> str:
    """The part of the game everyone can tell: setup, day, duel, night, handover, over."""
    phase = state.phase
    if phase is Phase.PLACE or phase is Phase.HAUNT:
        return "setup"
    if phase is Phase.DAY:
        return "day"
    if phase is Phase.PEEK:
        if state.peek_team == VILLAGE:
            return "day"
        return "setup" if state.day == 0 else "night"
    if phase is Phase.DUEL:
        return "duel"
    if phase is Phase.WAKE:
        return "handover"
    if phase is Phase.OVER:
        return "over"
    return "night"


_STEP = {
    Phase.PLACE: "place",
    Phase.HAUNT: "haunt",
    Phase.DAY: "open",
    Phase.NIGHT: "open",
    Phase.PEEK: "peek",
    Phase.MOVE: "move",
    Phase.ESCAPE: "escape",
    Phase.DUEL: "roll",
    Phase.WAKE: "wake",
}


def shown_houses(state: State, team: int | None, everything: bool) -> dict[int, int]:
    """The houses whose content this viewer sees now, with that content."""
    houses = state.houses
    if everything:
        return dict(enumerate(houses))
    shown: dict[int, int] = {}
    phase = state.phase
    if phase is Phase.DUEL:
        shown[state.duel_house] = houses[state.duel_house]
    if team is None:
        return shown
    if phase is Phase.PLACE and team == VILLAGE:
        return dict(enumerate(houses))
    if state.peek_team == team:
        for look in state.peek:
            shown[look.house] = look.now
    if phase is Phase.ESCAPE and team == WEREWOLVES:
        shown[state.origin] = houses[state.origin]
    return shown


def view(state: State, viewer: Viewer) -> dict[str, Any]:
    config = state.config
    team = _team_of(viewer)
    over = state.phase is Phase.OVER
    everything = over or viewer.kind is ViewerKind.OMNISCIENT
    names = labels(config.rows, config.cols)
    lang = config.language
    shown = shown_houses(state, team, everything)
    open_doors = (
        {look.house for look in state.peek} if state.peek_team == team or everything else set()
    )
    if state.phase is Phase.DUEL:
        open_doors.add(state.duel_house)
    if state.phase is Phase.ESCAPE and (team == WEREWOLVES or everything):
        open_doors.add(state.origin)
    houses = []
    for h, name in enumerate(names):
        entry: dict[str, Any] = {
            "house": name,
            "door": door_id(state.doors[h]),
            "open": h in open_doors,
        }
        if h in shown:
            entry["content"] = content_name(shown[h])
        houses.append(entry)
    acting = actors(state)
    out: dict[str, Any] = {
        "game": "werwoelfe-kids",
        "you": TEAMS[team] if team is not None else None,
        "language": lang.value,
        "phase": coarse_phase(state),
        "step": _STEP[state.phase] if team in acting else ("over" if over else "wait"),
        "day": state.day,
        "rows": config.rows,
        "cols": config.cols,
        "doors": config.door_style.value,
        "houses": houses,
        "persons_placed": config.persons_placed,
        "missing": [CAST[p].id for p in state.missing],
        "missing_to_win": MISSING_TO_WIN,
        "caught": state.caught,
        "werewolves": WEREWOLF_TILES,
        "cast": [
            {"id": p.id, "name": p.name, "look": p.look_de if lang is Language.DE else p.look_en}
            for p in CAST
        ],
        "rules": {
            "too_hard": config.too_hard,
            "duel": config.duel.value,
            "dice_per_team": config.dice_per_team,
            "symbol_faces": config.symbol_faces,
            "peek_seconds": config.peek_seconds,
            "notebook": config.notebook,
        },
        "prompt": _prompt(state, team, acting),
    }
    if state.phase is Phase.WAKE:
        out["waking"] = TEAMS[state.wake_team]
    if state.phase is Phase.DUEL:
        out["duel"] = _duel(state)
    if team is not None:
        _team_view(state, team, out, names)
    if everything and not over:
        out["actors"] = [TEAMS[t] for t in sorted(acting)]
        if state.peek:
            out["peek"] = _peek(state, names)
    if over:
        out["winner"] = TEAMS[state.winner]
    return out


def _duel(state: State) -> dict[str, Any]:
    out: dict[str, Any] = {
        "house": labels(state.config.rows, state.config.cols)[state.duel_house],
        "mode": state.config.duel.value,
        "dice": {TEAMS[t]: state.dice[t] for t in (VILLAGE, WEREWOLVES)},
        "last_roll": {
            TEAMS[t]: {"dice": state.last_roll[t].dice, "symbols": state.last_roll[t].symbols}
            for t in (VILLAGE, WEREWOLVES)
        },
        "round": state.duel_rounds,
    }
    if state.config.duel is DuelMode.ROUNDS:
        out["ready"] = {TEAMS[t]: state.rolled[t] for t in (VILLAGE, WEREWOLVES)}
    return out


def _peek(state: State, names: Sequence[str]) -> dict[str, Any]:
    entries = [
        {
            "house": names[look.house],
            "found": content_name(look.found),
            "now": content_name(look.now),
        }
        for look in state.peek
    ]
    out: dict[str, Any] = {
        "team": TEAMS[state.peek_team],
        "houses": entries,
        "result": _peek_result(state),
    }
    if state.phase is Phase.PEEK:
        out["closes_in"] = state.config.peek_seconds
    return out


def _peek_result(state: State) -> str:
    """What the open door tells: looked, caught, haunted, found-werewolf, or a move's result."""
    if len(state.peek) == 2:  # a werewolf's move: where it started, where it went
        _start, target = state.peek
        if is_wolf(target.found):
            return "blocked"
        return "drove_out" if is_person(target.found) else "moved_in"
    (look,) = state.peek
    found, now = look.found, look.now
    if state.peek_team == VILLAGE:
        return "caught" if found == DISCOVERED and now == EMPTY else "looked"
    if now == WOLF and found != WOLF:
        return "haunted"
    return "found_werewolf" if is_wolf(found) else "looked"


def _team_view(state: State, team: int, out: dict[str, Any], names: Sequence[str]) -> None:
    if state.peek_team == team and state.peek:
        out["peek"] = _peek(state, names)
    if team == VILLAGE and state.phase is Phase.PLACE:
        out["selected"] = CAST[state.selected].id if state.selected >= 0 else None
    if team == WEREWOLVES and state.day == 0 and state.phase in (Phase.HAUNT, Phase.PEEK):
        out["haunted"] = [names[h] for h in state.haunted]
    if team == WEREWOLVES and state.phase in (Phase.MOVE, Phase.ESCAPE):
        rows, cols = state.config.rows, state.config.cols
        out["move"] = {
            "from": names[state.origin],
            "escape": state.phase is Phase.ESCAPE,
            "targets": [names[t] for t in reach(rows, cols, state.origin)],
        }
    if state.config.notebook:
        out["notebook"] = [
            {"house": names[h], "saw": content_name(note.saw), "day": note.day}
            for h, note in enumerate(state.notebooks[team])
            if note is not None
        ]


def _prompt(state: State, team: int | None, acting: frozenset[int]) -> str:
    lang = state.config.language
    phase = state.phase
    names = labels(state.config.rows, state.config.cols)
    if phase is Phase.OVER:
        return say(lang, "p.over_werewolves" if state.winner else "p.over_village")
    if phase is Phase.WAKE:
        return say(lang, "p.wake", team=state.wake_team)
    if phase is Phase.DUEL:
        key = "p.duel_race" if state.config.duel is DuelMode.RACE else "p.duel_rounds"
        return say(lang, key, house=names[state.duel_house])
    if team is None or team not in acting:
        return say(lang, _waiting_prompt(state))
    if phase is Phase.PLACE:
        return say(lang, "p.place", n=state.config.persons_placed, placed=placed_count(state))
    if phase is Phase.HAUNT:
        return say(lang, "p.haunt", k=len(state.haunted) + 1)
    if phase is Phase.DAY:
        return say(lang, "p.day")
    if phase is Phase.NIGHT:
        return say(lang, "p.night")
    if phase is Phase.MOVE:
        frm = names[state.origin]
        return say(lang, "p.found_wolf", frm=frm) + " " + say(lang, "p.move", frm=frm)
    if phase is Phase.ESCAPE:
        return say(lang, "p.escape", frm=names[state.origin])
    return _peek_prompt(state, names)


def _waiting_prompt(state: State) -> str:
    coarse = coarse_phase(state)
    if coarse == "setup":
        return "p.place_wait" if state.phase is Phase.PLACE else "p.haunt_wait"
    return "p.day_wait" if coarse == "day" else "p.night_wait"


def _peek_prompt(state: State, names: Sequence[str]) -> str:
    lang = state.config.language
    result = _peek_result(state)
    remember = say(lang, "p.peek")
    if result == "caught":
        return say(lang, "p.caught") + " " + remember
    if result == "haunted":
        (look,) = state.peek
        return say(lang, "p.haunted", house=names[look.house]) + " " + remember
    if result in ("drove_out", "blocked", "moved_in"):
        start, target = state.peek
        there = target.found
        name = CAST[there].name if is_person(there) else ""
        frm, to = names[start.house], names[target.house]
        return say(lang, "p." + result, frm=frm, to=to, name=name) + " " + remember
    return remember


def visible_events(state: State, events: Sequence[Event], viewer: Viewer) -> list[dict[str, Any]]:
    """Events carry no house contents; team events go to that team only."""
    return filter_events(events, viewer)


# -- the information wall --------------------------------------------------------------


def may_end(state: State) -> bool:
    """Whether the next action could end the match (after which every door is lifted)."""
    phase = state.phase
    if phase is Phase.DAY or phase is Phase.DUEL:
        return state.caught == WEREWOLF_TILES - 1
    if phase is Phase.MOVE or phase is Phase.ESCAPE or phase is Phase.HAUNT:
        return len(state.missing) == MISSING_TO_WIN - 1
    return False


def perturb_hidden(state: State, viewer: Viewer, rng: Rng) -> State | None:
    """Rearrange what lies behind the doors the viewer cannot see now.

    Contents (people, empty frames, werewolves on either side) of hidden houses are shuffled
    among themselves, and people in hidden houses may be swapped for people who were never
    placed (while the Village team places, its order of placement moves with them). What
    stays as it is: every house the viewer sees, the open doors and the duel's and escape's
    houses, and what the other team's very next action may make public: a
    werewolf's destinations (a driven-out person is announced), the werewolves' positions
    while the Village team chooses a door (a duel is announced), and every house while the
    werewolves choose their setup houses (each may hold a person who goes missing). When the
    other team's next action may end the match, every door will be lifted for everyone, so
    nothing is perturbed then.
    """
    if state.phase is Phase.OVER or viewer.kind is ViewerKind.OMNISCIENT:
        return None
    team = _team_of(viewer)
    houses = state.houses
    n = len(houses)
    fixed = set(shown_houses(state, team, everything=False))
    fixed.update(look.house for look in state.peek)
    for h in (state.origin, state.escape, state.duel_house):
        if h >= 0:
            fixed.add(h)
    if state.day == 0:
        fixed.update(state.haunted)
    keep_wolves = False
    for seat in actors(state):
        if seat == team:
            continue
        phase = state.phase
        if may_end(state):
            return None
        if phase is Phase.HAUNT:
            fixed.update(range(n))
        elif phase is Phase.MOVE or phase is Phase.ESCAPE:
            fixed.update(reach(state.config.rows, state.config.cols, state.origin))
        elif phase is Phase.DAY:
            keep_wolves = True
    free = [h for h in range(n) if h not in fixed and not (keep_wolves and is_wolf(houses[h]))]
    sees_cast = state.phase is Phase.PLACE and team == VILLAGE
    present = set(houses) | set(state.missing)
    pool = [] if sees_cast else [p for p in range(len(CAST)) if p not in present]
    before = [houses[h] for h in free]
    if len(set(before)) < 2 and not (pool and any(is_person(c) for c in before)):
        return None
    order = list(range(len(free)))
    rng.shuffle(order)
    contents = [before[i] for i in order]
    for i, c in enumerate(contents):
        if pool and is_person(c) and rng.chance(0.5):
            j = rng.below(len(pool))
            contents[i], pool[j] = pool[j], c
    if contents == before:
        differs = [i for i, c in enumerate(contents) if c != contents[0]]
        if differs:
            k = differs[0]
            contents[0], contents[k] = contents[k], contents[0]
            order[0], order[k] = order[k], order[0]
        else:
            i = next(i for i, c in enumerate(contents) if is_person(c))
            contents[i] = pool[0]
    new = list(houses)
    moved_to = {h: h for h in range(n)}
    for dest, (src, c) in enumerate(zip(order, contents)):
        new[free[dest]] = c
        moved_to[free[src]] = free[dest]
    placing = tuple(moved_to[h] for h in state.placing)
    return replace(state, houses=tuple(new), placing=placing)

"""The rules of Werwölfe Kids: setup, day, night, the dice duel and the end, one function each.

Seat 0 is the Village team and seat 1 the Werewolf team. Every rule returns a new state and
the events it caused; nothing here mutates a state, reads a clock or uses global randomness.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import NamedTuple

from wolfden.engine.errors import ConfigError, IllegalAction, MatchOver, NotYourTurn
from wolfden.engine.rng import Rng, derive_seed
from wolfden.engine.types import PUBLIC, Action, Audience, Deadline, Event, Outcome, Seat
from wolfden.games.werwoelfe_kids.config import (
    MISSING_TO_WIN,
    WEREWOLF_TILES,
    Config,
    Doors,
    DuelMode,
)
from wolfden.games.werwoelfe_kids.narration import say
from wolfden.games.werwoelfe_kids.state import (
    BLOCKED,
    CAUGHT_WITHOUT_DUEL,
    DISCOVERED,
    DUELS,
    DUELS_VILLAGE,
    DUELS_WEREWOLVES,
    EMPTY,
    ESCAPES,
    MOVES,
    STAT_NAMES,
    TEAMS,
    VILLAGE,
    WEREWOLVES,
    WOLF,
    Peek,
    Phase,
    State,
    bump,
    is_person,
    is_wolf,
)
from wolfden.games.werwoelfe_kids.village import (
    CAST,
    EASY_DOORS,
    PERSON_INDEX,
    label_index,
    labels,
    reach,
)

CLOSE = Action("close")
ROLL = Action("roll")
STAY = Action("stay")
DONE = Action("done")
SCATTER = Action("scatter")
UNDO = Action("undo")
WAKE = Action("wake")

TEAM_AUDIENCE = (Audience.only(VILLAGE), Audience.only(WEREWOLVES))
"""A team's own events (never what is behind a door: that is only in its view)."""


class Actions(NamedTuple):
    """The cached action values of one village shape."""

    open: tuple[Action, ...]
    haunt: tuple[Action, ...]
    move: tuple[Action, ...]
    put: tuple[Action, ...]
    pick: tuple[Action, ...]


@cache
def actions_for(rows: int, cols: int) -> Actions:
    names = labels(rows, cols)
    return Actions(
        open=tuple(Action("open", (n,)) for n in names),
        haunt=tuple(Action("haunt", (n,)) for n in names),
        move=tuple(Action("move", (n,)) for n in names),
        put=tuple(Action("put", (n,)) for n in names),
        pick=tuple(Action("pick", (p.id,)) for p in CAST),
    )


def _acts(state: State) -> Actions:
    return actions_for(state.config.rows, state.config.cols)


def house_name(state: State, house: int) -> str:
    return labels(state.config.rows, state.config.cols)[house]


def _event(
    state: State, type_: str, data: dict[str, object], audience: Audience, key: str, **kw: object
) -> Event:
    return Event(type_, data, audience, say(state.config.language, key, **kw))


# -- setup -----------------------------------------------------------------------------


def setup(config: Config, seed: int) -> State:
    """A new village: all houses empty, the Village team about to place its people."""
    if not isinstance(config, Config):
        raise ConfigError("werwoelfe-kids needs a werwoelfe_kids Config")
    config.validate()
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ConfigError(f"the seed is a whole number, got {seed!r}")
    rng = Rng(derive_seed(seed, 0x4B1D5))
    n = config.houses
    if config.door_style is Doors.EASY:
        doors = tuple(rng.shuffled(range(len(EASY_DOORS)))[:n])
    else:
        doors = (-1,) * n
    state = State.__new__(State)
    values: dict[str, object] = {
        "config": config,
        "phase": Phase.PLACE,
        "seq": 0,
        "rng": rng.state,
        "houses": (EMPTY,) * n,
        "doors": doors,
        "missing": (),
        "missing_setup": 0,
        "caught": 0,
        "haunted": (),
        "peek_team": -1,
        "peek": (),
        "origin": -1,
        "escape": -1,
        "duel_house": -1,
        "dice": (0, 0),
        "rolled": (False, False),
        "selected": -1,
        "placing": (),
        "last_roll": ((0, 0), (0, 0)),
        "duel_rounds": 0,
        "day": 0,
        "wake_team": -1,
        "wake_to": Phase.PLACE,
        "winner": -1,
        "notebooks": ((None,) * n, (None,) * n) if config.notebook else ((), ()),
        "stats": (0,) * len(STAT_NAMES),
    }
    for name, value in values.items():
        setattr(state, name, value)
    if config.handover:
        state = state.evolve(phase=Phase.WAKE, wake_team=VILLAGE, wake_to=Phase.PLACE)
    return state


def num_seats(config: Config) -> int:
    return 2


def _turn(state: State, team: int, phase: Phase, **changes: object) -> State:
    """Begin ``team``'s next phase, through a hand-over screen on a shared device."""
    if state.config.handover:
        return state.evolve(
            phase=Phase.WAKE, wake_team=team, wake_to=phase, seq=state.seq + 1, **changes
        )
    return state.evolve(phase=phase, seq=state.seq + 1, **changes)


def placed_count(state: State) -> int:
    return sum(1 for c in state.houses if is_person(c))


# -- who acts, and what they may do ----------------------------------------------------


def actors(state: State) -> frozenset[Seat]:
    phase = state.phase
    if phase is Phase.PLACE or phase is Phase.DAY:
        return _VILLAGE_SET
    if phase is Phase.HAUNT or phase is Phase.NIGHT or phase is Phase.MOVE:
        return _WEREWOLF_SET
    if phase is Phase.ESCAPE:
        return _WEREWOLF_SET
    if phase is Phase.PEEK:
        return _SETS[state.peek_team]
    if phase is Phase.DUEL:
        if state.config.duel is DuelMode.RACE:
            return _BOTH
        return frozenset(t for t in (VILLAGE, WEREWOLVES) if not state.rolled[t])
    if phase is Phase.WAKE:
        return _SETS[state.wake_team]
    return _NOBODY


_VILLAGE_SET = frozenset({VILLAGE})
_WEREWOLF_SET = frozenset({WEREWOLVES})
_SETS = (_VILLAGE_SET, _WEREWOLF_SET)
_BOTH = frozenset({VILLAGE, WEREWOLVES})
_NOBODY: frozenset[Seat] = frozenset()


def legal_actions(state: State, seat: Seat | None) -> list[Action]:
    if seat is None or seat not in actors(state):
        return []
    return _LEGAL[state.phase](state)


def _legal_place(state: State) -> list[Action]:
    """Pick a person, then put them into an empty house; undo the last placement; or let the
    app scatter the rest. Done once exactly the right number of people live in the village."""
    acts = _acts(state)
    houses = state.houses
    room = placed_count(state) < state.config.persons_placed
    out: list[Action] = [SCATTER if room else DONE]
    if room:
        if state.selected >= 0:
            out.extend(acts.put[h] for h, c in enumerate(houses) if c == EMPTY)
        present = set(houses)
        out.extend(
            acts.pick[p] for p in range(len(CAST)) if p not in present and p != state.selected
        )
    if state.placing:
        out.append(UNDO)
    return out


def _legal_haunt(state: State) -> list[Action]:
    haunt = _acts(state).haunt
    return [haunt[h] for h in range(len(state.houses)) if h not in state.haunted]


def _legal_open(state: State) -> list[Action]:
    return list(_acts(state).open)


def _legal_move(state: State) -> list[Action]:
    move = _acts(state).move
    out = [move[h] for h in reach(state.config.rows, state.config.cols)[state.origin]]
    out.append(STAY)
    return out


_LEGAL: dict[Phase, Callable[[State], list[Action]]] = {
    Phase.PLACE: _legal_place,
    Phase.HAUNT: _legal_haunt,
    Phase.DAY: _legal_open,
    Phase.NIGHT: _legal_open,
    Phase.MOVE: _legal_move,
    Phase.ESCAPE: _legal_move,
    Phase.PEEK: lambda state: [CLOSE],
    Phase.DUEL: lambda state: [ROLL],
    Phase.WAKE: lambda state: [WAKE],
    Phase.OVER: lambda state: [],
}


def deadline(state: State) -> Deadline | None:
    """An open door closes by itself after ``peek_seconds``; no other phase has a timer."""
    if state.phase is Phase.PEEK:
        return Deadline(state.seq, state.config.peek_seconds, CLOSE, "the door closes")
    return None


def phase_seq(state: State) -> int:
    return state.seq


# -- applying an action ----------------------------------------------------------------


def apply(state: State, seat: Seat | None, action: Action) -> tuple[State, list[Event]]:
    if state.phase is Phase.OVER:
        raise MatchOver(f"the match is over ({TEAMS[state.winner]} won); no more actions")
    if seat is None:
        if state.phase is Phase.PEEK and action == CLOSE:
            return close_door(state)
        raise IllegalAction(
            "the clock may only close an open door ('close'); this game has no host actions"
        )
    if seat not in (VILLAGE, WEREWOLVES):
        raise IllegalAction(
            f"there is no seat {seat}: seat 0 is the Village team, 1 the Werewolves"
        )
    if seat not in actors(state):
        waiting = " and ".join(TEAMS[t] for t in sorted(actors(state)))
        raise NotYourTurn(f"it is not the {TEAMS[seat]} team's turn; waiting for {waiting}")
    legal = _LEGAL[state.phase](state)
    if action not in legal:
        raise IllegalAction(_why_illegal(state, action, legal))
    return _APPLY[state.phase](state, seat, action)


def _why_illegal(state: State, action: Action, legal: list[Action]) -> str:
    names = sorted({a.name for a in legal})
    shown = [str(a) for a in legal[:6]]
    more = f" … ({len(legal)} in all)" if len(legal) > 6 else ""
    return (
        f"{action} is not allowed in the {state.phase.value} phase; "
        f"allowed: {', '.join(names)} — e.g. {', '.join(shown)}{more}"
    )


def _house_arg(state: State, action: Action) -> int:
    return label_index(state.config.rows, state.config.cols)[str(action.args[-1])]


def apply_place(state: State, seat: Seat, action: Action) -> tuple[State, list[Event]]:
    """Setup step 2: the Village team distributes its people, one house each, then covers them."""
    if action == DONE:
        return cover_village(state)
    houses = list(state.houses)
    if action == SCATTER:
        rng = Rng(state.rng)
        present = set(houses)
        free = [p for p in range(len(CAST)) if p not in present]
        empty = [h for h, c in enumerate(houses) if c == EMPTY]
        rng.shuffle(free)
        rng.shuffle(empty)
        chosen = list(zip(free[: state.config.persons_placed - placed_count(state)], empty))
        for p, h in chosen:
            houses[h] = p
        placing = state.placing + tuple(h for _, h in chosen)
        return state.evolve(houses=tuple(houses), rng=rng.state, selected=-1, placing=placing), []
    if action.name == "pick":
        return state.evolve(selected=PERSON_INDEX[str(action.args[0])]), []
    if action == UNDO:
        houses[state.placing[-1]] = EMPTY
        return state.evolve(houses=tuple(houses), placing=state.placing[:-1]), []
    house = _house_arg(state, action)
    houses[house] = state.selected
    placing = (*state.placing, house)
    return state.evolve(houses=tuple(houses), selected=-1, placing=placing), []


def cover_village(state: State) -> tuple[State, list[Event]]:
    """The doors go on; the Village team closes its eyes and the Werewolf team wakes."""
    notebooks = state.notebooks
    if state.config.notebook:
        notebooks = (tuple((c, 0) for c in state.houses), notebooks[WEREWOLVES])
    events = [_event(state, "narration", {"step": "doors_on"}, PUBLIC, "doors_on")]
    done = _turn(state, WEREWOLVES, Phase.HAUNT, notebooks=notebooks, selected=-1, placing=())
    return done, events


def apply_haunt(state: State, seat: Seat, action: Action) -> tuple[State, list[Event]]:
    """Setup step 3: a werewolf moves into a chosen house; a person there goes missing."""
    house = _house_arg(state, action)
    found = state.houses[house]
    houses = (*state.houses[:house], WOLF, *state.houses[house + 1 :])
    events: list[Event] = []
    missing = state.missing
    if is_person(found):
        missing += (found,)
    new = state.evolve(
        houses=houses,
        haunted=(*state.haunted, house),
        missing=missing,
        missing_setup=len(missing),
    )
    if is_person(found):
        new, more = person_goes_missing(new, found)
        events += more
        if new.phase is Phase.OVER:
            return new, events
    return open_peek(new, WEREWOLVES, ((house, found, WOLF),)), events


def person_goes_missing(state: State, person: int) -> tuple[State, list[Event]]:
    """The person joins the missing row; the 8th missing person ends the game at once."""
    name = CAST[person].name
    data = {"cue": "missing", "person": CAST[person].id, "missing": len(state.missing)}
    events = [_event(state, "cue", data, PUBLIC, "missing", name=name)]
    if len(state.missing) >= MISSING_TO_WIN:
        return _win(state, WEREWOLVES, events)
    return state, events


def _win(state: State, team: int, events: list[Event]) -> tuple[State, list[Event]]:
    key = "win_werewolves" if team == WEREWOLVES else "win_village"
    events.append(_event(state, "cue", {"cue": "win", "winner": TEAMS[team]}, PUBLIC, key))
    done = state.evolve(
        phase=Phase.OVER, winner=team, seq=state.seq + 1, peek=(), peek_team=-1, origin=-1
    )
    return done, events


def open_peek(state: State, team: int, peek: Peek) -> State:
    """A door stands open for ``team``: its view shows what is behind it until it closes."""
    return state.evolve(
        phase=Phase.PEEK,
        peek_team=team,
        peek=peek,
        seq=state.seq + 1,
        notebooks=_noted(state, team, peek),
    )


def _noted(state: State, team: int, peek: Peek) -> tuple[tuple[tuple[int, int] | None, ...], ...]:
    """With the notebook aid, the team's notes get what it sees behind the open doors."""
    notebooks = state.notebooks
    if not state.config.notebook:
        return notebooks
    book = list(notebooks[team])
    for house, _found, now in peek:
        book[house] = (now, state.day)
    return (tuple(book), notebooks[1]) if team == VILLAGE else (notebooks[0], tuple(book))


def close_door(state: State) -> tuple[State, list[Event]]:
    """The door closes again (the team closed it, or the time is up); the other team's turn."""
    team = state.peek_team
    key = "door_closes" if len(state.peek) == 1 else "doors_close"
    events = [_event(state, "door_closed", {}, TEAM_AUDIENCE[team], key)]
    closed = state.evolve(peek=(), peek_team=-1, origin=-1)
    if team == VILLAGE:
        nxt, more = begin_night(closed)
    elif state.day == 0 and len(state.haunted) < WEREWOLF_TILES:
        nxt, more = closed.evolve(phase=Phase.HAUNT, seq=state.seq + 1), []
    else:
        nxt, more = begin_day(closed)
    return nxt, events + more


def begin_day(state: State) -> tuple[State, list[Event]]:
    """Kikeriki! The Werewolf team closes its eyes; the Village team may look into one house."""
    day = state.day + 1
    data = {"cue": "rooster", "day": day}
    events = [_event(state, "cue", data, PUBLIC, "day")]
    return _turn(state, VILLAGE, Phase.DAY, day=day), events


def begin_night(state: State) -> tuple[State, list[Event]]:
    """Ahuuuu! The Werewolf team wakes; after a lost duel its discovered werewolf escapes."""
    if state.escape >= 0:
        data = {"cue": "howl", "day": state.day, "escape": True}
        events = [_event(state, "cue", data, PUBLIC, "escape_night")]
        return _turn(state, WEREWOLVES, Phase.ESCAPE, origin=state.escape), events
    events = [_event(state, "cue", {"cue": "howl", "day": state.day}, PUBLIC, "night")]
    return _turn(state, WEREWOLVES, Phase.NIGHT), events


def apply_day(state: State, seat: Seat, action: Action) -> tuple[State, list[Event]]:
    """The Village team lifts exactly one door.

    No werewolf: remember what is there. A werewolf: the dice duel. A werewolf on its
    Discovered side: it is caught without a duel (with one in 'too hard for the werewolves').
    """
    house = _house_arg(state, action)
    found = state.houses[house]
    events: list[Event] = []
    if found == WOLF or (found == DISCOVERED and state.config.too_hard):
        return start_duel(state, house, events)
    if found == DISCOVERED:
        return catch_discovered(state, house, events)
    events.append(_event(state, "nothing_found", {}, PUBLIC, "nothing_found"))
    return open_peek(state, VILLAGE, ((house, found, found),)), events


def catch_discovered(state: State, house: int, events: list[Event]) -> tuple[State, list[Event]]:
    """'A werewolf on the Discovered side? You catch it and place it at the edge of the village.'"""
    houses = (*state.houses[:house], EMPTY, *state.houses[house + 1 :])
    caught = state.caught + 1
    new = state.evolve(houses=houses, caught=caught, stats=bump(state.stats, CAUGHT_WITHOUT_DUEL))
    data = {"cue": "caught", "caught": caught}
    events.append(_event(new, "cue", data, PUBLIC, "caught_discovered"))
    if caught >= WEREWOLF_TILES:
        return _win(new, VILLAGE, events)
    return open_peek(new, VILLAGE, ((house, DISCOVERED, EMPTY),)), events


def start_duel(state: State, house: int, events: list[Event]) -> tuple[State, list[Event]]:
    """Gefunden! Both teams wake and race their dice."""
    name = house_name(state, house)
    n = state.config.dice_per_team
    events.append(
        _event(state, "cue", {"cue": "found", "house": name}, PUBLIC, "found", house=name)
    )
    new = state.evolve(
        phase=Phase.DUEL,
        seq=state.seq + 1,
        duel_house=house,
        dice=(n, n),
        rolled=(False, False),
        last_roll=((0, 0), (0, 0)),
        duel_rounds=0,
        stats=bump(state.stats, DUELS),
    )
    return new, events


def _roll(rng: Rng, dice: int, chance: float) -> int:
    return sum(1 for _ in range(dice) if rng.random() < chance)


def apply_duel(state: State, seat: Seat, action: Action) -> tuple[State, list[Event]]:
    """Roll the remaining dice; symbols are set aside. The first team with all symbols wins."""
    chance = state.config.symbol_chance
    rng = Rng(state.rng)
    if state.config.duel is DuelMode.RACE:
        n = state.dice[seat]
        k = _roll(rng, n, chance)
        left = n - k
        dice = (left, state.dice[1]) if seat == VILLAGE else (state.dice[0], left)
        last = ((n, k), state.last_roll[1]) if seat == VILLAGE else (state.last_roll[0], (n, k))
        events = [_roll_event(state, seat, n, k, left)]
        new = state.evolve(rng=rng.state, dice=dice, last_roll=last)
        if left == 0:
            return end_duel(new, seat, events)
        return new, events
    rolled = (True, state.rolled[1]) if seat == VILLAGE else (state.rolled[0], True)
    events = [_event(state, "ready", {"team": TEAMS[seat]}, PUBLIC, "ready", team=seat)]
    if not all(rolled):
        return state.evolve(rolled=rolled), events
    before = state.dice
    results = []
    for team in (VILLAGE, WEREWOLVES):
        n = before[team]
        k = _roll(rng, n, chance)
        results.append((n, k))
        events.append(_roll_event(state, team, n, k, n - k))
    remaining = (before[0] - results[0][1], before[1] - results[1][1])
    new = state.evolve(
        rng=rng.state,
        rolled=(False, False),
        last_roll=(results[0], results[1]),
        duel_rounds=state.duel_rounds + 1,
        dice=remaining,
    )
    if remaining == (0, 0):
        events.append(_event(state, "shared_finish", {}, PUBLIC, "shared_finish"))
        return new.evolve(dice=before), events
    if remaining[VILLAGE] == 0:
        return end_duel(new, VILLAGE, events)
    if remaining[WEREWOLVES] == 0:
        return end_duel(new, WEREWOLVES, events)
    return new, events


def _roll_event(state: State, team: int, n: int, k: int, left: int) -> Event:
    data = {"team": TEAMS[team], "dice": n, "symbols": k, "left": left}
    return _event(state, "roll", data, PUBLIC, "roll", team=team, k=k, n=n, left=left)


def end_duel(state: State, team: int, events: list[Event]) -> tuple[State, list[Event]]:
    """Village wins: the werewolf is caught. Werewolf team wins: it turns to its Discovered
    side, goes back into its house, and escapes in the next night. Then the night begins."""
    house = state.duel_house
    name = house_name(state, house)
    if team == VILLAGE:
        caught = state.caught + 1
        new = state.evolve(
            houses=(*state.houses[:house], EMPTY, *state.houses[house + 1 :]),
            caught=caught,
            duel_house=-1,
            stats=bump(state.stats, DUELS_VILLAGE),
        )
        data = {"cue": "caught", "caught": caught, "house": name, "winner": TEAMS[team]}
        events.append(_event(new, "cue", data, PUBLIC, "duel_village"))
        if caught >= WEREWOLF_TILES:
            return _win(new, VILLAGE, events)
        nxt, more = begin_night(new)
        return nxt, events + more
    new = state.evolve(
        houses=(*state.houses[:house], DISCOVERED, *state.houses[house + 1 :]),
        escape=house,
        duel_house=-1,
        stats=bump(state.stats, DUELS_WEREWOLVES),
    )
    data = {"cue": "hides", "house": name, "winner": TEAMS[team]}
    events.append(_event(new, "cue", data, PUBLIC, "duel_werewolves", house=name))
    nxt, more = begin_night(new)
    return nxt, events + more


def apply_night(state: State, seat: Seat, action: Action) -> tuple[State, list[Event]]:
    """The Werewolf team lifts one door: no werewolf → remember; a werewolf → it may hunt."""
    house = _house_arg(state, action)
    found = state.houses[house]
    if is_wolf(found):
        peek = ((house, found, found),)
        new = state.evolve(
            phase=Phase.MOVE,
            seq=state.seq + 1,
            origin=house,
            peek_team=WEREWOLVES,
            peek=peek,
            notebooks=_noted(state, WEREWOLVES, peek),
        )
        return new, []
    return open_peek(state, WEREWOLVES, ((house, found, found),)), []


def apply_move(state: State, seat: Seat, action: Action) -> tuple[State, list[Event]]:
    """Move the werewolf 1 or 2 houses (no diagonals, turning allowed), or leave it.

    A person there is driven out and the werewolf moves in; another werewolf there → the move
    fails and it stays where it started; an empty house → it must move in.
    """
    origin = state.origin
    wolf = state.houses[origin]
    stats = bump(state.stats, ESCAPES) if state.phase is Phase.ESCAPE else state.stats
    if action == STAY:
        cleared = state.evolve(escape=-1, origin=-1, peek=(), peek_team=-1, stats=stats)
        return begin_day(cleared)
    target = _house_arg(state, action)
    there = state.houses[target]
    stats = bump(stats, MOVES)
    houses = state.houses
    if is_wolf(there):
        stats = bump(stats, BLOCKED)
    else:
        moved = list(houses)
        moved[origin] = EMPTY
        moved[target] = wolf
        houses = tuple(moved)
    new = state.evolve(houses=houses, escape=-1, origin=-1, stats=stats)
    events: list[Event] = []
    if is_person(there):
        new = new.evolve(missing=(*state.missing, there))
        new, events = person_goes_missing(new, there)
        if new.phase is Phase.OVER:
            return new, events
    peek = ((origin, wolf, houses[origin]), (target, there, houses[target]))
    return open_peek(new, WEREWOLVES, peek), events


def apply_peek(state: State, seat: Seat, action: Action) -> tuple[State, list[Event]]:
    return close_door(state)


def apply_wake(state: State, seat: Seat, action: Action) -> tuple[State, list[Event]]:
    """The hand-over screen: the team is awake, the other has turned around."""
    return state.evolve(phase=state.wake_to, wake_team=-1, seq=state.seq + 1), []


_APPLY: dict[Phase, Callable[[State, Seat, Action], tuple[State, list[Event]]]] = {
    Phase.PLACE: apply_place,
    Phase.HAUNT: apply_haunt,
    Phase.DAY: apply_day,
    Phase.PEEK: apply_peek,
    Phase.DUEL: apply_duel,
    Phase.NIGHT: apply_night,
    Phase.MOVE: apply_move,
    Phase.ESCAPE: apply_move,
    Phase.WAKE: apply_wake,
}


# -- the end ---------------------------------------------------------------------------


def outcome(state: State) -> Outcome | None:
    if state.phase is not Phase.OVER:
        return None
    team = TEAMS[state.winner]
    stats: dict[str, object] = {
        "missing": len(state.missing),
        "missing_in_setup": state.missing_setup,
        "caught": state.caught,
        "days": state.day,
    }
    stats.update(zip(STAT_NAMES, state.stats))
    summary = (
        f"The {'Werewolf' if state.winner == WEREWOLVES else 'Village'} team won on day "
        f"{state.day}: {len(state.missing)} missing, {state.caught} of 3 werewolves caught, "
        f"{state.stats[DUELS]} dice duel(s)."
    )
    return Outcome(
        winners=frozenset({state.winner}),
        winning_team=team,
        summary=summary,
        teams={VILLAGE: TEAMS[VILLAGE], WEREWOLVES: TEAMS[WEREWOLVES]},
        roles={VILLAGE: TEAMS[VILLAGE], WEREWOLVES: TEAMS[WEREWOLVES]},
        rounds=state.day,
        stats=stats,
    )

"""The rules of Werwölfe Kids, in the order of the rulebook: setup, day, night, the dice duel
and the end of the game, one function each.

Seat 0 is the Village team and seat 1 the Werewolf team. Every rule returns a new state and
the events it caused; nothing here mutates a state, reads a clock or uses global randomness.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, replace
from typing import Any

from wolfden.engine.errors import ConfigError, IllegalAction, MatchOver, NotYourTurn
from wolfden.engine.rng import Rng, derive_seed
from wolfden.engine.types import (
    PUBLIC,
    Action,
    Audience,
    Deadline,
    Event,
    Outcome,
    Seat,
    Viewer,
    ViewerKind,
)
from wolfden.games.werwoelfe_kids.config import (
    MISSING_TO_WIN,
    WEREWOLF_TILES,
    Config,
    Doors,
    DuelMode,
)
from wolfden.games.werwoelfe_kids.narration import say
from wolfden.games.werwoelfe_kids.pieces import (
    CAST,
    DISCOVERED,
    EASY_DOORS,
    EMPTY,
    NO_DOOR_PICTURE,
    TEAMS,
    VILLAGE,
    WEREWOLVES,
    WOLF,
    Phase,
    house_named,
    is_person,
    is_wolf,
    labels,
    person_named,
    reach,
)
from wolfden.games.werwoelfe_kids.state import (
    Look,
    Note,
    Roll,
    State,
    for_team,
    with_content,
)

CLOSE = Action("close")
ROLL = Action("roll")
STAY = Action("stay")
DONE = Action("done")
SCATTER = Action("scatter")
UNDO = Action("undo")
WAKE = Action("wake")


def _event(
    state: State, type_: str, data: dict[str, object], audience: Audience, key: str, **kw: object
) -> Event:
    return Event(type_, data, audience, say(state.config.language, key, **kw))


def house_name(state: State, house: int) -> str:
    return labels(state.config.rows, state.config.cols)[house]


def _house(state: State, action: Action) -> int:
    """The house an action names ("open B2")."""
    return house_named(state.config.rows, state.config.cols, str(action.args[-1]))


def _count(state: State, counter: str) -> State:
    """The state with one of the match's statistics counted up."""
    stats = state.stats
    return replace(state, stats=replace(stats, **{counter: getattr(stats, counter) + 1}))


# -- setup -------------------------------------------------------------------------------------


def setup(config: Config, seed: int) -> State:
    """Step 1: a village of empty house frames, each with its door tile; the Werewolf team
    closes its eyes and the Village team is about to place its people."""
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
        doors = (NO_DOOR_PICTURE,) * n
    state = State(
        config=config,
        phase=Phase.PLACE,
        seq=0,
        rng=rng.state,
        houses=(EMPTY,) * n,
        doors=doors,
        notebooks=((None,) * n, (None,) * n) if config.notebook else ((), ()),
    )
    if config.handover:
        state = replace(state, phase=Phase.WAKE, wake_team=VILLAGE, wake_to=Phase.PLACE)
    return state


def num_seats(config: Config) -> int:
    return 2


def seat_teams(state: State) -> dict[int, str]:
    """Seat 0 is the village team, seat 1 the werewolf team, in every match."""
    return {VILLAGE: TEAMS[VILLAGE], WEREWOLVES: TEAMS[WEREWOLVES]}


def placed_count(state: State) -> int:
    return sum(1 for content in state.houses if is_person(content))


def _turn(state: State, team: int, phase: Phase, **changes: Any) -> State:
    """Begin ``team``'s next phase, through a hand-over screen on a shared device."""
    if state.config.handover:
        return replace(
            state, phase=Phase.WAKE, wake_team=team, wake_to=phase, seq=state.seq + 1, **changes
        )
    return replace(state, phase=phase, seq=state.seq + 1, **changes)


# -- who acts, and what they may do ------------------------------------------------------------


def actors(state: State) -> frozenset[Seat]:
    phase = state.phase
    if phase in (Phase.PLACE, Phase.DAY):
        return frozenset({VILLAGE})
    if phase in (Phase.HAUNT, Phase.NIGHT, Phase.MOVE, Phase.ESCAPE):
        return frozenset({WEREWOLVES})
    if phase is Phase.PEEK:
        return frozenset({state.peek_team})
    if phase is Phase.DUEL:
        if state.config.duel is DuelMode.RACE:
            return frozenset({VILLAGE, WEREWOLVES})
        return frozenset(team for team in (VILLAGE, WEREWOLVES) if not state.rolled[team])
    if phase is Phase.WAKE:
        return frozenset({state.wake_team})
    return frozenset()


def legal_actions(state: State, seat: Seat | None) -> list[Action]:
    if seat is None or seat not in actors(state):
        return []
    phase = state.phase
    if phase is Phase.PLACE:
        return _legal_place(state)
    if phase is Phase.HAUNT:
        return [Action("haunt", (name,)) for h, name in _names(state) if h not in state.haunted]
    if phase in (Phase.DAY, Phase.NIGHT):
        return [Action("open", (name,)) for _, name in _names(state)]
    if phase in (Phase.MOVE, Phase.ESCAPE):
        names = labels(state.config.rows, state.config.cols)
        targets = reach(state.config.rows, state.config.cols, state.origin)
        return [*(Action("move", (names[t],)) for t in targets), STAY]
    if phase is Phase.PEEK:
        return [CLOSE]
    if phase is Phase.DUEL:
        return [ROLL]
    if phase is Phase.WAKE:
        return [WAKE]
    return []


def _names(state: State) -> list[tuple[int, str]]:
    return list(enumerate(labels(state.config.rows, state.config.cols)))


def _legal_place(state: State) -> list[Action]:
    """Pick a person, then put them into an empty house; undo the last placement; or let the
    app scatter the rest. Done once exactly the right number of people live in the village."""
    room = placed_count(state) < state.config.persons_placed
    out: list[Action] = [SCATTER if room else DONE]
    if room:
        if state.selected >= 0:
            out += [Action("put", (name,)) for h, name in _names(state) if state.houses[h] == EMPTY]
        out += [
            Action("pick", (person.id,))
            for p, person in enumerate(CAST)
            if p not in state.houses and p != state.selected
        ]
    if state.placing:
        out.append(UNDO)
    return out


def deadline(state: State) -> Deadline | None:
    """An open door closes by itself after ``peek_seconds``; no other phase has a timer."""
    if state.phase is Phase.PEEK:
        return Deadline(state.seq, state.config.peek_seconds, CLOSE, "the door closes")
    return None


def timer(state: State, viewer: Viewer) -> Deadline | None:
    """An open door's countdown is shown only to the team that opened it (and to the
    omniscient replay viewer): for the other team, a timer would tell that a door is open,
    and so whether the werewolves found one of theirs at night."""
    dl = deadline(state)
    if dl is None:
        return None
    if viewer.kind is ViewerKind.OMNISCIENT or viewer.seat == state.peek_team:
        return dl
    return None


def phase_seq(state: State) -> int:
    return state.seq


# -- applying an action ------------------------------------------------------------------------


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
    legal = legal_actions(state, seat)
    if action not in legal:
        raise IllegalAction(_why_illegal(state, action, legal))
    return RULES[state.phase](state, seat, action)


def _why_illegal(state: State, action: Action, legal: list[Action]) -> str:
    names = sorted({a.name for a in legal})
    shown = [str(a) for a in legal[:6]]
    more = f" … ({len(legal)} in all)" if len(legal) > 6 else ""
    return (
        f"{action} is not allowed in the {state.phase.value} phase; "
        f"allowed: {', '.join(names)} — e.g. {', '.join(shown)}{more}"
    )


def distribute_people(state: State, seat: Seat, action: Action) -> tuple[State, list[Event]]:
    """Setup step 2: the Village team distributes its people, one house each, then covers
    every house with its door tile ("done"). It may undo its last placement, or let the app
    scatter the people still to place."""
    if action == DONE:
        return cover_village(state)
    if action == SCATTER:
        return scatter_people(state)
    if action == UNDO:
        houses = with_content(state.houses, state.placing[-1], EMPTY)
        return replace(state, houses=houses, placing=state.placing[:-1]), []
    if action.name == "pick":
        return replace(state, selected=person_named(str(action.args[0]))), []
    house = _house(state, action)
    houses = with_content(state.houses, house, state.selected)
    return replace(state, houses=houses, selected=-1, placing=(*state.placing, house)), []


def scatter_people(state: State) -> tuple[State, list[Event]]:
    """The app places the people still to place into empty houses, at random."""
    rng = Rng(state.rng)
    free = [p for p in range(len(CAST)) if p not in state.houses]
    empty = [h for h, content in enumerate(state.houses) if content == EMPTY]
    rng.shuffle(free)
    rng.shuffle(empty)
    to_place = state.config.persons_placed - placed_count(state)
    chosen = list(zip(free[:to_place], empty))
    houses = state.houses
    for person, house in chosen:
        houses = with_content(houses, house, person)
    placing = state.placing + tuple(house for _, house in chosen)
    return replace(state, houses=houses, rng=rng.state, selected=-1, placing=placing), []


def cover_village(state: State) -> tuple[State, list[Event]]:
    """The doors go on; the Village team closes its eyes and the Werewolf team wakes."""
    notebooks = state.notebooks
    if state.config.notebook:
        village_notes = tuple(Note(content, 0) for content in state.houses)
        notebooks = for_team(notebooks, VILLAGE, village_notes)
    events = [_event(state, "narration", {"step": "doors_on"}, PUBLIC, "doors_on")]
    done = _turn(state, WEREWOLVES, Phase.HAUNT, notebooks=notebooks, selected=-1, placing=())
    return done, events


def werewolf_moves_in(state: State, seat: Seat, action: Action) -> tuple[State, list[Event]]:
    """Setup step 3: a werewolf moves into a chosen house; a person there goes missing."""
    house = _house(state, action)
    found = state.houses[house]
    new = replace(
        state,
        houses=with_content(state.houses, house, WOLF),
        haunted=(*state.haunted, house),
    )
    events: list[Event] = []
    if is_person(found):
        new, events = person_goes_missing(new, found)
        new = replace(new, missing_setup=len(new.missing))
        if new.phase is Phase.OVER:
            return new, events
    return open_doors(new, WEREWOLVES, (Look(house, found, WOLF),)), events


def person_goes_missing(state: State, person: int) -> tuple[State, list[Event]]:
    """The person joins the missing row; the 8th missing person ends the game at once."""
    missing = (*state.missing, person)
    new = replace(state, missing=missing)
    data = {"cue": "missing", "person": CAST[person].id, "missing": len(missing)}
    events = [_event(state, "cue", data, PUBLIC, "missing", name=CAST[person].name)]
    if len(missing) >= MISSING_TO_WIN:
        return game_won(new, WEREWOLVES, events)
    return new, events


def open_doors(state: State, team: int, looks: tuple[Look, ...]) -> State:
    """Doors stand open for ``team``: its view shows what is behind them until they close."""
    return replace(
        state,
        phase=Phase.PEEK,
        peek_team=team,
        peek=looks,
        seq=state.seq + 1,
        notebooks=_noted(state, team, looks),
    )


def _noted(
    state: State, team: int, looks: tuple[Look, ...]
) -> tuple[tuple[Note | None, ...], tuple[Note | None, ...]]:
    """With the notebook aid, the team's notes get what it sees behind the open doors."""
    if not state.config.notebook:
        return state.notebooks
    seen = {look.house: Note(look.now, state.day) for look in looks}
    book = tuple(seen.get(h, note) for h, note in enumerate(state.notebooks[team]))
    return for_team(state.notebooks, team, book)


def close_door(state: State) -> tuple[State, list[Event]]:
    """The door closes again (the team closed it, or the time is up); the other team's turn."""
    team = state.peek_team
    key = "door_closes" if len(state.peek) == 1 else "doors_close"
    events = [_event(state, "door_closed", {}, Audience.only(team), key)]
    closed = replace(state, peek=(), peek_team=-1, origin=-1)
    if team == VILLAGE:
        nxt, more = night_falls(closed)
    elif state.day == 0 and len(state.haunted) < WEREWOLF_TILES:
        nxt, more = replace(closed, phase=Phase.HAUNT, seq=state.seq + 1), []
    else:
        nxt, more = day_breaks(closed)
    return nxt, events + more


def close_peek(state: State, seat: Seat, action: Action) -> tuple[State, list[Event]]:
    return close_door(state)


# -- the day -----------------------------------------------------------------------------------


def day_breaks(state: State) -> tuple[State, list[Event]]:
    """Kikeriki! The Werewolf team closes its eyes; the Village team may look into one house."""
    day = state.day + 1
    events = [_event(state, "cue", {"cue": "rooster", "day": day}, PUBLIC, "day")]
    return _turn(state, VILLAGE, Phase.DAY, day=day), events


def look_into_house(state: State, seat: Seat, action: Action) -> tuple[State, list[Event]]:
    """The Village team lifts exactly one door.

    No werewolf: remember what is there. A werewolf: the dice duel. A werewolf on its
    Discovered side: it is caught without a duel (with one in 'too hard for the werewolves').
    """
    house = _house(state, action)
    found = state.houses[house]
    if found == WOLF or (found == DISCOVERED and state.config.too_hard):
        return dice_duel_begins(state, house)
    if found == DISCOVERED:
        return catch_discovered(state, house)
    events = [_event(state, "nothing_found", {}, PUBLIC, "nothing_found")]
    return open_doors(state, VILLAGE, (Look(house, found, found),)), events


def catch_discovered(state: State, house: int) -> tuple[State, list[Event]]:
    """'A werewolf on the Discovered side? You catch it and place it at the edge of the village.'"""
    caught = state.caught + 1
    new = replace(state, houses=with_content(state.houses, house, EMPTY), caught=caught)
    new = _count(new, "caught_without_duel")
    events = [_event(new, "cue", {"cue": "caught", "caught": caught}, PUBLIC, "caught_discovered")]
    if caught >= WEREWOLF_TILES:
        return game_won(new, VILLAGE, events)
    return open_doors(new, VILLAGE, (Look(house, DISCOVERED, EMPTY),)), events


# -- the night ---------------------------------------------------------------------------------


def night_falls(state: State) -> tuple[State, list[Event]]:
    """Ahuuuu! The Werewolf team wakes; after a lost duel its discovered werewolf escapes."""
    if state.escape >= 0:
        data = {"cue": "howl", "day": state.day, "escape": True}
        events = [_event(state, "cue", data, PUBLIC, "escape_night")]
        return _turn(state, WEREWOLVES, Phase.ESCAPE, origin=state.escape), events
    events = [_event(state, "cue", {"cue": "howl", "day": state.day}, PUBLIC, "night")]
    return _turn(state, WEREWOLVES, Phase.NIGHT), events


def lift_door(state: State, seat: Seat, action: Action) -> tuple[State, list[Event]]:
    """The Werewolf team lifts one door: no werewolf → remember; a werewolf → it may hunt."""
    house = _house(state, action)
    found = state.houses[house]
    looks = (Look(house, found, found),)
    if is_wolf(found):
        hunting = replace(
            state,
            phase=Phase.MOVE,
            seq=state.seq + 1,
            origin=house,
            peek_team=WEREWOLVES,
            peek=looks,
            notebooks=_noted(state, WEREWOLVES, looks),
        )
        return hunting, []
    return open_doors(state, WEREWOLVES, looks), []


def move_werewolf(state: State, seat: Seat, action: Action) -> tuple[State, list[Event]]:
    """Move the werewolf 1 or 2 houses (no diagonals, turning allowed), or leave it.

    A person there is driven out and the werewolf moves in; another werewolf there → the move
    fails and it stays where it started; an empty house → it must move in.
    """
    origin = state.origin
    wolf = state.houses[origin]
    if state.phase is Phase.ESCAPE:
        state = _count(state, "escapes")
    if action == STAY:
        return day_breaks(replace(state, escape=-1, origin=-1, peek=(), peek_team=-1))
    target = _house(state, action)
    there = state.houses[target]
    state = _count(state, "werewolf_moves")
    houses = state.houses
    if is_wolf(there):
        state = _count(state, "moves_blocked")
    else:
        houses = with_content(with_content(houses, origin, EMPTY), target, wolf)
    new = replace(state, houses=houses, escape=-1, origin=-1)
    events: list[Event] = []
    if is_person(there):
        new, events = person_goes_missing(new, there)
        if new.phase is Phase.OVER:
            return new, events
    looks = (Look(origin, wolf, houses[origin]), Look(target, there, houses[target]))
    return open_doors(new, WEREWOLVES, looks), events


# -- the dice duel -----------------------------------------------------------------------------


def dice_duel_begins(state: State, house: int) -> tuple[State, list[Event]]:
    """Gefunden! Both teams wake and roll their dice."""
    name = house_name(state, house)
    n = state.config.dice_per_team
    events = [_event(state, "cue", {"cue": "found", "house": name}, PUBLIC, "found", house=name)]
    new = replace(
        state,
        phase=Phase.DUEL,
        seq=state.seq + 1,
        duel_house=house,
        dice=(n, n),
        rolled=(False, False),
        last_roll=(Roll(), Roll()),
        duel_rounds=0,
    )
    return _count(new, "duels"), events


def _symbols(rng: Rng, dice: int, chance: float) -> int:
    """Roll ``dice`` dice: how many land on the symbol side."""
    return sum(1 for _ in range(dice) if rng.random() < chance)


def roll_dice(state: State, seat: Seat, action: Action) -> tuple[State, list[Event]]:
    """Roll the remaining dice; symbols are set aside. The first team with all symbols wins."""
    if state.config.duel is DuelMode.RACE:
        return roll_in_race(state, seat)
    return roll_in_rounds(state, seat)


def roll_in_race(state: State, team: int) -> tuple[State, list[Event]]:
    """Real time: a team rolls whenever it likes; the first to set aside all its dice wins."""
    rng = Rng(state.rng)
    n = state.dice[team]
    k = _symbols(rng, n, state.config.symbol_chance)
    left = n - k
    events = [_roll_event(state, team, n, k, left)]
    new = replace(
        state,
        rng=rng.state,
        dice=for_team(state.dice, team, left),
        last_roll=for_team(state.last_roll, team, Roll(n, k)),
    )
    if left == 0:
        return duel_won(new, team, events)
    return new, events


def roll_in_rounds(state: State, team: int) -> tuple[State, list[Event]]:
    """Once both teams are ready, both roll together; a shared finish rolls the round again."""
    rolled = for_team(state.rolled, team, True)
    events = [_event(state, "ready", {"team": TEAMS[team]}, PUBLIC, "ready", team=team)]
    if not all(rolled):
        return replace(state, rolled=rolled), events
    rng = Rng(state.rng)
    chance = state.config.symbol_chance
    before = state.dice
    rolls = []
    for each in (VILLAGE, WEREWOLVES):
        n = before[each]
        k = _symbols(rng, n, chance)
        rolls.append(Roll(n, k))
        events.append(_roll_event(state, each, n, k, n - k))
    village, werewolves = rolls
    remaining = (village.dice - village.symbols, werewolves.dice - werewolves.symbols)
    new = replace(
        state,
        rng=rng.state,
        rolled=(False, False),
        last_roll=(village, werewolves),
        duel_rounds=state.duel_rounds + 1,
        dice=remaining,
    )
    if remaining == (0, 0):
        events.append(_event(state, "shared_finish", {}, PUBLIC, "shared_finish"))
        return replace(new, dice=before), events
    if remaining[VILLAGE] == 0:
        return duel_won(new, VILLAGE, events)
    if remaining[WEREWOLVES] == 0:
        return duel_won(new, WEREWOLVES, events)
    return new, events


def _roll_event(state: State, team: int, n: int, k: int, left: int) -> Event:
    data = {"team": TEAMS[team], "dice": n, "symbols": k, "left": left}
    return _event(state, "roll", data, PUBLIC, "roll", team=team, k=k, n=n, left=left)


def duel_won(state: State, team: int, events: list[Event]) -> tuple[State, list[Event]]:
    """Village wins: the werewolf is caught. Werewolf team wins: it turns to its Discovered
    side, goes back into its house, and escapes in the next night. Then the night begins."""
    house = state.duel_house
    name = house_name(state, house)
    if team == VILLAGE:
        caught = state.caught + 1
        new = replace(
            state,
            houses=with_content(state.houses, house, EMPTY),
            caught=caught,
            duel_house=-1,
        )
        new = _count(new, "duels_won_by_village")
        data = {"cue": "caught", "caught": caught, "house": name, "winner": TEAMS[team]}
        events.append(_event(new, "cue", data, PUBLIC, "duel_village"))
        if caught >= WEREWOLF_TILES:
            return game_won(new, VILLAGE, events)
    else:
        new = replace(
            state,
            houses=with_content(state.houses, house, DISCOVERED),
            escape=house,
            duel_house=-1,
        )
        new = _count(new, "duels_won_by_werewolves")
        data = {"cue": "hides", "house": name, "winner": TEAMS[team]}
        events.append(_event(new, "cue", data, PUBLIC, "duel_werewolves", house=name))
    nxt, more = night_falls(new)
    return nxt, events + more


# -- the shared device -------------------------------------------------------------------------


def team_wakes(state: State, seat: Seat, action: Action) -> tuple[State, list[Event]]:
    """The hand-over screen: the team is awake, the other has turned around."""
    return replace(state, phase=state.wake_to, wake_team=-1, seq=state.seq + 1), []


RULES: dict[Phase, Callable[[State, Seat, Action], tuple[State, list[Event]]]] = {
    Phase.PLACE: distribute_people,
    Phase.HAUNT: werewolf_moves_in,
    Phase.DAY: look_into_house,
    Phase.PEEK: close_peek,
    Phase.DUEL: roll_dice,
    Phase.NIGHT: lift_door,
    Phase.MOVE: move_werewolf,
    Phase.ESCAPE: move_werewolf,
    Phase.WAKE: team_wakes,
}
"""The rule that takes a team's action in each phase."""


# -- the end of the game -----------------------------------------------------------------------


def game_won(state: State, team: int, events: list[Event]) -> tuple[State, list[Event]]:
    """The Werewolf team has driven out 8 people, or the Village team has caught all 3."""
    key = "win_werewolves" if team == WEREWOLVES else "win_village"
    events.append(_event(state, "cue", {"cue": "win", "winner": TEAMS[team]}, PUBLIC, key))
    over = replace(
        state, phase=Phase.OVER, winner=team, seq=state.seq + 1, peek=(), peek_team=-1, origin=-1
    )
    return over, events


def outcome(state: State) -> Outcome | None:
    if state.phase is not Phase.OVER:
        return None
    stats: dict[str, object] = {
        "missing": len(state.missing),
        "missing_in_setup": state.missing_setup,
        "caught": state.caught,
        "days": state.day,
        **asdict(state.stats),
    }
    summary = (
        f"The {'Werewolf' if state.winner == WEREWOLVES else 'Village'} team won on day "
        f"{state.day}: {len(state.missing)} missing, {state.caught} of 3 werewolves caught, "
        f"{state.stats.duels} dice duel(s)."
    )
    return Outcome(
        winners=frozenset({state.winner}),
        winning_team=TEAMS[state.winner],
        summary=summary,
        teams=seat_teams(state),
        roles=seat_teams(state),
        rounds=state.day,
        stats=stats,
    )

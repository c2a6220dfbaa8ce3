"""The rules of the Werewolf party game (seed 001 and the werewolf rulings), one function each.

``apply`` dispatches on the phase to a small function per kind of step; nothing here reads a
clock or mutates a state it was given.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

from wolfden.engine.errors import ConfigError, IllegalAction, MatchOver, NotYourTurn
from wolfden.engine.rng import Rng
from wolfden.engine.types import PUBLIC, Action, Audience, Deadline, Event, Outcome, Viewer
from wolfden.games.werewolf import narration as say
from wolfden.games.werewolf.actions import (
    ABSTAIN,
    CHECK,
    CLOSE_BALLOT,
    DAWN,
    END_DISCUSSION,
    PICK,
    PROTECT,
    VOTE,
    target_of,
)
from wolfden.games.werewolf.config import MAX_PLAYERS, Config
from wolfden.games.werewolf.script import script_for
from wolfden.games.werewolf.state import (
    Card,
    NightRecord,
    Phase,
    Role,
    State,
    Table,
    Team,
)

NIGHT = Phase.NIGHT
DISCUSSION = Phase.DISCUSSION
VOTE_PHASE = Phase.VOTE
REVOTE = Phase.REVOTE
END = Phase.END
NO_ONE = -1
NOT_VOTED = -2
WEREWOLF = Role.WEREWOLF
SEER = Role.SEER
GUARDIAN = Role.GUARDIAN
VILLAGER = Role.VILLAGER
TOWN = Team.TOWN
WEREWOLVES = Team.WEREWOLVES
# (Reading a member off its enum class, ``Phase.NIGHT``, costs a metaclass lookup every time;
# the module names above are read like any global.)

Result = tuple[State, list[Event]]
# Named tuples made during a match are made with ``_make``: calling the class goes through its
# Python-level ``__new__``, which costs several times as much.
_ONLY = tuple(Audience.only(seat) for seat in range(64))
_KEY = tuple(str(seat) for seat in range(64))
"""Seat numbers as the string keys of JSON objects."""
_TEAM_OF = (Team.TOWN.value, Team.WEREWOLVES.value)
"""A seat's team by whether it was dealt a Werewolf."""
# Where a match reads an enum's value, it reads ``_value_``: the same string without the
# Python-level descriptor behind ``.value``.

# Announcements that never change, made once.
_DAY_BREAKS = Event("narration", {"phase": "day"}, PUBLIC, say.DAY_BREAKS)
_NOBODY_TAKEN = Event("night_result", {"eliminated": None}, PUBLIC, say.NO_ONE)
_DISCUSS = Event("narration", {"phase": "discussion"}, PUBLIC, say.DISCUSS)
_ALL_ABSTAINED = Event("no_elimination", {"why": "abstained"}, PUBLIC, say.NO_ELIMINATION_ABSTAIN)
_TIED_AGAIN = Event("no_elimination", {"why": "tie"}, PUBLIC, say.NO_ELIMINATION_TIE)


# -- seats as bit masks ----------------------------------------------------------------------
# A set of seats is an int with bit ``seat`` set. What follows from a set of seats (the seats
# in order, the actions naming them) is made once per set: there are at most 2**12 of them.


@functools.cache
def seats_in(mask: int) -> tuple[int, ...]:
    """The seats of a mask, in seat order."""
    return tuple(seat for seat in range(mask.bit_length()) if mask >> seat & 1)


@functools.cache
def _keys(seats: tuple[int, ...]) -> tuple[str, ...]:
    """The seats as the string keys of a JSON object."""
    return tuple(_KEY[seat] for seat in seats)


@functools.cache
def _teams(wolves: int, players: int) -> dict[int, str]:
    """Each seat's team, given the seats dealt a Werewolf (copy before handing it out)."""
    return {seat: _TEAM_OF[wolves >> seat & 1] for seat in range(players)}


@functools.cache
def _seat_set(mask: int) -> frozenset[int]:
    return frozenset(seats_in(mask))


@functools.cache
def _without(seats: frozenset[int], seat: int) -> frozenset[int]:
    """The seats still awaited once ``seat`` has acted."""
    return seats - {seat}


@functools.lru_cache(maxsize=4096)
def _protected(choices: tuple[int, ...]) -> tuple[int, ...]:
    """The seats the Guardians' choices protect, in seat order."""
    return tuple(sorted(set(choices) - {NO_ONE}))


@functools.cache
def _pick_menu(targets: int) -> tuple[Action, ...]:
    return tuple(PICK[t] for t in seats_in(targets))


@functools.cache
def _check_menu(targets: int) -> tuple[Action, ...]:
    return tuple(CHECK[t] for t in seats_in(targets))


@functools.cache
def _protect_menu(targets: int) -> tuple[Action, ...]:
    return tuple(PROTECT[t] for t in seats_in(targets))


@functools.cache
def _ballot_menus(candidates: tuple[int, ...], players: int) -> tuple[tuple[Action, ...], ...]:
    """Each seat's menu in a ballot: a vote for every candidate but themselves, then
    abstaining."""
    return tuple((*(VOTE[c] for c in candidates if c != seat), ABSTAIN) for seat in range(players))


def _receipt(seat: int, choice: int) -> Event:
    """The voter's private receipt (the same for every ballot)."""
    target = None if choice == NO_ONE else choice
    return Event("vote_cast", {"target": target}, _ONLY[seat], "Your vote is in.")


_RECEIPTS = tuple(
    tuple(_receipt(seat, choice) for choice in range(NO_ONE, MAX_PLAYERS))
    for seat in range(MAX_PLAYERS)
)
"""Each seat's receipt for each choice, abstaining first: ``_RECEIPTS[seat][choice + 1]``."""

# The seat each targeted action names (anything else takes the slow path and its error).
_PICKS = {a: seat for seat, a in enumerate(PICK)}
_CHECKS = {a: seat for seat, a in enumerate(CHECK)}
_PROTECTS = {a: seat for seat, a in enumerate(PROTECT)}
_VOTES = {a: seat for seat, a in enumerate(VOTE)}
_BALLOT_CHOICES = {**_VOTES, ABSTAIN: NO_ONE}


# -- setup ---------------------------------------------------------------------------------


def deal(
    config: Config, rng: Rng, deck: tuple[Card, ...]
) -> tuple[tuple[Card, ...], frozenset[int]]:
    """Shuffle the cards of the config's ``deck`` and deal one per seat.

    A player who declined a special role gets a Villager whenever the counts allow; those the
    deal could not serve are returned so that each is told privately.
    """
    cards = rng.shuffled(deck)
    if not config.villager_only:
        return tuple(cards), frozenset()
    villagers = [c for c in cards if c.role is VILLAGER]
    others = [c for c in cards if c.role is not VILLAGER]
    hands: dict[int, Card] = {}
    unmet = set()
    for seat in config.villager_only:
        if villagers:
            hands[seat] = villagers.pop()
        else:
            unmet.add(seat)
    rest = rng.shuffled(villagers + others)
    for seat in range(config.players):
        if seat not in hands:
            hands[seat] = rest.pop()
    return tuple(hands[s] for s in range(config.players)), frozenset(unmet)


def setup(config: Config, seed: int) -> State:
    if not isinstance(config, Config):
        raise ConfigError("setup needs a werewolf Config")
    script = script_for(config)
    rng = Rng(seed)
    cards, unmet = deal(config, rng, script.deck)
    s = State.__new__(State)
    d = s.deal = script.deal(cards, unmet)
    t = s.table = Table.__new__(Table)
    t.rng = rng.state
    t.round = 1
    alive = t.alive = (1 << d.players) - 1
    t.living_seats = seats_in(alive)
    t.pack = seats_in(alive & d.wolf_mask)
    t.last_protected = d.no_choices
    t.night_log = ()
    t.candidates = ()
    t.tallies = ()
    t.deaths = ()
    t.night_result = None
    s.seq = 0
    s.seer_checks = ()
    s.result = None
    s.ballot = ()
    _start_night(s, t)
    return s


# -- who acts ------------------------------------------------------------------------------


def redeal(state: State, cards: tuple[Card, ...]) -> State:
    """The same moment with other cards in the seats, and what follows from them (tests set
    tables up this way; ``perturb_hidden`` swaps cards the viewer cannot tell apart)."""
    s = state.copy()
    d = s.deal = state.deal.with_cards(cards)
    t = s.table = state.table.copy()
    t.pack = seats_in(t.alive & d.wolf_mask)
    return s


def actors(state: State) -> frozenset[int]:
    return state.pending


def legal_actions(state: State, seat: int | None) -> list[Action]:
    if seat is None:
        return [END_DISCUSSION] if state.phase is DISCUSSION else []
    if seat not in state.pending:
        return []
    t = state.table
    if state.phase is not NIGHT:
        return list(t.menus[seat])
    # A night role's menu (written out here: a helper's call would cost about as much).
    d = state.deal
    role = d.roles[seat]
    alive = t.alive
    if role is WEREWOLF:
        return list(_pick_menu(alive & ~d.wolf_mask))
    if role is SEER:
        return list(_check_menu(alive & ~(1 << seat)))
    barred = t.last_protected[seat]
    return list(_protect_menu(alive if barred == NO_ONE else alive & ~(1 << barred)))


@functools.lru_cache(maxsize=4096)
def _deadline(seq: int, seconds: float, action: Action, label: str) -> Deadline:
    """A phase's deadline, made once: a dict look-up costs far less than building the tuple."""
    return Deadline(seq, seconds, action, label)


def deadline(state: State) -> Deadline | None:
    phase = state.phase
    config = state.deal.config
    if phase is NIGHT:
        # When every night action is in, the night still lasts its minimum length.
        seconds = config.min_night_seconds if not state.pending else config.night_seconds
        return _deadline(state.seq, seconds, DAWN, "night")
    if phase is DISCUSSION:
        return _deadline(state.seq, config.discussion_seconds, END_DISCUSSION, "discussion")
    if phase is END:
        return None
    return _deadline(state.seq, config.vote_seconds, CLOSE_BALLOT, phase._value_)


def timer(state: State, viewer: Viewer) -> Deadline | None:
    """The countdown everyone is shown. At night it is always the longest night: the moment
    the last night action comes in would otherwise tell the table how many roles still act."""
    if state.phase is NIGHT:
        return _deadline(state.seq, state.deal.config.night_seconds, DAWN, "night")
    return deadline(state)


def phase_seq(state: State) -> int:
    return state.seq


# -- apply ---------------------------------------------------------------------------------


def apply(state: State, seat: int | None, action: Action) -> Result:
    phase = state.phase
    if phase is END:
        raise MatchOver("the game is over; start a new one to play again")
    if seat is None:
        return _moderator(state, action)
    if seat not in state.pending:
        raise NotYourTurn(_not_your_turn(state, seat))
    if phase is NIGHT:
        role = state.deal.roles[seat]
        if role is WEREWOLF:
            return werewolf_pick(state, seat, action)
        if role is SEER:
            return seer_check(state, seat, action)
        if role is GUARDIAN:
            return guardian_protect(state, seat, action)
        raise IllegalAction("Villagers sleep through the night")
    return cast_vote(state, seat, action)


def _not_your_turn(state: State, seat: int) -> str:
    n = state.deal.players
    if not (isinstance(seat, int) and 0 <= seat < n):
        return f"there is no seat {seat}; seats are 0 to {n - 1}"
    if not state.is_alive(seat):
        return "eliminated players watch; they cannot act"
    if state.phase is NIGHT:
        return "you have nothing (more) to do tonight"
    if state.phase is DISCUSSION:
        return "it is time to discuss; the ballot opens when the discussion ends"
    return "you have already voted in this ballot"


def _moderator(state: State, action: Action) -> Result:
    phase = state.phase
    if phase is NIGHT and action == DAWN:
        return resolve_night(state)
    if phase is DISCUSSION and action == END_DISCUSSION:
        return open_ballot(state, state.table.living_seats, revote=False)
    if phase in (Phase.VOTE, Phase.REVOTE) and action == CLOSE_BALLOT:
        return resolve_ballot(state)
    allowed = {
        Phase.NIGHT: "dawn (by the clock)",
        Phase.DISCUSSION: "end_discussion",
        Phase.VOTE: "close_ballot (by the clock)",
        Phase.REVOTE: "close_ballot (by the clock)",
    }[phase]
    raise IllegalAction(f"the moderator cannot '{action}' now; during the {phase.value}: {allowed}")


# -- the night -----------------------------------------------------------------------------


def _start_night(s: State, t: Table) -> tuple[Event, ...]:
    """Mutates a fresh copy and its fresh table: the night begins, every role is called."""
    d = s.deal
    s.phase = NIGHT
    s.seq += 1
    s.picks = s.prev_picks = s.checked = s.guard_choice = d.no_choices
    s.pick_round = 1
    s.locked = NO_ONE
    s.pending = _seat_set(t.alive & d.caller_mask)
    t.menus = ()
    return d.night_calls


def night_script(state: State) -> list[str]:
    return [e.text for e in state.deal.night_calls]


def werewolf_pick(state: State, seat: int, action: Action) -> Result:
    """Each living Werewolf picks a living non-Werewolf; the pack sees every pick at once.

    When all living Werewolves agree the target is locked. If they disagree, they pick again
    (seeing the last picks), up to ``pack_rounds`` rounds; then the most-picked player is taken,
    a tie broken by the seeded generator.
    """
    d = state.deal
    t = state.table
    alive = t.alive
    target = _PICKS.get(action)
    if target is None or not (alive & ~d.wolf_mask) >> target & 1:
        target = _pick_target(state, action)
    s = state.copy()
    # A per-seat tuple with one seat changed: through a list is the cheapest way.
    new_picks = list(state.picks)
    new_picks[seat] = target
    picks = s.picks = tuple(new_picks)
    pending = s.pending = _without(state.pending, seat)
    pack = t.pack
    pick_round = state.pick_round
    script = script_for(d.config)
    pack_mask = alive & d.wolf_mask
    events = [script.picks[seat, target, pick_round, pack_mask]]
    if pending.isdisjoint(pack):  # every living Werewolf has picked in this round
        # Only Werewolves pick, so the pack agrees when every pick names this target.
        if picks.count(target) == len(pack):
            events.append(_lock(s, target))
        elif pick_round < d.pack_rounds:
            s.prev_picks = picks
            s.picks = d.no_choices
            pick_round = s.pick_round = pick_round + 1
            s.pending = pending.union(pack)
            events.append(script.disagreements[pick_round, pack_mask])
        else:
            rng = Rng(t.rng)
            victim = most_picked([picks[w] for w in pack], rng)
            t = s.table = t.copy()
            t.rng = rng.state
            events.append(_lock(s, victim))
    return s, events


def _named_seat(
    state: State, action: Action, known: dict[Action, int], name: str, usage: str
) -> int:
    """The seat a night action names (from the prebuilt ``known`` actions, else parsed), or
    IllegalAction with ``usage`` when it is not ``name N``; whether that seat is allowed is the
    caller's rule."""
    players = state.deal.players
    target = known.get(action)
    if target is None or target >= players:
        if action.name != name:
            raise IllegalAction(usage)
        target = target_of(action, players)
    return target


def _pick_target(state: State, action: Action) -> int:
    """The seat a pick names when it is not a living non-Werewolf's ``PICK``: the error
    saying what is wrong, or (an equal action made elsewhere) the seat."""
    target = _named_seat(
        state,
        action,
        _PICKS,
        "pick",
        "a Werewolf's night action is 'pick N' (a living non-Werewolf)",
    )
    if not (state.table.alive & ~state.deal.wolf_mask) >> target & 1:
        raise IllegalAction("the pack picks a living player who is not a Werewolf")
    return target


def _lock(s: State, target: int) -> Event:
    s.locked = target
    d = s.deal
    return script_for(d.config).locks[target, s.table.alive & d.wolf_mask]


def most_picked(picks: list[int], rng: Rng) -> int:
    """The most-picked player; a tie is broken by the seeded generator; no pick at all: no one."""
    counts: dict[int, int] = {}
    for p in picks:
        if p != NO_ONE:
            counts[p] = counts.get(p, 0) + 1
    if not counts:
        return NO_ONE
    top = max(counts.values())
    leaders = sorted(t for t, c in counts.items() if c == top)
    return leaders[0] if len(leaders) == 1 else leaders[rng.below(len(leaders))]


def seer_check(state: State, seat: int, action: Action) -> Result:
    """The Seer checks one living player other than themselves and learns the answer at once."""
    t = state.table
    target = _CHECKS.get(action)
    if target is None or target == seat or not t.alive >> target & 1:
        target = _check_target(state, seat, action)
    s = state.copy()
    checked = list(state.checked)
    checked[seat] = target
    s.checked = tuple(checked)
    d = state.deal
    is_wolf = d.roles[target] is WEREWOLF
    s.seer_checks = (*state.seer_checks, (seat, t.round, target, is_wolf))
    s.pending = _without(state.pending, seat)
    return s, [script_for(d.config).answers[seat, target, is_wolf]]


def _check_target(state: State, seat: int, action: Action) -> int:
    """The seat a check names when it is not another living player's ``CHECK``: the error
    saying what is wrong, or (an equal action made elsewhere) the seat."""
    target = _named_seat(
        state,
        action,
        _CHECKS,
        "check",
        "the Seer's night action is 'check N' (another living player)",
    )
    if target == seat or not state.table.alive >> target & 1:
        raise IllegalAction("the Seer checks a living player other than themselves")
    return target


def guardian_protect(state: State, seat: int, action: Action) -> Result:
    """The Guardian protects a living player, themselves allowed, never last night's choice."""
    t = state.table
    target = _PROTECTS.get(action)
    if target is None or not t.alive >> target & 1 or target == t.last_protected[seat]:
        target = _protect_target(state, seat, action)
    s = state.copy()
    choices = list(state.guard_choice)
    choices[seat] = target
    s.guard_choice = tuple(choices)
    s.pending = _without(state.pending, seat)
    return s, [script_for(state.deal.config).protections[seat, target]]


def _protect_target(state: State, seat: int, action: Action) -> int:
    """The seat a protection names when it is not an allowed ``PROTECT``: the error saying
    what is wrong, or (an equal action made elsewhere) the seat."""
    target = _named_seat(
        state,
        action,
        _PROTECTS,
        "protect",
        "the Guardian's night action is 'protect N' (a living player)",
    )
    t = state.table
    if not t.alive >> target & 1:
        raise IllegalAction("the Guardian protects a living player")
    if target == t.last_protected[seat]:
        raise IllegalAction(
            f"the Guardian cannot protect {state.deal.names[target]} two nights running"
        )
    return target


def resolve_night(state: State) -> Result:
    """Dawn: the pack's target is eliminated unless a Guardian protected them.

    A save is never announced: the day only hears that no one was eliminated.
    """
    s = state.copy()
    t = s.table = state.table.copy()
    pack = t.pack
    picks = s.picks
    target = s.locked
    if target == NO_ONE:
        latest = [picks[w] if picks[w] != NO_ONE else s.prev_picks[w] for w in pack]
        rng = Rng(t.rng)
        target = most_picked(latest, rng)
        t.rng = rng.state
    # Only living Guardians choose at night, so tonight's choices are exactly the protections,
    # and they are what each Guardian may not repeat tomorrow.
    choices = s.guard_choice
    protected = _protected(choices)
    t.last_protected = choices
    this_round = t.round
    # Tonight's checks are the last ones made: one per Seer whose check is in.
    checked_tonight = len(s.checked) - s.checked.count(NO_ONE)
    checks = s.seer_checks[len(s.seer_checks) - checked_tonight :]
    night = NightRecord._make((this_round, target, protected, checks, pack, picks))
    t.night_log = (*t.night_log, night)
    events = [_DAY_BREAKS]
    if target != NO_ONE and target not in protected:
        events.append(_eliminate(s, t, target, by_vote=False))
        t.night_result = {"eliminated": target, "card": s.deal.cards[target].id}
    else:
        events.append(_NOBODY_TAKEN)
        t.night_result = {"eliminated": None}
    if _check_win(s, events):
        return s, events
    s.phase = DISCUSSION
    s.seq += 1
    s.pending = frozenset()
    events.append(_DISCUSS)
    return s, events


# -- the day -------------------------------------------------------------------------------


def open_ballot(state: State, candidates: tuple[int, ...], *, revote: bool) -> Result:
    s = state.copy()
    _open_ballot(s, state.table.copy(), candidates, revote)
    return s, [script_for(s.deal.config).ballots[candidates, revote]]


def _open_ballot(s: State, t: Table, candidates: tuple[int, ...], revote: bool) -> None:
    """Mutates a fresh copy and ``t``, a fresh table it takes on."""
    d = s.deal
    s.table = t
    s.phase = REVOTE if revote else VOTE_PHASE
    s.seq += 1
    t.candidates = candidates
    t.menus = _ballot_menus(candidates, d.players)
    s.ballot = d.no_votes
    s.pending = _seat_set(t.alive)


def cast_vote(state: State, seat: int, action: Action) -> Result:
    """A secret ballot: each living player votes for a candidate other than themselves or
    abstains. The ballot closes when everyone has voted, or at its deadline."""
    choice = _BALLOT_CHOICES.get(action)
    if (
        choice is None
        or choice == seat
        or (choice != NO_ONE and choice not in state.table.candidates)
    ):
        choice = _ballot_choice(state, seat, action)
    s = state.copy()
    ballot = list(state.ballot)
    ballot[seat] = choice
    s.ballot = tuple(ballot)
    pending = s.pending = _without(state.pending, seat)
    events = [_RECEIPTS[seat][choice + 1]]
    if not pending:
        _close_ballot(s, state.table.copy(), events)
    return s, events


def _ballot_choice(state: State, seat: int, action: Action) -> int:
    """The seat a vote names when it is not an allowed ``VOTE``: the error saying what is
    wrong, or (an equal action made elsewhere) the seat; ``NO_ONE`` for abstaining."""
    if action == ABSTAIN:
        return NO_ONE
    players = state.deal.players
    choice = _VOTES.get(action, NOT_VOTED)
    if choice == NOT_VOTED or choice >= players:
        if action.name != "vote":
            raise IllegalAction("in a ballot you may 'vote N' or 'abstain'")
        choice = target_of(action, players)
    if choice == seat:
        raise IllegalAction("you cannot vote for yourself; vote for someone else or abstain")
    candidates = state.table.candidates
    if choice not in candidates:
        names = ", ".join(state.deal.names[c] for c in candidates if c != seat)
        raise IllegalAction(f"this ballot is between {names}; vote for one of them or abstain")
    return choice


def resolve_ballot(state: State) -> Result:
    """The ballot's deadline: it closes with the votes cast so far."""
    s = state.copy()
    events: list[Event] = []
    _close_ballot(s, state.table.copy(), events)
    return s, events


def _close_ballot(s: State, t: Table, events: list[Event]) -> None:
    """Mutates a fresh copy and ``t``, a fresh table it takes on. Plurality eliminates. A tie
    → one revote among the tied; a second tie or all abstaining → no elimination. A missing
    vote counts as an abstention."""
    s.table = t
    revote = s.phase is REVOTE
    ballot = s.ballot  # only the living vote, so the other seats are NOT_VOTED
    living = t.living_seats
    candidates = t.candidates
    # One pass over the living counts the votes each seat got and notes each living
    # player's vote for a public tally (an abstention or a missing vote, below 0, is None).
    got = [0] * s.deal.players
    votes: dict[str, int | None] = {}
    for voter, key in zip(living, _keys(living)):
        choice = ballot[voter]
        if choice >= 0:
            got[choice] += 1
            votes[key] = choice
        else:
            votes[key] = None
    counts = tuple(map(got.__getitem__, candidates))
    tally: dict[str, Any] = {
        "round": t.round,
        "revote": revote,
        "counts": dict(zip(_keys(candidates), counts)),
        "abstained": len(living) - sum(counts),  # a missing vote counts as an abstention
    }
    if s.deal.config.public_ballots:
        tally["votes"] = votes
    t.tallies = (*t.tallies, tally)
    s.pending = frozenset()
    top = max(counts)
    script = script_for(s.deal.config)
    events.append(Event._make(("tally", tally, PUBLIC, script.tally_line(candidates, counts))))
    if not top:
        events.append(_ALL_ABSTAINED)
    elif counts.count(top) == 1:
        events.append(_eliminate(s, t, candidates[counts.index(top)], by_vote=True))
        if _check_win(s, events):
            return
    elif not revote:
        leaders = tuple([c for c, n in zip(candidates, counts) if n == top])
        _open_ballot(s, t, leaders, revote=True)
        events.append(script.ballots[leaders, True])
        return
    else:
        events.append(_TIED_AGAIN)
    events += _end_of_day(s, t)


def _end_of_day(s: State, t: Table) -> Sequence[Event]:
    limit = s.deal.config.round_limit
    if limit and t.round >= limit:
        return _finish(s, None, say.DRAW)
    t.round += 1
    return _start_night(s, t)


# -- eliminations and the end --------------------------------------------------------------


def _eliminate(s: State, t: Table, seat: int, *, by_vote: bool) -> Event:
    """Every elimination reveals the role publicly. (Mutates ``s``'s fresh table ``t``.)"""
    d = s.deal
    alive = t.alive = t.alive & ~(1 << seat)
    t.living_seats = seats_in(alive)
    if d.wolf_mask >> seat & 1:
        t.pack = seats_in(alive & d.wolf_mask)  # the living Werewolves, kept with the living
    t.deaths = (*t.deaths, (t.round, seat, "vote" if by_vote else "night"))
    return script_for(d.config).eliminations[seat, d.cards[seat].id, by_vote]


def winner(s: State) -> Team | None:
    """Town wins when no Werewolf lives; Werewolves win when they are at least as many as the
    living non-Werewolves (the Seer and Guardian included)."""
    alive = s.table.alive
    wolves = (alive & s.deal.wolf_mask).bit_count()
    others = alive.bit_count() - wolves
    if wolves == 0:
        return TOWN
    if wolves >= others:
        return WEREWOLVES
    return None


def _check_win(s: State, events: list[Event]) -> bool:
    team = winner(s)
    if team is None:
        return False
    events += _finish(s, team, say.TOWN_WINS if team is TOWN else say.WOLVES_WIN)
    return True


def _finish(s: State, team: Team | None, line: str) -> list[Event]:
    s.phase = END
    s.seq += 1
    s.pending = frozenset()
    s.result = (team, line)
    cards = s.deal.cards
    reveal = {_KEY[seat]: {"role": c.role._value_, "card": c.id} for seat, c in enumerate(cards)}
    winner = team._value_ if team else None
    return [Event._make(("game_over", {"winner": winner, "roles": reveal}, PUBLIC, line))]


def outcome(state: State) -> Outcome | None:
    result = state.result
    if result is None:
        return None
    team, line = result
    d = state.deal
    roles = [role._value_ for role in d.roles]
    wolves = d.wolf_mask
    if team is None:
        winners: frozenset[int] = frozenset()
    else:
        everyone = (1 << d.players) - 1
        winners = _seat_set(wolves if team is WEREWOLVES else everyone & ~wolves)
    t = state.table
    deaths = t.deaths
    first = deaths[0] if deaths else None
    stats = {
        "first_death_role": roles[first[1]] if first else None,
        "first_death_by": first[2] if first else None,
        "deaths": [
            {"round": r, "seat": seat, "role": roles[seat], "by": by} for r, seat, by in deaths
        ],
        "survivors": len(t.living_seats),
    }
    return Outcome.filled(
        winners,
        team._value_ if team else None,
        line,
        dict(_teams(wolves, d.players)),
        dict(enumerate(roles)),
        t.round,
        stats,
    )

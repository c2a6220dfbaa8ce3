"""The information wall: what each viewer may know, and nothing more.

- A player sees their own card; a Werewolf also sees the pack and its picks; a Seer the answers
  they received; a Guardian whom they protect and whom they may not protect tonight.
- Everyone sees who is alive, every revealed card, the announcements, and each closed ballot's
  tally (with who voted for whom when ``public_ballots`` is on); never an open ballot's votes.
- Eliminated players watch with open eyes by default (``dead_see_all``): every role and action.
- Spectators and the shared table screen see only what is public.
- After the end every card is public; the omniscient viewer (replays) sees everything.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from wolfden.engine.rng import Rng
from wolfden.engine.types import Event, Viewer, ViewerKind, filter_events
from wolfden.games.werewolf import narration as say
from wolfden.games.werewolf.rules import NO_ONE, NOT_VOTED, night_script, redeal, timer
from wolfden.games.werewolf.state import NightRecord, Phase, Role, State


def sees_all(state: State, viewer: Viewer) -> bool:
    if viewer.kind is ViewerKind.OMNISCIENT:
        return True
    seat = viewer.seat
    return (
        viewer.kind is ViewerKind.SEAT
        and seat is not None
        and 0 <= seat < state.config.players
        and not state.is_alive(seat)
        and state.config.dead_see_all
    )


def _phase_lines(state: State) -> list[str]:
    if state.phase is Phase.NIGHT:
        return night_script(state)
    if state.phase is Phase.DISCUSSION:
        return [say.DISCUSS]
    if state.phase is Phase.VOTE:
        return [say.BALLOT_OPEN]
    if state.phase is Phase.REVOTE:
        return [say.REVOTE_OPEN]
    return [state.result[1]] if state.result else []


class _Shared:
    """The parts of a state's views that do not depend on the viewer, worked out once per state
    (a server computes the views of every seat of the same state one after the other)."""

    __slots__ = (
        "ballot",
        "deal",
        "ended",
        "hidden",
        "n",
        "narration",
        "night",
        "open",
        "pack",
        "phase",
        "revealed",
        "timer",
        "wolves",
    )

    def __init__(self, state: State) -> None:
        config = state.config
        n = self.n = config.players
        self.ended = state.phase is Phase.END
        self.phase = state.phase.value
        self.night = state.phase is Phase.NIGHT
        self.revealed = frozenset(s for _, s, _ in state.deaths)
        self.pack = [s for s in range(n) if state.roles[s] is Role.WEREWOLF]
        self.wolves = frozenset(self.pack)
        alive = state.alive
        # each seat as a viewer who does not know its card sees it, and as one who does
        self.hidden = tuple(
            {"seat": s, "name": config.name(s), "alive": bool(alive >> s & 1)} for s in range(n)
        )
        self.open = tuple(
            {**entry, "role": state.roles[s].value, "card": state.cards[s].id}
            for s, entry in enumerate(self.hidden)
        )
        self.deal = {
            "werewolves": config.werewolf_count,
            "seers": config.seer_count,
            "guardians": config.guardian_count,
            "villagers": config.villager_count,
        }
        self.narration = _phase_lines(state)
        dl = timer(state, Viewer(ViewerKind.SPECTATOR))  # the same countdown for everyone
        self.timer = None if dl is None else {"label": dl.label, "seconds": dl.seconds}
        self.ballot: dict[str, Any] | None = (
            {
                "candidates": list(state.candidates),
                "revote": state.phase is Phase.REVOTE,
                "cast": sum(1 for s in state.living() if state.ballot[s] != NOT_VOTED),
                "voters": len(state.living()),
            }
            if state.phase in (Phase.VOTE, Phase.REVOTE)
            else None
        )


_last: tuple[State, _Shared] | None = None
"""The last state viewed and its shared parts. States are never changed once made (``apply``
returns a new one), so the same object always has the same shared parts."""


def _shared(state: State) -> _Shared:
    global _last
    last = _last
    if last is not None and last[0] is state:
        return last[1]
    shared = _Shared(state)
    _last = (state, shared)
    return shared


def view(state: State, viewer: Viewer) -> dict[str, Any]:
    c = _shared(state)
    n = c.n
    ended = c.ended
    everything = ended or sees_all(state, viewer)
    seat = viewer.seat if viewer.kind is ViewerKind.SEAT else None
    if seat is not None and not 0 <= seat < n:
        seat = None
    if everything:
        seats = [dict(entry) for entry in c.open]
    else:
        known = c.revealed
        if seat is not None:
            known = known | c.wolves | {seat} if seat in c.wolves else known | {seat}
        hidden, shown = c.hidden, c.open
        seats = [dict(shown[s] if s in known else hidden[s]) for s in range(n)]
    timer_ = c.timer
    out: dict[str, Any] = {
        "game": "werewolf",
        "phase": c.phase,
        "round": state.round,
        "players": n,
        "seats": seats,
        "deal": dict(c.deal),
        "narration": list(c.narration),
        "night_result": state.night_result,
        "tallies": list(state.tallies),
        "timer": None if timer_ is None else dict(timer_),
    }
    if c.ballot is not None:
        out["ballot"] = {**c.ballot, "candidates": list(c.ballot["candidates"])}
    if seat is not None:
        out["you"] = _private(state, seat, c)
    if everything:
        out["night_log"] = [_night_json(night) for night in state.night_log]
        if state.phase is Phase.NIGHT:
            out["tonight"] = {
                "picks": {str(w): p for w, p in enumerate(state.picks) if p != NO_ONE},
                "locked": None if state.locked == NO_ONE else state.locked,
                "checked": {str(w): p for w, p in enumerate(state.checked) if p != NO_ONE},
                "protected": {str(w): p for w, p in enumerate(state.guard_choice) if p != NO_ONE},
            }
        if state.phase in (Phase.VOTE, Phase.REVOTE):
            out["ballot"]["votes"] = {
                str(v): (None if choice == NO_ONE else choice)
                for v, choice in enumerate(state.ballot)
                if choice != NOT_VOTED
            }
    if ended:
        team = state.result[0] if state.result else None
        out["winner"] = team.value if team else None
        out["summary"] = state.result[1] if state.result else ""
    return out


def _night_json(night: NightRecord) -> dict[str, Any]:
    picks = night.picks
    return {
        "round": night.round,
        "target": None if night.target == NO_ONE else night.target,
        "protected": list(night.protected),
        "checks": [{"seer": seer, "target": t, "werewolf": w} for seer, _, t, w in night.checks],
        "picks": {str(w): p for w in night.pack if (p := picks[w]) != NO_ONE},
    }


def _private(state: State, seat: int, c: _Shared) -> dict[str, Any]:
    """What only this seat knows (and the dead or the omniscient, who know everything)."""
    card = state.cards[seat]
    role = card.role
    entry = c.open[seat]
    me: dict[str, Any] = {
        "seat": seat,
        "name": entry["name"],
        "alive": entry["alive"],
        "role": role.value,
        "card": card.id,
        "card_label": card.label,
        "card_text": card.text,
        "your_turn": seat in state.pending,
    }
    if seat in state.unmet_requests:
        me["deal_note"] = (
            "There were not enough Villager cards for everyone who asked for one, "
            "so you were dealt another role."
        )
    night = c.night
    if role is Role.WEREWOLF:
        pack = c.pack
        me["pack"] = list(pack)
        if night:
            me["pack_picks"] = {str(w): state.picks[w] for w in pack if state.picks[w] != NO_ONE}
            me["pack_previous_picks"] = {
                str(w): state.prev_picks[w] for w in pack if state.prev_picks[w] != NO_ONE
            }
            me["pick_round"] = state.pick_round
            me["pick_rounds"] = state.config.pack_rounds
            me["locked"] = None if state.locked == NO_ONE else state.locked
    elif role is Role.SEER:
        me["checks"] = [
            {"round": r, "target": t, "werewolf": w}
            for seer, r, t, w in state.seer_checks
            if seer == seat
        ]
        if night:
            me["checked_tonight"] = None if state.checked[seat] == NO_ONE else state.checked[seat]
    elif role is Role.GUARDIAN:
        barred = state.last_protected[seat]
        me["cannot_protect"] = None if barred == NO_ONE else barred
        if night:
            choice = state.guard_choice[seat]
            me["protecting"] = None if choice == NO_ONE else choice
    if c.ballot is not None:
        vote = state.ballot[seat]
        me["voted"] = vote != NOT_VOTED
        me["vote"] = vote if vote >= 0 else None
    return me


def visible_events(state: State, events: Sequence[Event], viewer: Viewer) -> list[dict[str, Any]]:
    return filter_events(events, viewer, sees_all=sees_all(state, viewer))


# -- what may change without a viewer noticing ---------------------------------------------


def perturb_hidden(state: State, viewer: Viewer, rng: Rng) -> State | None:
    """A state this viewer cannot tell apart from ``state``, or None when it sees everything.

    It swaps the cards of two players whose roles the viewer cannot tell apart, moves a
    private night choice, or changes a vote in an open ballot. The difference stays hidden
    through any one seat action: during a ballot only while at least two votes are missing
    (the last vote closes the ballot and may reveal a card).
    """
    if state.phase is Phase.END or sees_all(state, viewer):
        return None
    seat = viewer.seat if viewer.kind is ViewerKind.SEAT else None
    ballot = state.phase in (Phase.VOTE, Phase.REVOTE)
    quiet = not ballot or len(state.pending) >= 2
    kinds: list[str] = []
    pairs = _swappable_pairs(state, seat) if quiet else []
    if pairs:
        kinds.append("swap")
    choices = _night_choices_hidden_from(state, seat)
    if choices:
        kinds.append("night")
    voters = (
        [v for v in state.living() if v != seat and state.ballot[v] != NOT_VOTED]
        if (ballot and quiet)
        else []
    )
    if voters:
        kinds.append("vote")
    if not kinds:
        return None
    kind = kinds[rng.below(len(kinds))]
    if kind == "swap":
        a, b = pairs[rng.below(len(pairs))]
        return _swap_seats(state, a, b)
    if kind == "night":
        return _move_night_choice(state, choices[rng.below(len(choices))], rng)
    return _change_vote(state, voters[rng.below(len(voters))], rng)


def _swappable_pairs(state: State, seat: int | None) -> list[tuple[int, int]]:
    """Pairs of living players whose roles differ but look alike to this viewer."""
    roles = state.roles
    wolf_view = seat is not None and roles[seat] is Role.WEREWOLF
    checked = {t for seer, _, t, _ in state.seer_checks if seer == seat}
    hidden = [
        s for s in state.living() if s != seat and not (wolf_view and roles[s] is Role.WEREWOLF)
    ]
    locked = state.locked if state.phase is Phase.NIGHT else NO_ONE
    pairs = []
    for i, a in enumerate(hidden):
        for b in hidden[i + 1 :]:
            if roles[a] is roles[b] or locked in (a, b):
                continue
            if (a in checked or b in checked) and (roles[a] is Role.WEREWOLF) != (
                roles[b] is Role.WEREWOLF
            ):
                continue
            pairs.append((a, b))
    return pairs


def _swap(values: tuple[Any, ...], a: int, b: int) -> tuple[Any, ...]:
    out = list(values)
    out[a], out[b] = out[b], out[a]
    return tuple(out)


def _swap_seats(state: State, a: int, b: int) -> State:
    """Everything that belongs to a role moves with the card."""
    s = redeal(state, _swap(state.cards, a, b))
    s.picks = _swap(state.picks, a, b)
    s.prev_picks = _swap(state.prev_picks, a, b)
    s.checked = _swap(state.checked, a, b)
    s.guard_choice = _swap(state.guard_choice, a, b)
    s.table.last_protected = _swap(state.last_protected, a, b)  # redeal copied the table
    s.seer_checks = tuple(
        ({a: b, b: a}.get(seer, seer), r, t, w) for seer, r, t, w in state.seer_checks
    )
    if state.phase is Phase.NIGHT and (a in state.pending) != (b in state.pending):
        s.pending = state.pending ^ {a, b}
    return s


def _night_choices_hidden_from(state: State, seat: int | None) -> list[tuple[str, int]]:
    if state.phase is not Phase.NIGHT:
        return []
    out = []
    for s in state.living():
        if s == seat:
            continue
        role = state.roles[s]
        if role is Role.GUARDIAN and state.guard_choice[s] != NO_ONE:
            out.append(("guard_choice", s))
        elif role is Role.SEER and state.checked[s] != NO_ONE:
            out.append(("checked", s))
    return out


def _move_night_choice(state: State, choice: tuple[str, int], rng: Rng) -> State | None:
    field, who = choice
    living = state.living()
    current = getattr(state, field)[who]
    if field == "guard_choice":
        targets = [t for t in living if t not in (current, state.last_protected[who])]
    else:
        targets = [t for t in living if t not in (current, who)]
    if not targets:
        return None
    new_target = targets[rng.below(len(targets))]
    new = state.copy()
    values = list(getattr(state, field))
    values[who] = new_target
    setattr(new, field, tuple(values))
    if field == "checked":
        is_wolf = state.roles[new_target] is Role.WEREWOLF
        new.seer_checks = tuple(
            (sr, r, new_target, is_wolf) if (sr == who and r == state.round) else (sr, r, t, w)
            for sr, r, t, w in state.seer_checks
        )
    return new


def _change_vote(state: State, voter: int, rng: Rng) -> State | None:
    current = state.ballot[voter]
    options = [c for c in state.candidates if c not in (voter, current)]
    if current != NO_ONE:
        options.append(NO_ONE)
    if not options:
        return None
    new = state.copy()
    ballot = list(state.ballot)
    ballot[voter] = options[rng.below(len(options))]
    new.ballot = tuple(ballot)
    return new

"""The information wall: what each viewer may know, and nothing more.

- A player sees their own card; a Werewolf also sees the pack and its picks; a Seer the answers
  they received; a Guardian whom they protect and whom they may not protect tonight; a Minion
  the Werewolves (who do not know the Minion).
- Everyone sees who is alive, every revealed card, the announcements, and each closed ballot's
  tally (with who voted for whom when ``public_ballots`` is on); never an open ballot's votes.
  With the ``talk`` option everyone sees every public claim.
- Eliminated players watch with open eyes by default (``dead_see_all``): every role and action.
- Spectators and the shared table screen see only what is public.
- After the end every card is public; the omniscient viewer (replays) sees everything.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from wolfden.engine.rng import Rng
from wolfden.engine.types import Event, Viewer, ViewerKind, filter_events
from wolfden.games.werewolf import narration as say
from wolfden.games.werewolf.roles import Phase, Role
from wolfden.games.werewolf.rules import BALLOTS, CLAIMS_PER_DAY, claims_today, timer
from wolfden.games.werewolf.state import SeerCheck, State, with_choice


def sees_all(state: State, viewer: Viewer) -> bool:
    """The omniscient viewer, and eliminated players when they watch with open eyes."""
    if viewer.kind is ViewerKind.OMNISCIENT:
        return True
    seat = viewer.seat
    return (
        viewer.kind is ViewerKind.SEAT
        and seat is not None
        and 0 <= seat < state.players
        and not state.is_alive(seat)
        and state.config.dead_see_all
    )


def narration(state: State) -> list[str]:
    """The current phase's script, the same for every viewer."""
    if state.phase is Phase.NIGHT:
        return say.night_script(state.config)
    if state.phase is Phase.DISCUSSION:
        return [say.DISCUSS]
    if state.phase is Phase.VOTE:
        return [say.BALLOT_OPEN]
    if state.phase is Phase.REVOTE:
        return [say.REVOTE_OPEN]
    if state.phase is Phase.HUNT:
        return [say.HUNT]
    if state.phase is Phase.ELECTION:
        return [say.ELECTION_OPEN]
    if state.phase is Phase.BADGE:
        return [say.BADGE]
    return [state.summary]


def _chosen(choices: Sequence[int | None]) -> dict[str, int]:
    """Each seat's choice, for the seats that made one."""
    return {str(seat): choice for seat, choice in enumerate(choices) if choice is not None}


def view(state: State, viewer: Viewer) -> dict[str, Any]:
    config = state.config
    ended = state.phase is Phase.END
    everything = ended or sees_all(state, viewer)
    seat = viewer.seat if viewer.kind is ViewerKind.SEAT else None
    if seat is not None and not 0 <= seat < state.players:
        seat = None
    wolves = {s for s in range(state.players) if state.is_werewolf(s)}
    known = {death.seat for death in state.deaths} | state.voteless
    if seat is not None:
        knows_wolves = seat in wolves or state.roles[seat] is Role.MINION
        known |= wolves | {seat} if knows_wolves else {seat}
    seats: list[dict[str, Any]] = []
    for s in range(state.players):
        entry: dict[str, Any] = {"seat": s, "name": config.name(s), "alive": state.is_alive(s)}
        if everything or s in known:
            entry |= {"role": state.cards[s].role.value, "card": state.cards[s].id}
        if s in state.voteless:
            entry["voteless"] = True
        seats.append(entry)
    countdown = timer(state, Viewer(ViewerKind.SPECTATOR))  # the same for everyone
    out: dict[str, Any] = {
        "game": "werewolf",
        "phase": state.phase.value,
        "round": state.round,
        "players": state.players,
        "seats": seats,
        "deal": {
            "werewolves": config.werewolf_count,
            "seers": config.seer_count,
            "guardians": config.guardian_count,
            "villagers": config.villager_count,
            **config.variant_counts,
        },
        "narration": narration(state),
        "night_result": state.night_result,
        "tallies": [tally.to_json() for tally in state.tallies],
        "timer": None
        if countdown is None
        else {"label": countdown.label, "seconds": countdown.seconds},
    }
    if config.talk:
        out["claims"] = [claim.to_json() for claim in state.claims]
    ballot = state.phase in BALLOTS
    if ballot:
        out["ballot"] = {
            "candidates": list(state.candidates),
            "revote": state.phase is Phase.REVOTE,
            "cast": sum(1 for s in state.voters if state.has_voted(s)),
            "voters": len(state.voters),
        }
    if state.phase is Phase.HUNT:
        out["hunt"] = {"hunter": state.shots_due[0]}
    if everything and state.lovers:
        out["lovers"] = list(state.lovers)
    if config.sheriff:
        out["sheriff"] = state.sheriff
    if state.phase is Phase.BADGE:
        out["badge"] = {"sheriff": state.sheriff}
    if state.phase is Phase.ELECTION:
        out["election"] = {
            "candidates": list(state.candidates),
            "cast": sum(1 for s in state.voters if state.has_voted(s)),
            "voters": len(state.voters),
        }
        if everything:
            out["election"]["votes"] = {
                str(v): state.votes[v] for v in state.voters if state.has_voted(v)
            }
    if seat is not None:
        out["you"] = _private(state, seat)
    if everything:
        out["night_log"] = [night.to_json() for night in state.night_log]
        if state.phase is Phase.NIGHT:
            out["tonight"] = {
                "picks": _chosen(state.picks),
                "locked": state.locked,
                "checked": _chosen(state.checked),
                "protected": _chosen(state.protecting),
            }
            if config.witches:
                out["tonight"]["healing"] = sorted(state.healing)
                out["tonight"]["poisoning"] = {str(w): t for w, t in state.poisoning}
        if ballot:
            out["ballot"]["votes"] = {
                str(voter): state.votes[voter] for voter in state.voters if state.has_voted(voter)
            }
    if ended:
        out["winner"] = state.winner.value if state.winner else None
        out["summary"] = state.summary
    return out


def _private(state: State, seat: int) -> dict[str, Any]:
    """What only this seat knows (and the dead or the omniscient, who know everything)."""
    card = state.cards[seat]
    me: dict[str, Any] = {
        "seat": seat,
        "name": state.config.name(seat),
        "alive": state.is_alive(seat),
        "role": card.role.value,
        "card": card.id,
        "card_label": card.label,
        "card_text": card.text,
        "your_turn": seat in state.pending,
    }
    if seat in state.unmet_requests:
        me["deal_note"] = say.DEAL_NOTE
    night = state.phase is Phase.NIGHT
    if card.role is Role.WEREWOLF:
        pack = [s for s in range(state.players) if state.is_werewolf(s)]  # as dealt
        me["pack"] = pack
        if night:
            me["pack_picks"] = {str(w): p for w in pack if (p := state.picks[w]) is not None}
            me["pack_previous_picks"] = {
                str(w): p for w in pack if (p := state.previous_picks[w]) is not None
            }
            me["pick_round"] = state.pick_round
            me["pick_rounds"] = state.config.pack_rounds
            me["locked"] = state.locked
    elif card.role is Role.WITCH:
        me["potions"] = {
            "heal": seat not in state.heal_used,
            "poison": seat not in state.poison_used,
        }
        if night and state.locked is not None and state.is_alive(seat):
            me["victim"] = state.locked
        if night:
            me["healing"] = seat in state.healing
            me["poisoning"] = next((t for w, t in state.poisoning if w == seat), None)
            me["potion_chosen"] = seat in state.witch_done
    elif card.role is Role.MINION:
        me["werewolves"] = [s for s in range(state.players) if state.is_werewolf(s)]  # as dealt
    elif card.role is Role.SEER:
        me["checks"] = [
            {"round": c.round, "target": c.target, "werewolf": c.werewolf}
            for c in state.seer_checks
            if c.seer == seat
        ]
        if night:
            me["checked_tonight"] = state.checked[seat]
    elif card.role is Role.GUARDIAN:
        me["cannot_protect"] = state.last_protected[seat]
        if night:
            me["protecting"] = state.protecting[seat]
    if card.role is Role.CUPID:
        me["lovers"] = list(state.lovers)
    partner = state.partner(seat)
    if partner is not None:
        me["lover"] = partner
    if state.phase in BALLOTS or state.phase is Phase.ELECTION:
        me["voted"] = state.has_voted(seat)
        me["vote"] = state.votes[seat]
    if state.config.talk and state.phase is Phase.DISCUSSION and state.is_alive(seat):
        me["claims_left"] = (
            CLAIMS_PER_DAY - len(claims_today(state, seat)) if seat in state.pending else 0
        )
    return me


def visible_events(state: State, events: Sequence[Event], viewer: Viewer) -> list[dict[str, Any]]:
    return filter_events(events, viewer, sees_all=sees_all(state, viewer))


# -- what may change without a viewer noticing ------------------------------------------------


def perturb_hidden(state: State, viewer: Viewer, rng: Rng) -> State | None:
    """A state this viewer cannot tell apart from ``state``, or None when it sees everything.

    It swaps the cards of two players whose roles the viewer cannot tell apart, moves a
    private night choice, or changes a vote in an open ballot. The difference stays hidden
    through any one seat action: during a ballot only while at least two votes are missing
    (the last vote closes the ballot and may reveal a card), and never while a Hunter aims.
    """
    if state.phase is Phase.END or sees_all(state, viewer):
        return None
    seat = viewer.seat if viewer.kind is ViewerKind.SEAT else None
    ballot = state.phase in BALLOTS or state.phase is Phase.ELECTION
    # A Hunter's shot reveals a card at once, as the last vote of a ballot may; the Sheriff's
    # successor may end the day, and at the round limit the game.
    aiming = state.phase in (Phase.HUNT, Phase.BADGE)
    quiet = not aiming and (not ballot or len(state.pending) >= 2)
    pairs = _swappable_pairs(state, seat) if quiet else []
    choices = _night_choices_hidden_from(state, seat)
    voters = (
        [v for v in state.voters if v != seat and state.has_voted(v)] if ballot and quiet else []
    )
    kinds = [kind for kind, some in (("swap", pairs), ("night", choices), ("vote", voters)) if some]
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
    wolf_view = seat is not None and (state.is_werewolf(seat) or roles[seat] is Role.MINION)
    checked = {c.target for c in state.seer_checks if c.seer == seat}
    hidden = [
        s
        for s in state.living()
        if s != seat and s not in state.voteless and not (wolf_view and state.is_werewolf(s))
    ]
    locked = state.locked if state.phase is Phase.NIGHT else None
    pairs = []
    for i, a in enumerate(hidden):
        for b in hidden[i + 1 :]:
            if roles[a] is roles[b] or locked in (a, b):
                continue
            if (a in checked or b in checked) and roles[a].seen_as_werewolf != roles[
                b
            ].seen_as_werewolf:
                continue
            pairs.append((a, b))
    return pairs


def _swap(values: tuple[Any, ...], a: int, b: int) -> tuple[Any, ...]:
    swapped = {a: values[b], b: values[a]}
    return tuple(swapped.get(seat, value) for seat, value in enumerate(values))


def _swap_set(seats: frozenset[int], a: int, b: int) -> frozenset[int]:
    return frozenset({a: b, b: a}.get(s, s) for s in seats)


def _swap_seats(state: State, a: int, b: int) -> State:
    """Everything that belongs to a role moves with the card."""
    swap = {a: b, b: a}
    pending = state.pending
    if state.phase is Phase.NIGHT and (a in pending) != (b in pending):
        pending = pending ^ {a, b}
    return replace(
        state,
        cards=_swap(state.cards, a, b),
        picks=_swap(state.picks, a, b),
        previous_picks=_swap(state.previous_picks, a, b),
        checked=_swap(state.checked, a, b),
        protecting=_swap(state.protecting, a, b),
        last_protected=_swap(state.last_protected, a, b),
        seer_checks=tuple(
            replace(c, seer={a: b, b: a}.get(c.seer, c.seer)) for c in state.seer_checks
        ),
        pending=pending,
        heal_used=_swap_set(state.heal_used, a, b),
        poison_used=_swap_set(state.poison_used, a, b),
        healing=_swap_set(state.healing, a, b),
        witch_done=_swap_set(state.witch_done, a, b),
        poisoning=tuple((swap.get(w, w), t) for w, t in state.poisoning),
    )


def _night_choices_hidden_from(state: State, seat: int | None) -> list[tuple[Role, int]]:
    """The Guardians' and Seers' choices tonight that this viewer did not make."""
    if state.phase is not Phase.NIGHT:
        return []
    chosen = {Role.GUARDIAN: state.protecting, Role.SEER: state.checked}
    out: list[tuple[Role, int]] = []
    for s in state.living():
        role = state.roles[s]
        if s != seat and role in chosen and chosen[role][s] is not None:
            out.append((role, s))
    return out


def _move_night_choice(state: State, choice: tuple[Role, int], rng: Rng) -> State | None:
    role, who = choice
    living = state.living()
    if role is Role.GUARDIAN:
        current = state.protecting[who]
        targets = [t for t in living if t not in (current, state.last_protected[who])]
    else:
        current = state.checked[who]
        targets = [t for t in living if t not in (current, who)]
    if not targets:
        return None
    target = targets[rng.below(len(targets))]
    if role is Role.GUARDIAN:
        return replace(state, protecting=with_choice(state.protecting, who, target))
    is_werewolf = state.roles[target].seen_as_werewolf
    return replace(
        state,
        checked=with_choice(state.checked, who, target),
        seer_checks=tuple(
            SeerCheck(c.seer, c.round, target, is_werewolf)
            if (c.seer == who and c.round == state.round)
            else c
            for c in state.seer_checks
        ),
    )


def _change_vote(state: State, voter: int, rng: Rng) -> State | None:
    current = state.votes[voter]
    options: list[int | None] = [c for c in state.candidates if c not in (voter, current)]
    if current is not None:
        options.append(None)  # abstaining instead
    if not options:
        return None
    return replace(state, votes=with_choice(state.votes, voter, options[rng.below(len(options))]))

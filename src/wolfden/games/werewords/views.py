"""What each viewer may see, and the information wall's test double (``perturb_hidden``).

Online, a seat sees its own card and what the night showed it; everyone sees the Mayor, the
tokens, the question log and whatever has been revealed. In companion mode the app knows only
what was tapped: the shared device (the table viewer) shows each eyes-closed step's secret while
that step runs, and the Mayor's seat sees the secret role and word the Mayor tapped.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, replace
from typing import Any

from wolfden.engine.rng import Rng
from wolfden.engine.types import Event, Viewer, ViewerKind, filter_events
from wolfden.games.werewords.config import Mode
from wolfden.games.werewords.roles import Phase, Role, Step
from wolfden.games.werewords.rules import (
    actors,
    letters,
    mayor_is_seer,
    night_step,
    note_value,
    step_holders,
    timer,
)
from wolfden.games.werewords.state import Copy, Note, State

SPEEDWORDS_SHOWN = frozenset(
    (
        Phase.DAY,
        Phase.POINTING,
        Phase.DISCUSSION,
        Phase.VOTING,
        Phase.REPORT,
        Phase.RESULT,
        Phase.OVER,
    )
)
"""The phases whose view shows the Speedwords pattern and clues: from the day on."""


def knows_word(state: State, seat: int | None) -> bool:
    if state.word is None:
        return False
    if state.word_public:
        return True
    if seat is None:
        return False
    if seat == state.mayor:
        return True
    return any(note.kind == "word" for note in state.notes[seat])


def view(state: State, viewer: Viewer) -> dict[str, Any]:
    config = state.config
    everything = viewer.kind is ViewerKind.OMNISCIENT
    seat = viewer.seat if viewer.kind is ViewerKind.SEAT else None
    seconds, label = timer(state)
    out: dict[str, Any] = {
        "game": "werewords",
        "mode": config.mode.value,
        "players": config.players,
        "seats": [{"seat": s, "name": config.name(s)} for s in range(config.players)],
        "round": state.round,
        "phase": state.phase.value,
        "step": night_step(state).value if state.phase is Phase.NIGHT else None,
        "night": [s.value for s in state.night],
        "timer": {"seconds": seconds, "label": label} if seconds is not None else None,
        "mayor": state.mayor,
        "difficulty": state.difficulty.value,
        "speedwords": config.speedwords,
        "typed_questions": config.typed_questions,
        "tokens": asdict(state.supply),
        "received": [asdict(row) for row in state.received],
        "table_way_off": state.table_way_off,
        "questions": [
            {
                "id": q.id,
                "seat": q.seat,
                "text": q.text,
                "answer": q.answer,
                "form": None if q.form is None else q.form.to_json(),
            }
            for q in state.questions
        ],
        "history": [asdict(r) | {"found": list(r.found)} for r in state.history],
    }
    if seat is not None:
        out["you"] = seat_secrets(state, seat)
    word_known = everything or knows_word(state, seat)
    out["word"] = state.word if word_known else None
    if state.phase in SPEEDWORDS_SHOWN and config.speedwords:
        out["pattern"] = "".join("_" if ch.isalnum() else ch for ch in state.word or "")
        out["clues"] = sorted(state.clues, key=str.casefold)
    if state.guessed is not None:
        out["ending"] = {
            "guessed": state.guessed,
            "guesser": state.guesser,
            "ended_by": state.ended_by,
        }
    if state.phase is Phase.POINTING:
        out["pointed"] = {str(s): t for s, t in enumerate(state.points) if t is not None}
    if state.phase is Phase.DISCUSSION:
        out["ready"] = sorted(state.acted)
    if state.phase is Phase.VOTING:
        out["voted"] = sorted(state.acted)
    if state.result is not None and state.phase in (Phase.RESULT, Phase.OVER):
        out["result"] = {
            "winning_team": state.result.winning_team,
            "guessed": state.result.guessed,
            "found": list(state.result.found),
            "reason": state.result.reason,
            "votes": None if state.result.guessed else list(state.points),
        }
    seen = range(state.n) if everything else sorted(state.revealed)
    out["revealed"] = {
        str(s): role.value for s in seen for role in (state.role(s),) if role is not None
    }
    if everything:
        out["notes"] = [[_note(state, n) for n in notes] for notes in state.notes]
        out["choices"] = list(state.candidates)
    if viewer.kind is ViewerKind.TABLE and config.mode is Mode.COMPANION:
        out["screen"] = companion_screen(state)
    return out


def _note(state: State, note: Note) -> dict[str, Any]:
    return {"kind": note.kind, "value": note_value(state, note)}


def seat_secrets(state: State, seat: int) -> dict[str, Any]:
    """What one seat knows privately: its card, what it became, what the night showed it."""
    you: dict[str, Any] = {"seat": seat, "mayor": seat == state.mayor}
    card = state.cards[seat]
    if state.config.mode is Mode.ONLINE or seat == state.mayor:
        you["role"] = card.value if card is not None else None
        now = state.role(seat)
        you["role_now"] = now.value if now is not None else None
    you["notes"] = [_note(state, n) for n in state.notes[seat]]
    step = night_step(state) if state.phase is Phase.NIGHT else None
    if seat == state.mayor and step is Step.MAYOR_WORD:
        you["choices"] = list(state.candidates)
    if seat == state.mayor and step is Step.MAYOR_ROLE:
        you["choices"] = sorted({r.value for r in state.config.role_cards()})
    return you


def companion_screen(state: State) -> dict[str, Any]:
    """The shared device's screen in companion mode: an eyes-closed step's secret, shown only
    while that step runs, for whoever it calls."""
    if state.phase is not Phase.NIGHT:
        return {}
    step = night_step(state)
    word = state.word
    if step is Step.MAYOR_ROLE:
        return {"for": "mayor", "choices": sorted({r.value for r in state.config.role_cards()})}
    if step is Step.MAYOR_WORD:
        return {"for": "mayor", "choices": list(state.candidates)}
    if step in (Step.MAYOR_CONFIRM, Step.SEER):
        return {"for": step.value, "word": word}
    if step is Step.WEREWOLVES:
        return {"for": step.value, "word": word, "clues_written": len(state.clues)}
    if step is Step.FORTUNE_TELLER:
        return {
            "for": step.value,
            "letters": letters(word or "", state.config.fortune_teller_letters),
        }
    if step is Step.APPRENTICE:
        told = mayor_is_seer(state)
        return {
            "for": step.value,
            "mayor_is_seer": told,
            "word": word if told else None,
        }
    return {"for": step.value}


def visible_events(state: State, events: Sequence[Event], viewer: Viewer) -> list[dict[str, Any]]:
    return filter_events(events, viewer)


# -- the information wall ----------------------------------------------------------------


def known_seats(state: State, seat: int | None) -> set[int]:
    """Seats whose identity (card, what the night showed them) the viewer knows."""
    known = set(state.revealed)
    if seat is None:
        return known
    known.add(seat)
    for note in state.notes[seat]:
        if note.kind in ("werewolves", "masons"):
            known.update(note.value)
        elif note.kind == "seers":
            known.update(s for s, _ in note.value)
        elif note.kind in ("thing", "bumped"):
            known.add(note.value)
        elif note.kind == "copied":
            known.add(note.value[0])
        elif note.kind == "mayor_is_seer" and state.mayor is not None:
            known.add(state.mayor)
    return known


def scramble(word: str, keep: int, rng: Rng) -> str:
    """Another word of the same shape (and the same first ``keep`` letters of each word)."""
    out = []
    position = 0
    for ch in word:
        if ch == " ":
            position = 0
            out.append(ch)
            continue
        if ch.isalnum() and position >= keep:
            out.append("abcdefghijklmnopqrstuvwxyz"[rng.below(26)])
        else:
            out.append(ch)
        position += 1
    return "".join(out)


def perturb_hidden(state: State, viewer: Viewer, rng: Rng) -> State | None:
    """Change what this viewer cannot know now, nor learn from any one action of another seat.

    Hidden are: other seats' cards and night knowledge, the Mayor's candidate words and the
    Magic Word. Nothing is changed that the next action could reveal to the viewer (the next
    night step calling the viewer, a Correct token, the last vote or pointing).
    """
    if viewer.kind is ViewerKind.OMNISCIENT:
        return None
    if state.config.mode is Mode.COMPANION:
        return _perturb_companion(state, viewer, rng)
    seat = viewer.seat if viewer.kind is ViewerKind.SEAT else None
    phase = state.phase
    if phase in (Phase.RESULT, Phase.OVER, Phase.CLAIM_MAYOR):
        return None
    acting = actors(state)
    last_actor = len(acting) == 1 and seat not in acting
    if phase in (Phase.POINTING, Phase.VOTING) and last_actor:
        return None
    if phase is Phase.NIGHT and seat is not None and state.step + 1 < len(state.night):
        upcoming = state.night[state.step + 1]
        if seat in step_holders(state, upcoming):
            return None
    changes: dict[str, Any] = {}
    word_hidden = state.word is not None and not knows_word(state, seat)
    if word_hidden and phase in (Phase.NIGHT, Phase.DISCUSSION, Phase.VOTING):
        keep = 0
        if seat is not None and any(n.kind == "letters" for n in state.notes[seat]):
            keep = state.config.fortune_teller_letters
        changes["candidates"] = tuple(scramble(w, keep, rng) for w in state.candidates)
    elif state.word is None and state.candidates and seat != state.mayor:
        changes["candidates"] = tuple(scramble(w, 0, rng) for w in state.candidates)
    hidden = [s for s in range(state.n) if s not in known_seats(state, seat)]
    by_team = phase in (Phase.DAY, Phase.POINTING)
    groups: dict[bool, list[int]] = {}
    for s in hidden:
        key = state.role(s) is Role.WEREWOLF if by_team else True
        groups.setdefault(key, []).append(s)
    perm = list(range(state.n))
    for members in groups.values():
        moved = rng.shuffled(members)
        for src, dst in zip(members, moved):
            perm[src] = dst
    if any(perm[s] != s and state.cards[s] != state.cards[perm[s]] for s in range(state.n)):
        changes.update(_permute(state, perm))
    if not changes:
        return None
    return replace(state, **changes)


def _permute(state: State, perm: list[int]) -> dict[str, Any]:
    """Move every seat's identity (card, Doppelgänger copy, night notes, night step progress)
    from seat ``s`` to seat ``perm[s]``."""
    n = state.n
    cards: list[Role | None] = [None] * n
    notes: list[tuple[Note, ...]] = [()] * n
    for s in range(n):
        cards[perm[s]] = state.cards[s]
        notes[perm[s]] = state.notes[s]
    out: dict[str, Any] = {"cards": tuple(cards), "notes": tuple(notes)}
    if state.copied is not None:
        out["copied"] = Copy(perm[state.copied.seat], state.copied.role, state.copied.target)
    if state.phase is Phase.NIGHT:
        out["acted"] = frozenset(perm[s] for s in state.acted)
    return out


def _perturb_companion(state: State, viewer: Viewer, rng: Rng) -> State | None:
    """Companion mode: the app knows only the Mayor's tapped secret role and the word; both
    are hidden from every seat but the Mayor's, and from spectators."""
    if viewer.kind is ViewerKind.TABLE:
        return None
    seat = viewer.seat if viewer.kind is ViewerKind.SEAT else None
    if seat is not None and seat == state.mayor:
        return None
    if state.phase in (Phase.REPORT, Phase.RESULT, Phase.OVER):
        return None
    changes: dict[str, Any] = {}
    if state.candidates and not state.word_public and state.phase is not Phase.DAY:
        changes["candidates"] = tuple(scramble(w, 0, rng) for w in state.candidates)
    mayor = state.mayor
    if mayor is not None and state.cards[mayor] is not None:
        options = sorted(
            {r for r in state.config.role_cards()} - {state.cards[mayor]}, key=lambda r: r.value
        )
        if options:
            cards = list(state.cards)
            cards[mayor] = options[rng.below(len(options))]
            changes["cards"] = tuple(cards)
    return replace(state, **changes) if changes else None

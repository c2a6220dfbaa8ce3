"""Werewolf bots. They see only their view and their legal actions.

The ``rules`` bot plays like a careful beginner:
- Werewolves never target or vote for each other; the pack follows the first pick made, so
  it agrees at once; by day each Werewolf votes for the most suspicious non-Werewolf.
- The Seer looks into players it knows nothing about, votes for the Werewolves it found and
  never for players it cleared.
- The Guardian varies its protection: never the same player twice in a row (the rule), and
  itself only now and then.
- Villagers vote from public information: whoever voted for players later revealed as
  townsfolk is suspicious, whoever voted for a revealed Werewolf is trusted.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from wolfden.engine.rng import Rng
from wolfden.engine.types import Action, Seat


def _target(action: Action) -> int:
    arg = action.args[0]
    assert isinstance(arg, int)
    return arg


def suspicion(view: Mapping[str, Any]) -> dict[int, float]:
    """A suspicion score per living seat from the public record: closed ballots and reveals."""
    revealed = {e["seat"]: e.get("role") for e in view["seats"] if not e["alive"] and "role" in e}
    score = {e["seat"]: 0.0 for e in view["seats"] if e["alive"]}
    for tally in view.get("tallies", []):
        for voter, target in (tally.get("votes") or {}).items():
            v = int(voter)
            if v not in score or target is None:
                continue
            role = revealed.get(target)
            if role == "werewolf":
                score[v] -= 2.0
            elif role is not None:
                score[v] += 1.5
            else:
                score[v] += 0.2  # pushing votes around is a little suspicious
    return score


class WerewolfRulesBot:
    needs_view = True

    def __init__(self, seat: Seat) -> None:
        self.seat = seat

    def act(self, view: Mapping[str, Any], legal: Sequence[Action], rng: Rng) -> Action:
        me = view["you"]
        role = me["role"]
        kinds = {a.name for a in legal}
        if "quiet" in kinds:  # structured talk: the rules bot keeps its own counsel
            return next(a for a in legal if a.name == "quiet")
        if "pick" in kinds:
            return self._pick(view, legal, rng)
        if "check" in kinds:
            known = {c["target"] for c in me.get("checks", [])}
            fresh = [a for a in legal if _target(a) not in known]
            return rng.choice(fresh or list(legal))
        if "protect" in kinds:
            others = [a for a in legal if _target(a) != self.seat]
            if others and not rng.chance(0.2):
                return rng.choice(others)
            return rng.choice(list(legal))
        return self._vote(view, role, legal, rng)

    def _pick(self, view: Mapping[str, Any], legal: Sequence[Action], rng: Rng) -> Action:
        me = view["you"]
        by_target = {_target(a): a for a in legal}
        for source in ("pack_picks", "pack_previous_picks"):
            picks = [
                p
                for w, p in sorted(me.get(source, {}).items(), key=lambda kv: int(kv[0]))
                if int(w) != self.seat and p in by_target
            ]
            if picks:
                return by_target[picks[0]]
        score = suspicion(view)
        # The pack removes whoever the village trusts most (a likely Seer or Guardian).
        best = min(by_target, key=lambda t: (score.get(t, 0.0), rng.random()))
        return by_target[best] if rng.chance(0.7) else rng.choice(list(legal))

    def _vote(
        self, view: Mapping[str, Any], role: str, legal: Sequence[Action], rng: Rng
    ) -> Action:
        me = view["you"]
        votes = {_target(a): a for a in legal if a.name == "vote"}
        abstain = next(a for a in legal if a.name == "abstain")
        if not votes:
            return abstain
        score = suspicion(view)
        if role == "werewolf":
            pack = set(me.get("pack", []))
            choices = [t for t in votes if t not in pack]
            if not choices:
                return abstain
            return votes[max(choices, key=lambda t: (score.get(t, 0.0), rng.random()))]
        if role == "seer":
            found = [c["target"] for c in me.get("checks", []) if c["werewolf"]]
            cleared = {c["target"] for c in me.get("checks", []) if not c["werewolf"]}
            for t in found:
                if t in votes:
                    return votes[t]
            choices = [t for t in votes if t not in cleared]
            if not choices:
                return abstain
            return votes[max(choices, key=lambda t: (score.get(t, 0.0), rng.random()))]
        top = max(score.get(t, 0.0) for t in votes)
        if top <= 0.0 and rng.chance(0.3):
            return abstain
        leaders = [t for t in votes if score.get(t, 0.0) == top]
        return votes[rng.choice(sorted(leaders))]


BOTS = {"rules": WerewolfRulesBot}

"""Werewolf bots. They see only their view and their legal actions.

The ``rules`` bot plays like a careful beginner:
- Werewolves never target or vote for each other; the pack follows the first pick made, so
  it agrees at once, and picks whoever has voted most for the pack (as a Seer who found one
  of them does), then whoever the village trusts most. By day the pack hides in the crowd:
  it mostly abstains while nothing points anywhere, joins the village's leading candidate
  when that is a townsperson (and abstains when it is a packmate), and once its votes can
  decide the ballot it votes as one for the likeliest Seer.
- The Seer looks into players it knows nothing about, votes for the Werewolves it found and
  never for players it cleared.
- The Guardian varies its protection: never the same player twice in a row (the rule), and
  itself only now and then.
- Villagers vote from public information: whoever voted for players later revealed as
  townsfolk is suspicious, whoever voted for a revealed Werewolf is trusted.
- The variant roles: a Lycan plays as a Villager; a Tanner votes for anyone, never abstains
  (it wants to look suspicious); a Minion votes like a Werewolf, never for one it knows; an
  eliminated Hunter takes the most suspicious living player (a Werewolf it can see, first); a
  Witch heals the first target it learns of and poisons only a clearly suspicious player;
  Cupid links two other players at random; a Lover never votes for, picks or poisons their
  partner. For Sheriff (and an eliminated Sheriff's successor) the pack and the Minion back a
  Werewolf, everyone else the player they doubt least.
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


def cupid_link(seat: Seat, legal: Sequence[Action], rng: Rng) -> Action:
    """Cupid links two other players, at random (never itself: it keeps out of the story)."""
    others = [a for a in legal if seat not in a.args]
    return rng.choice(others or list(legal))


def spare_lover(view: Mapping[str, Any], legal: Sequence[Action]) -> list[Action]:
    """A Lover never votes for, picks or poisons their partner (their death would be its own)."""
    partner = view["you"].get("lover")
    if partner is None:
        return list(legal)
    spared = [a for a in legal if not (a.args and a.args[0] == partner and a.name != "link")]
    return spared or list(legal)


def badge_choice(
    view: Mapping[str, Any], legal: Sequence[Action], doubt: Mapping[int, float], rng: Rng
) -> Action:
    """The Sheriff's election and an eliminated Sheriff's successor: the pack (and its Minion)
    back a Werewolf; everyone else the player it doubts least."""
    me = view["you"]
    options = [a for a in legal if a.name in ("elect", "pass_badge")]
    pack = set(me.get("pack", me.get("werewolves", [])))
    if me["role"] in ("werewolf", "minion"):
        ours = [a for a in options if _target(a) in pack]
        if ours:
            return rng.choice(ours)
    return min(options, key=lambda a: (doubt.get(_target(a), 0.0), rng.random()))


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


WOLF_ABSTAINS = 0.6
"""How often a ``rules`` Werewolf abstains on a day when the public record points at no one (a
villager then abstains 0.3 of the time)."""


def seer_likeness(view: Mapping[str, Any], pack: set[int]) -> dict[int, int]:
    """For the pack: how many times each living townsperson has voted for one of the pack,
    which is what a Seer who found a Werewolf does."""
    alive = {e["seat"] for e in view["seats"] if e["alive"]}
    count = {s: 0 for s in alive - pack}
    for tally in view.get("tallies", []):
        for voter, target in (tally.get("votes") or {}).items():
            if int(voter) in count and target in pack:
                count[int(voter)] += 1
    return count


class WerewolfRulesBot:
    needs_view = True

    def __init__(self, seat: Seat) -> None:
        self.seat = seat

    def act(self, view: Mapping[str, Any], legal: Sequence[Action], rng: Rng) -> Action:
        me = view["you"]
        role = me["role"]
        legal = spare_lover(view, legal)
        kinds = {a.name for a in legal}
        if "link" in kinds:
            return cupid_link(self.seat, legal, rng)
        if kinds & {"elect", "pass_badge"}:
            return badge_choice(view, legal, suspicion(view), rng)
        if "quiet" in kinds:  # structured talk: the rules bot keeps its own counsel
            return next(a for a in legal if a.name == "quiet")
        if "pick" in kinds:
            return self._pick(view, legal, rng)
        if "shoot" in kinds:
            # The Hunter takes the most suspicious player (a Werewolf it saw: at once).
            score = suspicion(view)
            seen = {e["seat"] for e in view["seats"] if e.get("role") == "werewolf"}
            return max(
                legal, key=lambda a: (_target(a) in seen, score.get(_target(a), 0.0), rng.random())
            )
        if "no_potion" in kinds:
            return self._potion(view, legal, rng)
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

    def _potion(self, view: Mapping[str, Any], legal: Sequence[Action], rng: Rng) -> Action:
        """The Witch heals the pack's first target it learns of, and poisons only a player the
        public record marks as clearly suspicious."""
        names = {a.name: a for a in legal}
        if "heal" in names:
            return names["heal"]
        poisons = [a for a in legal if a.name == "poison"]
        score = suspicion(view)
        worst = max(poisons, key=lambda a: (score.get(_target(a), 0.0), rng.random()), default=None)
        if worst is not None and score.get(_target(worst), 0.0) >= 1.5:
            return worst
        return names["no_potion"]

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
        # The pack removes whoever behaves most like the Seer (votes for the pack), then whoever
        # the village trusts most.
        score = suspicion(view)
        threat = seer_likeness(view, set(me.get("pack", [])))
        best = max(by_target, key=lambda t: (threat.get(t, 0), -score.get(t, 0.0), rng.random()))
        return by_target[best]

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
            return self._wolf_vote(view, votes, abstain, score, rng)
        if role == "minion":
            # The Minion votes as the pack would: never for a Werewolf it knows.
            pack = set(me.get("pack", me.get("werewolves", [])))
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
        if role == "tanner":
            # The Tanner wants the village's votes: it votes for anyone, never abstains, and so
            # pushes votes around, which the village finds a little suspicious.
            return votes[rng.choice(sorted(votes))]
        top = max(score.get(t, 0.0) for t in votes)
        if top <= 0.0 and rng.chance(0.3):
            return abstain
        leaders = [t for t in votes if score.get(t, 0.0) == top]
        return votes[rng.choice(sorted(leaders))]

    def _wolf_vote(
        self,
        view: Mapping[str, Any],
        votes: Mapping[int, Action],
        abstain: Action,
        score: Mapping[int, float],
        rng: Rng,
    ) -> Action:
        """The pack reads the village's suspicion as the village does and votes as one.

        Once its votes can decide (at most 2 x pack + 1 players alive), it votes together for
        the player most like the Seer, else the most suspected townsperson. Before that it
        hides in the crowd: when nothing points anywhere it mostly abstains, otherwise votes
        for anyone but the pack, as a villager would; when the village has a leading candidate
        it joins them if they are a townsperson and abstains if they are a packmate. Never for
        a packmate. When it joins the lead or decides, every Werewolf breaks ties the same way
        (the likeliest Seer, the most suspected, the next seat after the pack's first), so
        the pack's votes land together.
        """
        pack = set(view["you"].get("pack", []))
        choices = [t for t in votes if t not in pack]
        if not choices:
            return abstain
        threat = seer_likeness(view, pack)
        alive = {e["seat"] for e in view["seats"] if e["alive"]}
        # The last tie-break is the seat order from the pack's first living seat: the same for
        # every Werewolf, and, since the deal is random, favouring no seat number.
        first = min(pack & alive)

        def together(seats: Sequence[int]) -> int:
            return min(
                seats,
                key=lambda t: (
                    -threat.get(t, 0),
                    -score.get(t, 0.0),
                    (t - first) % view["players"],
                ),
            )

        if len(alive) <= 2 * len(pack & alive) + 1:
            return votes[together(choices)]
        top = max(score.get(t, 0.0) for t in votes)
        leaders = [t for t in choices if score.get(t, 0.0) == top]
        if top <= 0.0:
            # Nothing points anywhere: a vote now would mark it once the card is revealed, so
            # it abstains more often than a villager does.
            if rng.chance(WOLF_ABSTAINS):
                return abstain
            return votes[rng.choice(sorted(choices))]
        if not leaders:
            return abstain
        return votes[together(leaders)]


# -- the belief bot ---------------------------------------------------------------------------

# The model of the other players (likelihoods of what they do, given who holds which role).
# The numbers are the model, not facts about people; docs/bots.md describes them.
WOLF_VOTES_WOLF = 0.1
"""A Werewolf votes for a packmate this much less often than for any one townsperson."""
SEER_VOTES_WOLF = 3.0
"""A Seer votes for a Werewolf this much more often than for any one other player."""
CLAIM_SEER = {"seer": 0.6, "werewolf": 0.2, "other": 0.02}
"""How likely a Seer, a Werewolf and anyone else is to say "I am the Seer" (per day)."""
CHECK_TRUE = {"seer": 1.0, "werewolf": 0.3, "other": 0.01}
"""How likely each says "I checked X: <the truth>" …"""
CHECK_FALSE = {"seer": 0.01, "werewolf": 0.3, "other": 0.01}
"""… and "I checked X: <a lie>"."""
WOLF_SUSPECTS_WOLF = 0.2
"""A Werewolf says "I suspect <a packmate>" this much less often than of anyone else."""

_HYPOTHESES: dict[tuple[int, int, int], tuple[Any, Any]] = {}


def hypotheses(players: int, wolves: int, seers: int) -> tuple[Any, Any]:
    """Every way to place the Werewolves and the Seers: two boolean matrices (hypothesis ×
    seat), the Werewolves' and the Seers'. Guardians and Villagers are not told apart."""
    import itertools

    import numpy as np

    key = (players, wolves, seers)
    cached = _HYPOTHESES.get(key)
    if cached is None:
        rows_w, rows_s = [], []
        seats = range(players)
        for pack in itertools.combinations(seats, wolves):
            rest = [s for s in seats if s not in pack]
            for seer_set in itertools.combinations(rest, seers):
                rows_w.append([s in pack for s in seats])
                rows_s.append([s in seer_set for s in seats])
        cached = _HYPOTHESES[key] = (np.array(rows_w, bool), np.array(rows_s, bool))
    return cached


class Belief:
    """A probability over role assignments consistent with what one seat knows.

    Hard facts (its own card, the pack a Werewolf knows, every revealed card, the Seer's
    answers, that the game is not over) rule hypotheses out. Soft evidence (each public vote,
    each claim) multiplies a hypothesis's weight by the likelihood of what was seen under it,
    by the model above.
    """

    def __init__(self, players: int, wolves: int, seers: int) -> None:
        import numpy as np

        self.np = np
        self.wolf, self.seer = hypotheses(players, wolves, seers)
        self.log = np.zeros(len(self.wolf))
        self.tallies = 0
        self.claims = 0

    def update(self, view: Mapping[str, Any]) -> None:
        for tally in view.get("tallies", [])[self.tallies :]:
            self._ballot(tally)
        self.tallies = len(view.get("tallies", []))
        claims = view.get("claims", [])
        for claim in claims[self.claims :]:
            self._claim(claim)
        self.claims = len(claims)

    def _ballot(self, tally: Mapping[str, Any]) -> None:
        np = self.np
        votes = tally.get("votes")
        if not votes:
            return
        candidates = [int(c) for c in tally["counts"]]
        wolf, seer = self.wolf, self.seer
        wolves_among = wolf[:, candidates].sum(axis=1)
        for voter_key, target in votes.items():
            if target is None:
                continue
            voter = int(voter_key)
            others = len(candidates) - (voter in candidates)
            wolves_other = wolves_among - (wolf[:, voter] if voter in candidates else 0)
            t_wolf = wolf[:, target]
            # Each hypothesis: who the voter is, and the weight of this choice among theirs.
            as_wolf = np.where(t_wolf, WOLF_VOTES_WOLF, 1.0) / (
                WOLF_VOTES_WOLF * wolves_other + (others - wolves_other)
            )
            as_seer = np.where(t_wolf, SEER_VOTES_WOLF, 1.0) / (
                SEER_VOTES_WOLF * wolves_other + (others - wolves_other)
            )
            plain = 1.0 / max(1, others)
            like = np.where(wolf[:, voter], as_wolf, np.where(seer[:, voter], as_seer, plain))
            self.log += np.log(like)

    def _claim(self, claim: Mapping[str, Any]) -> None:
        np = self.np
        x = claim["seat"]
        kind = claim["claim"]
        is_wolf, is_seer = self.wolf[:, x], self.seer[:, x]

        def by_role(table: Mapping[str, float]) -> Any:
            return np.where(
                is_wolf, table["werewolf"], np.where(is_seer, table["seer"], table["other"])
            )

        if kind == "claim_role" and claim.get("role") == "seer":
            like = by_role(CLAIM_SEER)
        elif kind == "claim_check":
            true = self.wolf[:, claim["target"]] == bool(claim["werewolf"])
            like = np.where(true, by_role(CHECK_TRUE), by_role(CHECK_FALSE))
        elif kind == "suspect":
            like = np.where(is_wolf & self.wolf[:, claim["target"]], WOLF_SUSPECTS_WOLF, 1.0)
        else:
            return
        self.log += np.log(like)

    def posterior(self, view: Mapping[str, Any]) -> tuple[Any, Any]:
        """The probability of each seat being a Werewolf, and being a Seer."""
        np = self.np
        ok = np.ones(len(self.wolf), bool)
        for entry in view["seats"]:
            role = entry.get("role")
            if role is None:
                continue
            seat = entry["seat"]
            ok &= self.wolf[:, seat] == (role == "werewolf")
            ok &= self.seer[:, seat] == (role == "seer")
        lycans = view.get("deal", {}).get("lycans", 0)
        for check in view["you"].get("checks", []):
            if check["werewolf"] and lycans:
                continue  # a Lycan looks like a Werewolf to the Seer: not a hard fact
            ok &= self.wolf[:, check["target"]] == check["werewolf"]
        if view["phase"] != "end":
            living = [e["seat"] for e in view["seats"] if e["alive"]]
            ok &= self.wolf[:, living].any(axis=1)
        if not ok.any():  # a view no deal explains (it cannot happen): keep every hypothesis
            ok = np.ones(len(self.wolf), bool)
        weights = np.exp(np.where(ok, self.log - self.log[ok].max(), -np.inf))
        weights /= weights.sum()
        return weights @ self.wolf, weights @ self.seer


class WerewolfBeliefBot:
    """Acts on a :class:`Belief`: see ``docs/bots.md`` for the model and the measurements."""

    needs_view = True

    def __init__(self, seat: Seat) -> None:
        self.seat = seat
        self.belief: Belief | None = None

    def act(self, view: Mapping[str, Any], legal: Sequence[Action], rng: Rng) -> Action:
        if self.belief is None:
            deal = view["deal"]
            self.belief = Belief(view["players"], deal["werewolves"], deal["seers"])
        self.belief.update(view)
        p_wolf, p_seer = self.belief.posterior(view)
        me = view["you"]
        legal = spare_lover(view, legal)
        kinds = {a.name for a in legal}
        if "link" in kinds:
            return cupid_link(self.seat, legal, rng)
        if kinds & {"elect", "pass_badge"}:
            doubt = {e["seat"]: float(p_wolf[e["seat"]]) for e in view["seats"]}
            return badge_choice(view, legal, doubt, rng)
        if "quiet" in kinds:
            return self._talk(view, legal, p_wolf)
        if "pick" in kinds:
            return self._pick(view, legal, p_seer, rng)
        if "shoot" in kinds:  # the Hunter takes the likeliest Werewolf
            return max(legal, key=lambda a: (p_wolf[_target(a)], rng.random()))
        if "no_potion" in kinds:
            # The Witch heals the first target it learns of; poisons only a likely Werewolf.
            by_name = {a.name: a for a in legal}
            if "heal" in by_name:
                return by_name["heal"]
            poisons = [a for a in legal if a.name == "poison"]
            if poisons:
                best = max(poisons, key=lambda a: (p_wolf[_target(a)], rng.random()))
                if p_wolf[_target(best)] >= 0.7:
                    return best
            return by_name["no_potion"]
        if "check" in kinds:
            known = {c["target"] for c in me.get("checks", [])}
            fresh = [a for a in legal if _target(a) not in known] or list(legal)
            # The most informative look: the player the Seer is least sure about.
            return max(fresh, key=lambda a: (_entropy(p_wolf[_target(a)]), rng.random()))
        if "protect" in kinds:
            # Shield the likely Seer (a claimed Seer above all).
            others = [a for a in legal if _target(a) != self.seat] or list(legal)
            return max(others, key=lambda a: (p_seer[_target(a)], rng.random()))
        return self._vote(view, legal, p_wolf, p_seer, rng)

    def _vote(
        self, view: Mapping[str, Any], legal: Sequence[Action], p_wolf: Any, p_seer: Any, rng: Rng
    ) -> Action:
        me = view["you"]
        votes = {_target(a): a for a in legal if a.name == "vote"}
        abstain = next(a for a in legal if a.name == "abstain")
        if not votes:
            return abstain
        if me["role"] == "minion":  # it knows the Werewolves: never votes for one
            known = set(me.get("werewolves", []))
            choices = [t for t in votes if t not in known]
            if not choices:
                return abstain
            score = suspicion(view)
            return votes[max(choices, key=lambda t: (score.get(t, 0.0), rng.random()))]
        if me["role"] == "werewolf":
            pack = set(me.get("pack", []))
            choices = [t for t in votes if t not in pack]
            if not choices:
                return abstain
            # The pack lays low: its votes for townsfolk would mark it once their cards are
            # revealed. Near parity, when its votes can decide the ballot, it votes together
            # for a claimed or likely Seer, else for the most suspected townsperson.
            living = sum(1 for e in view["seats"] if e["alive"])
            living_pack = pack & {e["seat"] for e in view["seats"] if e["alive"]}
            if living > 2 * len(living_pack) + 1:
                return abstain
            score = suspicion(view)
            claimed = _claimed_seers(view)
            return votes[
                max(choices, key=lambda t: (t in claimed, score.get(t, 0.0), p_seer[t], -t))
            ]
        return votes[max(votes, key=lambda t: (p_wolf[t], rng.random()))]

    def _pick(
        self, view: Mapping[str, Any], legal: Sequence[Action], p_seer: Any, rng: Rng
    ) -> Action:
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
        claimed = _claimed_seers(view)
        score = suspicion(view)
        # The likely Seer first (a claimed one above all), then whom the village trusts most.
        best = max(
            by_target,
            key=lambda t: (t in claimed, round(p_seer[t], 2), -score.get(t, 0.0), rng.random()),
        )
        return by_target[best]

    def _talk(self, view: Mapping[str, Any], legal: Sequence[Action], p_wolf: Any) -> Action:
        me = view["you"]
        offered = set(legal)
        quiet = next(a for a in legal if a.name == "quiet")
        alive = {e["seat"] for e in view["seats"] if e["alive"]}
        claims = view.get("claims", [])
        mine = [c for c in claims if c["seat"] == self.seat]
        claimed_seer = any(c["claim"] == "claim_role" and c.get("role") == "seer" for c in mine)
        rivals = _claimed_seers(view) - {self.seat}
        wishes: list[Action] = []
        if me["role"] == "seer":
            checks = me.get("checks", [])
            found = [c["target"] for c in checks if c["werewolf"] and c["target"] in alive]
            # Claiming draws the pack, so the Seer speaks once it has a Werewolf to name, or
            # when someone else claims to be the Seer.
            if found or rivals:
                wishes.append(Action("claim_role", ("seer",)))
                wishes += [Action("claim_check", (t, "werewolf")) for t in found]
                wishes += [
                    Action("claim_check", (c["target"], "clear"))
                    for c in checks
                    if not c["werewolf"] and c["target"] in alive
                ]
        elif me["role"] == "werewolf":
            pack = set(me.get("pack", []))
            accusers = {
                c["seat"]
                for c in claims
                if c["claim"] == "claim_check" and c.get("werewolf") and c["target"] in pack
            } - pack
            living_pack = sorted(pack & alive)
            wolf_claimed = any(s in pack for s in _claimed_seers(view))
            # One Werewolf counter-claims against a Seer who named one of the pack.
            if accusers & alive and living_pack[:1] == [self.seat] and not wolf_claimed:
                wishes.append(Action("claim_role", ("seer",)))
                wishes += [Action("claim_check", (a, "werewolf")) for a in sorted(accusers)]
            elif claimed_seer:
                wishes += [Action("claim_check", (a, "werewolf")) for a in sorted(accusers)]
        else:
            living = [t for t in alive if t != self.seat]
            if living:
                top = max(living, key=lambda t: (p_wolf[t], -t))
                if p_wolf[top] >= 0.6:
                    wishes.append(Action("suspect", (top,)))
        for wish in wishes:
            if wish in offered:
                return wish
        return quiet


def _claimed_seers(view: Mapping[str, Any]) -> set[int]:
    alive = {e["seat"] for e in view["seats"] if e["alive"]}
    return {
        c["seat"]
        for c in view.get("claims", [])
        if c["claim"] == "claim_role" and c.get("role") == "seer" and c["seat"] in alive
    }


def _entropy(p: float) -> float:
    import math

    if p <= 0.0 or p >= 1.0:
        return 0.0
    return -(p * math.log(p) + (1 - p) * math.log(1 - p))


BOTS = {"rules": WerewolfRulesBot, "belief": WerewolfBeliefBot}

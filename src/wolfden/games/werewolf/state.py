"""Werewolf's immutable state: one frozen dataclass, changed only by ``dataclasses.replace``.

Per-seat facts are tuples indexed by seat, with ``None`` where a seat has made no choice.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from wolfden.games.werewolf.config import Config
from wolfden.games.werewolf.roles import Card, Phase, Role, Team


def with_choice(
    choices: tuple[int | None, ...], seat: int, choice: int | None
) -> tuple[int | None, ...]:
    """A per-seat tuple of choices with one seat's choice changed."""
    return tuple(choice if s == seat else old for s, old in enumerate(choices))


@dataclass(frozen=True, slots=True)
class SeerCheck:
    """A Seer's look at a player: the answer is whether they are a Werewolf."""

    seer: int
    round: int
    target: int
    werewolf: bool


@dataclass(frozen=True, slots=True)
class Night:
    """A past night, as the omniscient log shows it."""

    round: int
    target: int | None
    """The pack's target at dawn, or no one."""
    protected: tuple[int, ...]
    """The seats the Guardians protected, in seat order."""
    checks: tuple[SeerCheck, ...]
    """The Seers' checks of that night, as they came in."""
    pack: tuple[int, ...]
    """The living Werewolves at dawn."""
    picks: tuple[int | None, ...]
    """Each seat's pick in the pack's last round of picks."""
    healed: tuple[int, ...] = ()
    """The Witches who used their healing potion on the target that night."""
    poisoned: tuple[tuple[int, int], ...] = ()
    """(Witch, player) for each poison used that night."""

    @property
    def eliminated(self) -> int | None:
        """The target, unless a Guardian protected them or a Witch healed them."""
        if self.target in self.protected or self.healed:
            return None
        return self.target

    @property
    def victims(self) -> tuple[int, ...]:
        """Everyone eliminated at this dawn, in seat order: the pack's target and the
        poisoned."""
        taken = {self.eliminated} if self.eliminated is not None else set()
        return tuple(sorted(taken | {target for _, target in self.poisoned}))

    def to_json(self) -> dict[str, Any]:
        out = {
            "round": self.round,
            "target": self.target,
            "protected": list(self.protected),
            "checks": [
                {"seer": c.seer, "target": c.target, "werewolf": c.werewolf} for c in self.checks
            ],
            "picks": {str(w): p for w in self.pack if (p := self.picks[w]) is not None},
        }
        if self.healed or self.poisoned:
            out["healed"] = list(self.healed)
            out["poisoned"] = {str(w): t for w, t in self.poisoned}
        return out


@dataclass(frozen=True, slots=True)
class Tally:
    """A closed ballot: each candidate's votes, the abstentions, and who voted for whom."""

    round: int
    revote: bool
    counts: tuple[tuple[int, int], ...]
    """(candidate, votes) in the ballot's order of candidates."""
    abstained: int
    votes: tuple[tuple[int, int | None], ...] | None
    """(voter, choice or None for abstaining) for every living player, when ballots are
    public."""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "round": self.round,
            "revote": self.revote,
            "counts": {str(seat): n for seat, n in self.counts},
            "abstained": self.abstained,
        }
        if self.votes is not None:
            out["votes"] = {str(voter): choice for voter, choice in self.votes}
        return out


@dataclass(frozen=True, slots=True)
class Claim:
    """A public claim of the structured talk: what a player said, true or not."""

    round: int
    seat: int
    kind: str
    """One of ``actions.CLAIMS``."""
    target: int | None = None
    """The player the claim is about (not for ``claim_role``)."""
    value: str | None = None
    """The role claimed, or a check's result: ``werewolf`` or ``clear``."""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"round": self.round, "seat": self.seat, "claim": self.kind}
        if self.target is not None:
            out["target"] = self.target
        if self.kind == "claim_role":
            out["role"] = self.value
        elif self.kind == "claim_check":
            out["werewolf"] = self.value == "werewolf"
        return out


@dataclass(frozen=True, slots=True)
class Death:
    round: int
    seat: int
    by: str
    """"night", "vote", "shot" (a Hunter's) or "grief" (a Lover's)."""


@dataclass(frozen=True, slots=True)
class State:
    """One moment of a match. ``apply`` never changes a state; it returns a new one."""

    config: Config
    cards: tuple[Card, ...]
    """Each seat's role card, as dealt."""
    unmet_requests: frozenset[int]
    """Seats that asked for a Villager card and could not get one."""
    rng: int
    """The seeded generator's state (it breaks the pack's ties)."""
    phase: Phase
    seq: int
    """The number of the current phase, counted from the first night."""
    round: int
    alive: frozenset[int]
    pending: frozenset[int]
    """Who may act now."""
    # The night
    picks: tuple[int | None, ...]
    """Each Werewolf's pick in the current round of picks."""
    previous_picks: tuple[int | None, ...]
    pick_round: int
    locked: int | None
    """The pack's target, once it is settled."""
    checked: tuple[int | None, ...]
    """Each Seer's check tonight."""
    protecting: tuple[int | None, ...]
    """Each Guardian's protection tonight."""
    last_protected: tuple[int | None, ...]
    """Each Guardian's protection last night, which they may not repeat."""
    seer_checks: tuple[SeerCheck, ...]
    # The day
    candidates: tuple[int, ...]
    votes: tuple[int | None, ...]
    """Each voter's choice in the open ballot, None for abstaining (or not voted yet)."""
    # The record
    night_log: tuple[Night, ...]
    tallies: tuple[Tally, ...]
    deaths: tuple[Death, ...]
    winner: Team | None
    summary: str
    """The closing line, once the game is over."""
    claims: tuple[Claim, ...] = ()
    """Every public claim of the structured talk, in order (only with the ``talk`` option)."""
    # The variant roles
    shots_due: tuple[int, ...] = ()
    """Eliminated Hunters who still take someone with them, the first one now."""
    resume: str = ""
    """Where the round goes on once the Hunters have shot: "day" or "night"."""
    voteless: frozenset[int] = frozenset()
    """Village Idiots the vote revealed: alive, known to all, and without a vote."""
    heal_used: frozenset[int] = frozenset()
    """Witches who have used their healing potion."""
    poison_used: frozenset[int] = frozenset()
    """Witches who have used their poison."""
    healing: frozenset[int] = frozenset()
    """Witches healing the pack's target tonight."""
    poisoning: tuple[tuple[int, int], ...] = ()
    """(Witch, player) for each poison given tonight."""
    witch_done: frozenset[int] = frozenset()
    """Witches who have made tonight's choice."""
    lovers: tuple[int, ...] = ()
    """The two Lovers Cupid linked (in seat order), or none."""
    sheriff: int | None = None
    """Who holds the Sheriff's badge (the ``sheriff`` option), or no one."""
    elected: bool = False
    """Whether the Sheriff's election has been held."""

    def partner(self, seat: int) -> int | None:
        """A Lover's partner, or None."""
        if seat in self.lovers:
            return self.lovers[1 - self.lovers.index(seat)]
        return None

    @property
    def mixed_lovers(self) -> bool:
        """Whether the Lovers are on different teams (they then play for each other)."""
        return len(self.lovers) == 2 and len({self.roles[s].team for s in self.lovers}) == 2

    @property
    def players(self) -> int:
        return self.config.players

    @property
    def roles(self) -> tuple[Role, ...]:
        return tuple(card.role for card in self.cards)

    def is_alive(self, seat: int) -> bool:
        return seat in self.alive

    def is_werewolf(self, seat: int) -> bool:
        return self.cards[seat].role is Role.WEREWOLF

    def living(self) -> tuple[int, ...]:
        """The living seats in seat order."""
        return tuple(sorted(self.alive))

    @property
    def pack(self) -> tuple[int, ...]:
        """The living Werewolves in seat order."""
        return tuple(seat for seat in self.living() if self.is_werewolf(seat))

    @property
    def night_result(self) -> dict[str, Any] | None:
        """What the day heard of the last night: who was eliminated (and their card), or no
        one; None before the first dawn."""
        if not self.night_log:
            return None
        victims = self.night_log[-1].victims
        if not victims:
            return {"eliminated": None}
        first, *more = victims
        out: dict[str, Any] = {"eliminated": first, "card": self.cards[first].id}
        if more:  # a Witch's poison: every victim in seat order, none said to be whose
            out["also"] = [{"eliminated": s, "card": self.cards[s].id} for s in more]
        return out

    @property
    def voters(self) -> tuple[int, ...]:
        """The living players who vote, in seat order (not a revealed Village Idiot)."""
        return tuple(seat for seat in self.living() if seat not in self.voteless)

    def has_voted(self, seat: int) -> bool:
        """Whether a voter has cast their vote in the open ballot."""
        balloting = self.phase in (Phase.VOTE, Phase.REVOTE, Phase.ELECTION)
        return balloting and seat in set(self.voters) - self.pending

    def __repr__(self) -> str:
        return (
            f"<werewolf State round {self.round} {self.phase.value} "
            f"living {self.living()} seq {self.seq}>"
        )

"""Werewolf (the moderated party game) as a PettingZoo AEC environment.

``env(**kwargs)`` is wrapped like PettingZoo's classic games; ``raw_env(**kwargs)`` is not.
Keyword arguments are the fields of ``wolfden.games.werewolf.Config`` (``players=9``, …) or
``config=Config(...)``, plus ``render_mode``, ``max_cycles``, ``think_seconds`` and
``dead_leave`` (see :mod:`wolfden.envs.base`).

Agents ``player_0`` … ``player_{n-1}`` are the seats. At night the Werewolves, Seers and
Guardians are asked one at a time (the pack sees its own picks, as at the table); by day every
living player votes in turn, the ballot staying secret until it closes. The clock's actions
(dawn, the end of the discussion) are applied by the environment. An eliminated player is
never asked again and is terminated at the end with everyone (``dead_leave=True``: at once).
At the end: +1 to each seat of the winning team, −1 to the others (eliminated seats
included), 0 in a draw (``round_limit``). ``parallel_env`` puts a whole night, or a whole
ballot, in one step.

Actions (n = players; A = 4n + 1):

- ``0 … n-1``: ``pick s`` (Werewolf: the pack's target)
- ``n … 2n-1``: ``check s`` (Seer)
- ``2n … 3n-1``: ``protect s`` (Guardian)
- ``3n … 4n-1``: ``vote s`` (ballot)
- ``4n``: ``abstain``

Observation (float32 in [0, 1]; sizes for n players), from the seat's view only:
``phase`` 5 (night, discussion, vote, revote, end) · ``round`` 1 (round/20) · ``me`` n (own
seat) · ``my_role`` 4 · ``my_turn`` 1 · ``alive`` n · ``roles`` 5n (per seat: unknown,
werewolf, seer, guardian, villager) · ``deal`` 4 (role counts / n) · ``pack_picks`` n·n and
``pack_previous`` n·n (Werewolves: picker × target) · ``pick_round`` 1 · ``locked`` n ·
``checks`` 2n (Seer: checked and Werewolf / checked and not) · ``checked_tonight`` n ·
``cannot_protect`` n · ``protecting`` n · ``candidates`` n · ``ballot`` 3 (revote, votes cast
/ voters, I voted) · ``my_vote`` n+1 (last: abstain) · ``last_tally`` n+1 (counts / n, last:
abstentions) · ``last_votes`` n·n (voter × target of the last closed ballot, when public) ·
``all_votes`` n·n (all public ballots so far, count/5) · ``night_result`` n+1 (who fell at
dawn; last: no one) · ``winner`` 3 (town, werewolves, draw). The exact table is in docs/rl.md.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import numpy as np

from wolfden.engine.errors import ConfigError
from wolfden.engine.types import Seat, Viewer
from wolfden.envs.base import WolfdenEnv, wrap
from wolfden.envs.layout import ActionGroup, ActionLayout, Block, ObsLayout, ObsWriter
from wolfden.envs.parallel import parallel_env_of
from wolfden.games.werewolf import ABSTAIN, CHECK, PICK, PROTECT, VOTE, Config, Phase, Role, State
from wolfden.games.werewolf.rules import BALLOTS
from wolfden.games.werewolf.views import sees_all

PHASES = ("night", "discussion", "vote", "revote", "end")
ROLES = ("werewolf", "seer", "guardian", "villager")


class raw_env(WolfdenEnv):
    game_id = "werewolf"
    metadata: ClassVar[dict[str, Any]] = {**WolfdenEnv.metadata, "name": "werewolf_v0"}

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        if self.config.talk:
            raise ConfigError(
                "the environment plays without structured talk (talk=False): its action space "
                "has no claims"
            )
        self._block_at = {name: start for name, (start, _) in self.observation_layout.spans.items()}
        self._table_of: State | None = None
        self._table = np.zeros(self.observation_layout.size, dtype=np.float32)
        config, n = self.config, self.config.players
        counts = (
            config.werewolf_count,
            config.seer_count,
            config.guardian_count,
            config.villager_count,
        )
        deal = self._block_at["deal"]
        self._deal_entries = {deal + i: _clip(count / n) for i, count in enumerate(counts)}

    @classmethod
    def accepts(cls, config: Any) -> bool:
        """Without talk, and the seed's roles only: the observation has no place for the
        variant roles or the Sheriff."""
        return not config.talk and not getattr(config, "beyond_seed", None)

    offers_only_to_actors = True

    def make_action_layout(self, config: Config) -> ActionLayout:
        if config.beyond_seed:
            raise ConfigError(
                "the werewolf environment plays the seed's roles (Werewolves, Seers, Guardians, "
                f"Villagers); this setup also has {', '.join(sorted(config.beyond_seed))}"
            )
        seats = range(config.players)
        return ActionLayout(
            [
                ActionGroup("pick s", tuple(PICK[s] for s in seats), "Werewolf: the pack's target"),
                ActionGroup("check s", tuple(CHECK[s] for s in seats), "Seer: look into seat s"),
                ActionGroup(
                    "protect s", tuple(PROTECT[s] for s in seats), "Guardian: shield seat s"
                ),
                ActionGroup("vote s", tuple(VOTE[s] for s in seats), "ballot: vote for seat s"),
                ActionGroup("abstain", (ABSTAIN,), "ballot: abstain"),
            ]
        )

    def make_observation_layout(self, config: Config) -> ObsLayout:
        n = config.players
        return ObsLayout(
            [
                Block("phase", 5, "one-hot: night, discussion, vote, revote, end"),
                Block("round", 1, "round number / 20"),
                Block("me", n, "one-hot: my seat"),
                Block("my_role", 4, "one-hot: werewolf, seer, guardian, villager"),
                Block("my_turn", 1, "1 when the game waits for me"),
                Block("alive", n, "1 per living seat"),
                Block(
                    "roles",
                    5 * n,
                    "per seat one-hot: unknown, werewolf, seer, guardian, villager",
                ),
                Block("deal", 4, "Werewolves, Seers, Guardians, Villagers dealt / n"),
                Block("pack_picks", n * n, "Werewolves: this round's picks, picker × target"),
                Block("pack_previous", n * n, "Werewolves: last round's picks, picker × target"),
                Block("pick_round", 1, "Werewolves: pick round / pack rounds"),
                Block("locked", n, "Werewolves: the pack's locked target"),
                Block("checks", 2 * n, "Seer: per seat, checked and Werewolf / checked and not"),
                Block("checked_tonight", n, "Seer: tonight's check"),
                Block("cannot_protect", n, "Guardian: last night's choice (barred)"),
                Block("protecting", n, "Guardian: tonight's choice"),
                Block("candidates", n, "ballot: the candidates"),
                Block("ballot", 3, "revote, votes cast / voters, I have voted"),
                Block("my_vote", n + 1, "one-hot: my vote in the open ballot (last: abstain)"),
                Block("last_tally", n + 1, "last closed ballot: votes per seat / n, abstentions"),
                Block("last_votes", n * n, "last closed public ballot: voter × target"),
                Block("all_votes", n * n, "all public ballots: voter × target, count / 5"),
                Block("night_result", n + 1, "who fell at the last dawn (last: no one)"),
                Block("winner", 3, "one-hot at the end: town, werewolves, draw"),
            ]
        )

    event_types = (
        "narration",
        "night_result",
        "no_elimination",
        "protecting",
        "vote_cast",
        "seer_answer",
        "pack_pick",
        "pack_locked",
        "pack_disagrees",
        "eliminated",
        "ballot_open",
        "tally",
        "game_over",
    )

    def event_blocks(self, config: Config) -> Sequence[Block]:
        return (
            Block("role", 4, "eliminated: the card shown, one-hot as in my_role"),
            Block("werewolf", 1, "seer_answer: 1 when the seat checked is a Werewolf"),
            Block("by", 2, "eliminated: one-hot, at night, by the vote"),
        )

    def encode_event(self, event: Mapping[str, Any], viewer: Seat, w: ObsWriter) -> None:
        kind = event["type"]
        if kind == "eliminated":
            if event.get("role") in ROLES:
                w.set("role", ROLES.index(event["role"]))
            w.set("by", 0 if event.get("by") == "night" else 1)
        elif kind == "seer_answer":
            w.scalar("werewolf", float(bool(event.get("werewolf"))))
        elif kind == "night_result" and event.get("eliminated") is not None:
            w.set("whom", event["eliminated"])

    def seat_out(self, state: State, seat: Seat) -> bool:
        """From the seat's own view (the game contract), not the state's internals."""
        return not self.game.view(state, Viewer.of(seat))["seats"][seat]["alive"]

    def encode(self, view: Mapping[str, Any], seat: Seat) -> np.ndarray:
        n = view["players"]
        w = self.observation_layout.writer()
        w.set("phase", PHASES.index(view["phase"]))
        w.scalar("round", view["round"] / 20)
        you = view["you"]
        w.set("me", you["seat"])
        w.set("my_role", ROLES.index(you["role"]))
        w.scalar("my_turn", float(you["your_turn"]))
        for entry in view["seats"]:
            s = entry["seat"]
            w.set("alive", s, float(entry["alive"]))
            role = entry.get("role")
            w.set("roles", 5 * s + (0 if role is None else 1 + ROLES.index(role)))
        deal = view["deal"]
        counts = (deal["werewolves"], deal["seers"], deal["guardians"], deal["villagers"])
        w.fill("deal", [c / n for c in counts])
        for picker, target in you.get("pack_picks", {}).items():
            w.set2("pack_picks", int(picker), target, n)
        for picker, target in you.get("pack_previous_picks", {}).items():
            w.set2("pack_previous", int(picker), target, n)
        if "pick_round" in you:
            w.scalar("pick_round", you["pick_round"] / you["pick_rounds"])
        if you.get("locked") is not None:
            w.set("locked", you["locked"])
        for check in you.get("checks", []):
            w.set("checks", 2 * check["target"] + (0 if check["werewolf"] else 1))
        if you.get("checked_tonight") is not None:
            w.set("checked_tonight", you["checked_tonight"])
        if you.get("cannot_protect") is not None:
            w.set("cannot_protect", you["cannot_protect"])
        if you.get("protecting") is not None:
            w.set("protecting", you["protecting"])
        ballot = view.get("ballot")
        if ballot is not None:
            for c in ballot["candidates"]:
                w.set("candidates", c)
            w.fill(
                "ballot",
                [
                    float(ballot["revote"]),
                    ballot["cast"] / max(1, ballot["voters"]),
                    float(you.get("voted", False)),
                ],
            )
            if you.get("voted"):
                vote = you.get("vote")
                w.set("my_vote", n if vote is None else vote)
        tallies = view["tallies"]
        if tallies:
            last = tallies[-1]
            for c, count in last["counts"].items():
                w.set("last_tally", int(c), count / n)
            w.set("last_tally", n, last["abstained"] / n)
            for voter, target in (last.get("votes") or {}).items():
                if target is not None:
                    w.set2("last_votes", int(voter), target, n)
        totals = np.zeros(n * n, dtype=np.float32)
        for tally in tallies:
            for voter, target in (tally.get("votes") or {}).items():
                if target is not None:
                    totals[int(voter) * n + target] += 0.2
        w.fill("all_votes", list(totals))
        night = view["night_result"]
        if night is not None:
            fell = night.get("eliminated")
            w.set("night_result", n if fell is None else fell)
        if view["phase"] == "end":
            winner = view.get("winner")
            w.set("winner", {"town": 0, "werewolves": 1}.get(str(winner), 2))
        return w.vector

    def encode_state(self, state: State, seat: Seat) -> np.ndarray:
        """:meth:`encode` of the seat's view, computed from the state: what every seat sees
        alike is encoded once per state (:meth:`_encode_table`), then what this seat alone
        knows is written over it, following the view's rules (its card, the pack, its checks,
        its vote, every card once it watches with open eyes). Tested equal to the view's
        encoding (tests/envs/test_fast_obs.py)."""
        if self._table_of is not state:
            self._table = self._encode_table(state)
            self._table_of = state
        vector = self._table.copy()
        at = self._block_at
        n = state.players
        entries: dict[int, float] = {}
        role = state.cards[seat].role
        entries[at["me"] + seat] = 1.0
        entries[at["my_role"] + ROLES.index(role.value)] = 1.0
        if seat in state.pending:
            entries[at["my_turn"]] = 1.0
        known: Any
        if state.phase is Phase.END or sees_all(state, Viewer.of(seat)):
            known = range(n)
        else:
            wolves = {s for s in range(n) if state.is_werewolf(s)}
            knows_wolves = seat in wolves or state.roles[seat] is Role.MINION
            known = wolves | {seat} if knows_wolves else {seat}
        for s in known:
            entries[at["roles"] + 5 * s] = 0.0
            entries[at["roles"] + 5 * s + 1 + ROLES.index(state.cards[s].role.value)] = 1.0
        night = state.phase is Phase.NIGHT
        if role is Role.WEREWOLF and night:
            for w in range(n):
                if not state.is_werewolf(w):
                    continue
                if (pick := state.picks[w]) is not None and 0 <= pick < n:
                    entries[at["pack_picks"] + w * n + pick] = 1.0
                if (pick := state.previous_picks[w]) is not None and 0 <= pick < n:
                    entries[at["pack_previous"] + w * n + pick] = 1.0
            entries[at["pick_round"]] = _clip(state.pick_round / state.config.pack_rounds)
            if state.locked is not None:
                entries[at["locked"] + state.locked] = 1.0
        elif role is Role.SEER:
            for check in state.seer_checks:
                if check.seer == seat:
                    entries[at["checks"] + 2 * check.target + (0 if check.werewolf else 1)] = 1.0
            if night and (checked := state.checked[seat]) is not None:
                entries[at["checked_tonight"] + checked] = 1.0
        elif role is Role.GUARDIAN:
            if (barred := state.last_protected[seat]) is not None:
                entries[at["cannot_protect"] + barred] = 1.0
            if night and (protecting := state.protecting[seat]) is not None:
                entries[at["protecting"] + protecting] = 1.0
        if state.phase in BALLOTS and state.has_voted(seat):
            entries[at["ballot"] + 2] = 1.0
            vote = state.votes[seat]
            entries[at["my_vote"] + (n if vote is None else vote)] = 1.0
        vector[list(entries)] = list(entries.values())
        return vector

    def _encode_table(self, state: State) -> np.ndarray:
        """What every seat's view shows alike: phase, round, who lives, the cards shown, the
        deal, the ballot, the tallies, the last dawn and the winner (seats absolute)."""
        at = self._block_at
        n = state.players
        entries: dict[int, float] = {}
        entries[at["phase"] + PHASES.index(state.phase.value)] = 1.0
        entries[at["round"]] = _clip(state.round / 20)
        known = {death.seat for death in state.deaths} | state.voteless
        for s in range(n):
            if state.is_alive(s):
                entries[at["alive"] + s] = 1.0
            role = state.cards[s].role.value if s in known else None
            entries[at["roles"] + 5 * s + (0 if role is None else 1 + ROLES.index(role))] = 1.0
        entries.update(self._deal_entries)
        if state.phase in BALLOTS:
            for c in state.candidates:
                if 0 <= c < n:
                    entries[at["candidates"] + c] = 1.0
            voters = state.voters
            cast = sum(1 for v in voters if state.has_voted(v))
            entries[at["ballot"]] = float(state.phase is Phase.REVOTE)
            entries[at["ballot"] + 1] = _clip(cast / max(1, len(voters)))
        tallies = state.tallies
        if tallies:
            last = tallies[-1]
            for c, count in last.counts:
                if 0 <= c <= n:
                    entries[at["last_tally"] + c] = _clip(count / n)
            entries[at["last_tally"] + n] = _clip(last.abstained / n)
            for voter, target in last.votes or ():
                if target is not None and 0 <= target < n:
                    entries[at["last_votes"] + voter * n + target] = 1.0
        times: dict[int, int] = {}
        for tally in tallies:
            for voter, target in tally.votes or ():
                if target is not None:
                    times[voter * n + target] = times.get(voter * n + target, 0) + 1
        for i, k in times.items():
            entries[at["all_votes"] + i] = _fifths(k)
        night = state.night_result
        if night is not None:
            fell = night.get("eliminated")
            entries[at["night_result"] + (n if fell is None else fell)] = 1.0
        if state.phase is Phase.END:
            winner = state.winner.value if state.winner else None
            entries[at["winner"] + {"town": 0, "werewolves": 1}.get(str(winner), 2)] = 1.0
        vector = np.zeros(self.observation_layout.size, dtype=np.float32)
        vector[list(entries)] = list(entries.values())
        return vector


@functools.cache
def _fifths(k: int) -> float:
    """An ``all_votes`` entry after ``k`` votes, as :meth:`raw_env.encode` sums them: 0.2 added
    ``k`` times to a float32, then clipped."""
    total = np.zeros(1, dtype=np.float32)
    for _ in range(k):
        total[0] += 0.2
    return _clip(float(total[0]))


def _clip(value: float) -> float:
    """An entry as ``ObsWriter`` stores it: within [0, 1]."""
    return 1.0 if value >= 1.0 else 0.0 if value <= 0.0 else value


def env(**kwargs: Any) -> Any:
    """Werewolf, wrapped as PettingZoo's classic games are."""
    return wrap(raw_env(**kwargs))


parallel_env = parallel_env_of(raw_env)
"""The same game as a PettingZoo parallel environment (see :mod:`wolfden.envs.parallel`)."""

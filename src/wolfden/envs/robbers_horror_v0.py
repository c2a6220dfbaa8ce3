"""The Werewolves bEat Robbers' Horror as a PettingZoo AEC environment.

``env(**kwargs)`` is wrapped like PettingZoo's classic games; ``raw_env(**kwargs)`` is not.
Keyword arguments are the fields of ``wolfden.games.robbers_horror.Config`` (``players=4``,
``deals=1``, …) or ``config=Config(...)``, plus ``render_mode``, ``max_cycles``,
``think_seconds``, ``dead_leave`` (see :mod:`wolfden.envs.base`) and the two reward weights
below.

Agents ``player_0`` … ``player_{n-1}`` are the seats; one card is played per step, by the seat
whose turn it is, so no turn needs serialising.

Rewards (defined precisely):

- **Per deal**, when a deal is scored: ``deal_reward`` (default 1) to every seat on the team
  that won the deal (its team in that deal: robbers, or the werewolf team of Werewolves and the
  Traitor), ``−deal_reward`` to every seat of the other team, 0 to everyone when the deal is
  tied. This is the game point the rules give, made zero-sum.
- **Per match**, at the end: ``match_reward`` (default 1) to every seat with the most game
  points (shared wins included), ``−match_reward`` to the others; 0 to everyone when all seats
  share the top.

Actions (A = 34): index ``i`` plays card ``CARDS[i]``:
``0 … 14``: ``play C1`` … ``play C15`` (treasure chests) · ``15 … 29``: ``play R1`` …
``play R15`` (robbers) · ``30``: ``play W`` (a Werewolf) · ``31``: ``play S`` (the Seer) ·
``32``: ``play K`` (a Knife) · ``33``: ``play T`` (the Traitor).

Observation (float32 in [0, 1]; n players). Seats are *relative*: entry ``k`` of a per-seat
block is the seat ``k`` places to my left (``k = 0`` is me), so one policy fits every seat.
Cards use the 34 notations in the action order, a card's entry being copies / copies in the
deck (the Werewolves and the Knives have two copies each). Blocks: ``role`` 3 (robber,
werewolf, traitor) · ``team`` 2 (robbers, werewolves) · ``hand`` 34 · ``trick`` n·34 (the card
each seat has put on the current trick) · ``trick_values`` 2n (per seat on the trick: its
effective rank / 17 and whether it counts as trump, as far as known) · ``trick_leader`` n ·
``lead_suit`` 3 (chest, robber, not yet known) · ``trick_size`` n (one-hot: cards already on
the trick) · ``seen`` 34 (cards seen played this deal: the current trick, the last trick and,
with ``show_history``, every completed trick) · ``last_trick`` n·34 · ``last_winner`` n ·
``werewolf_chips`` n · ``traitor_chip`` n · ``tricks_won`` n (/ hand size) · ``hand_sizes`` n
(/ hand size) · ``dealer`` n · ``points`` n (game points / deals) · ``deal`` 1 ((deal − 1) /
deals) · ``last_deal`` 3 (who won the last scored deal: robbers, werewolves, tie) · ``icons``
15 (the icon table / 9) · ``winners`` n (at the end). The exact table is in docs/rl.md.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import numpy as np

from wolfden.engine.types import Action, Event, Outcome, Seat
from wolfden.envs.base import WolfdenEnv, wrap
from wolfden.envs.layout import ActionGroup, ActionLayout, Block, ObsLayout, ObsWriter
from wolfden.envs.parallel import parallel_env_of
from wolfden.games.robbers_horror import Config
from wolfden.games.robbers_horror.components import Role
from wolfden.games.robbers_horror.rules import effective_of, leading_suit
from wolfden.games.robbers_horror.state import State

CARDS: tuple[str, ...] = (
    *(f"C{r}" for r in range(1, 16)),
    *(f"R{r}" for r in range(1, 16)),
    "W",
    "S",
    "K",
    "T",
)
"""The card notations in action and observation order."""
CARD_INDEX = {c: i for i, c in enumerate(CARDS)}
COPIES = tuple(2.0 if c in ("W", "K") else 1.0 for c in CARDS)
PLAY = tuple(Action("play", (c,)) for c in CARDS)
TEAMS = ("robbers", "werewolves")
ROLES = ("robber", "werewolf", "traitor")
RELATIVE = (
    "trick",
    "trick_values",
    "trick_leader",
    "last_trick",
    "last_winner",
    "werewolf_chips",
    "traitor_chip",
    "tricks_won",
    "hand_sizes",
    "dealer",
    "points",
    "winners",
)
"""The blocks laid out per relative seat: n rows, rotated by the viewer's seat."""


class raw_env(WolfdenEnv):
    game_id = "robbers-horror"
    metadata: ClassVar[dict[str, Any]] = {**WolfdenEnv.metadata, "name": "robbers_horror_v0"}
    _table_of: State | None
    """The state whose table ``_table`` holds (see :meth:`encode_state`)."""

    def __init__(self, *, deal_reward: float = 1.0, match_reward: float = 1.0, **kwargs: Any):
        self.deal_reward = float(deal_reward)
        self.match_reward = float(match_reward)
        super().__init__(**kwargs)
        self._setup_fast_encoding()

    def make_action_layout(self, config: Config) -> ActionLayout:
        return ActionLayout(
            [
                ActionGroup("play C1 … play C15", PLAY[0:15], "a treasure chest, rank 1 to 15"),
                ActionGroup("play R1 … play R15", PLAY[15:30], "a robber, rank 1 to 15"),
                ActionGroup("play W", PLAY[30:31], "a Werewolf"),
                ActionGroup("play S", PLAY[31:32], "the Seer"),
                ActionGroup("play K", PLAY[32:33], "a Knife"),
                ActionGroup("play T", PLAY[33:34], "the Traitor"),
            ]
        )

    def make_observation_layout(self, config: Config) -> ObsLayout:
        n = config.players
        c = len(CARDS)
        return ObsLayout(
            [
                Block("role", 3, "one-hot: robber, werewolf, traitor"),
                Block("team", 2, "one-hot: robber team, werewolf team"),
                Block("hand", c, "my cards: copies / copies in the deck"),
                Block("trick", n * c, "current trick: relative seat × card"),
                Block("trick_values", 2 * n, "current trick per relative seat: rank / 17, trump"),
                Block("trick_leader", n, "relative seat who led the current trick"),
                Block("lead_suit", 3, "one-hot: chest, robber, not yet known"),
                Block("trick_size", n, "one-hot: cards already on the trick"),
                Block("seen", c, "cards seen played this deal (trick, last trick, history)"),
                Block("last_trick", n * c, "last completed trick: relative seat × card"),
                Block("last_winner", n, "relative seat who won the last trick"),
                Block("werewolf_chips", n, "relative seats showing a Werewolf chip"),
                Block("traitor_chip", n, "relative seat showing the Traitor chip"),
                Block("tricks_won", n, "tricks won this deal per relative seat / hand size"),
                Block("hand_sizes", n, "cards in hand per relative seat / hand size"),
                Block("dealer", n, "relative seat of the dealer"),
                Block("points", n, "game points per relative seat / deals"),
                Block("deal", 1, "(deal number − 1) / deals"),
                Block("last_deal", 3, "last scored deal won by: robbers, werewolves, tie"),
                Block("icons", 15, "icons on cards of rank 1 to 15 / 9"),
                Block("winners", n, "at the end: relative seats with the most game points"),
            ]
        )

    def encode(self, view: Mapping[str, Any], seat: Seat) -> np.ndarray:
        n = view["players"]
        c = len(CARDS)
        w = self.observation_layout.writer()

        def rel(s: int | None) -> int:
            return -1 if s is None else (s - seat) % n

        w.set("role", ("robber", "werewolf", "traitor").index(view["role"]))
        w.set("team", TEAMS.index(view["team"]))
        w.fill("hand", list(_counts(view["hand"])))
        seen = np.zeros(c, dtype=np.float32)
        trick = view["trick"]
        for entry in trick["cards"]:
            k, i = rel(entry["seat"]), CARD_INDEX[entry["card"]]
            w.set2("trick", k, i, c)
            if entry.get("rank") is not None:
                w.set("trick_values", 2 * k, entry["rank"] / 17)
            w.set("trick_values", 2 * k + 1, float(bool(entry.get("trump"))))
            seen[i] += 1 / COPIES[i]
        w.set("trick_leader", rel(trick["leader"]))
        w.set("lead_suit", {"C": 0, "R": 1}.get(trick["lead_suit"], 2))
        w.set("trick_size", len(trick["cards"]))
        last = view.get("last_trick")
        history = view.get("history") or []
        if last is not None:
            for entry in last["cards"]:
                w.set2("last_trick", rel(entry["seat"]), CARD_INDEX[entry["card"]], c)
            w.set("last_winner", rel(last["winner"]))
        shown = history if history else ([last] if last is not None else [])
        for done in shown:
            for entry in done["cards"]:
                i = CARD_INDEX[entry["card"]]
                seen[i] += 1 / COPIES[i]
        w.fill("seen", list(seen))
        chips = view["chips"]
        for s in chips["werewolf"]:
            w.set("werewolf_chips", rel(s))
        w.set("traitor_chip", rel(chips["traitor"]))
        size = max(1, view["hand_size"])
        deals = max(1, view["deals"])
        for s in range(n):
            k = rel(s)
            w.set("tricks_won", k, view["tricks_won"][s] / size)
            w.set("hand_sizes", k, view["hand_sizes"][s] / size)
            w.set("points", k, view["points"][s] / deals)
        w.set("dealer", rel(view["dealer"]))
        w.scalar("deal", (view["deal"] - 1) / deals)
        if view["deal_winners"]:
            last_winner = view["deal_winners"][-1]
            w.set("last_deal", {"robbers": 0, "werewolves": 1}.get(last_winner, 2))
        w.fill("icons", [i / 9 for i in view["icons"]])
        for s in view.get("winners", []):
            w.set("winners", rel(s))
        return w.vector

    def encode_state(self, state: State, seat: Seat) -> np.ndarray:
        """:meth:`encode` of the seat's view, computed from the state: every seat sees the same
        table, so the table is encoded once per state with absolute seats (as seat 0 sees it)
        and turned to each viewer by a fixed permutation; then the viewer's own role, team and
        hand are written. Tested equal to the view's encoding (tests/envs/test_fast_obs.py)."""
        if self._table_of is not state:
            self._table = self._encode_table(state)
            self._table_of = state
        vector = self._table[self._turn[seat]]
        hand, role = state.hands[seat], state.roles[seat]
        mine = self._mine[seat]
        if mine is None or mine[0] is not hand or mine[1] is not role:
            mine = (hand, role, self._encode_mine(hand, role))
            self._mine[seat] = mine
        vector[self._private : self._private + 5 + len(CARDS)] = mine[2]
        return vector

    def _encode_mine(self, hand: Sequence[Any], role: Role) -> np.ndarray:
        """The blocks ``role``, ``team`` and ``hand`` of a seat's observation."""
        values = [0.0] * (5 + len(CARDS))
        values[ROLES.index(role.value)] = 1.0
        values[3 + TEAMS.index(role.team.value)] = 1.0
        for card in hand:
            i = CARD_INDEX[card.notation]
            values[5 + i] = _clip(values[5 + i] + 1 / COPIES[i])
        return np.array(values, dtype=np.float32)

    def _setup_fast_encoding(self) -> None:
        """The permutations that turn the table (seat 0's relative seats) to each viewer, and
        where each block starts."""
        layout = self.observation_layout
        n = self.config.players
        spans = layout.spans
        turns = []
        for seat in range(n):
            order = np.arange(layout.size)
            for name in RELATIVE:
                start, size = spans[name]
                width = size // n
                for k in range(n):
                    source = start + ((k + seat) % n) * width
                    order[start + k * width : start + (k + 1) * width] = np.arange(
                        source, source + width
                    )
            turns.append(order)
        self._turn = turns
        self._block_at = {name: start for name, (start, _) in spans.items()}
        self._private = spans["role"][0]
        if (spans["team"][0], spans["hand"][0]) != (self._private + 3, self._private + 5):
            raise AssertionError("role, team and hand must be laid out one after the other")
        self._mine: list[tuple[Any, Role, np.ndarray] | None] = [None] * n
        # the icon table never changes: every table starts from it
        self._blank = np.zeros(layout.size, dtype=np.float32)
        icons = self.config.icons[: spans["icons"][1]]
        start = spans["icons"][0]
        self._blank[start : start + len(icons)] = [_clip(i / 9) for i in icons]
        self._table_of = None
        self._table = np.zeros(layout.size, dtype=np.float32)

    def _encode_table(self, state: State) -> np.ndarray:
        """Everything but the viewer's role, team and hand, with absolute seats."""
        at = self._block_at
        n = state.config.players
        c = len(CARDS)
        values: dict[int, float] = {}  # the entries that are not 0
        seen = [0.0] * c
        trick, leader = state.trick, state.leader
        start, values_at = at["trick"], at["trick_values"]
        effective = effective_of(trick, len(trick) == n)
        for place, (card, e) in enumerate(zip(trick, effective)):
            k, i = (leader + place) % n, CARD_INDEX[card.notation]
            values[start + k * c + i] = 1.0
            if e.rank is not None:
                values[values_at + 2 * k] = _clip(e.rank / 17)
            if e.trump:
                values[values_at + 2 * k + 1] = 1.0
            seen[i] += 1 / COPIES[i]
        values[at["trick_leader"] + leader] = 1.0
        lead = leading_suit(trick)
        values[at["lead_suit"] + (2 if lead is None else {"C": 0, "R": 1}.get(lead.value, 2))] = 1
        if len(trick) < n:
            values[at["trick_size"] + len(trick)] = 1.0
        config = state.config
        tricks = state.tricks
        shown: tuple[Any, ...] = ()
        if config.show_last_trick and tricks:
            last = tricks[-1]
            start = at["last_trick"]
            for place, card in enumerate(last.cards):
                values[start + ((last.leader + place) % n) * c + CARD_INDEX[card.notation]] = 1.0
            values[at["last_winner"] + last.winner] = 1.0
            shown = (last,)
        if config.show_history and tricks:
            shown = tricks
        for done in shown:
            for card in done.cards:
                i = CARD_INDEX[card.notation]
                seen[i] += 1 / COPIES[i]
        start = at["seen"]
        for i, v in enumerate(seen):
            if v:
                values[start + i] = _clip(v)
        chips = state.chips
        for s in chips.werewolf:
            values[at["werewolf_chips"] + s] = 1.0
        if chips.traitor is not None:
            values[at["traitor_chip"] + chips.traitor] = 1.0
        size = max(1, state.hand_size)
        deals = max(1, state.deals)
        won = [0] * n
        for t in tricks:
            won[t.winner] += 1
        tricks_won, hand_sizes, points = at["tricks_won"], at["hand_sizes"], at["points"]
        for s in range(n):
            values[tricks_won + s] = _clip(won[s] / size)
            values[hand_sizes + s] = _clip(len(state.hands[s]) / size)
            values[points + s] = _clip(state.points[s] / deals)
        values[at["dealer"] + state.dealer] = 1.0
        values[at["deal"]] = _clip(state.deal / deals)
        if state.results:
            winner = state.results[-1].winner
            values[at["last_deal"] + (2 if winner is None else TEAMS.index(winner.value))] = 1.0
        if state.turn is None and state.outcome is not None:
            for s in state.outcome.winners:
                values[at["winners"] + s] = 1.0
        vector = self._blank.copy()
        vector[list(values)] = list(values.values())
        return vector

    def max_return(self) -> float:
        deals = self.config.deals or self.config.players
        return float(deals * abs(self.deal_reward) + abs(self.match_reward))

    offers_only_to_actors = True

    event_types = ("play", "trick", "chip", "score", "deal", "hand", "match_over")

    def event_blocks(self, config: Config) -> Sequence[Block]:
        return (
            Block("card", len(CARDS), "play: the card; trick: the winning card"),
            Block("chip", 2, "chip: one-hot, Werewolf chip, Traitor chip"),
            Block("deal_won", 3, "score: the deal went to robbers, werewolves, tie"),
        )

    def event_seat(self, seat: Any, viewer: Seat) -> int:
        """Relative, as in the observation: k places to the viewer's left."""
        if not isinstance(seat, int) or isinstance(seat, bool):
            return -1
        return (seat - viewer) % len(self.possible_agents)

    def encode_event(self, event: Mapping[str, Any], viewer: Seat, w: ObsWriter) -> None:
        kind = event["type"]
        if kind == "play":
            w.set("card", CARD_INDEX[event["card"]])
        elif kind == "trick":
            w.set("who", self.event_seat(event["winner"], viewer))
            w.set("card", CARD_INDEX[event["winning_card"]])
        elif kind == "chip":
            w.set("chip", 0 if event["chip"] == "werewolf" else 1)
        elif kind == "score":
            w.set("deal_won", {"robbers": 0, "werewolves": 1}.get(event["winner"], 2))

    def make_hidden_layout(self, config: Config) -> ObsLayout:
        return ObsLayout([Block("undealt", len(CARDS), "state(): the card left undealt")])

    def encode_hidden(self, view: Mapping[str, Any]) -> np.ndarray:
        w = self.hidden_layout.writer() if self.hidden_layout else None
        assert w is not None
        if view.get("undealt"):
            w.set("undealt", CARD_INDEX[view["undealt"]])
        return w.vector

    def step_rewards(
        self, before: Any, after: Any, events: Sequence[Event]
    ) -> Mapping[Seat, float]:
        """The per-deal reward, from the public ``score`` event of a scored deal."""
        out: dict[Seat, float] = {}
        for event in events:
            if event.type != "score":
                continue
            winner = event.data["winner"]
            if winner is None:
                continue
            for entry in event.data["seats"]:
                seat = entry["seat"]
                sign = 1.0 if entry["team"] == winner else -1.0
                out[seat] = out.get(seat, 0.0) + sign * self.deal_reward
        return out

    def final_rewards(self, outcome: Outcome) -> Mapping[Seat, float]:
        seats = range(len(self.possible_agents))
        if len(outcome.winners) == len(seats):
            return dict.fromkeys(seats, 0.0)
        return {s: self.match_reward if s in outcome.winners else -self.match_reward for s in seats}


def _clip(value: float) -> float:
    """An entry as ``ObsWriter`` stores it: within [0, 1]."""
    return 1.0 if value >= 1.0 else 0.0 if value <= 0.0 else value


def _counts(cards: Sequence[str]) -> np.ndarray:
    out = np.zeros(len(CARDS), dtype=np.float32)
    for card in cards:
        i = CARD_INDEX[card]
        out[i] += 1 / COPIES[i]
    return out


def env(**kwargs: Any) -> Any:
    """Robbers' Horror, wrapped as PettingZoo's classic games are."""
    return wrap(raw_env(**kwargs))


parallel_env = parallel_env_of(raw_env)
"""The same game as a PettingZoo parallel environment (see :mod:`wolfden.envs.parallel`)."""

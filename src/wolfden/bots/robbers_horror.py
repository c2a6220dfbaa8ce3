"""Bots for The Werewolves bEat Robbers' Horror. They see only their view and legal actions.

Both bots remember what they have seen during a deal, the way an attentive player does: every
completed trick the view shows (the last trick, or the whole history when that option is on)
is noted, so the bot knows who took which cards and which cards are still out.

- ``rules`` plays by its role. A Robber (or the Traitor) hunts chests, a Werewolf hunts robber
  cards; everyone avoids taking the card that halves their own score (a Werewolf for Robbers
  and the Traitor, a Knife for Werewolves) and tries to land such cards on suspected opponents.
  Suspicion comes from the chips: whoever played a Werewolf or the Traitor is on the werewolf
  team; the others are weighed by how many werewolf-team places are still unaccounted for.
- ``ismcts``: information-set Monte Carlo tree search (single observer). Each iteration deals
  the unseen cards at random into the other hands, the undealt slot and any pile cards the bot
  did not see, consistent with everything its view shows (its hand, the cards played, the
  piles' sizes, the chips): a world, which is a state of the game. Then it walks one shared
  tree of its and the others' moves, with UCB over the moves available in that world, finishes
  the deal with random play and reads the deal's score, every step through the game's own
  ``legal_actions`` and ``apply``. It never reads the game state. The budget is a number of
  iterations (default 400) or a number of seconds.
- :class:`KernelIsmctsBot` (not a menu kind: it needs numba) runs the same search compiled
  (:mod:`wolfden.kernel.robbers_horror_ismcts`), from the same view and memory, with random or
  rules rollouts; the budget is a number of simulations.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Mapping, Sequence
from typing import Any

from wolfden.engine.rng import Rng
from wolfden.engine.types import Action, Seat
from wolfden.games.robbers_horror.components import (
    KNIFE,
    SEER,
    TRAITOR,
    WEREWOLF,
    Card,
    Kind,
    Role,
    deck,
)
from wolfden.games.robbers_horror.config import DEFAULT_ICONS, Config
from wolfden.games.robbers_horror.rules import (
    apply,
    effective_ranks,
    legal_actions,
    role_of,
    winning_place,
    without,
)
from wolfden.games.robbers_horror.state import Chips, State

WEREWOLF_TEAM_ROLES = ("werewolf", "traitor")
HALVING_COST = 7.0
"""What the rules bot reckons a card that halves a score costs its taker, in icons."""


def _cards(notations: Sequence[str]) -> list[Card]:
    return [Card(text) for text in notations]


class Memory:
    """What a player has seen of the current deal: completed tricks by number."""

    def __init__(self) -> None:
        self.key: tuple[int, int] = (-1, -1)
        self.tricks: dict[int, tuple[int, list[Card], int]] = {}

    def update(self, view: Mapping[str, Any]) -> None:
        key = (view["deal"], view["deals"])
        number = view["trick"]["number"]
        if key != self.key or any(n >= number for n in self.tricks):
            self.key = key
            self.tricks = {}
        shown = list(view.get("history") or [])
        if view.get("last_trick"):
            shown.append(view["last_trick"])
        for t in shown:
            cards = _cards([c["card"] for c in t["cards"]])
            self.tricks[t["number"]] = (t["leader"], cards, t["winner"])


class Knowledge:
    """The bot's picture of the deal, from its view and its memory."""

    def __init__(self, view: Mapping[str, Any], memory: Memory) -> None:
        self.n: int = view["players"]
        self.me: Seat = view["seat"]
        self.role: str = view["role"]
        self.dealer: Seat = view["dealer"]
        self.icons: tuple[int, ...] = tuple(view.get("icons") or DEFAULT_ICONS)
        self.hand = _cards(view["hand"])
        self.played_by: list[list[Card]] = [[] for _ in range(self.n)]
        self.piles: list[list[Card]] = [[] for _ in range(self.n)]
        seen = list(self.hand)
        for leader, cards, winner in memory.tricks.values():
            for i, card in enumerate(cards):
                self.played_by[(leader + i) % self.n].append(card)
            self.piles[winner] += cards
            seen += cards
        trick = view["trick"]
        self.leader: Seat = trick["leader"]
        self.trick = _cards([c["card"] for c in trick["cards"]])
        for i, card in enumerate(self.trick):
            self.played_by[(self.leader + i) % self.n].append(card)
        seen += self.trick
        self.hand_sizes: list[int] = list(view["hand_sizes"])
        self.pile_sizes: list[int] = list(view["piles"])
        self.undealt: int = view["undealt_cards"]
        self.pool = list(without(deck(self.n), seen))
        """The cards the bot has not seen, in card order."""
        chips = view["chips"]
        self.werewolf_chips: set[int] = set(chips["werewolf"])
        self.traitor_chip: int | None = chips["traitor"]
        self.chips = Chips(tuple(chips["werewolf"]), chips["traitor"])

    def werewolf_team_chance(self) -> list[float]:
        """For each seat, the chance that it is on the werewolf team, from public knowledge,
        the bot's own role and its own hand."""
        n = self.n
        chance = [0.0] * n
        known = set(self.werewolf_chips)
        if self.traitor_chip is not None:
            known.add(self.traitor_chip)
        mine = self.role in WEREWOLF_TEAM_ROLES
        if mine:
            known.add(self.me)
        unknown = [s for s in range(n) if s not in known and s != self.me]
        werewolf_cards = deck(n).count(WEREWOLF)
        my_werewolves = (self.hand + self.played_by[self.me]).count(WEREWOLF)
        others_known = len(self.werewolf_chips - {self.me})
        out_werewolves = max(0, werewolf_cards - my_werewolves - others_known)
        traitor_out = (
            self.traitor_chip is None
            and TRAITOR not in self.hand
            and TRAITOR not in self.played_by[self.me]
        )
        expected = min(len(unknown), out_werewolves * 0.85 + (0.7 if traitor_out else 0.0))
        for s in range(n):
            if s in known:
                chance[s] = 1.0
            elif s == self.me:
                chance[s] = 1.0 if mine else 0.0
            elif unknown:
                chance[s] = min(0.95, max(0.05, expected / len(unknown)))
        return chance


def _icons(card: Card, icons: tuple[int, ...]) -> int:
    return icons[card.rank - 1] if card.rank is not None else 0


def _gains(cards: Sequence[Card], icons: tuple[int, ...]) -> tuple[float, float]:
    """What a trick is worth to a chest scorer and to a robber scorer, a halving card counting
    as a heavy loss."""
    chest = robber = 0.0
    for card in cards:
        if card.kind is Kind.CHEST:
            chest += _icons(card, icons)
        elif card.kind is Kind.ROBBER:
            robber += _icons(card, icons)
        elif card is WEREWOLF:
            chest -= HALVING_COST
        elif card is KNIFE:
            robber -= HALVING_COST
    return chest, robber


_POWER = {WEREWOLF: 8.0, SEER: 6.0, TRAITOR: 4.0, KNIFE: 0.5}


def _power(card: Card) -> float:
    """How strong a card is to keep for later tricks."""
    if card.rank is not None:
        return card.rank / 4.0
    return _POWER[card]


class RobbersHorrorRulesBot:
    """Plays by its role and reads the chips (see the module's description)."""

    needs_view = True

    def __init__(self, seat: Seat) -> None:
        self.seat = seat
        self.memory = Memory()

    def act(self, view: Mapping[str, Any], legal: Sequence[Action], rng: Rng) -> Action:
        self.memory.update(view)
        if len(legal) == 1:
            return legal[0]
        k = Knowledge(view, self.memory)
        chance = k.werewolf_team_chance()
        mine_w = k.role in WEREWOLF_TEAM_ROLES
        n = k.n
        later = n - len(k.trick) - 1
        best: tuple[float, float] | None = None
        choice = legal[0]
        for action in legal:
            card = Card(str(action.args[0]))
            cards = [*k.trick, card]
            place = winning_place(cards)
            trump, rank = effective_ranks(cards)[place]
            holder = (k.leader + place) % n
            chest, robber = _gains(cards, k.icons)

            def benefit(seat: Seat, chest: float = chest, robber: float = robber) -> float:
                if seat == k.me:
                    return robber if k.role == "werewolf" else chest
                p = chance[seat]
                if mine_w:
                    return p * robber - (1 - p) * chest
                return (1 - p) * chest - p * robber

            if later == 0:
                expected = benefit(holder)
            else:
                strength = (rank + 1) / 18.0 if trump else rank / 60.0
                hold = max(0.0, min(1.0, strength)) ** later
                others = [(k.leader + i) % n for i in range(len(cards), n)]
                rest = sum(benefit(s) for s in others) / len(others)
                expected = hold * benefit(holder) + (1 - hold) * rest
            score = expected - 0.3 * _power(card)
            tie = rng.random()
            if best is None or (score, tie) > best:
                best = (score, tie)
                choice = action
        return choice


# -- information-set Monte Carlo tree search ---------------------------------------------------


class _Node:
    __slots__ = ("avail", "children", "seat", "visits", "wins")

    def __init__(self, seat: Seat) -> None:
        self.seat = seat
        self.visits = 0
        self.wins = 0.0
        self.avail = 0
        self.children: dict[Action, _Node] = {}


def _team_rewards(world: State) -> list[float]:
    """Each seat's reward for the world's scored deal: 1 for a team win, 0.5 for a tie, 0 for
    a loss, blended with the margin so that close and wide results differ a little."""
    result = world.results[-1]
    diff = result.robber_total - result.werewolf_total
    win = 1.0 if diff > 0 else 0.0 if diff < 0 else 0.5
    margin = 0.5 + 0.5 * max(-1.0, min(1.0, diff / 30.0))
    robber_reward = 0.8 * win + 0.2 * margin
    return [robber_reward if role is Role.ROBBER else 1.0 - robber_reward for role in world.roles]


class IsmctsBot:
    """Single-observer information-set MCTS over sampled worlds (see the module description)."""

    needs_view = True

    def __init__(
        self,
        seat: Seat,
        *,
        iterations: int = 400,
        seconds: float | None = None,
        exploration: float = 0.7,
    ) -> None:
        if iterations < 1:
            raise ValueError("the ismcts bot needs at least one iteration")
        self.seat = seat
        self.iterations = iterations
        self.seconds = seconds
        self.exploration = exploration
        self.memory = Memory()

    def act(self, view: Mapping[str, Any], legal: Sequence[Action], rng: Rng) -> Action:
        self.memory.update(view)
        if len(legal) == 1:
            return legal[0]
        k = Knowledge(view, self.memory)
        r = random.Random(rng.next64())
        # The world is the deal's last: the game scores it when the hands are empty.
        config = Config(players=k.n, deals=1, first_dealer=k.dealer, icons=k.icons)
        root = _Node(k.me)
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        i = 0
        while True:
            if deadline is None:
                if i >= self.iterations:
                    break
            elif i > 0 and time.perf_counter() >= deadline:
                break
            i += 1
            world = self._sample(k, r, config)
            path, world = self._descend(root, world, r)
            rewards = _team_rewards(self._rollout(world, r))
            for node in path:
                node.visits += 1
                node.wins += rewards[node.seat]
        moves = [m for m in legal if m in root.children]
        return max(moves, key=lambda m: (root.children[m].visits, root.children[m].wins))

    def _descend(self, root: _Node, world: State, r: random.Random) -> tuple[list[_Node], State]:
        """Walk the tree from the root by UCB over the moves of this world, until a move not
        tried yet (added to the tree) or the end of the deal: the path of nodes and the world
        reached."""
        node = root
        path = [root]
        c = self.exploration
        while world.turn is not None:
            seat = world.turn
            moves = legal_actions(world, seat)
            untried = [m for m in moves if m not in node.children]
            if untried:
                move = untried[int(r.random() * len(untried))]
                child = node.children[move] = _Node(seat)
                world, _ = apply(world, seat, move)
                path.append(child)
                break
            best = -1.0
            chosen = moves[0]
            for m in moves:
                ch = node.children[m]
                ch.avail += 1
                score = ch.wins / ch.visits + c * math.sqrt(math.log(ch.avail) / ch.visits)
                if score > best:
                    best = score
                    chosen = m
            world, _ = apply(world, seat, chosen)
            node = node.children[chosen]
            path.append(node)
        return path, world

    @staticmethod
    def _sample(k: Knowledge, r: random.Random, config: Config) -> State:
        """A world consistent with the view: the unseen cards dealt at random into the other
        hands, the undealt slot and the pile cards the bot did not see."""
        pool = k.pool[:]
        r.shuffle(pool)
        n = k.n
        hands: list[tuple[Card, ...]] = []
        at = 0
        for s in range(n):
            if s == k.me:
                hands.append(tuple(k.hand))
                continue
            size = k.hand_sizes[s]
            hands.append(tuple(sorted(pool[at : at + size])))
            at += size
        undealt = pool[at] if k.undealt else None
        at += k.undealt
        piles = []
        for s in range(n):
            missing = max(0, k.pile_sizes[s] - len(k.piles[s]))
            piles.append(tuple(sorted([*k.piles[s], *pool[at : at + missing]])))
            at += missing
        dealt = tuple(tuple(sorted([*hands[s], *k.played_by[s]])) for s in range(n))
        roles = []
        for s in range(n):
            role = role_of(dealt[s])
            if s in k.werewolf_chips:
                role = Role.WEREWOLF
            elif role is Role.ROBBER and s == k.traitor_chip:
                role = Role.TRAITOR
            roles.append(role)
        return State(
            config=config,
            rng=0,
            deals=1,
            deal=0,
            dealer=k.dealer,
            dealt=dealt,
            undealt=undealt,
            roles=tuple(roles),
            hands=tuple(hands),
            piles=tuple(piles),
            tricks=(),
            leader=k.leader,
            trick=tuple(k.trick),
            turn=(k.leader + len(k.trick)) % n,
            chips=k.chips,
            points=(0,) * n,
            results=(),
        )

    @staticmethod
    def _rollout(world: State, r: random.Random) -> State:
        """Random play to the end of the deal: each seat plays a card of its hand at random."""
        while world.turn is not None:
            hand = world.hands[world.turn]
            card = hand[int(r.random() * len(hand))]
            world, _ = apply(world, world.turn, Action("play", (card.notation,)))
        return world


class KernelIsmctsBot:
    """The ISMCTS of :class:`IsmctsBot` on the compiled kernel: the bot's view and memory become
    the search's information array, and nothing else reaches the search."""

    needs_view = True

    def __init__(
        self,
        seat: Seat,
        *,
        iterations: int = 1000,
        rollout: str = "random",
        exploration: float = 0.7,
    ) -> None:
        from wolfden.kernel import robbers_horror_ismcts as search

        if iterations < 1:
            raise ValueError("the kernel ismcts bot needs at least one simulation")
        self.rollout = search.rollout_index(rollout)
        self.seat = seat
        self.iterations = iterations
        self.exploration = exploration
        self.memory = Memory()

    def act(self, view: Mapping[str, Any], legal: Sequence[Action], rng: Rng) -> Action:
        import numpy as np

        from wolfden.kernel import robbers_horror as kernel
        from wolfden.kernel import robbers_horror_ismcts as search
        from wolfden.kernel.rng import generator

        self.memory.update(view)
        if len(legal) == 1:
            return legal[0]
        tricks = [
            (leader, [c.notation for c in cards], winner)
            for _, (leader, cards, winner) in sorted(self.memory.tricks.items())
        ]
        info = search.information_from_view(view, tricks)
        config = Config(
            players=view["players"],
            deals=1,
            first_dealer=view["dealer"],
            icons=tuple(view.get("icons") or DEFAULT_ICONS),
            show_last_trick="last_trick" in view,
            show_history="history" in view,
        )
        visits = np.zeros(36, dtype=np.float64)
        card = search.search(
            info,
            kernel.config_array(config),
            self.iterations,
            generator(rng.next64()),
            self.rollout,
            float(self.exploration),
            visits,
        )
        notation = search.notation(card)
        for action in legal:
            if str(action.args[0]) == notation:
                return action
        raise RuntimeError(f"the search chose {notation}, which is not a legal play")


BOTS = {"rules": RobbersHorrorRulesBot, "ismcts": IsmctsBot}

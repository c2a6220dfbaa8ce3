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
  piles' sizes, the chips); then it walks one shared tree of its and the others' moves, with
  UCB over the moves available in that sampled world, finishes the deal with random play and
  scores it. It never reads the game state. The budget is a number of iterations (default 400)
  or a number of seconds.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Mapping, Sequence
from typing import Any

from wolfden.engine.rng import Rng
from wolfden.engine.types import Action, Seat
from wolfden.games.robbers_horror.cards import (
    CHEST_MASK,
    ID_OF,
    KNIFE_MASK,
    NOTATION,
    SEER,
    TRAITOR,
    TRUMP,
    W1,
    W2,
    WEREWOLF_MASK,
    deck_ids,
    trick_values,
)
from wolfden.games.robbers_horror.config import DEFAULT_ICONS
from wolfden.games.robbers_horror.rules import NORMAL_VALUE, icon_table

WEREWOLF_TEAM_ROLES = ("werewolf", "traitor")
HALVING_COST = 7.0
"""What the rules bot reckons a card that halves a score costs its taker, in icons."""


def _to_ids(cards: Sequence[str], taken: set[int]) -> list[int]:
    """Card notations to distinct ids (a second W or K gets the second id)."""
    out = []
    for text in cards:
        card_id = ID_OF[text]
        if card_id in taken:
            card_id += 1
        taken.add(card_id)
        out.append(card_id)
    return out


class Memory:
    """What a player has seen of the current deal: completed tricks by number."""

    def __init__(self) -> None:
        self.key: tuple[int, int] = (-1, -1)
        self.tricks: dict[int, tuple[int, list[str], int]] = {}

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
            self.tricks[t["number"]] = (t["leader"], [c["card"] for c in t["cards"]], t["winner"])


class Knowledge:
    """The bot's picture of the deal, from its view and its memory, in card ids."""

    def __init__(self, view: Mapping[str, Any], memory: Memory) -> None:
        self.n: int = view["players"]
        self.me: Seat = view["seat"]
        self.role: str = view["role"]
        self.icons: tuple[int, ...] = tuple(view.get("icons") or DEFAULT_ICONS)
        taken: set[int] = set()
        self.hand = _to_ids(view["hand"], taken)
        self.played_by: list[list[int]] = [[] for _ in range(self.n)]
        self.piles: list[int] = [0] * self.n
        self.known_pile_cards = [0] * self.n
        for leader, cards, winner in memory.tricks.values():
            ids = _to_ids(cards, taken)
            for i, c in enumerate(ids):
                self.played_by[(leader + i) % self.n].append(c)
                self.piles[winner] |= 1 << c
            self.known_pile_cards[winner] += len(ids)
        trick = view["trick"]
        self.leader: Seat = trick["leader"]
        self.trick = _to_ids([c["card"] for c in trick["cards"]], taken)
        for i, c in enumerate(self.trick):
            self.played_by[(self.leader + i) % self.n].append(c)
        self.hand_sizes: list[int] = list(view["hand_sizes"])
        self.pile_sizes: list[int] = list(view["piles"])
        self.undealt: int = view["undealt_cards"]
        self.tricks_left: int = self.hand_sizes[self.me]
        self.pool = [c for c in deck_ids(self.n) if c not in taken]
        chips = view["chips"]
        self.werewolf_chips: set[int] = set(chips["werewolf"])
        self.traitor_chip: int | None = chips["traitor"]

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
        werewolf_cards = 1 if n == 3 else 2
        my_werewolves = sum(1 for c in self.hand + self.played_by[self.me] if c in (W1, W2))
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


def _gains(cards: Sequence[int], icons: tuple[int, ...]) -> tuple[float, float]:
    """What a trick is worth to a chest scorer and to a robber scorer, a halving card counting
    as a heavy loss."""
    chest = robber = 0.0
    for c in cards:
        if c < 15:
            chest += icons[c]
        elif c < 30:
            robber += icons[c - 15]
        elif c in (W1, W2):
            chest -= HALVING_COST
        elif c != SEER and c != TRAITOR:
            robber -= HALVING_COST
    return chest, robber


def _power(card: int) -> float:
    """How strong a card is to keep for later tricks."""
    if card in (W1, W2):
        return 8.0
    if card == SEER:
        return 6.0
    if card == TRAITOR:
        return 4.0
    if card >= 30:
        return 0.5
    return (card % 15 + 1) / 4.0


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
            card = ID_OF[str(action.args[0])]
            if card in k.trick:
                card += 1
            cards = [*k.trick, card]
            values = trick_values(cards)
            top = max(values)
            idx = len(values) - 1 - values[::-1].index(top)
            holder = (k.leader + idx) % n
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
                strength = (top - TRUMP + 1) / 18.0 if top >= TRUMP else top / 60.0
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
        self.children: dict[int, _Node] = {}


_KIND = tuple(ID_OF[NOTATION[i]] for i in range(36))
"""A card id's kind: both Werewolves are one move, so are both Knives."""


class _World:
    """One sampled deal, mutable, played out fast."""

    __slots__ = ("hands", "leader", "left", "n", "piles", "roles", "trick", "turn")

    def __init__(
        self,
        n: int,
        hands: list[list[int]],
        piles: list[int],
        roles: list[int],
        trick: list[int],
        leader: int,
        left: int,
    ) -> None:
        self.n = n
        self.hands = hands
        self.piles = piles
        self.roles = roles
        self.trick = trick
        self.leader = leader
        self.turn = (leader + len(trick)) % n
        self.left = left

    def play(self, card: int) -> None:
        hand = self.hands[self.turn]
        hand.remove(card)
        trick = self.trick
        trick.append(card)
        n = self.n
        if len(trick) < n:
            self.turn = (self.turn + 1) % n
            return
        values = trick_values(trick)
        top = max(values)
        idx = len(values) - 1 - values[::-1].index(top)
        winner = (self.leader + idx) % n
        mask = 0
        for c in trick:
            mask |= 1 << c
        self.piles[winner] |= mask
        self.trick = []
        self.leader = self.turn = winner
        self.left -= 1

    def moves(self) -> list[int]:
        """The distinct plays of the seat to move (one per kind of card)."""
        out = []
        for c in self.hands[self.turn]:
            k = _KIND[c]
            if k not in out:
                out.append(k)
        return out

    def card_of(self, kind: int) -> int:
        hand = self.hands[self.turn]
        return kind if kind in hand else kind + 1


def _team_rewards(world: _World, table: list[int]) -> list[float]:
    """Each seat's reward for the finished deal: 1 for a team win, 0.5 for a tie, 0 for a loss,
    blended with the margin so that close and wide results differ a little."""
    robber_sum = werewolf_sum = robbers = 0
    for role, pile in zip(world.roles, world.piles):
        if role == 1:
            total = table[(pile >> 15) & CHEST_MASK]
            if pile & KNIFE_MASK:
                total >>= 1
            werewolf_sum += total
        else:
            total = table[pile & CHEST_MASK]
            if pile & WEREWOLF_MASK:
                total >>= 1
            if role == 0:
                robber_sum += total
                robbers += 1
            else:
                werewolf_sum += total
    n = world.n
    robber_total = robber_sum * (n - robbers)
    werewolf_total = werewolf_sum * robbers
    diff = robber_total - werewolf_total
    win = 1.0 if diff > 0 else 0.0 if diff < 0 else 0.5
    margin = 0.5 + 0.5 * max(-1.0, min(1.0, diff / 30.0))
    robber_reward = 0.8 * win + 0.2 * margin
    return [robber_reward if role == 0 else 1.0 - robber_reward for role in world.roles]


def _role_of(cards: Sequence[int]) -> int:
    if W1 in cards or W2 in cards:
        return 1
    if TRAITOR in cards:
        return 2
    return 0


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
        root = _Node(k.me)
        table = icon_table(k.icons)
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        c = self.exploration
        log = math.log
        sqrt = math.sqrt
        i = 0
        while True:
            if deadline is None:
                if i >= self.iterations:
                    break
            elif i > 0 and time.perf_counter() >= deadline:
                break
            i += 1
            world = self._sample(k, r)
            node = root
            path = [root]
            while world.left > 0:
                moves = world.moves()
                children = node.children
                untried = [m for m in moves if m not in children]
                if untried:
                    move = untried[int(r.random() * len(untried))]
                    child = _Node(world.turn)
                    children[move] = child
                    world.play(world.card_of(move))
                    path.append(child)
                    break
                best = -1.0
                chosen = moves[0]
                for m in moves:
                    ch = children[m]
                    ch.avail += 1
                    score = ch.wins / ch.visits + c * sqrt(log(ch.avail) / ch.visits)
                    if score > best:
                        best = score
                        chosen = m
                world.play(world.card_of(chosen))
                node = children[chosen]
                path.append(node)
            self._rollout(world, r)
            rewards = _team_rewards(world, table)
            for nd in path:
                nd.visits += 1
                nd.wins += rewards[nd.seat]
        by_kind = {ID_OF[str(a.args[0])]: a for a in legal}
        best_kind = max(
            (m for m in root.children if m in by_kind),
            key=lambda m: (root.children[m].visits, root.children[m].wins),
        )
        return by_kind[best_kind]

    @staticmethod
    def _sample(k: Knowledge, r: random.Random) -> _World:
        """A world consistent with the view: the unseen cards dealt at random into the other
        hands, the undealt slot and the pile cards the bot did not see."""
        pool = k.pool[:]
        for j in range(len(pool) - 1, 0, -1):
            x = int(r.random() * (j + 1))
            pool[j], pool[x] = pool[x], pool[j]
        n = k.n
        hands: list[list[int]] = []
        piles = k.piles[:]
        at = 0
        for s in range(n):
            if s == k.me:
                hands.append(k.hand[:])
                continue
            size = k.hand_sizes[s]
            hands.append(pool[at : at + size])
            at += size
        at += k.undealt
        for s in range(n):
            missing = k.pile_sizes[s] - k.known_pile_cards[s]
            for c in pool[at : at + max(0, missing)]:
                piles[s] |= 1 << c
            at += max(0, missing)
        roles = []
        for s in range(n):
            role = _role_of(hands[s] + k.played_by[s])
            if s in k.werewolf_chips:
                role = 1
            elif role == 0 and s == k.traitor_chip:
                role = 2
            roles.append(role)
        return _World(n, hands, piles, roles, k.trick[:], k.leader, k.tricks_left)

    @staticmethod
    def _rollout(world: _World, r: random.Random) -> None:
        """Random play to the end of the deal (the same rules as :meth:`_World.play`, inlined)."""
        rand = r.random
        hands = world.hands
        piles = world.piles
        n = world.n
        trick = world.trick
        leader = world.leader
        turn = world.turn
        left = world.left
        normal_value = NORMAL_VALUE
        while left > 0:
            hand = hands[turn]
            trick.append(hand.pop(int(rand() * len(hand))))
            if len(trick) < n:
                turn = turn + 1 if turn + 1 < n else 0
                continue
            lead = 0
            for c in trick:
                if c < 30:
                    lead = 0 if c < 15 else 1
                    break
            if max(trick) < 30:
                values = normal_value[lead]
                scored = [values[c] for c in trick]
                best = scored.index(max(scored))
            else:
                scored = trick_values(trick)
                top = max(scored)
                best = len(scored) - 1 - scored[::-1].index(top)
            winner = (leader + best) % n
            mask = 0
            for c in trick:
                mask |= 1 << c
            piles[winner] |= mask
            trick = []
            leader = turn = winner
            left -= 1
        world.trick = trick
        world.leader = leader
        world.turn = turn
        world.left = 0


BOTS = {"rules": RobbersHorrorRulesBot, "ismcts": IsmctsBot}

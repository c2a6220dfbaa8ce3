"""Robbers' Horror ISMCTS compiled: information-set Monte Carlo tree search on the kernel.

The search of :class:`wolfden.bots.robbers_horror.IsmctsBot` (single observer: one tree over
the seat's information set), played on the kernel's state arrays
(:mod:`wolfden.kernel.robbers_horror`) instead of the plain rules' ``apply``.

What the seat knows is one ``int64`` array, its *information* (:func:`observe` reads it from a
kernel state, :func:`information_from_view` from the seat's view; layout below): its seat, role
and hand, the cards it saw each seat play, the pile cards it saw taken, the sizes of every
hand and pile, the current trick, the chips, the dealer and whether a card is undealt. The
search reads nothing else. Each simulation

1. deals the cards the seat has not seen at random into the other hands, the undealt slot and
   the pile cards it did not see (every hand and pile keeps its size; a seat's role follows
   from its sampled hand and the cards it played, and a chip fixes it): a *world*;
2. walks the one shared tree from the root, trying a move not tried yet at a node before any
   other (then adding its node and stopping), else choosing by UCB over the moves available
   in this world, each child counting how often it was available;
3. plays the deal out with the kernel's random or rules policy;
4. adds the deal's reward to every node of the path for the seat that moved into it: 0.8 for
   a team win (0.4 for a tie) plus 0.2 of the margin, as the reference bot reckons it.

The move played is the root's most visited child (then the most rewarded).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from numba import njit

from wolfden.kernel import seed_array
from wolfden.kernel.rng import derive_seed1, next64
from wolfden.kernel.robbers_horror import (
    BOT_SALT,
    C_DEALS,
    C_MEMORY,
    C_PLAYERS,
    DEAL_NO,
    DEALER,
    DECK,
    HANDS,
    K1,
    K2,
    LEADER,
    PILES,
    PLAYED,
    POINTS,
    RANDOM,
    ROBBER,
    ROBBER_TOTAL,
    ROLE_NAMES,
    ROLES,
    RULES,
    SEER,
    STATE_SIZE,
    TRAITOR,
    TRAITOR_CHIP,
    TRAITOR_ROLE,
    TRICK,
    TRICK_LEN,
    TRICK_NO,
    TURN,
    UNDEALT,
    W1,
    W2,
    WEREWOLF,
    WEREWOLF_CHIPS,
    WEREWOLF_TOTAL,
    apply_card,
    config_array,
    fill_deck,
    playable,
    popcount,
    random_card,
    role_of,
    rules_card,
    start,
)

ROLLOUTS: tuple[str, ...] = ("random", "rules")
"""The rollout policies, indexed as the kernel's policies (``RANDOM``, ``RULES``)."""

# -- the information array's layout -----------------------------------------------------------

I_ME = 0
I_ROLE = 1
I_HAND = 2
I_SEEN_PLAYED = 3
"""The cards the seat saw each seat play this deal (5 slots)."""
I_SEEN_PILE = 8
"""The cards the seat saw each seat take (5 slots)."""
I_HAND_SIZE = 13
I_PILE_SIZE = 18
I_TRICK = 23
"""The current trick's cards in play order (5 slots)."""
I_TRICK_LEN = 28
I_LEADER = 29
I_WEREWOLF_CHIPS = 30
I_TRAITOR_CHIP = 31
I_TRICK_NO = 32
I_DEALER = 33
I_UNDEALT = 34
"""1 when a card is undealt, else 0 (which card is hidden)."""
INFO_SIZE = 35

DEFAULT_EXPLORATION = 0.7
"""The UCB constant, as the reference bot's."""


@njit(cache=True)
def _size(mask: int) -> int:
    return popcount(mask)


@njit(cache=True)
def observe(st: np.ndarray, cfg: np.ndarray, me: int, info: np.ndarray) -> None:
    """What seat ``me`` knows of the kernel state ``st``, into ``info``: everything public and
    its own hand and role; the cards played in completed tricks only when the config shows
    completed tricks (``C_MEMORY``), as the reference bot's memory of its views."""
    n = cfg[C_PLAYERS]
    info[:] = 0
    info[I_ME] = me
    info[I_ROLE] = st[ROLES + me]
    info[I_HAND] = st[HANDS + me]
    count = st[TRICK_LEN]
    leader = st[LEADER]
    for s in range(n):
        info[I_HAND_SIZE + s] = _size(st[HANDS + s])
        info[I_PILE_SIZE + s] = _size(st[PILES + s])
        if cfg[C_MEMORY]:
            info[I_SEEN_PLAYED + s] = st[PLAYED + s]
            info[I_SEEN_PILE + s] = st[PILES + s]
    for i in range(count):
        c = st[TRICK + i]
        info[I_TRICK + i] = c
        info[I_SEEN_PLAYED + (leader + i) % n] |= 1 << c
    info[I_TRICK_LEN] = count
    info[I_LEADER] = leader
    info[I_WEREWOLF_CHIPS] = st[WEREWOLF_CHIPS]
    info[I_TRAITOR_CHIP] = st[TRAITOR_CHIP]
    info[I_TRICK_NO] = st[TRICK_NO]
    info[I_DEALER] = st[DEALER]
    info[I_UNDEALT] = 1 if st[UNDEALT] >= 0 else 0


@njit(cache=True)
def _unseen(info: np.ndarray, cfg: np.ndarray, pool: np.ndarray, deck: np.ndarray) -> int:
    """The cards the seat has not seen, in card order, into ``pool``; returns how many."""
    n = cfg[C_PLAYERS]
    k = fill_deck(deck, n)
    seen = info[I_HAND]
    for s in range(n):
        seen |= info[I_SEEN_PLAYED + s] | info[I_SEEN_PILE + s]
    for i in range(info[I_TRICK_LEN]):
        seen |= 1 << info[I_TRICK + i]
    m = 0
    for c in range(36):
        if seen >> c & 1:
            continue
        for i in range(k):
            if deck[DECK + i] == c:
                pool[m] = c
                m += 1
                break
    return m


@njit(cache=True)
def _determinize(
    info: np.ndarray, cfg: np.ndarray, pool: np.ndarray, m: int, rng: np.ndarray, w: np.ndarray
) -> None:
    """A world in ``w``: the unseen cards shuffled and dealt into the other hands (by seat),
    the undealt slot and the pile cards the seat did not see; roles from the dealt cards and
    the chips."""
    n = cfg[C_PLAYERS]
    me = info[I_ME]
    for i in range(m - 1, 0, -1):
        j = int(next64(rng) % np.uint64(i + 1))
        pool[i], pool[j] = pool[j], pool[i]
    at = 0
    for s in range(n):
        if s == me:
            w[HANDS + s] = info[I_HAND]
            continue
        hand = 0
        for _ in range(info[I_HAND_SIZE + s]):
            hand |= 1 << pool[at]
            at += 1
        w[HANDS + s] = hand
    if info[I_UNDEALT]:
        w[UNDEALT] = pool[at]
        at += 1
    else:
        w[UNDEALT] = -1
    for s in range(n):
        pile = info[I_SEEN_PILE + s]
        for _ in range(info[I_PILE_SIZE + s] - _size(pile)):
            pile |= 1 << pool[at]
            at += 1
        w[PILES + s] = pile
        w[PLAYED + s] = info[I_SEEN_PLAYED + s]
    chips = info[I_WEREWOLF_CHIPS]
    for s in range(n):
        if s == me:
            role = info[I_ROLE]
        elif chips >> s & 1:
            role = WEREWOLF
        else:
            role = role_of(w[HANDS + s] | info[I_SEEN_PLAYED + s])
            if role == ROBBER and s == info[I_TRAITOR_CHIP]:
                role = TRAITOR_ROLE
        w[ROLES + s] = role
    count = info[I_TRICK_LEN]
    for i in range(count):
        w[TRICK + i] = info[I_TRICK + i]
    w[TRICK_LEN] = count
    w[LEADER] = info[I_LEADER]
    w[TURN] = (info[I_LEADER] + count) % n
    w[WEREWOLF_CHIPS] = chips
    w[TRAITOR_CHIP] = info[I_TRAITOR_CHIP]
    w[TRICK_NO] = info[I_TRICK_NO]
    w[DEALER] = info[I_DEALER]
    w[DEAL_NO] = 0


@njit(cache=True)
def _key(card: int) -> int:
    """The tree's name of a move: the two Werewolves are one move, so are the two Knives."""
    if card in (W2, K2):
        return card - 1
    return card


@njit(cache=True)
def _robber_reward(w: np.ndarray) -> float:
    diff = float(w[ROBBER_TOTAL] - w[WEREWOLF_TOTAL])
    win = 1.0 if diff > 0 else (0.0 if diff < 0 else 0.5)
    margin = 0.5 + 0.5 * max(-1.0, min(1.0, diff / 30.0))
    return 0.8 * win + 0.2 * margin


@njit(cache=True)
def search(
    info: np.ndarray,
    cfg: np.ndarray,
    iterations: int,
    rng: np.ndarray,
    rollout: int,
    exploration: float,
    visits_out: np.ndarray,
) -> int:
    """The card the seat of ``info`` plays after ``iterations`` simulations (each a fresh world;
    ``rng`` is the search's generator); ``visits_out[c]`` gets each root move's visits."""
    n = cfg[C_PLAYERS]
    me = info[I_ME]
    mine = playable(info[I_HAND])
    visits_out[:] = 0
    if popcount(mine) == 1:
        card = 0
        while not mine >> card & 1:
            card += 1
        visits_out[_key(card)] = 0
        return card
    # One deal, scored when the hands are empty.
    wcfg = cfg.copy()
    wcfg[C_DEALS] = 1
    pool = np.empty(36, dtype=np.int64)
    deck = np.empty(STATE_SIZE, dtype=np.int64)
    m = _unseen(info, cfg, pool, deck)
    cap = iterations + 2
    children = np.full((cap, 36), -1, dtype=np.int32)
    seat_of = np.empty(cap, dtype=np.int64)
    visits = np.zeros(cap, dtype=np.float64)
    wins = np.zeros(cap, dtype=np.float64)
    avail = np.zeros(cap, dtype=np.float64)
    path = np.empty(64, dtype=np.int64)
    legal = np.empty(36, dtype=np.int64)
    work = np.empty(5, dtype=np.int64)
    w = np.zeros(STATE_SIZE, dtype=np.int64)
    seat_of[0] = me
    nodes = 1
    rewards = np.empty(5, dtype=np.float64)
    for _ in range(iterations):
        _determinize(info, cfg, pool, m, rng, w)
        node = 0
        depth = 0
        path[0] = 0
        while w[TURN] >= 0:
            seat = w[TURN]
            moves = playable(w[HANDS + seat])
            untried = 0
            rest = moves
            while rest:
                c = 0
                low = rest & -rest
                while low >> c != 1:
                    c += 1
                rest &= rest - 1
                if children[node, _key(c)] < 0:
                    untried += 1
            if untried:
                pick = int(next64(rng) % np.uint64(untried))
                rest = moves
                chosen = -1
                while rest:
                    low = rest & -rest
                    c = 0
                    while low >> c != 1:
                        c += 1
                    rest &= rest - 1
                    if children[node, _key(c)] < 0:
                        if pick == 0:
                            chosen = c
                            break
                        pick -= 1
                child = nodes
                nodes += 1
                children[node, _key(chosen)] = child
                seat_of[child] = seat
                apply_card(w, wcfg, rng, chosen)
                depth += 1
                path[depth] = child
                break
            best = -1.0
            chosen = -1
            rest = moves
            while rest:
                low = rest & -rest
                c = 0
                while low >> c != 1:
                    c += 1
                rest &= rest - 1
                ch = children[node, _key(c)]
                avail[ch] += 1.0
                score = wins[ch] / visits[ch] + exploration * np.sqrt(
                    np.log(avail[ch]) / visits[ch]
                )
                if score > best:
                    best = score
                    chosen = c
            apply_card(w, wcfg, rng, chosen)
            node = children[node, _key(chosen)]
            depth += 1
            path[depth] = node
        while w[TURN] >= 0:
            if rollout == RULES:
                card = rules_card(w, wcfg, rng, legal, work)
            else:
                card = random_card(w, rng, legal)
            apply_card(w, wcfg, rng, card)
        robber = _robber_reward(w)
        for s in range(n):
            rewards[s] = robber if w[ROLES + s] == ROBBER else 1.0 - robber
        for d in range(depth + 1):
            v = path[d]
            visits[v] += 1.0
            wins[v] += rewards[seat_of[v]]
    best_card = -1
    best_visits = -1.0
    best_wins = -1.0
    rest = mine
    while rest:
        low = rest & -rest
        c = 0
        while low >> c != 1:
            c += 1
        rest &= rest - 1
        ch = children[0, _key(c)]
        if ch < 0:
            continue
        visits_out[_key(c)] = visits[ch]
        if visits[ch] > best_visits or (visits[ch] == best_visits and wins[ch] > best_wins):
            best_visits = visits[ch]
            best_wins = wins[ch]
            best_card = c
    return best_card


@njit(cache=True)
def choose(
    st: np.ndarray,
    cfg: np.ndarray,
    iterations: int,
    rng: np.ndarray,
    rollout: int,
    exploration: float,
) -> int:
    """The card the seat to play in ``st`` plays by the search, from what that seat knows."""
    info = np.empty(INFO_SIZE, dtype=np.int64)
    observe(st, cfg, st[TURN], info)
    visits = np.zeros(36, dtype=np.float64)
    return search(info, cfg, iterations, rng, rollout, exploration, visits)


# -- matches ----------------------------------------------------------------------------------


@njit(cache=True)
def play_deal(
    st: np.ndarray,
    cfg: np.ndarray,
    rng: np.ndarray,
    bots: np.ndarray,
    search_rng: np.ndarray,
    kinds: np.ndarray,
    iterations: int,
    rollout: int,
    exploration: float,
) -> None:
    """Play the match in ``st`` to its end, seat ``s`` by ``kinds[s]`` (0 random, 1 rules, 2
    the search). For matches between the kernel's bots (the benchmark's strength checks)."""
    legal = np.empty(36, dtype=np.int64)
    work = np.empty(5, dtype=np.int64)
    while st[TURN] >= 0:
        kind = kinds[st[TURN]]
        if kind == 2:
            card = choose(st, cfg, iterations, search_rng, rollout, exploration)
        elif kind == RULES:
            card = rules_card(st, cfg, bots, legal, work)
        else:
            card = random_card(st, bots, legal)
        apply_card(st, cfg, rng, card)


SEARCH = 2
"""The seat kind of :func:`play_deal` that plays by the search (0 and 1 are the policies)."""


@njit(cache=True)
def _play_matches(
    cfg: np.ndarray,
    seeds: np.ndarray,
    kinds: np.ndarray,
    iterations: int,
    rollout: int,
    exploration: float,
    points: np.ndarray,
) -> None:
    st = np.zeros(STATE_SIZE, dtype=np.int64)
    rng = np.empty(1, dtype=np.uint64)
    bots = np.empty(1, dtype=np.uint64)
    search_rng = np.empty(1, dtype=np.uint64)
    n = cfg[C_PLAYERS]
    for g in range(seeds.shape[0]):
        rng[0] = seeds[g]
        bots[0] = derive_seed1(seeds[g], BOT_SALT)
        search_rng[0] = derive_seed1(seeds[g], SEARCH_SALT)
        start(st, cfg, rng)
        play_deal(st, cfg, rng, bots, search_rng, kinds[g], iterations, rollout, exploration)
        for s in range(n):
            points[g, s] = st[POINTS + s]


SEARCH_SALT = 0x15C7
"""The salt of the search's generator in :func:`match_points` (``derive_seed(seed, salt)``)."""


def match_points(
    config: Any,
    seeds: Sequence[int] | np.ndarray,
    kinds: np.ndarray,
    *,
    iterations: int,
    rollout: str = "random",
    exploration: float = DEFAULT_EXPLORATION,
) -> np.ndarray:
    """Each match's game points by seat (games, seats): match ``g`` from ``seeds[g]``, seat
    ``s`` played by ``kinds[g, s]`` (``RANDOM``, ``RULES`` or ``SEARCH``)."""
    if iterations < 1:
        raise ValueError("the search needs at least one simulation")
    cfg = config_array(config)
    seeds = seed_array(seeds)
    kinds = np.ascontiguousarray(kinds, dtype=np.int64)
    if kinds.shape != (seeds.shape[0], int(cfg[C_PLAYERS])):
        raise ValueError(f"kinds must be (matches, seats) = {(seeds.shape[0], cfg[C_PLAYERS])}")
    points = np.zeros(kinds.shape, dtype=np.int64)
    _play_matches(cfg, seeds, kinds, iterations, rollout_index(rollout), float(exploration), points)
    return points


def rollout_index(name: str) -> int:
    """The index of a rollout policy's name; a clear error for an unknown one."""
    if name not in ROLLOUTS:
        raise ValueError(f"unknown rollout {name!r}; choose {', '.join(ROLLOUTS)}")
    return ROLLOUTS.index(name)


def _card_ids() -> dict[str, list[int]]:
    from wolfden.games.robbers_horror.components import NOTATIONS

    ids: dict[str, list[int]] = {name: [i] for i, name in enumerate(NOTATIONS[:30])}
    ids.update({"W": [W1, W2], "S": [SEER], "K": [K1, K2], "T": [TRAITOR]})
    return ids


def notation(card: int) -> str:
    """A kernel card id's notation, as the game's actions name it."""
    from wolfden.games.robbers_horror.components import NOTATIONS

    return NOTATIONS[card] if card < 30 else ("W", "W", "S", "K", "K", "T")[card - 30]


def information_from_view(
    view: Mapping[str, Any], tricks: Sequence[tuple[int, Sequence[str], int]]
) -> np.ndarray:
    """The information array of the seat whose view ``view`` is (as the game shows it), given
    the completed tricks of the deal it remembers (leader, card notations in play order,
    winner). A view names both Werewolves "W" and both Knives "K": each gets the first copy's
    id not given yet (the copies play and score alike)."""
    n = int(view["players"])
    free = _card_ids()

    def card(name: str) -> int:
        ids = free.get(name)
        if not ids:
            raise ValueError(f"the view shows more {name!r} cards than the deck holds")
        return ids.pop(0)

    info = np.zeros(INFO_SIZE, dtype=np.int64)
    info[I_ME] = int(view["seat"])
    info[I_ROLE] = ROLE_NAMES.index(view["role"])
    for name in view["hand"]:
        info[I_HAND] |= 1 << card(name)
    for leader, cards, winner in tricks:
        for i, name in enumerate(cards):
            c = card(name)
            info[I_SEEN_PLAYED + (leader + i) % n] |= 1 << c
            info[I_SEEN_PILE + winner] |= 1 << c
    trick = view["trick"]
    leader = int(trick["leader"])
    for i, entry in enumerate(trick["cards"]):
        c = card(entry["card"])
        info[I_TRICK + i] = c
        info[I_SEEN_PLAYED + (leader + i) % n] |= 1 << c
    info[I_TRICK_LEN] = len(trick["cards"])
    info[I_LEADER] = leader
    for s in range(n):
        info[I_HAND_SIZE + s] = view["hand_sizes"][s]
        info[I_PILE_SIZE + s] = view["piles"][s]
    for s in view["chips"]["werewolf"]:
        info[I_WEREWOLF_CHIPS] |= 1 << s
    traitor = view["chips"]["traitor"]
    info[I_TRAITOR_CHIP] = -1 if traitor is None else traitor
    info[I_TRICK_NO] = int(trick["number"]) - 1
    info[I_DEALER] = view["dealer"]
    info[I_UNDEALT] = view["undealt_cards"]
    return info


__all__ = [
    "INFO_SIZE",
    "RANDOM",
    "ROLLOUTS",
    "RULES",
    "SEARCH",
    "choose",
    "information_from_view",
    "match_points",
    "notation",
    "observe",
    "play_deal",
    "rollout_index",
    "search",
]

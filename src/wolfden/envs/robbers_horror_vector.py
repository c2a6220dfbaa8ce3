"""Robbers' Horror as a batched environment on the compiled kernel: N matches step at once.

For training at scale: one call steps every match by one card, in compiled code, and returns
NumPy arrays. The observations and action masks are exactly those of the single environment
(:mod:`wolfden.envs.robbers_horror_v0`, same layout, same values; ``tests/envs`` compares them
step by step on shared seeds), and so are the rewards. Only the options differ: no
``history``, ``max_cycles`` or rendering (use the single environment for those).

    from wolfden.envs.robbers_horror_vector import VectorEnv

    venv = VectorEnv(1024, players=4, seed=7)
    obs, mask, seat = venv.reset()
    while training:
        actions = policy(obs, mask)            # one action index per match
        obs, mask, seat, rewards, done = venv.step(actions)

- ``obs[i]`` is the observation of the seat that plays next in match ``i`` (``seat[i]``) and
  ``mask[i]`` its legal actions (the 34 action indices of the single environment).
- ``rewards[i, s]`` is what seat ``s`` of match ``i`` earned with this step: the per-deal
  reward when a deal was scored, the per-match reward when the match ended.
- ``done[i]`` is True when this step ended match ``i``; that match has already been dealt
  anew, so ``obs[i]`` belongs to its next match.

Seeds: match ``i`` of ``reset(seed=s)`` is the match the single environment plays after
``reset(seed=s + i)``. The matches that follow draw their seeds from one kernel generator
seeded from ``s``, so a run is repeatable from its seed.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from wolfden.engine.config import config_from_json
from wolfden.envs.vector import clip, first_illegal, popcount, random_actions
from wolfden.games.robbers_horror import Config
from wolfden.kernel import robbers_horror as k
from wolfden.kernel.rng import next64
from wolfden.kernel.robbers_horror import (
    C_DEALS,
    C_HAND,
    C_ICONS,
    C_PLAYERS,
    DEAL_NO,
    DEAL_WINNER,
    DEALER,
    HANDS,
    LEADER,
    PILES,
    POINTS,
    ROBBER,
    ROLES,
    SEER,
    STATE_SIZE,
    TRAITOR,
    TRAITOR_CHIP,
    TRICK,
    TRICK_LEN,
    TURN,
    W1,
    W2,
    WEREWOLF_CHIPS,
)

ACTIONS = 34
"""The single environment's action indices: C1–C15, R1–R15, W, S, K, T."""
SEED_MASK = (1 << 62) - 1

# Kernel card id (0–35) → action / observation card index (0–33), and its copies in the deck.
CARD_INDEX = np.array([*range(30), 30, 30, 31, 32, 32, 33], dtype=np.int64)
ACTION_CARD = np.array([*range(30), W1, SEER, 33, TRAITOR], dtype=np.int64)
HALF = np.array([1.0] * 30 + [0.5, 0.5, 1.0, 0.5, 0.5, 1.0], dtype=np.float32)

# What the environment keeps beside the kernel's state: the last completed trick of the deal.
LAST_CARDS = 0
LAST_LEADER = 5
LAST_WINNER = 6
LAST_VALID = 7
EXTRA_SIZE = 8

# The observation blocks' offsets, in the single environment's order.
BLOCKS = (
    "role",
    "team",
    "hand",
    "trick",
    "trick_values",
    "trick_leader",
    "lead_suit",
    "trick_size",
    "seen",
    "last_trick",
    "last_winner",
    "werewolf_chips",
    "traitor_chip",
    "tricks_won",
    "hand_sizes",
    "dealer",
    "points",
    "deal",
    "last_deal",
    "icons",
    "winners",
)
(
    O_ROLE,
    O_TEAM,
    O_HAND,
    O_TRICK,
    O_TRICK_VALUES,
    O_TRICK_LEADER,
    O_LEAD_SUIT,
    O_TRICK_SIZE,
    O_SEEN,
    O_LAST_TRICK,
    O_LAST_WINNER,
    O_WEREWOLF_CHIPS,
    O_TRAITOR_CHIP,
    O_TRICKS_WON,
    O_HAND_SIZES,
    O_DEALER,
    O_POINTS,
    O_DEAL,
    O_LAST_DEAL,
    O_ICONS,
    O_WINNERS,
) = range(len(BLOCKS))
# Config flags the observation reads (beside the kernel's config array).
F_LAST_TRICK, F_HISTORY = 0, 1


@njit(cache=True)
def encode(
    st: np.ndarray,
    extra: np.ndarray,
    cfg: np.ndarray,
    flags: np.ndarray,
    off: np.ndarray,
    seat: int,
    out: np.ndarray,
) -> None:
    """The single environment's observation of ``seat``, written into ``out`` (zeroed here)."""
    out[:] = 0.0
    n = cfg[C_PLAYERS]
    size = cfg[C_HAND]
    deals = cfg[C_DEALS]
    role = st[ROLES + seat]
    out[off[O_ROLE] + role] = 1.0
    out[off[O_TEAM] + (0 if role == ROBBER else 1)] = 1.0
    hand = st[HANDS + seat]
    for c in range(36):
        if hand >> c & 1:
            out[off[O_HAND] + CARD_INDEX[c]] += HALF[c]
    # The current trick: its cards, their values as far as known, who led, the suit led.
    count = st[TRICK_LEN]
    leader = st[LEADER]
    lead = -1
    werewolf = False
    for i in range(count):
        c = st[TRICK + i]
        if c < 30 and lead < 0:
            lead = 0 if c < 15 else 1
        if c in (W1, W2):
            werewolf = True
    prev = 0
    for i in range(count):
        c = st[TRICK + i]
        rel = (leader + i - seat) % n
        ci = CARD_INDEX[c]
        out[off[O_TRICK] + rel * 34 + ci] = 1.0
        out[off[O_SEEN] + ci] += HALF[c]
        if c < 30:
            trump = (0 if c < 15 else 1) != lead
            rank = c % 15 + 1
        elif c <= W2:
            if i == 0:
                trump, rank = True, 16
            else:
                trump, rank = prev >= 32, prev % 32 + 1
        elif c == SEER:
            # Unknown until a Werewolf joins the trick (or the trick is complete).
            trump, rank = (False, 0) if werewolf else (True, 16)
        elif c == TRAITOR:
            trump, rank = False, 16
        else:
            trump, rank = True, 0
        value = rank + (32 if trump else 0)
        if c == SEER and not werewolf:
            rank = -1
            trump = False
        if rank >= 0:
            out[off[O_TRICK_VALUES] + 2 * rel] = clip(rank / 17)
        out[off[O_TRICK_VALUES] + 2 * rel + 1] = 1.0 if trump else 0.0
        prev = value
    out[off[O_TRICK_LEADER] + (leader - seat) % n] = 1.0
    out[off[O_LEAD_SUIT] + (2 if lead < 0 else lead)] = 1.0
    if count < n:
        out[off[O_TRICK_SIZE] + count] = 1.0
    # Completed tricks: the last one (show_last_trick) and every one of the deal (show_history).
    if extra[LAST_VALID] and flags[F_LAST_TRICK]:
        last_leader = extra[LAST_LEADER]
        for i in range(n):
            c = extra[LAST_CARDS + i]
            rel = (last_leader + i - seat) % n
            out[off[O_LAST_TRICK] + rel * 34 + CARD_INDEX[c]] = 1.0
        out[off[O_LAST_WINNER] + (extra[LAST_WINNER] - seat) % n] = 1.0
    if flags[F_HISTORY] and extra[LAST_VALID]:
        for s in range(n):
            pile = st[PILES + s]
            for c in range(36):
                if pile >> c & 1:
                    out[off[O_SEEN] + CARD_INDEX[c]] += HALF[c]
    elif flags[F_LAST_TRICK] and extra[LAST_VALID]:
        for i in range(n):
            c = extra[LAST_CARDS + i]
            out[off[O_SEEN] + CARD_INDEX[c]] += HALF[c]
    for s in range(n):
        rel = (s - seat) % n
        if st[WEREWOLF_CHIPS] >> s & 1:
            out[off[O_WEREWOLF_CHIPS] + rel] = 1.0
        out[off[O_TRICKS_WON] + rel] = clip(popcount(st[PILES + s]) / n / size)
        out[off[O_HAND_SIZES] + rel] = clip(popcount(st[HANDS + s]) / size)
        out[off[O_POINTS] + rel] = clip(st[POINTS + s] / deals)
    if st[TRAITOR_CHIP] >= 0:
        out[off[O_TRAITOR_CHIP] + (st[TRAITOR_CHIP] - seat) % n] = 1.0
    out[off[O_DEALER] + (st[DEALER] - seat) % n] = 1.0
    scored = st[DEAL_NO]
    out[off[O_DEAL]] = clip(min(scored, deals - 1) / deals)
    if scored > 0:
        won = st[DEAL_WINNER + scored - 1]
        out[off[O_LAST_DEAL] + (2 if won < 0 else won)] = 1.0
    for r in range(15):
        out[off[O_ICONS] + r] = clip(cfg[C_ICONS + r] / 9)
    if st[TURN] < 0:
        top = 0
        for s in range(n):
            top = max(top, st[POINTS + s])
        for s in range(n):
            if st[POINTS + s] == top:
                out[off[O_WINNERS] + (s - seat) % n] = 1.0


@njit(cache=True)
def legal_mask(st: np.ndarray, out: np.ndarray) -> None:
    out[:] = 0
    hand = st[HANDS + st[TURN]]
    for c in range(36):
        if hand >> c & 1:
            out[CARD_INDEX[c]] = 1


@njit(cache=True)
def _step_one(
    st: np.ndarray,
    extra: np.ndarray,
    cfg: np.ndarray,
    rng: np.ndarray,
    action: int,
    rewards: np.ndarray,
    deal_reward: float,
    match_reward: float,
) -> int:
    """Play action ``action`` in one match; fill ``rewards`` (per seat). Returns 1 when the
    match ended, 0 when it goes on, -1 when the action is not legal (nothing changed)."""
    n = cfg[C_PLAYERS]
    rewards[:n] = 0.0
    if action < 0 or action >= 34:
        return -1
    seat = st[TURN]
    card = k.held_card(st[HANDS + seat], ACTION_CARD[action])
    if card < 0:
        return -1
    completes = st[TRICK_LEN] == n - 1
    if completes:
        for i in range(n - 1):
            extra[LAST_CARDS + i] = st[TRICK + i]
        extra[LAST_CARDS + n - 1] = card
        extra[LAST_LEADER] = st[LEADER]
    scored = st[DEAL_NO]
    k.apply_card(st, cfg, rng, card)
    if completes:
        extra[LAST_WINNER] = st[LEADER]
        extra[LAST_VALID] = 1
    if st[DEAL_NO] > scored:
        won = st[DEAL_WINNER + scored]
        if won >= 0:
            for s in range(n):
                team = 0 if st[k.DEAL_ROLES + 5 * scored + s] == ROBBER else 1
                rewards[s] += deal_reward if team == won else -deal_reward
        if st[TURN] >= 0:
            extra[LAST_VALID] = 0  # a new deal: no completed trick yet
    if st[TURN] >= 0:
        return 0
    top = 0
    for s in range(n):
        top = max(top, st[POINTS + s])
    sharing = 0
    for s in range(n):
        if st[POINTS + s] == top:
            sharing += 1
    if sharing < n:
        for s in range(n):
            rewards[s] += match_reward if st[POINTS + s] == top else -match_reward
    return 1


@njit(cache=True)
def _start_one(st: np.ndarray, extra: np.ndarray, cfg: np.ndarray, rng: np.ndarray) -> None:
    k.start(st, cfg, rng)
    extra[:] = 0


@njit(cache=True)
def _step_batch(
    states: np.ndarray,
    extras: np.ndarray,
    rngs: np.ndarray,
    cfg: np.ndarray,
    flags: np.ndarray,
    off: np.ndarray,
    actions: np.ndarray,
    seeds: np.ndarray,
    deal_reward: float,
    match_reward: float,
    obs: np.ndarray,
    mask: np.ndarray,
    seats: np.ndarray,
    rewards: np.ndarray,
    done: np.ndarray,
) -> None:
    """Step every match (the actions are legal: see :func:`first_illegal`). A match that
    ends starts anew, its seed drawn from the generator ``seeds``."""
    for i in range(states.shape[0]):
        st = states[i]
        result = _step_one(
            st, extras[i], cfg, rngs[i], actions[i], rewards[i], deal_reward, match_reward
        )
        done[i] = result == 1
        if result == 1:
            rngs[i, 0] = next64(seeds) & np.uint64(SEED_MASK)
            _start_one(st, extras[i], cfg, rngs[i])
        seats[i] = st[TURN]
        encode(st, extras[i], cfg, flags, off, st[TURN], obs[i])
        legal_mask(st, mask[i])


class VectorEnv:
    """``num_envs`` matches of Robbers' Horror stepped together on the kernel (module doc)."""

    def __init__(
        self,
        num_envs: int,
        *,
        config: Config | None = None,
        seed: int | None = None,
        deal_reward: float = 1.0,
        match_reward: float = 1.0,
        **options: Any,
    ) -> None:
        from wolfden.envs.robbers_horror_v0 import raw_env

        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise ValueError(f"num_envs is a number of matches, 1 or more, got {num_envs!r}")
        if config is None:
            config = config_from_json(Config, options)
        config.validate()
        self.config = config
        self.num_envs = num_envs
        self.deal_reward = float(deal_reward)
        self.match_reward = float(match_reward)
        self.players = config.players
        layout = raw_env(config=config).observation_layout
        self.observation_size = layout.size
        self.action_size = ACTIONS
        self._off = np.array([layout.spans[name][0] for name in BLOCKS], dtype=np.int64)
        self._cfg = k.config_array(config)
        self._flags = np.array(
            [int(config.show_last_trick), int(config.show_history)], dtype=np.int64
        )
        self._states = np.zeros((num_envs, STATE_SIZE), dtype=np.int64)
        self._extras = np.zeros((num_envs, EXTRA_SIZE), dtype=np.int64)
        self._rngs = np.zeros((num_envs, 1), dtype=np.uint64)
        self.obs = np.zeros((num_envs, layout.size), dtype=np.float32)
        self.mask = np.zeros((num_envs, ACTIONS), dtype=np.int8)
        self.seat = np.zeros(num_envs, dtype=np.int64)
        self.rewards = np.zeros((num_envs, self.players), dtype=np.float32)
        self.done = np.zeros(num_envs, dtype=np.bool_)
        self._seed = seed
        self._seeds = np.zeros(1, dtype=np.uint64)

    def reset(self, seed: int | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Deal every match anew; returns ``(obs, mask, seat)``."""
        if seed is not None:
            self._seed = seed
        base = self._seed
        later = np.random.default_rng(base).integers(0, 2**62)
        self._seeds[0] = np.uint64(int(later))
        for i in range(self.num_envs):
            source = np.random.default_rng(None if base is None else base + i)
            self._rngs[i, 0] = np.uint64(int(source.integers(0, 2**62)))
            _start_one(self._states[i], self._extras[i], self._cfg, self._rngs[i])
            self.seat[i] = self._states[i, TURN]
            encode(
                self._states[i],
                self._extras[i],
                self._cfg,
                self._flags,
                self._off,
                int(self.seat[i]),
                self.obs[i],
            )
            legal_mask(self._states[i], self.mask[i])
        self.rewards[:] = 0.0
        self.done[:] = False
        return self.obs, self.mask, self.seat

    def step(
        self, actions: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Play one action index per match; returns ``(obs, mask, seat, rewards, done)``.

        The arrays are the environment's own, overwritten by the next call (copy what you
        keep). An illegal action raises ValueError naming the match, and no match moves."""
        actions = np.asarray(actions, dtype=np.int64)
        if actions.shape != (self.num_envs,):
            raise ValueError(
                f"give one action index per match: an array of shape ({self.num_envs},), "
                f"got shape {actions.shape}"
            )
        i = first_illegal(self.mask, actions)
        if i >= 0:
            raise ValueError(
                f"action {int(actions[i])} is not legal in match {i}; legal indices: "
                f"{np.flatnonzero(self.mask[i]).tolist()}"
            )
        _step_batch(
            self._states,
            self._extras,
            self._rngs,
            self._cfg,
            self._flags,
            self._off,
            actions,
            self._seeds,
            self.deal_reward,
            self.match_reward,
            self.obs,
            self.mask,
            self.seat,
            self.rewards,
            self.done,
        )
        return self.obs, self.mask, self.seat, self.rewards, self.done

    def random_actions(self, rng: np.ndarray) -> np.ndarray:
        """A uniformly random legal action for every match (``rng``: a kernel generator,
        ``wolfden.kernel.rng.generator(seed)``)."""
        out = np.empty(self.num_envs, dtype=np.int64)
        random_actions(self.mask, rng, out)
        return out

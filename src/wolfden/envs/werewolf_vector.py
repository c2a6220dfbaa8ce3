"""Werewolf as a batched environment on the compiled kernel: N matches step at once.

For training at scale: one call steps every match by one agent's action, in compiled code,
and returns NumPy arrays. The observations, action masks and rewards are exactly those of the
single environment (:mod:`wolfden.envs.werewolf_v0`, same layout, same values;
``tests/envs`` compares them step by step on shared seeds).

    from wolfden.envs.werewolf_vector import VectorEnv

    venv = VectorEnv(1024, players=7, seed=7)
    obs, mask, seat = venv.reset()
    while training:
        actions = policy(obs, mask)            # one action index per match
        obs, mask, seat, rewards, done = venv.step(actions)

- ``obs[i]`` is the observation of the seat asked to act next in match ``i`` (``seat[i]``)
  and ``mask[i]`` its legal actions (the 4n + 1 action indices of the single environment).
- When several seats may act at once (a night, a ballot), the environment asks one of them,
  drawn from a generator of its own per match, as the single environment draws from its own;
  the others are asked in later steps. The clock is the single environment's virtual clock:
  each agent action takes ``think_seconds``, and the environment applies the deadlines'
  actions (dawn, the end of the discussion, closing a ballot) itself.
- ``rewards[i, s]`` is what seat ``s`` of match ``i`` earned with this step: +1 to every
  seat of the winning team and −1 to the others when the match ended, 0 in a draw and on
  every other step.
- ``done[i]`` is True when this step ended match ``i``; that match has already been dealt
  anew, so ``obs[i]`` belongs to its next match.

Seeds: match ``i`` of ``reset(seed=s)`` is the match the single environment deals after
``reset(seed=s + i)``. The matches that follow draw their seeds from one kernel generator
seeded from ``s``, so a run is repeatable from its seed; ``match_seeds`` gives the seed of
each match being played.

Left out (use the single environment): ``history``, ``max_cycles``, ``dead_leave``,
rendering, and the configs the kernel does not play (:func:`wolfden.kernel.werewolf.unsupported`,
e.g. the ``talk`` option).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from wolfden.engine.config import config_from_json
from wolfden.engine.errors import ConfigError
from wolfden.envs.vector import clip, first_illegal, popcount, random_actions
from wolfden.games.werewolf import Config
from wolfden.kernel import werewolf as k
from wolfden.kernel.rng import below, mix64, next64
from wolfden.kernel.werewolf import (
    BALLOT,
    C_GUARDIANS,
    C_PACK_ROUNDS,
    C_PLAYERS,
    C_PUBLIC,
    C_SEERS,
    C_WOLVES,
    CHECKED,
    END,
    G_ALIVE,
    G_CANDIDATES,
    G_DAWNS,
    G_LOCKED,
    G_NIGHT_KILLED,
    G_NIGHT_TARGET,
    G_PENDING,
    G_PHASE,
    G_PICK_ROUND,
    G_ROUND,
    G_SEQ,
    G_TALLIES,
    G_WINNER,
    G_WOLVES,
    GUARD,
    GUARDIAN,
    KNOW,
    LAST_PROTECTED,
    MAX_SEATS,
    NIGHT,
    NO_ONE,
    NOT_VOTED,
    PICKS,
    PREV_PICKS,
    REVOTE,
    ROLE,
    S_THINK,
    SEER,
    STATE_SIZE,
    T_CANDIDATES,
    T_VOTES,
    TALLY_WIDTH,
    VOTE,
    WEREWOLF,
    WEREWOLVES,
)

SEED_MASK = (1 << 62) - 1
PICKER_SALT = np.uint64(0xA6E7)
"""Salts a match's seed into the generator that draws which of several seats is asked."""
TALLY_ROWS = 16
"""Closed ballots a match's table holds at first (it grows between steps when needed)."""

# The observation blocks' offsets, in the single environment's order.
BLOCKS = (
    "phase",
    "round",
    "me",
    "my_role",
    "my_turn",
    "alive",
    "roles",
    "deal",
    "pack_picks",
    "pack_previous",
    "pick_round",
    "locked",
    "checks",
    "checked_tonight",
    "cannot_protect",
    "protecting",
    "candidates",
    "ballot",
    "my_vote",
    "last_tally",
    "last_votes",
    "all_votes",
    "night_result",
    "winner",
)
(
    O_PHASE,
    O_ROUND,
    O_ME,
    O_MY_ROLE,
    O_MY_TURN,
    O_ALIVE,
    O_ROLES,
    O_DEAL,
    O_PACK_PICKS,
    O_PACK_PREVIOUS,
    O_PICK_ROUND,
    O_LOCKED,
    O_CHECKS,
    O_CHECKED_TONIGHT,
    O_CANNOT_PROTECT,
    O_PROTECTING,
    O_CANDIDATES,
    O_BALLOT,
    O_MY_VOTE,
    O_LAST_TALLY,
    O_LAST_VOTES,
    O_ALL_VOTES,
    O_NIGHT_RESULT,
    O_WINNER,
) = range(len(BLOCKS))
# Config flags the observation reads beside the kernel's config array.
F_DEAD_SEE_ALL = 0
# What the environment keeps beside the kernel's state: the virtual clock.
CLOCK_NOW = 0
CLOCK_STARTED = 1
CLOCK_SEQ = 2
"""The phase (``G_SEQ``) the clock's ``started`` belongs to."""
CLOCK_SIZE = 3


@njit(cache=True)
def encode(
    g: np.ndarray,
    tallies: np.ndarray,
    cfg: np.ndarray,
    flags: np.ndarray,
    off: np.ndarray,
    seat: int,
    out: np.ndarray,
) -> None:
    """The single environment's observation of ``seat``, written into ``out`` (zeroed here):
    the encoding of the game's view for that seat, rebuilt from the kernel's arrays."""
    out[:] = 0.0
    n = cfg[C_PLAYERS]
    phase = g[G_PHASE]
    alive = g[G_ALIVE]
    wolves = g[G_WOLVES]
    role = g[ROLE + seat]
    night = phase == NIGHT
    out[off[O_PHASE] + phase] = 1.0
    out[off[O_ROUND]] = clip(g[G_ROUND] / 20)
    out[off[O_ME] + seat] = 1.0
    out[off[O_MY_ROLE] + role] = 1.0
    if g[G_PENDING] >> seat & 1:
        out[off[O_MY_TURN]] = 1.0
    # Whose cards the seat knows: its own, the dead's, the pack's (a Werewolf); every card at
    # the end, and for an eliminated seat that watches with open eyes.
    everything = phase == END or (not alive >> seat & 1 and flags[F_DEAD_SEE_ALL] != 0)
    for s in range(n):
        living = alive >> s & 1
        if living:
            out[off[O_ALIVE] + s] = 1.0
        known = everything or s == seat or not living or (role == WEREWOLF and wolves >> s & 1 != 0)
        out[off[O_ROLES] + 5 * s + (1 + g[ROLE + s] if known else 0)] = 1.0
    seers = cfg[C_SEERS]
    guardians = cfg[C_GUARDIANS]
    out[off[O_DEAL]] = clip(cfg[C_WOLVES] / n)
    out[off[O_DEAL] + 1] = clip(seers / n)
    out[off[O_DEAL] + 2] = clip(guardians / n)
    out[off[O_DEAL] + 3] = clip((n - cfg[C_WOLVES] - seers - guardians) / n)
    if role == WEREWOLF:
        if night:
            for w in range(n):
                if wolves >> w & 1:
                    p = g[PICKS + w]
                    if p != NO_ONE:
                        out[off[O_PACK_PICKS] + w * n + p] = 1.0
                    p = g[PREV_PICKS + w]
                    if p != NO_ONE:
                        out[off[O_PACK_PREVIOUS] + w * n + p] = 1.0
            out[off[O_PICK_ROUND]] = clip(g[G_PICK_ROUND] / cfg[C_PACK_ROUNDS])
            if g[G_LOCKED] != NO_ONE:
                out[off[O_LOCKED] + g[G_LOCKED]] = 1.0
    elif role == SEER:
        for t in range(n):
            answer = g[KNOW + seat * MAX_SEATS + t]
            if answer >= 2:
                out[off[O_CHECKS] + 2 * t] = 1.0
            elif answer == 1:
                out[off[O_CHECKS] + 2 * t + 1] = 1.0
        if night and g[CHECKED + seat] != NO_ONE:
            out[off[O_CHECKED_TONIGHT] + g[CHECKED + seat]] = 1.0
    elif role == GUARDIAN:
        if g[LAST_PROTECTED + seat] != NO_ONE:
            out[off[O_CANNOT_PROTECT] + g[LAST_PROTECTED + seat]] = 1.0
        if night and g[GUARD + seat] != NO_ONE:
            out[off[O_PROTECTING] + g[GUARD + seat]] = 1.0
    if phase in (VOTE, REVOTE):
        candidates = g[G_CANDIDATES]
        for c in range(n):
            if candidates >> c & 1:
                out[off[O_CANDIDATES] + c] = 1.0
        voted_mask = alive & ~g[G_PENDING]
        voters = popcount(alive)
        voted = voted_mask >> seat & 1
        out[off[O_BALLOT]] = 1.0 if phase == REVOTE else 0.0
        out[off[O_BALLOT] + 1] = clip(popcount(voted_mask) / max(1, voters))
        out[off[O_BALLOT] + 2] = float(voted)
        if voted:
            vote = g[BALLOT + seat]
            out[off[O_MY_VOTE] + (n if vote < 0 else vote)] = 1.0
    rows = g[G_TALLIES]
    public = cfg[C_PUBLIC] != 0
    if rows > 0:
        last = rows - 1
        candidates = tallies[last, T_CANDIDATES]
        cast = 0
        for_candidates = 0
        for voter in range(n):
            v = tallies[last, T_VOTES + voter]
            if v != NOT_VOTED:
                cast += 1
            if v >= 0:
                if candidates >> v & 1:
                    for_candidates += 1
                if public:
                    out[off[O_LAST_VOTES] + voter * n + v] = 1.0
        for c in range(n):
            if candidates >> c & 1:
                got = 0
                for voter in range(n):
                    if tallies[last, T_VOTES + voter] == c:
                        got += 1
                out[off[O_LAST_TALLY] + c] = clip(got / n)
        out[off[O_LAST_TALLY] + n] = clip((cast - for_candidates) / n)
    if public:
        # Counted as the single environment counts them: in float32, a fifth per vote.
        step = np.float32(0.2)
        base = off[O_ALL_VOTES]
        for row in range(rows):
            for voter in range(n):
                v = tallies[row, T_VOTES + voter]
                if v >= 0:
                    out[base + voter * n + v] = out[base + voter * n + v] + step
        for i in range(n * n):
            if out[base + i] > 1.0:
                out[base + i] = 1.0
    if g[G_DAWNS] > 0:
        fell = g[G_NIGHT_TARGET] if g[G_NIGHT_KILLED] else n
        out[off[O_NIGHT_RESULT] + fell] = 1.0
    if phase == END:
        team = g[G_WINNER]
        out[off[O_WINNER] + (team if team >= 0 else 2)] = 1.0


@njit(cache=True)
def legal_mask(g: np.ndarray, seat: int, n: int, codes: np.ndarray, out: np.ndarray) -> None:
    """The single environment's action mask of ``seat``: index ``kind * n + target`` for the
    kernel's action ``kind * 16 + target`` (abstaining is ``4n``)."""
    out[:] = 0
    count = k.legal_actions(g, seat, codes)
    for i in range(count):
        code = codes[i]
        out[(code >> 4) * n + (code & 15)] = 1


@njit(cache=True)
def _start(
    g: np.ndarray, tallies: np.ndarray, cfg: np.ndarray, rng: np.ndarray, clock: np.ndarray
) -> None:
    """A new match from the seed in ``rng[0]`` (kept in ``rng[2]``): the deal and the first
    night; the clock at 0; the seat picker ``rng[1]`` seeded from the match's seed."""
    rng[2] = rng[0]
    rng[1] = mix64(rng[0] ^ PICKER_SALT)
    k.setup(g, rng[0:1], cfg)
    clock[CLOCK_NOW] = 0.0
    clock[CLOCK_STARTED] = 0.0
    clock[CLOCK_SEQ] = -1.0


@njit(cache=True)
def _settle(
    g: np.ndarray,
    tallies: np.ndarray,
    cfg: np.ndarray,
    seconds: np.ndarray,
    rng: np.ndarray,
    clock: np.ndarray,
) -> int:
    """Apply the clock's actions until some seat may act (returns the one drawn to act) or the
    match is over (returns -1), as the single environment's ``_settle`` and ``_advance``."""
    think = seconds[S_THINK]
    n = cfg[C_PLAYERS]
    while g[G_PHASE] != END:
        if g[G_SEQ] != clock[CLOCK_SEQ]:
            clock[CLOCK_SEQ] = g[G_SEQ]
            clock[CLOCK_STARTED] = clock[CLOCK_NOW]
        actors = g[G_PENDING]
        length, timeout = k.deadline(g, seconds)
        ends = clock[CLOCK_STARTED] + length
        if actors == 0 or clock[CLOCK_NOW] + think >= ends:
            clock[CLOCK_NOW] = max(clock[CLOCK_NOW], ends)
            k.apply(g, rng[0:1], tallies, cfg, -1, timeout)
            continue
        count = popcount(actors)
        pick = 0 if count == 1 else below(rng[1:2], count)
        for s in range(n):
            if actors >> s & 1:
                if pick == 0:
                    return s
                pick -= 1
    return -1


@njit(cache=True)
def _final_rewards(g: np.ndarray, n: int, rewards: np.ndarray) -> None:
    team = g[G_WINNER]
    for s in range(n):
        if team < 0:
            rewards[s] = 0.0
        else:
            mine = WEREWOLVES if g[ROLE + s] == WEREWOLF else 0
            rewards[s] = 1.0 if mine == team else -1.0


@njit(cache=True)
def _step_batch(
    states: np.ndarray,
    tallies: np.ndarray,
    rngs: np.ndarray,
    clocks: np.ndarray,
    cfg: np.ndarray,
    seconds: np.ndarray,
    flags: np.ndarray,
    off: np.ndarray,
    actions: np.ndarray,
    seeds: np.ndarray,
    obs: np.ndarray,
    mask: np.ndarray,
    seats: np.ndarray,
    rewards: np.ndarray,
    done: np.ndarray,
) -> None:
    """Step every match by its seat's action (legal: see :func:`first_illegal`). A match
    that ends starts anew, its seed drawn from the generator ``seeds``."""
    n = cfg[C_PLAYERS]
    codes = np.empty(MAX_SEATS + 1, np.int64)
    think = seconds[S_THINK]
    for i in range(states.shape[0]):
        g = states[i]
        a = actions[i]
        kind = a // n
        code = kind * 16 + (a - kind * n)
        k.apply(g, rngs[i, 0:1], tallies[i], cfg, seats[i], code)
        clocks[i, CLOCK_NOW] += think
        seat = _settle(g, tallies[i], cfg, seconds, rngs[i], clocks[i])
        rewards[i, :] = 0.0
        done[i] = seat < 0
        if seat < 0:
            _final_rewards(g, n, rewards[i])
            rngs[i, 0] = next64(seeds) & np.uint64(SEED_MASK)
            _start(g, tallies[i], cfg, rngs[i], clocks[i])
            seat = _settle(g, tallies[i], cfg, seconds, rngs[i], clocks[i])
        seats[i] = seat
        encode(g, tallies[i], cfg, flags, off, seat, obs[i])
        legal_mask(g, seat, n, codes, mask[i])


@njit(cache=True)
def _reset_batch(
    states: np.ndarray,
    tallies: np.ndarray,
    rngs: np.ndarray,
    clocks: np.ndarray,
    cfg: np.ndarray,
    seconds: np.ndarray,
    flags: np.ndarray,
    off: np.ndarray,
    obs: np.ndarray,
    mask: np.ndarray,
    seats: np.ndarray,
) -> None:
    """Deal every match from the seed in ``rngs[i, 0]`` and ask its first seat."""
    n = cfg[C_PLAYERS]
    codes = np.empty(MAX_SEATS + 1, np.int64)
    for i in range(states.shape[0]):
        g = states[i]
        _start(g, tallies[i], cfg, rngs[i], clocks[i])
        seat = _settle(g, tallies[i], cfg, seconds, rngs[i], clocks[i])
        seats[i] = seat
        encode(g, tallies[i], cfg, flags, off, seat, obs[i])
        legal_mask(g, seat, n, codes, mask[i])


LEFT_OUT = ("history", "max_cycles", "dead_leave", "render_mode")


class VectorEnv:
    """``num_envs`` matches of Werewolf stepped together on the kernel (module doc)."""

    def __init__(
        self,
        num_envs: int,
        *,
        config: Config | None = None,
        seed: int | None = None,
        think_seconds: float = 1.0,
        **options: Any,
    ) -> None:
        from wolfden.envs.werewolf_v0 import raw_env

        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise ValueError(f"num_envs is a number of matches, 1 or more, got {num_envs!r}")
        left_out = sorted(set(options) & set(LEFT_OUT))
        if left_out:
            raise ConfigError(
                f"the batched Werewolf environment has no {', '.join(left_out)} option; "
                "use the single environment (wolfden.envs.werewolf_v0) for it"
            )
        if config is None:
            config = config_from_json(Config, options)
        elif options:
            raise ConfigError(
                f"give either config= or game options, not both (got {sorted(options)})"
            )
        reason = k.unsupported(config)
        if reason is not None:
            raise ConfigError(f"the batched Werewolf environment cannot play this config: {reason}")
        if isinstance(think_seconds, bool) or not isinstance(think_seconds, int | float):
            raise ValueError(f"think_seconds is a number of seconds, got {think_seconds!r}")
        think = float(think_seconds)
        if not think > 0:
            raise ValueError(f"think_seconds must be positive, got {think_seconds}")
        if think >= config.night_seconds and think >= config.vote_seconds:
            raise ValueError(
                f"think_seconds ({think}) must be shorter than night_seconds "
                f"({config.night_seconds}) or vote_seconds ({config.vote_seconds}): "
                "otherwise every night and ballot ends before anyone acts and no match ends"
            )
        self.config = config
        self.num_envs = num_envs
        self.think_seconds = think
        self.players = n = config.players
        layout = raw_env(config=config).observation_layout
        self.observation_size = layout.size
        self.action_size = 4 * n + 1
        self._off = np.array([layout.spans[name][0] for name in BLOCKS], dtype=np.int64)
        self._cfg, self._seconds = k.config_arrays(config, think)
        self._flags = np.array([int(config.dead_see_all)], dtype=np.int64)
        self._states = np.zeros((num_envs, STATE_SIZE), dtype=np.int64)
        self._tallies = np.zeros((num_envs, TALLY_ROWS, TALLY_WIDTH), dtype=np.int64)
        # Per match: the game's generator, the seat picker's, and the match's seed.
        self._rngs = np.zeros((num_envs, 3), dtype=np.uint64)
        self._clocks = np.zeros((num_envs, CLOCK_SIZE), dtype=np.float64)
        self.obs = np.zeros((num_envs, layout.size), dtype=np.float32)
        self.mask = np.zeros((num_envs, self.action_size), dtype=np.int8)
        self.seat = np.zeros(num_envs, dtype=np.int64)
        self.rewards = np.zeros((num_envs, n), dtype=np.float32)
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
            # The single environment's game seed after reset(seed=base + i).
            source = np.random.default_rng(None if base is None else base + i)
            self._rngs[i, 0] = np.uint64(int(source.integers(0, 2**62)))
        _reset_batch(
            self._states,
            self._tallies,
            self._rngs,
            self._clocks,
            self._cfg,
            self._seconds,
            self._flags,
            self._off,
            self.obs,
            self.mask,
            self.seat,
        )
        self.rewards[:] = 0.0
        self.done[:] = False
        return self.obs, self.mask, self.seat

    def step(
        self, actions: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Play one action index per match (for the seat ``seat[i]``); returns
        ``(obs, mask, seat, rewards, done)``.

        The arrays are the environment's own, overwritten by the next call (copy what you
        keep). An illegal action raises ValueError naming the match, and no match moves."""
        actions = np.asarray(actions)
        if actions.shape != (self.num_envs,) or actions.dtype.kind not in "iu":
            raise ValueError(
                f"give one action index per match: an integer array of shape "
                f"({self.num_envs},), got {actions.dtype} of shape {actions.shape}"
            )
        actions = actions.astype(np.int64, copy=False)
        i = first_illegal(self.mask, actions)
        if i >= 0:
            raise ValueError(
                f"action {int(actions[i])} is not legal in match {i} (seat {int(self.seat[i])}); "
                f"legal indices: {np.flatnonzero(self.mask[i]).tolist()}"
            )
        self._make_room()
        _step_batch(
            self._states,
            self._tallies,
            self._rngs,
            self._clocks,
            self._cfg,
            self._seconds,
            self._flags,
            self._off,
            actions,
            self._seeds,
            self.obs,
            self.mask,
            self.seat,
            self.rewards,
            self.done,
        )
        return self.obs, self.mask, self.seat, self.rewards, self.done

    def _make_room(self) -> None:
        """Grow the ballot tables so that no step can fill them. One step closes at most two
        ballots: the one the action (or the clock after it) closes, and, when think_seconds
        reaches vote_seconds, the revote it opens; then comes a night, which waits for a
        Werewolf (think_seconds is shorter than night_seconds when it reaches vote_seconds)."""
        rows = self._tallies.shape[1]
        if int(self._states[:, G_TALLIES].max()) + 2 > rows:
            bigger = np.zeros((self.num_envs, 2 * rows, TALLY_WIDTH), dtype=np.int64)
            bigger[:, :rows] = self._tallies
            self._tallies = bigger

    @property
    def match_seeds(self) -> np.ndarray:
        """The seed of each match being played: ``wolfden.games.werewolf`` dealt with it
        (``game.setup(config, seed)``) is the same match, to replay or inspect."""
        return self._rngs[:, 2].astype(np.int64)

    def random_actions(self, rng: np.ndarray) -> np.ndarray:
        """A uniformly random legal action for every match (``rng``: a kernel generator,
        ``wolfden.kernel.rng.generator(seed)``)."""
        out = np.empty(self.num_envs, dtype=np.int64)
        random_actions(self.mask, rng, out)
        return out

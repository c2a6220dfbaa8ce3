"""Werewolf playouts compiled with numba, held to the rules of :mod:`wolfden.games.werewolf`.

A match is a fixed-size ``int64`` array (the layout is the ``G_*`` offsets below: a header, then
one block of ``MAX_SEATS`` entries per per-seat fact), two one-element ``uint64`` generators and
a table of closed ballots. The steps are the rules' own, one function each: the deal, the start
of a night, a pick, a check, a protection, dawn, opening a ballot, a vote, closing a ballot,
an elimination and the win check.

A playout is played the way the match runner (:mod:`wolfden.sim.runner`) plays one: the
same deal from the same seed (``setup`` shuffles with ``Rng(seed)``), the same virtual clock
(each bot decision takes ``think`` seconds; a phase's deadline applies its action when nobody
may act or when the next decision would reach it), the same choice of the next actor and the
same bots drawing from the same generator (``Rng(derive_seed(seed, 0x5EA7))``). So a kernel
playout with a seed is the reference match with that seed, action for action, and its outcome
is the same; the tests check this.

Policies: ``random`` (uniform over the legal actions) and ``rules`` (the ``rules`` bot of
:mod:`wolfden.bots.werewolf`, reading from the arrays what that bot reads from its view).

:class:`Match` steps one match from Python (the differential tests replay recorded actions
through it); :func:`play` plays a batch; :func:`bench_rate` times random 7-player playouts.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
from numba import njit

from wolfden.kernel import Batch, policy_table, seed_array
from wolfden.kernel.rng import below, derive_seed1, random01, shuffle

if TYPE_CHECKING:
    from wolfden.engine.types import Outcome
    from wolfden.games.werewolf.config import Config
    from wolfden.sim.seating import BotPlan

GAME = "werewolf"
POLICIES: tuple[str, ...] = ("random", "rules")
"""The bot kinds the kernel plays, as :mod:`wolfden.bots` names them."""

TEAM_NAMES: tuple[str, ...] = ("town", "werewolves")
ROLE_NAMES: tuple[str, ...] = ("werewolf", "seer", "guardian", "villager")
PHASE_NAMES: tuple[str, ...] = ("night", "discussion", "vote", "revote", "end")
DEATH_BY: tuple[str, ...] = ("night", "vote")
"""How a seat died, as ``Outcome.stats["deaths"]`` names it (``deaths.by`` indexes this)."""

MAX_SEATS = 16
THINK = 1.0
"""Virtual seconds per bot decision, as the match runner's default."""
MAX_STEPS = 100_000
BOT_SALT = 0x5EA7
"""The salt of the bots' generator: ``derive_seed(seed, BOT_SALT)`` (see the match runner)."""
"""The runner's limit: a match with more steps is a bug."""

WEREWOLF, SEER, GUARDIAN, VILLAGER = 0, 1, 2, 3
TOWN, WEREWOLVES = 0, 1
NIGHT, DISCUSSION, VOTE, REVOTE, END = 0, 1, 2, 3, 4
NO_ONE = -1
NOT_VOTED = -2
ONGOING = -2
"""``G_WINNER`` while the match runs (then -1 for a draw, else the winning team)."""

# Actions are ``kind * 16 + seat``.
PICK, CHECK, PROTECT, BALLOT_VOTE, ABSTAIN, DAWN, END_DISCUSSION, CLOSE_BALLOT = range(8)
ACTION_NAMES: tuple[str, ...] = (
    "pick",
    "check",
    "protect",
    "vote",
    "abstain",
    "dawn",
    "end_discussion",
    "close_ballot",
)

# -- the state array --------------------------------------------------------------------------
G_PLAYERS = 0
G_PHASE = 1
G_SEQ = 2
"""Counts phases, as the reference's ``phase_seq``: the clock times each phase from its start."""
G_ROUND = 3
G_ALIVE = 4
"""The living, a bit mask by seat."""
G_PENDING = 5
"""The seats that may act now, a bit mask (the reference's ``actors``)."""
G_PICK_ROUND = 6
G_LOCKED = 7
"""The pack's locked target tonight, or NO_ONE."""
G_WINNER = 8
G_DEATHS = 9
"""How many have died (the records are in D_ROUND, D_SEAT, D_BY)."""
G_TALLIES = 10
"""How many ballots have closed (the rows of the ballot table)."""
G_CANDIDATES = 11
"""The open ballot's candidates, a bit mask (they are always in seat order)."""
G_WOLVES = 12
"""The seats dealt a Werewolf, a bit mask."""
G_CALLERS = 13
"""The seats whose role acts at night, a bit mask."""
G_UNMET = 14
"""Seats that declined a special role and were dealt one anyway, a bit mask."""
G_CHECKS = 15
"""How many checks the Seers have made: orders the Werewolves a Seer has found."""
G_NIGHT_TARGET = 16
"""Last dawn's target (NO_ONE for none), and whether it was eliminated (G_NIGHT_KILLED)."""
G_NIGHT_KILLED = 17
G_DAWNS = 18
"""How many nights have ended."""
# Per-seat blocks.
ROLE = 32
CARD = ROLE + MAX_SEATS
"""The index of the seat's card in the config's deck (see :func:`card_ids`)."""
PICKS = CARD + MAX_SEATS
PREV_PICKS = PICKS + MAX_SEATS
CHECKED = PREV_PICKS + MAX_SEATS
GUARD = CHECKED + MAX_SEATS
LAST_PROTECTED = GUARD + MAX_SEATS
BALLOT = LAST_PROTECTED + MAX_SEATS
D_ROUND = BALLOT + MAX_SEATS
D_SEAT = D_ROUND + MAX_SEATS
D_BY = D_SEAT + MAX_SEATS
KNOW = D_BY + MAX_SEATS
"""A Seer's answers: ``KNOW + seer * MAX_SEATS + target`` is 0 (never checked), 1 (not a
Werewolf) or 2 + the order of the check that first found that Werewolf."""
STATE_SIZE = KNOW + MAX_SEATS * MAX_SEATS

# The ballot table: one row per closed ballot.
T_VOTES = 0
"""Columns 0–11: each seat's vote (a seat, NO_ONE for abstaining or a missing vote,
NOT_VOTED for a seat not alive)."""
T_CANDIDATES = MAX_SEATS
T_ROUND = MAX_SEATS + 1
T_REVOTE = MAX_SEATS + 2
TALLY_WIDTH = MAX_SEATS + 3

# The config as arrays.
C_PLAYERS = 0
C_WOLVES = 1
C_SEERS = 2
C_GUARDIANS = 3
C_PACK_ROUNDS = 4
C_PUBLIC = 5
C_ROUND_LIMIT = 6
C_VILLAGER_ONLY = 7
"""How many seats declined a special role; the seats follow, in the config's order."""
CONFIG_SIZE = C_VILLAGER_ONLY + 1 + MAX_SEATS
S_NIGHT = 0
S_MIN_NIGHT = 1
S_DISCUSSION = 2
S_VOTE = 3
S_THINK = 4
SECONDS_SIZE = 5


# -- small helpers ----------------------------------------------------------------------------


@njit(cache=True)
def _count(mask: int) -> int:
    n = 0
    while mask:
        mask &= mask - 1
        n += 1
    return n


# -- the deal ---------------------------------------------------------------------------------


@njit(cache=True)
def deal(g: np.ndarray, rng: np.ndarray, cfg: np.ndarray) -> None:
    """Shuffle the config's deck and deal one card per seat, as the reference's setup.

    The deck holds the Werewolves, Seers, Guardians and Villagers in that order. A player who
    declined a special role gets a Villager (the last one of the shuffled deck left) whenever
    one is left; then the other cards are shuffled again and dealt from the end.
    """
    n = cfg[C_PLAYERS]
    deck_roles = np.full(n, VILLAGER, np.int64)
    wolves_end = cfg[C_WOLVES]
    seers_end = wolves_end + cfg[C_SEERS]
    guardians_end = seers_end + cfg[C_GUARDIANS]
    deck_roles[:wolves_end] = WEREWOLF
    deck_roles[wolves_end:seers_end] = SEER
    deck_roles[seers_end:guardians_end] = GUARDIAN
    cards = np.arange(n)
    shuffle(rng, cards)
    g[G_UNMET] = 0
    declined = cfg[C_VILLAGER_ONLY]
    if declined == 0:
        for seat in range(n):
            g[CARD + seat] = cards[seat]
    else:
        villagers = np.empty(n, np.int64)
        nv = 0
        others = np.empty(n, np.int64)
        no = 0
        for card in cards:
            if deck_roles[card] == VILLAGER:
                villagers[nv] = card
                nv += 1
            else:
                others[no] = card
                no += 1
        dealt = np.zeros(n, np.bool_)
        for k in range(declined):
            seat = cfg[C_VILLAGER_ONLY + 1 + k]
            if nv > 0:
                nv -= 1
                g[CARD + seat] = villagers[nv]
                dealt[seat] = True
            else:
                g[G_UNMET] |= 1 << seat
        rest = np.empty(nv + no, np.int64)
        rest[:nv] = villagers[:nv]
        rest[nv:] = others[:no]
        shuffle(rng, rest)
        left = nv + no
        for seat in range(n):
            if not dealt[seat]:
                left -= 1
                g[CARD + seat] = rest[left]
    wolves = 0
    callers = 0
    for seat in range(n):
        role = deck_roles[g[CARD + seat]]
        g[ROLE + seat] = role
        if role == WEREWOLF:
            wolves |= 1 << seat
        if role != VILLAGER:
            callers |= 1 << seat
    g[G_WOLVES] = wolves
    g[G_CALLERS] = callers


@njit(cache=True)
def setup(g: np.ndarray, rng: np.ndarray, cfg: np.ndarray) -> None:
    """A new match: the deal, everyone alive, round 1, and the first night begins."""
    g[:] = 0
    n = cfg[C_PLAYERS]
    g[G_PLAYERS] = n
    deal(g, rng, cfg)
    g[G_ROUND] = 1
    g[G_ALIVE] = (1 << n) - 1
    g[G_WINNER] = ONGOING
    g[G_NIGHT_TARGET] = NO_ONE
    for seat in range(MAX_SEATS):
        g[LAST_PROTECTED + seat] = NO_ONE
        g[D_ROUND + seat] = NO_ONE
        g[D_SEAT + seat] = NO_ONE
        g[D_BY + seat] = NO_ONE
        g[BALLOT + seat] = NOT_VOTED
    start_night(g)


# -- the night --------------------------------------------------------------------------------


@njit(cache=True)
def start_night(g: np.ndarray) -> None:
    """Every role is called; the living who act at night may act."""
    g[G_PHASE] = NIGHT
    g[G_SEQ] += 1
    for seat in range(MAX_SEATS):
        g[PICKS + seat] = NO_ONE
        g[PREV_PICKS + seat] = NO_ONE
        g[CHECKED + seat] = NO_ONE
        g[GUARD + seat] = NO_ONE
    g[G_PICK_ROUND] = 1
    g[G_LOCKED] = NO_ONE
    g[G_PENDING] = g[G_ALIVE] & g[G_CALLERS]


@njit(cache=True)
def most_picked(g: np.ndarray, rng: np.ndarray, base: int, fallback: int) -> int:
    """The most-picked player among the living Werewolves' picks at ``base`` (or, where a
    Werewolf has none, at ``fallback`` when that is not -1); a tie is broken by the seeded
    generator; no pick at all: no one."""
    counts = np.zeros(MAX_SEATS, np.int64)
    pack = g[G_ALIVE] & g[G_WOLVES]
    any_pick = False
    for w in range(g[G_PLAYERS]):
        if pack >> w & 1:
            p = g[base + w]
            if p == NO_ONE and fallback >= 0:
                p = g[fallback + w]
            if p != NO_ONE:
                counts[p] += 1
                any_pick = True
    if not any_pick:
        return NO_ONE
    top = counts.max()
    leaders = 0
    for t in range(MAX_SEATS):
        if counts[t] == top:
            leaders += 1
    if leaders == 1:
        return int(np.argmax(counts))
    k = below(rng, leaders)
    for t in range(MAX_SEATS):
        if counts[t] == top:
            if k == 0:
                return t
            k -= 1
    return NO_ONE


@njit(cache=True)
def werewolf_pick(g: np.ndarray, rng: np.ndarray, cfg: np.ndarray, seat: int, target: int) -> None:
    """Each living Werewolf picks a living non-Werewolf. When all living Werewolves agree the
    target is locked; otherwise they pick again, seeing the last picks, up to ``pack_rounds``
    rounds; then the most-picked player is taken, a tie broken by the seeded generator."""
    g[PICKS + seat] = target
    g[G_PENDING] &= ~(1 << seat)
    pack = g[G_ALIVE] & g[G_WOLVES]
    if g[G_PENDING] & pack:
        return
    agree = True
    for w in range(g[G_PLAYERS]):
        if pack >> w & 1 and g[PICKS + w] != target:
            agree = False
    if agree:
        g[G_LOCKED] = target
    elif g[G_PICK_ROUND] < cfg[C_PACK_ROUNDS]:
        for w in range(MAX_SEATS):
            g[PREV_PICKS + w] = g[PICKS + w]
            g[PICKS + w] = NO_ONE
        g[G_PICK_ROUND] += 1
        g[G_PENDING] |= pack
    else:
        g[G_LOCKED] = most_picked(g, rng, PICKS, -1)


@njit(cache=True)
def seer_check(g: np.ndarray, seat: int, target: int) -> None:
    """The Seer checks a living player other than themselves and learns the answer at once."""
    g[CHECKED + seat] = target
    g[G_PENDING] &= ~(1 << seat)
    at = KNOW + seat * MAX_SEATS + target
    if g[ROLE + target] == WEREWOLF:
        if g[at] == 0:
            g[at] = 2 + g[G_CHECKS]
    else:
        g[at] = 1
    g[G_CHECKS] += 1


@njit(cache=True)
def guardian_protect(g: np.ndarray, seat: int, target: int) -> None:
    """The Guardian protects a living player, themselves allowed, never last night's choice."""
    g[GUARD + seat] = target
    g[G_PENDING] &= ~(1 << seat)


@njit(cache=True)
def resolve_night(g: np.ndarray, rng: np.ndarray, cfg: np.ndarray) -> None:
    """Dawn: the pack's target is eliminated unless a Guardian protected them. Tonight's
    protections are what each Guardian may not repeat tomorrow (none resets it)."""
    target = g[G_LOCKED]
    if target == NO_ONE:
        target = most_picked(g, rng, PICKS, PREV_PICKS)
    protected = False
    for seat in range(MAX_SEATS):
        choice = g[GUARD + seat]
        g[LAST_PROTECTED + seat] = choice
        if choice != NO_ONE and choice == target:
            protected = True
    g[G_NIGHT_TARGET] = target
    g[G_NIGHT_KILLED] = 0
    g[G_DAWNS] += 1
    if target != NO_ONE and not protected:
        eliminate(g, target, 0)
        g[G_NIGHT_KILLED] = 1
    if check_win(g):
        return
    g[G_PHASE] = DISCUSSION
    g[G_SEQ] += 1
    g[G_PENDING] = 0


# -- the day ----------------------------------------------------------------------------------


@njit(cache=True)
def open_ballot(g: np.ndarray, candidates: int, revote: bool) -> None:
    """A secret ballot among ``candidates``; every living player may vote once."""
    g[G_PHASE] = REVOTE if revote else VOTE
    g[G_SEQ] += 1
    g[G_CANDIDATES] = candidates
    for seat in range(MAX_SEATS):
        g[BALLOT + seat] = NOT_VOTED
    g[G_PENDING] = g[G_ALIVE]


@njit(cache=True)
def cast_vote(
    g: np.ndarray, tallies: np.ndarray, cfg: np.ndarray, seat: int, choice: int
) -> np.ndarray:
    """A vote for a candidate other than oneself, or NO_ONE to abstain. The ballot closes when
    everyone has voted. Returns the ballot table (a larger one when it had to grow)."""
    g[BALLOT + seat] = choice
    g[G_PENDING] &= ~(1 << seat)
    if g[G_PENDING] == 0:
        return close_ballot(g, tallies, cfg)
    return tallies


@njit(cache=True)
def close_ballot(g: np.ndarray, tallies: np.ndarray, cfg: np.ndarray) -> np.ndarray:
    """Plurality eliminates. A tie → one revote among the tied; a second tie or all abstaining
    → no elimination. A missing vote counts as an abstention. The tally is kept in the ballot
    table (grown when full, which is returned)."""
    n = g[G_PLAYERS]
    row = g[G_TALLIES]
    if row == tallies.shape[0]:
        bigger = np.empty((2 * row, TALLY_WIDTH), np.int64)
        bigger[:row] = tallies
        tallies = bigger
    g[G_TALLIES] = row + 1
    alive = g[G_ALIVE]
    got = np.zeros(MAX_SEATS, np.int64)
    for voter in range(MAX_SEATS):
        choice = NOT_VOTED
        if voter < n and alive >> voter & 1:
            choice = g[BALLOT + voter]
            if choice >= 0:
                got[choice] += 1
            else:
                choice = NO_ONE
        tallies[row, T_VOTES + voter] = choice
    candidates = g[G_CANDIDATES]
    revote = g[G_PHASE] == REVOTE
    tallies[row, T_CANDIDATES] = candidates
    tallies[row, T_ROUND] = g[G_ROUND]
    tallies[row, T_REVOTE] = 1 if revote else 0
    g[G_PENDING] = 0
    top = 0
    for c in range(n):
        if candidates >> c & 1 and got[c] > top:
            top = got[c]
    leaders = 0
    leader = NO_ONE
    for c in range(n):
        if candidates >> c & 1 and got[c] == top:
            leaders |= 1 << c
            if leader == NO_ONE:
                leader = c
    if top == 0:
        pass  # everyone abstained: no elimination
    elif _count(leaders) == 1:
        eliminate(g, leader, 1)
        if check_win(g):
            return tallies
    elif not revote:
        open_ballot(g, leaders, True)
        return tallies
    end_of_day(g, cfg)
    return tallies


@njit(cache=True)
def end_of_day(g: np.ndarray, cfg: np.ndarray) -> None:
    """A draw at the round limit; otherwise the next night."""
    limit = cfg[C_ROUND_LIMIT]
    if limit and g[G_ROUND] >= limit:
        finish(g, -1)
        return
    g[G_ROUND] += 1
    start_night(g)


# -- eliminations and the end -----------------------------------------------------------------


@njit(cache=True)
def eliminate(g: np.ndarray, seat: int, by_vote: int) -> None:
    """The seat leaves the living; the death is recorded (its role is revealed)."""
    g[G_ALIVE] &= ~(1 << seat)
    k = g[G_DEATHS]
    g[D_ROUND + k] = g[G_ROUND]
    g[D_SEAT + k] = seat
    g[D_BY + k] = by_vote
    g[G_DEATHS] = k + 1


@njit(cache=True)
def winner(g: np.ndarray) -> int:
    """Town wins when no Werewolf lives; Werewolves win when they are at least as many as the
    living non-Werewolves (the Seer and Guardian included). ONGOING otherwise."""
    wolves = _count(g[G_ALIVE] & g[G_WOLVES])
    others = _count(g[G_ALIVE]) - wolves
    if wolves == 0:
        return TOWN
    if wolves >= others:
        return WEREWOLVES
    return ONGOING


@njit(cache=True)
def check_win(g: np.ndarray) -> bool:
    team = winner(g)
    if team == ONGOING:
        return False
    finish(g, team)
    return True


@njit(cache=True)
def finish(g: np.ndarray, team: int) -> None:
    g[G_PHASE] = END
    g[G_SEQ] += 1
    g[G_PENDING] = 0
    g[G_WINNER] = team


# -- actions ----------------------------------------------------------------------------------


@njit(cache=True)
def legal_actions(g: np.ndarray, seat: int, out: np.ndarray) -> int:
    """The seat's actions (seat -1: the moderator's) written to ``out``, in the reference's
    order; returns how many."""
    phase = g[G_PHASE]
    if seat < 0:
        if phase == DISCUSSION:
            out[0] = END_DISCUSSION * 16
            return 1
        return 0
    if not g[G_PENDING] >> seat & 1:
        return 0
    n = g[G_PLAYERS]
    alive = g[G_ALIVE]
    k = 0
    if phase == NIGHT:
        role = g[ROLE + seat]
        if role == WEREWOLF:
            kind, targets = PICK, alive & ~g[G_WOLVES]
        elif role == SEER:
            kind, targets = CHECK, alive & ~(1 << seat)
        else:
            barred = g[LAST_PROTECTED + seat]
            kind, targets = PROTECT, alive if barred == NO_ONE else alive & ~(1 << barred)
        for t in range(n):
            if targets >> t & 1:
                out[k] = kind * 16 + t
                k += 1
        return k
    candidates = g[G_CANDIDATES]
    for t in range(n):
        if candidates >> t & 1 and t != seat:
            out[k] = BALLOT_VOTE * 16 + t
            k += 1
    out[k] = ABSTAIN * 16
    return k + 1


@njit(cache=True)
def apply(
    g: np.ndarray, rng: np.ndarray, tallies: np.ndarray, cfg: np.ndarray, seat: int, action: int
) -> np.ndarray:
    """Apply one of the actions :func:`legal_actions` offers (or the deadline's action with
    seat -1). Returns the ballot table (a larger one when it had to grow)."""
    kind = action >> 4
    target = action & 15
    if seat < 0:
        if kind == DAWN:
            resolve_night(g, rng, cfg)
        elif kind == END_DISCUSSION:
            open_ballot(g, g[G_ALIVE], False)
        else:
            tallies = close_ballot(g, tallies, cfg)
        return tallies
    if kind == PICK:
        werewolf_pick(g, rng, cfg, seat, target)
    elif kind == CHECK:
        seer_check(g, seat, target)
    elif kind == PROTECT:
        guardian_protect(g, seat, target)
    elif kind == BALLOT_VOTE:
        tallies = cast_vote(g, tallies, cfg, seat, target)
    else:
        tallies = cast_vote(g, tallies, cfg, seat, NO_ONE)
    return tallies


@njit(cache=True)
def deadline(g: np.ndarray, seconds: np.ndarray) -> tuple[float, int]:
    """The phase's deadline: its length in seconds and its action (-1, -1 at the end). A night
    with every action in still lasts its minimum length."""
    phase = g[G_PHASE]
    if phase == NIGHT:
        if g[G_PENDING]:
            return seconds[S_NIGHT], DAWN * 16
        return seconds[S_MIN_NIGHT], DAWN * 16
    if phase == DISCUSSION:
        return seconds[S_DISCUSSION], END_DISCUSSION * 16
    if phase == END:
        return -1.0, -1
    return seconds[S_VOTE], CLOSE_BALLOT * 16


# -- the rules bot ----------------------------------------------------------------------------


@njit(cache=True)
def suspicion(g: np.ndarray, tallies: np.ndarray, cfg: np.ndarray, score: np.ndarray) -> None:
    """The rules bot's suspicion of each living seat from the public record: a vote for a
    player later revealed as a Werewolf earns trust (-2), for a revealed townsperson suspicion
    (+1.5), for a living player a little (+0.2). Added up ballot by ballot, as the bot does."""
    alive = g[G_ALIVE]
    score[:] = 0.0
    if not cfg[C_PUBLIC]:
        return
    for row in range(g[G_TALLIES]):
        for voter in range(g[G_PLAYERS]):
            target = tallies[row, T_VOTES + voter]
            if target < 0 or not alive >> voter & 1:
                continue
            if alive >> target & 1:
                score[voter] += 0.2
            elif g[ROLE + target] == WEREWOLF:
                score[voter] -= 2.0
            else:
                score[voter] += 1.5


WOLF_ABSTAINS = 0.6
"""As the bot's ``WOLF_ABSTAINS``: how often a Werewolf abstains when nothing points anywhere."""


@njit(cache=True)
def seer_likeness(g: np.ndarray, tallies: np.ndarray, cfg: np.ndarray, count: np.ndarray) -> None:
    """For the pack: how many times each living townsperson has voted for a Werewolf (a Seer
    who found one does), from the public ballots."""
    alive = g[G_ALIVE]
    count[:] = 0
    if not cfg[C_PUBLIC]:
        return
    for row in range(g[G_TALLIES]):
        for voter in range(g[G_PLAYERS]):
            target = tallies[row, T_VOTES + voter]
            if target < 0 or not alive >> voter & 1 or g[ROLE + voter] == WEREWOLF:
                continue
            if g[ROLE + target] == WEREWOLF:
                count[voter] += 1


@njit(cache=True)
def _together(
    g: np.ndarray, choices: np.ndarray, m: int, threat: np.ndarray, score: np.ndarray
) -> int:
    """The pack's common choice among the seats ``choices[:m]``: the most Seer-like, then the
    most suspected, then the first in seat order from the pack's first living seat."""
    n = g[G_PLAYERS]
    living_pack = g[G_ALIVE] & g[G_WOLVES]
    first = 0
    while not living_pack >> first & 1:
        first += 1
    best = choices[0]
    for i in range(1, m):
        t = choices[i]
        if threat[t] != threat[best]:
            if threat[t] > threat[best]:
                best = t
        elif score[t] != score[best]:
            if score[t] > score[best]:
                best = t
        elif (t - first) % n < (best - first) % n:
            best = t
    return int(best)


@njit(cache=True)
def _rules_pick(
    g: np.ndarray,
    tallies: np.ndarray,
    cfg: np.ndarray,
    seat: int,
    legal: np.ndarray,
    k: int,
    rng: np.ndarray,
    score: np.ndarray,
) -> int:
    """Follow the first pick of another Werewolf tonight (this round's, else the last round's);
    otherwise the player who has voted most for the pack, then whom the village trusts most,
    ties broken by a draw per choice in order (as the bot's ``max`` over (likeness,
    -suspicion, draw))."""
    allowed = 0
    for i in range(k):
        allowed |= 1 << (legal[i] & 15)
    n = g[G_PLAYERS]
    wolves = g[G_WOLVES]
    for base in (PICKS, PREV_PICKS):
        for w in range(n):
            if wolves >> w & 1 and w != seat:
                p = g[base + w]
                if p != NO_ONE and allowed >> p & 1:
                    return PICK * 16 + p
    suspicion(g, tallies, cfg, score)
    threat = np.empty(MAX_SEATS, np.int64)
    seer_likeness(g, tallies, cfg, threat)
    best = -1
    best_threat = 0
    best_trust = 0.0
    best_draw = 0.0
    for i in range(k):
        t = legal[i] & 15
        draw = random01(rng)
        trust = -score[t]
        if (
            best < 0
            or threat[t] > best_threat
            or (threat[t] == best_threat and trust > best_trust)
            or (threat[t] == best_threat and trust == best_trust and draw > best_draw)
        ):
            best, best_threat, best_trust, best_draw = legal[i], threat[t], trust, draw
    return best


@njit(cache=True)
def _best_scored(
    choices: np.ndarray, m: int, score: np.ndarray, rng: np.ndarray, sign: float
) -> int:
    """Of ``choices[:m]`` (seats, or actions on a seat), the one whose seat scores highest
    (``sign`` 1) or lowest (``sign`` -1), ties broken by a draw per choice in order: the
    highest draw with the highest score, the lowest with the lowest (as the bot's ``max`` and
    ``min`` over (score, draw))."""
    best = -1
    best_key = 0.0
    best_draw = 0.0
    for i in range(m):
        draw = sign * random01(rng)
        key = sign * score[choices[i] & 15]
        if best < 0 or key > best_key or (key == best_key and draw > best_draw):
            best, best_key, best_draw = choices[i], key, draw
    return best


@njit(cache=True)
def _rules_vote(
    g: np.ndarray,
    tallies: np.ndarray,
    cfg: np.ndarray,
    seat: int,
    legal: np.ndarray,
    k: int,
    rng: np.ndarray,
    score: np.ndarray,
) -> int:
    abstain = ABSTAIN * 16
    m = k - 1  # the votes come first, abstaining last
    if m == 0:
        return abstain
    suspicion(g, tallies, cfg, score)
    choices = np.empty(MAX_SEATS, np.int64)
    role = g[ROLE + seat]
    c = 0
    if role == WEREWOLF:
        # Never against the pack; as one once its votes decide; otherwise in the crowd.
        for i in range(m):
            t = legal[i] & 15
            if g[ROLE + t] != WEREWOLF:
                choices[c] = t
                c += 1
        if c == 0:
            return abstain
        threat = np.empty(MAX_SEATS, np.int64)
        seer_likeness(g, tallies, cfg, threat)
        alive = g[G_ALIVE]
        if _count(alive) <= 2 * _count(alive & g[G_WOLVES]) + 1:
            return BALLOT_VOTE * 16 + _together(g, choices, c, threat, score)
        top = score[legal[0] & 15]
        for i in range(1, m):
            if score[legal[i] & 15] > top:
                top = score[legal[i] & 15]
        if top <= 0.0:
            if random01(rng) < WOLF_ABSTAINS:
                return abstain
            return BALLOT_VOTE * 16 + int(choices[below(rng, c)])
        leaders = np.empty(MAX_SEATS, np.int64)
        n_leaders = 0
        for i in range(c):
            if score[choices[i]] == top:
                leaders[n_leaders] = choices[i]
                n_leaders += 1
        if n_leaders == 0:
            return abstain
        return BALLOT_VOTE * 16 + _together(g, leaders, n_leaders, threat, score)
    if role == SEER:
        # A Werewolf found (the earliest found first); never a player cleared.
        found = -1
        found_at = 0
        for i in range(m):
            t = legal[i] & 15
            known = g[KNOW + seat * MAX_SEATS + t]
            if known >= 2 and (found < 0 or known < found_at):
                found, found_at = t, known
        if found >= 0:
            return BALLOT_VOTE * 16 + found
        for i in range(m):
            t = legal[i] & 15
            if g[KNOW + seat * MAX_SEATS + t] != 1:
                choices[c] = t
                c += 1
        if c == 0:
            return abstain
        return BALLOT_VOTE * 16 + _best_scored(choices, c, score, rng, 1.0)
    # Villagers and Guardians vote from the public record, and abstain now and then when
    # nothing points anywhere.
    top = score[legal[0] & 15]
    for i in range(1, m):
        s = score[legal[i] & 15]
        if s > top:
            top = s
    if top <= 0.0 and random01(rng) < 0.3:
        return abstain
    for i in range(m):
        t = legal[i] & 15
        if score[t] == top:
            choices[c] = t
            c += 1
    return BALLOT_VOTE * 16 + choices[below(rng, c)]


@njit(cache=True)
def rules_policy(
    g: np.ndarray,
    tallies: np.ndarray,
    cfg: np.ndarray,
    seat: int,
    legal: np.ndarray,
    k: int,
    rng: np.ndarray,
    score: np.ndarray,
) -> int:
    """The ``rules`` bot's choice among ``legal[:k]``."""
    kind = legal[0] >> 4
    if kind == PICK:
        return _rules_pick(g, tallies, cfg, seat, legal, k, rng, score)
    if kind == CHECK:
        # Players it knows nothing about.
        fresh = np.empty(MAX_SEATS, np.int64)
        f = 0
        for i in range(k):
            if g[KNOW + seat * MAX_SEATS + (legal[i] & 15)] == 0:
                fresh[f] = legal[i]
                f += 1
        if f:
            return fresh[below(rng, f)]
        return legal[below(rng, k)]
    if kind == PROTECT:
        # Itself only now and then.
        others = np.empty(MAX_SEATS, np.int64)
        o = 0
        for i in range(k):
            if legal[i] & 15 != seat:
                others[o] = legal[i]
                o += 1
        if o and not random01(rng) < 0.2:
            return others[below(rng, o)]
        return legal[below(rng, k)]
    return _rules_vote(g, tallies, cfg, seat, legal, k, rng, score)


# -- playouts ---------------------------------------------------------------------------------


@njit(cache=True)
def play_one(
    g: np.ndarray,
    tallies: np.ndarray,
    cfg: np.ndarray,
    seconds: np.ndarray,
    seed: np.uint64,
    seat_policy: np.ndarray,
    team_policy: np.ndarray,
    default_policy: int,
    legal: np.ndarray,
    score: np.ndarray,
) -> tuple[np.ndarray, int]:
    """One match as the match runner plays it; returns the ballot table and the steps."""
    game_rng = np.empty(1, np.uint64)
    game_rng[0] = seed
    setup(g, game_rng, cfg)
    bots_rng = np.empty(1, np.uint64)
    bots_rng[0] = derive_seed1(seed, BOT_SALT)
    n = g[G_PLAYERS]
    policy = np.empty(MAX_SEATS, np.int64)
    for seat in range(n):
        team = WEREWOLVES if g[ROLE + seat] == WEREWOLF else TOWN
        if seat_policy[seat] >= 0:
            policy[seat] = seat_policy[seat]
        elif team_policy[team] >= 0:
            policy[seat] = team_policy[team]
        else:
            policy[seat] = default_policy
    think = seconds[S_THINK]
    now = 0.0
    phase = -1
    started = 0.0
    steps = 0
    order = np.empty(MAX_SEATS, np.int64)
    while g[G_PHASE] != END:
        if steps >= MAX_STEPS:
            raise RuntimeError("werewolf kernel: no outcome after 100000 steps")
        if g[G_SEQ] != phase:
            phase = g[G_SEQ]
            started = now
        actors = g[G_PENDING]
        length, timeout = deadline(g, seconds)
        if actors == 0 or now + think >= started + length:
            now = max(now, started + length)
            tallies = apply(g, game_rng, tallies, cfg, -1, timeout)
        else:
            a = 0
            for seat in range(n):
                if actors >> seat & 1:
                    order[a] = seat
                    a += 1
            seat = order[0] if a == 1 else order[below(bots_rng, a)]
            k = legal_actions(g, seat, legal)
            if policy[seat] == 0:
                action = legal[below(bots_rng, k)]
            else:
                action = rules_policy(g, tallies, cfg, seat, legal, k, bots_rng, score)
            tallies = apply(g, game_rng, tallies, cfg, seat, action)
            now += think
        steps += 1
    return tallies, steps


@njit(cache=True)
def play_batch(
    cfg: np.ndarray,
    seconds: np.ndarray,
    seeds: np.ndarray,
    seat_policy: np.ndarray,
    team_policy: np.ndarray,
    default_policy: int,
    winning_team: np.ndarray,
    roles: np.ndarray,
    rounds: np.ndarray,
    steps: np.ndarray,
    survivors: np.ndarray,
    death_round: np.ndarray,
    death_seat: np.ndarray,
    death_by: np.ndarray,
) -> None:
    """Play one match per seed, writing each one's ending into the output arrays."""
    g = np.zeros(STATE_SIZE, np.int64)
    tallies = np.empty((16, TALLY_WIDTH), np.int64)
    legal = np.empty(MAX_SEATS + 1, np.int64)
    score = np.empty(MAX_SEATS, np.float64)
    n = cfg[C_PLAYERS]
    for i in range(seeds.shape[0]):
        tallies, steps[i] = play_one(
            g,
            tallies,
            cfg,
            seconds,
            seeds[i],
            seat_policy,
            team_policy,
            default_policy,
            legal,
            score,
        )
        winning_team[i] = g[G_WINNER]
        rounds[i] = g[G_ROUND]
        survivors[i] = _count(g[G_ALIVE])
        for seat in range(n):
            roles[i, seat] = g[ROLE + seat]
            death_round[i, seat] = g[D_ROUND + seat]
            death_seat[i, seat] = g[D_SEAT + seat]
            death_by[i, seat] = g[D_BY + seat]


# -- from Python ------------------------------------------------------------------------------


def unsupported(config: Any) -> str | None:
    """None: the kernel plays every valid Werewolf config of the seed's roles (5–16 players,
    the custom variant, declined roles, every timer and option but structured talk). Otherwise
    why not: the simulator then plays the rules in Python."""
    from wolfden.engine.errors import ConfigError
    from wolfden.games.werewolf.config import Config

    if not isinstance(config, Config):
        return f"the werewolf kernel plays a werewolf Config, not {type(config).__name__}"
    try:
        config.validate()
    except ConfigError as error:
        return str(error)
    if config.talk:
        return "the werewolf kernel plays without structured talk (the talk option)"
    if config.beyond_seed:
        return (
            "the werewolf kernel plays the seed's roles (Werewolves, Seers, Guardians, "
            f"Villagers), not {', '.join(sorted(config.beyond_seed))}"
        )
    return None


def config_arrays(config: Config, think: float = THINK) -> tuple[np.ndarray, np.ndarray]:
    """The config as the kernel reads it: its counts and options, and its timers (with the
    seconds a bot decision takes on the virtual clock)."""
    reason = unsupported(config)
    if reason is not None:
        raise ValueError(reason)
    cfg = np.zeros(CONFIG_SIZE, np.int64)
    cfg[C_PLAYERS] = config.players
    cfg[C_WOLVES] = config.werewolf_count
    cfg[C_SEERS] = config.seer_count
    cfg[C_GUARDIANS] = config.guardian_count
    cfg[C_PACK_ROUNDS] = config.pack_rounds
    cfg[C_PUBLIC] = int(config.public_ballots)
    cfg[C_ROUND_LIMIT] = config.round_limit
    cfg[C_VILLAGER_ONLY] = len(config.villager_only)
    for k, seat in enumerate(config.villager_only):
        cfg[C_VILLAGER_ONLY + 1 + k] = seat
    seconds = np.zeros(SECONDS_SIZE, np.float64)
    seconds[S_NIGHT] = config.night_seconds
    seconds[S_MIN_NIGHT] = config.min_night_seconds
    seconds[S_DISCUSSION] = config.discussion_seconds
    seconds[S_VOTE] = config.vote_seconds
    seconds[S_THINK] = think
    return cfg, seconds


def card_ids(config: Config) -> tuple[str, ...]:
    """The ids of the config's deck in the kernel's order (``CARD`` indexes this): the print
    deck's cards of each role (Werewolves 001–003, Seer 004, Guardian 005, Villagers 006–012),
    extra copies numbered on from 013, role by role."""
    printed = {WEREWOLF: [1, 2, 3], SEER: [4], GUARDIAN: [5], VILLAGER: list(range(6, 13))}
    counts = (
        config.werewolf_count,
        config.seer_count,
        config.guardian_count,
        config.villager_count,
    )
    extra = 12
    ids = []
    for role, count in enumerate(counts):
        for i in range(count):
            if i < len(printed[role]):
                number = printed[role][i]
            else:
                extra += 1
                number = extra
            ids.append(f"R_WEREWOLF-{number:03d}")
    return tuple(ids)


def play(config: Config, seeds: Sequence[int] | np.ndarray, bots: BotPlan) -> Batch:
    """Play one match per seed, each exactly the match the runner plays with that seed."""
    cfg, seconds = config_arrays(config)
    n = config.players
    table = policy_table(bots, n, TEAM_NAMES, POLICIES)
    seed_values = seed_array(seeds)
    games = seed_values.shape[0]
    winning_team = np.empty(games, np.int8)
    roles = np.empty((games, n), np.int8)
    rounds = np.empty(games, np.int32)
    steps = np.empty(games, np.int32)
    survivors = np.empty(games, np.int32)
    death_round = np.empty((games, n), np.int32)
    death_seat = np.empty((games, n), np.int8)
    death_by = np.empty((games, n), np.int8)
    seat_policy = table.seat.astype(np.int64)
    team_policy = table.team.astype(np.int64)
    play_batch(
        cfg,
        seconds,
        seed_values,
        seat_policy,
        team_policy,
        table.default,
        winning_team,
        roles,
        rounds,
        steps,
        survivors,
        death_round,
        death_seat,
        death_by,
    )
    teams = (roles == WEREWOLF).astype(np.int8)
    winners = (winning_team[:, None] >= 0) & (teams == winning_team[:, None])
    first_role = np.where(
        death_seat[:, 0] >= 0,
        np.take_along_axis(roles, np.maximum(death_seat[:, :1], 0).astype(np.int64), 1)[:, 0],
        -1,
    ).astype(np.int8)
    stats = {
        "survivors": survivors,
        "first_death_role": first_role,
        "first_death_by": death_by[:, 0].copy(),
        "deaths.round": death_round,
        "deaths.seat": death_seat,
        "deaths.by": death_by,
    }
    kept = np.asarray(seeds) if isinstance(seeds, np.ndarray) else seed_values
    return Batch(
        seeds=kept,
        winning_team=winning_team,
        winners=winners,
        teams=teams,
        roles=roles,
        rounds=rounds,
        steps=steps,
        team_names=TEAM_NAMES,
        role_names=ROLE_NAMES,
        stats=stats,
    )


def outcome(batch: Batch, game: int) -> Outcome:
    """The reference's :class:`~wolfden.engine.types.Outcome` of one game of a batch, built from
    its arrays (the same value, ``stats`` included)."""
    from wolfden.engine.types import Outcome
    from wolfden.games.werewolf import narration

    team = int(batch.winning_team[game])
    roles = [ROLE_NAMES[r] for r in batch.roles[game]]
    seats = range(len(roles))
    deaths = [
        {
            "round": int(batch.stats["deaths.round"][game, k]),
            "seat": int(seat),
            "role": roles[seat],
            "by": DEATH_BY[batch.stats["deaths.by"][game, k]],
        }
        for k, seat in enumerate(batch.stats["deaths.seat"][game])
        if seat >= 0
    ]
    first = deaths[0] if deaths else None
    stats = {
        "first_death_role": first["role"] if first else None,
        "first_death_by": first["by"] if first else None,
        "deaths": deaths,
        "survivors": int(batch.stats["survivors"][game]),
    }
    if team < 0:
        summary = narration.DRAW
    else:
        summary = narration.TOWN_WINS if team == TOWN else narration.WOLVES_WIN
    return Outcome(
        winners=frozenset(s for s in seats if batch.winners[game, s]),
        winning_team=TEAM_NAMES[team] if team >= 0 else None,
        summary=summary,
        teams={s: TEAM_NAMES[batch.teams[game, s]] for s in seats},
        roles=dict(enumerate(roles)),
        rounds=int(batch.rounds[game]),
        stats=stats,
    )


def outcomes(batch: Batch) -> list[Outcome]:
    """Each playout's Outcome, as the reference engine fills it (see :func:`outcome`)."""
    return [outcome(batch, game) for game in range(len(batch))]


class Match:
    """One kernel match stepped from Python: the reference's contract over the arrays, for the
    differential tests (``actors``, ``legal_actions``, ``apply``, ``deadline``) and the state
    the kernel keeps, by name."""

    def __init__(self, config: Config, seed: int) -> None:
        self.config = config
        self.cfg, self.seconds = config_arrays(config)
        self.g = np.zeros(STATE_SIZE, np.int64)
        self.rng = np.array([int(seed) & ((1 << 64) - 1)], dtype=np.uint64)
        self.tallies = np.empty((2, TALLY_WIDTH), np.int64)
        self._legal = np.empty(MAX_SEATS + 1, np.int64)
        self.cards = card_ids(config)
        setup(self.g, self.rng, self.cfg)

    # The contract.

    def actors(self) -> frozenset[int]:
        return frozenset(self._seats(int(self.g[G_PENDING])))

    def legal_actions(self, seat: int | None) -> list[tuple[str, tuple[int, ...]]]:
        """Each action as (name, args), as the reference's ``Action`` holds it."""
        k = legal_actions(self.g, -1 if seat is None else seat, self._legal)
        return [self._named(int(code)) for code in self._legal[:k]]

    def apply(self, seat: int | None, name: str, args: tuple[int, ...] = ()) -> None:
        """Apply an action the kernel offers now; ValueError for any other."""
        if (name, tuple(args)) not in self.legal_actions(seat) and not (
            seat is None and (name, args) == self.deadline()[1:]
        ):
            raise ValueError(f"'{name} {' '.join(map(str, args))}' is not legal for seat {seat}")
        code = ACTION_NAMES.index(name) * 16 + (args[0] if args else 0)
        self.tallies = apply(
            self.g, self.rng, self.tallies, self.cfg, -1 if seat is None else seat, code
        )

    def deadline(self) -> tuple[float, str, tuple[int, ...]] | None:
        """The phase's deadline: seconds, and the action the clock applies."""
        seconds, code = deadline(self.g, self.seconds)
        if code < 0:
            return None
        name, args = self._named(int(code))
        return float(seconds), name, args

    # The state, by name.

    @property
    def phase(self) -> str:
        return PHASE_NAMES[int(self.g[G_PHASE])]

    @property
    def round(self) -> int:
        return int(self.g[G_ROUND])

    @property
    def alive(self) -> frozenset[int]:
        return frozenset(self._seats(int(self.g[G_ALIVE])))

    @property
    def roles(self) -> tuple[str, ...]:
        return tuple(ROLE_NAMES[int(r)] for r in self._per_seat(ROLE))

    @property
    def card_of_seat(self) -> tuple[str, ...]:
        return tuple(self.cards[int(c)] for c in self._per_seat(CARD))

    @property
    def unmet_requests(self) -> frozenset[int]:
        return frozenset(self._seats(int(self.g[G_UNMET])))

    @property
    def tonight(self) -> dict[str, Any]:
        """The night's actions so far, as the omniscient view's ``tonight`` shows them."""

        def chosen(base: int) -> dict[str, int]:
            return {str(s): int(v) for s, v in enumerate(self._per_seat(base)) if v != NO_ONE}

        locked = int(self.g[G_LOCKED])
        return {
            "picks": chosen(PICKS),
            "locked": None if locked == NO_ONE else locked,
            "checked": chosen(CHECKED),
            "protected": chosen(GUARD),
        }

    @property
    def previous_picks(self) -> dict[str, int]:
        return {str(s): int(v) for s, v in enumerate(self._per_seat(PREV_PICKS)) if v != NO_ONE}

    @property
    def pick_round(self) -> int:
        return int(self.g[G_PICK_ROUND])

    @property
    def cannot_protect(self) -> dict[int, int | None]:
        """Each Guardian's barred player (None when none)."""
        return {
            s: (None if v == NO_ONE else int(v))
            for s, v in enumerate(self._per_seat(LAST_PROTECTED))
            if self.g[ROLE + s] == GUARDIAN
        }

    @property
    def candidates(self) -> tuple[int, ...]:
        return tuple(self._seats(int(self.g[G_CANDIDATES])))

    @property
    def ballot(self) -> dict[str, int | None]:
        """The open ballot's votes so far, as the omniscient view's ``ballot.votes``."""
        return {
            str(s): (None if v == NO_ONE else int(v))
            for s, v in enumerate(self._per_seat(BALLOT))
            if v != NOT_VOTED
        }

    @property
    def tallies_public(self) -> list[dict[str, Any]]:
        """Every closed ballot as the views' ``tallies`` show it."""
        out = []
        for row in self.tallies[: int(self.g[G_TALLIES])]:
            votes = {
                str(s): (None if v == NO_ONE else int(v))
                for s, v in enumerate(row[:MAX_SEATS])
                if v != NOT_VOTED
            }
            candidates = self._seats(int(row[T_CANDIDATES]))
            counts = {str(c): sum(1 for v in votes.values() if v == c) for c in candidates}
            tally: dict[str, Any] = {
                "round": int(row[T_ROUND]),
                "revote": bool(row[T_REVOTE]),
                "counts": counts,
                "abstained": len(votes) - sum(counts.values()),
            }
            if self.config.public_ballots:
                tally["votes"] = votes
            out.append(tally)
        return out

    @property
    def seer_answers(self) -> dict[int, dict[int, bool]]:
        """Each Seer's answers: target -> is a Werewolf."""
        out: dict[int, dict[int, bool]] = {}
        for seer in range(self.config.players):
            if self.g[ROLE + seer] == SEER:
                row = self.g[KNOW + seer * MAX_SEATS : KNOW + (seer + 1) * MAX_SEATS]
                out[seer] = {t: bool(v >= 2) for t, v in enumerate(row) if v}
        return out

    @property
    def night_result(self) -> dict[str, Any] | None:
        """The last dawn's announcement, as the views' ``night_result`` (None before the first)."""
        if self.g[G_DAWNS] == 0:
            return None
        target = int(self.g[G_NIGHT_TARGET])
        if not self.g[G_NIGHT_KILLED]:
            return {"eliminated": None}
        return {"eliminated": target, "card": self.card_of_seat[target]}

    def deaths(self) -> list[tuple[int, int, str]]:
        k = int(self.g[G_DEATHS])
        return [
            (int(self.g[D_ROUND + i]), int(self.g[D_SEAT + i]), DEATH_BY[int(self.g[D_BY + i])])
            for i in range(k)
        ]

    @property
    def winning_team(self) -> str | None:
        team = int(self.g[G_WINNER])
        return TEAM_NAMES[team] if team >= 0 else None

    @property
    def over(self) -> bool:
        return int(self.g[G_PHASE]) == END

    def _per_seat(self, base: int) -> np.ndarray:
        return self.g[base : base + self.config.players]

    def _seats(self, mask: int) -> list[int]:
        return [s for s in range(self.config.players) if mask >> s & 1]

    def _named(self, code: int) -> tuple[str, tuple[int, ...]]:
        kind = code >> 4
        if kind in (PICK, CHECK, PROTECT, BALLOT_VOTE):
            return ACTION_NAMES[kind], (code & 15,)
        return ACTION_NAMES[kind], ()


def bench_rate(config: Config | None = None, games: int = 100_000, seed: int = 1) -> float:
    """Random playouts per second of CPU time on one core (compiled beforehand: a first call
    compiles or loads the cache, and is not timed)."""
    from wolfden.engine.rng import derive_seed
    from wolfden.games.werewolf.config import Config
    from wolfden.sim.seating import BotPlan

    config = config if config is not None else Config(players=7)
    play(config, [seed], BotPlan())
    seeds = np.array([derive_seed(seed, i) for i in range(games)], dtype=np.uint64)
    began = time.process_time()
    play(config, seeds, BotPlan())
    return games / (time.process_time() - began)

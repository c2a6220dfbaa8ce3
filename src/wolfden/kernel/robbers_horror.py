"""Robbers' Horror compiled: random and rules playouts on integer arrays.

The specification is :mod:`wolfden.games.robbers_horror` (and the bots of
:mod:`wolfden.bots.robbers_horror`); this module plays the same matches faster. From the same
seed it deals the same hands (the same SplitMix64 draws and the same shuffle), and its
``random`` and ``rules`` policies draw from the match's bot generator exactly as the reference
runner and bots do, so a batch of kernel matches is the batch the reference would have played.
The differential tests in ``tests/kernel`` hold the two together.

Cards are the reference's ids: 0–14 the chests C1–C15, 15–29 the robbers R1–R15, 30 and 31
the Werewolves, 32 the Seer, 33 and 34 the Knives, 35 the Traitor. Hands, piles and the cards a
seat has played are bit masks over those ids.

A match's state is one ``int64`` array (:func:`new_state`, offsets below) plus two generators:
the deal's (the match seed, advanced by every shuffle) and the bots' (``derive_seed(seed,
0x5EA7)``, as :func:`wolfden.sim.runner.play_match` makes it).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
from numba import njit

from wolfden.kernel import Batch, PolicyTable, policy_table, seed_array
from wolfden.kernel.rng import derive_seed1, next64, random01

if TYPE_CHECKING:
    from wolfden.sim.seating import BotPlan

GAME = "robbers-horror"
POLICIES: tuple[str, ...] = ("random", "rules")
RANDOM, RULES = 0, 1
TEAM_NAMES: tuple[str, ...] = ("robbers", "werewolves")
"""Team indices: a seat's team is 0 (robbers) for the Robber role, 1 for the others."""
ROLE_NAMES: tuple[str, ...] = ("robber", "werewolf", "traitor")
"""Role indices, as :class:`wolfden.games.robbers_horror.state.Role` numbers them."""
ROBBER, WEREWOLF, TRAITOR_ROLE = 0, 1, 2

BOT_SALT = 0x5EA7
"""The salt of the bots' generator: ``derive_seed(seed, BOT_SALT)`` (see the match runner)."""

MAX_DEALS = 60
"""The most deals a config may ask for (the Config's ``deals`` option)."""

# -- cards ------------------------------------------------------------------------------------

W1, W2, SEER, K1, K2, TRAITOR = 30, 31, 32, 33, 34, 35
WEREWOLF_MASK = (1 << W1) | (1 << W2)
KNIFE_MASK = (1 << K1) | (1 << K2)
CHEST_MASK = (1 << 15) - 1
TRUMP = 32
"""Added to a card's effective rank when it counts in the trump suit (as in the reference)."""
HALVING_COST = 7.0
"""What the rules bot reckons a card that halves a score costs its taker, in icons."""

# -- the state array's layout ----------------------------------------------------------------

HANDS = 0
"""Each seat's hand (5 slots)."""
PILES = 5
"""Each seat's pile: the cards of the tricks it took this deal."""
PLAYED = 10
"""The cards each seat has played this deal (what an attentive player remembers)."""
DEALT = 15
"""The hands as dealt."""
ROLES = 20
POINTS = 25
"""Game points."""
TRICK = 30
"""The current trick's cards in play order (5 slots)."""
TRICK_LEN = 35
LEADER = 36
TURN = 37
"""The seat to play, -1 once the match is over."""
WEREWOLF_CHIPS = 38
"""The seats holding a Werewolf chip, as a mask of seats."""
TRAITOR_CHIP = 39
"""The seat holding the Traitor chip, -1 for nobody."""
TRICK_NO = 40
"""Completed tricks of this deal."""
DEAL_NO = 41
"""Deals scored so far (the current deal is number ``DEAL_NO + 1``)."""
DEALER = 42
UNDEALT = 43
"""The undealt card, -1 when every card is dealt."""
DEAL_WINNER = 50
"""Each scored deal's winning team (0 robbers, 1 werewolves, -1 a tie), ``MAX_DEALS`` slots."""
ROBBER_TOTAL = DEAL_WINNER + MAX_DEALS
WEREWOLF_TOTAL = ROBBER_TOTAL + MAX_DEALS
DEAL_ROLES = WEREWOLF_TOTAL + MAX_DEALS
"""Each scored deal's roles, 5 slots a deal."""
DECK = DEAL_ROLES + 5 * MAX_DEALS
"""Working space of the shuffle: the deck (36 slots), then the random number's 32-bit limbs."""
LIMBS = DECK + 36
STATE_SIZE = LIMBS + 6

# The config array's layout.
C_PLAYERS, C_DEALS, C_FIRST_DEALER, C_HAND, C_MEMORY, C_ICONS = 0, 1, 2, 3, 4, 5
CONFIG_SIZE = C_ICONS + 15


def config_array(config: Any) -> np.ndarray:
    """A validated :class:`wolfden.games.robbers_horror.Config` as the kernel's int64 array.

    ``C_MEMORY`` is 1 when the views show completed tricks (the last one or the history), so
    the rules bot remembers every trick of the deal; with neither it remembers none."""
    config.validate()
    n = config.players
    out = np.zeros(CONFIG_SIZE, dtype=np.int64)
    out[C_PLAYERS] = n
    out[C_DEALS] = config.num_deals
    out[C_FIRST_DEALER] = config.first_dealer
    out[C_HAND] = 7 if n == 5 else 9
    out[C_MEMORY] = 1 if (config.show_last_trick or config.show_history) else 0
    out[C_ICONS : C_ICONS + 15] = config.icons
    return out


def unsupported(config: Any) -> str | None:
    """The kernel plays every valid config of the game."""
    return None


# -- the deal --------------------------------------------------------------------------------


@njit(cache=True)
def fill_deck(st: np.ndarray, n: int) -> int:
    """The deck for ``n`` players at ``st[DECK:]`` in the reference's order (3 players: chests
    and robbers 13–15, one Werewolf and the Seer left out); returns its size."""
    if n == 3:
        k = DECK
        for c in range(30):
            if c % 15 < 12:
                st[k] = c
                k += 1
        st[k], st[k + 1], st[k + 2], st[k + 3] = W1, K1, K2, TRAITOR
        return 28
    for c in range(36):
        st[DECK + c] = c
    return 36


@njit(cache=True)
def _divide(st: np.ndarray, d: int) -> int:
    """Divide the big number in ``st[LIMBS:LIMBS + 6]`` (32-bit limbs, most significant
    first) by ``d`` (below 2**31) in place; return the remainder."""
    rem = 0
    for i in range(LIMBS, LIMBS + 6):
        cur = (rem << 32) | st[i]
        st[i] = cur // d
        rem = cur % d
    return rem


@njit(cache=True)
def shuffle_deck(st: np.ndarray, k: int, rng: np.ndarray, settled: int) -> None:
    """The reference's shuffle: Fisher–Yates whose swap positions are the mixed-radix digits of
    one 192-bit number made of three draws (the first draw highest), stopping once only the
    first ``settled`` cards are left to swap among themselves (a hand has no order). The deck
    is the ``k`` cards at ``st[DECK:]``."""
    low = np.uint64(0xFFFFFFFF)
    for d in range(3):
        x = next64(rng)
        st[LIMBS + 2 * d] = np.int64(x >> np.uint64(32))
        st[LIMBS + 2 * d + 1] = np.int64(x & low)
    radix = k
    while radix > settled:
        # The digits of a run of radices whose product stays below 2**31 come from one long
        # division of the big number (the same digits as one radix at a time).
        product = 1
        last = radix
        while last > settled and product * last < (1 << 31):
            product *= last
            last -= 1
        digits = _divide(st, product)
        for r in range(radix, last, -1):
            j = DECK + digits % r
            digits //= r
            i = DECK + r - 1
            st[i], st[j] = st[j], st[i]
        radix = last


@njit(cache=True)
def role_of(hand: int) -> int:
    """Whoever holds a Werewolf is a Werewolf; else the Traitor's holder is the Traitor; the
    others are Robbers."""
    if hand & WEREWOLF_MASK:
        return WEREWOLF
    if hand & (1 << TRAITOR):
        return TRAITOR_ROLE
    return ROBBER


@njit(cache=True)
def _deal(st: np.ndarray, cfg: np.ndarray, rng: np.ndarray) -> None:
    """Shuffle and deal for the dealer in ``st``; clear what a deal resets."""
    n = cfg[C_PLAYERS]
    size = cfg[C_HAND]
    k = fill_deck(st, n)
    shuffle_deck(st, k, rng, size)
    for s in range(n):
        hand = 0
        for i in range(DECK + s * size, DECK + (s + 1) * size):
            hand |= 1 << st[i]
        st[HANDS + s] = hand
        st[DEALT + s] = hand
        st[PILES + s] = 0
        st[PLAYED + s] = 0
        st[ROLES + s] = role_of(hand)
    st[UNDEALT] = st[DECK + n * size] if k > n * size else -1
    st[TRICK_LEN] = 0
    st[TRICK_NO] = 0
    st[WEREWOLF_CHIPS] = 0
    st[TRAITOR_CHIP] = -1
    st[LEADER] = (st[DEALER] + 1) % n
    st[TURN] = st[LEADER]


@njit(cache=True)
def start(st: np.ndarray, cfg: np.ndarray, rng: np.ndarray) -> None:
    """A new match in ``st``: no points, the first dealer deals (``rng`` holds the seed)."""
    st[:] = 0
    st[DEALER] = cfg[C_FIRST_DEALER]
    st[DEAL_NO] = 0
    _deal(st, cfg, rng)


def new_state() -> np.ndarray:
    return np.zeros(STATE_SIZE, dtype=np.int64)


# -- the trick -------------------------------------------------------------------------------


@njit(cache=True)
def strongest(cards: np.ndarray, first: int, count: int) -> tuple[int, int]:
    """The card that takes the trick ``cards[first:first + count]`` (in play order): its index
    in the trick and its effective value ``32 * trump + rank`` (as ``rules.effective_ranks``
    and ``rules.winning_place``).

    The leading suit is the first normal card's; the other suit is trump. A Werewolf led is 16
    of trumps, otherwise the card before it plus one. The Seer is 16 of trumps with no Werewolf
    in the trick, else 0 of the leading suit. A Knife is 0 of trumps, the Traitor 16 of the
    leading suit. With special cards only, "leading" is the weak suit and "trump" the strong.
    Trump beats the leading suit, a higher rank a lower one; of equal cards the later wins."""
    lead = -1
    werewolf = False
    for i in range(first, first + count):
        c = cards[i]
        if c < 30 and lead < 0:
            lead = 0 if c < 15 else 1
        if c in (W1, W2):
            werewolf = True
    prev = 0
    top = -1
    best = 0
    for i in range(count):
        c = cards[first + i]
        if c < 30:
            v = c % 15 + 1 + (TRUMP if (0 if c < 15 else 1) != lead else 0)
        elif c <= W2:
            v = TRUMP + 16 if i == 0 else prev + 1
        elif c == SEER:
            v = 0 if werewolf else TRUMP + 16
        elif c == TRAITOR:
            v = 16
        else:
            v = TRUMP
        if v >= top:
            top = v
            best = i
        prev = v
    return best, top


# -- playing a card --------------------------------------------------------------------------


@njit(cache=True)
def held_card(hand: int, card: int) -> int:
    """The id of ``card`` (a Werewolf or Knife by either id) in ``hand``, -1 if not held. The
    first copy goes first, as in the reference."""
    if card in (W2, K2):
        card -= 1
    if hand >> card & 1:
        return card
    if card in (W1, K1) and hand >> (card + 1) & 1:
        return card + 1
    return -1


@njit(cache=True)
def _score(st: np.ndarray, cfg: np.ndarray) -> None:
    """Score the deal: a Robber or the Traitor counts the chest icons taken, halved with a
    Werewolf taken; a Werewolf the robber icons, halved with a Knife taken. Each team's sum is
    multiplied by the size of the other team; the higher total wins a game point for every
    member; equal totals win nothing."""
    n = cfg[C_PLAYERS]
    robber_sum = 0
    werewolf_sum = 0
    robbers = 0
    for s in range(n):
        pile = st[PILES + s]
        role = st[ROLES + s]
        if role == WEREWOLF:
            suit = (pile >> 15) & CHEST_MASK
            halved = (pile & KNIFE_MASK) != 0
        else:
            suit = pile & CHEST_MASK
            halved = (pile & WEREWOLF_MASK) != 0
        icons = 0
        for r in range(15):
            if suit >> r & 1:
                icons += cfg[C_ICONS + r]
        points = icons >> 1 if halved else icons
        if role == ROBBER:
            robber_sum += points
            robbers += 1
        else:
            werewolf_sum += points
    robber_total = robber_sum * (n - robbers)
    werewolf_total = werewolf_sum * robbers
    d = st[DEAL_NO]
    st[ROBBER_TOTAL + d] = robber_total
    st[WEREWOLF_TOTAL + d] = werewolf_total
    for s in range(n):
        st[DEAL_ROLES + 5 * d + s] = st[ROLES + s]
    if robber_total == werewolf_total:
        st[DEAL_WINNER + d] = -1
        return
    team = 0 if robber_total > werewolf_total else 1
    st[DEAL_WINNER + d] = team
    for s in range(n):
        if (st[ROLES + s] != ROBBER) == (team == 1):
            st[POINTS + s] += 1


@njit(cache=True)
def apply_card(st: np.ndarray, cfg: np.ndarray, rng: np.ndarray, card: int) -> bool:
    """The seat to play plays ``card`` (either id of a Werewolf or Knife names the card);
    False, and nothing changed, when the card is not in its hand or the match is over.

    A Werewolf or the Traitor puts its chip in front of the player. The last card of a trick
    settles it: the strongest card's player takes the cards and leads next. The last trick
    scores the deal; then the deal passes left, or the match ends after its last deal."""
    seat = st[TURN]
    if seat < 0:
        return False
    n = cfg[C_PLAYERS]
    hand = st[HANDS + seat]
    played = held_card(hand, card)
    if played < 0:
        return False
    st[HANDS + seat] = hand & ~(1 << played)
    st[PLAYED + seat] |= 1 << played
    if played in (W1, W2):
        st[WEREWOLF_CHIPS] |= 1 << seat
    elif played == TRAITOR:
        st[TRAITOR_CHIP] = seat
    count = st[TRICK_LEN]
    st[TRICK + count] = played
    count += 1
    st[TRICK_LEN] = count
    if count < n:
        st[TURN] = (seat + 1) % n
        return True
    winner = (st[LEADER] + strongest(st, TRICK, n)[0]) % n
    pile = 0
    for i in range(n):
        pile |= 1 << st[TRICK + i]
    st[PILES + winner] |= pile
    st[TRICK_LEN] = 0
    st[TRICK_NO] += 1
    st[LEADER] = winner
    st[TURN] = winner
    if st[TRICK_NO] < cfg[C_HAND]:
        return True
    _score(st, cfg)
    st[DEAL_NO] += 1
    if st[DEAL_NO] < cfg[C_DEALS]:
        st[DEALER] = (st[DEALER] + 1) % n
        _deal(st, cfg, rng)
    else:
        st[TURN] = -1
    return True


# -- the policies ----------------------------------------------------------------------------


@njit(cache=True)
def legal_cards(hand: int, out: np.ndarray) -> int:
    """The playable cards of a hand in the reference's order of legal actions (chests, robbers,
    W, S, K, T), one entry for both Werewolves and for both Knives; returns how many."""
    k = 0
    for c in range(36):
        if hand >> c & 1:
            if (c == W2 and hand >> W1 & 1) or (c == K2 and hand >> K1 & 1):
                continue
            out[k] = c
            k += 1
    return k


@njit(cache=True)
def playable(hand: int) -> int:
    """The hand's distinct plays as a mask: the second Werewolf or Knife is dropped when the
    first is held (the set bits in order are :func:`legal_cards`)."""
    if hand >> W1 & 1:
        hand &= ~(1 << W2)
    if hand >> K1 & 1:
        hand &= ~(1 << K2)
    return hand


@njit(cache=True)
def popcount(mask: int) -> int:
    """The number of set bits of a mask below 2**62."""
    m = mask - ((mask >> 1) & 0x5555555555555555)
    m = (m & 0x3333333333333333) + ((m >> 2) & 0x3333333333333333)
    m = (m + (m >> 4)) & 0x0F0F0F0F0F0F0F0F
    return ((m * 0x0101010101010101) >> 56) & 0xFF


@njit(cache=True)
def random_card(st: np.ndarray, bots: np.ndarray, legal: np.ndarray) -> int:
    """The random bot: ``legal[rng.below(len(legal))]``, read from the hand's mask (the k-th
    set bit of :func:`playable` is the k-th legal card)."""
    plays = playable(st[HANDS + st[TURN]])
    k = int(next64(bots) % np.uint64(popcount(plays)))
    for _ in range(k):
        plays &= plays - 1
    card = 0
    while not plays >> card & 1:
        card += 1
    return card


@njit(cache=True)
def _gains(cards: np.ndarray, count: int, cfg: np.ndarray) -> tuple[float, float]:
    """What a trick is worth to a chest scorer and to a robber scorer; a card that halves its
    taker's score counts as a loss of ``HALVING_COST`` icons."""
    chest = 0.0
    robber = 0.0
    for i in range(count):
        c = cards[i]
        if c < 15:
            chest += cfg[C_ICONS + c]
        elif c < 30:
            robber += cfg[C_ICONS + c - 15]
        elif c in (W1, W2):
            chest -= HALVING_COST
        elif c != SEER and c != TRAITOR:
            robber -= HALVING_COST
    return chest, robber


@njit(cache=True)
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


@njit(cache=True)
def _werewolf_team_chance(st: np.ndarray, cfg: np.ndarray, me: int, chance: np.ndarray) -> None:
    """For each seat, the chance the rules bot gives it of being on the werewolf team, from the
    chips, its own role and what it holds and remembers having played."""
    n = cfg[C_PLAYERS]
    chips = st[WEREWOLF_CHIPS]
    known = chips
    if st[TRAITOR_CHIP] >= 0:
        known |= 1 << st[TRAITOR_CHIP]
    mine = st[ROLES + me] != ROBBER
    if mine:
        known |= 1 << me
    unknown = 0
    for s in range(n):
        if not (known >> s & 1) and s != me:
            unknown += 1
    werewolf_cards = 1 if n == 3 else 2
    remembered = _remembered(st, cfg, me)
    mine_cards = st[HANDS + me] | remembered
    my_werewolves = ((mine_cards >> W1) & 1) + ((mine_cards >> W2) & 1)
    others_known = 0
    for s in range(n):
        if chips >> s & 1 and s != me:
            others_known += 1
    out_werewolves = max(0, werewolf_cards - my_werewolves - others_known)
    traitor_out = st[TRAITOR_CHIP] < 0 and not (mine_cards >> TRAITOR & 1)
    expected = min(float(unknown), out_werewolves * 0.85 + (0.7 if traitor_out else 0.0))
    for s in range(n):
        if known >> s & 1:
            chance[s] = 1.0
        elif s == me:
            chance[s] = 1.0 if mine else 0.0
        elif unknown:
            chance[s] = min(0.95, max(0.05, expected / unknown))
        else:
            chance[s] = 0.0


@njit(cache=True)
def _remembered(st: np.ndarray, cfg: np.ndarray, me: int) -> int:
    """The cards the rules bot remembers having played this deal: all of them when the views
    show completed tricks, else only its card in the current trick (none: it is to play)."""
    if cfg[C_MEMORY]:
        return st[PLAYED + me]
    n = cfg[C_PLAYERS]
    out = 0
    for i in range(st[TRICK_LEN]):
        if (st[LEADER] + i) % n == me:
            out |= 1 << st[TRICK + i]
    return out


@njit(cache=True)
def _benefit(
    seat: int,
    me: int,
    werewolf: bool,
    mine_w: bool,
    chance: np.ndarray,
    chest: float,
    robber: float,
) -> float:
    if seat == me:
        return robber if werewolf else chest
    p = chance[seat]
    if mine_w:
        return p * robber - (1 - p) * chest
    return (1 - p) * chest - p * robber


@njit(cache=True)
def rules_card(
    st: np.ndarray, cfg: np.ndarray, bots: np.ndarray, legal: np.ndarray, work: np.ndarray
) -> int:
    """The rules bot (``RobbersHorrorRulesBot.act``): each card is scored by what the trick is
    worth to whoever is likely to take it, weighed by how likely each seat is to be on the
    werewolf team, less a share of the card's strength kept for later; ties go to a random
    draw per card, in the order of the legal actions."""
    me = st[TURN]
    count = legal_cards(st[HANDS + me], legal)
    if count == 1:
        return legal[0]
    n = cfg[C_PLAYERS]
    chance = np.empty(5, dtype=np.float64)
    _werewolf_team_chance(st, cfg, me, chance)
    role = st[ROLES + me]
    werewolf = role == WEREWOLF
    mine_w = role != ROBBER
    size = st[TRICK_LEN]
    leader = st[LEADER]
    later = n - size - 1
    cards = work[:5]
    for i in range(size):
        cards[i] = st[TRICK + i]
    best_score = 0.0
    best_tie = 0.0
    choice = legal[0]
    for a in range(count):
        card = legal[a]
        cards[size] = card
        idx, top = strongest(cards, 0, size + 1)
        holder = (leader + idx) % n
        chest, robber = _gains(cards, size + 1, cfg)
        mine = _benefit(holder, me, werewolf, mine_w, chance, chest, robber)
        if later == 0:
            expected = mine
        else:
            strength = (top - TRUMP + 1) / 18.0 if top >= TRUMP else top / 60.0
            hold = max(0.0, min(1.0, strength)) ** float(later)
            rest = 0.0
            for i in range(size + 1, n):
                rest += _benefit((leader + i) % n, me, werewolf, mine_w, chance, chest, robber)
            rest = rest / (n - size - 1)
            expected = hold * mine + (1 - hold) * rest
        score = expected - 0.3 * _power(card)
        tie = random01(bots)
        if a == 0 or score > best_score or (score == best_score and tie > best_tie):
            best_score = score
            best_tie = tie
            choice = card
    return choice


@njit(cache=True)
def seat_policies(
    st: np.ndarray,
    n: int,
    default: int,
    by_seat: np.ndarray,
    by_team: np.ndarray,
    policy: np.ndarray,
) -> None:
    """Each seat's policy this deal: its own, else its team's (the team dealt), else the
    default, as :meth:`BotPlan.kinds_for` orders them."""
    for seat in range(n):
        kind = by_seat[seat]
        if kind < 0:
            kind = by_team[0 if st[ROLES + seat] == ROBBER else 1]
        policy[seat] = kind if kind >= 0 else default


# -- batches ---------------------------------------------------------------------------------


@njit(cache=True)
def _play_batch(
    cfg: np.ndarray,
    seeds: np.ndarray,
    default: int,
    by_seat: np.ndarray,
    by_team: np.ndarray,
    winners: np.ndarray,
    roles: np.ndarray,
    points: np.ndarray,
    deal_winners: np.ndarray,
    deal_roles: np.ndarray,
    robber_totals: np.ndarray,
    werewolf_totals: np.ndarray,
) -> None:
    n = cfg[C_PLAYERS]
    deals = cfg[C_DEALS]
    st = np.zeros(STATE_SIZE, dtype=np.int64)
    rng = np.empty(1, dtype=np.uint64)
    bots = np.empty(1, dtype=np.uint64)
    legal = np.empty(36, dtype=np.int64)
    work = np.empty(5, dtype=np.int64)
    policy = np.empty(5, dtype=np.int64)
    for g in range(seeds.shape[0]):
        rng[0] = seeds[g]
        bots[0] = derive_seed1(seeds[g], BOT_SALT)
        start(st, cfg, rng)
        deal = -1
        while st[TURN] >= 0:
            if st[DEAL_NO] != deal:
                # A new deal: new teams, so the bots by team change seats.
                deal = st[DEAL_NO]
                seat_policies(st, n, default, by_seat, by_team, policy)
            if policy[st[TURN]] == RULES:
                card = rules_card(st, cfg, bots, legal, work)
            else:
                card = random_card(st, bots, legal)
            apply_card(st, cfg, rng, card)
        top = 0
        for s in range(n):
            top = max(top, st[POINTS + s])
        for s in range(n):
            winners[g, s] = st[POINTS + s] == top
            roles[g, s] = st[ROLES + s]
            points[g, s] = st[POINTS + s]
        for d in range(deals):
            deal_winners[g, d] = st[DEAL_WINNER + d]
            robber_totals[g, d] = st[ROBBER_TOTAL + d]
            werewolf_totals[g, d] = st[WEREWOLF_TOTAL + d]
            for s in range(n):
                deal_roles[g, d, s] = st[DEAL_ROLES + 5 * d + s]


def play(config: Any, seeds: Sequence[int] | np.ndarray, bots: BotPlan) -> Batch:
    """One match per seed (the match seed, as ``play_match`` takes it) with the plan's bots."""
    cfg = config_array(config)
    table: PolicyTable = policy_table(bots, int(cfg[C_PLAYERS]), TEAM_NAMES, POLICIES)
    seeds = seed_array(seeds)
    games, n, deals = seeds.shape[0], int(cfg[C_PLAYERS]), int(cfg[C_DEALS])
    winners = np.zeros((games, n), dtype=np.bool_)
    roles = np.zeros((games, n), dtype=np.int8)
    points = np.zeros((games, n), dtype=np.int32)
    deal_winners = np.zeros((games, deals), dtype=np.int8)
    deal_roles = np.zeros((games, deals, n), dtype=np.int8)
    robber_totals = np.zeros((games, deals), dtype=np.int32)
    werewolf_totals = np.zeros((games, deals), dtype=np.int32)
    _play_batch(
        cfg,
        seeds,
        table.default,
        table.seat,
        table.team,
        winners,
        roles,
        points,
        deal_winners,
        deal_roles,
        robber_totals,
        werewolf_totals,
    )
    teams = (roles != ROBBER).astype(np.int8)
    winning_team = np.full(games, -1, dtype=np.int8)
    if deals == 1:
        winning_team[:] = deal_winners[:, 0]
    return Batch(
        seeds=seeds,
        winning_team=winning_team,
        winners=winners,
        teams=teams,
        roles=roles,
        rounds=np.full(games, deals, dtype=np.int32),
        steps=np.full(games, deals * n * int(cfg[C_HAND]), dtype=np.int32),
        team_names=TEAM_NAMES,
        role_names=ROLE_NAMES,
        stats={
            "points": points,
            "deal_winners": deal_winners,
            "deal_roles": deal_roles,
            "robber_totals": robber_totals,
            "werewolf_totals": werewolf_totals,
        },
    )


def outcomes(batch: Batch) -> list[Any]:
    """Each playout's :class:`~wolfden.engine.types.Outcome`, as the reference engine fills it
    (winners, the deal's winning team in a one-deal match, the last deal's teams and roles, the
    number of deals, and the same ``stats``)."""
    from wolfden.engine.types import Outcome

    out: list[Any] = []
    deal_label = ("robbers", "werewolves", "tie")
    for g in range(len(batch)):
        points = [int(p) for p in batch.stats["points"][g]]
        top = max(points)
        won = [s for s, p in enumerate(points) if p == top]
        names = ", ".join(str(s) for s in won)
        plural = "s" if top != 1 else ""
        summary = (
            f"Seat {names} wins the match with {top} game point{plural}."
            if len(won) == 1
            else f"Seats {names} share the win with {top} game point{plural} each."
        )
        team = int(batch.winning_team[g])
        deal_winners = [deal_label[int(w)] for w in batch.stats["deal_winners"][g]]
        stats = {
            "points": points,
            "deal_winners": deal_winners,
            "robber_team_deals": deal_winners.count("robbers"),
            "werewolf_team_deals": deal_winners.count("werewolves"),
            "tied_deals": deal_winners.count("tie"),
            "deal_roles": [
                [ROLE_NAMES[int(r)] for r in deal] for deal in batch.stats["deal_roles"][g]
            ],
            "robber_totals": [int(t) for t in batch.stats["robber_totals"][g]],
            "werewolf_totals": [int(t) for t in batch.stats["werewolf_totals"][g]],
        }
        out.append(
            Outcome(
                frozenset(won),
                None if team < 0 else TEAM_NAMES[team],
                summary,
                {s: TEAM_NAMES[int(t)] for s, t in enumerate(batch.teams[g])},
                {s: ROLE_NAMES[int(r)] for s, r in enumerate(batch.roles[g])},
                int(batch.rounds[g]),
                stats,
            )
        )
    return out

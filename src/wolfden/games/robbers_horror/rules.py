"""The rules as pure functions: the deal, the roles, playing a card, the trick, the scoring.

Speed matters here (simulations play hundreds of thousands of deals), so the hot path works on
integers and bit masks, reuses prebuilt Action and Event objects, and copies only the parts of
the state that change.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping
from operator import add, attrgetter
from types import MappingProxyType
from typing import Any

from wolfden.engine.errors import ConfigError, IllegalAction, MatchOver, NotYourTurn
from wolfden.engine.rng import Rng, bits192
from wolfden.engine.types import PUBLIC, Action, Audience, Event, Outcome, Seat
from wolfden.games.robbers_horror.cards import (
    CHEST_MASK,
    KNIFE_MASK,
    NOTATION,
    NUM_IDS,
    SEER,
    TRAITOR,
    TRAITOR_BIT,
    TRUMP,
    W1,
    W2,
    WEREWOLF_MASK,
    Card,
    deck_ids,
    hand_size,
    trick_values,
)
from wolfden.games.robbers_horror.config import Config
from wolfden.games.robbers_horror.state import (
    HAND_BITS,
    HAND_MASK,
    Chips,
    DealInfo,
    DealResult,
    MatchInfo,
    Role,
    SeatScore,
    State,
    Team,
    Trick,
    pack_hands,
)

_new = tuple.__new__
_ROBBER, _WEREWOLF, _TRAITOR = Role.ROBBER, Role.WEREWOLF, Role.TRAITOR


class LazyData(Mapping[str, Any]):
    """An event's data, built on first reading.

    Simulations never read most event data; building it only when a client or a log looks
    keeps the hot path fast. The result is the same whenever it is read.
    """

    __slots__ = ("_args", "_data", "_make")
    _make: Callable[..., dict[str, Any]]
    _args: tuple[Any, ...]
    _data: dict[str, Any]

    def _get(self) -> dict[str, Any]:
        try:
            return self._data
        except AttributeError:
            data = self._data = self._make(*self._args)
            return data

    def __getitem__(self, key: str) -> Any:
        return self._get()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._get())

    def __len__(self) -> int:
        return len(self._get())

    def __repr__(self) -> str:
        return repr(self._get())


def lazy_data(make: Callable[..., dict[str, Any]], *args: Any) -> LazyData:
    """Event data that ``make(*args)`` builds when it is first read.

    The class has no ``__init__``: a bare instance with its two slots filled here costs about
    half of one made through a Python ``__init__``, and ``_data`` stays unset until the first
    reading. Simulations make a dozen of these per deal and read none.
    """
    data = LazyData()
    data._make = make
    data._args = args
    return data


# -- prebuilt actions ---------------------------------------------------------------------

PLAY_ACTIONS: dict[str, Action] = {}
for _i in range(NUM_IDS):
    PLAY_ACTIONS.setdefault(NOTATION[_i], Action("play", (NOTATION[_i],)))

PLAY: tuple[Action, ...] = tuple(PLAY_ACTIONS[NOTATION[i]] for i in range(NUM_IDS))
"""The action that plays each card id (both Werewolf ids share one action, so do the Knives)."""

_ACTION_CARDS: dict[Action, tuple[int, int, int, int]] = {}
"""Each play action → (bit, card id) of its card and of the second copy (0, -1 if none)."""
for _i in range(NUM_IDS):
    _a = PLAY[_i]
    if _a in _ACTION_CARDS:
        _ACTION_CARDS[_a] = (*_ACTION_CARDS[_a][:2], 1 << _i, _i)
    else:
        _ACTION_CARDS[_a] = (1 << _i, _i, 0, -1)


_SEAT_SHIFT = tuple(HAND_BITS * seat for seat in range(5))
"""Where each seat's hand starts in :attr:`State.held`."""

_SEAT_CARDS: tuple[dict[Action, tuple[int, int, int, int]], ...] = tuple(
    {
        action: (bit << shift, card, bit2 << shift, card2)
        for action, (bit, card, bit2, card2) in _ACTION_CARDS.items()
    }
    for shift in _SEAT_SHIFT
)
"""``_ACTION_CARDS`` with the bits moved to each seat's place in :attr:`State.held`."""


def _chunk_table(base: int) -> tuple[tuple[Action, ...], ...]:
    """For every 12-bit slice of a hand mask, the play actions of its cards, without repeats."""
    table: list[tuple[Action, ...]] = [()]
    for m in range(1, 4096):
        high = m.bit_length() - 1
        prev = table[m ^ (1 << high)]
        action = PLAY[base + high]
        table.append(prev if prev and prev[-1] is action else (*prev, action))
    return tuple(table)


_LEGAL_0 = _chunk_table(0)
_LEGAL_1 = _chunk_table(12)
_LEGAL_2 = _chunk_table(24)


def legal_of_hand(hand: int) -> list[Action]:
    """The play actions of a hand mask, in card order (chests, robbers, W, S, K, T)."""
    return [*_LEGAL_0[hand & 4095], *_LEGAL_1[(hand >> 12) & 4095], *_LEGAL_2[hand >> 24]]


# -- narration (prebuilt where the words never change) --------------------------------------

ROLE_TEXT = {
    Role.ROBBER: "a Robber: you score the chest icons you take, halved if you take a Werewolf",
    Role.WEREWOLF: "a Werewolf: you score the robber icons you take, halved if you take a Knife",
    Role.TRAITOR: (
        "the Traitor: you score the chest icons you take for the werewolf team, "
        "halved if you take a Werewolf"
    ),
}


def _play_event(seat: Seat, card: int) -> Event:
    name = NOTATION[card]
    return Event(
        "play",
        MappingProxyType({"seat": seat, "card": name}),
        PUBLIC,
        f"Seat {seat} plays {name}.",
    )


def _chip_event(seat: Seat, card: int) -> Event | None:
    if card in (W1, W2):
        return Event(
            "chip",
            MappingProxyType({"seat": seat, "chip": "werewolf"}),
            PUBLIC,
            f"Seat {seat} takes a Werewolf chip: seat {seat} is a Werewolf.",
        )
    if card == TRAITOR:
        return Event(
            "chip",
            MappingProxyType({"seat": seat, "chip": "traitor"}),
            PUBLIC,
            f"Seat {seat} takes the Traitor chip: seat {seat} is on the werewolf team.",
        )
    return None


PLAY_EVENTS: tuple[tuple[Event, ...], ...] = tuple(
    tuple(_play_event(seat, card) for card in range(NUM_IDS)) for seat in range(5)
)
CHIP_EVENTS: tuple[dict[int, Event], ...] = tuple(
    {card: e for card in range(NUM_IDS) if (e := _chip_event(seat, card)) is not None}
    for seat in range(5)
)


def _effective_strings(lead: int) -> tuple[str, ...]:
    """Effective value → its text, for a trick whose leading suit is chests (0), robbers (1)
    or not known because only special cards were played (-1)."""
    out = []
    for v in range(2 * TRUMP):
        trump = v >= TRUMP
        rank = v - TRUMP if trump else v
        if lead < 0:
            out.append(f"{'trump' if trump else 'lead'} {rank}")
        else:
            out.append(f"{'CR'[lead ^ trump]}{rank}")
    return tuple(out)


EFFECTIVE_TEXT = {lead: _effective_strings(lead) for lead in (-1, 0, 1)}


NORMAL_VALUE = tuple(
    tuple(c % 15 + 1 + (TRUMP if (c >= 15) != lead else 0) for c in range(30)) for lead in (0, 1)
)
"""The effective value of each chest and robber card when chests (0) or robbers (1) are led."""


def _plain_values(lead: int) -> list[int]:
    """Each card id's effective value in a trick without a Werewolf, whose leading suit is
    chests (0), robbers (1) or none (-1, special cards only); the Werewolves' entries are
    never read (a Werewolf's value depends on the card before it)."""
    normal = NORMAL_VALUE[lead] if lead >= 0 else (0,) * 30
    return [*normal, -1, -1, TRUMP + 16, TRUMP, TRUMP, 16]


PLAIN_VALUE = {lead: _plain_values(lead) for lead in (-1, 0, 1)}

_WEREWOLF_TRICK_VALUE = {
    lead: [*values[:SEER], 0, *values[SEER + 1 :]] for lead, values in PLAIN_VALUE.items()
}
"""The same in a trick with a Werewolf, where the Seer is 0 of the leading suit."""

_WEREWOLF_SEEN = NUM_IDS
"""Stands for "a Werewolf is in the trick" in :data:`_TAKER` (one past the last card id)."""


def _taker_table(lead: int) -> tuple[tuple[int, ...], ...]:
    """``table[w][c]``: which of two cards takes the trick so far, the card ``w`` taking it
    until now or the later card ``c`` (the later of equal values wins), in a trick whose
    leading suit is chests (0), robbers (1) or none (-1); :data:`_WEREWOLF_SEEN` if either
    is a Werewolf (whose value depends on the card before it), and from then on."""
    value = PLAIN_VALUE[lead]
    werewolves = (W1, W2, _WEREWOLF_SEEN)
    return tuple(
        tuple(
            _WEREWOLF_SEEN
            if w in werewolves or c in werewolves
            else (c if value[c] >= value[w] else w)
            for c in range(NUM_IDS + 1)
        )
        for w in range(NUM_IDS + 1)
    )


_TAKER = tuple(_taker_table(lead) for lead in (0, 1, -1))
""":func:`_taker_table` by leading suit (-1 reads the last entry)."""


def trick_lead(cards: tuple[int, ...]) -> int:
    for c in cards:
        if c < 30:
            return 0 if c < 15 else 1
    return -1


# -- setup and the deal --------------------------------------------------------------------

_DECKS = {n: deck_ids(n) for n in (3, 4, 5)}
_HAND_SIZE = {n: hand_size(n) for n in (3, 4, 5)}
_FACTORIAL = [1]
for _k in range(1, NUM_IDS + 1):
    _FACTORIAL.append(_FACTORIAL[-1] * _k)


def _radix_groups(k: int, settled: int = 1) -> tuple[tuple[tuple[tuple[int, int], ...], int], ...]:
    """The steps of a Fisher–Yates shuffle of ``k`` cards: each position ``i`` from ``k - 1``
    down to ``settled`` with its radix ``i + 1`` (how many places it may swap with), in runs
    whose product of radices stays below 2**30 (one digit of Python's integers, the quickest
    to divide), with each run's product. (Stopping early leaves the last run shorter, and its
    digits are the same: they are the low digits of the full run's.)"""
    groups: list[tuple[tuple[tuple[int, int], ...], int]] = []
    run: list[tuple[int, int]] = []
    product = 1
    for radix in range(k, settled, -1):
        if product * radix >= 1 << 30:
            groups.append((tuple(run), product))
            run, product = [], 1
        run.append((radix - 1, radix))
        product *= radix
    groups.append((tuple(run), product))
    return tuple(groups)


_RADIX_GROUPS = {(len(deck), 1): _radix_groups(len(deck)) for deck in _DECKS.values()}
_RADIX_GROUPS.update(
    ((len(deck), _HAND_SIZE[n]), _radix_groups(len(deck), _HAND_SIZE[n]))
    for n, deck in _DECKS.items()
)


def shuffle_cards(cards: list[int], rng: Rng, settled: int = 1) -> None:
    """Shuffle a deck in place uniformly: Fisher–Yates driven by one 192-bit random number,
    three draws from ``rng``.

    The swap positions are the mixed-radix digits of a uniform number below ``len(cards)!``
    (36! < 2**139, so the bias of reducing 192 random bits is below 2**-53), which needs three
    draws from the generator instead of one per card. The digits are read a run at a time:
    the number's remainder by a run's product is itself uniform and fits one digit of Python's
    integers, so only one division per run works on the large number.

    With ``settled`` set to a hand's size, the shuffle stops once only the first ``settled``
    cards are left to swap among themselves: which cards they are is settled, only their order
    is not, and a hand has no order (a deal's hands are the same as after the full shuffle).
    """
    rng.state = _shuffle(cards, rng.state, settled)


def _shuffle(cards: list[int], seed: int, settled: int) -> int:
    """:func:`shuffle_cards` with the generator's state ``seed``, returning its state after
    (the three draws come from :func:`bits192`: a new deal needs no generator object)."""
    x, seed = bits192(seed)
    k = len(cards)
    x %= _FACTORIAL[k]
    for steps, product in _RADIX_GROUPS[k, settled]:
        x, digits = divmod(x, product)
        for i, radix in steps:
            j = digits % radix
            digits //= radix
            cards[i], cards[j] = cards[j], cards[i]
    return seed


def shuffled_deck(players: int, rng: Rng) -> list[int]:
    """This player count's deck of card ids, shuffled uniformly."""
    deck = list(_DECKS[players])
    shuffle_cards(deck, rng)
    return deck


def role_of(dealt: int) -> Role:
    """Whoever has one or more Werewolves is a Werewolf; else the Traitor's holder is the
    Traitor; everyone else is a Robber."""
    if dealt & WEREWOLF_MASK:
        return _WEREWOLF
    if dealt & TRAITOR_BIT:
        return _TRAITOR
    return _ROBBER


_ROLE_BY_SPECIALS = tuple(role_of(specials << W1) for specials in range(1 << (NUM_IDS - W1)))
"""The role of a hand from the bits of its special cards (ids 30 to 35, the highest)."""

_SHIFT_1, _SHIFT_2, _SHIFT_3 = _SEAT_SHIFT[1:4]

_BIT = [1 << i for i in range(NUM_IDS)]
"""The bit of each card id in a mask (a list: its bound ``__getitem__`` is the quicker one)."""
_DECK_BITS = {n: [1 << c for c in deck] for n, deck in _DECKS.items()}
_HAND_SLICES = {
    n: tuple(slice(s * size, (s + 1) * size) for s in range(n)) for n, size in _HAND_SIZE.items()
}


def mask_of(ids: Any) -> int:
    m = 0
    for c in ids:
        m |= 1 << c
    return m


def _ids_table(base: int) -> tuple[tuple[int, ...], ...]:
    table: list[tuple[int, ...]] = [()]
    for m in range(1, 4096):
        high = m.bit_length() - 1
        table.append((*table[m ^ (1 << high)], base + high))
    return tuple(table)


_IDS_0, _IDS_1, _IDS_2 = _ids_table(0), _ids_table(12), _ids_table(24)


def ids_of(mask: int) -> tuple[int, ...]:
    """The card ids of a mask, in order."""
    return _IDS_0[mask & 4095] + _IDS_1[(mask >> 12) & 4095] + _IDS_2[mask >> 24]


def cards_text(mask_or_ids: int | tuple[int, ...]) -> list[str]:
    ids = ids_of(mask_or_ids) if isinstance(mask_or_ids, int) else mask_or_ids
    return [NOTATION[c] for c in ids]


def _deal(
    config: Config,
    deals: int,
    deal_no: int,
    dealer: Seat,
    points: tuple[int, ...],
    results: tuple[DealResult, ...],
    seed: int,
) -> State:
    """Shuffle and deal all cards equally; in 3- and 5-player games one card stays undealt.

    The arguments are the fields of the match's :class:`MatchInfo` for the new deal, its
    generator state before the shuffle last (the record is built once, after the shuffle)."""
    n = config.players
    deck = _DECK_BITS[n][:]  # the cards as bits: a hand is the sum of its slice
    size = _HAND_SIZE[n]
    seed = _shuffle(deck, seed, size)  # the first hand's order is left unshuffled
    hands: tuple[int, ...]
    roles: tuple[Role, ...]
    undealt = -1
    if n == 4:
        # The usual table written out: four hands of nine, all cards dealt (the loop below
        # and its lists cost about 0.5 % of a deal).
        a, b, c, d = sum(deck[:9]), sum(deck[9:18]), sum(deck[18:27]), sum(deck[27:])
        role = _ROLE_BY_SPECIALS
        hands, roles = (a, b, c, d), (role[a >> W1], role[b >> W1], role[c >> W1], role[d >> W1])
        held = a | b << _SHIFT_1 | c << _SHIFT_2 | d << _SHIFT_3
    else:
        # One plain loop for the hands, their roles and the packed hands (comprehensions
        # are functions of their own in CPython 3.11, each call a frame).
        hand_list: list[int] = []
        role_list: list[Role] = []
        held = 0
        for cards, shift in zip(_HAND_SLICES[n], _SEAT_SHIFT):
            hand = sum(deck[cards])
            hand_list.append(hand)
            role_list.append(_ROLE_BY_SPECIALS[hand >> W1])
            held |= hand << shift
        hands, roles = tuple(hand_list), tuple(role_list)
        if len(deck) > n * size:
            undealt = deck[n * size].bit_length() - 1
    match = _new(MatchInfo, (deals, deal_no, dealer, points, results, seed, None))
    leader = (dealer + 1) % n
    deal = _new(DealInfo, (hands, undealt, roles, size))
    return _new(State, (config, match, deal, _NO_CHIPS, (), (), held, (), leader))


def _deal_events(state: State) -> list[Event]:
    """The new deal announced to everyone, and each seat's hand and role to that seat alone.
    (The first deal's events are not reported: ``setup`` returns only the state, and every
    view shows the hand and role.)"""
    match, deal, leader = state.match, state.deal, state.turn
    size = deal.hand_size
    events = [
        Event(
            "deal",
            lazy_data(_deal_data, match, leader, size, deal.undealt),
            PUBLIC,
            f"Deal {match.deal_no + 1} of {match.deals}: seat {match.dealer} deals "
            f"{size} cards each; seat {leader} leads.",
        )
    ]
    for s, (hand, role) in enumerate(zip(deal.dealt, deal.roles)):
        events.append(
            _new(Event, ("hand", lazy_data(_hand_data, s, hand, role), _ONLY[s], _YOU_ARE[role]))
        )
    return events


def _deal_data(match: MatchInfo, leader: Seat, size: int, undealt: int) -> dict[str, Any]:
    return {
        "deal": match.deal_no + 1,
        "deals": match.deals,
        "dealer": match.dealer,
        "leader": leader,
        "hand_size": size,
        "undealt": 1 if undealt >= 0 else 0,
    }


_ONLY = tuple(Audience.only(s) for s in range(5))
_YOU_ARE = {role: f"You are {text}." for role, text in ROLE_TEXT.items()}


def _hand_data(seat: Seat, hand: int, role: Role) -> dict[str, Any]:
    return {"seat": seat, "hand": cards_text(hand), "role": role.name.lower()}


_VALID: dict[int, Config] = {}
"""Configs already validated, by identity (the config is kept, so its id stays its own)."""


def setup(config: Config, seed: int) -> State:
    if not isinstance(config, Config):
        raise ConfigError("robbers-horror needs its own Config (wolfden.games.robbers_horror)")
    if _VALID.get(id(config)) is not config:
        config.validate()
        if len(_VALID) > 256:
            _VALID.clear()
        _VALID[id(config)] = config
    n = config.players
    return _deal(config, config.num_deals, 0, config.first_dealer, (0,) * n, (), seed)


# -- play ----------------------------------------------------------------------------------

_ACTORS = (*tuple(frozenset((s,)) for s in range(5)), frozenset())
"""The actors by turn; a turn of -1 (the match is over) reads the last entry, nobody."""


def actors(state: State) -> frozenset[Seat]:
    return _ACTORS[state[8]]  # state.turn: a subscript is the cheaper read


def legal_actions(state: State, seat: Seat | None) -> list[Action]:
    # state[8] and state[6] are state.turn and state.held: a subscript of the tuple is
    # cheaper than reading a NamedTuple field by name, and every step of a playout asks
    if seat != state[8]:
        return []
    hand = (state[6] >> _SEAT_SHIFT[seat]) & HAND_MASK
    # legal_of_hand(hand), written out: every step of a playout asks, and the call would cost
    # a noticeable share of it
    return [*_LEGAL_0[hand & 4095], *_LEGAL_1[(hand >> 12) & 4095], *_LEGAL_2[hand >> 24]]


_ALONE = tuple((i,) for i in range(NUM_IDS))
"""``(i,)`` for every card id (and seat), to append to a trick or the trick winners without
building a one-item tuple each time."""

_LEFT = tuple(tuple((seat + 1) % n for seat in range(n)) for n in range(6))
"""``_LEFT[n][seat]``: the seat to the left of ``seat`` at a table of ``n`` players (a table
look-up is cheaper than the arithmetic)."""


def apply(state: State, seat: Seat | None, action: Action) -> tuple[State, list[Event]]:
    """Play a card. No one must follow suit: any card in the hand may be played."""
    config, match, deal, chips, tricks, winners, held, trick, turn = state
    if seat != turn or turn < 0:
        _reject_actor(state, seat)
    try:
        bit, card, bit2, card2 = _SEAT_CARDS[turn][action]
    except (KeyError, TypeError):  # not a play action, or not even hashable
        raise IllegalAction(_cannot_play(state, action)) from None
    # Taking a held card's bit away leaves a smaller number, so one XOR both checks that the
    # card is in the hand and removes it (cheaper than testing the bit first).
    rest = held ^ bit
    if rest > held:
        rest = held ^ bit2
        if not bit2 or rest > held:
            raise IllegalAction(_cannot_play(state, action))
        card = card2
    trick += _ALONE[card]
    events = [PLAY_EVENTS[turn][card]]
    if card >= W1 and (card <= W2 or card == TRAITOR):
        chips = _place_chip(chips, turn, card)
        events.append(CHIP_EVENTS[turn][card])
    n = config.players
    left = _LEFT[n][turn]
    if len(trick) < n:
        state = _new(State, (config, match, deal, chips, tricks, winners, rest, trick, left))
        return state, events
    # The trick is complete (its last card was just played): the strongest card takes it, and
    # its player piles the cards face down and leads next. (Written out here: this runs once
    # per trick, and a helper taking the whole state as arguments costs a noticeable share.)
    leader = left
    first = trick[0]
    lead = (1 if first >= 15 else 0) if first < 30 else trick_lead(trick)
    taker = _TAKER[lead]
    if n == 4:  # the fold below written out for the usual table of four
        _, second, third, fourth = trick
        card = taker[taker[taker[first][second]][third]][fourth]
    else:
        card = first
        for c in trick:
            card = taker[card][c]
    if card != _WEREWOLF_SEEN:
        best = trick.index(card)
        top = PLAIN_VALUE[lead][card]
    else:  # a Werewolf counts one more than the card before it (16 of trumps if led)
        value = _WEREWOLF_TRICK_VALUE[lead]
        top = prev = best = -1
        for i, c in enumerate(trick):
            v = value[c] if c < W1 or c > W2 else (prev + 1 if i else TRUMP + 16)
            if v >= top:  # the later of equal values wins
                top, best = v, i
            prev = v
    winner = (leader + best) % n
    number = len(winners) + 1
    key = (number, lead, winner, trick[best], top)
    text = _TRICK_TEXT.get(key) or _trick_text(key)
    data = LazyData()  # lazy_data(_trick_data, ...) written out: once per trick
    data._make = _trick_data
    data._args = (number, leader, trick, winner)
    events.append(_new(Event, ("trick", data, PUBLIC, text)))
    tricks += (trick,)
    winners += _ALONE[winner]
    if rest:  # cards are left in the hands
        return _new(State, (config, match, deal, chips, tricks, winners, rest, (), winner)), events
    return _end_deal(config, match, deal, chips, tricks, winners, events)


def _cannot_play(state: State, action: Action) -> str:
    cards = ", ".join(str(a) for a in legal_of_hand(state.hand(state.turn)))
    return f"seat {state.turn} cannot play {action}: play one of your cards, {cards}"


def _reject_actor(state: State, seat: Seat | None) -> None:
    if state.turn < 0:
        raise MatchOver("the match is over; no more cards are played")
    if seat is None:
        raise IllegalAction("there are no moderator actions in this game; the players play cards")
    raise NotYourTurn(f"it is seat {state.turn}'s turn to play a card, not seat {seat}'s")


def _place_chip(chips: Chips, seat: Seat, card: int) -> Chips:
    """Playing a Werewolf or the Traitor puts the matching chip in front of the player."""
    if card == TRAITOR:
        return _new(Chips, (chips.werewolf, seat))
    return _new(Chips, ((*chips.werewolf, seat), chips.traitor))


_NO_CHIPS = Chips((), -1)


_TRICK_TEXT: dict[tuple[int, int, Seat, int, int], str] = {}


def _trick_text(key: tuple[int, int, Seat, int, int]) -> str:
    """The narration of a trick: its number, the suits, the winner and the winning card with
    its effective value, from (number, lead, winner, winning card id, effective value).
    Kept per key, since simulations narrate the same few thousand tricks again and again."""
    number, lead, winner, card_id, top = key
    card = NOTATION[card_id]
    as_value = EFFECTIVE_TEXT[lead][top]
    as_text = "" if as_value == card else f" (counting as {as_value})"
    text = f"Trick {number}, {_LEAD_TEXT[lead]}: seat {winner} takes it with {card}{as_text}."
    if len(_TRICK_TEXT) > 100_000:
        _TRICK_TEXT.clear()
    _TRICK_TEXT[key] = text
    return text


_LEAD_TEXT = {
    0: "chests led, robbers trump",
    1: "robbers led, chests trump",
    -1: "special cards only",
}


def _trick_data(number: int, leader: Seat, trick: tuple[int, ...], winner: Seat) -> dict[str, Any]:
    lead = trick_lead(trick)
    texts = EFFECTIVE_TEXT[lead]
    return {
        "number": number,
        "leader": leader,
        "cards": [NOTATION[c] for c in trick],
        "effective": [texts[v] for v in trick_values(trick)],
        "lead_suit": "CR"[lead] if lead >= 0 else None,
        "winner": winner,
        "winning_card": NOTATION[trick[(winner - leader) % len(trick)]],
    }


def completed_tricks(state: State) -> tuple[Trick, ...]:
    """The completed tricks of the current deal, numbered from 1, with leader and winner."""
    leader = (state.match.dealer + 1) % state.config.players
    out = []
    for i, (cards, winner) in enumerate(zip(state.tricks, state.winners)):
        out.append(Trick(i + 1, leader, cards, winner))
        leader = winner
    return tuple(out)


def piles_of(
    tricks: tuple[tuple[int, ...], ...], winners: tuple[int, ...], n: int
) -> tuple[int, ...]:
    """Each seat's face-down pile as a mask: the cards of the tricks it won."""
    piles = [0] * n
    if n == 4:  # the usual table, written out with the bits of two cards at a time
        two = _TWO_BITS
        for (a, b, c, d), winner in zip(tricks, winners):
            piles[winner] |= two[a][b] | two[c][d]
        return tuple(piles)
    bit = _BIT
    for cards, winner in zip(tricks, winners):
        pile = piles[winner]
        for c in cards:
            pile |= bit[c]
        piles[winner] = pile
    return tuple(piles)


_TWO_BITS = [[(1 << a) | (1 << b) for b in range(NUM_IDS)] for a in range(NUM_IDS)]
"""``_TWO_BITS[a][b]``: the mask of card ids ``a`` and ``b`` (lists: the quicker subscript)."""


# -- scoring -------------------------------------------------------------------------------


_ICON_TABLES: dict[tuple[int, ...], list[int]] = {}


def icon_table(icons: tuple[int, ...]) -> list[int]:
    """For every set of ranks 1..15 (a 15-bit mask) the sum of their icons."""
    table = _ICON_TABLES.get(icons)
    if table is None:
        table = [0] * (1 << 15)
        for m in range(1, 1 << 15):
            low = m & -m
            table[m] = table[m ^ low] + icons[low.bit_length() - 1]
        if len(_ICON_TABLES) > 32:
            _ICON_TABLES.clear()
        _ICON_TABLES[icons] = table
    return table


def score_deal(
    config: Config, match: MatchInfo, deal: DealInfo, piles: tuple[int, ...]
) -> DealResult:
    """Score a deal from the piles.

    A Robber or the Traitor sums the chest icons taken, halved (rounded down) if they took a
    Werewolf; a Werewolf sums the robber icons, halved if they took a Knife.
    The robber team has the robbers' points times the size of the werewolf team; the
    werewolf team has the points of the werewolves and the traitor times the size of the robber
    team. The higher total wins the deal; a tie has no winner."""
    icons = config.icons
    table = _ICON_TABLES.get(icons) or icon_table(icons)
    roles = deal.roles
    seats = []
    robber_sum = werewolf_sum = 0
    for role, pile in zip(roles, piles):
        if role is _WEREWOLF:
            total = table[(pile >> 15) & CHEST_MASK]
            halved = (pile & KNIFE_MASK) != 0
        else:
            total = table[pile & CHEST_MASK]
            halved = (pile & WEREWOLF_MASK) != 0
        points = total >> 1 if halved else total
        if role is _ROBBER:
            robber_sum += points
        else:
            werewolf_sum += points
        seats.append(_new(SeatScore, (role, pile, total, halved, points)))
    teams = _TEAMS.get(roles) or _teams_of(roles)
    robber_mult, werewolf_mult, robber_gain, werewolf_gain = teams
    robber_total = robber_sum * robber_mult
    werewolf_total = werewolf_sum * werewolf_mult
    if robber_total == werewolf_total:
        winner = None
        after = match.points
    elif robber_total > werewolf_total:
        winner = _ROBBERS
        after = tuple(map(add, match.points, robber_gain))
    else:
        winner = _WEREWOLVES
        after = tuple(map(add, match.points, werewolf_gain))
    return _new(
        DealResult,
        (
            match.deal_no + 1,
            match.dealer,
            deal.dealt,
            deal.undealt,
            tuple(seats),
            robber_sum,
            werewolf_sum,
            robber_mult,
            werewolf_mult,
            robber_total,
            werewolf_total,
            winner,
            after,
        ),
    )


_ROBBERS, _WEREWOLVES = Team.ROBBERS, Team.WEREWOLVES
_TEAMS: dict[tuple[Role, ...], tuple[int, int, tuple[int, ...], tuple[int, ...]]] = {}


def _teams_of(roles: tuple[Role, ...]) -> tuple[int, int, tuple[int, ...], tuple[int, ...]]:
    """For an assignment of roles: the robber team's multiplier (the size of the werewolf
    team), the werewolf team's (the size of the robber team), and the game point each seat
    gains when the robbers win and when the werewolves win (kept per assignment: at most
    3**5 of them)."""
    robber = tuple(int(role is _ROBBER) for role in roles)
    robbers = sum(robber)
    teams = (len(roles) - robbers, robbers, robber, tuple(1 - r for r in robber))
    _TEAMS[roles] = teams
    return teams


_ROLE_NAME = {role: role.name.lower() for role in Role}
_TEAM_NAME = {role: role.team.value for role in Role}


_PILE_TEXT: dict[tuple[int, ...], tuple[dict[int, str], dict[int, str]]] = {}


def pile_texts(icons: tuple[int, ...]) -> tuple[dict[int, str], dict[int, str]]:
    """For chests and for robbers, the texts of the sets of ranks written so far with these
    icons (see :func:`pile_text`): there are only 2**15 sets, and simulations score many
    deals, so each text is written once."""
    texts = _PILE_TEXT.get(icons)
    if texts is None:
        if len(_PILE_TEXT) > 32:
            _PILE_TEXT.clear()
        texts = _PILE_TEXT[icons] = ({}, {})
    return texts


def pile_text(icons: tuple[int, ...], werewolf: bool, ranks: int) -> str:
    """The icons a seat scores, written out: ``C1:5 + C4:4 = 9`` (``R…`` for a Werewolf,
    who scores robbers), or ``none = 0``; ``ranks`` is the 15-bit mask of the ranks taken."""
    memo = pile_texts(icons)[werewolf]
    return memo.get(ranks) or _pile_text(
        memo, icon_terms(icons)[werewolf], ranks, icon_table(icons)[ranks]
    )


def _pile_text(memo: dict[int, str], terms: _Terms, ranks: int, total: int) -> str:
    """:func:`pile_text` for a set of ranks not written yet, from the two tables of terms and
    the icons' sum, kept in ``memo``."""
    low, high = terms
    text = low[ranks & 255]
    high_terms = high[ranks >> 8]
    if high_terms:
        text = f"{text} + {high_terms}" if text else high_terms
    text = memo[ranks] = f"{text} = {total}" if text else "none = 0"
    return text


_Terms = tuple[tuple[str, ...], tuple[str, ...]]
_TERMS: dict[tuple[int, ...], tuple[_Terms, _Terms]] = {}


def icon_terms(icons: tuple[int, ...]) -> tuple[_Terms, _Terms]:
    """The terms of the breakdown (``C1:5 + C4:4``) for every set of ranks 1 to 8 (a mask of 8
    bits) and every set of ranks 9 to 15 (7 bits), for chests and for robbers: a pile's terms
    are the two joined, so a pile not written yet costs two look-ups, not a term per card."""
    terms = _TERMS.get(icons)
    if terms is None:
        if len(_TERMS) > 32:
            _TERMS.clear()
        terms = _TERMS[icons] = (_half_terms("C", icons), _half_terms("R", icons))
    return terms


_Writing = tuple[tuple[dict[int, str], dict[int, str]], tuple[_Terms, _Terms]]
_WRITING: dict[tuple[int, ...], _Writing] = {}


def _writing(icons: tuple[int, ...]) -> _Writing:
    """:func:`pile_texts` and :func:`icon_terms` together, so that the breakdown hashes the
    15 icon numbers once per deal rather than twice."""
    if len(_WRITING) > 32:
        _WRITING.clear()
    found = _WRITING[icons] = (pile_texts(icons), icon_terms(icons))
    return found


def _half_terms(suit: str, icons: tuple[int, ...]) -> _Terms:
    term = [f"{suit}{r + 1}:{icons[r]}" for r in range(15)]

    def joined(base: int, bits: int) -> tuple[str, ...]:
        return tuple(
            " + ".join(term[base + r] for r in range(bits) if m >> r & 1) for m in range(1 << bits)
        )

    return joined(0, 8), joined(8, 7)


def _seats(seats: list[str]) -> str:
    return ("seat " if len(seats) == 1 else "seats ") + ", ".join(seats)


_TeamWords = tuple[str, str, str, str, str, str]
_TEAM_WORDS: dict[tuple[Role, ...], _TeamWords] = {}


def _team_words(roles: tuple[Role, ...]) -> _TeamWords:
    """The words of the breakdown that follow from who is on which team: the head and the
    multiplier of each team's line (a team's multiplier is the size of the other team), and
    the end of the line saying that team won (kept per assignment of roles: at most 3**5)."""
    r_seats = [_SEAT_NAME[s] for s, role in enumerate(roles) if role is _ROBBER]
    w_seats = [_SEAT_NAME[s] for s, role in enumerate(roles) if role is not _ROBBER]
    r_mult, w_mult = len(w_seats), len(r_seats)
    words = (
        f"Robber team ({_seats(r_seats)}): ",
        f" × {r_mult} werewolf-team player{'s' if r_mult != 1 else ''} = ",
        f"Werewolf team ({_seats(w_seats)}): ",
        f" × {w_mult} robber-team player{'s' if w_mult != 1 else ''} = ",
        f": {_seats(r_seats)} score{'s' if len(r_seats) == 1 else ''} 1 game point.",
        f": {_seats(w_seats)} score{'s' if len(w_seats) == 1 else ''} 1 game point.",
    )
    _TEAM_WORDS[roles] = words
    return words


_SUM_TEXT: dict[tuple[int, ...], str] = {}


def _sum_text(points: tuple[int, ...]) -> str:
    """``3 + 5 = 8``, or ``3`` for a team of one (kept per points: there are few)."""
    text = _SUM_TEXT.get(points)
    if text is None:
        text = " + ".join(map(str, points))
        if len(points) > 1:
            text = f"{text} = {sum(points)}"
        if len(_SUM_TEXT) > 100_000:
            _SUM_TEXT.clear()
        _SUM_TEXT[points] = text
    return text


def breakdown_lines(result: DealResult, icons: tuple[int, ...]) -> list[str]:
    """Every step of a deal's arithmetic, one line each."""
    lines = []
    texts, terms = _WRITING.get(icons) or _writing(icons)
    roles: list[Role] = []
    r_points: list[int] = []
    w_points: list[int] = []
    for seat, (role, pile, total, halved, points) in enumerate(result.seats):
        werewolf = role is _WEREWOLF
        ranks = (pile >> 15) & CHEST_MASK if werewolf else pile & CHEST_MASK
        memo = texts[werewolf]
        line = _SEAT_HEAD[seat][role] + (
            memo.get(ranks) or _pile_text(memo, terms[werewolf], ranks, total)
        )
        lines.append(f"{line}{_HALVED[werewolf]}{points}" if halved else line)
        roles.append(role)
        if role is _ROBBER:
            r_points.append(points)
        else:
            w_points.append(points)
    key = tuple(roles)
    r_head, r_mult, w_head, w_mult, r_won, w_won = _TEAM_WORDS.get(key) or _team_words(key)
    r_key, w_key = tuple(r_points), tuple(w_points)
    r_sum = _SUM_TEXT.get(r_key) or _sum_text(r_key)
    w_sum = _SUM_TEXT.get(w_key) or _sum_text(w_key)
    lines.append(f"{r_head}{r_sum}{r_mult}{result.robber_total}")
    lines.append(f"{w_head}{w_sum}{w_mult}{result.werewolf_total}")
    winner = result.winner
    if winner is None:
        lines.append(
            f"Tie at {result.robber_total}: nobody wins deal {result.number}, no game points."
        )
    elif winner is _ROBBERS:
        lines.append(f"The robber team wins deal {result.number}{r_won}")
    else:
        lines.append(f"The werewolf team wins deal {result.number}{w_won}")
    return lines


_SEAT_NAME = tuple(str(seat) for seat in range(5))
_SEAT_HEAD = tuple(
    {
        role: f"Seat {seat}, {role.label}: {'robber' if role is Role.WEREWOLF else 'chest'} icons "
        for role in Role
    }
    for seat in range(5)
)
_HALVED = (
    "; took a Werewolf, halved (rounded down) to ",
    "; took a Knife, halved (rounded down) to ",
)


def result_json(result: DealResult, icons: tuple[int, ...]) -> dict[str, Any]:
    """The scored deal as JSON (a fresh copy each time; the text is built once per deal)."""
    key = (result, icons)
    text = _RESULT_TEXT.get(key)
    if text is None:
        if len(_RESULT_TEXT) > 64:
            _RESULT_TEXT.clear()
        text = _RESULT_TEXT[key] = json.dumps(_result_json(result, icons), ensure_ascii=False)
    data: dict[str, Any] = json.loads(text)
    return data


_RESULT_TEXT: dict[tuple[DealResult, tuple[int, ...]], str] = {}


def _result_json(result: DealResult, icons: tuple[int, ...]) -> dict[str, Any]:
    return {
        "deal": result.number,
        "dealer": result.dealer,
        "hands_dealt": [cards_text(hand) for hand in result.dealt],
        "undealt": NOTATION[result.undealt] if result.undealt >= 0 else None,
        "seats": [
            {
                "seat": i,
                "role": s.role.name.lower(),
                "team": s.role.team.value,
                "pile": cards_text(s.pile),
                "icons": s.icons,
                "halved": s.halved,
                "points": s.points,
            }
            for i, s in enumerate(result.seats)
        ],
        "robbers": {
            "sum": result.robber_sum,
            "multiplier": result.robber_multiplier,
            "total": result.robber_total,
        },
        "werewolves": {
            "sum": result.werewolf_sum,
            "multiplier": result.werewolf_multiplier,
            "total": result.werewolf_total,
        },
        "winner": result.winner.value if result.winner else None,
        "game_points": list(result.points_after),
        "steps": breakdown_lines(result, icons),
    }


def _end_deal(
    config: Config,
    match: MatchInfo,
    deal: DealInfo,
    chips: Chips,
    tricks: tuple[tuple[int, ...], ...],
    winners: tuple[int, ...],
    events: list[Event],
) -> tuple[State, list[Event]]:
    """Score the deal; then deal again with the dealer passing left, or end the match."""
    result = score_deal(config, match, deal, piles_of(tricks, winners, config.players))
    text = "\n".join(breakdown_lines(result, config.icons))
    events.append(
        _new(Event, ("score", lazy_data(result_json, result, config.icons), PUBLIC, text))
    )
    n = config.players
    results = (*match.results, result)
    if result.number < match.deals:
        state = _deal(
            config,
            match.deals,
            match.deal_no + 1,
            (match.dealer + 1) % n,
            result.points_after,
            results,
            match.rng,
        )
        events.extend(_deal_events(state))
        return state, events
    points = result.points_after
    outcome = match_outcome(points, results, deal.roles)
    match = _new(
        MatchInfo, (match.deals, match.deal_no, match.dealer, points, results, match.rng, outcome)
    )
    data = lazy_data(_match_over_data, outcome, points)
    events.append(_new(Event, ("match_over", data, PUBLIC, outcome.summary)))
    return _new(State, (config, match, deal, chips, tricks, winners, 0, (), -1)), events


def _match_over_data(outcome: Outcome, points: tuple[int, ...]) -> dict[str, Any]:
    return {"points": list(points), "ranking": ranking(points), "winners": sorted(outcome.winners)}


def ranking(points: tuple[int, ...]) -> list[dict[str, int]]:
    """Seats by game points, highest first; equal points share a place."""
    order = sorted(range(len(points)), key=lambda s: (-points[s], s))
    return [
        {"place": 1 + sum(1 for p in points if p > points[s]), "seat": s, "points": points[s]}
        for s in order
    ]


def match_outcome(
    points: tuple[int, ...], results: tuple[DealResult, ...], last_roles: tuple[Role, ...]
) -> Outcome:
    """Whoever has the most game points wins; equal highest totals share the win. The game
    points and the scored deals are the match's; the roles are those of the last deal."""
    winners, summary = _WINNERS.get(points) or _winners_of(points)
    teams, roles = _SEAT_NAMES.get(last_roles) or _seat_names(last_roles)
    winner = results[0].winner if len(results) == 1 else None
    return Outcome.filled(
        winners,
        # the team's value read from the member itself: hashing an Enum calls Python code
        None if winner is None else winner._value_,
        summary,
        teams.copy(),
        roles.copy(),
        len(results),
        lazy_data(_match_stats, points, results),
    )


_WINNERS: dict[tuple[int, ...], tuple[frozenset[Seat], str]] = {}


def _winners_of(points: tuple[int, ...]) -> tuple[frozenset[Seat], str]:
    """The seats with the most game points and the sentence saying so (kept per points)."""
    found = _WINNERS.get(points)
    if found is None:
        top = max(points)
        winners = frozenset(s for s, p in enumerate(points) if p == top)
        names = ", ".join(str(s) for s in sorted(winners))
        summary = (
            f"Seat {names} wins the match with {top} game point{'s' if top != 1 else ''}."
            if len(winners) == 1
            else f"Seats {names} share the win with {top} game point{'s' if top != 1 else ''} each."
        )
        if len(_WINNERS) > 4096:
            _WINNERS.clear()
        found = _WINNERS[points] = (winners, summary)
    return found


_Names = dict[Seat, str]
_SEAT_NAMES: dict[tuple[Role, ...], tuple[_Names, _Names]] = {}


def _seat_names(roles: tuple[Role, ...]) -> tuple[_Names, _Names]:
    """Each seat's team and role names for the outcome, kept per assignment of roles (the
    outcome gets copies)."""
    names = (
        {s: _TEAM_NAME[role] for s, role in enumerate(roles)},
        {s: _ROLE_NAME[role] for s, role in enumerate(roles)},
    )
    _SEAT_NAMES[roles] = names  # at most 3**5 assignments
    return names


def _match_stats(points: tuple[int, ...], results: tuple[DealResult, ...]) -> dict[str, Any]:
    deal_winners = [r.winner.value if r.winner else "tie" for r in results]
    return {
        "points": list(points),
        "deal_winners": deal_winners,
        "robber_team_deals": deal_winners.count("robbers"),
        "werewolf_team_deals": deal_winners.count("werewolves"),
        "tied_deals": deal_winners.count("tie"),
        "deal_roles": [[s.role.name.lower() for s in r.seats] for r in results],
        "robber_totals": [r.robber_total for r in results],
        "werewolf_totals": [r.werewolf_total for r in results],
    }


# Every step of a playout asks for the outcome: a C-level getter of ``state.match.outcome``
# answers without a Python frame.
outcome: Callable[[State], Outcome | None] = attrgetter("match.outcome")
"""The match's Outcome once it is over, else None."""


def phase_seq(state: State) -> int:
    """Changes with every card played (the game has no timed phases)."""
    m = state.match
    return (m.deal_no * 64 + len(state.winners)) * 8 + len(state.trick)


def arrange_deal(state: State, hands: Any, undealt: str | None = None) -> State:
    """The state at the start of its deal, with the given hands instead of the shuffled ones.

    For rulebook examples and for replaying a deal from a real table: ``hands`` lists each
    seat's cards in notation; together with ``undealt`` they must be exactly this player
    count's deck.
    """
    if state.trick or state.winners or state.turn < 0:
        raise IllegalAction("hands can only be arranged before the first card of a deal")
    n = state.config.players
    if len(hands) != n:
        raise ConfigError(f"give {n} hands, one per seat, not {len(hands)}")
    ids: list[int] = []
    masks = []
    for hand in hands:
        mask = 0
        for text in hand:
            card_id = Card(text).id
            if card_id in ids:
                card_id += 1  # the second Werewolf or Knife
            ids.append(card_id)
            mask |= 1 << card_id
        masks.append(mask)
    undealt_id = -1
    if undealt is not None:
        undealt_id = Card(undealt).id
        if undealt_id in ids:
            undealt_id += 1
        ids.append(undealt_id)
    if sorted(ids) != sorted(deck_ids(n)) or len({len(h) for h in hands}) != 1:
        raise ConfigError(
            f"the hands (and the undealt card) must be the {len(deck_ids(n))}-card deck "
            f"for {n} players, dealt equally"
        )
    roles = tuple(role_of(m) for m in masks)
    deal = DealInfo(tuple(masks), undealt_id, roles, len(hands[0]))
    return state._replace(deal=deal, held=pack_hands(masks))

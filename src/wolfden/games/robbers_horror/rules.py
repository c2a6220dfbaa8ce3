"""The rules of seed 003, in its order: setup and the deal, the roles, the course of the game,
the trick, the chips, the scoring, and the match of as many deals as players."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace
from typing import NamedTuple

from wolfden.engine.errors import ConfigError, IllegalAction, MatchOver, NotYourTurn, ParseError
from wolfden.engine.rng import Rng
from wolfden.engine.types import Action, Audience, Event, Outcome, Seat
from wolfden.games.robbers_horror import narration
from wolfden.games.robbers_horror.components import (
    KNIFE,
    SEER,
    TRAITOR,
    WEREWOLF,
    Card,
    Kind,
    Role,
    Team,
    deck,
    hand_size,
)
from wolfden.games.robbers_horror.config import Config
from wolfden.games.robbers_horror.state import Chips, DealResult, SeatScore, State, Trick

# -- setup: the deal and the roles -----------------------------------------------------------


def setup(config: Config, seed: int) -> State:
    """The first deal of a match, dealt by ``first_dealer``."""
    if not isinstance(config, Config):
        raise ConfigError("robbers-horror needs its own Config (wolfden.games.robbers_horror)")
    config.validate()
    players = config.players
    return deal_cards(
        config,
        rng=seed,
        deals=config.num_deals,
        number=0,
        dealer=config.first_dealer,
        points=(0,) * players,
        results=(),
    )


def deal_cards(
    config: Config,
    *,
    rng: int,
    deals: int,
    number: int,
    dealer: Seat,
    points: tuple[int, ...],
    results: tuple[DealResult, ...],
) -> State:
    """The dealer shuffles and deals all cards equally; with 3 and 5 players one card stays
    undealt. The player left of the dealer leads the first trick."""
    generator = Rng(rng)
    cards = shuffle(list(deck(config.players)), generator)
    players = config.players
    size = hand_size(players)
    hands = tuple(tuple(sorted(cards[seat * size : (seat + 1) * size])) for seat in range(players))
    undealt = cards[players * size] if len(cards) > players * size else None
    leader = left_of(dealer, players)
    return State(
        config=config,
        rng=generator.state,
        deals=deals,
        deal=number,
        dealer=dealer,
        dealt=hands,
        undealt=undealt,
        roles=tuple(role_of(hand) for hand in hands),
        hands=hands,
        piles=((),) * players,
        tricks=(),
        leader=leader,
        trick=(),
        turn=leader,
        chips=Chips(),
        points=points,
        results=results,
    )


def shuffle(cards: list[Card], rng: Rng) -> list[Card]:
    """Shuffle uniformly: a Fisher–Yates shuffle whose swaps are the mixed-radix digits of one
    random number below ``len(cards)!``, made of three 64-bit draws (36! < 2**139, so the bias
    of reducing 192 random bits is below 2**-53)."""
    number = (rng.next64() << 128) | (rng.next64() << 64) | rng.next64()
    number %= math.factorial(len(cards))
    for i in range(len(cards) - 1, 0, -1):
        number, j = divmod(number, i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return cards


def left_of(seat: Seat, players: int) -> Seat:
    """Seats are numbered clockwise: the seat to the left is the next number."""
    return (seat + 1) % players


def role_of(hand: Sequence[Card]) -> Role:
    """Whoever has one or more Werewolves is a Werewolf; else whoever has the Traitor is the
    Traitor; all other players are Robbers."""
    if WEREWOLF in hand:
        return Role.WEREWOLF
    if TRAITOR in hand:
        return Role.TRAITOR
    return Role.ROBBER


# -- the course of the game --------------------------------------------------------------------


def actors(state: State) -> frozenset[Seat]:
    return frozenset() if state.turn is None else frozenset((state.turn,))


def legal_actions(state: State, seat: Seat | None) -> list[Action]:
    """No one must follow suit: the seat to play may play any card of its hand."""
    if seat is None or seat != state.turn:
        return []
    return [Action("play", (card.notation,)) for card in distinct(state.hands[seat])]


def distinct(cards: Sequence[Card]) -> list[Card]:
    """The cards without repeats (the two Werewolves and the two Knives are one play each)."""
    return list(dict.fromkeys(cards))


def apply(state: State, seat: Seat | None, action: Action) -> tuple[State, list[Event]]:
    """Play a card. Once every player has played, the trick is complete and its strongest
    card takes it."""
    seat = check_turn(state, seat)
    legal = legal_actions(state, seat)
    if action not in legal:
        cards = ", ".join(str(a) for a in legal)
        raise IllegalAction(f"seat {seat} cannot play {action}: play one of your cards, {cards}")
    state, events = play_card(state, seat, Card(str(action.args[0])))
    if len(state.trick) == state.players:
        state, events = complete_trick(state, events)
    return state, events


def check_turn(state: State, seat: Seat | None) -> Seat:
    """The seat to play, if it is the one acting."""
    if state.turn is None:
        raise MatchOver("the match is over; no more cards are played")
    if seat is None:
        raise IllegalAction("there are no moderator actions in this game; the players play cards")
    if seat != state.turn:
        raise NotYourTurn(f"it is seat {state.turn}'s turn to play a card, not seat {seat}'s")
    return seat


def play_card(state: State, seat: Seat, card: Card) -> tuple[State, list[Event]]:
    """The seat plays a card face up to the trick, and play continues clockwise. Playing a
    Werewolf or the Traitor puts the matching chip in front of the player."""
    hands = list(state.hands)
    hands[seat] = without(hands[seat], [card])
    events = [narration.play_event(seat, card)]
    chips = state.chips
    if card is WEREWOLF:
        chips = replace(chips, werewolf=(*chips.werewolf, seat))
        events.append(narration.chip_event(seat, card))
    elif card is TRAITOR:
        chips = replace(chips, traitor=seat)
        events.append(narration.chip_event(seat, card))
    state = replace(
        state,
        hands=tuple(hands),
        trick=(*state.trick, card),
        turn=left_of(seat, state.players),
        chips=chips,
    )
    return state, events


def without(cards: Sequence[Card], removed: Sequence[Card]) -> tuple[Card, ...]:
    """The cards with each of ``removed`` taken out once."""
    rest = list(cards)
    for card in removed:
        rest.remove(card)
    return tuple(rest)


def complete_trick(state: State, events: list[Event]) -> tuple[State, list[Event]]:
    """Whoever played the strongest card wins the trick, takes its cards face down and leads
    the next one. When the hands are empty, the deal is scored."""
    players = state.players
    winning = winning_place(state.trick)
    winner = (state.leader + winning) % players
    trick = Trick(len(state.tricks) + 1, state.leader, state.trick, winner)
    events.append(
        narration.trick_event(trick, leading_suit(trick.cards), effective_of(trick.cards))
    )
    piles = list(state.piles)
    piles[winner] = tuple(sorted((*piles[winner], *trick.cards)))
    state = replace(
        state,
        piles=tuple(piles),
        tricks=(*state.tricks, trick),
        leader=winner,
        trick=(),
        turn=winner,
    )
    if any(state.hands):
        return state, events
    return end_deal(state, events)


# -- the trick ---------------------------------------------------------------------------------


class Effective(NamedTuple):
    """A card's effective suit and rank in its trick.

    ``suit`` is ``"C"`` or ``"R"``; in a trick of special cards only it is ``"lead"`` (weak)
    or ``"trump"`` (strong). ``None`` fields are not known yet (the Seer before the trick is
    complete and before any Werewolf). ``trump`` tells whether the card counts in the trump suit.
    """

    suit: str | None
    rank: int | None
    trump: bool | None

    def __str__(self) -> str:
        if self.rank is None or self.suit is None:
            return "?"
        if self.suit in ("C", "R"):
            return f"{self.suit}{self.rank}"
        return f"{self.rank} of the {self.suit} suit"


def leading_suit(cards: Sequence[Card]) -> Kind | None:
    """The suit of the first normal card in the trick (special cards played before it take
    that suit too); None while there is none."""
    for card in cards:
        if card.is_normal:
            return card.kind
    return None


def effective_ranks(cards: Sequence[Card]) -> list[tuple[bool, int]]:
    """Each card of a trick as (counts in the trump suit, rank). The suit opposite to the one
    led is trump.

    - A chest or robber card keeps its rank, and is trump if its suit is not the one led.
    - Werewolf: if led, 16 of the trump suit; otherwise 1 higher than the card played just
      before it, in the same suit.
    - Seer: 16 of the trump suit if there is no Werewolf in the trick; otherwise 0 of the
      leading suit.
    - Knife: 0 of the trump suit. Traitor: 16 of the leading suit.

    With special cards only, the "leading suit" is the weak one and the "trump suit" the strong.
    """
    lead = leading_suit(cards)
    werewolf_in_trick = WEREWOLF in cards
    out: list[tuple[bool, int]] = []
    for i, card in enumerate(cards):
        if card.is_normal:
            assert card.rank is not None
            value = (card.kind is not lead, card.rank)
        elif card is WEREWOLF:
            if i == 0:
                value = (True, 16)
            else:
                trump, rank = out[i - 1]
                value = (trump, rank + 1)
        elif card is SEER:
            value = (False, 0) if werewolf_in_trick else (True, 16)
        elif card is KNIFE:
            value = (True, 0)
        else:  # the Traitor
            value = (False, 16)
        out.append(value)
    return out


def winning_place(cards: Sequence[Card]) -> int:
    """The place in play order of the strongest card: trump beats the leading suit, a higher
    rank beats a lower one, and of two equal cards the latter is stronger."""
    ranks = effective_ranks(cards)
    return max(range(len(ranks)), key=lambda i: (ranks[i], i))


def trick_winner(cards: Sequence[Card | str]) -> int:
    """The index of the winning card of a complete trick, given in play order.

    >>> trick_winner(["C6", "C15", "R12", "R3"])
    2
    """
    return winning_place(trick_cards(cards))


def effective_cards(cards: Sequence[Card | str]) -> list[Effective]:
    """Each card's effective suit and rank in a complete trick, given in play order.

    >>> [str(e) for e in effective_cards(["W", "W", "R7", "C10"])]
    ['C16', 'C17', 'R7', 'C10']
    """
    return effective_of(trick_cards(cards))


def effective_of(trick: Sequence[Card], complete: bool = True) -> list[Effective]:
    """Each card's effective suit and rank, as far as it is known.

    In an incomplete trick everything is known except a Seer with no Werewolf before it, since
    a later Werewolf would make it 0 of the leading suit.
    """
    lead = leading_suit(trick)
    werewolf_in_trick = WEREWOLF in trick
    out = []
    for card, (trump, rank) in zip(trick, effective_ranks(trick)):
        if card is SEER and not complete and not werewolf_in_trick:
            out.append(Effective(None, None, None))
        elif lead is None:
            out.append(Effective("trump" if trump else "lead", rank, trump))
        else:
            suit = other_suit(lead) if trump else lead
            out.append(Effective(suit.value, rank, trump))
    return out


def other_suit(suit: Kind) -> Kind:
    return Kind.ROBBER if suit is Kind.CHEST else Kind.CHEST


def trick_cards(cards: Sequence[Card | str]) -> list[Card]:
    """A trick given as cards or notation, checked against the deck."""
    if isinstance(cards, str):
        raise ParseError("give the trick as a list of cards, such as ['C6', 'C15', 'R12', 'R3']")
    trick = [Card(item) for item in cards]
    if not trick:
        raise ParseError("a trick has at least one card")
    full_deck = deck(4)
    for card in trick:
        if trick.count(card) > full_deck.count(card):
            copies = full_deck.count(card)
            raise ParseError(f"a trick cannot hold {card} that often: the deck has {copies} of it")
    return trick


# -- scoring -----------------------------------------------------------------------------------


def score_seat(role: Role, pile: tuple[Card, ...], icons: tuple[int, ...]) -> SeatScore:
    """Robber and Traitor: the chest icons taken, halved (rounded down) if they took a
    Werewolf. Werewolf: the robber icons taken, halved if they took a Knife."""
    if role is Role.WEREWOLF:
        scored, halving = Kind.ROBBER, KNIFE
    else:
        scored, halving = Kind.CHEST, WEREWOLF
    total = sum(icons[card.rank - 1] for card in pile if card.kind is scored and card.rank)
    halved = halving in pile
    return SeatScore(role, pile, total, halved, total // 2 if halved else total)


def score_deal(state: State) -> DealResult:
    """The robber team has the total points of the Robbers times the number of players in
    the werewolf team; the werewolf team the points of the Werewolves and the Traitor times
    the number of Robbers. The higher-scored team wins the deal, and each of its players
    scores 1 game point; in a tie there is no winner."""
    seats = tuple(
        score_seat(role, pile, state.config.icons) for role, pile in zip(state.roles, state.piles)
    )
    robbers = [s.role.team is Team.ROBBERS for s in seats]
    robber_sum = sum(s.points for s, robber in zip(seats, robbers) if robber)
    werewolf_sum = sum(s.points for s, robber in zip(seats, robbers) if not robber)
    robber_multiplier = robbers.count(False)
    werewolf_multiplier = robbers.count(True)
    robber_total = robber_sum * robber_multiplier
    werewolf_total = werewolf_sum * werewolf_multiplier
    winner = None
    if robber_total > werewolf_total:
        winner = Team.ROBBERS
    elif werewolf_total > robber_total:
        winner = Team.WEREWOLVES
    points = tuple(
        p + (1 if winner is not None and role.team is winner else 0)
        for p, role in zip(state.points, state.roles)
    )
    return DealResult(
        number=state.deal + 1,
        dealer=state.dealer,
        dealt=state.dealt,
        undealt=state.undealt,
        seats=seats,
        robber_sum=robber_sum,
        werewolf_sum=werewolf_sum,
        robber_multiplier=robber_multiplier,
        werewolf_multiplier=werewolf_multiplier,
        robber_total=robber_total,
        werewolf_total=werewolf_total,
        winner=winner,
        points_after=points,
    )


# -- the match -----------------------------------------------------------------------------------


def end_deal(state: State, events: list[Event]) -> tuple[State, list[Event]]:
    """Score the deal. Then the dealer passes to the left and deals again, until as many deals
    as players have been played."""
    result = score_deal(state)
    events.append(narration.score_event(result, state.config.icons))
    results = (*state.results, result)
    if result.number < state.deals:
        state = deal_cards(
            state.config,
            rng=state.rng,
            deals=state.deals,
            number=state.deal + 1,
            dealer=left_of(state.dealer, state.players),
            points=result.points_after,
            results=results,
        )
        return state, [*events, *deal_events(state)]
    outcome = match_outcome(result.points_after, results, state.roles)
    state = replace(state, points=result.points_after, results=results, turn=None, outcome=outcome)
    events.append(narration.match_over_event(outcome, state.points))
    return state, events


def deal_events(state: State) -> list[Event]:
    """The new deal, announced to everyone, and each seat's hand and role, to that seat."""
    events = [narration.deal_event(state)]
    for seat, (hand, role) in enumerate(zip(state.dealt, state.roles)):
        events.append(narration.hand_event(seat, hand, role, Audience.only(seat)))
    return events


def match_winners(points: tuple[int, ...]) -> frozenset[Seat]:
    """Whoever scores the highest total game points wins the whole game; equal highest
    totals share the win."""
    top = max(points)
    return frozenset(seat for seat, p in enumerate(points) if p == top)


def match_outcome(
    points: tuple[int, ...], results: tuple[DealResult, ...], last_roles: tuple[Role, ...]
) -> Outcome:
    """The match's winners, with the teams and roles of the last deal. A one-deal match has
    the deal's winning team; a longer one has winning seats only (teams change every deal)."""
    winners = match_winners(points)
    winning_team = results[0].winner if len(results) == 1 else None
    return Outcome(
        winners=winners,
        winning_team=None if winning_team is None else winning_team.value,
        summary=narration.match_summary(winners, max(points)),
        teams={seat: role.team.value for seat, role in enumerate(last_roles)},
        roles={seat: role.value for seat, role in enumerate(last_roles)},
        rounds=len(results),
        stats=match_stats(points, results),
    )


def match_stats(points: tuple[int, ...], results: tuple[DealResult, ...]) -> dict[str, object]:
    deal_winners = [r.winner.value if r.winner else "tie" for r in results]
    return {
        "points": list(points),
        "deal_winners": deal_winners,
        "robber_team_deals": deal_winners.count("robbers"),
        "werewolf_team_deals": deal_winners.count("werewolves"),
        "tied_deals": deal_winners.count("tie"),
        "deal_roles": [[s.role.value for s in r.seats] for r in results],
        "robber_totals": [r.robber_total for r in results],
        "werewolf_totals": [r.werewolf_total for r in results],
    }


def outcome(state: State) -> Outcome | None:
    """The match's Outcome once it is over, else None."""
    return state.outcome


def phase_seq(state: State) -> int:
    """Changes with every card played (the game has no timed phases)."""
    return (state.deal * 64 + len(state.tricks)) * 8 + len(state.trick)

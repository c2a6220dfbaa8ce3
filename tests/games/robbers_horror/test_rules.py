"""The rulebook of The Werewolves bEat Robbers' Horror, one test per rule."""

from __future__ import annotations

import json
import math
import pickle

import pytest

from wolfden.engine.errors import IllegalAction, MatchOver, NotYourTurn, ParseError
from wolfden.engine.rng import Rng
from wolfden.engine.types import OMNISCIENT, SPECTATOR, Action, Event, Viewer
from wolfden.games import get
from wolfden.games import robbers_horror as rh
from wolfden.games.robbers_horror import Card, effective_cards, trick_winner
from wolfden.games.robbers_horror.components import deck, hand_size
from wolfden.games.robbers_horror.narration import ranking

from .conftest import play, score, table


def effective(cards: list[str]) -> list[str]:
    return [str(e) for e in effective_cards(cards)]


# -- cards ---------------------------------------------------------------------------------


def test_cards_are_written_in_the_ruled_notation() -> None:
    card = Card.parse("R7")
    assert str(card) == "R7"
    assert repr(card) == "Card('R7')"
    assert eval(repr(card)) == card
    assert (card.kind, card.rank) == (rh.Kind.ROBBER, 7)
    assert [str(Card(t)) for t in ("c15", "W", "S", "K", "T")] == ["C15", "W", "S", "K", "T"]
    assert pickle.loads(pickle.dumps(Card("W"))) is Card("W")


def test_an_unknown_card_is_a_clear_error() -> None:
    with pytest.raises(ParseError, match="C1–C15"):
        Card.parse("X9")
    with pytest.raises(ParseError, match="C1–C15"):
        Card.parse("C16")


# -- the seed's worked examples, word for word -----------------------------------------------


def test_example_1_chest_6_chest_15_robber_12_robber_3() -> None:
    """Ex. 1: Chest 6, chest 15, robber 12, robber 3. A chest is led, so the robber is the
    trump suit. 12 of the robber wins the trick (not 15 of the chest, since its suit is
    weaker)."""
    assert trick_winner(["C6", "C15", "R12", "R3"]) == 2
    assert effective(["C6", "C15", "R12", "R3"]) == ["C6", "C15", "R12", "R3"]
    assert [e.trump for e in effective_cards(["C6", "C15", "R12", "R3"])] == [
        False,
        False,
        True,
        True,
    ]


def test_example_2_werewolf_werewolf_robber_7_chest_10() -> None:
    """Ex. 2: Werewolf, werewolf, robber 7, chest 10. The leading suit is the robber, of the
    third card. Then, the first werewolf is regarded as 16 of the chest. The second werewolf is
    regarded as one higher, 17 of the chest, winning the trick."""
    assert trick_winner(["W", "W", "R7", "C10"]) == 1
    assert effective(["W", "W", "R7", "C10"]) == ["C16", "C17", "R7", "C10"]


def test_example_3_knife_traitor_seer() -> None:
    """Ex. 3: Knife, traitor, seer. The first knife and the third seer are trumps, and the
    second traitor is the leading (weaker) suit. The knife ranks 0 and the seer ranks 16, so
    the latter wins the trick."""
    assert trick_winner([Card("K"), Card("T"), Card("S")]) == 2
    cards = effective_cards(["K", "T", "S"])
    assert [(e.suit, e.rank) for e in cards] == [("trump", 0), ("lead", 16), ("trump", 16)]


# -- the trick -------------------------------------------------------------------------------


def test_the_suit_opposite_to_the_one_led_is_trump() -> None:
    assert trick_winner(["R14", "C1"]) == 1
    assert trick_winner(["C3", "C9", "C5"]) == 1


def test_a_led_werewolf_is_16_of_the_trump_suit() -> None:
    assert effective(["W", "C15", "R15"]) == ["R16", "C15", "R15"]
    assert trick_winner(["W", "C15", "R15"]) == 0


def test_werewolf_after_werewolf_chains() -> None:
    assert effective(["R2", "W", "W"]) == ["R2", "R3", "R4"]
    assert trick_winner(["R2", "W", "W", "R3"]) == 2


def test_werewolf_after_the_knife_is_1_of_the_trump_suit() -> None:
    assert effective(["C5", "K", "W"]) == ["C5", "R0", "R1"]
    assert trick_winner(["C5", "K", "W"]) == 2


def test_werewolf_after_the_seer_is_1_of_the_leading_suit() -> None:
    assert effective(["C5", "S", "W", "C9"]) == ["C5", "C0", "C1", "C9"]
    assert trick_winner(["C5", "S", "W", "C9"]) == 3


def test_werewolf_after_the_traitor_is_17_of_the_leading_suit() -> None:
    assert effective(["C4", "T", "W"]) == ["C4", "C16", "C17"]
    assert trick_winner(["C4", "T", "W"]) == 2
    # still the weaker suit: any trump beats it
    assert trick_winner(["R13", "T", "W", "C12"]) == 3


def test_special_cards_before_the_first_normal_card_take_its_suit() -> None:
    assert effective(["K", "C3", "R2"]) == ["R0", "C3", "R2"]
    assert trick_winner(["K", "C3", "R2"]) == 2
    assert effective(["T", "K", "R8"]) == ["R16", "C0", "R8"]
    assert trick_winner(["T", "K", "R8"]) == 1


def test_a_trick_of_special_cards_only_has_a_weak_leading_and_a_strong_trump_suit() -> None:
    assert effective(["W", "T", "K"]) == [
        "16 of the trump suit",
        "16 of the lead suit",
        "0 of the trump suit",
    ]
    assert trick_winner(["W", "T", "K"]) == 0
    assert trick_winner(["T", "K"]) == 1


def test_of_equal_cards_the_later_one_wins() -> None:
    assert effective(["C2", "K", "K", "C1"]) == ["C2", "R0", "R0", "C1"]
    assert trick_winner(["C2", "K", "K", "C1"]) == 2
    assert trick_winner(["K", "K"]) == 1


def test_the_seer_without_a_werewolf_in_the_trick_is_16_of_the_trump_suit() -> None:
    assert effective(["C3", "S", "R15"]) == ["C3", "R16", "R15"]
    assert trick_winner(["C3", "S", "R15"]) == 1


def test_the_seer_with_a_werewolf_anywhere_in_the_trick_is_0_of_the_leading_suit() -> None:
    # the Werewolf comes after the Seer
    assert effective(["S", "C3", "W", "R1"]) == ["C0", "C3", "C4", "R1"]
    assert trick_winner(["S", "C3", "W", "R1"]) == 3
    # the Werewolf comes before the Seer
    assert effective(["W", "S", "C2"]) == ["R16", "C0", "C2"]
    assert trick_winner(["W", "S", "C2"]) == 0


def test_a_trick_cannot_hold_a_card_twice() -> None:
    with pytest.raises(ParseError, match="R7"):
        trick_winner(["R7", "C1", "R7"])
    with pytest.raises(ParseError):
        trick_winner(["W", "W", "W"])


# -- the deck, the deal and the roles ------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "deck_size", "hand", "undealt"), [(3, 28, 9, 1), (4, 36, 9, 0), (5, 36, 7, 1)]
)
def test_deck_and_hand_sizes_follow_the_table(
    players: int, deck_size: int, hand: int, undealt: int
) -> None:
    assert len(deck(players)) == deck_size
    assert hand_size(players) == hand
    state = rh.setup(rh.Config(players=players), seed=7)
    seen = rh.view(state, OMNISCIENT)
    assert [len(h) for h in seen["hands"]] == [hand] * players
    assert (seen["undealt"] is not None) == bool(undealt)
    assert seen["undealt_cards"] == undealt
    assert players * hand + undealt == deck_size


@pytest.mark.parametrize("players", [3, 4, 5])
def test_a_deal_is_the_fisher_yates_shuffle_of_three_draws_of_the_seeded_generator(
    players: int,
) -> None:
    # The deal must deal exactly the hands of a Fisher–Yates shuffle driven by three draws of
    # Rng(seed), and the next deal must start from the generator's state after those draws.
    size = hand_size(players)
    for seed in [*range(50), -1, 2**64 + 3, 2**70 - 1]:
        rng = Rng(seed)
        cards = list(deck(players))
        x = (rng.next64() << 128) | (rng.next64() << 64) | rng.next64()
        x %= math.factorial(len(cards))
        for i in range(len(cards) - 1, 0, -1):
            x, j = divmod(x, i + 1)
            cards[i], cards[j] = cards[j], cards[i]
        hands = tuple(tuple(sorted(cards[s * size : (s + 1) * size])) for s in range(players))
        state = rh.setup(rh.Config(players=players), seed)
        assert state.dealt == hands
        assert state.undealt == (cards[-1] if len(cards) > players * size else None)
        assert state.rng == rng.state


def test_three_players_leave_out_ranks_13_to_15_one_werewolf_and_the_seer() -> None:
    cards = [str(card) for card in deck(3)]
    assert "C13" not in cards and "R15" not in cards and "S" not in cards
    assert cards.count("W") == 1 and cards.count("K") == 2 and "T" in cards
    assert "C12" in cards and "R12" in cards


def test_whoever_holds_a_werewolf_is_a_werewolf_else_the_traitor_holder_is_the_traitor() -> None:
    hands = [
        ["W", "C1", "C2", "C3", "C4", "C5", "C6", "C7", "C8"],
        ["T", "C9", "C10", "C11", "C12", "C13", "C14", "C15", "R1"],
        ["W", "R2", "R3", "R4", "R5", "R6", "R7", "R8", "R9"],
        ["S", "K", "K", "R10", "R11", "R12", "R13", "R14", "R15"],
    ]
    state = table(hands)
    roles = rh.view(state, OMNISCIENT)["roles"]
    assert roles == ["werewolf", "traitor", "werewolf", "robber"]
    assert [rh.view(state, Viewer.of(s))["team"] for s in range(4)] == [
        "werewolves",
        "werewolves",
        "werewolves",
        "robbers",
    ]


def test_a_hand_with_a_werewolf_and_the_traitor_is_a_werewolf_and_there_is_no_traitor() -> None:
    hands = [
        ["W", "T", "C1", "C2", "C3", "C4", "C5", "C6", "C7"],
        ["C8", "C9", "C10", "C11", "C12", "C13", "C14", "C15", "R1"],
        ["W", "R2", "R3", "R4", "R5", "R6", "R7", "R8", "R9"],
        ["S", "K", "K", "R10", "R11", "R12", "R13", "R14", "R15"],
    ]
    roles = rh.view(table(hands), OMNISCIENT)["roles"]
    assert roles == ["werewolf", "robber", "werewolf", "robber"]


# -- play ----------------------------------------------------------------------------------

HANDS_3 = [
    ["C1", "C4", "C7", "C10", "R1", "R4", "R7", "R10", "W"],
    ["C2", "C5", "C8", "C11", "R2", "R5", "R8", "R11", "K"],
    ["C3", "C6", "C9", "C12", "R3", "R6", "R9", "R12", "K"],
]


def test_the_player_left_of_the_dealer_leads_the_first_trick() -> None:
    state = rh.setup(rh.Config(players=4, first_dealer=2), seed=3)
    assert rh.actors(state) == frozenset({3})
    assert rh.view(state, SPECTATOR)["turn"] == 3
    assert rh.view(state, SPECTATOR)["dealer"] == 2


def test_play_goes_clockwise_and_no_one_must_follow_suit() -> None:
    state = table(HANDS_3, undealt="T")
    assert state.turn == 1
    state, _ = play(state, "C2")
    assert state.turn == 2
    legal = {str(a) for a in rh.legal_actions(state, 2)}
    assert legal == {f"play {c}" for c in set(HANDS_3[2])}


def test_the_winner_takes_the_trick_face_down_and_leads_the_next() -> None:
    state = table(HANDS_3, undealt="T")
    state, events = play(state, "C2", "R3", "C1")
    assert state.turn == 2
    view = rh.view(state, Viewer.of(0))
    assert view["piles"] == [0, 0, 3]
    assert view["tricks_won"] == [0, 0, 1]
    assert view["last_trick"]["winner"] == 2
    assert [c["card"] for c in view["last_trick"]["cards"]] == ["C2", "R3", "C1"]
    trick = next(e for e in events if e.type == "trick")
    assert trick.data["winner"] == 2 and trick.data["effective"] == ["C2", "R3", "C1"]
    assert trick.text == "Trick 1, chests led, robbers trump: seat 2 takes it with R3."


def test_the_last_trick_is_hidden_when_the_option_is_off() -> None:
    state = table(HANDS_3, undealt="T", show_last_trick=False)
    state, _ = play(state, "C2", "R3", "C1")
    assert "last_trick" not in rh.view(state, Viewer.of(0))


def test_playing_a_werewolf_places_a_werewolf_chip_that_everyone_sees() -> None:
    state = table(HANDS_3, undealt="T")
    state, _ = play(state, "C2", "R3")
    assert rh.view(state, SPECTATOR)["chips"] == {"werewolf": [], "traitor": None}
    state, events = play(state, "W")
    assert rh.view(state, SPECTATOR)["chips"] == {"werewolf": [0], "traitor": None}
    assert any(e.type == "chip" and e.data["seat"] == 0 for e in events)


def test_playing_the_traitor_places_the_traitor_chip() -> None:
    hands = [
        ["T", "C4", "C7", "C10", "R1", "R4", "R7", "R10", "C1"],
        ["C2", "C5", "C8", "C11", "R2", "R5", "R8", "R11", "K"],
        ["C3", "C6", "C9", "C12", "R3", "R6", "R9", "R12", "K"],
    ]
    state = table(hands, undealt="W")
    state, _ = play(state, "C2", "C3", "T")
    assert rh.view(state, SPECTATOR)["chips"] == {"werewolf": [], "traitor": 0}


def test_the_current_trick_shows_each_cards_effective_suit_and_rank_as_far_as_known() -> None:
    state = table(HANDS_3, undealt="T")
    state, _ = play(state, "K")
    cards = rh.view(state, SPECTATOR)["trick"]["cards"]
    assert (cards[0]["suit"], cards[0]["rank"]) == ("trump", 0)
    state, _ = play(state, "C3")
    cards = rh.view(state, SPECTATOR)["trick"]["cards"]
    assert [(c["card"], c["suit"], c["rank"]) for c in cards] == [("K", "R", 0), ("C3", "C", 3)]


def test_every_trick_of_a_played_deal_goes_to_the_card_trick_winner_names() -> None:
    """Play resolves tricks on a fast path of its own; it must take the rule's winner."""
    import random

    tricks = 0
    for players in (3, 4, 5):
        config = rh.Config(players=players, deals=1)
        for seed in range(150):
            state, chooser = rh.setup(config, seed), random.Random(seed)
            while rh.outcome(state) is None:
                seat = state.turn
                legal = rh.legal_actions(state, seat)
                state, events = rh.apply(state, seat, chooser.choice(legal))
                for e in events:
                    if e.type == "trick":
                        cards, leader = e.data["cards"], e.data["leader"]
                        winner = (leader + trick_winner(cards)) % players
                        assert e.data["winner"] == winner, (cards, leader)
                        tricks += 1
    assert tricks > 3000


def test_a_seer_before_any_werewolf_is_unknown_until_the_trick_is_complete() -> None:
    hands = [
        ["W", "C1", "C2", "C3", "C4", "C5", "C6", "C7", "C8"],
        ["C9", "C10", "C11", "C12", "C13", "C14", "C15", "R1", "R2"],
        ["R3", "R4", "R5", "R6", "R7", "R8", "R9", "R10", "R11"],
        ["S", "R12", "R13", "R14", "R15", "K", "K", "T", "W"],
    ]
    state, _ = play(table(hands), "C9", "R3", "S")
    seer = rh.view(state, SPECTATOR)["trick"]["cards"][-1]
    assert (seer["card"], seer["suit"], seer["rank"]) == ("S", None, None)
    state, _ = play(state, "W")
    # the trick is complete with a Werewolf in it: the Seer is 0 of the leading suit
    last = rh.view(state, SPECTATOR)["last_trick"]
    assert [(c["card"], c["suit"], c["rank"]) for c in last["cards"]] == [
        ("C9", "C", 9),
        ("R3", "R", 3),
        ("S", "C", 0),
        ("W", "C", 1),
    ]
    assert last["winner"] == 2


def test_only_the_seat_to_play_may_play_and_only_cards_from_its_hand() -> None:
    state = table(HANDS_3, undealt="T")
    with pytest.raises(NotYourTurn):
        rh.apply(state, 0, Action("play", ("C1",)))
    with pytest.raises(IllegalAction, match="play C2"):
        rh.apply(state, 1, Action("play", ("C1",)))
    with pytest.raises(IllegalAction):
        rh.apply(state, None, Action("play", ("C2",)))


def test_your_hand_is_yours_alone_and_the_undealt_card_stays_hidden() -> None:
    state = table(HANDS_3, undealt="T")
    mine = rh.view(state, Viewer.of(0))
    assert sorted(mine["hand"]) == sorted(HANDS_3[0])
    assert mine["role"] == "werewolf"
    text = json.dumps(mine)
    assert '"hands"' not in text and '"undealt"' not in text and '"roles"' not in text
    assert "R12" not in text  # seat 2's card
    table_view = json.dumps(rh.view(state, SPECTATOR))
    assert '"hand"' not in table_view and '"role"' not in table_view


# -- scoring ---------------------------------------------------------------------------------

ROBBER = ["C1"]
WEREWOLF = ["W"]
TRAITOR = ["T"]


def test_the_icons_table_defaults_to_16_minus_rank_divided_by_3() -> None:
    assert rh.DEFAULT_ICONS == (5, 4, 4, 4, 3, 3, 3, 2, 2, 2, 1, 1, 1, 0, 0)
    assert rh.Config().icons == rh.DEFAULT_ICONS


def test_a_robber_scores_chest_icons_and_a_werewolf_robber_icons() -> None:
    result = score([ROBBER, WEREWOLF, ROBBER], [["C1", "R1"], ["R5", "C2"], []])
    assert [s.points for s in result.seats] == [5, 3, 0]


def test_a_robber_who_takes_a_werewolf_halves_the_chest_points_rounded_down() -> None:
    result = score([ROBBER, WEREWOLF, ROBBER], [["C1", "C2", "W"], ["R5"], ["K"]])
    robber = result.seats[0]
    assert (robber.icons, robber.halved, robber.points) == (9, True, 4)
    assert result.seats[1].points == 3  # the Knife went elsewhere


def test_a_werewolf_who_takes_a_knife_halves_the_robber_points_rounded_down() -> None:
    result = score([ROBBER, WEREWOLF, ROBBER], [["W"], ["R1", "R5", "K", "C1"], []])
    werewolf = result.seats[1]
    assert (werewolf.icons, werewolf.halved, werewolf.points) == (8, True, 4)
    assert result.seats[0].points == 0  # a Werewolf card halves nothing of zero


def test_the_traitor_scores_chest_icons_for_the_werewolf_team() -> None:
    result = score([ROBBER, TRAITOR, WEREWOLF], [["C2"], ["C1", "W"], ["R1"]])
    assert [s.points for s in result.seats] == [4, 2, 5]
    assert result.werewolf_sum == 7 and result.robber_sum == 4


def test_team_totals_are_multiplied_by_the_size_of_the_other_team() -> None:
    result = score(
        [ROBBER, ROBBER, WEREWOLF, TRAITOR], [["C1"], ["C5"], ["R2"], ["C12"]]
    )  # robbers 5 + 3, werewolf team 4 + 1
    assert (result.robber_sum, result.robber_multiplier, result.robber_total) == (8, 2, 16)
    assert (result.werewolf_sum, result.werewolf_multiplier, result.werewolf_total) == (5, 2, 10)
    assert result.winner is rh.Team.ROBBERS
    result = score([ROBBER, ROBBER, ROBBER, WEREWOLF], [["C1"], ["C5"], [], ["R1", "R2"]])
    assert (result.robber_total, result.werewolf_total) == (8 * 1, 9 * 3)
    assert result.winner is rh.Team.WEREWOLVES
    assert result.points_after == (0, 0, 0, 1)


def test_a_tied_deal_has_no_winner_and_scores_no_game_points() -> None:
    result = score([ROBBER, WEREWOLF, ROBBER], [["C2", "C3"], ["R2"], []])
    assert (result.robber_total, result.werewolf_total) == (8, 8)
    assert result.winner is None
    assert result.points_after == (0, 0, 0)


def test_the_icons_table_is_configurable() -> None:
    icons = tuple(range(1, 16))
    result = score([ROBBER, WEREWOLF, ROBBER], [["C15"], ["R3"], []], icons=icons)
    assert [s.points for s in result.seats] == [15, 3, 0]


# -- a whole deal and a whole match ---------------------------------------------------------


def random_match(config: rh.Config, seed: int) -> tuple[rh.State, list[Event]]:
    rng = Rng(seed)
    state = rh.setup(config, seed)
    events: list[Event] = []
    while rh.outcome(state) is None:
        legal = rh.legal_actions(state, state.turn)
        state, more = rh.apply(state, state.turn, legal[rng.below(len(legal))])
        events += more
    return state, events


def test_a_deal_is_scored_with_every_step_of_the_arithmetic_shown() -> None:
    state, events = table(HANDS_3, undealt="T", deals=1), []
    while rh.outcome(state) is None:
        state, more = rh.apply(state, state.turn, rh.legal_actions(state, state.turn)[0])
        events += more
    scored = next(e for e in events if e.type == "score")
    data = scored.to_json()
    assert data["undealt"] == "T"
    assert data["hands_dealt"] == [sorted(h, key=lambda c: Card(c).order) for h in HANDS_3]
    steps = data["steps"]
    assert len(steps) == 3 + 3
    assert steps[0].startswith("Seat 0, Werewolf: robber icons")
    assert "× 2 robber-team players" in steps[4]
    robbers = data["robbers"]
    assert robbers["total"] == robbers["sum"] * robbers["multiplier"]
    assert sum(len(s["pile"]) for s in data["seats"]) == 27
    for seat in data["seats"]:
        assert seat["points"] == (seat["icons"] // 2 if seat["halved"] else seat["icons"])


def test_a_match_is_as_many_deals_as_players_and_the_deal_passes_left() -> None:
    state, events = random_match(rh.Config(players=5, first_dealer=3), seed=11)
    deals = [e.data for e in events if e.type == "deal"]
    assert [d["dealer"] for d in deals] == [4, 0, 1, 2]  # the first deal happened in setup
    scored = [e.to_json() for e in events if e.type == "score"]
    assert [s["dealer"] for s in scored] == [3, 4, 0, 1, 2]
    outcome = rh.outcome(state)
    assert outcome is not None and outcome.rounds == 5
    with pytest.raises(MatchOver):
        rh.apply(state, 0, Action("play", ("C1",)))


def test_each_member_of_the_winning_team_scores_one_game_point() -> None:
    state, events = random_match(rh.Config(players=4), seed=5)
    points = [0, 0, 0, 0]
    for scored in (e.to_json() for e in events if e.type == "score"):
        for seat in scored["seats"]:
            if scored["winner"] == seat["team"]:
                points[seat["seat"]] += 1
        assert scored["game_points"] == points
    assert rh.view(state, SPECTATOR)["points"] == points


def test_the_highest_total_wins_and_ties_share_the_win() -> None:
    assert ranking((2, 3, 3, 1)) == [
        {"place": 1, "seat": 1, "points": 3},
        {"place": 1, "seat": 2, "points": 3},
        {"place": 3, "seat": 0, "points": 2},
        {"place": 4, "seat": 3, "points": 1},
    ]
    for seed in range(20):
        state, _ = random_match(rh.Config(players=3), seed)
        outcome = rh.outcome(state)
        assert outcome is not None
        points = rh.view(state, SPECTATOR)["points"]
        assert outcome.winners == {s for s, p in enumerate(points) if p == max(points)}


def test_the_game_is_registered_as_robbers_horror() -> None:
    assert get("robbers-horror") is rh


def test_a_bad_config_says_what_is_allowed() -> None:
    from wolfden.engine.errors import ConfigError

    with pytest.raises(ConfigError, match="3, 4 or 5"):
        rh.setup(rh.Config(players=6), 1)
    with pytest.raises(ConfigError, match="15 whole numbers"):
        rh.setup(rh.Config(icons=(1, 2)), 1)
    with pytest.raises(ConfigError, match="first_dealer"):
        rh.setup(rh.Config(players=3, first_dealer=3), 1)

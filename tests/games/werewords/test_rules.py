"""Werewords, rule by rule: each test is named after the rule it checks."""

from __future__ import annotations

import dataclasses
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wolfden.engine.errors import ConfigError, IllegalAction, NotYourTurn
from wolfden.engine.rng import Rng
from wolfden.engine.types import OMNISCIENT, SPECTATOR, TABLE, Action, Viewer
from wolfden.games import werewords as game
from wolfden.games.werewords import rules
from wolfden.games.werewords.config import Config, Difficulty, Mode, Role
from wolfden.games.werewords.state import Phase, State

from .conftest import R, notes, play, rigged, run, through_night, until_step

SIX = (R.VILLAGER, R.SEER, R.WEREWOLF, R.VILLAGER, R.VILLAGER, R.VILLAGER)


def day_of(config: Config, mayor: int, cards: tuple[Role, ...]) -> game.State:
    return through_night(rigged(config, mayor, cards))


def spoken_day(config: Config, mayor: int, cards: tuple[Role, ...]) -> game.State:
    """A day with spoken questions only: the Mayor gives tokens whenever asked aloud."""
    return day_of(dataclasses.replace(config, typed_questions=False), mayor, cards)


# -- setup ------------------------------------------------------------------------------


def test_cards_are_one_more_than_players_with_the_seeds_werewolf_counts() -> None:
    for players in range(3, 21):
        cards = Config(players=players).role_cards()
        assert len(cards) + 1 == players + 1 + 0 or len(cards) == players
        wolves = cards.count(R.WEREWOLF)
        assert wolves == (1 if players <= 6 else 2 if players <= 11 else 3)
        assert cards.count(R.SEER) == 1
    assert Config(players=3).role_cards() == (R.SEER, R.WEREWOLF, R.VILLAGER)


def test_the_mayor_card_holder_is_mayor_and_takes_the_centre_card() -> None:
    config = Config(players=5)
    for seed in range(20):
        deck = [None, *config.role_cards()]
        Rng(seed).shuffle(deck)
        if deck[5] is None:
            continue
        mayor, cards = rules.deal(config, Rng(seed), None)
        assert deck[mayor] is None
        assert cards[mayor] is deck[5]
        assert all(cards[s] is deck[s] for s in range(5) if s != mayor)


def _seed_with_mayor_card_in_centre(config: Config) -> int:
    n = config.players
    for seed in range(10_000):
        deck = [None, *config.role_cards()]
        Rng(seed).shuffle(deck)
        if deck[n] is None:
            return seed
    raise AssertionError("no such seed")


def test_mayor_card_in_the_centre_goes_to_the_player_left_of_the_last_mayor() -> None:
    config = Config(players=6)
    seed = _seed_with_mayor_card_in_centre(config)
    deck = [None, *config.role_cards()]
    Rng(seed).shuffle(deck)
    mayor, cards = rules.deal(config, Rng(seed), last_mayor=3)
    assert mayor == 4
    assert cards == tuple(deck[:6])  # the new Mayor keeps their own card as secret role
    mayor, _ = rules.deal(config, Rng(seed), last_mayor=5)
    assert mayor == 0  # round the table


def test_mayor_card_in_the_centre_in_a_first_game_redeals() -> None:
    config = Config(players=6)
    seed = _seed_with_mayor_card_in_centre(config)
    rng = Rng(seed)
    deck = [None, *config.role_cards()]
    rng.shuffle(deck)
    while deck[6] is None:
        rng.shuffle(deck)
    mayor, cards = rules.deal(config, Rng(seed), last_mayor=None)
    assert deck[mayor] is None and cards[mayor] is deck[6]


def test_every_player_sees_their_own_card_and_everyone_sees_the_mayor() -> None:
    state = game.setup(Config(), 3)
    for seat in range(6):
        view = game.view(state, Viewer.of(seat))
        assert view["you"]["role"] == state.cards[seat].value
        assert view["mayor"] == state.mayor
    assert "you" not in game.view(state, TABLE)
    assert game.view(state, TABLE)["revealed"] == {}


# -- role sets ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"roles": (R.VILLAGER, R.WEREWOLF, R.VILLAGER, R.VILLAGER)}, "Seer or a Fortune Teller"),
        ({"roles": (R.SEER, R.VILLAGER, R.VILLAGER, R.VILLAGER)}, "at least one Werewolf"),
        ({"roles": (R.SEER, R.WEREWOLF, R.WEREWOLF, R.MINION)}, "must outnumber"),
        ({"roles": (R.SEER, R.WEREWOLF, R.MASON, R.VILLAGER)}, "Masons come as a pair"),
        ({"roles": (R.SEER, R.SEER, R.WEREWOLF, R.VILLAGER)}, "at most one Seer"),
        ({"roles": (R.SEER, R.WEREWOLF, R.VILLAGER)}, "3 role cards given, but 4 players"),
        ({"roles": (R.FORTUNE_TELLER, R.APPRENTICE, R.WEREWOLF, R.VILLAGER)}, "needs a Seer"),
        ({"deluxe": (R.MINION, R.THING, R.BEHOLDER)}, "do not fit"),
        ({"deluxe": (R.WEREWOLF,)}, "not a Deluxe role"),
        (
            {"deluxe": (R.MINION,), "roles": (R.SEER, R.WEREWOLF, R.VILLAGER, R.VILLAGER)},
            "not both",
        ),
    ],
)
def test_role_set_validation_names_the_broken_constraint(kwargs: dict, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        Config(players=4, **kwargs).validate()


def test_deluxe_roles_replace_villagers() -> None:
    cards = Config(players=8, deluxe=(R.MINION, R.BEHOLDER)).role_cards()
    assert sorted(r.value for r in cards) == sorted(
        ["seer", "werewolf", "werewolf", "minion", "beholder", "villager", "villager", "villager"]
    )


def test_other_options_are_checked_with_what_is_allowed() -> None:
    with pytest.raises(ConfigError, match="use 3 to 20"):
        Config(players=21).validate()
    with pytest.raises(ConfigError, match="word_choices: 6 is not allowed; use 1 to 5"):
        Config(word_choices=6).validate()
    with pytest.raises(ConfigError, match="last_mayor: seat 9 does not exist"):
        Config(last_mayor=9).validate()
    with pytest.raises(ConfigError, match="words_easy: word 2"):
        Config(words_easy=("fine", "<b>bold</b>")).validate()


# -- night -------------------------------------------------------------------------------


def test_the_night_calls_every_role_in_the_ruled_order() -> None:
    config = Config(
        players=10,
        roles=(
            R.DOPPELGANGER,
            R.SEER,
            R.FORTUNE_TELLER,
            R.APPRENTICE,
            R.WEREWOLF,
            R.WEREWOLF,
            R.MINION,
            R.MASON,
            R.MASON,
            R.BEHOLDER,
        ),
    )
    assert [s.value for s in rules.night_steps(config)] == [
        "doppelganger",
        "mayor_word",
        "mayor_confirm",
        "seer",
        "fortune_teller",
        "apprentice",
        "werewolves",
        "minion",
        "masons",
        "beholder",
    ]
    config = Config(players=5, deluxe=(R.THING,), mode=Mode.COMPANION)
    assert [s.value for s in rules.night_steps(config)] == [
        "mayor_role",
        "mayor_word",
        "mayor_confirm",
        "seer",
        "werewolves",
        "thing",
    ]


def test_the_mayor_chooses_among_n_words_and_sees_the_choice_to_confirm() -> None:
    config = Config(word_choices=3)
    state = rigged(config, 0, SIX)
    choices = game.view(state, Viewer.of(0))["you"]["choices"]
    assert len(choices) == 3 and len({c.casefold() for c in choices}) == 3
    assert "choices" not in game.view(state, Viewer.of(1))["you"]
    state, _ = play(state, 0, "choose 2")
    assert game.view(state, Viewer.of(0))["step"] == "mayor_confirm"
    assert game.view(state, Viewer.of(0))["word"] == choices[2]
    state, _ = play(state, 0, "back")
    assert game.view(state, Viewer.of(0))["you"]["choices"] == choices
    state = run(state, (0, "choose 1"), (0, "confirm"))
    assert state.word == choices[1]


def test_easier_words_for_a_seer_mayor() -> None:
    pools = {"words_easy": ("apple", "pear"), "words_medium": ("walrus", "giraffe")}
    seer_mayor = (R.SEER, R.VILLAGER, R.WEREWOLF, R.VILLAGER, R.VILLAGER, R.VILLAGER)
    state = rigged(Config(**pools), 0, seer_mayor)
    assert set(state.candidates) == {"apple", "pear"}
    state = rigged(Config(**pools), 0, SIX)
    assert set(state.candidates) == {"walrus", "giraffe"}
    state = rigged(Config(easier_for_seer_mayor=False, **pools), 0, seer_mayor)
    assert set(state.candidates) == {"walrus", "giraffe"}


def test_easier_words_for_a_fortune_teller_mayor() -> None:
    config = Config(
        players=4,
        roles=(R.FORTUNE_TELLER, R.WEREWOLF, R.VILLAGER, R.VILLAGER),
        words_easy=("cat",),
        words_medium=("giraffe",),
        word_choices=1,
    )
    state = rigged(config, 1, (R.WEREWOLF, R.FORTUNE_TELLER, R.VILLAGER, R.VILLAGER))
    assert state.candidates == ("cat",)


def test_the_seer_and_the_werewolves_learn_the_word_and_the_werewolves_each_other() -> None:
    config = Config(players=7, words_medium=("lighthouse",), word_choices=1)
    cards = (R.VILLAGER, R.SEER, R.WEREWOLF, R.WEREWOLF, R.VILLAGER, R.VILLAGER, R.VILLAGER)
    state = through_night(rigged(config, 0, cards))
    assert notes(state, 1) == {"word": "lighthouse"}
    assert notes(state, 2) == {"werewolves": [3], "word": "lighthouse"}
    assert notes(state, 3) == {"werewolves": [2], "word": "lighthouse"}
    for seat in (4, 5, 6):
        assert notes(state, seat) == {}
        assert game.view(state, Viewer.of(seat))["word"] is None


def test_fortune_teller_sees_the_first_letters_of_each_word() -> None:
    roles = (R.FORTUNE_TELLER, R.WEREWOLF, R.VILLAGER, R.VILLAGER, R.VILLAGER)
    config = Config(players=5, roles=roles, words_medium=("ice cream",), word_choices=1)
    state = through_night(rigged(config, 0, (R.VILLAGER, R.FORTUNE_TELLER, *roles[1:4])))
    assert notes(state, 1) == {"letters": "i c"}
    assert game.view(state, Viewer.of(1))["word"] is None
    config = Config(**{**config.__dict__, "fortune_teller_letters": 2})
    state = through_night(rigged(config, 0, (R.VILLAGER, R.FORTUNE_TELLER, *roles[1:4])))
    assert notes(state, 1) == {"letters": "ic cr"}


APPRENTICE_SET = (R.SEER, R.APPRENTICE, R.WEREWOLF, R.VILLAGER, R.VILLAGER)


def test_apprentice_sees_the_word_when_the_mayor_is_the_seer() -> None:
    config = Config(players=5, roles=APPRENTICE_SET, words_easy=("kite",), word_choices=1)
    state = through_night(
        rigged(config, 0, (R.SEER, R.APPRENTICE, R.WEREWOLF, R.VILLAGER, R.VILLAGER))
    )
    assert notes(state, 1) == {"mayor_is_seer": True, "word": "kite"}


def test_apprentice_is_a_villager_when_the_mayor_is_not_the_seer() -> None:
    config = Config(players=5, roles=APPRENTICE_SET)
    state = through_night(
        rigged(config, 0, (R.VILLAGER, R.APPRENTICE, R.WEREWOLF, R.SEER, R.VILLAGER))
    )
    assert notes(state, 1) == {"mayor_is_seer": False}
    assert game.view(state, Viewer.of(1))["word"] is None


def test_minion_sees_the_werewolves_but_not_the_word() -> None:
    roles = (R.SEER, R.WEREWOLF, R.WEREWOLF, R.MINION, R.VILLAGER, R.VILLAGER, R.VILLAGER)
    config = Config(players=7, roles=roles)
    cards = (R.VILLAGER, R.MINION, R.WEREWOLF, R.SEER, R.WEREWOLF, R.VILLAGER, R.VILLAGER)
    state = through_night(rigged(config, 0, cards))
    assert notes(state, 1) == {"werewolves": [2, 4]}
    assert game.view(state, Viewer.of(1))["word"] is None
    assert 1 not in notes(state, 2)["werewolves"]  # the Werewolves do not see the Minion


def test_masons_see_each_other() -> None:
    roles = (R.SEER, R.WEREWOLF, R.MASON, R.MASON, R.VILLAGER)
    state = through_night(
        rigged(
            Config(players=5, roles=roles), 4, (R.SEER, R.WEREWOLF, R.MASON, R.VILLAGER, R.MASON)
        )
    )
    assert notes(state, 2) == {"masons": [4]}
    assert notes(state, 4) == {"masons": [2]}
    assert game.view(state, Viewer.of(2))["word"] is None


def test_beholder_sees_the_seer_the_fortune_teller_and_the_apprentice() -> None:
    roles = (
        R.SEER,
        R.FORTUNE_TELLER,
        R.APPRENTICE,
        R.BEHOLDER,
        R.WEREWOLF,
        R.WEREWOLF,
        R.VILLAGER,
    )
    cards = (R.VILLAGER, R.BEHOLDER, R.SEER, R.WEREWOLF, R.FORTUNE_TELLER, R.APPRENTICE, R.WEREWOLF)
    state = through_night(rigged(Config(players=7, roles=roles), 0, cards))
    assert notes(state, 1) == {"seers": [[2, "seer"], [4, "fortune_teller"], [5, "apprentice"]]}
    assert game.view(state, Viewer.of(1))["word"] is None


def test_thing_bumps_a_neighbour_who_learns_the_thing_is_there() -> None:
    roles = (R.SEER, R.WEREWOLF, R.THING, R.VILLAGER, R.VILLAGER)
    cards = (R.VILLAGER, R.SEER, R.THING, R.WEREWOLF, R.VILLAGER)
    state = until_step(rigged(Config(players=5, roles=roles), 0, cards), "thing")
    assert game.actors(state) == {2}
    state, events = play(state, 2, "bump left")
    assert notes(state, 3)["thing"] == 2
    assert notes(state, 2) == {"bumped": 3}
    assert "thing" not in notes(state, 1)
    assert all(3 not in e.audience.seats or e.type == "learn" for e in events)
    state = until_step(rigged(Config(players=5, roles=roles), 0, cards), "thing")
    state, _ = play(state, 2, "bump right")
    assert notes(state, 1) == {"thing": 2, "word": state.word}


def test_doppelganger_becomes_the_role_it_looks_at() -> None:
    roles = (R.SEER, R.WEREWOLF, R.DOPPELGANGER, R.VILLAGER, R.VILLAGER)
    cards = (R.VILLAGER, R.DOPPELGANGER, R.WEREWOLF, R.SEER, R.VILLAGER)
    state = rigged(
        Config(players=5, roles=roles, words_medium=("moose",), word_choices=1), 0, cards
    )
    assert game.view(state, Viewer.of(0))["step"] == "doppelganger"
    assert Action.parse("copy 0") not in game.legal_actions(state, 1)  # not the Mayor
    state, _ = play(state, 1, "copy 2")
    state = through_night(state)
    assert notes(state, 1) == {"copied": [2, "werewolf"], "werewolves": [2], "word": "moose"}
    assert notes(state, 2)["werewolves"] == [1]
    assert game.view(state, Viewer.of(1))["you"] | {} == {
        **game.view(state, Viewer.of(1))["you"],
        "role": "doppelganger",
        "role_now": "werewolf",
    }


# -- day ---------------------------------------------------------------------------------


def test_a_typed_question_is_answered_with_one_token_to_its_asker() -> None:
    state = day_of(Config(), 0, SIX)
    assert state.phase is Phase.DAY
    assert game.actors(state) == {1, 2, 3, 4, 5}  # the Mayor waits for a question
    state, _ = play(state, 3, 'ask "Is it bigger than a <b>breadbox</b>?"')
    assert game.actors(state) == {0}  # one question at a time
    log = game.view(state, SPECTATOR)["questions"]
    assert log == [
        {
            "id": 0,
            "seat": 3,
            "text": "Is it bigger than a <b>breadbox</b>?",
            "answer": None,
            "form": None,
        }
    ]
    # "The Mayor may not ignore questions": no token goes to anyone else meanwhile.
    assert not [a for a in game.legal_actions(state, 0) if a.name == "give"]
    with pytest.raises(IllegalAction, match="not allowed now"):
        play(state, 0, "give 4 yes")
    with pytest.raises(IllegalAction, match="not allowed now"):
        play(state, 0, "give 3 correct")
    with pytest.raises(NotYourTurn):
        play(state, 4, 'ask "And another?"')  # one question at a time
    state, _ = play(state, 0, "answer 0 yes")
    view = game.view(state, SPECTATOR)
    assert view["questions"][0]["answer"] == "yes"
    assert view["received"][3]["yes"] == 1
    assert view["tokens"]["yes_no"] == 34


def test_a_question_has_at_most_140_characters() -> None:
    state = day_of(Config(), 0, SIX)
    with pytest.raises(IllegalAction, match="1 to 140 characters"):
        play(state, 2, "ask " + json.dumps("x" * 141))
    with pytest.raises(IllegalAction, match="1 to 140 characters"):
        play(state, 2, 'ask "   "')
    with pytest.raises(IllegalAction, match="control characters"):
        game.apply(state, 2, Action("ask", ("bell\x07",)))
    state, _ = play(state, 2, "ask " + json.dumps("y" * 140))
    assert len(state.questions[0].text) == 140


def test_the_tokens_left_are_always_visible() -> None:
    state = spoken_day(Config(maybe_tokens=2), 0, SIX)
    state = run(state, (0, "give 1 maybe"), (0, "give 2 maybe"))
    for viewer in (SPECTATOR, TABLE, Viewer.of(4)):
        assert game.view(state, viewer)["tokens"] == {
            "yes_no": 35,
            "maybe": 0,
            "so_close": 1,
            "way_off": 1,
            "correct": 1,
        }
    assert Action.parse("give 1 maybe") not in game.legal_actions(state, 0)


def test_way_way_off_goes_to_the_table_or_a_player_and_never_replaces_an_answer() -> None:
    state = day_of(Config(way_off_tokens=2), 0, SIX)
    state = run(state, (4, 'ask "Is it alive?"'), (0, "wayoff 4"), (0, "wayoff table"))
    view = game.view(state, SPECTATOR)
    assert view["received"][4]["way_off"] == 1 and view["table_way_off"] == 1
    assert view["questions"][0]["answer"] is None  # still waiting for its answer
    assert Action.parse("answer 0 no") in game.legal_actions(state, 0)


def test_the_last_yes_no_token_ends_the_day() -> None:
    state = spoken_day(Config(yes_no_tokens=2), 0, SIX)
    state, _ = play(state, 0, "give 1 yes")
    assert state.phase is Phase.DAY
    state, events = play(state, 0, "give 2 no")
    assert state.phase is Phase.DISCUSSION
    assert game.view(state, SPECTATOR)["ending"] == {
        "guessed": False,
        "guesser": None,
        "ended_by": "tokens",
    }
    assert any(e.type == "no_more_tokens" for e in events)


def test_the_day_ends_when_its_timer_runs_out() -> None:
    state = day_of(Config(day_seconds=90), 0, SIX)
    deadline = game.deadline(state)
    assert deadline is not None and deadline.seconds == 90
    state, _ = game.apply(state, None, deadline.action)
    assert state.phase is Phase.DISCUSSION and state.ended_by == "time"


def test_correct_names_the_guesser_reveals_the_word_and_the_werewolves() -> None:
    config = Config(players=7)
    cards = (R.WEREWOLF, R.SEER, R.WEREWOLF, R.VILLAGER, R.VILLAGER, R.VILLAGER, R.VILLAGER)
    state = spoken_day(config, 0, cards)
    state, _ = play(state, 0, "give 5 correct")
    assert state.phase is Phase.POINTING
    view = game.view(state, Viewer.of(4))
    assert view["ending"]["guesser"] == 5
    assert view["word"] == state.word
    assert view["revealed"] == {"0": "werewolf", "2": "werewolf"}
    # a Werewolf-Mayor points too
    assert game.actors(state) == {0, 2}
    assert game.deadline(state).seconds == 15


def test_the_minion_does_not_point() -> None:
    roles = (R.SEER, R.WEREWOLF, R.MINION, R.VILLAGER, R.VILLAGER)
    state = spoken_day(
        Config(players=5, roles=roles), 0, (R.VILLAGER, R.MINION, R.WEREWOLF, R.SEER, R.VILLAGER)
    )
    state, _ = play(state, 0, "give 3 correct")
    assert game.actors(state) == {2}
    assert "1" not in game.view(state, SPECTATOR)["revealed"]


def test_werewolves_finding_the_seer_win_and_missing_loses() -> None:
    state = spoken_day(Config(), 0, SIX)
    state, _ = play(state, 0, "give 3 correct")
    found, _ = play(state, 2, "point 1")
    assert found.phase is Phase.RESULT and found.result.winning_team == "werewolves"
    missed, _ = play(state, 2, "point 4")
    assert missed.result.winning_team == "village"


def test_a_werewolf_finding_the_apprentice_as_seer_wins() -> None:
    config = Config(players=5, roles=APPRENTICE_SET)
    state = spoken_day(config, 0, (R.SEER, R.APPRENTICE, R.WEREWOLF, R.VILLAGER, R.VILLAGER))
    state, _ = play(state, 0, "give 3 correct")
    state, _ = play(state, 2, "point 1")
    assert state.result.winning_team == "werewolves"
    assert state.result.found == (1,)


def test_finding_the_apprentice_when_the_mayor_is_not_the_seer_is_a_miss() -> None:
    config = Config(players=5, roles=APPRENTICE_SET)
    state = spoken_day(config, 0, (R.VILLAGER, R.APPRENTICE, R.WEREWOLF, R.SEER, R.VILLAGER))
    state, _ = play(state, 0, "give 4 correct")
    state, _ = play(state, 2, "point 1")
    assert state.result.winning_team == "village"


def test_werewolves_finding_the_fortune_teller_win() -> None:
    roles = (R.FORTUNE_TELLER, R.WEREWOLF, R.VILLAGER, R.VILLAGER)
    state = spoken_day(
        Config(players=4, roles=roles), 0, (R.VILLAGER, R.WEREWOLF, R.FORTUNE_TELLER, R.VILLAGER)
    )
    state = run(state, (0, "give 3 correct"), (1, "point 2"))
    assert state.result.winning_team == "werewolves"


def _vote(state: game.State, targets: list[int]) -> game.State:
    state, _ = game.apply(state, None, rules.NEXT)  # the host ends the discussion
    assert state.phase is Phase.VOTING
    for seat, target in enumerate(targets):
        state, _ = play(state, seat, f"vote {target}")
    return state


def _not_guessed(config: Config, cards: tuple[Role, ...]) -> game.State:
    state = day_of(config, 0, cards)
    state, _ = game.apply(state, None, rules.TIME_UP)
    assert state.phase is Phase.DISCUSSION
    assert game.deadline(state).seconds == 60
    return state


def test_naming_the_minion_is_a_miss() -> None:
    roles = (R.SEER, R.WEREWOLF, R.MINION, R.VILLAGER, R.VILLAGER)
    state = _not_guessed(
        Config(players=5, roles=roles), (R.VILLAGER, R.MINION, R.WEREWOLF, R.SEER, R.VILLAGER)
    )
    state = _vote(state, [1, 0, 1, 1, 1])
    assert state.result.winning_team == "werewolves"
    assert game.view(state, SPECTATOR)["result"]["found"] == []


def test_one_vote_each_wins_for_the_werewolves() -> None:
    state = _not_guessed(Config(), SIX)
    state = _vote(state, [1, 2, 3, 4, 5, 0])
    assert state.result.winning_team == "werewolves"
    assert state.result.reason == "every player got one vote"


def test_a_tie_with_a_werewolf_among_the_tied_wins_for_the_village() -> None:
    state = _not_guessed(Config(), SIX)
    state = _vote(state, [2, 2, 1, 1, 2, 1])
    assert state.result.winning_team == "village"
    assert state.result.found == (2,)
    assert game.view(state, SPECTATOR)["revealed"]["1"] == "seer"


def test_the_most_voted_player_not_a_werewolf_wins_for_the_werewolves() -> None:
    state = _not_guessed(Config(), SIX)
    state = _vote(state, [3, 3, 3, 1, 1, 2])
    assert state.result.winning_team == "werewolves"


def test_everyone_ready_opens_the_vote_early() -> None:
    state = _not_guessed(Config(), SIX)
    for seat in range(6):
        assert game.legal_actions(state, seat) == [Action("ready")]
        state, _ = play(state, seat, "ready")
    assert state.phase is Phase.VOTING
    assert Action.parse("vote 0") not in game.legal_actions(state, 0)  # not yourself


def test_whoops_switches_to_the_other_ending() -> None:
    state = day_of(Config(), 0, SIX)
    state, _ = game.apply(state, None, rules.TIME_UP)
    assert state.phase is Phase.DISCUSSION
    assert Action.parse("whoops 4") in game.legal_actions(state, None)
    state, _ = play(state, None, "whoops 4")
    assert state.phase is Phase.POINTING and state.guesser == 4 and state.word_public
    state, _ = play(state, None, "whoops")
    assert state.phase is Phase.DISCUSSION and state.guessed is False
    with pytest.raises(IllegalAction):
        play(state, 2, "point 1")


def test_play_again_starts_a_new_round_with_the_same_players_and_settings() -> None:
    config = Config(players=5, day_seconds=100)
    state = game.setup(config, 11)
    first_mayor = state.mayor
    state = through_night(state)
    state = run(state, (None, "time_up"), (None, "next"))
    while state.phase is Phase.VOTING:
        seat = min(game.actors(state))
        state, _ = game.apply(state, seat, game.legal_actions(state, seat)[0])
    assert state.phase is Phase.RESULT
    assert game.actors(state) == frozenset()
    assert Action.parse("play_again hard") in game.legal_actions(state, None)
    state, _ = play(state, None, "play_again hard")
    assert state.round == 2 and state.phase is Phase.NIGHT
    assert state.difficulty is Difficulty.HARD and state.config is config
    assert state.last_mayor == first_mayor
    assert game.view(state, SPECTATOR)["history"][0]["winning_team"] in ("village", "werewolves")
    state = through_night(state)
    assert game.deadline(state).seconds == 100


def test_finish_ends_the_match_with_an_outcome() -> None:
    state = _vote(_not_guessed(Config(), SIX), [2, 2, 1, 1, 2, 1])
    assert game.deadline(state).seconds == 60
    state, _ = play(state, None, "finish")
    outcome = game.outcome(state)
    assert outcome is not None and outcome.winning_team == "village"
    assert outcome.winners == frozenset({0, 1, 3, 4, 5})
    assert outcome.roles[2] == "werewolf" and outcome.stats["guessed"] is False


# -- timers ------------------------------------------------------------------------------


def test_every_night_step_has_a_deadline_so_the_app_moves_on() -> None:
    state = game.setup(Config(players=8, deluxe=(R.MINION, R.THING, R.DOPPELGANGER)), 5)
    seen = set()
    while state.phase is Phase.NIGHT:
        deadline = game.deadline(state)
        assert deadline is not None
        seen.add(state.night[state.step])
        state, _ = game.apply(state, None, deadline.action)
    assert state.phase is Phase.DAY and state.word is not None
    assert len(seen) == len(state.night)


# -- speedwords --------------------------------------------------------------------------


def test_speedwords_shows_the_pattern_and_the_werewolves_clues_anonymously() -> None:
    config = Config(players=7, speedwords=True, words_medium=("ice-cream cone",), word_choices=1)
    cards = (R.VILLAGER, R.SEER, R.WEREWOLF, R.WEREWOLF, R.VILLAGER, R.VILLAGER, R.VILLAGER)
    state = until_step(rigged(config, 0, cards), "werewolves")
    with pytest.raises(IllegalAction, match="must not contain the Magic Word"):
        play(state, 2, 'clue "icecreamconex"')
    with pytest.raises(IllegalAction, match="one word"):
        play(state, 2, 'clue "two words"')
    state, _ = play(state, 3, 'clue "Zebra"')
    state, _ = play(state, 2, 'clue "apple"')
    state = through_night(state)
    view = game.view(state, Viewer.of(5))
    assert view["pattern"] == "___-_____ ____"
    assert view["clues"] == ["apple", "Zebra"]
    assert view["word"] is None
    assert game.deadline(state).seconds == 120


def _companion_werewolves_step(word: str) -> State:
    config = Config(
        players=6, mode=Mode.COMPANION, speedwords=True, words_medium=(word,), word_choices=1
    )
    state = run(game.setup(config, 3), (2, "claim"), (2, "secret villager"))
    return until_step(state, "werewolves")


def test_the_hosts_sample_clues_do_not_depend_on_the_magic_word() -> None:
    """Issue #20 finding 7: "clue small" vanished from the host's buttons when the word was
    "mall". Whoever holds the host's controls may not know the word."""
    mall = _companion_werewolves_step("mall")
    peach = _companion_werewolves_step("peach")
    assert mall.word == "mall" and peach.word == "peach"
    offered = game.legal_actions(mall, None)
    assert offered == game.legal_actions(peach, None)
    assert Action("clue", ("small",)) in offered
    # The Werewolves, who see the word on the shared screen, are told why it cannot be used.
    with pytest.raises(IllegalAction, match="must not contain the Magic Word"):
        play(mall, None, "clue small")
    state, _ = play(peach, None, "clue small")
    assert state.clues == ("small",)


def test_the_host_is_offered_clues_only_while_a_werewolf_has_one_to_write() -> None:
    state = _companion_werewolves_step("peach")
    wolves = state.config.role_cards().count(R.WEREWOLF)
    for clue in ("big", "old", "new")[:wolves]:
        assert any(a.name == "clue" for a in game.legal_actions(state, None))
        state, _ = play(state, None, f"clue {clue}")
    assert [a.name for a in game.legal_actions(state, None)] == ["next"]


# -- companion mode ----------------------------------------------------------------------


def test_companion_mode_never_deals_and_knows_only_what_is_tapped() -> None:
    config = Config(players=5, mode=Mode.COMPANION, words_medium=("canoe",), word_choices=1)
    state = game.setup(config, 1)
    assert state.phase is Phase.CLAIM_MAYOR and state.cards == (None,) * 5
    assert game.actors(state) == frozenset(range(5))
    state, _ = play(state, 3, "claim")
    assert state.mayor == 3 and game.actors(state) == {3}
    state, _ = play(state, 3, "secret werewolf")
    assert game.view(state, Viewer.of(3))["you"]["role"] == "werewolf"
    assert "role" not in game.view(state, Viewer.of(1))["you"]
    state = run(state, (3, "choose 0"), (3, "confirm"))
    assert game.view(state, TABLE)["screen"] == {"for": "seer", "word": "canoe"}
    assert game.view(state, Viewer.of(1))["word"] is None
    assert game.view(state, SPECTATOR)["word"] is None
    state = through_night(state)
    assert game.view(state, TABLE)["screen"] == {}
    assert game.actors(state) == {3}
    state, _ = play(state, 3, "correct 1")
    assert state.phase is Phase.POINTING and game.actors(state) == frozenset()
    state, _ = game.apply(state, None, rules.TIME_UP)
    assert state.phase is Phase.REPORT
    state, _ = play(state, 3, "found 2")
    assert state.result.winning_team == "werewolves"
    state, _ = play(state, None, "finish")
    outcome = game.outcome(state)
    assert outcome.winning_team == "werewolves" and outcome.roles == {3: "werewolf"}
    assert outcome.winners == frozenset({3})  # the only card the app knows


def test_companion_table_reports_a_werewolf_found_by_the_vote() -> None:
    config = Config(players=4, mode=Mode.COMPANION)
    state = run(game.setup(config, 2), (0, "claim"), (0, "secret villager"))
    state = through_night(state)
    state = run(state, (0, "no_more_tokens"), (None, "time_up"))
    assert state.phase is Phase.REPORT
    state, _ = play(state, 0, "found 2")
    assert state.result.winning_team == "village"


# -- secrets -----------------------------------------------------------------------------


def test_the_magic_word_never_reaches_a_viewer_who_may_not_know_it() -> None:
    from wolfden.bots.werewords import RulesBot
    from wolfden.sim.runner import play_match

    config = Config(
        players=7, deluxe=(R.MINION, R.FORTUNE_TELLER), words_medium=("zanzibar", "quixotic")
    )
    leaks = []

    def check(state, seat, action, events, now):  # type: ignore[no-untyped-def]
        word = state.word
        if word is None or state.word_public:
            return
        for viewer in [SPECTATOR, TABLE, *(Viewer.of(s) for s in range(7))]:
            knows = viewer.seat is not None and (
                viewer.seat == state.mayor
                or any(n.kind == "word" for n in state.notes[viewer.seat])
            )
            if knows:
                continue
            # what players type is their own speech: a Seer may well ask "Is it ...?"
            view = {k: v for k, v in game.view(state, viewer).items() if k != "questions"}
            seen = [
                e for e in game.visible_events(state, events, viewer) if e["type"] != "question"
            ]
            text = json.dumps([view, seen])
            if word in text:
                leaks.append((str(viewer), action))

    for seed in range(15):
        play_match(game, config, seed, {s: RulesBot(s) for s in range(7)}, on_step=check)
    assert leaks == []
    assert json.dumps(game.view(game.setup(config, 1), OMNISCIENT))


def test_rules_bots_play_whole_rounds_unattended() -> None:
    from wolfden.bots.werewords import RulesBot
    from wolfden.sim.runner import play_match

    configs = [c for c in game.sample_configs()]
    teams = set()
    for i in range(30):
        config = configs[i % len(configs)]
        players = {s: RulesBot(s) for s in range(config.players)}
        result = play_match(game, config, i, players)
        assert result.outcome.rounds == 1
        teams.add(result.outcome.winning_team)
    assert teams == {"village", "werewolves"}


def test_a_match_record_replays_to_the_same_end() -> None:
    from wolfden.bots.werewords import RulesBot
    from wolfden.engine.record import MatchRecord, final_state
    from wolfden.sim.runner import play_match

    config = Config(players=8, deluxe=(R.DOPPELGANGER, R.MASON, R.MASON), speedwords=True)
    result = play_match(game, config, 21, {s: RulesBot(s) for s in range(8)})
    record = MatchRecord.from_json(json.loads(result.record.dumps()))
    assert final_state(game, record) == result.state


def test_the_mayors_day_actions_are_checked_exactly_as_listed() -> None:
    state = day_of(Config(maybe_tokens=1, way_off_tokens=1), 0, SIX)
    state = run(state, (2, 'ask "Is it big?"'), (0, "answer 0 no"), (3, 'ask "Is it small?"'))
    candidates = [
        Action(name, args)
        for name in ("answer", "give", "wayoff", "wait", "correct", "nonsense")
        for args in [
            (),
            ("table",),
            (0,),
            (5,),
            (6,),
            (-1,),
            *(
                (a, t)
                for a in (0, 1, 2, 5, 6, "x")
                for t in ("yes", "no", "maybe", "so_close", "correct", "way_off", "bogus")
            ),
        ]
    ]
    for s in (state, run(state, (0, "wayoff 2"))):
        listed = set(game.legal_actions(s, 0))
        for action in candidates:
            if action in listed:
                game.apply(s, 0, action)
            else:
                with pytest.raises(IllegalAction):
                    game.apply(s, 0, action)


def test_players_names_appear_in_the_views_and_the_narration() -> None:
    names = ("Ada", "Bo", "Cy", "Di", "Ed", "Flo")
    state = game.setup(Config(names=names), 4)
    assert [s["name"] for s in game.view(state, SPECTATOR)["seats"]] == list(names)
    assert game.view(game.setup(Config(), 4), TABLE)["seats"][2]["name"] == "Player 3"
    again, events = rules.new_round(
        state.config,
        rng=state.rng,
        seq=state.seq,
        round=state.round,
        difficulty=Difficulty.MEDIUM,
        last_mayor=state.mayor,
        history=(),
    )
    said = [e["text"] for e in game.visible_events(again, events, TABLE) if "text" in e]
    assert f"{names[again.mayor]} holds the Mayor card and is the Mayor." in said
    with pytest.raises(ConfigError, match="5 names for 6 players"):
        Config(names=names[:5]).validate()


@given(st.text(min_size=1, max_size=140).filter(lambda t: t.strip() and t.isprintable()))
@settings(max_examples=60, deadline=None)
def test_any_question_text_is_kept_verbatim_as_data(text: str) -> None:
    action = Action("ask", (text,))
    assert Action.parse(str(action)) == action
    state, events = game.apply(_QUESTION_DAY, 3, action)
    assert state.questions[-1].text == " ".join(text.split())
    assert events[0].data["question"] == " ".join(text.split())


_QUESTION_DAY = day_of(Config(), 0, SIX)

"""The setup syntax: what it deals, and the reasons it gives for what it refuses."""

from __future__ import annotations

import pytest

from wolfden.games import werewolf
from wolfden.games.werewolf.config import Config
from wolfden.games.werewolf.setups import (
    SetupError,
    config_from_setup,
    library,
    parse_setup,
    setup_of,
)


def test_the_issue_example_deals_twelve_cards():
    config = config_from_setup("werewolf=3,seer,witch,hunter,villager=6")
    assert config.players == 12
    assert (config.werewolf_count, config.seer_count, config.guardian_count) == (3, 1, 0)
    assert (config.witches, config.hunters, config.villager_count) == (1, 1, 6)
    dealt = sorted(str(card.role.value) for card in werewolf.setup(config, 5).cards)
    assert dealt.count("werewolf") == 3 and dealt.count("villager") == 6
    assert {"seer", "witch", "hunter"} <= set(dealt) and "guardian" not in dealt


def test_spelling_is_forgiving_and_the_text_canonical():
    setup = parse_setup(" Werewolves = 2 , Seer, village idiot, Villagers=3, sheriff ")
    assert setup.text() == "werewolf=2,seer,village_idiot,villager=3,sheriff"
    assert setup.describe() == "2 Werewolves, Seer, Village Idiot, 3 Villagers, Sheriff"
    assert parse_setup(setup.text()) == setup


def test_a_role_not_named_is_not_dealt():
    config = config_from_setup("werewolf=2,villager=5")
    assert (config.seer_count, config.guardian_count, config.villager_count) == (0, 0, 5)


def test_a_config_round_trips_through_its_setup():
    config = Config(players=11, witches=1, cupids=1, sheriff=True)
    again = setup_of(config).config()
    assert setup_of(again) == setup_of(config)
    assert again.players == 11 and again.witches == 1 and again.sheriff


def test_the_setup_keeps_the_base_options_but_not_names_of_another_table():
    base = Config(players=7, night_seconds=40, names=tuple(f"P{i}" for i in range(7)))
    same = config_from_setup("werewolf=2,seer,guardian,villager=3", base)
    assert same.night_seconds == 40 and same.names == base.names
    bigger = config_from_setup("werewolf=2,seer,guardian,villager=4", base)
    assert bigger.night_seconds == 40 and bigger.names == ()


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "the setup is empty"),
        ("werewolf=2,,villager=5", "empty item"),
        ("wolf=2,villager=5", "unknown role 'wolf'; the roles are werewolf, seer"),
        ("werewolf=two,villager=5", "must be a whole number from 0 to 16"),
        ("werewolf=-1,villager=5", "must be a whole number"),
        ("werewolf=2,werewolf=1,villager=5", "werewolf is named twice"),
        ("werewolf,villager=2", "deals 3 cards: a game needs one card per player, 5 to 16"),
        ("werewolf=4,villager=13", "deals 17 cards"),
        ("werewolf=3,villager=3", "there must be more non-Werewolves than Werewolves"),
        ("seer,guardian,villager=5", "at least one Werewolf"),
        ("werewolf,cupid=2,villager=4", "at most 1 Cupid"),
        ("sheriff=2,werewolf,villager=5", "sheriff takes no count"),
        ("x" * 201, "at most 200 characters"),
    ],
)
def test_refusals_say_what_is_wrong(text, reason):
    with pytest.raises(SetupError) as caught:
        config_from_setup(text)
    assert reason in str(caught.value)


def test_the_library_spans_five_to_sixteen_players_and_every_setup_deals():
    players = []
    for named in library():
        config = config_from_setup(named.setup)
        players.append(config.players)
        werewolf.setup(config, 1)
    assert min(players) == 5 and max(players) == 16
    assert len({named.key for named in library()}) == len(library())


def test_every_built_in_setup_ships_with_its_measured_balance():
    for named in library():
        assert named.balance is not None, f"{named.key}: run wolfden balance --setups"
        figures = named.balance
        assert figures["low"] <= figures["town"] <= figures["high"]
        assert figures["games"] >= 200 and figures["bots"] == "rules"
        assert figures["text"].startswith(f"Town wins {round(100 * figures['town'])} %")

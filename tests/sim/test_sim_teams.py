"""Bots by team: ``--bots TEAM=KIND`` seats each team's bots once the secret deal is made."""

from __future__ import annotations

import re
import types

import pytest
import sim_tinygame as tiny

import wolfden.games
from wolfden.engine.errors import ConfigError
from wolfden.engine.rng import derive_seed
from wolfden.sim import simulate as sim
from wolfden.sim.report import RUN_KEYS, summary
from wolfden.sim.runner import play_match
from wolfden.sim.seating import seat_players

WEREWOLF_TEAM_ROLES = {"werewolf", "traitor"}


class Spy:
    """Wraps a real bot and notes every decision: its kind, its seat and what it saw."""

    def __init__(self, kind, bot, log):
        self.kind, self.bot, self.log = kind, bot, log
        self.needs_view = True

    def act(self, view, legal, rng):
        self.log.append((self.kind, view))
        return self.bot.act(view, legal, rng)


def spying(game, log):
    factories = sim.bot_kinds(game)
    return lambda kind, seat: Spy(kind, factories[kind](seat), log)


def play_by_team(game_id, spec, config=None, seed=1):
    game = wolfden.games.get(game_id)
    config = config or game.Config()
    plan = sim.bot_plan(game, config, spec)
    log = []
    players = seat_players(plan, spying(game, log), game.num_seats(config))
    result = play_match(game, config, seed, players)
    return game, config, result, log


# -- the grammar -------------------------------------------------------------------------


def test_a_star_item_sets_the_bots_for_every_other_seat():
    plan = sim.parse_bots("*=rules,werewolves=random", 7)
    assert plan.default == "rules" and plan.teams == (("werewolves", "random"),)


def test_a_plain_kind_among_items_is_the_same_as_a_star_item():
    assert sim.parse_bots("rules,werewolves=random", 7) == sim.parse_bots(
        "*=rules,werewolves=random", 7
    )


def test_teams_not_named_get_random_bots():
    plan = sim.parse_bots("werewolves=rules", 7)
    assert plan.kinds_for(3, {0: "werewolves", 1: "town", 2: "town"}) == [
        "rules",
        "random",
        "random",
    ]


def test_a_seat_named_by_number_comes_before_its_team():
    plan = sim.parse_bots("werewolves=rules,1=random", 3)
    assert plan.kinds_for(3, {0: "werewolves", 1: "werewolves", 2: "town"}) == [
        "rules",
        "random",
        "random",
    ]


def test_a_seat_chosen_by_the_games_own_flags_comes_before_its_team():
    plan = sim.parse_bots("village=perfect", 2, overrides={1: "young"})
    assert plan.kinds_for(2, {0: "village", 1: "werewolves"}) == ["perfect", "young"]
    plan = sim.parse_bots("werewolves=perfect", 2, overrides={1: "young"})
    assert plan.kinds_for(2, {0: "village", 1: "werewolves"}) == ["random", "young"]


def test_reports_name_the_bots_of_each_team():
    plan = sim.parse_bots("werewolves=rules", 7)
    assert plan.describe(("town", "werewolves")) == "werewolves: rules, others: random"
    plan = sim.parse_bots("werewolves=rules,town=random", 7)
    assert plan.describe(("town", "werewolves")) == "town: random, werewolves: rules"
    assert sim.parse_bots("rules", 7).describe() == "rules (all seats)"


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("werewolves=rules,werewolves=random", "names team 'werewolves' twice"),
        ("1=rules,1=random", "names seat 1 twice"),
        ("rules,*=random", "the other seats twice"),
        ("rules,random,werewolves=rules", "mixes 2 plain kinds"),
        ("rules,,random", "has an empty item"),
        ("werewolves=", "write SEAT=KIND, TEAM=KIND or *=KIND"),
        ("a=b=c", "write SEAT=KIND, TEAM=KIND or *=KIND"),
    ],
)
def test_a_malformed_spec_says_what_is_wrong(spec, message):
    with pytest.raises(ConfigError, match=re.escape(message)):
        sim.parse_bots(spec, 7)


# -- errors name the game's bots and teams ----------------------------------------------


@pytest.mark.parametrize(
    ("game_id", "spec", "message"),
    [
        ("werewolf", "village=rules", "unknown team 'village' for werewolf"),
        ("werewolf", "werewolves=clever", "unknown bot 'clever' for werewolf"),
        ("robbers-horror", "wolves=rules", "unknown team 'wolves' for robbers-horror"),
        ("werwoelfe-kids", "town=perfect", "unknown team 'town' for werwoelfe-kids"),
        ("werewords", "town=rules", "unknown team 'town' for werewords"),
    ],
)
def test_an_unknown_team_or_kind_names_the_games_bots_and_teams(game_id, spec, message):
    game = wolfden.games.get(game_id)
    with pytest.raises(ConfigError) as error:
        sim.bot_plan(game, game.Config(), spec)
    text = str(error.value)
    assert message in text
    assert f"{game_id} has bots {', '.join(sim.bot_kinds(game))}" in text
    assert "teams " + ", ".join(game.team_names(game.Config())) in text
    assert "TEAM=KIND" in text and "\n" not in text


def test_werewords_with_physical_cards_cannot_seat_bots_by_team():
    game = wolfden.games.get("werewords")
    config = game.Config(mode=game.Mode.COMPANION)
    with pytest.raises(ConfigError, match="cannot tell who is on which team; give bots per seat"):
        sim.bot_plan(game, config, "village=rules")
    assert sim.bot_plan(game, config, "0=rules").seats == ((0, "rules"),)


def test_a_game_without_seat_teams_refuses_bots_by_team():
    blind = types.SimpleNamespace(
        **{k: getattr(tiny, k) for k in dir(tiny) if k not in ("seat_teams", "team_names")}
    )
    with pytest.raises(ConfigError, match="give bots per seat"):
        sim.make_plan(blind, tiny.Config(), games=1, seed=1, bots=sim.parse_bots("odds=random", 4))


# -- the right bots at the right seats --------------------------------------------------


def test_werewolf_team_of_rules_bots_against_a_random_village():
    """Every decision of a werewolf is the rules bot's; every villager's is the random bot's."""
    seen_kinds = set()
    for seed in range(1, 6):
        game, config, result, log = play_by_team(
            "werewolf", "werewolves=rules,town=random", seed=seed
        )
        teams = game.seat_teams(game.setup(config, seed))
        assert teams == result.outcome.teams
        for kind, view in log:
            role = view["you"]["role"]
            assert kind == ("rules" if role == "werewolf" else "random"), (seed, role, kind)
            assert kind == ("rules" if teams[view["you"]["seat"]] == "werewolves" else "random")
            seen_kinds.add(kind)
    assert seen_kinds == {"rules", "random"}


def test_werwoelfe_kids_teams_are_the_two_seats():
    _, _, result, log = play_by_team("werwoelfe-kids", "village=young,werewolves=perfect")
    assert {(view["you"], kind) for kind, view in log} == {
        ("village", "young"),
        ("werewolves", "perfect"),
    }
    assert result.outcome.teams == {0: "village", 1: "werewolves"}


def test_robbers_horror_seats_each_deals_teams_anew():
    """The partnerships change with every deal: the werewolf team's bots follow the cards."""
    game = wolfden.games.get("robbers-horror")
    config = game.Config(players=4)
    _, _, result, log = play_by_team("robbers-horror", "werewolves=rules,robbers=random", config)
    assert result.outcome.rounds == 4
    kinds_by_seat: dict[int, set[str]] = {}
    for kind, view in log:
        assert kind == ("rules" if view["role"] in WEREWOLF_TEAM_ROLES else "random")
        kinds_by_seat.setdefault(view["seat"], set()).add(kind)
    # Some seat was on the werewolf team in one deal and a robber in another.
    assert any(kinds == {"rules", "random"} for kinds in kinds_by_seat.values())


def test_werewords_village_and_werewolves_get_their_own_bots():
    game = wolfden.games.get("werewords")
    for seed in range(1, 4):
        _, _, result, log = play_by_team("werewords", "werewolves=rules,village=random", seed=seed)
        for kind, view in log:
            team = "werewolves" if view["you"]["role_now"] in ("werewolf", "minion") else "village"
            assert kind == ("rules" if team == "werewolves" else "random")
        assert set(result.outcome.teams.values()) <= set(game.team_names(game.Config()))


def test_a_seat_keeps_its_bot_for_the_whole_match():
    """One bot per seat and kind: a bot that remembers keeps its memory between deals."""
    game = wolfden.games.get("robbers-horror")
    config = game.Config(players=3)
    made = []

    def make(kind, seat):
        made.append((kind, seat))
        return sim.bot_kinds(game)[kind](seat)

    players = seat_players(sim.parse_bots("werewolves=rules", 3), make, 3)
    play_match(game, config, 5, players)
    assert len(made) == len(set(made)) <= 6


def test_people_at_the_terminal_keep_their_seats_whatever_their_team():
    person = object()
    seating = seat_players(
        sim.parse_bots("werewolves=rules", 3), lambda kind, seat: kind, 3, fixed={0: person}
    )
    assert seating({0: "werewolves", 1: "werewolves", 2: "town"}) == {
        0: person,
        1: "rules",
        2: "random",
    }


# -- the same figures whatever the workers ----------------------------------------------


def test_bots_by_team_give_the_same_figures_on_one_or_two_workers():
    game = wolfden.games.get("werewolf")
    config = game.Config(players=8)
    bots = sim.bot_plan(game, config, "werewolves=rules,town=random")
    plan = sim.make_plan(game, config, games=40, seed=5, bots=bots, keep_rows=True)
    one = sim.run(plan, workers=1)
    two = sim.run(plan, workers=2, chunk_size=7)
    a, b = summary(game, config, one), summary(game, config, two)
    for key in RUN_KEYS:
        a.pop(key)
        b.pop(key)
    assert a == b
    assert [row.seed for row in one.rows] == [derive_seed(5, i) for i in range(40)]


def test_bots_by_team_change_the_figures():
    """Not a no-op: a rules werewolf team against a random village wins more than random bots."""
    game = wolfden.games.get("werewolf")
    config = game.Config(players=7)
    wins = {}
    for spec in ("random", "werewolves=rules"):
        plan = sim.make_plan(game, config, games=150, seed=3, bots=sim.bot_plan(game, config, spec))
        wins[spec] = sim.run(plan, workers=1).tally.team_wins["werewolves"]
    assert wins["werewolves=rules"] > wins["random"]

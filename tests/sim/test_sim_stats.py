"""Wilson intervals and tallies: the figures every balance table rests on."""

from __future__ import annotations

import pytest

from wolfden.engine.types import Outcome
from wolfden.sim.stats import Tally, wilson


@pytest.mark.parametrize(
    ("wins", "games", "low", "high"),
    [
        # Reference values of the Wilson score interval at 95% (as computed by SciPy).
        (5, 10, 0.236593, 0.763407),
        (0, 10, 0.0, 0.277533),
        (10, 10, 0.722467, 1.0),
        (50, 100, 0.403832, 0.596168),
        (1, 20, 0.008881, 0.236131),
        (520, 1000, 0.489018, 0.550829),
    ],
)
def test_wilson_interval_matches_known_figures(wins, games, low, high):
    lo, hi = wilson(wins, games)
    assert lo == pytest.approx(low, abs=1e-6)
    assert hi == pytest.approx(high, abs=1e-6)


def test_wilson_interval_without_games_is_everything():
    assert wilson(0, 0) == (0.0, 1.0)


def test_wilson_rejects_more_wins_than_games():
    with pytest.raises(ValueError, match="between 0 and 3"):
        wilson(4, 3)


def outcome(team, rounds=1, stats=None):
    teams = {0: "town", 1: "town", 2: "wolves"}
    winners = frozenset(s for s, t in teams.items() if t == team)
    roles = {0: "seer", 1: "villager", 2: "werewolf"}
    return Outcome(winners, team, "", teams, roles, rounds, stats or {})


def test_tally_counts_wins_by_team_role_and_seat():
    tally = Tally()
    tally.add(outcome("town", 2), 10)
    tally.add(outcome("wolves", 4), 20)
    tally.add(outcome(None, 3), 30)
    data = tally.to_json()
    assert data["wins"] == {"town": 1, "wolves": 1, "draw": 1}
    assert data["win_rate"]["town"]["rate"] == pytest.approx(1 / 3)
    assert data["roles"]["seer"]["wins"] == 1
    assert data["roles"]["werewolf"]["games"] == 3
    assert data["seats"]["2"]["wins"] == 1
    assert data["mean_rounds"] == 3
    assert data["rounds"]["histogram"] == {"2": 1, "3": 1, "4": 1}
    assert data["mean_actions"] == 20


def test_extras_count_labels_numbers_and_records():
    tally = Tally()
    tally.add(
        outcome(
            "town",
            stats={
                "first": "seer",
                "left": 3,
                "deaths": [{"role": "seer", "by": "night"}, {"role": "werewolf", "by": "vote"}],
            },
        ),
        1,
    )
    tally.add(outcome("town", stats={"first": None, "left": 5, "deaths": []}), 1)
    extras = tally.to_json()["extras"]
    assert extras["first"]["counts"] == {"none": 1, "seer": 1}
    assert extras["left"]["mean"] == 4
    assert extras["left"]["counts"] == {"3": 1, "5": 1}
    assert extras["deaths.role"]["counts"] == {"seer": 1, "werewolf": 1}
    assert extras["deaths.by"]["counts"] == {"night": 1, "vote": 1}


def test_tallies_merge_to_the_same_figures_in_any_order():
    outcomes = [
        outcome(t, r, {"n": r}) for t, r in [("town", 1), ("wolves", 2), (None, 3), ("town", 5)]
    ]
    whole = Tally()
    for o in outcomes:
        whole.add(o, 7)
    left, right = Tally(), Tally()
    for o in outcomes[:1]:
        left.add(o, 7)
    for o in outcomes[1:]:
        right.add(o, 7)
    right += left
    assert right.to_json() == whole.to_json()


def test_a_match_won_by_players_not_a_team_is_no_draw():
    tally = Tally()
    tally.add(Outcome(frozenset({1}), None, "", {0: "a", 1: "b"}, {0: "x", 1: "y"}, 4), 1)
    data = tally.to_json()
    assert data["won_by_players"] == 1
    assert data["draws"] == 0
    assert data["win_rate"] == {}
    assert data["seats"]["1"]["wins"] == 1


def test_lists_of_numbers_and_nested_lists_count_each_item():
    tally = Tally()
    tally.add(outcome("town", stats={"totals": [10, 20], "deals": [["x", "y"], ["x"]]}), 1)
    tally.add(outcome("town", stats={"totals": [30], "deals": [["y"]]}), 1)
    extras = tally.to_json()["extras"]
    assert extras["totals"]["games"] == 2
    assert extras["totals"]["values"] == 3
    assert extras["totals"]["mean"] == 20
    assert extras["deals"]["counts"] == {"x": 2, "y": 2}
    assert extras["deals"]["share"]["x"]["rate"] == 0.5

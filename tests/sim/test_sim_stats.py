"""Wilson intervals and tallies: the figures every balance table rests on."""

from __future__ import annotations

import pytest

from wolfden.engine.types import Outcome
from wolfden.sim.stats import Clustered, Tally, holm, mcnemar, paired, wilson


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


# -- seats that share a game --------------------------------------------------------------


def test_one_trial_per_game_gives_the_plain_wilson_interval():
    data = Clustered()
    for g in range(100):
        data.add_game(int(g < 37), 1)
    assert data.effective_trials == pytest.approx(100)
    assert data.interval() == pytest.approx(wilson(37, 100))


def test_seats_that_always_agree_count_as_one_trial_per_game():
    # 100 games with two Werewolves each, who win or lose together: 200 seats, 100 trials.
    data = Clustered()
    for g in range(100):
        won = 2 if g < 60 else 0
        data.add_game(won, 2)
    assert data.rate == pytest.approx(0.6)
    assert data.effective_trials == pytest.approx(100)
    assert data.interval() == pytest.approx(wilson(60, 100))
    # Counting the seats as independent trials would claim a narrower interval.
    lo, hi = wilson(120, 200)
    assert hi - lo < data.interval()[1] - data.interval()[0]


def test_a_certain_outcome_is_worth_one_trial_per_game():
    data = Clustered()
    for _ in range(50):
        data.add_game(3, 3)
    assert data.interval() == pytest.approx(wilson(50, 50))


def test_clustered_sums_merge_like_one_run():
    whole, a, b = Clustered(), Clustered(), Clustered()
    games = [(2, 2), (0, 2), (1, 3), (3, 3), (0, 1)]
    for i, (y, n) in enumerate(games):
        whole.add_game(y, n)
        (a if i % 2 else b).add_game(y, n)
    a.merge(b)
    assert a == whole


def test_role_intervals_in_the_tally_are_clustered_by_game():
    tally = Tally()
    teams = {0: "town", 1: "town", 2: "wolves", 3: "wolves"}
    roles = {0: "villager", 1: "villager", 2: "werewolf", 3: "werewolf"}
    for g in range(200):
        team = "town" if g % 4 == 0 else "wolves"
        winners = frozenset(s for s, t in teams.items() if t == team)
        tally.add(Outcome(winners, team, "", teams, roles, 1, {}), 1)
    wolf = tally.to_json()["roles"]["werewolf"]
    assert wolf["games"] == 400  # seats
    assert wolf["matches"] == 200
    assert wolf["rate"] == pytest.approx(0.75)
    assert wolf["ci95"] == pytest.approx(list(wilson(150, 200)))


def test_death_shares_are_clustered_by_game():
    tally = Tally()
    for _ in range(40):
        tally.add(
            outcome("town", stats={"deaths": [{"role": "villager"}, {"role": "villager"}]}), 1
        )
    for _ in range(60):
        tally.add(outcome("town", stats={"deaths": [{"role": "seer"}, {"role": "seer"}]}), 1)
    share = tally.to_json()["extras"]["deaths.role"]["share"]["seer"]
    assert share["rate"] == pytest.approx(0.6)
    assert share["ci95"] == pytest.approx(list(wilson(60, 100)))


# -- comparing variants -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("only_first", "only_second", "p"),
    [
        # Exact binomial McNemar: 2 * P(X <= min) with X ~ Binomial(b + c, 1/2).
        (10, 2, 158 / 4096),
        (2, 10, 158 / 4096),
        (5, 5, 1.0),
        (0, 0, 1.0),
        (0, 6, 2 / 64),
    ],
)
def test_mcnemar_matches_the_binomial_test(only_first, only_second, p):
    assert mcnemar(only_first, only_second) == pytest.approx(p)


def test_holm_adjusts_step_down_and_keeps_order():
    assert holm([0.01, 0.04, 0.03]) == pytest.approx([0.03, 0.06, 0.06])
    assert holm([0.5, 0.9]) == pytest.approx([1.0, 1.0])
    assert holm([]) == []


def test_paired_counts_only_matches_played_under_both():
    first = {0: True, 1: True, 2: False, 3: False, 4: True}
    second = {0: True, 1: False, 2: True, 3: True}
    pair = paired(first, second)
    assert (pair.games, pair.first, pair.second) == (4, 2, 3)
    assert (pair.only_first, pair.only_second) == (1, 2)
    assert pair.difference == pytest.approx(0.25)
    assert pair.p == pytest.approx(mcnemar(1, 2))


def test_two_runs_compare_match_by_match_from_their_raw_results(tmp_path, capsys):
    from wolfden.sim.stats import main

    def write(name, winners):
        path = tmp_path / name
        lines = ["game,seed,winning_team"] + [f"{i},{i},{w}" for i, w in enumerate(winners)]
        path.write_text("\n".join(lines) + "\n")
        return str(path)

    first = write("a.csv", ["town"] * 4 + ["werewolves"] * 8)
    second = write("b.csv", ["town"] * 12)
    assert main(["town", first, second]) == 0
    out = capsys.readouterr().out
    # 8 matches won only under the second run, none only under the first: p = 2 / 2^8.
    assert "+66.7 pp" in out and "discordant 0/8" in out
    assert f"McNemar p = {2 / 256:.2g}" in out
    assert main(["town", first]) == 2

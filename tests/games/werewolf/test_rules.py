"""Werewolf, rule by rule (seed 001 and the werewolf rulings)."""

from __future__ import annotations

import copy

import pytest

from wolfden.engine.errors import ConfigError, IllegalAction, MatchOver, NotYourTurn
from wolfden.engine.types import Action, Viewer
from wolfden.games import werewolf
from wolfden.games.werewolf import Phase, Role

from .conftest import G, S, V, W, act, day, run, table, texts

# -- the deal ------------------------------------------------------------------------------


@pytest.mark.parametrize("players, wolves", [(7, 2), (8, 2), (9, 2), (10, 3), (11, 3), (12, 3)])
def test_7_to_9_players_deal_2_werewolves_and_10_to_12_deal_3(players: int, wolves: int) -> None:
    for seed in range(20):
        state = werewolf.setup(werewolf.Config(players=players), seed)
        roles = list(state.roles)
        assert roles.count(Role.WEREWOLF) == wolves
        assert roles.count(Role.SEER) == 1
        assert roles.count(Role.GUARDIAN) == 1
        assert roles.count(Role.VILLAGER) == players - wolves - 2


def test_the_deal_uses_the_print_decks_card_ids() -> None:
    state = werewolf.setup(werewolf.Config(players=12), 7)
    ids = sorted(c.id for c in state.cards)
    assert ids == [f"R_WEREWOLF-{i:03d}" for i in range(1, 13)]
    seer = next(c for c in state.cards if c.role is Role.SEER)
    assert seer.id == "R_WEREWOLF-004"


def test_the_deal_depends_only_on_the_seed() -> None:
    a = werewolf.setup(werewolf.Config(players=9), 42)
    b = werewolf.setup(werewolf.Config(players=9), 42)
    c = werewolf.setup(werewolf.Config(players=9), 43)
    assert a.cards == b.cards
    assert any(
        werewolf.setup(werewolf.Config(players=9), s).cards != a.cards for s in range(43, 50)
    )
    assert c is not a


def test_a_player_who_declines_a_special_role_is_dealt_a_villager() -> None:
    for seed in range(30):
        state = werewolf.setup(werewolf.Config(players=7, villager_only=(2, 5)), seed)
        assert state.roles[2] is Role.VILLAGER and state.roles[5] is Role.VILLAGER
        assert not state.unmet_requests


def test_the_deal_says_so_when_it_cannot_give_every_villager_request() -> None:
    config = werewolf.Config(players=7, villager_only=(0, 1, 2, 3, 4))  # only 3 Villagers
    state = werewolf.setup(config, 3)
    assert len(state.unmet_requests) == 2
    for seat in state.unmet_requests:
        note = werewolf.view(state, Viewer.of(seat))["you"]["deal_note"]
        assert "not enough Villager cards" in note
    served = [s for s in range(5) if s not in state.unmet_requests]
    assert all(state.roles[s] is Role.VILLAGER for s in served)


@pytest.mark.parametrize(
    "options, message",
    [
        ({"players": 4}, "players must be from 5 to 16"),
        ({"players": 17}, "players must be from 5 to 16"),
        ({"players": 7, "werewolves": 0}, "at least one Werewolf"),
        ({"players": 7, "werewolves": 4}, "more non-Werewolves than Werewolves"),
        ({"players": 7, "werewolves": 3, "seers": 3, "guardians": 2}, "more roles than"),
        ({"players": 7, "villager_only": (9,)}, "seats are numbered 0 to 6"),
        ({"players": 7, "names": ("a", "b")}, "one per player"),
        ({"players": 7, "min_night_seconds": 100.0}, "cannot be longer than night_seconds"),
        ({"players": 7, "round_limit": -1}, "round_limit"),
    ],
)
def test_an_invalid_config_gets_a_clear_error(options: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        werewolf.setup(werewolf.Config(**options), 1)  # type: ignore[arg-type]


def test_custom_role_counts_are_a_variant_numbered_on_from_013() -> None:
    config = werewolf.Config(players=12, werewolves=4, seers=2, guardians=0)
    state = werewolf.setup(config, 5)
    assert list(state.roles).count(Role.WEREWOLF) == 4
    assert list(state.roles).count(Role.SEER) == 2
    ids = {c.id for c in state.cards}
    assert "R_WEREWOLF-013" in ids and "R_WEREWOLF-014" in ids


# -- the night -----------------------------------------------------------------------------


def test_every_role_is_called_every_night_dead_or_alive(seven: werewolf.State) -> None:
    state, _ = run(seven, (0, "pick 2"), (1, "pick 2"), (2, "check 0"), (3, "protect 4"))
    state, events = act(state, None, "dawn")  # the Seer dies
    assert state.roles[2] is Role.SEER and not state.is_alive(2)
    state, _ = act(state, None, "end_discussion")
    state, events = run(state, *[(s, "abstain") for s in state.living()])
    lines = texts(events)
    assert "Seer, wake and choose one player to look into." in lines
    assert "Guardian, wake and choose someone to protect." in lines


def test_the_night_never_ends_before_its_minimum_length(seven: werewolf.State) -> None:
    deadline = werewolf.deadline(seven)
    assert deadline is not None and deadline.seconds == 90.0
    state, _ = run(seven, (0, "pick 4"), (1, "pick 4"), (2, "check 0"), (3, "protect 5"))
    assert werewolf.actors(state) == frozenset()
    deadline = werewolf.deadline(state)
    assert deadline is not None
    assert deadline.seconds == 20.0 and deadline.action == Action("dawn")
    assert state.phase is Phase.NIGHT  # all actions are in, the night still goes on


def test_the_pack_sees_each_others_picks_at_once(seven: werewolf.State) -> None:
    state, events = act(seven, 0, "pick 4")
    pick = next(e for e in events if e.type == "pack_pick")
    assert pick.audience.seats == frozenset({0, 1})
    assert werewolf.view(state, Viewer.of(1))["you"]["pack_picks"] == {"0": 4}
    assert "pack_picks" not in werewolf.view(state, Viewer.of(4))["you"]
    assert werewolf.visible_events(state, events, Viewer.of(4)) == []


def test_the_target_locks_when_all_living_werewolves_agree(seven: werewolf.State) -> None:
    state, events = run(seven, (0, "pick 4"), (1, "pick 4"))
    assert state.locked == 4
    assert any(e.type == "pack_locked" for e in events)


def test_a_pack_that_disagrees_picks_again_then_takes_the_most_picked(
    seven: werewolf.State,
) -> None:
    state, _ = run(seven, (0, "pick 4"), (1, "pick 5"))
    assert state.locked is None and state.pick_round == 2
    assert werewolf.actors(state) >= {0, 1}
    state, _ = run(state, (0, "pick 4"), (1, "pick 5"), (0, "pick 6"), (1, "pick 5"))
    assert state.pick_round == 3 and state.locked in (5, 6)


def test_at_the_deadline_without_agreement_the_most_picked_is_the_target() -> None:
    state = table([W, W, W, S, G, V, V, V, V, V])
    state, _ = run(state, (0, "pick 5"), (1, "pick 5"))  # the third wolf never picks
    state, _ = act(state, None, "dawn")
    assert not state.is_alive(5)


def test_with_no_pick_at_all_no_one_is_attacked(seven: werewolf.State) -> None:
    state, events = act(seven, None, "dawn")
    assert len(state.living()) == 7
    assert "No one was eliminated." in texts(events)


def test_werewolves_cannot_target_a_werewolf(seven: werewolf.State) -> None:
    with pytest.raises(IllegalAction, match="not a Werewolf"):
        act(seven, 0, "pick 1")
    assert Action.parse("pick 1") not in werewolf.legal_actions(seven, 0)


def test_the_seer_learns_at_once_and_privately(seven: werewolf.State) -> None:
    state, events = act(seven, 2, "check 1")
    answer = next(e for e in events if e.type == "seer_answer")
    assert answer.data == {"target": 1, "werewolf": True}
    assert answer.audience.seats == frozenset({2})
    assert answer.text == "Player 2 is a Werewolf."
    assert werewolf.visible_events(state, events, Viewer.of(0)) == []
    assert werewolf.view(state, Viewer.of(2))["you"]["checks"] == [
        {"round": 1, "target": 1, "werewolf": True}
    ]


def test_the_seer_cannot_check_themselves(seven: werewolf.State) -> None:
    with pytest.raises(IllegalAction, match="other than themselves"):
        act(seven, 2, "check 2")


def test_the_guardians_save_gives_no_one_was_eliminated_and_no_reveal(
    seven: werewolf.State,
) -> None:
    state, _ = run(seven, (0, "pick 4"), (1, "pick 4"), (2, "check 5"), (3, "protect 4"))
    state, events = act(state, None, "dawn")
    assert state.is_alive(4)
    lines = texts(events)
    assert "No one was eliminated." in lines
    assert not any("saved" in line or "protect" in line.lower() for line in lines)
    assert all(e.type != "eliminated" for e in events)
    public = werewolf.view(state, Viewer.parse("table"))
    assert public["night_result"] == {"eliminated": None}
    assert all("role" not in entry for entry in public["seats"])


def test_the_guardian_may_protect_themselves(seven: werewolf.State) -> None:
    state, _ = act(seven, 3, "protect 3")
    assert state.protecting[3] == 3


def test_no_protecting_the_same_player_twice_in_a_row(seven: werewolf.State) -> None:
    state, _ = run(seven, (0, "pick 5"), (1, "pick 5"), (2, "check 0"), (3, "protect 4"))
    state = day(state)
    state, _ = run(state, *[(s, "abstain") for s in state.living()])
    assert state.phase is Phase.NIGHT and state.round == 2
    assert Action.parse("protect 4") not in werewolf.legal_actions(state, 3)
    with pytest.raises(IllegalAction, match="two nights running"):
        act(state, 3, "protect 4")
    assert werewolf.view(state, Viewer.of(3))["you"]["cannot_protect"] == 4


def test_a_night_without_protection_resets_the_guardians_rule(seven: werewolf.State) -> None:
    state, _ = run(seven, (3, "protect 4"))
    state = day(state)
    state, _ = run(state, *[(s, "abstain") for s in state.living()])
    state = day(state)  # night 2: the Guardian protects no one
    state, _ = run(state, *[(s, "abstain") for s in state.living()])
    assert state.round == 3
    assert Action.parse("protect 4") in werewolf.legal_actions(state, 3)


def test_villagers_have_no_night_action(seven: werewolf.State) -> None:
    assert werewolf.legal_actions(seven, 4) == []
    with pytest.raises(NotYourTurn):
        act(seven, 4, "pick 5")


def test_parity_at_night_ends_the_game_for_the_werewolves_at_once() -> None:
    state = table([W, W, S, G, V, V, V])
    # Night 1: Villager 4 falls. Day 1: Villager 5 is voted out. Night 2: parity (2 vs 2).
    state, _ = run(state, (0, "pick 4"), (1, "pick 4"), (2, "check 6"), (3, "protect 3"))
    state = day(state)
    state, _ = run(state, *[(s, "vote 5") for s in state.living() if s != 5], (5, "abstain"))
    assert not state.is_alive(5) and state.phase is Phase.NIGHT
    state, _ = run(state, (0, "pick 6"), (1, "pick 6"), (2, "check 0"), (3, "protect 2"))
    state, events = act(state, None, "dawn")
    assert state.phase is Phase.END
    assert werewolf.outcome(state).winning_team == "werewolves"  # type: ignore[union-attr]
    assert "The Werewolves now match the rest in number. The Werewolves win." in texts(events)


# -- the day -------------------------------------------------------------------------------


def _first_ballot(state: werewolf.State) -> werewolf.State:
    state, _ = run(state, (0, "pick 6"), (1, "pick 6"), (2, "check 0"), (3, "protect 6"))
    return day(state)


def test_the_host_can_end_the_discussion_early(seven: werewolf.State) -> None:
    state, _ = act(seven, None, "dawn")
    assert state.phase is Phase.DISCUSSION
    assert werewolf.legal_actions(state, None) == [Action("end_discussion")]
    dl = werewolf.deadline(state)
    assert dl is not None and dl.seconds == 180.0
    state, _ = act(state, None, "end_discussion")
    assert state.phase is Phase.VOTE


def test_self_votes_are_not_offered(seven: werewolf.State) -> None:
    state = _first_ballot(seven)
    assert Action.parse("vote 4") not in werewolf.legal_actions(state, 4)
    with pytest.raises(IllegalAction, match="cannot vote for yourself"):
        act(state, 4, "vote 4")


def test_ballots_are_secret_until_the_ballot_closes(seven: werewolf.State) -> None:
    state = _first_ballot(seven)
    state, events = act(state, 4, "vote 0")
    other = werewolf.view(state, Viewer.of(5))
    assert other["ballot"]["cast"] == 1
    assert "votes" not in other["ballot"]
    assert werewolf.visible_events(state, events, Viewer.of(5)) == []
    assert werewolf.view(state, Viewer.of(4))["you"]["vote"] == 0


def test_plurality_eliminates_without_a_majority(seven: werewolf.State) -> None:
    state = _first_ballot(seven)
    votes = {
        0: "vote 4",
        1: "vote 4",
        2: "vote 0",
        3: "vote 1",
        4: "vote 5",
        5: "abstain",
        6: "abstain",
    }
    state, events = run(state, *votes.items())
    assert not state.is_alive(4)
    eliminated = next(e for e in events if e.type == "eliminated")
    assert eliminated.audience.public and eliminated.data["role"] == "villager"


def test_the_tally_shows_who_voted_for_whom_after_the_ballot(seven: werewolf.State) -> None:
    state = _first_ballot(seven)
    state, events = run(state, *[(s, "vote 0" if s != 0 else "vote 1") for s in state.living()])
    tally = next(e for e in events if e.type == "tally")
    assert tally.audience.public
    assert tally.data["votes"]["3"] == 0
    assert tally.data["counts"]["0"] == 6


def test_private_ballots_show_only_the_counts() -> None:
    state = _first_ballot(table([W, W, S, G, V, V, V], public_ballots=False))
    state, events = run(state, *[(s, "vote 0" if s != 0 else "vote 1") for s in state.living()])
    tally = next(e for e in events if e.type == "tally")
    assert "votes" not in tally.data and tally.data["counts"]["0"] == 6


def test_a_tie_gives_a_revote_among_the_tied_only(seven: werewolf.State) -> None:
    state = _first_ballot(seven)
    votes = {
        0: "vote 4",
        1: "vote 4",
        2: "vote 5",
        3: "vote 5",
        4: "abstain",
        5: "abstain",
        6: "abstain",
    }
    state, _ = run(state, *votes.items())
    assert state.phase is Phase.REVOTE
    assert state.candidates == (4, 5)
    assert werewolf.actors(state) == frozenset(state.living())
    assert werewolf.legal_actions(state, 0) == [
        Action("vote", (4,)),
        Action("vote", (5,)),
        Action("abstain"),
    ]
    assert werewolf.legal_actions(state, 4) == [Action("vote", (5,)), Action("abstain")]
    with pytest.raises(IllegalAction, match="between"):
        act(state, 0, "vote 6")


def test_a_second_tie_eliminates_no_one(seven: werewolf.State) -> None:
    state = _first_ballot(seven)
    tie = {
        0: "vote 4",
        1: "vote 4",
        2: "vote 5",
        3: "vote 5",
        4: "abstain",
        5: "abstain",
        6: "abstain",
    }
    state, _ = run(state, *tie.items())
    state, events = run(state, *tie.items())
    assert len(state.living()) == 7 and state.phase is Phase.NIGHT and state.round == 2
    assert "The revote is tied again. No one is eliminated today." in texts(events)


def test_everyone_abstaining_eliminates_no_one(seven: werewolf.State) -> None:
    state = _first_ballot(seven)
    state, events = run(state, *[(s, "abstain") for s in state.living()])
    assert len(state.living()) == 7 and state.phase is Phase.NIGHT
    assert "Everyone abstained. No one is eliminated today." in texts(events)


def test_everyone_abstaining_in_the_revote_eliminates_no_one(seven: werewolf.State) -> None:
    state = _first_ballot(seven)
    tie = {
        0: "vote 4",
        1: "vote 4",
        2: "vote 5",
        3: "vote 5",
        4: "abstain",
        5: "abstain",
        6: "abstain",
    }
    state, _ = run(state, *tie.items())
    state, events = run(state, *[(s, "abstain") for s in state.living()])
    assert len(state.living()) == 7
    assert "Everyone abstained. No one is eliminated today." in texts(events)


def test_a_missing_vote_at_the_deadline_is_an_abstention(seven: werewolf.State) -> None:
    state = _first_ballot(seven)
    state, _ = run(state, (0, "vote 4"), (1, "vote 4"))
    state, events = act(state, None, "close_ballot")
    tally = next(e for e in events if e.type == "tally")
    assert tally.data["abstained"] == 5
    assert not state.is_alive(4)


def test_the_last_werewolf_voted_out_wins_for_the_town() -> None:
    state = table([W, S, G, V, V, V, V])
    state, _ = run(state, (0, "pick 3"), (1, "check 0"), (2, "protect 3"))
    state = day(state)
    state, events = run(state, *[(s, "vote 0" if s != 0 else "vote 1") for s in state.living()])
    assert state.phase is Phase.END
    outcome = werewolf.outcome(state)
    assert outcome is not None and outcome.winning_team == "town"
    assert outcome.winners == frozenset({1, 2, 3, 4, 5, 6})
    assert "Every Werewolf is gone. The Town wins." in texts(events)


def test_every_elimination_reveals_the_card_publicly(seven: werewolf.State) -> None:
    state, _ = run(seven, (0, "pick 2"), (1, "pick 2"))
    state, _ = act(state, None, "dawn")
    public = werewolf.view(state, Viewer.parse("spectator"))
    assert public["seats"][2]["role"] == "seer" and public["seats"][2]["card"] == "R_WEREWOLF-004"
    assert all("role" not in e for i, e in enumerate(public["seats"]) if i != 2)


# -- the dead, the end and the round limit --------------------------------------------------


def test_the_dead_watch_every_role_and_action(seven: werewolf.State) -> None:
    state, _ = run(seven, (0, "pick 5"), (1, "pick 5"))
    state, _ = act(state, None, "dawn")
    state, _ = act(state, None, "end_discussion")
    dead = werewolf.view(state, Viewer.of(5))
    assert [e.get("role") for e in dead["seats"]] == [
        "werewolf",
        "werewolf",
        "seer",
        "guardian",
        "villager",
        "villager",
        "villager",
    ]
    assert dead["night_log"][0]["target"] == 5
    with pytest.raises(NotYourTurn, match="eliminated players watch"):
        act(state, 5, "vote 0")


def test_the_dead_see_only_public_facts_when_the_option_is_off() -> None:
    state = table([W, W, S, G, V, V, V], dead_see_all=False)
    state, _ = run(state, (0, "pick 5"), (1, "pick 5"))
    state, _ = act(state, None, "dawn")
    dead = werewolf.view(state, Viewer.of(5))
    assert "role" not in dead["seats"][0]


def test_the_round_limit_ends_in_a_draw_with_every_role_revealed() -> None:
    state = table([W, W, S, G, V, V, V], round_limit=1)
    state, _ = run(state, (3, "protect 4"))
    state = day(state)
    state, events = run(state, *[(s, "abstain") for s in state.living()])
    assert state.phase is Phase.END
    outcome = werewolf.outcome(state)
    assert outcome is not None and outcome.draw and outcome.winning_team is None
    over = next(e for e in events if e.type == "game_over")
    assert over.audience.public and len(over.data["roles"]) == 7
    assert all("role" in e for e in werewolf.view(state, Viewer.parse("table"))["seats"])


def test_no_action_is_accepted_after_the_end() -> None:
    state = table([W, W, S, G, V, V, V], round_limit=1)
    state = day(state)
    state, _ = run(state, *[(s, "abstain") for s in state.living()])
    with pytest.raises(MatchOver):
        act(state, 0, "pick 4")


def test_a_rejected_action_leaves_the_state_unchanged(seven: werewolf.State) -> None:
    before = copy.deepcopy(seven)  # the table too, which a copy shares
    for seat, text in [
        (0, "pick 1"),
        (2, "check 2"),
        (4, "vote 0"),
        (None, "end_discussion"),
        (0, "pick x"),
        (0, "pick 99"),
    ]:
        with pytest.raises(IllegalAction):
            act(seven, seat, text)
    assert seven == before


def test_the_narration_is_the_same_calm_script_every_night(seven: werewolf.State) -> None:
    scripts = []
    state = seven
    for _ in range(2):
        scripts.append(werewolf.view(state, Viewer.parse("table"))["narration"])
        state = day(state)
        state, _ = run(state, *[(s, "abstain") for s in state.living()])
    assert scripts[0] == scripts[1]
    assert scripts[0][0] == "Night falls. Everyone, close your eyes."


def test_every_viewer_gets_the_same_narration_so_any_phone_may_read_it_aloud() -> None:
    """The host's phone speaks a match's opening lines from its own view: they must be the
    table's lines, whatever role the host was dealt."""
    from wolfden.engine.rng import Rng

    viewers = [Viewer.parse("table"), Viewer.parse("spectator")]
    for seed in range(40):
        config = werewolf.Config(players=7 + seed % 6)
        state = werewolf.setup(config, seed)
        rng = Rng(seed)
        seats = [Viewer.of(s) for s in range(config.players)]
        while werewolf.outcome(state) is None:
            lines = werewolf.view(state, viewers[0])["narration"]
            assert lines
            for viewer in viewers[1:] + seats:
                assert werewolf.view(state, viewer)["narration"] == lines
            actors = sorted(werewolf.actors(state))
            if actors:
                seat = actors[rng.below(len(actors))]
                legal = werewolf.legal_actions(state, seat)
                state, _ = werewolf.apply(state, seat, legal[rng.below(len(legal))])
            else:
                due = werewolf.deadline(state)
                assert due is not None
                state, _ = werewolf.apply(state, None, due.action)


def test_roles_and_hidden_choices_never_reach_a_villagers_view(seven: werewolf.State) -> None:
    state, _ = run(seven, (0, "pick 4"), (2, "check 1"), (3, "protect 5"))
    mine = werewolf.view(state, Viewer.of(6))
    assert [i for i, e in enumerate(mine["seats"]) if "role" in e] == [6]
    assert set(mine["you"]) == {
        "seat",
        "name",
        "alive",
        "role",
        "card",
        "card_label",
        "card_text",
        "your_turn",
    }
    assert "tonight" not in mine and "night_log" not in mine
    text = str(mine)
    for card in ("R_WEREWOLF-001", "R_WEREWOLF-002", "R_WEREWOLF-004", "R_WEREWOLF-005"):
        assert card not in text


def test_the_night_timer_everyone_sees_never_tells_when_the_last_action_came_in(
    seven: werewolf.State,
) -> None:
    table_screen = Viewer.parse("table")
    before = werewolf.timer(seven, table_screen)
    state, _ = run(seven, (0, "pick 4"), (1, "pick 4"), (2, "check 0"), (3, "protect 5"))
    after = werewolf.timer(state, table_screen)
    assert before == after and after is not None and after.seconds == 90.0
    assert (
        werewolf.view(state, Viewer.of(4))["timer"] == werewolf.view(seven, Viewer.of(4))["timer"]
    )
    rule = werewolf.deadline(state)
    assert rule is not None and rule.seconds == 20.0  # the clock itself still ends the night early

"""Werwölfe Kids, rule by rule, as the teams at the table would notice it.

Seat 0 is the Village team, seat 1 the Werewolf team. The standard village of the fixture has
Ada A1, Bruno A2, Clara A3, Dario A4, Elsa B1, Fritz B2, Greta B3, Hugo B4, Ida C1, Jonas C2;
C3 and C4 are empty.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from wolfden.engine.errors import ConfigError, IllegalAction, MatchOver, NotYourTurn
from wolfden.engine.types import Action
from wolfden.games.werwoelfe_kids import VILLAGE, WEREWOLVES, Config, DuelMode, Language, Layout

from .kids_table import GAME, PEOPLE, Table

# -- setup ------------------------------------------------------------------------------


def test_the_village_team_places_ten_of_the_thirteen_people_leaving_two_houses_empty() -> None:
    t = Table()
    view = t.view(VILLAGE)
    assert view["persons_placed"] == 10 and len(view["houses"]) == 12 and len(view["cast"]) == 13
    for house, person in list(PEOPLE.items())[:9]:
        t.do(VILLAGE, f"pick {person}")
        t.do(VILLAGE, f"put {house}")
    assert "done" not in t.legal(VILLAGE)
    t.do(VILLAGE, "pick jonas")
    t.do(VILLAGE, "put C2")
    assert t.legal(VILLAGE)[0] == "done"
    assert not any(a.startswith(("pick", "put")) for a in t.legal(VILLAGE))
    t.do(VILLAGE, "done")
    assert t.phase == "haunt"


def test_placing_is_picking_a_person_then_a_house() -> None:
    t = Table()
    assert not any(a.startswith("put") for a in t.legal(VILLAGE))
    t.do(VILLAGE, "pick ada")
    assert t.view(VILLAGE)["selected"] == "ada"
    assert "put B2" in t.legal(VILLAGE) and "pick ada" not in t.legal(VILLAGE)
    t.do(VILLAGE, "put B2")
    assert t.view(VILLAGE)["selected"] is None
    assert "put C1" not in t.legal(VILLAGE) and "pick ada" not in t.legal(VILLAGE)


def test_the_last_placed_person_can_be_taken_back_before_the_doors_go_on() -> None:
    t = Table()
    assert "undo" not in t.legal(VILLAGE)
    for person, house in (("ada", "A1"), ("bruno", "B2")):
        t.do(VILLAGE, f"pick {person}")
        t.do(VILLAGE, f"put {house}")
    t.do(VILLAGE, "undo")
    contents = {h["house"]: h["content"] for h in t.view(VILLAGE)["houses"]}
    assert contents["B2"] == "empty" and contents["A1"] == "ada"
    assert "pick bruno" in t.legal(VILLAGE) and "pick ada" not in t.legal(VILLAGE)


def test_scatter_places_the_remaining_people_at_random() -> None:
    t = Table()
    t.do(VILLAGE, "pick ada")
    t.do(VILLAGE, "put A1")
    t.do(VILLAGE, "scatter")
    contents = [h["content"] for h in t.view(VILLAGE)["houses"]]
    assert contents.count("empty") == 2 and contents[0] == "ada"


def test_the_village_sees_its_placement_only_until_the_doors_go_on(table: Table) -> None:
    assert all("content" not in h for h in table.view(VILLAGE)["houses"])


def test_the_werewolves_choose_three_different_houses_and_a_person_there_goes_missing(
    table: Table,
) -> None:
    events = table.do(WEREWOLVES, "haunt A1")
    assert table.cues() == ["missing"] and events[0].data["person"] == "ada"
    assert table.view(VILLAGE)["missing"] == ["ada"]
    peek = table.view(WEREWOLVES)["peek"]
    assert peek["houses"] == [{"house": "A1", "found": "ada", "now": "werewolf"}]
    table.do(WEREWOLVES, "close")
    assert "haunt A1" not in table.legal(WEREWOLVES)
    table.do(WEREWOLVES, "haunt C3")
    assert table.cues() == []
    table.do(WEREWOLVES, "close")
    table.do(WEREWOLVES, "haunt C1")
    table.do(WEREWOLVES, "close")
    assert table.phase == "day" and table.state.day == 1
    assert table.view(VILLAGE)["missing"] == ["ada", "ida"]
    assert [table.behind(h) for h in ("A1", "C3", "C1")] == ["werewolf"] * 3


# -- day --------------------------------------------------------------------------------


def test_the_day_begins_with_kikeriki_and_the_village_opens_exactly_one_house(
    table: Table,
) -> None:
    table.haunt(["C3", "C4", "C2"])
    assert table.cues() == ["rooster"] and "Kikeriki" in table.events[-1].text
    table.do(VILLAGE, "open A2")
    assert table.phase == "peek" and table.legal(VILLAGE) == ["close"]
    events = table.do(VILLAGE, "close")
    assert [e.data.get("cue") for e in events if e.type == "cue"] == ["howl"]
    assert "Ahuuuu" in events[-1].text and table.phase == "night"


def test_finding_a_werewolf_starts_the_dice_duel_for_both_teams(table: Table) -> None:
    table.haunt(["C3", "C4", "C2"])
    table.do(VILLAGE, "open C4")
    assert table.cues() == ["found"] and table.events[0].text.startswith("Found!")
    assert table.phase == "duel"
    for seat in (VILLAGE, WEREWOLVES):
        duel = table.view(seat)["duel"]
        assert duel["house"] == "C4" and duel["dice"] == {"village": 3, "werewolves": 3}
        assert table.legal(seat) == ["roll"]


def test_the_village_winning_the_duel_catches_the_werewolf(table: Table) -> None:
    table.haunt(["C3", "C4", "C2"])
    table.do(VILLAGE, "open C4")
    table.duel_won_by(VILLAGE)
    assert table.state.caught == 1 and table.behind("C4") == "empty"
    assert table.phase == "night" and table.view(WEREWOLVES)["caught"] == 1


def test_a_discovered_werewolf_is_caught_without_a_duel(table: Table) -> None:
    table.haunt(["C3", "C4", "C2"])
    table.do(VILLAGE, "open C4")
    table.duel_won_by(WEREWOLVES)
    assert table.behind("C4") == "werewolf-discovered"
    table.do(WEREWOLVES, "stay")
    table.do(VILLAGE, "open C4")
    assert table.cues() == ["caught"] and table.phase == "peek"
    assert table.state.caught == 1 and table.state.stats.duels == 1
    assert table.view(VILLAGE)["peek"]["result"] == "caught"
    assert table.behind("C4") == "empty"


def test_too_hard_for_the_werewolves_duels_at_every_discovery() -> None:
    t = Table(Config(too_hard=True))
    t.place(PEOPLE)
    t.haunt(["C3", "C4", "C2"])
    t.do(VILLAGE, "open C4")
    t.duel_won_by(WEREWOLVES)
    t.do(WEREWOLVES, "stay")
    t.do(VILLAGE, "open C4")
    assert t.cues() == ["found"] and t.phase == "duel"
    assert t.state.caught == 0


def test_all_three_werewolves_caught_wins_for_the_village(table: Table) -> None:
    table.haunt(["C3", "C4", "C2"])
    for n, house in enumerate(["C3", "C4", "C2"]):
        table.do(VILLAGE, f"open {house}")
        table.duel_won_by(VILLAGE)
        if n < 2:
            table.do(WEREWOLVES, "open A1")
            table.do(WEREWOLVES, "close")
    assert table.phase == "over"
    outcome = GAME.outcome(table.state)
    assert outcome is not None and outcome.winning_team == "village"
    assert outcome.winners == frozenset({VILLAGE}) and outcome.stats["caught"] == 3
    with pytest.raises(MatchOver):
        table.do(VILLAGE, "open A1")


# -- night ------------------------------------------------------------------------------


def test_a_werewolf_drives_out_the_person_at_its_destination(table: Table) -> None:
    table.haunt(["C3", "C4", "C2"])
    table.day_look("A1")
    table.do(WEREWOLVES, "open C4")
    assert table.phase == "move" and "move B4" in table.legal(WEREWOLVES)
    events = table.do(WEREWOLVES, "move B4")
    assert [e.data["person"] for e in events if e.type == "cue"] == ["hugo"]
    assert table.behind("B4") == "werewolf" and table.behind("C4") == "empty"
    assert table.view(WEREWOLVES)["peek"]["result"] == "drove_out"


def test_a_werewolf_meeting_another_werewolf_goes_back(table: Table) -> None:
    table.haunt(["C3", "C4", "B3"])
    table.day_look("A1")
    table.do(WEREWOLVES, "open C4")
    events = table.do(WEREWOLVES, "move C3")
    assert events == [] and table.view(WEREWOLVES)["peek"]["result"] == "blocked"
    assert table.behind("C4") == "werewolf" and table.behind("C3") == "werewolf"
    table.do(WEREWOLVES, "close")
    assert table.phase == "day" and table.view(VILLAGE)["missing"] == ["greta"]


def test_an_empty_destination_must_be_entered() -> None:
    t = Table()
    people = {h: p for h, p in PEOPLE.items() if h != "A3"}
    people["C3"] = "clara"
    t.place(people)
    t.haunt(["A1", "A2", "B4"])
    t.day_look("C1")
    t.do(WEREWOLVES, "open A1")
    t.do(WEREWOLVES, "move A3")
    assert t.view(WEREWOLVES)["peek"]["result"] == "moved_in"
    assert t.behind("A3") == "werewolf" and t.behind("A1") == "empty"
    assert t.view(VILLAGE)["missing"] == ["ada", "bruno", "hugo"]


def test_a_werewolf_moves_one_or_two_steps_without_diagonal_steps(table: Table) -> None:
    table.haunt(["A1", "C3", "C4"])
    table.day_look("B2")
    table.do(WEREWOLVES, "open A1")
    moves = sorted(a.split()[1] for a in table.legal(WEREWOLVES) if a.startswith("move"))
    assert moves == ["A2", "A3", "B1", "B2", "C1"]
    assert "stay" in table.legal(WEREWOLVES)
    with pytest.raises(IllegalAction, match="not allowed"):
        table.do(WEREWOLVES, "move B3")


def test_a_night_without_a_werewolf_behind_the_door_is_only_remembered(table: Table) -> None:
    table.haunt(["C3", "C4", "C2"])
    table.day_look("A1")
    table.do(WEREWOLVES, "open B2")
    assert table.view(WEREWOLVES)["peek"]["houses"][0]["now"] == "fritz"
    table.do(WEREWOLVES, "close")
    assert table.phase == "day" and table.state.day == 2


def test_the_duel_winner_escapes_in_the_next_night(table: Table) -> None:
    table.haunt(["C3", "C4", "C2"])
    table.do(VILLAGE, "open C4")
    table.duel_won_by(WEREWOLVES)
    assert table.cues() == ["hides", "howl"]
    assert table.phase == "escape"
    view = table.view(WEREWOLVES)
    assert view["move"] == {"from": "C4", "escape": True, "targets": ["A4", "B3", "B4", "C2", "C3"]}
    assert not any(a.startswith("open") for a in table.legal(WEREWOLVES))
    table.do(WEREWOLVES, "move B4")
    assert table.behind("B4") == "werewolf-discovered" and table.behind("C4") == "empty"
    table.do(WEREWOLVES, "close")
    assert table.phase == "day"
    table.day_look("A1")
    assert table.phase == "night", "after the escape the nights are normal again"


def test_the_eighth_missing_person_ends_the_game_at_once_setup_losses_count(
    table: Table,
) -> None:
    table.haunt(["A1", "A4", "C1"])
    assert len(table.view(VILLAGE)["missing"]) == 3
    for frm, to in [("A1", "A2"), ("A2", "A3"), ("A3", "B3"), ("B3", "B2")]:
        table.day_look("C4")
        table.night_move(frm, to)
    assert table.view(VILLAGE)["missing"] == [
        "ada",
        "dario",
        "ida",
        "bruno",
        "clara",
        "greta",
        "fritz",
    ]
    assert table.phase == "day"
    table.day_look("C4")
    table.do(WEREWOLVES, "open B2")
    events = table.do(WEREWOLVES, "move B1")
    assert table.phase == "over" and [e.data["cue"] for e in events] == ["missing", "win"]
    outcome = GAME.outcome(table.state)
    assert outcome is not None and outcome.winning_team == "werewolves"
    assert outcome.stats["missing"] == 8 and outcome.stats["missing_in_setup"] == 3


# -- doors, peeks and what each team sees -----------------------------------------------


def test_an_open_door_closes_by_itself_after_five_seconds(table: Table) -> None:
    table.haunt(["C3", "C4", "C2"])
    table.do(VILLAGE, "open B2")
    house = next(h for h in table.view(VILLAGE)["houses"] if h["house"] == "B2")
    assert house == {"house": "B2", "door": house["door"], "open": True, "content": "fritz"}
    deadline = GAME.deadline(table.state)
    assert deadline is not None and deadline.seconds == 5.0 and str(deadline.action) == "close"
    table.do(None, "close")
    assert all("content" not in h for h in table.view(VILLAGE)["houses"])
    assert "peek" not in table.view(VILLAGE) and table.phase == "night"


def test_a_team_may_close_its_door_before_the_time_is_up(table: Table) -> None:
    table.haunt(["C3", "C4", "C2"])
    table.do(VILLAGE, "open B2")
    table.do(VILLAGE, "close")
    assert "peek" not in table.view(VILLAGE)


def test_only_the_team_that_opened_the_door_sees_behind_it(table: Table) -> None:
    table.haunt(["C3", "C4", "C2"])
    table.do(VILLAGE, "open B2")
    assert "peek" in table.view(VILLAGE)
    other = table.view(WEREWOLVES)
    assert "peek" not in other and all("content" not in h for h in other["houses"])
    assert other["phase"] == "day" and other["step"] == "wait"


def test_no_view_or_event_ever_shows_a_closed_house() -> None:
    """In random matches, a house's content is in a team's view only behind its open doors."""
    from wolfden.engine.conformance import random_steps
    from wolfden.engine.types import SPECTATOR, TABLE, Viewer

    for i, config in enumerate(GAME.sample_configs()):
        for _before, _seat, _action, after, events, _rng in random_steps(
            GAME, config, 100 + i, max_steps=5000
        ):
            if after.phase.value == "over":
                break
            for viewer in (Viewer.of(VILLAGE), Viewer.of(WEREWOLVES), SPECTATOR, TABLE):
                view = GAME.view(after, viewer)
                shown = {h["house"] for h in view["houses"] if "content" in h}
                allowed = {h["house"] for h in view.get("peek", {}).get("houses", ())}
                if "duel" in view:
                    allowed.add(view["duel"]["house"])
                if "move" in view:
                    allowed.add(view["move"]["from"])
                if view["step"] == "place":
                    allowed = shown
                assert shown <= allowed, (viewer, view["phase"], shown, allowed)
                for event in GAME.visible_events(after, events, viewer):
                    assert "content" not in event and "houses" not in event
                    if event.get("cue") not in ("found", "caught", "hides"):
                        assert "house" not in event, event


def test_the_notebook_aid_keeps_what_the_team_saw() -> None:
    t = Table(Config(notebook=True))
    t.place(PEOPLE)
    t.haunt(["A1", "C4", "C2"])
    t.day_look("B2")
    village = {n["house"]: (n["saw"], n["day"]) for n in t.view(VILLAGE)["notebook"]}
    assert village["A1"] == ("ada", 0), "the notebook keeps what was seen, not what is there now"
    assert village["B2"] == ("fritz", 1) and len(village) == 12
    werewolves = {n["house"]: n["saw"] for n in t.view(WEREWOLVES)["notebook"]}
    assert werewolves == {"A1": "werewolf", "C4": "werewolf", "C2": "werewolf"}
    assert "notebook" not in Table().view(VILLAGE)


# -- variants and options ---------------------------------------------------------------


def test_the_extra_difficult_village_is_4x4_with_13_people_3_empty_and_identical_doors() -> None:
    t = Table(Config(layout=Layout.EXTRA_DIFFICULT))
    view = t.view(VILLAGE)
    assert (view["rows"], view["cols"], view["persons_placed"]) == (4, 4, 13)
    assert {h["door"] for h in view["houses"]} == {"red-plain"} and view["doors"] == "difficult"
    t.do(VILLAGE, "scatter")
    contents = [h["content"] for h in t.view(VILLAGE)["houses"]]
    assert len(contents) == 16 and contents.count("empty") == 3
    t.do(VILLAGE, "done")
    t.do(WEREWOLVES, "haunt D4")
    assert t.view(WEREWOLVES)["peek"]["houses"][0]["house"] == "D4"


def test_easy_doors_each_look_different() -> None:
    doors = [h["door"] for h in Table().view(VILLAGE)["houses"]]
    assert len(set(doors)) == 12 and "red-plain" not in doors


def test_in_the_race_each_roll_throws_the_remaining_dice_and_the_first_to_finish_wins(
    table: Table,
) -> None:
    table.haunt(["C3", "C4", "C2"])
    table.do(VILLAGE, "open C4")
    left = 3
    while table.phase == "duel":
        events = table.do(VILLAGE, "roll")
        roll = events[0].data
        assert roll["team"] == "village" and roll["dice"] == left
        assert roll["left"] == left - roll["symbols"]
        left = roll["left"]
        if left:
            assert table.view(WEREWOLVES)["duel"]["dice"] == {"village": left, "werewolves": 3}
    assert left == 0 and table.state.caught == 1, "the Werewolf team never rolled"


def test_the_round_based_duel_waits_for_both_teams_and_a_shared_finish_rolls_again() -> None:
    from wolfden.engine.rng import derive_seed

    t = Table(Config(duel=DuelMode.ROUNDS, symbol_faces=5, dice_per_team=1))
    t.place(PEOPLE)
    t.haunt(["C3", "C4", "C2"])
    t.do(VILLAGE, "open C4")
    start = t.state
    for attempt in range(100):
        t.state = replace(start, rng=derive_seed(attempt, 5))
        t.do(VILLAGE, "roll")
        assert GAME.actors(t.state) == frozenset({WEREWOLVES}) and t.view(VILLAGE)["duel"][
            "ready"
        ] == {"village": True, "werewolves": False}
        events = t.do(WEREWOLVES, "roll")
        if any(e.type == "shared_finish" for e in events):
            assert t.phase == "duel" and t.view(VILLAGE)["duel"]["dice"] == {
                "village": 1,
                "werewolves": 1,
            }
            return
    raise AssertionError("no shared finish in 100 tries")


def test_the_symbol_shows_on_one_face_in_six_by_default() -> None:
    assert Config().symbol_chance == pytest.approx(1 / 6)
    assert Config(symbol_faces=3).symbol_chance == pytest.approx(1 / 2)


def test_german_narration() -> None:
    t = Table(Config(language=Language.DE))
    t.place(PEOPLE)
    assert "Dorf-Team" in t.events[0].text
    t.haunt(["C3", "C4", "C2"])
    t.do(VILLAGE, "open C4")
    assert t.events[0].text.startswith("Gefunden!")
    assert t.view(VILLAGE)["cast"][0]["look"] == "die Bäckerin mit der hohen weißen Mütze"


def test_every_line_exists_in_english_and_german_with_the_same_blanks() -> None:
    import string

    from wolfden.games.werwoelfe_kids.narration import TEXTS

    for key, (en, de) in TEXTS.items():
        blanks = [{f for _, f, _, _ in string.Formatter().parse(t) if f} for t in (en, de)]
        assert en != de or key.startswith("team"), key
        assert blanks[0] == blanks[1], key


def test_hand_over_screens_wake_each_team_on_a_shared_device() -> None:
    t = Table(Config(handover=True))
    assert t.view(VILLAGE)["phase"] == "handover" and t.legal(VILLAGE) == ["wake"]
    assert t.legal(WEREWOLVES) == []
    t.do(VILLAGE, "wake")
    t.place(PEOPLE)
    assert t.view(WEREWOLVES)["waking"] == "werewolves"
    t.do(WEREWOLVES, "wake")
    assert t.phase == "haunt"


# -- errors -----------------------------------------------------------------------------


def test_bad_configs_say_what_is_allowed() -> None:
    with pytest.raises(ConfigError, match="symbol_faces"):
        GAME.setup(Config(symbol_faces=6), 1)
    with pytest.raises(ConfigError, match="1 to 60"):
        GAME.setup(Config(peek_seconds=0.5), 1)


def test_acting_out_of_turn_or_illegally_changes_nothing(table: Table) -> None:
    before = table.state
    with pytest.raises(NotYourTurn, match="werewolves"):
        GAME.apply(before, VILLAGE, Action.parse("open A1"))
    with pytest.raises(IllegalAction, match="allowed: haunt"):
        GAME.apply(before, WEREWOLVES, Action.parse("open A1"))
    with pytest.raises(IllegalAction, match="clock"):
        GAME.apply(before, None, Action.parse("close"))
    assert table.state is before

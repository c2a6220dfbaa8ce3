"""The engine's value types: actions, viewers, events, records, configs and the generator."""

from __future__ import annotations

import json
from dataclasses import dataclass

import pytest
from hypothesis import given
from hypothesis import strategies as st

from wolfden.engine import (
    OMNISCIENT,
    PUBLIC,
    TABLE,
    Action,
    Audience,
    ConfigError,
    Event,
    MatchRecord,
    ParseError,
    Rng,
    Viewer,
    config_from_json,
    config_to_json,
    derive_seed,
    filter_events,
    option,
)

args = st.one_of(st.integers(-(10**9), 10**9), st.text(max_size=30))


@given(st.from_regex(r"[a-z][a-z0-9_]{0,10}", fullmatch=True), st.lists(args, max_size=4))
def test_an_action_round_trips_through_its_text_and_json(name: str, values: list[object]) -> None:
    action = Action(name, tuple(values))  # type: ignore[arg-type]
    assert Action.parse(str(action)) == action
    assert Action.from_json(json.loads(json.dumps(action.to_json()))) == action


def test_actions_print_as_something_you_could_type_back() -> None:
    assert str(Action("vote", (3,))) == "vote 3"
    assert str(Action("play", ("R7",))) == "play R7"
    assert str(Action("ask", ("Is it an animal?",))) == 'ask "Is it an animal?"'
    assert repr(Action("abstain")) == "Action('abstain')"
    assert Action.parse('  ask "a \\"b\\""  ') == Action("ask", ('a "b"',))


@pytest.mark.parametrize("text", ["", "3 vote", "Vote 3", 'ask "unterminated', "vote!"])
def test_unreadable_action_text_is_a_parse_error(text: str) -> None:
    with pytest.raises(ParseError):
        Action.parse(text)


@pytest.mark.parametrize(
    "data", [[], {"name": "Vote"}, {"name": "vote", "args": [True]}, {"name": "x", "y": 1}]
)
def test_malformed_action_json_is_a_parse_error(data: object) -> None:
    with pytest.raises(ParseError):
        Action.from_json(data)


def test_viewers_parse_and_print() -> None:
    assert Viewer.parse("seat:3") == Viewer.of(3)
    assert str(Viewer.of(3)) == "seat:3"
    assert Viewer.parse("table") == TABLE and Viewer.parse("all") == OMNISCIENT
    with pytest.raises(ParseError, match="seat:N"):
        Viewer.parse("seat:-1")


def test_events_reach_only_their_audience() -> None:
    events = [
        Event("a", {}, PUBLIC, "for everyone"),
        Event("b", {"x": 1}, Audience.only(2), "for seat 2"),
    ]
    assert [e["type"] for e in filter_events(events, Viewer.of(1))] == ["a"]
    assert [e["type"] for e in filter_events(events, Viewer.of(2))] == ["a", "b"]
    assert [e["type"] for e in filter_events(events, TABLE)] == ["a"]
    assert [e["type"] for e in filter_events(events, OMNISCIENT)] == ["a", "b"]
    assert [e["type"] for e in filter_events(events, Viewer.of(1), sees_all=True)] == ["a", "b"]


def test_the_generator_is_deterministic_and_uniform_enough() -> None:
    a, b = Rng(7), Rng(7)
    assert [a.below(10) for _ in range(50)] == [b.below(10) for _ in range(50)]
    counts = [0] * 6
    r = Rng(derive_seed(1, 2))
    for _ in range(60_000):
        counts[r.below(6)] += 1
    assert all(9_400 < c < 10_600 for c in counts)
    deck = list(range(36))
    Rng(3).shuffle(deck)
    assert sorted(deck) == list(range(36)) and deck != list(range(36))
    assert derive_seed(1, 2) != derive_seed(1, 3) != derive_seed(2, 2)


@dataclass(frozen=True)
class _Config:
    players: int = option(4, "players")
    speed: float = option(1.0, "speed")
    names: tuple[str, ...] = option((), "names")
    limit: int | None = option(None, "limit")

    def validate(self) -> None:
        if self.players < 3:
            raise ConfigError("players must be 3 or more")


def test_configs_go_to_json_and_back_with_clear_errors() -> None:
    config = config_from_json(_Config, {"players": 5, "names": ["a", "b"], "speed": 2})
    assert config == _Config(players=5, speed=2.0, names=("a", "b"))
    assert config_to_json(config) == {
        "players": 5,
        "speed": 2.0,
        "names": ["a", "b"],
        "limit": None,
    }
    with pytest.raises(ConfigError, match="unknown option plyers; the options are players"):
        config_from_json(_Config, {"plyers": 5})
    with pytest.raises(ConfigError, match="players: expected a whole number"):
        config_from_json(_Config, {"players": "five"})
    with pytest.raises(ConfigError, match="players must be 3 or more"):
        config_from_json(_Config, {"players": 2})
    with pytest.raises(ConfigError, match="limit: expected a whole number or null"):
        config_from_json(_Config, {"limit": 1.5})


def test_a_match_record_round_trips_and_rejects_bad_files(tmp_path: object) -> None:
    record = MatchRecord(
        "werewolf", "1", {"players": 7}, 5, [(0, Action("pick", (3,))), (None, Action("dawn"))]
    )
    again = MatchRecord.from_json(json.loads(record.dumps()))
    assert again.actions == record.actions and again.seed == 5
    with pytest.raises(ParseError, match="needs seed"):
        MatchRecord.from_json({"game": "x", "version": "1", "config": {}, "actions": []})
    with pytest.raises(ParseError, match="action 1"):
        MatchRecord.from_json(
            {"game": "x", "version": "1", "config": {}, "seed": 1, "actions": [["zero", "dawn"]]}
        )

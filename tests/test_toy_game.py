"""A game is added by one registry entry: the CLI, the simulator, the server, the environments,
the terminal and the web lobby then all offer it, and a broken part is an error, not a gap."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.server.conftest import Server
from wolfden import bots, games, terminal
from wolfden.cli import cli
from wolfden.engine import describe_options
from wolfden.server.clock import FakeClock

TOY = games.Entry(
    "toy",
    rules="tests.toy.rules",
    bots="tests.toy.bots",
    env="tests.toy.env",
    terminal="tests.toy.terminal",
)


@pytest.fixture
def toy() -> Iterator[games.Entry]:
    games.register(TOY)
    yield TOY
    games.unregister(TOY.id)


def test_the_cli_lists_the_toy_and_plays_it(toy: games.Entry) -> None:
    listed = CliRunner().invoke(cli, ["games"])
    assert listed.exit_code == 0, listed.output
    line = next(line for line in listed.stdout.splitlines() if line.startswith("toy "))
    assert "Toy" in line and "bots: random, twos" in line
    helped = CliRunner().invoke(cli, ["play", "toy", "--help"])
    assert helped.exit_code == 0, helped.output
    assert "--players" in helped.stdout and "Players at the table." in helped.stdout


def test_the_simulator_plays_the_toy_with_its_own_bots(toy: games.Entry) -> None:
    result = CliRunner().invoke(
        cli, ["simulate", "toy", "--games", "6", "--bots", "twos", "-w", "1", "--json"]
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["game"] == "toy" and data["games"] == 6
    # every seat picks 2: an even total every round, so the Evens win every match
    assert data["bots"]["default"] == "twos"
    assert data["wins"] == {"evens": 6, "odds": 0}


def test_the_server_offers_the_toy_and_opens_a_room_for_it(
    toy: games.Entry, tmp_path: Path
) -> None:
    server = Server(tmp_path / "wolfden.sqlite3", FakeClock(), bot_delay=0.0)
    try:
        listed = {g["id"]: g for g in server.http.get("/api/games").json()}
        assert "toy" in listed
        info = listed["toy"]
        assert info["bots"] == ["random", "twos"] and info["seats"] == 4
        assert info["client"] is None  # the web client plays it through its generic renderer
        players = next(o for o in info["options"] if o["name"] == "players")
        assert players["label"] == "Players" and players["help"] == "Players at the table."
        assert server.create(game="toy")["code"]
    finally:
        server.stop()


def test_the_web_client_takes_labels_and_renderers_from_the_server() -> None:
    web = Path(games.__file__).parents[1] / "web" / "games"
    index = (web / "index.js").read_text(encoding="utf-8")
    meta = (web / "meta.js").read_text(encoding="utf-8")
    for game in games.all():
        entry = games.entry(game.id)
        assert f'"{game.id}"' not in index and f"{game.id}:" not in index  # no list of its own
        assert entry.client is None or (web / entry.client).is_file(), entry
        for option in describe_options(game.Config):
            if "label" in option:  # defined once, in the Config, and served with the game
                assert option["label"] not in meta, (game.id, option["name"])


def test_the_environments_offer_the_toy(toy: games.Entry) -> None:
    pytest.importorskip("pettingzoo", reason="the environments need pettingzoo")
    from wolfden import envs

    assert "toy" in envs.ids()
    env = envs.env("toy", players=4)
    env.reset(seed=3)
    rng = random.Random(3)
    steps = 0
    for _agent in env.agent_iter(max_iter=10_000):
        observation, _reward, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        legal = [i for i, ok in enumerate(observation["action_mask"]) if ok]
        env.step(rng.choice(legal))
        steps += 1
    assert steps >= 4  # at least a round of four picks was played to the end
    assert not env.agents


def test_the_terminal_draws_the_toy_with_its_renderer(toy: games.Entry) -> None:
    assert terminal.render("toy", {"round": 2, "points": [1, 0]}) == (
        "Toy round 2: evens 1, odds 0"
    )


def test_a_broken_part_of_a_game_is_an_error_not_a_missing_part(toy: games.Entry) -> None:
    games.register(games.Entry("toy", rules="tests.toy.rules", terminal="tests.toy.nowhere"))
    with pytest.raises(ModuleNotFoundError, match=r"tests\.toy\.nowhere"):
        terminal.render("toy", {"round": 1, "points": [0, 0]})
    games.register(games.Entry("toy", rules="tests.toy.rules", bots="tests.toy.nowhere"))
    with pytest.raises(ModuleNotFoundError, match=r"tests\.toy\.nowhere"):
        bots.kinds("toy")
    games.register(games.Entry("toy", rules="tests.toy.nowhere"))
    with pytest.raises(ModuleNotFoundError, match=r"tests\.toy\.nowhere"):
        games.get("toy")


def test_a_game_without_bots_or_renderer_still_plays(toy: games.Entry) -> None:
    games.register(games.Entry("toy", rules="tests.toy.rules"))
    assert list(bots.kinds("toy")) == ["random"]
    assert json.loads(terminal.render("toy", {"round": 1, "points": [0, 0]})) == {
        "round": 1,
        "points": [0, 0],
    }

"""The wolfden command as a person uses it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from wolfden.cli import cli


def wolfden(*args: str, input: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "wolfden", *args],
        input=input,
        capture_output=True,
        text=True,
        timeout=120,
        env={**__import__("os").environ, "PYTHONPATH": str(Path(__file__).parents[2] / "src")},
    )


def test_games_lists_every_registered_game() -> None:
    result = CliRunner().invoke(cli, ["games"])
    assert result.exit_code == 0
    assert "werewolf" in result.output and "Werewolf" in result.output
    # The names --bots TEAM=KIND takes.
    assert "teams: town, werewolves" in result.output
    assert "teams: robbers, werewolves" in result.output


def test_bots_play_a_whole_werewolf_game_and_save_it(tmp_path: Path) -> None:
    record = tmp_path / "match.json"
    result = wolfden("play", "werewolf", "--players", "8", "--seed", "4", "--save", str(record))
    assert result.returncode == 0, result.stderr
    assert "Night falls. Everyone, close your eyes." in result.stdout
    assert "Day breaks. Everyone, open your eyes." in result.stdout
    assert "The game is over" in result.stdout
    data = json.loads(record.read_text())
    assert data["game"] == "werewolf" and data["seed"] == 4 and data["actions"]


def test_a_person_plays_a_seat_with_numbered_choices() -> None:
    result = wolfden("play", "werewolf", "--human", "0", "--seed", "4", input="1\n" * 200)
    assert result.returncode == 0, result.stderr
    assert "You are Player 1" in result.stdout
    assert "your choice" in result.stdout


def test_a_person_plays_beside_bots_chosen_by_team() -> None:
    result = wolfden(
        "play",
        "werewolf",
        "--human",
        "0",
        "--bots",
        "werewolves=rules,town=random",
        "--seed",
        "4",
        input="1\n" * 200,
    )
    assert result.returncode == 0, result.stderr
    assert "You are Player 1" in result.stdout and "The game is over" in result.stdout


def test_two_people_at_one_keyboard_get_hand_over_screens() -> None:
    result = wolfden(
        "play", "werewolf", "--human", "0", "--human", "1", "--seed", "9", input="\n1\n" * 400
    )
    assert result.returncode == 0, result.stderr
    assert "Pass the keyboard to Player" in result.stdout


def test_replay_shows_only_what_the_chosen_seat_saw(tmp_path: Path) -> None:
    record = tmp_path / "m.json"
    assert wolfden("play", "werewolf", "--seed", "4", "--save", str(record)).returncode == 0
    data = json.loads(record.read_text())
    runner = CliRunner()
    as_table = runner.invoke(cli, ["replay", str(record)])
    assert as_table.exit_code == 0
    assert "picks" not in as_table.output  # the pack's picks are not public
    wolf = next(int(s) for s, r in _roles(record).items() if r == "werewolf")
    as_wolf = runner.invoke(cli, ["replay", str(record), "--as", str(wolf)])
    assert " picks " in as_wolf.output
    assert data["actions"]


def _roles(record: Path) -> dict[str, str]:
    from wolfden import games
    from wolfden.engine.record import MatchRecord, final_state

    state = final_state(games.get("werewolf"), MatchRecord.load(record))
    return {str(s): r.value for s, r in enumerate(state.roles)}


@pytest.mark.parametrize(
    "args, message",
    [
        (["play", "werewolf", "--players", "4"], "players must be from 5 to 16"),
        (["play", "werewolf", "--bogus"], "No such option"),
        (["play", "chess"], "unknown game 'chess'; the games are werewolf"),
        (["play", "werewolf", "--human", "9"], "--human 9: seats are numbered 0 to 6"),
        (["play", "werewolf", "--bots", "genius"], "unknown bot 'genius'"),
        (["play", "werewolf", "--bots", "village=rules"], "teams town, werewolves"),
        (["replay", "/no/such/file.json"], "cannot read /no/such/file.json"),
        (["replay", "/no/such/file.json", "--as", "x"], "cannot read"),
    ],
)
def test_bad_flags_and_files_give_one_clear_line_and_exit_2(args: list[str], message: str) -> None:
    result = wolfden(*args)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert message in lines[0]
    assert "Traceback" not in result.stderr


def test_replay_of_a_broken_file_is_a_clear_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    result = wolfden("replay", str(bad))
    assert result.returncode == 2 and "is not JSON" in result.stderr

"""`wolfden simulate`: options from the game's Config, JSON shape, reports, clear errors."""

from __future__ import annotations

import csv
import json
import os
import queue
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from wolfden.sim.cli import simulate_command

HERE = Path(__file__).resolve().parent
SRC = HERE.parents[1] / "src"


def simulate(*args):
    result = CliRunner().invoke(simulate_command, list(args), catch_exceptions=False)
    return result


def test_json_has_the_agreed_shape():
    result = simulate("sim_tinygame", "--games", "60", "--workers", "1", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["game"] == "tiny-parity"
    assert data["games"] == 60
    assert sum(data["wins"].values()) == 60
    for team, entry in data["win_rate"].items():
        assert entry["rate"] == data["wins"][team] / 60
        lo, hi = entry["ci95"]
        assert 0 <= lo <= entry["rate"] <= hi <= 1
    assert data["mean_rounds"] > 0
    assert set(data["roles"]) == {"captain", "player"}
    assert set(data["seats"]) == {"0", "1", "2", "3"}
    assert data["extras"]["first_point"]["games"] == 60
    assert data["seed"] == 1 and data["interrupted"] is False


def test_config_fields_become_flags():
    result = simulate(
        "sim_tinygame",
        "--players",
        "6",
        "--variant",
        "loaded",
        "--max-rounds",
        "5",
        "--no-announce",
        "--target",
        "2",
        "--games",
        "10",
        "--workers",
        "1",
        "--json",
    )
    assert result.exit_code == 0, result.output
    config = json.loads(result.stdout)["config"]
    assert config["players"] == 6
    assert config["variant"] == "loaded"
    assert config["max_rounds"] == 5
    assert config["announce"] is False
    assert config["target"] == 2


def test_help_lists_the_games_options_with_their_help():
    result = simulate("sim_tinygame", "--help")
    assert result.exit_code == 0
    assert "--players" in result.output and "Players at the table." in result.output
    assert "--variant [plain|loaded]" in result.output


def test_text_output_shows_rates_with_intervals():
    result = simulate("sim_tinygame", "--games", "40", "--workers", "1", "--seed", "9")
    assert result.exit_code == 0
    assert "Win rate by team (Wilson 95% interval)" in result.stdout
    assert "95% CI [" in result.stdout
    assert "seed 9" in result.stdout


def test_same_seed_same_json_with_one_or_two_workers():
    outs = []
    for workers in ("1", "2"):
        result = simulate(
            "sim_tinygame", "--games", "80", "--workers", workers, "--json", "--seed", "4"
        )
        data = json.loads(result.stdout)
        for key in ("seconds", "games_per_second", "workers"):
            data.pop(key)
        outs.append(data)
    assert outs[0] == outs[1]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["no-such-game"], "unknown game 'no-such-game'"),
        (["sim_tinygame", "--players", "9"], "players must be 2 to 6, got 9"),
        (["sim_tinygame", "--bots", "genius"], "unknown bot 'genius'"),
        (["sim_tinygame", "--bots", "random,random"], "2 kinds for 4 seats"),
    ],
)
def test_bad_input_is_one_line_and_exit_code_2(args, message):
    result = CliRunner().invoke(simulate_command, [*args, "--games", "1"])
    assert result.exit_code == 2
    assert message in result.stderr
    assert "Traceback" not in result.output


def test_config_validation_errors_come_from_the_game():
    result = CliRunner().invoke(
        simulate_command, ["sim_tinygame", "--max-rounds", "0", "--games", "1"]
    )
    assert result.exit_code == 2
    assert result.stderr.strip() == "wolfden: max_rounds must be at least 1, or none"


def test_report_writes_html_plots_and_raw_csv(tmp_path):
    import matplotlib.image

    out = tmp_path / "report"
    result = simulate("sim_tinygame", "--games", "50", "--workers", "1", "--report", str(out))
    assert result.exit_code == 0
    page = (out / "index.html").read_text()
    for image in ("teams.png", "roles.png", "seats.png", "rounds.png"):
        assert f"src='{image}'" in page
        pixels = matplotlib.image.imread(out / image)
        assert pixels.shape[0] > 100 and pixels.shape[1] > 100
        assert pixels.std() > 0.01  # a drawn plot, not a blank canvas
    rows = list(csv.DictReader((out / "results.csv").open()))
    assert len(rows) == 50
    assert [int(r["game"]) for r in rows] == list(range(50))
    assert {r["team_0"] for r in rows} == {"evens"}
    summary = json.loads((out / "summary.json").read_text())
    assert sum(1 for r in rows if r["winning_team"] == "odds") == summary["wins"].get("odds", 0)


def test_ctrl_c_in_a_terminal_run_reports_the_finished_games():
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(SRC), str(HERE)])}
    # the run says on stderr when its first chunk of games is in: Ctrl-C comes after that
    code = (
        "import sys\n"
        "from wolfden.sim import simulate\n"
        "from wolfden.sim.cli import simulate_command\n"
        "add = simulate.Study.add\n"
        "def noted(self, chunk):\n"
        "    add(self, chunk)\n"
        "    if len(self.done) == 1:\n"
        "        print('first games in', file=sys.stderr, flush=True)\n"
        "simulate.Study.add = noted\n"
        "if __name__ == '__main__':\n"
        "    simulate_command(['sim_tinygame', '--games', '50000000', '--workers', '2',"
        " '--json'])\n"
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", code],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    lines: queue.Queue[str] = queue.Queue()
    reader = threading.Thread(target=lambda: [lines.put(line) for line in proc.stderr])
    reader.start()
    seen = []
    deadline = time.monotonic() + 120
    while "first games in\n" not in seen:
        assert proc.poll() is None, "".join(seen)
        seen.append(lines.get(timeout=max(0.1, deadline - time.monotonic())))
    proc.send_signal(signal.SIGINT)
    out = proc.stdout.read()
    returncode = proc.wait(timeout=120)
    reader.join(timeout=120)  # stderr is closed: the reader has put every line
    while not lines.empty():
        seen.append(lines.get_nowait())
    err = "".join(seen)
    assert returncode == 130, err
    data = json.loads(out)
    assert data["interrupted"] is True
    assert 0 < data["games"] < data["requested"]
    assert f"interrupted: {data['games']} of 50000000 games finished" in err
    assert "Traceback" not in err


def test_the_wolfden_command_runs_simulate(capsys):
    from wolfden.cli import main

    main(
        [
            "simulate",
            "werewolf",
            "--players",
            "8",
            "--games",
            "12",
            "--bots",
            "random",
            "--workers",
            "1",
            "--json",
        ]
    )
    data = json.loads(capsys.readouterr().out)
    assert data["game"] == "werewolf" and data["games"] == 12
    assert data["config"]["players"] == 8
    assert set(data["win_rate"]) <= {"town", "werewolves"}
    assert "first_death_role" in data["extras"]


def test_the_raw_csv_names_each_seats_bot_by_its_team(tmp_path):
    from wolfden.cli import main

    out = tmp_path / "report"
    main(
        [
            "simulate",
            "werewolf",
            "--games",
            "20",
            "--bots",
            "werewolves=rules,*=random,0=rules",
            "--workers",
            "1",
            "--report",
            str(out),
        ]
    )
    rows = list(csv.DictReader((out / "results.csv").open()))
    assert len(rows) == 20
    for row in rows:
        assert row["bot_0"] == "rules"
        for seat in range(1, 7):
            expected = "rules" if row[f"team_{seat}"] == "werewolves" else "random"
            assert row[f"bot_{seat}"] == expected


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["simulate", "os"], "unknown game 'os'"),
        (["simulate", "werewolf", "--players", "30"], "players must be from 5 to 16"),
        (["simulate", "werewolf", "--bots", "village=random"], "unknown team 'village'"),
        (["simulate", "werewolf", "--bots", "werewolves=genius"], "unknown bot 'genius'"),
        (["simulate", "werewords", "--mode", "companion", "--bots", "village=rules"], "per seat"),
    ],
)
def test_the_wolfden_command_reports_bad_input_on_one_line(capsys, args, message):
    from wolfden.cli import main

    with pytest.raises(SystemExit) as exit_info:
        main([*args, "--games", "1"])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1


def test_bots_by_team_from_the_wolfden_command(capsys):
    from wolfden.cli import main

    main(
        [
            "simulate",
            "werewolf",
            "--games",
            "20",
            "--bots",
            "werewolves=rules,town=random",
            "--workers",
            "1",
            "--json",
        ]
    )
    data = json.loads(capsys.readouterr().out)
    assert data["bots"] == {
        "default": "random",
        "seats": {},
        "teams": {"town": "random", "werewolves": "rules"},
    }
    assert data["games"] == 20


def test_a_bad_bots_spec_names_the_games_teams_and_bots(capsys):
    from wolfden.cli import main

    with pytest.raises(SystemExit) as exit_info:
        main(["simulate", "robbers-horror", "--bots", "wolves=rules", "--games", "1"])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in err
    assert "unknown team 'wolves' for robbers-horror" in err
    assert "robbers-horror has bots random, rules, ismcts and teams robbers, werewolves" in err


def test_werewolf_setup_deals_the_roles_it_names():
    """--setup takes the setup editor's syntax; the matches deal exactly those cards."""
    result = simulate(
        "werewolf",
        "--setup",
        "werewolf=2,seer,witch,hunter,villager=3",
        "--games",
        "12",
        "--workers",
        "1",
        "--json",
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["games"] == 12
    assert data["config"]["players"] == 8
    assert (data["config"]["witches"], data["config"]["hunters"]) == (1, 1)
    assert data["config"]["guardians"] == 0 and data["config"]["werewolves"] == 2


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--setup", "werewolf=2,wolf"], "unknown role 'wolf'"),
        (["--setup", "werewolf=3,villager=3"], "more non-Werewolves than Werewolves"),
        (["--setup", "werewolf,villager=5", "--players", "6"], "give --setup or --players"),
    ],
)
def test_werewolf_setup_refusals_say_why(args, message):
    result = CliRunner().invoke(simulate_command, ["werewolf", *args, "--games", "2"])
    assert result.exit_code != 0
    assert message in result.output

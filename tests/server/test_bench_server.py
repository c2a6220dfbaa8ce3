"""``wolfden bench server`` end to end, small: both servers run in their own processes and the
report says what a reader of docs/benchmarks.md relies on."""

from __future__ import annotations

import re

from click.testing import CliRunner

from wolfden_bench.server import Master, Phase, bench_server_command, budget_lines, keeps_pace


def _row(text: str, name: str) -> list[str]:
    line = next(line for line in text.splitlines() if line.startswith(f"| {name} |"))
    return [cell.strip() for cell in line.strip("|").split("|")]


def test_a_small_run_plays_on_both_servers_without_errors_and_reports_both(tmp_path) -> None:
    doc = tmp_path / "benchmarks.md"
    result = CliRunner().invoke(
        bench_server_command,
        [
            "--rooms", "3", "--players", "7", "--seconds", "2", "--saturation", "1",
            "--interval", "0.25", "--output", str(doc),
        ],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    text = result.stdout
    ours, bare = _row(text, "wolfden serve"), _row(text, "bare Starlette broadcast")
    for row in (ours, bare):
        assert row[4] == "0/0"  # errors/timeouts
        assert float(row[1]) > 0 and float(row[5]) > 0  # paced and saturation actions/s
        assert row[-1].startswith("0 /")  # no late views
    assert float(ours[7]) > 0  # the server's CPU per action was read
    # the paced target gets a verdict either way (whether it is met depends on the machine)
    assert re.search(r"Paced target .*: (met|NOT met) — ", text), text
    assert "no action to take" in text
    # the master alone: its time per action and the parts of it, and the budget they meet
    master = re.search(
        r"The match master alone .*?; (\d+) actions\): ([\d.]+) ms of CPU per action, "
        r"([\d.]+) ms of it publishing .*? and ([\d.]+) ms appending to SQLite",
        text,
    )
    assert master, text
    actions, total, publish, store = (float(x) for x in master.groups())
    assert actions >= 2000 and 0 < publish < total and 0 < store < total
    budget = re.search(r"under ([\d.]+) ms per action.* makes ([\d.]+) ms, (leaving|over)", text)
    assert budget, text
    need, floor, verdict = float(budget[1]), float(budget[2]), budget[3]
    assert verdict == ("leaving" if floor <= need else "over")
    assert floor > total  # the bare app's own server work comes on top of the master's
    written = doc.read_text()
    assert "## Server" in written
    assert (
        "`wolfden bench server --rooms 3 --players 7 --seconds 2 --saturation 1 "
        "--interval 0.25`" in written
    )


def test_keeping_pace_is_about_turns_starting_on_time_not_the_action_rate() -> None:
    on_time = Phase(actions=10, ticks=16, behind=0.004)
    assert keeps_pace(on_time, 1.0)  # six turns waited for the clock: still on time
    assert not keeps_pace(Phase(actions=16, ticks=16, behind=1.2), 1.0)  # fell behind
    assert not keeps_pace(Phase(actions=15, ticks=16, behind=0.0, timeouts=1), 1.0)
    assert not keeps_pace(Phase(), 1.0)  # nothing was played


def test_the_budget_compares_the_master_with_half_the_bare_apps_rate() -> None:
    master = Master(rooms=2, actions=100, cpu=0.02, publish=0.012, store=0.003, frames=700)
    roomy = budget_lines({"master": master, "bare": (Phase(), _phase(server=0.1, clients=0.2))})
    assert "0.20 ms of CPU per action, 0.12 ms of it publishing" in roomy[0]
    assert "0.03 ms appending to SQLite" in roomy[0] and "7.0 view frames per action" in roomy[0]
    # the bare app's clients hold it at 0.20 ms: half its rate leaves 0.40 ms; 0.10 + 0.20 fit
    assert "held by its clients (0.20 ms" in roomy[1] and "under 0.40 ms" in roomy[1]
    assert "makes 0.30 ms, leaving 0.10 ms" in roomy[1]
    tight = budget_lines({"master": master, "bare": (Phase(), _phase(server=0.15, clients=0.1))})
    assert "held by its server (0.15 ms" in tight[1] and "under 0.30 ms" in tight[1]
    assert "makes 0.35 ms, over that budget" in tight[1]
    assert budget_lines({"bare": (Phase(), Phase())}) == []  # no master measured: nothing to say


def _phase(*, server: float, clients: float) -> Phase:
    """A saturation phase of 1000 actions with these milliseconds of CPU per action."""
    return Phase(actions=1000, server_cpu=server, client_cpu=clients)

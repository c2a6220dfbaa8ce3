"""``wolfden bench server`` end to end, small: both servers run in their own processes and the
report says what a reader of docs/benchmarks.md relies on."""

from __future__ import annotations

import re

from click.testing import CliRunner

from wolfden.server.bench import Phase, bench_server_command, keeps_pace


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
    # a short run with its first turns spread over the first interval still keeps pace
    assert re.search(r"Paced target .*: met — ", text), text
    assert "no action to take" in text
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

"""The environments' throughput benchmark plays whole matches and reports every game."""

from __future__ import annotations

from wolfden import envs
from wolfden_bench import envs as env_bench
from wolfden_bench.playouts import measure_together


def test_every_playout_plays_a_whole_match() -> None:
    for game_id in envs.ids():
        for label, play in env_bench.entries(game_id):
            assert play(1) > 0, label


def test_the_section_has_a_row_per_game() -> None:
    table, lines = env_bench.section(
        measure_together, ["robbers-horror", "werewolf"], repeat=1, seconds=0.05
    )
    rows = table.splitlines()
    assert len(rows) == 4 and len(lines) == 2
    assert rows[2].startswith("| robbers-horror |") and rows[3].startswith("| werewolf |")

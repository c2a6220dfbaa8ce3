"""Several nodes serving one room: people on different nodes play whole matches with bots."""

from __future__ import annotations

from tests.cluster.conftest import Cluster, Table


def test_people_on_different_nodes_play_a_whole_match_with_bots(cluster: Cluster) -> None:
    table = Table(cluster, seed=11)
    try:
        table.run()
        table.check()
        # the people really were on different nodes, and nobody had to move
        assert len({p.node.pid for p in table.people if p.node}) == 3
        assert all(not p.closes for p in table.people), [p.closes for p in table.people]
        # any node answers for the room
        for node in cluster.nodes:
            room = node.http.get(f"/api/rooms/{table.code}").json()
            assert room["status"] == "finished"
    finally:
        table.close()

"""Two nodes on one PostgreSQL database race for the same rooms: each room gets exactly one
master, and a write fenced with a stale token never lands after a takeover."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from wolfden.storage.errors import FencedOut
from wolfden.storage.rooms import StoredMatch, open_room_store


def test_racing_nodes_get_one_master_per_room(postgres: Any) -> None:
    url = postgres.new_database()
    nodes = [open_room_store(url) for _ in range(2)]
    rooms = [f"R{i:05d}" for i in range(60)]
    won: dict[str, list[str]] = {room: [] for room in rooms}
    start = threading.Barrier(2)

    def race(index: int) -> None:
        start.wait()
        for room in rooms:
            if nodes[index].acquire_lease(room, f"node-{index}", now=1.0, ttl=30.0) is not None:
                won[room].append(f"node-{index}")

    threads = [threading.Thread(target=race, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for node in nodes:
        node.close()
    assert all(len(winners) == 1 for winners in won.values()), won


def test_a_stale_master_racing_a_takeover_never_writes_after_it(postgres: Any) -> None:
    url = postgres.new_database()
    a, b = open_room_store(url), open_room_store(url)
    old = a.acquire_lease("ROOM01", "node-a", now=0.0, ttl=1.0)
    assert old is not None
    a.create_match(
        StoredMatch("m-1", "ROOM01", "werewolf", "1", {}, 1, {}, 0.0, None, None, 1, 0.0, None),
        fence=old,
    )
    landed: list[int] = []
    done = threading.Event()

    def stale_writer() -> None:
        idx = 0
        while not done.is_set():
            try:
                a.append_action(
                    "m-1",
                    idx,
                    0,
                    f"x{idx}",
                    1.0,
                    phase_seq=1,
                    phase_started=0.0,
                    new_phase=False,
                    fence=old,
                )
            except FencedOut:
                return
            landed.append(idx)
            idx += 1

    writer = threading.Thread(target=stale_writer)
    writer.start()
    new = b.acquire_lease("ROOM01", "node-b", now=5.0, ttl=10.0)
    assert new is not None and new > old
    seen_at_takeover = b.load_match("m-1")
    writer.join(timeout=60)
    done.set()
    assert not writer.is_alive()
    final = b.load_match("m-1")
    assert seen_at_takeover is not None and final is not None
    # everything the old master committed was committed before the new one loaded the log
    assert final.actions == seen_at_takeover.actions
    assert len(final.actions) == len(landed)
    with pytest.raises(FencedOut):
        a.set_clock("m-1", 9.0, None, fence=old)
    a.close()
    b.close()

"""Every Bus keeps one contract: Redis (between processes) and the in-process twin deliver a
node's messages to one node or to all, in the order they were sent, as copies."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from wolfden.server.bus import Bus, LocalBus, LocalHub, RedisBus, open_bus

KINDS = ["local", "redis"]


class Inbox:
    def __init__(self) -> None:
        self.got: list[dict[str, Any]] = []
        self.resets = 0
        self.arrived = asyncio.Event()

    def deliver(self, msg: dict[str, Any]) -> None:
        self.got.append(msg)
        self.arrived.set()

    def reset(self) -> None:
        self.resets += 1
        self.arrived.set()

    async def wait(self, condition: Any, timeout: float = 20) -> None:
        async def until() -> None:
            while not condition():
                self.arrived.clear()
                await self.arrived.wait()

        await asyncio.wait_for(until(), timeout)


def buses(kind: str, request: pytest.FixtureRequest, names: list[str]) -> list[Bus]:
    if kind == "local":
        hub = LocalHub()
        return [LocalBus(hub, n) for n in names]
    url = request.getfixturevalue("redis_service").url
    prefix = f"test{id(request)}"
    return [RedisBus(url, n, prefix=prefix) for n in names]


@pytest.mark.parametrize("kind", KINDS)
def test_messages_reach_one_node_or_all_in_order(kind: str, request: pytest.FixtureRequest) -> None:
    async def main() -> None:
        a, b, c = buses(kind, request, ["a", "b", "c"])
        inboxes = {bus.node: Inbox() for bus in (a, b, c)}
        for bus in (a, b, c):
            await bus.start(inboxes[bus.node].deliver, inboxes[bus.node].reset)
        try:
            sent = {"t": "frames", "f": [["c1", '{"type":"view"}']], "n": 0}
            for n in range(50):
                a.send("b", {**sent, "n": n})
            a.send(None, {"t": "owner", "room": "ABCDEF", "node": "a"})
            await inboxes["b"].wait(lambda: len(inboxes["b"].got) == 51)
            await inboxes["c"].wait(lambda: len(inboxes["c"].got) == 1)
            await inboxes["a"].wait(lambda: len(inboxes["a"].got) == 1)
            assert [m["n"] for m in inboxes["b"].got[:50]] == list(range(50))
            assert inboxes["b"].got[0] == {**sent, "n": 0}
            assert inboxes["b"].got[0] is not sent
            assert inboxes["c"].got == [{"t": "owner", "room": "ABCDEF", "node": "a"}]
        finally:
            for bus in (a, b, c):
                await bus.close()

    asyncio.run(main())


def test_a_redis_bus_says_so_when_it_got_its_connection_back(redis_service: Any) -> None:
    async def main() -> None:
        a = RedisBus(redis_service.url, "a", prefix="reset")
        b = RedisBus(redis_service.url, "b", prefix="reset")
        inbox_a, inbox_b = Inbox(), Inbox()
        await a.start(inbox_a.deliver, inbox_a.reset)
        await b.start(inbox_b.deliver, inbox_b.reset)
        try:
            await asyncio.to_thread(redis_service.stop)
            await asyncio.to_thread(redis_service.start)
            await inbox_b.wait(lambda: inbox_b.resets == 1)
            await inbox_a.wait(lambda: inbox_a.resets == 1)
            # and it carries messages again
            a.send("b", {"t": "after"})
            await inbox_b.wait(lambda: inbox_b.got == [{"t": "after"}])
        finally:
            await a.close()
            await b.close()

    asyncio.run(main())


def test_the_bus_address_must_be_redis() -> None:
    with pytest.raises(ValueError, match=r"--bus is the address of a Redis server"):
        open_bus("postgresql://db/wolfden", "a")


def test_serve_refuses_a_bus_without_a_shared_database_or_redis(tmp_path: Any) -> None:
    from click.testing import CliRunner

    from wolfden.server.cli import serve_command

    runner = CliRunner()
    alone = runner.invoke(
        serve_command, ["--bus", "redis://127.0.0.1:6379/0", "--db", str(tmp_path / "a.db")]
    )
    assert alone.exit_code == 2
    assert "give --db postgresql://" in alone.output
    wrong = runner.invoke(
        serve_command, ["--bus", "http://127.0.0.1:6379", "--db", "postgresql://u@127.0.0.1/x"]
    )
    assert wrong.exit_code == 2
    assert "--bus is the address of a Redis server" in wrong.output
    assert not (tmp_path / "a.db").exists()

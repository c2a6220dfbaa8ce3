"""The bus between the nodes of a cluster: small JSON messages from one node to another (or to
all of them), delivered in the order they were sent, at most once.

``Bus`` is the interface the cluster (``cluster.py``) talks through. ``RedisBus`` carries it over
Redis publish/subscribe (redis-py's asyncio client): one channel per node and one for all. Its
twin ``LocalBus`` joins nodes of one process through a ``LocalHub`` (for tests of the cluster's
logic without any server). A single server has no bus at all.

Delivery is at most once: while Redis is away (restarted, cut off) messages are lost. A bus that
got its connection back says so (``on_reset``), and the cluster then drops whatever depended on
the messages it may have missed: the connections relayed through other nodes reconnect.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Any, Protocol

import orjson

log = logging.getLogger("wolfden.server")

Deliver = Callable[[dict[str, Any]], None]
"""Called in the event loop with each message that arrives, in order."""


class Bus(Protocol):
    node: str
    """This node's name: the address other nodes send to."""

    async def start(self, deliver: Deliver, on_reset: Callable[[], None]) -> None:
        """Begin receiving: ``deliver`` gets every message sent to this node or to all;
        ``on_reset`` is called after the bus lost its connection and got it back."""

    def send(self, node: str | None, msg: dict[str, Any]) -> None:
        """Queue ``msg`` for ``node`` (None: every node, this one included). Never blocks;
        the messages of one sender reach one receiver in the order they were queued."""

    async def close(self) -> None: ...


class LocalHub:
    """The nodes of one process that a ``LocalBus`` joins."""

    def __init__(self) -> None:
        self.nodes: dict[str, LocalBus] = {}


class LocalBus:
    """The in-process twin of ``RedisBus``: the same calls, delivered through the event loop."""

    def __init__(self, hub: LocalHub, node: str) -> None:
        self.hub = hub
        self.node = node
        self.deliver: Deliver | None = None

    async def start(self, deliver: Deliver, on_reset: Callable[[], None]) -> None:
        self.deliver = deliver
        self.hub.nodes[self.node] = self

    def send(self, node: str | None, msg: dict[str, Any]) -> None:
        targets = list(self.hub.nodes.values()) if node is None else [self.hub.nodes.get(node)]
        loop = asyncio.get_running_loop()
        for target in targets:
            if target is not None and target.deliver is not None:
                # a copy, as over the network: the receiver never shares the sender's objects
                loop.call_soon(target.deliver, orjson.loads(orjson.dumps(msg)))

    async def close(self) -> None:
        self.hub.nodes.pop(self.node, None)
        self.deliver = None


def _driver() -> Any:
    try:
        import redis.asyncio
    except ImportError as exc:  # pragma: no cover - depends on the installation
        raise ValueError("--bus redis://... needs redis-py: pip install 'wolfden[nodes]'") from exc
    return redis.asyncio


class RedisBus:
    """The bus over Redis publish/subscribe: channel ``wolfden:node:NAME`` for each node and
    ``wolfden:all`` for every node. One writer task publishes the queued messages, a batch per
    channel in one PUBLISH (in order); one reader task listens, and after a lost connection
    subscribes again (every half second) and calls ``on_reset``."""

    RETRY_SECONDS = 0.5

    def __init__(self, url: str, node: str, *, prefix: str = "wolfden") -> None:
        self.redis = _driver()
        self.url = url
        self.node = node
        self.prefix = prefix
        self.mine = f"{prefix}:node:{node}"
        self.everyone = f"{prefix}:all"
        self.queue: asyncio.Queue[tuple[str, dict[str, Any]]] = asyncio.Queue()
        self.tasks: list[asyncio.Task[None]] = []
        self.client: Any = None

    def channel(self, node: str | None) -> str:
        return self.everyone if node is None else f"{self.prefix}:node:{node}"

    async def start(self, deliver: Deliver, on_reset: Callable[[], None]) -> None:
        self.client = self.redis.from_url(
            self.url, socket_connect_timeout=2, socket_timeout=None, health_check_interval=5
        )
        subscribed = asyncio.get_running_loop().create_future()
        loop = asyncio.get_running_loop()
        self.tasks = [
            loop.create_task(self._read(deliver, on_reset, subscribed)),
            loop.create_task(self._write()),
        ]
        # the first subscription is in place before the node serves (or the bus is down,
        # which the reader keeps trying)
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(asyncio.shield(subscribed), 5)

    def send(self, node: str | None, msg: dict[str, Any]) -> None:
        self.queue.put_nowait((self.channel(node), msg))

    async def _write(self) -> None:
        while True:
            first = await self.queue.get()
            batch = [first]
            while not self.queue.empty():
                batch.append(self.queue.get_nowait())
            by_channel: dict[str, list[dict[str, Any]]] = {}
            for channel, msg in batch:
                by_channel.setdefault(channel, []).append(msg)
            for attempt in range(3):
                try:
                    async with self.client.pipeline(transaction=False) as pipe:
                        for channel, msgs in by_channel.items():
                            pipe.publish(channel, orjson.dumps(msgs))
                        await pipe.execute()
                    break
                except Exception as exc:
                    # a connection the server closed (Redis restarted) is made again on the
                    # next try; when the bus is down these messages are lost
                    if attempt == 2:
                        log.warning("bus: %d messages not sent: %s", len(batch), exc)
                    await asyncio.sleep(self.RETRY_SECONDS / 5)

    async def _read(
        self, deliver: Deliver, on_reset: Callable[[], None], subscribed: asyncio.Future[None]
    ) -> None:
        connected_before = False
        while True:
            pubsub = self.client.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.subscribe(self.mine, self.everyone)
                if connected_before:
                    log.warning("bus: connected again; connections relayed by others move")
                    on_reset()
                connected_before = True
                if not subscribed.done():
                    subscribed.set_result(None)
                while True:
                    message = await pubsub.get_message(timeout=1.0)
                    if message is None or message.get("type") != "message":
                        continue
                    for msg in orjson.loads(message["data"]):
                        try:
                            deliver(msg)
                        except Exception:
                            log.exception("bus: a %s message could not be handled", msg.get("t"))
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                if connected_before:
                    log.warning("bus: connection lost (%s); trying again", exc)
                await asyncio.sleep(self.RETRY_SECONDS)
            finally:
                with contextlib.suppress(Exception):
                    await pubsub.aclose()

    async def close(self) -> None:
        for task in self.tasks:
            task.cancel()
        for task in self.tasks:
            with contextlib.suppress(BaseException):
                await task
        if self.client is not None:
            with contextlib.suppress(Exception):
                await self.client.aclose()


def check_address(url: str) -> None:
    """Refuse a ``--bus`` that is not the address of a Redis server."""
    if not url.startswith(("redis://", "rediss://", "unix://")):
        raise ValueError(
            f"--bus is the address of a Redis server (redis://host:6379/0), not {url[:60]!r}"
        )


def open_bus(url: str, node: str) -> Bus:
    """The bus for ``--bus``: a ``redis://`` (or ``rediss://``) address."""
    check_address(url)
    return RedisBus(url, node)

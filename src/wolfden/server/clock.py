"""The server's clock, injected: real time in production, a fake clock that tests move by hand."""

from __future__ import annotations

import asyncio
import heapq
import itertools
import time
from typing import Protocol


class Clock(Protocol):
    def now(self) -> float:
        """Seconds since the Unix epoch."""

    async def sleep_until(self, when: float) -> None:
        """Return once ``now() >= when``."""


class RealClock:
    def now(self) -> float:
        return time.time()

    async def sleep_until(self, when: float) -> None:
        while (left := when - time.time()) > 0:
            await asyncio.sleep(left)


class FakeClock:
    """Time stands still until ``advance`` or ``set`` moves it (from the event loop's thread)."""

    def __init__(self, start: float = 1_800_000_000.0) -> None:
        self._now = start
        self._sleepers: list[tuple[float, int, asyncio.Future[None]]] = []
        self._order = itertools.count()

    def now(self) -> float:
        return self._now

    async def sleep_until(self, when: float) -> None:
        if when <= self._now:
            await asyncio.sleep(0)
            return
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._sleepers, (when, next(self._order), fut))
        await fut

    def advance(self, seconds: float) -> None:
        self.set(self._now + seconds)

    def set(self, when: float) -> None:
        self._now = max(self._now, when)
        while self._sleepers and self._sleepers[0][0] <= self._now:
            _, _, fut = heapq.heappop(self._sleepers)
            if not fut.done():
                fut.set_result(None)

    def next_wakeup(self) -> float | None:
        """When the earliest sleeper wakes, or None (lets a test jump straight to it)."""
        while self._sleepers and self._sleepers[0][2].done():
            heapq.heappop(self._sleepers)
        return self._sleepers[0][0] if self._sleepers else None

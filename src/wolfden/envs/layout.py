"""Named, documented layouts for observation vectors and discrete action spaces.

An environment declares its observation as a list of :class:`Block` (name, size, meaning) and
its actions as a list of :class:`ActionGroup`; both print as the tables in ``docs/rl.md``, so
the documentation and the encoding cannot drift apart.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from wolfden.engine.types import Action

Vector = npt.NDArray[np.float32]


@dataclass(frozen=True)
class Block:
    """A run of ``size`` observation entries, each in [0, 1]."""

    name: str
    size: int
    meaning: str


class ObsLayout:
    """The fixed observation vector of one game config: blocks laid end to end."""

    def __init__(self, blocks: Iterable[Block]) -> None:
        self.blocks = tuple(blocks)
        self._slices: dict[str, slice] = {}
        offset = 0
        for block in self.blocks:
            if block.name in self._slices:
                raise ValueError(f"observation block {block.name!r} is declared twice")
            if block.size < 1:
                raise ValueError(f"observation block {block.name!r} has no entries")
            self._slices[block.name] = slice(offset, offset + block.size)
            offset += block.size
        self.size = offset

    def slot(self, name: str) -> slice:
        return self._slices[name]

    def writer(self) -> ObsWriter:
        return ObsWriter(self)

    def describe(self) -> str:
        """A Markdown table: entries, block, meaning."""
        rows = ["| entries | block | meaning |", "|---|---|---|"]
        for block in self.blocks:
            s = self._slices[block.name]
            where = str(s.start) if block.size == 1 else f"{s.start}–{s.stop - 1}"
            rows.append(f"| {where} | `{block.name}` | {block.meaning} |")
        return "\n".join(rows)


class ObsWriter:
    """Fills one observation vector block by block; every value is clipped to [0, 1]."""

    def __init__(self, layout: ObsLayout) -> None:
        self.layout = layout
        self.vector: Vector = np.zeros(layout.size, dtype=np.float32)

    def set(self, name: str, index: int, value: float = 1.0) -> None:
        """Entry ``index`` of block ``name``; an index outside the block is ignored."""
        s = self.layout.slot(name)
        if 0 <= index < s.stop - s.start:
            self.vector[s.start + index] = min(1.0, max(0.0, value))

    def scalar(self, name: str, value: float) -> None:
        self.set(name, 0, value)

    def fill(self, name: str, values: Sequence[float]) -> None:
        s = self.layout.slot(name)
        n = min(len(values), s.stop - s.start)
        if n:
            self.vector[s.start : s.start + n] = np.clip(
                np.asarray(values[:n], dtype=np.float32), 0.0, 1.0
            )

    def set2(self, name: str, row: int, col: int, width: int, value: float = 1.0) -> None:
        """Entry (row, col) of a block laid out as rows of ``width``."""
        if 0 <= col < width:
            self.set(name, row * width + col, value)


@dataclass(frozen=True)
class ActionGroup:
    """A run of consecutive action indices: ``actions[i]`` is index ``start + i``."""

    form: str
    actions: tuple[Action, ...]
    meaning: str


class ActionLayout:
    """A fixed discrete action space: index ↔ :class:`Action`, documented by groups."""

    def __init__(self, groups: Iterable[ActionGroup]) -> None:
        self.groups = tuple(g for g in groups if g.actions)
        self.actions: tuple[Action, ...] = tuple(a for g in self.groups for a in g.actions)
        self.index: dict[Action, int] = {}
        for i, action in enumerate(self.actions):
            if action in self.index:
                raise ValueError(f"action {action} appears twice in the action layout")
            self.index[action] = i
        self.size = len(self.actions)

    def describe(self) -> str:
        rows = ["| indices | action | meaning |", "|---|---|---|"]
        start = 0
        for g in self.groups:
            n = len(g.actions)
            where = str(start) if n == 1 else f"{start}–{start + n - 1}"
            rows.append(f"| {where} | `{g.form}` | {g.meaning} |")
            start += n
        return "\n".join(rows)

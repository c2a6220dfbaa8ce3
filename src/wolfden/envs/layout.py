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
        self.spans: dict[str, tuple[int, int]] = {}
        offset = 0
        for block in self.blocks:
            if block.name in self._slices:
                raise ValueError(f"observation block {block.name!r} is declared twice")
            if block.size < 1:
                raise ValueError(f"observation block {block.name!r} has no entries")
            self._slices[block.name] = slice(offset, offset + block.size)
            self.spans[block.name] = (offset, block.size)
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
    """Fills one observation vector block by block; every value is clipped to [0, 1].

    The entries written are gathered in a dict (index to value) and become the float32 vector
    once, at the end (:attr:`vector`): a vector is mostly zeros, and writing only the others
    into a zeroed array is cheaper than converting every entry or writing NumPy one entry at
    a time."""

    __slots__ = ("_size", "_spans", "_values", "_vector", "layout")

    def __init__(self, layout: ObsLayout) -> None:
        self.layout = layout
        self._spans = layout.spans
        self._size = layout.size
        self._values: dict[int, float] = {}
        self._vector: Vector | None = None

    @property
    def vector(self) -> Vector:
        if self._vector is None:
            vector = np.zeros(self._size, dtype=np.float32)
            if self._values:
                vector[list(self._values)] = list(self._values.values())
            self._vector = vector
        return self._vector

    def set(self, name: str, index: int, value: float = 1.0) -> None:
        """Entry ``index`` of block ``name``; an index outside the block is ignored."""
        start, size = self._spans[name]
        if 0 <= index < size:
            self._values[start + index] = 1.0 if value >= 1.0 else 0.0 if value <= 0.0 else value
            self._vector = None

    def scalar(self, name: str, value: float) -> None:
        self.set(name, 0, value)

    def fill(self, name: str, values: Sequence[float]) -> None:
        start, size = self._spans[name]
        n = min(len(values), size)
        if n:
            out = self._values
            for i, v in enumerate(values[:n]):
                out[start + i] = 1.0 if v >= 1.0 else 0.0 if v <= 0.0 else float(v)
            self._vector = None

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

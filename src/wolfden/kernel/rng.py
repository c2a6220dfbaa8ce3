"""SplitMix64 for compiled playouts: the same numbers as :class:`wolfden.engine.rng.Rng`.

A generator is a one-element ``uint64`` array holding the state, so a compiled function can
advance it in place. Seeded with the same state, :func:`next64`, :func:`below` and
:func:`shuffle` give exactly what ``Rng.next64``, ``Rng.below`` and ``Rng.shuffle`` give, which
lets a kernel deal the same cards and roles as the reference engine.
"""

from __future__ import annotations

import numpy as np
from numba import njit

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
MIX1 = np.uint64(0xBF58476D1CE4E5B9)
MIX2 = np.uint64(0x94D049BB133111EB)


def generator(state: int) -> np.ndarray:
    """A generator in ``state`` (any Python integer; only its low 64 bits count)."""
    return np.array([state & ((1 << 64) - 1)], dtype=np.uint64)


@njit(cache=True)
def next64(rng: np.ndarray) -> np.uint64:
    """The next 64-bit output; advances ``rng``."""
    s = rng[0] + GOLDEN
    rng[0] = s
    s = (s ^ (s >> np.uint64(30))) * MIX1
    s = (s ^ (s >> np.uint64(27))) * MIX2
    return s ^ (s >> np.uint64(31))


@njit(cache=True)
def below(rng: np.ndarray, n: int) -> int:
    """A uniform integer in [0, n), as ``Rng.below`` (the output modulo ``n``)."""
    return int(next64(rng) % np.uint64(n))


@njit(cache=True)
def shuffle(rng: np.ndarray, items: np.ndarray) -> None:
    """Fisher–Yates in place, as ``Rng.shuffle``."""
    for i in range(items.shape[0] - 1, 0, -1):
        j = int(next64(rng) % np.uint64(i + 1))
        items[i], items[j] = items[j], items[i]


@njit(cache=True)
def random01(rng: np.ndarray) -> float:
    """A uniform float in [0, 1), as ``Rng.random`` (the top 53 bits of the next output)."""
    return float(next64(rng) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True)
def mix64(x: np.uint64) -> np.uint64:
    """The SplitMix64 output function, as :func:`wolfden.engine.rng.mix64`."""
    x = (x ^ (x >> np.uint64(30))) * MIX1
    x = (x ^ (x >> np.uint64(27))) * MIX2
    return x ^ (x >> np.uint64(31))


@njit(cache=True)
def derive_seed1(seed: np.uint64, salt: int) -> np.uint64:
    """``derive_seed(seed, salt)`` of :mod:`wolfden.engine.rng` with one salt (a match's bot
    generator is ``derive_seed(seed, 0x5EA7)``; match ``i`` of a study has seed
    ``derive_seed(study_seed, i)``)."""
    x = mix64(np.uint64(seed))
    return mix64(x ^ mix64(np.uint64(salt) + GOLDEN))

"""What every batched environment on the kernel shares: counting bits, clipping an entry to
[0, 1] as the single environments' observation writer does, checking a batch of actions
against the masks, and drawing random legal actions, all compiled."""

from __future__ import annotations

import numpy as np
from numba import njit

from wolfden.kernel.rng import next64


@njit(cache=True)
def popcount(x: int) -> int:
    count = 0
    while x:
        x &= x - 1
        count += 1
    return count


@njit(cache=True)
def clip(v: float) -> float:
    return 1.0 if v >= 1.0 else 0.0 if v <= 0.0 else v


@njit(cache=True)
def first_illegal(mask: np.ndarray, actions: np.ndarray) -> int:
    """The first match whose action is not one of its legal indices, -1 when all are."""
    for i in range(actions.shape[0]):
        a = actions[i]
        if a < 0 or a >= mask.shape[1] or mask[i, a] == 0:
            return i
    return -1


@njit(cache=True)
def random_actions(mask: np.ndarray, rng: np.ndarray, out: np.ndarray) -> None:
    """A uniformly random legal action per match (``rng`` is a kernel generator)."""
    for i in range(mask.shape[0]):
        legal = 0
        for a in range(mask.shape[1]):
            legal += mask[i, a]
        pick = int(next64(rng) % np.uint64(legal))
        for a in range(mask.shape[1]):
            if mask[i, a]:
                if pick == 0:
                    out[i] = a
                    break
                pick -= 1

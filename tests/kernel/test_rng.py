"""The compiled generator draws exactly what the reference generator draws."""

from __future__ import annotations

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("numba")

from wolfden.engine.rng import Rng, derive_seed  # noqa: E402
from wolfden.kernel import rng as krng  # noqa: E402


@pytest.mark.parametrize("seed", [0, 1, 7, 2**63 + 5, derive_seed(42, 3)])
def test_same_stream_as_the_reference(seed: int) -> None:
    ref, fast = Rng(seed), krng.generator(seed)
    for _ in range(50):
        assert int(krng.next64(fast)) == ref.next64()
    for n in (1, 2, 3, 7, 36, 1000):
        assert krng.below(fast, n) == ref.below(n)
    items = list(range(36))
    ref.shuffle(items)
    array = np.arange(36, dtype=np.int64)
    krng.shuffle(fast, array)
    assert array.tolist() == items
    assert int(fast[0]) == ref.state

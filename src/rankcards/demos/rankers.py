"""A seeded random ranker: the floor any real retriever must beat on the gold dataset.

Seeded per query from a string (``f"{seed}/{query_id}"``), which ``random.Random`` hashes with
SHA-512, so the ranking is identical in CPython and Pyodide and does not depend on
``PYTHONHASHSEED`` or on which other queries were ranked before.

>>> random_ranking(["d1", "d2", "d3"], "q1", k=2, seed=7) == random_ranking(
...     ["d3", "d2", "d1"], "q1", k=2, seed=7)
True
"""

from __future__ import annotations

import random
from collections.abc import Iterable


def random_ranking(doc_ids: Iterable[str], query_id: str, k: int = 10, seed: int = 0) -> list[str]:
    """``k`` distinct documents in a random order fixed by ``(seed, query_id)``."""
    if k < 1:
        raise ValueError(f"random_ranking: k must be >= 1, got {k}")
    pool = sorted(doc_ids)  # the input order must not change the outcome
    return random.Random(f"{seed}/{query_id}").sample(pool, min(k, len(pool)))

"""Simulated per-query scores of several systems, for the statistics cards.

A significance test answers a question about queries we did *not* evaluate, so its lesson needs
a world where the truth is known: here every system's true mean difference to the baseline is
chosen, and each "test collection" is a seeded draw of queries from that world.

The model is the usual one for IR scores (each query has its own difficulty, systems add
noise): query ``i`` of sample ``seed`` has a difficulty ``b_i`` uniform in [0.3, 0.55]; the
baseline scores ``b_i + e_0i`` and system ``j`` scores ``b_i + effect_j + e_ji``; each noise
``e`` is triangular on [-0.3, 0.3] (the sum of two uniforms, standard deviation
0.3 / sqrt(6) = 0.122), so a difference between two systems has a standard deviation of
0.3 / sqrt(3) = 0.173. With ``0 <= effect <= 0.15`` every score stays within [0, 1], like AP
or nDCG@10, so nothing is clipped and a system's true mean difference to the baseline is
exactly its ``effect``; systems with the same ``effect`` are identical in expectation: any
difference between them is noise.

Only ``random.Random(str).random()`` is used: a string seed is hashed with SHA-512 and the
Mersenne Twister is the same in CPython and Pyodide, so a draw is identical in the page. Query
``i`` of a system does not depend on how many queries or systems are drawn, so "more queries"
extends the same sample.

>>> scores = simulated_scores(3, [0.0, 0.05], seed=1)
>>> list(scores), [len(values) for values in scores.values()]
(['baseline', 'S1', 'S2'], [3, 3, 3])
>>> simulated_scores(2, [0.0], seed=1)["S1"] == scores["S1"][:2]
True
"""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence

#: Queries a sample holds at most (the demos' "queries used" slider stops there).
POOL = 50
NOISE = 0.3  # half-width of the triangular per-query noise of every system
LOW, HIGH = 0.3, 0.55  # range of the query difficulty (the baseline's expected score)
MAX_EFFECT = 0.15  # with LOW, HIGH and NOISE: scores stay in [0, 1], never clipped


@functools.cache
def _difficulty(seed: int) -> tuple[float, ...]:
    generator = random.Random(f"difficulty/{seed}")
    return tuple(LOW + (HIGH - LOW) * generator.random() for _ in range(POOL))


@functools.cache
def _noise(seed: int, system: int) -> tuple[float, ...]:
    """System ``system``'s noise on the ``POOL`` queries of sample ``seed`` (0 = baseline)."""
    generator = random.Random(f"noise/{seed}/{system}")
    draw = generator.random
    return tuple(NOISE * (draw() + draw() - 1.0) for _ in range(POOL))


def simulated_scores(
    queries: int, effects: Sequence[float], seed: int = 0
) -> dict[str, list[float]]:
    """Per-query scores of a baseline and ``len(effects)`` systems on one sample of queries.

    Args:
        queries: how many queries (1 to :data:`POOL`); the first ``queries`` of the sample.
        effects: each system's true mean difference to the baseline, in [0, MAX_EFFECT] (0
            makes it identical to the baseline in expectation); systems are ``S1``, ``S2``, ...
        seed: which sample of queries (and noise) is drawn.

    Returns:
        ``{"baseline": [...], "S1": [...], ...}``, scores in [0, 1] rounded to 4 decimals
        (as trec_eval prints them), every list over the same queries in the same order.

    Raises:
        ValueError: ``queries`` outside 1..POOL, or an effect outside [0, MAX_EFFECT].
    """
    if not 1 <= queries <= POOL:
        raise ValueError(f"queries must be between 1 and {POOL}, got {queries}")
    for effect in effects:
        if not 0.0 <= effect <= MAX_EFFECT:
            raise ValueError(f"an effect must be in [0, {MAX_EFFECT}], got {effect}")
    difficulty = _difficulty(seed)[:queries]
    columns = {"baseline": (0.0, _noise(seed, 0))}
    for system, effect in enumerate(effects, start=1):
        columns[f"S{system}"] = (effect, _noise(seed, system))
    return {
        name: [round(b + effect + e, 4) for b, e in zip(difficulty, noise, strict=False)]
        for name, (effect, noise) in columns.items()
    }

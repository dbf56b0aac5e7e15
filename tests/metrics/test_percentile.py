"""percentile against numpy.percentile (its default, method="linear"), to the last bit."""

from __future__ import annotations

import math
import random

import pytest

from ci_gate import require_module
from rankcards.metrics import percentile

np = require_module("numpy", "pip install -e .[dev]")

_QS = [0, 1, 5, 25, 50, 75, 90, 95, 99, 99.9, 100, 33.3, 66.7]


def _samples(seed: int) -> list[list[float]]:
    rng = random.Random(seed)
    samples: list[list[float]] = [[3.5], [2.0, 1.0], [1.0, 1.0, 1.0]]
    for n in (2, 3, 4, 5, 7, 10, 20, 50, 99, 100, 101, 1000):
        for _ in range(4):
            # latency-like: mostly small, a long right tail; and some exact repeats
            samples.append([rng.lognormvariate(-7.0, 0.6) for _ in range(n)])
            samples.append([float(rng.randint(1, 5)) for _ in range(n)])
            samples.append([rng.uniform(-1e3, 1e3) for _ in range(n)])
    return samples


def test_equals_numpy_percentile_bit_for_bit():
    compared = 0
    for sample in _samples(2301):
        expected = np.percentile(np.array(sample), _QS)
        for q, reference in zip(_QS, expected, strict=True):
            assert percentile(sample, q) == float(reference), (len(sample), q)
            compared += 1
    assert compared > 1500


def test_random_q_equals_numpy():
    rng = random.Random(2302)
    for _ in range(500):
        sample = [rng.random() for _ in range(rng.randint(1, 40))]
        q = rng.uniform(0, 100)
        assert percentile(sample, q) == float(np.percentile(sample, q))


def test_order_of_the_input_does_not_matter_and_it_is_monotone_in_q():
    rng = random.Random(2303)
    sample = [rng.expovariate(1.0) for _ in range(37)]
    shuffled = sample[:]
    rng.shuffle(shuffled)
    values = [percentile(sample, q) for q in range(101)]
    assert values == [percentile(shuffled, q) for q in range(101)]
    assert values == sorted(values)
    assert values[0] == min(sample) and values[-1] == max(sample)


def test_constant_sample_has_every_percentile_equal():
    # A batch run gives every query the same latency (total / n): p50 = p95 = p99.
    latency = 0.012 / 7
    assert {percentile([latency] * 7, q) for q in (50, 95, 99)} == {latency}


@pytest.mark.parametrize(
    ("values", "q", "message"),
    [
        ([], 50, "no values"),
        ([1.0], -1, r"q must be in \[0, 100\]"),
        ([1.0], 100.5, r"q must be in \[0, 100\]"),
        ([1.0, math.nan], 50, "NaN"),
    ],
)
def test_bad_input_raises(values, q, message):
    with pytest.raises(ValueError, match=message):
        percentile(values, q)

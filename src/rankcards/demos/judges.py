"""A small test collection with human graded labels, eight systems and a simulated LLM judge.

The llm-as-a-judge card asks what an imperfect judge does to the numbers, so it needs a world
where the human labels are known and the judge's faults can be dialled in one at a time.

:func:`collection` draws :data:`QUERIES` queries, each with :data:`DOCUMENTS` documents that a
human assessor graded on TREC Deep Learning's 0-3 scale (every document is judged, so no
measure depends on unjudged documents), and the rankings of :data:`SYSTEMS` systems. System
``S1`` is the most skilled and ``S8`` the least: a system scores a document ``skill * grade``
plus triangular noise of half-width :data:`NOISE`, with skills close enough that neighbours
often trade places on a query.

:func:`simulated_judge` relabels those pairs the way an LLM judge can go wrong, each fault with
its own probability per (query, document) pair:

* ``unparsed``: the answer cannot be parsed and the pair gets grade 0, what UMBRELA's parser
  does (``parse_fewshot_response`` in ``umbrela/utils/common_utils.py`` returns ``"0"`` when
  no pattern matches);
* ``noise``: the grade moves one step up or down (the judge reads the passage differently);
* ``leniency``: the grade goes one step up (LLM judges label more passages relevant than
  people: Alaofi et al., SIGIR-AP 2024; Upadhyay et al., 2024, find NIST's assessors stricter
  than UMBRELA);
* ``self_preference``: a document in ``favoured`` (e.g. the top results of a system built on
  the judge's own model) goes one step up (Balog, Metzler & Qin, SIGIR 2025, found LLM judges
  biased towards LLM-based rankers).

Every pair draws its random numbers once, from a string seed, whatever the probabilities: a
higher probability only adds changes to those of a lower one, so a slider moves the numbers
smoothly. Only ``random.Random(str).random()`` is used (a string seed is hashed with SHA-512;
the Mersenne Twister is the same in CPython and Pyodide), so the draws are identical in the page.

>>> human, runs = collection()
>>> len(human), sorted(runs)[:3], len(runs["S1"]["q01"])
(30, ['S1', 'S2', 'S3'], 20)
>>> simulated_judge(human) == human  # a judge with no faults agrees with the human
True
"""

from __future__ import annotations

import functools
import random
from collections.abc import Collection as Documents
from collections.abc import Mapping
from typing import NamedTuple

__all__ = [
    "DOCUMENTS",
    "GRADE_SHARES",
    "NOISE",
    "QUERIES",
    "SKILLS",
    "SYSTEMS",
    "Collection",
    "collection",
    "simulated_judge",
]

QUERIES = 30
DOCUMENTS = 20  # per query, d01..d20, every one graded by the human assessor
GRADE_SHARES = (0.45, 0.25, 0.18, 0.12)  # how often the human gives grades 0, 1, 2, 3
SKILLS = (1.0, 0.85, 0.72, 0.61, 0.52, 0.44, 0.37, 0.31)  # S1..S8: weight of the grade in a score
SYSTEMS = tuple(f"S{number}" for number in range(1, len(SKILLS) + 1))
NOISE = 2.0  # half-width of the triangular noise a system adds to each document's score

Qrels = dict[str, dict[str, int]]
Runs = dict[str, dict[str, dict[str, float]]]


class Collection(NamedTuple):
    """``qrels``: the human grades, ``{query: {document: grade}}``; ``runs``: ``{system:
    {query: {document: score}}}``, scores ``20.0, 19.0, ...`` down each ranking (no ties)."""

    qrels: Qrels
    runs: Runs


def _grade(u: float) -> int:
    """The grade whose share of :data:`GRADE_SHARES` holds ``u`` (uniform in [0, 1))."""
    total = 0.0
    for grade, share in enumerate(GRADE_SHARES):
        total += share
        if u < total:
            return grade
    return len(GRADE_SHARES) - 1


@functools.cache
def _collection(seed: int) -> tuple[tuple[tuple[str, str, int], ...], tuple[tuple[str, ...], ...]]:
    """The human grades as (query, document, grade) and each (system, query) ranking, cached."""
    queries = [f"q{number:02d}" for number in range(1, QUERIES + 1)]
    documents = [f"d{number:02d}" for number in range(1, DOCUMENTS + 1)]
    grades = []
    for query in queries:
        draw = random.Random(f"judges/{seed}/{query}").random
        grades.extend((query, doc, _grade(draw())) for doc in documents)
    by_pair = {(query, doc): grade for query, doc, grade in grades}
    rankings = []
    for system, skill in zip(SYSTEMS, SKILLS, strict=True):
        for query in queries:
            draw = random.Random(f"judges/{seed}/{system}/{query}").random
            scores = {
                doc: skill * by_pair[query, doc] + NOISE * (draw() + draw() - 1.0)
                for doc in documents
            }
            rankings.append((system, query, *sorted(documents, key=lambda d: (-scores[d], d))))
    return tuple(grades), tuple(rankings)


def collection(seed: int = 0) -> Collection:
    """The human grades and the systems' rankings drawn with ``seed`` (see the module
    docstring); fresh mappings each call, so an example may change them."""
    grades, rankings = _collection(seed)
    qrels: Qrels = {}
    for query, doc, grade in grades:
        qrels.setdefault(query, {})[doc] = grade
    runs: Runs = {system: {} for system in SYSTEMS}
    for system, query, *ranking in rankings:
        runs[system][query] = {doc: float(DOCUMENTS - rank) for rank, doc in enumerate(ranking)}
    return Collection(qrels, runs)


def simulated_judge(
    qrels: Mapping[str, Mapping[str, int]],
    noise: float = 0.0,
    leniency: float = 0.0,
    unparsed: float = 0.0,
    favoured: Mapping[str, Documents[str]] | None = None,
    self_preference: float = 0.0,
    seed: int = 0,
) -> Qrels:
    """The grades an imperfect LLM judge gives to the pairs that ``qrels`` grades.

    For each (query, document) pair with human grade ``g`` (0-3), in this order: with
    probability ``unparsed`` the judge's answer is unparseable and the grade is 0 (nothing
    else applies); otherwise with probability ``noise`` the grade moves one step, up or down
    at random (up from 0, down from 3); then with probability ``leniency`` it goes one step
    up, and, for a document in ``favoured[query]``, with probability ``self_preference`` one
    more step up; grades stay within 0-3.

    Args:
        qrels: the human grades, ``{query: {document: grade}}`` with grades 0 to 3.
        noise, leniency, unparsed, self_preference: probabilities in [0, 1].
        favoured: ``{query: documents}`` the judge is biased towards; None for none.
        seed: which draw of the judge's faults.

    Returns:
        ``{query: {document: grade}}`` over the same pairs; a fresh mapping.

    Raises:
        ValueError: a probability outside [0, 1] or a grade outside 0-3.

    >>> human = {"q1": {"a": 0, "b": 1, "c": 2, "d": 3}}
    >>> simulated_judge(human, unparsed=1.0)
    {'q1': {'a': 0, 'b': 0, 'c': 0, 'd': 0}}
    >>> simulated_judge(human, leniency=1.0)
    {'q1': {'a': 1, 'b': 2, 'c': 3, 'd': 3}}
    """
    for name, value in (
        ("noise", noise),
        ("leniency", leniency),
        ("unparsed", unparsed),
        ("self_preference", self_preference),
    ):
        if not 0.0 <= value <= 1.0:
            raise ValueError(f"simulated_judge: {name} must be in [0, 1], got {value!r}")
    judged: Qrels = {}
    for query, grades in qrels.items():
        preferred = favoured.get(query, ()) if favoured is not None else ()
        judged[query] = {}
        for doc, grade in grades.items():
            if grade not in (0, 1, 2, 3):
                raise ValueError(f"simulated_judge: {query} {doc}: grade {grade!r} is not 0-3")
            draw = random.Random(f"judge/{seed}/{query}/{doc}").random
            u_parse, u_noise, u_side, u_lenient, u_self = (draw() for _ in range(5))
            if u_parse < unparsed:
                judged[query][doc] = 0
                continue
            if u_noise < noise:
                grade += 1 if grade == 0 or (grade < 3 and u_side < 0.5) else -1
            if u_lenient < leniency:
                grade += 1
            if doc in preferred and u_self < self_preference:
                grade += 1
            judged[query][doc] = min(grade, 3)
    return judged

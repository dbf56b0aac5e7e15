"""Rank fusion: RRF, CombSUM and CombMNZ over TREC runs, as ranx 0.3.21 computes them.

Per query, each input run is ranked as trec_eval ranks it (score descending, equal scores by
docno descending; the rank column is ignored), cut at ``depth`` if given, normalised, and the
runs are combined:

- RRF (Cormack, Clarke & Büttcher, SIGIR 2009): ``sum over runs of 1 / (k + rank)``, ranks
  from 1, k = 60 by default; a run without the document adds nothing;
- CombSUM (Fox & Shaw, TREC-2 1993): the sum of the document's normalised scores, 0 for a run
  without it;
- CombMNZ: that sum times the number of runs that retrieved the document.

Normalisations (per query and run, over the documents the run ranks, as ranx's
``normalization/*_norm.py``): ``minmax`` (s - min) / max(max - min, 1e-9); ``zmuv``
(s - mean) / max(sd, 1e-9), sd the population standard deviation; ``sum``
(s - min) / max(sum - n·min, 1e-9); ``none``. ranx sums in the same order, so the fused
scores agree to the last bits. The fused run lists each query's documents by fused score
descending, equal scores by docno descending (trec_eval's order, so that reading it back
ranks it as written).

Where ranx differs: its ``fuse`` needs every run to have the same queries (here a query
missing from a run takes nothing from it); it ranks a run by NumPy's unstable argsort, so
RRF's ranks of tied documents are not defined there; its default normalisation is ``min-max``
for every method (here RRF, which reads ranks only, takes none).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from math import isfinite, sqrt

from ._data import Run

#: fusion methods, and each one's default normalisation
METHODS = ("rrf", "combsum", "combmnz")
NORMS = ("minmax", "zmuv", "sum", "none")
DEFAULT_NORM = {"rrf": "none", "combsum": "minmax", "combmnz": "minmax"}
#: Cormack et al.'s k
RRF_K = 60

_FLOOR = 1e-9  # ranx's smallest denominator
Ranked = list[tuple[bytes, float]]  # one query of one run, best first


def fuse(
    runs: Sequence[Run | Mapping[str, Mapping[str, float]]],
    method: str = "rrf",
    *,
    k: float = RRF_K,
    norm: str | None = None,
    depth: int | None = None,
) -> dict[str, dict[str, float]]:
    """Fuse runs into one: ``{qid: {docno: fused score}}``, each query best first.

    Formula: RRF ``sum_runs 1 / (k + rank)``; CombSUM ``sum_runs norm(s)``; CombMNZ
    ``|runs retrieving d| * sum_runs norm(s)``; ranks as trec_eval ranks a run (score
    descending, ties by docno descending), from 1.

    Args:
        runs: two or more runs, from :func:`read_run` or ``{qid: {docno: score}}``.
        method: ``"rrf"``, ``"combsum"`` or ``"combmnz"``.
        k: RRF's constant, a number >= 0 (default 60, Cormack et al.).
        norm: ``"minmax"``, ``"zmuv"``, ``"sum"`` or ``"none"``; default ``"none"`` for RRF
            (which reads ranks; any other is an error) and ``"minmax"`` for the Comb methods.
        depth: keep each run's top ``depth`` documents before fusing, and the fused run's top
            ``depth``; None keeps everything.

    Returns:
        The fused run, queries sorted by qid, documents by fused score descending and equal
        scores by docno descending.

    Raises:
        ValueError: fewer than two runs, an unknown method or normalisation, a bad ``k`` or
            ``depth``, a non-finite score.

    Reference:
        Cormack, Clarke & Büttcher, Reciprocal rank fusion outperforms Condorcet and
        individual rank learning methods, SIGIR 2009; Fox & Shaw, Combination of multiple
        searches, TREC-2 1993; ranx 0.3.21 (``ranx/fusion/rrf.py``, ``comb_sum.py``,
        ``comb_mnz.py``, ``ranx/normalization/``).

    Example:
        >>> bm25 = {"q1": {"d1": 12.0, "d2": 9.5, "d3": 7.0}}
        >>> dense = {"q1": {"d3": 0.91, "d1": 0.85, "d4": 0.80}}
        >>> fused = fuse([bm25, dense], "rrf")["q1"]  # d1: 1/61 + 1/62; d3: 1/63 + 1/61
        >>> list(fused), round(fused["d1"], 6)
        (['d1', 'd3', 'd2', 'd4'], 0.032522)
        >>> fuse([bm25, dense], "combsum")["q1"]["d3"]  # min-max: 0 in bm25, 1 in dense
        1.0
    """
    norm = _check(runs, method, k, norm, depth)
    ranked_runs = [_ranked(run, depth) for run in runs]
    qids = sorted({qid for ranked in ranked_runs for qid in ranked})
    fused: dict[str, dict[str, float]] = {}
    for qid in qids:
        lists = [ranked.get(qid, []) for ranked in ranked_runs]
        scores = combine(lists, method, k, norm)
        best = sorted(scores.items(), key=lambda item: item[0], reverse=True)
        best.sort(key=lambda item: item[1], reverse=True)  # stable: ties stay docno descending
        if depth is not None:
            best = best[:depth]
        fused[qid] = {docno.decode("utf-8", "surrogateescape"): score for docno, score in best}
    return fused


def rrf_fuse(rankings: Sequence[Sequence[str]], k: float = RRF_K) -> dict[str, float]:
    """Reciprocal rank fusion of ranked lists of one query: ``{docno: RRF score}``, best first.

    Formula: ``RRF(d) = sum over the lists containing d of 1 / (k + rank)``, ranks from 1.

    Args:
        rankings: document ids best first, one list per system (no repeats within a list).
        k: the constant, a number >= 0 (default 60: Cormack et al. found it a good choice).

    Returns:
        Every document of the lists with its score, highest first (equal scores by docno
        descending), the same numbers as :func:`fuse` and ranx.

    Reference:
        Cormack, Clarke & Büttcher, SIGIR 2009.

    Example:
        >>> rrf_fuse([["d1", "d2", "d3"], ["d3", "d1", "d4"]], k=60)  # doctest: +ELLIPSIS
        {'d1': 0.0325..., 'd3': 0.0322..., 'd2': 0.0161..., 'd4': 0.0158...}
    """
    runs = []
    for ranking in rankings:
        if isinstance(ranking, str) or len(set(ranking)) != len(ranking):
            raise ValueError("each ranking must list document ids, each once")
        runs.append({"q": {doc: float(len(ranking) - i) for i, doc in enumerate(ranking)}})
    return fuse(runs, "rrf", k=k).get("q", {})


def combine(lists: Sequence[Ranked], method: str, k: float, norm: str) -> dict[bytes, float]:
    """One query's fused scores from each run's ranked list (ranx's summation order)."""
    if method == "rrf":
        lists = [
            [(docno, 1 / (k + rank)) for rank, (docno, _) in enumerate(ranked, 1)]
            for ranked in lists
        ]
    elif norm != "none":
        lists = [normalised(ranked, norm) for ranked in lists]
    by_run = [dict(ranked) for ranked in lists]
    fused: dict[bytes, float] = {}
    for ranked in lists:
        for docno, _ in ranked:
            if docno in fused:
                continue
            if method == "combmnz":
                present = [scores[docno] for scores in by_run if docno in scores]
                fused[docno] = _sum(present) * len(present)
            else:
                fused[docno] = _sum(scores.get(docno, 0.0) for scores in by_run)
    return fused


def normalised(ranked: Ranked, norm: str) -> Ranked:
    """One run's scores for one query normalised as ranx does (see the module docstring)."""
    scores = [score for _, score in ranked]
    if not scores:
        return []
    if norm == "zmuv":
        mean = _sum(scores) / len(scores)
        deviation = sqrt(_sum((score - mean) * (score - mean) for score in scores) / len(scores))
        shift, scale = mean, max(deviation, _FLOOR)
    elif norm == "sum":
        low = min(scores)
        shift, scale = low, max(_sum(scores) - low * len(scores), _FLOOR)
    else:  # minmax
        low = min(scores)
        shift, scale = low, max(max(scores) - low, _FLOOR)
    return [(docno, (score - shift) / scale) for docno, score in ranked]


def _sum(values: Iterable[float]) -> float:
    """Left to right from 0.0, as ranx's compiled loops add."""
    total = 0.0
    for value in values:
        total += value
    return total


def _ranked(run: Run | Mapping[str, Mapping[str, float]], depth: int | None) -> dict[str, Ranked]:
    """Each query of a run ranked as trec_eval ranks it, cut at ``depth``."""
    ranked: dict[str, Ranked] = {}
    for qid in run:
        if isinstance(run, Run):
            docnos, values = run.raw(qid)
            pairs = list(zip(docnos, values, strict=True))
        else:
            pairs = []
            for docno, score in run[qid].items():
                value = float(score)
                if not isfinite(value):
                    raise ValueError(
                        f"run[{qid!r}][{docno!r}]: score must be finite, got {score!r}"
                    )
                pairs.append((docno.encode("utf-8", "surrogateescape"), value))
        pairs.sort(key=lambda pair: pair[0], reverse=True)
        pairs.sort(key=lambda pair: pair[1], reverse=True)
        ranked[qid] = pairs if depth is None else pairs[:depth]
    return ranked


def _check(
    runs: Sequence[object], method: str, k: float, norm: str | None, depth: int | None
) -> str:
    """Validate the arguments; return the normalisation to apply."""
    if len(runs) < 2:
        raise ValueError(f"fusion needs at least two runs, got {len(runs)}")
    if method not in METHODS:
        raise ValueError(f"method must be one of {', '.join(METHODS)}, got {method!r}")
    if norm is None:
        norm = DEFAULT_NORM[method]
    if norm not in NORMS:
        raise ValueError(f"norm must be one of {', '.join(NORMS)}, got {norm!r}")
    if method == "rrf" and norm != "none":
        raise ValueError(f"norm {norm!r} does not apply to rrf, which fuses ranks, not scores")
    if isinstance(k, bool) or not isinstance(k, int | float) or not isfinite(k) or k < 0:
        raise ValueError(f"k must be a number >= 0, got {k!r}")
    if depth is not None and (isinstance(depth, bool) or not isinstance(depth, int) or depth < 1):
        raise ValueError(f"depth must be an integer >= 1, got {depth!r}")
    return norm

"""Retrieval-for-RAG scores as Ragas and AutoNuggetizer compute them, from their verdicts.

The LLM (or string matcher) that produces the verdicts is not here: these functions take its
verdicts and compute the score exactly as the tool's own code does, so a card can show how the
number is made and how it differs from the IR measure of the same name. Sources, pinned:

- Ragas v0.4.0 (github.com/explodinggradients/ragas, commit 3e28e9de, ``src/ragas/metrics/``),
  with its default string similarity (rapidfuzz's normalised Levenshtein distance);
- AutoNuggetizer, nuggetizer 0.0.6 (github.com/castorini/nuggetizer, commit d00dc3eb,
  ``src/nuggetizer/core/metrics.py``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

Verdicts = Sequence[int | bool]

#: AutoNuggetizer's labels (``importance``, ``assignment``) and the credit of each assignment
IMPORTANCES = ("vital", "okay")
ASSIGNMENTS = {"support": 1.0, "partial_support": 0.5, "not_support": 0.0}


def ragas_context_precision(verdicts: Verdicts) -> float:
    """Ragas' (LLM) context precision: the mean of P@k at the useful chunks, over the useful.

    Formula: ``sum_k (P@k · v_k) / (sum_k v_k + 1e-10)`` with ``v_k`` in {0, 1} the verdict
    on the k-th retrieved chunk ("was it useful to reach the reference answer?") and ``P@k``
    the useful share of the top k. Unlike AP it divides by the useful chunks *retrieved*, not
    by all relevant ones: chunks that were never retrieved cost nothing. The 1e-10 keeps an
    all-zero list at 0 and keeps a perfect list of n chunks below 1: n / (n + 1e-10), so
    0.9999999999 for one chunk.

    Args:
        verdicts: one 0/1 (or bool) verdict per retrieved chunk, in rank order.

    Returns:
        float in [0, 1); 0 for no verdict or no useful chunk.

    Reference:
        Ragas v0.4.0, ``src/ragas/metrics/_context_precision.py``,
        ``LLMContextPrecisionWithReference._calculate_average_precision`` (lines 113-131;
        the same formula in ``NonLLMContextPrecisionWithReference``, lines 236-247).

    Example:
        >>> ragas_context_precision([1, 0, 1])  # (1/1 + 2/3) / 2
        0.8333333332916666
        >>> ragas_context_precision([1]), ragas_context_precision([1, 1])  # perfect lists
        (0.9999999999, 0.99999999995)
    """
    verdict_list = _verdicts(verdicts, "verdicts")
    denominator = sum(verdict_list) + 1e-10
    numerator = sum(
        [(sum(verdict_list[: i + 1]) / (i + 1)) * verdict_list[i] for i in range(len(verdict_list))]
    )
    return numerator / denominator


def ragas_context_recall(attributed: Verdicts) -> float:
    """Ragas' (LLM) context recall: the share of the reference answer's claims the context
    supports.

    Formula: ``sum_i a_i / n`` over the n claims (sentences) of the reference answer, ``a_i``
    = 1 when the retrieved context supports claim i. It is recall over the answer's claims,
    not over relevant documents.

    Args:
        attributed: one 0/1 (or bool) verdict per claim of the reference answer.

    Returns:
        float in [0, 1]; NaN when there is no claim (Ragas returns ``np.nan`` and logs a
        warning).

    Reference:
        Ragas v0.4.0, ``src/ragas/metrics/_context_recall.py``,
        ``LLMContextRecall._compute_score`` (lines 114-123).

    Example:
        >>> ragas_context_recall([1, 1, 0, 1])
        0.75
    """
    response = _verdicts(attributed, "attributed")
    return sum(response) / len(response) if response else float("nan")


def ragas_id_context_precision(
    retrieved_ids: Iterable[object], reference_ids: Iterable[object]
) -> float:
    """Ragas' ID-based context precision: plain set precision of the retrieved chunk ids.

    Formula: ``|R ∩ G| / |R|`` with R the set of retrieved ids and G the set of reference ids,
    both compared as strings (``str(id)``, so ``1`` and ``"1"`` match); a repeated id counts
    once and the order is ignored: unlike the LLM variant, rank plays no part.

    Args:
        retrieved_ids: ids of the retrieved chunks.
        reference_ids: ids of the chunks that should be retrieved.

    Returns:
        float in [0, 1]; NaN when nothing was retrieved (as Ragas).

    Reference:
        Ragas v0.4.0, ``src/ragas/metrics/_context_precision.py``,
        ``IDBasedContextPrecision._single_turn_ascore`` (lines 277-304).

    Example:
        >>> ragas_id_context_precision(["c1", "c2", "c2", "c9"], ["c1", "c2", "c3"])  # 2 of 3
        0.6666666666666666
    """
    retrieved = {str(item) for item in retrieved_ids}
    reference = {str(item) for item in reference_ids}
    if not retrieved:
        return float("nan")
    return sum(1 for item in retrieved if item in reference) / len(retrieved)


def ragas_id_context_recall(
    retrieved_ids: Iterable[object], reference_ids: Iterable[object]
) -> float:
    """Ragas' ID-based context recall: plain set recall of the reference chunk ids.

    Formula: ``|R ∩ G| / |G|``, ids compared as strings, repeats counted once, order ignored.

    Args:
        retrieved_ids: ids of the retrieved chunks.
        reference_ids: ids of the chunks that should be retrieved.

    Returns:
        float in [0, 1]; NaN when there is no reference id (as Ragas).

    Reference:
        Ragas v0.4.0, ``src/ragas/metrics/_context_recall.py``,
        ``IDBasedContextRecall._single_turn_ascore`` (lines 253-279).

    Example:
        >>> ragas_id_context_recall(["c1", "c9"], ["c1", "c2", "c3", "c3"])  # 1 of 3
        0.3333333333333333
    """
    retrieved = {str(item) for item in retrieved_ids}
    reference = {str(item) for item in reference_ids}
    if not reference:
        return float("nan")
    return sum(1 for item in reference if item in retrieved) / len(reference)


def levenshtein_similarity(first: str, second: str) -> float:
    """One minus the normalised Levenshtein distance: Ragas' default string similarity.

    Formula: ``1 - lev(a, b) / max(|a|, |b|)``, with ``lev`` the number of single-character
    insertions, deletions and substitutions that turn one string into the other (each costing
    1), and 1.0 for two empty strings. This is what Ragas' ``NonLLMStringSimilarity`` returns
    with its default ``DistanceMeasure.LEVENSHTEIN``: ``1 - normalized_distance`` of
    rapidfuzz's ``Levenshtein``.

    Args:
        first, second: the two strings, compared character by character (case counts).

    Returns:
        float in [0, 1]: 1.0 for equal strings, 0.0 when no character can be kept in place.

    Reference:
        Ragas v0.4.0, ``src/ragas/metrics/_string.py``, ``NonLLMStringSimilarity``
        (lines 61-96); rapidfuzz 3, ``rapidfuzz.distance.Levenshtein.normalized_distance``.

    Example:
        >>> levenshtein_similarity("kitten", "sitting")  # 3 edits over 7 characters
        0.5714285714285714
        >>> levenshtein_similarity("X200 12 V", "X300 24 V")  # 3 edits over 9
        0.6666666666666667
    """
    if len(first) < len(second):
        first, second = second, first
    if not first:
        return 1.0
    previous = list(range(len(second) + 1))
    for row, char in enumerate(first, 1):
        current = [row]
        for column, other in enumerate(second, 1):
            current.append(
                min(
                    previous[column] + 1,
                    current[column - 1] + 1,
                    previous[column - 1] + (char != other),
                )
            )
        previous = current
    return 1 - previous[-1] / len(first)


def ragas_string_context_precision(
    retrieved: Sequence[str], reference: Sequence[str], threshold: float = 0.5
) -> float:
    """Ragas' non-LLM context precision: the LLM variant's formula over string-match verdicts.

    Formula: each retrieved chunk's verdict is 1 when its best
    :func:`levenshtein_similarity` to a reference context is ``>= threshold``; the verdicts
    then go through :func:`ragas_context_precision`.

    Args:
        retrieved: the retrieved chunks' texts, in rank order.
        reference: the reference contexts' texts (at least one).
        threshold: the similarity from which a chunk counts as a reference one (Ragas: 0.5).

    Returns:
        float in [0, 1); 0 when no retrieved chunk matches (or nothing was retrieved).

    Raises:
        ValueError: ``reference`` is empty (Ragas' ``max()`` of an empty list raises too).

    Reference:
        Ragas v0.4.0, ``src/ragas/metrics/_context_precision.py``,
        ``NonLLMContextPrecisionWithReference`` (lines 185-247; ``>=`` at line 233).

    Example:
        >>> ragas_string_context_precision(["abcd", "wxyz"], ["abcf"])  # 0.75, then 0.0
        0.9999999999
    """
    if not reference:
        raise ValueError("reference must hold at least one context")
    best = [max(levenshtein_similarity(chunk, ref) for ref in reference) for chunk in retrieved]
    return ragas_context_precision([1 if score >= threshold else 0 for score in best])


def ragas_string_context_recall(
    retrieved: Sequence[str], reference: Sequence[str], threshold: float = 0.5
) -> float:
    """Ragas' non-LLM context recall: the share of reference contexts a retrieved chunk matches.

    Formula: ``|{r in reference : max_c sim(r, c) > threshold}| / |reference|`` over the
    retrieved chunks c, with sim the :func:`levenshtein_similarity`. The comparison is strict
    (``>``), where :func:`ragas_string_context_precision` uses ``>=``: a similarity of exactly
    0.5 matches there and not here. It is recall over reference *passages*, not over claims.

    Args:
        retrieved: the retrieved chunks' texts (at least one; order plays no part).
        reference: the reference contexts' texts.

    Returns:
        float in [0, 1]; NaN when there is no reference context (as Ragas).

    Raises:
        ValueError: ``retrieved`` is empty while ``reference`` is not (Ragas' ``max()`` of an
            empty list raises too).

    Reference:
        Ragas v0.4.0, ``src/ragas/metrics/_context_recall.py``, ``NonLLMContextRecall``
        (lines 164-223; ``>`` at line 219).

    Example:
        >>> ragas_string_context_recall(["ab"], ["ab", "cd"])  # 1.0 and 0.0 similarity
        0.5
        >>> ragas_string_context_recall(["ab"], ["ax"])  # 0.5 is not above 0.5
        0.0
    """
    if reference and not retrieved:
        raise ValueError("retrieved must hold at least one chunk")
    if not reference:
        return float("nan")
    best = [max(levenshtein_similarity(ref, chunk) for chunk in retrieved) for ref in reference]
    return sum(1 for score in best if score > threshold) / len(best)


@dataclass(frozen=True)
class NuggetScores:
    """AutoNuggetizer's four scores of one answer (its ``NuggetMetrics`` without the qid)."""

    #: vital nuggets the answer supports, over the vital nuggets (partial support counts 0)
    strict_vital_score: float
    #: every nugget supported, over all nuggets (partial support counts 0)
    strict_all_score: float
    #: as strict_vital_score with partial support counted 0.5
    vital_score: float
    #: as strict_all_score with partial support counted 0.5
    all_score: float


def nugget_scores(nuggets: Sequence[Mapping[str, str]]) -> NuggetScores:
    """AutoNuggetizer's nugget scores of one answer (TREC 2024 RAG track).

    Formula: over the vital nuggets V (or all nuggets A), ``strict = |support| / |V|`` and
    ``score = (|support| + 0.5 · |partial_support|) / |V|``; a set with no nugget (an answer
    to a query without vital nuggets, for the vital scores) scores 0.

    Args:
        nuggets: one mapping per nugget with ``"importance"`` (``"vital"`` or ``"okay"``) and
            ``"assignment"`` (``"support"``, ``"partial_support"`` or ``"not_support"``), as
            AutoNuggetizer's assignment output records them; other keys are ignored.

    Returns:
        NuggetScores: ``strict_vital_score``, ``strict_all_score``, ``vital_score``,
        ``all_score``.

    Raises:
        ValueError: a missing key or a label other than those above (AutoNuggetizer would
            silently count such a nugget as okay, or as unsupported).

    Reference:
        Pradeep, Thakur, Upadhyay, Campos, Craswell & Lin, Initial nugget evaluation results
        for the TREC 2024 RAG track with the AutoNuggetizer framework, 2024;
        nuggetizer 0.0.6, ``src/nuggetizer/core/metrics.py``, ``calculate_nugget_scores``
        (lines 14-47).

    Example:
        >>> scores = nugget_scores([
        ...     {"importance": "vital", "assignment": "support"},
        ...     {"importance": "vital", "assignment": "partial_support"},
        ...     {"importance": "okay", "assignment": "support"},
        ...     {"importance": "okay", "assignment": "not_support"},
        ... ])
        >>> scores.strict_vital_score, scores.vital_score  # 1/2, (1 + 0.5)/2
        (0.5, 0.75)
        >>> scores.strict_all_score, scores.all_score  # 2/4, (2 + 0.5)/4
        (0.5, 0.625)
    """
    labelled = [_nugget(nugget, index) for index, nugget in enumerate(nuggets)]
    vital = [credit for importance, credit in labelled if importance == "vital"]
    every = [credit for _, credit in labelled]

    def share(credits: list[float], strict: bool) -> float:
        if not credits:
            return 0.0
        supported = sum(1 for credit in credits if credit == 1.0)
        if strict:
            return supported / len(credits)
        return (supported + sum(0.5 for credit in credits if credit == 0.5)) / len(credits)

    return NuggetScores(
        share(vital, True), share(every, True), share(vital, False), share(every, False)
    )


def _nugget(nugget: Mapping[str, str], index: int) -> tuple[str, float]:
    """A nugget's importance and credit, checked."""
    if not isinstance(nugget, Mapping):
        raise ValueError(f"nuggets[{index}] must be a mapping, got {nugget!r}")
    importance = nugget.get("importance")
    assignment = nugget.get("assignment")
    if importance not in IMPORTANCES:
        raise ValueError(
            f"nuggets[{index}]['importance'] must be one of {', '.join(IMPORTANCES)}, "
            f"got {importance!r}"
        )
    if assignment not in ASSIGNMENTS:
        raise ValueError(
            f"nuggets[{index}]['assignment'] must be one of {', '.join(ASSIGNMENTS)}, "
            f"got {assignment!r}"
        )
    return importance, ASSIGNMENTS[assignment]


def _verdicts(values: Verdicts, name: str) -> list[int]:
    """Verdicts as Ragas makes them (``1 if verdict else 0``), each checked to be 0/1."""
    if isinstance(values, str | bytes):
        raise ValueError(f"{name} must be a sequence of 0/1 verdicts, got {values!r}")
    checked = []
    for index, value in enumerate(values):
        if value not in (0, 1) or isinstance(value, float):
            raise ValueError(f"{name}[{index}] must be 0, 1, True or False, got {value!r}")
        checked.append(1 if value else 0)
    return checked

"""The ``demo: {lab: {...}}`` block of a metric card: its checks and its expansion to a demo.

A metric card names a measure and the lab does the rest (issue 14: a metric card needs no
Python). The block is checked here, field by field, with problems ``"demo.lab.<field>: ..."``
that the card validator places at their YAML line; a valid block then *expands* into a regular
demo (``compute`` = :func:`rankcards.viz.lab.view`, generated ``controls`` and ``state``) so the
page template, the browser runtime and the demo tests handle a lab card like any other.

.. code-block:: yaml

    demo:
      lab:
        measure: "AP@k"          # ir_measures notation; "@k" binds the cutoff to a K slider
        k: 5                     # initial cutoff (required with "@k", 1..longest ranking)
        labels: binary           # binary | graded (default: graded for gain-based measures)
        conventions: [ties, cutoff, averaging]   # optional: ties | gain | cutoff | averaging
        queries: [...]           # optional, ranked-lists state; default: the shared toy example

>>> spec = {"measure": "AP@k", "k": 3, "conventions": ["ties"]}
>>> lab_problems(spec)
[]
>>> demo = expand_lab(spec)
>>> demo["compute"], [c["bind"] for c in demo["controls"]]
('rankcards.viz.lab:view', ['k', 'queries', 'show_ties'])
>>> lab_problems({"measure": "AP@k"})
['demo.lab.k: "AP@k" has a cutoff bound to the K slider: give its initial value, e.g. k: 5']
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping, Sequence
from typing import Any

from rankcards.demos.toy import TOY
from rankcards.metrics import MeasureError, MeasureSpec, parse_measure
from rankcards.metrics._registry import BY_NAME, MEASURES
from rankcards.viz._lab_text import CONTROL_TEXT
from rankcards.viz._validate import ranked_list_problems

__all__ = [
    "CONVENTIONS",
    "FIELDS",
    "LAB_COMPUTE",
    "cutoff_variant",
    "default_labels",
    "expand_lab",
    "exponential_gain",
    "gain_variant",
    "lab_problems",
    "measure_at",
]

LAB_COMPUTE = "rankcards.viz.lab:view"
FIELDS = ("measure", "k", "labels", "conventions", "queries")
CONVENTIONS = ("ties", "gain", "cutoff", "averaging")
LABELS = ("binary", "graded")
#: the grade scale of graded labels: the toy example's 0-3 (TREC's graded scale)
MAX_GRADE = 3
#: the written cutoff bound to the K slider
SLIDER_CUTOFF = "@k"
#: measures whose gains are the graded labels themselves; binary labels flatten them
_GAIN_BASED = frozenset({"nDCG", "DCG", "ERR", "RBP"})
#: gdeval's exponential gain, as ir_measures writes it (a parameter of nDCG)
_EXP_GAIN = "dcg=exp-log2"


def measure_at(written: str, k: int | None) -> str:
    """The concrete measure name: ``"AP@k"`` with the slider's ``k`` -> ``"AP@3"``.

    >>> measure_at("P(rel=2)@k", 4), measure_at("RBP(p=0.5)", None)
    ('P(rel=2)@4', 'RBP(p=0.5)')
    """
    if written.endswith(SLIDER_CUTOFF):
        return f"{written[: -len(SLIDER_CUTOFF)]}@{k}"
    return written


def _parsed(written: str) -> MeasureSpec:
    """Parse the written measure, ``@k`` standing for any cutoff (1 is checked)."""
    return parse_measure(measure_at(written, 1))


def gain_variant(name: str) -> str | None:
    """The same measure with the other gain, or None if it has no gain option.

    ``nDCG@5`` -> ``nDCG(dcg=exp-log2)@5`` (gdeval's 2^g - 1) and back, when the metrics module
    knows that parameter.
    """
    base, at, cutoff = name.partition("@")
    if exponential_gain(name):
        inner = [p for p in base[:-1].partition("(")[2].split(",") if p.strip() != _EXP_GAIN]
        head = base.partition("(")[0]
        variant = f"{head}({','.join(inner)})" if inner else head
    elif "(" in base:
        head, _, inner_text = base[:-1].partition("(")
        variant = f"{head}({inner_text},{_EXP_GAIN})"
    else:
        variant = f"{base}({_EXP_GAIN})"
    variant += at + cutoff
    try:
        parse_measure(variant)
    except MeasureError:
        return None
    return variant


def exponential_gain(name: str) -> bool:
    """Whether ``name`` asks for gdeval's exponential gain (``nDCG(dcg=exp-log2)@5``)."""
    return _EXP_GAIN in name.replace(" ", "")


def cutoff_variant(name: str) -> str | None:
    """The same measure over the whole list (``AP@5`` -> ``AP``), or None if it needs a cutoff."""
    spec = parse_measure(name)
    if spec.k is None or spec.measure.cutoff != "optional":
        return None
    return name.partition("@")[0]


def default_labels(written: str) -> str:
    """``graded`` for measures whose gain is the grade (nDCG, ERR, RBP ...), else ``binary``."""
    try:
        spec = _parsed(written)
    except MeasureError:
        return "binary"
    return "graded" if spec.measure.name in _GAIN_BASED or _rel(spec) > 1 else "binary"


def _rel(spec: MeasureSpec) -> int:
    """The measure's own relevance level (``P(rel=2)``), 1 when it takes the evaluation's."""
    return int(dict(spec.params).get("rel", 1))


def _close_names(written: str) -> str:
    """The registry's names close to what was written, in their written forms."""
    name = written.partition("(")[0].partition("@")[0].strip()
    by_lower = {known.lower(): known for known in BY_NAME}
    close = difflib.get_close_matches(name.lower(), list(by_lower), n=4, cutoff=0.5)
    forms = [BY_NAME[by_lower[found]].form() for found in close]
    if not forms:
        forms = [m.form() for m in MEASURES if not m.is_counter]
        return "known measures: " + ", ".join(forms)
    return "close names: " + ", ".join(dict.fromkeys(forms))


def _measure_problems(written: object) -> list[str]:
    if not isinstance(written, str) or not written.strip():
        return ['demo.lab.measure: expected a measure name such as "AP@k" or "nDCG@k"']
    if written.count(SLIDER_CUTOFF) and not written.endswith(SLIDER_CUTOFF):
        return [f'demo.lab.measure: "{written}": "@k" must end the name, e.g. "P(rel=2)@k"']
    try:
        spec = _parsed(written)
    except MeasureError as error:
        base = written.partition("(")[0].partition("@")[0].strip()
        if base not in BY_NAME:
            return [f'demo.lab.measure: unknown measure "{written}"; {_close_names(written)}']
        return [f"demo.lab.measure: {error}"]
    if written.endswith(SLIDER_CUTOFF) and spec.measure.at != "rank":
        return [
            f'demo.lab.measure: "{written}": the "@" of {spec.measure.name} is a recall level, '
            f'not a rank cutoff for the K slider: write e.g. "{spec.measure.name}@0.5"'
        ]
    if spec.measure.is_counter:
        return [f'demo.lab.measure: "{written}" is a counter, not a score per query']
    if spec.measure.subtopics:
        return [
            f'demo.lab.measure: "{written}": {spec.measure.name} reads judgments per subtopic, '
            "and the lab's rankings have one label per document: give the card its own demo"
        ]
    if not explained(spec):
        return [
            f'demo.lab.measure: "{written}": {spec.measure.name} has no per-rank explanation '
            "yet, which the lab shows: add an explain() next to its compute() in "
            "rankcards.metrics (see _ap.py)"
        ]
    return []


def explained(spec: MeasureSpec) -> bool:
    """Whether the measure's module reports its per-rank terms (what the lab shows)."""
    return spec.measure.explain is not None


def _longest(queries: Sequence[Mapping[str, Any]]) -> int:
    return max((len(item["ranking"]) for item in queries), default=0)


def _k_problems(spec: Mapping[str, Any], written: str, longest: int) -> list[str]:
    k = spec.get("k")
    bound = written.endswith(SLIDER_CUTOFF)
    if not bound:
        if k is not None:
            return [
                f'demo.lab.k: "{written}" has no "@k" cutoff for a slider: write '
                f'"{written.partition("@")[0]}@k" or remove k'
            ]
        return []
    if k is None:
        return [
            f'demo.lab.k: "{written}" has a cutoff bound to the K slider: give its initial '
            "value, e.g. k: 5"
        ]
    if not isinstance(k, int) or isinstance(k, bool) or not 1 <= k <= longest:
        return [f"demo.lab.k: {k!r} is out of range: k must be an integer from 1 to {longest}"]
    return []


def _convention_problem(convention: object, written: str, index: int) -> str | None:
    where = f"demo.lab.conventions[{index}]"
    if convention not in CONVENTIONS:
        return f"{where}: unknown convention {convention!r}; expected one of: " + ", ".join(
            CONVENTIONS
        )
    name = measure_at(written, 1)
    spec = parse_measure(name)
    if convention == "gain" and gain_variant(name) is None:
        return (
            f'{where}: "gain" does not apply to {spec.measure.name}: only measures with a '
            "graded gain (nDCG) can compare linear and exponential gains"
        )
    if convention == "cutoff":
        if spec.measure.cutoff != "optional":
            return (
                f'{where}: "cutoff" does not apply to {spec.measure.name}: it has no '
                "whole-list form to compare with"
            )
        if not written.endswith(SLIDER_CUTOFF) and spec.k is None:
            return f'{where}: "cutoff" compares @k with the whole list: write "{written}@k"'
    return None


def _conventions_problems(conventions: object, written: str) -> list[str]:
    if conventions is None:
        return []
    if not isinstance(conventions, list):
        return ["demo.lab.conventions: expected a list such as [ties, cutoff, averaging]"]
    problems = []
    for index, convention in enumerate(conventions):
        if (problem := _convention_problem(convention, written, index)) is not None:
            problems.append(problem)
        elif convention in conventions[:index]:
            problems.append(f"demo.lab.conventions[{index}]: {convention!r} is listed twice")
    return problems


def toy_queries(labels: str) -> list[dict[str, Any]]:
    """The shared toy example as ranked-lists state, with binary or graded (0-3) labels."""
    if labels == "graded":
        return [
            {"query": q.id, "ranking": list(q.ranking), "grades": dict(sorted(q.judgments.items()))}
            for q in TOY
        ]
    return [
        {"query": q.id, "ranking": list(q.ranking), "relevant": sorted(q.relevant)} for q in TOY
    ]


def _queries_problems(queries: object, labels: str) -> list[str]:
    if queries is None:
        return []
    if not isinstance(queries, list) or not queries:
        return ["demo.lab.queries: expected a non-empty list of {query, ranking, relevant|grades}"]
    max_grade = MAX_GRADE if labels == "graded" else 1
    problems = []
    for index, item in enumerate(queries):
        problems.extend(ranked_list_problems(item, max_grade, f"demo.lab.queries[{index}]"))
    ids = [item.get("query") for item in queries if isinstance(item, Mapping)]
    if not problems and len(set(ids)) != len(ids):
        problems.append("demo.lab.queries: query ids must be distinct")
    if not problems and _longest(queries) == 0:
        problems.append("demo.lab.queries: at least one ranking must list a document")
    return problems


def lab_problems(spec: object) -> list[str]:
    """Problems of a ``demo.lab`` block, each ``"demo.lab.<field>: message"``; [] if valid."""
    if not isinstance(spec, Mapping):
        return ["demo.lab: expected a mapping with measure (and k, labels, conventions)"]
    unknown = sorted(set(spec) - set(FIELDS))
    if unknown:
        return [f"demo.lab.{unknown[0]}: unknown field (expected one of: {', '.join(FIELDS)})"]
    written = spec.get("measure")
    problems = _measure_problems(written)
    labels = spec.get("labels") or default_labels(written if isinstance(written, str) else "")
    if labels not in LABELS:
        problems.append(f"demo.lab.labels: {labels!r} is not one of: {', '.join(LABELS)}")
        labels = "binary"
    problems.extend(_queries_problems(spec.get("queries"), labels))
    if problems:
        return problems
    assert isinstance(written, str)
    queries = spec.get("queries") or toy_queries(labels)
    problems.extend(_k_problems(spec, written, _longest(queries)))
    if labels == "binary" and "labels" in spec and _rel(_parsed(written)) > 1:
        problems.append(
            f'demo.lab.labels: "{written}" counts grades >= {_rel(_parsed(written))} as '
            "relevant, and binary labels are all 1: use labels: graded"
        )
    problems.extend(_conventions_problems(spec.get("conventions"), written))
    return problems


def _first_swapped_pair(queries: Sequence[Mapping[str, Any]]) -> list[str]:
    """A tie that trec_eval's rule reorders (docno descending), near the top: the initial one.

    ``"q1:2"`` ties ranks 2 and 3 of q1; preferring a pair with a relevant document makes the
    two conventions differ on the toy example.
    """
    fallback: list[str] = []
    for item in queries:
        marked = set(item.get("relevant", [])) | {
            doc for doc, grade in item.get("grades", {}).items() if grade > 0
        }
        ranking = item["ranking"]
        for rank in range(1, len(ranking)):
            upper, lower = ranking[rank - 1], ranking[rank]
            if upper < lower:  # docno descending puts `lower` first: the tie changes the order
                if marked & {upper, lower}:
                    return [f"{item['query']}:{rank}"]
                fallback = fallback or [f"{item['query']}:{rank}"]
    return fallback


def expand_lab(spec: Mapping[str, Any]) -> dict[str, Any]:
    """The regular demo a valid lab block stands for (call :func:`lab_problems` first)."""
    written = str(spec["measure"])
    labels = spec.get("labels") or default_labels(written)
    queries = [dict(item) for item in spec.get("queries") or toy_queries(labels)]
    conventions = list(spec.get("conventions") or [])
    texts = CONTROL_TEXT
    controls: list[dict[str, Any]] = []
    state: dict[str, Any] = {"measure": written, "labels": labels}
    if written.endswith(SLIDER_CUTOFF):
        controls.append(
            {"kind": "slider", "bind": "k", "label": texts["k"], "min": 1, "max": _longest(queries)}
        )
        state["k"] = spec["k"]
    controls.append(
        {
            "kind": "ranked-lists",
            "bind": "queries",
            "label": texts["queries_graded" if labels == "graded" else "queries_binary"],
            "help": texts["queries_help"],
            "max_grade": MAX_GRADE if labels == "graded" else 1,
        }
    )
    state["queries"] = queries
    state["focus"] = queries[0]["query"]
    for convention in conventions:
        controls.append(
            {
                "kind": "toggle",
                "bind": f"show_{convention}",
                "label": texts[f"show_{convention}"],
                "help": texts[f"show_{convention}_help"],
            }
        )
        state[f"show_{convention}"] = False
    if "ties" in conventions:
        state["tied"] = _first_swapped_pair(queries)
    if "averaging" in conventions:
        state["absent"] = [queries[-1]["query"]] if len(queries) > 1 else []
    return {"compute": LAB_COMPUTE, "controls": controls, "state": state}

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
        unjudged: true           # optional: a document can also be left unjudged (not in qrels)
        params: {p: {min: 0.5, max: 0.95, step: 0.05}}   # optional: a measure parameter slider
        conventions: [ties, cutoff, averaging]   # optional: ties | gain | cutoff | averaging |
                                                 #           micro | unjudged
        queries: [...]           # optional, ranked-lists state; default: the shared toy example

>>> spec = {"measure": "AP@k", "k": 3, "conventions": ["ties"]}
>>> lab_problems(spec)
[]
>>> demo = expand_lab(spec)
>>> demo["compute"], [c["bind"] for c in demo["controls"]]
('rankcards.viz.lab:view', ['k', 'queries', 'show_ties'])
>>> demo = expand_lab({"measure": "RBP(p=0.8)", "params": {"p": {"min": 0.5, "max": 0.95,
...     "step": 0.05}}})
>>> [(c["bind"], c["kind"]) for c in demo["controls"]], demo["state"]["param_p"]
([('param_p', 'slider'), ('queries', 'ranked-lists')], 0.8)
>>> concrete_name("RBP(p=0.8)", None, {"p": 0.65})
'RBP(p=0.65)'
>>> concrete_name("IPrec@0.5", None, {"recall": 0.3}), concrete_name("F1@k", 3, {})
('IPrec@0.3', 'F1@3')
>>> lab_problems({"measure": "AP@k"})
['demo.lab.k: "AP@k" has a cutoff bound to the K slider: give its initial value, e.g. k: 5']
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping, Sequence
from typing import Any

from rankcards.demos.toy import TOY
from rankcards.metrics import MeasureError, MeasureSpec, evaluate, parse_measure
from rankcards.metrics._registry import BY_NAME, MEASURES
from rankcards.viz._lab_text import CONTROL_TEXT
from rankcards.viz._validate import ranked_list_problems

__all__ = [
    "CONVENTIONS",
    "FIELDS",
    "LAB_COMPUTE",
    "PARAM_PREFIX",
    "concrete_name",
    "cutoff_variant",
    "default_labels",
    "expand_lab",
    "exponential_gain",
    "gain_variant",
    "judgments_of",
    "lab_problems",
    "measure_at",
    "pooled",
    "scores_of",
]

LAB_COMPUTE = "rankcards.viz.lab:view"
FIELDS = ("measure", "k", "labels", "unjudged", "params", "conventions", "queries")
CONVENTIONS = ("ties", "gain", "cutoff", "averaging", "micro", "unjudged")
LABELS = ("binary", "graded")
#: state key of a measure parameter's slider: ``param_p`` for RBP's p
PARAM_PREFIX = "param_"
#: measures whose per-query value is a ratio of counts (hits / k, hits / R ...): their counts
#: can be pooled over the queries, the micro average (the ``micro`` convention)
_POOLED = frozenset({"P", "R", "F1", "F", "Rprec", "Judged"})
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


def concrete_name(written: str, k: int | None, params: Mapping[str, float]) -> str:
    """The measure at the slider's ``k`` with the parameter sliders' values, canonically named.

    ``params`` maps a parameter (``p``, ``beta``, ``rel``, IPrec's ``recall``) to its value.
    """
    spec = parse_measure(measure_at(written, k))
    if not params:
        return spec.name
    given = dict(spec.params)
    for param in spec.measure.params:
        if param.name in params:
            value = params[param.name]
            given[param.name] = int(value) if param.kind is int else float(value)
    ordered = tuple((p.name, given[p.name]) for p in spec.measure.params if p.name in given)
    return MeasureSpec(spec.measure, spec.k, ordered).name


def pooled(written: str) -> bool:
    """Whether the measure's value is a ratio of counts that can be pooled (micro average)."""
    return _parsed(written).measure.name in _POOLED


def judgments_of(item: Mapping[str, Any], graded: bool) -> dict[str, int]:
    """A ranked list's judgments: every listed document not left unjudged (0 unless marked),
    and every marked one; an unjudged document is absent, as from trec_eval's qrels."""
    marks: Mapping[str, int] = (
        item.get("grades", {}) if graded else dict.fromkeys(item.get("relevant", []), 1)
    )
    unjudged = set(item.get("unjudged", []))
    judged = {doc: 0 for doc in item["ranking"] if doc not in unjudged}
    judged.update({doc: int(grade) for doc, grade in marks.items()})
    return judged


def scores_of(ranking: Sequence[str], tied_ranks: set[int]) -> dict[str, float]:
    """Scores that rank the list as given, equal for rank r and r + 1 when r is tied.

    >>> scores_of(["a", "b", "c"], {1})
    {'a': 2.0, 'b': 2.0, 'c': 1.0}
    """
    groups = len(ranking) - len([r for r in tied_ranks if 1 <= r < len(ranking)])
    scores: dict[str, float] = {}
    score = float(groups)
    for rank, doc in enumerate(ranking, 1):
        if rank > 1 and rank - 1 not in tied_ranks:
            score -= 1.0
        scores[doc] = score
    return scores


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


def _convention_problem(
    convention: object, written: str, index: int, unjudged: object
) -> str | None:
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
    if convention == "micro" and spec.measure.name not in _POOLED:
        return (
            f'{where}: "micro" does not apply to {spec.measure.name}: the micro average pools '
            "counts over the queries (hits / k, hits / R), and its value is not a ratio of "
            f"counts; measures that are: {', '.join(sorted(_POOLED))}"
        )
    if convention == "unjudged" and unjudged is not True:
        return (
            f'{where}: "unjudged" compares unjudged documents with judged non-relevant ones: '
            "add unjudged: true to the lab block and leave some documents unjudged"
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


def _conventions_problems(conventions: object, written: str, unjudged: object) -> list[str]:
    if conventions is None:
        return []
    if not isinstance(conventions, list):
        return ["demo.lab.conventions: expected a list such as [ties, cutoff, averaging]"]
    problems = []
    for index, convention in enumerate(conventions):
        if (problem := _convention_problem(convention, written, index, unjudged)) is not None:
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


def _queries_problems(queries: object, labels: str, unjudged: bool) -> list[str]:
    if queries is None:
        return []
    if not isinstance(queries, list) or not queries:
        return ["demo.lab.queries: expected a non-empty list of {query, ranking, relevant|grades}"]
    max_grade = MAX_GRADE if labels == "graded" else 1
    problems = []
    for index, item in enumerate(queries):
        where = f"demo.lab.queries[{index}]"
        if isinstance(item, Mapping) and "unjudged" in item and not unjudged:
            problems.append(f"{where}.unjudged: add unjudged: true to the lab block first")
            continue
        problems.extend(ranked_list_problems(item, max_grade, where, unjudged))
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
    unjudged = spec.get("unjudged", False)
    if not isinstance(unjudged, bool):
        problems.append(f"demo.lab.unjudged: expected true or false, got {unjudged!r}")
        unjudged = False
    problems.extend(_queries_problems(spec.get("queries"), labels, unjudged))
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
    problems.extend(_params_problems(spec.get("params"), written, labels))
    problems.extend(_conventions_problems(spec.get("conventions"), written, unjudged))
    return problems


#: the measure parameters a slider can move (``dcg`` is the ``gain`` convention instead)
SLIDER_PARAMS = ("p", "beta", "rel", "recall")


def _initial_param(spec: MeasureSpec, name: str) -> float | None:
    """The parameter's value in the written measure, else its default (None: no default)."""
    param = next(p for p in spec.measure.params if p.name == name)
    value = dict(spec.params).get(name, param.default)
    return None if value is None or isinstance(value, str) else float(value)


def _param_problems(name: object, bounds: object, spec: MeasureSpec, labels: str) -> list[str]:
    where = f"demo.lab.params.{name}"
    known = [p.name for p in spec.measure.params if p.name in SLIDER_PARAMS]
    if name not in known:
        takes = f"its parameters: {', '.join(known)}" if known else "it has no parameter"
        return [
            f"{where}: {spec.measure.name} has no parameter {name!r} a slider can move ({takes})"
        ]
    if not isinstance(bounds, Mapping) or not {"min", "max", "step"} <= set(bounds) <= {
        "min",
        "max",
        "step",
    }:
        return [f"{where}: expected {{min, max, step}}, e.g. {{min: 0.5, max: 0.95, step: 0.05}}"]
    low, high, step = bounds["min"], bounds["max"], bounds["step"]
    param = next(p for p in spec.measure.params if p.name == name)
    numbers = [low, high, step]
    if not all(isinstance(x, int | float) and not isinstance(x, bool) for x in numbers):
        return [f"{where}: min, max and step must be numbers"]
    if param.kind is int and not all(isinstance(x, int) for x in numbers):
        return [f"{where}: {name} is an integer: min, max and step must be integers"]
    if not (low < high and 0 < step <= high - low):
        return [f"{where}: expected min < max and 0 < step <= max - min"]
    if not (param.accepts(low) and param.accepts(high)):
        return [f"{where}: {name} must be {param.expected}, got the range [{low}, {high}]"]
    if name == "rel" and labels == "binary" and high > 1:
        return [f"{where}: binary labels are all 1: a relevance level above 1 needs labels: graded"]
    initial = _initial_param(spec, name)
    if initial is None:
        return [
            f"{where}: write its initial value in the measure, e.g. "
            f'"{spec.measure.name}({name}=...)"'
        ]
    steps = (initial - low) / step
    if not low <= initial <= high or abs(steps - round(steps)) > 1e-9:
        return [
            f"{where}: the measure's {name} = {initial:g} is not one of the slider's values "
            f"(from {low} to {high} by {step})"
        ]
    return []


def _params_problems(params: object, written: str, labels: str) -> list[str]:
    if params is None:
        return []
    if not isinstance(params, Mapping) or not params:
        return [
            "demo.lab.params: expected a mapping such as {p: {min: 0.5, max: 0.95, step: 0.05}}"
        ]
    spec = _parsed(written)
    return [
        problem
        for name, bounds in params.items()
        for problem in _param_problems(name, bounds, spec, labels)
    ]


def _initial_tie(queries: Sequence[Mapping[str, Any]], name: str, graded: bool) -> list[str]:
    """The first tie that trec_eval's rule (docno descending) reorders AND that changes the
    measure, near the top: the initial one, so the two conventions differ in the default state.

    ``"q1:2"`` ties ranks 2 and 3 of q1. Without such a tie, the first one that reorders.
    """
    fallback: list[str] = []
    for item in queries:
        qid, ranking = str(item["query"]), list(item["ranking"])
        qrels = {qid: judgments_of(item, graded)}
        for rank in range(1, len(ranking)):
            if ranking[rank - 1] >= ranking[rank]:  # docno descending keeps this order
                continue
            tie = f"{qid}:{rank}"
            fallback = fallback or [tie]
            if qrels[qid]:
                run = {qid: scores_of(ranking, {rank})}
                by_docno = evaluate(qrels, run, [name]).per_query[qid]
                in_order = evaluate(qrels, run, [name], ties="run-order").per_query[qid]
                if by_docno != in_order:
                    return [tie]
    return fallback


def expand_lab(spec: Mapping[str, Any]) -> dict[str, Any]:
    """The regular demo a valid lab block stands for (call :func:`lab_problems` first)."""
    written = str(spec["measure"])
    labels = spec.get("labels") or default_labels(written)
    unjudged = bool(spec.get("unjudged", False))
    queries = [dict(item) for item in spec.get("queries") or toy_queries(labels)]
    conventions = list(spec.get("conventions") or [])
    params = dict(spec.get("params") or {})
    texts = CONTROL_TEXT
    controls: list[dict[str, Any]] = []
    state: dict[str, Any] = {"measure": written, "labels": labels}
    if written.endswith(SLIDER_CUTOFF):
        controls.append(
            {
                "kind": "slider",
                "bind": "k",
                "label": texts["k"],
                "help": texts["k_help"],
                "min": 1,
                "max": _longest(queries),
            }
        )
        state["k"] = spec["k"]
    parsed = _parsed(written)
    for name, bounds in params.items():
        bind = f"{PARAM_PREFIX}{name}"
        controls.append(
            {
                "kind": "slider",
                "bind": bind,
                "label": texts[bind],
                "help": texts[f"{bind}_help"],
                "min": bounds["min"],
                "max": bounds["max"],
                "step": bounds["step"],
            }
        )
        initial = _initial_param(parsed, name)
        state[bind] = int(initial) if isinstance(bounds["step"], int) else initial  # type: ignore[arg-type]
    graded = labels == "graded"
    help_key = f"queries_help_unjudged_{labels}" if unjudged else f"queries_help_{labels}"
    lists: dict[str, Any] = {
        "kind": "ranked-lists",
        "bind": "queries",
        "label": texts["queries_unjudged" if unjudged else f"queries_{labels}"],
        "help": texts[help_key],
        "max_grade": MAX_GRADE if graded else 1,
    }
    if unjudged:
        lists["unjudged"] = True
    controls.append(lists)
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
        values = {name: state[f"{PARAM_PREFIX}{name}"] for name in params}
        state["tied"] = _initial_tie(
            queries, concrete_name(written, state.get("k"), values), graded
        )
    if "averaging" in conventions:
        state["absent"] = [queries[-1]["query"]] if len(queries) > 1 else []
    return {"compute": LAB_COMPUTE, "controls": controls, "state": state}

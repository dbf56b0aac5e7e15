"""The measure lab: one view for any measure of :mod:`rankcards.metrics`, named by the card.

A card writes ``demo: {lab: {measure: "AP@k", k: 5}}`` (see :mod:`rankcards.viz._lab_spec`)
and gets this view: the value of the measure for each query and their mean (from
:func:`rankcards.metrics.evaluate`, trec_eval's rules), and for the query the reader picks, the
measure's own per-rank terms (:func:`rankcards.metrics.explain`) in a table and written out as
a formula with the live numbers. Conventions that change the number (ties, gain, cutoff,
averaging, micro, unjudged) can be switched on to show both values side by side, each computed
by the module through its named option; the first value is always trec_eval's. Measure
parameters (``param_p`` ...) come from their sliders; IPrec also draws its interpolated
precision-recall curve (:mod:`rankcards.plot`) with the reader's recall level marked.

The lab's data: every document listed in a ranking is judged (grade 0 when unmarked) unless
the card lets the reader leave it unjudged (``unjudged``: absent from the qrels, as trec_eval
reads them), plus any marked document the ranking does not list (a relevant document never
retrieved). Scores
are implicit: the list order, except that ``tied`` entries ``"q1:2"`` give ranks 2 and 3 of q1
the same score (shown with the ties convention only). ``absent`` queries are judged but the run
returns nothing for them (shown with the averaging convention only).

>>> state = {"measure": "AP@k", "k": 5, "labels": "binary", "focus": "q1", "queries": [
...     {"query": "q1", "ranking": ["d3", "d1", "d7"], "relevant": ["d1", "d7"]},
...     {"query": "q2", "ranking": ["d2", "d5"], "relevant": []}]}
>>> html = view(state, "en")
>>> 'data-metric="value:q1" data-value="0.5833333333333333"' in html  # (1/2 + 2/3) / 2
True
>>> 'data-metric="mean" data-value="0.29166666666666663"' in html  # q2 judged, counts 0
True
"""

from __future__ import annotations

import ast
import operator
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from math import isclose, log2
from typing import Any

from rankcards.metrics import Explanation, Step, evaluate, explain
from rankcards.metrics._explain import rank_documents
from rankcards.metrics._terms import number
from rankcards.plot import Figure
from rankcards.viz._html import Html, act_set, act_toggle, el, fmt, metric, table
from rankcards.viz._lab_spec import (
    PARAM_PREFIX,
    concrete_name,
    cutoff_variant,
    exponential_gain,
    gain_variant,
    judgments_of,
    scores_of,
)
from rankcards.viz._lab_text import DETAIL, QUANTITY, SYMBOL, VIEW

__all__ = ["Lab", "view"]

Judgments = dict[str, int]
Scores = dict[str, float]
#: the 11 standard recall levels of a precision-recall curve (trec_eval's iprec_at_recall)
RECALL_LEVELS = tuple(level / 10 for level in range(11))


@dataclass(frozen=True)
class Lab:
    """The lab's state resolved: the measure at the current k and the qrels and run it reads."""

    written: str
    name: str
    k: int | None
    graded: bool
    queries: tuple[Mapping[str, Any], ...]
    focus: str
    conventions: frozenset[str]
    tied: frozenset[str]
    absent: frozenset[str]

    @classmethod
    def from_state(cls, state: Mapping[str, Any]) -> Lab:
        written = str(state["measure"])
        k = int(state["k"]) if "k" in state else None
        params = {
            key.removeprefix(PARAM_PREFIX): float(value)
            for key, value in state.items()
            if key.startswith(PARAM_PREFIX)
        }
        queries = tuple(state["queries"])
        ids = [str(item["query"]) for item in queries]
        focus = str(state.get("focus"))
        shown = frozenset(
            key.removeprefix("show_") for key, on in state.items() if key.startswith("show_") and on
        )
        return cls(
            written=written,
            name=concrete_name(written, k, params),
            k=k,
            graded=state.get("labels") == "graded",
            queries=queries,
            focus=focus if focus in ids else ids[0],
            conventions=shown,
            tied=frozenset(state.get("tied", [])) if "ties" in shown else frozenset(),
            absent=frozenset(state.get("absent", [])) if "averaging" in shown else frozenset(),
        )

    def tied_ranks(self, qid: str) -> set[int]:
        return {int(rank) for q, _, rank in (t.rpartition(":") for t in self.tied) if q == qid}

    @cached_property
    def qrels(self) -> dict[str, Judgments]:
        """Judged queries only: a query with no judgment is not in the qrels at all."""
        judged = {str(item["query"]): judgments_of(item, self.graded) for item in self.queries}
        return {qid: labels for qid, labels in judged.items() if labels}

    @cached_property
    def all_judged_qrels(self) -> dict[str, Judgments]:
        """The qrels with every listed unjudged document judged not relevant (0)."""
        qrels = {}
        for item in self.queries:
            qid = str(item["query"])
            labels = {**dict.fromkeys(item["ranking"], 0), **self.qrels.get(qid, {})}
            if labels:
                qrels[qid] = labels
        return qrels

    @cached_property
    def run(self) -> dict[str, Scores]:
        """The run: queries listing documents, except those the reader made return nothing."""
        return {
            str(item["query"]): scores_of(item["ranking"], self.tied_ranks(str(item["query"])))
            for item in self.queries
            if item["ranking"] and str(item["query"]) not in self.absent
        }

    @cached_property
    def variants(self) -> dict[str, str]:
        """The measures to evaluate: this one, and the other side of each convention shown."""
        names = {"measure": self.name}
        if "gain" in self.conventions and (exp := gain_variant(self.name)) is not None:
            names["gain"] = exp
        if "cutoff" in self.conventions and (whole := cutoff_variant(self.name)) is not None:
            names["cutoff"] = whole
        return names

    @cached_property
    def judged(self) -> dict[str, tuple[dict[str, float], float | None]]:
        """``variant -> (per-query values, mean)`` over the run's queries (trec_eval)."""
        return self._evaluate(complete=False)

    @cached_property
    def complete(self) -> dict[str, tuple[dict[str, float], float | None]]:
        """The same over every qrels query, as trec_eval ``-c`` averages."""
        return self._evaluate(complete=True)

    def _evaluate(self, complete: bool) -> dict[str, tuple[dict[str, float], float | None]]:
        """All variants in one :func:`rankcards.metrics.evaluate` call (None: no mean)."""
        names = list(self.variants.values())
        try:
            result = evaluate(self.qrels, self.run, names, complete=complete)
        except ValueError:  # no query in both the run and the qrels: trec_eval has no mean
            return dict.fromkeys(self.variants, ({}, None))
        keys = [spec.name for spec in result.measures]
        return {
            variant: (
                {q: values[key] for q, values in result.per_query.items()},
                result.aggregate[key],
            )
            for variant, key in zip(self.variants, keys, strict=True)
        }

    def run_order_mean(self) -> float | None:
        """The mean when equal scores keep the run's order: evaluate's ``ties="run-order"``."""
        try:
            result = evaluate(self.qrels, self.run, [self.name], ties="run-order")
        except ValueError:  # no query in both the run and the qrels
            return None
        return result.aggregate[result.measures[0].name]

    def all_judged_mean(self) -> float | None:
        """The mean when every unjudged listed document is judged not relevant (0)."""
        try:
            result = evaluate(self.all_judged_qrels, self.run, [self.name])
        except ValueError:  # no query in both the run and the qrels
            return None
        return result.aggregate[result.measures[0].name]

    def pooled(self) -> tuple[float, float]:
        """Micro average: the numerators and denominators of the averaged queries, summed."""
        numerator = denominator = 0.0
        for qid in self.judged["measure"][0]:
            found = self.explanation(qid)
            numerator += found.numerator
            denominator += found.denominator
        return numerator, denominator

    def explanation(self, qid: str) -> Explanation:
        """The measure's terms for one query, ranked as the run ranks it (trec_eval's ties)."""
        ranking = self.run.get(qid, {})
        return explain(self.name, ranking, self.qrels.get(qid, {}), ties="trec_eval")


def _value(name: str, value: float | None, **attrs: Any) -> Html:
    if value is None:
        return el("span", {"class": "rc-num rc-lab-none", "data-metric": name}, "—")
    return metric(name, value, fmt(value, 4), **attrs)


def _per_query(lab: Lab, values: Mapping[str, float], t: Mapping[str, str]) -> Html:
    averaging = "averaging" in lab.conventions
    rows = []
    for item in lab.queries:
        qid = str(item["query"])
        value = values.get(qid)
        cell = _value(f"value:{qid}", value)
        if value is None and qid in lab.absent:
            cell = el("span", {}, cell, " ", el("small", {}, f"({t['not_in_run']})"))
        pressed = qid == lab.focus
        focus = el(
            "button",
            {
                "type": "button",
                "class": "rc-lab-focus",
                "aria-pressed": "true" if pressed else "false",
                "aria-label": t["terms_button"].format(query=qid),
                **act_set("focus", qid),
            },
            t["terms_short"],
        )
        cells = [el("th", {"scope": "row"}, qid), el("td", {}, cell), el("td", {}, focus)]
        if averaging:
            absent = qid in lab.absent
            cells.append(
                el(
                    "td",
                    {},
                    el(
                        "button",
                        {
                            "type": "button",
                            "class": "rc-lab-absent",
                            "aria-pressed": "true" if absent else "false",
                            "aria-label": t["absent_button"].format(query=qid),
                            **act_toggle("absent", qid),
                        },
                        t["absent_short"],
                    ),
                )
            )
        rows.append(el("tr", {"data-query": qid}, cells))
    headers = [t["query"], t["value"], t["terms_short"]]
    if averaging:
        headers.append(t["absent_short"])
    caption = t["per_query"].format(measure=lab.name)
    return table("rc-lab-queries", caption, headers, rows)


def _detail_keys(steps: Sequence[Step]) -> list[str]:
    return list(dict.fromkeys(key for step in steps for key in step.detail))


def _grade(step: Step, t: Mapping[str, str]) -> object:
    return t["unjudged"] if step.grade is None else str(step.grade)


def _steps_table(
    steps: Sequence[Step], prefix: str, caption: str, lang: str, t: Mapping[str, str]
) -> Html:
    keys = _detail_keys(steps)
    labels = DETAIL[lang]
    headers = [t["rank"], t["document"], t["grade"], t["term"], t["contribution"]]
    headers += [labels.get(key, key) for key in keys]
    rows = []
    for step in steps:
        cells = [
            el("th", {"scope": "row"}, str(step.rank)),
            el("td", {}, step.docno),
            el("td", {}, _grade(step, t)),
            el("td", {"class": "rc-lab-expression"}, step.expression),
            el("td", {}, metric(f"{prefix}:{step.rank}:contribution", step.contribution)),
        ]
        for key in keys:
            value = step.detail.get(key)
            shown = metric(f"{prefix}:{step.rank}:{key}", value) if value is not None else "—"
            cells.append(el("td", {}, shown))
        rows.append(el("tr", {"data-rank": step.rank, "data-doc": step.docno}, cells))
    return table(f"rc-lab-steps rc-lab-{prefix}", caption, headers, rows)


def _sum(terms: Sequence[Html]) -> list[object]:
    return [part for i, term in enumerate(terms) for part in ((" + ", term) if i else (term,))]


_OPERATORS: dict[type, Any] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.Pow: operator.pow,
}


def _number(node: ast.AST) -> float:
    """The value of an arithmetic expression node: numbers, + - * / ^, unary -, log2(x)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, int | float):
        return float(node.value)
    if isinstance(node, ast.BinOp) and type(node.op) in _OPERATORS:
        return float(_OPERATORS[type(node.op)](_number(node.left), _number(node.right)))
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return -_number(node.operand)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "log2":
        [argument] = node.args
        return log2(_number(argument))
    raise ValueError("not an arithmetic expression")


def written_term(expression: str, contribution: float) -> str:
    """``expression`` if it evaluates to ``contribution`` (then it can stand in the formula's
    sum), else the number: a measure may write its whole value as the term (RR's ``1/2`` adds
    1 to the numerator, over the rank).

    >>> written_term("(2^3-1)/log2(4)", 3.5), written_term("1/2", 1.0)
    ('(2^3-1)/log2(4)', '1')
    """
    try:
        tree = ast.parse(expression.replace("·", "*").replace("^", "**"), mode="eval")
        value = _number(tree.body)
    except (SyntaxError, ValueError, ZeroDivisionError, OverflowError):
        return fmt(contribution, 4)
    return (
        expression
        if isclose(value, contribution, rel_tol=1e-9, abs_tol=1e-12)
        else fmt(contribution, 4)
    )


def _query_formula(lab: Lab, qid: str, found: Explanation, t: Mapping[str, str]) -> Html:
    """``AP@5(q1) = (1/2 + 2/4) / 3 = 0.3333``: the contributing terms, the denominator."""
    contributing = [step for step in found.steps if step.contribution != 0.0]
    adds_up = abs(sum(step.contribution for step in found.steps) - found.numerator) <= 1e-12
    if adds_up and contributing:
        terms = [
            metric(f"term:{s.rank}", s.contribution, written_term(s.expression, s.contribution))
            for s in contributing
        ]
        numerator: list[object] = ["(", *_sum(terms), ")"] if len(terms) > 1 else terms
    else:
        numerator = [metric("numerator", found.numerator)]
    parts: list[object] = [t["query_formula"].format(measure=found.measure, query=qid)]
    parts += numerator
    if found.denominator not in (0.0, 1.0):
        parts += [" / ", metric("denominator", found.denominator)]
    parts += [" = ", metric("explained", found.value, fmt(found.value, 4))]
    return el("p", {"class": "rc-formula rc-lab-query-formula"}, parts)


def _quantities(found: Explanation, lang: str) -> Html:
    """Each named scalar in words: ``R = 3 (relevant judged documents)`` when it has a symbol,
    else ``relevant retrieved: 2`` (never the identifier the metrics module keys it by)."""
    names = QUANTITY[lang]
    items = []
    for key, value in found.quantities.items():
        label = names.get(key, key)
        shown = metric(f"quantity:{key}", value)
        if key in SYMBOL:
            items.append(el("li", {}, f"{SYMBOL[key]} = ", shown, f" ({label})"))
        else:
            items.append(el("li", {}, f"{label[:1].upper()}{label[1:]}: ", shown))
    return el("ul", {"class": "rc-lab-quantities"}, items)


def _tie_strip(lab: Lab, item: Mapping[str, Any], t: Mapping[str, str]) -> Html:
    """The focused ranking with an "=" button between neighbours that ties their scores."""
    qid = str(item["query"])
    ranking = list(item["ranking"])
    tied = lab.tied_ranks(qid)
    parts: list[object] = []
    for rank, doc in enumerate(ranking, 1):
        parts.append(el("span", {"class": "rc-lab-doc"}, doc))
        if rank < len(ranking):
            on = rank in tied
            label = t["tie_button"].format(upper=doc, lower=ranking[rank], rank=rank, next=rank + 1)
            parts.append(
                el(
                    "button",
                    {
                        "type": "button",
                        "class": "rc-lab-tie",
                        "aria-pressed": "true" if on else "false",
                        "aria-label": label,
                        **act_toggle("tied", f"{qid}:{rank}"),
                    },
                    "=" if on else "·",
                )
            )
    strip = el("p", {"class": "rc-lab-ties"}, el("span", {}, t["scores"].format(query=qid)), " ")
    if not tied:
        return el("div", {}, strip, el("p", {"class": "rc-lab-tie-line"}, parts))
    ranked = rank_documents(lab.run.get(qid, {}), "trec_eval")
    note = el("p", {"class": "rc-lab-tie-note"}, t["tie_note"].format(order=" ".join(ranked)))
    return el("div", {}, strip, el("p", {"class": "rc-lab-tie-line"}, parts), note)


def _focus(lab: Lab, lang: str, t: Mapping[str, str]) -> Html:
    qid = lab.focus
    item = next(item for item in lab.queries if str(item["query"]) == qid)
    found = lab.explanation(qid)
    parts: list[object] = []
    if "ties" in lab.conventions:
        parts.append(_tie_strip(lab, item, t))
    if found.steps:
        caption = t["terms_caption"].format(measure=found.measure, query=qid)
        parts.append(_steps_table(found.steps, "step", caption, lang, t))
    else:
        parts.append(el("p", {"class": "rc-lab-empty"}, t["no_steps"].format(query=qid)))
    if found.ideal:
        caption = t["ideal_caption"].format(query=qid)
        parts.append(_steps_table(found.ideal, "ideal", caption, lang, t))
    parts.append(_quantities(found, lang))
    parts.append(_query_formula(lab, qid, found, t))
    return el("div", {"class": "rc-lab-focus-query", "data-query": qid}, parts)


def _mean_formula(
    lab: Lab, values: Mapping[str, float], mean: float | None, t: Mapping[str, str]
) -> Html:
    attrs = {"class": "rc-formula rc-lab-mean", "data-rc-announce": True}
    if mean is None:
        return el("p", attrs, t["no_mean"], " ", _value("mean", None))
    terms = [metric(f"mean-term:{qid}", value, fmt(value, 4)) for qid, value in values.items()]
    return el(
        "p",
        attrs,
        t["mean_formula"].format(measure=lab.name),
        "(",
        _sum(terms),
        ")",
        f" / {len(terms)}" if len(terms) > 1 else "",
        " = ",
        metric("mean", mean, fmt(mean, 4)),
    )


def _pair(
    name: str,
    first: tuple[str, float | None],
    second: tuple[str, float | None],
    t: Mapping[str, str],
) -> Html:
    """One convention: ``trec_eval's label: value — the other label: value``."""
    (first_label, first_value), (second_label, second_value) = first, second
    return el(
        "li",
        {"data-convention": name},
        f"{first_label}: ",
        _value(f"{name}:default", first_value),
        " — ",
        f"{second_label}: ",
        _value(f"{name}:other", second_value),
    )


def _conventions(lab: Lab, mean: float | None, t: Mapping[str, str]) -> Html | None:
    items = []
    if "ties" in lab.conventions:
        items.append(
            _pair("ties", (t["ties_trec"], mean), (t["ties_run"], lab.run_order_mean()), t)
        )
    if "gain" in lab.variants:
        exp = lab.judged["gain"][1]
        labels = (
            (t["gain_exp"], t["gain_linear"])
            if exponential_gain(lab.name)
            else (
                t["gain_linear"],
                t["gain_exp"],
            )
        )
        items.append(_pair("gain", (labels[0], mean), (labels[1], exp), t))
    if "cutoff" in lab.variants:
        full = lab.judged["cutoff"][1]
        cut = t["cutoff_k"].format(k=lab.k)
        items.append(_pair("cutoff", (cut, mean), (t["cutoff_all"], full), t))
    if "micro" in lab.conventions:
        numerator, denominator = lab.pooled()
        micro = numerator / denominator if denominator else 0.0
        pooled = t["micro"].format(numerator=number(numerator), denominator=number(denominator))
        items.append(_pair("micro", (t["macro"], mean), (pooled, micro), t))
    if "unjudged" in lab.conventions:
        items.append(
            _pair("unjudged", (t["as_judged"], mean), (t["as_zero"], lab.all_judged_mean()), t)
        )
    if "averaging" in lab.conventions:
        values, complete = lab.complete["measure"]
        judged = len(lab.judged["measure"][0])
        first = f"{t['avg_run']}, {t['over'].format(n=judged)}"
        second = f"{t['avg_all']}, {t['over'].format(n=len(values))}"
        items.append(_pair("averaging", (first, mean), (second, complete), t))
    if not items:
        return None
    return el(
        "section",
        {"class": "rc-lab-conventions"},
        el("p", {"class": "rc-lab-conventions-title"}, t["conventions"]),
        el("ul", {}, items),
    )


def _curve(lab: Lab, lang: str, t: Mapping[str, str]) -> Html | None:
    """IPrec@r: the interpolated precision-recall curve at the 11 standard recall levels, mean
    over the averaged queries and for the focused query, with the reader's level marked."""
    spec_name = lab.name.partition("@")[0]
    if not spec_name.startswith("IPrec") or not lab.judged["measure"][0]:
        return None
    recall = float(lab.name.rpartition("@")[2])
    names = [f"{spec_name}@{level}" for level in RECALL_LEVELS]
    result = evaluate(lab.qrels, lab.run, names)
    keys = [spec.name for spec in result.measures]
    mean_curve = [result.aggregate[key] for key in keys]
    focus = result.per_query.get(lab.focus)
    figure = Figure(
        title=t["curve_title"], xlabel=t["curve_x"], ylabel=t["curve_y"],
        x_range=(0.0, 1.0), y_range=(0.0, 1.0), lang=lang,
    )  # fmt: skip
    figure.line(RECALL_LEVELS, mean_curve, label=t["curve_mean"])
    if focus is not None:
        figure.line(
            RECALL_LEVELS,
            [focus[key] for key in keys],
            label=t["curve_query"].format(query=lab.focus),
        )
    level = t["curve_level"].format(recall=fmt(recall))
    mean = lab.judged["measure"][1] or 0.0
    figure.scatter([recall], [mean], label=level, point_labels=[fmt(mean, 4)])
    caption = t["curve_caption"].format(query=lab.focus)
    return el(
        "figure",
        {"class": "rc-lab-curve"},
        Html(figure._repr_svg_()),  # built by rankcards.plot, which escapes every text
        el("figcaption", {}, caption),
    )


def view(state: dict[str, Any], lang: str) -> str:
    """Render the lab for ``state`` (built by :func:`rankcards.viz._lab_spec.expand_lab`)."""
    t = VIEW[lang]
    lab = Lab.from_state(state)
    values, mean = lab.judged["measure"]
    return el(
        "div",
        {"class": "rc-view rc-lab", "data-measure": lab.name},
        _per_query(lab, values, t),
        _mean_formula(lab, values, mean, t),
        _conventions(lab, mean, t),
        _curve(lab, lang, t),
        _focus(lab, lang, t),
    )

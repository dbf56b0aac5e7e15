# ruff: noqa: RUF001  (the strings table writes alpha and the minus sign as typeset)
"""The significance visualizer: p-values, intervals and false positives on simulated queries.

One view for the three statistics cards, chosen by ``state["mode"]`` (see :mod:`rankcards.viz`
for the contract). The per-query scores come from :mod:`rankcards.demos.simulated` (a world
whose true differences are known) and every number from :func:`rankcards.metrics.compare_scores`
and ``rankcards.metrics._stats``, so the page shows what ``rankcards compare`` computes:

* ``"test"`` (``significance-testing``): a baseline and one system whose true mean difference is
  ``effect``, on the first ``queries`` queries of sample ``seed``; the per-query differences as
  sorted bars, and the four paired tests side by side (the ``test`` chosen is written out);
* ``"interval"`` (``confidence-intervals``): the same pair; the 95% interval of the mean
  difference (t-based and bootstrap) on a number line with 0 and the true difference, the effect
  size, and how many queries an interval of half-width ``target`` needs;
* ``"multiple"`` (``multiple-comparisons``): ``systems`` systems compared with the baseline,
  all identical to it in expectation except ``S1``, better by ``effect``; each comparison's p
  before and after the ``correction``, and how many false positives survive.

Randomization and bootstrap use :data:`SAMPLES` seeded resamples (the randomization test is
exact, all sign flips, up to 16 non-zero differences), so a change costs milliseconds.

>>> state = {"mode": "test", "queries": 20, "effect": 0.05, "seed": 1, "test": "t"}
>>> html = view(state, "en")
>>> 'data-metric="p:t"' in html and 'data-metric="delta"' in html
True
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from rankcards.demos.simulated import simulated_scores
from rankcards.metrics import _stats, compare_scores
from rankcards.metrics._compare import CONFIDENCE, TESTS
from rankcards.metrics._stats import mean, sample_sd, student_t_cdf
from rankcards.viz._html import SPACED, AttrValue, Html, el, fmt, metric, table

__all__ = [
    "ALPHA",
    "CI_DIGITS",
    "SAMPLES",
    "all_tests",
    "comparison",
    "family",
    "queries_needed",
    "view",
]

#: Resamples of the randomization (beyond exact enumeration) and bootstrap tests in the view.
SAMPLES = 1000
#: Significance level of every verdict the view shows.
ALPHA = 0.05
_SEED = 0  # the tests' own random draws; the reader's seed picks the sample of queries
#: Interval endpoints are rounded to this many decimals. A bootstrap mean adds floats with
#: sum(), which rounds differently from Python 3.12 on (compensated): the build (CPython 3.11)
#: and the page (Pyodide's 3.14) then differ in the last bit, and the page must show the
#: build's numbers exactly. 12 decimals keep every digit a reader or a test can use.
CI_DIGITS = 12

_TEXT = {
    "en": {
        "t": "paired t-test",
        "wilcoxon": "Wilcoxon signed-rank",
        "randomization": "randomization (sign flips)",
        "bootstrap": "bootstrap-t (shifted to mean 0)",
        "sample": "Sample {seed}: {n} queries; true difference of the system: {effect} "
        "(known here because the queries are simulated).",
        "mean_is": "mean(d) = ",
        "ci_is": ",  95% interval: [",
        "family_null": "Sample {seed}: {n} queries; every system is identical to the baseline "
        "in expectation: each significant difference is a false positive.",
        "family_sample": "Sample {seed}: {n} queries; S1 is really better by {effect}, every "
        "other system is identical to the baseline in expectation.",
        "chart": "Per-query difference (system − baseline), sorted; the dashed line is the mean",
        "chart_axis": "difference",
        "wins": "System better on {w} queries, worse on {l}, tied on {t}.",
        "test_caption": "The same {n} differences, four tests (α = 0.05, two-sided)",
        "test": "Test",
        "p": "p-value",
        "ci": "95% interval of the mean difference",
        "verdict": "Significant?",
        "yes": "yes",
        "no": "no",
        "t_formula": "t = mean(d) / (sd(d) / √n) = {mean} / ({sd} / √{n}) = ",
        "p_of": "p ({test}) = ",
        "reading": "Reading: if the two systems were equally good on average, a mean difference "
        "at least this far from 0 would appear in about {pct}% of samples of {n} queries. "
        "It is not the probability that the system is no better.",
        "ci_caption": "95% interval of the mean difference over {n} queries",
        "method": "Method",
        "low": "from",
        "high": "to",
        "width": "half-width",
        "contains": "Contains 0?",
        "interval_t": "t-based",
        "interval_bootstrap": "bootstrap percentile ({samples} resamples)",
        "axis": "Number line from {low} to {high}: 0, the true difference and the intervals",
        "effect": "Effect size d = mean(d) / sd(d) = {mean} / {sd} = ",
        "needed": "Queries for a 95% interval of half-width ≤ {target} with this sd(d): n = ",
        "needed_formula": "smallest n with t(0.975, n − 1) · {sd} / √n ≤ {target}",
        "truth": "true difference",
        "family_caption": "{m} systems against the baseline, correction: {correction}",
        "system": "System",
        "truly": "Truly different?",
        "delta": "Mean difference",
        "adjusted": "adjusted p",
        "none": "none",
        "holm": "Holm",
        "bonferroni": "Bonferroni",
        "false": "False positives: ",
        "of": " of {nulls} systems with no real difference",
        "found": "; the really better S1 found: ",
        "fwer": "Chance of at least one false positive in {nulls} independent tests at α = 0.05: "
        "1 − 0.95^{nulls} = ",
    },
    "es": {
        "t": "prueba t pareada",
        "wilcoxon": "rangos con signo de Wilcoxon",
        "randomization": "aleatorización (cambios de signo)",
        "bootstrap": "bootstrap-t (centrado en 0)",
        "sample": "Muestra {seed}: {n} consultas; diferencia real del sistema: {effect} "
        "(se conoce porque las consultas son simuladas).",
        "mean_is": "media(d) = ",
        "ci_is": ",  intervalo del 95 %: [",
        "family_null": "Muestra {seed}: {n} consultas; todos los sistemas son iguales a la "
        "línea base en esperanza: cada diferencia significativa es un falso positivo.",
        "family_sample": "Muestra {seed}: {n} consultas; S1 es mejor de verdad por {effect}; "
        "los demás sistemas son iguales a la línea base en esperanza.",
        "chart": "Diferencia por consulta (sistema − línea base), ordenada; la línea discontinua "
        "es la media",
        "chart_axis": "diferencia",
        "wins": "El sistema gana en {w} consultas, pierde en {l} y empata en {t}.",
        "test_caption": "Las mismas {n} diferencias, cuatro pruebas (α = 0.05, bilaterales)",
        "test": "Prueba",
        "p": "valor p",
        "ci": "Intervalo del 95 % de la diferencia media",
        "verdict": "¿Significativa?",
        "yes": "sí",
        "no": "no",
        "t_formula": "t = media(d) / (de(d) / √n) = {mean} / ({sd} / √{n}) = ",
        "p_of": "p ({test}) = ",
        "reading": "Lectura: si los dos sistemas fueran igual de buenos en promedio, una "
        "diferencia media al menos así de lejos de 0 aparecería en cerca del {pct} % de las "
        "muestras de {n} consultas. No es la probabilidad de que el sistema no sea mejor.",
        "ci_caption": "Intervalo del 95 % de la diferencia media sobre {n} consultas",
        "method": "Método",
        "low": "desde",
        "high": "hasta",
        "width": "semiamplitud",
        "contains": "¿Contiene el 0?",
        "interval_t": "basado en t",
        "interval_bootstrap": "bootstrap de percentiles ({samples} remuestras)",
        "axis": "Recta de {low} a {high}: el 0, la diferencia real y los intervalos",
        "effect": "Tamaño del efecto d = media(d) / de(d) = {mean} / {sd} = ",
        "needed": "Consultas para un intervalo del 95 % de semiamplitud ≤ {target} con esta "
        "de(d): n = ",
        "needed_formula": "el menor n con t(0.975, n − 1) · {sd} / √n ≤ {target}",
        "truth": "diferencia real",
        "family_caption": "{m} sistemas frente a la línea base, corrección: {correction}",
        "system": "Sistema",
        "truly": "¿Distinto de verdad?",
        "delta": "Diferencia media",
        "adjusted": "p corregido",
        "none": "ninguna",
        "holm": "Holm",
        "bonferroni": "Bonferroni",
        "false": "Falsos positivos: ",
        "of": " de {nulls} sistemas sin diferencia real",
        "found": "; el S1 que sí es mejor, detectado: ",
        "fwer": "Probabilidad de al menos un falso positivo en {nulls} pruebas independientes "
        "con α = 0.05: 1 − 0.95^{nulls} = ",
    },
}


def _pair(state: dict[str, Any]) -> dict[str, dict[str, list[float]]]:
    """``{"baseline": {"score": [...]}, "S1": {"score": [...]}}``: the test and interval pair."""
    scores = simulated_scores(int(state["queries"]), [float(state["effect"])], int(state["seed"]))
    return {name: {"score": values} for name, values in scores.items()}


def comparison(state: dict[str, Any], test: str) -> dict[str, Any]:
    """The baseline-S1 comparison row of :func:`compare_scores` that the view shows for ``test``,
    its interval rounded to :data:`CI_DIGITS` decimals.

    >>> row = comparison({"queries": 20, "effect": 0.05, "seed": 1}, "t")
    >>> row["wins"] + row["losses"] + row["ties"]
    20
    """
    result = compare_scores(_pair(state), test=test, alpha=ALPHA, samples=SAMPLES, seed=_SEED)  # type: ignore[arg-type]
    row: dict[str, Any] = result["comparisons"][0]  # type: ignore[index]
    row["ci"] = [round(end, CI_DIGITS) for end in row["ci"]]
    return row


def all_tests(state: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """:func:`comparison` for each of the four tests, with one bootstrap instead of three.

    ``compare_scores`` gives every test but the t-test the same bootstrap interval (same
    draws, same seed), so the Wilcoxon and randomization rows are the bootstrap row with their
    own p from ``_stats``, the very functions ``compare_scores`` calls (the tests check the
    rows are equal): in the page, a change then costs one bootstrap, not three.
    """
    bootstrap = comparison(state, "bootstrap")
    differences = _differences(state)
    wilcoxon = _stats.wilcoxon_signed_rank(differences).p
    randomization = _stats.randomization_test(differences, SAMPLES, _SEED).p
    own = {  # no correction here: p_adjusted is p
        test: {**bootstrap, "p": p, "p_adjusted": p, "significant": p < ALPHA}
        for test, p in (("wilcoxon", wilcoxon), ("randomization", randomization))
    }
    return {"t": comparison(state, "t"), **own, "bootstrap": bootstrap}


def family(state: dict[str, Any]) -> dict[str, Any]:
    """:func:`compare_scores` of ``systems`` simulated systems with the baseline (multiple mode).

    ``S1`` is better by ``effect``; the others are identical to the baseline in expectation.
    """
    systems = int(state["systems"])
    effects = [float(state.get("effect", 0.0))] + [0.0] * (systems - 1)
    scores = simulated_scores(int(state["queries"]), effects, int(state["seed"]))
    return compare_scores(
        {name: {"score": values} for name, values in scores.items()},
        test=state.get("test", "t"),
        alpha=ALPHA,
        correction=state["correction"],
        samples=SAMPLES,
        seed=_SEED,
    )


def queries_needed(sd: float, half_width: float, confidence: float = CONFIDENCE) -> int:
    """Smallest ``n >= 2`` whose t-based interval has half-width ``<= half_width`` given ``sd``.

    The half-width of the interval of a mean difference is ``t_{(1+c)/2, n-1} sd / sqrt(n)``;
    this is topic set size design from the interval's width (Sakai 2016), with the sample's
    standard deviation of the differences standing in for the population's. The half-width
    falls as ``n`` grows, and ``t_{q, n-1} sd / sqrt(n) <= h`` holds exactly when the t CDF at
    ``h sqrt(n) / sd`` reaches ``q``: so an exponential then binary search on ``n`` needs one
    CDF per step, not a quantile (a bisection of its own).

    >>> queries_needed(0.17, 0.05)  # 1.96 * 0.17 / 0.05 = 6.7, squared 44.4, and t > 1.96
    47
    """
    if half_width <= 0.0:
        raise ValueError(f"half_width must be > 0, got {half_width}")
    if sd == 0.0:
        return 2
    quantile = 0.5 + confidence / 2.0

    def narrow_enough(n: int) -> bool:
        return student_t_cdf(half_width * math.sqrt(n) / sd, n - 1) >= quantile

    if narrow_enough(2):
        return 2
    low, high = 2, 4  # narrow_enough(low) is False
    while not narrow_enough(high):
        low, high = high, 2 * high
    while high - low > 1:
        middle = (low + high) // 2
        if narrow_enough(middle):
            high = middle
        else:
            low = middle
    return high


def _differences(state: dict[str, Any]) -> list[float]:
    pair = _pair(state)
    return [s - b for b, s in zip(pair["baseline"]["score"], pair["S1"]["score"], strict=True)]


#: The labelled ticks of the difference chart's y axis: the largest of these within the axis'
#: half-range, its opposite and 0.
_NICE_TICKS = (0.1, 0.2, 0.25, 0.3, 0.4, 0.5, 0.6, 0.75, 0.8, 1.0)


def _difference_chart(differences: Sequence[float], caption: str, axis_label: str) -> Html:
    """Sorted bars of the per-query differences around a zero line, the mean dashed, with a y
    axis: its label and three labelled ticks (a nice value, 0 and its opposite).

    The bars are an SVG stretched to the demo's width (``preserveAspectRatio="none"``, its
    lines of constant width); the axis is HTML beside it, so its words and numbers keep the
    page's font size at any width (viz.css, ``.rc-sig-*``).
    """
    ordered = sorted(differences)
    width, half = 6 * len(ordered), 40.0
    reach = max(0.3, max(abs(d) for d in ordered))  # the axis runs from -reach to +reach
    scale = half / reach
    bars = []
    for index, d in enumerate(ordered):
        height = round(abs(d) * scale, 2)
        y = half - height if d > 0 else half
        style = (
            "fill: var(--md-accent-fg-color, #526cfe)"
            if d > 0
            else ("fill: var(--md-default-fg-color--light, #777)")
        )
        bars.append(
            el("rect", {"x": index * 6 + 1, "y": y, "width": 4, "height": height, "style": style})
        )
    mean_y = round(half - mean(differences) * scale, 2)
    line = "stroke: var(--md-default-fg-color, #000); stroke-width: 1"
    line += "; vector-effect: non-scaling-stroke"
    tick = max(value for value in _NICE_TICKS if value <= reach)
    ticks = [
        el(
            "span",
            {"data-tick": fmt(value), "style": f"top: {fmt(50 - 50 * value / reach, 2)}%"},
            "0" if value == 0 else fmt(value, 2).replace("-", "−"),
        )
        for value in (tick, 0.0, -tick)
    ]
    return el(
        "figure",
        {"class": "rc-sig-chart", "style": "margin: 0.4em 0"},
        el(
            "div",
            {"class": "rc-sig-plot"},
            el("span", {"class": "rc-sig-ylabel"}, axis_label),
            el("div", {"class": "rc-sig-ticks", "aria-hidden": "true"}, ticks),
            el(
                "svg",
                {
                    "viewBox": f"0 0 {width} {2 * half}",
                    "preserveAspectRatio": "none",
                    "aria-hidden": "true",
                },
                bars,
                el("line", {"x1": 0, "y1": half, "x2": width, "y2": half, "style": line}),
                el(
                    "line",
                    {
                        "x1": 0,
                        "y1": mean_y,
                        "x2": width,
                        "y2": mean_y,
                        "style": line + "; stroke-dasharray: 3 2",
                    },
                ),
            ),
        ),
        el("figcaption", {"class": "rc-demo-hint"}, caption),
    )


def _sample_line(state: dict[str, Any], t: dict[str, str]) -> Html:
    return el(
        "p",
        {"class": "rc-demo-hint"},
        t["sample"].format(
            seed=int(state["seed"]), n=int(state["queries"]), effect=fmt(float(state["effect"]))
        ),
    )


def _wins(row: dict[str, Any], t: dict[str, str]) -> Html:
    before, _, rest = t["wins"].partition("{w}")
    middle, _, rest = rest.partition("{l}")
    middle2, _, after = rest.partition("{t}")
    return el(
        "p",
        {},
        before,
        metric("wins", float(row["wins"]), str(row["wins"])),
        middle,
        metric("losses", float(row["losses"]), str(row["losses"])),
        middle2,
        metric("ties", float(row["ties"]), str(row["ties"])),
        after,
    )


def _interval(row: dict[str, Any], name: str) -> Html:
    low, high = row["ci"]
    return el(
        "span",
        {},
        "[",
        metric(f"{name}:low", low, fmt(low, 4)),
        ", ",
        metric(f"{name}:high", high, fmt(high, 4)),
        "]",
    )


def _row(keys: dict[str, AttrValue], label: str, cells: Sequence[object], *, bold: bool) -> Html:
    """One row of a view's table: ``keys`` (its data-* and aria-current), the row's name as its
    header, a cell per value; in bold the chosen test or method, or a significant run."""
    attributes = {**keys, "style": "font-weight: 700" if bold else None}
    return el(
        "tr",
        attributes,
        el("th", {"scope": "row"}, label),
        [el("td", {}, cell) for cell in cells],
    )


def _chosen(name: str, chosen: str) -> AttrValue:
    return "true" if name == chosen else None


def _test_view(state: dict[str, Any], t: dict[str, str]) -> Html:
    chosen = state["test"]
    n = int(state["queries"])
    differences = _differences(state)
    rows, chosen_row = [], None
    for test, row in all_tests(state).items():
        if test == chosen:
            chosen_row = row
        significant = row["p"] < ALPHA
        cells = [
            metric(f"p:{test}", row["p"], fmt(row["p"], 4)),
            _interval(row, f"ci:{test}"),
            t["yes"] if significant else t["no"],
        ]
        keys = {"data-test": test, "aria-current": _chosen(test, chosen)}
        rows.append(_row(keys, t[test], cells, bold=test == chosen))
    assert chosen_row is not None, f"test must be one of {TESTS}, got {chosen!r}"
    centre, sd = mean(differences), sample_sd(differences)
    if chosen == "t":
        head = t["t_formula"].format(mean=fmt(centre, 4), sd=fmt(sd, 4), n=n)
        statistic = centre / (sd / math.sqrt(n)) if sd else 0.0
        lead: list[object] = [head, metric("t", statistic, fmt(statistic, 3)), ";  p = "]
    else:
        lead = [t["p_of"].format(test=t[chosen])]
    p = chosen_row["p"]
    formula = el(
        "p",
        {"class": "rc-formula", "data-rc-announce": True},
        lead,
        metric("p", p, fmt(p, 4)),
        " < 0.05" if p < ALPHA else " ≥ 0.05",
    )
    percent = fmt(100 * p, 1 if p < 0.1 else 0)  # 0.0019 reads "0.2%", not "0%"
    reading = el("p", {"class": "rc-demo-hint"}, t["reading"].format(pct=percent, n=n))
    return el(
        "div",
        {"class": "rc-view rc-sig rc-sig-test", "data-test": chosen},
        _sample_line(state, t),
        _difference_chart(differences, t["chart"], t["chart_axis"]),
        _wins(chosen_row, t),
        el(
            "p",
            {},
            t["mean_is"],
            metric("delta", chosen_row["delta"], fmt(chosen_row["delta"], 4)),
        ),
        table(
            "rc-sig-table",
            t["test_caption"].format(n=n),
            [t["test"], t["p"], t["ci"], t["verdict"]],
            rows,
            SPACED,
        ),
        formula,
        reading,
    )


def _number_line(
    rows: Sequence[tuple[str, tuple[float, float]]], truth: float, observed: float, caption: str
) -> Html:
    """The intervals as segments on a line from -0.3 to 0.3 with 0 and the true difference."""
    low_end, high_end, width = -0.3, 0.3, 300.0

    def x(value: float) -> float:
        clipped = min(high_end, max(low_end, value))
        return round((clipped - low_end) / (high_end - low_end) * width, 2)

    fg = "var(--md-default-fg-color, #000)"
    accent = "var(--md-accent-fg-color, #526cfe)"
    axis = f"stroke: {fg}; stroke-width: 0.5"
    parts = [
        el("line", {"x1": 0, "y1": 8, "x2": width, "y2": 8, "style": axis}),
        el("line", {"x1": x(0.0), "y1": 0, "x2": x(0.0), "y2": 16 + 14 * len(rows),
                    "style": f"stroke: {fg}; stroke-width: 1"}),
        el("line", {"x1": x(truth), "y1": 0, "x2": x(truth), "y2": 16 + 14 * len(rows),
                    "style": f"stroke: {accent}; stroke-width: 1; stroke-dasharray: 3 2"}),
    ]  # fmt: skip
    for index, (label, (low, high)) in enumerate(rows):
        y = 22 + 14 * index
        parts.append(el("line", {"x1": x(low), "y1": y, "x2": x(high), "y2": y,
                                 "style": f"stroke: {accent}; stroke-width: 4"}))  # fmt: skip
        parts.append(el("circle", {"cx": x(observed), "cy": y, "r": 3, "style": f"fill: {fg}"}))
        parts.append(el("text", {"x": width + 6, "y": y + 3, "style": "font-size: 8px"}, label))
    for tick in (-0.3, -0.2, -0.1, 0.0, 0.1, 0.2, 0.3):
        parts.append(el("text", {"x": x(tick), "y": 5, "style": "font-size: 7px",
                                 "text-anchor": "middle"}, fmt(tick)))  # fmt: skip
    return el(
        "figure",
        {"class": "rc-sig-line", "style": "margin: 0.4em 0"},
        el(
            "svg",
            {  # room on the left for the first tick, on the right for the row labels
                "viewBox": f"-12 -4 {width + 60} {22 + 14 * len(rows)}",
                "style": "width: 100%; max-width: 40rem; display: block",
                "aria-hidden": "true",
            },
            parts,
        ),
        el("figcaption", {"class": "rc-demo-hint"}, caption),
    )


def _interval_view(state: dict[str, Any], t: dict[str, str]) -> Html:
    n = int(state["queries"])
    target = float(state["target"])
    bootstrap = t["interval_bootstrap"].format(samples=SAMPLES)
    rows_by_method = [
        ("t", t["interval_t"], comparison(state, "t")),
        ("bootstrap", bootstrap, comparison(state, "bootstrap")),
    ]
    chosen = state["test"]
    body = []
    for key, label, row in rows_by_method:
        low, high = row["ci"]
        cells = [
            metric(f"ci:{key}:low", low, fmt(low, 4)),
            metric(f"ci:{key}:high", high, fmt(high, 4)),
            metric(f"ci:{key}:half", (high - low) / 2, fmt((high - low) / 2, 4)),
            t["yes"] if low <= 0.0 <= high else t["no"],
        ]
        keys = {"data-method": key, "aria-current": _chosen(key, chosen)}
        body.append(_row(keys, label, cells, bold=key == chosen))
    differences = _differences(state)
    centre, sd = mean(differences), sample_sd(differences)
    size = rows_by_method[0][2]["effect_size"]
    needed = queries_needed(sd, target)
    chosen_row = next(row for key, _, row in rows_by_method if key == chosen)
    low, high = chosen_row["ci"]
    axis = t["axis"].format(low="-0.3", high="0.3")
    return el(
        "div",
        {"class": "rc-view rc-sig rc-sig-interval", "data-test": chosen},
        _sample_line(state, t),
        el(
            "p",
            {"class": "rc-formula", "data-rc-announce": True},
            t["mean_is"],
            metric("delta", centre, fmt(centre, 4)),
            t["ci_is"],
            metric("low", low, fmt(low, 4)),
            ", ",
            metric("high", high, fmt(high, 4)),
            "]",
        ),
        _number_line(
            [(_SHORT[key], row["ci"]) for key, _, row in rows_by_method],
            float(state["effect"]),
            centre,
            axis,
        ),
        table(
            "rc-sig-table",
            t["ci_caption"].format(n=n),
            [t["method"], t["low"], t["high"], t["width"], t["contains"]],
            body,
            SPACED,
        ),
        el(
            "p",
            {"class": "rc-formula"},
            t["effect"].format(mean=fmt(centre, 4), sd=fmt(sd, 4)),
            metric("effect_size", size if size is not None else math.inf, fmt(size or 0.0, 3)),
        ),
        el(
            "p",
            {"class": "rc-formula"},
            t["needed"].format(target=fmt(target)),
            metric("needed", float(needed), str(needed)),
            el("br"),
            el(
                "span",
                {"class": "rc-demo-hint"},
                t["needed_formula"].format(sd=fmt(sd, 4), target=fmt(target)),
            ),
        ),
    )


def _multiple_view(state: dict[str, Any], t: dict[str, str]) -> Html:
    result = family(state)
    effect = float(state.get("effect", 0.0))
    rows = []
    false_positives, true_found = 0, False
    for row in result["comparisons"]:  # type: ignore[attr-defined]
        name = row["run"]
        real = name == "S1" and effect != 0.0
        if row["significant"] and not real:
            false_positives += 1
        if real:
            true_found = bool(row["significant"])
        cells = [
            t["yes"] if real else t["no"],
            metric(f"delta:{name}", row["delta"], fmt(row["delta"], 4)),
            metric(f"p:{name}", row["p"], fmt(row["p"], 4)),
            metric(f"padj:{name}", row["p_adjusted"], fmt(row["p_adjusted"], 4)),
            t["yes"] if row["significant"] else t["no"],
        ]
        keys = {"data-run": name, "data-significant": "true" if row["significant"] else "false"}
        rows.append(_row(keys, name, cells, bold=bool(row["significant"])))
    m = int(state["systems"])
    nulls = m - 1 if effect != 0.0 else m
    correction = t[state["correction"]]
    fwer = 1.0 - (1.0 - ALPHA) ** nulls
    summary = [
        t["false"],
        metric("false_positives", float(false_positives), str(false_positives)),
        t["of"].format(nulls=nulls),
    ]
    if effect != 0.0:
        summary += [
            t["found"],
            metric("true_found", float(true_found), t["yes"] if true_found else t["no"]),
        ]
    return el(
        "div",
        {"class": "rc-view rc-sig rc-sig-multiple", "data-correction": state["correction"]},
        el(
            "p",
            {"class": "rc-demo-hint"},
            t["family_sample" if effect else "family_null"].format(
                seed=int(state["seed"]), n=int(state["queries"]), effect=fmt(effect)
            ),
        ),
        table(
            "rc-sig-table",
            t["family_caption"].format(m=m, correction=correction),
            [t["system"], t["truly"], t["delta"], t["p"], t["adjusted"], t["verdict"]],
            rows,
            SPACED,
        ),
        el("p", {"class": "rc-formula", "data-rc-announce": True}, summary),
        el(
            "p",
            {"class": "rc-demo-hint"},
            t["fwer"].format(nulls=nulls),
            metric("fwer", fwer, fmt(fwer, 3)),
        ),
    )


_SHORT = {"t": "t", "bootstrap": "bootstrap"}  # the number line's row labels (both languages)
_MODES = {"test": _test_view, "interval": _interval_view, "multiple": _multiple_view}


def view(state: dict[str, Any], lang: str) -> str:
    """Render the view of ``state["mode"]`` (``test``, ``interval`` or ``multiple``)."""
    t = _TEXT[lang]
    mode = state.get("mode", "test")
    if mode not in _MODES:
        raise ValueError(f"mode must be one of {', '.join(_MODES)}, got {mode!r}")
    return _MODES[mode](state, t)

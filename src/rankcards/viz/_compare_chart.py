"""The evaluate page's per-query difference chart: run - baseline on one measure, as SVG.

One bar per query, sorted from the largest gain to the largest loss, drawn from a zero line:
gains go up, losses down, ties are a short mark on the line, so the chart reads without colour
(the colours only repeat the direction). Every bar is focusable and labelled with its query and
difference (``"q12: +0.083"``, also its ``<title>``, the tooltip on hover); the page writes the
wins, losses and ties as text beside it (its words are the template's, in the reader's
language). The SVG holds no words of its own: only query ids, numbers and the ``title`` given.

Why in Python: the chart is made from the same per-query scores as the comparison
(:func:`rankcards.viz._compare_view.compare_run_files`), and is tested here in CPython.

Why a ``width``: the page draws the chart at the width of its box, one SVG unit per CSS pixel,
so that the axis' numbers keep the size the style sheet gives them (12 px) on a phone as on a
laptop; a fixed view box scaled to a 360 px phone column drew them at 6 px.

>>> chart = difference_chart(["q1", "q2", "q3"], [0.5, 0.5, 0.2], [1.0, 0.25, 0.2])
>>> chart["bars"]
[{'qid': 'q1', 'difference': 0.5, 'label': 'q1: +0.500'}, \
{'qid': 'q3', 'difference': 0.0, 'label': 'q3: 0.000'}, \
{'qid': 'q2', 'difference': -0.25, 'label': 'q2: -0.250'}]
>>> chart["wins"], chart["losses"], chart["ties"]
(1, 1, 1)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from html import escape
from typing import Any

__all__ = ["difference_chart", "difference_label"]

WIDTH = 640  # the default width, in px
MIN_WIDTH, MAX_WIDTH = 240, 2000
HEIGHT = 240
MARGIN_LEFT = 48  # room for the axis' numbers
MARGIN = 12
TIE_MARK = 2.0  # height of a tie's mark on the zero line, in px


def difference_label(qid: str, difference: float) -> str:
    """A bar's accessible label: the query and its difference with a sign, 3 decimals.

    >>> difference_label("q12", 0.0833), difference_label("q7", -0.5), difference_label("q1", 0.0)
    ('q12: +0.083', 'q7: -0.500', 'q1: 0.000')
    """
    return f"{qid}: {0.0:.3f}" if difference == 0.0 else f"{qid}: {difference:+.3f}"


def difference_chart(
    queries: Sequence[str],
    baseline: Sequence[float],
    run: Sequence[float],
    title: str = "",
    width: int = WIDTH,
) -> dict[str, Any]:
    """The bars of ``run - baseline`` per query, sorted, and their SVG.

    Args:
        queries: the query ids, in the order of the two value lists.
        baseline: the baseline's per-query values.
        run: the run's per-query values.
        title: the chart's accessible name (the page's words for measure, run and baseline).
        width: the SVG's width in px (its view box), kept within 240..2000.

    Returns:
        ``{"svg", "bars": [{"qid", "difference", "label"}] sorted by difference descending
        (ties in query order), "wins", "losses", "ties", "scale"}`` where ``scale`` is the
        largest absolute difference (the axis runs from ``-scale`` to ``+scale``; 1 when
        every difference is 0).

    Raises:
        ValueError: the three lists differ in length, or a value is not finite.
    """
    if not len(queries) == len(baseline) == len(run):
        raise ValueError(
            f"{len(queries)} queries, {len(baseline)} baseline values, {len(run)} run values"
        )
    differences = [float(b) - float(a) for a, b in zip(baseline, run, strict=True)]
    if not all(math.isfinite(d) for d in differences):
        raise ValueError("every value must be a finite number")
    order = sorted(range(len(queries)), key=lambda i: -differences[i])  # stable: query order
    bars = [
        {
            "qid": str(queries[i]),
            "difference": differences[i],
            "label": difference_label(str(queries[i]), differences[i]),
        }
        for i in order
    ]
    scale = max((abs(d) for d in differences), default=0.0) or 1.0
    return {
        "svg": _svg(bars, scale, title, max(MIN_WIDTH, min(int(width), MAX_WIDTH))),
        "bars": bars,
        "wins": sum(1 for d in differences if d > 0.0),
        "losses": sum(1 for d in differences if d < 0.0),
        "ties": sum(1 for d in differences if d == 0.0),
        "scale": scale,
    }


def _number(value: float) -> str:
    """Coordinates with 2 decimals: enough for pixels, small for thousands of bars."""
    return f"{value:.2f}".rstrip("0").rstrip(".")


def _svg(bars: list[dict[str, Any]], scale: float, title: str, width: int) -> str:
    plot_width = width - MARGIN_LEFT - MARGIN
    half = (HEIGHT - 2 * MARGIN) / 2
    zero = MARGIN + half
    step = plot_width / max(len(bars), 1)
    gap = step * 0.15 if step >= 4 else 0.0
    parts = [
        f'<svg class="rc-cmp-chart" viewBox="0 0 {width} {HEIGHT}" role="group"'
        f' aria-label="{escape(title)}" xmlns="http://www.w3.org/2000/svg">',
        f"<title>{escape(title)}</title>",
    ]
    for value, y in ((scale, MARGIN), (0.0, zero), (-scale, HEIGHT - MARGIN)):
        text = f"{value:+.3f}" if value else "0"
        parts.append(
            f'<text class="rc-cmp-axis" x="{MARGIN_LEFT - 4}" y="{_number(y)}"'
            f' text-anchor="end" dominant-baseline="middle" aria-hidden="true">{text}</text>'
        )
    parts.append('<g class="rc-cmp-bars">')
    for index, bar in enumerate(bars):
        difference = bar["difference"]
        length = abs(difference) / scale * half
        kind = "win" if difference > 0 else "loss" if difference < 0 else "tie"
        if kind == "tie":
            top, length = zero - TIE_MARK / 2, TIE_MARK
        else:
            top = zero - length if difference > 0 else zero
        label = escape(bar["label"])
        parts.append(
            f'<rect class="rc-cmp-{kind}" tabindex="0" role="img" aria-label="{label}"'
            f' data-qid="{escape(bar["qid"])}" data-value="{difference!r}"'
            f' x="{_number(MARGIN_LEFT + index * step + gap / 2)}" y="{_number(top)}"'
            f' width="{_number(max(step - gap, 0.5))}" height="{_number(length)}">'
            f"<title>{label}</title></rect>"
        )
    parts.append("</g>")
    parts.append(
        f'<line class="rc-cmp-zero" x1="{MARGIN_LEFT}" x2="{width - MARGIN}"'
        f' y1="{_number(zero)}" y2="{_number(zero)}" aria-hidden="true"/>'
    )
    parts.append("</svg>")
    return "".join(parts)

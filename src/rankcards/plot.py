"""Small SVG charts and tables for card examples: line, scatter, bar and :class:`Table`,
standard library only.

A :class:`Figure` holds one or more series and renders itself as an SVG document through
``_repr_svg_`` (the IPython convention), so the last expression of an example, or
``display(figure)`` / ``figure.show()``, puts the chart under the example's output, at site build
and in the reader's browser alike (see :mod:`rankcards.runner`).

Why hand-written SVG: the page runs Python in Pyodide without extra packages, and a figure must
follow Material's light and dark palettes. Axes, ticks and text use ``currentColor``; each series
has a class ``rc-plot__series--<n>`` whose colour the site's stylesheet (``web/plot.css``) maps
to ``--rc-series-<n>``, the attribute colours being the fallback when the SVG is seen alone.
The SVG has ``role="img"``, a ``<title>`` and a ``<desc>`` that lists every series' points, so a
screen reader gets the data, not just "image".

>>> fig = Figure(title="Recall by depth", xlabel="k", ylabel="recall")
>>> fig.line([1, 5, 10], [0.2, 0.6, 0.8], label="run A").line([1, 5, 10], [0.1, 0.5, 0.9])
Figure(title='Recall by depth', series=2)
>>> svg = fig._repr_svg_()
>>> svg.startswith("<svg") and "<title>Recall by depth</title>" in svg
True
>>> nice_ticks(0, 0.83)
[0.0, 0.2, 0.4, 0.6, 0.8, 1.0]

A :class:`Table` shows rows under the output the same way, through ``_repr_html_``: an HTML
``<table>`` that the page sanitizes with its own allow-list (``rankcards.web.table``); printed,
it is aligned text.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Literal
from xml.sax.saxutils import escape

__all__ = ["Figure", "Table", "bar", "line", "nice_ticks", "scatter"]

Kind = Literal["line", "scatter", "bar"]
# The words a figure's description adds around the data, per language.
_WORDS = {
    "en": {
        "chart": "Chart",
        "series": "series",
        "line": "line",
        "scatter": "points",
        "bar": "bars",
    },
    "es": {
        "chart": "Gráfico",
        "series": "serie",
        "line": "línea",
        "scatter": "puntos",
        "bar": "barras",
    },
}
YPos = Callable[[float], float]  # a value's vertical position in the plot

# Fallback colours (matplotlib's "tab10" start); the page's CSS overrides them per palette.
PALETTE = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b")
WIDTH, HEIGHT = 560, 340
_MARGIN_LEFT, _MARGIN_RIGHT, _MARGIN_TOP, _MARGIN_BOTTOM = 62, 16, 34, 48
_LEGEND_ROW = 18


def nice_ticks(low: float, high: float, count: int = 5) -> list[float]:
    """About ``count`` round tick values (steps of 1, 2 or 5 times a power of ten) covering
    ``[low, high]``; the first tick is <= ``low`` and the last >= ``high``.

    >>> nice_ticks(0, 10)
    [0.0, 2.0, 4.0, 6.0, 8.0, 10.0]
    >>> nice_ticks(113.5, 2000)
    [0.0, 500.0, 1000.0, 1500.0, 2000.0]
    >>> nice_ticks(3, 3)
    [2.6, 2.8, 3.0, 3.2, 3.4]
    """
    if not (math.isfinite(low) and math.isfinite(high)):
        raise ValueError(f"nice_ticks: bounds must be finite numbers, got {low!r}, {high!r}")
    if low > high:
        low, high = high, low
    if low == high:
        pad = abs(low) * 0.1 or 1.0
        low, high = low - pad, high + pad
    raw = (high - low) / max(count, 1)
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 5, 10) if m * magnitude >= raw)
    first = math.floor(low / step + 1e-9)
    last = math.ceil(high / step - 1e-9)
    # Rounded to the step's decimals, so that 0.1 + 0.2 shows as 0.3.
    decimals = max(0, -math.floor(math.log10(step)))
    return [float(round(i * step, decimals)) for i in range(first, last + 1)]


def _number(value: float) -> str:
    """A tick or coordinate label: no trailing zeros, no exponent for ordinary values."""
    text = f"{value:.6g}"
    return "0" if text == "-0" else text


def _fmt(value: float) -> str:
    return f"{value:.2f}".rstrip("0").rstrip(".")


@dataclass(frozen=True)
class Series:
    """One data series as given to :meth:`Figure.line`, :meth:`Figure.scatter` or
    :meth:`Figure.bar` (for bars, ``x`` holds the category names)."""

    kind: Kind
    x: tuple[float | str, ...]
    y: tuple[float, ...]
    label: str | None
    point_labels: tuple[str, ...] = ()


@dataclass
class Figure:
    """A chart: a title, axis labels and series of one kind family (bars, or lines and points).

    Methods that add a series return the figure, so calls chain. ``x_range`` / ``y_range`` fix an
    axis (e.g. ``(0, 1)`` for precision and recall); otherwise it covers the data with round
    ticks (a bar chart's value axis always includes 0). ``lang`` ("en" or "es") is the language
    of the words the description adds for screen readers ("line"/"línea", ...).
    """

    title: str = ""
    xlabel: str = ""
    ylabel: str = ""
    x_range: tuple[float, float] | None = None
    y_range: tuple[float, float] | None = None
    lang: str = "en"  # the words of the accessible description: "en" or "es"
    series: list[Series] = field(default_factory=list)

    def __post_init__(self) -> None:
        if self.lang not in _WORDS:
            raise ValueError(f"Figure: lang must be 'en' or 'es', got {self.lang!r}")

    def line(
        self,
        x: Sequence[float],
        y: Sequence[float],
        *,
        label: str | None = None,
        point_labels: Sequence[str] = (),
    ) -> Figure:
        """Add a line through the points ``(x[i], y[i])``, each marked with a dot."""
        return self._add("line", x, y, label, point_labels)

    def scatter(
        self,
        x: Sequence[float],
        y: Sequence[float],
        *,
        label: str | None = None,
        point_labels: Sequence[str] = (),
    ) -> Figure:
        """Add points ``(x[i], y[i])`` without a line."""
        return self._add("scatter", x, y, label, point_labels)

    def bar(
        self, categories: Sequence[str], values: Sequence[float], *, label: str | None = None
    ) -> Figure:
        """Add one bar per category; several bar series stand side by side in each category."""
        return self._add("bar", [str(c) for c in categories], values, label, ())

    def show(self) -> None:
        """Display the figure now, under the example's output (``display(self)``)."""
        from rankcards.runner import display

        display(self)

    def __repr__(self) -> str:
        return f"Figure(title={self.title!r}, series={len(self.series)})"

    def _add(
        self,
        kind: Kind,
        x: Sequence[float | str],
        y: Sequence[float],
        label: str | None,
        point_labels: Sequence[str],
    ) -> Figure:
        if len(x) != len(y):
            raise ValueError(f"Figure.{kind}: x has {len(x)} values but y has {len(y)}")
        if not y:
            raise ValueError(f"Figure.{kind}: no data (x and y are empty)")
        if point_labels and len(point_labels) != len(y):
            raise ValueError(
                f"Figure.{kind}: point_labels has {len(point_labels)} labels for {len(y)} points"
            )
        if self.series and (kind == "bar") != (self.series[0].kind == "bar"):
            raise ValueError(f"Figure.{kind}: bars and lines/points cannot share one figure")
        numbers = [*y] if kind == "bar" else [*x, *y]
        for value in numbers:
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise TypeError(f"Figure.{kind}: values must be numbers, got {value!r}")
            if not math.isfinite(value):
                raise ValueError(f"Figure.{kind}: values must be finite, got {value!r}")
        self.series.append(
            Series(kind, tuple(x), tuple(float(v) for v in y), label, tuple(point_labels))
        )
        return self

    # ----------------------------------------------------------------------------- rendering

    def _repr_svg_(self) -> str:
        """The figure as a standalone SVG document (see the module docstring)."""
        if not self.series:
            raise ValueError("Figure: nothing to draw; add a series with line, scatter or bar")
        labelled = [s for s in self.series if s.label]
        legend_rows = len(labelled) if len(self.series) > 1 else 0
        height = HEIGHT + legend_rows * _LEGEND_ROW
        left, right = _MARGIN_LEFT, WIDTH - _MARGIN_RIGHT
        top, bottom = _MARGIN_TOP, HEIGHT - _MARGIN_BOTTOM
        bars = self.series[0].kind == "bar"

        y_low, y_high = self.y_range or _span([v for s in self.series for v in s.y], bars)
        y_ticks = nice_ticks(y_low, y_high)
        if self.y_range is None:
            y_low, y_high = y_ticks[0], y_ticks[-1]
        y_ticks = [t for t in y_ticks if y_low - 1e-9 <= t <= y_high + 1e-9]

        def y_pos(value: float) -> float:
            return bottom - (value - y_low) / ((y_high - y_low) or 1.0) * (bottom - top)

        parts: list[str] = []
        # Horizontal grid and y ticks.
        for tick in y_ticks:
            y = y_pos(tick)
            parts.append(
                f'<line class="rc-plot__grid" x1="{left}" x2="{right}" y1="{_fmt(y)}" '
                f'y2="{_fmt(y)}" stroke="currentColor" stroke-opacity="0.15"/>'
            )
            parts.append(
                f'<text class="rc-plot__tick" x="{left - 6}" y="{_fmt(y + 4)}" '
                f'text-anchor="end">{_number(tick)}</text>'
            )
        if bars:
            parts += self._bars(left, right, bottom, y_pos)
        else:
            parts += self._points(left, right, bottom, y_pos)
        # Axes on top of the grid.
        parts.append(
            f'<path class="rc-plot__axis" d="M{left},{top}V{bottom}H{right}" '
            'fill="none" stroke="currentColor"/>'
        )
        parts += self._labels(left, right, top, bottom)
        parts += self._legend(labelled if legend_rows else [], HEIGHT)

        title = self.title or _WORDS[self.lang]["chart"]
        head = (
            f'<svg xmlns="http://www.w3.org/2000/svg" class="rc-plot" role="img" '
            f'viewBox="0 0 {WIDTH} {height}" width="{WIDTH}" height="{height}" '
            'font-family="sans-serif" font-size="12" fill="currentColor">'
            f"<title>{escape(title)}</title><desc>{escape(self._description())}</desc>"
        )
        return head + "".join(parts) + "</svg>"

    def _description(self) -> str:
        """Every series' points in words: what the chart shows, for a screen reader."""
        words = _WORDS[self.lang]
        described = []
        for number, s in enumerate(self.series, 1):
            name = s.label or f"{words['series']} {number}"
            if s.kind == "bar":
                points = ", ".join(f"{x}: {_number(y)}" for x, y in zip(s.x, s.y, strict=True))
            else:
                points = ", ".join(
                    f"({_number(float(x))}, {_number(y)})" for x, y in zip(s.x, s.y, strict=True)
                )
            described.append(f"{name} ({words[s.kind]}): {points}.")
        axes = f"x: {self.xlabel or 'x'}; y: {self.ylabel or 'y'}."
        return " ".join([axes, *described])

    def _x_axis(self) -> tuple[list[float], float, float]:
        xs = [float(x) for s in self.series for x in s.x]
        low, high = self.x_range or (min(xs), max(xs))
        ticks = nice_ticks(low, high)
        if self.x_range is None:
            low, high = ticks[0], ticks[-1]
        return [t for t in ticks if low - 1e-9 <= t <= high + 1e-9], low, high

    def _points(self, left: float, right: float, bottom: float, y_pos: YPos) -> list[str]:
        ticks, low, high = self._x_axis()

        def x_pos(value: float) -> float:
            return left + (value - low) / ((high - low) or 1.0) * (right - left)

        parts = []
        for tick in ticks:
            parts.append(
                f'<text class="rc-plot__tick" x="{_fmt(x_pos(tick))}" y="{bottom + 16}" '
                f'text-anchor="middle">{_number(tick)}</text>'
            )
        for number, s in enumerate(self.series, 1):
            colour = PALETTE[(number - 1) % len(PALETTE)]
            cls = f"rc-plot__series rc-plot__series--{number}"
            coords = [(x_pos(float(x)), y_pos(y)) for x, y in zip(s.x, s.y, strict=True)]
            group = [f'<g class="{cls}" stroke="{colour}" fill="{colour}">']
            if s.kind == "line" and len(coords) > 1:
                path = "M" + "L".join(f"{_fmt(x)},{_fmt(y)}" for x, y in coords)
                group.append(f'<path d="{path}" fill="none" stroke-width="2"/>')
            radius = 3 if s.kind == "line" else 4.5
            for x, y in coords:
                group.append(f'<circle cx="{_fmt(x)}" cy="{_fmt(y)}" r="{radius}"/>')
            for i, text in enumerate(s.point_labels):
                group.append(_point_label(coords, i, text, bottom))
            parts.append("".join(group) + "</g>")
        return parts

    def _bars(self, left: float, right: float, bottom: float, y_pos: YPos) -> list[str]:
        categories: list[str] = []
        for s in self.series:
            categories += [str(c) for c in s.x if str(c) not in categories]
        band = (right - left) / len(categories)
        inner = band * 0.8 / len(self.series)
        zero = y_pos(0.0)
        parts = []
        for i, category in enumerate(categories):
            parts.append(
                f'<text class="rc-plot__tick" x="{_fmt(left + band * (i + 0.5))}" '
                f'y="{bottom + 16}" text-anchor="middle">{escape(category)}</text>'
            )
        for number, s in enumerate(self.series, 1):
            colour = PALETTE[(number - 1) % len(PALETTE)]
            cls = f"rc-plot__series rc-plot__series--{number}"
            group = [f'<g class="{cls}" fill="{colour}" stroke="none">']
            for name, value in zip(s.x, s.y, strict=True):
                i = categories.index(str(name))
                x = left + band * (i + 0.1) + inner * (number - 1)
                y, end = sorted((y_pos(value), zero))
                group.append(
                    f'<rect x="{_fmt(x)}" y="{_fmt(y)}" width="{_fmt(inner)}" '
                    f'height="{_fmt(end - y)}"><title>{escape(str(name))}: '
                    f"{_number(value)}</title></rect>"
                )
            parts.append("".join(group) + "</g>")
        return parts

    def _labels(self, left: float, right: float, top: float, bottom: float) -> list[str]:
        parts = []
        if self.title:
            parts.append(
                f'<text class="rc-plot__title" x="{(left + right) / 2}" y="20" '
                'text-anchor="middle" font-size="14" font-weight="bold">'
                f"{escape(self.title)}</text>"
            )
        if self.xlabel:
            parts.append(
                f'<text class="rc-plot__label" x="{(left + right) / 2}" y="{bottom + 38}" '
                f'text-anchor="middle">{escape(self.xlabel)}</text>'
            )
        if self.ylabel:
            middle = (top + bottom) / 2
            parts.append(
                f'<text class="rc-plot__label" x="16" y="{middle}" text-anchor="middle" '
                f'transform="rotate(-90 16 {middle})">{escape(self.ylabel)}</text>'
            )
        return parts

    def _legend(self, labelled: list[Series], top: float) -> list[str]:
        if not labelled:
            return []
        parts = ['<g class="rc-plot__legend">']
        for row, s in enumerate(labelled):
            number = self.series.index(s) + 1
            colour = PALETTE[(number - 1) % len(PALETTE)]
            y = top + row * _LEGEND_ROW + 4
            swatch = (
                f'<rect x="{_MARGIN_LEFT}" y="{y - 9}" width="14" height="10"/>'
                if s.kind == "bar"
                else f'<circle cx="{_MARGIN_LEFT + 7}" cy="{y - 4}" r="4"/>'
            )
            parts.append(
                f'<g class="rc-plot__series rc-plot__series--{number}" fill="{colour}" '
                f'stroke="{colour}">{swatch}</g><text x="{_MARGIN_LEFT + 20}" y="{y}">'
                f"{escape(s.label or '')}</text>"
            )
        return [*parts, "</g>"]


# Where a point's label may go (unit steps, y down), the first preferred: above, then around.
_LABEL_SIDES = ((0, -1), (-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1), (0, 1))


# A point label's width per character (font-size 10, sans-serif): wide enough for digits and caps.
_LABEL_CHAR = 6.5


def _point_label(coords: list[tuple[float, float]], i: int, text: str, bottom: float) -> str:
    """A label next to point ``i``, on the side farthest from the segments leaving it (so the
    line does not cross it), never below the x axis (``bottom``) nor past the figure's left or
    right edge (its width estimated from its length)."""
    x, y = coords[i]
    directions = []
    for j in (i - 1, i + 1):
        if 0 <= j < len(coords):
            dx, dy = coords[j][0] - x, coords[j][1] - y
            length = math.hypot(dx, dy) or 1.0
            directions.append((dx / length, dy / length))

    def clearance(side: tuple[int, int]) -> float:
        norm = math.hypot(*side)
        return min((1 - (side[0] * dx + side[1] * dy) / norm for dx, dy in directions), default=2)

    def baseline(side: tuple[int, int]) -> float:
        return y + side[1] * 9 + (4 if side[1] == 0 else 3 if side[1] > 0 else 0)

    def inside(side: tuple[int, int]) -> bool:
        width = _LABEL_CHAR * len(text)
        start = x + side[0] * 7 - width * (1 - side[0]) / 2  # end, middle or start anchored
        return start >= 0 and start + width <= WIDTH

    fits = [side for side in _LABEL_SIDES if baseline(side) < bottom - 8 and inside(side)]
    side = max(fits or _LABEL_SIDES, key=clearance)  # max keeps the first of equals: above
    anchor = {-1: "end", 0: "middle", 1: "start"}[side[0]]
    lx, ly = x + side[0] * 7, baseline(side)
    return (
        f'<text class="rc-plot__point-label" x="{_fmt(lx)}" y="{_fmt(ly)}" '
        f'text-anchor="{anchor}" stroke="none" font-size="10">{escape(text)}</text>'
    )


def _span(values: list[float], bars: bool) -> tuple[float, float]:
    low, high = min(values), max(values)
    if bars:  # a bar's length is its value: the axis starts at 0
        low, high = min(low, 0.0), max(high, 0.0)
    return low, high


def line(
    x: Sequence[float],
    y: Sequence[float],
    *,
    label: str | None = None,
    title: str = "",
    xlabel: str = "",
    ylabel: str = "",
    point_labels: Sequence[str] = (),
) -> Figure:
    """A new figure with one line: ``line(x, y, title=..., xlabel=..., ylabel=...)``.

    >>> line([0, 1], [1, 0], title="down").series[0].kind
    'line'
    """
    fig = Figure(title=title, xlabel=xlabel, ylabel=ylabel)
    return fig.line(x, y, label=label, point_labels=point_labels)


def scatter(
    x: Sequence[float],
    y: Sequence[float],
    *,
    label: str | None = None,
    title: str = "",
    xlabel: str = "",
    ylabel: str = "",
    point_labels: Sequence[str] = (),
) -> Figure:
    """A new figure with one set of points.

    >>> scatter([1, 2], [3, 4]).series[0].y
    (3.0, 4.0)
    """
    fig = Figure(title=title, xlabel=xlabel, ylabel=ylabel)
    return fig.scatter(x, y, label=label, point_labels=point_labels)


def bar(
    categories: Sequence[str],
    values: Sequence[float],
    *,
    label: str | None = None,
    title: str = "",
    xlabel: str = "",
    ylabel: str = "",
) -> Figure:
    """A new bar chart, one bar per category.

    >>> "<rect" in bar(["q1", "q2"], [0.5, 1.0], title="AP per query")._repr_svg_()
    True
    """
    return Figure(title=title, xlabel=xlabel, ylabel=ylabel).bar(categories, values, label=label)


Cell = str | int | float | bool | None


@dataclass
class Table:
    """Rows under named columns, with an optional caption: shown as an HTML table under the
    example's output (as its final expression, ``display(table)`` or ``table.show()``), as
    aligned text when printed.

    Cells are strings, numbers, booleans or None (an empty cell). A float is written with
    ``digits`` decimals, an integer as it is; numbers are right-aligned. The HTML holds only
    what the page's table allow-list keeps (``rankcards.web.table``): ``table``, ``caption``,
    ``thead``/``tbody``, ``tr``, ``th scope="col"``, ``td`` and the classes ``rc-table`` (the
    site's table style: a wide table scrolls sideways, with a shadow as the cue) and ``rc-num``.

    >>> table = Table(["run", "AP"], [["A", 0.5], ["B", 1 / 3]], caption="AP per run")
    >>> print(table)
    AP per run
    run      AP
    A    0.5000
    B    0.3333
    >>> '<td class="rc-num">0.3333</td>' in table._repr_html_()
    True
    """

    columns: Sequence[str]
    rows: Sequence[Sequence[Cell]]
    caption: str = ""
    digits: int = 4

    def __post_init__(self) -> None:
        self.columns = tuple(str(column) for column in self.columns)
        rows = []
        for number, row in enumerate(self.rows, 1):
            cells = tuple(row)
            if len(cells) != len(self.columns):
                raise ValueError(
                    f"Table: row {number} has {len(cells)} cells for {len(self.columns)} columns"
                )
            for cell in cells:
                if cell is not None and not isinstance(cell, str | int | float):
                    raise TypeError(
                        f"Table: row {number}: cells are text, numbers or None, got {cell!r}"
                    )
            rows.append(cells)
        self.rows = tuple(rows)
        if isinstance(self.digits, bool) or not isinstance(self.digits, int) or self.digits < 0:
            raise ValueError(f"Table: digits must be an integer >= 0, got {self.digits!r}")

    def text(self, cell: Cell) -> str:
        """How ``cell`` is written: a float with ``digits`` decimals, None as nothing."""
        if cell is None:
            return ""
        if isinstance(cell, float):
            return f"{cell:.{self.digits}f}"
        return str(cell)

    def show(self) -> None:
        """Display the table now, under the example's output (``display(self)``)."""
        from rankcards.runner import display

        display(self)

    def _repr_html_(self) -> str:
        """The table as an HTML ``<table>`` (see the class docstring)."""
        parts = ['<table class="rc-table">']
        if self.caption:
            parts.append(f"<caption>{escape(self.caption)}</caption>")
        head = "".join(f'<th scope="col">{escape(column)}</th>' for column in self.columns)
        parts.append(f"<thead><tr>{head}</tr></thead><tbody>")
        for row in self.rows:
            cells = "".join(
                f"<td{_NUMBER_CLASS if _numeric(cell) else ''}>{escape(self.text(cell))}</td>"
                for cell in row
            )
            parts.append(f"<tr>{cells}</tr>")
        return "".join(parts) + "</tbody></table>"

    def __str__(self) -> str:
        texts = [list(self.columns), *([self.text(cell) for cell in row] for row in self.rows)]
        widths = [max(len(line[i]) for line in texts) for i in range(len(self.columns))]
        numeric = [any(_numeric(row[i]) for row in self.rows) for i in range(len(self.columns))]
        lines = [self.caption] if self.caption else []
        for line in texts:
            cells = [
                text.rjust(width) if right else text.ljust(width)
                for text, width, right in zip(line, widths, numeric, strict=True)
            ]
            lines.append("  ".join(cells).rstrip())
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"Table(columns={list(self.columns)!r}, rows={len(self.rows)})"


_NUMBER_CLASS = ' class="rc-num"'


def _numeric(cell: Cell) -> bool:
    return isinstance(cell, int | float) and not isinstance(cell, bool)

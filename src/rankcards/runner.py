"""Run a card's code example the same way at build time (CPython) and in the page (Pyodide).

The capture rule is defined once, here, so that the output printed under an example when the
site is built is byte-for-byte what the reader gets by pressing Run on the unedited example:

* the source is compiled as a module named ``<example>``;
* everything written to ``sys.stdout`` / ``sys.stderr`` is captured in order;
* if the last statement is an expression whose value is not ``None``, its ``repr`` is written
  to stdout on its own line, as a REPL or notebook would show it; a value with ``_repr_svg_``
  (the IPython convention, e.g. a :class:`rankcards.plot.Figure`) is shown as a figure instead,
  and one with ``_repr_html_`` (e.g. a :class:`rankcards.plot.Table`) as a table;
* ``display(obj)`` (given to the example like a notebook's, also :func:`display` here) shows
  figures and tables at that point of the run; they are kept apart from the text (``figures``,
  ``tables``), in order, as markup as the code produced it: whoever puts one in a page
  sanitizes it first (``rankcards.web.svg`` / ``rankcards.web.table`` at build,
  ``web/svg_sanitize.js`` / ``web/table_sanitize.js`` in the browser);
* an exception becomes a traceback trimmed to the frames of the example itself (the runner's own
  frames are dropped), so line numbers point into the reader's code.

Stdlib-only: this module is loaded into Pyodide together with ``rankcards.metrics``.
"""

from __future__ import annotations

import ast
import io
import linecache
import sys
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TextIO

FILENAME = "<example>"

Write = Callable[[str], object]


@dataclass
class Chunk:
    """One piece of output, in the order it was written."""

    stream: str  # "stdout" or "stderr"
    text: str


@dataclass
class ExampleResult:
    """What running an example produced."""

    chunks: list[Chunk] = field(default_factory=list)
    error: str | None = None  # the trimmed traceback, also present in ``chunks`` as stderr
    figures: list[str] = field(default_factory=list)  # SVG markup, unsanitized, in order
    tables: list[str] = field(default_factory=list)  # HTML tables, unsanitized, in order

    @property
    def output(self) -> str:
        """All output as one string, stdout and stderr interleaved as written."""
        return "".join(chunk.text for chunk in self.chunks)

    @property
    def ok(self) -> bool:
        return self.error is None


class _Stream(io.TextIOBase):
    """A text stream that forwards each write to the result and an optional live callback."""

    def __init__(self, name: str, result: ExampleResult, live: Write | None) -> None:
        self._name = name
        self._result = result
        self._live = live

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        if text:
            chunks = self._result.chunks
            if chunks and chunks[-1].stream == self._name:
                chunks[-1].text += text
            else:
                chunks.append(Chunk(self._name, text))
            if self._live is not None:
                self._live(text)
        return len(text)


# Where display() sends a figure and a table while an example runs (None outside a run).
_figure_sink: Write | None = None
_table_sink: Write | None = None


def svg_of(value: object) -> str | None:
    """``value._repr_svg_()`` when ``value`` has one that returns a string, else None (a class
    is not a figure, even if its instances are)."""
    if isinstance(value, type):
        return None
    method = getattr(value, "_repr_svg_", None)
    if not callable(method):
        return None
    svg = method()
    return svg if isinstance(svg, str) else None


def html_of(value: object) -> str | None:
    """``value._repr_html_()`` when ``value`` has one that returns a string, else None (a class
    is not a table, even if its instances are)."""
    if isinstance(value, type):
        return None
    method = getattr(value, "_repr_html_", None)
    if not callable(method):
        return None
    html = method()
    return html if isinstance(html, str) else None


def _show(value: object) -> bool:
    """Send ``value`` to the run's figures or tables when it is one; False otherwise."""
    if _figure_sink is None or _table_sink is None:
        return False
    svg = svg_of(value)
    if svg is not None:
        _figure_sink(svg)
        return True
    html = html_of(value)
    if html is not None:
        _table_sink(html)
        return True
    return False


def display(*values: object) -> None:
    """Show each value under the example's output: a figure for a value with ``_repr_svg_``, a
    table for one with ``_repr_html_``, otherwise its ``repr`` on a line of stdout (outside a
    run, a figure's or table's ``repr`` too).

    >>> display(1, "a")
    1
    'a'
    """
    for value in values:
        if not _show(value):
            print(repr(value))


def _split_last_expression(source: str) -> tuple[ast.Module, ast.Expression | None]:
    tree = ast.parse(source, FILENAME, "exec")
    if tree.body and isinstance(tree.body[-1], ast.Expr):
        last = tree.body.pop()
        assert isinstance(last, ast.Expr)
        return tree, ast.Expression(last.value)
    return tree, None


def _trimmed_traceback(error: BaseException) -> str:
    """Format ``error`` keeping only the frames that belong to the example's own code."""
    frames = traceback.extract_tb(error.__traceback__)
    first_user = next((i for i, f in enumerate(frames) if f.filename == FILENAME), len(frames))
    kept = traceback.StackSummary.from_list(frames[first_user:])
    lines = ["Traceback (most recent call last):\n", *kept.format()] if kept else []
    lines += traceback.format_exception_only(type(error), error)
    return "".join(lines)


def run_example(
    source: str,
    *,
    on_stdout: Write | None = None,
    on_stderr: Write | None = None,
    on_figure: Write | None = None,
    on_table: Write | None = None,
    namespace: dict[str, Any] | None = None,
) -> ExampleResult:
    """Run ``source`` and return its captured output (see the module docstring for the rule).

    ``on_stdout`` / ``on_stderr`` receive output as it is written (the page streams it),
    ``on_figure`` each figure's SVG and ``on_table`` each table's HTML as it is displayed.

    >>> run_example("print('hi')\\n1 + 1").output
    'hi\\n2\\n'
    >>> print(run_example("x = 1\\n1 / 0").error.splitlines()[-1])
    ZeroDivisionError: division by zero
    """
    result = ExampleResult()
    stdout = _Stream("stdout", result, on_stdout)
    stderr = _Stream("stderr", result, on_stderr)
    globals_: dict[str, Any] = namespace if namespace is not None else {"__name__": "__main__"}
    globals_.setdefault("display", display)

    def add_figure(svg: str) -> None:
        result.figures.append(svg)
        if on_figure is not None:
            on_figure(svg)

    def add_table(html: str) -> None:
        result.tables.append(html)
        if on_table is not None:
            on_table(html)

    global _figure_sink, _table_sink
    saved_sinks = _figure_sink, _table_sink
    _figure_sink, _table_sink = add_figure, add_table
    # Registering the source lets tracebacks quote the reader's lines, not just their numbers.
    linecache.cache[FILENAME] = (len(source), None, source.splitlines(keepends=True), FILENAME)
    saved: tuple[TextIO, TextIO] = (sys.stdout, sys.stderr)
    sys.stdout, sys.stderr = stdout, stderr  # type: ignore[assignment]
    try:
        body, last = _split_last_expression(source)
        exec(compile(body, FILENAME, "exec"), globals_)
        if last is not None:
            value = eval(compile(last, FILENAME, "eval"), globals_)
            if value is not None and not _show(value):
                stdout.write(repr(value) + "\n")
    except BaseException as error:  # the reader's code may raise anything, SystemExit included
        if isinstance(error, KeyboardInterrupt):
            raise
        result.error = _trimmed_traceback(error)
        stderr.write(result.error)
    finally:
        sys.stdout, sys.stderr = saved
        _figure_sink, _table_sink = saved_sinks
    return result

"""Card visualizers: one pure Python function renders a demo's view, at build time and in the page.

This docstring is **the demo contract** shared by the card YAML, the card validator, the page
template (``templates/partials/demo.html.jinja``) and the browser (``web/demo.js``,
``web/controls.js``). Why one renderer: the view is computed by the same tested Python (on top
of :mod:`rankcards.metrics`) in CPython while the site is built and in the Pyodide worker on every
control change, so the page never shows numbers that a JavaScript re-implementation computed.

The ``demo`` block of a card
----------------------------
.. code-block:: yaml

    demo:
      compute: rankcards.viz.recall:view     # "module:function", module under rankcards.viz
      controls:                               # (or rankcards.demos), stdlib + rankcards only
        - {kind: slider, bind: k, label: {es: ..., en: ...}, min: 1, max: 5, step: 1}
        - {kind: toggle, bind: complete, label: {es: ..., en: ...}}
        - {kind: select, bind: measure, label: {es: ..., en: ...},
           options: [{value: RR, label: {es: ..., en: ...}}, ...]}
        - {kind: ranked-lists, bind: queries, label: {es: ..., en: ...}, max_grade: 1,
           unjudged: false}
      state: {k: 5, complete: false, measure: RR, queries: [...]}

A metric card may write ``demo: {lab: {measure: "AP@k", k: 5, ...}}`` instead: the measure
lab (:mod:`rankcards.viz._lab_spec` checks the block, :func:`expand` turns it into the regular
demo above with ``compute: rankcards.viz.lab:view`` and generated controls and state).

Example-bound demos
-------------------
Any card may write ``demo: {example: {controls: [...]}}``: the demo is the card's own example,
with no compute function and no ``state``. Each control (``slider``, ``toggle``, ``select``;
fields as below) binds a name that the example (``code.source``) assigns **exactly once, at top
level, to a literal**, and the demo's state is those literals' values:

.. code-block:: yaml

    code:
      source: |
        depth = 10  # pool depth
        ...
    demo:
      example:
        controls:
          - {kind: slider, bind: depth, label: {es: ..., en: ...}, min: 1, max: 50}

The rules are :mod:`rankcards.viz.bound`'s (``find_bindings``, ``value_problem``): the literal
is a number (slider; an integer literal needs integer ``min``, ``max`` and ``step``, and the
card's value lies on the steps), ``True``/``False`` (toggle) or equal to an option value
(select); Spanish and English sources, when they differ, bind the same values. ``rankcards
check`` reports a broken rule at the control's line, then runs the example at each slider's
``min`` and ``max``, at every other option and with each toggle flipped
(``rankcards.cards._bound``): a variant that raises or times out is reported, and so is a
control that changes nothing of the output (text, figures, tables) from the card's state, by
the rule every demo follows (:mod:`rankcards.viz._teaches`, its ``example`` checker).

The page (``templates/partials/demo.html.jinja`` with ``data-rc-bound``, ``web/bound.js``):
moving a control rewrites the literal in the example's editor (the reader sees the code change;
a select's literal text is written at build, in the example's own quotes) and runs the example
again; its output, figures and tables replace the last ones when the run ends, and a run
superseded by a newer change is never shown (the last change wins; one running for over a
second is stopped for it). A reader's edit is checked again by :func:`rankcards.viz.bound.locate`
in the worker (after a fast path for the card's code with only its literals changed); one that
breaks a binding disables the controls with a one-line notice until it is undone or Reset.
The build's view is the example's own build-time output (complete without JavaScript).

``state`` is a JSON-compatible mapping: the whole input of the view. Every control has
``kind``, ``bind`` (a top-level key of ``state``) and a bilingual ``label``; ``help``
(bilingual) is optional. Per kind:

* ``slider``: ``min``, ``max`` (numbers, min < max), optional ``step`` (default 1); state value
  a number in [min, max]. Rendered as a labelled ``<input type=range>`` with its value shown.
* ``toggle``: state value a boolean. Rendered as a labelled checkbox (``role=switch``).
* ``select``: ``options``, a non-empty list of ``{value, label: {es, en}}`` with distinct
  JSON-scalar values; state value one of them. Rendered as a labelled ``<select>``.
* ``ranked-lists``: optional ``max_grade`` (int >= 1, default 1) and ``unjudged`` (bool,
  default false). State value a non-empty list of ``{query: str, ranking: [docno, ...]}``
  (docnos distinct strings) plus, when ``max_grade`` is 1, ``relevant: [docno, ...]`` (binary
  labels), otherwise ``grades: {docno: 0..max_grade}`` (graded labels, absent = 0), and with
  ``unjudged`` an optional ``unjudged: [docno, ...]`` (listed documents with no label: absent
  from the qrels, shown "?"). Each item is a button: click, Enter or Space moves its label on,
  0 -> 1 ... -> max_grade -> 0, through "unjudged" before 0 when the control allows it (the
  ``label`` action of ``web/demo_state.js``); Alt+ArrowUp / Alt+ArrowDown, the item's up/down
  buttons, or drag and drop reorder it within its ranking. A ranking is one tab stop (a roving
  tabindex): the arrow keys, Home and End move the focus between its documents.

The compute function
--------------------
``compute(state: dict, lang: str) -> str`` where ``lang`` is ``"es"`` or ``"en"``. It must be
pure (no I/O, no globals mutated; it gets a deep copy of the state) and fast (it runs on every
control change; aim for < 10 ms). It returns an HTML **fragment** built with
:mod:`rankcards.viz._html` (``el``, ``escape``, ``metric``) — never by concatenating unescaped
text. Conventions inside the fragment:

* every displayed number is wrapped by ``metric(name, value)`` and so carries
  ``data-metric="<name>" data-value="<repr(float)>"``; names are unique within a view
  (e.g. ``RR:q1``, ``MRR``) so tests and scripts read the exact value; compute must be
  deterministic (the worker's view for the initial state equals the build-time view), except
  for measured values (timings, throughput) passed as ``metric(..., volatile=True)``, which
  carry ``data-rc-volatile`` and are exempt from that identity check;
* the element(s) marked ``data-rc-announce`` (e.g. the formula with the result) are read out
  by a polite live region after each change, so screen readers hear the new value once;
* interactive elements are ``<button type="button">`` with an accessible name and one of these
  **state actions**, applied generically by ``web/demo.js`` before recomputing the view
  (``PATH`` is a dot-separated path from the state root; integer segments index lists; build
  the attributes with ``act_toggle`` / ``act_set`` / ``act_cycle`` / ``act_move``):

  - ``data-rc-toggle="PATH" data-rc-item="X"``: add string X to the list at PATH, or remove it;
  - ``data-rc-set="PATH" data-rc-value='JSON'``: set PATH to the JSON value;
  - ``data-rc-cycle="PATH" data-rc-item="K" data-rc-max="N"``: mapping at PATH, key K goes
    ``0 -> 1 -> ... -> N -> 0`` (0 deletes the key);
  - ``data-rc-move="PATH" data-rc-index="I" data-rc-delta="D"``: move element I of the list at
    PATH by D positions (clamped to the list).

Shared links
------------
The page keeps the state's changed top-level keys in the URL hash (``#demo=``, ``web/share.js``;
for an example-bound demo, the literals' values, which a page opened with the link writes into
the card's code before running it)
and a page opened with one uses it only if ``web/state_check.js`` accepts it: control values
follow the rules above (and the card's own documents and queries), and a key that only a view
button changes must have a rule in ``VIEW_KEYS`` there (today: the lab's ``focus``, ``tied``,
``absent``; the gold dataset's ``edits``); any other key keeps the card's value.

Python API
----------
* :func:`render` (``demo``, ``lang``) -> ``str``: the initial view, called by the page template
  at build time; raises :class:`DemoError` with a one-line message.
* :func:`validate` (``demo``) -> ``list[str]``: problems, each ``"<field path>: <message>"``
  with the path relative to the card (``demo.controls[1].bind: ...``) so the card validator can
  map it to a YAML line; empty when the demo is valid (this includes running compute once on
  the initial state, and the rule that every control teaches, :mod:`rankcards.viz._teaches`:
  in the initial state, moving a control changes a number the view shows). An example-bound
  demo is not validated here: ``rankcards check`` runs it (``rankcards.cards._bound``).
* :func:`load_compute` (``"module:function"``) -> the callable.

In the browser ``web/demo.js`` calls ``runtime.call(compute, {state, lang})`` (keyword
arguments) in the worker after each change and replaces the view's children with the result.
"""

from __future__ import annotations

import copy
import importlib
from collections.abc import Callable, Mapping
from typing import Any

from rankcards.viz._teaches import silent_controls
from rankcards.viz._validate import validate_controls

__all__ = ["Compute", "DemoError", "expand", "load_compute", "render", "validate"]

Compute = Callable[[dict[str, Any], str], str]

_ALLOWED_PACKAGES = ("rankcards.viz.", "rankcards.demos.")
LANGS = ("es", "en")


class DemoError(ValueError):
    """A demo block that cannot be rendered; the message names the field and the fix."""


def load_compute(spec: object) -> Compute:
    """Import ``"module:function"`` from ``rankcards.viz`` or ``rankcards.demos``."""
    if not isinstance(spec, str) or spec.count(":") != 1:
        raise DemoError(f"demo.compute: expected 'module:function', got {spec!r}")
    module_name, _, function_name = spec.partition(":")
    if not module_name.startswith(_ALLOWED_PACKAGES):
        raise DemoError(
            f"demo.compute: {spec!r} must live in rankcards.viz or rankcards.demos "
            "(the modules shipped to the browser)"
        )
    try:
        module = importlib.import_module(module_name)
    except ImportError as error:
        raise DemoError(f"demo.compute: cannot import {module_name!r}: {error}") from None
    function = getattr(module, function_name, None)
    if not callable(function):
        raise DemoError(f"demo.compute: {module_name!r} has no function {function_name!r}")
    return function  # type: ignore[no-any-return]


def _run(demo: Mapping[str, Any], lang: str) -> str:
    compute = load_compute(demo.get("compute"))
    state = demo.get("state")
    if not isinstance(state, Mapping):
        raise DemoError("demo.state: expected a mapping of state keys to values")
    try:
        html = compute(copy.deepcopy(dict(state)), lang)
    except Exception as error:  # report any failure of card code as one line
        raise DemoError(
            f"demo.compute: {demo['compute']} failed on the initial state ({lang}): "
            f"{type(error).__name__}: {error}"
        ) from None
    if not isinstance(html, str):
        raise DemoError(
            f"demo.compute: {demo['compute']} returned {type(html).__name__}, expected str"
        )
    return html


def expand(demo: Mapping[str, Any]) -> dict[str, Any]:
    """The regular demo a card's block stands for: a ``lab`` block expanded, others as given.

    Raises :class:`DemoError` with the first problem of an invalid lab block.
    """
    if set(demo) != {"lab"}:
        return dict(demo)
    from rankcards.viz._lab_spec import expand_lab, lab_problems

    problems = lab_problems(demo["lab"])
    if problems:
        raise DemoError(problems[0])
    return expand_lab(demo["lab"])


def render(demo: Mapping[str, Any], lang: str) -> str:
    """Pre-render the demo's initial view in ``lang`` (what the page shows before the worker)."""
    if lang not in LANGS:
        raise DemoError(f"lang: expected one of {LANGS}, got {lang!r}")
    return _run(expand(demo), lang)


def validate(demo: object) -> list[str]:
    """Check a card's ``demo`` block; return ``"<field path>: <message>"`` problems."""
    if not isinstance(demo, Mapping):
        return ["demo: expected a mapping with compute, controls and state"]
    written = demo
    if "lab" in demo:
        from rankcards.viz._lab_spec import lab_problems

        if set(demo) != {"lab"}:
            return ["demo.lab: a lab demo has no compute, controls or state of its own"]
        lab = lab_problems(demo["lab"])
        if lab:
            return lab
        demo = expand(demo)
    problems = []
    try:
        load_compute(demo.get("compute"))
    except DemoError as error:
        problems.append(str(error))
    state = demo.get("state")
    if not isinstance(state, Mapping):
        problems.append("demo.state: expected a mapping of state keys to values")
        return problems
    problems.extend(validate_controls(demo.get("controls"), state))
    if not problems:
        for lang in LANGS:
            try:
                _run(demo, lang)
            except DemoError as error:
                problems.append(str(error))
                break
    if not problems:
        problems.extend(silent_controls(written))
    return problems

"""Turn loaded cards into rendered cards, checking what only rendering and running can find.

Text fields become safe HTML (:mod:`rankcards.cards._markdown`), every formula of every card goes
to KaTeX in one batch, every code example and demo runs in CPython subprocesses
(:mod:`rankcards.cards._execute`). A formula that does not parse (at the column KaTeX stopped),
an example that raises (at the line of the card file the traceback names), an example whose
output says nothing (fewer than :data:`MIN_OUTPUT_LINES` lines) or prints a failed check
(``False``), an example written per language whose versions print different results, a demo
that fails, an example-bound demo's variant that fails or changes nothing
(:mod:`rankcards.cards._bound`), an exercise whose solution fails (or whose starter passes),
and a stated number that nothing computes (:mod:`rankcards.cards._numbers`) are problems at
their YAML line.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from markupsafe import Markup

from rankcards.cards import _bound, _exercise, _numbers
from rankcards.cards._execute import run_jobs
from rankcards.cards._formula import latex, latex_path
from rankcards.cards._katex import render_math
from rankcards.cards._markdown import CardMarkdown, MathCollector, substitute_math
from rankcards.cards._model import (
    LANGS,
    Card,
    CardView,
    Demo,
    Example,
    Exercise,
    Reference,
    RenderedCard,
)
from rankcards.cards._problems import FieldPath, Problem, format_field, parse_field
from rankcards.viz import expand

_EXAMPLE_LINE = re.compile(r'File "<example>", line (\d+)')
_FAILED_CHECK = re.compile(r"\bFalse\b")
_PLACEHOLDER = re.compile(r"\bTODO\b")
MIN_OUTPUT_LINES = 3
CLAIMS_TIMEOUT = 60.0  # seconds at least for a card's claims (with its example) to run


def _problem(card: Card, path: FieldPath, message: str, line: int = 0) -> Problem:
    """A problem at ``path``; with ``line``, at that line of the field's text (a traceback's
    line of a code example), where it is written in the card file."""
    where = card.marks.line_position(path, line) if line else card.marks.of_value(path)
    return Problem(card.path, *where, format_field(path), message)


def _problem_at(card: Card, path: FieldPath, offset: int, message: str) -> Problem:
    """A problem at character ``offset`` of the text at ``path``."""
    return Problem(card.path, *card.marks.position(path, offset), format_field(path), message)


def _views(card: Card, md: CardMarkdown) -> dict[str, CardView]:
    data = card.data
    views = {}
    for lang in LANGS:

        def text(*path: str | int, inline: bool = True) -> Markup:
            value: Any = data
            for part in path:
                value = value[part]
            return Markup(md.render(value, (card, path), inline=inline))

        formula = data.get("formula")
        exercise = data.get("exercise")
        views[lang] = CardView(
            slug=card.slug,
            lang=lang,
            category=card.category,
            title=card.title(lang),
            tags=list(data.get("tags", {}).get(lang, [])),
            summary=text("summary", lang),
            definition=text("definition", lang, inline=False),
            key_points=[text("key_points", lang, i) for i in range(len(data["key_points"][lang]))],
            intuition=text("intuition", lang, inline=False),
            formula=(
                Markup(
                    md.collector.token(
                        latex(formula, lang), True, (card, latex_path(formula, lang))
                    )
                )
                if formula
                else None
            ),
            where=text("formula", "where", lang, inline=False) if formula else None,
            caption=text("code", "caption", lang),
            gotchas=[text("gotchas", lang, i) for i in range(len(data["gotchas"][lang]))],
            references=[Reference(ref["title"], ref["url"]) for ref in data["references"]],
            related=card.related,
            exercise_task=(
                text("exercise", "task", lang, inline=False) if exercise is not None else None
            ),
            exercise_hints=[
                text("exercise", "hints", lang, i)
                for i in range(len(exercise["hints"][lang]) if exercise is not None else 0)
            ],
        )
    return views


def _math(
    views: list[dict[str, CardView]],
    collector: MathCollector,
    katex_dir: Path,
    cache_dir: Path | None,
) -> list[Problem]:
    items = [(tex, display) for tex, display, _ in collector.items]
    results = render_math(items, katex_dir, cache_dir)
    problems = [
        _latex_problem(card, path, tex, result.error, result.position)
        for (tex, _, (card, path)), result in zip(collector.items, results, strict=True)
        if result.error is not None
    ]
    if not problems:
        rendered = [result.html or "" for result in results]
        for per_lang in views:
            for lang, view in per_lang.items():
                per_lang[lang] = _substitute(view, rendered)
    return problems


def _latex_problem(
    card: Card, path: FieldPath, tex: str, error: str, position: int | None
) -> Problem:
    """KaTeX's message at the column of the formula where it stopped (in the field's text: the
    formula itself, or a ``$...$`` inside a text)."""
    value = card.marks.texts.get(path, tex)
    start = value.find(tex)
    if position is None or start < 0:
        return _problem(card, path, f"invalid LaTeX: {error}")
    at_end = position >= len(tex)
    offset = start + min(position, len(tex) - 1)
    message = f"invalid LaTeX: {error}" + (" (at the end of the formula)" if at_end else "")
    return _problem_at(card, path, offset, message)


def _substitute(view: CardView, rendered: list[str]) -> CardView:
    def sub(value: Any) -> Any:
        if isinstance(value, Markup):
            return Markup(substitute_math(value, rendered))
        if isinstance(value, list):
            return [sub(item) for item in value]
        return value

    return CardView(**{name: sub(getattr(view, name)) for name in view.__dataclass_fields__})


def _example_problem(card: Card, path: FieldPath, answer: dict[str, Any]) -> Problem | None:
    if "timeout" in answer:
        return _problem(card, path, f"code example did not finish within {answer['timeout']:g} s")
    if "crashed" in answer:
        return _problem(card, path, "code example crashed the Python interpreter")
    error = answer["error"]
    if error is None:
        rejected = [i for i, svg in enumerate(answer.get("figures", []), 1) if svg is None]
        if rejected:
            return _problem(
                card, path, f"code example's figure {rejected[0]} is not SVG the page can show"
            )
        rejected = [i for i, html in enumerate(answer.get("tables", []), 1) if html is None]
        if rejected:
            return _problem(
                card,
                path,
                f"code example's table {rejected[0]} is not an HTML table the page can show",
            )
        return None
    lines = _EXAMPLE_LINE.findall(error)
    last = error.strip().splitlines()[-1]
    return _problem(card, path, f"code example raised {last}", int(lines[-1]) if lines else 0)


def _language_problem(card: Card, examples: dict[str, Example]) -> Problem | None:
    """An example written per language whose two versions print different decimal numbers
    (comments and words differ; the results a reader compares across languages do not). Whole
    numbers are left out: a timing in milliseconds differs from run to run."""
    if isinstance(card.data["code"]["source"], str):
        return None
    lines = {lang: examples[lang].output.splitlines() for lang in LANGS}
    for number, (es, en) in enumerate(zip(lines["es"], lines["en"], strict=False), 1):
        if _numbers.printed_decimals(es) != _numbers.printed_decimals(en):
            return _problem(
                card,
                ("code", "source", "es"),
                f"prints other numbers than the English example (output line {number}: "
                f"{es.strip()!r:.60} against {en.strip()!r:.60}): both show the same results",
            )
    if len(lines["es"]) != len(lines["en"]):
        message = (
            f"prints {len(lines['es'])} lines, the English example {len(lines['en'])}: both "
            "show the same results"
        )
        return _problem(card, ("code", "source", "es"), message)
    return None


def _output_problem(card: Card, path: FieldPath, output: str) -> Problem | None:
    """An example that ran but shows too little, or prints a check that failed."""
    lines = output.strip().splitlines()
    if len(lines) < MIN_OUTPUT_LINES:
        return _problem(
            card,
            path,
            f"code example prints {len(lines)} line{'s' * (len(lines) != 1)}: it shows what "
            f"it computes, in at least {MIN_OUTPUT_LINES} lines",
        )
    for number, line in enumerate(lines, 1):
        if "Traceback" in line or _FAILED_CHECK.search(line):
            return _problem(
                card,
                path,
                f"code example prints a failed check (output line {number}: {line.strip()!r:.80})"
                ": an example shows what holds",
            )
    return None


def _runs_demo(card: Card) -> bool:
    """Whether the card's demo runs at build: it has one, and no placeholder is left in it (a
    ``TODO`` is reported once, as a placeholder, not again as a demo that cannot import)."""
    demo = card.data.get("demo")
    return demo is not None and not _PLACEHOLDER.search(repr(demo))


def render_cards(
    cards: list[Card], *, katex_dir: Path, timeout: float, cache_dir: Path | None = None
) -> tuple[list[RenderedCard], list[Problem]]:
    """Render and run every card; the rendered cards are meaningful only with no problems."""
    collector = MathCollector()
    md = CardMarkdown(collector)
    views = [_views(card, md) for card in cards]
    problems = _math(views, collector, katex_dir, cache_dir)

    jobs: list[dict[str, Any]] = []
    for card in cards:
        for lang in LANGS:
            job: dict[str, Any] = {"kind": "example", "source": card.source(lang)}
            claims = _numbers.claims_for(card, lang)
            if claims:
                # Claims run after the example, in the same process; one about another tool
                # may import it (SciPy takes seconds to load): the job gets a longer limit, and
                # the example's own time is held to ``timeout`` below.
                job |= {
                    "claims": [expr for _, expr in claims],
                    "timeout": max(timeout, CLAIMS_TIMEOUT),
                }
            jobs.append(job)
        if _runs_demo(card) and _bound.controls_of(card) is None:
            # as written: a lab block's problems name its own fields (demo.lab.k, ...)
            jobs.append({"kind": "demo", "demo": card.data["demo"]})
        jobs += _bound.jobs(card)  # an example-bound demo's variants (its view is the example)
        jobs += _exercise.jobs(card)
    answers = iter(run_jobs(jobs, timeout=timeout, cache_dir=cache_dir))

    rendered = []
    for card, per_lang in zip(cards, views, strict=True):
        before = len(problems)
        examples = {}
        example_answers = {}
        claim_answers: dict[int, dict[str, Any]] = {}
        for lang in LANGS:
            answer = next(answers)
            shared = isinstance(card.data["code"]["source"], str)
            path: FieldPath = ("code", "source") if shared else ("code", "source", lang)
            claims = _numbers.claims_for(card, lang)
            if answer.get("seconds", 0.0) > timeout:
                answer = {"timeout": timeout}  # the example alone went over its limit
            problem = _example_problem(card, path, answer)
            if problem and claims and "timeout" in answer and answer["timeout"] > timeout:
                message = (
                    f"code example and its claims did not finish within {answer['timeout']:g} s"
                )
                problem = _problem(card, path, message)
            if (
                problem is None
                and "output" in answer
                and not _PLACEHOLDER.search(card.source(lang))
            ):
                problem = _output_problem(card, path, answer["output"])  # (a TODO is reported)
            if problem and problem not in problems:
                problems.append(problem)
            example_answers[lang] = answer
            figures = tuple(Markup(svg) for svg in answer.get("figures", []) if svg)
            tables = tuple(Markup(html) for html in answer.get("tables", []) if html)
            examples[lang] = Example(
                card.source(lang), answer.get("output", ""), answer.get("error"), figures, tables
            )
            claim_answers.update(
                (index, result)
                for (index, _), result in zip(claims, answer.get("claims", []), strict=False)
            )
        if len(problems) == before:
            problem = _language_problem(card, examples)
            if problem is not None:
                problems.append(problem)
        demos = {}
        demo_views: list[str] = []
        variants = _bound.jobs(card)
        if variants:
            variant_answers = [next(answers) for _ in variants]
            found = _bound.run_problems(card, example_answers, variant_answers)
            problems += [problem for problem in found if problem not in problems]
        if _bound.controls_of(card) is not None:
            # The demo's first view is the example's output: its tables and figures count too.
            demo_views = [
                str(markup)
                for example in examples.values()
                for markup in (*example.tables, *example.figures)
            ]
            if not _bound.static_problems(card):
                demos = {
                    lang: Demo(
                        None,
                        _bound.page_controls(card, lang),
                        _bound.state(card),
                        Markup(""),
                        _bound.page_bindings(card, lang),
                    )
                    for lang in LANGS
                }
        elif _runs_demo(card):
            answer = next(answers)
            demo_views = list(answer.get("views", {}).values())
            for text in answer.get("problems", []):
                field, _, message = text.partition(": ")
                problems.append(_problem(card, parse_field(field), message))
            if "timeout" in answer or "crashed" in answer:
                problems.append(_problem(card, ("demo",), "demo did not finish or crashed"))
            spec = expand(card.data["demo"])  # a lab block becomes compute, controls, state
            demos = {
                lang: Demo(
                    spec["compute"],
                    spec["controls"],
                    spec["state"],
                    Markup(answer.get("views", {}).get(lang, "")),
                )
                for lang in LANGS
            }
        if len(problems) == before:
            # Numbers are checked once the card's example and demo run and say something.
            outputs = [example.output for example in examples.values()]
            problems += _numbers.number_problems(card, outputs, demo_views, claim_answers)
        exercise = None
        if "exercise" in card.data:
            data = card.data["exercise"]
            problems += _exercise.run_problems(card, [next(answers), next(answers)])
            exercise = Exercise(
                data["function"],
                data["signature"],
                data["starter"],
                data["solution"],
                _exercise.spec_json(data),
            )
        rendered.append(RenderedCard(card, per_lang, examples, demos, exercise))
    return rendered, problems

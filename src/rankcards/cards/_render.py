"""Turn loaded cards into rendered cards, checking what only rendering and running can find.

Text fields become safe HTML (:mod:`rankcards.cards._markdown`), every formula of every card goes
to KaTeX in one batch, every code example and demo runs in one CPython subprocess. A formula that
does not parse, an example that raises, a demo that fails and an exercise whose solution fails (or
whose starter passes) are problems at their YAML line.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from markupsafe import Markup

from rankcards.cards import _bound, _exercise
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
from rankcards.cards._problems import FieldPath, Problem, format_field
from rankcards.viz import expand

_EXAMPLE_LINE = re.compile(r'File "<example>", line (\d+)')
_FIELD_PART = re.compile(r"([^.\[\]]+)|\[(\d+)\]")


def _problem(card: Card, path: FieldPath, message: str, line_offset: int = 0) -> Problem:
    line, column = card.marks.of_value(path)
    if line_offset and path in card.marks.block_scalars:
        line, column = line + line_offset, 1
    return Problem(card.path, line, column, format_field(path), message)


def _parse_field(text: str) -> FieldPath:
    """``demo.controls[1].bind`` -> ``("demo", "controls", 1, "bind")``."""
    return tuple(int(index) if index else name for name, index in _FIELD_PART.findall(text))


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
    cards: list[Card], views: list[dict[str, CardView]], collector: MathCollector, katex_dir: Path
) -> list[Problem]:
    results = render_math([(tex, display) for tex, display, _ in collector.items], katex_dir)
    problems = [
        _problem(card, path, f"invalid LaTeX ${tex}$: {result.error}")
        for (tex, _, (card, path)), result in zip(collector.items, results, strict=True)
        if result.error is not None
    ]
    if not problems:
        rendered = [result.html or "" for result in results]
        for per_lang in views:
            for lang, view in per_lang.items():
                per_lang[lang] = _substitute(view, rendered)
    return problems


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
    where = f" (example line {lines[-1]})" if lines else ""
    last = error.strip().splitlines()[-1]
    return _problem(
        card, path, f"code example raised {last}{where}", int(lines[-1]) if lines else 0
    )


def render_cards(
    cards: list[Card], *, katex_dir: Path, timeout: float
) -> tuple[list[RenderedCard], list[Problem]]:
    """Render and run every card; the rendered cards are meaningful only with no problems."""
    collector = MathCollector()
    md = CardMarkdown(collector)
    views = [_views(card, md) for card in cards]
    problems = _math(cards, views, collector, katex_dir)

    jobs: list[dict[str, Any]] = []
    for card in cards:
        jobs += [{"kind": "example", "source": card.source(lang)} for lang in LANGS]
        bound = _bound.controls_of(card) is not None
        if "demo" in card.data and not bound:
            jobs.append({"kind": "demo", "demo": expand(card.data["demo"])})
        jobs += _bound.jobs(card)
        jobs += _exercise.jobs(card)
    answers = iter(run_jobs(jobs, timeout=timeout))

    rendered = []
    for card, per_lang in zip(cards, views, strict=True):
        examples = {}
        example_answers = {}
        for lang in LANGS:
            answer = next(answers)
            example_answers[lang] = answer
            shared = isinstance(card.data["code"]["source"], str)
            path: FieldPath = ("code", "source") if shared else ("code", "source", lang)
            problem = _example_problem(card, path, answer)
            if problem and problem not in problems:
                problems.append(problem)
            figures = tuple(Markup(svg) for svg in answer.get("figures", []) if svg)
            tables = tuple(Markup(html) for html in answer.get("tables", []) if html)
            examples[lang] = Example(
                card.source(lang), answer.get("output", ""), answer.get("error"), figures, tables
            )
        demos = {}
        variants = _bound.jobs(card)
        if variants:
            variant_answers = [next(answers) for _ in variants]
            found = _bound.run_problems(card, example_answers, variant_answers)
            problems += [problem for problem in found if problem not in problems]
        if _bound.controls_of(card) is not None and not _bound.static_problems(card):
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
        elif "demo" in card.data and _bound.controls_of(card) is None:
            answer = next(answers)
            for text in answer.get("problems", []):
                field, _, message = text.partition(": ")
                problems.append(_problem(card, _parse_field(field), message))
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

"""`rankcards new SLUG --category CAT [--measure M | --demo example]`: scaffold a card whose
placeholders fail `check`.

Every part a contributor must write holds a ``TODO`` marker, which the validator rejects at its
line; so a scaffold can never be published half-written. With ``--measure "AP@k"`` the card is a
metric card that needs no Python: its demo is the measure lab (``demo: {lab: ...}``, checked
here as `check` would) and its example evaluates the measure on the shared toy example. With
``--demo example`` the demo is the card's own example: a slider bound to a literal the example
assigns once, at the top (``demo: {example: ...}``, :mod:`rankcards.viz.bound`); once its TODOs
are written the card passes `check` as it is.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

HELP = "create docs/cards/SLUG.yml from a template (fails `check` until every TODO is written)"

_SLUG = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")

_TEMPLATE = """\
{schema_line}
slug: {slug}
title:
  es: "TODO: título"
  en: "TODO: title"
category: {category}
tags:
  es: ["TODO: otros nombres con los que se busca (abreviatura, nombre en las herramientas)"]
  en: ["TODO: other names a reader searches it by (abbreviation, the tools' names)"]
summary:
  es: "TODO: una frase: qué es."
  en: "TODO: one sentence: what it is."
definition:
  es: |
    TODO: la definición (Markdown; fórmulas en línea con $...$).
  en: |
    TODO: the definition (Markdown; inline math with $...$).
key_points:
  es:
    - "TODO: punto clave o aplicación."
    - "TODO: punto clave o aplicación."
    - "TODO: punto clave o aplicación."
  en:
    - "TODO: key point or application."
    - "TODO: key point or application."
    - "TODO: key point or application."
intuition:
  es: |
    TODO: una analogía visual concreta cuyos números muestren el concepto.

    💡 Pulsa «Dibujar / Apuntes» en la barra superior para TODO: qué marcar sobre la demo.
  en: |
    TODO: one concrete visual analogy whose numbers show the concept.

    💡 Press "Draw / Notes" in the top bar to TODO: what to mark on the demo.
formula:
  latex: '\\mathrm{{TODO}}'
  where:
    es: "TODO: qué significa cada símbolo."
    en: "TODO: what each symbol means."
code:
  source: |
{code}  caption:
    es: "TODO: una línea sobre el ejemplo."
    en: "TODO: one line about the example."
{demo}related: []
gotchas:
  es:
    - "TODO: trampas y variantes (p. ej. diferencias entre librerías)."
    - "TODO: trampas y variantes (p. ej. diferencias entre librerías)."
    - "TODO: trampas y variantes (p. ej. diferencias entre librerías)."
  en:
    - "TODO: gotchas and variants (e.g. how libraries differ)."
    - "TODO: gotchas and variants (e.g. how libraries differ)."
    - "TODO: gotchas and variants (e.g. how libraries differ)."
references:
  - title: "TODO: author (year). Title."
    url: https://example.org/TODO
  - title: "TODO: author (year). Title."
    url: https://example.org/TODO
  - title: "TODO: the tool's documentation (trec_eval, ir_measures ...)."
    url: https://example.org/TODO
  - title: "TODO: the tool's documentation (trec_eval, ir_measures ...)."
    url: https://example.org/TODO
"""

_CODE = """\
    # TODO: a short example using rankcards.metrics; a final expression is shown like in a REPL.
    from rankcards import metrics
"""
_NO_DEMO = """\
demo:
  # TODO: every card has a demo (CONTRIBUTING.md, step 5): a measure card names its measure
  # (`rankcards new SLUG --measure "AP@k"` writes it); another names its view in rankcards.viz.
  compute: rankcards.viz.TODO:view
  controls: []
  state: {}
"""

# --demo example: the example holds the literal the slider rewrites (`k = 3`) and prints a
# number that moves with it (`check` runs it at the slider's ends and wants a change).
_BOUND_CODE = """\
    # TODO: a short example using rankcards.metrics; the demo's slider rewrites `k` below.
    from rankcards.metrics import precision_at_k

    k = 3  # TODO: what k is (the slider changes this value: keep one `k = ...` at the top)
    ranking, relevant = ["d1", "d2", "d3", "d4", "d5"], {"d1", "d3", "d4"}
    print("top", k, ranking[:k])
    print("relevant among them:", sorted(relevant & set(ranking[:k])))
    print(f"P@{k} = {precision_at_k(ranking, relevant, k):.4f}")
"""
_BOUND_DEMO = """\
demo:
  # The demo is the example above: each control rewrites a literal that the example assigns
  # once, at the top, and runs it again (CONTRIBUTING.md, "A concept card with a live demo").
  example:
    controls:
      - kind: slider
        bind: k
        label: {es: "TODO: etiqueta del control", en: "TODO: the control's label"}
        min: 1
        max: 5
"""

# The measure on the shared toy example, judged as the lab judges it (every listed document).
_MEASURE_CODE = """\
    from rankcards.demos.toy import TOY
    from rankcards.metrics import evaluate

    # Every ranked document is judged (0 unless the toy grades it), as in the lab above.
    qrels = {{q.id: {{**dict.fromkeys(q.ranking, 0), **q.judgments}} for q in TOY}}
    run = {{q.id: {{d: 10.0 - r for r, d in enumerate(q.ranking)}} for q in TOY}}
    result = evaluate(qrels, run, [{measure!r}])
    for query, values in result.per_query.items():
        print(query, values)
    result.aggregate
"""
_DEFAULT_K = 3  # below the toy's 5 ranks, so that @k and the whole list differ


def _categories() -> tuple[str, ...] | None:
    """The card categories, or None without the site extra (`rankcards new` then says so)."""
    try:
        from rankcards.cards import CATEGORIES
    except ModuleNotFoundError:
        return None
    return CATEGORIES


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("slug", metavar="SLUG", help="URL name: lowercase words joined by '-'")
    parser.add_argument("--category", required=True, choices=_categories())
    parser.add_argument("--dir", default="docs/cards", type=Path, help="cards directory")
    parser.add_argument(
        "--measure",
        metavar="M",
        help='a metric card: the measure lab for M in ir_measures notation, e.g. "AP@k" '
        '("@k" binds the cutoff to a slider), "nDCG@k", "RBP(p=0.8)"',
    )
    parser.add_argument(
        "--demo",
        choices=["example"],
        help="example: the demo is the card's example, a slider bound to a literal it assigns "
        "(no Python outside the card)",
    )


def lab_block(measure: str) -> tuple[dict[str, object], str]:
    """The lab spec for ``measure`` (every convention that applies and shows two different
    values on the toy example) and its YAML, or raise ValueError with the lab's first problem."""
    from rankcards.viz._lab_spec import CONVENTIONS, lab_problems
    from rankcards.viz._teaches import silent_controls

    spec: dict[str, object] = {"measure": measure}
    if measure.endswith("@k"):
        spec["k"] = _DEFAULT_K
    if problems := lab_problems(spec):
        raise ValueError(problems[0])
    applicable = [
        convention
        for convention in CONVENTIONS
        if not lab_problems(with_it := {**spec, "conventions": [convention]})
        and not any(p.startswith("demo.lab.conventions") for p in silent_controls({"lab": with_it}))
    ]
    spec["conventions"] = applicable
    lines = [
        "demo:",
        "  # The measure lab: see CONTRIBUTING.md (a metric card needs no Python).",
        "  lab:",
    ]
    lines.append(f"    measure: {json.dumps(measure)}")
    if "k" in spec:
        lines.append(f"    k: {spec['k']}")
    lines.append(f"    conventions: [{', '.join(applicable)}]")
    return spec, "\n".join(lines) + "\n"


def run(args: argparse.Namespace) -> int:
    from rankcards.cards import METRIC_CATEGORIES, SCHEMA_LINE

    if not _SLUG.match(args.slug):
        print(
            f"rankcards new: SLUG {args.slug!r} must be lowercase words joined by '-' "
            "(e.g. average-precision)",
            file=sys.stderr,
        )
        return 2
    path: Path = args.dir / f"{args.slug}.yml"
    if path.exists():
        print(f"rankcards new: {path} already exists", file=sys.stderr)
        return 2
    if not args.dir.is_dir():
        print(f"rankcards new: --dir {args.dir}: not a directory", file=sys.stderr)
        return 2
    if args.measure is not None and args.demo is not None:
        print(
            "rankcards new: --measure and --demo are two different demos: give one", file=sys.stderr
        )
        return 2
    code, demo = (_BOUND_CODE, _BOUND_DEMO) if args.demo == "example" else (_CODE, _NO_DEMO)
    if args.category in METRIC_CATEGORIES:
        # A metric card's example starts from the shared toy ranking (rankcards check).
        code += "    from rankcards.demos.toy import TOY\n"
    if args.measure is not None:
        from rankcards.viz._lab_spec import measure_at

        try:
            spec, demo = lab_block(args.measure)
        except ValueError as error:
            print(f"rankcards new: --measure: {error}", file=sys.stderr)
            return 2
        example = measure_at(args.measure, spec.get("k"))  # type: ignore[arg-type]
        code = _MEASURE_CODE.format(measure=example)
    text = _TEMPLATE.format(
        schema_line=SCHEMA_LINE, slug=args.slug, category=args.category, code=code, demo=demo
    )
    path.write_text(text, encoding="utf-8")
    print(f"created {path}: replace every TODO, then run `rankcards check`", file=sys.stderr)
    return 0

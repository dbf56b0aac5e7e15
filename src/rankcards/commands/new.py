"""`rankcards new SLUG --category CAT`: scaffold a card whose placeholders fail `check`.

Every part a contributor must write holds a ``TODO`` marker, which the validator rejects at its
line; so a scaffold can never be published half-written.
"""

from __future__ import annotations

import argparse
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
    - "TODO: otro punto clave."
    - "TODO: un tercer punto clave."
  en:
    - "TODO: key point or application."
    - "TODO: another key point."
    - "TODO: a third key point."
intuition:
  es: "TODO: una analogía visual."
  en: "TODO: a visual analogy."
formula:
  latex: '\\mathrm{{TODO}}'
  where:
    es: "TODO: qué significa cada símbolo."
    en: "TODO: what each symbol means."
code:
  source: |
    # TODO: a short example using rankcards.metrics; a final expression is shown like in a REPL.
    from rankcards import metrics{toy_import}
  caption:
    es: "TODO: una línea sobre el ejemplo."
    en: "TODO: one line about the example."
# Optional interactive demo: see the contract in src/rankcards/viz/__init__.py.
related: []
gotchas:
  es:
    - "TODO: trampas y variantes (p. ej. diferencias entre librerías)."
    - "TODO: otra trampa."
    - "TODO: una tercera trampa."
  en:
    - "TODO: gotchas and variants (e.g. how libraries differ)."
    - "TODO: another gotcha."
    - "TODO: a third gotcha."
# At least 4 references, every link https:// (rankcards check).
references:
  - title: "TODO: author (year). Title."
    url: https://example.org/TODO
  - title: "TODO: author (year). Title."
    url: https://example.org/TODO
  - title: "TODO: author (year). Title."
    url: https://example.org/TODO
  - title: "TODO: author (year). Title."
    url: https://example.org/TODO
"""


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
    toy_import = (
        # A metric card's example starts from the shared toy ranking (rankcards check).
        "\n    from rankcards.demos.toy import TOY" if args.category in METRIC_CATEGORIES else ""
    )
    text = _TEMPLATE.format(
        schema_line=SCHEMA_LINE, slug=args.slug, category=args.category, toy_import=toy_import
    )
    path.write_text(text, encoding="utf-8")
    print(f"created {path}: replace every TODO, then run `rankcards check`", file=sys.stderr)
    return 0

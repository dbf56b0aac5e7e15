"""Every card's demo shows words, never code identifiers: the view and its controls' texts, in
both languages, hold no snake_case name (tools' own names aside) and the Spanish view never
says "run" (it is «ejecución»). An example-bound demo's view is its example's output: the text,
tables and figures it shows."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
import yaml

from rankcards.runner import run_example
from rankcards.viz import expand, render
from repo_paths import CARDS

DEMO_SLUGS = sorted(
    path.stem
    for path in CARDS.glob("*.yml")
    if "demo" in yaml.safe_load(path.read_text(encoding="utf-8"))
)
#: names of tools and of their measures that a page quotes as such (set in code type there)
TOOL_NAMES = frozenset({"trec_eval", "ir_measures", "pytrec_eval"})
SNAKE_CASE = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b")
ENGLISH_RUN = re.compile(r"\brun\b", re.IGNORECASE)


class _Text(HTMLParser):
    """The text a reader sees or hears: element content, and the accessible names in
    ``aria-label`` / ``title`` attributes (an SVG's title and description are content)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.parts += [value for name, value in attrs if name in ("aria-label", "title") and value]

    def handle_data(self, data: str) -> None:
        self.parts.append(data)


def _shown_text(slug: str, lang: str) -> str:
    card = yaml.safe_load((CARDS / f"{slug}.yml").read_text(encoding="utf-8"))
    demo = card["demo"]
    reader = _Text()
    if "example" in demo:
        source = card["code"]["source"]
        result = run_example(source if isinstance(source, str) else source[lang])
        reader.parts.append(result.output)
        for html in (*result.tables, *result.figures):
            reader.feed(html)
        controls = demo["example"]["controls"]
    else:
        reader.feed(render(demo, lang))
        controls = expand(demo)["controls"]
    for control in controls:
        reader.parts.append(control["label"][lang])
        reader.parts.append(control.get("help", {}).get(lang, ""))
        reader.parts += [option["label"][lang] for option in control.get("options", [])]
    return " ".join(reader.parts)


@pytest.mark.parametrize("lang", ["es", "en"])
@pytest.mark.parametrize("slug", DEMO_SLUGS)
def test_a_demo_shows_words_not_identifiers(slug: str, lang: str) -> None:
    text = _shown_text(slug, lang)
    identifiers = sorted(set(SNAKE_CASE.findall(text)) - TOOL_NAMES)
    assert identifiers == [], f"{slug} ({lang}) shows {identifiers}"
    if lang == "es":
        runs = [text[max(0, m.start() - 30) : m.end() + 30] for m in ENGLISH_RUN.finditer(text)]
        assert runs == [], f"{slug} (es) says 'run': {runs}"


def test_the_check_would_catch_an_identifier() -> None:
    assert SNAKE_CASE.findall("relevantes recuperados, relevant_retrieved = 2") == [
        "relevant_retrieved"
    ]
    assert ENGLISH_RUN.search("fuera del run") and not ENGLISH_RUN.search("runs ejecución")

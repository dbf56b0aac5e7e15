"""A card full of XSS attempts renders them all as inert text."""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path


class _Collector(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.inside_card = 0
        self.tags: list[tuple[str, list[tuple[str, str | None]]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "article" and (self.inside_card or ("class", "rc-card") in attrs):
            self.inside_card += 1
        if self.inside_card:
            self.tags.append((tag, attrs))

    def handle_endtag(self, tag: str) -> None:
        if tag == "article" and self.inside_card:
            self.inside_card -= 1


def test_xss_card_is_inert(built_site: Path) -> None:
    for lang in ("en", "es"):
        html = (built_site / lang / "xss" / "index.html").read_text(encoding="utf-8")
        collector = _Collector()
        collector.feed(html)
        assert collector.tags, "the card body was found"
        for tag, attrs in collector.tags:
            assert tag not in {"script", "iframe", "svg", "img"} or (
                tag == "img" and not any(name == "src" for name, _ in attrs)
            ), (tag, attrs)
            for name, value in attrs:
                assert not name.startswith("on"), (tag, name)
                assert not (value or "").strip().lower().startswith("javascript:"), (tag, value)
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
        assert "&lt;img src=x onerror=alert(1)&gt;" in html
        # The page title (header, <title>, nav) is escaped too.
        assert "<script>alert(" not in html

"""Read the numbers a view displays: ``data-metric`` -> float of ``data-value``."""

from __future__ import annotations

from html.parser import HTMLParser


class _Metrics(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.values: dict[str, float] = {}
        self.texts: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        name = found.get("data-metric")
        if name is not None:
            assert name not in self.values, f"metric {name} shown twice"
            self.values[name] = float(found["data-value"] or "nan")

    def handle_data(self, data: str) -> None:
        self.texts.append(data)


def metrics(html: str) -> dict[str, float]:
    parser = _Metrics()
    parser.feed(html)
    return parser.values


def text(html: str) -> str:
    parser = _Metrics()
    parser.feed(html)
    return "".join(parser.texts)

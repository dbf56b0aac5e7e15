"""Read what a view or page shows: ``data-metric`` -> exact float, and visible text."""

from __future__ import annotations

from html.parser import HTMLParser


class _Reader(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.values: dict[str, float] = {}
        self.ids: set[str] = set()
        self.texts: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if found.get("id"):
            self.ids.add(str(found["id"]))
        name = found.get("data-metric")
        if name is not None:
            assert name not in self.values, f"metric {name} shown twice"
            self.values[name] = float(found["data-value"] or "nan")

    def handle_data(self, data: str) -> None:
        self.texts.append(data)


def read(html: str) -> _Reader:
    reader = _Reader()
    reader.feed(html)
    return reader


def shown(html: str) -> dict[str, float]:
    """Every displayed metric of a view, by its ``data-metric`` name."""
    return read(html).values


def text(html: str) -> str:
    """The view's visible text, joined."""
    return "".join(read(html).texts)

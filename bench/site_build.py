"""Bench: build time of 40 cards x 2 languages vs 80 hand-written pages; edit->visible latency.

Run by hand: ``.venv/bin/python bench/site_build.py [--cards 40] [--repeat 3]``. It lays out two
throw-away projects in a temp dir, with the same theme, Markdown extensions and search plugin:

* ``cards``: N synthetic cards (copies of docs/cards/mrr.yml with their own slug, title and
  related links), built by the rankcards plugin (validation, KaTeX, examples and demos run);
* ``plain``: the same N concepts as 2 x N hand-written Markdown pages (same text, formula as a
  code block) with a hand-written nav, and no rankcards plugin.

Both skip the browser runtime copy (``web_assets: false``): it is a constant, not per card.
Target: cards <= 2x plain. Then it serves the cards project with ``mkdocs serve`` on 127.0.0.1,
edits one card and polls the page until the edit shows. Target: <= 2 s.
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlsplit

import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "site"))
from site_project import fetch_text, project_skeleton  # noqa: E402

ENV = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}


def _slug(i: int) -> str:
    return f"concept-{i:02d}"


def _cards_project(directory: Path, count: int) -> None:
    project_skeleton(directory)
    source = (ROOT / "docs" / "cards" / "mrr.yml").read_text()
    first_line = source.splitlines()[0]
    card = yaml.safe_load(source)
    for i in range(count):
        card["slug"] = _slug(i)
        card["title"] = {lang: f"{text} {i}" for lang, text in card["title"].items()}
        card["related"] = [_slug((i + step) % count) for step in (1, 2)]
        text = yaml.safe_dump(card, allow_unicode=True, sort_keys=False, width=100)
        (directory / "docs" / "cards" / f"{_slug(i)}.yml").write_text(f"{first_line}\n{text}")
        card["title"] = yaml.safe_load(source)["title"]


def _plain_project(directory: Path, count: int) -> None:
    card = yaml.safe_load((ROOT / "docs" / "cards" / "mrr.yml").read_text())
    config = (ROOT / "mkdocs.yml").read_text()
    head, _, _ = config.partition("plugins:")
    nav = ["nav:"]
    for lang in ("en", "es"):
        nav.append(f"  - {lang}:")
        (directory / "docs" / lang).mkdir(parents=True)
        for i in range(count):
            nav.append(f"    - {lang}/{_slug(i)}.md")
            related = "\n".join(f"- [{_slug(j)}]({_slug(j)}.md)" for j in ((i + 1) % count,))
            page = f"""# {card["title"][lang]} {i}

{card["summary"][lang]}

## Definition

{card["definition"][lang]}

## Key points

{chr(10).join("- " + point for point in card["key_points"][lang])}

## Intuition

{card["intuition"][lang]}

## Formula

```latex
{card["formula"]["latex"]}
```

{card["formula"]["where"][lang]}

## Example

```python
{card["code"]["source"]}
```

## Gotchas

{chr(10).join("- " + gotcha for gotcha in card["gotchas"][lang])}

## Related

{related}
"""
            (directory / "docs" / lang / f"{_slug(i)}.md").write_text(page)
    plugins = "plugins:\n  - search:\n      lang: [en, es]\n"
    markdown = config[config.index("markdown_extensions:") : config.index("extra:")]
    markdown = markdown.replace(
        '  - pymdownx.snippets:\n      base_path: ["."]\n      check_paths: true\n', ""
    )
    (directory / "mkdocs.yml").write_text(
        head.replace("  custom_dir: templates\n", "") + plugins + markdown + "\n".join(nav) + "\n"
    )


def _build(project: Path) -> float:
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "-q", "--strict"],
        cwd=project,
        env=ENV,
        check=True,
        capture_output=True,
    )
    return time.perf_counter() - start


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _serve_latency(project: Path, repeat: int) -> list[float]:
    port = _free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "mkdocs", "serve", "--dev-addr", f"127.0.0.1:{port}"],
        cwd=project,
        env=ENV,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    # mkdocs serve mounts the site under the path of site_url (/rankcards/ here).
    site_url = yaml.safe_load((project / "mkdocs.yml").read_text().split("theme:")[0])["site_url"]
    cards = sorted((project / "docs" / "cards").glob("*.yml"))
    card = cards[len(cards) // 2]  # any card; one in the middle of the nav
    url = f"http://127.0.0.1:{port}{urlsplit(site_url).path}en/{card.stem}/"
    try:
        deadline = time.monotonic() + 120
        while "rc-card" not in fetch_text(url, timeout=2):
            if time.monotonic() > deadline or server.poll() is not None:
                raise RuntimeError("mkdocs serve did not come up")
            time.sleep(0.2)
        latencies = []
        original = card.read_text()
        for attempt in range(repeat):
            marker = f"edit-marker-{attempt}-{time.time_ns()}"
            card.write_text(original.replace("MRR measures ranking quality", marker, 1))
            start = time.perf_counter()
            while marker not in fetch_text(url, timeout=2):
                if time.perf_counter() - start > 60:
                    raise RuntimeError("the edit never showed up")
                time.sleep(0.05)
            latencies.append(time.perf_counter() - start)
            time.sleep(1.0)
        card.write_text(original)
        return latencies
    finally:
        server.terminate()
        server.wait(timeout=10)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", type=int, default=40)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="rankcards-bench-") as temp:
        cards, plain = Path(temp, "cards"), Path(temp, "plain")
        cards.mkdir()
        plain.mkdir()
        _cards_project(cards, args.cards)
        _plain_project(plain, args.cards)
        _build(cards), _build(plain)  # warm the OS file cache and .pyc files
        card_times = [_build(cards) for _ in range(args.repeat)]
        plain_times = [_build(plain) for _ in range(args.repeat)]
        card_s, plain_s = statistics.median(card_times), statistics.median(plain_times)
        print(
            f"build, {args.cards} cards x 2 languages (rankcards plugin): {card_s:.2f} s "
            f"(median of {args.repeat})"
        )
        print(f"build, {2 * args.cards} hand-written Markdown pages:         {plain_s:.2f} s")
        print(f"ratio: {card_s / plain_s:.2f}x (target <= 2x)")
        latencies = _serve_latency(cards, args.repeat)
        print(
            "serve, card edit -> visible: "
            + ", ".join(f"{value:.2f} s" for value in latencies)
            + f" (median {statistics.median(latencies):.2f} s, target <= 2 s)"
        )


if __name__ == "__main__":
    main()

"""Browser test fixtures: the real built site, served on 127.0.0.1, driven by real Chromium.

Shared by every browser test (runtime, examples, demos, drawing). Fixtures:

* ``chromium_path`` (session): ``$RANKCARDS_CHROMIUM``, else ``chromium`` / ``chromium-browser`` /
  ``google-chrome`` on PATH; the test is skipped when none is found, unless ``CI`` is true
  (``ci_gate``), where it fails (CI must not silently skip the browser).
* ``built_site`` (session): the site built once with ``mkdocs build`` into a temporary directory;
  ``RANKCARDS_SITE_DIR=site`` reuses an existing build instead (handy while editing tests).
* ``site_server`` (session): base URL (ending in ``/``) of a threaded static server of
  ``built_site`` that serves ``.wasm`` as ``application/wasm`` like static hosts do.
* ``zensical_site`` / ``zensical_server`` (session): the same site built by Zensical
  (``make build-zensical``), once, and served the same way; ``RANKCARDS_ZENSICAL_SITE_DIR``
  reuses a build (``site-zensical``). Without the ``zensical`` package it skips (fails under CI).
* ``isolated_server`` (session): the same site with COOP/COEP headers (``crossOriginIsolated``).
* ``browser`` (session) and ``page`` (per test, a fresh context so caches start cold);
  ``page.console_errors`` lists console errors and uncaught page errors seen so far
  (``pages.open_page``, which a module's shared page fixture calls too).
* ``card_tab`` (module): :class:`CardTab`, one tab per language that goes from card to card as
  a reader does, for tests that check a card's demo rather than a page's first load.
* ``examples`` (session): every code example of the built site as :class:`Example` (the page's
  site-relative URL, its language, the source and the build-time output read from the HTML).

Mark browser tests ``@pytest.mark.browser``. ``make test`` runs ``pytest -n 2 --dist loadfile``:
a module's tests share its pages and browser contexts on one worker and the modules spread over
both; the site (and the Zensical site) is built once for the whole run, by the first worker that
needs it, and the others wait for that build and serve the same folder. (``--dist loadgroup``
groups nothing with pytest 9.2 and pytest-xdist 3.8: xdist writes the group into ``_nodeid``,
which pytest 9.2's node ids no longer read; pytest-xdist issue #1386. Before, every browser test
went its own way and each worker built the site.)
"""

from __future__ import annotations

import fcntl
import html.parser
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from instant import go_instantly, visit_each
from pages import open_page
from static_site import (
    LAUNCH_ARGS,
    base_url,
    build_site,
    build_zensical_site,
    find_chromium,
    start_server,
)

from ci_gate import require_module, skip_or_fail


def _built_once(
    factory: pytest.TempPathFactory, name: str, build: Callable[[Path], tuple[Path, str | None]]
) -> tuple[Path, str | None]:
    """``build(folder)`` once per run: under xdist the workers share the run's temporary root,
    and the first to get there builds while the others wait, then read its result."""
    if os.environ.get("PYTEST_XDIST_WORKER") is None:
        return build(factory.mktemp(name))
    shared = factory.getbasetemp().parent
    with (shared / f"{name}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        result = shared / f"{name}.result"
        if not result.exists():
            site, error = build(shared / name)
            result.write_text(f"{site}\n{error or ''}", encoding="utf-8")
        site_line, _, error = result.read_text(encoding="utf-8").partition("\n")
        return Path(site_line), error or None


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A browser test that fails is run once more (pytest-rerunfailures; the run's summary
    counts it as rerun and names it: -raR in pyproject.toml): two workers each driving
    Chromium on two cores leave some timing margins thin (a Stop's 1 s grace for Python's
    KeyboardInterrupt, a search index's download), and one such miss in a 12-minute run is
    not a fault of the page. A test that fails twice fails the run."""
    for item in items:
        if item.get_closest_marker("browser"):
            item.add_marker(pytest.mark.flaky(reruns=1))


@pytest.fixture(scope="session")
def chromium_path() -> str:
    found = find_chromium()
    if found is None:
        skip_or_fail("no Chromium: set RANKCARDS_CHROMIUM or install chromium")
    return found


@pytest.fixture(scope="session")
def built_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    prebuilt = os.environ.get("RANKCARDS_SITE_DIR")
    if prebuilt:
        return Path(prebuilt).resolve()
    site, error = _built_once(tmp_path_factory, "site", lambda folder: (folder, build_site(folder)))
    if error is not None:
        pytest.fail(f"mkdocs build failed:\n{error}")
    return site


@pytest.fixture(scope="session")
def zensical_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    prebuilt = os.environ.get("RANKCARDS_ZENSICAL_SITE_DIR")
    if prebuilt:
        return Path(prebuilt).resolve()
    require_module("zensical", "pip install -e '.[zensical]'")
    site, error = _built_once(tmp_path_factory, "zensical", build_zensical_site)
    if error is not None:
        pytest.fail(f"the Zensical build failed:\n{error}")
    return site


def _serve(directory: Path, isolated: bool) -> Iterator[str]:
    server = start_server(directory, isolated=isolated)
    try:
        yield base_url(server)
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="session")
def site_server(built_site: Path) -> Iterator[str]:
    yield from _serve(built_site, isolated=False)


@pytest.fixture(scope="session")
def zensical_server(zensical_site: Path) -> Iterator[str]:
    yield from _serve(zensical_site, isolated=False)


@pytest.fixture(scope="session")
def isolated_server(built_site: Path) -> Iterator[str]:
    yield from _serve(built_site, isolated=True)


@pytest.fixture(scope="session")
def browser(chromium_path: str) -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        instance = playwright.chromium.launch(executable_path=chromium_path, args=LAUNCH_ARGS)
        yield instance
        instance.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    new_page = open_page(browser)
    yield new_page
    new_page.context.close()


class CardTab:
    """A reader's tab per language, for a module's tests: each test opens its card from the
    one the previous test left, by Material's instant navigation (the runtime boots once per
    language, not once per test). ``open`` returns the page, its console errors cleared."""

    def __init__(self, browser: Any, base: str) -> None:
        self._browser = browser
        self._base = base
        self._pages: dict[str, Any] = {}

    def open(self, lang: str, slug: str) -> Any:
        url = f"{self._base}{lang}/{slug}/"
        page = self._pages.get(lang)
        if page is None:
            page = self._pages[lang] = open_page(self._browser)
            next(visit_each(page, self._base, [f"{lang}/{slug}/"]))
        else:
            if page.url.split("#")[0] == url:  # the same card again: leave it first
                go_instantly(page, f"{self._base}{lang}/glossary/")
            go_instantly(page, url)
        page.console_errors.clear()
        return page

    def close(self) -> None:
        for page in self._pages.values():
            page.context.close()


@pytest.fixture(scope="module")
def card_tab(browser: Any, site_server: str) -> Iterator[CardTab]:
    tab = CardTab(browser, site_server)
    yield tab
    tab.close()


@dataclass(frozen=True)
class Example:
    """One code example as the built page holds it (no JavaScript involved)."""

    url: str  # site-relative, e.g. "en/mrr/"
    lang: str
    source: str
    output: str


class _ExampleParser(html.parser.HTMLParser):
    """Collect the text of ``[data-rc-source]`` and ``[data-rc-output]`` in each example."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[dict[str, str]] = []
        self._field: str | None = None
        self._depth = 0
        self._in_example = False  # an exercise's editor (after the example) is not the example's

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        names = dict(attrs)
        if "data-rc-example" in names:
            self.found.append({"lang": names.get("data-lang") or "", "source": "", "output": ""})
            self._in_example = True
        elif "data-rc-exercise" in names:
            self._in_example = False
        if self._field is not None:
            self._depth += 1
        elif self._in_example and ("data-rc-source" in names or "data-rc-output" in names):
            self._field = "source" if "data-rc-source" in names else "output"
            self._depth = 1

    def handle_endtag(self, tag: str) -> None:
        if self._field is not None:
            self._depth -= 1
            if self._depth == 0:
                self._field = None

    def handle_data(self, data: str) -> None:
        if self._field is not None and self.found:
            self.found[-1][self._field] += data


def site_examples(site: Path) -> list[Example]:
    """Every example of the site, read from the built HTML, in a stable order."""
    found: list[Example] = []
    for path in sorted(site.rglob("index.html")):
        text = path.read_text(encoding="utf-8")
        if "data-rc-example" not in text:
            continue
        parser = _ExampleParser()
        parser.feed(text)
        url = path.parent.relative_to(site).as_posix() + "/"
        for item in parser.found:
            found.append(Example(url, item["lang"], item["source"], item["output"]))
    return found


@pytest.fixture(scope="session")
def examples(built_site: Path) -> list[Example]:
    found = site_examples(built_site)
    assert found, f"no [data-rc-example] in any page of {built_site}"
    return found

"""axe-core on every page of the built site, in Material's light (default) and dark (slate)
palettes: no serious or critical violation (issue 13, defect 4).

axe-core comes from npm (``package.json``, pinned) and is injected from ``node_modules`` into each
page. Besides axe's default rules this enables ``target-size`` (WCAG 2.2, 24 x 24 px, what
Lighthouse checks) and fails on ``heading-order`` too (moderate in axe, but a skipped level breaks
the outline a screen reader navigates). Card pages are checked with their editor mounted, as a
reader sees them after pointing at the code. One browser context per palette, reused across pages.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from static_site import ROOT

from ci_gate import skip_or_fail

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
PALETTES = {"default": "light", "slate": "dark"}
FAILING = {"serious", "critical"}
ALSO_FAILING = {"heading-order"}

# Material keeps the reader's palette choice in localStorage under "<site root>.__palette"
# (its __md_scope is the site root, "/" here): the choice it would save after the toggle.
_CHOOSE_PALETTE = """localStorage.setItem("/.__palette", JSON.stringify({
  index: %d, color: {media: "%s", scheme: "%s", primary: "indigo", accent: "indigo"}}))"""

_RUN_AXE = """async ([failing, also]) => {
  const result = await axe.run(document, {
    rules: {"target-size": {enabled: true}},
    resultTypes: ["violations"],
  });
  return result.violations
    .filter((v) => failing.includes(v.impact) || also.includes(v.id))
    .map((v) => `${v.id} (${v.impact}, ${v.nodes.length}): ` +
      v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(" | "));
}"""


def _pages(site: Path) -> list[str]:
    """Every page of the site (both languages and the language chooser)."""
    found = sorted(p.parent.relative_to(site).as_posix() + "/" for p in site.rglob("index.html"))
    return ["" if path == "./" else path for path in found]


@pytest.fixture(scope="module")
def axe_source() -> str:
    if not AXE.is_file():
        skip_or_fail(f"{AXE} missing: run `npm ci` (axe-core is a pinned devDependency)")
    return AXE.read_text(encoding="utf-8")


@pytest.fixture(params=list(PALETTES))
def palette_page(request: pytest.FixtureRequest, browser: Any) -> Iterator[tuple[str, Any]]:
    scheme = request.param
    index, media = (
        (1, "(prefers-color-scheme: light)")
        if scheme == "default"
        else (
            2,
            "(prefers-color-scheme: dark)",
        )
    )
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    context.add_init_script(_CHOOSE_PALETTE % (index, media, scheme))
    # The runtime is not what is checked here: keep Pyodide's boot off the two cores.
    context.route("**/assets/pyodide/**", lambda route: route.fulfill(status=404, body=""))
    page = context.new_page()
    page.set_default_timeout(30_000)
    yield scheme, page
    context.close()


def test_no_serious_axe_violation_on_any_page(
    palette_page: tuple[str, Any], site_server: str, built_site: Path, axe_source: str
) -> None:
    scheme, page = palette_page
    pages = _pages(built_site)
    assert {"en/mrr/", "es/gold-dataset/", "en/evaluate/", ""} <= set(pages), pages
    found: dict[str, list[str]] = {}
    for path in pages:
        page.goto(site_server + path)
        shown = page.evaluate("document.body.getAttribute('data-md-color-scheme')")
        assert shown == scheme, f"{path}: palette {shown}, expected {scheme}"
        source = page.locator("[data-rc-example][data-rc-enhanced] [data-rc-source]")
        if source.count():
            source.first.dispatch_event("pointerdown")  # the page as it is once the editor mounts
            page.wait_for_selector("[data-rc-example][data-rc-editor=ready]", state="attached")
        page.add_script_tag(content=axe_source)
        violations = page.evaluate(_RUN_AXE, [sorted(FAILING), sorted(ALSO_FAILING)])
        if violations:
            found[path] = violations
    assert not found, f"{scheme}:\n" + "\n".join(
        f"  /{path}: {violation}" for path, listed in found.items() for violation in listed
    )

"""Going from page to page as a reader does: Material's instant navigation.

A click on a link to a page of the site swaps the page's content without a reload: the page's
scripts, styles, the booted runtime and the browser's layout of the theme stay. Tests that check
something on every page (rather than the first load of one) go from page to page this way: each
page then costs its own work, not the theme's start-up and a Pyodide boot. Material navigates
instantly within one language only (it looks the page up in that language's sitemap), so the
first page of each language is loaded.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

# The content left behind is marked first (Material replaces it), so the next page's is told
# from it; then a link is clicked, as a reader's click: Material takes it.
_GO = """(url) => {
  const shown = "article, [data-rc-example], section[data-rc-demo]";
  for (const node of document.querySelectorAll(shown)) node.dataset.rcLeft = "";
  const link = document.createElement("a");
  link.href = url;
  document.body.append(link);
  link.click();
  link.remove();
}"""

# Set on a loaded page: still there after every instant navigation (the same JS realm).
_MARK_REALM = "window.rcSameRealm = true"


# Material's script has run (on a page whose first screen boots Python it runs after the first
# demo value: theme.js) and fetched the sitemap it looks links up in; its click handler is armed
# once that response is parsed, a few tasks later.
_MATERIAL_RAN = """() => window.document$ !== undefined && performance
  .getEntriesByType("resource").some((entry) => entry.name.endsWith("/sitemap.xml"))"""


def wait_for_instant_navigation(page: Any) -> None:
    """Wait until a click on a link of the site is taken by Material's instant navigation.
    Once per page load: the realm, and with it the armed handler, outlives every instant
    navigation (the mark says so, and a reload drops it)."""
    if page.evaluate("window.rcInstantArmed === true"):
        return
    page.wait_for_function(_MATERIAL_RAN)
    page.evaluate("new Promise((resolve) => setTimeout(resolve, 100))")  # the sitemap parsed
    page.evaluate("window.rcInstantArmed = true")


def go_instantly(page: Any, url: str) -> None:
    """Go to ``url`` by Material's instant navigation and wait for its content."""
    wait_for_instant_navigation(page)
    page.evaluate(_GO, url)
    page.wait_for_url(url)
    page.wait_for_selector("article:not([data-rc-left])", state="attached")
    assert page.evaluate("window.rcSameRealm === true"), f"{url} was loaded, not reached instantly"


def visit_each(page: Any, base: str, paths: Iterable[str]) -> Iterator[str]:
    """Show each of ``paths`` (site-relative, ``en/mrr/``) in ``page`` and yield it: the first
    of each language loaded, the others reached by instant navigation."""
    language = None
    for path in paths:
        if path.split("/", 1)[0] != language:
            language = path.split("/", 1)[0]
            page.goto(base + path)
            page.evaluate(_MARK_REALM)
        else:
            go_instantly(page, base + path)
        yield path

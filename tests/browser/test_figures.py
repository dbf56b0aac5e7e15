"""Figures from Python in the built site: an example's figure is in the page as built, and the
same figure comes back after Run; SVG from the reader's code is sanitized before it enters the
page (a <script>, an onload, a foreignObject's HTML never run, and their attributes never reach
the DOM)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

READY = "document.documentElement.dataset.runtime === 'ready'"
FIGURES = {
    ("en", "index-benchmarking"): "IVF: recall@10 against the cost per query",
    ("es", "precision-recall-curve"): "Curva de precisión y exhaustividad",
}

_SHAPE = """(block) => [...block.querySelectorAll('[data-rc-figure] svg')].map((svg) => ({
  title: svg.querySelector(':scope > title')?.textContent,
  role: svg.getAttribute('role'),
  circles: svg.querySelectorAll('circle').length,
  series: svg.querySelectorAll('g.rc-plot__series').length,
  fresh: !svg.hasAttribute('data-built'),
}))"""


def _figures(block: Any) -> list[dict[str, Any]]:
    return block.evaluate(_SHAPE)


def _open(page: Any, site_server: str, built_site: Path, lang: str, slug: str) -> Any:
    """The card's page, checked to hold the example's one figure as built; its example block."""
    html = (built_site / lang / slug / "index.html").read_text(encoding="utf-8")
    assert html.count("data-rc-figure>") == 1  # one figure, as built (no JavaScript involved)
    figure = html.split("data-rc-figure>", 1)[1].split("</svg>", 1)[0]
    assert figure.startswith('<svg xmlns="http://www.w3.org/2000/svg" class="rc-plot" role="img"')
    assert f"<title>{FIGURES[lang, slug]}</title>" in figure

    page.goto(f"{site_server}{lang}/{slug}/")
    block = page.locator("[data-rc-example][data-rc-enhanced]").first
    built = _figures(block)
    assert len(built) == 1 and built[0]["title"] == FIGURES[lang, slug]
    assert built[0]["role"] == "img" and built[0]["series"] >= 2
    output = block.locator("[data-rc-output]").text_content()
    assert FIGURES[lang, slug] not in output  # the figure is not text in the output
    block.locator("[data-rc-figure] svg").evaluate("(svg) => svg.setAttribute('data-built', '')")
    block.scroll_into_view_if_needed()
    page.wait_for_function(READY)
    return block


def test_the_pr_curve_figure_is_built_into_the_page_and_comes_back_after_run(
    page, site_server, built_site: Path
):
    requested: list[str] = []
    page.on("request", lambda request: requested.append(request.url))
    block = _open(page, site_server, built_site, "es", "precision-recall-curve")
    built = _figures(block)
    block.locator("[data-rc-toolbar] button").first.click()  # Ejecutar
    page.wait_for_function(
        "(b) => !b.dataset.rcRunning && b.querySelector('[data-rc-figure] svg:not([data-built])')",
        arg=block.element_handle(),
    )
    assert _figures(block) == [{**built[0], "fresh": True}]
    # The page shows a figure: its first run waits for DOMPurify, so the run's figure is never
    # shown empty while it loads
    assert [url for url in requested if url.endswith("/assets/rankcards/purify.js")] != []


def test_a_page_without_figures_never_fetches_dompurify(page, site_server):
    requested: list[str] = []
    page.on("request", lambda request: requested.append(request.url))
    page.goto(f"{site_server}en/mrr/")
    block = page.locator("[data-rc-example][data-rc-enhanced]").first
    block.scroll_into_view_if_needed()
    page.wait_for_function(READY)
    block.locator("[data-rc-toolbar] button").first.click()  # Run: the sanitizers load with it
    page.wait_for_function(
        "(b) => b.dataset.rcLive && !b.dataset.rcRunning", arg=block.element_handle()
    )
    assert page.locator("[data-rc-figure]").count() == 0
    assert any(url.endswith("/assets/rankcards/svg_sanitize.js") for url in requested)
    assert not [url for url in requested if url.endswith("/purify.js")]
    assert page.console_errors == []


# The IVF example runs longer than the Run button's 10 s limit on a loaded machine: the same
# figure is asked of the page's runtime directly, without a limit, and sanitized by the page.
_RUN_IVF = (
    """async ([source, base]) => {
  const { runtime } = await import(base + 'assets/rankcards/runtime.js');
  const { sanitizeSvg } = await import(base + 'assets/rankcards/svg_sanitize.js');
  const figures = [];
  const result = await runtime.run(source, { onFigure: (svg) => figures.push(svg), timeout: 0 });
  const block = document.createElement('div');
  for (const svg of figures) {
    const holder = document.createElement('div');
    holder.dataset.rcFigure = '';
    holder.append(await sanitizeSvg(svg));
    block.append(holder);
  }
  return { ok: result.ok, output: result.output, shapes: (SHAPE)(block) };
}"""
).replace("SHAPE", _SHAPE)


def test_the_ivf_figure_is_built_into_the_page_and_the_runtime_draws_it_again(
    page, site_server, built_site: Path
):
    block = _open(page, site_server, built_site, "en", "index-benchmarking")
    built = _figures(block)
    source = block.locator("[data-rc-source]").text_content()
    done = page.evaluate(_RUN_IVF, [source, site_server])
    assert done["ok"] and done["output"].endswith("distances/query=2000.0\n")
    assert done["shapes"] == [{**built[0], "fresh": True}]
    assert built[0]["circles"] == 6 + 1 + 2  # 6 nprobe values, exact search, 2 legend swatches


# The reader's code, as a shared link could bring it: its figure tries every way to run script.
_MALICIOUS = (
    'svg = \'<svg xmlns="http://www.w3.org/2000/svg" onload="window.__rcPwned = 1">'
    "<script>window.__rcPwned = 2</script>"
    '<rect width="10" height="10" onclick="window.__rcPwned = 3"/>'
    '<foreignObject width="9" height="9"><img xmlns="http://www.w3.org/1999/xhtml" '
    'src="data:image/png;base64,AAAA" onerror="window.__rcPwned = 4"/></foreignObject>'
    '<image href="data:image/png;base64,AAAA" onerror="window.__rcPwned = 5"/>'
    '<set attributeName="onmouseover" to="window.__rcPwned = 6"/>'
    "<text>drawn</text></svg>'; "
    "Bad = type('Bad', (), {'_repr_svg_': lambda self: svg}); "
    "Broken = type('Broken', (), {'_repr_svg_': lambda self: '<svg><rect></svg>'}); "
    "print('before'); display(Bad(), Broken()); Bad()"
)

# A broken image's error event, the same way the malicious <img> would have fired its own.
_SENTINEL = """() => new Promise((resolve) => {
  const img = new Image();
  img.onerror = () => resolve(true);
  img.src = 'data:image/png;base64,AAAA';
  document.body.append(img);
})"""


def test_svg_with_script_and_onload_from_the_readers_code_shows_without_running(page, site_server):
    page.goto(f"{site_server}en/precision-recall-curve/")
    block = page.locator("[data-rc-example][data-rc-enhanced]").first
    block.locator("[data-rc-source]").click()  # the code block becomes the editor, focused
    page.wait_for_function("document.activeElement.classList.contains('cm-content')")
    page.keyboard.press("Control+a")
    page.keyboard.insert_text(_MALICIOUS)
    page.wait_for_function(READY)
    page.keyboard.press("Control+Enter")
    page.wait_for_function(
        "(b) => !b.dataset.rcRunning && b.querySelectorAll('[data-rc-figure] svg').length === 2",
        arg=block.element_handle(),
    )
    assert block.locator("[data-rc-output]").text_content() == (
        "before\n(a figure was not shown: it is not SVG this page accepts)\n"
    )
    figures = block.locator("[data-rc-figures]")
    # drawn, and only the allowed parts
    assert figures.locator("svg rect").count() == 2
    assert figures.locator("svg text").all_text_contents() == ["drawn", "drawn"]
    html = figures.evaluate("(f) => f.innerHTML")
    for banned in ("script", "onload", "onclick", "onerror", "foreignObject", "<img", "<image"):
        assert banned not in html, banned
    attributes = figures.evaluate(
        "(f) => [...f.querySelectorAll('*')].flatMap((e) => [...e.attributes].map((a) => a.name))"
    )
    assert not [name for name in attributes if name.lower().startswith("on")]
    assert page.evaluate(_SENTINEL) is True  # a broken image has had time to report its error
    figures.locator("svg rect").first.dispatch_event("click")
    assert page.evaluate("window.__rcPwned") is None
    assert json.dumps(page.console_errors) == "[]"

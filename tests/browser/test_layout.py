"""Phone width: no page is wider than a 390 px screen (wide content scrolls inside its box, with a
visible cue: display formulas too); laptop width: a demo's tables fit its box, and an example's
editor takes the place of its static code (issue 13, defect 1: the code is on screen once, and
what follows it does not move); the significance card's difference chart has a legible y axis
at both widths.

The checks of every page at one width share one visit per page (``phone_visits`` and
``laptop_visits``, one browser context each) rather than one visit per check; the visits go from
page to page by instant navigation (tests/browser/instant.py), as a reader does, rather than
loading each page.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from instant import visit_each
from pages import open_page
from static_site import pages_with

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]


def _pages(site: Path) -> list[str]:
    """Home, every card, the glossary and the evaluate page, in both languages."""
    names = sorted(p.parent.name for p in (site / "en").glob("*/index.html"))
    paths = ["", *(f"{name}/" for name in names if name != "category")]
    return [f"{lang}/{path}" for lang in ("en", "es") for path in paths]


def test_no_page_overflows_a_phone_screen(
    phone_visits: dict[str, dict[str, Any]], built_site: Path
) -> None:
    widths = {path: phone_visits[path]["width"] for path in _pages(built_site)}
    assert {path: width for path, width in widths.items() if width > 390} == {}


def _demo_pages(site: Path) -> list[str]:
    """Every page with a card demo, both languages."""
    return pages_with(site, "data-rc-demo")


# Every element of the demo that sticks out of the demo's box without a visible way to see it:
# inside a sideways-scrolling box, the box must show a cue (a scrollbar that takes room, or the
# shadow gradient of viz.css) whenever it has more to show; outside one, nothing may pass the
# demo's edges (Material's content area clips it, so the reader never sees it).
_HIDDEN_OVERFLOW = """(section) => {
  const box = section.getBoundingClientRect();
  const problems = [];
  const name = (e) => {
    const classes = typeof e.className === 'string' ? e.className.trim().split(/\\s+/) : [];
    const doc = e.dataset.doc ? `[${e.dataset.doc}]` : '';
    return [e.tagName.toLowerCase(), ...classes.filter(Boolean)].join('.') + doc;
  };
  const px = (value) => parseFloat(value) || 0;
  const cue = (s) => {
    const style = getComputedStyle(s);
    const bar = s.offsetHeight - s.clientHeight
      - px(style.borderTopWidth) - px(style.borderBottomWidth);
    return bar > 0 || style.backgroundImage.includes('gradient');
  };
  for (const element of section.querySelectorAll('*')) {
    const r = element.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    let scroller = null;
    for (let a = element.parentElement; a && a !== section; a = a.parentElement) {
      const overflow = getComputedStyle(a).overflowX;
      if (overflow === 'auto' || overflow === 'scroll') { scroller = a; break; }
      if (overflow === 'hidden' || overflow === 'clip') {
        const c = a.getBoundingClientRect();
        if (r.right > c.right + 1 || r.left < c.left - 1) {
          problems.push(`${name(element)} clipped by ${name(a)}`);
        }
      }
    }
    if (scroller) {
      if (scroller.scrollWidth > scroller.clientWidth + 1 && !cue(scroller)) {
        problems.push(`${name(scroller)} scrolls with no visible cue`);
      }
    } else if (r.right > box.right + 1 || r.left < box.left - 1) {
      const spans = `${Math.round(r.left)}-${Math.round(r.right)} px`;
      problems.push(`${name(element)} spans ${spans}, the demo ends at ${Math.round(box.right)}`);
    }
  }
  return [...new Set(problems)];
}"""

# Each table: its last column is on screen inside the demo, or the table scrolls (checked above).
_CUT_TABLES = """(section) => [...section.querySelectorAll('table')].flatMap((table) => {
  const row = table.querySelector('tr');
  const last = row && row.lastElementChild;
  if (!last) return [];
  const scrolls = ['auto', 'scroll'].includes(getComputedStyle(table).overflowX)
    && table.scrollWidth > table.clientWidth;
  const edge = Math.min(
    table.getBoundingClientRect().right, section.getBoundingClientRect().right);
  const end = last.getBoundingClientRect().right;
  return scrolls || end <= edge + 1 ? [] : [
    `${table.className}: last column ends at ${Math.round(end)} px, seen to ${Math.round(edge)}`];
})"""

# Each ordered list of the demo (a ranking) reads in rank order: one row left to right, or one
# column top to bottom, never a grid that wraps.
_MIXED_RANKINGS = """(section) => [...section.querySelectorAll('ol')].flatMap((list) => {
  const boxes = [...list.children].map((li) => li.getBoundingClientRect());
  if (boxes.length < 2) return [];
  const row = boxes.every((b, i) => i === 0
    || (Math.abs(b.top - boxes[0].top) < 1 && b.left > boxes[i - 1].left));
  const column = boxes.every((b, i) => i === 0 || b.top >= boxes[i - 1].bottom - 1);
  const docs = [...list.children].map((li) => li.dataset.doc || li.textContent.trim());
  const tops = boxes.map((b) => Math.round(b.top)).join(',');
  return row || column ? [] : [`${docs.join(' ')}: tops ${tops}`];
})"""


def test_every_demo_fits_a_phone_or_scrolls_visibly_and_keeps_rank_order(
    phone_visits: dict[str, dict[str, Any]], built_site: Path
) -> None:
    pages = _demo_pages(built_site)
    assert len(pages) >= 10, pages  # five cards, two languages
    found = {path: phone_visits[path]["demo"] for path in pages if phone_visits[path]["demo"]}
    assert not found, "\n".join(f"{path}: {problem}" for path, v in found.items() for problem in v)


def test_each_ranked_item_shows_its_rank_and_relevance(page: Any, site_server: str) -> None:
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{site_server}en/mrr/")
    shown = page.eval_on_selector_all(
        ".rc-rl-items",
        """lists => lists.map(list => [...list.children].map(li =>
             getComputedStyle(li, '::before').content))""",
    )
    assert shown, "no ranked lists on the MRR card"
    for items in shown:
        # a CSS counter per list: the n-th item shows n (the `ol` tells assistive technology)
        assert all("counter(rc-rank)" in content for content in items), items
    background = "e => getComputedStyle(e).backgroundColor"
    relevant = page.locator(".rc-rl-item[data-grade='1']").first.evaluate(background)
    other = page.locator(".rc-rl-item[data-grade='0']").first.evaluate(background)
    assert relevant != other, "a relevant document looks like the others"


def _card_pages(site: Path) -> list[str]:
    """Every card page, both languages."""
    return pages_with(site, 'class="rc-card__formula"')


# Each display formula wider than its box: the box scrolls sideways and shows the shadow cue
# (viz.css); phones hide scrollbars, so a scrollbar alone is no cue.
_CUT_FORMULAS = """() => [...document.querySelectorAll('.katex-display')].flatMap((formula) => {
  const box = formula.closest('.rc-card__formula') || formula.parentElement;
  const wide = formula.scrollWidth > box.clientWidth + 1;
  const style = getComputedStyle(box);
  const scrolls = ['auto', 'scroll'].includes(style.overflowX);
  const cue = style.backgroundImage.includes('gradient');
  const inside = box.getBoundingClientRect().right <= innerWidth + 1;
  if (!wide) return inside ? [] : ['the formula box passes the screen'];
  return scrolls && cue && inside ? [] : [
    `${Math.round(formula.scrollWidth)} px in ${box.clientWidth}: scrolls ${scrolls}, cue ${cue}`];
})"""


_WIDE_FORMULAS = (
    "[...document.querySelectorAll('.katex-display')]"
    ".filter((f) => f.scrollWidth > f.parentElement.clientWidth + 1).length"
)


@pytest.fixture(scope="module")
def phone_visits(browser: Any, site_server: str, built_site: Path) -> Iterator[dict[str, Any]]:
    """Each page of the phone checks, visited once at 390 x 844: the page's width, its demo's
    problems (hidden overflow, cut tables, rankings out of order) and, on a card page, its wide
    display formulas and theirs."""
    demos, cards = set(_demo_pages(built_site)), set(_card_pages(built_site))
    page = open_page(browser, viewport={"width": 390, "height": 844})
    visits: dict[str, dict[str, Any]] = {}
    for path in visit_each(page, site_server, sorted({*_pages(built_site), *demos, *cards})):
        visit: dict[str, Any] = {"width": page.evaluate("document.documentElement.scrollWidth")}
        if path in demos:
            section = page.locator("section[data-rc-demo]:not([data-rc-left])").first
            visit["demo"] = [
                *section.evaluate(_HIDDEN_OVERFLOW),
                *section.evaluate(_CUT_TABLES),
                *section.evaluate(_MIXED_RANKINGS),
            ]
        if path in cards:
            visit["wide"] = page.evaluate(_WIDE_FORMULAS)
            visit["formulas"] = page.evaluate(_CUT_FORMULAS)
        visits[path] = visit
    yield visits
    page.context.close()


def test_wide_display_formulas_scroll_with_a_visible_cue_on_a_phone(
    phone_visits: dict[str, dict[str, Any]], built_site: Path
) -> None:
    pages = _card_pages(built_site)
    assert len(pages) >= 40, pages
    wide = sum(phone_visits[path]["wide"] for path in pages)
    found = {path: phone_visits[path]["formulas"] for path in pages}
    found = {path: problems for path, problems in found.items() if problems}
    assert wide >= 20  # MRR, nDCG, ERR and the significance formulas among them
    assert not found, "\n".join(f"{path}: {problem}" for path, v in found.items() for problem in v)


# Each table of the demo: its last column inside the demo's box, nothing to scroll to.
_TABLES_FIT = """(section) => [...section.querySelectorAll('table')].flatMap((table) => {
  const right = section.getBoundingClientRect().right;
  const cells = [...table.querySelectorAll('th, td')].map((c) => c.getBoundingClientRect().right);
  const end = Math.max(...cells);
  return table.scrollWidth <= table.clientWidth + 1 && end <= right + 1 ? [] : [
    `${table.className}: ${table.scrollWidth} px in ${table.clientWidth}, `
    + `ends at ${Math.round(end)}`];
})"""


BLOCK = "[data-rc-example][data-rc-enhanced]:not([data-rc-left])"
TOOLBAR = "[data-rc-toolbar]"


def _editor_in_place(page: Any) -> list[str]:
    """Point at the example's code (which mounts its editor, Pyodide being held off so it does
    not mount on its own) and say what moved: the code's place, its height, the toolbar's."""
    block = page.locator(BLOCK).first
    source = block.locator("[data-rc-source]")
    # Offsets from the example's own top: the runtime's status lines above the example (a
    # demo's, say) change height when the held-off boot fails, not this check's business.
    offset = (
        "(b, s) => b.querySelector(s).getBoundingClientRect().top - b.getBoundingClientRect().top"
    )
    before = source.bounding_box()
    code_at, toolbar_at = (block.evaluate(offset, s) for s in ("[data-rc-source]", TOOLBAR))
    source.dispatch_event("pointerdown")  # pointing at the code mounts the editor
    page.wait_for_selector(f"{BLOCK}[data-rc-editor=ready]", state="attached")
    editor = block.locator(".cm-editor")
    if source.is_visible():
        return ["the static code is still shown above the editor"]
    if not editor.is_visible():
        return ["the editor is not shown"]
    after = editor.bounding_box()
    if before is None or after is None:
        return [f"not rendered: code {before}, editor {after}"]
    editor_at, toolbar_now = (block.evaluate(offset, s) for s in (".cm-editor", TOOLBAR))
    problems = []
    if abs(editor_at - code_at) > 1:
        problems.append(f"editor at {editor_at}, code was at {code_at}")
    if abs(after["height"] - before["height"]) > 2:
        problems.append(f"editor {after['height']} px high, code was {before['height']}")
    if abs(toolbar_now - toolbar_at) > 2:
        problems.append(f"the toolbar moved by {toolbar_now - toolbar_at} px")
    return problems


@pytest.fixture(scope="module")
def laptop_visits(browser: Any, site_server: str, built_site: Path) -> Iterator[dict[str, Any]]:
    """Each page with a demo or an example, visited once at 1280 x 800 with Pyodide held off
    (the markup and styles are what is checked): its demo's tables that do not fit, then, once
    its example's editor is mounted, what that moved."""
    demos, examples = set(_demo_pages(built_site)), set(pages_with(built_site, "data-rc-example"))
    page = open_page(browser, viewport={"width": 1280, "height": 800})
    page.route("**/assets/pyodide/**", lambda route: route.abort())
    visits: dict[str, dict[str, Any]] = {}
    for path in visit_each(page, site_server, sorted(demos | examples)):
        visit: dict[str, Any] = {}
        if path in demos:
            section = page.locator("section[data-rc-demo]:not([data-rc-left])").first
            visit["tables"] = section.locator("table").count()
            visit["demo"] = section.evaluate(_TABLES_FIT)
        if path in examples:
            visit["editor"] = _editor_in_place(page)
        visits[path] = visit
    yield visits
    page.context.close()


def test_every_demo_table_fits_its_box_on_a_laptop(
    laptop_visits: dict[str, dict[str, Any]], built_site: Path
) -> None:
    """At 1280 px the demo tables fit whole (the Spanish ERR lab's steps were cut at 646 px)."""
    pages = _demo_pages(built_site)
    assert sum(laptop_visits[path]["tables"] for path in pages) >= 20
    found = {path: laptop_visits[path]["demo"] for path in pages if laptop_visits[path]["demo"]}
    assert not found, "\n".join(f"{path}: {problem}" for path, v in found.items() for problem in v)


def test_the_editor_replaces_the_static_code_in_place(
    laptop_visits: dict[str, dict[str, Any]], built_site: Path
) -> None:
    pages = pages_with(built_site, "data-rc-example")
    assert any(p.startswith("es/") for p in pages) and any(p.startswith("en/") for p in pages)
    found = {path: laptop_visits[path]["editor"] for path in pages if laptop_visits[path]["editor"]}
    assert not found, "\n".join(f"{path}: {problem}" for path, v in found.items() for problem in v)


# The significance card's difference chart: its y axis' label and tick numbers as rendered, and
# where the "0" tick sits against the plot's zero line.
_Y_AXIS = """(figure) => {
  const px = (e) => parseFloat(getComputedStyle(e).fontSize);
  const label = figure.querySelector('.rc-sig-ylabel');
  const ticks = [...figure.querySelectorAll('.rc-sig-ticks > span')];
  const zeroTick = ticks.find((t) => t.textContent === '0').getBoundingClientRect();
  const zeroLine = figure.querySelector('svg line').getBoundingClientRect();
  const plot = figure.querySelector('svg').getBoundingClientRect();
  const box = figure.getBoundingClientRect();
  return {
    label: label.textContent, labelPx: px(label), labelShown: label.getBoundingClientRect().height,
    ticks: ticks.map((t) => t.textContent), tickPx: Math.min(...ticks.map(px)),
    tops: ticks.map((t) => t.getBoundingClientRect().top),
    zeroOffset: Math.abs((zeroTick.top + zeroTick.bottom) / 2 - zeroLine.top),
    inside: ticks.every((t) => {
      const r = t.getBoundingClientRect();
      return r.left >= box.left - 1 && r.right <= plot.left + 1;
    }),
  };
}"""


@pytest.mark.parametrize(("lang", "label"), [("en", "difference"), ("es", "diferencia")])
def test_the_significance_chart_has_a_legible_y_axis(
    page: Any, site_server: str, lang: str, label: str
) -> None:
    page.route("**/assets/pyodide/**", lambda route: route.abort())
    for width in (1280, 390):
        page.set_viewport_size({"width": width, "height": 900})
        page.goto(f"{site_server}{lang}/significance-testing/")
        axis = page.locator(".rc-sig-chart").evaluate(_Y_AXIS)
        assert axis["label"] == label and axis["labelShown"] > 0, axis
        assert axis["labelPx"] >= 11 and axis["tickPx"] >= 11, axis
        high, zero, low = axis["ticks"]
        assert zero == "0" and float(high) > 0 and low == f"\u2212{high}", axis
        assert axis["tops"] == sorted(axis["tops"]), axis  # +, 0, - from top to bottom
        assert axis["zeroOffset"] <= 1.5, axis  # the 0 tick on the zero line
        assert axis["inside"], axis  # the numbers between the label and the plot

"""Phone width: no page is wider than a 390 px screen (wide content scrolls inside its box)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]


def _pages(site: Path) -> list[str]:
    """Home, every card, the glossary and the evaluate page, in both languages."""
    names = sorted(p.parent.name for p in (site / "en").glob("*/index.html"))
    paths = ["", *(f"{name}/" for name in names if name != "category")]
    return [f"{lang}/{path}" for lang in ("en", "es") for path in paths]


def test_no_page_overflows_a_phone_screen(page: Any, site_server: str, built_site: Path) -> None:
    page.set_viewport_size({"width": 390, "height": 844})
    wide = {}
    for path in _pages(built_site):
        page.goto(f"{site_server}{path}")
        width = page.evaluate("document.documentElement.scrollWidth")
        if width > 390:
            wide[path] = width
    assert wide == {}


def _demo_pages(site: Path) -> list[str]:
    """Every page with a card demo, both languages."""
    return sorted(
        path.parent.relative_to(site).as_posix() + "/"
        for path in site.rglob("index.html")
        if "data-rc-demo" in path.read_text(encoding="utf-8")
    )


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
    page: Any, site_server: str, built_site: Path
) -> None:
    page.set_viewport_size({"width": 390, "height": 844})
    pages = _demo_pages(built_site)
    assert len(pages) >= 10, pages  # five cards, two languages
    found: dict[str, list[str]] = {}
    for path in pages:
        page.goto(f"{site_server}{path}")
        section = page.locator("section[data-rc-demo]").first
        problems = [
            *section.evaluate(_HIDDEN_OVERFLOW),
            *section.evaluate(_CUT_TABLES),
            *section.evaluate(_MIXED_RANKINGS),
        ]
        if problems:
            found[path] = problems
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

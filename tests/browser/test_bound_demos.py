"""Example-bound demos in real Chromium (web/bound.js, web/editor.js): on the proof cards and on
the three index-benchmarking cards (two of them time queries), a control rewrites its literal in the
example's code and the example runs again, and the live view of the card's own values equals
the build-time view (but for the values the output marks as measured,
``rankcards.runner.MEASURED``); an edit that breaks a binding disables the controls with a
one-line notice; a shared link, a kept edit and Reset set controls and literals together; a
shared link scrolls to the demo with a note and a way back to the card's values.

A page load and a runtime boot cost seconds of CPU: the tests walk one tab through the steps of
one story each (a card's code, its controls and its links), every step starting where the last
left the card (the card's own code and output, checked), and go from card to card by Material's
instant navigation where the runtime is not what is tested."""

from __future__ import annotations

from typing import Any

import pytest
import yaml
from demo_helpers import RESTORED, link_value
from instant import visit_each

from rankcards.runner import without_measured
from rankcards.viz.bound import find_bindings, literal_text, rewrite
from repo_paths import CARDS

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

DEMO = "section[data-rc-demo][data-rc-bound]"
EXAMPLE = "[data-rc-example]"
READY = "document.documentElement.dataset.runtime === 'ready'"
# slug -> (a control, a value other than the card's, a text the new output holds)
MOVES = {
    "pooling": ("depth", 20, {"en": "Pool of depth 20", "es": "Pool de profundidad 20"}),
    "rank-correlation": ("systems", 5, {"en": "1 of 10 pairs", "es": "1 de 10 pares"}),
    "rank-fusion": ("k", 1, {"en": "RRF, k = 1", "es": "RRF, k = 1"}),
    "reranking": ("depth", 5, {"en": "(at most 5 per query)", "es": "(como mucho 5 por consulta)"}),
    "diversity": ("k", 3, {"en": "(@3)", "es": "(@3)"}),
    "mmr": ("lam", 0.3, {"en": "(λ = 0.3)", "es": "(λ = 0.3)"}),
    "hnsw": ("ef", 40, {"en": "ef=40, in effect max(ef, k)=40", "es": "ef=40, en vigor"}),
    "product-quantization": (
        "rerank",
        100,
        {"en": "top 100 re-ranked", "es": "reordenando los 100 primeros"},
    ),
    "filtered-search": ("selectivity", 0.5, {"en": "selectivity 0.50", "es": "selectividad 0.50"}),
    # index benchmarking: distances and recalls computed, QPS and latencies measured
    "ann-recall": ("k", 5, {"en": "(k = 5).", "es": "(k = 5)."}),
    "latency-and-throughput": (
        "queries",
        50,
        {"en": "50 queries per run", "es": "50 consultas por pasada"},
    ),
    "recall-qps-frontier": (
        "target",
        0.95,
        {"en": "recall@10 >= 0.95, each", "es": "recall@10 >= 0.95, cada"},
    ),
    "benchmark-beir": (
        "ignore_identical_ids",
        False,
        {"en": "NDCG@1 = 0.0   NDCG@10 = 0.53718", "es": "NDCG@1 = 0.0   NDCG@10 = 0.53718"},
    ),
    "benchmark-mteb-retrieval": (
        "ignore_identical_ids",
        True,
        {
            "en": "nDCG@10 = 0.77479   MRR@10 = 0.66667",
            "es": "nDCG@10 = 0.77479   MRR@10 = 0.66667",
        },
    ),
    "benchmark-ms-marco": (
        "all_reference_queries",
        False,
        {"en": "MRR @10: 0.4583 over 4 queries", "es": "MRR @10: 0.4583 sobre 4 consultas"},
    ),
    "benchmark-trec-dl": (
        "level",
        3,
        {"en": "40 of 200 judgments are relevant", "es": "40 de 200 juicios son relevantes"},
    ),
    "benchmark-lotte": (
        "k",
        3,
        {
            "en": "5 of 10 questions answered in their top 3",
            "es": "5 de 10 preguntas con respuesta en su top 3",
        },
    ),
}

_SOURCE = """async (base) => {
  const { exampleOf } = await import(base + 'assets/rankcards/editor.js');
  return exampleOf(document.querySelector('[data-rc-example]')).source();
}"""


def _card_source(slug: str, lang: str) -> str:
    source = yaml.safe_load((CARDS / f"{slug}.yml").read_text(encoding="utf-8"))["code"]["source"]
    return source if isinstance(source, str) else source[lang]


def _open(page: Any, url: str) -> None:
    page.goto(url)
    _ready(page)


def _ready(page: Any) -> None:
    """Wait until the page's bound demo and its example are live (the runtime boots once the
    demo is near the screen)."""
    page.locator(DEMO).scroll_into_view_if_needed()
    page.wait_for_function(READY, timeout=90_000)
    page.wait_for_selector(f"{DEMO}[data-rc-bound-state=ready]", timeout=30_000)
    page.wait_for_selector(f"{EXAMPLE}[data-rc-editor=ready]", state="attached", timeout=30_000)


def _view(page: Any) -> dict[str, Any]:
    """What the example shows: output text (measured values blanked), tables' HTML and figures'
    SVG (as the DOM has them; a built figure's markup declares its namespace, one the page
    creates is in it already)."""
    view: dict[str, Any] = page.eval_on_selector(
        EXAMPLE,
        """(b) => ({
          output: b.querySelector('[data-rc-output]').textContent,
          tables: b.querySelector('[data-rc-tables]').innerHTML,
          figures: [...b.querySelectorAll('[data-rc-figure] svg')].map((s) =>
            s.outerHTML.replace(' xmlns="http://www.w3.org/2000/svg"', '')),
        })""",
    )
    view["output"] = without_measured(view["output"])
    return view


def _code(page: Any, site_server: str) -> str:
    return page.evaluate(_SOURCE, site_server)


def _after_run(page: Any, act: Any) -> None:
    """Do ``act`` and wait for the example's next shown run."""
    page.evaluate(
        f"() => {{ window.__ran = new Promise((r) => document.querySelector('{EXAMPLE}')"
        ".addEventListener('rankcards:run', r, {once: true})); }"
    )
    act()
    page.wait_for_function("window.__ran.then(() => true)", timeout=60_000)


def _slide(page: Any, name: str, value: Any) -> None:
    """Set a control as the reader would: a slider answers ``input``, a toggle and a select
    ``change`` (a select's option values are JSON)."""
    page.locator(f'{DEMO} [data-rc-bind="{name}"]').evaluate(
        """(e, v) => {
          const kind = e.dataset.rcKind;
          if (kind === 'toggle') e.checked = v;
          else e.value = kind === 'select' ? JSON.stringify(v) : String(v);
          e.dispatchEvent(new Event(kind === 'slider' ? 'input' : 'change', {bubbles: true}));
        }""",
        value,
    )


def _rewritten(source: str, name: str, value: Any) -> str:
    binding = find_bindings(source, [name])[0][name]
    return rewrite(source, binding, literal_text(value, binding.kind, binding.quote(source)))


# Both languages on the proof cards; one on each other card, alternating, so that the time grows
# by one page a card (the words of both languages are checked at build time: viz/_teaches.py).
PROOF = ("pooling", "rank-correlation")
MOVED = [(slug, lang) for slug in PROOF for lang in ("en", "es")] + [
    (slug, ("en", "es")[i % 2]) for i, slug in enumerate(s for s in sorted(MOVES) if s not in PROOF)
]


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_control_rewrites_its_literal_and_the_output_follows(page, site_server, lang):
    """The cards of MOVED in ``lang``, one tab going from card to card by instant navigation
    (tests/browser/instant.py): one runtime boot for all of them."""
    slugs = [slug for slug, moved_lang in MOVED if moved_lang == lang]
    for path in visit_each(page, site_server, [f"{lang}/{slug}/" for slug in slugs]):
        slug = path.split("/")[1]
        _ready(page)
        original = _card_source(slug, lang)
        assert _code(page, site_server) == original, slug
        built = _view(page)
        assert built["output"].strip(), slug
        name, value, seen = MOVES[slug]
        default = find_bindings(original, [name])[0][name].value

        _after_run(page, lambda name=name, value=value: _slide(page, name, value))
        assert _code(page, site_server) == _rewritten(original, name, value), slug  # the literal
        moved = _view(page)
        assert moved != built, slug
        assert seen[lang] in moved["output"] + moved["tables"], slug
        assert "Traceback" not in moved["output"], slug

        # Back to the card's value: the live view is the build-time view, exactly.
        _after_run(page, lambda name=name, default=default: _slide(page, name, default))
        assert _code(page, site_server) == original, slug
        assert _view(page) == built, slug
        assert page.console_errors == [], slug


NOTICES = {
    "en": "Controls off: “Pool depth (d)” is assigned more than once (lines {lines}). Undo the "
    "edit or press Reset to use them again.",
    "es": "Controles desactivados: «Profundidad del pool (d)» se asigna más de una vez (líneas "
    "{lines}). Deshaz la edición o pulsa Restablecer para volver a usarlos.",
}


_RUNS = """() => {
  window.__runs = [];
  document.querySelector('[data-rc-example]').addEventListener('rankcards:run',
    (event) => window.__runs.push([event.detail.source, event.detail.reason]));
}"""


def _break_a_binding_and_reset(page: Any, site_server: str, lang: str, built: Any) -> None:
    """On the open pooling card: an edit that assigns the bound variable twice disables the
    controls with a one-line notice; taking it out brings them back; Reset restores code,
    controls and output (``built``, the card's own view)."""
    original = _card_source("pooling", lang)
    first = original[: original.index("depth = 10")].count("\n") + 1
    # The typed line goes after the source's final newline: one past its last line.
    notice = NOTICES[lang].format(lines=f"{first}, {len(original.splitlines()) + 2}")
    page.locator(f"{EXAMPLE} .cm-content").click()
    page.keyboard.press("Control+End")
    page.keyboard.type("\ndepth = 5")
    page.wait_for_selector(f"{DEMO}[data-rc-bound-state=broken]", timeout=30_000)
    shown = page.locator(f"{DEMO} [data-rc-bound-notice]")
    assert shown.is_visible()
    assert shown.text_content() == notice
    assert shown.get_attribute("data-code") == "twice"
    for control in page.locator(f"{DEMO} [data-rc-kind]").all():
        assert control.is_disabled()

    # Taking the line out brings the controls back; Reset restores code, controls and output.
    for _ in "\ndepth = 5":
        page.keyboard.press("Backspace")
    page.wait_for_selector(f"{DEMO}[data-rc-bound-state=ready]")
    assert not shown.is_visible()
    page.keyboard.type("\nprint(depth * 2)")
    page.locator(f'{DEMO} [data-rc-bind="dense_in_pool"]').check()
    page.wait_for_function(f"!document.querySelector('{EXAMPLE}').dataset.rcRunning")
    _reset(page)
    assert _code(page, site_server) == _card_source("pooling", lang)
    assert not page.locator(f'{DEMO} [data-rc-bind="dense_in_pool"]').is_checked()
    assert _view(page) == built


def _reset(page: Any) -> None:
    page.locator(f"{EXAMPLE} [data-rc-toolbar] button").nth(2).click()  # Reset
    page.wait_for_selector(f"{DEMO}[data-rc-bound-state=ready]")


def test_the_pooling_example_runs_changes_breaks_and_keeps_an_edit(page, site_server):
    """The English pooling card in one tab: Run on the card's code gives the build-time view;
    the last of a burst of changes wins; an edit that breaks a binding disables the controls
    and Reset restores all; a kept edit brings back the controls with the code on a later
    visit."""
    _open(page, f"{site_server}en/pooling/")
    built = _view(page)

    # Run on the card's own code: the build-time view.
    run = page.locator(f"{EXAMPLE} [data-rc-toolbar] button").first
    _after_run(page, run.click)
    assert _view(page) == built
    assert page.locator(f"{EXAMPLE} [data-rc-tables] table.rc-table caption").text_content() == (
        "Pool of depth 10"
    )

    # The last of a burst of changes wins: one run, with the last value.
    page.evaluate(_RUNS)
    page.locator(f'{DEMO} [data-rc-bind="depth"]').evaluate(
        """(slider) => { for (const value of [11, 12, 13, 14, 15]) {
          slider.value = String(value);
          slider.dispatchEvent(new Event('input', {bubbles: true}));
        } }"""
    )
    page.wait_for_function("window.__runs.length > 0", timeout=60_000)
    page.wait_for_function(f"!document.querySelector('{EXAMPLE}').dataset.rcRunning")
    runs = page.evaluate("window.__runs")
    assert [("depth = 15  #" in source, reason) for source, reason in runs] == [(True, None)]
    caption = page.locator(f"{EXAMPLE} [data-rc-tables] caption").text_content()
    assert caption == "Pool of depth 15"

    # An edit that breaks a binding; Reset brings back the card's code and view.
    _break_a_binding_and_reset(page, site_server, "en", built)

    # A kept edit: the card's code with one literal changed, back on a later visit.
    _after_run(page, lambda: _slide(page, "depth", 7))
    assert page.locator(f"{EXAMPLE}[data-rc-edited=true]").count() == 1  # kept as an edit
    page.goto(f"{site_server}en/pooling/")  # a later visit, no link
    # The code is the card's with one literal changed: the controls follow at once.
    page.wait_for_selector(f"{DEMO}[data-rc-bound-state=ready]")
    assert page.locator(f'{DEMO} [data-rc-bind="depth"]').input_value() == "7"
    assert "depth = 7  # pool depth" in page.evaluate(_SOURCE, site_server)
    assert page.console_errors == []


def test_a_slow_run_is_stopped_for_a_newer_change_and_stop_ends_both(page, site_server):
    """A run over a second that a newer change supersedes is stopped for it (its output never
    shows); the reader's Stop ends the run and the change that waited behind it."""
    _open(page, f"{site_server}en/pooling/")
    page.locator(f"{EXAMPLE} .cm-content").click()
    page.keyboard.press("Control+End")
    # 3 s at depth 30 and 31; a minute from 40 on, so that only a Stop ends those runs (a
    # loaded machine's clicks can come seconds late)
    page.keyboard.type(
        "\nimport time\ntime.sleep(depth / 10 if depth < 40 else 60)\nprint('slept', depth)"
    )
    page.wait_for_selector(f"{DEMO}[data-rc-bound-state=ready]")
    page.evaluate(_RUNS)
    _slide(page, "depth", 30)  # sleeps 3 s
    page.wait_for_function(f"document.querySelector('{EXAMPLE}').dataset.rcRunning")
    _slide(page, "depth", 31)
    page.wait_for_function("window.__runs.length > 0", timeout=60_000)
    page.wait_for_function(f"!document.querySelector('{EXAMPLE}').dataset.rcRunning")
    runs = page.evaluate("window.__runs")
    assert [("depth = 31  #" in source, reason) for source, reason in runs] == [(True, None)]
    assert "slept 31" in page.locator(f"{EXAMPLE} [data-rc-output]").text_content()

    page.evaluate("window.__runs = []")
    _slide(page, "depth", 40)
    page.wait_for_function(f"document.querySelector('{EXAMPLE}').dataset.rcRunning")
    _slide(page, "depth", 41)  # waits behind the run
    page.locator(f"{EXAMPLE} [data-rc-toolbar] button").nth(1).click()  # Stop
    page.wait_for_function(f"!document.querySelector('{EXAMPLE}').dataset.rcRunning")
    runs = page.evaluate("window.__runs")
    assert [reason for _, reason in runs] == ["stopped"]
    assert "Stopped." in page.locator(f"{EXAMPLE} [data-rc-output]").text_content()
    assert page.console_errors == []


def _open_link_and_go_back(
    page: Any,
    site_server: str,
    slug: str,
    lang: str,
    changes: dict[str, Any],
    seen: str,
    built: Any,
) -> None:
    """Open the link to ``changes`` on the card: the demo on screen under the header, a polite
    note that the state is the link's, the link's literals in the code and their output (which
    holds ``seen``); the note's button writes the card's own literals back and runs them
    (``built``, the card's view)."""
    said, back, done = RESTORED[lang]
    original = _card_source(slug, lang)
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto("about:blank")
    page.goto(f"{site_server}{lang}/{slug}/#demo={link_value(changes)}")
    page.wait_for_selector(f"{DEMO}[data-rc-shared=restored]")
    top = page.locator(DEMO).evaluate("s => s.getBoundingClientRect().top")
    assert page.evaluate("scrollY") > 300 and 0 <= top <= 150, top
    notice = page.locator(f"{DEMO} [data-rc-share-restored]")
    assert notice.is_visible()
    page.wait_for_function(
        "(text) => document.querySelector('[data-rc-share-restored] [role=status]')"
        ".textContent === text",
        arg=said,
    )
    page.wait_for_function(READY, timeout=90_000)
    page.wait_for_function(
        "(text) => { const b = document.querySelector('[data-rc-example]');"
        " return !b.dataset.rcRunning && b.dataset.rcLive"
        " && (b.querySelector('[data-rc-output]').textContent"
        " + b.querySelector('[data-rc-tables]').innerHTML).includes(text); }",
        arg=seen,
        timeout=60_000,
    )
    expected = original
    for bound, literal in changes.items():
        expected = _rewritten(expected, bound, literal)
    assert _code(page, site_server) == expected

    _after_run(page, notice.get_by_role("button", name=back).click)
    assert _code(page, site_server) == original  # the card's own literal text, not an edit
    assert page.locator(f"{EXAMPLE}[data-rc-edited=true]").count() == 0
    for bound in changes:  # a select's option values are JSON
        shown = page.locator(f'{DEMO} [data-rc-bind="{bound}"]').evaluate(
            "e => e.dataset.rcKind === 'select' ? JSON.parse(e.value) : e.value"
        )
        assert str(shown) == str(find_bindings(original, [bound])[0][bound].value), bound
    assert _view(page) == built
    assert "demo=" not in page.url
    assert notice.count() == 0
    assert page.evaluate("document.activeElement.dataset.rcShareButton") == ""  # Share, next
    assert page.text_content(f"{DEMO} [data-rc-share-said]") == done


def test_a_shared_link_sets_the_controls_and_literals_its_note_leads_back_or_goes(
    page, site_server
):
    """Two changes on the English pooling card make a link. Opened, it sets the controls and
    the literals, scrolls to the demo with a note whose button leads back to the card's values;
    opened again, the note goes once the reader moves a control, and Reset restores both."""
    _open(page, f"{site_server}en/pooling/")
    built = _view(page)
    original = _card_source("pooling", "en")
    _after_run(page, lambda: _slide(page, "depth", 30))
    page.wait_for_function("location.hash.includes('demo=')")  # written once the change settles
    first = page.url
    _after_run(
        page,
        lambda: page.locator(f'{DEMO} [data-rc-bind="measure"]').select_option(
            label="AP (average precision)"
        ),
    )
    page.wait_for_function("(url) => location.href !== url", arg=first)
    link = page.url
    changes = {"depth": 30, "measure": "AP"}
    page.evaluate("localStorage.clear()")  # the kept edit: the link's page starts from the card

    # Opened: the controls and the literals are the link's, and the note leads back.
    _open_link_and_go_back(page, site_server, "pooling", "en", changes, "Pool of depth 30", built)

    # Opened again: set controls and literals; the note goes once the reader moves a control.
    page.goto("about:blank")
    page.goto(link)
    page.locator(DEMO).scroll_into_view_if_needed()
    page.wait_for_selector(f"{DEMO}[data-rc-shared=restored]")
    page.wait_for_function(READY, timeout=90_000)
    assert page.locator(f'{DEMO} [data-rc-bind="depth"]').input_value() == "30"
    assert page.evaluate(_SOURCE, site_server) == _rewritten(
        _rewritten(original, "depth", 30), "measure", "AP"
    )
    page.wait_for_function(
        "document.querySelector('[data-rc-example] [data-rc-tables] caption')?.textContent"
        " === 'Pool of depth 30'",
        timeout=60_000,
    )
    assert "AP with the pool" in page.locator(f"{EXAMPLE} [data-rc-tables]").text_content()
    assert page.locator("[data-rc-share-restored]").is_visible()
    _after_run(page, lambda: _slide(page, "depth", 31))
    assert page.locator("[data-rc-share-restored]").count() == 0  # the state is the reader's now
    assert "#demo=" in page.url

    _reset(page)
    assert page.locator(f'{DEMO} [data-rc-bind="depth"]').input_value() == "10"
    assert page.evaluate(_SOURCE, site_server) == original
    assert "#demo=" not in page.url
    assert page.console_errors == []


def test_in_spanish_a_broken_binding_disables_the_controls_and_a_link_leads_back(page, site_server):
    """The Spanish pooling card (its notice's words), then the Spanish rank-correlation card,
    reached by instant navigation (the same runtime): its link's note leads back."""
    cards = visit_each(page, site_server, ["es/pooling/", "es/rank-correlation/"])
    next(cards)
    _ready(page)
    _break_a_binding_and_reset(page, site_server, "es", _view(page))

    next(cards)
    _ready(page)
    name, value, seen = MOVES["rank-correlation"]
    changes = {name: value}
    _open_link_and_go_back(
        page, site_server, "rank-correlation", "es", changes, seen["es"], _view(page)
    )
    assert page.console_errors == []

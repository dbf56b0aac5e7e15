"""Shared links in real Chromium: a demo's state lives in the URL hash and restores the same
numbers in a new page; a link's code lands in the editor and never runs by itself; a garbage or
malicious state is ignored with a short notice and no console error (web/share.js,
web/state_check.js, web/demo.js, web/example_keep.js).

A page load and a runtime boot cost seconds of CPU: a test walks one tab through the steps of
one story, holds the runtime off where its checks need none, and reads what the build wrote (a
demo's initial state and view) from the built HTML rather than from a page load."""

from __future__ import annotations

import base64
import html
import json
import re
from pathlib import Path
from typing import Any

import pytest
from demo_helpers import DEMO, READY, RESTORED, console_errors, link_value
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from rankcards.viz.lab import view as lab_view

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

EXAMPLE = "[data-rc-example]"
LIVE = f"document.querySelector('{DEMO}').dataset.rcState === 'live'"


def _shown(page: Any) -> dict[str, str]:
    pairs = page.eval_on_selector_all(
        f"{DEMO} [data-rc-view] [data-metric]",
        "els => els.map(e => [e.dataset.metric, e.dataset.value])",
    )
    return dict(pairs)


def _live(page: Any) -> None:
    page.locator(DEMO).scroll_into_view_if_needed()
    page.wait_for_function(READY, timeout=60_000)
    page.wait_for_function(LIVE)


def _after(page: Any, act: Any) -> None:
    page.evaluate(
        f"() => {{ window.__updated = new Promise(r => document.querySelector('{DEMO}')"
        ".addEventListener('rankcards:demo', r, {once: true})); }"
    )
    act()
    page.wait_for_function("window.__updated.then(() => true)")


def _slide(page: Any, value: str) -> None:
    """Move the demo's slider to ``value`` as a reader's drag does (one input event)."""
    slider = page.locator(f'{DEMO} input[type="range"]')
    script = "(e, v) => { e.value = v; e.dispatchEvent(new Event('input')); }"
    _after(page, lambda: slider.evaluate(script, value))


# The #demo= parameter the page's own modules make of the demo's current state (null: none).
LINK_OF_STATE = """() => Promise.all(
  ["demo.js", "share.js", "state_check.js"].map((name) => import(`/assets/rankcards/${name}`))
).then(([{ demoOf }, { encodeJSON }, { changesFrom }]) => {
  window.rcLinkOfState = () => {
    const section = document.querySelector("section[data-rc-demo]");
    const changes = changesFrom(demoOf(section).state, JSON.parse(section.dataset.rcInitial));
    return Object.keys(changes).length ? encodeJSON(changes) : null;
  };
})"""


def _linked(page: Any, present: bool = True) -> None:
    """Wait for the URL the last settled change writes (once the demo is quiet, share.js
    writeLinkSoon): the hash's #demo= is the demo's current state, or absent for the card's."""
    page.evaluate(LINK_OF_STATE)
    assert (page.evaluate("rcLinkOfState()") is not None) == present
    page.wait_for_function(
        "new URLSearchParams(location.hash.slice(1)).get('demo') === rcLinkOfState()"
    )


def _metrics(html_text: str) -> dict[str, str]:
    found = re.findall(r'data-metric="([^"]+)" data-value="([^"]+)"', html_text)
    return {html.unescape(name): html.unescape(value) for name, value in found}


def _built_demo(site: Path, path: str) -> tuple[dict[str, Any], dict[str, str]]:
    """The page's demo as the build wrote it: its initial state and the numbers its view shows."""
    text = (site / path / "index.html").read_text(encoding="utf-8")
    start = text.index(" data-rc-demo ")
    section = text[start : text.index("</section>", start)]
    initial = re.search(r'data-rc-initial="([^"]*)"', section)
    assert initial is not None, path
    return json.loads(html.unescape(initial.group(1))), _metrics(
        section[section.index("data-rc-view") :]
    )


def _paste_link(page: Any, link: str) -> None:
    """Put ``link`` (a hash, ``#demo=...``) in the open page's address bar, as a reader pasting
    a link does: Material renders the page again (instant navigation, same runtime). The
    demo left behind is marked, so the new one is told from it (``NEW_DEMO``)."""
    page.evaluate("document.querySelector('section[data-rc-demo]').dataset.rcLeft = ''")
    page.evaluate("(hash) => { location.hash = hash; }", link)
    page.wait_for_selector(NEW_DEMO, state="attached")


NEW_DEMO = "section[data-rc-demo]:not([data-rc-left])"


def test_a_demo_state_goes_into_the_url_and_comes_back_from_it(page, site_server, mrr_demo_values):
    """One reader on the MRR card: a change is written to the URL and going back to the card's
    state clears it; several changes make a link whose new page shows the same numbers; a link
    pasted into the open page applies its state with the note, which goes once the reader
    changes the demo."""
    page.goto(f"{site_server}en/mrr/")
    _live(page)
    initial = _shown(page)
    state = json.loads(page.get_attribute(DEMO, "data-rc-initial"))
    entries = page.evaluate("history.length")

    # Back to the initial state: the link is cleared.
    start = page.input_value(f'{DEMO} input[type="range"]')
    _slide(page, "1")
    _linked(page)
    assert "#demo=" in page.url
    _slide(page, start)
    _linked(page, present=False)

    # Changes of every kind: in the URL, and a new page from it shows the same numbers.
    _slide(page, "2")
    first = page.locator(f'{DEMO} [data-rc-list="0"] li').first
    _after(page, first.locator("[data-rc-doc]").click)
    second = page.locator(f'{DEMO} [data-rc-list="1"] li').first
    _after(page, second.locator('[data-rc-delta="1"]').click)
    changed = _shown(page)
    assert changed != initial
    _linked(page)
    url = page.url
    assert "#demo=" in url
    assert page.evaluate("history.length") == entries  # replaceState: no entry per change

    other = page.context.new_page()
    other.goto(url)
    _live(other)
    assert other.get_attribute(DEMO, "data-rc-shared") == "restored"
    assert _shown(other) == changed
    assert other.input_value(f'{DEMO} input[type="range"]') == "2"
    assert other.url == url
    other.close()

    # A link pasted into the open page: a navigation for Material's instant loading, the page
    # is rendered again and its demo starts from the link, as on a first visit.
    _paste_link(page, f"#demo={link_value({'k': 1})}")
    mrr = repr(mrr_demo_values({**state, "k": 1})["mean"])
    page.wait_for_function(
        f"(() => {{ const s = document.querySelector('{NEW_DEMO}');"
        " return s.dataset.rcState === 'live' && s.dataset.rcShared === 'restored'"
        f" && s.querySelector('[data-metric=mean]').dataset.value === '{mrr}'; }})()"
    )
    assert page.input_value(f'{DEMO} input[type="range"]') == "1"

    # The note of the link's state goes once the reader changes the demo.
    assert page.locator("[data-rc-share-restored]").is_visible()
    _slide(page, "3")
    assert page.locator("[data-rc-share-restored]").count() == 0  # the state is the reader's now
    _linked(page)
    assert "#demo=" in page.url
    assert console_errors(page) == []


def test_a_lab_link_restores_focus_ties_and_absent_queries(page, site_server, built_site):
    initial, _ = _built_demo(built_site, "en/r-precision")
    queries = [item["query"] for item in initial["queries"]]
    changes = {
        "focus": queries[1],
        "show_ties": True,
        "show_averaging": True,
        "tied": [f"{queries[1]}:1"],
        "absent": [queries[0]],
    }
    page.goto(f"{site_server}en/r-precision/#demo={link_value(changes)}")
    _live(page)
    assert page.get_attribute(DEMO, "data-rc-shared") == "restored"
    expected = _metrics(lab_view({**initial, **changes}, "en"))
    shown = _shown(page)
    assert {k: v for k, v in shown.items() if k in expected} == expected
    assert expected != _metrics(lab_view(initial, "en"))
    assert console_errors(page) == []


BAD = {
    "script": link_value({"k": "<script>alert(1)</script>"}),
    "wrong type": link_value({"k": "3"}),
    "unknown key": link_value({"k": 2, "onload": "alert(1)"}),
    "out of range": link_value({"k": 99}),
    "unknown docno": link_value(
        {"queries": [{"query": "q1", "ranking": ["<img src=x onerror=alert(1)>"], "relevant": []}]}
    ),
    "huge": link_value({"k": "9" * 30_000}),
    "not base64": "%3Cscript%3E!!",
    "not json": base64.urlsafe_b64encode(b"{k: 2").decode(),
    "not a mapping": link_value([1, 2, 3]),
}


@pytest.mark.parametrize("lang", ["en", "es"])
def test_garbage_and_malicious_states_are_ignored_with_a_notice(page, site_server, lang):
    """Each link opened in turn leaves the card's own state, a notice, and nothing of its own.
    The runtime's worker is held off until the last (a link's state starts a boot, and each
    page's checks need none of it): that page's demo then computes the card's state."""
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    notice = {"en": "not valid for this card", "es": "no es válido para esta ficha"}[lang]
    worker = "**/assets/rankcards/worker.js"
    page.route(worker, lambda route: None)  # never answered: the worker waits
    for index, (name, payload) in enumerate(BAD.items()):
        if index == len(BAD) - 1:
            page.unroute(worker)
        page.goto("about:blank")
        page.goto(f"{site_server}{lang}/mrr/#demo={payload}")
        page.wait_for_selector(f"{DEMO} [data-rc-share-notice]", state="visible")
        initial = json.loads(page.get_attribute(DEMO, "data-rc-initial"))
        assert page.get_attribute(DEMO, "data-rc-shared") == "invalid", name
        assert notice in page.text_content(f"{DEMO} [data-rc-share-notice]"), name
        assert page.input_value(f'{DEMO} input[type="range"]') == str(initial["k"]), name
        assert "demo=" not in page.url, name  # the link's state left the address bar
        assert page.evaluate("document.querySelectorAll('[data-rc-demo] script, img').length") == 0
    page.locator(DEMO).scroll_into_view_if_needed()
    page.wait_for_function(READY, timeout=60_000)
    page.wait_for_function(LIVE)
    assert dialogs == []
    assert console_errors(page) == []


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_shared_link_scrolls_to_its_demo_says_so_and_leads_back(
    page, site_server, mrr_demo_values, lang
):
    """A valid link is not reported as invalid; in Spanish, the Share button then offers the
    link selected where there is no clipboard."""
    said, back, done = RESTORED[lang]
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(f"{site_server}{lang}/mrr/#demo={link_value({'k': 1})}")
    page.wait_for_function(READY, timeout=60_000)
    page.wait_for_function(LIVE)
    # the demo, far down the card, is on screen at once: at the top, under the sticky header
    top = page.locator(DEMO).evaluate("s => s.getBoundingClientRect().top")
    assert page.evaluate("scrollY") > 300 and 0 <= top <= 150, top
    assert page.get_attribute(DEMO, "data-rc-shared") == "restored"
    assert page.locator(f"{DEMO} [data-rc-share-notice]").is_hidden()  # not reported invalid
    notice = page.locator(f"{DEMO} [data-rc-share-restored]")
    assert notice.is_visible()
    status = notice.get_by_role("status")  # a polite live region: read out when it fills
    page.wait_for_function(
        "(text) => document.querySelector('[data-rc-share-restored] [role=status]')"
        ".textContent === text",
        arg=said,
    )
    assert status.inner_text() == said
    state = json.loads(page.get_attribute(DEMO, "data-rc-initial"))
    assert _shown(page)["mean"] == repr(mrr_demo_values({**state, "k": 1})["mean"])

    _after(page, notice.get_by_role("button", name=back).click)
    assert _shown(page)["mean"] == repr(mrr_demo_values(state)["mean"])
    assert page.input_value(f'{DEMO} input[type="range"]') == str(state["k"])
    assert "demo=" not in page.url
    assert notice.count() == 0
    assert page.evaluate("document.activeElement.dataset.rcShareButton") == ""  # Share, next
    assert page.text_content(f"{DEMO} [data-rc-share-said]") == done
    assert console_errors(page) == []
    if lang == "es":  # the Share button without a clipboard: the link, selected, to copy
        _slide(page, "3")
        page.evaluate("delete Navigator.prototype.clipboard")
        button = page.locator(f"{DEMO} [data-rc-share-button]")
        assert button.inner_text() == "Compartir este estado"
        button.click()
        field = page.locator(f"{DEMO} [data-rc-share-link]")
        field.wait_for(state="visible")
        assert field.input_value() == page.url
        assert page.evaluate("document.activeElement.matches('[data-rc-share-link]')")
        assert "Ctrl+C" in page.text_content(f"{DEMO} [data-rc-share-said]")


def test_share_with_code_gives_a_link_whose_code_lands_in_the_editor_and_runs_only_on_run(
    page, site_server
):
    """The example's Share with code makes a link with the demo's state and the code; the
    page it opens shows that code in the editor and never runs it by itself: only Run does."""
    page.goto(f"{site_server}en/mrr/#demo={link_value({'k': 2})}")
    _live(page)  # the page settled (its scroll to the demo done) before the reader edits
    block = page.locator(EXAMPLE).first
    # pointing at the code mounts the editor (unless the ready runtime already did: no click)
    block.locator("[data-rc-source]").dispatch_event("pointerdown")
    page.wait_for_selector(f"{EXAMPLE}[data-rc-editor='ready']")
    page.locator(f"{EXAMPLE} .cm-content").click()
    page.keyboard.press("Control+a")
    code = "print('from a shared link', 2 + 2)\n"
    page.keyboard.type(code)
    page.evaluate("delete Navigator.prototype.clipboard")
    block.locator(".rc-example__button--share").click()
    field = page.locator("[data-rc-share-code-link]")
    try:
        field.wait_for(state="visible")
    except PlaywrightTimeout:  # say how far the click got: it once timed out, unexplained
        said = block.locator("[data-rc-share-code-said]").text_content()
        raise AssertionError(
            f"no link field after Share with code: status line {said!r}, "
            f"errors {console_errors(page)}"
        ) from None
    link = field.input_value()
    assert "demo=" in link and "code=" in link

    other = page.context.new_page()
    other.goto(link)
    other.wait_for_selector('[data-rc-shared-code][data-state="loaded"]')
    shared = other.locator(EXAMPLE).first
    assert shared.locator("[data-rc-source] code").text_content() == code
    assert other.input_value(f'{DEMO} input[type="range"]') == "2"
    shared.scroll_into_view_if_needed()
    other.wait_for_function(READY, timeout=60_000)
    other.wait_for_function(LIVE)  # the page's Python has run its demo: still no run of the code
    assert shared.locator("[data-rc-output]").text_content() == ""
    assert shared.get_attribute("data-rc-live") is None
    shared.locator(".rc-example__button--run").click()
    other.wait_for_function(
        "document.querySelector('[data-rc-output]').textContent.includes('from a shared link 4')"
    )
    assert console_errors(page) == []


def test_code_a_link_cannot_carry_keeps_the_cards_example(page, site_server, examples):
    """Unreadable code in a link leaves the card's example with a notice; code too long for a
    link (a kept edit) is not offered as one."""
    [original] = [e.source for e in examples if e.url == "es/mrr/"]
    page.goto(f"{site_server}es/mrr/#code=bm90LWRlZmxhdGU")
    page.wait_for_selector('[data-rc-shared-code][data-state="invalid"]')
    assert "No se pudo leer el código" in page.text_content("[data-rc-shared-code]")
    assert page.locator(f"{EXAMPLE} [data-rc-source] code").text_content() == original
    page.wait_for_function("!location.hash.includes('code=')")
    assert console_errors(page) == []

    page.evaluate(
        """(base) => import(base + 'assets/rankcards/kept_edits.js').then((m) => {
             const original = document.querySelector('[data-rc-source] code').textContent;
             let x = 2463534242;  // xorshift32: text that deflate cannot shrink much
             const noise = Array.from({length: 12000}, () => {
               x ^= x << 13; x ^= x >>> 17; x ^= x << 5;
               return (x >>> 0).toString(36);
             });
             m.saveEdit('mrr', 'es', '# ' + noise.join(''), original);
           })""",
        site_server,
    )
    page.reload()
    page.locator(f"{EXAMPLE} .rc-example__button--share").click()
    said = page.locator("[data-rc-share-code-said]")
    said.wait_for(state="visible")
    page.wait_for_function(
        "document.querySelector('[data-rc-share-code-said]').textContent.includes('Copiar')"
    )
    assert "demasiado largo" in said.text_content()
    assert page.locator("[data-rc-share-code-link]").is_hidden()


def test_a_state_the_cards_python_refuses_falls_back_to_the_cards_state(
    page, site_server, built_site
):
    """Well-formed but naming a document the gold dataset does not have: only the card's own
    Python knows, so its refusal sends the demo back to the card's state with the notice."""
    _, initial = _built_demo(built_site, "en/gold-dataset")  # the card's state, as built
    page.goto(f"{site_server}en/gold-dataset/#demo={link_value({'edits': {'q01/no-such-doc': 2}})}")
    _live(page)
    notice = page.locator(f"{DEMO} [data-rc-share-notice]")
    notice.wait_for(state="visible")
    assert notice.get_attribute("data-reason").startswith("compute:")
    assert page.get_attribute(DEMO, "data-rc-shared") == "invalid"
    page.wait_for_function(LIVE)
    assert {k: v for k, v in _shown(page).items() if "time" not in k} == {
        k: v for k, v in initial.items() if "time" not in k
    }
    assert page.locator(f"{DEMO} [data-rc-demo-error]").is_hidden()
    assert "demo=" not in page.url
    assert console_errors(page) == []


# Changes the slider and, as soon as the recomputed view is in (the demo's own event, before
# the URL's write settles: share.js writeLinkSoon), presses a share button: what it copies must
# carry the change. Returns the URL's hash as it was when the button was pressed.
SHARE_AT_ONCE = """([slider, button, value]) => new Promise((resolve) => {
  const demo = slider.closest("section[data-rc-demo]");
  const pressAtOnce = () => { button.click(); resolve(location.hash); };
  demo.addEventListener("rankcards:demo", pressAtOnce, { once: true });
  slider.value = value;
  slider.dispatchEvent(new Event("input", { bubbles: true }));
})"""


def _demo_state(link: str) -> Any:
    encoded = re.search(r"[#&]demo=([A-Za-z0-9_-]+)", link)
    assert encoded, link
    return json.loads(
        base64.urlsafe_b64decode(encoded.group(1) + "=" * (-len(encoded.group(1)) % 4))
    )


def test_share_right_after_a_change_copies_that_change(page, site_server):
    """Share, then Share with code, each pressed in the task that shows a change's view (before
    the URL's own write): the link each gives carries that change."""
    page.goto(f"{site_server}en/mrr/")
    _live(page)
    block = page.locator(EXAMPLE).first
    # pointing at the code mounts the editor (unless the ready runtime already did: no click)
    block.locator("[data-rc-source]").dispatch_event("pointerdown")
    page.wait_for_selector(f"{EXAMPLE}[data-rc-editor='ready']")
    _slide(page, "4")  # a first change: the sharing modules are in
    _linked(page)  # and its write is done: the only write waiting below is the next change's
    page.evaluate("delete Navigator.prototype.clipboard")
    slider = page.locator(f'{DEMO} input[type="range"]').element_handle()
    share = page.locator(f"{DEMO} [data-rc-share-button]").element_handle()
    hash_when_pressed = page.evaluate(SHARE_AT_ONCE, [slider, share, "2"])
    assert "demo=" not in hash_when_pressed or _demo_state(hash_when_pressed) != {"k": 2}
    field = page.locator(f"{DEMO} [data-rc-share-link]")
    field.wait_for(state="visible")
    assert _demo_state(field.input_value()) == {"k": 2}
    assert field.input_value() == page.url

    with_code = block.locator(".rc-example__button--share").element_handle()
    hash_when_pressed = page.evaluate(SHARE_AT_ONCE, [slider, with_code, "3"])
    assert "demo=" not in hash_when_pressed or _demo_state(hash_when_pressed) != {"k": 3}
    field = page.locator("[data-rc-share-code-link]")
    field.wait_for(state="visible")
    link = field.input_value()
    assert "code=" in link and _demo_state(link) == {"k": 3}

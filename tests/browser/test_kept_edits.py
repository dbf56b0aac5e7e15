"""Kept edits in real Chromium: an edited example survives a reload (per card and language)
with an "Edited" mark, Reset forgets it, and an edit made on an older version of the example
is reported (web/kept_edits.js, web/example_keep.js, web/editor.js)."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

EXAMPLE = "[data-rc-example]"
KEY = "rankcards:edit:{lang}:mrr"


def _code(page: Any) -> str:
    return page.locator(f"{EXAMPLE} [data-rc-source] code").text_content()


def _edit(page: Any, text: str) -> None:
    page.locator(f"{EXAMPLE} [data-rc-source]").click()
    page.wait_for_selector(f"{EXAMPLE}[data-rc-editor='ready']")
    page.locator(f"{EXAMPLE} .cm-content").click()
    page.keyboard.press("Control+End")
    page.keyboard.type(text)


def test_an_edit_survives_a_reload_and_reset_forgets_it(page, site_server):
    page.goto(f"{site_server}en/mrr/")
    original = _code(page)
    mark = page.locator(f"{EXAMPLE} [data-rc-edited-mark]")
    assert mark.is_hidden()
    _edit(page, "\nprint('kept')")
    page.wait_for_selector(f"{EXAMPLE}[data-rc-edited='true']")
    assert mark.is_visible() and mark.inner_text() == "Edited"

    page.reload()
    assert _code(page) == original + "\nprint('kept')"
    assert mark.is_visible()
    assert page.locator(f"{EXAMPLE} [data-rc-output]").text_content() == ""  # not the original's
    assert page.locator(f"{EXAMPLE} [data-rc-edit-stale]").is_hidden()

    page.locator(f"{EXAMPLE} .rc-example__button--reset").click()
    assert _code(page) == original
    assert mark.is_hidden()
    assert page.evaluate(f"localStorage.getItem('{KEY.format(lang='en')}')") is None
    page.reload()
    assert _code(page) == original
    assert mark.is_hidden()
    assert page.console_errors == []


def test_edits_are_kept_per_language_and_editing_back_forgets(page, site_server):
    page.goto(f"{site_server}es/mrr/")
    original = _code(page)
    _edit(page, "#")
    page.wait_for_selector(f"{EXAMPLE}[data-rc-edited='true']")
    assert page.locator(f"{EXAMPLE} [data-rc-edited-mark]").inner_text() == "Editado"
    page.goto(f"{site_server}en/mrr/")
    assert page.get_attribute(EXAMPLE, "data-rc-edited") == "false"
    page.goto(f"{site_server}es/mrr/")
    assert _code(page) == original + "#"
    _edit(page, "")
    page.keyboard.press("Backspace")  # back to the original: nothing left to keep
    page.wait_for_selector(f"{EXAMPLE}[data-rc-edited='false']")
    assert page.evaluate(f"localStorage.getItem('{KEY.format(lang='es')}')") is None


def test_an_edit_of_an_older_version_is_reported(page, site_server):
    page.goto(f"{site_server}en/mrr/")
    stored = '{"source": "print(\'old\')\\n", "base": "0123456789abcdef"}'
    page.evaluate(f"(v) => localStorage.setItem('{KEY.format(lang='en')}', v)", stored)
    page.reload()
    stale = page.locator(f"{EXAMPLE} [data-rc-edit-stale]")
    assert stale.is_visible()
    assert "older version" in stale.inner_text()
    assert _code(page) == "print('old')\n"
    page.locator(f"{EXAMPLE} .rc-example__button--reset").click()
    assert stale.is_hidden()
    page.reload()
    assert stale.is_hidden()
    assert _code(page) != "print('old')\n"


def test_a_kept_edit_of_the_current_version_is_not_reported_as_old(page, site_server):
    page.goto(f"{site_server}es/mrr/")
    page.evaluate(
        """(base) => import(base + 'assets/rankcards/kept_edits.js').then((m) => {
             const original = document.querySelector('[data-rc-source] code').textContent;
             m.saveEdit('mrr', 'es', original + '# mío', original);
           })""",
        site_server,
    )
    page.reload()
    assert page.locator(f"{EXAMPLE} [data-rc-edited-mark]").is_visible()
    assert page.locator(f"{EXAMPLE} [data-rc-edit-stale]").is_hidden()
    assert _code(page).endswith("# mío")

"""Every card's runnable example in real Chromium: loads clean, runs to its build-time output.

The build-time output is read from the built HTML (what a reader without JavaScript sees); the
browser must reproduce it exactly for the unedited example, and CPython's runner too. Those are
one runner compared with itself: that the output states the right results (``equal: True``, the
numbers the module computes) is tested in tests/content/test_example_claims.py, and here the page
must show those very results (a broken example fails there, and its page here). The one thing an
example may print differently on each run is a value it marks as measured (a timing or a
throughput: ``rankcards.runner.MEASURED``); the comparisons leave those out.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

import rankcards
from rankcards.runner import run_example, without_measured

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]


def _editor_text(block: Any) -> str:
    """The editor's document, one CodeMirror line element per line."""
    return "\n".join(block.locator(".cm-line").all_text_contents())


NAMES = {
    "en": ["Run", "Stop", "Reset", "Copy", "Share with code"],
    "es": ["Ejecutar", "Detener", "Restablecer", "Copiar", "Compartir con el código"],
}


def _runtime(page: Any, base: str) -> None:
    page.evaluate(
        f"import('{base}assets/rankcards/runtime.js').then(m => {{ window.rt = m.runtime; }})"
    )


def test_every_unedited_example_prints_its_build_time_output(page, site_server, examples):
    page.goto(site_server + examples[0].url)
    _runtime(page, site_server)
    for example in examples:
        expected = without_measured(example.output)
        assert without_measured(run_example(example.source).output) == expected, example.url
        assert not re.search(r"\bFalse\b|Traceback", example.output), example.url
        live = page.evaluate("(source) => rt.run(source)", example.source)
        assert without_measured(live["output"]) == expected, example.url
        assert live["reason"] is None, example.url


@pytest.mark.parametrize("lang", ["en", "es"])
def test_run_button_replaces_the_build_time_output_with_the_same_text(
    page, site_server, examples, lang
):
    example = next(e for e in examples if e.lang == lang)
    page.goto(site_server + example.url)
    block = page.locator("[data-rc-example][data-rc-enhanced]").first
    output = block.locator("[data-rc-output]")
    assert output.text_content() == example.output  # before any run: the build's output
    log = block.locator("[role=log]")
    assert log.get_attribute("aria-label") == {"en": "Output", "es": "Salida"}[lang]
    block.get_by_role("button", name=NAMES[lang][0]).click()
    page.wait_for_function(
        "document.querySelector('[data-rc-example]').dataset.rcLive &&"
        " !document.querySelector('[data-rc-example]').dataset.rcRunning"
    )
    assert without_measured(output.text_content() or "") == without_measured(example.output)
    ready = {"en": "Python ready", "es": "Python listo"}[lang]
    status = block.locator("[data-rc-status]").inner_text()
    assert status == f"{ready} · rankcards {rankcards.__version__}"


def test_keyboard_runs_and_leaves_the_editor(page, site_server, examples):
    example = next(e for e in examples if e.lang == "es")
    page.goto(site_server + example.url)
    block = page.locator("[data-rc-example][data-rc-enhanced]").first
    block.locator("[data-rc-source]").click()  # the code block becomes the editor, focused
    page.wait_for_function("document.activeElement.classList.contains('cm-content')")
    page.keyboard.press("Control+a")
    page.keyboard.type("print('hola')\n")
    page.keyboard.press("Tab")  # indents: focus stays in the editor
    assert page.evaluate("document.activeElement.classList.contains('cm-content')")
    page.keyboard.press("Control+Enter")
    page.wait_for_function(
        "document.querySelector('[data-rc-example] [data-rc-output]').textContent === 'hola\\n'"
    )
    # The output can arrive before the run ends; Run is enabled (the next Tab stop) once it has.
    page.wait_for_function("!document.querySelector('[data-rc-example]').dataset.rcRunning")
    page.keyboard.press("Escape")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.textContent") == "Ejecutar"
    block.get_by_role("button", name="Restablecer").click()
    assert _editor_text(block) == example.source


LEAVE = {"en": "Esc, then Tab: leave the editor", "es": "Esc y luego Tab: salir del editor"}


def _bound_card(site: Path) -> str:
    """The first card whose demo is bound to its example (its editor is the same one)."""
    for path in sorted((site / "en").glob("*/index.html")):
        if "data-rc-bound" in path.read_text(encoding="utf-8"):
            return path.parent.name
    raise AssertionError("no card with an example-bound demo")


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_editor_says_how_to_leave_it_while_it_has_focus(page, site_server, built_site, lang):
    """Tab indents inside the editor: a line under it says how to leave (Esc, then Tab), shown
    while it has focus and given as its accessible description; the exercise's editor and an
    example-bound demo's example too."""
    page.route("**/assets/pyodide/**", lambda route: route.abort())  # the editor needs no Python
    for slug, blocks in (
        ("mrr", ("[data-rc-example][data-rc-enhanced]", "[data-rc-exercise]")),
        (_bound_card(built_site), ("[data-rc-example][data-rc-enhanced]",)),
    ):
        page.goto(f"{site_server}{lang}/{slug}/")
        for selector in blocks:
            block = page.locator(selector).first
            hint = block.locator(".rc-editor-hint")
            block.locator("[data-rc-source]").focus()  # the code becomes the editor, focused
            page.wait_for_function("document.activeElement.classList.contains('cm-content')")
            assert hint.is_visible() and hint.inner_text() == LEAVE[lang], slug
            described = page.evaluate(
                "document.getElementById(document.activeElement.getAttribute('aria-describedby'))"
                ".textContent"
            )
            assert described == LEAVE[lang], slug
            editor = block.locator(".cm-editor").bounding_box()
            under = hint.bounding_box()
            assert 0 <= under["y"] - (editor["y"] + editor["height"]) <= 12, slug  # right under
            page.keyboard.press("Escape")
            page.keyboard.press("Tab")
            assert not page.evaluate("document.activeElement.classList.contains('cm-content')")
            hint.wait_for(state="hidden")  # no clutter once the reader has left


def test_without_javascript_the_code_and_its_output_are_shown(browser, site_server, examples):
    example = examples[0]
    context = browser.new_context(java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto(site_server + example.url)
        block = page.locator("[data-rc-example]").first
        assert block.locator("[data-rc-source]").is_visible()
        assert block.locator("[data-rc-source]").text_content() == example.source
        assert block.locator("[data-rc-output]").text_content() == example.output
        assert not block.locator("[data-rc-toolbar]").is_visible()
    finally:
        context.close()


def test_editor_follows_the_material_palette(page, site_server, examples):
    page.goto(site_server + examples[0].url)
    # Pointing at the code mounts the editor even before the runtime is ready.
    page.route("**/assets/pyodide/**", lambda route: route.abort())
    page.locator("[data-rc-example][data-rc-enhanced] [data-rc-source]").first.hover()
    editor = page.locator("[data-rc-example] .cm-editor").first
    background = "e => getComputedStyle(e).backgroundColor"
    code_background = "getComputedStyle(document.body).getPropertyValue('--md-code-bg-color')"
    page.evaluate("document.body.setAttribute('data-md-color-scheme', 'default')")
    light = editor.evaluate(background)
    page.evaluate("document.body.setAttribute('data-md-color-scheme', 'slate')")
    dark = editor.evaluate(background)
    assert light != dark
    assert page.evaluate(code_background).strip() != ""

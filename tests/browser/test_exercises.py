"""Exercises ("Practice") in real Chromium: Check runs the checker in the Pyodide worker.

A wrong answer fails with its first failing case, an exception is trimmed to the reader's code,
Stop ends a runaway answer, a right one passes and stays solved after a reload (marked on the
card's title and in the glossary), hints unlock one by one.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from playwright.sync_api import expect

from rankcards import exercises

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

BOOT_MS = 180_000  # a first boot of Pyodide on a loaded two-core machine
CHECK_MS = 60_000  # a check, once the runtime is up

RIGHT = """def reciprocal_rank(ranking, relevant):
    for position, doc in enumerate(ranking, start=1):
        if doc in relevant:
            return 1 / position
    return 0.0
"""
OFF_BY_ONE = RIGHT.replace("start=1", "start=2")
# Right, but for an empty ranking (the fifth named case).
RAISES = RIGHT.replace("\n    for", "\n    first = ranking[0]\n    for")
LOOPS = "def reciprocal_rank(ranking, relevant):\n    while True:\n        pass\n"


def _exercise(page: Any, base: str, path: str) -> Any:
    page.goto(base + path)
    page.locator("[data-rc-exercise]").scroll_into_view_if_needed()  # exercise.js loads when near
    block = page.locator("[data-rc-exercise][data-rc-enhanced]")
    block.wait_for()
    return block


def _answer(page: Any, block: Any, code: str) -> None:
    """Replace the editor's text with ``code`` (inserted, so no auto-indent is added)."""
    block.locator("[data-rc-source]").click()  # upgrades the code block to the editor
    page.wait_for_selector("[data-rc-exercise][data-rc-editor=ready]", timeout=BOOT_MS)
    block.locator(".cm-content").click()
    page.keyboard.press("Control+a")
    page.keyboard.insert_text(code)


def _check(page: Any, block: Any, state: str) -> Any:
    """Press Check and wait for its result (any of pass, fail, error: a wrong one fails here
    with its text, not as a time-out); it must be ``state``."""
    check = block.locator(".rc-exercise__button--check")
    expect(check).to_be_enabled()  # a press on a disabled Check is ignored
    check.click()  # marks the exercise running at once, until its result is shown
    page.wait_for_selector("[data-rc-exercise]:not([data-rc-running])", timeout=CHECK_MS)
    result = block.locator("[data-rc-exercise-result]")
    shown = result.get_attribute("data-state")
    if shown is None:  # no result at all: Python did not boot (its status line says why)
        status = block.locator("[data-rc-status]").inner_text()
        raise AssertionError(f"no result; runtime status {status!r}, errors {page.console_errors}")
    assert shown == state, f"{shown}: {result.inner_text()}"
    return result


def test_a_wrong_answer_fails_with_its_first_failing_case(page, site_server):
    block = _exercise(page, site_server, "en/mrr/")
    names = block.locator("[data-rc-toolbar] button").all_inner_texts()
    assert names == ["Check", "Stop", "Reset", "Hint (1 of 3)", "Show the solution"]
    assert "this is practice, not an exam" in block.locator("[data-rc-exercise-note]").inner_text()
    assert block.locator("[data-rc-solution]").is_hidden()
    _answer(page, block, OFF_BY_ONE)
    assert block.locator("[data-rc-source]").is_hidden()  # the editor replaced the code block
    result = _check(page, block, "fail")
    text = result.inner_text()
    assert "Wrong value on the case “the first document is relevant”" in text
    assert "reciprocal_rank(['d1', 'd2', 'd3'], ['d1'])" in text
    assert result.locator("dd").nth(1).inner_text() == "1.0"  # expected
    assert result.locator("dd").nth(2).inner_text() == "0.5"  # the reader's value
    assert "Stuck? Unlock a hint, or show the solution." in text
    block.locator(".rc-exercise__button--solution").click()
    assert "return 1 / position" in block.locator("[data-rc-solution]").inner_text()
    assert page.evaluate("localStorage.getItem('rankcards:exercise:mrr')") is None
    block.locator(".rc-exercise__button--reset").click()
    lines = block.locator(".cm-line").all_text_contents()
    assert lines == ["def reciprocal_rank(ranking, relevant):", "    return 0.0", ""]
    assert page.console_errors == []


def test_an_exception_is_shown_trimmed_to_the_readers_code_in_spanish(page, site_server):
    block = _exercise(page, site_server, "es/mrr/")
    assert block.locator(".rc-exercise__button--check").inner_text() == "Comprobar"
    _answer(page, block, RAISES)
    result = _check(page, block, "error")
    text = result.inner_text()
    assert "Tu función lanzó una excepción en el caso «ranking vacío»" in text
    assert "reciprocal_rank([], ['d1'])" in text
    assert 'File "<exercise>", line 2, in reciprocal_rank' in text
    assert "IndexError: list index out of range" in text
    assert "exercises.py" not in text and "runner.py" not in text


def test_stop_ends_a_check_that_never_returns(page, site_server):
    block = _exercise(page, site_server, "en/mrr/")
    _answer(page, block, LOOPS)
    block.locator(".rc-exercise__button--check").click()
    block.locator(".rc-exercise__result--running").wait_for(timeout=CHECK_MS)
    block.locator(".rc-exercise__button--stop").click()  # enabled once the run is posted
    result = block.locator("[data-rc-exercise-result][data-state=error]")
    result.wait_for(timeout=BOOT_MS)
    assert result.inner_text() == "Stopped."


def test_a_right_answer_passes_and_stays_solved_after_a_reload(page, site_server):
    block = _exercise(page, site_server, "en/mrr/")
    title_mark = page.locator("h1 [data-rc-solved-mark]")
    assert title_mark.count() == 0
    _answer(page, block, RIGHT)
    result = _check(page, block, "pass")
    assert result.inner_text() == (
        "Right: your function gives the reference's value on all 205 cases "
        "(5 edge cases and 200 random rankings)."
    )
    assert title_mark.count() == 1
    page.reload()
    block = page.locator("[data-rc-exercise][data-rc-enhanced]")
    assert block.get_attribute("data-rc-solved") == "true"
    assert page.locator("h1 [data-rc-solved-mark]").get_attribute("aria-label") == "Solved"
    # Remembered per card, in both languages; the glossary marks it, and only it.
    page.goto(site_server + "es/glossary/")
    marked = page.locator(".rc-glossary dt:has([data-rc-solved-mark])")
    assert marked.count() == 1
    assert marked.locator("a[data-rc-glossary]").get_attribute("href").rstrip("/").endswith("mrr")
    assert marked.locator("[data-rc-solved-mark]").get_attribute("title") == "Resuelto"
    assert page.console_errors == []


def test_hints_unlock_one_by_one(page, site_server):
    block = _exercise(page, site_server, "es/ndcg/")
    hints = block.locator("[data-rc-hint]")
    hint_button = block.locator(".rc-exercise__button--hint")
    assert hints.count() == 3
    assert [hints.nth(i).is_visible() for i in range(3)] == [False, False, False]
    for shown in (1, 2, 3):
        hint_button.click()
        assert [hints.nth(i).is_visible() for i in range(3)] == [i < shown for i in range(3)]
    assert hint_button.inner_text() == "No hay más pistas"
    assert hint_button.is_disabled()
    assert "math.log2" in hints.nth(0).inner_text()


def test_random_cases_are_the_same_in_the_browser_as_at_build_time(page, site_server):
    """Pyodide draws the random rankings CPython drew: the same first failing one, same values."""
    # Right on every named case (none has an empty list of relevant documents).
    answer = RIGHT.replace("return 0.0", "return 1.0 if not relevant else 0.0")
    block = _exercise(page, site_server, "en/mrr/")
    spec = json.loads(block.get_attribute("data-rc-exercise-spec") or "")
    expected = exercises.check(answer, spec)
    failure = expected["failure"]
    assert expected["state"] == "fail" and failure["case"]["random"] is not None
    _answer(page, block, answer)
    text = _check(page, block, "fail").inner_text()
    number = failure["case"]["random"]
    assert f"Wrong value on random ranking {number} of 200 ({number + 5 - 1} cases" in text
    assert failure["call"] in text


def test_one_case_passed_reads_in_the_singular_in_spanish(page, site_server):
    # Right on the first named case only: one case passed before the failing one.
    answer = RIGHT.replace("return 1 / position", "return 1.0 if position == 1 else 0.5")
    block = _exercise(page, site_server, "es/mrr/")
    _answer(page, block, answer)
    text = _check(page, block, "fail").inner_text()
    assert "«el primer relevante está en la posición 3» (antes pasó 1 caso)" in text
    assert "pasaron 1 casos" not in text

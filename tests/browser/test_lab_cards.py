"""The measure lab's newer controls on the real cards, in Chromium: each one moves, the page's
numbers equal what :func:`rankcards.viz.lab.view` computes in CPython for the same state (the
view the unit tests hold to rankcards.metrics), and the ranked lists are one tab stop each.

* parameter sliders: RBP's p, F's beta, the PR curve's recall level (its figure redrawn);
* conventions: micro against macro (averaging card), unjudged against judged non-relevant (bpref);
* unjudged documents: a press cycles ? -> 0 -> 1 -> ? (Judged@k card), shown in words and a mark;
* keyboard: Tab stops from the top of a lab card to its editor, arrows inside a ranking, Enter
  changes a label, Alt+Down moves a document, in both languages.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from demo_helpers import DEMO, console_errors, open_card_demo, shown_numbers, state_after

from rankcards.viz.lab import view

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

_METRIC = re.compile(r'data-metric="([^"]*)" data-value="([^"]*)"')


def _module(state: dict[str, Any], lang: str) -> dict[str, float]:
    return {name: float(value) for name, value in _METRIC.findall(view(state, lang))}


def _slide(page: Any, bind: str, *keys: str) -> dict[str, Any]:
    slider = page.locator(f'{DEMO} input[data-rc-bind="{bind}"]')
    slider.focus()
    state: dict[str, Any] = {}
    for key in keys:
        state = state_after(page, lambda key=key: page.keyboard.press(key))
    return state


@pytest.mark.parametrize(
    ("slug", "bind", "key", "value", "measure"),
    [
        ("rbp", "param_p", "End", 0.95, "RBP(p=0.95)"),
        ("f1-at-k", "param_beta", "End", 3, "F(beta=3.0)@5"),
        ("relevance-judgments", "param_rel", "Home", 1, "P(rel=1)@5"),
    ],
)
def test_a_parameter_slider_moves_the_mean_to_the_module_value(
    card_tab: Any, slug: str, bind: str, key: str, value: float, measure: str
) -> None:
    page = open_card_demo(card_tab, "en", slug, timeout=120_000)
    before = shown_numbers(page, "[data-metric][data-value]")["mean"]
    state = _slide(page, bind, key)
    assert state[bind] == value
    assert page.get_attribute(f"{DEMO} .rc-lab", "data-measure") == measure
    shown = shown_numbers(page, "[data-metric][data-value]")
    assert shown == _module(state, "en")
    assert shown["mean"] != before
    assert console_errors(page) == []


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_pr_curve_redraws_at_the_readers_recall_level(card_tab: Any, lang: str) -> None:
    page = open_card_demo(card_tab, lang, "precision-recall-curve", timeout=120_000)
    level = {"en": "your recall level r = ", "es": "tu nivel de exhaustividad r = "}[lang]
    assert f"{level}0.5" in page.text_content(f"{DEMO} .rc-lab-curve desc")
    state = _slide(page, "param_recall", *["ArrowRight"] * 4)
    assert state["param_recall"] == 0.9
    shown = shown_numbers(page, "[data-metric][data-value]")
    assert shown == _module(state, lang) and shown["mean"] == 0.35  # the card's 0.35 at 0.9
    desc = page.text_content(f"{DEMO} .rc-lab-curve desc")
    assert f"{level}0.9" in desc and "(0.9, 0.35)" in desc
    assert console_errors(page) == []


def test_micro_against_macro_and_unjudged_against_judged(card_tab: Any) -> None:
    page = open_card_demo(card_tab, "es", "averaging-over-queries", timeout=120_000)
    state = state_after(page, page.locator(f'{DEMO} [data-rc-bind="show_micro"]').check)
    shown = shown_numbers(page, "[data-metric][data-value]")
    assert shown == _module(state, "es")
    assert (shown["micro:default"], shown["micro:other"]) == (shown["mean"], 5 / 7)
    assert "micro: recuentos sumados, 5 / 7" in page.text_content(f"{DEMO} .rc-lab-conventions")

    page = open_card_demo(card_tab, "en", "bpref", timeout=120_000)
    state = state_after(page, page.locator(f'{DEMO} [data-rc-bind="show_unjudged"]').check)
    shown = shown_numbers(page, "[data-metric][data-value]")
    assert shown == _module(state, "en")
    assert shown["unjudged:default"] == pytest.approx(2 / 3)  # the card's 0.667 and 0.333
    assert shown["unjudged:other"] == pytest.approx(1 / 3)
    assert console_errors(page) == []


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_press_cycles_unjudged_zero_one_unjudged(card_tab: Any, lang: str) -> None:
    page = open_card_demo(card_tab, lang, "judged-at-k", timeout=120_000)
    item = page.locator(f'{DEMO} [data-rc-list="0"] li[data-doc="n1"]')
    button = item.locator("[data-rc-doc]")
    words = {
        "en": [": unjudged", ": not relevant", ": relevant"],
        "es": [": sin juzgar", ": no relevante", ": relevante"],
    }[lang]
    assert item.get_attribute("data-grade") == "unjudged"
    assert item.locator(".rc-rl-grade").text_content() == "?"  # a text mark, not colour only
    assert button.text_content().replace(" ", "").strip() == f"n1{words[0]}?".replace(" ", "")
    means = [shown_numbers(page, "[data-metric][data-value]")["mean"]]
    for mark, label, said in (
        ("0", "0", words[1]),
        ("1", "1", words[2]),
        ("?", "unjudged", words[0]),
    ):
        state = state_after(page, button.click)
        assert item.get_attribute("data-grade") == label
        assert item.locator(".rc-rl-grade").text_content() == mark
        assert item.locator(".rc-rl-words").text_content() == said
        shown = shown_numbers(page, "[data-metric][data-value]")
        assert shown == _module(state, lang)
        means.append(shown["mean"])
    assert means == [0.6, 0.65, 0.65, 0.6]  # q1's n1 judged (0 or 1) counts, unjudged not
    assert (
        state["queries"][0]["unjudged"][-1] == "n1" and "n1" not in state["queries"][0]["relevant"]
    )
    assert console_errors(page) == []


def _tab_stops_to_the_editor(page: Any) -> list[dict[str, Any]]:
    """Press Tab from the top of the page until the focus reaches the example's editor."""
    page.evaluate("() => { document.activeElement?.blur(); window.scrollTo(0, 0); }")
    stops: list[dict[str, Any]] = []
    for _ in range(200):
        page.keyboard.press("Tab")
        stops.append(
            page.evaluate(
                """() => { const e = document.activeElement;
                  return {demo: !!e.closest('section[data-rc-demo]'),
                          list: e.closest('[data-rc-list]')?.dataset.rcList ?? null,
                          editor: !!e.closest('.cm-editor')}; }"""
            )
        )
        if stops[-1]["editor"]:
            return stops
    raise AssertionError("the editor was not reached in 200 Tabs")


@pytest.mark.parametrize("lang", ["en", "es"])
def test_rankings_are_one_tab_stop_each_with_arrows_inside(card_tab: Any, lang: str) -> None:
    page = open_card_demo(card_tab, lang, "precision-at-k", timeout=120_000)
    page.wait_for_function("!!document.querySelector('.cm-content')", timeout=60_000)
    stops = _tab_stops_to_the_editor(page)
    in_lists = [stop["list"] for stop in stops if stop["list"] is not None]
    assert in_lists == ["0", "1", "2", "3"]  # one stop per ranking, in order
    # the demo's stops are its own controls: slider, rankings, toggles, Share, view buttons
    focusable = page.evaluate(
        f"""() => {{ const s = document.querySelector('{DEMO}');
           const own = 'input:not([hidden]), [data-rc-share-button], [data-rc-view] button';
           return s.querySelectorAll(own).length + s.querySelectorAll('[data-rc-list]').length;
        }}"""
    )
    from_demo = sum(1 for stop in stops if stop["demo"])
    assert from_demo == focusable
    assert len(stops) <= 50  # 102 Tabs before (issue 19): 15 buttons per ranking

    # Inside a ranking: arrows move, Enter marks, Alt+Down moves the document.
    state = page.evaluate(f"JSON.parse(document.querySelector('{DEMO}').dataset.rcInitial)")
    first = page.locator(f'{DEMO} [data-rc-list="0"] [data-rc-doc]').first
    first.focus()
    focused = "() => document.activeElement.closest('li').dataset.doc"
    ranking = state["queries"][0]["ranking"]
    page.keyboard.press("ArrowRight")
    assert page.evaluate(focused) == ranking[1]
    page.keyboard.press("End")
    assert page.evaluate(focused) == ranking[-1]
    page.keyboard.press("Home")
    page.keyboard.press("ArrowDown")  # Down without Alt moves the focus too
    assert page.evaluate(focused) == ranking[1]
    tabbable = page.eval_on_selector_all(
        f'{DEMO} [data-rc-list="0"] [data-rc-doc]', "els => els.map(e => e.tabIndex)"
    )
    assert tabbable == [-1, 0] + [-1] * (len(ranking) - 2)  # the roving stop follows the focus
    doc = ranking[1]
    was = doc in state["queries"][0]["relevant"]
    state = state_after(page, lambda: page.keyboard.press("Enter"))
    assert (doc in state["queries"][0]["relevant"]) is not was
    assert shown_numbers(page, "[data-metric][data-value]") == _module(state, lang)
    state = state_after(page, lambda: page.keyboard.press("Alt+ArrowDown"))
    assert state["queries"][0]["ranking"][2] == doc
    assert page.evaluate(focused) == doc  # the moved document keeps the focus
    assert shown_numbers(page, "[data-metric][data-value]") == _module(state, lang)
    page.keyboard.press("Tab")  # out of the ranking: to the next ranking's one stop
    assert page.evaluate("document.activeElement.closest('[data-rc-list]').dataset.rcList") == "1"
    assert console_errors(page) == []

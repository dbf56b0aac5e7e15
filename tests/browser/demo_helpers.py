"""What the demo tests share: opening a card at its live demo, acting and reading the state the
view was recomputed for, the numbers it shows, a shared link's hash, the words of the note a
link's state shows, and the console errors that count."""

from __future__ import annotations

import base64
import json
from typing import Any

DEMO = "section[data-rc-demo]"
READY = "document.documentElement.dataset.runtime === 'ready'"

# The note of a state opened from a link (web/share.js): what it says, its button, and what the
# share bar says once the button brought the card's own state back.
RESTORED = {
    "en": (
        "This is the state of the link you opened, not the card's own.",
        "Back to the card's state",
        "The card's own state is shown.",
    ),
    "es": (
        "Este es el estado del enlace que has abierto, no el propio de la ficha.",
        "Volver al estado de la ficha",
        "Se muestra el estado propio de la ficha.",
    ),
}


def open_demo(page: Any, base: str, lang: str, slug: str, timeout: int = 60_000) -> None:
    """Open a card and wait until its (first) demo is live; ``timeout`` ms for the runtime."""
    page.goto(f"{base}{lang}/{slug}/")
    _wait_for_live_demo(page, timeout)


def open_card_demo(tab: Any, lang: str, slug: str, timeout: int = 60_000) -> Any:
    """``open_demo`` in a ``card_tab`` (conftest.py): the card reached from the previous one by
    instant navigation. Returns the tab's page."""
    page = tab.open(lang, slug)
    _wait_for_live_demo(page, timeout)
    return page


def _wait_for_live_demo(page: Any, timeout: int) -> None:
    page.locator(DEMO).scroll_into_view_if_needed()
    page.wait_for_function(READY, timeout=timeout)
    page.wait_for_function(f"document.querySelector('{DEMO}').dataset.rcState === 'live'")


def state_after(page: Any, act: Any) -> dict[str, Any]:
    """Run ``act``; return the state of the recomputed view (from the ``rankcards:demo`` event)."""
    # A function returning nothing: evaluating the assignment itself would await the promise.
    page.evaluate(
        f"() => {{ window.__updated = new Promise(r => document.querySelector('{DEMO}')"
        ".addEventListener('rankcards:demo', e => r(e.detail.state), {once: true})); }"
    )
    act()
    return page.evaluate(
        "Promise.race([window.__updated, new Promise((_, fail) => setTimeout("
        "() => fail(new Error('no rankcards:demo event within 20 s')), 20000))])"
    )


def shown_numbers(page: Any, metrics: str = "[data-metric]") -> dict[str, float]:
    """The numbers the demo's view shows: metric -> its exact value (``data-value``), for the
    elements ``metrics`` selects."""
    pairs = page.eval_on_selector_all(
        f"{DEMO} [data-rc-view] {metrics}",
        "els => els.map(e => [e.dataset.metric, e.dataset.value])",
    )
    return {name: float(value) for name, value in pairs}


def console_errors(page: Any) -> list[str]:
    """Console errors other than failed resource loads (offline fonts, sitemap probes)."""
    return [e for e in page.console_errors if not e.startswith("Failed to load resource")]


def link_value(value: Any) -> str:
    """``value`` as a shared link's ``#demo=`` parameter (base64url JSON, unpadded)."""
    return base64.urlsafe_b64encode(json.dumps(value).encode()).decode().rstrip("=")


def move_first_control(page: Any, demo: str = DEMO) -> None:
    """Move the first control of the page's ``demo`` away from where it is (a slider at its
    maximum goes to its minimum, a select at its last option to its first): a control that
    changes nothing proves nothing."""
    control = page.locator(f"{demo} [data-rc-kind]").first
    kind = control.get_attribute("data-rc-kind")
    if kind == "slider":
        control.focus()
        at_max = control.input_value() == control.get_attribute("max")
        page.keyboard.press("Home" if at_max else "End")
    elif kind == "toggle":
        control.uncheck() if control.is_checked() else control.check()
    elif kind == "select":
        values = control.locator("option").evaluate_all("os => os.map(o => o.value)")
        control.select_option(values[0] if control.input_value() == values[-1] else values[-1])
    else:
        control.locator("[data-rc-doc]").first.click()

"""The language selector keeps the reader on the same card, with no failed request."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]


@pytest.mark.parametrize(("start", "lang", "target"), [("es", "en", "en"), ("en", "es", "es")])
def test_selector_goes_to_the_same_card(page: Any, site_server: str, start, lang, target) -> None:
    failed: list[str] = []
    page.on("response", lambda r: failed.append(r.url) if r.status >= 400 else None)
    page.goto(f"{site_server}{start}/recall-at-k/")
    page.locator(".md-header__option .md-select").hover()
    page.locator(f"a.md-select__link[hreflang={lang}]").click()
    page.wait_for_url(f"{site_server}{target}/recall-at-k/")
    page.wait_for_load_state("load")
    assert page.evaluate("document.documentElement.lang") == target
    assert page.locator("article.rc-card").get_attribute("data-rc-card") == "recall-at-k"
    assert failed == []
    assert page.console_errors == []

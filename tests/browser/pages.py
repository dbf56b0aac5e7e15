"""A page in a fresh browser context, as every browser test drives one: the ``page`` fixture
(tests/browser/conftest.py) makes one per test; a module whose tests walk one booted runtime
makes one for all of them (a module-scoped fixture) and closes its context when done."""

from __future__ import annotations

from typing import Any

_LOCAL = "http://127.0.0.1:"


def open_page(browser: Any, **context_options: Any) -> Any:
    """A page in a new browser context (its own caches and storage). ``page.console_errors``
    lists the console errors and uncaught page errors seen so far. Close it with
    ``page.context.close()``."""
    context = browser.new_context(**context_options)
    new_page = context.new_page()
    errors: list[str] = []

    def on_console(message: Any) -> None:
        # The test machine is offline: failures to reach other origins (web fonts, the GitHub
        # API for the repository badge) are the environment's, not the page's.
        if message.type == "error" and message.location.get("url", "").startswith(_LOCAL):
            errors.append(f"{message.text} ({message.location.get('url')})")
        elif message.type == "error" and not message.location.get("url"):
            errors.append(message.text)

    new_page.on("console", on_console)
    new_page.on("pageerror", lambda error: errors.append(f"uncaught: {error}"))
    new_page.console_errors = errors
    new_page.set_default_timeout(30_000)
    return new_page

"""web/table_sanitize.js in Chromium: the same cases as the build's sanitizer
(tests/data/table_cases.json), with the same allow-list (table_allow.js, as write_assets writes
it), give exactly the same HTML.

Served alone (the module, its allow-list and an empty page): no site build needed."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from sanitizer_page import sanitize_in_page, sanitizer_site

from rankcards.plot import Table
from rankcards.web.table import allow_module, sanitize_table
from repo_paths import DATA

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

CASES = json.loads((DATA / "table_cases.json").read_text("utf-8"))["cases"]

_SANITIZE = """async ([inputs, module]) => {
  const { sanitizeTable } = await import(module);
  return inputs.map((markup) => {
    const table = sanitizeTable(markup);
    return table ? table.outerHTML : null;
  });
}"""


@pytest.fixture(scope="module")
def sanitizer_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("table-sanitize")
    with sanitizer_site(folder, "table", allow_module()) as url:
        yield url


def _sanitize(page, base: str, inputs: list[str]) -> list[str | None]:
    return sanitize_in_page(page, base, "table", _SANITIZE, inputs)


def test_the_page_and_the_build_give_the_same_html_for_every_case(page, sanitizer_url):
    results = _sanitize(page, sanitizer_url, [case["html"] for case in CASES])
    for case, in_page in zip(CASES, results, strict=True):
        assert in_page == case["expected"] == sanitize_table(case["html"]), case["name"]
    assert page.evaluate("window.__rcPwned") is None
    assert page.console_errors == []


def test_a_plot_table_passes_whole_in_the_page(page, sanitizer_url):
    table = Table(["run", "P@10"], [["a & b", 0.25], ["<c>", None]], caption='x "y"')
    original = table._repr_html_()
    (in_page,) = _sanitize(page, sanitizer_url, [original])
    assert in_page == sanitize_table(original) == original

"""web/svg_sanitize.js in Chromium: the same malicious cases as the build's sanitizer
(tests/data/svg_cases.json), with the same allow-list (svg_allow.js, as write_assets writes it).

Served alone (the module, its allow-list, DOMPurify as the build minifies it and an empty page):
no site build needed."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Iterator

import pytest
from sanitizer_page import sanitize_in_page, sanitizer_site

from rankcards.plot import Figure
from rankcards.web.svg import allow_module, sanitize_svg
from repo_paths import ROOT
from svg_cases import CASES, assert_case, assert_only_allowed

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

_SANITIZE = """async ([inputs, module]) => {
  const { sanitizeSvg } = await import(module);
  const cleaned = await Promise.all(inputs.map((markup) => sanitizeSvg(markup)));
  return cleaned.map((svg) => (svg ? new XMLSerializer().serializeToString(svg) : null));
}"""


@pytest.fixture(scope="module")
def sanitizer_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("svg-sanitize")
    with sanitizer_site(folder, "svg", allow_module(), ROOT / "node_modules") as url:
        yield url


def _sanitize(page, base: str, inputs: list[str]) -> list[str | None]:
    return sanitize_in_page(page, base, "svg", _SANITIZE, inputs)


def test_the_page_sanitizer_cleans_or_rejects_every_malicious_case(page, sanitizer_url):
    results = _sanitize(page, sanitizer_url, [case["svg"] for case in CASES])
    for case, cleaned in zip(CASES, results, strict=True):
        assert_case(case, cleaned)
    assert page.evaluate("window.__rcPwned") is None
    assert page.console_errors == []


def test_the_page_sanitizer_keeps_a_plot_figure_whole_like_the_build(page, sanitizer_url):
    figure = Figure(title="PR", xlabel="recall", ylabel="precision", x_range=(0, 1))
    figure.line([0, 0.5, 1], [1, 0.5, 0.4], label="a").scatter([0.5], [0.3], label="b")
    original = figure._repr_svg_()
    limit = '<svg xmlns="http://www.w3.org/2000/svg">' + " " * 1_000_000 + "</svg>"
    (in_page, too_long) = _sanitize(page, sanitizer_url, [original, limit])
    assert too_long is None and sanitize_svg(limit) is None
    assert in_page is not None
    assert_only_allowed(in_page)
    assert ET.tostring(ET.fromstring(in_page)) == ET.tostring(ET.fromstring(original))


def test_the_page_and_the_build_keep_exactly_the_same_svg(page, sanitizer_url):
    """One allow-list, one rule set: for every case both sanitizers give the same tree."""
    inputs = [case["svg"] for case in CASES]
    for case, in_page in zip(CASES, _sanitize(page, sanitizer_url, inputs), strict=True):
        at_build = sanitize_svg(case["svg"])
        if at_build is None or in_page is None:
            assert at_build is in_page is None, case["name"]
        else:
            same = ET.canonicalize(at_build) == ET.canonicalize(in_page)
            assert same, (case["name"], at_build, in_page)

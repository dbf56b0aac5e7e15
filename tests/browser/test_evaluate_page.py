"""The "Evaluate your own run" page in real Chromium: trec_eval's reference files give out.test,
reader errors name their line, sorting and downloads work, and no request carries the data."""

from __future__ import annotations

import csv
import gzip
import io
import json
from pathlib import Path
from typing import Any

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

ROOT = "[data-rc-evaluate]"


def _script_errors(page: Any) -> list[str]:
    """Console errors of the page's code; failed resource loads (fonts, sitemaps, GitHub API:
    the site's configuration, checked by the site and runtime tests) are not this test's subject.
    """
    return [e for e in page.console_errors if not e.startswith("Failed to load resource")]


def _evaluate(page: Any, state: str = "done") -> None:
    page.click("[data-rc-evaluate-button]")
    page.wait_for_function(
        f"document.querySelector('{ROOT}').dataset.rcState === '{state}'", timeout=60_000
    )


def test_reference_files_give_out_test_and_nothing_leaves_the_browser(
    page, site_server, trec_eval_reference, out_test_aggregates
):
    page.goto(f"{site_server}en/evaluate/")
    page.wait_for_function("document.documentElement.dataset.runtime === 'ready'", timeout=60_000)
    qrels = (trec_eval_reference / "qrels.test").read_bytes()
    run = (trec_eval_reference / "results.test").read_bytes()
    requests: list[Any] = []
    page.on("request", lambda request: requests.append(request))
    gz = {"name": "qrels.test.gz", "mimeType": "application/gzip", "buffer": gzip.compress(qrels)}
    page.set_input_files('[data-rc-file="qrels"]', files=[gz])  # inflated in the page
    page.set_input_files('[data-rc-file="run"]', trec_eval_reference / "results.test")
    page.wait_for_function(
        "document.querySelector('[data-rc-loaded=\"qrels\"]').textContent.includes('lines')"
    )
    expected = out_test_aggregates
    assert {"AP", "RR", "P@5", "num_q"} <= set(expected)
    page.fill("[data-rc-measures]", " ".join(expected))
    _evaluate(page)
    shown = dict(
        page.eval_on_selector_all(
            "tr.rc-eval-all td", "els => els.map(e => [e.dataset.measure, e.textContent])"
        )
    )
    assert shown == expected
    qids = page.eval_on_selector_all("tbody tr", "els => els.map(e => e.dataset.qid)")
    assert qids == ["all", "301", "302", "303"]
    # Nothing that was read goes over the network: no request after the files were chosen
    # carries a body or any docno of the files.
    sample = [b"FR940202-2-00150", qrels.split()[2]]
    for request in requests:
        assert request.post_data_buffer is None, request.url
        assert not any(token.decode() in request.url for token in sample), request.url
    assert run.split()[2] == b"FR940202-2-00150"
    assert _script_errors(page) == []


def test_sorting_and_downloads(page, site_server):
    page.goto(f"{site_server}es/evaluate/")
    page.fill('[data-rc-text="qrels"]', "q1 0 a 1\nq2 0 b 1\nq3 0 c 1\n")
    page.fill(
        '[data-rc-text="run"]',
        "q1 Q0 x 1 3 t\nq1 Q0 a 2 2 t\nq2 Q0 b 1 1 t\nq3 Q0 y 1 5 t\nq3 Q0 z 2 4 t\n"
        "q3 Q0 c 3 3 t\n",
    )
    page.fill("[data-rc-measures]", "RR P@1")
    _evaluate(page)
    rows = "els => els.map(e => e.dataset.qid)"
    assert page.eval_on_selector_all("tbody tr", rows) == ["all", "q1", "q2", "q3"]
    header = page.locator("thead th").nth(1)
    assert header.get_attribute("aria-sort") == "none"
    page.get_by_role("button", name="Ordenar por RR").click()
    assert page.eval_on_selector_all("tbody tr", rows) == ["all", "q2", "q1", "q3"]
    assert header.get_attribute("aria-sort") == "descending"
    page.get_by_role("button", name="Ordenar por RR").click()
    assert page.eval_on_selector_all("tbody tr", rows) == ["all", "q3", "q1", "q2"]
    assert header.get_attribute("aria-sort") == "ascending"

    with page.expect_download() as info:
        page.click('[data-rc-download="csv"]')
    table = list(csv.reader(io.StringIO(Path(info.value.path()).read_text(encoding="utf-8"))))
    assert table[0] == ["qid", "RR", "P@1"]
    assert table[1] == ["all", repr((1 / 2 + 1 + 1 / 3) / 3), repr(1 / 3)]
    assert table[2:] == [["q1", "0.5", "0"], ["q2", "1", "1"], ["q3", repr(1 / 3), "0"]]
    with page.expect_download() as info:
        page.click('[data-rc-download="json"]')
    document = json.loads(Path(info.value.path()).read_text(encoding="utf-8"))
    assert document["aggregate"] == {"RR": (1 / 2 + 1 + 1 / 3) / 3, "P@1": 1 / 3}
    assert document["per_query"]["q3"] == {"RR": 1 / 3, "P@1": 0.0}


def test_reader_errors_name_file_and_line(page, site_server):
    page.goto(f"{site_server}en/evaluate/")
    page.fill('[data-rc-text="qrels"]', "q1 0 a 1\n")
    _evaluate(page, "error")  # no run yet
    assert page.text_content("[data-rc-eval-errors]") == "The qrels or the run is missing."
    bad = {"name": "my.run", "mimeType": "text/plain", "buffer": b"q1 Q0 a 1 1 t\nq1 Q0 b 2\n"}
    page.set_input_files('[data-rc-file="run"]', files=[bad])
    page.wait_for_function("document.querySelector('[data-rc-loaded=\"run\"]').textContent")
    _evaluate(page, "error")
    message = page.text_content("[data-rc-eval-errors]")
    assert message.startswith("my.run:2: "), message
    assert page.get_by_role("alert").count() == 1
    assert page.locator("[data-rc-eval-results]").is_hidden()

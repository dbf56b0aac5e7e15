"""The evaluate page compares two qrels in real Chromium: a human qrels (the page's qrels, A), an
LLM's (B, the second upload) and three runs give, number by number, what `rankcards agree
--format json` prints (run where the files are, so that the run names are the file names): κ,
alpha, the confusion table with its grades labelled, the runs' means and their correlations; the
download is the CLI's JSON. In Spanish, pasted qrels without runs: the same numbers, Spanish
labels, the note that runs would order the systems, and one-line errors."""

from __future__ import annotations

import io
import json
import math
import os
from contextlib import redirect_stdout
from pathlib import Path
from typing import Any

import pytest

from rankcards.cli import main

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

SECTION = "[data-rc-agree]"
QUERIES = 12


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, list[Path]]:
    """Human grades 0-3 (some pairs -1: not judged), an LLM that is lenient on some pairs and
    judges a few the human did not, and three runs over the same documents."""
    folder = tmp_path_factory.mktemp("agree")
    human = folder / "human.qrels"
    human.write_text(
        "".join(
            f"q{q} 0 d{d} {-1 if (q + d) % 17 == 0 else (q * 5 + d * 3) % 7 % 4}\n"
            for q in range(QUERIES)
            for d in range(16)
        )
    )
    llm = folder / "llm.qrels"
    llm.write_text(
        "".join(
            f"q{q} 0 d{d} {min(3, (q * 5 + d * 3) % 7 % 4 + (d % 4 == 1))}\n"
            for q in range(QUERIES)
            for d in range(2, 19)
        )
    )
    runs = []
    for step, name in zip((3, 5, 7), ["bm25.run", "dense.run", "hybrid.run"], strict=True):
        path = folder / name
        path.write_text(
            "".join(
                f"q{q} Q0 d{(d * step + q) % 19} {d + 1} {30 - d} s\n"
                for q in range(QUERIES)
                for d in range(12)
            )
        )
        runs.append(path)
    return human, llm, runs


def _cli_json(folder: Path, *args: str) -> str:
    printed = io.StringIO()
    cwd = os.getcwd()
    os.chdir(folder)  # the CLI names runs by their paths as given: the file names
    try:
        with redirect_stdout(printed):
            status = main(["agree", *args, "--format", "json"])
    finally:
        os.chdir(cwd)
    assert status == 0
    return printed.getvalue()


def _expected_metrics(document: dict[str, Any]) -> dict[str, Any]:
    """Every number the section must show, keyed by its data-metric."""
    expected: dict[str, Any] = {
        key: document[key]
        for key in ("documents", "only_a", "only_b", "cohen_kappa", "cohen_kappa_linear")
    }
    expected["cohen_kappa_quadratic"] = document["cohen_kappa_quadratic"]
    for level, value in document["krippendorff_alpha"].items():
        expected[f"krippendorff_alpha:{level}"] = value
    for i, a in enumerate(document["grades"]):
        for j, b in enumerate(document["grades"]):
            expected[f"confusion:{a}:{b}"] = document["confusion"][i][j]
    systems = document["systems"]
    if systems is not None:
        for run, (a, b) in systems["scores"].items():
            expected[f"score:{run}:a"], expected[f"score:{run}:b"] = a, b
        expected["kendall_tau"], expected["tau_ap"] = systems["kendall_tau"], systems["tau_ap"]
    return expected


def _shown_metrics(page: Any) -> dict[str, str]:
    pairs = page.eval_on_selector_all(
        f"{SECTION} [data-metric]", "els => els.map(e => [e.dataset.metric, e.dataset.value])"
    )
    shown = dict(pairs)
    assert len(shown) == len(pairs)  # no metric twice
    return shown


def _assert_same(shown: dict[str, str], expected: dict[str, Any]) -> None:
    assert set(shown) == set(expected)
    for metric, value in expected.items():
        if value is None:
            assert shown[metric] == "null", metric
        else:  # the page's Python may sum floats differently (3.12+): 1e-12
            assert float(shown[metric]) == pytest.approx(value, abs=1e-12, rel=0), metric


def _compare(page: Any, state: str = "done") -> None:
    page.evaluate(f"document.querySelector('{SECTION}').dataset.rcState = 'idle'")
    page.click("[data-rc-agree-button]")
    page.wait_for_function(
        f"document.querySelector('{SECTION}').dataset.rcState === '{state}'", timeout=120_000
    )


def _confusion_headers(page: Any) -> tuple[list[str], list[str]]:
    columns = page.eval_on_selector_all(
        f"{SECTION} .rc-agree-confusion thead th",
        "els => els.map(e => e.getAttribute('aria-label') || e.textContent)",
    )
    rows = page.eval_on_selector_all(
        f"{SECTION} .rc-agree-confusion tbody th",
        "els => els.map(e => e.getAttribute('aria-label'))",
    )
    return columns, rows


def test_two_uploaded_qrels_and_three_runs_give_the_cli_s_numbers(page, site_server, files):
    human, llm, runs = files
    page.goto(f"{site_server}en/evaluate/")
    page.wait_for_function("document.documentElement.dataset.runtime === 'ready'", timeout=60_000)
    requests: list[Any] = []
    page.on("request", lambda request: requests.append(request))
    page.set_input_files('[data-rc-file="qrels"]', human)
    page.set_input_files("[data-rc-agree-file]", llm)
    page.set_input_files('[data-rc-file="run"]', runs)
    page.fill("[data-rc-agree-measure]", "AP")
    _compare(page)
    names = [run.name for run in runs]
    printed = _cli_json(human.parent, human.name, llm.name, "--runs", *names, "-m", "AP")
    document = json.loads(printed)
    assert document["only_a"] > 0 and document["only_b"] > 0 and len(document["grades"]) == 4
    assert 0 < document["cohen_kappa"] < document["cohen_kappa_quadratic"] < 1
    assert document["systems"]["kendall_tau"] is not None
    _assert_same(_shown_metrics(page), _expected_metrics(document))
    columns, rows = _confusion_headers(page)
    assert columns == ["A ↓ · B →"] + [f"B: grade {g}" for g in document["grades"]]
    assert rows == [f"A: grade {g}" for g in document["grades"]]
    caption = page.text_content(f"{SECTION} .rc-agree-confusion caption")
    assert caption.startswith("Confusion table: A\u2019s grades in rows, B\u2019s grades in")
    summary = page.text_content(f"{SECTION} [data-rc-agree-summary] caption")
    assert "A (human.qrels)" in summary and "B (llm.qrels)" in summary
    cell = page.text_content(f'{SECTION} [data-metric="cohen_kappa"]')
    assert cell == f"{document['cohen_kappa']:.4f}"
    assert page.locator("[data-rc-agree-no-systems]").is_hidden()
    status = page.text_content("[data-rc-agree-status]")
    assert status.startswith(f"{document['documents']} pairs judged in both qrels")

    with page.expect_download() as info:
        page.click("[data-rc-agree-download]")
    downloaded = Path(info.value.path()).read_text(encoding="utf-8")
    _same(json.loads(downloaded), document)
    assert downloaded.count("\n") == printed.count("\n")  # the CLI's layout

    page.set_viewport_size({"width": 390, "height": 844})
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    for request in requests:  # nothing read went over the network
        assert request.post_data_buffer is None, request.url
    errors = [e for e in page.console_errors if not e.startswith("Failed to load resource")]
    assert errors == []


def _same(inside: object, outside: object) -> None:
    if isinstance(outside, float) and isinstance(inside, int | float):
        assert math.isclose(inside, outside, rel_tol=1e-12, abs_tol=1e-12)
    elif isinstance(outside, dict):
        assert isinstance(inside, dict) and list(inside) == list(outside)
        for key in outside:
            _same(inside[key], outside[key])
    elif isinstance(outside, list):
        assert isinstance(inside, list) and len(inside) == len(outside)
        for a, b in zip(inside, outside, strict=True):
            _same(a, b)
    else:
        assert inside == outside


def test_pasted_qrels_in_spanish_and_one_line_errors(page, site_server, files, tmp_path):
    human, llm, _ = files
    page.goto(f"{site_server}es/evaluate/")
    page.fill('[data-rc-text="qrels"]', human.read_text())
    _compare(page, "error")  # no qrels B yet
    missing = "Faltan los qrels A (arriba) o los qrels B."
    assert page.text_content("[data-rc-agree-errors]") == missing
    page.fill("[data-rc-agree-text]", llm.read_text())
    _compare(page)
    (tmp_path / "qrels").write_text(human.read_text())  # the names the page gives pasted texts
    (tmp_path / "qrels B").write_text(llm.read_text())
    document = json.loads(_cli_json(tmp_path, "qrels", "qrels B"))
    assert document["systems"] is None
    _assert_same(_shown_metrics(page), _expected_metrics(document))
    columns, rows = _confusion_headers(page)
    assert columns == ["A ↓ · B →"] + [f"B: grado {g}" for g in document["grades"]]
    assert rows == [f"A: grado {g}" for g in document["grades"]]
    caption = page.text_content(f"{SECTION} .rc-agree-confusion caption")
    assert caption.startswith("Tabla de confusión: grados de A en las filas")
    labels = page.eval_on_selector_all(
        f"{SECTION} [data-rc-agree-summary] tbody th", "els => els.map(e => e.textContent)"
    )
    assert labels[3:6] == [
        "κ de Cohen, sin pesos",
        "κ de Cohen, pesos lineales",
        "κ de Cohen, pesos cuadráticos",
    ]
    note = page.text_content("[data-rc-agree-no-systems]")
    assert note.startswith("Carga dos o más runs arriba")
    # B judges none of A's pairs: one line, and the results hide
    page.fill("[data-rc-agree-text]", "z1 0 d1 1\n")
    _compare(page, "error")
    message = page.text_content("[data-rc-agree-errors]")
    assert message == (
        "no (query, document) pair is judged in both qrels and qrels B "
        "(a negative label is not a judgment)"
    )
    assert page.locator("[data-rc-agree-results]").is_hidden()
    page.fill("[data-rc-agree-text]", "q1 0 d1 x\n")
    _compare(page, "error")
    message = page.text_content("[data-rc-agree-errors]")
    assert message == "qrels B:1: relevance 'x' is not an integer"
    assert page.get_by_role("alert").count() == 2  # the page's and this section's

"""The evaluate page with a subtopic qrels: the diversity measures button fills the measures,
the numbers are the CLI's (`rankcards eval --format json`), and an ordinary qrels asked for a
diversity measure shows the CLI's one-line warning."""

from __future__ import annotations

import io
import json
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any

import pytest

from rankcards.cli import main

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

ROOT = "[data-rc-evaluate]"
DIVERSITY = ["alpha_nDCG@20", "ERR_IA@20", "nERR_IA@20", "P_IA@20", "StRecall@20"]
# TREC Web-track style: subtopic in the second column, a document under several subtopics
QRELS = "wt1 1 a 1\nwt1 2 a 1\nwt1 1 b 2\nwt1 3 c 1\nwt1 2 d 0\nwt2 1 x 1\nwt2 2 y 1\nwt2 2 z 1\n"
RUN = (
    "wt1 Q0 b 1 3.0 sys\nwt1 Q0 a 2 2.5 sys\nwt1 Q0 d 3 2.0 sys\nwt1 Q0 c 4 1.0 sys\n"
    "wt2 Q0 y 1 2.0 sys\nwt2 Q0 z 2 1.5 sys\nwt2 Q0 x 3 1.0 sys\n"
)


def _cli(tmp_path: Path, qrels: str, run: str, measures: list[str]) -> tuple[dict[str, Any], str]:
    (tmp_path / "div.qrels").write_text(qrels, encoding="utf-8")
    (tmp_path / "div.run").write_text(run, encoding="utf-8")
    printed, warned = io.StringIO(), io.StringIO()
    argv = ["eval", "--format", "json", str(tmp_path / "div.qrels"), str(tmp_path / "div.run")]
    with redirect_stdout(printed), redirect_stderr(warned):
        assert main([*argv, *(f"-m{name}" for name in measures)]) == 0
    return json.loads(printed.getvalue()), warned.getvalue()


def _upload(page: Any, qrels: str, run: str) -> None:
    files = {"qrels": ("div.qrels", qrels), "run": ("div.run", run)}
    for part, (name, text) in files.items():
        upload = {"name": name, "mimeType": "text/plain", "buffer": text.encode()}
        page.set_input_files(f'[data-rc-file="{part}"]', files=[upload])
    page.wait_for_function("document.querySelector('[data-rc-loaded=\"run\"]').textContent")


def _evaluate(page: Any) -> None:
    page.click("[data-rc-evaluate-button]")
    page.wait_for_function(
        f"document.querySelector('{ROOT}').dataset.rcState === 'done'", timeout=60_000
    )


def _downloaded_json(page: Any) -> dict[str, Any]:
    text = page.evaluate(
        """async () => {
            const link = document.querySelector('[data-rc-download="json"]');
            return (await fetch(link.href)).text();
        }"""
    )
    return json.loads(text)


def test_subtopic_qrels_give_the_cli_s_alpha_ndcg(page, site_server, tmp_path: Path) -> None:
    want, warned = _cli(tmp_path, QRELS, RUN, DIVERSITY)
    assert warned == ""
    page.goto(f"{site_server}en/evaluate/")
    _upload(page, QRELS, RUN)
    page.get_by_role("button", name="Use the diversity measures").click()
    assert page.input_value("[data-rc-measures]") == " ".join(DIVERSITY)
    _evaluate(page)
    cells = page.eval_on_selector_all(
        "tr.rc-eval-all td", "els => els.map(e => [e.dataset.measure, e.textContent])"
    )
    shown = dict(cells)
    assert shown["alpha_nDCG@20"] == f"{want['aggregate']['alpha_nDCG@20']:.4f}"
    assert 0 < want["aggregate"]["alpha_nDCG@20"] < 1  # a real value, not a default
    assert _downloaded_json(page) == want  # every measure and query, full precision
    assert page.text_content("[data-rc-eval-warnings]") == ""


def test_an_ordinary_qrels_shows_the_cli_s_warning(page, site_server, tmp_path: Path) -> None:
    qrels = "q1 0 a 1\nq1 0 b 1\n"
    run = "q1 Q0 a 1 2 s\nq1 Q0 c 2 1 s\n"
    _, warned = _cli(tmp_path, qrels, run, ["alpha_nDCG@20"])
    page.goto(f"{site_server}es/evaluate/")
    _upload(page, qrels, run)
    page.fill("[data-rc-measures]", "alpha_nDCG@20")
    _evaluate(page)
    cli_line = warned.removeprefix("rankcards eval: warning: ").strip()
    assert page.text_content("[data-rc-eval-warnings]") == cli_line.replace(
        str(tmp_path / "div.qrels"), "div.qrels"
    )

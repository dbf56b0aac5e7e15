"""The "Evaluate your own run" page in real Chromium: trec_eval's reference files give out.test,
reader errors name their line (a damaged gzip file its name), sorting and downloads work, no
request carries the data; on a multi-MB run the progress bar moves while the page stays
responsive, the results are the CLI's, and Cancel stops an evaluation (interrupted, or its worker
replaced) after which the page evaluates again."""

from __future__ import annotations

import csv
import gzip
import io
import json
from contextlib import redirect_stdout
from pathlib import Path
from typing import Any

import pytest

from rankcards.cli import main

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
    page.set_input_files('[data-rc-file="qrels"]', files=[gz])  # inflated in the worker
    page.set_input_files('[data-rc-file="run"]', trec_eval_reference / "results.test")
    page.wait_for_function(
        "document.querySelector('[data-rc-loaded=\"qrels\"]').textContent.includes('.gz: ')"
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


# Collects, from the click on Evaluate to the end of the evaluation, the values the progress bar
# takes (a MutationObserver sees each `value` set) and the frames the page renders meanwhile
# (requestAnimationFrame callbacks: a page busy with the evaluation would render none).
WATCH = """() => {
    const root = document.querySelector("[data-rc-evaluate]");
    const bar = root.querySelector("[data-rc-progress]");
    window.rcWatch = { values: [], max: [], visible: [], frames: 0 };
    new MutationObserver(() => {
        if (!bar.hasAttribute("value")) return;
        rcWatch.values.push(bar.value);
        rcWatch.max.push(bar.max);
        rcWatch.visible.push(bar.checkVisibility());
    }).observe(bar, { attributes: true, attributeFilter: ["value"] });
    const frame = () => {
        if (root.dataset.rcState !== "running") return;
        rcWatch.frames += 1;
        requestAnimationFrame(frame);
    };
    root.querySelector("[data-rc-evaluate-button]").click();
    requestAnimationFrame(frame);
}"""

# Presses Cancel as soon as the bar shows the first part of the run read: at that point the
# worker has most of the run still to read (seconds of work), so the Cancel always lands
# during the evaluation.
CANCEL_AT_FIRST_PROGRESS = """() => {
    const root = document.querySelector("[data-rc-evaluate]");
    const bar = root.querySelector("[data-rc-progress]");
    const observer = new MutationObserver(() => {
        if (bar.hasAttribute("value") && bar.value > 0 && bar.value < bar.max) {
            observer.disconnect();
            window.rcCancelledAt = bar.value / bar.max;
            root.querySelector("[data-rc-eval-cancel]").click();
        }
    });
    observer.observe(bar, { attributes: true, attributeFilter: ["value"] });
    root.querySelector("[data-rc-evaluate-button]").click();
}"""


@pytest.fixture(scope="module")
def large_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A qrels and an 11 MB run (400 queries x 1,000 documents), the same bytes every time."""
    folder = tmp_path_factory.mktemp("large-run")
    qrels, run = folder / "large.qrels", folder / "large.run"
    with qrels.open("w", encoding="utf-8") as judged, run.open("w", encoding="utf-8") as ranked:
        for q in range(400):
            judged.writelines(f"{q} 0 D{q * 7 + d} {(q + d) % 4}\n" for d in range(0, 300, 3))
            ranked.writelines(
                f"{q} Q0 D{q * 7 + d} {d + 1} {(1000 - d) / 7 + (q * d) % 5:.4f} sys\n"
                for d in range(1000)
            )
    return qrels, run


def _cli_json(qrels: Path, run: Path) -> str:
    """What `rankcards eval --format json` prints (default measures)."""
    printed = io.StringIO()
    with redirect_stdout(printed):
        assert main(["eval", "--format", "json", "-j", "1", str(qrels), str(run)]) == 0
    return printed.getvalue()


def _choose(page: Any, qrels: Path, run: Path) -> None:
    page.set_input_files('[data-rc-file="qrels"]', qrels)
    page.set_input_files('[data-rc-file="run"]', run)
    page.wait_for_function("document.querySelector('[data-rc-loaded=\"run\"]').textContent")
    shown = f"{run.name}: {run.stat().st_size / 1e6:.1f} MB"  # named; read once evaluated
    assert page.text_content('[data-rc-loaded="run"]') == shown


def _downloaded_json(page: Any) -> str:
    return page.evaluate(
        """async () => {
            const link = document.querySelector('[data-rc-download="json"]');
            return (await fetch(link.href)).text();
        }"""
    )


def _state(page: Any, state: str) -> None:
    page.wait_for_function(
        f"document.querySelector('{ROOT}').dataset.rcState === '{state}'", timeout=120_000
    )


def test_the_progress_bar_moves_and_the_results_are_the_cli_s(
    page, site_server, large_run: tuple[Path, Path]
) -> None:
    qrels, run = large_run
    assert run.stat().st_size > 8_000_000
    page.goto(f"{site_server}en/evaluate/")
    assert page.locator("[data-rc-eval-progress]").is_hidden()
    _choose(page, qrels, run)
    page.evaluate(WATCH)
    _state(page, "done")
    watched = page.evaluate("rcWatch")
    values, total = watched["values"], qrels.stat().st_size + run.stat().st_size
    assert set(watched["max"]) == {total}  # bytes of both files
    assert values == sorted(values) and values[-1] == total
    assert [v for v in values if 0 < v < total], values  # at least one value on the way
    assert all(watched["visible"]) and watched["frames"] > 0
    assert page.locator("[data-rc-eval-progress]").is_hidden()
    assert page.get_by_role("progressbar").count() == 0  # gone with its container
    assert _downloaded_json(page) == _cli_json(qrels, run)
    assert page.locator("tbody tr").count() == 401
    assert _script_errors(page) == []


@pytest.mark.parametrize("isolated", [False, True], ids=["worker-replaced", "interrupted"])
def test_cancel_stops_the_evaluation_and_the_page_evaluates_again(
    page, site_server, isolated_server, isolated: bool, large_run: tuple[Path, Path]
) -> None:
    qrels, run = large_run
    page.goto(f"{isolated_server if isolated else site_server}es/evaluate/")
    assert page.evaluate("crossOriginIsolated") is isolated
    _choose(page, qrels, run)
    page.evaluate(CANCEL_AT_FIRST_PROGRESS)
    _state(page, "cancelled")
    assert 0 < page.evaluate("rcCancelledAt") < 0.5
    assert page.text_content("[data-rc-eval-status]") == "Evaluación cancelada."
    assert page.text_content("[data-rc-eval-errors]") == ""
    assert page.locator("[data-rc-eval-results]").is_hidden()
    assert page.locator("[data-rc-eval-progress]").is_hidden()
    assert page.locator("[data-rc-evaluate-button]").is_enabled()
    boots = page.evaluate(
        "async () => (await import('/assets/rankcards/runtime.js')).runtime.boots"
    )
    # interrupted: the same worker goes on; otherwise Stop replaced it with a new one
    assert boots == (1 if isolated else 2)
    _evaluate(page)
    assert _downloaded_json(page) == _cli_json(qrels, run)
    assert _script_errors(page) == []


def test_a_damaged_gzip_file_is_one_line_naming_it(page, site_server) -> None:
    page.goto(f"{site_server}en/evaluate/")
    page.fill('[data-rc-text="qrels"]', "q1 0 a 1\n")
    packed = gzip.compress(b"".join(b"q1 Q0 d%d 1 %d t\n" % (d, d) for d in range(5000)))
    for name, data, message in [
        ("cut.run.gz", packed[: len(packed) // 2], "cut.run.gz: truncated gzip file: "),
        ("junk.run.gz", b"\x1f\x8b" + b"junk" * 40, "junk.run.gz: corrupt gzip file: "),
        ("block.gz", packed[:10] + b"\x07" * 40, "block.gz: corrupt gzip file: invalid block"),
    ]:
        bad = {"name": name, "mimeType": "application/gzip", "buffer": data}
        page.set_input_files('[data-rc-file="run"]', files=[bad])
        page.wait_for_function(
            f"document.querySelector('[data-rc-loaded=\"run\"]').textContent.startsWith('{name}')"
        )
        _evaluate(page, "error")
        shown = page.text_content("[data-rc-eval-errors]")
        assert shown.startswith(message) and "\n" not in shown and "Traceback" not in shown
    assert _script_errors(page) == []


def test_cancel_while_python_starts_frees_the_page_at_once(page, site_server) -> None:
    page.goto(f"{site_server}en/evaluate/")
    page.fill('[data-rc-text="qrels"]', "q1 0 a 1\n")
    page.fill('[data-rc-text="run"]', "q1 Q0 a 1 1 t\n")
    page.wait_for_selector("[data-rc-evaluate-button]:enabled")  # the form's module listens
    # Evaluate, then Cancel while Python is still booting: by the next task the page says so,
    # without waiting for the boot to end
    states = page.evaluate(
        """async () => {
            const root = document.querySelector("[data-rc-evaluate]");
            const runtime = () => document.documentElement.dataset.runtime;
            root.querySelector("[data-rc-evaluate-button]").click();
            const before = [runtime(), root.dataset.rcState];
            root.querySelector("[data-rc-eval-cancel]").click();
            await new Promise((resolve) => setTimeout(resolve));
            return [...before, runtime(), root.dataset.rcState];
        }"""
    )
    assert states == ["loading", "running", "loading", "cancelled"]
    assert page.text_content("[data-rc-eval-status]") == "Evaluation cancelled."
    page.fill("[data-rc-measures]", "RR P@1")
    _evaluate(page)
    assert page.eval_on_selector_all(
        "tr.rc-eval-all td", "cells => cells.map(cell => cell.dataset.value)"
    ) == ["1", "1"]


def test_files_chosen_before_the_page_module_loads_are_kept(page, site_server, tmp_path) -> None:
    """The form's module loads on first use: a reader quicker than it (files chosen, Enter or
    the button pressed) loses nothing, and the page is not sent to the server and reloaded."""
    qrels, run, qrels_b = tmp_path / "a.qrels", tmp_path / "mine.run", tmp_path / "b.qrels"
    qrels.write_text("q1 0 a 1\nq2 0 b 1\n")
    run.write_text("q1 Q0 a 1 2 t\nq2 Q0 x 1 2 t\nq2 Q0 b 2 1 t\n")
    qrels_b.write_text("q1 0 a 0\nq2 0 b 1\n")
    held: list[Any] = []
    page.route("**/assets/rankcards/evaluate.js", lambda route: held.append(route))  # held
    with page.expect_request("**/assets/rankcards/evaluate.js"):
        page.goto(f"{site_server}en/evaluate/", wait_until="domcontentloaded")
    page.evaluate("window.rcNotReloaded = true")
    page.set_input_files('[data-rc-file="qrels"]', qrels)
    page.set_input_files('[data-rc-file="run"]', run)
    page.set_input_files("[data-rc-agree-file]", qrels_b)
    page.fill("[data-rc-measures]", "RR P@1")
    for button in ("[data-rc-evaluate-button]", "[data-rc-agree-button]"):
        assert page.locator(button).is_disabled(), f"{button} pressable before its code listens"
    page.press("[data-rc-measures]", "Enter")  # a form's implicit submission
    held[0].continue_()
    page.wait_for_function(f"document.querySelector('{ROOT}').dataset.rcState === 'idle'")
    assert page.evaluate("window.rcNotReloaded === true"), "the form was sent: the page reloaded"
    assert page.text_content('[data-rc-loaded="qrels"]').startswith("a.qrels")
    assert page.text_content("[data-rc-agree-loaded]") == "b.qrels"
    _evaluate(page)
    assert page.eval_on_selector_all("tbody tr", "els => els.map(e => e.dataset.qid)") == [
        "all",
        "q1",
        "q2",
    ]
    assert page.eval_on_selector_all(
        "tr.rc-eval-all td", "cells => cells.map(cell => cell.dataset.value)"
    ) == [str((1 + 1 / 2) / 2), "0.5"]

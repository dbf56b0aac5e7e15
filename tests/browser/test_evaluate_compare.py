"""The evaluate page compares runs in real Chromium: three chosen run files and a qrels give,
number by number, what `rankcards compare --format json` prints with the same options and seed
(run where the files are, so that the run names are the file names); changing the test or the
correction compares again, and an option changed while a comparison runs is applied (the table
shown is never the one of the old options); the per-query difference chart has one labelled,
focusable bar per query; the table fits a laptop's content column and scrolls with a cue on a
phone, where the chart's numbers stay legible; the downloads are the CLI's JSON and the table's
CSV; one run with comparison options, or runs with no query in common, is one line; and nothing
is sent over the network."""

from __future__ import annotations

import csv
import io
import json
import math
import os
import re
from contextlib import redirect_stdout
from pathlib import Path
from typing import Any

import pytest

from rankcards.cli import main

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

ROOT = "[data-rc-evaluate]"
MEASURES = ["AP", "nDCG@10", "RR"]
SEED = 11
QUERIES = 24  # beyond 16: the randomization test draws seeded sign flips


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[Path]]:
    """A qrels and three runs (the third misses two queries), the same bytes every time."""
    folder = tmp_path_factory.mktemp("compare")
    qrels = folder / "judged.qrels"
    qrels.write_text(
        "".join(
            f"q{q} 0 d{d} {(q * 13 + d * 7) % 4 % 3}\n"
            for q in range(QUERIES)
            for d in range(0, 40, 3)
        )
    )
    runs = []
    for index, name in enumerate(["baseline.run", "bm25.run", "dense.run"]):
        queries = range(QUERIES - 2) if index == 2 else range(QUERIES)
        lines = "".join(
            f"q{q} Q0 d{(d * (index + 2) + q * (index + 1)) % 41} {d + 1} {50 - d} s{index}\n"
            for q in queries
            for d in range(15)
        )
        (folder / name).write_text(lines)
        runs.append(folder / name)
    return qrels, runs


def _cli_json(
    qrels: Path, runs: list[Path], test: str, correction: str, names: list[str] = MEASURES
) -> str:
    measures = [arg for name in names for arg in ("-m", name)]
    printed = io.StringIO()
    cwd = os.getcwd()
    os.chdir(qrels.parent)  # the CLI names runs by their paths as given: the file names
    try:
        with redirect_stdout(printed):
            status = main(
                ["compare", qrels.name, *(run.name for run in runs), *measures, "--format",
                 "json", "--test", test, "--correction", correction, "--seed", str(SEED)]
            )  # fmt: skip
    finally:
        os.chdir(cwd)
    assert status == 0
    return printed.getvalue()


def _expected_metrics(document: dict[str, Any]) -> dict[str, Any]:
    """Every number the page must show, keyed by its data-metric."""
    expected: dict[str, Any] = {}
    for run, values in document["aggregate"].items():
        for measure, value in values.items():
            expected[f"mean:{run}:{measure}"] = value
    for row in document["comparisons"]:
        key = f"{row['run']}:{row['measure']}"
        for name in ("delta", "p", "p_adjusted", "effect_size", "wins", "losses", "ties"):
            expected[f"{name}:{key}"] = row[name]
        expected[f"ci_low:{key}"], expected[f"ci_high:{key}"] = row["ci"]
        expected[f"significant:{key}"] = row["significant"]
    return expected


def _shown_metrics(page: Any) -> dict[str, str]:
    pairs = page.eval_on_selector_all(
        "[data-rc-compare-table] [data-metric]",
        "els => els.map(e => [e.dataset.metric, e.dataset.value])",
    )
    shown = dict(pairs)
    assert len(shown) == len(pairs)  # no metric twice
    return shown


def _assert_same(shown: dict[str, str], expected: dict[str, Any]) -> None:
    assert set(shown) == set(expected)
    for metric, value in expected.items():
        if isinstance(value, bool):
            assert shown[metric] == str(value).lower(), metric
        elif value is None:
            assert shown[metric] == "null", metric
        else:
            assert float(shown[metric]) == pytest.approx(value, abs=1e-12, rel=0), metric


def _same(inside: object, outside: object, where: str = "") -> None:
    """Equal JSON, floats to 1e-12: the page's Python (Pyodide) may be a newer one than the
    CLI's, and 3.12+ compensates ``sum`` of floats (libm differs too between glibc and
    Emscripten), as tests/pyodide/_harness.py says."""
    if isinstance(outside, float) and isinstance(inside, int | float):
        assert math.isclose(inside, outside, rel_tol=1e-12, abs_tol=1e-12), where
    elif isinstance(outside, dict):
        assert isinstance(inside, dict) and list(inside) == list(outside), where
        for key in outside:
            _same(inside[key], outside[key], f"{where}/{key}")
    elif isinstance(outside, list):
        assert isinstance(inside, list) and len(inside) == len(outside), where
        for index, (a, b) in enumerate(zip(inside, outside, strict=True)):
            _same(a, b, f"{where}[{index}]")
    else:
        assert inside == outside, where


def _layout(text: str) -> str:
    """The JSON text with its numbers blanked: indentation, keys and order only."""
    return re.sub(r"-?\d+(\.\d+)?(e-?\d+)?", "N", text)


def _state(page: Any, state: str) -> None:
    page.wait_for_function(
        f"document.querySelector('{ROOT}').dataset.rcState === '{state}'", timeout=120_000
    )


def _compare(page: Any, state: str = "done") -> None:
    page.evaluate(f"document.querySelector('{ROOT}').dataset.rcState = 'idle'")
    page.click("[data-rc-evaluate-button]")
    _state(page, state)


def _download(page: Any, kind: str) -> str:
    with page.expect_download() as info:
        page.click(f'[data-rc-compare-download="{kind}"]')
    return Path(info.value.path()).read_text(encoding="utf-8")


def test_the_page_compares_as_the_cli_does(page, site_server, files) -> None:
    qrels, runs = files
    page.goto(f"{site_server}en/evaluate/")
    page.wait_for_function("document.documentElement.dataset.runtime === 'ready'", timeout=60_000)
    requests: list[Any] = []
    page.on("request", lambda request: requests.append(request))
    page.set_input_files('[data-rc-file="qrels"]', qrels)
    page.set_input_files('[data-rc-file="run"]', runs)
    items = page.eval_on_selector_all(
        '[data-rc-loaded="run"] li', "els => els.map(e => e.dataset.run)"
    )
    assert items == [run.name for run in runs]
    assert page.get_by_role("button", name="Remove dense.run").count() == 1
    page.fill("[data-rc-measures]", " ".join(MEASURES))
    page.select_option("[data-rc-test]", "randomization")
    page.select_option("[data-rc-correction]", "holm")
    page.fill("[data-rc-seed]", str(SEED))
    _compare(page)
    printed = _cli_json(qrels, runs, "randomization", "holm")
    document = json.loads(printed)
    assert document["runs"] == [run.name for run in runs]
    rows = document["comparisons"]
    assert all(row["delta"] != 0 and 0 < row["p"] < 1 for row in rows)  # not a degenerate case
    assert any(row["p"] < 0.05 < row["p_adjusted"] for row in rows)  # Holm changes the verdict
    _assert_same(_shown_metrics(page), _expected_metrics(document))
    assert page.locator("[data-rc-eval-results]").is_hidden()
    assert page.text_content("[data-rc-eval-errors]") == ""
    caption = page.text_content("[data-rc-compare-table] caption")
    assert "baseline.run" in caption and "Holm" in caption

    # the downloads: the CLI's JSON (its layout, keys in order; floats to 1e-12), and a CSV
    # with one row a comparison
    downloaded = _download(page, "json")
    assert _layout(downloaded) == _layout(printed)
    _same(json.loads(downloaded), document)
    table = list(csv.reader(io.StringIO(_download(page, "csv"))))
    assert len(table) == 1 + len(document["comparisons"])
    shown = _shown_metrics(page)  # the CSV holds the very numbers of the table
    names = ["mean", "mean", "delta", "p", "p_adjusted", "significant", "ci_low", "ci_high"]
    names += ["effect_size", "wins", "losses", "ties"]
    for line, row in zip(table[1:], document["comparisons"], strict=True):
        assert line[:3] == [row["measure"], row["baseline"], row["run"]]
        runs_of_line = [row["baseline"]] + [row["run"]] * (len(names) - 1)
        for cell, name, run in zip(line[3:], names, runs_of_line, strict=True):
            value = shown[f"{name}:{run}:{row['measure']}"]
            assert cell == value if name == "significant" else float(cell) == float(value)

    # the chart: one focusable bar per query, labelled with its difference, sorted
    page.select_option("[data-rc-chart-measure]", "AP")
    page.select_option("[data-rc-chart-run]", "dense.run")
    page.wait_for_function(
        "document.querySelector('div[data-rc-chart]').dataset.run === 'dense.run'"
        " && document.querySelector('div[data-rc-chart]').dataset.measure === 'AP'"
        f" && document.querySelector('{ROOT}').dataset.rcChartState === 'ready'"
    )
    bars = page.locator("[data-rc-chart] rect")
    assert bars.count() == QUERIES
    labels = page.eval_on_selector_all(
        "[data-rc-chart] rect",
        "els => els.map(e => [e.getAttribute('aria-label'), Number(e.dataset.value), e.tabIndex])",
    )
    values = [value for _, value, _ in labels]
    assert values == sorted(values, reverse=True)
    assert all(tab == 0 for _, _, tab in labels)
    row = next(
        c for c in document["comparisons"] if c["run"] == "dense.run" and c["measure"] == "AP"
    )
    assert sum(values) / QUERIES == pytest.approx(row["delta"], abs=1e-12)
    assert [label.split(":")[0] for label, _, _ in labels].count("q23") == 1
    for label, value, _ in labels:
        assert label.endswith(f": {value:+.3f}" if value else ": 0.000"), label
    bars.first.focus()
    assert page.text_content("[data-rc-chart-value]") == labels[0][0]
    counts = page.text_content("[data-rc-chart-counts]")
    assert counts == (
        f"dense.run beats baseline.run on {row['wins']} queries, loses on {row['losses']} "
        f"and ties on {row['ties']}."
    )

    # another test and correction: the page compares again, as the CLI would
    page.evaluate(f"document.querySelector('{ROOT}').dataset.rcState = 'idle'")
    page.select_option("[data-rc-test]", "t")
    _state(page, "done")
    page.evaluate(f"document.querySelector('{ROOT}').dataset.rcState = 'idle'")
    page.select_option("[data-rc-correction]", "bonferroni")
    _state(page, "done")
    again = json.loads(_cli_json(qrels, runs, "t", "bonferroni"))
    assert again != document
    _assert_same(_shown_metrics(page), _expected_metrics(again))
    assert page.locator("[data-rc-chart] rect").count() == QUERIES

    # on a phone the table scrolls inside its box and the chart shrinks: the page stays narrow
    page.set_viewport_size({"width": 390, "height": 844})
    assert page.evaluate("document.documentElement.scrollWidth") <= 390

    # nothing read went over the network
    for request in requests:
        assert request.post_data_buffer is None, request.url
        assert "d17" not in request.url and "q23" not in request.url, request.url
    errors = [e for e in page.console_errors if not e.startswith("Failed to load resource")]
    assert errors == []


def test_pasted_runs_and_one_line_errors(page, site_server) -> None:
    page.goto(f"{site_server}es/evaluate/")
    page.fill('[data-rc-text="qrels"]', "q1 0 a 1\nq2 0 b 1\nq3 0 c 1\n")
    page.fill('[data-rc-text="run"]', "q1 Q0 a 1 1 t\nq2 Q0 x 1 1 t\nq3 Q0 c 1 1 t\n")
    page.select_option("[data-rc-test]", "wilcoxon")
    _compare(page, "error")  # one run with a comparison option
    message = page.text_content("[data-rc-eval-errors]")
    assert message.startswith("Las opciones de comparación necesitan dos o más runs")
    assert page.locator("[data-rc-compare-results]").is_hidden()
    page.fill("[data-rc-run-name]", "viejo")
    page.click("[data-rc-add-run]")
    assert page.input_value('[data-rc-text="run"]') == ""
    page.fill("[data-rc-run-name]", "nuevo")
    page.fill('[data-rc-text="run"]', "q1 Q0 a 1 1 t\nq2 Q0 b 1 1 t\nq3 Q0 y 1 1 t\n")
    page.click("[data-rc-add-run]")
    page.fill("[data-rc-measures]", "RR")
    page.select_option("[data-rc-test]", "t")
    _compare(page)
    shown = _shown_metrics(page)
    assert shown["mean:viejo:RR"] == shown["mean:nuevo:RR"] == repr(2 / 3)
    assert shown["delta:nuevo:RR"] == "0"
    assert (shown["wins:nuevo:RR"], shown["losses:nuevo:RR"], shown["ties:nuevo:RR"]) == (
        "1",
        "1",
        "1",
    )
    assert page.locator("[data-rc-chart] rect").count() == 3
    assert page.get_by_role("img", name="q2: +1.000").count() == 1
    # another baseline: the differences change sign
    page.get_by_role("button", name="Usar nuevo como línea base").click()
    items = page.eval_on_selector_all(
        '[data-rc-loaded="run"] li', "els => els.map(e => e.dataset.run)"
    )
    assert items == ["nuevo", "viejo"]
    _compare(page)
    shown = _shown_metrics(page)
    assert "delta:nuevo:RR" not in shown and shown["delta:viejo:RR"] == "0"
    assert page.get_by_role("img", name="q2: -1.000").count() == 1
    assert "nuevo" in page.text_content("[data-rc-compare-table] caption")
    # runs with no query in common with the qrels: one line
    page.get_by_role("button", name="Quitar nuevo").click()
    page.fill("[data-rc-run-name]", "ajeno")
    page.fill('[data-rc-text="run"]', "z1 Q0 a 1 1 t\n")
    page.click("[data-rc-add-run]")
    page.get_by_role("button", name="Quitar viejo").click()
    page.fill('[data-rc-text="run"]', "z2 Q0 a 1 1 t\n")
    page.fill("[data-rc-run-name]", "otro")
    _compare(page, "error")  # the pasted text not yet added counts as a run
    assert page.text_content("[data-rc-eval-errors]") == "no query of the qrels appears in any run"
    assert page.locator("[data-rc-compare-results]").is_hidden()
    assert page.get_by_role("alert").count() == 1


# Drops two run files on the run zone, as a reader's drag and drop would (a DataTransfer of Files).
DROP = """([first, second]) => {
    const zone = document.querySelector('[data-rc-drop="run"]');
    const transfer = new DataTransfer();
    transfer.items.add(new File([first], "a.run"));
    transfer.items.add(new File([second], "b.run"));
    const init = { dataTransfer: transfer, bubbles: true, cancelable: true };
    zone.dispatchEvent(new DragEvent("drop", init));
}"""

# Presses Cancel once both files are read (the bar full): the worker is then comparing.
CANCEL_WHEN_READ = """() => {
    const root = document.querySelector("[data-rc-evaluate]");
    const bar = root.querySelector("[data-rc-progress]");
    const observer = new MutationObserver(() => {
        if (bar.hasAttribute("value") && bar.value === bar.max && bar.max > 1) {
            observer.disconnect();
            root.querySelector("[data-rc-eval-cancel]").click();
        }
    });
    observer.observe(bar, { attributes: true, attributeFilter: ["value"] });
    root.querySelector("[data-rc-evaluate-button]").click();
}"""


def test_dropped_runs_compare_and_cancel_stops_a_comparison(page, site_server) -> None:
    page.goto(f"{site_server}en/evaluate/")
    page.fill('[data-rc-text="qrels"]', "".join(f"q{q} 0 a 1\n" for q in range(30)))
    first = "".join(
        f"q{q} Q0 a 1 1 t\n" if q % 3 else f"q{q} Q0 x 1 1 t\nq{q} Q0 a 2 0 t\n" for q in range(30)
    )  # q0, q3, ..., q27: RR 0.5
    second = "".join(f"q{q} Q0 a 1 1 t\n" for q in range(30))
    page.evaluate(DROP, [first, second])
    items = page.eval_on_selector_all(
        '[data-rc-loaded="run"] li', "els => els.map(e => e.dataset.run)"
    )
    assert items == ["a.run", "b.run"]
    page.fill("[data-rc-measures]", "RR")
    page.select_option("[data-rc-test]", "bootstrap")
    page.fill("[data-rc-samples]", "50000000")  # minutes of resampling: Cancel lands in it
    page.evaluate(CANCEL_WHEN_READ)
    _state(page, "cancelled")
    assert page.text_content("[data-rc-eval-status]") == "Evaluation cancelled."
    assert page.locator("[data-rc-compare-results]").is_hidden()
    assert page.locator("[data-rc-evaluate-button]").is_enabled()
    page.fill("[data-rc-samples]", "1000")
    _compare(page)
    shown = _shown_metrics(page)
    assert shown["delta:b.run:RR"] == repr(10 / 30 * 0.5)  # 10 queries: 0.5 -> 1
    assert (shown["wins:b.run:RR"], shown["ties:b.run:RR"]) == ("10", "20")
    assert page.locator("[data-rc-chart] rect").count() == 30


# Once the worker has read every file (the bar full: it is comparing), changes the test, the
# correction and the measures as a reader would, and records each table the page shows.
CHANGE_WHILE_COMPARING = """([test, correction, measures]) => {
    const root = document.querySelector("[data-rc-evaluate]");
    window.rcCaptions = [];
    new MutationObserver(() => {
        const caption = root.querySelector("[data-rc-compare-table] caption");
        if (caption) rcCaptions.push(caption.textContent);
    }).observe(root.querySelector("[data-rc-compare-table]"), { childList: true });
    const bar = root.querySelector("[data-rc-progress]");
    const observer = new MutationObserver(() => {
        if (!(bar.hasAttribute("value") && bar.value === bar.max && bar.max > 1)) return;
        observer.disconnect();
        window.rcStateWhenChanged = root.dataset.rcState;
        for (const [selector, value] of [["[data-rc-test]", test],
                ["[data-rc-correction]", correction], ["[data-rc-measures]", measures]]) {
            const control = root.querySelector(selector);
            control.value = value;
            control.dispatchEvent(new Event("change", { bubbles: true }));
        }
    });
    observer.observe(bar, { attributes: true, attributeFilter: ["value"] });
    root.querySelector("[data-rc-evaluate-button]").click();
}"""

NAMES = {
    "en": {"wilcoxon": "Wilcoxon signed-rank", "caption": "correction: Bonferroni"},
    "es": {"wilcoxon": "Wilcoxon de rangos con signo", "caption": "corrección: Bonferroni"},
}


@pytest.mark.parametrize("lang", ["en", "es"])
def test_an_option_changed_while_comparing_is_applied(page, site_server, files, lang) -> None:
    qrels, runs = files
    page.goto(f"{site_server}{lang}/evaluate/")
    page.wait_for_function("document.documentElement.dataset.runtime === 'ready'", timeout=60_000)
    page.set_input_files('[data-rc-file="qrels"]', qrels)
    page.set_input_files('[data-rc-file="run"]', runs)
    page.fill("[data-rc-measures]", " ".join(MEASURES))
    page.select_option("[data-rc-correction]", "holm")
    page.fill("[data-rc-seed]", str(SEED))
    page.evaluate(CHANGE_WHILE_COMPARING, ["wilcoxon", "bonferroni", "AP RR"])
    _state(page, "done")
    assert page.evaluate("rcStateWhenChanged") == "running"
    # the table is the CLI's with the options the controls show now...
    document = json.loads(_cli_json(qrels, runs, "wilcoxon", "bonferroni", ["AP", "RR"]))
    holm = json.loads(_cli_json(qrels, runs, "t", "holm"))
    _assert_same(_shown_metrics(page), _expected_metrics(document))
    assert _expected_metrics(document) != _expected_metrics(holm)
    caption = page.text_content("[data-rc-compare-table] caption")
    assert NAMES[lang]["wilcoxon"] in caption and NAMES[lang]["caption"] in caption
    # ...and the old options' table was never shown, not even for a moment
    assert page.evaluate("rcCaptions") == [caption]
    assert page.get_attribute("[data-rc-compare-results]", "aria-busy") is None
    _same(json.loads(_download(page, "json")), document)  # the download is the new one too
    measures = page.eval_on_selector_all(
        "[data-rc-chart-measure] option", "els => els.map(e => e.value)"
    )
    assert measures == ["AP", "RR"]


# The comparison table's box, its caption and its last header, against the content column.
TABLE_BOX = """() => {
    const table = document.querySelector("[data-rc-compare-table] table");
    const column = document.querySelector(".md-content__inner").getBoundingClientRect();
    const style = getComputedStyle(table);
    const heads = [...table.tHead.rows[0].cells].map((cell) => cell.getBoundingClientRect().right);
    return {
        column: [column.left, column.right],
        table: table.getBoundingClientRect().right,
        scrolls: table.scrollWidth > table.clientWidth + 1,
        scroller: ["auto", "scroll"].includes(style.overflowX),
        cue: style.backgroundImage.includes("gradient"),
        caption: table.caption.getBoundingClientRect().right,
        lastHead: Math.max(...heads),
        page: document.documentElement.scrollWidth,
    };
}"""

# The rendered size of the chart's axis numbers: CSS font size times the SVG's scale.
AXIS_PX = """() => [...document.querySelectorAll("[data-rc-chart] text")].map(
    (text) => parseFloat(getComputedStyle(text).fontSize) * text.getScreenCTM().a)"""


def _chart_fits(page: Any) -> None:
    """Waits until the chart is drawn at its box's width (it is redrawn after a resize)."""
    page.wait_for_function(
        """() => {
            const figure = document.querySelector("[data-rc-chart]");
            const svg = figure.querySelector("svg");
            return svg && Math.abs(svg.viewBox.baseVal.width - figure.clientWidth) < 1
                && document.querySelector("[data-rc-evaluate]").dataset.rcChartState === "ready";
        }"""
    )


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_comparison_fits_a_laptop_and_reads_on_a_phone(page, site_server, files, lang) -> None:
    qrels, runs = files
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(f"{site_server}{lang}/evaluate/")
    page.set_input_files('[data-rc-file="qrels"]', qrels)
    page.set_input_files('[data-rc-file="run"]', runs)
    page.fill("[data-rc-measures]", " ".join(MEASURES))
    page.select_option("[data-rc-correction]", "holm")
    _compare(page)
    _chart_fits(page)
    box = page.evaluate(TABLE_BOX)
    left, right = box["column"]
    assert right - left == pytest.approx(688, abs=40)  # a laptop's content column
    # every column and the caption in the content column: nothing to scroll to
    assert not box["scrolls"], box
    assert box["table"] <= right + 1 and box["lastHead"] <= right + 1, box
    assert box["caption"] <= right + 1, box
    assert min(page.evaluate(AXIS_PX)) >= 11

    page.set_viewport_size({"width": 390, "height": 844})
    _chart_fits(page)  # redrawn at the phone's width
    box = page.evaluate(TABLE_BOX)
    assert box["page"] <= 390, box  # the page itself does not scroll sideways
    # the table scrolls inside its box, and says so with the shadow cue; its caption stays
    # in the screen's column
    assert box["scrolls"] and box["scroller"] and box["cue"], box
    assert box["caption"] <= box["column"][1] + 1, box
    assert min(page.evaluate(AXIS_PX)) >= 11

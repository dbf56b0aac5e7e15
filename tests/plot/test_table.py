"""rankcards.plot.Table, the runner's tables and rankcards.web.table: a table shown under an
example passes the allow-list of table_allow.json whole, anything else is cleaned or refused.
The cases (tests/data/table_cases.json) are shared with the page's sanitizer, checked in Chromium
by tests/browser/test_table_sanitize_js.py."""

from __future__ import annotations

import json
import re

import pytest

from rankcards.cards._execute import run_jobs
from rankcards.plot import Table
from rankcards.runner import display, run_example
from rankcards.web.table import allow_list, sanitize_table
from repo_paths import DATA

CASES = json.loads((DATA / "table_cases.json").read_text("utf-8"))["cases"]


@pytest.mark.parametrize("case", CASES, ids=lambda case: case["name"])
def test_each_case_is_cleaned_or_refused_exactly(case: dict) -> None:
    assert sanitize_table(case["html"]) == case["expected"]


def test_a_table_passes_whole_and_formats_its_numbers() -> None:
    table = Table(
        ["run", "P@10", "n", "note"],
        [["a <b>", 0.25, 3, None], ["c & d", 1 / 3, 12, True]],
        caption="Runs & scores",
        digits=3,
    )
    html = table._repr_html_()
    assert sanitize_table(html) == html
    cells = re.findall(r"<td([^>]*)>(.*?)</td>", html)
    assert cells == [
        ("", "a &lt;b&gt;"),
        (' class="rc-num"', "0.250"),
        (' class="rc-num"', "3"),
        ("", ""),
        ("", "c &amp; d"),
        (' class="rc-num"', "0.333"),
        (' class="rc-num"', "12"),
        ("", "True"),
    ]
    assert "<caption>Runs &amp; scores</caption>" in html
    assert html.count('<th scope="col">') == 4


def test_printed_a_table_is_aligned_text() -> None:
    table = Table(["run", "AP"], [["long name", 0.5], ["b", 0.25]], caption="AP")
    assert str(table).splitlines() == [
        "AP",
        "run            AP",
        "long name  0.5000",
        "b          0.2500",
    ]


@pytest.mark.parametrize(
    ("columns", "rows", "digits", "error"),
    [
        (["a", "b"], [[1]], 4, "row 1 has 1 cells for 2 columns"),
        (["a"], [[[1, 2]]], 4, "cells are text, numbers or None"),
        (["a"], [[1]], -1, "digits must be an integer >= 0"),
    ],
)
def test_bad_tables_say_what_is_wrong(columns, rows, digits, error) -> None:
    with pytest.raises((ValueError, TypeError), match=re.escape(error)):
        Table(columns, rows, digits=digits)


def test_the_runner_keeps_tables_apart_from_the_text_in_order() -> None:
    source = (
        "from rankcards.plot import Table\n"
        "print('before')\n"
        "display(Table(['x'], [[1]]))\n"
        "Table(['y'], [[2.5]]).show()\n"
        "Table(['z'], [[3]])\n"
    )
    seen = []
    result = run_example(source, on_table=seen.append)
    assert result.output == "before\n"
    assert [re.findall(r"<th[^>]*>(\w)</th>", html) for html in result.tables] == [
        ["x"],
        ["y"],
        ["z"],
    ]
    assert seen == result.tables and result.figures == []


def test_outside_a_run_a_table_is_its_repr(capsys) -> None:
    display(Table(["x"], [[1]]))
    assert capsys.readouterr().out == "Table(columns=['x'], rows=1)\n"


def test_the_build_worker_sanitizes_each_table() -> None:
    source = (
        "class Evil:\n"
        "    def _repr_html_(self):\n"
        "        return '<table onclick=\"x()\"><tr><td>1</td></tr></table>'\n"
        "class NotATable:\n"
        "    def _repr_html_(self):\n"
        "        return '<div>no</div>'\n"
        "display(Evil(), NotATable())\n"
    )
    [answer] = run_jobs([{"kind": "example", "source": source}], timeout=30)
    assert answer["tables"] == ["<table><tr><td>1</td></tr></table>", None]


def test_the_allow_list_never_lets_scripts_styles_or_links_in() -> None:
    rules = allow_list()
    assert not {"script", "style", "a", "img", "iframe", "svg"} & set(rules["elements"])
    assert not {"style", "href", "src"} & set(rules["attributes"])
    assert not any(name.startswith("on") for name in rules["attributes"])

"""`rankcards new SLUG --category CAT --measure M`: a metric card with the lab demo filled in,
whose only problems are the prose placeholders; written, it builds."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import pytest
import yaml

from rankcards.cards import build_cards, load_cards
from rankcards.commands import new
from rankcards.metrics._registry import BY_NAME

PLACEHOLDER = "unfilled placeholder: replace the TODO text with the real content"


def _written(path: Path) -> None:
    """Replace every placeholder with a sentence of its own (the rules refuse es == en)."""
    count = iter(range(1, 1000))
    text = path.read_text(encoding="utf-8")
    path.write_text(re.sub(r"TODO[^\"'}\n]*", lambda _: f"Texto-{next(count)}.", text), "utf-8")


def _new(*argv: str) -> int:
    parser = argparse.ArgumentParser()
    new.add_arguments(parser)
    return new.run(parser.parse_args(list(argv)))


def test_measure_scaffold_has_the_lab_and_a_running_example(tmp_path: Path) -> None:
    assert _new("average-precision", "--category", "rank-aware", "--measure", "AP@k",
                "--dir", str(tmp_path)) == 0  # fmt: skip
    path = tmp_path / "average-precision.yml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert data["demo"] == {
        "lab": {"measure": "AP@k", "k": 3, "conventions": ["ties", "cutoff", "averaging"]}
    }
    assert "TODO" not in data["code"]["source"]
    assert "from rankcards.demos.toy import TOY" in data["code"]["source"]
    cards, problems = load_cards(tmp_path)
    assert cards and {p.message for p in problems} == {PLACEHOLDER}
    assert "code.source" not in {p.field for p in problems}
    # the prose written, the card is complete: its example runs and its lab renders
    _written(path)
    [card] = build_cards(tmp_path, timeout=30)
    assert card.examples["en"].error is None
    assert "'AP@3':" in card.examples["en"].output
    assert card.demos["en"].compute == "rankcards.viz.lab:view"


def test_the_scaffold_example_prints_what_the_lab_shows(tmp_path: Path) -> None:
    assert _new("ap", "--category", "rank-aware", "--measure", "AP@k", "--dir", str(tmp_path)) == 0
    _written(tmp_path / "ap.yml")
    [card] = build_cards(tmp_path, timeout=30)
    mean = re.search(r'data-metric="mean" data-value="([^"]+)"', card.demos["en"].view_html)
    assert mean is not None
    assert card.examples["en"].output.endswith(f"{{'AP@3': {float(mean.group(1))!r}}}\n")


def test_a_bad_measure_is_refused_before_anything_is_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _new("x", "--category", "rank-aware", "--measure", "nDGC@k", "--dir", str(tmp_path)) == 2
    assert capsys.readouterr().err == (
        'rankcards new: --measure: demo.lab.measure: unknown measure "nDGC@k"; close names: '
        f"{BY_NAME['nDCG'].form()}, {BY_NAME['DCG'].form()}\n"
    )
    assert list(tmp_path.iterdir()) == []


def test_without_measure_the_scaffold_leaves_the_demo_to_write(tmp_path: Path) -> None:
    assert _new("gold", "--category", "ground-truth", "--dir", str(tmp_path)) == 0
    data = yaml.safe_load((tmp_path / "gold.yml").read_text(encoding="utf-8"))
    assert "TODO" in data["demo"]["compute"] and "lab" not in data["demo"]
    assert "TODO" in data["code"]["source"]

"""`rankcards agree QRELS_A QRELS_B [--runs RUN ...]`: do two sets of judgments agree?

On the (query, document) pairs judged in both (a negative label is not a judgment, as in
trec_eval): the confusion table, Cohen's κ and Krippendorff's alpha; with two or more runs, how
the runs' ordering by one measure changes from A's judgments to B's (Kendall's τ-b, τ_AP with
A as the reference). See ``rankcards.metrics._agree``.

Exit status: 0 success, 1 data error (unreadable or malformed file, no pair judged in both, a
run with no query in common with a qrels), 2 usage error (fewer than two runs, an unknown or
counter measure, -m without --runs, bad option). Errors are one line, never a traceback.
"""

from __future__ import annotations

import argparse
import io
import sys

from rankcards.commands._warn import said_once

HELP = "compare two qrels of the same queries: Cohen's kappa, Krippendorff's alpha, run orderings"

DESCRIPTION = (
    HELP + ". The pairs compared are the (query, document) pairs judged in both QRELS_A and "
    "QRELS_B; a negative label is not a judgment (trec_eval's 'in the pool, unjudged'). The "
    "output gives their number, the pairs judged on one side only, the confusion table (A's "
    "grades in rows, B's in columns), Cohen's kappa unweighted, linear and quadratic (weights by "
    "position among the grades used, as scikit-learn) and Krippendorff's alpha (nominal, "
    "ordinal, interval). With --runs, each run's mean MEASURE under A and under B, and "
    "between the two orderings of the runs Kendall's tau-b and tau_AP with A's ordering as the "
    "reference. An undefined coefficient (every pair with the same grade, every run tied) is "
    "shown as 'undefined' (null in JSON)."
)

FORMATS = ("text", "json")
_PROG = "rankcards agree"
STDIN = "-"
STDIN_NAME = "<stdin>"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Declare the two qrels and the options: --runs, -m, --format."""
    parser.description = DESCRIPTION
    parser.usage = "%(prog)s QRELS_A QRELS_B [--runs RUN RUN ...] [-m MEASURE] [--format text|json]"
    parser.add_argument(
        "qrels_a",
        metavar="QRELS_A",
        help="the reference judgments (e.g. human): 'qid iter docno rel' lines (.gz allowed; "
        "- reads stdin)",
    )
    parser.add_argument(
        "qrels_b",
        metavar="QRELS_B",
        help="the judgments compared with them (e.g. an LLM judge's), same format",
    )
    parser.add_argument(
        "--runs",
        nargs="+",
        metavar="RUN",
        help="two or more run files ('qid Q0 docno rank score tag'); each is evaluated under A "
        "and under B, named by its path as given",
    )
    parser.add_argument(
        "-m",
        "--measure",
        metavar="MEASURE",
        help="the measure that orders the runs (default nDCG@10), averaged as rankcards eval "
        "does by default: over the queries in both the run and that qrels (no -c, -l 1)",
    )
    parser.add_argument(
        "--format",
        default="text",
        metavar="{" + ",".join(FORMATS) + "}",
        help="text (default) or json: {documents, only_a, only_b, grades, confusion, "
        "cohen_kappa, cohen_kappa_linear, cohen_kappa_quadratic, krippendorff_alpha: {nominal, "
        "ordinal, interval}, systems: {measure, scores: {run: [a, b]}, kendall_tau, tau_ap} or "
        "null} at full precision",
    )


def run(args: argparse.Namespace) -> int:
    """Check the options, read the files, compare and print; map errors to exit codes."""
    from rankcards.metrics import (
        MeasureError,
        TrecFormatError,
        agreement,
        parse_measure,
        read_qrels,
        read_run,
    )
    from rankcards.metrics._agree import DEFAULT_MEASURE

    problem = _usage_problem(args)
    if problem:
        return _fail(problem, 2)
    try:
        spec = parse_measure(args.measure or DEFAULT_MEASURE)
    except MeasureError as error:
        return _fail(str(error), 2)
    if spec.measure.is_counter:
        return _fail(f"{spec.name} is a counter, not a per-query measure: it orders no runs", 2)
    try:
        qrels_a = _read(read_qrels, args.qrels_a)
        qrels_b = _read(read_qrels, args.qrels_b)
        runs = None if args.runs is None else {path: _read(read_run, path) for path in args.runs}
        with said_once(_PROG):
            result = agreement(qrels_a, qrels_b, runs, spec.name)
    except TrecFormatError as error:
        return _fail(str(error), 1)
    except ValueError as error:  # no pair judged in both; a run with no query in common
        return _fail(str(error), 1)
    if args.format == "json":
        import json

        sys.stdout.write(json.dumps(result, indent=2) + "\n")
    else:
        sys.stdout.write(render_text(result, qrels_a.name, qrels_b.name))
    return 0


def _usage_problem(args: argparse.Namespace) -> str | None:
    """The first problem with the options and file names, before reading anything."""
    if args.format not in FORMATS:
        return f"--format must be one of {', '.join(FORMATS)}, got {args.format!r}"
    if args.runs is not None and len(args.runs) < 2:
        return f"--runs needs at least two runs to order, got {len(args.runs)}"
    if args.measure is not None and args.runs is None:
        return "-m/--measure orders the runs: give them with --runs RUN RUN ..."
    repeated = sorted({path for path in args.runs or [] if args.runs.count(path) > 1})
    if repeated:
        return f"run {repeated[0]} is given twice; each run is named by its path"
    if [args.qrels_a, args.qrels_b, *(args.runs or [])].count(STDIN) > 1:
        return "only one of the files can be - (standard input)"
    return None


def _read(reader, path: str):  # type: ignore[no-untyped-def]
    """``reader(path)``, or ``reader`` over standard input for ``-``."""
    if path == STDIN:
        text = io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8", errors="surrogateescape")
        return reader(text, STDIN_NAME)
    return reader(path)


def render_text(result: dict[str, object], name_a: str, name_b: str) -> str:
    """The comparison as readable text: counts, the confusion table with grade headers, the
    coefficients (4 decimals), and the systems' means and correlations when there are runs."""
    grades: list[int] = result["grades"]  # type: ignore[assignment]
    confusion: list[list[int]] = result["confusion"]  # type: ignore[assignment]
    alpha: dict[str, float | None] = result["krippendorff_alpha"]  # type: ignore[assignment]
    lines = [
        f"A: {name_a}",
        f"B: {name_b}",
        f"pairs judged in both: {result['documents']} (only in A: {result['only_a']}, only in "
        f"B: {result['only_b']}; a negative label is not a judgment)",
        "",
        "confusion: A's grade in rows, B's in columns",
    ]
    header = ["A \\ B", *map(str, grades)]
    rows = [header] + [[str(g), *map(str, row)] for g, row in zip(grades, confusion, strict=True)]
    lines += _aligned(rows, right_from=1)
    lines += [""]
    coefficients = [
        ["Cohen's kappa", _number(result["cohen_kappa"])],  # type: ignore[arg-type]
        ["  linear weights", _number(result["cohen_kappa_linear"])],  # type: ignore[arg-type]
        ["  quadratic weights", _number(result["cohen_kappa_quadratic"])],  # type: ignore[arg-type]
        ["Krippendorff's alpha, nominal", _number(alpha["nominal"])],
        ["  ordinal", _number(alpha["ordinal"])],
        ["  interval", _number(alpha["interval"])],
    ]
    lines += _aligned(coefficients, right_from=1)
    systems = result["systems"]
    if isinstance(systems, dict):
        scores: dict[str, list[float]] = systems["scores"]
        lines += [
            "",
            f"systems: mean {systems['measure']} under A and under B (over the queries in both "
            "the run and that qrels)",
        ]
        table = [["run", "A", "B"]] + [
            [name, f"{a:.4f}", f"{b:.4f}"] for name, (a, b) in scores.items()
        ]
        lines += _aligned(table, right_from=1)
        lines += [""]
        lines += _aligned(
            [
                ["Kendall's tau-b", _number(systems["kendall_tau"])],
                ["tau_AP (A's ordering as the reference)", _number(systems["tau_ap"])],
            ],
            right_from=1,
        )
    return "\n".join(lines) + "\n"


def _number(value: float | None) -> str:
    return "undefined" if value is None else f"{value:.4f}"


def _aligned(rows: list[list[str]], right_from: int) -> list[str]:
    """Columns padded to a common width; columns from ``right_from`` on aligned right."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return [
        "  ".join(
            cell.rjust(widths[i]) if i >= right_from else cell.ljust(widths[i])
            for i, cell in enumerate(row)
        ).rstrip()
        for row in rows
    ]


def _fail(message: str, status: int) -> int:
    """Print a one-line error, program name first, and return the exit status."""
    print(f"{_PROG}: {message}", file=sys.stderr)
    return status

"""`rankcards compare QRELS RUN_A RUN_B [RUN ...]`: are the differences between runs noise?

Every run is compared with the first (or every pair with --all-pairs), per measure, by a
paired two-sided test over the same queries (see ``rankcards.metrics._compare``).

Exit status: 0 success, 1 data error (unreadable or malformed file), 2 usage error (unknown
test, correction or measure, fewer than two runs, no query in common, bad option). Errors are
one line, never a traceback.
"""

from __future__ import annotations

import argparse
import io
import sys

from rankcards.commands._warn import said_once

HELP = "compare runs with paired significance tests (t, Wilcoxon, randomization, bootstrap)"

DESCRIPTION = (
    HELP + ". Every run is compared with the first, the baseline (or every pair with "
    "--all-pairs), measure by measure, over the same queries: the qrels queries that any of "
    "the runs retrieved, a query missing from a run scoring 0 there (with -c: every qrels "
    "query). Tests are two-sided; the table shows each run's mean, the difference to the "
    "baseline, p, p after the correction (over every run and measure), a * where that is "
    "below --alpha, the 95% confidence interval of the difference (t-based for t, bootstrap "
    "otherwise), the effect size mean(d)/sd(d) and the queries won/lost/tied."
)

#: Measures compared when no -m is given.
DEFAULT_MEASURES = ("AP", "nDCG@10", "RR", "P@10")
TESTS = ("t", "wilcoxon", "randomization", "bootstrap")
CORRECTIONS = ("none", "holm", "bonferroni")
FORMATS = ("table", "json")

_PROG = "rankcards compare"
STDIN = "-"
STDIN_NAME = "<stdin>"
_TEST_NAMES = {
    "t": "paired t-test",
    "wilcoxon": "Wilcoxon signed-rank test (normal approximation)",
    "randomization": "Fisher's paired randomization test",
    "bootstrap": "paired bootstrap test (studentized, differences shifted to mean 0)",
}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Declare the runs and the options: -m, --test, --alpha, --correction, --samples, --seed,
    --all-pairs, -c, -l, -M, --format."""
    from rankcards.metrics import measure_names

    parser.description = DESCRIPTION
    parser.usage = "%(prog)s QRELS RUN_A RUN_B [RUN ...] [options]"
    parser.add_argument(
        "qrels",
        metavar="QRELS",
        help="qrels file: 'qid iter docno rel' lines (.gz allowed; - reads stdin)",
    )
    parser.add_argument(
        "runs",
        nargs="*",
        metavar="RUN",
        help="two or more run files, 'qid Q0 docno rank score tag' lines; the first is the "
        "baseline; named in the output as given",
    )
    parser.add_argument(
        "-m",
        "--measure",
        action="append",
        metavar="MEASURE",
        help="measure to compare, repeatable, e.g. -m AP -m nDCG@10 "
        f"(default: {' '.join(DEFAULT_MEASURES)}); measures: {', '.join(measure_names())} "
        "(not the counters num_q, num_ret, num_rel, num_rel_ret)",
    )
    parser.add_argument(
        "--test",
        default="t",
        metavar="{" + ",".join(TESTS) + "}",
        help="t: paired t-test (default); wilcoxon: signed-rank, zero differences dropped, "
        "normal approximation with tie correction; randomization: sign flips of the "
        "differences, exact up to 16 non-zero differences; bootstrap: studentized shift test "
        "(t of resamples of the differences shifted to mean 0) with the percentile interval",
    )
    parser.add_argument(
        "--alpha",
        type=float,
        default=0.05,
        metavar="ALPHA",
        help="significance level (default 0.05)",
    )
    parser.add_argument(
        "--correction",
        default="none",
        metavar="{" + ",".join(CORRECTIONS) + "}",
        help="adjust the p-values over all comparisons of the call (every run and measure): "
        "none (default), holm or bonferroni",
    )
    parser.add_argument(
        "--samples",
        type=int,
        default=10_000,
        metavar="N",
        help="random sign flips (randomization) and resamples (bootstrap test and intervals); "
        "default 10000",
    )
    parser.add_argument("--seed", type=int, default=0, metavar="N", help="random seed (default 0)")
    parser.add_argument(
        "--all-pairs",
        action="store_true",
        help="compare every pair of runs, not only each run with the first",
    )
    parser.add_argument(
        "-c",
        "--complete",
        action="store_true",
        help="compare over every qrels query, not only those some run retrieved",
    )
    parser.add_argument(
        "-l",
        "--level",
        type=int,
        default=1,
        metavar="LEVEL",
        help="minimum relevance label counted as relevant (default 1)",
    )
    parser.add_argument(
        "-M",
        "--depth",
        type=int,
        metavar="DEPTH",
        help="evaluate only the top DEPTH documents of each ranking",
    )
    parser.add_argument(
        "--format",
        default="table",
        metavar="{" + ",".join(FORMATS) + "}",
        help="table (default) or json: {runs, measures, test, alpha, correction, aggregate, "
        "comparisons} at full precision",
    )


def run(args: argparse.Namespace) -> int:
    """Check the options, read the files, compare and print; map errors to exit codes."""
    from rankcards.metrics import (
        MeasureError,
        TrecFormatError,
        compare_scores,
        paired_scores,
        parse_measure,
        read_qrels,
        read_run,
    )

    problem = _usage_problem(args)
    if problem:
        return _fail(problem, 2)
    try:
        specs = [parse_measure(name) for name in args.measure or DEFAULT_MEASURES]
    except MeasureError as error:
        return _fail(str(error), 2)
    for spec in specs:
        if spec.measure.is_counter:
            return _fail(f"{spec.name} is a counter, not a per-query measure: compare needs "
                         "per-query values", 2)  # fmt: skip
    try:
        qrels = read_qrels(_stdin(), STDIN_NAME) if args.qrels == STDIN else read_qrels(args.qrels)
        runs = {
            path: read_run(_stdin(), STDIN_NAME) if path == STDIN else read_run(path)
            for path in args.runs
        }
    except TrecFormatError as error:
        return _fail(str(error), 1)
    try:
        with said_once(_PROG):
            paired = paired_scores(qrels, runs, specs, args.complete, args.depth, args.level)
        result = compare_scores(
            paired.scores,
            args.test,
            args.alpha,
            args.correction,
            args.samples,
            args.seed,
            args.all_pairs,
        )
    except ValueError as error:  # no query in common, too few queries for the t-test
        return _fail(str(error), 2)
    if args.format == "json":
        import json

        sys.stdout.write(json.dumps(result, indent=2) + "\n")
    else:
        sys.stdout.write(
            render_table(result, len(paired.queries), args.complete, args.samples, args.seed)
        )
    return 0


def _usage_problem(args: argparse.Namespace) -> str | None:
    """The first problem with the options and file names, before reading anything."""
    if len(args.runs) < 2:
        return f"give at least two runs to compare (RUN_A RUN_B ...), got {len(args.runs)}"
    if args.test not in TESTS:
        return f"--test must be one of {', '.join(TESTS)}, got {args.test!r}"
    if args.correction not in CORRECTIONS:
        return f"--correction must be one of {', '.join(CORRECTIONS)}, got {args.correction!r}"
    if args.format not in FORMATS:
        return f"--format must be one of {', '.join(FORMATS)}, got {args.format!r}"
    if not 0.0 < args.alpha < 1.0:
        return f"--alpha must be a number between 0 and 1 (exclusive), got {args.alpha}"
    if args.samples < 1:
        return f"--samples must be an integer >= 1, got {args.samples}"
    if args.depth is not None and args.depth < 1:
        return f"-M/--depth must be an integer >= 1, got {args.depth}"
    if args.level < 0:
        return f"-l/--level must be an integer >= 0, got {args.level}"
    repeated = sorted({path for path in args.runs if args.runs.count(path) > 1})
    if repeated:
        return f"run {repeated[0]} is given twice; each run is named by its path"
    if [args.qrels, *args.runs].count(STDIN) > 1:
        return "only one of QRELS and the runs can be - (standard input)"
    return None


def render_table(
    result: dict[str, object], queries: int, complete: bool, samples: int, seed: int
) -> str:
    """The comparison as an aligned text table, one block of rows per measure.

    Each run has a row with its mean; each comparison where it is the run (not the baseline)
    adds the baseline, the difference, p, adjusted p, the mark, interval, effect and W/L/T.
    """
    runs: list[str] = result["runs"]  # type: ignore[assignment]
    measures: list[str] = result["measures"]  # type: ignore[assignment]
    aggregate: dict[str, dict[str, float]] = result["aggregate"]  # type: ignore[assignment]
    comparisons: list[dict[str, object]] = result["comparisons"]  # type: ignore[assignment]
    test, alpha, correction = result["test"], result["alpha"], result["correction"]
    header = ["measure", "run", "mean", "baseline", "delta", "p", "p_adj", "sig"]
    header += ["95% CI", "effect", "W/L/T"]
    rows = [header]
    for measure in measures:
        for run in runs:
            first = [measure, run, f"{aggregate[run][measure]:.4f}"]
            own = [c for c in comparisons if c["run"] == run and c["measure"] == measure]
            if not own:
                rows.append(first + [""] * (len(header) - 3))
            for index, row in enumerate(own):
                rows.append((first if index == 0 else ["", "", ""]) + _cells(row))
    widths = [max(len(row[i]) for row in rows) for i in range(len(header))]
    right = {2, 4, 5, 6, 9}
    lines = [
        "  ".join(
            cell.rjust(widths[i]) if i in right else cell.ljust(widths[i])
            for i, cell in enumerate(row)
        ).rstrip()
        for row in rows
    ]
    method = _TEST_NAMES[str(test)]
    if test == "randomization":
        method += f" (all sign flips up to 16 non-zero differences, else {samples} samples)"
    corrected = (
        "no correction"
        if correction == "none"
        else f"{str(correction).capitalize()} correction over {len(comparisons)} comparisons"
    )
    chosen = (
        "every qrels query"
        if complete
        else "the qrels queries any run retrieved; a missing one scores 0"
    )
    above = f"{method}, two-sided; {corrected}; {queries} queries ({chosen})"
    interval = (
        "t-based" if test == "t" else f"bootstrap percentile, {samples} resamples, seed {seed}"
    )
    below = [
        f"* p_adj < {alpha}; delta, CI, W/L/T: run - baseline; 95% CI: {interval}",
        "effect: mean(d) / sd(d) of the per-query differences d",
    ]
    return "\n".join([above, "", *lines, "", *below]) + "\n"


def _cells(row: dict[str, object]) -> list[str]:
    low, high = row["ci"]  # type: ignore[misc]
    effect = row["effect_size"]
    return [
        str(row["baseline"]),
        f"{row['delta']:+.4f}",
        _p_text(float(row["p"])),  # type: ignore[arg-type]
        _p_text(float(row["p_adjusted"])),  # type: ignore[arg-type]
        "*" if row["significant"] else "",
        f"[{low:+.4f}, {high:+.4f}]",
        f"{'-' if float(row['delta']) < 0 else '+'}inf" if effect is None else f"{effect:+.2f}",  # type: ignore[arg-type]
        f"{row['wins']}/{row['losses']}/{row['ties']}",
    ]


def _p_text(p: float) -> str:
    """Four decimals, or two significant digits below 0.0001 (so that only 0 reads 0)."""
    return f"{p:.4f}" if p >= 1e-4 or p == 0.0 else f"{p:.1e}"


def _stdin() -> io.TextIOWrapper:
    """Standard input as text lines; undecodable bytes reach the reader, which names the line."""
    return io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8", errors="surrogateescape")


def _fail(message: str, status: int) -> int:
    """Print a one-line error, program name first, and return the exit status."""
    print(f"{_PROG}: {message}", file=sys.stderr)
    return status

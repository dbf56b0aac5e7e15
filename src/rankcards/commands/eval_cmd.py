"""`rankcards eval QRELS RUN`: evaluate a TREC run like trec_eval, with ir_measures names.

Exit status: 0 success, 1 data error (unreadable or malformed file, no query in common),
2 usage error (unknown measure, bad option). Errors are one line, never a traceback.
"""

from __future__ import annotations

import argparse
import io
import sys
from typing import TYPE_CHECKING

from rankcards.commands._warn import said_once

if TYPE_CHECKING:
    from rankcards.metrics import Evaluation, MeasureSpec

HELP = "evaluate a TREC run against qrels (trec_eval semantics, ir_measures names)"

#: Measures printed when no -m is given.
DEFAULT_MEASURES = ("RR", "P@5", "P@10", "R@100", "AP", "Rprec", "nDCG@10", "Success@10")

_PROG = "rankcards eval"
STDIN = "-"
STDIN_NAME = "<stdin>"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Declare trec_eval-like options: -m, -q, -c, -M, -l, and -j, --format."""
    from rankcards.metrics import measure_names

    parser.add_argument(
        "qrels",
        help="qrels file: 'qid iter docno rel' lines (.gz allowed; - reads stdin); the "
        "diversity measures read iter as the subtopic, as ndeval: 'qid subtopic docno rel'",
    )
    parser.add_argument(
        "run", help="run file: 'qid Q0 docno rank score tag' lines (.gz allowed; - reads stdin)"
    )
    parser.add_argument(
        "-m",
        "--measure",
        action="append",
        metavar="MEASURE",
        help="measure to compute, repeatable, e.g. -m RR@10 -m 'P(rel=2)@5' -m 'RBP(p=0.8)' "
        "-m alpha_nDCG@20 "
        f"(default: {' '.join(DEFAULT_MEASURES)}); measures: {', '.join(measure_names())}",
    )
    parser.add_argument(
        "-q",
        "--per-query",
        action="store_true",
        help="also print one line per query and measure (trec format; json always has them)",
    )
    parser.add_argument(
        "-c",
        "--complete",
        action="store_true",
        help="average over all qrels queries; queries missing from the run score 0 (without "
        "-c, over the queries in both, as trec_eval 9.x; 10.0 stops on a missing query)",
    )
    parser.add_argument(
        "-M",
        "--depth",
        type=int,
        metavar="DEPTH",
        help="evaluate only the top DEPTH documents of each ranking",
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
        "-j",
        "--jobs",
        type=int,
        metavar="N",
        help="processes reading a large plain run file at once, cut at query boundaries "
        "(default: the CPUs available, at most 8; 1 reads it in this process only)",
    )
    parser.add_argument(
        "--format",
        choices=("trec", "json"),
        default="trec",
        help="trec: 'measure<TAB>qid<TAB>value' lines, 4 decimals (default); "
        "json: {per_query, aggregate} at full precision",
    )


def run(args: argparse.Namespace) -> int:
    """Parse the measures, read both files, evaluate and print; map errors to exit codes."""
    from rankcards.metrics import MeasureError, TrecFormatError, parse_measure

    try:
        specs = [parse_measure(name) for name in args.measure or DEFAULT_MEASURES]
    except MeasureError as error:
        return _fail(str(error), 2)
    if args.depth is not None and args.depth < 1:
        return _fail(f"-M/--depth must be an integer >= 1, got {args.depth}", 2)
    if args.level < 0:
        return _fail(f"-l/--level must be an integer >= 0, got {args.level}", 2)
    if args.jobs is not None and args.jobs < 1:
        return _fail(f"-j/--jobs must be an integer >= 1, got {args.jobs}", 2)
    if args.qrels == args.run == STDIN:
        return _fail("only one of QRELS and RUN can be - (standard input)", 2)
    try:
        with said_once(_PROG):
            result = _evaluate(args, specs)
    except TrecFormatError as error:
        return _fail(str(error), 1)
    except ValueError as error:  # no query in common
        return _fail(f"{args.run}: {error}", 1)
    if args.format == "json":
        sys.stdout.write(result.to_json() + "\n")
    else:
        sys.stdout.write(result.to_trec(per_query=args.per_query))
    return 0


def _evaluate(args: argparse.Namespace, specs: list[MeasureSpec]) -> Evaluation:
    """Read and evaluate as the options say: a pipe is read whole, files query by query."""
    from rankcards.metrics import evaluate, evaluate_files, read_qrels, read_run
    from rankcards.metrics._parts import default_jobs

    if STDIN in (args.qrels, args.run):  # a pipe is read once, whole
        qrels = read_qrels(_stdin(), STDIN_NAME) if args.qrels == STDIN else read_qrels(args.qrels)
        ranking = read_run(_stdin(), STDIN_NAME) if args.run == STDIN else read_run(args.run)
        return evaluate(qrels, ranking, specs, args.complete, args.depth, args.level)
    jobs = default_jobs() if args.jobs is None else args.jobs
    return evaluate_files(args.qrels, args.run, specs, args.complete, args.depth, args.level, jobs)


def _stdin() -> io.TextIOWrapper:
    """Standard input as text lines; bytes that are not UTF-8 reach the reader, which names
    their line, instead of failing inside the decoder."""
    return io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8", errors="surrogateescape")


def _fail(message: str, status: int) -> int:
    """Print a one-line error, program name first, and return the exit status."""
    print(f"{_PROG}: {message}", file=sys.stderr)
    return status

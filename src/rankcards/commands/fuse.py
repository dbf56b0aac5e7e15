"""`rankcards fuse RUN RUN [RUN ...]`: fuse TREC runs by RRF, CombSUM or CombMNZ.

The fused run is written as a TREC run (``qid Q0 docno rank score tag``), each query's
documents by fused score descending, equal scores by docno descending (see
``rankcards.metrics._fuse``, which also says where ranx differs).

Exit status: 0 success, 1 data error (unreadable or malformed run, output not writable),
2 usage error (fewer than two runs, bad option). Errors are one line, never a traceback.
"""

from __future__ import annotations

import argparse
import io
import sys

HELP = "fuse TREC runs into one (RRF, CombSUM, CombMNZ; scores as ranx computes them)"

DESCRIPTION = (
    HELP + ". Each run is ranked as trec_eval ranks it (score descending, equal scores by "
    "docno descending; the rank column is ignored). rrf: sum over runs of 1/(k + rank), ranks "
    "from 1; combsum: sum of the normalised scores (0 where a run lacks the document); "
    "combmnz: that sum times the number of runs that retrieved the document. Normalisation "
    "per query and run: minmax (s-min)/(max-min); zmuv (s-mean)/sd; sum (s-min)/(sum-n*min); "
    "none."
)

_PROG = "rankcards fuse"
STDOUT = "-"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Declare the runs and the options: --method, --k, --norm, --depth, --tag, -o."""
    from rankcards.metrics._fuse import METHODS, NORMS, RRF_K

    parser.description = DESCRIPTION
    parser.usage = "%(prog)s RUN RUN [RUN ...] [--method rrf|combsum|combmnz] [options]"
    parser.add_argument(
        "runs",
        nargs="*",
        metavar="RUN",
        help="two or more run files, 'qid Q0 docno rank score tag' lines (.gz allowed)",
    )
    parser.add_argument(
        "--method",
        default="rrf",
        metavar="{" + ",".join(METHODS) + "}",
        help="rrf (default; Cormack et al. 2009), combsum or combmnz (Fox & Shaw 1993)",
    )
    parser.add_argument(
        "--k",
        type=float,
        default=float(RRF_K),
        metavar="K",
        help=f"RRF's constant in 1/(k + rank), a number >= 0 (default {RRF_K})",
    )
    parser.add_argument(
        "--norm",
        metavar="{" + ",".join(NORMS) + "}",
        help="score normalisation before combsum/combmnz (default minmax, as ranx); rrf fuses "
        "ranks and takes none",
    )
    parser.add_argument(
        "--depth",
        type=int,
        metavar="N",
        help="keep each run's top N documents before fusing, and the fused run's top N",
    )
    parser.add_argument(
        "--tag", metavar="TAG", help="the fused run's tag, its last column (default: the method)"
    )
    parser.add_argument(
        "-o",
        "--output",
        default=STDOUT,
        metavar="OUT",
        help="where to write the fused run (default -: standard output)",
    )


def run(args: argparse.Namespace) -> int:
    """Check the options, read the runs, fuse and write; map errors to exit codes."""
    from rankcards.metrics import TrecFormatError, fuse, read_run
    from rankcards.metrics._fuse import METHODS, NORMS

    if len(args.runs) < 2:
        return _fail(f"give at least two runs to fuse (RUN RUN ...), got {len(args.runs)}", 2)
    if args.method not in METHODS:
        return _fail(f"--method must be one of {', '.join(METHODS)}, got {args.method!r}", 2)
    if args.norm is not None and args.norm not in NORMS:
        return _fail(f"--norm must be one of {', '.join(NORMS)}, got {args.norm!r}", 2)
    if args.method == "rrf" and args.norm not in (None, "none"):
        return _fail(f"--norm {args.norm} does not apply to rrf, which fuses ranks", 2)
    if not args.k >= 0 or args.k == float("inf"):
        return _fail(f"--k must be a number >= 0, got {args.k}", 2)
    if args.depth is not None and args.depth < 1:
        return _fail(f"--depth must be an integer >= 1, got {args.depth}", 2)
    try:
        runs = [read_run(path) for path in args.runs]
    except TrecFormatError as error:
        return _fail(str(error), 1)
    k = int(args.k) if args.k.is_integer() else args.k
    fused = fuse(runs, args.method, k=k, norm=args.norm, depth=args.depth)
    text = render(fused, args.tag or args.method)
    if args.output == STDOUT:
        sys.stdout.buffer.write(text)
        sys.stdout.flush()
        return 0
    try:
        with open(args.output, "wb") as handle:
            handle.write(text)
    except OSError as error:
        return _fail(f"{args.output}: {error.strerror or error}", 1)
    return 0


def render(fused: dict[str, dict[str, float]], tag: str) -> bytes:
    """The fused run as TREC lines; scores at full precision (``repr``), ranks from 1."""
    out = io.BytesIO()
    for qid, scores in fused.items():
        for rank, (docno, score) in enumerate(scores.items(), 1):
            line = f"{qid} Q0 {docno} {rank} {score!r} {tag}\n"
            out.write(line.encode("utf-8", "surrogateescape"))
    return out.getvalue()


def _fail(message: str, status: int) -> int:
    """Print a one-line error, program name first, and return the exit status."""
    print(f"{_PROG}: {message}", file=sys.stderr)
    return status

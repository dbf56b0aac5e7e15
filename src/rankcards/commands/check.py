"""`rankcards check [DIR]`: validate every card and print all problems, one per line."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

HELP = (
    "validate the cards in DIR (default docs/cards): schema, rules, links, LaTeX, examples, "
    "demos, stated numbers"
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("directory", nargs="?", default="docs/cards", type=Path, metavar="DIR")
    parser.add_argument(
        "--timeout", type=float, default=10.0, help="seconds allowed per code example and demo"
    )
    parser.add_argument(
        "--no-cache",
        action="store_true",
        help="run every example, claim and demo again (by default their answers are kept in "
        ".cache/rankcards-check, keyed on the job and the rankcards sources)",
    )


def run(args: argparse.Namespace) -> int:
    from rankcards.cards import (
        CardError,
        KatexUnavailable,
        build_cards,
        cache_dir_for,
        card_files,
        find_katex,
    )

    directory: Path = args.directory
    if not directory.is_dir():
        print(f"rankcards check: {directory}: not a directory", file=sys.stderr)
        return 2
    try:
        katex = find_katex(directory)
        cache = None if args.no_cache else cache_dir_for(katex)
        cards = build_cards(directory, katex_dir=katex, timeout=args.timeout, cache_dir=cache)
    except KatexUnavailable as error:
        print(f"rankcards check: {error}", file=sys.stderr)
        return 2
    except CardError as error:
        for problem in error.problems:
            print(problem)
        files = len({problem.path for problem in error.problems})
        count = len(error.problems)
        print(
            f"rankcards check: {count} problem{'s' * (count != 1)} in {files} "
            f"file{'s' * (files != 1)} (of {len(card_files(directory))})",
            file=sys.stderr,
        )
        return 1
    print(f"rankcards check: {len(cards)} cards OK", file=sys.stderr)
    return 0

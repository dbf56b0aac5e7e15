"""`rankcards site-sources OUTDIR`: the site's sources for an engine without the MkDocs plugin.

What OUTDIR holds and why: :mod:`rankcards.site.sources`. ``make build-zensical`` runs it, then
``zensical build`` in OUTDIR.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

HELP = "write the site's pages, assets, templates and config into OUTDIR for Zensical"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("out_dir", type=Path, metavar="OUTDIR")
    parser.add_argument(
        "-f",
        "--config-file",
        type=Path,
        default=Path("mkdocs.yml"),
        help="the MkDocs config that lists the rankcards plugin (default: mkdocs.yml)",
    )
    parser.add_argument(
        "--site-dir",
        default="site",
        help="where the engine builds, relative to OUTDIR (default: site)",
    )


def run(args: argparse.Namespace) -> int:
    from rankcards.cards import CardError, KatexUnavailable
    from rankcards.site.generator import TemplateProblem
    from rankcards.site.sources import SourcesError, write_sources

    config_file: Path = args.config_file
    if not config_file.is_file():
        print(f"rankcards site-sources: {config_file}: no such file", file=sys.stderr)
        return 2
    started = time.perf_counter()
    try:
        count = write_sources(config_file, args.out_dir, site_dir=args.site_dir)
    except (SourcesError, KatexUnavailable) as error:
        print(f"rankcards site-sources: {error}", file=sys.stderr)
        return 2
    except TemplateProblem as error:
        print(f"rankcards site-sources: {error}", file=sys.stderr)
        return 1
    except CardError as error:
        for problem in error.problems:
            print(problem)
        count = len(error.problems)
        print(f"rankcards site-sources: {count} problem(s) in the cards", file=sys.stderr)
        return 1
    seconds = time.perf_counter() - started
    print(
        f"rankcards site-sources: {count} pages written to {args.out_dir} in {seconds:.1f} s",
        file=sys.stderr,
    )
    return 0

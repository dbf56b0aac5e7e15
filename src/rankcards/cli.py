"""The `rankcards` command: one sub-command per module under `rankcards.commands`.

Each sub-command module exposes ``HELP`` (one line), ``add_arguments(parser)`` and
``run(args) -> int``. Modules keep their top level to the standard library (other imports go
inside ``run``): ``pip install rankcards`` installs no dependencies, and `rankcards eval` runs on
it alone. The card commands need the ``site`` extra; without it they say so in one line.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import sys
from collections.abc import Sequence

from rankcards import __version__

# name -> module under rankcards.commands; the order is the order of `rankcards --help`.
_COMMANDS: dict[str, str] = {
    "eval": "eval_cmd",
    "compare": "compare",
    "fuse": "fuse",
    "agree": "agree",
    "check": "check",
    "new": "new",
    "schema": "schema",
    "site-sources": "site_sources",
}
# The commands that need the `site` extra, and the top-level modules its packages provide.
_SITE_COMMANDS = frozenset({"check", "new", "schema", "site-sources"})
SITE_MODULES = frozenset(
    {"yaml", "jinja2", "markupsafe", "markdown", "jsonschema", "mkdocs", "material"}
)
SITE_EXTRA_HINT = "pip install 'rankcards[site]'"


def missing_site_module() -> str | None:
    """The first module of the ``site`` extra that cannot be imported, or None when all can."""
    for name in sorted(SITE_MODULES - {"mkdocs", "material"}):  # what the card commands import
        if importlib.util.find_spec(name) is None:
            return name
    return None


def _build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="rankcards",
        description="Retrieval & ranking evaluation: trec_eval-exact metrics and concept cards.",
    )
    parser.add_argument("--version", action="version", version=f"rankcards {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name, module_name in _COMMANDS.items():
        module = importlib.import_module(f"rankcards.commands.{module_name}")
        sub_parser = sub.add_parser(name, help=module.HELP, description=module.HELP)
        module.add_arguments(sub_parser)
        sub_parser.set_defaults(_run=module.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (0 ok, 1 data error, 2 usage error)."""
    parser = _build_parser()
    args = parser.parse_args(argv)
    if args.command in _SITE_COMMANDS and missing_site_module() is not None:
        print(f"rankcards {args.command}: needs the site extra: {SITE_EXTRA_HINT}", file=sys.stderr)
        return 2
    try:
        return int(args._run(args))
    except KeyboardInterrupt:
        print("rankcards: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    raise SystemExit(main())

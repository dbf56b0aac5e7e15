"""The `rankcards` command: one sub-command per module under `rankcards.commands`.

Each sub-command module exposes ``HELP`` (one line), ``add_arguments(parser)`` and
``run(args) -> int``. Modules keep their top level light (heavy imports go inside ``run``)
so that `rankcards eval` does not pay for the site generator's imports.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from rankcards import __version__

# name -> module under rankcards.commands; the order is the order of `rankcards --help`.
_COMMANDS: dict[str, str] = {
    "eval": "eval_cmd",
    "compare": "compare",
    "check": "check",
    "new": "new",
    "schema": "schema",
}


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
    try:
        return int(args._run(args))
    except KeyboardInterrupt:
        print("rankcards: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    raise SystemExit(main())

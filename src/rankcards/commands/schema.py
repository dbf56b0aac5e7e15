"""`rankcards schema`: print the card JSON Schema (for editors and other tools)."""

from __future__ import annotations

import argparse
import sys

HELP = "print the JSON Schema of card files"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    del parser  # no options: the schema is fixed by the installed version


def run(args: argparse.Namespace) -> int:
    from rankcards.cards import schema_text

    sys.stdout.write(schema_text())
    return 0

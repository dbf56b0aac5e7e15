"""Warnings from the measures, said the way the commands say errors: one line each, once."""

from __future__ import annotations

import sys
import warnings
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def said_once(prog: str) -> Iterator[None]:
    """Collect the warnings raised inside (e.g. a single-subtopic qrels given to a diversity
    measure, once per run evaluated) and print each message once as ``prog: warning: ...`` when
    the block ends normally; a block that raises says its error instead."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        yield
    for message in dict.fromkeys(str(warning.message) for warning in caught):
        print(f"{prog}: warning: {message}", file=sys.stderr)

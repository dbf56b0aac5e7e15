"""Error types of the metrics module: one for bad input files, one for bad measure names."""

from __future__ import annotations


class TrecFormatError(ValueError):
    """A qrels or run file (or list of lines) that does not follow the TREC format.

    Carries the file name and 1-based line number so that every caller (the CLI, the
    evaluate page) can print the same one-line ``file:line: message`` error.
    """

    def __init__(self, path: str, line: int | None, message: str) -> None:
        self.path = path
        self.line = line
        self.message = message
        where = f"{path}:{line}" if line is not None else path
        super().__init__(f"{where}: {message}")


class MeasureError(ValueError):
    """A measure name that does not parse, or that names no known measure."""

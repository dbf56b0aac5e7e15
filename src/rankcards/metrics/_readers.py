"""TREC qrels and run readers: streaming, compact, strict, with file:line errors.

Formats (trec_eval v10): qrels lines ``qid iter docno rel`` (exactly 4 columns, integer rel);
run lines ``qid Q0 docno rank score tag`` (at least 6 columns: like trec_eval, the rank and
anything after the tag are ignored; the score is a finite double). Lines whose first word
starts with ``#`` and blank lines are skipped. A docno twice for one query and an empty input
are errors. A path may be gzip-compressed (detected by its magic bytes).

A run is held per query as a list of docnos plus an ``array('d')`` of scores, and qids are
shared between lines, so a large run costs less memory than the equivalent dict of dicts.
"""

from __future__ import annotations

import io
import os
import re
from array import array
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from math import isfinite
from typing import BinaryIO, cast

from ._errors import TrecFormatError

PathOrLines = str | os.PathLike[str] | Iterable[str]

_INTEGER = re.compile(r"[+-]?[0-9]+")
_LINES_NAME = "<lines>"


class Qrels(Mapping[str, dict[str, int]]):
    """Relevance judgments: ``qrels[qid][docno] -> int`` label, queries in file order."""

    def __init__(self, data: dict[str, dict[str, int]], name: str = _LINES_NAME) -> None:
        self._data = data
        self.name = name

    def __getitem__(self, qid: str) -> dict[str, int]:
        return self._data[qid]

    def __iter__(self) -> Iterator[str]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)


class Run(Mapping[str, dict[str, float]]):
    """A ranked run, stored compactly; ``run[qid]`` builds a ``{docno: score}`` dict."""

    def __init__(
        self, data: dict[str, tuple[list[str], array[float]]], name: str = _LINES_NAME
    ) -> None:
        self._data = data
        self.name = name

    def __getitem__(self, qid: str) -> dict[str, float]:
        docnos, scores = self._data[qid]
        return dict(zip(docnos, scores, strict=True))

    def __iter__(self) -> Iterator[str]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def docs(self, qid: str) -> tuple[list[str], array[float]]:
        """Docnos and scores of one query in file order, without copying."""
        return self._data[qid]


def read_qrels(source: PathOrLines, name: str | None = None) -> Qrels:
    """Read TREC qrels (``qid iter docno rel``) from a path (plain or .gz) or lines.

    Args:
        source: a file path, or an iterable of text lines (e.g. ``text.splitlines()``).
        name: the name used in error messages (default: the path, or ``<lines>``).

    Returns:
        Qrels: a mapping ``qid -> {docno: rel}``.

    Raises:
        TrecFormatError: wrong column count, non-integer relevance, a docno twice for one
            query, or no judgments at all; ``.path`` and ``.line`` locate the problem.

    Reference:
        trec_eval v10.0, ``get_qrels.c``.

    Example:
        >>> qrels = read_qrels(["q1 0 d1 1", "# a comment", "q1 0 d2 0"])
        >>> dict(qrels["q1"])
        {'d1': 1, 'd2': 0}
    """
    label = _name(source, name)
    data: dict[str, dict[str, int]] = {}
    number = 0
    try:
        with _lines(source, label) as lines:
            for number, line in enumerate(lines, 1):
                parts = line.split()
                if not parts or parts[0].startswith("#"):
                    continue
                if len(parts) != 4:
                    raise TrecFormatError(
                        label, number, f"expected 4 columns 'qid iter docno rel', got {len(parts)}"
                    )
                qid, _, docno, rel = parts
                if not _INTEGER.fullmatch(rel):
                    raise TrecFormatError(label, number, f"relevance {rel!r} is not an integer")
                judged = data.get(qid)
                if judged is None:
                    judged = data[qid] = {}
                elif docno in judged:
                    raise TrecFormatError(
                        label, number, f"docno {docno!r} appears twice for query {qid!r}"
                    )
                judged[docno] = int(rel)
    except (UnicodeDecodeError, OSError, EOFError) as error:
        raise _unreadable(source, label, number + 1, error) from None
    if not data:
        raise TrecFormatError(label, None, "empty qrels: no judgment lines")
    return Qrels(data, label)


def read_run(source: PathOrLines, name: str | None = None) -> Run:
    """Read a TREC run (``qid Q0 docno rank score tag``) from a path (plain or .gz) or lines.

    Args:
        source: a file path, or an iterable of text lines (e.g. ``text.splitlines()``).
        name: the name used in error messages (default: the path, or ``<lines>``).

    Returns:
        Run: per query, docnos and scores in file order (ranking happens at evaluation:
        score descending, ties by docno descending; the rank column is ignored).

    Raises:
        TrecFormatError: fewer than 6 columns, a score that is not a finite number, a docno
            twice for one query, or no result lines; ``.path`` and ``.line`` locate it.

    Reference:
        trec_eval v10.0, ``get_trec_results.c``.

    Example:
        >>> run = read_run(["q1 Q0 d1 1 0.5 sys", "q1 Q0 d2 2 0.9 sys"])
        >>> run["q1"]
        {'d1': 0.5, 'd2': 0.9}
    """
    label = _name(source, name)
    data: dict[str, tuple[list[str], array[float]]] = {}
    current = ""
    seen: set[str] = set()
    docnos: list[str] = []
    scores: array[float] = array("d")
    number = 0
    try:
        with _lines(source, label) as lines:
            for number, line in enumerate(lines, 1):
                parts = line.split()
                if len(parts) != 6:
                    if not parts or parts[0].startswith("#"):
                        continue
                    if len(parts) < 6:
                        raise TrecFormatError(
                            label,
                            number,
                            f"expected 6 columns 'qid Q0 docno rank score tag', got {len(parts)}",
                        )
                qid = parts[0]
                if qid != current:
                    if qid.startswith("#"):
                        continue
                    entry = data.get(qid)
                    if entry is None:
                        entry = data[qid] = ([], array("d"))
                    docnos, scores = entry
                    seen = set(docnos)
                    current = qid
                docno = parts[2]
                score_text = parts[4]
                try:
                    score = float(score_text)
                except ValueError:
                    raise TrecFormatError(
                        label, number, f"score {score_text!r} is not a number"
                    ) from None
                if not isfinite(score) or "_" in score_text:
                    raise TrecFormatError(
                        label, number, f"score {score_text!r} is not a finite number"
                    )
                if docno in seen:
                    raise TrecFormatError(
                        label, number, f"docno {docno!r} appears twice for query {qid!r}"
                    )
                seen.add(docno)
                docnos.append(docno)
                scores.append(score)
    except (UnicodeDecodeError, OSError, EOFError) as error:
        raise _unreadable(source, label, number + 1, error) from None
    if not data:
        raise TrecFormatError(label, None, "empty run: no result lines")
    return Run(data, label)


def _name(source: PathOrLines, name: str | None) -> str:
    """The label of the input in error messages."""
    if name is not None:
        return name
    if isinstance(source, (str, os.PathLike)):
        return os.fspath(source)
    return _LINES_NAME


@contextmanager
def _lines(source: PathOrLines, label: str) -> Iterator[Iterable[str]]:
    """Open a path as UTF-8 text (gunzipped when needed) or pass lines through."""
    if not isinstance(source, (str, os.PathLike)):
        yield source
        return
    try:
        raw = _open_bytes(source)
    except OSError as error:
        raise TrecFormatError(label, None, error.strerror or str(error)) from None
    with io.TextIOWrapper(raw, encoding="utf-8") as text:
        yield text


def _open_bytes(path: str | os.PathLike[str]) -> BinaryIO:
    """Open a file for reading bytes; gzip is recognised by its magic bytes, not its name."""
    with open(path, "rb") as probe:
        gzipped = probe.read(2) == b"\x1f\x8b"
    if gzipped:
        import gzip

        return cast(BinaryIO, gzip.open(path, "rb"))
    return open(path, "rb")


def _unreadable(source: PathOrLines, label: str, line: int, error: Exception) -> TrecFormatError:
    """A decoding or I/O failure while reading, located at the offending line."""
    if isinstance(error, UnicodeDecodeError):
        if isinstance(source, (str, os.PathLike)):
            # text files decode in blocks, so the failing block's line count is not exact
            line = _first_undecodable_line(source) or line
        return TrecFormatError(label, line, f"not UTF-8 text ({error.reason})")
    return TrecFormatError(label, line, f"cannot read: {error}")


def _first_undecodable_line(path: str | os.PathLike[str]) -> int | None:
    """Re-read a file as bytes (error path only) to find the first line that is not UTF-8."""
    with _open_bytes(path) as handle:
        for number, raw in enumerate(handle, 1):
            try:
                raw.decode("utf-8")
            except UnicodeDecodeError:
                return number
    return None

"""TREC qrels and run readers: streaming, compact, strict, with file:line errors.

Formats (trec_eval v10): qrels lines ``qid iter docno rel`` (exactly 4 columns, integer rel);
run lines ``qid Q0 docno rank score tag`` (at least 6 columns: like trec_eval, the rank and
anything after the tag are ignored; the score is a finite double). Lines whose first word
starts with ``#`` and blank lines are skipped; columns are split on ASCII whitespace, as C's
``isspace`` does. A docno twice for one query (of a qrels: for one query and subtopic, the
second column being the subtopic to the diversity measures, as ndeval reads it) and an empty
input are errors. A path may be gzip-compressed (recognised by its magic bytes). Qids must be
UTF-8; docnos are compared as bytes, as trec_eval does, so they may be in any encoding. A
truncated or corrupt gzip file is a data error like any other: one line naming the file
(:class:`TrecFormatError`), never the decompressor's own exception.

Speed and memory: a run is read as bytes, in blocks split with one C call each when their
lines are regular (see ``_fastrun``), and per query only the docnos (bytes) and an
``array('d')`` of scores are kept, which is far smaller than a dict of dicts. Checks that cost
per line in Python (score syntax, finiteness, duplicates, UTF-8) run in C per block or per
query; if one fails, the input is read again by a strict line-by-line reader that reports the
exact line. One-shot iterables are buffered for that.
"""

from __future__ import annotations

import gzip
import io
import os
import zlib
from array import array
from collections.abc import Callable, Iterable, Iterator, Sequence
from math import isfinite
from typing import BinaryIO, cast

from ._data import LINES_NAME, Docs, Qrels, Run
from ._errors import TrecFormatError
from ._fastqrels import read_file as read_qrels_file
from ._fastrun import Fallback, read_file, read_lines

PathOrLines = str | os.PathLike[str] | Iterable[str]
#: told how many bytes of a file have been read so far (compressed bytes for a gzip file)
OnRead = Callable[[int], None]

_RUN_FORM = "expected 6 columns 'qid Q0 docno rank score tag', got {}"
_QRELS_FORM = "expected 4 columns 'qid iter docno rel', got {}"


def read_qrels(
    source: PathOrLines, name: str | None = None, *, on_read: OnRead | None = None
) -> Qrels:
    """Read TREC qrels (``qid iter docno rel``) from a path (plain or .gz) or lines.

    The second column is kept as the subtopic when it holds more than one value (a diversity
    qrels, ``qid subtopic docno rel``, as ndeval reads it); see :class:`Qrels`.

    Args:
        source: a file path, or an iterable of text lines (e.g. ``text.splitlines()``).
        name: the name used in error messages (default: the path, or ``<lines>``).
        on_read: for a path, called after each read from the file with the bytes read so
            far (compressed bytes for a gzip file), e.g. to show progress. A file with an
            unusual line is read a second time: the count starts again from 0.

    Returns:
        Qrels: a mapping ``qid -> {docno: rel}``.

    Raises:
        TrecFormatError: wrong column count, non-integer relevance, a docno twice for one
            query and subtopic, a qid that is not UTF-8, no judgments at all, or a file that
            cannot be read (missing, or a truncated or corrupt gzip file); ``.path`` and
            ``.line`` locate it.

    Reference:
        trec_eval v10.0, ``get_qrels.c``.

    Example:
        >>> qrels = read_qrels(["q1 0 d1 1", "# a comment", "q1 0 d2 0"])
        >>> dict(qrels["q1"])
        {'d1': 1, 'd2': 0}
    """
    label = _name(source, name)
    try:
        opened = _Source(source, label, on_read)
        with opened as lines:
            if opened.handle is None:
                qrels = _read_qrels_lines(lines, label)
            else:
                qrels = Qrels(read_qrels_file(opened.handle), label)
    except Fallback:
        with _Source(source, label, on_read) as lines:
            qrels = _read_qrels_lines(lines, label)
    if not qrels:
        raise TrecFormatError(label, None, "empty qrels: no judgment lines")
    return qrels


def _read_qrels_lines(lines: Iterable[bytes], label: str) -> Qrels:
    """Read qrels line by line, raising at the first bad line; keep the subtopics (column 2)
    when the lines hold more than one value there."""
    data: dict[str, dict[bytes, int]] = {}
    topics: dict[str, dict[bytes, dict[int, int]]] = {}
    index: dict[bytes, int] = {}  # subtopic -> its order of first appearance (pyndeval's)
    repeated: TrecFormatError | None = None
    current = b""
    judged: dict[bytes, int] = {}
    judged_topics: dict[bytes, dict[int, int]] = {}
    for number, line in enumerate(lines, 1):
        try:
            raw_qid, subtopic, docno, rel = line.split()
        except ValueError:  # not 4 columns: blank, comment, or an error
            parts = line.split()
            if not parts or parts[0].startswith(b"#"):
                continue
            raise TrecFormatError(label, number, _QRELS_FORM.format(len(parts))) from None
        if raw_qid != current:
            if raw_qid.startswith(b"#"):
                continue
            try:
                qid = raw_qid.decode()
            except UnicodeDecodeError as error:
                raise TrecFormatError(label, number, f"not UTF-8 text ({error.reason})") from None
            current = raw_qid
            judged = data.setdefault(qid, {})
            judged_topics = topics.setdefault(qid, {})
        if not rel.isdigit() and not (rel[:1] in (b"-", b"+") and rel[1:].isdigit()):
            raise TrecFormatError(label, number, f"relevance {_text(rel)!r} is not an integer")
        value = int(rel)
        position = index.setdefault(subtopic, len(index))
        labels = judged_topics.setdefault(docno, {})
        if position in labels:
            raise TrecFormatError(
                label,
                number,
                f"docno {_text(docno)!r} appears twice for query {raw_qid.decode()!r}",
            )
        if labels and repeated is None:
            first = next(name for name, at in index.items() if at == next(iter(labels)))
            repeated = TrecFormatError(
                label,
                number,
                f"docno {_text(docno)!r} is judged under two subtopics of query "
                f"{raw_qid.decode()!r} ({_text(first)!r} and {_text(subtopic)!r})",
            )
        labels[position] = value
        judged[docno] = max(value, judged.get(docno, value))
    if len(index) < 2:  # one value in column 2: one subtopic per query, the flat labels
        return Qrels(data, label)
    return Qrels(data, label, topics=topics, repeated=repeated)


def read_run(source: PathOrLines, name: str | None = None, *, on_read: OnRead | None = None) -> Run:
    """Read a TREC run (``qid Q0 docno rank score tag``) from a path (plain or .gz) or lines.

    Args:
        source: a file path, or an iterable of text lines (e.g. ``text.splitlines()``).
        name: the name used in error messages (default: the path, or ``<lines>``).
        on_read: as for :func:`read_qrels`.

    Returns:
        Run: per query, docnos and scores in file order (ranking happens at evaluation:
        score descending, ties by docno descending; the rank column is ignored).

    Raises:
        TrecFormatError: fewer than 6 columns, a score that is not a finite number, a docno
            twice for one query, a qid that is not UTF-8, no result lines, or a file that
            cannot be read (missing, or a truncated or corrupt gzip file); ``.path`` and
            ``.line`` locate the problem.

    Reference:
        trec_eval v10.0, ``get_trec_results.c``.

    Example:
        >>> run = read_run(["q1 Q0 d1 1 0.5 sys", "q1 Q0 d2 2 0.9 sys"])
        >>> run["q1"]
        {'d1': 0.5, 'd2': 0.9}
    """
    label = _name(source, name)
    if not isinstance(source, (str, os.PathLike, Sequence)):
        source = list(source)  # one-shot iterable: keep it for a second, strict reading
    try:
        opened = _Source(source, label, on_read)
        with opened as lines:
            data = read_lines(lines) if opened.handle is None else read_file(opened.handle)
    except Fallback:
        with _Source(source, label, on_read) as lines:
            data = _strict_run(lines, label)
    if not data:
        raise TrecFormatError(label, None, "empty run: no result lines")
    return Run(data, label)


def _strict_run(lines: Iterable[bytes], label: str) -> dict[str, Docs]:
    """Line-by-line reading with every check, raising at the first bad line."""
    data: dict[str, Docs] = {}
    seen: dict[str, set[bytes]] = {}
    for number, line in enumerate(lines, 1):
        parts = line.split()
        if not parts or parts[0].startswith(b"#"):
            continue
        if len(parts) < 6:
            raise TrecFormatError(label, number, _RUN_FORM.format(len(parts)))
        try:
            qid = parts[0].decode()
        except UnicodeDecodeError as error:
            raise TrecFormatError(label, number, f"not UTF-8 text ({error.reason})") from None
        docno, score_text = parts[2], _text(parts[4])
        try:
            score = float(score_text)
        except ValueError:
            raise TrecFormatError(label, number, f"score {score_text!r} is not a number") from None
        if not isfinite(score) or "_" in score_text:
            raise TrecFormatError(label, number, f"score {score_text!r} is not a finite number")
        docnos = seen.setdefault(qid, set())
        if docno in docnos:
            raise TrecFormatError(
                label, number, f"docno {_text(docno)!r} appears twice for query {qid!r}"
            )
        docnos.add(docno)
        entry = data.get(qid)
        if entry is None:
            entry = data[qid] = ([], array("d"))
        entry[0].append(docno)
        entry[1].append(score)
    return data


def _name(source: PathOrLines, name: str | None) -> str:
    """The label of the input in error messages."""
    if name is not None:
        return name
    if isinstance(source, (str, os.PathLike)):
        return os.fspath(source)
    return LINES_NAME


def _text(raw: bytes) -> str:
    """A token for an error message, readable even when it is not UTF-8."""
    return raw.decode("utf-8", "backslashreplace")


class _Source:
    """Context manager yielding the input as byte lines: a file (gunzipped) or given lines.

    ``handle`` is the open file while inside, for readers that read blocks instead of lines.
    A file that cannot be opened or read (:class:`UnreadableFile`) raises TrecFormatError.
    """

    def __init__(self, source: PathOrLines, label: str, on_read: OnRead | None = None) -> None:
        self._source = source
        self._label = label
        self._on_read = on_read
        self.handle: BinaryIO | None = None

    def __enter__(self) -> Iterator[bytes]:
        source = self._source
        if not isinstance(source, (str, os.PathLike)):
            return _encoded(source, self._label)
        try:
            self.handle = open_bytes(source, self._on_read)
        except OSError as error:
            raise unreadable(self._label, error) from None
        return iter(self.handle)

    def __exit__(self, kind: object, error: object, traceback: object) -> None:
        if self.handle is not None:
            self.handle.close()
        if isinstance(error, OSError):  # raised while reading, e.g. UnreadableFile
            raise unreadable(self._label, error) from None


class UnreadableFile(OSError):
    """A file whose bytes are not what they claim to be: a truncated or corrupt gzip stream."""


def unreadable(label: str, error: OSError) -> TrecFormatError:
    """The one-line data error for a file that cannot be opened or read."""
    if isinstance(error, UnreadableFile):
        return TrecFormatError(label, None, str(error))
    return TrecFormatError(label, None, error.strerror or str(error))


def is_gzip(path: str | os.PathLike[str]) -> bool:
    """Whether a file is gzip-compressed, by its magic bytes, not its name."""
    with open(path, "rb") as probe:
        return probe.read(2) == _GZIP_MAGIC


def open_bytes(path: str | os.PathLike[str], on_read: OnRead | None = None) -> BinaryIO:
    """Open a file for reading bytes, gzip or not (see :func:`is_gzip`).

    ``on_read`` is told the bytes read so far after each read from the file. A gzip file that
    turns out truncated or corrupt while it is read raises :class:`UnreadableFile` (an
    ``OSError``) saying which, instead of ``EOFError``, ``zlib.error`` or ``BadGzipFile``.
    """
    raw: io.RawIOBase = io.FileIO(path, "rb")
    if on_read is not None:
        raw = _Counted(raw, on_read)
    handle = io.BufferedReader(raw, _BUFFER)
    if handle.peek(2)[:2] == _GZIP_MAGIC:
        return cast(BinaryIO, _CheckedGzip(cast(BinaryIO, handle)))
    return cast(BinaryIO, handle)


_GZIP_MAGIC = b"\x1f\x8b"
_BUFFER = 1 << 20  # bytes per read from the file: fewer, larger reads for big runs


class _Counted(io.RawIOBase):
    """A raw file that tells ``on_read`` how many bytes it has returned, after each read."""

    def __init__(self, raw: io.RawIOBase, on_read: OnRead) -> None:
        super().__init__()
        self._raw = raw
        self._on_read = on_read
        self._count = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: object) -> int | None:
        count = self._raw.readinto(buffer)  # type: ignore[arg-type]
        if count:
            self._count += count
            self._on_read(self._count)
        return count

    def seekable(self) -> bool:
        return self._raw.seekable()

    def seek(self, offset: int, whence: int = os.SEEK_SET) -> int:
        return self._raw.seek(offset, whence)

    def tell(self) -> int:
        return self._raw.tell()

    def close(self) -> None:
        self._raw.close()
        super().close()


def _gzip_error(error: Exception) -> UnreadableFile:
    """What a decompressor's exception means to the reader, in one line."""
    if isinstance(error, EOFError):
        return UnreadableFile(
            "truncated gzip file: the compressed data ends before the end of its stream "
            "(an incomplete download or copy?)"
        )
    detail = str(error)
    if isinstance(error, zlib.error):  # "Error -3 while decompressing data: invalid block type"
        detail = detail.rpartition(": ")[2]
    if detail[1:2].islower():  # "Unknown compression method", not "CRC check failed"
        detail = detail[0].lower() + detail[1:]
    return UnreadableFile(f"corrupt gzip file: {detail}")


class _CheckedGzip(gzip.GzipFile):
    """A gzip file whose read errors are :class:`UnreadableFile`, and which closes the file
    it reads from (``GzipFile`` leaves a given file object open)."""

    _ERRORS = (EOFError, zlib.error, gzip.BadGzipFile)

    def __init__(self, source: BinaryIO) -> None:
        super().__init__(fileobj=source, mode="rb")
        self._source = source

    def read(self, size: int | None = -1) -> bytes:
        try:
            return super().read(size)
        except self._ERRORS as error:
            raise _gzip_error(error) from None

    def read1(self, size: int = -1) -> bytes:
        try:
            return super().read1(size)
        except self._ERRORS as error:
            raise _gzip_error(error) from None

    def readline(self, size: int | None = -1) -> bytes:
        try:
            return super().readline(size)
        except self._ERRORS as error:
            raise _gzip_error(error) from None

    def peek(self, n: int) -> bytes:
        try:
            return super().peek(n)
        except self._ERRORS as error:
            raise _gzip_error(error) from None

    def close(self) -> None:
        try:
            super().close()
        finally:
            self._source.close()


def _encoded(lines: Iterable[str], label: str) -> Iterator[bytes]:
    """Given text lines as UTF-8 bytes, the form both readers work on."""
    for number, line in enumerate(lines, 1):
        try:
            yield line.encode()
        except UnicodeEncodeError as error:
            raise TrecFormatError(label, number, f"not UTF-8 text ({error.reason})") from None

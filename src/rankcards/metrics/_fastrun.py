"""The fast path of the run reader: a well-formed run read with C calls per block, not per line.

A file is read in blocks of 32 KiB cut after their last newline: memory stays bounded, and
the tokens of a block fit in the CPU cache (1 MiB blocks made the reader 1.7x slower). A
block whose lines all have exactly 6 columns separated by single spaces or tabs, with no
comment line, is split into tokens with one ``bytes.split`` and its columns are
taken by slicing; its scores are parsed with one ``map(float, ...)``. Any other block is read
line by line. Checks that would cost a Python step per line (score syntax, finiteness,
duplicate docnos, UTF-8 qids) run in C per block or per query; when one fails this module
raises :class:`Fallback` and the strict reader reads the input again to name the bad line.
"""

from __future__ import annotations

import sys
from array import array
from collections.abc import Callable, Iterable, Iterator
from itertools import groupby, repeat
from math import isfinite
from typing import BinaryIO, TypeVar

from ._data import Docs

_BLOCK = 1 << 15  # bytes; 16 KiB measured alike, 64 KiB and more slower
#: every byte but ASCII whitespace (C ``isspace``): deleting them leaves the separators
_NOT_SPACE = bytes(sorted(set(range(256)) - set(b" \t\n\r\x0b\x0c")))
#: the separators of a regular line of 4 (qrels) or 6 (run) columns, once tabs are spaces
_SEPARATORS = {4: b"   \n", 6: b"     \n"}
_TABS_AS_SPACES = bytes.maketrans(b"\t", b" ")


_Scores = TypeVar("_Scores")


class Fallback(Exception):
    """The fast reader met something unusual: the strict reader will say what and where."""


def read_file(handle: BinaryIO) -> dict[str, Docs]:
    """Read a run file block by block; raise Fallback on anything the strict reader must see."""
    data: dict[str, Docs] = {}
    checked: dict[str, int] = {}
    for block in blocks(handle):
        _add_block(block, data, checked)
    _check(data, checked)
    return data


def read_lines(lines: Iterable[bytes]) -> dict[str, Docs]:
    """Read a run given as byte lines; raise Fallback as :func:`read_file` does."""
    data: dict[str, Docs] = {}
    _add_lines(lines, data)
    _check(data, {})
    return data


def blocks(handle: BinaryIO, size: int | None = None) -> Iterator[bytes]:
    """The file in blocks of whole lines (the last one given a newline if it lacks one),
    from where it stands to its end or for ``size`` bytes.

    Windows line ends become ``\\n``: a carriage return is whitespace to the column split
    anyway, and this keeps such files on the fast path.
    """
    rest = b""
    left = sys.maxsize if size is None else size
    while left > 0 and (block := handle.read(min(_BLOCK, left))):
        left -= len(block)
        end = block.rfind(b"\n") + 1
        if not end:  # a line longer than a block: keep reading
            rest += block
            continue
        yield _unix(rest + block[:end])
        rest = block[end:]
    if rest:
        yield _unix(rest + b"\n")


def _unix(block: bytes) -> bytes:
    """The block with ``\\r\\n`` line ends as ``\\n``."""
    return block.replace(b"\r\n", b"\n") if b"\r" in block else block


def regular(block: bytes, tokens: list[bytes], columns: int) -> bool:
    r"""Whether every line of the block has exactly ``columns`` columns and is not a comment.

    Each line has ``columns - 1`` single-byte separators (so at most that many columns) and
    the block has ``columns`` columns per line in all: then every line has exactly as many.

    Example:
        >>> block = b"q Q0 d1 1 0.5 t\nq\tQ0\td2\t2\t0.4\tt\n"
        >>> regular(block, block.split(), 6)
        True
        >>> block = b"q Q0 d1 1 0.5\nq Q0 d2 2 0.4 t x\n"  # 5 + 7 columns: 12, as 6 + 6
        >>> regular(block, block.split(), 6)
        False
        >>> block = b"q Q0  d1 1 0.5\n#c Q0 d2 2 0.4 t\n"  # 5 separators, 5 columns; a comment
        >>> regular(block, block.split(), 6), regular(block[15:], block[15:].split(), 6)
        (False, False)
    """
    lines = block.count(b"\n")
    return (
        len(tokens) == columns * lines
        and block.translate(_TABS_AS_SPACES, _NOT_SPACE) == _SEPARATORS[columns] * lines
        and not (b"#" in block and any(map(bytes.startswith, tokens[::columns], repeat(b"#"))))
    )


def _add_block(block: bytes, data: dict[str, Docs], checked: dict[str, int]) -> None:
    """Add a block of whole lines, with a few C calls if every line is regular.

    A query followed by another one in the block is checked at once, while its docnos are
    still in the CPU cache; ``checked`` records how many of its lines that covered.
    """
    tokens = block.split()
    if not regular(block, tokens, 6):  # a blank, comment, short or long line: one by one
        del tokens
        _add_lines(block.split(b"\n"), data)
        return
    qids, docnos, scores = (
        tokens[0::6],
        tokens[2::6],
        parse_scores(tokens[4::6], b"_" in block, scores_array),
    )
    del tokens  # the columns nobody reads
    start = 0
    qid = None
    for raw, group in groupby(qids):
        if qid is not None:  # the previous query is complete, unless it comes back later
            checked[qid] = _check_query(data[qid])
        stop = start + len(list(group))
        qid = qid_text(raw)
        docs, values = data.setdefault(qid, ([], array("d")))
        docs += docnos[start:stop]
        values += scores[start:stop]
        start = stop


def _add_lines(lines: Iterable[bytes], data: dict[str, Docs]) -> None:
    """Add lines one at a time: blank and comment lines are skipped, extra columns ignored."""
    pending: list[bytes] = []  # score texts of the current query, parsed in one go
    add_score = pending.append
    scores: array[float] = array("d")
    docnos: list[bytes] = []
    add_doc = docnos.append
    current = b""
    for line in lines:
        try:
            qid, _, docno, _, score, _ = line.split()
        except ValueError:  # not 6 columns: blank, comment, extra columns, or an error
            parts = line.split()
            if not parts or parts[0].startswith(b"#"):
                continue
            if len(parts) < 6:
                raise Fallback from None
            qid, docno, score = parts[0], parts[2], parts[4]
        if qid != current:
            if qid.startswith(b"#"):
                continue
            scores += parse_scores(pending, True, scores_array)
            pending.clear()
            current = qid
            docnos, scores = data.setdefault(qid_text(qid), ([], array("d")))
            add_doc = docnos.append
        add_doc(docno)
        add_score(score)
    scores += parse_scores(pending, True, scores_array)


def qid_text(raw: bytes) -> str:
    """A qid as text: it must be UTF-8."""
    try:
        return raw.decode()
    except UnicodeDecodeError:
        raise Fallback from None


def parse_scores(
    texts: list[bytes], underscores: bool, into: Callable[[Iterator[float]], _Scores]
) -> _Scores:
    """Parse score texts in C into ``into`` (``list``, or :func:`scores_array` for a stored run).

    trec_eval's ``atof`` would read ``1_0`` as 1, float() as 10: ``underscores`` says whether
    the texts may hold one (joining them to look costs more than parsing, so a block without
    any skips it).
    """
    if underscores and b"_" in b"".join(texts):
        raise Fallback
    try:
        return into(map(float, texts))
    except ValueError:
        raise Fallback from None


def scores_array(values: Iterable[float]) -> array[float]:
    """Scores as the compact array a stored run keeps."""
    return array("d", values)


def _check(data: dict[str, Docs], checked: dict[str, int]) -> None:
    """Check every query not checked yet with all its lines."""
    for qid, docs in data.items():
        if checked.get(qid) != len(docs[0]):
            _check_query(docs)


def _check_query(docs: Docs) -> int:
    """In C: no docno twice, every score finite; return the number of lines checked."""
    docnos, scores = docs
    if len(set(docnos)) != len(docnos):
        raise Fallback
    # a non-finite score makes the sum non-finite; a finite sum may overflow, so confirm
    if not isfinite(sum(scores)) and not all(map(isfinite, scores)):
        raise Fallback
    return len(docnos)

"""The fast path of the qrels reader: regular blocks of lines read with a few C calls each.

Like the run's fast path (``_fastrun``): a block whose lines all have exactly 4 columns is
split with one ``bytes.split``, labels are parsed with one ``map(int, ...)`` and each query's
judgments are added with one ``dict.update``. Anything else (a comment, a blank or irregular
line, a label that is not a plain integer, a docno twice, a qid that is not UTF-8, a second
value in the subtopic column) raises
:class:`~._fastrun.Fallback`, and the line-by-line reader names the line.
"""

from __future__ import annotations

from itertools import groupby
from typing import BinaryIO

from ._fastrun import Fallback, blocks, qid_text, regular


def read_file(handle: BinaryIO) -> dict[str, dict[bytes, int]]:
    """Read a qrels file block by block; raise Fallback on anything unusual."""
    data: dict[str, dict[bytes, int]] = {}
    subtopic = b""  # the one value of column 2; a second one means subtopics to keep
    for block in blocks(handle):
        tokens = block.split()
        # int() would accept 1_0, which the strict reader rejects like any non-integer
        if not regular(block, tokens, 4) or b"_" in block:
            raise Fallback
        subtopics = tokens[1::4]
        if not subtopic and subtopics:
            subtopic = subtopics[0]
        if subtopics.count(subtopic) != len(subtopics):
            raise Fallback
        try:
            labels = list(map(int, tokens[3::4]))
        except ValueError:
            raise Fallback from None
        docnos = tokens[2::4]
        start = 0
        for raw, group in groupby(tokens[::4]):
            stop = start + len(list(group))
            judged = data.setdefault(qid_text(raw), {})
            size = len(judged)
            judged.update(zip(docnos[start:stop], labels[start:stop], strict=True))
            if len(judged) != size + stop - start:  # a docno twice for the query
                raise Fallback
            start = stop
    return data

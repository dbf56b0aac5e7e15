"""The in-memory forms of qrels and runs, compact and keyed like trec_eval compares them.

Docnos are kept as bytes: smaller than ``str`` for millions of run lines, and trec_eval
orders ties with ``strcmp`` on bytes. The mappings decode ``str`` views on demand.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterator, Mapping
from typing import Generic, TypeVar

from ._errors import TrecFormatError

#: One query of a run: docnos (bytes) and scores, in file order.
Docs = tuple[list[bytes], "array[float]"]

LINES_NAME = "<lines>"

_View = TypeVar("_View")
_Stored = TypeVar("_Stored")


class _ByQuery(Mapping[str, _View], Generic[_View, _Stored]):
    """What Qrels and Run share: stored queries keyed by qid, in file order; ``name`` is the
    input's name in error messages. Subclasses decode a query's ``str`` view on demand."""

    def __init__(self, data: dict[str, _Stored], name: str = LINES_NAME) -> None:
        self._data = data
        self.name = name

    def __contains__(self, qid: object) -> bool:
        return qid in self._data

    def __iter__(self) -> Iterator[str]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)


class Qrels(_ByQuery[dict[str, int], dict[bytes, int]]):
    """Relevance judgments: ``qrels[qid][docno] -> int`` label, queries in file order.

    Docnos are kept as bytes, as trec_eval compares them; ``qrels[qid]`` decodes a view.

    The second column (trec_eval's ignored "iteration") is the subtopic to the diversity
    measures, as ndeval reads it (``qid subtopic docno rel``). A qrels whose lines all share
    one value there has one subtopic per query and stores nothing more. Otherwise
    ``topics[qid][docno]`` maps each subtopic's index (its order of first appearance in the
    whole input, as pyndeval numbers them) to the label; the flat view then holds a docno's
    highest label, and ``repeated`` is the error that measures other than the diversity ones
    raise when a docno is judged under two subtopics of one query (trec_eval rejects a docno
    twice in a query).
    """

    def __init__(
        self,
        data: dict[str, dict[bytes, int]],
        name: str = LINES_NAME,
        *,
        topics: dict[str, dict[bytes, dict[int, int]]] | None = None,
        repeated: TrecFormatError | None = None,
    ) -> None:
        super().__init__(data, name)
        self._topics = topics
        self.repeated = repeated

    def raw(self, qid: str) -> dict[bytes, int]:
        """Non-negative judgments keyed by docno bytes, the form evaluation compares.

        Negative labels (judged-unjudged) are left out: no measure counts them as relevant.
        """
        judged = self._data[qid]
        if judged and min(judged.values()) < 0:
            return {docno: label for docno, label in judged.items() if label >= 0}
        return judged

    def subtopics(self, qid: str) -> dict[bytes, dict[int, int]]:
        """``docno -> {subtopic index: label}`` for one query (one subtopic, 0, if the input
        has a single value in its second column)."""
        if self._topics is None:
            return {docno: {0: label} for docno, label in self._data[qid].items()}
        return self._topics[qid]

    def has_several_subtopics(self) -> bool:
        """Whether some query is judged under two subtopics or more (pyndeval's
        ``has_multiple_subtopics``, which ir_measures checks before warning)."""
        if self._topics is None:
            return False
        return any(
            len({index for labels in judged.values() for index in labels}) > 1
            for judged in self._topics.values()
        )

    def __getitem__(self, qid: str) -> dict[str, int]:
        return {d.decode("utf-8", "surrogateescape"): v for d, v in self._data[qid].items()}


class Run(_ByQuery[dict[str, float], Docs]):
    """A run stored compactly; ``run[qid]`` builds a ``{docno: score}`` dict on demand.

    Docnos are kept as the file's bytes: smaller than ``str``, and trec_eval itself orders
    ties with ``strcmp`` on bytes. Like trec_eval, a run's docnos need not be UTF-8.
    """

    def __getitem__(self, qid: str) -> dict[str, float]:
        docnos, scores = self._data[qid]
        return {
            d.decode("utf-8", "surrogateescape"): s for d, s in zip(docnos, scores, strict=True)
        }

    def raw(self, qid: str) -> Docs:
        """Docnos (bytes) and scores of one query in file order, without copying."""
        return self._data[qid]

"""Property tests (hypothesis): ranges, the tie-breaking rule, and RR's stability."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from rankcards.metrics import evaluate

_NAMES = ["RR", "RR@3", "Success@2", "P@3", "R@3", "Rprec", "AP", "AP@2", "nDCG", "nDCG@3"]
_MORE = ["bpref", "RBP(p=0.5)", "P(rel=2)@2"]
_DOCS = st.text(alphabet="abcXYZ019-\u00e9", min_size=1, max_size=4)
_QRELS = st.dictionaries(_DOCS, st.integers(-1, 3), min_size=1, max_size=8)
_RUN = st.dictionaries(_DOCS, st.sampled_from([0.0, 0.5, 1.0, 2.5, -3.0]), min_size=1, max_size=10)


@settings(max_examples=300, deadline=None)
@given(qrels=_QRELS, run=_RUN, level=st.integers(0, 3), depth=st.none() | st.integers(1, 5))
def test_values_lie_in_unit_interval(qrels, run, level, depth) -> None:
    result = evaluate({"q": qrels}, {"q": run}, _NAMES + _MORE, rel_level=level, depth=depth)
    for name, value in result.per_query["q"].items():
        assert 0.0 <= value <= 1.0 + 1e-12, (name, value)


@settings(max_examples=200, deadline=None)
@given(qrels=_QRELS, docs=st.lists(_DOCS, min_size=1, max_size=8, unique=True), data=st.data())
def test_equal_scores_rank_by_docno_descending(qrels, docs, data) -> None:
    shuffled = data.draw(st.permutations(docs))
    tied = {doc: 1.0 for doc in shuffled}  # input order must not matter
    explicit = {doc: float(i) for i, doc in enumerate(sorted(docs))}  # a < b  =>  a ranks lower
    got = evaluate({"q": qrels}, {"q": tied}, _NAMES).per_query["q"]
    want = evaluate({"q": qrels}, {"q": explicit}, _NAMES).per_query["q"]
    assert got == want


@settings(max_examples=200, deadline=None)
@given(qrels=_QRELS, run=_RUN, extra=_DOCS, label=st.sampled_from([None, 0, -1]))
def test_non_relevant_document_at_the_end_never_changes_rr(qrels, run, extra, label) -> None:
    if extra in run:
        return
    judged = dict(qrels)
    if label is None:
        judged.pop(extra, None)  # unjudged
    else:
        judged[extra] = label  # judged non-relevant
    longer = {**run, extra: min(run.values()) - 1.0}
    before = evaluate({"q": judged}, {"q": run}, ["RR", "RR@5"]).per_query["q"]
    after = evaluate({"q": judged}, {"q": longer}, ["RR", "RR@5"]).per_query["q"]
    assert before == after

"""Hand-computed values for every measure, on one small toy query and edge cases.

Toy query (qrels / run):
    a:1 b:0 c:2 d:1 e:-1 (judged, e is judged-unjudged) ; f is not in the qrels
    run scores: b .9, f .8, c .7, a .5, d .3, e .1  ->  ranks b f c a d e
    relevant (label >= 1): c@3, a@4, d@5; R = 3
"""

from __future__ import annotations

from math import log2

from metrics_support import close, one, table

from rankcards.metrics import evaluate

QRELS = {"a": 1, "b": 0, "c": 2, "d": 1, "e": -1}
RUN = {"a": 0.5, "b": 0.9, "c": 0.7, "d": 0.3, "e": 0.1, "f": 0.8}

_DCG = 2 / log2(4) + 1 / log2(5) + 1 / log2(6)  # c@3 gain 2, a@4 and d@5 gain 1
_IDCG = 2 / log2(2) + 1 / log2(3) + 1 / log2(4)  # ideal c, a, d

TOY = [
    ("RR", 1 / 3),
    ("RR@2", 0.0),
    ("RR@3", 1 / 3),
    ("RR(rel=2)", 1 / 3),
    ("Success@2", 0.0),
    ("Success@3", 1.0),
    ("HitRate@3", 1.0),
    ("P@5", 3 / 5),
    ("P@10", 3 / 10),  # divides by k although only 6 are retrieved
    ("P(rel=2)@5", 1 / 5),
    ("R@4", 2 / 3),
    ("R@100", 1.0),
    ("Rprec", 1 / 3),  # top 3 = b f c
    ("Rprec(rel=2)", 0.0),  # R = 1, top 1 = b
    ("AP", (1 / 3 + 2 / 4 + 3 / 5) / 3),
    ("AP@4", (1 / 3 + 2 / 4) / 3),
    ("AP(rel=2)", (1 / 3) / 1),
    ("nDCG", _DCG / _IDCG),
    ("nDCG@3", (2 / log2(4)) / (2 + 1 / log2(3) + 1 / log2(4))),
    ("nDCG@1", 0.0),
    ("bpref", 0.0),  # b (judged non-relevant) is above every relevant document
    ("RBP(p=0.5)", 0.5 * (1.0 * 0.5**2 + 0.5 * 0.5**3 + 0.5 * 0.5**4)),  # gains / top level 2
    ("num_ret", 6.0),
    ("num_rel", 3.0),
    ("num_rel(rel=2)", 1.0),
    ("num_rel_ret", 3.0),
]


def test_toy_query_every_measure() -> None:
    def check(name: str, want: float) -> None:
        got = one(QRELS, RUN, name)
        assert close(got, want), f"{name}: {got} != {want}"

    table(TOY, check)


def test_global_level_applies_to_binary_measures_but_not_ndcg() -> None:
    assert close(one(QRELS, RUN, "RR", rel_level=2), 1 / 3)
    assert close(one(QRELS, RUN, "P@5", rel_level=2), 1 / 5)
    assert close(one(QRELS, RUN, "num_rel", rel_level=2), 1.0)
    assert close(one(QRELS, RUN, "nDCG", rel_level=2), _DCG / _IDCG)
    # an explicit rel overrides the global level
    assert close(one(QRELS, RUN, "P(rel=1)@5", rel_level=2), 3 / 5)


def test_bpref_counts_judged_nonrelevant_above() -> None:
    # a(rel) b(nonrel) c(rel), x judged non-relevant but not retrieved: R = 2, N = 2
    # a: 1 ; c: 1 - min(1, 2) / min(2, 2) = 0.5 ; bpref = 1.5 / 2
    qrels = {"a": 1, "b": 0, "c": 1, "x": 0}
    assert close(one(qrels, {"a": 3.0, "b": 2.0, "c": 1.0}, "bpref"), 0.75)
    # unjudged documents are skipped, not counted as non-relevant
    run = {"a": 3.0, "u": 2.5, "b": 2.0, "c": 1.0}
    assert close(one(qrels, run, "bpref"), 0.75)


def test_ties_broken_by_docno_descending() -> None:
    qrels = {"x": 1}
    run = {"x": 1.0, "y": 1.0, "z": 1.0}  # equal scores: z, y, x
    assert close(one(qrels, run, "RR"), 1 / 3)
    assert close(one(qrels, run, "P@1"), 0.0)
    # the rank column plays no part: only score then docno
    assert close(one({"b": 1}, {"a": 2.0, "b": 2.0}, "RR"), 1.0)


def test_depth_cuts_the_ranking() -> None:
    assert close(one(QRELS, RUN, "RR", depth=3), 1 / 3)
    assert close(one(QRELS, RUN, "num_ret", depth=3), 3.0)
    assert close(one(QRELS, RUN, "AP", depth=3), (1 / 3) / 3)
    assert close(one(QRELS, RUN, "num_rel", depth=3), 3.0)  # qrels are not cut


def test_query_without_relevant_documents_scores_zero() -> None:
    qrels = {"a": 0, "b": -1}
    run = {"a": 1.0, "b": 0.5, "c": 0.2}
    for name in ("RR", "P@2", "R@2", "Rprec", "AP", "nDCG", "nDCG@2", "bpref", "RBP(p=0.8)"):
        assert one(qrels, run, name) == 0.0, name


def test_missing_queries_and_complete() -> None:
    qrels = {"q1": {"a": 1}, "q2": {"b": 1}}
    run = {"q1": {"x": 2.0, "a": 1.0}, "q3": {"b": 1.0}}
    plain = evaluate(qrels, run, ["RR", "num_q", "num_rel"])
    assert list(plain.per_query) == ["q1"]  # q3 not judged: ignored; q2 not run: skipped
    assert plain.aggregate == {"RR": 0.5, "num_q": 1.0, "num_rel": 1.0}
    complete = evaluate(qrels, run, ["RR", "num_q", "num_rel"], complete=True)
    assert list(complete.per_query) == ["q1", "q2"]
    assert complete.per_query["q2"] == {"RR": 0.0, "num_rel": 1.0}
    assert complete.aggregate == {"RR": 0.25, "num_q": 2.0, "num_rel": 2.0}


def test_ndcg_graded_gains_hand_computed() -> None:
    # ranking d2 (gain 1), d1 (gain 3), d3 (gain 0); ideal d1, d2
    qrels = {"d1": 3, "d2": 1, "d3": 0}
    run = {"d2": 3.0, "d1": 2.0, "d3": 1.0}
    dcg = 1 / log2(2) + 3 / log2(3)
    ideal = 3 / log2(2) + 1 / log2(3)
    assert close(one(qrels, run, "nDCG"), dcg / ideal)
    assert close(one(qrels, run, "nDCG@1"), 1 / 3)


def test_cutoff_larger_than_ranking() -> None:
    qrels = {"a": 1, "b": 1}
    run = {"a": 1.0}
    assert close(one(qrels, run, "P@1000"), 1 / 1000)
    assert close(one(qrels, run, "R@1000"), 1 / 2)
    assert close(one(qrels, run, "Success@1000"), 1.0)
    assert close(one(qrels, run, "AP@1000"), 1 / 2)
    assert close(one(qrels, run, "nDCG@1000"), 1 / (1 + 1 / log2(3)))


def test_results_keyed_by_canonical_names_in_given_order() -> None:
    result = evaluate({"q": QRELS}, {"q": RUN}, ["HitRate@3", "P(rel=2)@5", "RBP", "HitRate@3"])
    assert list(result.aggregate) == ["Success@3", "P(rel=2)@5", "RBP(p=0.8)"]


def test_trec_and_json_rendering() -> None:
    result = evaluate({"q": QRELS}, {"q": RUN}, ["num_ret", "RR"])
    assert (
        result.to_trec() == "num_ret               \tall\t6\nRR                    \tall\t0.3333\n"
    )
    assert result.to_trec(per_query=True).splitlines()[0] == "num_ret               \tq\t6"
    assert '"RR": 0.3333333333333333' in result.to_json()

"""The measure-name parser: a table of accepted names and a table of rejected ones."""

from __future__ import annotations

from metrics_support import raises, table

from rankcards.metrics import MeasureError, measure_names, parse_measure
from rankcards.metrics._parse import spec_for_trec_eval

ACCEPTED = [
    # written, canonical, cutoff, explicit params
    ("RR", "RR", None, ()),
    ("RR@10", "RR@10", 10, ()),
    (" RR@10 ", "RR@10", 10, ()),
    ("P@5", "P@5", 5, ()),
    ("P(rel=2)@5", "P(rel=2)@5", 5, (("rel", 2),)),
    ("P( rel = 2 )@5", "P(rel=2)@5", 5, (("rel", 2),)),
    ("P(rel=1)@5", "P(rel=1)@5", 5, (("rel", 1),)),  # explicit rel overrides -l
    ("Success@10", "Success@10", 10, ()),
    ("HitRate@10", "Success@10", 10, ()),
    ("R@100", "R@100", 100, ()),
    ("Rprec", "Rprec", None, ()),
    ("AP", "AP", None, ()),
    ("AP@1000", "AP@1000", 1000, ()),
    ("nDCG", "nDCG", None, ()),
    ("nDCG@10", "nDCG@10", 10, ()),
    ("nDCG(dcg=log2)@10", "nDCG@10", 10, (("dcg", "log2"),)),  # the default is left out
    ("nDCG(dcg=exp-log2)@10", "nDCG(dcg=exp-log2)@10", 10, (("dcg", "exp-log2"),)),
    ("ERR@20", "ERR@20", 20, ()),
    ("ERR", "ERR", None, ()),
    ("Judged@10", "Judged@10", 10, ()),
    ("F1@5", "F1@5", 5, ()),
    ("F1(rel=2)@5", "F1(rel=2)@5", 5, (("rel", 2),)),
    ("IPrec@0.5", "IPrec@0.5", None, (("recall", 0.5),)),
    ("IPrec@.5", "IPrec@0.5", None, (("recall", 0.5),)),
    ("IPrec@0", "IPrec@0.0", None, (("recall", 0.0),)),
    ("IPrec@1", "IPrec@1.0", None, (("recall", 1.0),)),
    ("IPrec(rel=2)@0.3", "IPrec(rel=2)@0.3", None, (("rel", 2), ("recall", 0.3))),
    ("IPrec(recall=0.3)", "IPrec@0.3", None, (("recall", 0.3),)),
    ("bpref", "bpref", None, ()),
    ("RBP", "RBP(p=0.8)", None, ()),
    ("RBP(p=0.8)", "RBP(p=0.8)", None, (("p", 0.8),)),
    ("RBP(p=.95)", "RBP(p=0.95)", None, (("p", 0.95),)),
    ("num_q", "num_q", None, ()),
    ("num_rel_ret(rel=2)", "num_rel_ret(rel=2)", None, (("rel", 2),)),
    ("alpha_nDCG@10", "alpha_nDCG@10", 10, ()),
    ("alpha_nDCG(alpha=0.5)@10", "alpha_nDCG@10", 10, (("alpha", 0.5),)),  # ndeval's default
    (
        "alpha_nDCG(rel=2,alpha=.3)@5",
        "alpha_nDCG(alpha=0.3,rel=2)@5",
        5,
        (("alpha", 0.3), ("rel", 2)),
    ),
    ("ERR_IA@20", "ERR_IA@20", 20, ()),
    ("nERR_IA(rel=2)@5", "nERR_IA(rel=2)@5", 5, (("rel", 2),)),
    ("P_IA@10", "P_IA@10", 10, ()),
    ("StRecall@30", "StRecall@30", 30, ()),  # beyond ndeval's 20: the same definitions go on
]

REJECTED = [
    ("", "invalid measure '': expected NAME[(param=value,...)][@k], e.g. 'P(rel=2)@5'"),
    ("P@", "invalid cutoff in 'P@': k must be an integer >= 1, got ''"),
    ("P@0", "invalid cutoff in 'P@0': k must be an integer >= 1, got '0'"),
    ("P@ten", "invalid cutoff in 'P@ten': k must be an integer >= 1, got 'ten'"),
    ("P", "measure 'P' needs a cutoff: expected P[(rel=N)]@k, e.g. 'P@10'"),
    ("Rprec@5", "measure 'Rprec@5' takes no cutoff: expected Rprec[(rel=N)]"),
    ("ERR(rel=2)@5", "measure 'ERR(rel=2)@5' takes no parameters: expected ERR[@k]"),
    (
        "nDCG(rel=2)@5",
        "invalid parameter 'rel=2' in 'nDCG(rel=2)@5': expected nDCG[(dcg=log2|exp-log2)][@k] "
        "(parameters: dcg)",
    ),
    (
        "nDCG(dcg=exp)@5",
        "invalid value in 'nDCG(dcg=exp)@5': dcg must be log2 or exp-log2, got 'exp'",
    ),
    ("IPrec", "measure 'IPrec' needs a recall level: expected IPrec[(rel=N)]@r, e.g. 'IPrec@0.5'"),
    (
        "IPrec@1.5",
        "invalid value in 'IPrec@1.5': recall must be a number with 0 <= r <= 1, got '1.5'",
    ),
    ("IPrec(recall=0.2)@0.5", "parameter 'recall' given twice in 'IPrec(recall=0.2)@0.5'"),
    ("F1", "measure 'F1' needs a cutoff: expected F1[(rel=N)]@k, e.g. 'F1@10'"),
    (
        "P(x=1)@5",
        "invalid parameter 'x=1' in 'P(x=1)@5': expected P[(rel=N)]@k (parameters: rel)",
    ),
    ("P(rel)@5", "invalid parameter 'rel' in 'P(rel)@5': expected P[(rel=N)]@k (parameters: rel)"),
    ("P(rel=1,rel=2)@5", "parameter 'rel' given twice in 'P(rel=1,rel=2)@5'"),
    ("P(rel=1.5)@5", "invalid value in 'P(rel=1.5)@5': rel must be an integer >= 0, got '1.5'"),
    ("P(rel=-1)@5", "invalid value in 'P(rel=-1)@5': rel must be an integer >= 0, got '-1'"),
    ("RBP(p=1)", "invalid value in 'RBP(p=1)': p must be a number with 0 < p < 1, got '1'"),
    ("RBP(p=nan)", "invalid value in 'RBP(p=nan)': p must be a number with 0 < p < 1, got 'nan'"),
    (
        "alpha_nDCG(alpha=1.5)@5",
        "invalid value in 'alpha_nDCG(alpha=1.5)@5': alpha must be a number with "
        "0 <= alpha <= 1, got '1.5'",
    ),
    (
        "alpha_nDCG",
        "measure 'alpha_nDCG' needs a cutoff: expected alpha_nDCG[(alpha=X,rel=N)]@k, "
        "e.g. 'alpha_nDCG@10'",
    ),
    (
        "ERR_IA(alpha=0.3)@5",
        "invalid parameter 'alpha=0.3' in 'ERR_IA(alpha=0.3)@5': expected ERR_IA[(rel=N)]@k "
        "(parameters: rel)",
    ),
    ("P@5@6", "invalid measure 'P@5@6': expected NAME[(param=value,...)][@k], e.g. 'P(rel=2)@5'"),
]


def test_accepted_names() -> None:
    def check(written: str, canonical: str, k: int | None, params: tuple[object, ...]) -> None:
        spec = parse_measure(written)
        assert (spec.name, spec.k, spec.params) == (canonical, k, params)
        assert parse_measure(spec.name).name == canonical  # canonical names round-trip

    table(ACCEPTED, check)  # type: ignore[arg-type]


def test_rejected_names_quote_input_and_expected_form() -> None:
    def check(written: str, message: str) -> None:
        with raises(MeasureError, message):
            parse_measure(written)

    table(REJECTED, check)  # type: ignore[arg-type]


def test_unknown_name_lists_known_measures_and_hints_case() -> None:
    try:
        parse_measure("ndcg@10")
    except MeasureError as error:
        text = str(error)
    else:
        raise AssertionError("no error")
    assert text.startswith("unknown measure 'ndcg@10' (did you mean 'nDCG'?); known measures: ")
    assert "Success[(rel=N)]@k (alias HitRate)" in text
    assert "RBP[(p=X)]" in text


def test_measure_names_in_registry_order() -> None:
    names = measure_names()
    assert names[0] == "num_q"
    assert names.index("RR[(rel=N)][@k]") < names.index("nDCG[(dcg=log2|exp-log2)][@k]")
    assert names[-11:] == [
        "nDCG[(dcg=log2|exp-log2)][@k]",
        "DCG[(dcg=log2|exp-log2)][@k]",
        "ERR[@k]",
        "bpref[(rel=N)]",
        "RBP[(p=X)]",
        "Judged[@k]",
        "alpha_nDCG[(alpha=X,rel=N)]@k",
        "ERR_IA[(rel=N)]@k",
        "nERR_IA[(rel=N)]@k",
        "P_IA[(rel=N)]@k",
        "StRecall[(rel=N)]@k",
    ]
    assert "IPrec[(rel=N)]@r" in names
    assert "F1[(rel=N)]@k" in names
    assert "F[(rel=N,beta=X)]@k" in names
    assert len(names) == 24


def test_trec_eval_names_map_to_specs() -> None:
    def check(trec_name: str, canonical: str | None) -> None:
        spec = spec_for_trec_eval(trec_name)
        assert (spec.name if spec else None) == canonical

    table(
        [
            ("map", "AP"),
            ("map_cut_10", "AP@10"),
            ("recip_rank", "RR"),
            ("P_5", "P@5"),
            ("recall_100", "R@100"),
            ("ndcg", "nDCG"),
            ("ndcg_cut_10", "nDCG@10"),
            ("iprec_at_recall_0.00", "IPrec@0.0"),
            ("iprec_at_recall_0.50", "IPrec@0.5"),
            ("iprec_at_recall_1.00", "IPrec@1.0"),
            ("iprec_at_recall_x", None),
            ("map_cut_0.5", None),
            ("success_10", "Success@10"),
            ("Rprec", "Rprec"),
            ("bpref", "bpref"),
            ("rbp", "RBP(p=0.9)"),
            ("num_rel_ret", "num_rel_ret"),
            ("gm_map", None),
            ("P_avgjg", None),
        ],
        check,  # type: ignore[arg-type]
    )

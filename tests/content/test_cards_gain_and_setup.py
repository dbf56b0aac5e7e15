"""The gain and setup cards state only numbers that rankcards.metrics computes.

Cards: dcg, ndcg, rbp, err (graded, rank-aware), averaging-over-queries and relevance-judgments.
Every decimal number in a card's text (both languages: summary, definition, key points,
intuition, formula notes, caption, gotchas) must be listed here with the computation it comes
from, and that computation, rounded to the decimals the card prints, must give the card's
string. A number the card states and nobody computes fails the test, and so does a computed
value that no longer matches. The examples are run too, and what they print is compared with
the same computations.
"""

from __future__ import annotations

import contextlib
import io
import re
from collections.abc import Callable, Iterator
from math import log2
from pathlib import Path
from typing import Any

import pytest
import yaml

from rankcards.demos.toy import TOY
from rankcards.metrics import Evaluation, evaluate, explain

CARDS = Path(__file__).resolve().parents[2] / "docs" / "cards"
LANGS = ("es", "en")
# A decimal number, not part of a version such as 9.0.8 or 1.2a (a sentence's full stop is fine).
NUMBER = re.compile(r"(?<![\w.])\d+\.\d+(?!\w|\.\d)")
# Numbers that are not results: tool versions and sections, and parameters the reader sets.
VERSIONS = {"9.0", "10.0"}

QRELS = {q.id: dict(q.judgments) for q in TOY}
RUN = {q.id: {doc: 5.0 - rank for rank, doc in enumerate(q.ranking)} for q in TOY}
Q1, Q2, Q3 = TOY[0], TOY[1], TOY[2]


def toy(measures: list[str], run: dict[str, dict[str, float]] | None = None, **options: Any):
    """The shared example evaluated with trec_eval's rules (``evaluate``)."""
    result: Evaluation = evaluate(QRELS, RUN if run is None else run, measures, **options)
    return result


def without_q4() -> dict[str, dict[str, float]]:
    return {qid: scores for qid, scores in RUN.items() if qid != "q4"}


def rbp_residual(query: Any, p: float) -> float:
    """(1 - p) * sum of p^(i-1) over unjudged ranks + p^n, from the module's RBP terms."""
    terms = explain(f"RBP(p={p})", query.ranking, query.judgments)
    unjudged = sum(p ** (step.rank - 1) for step in terms.steps if step.grade is None)
    return (1 - p) * unjudged + p ** len(query.ranking)


def rbp_of(ranking: Any, judgments: dict[str, int], p: float) -> float:
    """One query's RBP(p) through evaluate (scores falling with the rank)."""
    run = {"q": {doc: 100.0 - rank for rank, doc in enumerate(ranking)}}
    return evaluate({"q": judgments}, run, [f"RBP(p={p})"]).aggregate[f"RBP(p={p})"]


def judged_with_d3_graded_0() -> float:
    """q1's Judged@5 once d3 is judged non-relevant (grade 0) instead of unjudged."""
    return evaluate({"q1": {**Q1.judgments, "d3": 0}}, RUN, ["Judged@5"]).aggregate["Judged@5"]


def err_steps() -> dict[str, Any]:
    return {step.docno: step for step in explain("ERR@5", Q1.ranking, Q1.judgments).steps}


def ndcg_steps() -> dict[str, Any]:
    return {step.docno: step for step in explain("nDCG@5", Q1.ranking, Q1.judgments).steps}


# card -> {number as the card writes it: what it is computed from}
COMPUTED: dict[str, dict[str, Callable[[], float]]] = {
    "dcg": {
        "0.63": lambda: 1 / log2(3),  # discount of rank 2
        "0.6309": lambda: 1 / ndcg_steps()["d1"].detail["discount"],
        "0.39": lambda: 1 / log2(6),  # discount of rank 5
        "0.29": lambda: 1 / log2(11),  # discount of rank 10
        "0.4307": lambda: ndcg_steps()["d4"].contribution,
        "1.8928": lambda: ndcg_steps()["d1"].contribution,
        "2.3235": lambda: explain("nDCG@5", Q1.ranking, Q1.judgments).quantities["DCG"],
        "4.7619": lambda: explain("nDCG@5", Q1.ranking, Q1.judgments).quantities["IDCG"],
        "4.8472": lambda: explain("nDCG(dcg=exp-log2)@5", Q1.ranking, Q1.judgments).quantities[
            "DCG"
        ],
        "3.4307": lambda: explain(
            "nDCG@5", ["d1", "d3", "d7", "d4", "d9"], Q1.judgments
        ).quantities["DCG"],
    },
    "ndcg": {
        "2.3235": lambda: explain("nDCG@5", Q1.ranking, Q1.judgments).quantities["DCG"],
        "4.7619": lambda: explain("nDCG@5", Q1.ranking, Q1.judgments).quantities["IDCG"],
        "0.4879": lambda: toy(["nDCG@5"]).per_query["q1"]["nDCG@5"],
        "0.5271": lambda: toy(["nDCG@5"]).per_query["q3"]["nDCG@5"],
        "0.5038": lambda: toy(["nDCG@5"]).aggregate["nDCG@5"],
        "0.5161": lambda: toy(["nDCG(dcg=exp-log2)@5"]).per_query["q1"]["nDCG(dcg=exp-log2)@5"],
        "0.5197": lambda: toy(["nDCG(dcg=exp-log2)@5"]).per_query["q3"]["nDCG(dcg=exp-log2)@5"],
        "0.5089": lambda: toy(["nDCG(dcg=exp-log2)@5"]).aggregate["nDCG(dcg=exp-log2)@5"],
        "0.25": lambda: toy(["nDCG@1"]).aggregate["nDCG@1"],
        "0.5": lambda: 0.5,  # "a value of 0.5 is not half of the relevant documents"
    },
    "rbp": {
        "0.1941": lambda: toy(["RBP(p=0.8)"]).per_query["q1"]["RBP(p=0.8)"],
        "0.2": lambda: toy(["RBP(p=0.8)"]).per_query["q2"]["RBP(p=0.8)"],
        "0.1408": lambda: toy(["RBP(p=0.8)"]).aggregate["RBP(p=0.8)"],
        "0.0820": lambda: toy(["RBP(p=0.9)"]).aggregate["RBP(p=0.9)"],
        "0.7376": lambda: rbp_residual(Q1, 0.8),
        "0.6667": lambda: explain("RBP(p=0.8)", ["d8"], Q1.judgments).steps[0].detail["gain"],
        "0.64": lambda: explain("RBP(p=0.8)", Q1.ranking, Q1.judgments).steps[2].detail["weight"],
        "0.512": lambda: explain("RBP(p=0.8)", Q1.ranking, Q1.judgments).steps[3].detail["weight"],
        "0.4096": lambda: explain("RBP(p=0.8)", Q1.ranking, Q1.judgments).steps[4].detail["weight"],
        "0.13": lambda: 0.8**9,  # the weight of rank 10
        "0.0144": lambda: 0.8**19,  # the weight of rank 20
        # persistences the text discusses (parameters, not results)
        "0.8": lambda: 0.8,
        "0.9": lambda: 0.9,
        "0.95": lambda: 0.95,
        "0.98": lambda: 0.98,
        "0.5": lambda: 0.5,
        # inserting a grade-1 document at rank 1 of q2 lowers its RBP (p = 0.5)
        "0.4167": lambda: rbp_of(("dnew", *Q2.ranking), {**Q2.judgments, "dnew": 1}, 0.5),
        # raising q3's d3 from 1 to 3 rescales d6's gain from 1 to 2/3 (trec_eval's scale)
        "0.1690": lambda: rbp_of(Q3.ranking, Q3.judgments, 0.8),
        "0.1673": lambda: rbp_of(Q3.ranking, {**Q3.judgments, "d3": 3}, 0.8),
        # the maximum with 5 documents: all relevant at the top grade, 1 - p^5
        "0.6723": lambda: rbp_of([f"x{i}" for i in range(5)], {f"x{i}": 1 for i in range(5)}, 0.8),
        "0.1143": lambda: toy(["RBP(p=0.9)"]).per_query["q1"]["RBP(p=0.9)"],
        # trec_eval 10.0's q1 rbp with uninitialised min/max (gcc 12.2.0; -g with -m ndcg, -O2
        # with -m P.5): outputs of that build, quoted, not results of the measure
        "0.0720": lambda: 0.0720,
        "0.0686": lambda: 0.0686,
    },
    "err": {
        "0.4375": lambda: toy(["ERR@5"]).per_query["q2"]["ERR@5"],
        "43.75": lambda: 100 * err_steps()["d1"].detail["stop"],
        "0.0625": lambda: err_steps()["d4"].detail["stop"],
        "0.2188": lambda: err_steps()["d1"].contribution,
        "0.0088": lambda: err_steps()["d4"].contribution,
        "0.5625": lambda: err_steps()["d4"].detail["reach"],
        "56.25": lambda: 100 * err_steps()["d4"].detail["reach"],
        "52.73": lambda: 100 * err_steps()["d9"].detail["reach"],
        "0.2275": lambda: toy(["ERR@5"]).per_query["q1"]["ERR@5"],
        "0.1844": lambda: toy(["ERR@5"]).aggregate["ERR@5"],
        "0.875": lambda: (2**3 - 1) / 2**3,  # R(3) if the scale ended at 3
        "0.4307": lambda: ndcg_steps()["d4"].contribution,
        "4.7619": lambda: explain("nDCG@5", Q1.ranking, Q1.judgments).quantities["IDCG"],
    },
    "averaging-over-queries": {
        "0.6667": lambda: toy(["R@5"]).aggregate["R@5"],
        "0.7143": lambda: (
            toy(["num_rel_ret"]).aggregate["num_rel_ret"] / toy(["num_rel"]).aggregate["num_rel"]
        ),
        "0.25": lambda: toy(["P@5"]).aggregate["P@5"],
        "0.8889": lambda: toy(["R@5"], without_q4()).aggregate["R@5"],
        "0.425": lambda: toy(["AP"]).aggregate["AP"],
        "0.5667": lambda: toy(["AP"], without_q4()).aggregate["AP"],
        "0.5038": lambda: toy(["nDCG@5"], without_q4(), complete=True).aggregate["nDCG@5"],
        "0.6717": lambda: toy(["nDCG@5"], without_q4()).aggregate["nDCG@5"],
        "0.00001": lambda: 0.00001,  # trec_eval's MIN_GEO_MEAN, a constant of its source
        "13.6": lambda: 13.6,  # a section of Manning et al.
    },
    "relevance-judgments": {
        "0.4": lambda: toy(["P@5"]).per_query["q1"]["P@5"],
        "0.2": lambda: toy(["P@5"], rel_level=2).per_query["q1"]["P@5"],
        "0.25": lambda: toy(["P@5", "Judged@5"]).aggregate["Judged@5"],
        "0.15": lambda: toy(["P(rel=2)@5"]).aggregate["P(rel=2)@5"],
    },
}
SLUGS = sorted(COMPUTED)


def _card(slug: str) -> dict[str, Any]:
    return dict(yaml.safe_load((CARDS / f"{slug}.yml").read_text(encoding="utf-8")))


def _texts(
    node: Any,
    skip: frozenset[str] = frozenset({"code", "demo", "references", "starter", "solution"}),
) -> Iterator[str]:
    """Every human-readable string of a card (the example's source, and an exercise's starter
    and solution, are checked by running them)."""
    if isinstance(node, str):
        yield node
    elif isinstance(node, dict):
        for key, value in node.items():
            if key not in skip:
                yield from _texts(value, skip)
    elif isinstance(node, list):
        for value in node:
            yield from _texts(value, skip)


def _stated(card: dict[str, Any]) -> set[str]:
    found = {number for text in _texts(card) for number in NUMBER.findall(text)}
    found |= {number for ref in card["references"] for number in NUMBER.findall(ref["title"])}
    return found - VERSIONS


def _printed(card: dict[str, Any], lang: str) -> str:
    source = card["code"]["source"]
    code = source if isinstance(source, str) else source[lang]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, f"{card['slug']}.yml:{lang}", "exec"), {"__name__": "__card__"})
    return out.getvalue()


@pytest.mark.parametrize("slug", SLUGS)
def test_every_number_a_card_states_is_computed_here(slug):
    stated = _stated(_card(slug))
    unexplained = stated - COMPUTED[slug].keys()
    assert not unexplained, f"{slug} states numbers nobody computes: {sorted(unexplained)}"


@pytest.mark.parametrize(
    ("slug", "written"), [(slug, written) for slug in SLUGS for written in COMPUTED[slug]]
)
def test_each_number_equals_what_the_module_computes(slug, written):
    decimals = len(written.partition(".")[2])
    assert f"{COMPUTED[slug][written]():.{decimals}f}" == written


@pytest.mark.parametrize("slug", SLUGS)
def test_the_listed_numbers_are_still_in_the_card(slug):
    # a number listed here but gone from the card is stale bookkeeping
    assert COMPUTED[slug].keys() <= _stated(_card(slug))


@pytest.mark.parametrize("slug", SLUGS)
def test_both_languages_state_the_same_numbers(slug):
    card = _card(slug)
    per_lang = [
        {
            number
            for text in _texts(card, frozenset({"code", "demo", "references", other}))
            for number in NUMBER.findall(text)
        }
        for other in ("en", "es")  # skipping "en" leaves Spanish, and the other way round
    ]
    assert per_lang[0] == per_lang[1]


def test_integers_the_cards_state():
    q1 = explain("nDCG@5", Q1.ranking, Q1.judgments)
    assert sum(Q1.judgments.get(doc, 0) for doc in Q1.ranking) == 4  # CG@5 of q1
    assert explain("nDCG@5", Q2.ranking, Q2.judgments).quantities["IDCG"] == 3  # q2's ideal
    assert [step.docno for step in q1.ideal] == ["d1", "d8", "d4"]  # q1's ideal ordering
    ndcg1 = toy(["nDCG@1"]).per_query
    assert (ndcg1["q1"]["nDCG@1"], ndcg1["q2"]["nDCG@1"]) == (0.0, 1.0)
    assert toy(["nDCG"]).aggregate["nDCG"] == toy(["nDCG@5"]).aggregate["nDCG@5"]
    judged = toy(["Judged@5"]).per_query["q1"]["Judged@5"]
    assert judged * 5 == 2  # "only 2 of its top 5 documents are judged"
    micro = toy(["num_rel_ret", "num_rel"]).aggregate
    assert (micro["num_rel_ret"], micro["num_rel"]) == (5, 7)  # micro recall 5/7
    assert toy(["P@5"], rel_level=2).aggregate["P@5"] == toy(["P(rel=2)@5"]).aggregate["P(rel=2)@5"]
    assert toy(["nDCG@5"], rel_level=2).aggregate == toy(["nDCG@5"]).aggregate  # -l: no effect
    assert [q.id for q in TOY if q.id != "q4"] == sorted(without_q4())
    assert len(toy(["AP"], without_q4(), complete=True).per_query) == 4  # -c counts q4 as 0


EXPECTED_OUTPUT = {
    "dcg": lambda: [
        f"DCG@5 {word} = {explain('nDCG@5', Q1.ranking, Q1.judgments).quantities['DCG']:.4f}"
        for word in ("lineal", "linear")
    ],
    "ndcg": lambda: [
        "nDCG@5 = {DCG:.4f} / {IDCG:.4f} = ".format_map(
            explain("nDCG@5", Q1.ranking, Q1.judgments).quantities
        )
        + f"{toy(['nDCG@5']).per_query['q1']['nDCG@5']:.4f}"
    ],
    "rbp": lambda: [
        f"q1: RBP = {toy(['RBP(p=0.8)']).per_query['q1']['RBP(p=0.8)']:.4f}",
        f"{rbp_residual(Q1, 0.8):.4f}",
    ],
    "err": lambda: [f"ERR@5 = {toy(['ERR@5']).aggregate['ERR@5']:.4f}"],
    "averaging-over-queries": lambda: [
        f"5/7 = {5 / 7:.4f}",
        f"{toy(['R@5'], without_q4()).aggregate['R@5']:.4f}",
        f"{toy(['AP'], without_q4()).aggregate['AP']:.4f}",
    ],
    "relevance-judgments": lambda: [
        f"q1 P@5 = {toy(['P@5']).per_query['q1']['P@5']:.4f}",
        f"q1 P@5 = {toy(['P@5'], rel_level=2).per_query['q1']['P@5']:.4f}",
        # d3 judged 0: now 3 of the top 5 are judged
        f"Judged@5 = {judged_with_d3_graded_0():.4f}",
    ],
}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("slug", SLUGS)
def test_examples_print_what_the_text_says(slug, lang):
    printed = _printed(_card(slug), lang)
    for line in EXPECTED_OUTPUT[slug]():
        if line.startswith("DCG@5 ") and (("lineal" in line) != (lang == "es")):
            continue  # each language prints its own word
        assert line in printed, f"{slug} ({lang}) does not print {line!r}:\n{printed}"
    assert "Traceback" not in printed


def test_the_averaging_card_denominators_of_other_tools():
    # The card: pytrec_eval (trec_eval 9.x's code) averages a run without q4 over the three
    # queries it holds (0.8889); ir_measures scores q4 0 as -c does (0.6667).
    from ci_gate import require_module

    pytrec_eval = require_module("pytrec_eval", "pip install pytrec-eval-terrier")
    ir_measures = require_module("ir_measures", "pip install ir-measures")
    run = without_q4()
    per_query = pytrec_eval.RelevanceEvaluator(QRELS, {"recall.5"}).evaluate(run)
    assert sorted(per_query) == ["q1", "q2", "q3"]
    mean = sum(values["recall_5"] for values in per_query.values()) / len(per_query)
    assert f"{mean:.4f}" == "0.8889" == f"{toy(['R@5'], run).aggregate['R@5']:.4f}"
    aggregate = ir_measures.calc_aggregate([ir_measures.R @ 5, ir_measures.AP], QRELS, run)
    assert f"{aggregate[ir_measures.R @ 5]:.4f}" == "0.6667"
    assert (
        f"{aggregate[ir_measures.AP]:.4f}"
        == f"{toy(['AP'], run, complete=True).aggregate['AP']:.4f}"
    )


def test_gdeval_prints_ndcg_and_err_never_dcg(tmp_path):
    # The dcg card: gdeval's lines are runid,topic,ndcg@K,err@K (its header names them).
    import shutil
    import subprocess

    from ci_gate import require_module, skip_or_fail

    ir_measures = require_module("ir_measures", "pip install ir-measures")
    perl = shutil.which("perl")
    if perl is None:
        skip_or_fail("gdeval needs perl on PATH")
    script = Path(ir_measures.__file__).parent / "bin" / "gdeval.pl"
    numbered = {q.id: str(index) for index, q in enumerate(TOY, 1)}  # gdeval wants numbers
    qrels = tmp_path / "qrels"
    qrels.write_text(
        "".join(
            f"{numbered[q.id]} 0 {doc} {grade}\n" for q in TOY for doc, grade in q.judgments.items()
        )
    )
    run = tmp_path / "run"
    run.write_text(
        "".join(
            f"{numbered[qid]} Q0 {doc} {rank} {score} toy\n"
            for qid, scores in RUN.items()
            for rank, (doc, score) in enumerate(scores.items(), 1)
        )
    )
    done = subprocess.run(
        [perl, str(script), str(qrels), str(run), "5"],  # gdeval.pl QRELS RUN K
        capture_output=True,
        text=True,
        check=True,
    )
    lines = done.stdout.splitlines()
    assert lines[0] == "runid,topic,ndcg@5,err@5"
    first = lines[1].split(",")
    assert first[:2] == ["toy", "1"] and len(first) == 4
    expected = toy(["nDCG(dcg=exp-log2)@5", "ERR@5"]).per_query["q1"]
    assert float(first[2]) == round(expected["nDCG(dcg=exp-log2)@5"], 5)
    assert float(first[3]) == round(expected["ERR@5"], 5)
    for lang in LANGS:
        assert "`runid,topic,ndcg@K,err@K`" in "\n".join(_card("dcg")["gotchas"][lang])


def test_rbp_claims_of_the_monotonicity_key_point():
    import random

    generator = random.Random(19)
    for _ in range(300):
        docs = [f"d{i}" for i in range(8)]
        generator.shuffle(docs)
        judgments = {doc: generator.choice([0, 0, 1, 2, 3]) for doc in docs}
        judgments[docs[7]] = 3  # the query's top grade stays 3 whatever changes above
        p = generator.choice([0.5, 0.8, 0.9])
        before = rbp_of(docs[:6], judgments, p)
        changed = generator.choice(docs[:6])
        raised = {**judgments, changed: max(judgments[changed], generator.randint(1, 3))}
        assert rbp_of(docs[:6], raised, p) >= before - 1e-12  # replace or raise: never lower
    for n in (1, 5, 10):  # the maximum with n documents is 1 - p^n
        ranking = [f"x{i}" for i in range(n)]
        assert abs(rbp_of(ranking, dict.fromkeys(ranking, 1), 0.8) - (1 - 0.8**n)) < 1e-12
    assert rbp_of(Q2.ranking, Q2.judgments, 0.5) == 0.5  # before the insertion

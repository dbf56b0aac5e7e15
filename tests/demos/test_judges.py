"""The judged collection and the simulated LLM judge of the llm-as-a-judge card."""

from collections import Counter

import pytest

from rankcards.demos.judges import (
    DOCUMENTS,
    GRADE_SHARES,
    QUERIES,
    SYSTEMS,
    collection,
    simulated_judge,
)
from rankcards.metrics import evaluate


def test_collection_shape_and_grades():
    human, runs = collection()
    assert len(human) == QUERIES
    assert all(len(grades) == DOCUMENTS for grades in human.values())
    counts = Counter(grade for grades in human.values() for grade in grades.values())
    assert set(counts) == {0, 1, 2, 3}
    # The shares are a draw from GRADE_SHARES: within 5 points of each on 600 grades.
    for grade, share in enumerate(GRADE_SHARES):
        assert abs(counts[grade] / (QUERIES * DOCUMENTS) - share) < 0.05
    assert list(runs) == list(SYSTEMS)
    for run in runs.values():
        assert run.keys() == human.keys()
        for query, scores in run.items():
            assert scores.keys() == human[query].keys()
            assert sorted(scores.values()) == [float(n) for n in range(1, DOCUMENTS + 1)]


def test_collection_is_seeded_and_returns_fresh_mappings():
    first = collection()
    first.qrels["q01"]["d01"] = 99
    first.runs["S1"]["q01"].clear()
    again = collection()
    assert again.qrels["q01"]["d01"] != 99 and again.runs["S1"]["q01"]
    assert collection(seed=1).qrels != again.qrels


def test_systems_are_ordered_by_skill_under_the_human_labels():
    # The card reads S1 as the best system and S8 as the worst: the default draw keeps them so.
    human, runs = collection()
    means = [evaluate(human, runs[s], ["nDCG@10"]).aggregate["nDCG@10"] for s in SYSTEMS]
    assert means == sorted(means, reverse=True) and len(set(means)) == len(means)


def test_a_judge_without_faults_copies_the_human():
    human, _ = collection()
    assert simulated_judge(human) == human
    assert simulated_judge(human) is not human


def test_each_fault_at_probability_one():
    human = {"q": {"a": 0, "b": 1, "c": 2, "d": 3}}
    assert simulated_judge(human, unparsed=1.0, leniency=1.0) == {
        "q": {"a": 0, "b": 0, "c": 0, "d": 0}
    }
    assert simulated_judge(human, leniency=1.0) == {"q": {"a": 1, "b": 2, "c": 3, "d": 3}}
    noisy = simulated_judge(human, noise=1.0)["q"]
    assert noisy["a"] == 1 and noisy["d"] == 2  # up from 0, down from 3
    assert noisy["b"] in (0, 2) and noisy["c"] in (1, 3)
    favoured = simulated_judge(human, favoured={"q": {"a", "c"}}, self_preference=1.0)
    assert favoured == {"q": {"a": 1, "b": 1, "c": 3, "d": 3}}


def test_a_higher_probability_only_adds_changes():
    human, _ = collection()

    def changed(**faults: float) -> set[tuple[str, str]]:
        judged = simulated_judge(human, **faults)
        return {
            (q, d) for q, grades in human.items() for d, g in grades.items() if judged[q][d] != g
        }

    for fault in ("noise", "leniency", "unparsed"):
        low, high = changed(**{fault: 0.1}), changed(**{fault: 0.3})
        assert low < high, fault
        # Roughly the probability times the pairs a fault can change (600 pairs; 4 points).
        movable = {
            "noise": 600,
            "leniency": sum(g < 3 for grades in human.values() for g in grades.values()),
            "unparsed": sum(g > 0 for grades in human.values() for g in grades.values()),
        }[fault]
        assert abs(len(high) / movable - 0.3) < 0.04, fault


def test_self_preference_touches_only_the_favoured_documents():
    human, runs = collection()
    favoured = {q: sorted(s, key=s.get, reverse=True)[:10] for q, s in runs["S4"].items()}
    judged = simulated_judge(human, favoured=favoured, self_preference=0.5)
    for query, grades in human.items():
        for doc, grade in grades.items():
            if doc in favoured[query]:
                assert judged[query][doc] in (grade, min(grade + 1, 3))
            else:
                assert judged[query][doc] == grade
    # S4 gains under its own judge, and no other system does.
    before = {s: evaluate(human, runs[s], ["nDCG@10"]).aggregate["nDCG@10"] for s in SYSTEMS}
    after = {s: evaluate(judged, runs[s], ["nDCG@10"]).aggregate["nDCG@10"] for s in SYSTEMS}
    gains = {s: after[s] - before[s] for s in SYSTEMS}
    assert max(gains, key=gains.get) == "S4"


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"noise": 1.5}, r"noise must be in \[0, 1\], got 1.5"),
        ({"leniency": -0.1}, r"leniency must be in \[0, 1\], got -0.1"),
        ({"unparsed": 2}, r"unparsed must be in \[0, 1\], got 2"),
        ({"self_preference": 1.01}, r"self_preference must be in \[0, 1\], got 1.01"),
    ],
)
def test_probabilities_outside_zero_one_are_refused(kwargs, message):
    with pytest.raises(ValueError, match=message):
        simulated_judge({"q": {"a": 1}}, **kwargs)


def test_grades_outside_the_scale_are_refused():
    with pytest.raises(ValueError, match="q d: grade 4 is not 0-3"):
        simulated_judge({"q": {"d": 4}})

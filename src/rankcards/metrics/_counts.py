"""Counters: num_q, num_ret, num_rel, num_rel_ret (summed over queries, printed as integers)."""

from __future__ import annotations

from ._measure import REL, Measure
from ._query import Args, Query


def _num_q(query: Query, args: Args) -> float:
    """Each evaluated query counts once."""
    return 1.0


def _num_ret(query: Query, args: Args) -> float:
    """Retrieved documents (after the depth cut)."""
    return float(query.num_ret)


def _num_rel(query: Query, args: Args) -> float:
    """Judged documents with label >= rel, retrieved or not."""
    return float(query.num_rel(args.rel))


def _num_rel_ret(query: Query, args: Args) -> float:
    """Retrieved documents with label >= rel."""
    return float(len(query.positions(args.rel)))


_CITE = "trec_eval, NIST (https://github.com/usnistgov/trec_eval)."

NUM_Q = Measure(
    "num_q", _num_q, "Number of evaluated queries.", _CITE, trec_eval="num_q", aggregate="count"
)
NUM_RET = Measure(
    "num_ret", _num_ret, "Retrieved documents.", _CITE, trec_eval="num_ret", aggregate="sum"
)
NUM_REL = Measure(
    "num_rel",
    _num_rel,
    "Relevant documents in the qrels.",
    _CITE,
    params=(REL,),
    trec_eval="num_rel",
    aggregate="sum",
)
NUM_REL_RET = Measure(
    "num_rel_ret",
    _num_rel_ret,
    "Relevant documents retrieved.",
    _CITE,
    params=(REL,),
    trec_eval="num_rel_ret",
    aggregate="sum",
)

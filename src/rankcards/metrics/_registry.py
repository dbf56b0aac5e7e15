"""The explicit, ordered table of measures: its order is the output order of the CLI.

Adding a measure means one new module and one line here. Names and aliases must be unique;
a clash raises at import time rather than silently shadowing a measure.
"""

from __future__ import annotations

from . import (
    _alpha_ndcg,
    _ap,
    _bpref,
    _counts,
    _dcg,
    _err,
    _err_ia,
    _f1,
    _fbeta,
    _iprec,
    _judged,
    _ndcg,
    _nerr_ia,
    _p,
    _p_ia,
    _rbp,
    _recall,
    _rprec,
    _rr,
    _strecall,
    _success,
)
from ._measure import Measure

MEASURES: tuple[Measure, ...] = (
    _counts.NUM_Q,
    _counts.NUM_RET,
    _counts.NUM_REL,
    _counts.NUM_REL_RET,
    _rr.MEASURE,
    _success.MEASURE,
    _p.MEASURE,
    _recall.MEASURE,
    _f1.MEASURE,
    _fbeta.MEASURE,
    _rprec.MEASURE,
    _ap.MEASURE,
    _iprec.MEASURE,
    _ndcg.MEASURE,
    _dcg.MEASURE,
    _err.MEASURE,
    _bpref.MEASURE,
    _rbp.MEASURE,
    _judged.MEASURE,
    _alpha_ndcg.MEASURE,
    _err_ia.MEASURE,
    _nerr_ia.MEASURE,
    _p_ia.MEASURE,
    _strecall.MEASURE,
)


def _index(measures: tuple[Measure, ...]) -> dict[str, Measure]:
    """Map every name and alias to its measure; duplicates are a programming error."""
    table: dict[str, Measure] = {}
    for measure in measures:
        for name in (measure.name, *measure.aliases):
            if name in table:
                raise ValueError(
                    f"measure name {name!r} registered twice "
                    f"({table[name].name} and {measure.name})"
                )
            table[name] = measure
    return table


BY_NAME: dict[str, Measure] = _index(MEASURES)

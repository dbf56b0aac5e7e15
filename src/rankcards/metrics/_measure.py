"""What a measure declares (name, parameters, help, citation, trec_eval name) and a parsed use.

A :class:`Measure` is the descriptor of one measure module; a :class:`MeasureSpec` is one
concrete use of it such as ``P(rel=2)@5``, with a canonical name that is the key of every
result the module returns.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from typing import Literal

from ._query import Args, Query
from ._terms import Terms

Cutoff = Literal["none", "optional", "required"]
#: what ``@`` sets: a rank cutoff k (most measures) or a recall level (IPrec, as ir_measures)
At = Literal["rank", "recall"]
Aggregate = Literal["mean", "sum", "count"]


@dataclass(frozen=True)
class Param:
    """A named parameter such as ``rel`` or ``p``: its type, default and allowed range."""

    name: str
    kind: type[int] | type[float] | type[str]
    default: int | float | str | None
    minimum: float
    maximum: float | None
    expected: str
    #: shown in the canonical name even at its default (RBP's ``p`` differs across tools)
    always_shown: bool = False
    #: exclusive bounds, e.g. RBP's 0 < p < 1
    exclusive: bool = False
    #: the allowed values of a text parameter (nDCG's ``dcg``)
    choices: tuple[str, ...] = ()

    def accepts(self, value: float | str) -> bool:
        """Whether ``value`` lies in the allowed range (or is one of the choices)."""
        if isinstance(value, str):
            return value in self.choices
        if self.exclusive:
            return value > self.minimum and (self.maximum is None or value < self.maximum)
        return value >= self.minimum and (self.maximum is None or value <= self.maximum)


#: ``rel``: the minimum label counted as relevant; None means the evaluation's level.
REL = Param("rel", int, None, 0, None, "an integer >= 0")
#: ``alpha``: the diversity measures' redundancy intolerance, ndeval's -alpha (default 0.5)
ALPHA = Param("alpha", float, 0.5, 0.0, 1.0, "a number with 0 <= alpha <= 1")


@dataclass(frozen=True)
class Measure:
    """Descriptor of one measure: the registry, parser, CLI and docs all read it."""

    name: str
    compute: Callable[[Query, Args], float]
    summary: str
    citation: str
    cutoff: Cutoff = "none"
    params: tuple[Param, ...] = ()
    aliases: tuple[str, ...] = ()
    #: trec_eval measure name without cutoff (e.g. ``map``), if trec_eval has one
    trec_eval: str | None = None
    #: trec_eval prefix for the cutoff form, printed as ``<prefix>_<k>`` (e.g. ``map_cut``)
    trec_eval_cut: str | None = None
    #: parameter values trec_eval uses for its name (RBP: p=0.9)
    trec_eval_params: tuple[tuple[str, float], ...] = ()
    #: how per-query values combine: mean over queries, sum (counters), or count of queries
    aggregate: Aggregate = "mean"
    #: the per-query terms behind the value (see ``_terms``); every mean measure has one
    explain: Callable[[Query, Args], Terms] | None = None
    #: what ``@`` sets; with ``"recall"`` the value is the parameter named ``recall``
    at: At = "rank"
    #: reads the subtopics of a diversity qrels (column 2, as ndeval) instead of one label
    subtopics: bool = False

    @property
    def is_counter(self) -> bool:
        """Counters print as integers and have no mean."""
        return self.aggregate != "mean"

    def form(self) -> str:
        """The expected written form, e.g. ``P[(rel=N)]@k``, for help and error messages."""
        text = self.name
        shown = [p for p in self.params if not self._at_param(p)]
        if shown:
            inner = ",".join(f"{p.name}=" + _placeholder(p) for p in shown)
            text += f"[({inner})]"
        at = "@r" if self.at == "recall" else "@k"
        if self.cutoff == "required":
            text += at
        elif self.cutoff == "optional":
            text += f"[{at}]"
        return text

    def _at_param(self, param: Param) -> bool:
        """Whether ``param`` is written after ``@`` (IPrec's recall)."""
        return self.at == "recall" and param.name == "recall"


def _placeholder(param: Param) -> str:
    if param.choices:
        return "|".join(param.choices)
    return "N" if param.kind is int else "X"


@dataclass(frozen=True)
class MeasureSpec:
    """One parsed measure use: the measure, its cutoff and explicit parameters."""

    measure: Measure
    k: int | None
    params: tuple[tuple[str, int | float | str], ...]

    @cached_property
    def name(self) -> str:
        """Canonical name: ``Name(param=value,...)@k`` with defaults left out."""
        shown = dict(self.params)
        parts = []
        at = None if self.k is None else str(self.k)
        for param in self.measure.params:
            value = shown.get(param.name, param.default)
            if self.measure.at == "recall" and param.name == "recall":
                at = None if value is None else _format_value(value)
                continue
            if value is None or (value == param.default and not param.always_shown):
                continue
            parts.append(f"{param.name}={_format_value(value)}")
        text = self.measure.name
        if parts:
            text += "(" + ",".join(parts) + ")"
        if at is not None:
            text += f"@{at}"
        return text

    def args(self, rel_level: int) -> Args:
        """Resolve the parameters against the evaluation's relevance level."""
        values = dict(self.params)
        defaults = {q.name: q.default for q in self.measure.params}
        rel = values.get("rel")
        p = values.get("p", defaults.get("p"))
        dcg = values.get("dcg", defaults.get("dcg"))
        recall = values.get("recall")
        alpha = values.get("alpha", defaults.get("alpha"))
        beta = values.get("beta", defaults.get("beta"))
        return Args(
            k=self.k,
            rel=rel_level if rel is None else int(rel),
            p=0.0 if p is None else float(p),
            dcg="log2" if dcg is None else str(dcg),
            recall=0.0 if recall is None else float(recall),
            alpha=0.5 if alpha is None else float(alpha),
            beta=1.0 if beta is None else float(beta),
        )

    def __str__(self) -> str:
        return self.name


def _format_value(value: int | float | str) -> str:
    """Shortest faithful text of a parameter value (``0.8`` not ``0.80000``)."""
    if isinstance(value, float):
        return repr(value)
    return str(value)

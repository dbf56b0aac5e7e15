"""The one strict parser for measure names such as ``RR@10``, ``P(rel=2)@5``, ``RBP(p=0.8)``.

Grammar (ir_measures notation): ``NAME [ "(" param=value {"," param=value} ")" ] [ "@" k ]``.
Errors quote the input and show the expected form of the named measure.
"""

from __future__ import annotations

import re

from ._errors import MeasureError
from ._measure import Measure, MeasureSpec, Param
from ._registry import BY_NAME, MEASURES

_SHAPE = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)(?:\(([^()]*)\))?(?:@([^@]*))?")
_INTEGER = re.compile(r"[+-]?[0-9]+")
_NUMBER = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
_GENERAL_FORM = "NAME[(param=value,...)][@k], e.g. 'P(rel=2)@5'"


def measure_names() -> list[str]:
    """Written forms of every known measure in registry order, e.g. ``'P[(rel=N)]@k'``.

    Returns:
        One entry per measure, aliases shown after it, such as ``'Success[(rel=N)]@k
        (alias HitRate)'``.

    Example:
        >>> measure_names()[:3]
        ['num_q', 'num_ret', 'num_rel[(rel=N)]']
    """
    names = []
    for measure in MEASURES:
        text = measure.form()
        if measure.aliases:
            text += " (alias " + ", ".join(measure.aliases) + ")"
        names.append(text)
    return names


def parse_measure(text: str) -> MeasureSpec:
    """Parse one measure name into a :class:`MeasureSpec` whose ``.name`` is canonical.

    Aliases resolve to the canonical measure (``HitRate@10`` becomes ``Success@10``) and
    parameters at their default are dropped (``P(rel=1)@5`` stays ``P(rel=1)@5`` because an
    explicit ``rel`` overrides the evaluation's level; RBP always shows ``p``).

    Args:
        text: the name as a user writes it.

    Returns:
        The parsed measure use.

    Raises:
        MeasureError: the text does not parse, names no measure, or has a bad parameter;
            the message quotes the input and the expected form.

    Example:
        >>> parse_measure("HitRate@10").name
        'Success@10'
        >>> parse_measure("RBP").name  # p shown even at its default, 0.8
        'RBP(p=0.8)'
    """
    written = text.strip()
    shape = _SHAPE.fullmatch(written)
    if shape is None:
        raise MeasureError(f"invalid measure {text!r}: expected {_GENERAL_FORM}")
    name, params_text, cutoff_text = shape.groups()
    measure = BY_NAME.get(name)
    if measure is None:
        raise MeasureError(_unknown(text, name))
    params = _params(text, measure, params_text)
    if measure.at == "recall":
        return MeasureSpec(measure, None, _at_recall(text, measure, cutoff_text, params))
    return MeasureSpec(measure=measure, k=_cutoff(text, measure, cutoff_text), params=params)


def spec_for_trec_eval(name: str) -> MeasureSpec | None:
    """The spec whose trec_eval output name is ``name`` (``map_cut_10`` -> AP@10), if any."""
    for measure in MEASURES:
        params: tuple[tuple[str, int | float | str], ...] = measure.trec_eval_params
        if measure.trec_eval == name:
            return MeasureSpec(measure, None, params)
        prefix = measure.trec_eval_cut
        if not prefix or not name.startswith(prefix + "_"):
            continue
        suffix = name[len(prefix) + 1 :]
        if measure.at == "recall" and _NUMBER.fullmatch(suffix):  # iprec_at_recall_0.50
            return MeasureSpec(measure, None, (*params, ("recall", float(suffix))))
        if measure.at == "rank" and suffix.isdigit():
            return MeasureSpec(measure, int(suffix), params)
    return None


def _unknown(text: str, name: str) -> str:
    """Unknown-name message listing what exists, with a hint for a case slip."""
    hint = ""
    for known in BY_NAME:
        if known.lower() == name.lower():
            hint = f" (did you mean {known!r}?)"
            break
    return f"unknown measure {text!r}{hint}; known measures: " + ", ".join(measure_names())


def _cutoff(text: str, measure: Measure, cutoff_text: str | None) -> int | None:
    """Check the ``@k`` part against what the measure allows."""
    if cutoff_text is None:
        if measure.cutoff == "required":
            raise MeasureError(
                f"measure {text!r} needs a cutoff: expected {measure.form()}, "
                f"e.g. '{measure.name}@10'"
            )
        return None
    if measure.cutoff == "none":
        raise MeasureError(f"measure {text!r} takes no cutoff: expected {measure.form()}")
    if not cutoff_text.isascii() or not cutoff_text.isdigit() or int(cutoff_text) < 1:
        raise MeasureError(
            f"invalid cutoff in {text!r}: k must be an integer >= 1, got {cutoff_text!r}"
        )
    return int(cutoff_text)


def _at_recall(
    text: str,
    measure: Measure,
    cutoff_text: str | None,
    params: tuple[tuple[str, int | float | str], ...],
) -> tuple[tuple[str, int | float | str], ...]:
    """IPrec@0.5: ``@`` sets the recall level (ir_measures' AT_PARAM), a number in [0, 1]."""
    given = dict(params)
    if cutoff_text is None:
        if "recall" not in given:
            raise MeasureError(
                f"measure {text!r} needs a recall level: expected {measure.form()}, "
                f"e.g. '{measure.name}@0.5'"
            )
        return params
    if "recall" in given:
        raise MeasureError(f"parameter 'recall' given twice in {text!r}")
    recall = next(param for param in measure.params if param.name == "recall")
    given["recall"] = _value(text, recall, cutoff_text)
    return tuple((p.name, given[p.name]) for p in measure.params if p.name in given)


def _params(
    text: str, measure: Measure, params_text: str | None
) -> tuple[tuple[str, int | float | str], ...]:
    """Parse ``name=value`` pairs, checking names, types, ranges and repeats."""
    if params_text is None:
        return ()
    allowed = {param.name: param for param in measure.params}
    if not allowed:
        raise MeasureError(f"measure {text!r} takes no parameters: expected {measure.form()}")
    values: dict[str, int | float | str] = {}
    for item in params_text.split(","):
        key, sep, raw = (part.strip() for part in item.partition("="))
        param = allowed.get(key)
        if not sep or param is None:
            raise MeasureError(
                f"invalid parameter {item.strip()!r} in {text!r}: expected {measure.form()} "
                f"(parameters: {', '.join(allowed)})"
            )
        if key in values:
            raise MeasureError(f"parameter {key!r} given twice in {text!r}")
        values[key] = _value(text, param, raw)
    return tuple((p.name, values[p.name]) for p in measure.params if p.name in values)


def _value(text: str, param: Param, raw: str) -> int | float | str:
    """Convert one parameter value, quoting the input when it is not acceptable."""
    value: int | float | str | None = None
    if param.choices:
        value = raw
    elif (_INTEGER if param.kind is int else _NUMBER).fullmatch(raw):
        value = int(raw) if param.kind is int else float(raw)
    if value is None or not param.accepts(value):
        raise MeasureError(
            f"invalid value in {text!r}: {param.name} must be {param.expected}, got {raw!r}"
        )
    return value

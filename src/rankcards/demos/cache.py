"""Build an index once per process and parameters, for examples that re-run on every change.

A card's example runs again each time the reader moves a control. Moving a *search* parameter
(``ef``, a re-rank depth, a filter) must not rebuild the index, exactly as in the libraries
(hnswlib's ``set_ef``, FAISS's ``nprobe``): only a *build* parameter does. :func:`build_once`
keeps the last few indexes, keyed by their class and arguments (which must be hashable: the
vectors as a tuple of tuples, as :func:`rankcards.demos.vectors.synthetic` gives them).

>>> from rankcards.demos.hnsw import HNSW
>>> data = ((0.0, 0.0), (1.0, 0.0), (0.0, 1.0))
>>> build_once(HNSW, data, m=2) is build_once(HNSW, data, m=2)
True
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

__all__ = ["build_once"]

Index = TypeVar("Index")


@functools.lru_cache(maxsize=8)
def _build(factory: Callable[..., Any], args: tuple[Any, ...], kwargs: tuple[Any, ...]) -> Any:
    return factory(*args, **dict(kwargs))


def build_once(factory: Callable[..., Index], *args: Any, **kwargs: Any) -> Index:
    """``factory(*args, **kwargs)``, built on the first call and returned again on the next ones
    with equal arguments (the 8 most recent are kept)."""
    result: Index = _build(factory, args, tuple(sorted(kwargs.items())))
    return result

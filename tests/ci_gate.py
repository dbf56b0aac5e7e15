"""Skip locally, fail under CI: what a test does when a tool or a file it needs is missing.

A contributor without Chromium, Node or pytrec_eval still gets a green local run with clear skip
reasons; CI (any true ``CI`` value: ``1``, ``true``, ``yes``...) must never turn green by skipping
what the README claims is proven, so there the same absence fails the test. Used by every such
test through :func:`skip_or_fail` (the fixtures of ``tests/conftest.py`` wrap it).
"""

from __future__ import annotations

import importlib
import os
import shutil
from collections.abc import Mapping
from types import ModuleType
from typing import NoReturn

import pytest

_FALSE = frozenset({"", "0", "false", "no", "off"})


def under_ci(environ: Mapping[str, str] = os.environ) -> bool:
    """Whether ``CI`` is set to a true value.

    >>> under_ci({"CI": "1"}), under_ci({"CI": "True"}), under_ci({"CI": "yes"})
    (True, True, True)
    >>> under_ci({}), under_ci({"CI": "false"}), under_ci({"CI": "0"})
    (False, False, False)
    """
    return environ.get("CI", "").strip().lower() not in _FALSE


def skip_or_fail(reason: str) -> NoReturn:
    """Skip with ``reason`` locally; fail with it under CI. Called at a module's top level
    (``x = require_module(...)``), the skip covers the module."""
    if under_ci():
        pytest.fail(f"{reason} (CI is set: what a test needs must be there)", pytrace=False)
    pytest.skip(reason, allow_module_level=True)


def require_module(name: str, hint: str) -> ModuleType:
    """Import ``name``, or skip (fail under CI) saying how to install it: ``importorskip``'s
    CI-aware form."""
    try:
        return importlib.import_module(name)
    except ImportError:
        skip_or_fail(f"needs the Python module {name!r} ({hint})")


def require_node() -> str:
    """The path of ``node``, or skip (fail under CI)."""
    node = shutil.which("node")
    if node is None:
        skip_or_fail("node not found on PATH (Node.js >= 20 is needed)")
    return node

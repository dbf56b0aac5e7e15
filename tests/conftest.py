"""Shared pytest fixtures, kept small and generic (parts add their own with care)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

_REPO_ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="session")
def repo_root() -> Path:
    """The repository checkout the tests run from."""
    return _REPO_ROOT


@pytest.fixture(scope="session")
def trec_eval_reference() -> Path:
    """trec_eval reference data (env RANKCARDS_TREC_EVAL_REF, else ../shared/...), or skip.

    Read in place, never copied into the repository (NIST's notice travels with the files).
    """
    configured = os.environ.get("RANKCARDS_TREC_EVAL_REF")
    folder = Path(configured) if configured else _REPO_ROOT.parent / "shared/reference/trec_eval"
    if not (folder / "out.test").is_file():
        pytest.skip(f"trec_eval reference data not found in {folder} (set RANKCARDS_TREC_EVAL_REF)")
    return folder

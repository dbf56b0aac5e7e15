"""The site's build options and inputs, whichever engine builds it.

The MkDocs plugin reads the options from its entry in ``mkdocs.yml`` (``plugins: - rankcards:``),
:mod:`rankcards.site.sources` from the same entry without MkDocs; both find the templates and
KaTeX, and check for Node, here.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any


class SiteInputError(Exception):
    """A missing input or a wrong option; the message says what to do."""


@dataclass(frozen=True)
class SiteOptions:
    """The ``rankcards`` plugin's options (their meaning: ``RankcardsConfig``)."""

    cards_dir: str = "cards"
    templates_dir: str = "templates"
    node_modules: str = "node_modules"
    timeout: float = 10.0
    web_assets: bool = True

    @classmethod
    def from_plugin_entry(cls, entry: dict[str, Any]) -> SiteOptions:
        """The options of a ``rankcards:`` plugin entry; an unknown name or a wrong type raises
        :class:`SiteInputError` naming it."""
        known = {field.name for field in fields(cls)}
        for name, value in entry.items():
            if name not in known:
                raise SiteInputError(f"plugins.rankcards.{name}: unknown option")
            default = getattr(cls, name)
            if isinstance(default, bool) or isinstance(value, bool):
                fits = isinstance(value, bool) and isinstance(default, bool)
            elif isinstance(default, float):
                fits = isinstance(value, int | float)
            else:
                fits = isinstance(value, type(default))
            if not fits:
                raise SiteInputError(
                    f"plugins.rankcards.{name}: expected {type(default).__name__}, got {value!r}"
                )
        return cls(**entry)


def locate_inputs(root: Path, options: SiteOptions) -> tuple[Path, Path]:
    """The templates folder and the npm ``katex`` package of the project at ``root``; raises
    :class:`SiteInputError` when one is missing or ``node`` (KaTeX runs in it) is not on PATH."""
    templates = root / options.templates_dir
    if not (templates / "card.html.jinja").is_file():
        raise SiteInputError(f"{templates}/card.html.jinja not found: set templates_dir")
    katex = root / options.node_modules / "katex"
    if not (katex / "dist" / "katex.min.css").is_file():
        raise SiteInputError(f"{katex} not found: run `npm ci` in {root}")
    if shutil.which("node") is None:
        raise SiteInputError("`node` not on PATH: install Node.js >= 18 (for KaTeX)")
    return templates, katex

"""One sitemap per language, beside the site-wide one (MkDocs: written from it after the build;
another engine: written with the sources, :func:`language_sitemap`).

Material's language selector fetches ``<alternate link>/sitemap.xml`` (``en/sitemap.xml``,
``es/sitemap.xml``) on every page to map the current page to its counterpart; without these
files each page load logs two 404s. Each one lists the URLs of the site-wide sitemap that lie
under its language's folder.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path
from xml.sax.saxutils import escape

_URL = re.compile(r"<url>.*?</url>", re.S)
_LOC = re.compile(r"<loc>(.*?)</loc>", re.S)


def _loc(entry: str) -> str:
    match = _LOC.search(entry)
    return match.group(1) if match else ""


def write_language_sitemaps(site_dir: Path, langs: Iterable[str]) -> None:
    """Write ``<site_dir>/<lang>/sitemap.xml`` from ``<site_dir>/sitemap.xml`` for each language."""
    sitemap = site_dir / "sitemap.xml"
    if not sitemap.is_file():  # no site_url: MkDocs wrote no sitemap and Material fetches none
        return
    text = sitemap.read_text(encoding="utf-8")
    head, _, _ = text.partition("<url>")
    entries = _URL.findall(text)
    for lang in langs:
        if (site_dir / lang).is_dir():
            body = "\n    ".join(e for e in entries if f"/{lang}/" in _loc(e))
            (site_dir / lang / "sitemap.xml").write_text(
                f"{head}{body}\n</urlset>\n", encoding="utf-8"
            )


def language_sitemap(site_url: str, urls: Iterable[str]) -> str:
    """A sitemap of ``urls`` (site-relative page URLs, ``en/mrr/``) under ``site_url``, for an
    engine whose own sitemap is written after the rankcards step (``rankcards.site.sources``).

    >>> print(language_sitemap("https://x.org/docs/", ["en/"]))
    <?xml version="1.0" encoding="UTF-8"?>
    <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
        <url><loc>https://x.org/docs/en/</loc></url>
    </urlset>
    <BLANKLINE>
    """
    base = site_url if site_url.endswith("/") else f"{site_url}/"
    body = "".join(f"    <url><loc>{escape(base + url)}</loc></url>\n" for url in urls)
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
        f"{body}</urlset>\n"
    )

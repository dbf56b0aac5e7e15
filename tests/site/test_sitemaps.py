"""Per-language sitemaps: what Material's language selector fetches on every page."""

from pathlib import Path

from rankcards.site._sitemaps import write_language_sitemaps

_SITEMAP = """<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
    <url>
         <loc>https://x.test/site/en/mrr/</loc>
    </url>
    <url>
         <loc>https://x.test/site/es/mrr/</loc>
    </url>
    <url>
         <loc>https://x.test/site/</loc>
    </url>
</urlset>
"""


def test_each_language_gets_only_its_own_urls(tmp_path: Path) -> None:
    (tmp_path / "sitemap.xml").write_text(_SITEMAP, encoding="utf-8")
    (tmp_path / "en").mkdir()
    (tmp_path / "es").mkdir()
    write_language_sitemaps(tmp_path, ["en", "es"])
    en = (tmp_path / "en" / "sitemap.xml").read_text(encoding="utf-8")
    es = (tmp_path / "es" / "sitemap.xml").read_text(encoding="utf-8")
    assert "/en/mrr/" in en and "/es/" not in en
    assert "/es/mrr/" in es and "/en/" not in es
    assert en.startswith("<?xml") and en.rstrip().endswith("</urlset>")
    assert en.count("<url>") == 1 == es.count("<url>")


def test_no_site_sitemap_writes_nothing(tmp_path: Path) -> None:
    (tmp_path / "en").mkdir()
    write_language_sitemaps(tmp_path, ["en"])
    assert not (tmp_path / "en" / "sitemap.xml").exists()


def test_built_site_has_language_sitemaps(built_site: Path) -> None:
    for lang in ("en", "es"):
        text = (built_site / lang / "sitemap.xml").read_text(encoding="utf-8")
        assert text.count("<url>") > 1 and f"/{lang}/glossary/" in text

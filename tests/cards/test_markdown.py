"""Card Markdown is untrusted: raw HTML shows as text and only safe links stay clickable."""

from __future__ import annotations

import pytest

from rankcards.cards._markdown import CardMarkdown, MathCollector, is_safe_url


@pytest.fixture
def md() -> CardMarkdown:
    return CardMarkdown(MathCollector())


def test_raw_html_is_escaped(md: CardMarkdown) -> None:
    html = md.render('<script>alert(1)</script> <img src=x onerror="alert(1)">', None)
    assert "<script" not in html and "<img" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "&lt;img src=x onerror=" in html


@pytest.mark.parametrize(
    "link",
    ["javascript:alert(1)", "JaVaScRiPt:alert(1)", "java\tscript:alert(1)", "data:text/html,x"],
)
def test_unsafe_link_targets_are_dropped(md: CardMarkdown, link: str) -> None:
    html = md.render(f"[click]({link}) ![img]({link})", None, inline=True)
    assert html == '<a>click</a> <img alt="img" />'


def test_safe_links_stay(md: CardMarkdown) -> None:
    html = md.render("[a](https://x.org/) [b](../mrr/) [c](mailto:a@b.org)", None, inline=True)
    assert (
        html
        == '<a href="https://x.org/">a</a> <a href="../mrr/">b</a> <a href="mailto:a@b.org">c</a>'
    )
    assert not is_safe_url("vbscript:x")


def test_math_is_collected_outside_code_and_prices(md: CardMarkdown) -> None:
    html = md.render(r"$\frac{1}{k}$ costs $5 and $10, `$not$`, \$x\$", ("card", "f"), inline=True)
    assert html.startswith('<rc-math data-i="0"></rc-math> costs $5 and $10, <code>$not$</code>')
    assert md.collector.items == [(r"\frac{1}{k}", False, ("card", "f"))]

"""End-to-end tests of the Draw / Notes layer (``src/rankcards/web/draw*.js``) in Chromium.

They run against a small real MkDocs Material site (instant navigation and the palette toggle
on) that loads only the draw modules, so they exercise Material's actual header, content box and
``document$`` navigation while staying independent of the card pipeline and of Pyodide.
"""

from __future__ import annotations

import base64
import json
import shutil
import struct
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from static_site import base_url, start_server

from repo_paths import ROOT, WEB

# Its own xdist group: this module needs no built site, so it can run beside the "browser" group.
pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("draw")]

PREFIX = "rankcards.draw.v1:"
RESULTS = ROOT / "test-results" / "draw"  # screenshots, for people
RECT = "r => ({x: r.x, y: r.y, w: r.width, h: r.height})"
FILLER = "Texto de relleno para que la página tenga altura y se pueda desplazar. " * 6

PAGES = {
    "es/index.md": "\n\n".join(
        [
            "# Página de prueba",
            "Un párrafo antes del diagrama. " * 8,
            '<svg id="diagram" viewBox="0 0 300 120" width="600" height="240">'
            '<rect x="10" y="10" width="280" height="100" fill="#90caf9"/></svg>',
            '<a id="probe" href="#destino">Enlace de prueba</a>',
            *[FILLER] * 14,
            '<h2 id="destino">Destino</h2>',
            "[Otra página](otra.md)",
            *[FILLER] * 6,
        ]
    ),
    "es/otra.md": "# Otra página\n\n[English](../en/index.md)\n\n" + "\n\n".join([FILLER] * 10),
    "en/index.md": "# Test page\n\n" + "\n\n".join([FILLER] * 4),
}


@pytest.fixture(scope="module")
def draw_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Build the test site and serve it; yields its base URL."""
    root = tmp_path_factory.mktemp("draw-site")
    docs, site = root / "docs", root / "site"
    (docs / "draw").mkdir(parents=True)
    (docs / "es").mkdir()
    (docs / "en").mkdir()
    for name, text in PAGES.items():
        (docs / name).write_text(text, encoding="utf-8")
    for path in [*WEB.glob("draw*.*"), WEB / "pages.js"]:  # the layer and what it imports
        shutil.copyfile(path, docs / "draw" / path.name)
    site.mkdir()
    server = start_server(site)
    url = base_url(server)
    palette = [
        {"scheme": "default", "toggle": {"icon": "material/brightness-7", "name": "Dark"}},
        {"scheme": "slate", "toggle": {"icon": "material/brightness-4", "name": "Light"}},
    ]
    config = {
        "site_name": "drawtest",
        "site_url": url,
        "docs_dir": str(docs),
        "theme": {
            "name": "material",
            "font": False,  # no Google Fonts request: the tests run offline
            "features": ["navigation.instant"],
            "palette": palette,
        },
        "extra_css": ["draw/draw.css"],
        "extra_javascript": [{"path": "draw/draw.js", "type": "module"}],
    }
    (root / "mkdocs.yml").write_text(json.dumps(config), encoding="utf-8")
    build = [sys.executable, "-m", "mkdocs", "build", "-q", "-f", str(root / "mkdocs.yml")]
    subprocess.run([*build, "-d", str(site)], check=True, capture_output=True)
    yield url
    server.shutdown()
    server.server_close()


@pytest.fixture
def page(browser, draw_site):
    """A fresh context (empty localStorage) on the Spanish test page; fails on any page error.

    Overrides conftest's ``page`` for this module: same idea, but on the draw test site, with a
    fixed viewport and downloads accepted. ``browser`` is conftest's shared Chromium.
    """
    context = browser.new_context(viewport={"width": 1200, "height": 800}, accept_downloads=True)
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    pg.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    pg.goto(draw_site + "es/")
    pg.wait_for_selector(".rc-draw-layer", state="attached")
    yield pg
    context.close()
    assert errors == []


def _stored(page) -> dict[str, list]:
    raw = page.evaluate(f"Object.entries(localStorage).filter(([k]) => k.startsWith('{PREFIX}'))")
    return {key[len(PREFIX) :]: json.loads(value)["strokes"] for key, value in raw}


def _box(page, selector: str) -> dict[str, float]:
    return page.eval_on_selector(
        selector,
        f"e => ({RECT})(e.getBoundingClientRect())",
    )


def _paths(page) -> list[dict[str, float]]:
    """The drawn strokes' boxes in viewport coordinates."""
    return page.eval_on_selector_all(
        ".rc-draw-layer .rc-draw-stroke",
        f"ps => ps.map(p => ({RECT})(p.getBoundingClientRect()))",
    )


def _stroke(page, points: list[tuple[float, float]]) -> None:
    page.mouse.move(*points[0])
    page.mouse.down()
    for point in points[1:]:
        page.mouse.move(*point, steps=8)
    page.mouse.up()


def _pixels(page, png: bytes, points: list[tuple[int, int]]) -> list[list[int]]:
    """RGBA of `png` at `points`, decoded by the browser (no imaging library needed)."""
    return page.evaluate(
        """async ([b64, pts]) => {
            const img = new Image(); img.src = 'data:image/png;base64,' + b64; await img.decode();
            const c = document.createElement('canvas'); c.width = img.width; c.height = img.height;
            const ctx = c.getContext('2d'); ctx.drawImage(img, 0, 0);
            return pts.map(([x, y]) => Array.from(ctx.getImageData(x, y, 1, 1).data));
        }""",
        [base64.b64encode(png).decode(), points],
    )


def _arrive(page, path: str, heading: str) -> None:
    """Wait until Material has swapped in `path`'s content and the layer has re-attached to it."""
    page.wait_for_function(
        "([path, heading]) => location.pathname === path"
        " && document.querySelector('.md-content h1')?.textContent.includes(heading)"
        " && document.querySelector('.md-content > .rc-draw-layer') !== null",
        arg=[path, heading],
    )


def _on(page) -> None:
    page.click(".rc-draw-toggle")
    page.wait_for_selector(".rc-draw-layer--active")


def _diagram_stroke(page) -> dict[str, float]:
    d = _box(page, "#diagram")
    y = round(d["y"] + 60)
    _stroke(page, [(d["x"] + 40, y), (d["x"] + 150, y), (d["x"] + 260, y)])
    return d


def test_off_by_default_toggled_by_button_shortcut_and_escape(page, draw_site):
    toggle = page.locator(".rc-draw-toggle")
    assert toggle.get_attribute("aria-label") == "Dibujar / Apuntes (Alt+Shift+D)"
    assert toggle.get_attribute("aria-pressed") == "false"
    assert page.locator(".rc-draw-panel").is_hidden()
    assert (
        page.eval_on_selector(".rc-draw-layer", "e => getComputedStyle(e).pointerEvents") == "none"
    )

    page.evaluate(
        "window.drawEvents = []; document.addEventListener('rankcards:draw',"
        " e => window.drawEvents.push(e.detail))"
    )
    _on(page)
    assert toggle.get_attribute("aria-pressed") == "true"
    assert page.evaluate("window.drawEvents") == [{"active": True, "path": "/es/", "strokes": 0}]
    bar = page.get_by_role("toolbar", name="Herramientas de dibujo")
    assert bar.is_visible()
    assert bar.get_by_role("button", name="Lápiz").get_attribute("aria-pressed") == "true"
    layer_style = "e => [getComputedStyle(e).pointerEvents, getComputedStyle(e).touchAction]"
    assert page.eval_on_selector(".rc-draw-layer", layer_style) == ["auto", "none"]

    page.keyboard.press("Escape")
    assert toggle.get_attribute("aria-pressed") == "false"
    assert page.eval_on_selector(".rc-draw-layer", layer_style) == ["none", "auto"]
    page.keyboard.press("Alt+Shift+KeyD")
    assert toggle.get_attribute("aria-pressed") == "true"
    page.keyboard.press("Alt+Shift+KeyD")
    assert toggle.get_attribute("aria-pressed") == "false"

    page.goto(draw_site + "en/")
    assert (
        page.locator(".rc-draw-toggle").get_attribute("aria-label") == "Draw / Notes (Alt+Shift+D)"
    )
    _on(page)
    highlighter = page.get_by_role("toolbar", name="Drawing tools").get_by_role(
        "button", name="Highlighter"
    )
    assert highlighter.count() == 1 and highlighter.is_visible()  # English names on /en/


def test_stroke_is_saved_and_restored_after_reload(page):
    _on(page)
    page.get_by_role("button", name="Rojo").click()
    d = _diagram_stroke(page)
    strokes = _stored(page)["/es/"]
    assert len(strokes) == 1
    assert strokes[0]["tool"] == "pen" and strokes[0]["color"] == "red"
    assert strokes[0]["tag"] == "svg"  # anchored to the diagram it was drawn on
    assert 0.06 < strokes[0]["pts"][0] < 0.07 and 0.09 < strokes[0]["pts"][1] < 0.11

    page.reload()
    page.wait_for_selector(".rc-draw-layer .rc-draw-stroke", state="attached")
    assert page.locator(".rc-draw-toggle").get_attribute("aria-pressed") == "false"  # off again
    [box] = _paths(page)
    d = _box(page, "#diagram")
    assert abs(box["x"] - (d["x"] + 40)) < 2 and abs(box["x"] + box["w"] - (d["x"] + 260)) < 2
    y = round(d["y"] + 60)
    shot = page.screenshot()
    mid, beside = _pixels(page, shot, [(round(d["x"] + 150), y), (round(d["x"] + 150), y + 20)])
    assert mid[0] > 180 and mid[1] < 90 and mid[2] < 90  # red ink over the diagram
    assert beside[:3] == [0x90, 0xCA, 0xF9]  # the diagram's own fill just below


def test_stroke_stays_on_its_element_through_scroll_resize_and_palette(page):
    _on(page)
    _diagram_stroke(page)

    def offset() -> tuple[float, float]:
        d, [b] = _box(page, "#diagram"), _paths(page)
        return (b["x"] - d["x"]) / d["w"], (b["y"] - d["y"]) / d["w"]

    before = offset()
    page.mouse.wheel(0, 400)
    page.wait_for_function("window.scrollY >= 300")
    assert offset() == pytest.approx(before, abs=0.005)

    page.set_viewport_size({"width": 390, "height": 760})
    page.wait_for_function("document.querySelector('#diagram').getBoundingClientRect().width < 400")
    # The layer follows on a later frame (its ResizeObserver): wait for the stroke to be back on
    # its place over the diagram, however long a loaded machine takes.
    page.wait_for_function(
        """([x, y]) => {
          const d = document.querySelector('#diagram').getBoundingClientRect();
          const b = document.querySelector('.rc-draw-layer .rc-draw-stroke')
            .getBoundingClientRect();
          return Math.abs((b.x - d.x) / d.width - x) <= 0.01
            && Math.abs((b.y - d.y) / d.width - y) <= 0.01;
        }""",
        arg=list(before),
    )
    assert offset() == pytest.approx(before, abs=0.01)

    color = "() => getComputedStyle(document.querySelector('.rc-draw-stroke')).stroke"
    light = page.evaluate(color)
    page.evaluate("document.querySelector('[data-md-color-scheme=slate]').click()")
    page.wait_for_function("document.body.dataset.mdColorScheme === 'slate'")
    assert page.evaluate(color) != light
    assert offset() == pytest.approx(before, abs=0.01)


def test_undo_redo_clear_and_eraser(page):
    _on(page)
    d = _diagram_stroke(page)
    _stroke(page, [(d["x"] + 40, d["y"] + 20), (d["x"] + 100, d["y"] + 100)])
    assert len(_paths(page)) == 2 and len(_stored(page)["/es/"]) == 2

    page.get_by_role("button", name="Deshacer").click()
    assert len(_paths(page)) == 1 and len(_stored(page)["/es/"]) == 1
    page.keyboard.press("Control+Shift+KeyZ")
    assert len(_paths(page)) == 2 and len(_stored(page)["/es/"]) == 2
    page.keyboard.press("Control+KeyZ")
    page.get_by_role("button", name="Rehacer").click()
    assert len(_paths(page)) == 2

    page.get_by_role("button", name="Borrar todo").click()
    assert _paths(page) == [] and _stored(page) == {}
    assert (
        page.locator(".rc-draw-status").text_content() == "Apuntes borrados (Deshacer los recupera)"
    )
    page.get_by_role("button", name="Deshacer").click()
    assert len(_paths(page)) == 2

    page.get_by_role("button", name="Borrador").click()
    y = round(d["y"] + 60)
    _stroke(page, [(d["x"] + 200, y - 15), (d["x"] + 200, y + 15)])  # crosses only the first
    remaining = _stored(page)["/es/"]
    assert len(_paths(page)) == 1 and len(remaining) == 1
    assert remaining[0]["pts"][0] < remaining[0]["pts"][2]  # the diagonal one survived


def test_layer_off_never_blocks_clicks(page):
    _on(page)
    link = _box(page, "#probe")
    centre = (link["x"] + link["w"] / 2, link["y"] + link["h"] / 2)
    page.mouse.click(*centre)  # drawing on: the click is a dot, not a navigation
    assert page.evaluate("location.hash") == ""
    assert len(_paths(page)) == 1
    page.keyboard.press("Escape")
    page.mouse.click(*centre)  # drawing off: the link under the dot works
    page.wait_for_function("location.hash === '#destino'")


def test_instant_navigation_reattaches_per_page(page, draw_site):
    page.evaluate("window.sameDocument = true")
    _on(page)
    _diagram_stroke(page)
    page.keyboard.press("Escape")
    page.locator(".md-content a", has_text="Otra página").click()
    _arrive(page, "/es/otra/", "Otra página")
    assert page.evaluate("window.sameDocument") is True  # Material swapped the content in place
    assert _paths(page) == []
    assert page.locator(".rc-draw-layer").count() == 1
    _on(page)
    page.locator(".md-content h1").scroll_into_view_if_needed()  # Material may keep the scroll
    box = _box(page, ".md-content h1")
    _stroke(page, [(box["x"], box["y"] + 10), (box["x"] + 120, box["y"] + 10)])
    assert sorted(_stored(page)) == ["/es/", "/es/otra/"]

    page.keyboard.press("Escape")
    page.locator(".md-content a", has_text="English").click()  # instant, across languages
    _arrive(page, "/en/", "Test page")
    assert page.locator(".rc-draw-toggle").get_attribute("title") == "Draw / Notes (Alt+Shift+D)"
    assert _paths(page) == []
    _on(page)
    assert page.get_by_role("toolbar", name="Drawing tools").is_visible()

    page.go_back()
    _arrive(page, "/es/otra/", "Otra página")
    assert len(_paths(page)) == 1
    assert page.get_by_role("toolbar", name="Herramientas de dibujo").is_visible()
    page.go_back()
    _arrive(page, "/es/", "Página de prueba")
    [box] = _paths(page)
    assert box["w"] == pytest.approx(220, abs=2)  # the diagram stroke, not the title one
    assert page.evaluate("window.sameDocument") is True


def test_export_png_downloads_the_annotated_view(page):
    _on(page)
    title = _box(page, ".md-content h1")
    top = round(title["y"] + title["h"])
    _stroke(page, [(title["x"], top), (title["x"] + 200, top)])  # ink underline of the title
    page.get_by_role("button", name="Verde").click()
    d = _diagram_stroke(page)
    with page.expect_download() as info:
        page.get_by_role("button", name="Exportar PNG").click()
    download = info.value
    assert download.suggested_filename == "rankcards-notes-es.png"
    png = Path(download.path()).read_bytes()
    download.save_as(RESULTS / "draw-export.png")
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", png[16:24])
    content = _box(page, ".md-content")
    # Region: the strokes' vertical span padded by 40 px, under a 56 px title band.
    assert width == round(content["w"])
    assert height == pytest.approx(56 + 40 + (round(d["y"] + 60) - top) + 40, abs=1)

    def at(x: float, y: float) -> tuple[int, int]:  # viewport point -> PNG pixel
        return round(x - content["x"]), round(y - top + 56 + 40)

    y = round(d["y"] + 60)
    heading_row = [at(title["x"] + i, title["y"] + title["h"] / 2) for i in range(0, 200, 2)]
    green, diagram, ink, *heading = _pixels(
        page,
        png,
        [at(d["x"] + 150, y), at(d["x"] + 150, y + 20), at(title["x"] + 100, top), *heading_row],
    )
    assert green[1] > 100 and green[0] < 90 and green[2] < 90
    assert diagram[:3] == [0x90, 0xCA, 0xF9]  # the inline SVG diagram is rasterised too
    assert max(ink[:3]) < 80  # the ink stroke
    assert min(min(px[:3]) for px in heading) < 160  # the title's text is drawn
    assert page.locator(".rc-draw-status").text_content() == "PNG exportado"


@pytest.mark.parametrize(
    ("scheme", "width"), [("default", 1200), ("slate", 1200), ("default", 390), ("slate", 390)]
)
def test_toolbar_fits_the_viewport_in_both_palettes(page, scheme, width):
    """Also keeps screenshots in test-results/draw/ for a person to look at."""
    page.set_viewport_size({"width": width, "height": 760})
    if scheme == "slate":
        page.evaluate("document.querySelector('[data-md-color-scheme=slate]').click()")
        page.wait_for_function("document.body.dataset.mdColorScheme === 'slate'")
    page.locator("#diagram").scroll_into_view_if_needed()
    _on(page)
    d = _box(page, "#diagram")
    page.get_by_role("button", name="Rojo").click()
    _stroke(
        page,
        [
            (d["x"] + 0.1 * d["w"], d["y"] + 0.3 * d["h"]),
            (d["x"] + 0.6 * d["w"], d["y"] + 0.7 * d["h"]),
        ],
    )
    page.get_by_role("button", name="Resaltador").click()
    p = _box(page, ".md-content p")
    _stroke(page, [(p["x"], p["y"] + 10), (p["x"] + 0.8 * p["w"], p["y"] + 10)])
    panel, toggle = _box(page, ".rc-draw-panel"), _box(page, ".rc-draw-toggle")
    assert panel["x"] >= 0 and panel["x"] + panel["w"] <= width
    assert panel["y"] + panel["h"] <= 760
    assert toggle["w"] > 0 and 0 <= toggle["x"] <= width - toggle["w"]
    page.screenshot(path=str(RESULTS / f"draw-{scheme}-{width}.png"))


def test_touch_draws_and_the_toolbar_is_keyboard_operable(page):
    page.keyboard.press("Alt+Shift+KeyD")
    focused = "() => document.activeElement.getAttribute('aria-label')"
    assert page.evaluate(focused) == "Lápiz"  # activation brings focus to the toolbar
    page.keyboard.press("ArrowRight")
    assert page.evaluate(focused) == "Resaltador"
    page.keyboard.press("Enter")
    assert page.get_by_role("button", name="Resaltador").get_attribute("aria-pressed") == "true"
    page.keyboard.press("End")
    assert page.evaluate(focused) == "Cerrar (Esc)"

    d = _box(page, "#diagram")
    cdp = page.context.new_cdp_session(page)
    y = d["y"] + 100
    for kind, x in [("touchStart", 60), ("touchMove", 120), ("touchMove", 200), ("touchEnd", 0)]:
        points = [] if kind == "touchEnd" else [{"x": d["x"] + x, "y": y}]
        cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})
    [stroke] = _stored(page)["/es/"]
    assert stroke["tool"] == "highlighter" and stroke["color"] == "yellow"
    assert stroke["pts"][-2] - stroke["pts"][0] == pytest.approx(140 / d["w"], abs=0.01)

    page.keyboard.press("Escape")
    assert page.evaluate(focused) == "Dibujar / Apuntes (Alt+Shift+D)"
    assert page.locator(".rc-draw-panel").is_hidden()


def test_bad_stored_notes_are_reported_in_one_line_and_skipped(page, draw_site):
    warnings: list[str] = []
    page.on("console", lambda msg: warnings.append(msg.text) if msg.type == "warning" else None)
    _on(page)
    _diagram_stroke(page)
    [good] = _stored(page)["/es/"]
    bad = {**good, "color": "purple"}
    page.evaluate(
        "([k, v]) => localStorage.setItem(k, v)",
        [PREFIX + "/es/", json.dumps({"v": 1, "strokes": [good, bad, "x"]})],
    )
    page.evaluate("([k]) => localStorage.setItem(k, '{not json')", [PREFIX + "/es/otra/"])
    page.reload()
    page.wait_for_selector(".rc-draw-layer .rc-draw-stroke", state="attached")
    assert len(_paths(page)) == 1
    page.locator(".md-content a", has_text="Otra página").click()
    _arrive(page, "/es/otra/", "Otra página")
    assert _paths(page) == []
    assert warnings == [
        'draw: rankcards.draw.v1:/es/: field "strokes": 2 invalid stroke(s) ignored',
        "draw: rankcards.draw.v1:/es/otra/: stored notes are not valid JSON; ignored",
    ]

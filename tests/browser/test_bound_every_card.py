"""Every example-bound demo in real Chromium: its first control, moved once from the card's
value, rewrites that control's literal in the example (one line, nothing else) and the example's
output changes without an error. `rankcards check` proves in CPython that each control moves a
number (viz/_teaches.py); this proves the page's binding (bound.js, bound_literals.js) works on
each card's own code. One language per card, alternating, each language in one tab going from
card to card by instant navigation, so the time grows by one page (not one boot) a card;
the cards in test_bound_demos.py's MOVES are moved there instead, with the text they must show."""

from __future__ import annotations

from typing import Any

import pytest
import yaml
from instant import visit_each
from test_bound_demos import DEMO, EXAMPLE, MOVES, _after_run, _code, _ready, _view

from rankcards.viz.bound import find_bindings, literal_text, rewrite
from repo_paths import CARDS

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]


def _bound_cards() -> list[tuple[str, str, dict[str, Any]]]:
    """(slug, language, first control) of every card whose demo is bound to its example and
    that MOVES leaves out."""
    found = []
    for path in sorted(CARDS.glob("*.yml")):
        card = yaml.safe_load(path.read_text(encoding="utf-8"))
        example = (card.get("demo") or {}).get("example")
        if example and path.stem not in MOVES:  # those: test_bound_demos.py, exact texts
            found.append((path.stem, "en" if len(found) % 2 == 0 else "es", example["controls"][0]))
    return found


BOUND = _bound_cards()


def _other_value(control: dict[str, Any], default: Any) -> Any:
    """A value of the control that is not the card's: the next step (or the previous one at the
    top), another option, the other state of a toggle."""
    if control["kind"] == "toggle":
        return not default
    if control["kind"] == "select":
        return next(o["value"] for o in control["options"] if o["value"] != default)
    step = control.get("step", 1)
    value = default + step if default + step <= control["max"] else default - step
    return round(value, 10) if isinstance(value, float) else value


_MOVE = """(e, v) => {
  if (e.type === 'checkbox') e.checked = v;
  else e.value = e.tagName === 'SELECT' ? JSON.stringify(v) : String(v);  // options hold JSON
  const kind = e.type === 'checkbox' || e.tagName === 'SELECT' ? 'change' : 'input';
  e.dispatchEvent(new Event(kind, {bubbles: true}));
}"""


def test_every_card_with_an_example_bound_demo_is_listed():
    """Each bound card is moved here or, with the text its output must show, in MOVES."""
    listed = {slug for slug, _, _ in BOUND} | set(MOVES)
    bound = {p.stem for p in CARDS.glob("*.yml") if "\n  example:\n" in p.read_text("utf-8")}
    assert len(bound) >= 20 and bound <= listed, bound - listed


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_first_control_rewrites_its_literal_and_moves_the_output(page, site_server, lang):
    """The cards of BOUND in ``lang``, one tab going from card to card by instant navigation
    (tests/browser/instant.py): one runtime boot for all of them."""
    controls = {slug: control for slug, card_lang, control in BOUND if card_lang == lang}
    for path in visit_each(page, site_server, [f"{lang}/{slug}/" for slug in controls]):
        slug = path.split("/")[1]
        _move_first_control(page, site_server, slug, controls[slug])


def _move_first_control(page: Any, site_server: str, slug: str, control: dict[str, Any]) -> None:
    _ready(page)
    original = _code(page, site_server)
    name = control["bind"]
    binding = find_bindings(original, [name])[0][name]
    value = _other_value(control, binding.value)
    built = _view(page)
    assert built["output"].strip(), slug

    field = page.locator(f'{DEMO} [data-rc-bind="{name}"]')
    _after_run(page, lambda: field.evaluate(_MOVE, value))
    code = _code(page, site_server)
    before, after = original.splitlines(), code.splitlines()
    assert len(after) == len(before), code
    changed = [i for i, (a, b) in enumerate(zip(before, after, strict=True)) if a != b]
    assert len(changed) == 1, (slug, changed)
    if control["kind"] != "select":  # a select may write its own literal for an option
        text = literal_text(value, binding.kind, binding.quote(original))
        assert code == rewrite(original, binding, text), slug
    moved = _view(page)
    assert moved != built, f"{slug}: moving {name} to {value!r} changed nothing on the page"
    assert "Traceback" not in moved["output"], moved["output"][-600:]
    assert page.locator(f"{EXAMPLE} [data-rc-output]").text_content().strip(), slug
    assert page.console_errors == [], slug

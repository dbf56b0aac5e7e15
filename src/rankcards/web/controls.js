// The generic controls of a demo (slider, toggle, select, ranked-lists), made live on top of the
// markup rendered statically by templates/partials/demo.html.jinja.
//
//   bindControls(section, dispatch)  listens to every control; each user change becomes a state
//                                     action ({type, path, ...}, see demo_state.js) passed to
//                                     dispatch(action, announcement)
//   syncControls(section, state)      makes every control show `state` (values, list order,
//                                     relevance marks) without rebuilding the markup
//
// Why mutate the existing nodes instead of re-rendering: the template is the single place that
// builds the controls' markup (texts, ids, ARIA), and keeping nodes keeps keyboard focus.
//
// A ranking is one tab stop (a roving tabindex on its current document): ←/→ (or ↑/↓) and
// Home/End move between its documents, Enter/Space changes the document's label, Alt+↑/↓ moves
// the document. Labels are 0..max_grade, plus "unjudged" (absent from the qrels) when the
// control allows it (data-rc-unjudged): a press goes 0 -> 1 -> ... -> max -> [unjudged ->] 0.

const format = (template, values) =>
  template.replace(/\{(\w+)\}/g, (_, key) => String(values[key] ?? ""));

const UNJUDGED = "unjudged";

function nextLabel(label, max, unjudged) {
  if (label === UNJUDGED) return 0;
  if (label < max) return label + 1;
  return unjudged ? UNJUDGED : 0;
}

/** A ranked list item's label in a state value: a grade, 0/1, or "unjudged". */
function labelOf(value, doc) {
  if ((value.unjudged ?? []).includes(doc)) return UNJUDGED;
  return value.grades ? (value.grades[doc] ?? 0) : Number(value.relevant.includes(doc));
}

/** "d3: grade 2", "d3: relevant", "d3: unjudged" in the page's language (data-t-* texts). */
function labelSaid(fieldset, doc, label) {
  const data = fieldset.dataset;
  if (label === UNJUDGED) return format(data.tUnjudged, { doc });
  if (Number(data.rcMaxGrade) > 1) return format(data.tGrade, { doc, grade: label });
  return format(label ? data.tRel : data.tNonrel, { doc });
}

function rankedListAction(fieldset, button, delta) {
  const item = button.closest(".rc-rl-item");
  const list = item.closest("[data-rc-list]");
  const bind = fieldset.dataset.rcBind;
  const index = Number(list.dataset.rcList);
  const doc = item.dataset.doc;
  if (delta !== 0) {
    const at = [...list.querySelectorAll(".rc-rl-item")].indexOf(item);
    const to = Math.max(0, Math.min(list.querySelectorAll(".rc-rl-item").length - 1, at + delta));
    const said = format(fieldset.dataset.tMoved, { doc, pos: to + 1 });
    return [{ type: "move", path: `${bind}.${index}.ranking`, index: at, delta }, said];
  }
  const max = Number(fieldset.dataset.rcMaxGrade);
  const unjudged = fieldset.dataset.rcUnjudged === "true";
  const current = item.dataset.grade === UNJUDGED ? UNJUDGED : Number(item.dataset.grade);
  const said = labelSaid(fieldset, doc, nextLabel(current, max, unjudged));
  return [{ type: "label", path: `${bind}.${index}`, item: doc, max, unjudged }, said];
}

function rove(list, button) {
  for (const other of list.querySelectorAll("[data-rc-doc]")) other.tabIndex = other === button ? 0 : -1;
}

const STEP = { ArrowLeft: -1, ArrowUp: -1, ArrowRight: 1, ArrowDown: 1 };

/** Moves the focus within the ranking for an arrow, Home or End key; false for other keys. */
function moveFocus(key, button) {
  const list = button.closest("[data-rc-list]");
  const buttons = [...list.querySelectorAll("[data-rc-doc]")];
  const at = buttons.indexOf(button);
  let to;
  if (key === "Home") to = 0;
  else if (key === "End") to = buttons.length - 1;
  else if (key in STEP) to = Math.max(0, Math.min(buttons.length - 1, at + STEP[key]));
  else return false;
  rove(list, buttons[to]);
  buttons[to].focus();
  return true;
}

function bindRankedLists(fieldset, dispatch) {
  fieldset.addEventListener("click", (event) => {
    const button = event.target.closest("button");
    if (!button || !fieldset.contains(button)) return;
    const delta = button.dataset.rcDelta ? Number(button.dataset.rcDelta) : 0;
    if (delta === 0 && !button.hasAttribute("data-rc-doc")) return;
    dispatch(...rankedListAction(fieldset, button, delta));
  });
  fieldset.addEventListener("focusin", (event) => {
    const button = event.target.closest("[data-rc-doc]");
    if (button) rove(button.closest("[data-rc-list]"), button);
  });
  fieldset.addEventListener("keydown", (event) => {
    const button = event.target.closest("[data-rc-doc]");
    if (!button || event.ctrlKey || event.metaKey || event.shiftKey) return;
    if (event.altKey) {
      if (event.key !== "ArrowUp" && event.key !== "ArrowDown") return;
      event.preventDefault();
      dispatch(...rankedListAction(fieldset, button, event.key === "ArrowUp" ? -1 : 1));
    } else if (moveFocus(event.key, button)) {
      event.preventDefault();
    }
  });
  let dragged = null;
  fieldset.addEventListener("dragstart", (event) => {
    dragged = event.target.closest(".rc-rl-item");
    if (!dragged) return;
    event.dataTransfer.effectAllowed = "move";
    event.dataTransfer.setData("text/plain", dragged.dataset.doc);
    dragged.classList.add("rc-rl-dragging");
  });
  fieldset.addEventListener("dragend", () => {
    dragged?.classList.remove("rc-rl-dragging");
    dragged = null;
  });
  fieldset.addEventListener("dragover", (event) => {
    const over = event.target.closest(".rc-rl-item");
    if (dragged && over && over.parentElement === dragged.parentElement) event.preventDefault();
  });
  fieldset.addEventListener("drop", (event) => {
    const over = event.target.closest(".rc-rl-item");
    if (!dragged || !over || over.parentElement !== dragged.parentElement) return;
    event.preventDefault();
    const items = [...over.parentElement.children];
    const delta = items.indexOf(over) - items.indexOf(dragged);
    if (delta !== 0) dispatch(...rankedListAction(fieldset, dragged.querySelector("[data-rc-doc]"), delta));
  });
}

export function bindControls(section, dispatch) {
  for (const control of section.querySelectorAll("[data-rc-kind]")) {
    const path = control.dataset.rcBind;
    switch (control.dataset.rcKind) {
      case "slider":
        control.addEventListener("input", () =>
          dispatch({ type: "set", path, value: Number(control.value) }, null),
        );
        break;
      case "toggle":
        control.addEventListener("change", () => dispatch({ type: "set", path, value: control.checked }, null));
        break;
      case "select":
        control.addEventListener("change", () =>
          dispatch({ type: "set", path, value: JSON.parse(control.value) }, null),
        );
        break;
      case "ranked-lists":
        bindRankedLists(control, dispatch);
        break;
      default:
        throw new Error(`unknown control kind ${control.dataset.rcKind}`);
    }
  }
}

function syncRankedLists(fieldset, lists) {
  const marked = Number(fieldset.dataset.rcMaxGrade) > 1 || fieldset.dataset.rcUnjudged === "true";
  for (const list of fieldset.querySelectorAll("[data-rc-list]")) {
    const value = lists[Number(list.dataset.rcList)];
    const ol = list.querySelector("ol");
    const byDoc = new Map([...ol.children].map((li) => [li.dataset.doc, li]));
    value.ranking.forEach((doc, position) => {
      const li = byDoc.get(doc);
      if (ol.children[position] !== li) ol.insertBefore(li, ol.children[position]);
      const label = labelOf(value, doc);
      if (li.dataset.grade === String(label)) return; // as shown: nothing to restyle
      li.dataset.grade = String(label);
      if (!marked) {
        li.querySelector("[data-rc-doc]").setAttribute("aria-pressed", label ? "true" : "false");
        return;
      }
      // The visually hidden words name the label (the button's name is its text); the mark
      // beside them shows it and is hidden from that name.
      li.querySelector(".rc-rl-words").textContent = labelSaid(fieldset, doc, label).slice(doc.length);
      li.querySelector(".rc-rl-grade").textContent = label === UNJUDGED ? "?" : String(label);
    });
  }
}

// A text node replaced by the same text is laid out again: only a new value is written.
function setText(node, text) {
  if (node.textContent !== text) node.textContent = text;
}

export function syncControls(section, state) {
  const focused = section.contains(document.activeElement) ? document.activeElement : null;
  for (const control of section.querySelectorAll("[data-rc-kind]")) {
    const value = state[control.dataset.rcBind];
    switch (control.dataset.rcKind) {
      case "slider":
        if (Number(control.value) !== value) control.value = String(value);
        setText(control.parentElement.querySelector("[data-rc-shown]"), String(value));
        break;
      case "toggle":
        control.checked = Boolean(value);
        break;
      case "select":
        for (const option of control.options) option.selected = JSON.parse(option.value) === value;
        break;
      case "ranked-lists":
        syncRankedLists(control, value);
        break;
      default:
        break;
    }
  }
  if (focused && focused.isConnected && document.activeElement !== focused) focused.focus();
}

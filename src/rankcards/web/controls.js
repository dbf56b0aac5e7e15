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

const format = (template, values) =>
  template.replace(/\{(\w+)\}/g, (_, key) => String(values[key] ?? ""));

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
  if (max > 1) {
    const grade = (Number(item.dataset.grade) + 1) % (max + 1);
    const said = format(fieldset.dataset.tGrade, { doc, grade });
    return [{ type: "cycle", path: `${bind}.${index}.grades`, item: doc, max }, said];
  }
  const said = format(item.dataset.grade === "1" ? fieldset.dataset.tNonrel : fieldset.dataset.tRel, { doc });
  return [{ type: "toggle", path: `${bind}.${index}.relevant`, item: doc }, said];
}

function bindRankedLists(fieldset, dispatch) {
  fieldset.addEventListener("click", (event) => {
    const button = event.target.closest("button");
    if (!button || !fieldset.contains(button)) return;
    const delta = button.dataset.rcDelta ? Number(button.dataset.rcDelta) : 0;
    if (delta === 0 && !button.hasAttribute("data-rc-doc")) return;
    dispatch(...rankedListAction(fieldset, button, delta));
  });
  fieldset.addEventListener("keydown", (event) => {
    const button = event.target.closest("[data-rc-doc]");
    if (!button || !event.altKey || (event.key !== "ArrowUp" && event.key !== "ArrowDown")) return;
    event.preventDefault();
    dispatch(...rankedListAction(fieldset, button, event.key === "ArrowUp" ? -1 : 1));
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
  const max = Number(fieldset.dataset.rcMaxGrade);
  for (const list of fieldset.querySelectorAll("[data-rc-list]")) {
    const value = lists[Number(list.dataset.rcList)];
    const ol = list.querySelector("ol");
    const byDoc = new Map([...ol.children].map((li) => [li.dataset.doc, li]));
    value.ranking.forEach((doc, position) => {
      const li = byDoc.get(doc);
      if (ol.children[position] !== li) ol.insertBefore(li, ol.children[position]);
      const grade = max > 1 ? (value.grades[doc] ?? 0) : Number(value.relevant.includes(doc));
      li.dataset.grade = String(grade);
      const button = li.querySelector("[data-rc-doc]");
      if (max > 1) {
        li.querySelector(".rc-rl-grade").textContent = String(grade); // also the button's name
      } else {
        button.setAttribute("aria-pressed", grade ? "true" : "false");
      }
    });
  }
}

export function syncControls(section, state) {
  const focused = section.contains(document.activeElement) ? document.activeElement : null;
  for (const control of section.querySelectorAll("[data-rc-kind]")) {
    const value = state[control.dataset.rcBind];
    switch (control.dataset.rcKind) {
      case "slider":
        if (Number(control.value) !== value) control.value = String(value);
        control.parentElement.querySelector("[data-rc-shown]").textContent = String(value);
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

// Draw / Notes layer: the header toggle and the floating toolbar (bilingual, keyboard-accessible).
//
// Built from DOM nodes only: labels come from the tables below, never from page or stored text.
// Icons are Material Design Icons path data (Apache-2.0), the set Material for MkDocs ships.

const _SVG_NS = "http://www.w3.org/2000/svg";
const _ICONS = {
  draw:
    "M9.75 20.85c1.78-.7 1.39-2.63.49-3.85-.89-1.25-2.12-2.11-3.36-2.94A9.8 9.8 0 0 1 4.54 12c-" +
    ".28-.33-.85-.94-.27-1.06.59-.12 1.61.46 2.13.68.91.38 1.81.82 2.65 1.34l1.01-1.7C8.5 10.23" +
    " 6.5 9.32 4.64 9.05c-1.06-.16-2.18.06-2.54 1.21-.32.99.19 1.99.77 2.77 1.37 1.83 3.5 2.71 " +
    "5.09 4.29.34.33.75.72.95 1.18.21.44.16.47-.31.47-1.24 0-2.79-.97-3.8-1.61l-1.01 1.7c1.53.9" +
    "4 4.09 2.41 5.96 1.79m11.09-15.6c.22-.22.22-.58 0-.79l-1.3-1.3a.56.56 0 0 0-.78 0l-1.02 1." +
    "02 2.08 2.08M11 10.92V13h2.08l6.15-6.15-2.08-2.08z",
  pen:
    "M20.71 7.04c.39-.39.39-1.04 0-1.41l-2.34-2.34c-.37-.39-1.02-.39-1.41 0l-1.84 1.83 3.75 3.7" +
    "5M3 17.25V21h3.75L17.81 9.93l-3.75-3.75z",
  highlighter:
    "M18.5 1.15c-.53 0-1.04.19-1.43.58l-5.81 5.82 5.65 5.65 5.82-5.81c.77-.78.77-2.04 0-2.83l-2" +
    ".84-2.83c-.39-.39-.89-.58-1.39-.58M10.3 8.5l-5.96 5.96c-.78.78-.78 2.04.02 2.85C3.14 18.54" +
    " 1.9 19.77.67 21h5.66l.86-.86c.78.76 2.03.75 2.81-.02l5.95-5.96",
  eraser:
    "m16.24 3.56 4.95 4.94c.78.79.78 2.05 0 2.84L12 20.53a4.01 4.01 0 0 1-5.66 0L2.81 17c-.78-." +
    "79-.78-2.05 0-2.84l10.6-10.6c.79-.78 2.05-.78 2.83 0M4.22 15.58l3.54 3.53c.78.79 2.04.79 2" +
    ".83 0l3.53-3.53-4.95-4.95z",
  undo:
    "M12.5 8c-2.65 0-5.05 1-6.9 2.6L2 7v9h9l-3.62-3.62c1.39-1.16 3.16-1.88 5.12-1.88 3.54 0 6.5" +
    "5 2.31 7.6 5.5l2.37-.78C21.08 11.03 17.15 8 12.5 8",
  redo:
    "M18.4 10.6C16.55 9 14.15 8 11.5 8c-4.65 0-8.58 3.03-9.96 7.22L3.9 16a8 8 0 0 1 7.6-5.5c1.9" +
    "5 0 3.73.72 5.12 1.88L13 16h9V7z",
  clear: "M6 19a2 2 0 0 0 2 2h8a2 2 0 0 0 2-2V7H6zM8 9h8v10H8zm7.5-5-1-1h-5l-1 1H5v2h14V4z",
  export: "M5 20h14v-2H5m14-9h-4V3H9v6H5l7 7z",
  close:
    "M19 6.41 17.59 5 12 10.59 6.41 5 5 6.41 10.59 12 5 17.59 6.41 19 12 13.41 17.59 19 19 17.5" +
    "9 13.41 12z",
};

export const SHORTCUT = "Alt+Shift+D";
const _LABELS = {
  es: {
    toggle: "Dibujar / Apuntes",
    toolbar: "Herramientas de dibujo",
    pen: "Lápiz",
    highlighter: "Resaltador",
    eraser: "Borrador",
    ink: "Tinta",
    red: "Rojo",
    blue: "Azul",
    green: "Verde",
    yellow: "Amarillo",
    undo: "Deshacer",
    redo: "Rehacer",
    clear: "Borrar todo",
    export: "Exportar PNG",
    close: "Cerrar (Esc)",
    on: "Modo dibujo activado: dibuja sobre la página",
    off: "Modo dibujo desactivado",
    cleared: "Apuntes borrados (Deshacer los recupera)",
    exported: "PNG exportado",
  },
  en: {
    toggle: "Draw / Notes",
    toolbar: "Drawing tools",
    pen: "Pen",
    highlighter: "Highlighter",
    eraser: "Eraser",
    ink: "Ink",
    red: "Red",
    blue: "Blue",
    green: "Green",
    yellow: "Yellow",
    undo: "Undo",
    redo: "Redo",
    clear: "Clear all",
    export: "Export PNG",
    close: "Close (Esc)",
    on: "Drawing mode on: draw over the page",
    off: "Drawing mode off",
    cleared: "Notes cleared (Undo brings them back)",
    exported: "PNG exported",
  },
};

function _icon(name) {
  const svg = document.createElementNS(_SVG_NS, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("aria-hidden", "true");
  const path = document.createElementNS(_SVG_NS, "path");
  path.setAttribute("d", _ICONS[name]);
  svg.append(path);
  return svg;
}

function _button(className, key, content) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = className;
  button.dataset.drawKey = key;
  button.append(content);
  return button;
}

function _label(button, text) {
  button.setAttribute("aria-label", text);
  button.title = text;
}

/**
 * Build the header toggle and the toolbar. `on` maps actions ("toggle", "tool", "color", "undo",
 * "redo", "clear", "export", "close") to callbacks; tool and color callbacks get the chosen id.
 */
export function createToolbar(tools, colors, on) {
  let labels = _LABELS.en;
  const toggle = _button("md-header__button md-icon rc-draw-toggle", "toggle", _icon("draw"));
  toggle.setAttribute("aria-pressed", "false");
  toggle.addEventListener("click", () => on.toggle());

  const panel = document.createElement("div");
  panel.className = "rc-draw-panel";
  panel.hidden = true;
  const bar = document.createElement("div");
  bar.className = "rc-draw-toolbar";
  bar.setAttribute("role", "toolbar");
  const status = document.createElement("p");
  status.className = "rc-draw-status";
  status.setAttribute("role", "status");
  panel.append(bar, status);

  const group = (...buttons) => {
    const div = document.createElement("div");
    div.className = "rc-draw-group";
    div.append(...buttons);
    return div;
  };
  const toolButtons = tools.map((t) => {
    const b = _button("rc-draw-button rc-draw-tool", t, _icon(t));
    b.addEventListener("click", () => on.tool(t));
    return b;
  });
  const colorButtons = colors.map((c) => {
    const swatch = document.createElement("span");
    swatch.className = `rc-draw-swatch rc-draw-c-${c}`;
    const b = _button("rc-draw-button rc-draw-color", c, swatch);
    b.addEventListener("click", () => on.color(c));
    return b;
  });
  const action = (key) => {
    const b = _button("rc-draw-button", key, _icon(key));
    b.addEventListener("click", () => on[key]());
    return b;
  };
  const [undo, redo, clear, exportButton, close] = ["undo", "redo", "clear", "export", "close"].map(
    action,
  );
  bar.append(
    group(...toolButtons),
    group(...colorButtons),
    group(undo, redo, clear, exportButton),
    group(close),
  );

  // One tab stop for the whole toolbar; arrows, Home and End move inside it (WAI-ARIA toolbar).
  const items = () => [...bar.querySelectorAll("button")];
  let current = toolButtons[0];
  const rove = (target) => {
    for (const b of items()) b.tabIndex = b === target ? 0 : -1;
    current = target;
  };
  bar.addEventListener("focusin", (e) => {
    if (e.target instanceof HTMLButtonElement) rove(e.target);
  });
  bar.addEventListener("keydown", (e) => {
    const list = items().filter((b) => !b.disabled);
    const i = list.indexOf(current);
    const next = { ArrowRight: i + 1, ArrowDown: i + 1, ArrowLeft: i - 1, ArrowUp: i - 1 }[e.key];
    const to =
      e.key === "Home" ? 0 : e.key === "End" ? list.length - 1 : next === undefined ? null : next;
    if (to === null) return;
    e.preventDefault();
    list[(to + list.length) % list.length].focus();
  });
  rove(current);

  const pressed = (buttons, key) => {
    for (const b of buttons) b.setAttribute("aria-pressed", String(b.dataset.drawKey === key));
  };

  return {
    toggle,
    panel,
    setLang(lang) {
      labels = _LABELS[lang] || _LABELS.en;
      _label(toggle, `${labels.toggle} (${SHORTCUT})`);
      bar.setAttribute("aria-label", labels.toolbar);
      for (const b of items()) _label(b, labels[b.dataset.drawKey]);
    },
    setActive(active) {
      toggle.setAttribute("aria-pressed", String(active));
      panel.hidden = !active;
      status.textContent = active ? labels.on : "";
    },
    setTool: (tool) => pressed(toolButtons, tool),
    setColor: (color) => pressed(colorButtons, color),
    setHistory({ canUndo, canRedo, count }) {
      undo.disabled = !canUndo;
      redo.disabled = !canRedo;
      clear.disabled = count === 0;
      if (current.disabled) rove(toolButtons[0]);
    },
    /** Announce a message: a label key ("cleared") or an already-written line (an error). */
    say(keyOrText) {
      status.textContent = labels[keyOrText] || keyOrText;
    },
    focus: () => current.focus({ preventScroll: true }),
  };
}

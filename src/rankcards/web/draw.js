// Draw / Notes layer ("Dibujar / Apuntes"): lets a reader annotate a page with pen, highlighter
// and eraser; notes are kept per page and language in localStorage.
//
// This entry module wires the parts together and follows Material's instant navigation: the
// header (where the toggle lives) survives a navigation, the content box does not, so on every
// new document the layer re-attaches to the new `.md-content` and loads that page's notes.
// Off by default; while off the overlay has `pointer-events: none` and never blocks the page.
// Native ES module, no globals, no dependencies. State changes are announced on `document` as
// a `rankcards:draw` CustomEvent with detail {active, path, strokes}.

import { createLayer } from "./draw_layer.js";
import {
  COLORS,
  TOOLS,
  createDocument,
  loadStrokes,
  saveStrokes,
  storageKey,
} from "./draw_store.js";
import { createToolbar } from "./draw_toolbar.js";
import { eachPage } from "./pages.js";

const _CONTENT = ".md-content";

/** localStorage, or an in-memory stand-in when the browser refuses storage (privacy modes). */
function _storage() {
  try {
    const s = window.localStorage;
    s.getItem("rankcards.draw.probe");
    return s;
  } catch {
    const map = new Map();
    return {
      getItem: (k) => (map.has(k) ? map.get(k) : null),
      setItem: (k, v) => map.set(k, String(v)),
      removeItem: (k) => map.delete(k),
    };
  }
}

/** The page language: its /es/ or /en/ path segment (instant navigation keeps <html lang>). */
function _lang() {
  const segments = location.pathname.split("/");
  if (segments.includes("es")) return "es";
  if (segments.includes("en")) return "en";
  return document.documentElement.lang.toLowerCase().startsWith("es") ? "es" : "en";
}

function _editable(target) {
  return (
    target instanceof Element &&
    (target.isContentEditable ||
      target.closest("input, textarea, select, [contenteditable]") !== null)
  );
}

function _start() {
  const storage = _storage();
  let active = false;
  let tool = "pen";
  let color = "ink";
  let page = null; // {root, path, doc, layer}

  const toolbar = createToolbar(TOOLS, COLORS, {
    toggle: () => setActive(!active),
    close: () => {
      setActive(false);
      toolbar.toggle.focus();
    },
    tool: (t) => {
      tool = t;
      if (t === "highlighter" && color === "ink") setColor("yellow");
      toolbar.setTool(t);
    },
    color: (c) => setColor(c),
    undo: () => change((doc) => doc.undo()),
    redo: () => change((doc) => doc.redo()),
    clear: () => {
      change((doc) => doc.clear());
      toolbar.say("cleared");
    },
    export: () => exportPng(),
  });

  function setColor(c) {
    color = c;
    toolbar.setColor(c);
  }

  function announce() {
    toolbar.setHistory({
      canUndo: page ? page.doc.canUndo() : false,
      canRedo: page ? page.doc.canRedo() : false,
      count: page ? page.doc.strokes.length : 0,
    });
    const detail = { active, path: page?.path ?? null, strokes: page?.doc.strokes.length ?? 0 };
    document.dispatchEvent(new CustomEvent("rankcards:draw", { detail }));
  }

  function setActive(on) {
    const wasActive = active;
    active = on && page !== null;
    page?.layer.setActive(active);
    toolbar.setActive(active);
    // The panel sits at the end of <body>: bring keyboard users to it instead of after the page.
    if (active && !wasActive) toolbar.focus();
    announce();
  }

  /** Apply one edit to the current page, then repaint, save and update the buttons. */
  function change(edit) {
    if (!page) return;
    edit(page.doc);
    page.layer.render(page.doc.strokes);
    const error = saveStrokes(storage, page.path, page.doc.strokes);
    if (error) {
      console.warn(error);
      toolbar.say(error);
    }
    announce();
  }

  function load(root, path) {
    const { strokes, error } = loadStrokes(storage, path);
    if (error) console.warn(error);
    const doc = createDocument(strokes);
    const layer = createLayer(root, {
      style: () => ({ tool, color }),
      commit: (stroke) => change((d) => d.add(stroke)),
      erase: (indices) => change((d) => d.remove(indices)),
    });
    page = { root, path, doc, layer };
    layer.render(doc.strokes);
  }

  /** (Re-)attach to the current document's content box; a no-op when nothing changed. */
  function attach() {
    const root = document.querySelector(_CONTENT);
    const path = location.pathname;
    if (page && page.root === root && page.path === path && root.contains(page.layer.svg)) return;
    page?.layer.destroy();
    page = null;
    if (root) load(root, path);
    toolbar.setLang(_lang());
    setActive(active);
  }

  async function exportPng() {
    if (!page) return;
    const title = page.root.querySelector("h1")?.textContent.trim() || document.title;
    const slug = page.path.split("/").filter(Boolean).join("-") || "home";
    try {
      const { renderPng, download } = await import("./draw_export.js"); // on the first export
      download(await renderPng(page.root, page.layer.svg, title), `rankcards-notes-${slug}.png`);
      toolbar.say("exported");
    } catch (err) {
      const message = `draw: export PNG failed (${err.message})`;
      console.error(message);
      toolbar.say(message);
    }
  }

  function onKey(e) {
    if (e.code === "KeyD" && e.altKey && e.shiftKey && !e.ctrlKey && !e.metaKey) {
      e.preventDefault();
      setActive(!active);
      return;
    }
    if (!active || e.defaultPrevented || _editable(e.target)) return;
    const mod = e.ctrlKey || e.metaKey;
    if (e.key === "Escape") {
      const hadFocus = toolbar.panel.contains(document.activeElement);
      setActive(false);
      if (hadFocus) toolbar.toggle.focus();
    } else if (mod && !e.altKey && (e.code === "KeyZ" || e.code === "KeyY")) {
      e.preventDefault();
      change((doc) => (e.code === "KeyY" || e.shiftKey ? doc.redo() : doc.undo()));
    }
  }

  const header = document.querySelector(".md-header__inner");
  if (header) {
    const before = header.querySelector("label[for='__search'], .md-header__source");
    header.insertBefore(toolbar.toggle, before);
  } else {
    toolbar.toggle.classList.add("rc-draw-toggle--floating");
    document.body.append(toolbar.toggle);
  }
  document.body.append(toolbar.panel);
  toolbar.setTool(tool);
  toolbar.setColor(color);
  document.addEventListener("keydown", onKey);
  window.addEventListener("storage", (e) => {
    if (page && e.key === storageKey(page.path)) {
      page.layer.destroy();
      load(page.root, page.path);
      setActive(active);
    }
  });
  document.fonts?.ready.then(() => page?.layer.layout());

  eachPage(attach);
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", _start, { once: true });
else _start();

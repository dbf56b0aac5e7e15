// Runnable, editable code examples: turns each build-time rendered `[data-rc-example]` block
// (templates/partials/example.html.jinja: the source in a <pre><code>, its build-time output in
// the output <pre>) into a CodeMirror editor with Run / Stop / Reset / Copy.
//
// Why enhance instead of render: without JavaScript (or while Pyodide loads, or when it fails)
// the page already shows the code and the exact output the build captured with the same runner;
// the editor only adds the ability to change and re-run it. Output is written with text nodes,
// never as HTML. Keys: Ctrl/Cmd+Enter runs; Esc then Tab leaves the editor (CodeMirror's
// tab-focus escape); the buttons' names follow the page language (<html lang="es">).
//
// Why CodeMirror is imported late: the buttons work on the static code at once, and the editor
// (codemirror.js, ~120 KB compressed) replaces the code block when the runtime is ready and the
// page's demos have their first views, or at once when the reader points at, focuses or clicks
// the code: so the first visit downloads Python before the editor, and parsing the editor
// competes neither with the runtime's boot nor with the demos' first values.
//
// Figures (a value with `_repr_svg_`, see rankcards.runner) go below the output, in
// `[data-rc-figures]`, each only once svg_sanitize.js has rebuilt it from its allow-list: the
// code that ran may be someone else's (a shared link).
//
// An edit is kept per card and language and restored on reload, and a shared link may bring
// code (put in the editor, never run): see example_keep.js.
import { bootWhenNear, runtime } from "./runtime.js";
import { eachPage } from "./pages.js";
import { watchStatus } from "./status.js";
import { keepExample } from "./example_keep.js";

const TEXT = {
  en: {
    run: "Run",
    stop: "Stop",
    reset: "Reset",
    copy: "Copy",
    copied: "Copied",
    editor: "Python code, editable. Ctrl+Enter runs it.",
    output: "Output",
    stopped: "Stopped.",
    timeout: (s) => `Stopped: the run exceeded the ${s} s time limit.`,
    crashed: "The Python runtime crashed (out of memory?); it has been restarted.",
    badFigure: "(a figure was not shown: it is not SVG this page accepts)",
    badTable: "(a table was not shown: it is not an HTML table this page accepts)",
  },
  es: {
    run: "Ejecutar",
    stop: "Detener",
    reset: "Restablecer",
    copy: "Copiar",
    copied: "Copiado",
    editor: "Código Python editable. Ctrl+Enter lo ejecuta.",
    output: "Salida",
    stopped: "Detenido.",
    timeout: (s) => `Detenido: la ejecución superó el límite de ${s} s.`,
    crashed: "El entorno de Python falló (¿sin memoria?); se ha reiniciado.",
    badFigure: "(no se muestra una figura: no es un SVG que esta página acepte)",
    badTable: "(no se muestra una tabla: no es una tabla HTML que esta página acepte)",
  },
};
export const TIME_LIMIT_MS = 10_000; // a run's limit; exercise.js's checks share it
// A bound control's newer change stops a run in flight that has taken this long already.
const SUPERSEDE_AFTER_MS = 1_000;

let editorKit = null; // the CodeMirror module plus our theme, loaded once per tab

// Lets the page handle input between the kit's steps: evaluating CodeMirror, building the
// theme and mounting each took 50-80 ms, one long task together.
const yieldToPage = () =>
  globalThis.scheduler?.yield ? scheduler.yield() : new Promise((resolve) => setTimeout(resolve));

// Material's palette variables, so the editor follows light/dark (slate) like code blocks do.
export function loadEditorKit() {
  editorKit ??= import("./codemirror.js").then(async (cm) => {
    await yieldToPage();
    const { EditorView, HighlightStyle, tags } = cm;
    const highlight = HighlightStyle.define([
      { tag: tags.keyword, color: "var(--md-code-hl-keyword-color)" },
      { tag: [tags.string, tags.special(tags.string)], color: "var(--md-code-hl-string-color)" },
      { tag: [tags.number, tags.bool, tags.null], color: "var(--md-code-hl-number-color)" },
      { tag: tags.comment, color: "var(--md-code-hl-comment-color)", fontStyle: "italic" },
      {
        tag: [tags.function(tags.variableName), tags.function(tags.propertyName)],
        color: "var(--md-code-hl-function-color)",
      },
      { tag: [tags.operator, tags.punctuation], color: "var(--md-code-hl-punctuation-color)" },
      {
        tag: [tags.className, tags.definition(tags.variableName)],
        color: "var(--md-code-hl-name-color)",
      },
    ]);
    const theme = EditorView.theme({
      "&": { color: "var(--md-code-fg-color)", backgroundColor: "var(--md-code-bg-color)" },
      ".cm-content": {
        caretColor: "var(--md-code-fg-color)",
        fontFamily: "var(--md-code-font-family)",
      },
      ".cm-gutters": {
        backgroundColor: "var(--md-code-bg-color)",
        color: "var(--md-code-hl-comment-color)",
        border: "none",
      },
      // A bar, not a tint: Material's token colours are only just 4.5:1 on the code background.
      ".cm-activeLine": {
        backgroundColor: "transparent",
        boxShadow: "inset 0.15rem 0 0 var(--md-default-fg-color--lighter)",
      },
      "&.cm-focused": { outline: "2px solid var(--md-accent-fg-color)" },
    });
    const kit = { cm, extensions: [cm.syntaxHighlighting(highlight), theme] };
    await yieldToPage();
    return kit;
  });
  return editorKit;
}

// How to leave the editor (Tab indents inside it), shown under it while it has focus
// (runtime.css) and given as its accessible description.
const LEAVE_HINT = { en: "Esc, then Tab: leave the editor", es: "Esc y luego Tab: salir del editor" };
let hints = 0;

// The editor factory, shared with exercise.js: `run` is called on Ctrl/Cmd+Enter, `onEdit`
// (optional) with each CodeMirror update that changed the document.
export function mountEditor(kit, parent, doc, label, run, onEdit = null) {
  const { cm, extensions } = kit;
  const hint = document.createElement("p");
  hint.className = "rc-editor-hint";
  hint.id = `rc-editor-hint-${(hints += 1)}`;
  hint.textContent = LEAVE_HINT[parent.closest("[data-lang]")?.dataset.lang === "es" ? "es" : "en"];
  const view = new cm.EditorView({
    parent,
    state: cm.EditorState.create({
      doc,
      extensions: [
        cm.lineNumbers(),
        cm.history(),
        cm.drawSelection(),
        cm.indentOnInput(),
        cm.bracketMatching(),
        cm.highlightActiveLine(),
        cm.python(),
        ...extensions,
        cm.Prec.highest(cm.keymap.of([{ key: "Mod-Enter", run }])),
        cm.keymap.of([...cm.defaultKeymap, ...cm.historyKeymap, cm.indentWithTab]),
        // tabindex: the editable content is focusable anyway; saying so lets checkers (axe's
        // scrollable-region-focusable) see that the scroller of a wide line is reachable.
        cm.EditorView.contentAttributes.of({ "aria-label": label, "aria-describedby": hint.id, tabindex: "0" }),
        ...(onEdit
          ? [
              cm.EditorView.updateListener.of((update) => {
                if (update.docChanged) onEdit(update);
              }),
            ]
          : []),
      ],
    }),
  });
  parent.append(hint);
  return view;
}

function language() {
  const lang = (document.documentElement.lang || "en").slice(0, 2);
  return TEXT[lang] ? lang : "en";
}

function button(name, onClick) {
  const element = document.createElement("button");
  element.type = "button";
  element.className = `rc-example__button md-button rc-example__button--${name}`;
  element.addEventListener("click", onClick);
  return element;
}

function enhance(block) {
  if (examples.has(block)) return examples.get(block);
  block.dataset.rcEnhanced = "true";
  const lang = block.dataset.lang in TEXT ? block.dataset.lang : language();
  const text = TEXT[lang];
  const sourceBlock = block.querySelector("[data-rc-source]");
  const output = block.querySelector("[data-rc-output]");
  const figures = block.querySelector("[data-rc-figures]");
  const tables = block.querySelector("[data-rc-tables]");
  const original = sourceBlock.textContent;
  // The build's output, figures and tables: what Reset shows again with the original code.
  const firstView = [output, figures, tables].map((node) => node && [...node.childNodes].map((child) => child.cloneNode(true)));

  let view = null; // the CodeMirror view once mounted; until then the static code is the source
  let current = original; // the code before the editor is mounted
  const source = () => (view ? view.state.doc.toString() : current);
  const quiet = "rc-not-an-edit"; // userEvent of changes made by the page, not the reader
  const bound = "rc-bound"; // userEvent of a bound control's rewrite: an edit, made by the page
  // Every change of the code is announced on the block (bound.js listens): `cause` is "edit"
  // (the reader typed), "bound" (a control rewrote a literal), "reset", "kept" or "shared".
  const announce = (cause) =>
    block.dispatchEvent(new CustomEvent("rankcards:source", { detail: { source: source(), cause } }));
  const setSource = (text, cause = "kept") => {
    current = text;
    sourceBlock.querySelector("code").textContent = text;
    if (view) {
      view.dom.style.minHeight = ""; // the static block's height was the old code's
      view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text }, userEvent: quiet });
    }
    announce(cause);
  };
  const keep = keepExample(block, lang, original, setSource);
  const upgrade = () => {
    if (block.dataset.rcEditor) return;
    block.dataset.rcEditor = "loading";
    loadEditorKit().then((kit) => {
      const parent = block.querySelector("[data-rc-editor]");
      const focused = sourceBlock.contains(document.activeElement);
      const height = sourceBlock.getBoundingClientRect().height;
      const onEdit = (update) => {
        if (update.transactions.some((tr) => tr.isUserEvent(quiet))) return;
        keep.changed(update.state.doc.toString());
        if (!update.transactions.some((tr) => tr.isUserEvent(bound))) announce("edit");
      };
      view = mountEditor(kit, parent, current, text.editor, () => {
        execute();
        return true;
      }, onEdit);
      // Same place, same height: the CSS gives the editor the static block's line box, but
      // CodeMirror only estimates the lines it has not drawn yet (off screen), so it holds the
      // block's height until the reader first types.
      view.dom.style.minHeight = `${height}px`;
      view.dom.addEventListener("input", () => (view.dom.style.minHeight = ""), { once: true });
      sourceBlock.hidden = true;
      block.dataset.rcEditor = "ready";
      if (focused) view.focus();
    });
  };
  sourceBlock.tabIndex = 0; // focusable, so keyboard readers can reach and upgrade it
  for (const event of ["pointerenter", "focusin", "pointerdown"]) {
    sourceBlock.addEventListener(event, upgrade, { once: true });
  }
  const whenReady = () => {
    if (runtime.state !== "ready" || !block.isConnected) return;
    window.removeEventListener("rankcards:runtime", whenReady);
    // After the demos' first views: parsing the editor takes the main thread for 100-250 ms.
    (window.requestIdleCallback ?? setTimeout)(() => runtime.idle().then(upgrade));
  };
  window.addEventListener("rankcards:runtime", whenReady);
  whenReady();

  const toolbar = block.querySelector("[data-rc-toolbar]");
  const runButton = button("run", () => execute());
  const stopButton = button("stop", () => {
    again = false; // the reader's Stop ends what was waiting too
    superseding = false;
    stopped = true;
    runtime.stop();
  });
  const resetButton = button("reset", () => {
    sink?.drop(); // a run in flight ran other code
    again = false;
    setSource(original, "reset");
    keep.reset();
    [output, figures, tables].forEach((node, i) => node?.replaceChildren(...firstView[i].map((child) => child.cloneNode(true))));
    output.closest("pre")?.classList.toggle("rc-example__output--error", Boolean(block.dataset.rcBuiltError));
    reachScrollingTables(tables);
  });
  const shareButton = button("share", () => keep.share(source()));
  const copyButton = button("copy", async () => {
    await navigator.clipboard?.writeText(source());
    copyButton.textContent = text.copied;
    setTimeout(() => (copyButton.textContent = text.copy), 1500);
  });
  for (const [element, name] of [
    [runButton, text.run],
    [stopButton, text.stop],
    [resetButton, text.reset],
    [copyButton, text.copy],
    [shareButton, keep.shareLabel],
  ]) {
    element.textContent = name;
    toolbar.append(element);
  }
  toolbar.append(keep.mark);
  stopButton.disabled = true;
  toolbar.hidden = false;
  watchStatus(block.querySelector("[data-rc-status]"), lang);
  if (output.closest("pre")?.classList.contains("rc-example__output--error")) block.dataset.rcBuiltError = "true";
  reachScrollingTables(tables);

  // What a run writes: into the page as it comes (Run), or into detached nodes that replace the
  // page's at the end (a control's run: the old output stays until the new one is whole, and a
  // superseded run never shows). `drop()` sends the rest of a run nowhere (Reset put the card's
  // first view back, which a run of other code must not write over).
  const detached = () => ({
    output: document.createDocumentFragment(),
    figures: document.createDocumentFragment(),
    tables: document.createDocumentFragment(),
  });
  let sink = null; // the run in flight's
  const target = (live) => {
    const target = {
      into: live ? { output, figures, tables } : detached(),
      dropped: false,
      drop() {
        target.into = detached();
        target.dropped = true;
      },
      write(chunk, stream) {
        const span = document.createElement("span");
        span.className = `rc-example__${stream}`;
        span.textContent = chunk;
        target.into.output.append(span);
      },
      onStdout: (chunk) => target.write(chunk, "stdout"),
      onStderr: (chunk) => target.write(chunk, "stderr"),
      onFigure: (markup) => {
        const figure = sanitizers.figureElement(markup);
        if (figure) target.into.figures?.append(figure);
        else target.write(`${text.badFigure}\n`, "notice");
      },
      onTable: (markup) => {
        const table = sanitizers.tableElement(markup);
        if (table) target.into.tables?.append(table);
        else target.write(`${text.badTable}\n`, "notice");
      },
    };
    return target;
  };

  // One run at a time. `latest` (a bound control's run) never waits in a queue: a run asked for
  // while one is in flight marks that one superseded (its output is dropped, never shown) and
  // the newest code runs as soon as it ends; one that has run SUPERSEDE_AFTER_MS already is
  // stopped for it (runtime.stop: an interrupt, or a fresh worker). A reader's Stop ends the
  // run and what was waiting, also while the worker is starting again (nothing is sent then);
  // a run over the time limit (or a crash) shows its notice and the newest code still runs.
  let running = false;
  let again = false;
  let superseding = false;
  let stopped = false; // the reader pressed Stop during this execute()
  let startedAt = 0;
  let supersedeTimer = null;
  const supersede = () => {
    if (!running || !again || superseding) return;
    superseding = true;
    runtime.stop();
  };
  const finish = () => {
    sink = null;
    running = false;
    runButton.disabled = false;
    stopButton.disabled = true;
    delete block.dataset.rcRunning;
  };
  async function execute({ latest = false } = {}) {
    if (running) {
      if (!latest) return;
      again = true;
      clearTimeout(supersedeTimer);
      supersedeTimer = setTimeout(supersede, Math.max(0, SUPERSEDE_AFTER_MS - (performance.now() - startedAt)));
      return;
    }
    running = true;
    stopped = false;
    runButton.disabled = true;
    stopButton.disabled = false;
    block.dataset.rcRunning = "true";
    let live = !latest;
    do {
      again = false;
      superseding = false;
      try {
        await runtime.ensure(); // a Stop or a supersede may have restarted the worker
        await loadSanitizers(); // onFigure and onTable place what the run sends at once
      } catch {
        break; // the status line shows the error and its Retry button
      }
      const code = source();
      sink = target(live);
      if (stopped) {
        sink.write(`${text.stopped}\n`, "notice"); // stopped before the run was sent
        if (!live) output.replaceChildren(sink.into.output);
        // announced as any stopped run, so that listeners see every run that ends
        block.dispatchEvent(new CustomEvent("rankcards:run", { detail: { source: code, reason: "stopped", ms: 0 } }));
        break;
      }
      if (live) {
        output.textContent = "";
        figures?.replaceChildren();
        tables?.replaceChildren();
      }
      startedAt = performance.now();
      const result = await runtime.run(code, { ...sink, timeout: TIME_LIMIT_MS });
      clearTimeout(supersedeTimer);
      if (superseding || (again && !result.reason)) {
        live = false;
        continue; // superseded: the newer code runs now, and only its output is shown
      }
      if (sink.dropped) continue; // a Reset came during the run: the first view stays
      if (result.reason === "stopped") sink.write(`${text.stopped}\n`, "notice");
      if (result.reason === "timeout") sink.write(`${text.timeout(TIME_LIMIT_MS / 1000)}\n`, "notice");
      if (result.reason === "crashed") sink.write(`${text.crashed}\n`, "notice");
      if (!live) {
        output.replaceChildren(sink.into.output);
        figures?.replaceChildren(sink.into.figures);
        tables?.replaceChildren(sink.into.tables);
      }
      output.closest("pre")?.classList.toggle("rc-example__output--error", Boolean(result.error));
      reachScrollingTables(tables);
      block.dataset.rcLive = "true";
      block.dispatchEvent(
        new CustomEvent("rankcards:run", { detail: { source: code, reason: result.reason, ms: performance.now() - startedAt } }),
      );
      live = false;
    } while (again);
    finish();
  }

  bootWhenNear(block); // the first Run or Check does not wait for Python

  const api = {
    original,
    source,
    /** Replace [from, to) of the code with `text` (a bound control's rewrite): kept as an edit,
     *  announced with cause "bound". */
    replace(from, to, text) {
      if (view) {
        view.dispatch({ changes: { from, to, insert: text }, userEvent: bound });
      } else {
        current = current.slice(0, from) + text + current.slice(to);
        sourceBlock.querySelector("code").textContent = current;
        keep.changed(current);
      }
      announce("bound");
    },
    /** Run the code as it is now; the last call wins (see execute). */
    runLatest: () => execute({ latest: true }),
    /** Whether the code came from a shared link (shown, never run by the page). */
    get fromLink() {
      return keep.fromLink;
    },
  };
  examples.set(block, api);
  return api;
}

// A table wider than its box scrolls sideways (the .rc-table style): a keyboard reader must be
// able to reach it, so one that overflows becomes a tab stop (axe's scrollable-region-focusable).
// Checked from a ResizeObserver, which reports each table once laid out and when its box
// changes: reading its widths right after a run's output would lay the page out at once.
function reachScrollingTable(table) {
  if (table.scrollWidth > table.clientWidth + 1) table.tabIndex = 0;
  else table.removeAttribute("tabindex");
}
const tableSizes =
  "ResizeObserver" in globalThis
    ? new ResizeObserver((entries) => {
        for (const entry of entries) {
          if (entry.target.isConnected) reachScrollingTable(entry.target);
          else tableSizes.unobserve(entry.target);
        }
      })
    : null;
function reachScrollingTables(holder) {
  for (const table of holder?.querySelectorAll("table.rc-table") ?? []) {
    if (tableSizes) tableSizes.observe(table);
    else reachScrollingTable(table);
  }
}

const examples = new WeakMap();

// The sanitizers of a run's figures and tables, loaded with the first run (no card page needs
// them before its runtime): {figureElement, tableElement} once loadSanitizers() has resolved.
let sanitizers = null;
let sanitizersLoading = null;
export function loadSanitizers() {
  sanitizersLoading ??= Promise.all([import("./svg_sanitize.js"), import("./table_sanitize.js")]).then(
    async ([svg, table]) => {
      await svg.figuresReady(); // a page that shows figures has DOMPurify before the run's arrive
      sanitizers = { figureElement: svg.figureElement, tableElement: table.tableElement };
      return sanitizers;
    },
  );
  return sanitizersLoading;
}

/** The live example behind a `[data-rc-example]` block (enhancing it first): {original,
 *  source(), replace(from, to, text), runLatest(), fromLink}; bound.js drives it. */
export const exampleOf = (block) => enhance(block);

function scan() {
  for (const block of document.querySelectorAll("[data-rc-example]")) enhance(block);
}

// Material's instant navigation swaps the page without reloading this module: rescan on each
// page it announces through `document$`; the runtime (and its worker) stays as it is.
eachPage(scan);

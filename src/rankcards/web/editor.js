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
import { watchStatus } from "./status.js";
import { figureElement } from "./svg_sanitize.js";
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
  },
};
export const TIME_LIMIT_MS = 10_000; // a run's limit; exercise.js's checks share it

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
  if (block.dataset.rcEnhanced) return;
  block.dataset.rcEnhanced = "true";
  const lang = block.dataset.lang in TEXT ? block.dataset.lang : language();
  const text = TEXT[lang];
  const sourceBlock = block.querySelector("[data-rc-source]");
  const output = block.querySelector("[data-rc-output]");
  const figures = block.querySelector("[data-rc-figures]");
  const original = sourceBlock.textContent;

  let view = null; // the CodeMirror view once mounted; until then the static code is the source
  let current = original; // the code before the editor is mounted
  const quiet = "rc-not-an-edit"; // userEvent of changes made by the page, not the reader
  const setSource = (text) => {
    current = text;
    sourceBlock.querySelector("code").textContent = text;
    if (!view) return;
    view.dom.style.minHeight = ""; // the static block's height was the old code's
    view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text }, userEvent: quiet });
  };
  const keep = keepExample(block, lang, original, setSource);
  const source = () => (view ? view.state.doc.toString() : current);
  const upgrade = () => {
    if (block.dataset.rcEditor) return;
    block.dataset.rcEditor = "loading";
    loadEditorKit().then((kit) => {
      const parent = block.querySelector("[data-rc-editor]");
      const focused = sourceBlock.contains(document.activeElement);
      const height = sourceBlock.getBoundingClientRect().height;
      const onEdit = (update) => {
        if (!update.transactions.some((tr) => tr.isUserEvent(quiet))) keep.changed(update.state.doc.toString());
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
  const stopButton = button("stop", () => runtime.stop());
  const resetButton = button("reset", () => {
    setSource(original);
    keep.reset();
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

  const write = (chunk, stream) => {
    const span = document.createElement("span");
    span.className = `rc-example__${stream}`;
    span.textContent = chunk;
    output.append(span);
  };

  const showFigure = (markup) => {
    const figure = figureElement(markup);
    if (figure) figures?.append(figure);
    else write(`${text.badFigure}\n`, "notice");
  };

  async function execute() {
    if (runButton.disabled) return;
    runButton.disabled = true;
    stopButton.disabled = false;
    block.dataset.rcRunning = "true";
    try {
      await runtime.ensure();
    } catch {
      runButton.disabled = false;
      stopButton.disabled = true;
      delete block.dataset.rcRunning;
      return; // the status line shows the error and its Retry button
    }
    output.textContent = "";
    figures?.replaceChildren();
    block.dataset.rcLive = "true";
    const result = await runtime.run(source(), {
      onStdout: (chunk) => write(chunk, "stdout"),
      onStderr: (chunk) => write(chunk, "stderr"),
      onFigure: showFigure,
      timeout: TIME_LIMIT_MS,
    });
    if (result.reason === "stopped") write(`${text.stopped}\n`, "notice");
    if (result.reason === "timeout") write(`${text.timeout(TIME_LIMIT_MS / 1000)}\n`, "notice");
    if (result.reason === "crashed") write(`${text.crashed}\n`, "notice");
    runButton.disabled = false;
    stopButton.disabled = true;
    delete block.dataset.rcRunning;
  }

  bootWhenNear(block); // the first Run or Check does not wait for Python
}

function scan() {
  for (const block of document.querySelectorAll("[data-rc-example]")) enhance(block);
}

// Material's instant navigation swaps the page without reloading this module: rescan on each
// page it announces through `document$`; the runtime (and its worker) stays as it is.
scan();
window.document$?.subscribe(() => scan());

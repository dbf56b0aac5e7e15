// Exercises ("Practice"): turns each build-time rendered `[data-rc-exercise]` block
// (templates/partials/exercise.html.jinja) into an editor with Check / Stop / Reset, hints
// unlocked one by one and the solution on demand; and marks solved exercises, on the card (next
// to its title) and in the glossary.
//
// Check runs rankcards.exercises.page_check through runtime.run: the checker `rankcards check`
// runs at build time, with the examples' time limit and Stop. Its result is one JSON line after
// MARKER in the run's output; the result element `[data-rc-exercise-result]` gets `data-state`
// pass | fail | error and shows the first failing case (its input, the expected value, the
// reader's value or exception). Everything is written with text nodes, never as HTML.
//
// A solved exercise is remembered per card in localStorage (`rankcards:exercise:<slug>`), in
// both languages. The strings come from the block's JSON (rankcards.site._i18n.EXERCISE_STRINGS)
// and, in the glossary, the solved mark's label from `data-rc-solved-label`.
import { TIME_LIMIT_MS, loadEditorKit, loadSanitizers, mountEditor } from "./editor.js";
import { bootWhenNear, runtime } from "./runtime.js";
import { eachPage } from "./pages.js";
import { watchStatus } from "./status.js";

const MARKER = "@@rankcards-exercise@@ "; // rankcards.exercises.MARKER
const STORAGE_PREFIX = "rankcards:exercise:";

export function isSolved(slug) {
  try {
    return Boolean(JSON.parse(localStorage.getItem(STORAGE_PREFIX + slug))?.solved);
  } catch {
    return false; // storage disabled, or a value some other code wrote
  }
}

function remember(slug) {
  try {
    localStorage.setItem(STORAGE_PREFIX + slug, JSON.stringify({ solved: true, at: Date.now() }));
  } catch {
    // Storage full or disabled: the mark still shows until the page is left.
  }
}

const fill = (template, values) =>
  template.replace(/\{(\w+)\}/g, (whole, key) => (key in values ? String(values[key]) : whole));

function mark(label) {
  const element = document.createElement("span");
  element.className = "rc-solved-mark";
  element.dataset.rcSolvedMark = "";
  element.title = label;
  element.setAttribute("aria-label", label);
  element.textContent = "✓";
  return element;
}

// The card's title is MkDocs's <h1>, outside the card's own markup.
function markTitle(block, label) {
  const title = block.closest("article")?.parentElement?.querySelector("h1") ?? document.querySelector("h1");
  if (title && !title.querySelector("[data-rc-solved-mark]")) title.append(" ", mark(label));
}

function button(name, label, onClick) {
  const element = document.createElement("button");
  element.type = "button";
  element.className = `rc-example__button md-button rc-exercise__button--${name}`;
  element.textContent = label;
  element.addEventListener("click", onClick);
  return element;
}

function field(list, term, value, className) {
  if (term) {
    const dt = document.createElement("dt");
    dt.textContent = term;
    list.append(dt);
  }
  const dd = document.createElement("dd");
  const code = document.createElement(className === "pre" ? "pre" : "code");
  code.textContent = value;
  dd.append(code);
  list.append(dd);
}

function enhance(block) {
  if (block.dataset.rcEnhanced) return;
  block.dataset.rcEnhanced = "true";
  const text = JSON.parse(block.dataset.rcExerciseText);
  const spec = JSON.parse(block.dataset.rcExerciseSpec);
  const slug = block.dataset.slug;
  const sourceBlock = block.querySelector("[data-rc-source]");
  const starter = sourceBlock.textContent;
  const result = block.querySelector("[data-rc-exercise-result]");
  // Figures the reader's code displays (sanitized like an example's), under the result.
  const figures = document.createElement("div");
  figures.className = "rc-example__figures";
  figures.dataset.rcExerciseFigures = "";
  result.after(figures);
  const hints = [...block.querySelectorAll("[data-rc-hint]")];
  const hintBox = block.querySelector("[data-rc-hints]");
  const solution = block.querySelector("[data-rc-solution]");

  let view = null;
  const source = () => (view ? view.state.doc.toString() : starter);
  const upgrade = () => {
    if (block.dataset.rcEditor) return;
    block.dataset.rcEditor = "loading";
    loadEditorKit().then((kit) => {
      const focused = sourceBlock.contains(document.activeElement);
      const onCheck = () => {
        check();
        return true;
      };
      // The last argument is the factory's edit callback (wb-state's kept edits): none here.
      view = mountEditor(kit, block.querySelector("[data-rc-editor]"), starter, text.editor, onCheck, () => {});
      sourceBlock.hidden = true;
      block.dataset.rcEditor = "ready";
      if (focused) view.focus();
    });
  };
  sourceBlock.tabIndex = 0;
  for (const event of ["pointerenter", "focusin", "pointerdown"]) {
    sourceBlock.addEventListener(event, upgrade, { once: true });
  }
  const whenReady = () => {
    if (runtime.state !== "ready" || !block.isConnected) return;
    window.removeEventListener("rankcards:runtime", whenReady);
    (window.requestIdleCallback ?? setTimeout)(() => runtime.idle().then(upgrade));
  };
  window.addEventListener("rankcards:runtime", whenReady);
  whenReady();

  // Hints: hidden, then shown one per press; the solution folded away behind its own button.
  let shown = 0;
  for (const hint of hints) hint.hidden = true;
  hintBox.hidden = true;
  const hintButton = button("hint", "", () => {
    if (shown >= hints.length) return;
    hints[shown].hidden = false;
    shown += 1;
    hintBox.hidden = false;
    updateHint();
  });
  const updateHint = () => {
    hintButton.textContent =
      shown < hints.length ? fill(text.hint, { n: shown + 1, total: hints.length }) : text.hints_done;
    hintButton.disabled = shown >= hints.length;
  };
  updateHint();
  solution.hidden = true;
  const solutionButton = button("solution", text.show_solution, () => {
    solution.hidden = false;
    solution.open = true;
    solutionButton.disabled = true;
  });

  const checkButton = button("check", text.check, () => check());
  const stopButton = button("stop", text.stop, () => runtime.stop());
  const resetButton = button("reset", text.reset, () => {
    view?.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: starter } });
  });
  stopButton.disabled = true;
  const toolbar = block.querySelector("[data-rc-toolbar]");
  toolbar.append(checkButton, stopButton, resetButton, hintButton, solutionButton);
  toolbar.hidden = false;
  watchStatus(block.querySelector("[data-rc-status]"), block.dataset.lang);

  const solvedNote = document.createElement("p");
  solvedNote.className = "rc-exercise__solved";
  solvedNote.textContent = text.solved_note;
  const markSolved = () => {
    block.dataset.rcSolved = "true";
    if (!solvedNote.isConnected) block.querySelector(".rc-exercise__task").before(solvedNote);
    markTitle(block, text.solved);
  };
  if (isSolved(slug)) markSolved();

  const show = (state, lines, details) => {
    result.replaceChildren();
    result.dataset.state = state;
    result.className = `rc-exercise__result rc-exercise__result--${state}`;
    for (const line of lines) {
      const p = document.createElement("p");
      p.textContent = line;
      result.append(p);
    }
    if (details) result.append(details);
    result.hidden = false;
  };

  function report(outcome) {
    const { failure } = outcome;
    const named = spec.cases?.length ?? 0;
    const count = spec.random?.count ?? 0;
    if (outcome.state === "pass") {
      show("pass", [fill(text.pass, { total: outcome.total, named, random: count })]);
      remember(slug);
      markSolved();
      return;
    }
    const list = document.createElement("dl");
    list.className = "rc-exercise__failure";
    let headline;
    const { case: failed } = failure;
    if (!failed) {
      headline = fill(text.error_load, { function: spec.function });
    } else {
      const kind = outcome.state === "fail" ? "fail" : "error";
      const lang = block.dataset.lang;
      const plural = new Intl.PluralRules(lang).select(outcome.passed);
      const passedBefore = fill(text[`passed_before_${plural}`] ?? text.passed_before_other, {
        passed: outcome.passed,
      });
      headline = failed.name
        ? fill(text[`${kind}_named`], {
            name: failed.name[lang] ?? failed.name.en,
            passed_before: passedBefore,
          })
        : fill(text[`${kind}_random`], { number: failed.random, count, passed_before: passedBefore });
      field(list, text.call, failure.call);
      field(list, text.expected, failure.expected);
      if (failure.got !== null) field(list, text.got, failure.got);
    }
    if (failure.error) field(list, "", failure.error, "pre");
    if (failure.output) field(list, text.printed, failure.output, "pre");
    show(outcome.state, [headline], list);
    const stuck = document.createElement("p");
    stuck.className = "rc-exercise__stuck";
    stuck.textContent = text.stuck;
    result.append(stuck);
  }

  async function check() {
    if (checkButton.disabled) return;
    checkButton.disabled = true;
    block.dataset.rcRunning = "true";
    try {
      await runtime.ensure();
      show("running", [text.checking]);
      stopButton.disabled = false; // now: runtime.run posts the run before anything else runs
      delete result.dataset.state; // only pass | fail | error are results
      const code =
        "from rankcards.exercises import page_check\n" +
        `page_check(${JSON.stringify(source())}, ${JSON.stringify(JSON.stringify(spec))})\n`;
      figures.replaceChildren();
      const { figureElement } = await loadSanitizers();
      const onFigure = (markup) => {
        const figure = figureElement(markup);
        if (figure) figures.append(figure);
      };
      const run = await runtime.run(code, { timeout: TIME_LIMIT_MS, onFigure });
      const line = run.output.split("\n").find((each) => each.startsWith(MARKER));
      if (run.reason === "stopped") show("error", [text.stopped]);
      else if (run.reason === "timeout") show("error", [fill(text.timeout, { s: TIME_LIMIT_MS / 1000 })]);
      else if (run.reason === "crashed") show("error", [text.crashed]);
      else if (!line) {
        const details = document.createElement("pre");
        details.textContent = run.error ?? run.output;
        show("error", [text.broken], details);
      } else report(JSON.parse(line.slice(MARKER.length)));
    } catch {
      // runtime.ensure failed: the status line shows the error and its Retry button.
    } finally {
      checkButton.disabled = false;
      stopButton.disabled = true;
      delete block.dataset.rcRunning;
    }
  }

  bootWhenNear(block); // the first Run or Check does not wait for Python
}

// The glossary: a mark after each solved card's link (the slug is the link's last path part).
function markGlossary() {
  const glossary = document.querySelector(".rc-glossary[data-rc-solved-label]");
  if (!glossary) return;
  const label = glossary.dataset.rcSolvedLabel;
  for (const link of glossary.querySelectorAll("a[data-rc-glossary]")) {
    const slug = new URL(link.href).pathname.split("/").filter(Boolean).pop();
    if (isSolved(slug) && !link.parentElement.querySelector("[data-rc-solved-mark]")) {
      link.after(" ", mark(label));
    }
  }
}

function scan() {
  for (const block of document.querySelectorAll("[data-rc-exercise]")) enhance(block);
  markGlossary();
}

// Material's instant navigation swaps pages without reloading this module (see editor.js).
eachPage(scan);

// Example-bound demos (section[data-rc-demo][data-rc-bound], templates/partials/demo.html.jinja):
// each control is bound to a literal of the card's code example (`depth = 10`), the contract of
// rankcards/viz/bound.py. Moving a control rewrites that literal in the example's editor (the
// reader sees the code change) and runs the example again (editor.js's runLatest: the last
// change wins, a superseded run never shows).
//
//   import { mountBoundDemos } from "./bound.js";
//
// Where the literals are. For the card's own code the build wrote each literal's place
// (data-rc-bindings: {name: {from, to, type}}, UTF-16 offsets), and this module moves them along
// its own rewrites. Any other code (the reader's edit, a kept edit, code from a link) is matched
// first against the original with only the bound literals' texts changed (matchOriginal in
// bound_literals.js: every other character identical, each literal the card's own text or the
// very text this page writes for a value the control allows), which the Python rules accept by
// construction; anything else is checked by those rules themselves:
// rankcards.viz.bound:locate in the worker (a JavaScript copy of Python's grammar would be a
// second parser to keep in step). While code is being checked a
// control's change waits for the answer; when the code breaks a binding (the name reassigned,
// not at top level, not a literal, a value the control cannot show...) the controls are
// disabled and a one-line notice says why, in the page's language, until the code is fixed or
// the reader presses Reset.
//
// Share: the controls' values that differ from the card's travel in the URL hash (#demo=, as
// every demo's; share.js, state_check.js). A page opened with such a link sets the controls and
// the literals and runs the card's code, scrolled to the demo with the note every demo shows
// (share.js RestoredNote): the state is the link's, and a button writes the card's own
// literals back; the note goes once the reader changes a control or the code. A link that also
// carries code (#code=) keeps that code as it is (its literals are the state) and never runs it.
// Reset (the example's) restores the card's code, controls and first output.
//
// Marks for tests and styles: section[data-rc-bound-state] = "ready" | "checking" | "broken";
// the notice [data-rc-bound-notice] (data-code = the rule broken).
import { bootWhenNear, runtime } from "./runtime.js";
import { eachPage } from "./pages.js";
import { exampleOf } from "./editor.js";
import { bindControls, syncControls } from "./controls.js";
import { SHARE_TEXT, controlsOf, element, shareBar } from "./demo.js";
import { changesFrom, checkSharedState } from "./state_check.js";
import { RestoredNote, decodeJSON, demoParameter, readLink, writeLink, writeLinkNow, writeLinkSoon } from "./share.js";
import { literalText, matchOriginal, rewriteLiteral } from "./bound_literals.js";

const CHECK_DELAY_MS = 150; // the reader's typing settles before the worker checks the code
const LOCATE = "rankcards.viz.bound:locate";

const TEXT = {
  en: {
    off: "Controls off:",
    fix: "Undo the edit or press Reset to use them again.",
    syntax: (label, lines) => `the code does not parse (line ${lines})`,
    missing: (label) => `the code no longer assigns “${label}”`,
    twice: (label, lines) => `“${label}” is assigned more than once (lines ${lines})`,
    nested: (label, lines) => `“${label}” is assigned inside a block, not at the top (line ${lines})`,
    "not-assignment": (label, lines) => `“${label}” is not set by a plain “name = value” line (line ${lines})`,
    "not-literal": (label, lines) => `“${label}” is computed, not written as a value (line ${lines})`,
    type: (label, lines) => `“${label}” holds a value of another kind (line ${lines})`,
    range: (label, lines) => `“${label}” is outside the control's range (line ${lines})`,
    option: (label, lines) => `“${label}” is not one of the control's options (line ${lines})`,
    failed: () => "the code could not be checked",
    ...SHARE_TEXT.en,
  },
  es: {
    off: "Controles desactivados:",
    fix: "Deshaz la edición o pulsa Restablecer para volver a usarlos.",
    syntax: (label, lines) => `el código no se puede analizar (línea ${lines})`,
    missing: (label) => `el código ya no asigna «${label}»`,
    twice: (label, lines) => `«${label}» se asigna más de una vez (líneas ${lines})`,
    nested: (label, lines) => `«${label}» se asigna dentro de un bloque, no al principio (línea ${lines})`,
    "not-assignment": (label, lines) => `«${label}» no se fija con una línea «nombre = valor» (línea ${lines})`,
    "not-literal": (label, lines) => `«${label}» se calcula en vez de escribirse como un valor (línea ${lines})`,
    type: (label, lines) => `«${label}» tiene un valor de otro tipo (línea ${lines})`,
    range: (label, lines) => `«${label}» queda fuera del rango del control (línea ${lines})`,
    option: (label, lines) => `«${label}» no es una de las opciones del control (línea ${lines})`,
    failed: () => "no se pudo comprobar el código",
    ...SHARE_TEXT.es,
  },
};

class BoundDemo {
  #section;
  #lang;
  #text;
  #example;
  #block;
  #controls;
  #initial;
  #original; // the original code's bindings
  #bindings = null; // the current code's, when its controls are usable
  #state;
  #notice;
  #linkNotice;
  #restored = null; // share.js's RestoredNote, once a state came from a link
  #shareSaid; // the share bar's polite status line
  #checking = null; // a Promise while the code is being checked
  #settleCheck = null; // resolves it
  #checkTimer = null;
  #epoch = 0; // Resets so far
  #primed = false;

  constructor(section) {
    this.#section = section;
    this.#lang = section.dataset.lang === "es" ? "es" : "en";
    this.#text = TEXT[this.#lang];
    this.#block = document.getElementById(section.dataset.rcExampleId);
    this.#example = exampleOf(this.#block);
    this.#controls = controlsOf(section).map((control) => ({
      ...control,
      label: section.querySelector(`label[for="${CSS.escape(this.#inputOf(control.bind).id)}"]`)?.textContent.trim() ?? control.bind,
      literals: control.kind === "select" ? [...this.#inputOf(control.bind).options].map((o) => o.dataset.rcLiteral) : [],
    }));
    this.#initial = JSON.parse(section.dataset.rcInitial);
    this.#original = JSON.parse(section.dataset.rcBindings);
    this.#state = structuredClone(this.#initial);
    this.#addBars();
    bindControls(section, (action) => this.#change(action.path, action.value));
    this.#block.addEventListener("rankcards:source", (event) => {
      if (event.detail.cause !== "bound") this.#codeChanged(event.detail);
    });
    this.#codeChanged({ source: this.#example.source(), cause: "mount" });
    this.#restoreFromLink();
    this.#primeWhenReady();
    bootWhenNear(section);
  }

  #inputOf(bind) {
    return this.#section.querySelector(`[data-rc-bind="${CSS.escape(bind)}"]`);
  }

  #addBars() {
    this.#notice = element("p", { class: "rc-bound__notice", "data-rc-bound-notice": "", role: "status" });
    this.#notice.hidden = true;
    const { notice, bar, said } = shareBar(this.#text, () => this.#writeLink());
    this.#linkNotice = notice;
    this.#shareSaid = said;
    this.#section.querySelector(".rc-demo-hint").after(this.#linkNotice, this.#notice);
    this.#section.querySelector(".rc-demo-controls").after(bar);
  }

  #setMode(mode, problem = null) {
    this.#section.dataset.rcBoundState = mode;
    const off = mode === "broken";
    for (const control of this.#section.querySelectorAll("[data-rc-kind]")) control.disabled = off;
    this.#notice.hidden = !off;
    if (!off) {
      delete this.#notice.dataset.code;
      this.#notice.textContent = "";
      return;
    }
    const control = this.#controls.find((c) => c.bind === problem.name);
    const say = this.#text[problem.code] ?? this.#text.failed;
    const lines = (problem.lines ?? []).join(", ");
    this.#notice.dataset.code = problem.code;
    this.#notice.textContent = `${this.#text.off} ${say(control?.label ?? problem.name, lines)}. ${this.#text.fix}`;
  }

  // The code changed by anything but a control: find its literals again. A check still waiting
  // is dropped (and the changes waiting on it go on to the newer one); a Reset also drops the
  // control changes that were waiting, since they were made on the code it replaced.
  #codeChanged({ source, cause }) {
    if (cause === "edit" || cause === "reset") this.#restored?.hide(); // no longer the link's state
    clearTimeout(this.#checkTimer);
    this.#settleCheck?.();
    if (cause === "reset") this.#epoch += 1;
    const matched = matchOriginal(source, this.#example.original, this.#original, this.#controls, this.#initial);
    if (matched) {
      this.#checking = null;
      this.#use(matched.bindings, matched.values);
      if (cause === "reset") this.#writeLink(); // the card's values: no demo in the link
      return;
    }
    this.#setMode("checking");
    const checking = new Promise((resolve) => (this.#settleCheck = resolve));
    this.#checking = checking;
    this.#checkTimer = setTimeout(async () => {
      let answer;
      try {
        answer = await runtime.call(LOCATE, { source, controls: this.#controls.map(specOf) });
      } catch {
        answer = { ok: false, problem: { name: "", code: "failed", lines: [] } };
      }
      if (this.#checking !== checking || this.#example.source() !== source) return; // a newer one
      this.#checking = null;
      if (answer.ok) {
        const values = Object.fromEntries(Object.entries(answer.bindings).map(([name, b]) => [name, b.value]));
        this.#use(answer.bindings, values);
      } else {
        this.#bindings = null;
        this.#setMode("broken", answer.problem);
      }
      this.#settleCheck();
    }, cause === "edit" ? CHECK_DELAY_MS : 0);
  }

  #use(bindings, values) {
    this.#bindings = Object.fromEntries(Object.entries(bindings).map(([name, b]) => [name, { from: b.from, to: b.to, type: b.type }]));
    this.#state = { ...this.#state, ...values };
    syncControls(this.#section, this.#state);
    this.#setMode("ready");
  }

  // Until the reader's last edit is checked, a change waits for the answer.
  async #settled() {
    while (this.#checking) await this.#checking;
  }

  async #change(name, value) {
    this.#restored?.hide(); // the state is now the reader's own
    const epoch = this.#epoch;
    await this.#settled();
    if (epoch !== this.#epoch) return; // a Reset came first: the control shows the card's value
    if (!this.#bindings) {
      syncControls(this.#section, this.#state); // disabled meanwhile: show the code's values
      return;
    }
    this.#rewrite(name, value);
    // once the controls settle, not on each input event of a drag (share.js writeLinkSoon)
    writeLinkSoon(this, () => this.#linkChanges());
    this.#example.runLatest();
  }

  // `text`: the literal to write, when not the one this page writes for `value`.
  #rewrite(name, value, text = null) {
    const control = this.#controls.find((c) => c.bind === name);
    const binding = this.#bindings[name];
    text ??=
      control.kind === "select" ? control.literals[control.options.findIndex((o) => o === value)] : literalText(value, binding.type);
    const moved = rewriteLiteral(this.#example.source(), this.#bindings, name, text).bindings;
    this.#example.replace(binding.from, binding.to, text);
    this.#bindings = moved;
    this.#state = { ...this.#state, [name]: value };
    syncControls(this.#section, this.#state);
  }

  // Share, and the note's way back: the URL now (with any other waiting write).
  #writeLink() {
    writeLinkNow(this, () => this.#linkChanges());
  }

  // null once instant navigation has replaced the page (the URL is the next page's)
  #linkChanges() {
    return this.#section.isConnected ? demoParameter(changesFrom(this.#state, this.#initial)) : null;
  }

  // A link's values are set on the controls and the literals, and the card's code runs; a link
  // that brought code keeps it as it is (never run by the page).
  async #restoreFromLink() {
    const { demo, code } = readLink();
    if (demo === null || code !== null) return;
    await this.#settled(); // a kept edit may need the worker's check first
    let result;
    try {
      result = checkSharedState(decodeJSON(demo), this.#initial, controlsOf(this.#section));
    } catch (error) {
      result = { problem: `link: ${String(error?.message ?? error).slice(0, 120)}` };
    }
    if (!result.state || !this.#bindings) {
      this.#section.dataset.rcShared = "invalid";
      this.#linkNotice.dataset.reason = result.problem ?? "the code's literals are not usable";
      this.#linkNotice.hidden = false;
      writeLink({ demo: null });
      return;
    }
    for (const control of this.#controls) {
      const value = result.state[control.bind];
      if (value !== this.#state[control.bind]) this.#rewrite(control.bind, value);
    }
    this.#primed = true; // this run warms the worker
    this.#example.runLatest();
    this.#restored = new RestoredNote(this.#section, this.#text, this.#shareSaid, () => this.#backToCard());
    this.#restored.show(this.#linkNotice);
  }

  // The note's button (RestoredNote has removed the note): the card's own values, written as
  // the card writes them (so the card's code, unedited otherwise, is the original again and not
  // kept as an edit), then run.
  #backToCard() {
    if (this.#bindings) {
      for (const control of this.#controls) {
        const name = control.bind;
        if (this.#state[name] === this.#initial[name]) continue;
        const { from, to } = this.#original[name];
        this.#rewrite(name, this.#initial[name], this.#example.original.slice(from, to));
      }
      this.#example.runLatest();
    }
    this.#writeLink();
  }

  // Once the runtime is ready, the card's own code runs once in the worker with nothing shown:
  // it imports what the example needs and fills its caches, so the reader's first change is as
  // fast as the later ones. Only the card's own code, and only if nothing has run yet.
  #primeWhenReady() {
    const prime = () => {
      if (this.#primed || !this.#section.isConnected) return;
      this.#primed = true;
      if (this.#example.source() !== this.#example.original || this.#block.dataset.rcLive) return;
      runtime.idle().then(() => runtime.run(this.#example.original, { timeout: 10_000 })).catch(() => {});
    };
    if (runtime.state === "ready") {
      prime();
      return;
    }
    const onChange = (event) => {
      if (event.detail.state !== "ready") return;
      window.removeEventListener("rankcards:runtime", onChange);
      prime();
    };
    window.addEventListener("rankcards:runtime", onChange);
  }
}

// The rules' input for one control (what rankcards.viz.bound.value_problem reads).
function specOf(control) {
  const spec = { kind: control.kind, bind: control.bind };
  if (control.kind === "slider") Object.assign(spec, { min: control.min, max: control.max });
  if (control.kind === "select") spec.options = control.options.map((value) => ({ value }));
  return spec;
}

const mounted = new WeakMap();

export function mountBoundDemos(root = document) {
  let count = 0;
  for (const section of root.querySelectorAll("section[data-rc-demo][data-rc-bound]")) {
    if (mounted.has(section) || !document.getElementById(section.dataset.rcExampleId)) continue;
    mounted.set(section, new BoundDemo(section));
    count += 1;
  }
  return count;
}

eachPage(mountBoundDemos);

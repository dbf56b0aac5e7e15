// Makes every card demo (<section data-rc-demo>, templates/partials/demo.html.jinja) live:
// a control change or a view action updates the state, and the view is recomputed by the card's
// Python function in the Pyodide worker (runtime.call(compute, {state, lang})) and replaced.
//
//   import { mountDemos } from "./demo.js";   mountDemos(root = document) -> number mounted
//
// The module mounts the demos of the page by itself, again after each Material instant
// navigation (document$), and boots the runtime lazily when a demo scrolls into view.
// Widget states are classes on the section: rc-demo--idle | --pending | --live | --error.
// Each finished recompute dispatches a `rankcards:demo` CustomEvent {detail: {ms, state}} on it.
//
// Why coalesce: a slider fires many input events; only the latest state is worth computing, so
// at most one call is in flight and the newest pending state follows it.
import { NEAR_MARGIN, runtime } from "./runtime.js";
import { actionFrom, applyAction } from "./demo_state.js";
import { bindControls, syncControls } from "./controls.js";

const STATES = ["idle", "pending", "live", "error"];
const TEXT = {
  en: { loading: "Starting Python…", failed: "The visualizer could not be updated:" },
  es: { loading: "Iniciando Python…", failed: "No se pudo actualizar el visualizador:" },
};

function attributeKey(element) {
  return [...element.attributes]
    .filter((attr) => attr.name.startsWith("data-rc-"))
    .map((attr) => `${attr.name}=${attr.value}`)
    .join("|");
}

class Demo {
  #section;
  #view;
  #status;
  #error;
  #compute;
  #lang;
  #text;
  #state;
  #inFlight = false;
  #dirty = false;
  #said = "";

  constructor(section) {
    this.#section = section;
    this.#view = section.querySelector("[data-rc-view]");
    this.#status = section.querySelector("[data-rc-demo-status]");
    this.#error = section.querySelector("[data-rc-demo-error]");
    this.#compute = section.dataset.compute;
    this.#lang = section.dataset.lang === "es" ? "es" : "en";
    this.#text = TEXT[this.#lang];
    this.#state = JSON.parse(section.dataset.rcInitial);
    bindControls(section, (action, said) => this.dispatch(action, said));
    this.#view.addEventListener("click", (event) => {
      const target = event.target.closest("button");
      const action = target && this.#view.contains(target) ? actionFrom(target) : null;
      if (action) this.dispatch(action, null);
    });
    section.querySelector("[data-rc-demo-retry]").addEventListener("click", () => {
      this.#dirty = true;
      this.#pump();
    });
    this.#setState("idle");
    this.#primeWhenReady();
  }

  // Once the runtime is ready, compute the initial view once in the worker: it imports the
  // card's module and warms the interpreter's hot paths (WebAssembly tier-up), so the reader's
  // first real change is as fast as the later ones. The result equals the build-time view.
  #primeWhenReady() {
    const prime = () => {
      this.#dirty = true;
      this.#pump();
    };
    if (runtime.state === "ready") {
      prime();
      return;
    }
    const onChange = (event) => {
      if (event.detail.state !== "ready") return;
      window.removeEventListener("rankcards:runtime", onChange);
      if (this.#section.isConnected) prime();
    };
    window.addEventListener("rankcards:runtime", onChange);
  }

  get state() {
    return structuredClone(this.#state);
  }

  #setState(name) {
    for (const other of STATES) this.#section.classList.toggle(`rc-demo--${other}`, other === name);
    this.#section.dataset.rcState = name;
  }

  dispatch(action, said) {
    this.#state = applyAction(this.#state, action);
    syncControls(this.#section, this.#state);
    this.#said = said ?? "";
    this.#dirty = true;
    this.#pump();
  }

  async #pump() {
    if (this.#inFlight || !this.#dirty) return;
    this.#inFlight = true;
    this.#dirty = false;
    const started = performance.now();
    const state = this.#state;
    this.#setState("pending");
    this.#view.setAttribute("aria-busy", "true");
    if (runtime.state !== "ready") this.#status.textContent = this.#text.loading;
    try {
      const html = await runtime.call(this.#compute, { state, lang: this.#lang });
      this.#show(html);
      this.#error.hidden = true;
      this.#setState("live");
      this.#section.dispatchEvent(
        new CustomEvent("rankcards:demo", { detail: { ms: performance.now() - started, state } }),
      );
    } catch (error) {
      this.#setState("error");
      this.#error.querySelector("[data-rc-demo-error-text]").textContent = `${this.#text.failed} ${error.message}`;
      this.#error.hidden = false;
      this.#status.textContent = "";
    } finally {
      this.#view.removeAttribute("aria-busy");
      this.#inFlight = false;
    }
    if (this.#dirty) this.#pump();
  }

  #show(html) {
    const active = this.#view.contains(document.activeElement) ? attributeKey(document.activeElement) : null;
    const template = document.createElement("template");
    template.innerHTML = html; // escaped by rankcards.viz._html on the Python side
    this.#view.replaceChildren(template.content);
    if (active) {
      const again = [...this.#view.querySelectorAll("button")].find((b) => attributeKey(b) === active);
      again?.focus();
    }
    const news = [...this.#view.querySelectorAll("[data-rc-announce]")].map((node) => node.textContent.trim());
    this.#status.textContent = [this.#said, ...news].filter(Boolean).join(" — ");
  }
}

const mounted = new WeakMap();
const watcher =
  "IntersectionObserver" in globalThis
    ? new IntersectionObserver((entries) => {
        if (entries.some((entry) => entry.isIntersecting)) {
          runtime.ensure().catch(() => {}); // the runtime shows its own error state with Retry
          watcher.disconnect();
        }
      }, { rootMargin: NEAR_MARGIN })
    : null;

export function mountDemos(root = document) {
  let count = 0;
  for (const section of root.querySelectorAll("section[data-rc-demo]")) {
    if (mounted.has(section)) continue;
    mounted.set(section, new Demo(section));
    watcher?.observe(section);
    count += 1;
  }
  return count;
}

/** The live Demo behind a section (for tests and readers' scripts), or undefined. */
export const demoOf = (section) => mounted.get(section);

if (globalThis.document$?.subscribe) {
  globalThis.document$.subscribe(() => mountDemos());
} else if (document.readyState === "loading") {
  document.addEventListener("DOMContentLoaded", () => mountDemos(), { once: true });
} else {
  mountDemos();
}

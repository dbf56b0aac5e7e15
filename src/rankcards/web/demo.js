// Makes every card demo (<section data-rc-demo>, templates/partials/demo.html.jinja) live:
// a control change or a view action updates the state, and the view is recomputed by the card's
// Python function in the Pyodide worker (runtime.call(compute, {state, lang})) and replaced.
//
//   import { mountDemos } from "./demo.js";   mountDemos(root = document) -> number mounted
//
// The module mounts the demos of the page by itself, again after each Material instant
// navigation (document$), and boots the runtime lazily when a demo scrolls into view.
// The widget's state is the section's data-rc-state: idle | pending | live | error (an attribute,
// not a class: Material's `table:not([class])` rules make any class change restyle the whole
// section, 230 elements, on every control change).
// Each finished recompute dispatches a `rankcards:demo` CustomEvent {detail: {ms, state}} on it.
//
// The state is shareable (share.js, state_check.js): a settled change is written to the URL hash
// (#demo=..., replaceState) once the demo has been quiet for a moment (share.js writeLinkSoon),
// a Share button writes it at once and copies that link, and a page opened with one starts
// from the link's state once it passes the same rules as a card's own state, scrolled into
// view with a note that says so and offers the card's own state back
// (section[data-rc-shared="restored"]); an invalid one is dropped with a short notice
// (section[data-rc-shared="invalid"]) and the card's state is used.
//
// Why coalesce: a slider fires many input events; only the latest state is worth computing, so
// at most one call is in flight and the newest pending state follows it.
import { NEAR_MARGIN, runtime } from "./runtime.js";
import { eachPage } from "./pages.js";
import { actionFrom, applyAction } from "./demo_state.js";
import { bindControls, syncControls } from "./controls.js";

// share.js and state_check.js, loaded on first use: the first change, Share, or a link that
// carries a demo's state (issue 24: no card page needs them before its runtime). `shared` holds
// them once loaded, for what must happen in the same task (see #writeLinkSoon).
let sharing = null;
let shared = null;
export const loadSharing = () =>
  (sharing ??= Promise.all([import("./share.js"), import("./state_check.js")]).then(
    ([share, check]) => (shared = { ...share, ...check }),
  ));
// share.js's readLink, for the one question asked on every page: does the link carry a state?
const linkHasDemo = () => /[#&]demo=/.test(location.hash);

// A recompute marks the view busy (dimmed, viz.css) only once it has taken this long: the usual
// one takes a few ms, and dimming the view for it would flash it on every change and repaint it
// twice.
const BUSY_AFTER_MS = 100;
// The share bar's and the link notes' words, every demo's (bound.js's too).
export const SHARE_TEXT = {
  en: {
    share: "Share this state",
    copied: "Link copied.",
    select: "Copy the selected link (Ctrl+C).",
    link: "Link to this state of the visualizer",
    invalid: "The state in this link is not valid for this card, so the card's own state is shown.",
    restored: "This is the state of the link you opened, not the card's own.",
    back: "Back to the card's state",
    backDone: "The card's own state is shown.",
  },
  es: {
    share: "Compartir este estado",
    copied: "Enlace copiado.",
    select: "Copia el enlace seleccionado (Ctrl+C).",
    link: "Enlace a este estado del visualizador",
    invalid: "El estado de este enlace no es válido para esta ficha: se muestra el estado propio de la ficha.",
    restored: "Este es el estado del enlace que has abierto, no el propio de la ficha.",
    back: "Volver al estado de la ficha",
    backDone: "Se muestra el estado propio de la ficha.",
  },
};
const TEXT = {
  en: { loading: "Starting Python…", failed: "The visualizer could not be updated:", ...SHARE_TEXT.en },
  es: { loading: "Iniciando Python…", failed: "No se pudo actualizar el visualizador:", ...SHARE_TEXT.es },
};

/** The demo's controls as rendered (the rules state_check.js applies to a shared state). */
export function controlsOf(section) {
  return [...section.querySelectorAll("[data-rc-kind]")].map((control) => {
    const { rcKind: kind, rcBind: bind } = control.dataset;
    if (kind === "slider") {
      return { kind, bind, min: Number(control.min), max: Number(control.max), step: Number(control.step) || 1 };
    }
    if (kind === "select") return { kind, bind, options: [...control.options].map((o) => JSON.parse(o.value)) };
    if (kind === "ranked-lists") {
      const unjudged = control.dataset.rcUnjudged === "true";
      return { kind, bind, max_grade: Number(control.dataset.rcMaxGrade) || 1, unjudged };
    }
    return { kind, bind };
  });
}

export function element(tag, attributes, text = "") {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  node.textContent = text;
  return node;
}

// A table wider than its box scrolls sideways (viz.css): a keyboard reader must be able to reach
// it, so one that overflows and holds nothing focusable becomes a tab stop (axe's
// scrollable-region-focusable); one that fits does not add a stop for nothing.
function reachScrollingTable(table) {
  const overflows = table.scrollWidth > table.clientWidth + 1;
  if (overflows && !table.querySelector("button, a[href], input, select, [tabindex]")) {
    table.tabIndex = 0;
  } else table.removeAttribute("tabindex");
}

// The check runs from a ResizeObserver, which reports a table once it is laid out (when it is
// observed, and when its box changes): reading its widths there forces no layout, while a read
// right after a view update would lay the page out at once on every control change.
const tableSizes =
  "ResizeObserver" in globalThis
    ? new ResizeObserver((entries) => {
        for (const entry of entries) {
          if (entry.target.isConnected) reachScrollingTable(entry.target);
          else tableSizes.unobserve(entry.target);
        }
      })
    : null;
function watchTables(view) {
  for (const table of view.querySelectorAll(".rc-table")) {
    if (tableSizes) {
      // observed again: a table kept by morph() may overflow with new content in the same box
      tableSizes.unobserve(table);
      tableSizes.observe(table);
    } else reachScrollingTable(table);
  }
}

// The new view's markup is merged into the shown one (`into`, from `from`, position by
// position) rather than replacing it: a node of the same kind is kept, with its attributes and
// text brought up to date, and only what differs is added or removed. A control change alters a
// few numbers and rows, so the browser restyles, lays out and paints those alone, not the whole
// view (it measured 5-7 ms of the page's thread per change, about half of a frame on two busy
// cores). The tab stop reachScrollingTable gives a table is the page's, not the markup's: kept.
function morph(into, from) {
  let kept = into.firstChild;
  for (const node of [...from.childNodes]) {
    if (kept && kept.nodeName === node.nodeName && kept.nodeType === node.nodeType) {
      if (node.nodeType === Node.ELEMENT_NODE) {
        // most of a view is the same after a change: the native comparison skips it
        if (!kept.isEqualNode(node)) {
          updateAttributes(kept, node);
          morph(kept, node);
        }
      } else if (kept.nodeValue !== node.nodeValue) {
        kept.nodeValue = node.nodeValue;
      }
      kept = kept.nextSibling;
    } else {
      into.insertBefore(node, kept);
    }
  }
  while (kept) {
    const next = kept.nextSibling;
    kept.remove();
    kept = next;
  }
}

function updateAttributes(element, from) {
  for (const { namespaceURI, localName, name, value } of from.attributes) {
    if (element.getAttributeNS(namespaceURI, localName) !== value) element.setAttributeNS(namespaceURI, name, value);
  }
  for (const { namespaceURI, localName, name } of [...element.attributes]) {
    const pageOwned = name === "tabindex" && element.classList.contains("rc-table");
    if (!pageOwned && !from.hasAttributeNS(namespaceURI, localName)) element.removeAttributeNS(namespaceURI, localName);
  }
}

/** A demo's share bar and its invalid-link notice (hidden), for the caller to place: Share
 * writes the URL (`writeLink`, may be async) and copies it, `said` tells the reader how. */
export function shareBar(text, writeLink) {
  const notice = element("p", { class: "rc-share__notice", "data-rc-share-notice": "", role: "status" }, text.invalid);
  notice.hidden = true;
  const bar = element("div", { class: "rc-share", "data-rc-share": "" });
  const button = element("button", { type: "button", class: "md-button rc-share__button", "data-rc-share-button": "" }, text.share);
  const field = element("input", { type: "text", readonly: "", class: "rc-share__link", "data-rc-share-link": "", "aria-label": text.link });
  field.hidden = true;
  const said = element("span", { class: "rc-share__said", "data-rc-share-said": "", role: "status" });
  button.addEventListener("click", async () => {
    const { copyLink } = await loadSharing();
    await writeLink();
    said.textContent = text[await copyLink(location.href, field)];
  });
  bar.append(button, field, said);
  return { notice, bar, said };
}

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
  #initial;
  #fromLink = false;
  #notice;
  #restored = null; // share.js's RestoredNote, once a state came from a link
  #shareSaid; // the share bar's polite status line
  #inFlight = false;
  #dirty = false;
  #linkStale = false; // the state changed since the URL was last written
  #said = "";

  constructor(section) {
    this.#section = section;
    this.#view = section.querySelector("[data-rc-view]");
    this.#status = section.querySelector("[data-rc-demo-status]");
    this.#error = section.querySelector("[data-rc-demo-error]");
    this.#compute = section.dataset.compute;
    this.#lang = section.dataset.lang === "es" ? "es" : "en";
    this.#text = TEXT[this.#lang];
    this.#initial = JSON.parse(section.dataset.rcInitial);
    this.#state = structuredClone(this.#initial);
    this.#addShareBar();
    this.#restoreFromLink();
    watchTables(this.#view);
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

  #addShareBar() {
    const { notice, bar, said } = shareBar(this.#text, () => this.#writeLinkNow());
    this.#notice = notice;
    this.#shareSaid = said;
    const hint = this.#section.querySelector(".rc-demo-hint");
    if (hint) hint.after(this.#notice);
    else this.#section.prepend(this.#notice);
    this.#section.querySelector("[data-rc-view]").before(bar);
  }

  // A link's state replaces the initial one only when it passes state_check.js; otherwise the
  // reader is told once, the parameter leaves the URL, and the card's state stays.
  // The state is in before the runtime is ready (the modules are small, the runtime is not); if
  // it is not, the view is computed again for it.
  async #restoreFromLink() {
    if (!linkHasDemo()) return;
    runtime.ensure().catch(() => {}); // the reader came to see this state
    const { checkSharedState, decodeJSON, readLink, RestoredNote } = await loadSharing();
    const { demo } = readLink();
    if (demo === null) return;
    let problem;
    try {
      const result = checkSharedState(decodeJSON(demo), this.#initial, controlsOf(this.#section));
      if (result.state) {
        this.#state = result.state;
        this.#fromLink = true;
        syncControls(this.#section, this.#state);
        this.#restored = new RestoredNote(this.#section, this.#text, this.#shareSaid, () => this.#backToCard());
        this.#restored.show(this.#notice);
        this.#recomputeIfReady();
        return;
      }
      problem = result.problem;
    } catch (error) {
      problem = `link: ${String(error?.message ?? error).slice(0, 120)}`;
    }
    this.#rejectLink(problem);
  }

  // The note's button: the card's own state (RestoredNote has removed the note).
  #backToCard() {
    this.#state = structuredClone(this.#initial);
    this.#fromLink = false;
    syncControls(this.#section, this.#state);
    this.#writeLinkNow(); // the link's state leaves the address bar with the note
    this.#dirty = true;
    this.#pump();
  }

  #rejectLink(problem) {
    this.#restored?.hide();
    this.#section.dataset.rcShared = "invalid";
    this.#notice.dataset.reason = problem;
    this.#notice.hidden = false;
    this.#writeLinkNow(); // the card's state (or the reader's, if a control moved meanwhile)
  }

  #recomputeIfReady() {
    if (runtime.state !== "ready") return; // the first view is computed once it is
    this.#dirty = true;
    this.#pump();
  }

  // After a settled change (the view shows the newest state), never per input event, and only
  // once the demo has been quiet for share.js's LINK_DELAY_MS: a slider dragged over ten steps
  // writes the URL once, and a write never lands between two changes the reader makes.
  // Registered in the task that shows the view (once the modules are in), so that a share
  // button pressed from then on writes it first (share.js flushLinks).
  #writeLinkSoon() {
    const register = ({ writeLinkSoon, ...sharing }) => writeLinkSoon(this, () => this.#linkChanges(sharing));
    if (shared) register(shared);
    else loadSharing().then(register);
  }

  // Share, and the note's way back: the URL now (with any other waiting write).
  async #writeLinkNow() {
    const { writeLinkNow, ...sharing } = await loadSharing();
    writeLinkNow(this, () => this.#linkChanges(sharing));
  }

  // The link's parameter for the current state; null once instant navigation has replaced the
  // page (the URL is the next page's).
  #linkChanges({ changesFrom, demoParameter }) {
    if (!this.#section.isConnected) return null;
    this.#linkStale = false;
    return demoParameter(changesFrom(this.#state, this.#initial));
  }

  get state() {
    return structuredClone(this.#state);
  }

  #setState(name) {
    this.#section.dataset.rcState = name;
  }

  dispatch(action, said) {
    this.#state = applyAction(this.#state, action);
    this.#fromLink = false;
    this.#restored?.hide(); // the state is now the reader's own
    syncControls(this.#section, this.#state);
    this.#linkStale = true;
    loadSharing(); // in while the view is computed: the link's write is registered with it
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
    const busy = setTimeout(() => this.#view.setAttribute("aria-busy", "true"), BUSY_AFTER_MS);
    if (runtime.state !== "ready") this.#status.textContent = this.#text.loading;
    try {
      const html = await runtime.call(this.#compute, { state, lang: this.#lang });
      this.#show(html);
      this.#error.hidden = true;
      this.#setState("live");
      if (!this.#dirty && this.#linkStale) this.#writeLinkSoon(); // before the event's listeners
      this.#section.dispatchEvent(
        new CustomEvent("rankcards:demo", { detail: { ms: performance.now() - started, state } }),
      );
    } catch (error) {
      if (this.#fromLink && state === this.#state && error?.pythonType) {
        // Valid in shape, refused by the card's own Python: back to the card's state.
        this.#fromLink = false;
        this.#state = structuredClone(this.#initial);
        syncControls(this.#section, this.#state);
        this.#rejectLink(`compute: ${String(error?.message ?? error).slice(0, 120)}`);
        this.#dirty = true;
      } else {
        this.#setState("error");
        this.#error.querySelector("[data-rc-demo-error-text]").textContent = `${this.#text.failed} ${error.message}`;
        this.#error.hidden = false;
        this.#status.textContent = "";
      }
    } finally {
      clearTimeout(busy);
      this.#view.removeAttribute("aria-busy");
      this.#inFlight = false;
    }
    if (this.#dirty) this.#pump();
    else if (this.#linkStale) this.#writeLinkSoon();
  }

  #show(html) {
    const active = this.#view.contains(document.activeElement) ? attributeKey(document.activeElement) : null;
    const template = document.createElement("template");
    template.innerHTML = html; // escaped by rankcards.viz._html on the Python side
    morph(this.#view, template.content);
    watchTables(this.#view);
    // the focused button kept its place, or the one with the same state action takes the focus
    if (active && !(this.#view.contains(document.activeElement) && attributeKey(document.activeElement) === active)) {
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
  // An example-bound demo (data-rc-bound) has no view of its own: bound.js makes it live.
  for (const section of root.querySelectorAll("section[data-rc-demo]:not([data-rc-bound])")) {
    if (mounted.has(section)) continue;
    mounted.set(section, new Demo(section));
    watcher?.observe(section);
    count += 1;
  }
  return count;
}

/** The live Demo behind a section (for tests and readers' scripts), or undefined. */
export const demoOf = (section) => mounted.get(section);

eachPage(mountDemos);

// The page's Python runtime: one Pyodide Web Worker per tab, booted lazily, shared by every
// example and demo, surviving Material's instant navigation (an ES module is evaluated once per
// document, so this singleton lives as long as the tab does).
//
//   import { runtime } from "./runtime.js";
//
//   runtime.state        "idle" | "loading" | "ready" | "error" (mirrored on <html data-runtime>)
//   runtime.version      rankcards.__version__ as read inside Pyodide (null until ready)
//   runtime.progress     {phase: "download" | "starting", loaded, total} bytes of the current boot
//   runtime.ensure()     -> Promise<void>: boot once (retries after an error); resolves when ready
//   runtime.run(source, {onStdout, onStderr, onFigure, onTable, timeout})
//                        -> Promise<{ok, output, error, reason}>: runs a code example with
//                        rankcards.runner (the build's capture rule, so an unedited example prints
//                        its build-time output); `reason` is "stopped" | "timeout" | "crashed" |
//                        null. Never rejects for the code's own errors: they are data.
//                        onFigure(svg) gets each figure's SVG markup, onTable(html) each
//                        table's HTML, unsanitized (the caller sanitizes them: see
//                        svg_sanitize.js, table_sanitize.js).
//   runtime.call("module:function", args, {files, onProgress}) -> Promise<any>: calls a Python
//                        function in the worker; `args` is JSON: an object is passed as keyword
//                        arguments, an array as positional ones; the JSON-serialisable result is
//                        returned. Rejects with an Error whose .pythonType / .traceback describe
//                        a Python exception. A long call: `files` {name: Blob} are read by the
//                        function from paths passed as keyword arguments of those names (never
//                        copied whole); `onProgress(done, total)` receives what the function
//                        reports through its `progress` argument; runtime.stop() ends it like a
//                        run, and it rejects with an Error whose .reason is "stopped".
//   runtime.stop()       ends the current run (or long call) now: interrupts Python when the
//                        page is crossOriginIsolated, otherwise terminates the worker and boots
//                        a new one.
//   runtime.busy         true while a run or call is in the worker
//   runtime.idle()       -> Promise<void>: resolves once no run or call is in the worker (the
//                        editor waits for it, so parsing CodeMirror never delays a demo's view)
//   runtime.boots        how many workers this tab started (1 per visit; +1 per Stop/crash restart)
//   runtime.timings      {interpreter, total, mode, snapshot}: ms the last boot took inside the
//                        worker; mode "normal" | "shipped" (the memory snapshot the site ships
//                        was restored) | "snapshot" (the copy an earlier visit kept was
//                        restored) | "fallback" (a snapshot failed its checks and a normal boot
//                        followed); snapshot {ms, bytes} once the worker kept a snapshot for the
//                        next visit (see snapshot.js); rehearsal {ok, ms} once the next visit's
//                        boot was rehearsed (see rehearseNextVisit)
//
// Events: `window` receives `rankcards:runtime` CustomEvents whose detail is
// {state, progress, version, error}, on every state or progress change.
//
// Why a worker and a message protocol: Python never blocks the page, and a runaway loop can be
// ended by terminating the worker. Requests carry {id, type, ...}; replies {id, ok, ...} with
// errors as data (see worker.js).
//
// Why the worker starts no earlier than this deferred module runs (after the document): a worker
// started by an inline script while the page was parsed made the demo live no sooner, on a first
// or a later visit, and its start-up, competing with the theme's for the CPU, tripled the page's
// long tasks (README, "Benchmarks"). On a page whose first screen boots, Material's script runs
// after the first demo value instead (theme.js).
import config from "./config.js";
import { interruptBuffer, signalStop } from "./interrupt.js";

const EVENT = "rankcards:runtime";
const WORKER_URL = new URL("./worker.js", import.meta.url);
const DEFAULT_TIMEOUT_MS = 10_000;
// How long a Stop waits for Python to take its KeyboardInterrupt before the worker is replaced.
// Python reads the signal within milliseconds when it can run, but a busy phone (or two
// browsers on two cores) can hold the worker's thread for hundreds: a restart then costs the
// reader a whole boot where waiting a little longer costs nothing. Exported for the tests.
export const INTERRUPT_GRACE_MS = 1000;
const SEARCH_CHANNEL = "rankcards:search"; // see search_gate.js

class Runtime {
  state = "idle";
  version = null;
  error = null;
  progress = { phase: "idle", loaded: 0, total: 0 };
  #worker = null;
  #boot = null;
  #nextId = 1;
  #pending = new Map(); // id -> {resolve, reject, onStdout, onStderr, onFigure, onTable, kind}
  #interrupt = null; // shared with the worker when crossOriginIsolated (see interrupt.js)
  #idlers = []; // resolve functions of idle() promises
  boots = 0; // workers started in this tab: stays 1 across instant navigation
  timings = null; // {interpreter, total, mode, snapshot}: the last boot, in the worker

  get busy() {
    return this.#pending.size > 0;
  }

  ensure() {
    if (this.state === "ready") return Promise.resolve();
    if (this.#boot && this.state === "loading") return this.#boot;
    this.#boot = this.#start();
    return this.#boot;
  }

  async run(source, { onStdout, onStderr, onFigure, onTable, timeout = DEFAULT_TIMEOUT_MS } = {}) {
    await this.ensure();
    const handlers = { onStdout, onStderr, onFigure, onTable, kind: "run", timeout };
    return this.#request({ type: "run", source }, handlers);
  }

  async call(target, args, { files, onProgress } = {}) {
    await this.ensure();
    const message = { type: "call", target, args: JSON.stringify(args ?? null) };
    const long = Boolean(files || onProgress);
    if (files) message.files = files;
    if (onProgress) message.progress = true;
    const reply = await this.#request(message, { kind: "call", long, onProgress });
    if (!reply.ok) {
      const error = new Error(reply.interrupted ? "Python call stopped" : reply.error.message);
      error.pythonType = reply.error.type;
      error.traceback = reply.error.traceback;
      if (reply.interrupted) error.reason = reply.reason;
      throw error;
    }
    return JSON.parse(reply.result);
  }

  stop() {
    this.#end("stopped");
  }

  idle() {
    if (this.#pending.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idlers.push(resolve));
  }

  // --- internals -------------------------------------------------------------------------

  #setState(state, extra = {}) {
    Object.assign(this, extra);
    this.state = state;
    document.documentElement.dataset.runtime = state;
    this.#emit();
  }

  #emit() {
    const detail = {
      state: this.state,
      progress: { ...this.progress },
      version: this.version,
      error: this.error,
    };
    window.dispatchEvent(new CustomEvent(EVENT, { detail }));
  }

  #start() {
    this.#setState("loading", {
      error: null,
      progress: { phase: "download", loaded: 0, total: config.bytes },
    });
    const worker = new Worker(WORKER_URL, { type: "module" });
    this.#worker = worker;
    this.boots += 1;
    if (globalThis.crossOriginIsolated) this.#interrupt = interruptBuffer();
    return new Promise((resolve, reject) => {
      const fail = (message) => {
        if (this.#worker !== worker) return;
        worker.terminate();
        this.#worker = null;
        this.#setState("error", { error: message });
        this.#failPending("crashed", message);
        reject(new Error(message));
      };
      worker.onerror = (event) => {
        event.preventDefault();
        const detail = event.message || "worker error";
        if (this.state === "ready" && this.#worker === worker) {
          this.#restart("crashed"); // a crash after a good boot: report it and start afresh
        } else {
          fail(`Python runtime failed to load: ${detail}`);
        }
      };
      worker.onmessage = ({ data }) => {
        if (data.type === "progress") {
          this.progress = data.progress;
          this.#emit();
        } else if (data.type === "booted") {
          if (data.ok && data.version !== config.version) {
            // The worker checks its archive against its own config.js; this page's may be older.
            fail(`rankcards version mismatch: the page was built with ${config.version}, the archive holds ${data.version}`);
          } else if (data.ok) {
            document.documentElement.dataset.runtimeVersion = data.version;
            this.#setState("ready", { version: data.version, timings: data.timings });
            resolve();
          } else {
            fail(data.error);
          }
        } else if (data.type === "snapshot") {
          if (data.ok) {
            this.timings = data.timings;
            rehearseNextVisit((rehearsal) => {
              this.timings = { ...this.timings, rehearsal };
            });
          } else {
            console.warn(`rankcards: no Pyodide snapshot for the next visit: ${data.error}`);
          }
        } else {
          this.#reply(data);
        }
      };
      worker.postMessage({ type: "boot", interrupt: this.#interrupt, preload: demoModules() });
    });
  }

  #request(message, handlers) {
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      const entry = { resolve, reject, ...handlers, timer: null, output: "" };
      if (handlers.timeout) {
        entry.timer = setTimeout(() => this.#end("timeout"), handlers.timeout);
      }
      this.#pending.set(id, entry);
      this.#worker.postMessage({ id, ...message });
    });
  }

  #reply(data) {
    const entry = this.#pending.get(data.id);
    if (!entry) return;
    if (data.type === "call-progress") {
      entry.onProgress?.(data.done, data.total);
      return;
    }
    if (data.type === "stdout" || data.type === "stderr") {
      const sink = data.type === "stdout" ? entry.onStdout : entry.onStderr;
      entry.output += data.text;
      sink?.(data.text);
      return;
    }
    if (data.type === "figure") {
      entry.onFigure?.(data.svg);
      return;
    }
    if (data.type === "table") {
      entry.onTable?.(data.html);
      return;
    }
    clearTimeout(entry.timer);
    this.#pending.delete(data.id);
    this.#settle();
    if (entry.kind === "call") {
      entry.resolve(data.interrupted ? { ...data, reason: entry.reason ?? "stopped" } : data);
    } else if (data.interrupted) {
      entry.resolve({ ok: false, output: entry.output, error: null, reason: entry.reason ?? "stopped" });
    } else {
      const reason = data.restart ? "crashed" : null;
      entry.resolve({ ok: data.ok, output: data.output || entry.output, error: data.error, reason });
    }
    // After a MemoryError (or an error Pyodide cannot recover from) start from a fresh worker.
    if (data.restart) this.#restart("crashed");
  }

  // Stop the runs in the worker: interrupt Python if we can, else (or if it does not yield in
  // time) terminate the worker, fail the pending requests and boot a fresh one in the background.
  #end(reason) {
    // Stop ends runs and long calls: a demo's call queued behind one may take longer than the
    // grace period without hanging, and must not make the worker restart.
    const stopping = [...this.#pending].filter(
      ([, { kind, long, stopped }]) => (kind === "run" || long) && !stopped,
    );
    if (!this.#worker || stopping.length === 0) return;
    for (const entry of this.#pending.values()) entry.reason = reason;
    if (this.#interrupt) {
      // Each run is signalled once: a second Stop could set the signal again after the loop has
      // read the first, and the request after it would be interrupted instead.
      for (const [, entry] of stopping) entry.stopped = true;
      signalStop(this.#interrupt, Math.max(...stopping.map(([id]) => id)));
      setTimeout(() => {
        // Only if what we interrupted still hangs (e.g. inside a C call): not a newer request.
        if (stopping.some(([id]) => this.#pending.has(id))) this.#restart(reason);
      }, INTERRUPT_GRACE_MS);
    } else {
      this.#restart(reason);
    }
  }

  #restart(reason) {
    this.#worker?.terminate();
    this.#worker = null;
    this.#failPending(reason, null);
    this.#boot = null;
    this.state = "idle";
    this.ensure().catch(() => {}); // the error state and its Retry button report a failure
  }

  #failPending(reason, message) {
    for (const entry of this.#pending.values()) {
      clearTimeout(entry.timer);
      if (entry.kind === "run") {
        entry.resolve({ ok: false, output: entry.output, error: message, reason });
      } else {
        const error = new Error(message ?? `Python call ${reason}`);
        error.reason = reason;
        entry.reject(error);
      }
    }
    this.#pending.clear();
    this.#settle();
  }

  #settle() {
    if (this.#pending.size > 0) return;
    for (const resolve of this.#idlers.splice(0)) resolve();
  }
}

// Chromium keeps a code cache of a script from its second load and uses it from the third, in a
// worker too: without more, a reader's second visit would compile Pyodide's 1.25 MB of JS (and
// the worker's modules) once more and run them cold, some 200 ms of its 800 ms here. So once
// this visit has kept a snapshot for the next one (once per build and browser), a second worker
// boots from it when the page is idle, exactly as the next visit's will, and is dropped once
// Chromium has written its caches, which it makes a while after the scripts have run (dropped
// at "booted", the next visit gained half as much). `done` receives {ok, ms}: whether that boot
// worked, and how long it took. Devices with 2 GB of memory or less are spared the second heap.
const REHEARSAL_KEEP_MS = 2_000;
const REHEARSAL_LIMIT_MS = 30_000;
const REHEARSAL_MIN_MEMORY_GB = 4;

function rehearseNextVisit(done) {
  if ((navigator.deviceMemory ?? REHEARSAL_MIN_MEMORY_GB) < REHEARSAL_MIN_MEMORY_GB) return;
  const rehearse = () => {
    const started = performance.now();
    const worker = new Worker(WORKER_URL, { type: "module", name: "rankcards-rehearsal" });
    const end = (ok) => {
      clearTimeout(limit);
      worker.onmessage = worker.onerror = null;
      const ms = performance.now() - started;
      setTimeout(() => {
        worker.terminate();
        done({ ok, ms });
      }, ok ? REHEARSAL_KEEP_MS : 0);
    };
    const limit = setTimeout(() => end(false), REHEARSAL_LIMIT_MS);
    worker.onerror = (event) => {
      event.preventDefault();
      end(false);
    };
    worker.onmessage = ({ data }) => {
      if (data.type === "booted") end(data.ok);
    };
    worker.postMessage({ type: "boot", interrupt: null, preload: [] });
  };
  (window.requestIdleCallback ?? setTimeout)(rehearse);
}

// The modules the page's demos call, which the worker imports as soon as it is booted.
function demoModules() {
  const sections = document.querySelectorAll("section[data-rc-demo][data-compute]");
  return [...new Set([...sections].map((section) => section.dataset.compute.split(":")[0]))];
}

export const runtime = new Runtime();
document.documentElement.dataset.runtime = runtime.state;

// "Near" means within one screen of the viewport, as browsers' native lazy loading fetches
// images ahead of the reader: the boot is under way before the demo is reached, and a page
// whose demos lie further down still waits until the reader scrolls towards them.
// demo.js, editor.js and exercise.js observe with this margin.
export const NEAR_MARGIN = "100% 0px";

// Boot the runtime once `element` comes near the viewport, so the reader's first action does
// not wait for it (the runtime shows its own error state with Retry).
export function bootWhenNear(element) {
  const observer = new IntersectionObserver(
    (entries) => {
      if (entries.some((entry) => entry.isIntersecting)) {
        observer.disconnect();
        runtime.ensure().catch(() => {});
      }
    },
    { rootMargin: NEAR_MARGIN },
  );
  observer.observe(element);
}

// A demo or example already near the first screen when the page's modules run starts the boot
// at once: the IntersectionObservers report it only after the next rendered frame, 100-300 ms
// later while Material is still setting up the page.
function runnableOnFirstScreen() {
  for (const node of document.querySelectorAll("section[data-rc-demo], [data-rc-example]")) {
    const box = node.getBoundingClientRect();
    if (box.width > 0 && box.top <= 2 * innerHeight && box.bottom >= -innerHeight) return true;
  }
  return false;
}
if (runnableOnFirstScreen()) runtime.ensure().catch(() => {}); // errors show with Retry

// Material's search worker waits (search_gate.js) while a page that runs Python has not booted it:
// on two cores the index and the boot slowed each other, and the index's documents (600 KB) are
// downloaded only when the gate starts. "go" is posted at once on a page with nothing to run,
// else once the runtime is ready or failed, or as soon as the reader opens search (its box takes
// the focus: a click, or Material's "/" and "s" keys); and again to a gate that says it is
// waiting (it may have missed the first: Material keeps its worker across page changes). Until
// then this page says "hold" (now, and to a gate that asks): the gate's own time limit is for a
// page whose scripts never ran, not for a card whose reader has not scrolled to its demo.
const SEARCH_BOX = "[data-md-component=search-query]";
const RUNS_PYTHON = "section[data-rc-demo], [data-rc-example], [data-rc-exercise], [data-rc-evaluate]";
function openSearchGate() {
  if (!window.BroadcastChannel) return;
  const channel = new BroadcastChannel(SEARCH_CHANNEL);
  let free = false;
  const go = () => {
    free = true;
    window.removeEventListener(EVENT, settled);
    document.removeEventListener("focusin", open);
    channel.postMessage("go");
  };
  const settled = ({ detail }) => {
    if (detail.state === "ready" || detail.state === "error") go();
  };
  const open = (event) => {
    if (event.target?.matches?.(SEARCH_BOX)) go();
  };
  channel.onmessage = ({ data }) => {
    if (data === "waiting") channel.postMessage(free ? "go" : "hold");
  };
  // Zensical draws a search dialog of its own (no such box): there the gate waits for a boot
  // under way only, as before.
  const waitsForOpen = document.querySelector(SEARCH_BOX) && document.querySelector(RUNS_PYTHON);
  if (runtime.state === "ready" || runtime.state === "error") go();
  else if (runtime.state === "loading" || waitsForOpen) {
    window.addEventListener(EVENT, settled);
    document.addEventListener("focusin", open);
    channel.postMessage("hold");
  } else go();
}
openSearchGate();

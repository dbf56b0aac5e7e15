// The Pyodide Web Worker behind runtime.js (a module worker; one per tab).
//
// Protocol (postMessage, one request at a time is executed; Python is synchronous):
//   -> {type: "boot", interrupt, preload}    interrupt: Int32Array | null; preload: names of
//                                            rankcards modules the page's demos call, imported
//                                            right after "booted"; what to boot comes from
//                                            config.js, next to this file
//   <- {type: "progress", progress}          {phase, loaded, total}
//   <- {type: "booted", ok, version, timings, error}   timings: ms spent in the worker
//   <- {type: "snapshot", ok, timings | error}  after the first idle moment of a normal boot
//   -> {id, type: "run", source}
//   <- {id, type: "stdout" | "stderr", text} streamed while the code runs
//   <- {id, type: "result", ok, output, error, interrupted, restart}
//   -> {id, type: "call", target, args}      args: a JSON string (object = kwargs, array = args)
//   <- {id, type: "result", ok, result | error: {type, message, traceback}}
// Errors are data: nothing here throws across the boundary.
//
// Why these boot steps: the standard library comes as a zip of .pyc compiled at site build by
// this same Pyodide (no compiling in the reader's browser), and the rankcards archive is fetched
// in parallel with the interpreter, then unpacked and its version checked against the build.
// A second visit restores a memory snapshot of a booted interpreter instead (see snapshot.js):
// it skips Python's start-up and the package imports; a snapshot that fails to load, or whose
// interpreter does not compute a known value with the right rankcards version, is dropped and
// the worker boots normally, so the private snapshot API can only cost time, never correctness.
// Every download, and the wasm's compilation, starts in the boot's first instant (prefetch.js).

import buildConfig from "./config.js";
import { prefetch } from "./prefetch.js";
import { dropSnapshot, findSnapshot, readSnapshot, storeSnapshot } from "./snapshot.js";

// The worker reads the build's config itself (rather than receiving it) so that a card page's
// inline script can start it before any of the page's modules has run (see runtime.js).
const config = { ...buildConfig, base: new URL("./", import.meta.url).href };

let pyodide = null;
// ms: interpreter (loadPyodide incl. downloads), total (+ archive, bridge, checks); mode:
// "normal" | "snapshot" (restored from Cache Storage) | "fallback" (a stored snapshot failed its
// checks and was dropped); snapshot: {ms, bytes} once this worker has stored one.
const timings = {};
let bridge = null; // the Python helpers defined in BRIDGE, as PyProxies
const SNAPSHOT_IDLE_MS = 400;
const SNAPSHOT_LOAD_LIMIT_MS = 15_000;
let snapshotKey = null; // this build's Cache Storage key, null without Cache Storage
let snapshotWanted = false; // true until the snapshot is made, or a `run` rules it out
let snapshotTimer = null;

const BRIDGE = `
import json, importlib
from rankcards.runner import run_example

def run(source, on_stdout, on_stderr):
    result = run_example(source, on_stdout=on_stdout, on_stderr=on_stderr)
    fatal = result.error is not None and result.error.rstrip().splitlines()[-1].startswith("MemoryError")
    return json.dumps({"ok": result.ok, "output": result.output, "error": result.error, "restart": fatal})

def preload(names):
    for name in json.loads(names):
        if name.startswith("rankcards."):
            try:
                importlib.import_module(name)
            except Exception:
                pass  # the demo's own call reports it, with its traceback

def call(target, args):
    module_name, _, name = target.partition(":")
    if not module_name.startswith("rankcards.") or not name:
        raise ValueError(f"call target must be 'rankcards.<module>:<function>', got {target!r}")
    function = getattr(importlib.import_module(module_name), name)
    args = json.loads(args)
    if isinstance(args, dict):
        value = function(**args)
    elif isinstance(args, list):
        value = function(*args)
    elif args is None:
        value = function()
    else:
        value = function(args)
    return json.dumps(value)
`;

function progress(phase, loaded, total) {
  postMessage({ type: "progress", progress: { phase, loaded, total } });
}

async function fetchBytes(url, onChunk) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  const reader = response.body.getReader();
  const parts = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parts.push(value);
    size += value.length;
    onChunk(value.length);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const part of parts) {
    bytes.set(part, offset);
    offset += part.length;
  }
  return bytes;
}

// Loads Pyodide; `snapshot` (a Promise of the heap bytes) restores a booted interpreter instead
// of starting one, `makeSnapshot` keeps the heap ready for makeMemorySnapshot().
async function startPyodide(config, { snapshot, makeSnapshot, onDownloaded }) {
  const indexURL = new URL(config.pyodide, config.base).href;
  const { loadPyodide } = await import(new URL("pyodide.mjs", indexURL).href);
  const options = { indexURL, stdLibURL: new URL(config.stdlib, config.base).href, packages: [] };
  if (snapshot) options._loadSnapshot = snapshot;
  if (makeSnapshot) options._makeSnapshot = true;
  const instance = await loadPyodide(options);
  onDownloaded();
  return instance;
}

// The rankcards archive into the (fresh) file system, the interrupt buffer, the bridge; the
// package's version is checked against the build's. A snapshot already holds the bridge and the
// imported package in its heap, but its file system is new: the archive is unpacked again.
function attach(instance, archive, config, interrupt, restored) {
  instance.unpackArchive(archive, "zip");
  if (interrupt) instance.setInterruptBuffer(interrupt);
  if (!restored) instance.runPython(BRIDGE);
  const run = instance.globals.get("run");
  const call = instance.globals.get("call");
  const preload = instance.globals.get("preload");
  const version = instance.runPython("import rankcards; rankcards.__version__");
  if (version !== config.version) {
    throw new Error(
      `rankcards version mismatch: the page was built with ${config.version}, the archive holds ${version}`,
    );
  }
  if (restored && call("rankcards.metrics:reciprocal_rank", '[["a", "b"], ["b"]]') !== "0.5") {
    throw new Error("the restored snapshot computes wrong values");
  }
  pyodide = instance;
  bridge = { run, call, preload };
  return version;
}

async function boot(interrupt) {
  const base = config.base;
  const indexURL = new URL(config.pyodide, base).href;
  let loaded = 0;
  let reported = 0;
  const total = config.bytes;
  const count = (n) => {
    loaded += n;
    if (loaded - reported >= 100_000) {
      reported = loaded; // a message per 0.1 MB, not per network chunk
      progress("download", Math.min(loaded, total), total);
    }
  };
  // Pyodide fetches the wasm and the stdlib itself; count them when each arrives.
  const seen = new Set();
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (entry.name.startsWith(indexURL) && !seen.has(entry.name)) {
        seen.add(entry.name);
        count(entry.decodedBodySize || entry.encodedBodySize || 0);
      }
    }
  });
  observer.observe({ type: "resource", buffered: true });
  const started = performance.now();
  const archive = fetchBytes(new URL(config.package, base).href, count);
  const lockFile = new URL("pyodide-lock.json", indexURL).href;
  prefetch(new URL("pyodide.asm.wasm", indexURL).href, [new URL(config.stdlib, base).href, lockFile]);
  // Cache Storage is asked for a snapshot, and its read begins, before the interpreter scripts
  // load: parsing pyodide.asm.mjs holds this thread for 100-200 ms, during which the read goes
  // on. loadPyodide's own imports of the same URLs then reuse these module loads.
  const stored = await findSnapshot(config, BRIDGE);
  const heap = stored?.response ? readSnapshot(stored.response) : null;
  heap?.catch(() => {}); // reported where loadPyodide awaits it
  for (const name of ["pyodide.mjs", "pyodide.asm.mjs"]) {
    import(new URL(name, indexURL).href).catch(() => {}); // loadPyodide reports a failure
  }
  snapshotKey = stored?.key ?? null;
  const downloaded = () => {
    timings.interpreter = performance.now() - started;
    observer.disconnect();
    progress("starting", total, total);
  };
  let version = null;
  if (heap) {
    try {
      const restoring = startPyodide(config, { snapshot: heap, onDownloaded: downloaded });
      // A heap Pyodide cannot instantiate only logs a warning and never settles: time out.
      const limit = new Promise((_, reject) => {
        setTimeout(() => reject(new Error("timed out")), SNAPSHOT_LOAD_LIMIT_MS);
      });
      const instance = await Promise.race([restoring, limit]);
      version = attach(instance, await archive, config, interrupt, true);
      timings.mode = "snapshot";
    } catch (error) {
      // Any failure (corrupt bytes, another heap layout, a wrong value): forget it, boot normally.
      console.warn(`rankcards: stored Pyodide snapshot unusable (${error}); booting normally`);
      await dropSnapshot(stored.key);
      timings.mode = "fallback";
    }
  }
  if (version === null) {
    const makeSnapshot = snapshotKey !== null;
    const instance = await startPyodide(config, { makeSnapshot, onDownloaded: downloaded });
    version = attach(instance, await archive, config, interrupt, false);
    timings.mode ??= "normal";
    snapshotWanted = makeSnapshot;
  }
  timings.total = performance.now() - started;
  return version;
}

// The snapshot is made once the worker has been idle for SNAPSHOT_IDLE_MS after the boot (the
// page's first demo calls go first), and never after a `run`: the reader's code may change
// modules or globals, and a snapshot must hold nothing but the package as shipped. `call`s only
// run rankcards' own functions on JSON, and the modules they import make the next boot faster.
function scheduleSnapshot() {
  clearTimeout(snapshotTimer);
  if (!snapshotWanted) return;
  snapshotTimer = setTimeout(async () => {
    snapshotWanted = false;
    const started = performance.now();
    try {
      const bytes = pyodide.makeMemorySnapshot();
      await storeSnapshot(snapshotKey, bytes);
      timings.snapshot = { ms: performance.now() - started, bytes: bytes.length };
      postMessage({ type: "snapshot", ok: true, timings });
    } catch (error) {
      postMessage({ type: "snapshot", ok: false, error: String(error.message ?? error) });
    }
  }, SNAPSHOT_IDLE_MS);
}

// While the page reacts to "booted", the modules its demos will call are imported. Python errors
// are the demos' to report (the bridge ignores them); only a Stop can interrupt the imports, and
// it was meant for the run queued behind them: the signal is raised again for that run.
function preload(names, interrupt) {
  try {
    bridge.preload(JSON.stringify(names));
  } catch (error) {
    if (interrupt && error.type === "KeyboardInterrupt") Atomics.store(interrupt, 0, 2);
  }
}

function pythonError(error) {
  // A PythonError's message is the formatted traceback; its last line names type and message.
  const text = String(error.message ?? error);
  const last = text.trimEnd().split("\n").pop() ?? text;
  const match = /^(\w[\w.]*): ?(.*)$/.exec(last);
  return {
    type: error.type ?? (match ? match[1] : "Error"),
    message: match ? match[2] || match[1] : last,
    traceback: text,
  };
}

function handle({ id, type, source, target, args }) {
  if (type === "run") {
    const stdout = (text) => postMessage({ id, type: "stdout", text });
    const stderr = (text) => postMessage({ id, type: "stderr", text });
    try {
      const reply = JSON.parse(bridge.run(source, stdout, stderr));
      postMessage({ id, type: "result", interrupted: false, ...reply });
    } catch (error) {
      const interrupted = error.type === "KeyboardInterrupt";
      const restart = !interrupted;
      const message = interrupted ? null : pythonError(error).traceback;
      postMessage({ id, type: "result", ok: false, output: "", error: message, interrupted, restart });
    }
  } else if (type === "call") {
    try {
      postMessage({ id, type: "result", ok: true, result: bridge.call(target, args) });
    } catch (error) {
      postMessage({ id, type: "result", ok: false, error: pythonError(error) });
    }
  } else {
    postMessage({ id, type: "result", ok: false, error: { type: "ProtocolError", message: `unknown request type ${type}`, traceback: "" } });
  }
}

self.onmessage = async ({ data }) => {
  if (data.type === "boot") {
    try {
      const version = await boot(data.interrupt);
      postMessage({ type: "booted", ok: true, version, timings });
      preload(data.preload ?? [], data.interrupt);
      scheduleSnapshot();
    } catch (error) {
      postMessage({ type: "booted", ok: false, error: String(error.message ?? error) });
    }
    return;
  }
  if (data.type === "run") snapshotWanted = false;
  handle(data);
  scheduleSnapshot();
};

// The Pyodide Web Worker behind runtime.js (a module worker; one per tab).
//
// Protocol (postMessage; requests are executed one at a time, in arrival order):
//   -> {type: "boot", interrupt, preload}    interrupt: Int32Array | null; preload: names of
//                                            rankcards modules the page's demos call, imported
//                                            right after "booted". The boot itself starts as
//                                            soon as this module is loaded, before the message
//                                            is delivered; what to boot comes from config.js,
//                                            next to this file
//   <- {type: "progress", progress}          {phase, loaded, total}
//   <- {type: "booted", ok, version, timings, error}   timings: ms spent in the worker
//   <- {type: "snapshot", ok, timings | error}  once a snapshot is kept for the next visit
//   -> {id, type: "run", source}
//   <- {id, type: "stdout" | "stderr", text} streamed while the code runs
//   <- {id, type: "figure", svg}             a figure the code displayed (rankcards.runner's
//                                            rule), as the code wrote it: the page sanitizes it
//   <- {id, type: "table", html}             a table the code displayed (_repr_html_), likewise
//   <- {id, type: "result", ok, output, error, interrupted, restart}
//   -> {id, type: "call", target, args}      args: a JSON string (object = kwargs, array = args)
//   <- {id, type: "result", ok, result | error: {type, message, traceback}}
//   -> {id, type: "call", target, args, files, progress}   a long call (see longCall): files
//                                            {name: Blob}, each mounted read-only and its path
//                                            passed as the keyword argument `name`; progress:
//                                            true to pass `progress`, a function (done, total)
//   <- {id, type: "call-progress", done, total}   each time Python calls it
//   <- {id, type: "result", ok, result | error, interrupted}   interrupted: a Stop ended it
// Errors are data: nothing here throws across the boundary.
//
// Why these boot steps: a first visit restores the memory snapshot the site ships (a booted
// interpreter with rankcards imported, made at site build by build_snapshot.mjs), a second visit
// the copy of it kept in Cache Storage (see snapshot.js): either skips Python's start-up and the
// package imports. A restored heap starts without the standard library, mounted once downloaded:
// the snapshot takes its place on the boot's critical path; the rankcards archive, fetched in
// parallel, is unpacked once the worker is idle (its modules are in the heap). A normal boot
// unpacks it first. Either way the package's version is checked against the build's. A snapshot
// that fails to load, or whose interpreter does not compute a known value with the right
// rankcards version, gives way to a normal boot (a stored one is dropped), so the private
// snapshot API can only cost time, never correctness. A normal boot loads the standard library as a zip of .pyc compiled at site
// build by this same Pyodide (no compiling in the reader's browser); with a Pyodide from a CDN
// there is no shipped snapshot, and the worker keeps one of its own heap once idle. Every
// download, and the wasm's compilation, starts in the boot's first instant (prefetch.js).

import { BRIDGE } from "./bridge.js";
import buildConfig from "./config.js";
import { aimedAt, dropStaleSignal, resignal } from "./interrupt.js";
import { prefetch } from "./prefetch.js";
import {
  dropSnapshot,
  encodePages,
  fetchShipped,
  findSnapshot,
  readSnapshot,
  storeSnapshot,
} from "./snapshot.js";

// The worker reads the build's config itself (rather than receiving it): its downloads start as
// soon as this module is loaded, before the boot message is delivered.
const config = { ...buildConfig, base: new URL("./", import.meta.url).href };

let pyodide = null;
// ms: interpreter (loadPyodide incl. downloads), total (+ archive, bridge, checks); mode:
// "normal" | "shipped" (restored from the snapshot the site ships) | "snapshot" (restored from
// Cache Storage) | "fallback" (a snapshot failed its checks: a stored one is dropped); snapshot:
// {ms, bytes} once this worker has stored one.
const timings = {};
let bridge = null; // the Python helpers defined in BRIDGE, as PyProxies
let interrupt = null; // the buffer a Stop signals through, when the page is crossOriginIsolated
const SNAPSHOT_IDLE_MS = 400;
const SNAPSHOT_LOAD_LIMIT_MS = 15_000;
let snapshotKey = null; // this build's Cache Storage key, null without Cache Storage
let snapshotWanted = false; // true until the snapshot is made, or a `run` rules it out
let shippedHeap = null; // the heap of the site's snapshot, until a copy is kept in Cache Storage
// A restored heap starts without the standard library and without the rankcards archive's files
// (its modules are in the heap): the boot does not wait for them (see `boot`). `missingFiles`
// holds their downloads, {stdlib, archive} as Promises of bytes, until placeFiles() has written
// them, once the worker is idle or before a `run`; null when they are in place.
let missingFiles = null;
let placing = null; // placeFiles()'s one Promise
let requests = Promise.resolve(); // requests are served one after another, in arrival order
// What loadPyodide mounts as the standard library when a snapshot is restored: an empty zip (its
// end-of-central-directory record alone); the real one replaces it once downloaded.
const EMPTY_ZIP = new Uint8Array([0x50, 0x4b, 0x05, 0x06, ...new Array(18).fill(0)]);
let idleTimer = null;


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
async function startPyodide(config, { stdlib, snapshot, makeSnapshot, onDownloaded }) {
  const indexURL = new URL(config.pyodide, config.base).href;
  const { loadPyodide } = await import(new URL("pyodide.mjs", indexURL).href);
  const stdLibURL = URL.createObjectURL(new Blob([stdlib])); // bytes this worker has
  const options = { indexURL, stdLibURL, packages: [] };
  if (snapshot) options._loadSnapshot = snapshot;
  if (makeSnapshot) options._makeSnapshot = true;
  try {
    const instance = await loadPyodide(options);
    onDownloaded();
    return instance;
  } finally {
    URL.revokeObjectURL(stdLibURL);
  }
}

// The standard library in place of the empty zip a restored interpreter started with, and the
// archive's files. The heap's zip importer already holds this zip's table of contents (the
// snapshot was made with it), so imports work as soon as the bytes are there.
function placeFiles() {
  placing ??= missingFiles
    ? Promise.all([missingFiles.stdlib, missingFiles.archive]).then(([stdlib, archive]) => {
        const zip = pyodide.runPython("import sys; next(p for p in sys.path if p.endswith('.zip'))");
        pyodide.FS.writeFile(zip, stdlib);
        pyodide.runPython("import importlib; importlib.invalidate_caches()");
        pyodide.unpackArchive(archive, "zip");
        missingFiles = null;
      })
    : Promise.resolve();
  return placing;
}

// The bridge; the package's version is checked against the build's. A snapshot already holds
// the bridge and the imported package in its heap (its file system is new: see placeFiles); a
// normal boot needs the archive unpacked first.
function attach(instance, config, restored) {
  if (!restored) instance.runPython(BRIDGE);
  const run = instance.globals.get("run");
  const call = instance.globals.get("call");
  const preload = instance.globals.get("preload");
  const version = instance.runPython("import rankcards; rankcards.__version__");
  if (version !== config.version) {
    throw new Error(
      `rankcards version mismatch: the page was built with ${config.version}, the ${restored ? "snapshot" : "archive"} holds ${version}`,
    );
  }
  if (restored && call("rankcards.metrics:reciprocal_rank", '[["a", "b"], ["b"]]') !== "0.5") {
    throw new Error("the restored snapshot computes wrong values");
  }
  pyodide = instance;
  bridge = { run, call, preload };
  return version;
}

async function boot() {
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
  archive.catch(() => {}); // reported where it is awaited
  // The standard library: at once for a normal boot; when a site ships a snapshot, only once the
  // heap has arrived, so that it does not share the bandwidth the boot waits on.
  let stdlib = null;
  const fetchStdlib = () => {
    stdlib ??= fetchBytes(new URL(config.stdlib, base).href, count);
    stdlib.catch(() => {}); // reported where it is awaited
    return stdlib;
  };
  if (!config.snapshot) fetchStdlib();
  prefetch(new URL("pyodide.asm.wasm", indexURL).href, [new URL("pyodide-lock.json", indexURL).href]);
  // Cache Storage is asked for a snapshot, and its read begins, before the interpreter scripts
  // load: parsing pyodide.asm.mjs holds this thread for 100-200 ms, during which the read goes
  // on. loadPyodide's own imports of the same URLs then reuse these module loads. Without a
  // stored snapshot, the one the site ships (made at build, see build_snapshot.mjs) is fetched.
  const stored = await findSnapshot(config, BRIDGE);
  const shipped =
    !stored?.response && config.snapshot
      ? fetchShipped(new URL(config.snapshot, base).href, count)
      : null;
  const heap = stored?.response
    ? readSnapshot(stored.response)
    : shipped;
  heap?.catch(() => {}); // reported where loadPyodide awaits it
  (heap ?? Promise.resolve()).then(fetchStdlib, fetchStdlib).catch(() => {}); // reported where awaited
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
      const restoring = startPyodide(config, { stdlib: EMPTY_ZIP, snapshot: heap, onDownloaded: downloaded });
      // A heap Pyodide cannot instantiate only logs a warning and never settles: time out.
      let timer;
      const limit = new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error("timed out")), SNAPSHOT_LOAD_LIMIT_MS);
      });
      const instance = await Promise.race([restoring, limit]).finally(() => clearTimeout(timer));
      version = attach(instance, config, true);
      missingFiles = { stdlib: fetchStdlib(), archive };
      timings.mode = shipped ? "shipped" : "snapshot";
      if (shipped && snapshotKey !== null) {
        shippedHeap = await shipped; // kept in Cache Storage once idle: a faster read next time
        snapshotWanted = true;
      }
    } catch (error) {
      // Any failure (corrupt bytes, another heap layout, a wrong value): boot normally, and
      // forget a stored snapshot.
      console.warn(`rankcards: Pyodide snapshot unusable (${error}); booting normally`);
      if (stored?.response) await dropSnapshot(stored.key);
      timings.mode = "fallback";
    }
  }
  if (version === null) {
    // With a shipped snapshot, that is the heap to keep, not this one (see scheduleIdleWork).
    const makeSnapshot = snapshotKey !== null && !config.snapshot;
    const instance = await startPyodide(config, {
      stdlib: await fetchStdlib(),
      makeSnapshot,
      onDownloaded: downloaded,
    });
    instance.unpackArchive(await archive, "zip");
    version = attach(instance, config, false);
    timings.mode ??= "normal";
    snapshotWanted = makeSnapshot;
  }
  timings.total = performance.now() - started;
  return version;
}

// Once the worker has been idle for SNAPSHOT_IDLE_MS after the boot (the page's first demo calls
// go first), a restored heap's missing files are placed and the snapshot is stored. The site's
// own snapshot is stored as built. Otherwise the worker makes one of its heap, but never after a
// `run`: the reader's code may change modules or globals, and a snapshot must hold nothing but
// the package as shipped. `call`s only run rankcards' own functions on JSON, and the modules
// they import make the next boot faster.
function scheduleIdleWork() {
  clearTimeout(idleTimer);
  if (!snapshotWanted && !missingFiles) return;
  idleTimer = setTimeout(async () => {
    await placeFiles().catch(() => {}); // a `run` reports it
    if (!snapshotWanted) return;
    snapshotWanted = false;
    const started = performance.now();
    try {
      let heapBytes;
      if (shippedHeap) {
        await storeSnapshot(snapshotKey, encodePages(shippedHeap)); // as built, not as run since
        heapBytes = shippedHeap.length;
        shippedHeap = null;
      } else {
        const heap = pyodide.makeMemorySnapshot();
        await storeSnapshot(snapshotKey, encodePages(heap));
        heapBytes = heap.length;
      }
      timings.snapshot = { ms: performance.now() - started, bytes: heapBytes };
      postMessage({ type: "snapshot", ok: true, timings });
    } catch (error) {
      postMessage({ type: "snapshot", ok: false, error: String(error.message ?? error) });
    }
  }, SNAPSHOT_IDLE_MS);
}

// While the page reacts to "booted", the modules its demos will call are imported. Python errors
// are the demos' to report (the bridge ignores them); only a Stop can interrupt the imports, and
// it was meant for the run queued behind them: the signal is raised again for that run.
function preload(names) {
  try {
    bridge.preload(JSON.stringify(names));
  } catch (error) {
    if (interrupt && error.type === "KeyboardInterrupt") resignal(interrupt);
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

// A `run` waits for the standard library and the archive's files (a restored heap starts
// without them, see `boot`). A `call` goes at once: the demos' modules are in the heap; one that
// fails before the files are there is tried again once they are (rankcards' functions have no
// side effects).
async function handle({ id, type, source, target, args, files, progress }) {
  if (interrupt) dropStaleSignal(interrupt, id);
  if (type === "run") {
    try {
      await placeFiles();
    } catch (error) {
      const message = `rankcards: Python's files did not load (${error.message ?? error})`;
      postMessage({ id, type: "result", ok: false, output: "", error: message, interrupted: false, restart: true });
      return;
    }
    const stdout = (text) => postMessage({ id, type: "stdout", text });
    const stderr = (text) => postMessage({ id, type: "stderr", text });
    const figure = (svg) => postMessage({ id, type: "figure", svg: String(svg) });
    const table = (html) => postMessage({ id, type: "table", html: String(html) });
    try {
      const reply = JSON.parse(bridge.run(source, stdout, stderr, figure, table));
      postMessage({ id, type: "result", interrupted: false, ...reply });
    } catch (error) {
      const interrupted = error.type === "KeyboardInterrupt";
      const restart = !interrupted;
      const message = interrupted ? null : pythonError(error).traceback;
      postMessage({ id, type: "result", ok: false, output: "", error: message, interrupted, restart });
    }
  } else if (type === "call" && (files || progress)) {
    postMessage({ id, type: "result", ...(await longCall(id, target, args, files, progress)) });
  } else if (type === "call") {
    let reply = callBridge(target, args);
    // A Stop is never aimed at a call: one that reached it anyway was signalled as its run was
    // ending (see interrupt.js), and the call is made again.
    if (!reply.ok && reply.error.type === "KeyboardInterrupt") reply = callBridge(target, args);
    if (!reply.ok && missingFiles) {
      await placeFiles().catch(() => {});
      reply = callBridge(target, args);
    }
    postMessage({ id, type: "result", ...reply });
  } else {
    postMessage({ id, type: "result", ok: false, error: { type: "ProtocolError", message: `unknown request type ${type}`, traceback: "" } });
  }
}

function callBridge(target, args, progress) {
  try {
    return { ok: true, result: bridge.call(target, args, progress) };
  } catch (error) {
    return { ok: false, error: pythonError(error) };
  }
}

// A call that reads the reader's files (the evaluate page's): they are mounted read-only with
// WORKERFS, whose reads take a file's bytes with FileReaderSync only as Python asks for them,
// so a large run is never copied whole, nor decoded to text; their paths are passed as keyword
// arguments. Such a call may take seconds: `progress` posts where it is, and a Stop may be
// aimed at it (runtime.js), which ends it as interrupted instead of calling it again.
async function longCall(id, target, args, files, progress) {
  try {
    await placeFiles(); // the standard library (gzip, zlib) of a restored heap
  } catch (error) {
    const message = `rankcards: Python's files did not load (${error.message ?? error})`;
    return { ok: false, error: { type: "Error", message, traceback: "" } };
  }
  const kwargs = JSON.parse(args);
  const folder = `/rankcards-files/${id}`;
  let mounted = false;
  const report = progress ? (done, total) => postMessage({ id, type: "call-progress", done, total }) : undefined;
  try {
    if (files) {
      pyodide.FS.mkdirTree(folder);
      const blobs = Object.entries(files).map(([name, data]) => ({ name, data }));
      pyodide.FS.mount(pyodide.FS.filesystems.WORKERFS, { blobs }, folder);
      mounted = true;
      for (const name of Object.keys(files)) kwargs[name] = `${folder}/${name}`;
    }
    let reply = callBridge(target, JSON.stringify(kwargs), report);
    if (!reply.ok && reply.error.type === "KeyboardInterrupt") {
      if (interrupt && aimedAt(interrupt, id)) return { ...reply, interrupted: true };
      reply = callBridge(target, JSON.stringify(kwargs), report); // a Stop meant for an ended run
    }
    return reply;
  } finally {
    if (mounted) pyodide.FS.unmount(folder);
    if (files) pyodide.FS.rmdir(folder);
  }
}

// The boot starts as soon as this module is loaded: a worker is only ever created to boot, and
// its "boot" message (sent with `new Worker`) is delivered only after the module has run, then
// after the page's own start-up tasks, 10-50 ms later.
const booting = boot();
booting.catch(() => {}); // reported when the "boot" message asks for the outcome

self.onmessage = async ({ data }) => {
  if (data.type === "boot") {
    try {
      const version = await booting;
      interrupt = data.interrupt;
      if (interrupt) pyodide.setInterruptBuffer(interrupt);
      postMessage({ type: "booted", ok: true, version, timings });
      preload(data.preload ?? []);
      scheduleIdleWork();
    } catch (error) {
      postMessage({ type: "booted", ok: false, error: String(error.message ?? error) });
    }
    return;
  }
  if (data.type === "run" && !shippedHeap) snapshotWanted = false;
  requests = requests
    .then(async () => {
      await handle(data);
      scheduleIdleWork();
    })
    .catch((error) => {
      // handle() reports Python's errors as data; anything else must not stall the requests after
      console.error("rankcards worker:", error);
      const message = `rankcards worker: ${error.message ?? error}`;
      if (data.type === "run") {
        postMessage({ id: data.id, type: "result", ok: false, output: "", error: message, interrupted: false, restart: true });
      } else {
        postMessage({ id: data.id, type: "result", ok: false, error: { type: "Error", message, traceback: "" } });
      }
    });
};

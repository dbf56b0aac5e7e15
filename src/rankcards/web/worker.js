// The Pyodide Web Worker behind runtime.js (a module worker; one per tab).
//
// Protocol (postMessage, one request at a time is executed; Python is synchronous):
//   -> {type: "boot", config, interrupt}     config from config.js + `base` (absolute URL of
//                                            assets/rankcards/); interrupt: Int32Array | null
//   <- {type: "progress", progress}          {phase, loaded, total}
//   <- {type: "booted", ok, version, timings, error}   timings: ms spent in the worker
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

let pyodide = null;
const timings = {}; // ms: interpreter (loadPyodide incl. downloads), total (+ archive, bridge)
let bridge = null; // the Python helpers defined in BRIDGE, as a PyProxy

const BRIDGE = `
import json, importlib
from rankcards.runner import run_example

def run(source, on_stdout, on_stderr):
    result = run_example(source, on_stdout=on_stdout, on_stderr=on_stderr)
    fatal = result.error is not None and result.error.rstrip().splitlines()[-1].startswith("MemoryError")
    return json.dumps({"ok": result.ok, "output": result.output, "error": result.error, "restart": fatal})

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

async function boot(config, interrupt) {
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
  const { loadPyodide } = await import(new URL("pyodide.mjs", indexURL).href);
  pyodide = await loadPyodide({
    indexURL,
    stdLibURL: new URL(config.stdlib, base).href,
    packages: [],
  });
  timings.interpreter = performance.now() - started;
  observer.disconnect();
  progress("starting", total, total);
  pyodide.unpackArchive(await archive, "zip");
  if (interrupt) pyodide.setInterruptBuffer(interrupt);
  pyodide.runPython(BRIDGE);
  bridge = {
    run: pyodide.globals.get("run"),
    call: pyodide.globals.get("call"),
  };
  const version = pyodide.runPython("import rankcards; rankcards.__version__");
  timings.total = performance.now() - started;
  if (version !== config.version) {
    throw new Error(
      `rankcards version mismatch: the page was built with ${config.version}, the archive holds ${version}`,
    );
  }
  return version;
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
      const version = await boot(data.config, data.interrupt);
      postMessage({ type: "booted", ok: true, version, timings });
    } catch (error) {
      postMessage({ type: "booted", ok: false, error: String(error.message ?? error) });
    }
    return;
  }
  handle(data);
};

// Starts loadPyodide's downloads, and the compilation of its WebAssembly, at the boot's first
// instant (worker.js only; importing this module changes the worker's `fetch` and
// `WebAssembly.instantiateStreaming`).
//
//   import { prefetch } from "./prefetch.js";
//   prefetch(wasmURL, [otherURL, ...])   once per boot, before loadPyodide
//
// Why: loadPyodide requests pyodide.asm.wasm, the stdlib zip and its lock file only once its own
// scripts are loaded and, on a warm visit, once the memory snapshot has been read from Cache
// Storage; and it compiles the wasm only then. That leaves the network and a core idle for
// 100-250 ms. Here the requests start at once: the worker's `fetch` hands each response out to
// the first request for its URL (Pyodide passes a URL object), and instantiating that wasm
// response uses the module compiled meanwhile (`compileStreaming`, so Chromium's cache of
// compiled wasm still serves warm visits). Any other request goes to the network unchanged.
const networkFetch = globalThis.fetch.bind(globalThis);
const instantiateStreaming = WebAssembly.instantiateStreaming.bind(WebAssembly);
const responses = new Map(); // url -> Promise<Response>, handed out once
const modules = new Map(); // the wasm's Promise<Response> -> Promise<WebAssembly.Module>

globalThis.fetch = (resource, options) => {
  const url = resource instanceof Request ? resource.url : String(resource);
  const response = responses.get(url);
  if (response === undefined) return networkFetch(resource, options);
  responses.delete(url);
  return response;
};

WebAssembly.instantiateStreaming = async (source, imports) => {
  const compiling = modules.get(source);
  if (compiling === undefined) return instantiateStreaming(source, imports);
  modules.delete(source);
  const module = await compiling;
  return { module, instance: await WebAssembly.instantiate(module, imports) };
};

export function prefetch(wasmURL, urls) {
  for (const url of urls) {
    const response = networkFetch(url);
    response.catch(() => {}); // the request Pyodide makes for it reports a failure
    responses.set(url, response);
  }
  const wasm = networkFetch(wasmURL);
  wasm.catch(() => {});
  const compiling = WebAssembly.compileStreaming(wasm);
  compiling.catch(() => {}); // reported when Pyodide instantiates it
  responses.set(wasmURL, wasm);
  modules.set(wasm, compiling);
}

// Pyodide memory snapshots kept in Cache Storage: what makes a second visit's boot fast.
//
//   import { findSnapshot, storeSnapshot, dropSnapshot } from "./snapshot.js";
//
//   findSnapshot(config)        -> Promise<{key, response} | {key, response: null} | null>
//                                  null when this context has no Cache Storage (e.g. a page
//                                  served over plain http): snapshots are then never made
//   storeSnapshot(key, bytes)   -> Promise<void>; keeps only this one snapshot (older site builds'
//                                  entries are deleted)
//   dropSnapshot(key)           -> Promise<void>; never rejects
//
// Why: a snapshot is the whole WebAssembly heap of a booted interpreter with rankcards already
// imported, so loading it skips Python's start-up and the imports (the CPU that dominates a boot
// once the downloads are cached). Pyodide's snapshot API is private (`_makeSnapshot`,
// `_loadSnapshot`, `makeMemorySnapshot`), so a snapshot is only ever reused by the exact build
// that made it: the key names the Pyodide version, the rankcards version and archive name
// (content-hashed), the stdlib URL and byte total, and the browser's user agent (a browser update
// may change how the heap is laid out). worker.js also verifies every loaded snapshot and, on
// any failure, drops it and boots normally.
const CACHE = "rankcards-snapshots";

export async function findSnapshot(config) {
  if (!globalThis.caches) return null;
  try {
    const parts = [config.pyodideVersion, config.version, config.package, config.stdlib];
    parts.push(String(config.bytes), navigator.userAgent);
    // A URL nobody serves: only the Cache Storage key of this build's snapshot (the parts are
    // spelled out: hashing them with crypto.subtle only added time to every boot).
    const name = parts.map(encodeURIComponent).join("/");
    const key = new URL(`snapshot/${name}`, config.base).href;
    const cache = await caches.open(CACHE);
    return { key, response: (await cache.match(key)) ?? null };
  } catch {
    return null; // storage disabled or full: boot normally, without snapshots
  }
}

export async function storeSnapshot(key, bytes) {
  const cache = await caches.open(CACHE);
  for (const request of await cache.keys()) {
    if (request.url !== key) await cache.delete(request);
  }
  const headers = { "Content-Type": "application/octet-stream" };
  await cache.put(key, new Response(bytes, { headers }));
}

export async function dropSnapshot(key) {
  try {
    await (await caches.open(CACHE)).delete(key);
  } catch {
    // nothing stored, or no storage: nothing to drop
  }
}

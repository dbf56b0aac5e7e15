// Pyodide memory snapshots: their stored layout, the one the site ships (what makes a first
// visit's boot fast) and the copy kept in Cache Storage (a second visit's).
//
//   import { findSnapshot, fetchShipped, readSnapshot, storeSnapshot, ... } from "./snapshot.js";
//
//   findSnapshot(config, heapCode)
//                               -> Promise<{key, response} | {key, response: null} | null>
//                                  heapCode: the Python the worker runs into every heap it
//                                  snapshots (its bridge), part of the key
//                                  null when this context has no Cache Storage (e.g. a page
//                                  served over plain http): snapshots are then never made
//   encodePages(heap)           -> Blob: the heap in the stored layout (below)
//   storeSnapshot(key, encoded) -> Promise<void>; keeps only this one snapshot (older site builds'
//                                  entries are deleted); encoded: a Blob or bytes in that layout
//   readSnapshot(response)      -> Promise<Uint8Array>: the heap in a response of that layout
//                                  (from Cache Storage, or the snapshot the site ships); rejects
//                                  when the bytes are not a whole snapshot
//   dropSnapshot(key)           -> Promise<void>; never rejects
//   fetchShipped(url, onChunk)  -> Promise<Uint8Array>: the heap in the snapshot the site
//                                  ships; it is gzipped at build and unpacked as it downloads
//                                  (bytes a host already decompressed are taken as they are);
//                                  onChunk(n) for every n bytes received
//
// Why: a snapshot is the whole WebAssembly heap of a booted interpreter with rankcards already
// imported, so loading it skips Python's start-up and the imports (the CPU that dominates a boot
// once the downloads are cached). Pyodide's snapshot API is private (`_makeSnapshot`,
// `_loadSnapshot`, `makeMemorySnapshot`), so a snapshot is only ever reused by the exact build
// that made it: the key names the Pyodide version, the rankcards version and archive name
// (content-hashed), the stdlib URL and byte total, a hash of the worker's bridge code (held in
// the heap), the storage layout, and the browser's user agent (a browser update may change how
// the heap is laid out). worker.js also verifies every loaded snapshot and, on any failure,
// drops a stored one and boots normally. The shipped one is made at site build by
// build_snapshot.mjs, named by what it was made from.
//
// Why pages: a booted heap is ~31 MB of which ~60 % are 4 KiB pages of zeros. Only the other
// pages are stored, after a bitmap of which pages they are: reading ~13 MB from Cache Storage
// instead of 31 MB is what a warm boot waits for, and zeros cost nothing to restore (a fresh
// Uint8Array is zeroed). Layout: magic "RCS1", heap length (u32 LE), bitmap, the pages.
const CACHE = "rankcards-snapshots";
const PAGE = 4096;
const MAGIC = 0x31534352; // "RCS1" read as a little-endian u32

export async function findSnapshot(config, heapCode) {
  if (!globalThis.caches) return null;
  try {
    const parts = [config.pyodideVersion, config.version, config.package, config.stdlib];
    parts.push(String(config.bytes), hash(heapCode), "RCS1", navigator.userAgent);
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

export async function storeSnapshot(key, encoded) {
  const cache = await caches.open(CACHE);
  for (const request of await cache.keys()) {
    if (request.url !== key) await cache.delete(request);
  }
  const headers = { "Content-Type": "application/octet-stream" };
  await cache.put(key, new Response(encoded, { headers }));
}

export async function readSnapshot(response) {
  return decodePages(response.body);
}

// The stored layout is decoded as it streams in, each page written straight to its place in the
// heap: no copy of the whole file is held, and the decoding overlaps the read.
async function decodePages(stream) {
  const reader = stream.getReader();
  const header = new Uint8Array(8);
  let bitmap = null; // once the header is in
  let heap = null; // once the bitmap is in
  let length = 0;
  let pages = 0;
  let page = 0; // the page being filled (pages: none left)
  let filled = 0; // bytes of the current part (header, bitmap or page) received
  const nextPage = (from) => {
    let next = from;
    while (next < pages && !(bitmap[next >> 3] & (1 << (next & 7)))) next += 1;
    return next;
  };
  const startPages = () => {
    heap = new Uint8Array(length); // zeroed: the pages left out
    page = nextPage(0);
  };
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    let offset = 0;
    // Copies the chunk's next bytes into `target` (the part being received); true once it is full.
    const fill = (target) => {
      const n = Math.min(target.length - filled, value.length - offset);
      target.set(value.subarray(offset, offset + n), filled);
      filled += n;
      offset += n;
      if (filled < target.length) return false;
      filled = 0;
      return true;
    };
    while (offset < value.length) {
      if (bitmap === null) {
        if (!fill(header)) continue;
        const view = new DataView(header.buffer);
        if (view.getUint32(0, true) !== MAGIC) throw new Error("not a snapshot");
        length = view.getUint32(4, true);
        pages = Math.ceil(length / PAGE);
        bitmap = new Uint8Array(Math.ceil(pages / 8));
        if (bitmap.length === 0) startPages();
      } else if (heap === null) {
        if (fill(bitmap)) startPages();
      } else {
        if (page >= pages) throw new Error("snapshot of the wrong length");
        const start = page * PAGE;
        if (fill(heap.subarray(start, Math.min(start + PAGE, length)))) page = nextPage(page + 1);
      }
    }
  }
  if (heap === null || page < pages) throw new Error("truncated snapshot");
  return heap;
}

// 32-bit FNV-1a: tells two versions of a short text apart, nothing more (not a digest).
function hash(text) {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(16);
}

function isZero(words, first, end) {
  for (let i = first; i < end; i += 1) if (words[i] !== 0) return false;
  return true;
}

export function encodePages(snapshot) {
  const heap = snapshot.byteOffset % 4 === 0 ? snapshot : snapshot.slice(); // aligned for words
  const pages = Math.ceil(heap.length / PAGE);
  const bitmap = new Uint8Array(Math.ceil(pages / 8));
  // Whole 4-byte words; a heap's length is a multiple of its 64 KiB wasm pages, the tail only
  // matters for odd lengths and is compared byte by byte.
  const words = new Uint32Array(heap.buffer, heap.byteOffset, heap.length >> 2);
  const kept = [];
  for (let page = 0; page < pages; page += 1) {
    const start = page * PAGE;
    const end = Math.min(start + PAGE, heap.length);
    const zero = isZero(words, start >> 2, end >> 2) && heap.subarray(end & ~3, end).every((b) => b === 0);
    if (zero) continue;
    bitmap[page >> 3] |= 1 << (page & 7);
    kept.push(heap.subarray(start, end));
  }
  const header = new DataView(new ArrayBuffer(8));
  header.setUint32(0, MAGIC, true);
  header.setUint32(4, heap.length, true);
  return new Blob([header, bitmap, ...kept]);
}

export async function dropSnapshot(key) {
  try {
    await (await caches.open(CACHE)).delete(key);
  } catch {
    // nothing stored, or no storage: nothing to drop
  }
}

export async function fetchShipped(url, onChunk) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  const reader = response.body.getReader();
  const first = await reader.read();
  let body = new ReadableStream({
    start(controller) {
      if (first.done) return controller.close();
      onChunk(first.value.length);
      controller.enqueue(first.value);
    },
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) return controller.close();
      onChunk(value.length);
      controller.enqueue(value);
    },
  });
  // A gzip stream starts with 0x1f; the stored layout with "R" (its magic).
  if (!first.done && first.value[0] === 0x1f) body = body.pipeThrough(new DecompressionStream("gzip"));
  return decodePages(body);
}

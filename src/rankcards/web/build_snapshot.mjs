// Make the Pyodide memory snapshot the site ships: a booted interpreter with the whole rankcards
// archive imported and worker.js's bridge defined, in snapshot.js's stored layout, gzipped.
//
// Why: a first visit then restores it instead of starting Python (~0.5 s of CPU in the reader's
// browser: CPython's start-up, 195 modules). The snapshot replaces the standard library on the
// boot's critical path (worker.js mounts the library once it has downloaded, and the heap's zip
// importer already knows its table of contents), so the bytes a boot waits for stay about the
// same. Run by `rankcards.web._build.memory_snapshot` at site build:
//
//   node build_snapshot.mjs <pyodide dir> <stdlib.zip> <package.zip> <output>
//
// The stdlib must be the very zip the site ships. Pyodide's snapshot API is private: worker.js
// checks every restored heap and boots normally when one fails. A restored interpreter keeps
// what this one computed at start-up: the time zone constants of the `time` module are UTC's
// (the build runs with TZ=UTC), though time.localtime() gives the reader's local time.
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";
import { BRIDGE } from "./bridge.js";
import { encodePages } from "./snapshot.js";

const [pyodideDir, stdlibPath, packagePath, outPath] = process.argv.slice(2);
if (!pyodideDir || !stdlibPath || !packagePath || !outPath) {
  console.error("build_snapshot: usage: node build_snapshot.mjs <pyodide dir> <stdlib.zip> <package.zip> <output>");
  process.exit(2);
}
// The heap keeps the program's name (sys.executable, sys.orig_argv, $_): the one a browser gives
// ("./this.program"), not this script's path on the build machine, which Node would.
process.argv[1] = "./this.program";
const { loadPyodide } = await import(pathToFileURL(path.join(pyodideDir, "pyodide.mjs")).href);
const pyodide = await loadPyodide({
  indexURL: path.resolve(pyodideDir) + path.sep,
  stdLibURL: path.resolve(stdlibPath),
  packages: [],
  _makeSnapshot: true,
});
pyodide.unpackArchive(new Uint8Array(await readFile(packagePath)), "zip");
pyodide.runPython(BRIDGE);
pyodide.runPython(`
import gc, importlib, pkgutil, rankcards
for module in pkgutil.walk_packages(rankcards.__path__, "rankcards."):
    importlib.import_module(module.name)
gc.collect()
`);
zeroFreeMemory(pyodide._module);
const encoded = encodePages(pyodide.makeMemorySnapshot());
// Compressed here rather than left to the host: static hosts rarely compress octet-streams.
await writeFile(outPath, gzipSync(new Uint8Array(await encoded.arrayBuffer()), { level: 9 }));

// Free heap memory still holds what was freed (the .pyc read during the imports...): zeroed, its
// pages are left out of the stored layout. Every free block is allocated once, without growing
// the heap (the footprint limit), filled with zeros and freed again. Only a smaller file is at
// stake, so a Pyodide without these allocator functions is left as it is.
function zeroFreeMemory(module) {
  const { _malloc: malloc, _free: free } = module;
  const { _malloc_footprint: footprint, _malloc_set_footprint_limit: setLimit } = module;
  if (![malloc, free, footprint, setLimit].every((f) => typeof f === "function")) return;
  setLimit(footprint());
  const blocks = [];
  for (let size = 1 << 24; size >= 8; ) {
    const block = malloc(size);
    if (block === 0) {
      size >>= 1;
      continue;
    }
    module.HEAPU8.fill(0, block, block + size);
    blocks.push(block);
  }
  for (const block of blocks) free(block);
  setLimit(-1); // no limit again (SIZE_MAX)
}

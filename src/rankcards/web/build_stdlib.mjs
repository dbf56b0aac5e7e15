// Build a standard-library zip of bytecode compiled by the very Pyodide the site ships.
//
// Why: stock Pyodide spends most of its boot compiling the standard library's .py files; a zip of
// .pyc produced by the same Pyodide build (so the bytecode matches its exact CPython) and passed
// with `stdLibURL` boots about 3x faster. Run by `rankcards.web.write_assets` at site build:
//
//   node build_stdlib.mjs <path/to/node_modules/pyodide> <output.zip>
//
// Data files are copied unchanged; each .py becomes an unchecked hash-based .pyc next to where
// the .py was (zipimport's layout), so no source is read or compiled in the reader's browser.
// The zip is the same bytes on every build (the .pyc keep their source's date): the snapshot the
// site ships is made with it, and browsers cache it under a URL named by Pyodide's version only.
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";

const [pyodideDir, outPath] = process.argv.slice(2);
if (!pyodideDir || !outPath) {
  console.error("build_stdlib: usage: node build_stdlib.mjs <pyodide dir> <output.zip>");
  process.exit(2);
}
const { loadPyodide } = await import(pathToFileURL(path.join(pyodideDir, "pyodide.mjs")).href);
const pyodide = await loadPyodide({ indexURL: path.resolve(pyodideDir) + path.sep });
const compiled = pyodide.runPython(`
import io, sys, zipfile
from importlib._bootstrap_external import _code_to_hash_pyc
from importlib.util import source_hash

stdlib = f"/lib/python{sys.version_info[0]}{sys.version_info[1]}.zip"
buffer = io.BytesIO()
with zipfile.ZipFile(stdlib) as source, zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as out:
    for info in source.infolist():
        data = source.read(info)
        if info.filename.endswith(".py"):
            code = compile(data, f"{stdlib}/{info.filename}", "exec", dont_inherit=True)
            pyc = zipfile.ZipInfo(info.filename + "c", info.date_time)  # not the build's time
            pyc.compress_type = zipfile.ZIP_DEFLATED
            out.writestr(pyc, bytes(_code_to_hash_pyc(code, source_hash(data), False)))
        else:
            out.writestr(info, data)
buffer.getvalue()
`);
await writeFile(outPath, compiled.toJs());
compiled.destroy();

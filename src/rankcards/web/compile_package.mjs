// Add bytecode compiled by the very Pyodide the site ships to the rankcards package zip.
//
// Why: the first demo call imports rankcards' view and metric modules; compiling their .py
// sources in the reader's browser took 200-300 ms of a cold visit. Each .py keeps its source (for
// tracebacks and `inspect`) and gains an unchecked hash-based .pyc in its __pycache__ under
// Pyodide's cache tag, which the import system loads without reading or compiling the source.
// Run by `rankcards.web._build.package_archive` at site build:
//
//   node compile_package.mjs <path/to/node_modules/pyodide> <sources.zip> <output.zip>
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";

const [pyodideDir, sourcePath, outPath] = process.argv.slice(2);
if (!pyodideDir || !sourcePath || !outPath) {
  console.error("compile_package: usage: node compile_package.mjs <pyodide dir> <in.zip> <out.zip>");
  process.exit(2);
}
const { loadPyodide } = await import(pathToFileURL(path.join(pyodideDir, "pyodide.mjs")).href);
const pyodide = await loadPyodide({ indexURL: path.resolve(pyodideDir) + path.sep });
pyodide.FS.writeFile("/tmp/sources.zip", await readFile(sourcePath));
const compiled = pyodide.runPython(`
import io, zipfile
from importlib._bootstrap_external import _code_to_hash_pyc
from importlib.util import cache_from_source, source_hash

buffer = io.BytesIO()
with zipfile.ZipFile("/tmp/sources.zip") as source, zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as out:
    for info in source.infolist():
        data = source.read(info)
        out.writestr(info, data)
        if info.filename.endswith(".py"):
            code = compile(data, info.filename, "exec", dont_inherit=True)
            pyc = zipfile.ZipInfo(cache_from_source(info.filename), info.date_time)
            out.writestr(pyc, bytes(_code_to_hash_pyc(code, source_hash(data), False)))
buffer.getvalue()
`);
await writeFile(outPath, compiled.toJs());
compiled.destroy();

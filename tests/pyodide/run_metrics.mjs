// Run the metrics doctests, unit tests and trec_eval conformance checks INSIDE Pyodide (Node).
//
// usage: node run_metrics.mjs ARCHIVE.zip TESTS_DIR [REFERENCE_DIR]
//   ARCHIVE.zip    the rankcards package archive the site ships to the browser
//   TESTS_DIR      tests/ (its metrics/ and pyodide/ folders are copied into Pyodide)
//   REFERENCE_DIR  trec_eval reference data (optional: conformance tests then skip)
// Prints one line per failure and, last, a JSON summary; exits 1 if anything failed.
import { readFileSync, readdirSync, existsSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const [archive, testsDir, referenceDir] = process.argv.slice(2);
if (!archive || !testsDir) {
  console.error("usage: node run_metrics.mjs ARCHIVE.zip TESTS_DIR [REFERENCE_DIR]");
  process.exit(2);
}
const pyodideDir = process.env.RANKCARDS_PYODIDE_DIR ?? join(here, "..", "..", "node_modules", "pyodide");
const { loadPyodide } = await import(join(pyodideDir, "pyodide.mjs"));
const pyodide = await loadPyodide({ indexURL: pyodideDir + "/" });

// The package: unpacked from the archive bytes (unpackArchive needs a Uint8Array, not a Buffer).
pyodide.unpackArchive(new Uint8Array(readFileSync(archive)), "zip");

function copyTree(from, to, keep) {
  pyodide.FS.mkdirTree(to);
  for (const name of readdirSync(from)) {
    if (keep(name)) pyodide.FS.writeFile(`${to}/${name}`, new Uint8Array(readFileSync(join(from, name))));
  }
}
copyTree(join(testsDir, "metrics"), "/tests/metrics", (name) => name.endsWith(".py"));
copyTree(join(testsDir, "pyodide"), "/tests/pyodide", (name) => name.endsWith(".py"));
let reference = "";
if (referenceDir && existsSync(join(referenceDir, "out.test"))) {
  copyTree(referenceDir, "/reference", (name) => !name.endsWith(".md"));
  reference = "/reference";
}

pyodide.runPython("import sys; sys.path.insert(0, '/tests/pyodide')");
const runner = pyodide.pyimport("pyodide_runner");
const summary = JSON.parse(runner.main("/tests/metrics", reference));
for (const failure of summary.failures) console.log(`FAIL ${failure}`);
console.log(JSON.stringify({ ...summary, failures: summary.failures.length }));
process.exit(summary.failures.length === 0 ? 0 : 1);

// Run the comparison tests and a set of comparisons INSIDE Pyodide (Node).
//
// usage: node run_compare.mjs ARCHIVE.zip TESTS_DIR [RUNNER]
//   ARCHIVE.zip    the rankcards package archive the site ships to the browser
//   TESTS_DIR      tests/ (its metrics/ and pyodide/ folders are copied into Pyodide)
//   RUNNER         the module of tests/pyodide whose main(tests_dir) runs (compare_runner, or
//                  agree_runner for the agreement functions)
// Prints one line per failure and, last, the JSON summary of the runner's main; exits 1 if a
// test failed.
import { readFileSync, readdirSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const [archive, testsDir, runnerName = "compare_runner"] = process.argv.slice(2);
if (!archive || !testsDir) {
  console.error("usage: node run_compare.mjs ARCHIVE.zip TESTS_DIR [RUNNER]");
  process.exit(2);
}
const pyodideDir = process.env.RANKCARDS_PYODIDE_DIR ?? join(here, "..", "..", "node_modules", "pyodide");
const { loadPyodide } = await import(join(pyodideDir, "pyodide.mjs"));
const pyodide = await loadPyodide({ indexURL: pyodideDir + "/" });
pyodide.unpackArchive(new Uint8Array(readFileSync(archive)), "zip");

function copyTree(from, to) {
  pyodide.FS.mkdirTree(to);
  for (const name of readdirSync(from)) {
    if (name.endsWith(".py")) pyodide.FS.writeFile(`${to}/${name}`, new Uint8Array(readFileSync(join(from, name))));
  }
}
copyTree(join(testsDir, "metrics"), "/tests/metrics");
copyTree(join(testsDir, "pyodide"), "/tests/pyodide");

pyodide.runPython("import sys; sys.path.insert(0, '/tests/pyodide')");
const runner = pyodide.pyimport(runnerName);
const text = runner.main("/tests/metrics");
const summary = JSON.parse(text);
for (const failure of summary.failures) console.log(`FAIL ${failure}`);
console.log(text);
process.exit(summary.failures.length === 0 ? 0 : 1);

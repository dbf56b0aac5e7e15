// The "Evaluate your own run" page (templates/evaluate.html.jinja): takes a qrels and a run
// (dropped, chosen or pasted) and evaluates them in the Pyodide worker with rankcards.metrics
// (rankcards.viz._evaluate:evaluate_run_files, the path of `rankcards eval -j 1`), then shows a
// sortable per-query table with CSV and JSON downloads made from Blob URLs.
//
//   import { mountEvaluate } from "./evaluate.js";   mountEvaluate(root = document)
//
// Why the files go to the worker as they are (File objects; a pasted text as a Blob): the
// worker mounts them and Python reads their bytes in blocks as it evaluates (gzip inflated as it
// goes, by Python like the CLI), so this page never holds, decodes or copies a large run, and
// the evaluation reports how far it has read: the <progress> bar moves, the page stays
// responsive, and Cancel stops it (runtime.stop()).
// Why everything stays local: a reader's run and judgments may be private, so the files are only
// read with File/Blob APIs in this tab's worker; no request ever carries them.
// The root's data-rc-state is idle | running | done | error | cancelled; a `rankcards:evaluated`
// CustomEvent {detail: {ms, queries}} fires on it after each evaluation.
import { runtime } from "./runtime.js";

const ENTRY = "rankcards.viz._evaluate:evaluate_run_files";
const format = (template, values) =>
  template.replace(/\{(\w+)\}/g, (_, key) => String(values[key] ?? ""));

function size(bytes) {
  if (bytes >= 100_000) return `${(bytes / 1e6).toFixed(1)} MB`;
  return bytes >= 1000 ? `${(bytes / 1e3).toFixed(1)} kB` : `${bytes} B`;
}

function csvCell(text) {
  return /[",\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

class Evaluator {
  #root;
  #t;
  #inputs = { qrels: null, run: null }; // a chosen or dropped File, or null to use the textarea
  #task = null; // the evaluation under way: {cancelled, cancel}
  #result = null;
  #sort = { column: -1, descending: false };
  #urls = [];

  constructor(root) {
    this.#root = root;
    this.#t = root.dataset;
    for (const part of ["qrels", "run"]) this.#bindInput(part);
    root.querySelector("[data-rc-eval-form]").addEventListener("submit", (event) => {
      event.preventDefault();
      this.evaluate();
    });
    this.#q("[data-rc-eval-cancel]").addEventListener("click", () => this.cancel());
    root.dataset.rcState = "idle";
  }

  #q(selector) {
    return this.#root.querySelector(selector);
  }

  #bindInput(part) {
    const zone = this.#q(`[data-rc-drop="${part}"]`);
    const input = this.#q(`[data-rc-file="${part}"]`);
    const text = this.#q(`[data-rc-text="${part}"]`);
    input.addEventListener("change", () => input.files[0] && this.#load(part, input.files[0]));
    text.addEventListener("input", () => {
      this.#inputs[part] = null;
      this.#q(`[data-rc-loaded="${part}"]`).textContent = "";
    });
    zone.addEventListener("dragover", (event) => {
      event.preventDefault();
      zone.classList.add("rc-eval-over");
    });
    zone.addEventListener("dragleave", () => zone.classList.remove("rc-eval-over"));
    zone.addEventListener("drop", (event) => {
      event.preventDefault();
      zone.classList.remove("rc-eval-over");
      const file = event.dataTransfer.files[0];
      if (file) this.#load(part, file);
    });
  }

  // A file is only named here: it is read by the worker when Evaluate is pressed.
  #load(part, file) {
    this.#inputs[part] = file;
    this.#q(`[data-rc-text="${part}"]`).value = "";
    const loaded = this.#q(`[data-rc-loaded="${part}"]`);
    loaded.textContent = format(this.#t.tLoaded, { name: file.name, size: size(file.size) });
  }

  #source(part) {
    if (this.#inputs[part]) return { name: this.#inputs[part].name, blob: this.#inputs[part] };
    const text = this.#q(`[data-rc-text="${part}"]`).value;
    return text.trim() ? { name: part, blob: new Blob([text]) } : null;
  }

  #showRunning(running) {
    this.#q("[data-rc-evaluate-button]").disabled = running;
    this.#q("[data-rc-eval-progress]").hidden = !running;
    const bar = this.#q("[data-rc-progress]");
    bar.removeAttribute("value"); // indeterminate until the worker reports
    bar.max = 1;
  }

  #progress(done, total) {
    const bar = this.#q("[data-rc-progress]");
    bar.max = Math.max(total, 1);
    bar.value = Math.min(done, bar.max);
  }

  // Stop the evaluation under way: the worker's Python is interrupted (or the worker replaced,
  // see runtime.stop), and the page can evaluate again at once.
  cancel() {
    if (!this.#task) return;
    this.#task.cancelled = true;
    this.#task.cancel(); // the page is free at once, even while Python is still booting
    runtime.stop();
  }

  async evaluate() {
    if (this.#task) return;
    const errors = this.#q("[data-rc-eval-errors]");
    const status = this.#q("[data-rc-eval-status]");
    errors.replaceChildren();
    const qrels = this.#source("qrels");
    const run = this.#source("run");
    if (!qrels || !run) {
      errors.textContent = this.#t.tMissing;
      this.#root.dataset.rcState = "error";
      return;
    }
    const task = { cancelled: false, cancel: null };
    const cancelled = new Promise((resolve) => {
      task.cancel = resolve;
    });
    this.#task = task;
    this.#root.dataset.rcState = "running";
    this.#showRunning(true);
    status.textContent = this.#t.tRunning;
    const started = performance.now();
    let reply;
    try {
      await Promise.race([runtime.ensure(), cancelled]);
      if (!task.cancelled) {
        const call = runtime.call(
          ENTRY,
          {
            qrels_name: qrels.name,
            run_name: run.name,
            measures: this.#q("[data-rc-measures]").value,
            complete: this.#q("[data-rc-complete]").checked,
            level: Number(this.#q("[data-rc-level]").value || 1),
          },
          {
            files: { qrels: qrels.blob, run: run.blob },
            onProgress: (done, total) => this.#progress(done, total),
          },
        );
        call.catch(() => {}); // once cancelled, its end is of no interest
        reply = await Promise.race([call, cancelled]);
      }
    } catch (error) {
      reply = { ok: false, error: error.message };
    } finally {
      this.#task = null;
      this.#showRunning(false);
    }
    if (task.cancelled) {
      status.textContent = this.#t.tCancelled;
      this.#root.dataset.rcState = "cancelled";
      return;
    }
    status.textContent = "";
    if (!reply.ok) {
      errors.textContent = reply.error;
      this.#q("[data-rc-eval-results]").hidden = true;
      this.#root.dataset.rcState = "error";
      return;
    }
    this.#result = reply;
    this.#sort = { column: -1, descending: false };
    this.#renderTable();
    this.#makeDownloads();
    this.#q("[data-rc-eval-results]").hidden = false;
    const ms = Math.round(performance.now() - started);
    const queries = reply.rows.length - 1;
    status.textContent = format(this.#t.tDone, { n: queries, ms });
    this.#root.dataset.rcState = "done";
    this.#root.dispatchEvent(new CustomEvent("rankcards:evaluated", { detail: { ms, queries } }));
  }

  #sortedRows() {
    const [all, ...rows] = this.#result.rows;
    const { column, descending } = this.#sort;
    if (column >= 0) {
      const key = (row) => (column === 0 ? row.qid : (row.values[column - 1] ?? -Infinity));
      rows.sort((a, b) => {
        const [x, y] = [key(a), key(b)];
        const order = typeof x === "string" ? x.localeCompare(y, undefined, { numeric: true }) : x - y;
        return descending ? -order : order;
      });
    }
    return [all, ...rows];
  }

  #renderTable() {
    const { measures } = this.#result;
    const counters = new Set(this.#result.counters);
    const table = document.createElement("table");
    table.className = "rc-table";
    table.createCaption().textContent = this.#t.tCaption;
    const head = table.createTHead().insertRow();
    [this.#t.tQuery, ...measures].forEach((name, column) => {
      const th = document.createElement("th");
      th.scope = "col";
      const sorted = this.#sort.column === column;
      th.setAttribute("aria-sort", sorted ? (this.#sort.descending ? "descending" : "ascending") : "none");
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = name + (sorted ? (this.#sort.descending ? " ▼" : " ▲") : "");
      button.setAttribute("aria-label", format(this.#t.tSort, { col: name }));
      button.addEventListener("click", () => this.#sortBy(column));
      th.append(button);
      head.append(th);
    });
    const body = table.createTBody();
    this.#sortedRows().forEach((row, index) => {
      const tr = body.insertRow();
      tr.dataset.qid = row.qid;
      if (index === 0) tr.className = "rc-eval-all"; // the aggregate row stays first
      const th = document.createElement("th");
      th.scope = "row";
      th.textContent = index === 0 ? this.#t.tAll : row.qid;
      tr.append(th);
      row.values.forEach((value, index) => {
        const td = tr.insertCell();
        td.className = "rc-eval-num";
        td.dataset.measure = measures[index];
        td.dataset.value = String(value);
        if (value !== null) td.textContent = counters.has(measures[index]) ? String(value) : value.toFixed(4);
      });
    });
    this.#q("[data-rc-eval-table]").replaceChildren(table);
  }

  #sortBy(column) {
    const same = this.#sort.column === column;
    this.#sort = { column, descending: same ? !this.#sort.descending : column > 0 };
    this.#renderTable();
    this.#q(`[data-rc-eval-table] th:nth-child(${column + 1}) button`).focus();
  }

  #makeDownloads() {
    for (const url of this.#urls) URL.revokeObjectURL(url);
    const { measures, rows } = this.#result;
    const csv = [["qid", ...measures], ...rows.map((row) => [row.qid, ...row.values.map((v) => (v === null ? "" : String(v)))])]
      .map((cells) => cells.map(csvCell).join(","))
      .join("\n");
    const { json } = this.#result; // exactly `rankcards eval --format json`
    const make = (kind, text, type) => {
      const url = URL.createObjectURL(new Blob([`${text}\n`], { type }));
      this.#q(`[data-rc-download="${kind}"]`).href = url;
      this.#urls.push(url);
    };
    this.#urls = [];
    make("csv", csv, "text/csv");
    make("json", json, "application/json");
  }
}

const mounted = new WeakSet();

export function mountEvaluate(root = document) {
  for (const element of root.querySelectorAll("[data-rc-evaluate]")) {
    if (mounted.has(element)) continue;
    mounted.add(element);
    new Evaluator(element);
    runtime.ensure().catch(() => {}); // the runtime shows its own error state with Retry
  }
}

if (globalThis.document$?.subscribe) {
  globalThis.document$.subscribe(() => mountEvaluate());
} else if (document.readyState === "loading") {
  document.addEventListener("DOMContentLoaded", () => mountEvaluate(), { once: true });
} else {
  mountEvaluate();
}

// The "Evaluate your own run" page (templates/evaluate.html.jinja): reads a qrels and a run
// (dropped, chosen or pasted; gzip detected by its magic bytes and inflated with
// DecompressionStream), evaluates them in the Pyodide worker with rankcards.metrics
// (rankcards.viz._evaluate:evaluate_texts) and shows a sortable per-query table with CSV and
// JSON downloads made from Blob URLs.
//
//   import { mountEvaluate } from "./evaluate.js";   mountEvaluate(root = document)
//
// Why everything stays local: a reader's run and judgments may be private, so the files are only
// read with File/Blob APIs and handed to the worker; no request ever carries them.
// The root's data-rc-state is idle | running | done | error; a `rankcards:evaluated` CustomEvent
// {detail: {ms, queries}} fires on it after each evaluation.
import { runtime } from "./runtime.js";

const ENTRY = "rankcards.viz._evaluate:evaluate_texts";
const format = (template, values) =>
  template.replace(/\{(\w+)\}/g, (_, key) => String(values[key] ?? ""));

async function readText(file) {
  let bytes = new Uint8Array(await file.arrayBuffer());
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) {
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    bytes = new Uint8Array(await new Response(stream).arrayBuffer());
  }
  return new TextDecoder("utf-8", { fatal: true }).decode(bytes); // like the CLI: no silent U+FFFD
}


function csvCell(text) {
  return /[",\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

class Evaluator {
  #root;
  #t;
  #inputs = { qrels: null, run: null }; // {name, text} from a file, or null to use the textarea
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

  async #load(part, file) {
    const loaded = this.#q(`[data-rc-loaded="${part}"]`);
    try {
      const text = await readText(file);
      this.#inputs[part] = { name: file.name, text };
      this.#q(`[data-rc-text="${part}"]`).value = "";
      const lines = text.split("\n").filter((line) => line.trim()).length;
      loaded.textContent = format(this.#t.tLoaded, { name: file.name, lines });
    } catch (error) {
      this.#inputs[part] = null;
      loaded.textContent = `${file.name}: ${error.message}`;
    }
  }

  #source(part) {
    if (this.#inputs[part]) return this.#inputs[part];
    const text = this.#q(`[data-rc-text="${part}"]`).value;
    return text.trim() ? { name: part, text } : null;
  }

  async evaluate() {
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
    this.#root.dataset.rcState = "running";
    status.textContent = this.#t.tRunning;
    const started = performance.now();
    let reply;
    try {
      reply = await runtime.call(ENTRY, {
        qrels: qrels.text,
        run: run.text,
        qrels_name: qrels.name,
        run_name: run.name,
        measures: this.#q("[data-rc-measures]").value,
        complete: this.#q("[data-rc-complete]").checked,
        level: Number(this.#q("[data-rc-level]").value || 1),
      });
    } catch (error) {
      reply = { ok: false, error: error.message };
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

// The "Evaluate your own run" page (templates/evaluate.html.jinja): takes a qrels and a run
// (dropped, chosen or pasted) and evaluates them in the Pyodide worker with rankcards.metrics
// (rankcards.viz._evaluate:evaluate_run_files, the path of `rankcards eval -j 1`), then shows a
// sortable per-query table with CSV and JSON downloads made from Blob URLs. With two or more
// runs it compares them instead (rankcards.viz._compare_view:compare_run_files, the numbers of
// `rankcards compare --format json`): a table of means, differences to the baseline (the first
// run), p-values, intervals, effect sizes and wins/losses/ties, each number in data-metric /
// data-value, a per-query difference chart (rankcards.viz._compare_chart, SVG made in Python,
// drawn at the width it is shown at so that its numbers stay legible) and CSV and JSON downloads.
//
// The results always match the controls: changing an option (measures, -c, -l, and with a
// comparison shown the test, correction, alpha, samples or seed) evaluates again; a change made
// while an evaluation runs is applied when it ends, whose reply is then dropped unseen (the
// results on screen are marked busy meanwhile).
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
// The root's data-rc-state is idle | running | done | error | cancelled (data-rc-chart-state:
// drawing | ready, the difference chart's); a `rankcards:evaluated`
// CustomEvent {detail: {ms, queries, runs}} fires on it after each evaluation or comparison.
import { mountAgreement } from "./evaluate_agree.js";
import { runtime } from "./runtime.js";
import { eachPage } from "./pages.js";

const ENTRY = "rankcards.viz._evaluate:evaluate_run_files";
const COMPARE = "rankcards.viz._compare_view:compare_run_files";
const CHART = "rankcards.viz._compare_chart:difference_chart";
// The comparison options' defaults (the CLI's): one run with any other value is an error.
const COMPARE_DEFAULTS = { test: "t", correction: "none", alpha: 0.05, samples: 10000, seed: 0 };
const format = (template, values) =>
  template.replace(/\{(\w+)\}/g, (_, key) => String(values[key] ?? ""));

function size(bytes) {
  if (bytes >= 100_000) return `${(bytes / 1e6).toFixed(1)} MB`;
  return bytes >= 1000 ? `${(bytes / 1e3).toFixed(1)} kB` : `${bytes} B`;
}

function pText(p) {
  // as the CLI's table: four decimals, or two significant digits below 0.0001
  return p >= 1e-4 || p === 0 ? p.toFixed(4) : p.toExponential(1);
}

const signed = (value) => (value < 0 ? "" : "+") + value.toFixed(4);

function csvCell(text) {
  return /[",\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

class Evaluator {
  #root;
  #t;
  #inputs = { qrels: null }; // a chosen or dropped qrels File, or null to use the textarea
  #runs = []; // {name, blob, size, chosen}: files chosen, dropped, or pasted runs added
  #task = null; // the evaluation under way: {cancelled, cancel}
  #result = null;
  #comparison = null; // the last comparison's reply, for the chart and the downloads
  #chartWidth = 0; // the width the chart was drawn at
  #shownSettings = ""; // the settings (#settings) of the results shown, as JSON
  #sort = { column: -1, descending: false };
  #urls = [];

  constructor(root) {
    this.#root = root;
    this.#t = root.dataset;
    this.#bindInput("qrels");
    this.#bindRuns();
    // While an evaluation runs, evaluate() itself applies a change once it ends.
    const follow = (shown) => {
      if (shown && !this.#task && JSON.stringify(this.#settings()) !== this.#shownSettings) this.evaluate();
    };
    for (const option of ["test", "correction", "alpha", "samples", "seed"]) {
      this.#q(`[data-rc-${option}]`).addEventListener("change", () => follow(this.#comparison));
    }
    for (const option of ["measures", "complete", "level"]) {
      this.#q(`[data-rc-${option}]`).addEventListener("change", () => follow(this.#comparison || this.#result));
    }
    for (const select of ["measure", "run"]) {
      this.#q(`[data-rc-chart-${select}]`).addEventListener("change", () => this.#drawChart());
    }
    const chart = this.#q("[data-rc-chart]");
    // Redrawn at its new width (a rotated phone, a resized window), after the size settles.
    let resized = null;
    new ResizeObserver(([entry]) => {
      const width = Math.round(entry.contentRect.width);
      if (!this.#comparison || !width || width === this.#chartWidth) return;
      clearTimeout(resized);
      resized = setTimeout(() => this.#drawChart().catch(() => {}), 150);
    }).observe(chart);
    const show = (event) => {
      const label = event.target.getAttribute?.("aria-label");
      if (event.target.tagName === "rect" && label) this.#q("[data-rc-chart-value]").textContent = label;
    };
    chart.addEventListener("focusin", show);
    chart.addEventListener("mouseover", show);
    root.querySelector("[data-rc-eval-form]").addEventListener("submit", (event) => {
      event.preventDefault();
      this.evaluate();
    });
    this.#q("[data-rc-eval-cancel]").addEventListener("click", () => this.cancel());
    const diversity = this.#q("[data-rc-diversity]");
    diversity.addEventListener("click", () => {
      this.#q("[data-rc-measures]").value = diversity.dataset.measures;
    });
    const agree = this.#q("[data-rc-agree]"); // two qrels compared: A is this page's qrels
    if (agree) mountAgreement(agree, { qrels: () => this.#source("qrels"), runs: () => this.#runSources() });
    // The page's HTML disables it: pressed before this module loaded, the form would have been
    // sent to the server (a reload that loses the chosen files).
    this.#q("[data-rc-evaluate-button]").disabled = false;
    root.dataset.rcState = "idle";
  }

  #q(selector) {
    return this.#root.querySelector(selector);
  }

  #bindInput(part) {
    const zone = this.#q(`[data-rc-drop="${part}"]`);
    const input = this.#q(`[data-rc-file="${part}"]`);
    const text = this.#q(`[data-rc-text="${part}"]`);
    const take = () => input.files[0] && this.#load(part, input.files[0]);
    input.addEventListener("change", take);
    take(); // a file chosen before this module loaded (it loads on first use) fired no event here
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

  // Runs: choosing files replaces the chosen ones, dropping adds, "Add" adds the pasted text.
  #bindRuns() {
    const zone = this.#q('[data-rc-drop="run"]');
    const input = this.#q('[data-rc-file="run"]');
    const take = () => {
      const chosen = [...input.files].map((file) => ({ name: file.name, blob: file, size: file.size, chosen: true }));
      this.#runs = [...chosen, ...this.#runs.filter((run) => !run.chosen)];
      if (chosen.length) this.#q('[data-rc-text="run"]').value = "";
      this.#showRuns();
    };
    input.addEventListener("change", take);
    if (input.files.length) take(); // chosen before this module loaded
    zone.addEventListener("dragover", (event) => {
      event.preventDefault();
      zone.classList.add("rc-eval-over");
    });
    zone.addEventListener("dragleave", () => zone.classList.remove("rc-eval-over"));
    zone.addEventListener("drop", (event) => {
      event.preventDefault();
      zone.classList.remove("rc-eval-over");
      const dropped = [...event.dataTransfer.files];
      this.#runs.push(...dropped.map((file) => ({ name: file.name, blob: file, size: file.size, chosen: false })));
      this.#showRuns();
    });
    this.#q("[data-rc-add-run]").addEventListener("click", () => {
      const text = this.#q('[data-rc-text="run"]');
      const name = this.#q("[data-rc-run-name]");
      if (!text.value.trim()) return;
      const blob = new Blob([text.value]);
      this.#runs.push({ name: name.value.trim() || "run", blob, size: blob.size, chosen: false, pasted: true });
      text.value = "";
      name.value = `run${this.#runs.length + 1}`;
      this.#showRuns();
      text.focus();
    });
  }

  #showRuns() {
    const list = this.#q('[data-rc-loaded="run"]');
    const items = this.#runs.map((run, index) => {
      const item = document.createElement("li");
      item.dataset.run = run.name;
      const label = run.pasted ? `${run.name} (${this.#t.tPasted})` : run.name;
      const text = format(this.#t.tLoaded, { name: label, size: size(run.size) });
      item.append(this.#runs.length > 1 && index === 0 ? `${text} — ${this.#t.tBaseline}` : text);
      const remove = document.createElement("button");
      remove.type = "button";
      remove.className = "rc-eval-remove"; // its ✕ is CSS: the item's text stays "name: size"
      remove.setAttribute("aria-label", format(this.#t.tRemove, { name: run.name }));
      remove.addEventListener("click", () => {
        this.#runs.splice(this.#runs.indexOf(run), 1);
        this.#showRuns();
      });
      item.append(remove);
      if (index > 0) {
        const first = document.createElement("button");
        first.type = "button";
        first.className = "rc-eval-first";
        first.textContent = this.#t.tMakeBaseline;
        first.setAttribute("aria-label", format(this.#t.tMakeBaselineLabel, { name: run.name }));
        first.addEventListener("click", () => {
          this.#runs.splice(this.#runs.indexOf(run), 1);
          this.#runs.unshift(run);
          this.#showRuns();
        });
        item.append(first);
      }
      return item;
    });
    list.replaceChildren(...items);
  }

  // The runs to evaluate: those listed, then the pasted text not yet added (named as typed).
  #runSources() {
    const runs = this.#runs.map(({ name, blob }) => ({ name, blob }));
    const text = this.#q('[data-rc-text="run"]').value;
    if (text.trim()) runs.push({ name: this.#q("[data-rc-run-name]").value.trim() || "run", blob: new Blob([text]) });
    return runs;
  }

  // Everything an evaluation depends on besides the files, as the controls say now.
  #settings() {
    return {
      measures: this.#q("[data-rc-measures]").value,
      complete: this.#q("[data-rc-complete]").checked,
      level: Number(this.#q("[data-rc-level]").value || 1),
      ...this.#compareOptions(),
    };
  }

  #compareOptions() {
    return {
      test: this.#q("[data-rc-test]").value,
      correction: this.#q("[data-rc-correction]").value,
      alpha: Number(this.#q("[data-rc-alpha]").value),
      samples: Number(this.#q("[data-rc-samples]").value),
      seed: Number(this.#q("[data-rc-seed]").value),
    };
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
    for (const results of this.#root.querySelectorAll("[data-rc-eval-results], [data-rc-compare-results]")) {
      if (running) results.setAttribute("aria-busy", "true"); // what it shows is being replaced
      else results.removeAttribute("aria-busy");
    }
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
    const warnings = this.#q("[data-rc-eval-warnings]");
    errors.replaceChildren();
    warnings.textContent = "";
    const qrels = this.#source("qrels");
    const runs = this.#runSources();
    if (!qrels || !runs.length) {
      errors.textContent = this.#t.tMissing;
      this.#root.dataset.rcState = "error";
      return;
    }
    const settings = this.#settings();
    const { measures, complete, level, ...options } = settings;
    const changed = Object.keys(COMPARE_DEFAULTS).some((key) => options[key] !== COMPARE_DEFAULTS[key]);
    if (runs.length === 1 && changed) {
      errors.textContent = this.#t.tOneRun;
      this.#hideResults();
      this.#root.dataset.rcState = "error";
      return;
    }
    const comparing = runs.length > 1;
    const run = runs[0];
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
        const common = { qrels_name: qrels.name, measures, complete, level };
        const onProgress = (done, total) => this.#progress(done, total);
        const files = { qrels: qrels.blob };
        runs.forEach((each, index) => {
          files[`run${index}`] = each.blob;
        });
        const call = comparing
          ? runtime.call(COMPARE, { ...common, ...options, run_names: runs.map((each) => each.name) }, { files, onProgress })
          : runtime.call(ENTRY, { ...common, run_name: run.name }, { files: { qrels: qrels.blob, run: run.blob }, onProgress });
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
    if (JSON.stringify(this.#settings()) !== JSON.stringify(settings)) {
      return this.evaluate(); // an option changed meanwhile: this reply no longer matches it
    }
    status.textContent = "";
    this.#shownSettings = JSON.stringify(settings);
    if (!reply.ok) {
      errors.textContent = reply.error;
      this.#hideResults();
      this.#root.dataset.rcState = "error";
      return;
    }
    if (comparing) {
      await this.#showComparison(reply, started);
      return;
    }
    this.#comparison = null;
    this.#q("[data-rc-compare-results]").hidden = true;
    warnings.textContent = reply.warnings.join("\n"); // as `rankcards eval` warns: one line each
    this.#result = reply;
    this.#sort = { column: -1, descending: false };
    this.#renderTable();
    this.#makeDownloads();
    this.#q("[data-rc-eval-results]").hidden = false;
    const ms = Math.round(performance.now() - started);
    const queries = reply.rows.length - 1;
    status.textContent = format(this.#t.tDone, { n: queries, ms });
    this.#root.dataset.rcState = "done";
    this.#root.dispatchEvent(new CustomEvent("rankcards:evaluated", { detail: { ms, queries, runs: 1 } }));
  }

  #hideResults() {
    this.#result = null;
    this.#comparison = null;
    this.#q("[data-rc-eval-results]").hidden = true;
    this.#q("[data-rc-compare-results]").hidden = true;
  }

  async #showComparison(reply, started) {
    this.#comparison = reply;
    this.#result = null;
    this.#q("[data-rc-eval-results]").hidden = true;
    const { runs, measures } = reply.result;
    this.#renderComparison();
    this.#makeCompareDownloads();
    const fill = (select, values) => {
      const kept = select.value;
      select.replaceChildren(...values.map((value) => new Option(value, value)));
      if (values.includes(kept)) select.value = kept;
    };
    fill(this.#q("[data-rc-chart-measure]"), measures);
    fill(this.#q("[data-rc-chart-run]"), runs.slice(1));
    this.#q("[data-rc-compare-results]").hidden = false;
    try {
      await this.#drawChart();
    } catch (error) {
      this.#q("[data-rc-eval-errors]").textContent = error.message;
    }
    const ms = Math.round(performance.now() - started);
    const queries = reply.queries.length;
    const status = this.#q("[data-rc-eval-status]");
    status.textContent = format(this.#t.tCompared, { runs: runs.length, n: queries, ms });
    this.#root.dataset.rcState = "done";
    this.#root.dispatchEvent(new CustomEvent("rankcards:evaluated", { detail: { ms, queries, runs: runs.length } }));
  }

  #renderComparison() {
    const { runs, measures, aggregate, comparisons, test, correction, alpha } = this.#comparison.result;
    const t = this.#t;
    const table = document.createElement("table");
    table.className = "rc-table rc-cmp-table";
    const testName = this.#q(`[data-rc-test] option[value="${test}"]`)?.textContent ?? test;
    const correctionName = this.#q(`[data-rc-correction] option[value="${correction}"]`)?.textContent ?? correction;
    table.createCaption().textContent = format(t.tCompareCaption, {
      baseline: runs[0],
      test: testName,
      correction: correctionName,
      alpha,
    });
    const head = table.createTHead().insertRow();
    // Nine columns fit a laptop's content column: the significance mark is the adjusted p's
    // asterisk (the caption says what it means), not a column of its own.
    for (const name of [t.tColMeasure, t.tColRun, t.tColMean, t.tColDelta, t.tColCi, t.tColP, t.tColPAdjusted, t.tColEffect, t.tColWlt]) {
      const th = document.createElement("th");
      th.scope = "col";
      th.textContent = name;
      head.append(th);
    }
    const body = table.createTBody();
    // a number as text, with what it is and its exact value
    const number = (metric, run, measure, value, text) => {
      const span = document.createElement("span");
      span.dataset.metric = `${metric}:${run}:${measure}`;
      span.dataset.value = value === null ? "null" : String(value);
      span.textContent = text;
      return span;
    };
    for (const measure of measures) {
      for (const run of runs) {
        const tr = body.insertRow();
        tr.dataset.run = run;
        tr.dataset.measure = measure;
        const th = document.createElement("th");
        th.scope = "row";
        th.textContent = measure;
        tr.append(th);
        tr.insertCell().textContent = run === runs[0] ? `${run} (${t.tBaseline})` : run;
        const mean = aggregate[run][measure];
        tr.insertCell().append(number("mean", run, measure, mean, mean.toFixed(4)));
        const row = comparisons.find((c) => c.run === run && c.measure === measure);
        if (!row) {
          for (let i = 0; i < 6; i += 1) tr.insertCell();
          continue;
        }
        tr.insertCell().append(number("delta", run, measure, row.delta, signed(row.delta)));
        const ci = tr.insertCell();
        ci.append("[", number("ci_low", run, measure, row.ci[0], signed(row.ci[0])), ", ");
        ci.append(number("ci_high", run, measure, row.ci[1], signed(row.ci[1])), "]");
        tr.insertCell().append(number("p", run, measure, row.p, pText(row.p)));
        const adjusted = tr.insertCell();
        adjusted.append(number("p_adjusted", run, measure, row.p_adjusted, pText(row.p_adjusted)));
        const mark = document.createElement("span");
        mark.className = "rc-cmp-mark";
        mark.dataset.metric = `significant:${run}:${measure}`;
        mark.dataset.value = String(row.significant);
        if (row.significant) {
          mark.textContent = "*";
          mark.title = t.tColSignificant;
          mark.setAttribute("role", "img");
          mark.setAttribute("aria-label", t.tColSignificant);
        }
        adjusted.append(mark);
        const effect = row.effect_size;
        const effectText = effect === null ? `${row.delta < 0 ? "-" : "+"}∞` : `${effect < 0 ? "" : "+"}${effect.toFixed(2)}`;
        tr.insertCell().append(number("effect_size", run, measure, effect, effectText));
        const wlt = tr.insertCell();
        wlt.append(number("wins", run, measure, row.wins, String(row.wins)), " / ");
        wlt.append(number("losses", run, measure, row.losses, String(row.losses)), " / ");
        wlt.append(number("ties", run, measure, row.ties, String(row.ties)));
        for (const cell of tr.cells) if (cell.cellIndex >= 2) cell.className = "rc-eval-num";
      }
    }
    this.#q("[data-rc-compare-table]").replaceChildren(table);
  }

  // The chart of the chosen run against the baseline on the chosen measure, made in Python at
  // the width of its box: one unit of the SVG is one pixel, so its numbers keep their CSS size.
  async #drawChart() {
    if (!this.#comparison) return;
    const figure = this.#q("[data-rc-chart]");
    const width = Math.round(figure.clientWidth);
    const { queries, scores, result } = this.#comparison;
    const baseline = result.runs[0];
    const measure = this.#q("[data-rc-chart-measure]").value;
    const run = this.#q("[data-rc-chart-run]").value;
    const names = { measure, run, baseline };
    this.#root.dataset.rcChartState = "drawing";
    const chart = await runtime.call(CHART, {
      queries,
      baseline: scores[baseline][measure],
      run: scores[run][measure],
      title: format(this.#t.tChartTitle, names),
      ...(width ? { width } : {}),
    });
    if (this.#comparison?.scores !== scores) return; // a newer comparison draws its own
    figure.innerHTML = chart.svg; // made by rankcards.viz._compare_chart: every text escaped
    this.#chartWidth = width;
    figure.dataset.measure = measure;
    figure.dataset.run = run;
    this.#q("[data-rc-chart-value]").textContent = "";
    this.#q("[data-rc-chart-counts]").textContent = format(this.#t.tChartCounts, { ...names, ...chart });
    this.#root.dataset.rcChartState = "ready";
  }

  #makeCompareDownloads() {
    for (const url of this.#urls) URL.revokeObjectURL(url);
    this.#urls = [];
    const { json, csv } = this.#comparison; // the JSON is exactly `rankcards compare --format json`
    for (const [kind, text, type] of [["csv", csv, "text/csv"], ["json", json, "application/json"]]) {
      const url = URL.createObjectURL(new Blob([`${text}\n`], { type }));
      this.#q(`[data-rc-compare-download="${kind}"]`).href = url;
      this.#urls.push(url);
    }
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

eachPage(mountEvaluate);

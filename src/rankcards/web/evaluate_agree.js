// The evaluate page's comparison of two qrels (templates/evaluate.html.jinja, [data-rc-agree]):
// the qrels above (A) and a second one (B: dropped, chosen or pasted here) go to the Pyodide
// worker with the runs above when two or more are loaded, and
// rankcards.viz._agree_view:agree_files computes there the numbers of
// `rankcards agree --format json`: the pairs judged in both, Cohen's κ (unweighted, linear,
// quadratic), Krippendorff's α (nominal, ordinal, interval), the confusion table (A's grades in
// rows, B's in columns) and, with runs, each run's mean under A and under B with Kendall's τ-b
// and τ_AP between the two orderings. Every number is in data-metric / data-value; the JSON
// download is the CLI's text. Like the rest of the page, the files never leave the browser.
//
//   import { mountAgreement } from "./evaluate_agree.js";
//   mountAgreement(section, { qrels: () => ({name, blob}) | null, runs: () => [{name, blob}] })
//
// The section's data-rc-state is idle | running | done | error; a `rankcards:agreed`
// CustomEvent {detail: {ms, documents, runs}} fires on it after each comparison.
import { runtime } from "./runtime.js";

const ENTRY = "rankcards.viz._agree_view:agree_files";
const PASTED_B = "qrels B";
const format = (template, values) =>
  template.replace(/\{(\w+)\}/g, (_, key) => String(values[key] ?? ""));

class Agreement {
  #root;
  #t;
  #sources;
  #fileB = null; // a chosen or dropped qrels B, or null to use the textarea
  #running = false;
  #url = null;

  constructor(root, sources) {
    this.#root = root;
    this.#t = root.dataset;
    this.#sources = sources;
    const input = this.#q("[data-rc-agree-file]");
    const take = () => input.files[0] && this.#load(input.files[0]);
    input.addEventListener("change", take);
    take(); // a file chosen before the page's module loaded (on first use) fired no event here
    this.#q("[data-rc-agree-text]").addEventListener("input", () => {
      this.#fileB = null;
      this.#q("[data-rc-agree-loaded]").textContent = "";
    });
    const zone = this.#q("[data-rc-agree-drop]");
    zone.addEventListener("dragover", (event) => {
      event.preventDefault();
      zone.classList.add("rc-eval-over");
    });
    zone.addEventListener("dragleave", () => zone.classList.remove("rc-eval-over"));
    zone.addEventListener("drop", (event) => {
      event.preventDefault();
      zone.classList.remove("rc-eval-over");
      const file = event.dataTransfer.files[0];
      if (file) this.#load(file);
    });
    const button = this.#q("[data-rc-agree-button]");
    button.addEventListener("click", () => this.compare());
    button.disabled = false; // disabled in the page's HTML until this listens
    root.dataset.rcState = "idle";
  }

  #q(selector) {
    return this.#root.querySelector(selector);
  }

  #load(file) {
    this.#fileB = file;
    this.#q("[data-rc-agree-text]").value = "";
    this.#q("[data-rc-agree-loaded]").textContent = file.name;
  }

  #sourceB() {
    if (this.#fileB) return { name: this.#fileB.name, blob: this.#fileB };
    const text = this.#q("[data-rc-agree-text]").value;
    return text.trim() ? { name: PASTED_B, blob: new Blob([text]) } : null;
  }

  #fail(message) {
    const errors = this.#q("[data-rc-agree-errors]");
    errors.textContent = message;
    errors.hidden = false;
    this.#q("[data-rc-agree-results]").hidden = true;
    this.#root.dataset.rcState = "error";
  }

  async compare() {
    if (this.#running) return;
    const errors = this.#q("[data-rc-agree-errors]");
    errors.replaceChildren();
    errors.hidden = true;
    const qrelsA = this.#sources.qrels();
    const qrelsB = this.#sourceB();
    if (!qrelsA || !qrelsB) {
      this.#fail(this.#t.tMissing);
      return;
    }
    const loaded = this.#sources.runs();
    const runs = loaded.length >= 2 ? loaded : []; // one run orders nothing
    const files = { qrels_a: qrelsA.blob, qrels_b: qrelsB.blob };
    runs.forEach((run, index) => {
      files[`run${index}`] = run.blob;
    });
    const args = {
      qrels_a_name: qrelsA.name,
      qrels_b_name: qrelsB.name,
      run_names: runs.map((run) => run.name),
      measure: this.#q("[data-rc-agree-measure]").value,
    };
    const status = this.#q("[data-rc-agree-status]");
    const bar = this.#q("[data-rc-agree-progress]");
    const button = this.#q("[data-rc-agree-button]");
    this.#running = true;
    button.disabled = true;
    bar.removeAttribute("value"); // indeterminate until the worker reports
    bar.hidden = false;
    status.textContent = this.#t.tRunning;
    this.#root.dataset.rcState = "running";
    const started = performance.now();
    let reply;
    try {
      const onProgress = (done, total) => {
        bar.max = Math.max(total, 1);
        bar.value = Math.min(done, bar.max);
      };
      reply = await runtime.call(ENTRY, args, { files, onProgress });
    } catch (error) {
      reply = { ok: false, error: error.message };
    } finally {
      this.#running = false;
      button.disabled = false;
      bar.hidden = true;
    }
    status.textContent = "";
    if (!reply.ok) {
      this.#fail(reply.error);
      return;
    }
    const { result } = reply;
    this.#render(result, qrelsA.name, qrelsB.name);
    this.#makeDownload(reply.json);
    this.#q("[data-rc-agree-results]").hidden = false;
    const ms = Math.round(performance.now() - started);
    status.textContent = format(this.#t.tDone, { n: result.documents, ms });
    this.#root.dataset.rcState = "done";
    const detail = { ms, documents: result.documents, runs: runs.length };
    this.#root.dispatchEvent(new CustomEvent("rankcards:agreed", { detail }));
  }

  // A number as text (4 decimals, or "undefined" for null), with what it is and its exact value.
  #number(metric, value, integer = false) {
    const span = document.createElement("span");
    span.dataset.metric = metric;
    span.dataset.value = value === null ? "null" : String(value);
    span.textContent = value === null ? this.#t.tUndefined : integer ? String(value) : value.toFixed(4);
    return span;
  }

  #table(caption, columns) {
    const table = document.createElement("table");
    table.className = "rc-table";
    table.createCaption().textContent = caption;
    const head = table.createTHead().insertRow();
    for (const { text, label } of columns) {
      const th = document.createElement("th");
      th.scope = "col";
      th.textContent = text;
      if (label) th.setAttribute("aria-label", label);
      head.append(th);
    }
    return table;
  }

  #row(body, heading, cells, label) {
    const tr = body.insertRow();
    const th = document.createElement("th");
    th.scope = "row";
    th.textContent = heading;
    if (label) th.setAttribute("aria-label", label);
    tr.append(th);
    for (const cell of cells) {
      const td = tr.insertCell();
      td.className = "rc-eval-num";
      td.append(cell);
    }
    return tr;
  }

  #render(result, nameA, nameB) {
    const t = this.#t;
    const summary = this.#table(format(t.tSummaryCaption, { a: nameA, b: nameB }), [
      { text: t.tColStatistic },
      { text: t.tColValue },
    ]);
    const body = summary.createTBody();
    const alpha = result.krippendorff_alpha;
    const rows = [
      [t.tRowDocuments, this.#number("documents", result.documents, true)],
      [t.tRowOnlyA, this.#number("only_a", result.only_a, true)],
      [t.tRowOnlyB, this.#number("only_b", result.only_b, true)],
      [t.tRowKappa, this.#number("cohen_kappa", result.cohen_kappa)],
      [t.tRowKappaLinear, this.#number("cohen_kappa_linear", result.cohen_kappa_linear)],
      [t.tRowKappaQuadratic, this.#number("cohen_kappa_quadratic", result.cohen_kappa_quadratic)],
      [t.tRowAlphaNominal, this.#number("krippendorff_alpha:nominal", alpha.nominal)],
      [t.tRowAlphaOrdinal, this.#number("krippendorff_alpha:ordinal", alpha.ordinal)],
      [t.tRowAlphaInterval, this.#number("krippendorff_alpha:interval", alpha.interval)],
    ];
    for (const [heading, value] of rows) this.#row(body, heading, [value]);
    this.#q("[data-rc-agree-summary]").replaceChildren(summary);

    const { grades, confusion } = result;
    const columns = grades.map((g) => ({ text: String(g), label: format(t.tGradeB, { g }) }));
    const table = this.#table(t.tConfusionCaption, [{ text: t.tConfusionCorner }, ...columns]);
    table.classList.add("rc-agree-confusion");
    const confusionBody = table.createTBody();
    grades.forEach((a, i) => {
      const cells = grades.map((b, j) => this.#number(`confusion:${a}:${b}`, confusion[i][j], true));
      const tr = this.#row(confusionBody, String(a), cells, format(t.tGradeA, { g: a }));
      tr.cells[i + 1].classList.add("rc-agree-diagonal");
    });
    this.#q("[data-rc-agree-confusion]").replaceChildren(table);

    const systems = result.systems;
    const note = this.#q("[data-rc-agree-no-systems]");
    note.textContent = t.tNoSystems;
    note.hidden = systems !== null;
    const holder = this.#q("[data-rc-agree-systems]");
    if (systems === null) {
      holder.replaceChildren();
      return;
    }
    const scores = this.#table(format(t.tSystemsCaption, { measure: systems.measure }), [
      { text: "Run" },
      { text: t.tColUnderA },
      { text: t.tColUnderB },
    ]);
    const scoresBody = scores.createTBody();
    for (const [run, [a, b]] of Object.entries(systems.scores)) {
      const tr = this.#row(scoresBody, run, [this.#number(`score:${run}:a`, a), this.#number(`score:${run}:b`, b)]);
      tr.dataset.run = run;
    }
    const correlation = document.createElement("p");
    correlation.append(`${t.tKendall}: `, this.#number("kendall_tau", systems.kendall_tau), ". ");
    correlation.append(`${t.tTauAp}: `, this.#number("tau_ap", systems.tau_ap), ".");
    holder.replaceChildren(scores, correlation);
  }

  #makeDownload(json) {
    if (this.#url) URL.revokeObjectURL(this.#url);
    this.#url = URL.createObjectURL(new Blob([`${json}\n`], { type: "application/json" }));
    this.#q("[data-rc-agree-download]").href = this.#url;
  }
}

export function mountAgreement(section, sources) {
  return new Agreement(section, sources);
}

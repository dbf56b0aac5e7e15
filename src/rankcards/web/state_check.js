// Checks a demo state that came from outside the page (a shared link) before the demo uses it:
// the browser mirror of rankcards/viz/_validate.py (the rules a card's own state obeys), made
// stricter because the input is a stranger's: it may only hold what the page's own controls and
// view buttons can produce.
//
//   checkSharedState(changes, initial, controls) -> {state} | {problem: "<path>: <message>"}
//
// `changes` is the decoded link (top-level keys that differ from the card's initial state);
// `initial` is the card's state (data-rc-initial); `controls` is the demo's controls as rendered
// (controlsOf in demo.js): [{kind, bind, min, max, step, options: [value, ...], max_grade,
// unjudged}].
// Rules: every key is a key of the initial state; control values follow their kind (a slider's
// number in range and on its step, a toggle's boolean, one of a select's option values, ranked
// lists with the same queries, each ranking a permutation of the card's own documents, marks
// or grades only on those documents, and unjudged ones only where the control offers that
// state, each listed and with no label); the view buttons' keys (lab: focus, tied, absent; gold
// dataset: edits) only name existing queries, ranks and documents; any other key keeps the
// card's value. No string may carry markup, and sizes are bounded. Pure: never throws.

export const LIMITS = { items: 500, text: 200, depth: 6 };
const MARKUP = /[<>"'`&\\\u0000-\u001f]/;
const GOLD_EDIT = /^\w[\w.-]{0,59}\/\w[\w.-]{0,59}$/; // "<query>/<docno>"

class Problem extends Error {}
const fail = (path, message) => {
  throw new Problem(`${path}: ${message}`);
};

const isPlain = (value) => value !== null && typeof value === "object" && !Array.isArray(value);
const isInt = (value) => Number.isInteger(value);

export function sameJSON(a, b) {
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => sameJSON(x, b[i]));
  if (isPlain(a)) {
    if (!isPlain(b)) return false;
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((key) => key in b && sameJSON(a[key], b[key]));
  }
  return a === b;
}

// Types, sizes and markup of anything decoded, before any rule reads it.
function scan(value, path, depth) {
  if (depth > LIMITS.depth) fail(path, "nested too deeply");
  if (typeof value === "string") {
    if (value.length > LIMITS.text) fail(path, "string too long");
    if (MARKUP.test(value)) fail(path, "markup or control characters in a string");
  } else if (typeof value === "number") {
    if (!Number.isFinite(value)) fail(path, "not a finite number");
  } else if (Array.isArray(value)) {
    if (value.length > LIMITS.items) fail(path, "too many items");
    value.forEach((item, index) => scan(item, `${path}[${index}]`, depth + 1));
  } else if (isPlain(value)) {
    const keys = Object.keys(value);
    if (keys.length > LIMITS.items) fail(path, "too many keys");
    for (const key of keys) {
      if (key.length > LIMITS.text || MARKUP.test(key)) fail(path, `bad key ${JSON.stringify(key.slice(0, 40))}`);
      scan(value[key], `${path}.${key}`, depth + 1);
    }
  } else if (typeof value !== "boolean") {
    fail(path, `unexpected ${value === null ? "null" : typeof value}`);
  }
}

function distinctStrings(value, path, allowed) {
  if (!Array.isArray(value) || !value.every((item) => typeof item === "string")) fail(path, "expected a list of strings");
  if (new Set(value).size !== value.length) fail(path, "entries must be distinct");
  for (const item of value) if (!allowed.has(item)) fail(path, `unknown entry ${JSON.stringify(item)}`);
}

function slider(control, value, path) {
  const { min, max } = control;
  const step = control.step || 1;
  if (typeof value !== "number" || value < min || value > max) fail(path, `expected a number in [${min}, ${max}]`);
  const steps = (value - min) / step;
  if (Math.abs(steps - Math.round(steps)) > 1e-9) fail(path, `not on the slider's step ${step}`);
}

function rankedLists(control, value, initial, path) {
  const maxGrade = control.max_grade || 1;
  const labels = maxGrade === 1 ? "relevant" : "grades";
  const allowed = ["query", "ranking", labels].sort().join(",");
  if (!Array.isArray(value) || value.length !== initial.length) fail(path, `expected ${initial.length} ranked lists`);
  value.forEach((item, index) => {
    const where = `${path}[${index}]`;
    const card = initial[index];
    const keys = isPlain(item) ? Object.keys(item).filter((key) => key !== "unjudged").sort().join(",") : "";
    if (keys !== allowed) fail(where, `expected exactly query, ranking and ${labels}`);
    if (item.query !== card.query) fail(`${where}.query`, `expected ${JSON.stringify(card.query)}`);
    const own = new Set(card.ranking);
    distinctStrings(item.ranking, `${where}.ranking`, own);
    if (item.ranking.length !== own.size) fail(`${where}.ranking`, "must list the card's documents");
    const known = new Set([...own, ...(card.relevant ?? []), ...Object.keys(card.grades ?? {})]);
    let labelled;
    if (maxGrade === 1) {
      distinctStrings(item.relevant, `${where}.relevant`, known);
      labelled = new Set(item.relevant);
    } else {
      if (!isPlain(item.grades)) fail(`${where}.grades`, "expected a mapping of docnos to grades");
      for (const [doc, grade] of Object.entries(item.grades)) {
        if (!known.has(doc)) fail(`${where}.grades`, `unknown document ${JSON.stringify(doc)}`);
        if (!isInt(grade) || grade < 0 || grade > maxGrade) fail(`${where}.grades.${doc}`, `expected an integer 0..${maxGrade}`);
      }
      labelled = new Set(Object.keys(item.grades));
    }
    if (!Object.hasOwn(item, "unjudged")) return;
    // Only a control that offers the unjudged state can produce it, on listed documents only.
    if (!control.unjudged) fail(`${where}.unjudged`, "this card's rankings have no unjudged state");
    distinctStrings(item.unjudged, `${where}.unjudged`, own);
    for (const doc of item.unjudged) {
      if (labelled.has(doc)) fail(`${where}.unjudged`, `${JSON.stringify(doc)} also has a label`);
    }
  });
}

function checkControl(control, value, initial, path) {
  switch (control.kind) {
    case "slider":
      return slider(control, value, path);
    case "toggle":
      if (typeof value !== "boolean") fail(path, "expected true or false");
      return undefined;
    case "select":
      if (!control.options.some((option) => option === value)) fail(path, "not one of the options");
      return undefined;
    case "ranked-lists":
      return rankedLists(control, value, initial, path);
    default:
      return fail(path, `unknown control kind ${control.kind}`);
  }
}

// The keys the views' own buttons change (rankcards/viz/lab.py, viz/gold_dataset.py).
const VIEW_KEYS = {
  focus(value, path, queries) {
    if (!queries.has(value)) fail(path, "not one of the queries");
  },
  absent(value, path, queries) {
    distinctStrings(value, path, queries);
  },
  tied(value, path, queries, lengths) {
    distinctStrings(value, path, new Set(value));
    for (const entry of value) {
      const at = entry.lastIndexOf(":");
      const query = entry.slice(0, at);
      const rank = Number(entry.slice(at + 1));
      const ok = at > 0 && queries.has(query) && /^\d+$/.test(entry.slice(at + 1)) && rank >= 1 && rank < lengths.get(query);
      if (!ok) fail(path, `bad tie ${JSON.stringify(entry)}`);
    }
  },
  edits(value, path) {
    if (!isPlain(value)) fail(path, "expected a mapping");
    for (const [key, grade] of Object.entries(value)) {
      if (!GOLD_EDIT.test(key)) fail(path, `bad judgment key ${JSON.stringify(key)}`);
      if (!isInt(grade) || grade < 0 || grade > 3) fail(`${path}.${key}`, "expected an integer 0..3");
    }
  },
};

export function checkSharedState(changes, initial, controls) {
  try {
    if (!isPlain(changes)) fail("state", "expected a mapping");
    scan(changes, "state", 0);
    const byBind = new Map(controls.map((control) => [control.bind, control]));
    const queries = new Set();
    const lengths = new Map();
    for (const control of controls) {
      if (control.kind !== "ranked-lists") continue;
      for (const item of initial[control.bind] ?? []) {
        queries.add(item.query);
        lengths.set(item.query, item.ranking.length);
      }
    }
    const state = structuredClone(initial);
    for (const [key, value] of Object.entries(changes)) {
      const path = `state.${key}`;
      if (!Object.hasOwn(initial, key)) fail(path, "unknown key");
      if (byBind.has(key)) checkControl(byBind.get(key), value, initial[key], path);
      else if (Object.hasOwn(VIEW_KEYS, key)) VIEW_KEYS[key](value, path, queries, lengths);
      else if (!sameJSON(value, initial[key])) fail(path, "this key cannot be changed");
      state[key] = structuredClone(value);
    }
    return { state };
  } catch (error) {
    if (error instanceof Problem) return { problem: error.message };
    return { problem: `state: ${String(error?.message ?? error).slice(0, 120)}` };
  }
}

/** The top-level keys of `state` that differ from `initial` (what a link carries). */
export function changesFrom(state, initial) {
  const changes = {};
  for (const [key, value] of Object.entries(state)) if (!sameJSON(value, initial[key])) changes[key] = value;
  return changes;
}

// State actions of a demo view (the contract is in rankcards/viz/__init__.py): pure functions
// that return a NEW state, so a failed recompute never leaves a half-edited state behind.
//
//   actionFrom(element)        -> {type, path, ...} | null   reads the data-rc-* attributes
//   applyAction(state, action) -> new state                  throws Error on a bad path
//
// A path is dot-separated from the state root; integer segments index lists. Actions: set,
// toggle, cycle, move (the view buttons', rankcards/viz/_html.py) and label (a ranked list's
// document to its next label, controls.js).

const clone = (value) => structuredClone(value);

function split(path) {
  if (typeof path !== "string" || path === "") throw new Error(`bad state path ${JSON.stringify(path)}`);
  return path.split(".");
}

function parentOf(state, path) {
  const keys = split(path);
  const last = keys.pop();
  let node = state;
  for (const key of keys) {
    if (node === null || typeof node !== "object" || !(key in node)) {
      throw new Error(`state path ${path}: no ${key}`);
    }
    node = node[key];
  }
  if (node === null || typeof node !== "object") throw new Error(`state path ${path}: not a container`);
  return [node, last];
}

export function actionFrom(element) {
  const data = element.dataset;
  if (data.rcToggle !== undefined) return { type: "toggle", path: data.rcToggle, item: data.rcItem };
  if (data.rcSet !== undefined) return { type: "set", path: data.rcSet, value: JSON.parse(data.rcValue) };
  if (data.rcCycle !== undefined) {
    return { type: "cycle", path: data.rcCycle, item: data.rcItem, max: Number(data.rcMax) };
  }
  if (data.rcMove !== undefined) {
    return { type: "move", path: data.rcMove, index: Number(data.rcIndex), delta: Number(data.rcDelta) };
  }
  return null;
}

export function applyAction(state, action) {
  const next = clone(state);
  const [parent, key] = parentOf(next, action.path);
  const target = parent[key];
  switch (action.type) {
    case "set":
      parent[key] = action.value;
      break;
    case "toggle": {
      if (!Array.isArray(target)) throw new Error(`state path ${action.path}: not a list`);
      const at = target.indexOf(action.item);
      if (at >= 0) target.splice(at, 1);
      else target.push(action.item);
      break;
    }
    case "cycle": {
      if (target === null || typeof target !== "object") throw new Error(`state path ${action.path}: not a mapping`);
      const grade = ((target[action.item] ?? 0) + 1) % (action.max + 1);
      if (grade === 0) delete target[action.item];
      else target[action.item] = grade;
      break;
    }
    case "label": {
      // A ranked list's document to its next label (controls.js): the grade map or the list of
      // relevant documents, and the unjudged list, written together so they never disagree.
      if (target === null || typeof target !== "object" || !Array.isArray(target.ranking)) {
        throw new Error(`state path ${action.path}: not a ranked list`);
      }
      const doc = action.item;
      const unjudged = target.unjudged ?? [];
      let label;
      if (unjudged.includes(doc)) label = "unjudged";
      else label = target.grades ? (target.grades[doc] ?? 0) : Number(target.relevant.includes(doc));
      let next;
      if (label === "unjudged") next = 0;
      else if (label < action.max) next = label + 1;
      else next = action.unjudged ? "unjudged" : 0;
      if (target.unjudged) target.unjudged = unjudged.filter((item) => item !== doc);
      if (target.grades) delete target.grades[doc];
      else target.relevant = target.relevant.filter((item) => item !== doc);
      if (next === "unjudged") target.unjudged = [...(target.unjudged ?? []), doc];
      else if (next > 0 && target.grades) target.grades[doc] = next;
      else if (next > 0) target.relevant.push(doc);
      break;
    }
    case "move": {
      if (!Array.isArray(target)) throw new Error(`state path ${action.path}: not a list`);
      const to = Math.max(0, Math.min(target.length - 1, action.index + action.delta));
      const [moved] = target.splice(action.index, 1);
      target.splice(to, 0, moved);
      break;
    }
    default:
      throw new Error(`unknown state action ${action.type}`);
  }
  return next;
}

// Draw / Notes layer: the stroke model, its localStorage persistence and undo/redo.
//
// A stroke is plain data so it survives JSON and reloads:
//   {tool: "pen"|"highlighter", color: <COLORS id>, width: <CSS px>,
//    anchor: [child index, ...] path from the content root to the element the stroke was drawn on,
//    tag: that element's tagName (checked on restore: a changed page must not misplace notes),
//    box: [x, y, w] the anchor's box inside the root when drawn, normalised by the root width
//         (the fallback when the anchor no longer resolves),
//    pts: [x0, y0, x1, y1, ...] relative to the anchor's top-left corner, normalised by its width}
// Points are normalised by width (not height) so a stroke keeps its aspect ratio when the page
// reflows, and anchoring to the element under the pen keeps it over that element when text above
// it wraps differently.

export const TOOLS = ["pen", "highlighter", "eraser"];
export const COLORS = ["ink", "red", "blue", "green", "yellow"];
const _KEY_PREFIX = "rankcards.draw.v1:";
const _MAX_STROKES = 2000;

/** The localStorage key of a page: one per pathname, so per page and language (/es/, /en/). */
export function storageKey(pathname) {
  return _KEY_PREFIX + pathname;
}

function _isNumberArray(value, minLength) {
  return (
    Array.isArray(value) &&
    value.length >= minLength &&
    value.every((n) => typeof n === "number" && Number.isFinite(n))
  );
}

/** True when `s` has the shape above; stored data is untrusted (old versions, other tabs). */
export function isStroke(s) {
  return (
    s !== null &&
    typeof s === "object" &&
    (s.tool === "pen" || s.tool === "highlighter") &&
    COLORS.includes(s.color) &&
    typeof s.width === "number" &&
    s.width > 0 &&
    s.width <= 64 &&
    typeof s.tag === "string" &&
    _isNumberArray(s.anchor, 0) &&
    s.anchor.every((i) => Number.isInteger(i) && i >= 0) &&
    _isNumberArray(s.box, 3) &&
    _isNumberArray(s.pts, 2) &&
    s.pts.length % 2 === 0
  );
}

/**
 * Read a page's strokes. Returns {strokes, error}: invalid entries are dropped and reported in
 * one line instead of breaking the page, and a missing key is simply an empty page.
 */
export function loadStrokes(storage, pathname) {
  const key = storageKey(pathname);
  let raw;
  try {
    raw = storage.getItem(key);
  } catch (err) {
    return { strokes: [], error: `draw: localStorage unavailable (${err.name})` };
  }
  if (raw === null) return { strokes: [], error: null };
  let data;
  try {
    data = JSON.parse(raw);
  } catch {
    return { strokes: [], error: `draw: ${key}: stored notes are not valid JSON; ignored` };
  }
  if (!data || data.v !== 1 || !Array.isArray(data.strokes)) {
    return { strokes: [], error: `draw: ${key}: field "v"/"strokes": unknown format; ignored` };
  }
  const strokes = data.strokes.filter(isStroke).slice(0, _MAX_STROKES);
  const dropped = data.strokes.length - strokes.length;
  const error = dropped
    ? `draw: ${key}: field "strokes": ${dropped} invalid stroke(s) ignored`
    : null;
  return { strokes, error };
}

/** Write a page's strokes (removing the key when empty). Returns an error line or null. */
export function saveStrokes(storage, pathname, strokes) {
  const key = storageKey(pathname);
  try {
    if (strokes.length === 0) storage.removeItem(key);
    else storage.setItem(key, JSON.stringify({ v: 1, strokes }));
    return null;
  } catch (err) {
    return `draw: could not save notes for ${pathname} (${err.name})`;
  }
}

/**
 * The strokes of one page with an undo/redo history. Every change is an operation that is
 * applied, recorded and reversible: "add" one stroke, or "remove" several (eraser, clear), each
 * remembering its index so undo puts strokes back in their original paint order.
 */
export function createDocument(initial) {
  const strokes = [...initial];
  const undoStack = [];
  const redoStack = [];

  function apply(op, forward) {
    if (op.type === "add") {
      if (forward) strokes.push(op.stroke);
      else strokes.pop();
      return;
    }
    if (forward) {
      for (const item of [...op.items].reverse()) strokes.splice(item.index, 1);
    } else {
      for (const item of op.items) strokes.splice(item.index, 0, item.stroke);
    }
  }

  function record(op) {
    apply(op, true);
    undoStack.push(op);
    redoStack.length = 0;
  }

  return {
    strokes,
    add(stroke) {
      record({ type: "add", stroke });
    },
    /** Remove the strokes at `indices` as one undoable step; no-op (and no step) when empty. */
    remove(indices) {
      const sorted = [...new Set(indices)].sort((a, b) => a - b);
      if (sorted.length === 0) return;
      record({ type: "remove", items: sorted.map((index) => ({ index, stroke: strokes[index] })) });
    },
    clear() {
      this.remove(strokes.map((_, i) => i));
    },
    undo() {
      const op = undoStack.pop();
      if (!op) return false;
      apply(op, false);
      redoStack.push(op);
      return true;
    },
    redo() {
      const op = redoStack.pop();
      if (!op) return false;
      apply(op, true);
      undoStack.push(op);
      return true;
    },
    canUndo: () => undoStack.length > 0,
    canRedo: () => redoStack.length > 0,
  };
}

// The pure part of example-bound demos (bound.js), kept apart so that Node can test it against
// the Python rules (rankcards/viz/bound.py): how a value is written as a Python literal, and
// whether some code is the card's own with only its bound literals changed.
//
//   pyFloatRepr(x)                 -> Python's repr(float(x))
//   literalText(value, type)       -> the literal the page writes (rankcards.viz.bound.literal_text)
//   matchOriginal(source, original, bindings, controls, initial) -> {bindings, values} | null
//   rewriteLiteral(source, bindings, name, text) -> {source, bindings}: `name`'s literal
//                                    replaced by `text`, the other literals' places moved along

/** Python's repr of a float (shortest round-trip digits, Python's layout): "0.1", "10.0",
 *  "1e-05", "1e+16", "-0.0". */
export function pyFloatRepr(x) {
  if (Number.isNaN(x)) return "nan";
  if (!Number.isFinite(x)) return x > 0 ? "inf" : "-inf";
  if (x === 0) return Object.is(x, -0) ? "-0.0" : "0.0";
  const sign = x < 0 ? "-" : "";
  const [mantissa, power] = Math.abs(x).toExponential().split("e");
  const digits = mantissa.replace(".", "");
  const exponent = Number(power); // of the first digit
  if (exponent < -4 || exponent >= 16) {
    const shown = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    const size = String(Math.abs(exponent)).padStart(2, "0");
    return `${sign}${shown}e${exponent < 0 ? "-" : "+"}${size}`;
  }
  if (exponent < 0) return `${sign}0.${"0".repeat(-exponent - 1)}${digits}`;
  const whole = digits.slice(0, exponent + 1).padEnd(exponent + 1, "0");
  return `${sign}${whole}.${digits.slice(exponent + 1) || "0"}`;
}

/** The literal this page writes for `value` bound to a literal of Python type `type`
 *  ("int" | "float" | "bool"; a select's string is written by the build: its option's
 *  data-rc-literal). Equal to rankcards.viz.bound.literal_text. */
export function literalText(value, type) {
  if (typeof value === "boolean") return value ? "True" : "False";
  if (type === "int" && Number.isInteger(value)) return String(value);
  return pyFloatRepr(value);
}

// The literal texts a control may show, and the value each stands for: null when `text` is not
// one this page would write for an allowed value.
function valueOfText(control, text, type) {
  if (control.kind === "toggle") return text === "True" ? true : text === "False" ? false : null;
  if (control.kind === "select") {
    const at = control.literals.indexOf(text);
    return at >= 0 ? control.options[at] : null;
  }
  if (!/^-?[0-9][0-9.e+-]*$/.test(text)) return null;
  const value = Number(text);
  if (!Number.isFinite(value) || value < control.min || value > control.max) return null;
  return literalText(value, type) === text ? value : null;
}

/** Whether `source` is `original` with only the bound literals' texts changed, each to a text
 *  this page writes for a value its control allows: then the bindings (and values) are known
 *  without the worker. -> {bindings, values} | null. `bindings` are the original's
 *  ({name: {from, to, type}}), `controls` those of controlsOf() plus `literals` for selects,
 *  `initial` the card's values (what the original's own literal texts stand for). */
export function matchOriginal(source, original, bindings, controls, initial) {
  const spans = Object.entries(bindings).sort((a, b) => a[1].from - b[1].from);
  const byName = new Map(controls.map((control) => [control.bind, control]));
  const found = {};
  const values = {};
  let at = 0; // where the next original segment must start in `source`
  let from = 0; // where it starts in `original`
  for (const [name, span] of spans) {
    const segment = original.slice(from, span.from);
    if (!source.startsWith(segment, at)) return null;
    at += segment.length;
    const control = byName.get(name);
    // The card's own literal text stands for the card's value, however it is written (`0.50`).
    const own = original.slice(span.from, span.to);
    const text = source.startsWith(own, at) && literalEnds(source, at + own.length) ? own : literalAt(source, at, control);
    const value = text === own ? initial[name] : text === null ? null : valueOfText(control, text, span.type);
    if (value === null) return null;
    found[name] = { from: at, to: at + text.length, type: span.type };
    values[name] = value;
    at += text.length;
    from = span.to;
  }
  if (source.slice(at) !== original.slice(from)) return null;
  return { bindings: found, values };
}

// Whether a literal may end at `at`: not inside a longer number or name (`10` in `100`).
const literalEnds = (source, at) => !/[\w.]/.test(source[at] ?? "");

function literalAt(source, at, control) {
  if (control.kind === "select") return control.literals.find((text) => source.startsWith(text, at)) ?? null;
  const match = /^(True|False|-?[0-9][0-9.e+-]*)/.exec(source.slice(at, at + 40));
  return match ? match[1] : null;
}

export function rewriteLiteral(source, bindings, name, text) {
  const { from, to } = bindings[name];
  const delta = text.length - (to - from);
  const moved = {};
  for (const [other, binding] of Object.entries(bindings)) {
    const shift = binding.from >= to ? delta : 0;
    moved[other] = { ...binding, from: binding.from + shift, to: binding.to + shift };
  }
  moved[name] = { ...bindings[name], to: from + text.length };
  return { source: source.slice(0, from) + text + source.slice(to), bindings: moved };
}

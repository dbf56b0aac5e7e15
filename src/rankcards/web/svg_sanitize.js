// Sanitize SVG produced by the reader's code (an example's figure) before it enters the page.
//
// Why in the page too (the build sanitizes its own figures in rankcards/web/svg.py): the code
// that ran may be someone else's, arrived in a shared link. Both apply svg_allow.json (written
// beside this module as svg_allow.js at site build) with the same rules:
//   * a DTD (<!DOCTYPE / <!ENTITY), XML that is not well-formed, a root other than <svg>, or
//     more than `max_length` characters reject it as a whole (null): checked here, at once, with
//     the browser's XML parser (DOMParser, image/svg+xml; the parsed document is inert);
//   * DOMPurify (purify.js, minified from the pinned npm package at site build; imported by the
//     first figure, or with the first run on a page showing one: never with the page)
//     then parses it again as XML in the SVG namespace and
//     removes, with its SVG profile, what it never lets through (scripts, foreign namespaces,
//     markup hidden in comments or values...); its hooks apply the allow-list on top:
//   * an element outside the SVG namespace or not in `elements` is dropped with its content
//     (script, style, foreignObject, image, animations...); comments and PIs too;
//   * an attribute not in `attributes` is dropped (every on* handler among them); so is a value
//     with a backslash, a javascript:/data:/vbscript: scheme, or url(...) other than url(#id);
//     a link (href, xlink:href) must be a #fragment: nothing external is ever loaded.
// DOMPurify is stricter than the build in a few corners no figure of ours reaches (it trims
// attribute values, drops a prefixed SVG element such as <s:rect>, a value holding "/>").
//
//   sanitizeSvg(markup, allow = ALLOW, doc = document) -> Promise<SVGSVGElement | null>
//   figureElement(markup) -> <div class="rc-example__figure" data-rc-figure>, filled with the
//                            sanitized SVG (styled by plot.css) once DOMPurify has cleaned it,
//                            or null when it is rejected as a whole: what an example
//                            (editor.js) or an exercise shows for a figure, in the run's order

import ALLOW from "./svg_allow.js";

const SVG_NS = "http://www.w3.org/2000/svg";
const XLINK_NS = "http://www.w3.org/1999/xlink";
const XML_NS = "http://www.w3.org/XML/1998/namespace";
const SCHEME = /(?:javascript|data|vbscript)\s*:/i;
const LOCAL_URL = /^\s*url\(\s*#[A-Za-z_][\w.:-]*\s*\)\s*$/i;
const FRAGMENT = /^#[A-Za-z_][\w.:-]*$/;
const DTD = /<!(?:DOCTYPE|ENTITY)/i;
// A fragment (what DOMPurify parses) cannot hold the XML declaration a document may open with.
const XML_DECLARATION = /^<\?xml\s[^>]*\?>/;
const PREFIXES = new Map([
  [null, ""],
  [XLINK_NS, "xlink:"],
  [XML_NS, "xml:"],
]);
const purifiers = new WeakMap(); // allow-list -> promise of a DOMPurify instance with its hooks

export function valueAllowed(name, value, allow = ALLOW) {
  if (value.includes("\\") || SCHEME.test(value)) return false;
  if (allow.link_attributes.includes(name)) return FRAGMENT.test(value.trim());
  if (value.replace(/\s+/g, "").toLowerCase().includes("url(")) return LOCAL_URL.test(value);
  return true;
}

// Whether `markup` is accepted as a whole: the same verdict as the build's, before any import.
function wholeAccepted(markup, allow) {
  if (typeof markup !== "string" || markup.length > allow.max_length || DTD.test(markup)) {
    return false;
  }
  const parsed = new DOMParser().parseFromString(markup, "image/svg+xml");
  const root = parsed.documentElement;
  if (!root || parsed.getElementsByTagNameNS("http://www.w3.org/1999/xhtml", "parsererror").length) {
    return false;
  }
  return root.localName === "svg" && (root.namespaceURI === null || root.namespaceURI === SVG_NS);
}

function attributeName(attribute) {
  const prefix = PREFIXES.get(attribute.namespaceURI);
  return prefix === undefined ? null : prefix + attribute.localName;
}

async function makePurifier(allow) {
  const { default: createDOMPurify } = await import("./purify.js");
  const purify = createDOMPurify(window);
  purify.addHook("uponSanitizeElement", (node) => {
    // Not DOMPurify's own holder of the fragment (the root of its walk, a <template>).
    if (node.nodeType !== Node.ELEMENT_NODE || node.parentNode === node.ownerDocument) return;
    if (node.namespaceURI !== SVG_NS || !allow.elements.includes(node.localName)) {
      node.remove(); // with its content; DOMPurify skips a node its hook detached
      return;
    }
    // Character data as text (DOMPurify would drop a CDATA section), as the build keeps it.
    for (const child of node.childNodes) {
      if (child.nodeType === Node.CDATA_SECTION_NODE) child.replaceWith(child.data);
    }
  });
  purify.addHook("uponSanitizeAttribute", (node, data) => {
    const attribute = node.getAttributeNode(data.attrName);
    const name = attribute && attributeName(attribute);
    data.keepAttr =
      name !== null &&
      allow.attributes.includes(name) &&
      !name.toLowerCase().startsWith("on") &&
      valueAllowed(name, attribute.value, allow);
  });
  return purify;
}

// One instance per allow-list, made once even when figures arrive before the import resolves.
function purifier(allow) {
  if (!purifiers.has(allow)) {
    const made = makePurifier(allow);
    made.catch(() => purifiers.delete(allow)); // a failed import is tried again on the next figure
    purifiers.set(allow, made);
  }
  return purifiers.get(allow);
}

// A page that shows a figure shows it again when its code runs (Run, a bound control, whose new
// view replaces the old at the run's end): there the first run waits for DOMPurify (editor.js
// loads this module with that run), so that a run's figures are never shown empty while it
// loads. Other pages fetch it with their first figure. A failed import is not an error here: the
// figure that needs it reports it.
export function figuresReady() {
  if (!document.querySelector("[data-rc-figure]")) return Promise.resolve();
  return purifier(ALLOW).then(
    () => {},
    () => {},
  );
}

export async function sanitizeSvg(markup, allow = ALLOW, doc = document) {
  if (!wholeAccepted(markup, allow)) return null;
  const purify = await purifier(allow);
  const cleaned = purify.sanitize(markup.replace(XML_DECLARATION, ""), {
    NAMESPACE: SVG_NS, // parsed as an XML fragment whose default namespace is SVG's
    PARSER_MEDIA_TYPE: "application/xhtml+xml", // names kept in their case (viewBox)
    USE_PROFILES: { svg: true },
    // The allow-list's names pass DOMPurify's own lists (its profile lacks <use>, role...);
    // the hooks above keep nothing else.
    ADD_TAGS: allow.elements,
    ADD_ATTR: allow.attributes,
    KEEP_CONTENT: false,
    RETURN_DOM: true,
  });
  const [svg, ...others] = cleaned.children;
  if (!svg || others.length || svg.namespaceURI !== SVG_NS || svg.localName !== "svg") return null;
  return doc.importNode(svg, true);
}

export function figureElement(markup, doc = document) {
  if (!wholeAccepted(markup, ALLOW)) return null;
  const holder = doc.createElement("div");
  holder.className = "rc-example__figure";
  holder.dataset.rcFigure = "";
  // Not loaded (offline, say) or emptied by the sanitizer: no figure rather than an empty frame.
  sanitizeSvg(markup, ALLOW, doc).then(
    (svg) => (svg ? holder.append(svg) : holder.remove()),
    () => holder.remove(),
  );
  return holder;
}

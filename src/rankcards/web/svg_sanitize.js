// Sanitize SVG produced by the reader's code (an example's figure) before it enters the page.
//
// Why in the page too (the build sanitizes its own figures in rankcards/web/svg.py): the code
// that ran may be someone else's, arrived in a shared link. Both apply svg_allow.json (written
// beside this module as svg_allow.js at site build) with the same rules:
//   * parsed as XML (DOMParser, image/svg+xml); a DTD (<!DOCTYPE / <!ENTITY), a parse error, a
//     root other than <svg>, or more than `max_length` characters reject it as a whole (null);
//   * an element outside the SVG namespace (or none) or not in `elements` is dropped with its
//     content (script, style, foreignObject, image, animations...); comments and PIs too;
//   * an attribute not in `attributes` is dropped (every on* handler among them); so is a value
//     with a backslash, a javascript:/data:/vbscript: scheme, or url(...) other than url(#id);
//     a link (href, xlink:href) must be a #fragment: nothing external is ever loaded;
//   * the result is built anew with createElementNS / setAttributeNS / text nodes, never by
//     assigning markup, so nothing of the input runs, even while it is being cleaned (the parsed
//     XML document is inert: scripts in it never run, no resources load).
//
//   sanitizeSvg(markup, allow = ALLOW, doc = document) -> SVGSVGElement | null
//   figureElement(markup) -> <div class="rc-example__figure" data-rc-figure> holding the
//                            sanitized SVG (styled by plot.css), or null when it is rejected:
//                            what an example (editor.js) or an exercise shows for a figure

import ALLOW from "./svg_allow.js";

const SVG_NS = "http://www.w3.org/2000/svg";
const XLINK_NS = "http://www.w3.org/1999/xlink";
const XML_NS = "http://www.w3.org/XML/1998/namespace";
const SCHEME = /(?:javascript|data|vbscript)\s*:/i;
const LOCAL_URL = /^\s*url\(\s*#[A-Za-z_][\w.:-]*\s*\)\s*$/i;
const FRAGMENT = /^#[A-Za-z_][\w.:-]*$/;
const DTD = /<!(?:DOCTYPE|ENTITY)/i;
const PREFIXES = new Map([
  [null, ""],
  [XLINK_NS, "xlink:"],
  [XML_NS, "xml:"],
]);

export function valueAllowed(name, value, allow = ALLOW) {
  if (value.includes("\\") || SCHEME.test(value)) return false;
  if (allow.link_attributes.includes(name)) return FRAGMENT.test(value.trim());
  if (value.replace(/\s+/g, "").toLowerCase().includes("url(")) return LOCAL_URL.test(value);
  return true;
}

function clean(node, doc, allow) {
  const namespace = node.namespaceURI;
  if ((namespace !== null && namespace !== SVG_NS) || !allow.elements.includes(node.localName)) {
    return null;
  }
  const copy = doc.createElementNS(SVG_NS, node.localName);
  for (const attribute of node.attributes) {
    if (!PREFIXES.has(attribute.namespaceURI)) continue;
    const name = PREFIXES.get(attribute.namespaceURI) + attribute.localName;
    if (!allow.attributes.includes(name) || name.toLowerCase().startsWith("on")) continue;
    if (!valueAllowed(name, attribute.value, allow)) continue;
    copy.setAttributeNS(attribute.namespaceURI, name, attribute.value);
  }
  for (const child of node.childNodes) {
    if (child.nodeType === Node.ELEMENT_NODE) {
      const kept = clean(child, doc, allow);
      if (kept) copy.append(kept);
    } else if (child.nodeType === Node.TEXT_NODE || child.nodeType === Node.CDATA_SECTION_NODE) {
      copy.append(doc.createTextNode(child.data));
    }
  }
  return copy;
}

export function sanitizeSvg(markup, allow = ALLOW, doc = document) {
  if (typeof markup !== "string" || markup.length > allow.max_length || DTD.test(markup)) {
    return null;
  }
  const parsed = new DOMParser().parseFromString(markup, "image/svg+xml");
  const root = parsed.documentElement;
  if (!root || parsed.getElementsByTagNameNS("http://www.w3.org/1999/xhtml", "parsererror").length) return null;
  if (root.localName !== "svg" || (root.namespaceURI !== null && root.namespaceURI !== SVG_NS)) {
    return null;
  }
  return clean(root, doc, allow);
}

export function figureElement(markup, doc = document) {
  const svg = sanitizeSvg(markup, ALLOW, doc);
  if (!svg) return null;
  const holder = doc.createElement("div");
  holder.className = "rc-example__figure";
  holder.dataset.rcFigure = "";
  holder.append(svg);
  return holder;
}

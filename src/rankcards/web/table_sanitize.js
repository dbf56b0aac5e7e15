// Sanitize an HTML table produced by the reader's code (a value with _repr_html_, e.g.
// rankcards.plot.Table) before it enters the page.
//
// Why in the page too (the build sanitizes its own tables in rankcards/web/table.py): the code
// that ran may be someone else's, arrived in a shared link. Both apply table_allow.json (written
// beside this module as table_allow.js at site build) with the same rules:
//   * parsed as XML (DOMParser, application/xml); a DTD (<!DOCTYPE / <!ENTITY), a parse error
//     (an HTML-only entity such as &nbsp; is one), a root other than <table> (no namespace or
//     XHTML's), or more than `max_length` characters reject it as a whole (null);
//   * an element not in `elements` (or in another namespace) is dropped with its content;
//     comments and processing instructions too;
//   * an attribute is kept only when `attributes` lists it and its value passes that entry's
//     rule: one of `values`; for class, the tokens (split at ASCII whitespace) in `tokens` (none
//     left: dropped); or the whole value matching `pattern`. Event handlers, style, href and
//     src are never listed;
//   * the result is built anew with createElement / setAttribute / text nodes, never by
//     assigning markup (the parsed XML document is inert: nothing in it runs or loads).
//
//   sanitizeTable(markup, allow = ALLOW, doc = document) -> HTMLTableElement | null
//   tableElement(markup) -> <div class="rc-example__table" data-rc-table> holding the sanitized
//                           table, or null when it is rejected: what an example shows for a table

import ALLOW from "./table_allow.js";

const XHTML_NS = "http://www.w3.org/1999/xhtml";
const DTD = /<!(?:DOCTYPE|ENTITY)/i;

export function allowedValue(name, value, allow = ALLOW) {
  if (!Object.hasOwn(allow.attributes, name)) return null;
  const rule = allow.attributes[name];
  if (rule.tokens) {
    const kept = value.split(/[\t\n\f\r ]+/).filter((token) => token && rule.tokens.includes(token));
    return kept.length ? kept.join(" ") : null;
  }
  if (rule.values) return rule.values.includes(value) ? value : null;
  return new RegExp(`^(?:${rule.pattern})$`, "u").test(value) ? value : null; // code points, as Python
}

function ours(node) {
  return node.namespaceURI === null || node.namespaceURI === XHTML_NS;
}

function clean(node, doc, allow) {
  if (!ours(node) || !allow.elements.includes(node.localName)) return null;
  const copy = doc.createElement(node.localName);
  for (const attribute of node.attributes) {
    if (attribute.namespaceURI !== null) continue; // xml:, xlink:... are never listed
    const value = allowedValue(attribute.localName, attribute.value, allow);
    if (value !== null) copy.setAttribute(attribute.localName, value);
  }
  if (allow.void.includes(node.localName)) return copy;
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

export function sanitizeTable(markup, allow = ALLOW, doc = document) {
  if (typeof markup !== "string" || markup.length > allow.max_length || DTD.test(markup)) return null;
  const parsed = new DOMParser().parseFromString(markup, "application/xml");
  const root = parsed.documentElement;
  if (!root || parsed.getElementsByTagName("parsererror").length) return null;
  if (root.localName !== "table" || !ours(root)) return null;
  return clean(root, doc, allow);
}

export function tableElement(markup, doc = document) {
  const table = sanitizeTable(markup, ALLOW, doc);
  if (!table) return null;
  const holder = doc.createElement("div");
  holder.className = "rc-example__table";
  holder.dataset.rcTable = "";
  holder.append(table);
  return holder;
}

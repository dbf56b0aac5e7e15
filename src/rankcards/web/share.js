// Shared links: a card's demo state and, optionally, the reader's code travel in the URL hash,
//   #demo=<base64url of the JSON changes from the card's initial state>&code=<base64url deflate-raw>
// (state_check.js decides whether a decoded state may be used; nothing here runs anything).
//
//   readLink()                 -> {demo: string|null, code: string|null}  the hash's parameters
//   writeLink({demo?, code?})  replaces the hash's parameters (null removes one) with
//                              history.replaceState: moving a slider must not flood history
//   writeLinkSoon(owner, changesOf)  writeLink(changesOf()) once the page has had no newer
//                              call for LINK_DELAY_MS (one per owner, the latest; changesOf()
//                              may return null: nothing to write)
//   writeLinkNow(owner, changesOf)  the same, written now with every other waiting write (Share,
//                              a note's way back)
//   flushLinks()               does the waiting writes now: whatever reads the link to share it
//                              (Share, Share with code) calls it first; a module that does not
//                              import this one dispatches `rankcards:flush-link` on window (the
//                              PNG export of draw_export.js)
//   encodeJSON(value) / decodeJSON(text)          base64url JSON (decode throws on garbage)
//   demoParameter(changes)     the link's `demo` for a demo's changes from its card's state
//                              (state_check.js changesFrom): null when there are none
//   compressText(text) / decompressText(text)     deflate-raw + base64url (async; bounded)
//   copyLink(url, field)       copies url; if the clipboard is unavailable, shows `field`
//                              (a read-only input) with the url selected -> "copied" | "select"
//   new RestoredNote(section, text, said, back)   the note a demo opened from a link shows
//                              (demo.js, bound.js): show(before), hide(); its button calls back()
//
// Why the hash: it never reaches the server, and a page keeps working with any hash it gets.

export const MAX_PARAM = 16_000; // characters of one encoded parameter (a link stays a link)
export const MAX_CODE = 50_000; // characters of decompressed code

const PARAMS = ["demo", "code"];

function toBase64url(bytes) {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64url(text) {
  if (typeof text !== "string" || text.length > MAX_PARAM || !/^[A-Za-z0-9_-]*$/.test(text)) {
    throw new Error("not base64url (or too long)");
  }
  const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(binary, (char) => char.charCodeAt(0));
}

export const encodeJSON = (value) => toBase64url(new TextEncoder().encode(JSON.stringify(value)));

export function decodeJSON(text) {
  return JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(fromBase64url(text)));
}

// The bytes go through the (de)compression stream inside the page: a Blob's stream would be
// read back from the browser process, one more process for a reader's click to wait on.
function through(bytes, stream) {
  const writer = stream.writable.getWriter();
  writer.write(bytes).catch(() => {}); // a bad input's error reaches the reader side too
  writer.close().catch(() => {});
  return stream.readable;
}

export async function compressText(text) {
  const compressed = through(new TextEncoder().encode(text), new CompressionStream("deflate-raw"));
  return toBase64url(new Uint8Array(await new Response(compressed).arrayBuffer()));
}

export async function decompressText(encoded) {
  const reader = through(fromBase64url(encoded), new DecompressionStream("deflate-raw")).getReader();
  const chunks = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > MAX_CODE * 4) {
      reader.cancel().catch(() => {});
      throw new Error("code too long");
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  const text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  if (text.length > MAX_CODE) throw new Error("code too long");
  return text;
}

function hashParams() {
  const hash = location.hash.slice(1);
  // A plain anchor (#example-mrr) is not ours: it is kept only while no parameter is written.
  return hash.includes("=") ? new URLSearchParams(hash) : new URLSearchParams();
}

export function readLink() {
  const params = hashParams();
  return { demo: params.get("demo"), code: params.get("code") };
}

/** The page's URL with the given parameters replaced (null removes one). */
export function linkWith(changes) {
  const params = hashParams();
  for (const name of PARAMS) {
    if (!(name in changes)) continue;
    if (changes[name] === null) params.delete(name);
    else params.set(name, changes[name]);
  }
  const url = new URL(location.href);
  const hash = params.toString();
  url.hash = hash || (location.hash.includes("=") ? "" : location.hash);
  return url.href.endsWith("#") ? url.href.slice(0, -1) : url.href;
}

export function writeLink(changes) {
  const href = linkWith(changes);
  if (href !== location.href) history.replaceState(history.state, "", href);
}

// Why the URL waits: each history.replaceState is a same-document navigation that Chromium's
// browser process commits (about 10 ms of its CPU here), which on two cores slowed the reader's
// next change, and a drag over several steps needs one write, not one per step. The waiting
// writes are done before the page goes away or follows a link (so that Back finds the state),
// and by every reader of the link (flushLinks).
export const LINK_DELAY_MS = 300;
const waitingWrites = new Map(); // owner -> changesOf
let linkTimer = null;

export function demoParameter(changes) {
  return { demo: Object.keys(changes).length ? encodeJSON(changes) : null };
}

export function writeLinkSoon(owner, changesOf) {
  waitingWrites.set(owner, changesOf);
  clearTimeout(linkTimer);
  linkTimer = setTimeout(flushLinks, LINK_DELAY_MS);
}

export function writeLinkNow(owner, changesOf) {
  waitingWrites.set(owner, changesOf);
  flushLinks();
}

export function flushLinks() {
  clearTimeout(linkTimer);
  const writes = [...waitingWrites.values()];
  waitingWrites.clear();
  const changes = Object.assign({}, ...writes.map((changesOf) => changesOf() ?? {}));
  if (Object.keys(changes).length) writeLink(changes);
}

if (globalThis.document) {
  addEventListener("pagehide", flushLinks);
  addEventListener("rankcards:flush-link", flushLinks);
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "hidden") flushLinks();
  });
  document.addEventListener(
    "click",
    (event) => {
      if (waitingWrites.size && event.target.closest?.("a[href]")) flushLinks();
    },
    true, // before Material's instant navigation puts the next page's URL in place
  );
}

export async function copyLink(url, field) {
  field.value = url;
  try {
    if (!navigator.clipboard?.writeText) throw new Error("no clipboard");
    await navigator.clipboard.writeText(url);
    field.hidden = true;
    return "copied";
  } catch {
    field.hidden = false;
    field.focus();
    field.select();
    return "select";
  }
}

// A reader who opens a shared link sees the link's state, not the card's: the note says so (a
// polite live region, filled once it is in the page so that screen readers announce it) and
// its button brings the card's own state back.
function restoredNotice(text, back) {
  const notice = document.createElement("div");
  notice.className = "rc-share__notice rc-share__restored";
  notice.dataset.rcShareRestored = "";
  const said = document.createElement("span");
  said.setAttribute("role", "status");
  const button = document.createElement("button");
  button.type = "button";
  button.className = "md-button rc-share__back";
  button.textContent = text.back;
  button.addEventListener("click", back);
  notice.append(said, button);
  requestAnimationFrame(() => (said.textContent = text.restored));
  return notice;
}

// The note of one demo (section): show(before) marks the section (data-rc-shared="restored"),
// puts the note before `before` (the demo's top, where the invalid-link notice goes) and, the
// reader having come for this demo, scrolls it into view once the page has laid out; hide()
// removes the note (the state is no longer the link's). Its button unmarks the section, calls
// back() to set the card's own state, and moves the focus to the Share button (the note's
// button is gone), whose status line `said` tells the reader.
export class RestoredNote {
  #section;
  #text;
  #said;
  #back;
  #note = null; // while it is shown

  constructor(section, text, said, back) {
    this.#section = section;
    this.#text = text;
    this.#said = said;
    this.#back = back;
  }

  show(before) {
    this.#section.dataset.rcShared = "restored";
    this.#note = restoredNotice(this.#text, () => this.#backToCard());
    before.before(this.#note);
    requestAnimationFrame(() => this.#section.scrollIntoView({ block: "start" }));
  }

  hide() {
    this.#note?.remove();
    this.#note = null;
  }

  #backToCard() {
    this.hide();
    delete this.#section.dataset.rcShared;
    this.#back();
    this.#section.querySelector("[data-rc-share-button]").focus();
    this.#said.textContent = this.#text.backDone;
  }
}

// Material's search worker, started once the page's Python runtime is no longer booting.
//
// Why: Material builds its search index (lunr, with both languages' stemmers) in a worker as soon
// as a page loads. On two cores that work and the Python runtime's boot slowed each other: with
// the index held back, a card's demo was live ~60 ms sooner on a first visit and the runtime
// ready ~50 ms sooner on a second (README, "Benchmarks").
//
// How: the rankcards plugin names this script as the search worker in Material's page config
// (rankcards.web.gate_search), with Material's own worker as `?worker=`. This classic worker
// holds every message Material sends until runtime.js posts "go" on the BroadcastChannel
// `rankcards:search` (at once when the page boots no runtime, else once it is ready or has
// failed), or HOLD_LIMIT_MS have passed; it then loads Material's worker into itself and replays
// the held messages in order. It sits beside Material's worker because that one loads its
// language files relative to its own URL ("../lunr").
//
// The page's language first: the index holds both languages, and a card's pages in both carry
// the card's names in both (rankcards.site._search), so "MAP" or «precisión media» matches the
// English and the Spanish page about equally and lunr's order between them is an accident. The
// gate reorders each result list Material's worker posts: a page in the other language whose
// counterpart in the page's language (`&lang=`) is also found comes right after it; everything
// else keeps lunr's order, so the other language's card stays next to the reader's. The
// language is the one of the page that started the worker: Material keeps its worker across
// instant navigations, and a change of language is a full page load (language.js; the root
// page redirects).

const HOLD_LIMIT_MS = 4000;
const CHANNEL = "rankcards:search";

const material = new URL(new URL(self.location.href).searchParams.get("worker") ?? "", self.location.href);
if (material.origin !== self.location.origin || !material.pathname.endsWith(".js")) {
  throw new Error(`rankcards search gate: no Material search worker in ${self.location.href}`);
}

const lang = new URL(self.location.href).searchParams.get("lang");

// Material's result message: {type, data: {items: [[article, ...sections], ...], ...}}; the
// locations are relative to the site root ("es/mrr/#formula").
const LANGUAGE_PATH = /^([a-z]{2})\/([^#]*)/;

function ownLanguageFirst(message) {
  const items = message?.data?.items;
  if (!lang || !Array.isArray(items)) return message;
  const path = (group) => LANGUAGE_PATH.exec(String(group[0]?.location ?? "")) ?? [];
  const own = new Map();
  for (const group of items) {
    const [, language, rest] = path(group);
    if (language === lang) own.set(rest, group);
  }
  const ordered = [];
  const placed = new Set();
  for (const group of items) {
    if (placed.has(group)) continue;
    const [, language, rest] = path(group);
    const counterpart = language && language !== lang ? own.get(rest) : undefined;
    if (counterpart && !placed.has(counterpart)) {
      ordered.push(counterpart);
      placed.add(counterpart);
    }
    ordered.push(group);
    placed.add(group);
  }
  return { ...message, data: { ...message.data, items: ordered } };
}

const held = [];
const hold = (event) => held.push(event.data);
self.addEventListener("message", hold);

const channel = self.BroadcastChannel ? new BroadcastChannel(CHANNEL) : null;
let timer = null;
let started = false;

function start() {
  if (started) return;
  started = true;
  clearTimeout(timer);
  channel?.close();
  self.removeEventListener("message", hold);
  const post = self.postMessage.bind(self);
  self.postMessage = (message, ...rest) => post(ownLanguageFirst(message), ...rest);
  importScripts(material.href);
  for (const data of held) self.dispatchEvent(new MessageEvent("message", { data }));
}

if (channel) {
  channel.onmessage = ({ data }) => {
    if (data === "go") start();
  };
  channel.postMessage("waiting"); // a page whose runtime.js already ran answers "go" if it may
  timer = setTimeout(start, HOLD_LIMIT_MS);
} else {
  start();
}

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
// failed, or as soon as the reader opens search), or HOLD_LIMIT_MS have passed with no page
// saying "hold" (a page whose scripts never ran must still get search); it then loads
// Material's worker into itself and replays the held messages in order. It sits beside
// Material's worker because that one loads its language files relative to its own URL ("../lunr").
//
// The index's documents wait too: Material's page fetches search_index.json as it loads and
// posts it to this worker, so the build leaves only the index's config there, naming the file
// that holds the documents (`config.rankcards_docs`, in search/: rankcards.web.defer_search_docs).
// The gate fetches that file when it starts and puts the documents into Material's setup
// message: a card page downloads no index before its runtime (issue 24). An index with its
// documents in place (another build) is replayed as it came.
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

// Every message Material's page sends goes through this listener, registered before Material's
// worker: held until the start, then passed on in order (Material's listener sees only the
// replayed, untrusted copies), a setup message once its documents are in.
const held = [];
let passing = Promise.resolve();
self.addEventListener("message", (event) => {
  if (!event.isTrusted) return; // a replayed message, for Material's worker
  event.stopImmediatePropagation();
  if (started) pass(event.data);
  else held.push(event.data);
});

function pass(data) {
  const ready = withDocuments(data);
  passing = passing.then(async () => {
    self.dispatchEvent(new MessageEvent("message", { data: await ready }));
  });
}

// Material's setup message ({type: 0, data: {config, docs, options}}) with the documents the
// build moved out of search_index.json; any other message as it is.
const DOCS_FOLDER = new URL("../../../search/", self.location.href); // workers/ -> the site root
async function withDocuments(data) {
  const name = data?.data?.config?.rankcards_docs;
  if (typeof name !== "string" || !/^[\w.-]+\.json$/.test(name)) return data;
  try {
    const response = await fetch(new URL(name, DOCS_FOLDER));
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    return { ...data, data: { ...data.data, docs: await response.json() } };
  } catch (error) {
    console.error(`rankcards search gate: ${name}: ${error.message}`); // search finds nothing
    return data;
  }
}

const channel = self.BroadcastChannel ? new BroadcastChannel(CHANNEL) : null;
let timer = null;
let started = false;

function start() {
  if (started) return;
  started = true;
  clearTimeout(timer);
  channel?.close();
  const post = self.postMessage.bind(self);
  self.postMessage = (message, ...rest) => post(ownLanguageFirst(message), ...rest);
  importScripts(material.href);
  for (const data of held.splice(0)) pass(data);
}

if (channel) {
  channel.onmessage = ({ data }) => {
    if (data === "go") start();
    else if (data === "hold") clearTimeout(timer); // a page will say "go"
  };
  channel.postMessage("waiting"); // a page whose runtime.js already ran answers "go" if it may
  timer = setTimeout(start, HOLD_LIMIT_MS);
} else {
  start();
}

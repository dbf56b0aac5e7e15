// A reader's edit of a card's code example, kept in this browser (localStorage) per card and
// language, so a reload (or a later visit) shows the code as they left it.
//
//   loadEdit(slug, lang, original)       -> {source, base, stale} | null
//   saveEdit(slug, lang, source, original, base?)  keeps source (forgets it when it equals
//                                        original); base: the hash of the original it was made on
//   forgetEdit(slug, lang)
//   sourceHash(text)                     -> 16 hex digits (FNV-1a, two seeds)
//
// Each kept edit stores the hash of the original it was made on: when a new build changes the
// card's example, `stale` is true and the page says so (the reader may keep their code or Reset).
// Storage may be unavailable (private mode, blocked cookies, quota): then nothing is kept and
// nothing fails.

const PREFIX = "rankcards:edit:";
const MAX_SOURCE = 100_000;

const keyOf = (slug, lang) => `${PREFIX}${lang}:${slug}`;

function fnv1a(text, seed) {
  let hash = seed >>> 0;
  for (let i = 0; i < text.length; i += 1) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, "0");
}

export const sourceHash = (text) => fnv1a(text, 0x811c9dc5) + fnv1a(text, 0x050c5d1f);

function storage() {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null; // access itself throws when storage is blocked
  }
}

export function loadEdit(slug, lang, original) {
  try {
    const raw = storage()?.getItem(keyOf(slug, lang));
    if (!raw) return null;
    const kept = JSON.parse(raw);
    if (typeof kept?.source !== "string" || typeof kept?.base !== "string") return null;
    return { source: kept.source, base: kept.base, stale: kept.base !== sourceHash(original) };
  } catch {
    return null;
  }
}

export function forgetEdit(slug, lang) {
  try {
    storage()?.removeItem(keyOf(slug, lang));
  } catch {
    // nothing kept, nothing to forget
  }
}

/** Keeps `source` (true) or forgets it when it is the original or too large (false). */
export function saveEdit(slug, lang, source, original, base = sourceHash(original)) {
  if (source === original || source.length > MAX_SOURCE) {
    forgetEdit(slug, lang);
    return false;
  }
  try {
    storage()?.setItem(keyOf(slug, lang), JSON.stringify({ source, base, saved: new Date().toISOString() }));
    return true;
  } catch {
    return false;
  }
}

// The language selector goes to the same page in the other language.
//
// Material's selector assumes one MkDocs site per language (/en/ and /es/ each with the same
// relative paths): on a click it rewrites /es/mrr/ into /en/es/mrr/, finds no such page in
// en/sitemap.xml and falls back to the English home page. rankcards is one site whose cards
// exist under both /en/ and /es/, and the selector's links already point at the counterpart
// (templates/partials/alternate.html), so the click is kept away from Material's handler and
// the browser follows the link.

const SELECTOR_LINK = "a.md-select__link[hreflang]";

document.addEventListener(
  "click",
  (event) => {
    const link = event.target instanceof Element ? event.target.closest(SELECTOR_LINK) : null;
    if (link !== null && !event.metaKey && !event.ctrlKey) {
      event.stopPropagation(); // capture phase on document: Material listens on document.body
    }
  },
  true,
);

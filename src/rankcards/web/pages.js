// The pages Material shows, for the page's modules, whether Material's script has run yet or not.
//
//   import { eachPage } from "./pages.js";
//   eachPage(fn)     calls fn() for the current page, then for every page Material's instant
//                    navigation shows (its `document$`); without Material, or before its script
//                    ran, fn() runs once, now, and follows Material's pages once it runs.
//   themeArrived()   called by theme.js once Material's script ran late and announced the page.
//
// Material's script runs late on a page whose first screen boots the Python runtime (theme.js).
// No imports: the drawing layer uses it on sites without the runtime.
const waiting = []; // eachPage callbacks that run before the theme's document$ existed

export function eachPage(fn) {
  const pages = globalThis.document$;
  if (pages?.subscribe) {
    pages.subscribe(() => fn()); // it replays the current page at once
    return;
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", () => fn(), { once: true });
  else fn();
  waiting.push(fn);
}

// The current page was handled without the theme: each callback follows the pages it shows
// next, skipping the current one that `document$` replays during subscribe().
export function themeArrived() {
  const pages = globalThis.document$;
  if (!pages?.subscribe) return;
  for (const fn of waiting.splice(0)) {
    let replaying = true;
    pages.subscribe(() => {
      if (!replaying) fn();
    });
    replaying = false;
  }
}

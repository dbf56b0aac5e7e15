// Material's script, held back on a page whose first screen boots the Python runtime.
//
// A page module (listed last, so the page's other modules have run and the runtime's boot, if
// the first screen starts one, is under way); exports only THEME_WAIT_MS, for the tests.
//
// Why the theme's script waits: on a page whose demo or example is on the first screen, the
// Python runtime's start is bound by the CPU (two cores: the page's main thread, the worker and
// the browser's own threads), and Material's bundle (parse, palette, a forced style and layout:
// 150-250 ms of main thread) ran before the page's modules could start the worker. Without it
// ahead, the runtime is ready about 200 ms sooner on a second visit (bench/README.md, "Eighth
// session"). Such a page is built with Material's bundle as
// <link rel="preload" as="script" data-rc-theme> where its <script> was (rankcards.web's
// defer_theme): downloaded as before, run here once the first demo value is shown (the runtime
// ready or failed, and no call in flight), as soon as the reader acts (a pointer, a key, a
// focus), or THEME_WAIT_MS after the page's modules ran, whichever comes first. Until then the
// page looks as the theme will draw it (the palette and its toggle applied by theme_palette.js,
// inlined in the page; the search box shown by the "js" class); the theme's behaviour (search,
// the palette toggle, instant navigation, copy buttons) follows.
import { themeArrived } from "./pages.js";
import { runtime } from "./runtime.js";

export const THEME_WAIT_MS = 2000;
const READER_ACTS = ["pointerdown", "keydown", "focusin", "touchstart"];
const RUNTIME_EVENT = "rankcards:runtime";

function runTheme(link, then) {
  const script = document.createElement("script");
  script.src = link.href;
  script.addEventListener(
    "load",
    () => {
      // Material announces the first page on DOMContentLoaded, which fired before it ran.
      document.dispatchEvent(new Event("DOMContentLoaded"));
      themeArrived();
      then();
    },
    { once: true },
  );
  link.replaceWith(script);
}

// A palette choice the reader makes before Material's script runs is passed on to it (its
// palette component reads the stored choice when it starts; the toggle, shown by the page's
// theme_palette.js, only checked the next input).
function keepPaletteChoice() {
  const inputs = document.querySelectorAll("[data-md-component=palette] input[name=__palette]");
  let chosen = null;
  const choose = ({ target }) => (chosen = target);
  for (const input of inputs) input.addEventListener("change", choose);
  return () => {
    for (const input of inputs) input.removeEventListener("change", choose);
    chosen?.dispatchEvent(new Event("change"));
  };
}

function deferTheme(link) {
  const passPalette = keepPaletteChoice();
  let done = false;
  let timer;
  const start = () => {
    if (done) return;
    done = true;
    for (const type of READER_ACTS) removeEventListener(type, start, true);
    removeEventListener(RUNTIME_EVENT, settled);
    clearTimeout(timer);
    runTheme(link, passPalette);
  };
  const settled = ({ detail }) => {
    if (detail.state !== "ready" && detail.state !== "error") return;
    // The demos ask for their first values as the runtime turns ready: wait for those answers,
    // and for the views they update.
    setTimeout(() => runtime.idle().then(() => setTimeout(start)));
  };
  if (runtime.state !== "loading") return start(); // nothing boots on this page's first screen
  for (const type of READER_ACTS) addEventListener(type, start, { capture: true, passive: true });
  addEventListener(RUNTIME_EVENT, settled);
  timer = setTimeout(start, THEME_WAIT_MS);
}

const deferred = document.querySelector("link[data-rc-theme]");
if (deferred && !globalThis.document$) deferTheme(deferred);

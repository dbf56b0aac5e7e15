// A status line for the Python runtime: what it is doing (downloading with MB, starting, ready
// with the rankcards version, error with a Retry button), announced politely to screen readers.
//
//   import { watchStatus } from "./status.js";
//   watchStatus(element, "es" | "en");   // element: an empty <p> or <div> of the page
//
// The element gets `aria-live="polite"` and the class `rc-status rc-status--<state>`; the Retry
// button calls runtime.ensure() again. Used by the examples and, through the same import, by the
// demos, so every status on the page tells the same story.
import { runtime } from "./runtime.js";

const TEXT = {
  en: {
    idle: "Python runs in your browser when needed.",
    download: (a, b) => `Downloading Python… ${a} / ${b} MB`,
    starting: "Starting Python…",
    ready: (v) => `Python ready · rankcards ${v}`,
    error: (e) => `Python could not start: ${e}`,
    retry: "Retry",
  },
  es: {
    idle: "Python se ejecuta en tu navegador cuando hace falta.",
    download: (a, b) => `Descargando Python… ${a} / ${b} MB`,
    starting: "Iniciando Python…",
    ready: (v) => `Python listo · rankcards ${v}`,
    error: (e) => `Python no pudo iniciarse: ${e}`,
    retry: "Reintentar",
  },
};

const mb = (bytes) => (bytes / 1e6).toFixed(1);

function render(element, text) {
  const { state, progress, version, error } = runtime;
  element.className = `rc-status rc-status--${state}`;
  element.dataset.state = state;
  if (state === "loading") {
    const message =
      progress.phase === "download"
        ? text.download(mb(progress.loaded), mb(progress.total))
        : text.starting;
    if (element.textContent !== message) element.textContent = message;
  } else if (state === "ready") {
    element.textContent = text.ready(version);
  } else if (state === "error") {
    element.textContent = `${text.error(error)} `;
    const retry = document.createElement("button");
    retry.type = "button";
    retry.className = "rc-status__retry md-button";
    retry.textContent = text.retry;
    retry.addEventListener("click", () => runtime.ensure().catch(() => {}));
    element.append(retry);
  } else {
    element.textContent = text.idle;
  }
}

export function watchStatus(element, lang) {
  if (!element) return;
  const text = TEXT[lang] ?? TEXT.en;
  element.setAttribute("aria-live", "polite");
  element.hidden = false;
  const update = () => {
    if (!element.isConnected) {
      window.removeEventListener("rankcards:runtime", update);
      return;
    }
    render(element, text);
  };
  window.addEventListener("rankcards:runtime", update);
  render(element, text);
}

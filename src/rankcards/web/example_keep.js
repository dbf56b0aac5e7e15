// What an example keeps and shares (editor.js calls it; kept_edits.js stores, share.js encodes):
// the reader's edit restored on reload with an "Edited" mark, a notice when that edit was made
// on an older version of the example, code from a shared link put in the editor (never run:
// the reader presses Run), and a "Share with code" button.
//
//   const keep = keepExample(block, lang, original, setSource)
//   keep.start            the code to show first (a kept edit, else the original)
//   keep.fromLink         true once the code shown came from a shared link (never run by the page)
//   keep.changed(text)    the reader changed the code: keep it (or forget it if it is the original)
//   keep.reset()          Reset: forget the edit, the notices and the link's code
//   keep.share(source)    copy a link with the demo state and this code (compressed)
//
// setSource(text, cause) puts text in the editor (or the static code block) without it counting
// as an edit; cause is "kept" (a kept edit) or "shared" (a link's code). Marks for tests and styles: block[data-rc-edited="true"], [data-rc-edit-stale],
// [data-rc-shared-code] (data-state = "loaded" | "invalid"), [data-rc-share-code-link].
import { forgetEdit, loadEdit, saveEdit, sourceHash } from "./kept_edits.js";

// share.js on first use: a link that carries code, Share, or a Reset that takes the code out of
// the URL (issue 24: no card page needs it before its runtime).
const sharing = () => import("./share.js");
const linkHasCode = () => /[#&]code=/.test(location.hash); // share.js's readLink().code !== null

const TEXT = {
  en: {
    edited: "Edited",
    editedTitle: "Your edit is kept in this browser; Reset brings back the original.",
    stale: "You edited an older version of this example; Reset shows the current one.",
    shared: "Code from a shared link: read it, then press Run if you want to run it.",
    badShared: "The code in this link could not be read; the card's example is shown.",
    share: "Share with code",
    copied: "Link copied.",
    select: "Copy the selected link (Ctrl+C).",
    link: "Link to this page with your code",
    tooLong: "This code is too long for a link; use Copy instead.",
  },
  es: {
    edited: "Editado",
    editedTitle: "Tu edición se guarda en este navegador; Restablecer recupera el original.",
    stale: "Editaste una versión anterior de este ejemplo; Restablecer muestra la actual.",
    shared: "Código de un enlace compartido: léelo y pulsa Ejecutar si quieres ejecutarlo.",
    badShared: "No se pudo leer el código de este enlace: se muestra el ejemplo de la ficha.",
    share: "Compartir con el código",
    copied: "Enlace copiado.",
    select: "Copia el enlace seleccionado (Ctrl+C).",
    link: "Enlace a esta página con tu código",
    tooLong: "Este código es demasiado largo para un enlace; usa Copiar.",
  },
};

function node(tag, className, attribute, text = "") {
  const element = document.createElement(tag);
  element.className = className;
  element.setAttribute(attribute, "");
  element.textContent = text;
  element.hidden = true;
  return element;
}

export function keepExample(block, lang, original, setSource) {
  const text = TEXT[lang] ?? TEXT.en;
  const slug = block.id.replace(/^example-/, "") || location.pathname;
  const kept = loadEdit(slug, lang, original);
  let base = kept ? kept.base : sourceHash(original);

  const mark = node("span", "rc-example__edited", "data-rc-edited-mark", text.edited);
  mark.title = text.editedTitle;
  const stale = node("p", "rc-example__notice", "data-rc-edit-stale", text.stale);
  const shared = node("p", "rc-example__notice", "data-rc-shared-code");
  const field = node("input", "rc-share__link", "data-rc-share-code-link");
  field.readOnly = true;
  field.setAttribute("aria-label", text.link);
  const said = node("span", "rc-share__said", "data-rc-share-code-said");
  said.setAttribute("role", "status");
  said.hidden = false;
  block.querySelector("[data-rc-toolbar]").after(stale, shared, field, said);

  const output = block.querySelector("[data-rc-output]");
  const setMark = (on) => {
    mark.hidden = !on;
    block.dataset.rcEdited = String(on);
    if (!on) {
      stale.hidden = true;
      base = sourceHash(original);
    }
  };
  // The build's output (and figures) belong to the original code: not shown under other code.
  const showOther = (source, cause) => {
    setSource(source, cause);
    if (source === original) return;
    output.textContent = "";
    block.querySelector("[data-rc-figures]")?.replaceChildren(); // the original's figures too
  };

  let fromLink = false;
  if (kept && kept.source !== original) {
    showOther(kept.source, "kept");
    setMark(true);
    stale.hidden = !kept.stale;
  } else {
    setMark(false);
  }

  if (linkHasCode()) {
    sharing()
      .then(({ decompressText, readLink }) => decompressText(readLink().code))
      .then((source) => {
        fromLink = true;
        showOther(source, "shared");
        shared.textContent = text.shared;
        shared.dataset.state = "loaded";
        shared.hidden = false;
      })
      .catch(() => {
        shared.textContent = text.badShared;
        shared.dataset.state = "invalid";
        shared.hidden = false;
        sharing().then(({ writeLink }) => writeLink({ code: null }));
      });
  }

  return {
    start: kept ? kept.source : original,
    get fromLink() {
      return fromLink;
    },
    mark,
    changed(source) {
      setMark(saveEdit(slug, lang, source, original, base));
    },
    reset() {
      fromLink = false;
      forgetEdit(slug, lang);
      setMark(false);
      shared.hidden = true;
      if (linkHasCode()) sharing().then(({ writeLink }) => writeLink({ code: null }));
    },
    shareLabel: text.share,
    async share(source) {
      const { MAX_PARAM, compressText, copyLink, flushLinks, linkWith } = await sharing();
      flushLinks(); // a demo's change still waiting to be written goes with the code
      const code = await compressText(source);
      if (code.length > MAX_PARAM) {
        field.hidden = true;
        said.textContent = text.tooLong;
        return;
      }
      const url = linkWith({ code });
      said.textContent = text[await copyLink(url, field)];
    },
  };
}

// Draw / Notes layer: "Export PNG" — rasterise the annotated part of the page without a library.
//
// A browser cannot screenshot its own DOM, so the page is redrawn onto a canvas from what the DOM
// exposes: the page background, a title band (page title and address), every word of text at its
// laid-out position and font (Range.getClientRects), the inline SVG visualizers (serialised with
// their computed styles inlined, so CSS colours survive), same-origin images, and finally the
// strokes themselves (their SVG path data replayed through Path2D). Backgrounds of code blocks,
// form controls and HTML-only widgets are not reproduced. The exported region is the content's
// full width and the vertical span of the strokes (or the visible part when there are none).

const _SVG_NS = "http://www.w3.org/2000/svg";
const _PAD = 40;
const _BAND = 56;
const _MAX_SIDE = 16000;
const _MAX_AREA = 40e6;
const _SVG_PROPS = [
  "fill",
  "fill-opacity",
  "stroke",
  "stroke-width",
  "stroke-opacity",
  "stroke-dasharray",
  "stroke-linecap",
  "stroke-linejoin",
  "opacity",
  "font-family",
  "font-size",
  "font-weight",
  "font-style",
  "text-anchor",
  "dominant-baseline",
  "visibility",
];
const _SKIP_TEXT = "svg, script, style, noscript, textarea, .katex-mathml, .rc-draw-layer";

function _region(root, box, paths) {
  let top = Infinity;
  let bottom = -Infinity;
  for (const path of paths) {
    const b = path.getBBox();
    top = Math.min(top, b.y);
    bottom = Math.max(bottom, b.y + b.height);
  }
  if (!paths.length) {
    top = -box.top;
    bottom = window.innerHeight - box.top;
  }
  top = Math.max(0, top - _PAD);
  bottom = Math.min(Math.max(box.height, root.scrollHeight), bottom + _PAD);
  return { top, height: Math.max(1, bottom - top) };
}

function _drawWords(ctx, root, region) {
  const box = root.getBoundingClientRect();
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!parent || parent.closest(_SKIP_TEXT) || !node.data.trim()) continue;
    const pr = parent.getBoundingClientRect();
    if (pr.bottom - box.top < region.top || pr.top - box.top > region.top + region.height) continue;
    const style = getComputedStyle(parent);
    if (style.visibility === "hidden") continue;
    ctx.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    ctx.fillStyle = style.color;
    for (const m of node.data.matchAll(/\S+/g)) {
      range.setStart(node, m.index);
      range.setEnd(node, m.index + m[0].length);
      const r = range.getClientRects()[0];
      if (!r || r.width === 0) continue;
      const metrics = ctx.measureText(m[0]);
      const ascent = metrics.fontBoundingBoxAscent;
      const descent = metrics.fontBoundingBoxDescent;
      const baseline = r.top - box.top + (r.height - ascent - descent) / 2 + ascent;
      ctx.fillText(m[0], r.left - box.left, baseline);
    }
  }
}

function _inlineSvg(svg, rect) {
  const clone = svg.cloneNode(true);
  const from = [svg, ...svg.querySelectorAll("*")];
  const to = [clone, ...clone.querySelectorAll("*")];
  from.forEach((el, i) => {
    const cs = getComputedStyle(el);
    const style = _SVG_PROPS.map((p) => `${p}:${cs.getPropertyValue(p)}`).join(";");
    to[i].setAttribute("style", style);
  });
  clone.setAttribute("xmlns", _SVG_NS);
  clone.setAttribute("width", String(rect.width));
  clone.setAttribute("height", String(rect.height));
  return new XMLSerializer().serializeToString(clone);
}

async function _loadImage(src) {
  const img = new Image();
  img.src = src;
  await img.decode();
  return img;
}

async function _drawGraphics(ctx, root, layerSvg) {
  for (const el of root.querySelectorAll("svg, img")) {
    if (el === layerSvg || el.parentElement.closest("svg")) continue;
    const box = root.getBoundingClientRect(); // sampled with `r`: the page may scroll meanwhile
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    try {
      if (el instanceof HTMLImageElement) {
        if (new URL(el.currentSrc || el.src).origin !== location.origin) continue; // would taint
        ctx.drawImage(el, r.left - box.left, r.top - box.top, r.width, r.height);
        continue;
      }
      const blob = new Blob([_inlineSvg(el, r)], { type: "image/svg+xml" });
      const url = URL.createObjectURL(blob);
      try {
        ctx.drawImage(await _loadImage(url), r.left - box.left, r.top - box.top, r.width, r.height);
      } finally {
        URL.revokeObjectURL(url);
      }
    } catch (err) {
      console.warn(`draw: export skipped a graphic (${err.message})`);
    }
  }
}

function _drawStrokes(ctx, paths) {
  for (const path of paths) {
    const cs = getComputedStyle(path);
    ctx.save();
    ctx.globalAlpha = Number(cs.strokeOpacity) * Number(cs.opacity);
    const blend = cs.mixBlendMode; // the highlighter's, as on screen
    const blends = blend === "multiply" || blend === "screen";
    ctx.globalCompositeOperation = blends ? blend : "source-over";
    ctx.strokeStyle = cs.stroke;
    ctx.lineWidth = Number(path.getAttribute("stroke-width"));
    ctx.lineCap = "round";
    ctx.lineJoin = "round";
    ctx.stroke(new Path2D(path.getAttribute("d")));
    ctx.restore();
  }
}

/** Render the annotated region of `root` (the content box holding `layerSvg`) to a PNG Blob. */
export async function renderPng(root, layerSvg, title) {
  // The address printed in the band carries a demo's last change: share.js writes a waiting
  // one now (an event, as this layer does not depend on the site's other modules).
  dispatchEvent(new Event("rankcards:flush-link"));
  const box = root.getBoundingClientRect();
  const paths = [...layerSvg.querySelectorAll(".rc-draw-stroke:not(.rc-draw-erased)")];
  const region = _region(root, box, paths);
  const width = Math.ceil(box.width);
  const height = Math.ceil(region.height + _BAND);
  let scale = Math.min(window.devicePixelRatio || 1, 2);
  const tooBig = (s) =>
    Math.max(width, height) * s > _MAX_SIDE || width * height * s * s > _MAX_AREA;
  while (scale > 0.25 && tooBig(scale)) scale /= 2;
  const canvas = document.createElement("canvas");
  canvas.width = Math.round(width * scale);
  canvas.height = Math.round(height * scale);
  const ctx = canvas.getContext("2d");
  ctx.scale(scale, scale);
  const page = getComputedStyle(document.body);
  ctx.fillStyle = page.backgroundColor === "rgba(0, 0, 0, 0)" ? "#ffffff" : page.backgroundColor;
  ctx.fillRect(0, 0, width, height);

  ctx.fillStyle = page.color;
  ctx.font = `600 18px ${page.fontFamily}`;
  ctx.fillText(title, 16, 26, width - 32);
  ctx.font = `12px ${page.fontFamily}`;
  ctx.globalAlpha = 0.7;
  ctx.fillText(location.href, 16, 44, width - 32);
  ctx.globalAlpha = 1;

  ctx.save();
  ctx.beginPath();
  ctx.rect(0, _BAND, width, region.height);
  ctx.clip();
  ctx.translate(0, _BAND - region.top);
  await _drawGraphics(ctx, root, layerSvg);
  _drawWords(ctx, root, region);
  _drawStrokes(ctx, paths);
  ctx.restore();
  // toDataURL rather than toBlob: Chromium runs toBlob's encoder in an idle period and, on a
  // busy page, waits up to a second for one; a synchronous encode takes ~0.1-0.3 s here.
  const url = canvas.toDataURL("image/png");
  const bytes = Uint8Array.from(atob(url.slice(url.indexOf(",") + 1)), (c) => c.charCodeAt(0));
  return new Blob([bytes], { type: "image/png" });
}

/** Offer `blob` as a file download named `filename`. */
export function download(blob, filename) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = filename;
  a.hidden = true;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 30000);
}

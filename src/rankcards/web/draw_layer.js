// Draw / Notes layer: the SVG overlay inside Material's `.md-content`, its geometry and input.
//
// Why an SVG inside the content box rather than a fixed canvas: it scrolls with the page for free,
// needs no redraw on scroll, stays crisp at any zoom and has no size limit on long pages (a
// full-height canvas would). Strokes are recomputed from their anchors only when the content box
// resizes (ResizeObserver), which is also when text reflows.

const _SVG_NS = "http://www.w3.org/2000/svg";
// Elements a stroke can be anchored to: the nearest of these under the pen's first point.
const _ANCHORS =
  "svg, img, canvas, video, figure, table, pre, p, li, dt, dd, h1, h2, h3, h4, h5, h6, " +
  "blockquote, details, .admonition";
const _WIDTHS = { pen: 2.5, highlighter: 16 };
const _ERASER_RADIUS = 10;
const _MIN_STEP = 1.5; // px between recorded points: enough detail, far fewer points

const _round = (v) => Math.round(v * 1e4) / 1e4;

/** SVG path data through the points (flat [x, y, ...]), smoothed with quadratic midpoints. */
export function pathData(px) {
  const n = px.length / 2;
  const f = (v) => v.toFixed(1);
  if (n === 1) return `M${f(px[0])} ${f(px[1])}h0.01`; // a dot: round caps make it visible
  let d = `M${f(px[0])} ${f(px[1])}`;
  for (let i = 1; i < n - 1; i++) {
    const [x, y, nx, ny] = [px[2 * i], px[2 * i + 1], px[2 * i + 2], px[2 * i + 3]];
    d += `Q${f(x)} ${f(y)} ${f((x + nx) / 2)} ${f((y + ny) / 2)}`;
  }
  return `${d}L${f(px[2 * n - 2])} ${f(px[2 * n - 1])}`;
}

function _segmentDistance(x, y, ax, ay, bx, by) {
  const dx = bx - ax;
  const dy = by - ay;
  const len2 = dx * dx + dy * dy;
  const t = len2 ? Math.max(0, Math.min(1, ((x - ax) * dx + (y - ay) * dy) / len2)) : 0;
  return Math.hypot(x - ax - t * dx, y - ay - t * dy);
}

function _hits(px, width, x, y) {
  const reach = _ERASER_RADIUS + width / 2;
  if (px.length === 2) return Math.hypot(x - px[0], y - px[1]) <= reach;
  for (let i = 0; i + 3 < px.length; i += 2) {
    if (_segmentDistance(x, y, px[i], px[i + 1], px[i + 2], px[i + 3]) <= reach) return true;
  }
  return false;
}

/**
 * Create the overlay on `root` (the `.md-content` element).
 * `hooks.style()` gives the current {tool, color}; `hooks.commit(stroke)` receives a finished
 * stroke; `hooks.erase(indices)` receives the strokes the eraser went over, once per gesture.
 */
export function createLayer(root, hooks) {
  const svg = document.createElementNS(_SVG_NS, "svg");
  svg.setAttribute("class", "rc-draw-layer");
  svg.setAttribute("aria-hidden", "true");
  root.classList.add("rc-draw-root");
  root.append(svg);

  let strokes = [];
  let geometry = []; // per stroke: flat points in root pixels
  let gesture = null;

  function rootBox() {
    return root.getBoundingClientRect();
  }

  function anchorBox(stroke, box) {
    let el = root;
    for (const i of stroke.anchor) el = el ? el.children[i] : null;
    if (el && el !== svg && el.tagName === stroke.tag) {
      const r = el.getBoundingClientRect();
      if (r.width > 0) return { x: r.left - box.left, y: r.top - box.top, w: r.width };
    }
    const w = box.width; // anchor gone or hidden: fall back to where it was in the root box
    return { x: stroke.box[0] * w, y: stroke.box[1] * w, w: stroke.box[2] * w };
  }

  function toPixels(stroke, box) {
    const a = anchorBox(stroke, box);
    return stroke.pts.map((v, i) => (i % 2 ? a.y : a.x) + v * a.w);
  }

  function pathFor(stroke, px) {
    const path = document.createElementNS(_SVG_NS, "path");
    path.setAttribute("class", `rc-draw-stroke rc-draw-${stroke.tool} rc-draw-c-${stroke.color}`);
    path.setAttribute("stroke-width", String(stroke.width));
    path.setAttribute("d", pathData(px));
    return path;
  }

  /** Re-create every path from `list` (the document's strokes, in paint order). */
  function render(list) {
    strokes = list;
    if (strokes.length === 0 && svg.childElementCount === 0) {
      geometry = []; // nothing to place: no layout forced (this runs during the page's start-up)
      return;
    }
    const box = rootBox();
    geometry = strokes.map((s) => toPixels(s, box));
    svg.replaceChildren(...strokes.map((s, i) => pathFor(s, geometry[i])));
  }

  /** Recompute positions after a reflow without re-creating nodes. */
  function layout() {
    if (strokes.length === 0) return;
    const box = rootBox();
    geometry = strokes.map((s) => toPixels(s, box));
    svg.querySelectorAll(".rc-draw-stroke").forEach((path, i) => {
      if (geometry[i]) path.setAttribute("d", pathData(geometry[i]));
    });
  }

  function pickAnchor(clientX, clientY, box) {
    const under = document.elementsFromPoint(clientX, clientY);
    const hit = under.find((el) => el !== svg && !svg.contains(el) && root.contains(el));
    let el = hit ? hit.closest(_ANCHORS) : null;
    // Points are normalised by the anchor's width, so a zero-width anchor cannot hold them.
    if (!el || !root.contains(el) || el.getBoundingClientRect().width <= 0) el = root;
    const anchor = [];
    for (let node = el; node !== root; node = node.parentElement) {
      anchor.unshift(Array.prototype.indexOf.call(node.parentElement.children, node));
    }
    const r = el.getBoundingClientRect();
    return { anchor, tag: el.tagName, x: r.left - box.left, y: r.top - box.top, w: r.width };
  }

  function eraseAt(x, y) {
    geometry.forEach((px, i) => {
      if (!gesture.erased.has(i) && _hits(px, strokes[i].width, x, y)) {
        gesture.erased.add(i);
        svg.children[i].classList.add("rc-draw-erased");
      }
    });
  }

  function addPoints(event) {
    const box = rootBox();
    const events = event.getCoalescedEvents ? event.getCoalescedEvents() : [];
    for (const e of events.length ? events : [event]) {
      const x = e.clientX - box.left;
      const y = e.clientY - box.top;
      if (gesture.erasing) {
        eraseAt(x, y);
        continue;
      }
      const px = gesture.px;
      const n = px.length;
      if (n && Math.hypot(x - px[n - 2], y - px[n - 1]) < _MIN_STEP) continue;
      px.push(x, y);
    }
    if (!gesture.erasing) gesture.path.setAttribute("d", pathData(gesture.px));
  }

  function onDown(event) {
    if (gesture || (event.pointerType === "mouse" && event.button !== 0)) return;
    event.preventDefault();
    svg.setPointerCapture(event.pointerId);
    const { tool, color } = hooks.style();
    // A pen's eraser end (or barrel button) erases whatever tool is selected.
    const erasing = tool === "eraser" || (event.buttons & 32) !== 0;
    gesture = { id: event.pointerId, erasing, erased: new Set(), px: [] };
    if (!erasing) {
      const box = rootBox();
      const a = pickAnchor(event.clientX, event.clientY, box);
      const width = _WIDTHS[tool];
      gesture.stroke = { tool, color, width, anchor: a.anchor, tag: a.tag, a };
      gesture.path = pathFor({ tool, color, width }, [0, 0]);
      svg.append(gesture.path);
    }
    addPoints(event);
  }

  function onMove(event) {
    if (gesture && event.pointerId === gesture.id) addPoints(event);
  }

  function onUp(event) {
    if (!gesture || event.pointerId !== gesture.id) return;
    const g = gesture;
    gesture = null;
    if (g.erasing) {
      if (event.type === "pointercancel") {
        for (const i of g.erased) svg.children[i].classList.remove("rc-draw-erased");
      } else if (g.erased.size) {
        hooks.erase([...g.erased]);
      }
      return;
    }
    g.path.remove();
    if (event.type === "pointercancel" || g.px.length === 0) return;
    const { a, ...stroke } = g.stroke;
    const rootWidth = rootBox().width;
    stroke.box = [a.x, a.y, a.w].map((v) => _round(v / rootWidth));
    stroke.pts = g.px.map((v, i) => _round((v - (i % 2 ? a.y : a.x)) / a.w));
    hooks.commit(stroke);
  }

  svg.addEventListener("pointerdown", onDown);
  svg.addEventListener("pointermove", onMove);
  svg.addEventListener("pointerup", onUp);
  svg.addEventListener("pointercancel", onUp);
  const resizes = new ResizeObserver(() => layout());
  resizes.observe(root);

  return {
    svg,
    render,
    layout,
    setActive(active) {
      svg.classList.toggle("rc-draw-layer--active", active);
    },
    destroy() {
      resizes.disconnect();
      svg.remove();
      root.classList.remove("rc-draw-root");
    },
  };
}

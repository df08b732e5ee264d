/* mnemex graph view: a force-directed link graph drawn on a <canvas>.
 *
 * Plain ES2020 script (no modules, no build step). Needs the vendored d3-force bundle
 * (static/vendor/d3-force.bundle.min.js, which defines window.d3) loaded first. Defines
 * window.MnemexGraph:
 *
 *   const view = MnemexGraph.mount(container, data, {colorBy, onOpen, focus});
 *   view.setColorBy("domain"); view.legend(); view.stats(); view.destroy();
 *
 * The container must have a size of its own (e.g. a block with an explicit height): the canvas
 * fills it (width/height 100%) and follows its size with a ResizeObserver. Label and edge
 * colours come from the container's computed CSS `color`; the canvas is transparent, so the
 * container's background shows through.
 *
 * Titles and paths only ever reach the page through CanvasRenderingContext2D.fillText and the
 * canvas's aria-label; no HTML is ever built from data.
 */
(function () {
  "use strict";

  const KIND_COLORS = {
    knowledge: "#4e79a7",
    notes: "#f28e2b",
    memories: "#e15759",
    state: "#76b7b2",
    foundations: "#59a14f",
    facts: "#edc948",
  };
  const OTHER_COLOR = "#9d9d9d";
  const KIND_ORDER = ["knowledge", "notes", "memories", "state", "foundations", "facts"];
  const DOMAIN_PALETTE = [
    "#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f",
    "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#3f9bd8",
    "#8cd17d", "#d37295",
  ];
  const FONT = "12px system-ui, -apple-system, 'Segoe UI', sans-serif";
  const SMALL_FONT = "11px system-ui, -apple-system, 'Segoe UI', sans-serif";
  const MAX_FRAMES = 300;
  const MIN_K = 0.01;
  const MAX_K = 24;

  function hashString(s) { // FNV-1a, 32 bit
    let h = 0x811c9dc5;
    for (let i = 0; i < s.length; i++) {
      h ^= s.charCodeAt(i);
      h = Math.imul(h, 0x01000193);
    }
    return h >>> 0;
  }

  // Domains hash to the palette, so a domain keeps its colour from one view to the next; when
  // two domains in the same view hash alike, the later one (by name) takes the next free colour
  // while there is one.
  function domainColors(domains) {
    const out = new Map();
    const used = new Set();
    for (const d of Array.from(new Set(domains)).sort()) {
      if (!d) continue;
      let slot = hashString(d) % DOMAIN_PALETTE.length;
      if (used.size < DOMAIN_PALETTE.length) {
        while (used.has(slot)) slot = (slot + 1) % DOMAIN_PALETTE.length;
      }
      used.add(slot);
      out.set(d, DOMAIN_PALETTE[slot]);
    }
    return out;
  }

  function parseRgb(css, fallback) {
    const m = /rgba?\(\s*([\d.]+)[,\s]+([\d.]+)[,\s]+([\d.]+)(?:[,\s/]+([\d.]+%?))?/.exec(css || "");
    if (!m) return fallback;
    let a = m[4] === undefined ? 1 : parseFloat(m[4]);
    if (m[4] !== undefined && m[4].endsWith("%")) a /= 100;
    return [Math.round(+m[1]), Math.round(+m[2]), Math.round(+m[3]), a];
  }

  function rgba(c, a) {
    return "rgba(" + c[0] + "," + c[1] + "," + c[2] + "," + a + ")";
  }

  function clip(s, n) {
    s = String(s == null ? "" : s);
    return s.length > n ? s.slice(0, n - 1) + "\u2026" : s;
  }

  function mount(container, data, options) {
    if (!window.d3 || typeof window.d3.forceSimulation !== "function") {
      throw new Error("MnemexGraph: load static/vendor/d3-force.bundle.min.js first");
    }
    const d3 = window.d3;
    const opts = Object.assign({colorBy: "kind", onOpen: null, focus: null, legend: true,
      sliceMs: 28, layoutBudgetMs: 5000}, options || {});
    const t0 = performance.now();

    // ---- data -------------------------------------------------------------------------------
    const rawNodes = (data && Array.isArray(data.nodes)) ? data.nodes : [];
    const rawEdges = (data && Array.isArray(data.edges)) ? data.edges : [];
    const n = rawNodes.length;
    const nodes = new Array(n);
    const byPath = new Map();
    for (let i = 0; i < n; i++) {
      const r = rawNodes[i] || {};
      nodes[i] = {
        index: i,
        path: String(r.path == null ? "" : r.path),
        title: String(r.title == null || r.title === "" ? (r.path || "") : r.title),
        kind: String(r.kind == null ? "" : r.kind),
        domain: String(r.domain == null ? "" : r.domain),
        degree: 0,
        links: 0,
        r: 3,
        x: NaN, y: NaN, vx: 0, vy: 0,
      };
      byPath.set(nodes[i].path, i);
    }
    const links = [];
    const adjacency = new Array(n);
    for (let i = 0; i < n; i++) adjacency[i] = [];
    const seen = new Set();
    for (const e of rawEdges) {
      if (!e) continue;
      const a = e[0] | 0, b = e[1] | 0;
      if (a === b || a < 0 || b < 0 || a >= n || b >= n) continue;
      const key = a < b ? a * n + b : b * n + a;
      if (seen.has(key)) continue;
      seen.add(key);
      links.push({source: a, target: b});
      adjacency[a].push(b);
      adjacency[b].push(a);
      nodes[a].links++;
      nodes[b].links++;
    }
    seen.clear();
    let maxR = 3;
    for (let i = 0; i < n; i++) {
      const nd = nodes[i];
      const given = rawNodes[i] && Number.isFinite(rawNodes[i].degree) ? rawNodes[i].degree : nd.links;
      nd.degree = Math.max(0, given);
      nd.orphan = nd.degree === 0 && nd.links === 0;
      nd.r = Math.min(20, 2.5 + 1.1 * Math.sqrt(Math.max(nd.degree, nd.links)));
      if (nd.r > maxR) maxR = nd.r;
    }
    const byDegree = nodes.map((d) => d.index)
      .sort((a, b) => (nodes[b].degree - nodes[a].degree) || (a - b));
    const total = {
      nodes: data && Number.isFinite(data.total_nodes) ? data.total_nodes : n,
      edges: data && Number.isFinite(data.total_edges) ? data.total_edges : links.length,
      truncated: !!(data && data.truncated),
    };

    // focus: the node and its neighbours are highlighted
    let focusIndex = -1;
    const highlighted = new Uint8Array(n);
    if (opts.focus != null && byPath.has(String(opts.focus))) {
      focusIndex = byPath.get(String(opts.focus));
      highlighted[focusIndex] = 1;
      for (const j of adjacency[focusIndex]) highlighted[j] = 1;
      nodes[focusIndex].fx = 0;
      nodes[focusIndex].fy = 0;
    }

    // ---- canvas -----------------------------------------------------------------------------
    const canvas = document.createElement("canvas");
    canvas.tabIndex = 0;
    canvas.className = "mnemex-graph-canvas";
    canvas.setAttribute("role", "img");
    canvas.setAttribute("aria-label", "Link graph of " + n + " notes and " + links.length +
      " links. Drag to pan, wheel or + and - to zoom, arrow keys to pan, 0 to fit.");
    canvas.style.display = "block";
    canvas.style.width = "100%";
    canvas.style.height = "100%";
    canvas.style.touchAction = "none";
    canvas.style.outlineOffset = "-2px";
    container.appendChild(canvas);
    const ctx = canvas.getContext("2d", {alpha: true});

    const cstyle = getComputedStyle(container);
    const fg = parseRgb(cstyle.color, [30, 30, 30, 1]);
    const lum = 0.2126 * fg[0] + 0.7152 * fg[1] + 0.0722 * fg[2];
    const dark = lum > 140; // light text => dark background
    const bgGiven = parseRgb(cstyle.backgroundColor, null);
    const bg = bgGiven && bgGiven[3] > 0.5 ? bgGiven : (dark ? [24, 24, 27, 1] : [255, 255, 255, 1]);

    let cssW = 1, cssH = 1, dpr = 1;
    function resize() {
      const rect = canvas.getBoundingClientRect();
      const w = Math.max(1, Math.round(rect.width));
      const h = Math.max(1, Math.round(rect.height));
      const ratio = window.devicePixelRatio || 1;
      if (w === cssW && h === cssH && ratio === dpr) return false;
      // keep the world point at the centre fixed
      const cx = (cssW / 2 - view.tx) / view.k, cy = (cssH / 2 - view.ty) / view.k;
      cssW = w; cssH = h; dpr = ratio;
      canvas.width = Math.round(w * ratio);
      canvas.height = Math.round(h * ratio);
      view.tx = w / 2 - cx * view.k;
      view.ty = h / 2 - cy * view.k;
      return true;
    }

    // view transform: screen = world * k + t (CSS pixels)
    const view = {k: 1, tx: 0, ty: 0};
    let interacted = false; // once the person pans or zooms, never auto-fit again
    resize();
    view.tx = cssW / 2; view.ty = cssH / 2;

    // ---- colours ----------------------------------------------------------------------------
    let colorBy = opts.colorBy === "domain" ? "domain" : "kind";
    let groups = []; // [{color, hi: Int32Array, lo: Int32Array}]
    let legendItems = [];
    function recolor() {
      const byColor = new Map();
      const counts = new Map();
      const domains = colorBy === "domain" ? domainColors(nodes.map((d) => d.domain)) : null;
      const colorOf = (value) => (domains ? domains.get(value) : KIND_COLORS[value]) || OTHER_COLOR;
      for (const nd of nodes) {
        const value = colorBy === "domain" ? nd.domain : nd.kind;
        const color = colorOf(value);
        nd.color = color;
        let g = byColor.get(color);
        if (!g) { g = {color: color, hi: [], lo: []}; byColor.set(color, g); }
        (focusIndex < 0 || highlighted[nd.index] ? g.hi : g.lo).push(nd.index);
        const label = colorBy === "kind" && !KIND_COLORS[value] ? "other" : (value || "(none)");
        counts.set(label, (counts.get(label) || 0) + 1);
      }
      groups = Array.from(byColor.values()).map((g) => ({
        color: g.color, hi: Int32Array.from(g.hi), lo: Int32Array.from(g.lo),
      }));
      let labels = Array.from(counts.keys());
      if (colorBy === "kind") {
        labels.sort((a, b) => {
          const ia = KIND_ORDER.indexOf(a), ib = KIND_ORDER.indexOf(b);
          return (ia < 0 ? 99 : ia) - (ib < 0 ? 99 : ib) || (a < b ? -1 : 1);
        });
      } else {
        labels.sort((a, b) => (counts.get(b) - counts.get(a)) || (a < b ? -1 : 1));
      }
      legendItems = labels.map((label) => ({
        label: label,
        color: colorBy === "kind" ? (KIND_COLORS[label] || OTHER_COLOR)
          : (label === "(none)" ? OTHER_COLOR : colorOf(label)),
        count: counts.get(label),
      }));
    }
    recolor();

    // ---- layout -----------------------------------------------------------------------------
    const big = n > 1000;
    const linkDistance = n > 2000 ? 26 : 32;
    const simulation = d3.forceSimulation(nodes)
      .alphaMin(0.001)
      .velocityDecay(0.4)
      .force("link", d3.forceLink(links).distance(linkDistance).iterations(1))
      .force("charge", d3.forceManyBody().strength(n > 2000 ? -36 : -45).theta(0.9)
        .distanceMin(1).distanceMax(n > 2000 ? 360 : 300))
      .force("x", d3.forceX(0).strength(0.045))
      .force("y", d3.forceY(0).strength(0.045))
      .stop();
    if (n <= 6000) {
      simulation.force("collide", d3.forceCollide((d) => d.r + 1.5).strength(0.6).iterations(1));
    }
    simulation.stop(); // we tick it ourselves, in time slices

    let settled = n === 0;
    let settleMs = settled ? 0 : -1;
    let ticks = 0;
    let tickMs = 0; // total time spent ticking
    let maxSliceMs = 0; // the longest synchronous batch of ticks
    let layoutDirty = true;
    let quadtree = null;
    let lastProgressDraw = 0;

    function retuneDecay() {
      // Fit the remaining cooling into the time budget: alpha * (1 - d)^left = alphaMin.
      if (ticks < 3) return;
      const perTick = tickMs / ticks;
      const elapsed = performance.now() - t0;
      const remainingMs = Math.max(opts.layoutBudgetMs - elapsed, 0);
      // ~80% of wall time goes to ticks; 120 ticks in all at least (quality floor), 300 at most
      let left = Math.floor(0.8 * remainingMs / Math.max(perTick, 0.01));
      left = Math.max(Math.min(left, 300 - ticks), 120 - ticks, 1);
      const alpha = simulation.alpha();
      if (alpha <= simulation.alphaMin()) return;
      const d = 1 - Math.pow(simulation.alphaMin() / alpha, 1 / left);
      simulation.alphaDecay(Math.max(d, 0.0228));
    }

    function layoutSlice() {
      const start = performance.now();
      const budget = opts.sliceMs;
      let count = 0;
      for (;;) {
        simulation.tick();
        ticks++;
        count++;
        layoutDirty = true;
        if (simulation.alpha() < simulation.alphaMin()) { settled = true; break; }
        const now = performance.now();
        // keep going while another tick of the average cost still fits in the slice
        if (now - start + (now - start) / count > budget) break;
      }
      const spent = performance.now() - start;
      tickMs += spent;
      if (spent > maxSliceMs) maxSliceMs = spent;
      if (!settled) retuneDecay();
      if (settled) {
        settleMs = performance.now() - t0;
        simulation.stop();
        if (!interacted) fitInitial();
      }
    }

    function getQuadtree() {
      if (layoutDirty || !quadtree) {
        quadtree = d3.quadtree(nodes, (d) => d.x, (d) => d.y);
        layoutDirty = false;
      }
      return quadtree;
    }

    // ---- view helpers -----------------------------------------------------------------------
    function bounds(indices) {
      let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
      const each = (nd) => {
        if (!Number.isFinite(nd.x) || !Number.isFinite(nd.y)) return;
        if (nd.x - nd.r < x0) x0 = nd.x - nd.r;
        if (nd.y - nd.r < y0) y0 = nd.y - nd.r;
        if (nd.x + nd.r > x1) x1 = nd.x + nd.r;
        if (nd.y + nd.r > y1) y1 = nd.y + nd.r;
      };
      if (indices) for (const i of indices) each(nodes[i]); else for (const nd of nodes) each(nd);
      return x0 <= x1 ? [x0, y0, x1, y1] : null;
    }

    function fitBounds(b, maxK) {
      if (!b) return;
      const pad = 24;
      const w = Math.max(b[2] - b[0], 1), h = Math.max(b[3] - b[1], 1);
      let k = Math.min((cssW - 2 * pad) / w, (cssH - 2 * pad) / h);
      k = Math.max(MIN_K, Math.min(maxK || MAX_K, k));
      view.k = k;
      view.tx = cssW / 2 - ((b[0] + b[2]) / 2) * k;
      view.ty = cssH / 2 - ((b[1] + b[3]) / 2) * k;
    }

    let fitK = 1;
    function fitAll() {
      fitBounds(bounds(null), 4);
      fitK = view.k;
    }

    function fitInitial() {
      fitAll();
      if (focusIndex >= 0) {
        const hood = [focusIndex].concat(adjacency[focusIndex]);
        const b = bounds(hood);
        const k0 = view.k;
        fitBounds(b, 3);
        if (view.k < k0) fitBounds(b, k0);
        if (adjacency[focusIndex].length === 0) {
          view.k = Math.max(k0, 1.5);
        }
        const f = nodes[focusIndex];
        view.tx = cssW / 2 - f.x * view.k;
        view.ty = cssH / 2 - f.y * view.k;
      }
    }

    function zoomAt(sx, sy, factor) {
      const k = Math.max(MIN_K, Math.min(MAX_K, view.k * factor));
      const wx = (sx - view.tx) / view.k, wy = (sy - view.ty) / view.k;
      view.k = k;
      view.tx = sx - wx * k;
      view.ty = sy - wy * k;
      interacted = true;
      requestDraw();
    }

    function panBy(dx, dy) {
      view.tx += dx;
      view.ty += dy;
      interacted = true;
      requestDraw();
    }

    // ---- drawing ----------------------------------------------------------------------------
    const frames = [];
    let draws = 0;
    let hover = -1;
    let needDraw = true;
    let raf = 0;
    let destroyed = false;

    function draw() {
      const start = performance.now();
      const k = view.k;
      ctx.setTransform(1, 0, 0, 1, 0, 0);
      ctx.clearRect(0, 0, canvas.width, canvas.height);
      ctx.setTransform(dpr * k, 0, 0, dpr * k, dpr * view.tx, dpr * view.ty);

      // visible world rectangle, with a margin for radii
      const m = (maxR + 2);
      const vx0 = -view.tx / k - m, vy0 = -view.ty / k - m;
      const vx1 = (cssW - view.tx) / k + m, vy1 = (cssH - view.ty) / k + m;
      const focused = focusIndex >= 0;

      // edges: one path, one stroke
      const edgeAlpha = focused ? 0.07 : Math.max(0.08, Math.min(0.35, 0.35 * Math.sqrt(400 / Math.max(links.length, 1))));
      ctx.lineWidth = 0.7 / k;
      ctx.strokeStyle = rgba(fg, dark ? edgeAlpha * 0.9 : edgeAlpha);
      ctx.beginPath();
      for (let i = 0; i < links.length; i++) {
        const s = links[i].source, t = links[i].target;
        const sx = s.x, sy = s.y, tx = t.x, ty = t.y;
        if ((sx < vx0 && tx < vx0) || (sx > vx1 && tx > vx1) ||
            (sy < vy0 && ty < vy0) || (sy > vy1 && ty > vy1)) continue;
        ctx.moveTo(sx, sy);
        ctx.lineTo(tx, ty);
      }
      ctx.stroke();
      if (focused) {
        ctx.lineWidth = 1.4 / k;
        ctx.strokeStyle = rgba(fg, 0.55);
        ctx.beginPath();
        const f = nodes[focusIndex];
        for (const j of adjacency[focusIndex]) {
          ctx.moveTo(f.x, f.y);
          ctx.lineTo(nodes[j].x, nodes[j].y);
        }
        ctx.stroke();
      }

      // nodes: one fill per colour (dimmed ones first when a node is focused)
      const tiny = k < 0.35; // sub-pixel circles: squares are cheaper and look the same
      const fillSet = (idx) => {
        for (let q = 0; q < idx.length; q++) {
          const nd = nodes[idx[q]];
          const x = nd.x, y = nd.y, r = nd.r;
          if (x < vx0 || x > vx1 || y < vy0 || y > vy1) continue;
          if (tiny && r * k < 1.2) {
            ctx.rect(x - r, y - r, 2 * r, 2 * r);
          } else {
            ctx.moveTo(x + r, y);
            ctx.arc(x, y, r, 0, 2 * Math.PI);
          }
        }
      };
      if (focused) {
        ctx.globalAlpha = 0.28;
        for (const g of groups) {
          if (!g.lo.length) continue;
          ctx.fillStyle = g.color;
          ctx.beginPath();
          fillSet(g.lo);
          ctx.fill();
        }
        ctx.globalAlpha = 1;
      }
      for (const g of groups) {
        if (!g.hi.length) continue;
        ctx.fillStyle = g.color;
        ctx.beginPath();
        fillSet(g.hi);
        ctx.fill();
      }

      // orphans: an outline, so they read as "not linked"
      ctx.lineWidth = 1.2 / k;
      ctx.strokeStyle = rgba(fg, 0.75);
      ctx.beginPath();
      let anyOrphan = false;
      for (let i = 0; i < n; i++) {
        const nd = nodes[i];
        if (!nd.orphan) continue;
        if (nd.x < vx0 || nd.x > vx1 || nd.y < vy0 || nd.y > vy1) continue;
        ctx.moveTo(nd.x + nd.r, nd.y);
        ctx.arc(nd.x, nd.y, nd.r, 0, 2 * Math.PI);
        anyOrphan = true;
      }
      if (anyOrphan) ctx.stroke();

      if (focused) {
        const f = nodes[focusIndex];
        ctx.lineWidth = 2.5 / k;
        ctx.strokeStyle = rgba(fg, 0.95);
        ctx.beginPath();
        ctx.arc(f.x, f.y, f.r + 3 / k, 0, 2 * Math.PI);
        ctx.stroke();
      }
      if (hover >= 0) {
        const h = nodes[hover];
        ctx.lineWidth = 2 / k;
        ctx.strokeStyle = rgba(fg, 0.9);
        ctx.beginPath();
        ctx.arc(h.x, h.y, h.r + 2 / k, 0, 2 * Math.PI);
        ctx.stroke();
      }

      // screen-space overlays
      ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
      drawLabels();
      if (hover >= 0) drawHover();
      if (opts.legend) drawLegend();
      drawStatus();

      const ms = performance.now() - start;
      frames.push(ms);
      if (frames.length > MAX_FRAMES) frames.splice(0, frames.length - MAX_FRAMES);
      draws++;
    }

    function labelBox(text, sx, sy, placed, font) {
      ctx.font = font;
      const w = ctx.measureText(text).width;
      const box = [sx - 2, sy - 11, sx + w + 2, sy + 4];
      for (const p of placed) {
        if (box[0] < p[2] && box[2] > p[0] && box[1] < p[3] && box[3] > p[1]) return null;
      }
      placed.push(box);
      return box;
    }

    function drawLabels() {
      if (!settled && n > 300) return; // labels jitter during layout; wait
      const ratio = view.k / Math.max(fitK, 1e-6);
      let limit = ratio < 1.6 ? 8 : ratio < 3 ? 25 : ratio < 6 ? 70 : 200;
      if (n <= 40) limit = n;
      const placed = [];
      const toLabel = [];
      if (focusIndex >= 0) {
        toLabel.push(focusIndex);
        const hood = adjacency[focusIndex].slice().sort((a, b) => nodes[b].degree - nodes[a].degree);
        for (const j of hood.slice(0, 40)) toLabel.push(j);
      }
      for (let q = 0; q < byDegree.length && toLabel.length < limit + 41; q++) {
        if (q >= limit) break;
        toLabel.push(byDegree[q]);
      }
      ctx.textBaseline = "alphabetic";
      ctx.lineJoin = "round";
      const done = new Set();
      for (const i of toLabel) {
        if (done.has(i)) continue;
        done.add(i);
        const nd = nodes[i];
        const sx = nd.x * view.k + view.tx, sy = nd.y * view.k + view.ty;
        if (sx < -50 || sy < -20 || sx > cssW + 10 || sy > cssH + 20) continue;
        const text = clip(nd.title, 36);
        const lx = sx + nd.r * view.k + 3, ly = sy + 4;
        const box = labelBox(text, lx, ly, placed, FONT);
        if (!box) continue;
        ctx.lineWidth = 3;
        ctx.strokeStyle = rgba(bg, 0.85);
        ctx.strokeText(text, lx, ly);
        ctx.fillStyle = rgba(fg, focusIndex >= 0 && !highlighted[i] ? 0.5 : 0.95);
        ctx.fillText(text, lx, ly);
      }
    }

    function drawHover() {
      const nd = nodes[hover];
      const sx = nd.x * view.k + view.tx, sy = nd.y * view.k + view.ty;
      const title = clip(nd.title, 80);
      const sub = clip(nd.path, 90) + "  \u00b7  " + nd.degree + (nd.degree === 1 ? " link" : " links");
      ctx.font = FONT;
      const w1 = ctx.measureText(title).width;
      ctx.font = SMALL_FONT;
      const w2 = ctx.measureText(sub).width;
      const w = Math.max(w1, w2) + 12, h = 36;
      let x = sx + nd.r * view.k + 8, y = sy - h - 6;
      if (x + w > cssW - 4) x = Math.max(4, sx - w - 8);
      if (y < 4) y = sy + 10;
      ctx.fillStyle = rgba(bg, 0.94);
      ctx.strokeStyle = rgba(fg, 0.35);
      ctx.lineWidth = 1;
      ctx.beginPath();
      ctx.rect(x, y, w, h);
      ctx.fill();
      ctx.stroke();
      ctx.fillStyle = rgba(fg, 1);
      ctx.font = FONT;
      ctx.fillText(title, x + 6, y + 15);
      ctx.fillStyle = rgba(fg, 0.7);
      ctx.font = SMALL_FONT;
      ctx.fillText(sub, x + 6, y + 30);
    }

    function drawLegend() {
      const items = legendItems.slice(0, 12);
      if (!items.length) return;
      ctx.font = SMALL_FONT;
      const lineH = 16;
      let w = 0;
      for (const it of items) w = Math.max(w, ctx.measureText(clip(it.label, 24)).width);
      const more = legendItems.length - items.length;
      const h = lineH * (items.length + (more > 0 ? 1 : 0)) + 8;
      const x = 8, y = cssH - h - 8;
      ctx.fillStyle = rgba(bg, 0.8);
      ctx.fillRect(x, y, w + 30, h);
      for (let q = 0; q < items.length; q++) {
        const it = items[q];
        const cy = y + 4 + lineH * q + lineH / 2;
        ctx.fillStyle = it.color;
        ctx.beginPath();
        ctx.arc(x + 10, cy, 4.5, 0, 2 * Math.PI);
        ctx.fill();
        ctx.fillStyle = rgba(fg, 0.9);
        ctx.fillText(clip(it.label, 24), x + 20, cy + 4);
      }
      if (more > 0) {
        ctx.fillStyle = rgba(fg, 0.6);
        ctx.fillText("+" + more + " more", x + 20, y + 4 + lineH * items.length + lineH / 2 + 4);
      }
    }

    function drawStatus() {
      let text = "";
      if (!settled) {
        const a = Math.max(simulation.alpha(), simulation.alphaMin());
        const pct = Math.round(100 * Math.min(1, Math.log(a) / Math.log(simulation.alphaMin())));
        text = "Laying out " + n + " notes\u2026 " + pct + "%";
      } else if (n === 0) {
        text = "No notes to show";
      } else if (total.truncated) {
        text = "Showing " + n + " of " + total.nodes + " notes";
      }
      if (!text) return;
      ctx.font = SMALL_FONT;
      const w = ctx.measureText(text).width;
      ctx.fillStyle = rgba(bg, 0.8);
      ctx.fillRect(cssW - w - 16, 6, w + 10, 18);
      ctx.fillStyle = rgba(fg, 0.8);
      ctx.fillText(text, cssW - w - 11, 19);
    }

    // one requestAnimationFrame loop: a layout slice (until settled), then a draw if asked for
    function frame() {
      raf = 0;
      if (destroyed) return;
      if (!settled) {
        layoutSlice();
        const now = performance.now();
        if (settled || now - lastProgressDraw > 250) {
          if (!interacted && !settled) fitAll();
          needDraw = true;
          lastProgressDraw = now;
        }
        if (!settled) raf = requestAnimationFrame(frame);
      }
      if (needDraw) {
        needDraw = false;
        draw();
      }
    }

    function requestDraw() {
      needDraw = true;
      if (!raf && !destroyed) raf = requestAnimationFrame(frame);
    }

    // ---- interaction ------------------------------------------------------------------------
    function nodeAt(sx, sy) {
      if (!n) return -1;
      const wx = (sx - view.tx) / view.k, wy = (sy - view.ty) / view.k;
      const slack = 4 / view.k; // a few screen pixels around small circles
      const found = getQuadtree().find(wx, wy, maxR + slack);
      if (!found) return -1;
      const dx = found.x - wx, dy = found.y - wy;
      return dx * dx + dy * dy <= (found.r + slack) * (found.r + slack) ? found.index : -1;
    }

    function localPoint(ev) {
      const rect = canvas.getBoundingClientRect();
      return [ev.clientX - rect.left, ev.clientY - rect.top];
    }

    function setHover(i) {
      if (i === hover) return;
      hover = i;
      canvas.style.cursor = i >= 0 ? "pointer" : "grab";
      requestDraw();
    }

    function open(i) {
      if (i >= 0 && typeof opts.onOpen === "function") opts.onOpen(nodes[i].path);
    }

    let drag = null;
    function onPointerDown(ev) {
      if (ev.button !== 0) return;
      const p = localPoint(ev);
      drag = {id: ev.pointerId, x: p[0], y: p[1], sx: p[0], sy: p[1], moved: false};
      try { canvas.setPointerCapture(ev.pointerId); } catch (_) { /* synthetic events */ }
      canvas.style.cursor = "grabbing";
    }
    function onPointerMove(ev) {
      const p = localPoint(ev);
      if (drag && ev.pointerId === drag.id) {
        const dx = p[0] - drag.x, dy = p[1] - drag.y;
        drag.x = p[0]; drag.y = p[1];
        if (!drag.moved && Math.abs(p[0] - drag.sx) + Math.abs(p[1] - drag.sy) > 4) {
          drag.moved = true;
          if (hover >= 0) setHover(-1);
          panBy(p[0] - drag.sx, p[1] - drag.sy);
        } else if (drag.moved) {
          panBy(dx, dy);
        }
        return;
      }
      if (ev.pointerType === "mouse" || ev.pointerType === "pen" || !ev.pointerType) {
        setHover(nodeAt(p[0], p[1]));
      }
    }
    function onPointerUp(ev) {
      if (!drag || ev.pointerId !== drag.id) return;
      const wasClick = !drag.moved;
      drag = null;
      try { canvas.releasePointerCapture(ev.pointerId); } catch (_) { /* not captured */ }
      const p = localPoint(ev);
      const i = nodeAt(p[0], p[1]);
      canvas.style.cursor = i >= 0 ? "pointer" : "grab";
      if (wasClick) open(i);
    }
    function onPointerCancel() {
      drag = null;
      canvas.style.cursor = "grab";
    }
    function onPointerLeave() {
      if (!drag) setHover(-1);
    }
    function onWheel(ev) {
      ev.preventDefault();
      const unit = ev.deltaMode === 1 ? 16 : ev.deltaMode === 2 ? cssH : 1;
      const delta = Math.max(-600, Math.min(600, ev.deltaY * unit));
      const p = localPoint(ev);
      zoomAt(p[0], p[1], Math.exp(-delta * 0.0015));
    }
    function onKeyDown(ev) {
      if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
      const step = 60;
      switch (ev.key) {
        case "+": case "=": zoomAt(cssW / 2, cssH / 2, 1.25); break;
        case "-": case "_": zoomAt(cssW / 2, cssH / 2, 0.8); break;
        case "ArrowLeft": panBy(step, 0); break;
        case "ArrowRight": panBy(-step, 0); break;
        case "ArrowUp": panBy(0, step); break;
        case "ArrowDown": panBy(0, -step); break;
        case "0": case "Home": fitInitial(); requestDraw(); break;
        case "Enter":
          if (hover >= 0) open(hover); else if (focusIndex >= 0) open(focusIndex); else return;
          break;
        default: return;
      }
      ev.preventDefault();
    }

    canvas.style.cursor = "grab";
    canvas.addEventListener("pointerdown", onPointerDown);
    canvas.addEventListener("pointermove", onPointerMove);
    canvas.addEventListener("pointerup", onPointerUp);
    canvas.addEventListener("pointercancel", onPointerCancel);
    canvas.addEventListener("pointerleave", onPointerLeave);
    canvas.addEventListener("wheel", onWheel, {passive: false});
    canvas.addEventListener("keydown", onKeyDown);

    let resizeObserver = null;
    const onResize = () => {
      if (!resize()) return;
      if (settled && !interacted) fitInitial();
      requestDraw();
    };
    if (typeof ResizeObserver === "function") {
      resizeObserver = new ResizeObserver(onResize);
      resizeObserver.observe(canvas);
    } else {
      window.addEventListener("resize", onResize);
    }

    if (settled) fitInitial();
    requestDraw();

    // ---- the view ---------------------------------------------------------------------------
    return {
      canvas: canvas,
      setColorBy(key) {
        colorBy = key === "domain" ? "domain" : "kind";
        recolor();
        requestDraw();
      },
      legend() {
        return legendItems.map((it) => ({label: it.label, color: it.color}));
      },
      stats() {
        return {
          settled: settled,
          settleMs: settleMs,
          ticks: ticks,
          maxSliceMs: maxSliceMs,
          frames: frames.slice(),
          draws: draws,
          nodes: n,
          edges: links.length,
          zoom: view.k,
        };
      },
      // where a node is drawn, in CSS pixels from the canvas's top left (for tests), or null
      locate(path) {
        const i = byPath.get(String(path));
        if (i === undefined || !Number.isFinite(nodes[i].x)) return null;
        const nd = nodes[i];
        return {x: nd.x * view.k + view.tx, y: nd.y * view.k + view.ty, r: nd.r * view.k};
      },
      panBy: panBy,
      zoomBy(factor, sx, sy) {
        zoomAt(sx == null ? cssW / 2 : sx, sy == null ? cssH / 2 : sy, factor);
      },
      fit() { fitInitial(); requestDraw(); },
      redraw: requestDraw,
      destroy() {
        if (destroyed) return;
        destroyed = true;
        if (raf) cancelAnimationFrame(raf);
        raf = 0;
        simulation.stop();
        canvas.removeEventListener("pointerdown", onPointerDown);
        canvas.removeEventListener("pointermove", onPointerMove);
        canvas.removeEventListener("pointerup", onPointerUp);
        canvas.removeEventListener("pointercancel", onPointerCancel);
        canvas.removeEventListener("pointerleave", onPointerLeave);
        canvas.removeEventListener("wheel", onWheel);
        canvas.removeEventListener("keydown", onKeyDown);
        if (resizeObserver) resizeObserver.disconnect();
        else window.removeEventListener("resize", onResize);
        if (canvas.parentNode) canvas.parentNode.removeChild(canvas);
        quadtree = null;
      },
    };
  }

  window.MnemexGraph = {mount: mount, kindColors: Object.assign({}, KIND_COLORS)};
})();

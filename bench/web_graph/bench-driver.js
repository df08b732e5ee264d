/* Benchmark driver for the graph view, loaded by page.html (bench/web_graph.py serves both).
 *
 * Fetches /graph.json, mounts MnemexGraph in a full-window container, waits until the layout
 * has settled, clicks the biggest hub (checks onOpen), then pans in PAN_STEPS steps of
 * synthetic pointer events, one step per animation frame. The result goes to
 * window.__benchResult, which Selenium polls:
 *   {ok, settleMs, ticks, panFrames: [draw ms], panIntervals: [rAF-to-rAF ms],
 *    layoutLongestTaskMs, layoutLongestGapMs, violations: [CSP], opened, error}
 */
(function () {
  "use strict";
  const params = new URLSearchParams(location.search);
  const PAN_STEPS = Math.max(1, Number(params.get("pan") || 120));
  const SETTLE_TIMEOUT_MS = Number(params.get("timeout") || 120000);

  const violations = [];
  document.addEventListener("securitypolicyviolation", (e) => {
    violations.push(e.violatedDirective + " " + (e.blockedURI || "inline"));
  });
  let longestTask = 0;
  try {
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) longestTask = Math.max(longestTask, entry.duration);
    }).observe({type: "longtask", buffered: true});
  } catch (_) { /* no long-task timing in this browser */ }

  const nextFrame = () => new Promise((resolve) => requestAnimationFrame(resolve));
  const median = (xs) => {
    const s = xs.slice().sort((a, b) => a - b);
    return s.length ? (s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2) : NaN;
  };

  function pointer(target, type, x, y, buttons) {
    const rect = target.getBoundingClientRect();
    target.dispatchEvent(new PointerEvent(type, {
      bubbles: true, cancelable: true, composed: true, pointerId: 1, pointerType: "mouse",
      isPrimary: true, button: 0, buttons: buttons, clientX: rect.left + x, clientY: rect.top + y,
    }));
  }

  async function run() {
    document.documentElement.style.height = "100%";
    document.body.style.margin = "0";
    document.body.style.height = "100%";
    document.body.style.fontFamily = "system-ui, sans-serif";
    document.body.style.color = "#1f2328";
    document.body.style.background = "#ffffff";
    const box = document.getElementById("graph");
    box.style.width = "100vw";
    box.style.height = "100vh";

    const response = await fetch("/graph.json");
    const data = await response.json();
    const opened = [];
    const mountStart = performance.now();
    const view = window.MnemexGraph.mount(box, data, {
      colorBy: params.get("colorBy") || "kind",
      focus: params.get("focus") || undefined,
      onOpen: (path) => opened.push(path),
    });
    window.__graphView = view;
    const mountMs = performance.now() - mountStart;

    // layout: watch the gaps between animation frames (a freeze would show here)
    let last = performance.now();
    let longestGap = 0;
    while (!view.stats().settled) {
      await nextFrame();
      const now = performance.now();
      longestGap = Math.max(longestGap, now - last);
      last = now;
      if (now - mountStart > SETTLE_TIMEOUT_MS) throw new Error("not settled after " + SETTLE_TIMEOUT_MS + " ms");
    }
    const layoutLongestTask = longestTask;
    await nextFrame();
    await nextFrame();

    // click the biggest hub: onOpen must receive its path
    let hubPath = null;
    let clickOk = null;
    const nodes = data.nodes || [];
    if (nodes.length) {
      let hub = nodes[0];
      for (const nd of nodes) if ((nd.degree || 0) > (hub.degree || 0)) hub = nd;
      const at = view.locate(hub.path);
      if (at) {
        hubPath = hub.path;
        pointer(view.canvas, "pointerdown", at.x, at.y, 1);
        pointer(view.canvas, "pointerup", at.x, at.y, 0);
        clickOk = opened.length === 1 && opened[0] === hub.path;
      }
    }

    // pan: press in the middle, move on a circle, one move per frame
    const canvas = view.canvas;
    const rect = canvas.getBoundingClientRect();
    let x = rect.width / 2, y = rect.height / 2;
    const drawsBefore = view.stats().draws;
    const intervals = [];
    pointer(canvas, "pointerdown", x, y, 1);
    await nextFrame();
    let prev = performance.now();
    for (let i = 0; i < PAN_STEPS; i++) {
      const angle = (2 * Math.PI * i) / 60;
      x += 9 * Math.cos(angle);
      y += 9 * Math.sin(angle);
      pointer(canvas, "pointermove", x, y, 1);
      await nextFrame();
      const now = performance.now();
      intervals.push(now - prev);
      prev = now;
    }
    pointer(canvas, "pointerup", x, y, 0);
    await nextFrame();
    const stats = view.stats();
    const panDraws = stats.draws - drawsBefore;
    const panFrames = stats.frames.slice(-Math.min(panDraws, stats.frames.length));

    return {
      ok: true,
      nodes: stats.nodes,
      edges: stats.edges,
      mountMs: mountMs,
      settleMs: stats.settleMs,
      ticks: stats.ticks,
      layoutLongestTaskMs: layoutLongestTask,
      layoutLongestGapMs: longestGap,
      panDraws: panDraws,
      panFrames: panFrames,
      panIntervals: intervals,
      medianFrameMs: median(panFrames),
      medianIntervalMs: median(intervals),
      clickOk: clickOk,
      hubPath: hubPath,
      legend: view.legend(),
      devicePixelRatio: window.devicePixelRatio,
      canvasSize: [canvas.width, canvas.height],
      violations: violations,
    };
  }

  run().then((result) => {
    window.__benchResult = result;
  }, (error) => {
    window.__benchResult = {ok: false, error: String(error && error.stack || error), violations: violations};
  });
})();

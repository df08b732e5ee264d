/* mnemex ui: one page, hash-routed, on the JSON API of src/mnemex/web/api.py.
 *
 * Every piece of vault text reaches the DOM through textContent or an attribute set from
 * JavaScript; the one exception is a page's body, which the server renders with
 * src/mnemex/web/markdown.py (it escapes everything and emits only its own tags). The
 * Content-Security-Policy forbids inline script and style, so nothing here relies on them.
 */
"use strict";

(function () {
  const main = document.getElementById("main");
  const toastEl = document.getElementById("toast");
  let session = null;
  let graphView = null;
  let keyHandler = null;

  // -- helpers ---------------------------------------------------------------------

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (key === "class") node.className = value;
      else if (key === "text") node.textContent = value;
      else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
      else node.setAttribute(key, value === true ? "" : String(value));
    }
    for (const child of children.flat()) {
      if (child === null || child === undefined || child === false) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }

  const enc = (s) => encodeURIComponent(s).replace(/%2F/g, "/");
  const pageHref = (path) => "#/page/" + enc(path);
  const pageLink = (path, title) =>
    el("a", { href: pageHref(path), class: "page-link", title: path }, title || path);

  function toast(message, bad) {
    toastEl.textContent = message;
    toastEl.className = "toast show" + (bad ? " bad" : "");
    clearTimeout(toast.timer);
    toast.timer = setTimeout(() => (toastEl.className = "toast"), 5000);
  }

  async function api(path, params) {
    const query = params
      ? "?" + new URLSearchParams(Object.entries(params).filter(([, v]) => v)).toString()
      : "";
    const response = await fetch("/api/" + path + query, { credentials: "same-origin" });
    const data = await response.json().catch(() => ({ error: response.statusText }));
    if (!response.ok) throw new Error(data.error || response.statusText);
    return data;
  }

  async function post(path, body, raw) {
    const headers = { "X-Mnemex-CSRF": session.csrf };
    if (!raw) headers["Content-Type"] = "application/json";
    const response = await fetch("/api/" + path, {
      method: "POST",
      credentials: "same-origin",
      headers: Object.assign(headers, raw ? raw.headers : {}),
      body: raw ? raw.body : JSON.stringify(body || {}),
    });
    const data = await response.json().catch(() => ({ error: response.statusText }));
    if (!response.ok) throw new Error(data.error || response.statusText);
    return data;
  }

  function age(days) {
    if (days === null || days === undefined) return "";
    if (days < 1) return "today";
    if (days < 2) return "yesterday";
    if (days < 60) return Math.round(days) + " days ago";
    if (days < 730) return Math.round(days / 30) + " months ago";
    return Math.round(days / 365) + " years ago";
  }

  // "[[a|b]]" -> "b", "[[a]]" -> "a": snippets are text, shown as text
  const plain = (s) =>
    String(s || "").replace(/\[\[([^\]|]*)\|([^\]]*)\]\]/g, "$2").replace(/\[\[([^\]]*)\]\]/g, "$1");

  function section(title, ...children) {
    return el("section", { class: "panel" }, el("h2", { text: title }), ...children);
  }

  function fail(error) {
    main.replaceChildren(el("p", { class: "error", role: "alert" }, String(error.message || error)));
  }

  function needsWrite(button) {
    if (!session.write) {
      button.disabled = true;
      button.title = "read-only: start with `mnemex ui --write`";
    }
    return button;
  }

  function diffView(text) {
    const pre = el("pre", { class: "diff" });
    for (const line of String(text).split("\n")) {
      let cls = "";
      if (line.startsWith("+") && !line.startsWith("+++")) cls = "add";
      else if (line.startsWith("-") && !line.startsWith("---")) cls = "del";
      else if (line.startsWith("@@")) cls = "hunk";
      pre.append(el("span", { class: cls }, line), "\n");
    }
    return pre;
  }

  // A plan (fix, undo, forget, ingest, approve) as the person sees it before applying it.
  function planView(plan) {
    const box = el("div", { class: "plan" });
    const title = plan.summary || plan.subject || plan.note || "plan";
    box.append(el("p", { class: "plan-title" }, el("strong", {}, "Plan: "), String(title)));
    const list = el("ul");
    for (const rel of plan.files_changed || []) list.append(el("li", {}, "change ", rel));
    for (const rel of plan.deletes || []) list.append(el("li", { class: "del" }, "DELETE ", rel));
    for (const item of plan.files || [])
      if (item && item.path) list.append(el("li", {}, (item.effect || "") + ": ", item.path));
    for (const link of plan.links || [])
      if (link.breaks) list.append(el("li", { class: "del" }, `link in ${link.path} to ${link.breaks} will break`));
    if (plan.pages && typeof plan.pages === "object")
      for (const [rel, effect] of Object.entries(plan.pages)) list.append(el("li", {}, `${effect}: ${rel}`));
    if (list.children.length) box.append(list);
    if (plan.diff) box.append(diffView(plan.diff));
    if (plan.diff_omitted_lines) box.append(el("p", { class: "muted" }, `… ${plan.diff_omitted_lines} more diff lines`));
    box.append(el("details", {}, el("summary", {}, "The whole plan"), el("pre", { class: "json" }, JSON.stringify(plan, null, 1))));
    return box;
  }

  function counts(result) {
    const keys = ["created", "updated", "deleted", "unchanged", "skipped", "refused", "failed"];
    const parts = keys.filter((k) => typeof result[k] === "number").map((k) => `${result[k]} ${k}`);
    const commit = result.commit && result.commit.sha ? ` · commit ${String(result.commit.sha).slice(0, 12)}` : "";
    return (parts.join(", ") || "done") + commit;
  }

  // Show a plan, then apply it on a click. plan(): the plan; apply(plan): the result.
  async function planThenApply(holder, plan, apply, after) {
    holder.replaceChildren(el("p", { class: "muted" }, "Making the plan…"));
    let made;
    try {
      made = await plan();
    } catch (error) {
      holder.replaceChildren(el("p", { class: "error" }, String(error.message)));
      return;
    }
    const applyButton = el("button", { class: "primary", type: "button" }, "Apply");
    const cancel = el("button", { type: "button", onclick: () => holder.replaceChildren() }, "Cancel");
    applyButton.addEventListener("click", async () => {
      applyButton.disabled = true;
      try {
        const result = await apply(made);
        holder.replaceChildren(el("p", { class: "ok" }, "Applied: " + counts(result)));
        toast("Applied: " + counts(result));
        if (after) after(result);
      } catch (error) {
        holder.replaceChildren(el("p", { class: "error" }, String(error.message)));
      }
    });
    holder.replaceChildren(planView(made), el("div", { class: "actions" }, applyButton, cancel));
    applyButton.focus();
  }

  // -- search ------------------------------------------------------------------------

  function whyText(why) {
    if (!why || typeof why !== "object") return "";
    const parts = [];
    if (why.keyword) parts.push(`keyword #${why.keyword}`);
    if (why.vector) parts.push(`meaning #${why.vector}` + (why.cosine ? ` (cos ${why.cosine})` : ""));
    if (why.graph) parts.push(`links #${why.graph}`);
    if (why.coverage !== undefined && why.terms && why.terms.length)
      parts.push(`${Math.round(why.coverage * 100)}% of words: ${why.terms.join(", ")}`);
    for (const [key, value] of Object.entries(why))
      if (!["keyword", "vector", "graph", "cosine", "coverage", "terms"].includes(key))
        parts.push(`${key} ${typeof value === "object" ? JSON.stringify(value) : value}`);
    return parts.join(" · ");
  }

  let domainsCache = null;

  async function viewSearch(params) {
    const q = params.get("q") || "";
    const form = el("form", { class: "search", role: "search" });
    const input = el("input", { type: "search", name: "q", value: q, placeholder: "Search the brain  ( / )", "aria-label": "Query", autocomplete: "off" });
    const kind = el("select", { name: "kind", "aria-label": "Kind" }, el("option", { value: "" }, "any kind"),
      session.kinds.map((k) => el("option", { value: k, selected: params.get("kind") === k }, k)));
    const domain = el("select", { name: "domain", "aria-label": "Domain" }, el("option", { value: "" }, "any domain"));
    const project = el("input", { name: "project", value: params.get("project") || "", placeholder: "project", "aria-label": "Project", size: 10 });
    const tag = el("input", { name: "tag", value: params.get("tag") || "", placeholder: "tag", "aria-label": "Tag", size: 10 });
    const since = el("input", { name: "since", type: "date", value: params.get("since") || "", "aria-label": "Since" });
    const until = el("input", { name: "until", type: "date", value: params.get("until") || "", "aria-label": "Until" });
    form.append(input, el("button", { type: "submit", class: "primary" }, "Search"),
      el("div", { class: "filters" }, kind, domain, project, tag, el("label", {}, "since ", since), el("label", {}, "until ", until)));
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const data = new URLSearchParams();
      for (const field of [input, kind, domain, project, tag, since, until])
        if (field.value) data.set(field.name, field.value);
      location.hash = "#/search?" + data.toString();
    });
    const results = el("ol", { class: "hits", id: "hits" });
    main.replaceChildren(form, results);
    input.focus();
    try {
      domainsCache = domainsCache || (await api("domains"));
      for (const d of domainsCache.domains || [])
        domain.append(el("option", { value: d.name || d.domain, selected: params.get("domain") === (d.name || d.domain) }, `${d.name || d.domain} (${d.notes ?? d.count ?? ""})`));
    } catch (error) {
      /* the filters still work without the list */
    }
    if (!q) {
      results.append(el("li", { class: "muted" }, "Type a question or a few words. Keys: / to search, ↑↓ or j k to move, Enter to open."));
      return;
    }
    results.append(el("li", { class: "muted" }, "Searching…"));
    let data;
    try {
      data = await api("search", Object.fromEntries(params));
    } catch (error) {
      results.replaceChildren(el("li", { class: "error" }, String(error.message)));
      return;
    }
    results.replaceChildren();
    if (!data.hits.length) results.append(el("li", { class: "muted" }, data.note || "no matches"));
    for (const hit of data.hits) {
      const meta = el("div", { class: "meta" },
        el("span", { class: "badge kind-" + hit.kind }, hit.kind),
        hit.domain ? el("span", { class: "badge" }, hit.domain) : null,
        hit.project ? el("span", { class: "badge" }, hit.project) : null,
        hit.status ? el("span", { class: "badge status" }, hit.status) : null,
        el("span", { class: "age", title: hit.date || "" }, age(hit.age_days)),
        el("span", { class: "path" }, hit.path));
      const item = el("li", { class: "hit", tabindex: "-1", "data-path": hit.path },
        el("a", { href: pageHref(hit.path), class: "hit-title" }, hit.title || hit.path),
        hit.heading && hit.heading !== hit.title ? el("span", { class: "heading" }, " › " + hit.heading) : null,
        meta, el("p", { class: "snippet" }, plain(hit.snippet)),
        el("p", { class: "why" }, "why: " + whyText(hit.why)));
      if (hit.facts)
        item.append(el("ul", { class: "hit-facts" }, hit.facts.map((f) => el("li", {}, f.label || f.id))));
      results.append(item);
    }
    if (data.note) results.append(el("li", { class: "muted" }, data.note));
    let selected = -1;
    const items = () => Array.from(results.querySelectorAll("li.hit"));
    keyHandler = (event) => {
      const list = items();
      if (!list.length || event.target === input && !["ArrowDown", "ArrowUp"].includes(event.key)) return;
      if (["ArrowDown", "j"].includes(event.key)) selected = Math.min(list.length - 1, selected + 1);
      else if (["ArrowUp", "k"].includes(event.key)) selected = Math.max(0, selected - 1);
      else if (event.key === "Enter" && selected >= 0) {
        location.hash = pageHref(list[selected].dataset.path);
        return;
      } else return;
      event.preventDefault();
      list.forEach((node, i) => node.classList.toggle("selected", i === selected));
      list[selected].focus();
    };
  }

  // -- page --------------------------------------------------------------------------

  // one line per linking note, with the lines it links from
  function groupBacklinks(rows) {
    const byPath = new Map();
    for (const row of rows || []) {
      const item = byPath.get(row.path) || { path: row.path, title: row.title, lines: [] };
      if (row.line && !item.lines.includes(row.line)) item.lines.push(row.line);
      byPath.set(row.path, item);
    }
    return Array.from(byPath.values());
  }

  function lineList(lines) {
    if (lines.length === 1) return ` line ${lines[0]}`;
    if (lines.length <= 4) return ` lines ${lines.join(", ")}`;
    return ` lines ${lines.slice(0, 3).join(", ")} … (${lines.length} links)`;
  }

  function linkList(items, empty, render) {
    if (!items || !items.length) return el("p", { class: "muted" }, empty);
    return el("ul", { class: "links" }, items.map(render));
  }

  // A note's body as the server rendered it (web/markdown.py escapes every character of
  // the note and emits only its own tags), with same-page heading links made to scroll.
  function renderedNote(data) {
    const body = el("div", { class: "markdown" });
    body.innerHTML = data.html;
    for (const a of body.querySelectorAll("a.external")) a.setAttribute("rel", "noopener noreferrer");
    body.addEventListener("click", (event) => {
      const a = event.target.closest("a[href^='#']");
      if (!a || a.getAttribute("href").startsWith("#/")) return;
      event.preventDefault();
      const target = body.querySelector(`[id="${CSS.escape(a.getAttribute("href").slice(1))}"]`);
      if (target) target.scrollIntoView();
    });
    return body;
  }

  async function viewPage(path, params) {
    main.replaceChildren(el("p", { class: "muted" }, "Loading " + path + "…"));
    let data;
    try {
      data = await api("page", { path });
    } catch (error) {
      return fail(error);
    }
    const body = renderedNote(data);
    const lead = body.firstElementChild;
    if (lead && lead.tagName === "H1" && lead.textContent.trim() === String(data.title).trim()) lead.remove();
    const front = data.frontmatter.length
      ? el("table", { class: "frontmatter" }, el("tbody", {}, data.frontmatter.map(([k, v]) => el("tr", {}, el("th", {}, k), el("td", {}, v)))))
      : null;
    const article = el("article", { class: "page" },
      el("h1", {}, data.title),
      el("div", { class: "meta" },
        el("span", { class: "badge kind-" + data.kind }, data.kind),
        el("code", { class: "path", title: data.file }, data.path),
        el("a", { href: data.obsidian, class: "button", rel: "noopener noreferrer" }, "Open in Obsidian"),
        el("a", { href: "#/graph/" + enc(data.path), class: "button" }, "Graph around it")),
      data.warnings.length ? el("p", { class: "warning" }, data.warnings.join("; ")) : null,
      front, body);
    const side = el("aside", { class: "side" },
      section("Backlinks", linkList(groupBacklinks(data.backlinks), "No note links here.", (b) =>
        el("li", {}, pageLink(b.path, b.title),
          b.lines.length ? el("span", { class: "muted" }, lineList(b.lines)) : null))),
      section("Within two links", linkList(data.neighbours, "No neighbours.", (n) =>
        el("li", {}, pageLink(n.path, n.title), el("span", { class: "muted" }, ` ${n.depth ?? n.hops ?? ""}`)))),
      data.sources.length ? section("Sources", linkList(data.sources, "", (s) =>
        el("li", {}, !s.path ? el("span", { class: "unresolved" }, s.ref)
          : s.note ? pageLink(s.path, s.ref)
          : el("a", { href: "/api/file?path=" + encodeURIComponent(s.path), title: "download the kept source" }, s.ref)))) : null,
      section("History", linkList(data.history, "Not in git history yet.", (h) =>
        el("li", {}, el("code", {}, h.commit.slice(0, 8)), " ", el("time", { datetime: h.date }, h.date.slice(0, 10)), " ", h.subject))));
    main.replaceChildren(el("div", { class: "page-layout" }, article, side));
    const heading = params.get("h");
    if (heading) {
      const id = heading.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, "-").replace(/^-|-$/g, "");
      const target = body.querySelector(`[id="${CSS.escape(id)}"]`);
      if (target) target.scrollIntoView();
    } else main.focus();
  }

  // -- graph -------------------------------------------------------------------------

  async function viewGraph(focus) {
    const holder = el("div", { class: "graph", id: "graph" });
    const info = el("p", { class: "muted" }, "Laying out…");
    const colour = el("select", { "aria-label": "Colour by" }, el("option", { value: "kind" }, "colour by kind"), el("option", { value: "domain" }, "colour by domain"));
    const legend = el("ul", { class: "legend" });
    main.replaceChildren(el("div", { class: "graph-bar" }, focus ? el("span", {}, "Around ", pageLink(focus)) : el("span", {}, "The whole brain"), colour, info), legend, holder);
    let data;
    try {
      data = await api("graph", focus ? { focus, depth: 2 } : {});
    } catch (error) {
      return fail(error);
    }
    if (!window.MnemexGraph) return fail(new Error("the graph script did not load"));
    graphView = window.MnemexGraph.mount(holder, data, { colorBy: "kind", legend: false, focus: focus || undefined, onOpen: (p) => (location.hash = pageHref(p)) });
    window.mnemexGraphView = graphView; // for tests and bench/: stats() and locate(path)
    const shown = `${data.nodes.length} of ${data.total_nodes} notes, ${data.edges.length} links`;
    info.textContent = (data.truncated ? shown + " (the best linked; open a page's graph for the rest)" : shown) + `, ${data.orphans} orphans`;
    const drawLegend = () => {
      legend.replaceChildren();
      for (const item of graphView.legend ? graphView.legend() : []) {
        const swatch = el("span", { class: "swatch" });
        swatch.style.background = item.color;
        legend.append(el("li", {}, swatch, item.label));
      }
    };
    colour.addEventListener("change", () => {
      graphView.setColorBy(colour.value);
      drawLegend();
    });
    drawLegend();
  }

  // -- health ------------------------------------------------------------------------

  function scoreChart(scans) {
    const ns = "http://www.w3.org/2000/svg";
    const svg = document.createElementNS(ns, "svg");
    svg.setAttribute("viewBox", "0 0 300 80");
    svg.setAttribute("class", "chart");
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", "health score over time");
    if (scans.length < 2) return null;
    const points = scans.map((s, i) => `${(i / (scans.length - 1)) * 290 + 5},${75 - (s.score / 100) * 70}`);
    const line = document.createElementNS(ns, "polyline");
    line.setAttribute("points", points.join(" "));
    line.setAttribute("fill", "none");
    line.setAttribute("stroke", "#2f6fdf");
    line.setAttribute("stroke-width", "2");
    svg.append(line);
    for (const s of scans) {
      const title = document.createElementNS(ns, "title");
      title.textContent = `${s.ts}: ${s.score}`;
      svg.append(title);
    }
    return svg;
  }

  async function viewHealth() {
    main.replaceChildren(el("p", { class: "muted" }, "Scanning…"));
    let data;
    try {
      data = await api("health");
    } catch (error) {
      return fail(error);
    }
    const scans = data.history.scans || [];
    const undoBox = el("div", { class: "undo-box" });
    const undoButton = needsWrite(el("button", { type: "button", id: "undo" }, "Undo the last mnemex change…"));
    undoButton.addEventListener("click", () =>
      planThenApply(undoBox, () => post("undo", {}), (plan) => post("undo", { plan_id: plan.plan_id }), reload));
    const record = needsWrite(el("button", { type: "button" }, "Record today's score"));
    record.addEventListener("click", async () => {
      try {
        await post("health/record", {});
        reload();
      } catch (error) {
        toast(error.message, true);
      }
    });
    const head = el("div", { class: "health-head" },
      el("div", { class: "score", title: "100 is no issue" }, String(data.score)),
      el("div", {}, el("p", {}, `${data.total} issues in ${data.pages} pages; ${data.dismissed} dismissed; scanned in ${data.seconds} s`),
        scoreChart(scans) || el("p", { class: scans.length ? "muted one-score" : "muted" }, scans.length ? `one recorded score: ${scans[0].score}` : "No scores recorded yet."),
        el("div", { class: "actions" }, record, undoButton)));
    const parts = [head, undoBox];
    const kinds = Object.keys(data.counts);
    parts.push(el("ul", { class: "counts" }, kinds.map((k) => el("li", { class: data.counts[k] ? "some" : "none" }, el("a", { href: "#health-" + k }, `${k.replace(/_/g, " ")}: ${data.counts[k]}`)))));
    for (const kind of kinds) {
      const issues = data[kind] || [];
      if (!issues.length) continue;
      const list = el("ul", { class: "issues" });
      for (const issue of issues) {
        const holder = el("div", { class: "issue-plan" });
        const fix = needsWrite(el("button", { type: "button", class: "fix" }, "Fix…"));
        fix.addEventListener("click", () =>
          planThenApply(holder, () => post("health/fix", { id: issue.id }), (plan) => post("health/fix", { id: issue.id, plan_id: plan.plan_id }), reload));
        const reason = el("input", { type: "text", placeholder: "why it is no problem", "aria-label": "Reason", size: 24 });
        const dismiss = needsWrite(el("button", { type: "button", class: "dismiss" }, "Dismiss"));
        dismiss.addEventListener("click", async () => {
          try {
            await post("health/dismiss", { id: issue.id, reason: reason.value || null });
            toast("Dismissed " + issue.id);
            reload();
          } catch (error) {
            toast(error.message, true);
          }
        });
        list.append(el("li", { class: "issue", "data-id": issue.id },
          el("p", {}, issue.detail),
          el("p", { class: "files" }, issue.files.map((f) => pageLink(f))),
          issue.suggestion ? el("p", { class: "suggestion" }, "Suggestion: " + issue.suggestion) : null,
          el("div", { class: "actions" }, fix, reason, dismiss), holder));
      }
      parts.push(el("section", { class: "panel", id: "health-" + kind }, el("h2", {}, `${kind.replace(/_/g, " ")} (${data.counts[kind]})`), list));
    }
    main.replaceChildren(...parts);
  }

  // -- memories ----------------------------------------------------------------------

  async function viewMemories(project) {
    let data;
    try {
      data = await api("memories", project ? { project } : {});
    } catch (error) {
      return fail(error);
    }
    const parts = [el("h1", {}, "Memories"), el("p", { class: "muted" }, `${data.total} sessions and remembered notes`)];
    if (!data.projects.length) parts.push(el("p", { class: "muted" }, "No memories yet: `mnemex harvest` digests finished agent sessions."));
    for (const group of data.projects)
      parts.push(section(group.project, el("ol", { class: "timeline" }, group.memories.map((m) =>
        el("li", {}, el("time", { datetime: m.date }, m.date.slice(0, 10)), " ",
          el("a", { href: "#/memory/" + enc(m.path) }, m.title || m.path),
          m.type ? el("span", { class: "badge" }, m.type) : null)))));
    main.replaceChildren(...parts);
  }

  async function viewMemory(path) {
    let data;
    try {
      data = await api("digest", { path });
    } catch (error) {
      return fail(error);
    }
    const holder = el("div");
    const forget = needsWrite(el("button", { type: "button", class: "danger" }, "Forget…"));
    forget.addEventListener("click", () =>
      planThenApply(holder, () => post("forget", { path }), (plan) => post("forget", { path, plan_id: plan.plan_id }), () => (location.hash = "#/memories")));
    main.replaceChildren(el("h1", {}, data.title || path),
      el("div", { class: "meta" }, el("code", {}, path), el("a", { href: pageHref(path), class: "button" }, "As a page"), forget),
      holder, renderedNote(data));
  }

  // -- state -------------------------------------------------------------------------

  async function viewState(project) {
    if (!project) {
      let data;
      try {
        data = await api("state");
      } catch (error) {
        return fail(error);
      }
      main.replaceChildren(el("h1", {}, "Projects"), data.projects.length
        ? el("ul", { class: "links" }, data.projects.map((p) => el("li", {}, el("a", { href: "#/state/" + enc(p) }, p))))
        : el("p", { class: "muted" }, "No projects yet (`mnemex handoff save --create`)."));
      return;
    }
    let data;
    try {
      data = await api("state/project", { project });
    } catch (error) {
      return fail(error);
    }
    const c = data.context;
    const parts = [el("h1", {}, project), el("p", { class: "muted" }, c.framing || "")];
    parts.push(section("Standing brief", c.brief ? el("pre", { class: "state-text" }, c.brief.text) : el("p", { class: "muted" }, "No brief yet: a person sets it (`mnemex brief set`).")));
    parts.push(section("Handoffs, newest per machine", linkList(c.handoffs, "No handoff yet.", (h) =>
      el("li", {}, el("strong", {}, h.machine), " ", el("time", { datetime: h.updated }, h.updated), el("pre", { class: "state-text" }, h.text || h.headline)))));
    parts.push(section("Journal", linkList(c.journal, "Empty.", (j) => el("li", {}, el("time", { datetime: j.ts }, j.ts.slice(0, 16)), ` ${j.machine} ${j.event}: `, j.headline || ""))));
    parts.push(section("Foundations", linkList(data.foundations, "No foundations.", (f) =>
      el("li", {}, el("strong", {}, f.slug), ` ${f.file || ""} `, el("span", { class: "badge" + (f.fresh === false ? " stale" : "") }, f.fresh === false ? "source changed" : f.fresh ? "fresh" : "no source"),
        f.intact === false ? el("span", { class: "badge stale" }, "edited on disk") : null, f.added ? ` added ${String(f.added).slice(0, 10)}` : ""))));
    const drafts = el("ul", { class: "links" });
    for (const d of data.drafts) {
      const holder = el("div");
      const approve = needsWrite(el("button", { type: "button" }, "Review and approve…"));
      approve.addEventListener("click", () =>
        planThenApply(holder, () => post("foundation/approve", { project, slug: d.slug }), () => post("foundation/approve", { project, slug: d.slug, apply: true }), reload));
      drafts.append(el("li", {}, el("strong", {}, d.slug), ` by ${d.proposed_by || "?"} ${d.proposed_at || ""}: ${d.reason || ""} `, approve, holder));
    }
    parts.push(section("Drafts awaiting approval", data.drafts.length ? drafts : el("p", { class: "muted" }, "None.")));
    if (c.facts && c.facts.current && c.facts.current.length)
      parts.push(section("Facts", el("ul", {}, c.facts.current.map((f) => el("li", {}, `${f.what}: ${f.value} (since ${f.since || "?"}, ${f.source})`)))));
    main.replaceChildren(...parts);
  }

  // -- facts -------------------------------------------------------------------------

  async function viewFacts(subject) {
    if (!subject) {
      let data;
      try {
        data = await api("facts");
      } catch (error) {
        return fail(error);
      }
      main.replaceChildren(el("h1", {}, "Facts"), data.subjects.length
        ? el("ul", { class: "links" }, data.subjects.map((s) => el("li", {}, el("a", { href: "#/facts/" + enc(s) }, s))))
        : el("p", { class: "muted" }, "No facts yet (`mnemex fact add`, `mnemex consolidate`)."));
      return;
    }
    let data;
    try {
      data = await api("facts/subject", { subject });
    } catch (error) {
      return fail(error);
    }
    // facts_about: a disputed answer lists its facts; a stale fact carries the question to ask
    const disputed = new Set((data.disputed || []).flatMap((a) => (a.facts || []).map((f) => f.id)));
    const stale = new Map();
    for (const answer of data.answers || []) for (const f of answer.facts || []) if (f.question) stale.set(f.id, f.question);
    const facts = (data.facts || []).slice().sort((a, b) => String(a.valid_from || a.recorded_at).localeCompare(String(b.valid_from || b.recorded_at)));
    const list = el("ol", { class: "timeline facts" });
    for (const f of facts) {
      const holder = el("div", { class: "fact-result" });
      const act = (action, extra) => async () => {
        try {
          const result = await post("facts/change", Object.assign({ action, id: f.id }, extra || {}));
          toast(`${action}: ` + counts(result));
          reload();
        } catch (error) {
          holder.replaceChildren(el("p", { class: "error" }, error.message));
        }
      };
      const value = el("input", { type: "text", placeholder: "corrected value", "aria-label": "Corrected value", size: 18 });
      const flags = [];
      if (f.status === "disputed" || disputed.has(f.id)) flags.push(el("span", { class: "badge disputed" }, "disputed"));
      if (stale.has(f.id)) flags.push(el("span", { class: "badge stale", title: stale.get(f.id) }, "stale: still true?"));
      list.append(el("li", { class: "fact status-" + f.status, "data-id": f.id },
        el("span", { class: "when" }, `${f.valid_from || "?"} → ${f.valid_until || "now"}`), " ",
        el("strong", {}, f.statement), " ",
        el("span", { class: "badge" }, f.status), el("span", { class: "badge" }, f.layer), el("span", { class: "badge" }, f.provenance), ...flags,
        el("div", { class: "muted" }, `recorded ${String(f.recorded_at).slice(0, 10)}${f.expired_at ? ", expired " + String(f.expired_at).slice(0, 10) : ""}; evidence: `,
          (f.evidence || []).map((e) => (e.ref && e.ref.includes("/") ? pageLink(e.ref.replace(/^\[\[|\]\]$/g, ""), `${e.ref} (${e.date})`) : `${e.ref} (${e.date}) `))),
        el("div", { class: "actions" },
          needsWrite(el("button", { type: "button", onclick: act("confirm") }, "Confirm")),
          value, needsWrite(el("button", { type: "button", onclick: () => act("correct", { value: value.value })() }, "Correct")),
          needsWrite(el("button", { type: "button", class: "danger", onclick: act("retract") }, "Retract"))),
        holder));
    }
    main.replaceChildren(el("h1", {}, data.subject), el("p", { class: "muted" }, data.framing || ""),
      data.page ? el("p", {}, "Page: ", pageLink(data.page.endsWith(".md") ? data.page : data.page + ".md")) : null, list);
  }

  // -- ingest ------------------------------------------------------------------------

  function viewIngest() {
    const file = el("input", { type: "file", accept: ".md,.markdown,.txt,.html,.htm,.pdf,.rst", "aria-label": "File to ingest" });
    const holder = el("div");
    const upload = needsWrite(el("button", { type: "button", class: "primary" }, "Upload to inbox and plan"));
    upload.addEventListener("click", async () => {
      const chosen = file.files && file.files[0];
      if (!chosen) return toast("choose a file first", true);
      let stored;
      try {
        stored = await post("ingest/upload", null, { body: chosen, headers: { "X-Filename": chosen.name, "Content-Type": "application/octet-stream" } });
      } catch (error) {
        return holder.replaceChildren(el("p", { class: "error" }, error.message));
      }
      planThenApply(holder, () => post("ingest", { path: stored.path }), (plan) => post("ingest", { path: stored.path, plan_id: plan.plan_id }));
    });
    main.replaceChildren(el("h1", {}, "Ingest"),
      el("p", {}, "A source (markdown, text, HTML, PDF, reStructuredText, at most 20 MiB) goes into inbox/, then into the wiki once you apply its plan."),
      el("div", { class: "actions" }, file, upload), holder);
  }

  // -- routing -----------------------------------------------------------------------

  async function route() {
    document.body.dataset.ready = ""; // set again once the view is drawn (tests wait on it)
    if (graphView) {
      graphView.destroy();
      graphView = null;
      window.mnemexGraphView = null;
    }
    keyHandler = null;
    const hash = location.hash.slice(1) || "/search";
    const [pathPart, queryPart] = hash.split("?");
    const params = new URLSearchParams(queryPart || "");
    const parts = pathPart.split("/").filter(Boolean);
    const view = parts[0] || "search";
    const rest = decodeURIComponent(parts.slice(1).join("/"));
    for (const link of document.querySelectorAll("#nav a"))
      link.classList.toggle("active", link.dataset.view === view || (view === "page" && link.dataset.view === "search") || (view === "memory" && link.dataset.view === "memories"));
    document.title = "mnemex · " + (rest || view);
    try {
      if (view === "page") await viewPage(rest, params);
      else if (view === "graph") await viewGraph(rest);
      else if (view === "health") await viewHealth();
      else if (view === "memories") await viewMemories(params.get("project"));
      else if (view === "memory") await viewMemory(rest);
      else if (view === "state") await viewState(rest);
      else if (view === "facts") await viewFacts(rest);
      else if (view === "ingest") viewIngest();
      else await viewSearch(params);
    } catch (error) {
      fail(error);
    }
    document.body.dataset.ready = view;
    window.mnemexReadyAt = performance.now(); // for bench/web_speed.py: the view is drawn
  }

  // draw the current view again (after a write), as a navigation would
  function reload() {
    route();
  }

  document.addEventListener("keydown", (event) => {
    const typing = ["INPUT", "SELECT", "TEXTAREA"].includes(event.target.tagName);
    if (event.key === "/" && !typing) {
      event.preventDefault();
      const box = document.querySelector("form.search input[name=q]");
      if (box) box.focus();
      else location.hash = "#/search";
      return;
    }
    if (keyHandler && (!typing || event.target.name === "q")) keyHandler(event);
  });

  async function start() {
    try {
      session = await api("session");
    } catch (error) {
      return fail(error);
    }
    const mode = document.getElementById("mode");
    mode.textContent = `${session.vault_name} · ${session.write ? "read and write" : "read-only"}` +
      (session.include_private.length ? ` · private shown: ${session.include_private.join(", ")}` : "");
    mode.title = session.vault;
    window.addEventListener("hashchange", route);
    route();
  }

  start();
})();

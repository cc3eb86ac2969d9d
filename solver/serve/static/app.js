/* sleuth companion: the shell (API calls, start page, the generic page, claim box). Plain script, no build step.
   It names no game: each game's page is a script its package ships (listed by its declaration, served under
   /pages/GAME/...), loaded at start, that calls Sleuth.register(names, {mount, newGameForm}). */
"use strict";
const App = (() => {
  const $ = (sel, root = document) => root.querySelector(sel);
  const $$ = (sel, root = document) => Array.from(root.querySelectorAll(sel));

  /* el("button.small", {onclick}, "text", child...): children may be nested arrays (flattened) */
  function el(spec, attrs, ...children) {
    const [tag, ...classes] = spec.split(".");
    const node = document.createElement(tag || "div");
    if (classes.length) node.className = classes.join(" ");
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === undefined || v === null || v === false) continue;
      if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
      else if (k === "text") node.textContent = v;
      else if (k === "dataset") Object.assign(node.dataset, v);
      else node.setAttribute(k, v === true ? "" : v);
    }
    for (const c of children.flat(Infinity)) if (c !== null && c !== undefined && c !== false)
      node.append(c instanceof Node ? c : document.createTextNode(String(c)));
    return node;
  }

  function showError(message) {
    const box = $("#error");
    box.textContent = message || "";
    box.hidden = !message;
    if (message) box.scrollIntoView({block: "nearest"});
  }

  async function api(method, path, body) {
    const init = {method, headers: {}};
    if (body !== undefined) { init.headers["Content-Type"] = "application/json"; init.body = JSON.stringify(body); }
    let response;
    try { response = await fetch(path, init); }
    catch (e) { throw new Error("the companion is not answering (is `sleuth serve` still running?)"); }
    const data = await response.json().catch(() => ({error: `HTTP ${response.status}`}));
    if (!response.ok) { const err = new Error(data.error || `HTTP ${response.status}`); err.data = data; throw err; }
    return data;
  }

  /* Run an action; its error is shown in the page and nothing else changes. */
  async function guarded(action) {
    try { const out = await action(); showError(""); return out; }
    catch (e) { showError(e.message); return undefined; }
  }

  const fmtP = (p) => { const [a, b] = String(p).split("/").map(Number); return b ? a / b : a; };
  /* A count as the CLI writes it (thousands separators: 2,604), its noun singular for 1; every page uses these.
     Past 2^53 the browser's JSON has only a float: written "about 4.45e+16", never as exact digits. */
  const num = (n) => Number.isSafeInteger(Number(n)) ? Number(n).toLocaleString("en-US") : `about ${Number(n).toPrecision(3)}`;
  const count = (n, one, many) => `${num(n)} ${Number(n) === 1 ? one : many || `${one}s`}`;
  /* A probability as a percentage: an exact "a/b" (or "1") rounded half up with integer arithmetic (no float
     error), <1% and >99% at the ends; a plain number (a float) the same way, as near as it allows. */
  const EXACT = /^\s*\d+\s*(\/\s*\d+\s*)?$/;
  function pct(p) {
    if (!EXACT.test(String(p))) {
      const x = Number(p);
      return x >= 0.995 && x < 1 ? ">99%" : x > 0 && x < 0.005 ? "<1%" : `${Math.round(x * 100)}%`;
    }
    const [a, b] = String(p).split("/").map((s) => BigInt(s.trim()));
    const d = b === undefined ? 1n : b;
    if (a > 0n && a < d && 1000n * a >= 995n * d) return ">99%";
    if (a > 0n && 200n * a < d) return "<1%";
    return `${(200n * a + d) / (2n * d)}%`;
  }
  /* a name as the claim language reads it: in double quotes when it has a space */
  const q = (name) => /\s/.test(name) ? `"${name}"` : name;

  let info = null;
  const state = {table: null, onChange: null};

  /* -- the games' pages: each registers itself for the names of the games it shows -- */
  const pages = new Map();   // game name -> {mount(main, g) -> onChange(g), newGameForm(info) -> element}
  function register(names, page) {
    for (const name of [].concat(names)) pages.set(String(name).toLowerCase(), page);
  }
  /* the game a file names (its name or an alias, any case), as info lists it */
  const gameSpec = (name) => info.games.find((x) => [x.name, ...(x.aliases || [])].some(
    (n) => n.toLowerCase() === String(name || "").toLowerCase()));
  const registered = (spec) => [spec.name, ...(spec.aliases || [])].map((n) => pages.get(n.toLowerCase())).find(Boolean);
  function pageFor(name) {
    const spec = gameSpec(name);
    return (spec && !spec.page_problem && registered(spec)) || FilePage;
  }
  /* the data a game's page reads (its declaration's info routine) */
  const pageInfo = (name) => { const spec = gameSpec(name); return spec ? spec.page_info : null; };
  /* load every game's page files (scripts and style sheets), each once; a file that fails leaves its game
     the generic page, saying why */
  async function loadPages() {
    const urls = [...new Set(info.games.flatMap((g) => g.page || []))];
    await Promise.all(urls.map((url) => new Promise((resolve) => {
      const node = url.endsWith(".css") ? el("link", {rel: "stylesheet", href: url})
        : url.endsWith(".js") ? el("script", {src: url}) : null;
      if (!node) { resolve(); return; }
      node.addEventListener("load", resolve);
      node.addEventListener("error", () => {
        for (const g of info.games) if ((g.page || []).includes(url)) g.page_problem = `its page file ${url} did not load`;
        resolve();
      });
      document.head.append(node);
    })));
    for (const g of info.games) if (!g.page_problem && (g.page || []).some((u) => u.endsWith(".js")) && !registered(g))
      g.page_problem = `its page's script did not register it (Sleuth.register("${g.name}", ...))`;
  }

  /* -- background jobs (what others know, advice): progress, cancel, never blocking -- */
  function jobPanel(title, describe, render) {
    const out = el("div");
    const bar = el("progress", {max: 100});
    const status = el("span.muted", {}, "");
    const cancel = el("button.small", {type: "button", hidden: true}, "Cancel");
    let current = null;
    async function run(body) {
      if (current) await stop();
      const job = await guarded(() => api("POST", `/api/games/${state.table.name}/jobs`, body));
      if (!job) return;
      /* the old answer's room is kept until the new one is drawn: what lies below does not jump under a tap */
      out.style.minHeight = `${out.offsetHeight}px`;
      current = job.id; cancel.hidden = false; bar.hidden = false; out.textContent = "";
      poll(job.id);
    }
    async function poll(id) {
      if (current !== id) return;
      const job = await api("GET", `/api/jobs/${id}`).catch(() => null);
      if (!job || current !== id) return;
      bar.value = Math.min(99, 100 * job.elapsed / job.limit);
      status.textContent = `${job.state}: ${job.elapsed} s (limit ${job.limit} s)`;
      if (job.state === "running") { setTimeout(() => poll(id), 700); return; }
      current = null; cancel.hidden = true; bar.hidden = true;
      status.textContent = job.state === "done" ? `computed at ${new Date().toLocaleTimeString()} in ${job.elapsed} s` : job.state;
      out.textContent = "";
      if (job.state === "done") out.append(render(job.result));
      else if (job.error) out.append(el("p.error", {}, job.error));
      out.style.minHeight = "";
    }
    async function stop() {
      const id = current; current = null;
      cancel.hidden = true; bar.hidden = true; status.textContent = "cancelled"; out.style.minHeight = "";
      if (id) await api("DELETE", `/api/jobs/${id}`).catch(() => null);
    }
    cancel.addEventListener("click", stop);
    bar.hidden = true;
    const box = el("section.card", {}, el("h2", {}, title), describe,
                   el("div.progress", {}, bar, status, cancel), out);
    return {box, run, stop, stale() { if (!current && out.textContent) status.textContent += " (older than the last event)"; }};
  }

  /* -- claim box: any game -- */
  function claimBox(examples) {
    const input = el("input", {type: "text", id: "claim", placeholder: examples[0] || "a claim",
                               "aria-label": "claim", list: "claim-forms"});
    const forms = el("datalist", {id: "claim-forms"}, examples.map((e) => el("option", {value: e})));
    const out = el("div", {id: "claim-result", "aria-live": "polite"});
    const button = el("button.primary", {type: "submit", id: "claim-check"}, "Check");
    const busy = el("span.busy", {id: "claim-busy", role: "status", hidden: true}, "");
    let running = false;
    /* while a claim is checked: the button is disabled and a busy sign counts the seconds; the verdict of the
       claim before is gone from the moment a new one is sent (a malformed one leaves only its error line) */
    async function check(ev) {
      ev.preventDefault();
      if (running) return;
      running = true;
      out.textContent = "";
      button.disabled = true; busy.hidden = false; out.setAttribute("aria-busy", "true");
      const started = Date.now();
      const tick = () => { busy.textContent = `checking… ${Math.floor((Date.now() - started) / 1000)} s`; };
      tick();
      const timer = setInterval(tick, 1000);
      try {
        const r = await guarded(() => api("POST", `/api/games/${state.table.name}/verify`, {claims: [input.value]}));
        if (r) for (const c of r.claims) out.append(verdictView(c));
      } finally {
        clearInterval(timer);
        running = false; button.disabled = false; busy.hidden = true; out.removeAttribute("aria-busy");
      }
    }
    return el("section.card", {}, el("h2", {}, "Check a claim"),
      el("form", {onsubmit: check}, el("label", {for: "claim"}, "Claim"), input, forms,
         el("p.muted", {}, "Forms: ", examples.join(" · ")),
         el("div.progress", {}, button, busy)), out);
  }

  function verdictView(c) {
    const sym = {entailed: "✓ entailed (true in every world)", refuted: "✗ refuted (false in every world)",
                 open: "? open (true in some worlds, false in others)"}[c.verdict] || c.verdict;
    return el("div.why", {dataset: {verdict: c.verdict}}, el("div", {}, el("b", {}, c.text), ": ",
      el(`span.verdict-${c.verdict}`, {}, sym)),
      c.because && c.because.length ? el("div", {}, "because: ", c.because.join("; ")) : null,
      c.detail ? el("div", {}, c.detail) : null,
      c.witness && c.verdict !== "entailed" ? el("details", {}, el("summary", {}, "witness world"),
        el("pre", {}, JSON.stringify(c.witness, null, 1))) : null);
  }

  /* -- the page of a saved table -- */
  async function openTable(name) {
    const g = await guarded(() => api("GET", `/api/games/${encodeURIComponent(name)}`));
    if (!g) { $("#main").textContent = ""; $("#main").append(el("p", {}, el("a", {href: "/"}, "Back to the tables"))); return; }
    state.table = g;
    $("#tools").hidden = false;
    $("#download").href = `/api/games/${g.name}/file`;
    $("#download").setAttribute("download", `${g.name}.toml`);
    state.onChange = pageFor(g.game).mount($("#main"), g);
    updateTools();
  }

  function updateTools() {
    const g = state.table;
    $("#title").textContent = `${g.data.title || g.name} · ${g.game}`;
    $("#undo").disabled = !g.undo;
    $("#redo").disabled = !g.redo;
    document.title = `${g.data.title || g.name} · sleuth`;
  }

  /* Apply changes to the saved table; on success the page redraws from the answer (sheet included). */
  async function change(ops, solveOptions) {
    const g = await guarded(() => api("POST", `/api/games/${state.table.name}/edit`,
                                      {ops, solve: {options: solveOptions || {}}}));
    if (g) accept(g);
    return g;
  }
  function accept(g) { state.table = g; updateTools(); if (state.onChange) state.onChange(g); }
  async function step(direction) {
    const g = await guarded(() => api("POST", `/api/games/${state.table.name}/${direction}`,
                                      {solve: {options: (state.solveOptions || {})}}));
    if (g) accept(g);
  }

  /* -- the start page -- */
  async function startPage() {
    const main = $("#main");
    main.textContent = "";
    $("#title").textContent = "table companion";
    const list = el("ul.list", {id: "games"});
    const games = await guarded(() => api("GET", "/api/games"));
    for (const g of (games ? games.games : [])) {
      const when = new Date(g.modified * 1000).toLocaleString(undefined, {dateStyle: "short", timeStyle: "short"});
      list.append(el("li", {}, el("a.what", {href: `/g/${g.name}`}, `${g.title || g.name}`),
        el("span.muted", {}, `${g.game || "unreadable"} · ${when}`),
        el("a.small", {href: `/api/games/${g.name}/file`, download: `${g.name}.toml`}, "⤓ file"),
        el("button.small", {type: "button", onclick: async () => {
          if (!confirm(`Delete ${g.name}?`)) return;
          if (await guarded(() => api("DELETE", `/api/games/${g.name}`))) startPage();
        }}, "Delete")));
    }
    if (!list.children.length) list.append(el("li.muted", {}, "No saved table yet."));
    main.append(el("h1", {}, "Your tables"), el("section.card", {}, list));
    const forms = [...new Set(info.games.filter((x) => !x.page_problem).map(registered).filter((p) => p && p.newGameForm))];
    main.append(...forms.map((p) => p.newGameForm(info)), openFileForm());
  }

  function created(g) { if (g) location.href = `/g/${g.name}`; }

  function openFileForm() {
    const file = el("input", {type: "file", id: "upload", accept: ".toml,.json,text/plain", "aria-label": "puzzle file"});
    const drop = el("div.drop", {tabindex: 0}, "Drop a puzzle file here (any game), or choose one: ", file);
    async function upload(f) {
      if (!f) return;
      const text = await f.text();
      created(await guarded(() => api("POST", "/api/games", {text, filename: f.name})));
    }
    file.addEventListener("change", () => upload(file.files[0]));
    drop.addEventListener("dragover", (e) => { e.preventDefault(); drop.classList.add("over"); });
    drop.addEventListener("dragleave", () => drop.classList.remove("over"));
    drop.addEventListener("drop", (e) => { e.preventDefault(); drop.classList.remove("over"); upload(e.dataTransfer.files[0]); });
    const sel = el("select", {id: "example", "aria-label": "bundled example"},
                   info.examples.map((e) => el("option", {value: e}, e)));
    return el("section.card", {}, el("h2", {}, "Open a puzzle file"), drop,
      el("form", {onsubmit: async (e) => { e.preventDefault();
        created(await guarded(() => api("POST", "/api/games", {example: sel.value}))); }},
        el("label", {for: "example"}, "or a bundled example"), el("div.row", {}, sel,
          el("button.secondary", {type: "submit"}, "Open example"))));
  }

  /* -- any puzzle file: its solve answer and a claim box -- */
  const FilePage = {
    mount(main, g) {
      main.textContent = "";
      const answer = el("div", {id: "answer"});
      const spec = gameSpec(g.game) || {claims: []};
      main.append(el("h1", {}, g.data.title || g.name),
        spec.page_problem ? el("p.muted", {id: "page-problem"}, `note: the generic page, since ${spec.page_problem}`) : "",
        el("div.grid2", {},
        el("div", {}, el("section.card", {}, el("h2", {}, "Solve"), answer)),
        el("div", {}, claimBox(spec.claims), spec.review && App.reviewPanel ? App.reviewPanel().box : null,
          el("section.card", {}, el("details", {}, el("summary", {}, "The puzzle file"),
          el("pre", {id: "toml"}, g.toml))))));
      const draw = async () => {
        answer.textContent = "Solving…";
        const r = await guarded(() => api("POST", `/api/games/${g.name}/solve`, {options: {}}));
        answer.textContent = "";
        if (r) answer.append(renderReport(r.solve), renderFields(r.solve));
      };
      draw();
      return (ng) => { g = ng; $("#toml").textContent = ng.toml; draw(); };
    },
  };

  /* A solve answer: status, its text as the CLI prints it, and its fields. */
  function renderReport(r) {
    const box = el("div", {dataset: {status: r.status}});
    if (r.status === "contradiction") {
      box.append(el("p.error", {}, "Contradiction: no world fits. These observations conflict: " + (r.conflict || []).join("; ")));
      return box;
    }
    if (r.error) box.append(el("p.error", {}, r.error));
    if (r.count !== undefined) box.append(el("p", {}, el("b", {id: "count"}, num(r.count)), " possible"));
    if (r.text) box.append(el("pre", {id: "report-text"}, r.text));
    for (const n of r.notes || []) box.append(el("p.muted", {}, "note: " + n));
    return box;
  }

  /* Every field of a solve answer (its --json), readably: a count as the CLI writes it (2,604), numbers in
     tables and names as they are, exact fractions with their percentage, lists and tables as tables. */
  const SHOWN = new Set(["game", "status", "text", "notes", "error", "conflict", "count"]);
  const FRACTION = /^-?\d+\/\d+$/;
  const scalar = (v) => v === null || v === undefined ? "—" : typeof v === "string" && FRACTION.test(v)
    ? `${v} (${pct(v)})` : Array.isArray(v) && v.every(isScalar) ? v.map(scalar).join(", ")
    : v && typeof v === "object" && Object.values(v).every(isScalar)
      ? Object.entries(v).map(([k, x]) => `${k} ${scalar(x)}`).join(", ")
      : typeof v === "object" ? JSON.stringify(v) : String(v);
  const isScalar = (v) => v === null || typeof v !== "object";
  const label = (k) => String(k).replace(/_/g, " ");
  function fieldView(value) {
    const LIMIT = 200;
    if (isScalar(value)) return el("span", {}, scalar(value));
    if (Array.isArray(value)) {
      const more = value.length > LIMIT ? el("p.muted", {}, `and ${num(value.length - LIMIT)} more`) : null;
      const items = value.slice(0, LIMIT);
      if (!items.length) return el("span.muted", {}, "none");
      if (items.every(isScalar)) return el("span", {}, items.map(scalar).join(", "), more);
      if (items.every((r) => Array.isArray(r) && r.every(isScalar)))
        return el("div.scroll", {}, el("table.plain", {}, items.map((r) => el("tr", {}, r.map((c) => el("td", {}, scalar(c)))))), more);
      if (items.every((r) => r && typeof r === "object" && !Array.isArray(r))) {
        const cols = [...new Set(items.flatMap(Object.keys))];
        return el("div.scroll", {}, el("table.plain", {}, el("tr", {}, cols.map((c) => el("th", {}, label(c)))),
          items.map((r) => el("tr", {}, cols.map((c) => el("td", {}, scalar(r[c])))))), more);
      }
      return el("pre", {}, JSON.stringify(value, null, 1));
    }
    const rows = Object.entries(value);
    if (rows.every(([, v]) => v && typeof v === "object" && !Array.isArray(v) && Object.values(v).every(isScalar))) {
      const cols = [...new Set(rows.flatMap(([, v]) => Object.keys(v)))];
      return el("div.scroll", {}, el("table.plain", {}, el("tr", {}, el("th", {}, ""), cols.map((c) => el("th", {}, c))),
        rows.map(([k, v]) => el("tr", {}, el("th", {}, k), cols.map((c) => el("td", {}, scalar(v[c])))))));
    }
    return el("div.scroll", {}, el("table.plain", {}, rows.map(([k, v]) => el("tr", {}, el("th", {}, k),
      el("td", {}, isScalar(v) ? scalar(v) : fieldView(v))))));
  }
  function renderFields(r) {
    if (!r || r.status === "contradiction") return "";
    const fields = Object.entries(r).filter(([k]) => !SHOWN.has(k));
    if (!fields.length) return "";
    return el("details", {id: "fields", open: true}, el("summary", {}, "Every field of the answer (solve --json)"),
      el("dl.fields", {}, fields.map(([k, v]) => [el("dt", {dataset: {field: k}}, label(k)),
        /* a whole number of its own is a count (worlds, deals): written as the CLI writes counts */
        el("dd", {}, Number.isInteger(v) ? num(v) : fieldView(v))])));
  }

  async function start() {
    document.addEventListener("keydown", (e) => {
      if (!state.table || !(e.ctrlKey || e.metaKey) || ["INPUT", "TEXTAREA"].includes(document.activeElement.tagName)) return;
      if (e.key === "z") { e.preventDefault(); step("undo"); }
      if (e.key === "y") { e.preventDefault(); step("redo"); }
    });
    $("#undo").addEventListener("click", () => step("undo"));
    $("#redo").addEventListener("click", () => step("redo"));
    info = await guarded(() => api("GET", "/api/info"));
    if (!info) return;
    await loadPages();
    const m = location.pathname.match(/^\/g\/([A-Za-z0-9_-]+)$/);
    if (m) return openTable(m[1]);
    if (info.start && location.pathname === "/") { history.replaceState(null, "", `/g/${info.start}`); return openTable(info.start); }
    return startPage();
  }

  return {$, $$, el, api, guarded, showError, change, accept, jobPanel, claimBox, verdictView, renderReport,
          fmtP, pct, num, count, q, state, created, register, renderFields, pageInfo, gameSpec, get info() { return info; }, start};
})();
const Sleuth = App;  /* the name the games' pages use: Sleuth.register(...) */

/* sleuth companion: the review of a game (`sleuth review`), for any game whose declaration offers one. It runs in
   the background (a job: progress, Cancel) and draws the report generically: a chart of the moves' regret and luck
   (inline SVG, drawn here from the numbers), every field of every move as `sleuth review --json` gives it (exact
   fractions as "p/q", with their decimal), the totals, and the CLI's text. A game's page adds the panel with
   Sleuth.reviewPanel() and runs it when it wants (at the end of a game, or on a button). */
"use strict";
(() => {
  const {el} = App;
  const SVG = "http://www.w3.org/2000/svg";
  const SERIES = [["regret", "#c0392b", "regret (0: the best move)"], ["luck", "#2e86c1", "luck (> 0: lucky)"]];
  const SKIP = new Set(["game", "status", "text", "notes", "moves", "error"]);
  const FRACTION = /^-?\d+(\/\d+)?$/;

  /* a number of the report: "p/q" or "3" (exact), a JSON number (bits), or null (unknown) */
  const value = (v) => v === null || v === undefined ? null : typeof v === "number" ? v
    : typeof v === "string" && FRACTION.test(v) ? App.fmtP(v) : null;
  const decimal = (x) => Number.isInteger(x) ? String(x) : x.toFixed(4).replace(/0+$/, "").replace(/\.$/, "");
  /* a field as shown: fractions with their decimal, numbers to 4 places (the exact value in data-value) */
  function shown(v) {
    if (v === null || v === undefined) return "?";
    if (typeof v === "boolean") return v ? "yes" : "no";
    if (typeof v === "number") return Number.isInteger(v) ? String(v) : v.toFixed(4);
    if (typeof v === "string" && /^-?\d+\/\d+$/.test(v)) return `${v} ≈ ${decimal(App.fmtP(v))}`;
    if (Array.isArray(v)) return v.map((x) => Array.isArray(x) ? x.join(" / ") : shown(x)).join(", ") || "none";
    return typeof v === "object" ? JSON.stringify(v) : String(v);
  }
  const cell = (tag, v) => el(tag, {dataset: {value: JSON.stringify(v === undefined ? null : v)}, title: shown(v)}, shown(v));

  function svg(tag, attrs, text) {
    const node = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
    if (text !== undefined) node.textContent = text;
    return node;
  }

  /* bars of regret and luck per move (a series only when some move has it); unknown values drawn as "?" */
  function chart(moves) {
    const series = SERIES.filter(([key]) => moves.some((m) => key in m));
    if (!series.length || !moves.length) return null;
    const values = moves.flatMap((m) => series.map(([key]) => value(m[key]))).filter((x) => x !== null);
    const top = Math.max(0, ...values), bottom = Math.min(0, ...values);
    const span = top - bottom || 1;
    const W = 360, H = 170, left = 34, right = 6, up = 24, down = 30;
    const plot = H - up - down, step = (W - left - right) / moves.length;
    const y = (x) => up + plot * (top - x) / span;
    const bar = Math.min(22, step * 0.8 / series.length);
    const root = svg("svg", {viewBox: `0 0 ${W} ${H}`, width: "100%", role: "img", id: "review-chart",
                             "aria-label": "regret and luck per move", style: "max-width:36rem;font-family:inherit"});
    const legend = svg("text", {x: left, y: 11, "font-size": 10});
    series.forEach(([, colour, text], i) => {
      legend.append(svg("tspan", {fill: colour, dx: i ? 10 : 0}, "■ "), svg("tspan", {fill: "#333"}, text));
    });
    root.append(legend);
    /* the axis's values: 0, and the highest and lowest where they do not crowd it */
    for (const t of [0, top, bottom].filter((v, i) => i === 0 || Math.abs(y(v) - y(0)) >= 10))
      root.append(svg("text", {x: left - 3, y: y(t) + 3, "font-size": 9, "text-anchor": "end", fill: "#555"}, decimal(t)));
    root.append(svg("line", {x1: left, x2: W - right, y1: y(0), y2: y(0), stroke: "#222", "stroke-width": 1}));
    moves.forEach((m, i) => {
      const x0 = left + step * i + (step - bar * series.length) / 2;
      series.forEach(([key, colour], k) => {
        const v = value(m[key]);
        const x = x0 + bar * k;
        if (v === null) {
          root.append(svg("text", {x: x + bar / 2, y: y(0) - 3, "font-size": 10, "text-anchor": "middle", fill: colour}, "?"));
          return;
        }
        const h = Math.max(Math.abs(y(v) - y(0)), 1.5);  /* a zero still shows, as a thin bar on the axis */
        const r = svg("rect", {x, width: Math.max(bar - 1, 1), y: v > 0 ? y(0) - h : v < 0 ? y(0) : y(0) - h / 2,
                               height: h, fill: colour,
                               "data-move": m.move, "data-series": key});
        r.append(svg("title", {}, `move ${m.move}: ${key} ${shown(m[key])}`));
        root.append(r);
      });
      const label = m.guess !== undefined ? m.guess : m.kind !== undefined ? m.kind : "";
      root.append(svg("text", {x: left + step * (i + 0.5), y: H - down + 12, "font-size": 9, "text-anchor": "middle",
                               fill: "#333"}, String(m.move ?? i + 1)));
      root.append(svg("text", {x: left + step * (i + 0.5), y: H - down + 23, "font-size": 8, "text-anchor": "middle",
                               fill: "#666"}, String(label).slice(0, Math.max(3, Math.floor(step / 5)))));
    });
    return root;
  }

  /* every field of every move, as the report's JSON gives it (a column per field, in the order they come) */
  function table(moves) {
    const cols = [...new Set(moves.flatMap((m) => Object.keys(m)))].filter((k) => k !== "note");
    return el("div.scroll", {}, el("table.plain", {id: "review-moves"},
      el("tr", {}, cols.map((c) => el("th", {}, c.replace(/_/g, " ")))),
      moves.map((m) => el("tr", {dataset: {move: m.move}}, cols.map((c) => {
        if (!(c in m)) return el("td", {}, "");  /* a field of another kind of move */
        const td = cell("td", m[c]);
        td.dataset.field = c;
        return td;
      })))));
  }

  function render(r) {
    const moves = r.moves || [];
    const totals = Object.entries(r).filter(([k, v]) => !SKIP.has(k) && (v === null || typeof v !== "object"));
    const notes = moves.filter((m) => m.note).map((m) => `move ${m.move}: ${m.note}`);
    return el("div", {id: "review"},
      el("div", {id: "review-totals", style: "display:flex;flex-wrap:wrap;gap:.15rem 1rem;margin:.3rem 0 .5rem"},
        totals.map(([k, v]) => el("span", {}, el("b", {}, k.replace(/_/g, " ")), " ",
          (() => { const node = cell("span", v); node.dataset.field = k; return node; })()))),
      moves.length ? chart(moves) : el("p.muted", {}, "No move to review."),
      moves.length ? table(moves) : null,
      notes.map((n) => el("p.muted", {}, "note: " + n)),
      (r.notes || []).map((n) => el("p.muted", {}, "note: " + n)),
      el("details", {}, el("summary", {}, "As sleuth review prints it"), el("pre", {id: "review-text"}, r.text || "")));
  }

  /* the panel: a Review button, the job's progress and Cancel, and the report; run() starts it again */
  App.reviewPanel = function reviewPanel(title, what) {
    const button = el("button.secondary", {type: "button", id: "review-run"}, "Review");
    const panel = App.jobPanel(title || "Review of the game",
      el("div", {}, el("p.muted", {}, what || "How good each move was, exactly: the same numbers as sleuth review " +
                                         "--json on the saved file (regret: lost to the move; luck > 0: the " +
                                         "feedback was kinder than the move's average)."), button), render);
    const run = () => panel.run({command: "review"});
    button.addEventListener("click", run);
    return {box: panel.box, run, stop: panel.stop, stale: panel.stale};
  };
})();

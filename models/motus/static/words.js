/* Wordle, Motus and Mastermind: guesses with clickable tiles, emoji grids, remaining answers, best guesses. */
"use strict";
const Words = (() => {
  const {el, api, guarded, change} = App;
  const NEXT = {B: "Y", Y: "G", G: "B"};
  const SYMBOL = {G: "✓", Y: "↔", B: "✗"};
  const NAME = {G: "right place", Y: "elsewhere", B: "absent"};
  const EMOJI = {"🟩": "G", "🟨": "Y", "⬛": "B", "⬜": "B", "🟧": "G", "🟦": "Y"};

  function newGameForm(info) {
    const game = el("select", {id: "w-game"}, ["wordle", "motus", "mastermind"].map((x) => el("option", {value: x}, x)));
    const title = el("input", {type: "text", id: "w-title", placeholder: "Today's Wordle"});
    const length = el("input", {type: "text", id: "w-length", value: "7", inputmode: "numeric"});
    const first = el("input", {type: "text", id: "w-first", placeholder: "L", maxlength: 1});
    const pegs = el("input", {type: "text", id: "w-pegs", value: "4", inputmode: "numeric"});
    const colours = el("input", {type: "text", id: "w-colours", value: "6", inputmode: "numeric"});
    const motus = el("div.row", {hidden: true}, el("div", {}, el("label", {for: "w-length"}, "Letters"), length),
                     el("div", {}, el("label", {for: "w-first"}, "First letter"), first));
    const mm = el("div.row", {hidden: true}, el("div", {}, el("label", {for: "w-pegs"}, "Pegs"), pegs),
                  el("div", {}, el("label", {for: "w-colours"}, "Colours"), colours));
    /* the word list: the game's bundled one, or a file of the games folder, uploaded here (POST /api/files) */
    const dict = el("select", {id: "w-dict"}, el("option", {value: ""}, "the bundled list"));
    const dictFile = el("input", {type: "file", id: "w-dict-file", accept: ".txt,text/plain", "aria-label": "upload a word list"});
    const addFile = (name) => { if (![...dict.options].some((o) => o.value === name)) dict.append(el("option", {value: name}, name)); };
    guarded(() => api("GET", "/api/files")).then((r) => { for (const f of (r ? r.files : [])) addFile(f); });
    dictFile.addEventListener("change", async () => {
      const f = dictFile.files[0];
      if (!f) return;
      /* a name the folder takes: letters, digits, '.', '-', '_', ending in .txt */
      const base = f.name.replace(/\.[^.]*$/, "").replace(/[^A-Za-z0-9_.-]+/g, "-").replace(/^[^A-Za-z0-9]+|[-_.]+$/g, "").slice(0, 50);
      const saved = await guarded(async () => api("POST", "/api/files", {name: `${base || "words"}.txt`, text: await f.text()}));
      dictFile.value = "";
      if (saved) { addFile(saved.file); dict.value = saved.file; }
    });
    const words = el("div", {}, el("label", {for: "w-dict"}, "Word list"), dict,
      el("label", {for: "w-dict-file"}, "or upload one (a .txt file, one word per line)"), dictFile,
      el("p.muted", {}, "An uploaded list is kept in the games folder, under its name."));
    game.addEventListener("change", () => {
      motus.hidden = game.value !== "motus"; mm.hidden = game.value !== "mastermind"; words.hidden = game.value === "mastermind";
    });
    const num = (s) => /^\s*\d+\s*$/.test(s) ? Number(s) : s;
    async function submit(e) {
      e.preventDefault();
      const data = {game: game.value};
      if (title.value.trim()) data.title = title.value.trim();
      if (game.value !== "mastermind" && dict.value) data.dictionary = dict.value;
      if (game.value === "motus") { data.length = num(length.value); if (first.value.trim()) data.first = first.value.trim(); }
      if (game.value === "mastermind") { data.pegs = num(pegs.value); data.colours = num(colours.value); }
      App.created(await guarded(() => api("POST", "/api/games", {data})));
    }
    return el("section.card", {id: "new-words"}, el("h2", {}, "New word game (Wordle, Motus, Mastermind)"),
      el("form", {onsubmit: submit}, el("div.row", {}, el("div", {}, el("label", {for: "w-game"}, "Game"), game),
        el("div", {}, el("label", {for: "w-title"}, "Title"), title)), motus, mm, words,
        el("p", {}, el("button.primary", {type: "submit", id: "w-create"}, "Start"))));
  }

  function tile(letter, mark, onclick, i) {
    return el(`button.tile.f-${mark}`, {type: "button", dataset: {index: i, mark},
      "aria-label": `${letter}: ${NAME[mark]} (press to change)`, onclick}, letter, el("small", {}, SYMBOL[mark]));
  }

  function mount(main, g) {
    App.state.solveOptions = {};
    let data = g.data;
    const mastermind = g.game === "mastermind";
    const key = mastermind ? "code" : "word";
    main.textContent = "";
    const rows = el("div", {id: "guesses"});
    const input = el("input", {type: "text", id: "guess-word", autocomplete: "off", autocapitalize: "characters",
                               placeholder: mastermind ? "1122" : "CRANE", "aria-label": "guess"});
    let pending = [];
    const pendingRow = el("div.tiles", {id: "pending"});
    const black = el("input", {type: "text", id: "mm-black", value: "0", inputmode: "numeric", "aria-label": "black pegs"});
    const white = el("input", {type: "text", id: "mm-white", value: "0", inputmode: "numeric", "aria-label": "white pegs"});
    function drawPending() {
      const word = input.value.trim().toUpperCase();
      pending = Array.from(word).map((_, i) => pending[i] || "B");
      pendingRow.textContent = "";
      if (mastermind) return;
      Array.from(word).forEach((ch, i) => pendingRow.append(tile(ch, pending[i], () => { pending[i] = NEXT[pending[i]]; drawPending(); }, i)));
    }
    input.addEventListener("input", drawPending);
    async function add(e) {
      e.preventDefault();
      const value = {[key]: input.value.trim()};
      value.feedback = mastermind ? {black: Number(black.value), white: Number(white.value)} : pending.join("");
      if (await change([{op: "append", key: "guess", value}])) { input.value = ""; pending = []; drawPending(); input.focus(); }
    }
    const grid = el("textarea", {id: "emoji", placeholder: "Paste the text Wordle's Share button copies", "aria-label": "emoji grid"});
    async function paste(e) {
      e.preventDefault();
      const lines = grid.value.split("\n").map((l) => Array.from(l).map((c) => EMOJI[c]).filter(Boolean).join("")).filter(Boolean);
      const guesses = data.guess || [];
      if (!lines.length) { App.showError("emoji grid: no row of 🟩 🟨 ⬛ ⬜ found (allowed: rows of those squares)"); return; }
      if (lines.length > guesses.length) { App.showError(`emoji grid: ${lines.length} rows but ${guesses.length} guesses typed (allowed: type the words first, then paste)`); return; }
      const ops = lines.map((f, i) => { const v = {...guesses[i], feedback: f}; delete v.secret; return {op: "replace", key: "guess", index: i, value: v}; });
      if (await change(ops)) grid.value = "";
    }
    const remaining = el("div", {id: "remaining"});
    const spec = App.gameSpec(g.game);
    const method = el("select", {id: "method"}, el("option", {value: ""}, "the game's default"),
      Object.entries(spec.suggest_methods).map(([k, v]) => el("option", {value: k, title: v}, `${k}: ${v}`)));
    const top = el("input", {type: "text", id: "top", inputmode: "numeric", placeholder: "none"});
    const hard = el("input", {type: "checkbox", id: "hard"});
    const hardNote = el("p.muted", {id: "hard-note", hidden: !data.hard},
      "This game is in hard mode (hard = true in its file): every suggestion keeps every hint so far.");
    const best = App.jobPanel("Best next guesses",
      el("div", {}, hardNote, el("label", {for: "method"}, "Method"), method,
        mastermind ? null : el("label", {}, hard, " hard mode (only words still possible: method possible-gmax)"),
        el("label", {for: "top"}, "Also rank the N best by exact expected number of guesses (slow on big lists)"), top,
        el("button.secondary", {type: "button", id: "best-run", onclick: () => {
          const options = top.value.trim() ? {top: top.value.trim()} : {};
          best.run({command: "suggest", method: hard.checked ? "possible-gmax" : method.value || null, options}); }}, "Suggest")),
      (r) => el("pre", {id: "best"}, r.text || JSON.stringify(r)));
    const file = el("pre", {id: "toml"});
    /* the review of the game (sleuth review): by its button, and by itself once the game is over */
    const review = Sleuth.reviewPanel ? Sleuth.reviewPanel() : null;
    let reviewed = null;
    function over(d) {
      const gs = d.guess || [];
      const last = gs[gs.length - 1];
      if (!last) return false;
      const tries = d.tries || {wordle: 6, mastermind: 10, motus: Number(d.length) === 5 ? 5 : 6}[g.game];
      const f = last.feedback;
      const solved = mastermind ? !!f && typeof f === "object" && f.black === Number(d.pegs || 4)
        : typeof f === "string" && /^G+$/i.test(f) || !!last.secret && String(last.secret).toUpperCase() === String(last[key]).toUpperCase();
      return solved || gs.length >= tries;
    }
    function autoReview(ng) {
      if (!review || !over(ng.data) || reviewed === ng.toml) return;
      reviewed = ng.toml;
      review.run();
    }
    main.append(el("h1", {}, data.title || g.name), el("div.grid2", {},
      el("div", {}, el("section.card", {}, el("h2", {}, "Guesses"), rows,
        el("form", {onsubmit: add, id: "guess-form"}, el("label", {for: "guess-word"}, mastermind ? "Code (digits 1..colours)" : "Guess (type it, then tap each tile to set its colour)"), input, pendingRow,
          mastermind ? el("div.row", {}, el("div", {}, el("label", {for: "mm-black"}, "● black (right place)"), black),
                                          el("div", {}, el("label", {for: "mm-white"}, "○ white (elsewhere)"), white)) : null,
          el("p", {}, el("button.primary", {type: "submit", id: "guess-add"}, "Add guess"))),
        mastermind ? null : el("form", {onsubmit: paste}, el("label", {for: "emoji"}, "Or paste Wordle's emoji grid (applies to the guesses above, in order)"), grid,
          el("button.secondary", {type: "submit"}, "Apply grid"))),
        el("section.card", {}, el("h2", {}, "Remaining answers"), remaining), review ? review.box : null),
      el("div", {}, best.box, App.claimBox(spec.claims), el("section.card", {}, el("details", {}, el("summary", {}, "The puzzle file"), file)))));

    function drawRows() {
      rows.textContent = "";
      (data.guess || []).forEach((gs, i) => {
        const word = String(gs[key] || "").toUpperCase();
        let body;
        if (mastermind) {
          const f = gs.feedback || {};
          body = el("span.what", {}, `${word}  `, gs.secret ? `(secret ${gs.secret})` : `${"●".repeat(f.black || 0)}${"○".repeat(f.white || 0)} (${f.black || 0} black, ${f.white || 0} white)`);
        } else if (typeof gs.feedback === "string") {
          const marks = Array.from(gs.feedback.toUpperCase());
          body = el("div.tiles", {}, Array.from(word).map((ch, k) => tile(ch, marks[k] || "B", () => {
            marks[k] = NEXT[marks[k] || "B"];
            change([{op: "replace", key: "guess", index: i, value: {...gs, feedback: marks.join("")}}]);
          }, k)));
        } else body = el("span.what", {}, `${word} (secret ${gs.secret})`);
        rows.append(el("div.row", {dataset: {guess: i}}, body, el("button.small", {type: "button", style: "flex: 0 0 auto",
          onclick: () => change([{op: "delete", key: "guess", index: i}])}, "Delete")));
      });
      if (!rows.children.length) rows.append(el("p.muted", {}, "No guess yet."));
    }
    function drawRemaining(r) {
      remaining.textContent = "";
      if (!r) return;
      if (r.status !== "ok" || r.possible === undefined) { remaining.append(App.renderReport(r)); return; }
      const shown = r.possible.slice(0, 400);
      remaining.append(el("p", {}, el("b", {id: "count"}, App.num(r.count)), r.count === 1 ? " answer left" : " answers left"),
        el("div.words", {id: "possible"}, shown.map((w) => el("div", {}, w))),
        el("p.muted", {hidden: r.count <= shown.length}, `and ${App.num(r.count - shown.length)} more (the file's solve --json lists all)`));
    }
    function redraw(ng, first) {
      data = ng.data; file.textContent = ng.toml; drawRows(); hardNote.hidden = !data.hard;
      if (ng.solve) drawRemaining(ng.solve);
      if (!first) { best.stale(); if (review) review.stale(); }
      autoReview(ng);
    }
    redraw(g, true);
    guarded(() => api("POST", `/api/games/${g.name}/solve`, {options: {}})).then((r) => { if (r) drawRemaining(r.solve); });
    return (ng) => redraw(ng, false);
  }
  return {newGameForm, mount};
})();
Sleuth.register(["wordle", "motus", "mastermind"], Words);

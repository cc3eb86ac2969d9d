/* Mascarade: swaps-or-not, reveals, looks, the Spy and the Fool as they happen; every player's beliefs. */
"use strict";
const Mascarade = (() => {
  const {el, api, guarded, change, fmtP, pct} = App;
  const split = (text) => text.split(/[,\n]/).map((s) => s.trim()).filter(Boolean);

  function newGameForm() {
    const title = el("input", {type: "text", id: "m-title", placeholder: "Saturday's game (optional)"});
    const players = el("input", {type: "text", id: "m-players", placeholder: "Ann, Bob, Cat, Dan"});
    const cards = el("input", {type: "text", id: "m-cards", placeholder: "King, Queen, Judge, Thief (same order)"});
    const middle = el("input", {type: "text", id: "m-middle", placeholder: "optional: Witch, Cheat (face down)"});
    const viewer = el("input", {type: "text", id: "m-viewer", placeholder: "me (optional)"});
    async function submit(e) {
      e.preventDefault();
      const data = {game: "mascarade", players: split(players.value), cards: split(cards.value)};
      if (title.value.trim()) data.title = title.value.trim();
      if (split(middle.value).length) data.middle = split(middle.value);
      if (viewer.value.trim()) data.viewer = viewer.value.trim();
      App.created(await guarded(() => api("POST", "/api/games", {data})));
    }
    return el("section.card", {id: "new-mascarade"}, el("h2", {}, "New Mascarade game"), el("form", {onsubmit: submit},
      el("label", {for: "m-title"}, "Title"), title,
      el("label", {for: "m-players"}, "Players, in order"), players, el("label", {for: "m-cards"}, "Their face-up cards"), cards,
      el("label", {for: "m-middle"}, "Middle cards"), middle,
      el("label", {for: "m-viewer"}, "Which one is me"), viewer,
      el("p", {}, el("button.primary", {type: "submit", id: "m-create"}, "Start"))));
  }

  function mount(main, g) {
    App.state.solveOptions = {};
    let data = g.data;
    main.textContent = "";
    const sel = (id, items, extra) => el("select", {id}, extra || [], items.map((p) => el("option", {value: p}, p)));
    const cardsList = () => Array.from(new Set([...data.cards, ...(data.middle || [])]));
    /* one form for every kind of event: the fields a kind does not take are hidden */
    const KINDS = {swap: "swap-or-not", reveal: "reveal", look: "look", spy: "the Spy", fool: "the Fool"};
    const kind = el("select", {id: "e-kind"}, Object.entries(KINDS).map(([k, v]) => el("option", {value: k}, v)));
    const positions = [...data.players, ...(data.middle || []).map((_, i) => `Middle${i + 1}`)];
    const who = sel("e-who", positions);
    const other = sel("e-other", positions);
    const third = sel("e-third", positions);
    const outcome = sel("e-swapped", [], [el("option", {value: ""}, "unknown"), el("option", {value: "true"}, "swapped"),
                                          el("option", {value: "false"}, "not swapped")]);
    const pub = el("input", {type: "checkbox", id: "e-public"});
    const unknown = () => [el("option", {value: ""}, "unknown")];
    const card = sel("e-card", cardsList(), unknown());
    const spyOwn = sel("e-spy-own", cardsList(), unknown());
    const spyOther = sel("e-spy-other", cardsList(), unknown());
    const field = (id, text, input) => { const label = el("label", {for: id}, text); return {box: el("div", {}, label, input), label}; };
    const fWho = field("e-who", "Player", who), fOther = field("e-other", "Swap with", other),
          fThird = field("e-third", "and", third), fOutcome = field("e-swapped", "Outcome", outcome),
          fCard = field("e-card", "Card", card), fOwn = field("e-spy-own", "Spy's own card (if seen)", spyOwn),
          fSeen = field("e-spy-other", "The other card (if seen)", spyOther);
    const fPublic = el("label", {}, pub, " everyone saw the outcome");
    const shown = {
      swap: [[fWho, "Player"], [fOther, "Swap-or-not with"], [fOutcome], [fPublic]],
      reveal: [[fWho, "Position revealed"], [fCard, "Card shown (required)"]],
      look: [[fWho, "Player who looks"], [fCard, "Card (if I saw it)"]],
      spy: [[fWho, "The Spy"], [fOther, "Looks at (and swaps-or-not with)"], [fOwn], [fSeen], [fOutcome], [fPublic]],
      fool: [[fWho, "The Fool"], [fOther, "Swaps-or-not"], [fThird, "with"], [fOutcome], [fPublic]],
    };
    const all = [fWho, fOther, fThird, fOutcome, fCard, fOwn, fSeen, fPublic];
    const boxOf = (f) => f.box || f;
    function showKind() {
      for (const f of all) boxOf(f).hidden = true;
      for (const [f, text] of shown[kind.value]) { boxOf(f).hidden = false; if (text) f.label.textContent = text; }
      const players = new Set(data.players);  /* only a reveal may name a middle card first */
      for (const o of who.options) o.hidden = kind.value !== "reveal" && !players.has(o.value);
      if (who.selectedOptions[0] && who.selectedOptions[0].hidden) who.value = data.players[0];
      distinct();
      required();
    }
    /* what I saw in an event of mine is required (the reader refuses the event without it): the labels say so */
    function required() {
      const mine = Boolean(data.viewer) && who.value === data.viewer;
      fOwn.label.textContent = mine ? "My own card (required)" : "Spy's own card (if seen)";
      fSeen.label.textContent = mine ? "The other card (required)" : "The other card (if seen)";
      fOutcome.label.textContent = mine ? "Outcome (required: I know it)" : "Outcome";
      if (kind.value === "look") fCard.label.textContent = mine ? "Card (required: I saw it)" : "Card (if I saw it)";
    }
    /* the positions a swap, the Spy or the Fool names are different ones: a clash moves to the next free one */
    function distinct() {
      const taken = new Set([who.value]);
      for (const s of kind.value === "fool" ? [other, third] : [other]) {
        if (taken.has(s.value)) s.value = positions.find((p) => !taken.has(p));
        taken.add(s.value);
      }
    }
    kind.addEventListener("change", showKind);
    who.addEventListener("change", () => { distinct(); required(); });
    other.addEventListener("change", distinct);
    async function add(e) {
      e.preventDefault();
      const k = kind.value;
      const value = k === "swap" ? {swap: [who.value, other.value]} : k === "spy" ? {spy: who.value, with: other.value}
        : k === "fool" ? {fool: who.value, between: [other.value, third.value]} : {[k]: who.value};
      if (["swap", "spy", "fool"].includes(k)) {
        if (outcome.value) value.swapped = outcome.value === "true";
        if (pub.checked) value.public = true;
      }
      if (["reveal", "look"].includes(k) && card.value) value.card = card.value;
      if (k === "spy" && (spyOwn.value || spyOther.value)) value.cards = [spyOwn.value, spyOther.value];
      await change([{op: "append", key: "event", value}], App.state.solveOptions);
    }
    const log = el("ol.list", {id: "log"});
    const beliefs = el("div", {id: "beliefs"});
    const file = el("pre", {id: "toml"});
    const spec = App.info.games.find((x) => x.name === "mascarade");
    const auto = el("input", {type: "checkbox", id: "second-auto", checked: true});
    const runSecond = () => second.run({command: "solve", options: {others: true}});
    const second = App.jobPanel("What each player believes (second order)",
      el("div.row", {}, el("button.secondary", {type: "button", id: "second-run", onclick: runSecond}, "Compute"),
        el("label", {}, auto, " again after every event")), drawSecond);
    main.append(el("h1", {}, data.title || g.name), el("div.grid2", {},
      el("div", {}, el("section.card", {}, el("h2", {}, "Beliefs"), beliefs), second.box),
      el("div", {}, el("section.card", {}, el("form", {onsubmit: add}, el("h2", {}, "An event"),
        el("div.row", {}, el("div", {}, el("label", {for: "e-kind"}, "What"), kind), fWho.box),
        el("div.row", {}, fOther.box, fThird.box), el("div.row", {}, fOwn.box, fSeen.box),
        el("div.row", {}, fOutcome.box, fCard.box), fPublic,
        el("p", {}, el("button.primary", {type: "submit", id: "e-submit"}, "Record event")))),
        el("section.card", {}, el("h2", {}, "Log"), log), App.claimBox(spec.claims),
        el("section.card", {}, el("details", {}, el("summary", {}, "The puzzle file"), file)))));

    function table(title, rows, extra) {
      const cards = cardsList();
      return el("div.scroll", {}, el("h2", {}, title), el("table.plain", {},
        el("tr", {}, el("th", {}, "player"), extra ? el("th", {}, extra[0]) : null, cards.map((c) => el("th", {}, c))),
        Object.entries(rows).map(([p, row]) => el("tr", {}, el("td", {}, p), extra ? el("td", {}, pct(extra[1][p])) : null, cards.map((c) => {
          const x = row[c] !== undefined ? fmtP(row[c]) : 0;
          const td = el("td", {title: String(row[c] || 0)}, x >= 1 ? "✓" : x <= 0 ? "✗" : pct(row[c]));
          if (x > 0 && x < 1) td.style.background = `hsl(28, 90%, ${Math.round(97 - 45 * x)}%)`;
          return td;
        })))));
    }
    function drawBeliefs(r) {
      beliefs.textContent = "";
      if (!r) return;
      if (r.status !== "ok" || !r.marginals) { beliefs.append(App.renderReport(r)); return; }
      beliefs.append(table(`Who holds what, as ${data.viewer || "an observer"} sees it`, r.marginals));
      beliefs.append(el("p.legend", {}, "✓ certain · ✗ impossible · n% exact probability (the fraction in each cell's tooltip)"));
      beliefs.append(el("details", {}, el("summary", {}, "The solve answer as text"), el("pre", {}, r.text || "")));
    }
    function drawSecond(r) {
      const box = el("div", {id: "second"});
      if (!r.others) { box.append(r.others_reason ? el("p.muted", {}, r.others_reason) : App.renderReport(r)); return box; }
      const own = {}, sure = {}, about = {};
      for (const [p, o] of Object.entries(r.others)) { own[p] = o.own; sure[p] = o.knows_own_card; if (o.about_viewer) about[p] = o.about_viewer; }
      box.append(table("About their own card", own, ["sure of it", sure]));
      if (Object.keys(about).length) box.append(table(`About ${data.viewer}'s card`, about));
      box.append(el("p", {}, "Can claim safely (sure of their card in every world): ",
        el("b", {}, (r.safe_claims || []).join(", ") || "nobody")));
      return box;
    }
    function drawLog() {
      log.textContent = "";
      (data.event || []).forEach((ev, i) => {
        const what = ev.swap ? `${ev.swap[0]} swaps-or-not with ${ev.swap[1]}${ev.swapped === undefined ? "" : ev.swapped ? " (swapped)" : " (not swapped)"}${ev.public ? ", seen by all" : ""}`
          : ev.reveal ? `${ev.reveal} reveals ${ev.card}` : ev.look ? `${ev.look} looks${ev.card ? ` (${ev.card})` : ""}`
          : ev.spy ? `${ev.spy} (Spy) looks at their card and ${ev.with}'s${ev.cards ? ` (${ev.cards.join(", ")})` : ""}, then swaps-or-not${ev.swapped === undefined ? "" : ev.swapped ? " (swapped)" : " (not swapped)"}`
          : ev.fool ? `${ev.fool} (Fool) swaps-or-not ${(ev.between || []).join(" and ")}${ev.swapped === undefined ? "" : ev.swapped ? " (swapped)" : " (not swapped)"}`
          : JSON.stringify(ev);
        log.append(el("li", {}, el("span.what", {}, `#${i + 1} ${what}`),
          el("button.small", {type: "button", onclick: () => change([{op: "delete", key: "event", index: i}], App.state.solveOptions)}, "Delete")));
      });
      if (!log.children.length) log.append(el("li.muted", {}, "No event yet."));
    }
    function redraw(ng, first) {
      data = ng.data; file.textContent = ng.toml; drawLog();
      if (ng.solve) drawBeliefs(ng.solve);
      if (!first) second.stale();
      if (auto.checked) runSecond();
    }
    showKind();
    beliefs.textContent = "Solving…";
    redraw(g, true);
    guarded(() => api("POST", `/api/games/${g.name}/solve`, {options: App.state.solveOptions})).then((r) => { if (r) drawBeliefs(r.solve); });
    return (ng) => redraw(ng, false);
  }
  return {newGameForm, mount};
})();
Sleuth.register("mascarade", Mascarade);

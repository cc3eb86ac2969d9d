/* Clue: new game, events turn by turn, the exact sheet with probabilities, why?, others, advice. */
"use strict";
const Clue = (() => {
  const {el, api, guarded, change, q, fmtP, pct} = App;
  const CATS = ["suspects", "weapons", "rooms"];
  const split = (text) => text.split(/[,\n]/).map((s) => s.trim()).filter(Boolean);

  function deckOf(data, info) {
    if (typeof data.deck === "object" && data.deck) return data.deck;
    return Sleuth.pageInfo("clue").decks[data.deck || "classic"];
  }

  /* -- new game -- */
  function newGameForm(info) {
    const title = el("input", {type: "text", id: "clue-title", placeholder: "Friday night"});
    const deckSel = el("select", {id: "clue-deck"}, Object.keys(Sleuth.pageInfo("clue").decks).map((d) => el("option", {value: d}, d)),
                       el("option", {value: "custom"}, "custom deck…"));
    const custom = CATS.map((c) => el("textarea", {id: `clue-${c}`, placeholder: `${c}, comma separated`, "aria-label": c}));
    const customBox = el("div", {hidden: true}, CATS.map((c, i) => [el("label", {for: `clue-${c}`}, c), custom[i]]));
    const players = el("input", {type: "text", id: "clue-players", placeholder: "Ann, Bob, Cat, Dan",
                                 autocomplete: "off"});
    const me = el("select", {id: "clue-me"});
    const sizes = el("input", {type: "text", id: "clue-sizes", placeholder: "optional: 3, 3, 3 (default: deal evenly)"});
    const hand = el("div.chips", {id: "clue-hand", role: "group", "aria-label": "my cards"});
    const count = el("span.muted", {}, "");
    function deck() {
      if (deckSel.value !== "custom") return Sleuth.pageInfo("clue").decks[deckSel.value];
      const d = {}; CATS.forEach((c, i) => { d[c] = split(custom[i].value); }); return d;
    }
    function drawHand() {
      const chosen = new Set(picked());
      hand.textContent = "";
      for (const c of CATS) for (const card of deck()[c])
        hand.append(el("button.chip", {type: "button", "aria-pressed": chosen.has(card) ? "true" : "false",
          dataset: {card}, onclick: (e) => { const b = e.currentTarget;
            b.setAttribute("aria-pressed", b.getAttribute("aria-pressed") === "true" ? "false" : "true"); counted(); }}, card));
      counted();
    }
    const picked = () => App.$$("button.chip[aria-pressed=true]", hand).map((b) => b.dataset.card);
    const counted = () => { count.textContent = `${picked().length} card(s) chosen`; };
    function drawMe() {
      const was = me.value;
      me.textContent = "";
      me.append(el("option", {value: ""}, "nobody (an outside observer)"));
      for (const p of split(players.value)) me.append(el("option", {value: p, selected: p === was}, p));
    }
    deckSel.addEventListener("change", () => { customBox.hidden = deckSel.value !== "custom"; drawHand(); });
    custom.forEach((t) => t.addEventListener("change", drawHand));
    players.addEventListener("input", drawMe);
    async function submit(e) {
      e.preventDefault();
      const data = {game: "clue", deck: deckSel.value === "custom" ? deck() : deckSel.value,
                    players: split(players.value)};
      if (title.value.trim()) data.title = title.value.trim();
      if (sizes.value.trim()) data.hand_sizes = split(sizes.value).map((s) => /^\d+$/.test(s) ? Number(s) : s);
      if (me.value) { data.viewer = me.value; if (picked().length) data.hands = {[me.value]: picked()}; }
      App.created(await guarded(() => api("POST", "/api/games", {data})));
    }
    drawMe(); drawHand();
    return el("section.card", {id: "new-clue"}, el("h2", {}, "New Clue game"),
      el("form", {onsubmit: submit},
        el("div.row", {}, el("div", {}, el("label", {for: "clue-title"}, "Title"), title),
           el("div", {}, el("label", {for: "clue-deck"}, "Deck"), deckSel)), customBox,
        el("label", {for: "clue-players"}, "Players in seat order, clockwise"), players,
        el("div.row", {}, el("div", {}, el("label", {for: "clue-me"}, "Which one is me"), me),
           el("div", {}, el("label", {for: "clue-sizes"}, "Hand sizes"), sizes)),
        el("label", {}, "My hand (tap my cards) ", count), hand,
        el("p", {}, el("button.primary", {type: "submit", id: "clue-create"}, "Start the game"))));
  }

  /* -- the game page -- */
  function mount(main, g) {
    const info = App.info;
    App.state.solveOptions = {probabilities: true};
    let data = g.data;
    let deck = deckOf(data, info);
    const allCards = () => CATS.flatMap((c) => deck[c]);
    const players = () => data.players;
    const me = () => data.viewer || null;
    main.textContent = "";

    const lists = el("div", {}, CATS.map((c) => el("datalist", {id: `dl-${c}`}, deck[c].map((x) => el("option", {value: x})))),
                     el("datalist", {id: "dl-all"}, allCards().map((x) => el("option", {value: x}))));
    const playerSelect = (id, extra) => el("select", {id}, extra || [], players().map((p) => el("option", {value: p}, p)));

    /* sheet */
    const banner = el("div.banner", {id: "accuse", hidden: true});
    const sheetBox = el("div.scroll", {id: "sheet"});
    const why = el("div", {id: "why"});
    const summary = el("p.muted", {id: "summary"});

    /* suggestion form */
    let editing = null;   /* {key, index} while an earlier event is being edited */
    const sBy = playerSelect("s-by");
    const sCards = CATS.map((c, i) => el("input", {type: "text", id: `s-card${i}`, list: `dl-${c}`, autocomplete: "off",
                                                   placeholder: c.slice(0, -1), "aria-label": c.slice(0, -1)}));
    const sShown = playerSelect("s-shown", [el("option", {value: ""}, "nobody could show")]);
    const sCard = el("select", {id: "s-seen"});
    const sSubmit = el("button.primary", {type: "submit", id: "s-submit"}, "Record suggestion");
    const sCancel = el("button.secondary", {type: "button", hidden: true, onclick: () => resetSuggestion()}, "Cancel edit");
    function seenOptions() {
      const was = sCard.value;
      sCard.textContent = "";
      sCard.append(el("option", {value: ""}, "not seen by me"));
      for (const i of sCards) if (i.value.trim()) sCard.append(el("option", {value: i.value.trim(), selected: i.value.trim() === was}, i.value.trim()));
    }
    sCards.forEach((i) => i.addEventListener("input", seenOptions));
    function resetSuggestion() {
      editing = null; sCards.forEach((i) => { i.value = ""; }); sShown.value = ""; seenOptions();
      sSubmit.textContent = "Record suggestion"; sCancel.hidden = true; nextBy();
      App.$$("li.editing", main).forEach((li) => li.classList.remove("editing"));
    }
    function nextBy() {
      const s = data.suggestion || [];
      if (!s.length) { sBy.value = players()[0]; return; }
      const last = players().findIndex((p) => p.toLowerCase() === String(s[s.length - 1].by).toLowerCase());
      sBy.value = players()[(last + 1) % players().length];
    }
    async function recordSuggestion(e) {
      e.preventDefault();
      const value = {by: sBy.value, cards: sCards.map((i) => i.value.trim())};
      if (sShown.value) value.shown_by = sShown.value;
      if (sShown.value && sCard.value) value.card = sCard.value;
      const op = editing && editing.key === "suggestion" ? {op: "replace", key: "suggestion", index: editing.index, value}
                                                          : {op: "append", key: "suggestion", value};
      if (await change([op], App.state.solveOptions)) { resetSuggestion(); sCards[0].focus(); }
    }
    const suggestionForm = el("form", {id: "suggestion-form", onsubmit: recordSuggestion},
      el("h2", {}, "A suggestion"),
      el("div.row", {}, el("div", {}, el("label", {for: "s-by"}, "Who suggested"), sBy)),
      el("div.row", {}, sCards.map((i, k) => el("div", {}, el("label", {for: i.id}, CATS[k].slice(0, -1)), i))),
      el("div.row", {}, el("div", {}, el("label", {for: "s-shown"}, "Who showed a card"), sShown),
         el("div", {}, el("label", {for: "s-seen"}, "The card, if I saw it"), sCard)),
      el("p.muted", {}, "Those between the suggester and the one who showed passed."),
      el("div.row", {}, sSubmit, sCancel));

    /* card shown to me */
    const cWho = playerSelect("c-who");
    const cCard = el("input", {type: "text", id: "c-card", list: "dl-all", autocomplete: "off", "aria-label": "card"});
    async function recordShown(e) {
      e.preventDefault();
      const hands = structuredClone(data.hands || {});
      const list = hands[cWho.value] || [];
      if (cCard.value.trim()) list.push(cCard.value.trim());
      hands[cWho.value] = list;
      if (await change([{op: "set", key: "hands", value: hands}], App.state.solveOptions)) cCard.value = "";
    }
    const shownForm = el("form", {id: "shown-form", onsubmit: recordShown}, el("h2", {}, "A card shown to me"),
      el("div.row", {}, el("div", {}, el("label", {for: "c-who"}, "By"), cWho),
         el("div", {}, el("label", {for: "c-card"}, "Card"), cCard)),
      el("button.primary", {type: "submit"}, "Record card"));

    /* accusation */
    const aBy = playerSelect("a-by");
    const aCards = CATS.map((c, i) => el("input", {type: "text", id: `a-card${i}`, list: `dl-${c}`, autocomplete: "off",
                                                   "aria-label": c.slice(0, -1), placeholder: c.slice(0, -1)}));
    const aCorrect = el("input", {type: "checkbox", id: "a-correct"});
    let editingAccusation = null;
    const aSubmit = el("button.primary", {type: "submit"}, "Record accusation");
    async function recordAccusation(e) {
      e.preventDefault();
      const value = {by: aBy.value, cards: aCards.map((i) => i.value.trim()), correct: aCorrect.checked};
      const op = editingAccusation === null ? {op: "append", key: "accusation", value}
                                            : {op: "replace", key: "accusation", index: editingAccusation, value};
      if (await change([op], App.state.solveOptions)) {
        aCards.forEach((i) => { i.value = ""; }); aCorrect.checked = false;
        editingAccusation = null; aSubmit.textContent = "Record accusation";
      }
    }
    function editAccusation(i) {
      const a = data.accusation[i];
      editingAccusation = i;
      aBy.value = players().find((p) => p.toLowerCase() === String(a.by).toLowerCase()) || a.by;
      aCards.forEach((inp, k) => { inp.value = a.cards[k] || ""; });
      aCorrect.checked = Boolean(a.correct);
      aSubmit.textContent = `Save accusation ${i + 1}`;
      aBy.focus();
    }
    const accusationForm = el("form", {id: "accusation-form", onsubmit: recordAccusation}, el("h2", {}, "An accusation"),
      el("label", {for: "a-by"}, "By"), aBy, el("div.row", {}, aCards),
      el("label", {}, aCorrect, " it was correct"), aSubmit);

    /* log */
    const log = el("ol.list", {id: "log"});

    /* background: what others know, advice, which card to show */
    const autoOthers = el("input", {type: "checkbox", id: "others-auto"});
    const runOthers = () => others.run({command: "solve", options: {others: true}});
    const others = App.jobPanel("What each opponent may know",
      el("div.row", {}, el("button.secondary", {type: "button", id: "others-run", onclick: runOthers}, "Compute"),
        el("label", {}, autoOthers, " again after every event")),
      renderOthers);
    const roomSel = el("select", {id: "advice-room"}, el("option", {value: ""}, "any room"), deck.rooms.map((r) => el("option", {value: r}, r)));
    const advice = App.jobPanel("Advice for my next suggestion",
      el("div.row", {}, el("div", {}, el("label", {for: "advice-room"}, "The room I am in"), roomSel),
        el("div", {}, el("label", {}, " "), el("button.secondary", {type: "button", id: "advice-run", onclick: () => {
          const options = {}; if (roomSel.value) options.room = roomSel.value; if (me()) options.by = me();
          advice.run({command: "suggest", options}); }}, "Advise"))),
      (r) => el("pre", {}, r.text || JSON.stringify(r)));
    const showBy = playerSelect("show-by");
    const showCards = CATS.map((c, i) => el("input", {type: "text", id: `show-card${i}`, list: `dl-${c}`, autocomplete: "off",
                                                      "aria-label": c.slice(0, -1), placeholder: c.slice(0, -1)}));
    const showCard = App.jobPanel("Which card should I show?",
      el("form", {onsubmit: (e) => { e.preventDefault();
        showCard.run({command: "suggest", options: {show: `${showBy.value}: ${showCards.map((i) => i.value.trim()).join(", ")}`}}); }},
        el("label", {for: "show-by"}, "Who asked"), showBy, el("div.row", {}, showCards),
        el("button.secondary", {type: "submit"}, "Which one?")),
      (r) => el("pre", {}, r.text || JSON.stringify(r)));

    const claims = App.claimBox(info.games.find((x) => x.name === "clue").claims);
    const file = el("pre", {id: "toml"});
    main.append(lists, el("h1", {}, data.title || g.name), el("div.grid2", {},
      el("div", {}, el("section.card", {}, banner, el("h2", {}, "Sheet"), summary, sheetBox,
        el("p.legend", {}, "✓ holds · ✗ does not hold · n% exact probability (darker = likelier). ",
           "Tap a cell: why?"), why)),
      el("div", {}, el("section.card", {}, suggestionForm), el("section.card", {}, shownForm),
        el("section.card", {}, el("h2", {}, "Log"), log), others.box, advice.box, showCard.box,
        el("section.card", {}, accusationForm), claims,
        el("section.card", {}, el("details", {}, el("summary", {}, "The puzzle file"), file)))));

    function drawSheet(r) {
      sheetBox.textContent = ""; why.textContent = ""; banner.hidden = true;
      if (!r) return;
      if (r.status !== "ok") { sheetBox.append(App.renderReport(r)); return; }
      const places = [...players(), "envelope"];
      const table = el("table.sheet", {"aria-label": "knowledge sheet"});
      table.append(el("thead", {}, el("tr", {}, el("th.cardname", {}, "card"),
        places.map((p) => el("th", {scope: "col", title: p}, p === "envelope" ? "Env." : p)))));
      const body = el("tbody");
      CATS.forEach((cat) => {
        body.append(el("tr", {}, el("th.cat", {colspan: places.length + 1}, cat)));
        for (const card of deck[cat]) {
          const row = r.sheet[card] || {};
          const known = row.envelope === "yes";
          body.append(el(`tr${known ? ".envelope-known" : ""}`, {}, el("th.cardname", {scope: "row"}, card),
            places.map((p) => {
              const mark = row[p];
              const prob = r.probabilities ? r.probabilities[card][p] : null;
              const x = prob ? fmtP(prob) : null;
              const text = mark === "yes" ? "✓" : mark === "no" ? "✗" : x !== null ? pct(x) : "·";
              const td = el(`td.m-${mark}`, {dataset: {card, place: p, mark}});
              if (mark === "maybe" && x !== null) td.style.background = `hsl(28, 90%, ${Math.round(97 - 45 * x)}%)`;
              td.append(el("button", {type: "button", title: `${p} / ${card}: ${mark}${prob ? ` (p = ${prob})` : ""}`,
                "aria-label": `${p} ${mark === "yes" ? "holds" : mark === "no" ? "does not hold" : "may hold"} ${card}` +
                  (prob && mark === "maybe" ? `, probability ${prob}` : ""), onclick: () => explain(card, p, mark, prob)}, text));
              return td;
            })));
        }
      });
      table.append(body);
      sheetBox.append(table);
      const env = r.envelope;
      summary.textContent = `Envelope: ${env.suspect || "?"}, ${env.weapon || "?"}, ${env.room || "?"}` +
        (r.deals !== undefined ? ` · ${r.deals} consistent deals` : "");
      if (env.suspect && env.weapon && env.room) {
        banner.hidden = false;
        banner.textContent = `Accuse now: ${env.suspect}, ${env.weapon}, ${env.room} — certain.`;
      }
    }

    async function explain(card, place, mark, prob) {
      const who = place === "envelope" ? "envelope" : q(place);
      const claim = `${who} ${mark === "no" ? "lacks" : "holds"} ${q(card)}`;
      why.textContent = "Checking…";
      const r = await guarded(() => api("POST", `/api/games/${App.state.game.name}/verify`, {claims: [claim]}));
      why.textContent = "";
      if (!r) return;
      const c = r.claims[0];
      why.append(App.verdictView(c));
      if (mark === "maybe" && prob) why.append(el("p", {}, `Exact probability: ${prob} (${pct(fmtP(prob))}).`));
      why.scrollIntoView({block: "nearest"});
    }

    function renderOthers(r) {
      if (!r.others) return App.renderReport(r);
      const parts = ["envelope", "suspect", "weapon", "room"];
      return el("div.scroll", {}, el("table.plain", {id: "others"},
        el("tr", {}, el("th", {}, "player"), parts.map((p) => el("th", {}, `knows ${p}`))),
        Object.entries(r.others).map(([p, row]) => el("tr", {}, el("td", {}, p),
          parts.map((k) => el("td", {title: row[k]}, `${pct(fmtP(row[k]))}`))))),
        el("p.muted", {}, "Exact probability, from my side, that each player already knows it."));
    }

    function drawLog() {
      log.textContent = "";
      const who = (x) => x;
      (data.suggestion || []).forEach((s, i) => {
        const what = `${who(s.by)} asked ${s.cards.join(", ")} → ` +
          (s.shown_by ? `${s.shown_by} showed${s.card ? ` ${s.card}` : " a card"}` : "nobody could show");
        log.append(el("li", {dataset: {kind: "suggestion", index: i}}, el("span.what", {}, `#${i + 1} ${what}`),
          el("button.small", {type: "button", onclick: (e) => editSuggestion(i, e.currentTarget.parentNode)}, "Edit"),
          el("button.small", {type: "button", onclick: () => change([{op: "delete", key: "suggestion", index: i}], App.state.solveOptions)}, "Delete")));
      });
      (data.accusation || []).forEach((a, i) => {
        log.append(el("li", {dataset: {kind: "accusation", index: i}}, el("span.what", {},
          `Accusation: ${a.by}: ${a.cards.join(", ")} (${a.correct ? "correct" : "wrong"})`),
          el("button.small", {type: "button", onclick: () => editAccusation(i)}, "Edit"),
          el("button.small", {type: "button", onclick: () => change([{op: "delete", key: "accusation", index: i}], App.state.solveOptions)}, "Delete")));
      });
      for (const [p, cards] of Object.entries(data.hands || {})) {
        for (const [k, card] of cards.entries()) {
          log.append(el("li", {dataset: {kind: "hand"}}, el("span.what", {}, p === me() ? `My card: ${card}` : `${p} showed me ${card}`),
            el("button.small", {type: "button", onclick: () => {
              const hands = structuredClone(data.hands); hands[p].splice(k, 1);
              if (!hands[p].length) delete hands[p];
              change([{op: "set", key: "hands", value: hands}], App.state.solveOptions); }}, "Remove")));
        }
      }
      if (!log.children.length) log.append(el("li.muted", {}, "No event yet."));
    }

    function editSuggestion(i, li) {
      const s = data.suggestion[i];
      editing = {key: "suggestion", index: i};
      sBy.value = players().find((p) => p.toLowerCase() === String(s.by).toLowerCase()) || s.by;
      sCards.forEach((inp, k) => { inp.value = s.cards[k] || ""; });
      sShown.value = s.shown_by || ""; seenOptions(); sCard.value = s.card || "";
      sSubmit.textContent = `Save suggestion #${i + 1}`; sCancel.hidden = false;
      App.$$("li.editing", main).forEach((x) => x.classList.remove("editing"));
      li.classList.add("editing");
      sBy.focus();
    }

    function redraw(ng, first) {
      data = ng.data; deck = deckOf(data, info);
      file.textContent = ng.toml;
      drawLog();
      if (ng.solve) drawSheet(ng.solve);
      if (!first) { others.stale(); advice.stale(); resetSuggestion(); if (autoOthers.checked) runOthers(); }
    }
    sheetBox.textContent = "Solving…";
    redraw(g, true); resetSuggestion(); seenOptions();
    if (me()) cWho.value = players().find((p) => p !== me()) || "";
    guarded(() => api("POST", `/api/games/${g.name}/solve`, {options: App.state.solveOptions})).then((r) => { if (r) drawSheet(r.solve); });
    return (ng) => redraw(ng, false);
  }

  return {newGameForm, mount};
})();
Sleuth.register("clue", Clue);

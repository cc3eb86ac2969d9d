/* Clue: new game, a turn in a few taps, the exact sheet with what each event taught, the log in play order,
   notes, why?, others, advice. */
"use strict";
const Clue = (() => {
  const {el, api, guarded, change, q, fmtP, num, count} = App;
  const pctOf = App.pct;  /* an exact probability as a percentage, rounded half up */
  const CATS = ["suspects", "weapons", "rooms"];
  const ONE = {suspects: "suspect", weapons: "weapon", rooms: "room"};
  const split = (text) => text.split(/[,\n]/).map((s) => s.trim()).filter(Boolean);

  const listText = (xs, last = "and") => xs.length < 2 ? xs.join("") : `${xs.slice(0, -1).join(", ")} ${last} ${xs[xs.length - 1]}`;

  function deckOf(data, info) {
    if (typeof data.deck === "object" && data.deck) return data.deck;
    return Sleuth.pageInfo("clue").decks[data.deck || "classic"];
  }

  /* Tappable chips, one value (or none) pressed; the phone's keyboard never opens. */
  function chipGroup(id, label) {
    const box = el("div.chips", {id, role: "group", "aria-label": label});
    let value = null, listeners = [];
    const sync = () => App.$$("button", box).forEach((b) => b.setAttribute("aria-pressed", String(b.dataset.value === value)));
    const group = {
      box,
      get value() { return value; },
      set(v) { value = v; sync(); },
      options(items) {   /* items: [{value, text, cls, title}] */
        box.textContent = "";
        for (const o of items) box.append(el(`button.chip${o.cls ? `.${o.cls}` : ""}`, {type: "button", title: o.title,
          dataset: {value: o.value}, "aria-pressed": "false", onclick: () => {
            value = value === o.value ? null : o.value; sync(); listeners.forEach((f) => f(value)); }}, o.text));
        if (!items.some((o) => o.value === value)) value = null;
        sync();
        return group;
      },
      onChange(f) { listeners.push(f); return group; },
    };
    return group;
  }

  /* -- new game -- */
  function newGameForm(info) {
    const title = el("input", {type: "text", id: "clue-title", placeholder: "Friday night"});
    const deckSel = el("select", {id: "clue-deck"}, Object.keys(Sleuth.pageInfo("clue").decks).map((d) => el("option", {value: d}, d)),
                       el("option", {value: "custom"}, "custom deck…"));
    const custom = CATS.map((c) => el("textarea", {id: `clue-${c}`, placeholder: `${c}, comma separated`, "aria-label": c}));
    const customBox = el("div", {id: "clue-custom", hidden: true},
                         CATS.flatMap((c, i) => [el("label", {for: `clue-${c}`}, c), custom[i]]));
    const players = el("input", {type: "text", id: "clue-players", placeholder: "Ann, Bob, Cat, Dan",
                                 autocomplete: "off"});
    const me = el("select", {id: "clue-me"});
    const sizes = el("input", {type: "text", id: "clue-sizes", placeholder: "optional: 3, 3, 3 (default: deal evenly)"});
    const hand = el("div.chips", {id: "clue-hand", role: "group", "aria-label": "my cards"});
    const counted = el("span.muted", {}, "");
    function deck() {
      if (deckSel.value !== "custom") return Sleuth.pageInfo("clue").decks[deckSel.value];
      const d = {}; CATS.forEach((c, i) => { d[c] = split(custom[i].value); }); return d;
    }
    const picked = () => App.$$("button.chip[aria-pressed=true]", hand).map((b) => b.dataset.card);
    const showCount = () => { counted.textContent = count(picked().length, "card chosen", "cards chosen"); };
    function drawHand() {
      const chosen = new Set(picked());
      hand.textContent = "";
      for (const c of CATS) for (const card of deck()[c])
        hand.append(el("button.chip", {type: "button", "aria-pressed": chosen.has(card) ? "true" : "false",
          dataset: {card}, onclick: (e) => { const b = e.currentTarget;
            b.setAttribute("aria-pressed", b.getAttribute("aria-pressed") === "true" ? "false" : "true"); showCount(); }}, card));
      showCount();
    }
    function drawMe() {
      const was = me.value;
      me.textContent = "";
      me.append(el("option", {value: ""}, "nobody (an outside observer)"));
      for (const p of split(players.value)) me.append(el("option", {value: p, selected: p === was}, p));
    }
    deckSel.addEventListener("change", () => { customBox.hidden = deckSel.value !== "custom"; drawHand(); });
    custom.forEach((t) => t.addEventListener("input", drawHand));
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
        el("label", {}, "My hand (tap my cards) ", counted), hand,
        el("p", {}, el("button.primary", {type: "submit", id: "clue-create"}, "Start the game"))));
  }

  /* -- the log in play order: the file's `log` key, reconciled with the events the file holds -- */
  function playOrder(data, me) {
    const out = [], seen = new Set();
    const sug = data.suggestion || [], acc = data.accusation || [], hands = data.hands || {};
    const shownOk = (p, c) => p !== me && Array.isArray(hands[p]) && hands[p].includes(c);
    const add = (e) => { const k = e.kind === "shown" ? `shown ${e.player}: ${e.card}` : `${e.kind} ${e.index + 1}`;
      if (!seen.has(k)) { seen.add(k); out.push(e); } };
    for (const entry of Array.isArray(data.log) ? data.log : []) {
      let m = /^(suggestion|accusation) (\d+)$/.exec(String(entry));
      if (m) { const i = Number(m[2]) - 1; if (i < (m[1] === "suggestion" ? sug : acc).length) add({kind: m[1], index: i}); continue; }
      m = /^shown (.+?): (.+)$/.exec(String(entry));
      if (m && shownOk(m[1], m[2])) add({kind: "shown", player: m[1], card: m[2]});
    }
    sug.forEach((_, i) => add({kind: "suggestion", index: i}));
    acc.forEach((_, i) => add({kind: "accusation", index: i}));
    for (const [p, cards] of Object.entries(hands)) if (p !== me) for (const c of cards || []) add({kind: "shown", player: p, card: c});
    return out;
  }
  const logText = (e) => e.kind === "shown" ? `shown ${e.player}: ${e.card}` : `${e.kind} ${e.index + 1}`;

  /* -- what an event taught: the sheet before and after, in one plain line -- */
  function learned(before, after, deck, players) {
    const the = (card) => deck.suspects.includes(card) ? card : `the ${card}`;
    const places = [...players, "envelope"];
    const parts = [], newlyHeld = new Set(), changed = [];
    const allCards = CATS.flatMap((c) => deck[c]);
    for (const card of allCards) for (const p of places) {
      const a = (before.sheet[card] || {})[p], b = (after.sheet[card] || {})[p];
      if (a !== b) changed.push([card, p]);
      if (b === "yes" && a !== "yes") newlyHeld.add(card);
    }
    for (const p of players) {
      const held = allCards.filter((c) => after.sheet[c][p] === "yes" && before.sheet[c][p] !== "yes");
      if (held.length) parts.push(`${p} holds ${listText(held.map(the))}`);
    }
    for (const cat of CATS) {
      const open = (r) => deck[cat].filter((c) => r.sheet[c].envelope !== "no");
      const was = open(before), now = open(after);
      if (was.length === now.length) continue;
      const gone = was.filter((c) => !now.includes(c)), back = now.filter((c) => !was.includes(c));
      parts.push(now.length === 0 ? `no ${ONE[cat]} fits` : now.length <= 3
        ? `the ${ONE[cat]} is ${listText(now.map(the), "or")}`
        : gone.length ? `the ${ONE[cat]} is not ${listText(gone.map(the), "or")}`
        : `the ${ONE[cat]} may again be ${listText(back.map(the), "or")}`);
    }
    for (const p of players) {
      const lacks = allCards.filter((c) => after.sheet[c][p] === "no" && before.sheet[c][p] !== "no" && !newlyHeld.has(c));
      if (lacks.length) parts.push(`${p} lacks ${listText(lacks.map(the))}`);
    }
    const lost = [];   /* after an edit, a deletion or an undo: what is no longer certain */
    for (const p of players) for (const c of allCards) if (before.sheet[c][p] === "yes" && after.sheet[c][p] !== "yes") lost.push(`${p} holds ${the(c)}`);
    if (lost.length) parts.push(`no longer certain: ${listText(lost)}`);
    else if (changed.some(([c, p]) => after.sheet[c][p] === "maybe" && p !== "envelope")) parts.push("some ✗ are open again");
    let text = parts.join("; ");
    if (!text) text = "nothing new for certain";
    if (before.deals !== undefined && after.deals !== undefined && before.deals !== after.deals)
      text += ` (${count(after.deals, "consistent deal")}, were ${num(before.deals)})`;
    return {text: text[0].toUpperCase() + text.slice(1) + ".", changed};
  }

  /* -- the game page -- */
  function mount(main, g) {
    const info = App.info;
    App.state.solveOptions = {probabilities: true};
    let data = g.data;
    let deck = deckOf(data, info);
    let solved = null;           /* the last solve answer shown */
    let quiet = false;           /* saving notes is not an event: the line of what changed stays */
    const allCards = () => CATS.flatMap((c) => deck[c]);
    const players = () => data.players;
    const me = () => data.viewer || null;
    const same = (a, b) => String(a).toLowerCase() === String(b).toLowerCase();
    const seat = (name) => players().findIndex((p) => same(p, name));
    const out = () => new Set((data.accusation || []).filter((a) => !a.correct).map((a) => players()[seat(a.by)]));
    const order = () => playOrder(data, me());
    main.textContent = "";

    /* sheet */
    const banner = el("div.banner", {id: "accuse", hidden: true});
    const learnedLine = el("div.learned", {id: "learned", role: "status", hidden: true});
    const sheetBox = el("div.scroll", {id: "sheet"});
    const cellBox = el("div", {id: "why"});
    const summary = el("p.muted", {id: "summary"});
    let editingShown = null;     /* {player, card} of a card shown to me, while it is being corrected */

    const cardChoices = (cat) => deck[cat].map((c) => ({value: c, text: c}));
    const playerChoices = (list, outSet) => list.map((p) => ({value: p, text: p, cls: outSet && outSet.has(p) ? "out" : "",
      title: outSet && outSet.has(p) ? `${p} is out (a wrong accusation)` : undefined}));

    /* the suggestion: chips only (typing stays possible in one box) */
    let editing = null;          /* index of the suggestion being edited */
    const sBy = chipGroup("s-by", "who suggested");
    const sCards = CATS.map((c) => chipGroup(`s-${ONE[c]}`, ONE[c]));
    const sTyped = el("input", {type: "text", id: "s-typed", autocomplete: "off", autocapitalize: "words",
      placeholder: "or type them: Plum, Rope, Hall", "aria-label": "the three cards, typed"});
    const sShown = chipGroup("s-shown", "who showed a card");
    const sSeen = chipGroup("s-seen", "the card shown to me");
    const seenRow = el("div", {hidden: true}, el("label", {}, "The card, if I saw it"), sSeen.box);
    const sSubmit = el("button.primary", {type: "submit", id: "s-submit"}, "Record suggestion");
    const sCancel = el("button.secondary", {type: "button", hidden: true, onclick: () => resetSuggestion()}, "Cancel edit");
    const typedCards = () => sTyped.value.trim() ? split(sTyped.value) : null;
    const chosenCards = () => typedCards() || sCards.map((c) => c.value);
    function drawShown() {
      const by = seat(sBy.value || "");
      const n = players().length;
      const asked = by < 0 ? players() : Array.from({length: n - 1}, (_, k) => players()[(by + 1 + k) % n]);
      sShown.options([...playerChoices(asked), {value: "-", text: "nobody could show", cls: "nobody"}]);
      drawSeen();
    }
    function drawSeen() {
      const cards = chosenCards().filter(Boolean);
      seenRow.hidden = !(sShown.value && sShown.value !== "-" && cards.length === 3);
      const was = sSeen.value;
      sSeen.options([...cards.map((c) => ({value: c, text: c})), {value: "", text: "not seen", cls: "nobody"}]);
      sSeen.set(cards.includes(was) ? was : "");
      readySuggestion();
    }
    const readySuggestion = () => {
      sSubmit.disabled = !(sBy.value && chosenCards().every(Boolean) && chosenCards().length === 3 && sShown.value);
    };
    sBy.onChange(drawShown);
    sCards.forEach((c) => c.onChange(() => { sTyped.value = ""; drawSeen(); }));
    sShown.onChange(drawSeen);
    sTyped.addEventListener("input", () => {
      for (const t of split(sTyped.value)) CATS.forEach((cat, k) => {
        const hit = deck[cat].find((c) => same(c, t)); if (hit) sCards[k].set(hit); });
      drawSeen();
    });
    function nextBy() {
      const gone = out();
      const last = order().filter((e) => e.kind === "suggestion").pop();
      const from = last ? seat(data.suggestion[last.index].by) : -1;
      for (let k = 1; k <= players().length; k++) {
        const p = players()[(from + k + players().length) % players().length];
        if (!gone.has(p)) return p;
      }
      return null;
    }
    function resetSuggestion() {
      editing = null;
      sBy.options(playerChoices(players(), out())); sBy.set(nextBy());
      sCards.forEach((c, k) => c.options(cardChoices(CATS[k])).set(null)); sTyped.value = "";
      drawShown(); sShown.set(null); drawSeen();
      sSubmit.textContent = "Record suggestion"; sCancel.hidden = true;
      App.$$("li.editing", main).forEach((li) => li.classList.remove("editing"));
    }
    async function recordSuggestion(e) {
      e.preventDefault();
      const value = {by: sBy.value, cards: chosenCards()};
      if (sShown.value !== "-") value.shown_by = sShown.value;
      if (sShown.value !== "-" && sSeen.value) value.card = sSeen.value;
      const entries = order();
      const ops = editing !== null ? [{op: "replace", key: "suggestion", index: editing, value}]
        : [{op: "append", key: "suggestion", value},
           {op: "set", key: "log", value: [...entries.map(logText), `suggestion ${(data.suggestion || []).length + 1}`]}];
      if (await change(ops, App.state.solveOptions)) afterRecord();
    }
    const suggestionForm = el("form", {id: "suggestion-form", onsubmit: recordSuggestion},
      el("h2", {}, "A suggestion"),
      el("label", {}, "Who suggested"), sBy.box,
      sCards.flatMap((c, k) => [el("label", {}, ONE[CATS[k]]), c.box]), sTyped,
      el("label", {}, "Who showed a card"), sShown.box,
      el("p.muted", {}, "Those between the suggester and the one who showed passed."), seenRow,
      el("div.row.actions", {}, sSubmit, sCancel));

    /* accusation: chips, its exact chance shown, and a confirmation when it is not certain */
    let editingAccusation = null;
    const aBy = chipGroup("a-by", "who accused");
    const aCards = CATS.map((c) => chipGroup(`a-${ONE[c]}`, ONE[c]));
    const aResult = chipGroup("a-result", "the accusation was");
    const aChance = el("p.muted", {id: "a-chance"});
    const aConfirm = el("div.confirm", {id: "a-confirm", hidden: true});
    const aSubmit = el("button.primary", {type: "submit", id: "a-submit"}, "Record accusation");
    function chance(triple) {
      if (!solved || solved.status !== "ok" || !solved.envelope_probabilities) return null;
      const row = solved.envelope_probabilities.find((r) => same(r.suspect, triple[0]) && same(r.weapon, triple[1]) && same(r.room, triple[2]));
      return row ? String(row.p) : "0";
    }
    function readyAccusation() {
      const triple = aCards.map((c) => c.value);
      aSubmit.disabled = !(aBy.value && triple.every(Boolean) && aResult.value);
      const p = triple.every(Boolean) ? chance(triple) : null;
      aChance.textContent = p === null ? "" : p === "1" ? "Certain: this is the envelope."
        : `The envelope is ${triple.join(", ")} with probability ${p} (${pctOf(p)}).`;
      aConfirm.hidden = true;
    }
    [aBy, ...aCards, aResult].forEach((c) => c.onChange(readyAccusation));
    function resetAccusation() {
      editingAccusation = null;
      const last = order().filter((e) => e.kind === "suggestion").pop();
      aBy.options(playerChoices(players(), out())).set(last ? players()[seat(data.suggestion[last.index].by)] : null);
      aCards.forEach((c, k) => c.options(cardChoices(CATS[k])).set(null));
      aResult.options([{value: "wrong", text: "wrong"}, {value: "correct", text: "correct"}]).set(null);
      aSubmit.textContent = "Record accusation"; readyAccusation();
    }
    async function saveAccusation() {
      const value = {by: aBy.value, cards: aCards.map((c) => c.value), correct: aResult.value === "correct"};
      const ops = editingAccusation !== null ? [{op: "replace", key: "accusation", index: editingAccusation, value}]
        : [{op: "append", key: "accusation", value},
           {op: "set", key: "log", value: [...order().map(logText), `accusation ${(data.accusation || []).length + 1}`]}];
      if (await change(ops, App.state.solveOptions)) afterRecord();
    }
    function recordAccusation(e) {
      e.preventDefault();
      const p = chance(aCards.map((c) => c.value));
      const mine = me() === null || same(aBy.value, me());
      if (!mine || p === "1" || p === null || editingAccusation !== null) { saveAccusation(); return; }
      aConfirm.textContent = "";
      aConfirm.append(el("p", {}, `Not certain: the envelope is ${aCards.map((c) => c.value).join(", ")} with probability `,
        el("b", {}, `${p} (${pctOf(p)})`), ". Record the accusation anyway?"),
        el("div.row", {}, el("button.primary", {type: "button", id: "a-confirm-yes", onclick: () => { aConfirm.hidden = true; saveAccusation(); }},
          "Record it anyway"), el("button.secondary", {type: "button", onclick: () => { aConfirm.hidden = true; }}, "Not yet")));
      aConfirm.hidden = false;
    }
    const accusationForm = el("form", {id: "accusation-form", onsubmit: recordAccusation}, el("h2", {}, "An accusation"),
      el("label", {}, "Who accused"), aBy.box, aCards.flatMap((c, k) => [el("label", {}, ONE[CATS[k]]), c.box]),
      el("label", {}, "It was"), aResult.box, aChance, aConfirm, el("div.row.actions", {}, aSubmit));

    /* a card shown to me outside a suggestion: tap its cell in the sheet, then "showed me" */
    async function recordShown(player, card) {
      const hands = structuredClone(data.hands || {});
      const entries = order().map(logText);
      if (editingShown) {
        const old = hands[editingShown.player] || [];
        old.splice(old.indexOf(editingShown.card), 1);
        if (!old.length) delete hands[editingShown.player];
        const at = entries.indexOf(`shown ${editingShown.player}: ${editingShown.card}`);
        entries.splice(at < 0 ? entries.length : at, at < 0 ? 0 : 1, `shown ${player}: ${card}`);
      } else entries.push(`shown ${player}: ${card}`);
      hands[player] = [...(hands[player] || []), card];
      if (await change([{op: "set", key: "hands", value: hands}, {op: "set", key: "log", value: entries}],
                       App.state.solveOptions)) { editingShown = null; afterRecord(); }
    }

    /* log */
    const log = el("ol.list", {id: "log"});
    function describe(e) {
      if (e.kind === "suggestion") {
        const s = data.suggestion[e.index];
        return `${s.by} asked ${s.cards.join(", ")} → ` +
          (s.shown_by ? `${s.shown_by} showed${s.card ? ` ${s.card}` : " a card"}` : "nobody could show");
      }
      if (e.kind === "accusation") { const a = data.accusation[e.index];
        return `${a.by} accused ${a.cards.join(", ")}: ${a.correct ? "correct" : "wrong"}`; }
      return `${e.player} showed me ${e.card}`;
    }
    function drawLog() {
      log.textContent = "";
      order().forEach((e, k) => {
        log.append(el("li", {dataset: {kind: e.kind, index: e.index === undefined ? "" : e.index, position: k}},
          el("span.what", {}, `#${k + 1} ${describe(e)}`),
          el("button.small", {type: "button", "aria-label": `edit event ${k + 1}`, onclick: (ev) => edit(e, ev.currentTarget.parentNode)}, "Edit"),
          el("button.small", {type: "button", "aria-label": `delete event ${k + 1}`, onclick: () => remove(e, k)}, "Delete")));
      });
      if (!log.children.length) log.append(el("li.muted", {}, "No event yet."));
      log.scrollTop = log.scrollHeight;   /* the latest events in view */
    }
    async function remove(e, k) {
      const what = `#${k + 1} ${describe(e)}`;
      const entries = order().filter((x) => logText(x) !== logText(e)).map((x) => x.kind === e.kind && e.kind !== "shown" && x.index > e.index
        ? {...x, index: x.index - 1} : x).map(logText);
      let ops;
      if (e.kind === "shown") {
        const hands = structuredClone(data.hands); hands[e.player].splice(hands[e.player].indexOf(e.card), 1);
        if (!hands[e.player].length) delete hands[e.player];
        ops = [{op: "set", key: "hands", value: hands}];
      } else ops = [{op: "delete", key: e.kind, index: e.index}];
      ops.push({op: "set", key: "log", value: entries});
      if (await change(ops, App.state.solveOptions)) {
        learnedLine.prepend(el("div", {id: "deleted"}, `Deleted ${what}. `, el("button.small", {type: "button", id: "undo-delete",
          onclick: async () => { const r = await guarded(() => api("POST", `/api/games/${App.state.table.name}/undo`,
            {solve: {options: App.state.solveOptions}})); if (r) App.accept(r); }}, "Undo")));
        learnedLine.hidden = false;
      }
    }
    function edit(e, li) {
      App.$$("li.editing", main).forEach((x) => x.classList.remove("editing"));
      li.classList.add("editing");
      if (e.kind === "suggestion") {
        const s = data.suggestion[e.index];
        editing = e.index;
        sBy.set(players()[seat(s.by)] || s.by); drawShown();
        sCards.forEach((c) => c.set(null));
        for (const card of s.cards) CATS.forEach((cat, k) => { const hit = deck[cat].find((x) => same(x, card)); if (hit) sCards[k].set(hit); });
        sTyped.value = "";
        sShown.set(s.shown_by ? players()[seat(s.shown_by)] : "-"); drawSeen(); sSeen.set(s.card || "");
        sSubmit.textContent = `Save event #${Number(li.dataset.position) + 1}`; sCancel.hidden = false; readySuggestion();
        suggestionForm.scrollIntoView({block: "start"});
      } else if (e.kind === "accusation") {
        const a = data.accusation[e.index];
        editingAccusation = e.index;
        aBy.set(players()[seat(a.by)] || a.by); aCards.forEach((c) => c.set(null));
        for (const card of a.cards) CATS.forEach((cat, k) => { const hit = deck[cat].find((x) => same(x, card)); if (hit) aCards[k].set(hit); });
        aResult.set(a.correct ? "correct" : "wrong"); readyAccusation();
        aSubmit.textContent = `Save event #${Number(li.dataset.position) + 1}`;
        accusationForm.scrollIntoView({block: "start"});
      } else {
        editingShown = {player: e.player, card: e.card};
        cellBox.textContent = "";
        cellBox.append(el("p.hint", {}, `Tap the right cell (player and card) instead of ${e.player} / ${e.card}.`,
          el("button.small", {type: "button", onclick: () => { editingShown = null; cellBox.textContent = ""; drawLog(); }}, "Cancel")));
        sheetCard.scrollIntoView({block: "start"});
      }
    }

    /* notes: saved in the puzzle file (key `notes`), which every command ignores */
    const notes = el("textarea", {id: "notes", "aria-label": "notes", placeholder: "anything to remember"});
    const notesState = el("span.muted", {id: "notes-state"});
    notes.addEventListener("input", () => { notesState.textContent = "not saved yet"; });
    const notesCard = el("section.card", {}, el("h2", {}, "Notes"), notes, el("div.row.actions", {},
      el("button.secondary", {type: "button", id: "notes-save", onclick: async () => {
        const text = notes.value.trim();
        const op = text ? {op: "set", key: "notes", value: notes.value} : {op: "unset", key: "notes"};
        quiet = true;
        const saved = await change([op], App.state.solveOptions);
        quiet = false;
        if (saved) notesState.textContent = "saved in the game's file";
      }}, "Save notes"), notesState));

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
    const showBy = chipGroup("show-by", "who asked");
    const showCards = CATS.map((c) => chipGroup(`show-${ONE[c]}`, ONE[c]));
    const showCard = App.jobPanel("Which card should I show?",
      el("form", {id: "show-card-form", onsubmit: (e) => { e.preventDefault();
        if (!showBy.value || !showCards.every((c) => c.value)) { App.showError("tap who asked and the three cards"); return; }
        showCard.run({command: "suggest", options: {show: `${showBy.value}: ${showCards.map((c) => c.value).join(", ")}`}}); }},
        el("label", {}, "Who asked"), showBy.box, showCards.flatMap((c, k) => [el("label", {}, ONE[CATS[k]]), c.box]),
        el("div.row.actions", {}, el("button.secondary", {type: "submit"}, "Which one?"))),
      (r) => el("pre", {}, r.text || JSON.stringify(r)));
    const drawShowForm = () => {
      showBy.options(playerChoices(players().filter((p) => p !== me())));
      showCards.forEach((c, k) => c.options(cardChoices(CATS[k])));
    };

    /* the review of my moves so far (sleuth review), on demand */
    const review = Sleuth.reviewPanel ? Sleuth.reviewPanel("Review of my moves",
      "How informative each of my suggestions was against the best one then (bits about the envelope), and how much " +
      "each card I showed revealed against the least revealing choice: the same numbers as sleuth review --json on " +
      "the saved file (regret: bits short of the best, or revealed beyond the least).") : null;
    const claims = App.claimBox(info.games.find((x) => x.name === "clue").claims);
    const file = el("pre", {id: "toml"});
    const sheetCard = el("section.card", {id: "sheet-card"}, banner, el("h2", {}, "Sheet"), learnedLine, summary, sheetBox,
      el("p.legend", {}, "✓ holds · ✗ does not hold · n% exact probability (darker = likelier). ",
         "Tap a cell: why?, or record that its player showed me its card."), cellBox);
    main.append(el("h1", {}, data.title || g.name), el("div.grid2", {},
      el("div", {}, sheetCard),
      el("div", {}, el("section.card", {}, suggestionForm),
        el("section.card", {}, el("h2", {}, "Log, in play order"), log), el("section.card", {}, accusationForm),
        notesCard, others.box, advice.box, showCard.box, review ? review.box : null, claims,
        el("section.card", {}, el("details", {}, el("summary", {}, "The puzzle file"), file)))));

    function drawSheet(r, changed) {
      sheetBox.textContent = ""; banner.hidden = true;
      if (!r) return;
      if (r.status !== "ok") { sheetBox.append(App.renderReport(r)); summary.textContent = ""; return; }
      const marked = new Set((changed || []).map(([c, p]) => `${c}\u0000${p}`));
      const places = [...players(), "envelope"];
      const table = el("table.sheet", {"aria-label": "knowledge sheet"});
      table.append(el("thead", {}, el("tr", {}, el("th.cardname", {}, "card"),
        places.map((p) => el("th", {scope: "col", title: p}, p === "envelope" ? "Env." : p)))));
      const body = el("tbody");
      CATS.forEach((cat) => {
        body.append(el("tr", {}, el("th.cat", {colspan: places.length + 1}, cat)));
        for (const card of deck[cat]) {
          const row = r.sheet[card] || {};
          body.append(el(`tr${row.envelope === "yes" ? ".envelope-known" : ""}`, {}, el("th.cardname", {scope: "row", title: card}, card),
            places.map((p) => {
              const mark = row[p];
              const prob = r.probabilities ? r.probabilities[card][p] : null;
              const text = mark === "yes" ? "✓" : mark === "no" ? "✗" : prob ? pctOf(prob) : "·";
              const td = el(`td.m-${mark}${marked.has(`${card}\u0000${p}`) ? ".changed" : ""}`, {dataset: {card, place: p, mark}});
              if (mark === "maybe" && prob) td.style.background = `hsl(28, 90%, ${Math.round(97 - 45 * fmtP(prob))}%)`;
              td.append(el("button", {type: "button", title: `${p} / ${card}: ${mark}${prob ? ` (p = ${prob})` : ""}`,
                "aria-label": `${p} ${mark === "yes" ? "holds" : mark === "no" ? "does not hold" : "may hold"} ${card}` +
                  (prob && mark === "maybe" ? `, probability ${prob}` : ""), onclick: () => tapCell(card, p, mark, prob)}, text));
              return td;
            })));
        }
      });
      table.append(body);
      sheetBox.append(table);
      const env = r.envelope;
      summary.textContent = `Envelope: ${env.suspect || "?"}, ${env.weapon || "?"}, ${env.room || "?"}` +
        (r.deals !== undefined ? ` · ${count(r.deals, "consistent deal")}` : "");
      if (env.suspect && env.weapon && env.room) {
        banner.hidden = false;
        banner.textContent = `Accuse now: ${env.suspect}, ${env.weapon}, ${env.room} — certain.`;
      }
    }

    function tapCell(card, place, mark, prob) {
      cellBox.textContent = "";
      const held = (data.hands || {})[place] || [];
      if (place !== "envelope" && place !== me() && mark !== "no" && !held.includes(card)) {
        const label = editingShown ? `${place} showed me ${card} (instead of ${editingShown.player} / ${editingShown.card})`
                                   : `${place} showed me ${card}`;
        cellBox.append(el("div.row.actions", {}, el("button.primary", {type: "button", id: "record-shown",
          onclick: () => recordShown(place, card)}, label)));
      }
      explain(card, place, mark, prob);
    }

    async function explain(card, place, mark, prob) {
      const who = place === "envelope" ? "envelope" : q(place);
      const claim = `${who} ${mark === "no" ? "lacks" : "holds"} ${q(card)}`;
      const box = el("div", {}, "Checking…");
      cellBox.append(box);
      const r = await guarded(() => api("POST", `/api/games/${App.state.table.name}/verify`, {claims: [claim]}));
      box.textContent = "";
      if (!r) return;
      box.append(App.verdictView(r.claims[0]));
      if (mark === "maybe" && prob) box.append(el("p", {}, `Exact probability: ${prob} (${pctOf(prob)}).`));
      cellBox.scrollIntoView({block: "nearest"});
    }

    function renderOthers(r) {
      if (!r.others) return App.renderReport(r);
      const parts = ["envelope", "suspect", "weapon", "room"];
      return el("div", {}, el("p.muted", {}, "Exact probability, from my side, that each player already knows it:"),
        el("div.scroll.fit", {}, el("table.plain.others", {id: "others"},
          el("tr", {}, el("th", {}, "player"), parts.map((p) => el("th", {}, p))),
          Object.entries(r.others).map(([p, row]) => el("tr", {}, el("td", {}, p),
            parts.map((k) => el("td", {title: row[k]}, pctOf(row[k]))))))));
    }

    function afterRecord() {
      resetSuggestion(); resetAccusation(); cellBox.textContent = "";
      if (document.activeElement && document.activeElement.blur) document.activeElement.blur();
      sheetCard.scrollIntoView({block: "start"});
    }

    function redraw(ng, first) {
      data = ng.data; deck = deckOf(data, info);
      file.textContent = ng.toml;
      drawLog();
      if (document.activeElement !== notes && notesState.textContent !== "not saved yet") notes.value = data.notes || "";
      if (ng.solve && !quiet) {
        const before = solved;
        solved = ng.solve;
        let diff = null;
        if (!first && before && before.status === "ok" && solved.status === "ok") diff = learned(before, solved, deck, players());
        else if (!first && before && solved.status === "contradiction") diff = {text: "No deal fits these events: undo or edit the last one.", changed: []};
        else if (!first && before && solved.status !== "ok") diff = {text: `No exact answer (${solved.status}).`, changed: []};
        drawSheet(solved, diff && diff.changed);
        learnedLine.textContent = "";
        if (diff) learnedLine.append(el("span", {id: "learned-text"}, diff.text));
        learnedLine.hidden = !diff;
      }
      if (!first) {
        others.stale(); advice.stale(); if (review) review.stale(); if (autoOthers.checked) runOthers();
        if (editing === null) resetSuggestion();
        if (editingAccusation === null) resetAccusation();
        drawShowForm();
      }
    }
    sheetBox.textContent = "Solving…";
    redraw(g, true); resetSuggestion(); resetAccusation(); drawShowForm();
    guarded(() => api("POST", `/api/games/${g.name}/solve`, {options: App.state.solveOptions})).then((r) => {
      if (r && solved === null) { solved = r.solve; drawSheet(solved); readyAccusation(); } });  /* unless an event came first */
    return (ng) => redraw(ng, false);
  }

  return {newGameForm, mount, count, pctOf, learned, playOrder};
})();
Sleuth.register("clue", Clue);

/* The toy plug-in's page in the companion: which card may lie on each position, the facts, a fact to add.
   A page is a script its game's package ships and its declaration lists (Companion(page=...)); it draws with
   the shell's helpers and registers itself for its game's names. */
"use strict";
(() => {
  const {el, api, guarded, change} = Sleuth;

  function mount(main, g) {
    const cards = Sleuth.pageInfo(g.game).cards;  // from the declaration's info routine
    const grid = el("div", {id: "toy-grid"});
    const facts = el("ol.list", {id: "toy-facts"});
    const position = el("select", {id: "toy-position"}, [1, 2, 3].map((p) => el("option", {value: p}, `position ${p}`)));
    const card = el("select", {id: "toy-card"}, cards.map((c) => el("option", {value: c}, c)));
    main.textContent = "";
    main.append(el("h1", {}, g.data.title || g.name), el("div.grid2", {},
      el("div", {}, el("section.card", {}, el("h2", {}, "Where each card may lie"), grid)),
      el("div", {}, el("section.card", {}, el("h2", {}, "Facts"), facts,
        el("form", {onsubmit: async (e) => { e.preventDefault();
          await change([{op: "append", key: "fact", value: {position: Number(position.value), not: card.value}}]); }},
          el("div.row", {}, position, el("span", {}, "does not hold"), card),
          el("p", {}, el("button.primary", {type: "submit", id: "toy-add"}, "Add fact")))),
        Sleuth.claimBox(Sleuth.gameSpec(g.game).claims))));

    function draw(answer) {
      grid.textContent = "";
      if (!answer || answer.status !== "ok") { grid.append(Sleuth.renderReport(answer || {})); return; }
      const may = (p, c) => answer.valids.some((row) => row[p] === c);
      grid.append(el("table.plain", {id: "toy-table"}, el("tr", {}, el("th", {}, ""), cards.map((c) => el("th", {}, c))),
        [0, 1, 2].map((p) => el("tr", {}, el("th", {}, `position ${p + 1}`), cards.map((c) => el("td", {dataset: {p: p + 1, card: c}},
          answer.valids.every((row) => row[p] === c) ? "✓" : may(p, c) ? "·" : "✗"))))),
        el("p", {id: "toy-count"}, `${Sleuth.count(answer.count, "arrangement")} left`));
    }
    function redraw(ng) {
      g = ng;
      facts.textContent = "";
      (ng.data.fact || []).forEach((f, i) => facts.append(el("li", {}, el("span.what", {}, `position ${f.position} does not hold ${f.not}`),
        el("button.small", {type: "button", onclick: () => change([{op: "delete", key: "fact", index: i}])}, "Delete"))));
      if (ng.solve) draw(ng.solve);
    }
    redraw(g);
    guarded(() => api("POST", `/api/games/${g.name}/solve`, {options: {}})).then((r) => { if (r) draw(r.solve); });
    return redraw;
  }

  function newGameForm() {
    return el("section.card", {id: "new-toy"}, el("h2", {}, "New three-cards game"),
      el("button.primary", {type: "button", id: "toy-create", onclick: async () =>
        Sleuth.created(await guarded(() => api("POST", "/api/games", {data: {game: "three-cards"}})))}, "Start"));
  }

  Sleuth.register(["three-cards"], {mount, newGameForm});
})();

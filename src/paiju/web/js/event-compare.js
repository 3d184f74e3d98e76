// The side-by-side replay of a duplicate event's deal (#/event/ID/deal/D/A/B): the same
// cards at two tables, from one seat's view, step by step - each table's move of that
// step beside the other's, the seat's hand at each - with a jump to the seat's next
// decision, marked where the two tables decided differently. The server aligns the two
// replays (GET /api/events/ID/deals/D/side-by-side).

import { get } from "./api.js";
import { h, signed, toast } from "./dom.js";
import { t } from "./i18n.js";
import { findVariant } from "./catalog.js";
import { actionLine, itemsEl } from "../tables/lines.js";
import { entrantName } from "./events.js";
import "./event-strings.js";

export async function showSideBySide(main, [id, deal, a, b], who) {
  let ev;
  try {
    ev = await get(`/api/events/${id}`);
  } catch (exc) {
    toast(t("err.generic", { m: exc.message }), "error");
    return null;
  }
  const variant = await findVariant(ev.code).catch(() => null);
  const family = variant ? variant.family : "";
  const played = (ev.boards[Number(deal)] || { tables: [] }).tables;
  const tableOf = (game) => played.find((x) => String(x.game) === String(game)) || null;
  const entrants = new Map(ev.entrants.map((x) => [x.id, x]));
  const sideOf = (seat) => ev.sides.findIndex((side) => side.includes(seat));
  // who sat in a seat at a table: its side's entrant
  const seatName = (table) => (seat) => {
    const entrant = table ? entrants.get(table.lineup[sideOf(seat)]) : null;
    return entrant ? entrantName(entrant) : t("seat.n", { n: seat + 1 });
  };
  const box = h("div", { class: "ev-sbs", id: "side-by-side" });
  main.appendChild(
    h(
      "div",
      { class: "event" },
      h("a", { href: `#/event/${id}`, class: "back" }, `← ${t("ev.back_event")}`),
      h("h1", {}, t("sbs.title", { event: ev.name, deal: Number(deal) + 1 })),
      box,
    ),
  );
  let seat = 0;
  let step = 0;
  let pair = null;

  async function load() {
    try {
      pair = await get(`/api/events/${id}/deals/${deal}/side-by-side?a=${a}&b=${b}&seat=${seat}`);
    } catch (exc) {
      toast(t("err.generic", { m: exc.message }), "error");
      pair = null;
    }
    step = 0;
    draw();
  }

  function column(key, table, row) {
    const s = row[key];
    const name = seatName(table);
    const number = table ? table.table + 1 : "?";
    const settlement = pair.settlements[key === "a" ? 0 : 1];
    const last = step === pair.rows.length - 1;
    return h(
      "section",
      { class: "panel sbs-col", dataset: { side: key, game: key === "a" ? a : b } },
      h("h2", {}, t("sbs.table", { n: number })),
      h("p", { class: "muted small" }, ev.sides.map((side) => name(side[0])).join(" · ")),
      s === null
        ? h("p", { class: "muted sbs-move" }, t("sbs.over"))
        : h(
            "p",
            { class: `sbs-move${s.seat === seat ? " mine" : ""}`, dataset: { seat: s.seat === null ? "" : s.seat } },
            s.action ? actionLine({ family, action: s.action, seat: s.seat, who: name }) : t("sbs.start"),
          ),
      s && typeof s.view.hand === "string" && s.view.hand.trim()
        ? h("div", { class: "sbs-hand" }, h("small", {}, `${t("sbs.hand")} · ${name(seat)}`), itemsEl(family, s.view.hand, { sort: true }))
        : null,
      last && settlement ? h("p", { class: "sbs-result" }, `${t("sbs.result")}: `, settlement.map((x, i) => `${name(i)} ${signed(x)}`).join(" · ")) : null,
    );
  }

  function draw() {
    box.replaceChildren();
    if (!pair) return;
    const n = pair.rows.length - 1;
    const go = (i) => {
      step = Math.max(0, Math.min(n, i));
      draw();
    };
    // the decision pair at this step, if the seat decides here at either table
    const here = pair.decisions.findIndex((d) => d.a === step || d.b === step);
    const nextDecision = () => {
      const later = pair.decisions.find((d) => Math.min(d.a ?? Infinity, d.b ?? Infinity) > step);
      go(later ? Math.min(later.a ?? Infinity, later.b ?? Infinity) : n);
    };
    const seats = h(
      "div",
      { class: "buttons sbs-seats", id: "sbs-seats" },
      h("span", { class: "muted" }, t("sbs.seat")),
      Array.from({ length: ev.seats }, (_, i) =>
        h("button", { class: i === seat ? "primary" : "", dataset: { seat: i }, onclick: () => ((seat = i), load()) }, String(i + 1)),
      ),
    );
    const controls = h(
      "div",
      { class: "buttons sbs-controls" },
      h("button", { id: "sbs-first", onclick: () => go(0) }, t("sbs.first")),
      h("button", { id: "sbs-prev", onclick: () => go(step - 1) }, t("sbs.prev")),
      h("span", { class: "chip", id: "sbs-step" }, t("sbs.step", { i: step, n })),
      h("button", { id: "sbs-next", class: "primary", onclick: () => go(step + 1) }, t("sbs.next")),
      h("button", { id: "sbs-decision", onclick: nextDecision }, t("sbs.next_decision")),
      h("button", { id: "sbs-last", onclick: () => go(n) }, t("sbs.last")),
    );
    const row = pair.rows[step];
    const note =
      here >= 0
        ? h(
            "p",
            { class: `sbs-note ${pair.decisions[here].same ? "same" : "differ"}`, id: "sbs-note" },
            `${t("sbs.decision", { k: here + 1 })}: ${pair.decisions[here].same ? t("sbs.same") : t("sbs.differ")}`,
          )
        : null;
    box.append(
      seats,
      controls,
      note || h("span"),
      h("div", { class: "sbs-cols", dataset: { step } }, column("a", tableOf(a), row), column("b", tableOf(b), row)),
    );
  }

  await load();
  return null;
}

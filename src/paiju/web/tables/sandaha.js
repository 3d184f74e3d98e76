// 三打哈 (three against one, two decks): bidding (叫分), the declarer takes and buries the
// kitty (埋底) and names trumps (叫主), then tricks: tap cards to select, then play.
// Two decks hold identical cards, so a selection is by position in the hand, not by text.

import { SUIT_NAMES, cardEl, cardsEl, splitCards } from "../js/cards.js";
import { h } from "../js/dom.js";
import { phaseName, t } from "../js/i18n.js";

function w(key, vars = {}) {
  return t(`sdh.${key}`, vars);
}

export function createOptions() {
  return [];
}

function trumpLabel(suit) {
  return h("span", { class: `trump-label${"hd".includes(suit) ? " red" : ""}` }, `${w("trump")} ${SUIT_NAMES[suit] || suit}`);
}

function actionButton(ctx, action) {
  let label;
  if (action.type === "bid") label = w("bid", { n: action.points });
  else if (action.type === "pass") label = w("pass");
  else if (action.type === "name_trump") {
    label = action.trump === "none" ? w("none") : trumpLabel(action.trump);
  } else label = action.type;
  return h("button", { class: "action", dataset: { action: JSON.stringify(action) }, onclick: () => ctx.act(action) }, label);
}

function handPicker(ctx, cards) {
  const local = ctx.local;
  if (!local.picked) local.picked = [];
  return h(
    "div",
    { class: "cards hand sandaha-hand" },
    cards.map((card, i) => {
      const el = cardEl(card);
      el.classList.add("pick");
      el.dataset.index = i;
      if (local.picked.includes(i)) el.classList.add("selected");
      el.addEventListener("click", () => {
        const at = local.picked.indexOf(i);
        if (at >= 0) local.picked.splice(at, 1);
        else local.picked.push(i);
        ctx.rerender();
      });
      return el;
    }),
  );
}

function trickEl(ctx, plays) {
  return h(
    "div",
    { class: "trick" },
    (plays || []).map((p) => h("div", { class: "trick-play", dataset: { seat: p.seat } }, h("small", {}, ctx.seatName(p.seat)), cardsEl(p.cards, { small: true }))),
  );
}

export function render(ctx) {
  const view = ctx.view;
  const myTurn = ctx.seat !== null && (view.to_act || []).includes(ctx.seat);
  const cards = splitCards(view.hand);
  const picked = (ctx.local.picked || []).filter((i) => i < cards.length);
  const chosen = picked.map((i) => cards[i]);
  let controls = null;
  if (myTurn && ctx.legal && ctx.legal.length) {
    controls = h("div", { class: "legal-actions" }, ctx.legal.map((a) => actionButton(ctx, a)));
  } else if (myTurn && (view.phase === "burying" || view.phase === "playing")) {
    const bury = view.phase === "burying";
    // The kitty is in the declarer's hand now: bury down to the others' hand size.
    const others = (view.hand_sizes || []).filter((_, s) => s !== ctx.seat);
    const toBury = others.length ? cards.length - Math.min(...others) : view.kitty_size;
    const ready = bury ? chosen.length === toBury : chosen.length > 0;
    controls = h(
      "div",
      { class: "buttons" },
      h("span", { class: "muted" }, w("selected", { n: chosen.length })),
      h("button", { class: "ghost", onclick: () => { ctx.local.picked = []; ctx.rerender(); } }, w("clear")),
      h(
        "button",
        {
          class: "primary",
          id: bury ? "bury-submit" : "play-submit",
          disabled: !ready,
          onclick: () => {
            ctx.local.picked = [];
            ctx.act({ type: bury ? "bury" : "play", cards: chosen.join(" ") });
          },
        },
        bury ? w("bury", { n: toBury }) : w("play"),
      ),
    );
  }
  const mine = ctx.seat === null ? null : h("div", { class: "sandaha-mine" }, controls, handPicker(ctx, cards));
  const center = h(
    "div",
    { class: "sandaha-center" },
    h(
      "div",
      { class: "chips" },
      h("span", { class: "chip" }, phaseName(view.phase)),
      view.bid ? h("span", { class: "chip" }, w("contract", { n: view.bid })) : null,
      view.trump ? h("span", { class: "chip" }, view.trump === "none" ? w("none") : trumpLabel(view.trump)) : null,
      h("span", { class: "chip" }, w("points", { n: view.defenders_points })),
    ),
    view.trick && view.trick.length ? trickEl(ctx, view.trick) : null,
    (!view.trick || !view.trick.length) && view.last_trick && view.last_trick.length ? h("div", { class: "muted-trick" }, h("small", {}, w("last")), trickEl(ctx, view.last_trick)) : null,
    view.kitty && ctx.seat === view.declarer ? h("div", {}, h("small", {}, w("kitty")), cardsEl(view.kitty, { small: true })) : null,
  );
  return { center, mine };
}

export function seatExtra(ctx, seat) {
  const view = ctx.view;
  const bid = (view.bids || []).find((b) => b.seat === seat);
  return h(
    "div",
    { class: "seat-extra" },
    view.declarer === seat ? h("span", { class: "badge banker" }, w("declarer")) : null,
    h("small", {}, ` ${w("cards", { n: (view.hand_sizes || [])[seat] ?? "?" })}`),
    bid && view.phase === "bidding" ? h("div", {}, bid.bid === null ? w("pass") : w("bid", { n: bid.bid })) : null,
  );
}

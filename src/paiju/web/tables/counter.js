// 记牌器 (the card counter) and 上一轮 (the last trick) of the climbing games and 三打哈.
//
// The counter reads only the seat's own view: the server's public `unplayed` counts (every
// card of the set not played yet, the same for every viewer and for a spectator) less the
// seat's own hand (and, for 三打哈's declarer, the buried kitty it saw). What is left is
// what the others still hold, by rank: 大王 小王, then the game's order from the top. A rank
// of which enough are still out to make one of the game's bombs is marked 炸.

import { cardsEl, splitCards } from "../js/cards.js";
import { h } from "../js/dom.js";
import { t } from "../js/i18n.js";
import "../js/helper-strings.js";

function rankKey(card) {
  return card === "BJ" || card === "RJ" ? card : card[0];
}

const NUMBER = { RJ: 16, BJ: 15, A: 14, K: 13, Q: 12, J: 11, T: 10 };
const LABEL = Object.fromEntries(Object.entries(NUMBER).map(([k, v]) => [String(v), k]));

/** A rank's key in the view's `unplayed` counts: its number (A 14, 小王 15, 大王 16). */
function rankNumber(label) {
  return String(NUMBER[label] || Number(label));
}

function rankLabel(rank) {
  if (rank === "RJ") return t("ct.rj");
  if (rank === "BJ") return t("ct.bj");
  return rank === "T" ? "10" : rank;
}

/**
 * The cards still out by rank, from this viewer's view: `[{rank, left, bomb}]` in `order`
 * (big first). `known` are the card texts the viewer holds or has seen apart from plays.
 */
export function cardsOut(view, order, known = []) {
  const unplayed = (view && view.unplayed) || null;
  if (!unplayed) return null;
  const mine = {};
  for (const c of known) mine[rankKey(c)] = (mine[rankKey(c)] || 0) + 1;
  const ranks = [...order].filter((r) => rankNumber(r) in unplayed);
  for (const n of Object.keys(unplayed)) {
    const label = LABEL[n] || n;
    if (!ranks.includes(label)) ranks.push(label);
  }
  return ranks.map((rank) => ({ rank, left: Math.max(0, unplayed[rankNumber(rank)] - (mine[rank] || 0)) }));
}

/**
 * The counter strip: one cell per rank (its name over the count), ranks at 0 greyed out;
 * `bombAt` (cards of a rank that make a bomb, 0: none) and `jokerBomb` (two jokers or more
 * are a bomb) mark the ranks where the others may still hold one.
 */
export function counterStrip(ctx, { order, known = [], bombAt = 0, jokerBomb = false, extra = null, panel = null }) {
  const out = cardsOut(ctx.view, order, known);
  if (!out) return null;
  const jokersLeft = out.filter((x) => x.rank === "RJ" || x.rank === "BJ").reduce((a, x) => a + x.left, 0);
  const cells = out.map(({ rank, left }) => {
    const joker = rank === "RJ" || rank === "BJ";
    const bomb = joker ? jokerBomb && jokersLeft >= 2 && left > 0 : bombAt > 0 && left >= bombAt;
    return h(
      "div",
      { class: `ct-cell${left ? "" : " gone"}${bomb ? " bomb" : ""}${joker ? " joker" : ""}`, dataset: { rank, left }, title: t("ct.cell", { r: rankLabel(rank), n: left }) },
      h("span", { class: "ct-rank" }, rankLabel(rank)),
      h("b", { class: "ct-left" }, String(left)),
    );
  });
  const total = out.reduce((a, x) => a + x.left, 0);
  return h(
    "section",
    { class: "ct-box", id: "card-counter", dataset: { total } },
    h(
      "div",
      { class: "ct-head" },
      h("strong", {}, t("ct.title")),
      h("small", { class: "muted" }, t("ct.total", { n: total })),
      extra,
    ),
    h("div", { class: "ct-strip", id: "ct-strip", style: `--ct-n: ${cells.length}` }, cells),
    panel,
  );
}

/**
 * 上一轮: a button that opens (and closes) the last finished trick, each seat's play or
 * pass in playing order; null while there is none.
 */
export function lastTrickButton(ctx, trick, { label } = {}) {
  if (!trick || !trick.length) return null;
  const local = ctx.local;
  return h(
    "button",
    {
      type: "button",
      class: `ghost small-button ct-last-button${local.lastOpen ? " on" : ""}`,
      id: "last-trick-open",
      "aria-expanded": local.lastOpen ? "true" : "false",
      onclick: () => {
        local.lastOpen = !local.lastOpen;
        (local.ctx || ctx).rerender();
      },
    },
    label || (local.lastOpen ? t("ct.last_hide") : t("ct.last")),
  );
}

/** The last trick's plays, one line per seat (who, then the cards or 不出). */
export function lastTrickPanel(ctx, trick, seatLabel, { winner = null } = {}) {
  return h(
    "div",
    { class: "ct-last", id: "last-trick" },
    trick.map((x) =>
      h(
        "div",
        { class: `ct-last-line${winner === x.seat ? " won" : ""}`, dataset: { seat: x.seat, pass: x.pass ? "1" : "", cards: x.cards || "" } },
        h("span", { class: "ct-who" }, seatLabel(x.seat)),
        x.pass || !x.cards ? h("span", { class: "muted" }, t("ct.passed")) : cardsEl(x.cards, { small: true }),
      ),
    ),
  );
}

/** The card texts of a view's own hand (and what else a seat knows apart from plays). */
export function ownCards(view, ...more) {
  return [...splitCards(view && view.hand), ...more.flatMap((x) => splitCards(x))];
}

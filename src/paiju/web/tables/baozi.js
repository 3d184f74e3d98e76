// 宝子: every player (闲家) bets against the banker (庄家); the two cards are dealt, shown
// (亮牌) and compared; each player wins or loses its bet (和 is a push).

import { backEl, backsEl, cardEl, cardsEl, splitCards } from "../js/cards.js";
import { h, signed } from "../js/dom.js";
import { lang, phaseName, t } from "../js/i18n.js";
import { whyBox } from "./why.js";

export function createOptions(variant) {
  const out = [
    { key: "min_bet", label: t("opt.min_bet"), default: 1 },
    { key: "max_bet", label: t("opt.max_bet"), default: 10 },
    {
      key: "banker_rotation",
      label: t("opt.banker_rotation"),
      choices: [
        { value: "rotate", label: t("opt.rotate") },
        { value: "stay", label: t("opt.stay") },
      ],
      default: "rotate",
    },
  ];
  if (variant.family === "baozi") out.push({ key: "pair_payout", label: t("opt.pair_payout"), default: 1 });
  return out;
}

/** A reading of the engine (``7点``, ``对K``, ``王+A``, ``K+Q``, ``散牌``; 佳佳宝's
 * ``前 7点 后 对6``) in the player's language: the engine names readings in Chinese. */
export function readingText(reading) {
  const text = String(reading || "");
  if (lang() !== "en") return text;
  const groups = text.match(/^前 (.+) 后 (.+)$/);
  if (groups) return t("bz.read.groups", { a: readingText(groups[1]), b: readingText(groups[2]) });
  const one = (x) => (x === "王" ? t("bz.joker") : x);
  const points = text.match(/^(\d+)点$/);
  if (points) return t("bz.read.points", { n: points[1] });
  if (text === "散牌") return t("bz.read.high");
  const pair = text.match(/^对(.+)$/);
  if (pair) return t("bz.read.pair", { r: one(pair[1]) });
  const combo = text.match(/^(.+)\+(.+)$/);
  if (combo) return `${one(combo[1])}+${one(combo[2])}`;
  return text;
}

/** What a verdict against the banker moved: the amount without its sign (the verdict
 * says who won it). */
function amountOf(r) {
  return r.winner === "push" ? "0" : String(Math.abs(r.amount));
}

export function seatOf(view, seat) {
  return (view.seats || []).find((s) => s.seat === seat) || null;
}

function cardsEach(view) {
  const any = (view.seats || []).find((s) => s.cards);
  return any ? any.cards.trim().split(/\s+/).length : view.code && view.code.startsWith("21") ? 4 : 2;
}

/** A seat's cards on the felt: faces when shown, backs once dealt, nothing before. */
export function seatCards(ctx, seat, { small = true } = {}) {
  const view = ctx.view;
  const s = seatOf(view, seat);
  if (!s) return null;
  if (s.groups) {
    // 佳佳宝: the two groups side by side, front (前) then back (后)
    const [front, back] = s.groups.split("/").map((x) => x.trim());
    const row = h("div", { class: "groups" }, cardsEl(front, { small }), cardsEl(back, { small }));
    if (ctx.events.some((e) => e.type === "hand_shown")) row.classList.add("deal-in");
    return row;
  }
  if (s.cards) {
    const row = cardsEl(s.cards, { small });
    if (ctx.events.some((e) => e.type === "dealt" || e.type === "hand_shown")) row.classList.add("deal-in");
    return row;
  }
  if (view.phase !== "betting") return backsEl(cardsEach(view), { small });
  return null;
}

export function resultOf(view, seat) {
  return (view.results || []).find((r) => r.seat === seat) || null;
}

export function betPanel(ctx) {
  const view = ctx.view;
  const me = seatOf(view, ctx.seat);
  if (!me) return null;
  if (me.role === "banker") return h("p", { class: "note", id: "banker-note" }, t("bz.banker_wait"));
  if (me.bet !== null && me.bet !== undefined) return h("p", { class: "ok-note" }, `${t("bz.your_bet", { n: me.bet })} · ${t("bz.wait_bets")}`);
  const amounts = (ctx.legal || []).filter((a) => a.type === "bet").map((a) => a.amount);
  const [lo, hi] = [view.min_bet, view.max_bet];
  const choices = amounts.length ? amounts : [];
  const quick = choices.length <= 12 ? choices : [...new Set([lo, Math.round((lo + hi) / 4), Math.round((lo + hi) / 2), hi])];
  const input = h("input", { type: "number", id: "bet-amount", min: lo, max: hi, value: lo });
  return h(
    "div",
    { class: "bet-panel", id: "bet-panel" },
    h("p", { class: "muted" }, t("bz.limits", { a: lo, b: hi })),
    h(
      "div",
      { class: "chips" },
      quick.map((n) => h("button", { class: "bet-chip", dataset: { bet: n }, onclick: () => ctx.act({ type: "bet", amount: n }) }, String(n))),
    ),
    h(
      "div",
      { class: "bet-custom" },
      input,
      h("button", { class: "primary", id: "bet-submit", onclick: () => ctx.act({ type: "bet", amount: Number(input.value) }) }, t("bz.bet")),
    ),
  );
}

export function resultLine(ctx, seat) {
  const r = resultOf(ctx.view, seat);
  if (!r) return null;
  return h("span", { class: `result ${r.amount > 0 ? "win" : r.amount < 0 ? "loss" : "push"}` }, `${t(`bz.result.${r.winner}`)} ${amountOf(r)}`);
}

/** The variant's tie rule, as the lobby names it (同点为和, 同点庄家大, …). */
export function tieRule(variant) {
  const p = (variant && variant.params) || {};
  const ties = [...(p.ladder_ties || []), ...(p.point_ties || [])];
  const top = ties.includes("top_card");
  const banker = ties.includes("banker");
  return t(top && banker ? "bz.ties_top_banker" : top ? "bz.ties_top" : banker ? "bz.ties_banker" : "bz.ties_push");
}

/** Why each player won or lost against the banker (the readings the engine compared, the
 * variant's tie rule when they are the same) and the banker's total; 佳佳宝 says each
 * group's verdict. From the view's ``seats``, ``results`` and ``settlement``. */
export function whyPanel(ctx) {
  const view = ctx.view;
  if (view.phase !== "over" || !view.results || !view.settlement || ctx.local.squeezing) return null;
  const banker = seatOf(view, view.banker) || {};
  const total = view.settlement[view.banker];
  const count = (w) => view.results.filter((r) => r.winner === w).length;
  const head = t("why.bz.head_banker", { who: ctx.seatName(view.banker), n: signed(total), won: count("banker"), lost: count("player"), push: count("push") });
  const lines = view.results.map((r) => {
    const s = seatOf(view, r.seat) || {};
    const vars = { who: ctx.seatName(r.seat), mine: readingText(s.reading), banker: readingText(banker.reading), verdict: t(`why.bz.${r.winner}`), n: amountOf(r) };
    if ((r.groups || []).length === 2) {
      const [g1, g2] = r.groups.map((g) => t(`why.bz.group_${g}`));
      return t("why.bz.groups", { ...vars, g1, g2 });
    }
    const line = t("why.bz.vs", vars);
    return s.reading && s.reading === banker.reading && r.winner !== "player" ? `${line} (${t("why.bz.tie", { rule: tieRule(ctx.variant) })})` : line;
  });
  if (view.results.some((r) => (r.groups || []).length === 2)) lines.push(t("why.bz.jjb_rule"));
  lines.push(t("why.bz.banker_total", { who: ctx.seatName(view.banker), n: signed(total) }));
  return whyBox(head, lines);
}

export function render(ctx) {
  const view = ctx.view;
  let mine = null;
  if (ctx.seat !== null) {
    const me = seatOf(view, ctx.seat);
    mine = h(
      "div",
      { class: "baozi-mine" },
      me && me.role === "banker" ? h("span", { class: "badge banker" }, t("bz.you_banker")) : null,
      view.phase === "betting" ? betPanel(ctx) : null,
      me && me.cards ? squeeze(ctx, me) : null,
      view.phase === "over" && me && me.role !== "banker" && !ctx.local.squeezing ? h("p", {}, resultLine(ctx, ctx.seat)) : null,
      whyPanel(ctx),
    );
  } else mine = whyPanel(ctx);
  const center = h(
    "div",
    { class: "baozi-center" },
    h("div", { class: "chip" }, phaseName(view.phase)),
    // 搓牌: nothing of the result while one's own cards still wait face down
    view.phase === "over" && view.settlement && !ctx.local.squeezing ? h("div", { class: "pot", id: "bz-pot" }, `${t("seat.banker")} ${signed(view.settlement[view.banker])}`) : null,
  );
  return { center, mine };
}

/**
 * 搓牌: one's own cards come face down and are turned one at a time (tap a card, or 全开
 * for both), the way players squeeze them at a real table; the reading, one's own seat
 * on the felt, every seat's result, the banker's total and the settlement wait until both
 * are open (a banker squeezing learns nothing of the others' results first).
 */
function squeeze(ctx, me) {
  const local = ctx.local;
  const cards = splitCards(me.cards);
  if (local.open === undefined) local.open = 0;
  const open = local.open;
  local.squeezing = open < cards.length;
  const row = h(
    "div",
    { class: "cards squeeze", id: "my-cards-row" },
    cards.map((c, i) => {
      if (i < open) return cardEl(c);
      const back = backEl();
      back.classList.add("pick", "squeeze-back");
      back.dataset.index = i;
      back.title = t("bz.squeeze_hint");
      back.addEventListener("click", () => {
        local.open = Math.max(local.open, i + 1);
        ctx.rerender();
      });
      return back;
    }),
  );
  return h(
    "div",
    { class: "my-cards" },
    row,
    open < cards.length
      ? h(
          "div",
          { class: "buttons" },
          h("span", { class: "muted small" }, t("bz.squeeze_hint")),
          h("button", { class: "ghost small-button", id: "open-all", onclick: () => { local.open = cards.length; ctx.rerender(); } }, t("bz.open_all")),
        )
      : me.reading
        ? h("p", { class: "reading" }, readingText(me.reading))
        : null,
  );
}

export function seatExtra(ctx, seat) {
  const view = ctx.view;
  const s = seatOf(view, seat);
  if (!s) return null;
  const hidden = seat === ctx.seat && ctx.local.squeezing; // 搓牌: not yet open
  const waiting = !!ctx.local.squeezing; // one's own cards face down: no seat's result yet
  return h(
    "div",
    { class: "seat-extra" },
    s.role !== "banker" ? h("span", { class: `bet${s.bet === null ? " none" : ""}` }, s.bet === null ? "…" : `${t("bz.bet")} ${s.bet}`) : null,
    seat === ctx.seat && (ctx.view.phase !== "over" || ctx.local.squeezing) ? null : seatCards(ctx, seat),
    s.reading && !hidden ? h("small", { class: "reading" }, readingText(s.reading)) : null,
    view.phase === "over" && s.role !== "banker" && !waiting ? resultLine(ctx, seat) : null,
  );
}

/** What tells one 宝子 / 佳佳宝 code from the next, for the lobby: the deck, the points of
 * J Q K (and jokers), the best pair, how ties go, the pair and grouping rules. */
export function variantNote(variant) {
  const p = variant.params || {};
  const parts = [t(`bz.deck.${variant.deck}`) === `bz.deck.${variant.deck}` ? `${variant.deck}` : t(`bz.deck.${variant.deck}`)];
  const pts = Object.entries(p.points || {});
  if (pts.length) parts.push(pts.map(([card, n]) => `${card === "RJ" || card === "BJ" ? t("bz.joker") : card}=${n}`).join(" "));
  else if (variant.deck !== "40") parts.push(t("bz.faces_zero"));
  if (p.ten_high) parts.push(t("bz.ten_high"));
  const best = String(p.ladder || "").split(">")[0];
  if (best) parts.push(t("bz.best_pair", { p: best.replace(/T/g, "10") }));
  if (p.same_colour_pairs) parts.push(t("bz.same_colour"));
  const ties = [...(p.ladder_ties || []), ...(p.point_ties || [])];
  const top = ties.includes("top_card");
  const banker = ties.includes("banker");
  parts.push(t(top && banker ? "bz.ties_top_banker" : top ? "bz.ties_top" : banker ? "bz.ties_banker" : "bz.ties_push"));
  if (p.grouping === "fixed") parts.push(t("bz.fixed_grouping"));
  return parts.join(" · ");
}

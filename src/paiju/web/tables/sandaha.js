// 三打哈 (three against one, two decks): bidding (叫分), the declarer takes and buries the
// kitty (埋底) and names trumps (叫主), then 21 tricks: tap cards to select, then play.
// Two decks hold identical cards, so a selection is by position in the hand, not by text.
//
// The hand is grouped: 常主 (王, 2, 7) then ♠ ♥ ♣ ♦ before trumps are named, then 主 (every
// trump together) and the side suits (按花色); or, by the sort toggle, 按大小: every card by
// the game's own strength (the engine's Order.strength: 大王 小王 主7 副7 主2 副2 主A … then
// the side cards, A high), trumps above the side cards. While playing, only cards that can belong to a legal
// play are selectable (a lead stays in one suit; a follow keeps to the led suit as far as
// the hand holds it, and never takes more cards than the lead); the pair and tractor
// duties are the server's: its refusal (the rule it breaks) is shown above the hand.

import { get } from "../js/api.js";
import { SUIT_NAMES, cardEl, cardsEl, splitCards } from "../js/cards.js";
import { counterStrip, ownCards } from "./counter.js";
import { h, signed } from "../js/dom.js";
import { seatPlace as placeOnFelt } from "../js/felt.js";
import { phaseName, t } from "../js/i18n.js";
import { whyBox } from "./why.js";

function w(key, vars = {}) {
  return t(`sdh.${key}`, vars);
}

const STYLE = `
.sdh-groups { display: flex; flex-wrap: wrap; gap: 6px 10px; align-items: flex-end; }
.sdh-group { display: flex; flex-direction: column; align-items: flex-start; gap: 2px; }
.sdh-group > small { font-size: 11px; opacity: .8; }
.sdh-group.trumps > small { color: var(--gold, #d4a017); font-weight: 700; }
.sandaha-hand .card.blocked { opacity: .45; cursor: not-allowed; }
.sdh-table { display: grid; grid-template-areas: ". top ." "left mid right" ". bottom ."; grid-template-columns: 1fr auto 1fr; gap: 4px; justify-items: center; align-items: center; margin-top: 4px; }
.sdh-table .trick-play { min-height: 20px; }
.sdh-table .trick-play.winner .cards { box-shadow: 0 0 0 2px var(--gold, #d4a017); border-radius: 4px; }
.sdh-table .trick-play.lead small::after { content: " ★"; }
.sdh-mid { grid-area: mid; font-size: 12px; opacity: .85; }
.sdh-banner { margin: 4px 0; padding: 4px 8px; border-radius: 6px; background: rgba(200, 40, 40, .15); font-size: 13px; }
.sdh-banner .cards { display: inline-flex; vertical-align: middle; }
.sdh-reason { margin: 4px 0; padding: 4px 8px; border-radius: 6px; background: rgba(200, 40, 40, .18); color: var(--red, #c22); font-size: 13px; }
.sdh-result table { border-collapse: collapse; margin-top: 4px; }
.sdh-result th, .sdh-result td { padding: 1px 6px; text-align: left; font-size: 13px; }
.sdh-tier { font-weight: 700; }
.sdh-bids { display: flex; flex-wrap: wrap; gap: 4px; justify-content: center; margin-top: 4px; font-size: 12px; }
.sdh-note { font-size: 13px; margin: 4px 0; }
.sdh-summary { text-align: center; margin-top: 4px; }
@media (min-width: 900px) { .sdh-groups .sandaha-hand .card { margin-right: -8px; } }
`;

function ensureStyle() {
  if (typeof document === "undefined" || document.getElementById("sdh-style")) return;
  const el = document.createElement("style");
  el.id = "sdh-style";
  el.textContent = STYLE;
  document.head.appendChild(el);
}

export function createOptions() {
  return [
    {
      key: "rule",
      label: w("opt_rule"),
      choices: [
        { value: "rule1", label: w("rule1") },
        { value: "rule2", label: w("rule2") },
      ],
      default: "rule1",
    },
  ];
}

// ------------------------------------------------------------------ cards and suits

/** 常主: a joker, a 2 or a 7 (trumps whatever suit is named). */
export function isChangzhu(card) {
  return card === "BJ" || card === "RJ" || card[0] === "2" || card[0] === "7";
}

/** The effective suit of a card: "T" for trumps (主), else its suit letter. */
export function effectiveSuit(card, trump) {
  if (isChangzhu(card)) return "T";
  return trump && trump !== "none" && card[1] === trump ? "T" : card[1];
}

function trumpLabel(suit) {
  if (suit === "none") return h("span", { class: "trump-label" }, w("none"));
  return h("span", { class: `trump-label${"hd".includes(suit) ? " red" : ""}` }, `${w("trump")} ${SUIT_NAMES[suit] || suit}`);
}

function groupName(key, trump) {
  if (key === "T") return trump ? w("group_trumps") : w("group_changzhu");
  if (key === "side") return w("group_side");
  return SUIT_NAMES[key] || key;
}

const OFF_LEVEL = { 5: 0, 6: 1, 8: 2, 9: 3, T: 4, J: 5, Q: 6, K: 7, A: 8 };
const SUIT_INDEX = "shcd";

/**
 * The strength of a card under a trump choice, as the engine ranks it (rules.Order.strength):
 * 100 + level for trumps, the level for side cards. With a trump suit: 主5 0 … 主A 8, 副2 9,
 * 主2 10, 副7 11, 主7 12, 小王 13, 大王 14; with no trump named (叫分 or 无主) only 常主 are
 * trumps: 2 9, 7 10, 小王 11, 大王 12. Side cards: 5 0, 6 1, 8 2 … A 8.
 */
export function strength(card, trump) {
  const named = Boolean(trump) && trump !== "none";
  if (card === "BJ" || card === "RJ") return 100 + (named ? 13 : 11) + (card === "RJ" ? 1 : 0);
  const rank = card[0];
  const own = named && card[1] === trump;
  if (rank === "7") return 100 + (named ? 11 + (own ? 1 : 0) : 10);
  if (rank === "2") return 100 + 9 + (own ? 1 : 0);
  return (own ? 100 : 0) + (OFF_LEVEL[rank] ?? -1);
}

/** Cards [card, index] by strength, high first; equal strength by suit ♠ ♥ ♣ ♦. */
export function byStrength(items, trump) {
  const suit = (c) => SUIT_INDEX.indexOf(c[1]);
  return [...items].sort(([a, i], [b, j]) => strength(b, trump) - strength(a, trump) || suit(a) - suit(b) || i - j);
}

const SORTS = ["suit", "rank"];
const SORT_KEY = "paiju.sandaha.sort";

/** The player's sort (按花色 / 按大小): kept across hands and visits in localStorage. */
function sortMode(local) {
  if (!local.sort) {
    let saved = null;
    try {
      saved = typeof localStorage !== "undefined" ? localStorage.getItem(SORT_KEY) : null;
    } catch {
      saved = null;
    }
    local.sort = SORTS.includes(saved) ? saved : "suit";
  }
  return local.sort;
}

function sortBar(ctx) {
  const local = ctx.local;
  const mode = sortMode(local);
  return h(
    "div",
    { class: "sort-bar sdh-sort", id: "sdh-sort" },
    SORTS.map((m) =>
      h(
        "button",
        {
          class: `ghost small-button${mode === m ? " on" : ""}`,
          id: `sdh-sort-${m}`,
          "aria-pressed": mode === m ? "true" : "false",
          onclick: (ev) => {
            ev.stopPropagation();
            local.sort = m;
            try {
              localStorage.setItem(SORT_KEY, m);
            } catch {
              // a private window without storage: the choice lasts for this hand
            }
            (local.ctx || ctx).rerender();
          },
        },
        t(`sort.${m}`),
      ),
    ),
  );
}

// ------------------------------------------------------------------ selection rules

function leadCount(view) {
  const first = (view.trick || [])[0];
  return first ? splitCards(first.cards).length : 0;
}

/**
 * Whether card `i` may be added to the selection `picked` now: the tap rules that keep a
 * selection on the way to a legal play (the server checks the rest).
 */
function canAdd(view, cards, picked, i, mode) {
  if (mode === "bury") return picked.length < buryCount(view, cards);
  if (mode !== "play") return false;
  const trump = view.trump;
  const suitOf = (c) => effectiveSuit(c, trump);
  const n = leadCount(view);
  if (n === 0) {
    // a lead: one suit (trumps count as one suit)
    return picked.length === 0 || suitOf(cards[picked[0]]) === suitOf(cards[i]);
  }
  if (picked.length >= n) return false;
  const led = suitOf(splitCards(view.trick[0].cards)[0]);
  const held = cards.filter((c) => suitOf(c) === led).length;
  if (suitOf(cards[i]) === led) return true;
  // an off-suit card only once the led suit is spent (or the rest of it is already picked)
  const offPicked = picked.filter((j) => suitOf(cards[j]) !== led).length;
  return offPicked < n - Math.min(held, n);
}

function buryCount(view, cards) {
  const others = (view.hand_sizes || []).filter((_, s) => s !== view.seat);
  return others.length ? cards.length - Math.min(...others) : view.kitty_size;
}

function handPicker(ctx, cards, mode) {
  const local = ctx.local;
  const view = ctx.view;
  const picked = local.picked;
  const groups = [];
  const byRank = sortMode(local) === "rank";
  const items = cards.map((card, i) => [card, i]);
  // 按花色: the server's order (trumps first, then ♠ ♥ ♣ ♦, each high to low); 按大小: by strength
  for (const [card, i] of byRank ? byStrength(items, view.trump) : items) {
    let key = view.trump || view.phase !== "bidding" ? effectiveSuit(card, view.trump) : isChangzhu(card) ? "T" : card[1];
    if (byRank && key !== "T") key = "side";
    let group = groups.find((g) => g.key === key);
    if (!group) groups.push((group = { key, items: [] }));
    group.items.push([card, i]);
  }
  const active = mode === "bury" || mode === "play";
  // the kitty just picked up (底牌) stays marked in the hand until it is buried
  const taken = splitCards(view.taken || "");
  const fromKitty = new Set();
  for (const c of taken) {
    const at = cards.findIndex((x, i) => x === c && !fromKitty.has(i));
    if (at >= 0) fromKitty.add(at);
  }
  return h(
    "div",
    { class: "sdh-groups", id: "sdh-hand" },
    groups.map((g) =>
      h(
        "div",
        { class: `sdh-group${g.key === "T" ? " trumps" : ""}`, dataset: { group: g.key } },
        h("small", {}, `${groupName(g.key, view.trump)} ${g.items.length}`),
        h(
          "div",
          { class: "cards hand sandaha-hand" },
          g.items.map(([card, i]) => {
            const el = cardEl(card);
            el.dataset.index = i;
            if (fromKitty.has(i)) {
              el.classList.add("from-kitty");
              el.title = w("from_kitty");
            }
            if (!active) return el;
            el.classList.add("pick");
            const on = picked.includes(i);
            if (on) el.classList.add("selected");
            else if (!canAdd(view, cards, picked, i, mode)) el.classList.add("blocked");
            el.addEventListener("click", () => {
              // the newest drawing's state: an unchanged card may be kept from an older one
              const now = local.ctx || ctx;
              const sel = local.picked;
              const at = sel.indexOf(i);
              if (at >= 0) sel.splice(at, 1);
              else if (canAdd(now.view, splitCards(now.view.hand), sel, i, local.mode)) sel.push(i);
              else return;
              local.reason = null;
              now.rerender();
            });
            return el;
          }),
        ),
      ),
    ),
  );
}

// ------------------------------------------------------------------ the server's refusal

/**
 * The server answers an illegal action with an `error` whose message names the broken
 * rule; the room shows it as a toast and redraws. The table keeps that text above the
 * hand until the next selection or play (watched on the toast element after our own act).
 */
function actWatched(ctx, action) {
  const local = ctx.local;
  local.reason = null;
  const toastEl = typeof document !== "undefined" ? document.getElementById("toast") : null;
  if (local.watcher) local.watcher.disconnect();
  if (toastEl && typeof MutationObserver !== "undefined") {
    const sentFor = ctx.view;
    const watcher = new MutationObserver(() => {
      if (local.viewNow !== sentFor) return watcher.disconnect();
      if (!/\berror\b/.test(toastEl.className) || !toastEl.textContent) return;
      local.reason = toastEl.textContent;
      watcher.disconnect();
      ctx.rerender();
    });
    watcher.observe(toastEl, { childList: true, characterData: true, subtree: true, attributes: true });
    local.watcher = watcher;
  }
  ctx.act(action);
}

// ------------------------------------------------------------------ the felt

function seatPlace(ctx, seat) {
  const n = (ctx.view.hand_sizes || []).length || 4;
  // the one seating rule of every table: the 下家 on the right, the 上家 on the left
  return placeOnFelt(seat, n, ctx.seat === null ? 0 : ctx.seat);
}

function trickTable(ctx, plays, { winner = null, id = "sdh-trick", label = null } = {}) {
  return h(
    "div",
    { class: "sdh-table trick", id },
    label ? h("div", { class: "sdh-mid" }, label) : null,
    (plays || []).map((p, k) =>
      h(
        "div",
        {
          class: `trick-play${p.seat === winner ? " winner" : ""}${k === 0 ? " lead" : ""}`,
          style: `grid-area:${seatPlace(ctx, p.seat)}`,
          dataset: { seat: p.seat, cards: p.cards },
        },
        h("small", {}, ctx.seatName(p.seat)),
        cardsEl(p.cards, { small: true }),
      ),
    ),
  );
}

/** Every finished trick (前几轮), newest first: who played what, who won it. */
function trickHistory(ctx, tricks) {
  return h(
    "ol",
    { class: "sdh-history", id: "sdh-history", reversed: true },
    [...tricks].reverse().map((tr) =>
      h(
        "li",
        {},
        tr.plays.map((p) => h("span", { class: `hist-play${p.seat === tr.winner ? " won" : ""}` }, h("small", {}, ctx.seatName(p.seat)), cardsEl(p.cards, { small: true }))),
      ),
    ),
  );
}

function throwBanner(ctx, failed) {
  return h(
    "div",
    { class: "sdh-banner", id: "sdh-throw-failed", dataset: { seat: failed.seat, forced: failed.forced } },
    w("throw_failed", { who: ctx.seatName(failed.seat), by: ctx.seatName(failed.blocked_by) }),
    " ",
    cardsEl(failed.tried, { small: true }),
    " → ",
    cardsEl(failed.forced, { small: true }),
  );
}

const TIERS = ["defenders_big", "defenders_small", "defenders_win", "declarer_big", "declarer_small", "declarer_win"];

/** Whether the declarer made its contract and how the stake was counted: the defenders'
 * points against the 庄分, the 抠底 bonus with its multiplier, the tier and the settle rule.
 * All from the view's ``result`` (the per-defender amount is the engine's settlement). */
function whyPanel(ctx) {
  const view = ctx.view;
  const r = view.result;
  const who = ctx.seatName(view.declarer);
  const made = String(r.tier).startsWith("declarer");
  const head = t(made ? "why.sdh.made" : "why.sdh.down", { who, bid: view.bid, points: view.defenders_points });
  const lines = [t("why.sdh.points", { points: view.defenders_points, cards: r.card_points, bonus: r.kitty_bonus })];
  lines.push(r.multiplier ? t("why.sdh.kou", { kitty: r.kitty_points, m: r.multiplier, bonus: r.kitty_bonus }) : t("why.sdh.no_kou", { kitty: r.kitty_points }));
  const defender = r.settlement.findIndex((_, s) => s !== view.declarer);
  const each = r.settlement[defender];
  const tier = TIERS.includes(r.tier) ? w(`tier.${r.tier}`) : r.tier;
  lines.push(
    t("why.sdh.count", { tier, each: signed(each), k: view.stake ? Math.abs(each) / view.stake : "?", stake: view.stake, rule: made && view.rule === "rule2" ? t("why.sdh.rule2") : "" }),
  );
  lines.push(t("why.sdh.declarer_total", { who, n: signed(r.settlement[view.declarer]) }));
  return whyBox(head, lines);
}

function resultPanel(ctx) {
  const view = ctx.view;
  const r = view.result;
  const tier = TIERS.includes(r.tier) ? w(`tier.${r.tier}`) : r.tier;
  return h(
    "div",
    { class: "sdh-result", id: "sdh-result", dataset: { tier: r.tier, multiplier: r.multiplier } },
    whyPanel(ctx),
    h("div", { class: "sdh-note" }, h("strong", {}, w("kitty")), " ", cardsEl(view.kitty, { small: true })),
    h(
      "table",
      {},
      h(
        "tbody",
        {},
        h("tr", {}, h("th", {}, w("card_points")), h("td", { id: "sdh-card-points" }, String(r.card_points))),
        h("tr", {}, h("th", {}, w("kitty_points")), h("td", { id: "sdh-kitty-points" }, String(r.kitty_points))),
        h("tr", {}, h("th", {}, w("multiplier")), h("td", { id: "sdh-multiplier" }, r.multiplier ? `×${r.multiplier}` : w("no_kou"))),
        h("tr", {}, h("th", {}, w("kitty_bonus")), h("td", { id: "sdh-kitty-bonus" }, String(r.kitty_bonus))),
        h("tr", {}, h("th", {}, w("total")), h("td", { id: "sdh-total" }, `${view.defenders_points} / ${view.bid}`)),
        h("tr", {}, h("th", {}, w("tier")), h("td", { class: "sdh-tier", id: "sdh-tier" }, tier)),
      ),
    ),
    h(
      "table",
      { id: "sdh-settlement" },
      h(
        "tbody",
        {},
        r.settlement.map((x, s) =>
          h(
            "tr",
            { dataset: { seat: s, score: x } },
            h("td", {}, `${ctx.seatName(s)}${s === view.declarer ? ` (${w("declarer")})` : ""}`),
            h("td", { class: "sdh-score" }, signed(x)),
          ),
        ),
      ),
    ),
  );
}

/** On the felt at the end: the kitty turned up, its multiplier and the tier. */
/** The verdict on the felt, one line (the kitty and the count are under the felt). */
function resultSummary(ctx) {
  const r = ctx.view.result;
  return h(
    "div",
    { class: "sdh-summary", id: "sdh-summary" },
    h("div", { class: "sdh-tier" }, `${r.multiplier ? `${w("multiplier")} ×${r.multiplier} · ` : ""}${TIERS.includes(r.tier) ? w(`tier.${r.tier}`) : r.tier}`),
  );
}

function bidsLine(ctx) {
  const bids = ctx.view.bids || [];
  if (!bids.length) return null;
  return h(
    "div",
    { class: "sdh-bids", id: "sdh-bids" },
    bids.map((b) => h("span", { class: "chip" }, `${ctx.seatName(b.seat)}: ${b.bid === null ? w("pass") : b.bid}`)),
  );
}

// ------------------------------------------------------------------ the player's area

function actionButton(ctx, action, cards) {
  let label;
  if (action.type === "bid") label = w("bid", { n: action.points });
  else if (action.type === "pass") label = w("pass");
  else if (action.type === "name_trump") {
    const count = cards.filter((c) => !isChangzhu(c) && c[1] === action.trump).length;
    label = action.trump === "none" ? w("none") : h("span", {}, trumpLabel(action.trump), ` (${count})`);
  } else label = action.type;
  return h("button", { class: "action", dataset: { action: JSON.stringify(action) }, onclick: () => actWatched(ctx, action) }, label);
}

function controlsFor(ctx, cards, mode) {
  const view = ctx.view;
  const local = ctx.local;
  if (mode === "choose") {
    const note =
      view.phase === "bidding" && view.changzhu !== undefined
        ? h(
            "p",
            { class: "sdh-note", id: "sdh-changzhu" },
            view.must_bid !== null && view.must_bid !== undefined
              ? w("must_bid", { c: view.changzhu, n: view.must_bid })
              : w("changzhu", { c: view.changzhu }),
          )
        : view.phase === "naming"
          ? h("p", { class: "sdh-note" }, w("name_hint"))
          : null;
    // bids in one scrolling row (pass and the highest first): the hand stays on screen
    const many = ctx.legal.length > 6 ? " one-row" : "";
    return h("div", {}, note, h("div", { class: `legal-actions${many}`, id: "sdh-choices" }, ctx.legal.map((a) => actionButton(ctx, a, cards))));
  }
  const chosen = local.picked.map((i) => cards[i]);
  const bury = mode === "bury";
  const n = leadCount(view);
  const need = bury ? buryCount(view, cards) : n;
  const ready = bury ? chosen.length === need : n ? chosen.length === n : chosen.length > 0;
  const hint = bury ? w("bury_hint", { n: need }) : n ? w("follow_hint", { n }) : w("lead_hint");
  return h(
    "div",
    {},
    h("p", { class: "sdh-note" }, hint),
    h(
      "div",
      { class: "buttons" },
      h("span", { class: "muted", id: "sdh-count" }, w("selected", { n: chosen.length })),
      h("button", { class: "ghost", id: "sdh-clear", onclick: () => { local.picked.length = 0; local.reason = null; ctx.rerender(); } }, w("clear")),
      h("button", { class: "ghost", id: "sdh-hint", onclick: () => hintPick(ctx) }, w("hint")),
      h(
        "button",
        {
          class: "primary",
          id: bury ? "bury-submit" : "play-submit",
          disabled: !ready,
          onclick: () => {
            const now = local.ctx || ctx;
            const hand = splitCards(now.view.hand);
            const sel = local.picked.filter((i) => i < hand.length).map((i) => hand[i]);
            // the selection stays if the server refuses it; a new hand clears it
            actWatched(now, { type: bury ? "bury" : "play", cards: sel.join(" ") });
          },
        },
        bury ? w("bury", { n: need }) : w("play"),
      ),
    ),
  );
}

/** 提示: the server's advice for this seat; the cards of its first suggestion are picked,
 * as taps would pick them (the player still presses 出牌 / 扣底). */
function hintPick(ctx) {
  const local = ctx.local;
  const handText = ctx.view.hand;
  get(`/api/rooms/${ctx.roomId}/suggestions`)
    .then((answer) => {
      const now = local.ctx || ctx;
      const first = ((answer && answer.suggestions) || []).find((a) => a.cards);
      if (!first || now.view.hand !== handText) return;
      const hand = splitCards(now.view.hand);
      const used = new Set();
      local.picked.length = 0;
      for (const card of splitCards(first.cards)) {
        const at = hand.findIndex((c, i) => c === card && !used.has(i));
        if (at >= 0) {
          used.add(at);
          local.picked.push(at);
        }
      }
      local.reason = null;
      now.rerender();
    })
    .catch(() => {});
}

export function render(ctx) {
  ensureStyle();
  const view = ctx.view;
  const local = ctx.local;
  if (!local.picked) local.picked = [];
  if (local.viewNow !== view) {
    // a new state from the server: a refusal shown for the previous one is stale
    local.reason = null;
    local.viewNow = view;
  }
  const myTurn = ctx.seat !== null && (view.to_act || []).includes(ctx.seat) && !ctx.handOver;
  const cards = splitCards(view.hand);
  local.ctx = ctx;
  if (local.handText !== view.hand) {
    local.picked.length = 0;
    local.handText = view.hand;
  }
  // keep the same array (handlers hold it): drop positions past the hand's end
  for (let k = local.picked.length - 1; k >= 0; k--) if (local.picked[k] >= cards.length) local.picked.splice(k, 1);
  let mode = "watch";
  if (myTurn && ctx.legal && ctx.legal.length) mode = "choose";
  else if (myTurn && view.phase === "burying") mode = "bury";
  else if (myTurn && view.phase === "playing") mode = "play";
  if (mode !== "bury" && mode !== "play") local.picked.length = 0;
  local.mode = mode;
  const controls = mode === "watch" ? null : controlsFor(ctx, cards, mode);
  const reason = local.reason ? h("div", { class: "sdh-reason", id: "sdh-reason", role: "alert" }, w("refused", { m: local.reason })) : null;
  // a spectator (and the replay) gets the result under the felt: on it, the seats cover it
  const mine =
    ctx.seat === null
      ? view.result
        ? h("div", { class: "sandaha-mine sdh-watch" }, resultPanel(ctx))
        : null
      : h(
          "div",
          { class: "sandaha-mine" },
          reason,
          controls,
          handPicker(ctx, cards, mode),
          cards.length > 1 ? sortBar(ctx) : null,
          view.kitty && ctx.seat === view.declarer && view.phase !== "over"
            ? h("div", { class: "sdh-note", id: "sdh-buried" }, h("small", {}, w("buried")), cardsEl(view.kitty, { small: true }))
            : null,
          view.result ? resultPanel(ctx) : null,
          sdhCounter(ctx),
        );

  const trick = view.trick || [];
  const last = view.last_trick || [];
  let felt = null;
  if (trick.length) felt = trickTable(ctx, trick);
  else if (last.length && view.phase === "playing") {
    felt = trickTable(ctx, last, { winner: view.last_winner, id: "sdh-last", label: w("won_by", { who: ctx.seatName(view.last_winner) }) });
  }
  const showLast = local.showLast && trick.length && last.length;
  const center = h(
    "div",
    { class: "sandaha-center" },
    h(
      "div",
      { class: "chips" },
      h("span", { class: "chip" }, phaseName(view.phase)),
      view.bid !== null && view.bid !== undefined ? h("span", { class: "chip", id: "sdh-contract" }, w("contract", { n: view.bid })) : null,
      view.trump ? h("span", { class: "chip", id: "sdh-trump", dataset: { trump: view.trump } }, trumpLabel(view.trump)) : null,
      view.declarer !== null && view.declarer !== undefined
        ? h("span", { class: "chip", id: "sdh-points", dataset: { points: view.defenders_points } }, w("points", { n: view.defenders_points }))
        : null,
    ),
    view.phase === "bidding" ? bidsLine(ctx) : null,
    view.throw_failed ? throwBanner(ctx, view.throw_failed) : null,
    felt,
    trick.length && last.length
      ? h(
          "button",
          { class: "ghost small-button", id: "sdh-show-last", onclick: () => { local.showLast = !local.showLast; ctx.rerender(); } },
          local.showLast ? w("hide_last") : w("last"),
        )
      : null,
    showLast ? trickTable(ctx, last, { winner: view.last_winner, id: "sdh-last", label: w("won_by", { who: ctx.seatName(view.last_winner) }) }) : null,
    (view.tricks || []).length > 1
      ? h(
          "button",
          { class: "ghost small-button", id: "sdh-show-history", onclick: () => { local.showHistory = !local.showHistory; ctx.rerender(); } },
          local.showHistory ? w("hide_history") : w("history", { n: view.tricks.length }),
        )
      : null,
    local.showHistory ? trickHistory(ctx, view.tricks || []) : null,
    view.result ? resultSummary(ctx) : null,
    ctx.seat === null ? sdhCounter(ctx) : null,
  );
  return { center, mine };
}

/** 三打哈's 记牌器 while the tricks are played: 大王 小王 7 2 then A down (its strength
 * order), the cards the others hold (the declarer also knows the buried kitty). */
function sdhCounter(ctx) {
  const view = ctx.view;
  if (view.phase !== "playing" || !view.unplayed) return null;
  const kitty = ctx.seat !== null && typeof view.kitty === "string" ? view.kitty : "";
  return counterStrip(ctx, { order: ["RJ", "BJ", "7", "2", "A", "K", "Q", "J", "T", "9", "8", "6", "5", "4", "3"], known: ownCards(view, kitty) });
}

export function seatExtra(ctx, seat) {
  const view = ctx.view;
  const bids = (view.bids || []).filter((b) => b.seat === seat);
  const bid = bids[bids.length - 1];
  return h(
    "div",
    { class: "seat-extra" },
    view.declarer === seat ? h("span", { class: "badge banker" }, w("declarer")) : null,
    h("small", {}, ` ${w("cards", { n: (view.hand_sizes || [])[seat] ?? "?" })}`),
    bid && view.phase === "bidding" ? h("div", {}, bid.bid === null ? w("pass") : w("bid", { n: bid.bid })) : null,
  );
}

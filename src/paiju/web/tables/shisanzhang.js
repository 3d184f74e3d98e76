// 十三张 (thirteen cards): arrange 13 cards into 头墩 front (3), 中墩 middle (5) and 尾墩 back
// (5) by tapping or dragging, take one of the solver's suggestions, see a live 倒水 (foul)
// warning, declare a special hand (报到), then watch the showdown (比牌) row by row with
// 打枪 and 全垒打, and the settlement.

import { get, post } from "../js/api.js";
import { cardEl, cardsEl, rankOf, splitCards, suitOf } from "../js/cards.js";
import { h, signed } from "../js/dom.js";
import { lang, phaseName, t, term } from "../js/i18n.js";
import { joined, stakeOf, whyBox } from "./why.js";

const ROWS = ["front", "middle", "back"];
/** The rows as the showdown names them (a bonus's row), by their keys here. */
const ROW_OF = { 头墩: "front", 中墩: "middle", 尾墩: "back" };
const SIZE = { front: 3, middle: 5, back: 5 };

export function createOptions(variant) {
  const p = variant.params || {};
  const offered = [p.scoring, ...(p.scorings || []).filter((s) => s !== p.scoring)].filter(Boolean);
  const out = [];
  if (offered.length > 1) {
    out.push({
      key: "scoring",
      label: t("opt.scoring"),
      choices: offered.map((s) => ({ value: s, label: t(`ssz.scoring.${s}`) })),
      default: p.scoring,
    });
  }
  if (p.banker) out.push({ key: "favoured", label: t("opt.favoured"), type: "checkbox", default: false });
  return out;
}

// ------------------------------------------------------------ the row evaluator
// For the live foul warning while rows are being filled, and as the fallback: once the
// 13 cards are placed the server's exact verdict (POST /api/rooms/{id}/check) is shown. The same scale as paiju.games.shisanzhang.rows: category, then ranks in
// comparison order padded with zeros (a front is weaker than a middle with the same
// leading ranks); a straight ranks by its place, A-2-3-4-5 "second" (below T-J-Q-K-A)
// or "lowest" as the code's straight_a2345 says. Suit tie-breaks (1303) are left out.

function straightPlace(ranks, a2345) {
  const r = [...new Set(ranks)].sort((a, b) => a - b);
  if (r.length !== 5) return 0;
  if (r.join() === "2,3,4,5,14") return a2345 === "lowest" ? 5 : 14;
  if (r[4] - r[0] !== 4) return 0;
  if (a2345 === "second") return r[4] < 14 ? r[4] : 15;
  return r[4];
}

export function rowValue(cards, a2345 = "second") {
  const ranks = cards.map(rankOf);
  const counts = new Map();
  for (const r of ranks) counts.set(r, (counts.get(r) || 0) + 1);
  const groups = [...counts.entries()].sort((a, b) => b[1] - a[1] || b[0] - a[0]);
  const order = groups.map((g) => g[0]);
  const pad = (cat, list) => [cat, ...list, 0, 0, 0, 0, 0].slice(0, 6);
  const top = groups[0][1];
  const second = groups.length > 1 ? groups[1][1] : 0;
  if (cards.length === 5) {
    const flush = new Set(cards.map(suitOf)).size === 1;
    const place = straightPlace(ranks, a2345);
    if (place) return pad(flush ? 8 : 4, [place]);
    if (flush) return pad(5, order);
  }
  if (top === 4) return pad(7, order);
  if (top === 3 && second === 2) return pad(6, order);
  if (top === 3) return pad(3, order);
  if (top === 2 && second === 2) return pad(2, order);
  if (top === 2) return pad(1, order);
  return pad(0, order);
}

function compare(a, b) {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return 0;
}

/** Which rows beat the next one (倒水): "front" (front > middle), "middle" (middle > back). */
export function foulsOf(rows, a2345 = "second") {
  const out = [];
  const full = (r) => rows[r].length === SIZE[r];
  const v = (r) => rowValue(rows[r], a2345);
  if (full("front") && full("middle") && compare(v("front"), v("middle")) > 0) out.push("front");
  if (full("middle") && full("back") && compare(v("middle"), v("back")) > 0) out.push("middle");
  return out;
}

// ------------------------------------------------------------ local arrangement state

function state(ctx) {
  const local = ctx.local;
  if (!local.rows) {
    local.rows = { front: [], middle: [], back: [] };
    local.sel = [];
    local.suggestions = undefined;
  }
  return local;
}

function inHand(ctx, local) {
  const placed = [...local.rows.front, ...local.rows.middle, ...local.rows.back];
  const left = splitCards(ctx.view.hand);
  for (const c of placed) {
    const i = left.indexOf(c);
    if (i >= 0) left.splice(i, 1);
  }
  return left;
}

function removeEverywhere(local, card) {
  for (const r of ROWS) {
    const i = local.rows[r].indexOf(card);
    if (i >= 0) {
      local.rows[r].splice(i, 1);
      return true;
    }
  }
  return false;
}

function moveTo(ctx, local, row, cards) {
  for (const card of cards) {
    if (row !== "hand" && local.rows[row].length >= SIZE[row]) break;
    removeEverywhere(local, card);
    if (row !== "hand") local.rows[row].push(card);
  }
  local.sel = [];
  autoFill(ctx, local);
  ctx.rerender();
}

function autoFill(ctx, local) {
  const left = inHand(ctx, local);
  const open = ROWS.filter((r) => local.rows[r].length < SIZE[r]);
  if (open.length === 1 && left.length === SIZE[open[0]] - local.rows[open[0]].length) {
    local.rows[open[0]].push(...left);
  }
}

function toggle(ctx, local, card) {
  const i = local.sel.indexOf(card);
  if (i >= 0) local.sel.splice(i, 1);
  else local.sel.push(card);
  ctx.rerender();
}

function loadSuggestions(ctx, local) {
  if (local.suggestions !== undefined) return;
  local.suggestions = null;
  get(`/api/rooms/${ctx.roomId}/suggestions`)
    .then((answer) => {
      // arrangements only: declaring a special has its own button
      local.suggestions = ((answer && answer.suggestions) || []).filter((a) => a.front && a.back);
    })
    .catch(() => {
      local.suggestions = "missing";
    })
    .finally(() => ctx.rerender());
}

function arrangement(local) {
  return {
    type: "arrange",
    front: local.rows.front.join(" "),
    middle: local.rows.middle.join(" "),
    back: local.rows.back.join(" "),
  };
}

/** The server's exact verdict on a complete arrangement (POST /api/rooms/{id}/check):
 * its own row rules, suit tie-breaks included; the local evaluator is only the fallback. */
function loadVerdict(ctx, local) {
  if (!ROWS.every((r) => local.rows[r].length === SIZE[r])) return null;
  const action = arrangement(local);
  const key = `${action.front}|${action.middle}|${action.back}`;
  if (local.verdict && local.verdict.key === key) return local.verdict;
  const verdict = { key, preview: undefined };
  local.verdict = verdict;
  post(`/api/rooms/${ctx.roomId}/check`, action)
    .then((answer) => {
      verdict.preview = (answer && answer.preview) || null;
    })
    .catch(() => {
      verdict.preview = null;
    })
    .finally(() => {
      if (local.verdict === verdict) ctx.rerender();
    });
  return verdict;
}

// ------------------------------------------------------------ rendering

function cardButton(ctx, local, card, where) {
  const el = cardEl(card);
  el.classList.add("pick");
  if (local.sel.includes(card)) el.classList.add("selected");
  el.draggable = true;
  el.tabIndex = 0;
  el.dataset.where = where;
  el.addEventListener("dragstart", (ev) => {
    const cards = local.sel.includes(card) ? local.sel : [card];
    ev.dataTransfer.setData("text/plain", cards.join(" "));
  });
  el.addEventListener("click", (ev) => {
    ev.stopPropagation();
    if (where !== "hand" && !local.sel.length) moveTo(ctx, local, "hand", [card]);
    else toggle(ctx, local, card);
  });
  el.addEventListener("keydown", (ev) => {
    if (ev.key === "Enter" || ev.key === " ") {
      ev.preventDefault();
      el.click();
    }
  });
  return el;
}

function dropZone(ctx, local, el, row) {
  el.addEventListener("dragover", (ev) => ev.preventDefault());
  el.addEventListener("drop", (ev) => {
    ev.preventDefault();
    moveTo(ctx, local, row, splitCards(ev.dataTransfer.getData("text/plain")));
  });
}

function rowZone(ctx, local, row, fouls, a2345) {
  const cards = local.rows[row];
  const full = cards.length === SIZE[row];
  const slots = [];
  for (let i = cards.length; i < SIZE[row]; i++) slots.push(h("div", { class: "slot" }));
  const zone = h(
    "div",
    {
      class: `row-zone ${row}${fouls.includes(row) ? " foul" : ""}${full ? " full" : ""}`,
      dataset: { row },
      role: "button",
      "aria-label": t("ssz.to_row", { row: t(`ssz.${row}`) }),
      onclick: () => {
        if (local.sel.length) moveTo(ctx, local, row, [...local.sel]);
      },
    },
    h("span", { class: "row-label" }, h("b", {}, t(`ssz.${row}`)), full ? h("small", { class: "row-cat" }, categoryName(rowValue(cards, a2345))) : null),
    h("div", { class: "cards" }, cards.map((c) => cardButton(ctx, local, c, row)), slots),
  );
  dropZone(ctx, local, zone, row);
  return zone;
}

const CAT_ZH = ["散牌", "对子", "两对", "三条", "顺子", "同花", "葫芦", "炸弹", "同花顺"];
function categoryName(value) {
  return term(CAT_ZH[value[0]]);
}

function arrangePanel(ctx) {
  const local = state(ctx);
  const view = ctx.view;
  loadSuggestions(ctx, local);
  const left = inHand(ctx, local);
  const a2345 = (ctx.variant && ctx.variant.params && ctx.variant.params.straight_a2345) || "second";
  const fouls = foulsOf(local.rows, a2345);
  const complete = ROWS.every((r) => local.rows[r].length === SIZE[r]);
  const verdict = loadVerdict(ctx, local);
  // the rows as placed: if the time runs out they are played, not the bot's choice
  if (ctx.draft) ctx.draft(complete ? arrangement(local) : null);
  const exact = verdict && verdict.preview ? verdict.preview : null;
  const fouled = exact ? exact.foul : fouls.length > 0;
  const hand = h(
    "div",
    {
      class: "hand-zone",
      dataset: { row: "hand" },
      onclick: () => {
        if (local.sel.some((c) => !left.includes(c))) moveTo(ctx, local, "hand", local.sel.filter((c) => !left.includes(c)));
      },
    },
    h("div", { class: "cards hand" }, sortCards(left, local.sort || "rank").map((c) => cardButton(ctx, local, c, "hand"))),
  );
  dropZone(ctx, local, hand, "hand");
  let warning;
  const source = { source: exact ? "server" : "local" };
  const categories = exact ? ` (${exact.categories.map(term).join(" / ")})` : "";
  if (fouled) {
    const rows = fouls.map((r) => t(`ssz.foul_${r}`)).join("，");
    warning = h("p", { class: "foul-warning", id: "foul-warning", role: "alert", dataset: source }, t("ssz.foul", { rows }) + categories);
  } else if (complete) {
    warning = h("p", { class: "ok-note", id: "foul-ok", dataset: source }, t("ssz.ok") + categories);
  } else {
    const need = 13 - local.rows.front.length - local.rows.middle.length - local.rows.back.length;
    warning = h("p", { class: "muted" }, t("ssz.need", { n: need }));
  }
  const sugg = local.suggestions;
  let suggestions = null;
  if (Array.isArray(sugg) && sugg.length) {
    suggestions = h(
      "div",
      { class: "suggestions", id: "suggestions" },
      h("span", { class: "label" }, t("ssz.suggestions")),
      h("div", { class: "sugg-strip" }, sugg.slice(0, 4).map((s, i) => suggestionEl(ctx, local, s, i, a2345))),
    );
  } else if (sugg === "missing") {
    suggestions = h("p", { class: "muted small" }, `${t("ssz.suggestions")} ${t("ssz.no_suggestions")}`);
  }
  const sortMode = local.sort || "rank";
  const sortBar = h(
    "div",
    { class: "sort-bar" },
    ["rank", "suit"].map((mode) =>
      h(
        "button",
        {
          class: `ghost small-button${sortMode === mode ? " on" : ""}`,
          id: `sort-${mode}`,
          "aria-pressed": sortMode === mode ? "true" : "false",
          onclick: (ev) => {
            ev.stopPropagation();
            local.sort = mode;
            ctx.rerender();
          },
        },
        t(`sort.${mode}`),
      ),
    ),
    h("span", { class: "hint muted" }, t("ssz.tap_hint")),
  );
  const confirmFoul = local.confirmFoul && fouled && complete;
  const actions = confirmFoul
    ? h(
        "div",
        { class: "foul-confirm", id: "foul-confirm", role: "alertdialog" },
        h("p", {}, t("ssz.foul_confirm")),
        h(
          "div",
          { class: "buttons" },
          h(
            "button",
            {
              class: "ghost",
              id: "foul-confirm-no",
              onclick: () => {
                local.confirmFoul = false;
                ctx.rerender();
              },
            },
            t("ssz.foul_back"),
          ),
          h(
            "button",
            {
              class: "primary danger",
              id: "foul-confirm-yes",
              onclick: () => {
                local.confirmFoul = false;
                ctx.act(arrangement(local));
              },
            },
            t("ssz.foul_anyway"),
          ),
        ),
      )
    : h(
        "div",
        { class: "buttons main-actions" },
        h(
          "button",
          {
            class: "ghost",
            id: "ssz-clear",
            onclick: () => {
              local.rows = { front: [], middle: [], back: [] };
              local.sel = [];
              ctx.rerender();
            },
          },
          t("ssz.clear"),
        ),
        h(
          "button",
          {
            class: `primary${fouled ? " danger" : ""}`,
            id: "ssz-submit",
            disabled: !complete,
            onclick: () => {
              if (fouled) {
                local.confirmFoul = true;
                ctx.rerender();
              } else ctx.act(arrangement(local));
            },
          },
          t("ssz.submit"),
        ),
      );
  return h(
    "div",
    { class: "ssz-arrange" },
    view.special
      ? h(
          "div",
          { class: "special-bar" },
          h("span", {}, t("ssz.special", { name: term(view.special) })),
          h("button", { class: "primary", id: "declare", onclick: () => ctx.act({ type: "declare" }) }, t("ssz.declare", { name: term(view.special) })),
        )
      : null,
    suggestions,
    h("div", { class: "rows" }, ROWS.map((r) => rowZone(ctx, local, r, fouls, a2345))),
    warning,
    hand,
    sortBar,
    actions,
  );
}

const SUIT_ORDER = "shcd";

/** The hand in the order the player chose: by rank (high first) or by suit, then rank. */
export function sortCards(cards, mode = "rank") {
  const bySuit = (c) => (suitOf(c) ? SUIT_ORDER.indexOf(suitOf(c)) : -1);
  return [...cards].sort((a, b) =>
    mode === "suit" ? bySuit(a) - bySuit(b) || rankOf(b) - rankOf(a) : rankOf(b) - rankOf(a) || bySuit(a) - bySuit(b),
  );
}

function sameCards(a, b) {
  return a.length === b.length && [...a].sort().join() === [...b].sort().join();
}

/** One suggestion (推荐摆法) as it will be played: the three rows as cards, each row's hand
 * type, and the expected score per opponent; the one on the rows now is marked. */
function suggestionEl(ctx, local, s, i, a2345) {
  const rows = { front: splitCards(s.front), middle: splitCards(s.middle), back: splitCards(s.back) };
  const cats = ROWS.map((r, k) => ((s.categories || [])[k] ? term(s.categories[k]) : categoryName(rowValue(rows[r], a2345))));
  const chosen = ROWS.every((r) => sameCards(local.rows[r], rows[r]));
  return h(
    "button",
    {
      class: `suggestion sugg-card${chosen ? " chosen" : ""}`,
      dataset: { suggestion: i },
      "aria-pressed": chosen ? "true" : "false",
      onclick: () => {
        local.rows = { front: [...rows.front], middle: [...rows.middle], back: [...rows.back] };
        local.sel = [];
        ctx.rerender();
      },
    },
    h(
      "span",
      { class: "sugg-head" },
      h("b", {}, chosen ? `✔ ${i + 1}` : String(i + 1)),
      typeof s.score === "number" ? h("span", { class: `sugg-score ${s.score > 0 ? "win" : s.score < 0 ? "loss" : ""}` }, t("ssz.expected", { n: signedFixed(s.score) })) : null,
    ),
    ROWS.map((r, k) => h("span", { class: "sugg-row", dataset: { srow: r } }, cardsEl(rows[r].join(" "), { small: true }), h("small", { class: "sugg-cat" }, cats[k]))),
  );
}

function signedFixed(x) {
  const v = Math.round(x * 10) / 10;
  return v > 0 ? `+${v.toFixed(1)}` : v.toFixed(1);
}

function shownRows(hand, { animate = false, results = null } = {}) {
  if (!hand) return null;
  if (hand.declared !== undefined) {
    return h("div", { class: "shown declared" }, h("span", { class: "tag special" }, `${t("ssz.declared")} ${hand.declared ? term(hand.declared) : ""}`), cardsEl(hand.cards, { small: true }));
  }
  return h(
    "div",
    { class: `shown${hand.foul ? " fouled" : ""}` },
    hand.foul ? h("span", { class: "tag foul" }, t("ssz.foul_tag")) : null,
    ROWS.map((r, i) =>
      h(
        "div",
        { class: `shown-row${animate ? " reveal" : ""}`, style: animate ? `animation-delay:${i * 0.45}s` : null, dataset: { row: r } },
        cardsEl(hand[r], { small: true }),
        h("small", { class: "cat" }, term((hand.categories || [])[i] || "")),
        results && results[i] !== null && results[i] !== undefined
          ? h("span", { class: `row-mark ${results[i] > 0 ? "win" : results[i] < 0 ? "loss" : "tie"}` }, results[i] > 0 ? "▲" : results[i] < 0 ? "▼" : "=")
          : null,
      ),
    ),
  );
}

function myRowResults(showdown, me) {
  // Sum of +1/-1 per row over my pairs: shown as ▲ / ▼ marks next to my rows.
  const totals = [0, 0, 0];
  let any = false;
  for (const p of showdown.pairs) {
    if (!p.rows || !p.seats.includes(me)) continue;
    const sign = p.seats[0] === me ? 1 : -1;
    p.rows.forEach((x, i) => {
      if (x !== null) {
        totals[i] += sign * x;
        any = true;
      }
    });
  }
  return any ? totals : null;
}

/** What 打枪 added to a pair (the pair's score beyond its rows), as the shooter's gain. */
function gunPoints(p) {
  if (!p.row_scores) return "";
  const extra = p.scores[0] - p.row_scores.reduce((a, b) => a + b, 0);
  return extra ? ` +${Math.abs(extra)}` : "";
}

/** The pair by pair results (比牌明细): who beat whom in which row, 打枪, bonuses and the
 * points; drawn beside the table (under it on a phone), never over the seats. */
function pairsList(ctx) {
  const sd = ctx.view.showdown;
  const name = (i) => ctx.seatName(i);
  const items = sd.pairs.map((p, idx) =>
    h(
      "li",
      { class: "pair reveal", style: `animation-delay:${1.4 + idx * 0.15}s`, dataset: { pair: p.seats.join("-") } },
      h("span", {}, t("ssz.vs", { a: name(p.seats[0]), b: name(p.seats[1]) })),
      h(
        "span",
        { class: "rows-result", title: t("ssz.rows_hint") },
        // each row's mark, and what it moved where rows are worth more than one each (the
        // row's points or multiple with its bonus): the pair's score adds up on screen
        (p.rows || []).map((x, i) =>
          h(
            "b",
            { class: `row-r ${x > 0 ? "win" : x < 0 ? "loss" : "tie"}`, dataset: { rowScore: p.row_scores ? p.row_scores[i] : "" } },
            `${t(`ssz.short_${ROWS[i]}`)}${x > 0 ? "▲" : x < 0 ? "▼" : "="}${p.row_scores && x ? signed(p.row_scores[i]) : ""}`,
          ),
        ),
      ),
      p.gun !== null && p.gun !== undefined ? h("span", { class: "tag gun" }, `${t("ssz.gun")} ${name(p.gun)}${gunPoints(p)}`) : null,
      (p.bonuses || []).map((b) => h("span", { class: "tag bonus" }, `${term(b.name)} +${b.points}`)),
      h("span", { class: "pair-score" }, `${signed(p.scores[0])} / ${signed(p.scores[1])}`),
    ),
  );
  return h(
    "div",
    { class: "pairs-box", id: "showdown" },
    h("h3", {}, t("ssz.pairs")),
    t(`ssz.explain.${sd.scoring}`) !== `ssz.explain.${sd.scoring}` ? h("p", { class: "scoring-note" }, t(`ssz.explain.${sd.scoring}`)) : null,
    h("ul", { class: "pairs" }, items),
  );
}

/** Who won the most and why (the headline over 比牌明细): the top seat's pairs row by row,
 * 打枪, bonuses, special hands, 倒水, 全垒打, and how the score became 积分. Everything is
 * the showdown's own report (pairs, fouls, specials, homeruns, scores). */
function whyPanel(ctx) {
  const sd = ctx.view.showdown;
  const zh = lang() === "zh";
  const name = (i) => ctx.seatName(i);
  const scores = sd.scores;
  const best = Math.max(...scores);
  if (best <= 0) return whyBox(t("why.even"), []);
  const tops = scores.map((x, i) => (x === best ? i : -1)).filter((i) => i >= 0);
  const top = tops[0];
  const head = tops.length > 1 ? t("why.ssz.top_tie", { who: joined(tops.map(name), zh), n: signed(best) }) : t("why.ssz.top", { who: name(top), n: signed(best) });
  const lines = [];
  const rowsOf = (list) => joined(list.map((r) => t(`ssz.${ROWS[r]}`)), zh);
  for (const p of sd.pairs) {
    if (!p.seats.includes(top)) continue;
    const side = p.seats[0] === top ? 0 : 1;
    const opp = p.seats[1 - side];
    const n = signed(p.scores[side]);
    if (p.decided_by === "special") {
      const a = sd.specials[top] && term(sd.specials[top]);
      const b = sd.specials[opp] && term(sd.specials[opp]);
      if (a && b) lines.push(t("why.ssz.special_both", { opp: name(opp), a, b, n }));
      else if (a) lines.push(t("why.ssz.special_mine", { opp: name(opp), who: name(top), name: a, n }));
      else lines.push(t("why.ssz.special_theirs", { opp: name(opp), name: b, n }));
      continue;
    }
    if (p.decided_by === "foul") {
      const fouled = [top, opp].filter((s) => sd.fouls[s]);
      lines.push(fouled.length > 1 ? t("why.ssz.foul_both", { opp: name(opp), n }) : t("why.ssz.foul_pair", { opp: name(opp), fouled: name(fouled[0]), n }));
      continue;
    }
    const sign = side === 0 ? 1 : -1;
    const res = (p.rows || []).map((x) => (x === null || x === undefined ? null : sign * x));
    const pick = (v) => res.map((x, i) => (x === v ? i : -1)).filter((i) => i >= 0);
    const parts = [];
    if (pick(1).length) parts.push(t("why.ssz.won", { rows: rowsOf(pick(1)) }));
    if (pick(-1).length) parts.push(t("why.ssz.lost", { rows: rowsOf(pick(-1)) }));
    if (pick(0).length) parts.push(t("why.ssz.tied", { rows: rowsOf(pick(0)) }));
    if (p.gun !== null && p.gun !== undefined) parts.push(p.gun === top ? t("why.ssz.gun") : t("why.ssz.gun_by", { who: name(p.gun) }));
    for (const b of p.bonuses || []) {
      const mine = b.seat === top;
      parts.push(t("why.ssz.bonus", { name: term(b.name), row: t(`ssz.${ROW_OF[b.row] || b.row}`), n: signed(mine ? b.points : -b.points) }));
    }
    lines.push(t("why.ssz.rows", { opp: name(opp), rows: parts.join(zh ? "，" : ", "), n }));
  }
  sd.specials.forEach((sp, s) => {
    if (sp) lines.push(t("why.ssz.special", { who: name(s), name: term(sp) }));
  });
  sd.fouls.forEach((f, s) => {
    if (f) lines.push(t("why.ssz.fouled", { who: name(s) }));
  });
  for (const s of sd.homeruns || []) lines.push(t("why.ssz.homerun", { who: name(s) }));
  const stake = stakeOf(ctx.handOver);
  if (stake !== null && ctx.handOver) {
    lines.push(t("why.stake", { stake, who: name(top), score: signed(best), delta: signed(ctx.handOver.deltas[top]) }));
  }
  return whyBox(head, lines);
}

function showdownCenter(ctx) {
  const sd = ctx.view.showdown;
  return h(
    "div",
    { class: "showdown-center" },
    h("div", { class: "chip" }, t("ssz.showdown")),
    (sd.homeruns || []).length
      ? h("div", { class: "homerun reveal", style: "animation-delay:1.35s" }, `${t("ssz.homerun")}: ${sd.homeruns.map((i) => ctx.seatName(i)).join(t("list.sep"))}`)
      : null,
  );
}

/** Banker games with bets (赔率, e.g. 1301-payout): each player bets before arranging. */
function betPanel(ctx) {
  const view = ctx.view;
  const hand = view.hand ? cardsEl(view.hand) : null;
  if (view.banker === ctx.seat) return h("div", { class: "ssz-bet" }, h("p", { class: "note" }, t("bz.banker_wait")), hand);
  const placed = (view.bets || [])[ctx.seat];
  if (placed !== null && placed !== undefined) {
    return h("div", { class: "ssz-bet" }, h("p", { class: "ok-note" }, `${t("bz.your_bet", { n: placed })} · ${t("bz.wait_bets")}`), hand);
  }
  const amounts = (ctx.legal || []).filter((a) => a.type === "bet").map((a) => a.amount);
  return h(
    "div",
    { class: "ssz-bet bet-panel", id: "bet-panel" },
    h("div", { class: "chips" }, amounts.map((n) => h("button", { class: "bet-chip", dataset: { bet: n }, onclick: () => ctx.act({ type: "bet", amount: n }) }, String(n)))),
    hand,
  );
}

export function render(ctx) {
  const view = ctx.view;
  const sd = view.showdown;
  let mine = null;
  if (ctx.seat !== null && view.phase === "betting") {
    mine = betPanel(ctx);
  } else if (ctx.seat !== null && view.phase === "arranging") {
    if (view.mine) mine = h("div", { class: "ssz-done" }, h("p", { class: "ok-note" }, t("ssz.arranged")), shownRows(view.mine));
    else if (view.must_declare) {
      mine = h(
        "div",
        { class: "ssz-declare" },
        h("p", {}, t("ssz.must_declare", { name: view.special })),
        cardsEl(view.hand),
        h("button", { class: "primary", id: "declare", onclick: () => ctx.act({ type: "declare" }) }, t("ssz.declare", { name: view.special })),
      );
    } else mine = arrangePanel(ctx);
  } else if (sd && ctx.seat !== null) {
    mine = h("div", { class: "ssz-mine-result" }, shownRows(sd.hands[ctx.seat], { animate: true, results: myRowResults(sd, ctx.seat) }), whyPanel(ctx), pairsList(ctx));
  } else if (sd) {
    mine = h("div", { class: "ssz-watch-result" }, whyPanel(ctx), pairsList(ctx));
  }
  const center = sd
    ? showdownCenter(ctx)
    : h("div", { class: "chip" }, `${phaseName(view.phase)} · ${t("ssz.scoring", { s: t(`ssz.scoring.${view.scoring}`) })}`);
  return { center, mine };
}

export function seatExtra(ctx, seat) {
  const view = ctx.view;
  const sd = view.showdown;
  if (sd) {
    const hand = sd.hands[seat];
    return h(
      "div",
      { class: "seat-extra" },
      seat === ctx.seat ? null : shownRows(hand, { animate: true }),
      h("div", { class: `seat-score ${sd.scores[seat] > 0 ? "win" : sd.scores[seat] < 0 ? "loss" : ""}` }, signed(sd.scores[seat])),
    );
  }
  const bet = (view.bets || [])[seat];
  const betTag = bet !== null && bet !== undefined ? h("span", { class: "bet" }, `${t("bz.bet")} ${bet}`) : null;
  if (view.phase === "betting") {
    return h("div", { class: "seat-extra" }, betTag || (view.banker === seat ? null : h("span", { class: "bet none" }, "…")));
  }
  const ready = (view.ready || [])[seat];
  return h(
    "div",
    { class: `seat-extra status ${ready ? "ready" : "thinking"}` },
    betTag,
    h("div", {}, ready ? `✔ ${t("ssz.ready")}` : `… ${t("ssz.thinking")}`),
  );
}

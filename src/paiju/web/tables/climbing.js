// The climbing family (出牌 games: beat the play on the table or pass; the last player left
// unbeaten leads again; finish first): 鞍山甲乙丙 (6 seats, 3 against 3), 鞍山放羊 (4 seats, a
// called partner, 亮) and, on the same module, 宁城打弹子 (2 against 2, 明牌, bombs, tribute).
//
// What a player sees: the hand sorted by the game's own order (big cards first), tap to
// select; the cards that belong to no legal play are dimmed; 出牌 sends the selection when
// it is one of the server's legal plays, and otherwise asks the server's check call and
// shows its reason without playing; 提示 cycles through the legal plays, smallest first;
// 不出 passes. The felt shows the play to beat and who made it, each seat's play or pass of
// this round, card counts, finishing places (头游/二游/…) and the teams as they become known;
// 放羊 adds the banker's call (the called card, 亮 or not) and the revealed partner.
//
// Extension points for further games of the family (打弹子):
//   PROFILES[family]      the rank order, the hand layout ("stacks" by rank with counts, or
//                         a "row"), which stacks are bombs, the seats' names;
//   DECISIONS[type]       the panel for a decision other than play/pass (call, declare,
//                         tribute, return): a function (ctx, actions) -> Node, where
//                         `actions` are the legal actions of that type;
//   viewOf(view)          the one place that reads the server's view (field names).

import { SUIT_NAMES, cardEl, cardsEl, splitCards } from "../js/cards.js";
import { token } from "../js/api.js";
import { h, signed } from "../js/dom.js";
import { prefs, setPref } from "../js/prefs.js";
import { STRINGS, lang, phaseName, t } from "../js/i18n.js";
import { counterStrip, lastTrickButton, lastTrickPanel, ownCards } from "./counter.js";
import { clearGroups, groupPicked, groupsOf, lipaiBar, placeGroups } from "./lipai.js";
import { RESULT_STRINGS } from "./result-strings.js";

Object.assign(STRINGS.zh, RESULT_STRINGS.zh);
Object.assign(STRINGS.en, RESULT_STRINGS.en);

function w(key, vars = {}) {
  return t(`cl.${key}`, vars);
}

/** A string with a family's own wording where it has one (``cl.KEY.FAMILY``). */
function wf(ctx, key, vars = {}) {
  const own = `cl.${key}.${familyOf(ctx)}`;
  const text = t(own, vars);
  return text === own ? w(key, vars) : text;
}

// ------------------------------------------------------------------ profiles

const RANKS_3_HIGH = ["4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A", "2", "3", "BJ", "RJ"];
const RANKS_2_HIGH = ["3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A", "2", "BJ", "RJ"];

/** 甲乙丙's seat names in playing order ("甲 A乙 C丙 B": 甲乙丙 at 0, 2, 4). */
const JYB_NAMES = ["甲", "A", "乙", "C", "丙", "B"];
/** The seats' names in English: 甲 乙 丙 by their sounds (the team is Jia-Yi-Bing). */
const JYB_NAMES_EN = ["Jia", "A", "Yi", "C", "Bing", "B"];

export const PROFILES = {
  jiayibing: { order: RANKS_2_HIGH, layout: "stacks", seatNames: JYB_NAMES, bombAt: 0 },
  fangyang: { order: RANKS_3_HIGH, layout: "row", seatNames: null, bombAt: 0 },
  // 宁城打弹子: 27 cards grouped by rank; 3 or more of a rank (砟子) and the jokers drawn as bombs
  danzi: { order: RANKS_3_HIGH, layout: "stacks", seatNames: null, bombAt: 3, jokerBombs: true },
};

const CODE_FAMILY = { "anshan-jiayibing": "jiayibing", "anshan-fangyang": "fangyang", "ningcheng-danzi": "danzi" };

export function familyOf(ctx) {
  const view = ctx.view || {};
  return (ctx.variant && ctx.variant.family) || view.family || CODE_FAMILY[view.code] || "";
}

/** The family's profile, with the rank order the server's view states (low to high). */
export function profileOf(ctx) {
  const base = PROFILES[familyOf(ctx)] || PROFILES.jiayibing;
  const text = ctx.view && ctx.view.order;
  if (!text) return base;
  if (base._orderText !== text) {
    base._orderText = text;
    base.order = splitCards(text).map((r) => (r === "10" ? "T" : r));
  }
  return base;
}

export function rankKey(card) {
  return card === "BJ" || card === "RJ" ? card : card[0];
}

const SUIT_ORDER = "shcd";

/** Card strength in the profile's order (higher is bigger); suits break ties for drawing. */
export function strength(profile, card) {
  return profile.order.indexOf(rankKey(card)) * 4 + (3 - Math.max(0, SUIT_ORDER.indexOf(card[1])));
}

/** The hand as drawn: big cards first, then by suit (positions index the view's hand). */
export function sortedHand(profile, cards) {
  return cards.map((card, i) => ({ card, i })).sort((a, b) => strength(profile, b.card) - strength(profile, a.card) || a.i - b.i);
}

function rankText(rank) {
  if (rank === "BJ") return t("cl.bj");
  if (rank === "RJ") return t("cl.rj");
  return rank === "T" ? "10" : rank;
}

// ------------------------------------------------------------------ the view

const PLACE_KEYS = ["place1", "place2", "place3", "place4", "place5", "place6"];

/** A place's name: 头游, 二游, …, 末游 (the last of n). */
export function placeName(k, n) {
  if (k === n - 1 && n > 2) return w("place_last");
  return w(PLACE_KEYS[k] || "place_n", { n: k + 1 });
}

/** Everything the table reads from the server's view, in one place. */
export function viewOf(view) {
  const n = (view.hand_sizes || []).length;
  const trick = (view.trick || []).map((x) => ({ seat: x.seat, pass: !!x.pass, cards: x.cards || "" }));
  return {
    n,
    phase: view.phase,
    hand: splitCards(view.hand),
    hands: view.hands || [],
    sizes: view.hand_sizes || [],
    current: view.table && view.table.cards ? view.table : null,
    trick,
    lastTrick: (view.last_trick || []).map((x) => ({ seat: x.seat, pass: !!x.pass, cards: x.cards || "" })),
    finished: view.finished || [],
    stopped: view.stopped || [],
    teams: view.teams || null,
    banker: view.banker ?? null,
    called: namedCard(view.called),
    shown: !!view.shown,
    partner: view.partner ?? null,
    mode: view.mode || null,
    special3: view.special3 || null,
    leader: view.leader ?? null,
    turn: view.turn ?? null,
    jiefengFrom: view.jiefeng_from ?? null,
    result: view.result || null,
    // 打弹子
    tribute: view.tribute || null,
    declaration: view.declaration || null,
    declarer: view.declarer ?? null,
    declareTurn: view.declare_turn ?? null,
    totals: view.totals || null,
    target: view.target ?? null,
  };
}

// ------------------------------------------------------------------ legal plays

function cardsKey(cards) {
  return [...cards].sort().join(" ");
}

function playsOf(legal) {
  return (legal || []).filter((a) => a.type === "play");
}

/** The legal plays, smallest first: by the top card's strength, then fewer cards. */
export function hintOrder(profile, plays) {
  const top = (a) => Math.max(...splitCards(a.cards).map((c) => profile.order.indexOf(rankKey(c))));
  return [...plays].sort((a, b) => top(a) - top(b) || splitCards(a.cards).length - splitCards(b.cards).length);
}

/** Positions in `hand` that make up `cards` (a multiset), preferring `prefer` order. */
function positionsFor(hand, cards, prefer) {
  const left = [...splitCards(cards)];
  const out = [];
  for (const i of prefer) {
    const at = left.indexOf(hand[i]);
    if (at >= 0) {
      out.push(i);
      left.splice(at, 1);
    }
  }
  return left.length ? null : out;
}

// ------------------------------------------------------------------ the server's check call

/** Render a refusal: the engine's reason in the player's language, else its message. */
export function refusalText(err, family = "") {
  if (!err) return "";
  const params = { ...(err.params || {}) };
  for (const [k, v] of Object.entries(params)) {
    if (k === "rank") params[k] = rankText(String(v));
    else if (k === "cards" || k === "table" || k === "card") params[k] = splitCards(String(v)).map(cardText).join(" ");
    else if ((k === "kind" || k === "table_kind") && lang() === "en") params[k] = kindText(String(v));
  }
  if (params.why !== undefined) {
    const why = `cl.why.${params.why}`;
    if (t(why) !== why) params.why = t(why);
  }
  if (err.reason) {
    // a family's own wording first (打弹子's kinds differ from 鞍山's), then the family's
    for (const key of [`cl.reason.${family}.${err.reason}`, `cl.reason.${err.reason}`]) {
      const text = t(key, params);
      if (text !== key) return text;
    }
  }
  return err.message || err.code || "";
}

/** POST /api/rooms/ID/check: null when the action is legal, else the error object. */
async function serverCheck(roomId, action) {
  try {
    const answer = await fetch(`/api/rooms/${roomId}/check`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json", Authorization: `Bearer ${token() || ""}` },
      body: JSON.stringify(action),
    });
    if (answer.ok) return null;
    const data = await answer.json().catch(() => ({}));
    return (data && data.error) || { code: String(answer.status), message: answer.statusText };
  } catch (exc) {
    return { code: "network", message: String(exc) };
  }
}

/** GET /api/rooms/ID/suggestions: the engine's advice for this seat (actions, best first),
 * or [] where there is none (no room: a drawing; an older server). */
async function serverAdvice(roomId) {
  if (roomId === undefined || roomId === null || typeof fetch === "undefined") return [];
  try {
    const answer = await fetch(`/api/rooms/${roomId}/suggestions?limit=10`, { headers: { Accept: "application/json", Authorization: `Bearer ${token() || ""}` } });
    if (!answer.ok) return [];
    const data = await answer.json();
    return Array.isArray(data.suggestions) ? data.suggestions : [];
  } catch {
    return [];
  }
}

/** The plays 提示 cycles through: the advised plays that are legal now, then every other
 * legal play smallest first. */
export function adviceOrder(ctx, advice) {
  const plays = playsOf(ctx.legal);
  const keyOf = (a) => cardsKey(splitCards(a.cards));
  const legalKeys = new Set(plays.map(keyOf));
  const out = [];
  const seen = new Set();
  for (const a of [...advice.filter((x) => x.type === "play" && legalKeys.has(keyOf(x))), ...hintOrder(profileOf(ctx), plays)]) {
    if (seen.has(keyOf(a))) continue;
    seen.add(keyOf(a));
    out.push(a);
  }
  return out;
}

function send(ctx, action) {
  ctx.local.refusal = null;
  ctx.local.picked = [];
  ctx.act(action);
}

/** Send the selected cards as a ``type`` action (出牌, 进贡, 还贡): a listed legal action
 * as it is; anything else only after the server's check call says it is legal. */
async function trySend(ctx, type = "play") {
  const local = ctx.local;
  const now = local.ctx || ctx;
  const hand = viewOf(now.view).hand;
  const cards = local.picked.filter((i) => i < hand.length).map((i) => hand[i]);
  if (!cards.length) return;
  const action = { type, cards: cards.join(" ") };
  const listed = (now.legal || []).filter((a) => a.type === type && a.cards);
  const match = listed.find((a) => cardsKey(splitCards(a.cards)) === cardsKey(cards));
  if (match) return send(now, match);
  if (now.roomId === undefined || now.roomId === null) {
    // no room to ask (a drawing outside a table): a listed game refuses what it lacks
    if (listed.length) {
      local.refusal = { message: w("not_legal") };
      return now.rerender();
    }
    return send(now, action);
  }
  // not one of the listed plays: the server says why (nothing is played)
  const sentFor = now.view;
  const err = await serverCheck(now.roomId, action);
  const latest = local.ctx || now;
  if (latest.view !== sentFor) return;
  if (err === null) return send(latest, action);
  local.refusal = err;
  latest.rerender();
}

// ------------------------------------------------------------------ decisions other than play

function actionButton(ctx, action, label, cls = "action") {
  return h("button", { class: cls, dataset: { action: JSON.stringify(action) }, onclick: () => send(ctx, action) }, label);
}

/** 放羊's call: pick the card to call (A or below), 亮 or not, then 叫牌. */
/** A card named by rank and suit (``{"rank": "10", "suit": "s"}``) as card text (Ts). */
export function namedCard(x) {
  if (!x) return null;
  if (typeof x === "string") return x;
  if (x.card) return x.card;
  return `${x.rank === "10" ? "T" : x.rank}${x.suit}`;
}

function callPanel(ctx, actions) {
  const local = ctx.local;
  actions = actions.map((a) => ({ ...a, card: namedCard(a) }));
  const cards = [...new Set(actions.map((a) => a.card))];
  const profile = profileOf(ctx);
  cards.sort((a, b) => strength(profile, b) - strength(profile, a));
  const canShow = actions.some((a) => a.shown) && actions.some((a) => !a.shown);
  if (local.callShown === undefined) local.callShown = false;
  const hand = new Set(viewOf(ctx.view).hand);
  const chosen = local.callCard && cards.includes(local.callCard) ? local.callCard : null;
  const pick = chosen ? actions.find((a) => a.card === chosen && (!canShow || !!a.shown === local.callShown)) : null;
  const action = pick ? Object.fromEntries(Object.entries(pick).filter(([k]) => k !== "card")) : null;
  const bySuit = {};
  for (const c of cards) (bySuit[c[1]] = bySuit[c[1]] || []).push(c);
  return h(
    "div",
    { class: "cl-call", id: "cl-call" },
    h("p", { class: "cl-note" }, w("call_hint")),
    h(
      "div",
      { class: "cl-call-grid" },
      Object.entries(bySuit).map(([suit, list]) =>
        h(
          "div",
          { class: "cl-call-suit", dataset: { suit } },
          list.map((c) => {
            const el = cardEl(c, { small: true });
            el.classList.add("pick");
            if (c === chosen) el.classList.add("selected");
            if (hand.has(c)) el.classList.add("mine-card");
            el.addEventListener("click", () => {
              local.callCard = c;
              ctx.rerender();
            });
            return el;
          }),
        ),
      ),
    ),
    chosen
      ? h("p", { class: "cl-note", id: "cl-call-mode" }, hand.has(chosen) ? w("call_alone", { c: cardText(chosen) }) : w("call_partner", { c: cardText(chosen) }))
      : null,
    h(
      "div",
      { class: "buttons" },
      canShow
        ? h(
            "label",
            { class: "field check cl-liang" },
            h("input", {
              type: "checkbox",
              id: "cl-liang",
              checked: local.callShown,
              onchange: (ev) => {
                local.callShown = ev.target.checked;
                ctx.rerender();
              },
            }),
            h("span", {}, w("liang_choice")),
          )
        : null,
      h(
        "button",
        { class: "primary", id: "cl-call-submit", disabled: !action, onclick: () => action && send(ctx, action) },
        w("call"),
      ),
    ),
  );
}

/** A decision the table has no panel for: the legal actions as labelled buttons. */
function buttonsPanel(ctx, actions) {
  return h(
    "div",
    { class: "legal-actions" },
    actions.map((a) => {
      const rest = Object.entries(a)
        .filter(([k]) => k !== "type")
        .map(([k, v]) => `${k} ${v}`)
        .join(" · ");
      const label = t(`cl.act.${a.type}`) === `cl.act.${a.type}` ? a.type : t(`cl.act.${a.type}`);
      return actionButton(ctx, a, rest ? `${label}: ${rest}` : label);
    }),
  );
}

/** 打弹子's 宣战 offer: both buttons say what is at stake (the room's points). */
function declarePanel(ctx) {
  const o = (ctx.view && ctx.view.options) || {};
  const stakes = {
    x: o.declare_multiplier ?? 2,
    fail: o.declare_fail_points ?? 3,
    p12: o.points_12 ?? 3,
    p13: o.points_13 ?? 2,
    p14: o.points_14 ?? 1,
  };
  const legal = ctx.legal || [];
  const declare = legal.find((a) => a.type === "declare");
  const decline = legal.find((a) => a.type === "decline");
  return h(
    "div",
    { class: "cl-declare-offer", id: "cl-declare-offer" },
    h("p", { class: "cl-note" }, w("declare_offer", stakes)),
    h(
      "div",
      { class: "legal-actions cl-declare-buttons" },
      declare ? actionButton(ctx, declare, w("act.declare_stakes", stakes), "action primary") : null,
      decline ? actionButton(ctx, decline, w("act.decline_stakes", stakes)) : null,
    ),
  );
}

export const DECISIONS = {
  call: callPanel,
  pick: pickPanel,
  declare: declarePanel,
  decline: (ctx, actions) => ((ctx.legal || []).some((a) => a.type === "declare") ? null : buttonsPanel(ctx, actions)),
};

/** Decisions made by choosing cards from the hand (the engine lists no actions for them):
 * the phase -> the action type, how many cards, the hint. 打弹子's 骚贡 and 还贡. */
export const CARD_CHOICES = {
  tribute: { type: "tribute", count: (v, seat) => ((v.tribute && v.tribute.owed) || []).find((o) => o.seat === seat)?.count ?? 0 },
  returning: { type: "return", count: (v, seat) => splitCards(((v.tribute && v.tribute.received) || {})[String(seat)]).length },
};

/** 挑选 (打弹子's 2/2 tribute): one button per legal pair of the shown cards. */
function pickPanel(ctx, actions) {
  return h(
    "div",
    { class: "cl-pick", id: "cl-pick" },
    h("p", { class: "cl-note" }, w(ctx.view.phase === "picking_returns" ? "pick_returns_hint" : "pick_hint")),
    h(
      "div",
      { class: "legal-actions" },
      actions.map((a) => h("button", { class: "action cl-pick-button", dataset: { action: JSON.stringify(a) }, onclick: () => send(ctx, a) }, cardsEl(a.cards, { small: true }))),
    ),
  );
}

function chooseControls(ctx, choice) {
  const local = ctx.local;
  const v = viewOf(ctx.view);
  const need = choice.count(v, ctx.seat);
  const n = local.picked.length;
  return h(
    "div",
    { class: "cl-controls" },
    h("p", { class: "cl-note", id: "cl-note" }, w(`choose.${choice.type}`, { n: need })),
    h(
      "div",
      { class: "buttons cl-buttons" },
      h("span", { class: "muted", id: "cl-count" }, w("selected", { n, need })),
      h("button", { class: "ghost", id: "cl-clear", disabled: !n, onclick: () => { local.picked = []; local.refusal = null; (local.ctx || ctx).rerender(); } }, w("clear")),
      h("button", { class: "primary", id: "cl-give", disabled: n !== need, onclick: () => trySend(ctx, choice.type) }, w(`act.${choice.type}`)),
    ),
  );
}

/** A card as inline text (♥K), red for hearts and diamonds. */
function cardSpan(card) {
  const red = card === "RJ" || card[1] === "h" || card[1] === "d";
  return h("b", { class: `cl-card-text${red ? " red" : ""}`, dataset: { card } }, cardText(card));
}

function cardText(card) {
  if (card === "BJ" || card === "RJ") return rankText(card);
  return `${SUIT_NAMES[card[1]] || card[1]}${rankText(card[0])}`;
}

// ------------------------------------------------------------------ the hand

/** The hand's order by the player's one-tap sort (remembered by the browser): 按大小 (big
 * cards first, the family's order), 按花色 (by suit, then big first; drawn as a row), 按张数
 * (the ranks held most often first). */
function sortMode() {
  return prefs().clSort || "rank";
}

function orderedHand(profile, hand) {
  const order = sortedHand(profile, hand);
  const mode = sortMode();
  if (mode === "suit") {
    const suit = (c) => (c === "BJ" || c === "RJ" ? -1 : SUIT_ORDER.indexOf(c[1]));
    return [...order].sort((a, b) => suit(a.card) - suit(b.card) || strength(profile, b.card) - strength(profile, a.card));
  }
  if (mode === "count") {
    const counts = {};
    for (const c of hand) counts[rankKey(c)] = (counts[rankKey(c)] || 0) + 1;
    return [...order].sort((a, b) => counts[rankKey(b.card)] - counts[rankKey(a.card)] || strength(profile, b.card) - strength(profile, a.card));
  }
  return order;
}

/** The sort buttons beside 理牌, and 炸弹成组 (every bomb of the hand a group of its own)
 * where the hand holds bombs. */
function sortBar(ctx) {
  const now = sortMode();
  const v = viewOf(ctx.view);
  const bombs = bombStacks(ctx, v.hand);
  const button = (mode) =>
    h(
      "button",
      {
        type: "button",
        class: `ghost small-button${now === mode ? " on" : ""}`,
        id: `cl-sort-${mode}`,
        "aria-pressed": now === mode ? "true" : "false",
        onclick: () => {
          setPref("clSort", mode);
          (ctx.local.ctx || ctx).rerender();
        },
      },
      w(`sort.${mode}`),
    );
  return h(
    "div",
    { class: "buttons cl-sort-bar", id: "cl-sort-bar" },
    ["rank", "suit", "count"].map(button),
    bombs.length
      ? h(
          "button",
          {
            type: "button",
            class: "ghost small-button",
            id: "cl-group-bombs",
            onclick: () => {
              const now2 = ctx.local.ctx || ctx;
              const hand = viewOf(now2.view).hand;
              for (const stack of bombStacks(now2, hand)) groupPicked(now2, hand, stack);
              now2.local.picked = [];
              now2.rerender();
            },
          },
          w("sort.bombs"),
        )
      : null,
  );
}

/** The bombs of the hand as lists of positions (a rank held ``bombAt`` times or more; 打弹子's
 * jokers together), biggest first. */
function bombStacks(ctx, hand) {
  const profile = profileOf(ctx);
  const bombAt = profile.bombAt || ((ctx.view.options || {}).quads_beat_all ? 4 : 0);
  if (!bombAt) return [];
  const byRank = new Map();
  hand.forEach((c, i) => {
    const r = c === "BJ" || c === "RJ" ? "J*" : rankKey(c);
    byRank.set(r, [...(byRank.get(r) || []), i]);
  });
  const out = [];
  for (const [r, at] of byRank) {
    if (r === "J*" ? profile.jokerBombs && at.length >= 2 : at.length >= bombAt) out.push(at);
  }
  return out;
}

function handPicker(ctx, mode) {
  const local = ctx.local;
  const v = viewOf(ctx.view);
  const profile = profileOf(ctx);
  const hand = v.hand;
  const order = orderedHand(profile, hand);
  const inSome = new Set();
  if (mode === "play") for (const a of playsOf(ctx.legal)) for (const c of splitCards(a.cards)) inSome.add(c);
  const sp = special3Of(v);
  const markAt = sp && sp.holder === ctx.seat && v.phase === "playing" && !v.trick.length && !v.lastTrick.length ? hand.indexOf(sp.card) : -1;
  const cardNode = ({ card, i }) => {
    const el = cardEl(card);
    el.dataset.index = i;
    if (i === markAt) el.classList.add("cl-special");
    if (mode !== "play" && mode !== "choose") return el;
    el.classList.add("pick");
    if (local.picked.includes(i)) el.classList.add("selected");
    else if (ctx.legal && !inSome.has(card)) el.classList.add("dim");
    el.addEventListener("click", () => {
      const now = local.ctx || ctx;
      const sel = local.picked;
      const at = sel.indexOf(i);
      if (at >= 0) sel.splice(at, 1);
      else sel.push(i);
      local.refusal = null;
      local.hint = -1;
      now.rerender();
    });
    return el;
  };
  // 理牌: the player's groups first, each apart, then the rest of the hand as usual
  const { placed, used } = placeGroups(hand, ctx.seat === null ? [] : groupsOf(ctx), order.map((x) => x.i));
  const groupsEl = placed.length
    ? h(
        "div",
        { class: "cl-groups", id: "cl-groups" },
        placed.map((at, g) =>
          h(
            "div",
            { class: "cl-group", dataset: { group: g, cards: at.map((i) => hand[i]).join(" ") } },
            mode === "play" || mode === "choose"
              ? h(
                  "button",
                  {
                    type: "button",
                    class: "ghost cl-group-pick",
                    onclick: () => {
                      local.picked = [...at];
                      local.refusal = null;
                      (local.ctx || ctx).rerender();
                    },
                  },
                  t("lipai.pick"),
                )
              : null,
            h("div", { class: "cards cl-group-cards" }, at.map((i) => cardNode({ card: hand[i], i }))),
          ),
        ),
      )
    : null;
  const rest = order.filter((x) => !used.has(x.i));
  const drawn = (node) => {
    if (!groupsEl) return node;
    node.id = "cl-hand-rest"; // #cl-hand is the whole hand: the groups and the rest
    return h("div", { class: "cl-hand-grouped", id: "cl-hand", dataset: { count: hand.length } }, groupsEl, node);
  };
  if (profile.layout === "stacks" && sortMode() !== "suit") {
    const stacks = [];
    for (const item of rest) {
      const rank = rankKey(item.card);
      let s = stacks.find((x) => x.rank === rank);
      if (!s) stacks.push((s = { rank, items: [] }));
      s.items.push(item);
    }
    const jokers = hand.filter((c) => c === "BJ" || c === "RJ").length;
    // 四同张 drawn as bombs where the room plays them so (quads_beat_all)
    const bombAt = profile.bombAt || ((ctx.view.options || {}).quads_beat_all ? 4 : 0);
    return drawn(h(
      "div",
      { class: `cl-hand stacks${stacks.length > 11 ? " many" : ""}`, id: "cl-hand", dataset: { count: hand.length } },
      stacks.map((s) =>
        h(
          "div",
          { class: `cl-stack${isBomb(profile, s, jokers, bombAt) ? " bomb" : ""}`, dataset: { rank: s.rank, count: s.items.length } },
          s.items.length > 1 ? h("span", { class: "cl-count" }, `×${s.items.length}`) : null,
          s.items.map(cardNode),
        ),
      ),
    ));
  }
  return drawn(h("div", { class: "cards hand cl-hand row", id: "cl-hand", dataset: { count: hand.length } }, rest.map(cardNode)));
}

/** A stack drawn as a bomb: ``bombAt`` cards of a plain rank or more, or (打弹子) two or
 * more jokers in the hand (双王, 三王, 四王). */
function isBomb(profile, stack, jokers, bombAt) {
  if (!bombAt) return false;
  if (stack.rank === "BJ" || stack.rank === "RJ") return !!profile.jokerBombs && jokers >= 2;
  return stack.items.length >= bombAt;
}

function handOrNothing(ctx, mode) {
  return viewOf(ctx.view).hand.length ? handPicker(ctx, mode) : null;
}

// ------------------------------------------------------------------ the player's area

function playControls(ctx) {
  const local = ctx.local;
  const v = viewOf(ctx.view);
  const profile = profileOf(ctx);
  const plays = hintOrder(profile, playsOf(ctx.legal));
  const pass = (ctx.legal || []).find((a) => a.type === "pass");
  const hand = v.hand;
  const picked = local.picked.map((i) => hand[i]);
  const matches = plays.some((a) => cardsKey(splitCards(a.cards)) === cardsKey(picked));
  const lead = !v.current;
  let note;
  // 要不起 with the player's auto-pass on: the server passes after a short beat
  const autoPassing = !plays.length && pass && ctx.prefs && ctx.prefs.autoPass && ctx.roomId !== undefined && ctx.roomId !== null;
  if (lead) note = wf(ctx, "lead_hint");
  else if (autoPassing) note = w("auto_passing");
  else if (!plays.length) note = w("cannot_beat");
  else note = w("beat_hint", { who: ctx.seatName(v.current.seat) });
  return h(
    "div",
    { class: "cl-controls" },
    h("p", { class: `cl-note${autoPassing ? " cl-auto-pass" : ""}`, id: "cl-note" }, note),
    h(
      "div",
      { class: "buttons cl-buttons" },
      pass ? h("button", { class: plays.length ? "ghost" : "primary", id: "cl-pass", dataset: { action: JSON.stringify(pass) }, onclick: () => send(local.ctx || ctx, pass) }, plays.length ? w("pass") : w("pass_cannot")) : null,
      plays.length
        ? h(
            "button",
            {
              class: "ghost",
              id: "cl-hint",
              onclick: async () => {
                let now = local.ctx || ctx;
                if (local.adviceFor !== now.view) {
                  // 推荐: the server's advice (the family bot's choice) leads the cycle
                  local.adviceFor = now.view;
                  local.hint = -1;
                  local.advice = await serverAdvice(now.roomId);
                  now = local.ctx || ctx;
                  if (local.adviceFor !== now.view) return;
                }
                const list = adviceOrder(now, local.advice || []);
                if (!list.length) return;
                local.hint = ((local.hint ?? -1) + 1) % list.length;
                const nowHand = viewOf(now.view).hand;
                const prefer = sortedHand(profileOf(now), nowHand).map((x) => x.i).reverse();
                local.picked = positionsFor(nowHand, list[local.hint].cards, prefer) || [];
                local.refusal = null;
                now.rerender();
              },
            },
            w("hint"),
          )
        : null,
      h(
        "button",
        {
          class: "ghost",
          id: "cl-clear",
          disabled: !picked.length,
          onclick: () => {
            local.picked = [];
            local.refusal = null;
            (local.ctx || ctx).rerender();
          },
        },
        w("clear"),
      ),
      h(
        "button",
        { class: `primary${matches ? " ready" : ""}`, id: "cl-play", disabled: !picked.length, onclick: () => trySend(ctx, "play") },
        picked.length ? w("play_n", { n: picked.length }) : w("play"),
      ),
    ),
  );
}

function decisionPanel(ctx) {
  const legal = ctx.legal || [];
  const types = [...new Set(legal.map((a) => a.type))].filter((x) => x !== "play" && x !== "pass");
  return types.map((type) => (DECISIONS[type] || buttonsPanel)(ctx, legal.filter((a) => a.type === type)));
}

// ------------------------------------------------------------------ the felt

function teamOf(v, seat) {
  if (!v.teams) return null;
  const x = v.teams[seat];
  return x === undefined ? null : x;
}

/** The family's own seat names in the player's language (甲乙丙's 甲 A 乙 C 丙 B), or null. */
function seatNamesOf(ctx) {
  const names = profileOf(ctx).seatNames;
  return names === JYB_NAMES && lang() === "en" ? JYB_NAMES_EN : names;
}

function seatLabel(ctx, seat) {
  const names = seatNamesOf(ctx);
  return names ? `${names[seat]} ${ctx.seatName(seat)}` : ctx.seatName(seat);
}

/** A kind's name in the player's language (the engine names kinds in Chinese). */
function kindText(kindZh) {
  if (lang() !== "en") return kindZh;
  const key = `cl.kind.${kindZh}`;
  const text = t(key);
  return text === key ? kindZh : text;
}

function describePlay(play) {
  if (!play) return "";
  const cards = splitCards(play.cards);
  const rank = play.rank || (cards.length ? rankKey(cards[0]) : "");
  return play.kind_zh ? `${kindText(play.kind_zh)} ${rankText(rank)}` : rankText(rank);
}

const NATURAL = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K"];

/**
 * A play's cards in the order players lay them down: a run (龙, 双龙, 连蛋, …) from its
 * bottom card up in the natural order A 2 3 … K (A also above K), whatever order the engine
 * lists it in (打弹子's single order puts A 2 3 above K, so A-J comes as 4 … J A 2 3); any
 * other play as it is.
 */
export function layRun(text) {
  const cards = splitCards(text || "");
  const ranks = [...new Set(cards.map(rankKey))];
  if (ranks.length < 3 || ranks.some((r) => !NATURAL.includes(r))) return text;
  for (const aceHigh of [false, true]) {
    const pos = (r) => (r === "A" && aceHigh ? 13 : NATURAL.indexOf(r));
    const order = ranks.map(pos).sort((a, b) => a - b);
    if (order.every((p, i) => i === 0 || p === order[i - 1] + 1)) {
      return cards
        .map((c, i) => [pos(rankKey(c)), i, c])
        .sort((a, b) => a[0] - b[0] || a[1] - b[1])
        .map((x) => x[2])
        .join(" ");
    }
  }
  return text;
}

/** The play to beat in the felt's middle: overlapped when long, so it stays one row there. */
function playCards(text) {
  const el = cardsEl(layRun(text), { small: true });
  if (el.children.length > 6) el.classList.add("cl-many");
  return el;
}

function currentPlay(ctx, v) {
  if (!v.current) {
    if (v.phase !== "playing") return null;
    const who = v.leader ?? (ctx.view.to_act || [])[0];
    return h("div", { class: "cl-current empty", id: "cl-current" }, who === undefined || who === null ? "" : who === ctx.seat ? w("you_lead") : w("to_lead", { who: seatLabel(ctx, who) }));
  }
  const c = v.current;
  return h(
    "div",
    { class: "cl-current", id: "cl-current", dataset: { seat: c.seat, cards: c.cards } },
    h("div", { class: "cl-who" }, w("played_by", { who: seatLabel(ctx, c.seat), what: describePlay(c) })),
    playCards(c.cards),
  );
}

function calledChip(ctx, v) {
  if (!v.called) return null;
  const known = v.partner !== null && v.partner !== undefined;
  let tail;
  if (v.shown) tail = w("liang");
  else tail = w("not_liang");
  return h(
    "span",
    { class: "chip cl-called", id: "cl-called", dataset: { card: v.called, shown: String(v.shown) } },
    w("called"),
    " ",
    cardSpan(v.called),
    ` ${tail}`,
    v.mode ? ` · ${w(`mode.${v.mode}`)}` : "",
    known && v.mode !== "1v3" ? ` · ${(v.partner === ctx.seat ? w("you_partner") : w("partner_is", { who: ctx.seatName(v.partner) }))}` : "",
  );
}

/** The felt's chips besides the phase, each (ctx, v) -> Node | null: the game's public
 * facts (the banker, the called card and 亮, the special 3; 打弹子's declaration and score). */
export const CHIPS = [
  (ctx, v) => {
    if (!v.declaration || v.declaration === "none") return null;
    const who = v.declarer ?? v.declareTurn;
    return h("span", { class: "chip cl-declare", id: "cl-declaration", dataset: { state: v.declaration, seat: who ?? "" } }, w(`declaration.${v.declaration}`, { who: who === null ? "" : seatLabel(ctx, who) }));
  },
  (ctx, v) => (v.totals && v.target ? h("span", { class: "chip", id: "cl-score", dataset: { totals: v.totals.join(",") } }, w("score", { a: v.totals[0], b: v.totals[1], target: v.target })) : null),
  (ctx, v) => (v.banker !== null && !v.called && v.phase !== "over" ? h("span", { class: "chip", id: "cl-banker" }, v.banker === ctx.seat ? w("you_banker") : w("banker_is", { who: seatLabel(ctx, v.banker) })) : null),
  (ctx, v) => calledChip(ctx, v),
  (ctx, v) => {
    const sp = special3Of(v);
    if (!sp || v.lastTrick.length || v.phase !== "playing") return null;
    return h(
      "span",
      { class: "chip", id: "cl-special3", dataset: { card: sp.card, holder: sp.holder ?? "" } },
      w("special3"),
      " ",
      cardSpan(sp.card),
      sp.copy ? ` ${w("deck_copy", { n: sp.copy })}` : "",
      sp.holder !== null && sp.holder !== undefined ? ` · ${w("special3_holder", { who: seatLabel(ctx, sp.holder) })}` : "",
    );
  },
];

/** 甲乙丙's special 3 (J8): ``{card, copy, holder}`` from the view's ``special3``. */
function special3Of(v) {
  const sp = v.special3;
  if (!sp) return null;
  if (typeof sp === "string") return { card: sp, copy: null, holder: null };
  return { card: sp.card || `${sp.rank || "3"}${sp.suit}`, copy: sp.copy ?? null, holder: sp.holder ?? null };
}

/** 打弹子's tribute so far (进贡, 挑选, 还贡 as shown to this seat), one line each. */
function tributeLines(ctx, v) {
  const tr = v.tribute;
  // kept on the felt through the first trick of play, so that every seat can still read
  // what was given and returned at its first turn
  const afterFirstTrick = v.lastTrick.length > 0;
  if (!tr || v.phase === "over" || (v.phase === "playing" && afterFirstTrick)) return null;
  const who = (s) => (s === null || s === undefined ? w("pool") : seatLabel(ctx, s));
  const lines = (tr.log || []).map((e) => {
    const toPool = e.to === null || e.to === undefined;
    const key = {
      tribute_given: toPool ? "log.tribute_shown" : "log.tribute",
      return_given: toPool ? "log.return_shown" : "log.return",
      picked: "log.picked",
    }[e.type];
    if (!key) return null;
    return h(
      "div",
      { class: "cl-tribute-line", dataset: { type: e.type, seat: e.seat } },
      w(key, { who: who(e.seat), to: who(e.to) }),
      " ",
      e.cards ? cardsEl(e.cards, { small: true }) : h("span", { class: "muted" }, w("hidden_cards")),
    );
  });
  if (tr.hidden_return) lines.push(h("div", { class: "cl-tribute-line" }, w("log.hidden_return", { who: who(tr.hidden_return.seat), n: tr.hidden_return.count })));
  if (tr.pool) lines.push(h("div", { class: "cl-tribute-line", id: "cl-pool" }, w("pool"), " ", cardsEl(tr.pool, { small: true })));
  if (tr.return_pool) lines.push(h("div", { class: "cl-tribute-line", id: "cl-return-pool" }, w("return_pool"), " ", cardsEl(tr.return_pool, { small: true })));
  return h("div", { class: "cl-tribute", id: "cl-tribute", dataset: { form: tr.form } }, h("div", { class: "cl-who" }, w("tribute_form", { form: tr.form })), lines);
}

/** What the viewer received in the tribute (贡牌 given or picked, and 还贡), from whom. */
function receivedNote(ctx, v) {
  const tr = v.tribute;
  const me = ctx.seat;
  if (!tr || me === null || me === undefined || v.phase === "over" || (v.phase === "playing" && v.lastTrick.length > 0)) return null;
  const lines = [];
  for (const e of tr.log || []) {
    if (!e.cards) continue;
    if (e.type === "tribute_given" && e.to === me) lines.push(["got_tribute", e.cards, e.seat]);
    else if (e.type === "picked" && e.seat === me) lines.push(["got_picked", e.cards, null]);
    else if (e.type === "picked" && e.rest_to === me && e.rest) lines.push(["got_rest", e.rest, e.seat]);
    else if (e.type === "return_given" && e.to === me) lines.push(["got_return", e.cards, e.seat]);
  }
  if (!lines.length) return null;
  return h(
    "div",
    { class: "cl-received", id: "cl-received" },
    lines.map(([key, cards, from]) =>
      h(
        "div",
        { class: "cl-received-line", dataset: { type: key, cards } },
        h("span", {}, w(`received.${key}`, { who: from === null ? "" : seatLabel(ctx, from) })),
        " ",
        cardsEl(cards, { small: true }),
      ),
    ),
  );
}

/** The viewer's side in the result: "win", "loss", "draw", or "decided" (a spectator, or
 * 打弹子's deal before the match is decided): the verdict's colour. */
function outcomeClass(ctx, v, r) {
  if (r.result === "draw") return "draw";
  const me = ctx.seat === null || ctx.seat === undefined ? undefined : (r.settlement || [])[ctx.seat];
  if (me > 0) return "win";
  if (me < 0) return "loss";
  return "decided";
}

function resultPanel(ctx, v) {
  const r = v.result;
  const order = r.finish_order || v.finished;
  const n = v.n;
  const deltas = r.deltas || r.settlement || [];
  const outcome = r.result || r.outcome || null;
  const family = familyOf(ctx);
  const why = (RESULT_WHY[family] || (() => []))(ctx, v, r);
  return h(
    "div",
    { class: "cl-result", id: "cl-result", dataset: { result: outcome || "" } },
    outcome ? h("div", { class: `cl-outcome ${outcomeClass(ctx, v, r)}`, id: "cl-outcome" }, outcomeText(ctx, v, r)) : null,
    why.map(([id, text, data]) => (text ? h("div", { class: "cl-note cl-why", id, dataset: data || {} }, text) : null)),
    r.declaration && r.declaration !== "none" && family !== "danzi"
      ? h("div", { class: "cl-note", id: "cl-declared" }, w(`declaration.${r.declaration}`, { who: r.declarer === null || r.declarer === undefined ? "" : seatLabel(ctx, r.declarer) }))
      : null,
    h(
      "table",
      { class: "cl-order", id: "cl-order" },
      h(
        "tbody",
        {},
        Array.from({ length: n }, (_, s) => s)
          .sort((a, b) => (order.indexOf(a) < 0 ? 99 : order.indexOf(a)) - (order.indexOf(b) < 0 ? 99 : order.indexOf(b)))
          .map((s) => {
            const k = order.indexOf(s);
            // 打弹子: a deal scores points for a side (the 积分 come with the match)
            const shown = family === "danzi" && !r.match_over && r.points && teamOf(v, s) !== null ? r.points[teamOf(v, s)] : deltas[s];
            return h(
              "tr",
              { dataset: { seat: s, place: k } },
              h("td", {}, k >= 0 ? placeName(k, n) : w("not_out")),
              h("td", {}, seatLabel(ctx, s), teamOf(v, s) !== null ? h("span", { class: `cl-team t${teamOf(v, s)}` }, teamName(ctx, v, teamOf(v, s))) : null),
              h("td", { class: `cl-delta ${shown > 0 ? "win" : shown < 0 ? "loss" : ""}`, dataset: { delta: deltas[s] ?? "" } }, shown === undefined ? "" : signed(shown)),
            );
          }),
      ),
    ),
  );
}

/** The deal's verdict: which side won (and whether it is the viewer's), or 和; 打弹子: the
 * deal's points (the match is decided at 30/60). */
function outcomeText(ctx, v, r) {
  if (r.result === "draw") return w("outcome.draw");
  if (familyOf(ctx) === "danzi" && r.breakdown) return t("clr.dz.deal", { team: teamName(ctx, v, r.breakdown.team), n: r.breakdown.points });
  const mineTeam = ctx.seat === null || ctx.seat === undefined ? null : teamOf(v, ctx.seat);
  if (r.winner !== undefined && r.winner !== null) {
    const team = teamName(ctx, v, r.winner);
    if (mineTeam === null) return w("outcome.team_wins", { team });
    return t("clr.team_wins_you", { team, side: t(mineTeam === r.winner ? "clr.side_win" : "clr.side_lose") });
  }
  const me = ctx.seat === null ? null : (r.settlement || [])[ctx.seat];
  if (me > 0) return t("clr.you_win");
  if (me < 0) return t("clr.you_lose");
  return w("outcome.win");
}

/** Per family: the lines that say why the deal ended as it did and how its points were
 * counted, [id, text] each, from the engine's result (its breakdown). */
const RESULT_WHY = {
  jiayibing(ctx, v, r) {
    const head = (r.finish_order || v.finished)[0];
    const b = r.breakdown || {};
    const vars = { who: seatLabel(ctx, head), first: teamName(ctx, v, r.first_team), completed: teamName(ctx, v, r.completed), team: teamName(ctx, v, r.completed), caught: r.caught };
    if (r.result === "draw") return [["cl-why", t("clr.jyb.draw_why", vars)]];
    const payout = (ctx.view.options || {}).payout;
    const count = payout === "catalog-v1" ? "clr.jyb.count_v1" : payout === "team-out" ? "clr.jyb.count_teamout" : "clr.jyb.count";
    return [
      ["cl-why", t("clr.jyb.win_why", vars)],
      ["cl-count", t(count, { units: b.units, base: b.base, each: b.each })],
    ];
  },
  fangyang(ctx, v, r) {
    const b = r.breakdown || {};
    const liang = v.shown ? w("liang") : w("not_liang");
    const lines = [["cl-pattern", t(r.mode === "1v3" ? "clr.fy.pattern_1v3" : "clr.fy.pattern_2v2", { p: r.pattern, liang }), { pattern: r.pattern }]];
    const x2 = b.multiplier > 1 ? t("clr.fy.liang_x2") : "";
    if (r.result === "draw") {
      const place = (r.finish_order || v.finished).indexOf(v.banker);
      lines.push(["cl-why", r.mode === "1v3" ? t("clr.fy.draw_1v3", { place: placeName(place, v.n) }) : t("clr.fy.draw_abba")]);
    } else if (r.mode === "1v3") {
      const vars = { units: b.units, liang: x2, each: b.each, total: 3 * b.each, others: teamName(ctx, v, 1) };
      if (r.winner === 0) lines.push(["cl-count", t("clr.fy.count_1v3_win", vars)]);
      else lines.push(["cl-count", t("clr.fy.count_1v3_lose", { ...vars, how: t(r.pattern === "B" ? "clr.fy.b_first" : "clr.fy.last") })]);
    } else {
      lines.push(["cl-count", t("clr.fy.count_2v2", { loser: teamName(ctx, v, 1 - r.winner), winner: teamName(ctx, v, r.winner), units: b.units, liang: x2, each: b.each })]);
    }
    return lines;
  },
  danzi(ctx, v, r) {
    const b = r.breakdown;
    const lines = [];
    if (b && b.failed) lines.push(["cl-why", t("clr.dz.failed", { who: seatLabel(ctx, b.declarer), n: b.points })]);
    else if (b) {
      const vars = { head: seatLabel(ctx, b.head), partner: seatLabel(ctx, (b.head + 2) % 4), place: placeName(b.partner_place - 1, 4), pp: b.place_points, n: b.points };
      lines.push(["cl-why", t(b.multiplier > 1 ? "clr.dz.declared" : "clr.dz.plain", vars)]);
    }
    const totals = r.totals || [0, 0];
    lines.push([
      "cl-points",
      t("clr.dz.totals", { t0: teamName(ctx, v, 0), t1: teamName(ctx, v, 1), a: totals[0], b: totals[1], target: r.target }),
      { points: (r.points || []).join(","), totals: totals.join(",") },
    ]);
    if (r.match_over && r.winner !== null && r.winner !== undefined) {
      const stake = Math.abs((r.settlement || [])[0] || 0);
      lines.push(["cl-match-over", t("clr.dz.match_won", { team: teamName(ctx, v, r.winner), target: r.target, total: (r.settlement || []).map((d, s) => `${seatLabel(ctx, s)} ${signed(d)}`).join(" · ") || stake })]);
    } else if (ctx.handOver && ctx.handOver.room_finished) lines.push(["cl-cut-short", t("clr.dz.cut_short", { target: r.target })]);
    else lines.push(["cl-deal-only", t("clr.dz.deal_only", { target: r.target })]);
    return lines;
  },
};

/** The room's verdict line for a deal (room.js asks the table first): an 打弹子 deal before
 * the match is decided scores points, not 积分, so "不输不赢" would be wrong. */
export function verdictText(ctx, over) {
  const v = ctx.view ? viewOf(ctx.view) : null;
  const r = v && v.result;
  if (!r || familyOf(ctx) !== "danzi" || r.match_over) return null;
  if (over && over.room_finished) return t("clr.dz.cut_verdict", { target: r.target });
  return r.breakdown ? t("clr.dz.deal", { team: teamName(ctx, v, r.breakdown.team), n: r.breakdown.points }) : null;
}

/** The room's settlement columns for an 打弹子 deal (room.js asks the table first): each
 * seat's side's points of the deal and the match score to the target, for a deal's 积分
 * are 0 until the match is decided. */
export function settleColumns(ctx, over) {
  const v = ctx.view ? viewOf(ctx.view) : null;
  const r = v && v.result;
  if (!r || familyOf(ctx) !== "danzi" || !r.points) return null;
  const seats = over.scores.map((_, s) => s);
  const side = (s) => teamOf(v, s);
  const totals = r.totals || [0, 0];
  return [
    { key: "deal-points", head: t("clr.dz.col_points"), values: seats.map((s) => (side(s) === null ? "" : String(r.points[side(s)]))) },
    { key: "match-score", head: t("clr.dz.col_totals"), values: seats.map((s) => (side(s) === null ? "" : `${totals[side(s)]}/${r.target}`)) },
  ];
}

function teamName(ctx, v, team) {
  const family = familyOf(ctx);
  // 甲乙丙's teams by the names the view gives (甲乙丙, ACB) in Chinese; in English the
  // UI's own (Jia-Yi-Bing)
  if (family === "jiayibing") return team === 0 ? w("team_jyb") : w("team_acb");
  const names = ctx.view.team_names;
  if (Array.isArray(names) && names[team]) return names[team];
  if (family === "fangyang") return team === 0 ? w("team_banker") : w("team_others");
  // 打弹子 and any later game: the sides as the viewer's own and the other (a spectator: 1 队, 2 队)
  const mine = ctx.seat === null || ctx.seat === undefined ? null : teamOf(v, ctx.seat);
  if (mine !== null) return team === mine ? w("team_us") : w("team_them");
  return w("team_n", { n: team + 1 });
}

// ------------------------------------------------------------------ style

const STYLE = `
.cl-hand.stacks { display: flex; flex-wrap: nowrap; align-items: flex-start; justify-content: center; padding-top: 12px; min-height: 84px; overflow-x: auto; }
.cl-stack { display: flex; flex-direction: column; position: relative; flex: none; }
.cl-stack + .cl-stack { margin-left: calc(var(--card-w) * -0.42); }
.cl-stack .card + .card { margin-top: calc(var(--card-h) * -0.7); }
.cl-stack .card.selected { transform: translateY(-8px); }
.cl-stack.bomb .card { box-shadow: 0 0 0 2px #e53935, 0 1px 2px rgba(0,0,0,.3); }
.cl-stack.bomb .card.selected { box-shadow: 0 0 0 3px var(--gold), 0 4px 8px rgba(0,0,0,.35); }
.cl-count { position: absolute; top: -13px; left: 0; font-size: 11px; line-height: 12px; font-weight: 700; color: var(--felt-dark); z-index: 1; }
.cl-stack.bomb .cl-count { color: #c62828; }
.cl-hand.row { gap: 0; flex-wrap: wrap; justify-content: center; padding-top: 12px; }
.cl-hand.row .card { margin-right: calc(var(--card-w) * -0.45); }
.cl-hand.row .card:last-child { margin-right: 0; }
.cl-hand .card.cl-special::after { content: "★"; position: absolute; right: 2px; top: 1px; font-size: 11px; color: #d4a017; }
.cl-hand .card.dim { filter: brightness(.78) saturate(.6); }
.cl-note { font-size: 13px; margin: 2px 0 4px; }
.cl-buttons { margin-top: 4px; justify-content: center; }
.cl-buttons button { min-width: 64px; }
.cl-reason { margin: 4px 0; padding: 4px 8px; border-radius: 6px; background: rgba(200, 40, 40, .15); color: var(--red); font-size: 13px; overflow-wrap: anywhere; }
.cl-center .chips { display: flex; flex-wrap: wrap; gap: 4px; justify-content: center; }
.cl-center .chip .card.small { display: inline-block; vertical-align: middle; width: 18px; height: 26px; }
.cl-center .chip .card.small .big, .cl-center .chip .card.small .pip { display: none; }
.cl-center .chip .card.small .corner { font-size: 9px; }
.cl-card-text { background: #fff; color: #111; border-radius: 4px; padding: 0 4px; }
.cl-card-text.red { color: var(--red); }
.cl-current { margin-top: 6px; display: grid; justify-items: center; gap: 3px; }
.cl-current.empty { font-size: 13px; opacity: .9; }
.cl-current .cards { justify-content: center; max-width: 100%; }
.cl-current .cards.cl-many { --cl-step: 12px; column-gap: 0; row-gap: 3px; padding-left: var(--cl-step); }
.cl-current .cards.cl-many .card { margin-left: calc(-1 * var(--cl-step)); box-shadow: -1px 0 1px rgba(0,0,0,.3); }
.cl-who { font-size: 13px; font-weight: 600; overflow-wrap: anywhere; }
.cl-jiefeng { font-size: 12px; background: rgba(244,200,74,.25); border-radius: 6px; padding: 2px 6px; margin-top: 4px; }
.seat .cl-seat { display: grid; justify-items: center; gap: 1px; }
.seat .cl-seat { max-width: 100%; --cl-overlap: 9px; }
.seat .cl-seat .cl-last { min-height: 0; max-width: 100%; }
.seat .cl-seat .cl-last .cards { flex-wrap: wrap; max-width: 100%; justify-content: center; row-gap: 2px; }
.seat .cl-seat .cl-last .cards.cl-many { column-gap: 0; padding-left: var(--cl-overlap); }
.seat .cl-seat .cl-last .cards.cl-many .card { margin-left: calc(-1 * var(--cl-overlap)); box-shadow: -1px 0 1px rgba(0,0,0,.25); }
.seat .cl-seat .cl-last .cards.cl-lots { --cl-overlap: 12px; }
.felt .seat:has(.cl-many) { min-width: min(34%, 150px); }
.seat .cl-pass { font-size: 11px; opacity: .85; }
.cl-place { background: var(--gold); color: #5a3d00; }
.seat .cl-name { background: rgba(255,255,255,.9); color: #1d2330; margin-right: 2px; }
.cl-team { display: inline-block; border-radius: 6px; padding: 0 5px; font-size: 11px; font-weight: 700; margin-left: 3px; }
.cl-team.t0 { background: #64b5f6; color: #0d2a45; }
.cl-team.t1 { background: #ef9a9a; color: #4a0c0c; }
.cl-team.unknown { background: rgba(255,255,255,.25); color: #fff; }
.cl-call-grid { display: grid; gap: 4px; }
.cl-call-suit { display: flex; flex-wrap: wrap; gap: 3px; }
.cl-call .card.mine-card { outline: 2px dashed var(--felt); outline-offset: 1px; }
.cl-result table { border-collapse: collapse; margin-top: 4px; width: 100%; }
.cl-result td { padding: 2px 6px; font-size: 13px; text-align: left; border-bottom: 1px solid rgba(0,0,0,.08); }
.cl-outcome { font-weight: 800; font-size: 16px; }
.cl-outcome.win, .cl-delta.win { color: var(--win); }
.cl-outcome.loss, .cl-delta.loss { color: var(--loss); }
.cl-outcome.draw, .cl-outcome.decided { color: inherit; }
.cl-why { overflow-wrap: anywhere; }
.cl-open-hand { margin-top: 6px; }
.cl-open-hand .cards { gap: 2px; }
.cl-tribute { margin-top: 4px; font-size: 12px; display: grid; gap: 2px; justify-items: center; }
.cl-tribute-line { display: flex; flex-wrap: wrap; gap: 4px; align-items: center; justify-content: center; }
.cl-tribute-line .card.small { width: 20px; height: 28px; }
.cl-tribute-line .card.small .big { display: none; }
.cl-pick-button .cards { gap: 2px; }
.cl-received { display: grid; gap: 2px; margin: 2px 0 4px; font-size: 14px; }
.cl-received-line { display: flex; flex-wrap: wrap; gap: 4px; align-items: center; }
.cl-declare-buttons button { white-space: normal; text-align: center; }
.felt-center .cl-result td { border-bottom-color: rgba(255,255,255,.15); }
@media (max-width: 480px) {
  .room.family-fangyang .seat, .room.family-danzi .seat { max-width: 21vw; }
  .seat .cl-seat { --cl-overlap: 6px; }
  .seat .cl-seat .cl-last .cards.cl-lots { --cl-overlap: 8px; }
  .felt .seat:has(.cl-many) { min-width: min(30%, 112px); }
  .room.family-fangyang .felt .seat:has(.cl-many), .room.family-danzi .felt .seat:has(.cl-many) { min-width: 21vw; }
  .room .felt .seat:not([data-side="side"]):has(.cl-lots) { min-width: 44vw; max-width: 44vw; }
  .cl-hand.stacks .cl-stack + .cl-stack { margin-left: calc(var(--card-w) * -0.45); }
  .room.family-jiayibing .felt, .room.family-fangyang .felt, .room.family-danzi .felt { max-height: 46vh; margin-top: 20px; }
  /* the deal is over: a flatter felt so the result and the verdict come into view */
  .room.phase-over.family-jiayibing .felt, .room.phase-over.family-fangyang .felt, .room.phase-over.family-danzi .felt { max-height: 38vh; margin-top: 16px; }
  .room.family-jiayibing .felt-center, .room.family-fangyang .felt-center { width: 58%; }
  .cl-current .cards.cl-many { --cl-step: 16px; }
  /* 打弹子's tribute log: every line (one's own 还贡 included) in the felt's middle, none cut off */
  .room.family-danzi .felt-center { width: 60%; max-height: 64%; }
  .cl-tribute { gap: 1px; font-size: 11px; }
  .cl-tribute > .cl-who { font-size: 12px; }
  .cl-tribute-line { flex-wrap: nowrap; gap: 3px; line-height: 1.1; }
  .cl-tribute-line .cards { flex-wrap: nowrap; gap: 1px; }
  .cl-tribute-line .card.small { width: 15px; height: 21px; border-radius: 3px; }
  .cl-tribute-line .card.small .corner { font-size: 8px; left: 1px; top: 0; }
  .cl-tribute-line .card.small .pip { width: 6px; height: 6px; }
}
@media (min-width: 900px) {
  .cl-mine { --card-w: 54px; --card-h: 78px; }
  .cl-mine .card .corner { font-size: 17px; }
  .cl-mine .card .big { width: 28px; height: 28px; }
  .cl-hand.stacks .cl-stack + .cl-stack { margin-left: calc(var(--card-w) * -0.38); }
  .cl-hand.stacks.many .cl-stack + .cl-stack { margin-left: calc(var(--card-w) * -0.5); }
  .room.family-danzi .felt-center { max-height: 66%; }
  .cl-tribute { gap: 2px; font-size: 14px; }
  .felt-center .cl-tribute-line .card.small { width: 24px; height: 34px; }
  .felt-center .cl-tribute-line .card.small .corner { font-size: 11px; }
}
`;

export function ensureStyle() {
  if (typeof document === "undefined" || document.getElementById("cl-style")) return;
  const el = document.createElement("style");
  el.id = "cl-style";
  el.textContent = STYLE;
  document.head.appendChild(el);
}

// ------------------------------------------------------------------ the module's exports

/** The game's room options (the engine's option names; defaults of the reading). */
export function createOptions(variant) {
  const family = variant ? variant.family : "";
  const choice = (key, values, def) => ({ key, label: w(`opt.${key}`), choices: values.map((value) => ({ value, label: w(`opt.${key}.${value}`) })), default: def });
  const common = [
    { key: "base", label: w("opt.base"), default: 1, min: 1 },
    { key: "quads_beat_all", label: w("opt.quads_beat_all"), type: "checkbox", default: false },
    { key: "must_beat", label: w("opt.must_beat"), type: "checkbox", default: false },
  ];
  if (family === "jiayibing") {
    return [
      ...common,
      choice("special3", ["instance", "first-dealt"], "instance"),
      choice("next_lead", ["first-finisher", "special3"], "first-finisher"),
      choice("payout", ["first-team", "team-out", "catalog-v1"], "first-team"),
    ];
  }
  if (family === "danzi") {
    const num = (key, def, min = 0) => ({ key, label: w(`opt.${key}`), default: def, min });
    const check = (key, def) => ({ key, label: w(`opt.${key}`), type: "checkbox", default: def });
    return [
      { ...choice("target", ["30", "60"], "30"), number: true },
      choice("tribute_pick", ["cards", "lots"], "cards"),
      check("tribute_between_partners", true),
      choice("lead_rule", ["declarer_else_first", "declarer_else_last"], "declarer_else_first"),
      num("points_12", 3),
      num("points_13", 2),
      num("points_14", 1),
      num("declare_multiplier", 2, 1),
      num("declare_fail_points", 3),
      num("match_stake", 1, 1),
      check("pass_is_final", false),
      check("end_after_one_two", false),
    ];
  }
  if (family === "fangyang") {
    return [...common, choice("next_banker", ["first-finisher", "heart4", "rotate"], "first-finisher"), choice("call_max", ["A", "K"], "A")];
  }
  return [];
}

/** Other seats' hands this viewer sees during play (a partner's 明牌 in 打弹子). */
function openHands(ctx, v) {
  if (v.phase === "over") return [];
  return v.hands.map((text, s) => [s, text]).filter(([s, text]) => s !== ctx.seat && typeof text === "string" && text.trim());
}

export function render(ctx) {
  ensureStyle();
  const view = ctx.view;
  const local = ctx.local;
  const v = viewOf(view);
  if (!local.picked) local.picked = [];
  if (local.viewNow !== view) {
    local.viewNow = view;
    local.refusal = null;
  }
  if (local.handText !== view.hand) {
    local.picked = [];
    local.hint = -1;
    local.handText = view.hand;
  }
  local.picked = local.picked.filter((i) => i < v.hand.length);
  local.ctx = ctx;
  const myTurn = ctx.seat !== null && (view.to_act || []).includes(ctx.seat) && !ctx.handOver;
  const legal = ctx.legal || [];
  const playing = myTurn && v.phase === "playing" && (legal.some((a) => a.type === "play" || a.type === "pass") || ctx.legal === null);
  const choice = myTurn && !playing ? CARD_CHOICES[v.phase] || null : null;
  const mode = playing ? "play" : choice ? "choose" : "watch";
  if (mode === "watch") local.picked = [];

  const refusal = local.refusal ? h("div", { class: "cl-reason", id: "cl-reason", role: "alert" }, w("refused", { m: refusalText(local.refusal, familyOf(ctx)) })) : null;
  // a spectator (and the replay) gets the result under the felt, not inside it under the seats
  const mine =
    ctx.seat === null
      ? v.result
        ? h("div", { class: "cl-mine cl-watch" }, resultPanel(ctx, v))
        : null
      : h(
          "div",
          { class: "cl-mine" },
          receivedNote(ctx, v),
          myTurn && !playing && !choice ? decisionPanel(ctx) : null,
          refusal,
          playing ? playControls(ctx) : null,
          choice ? chooseControls(ctx, choice) : null,
          handOrNothing(ctx, mode),
          mode === "play" && v.hand.length > 1
            ? lipaiBar(ctx, local.picked, (what) => {
                const now = local.ctx || ctx;
                if (what === "group") groupPicked(now, viewOf(now.view).hand, local.picked);
                else clearGroups(now);
                local.picked = [];
                now.rerender();
              })
            : null,
          ctx.seat !== null && v.phase !== "over" && v.hand.length > 1 ? sortBar(ctx) : null,
          openHands(ctx, v).map(([s, text]) =>
            h("div", { class: "cl-open-hand", id: `cl-open-hand-${s}`, dataset: { seat: s } }, h("small", {}, w("open_hand", { who: seatLabel(ctx, s) })), cardsEl(text, { small: true })),
          ),
          v.result ? resultPanel(ctx, v) : null,
          counterBox(ctx, v),
        );

  const chips = [h("span", { class: "chip" }, phaseName(v.phase))];
  for (const extra of CHIPS) {
    const chip = extra(ctx, v);
    if (chip) chips.push(chip);
  }
  const center = h(
    "div",
    { class: "cl-center" },
    h("div", { class: "chips" }, chips),
    currentPlay(ctx, v),
    tributeLines(ctx, v),
    v.jiefengFrom !== null && !v.current && v.phase === "playing"
      ? h("div", { class: "cl-jiefeng", id: "cl-jiefeng", dataset: { from: v.jiefengFrom, to: v.leader } }, w("jiefeng", { from: seatLabel(ctx, v.jiefengFrom), who: seatLabel(ctx, v.leader) }))
      : null,
    ctx.seat === null ? counterBox(ctx, v) : null,
  );
  return { center, mine };
}

/** 记牌器 and 上一轮 while the cards are played: the cards the others still hold by rank
 * (the view's public count less one's own hand), the game's bombs marked. */
function counterBox(ctx, v) {
  if (v.phase !== "playing" || !ctx.view.unplayed) return null;
  const profile = profileOf(ctx);
  const bombAt = profile.bombAt || ((ctx.view.options || {}).quads_beat_all ? 4 : 0);
  const local = ctx.local;
  if (!v.lastTrick.length) local.lastOpen = false;
  return counterStrip(ctx, {
    order: [...profile.order].reverse(),
    known: ownCards(ctx.view),
    bombAt,
    jokerBomb: !!profile.jokerBombs,
    extra: lastTrickButton(ctx, v.lastTrick),
    panel: local.lastOpen ? lastTrickPanel(ctx, v.lastTrick, (s) => seatLabel(ctx, s)) : null,
  });
}

/** What one seat shows on the felt: its name in the game, team, place, cards left, and
 * its play or pass of the round (or, at the end, the cards it still held). */
// A seat's cards (its last play, or what it kept at the end): small cards that wrap inside
// the seat, overlapped when there are many so a long 龙 or a full hand stays a few rows.
function seatCards(text) {
  const el = cardsEl(text, { small: true });
  if (el.children.length > 5) el.classList.add("cl-many");
  if (el.children.length > 12) el.classList.add("cl-lots");
  return el;
}

export function seatExtra(ctx, seat) {
  const v = viewOf(ctx.view);
  const k = v.finished.indexOf(seat);
  const team = teamOf(v, seat);
  const last = [...v.trick].reverse().find((x) => x.seat === seat);
  let shown = null;
  if (v.phase === "over") {
    const left = v.hands[seat];
    if (seat !== ctx.seat && typeof left === "string" && left.trim()) shown = seatCards(left);
  } else if (last && last.pass) shown = h("span", { class: "cl-pass" }, w("passed"));
  else if (last && last.cards) shown = seatCards(layRun(last.cards));
  const names = seatNamesOf(ctx);
  const stopped = v.stopped.includes(seat);
  return h(
    "div",
    { class: "seat-extra cl-seat", dataset: { place: k, team: team ?? "", size: v.sizes[seat] ?? "" } },
    h(
      "div",
      { class: "cl-tags" },
      names ? h("span", { class: "badge cl-name" }, names[seat]) : null,
      team !== null ? h("span", { class: `cl-team t${team}` }, teamName(ctx, v, team)) : null,
      k >= 0 ? h("span", { class: "badge cl-place" }, placeName(k, v.n)) : null,
      stopped ? h("span", { class: "badge cl-stopped" }, w("stopped")) : null,
    ),
    k >= 0 ? null : h("small", { class: "cl-size" }, w("cards", { n: v.sizes[seat] ?? "?" })),
    h("div", { class: "cl-last" }, shown),
  );
}

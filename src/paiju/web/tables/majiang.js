// 麻将 (鞍山麻将 and the family's other codes): the tile table.
//
// The felt is a grid: the three other seats (name, wind, concealed count, melds, discards)
// above and beside the middle (wall count, the flipped tile, the 混 and the 枪, the last
// discard), the player's own discards below. The player's area holds the hand sorted
// (the 混 last, marked with a star) with the drawn tile set apart, the melds beside it,
// and the action bar: 吃 (one button per way to chow), 碰, 杠, 胡 and 过 in a claim window
// with the server's timer, 暗杠 / 补杠 / 自摸 on one's own turn; a discard is two taps on
// a tile (pick, then tap again) or the 打出 button. After the hand: the win with its
// decomposition, every fan, and each loser's payment 2^fan.
// 听牌 help (the view's `ting`, computed from the seat's own view): the tiles that win with
// how many of each are still unseen, and on one's turn the discards that keep the hand ready
// (marked 听 on the tile; picking one shows what it would wait on); 提示 asks the server's
// advice and picks the suggested tile (or marks the suggested claim).
//
// Everything comes from the server's view and its `legal` list; the view fields read are
// collected in `norm()` (see docs/client.md, "the mahjong table").

import { get } from "../js/api.js";
import { h, signed } from "../js/dom.js";
import { seatPlace } from "../js/felt.js";
import { prefs, setPref } from "../js/prefs.js";
import { STRINGS, lang, phaseName, t } from "../js/i18n.js";
import { MJ_STRINGS } from "./majiang-strings.js";
import { whyBox } from "./why.js";
import { backsEl, sortTiles, splitTiles, tileEl, tileKey, tileName, tilesEl } from "./mjtiles.js";

Object.assign(STRINGS.zh, MJ_STRINGS.zh);
Object.assign(STRINGS.en, MJ_STRINGS.en);

function w(key, vars = {}) {
  return t(`mj.${key}`, vars);
}

/** A term's gloss (a fan name, a group kind) in the current language, the term itself where none. */
function gloss(prefix, term) {
  const key = `mj.${prefix}.${term}`;
  return key in STRINGS[lang()] ? STRINGS[lang()][key] : String(term);
}

function ensureStyle() {
  if (typeof document === "undefined" || document.getElementById("mj-style")) return;
  const link = document.createElement("link");
  link.id = "mj-style";
  link.rel = "stylesheet";
  link.href = new URL("./majiang.css", import.meta.url).href;
  document.head.appendChild(link);
}

/** The room switches of 鞍山麻将 (the reading's §6, defaults first; the engine's
 * `paiju.games.majiang.rules.OPTION_CHOICES`) for the lobby's form. */
const ROOM_SWITCHES = [
  ["qiang", ["ming", "an"]],
  ["hun", ["next", "flip+next"]],
  ["dealer_rotation", ["winner", "next"]],
  ["zhuang", ["both", "winner-only"]],
  ["qionghu", ["no-hun-held", "no-wild-use"]],
  ["shisanyao", ["all-yaojiu", "thirteen-orphans"]],
];
const ROOM_FLAGS = [
  ["multiple_winners", false],
  ["hun_may_make_dragon_pair", true],
  ["no_258_pair", false],
];

export function createOptions(variant) {
  const params = (variant && variant.params) || {};
  return [
    ...ROOM_SWITCHES.map(([key, values]) => ({
      key,
      label: w(`opt.${key}`),
      choices: values.map((value) => ({ value, label: w(`opt.${key}.${value}`) })),
      default: params[key] ?? values[0],
    })),
    ...ROOM_FLAGS.map(([key, value]) => ({ key, label: w(`opt.${key}`), type: "checkbox", default: params[key] ?? value })),
  ];
}

// ------------------------------------------------------------------ the view, normalised

/** A tile from its text ("5m") or its index 0-33 (as `paiju.tiles` numbers them). */
function tileText(x) {
  if (typeof x === "number") return x < 27 ? `${(x % 9) + 1}${"mps"[Math.floor(x / 9)]}` : `${x - 26}z`;
  return x;
}

function tilesOf(value) {
  if (value === null || value === undefined || value === "") return [];
  if (typeof value === "number") return [tileText(value)];
  if (Array.isArray(value)) return value.flatMap((x) => (typeof x === "object" && x !== null ? tilesOf(x.tile ?? x.tiles) : tilesOf(x)));
  return splitTiles(value);
}

function oneTile(value) {
  const tiles = tilesOf(value);
  return tiles.length ? tiles[0] : null;
}

function meldOf(m) {
  if (typeof m === "string") {
    const [kind, tiles] = m.includes(":") ? m.split(":") : ["", m];
    return { kind, tiles: splitTiles(tiles), from: null, claimed: null };
  }
  const tiles = tilesOf(m.tiles);
  // another seat's 暗杠 shows no tiles: four backs
  return { kind: m.kind, tiles, hidden: m.tiles === null && m.kind === "angang", from: m.from ?? null, claimed: oneTile(m.claimed) };
}

/**
 * The engine's view (paiju.games.majiang.game.MajiangState.view) under the names the
 * table uses: seats from `players`, tiles as lists of tile texts.
 */
export function norm(view) {
  const players = Array.isArray(view.players) ? view.players : [];
  const n = players.length || 4;
  const seats = [];
  for (let i = 0; i < n; i++) {
    const p = players[i] || {};
    const taken = new Set(p.claimed || []);
    seats.push({
      seat: i,
      count: p.concealed ?? null,
      melds: (p.melds || []).map(meldOf),
      discards: tilesOf(p.discards).map((tile, k) => ({ tile, claimed: taken.has(k) })),
      open: p.open ?? null,
      hand: p.hand !== undefined && p.hand !== null ? tilesOf(p.hand) : null,
    });
  }
  // to_act: the seats to act (a list), or for a seat's own view whether it is to act
  let toAct = view.to_act;
  if (typeof toAct === "boolean") toAct = toAct && view.seat !== null ? [view.seat] : [];
  const last = view.last_discard ? { seat: view.last_discard.seat, tile: oneTile(view.last_discard.tile), kong: !!view.last_discard.kong } : null;
  return {
    phase: view.phase,
    seat: view.seat,
    toAct: toAct || [],
    dealer: view.dealer ?? null,
    turn: view.turn ?? null,
    flip: oneTile(view.flip),
    hun: tilesOf(view.hun),
    qiang: tilesOf(view.qiang),
    qiangRoom: view.qiang_room ?? null,
    wall: view.wall ?? null,
    hand: tilesOf(view.hand),
    drawn: oneTile(view.drawn),
    seats,
    last,
    decided: view.decided ?? null,
    result: view.result ?? null,
    ting: view.ting ?? null,
  };
}

// ------------------------------------------------------------------ legal actions

/**
 * What a legal action is, for the table: {kind, tile, tiles, action}. The engine's forms:
 * discard {tile}, kong {tile} (暗杠 with four in hand, else 补杠), win {} (自摸 on one's
 * turn, 胡 on a discard), chi {chow}, peng {}, gang {} (明杠), pass {}.
 */
export function classify(action, v) {
  const tile = oneTile(action.tile);
  switch (action.type) {
    case "discard":
      return { kind: "discard", tile, tiles: [], action };
    case "kong": {
      const four = v.hand.concat(v.drawn && v.hand.length % 3 === 1 ? [v.drawn] : []).filter((x) => x === tile).length === 4;
      return { kind: four ? "angang" : "bugang", tile, tiles: [], action };
    }
    case "win":
      return { kind: v.last && v.toAct.includes(v.seat) && v.phase !== "play" ? "hu" : "zimo", tile, tiles: [], action };
    case "chi":
      return { kind: "chi", tile: null, tiles: tilesOf(action.chow), action };
    case "peng":
    case "gang":
    case "pass":
      return { kind: action.type, tile: null, tiles: [], action };
    default:
      return { kind: "other", tile, tiles: [], action };
  }
}

// ------------------------------------------------------------------ the server's refusal

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
      local.sent = null;
      watcher.disconnect();
      ctx.rerender();
    });
    watcher.observe(toastEl, { childList: true, characterData: true, subtree: true, attributes: true });
    local.watcher = watcher;
  }
  ctx.act(action);
}

// ------------------------------------------------------------------ seats and the felt

function placeOf(ctx, seat, n) {
  // the one seating rule of every table: the 下家 on the right, the 上家 on the left
  return seatPlace(seat, n, ctx.seat === null ? 0 : ctx.seat);
}

function meldEl(meld, opts) {
  const row = h("div", { class: `mj-meld ${meld.kind}`, dataset: { kind: meld.kind, tiles: meld.tiles.join("") }, title: gloss("group", meld.kind) });
  if (meld.hidden) {
    row.appendChild(backsEl(4, opts));
    return row;
  }
  meld.tiles.forEach((tile, k) => {
    // one's own 暗杠 and everyone's at the end: the outer two face down, as on a table
    const down = meld.kind === "angang" && !opts.faceUp && (k === 0 || k === 3);
    const el = tileEl(tile, { ...opts, back: down });
    if (meld.claimed && tile === meld.claimed && !row.querySelector(".claimed")) el.classList.add("claimed");
    row.appendChild(el);
  });
  return row;
}

function meldsEl(melds, opts, cls = "mj-melds") {
  if (!melds.length) return null;
  return h("div", { class: cls }, melds.map((m) => meldEl(m, opts)));
}

function pondEl(v, seat, opts, latest = null) {
  const s = v.seats[seat];
  const last = v.last && v.last.seat === seat && !v.last.kong;
  // the latest discard of the whole table stays marked in its river until the next one
  const newest = latest && latest.seat === seat;
  return h(
    "div",
    { class: "mj-pond", dataset: { seat, tiles: s.discards.map((d) => d.tile).join("") } },
    s.discards.map((d, k) => {
      const el = tileEl(d.tile, opts);
      if (d.claimed) el.classList.add("claimed-away");
      if (last && k === s.discards.length - 1) el.classList.add("last");
      if (newest && k === s.discards.length - 1 && d.tile === latest.tile) el.classList.add("latest");
      return el;
    }),
  );
}

export function seatExtra(ctx, seat) {
  const v = ctx.local.norm && ctx.local.viewNow === ctx.view ? ctx.local.norm : norm(ctx.view);
  const s = v.seats[seat];
  if (!s) return null;
  const n = v.seats.length;
  const place = placeOf(ctx, seat, n);
  const opts = { hun: v.hun, qiang: v.qiang, size: "sm", lang: lang() };
  const mine = seat === ctx.seat;
  const wind = v.dealer === null ? null : (seat - v.dealer + n) % n;
  const over = v.phase === "over";
  return h(
    "div",
    { class: `mj-seat${v.phase === "play" && v.turn === seat ? " turn" : ""}`, dataset: { place, seat } },
    h(
      "div",
      { class: "mj-count" },
      seat === v.dealer ? h("span", { class: "badge banker" }, w("dealer")) : null,
      wind === null ? null : h("span", { class: "mj-wind", title: tileName(`${wind + 1}z`, lang()) }, w(`wind.${wind}`)),
      !mine && s.count !== null && !over ? w("tiles", { n: s.count }) : null,
    ),
    mine ? null : meldsEl(s.melds, { ...opts, faceUp: over }),
    over && s.hand && !mine ? tilesEl(sortTiles(s.hand, v.hun), { ...opts, cls: "mj-shown" }) : null,
    pondEl(v, seat, opts, ctx.local.latestDiscard),
  );
}

function middle(ctx, v) {
  const opts = { hun: v.hun, qiang: v.qiang, lang: lang() };
  const figs = [];
  if (v.flip) figs.push(h("figure", { id: "mj-flip", dataset: { tile: v.flip } }, tileEl(v.flip, { ...opts, hun: null }), h("figcaption", {}, w("flip"))));
  if (v.hun.length) figs.push(h("figure", { id: "mj-hun", dataset: { tiles: v.hun.join("") } }, tilesEl(v.hun, opts), h("figcaption", {}, w("hun"))));
  if (v.qiang.length) {
    figs.push(h("figure", { id: "mj-qiang", dataset: { tiles: v.qiang.join("") } }, tilesEl(v.qiang, { ...opts, hun: null, qiang: [] }), h("figcaption", {}, w("qiang"))));
  } else if (v.qiangRoom === "an") {
    figs.push(h("figure", { id: "mj-qiang" }, h("figcaption", { class: "mj-an" }, w("qiang_an"))));
  }
  const lastWho = v.last ? ctx.seatName(v.last.seat) : "";
  return h(
    "div",
    { class: "mj-mid" },
    h(
      "div",
      { class: "chips" },
      h("span", { class: "chip" }, phaseName(v.phase)),
      v.wall !== null ? h("span", { class: "chip mj-wall", id: "mj-wall", dataset: { wall: v.wall } }, w("wall", { n: v.wall })) : null,
      v.phase === "play" && v.turn !== null ? h("span", { class: "chip mj-turn-of", id: "mj-turn-of" }, w("turn_of", { who: ctx.seatName(v.turn) })) : null,
    ),
    h("div", { class: "mj-indicator" }, figs),
    v.last && v.last.tile
      ? h(
          "div",
          { class: "mj-lastd", id: "mj-last", dataset: { tile: v.last.tile, seat: v.last.seat } },
          h("small", {}, w(v.last.kong ? "added_kong" : "discarded", { who: lastWho })),
          tileEl(v.last.tile, { ...opts, size: "sm" }),
        )
      : null,
  );
}

// ------------------------------------------------------------------ the win screen

/** One group of the arrangement: the tiles it stands for, its 混 shown as such. */
function groupEl(g, v, opts, winTile, marked) {
  const size = { shunzi: 3, kezi: 3, jiang: 2, pair: 2, single: 1 }[g.type] || 0;
  // the group's natural tiles and the faces its 混 play, in order; a 混 that plays no
  // particular tile (a group of 混 only) is drawn as the 混 itself
  const tiles = [
    ...tilesOf(g.tiles).map((tile) => ({ tile, wild: false })),
    ...tilesOf(g.hun_as || []).map((tile) => ({ tile, wild: true })),
  ].sort((a, b) => tileKey(a.tile) - tileKey(b.tile));
  while (tiles.length < size) tiles.push({ tile: null, wild: true });
  const hun = g.hun || 0;
  const row = h("div", { class: "mj-tiles" });
  for (const { tile, wild } of tiles) {
    const el = tile ? tileEl(tile, { ...opts, hun: null }) : tileEl(v.hun[0], opts);
    if (wild && tile) {
      el.classList.add("as-hun");
      el.title = `${w("hun")} = ${tileName(tile, lang())}`;
    }
    row.appendChild(el);
  }
  const natural = tilesOf(g.tiles);
  const win = !marked.done && winTile && natural.includes(winTile);
  if (win) marked.done = true;
  return h(
    "div",
    { class: `mj-group${win ? " win-tile" : ""}`, dataset: { type: g.type, tiles: g.tiles, hun } },
    row,
    h("small", {}, gloss("group", g.type), hun ? ` · ${w("hun")}×${hun}` : ""),
  );
}

function fanCounts(fans) {
  const counts = new Map();
  for (const f of fans || []) counts.set(f, (counts.get(f) || 0) + 1);
  return [...counts.entries()];
}

function winPanel(ctx, v, win) {
  const opts = { hun: v.hun, qiang: v.qiang, size: "sm", lang: lang() };
  const who = ctx.seatName(win.seat);
  const from = win.from === null || win.from === undefined ? null : ctx.seatName(win.from);
  const title =
    win.how === "zimo" ? w("won_self", { who }) : win.how === "qianggang" ? w("robbed", { who, from }) : w("won_from", { who, from });
  const marked = { done: false };
  const melds = (v.seats[win.seat] || { melds: [] }).melds;
  const formKey = { standard: "standard", 七对: "qidui", 十三幺: "shisanyao" }[win.form];
  const fans = fanCounts(win.fans);
  return h(
    "div",
    { class: "mj-win", dataset: { seat: win.seat, how: win.how, fan: win.fan } },
    h("h3", { class: "mj-result-title" }, title),
    formKey ? h("div", { class: "mj-hint" }, w(`form.${formKey}`)) : null,
    h(
      "div",
      { class: "mj-groups" },
      (win.groups || []).map((g) => groupEl(g, v, opts, win.tile, marked)),
      melds.map((m) => h("div", { class: "mj-group meld", dataset: { kind: m.kind } }, meldEl(m, { ...opts, faceUp: true }), h("small", {}, gloss("group", m.kind)))),
    ),
    win.tile ? h("div", { class: "mj-hint mj-win-tile", dataset: { tile: win.tile } }, `${w("winning_tile")}: `, tileEl(win.tile, opts)) : null,
    h(
      "div",
      { class: "mj-fanline" },
      h("strong", {}, `${w("fans")}: `),
      fans.length
        ? h("ul", { class: "mj-fans" }, fans.map(([name, k]) => h("li", { dataset: { fan: name, count: k } }, k > 1 ? `${gloss("fan", name)} ×${k}` : gloss("fan", name))))
        : h("span", { class: "mj-hint" }, w("no_fans")),
      h("span", { class: "mj-hint mj-fan-total" }, ` ${w("fan_total", { n: win.fan ?? fans.length })}`),
    ),
    payTable(ctx, win),
  );
}

function payTable(ctx, win) {
  const deltas = win.deltas || [];
  const rows = deltas.map((delta, seat) => {
    let exp = "";
    if (seat === win.seat) exp = w("pay_winner");
    else {
      const d = (win.pay || []).find((x) => x.seat === seat);
      if (d) {
        const extras = (d.extra || []).map((x) => gloss("extra", x));
        exp = `${w("pay_formula", { n: d.fan, v: d.pay })}${extras.length ? ` (${extras.join(lang() === "en" ? ", " : "，")})` : ""}`;
      }
    }
    return h(
      "tr",
      { dataset: { seat, delta } },
      h("td", {}, ctx.seatName(seat)),
      h("td", { class: "mj-exp" }, exp),
      h("td", { class: `num ${delta > 0 ? "win" : delta < 0 ? "loss" : ""}` }, signed(delta)),
    );
  });
  return h(
    "table",
    { class: "mj-pay" },
    h("thead", {}, h("tr", {}, h("th", {}, w("pay_seat")), h("th", {}, w("pay_exp")), h("th", {}, w("pay_delta")))),
    h("tbody", {}, rows),
  );
}

/** The result in sentences: who won, how (自摸, whose 点炮, 抢杠), the fans, and each
 * loser's 2^fan; a 流局 says why nobody pays. From the engine's ``result`` as reported. */
function whyPanel(ctx, v) {
  const r = v.result;
  const wins = r.wins || [];
  if (!wins.length) return whyBox(t("why.mj.draw", { n: v.wall ?? 0 }), []);
  const zh = lang() === "zh";
  const sep = zh ? "；" : "; ";
  const hows = wins.map((win) => {
    const who = ctx.seatName(win.seat);
    const from = win.from === null || win.from === undefined ? "" : ctx.seatName(win.from);
    const key = { zimo: "why.mj.zimo", qianggang: "why.mj.qianggang" }[win.how] || "why.mj.dianpao";
    return t(key, { who, from });
  });
  const lines = [];
  wins.forEach((win, k) => {
    const fans = fanCounts(win.fans).map(([name, n]) => (n > 1 ? `${gloss("fan", name)} ×${n}` : gloss("fan", name)));
    const n = win.fan ?? fans.length;
    lines.push(fans.length ? t("why.mj.fans", { how: hows[k], fans: fans.join(zh ? "、" : ", "), n }) : t("why.mj.no_fans", { how: hows[k] }));
    const list = (win.pay || []).map((d) => {
      const extras = (d.extra || []).map((x) => gloss("extra", x));
      const one = t("why.mj.pay_one", { who: ctx.seatName(d.seat), fan: d.fan, pay: d.pay });
      return extras.length ? `${one}${zh ? `（${extras.join("、")}）` : ` (${extras.join(", ")})`}` : one;
    });
    const total = (win.deltas || [])[win.seat];
    if (list.length) lines.push(t("why.mj.pays", { list: list.join(zh ? "，" : ", "), who: ctx.seatName(win.seat), total: signed(total ?? 0) }));
  });
  return whyBox(hows.join(sep), lines);
}

function resultPanel(ctx, v) {
  const r = v.result;
  const wins = r.wins || [];
  const opts = { hun: v.hun, qiang: v.qiang, size: "sm", lang: lang() };
  if (!wins.length) {
    return h("section", { class: "mj-result draw", id: "mj-result", dataset: { kind: r.kind || "drawn" } }, h("h3", {}, w("draw")), h("p", { class: "mj-hint" }, w("draw_note")), whyPanel(ctx, v));
  }
  const reveal = oneTile(r.reveal);
  return h(
    "section",
    { class: "mj-result", id: "mj-result", dataset: { kind: r.kind, winners: wins.map((x) => x.seat).join(" ") } },
    whyPanel(ctx, v),
    wins.map((win) => winPanel(ctx, v, win)),
    reveal ? h("div", { class: "mj-hint", id: "mj-reveal", dataset: { tile: reveal } }, `${w("reveal")}: `, tileEl(reveal, opts), ` ${w("qiang")}: `, tilesEl(v.qiang, { ...opts, qiang: [] })) : null,
    wins.length > 1 && r.scores ? h("div", { class: "mj-hint", id: "mj-total" }, `${w("total")}: ${r.scores.map((x, i) => `${ctx.seatName(i)} ${signed(x)}`).join(" · ")}`) : null,
  );
}

// ------------------------------------------------------------------ the player's area

const BUTTON_ORDER = ["hu", "zimo", "gang", "angang", "bugang", "peng", "chi", "pass", "other"];

function actionButton(ctx, c, opts) {
  const kind = c.kind;
  let label;
  if (kind === "chi") label = [w("chi"), tilesEl(c.tiles, { ...opts, size: "xs" })];
  else if (kind === "angang" || kind === "bugang") label = [w(kind), tileEl(c.tile, { ...opts, size: "xs" })];
  else if (["hu", "zimo", "gang", "peng", "pass"].includes(kind)) label = w(kind);
  else label = c.action.type;
  const hinted = ctx.local.hint && ctx.local.hint.key === ctx.local.handKey && JSON.stringify(ctx.local.hint.action) === JSON.stringify(c.action);
  return h(
    "button",
    {
      class: `mj-act mj-${kind}${hinted ? " suggested" : ""}`,
      dataset: { kind, action: JSON.stringify(c.action) },
      onclick: () => {
        const local = ctx.local;
        local.sent = w(kind);
        local.sentOn = windowKey(local.norm || norm(ctx.view));
        local.picked = null;
        actWatched(local.ctx || ctx, c.action);
        // a claim window says nothing back until it ends: the bar says the choice now
        (local.ctx || ctx).rerender();
      },
    },
    label,
  );
}

function timerEl(ctx) {
  return h("div", { class: "timer", dataset: { timerSeat: ctx.seat } }, h("div", { class: "bar" }), h("span", { class: "secs" }));
}

function handRow(ctx, v, choices, myTurn) {
  const local = ctx.local;
  const opts = { hun: v.hun, qiang: v.qiang, lang: lang() };
  const discards = new Map();
  for (const c of choices) if (c.kind === "discard" && c.tile) discards.set(c.tile, c.action);
  let tiles = [...v.hand];
  const drawn = v.drawn;
  if (drawn && tiles.length % 3 === 2) {
    // a view whose hand holds the drawn tile too: take one copy out to set it apart
    const at = tiles.lastIndexOf(drawn);
    if (at >= 0) tiles.splice(at, 1);
  }
  tiles = sortTiles(tiles, v.hun);
  const all = drawn ? [...tiles, drawn] : tiles;
  // the tiles share the row's width: a full 14 (the drawn one apart) fits a phone
  const slots = Math.max(13, all.length) + 0.4;
  const hand = h("div", { class: "mj-hand", id: "mj-hand", style: `--slots:${slots.toFixed(1)}`, dataset: { tiles: all.join("") } });
  all.forEach((tile, i) => {
    const el = tileEl(tile, opts);
    el.dataset.index = i;
    if (drawn && i === all.length - 1) el.classList.add("mj-drawn");
    const action = discards.get(tile);
    if (myTurn && action) {
      el.classList.add("playable");
      if (readyTiles(v).has(tile)) {
        el.classList.add("mj-ting-ok");
        el.dataset.ting = w("ting_mark");
      }
      if (local.picked === i) el.classList.add("picked");
      el.addEventListener("click", () => {
        const now = local.ctx || ctx;
        if (local.picked === i) {
          local.picked = null;
          local.sent = null; // one's own discard: the claim windows on it are the others'
          actWatched(now, action);
        } else {
          local.picked = i;
          local.reason = null;
          now.rerender();
        }
      });
    } else if (myTurn) el.classList.add("blocked");
    hand.appendChild(el);
  });
  const melds = meldsEl(v.seats[ctx.seat].melds, { ...opts, size: "sm" }, "mj-mymelds");
  return h("div", { class: "mj-handrow" }, melds, h("div", { class: "mj-handbox" }, hand));
}

function actionBar(ctx, v, choices, myTurn, inWindow) {
  const local = ctx.local;
  const opts = { hun: v.hun, qiang: v.qiang, lang: lang() };
  const buttons = choices.filter((c) => c.kind !== "discard").sort((a, b) => BUTTON_ORDER.indexOf(a.kind) - BUTTON_ORDER.indexOf(b.kind));
  if (inWindow) {
    const who = v.last ? ctx.seatName(v.last.seat) : "";
    // one's choice in this window is made (the window stays open, alike for every seat,
    // until the others decide): what was chosen, no buttons that could only be refused
    const sent = local.sent && local.sentOn === windowKey(v) ? local.sent : null;
    if (sent) {
      return h(
        "div",
        { class: "mj-bar claim sent", id: "mj-claim", role: "status" },
        h(
          "div",
          { class: "mj-prompt" },
          h("span", { id: "mj-sent" }, w("claim_sent", { what: sent })),
          v.last && v.last.tile ? tileEl(v.last.tile, { ...opts, size: "sm" }) : null,
          timerEl(ctx),
        ),
      );
    }
    return h(
      "div",
      { class: "mj-bar claim", id: "mj-claim", role: "group" },
      h(
        "div",
        { class: "mj-prompt" },
        h("span", {}, w(v.last && v.last.kong ? "added_kong" : "claim_prompt", { who })),
        v.last && v.last.tile ? tileEl(v.last.tile, { ...opts, size: "sm" }) : null,
        timerEl(ctx),
      ),
      buttons.map((c) => actionButton(ctx, c, opts)),
      hintButton(ctx),
    );
  }
  if (!myTurn) return null;
  const picked = local.pickedTile || null;
  const discard = picked ? choices.find((c) => c.kind === "discard" && c.tile === picked) : null;
  return h(
    "div",
    { class: "mj-bar turn", id: "mj-turn" },
    h("div", { class: "mj-prompt" }, h("span", {}, picked ? w("tap_again", { tile: tileName(picked, lang()) }) : w("your_turn")), timerEl(ctx)),
    buttons.map((c) => actionButton(ctx, c, opts)),
    hintButton(ctx),
    discard
      ? h(
          "button",
          {
            class: "primary mj-discard",
            id: "mj-discard",
            onclick: () => {
              local.picked = null;
              local.sent = null;
              actWatched(local.ctx || ctx, discard.action);
            },
          },
          w("discard"),
          tileEl(picked, { ...opts, size: "xs" }),
        )
      : null,
  );
}

// ------------------------------------------------------------------ 听牌 and 提示

/** The tiles whose discard keeps the hand ready (one's turn), from the view's `ting`. */
function readyTiles(v) {
  const out = new Map();
  for (const d of (v.ting && v.ting.discards) || []) out.set(oneTile(d.tile), d.waits || []);
  return out;
}

/** One wait: the tile, how many are still unseen from this seat, 自摸 if only self-drawn. */
function waitEl(wt, opts) {
  const tile = tileText(wt.kind);
  const left = wt.unseen ?? 0;
  return h(
    "span",
    { class: `mj-wait${left ? "" : " none-left"}`, dataset: { tile, unseen: left, discard: wt.discard ? "1" : "0" } },
    tileEl(tile, { ...opts, size: "xs" }),
    h("span", { class: "mj-wait-n" }, w("unseen", { n: left })),
    wt.discard ? null : h("small", { class: "mj-wait-self" }, w("self_only")),
  );
}

function waitsLine(waits, opts) {
  const total = waits.reduce((a, x) => a + (x.unseen ?? 0), 0);
  return [h("span", { class: "mj-waits" }, waits.map((x) => waitEl(x, opts))), h("small", { class: "mj-ting-total" }, w("unseen_total", { n: total }))];
}

/** The 听牌 panel: the waits after one's discard; on one's turn the discards that keep the
 * hand ready, and the waits of the picked one. Nothing when the hand is not ready. */
function tingPanel(ctx, v, myTurn) {
  const ting = v.ting;
  if (!ting || v.phase === "over") return null;
  const opts = { hun: v.hun, qiang: v.qiang, lang: lang() };
  if (ting.waits && ting.waits.length) {
    return h("div", { class: "mj-ting", id: "mj-ting", role: "status" }, h("b", {}, w("ting")), ...waitsLine(ting.waits, opts));
  }
  if (!myTurn) return null;
  const ready = readyTiles(v);
  if (!ready.size) return null;
  const picked = ctx.local.pickedTile;
  if (picked && ready.has(picked)) {
    return h(
      "div",
      { class: "mj-ting", id: "mj-ting", role: "status" },
      h("b", {}, w("ting_after", { tile: tileName(picked, lang()) })),
      ...waitsLine(ready.get(picked), opts),
    );
  }
  return h(
    "div",
    { class: "mj-ting", id: "mj-ting", role: "status" },
    h("b", {}, w("ting_discards")),
    h("span", { class: "mj-waits" }, [...ready.keys()].map((tile) => tileEl(tile, { ...opts, size: "xs" }))),
  );
}

/** 提示: the server's advice for this seat; the first suggestion is picked (a discard: the
 * tile, as a first tap would) or marked (a claim or 自摸 button). */
function hintButton(ctx) {
  return h(
    "button",
    {
      class: "mj-hint-btn",
      id: "mj-hint-btn",
      onclick: () => {
        const local = ctx.local;
        const key = local.handKey;
        get(`/api/rooms/${ctx.roomId}/suggestions`)
          .then((answer) => {
            const now = local.ctx || ctx;
            const first = ((answer && answer.suggestions) || [])[0];
            if (!first || local.handKey !== key) return;
            const action = { ...first };
            delete action.waits;
            local.hint = { key, action };
            if (action.type === "discard") {
              const hand = document.getElementById("mj-hand");
              const tiles = hand ? [...hand.children].map((el) => el.dataset.tile) : [];
              const at = tiles.lastIndexOf(oneTile(action.tile));
              if (at >= 0) local.picked = at;
            }
            now.rerender();
          })
          .catch(() => {});
      },
    },
    w("hint"),
  );
}

/** The table's three toggles, as 雀魂 has them (kept by this browser): 自动和牌 (win
 * whenever one can), 不吃碰杠 (let every chow, pung and kong go; a win stays on offer) and
 * 自动摸切 (discard the tile just drawn when nothing else is on offer). */
const AUTO = [
  ["mjAutoWin", "auto_win"],
  ["mjNoClaims", "no_claims"],
  ["mjTsumogiri", "tsumogiri"],
];

function autoBar(ctx) {
  const now = prefs();
  return h(
    "div",
    { class: "mj-auto", id: "mj-auto", role: "group" },
    AUTO.map(([name, key]) =>
      h(
        "button",
        {
          class: `ghost small-button mj-auto-toggle${now[name] ? " on" : ""}`,
          id: `mj-${key.replace("_", "-")}`,
          "aria-pressed": now[name] ? "true" : "false",
          onclick: () => {
            setPref(name, !prefs()[name]);
            ctx.rerender();
          },
        },
        w(`auto.${key}`),
      ),
    ),
  );
}

/** What the toggles decide for the seat now, or null: 胡 (自动和牌), 过 on a claim
 * (不吃碰杠), the drawn tile's discard (自动摸切). */
function autoAction(v, choices, myTurn, inWindow) {
  const now = prefs();
  const win = choices.find((c) => c.kind === "hu" || c.kind === "zimo");
  if (now.mjAutoWin && win) return win.action;
  if (now.mjNoClaims && inWindow && !win) return (choices.find((c) => c.kind === "pass") || {}).action || null;
  if (now.mjTsumogiri && myTurn && v.drawn && choices.every((c) => c.kind === "discard")) {
    const drawn = choices.find((c) => c.tile === v.drawn);
    return drawn ? drawn.action : null;
  }
  return null;
}

export function render(ctx) {
  ensureStyle();
  const view = ctx.view;
  const local = ctx.local;
  const v = norm(view);
  local.norm = v;
  local.ctx = ctx;
  if (local.viewNow !== view) {
    local.reason = null;
    local.viewNow = view;
  }
  const acting = ctx.seat !== null && v.toAct.includes(ctx.seat) && !ctx.handOver;
  const legal = acting ? ctx.legal || view.actions || [] : [];
  const choices = legal.map((a) => classify(a, v));
  const myTurn = acting && v.phase === "play";
  // a window with nothing to claim (过 alone) shows nothing: the server passes at its end
  const inWindow = acting && !myTurn && choices.some((c) => c.kind !== "pass");
  const handKey = `${view.hand}|${v.drawn}|${v.phase}`;
  if (local.handKey !== handKey) {
    local.picked = null;
    local.handKey = handKey;
  }
  // the choice the server kept for this window (the screen was opened again mid-window)
  if (ctx.kept && inWindow && local.keptSeen !== ctx.kept) {
    local.keptSeen = ctx.kept;
    local.sent = w(classify(ctx.kept, v).kind);
    local.sentOn = windowKey(v);
  }
  // a choice made stays said while its window is open (the window asks every seat alike)
  if (acting && !(inWindow && local.sentOn === windowKey(v))) local.sent = null;
  const auto = acting ? autoAction(v, choices, myTurn, inWindow) : null;
  const decisionKey = `${handKey}|${windowKey(v)}`;
  if (auto && local.autoOn !== decisionKey) {
    local.autoOn = decisionKey; // once per decision: the toggle acts, then waits for the next
    const made = inWindow ? choices.find((c) => JSON.stringify(c.action) === JSON.stringify(auto)) : null;
    if (made) {
      // the bar says what the toggle chose in this window, as after a tap
      local.sent = w(made.kind);
      local.sentOn = windowKey(v);
    }
    setTimeout(() => actWatched(local.ctx || ctx, auto), 0);
  }
  const center = middle(ctx, v);
  let mine = null;
  if (ctx.seat !== null && v.seats[ctx.seat]) {
    const row = handRow(ctx, v, choices, myTurn);
    const hand = row.querySelector("#mj-hand");
    const pickedEl = local.picked !== null && local.picked !== undefined ? hand.children[local.picked] : null;
    local.pickedTile = pickedEl ? pickedEl.dataset.tile : null;
    // what one chose in this window (never a choice of an earlier one: the discard up now
    // may be another seat's)
    const sentHere = local.sent && local.sentOn === windowKey(v) ? local.sent : null;
    const decided = v.decided || sentHere;
    const waiting =
      !acting && v.last && decided && v.phase !== "over" && v.phase !== "play"
        ? h("p", { class: "mj-hint", id: "mj-sent" }, w("claim_sent", { what: v.decided ? decisionText(v.decided) : sentHere }))
        : null;
    const lost = lostClaim(ctx, v, inWindow, choices, acting);
    mine = h(
      "div",
      { class: "mj-mine" },
      v.result ? resultPanel(ctx, v) : null,
      local.reason ? h("p", { class: "mj-reason", id: "mj-reason", role: "alert" }, w("refused", { m: local.reason })) : null,
      actionBar(ctx, v, choices, myTurn, inWindow),
      waiting,
      lost
        ? h(
            "p",
            { class: "mj-hint mj-lost", id: "mj-lost", role: "status", dataset: { kind: lost.kind, seat: lost.seat } },
            w(`claim_lost.${lost.mine.includes("chi") && lost.kind !== "chi" ? "chi" : "other"}`, { who: ctx.seatName(lost.seat), claim: w(lost.kind), tile: tileName(lost.tile, lang()), mine: lost.mine.map((k) => w(k)).join("/") }),
          )
        : null,
      tingPanel(ctx, v, myTurn),
      row,
      v.phase !== "over" ? autoBar(ctx) : null,
      v.hun.length ? h("p", { class: "mj-hint mj-legend" }, w("legend")) : null,
    );
  } else if (v.result) {
    mine = h("div", { class: "mj-mine" }, resultPanel(ctx, v));
  }
  return { center, mine };
}

/** The claim window a choice is made in: the discard (or 补杠 tile) up, by its seat and count. */
function windowKey(v) {
  if (!v || !v.last) return "";
  const s = v.seats[v.last.seat];
  return `${v.last.seat}:${v.last.tile}:${s ? s.discards.length : ""}:${v.last.kong ? "k" : ""}`;
}

/**
 * A window one could claim in (吃, 碰 …), closed by another seat's claim of the tile (碰 and
 * 杠 come before 吃): who took it and how, kept on the bar until one acts again, so the
 * buttons do not just vanish.
 */
function lostClaim(ctx, v, inWindow, choices, acting) {
  const local = ctx.local;
  if (inWindow && v.last) {
    local.offer = { from: v.last.seat, tile: v.last.tile, kinds: choices.map((c) => c.kind).filter((k) => k !== "pass") };
    local.lost = null;
  } else if (acting) {
    local.offer = null;
    local.lost = null;
  }
  const meld = (ctx.events || []).find((e) => e.type === "melded" && e.seat !== ctx.seat && local.offer && e.source === local.offer.from && ["chi", "peng", "minggang"].includes(e.kind));
  if (meld && local.offer) {
    local.lost = { seat: meld.seat, kind: meld.kind === "minggang" ? "gang" : meld.kind, tile: local.offer.tile, mine: local.offer.kinds };
    local.offer = null;
  }
  return v.phase === "over" ? null : local.lost || null;
}

/** The engine's text of one's own claim decision ("peng", "chi 345m", "pass") in words. */
function decisionText(text) {
  const [kind, tiles] = String(text).split(" ");
  const word = { win: "hu", peng: "peng", gang: "gang", chi: "chi", pass: "pass" }[kind];
  return word ? `${w(word)}${tiles ? ` ${tilesOf(tiles).map((x) => tileName(x, lang())).join("")}` : ""}` : text;
}

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
//
// Everything comes from the server's view and its `legal` list; the view fields read are
// collected in `norm()` (see docs/client.md, "the mahjong table").

import { h, signed } from "../js/dom.js";
import { STRINGS, lang, phaseName, t } from "../js/i18n.js";
import { MJ_STRINGS } from "./majiang-strings.js";
import { hunOf, sortTiles, splitTiles, tileEl, tileName, tilesEl, backsEl } from "./mjtiles.js";

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

export function createOptions(variant) {
  const params = (variant && variant.params) || {};
  if (params.qiang === undefined && !(variant && variant.code === "anshan-majiang")) return [];
  return [
    {
      key: "qiang",
      label: w("opt_qiang"),
      choices: [
        { value: "ming", label: w("opt_qiang.ming") },
        { value: "an", label: w("opt_qiang.an") },
      ],
      default: params.qiang || "ming",
    },
  ];
}

// ------------------------------------------------------------------ the view, normalised

function tilesOf(value) {
  if (value === null || value === undefined) return [];
  if (Array.isArray(value)) return value.flatMap((x) => (typeof x === "object" && x !== null ? tilesOf(x.tile ?? x.tiles) : splitTiles(x)));
  return splitTiles(value);
}

function oneTile(value) {
  const tiles = tilesOf(value);
  return tiles.length ? tiles[0] : null;
}

const MELD_KINDS = {
  c: "chi", chi: "chi", chow: "chi",
  p: "peng", peng: "peng", pung: "peng", pong: "peng",
  k: "minggang", minggang: "minggang", ming_gang: "minggang", kong: "minggang", gang: "minggang",
  b: "minggang", bugang: "minggang", bu_gang: "minggang", added_kong: "minggang",
  a: "angang", angang: "angang", an_gang: "angang", concealed_kong: "angang",
};

function meldOf(m) {
  if (typeof m === "string") {
    const [kind, tiles] = m.includes(":") ? m.split(":") : ["", m];
    return { kind: MELD_KINDS[kind] || kind, tiles: splitTiles(tiles), from: null, tile: null };
  }
  return {
    kind: MELD_KINDS[m.kind ?? m.type] || m.kind || m.type || "",
    tiles: tilesOf(m.tiles),
    from: m.from ?? m.from_seat ?? null,
    tile: oneTile(m.claimed ?? m.tile ?? null),
  };
}

/** The view's fields under one set of names (the engine's names are read here only). */
export function norm(view) {
  const seatsRaw = Array.isArray(view.seats) ? view.seats : [];
  const n = seatsRaw.length || (view.hand_sizes || []).length || 4;
  const seats = [];
  for (let i = 0; i < n; i++) {
    const s = seatsRaw[i] || {};
    const sizes = view.hand_sizes || view.concealed || [];
    const discardsRaw = s.discards ?? (view.discards || [])[i] ?? [];
    const discards = (Array.isArray(discardsRaw) ? discardsRaw : splitTiles(discardsRaw)).flatMap((d) =>
      typeof d === "object" && d !== null
        ? [{ tile: oneTile(d.tile), claimed: !!(d.claimed || d.taken) }]
        : splitTiles(d).map((tile) => ({ tile, claimed: false })),
    );
    const meldsRaw = s.melds ?? (view.melds || [])[i] ?? [];
    seats.push({
      seat: i,
      count: s.concealed ?? s.hand_size ?? s.tiles ?? sizes[i] ?? null,
      melds: (Array.isArray(meldsRaw) ? meldsRaw : String(meldsRaw).split(/\s+/).filter(Boolean)).map(meldOf),
      discards,
      open: s.open ?? null,
      hand: s.hand !== undefined && s.hand !== null ? tilesOf(s.hand) : null,
    });
  }
  const flip = oneTile(view.flip ?? view.indicator ?? view.flipped);
  const hun = oneTile(view.hun ?? view.wild) || hunOf(flip);
  const qiangRaw = view.qiang_tiles ?? view.qiang ?? view.guns ?? null;
  const qiang = typeof qiangRaw === "string" && !/\d/.test(qiangRaw) ? [] : tilesOf(qiangRaw);
  const hand = tilesOf(view.hand);
  const drawn = oneTile(view.drawn ?? view.draw ?? view.last_draw);
  const lastRaw = view.last_discard ?? view.discard ?? view.claim ?? null;
  const last = lastRaw && typeof lastRaw === "object" ? { seat: lastRaw.seat ?? lastRaw.from ?? null, tile: oneTile(lastRaw.tile) } : null;
  return {
    phase: view.phase,
    seat: view.seat,
    toAct: view.to_act || [],
    dealer: view.dealer ?? view.banker ?? null,
    flip,
    hun,
    qiang,
    qiangMode: view.qiang_mode ?? (typeof qiangRaw === "string" && !/\d/.test(qiangRaw) ? qiangRaw : null),
    wall: view.wall ?? view.wall_count ?? view.wall_left ?? null,
    hand,
    drawn,
    seats,
    last,
    window: view.window ?? view.claim_window ?? null,
    myClaim: view.my_claim ?? view.decision ?? null,
    result: view.result ?? view.win ?? null,
  };
}

// ------------------------------------------------------------------ legal actions

const KIND_WORDS = {
  discard: "discard", play: "discard", da: "discard",
  chi: "chi", chow: "chi",
  peng: "peng", pung: "peng", pong: "peng",
  gang: "gang", kong: "gang", minggang: "gang", ming_gang: "gang",
  angang: "angang", an_gang: "angang", concealed_kong: "angang",
  bugang: "bugang", bu_gang: "bugang", added_kong: "bugang",
  hu: "hu", win: "hu", zimo: "zimo", tsumo: "zimo", ron: "hu",
  pass: "pass", guo: "pass",
};

/** What a legal action is, for the table: {kind, tile, tiles} (kind "other" if unknown). */
export function classify(action, myTurn) {
  let kind = KIND_WORDS[action.type] || "other";
  if (action.type === "claim" || action.type === "kong" || action.type === "gang") {
    const sub = KIND_WORDS[action.kind ?? action.claim ?? action.what] || null;
    if (sub) kind = sub;
    else if (action.type !== "claim") kind = "gang";
  }
  if (kind === "gang" && myTurn) {
    const how = String(action.how ?? action.form ?? action.kind ?? "");
    kind = /bu|add/.test(how) ? "bugang" : "angang";
  }
  if (kind === "hu" && myTurn) kind = "zimo";
  const tiles = tilesOf(action.tiles ?? action.meld ?? action.with ?? null);
  return { kind, tile: oneTile(action.tile ?? null) || (tiles.length && kind !== "chi" ? tiles[0] : null), tiles, action };
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
  const base = ctx.seat === null ? 0 : ctx.seat;
  return ["bottom", "right", "top", "left"][(seat - base + n) % n] || "top";
}

function meldEl(meld, opts) {
  const tiles = meld.tiles.length ? meld.tiles : [];
  const row = h("div", { class: `mj-meld ${meld.kind}`, dataset: { kind: meld.kind, tiles: tiles.join("") } });
  tiles.forEach((tile, k) => {
    const concealed = meld.kind === "angang" && (k === 0 || k === 3);
    row.appendChild(tileEl(tile, { ...opts, back: concealed && opts.hideKong }));
  });
  row.title = gloss("group", meld.kind);
  return row;
}

function meldsEl(melds, opts, cls = "mj-melds") {
  if (!melds.length) return null;
  return h("div", { class: cls }, melds.map((m) => meldEl(m, opts)));
}

function pondEl(v, seat, opts) {
  const s = v.seats[seat];
  const lastSeat = v.last && v.last.seat;
  return h(
    "div",
    { class: "mj-pond", dataset: { seat, tiles: s.discards.map((d) => d.tile).join("") } },
    s.discards.map((d, k) => {
      const el = tileEl(d.tile, opts);
      if (d.claimed) el.classList.add("claimed-away");
      if (seat === lastSeat && k === s.discards.length - 1 && v.last && d.tile === v.last.tile) el.classList.add("last");
      return el;
    }),
  );
}

export function seatExtra(ctx, seat) {
  const v = ctx.local.norm || norm(ctx.view);
  const s = v.seats[seat];
  if (!s) return null;
  const place = placeOf(ctx, seat, v.seats.length);
  const opts = { hun: v.hun, qiang: v.qiang, size: "sm", lang: lang() };
  const mine = seat === ctx.seat;
  const dealer = v.dealer;
  const wind = dealer === null || dealer === undefined ? null : (seat - dealer + v.seats.length) % v.seats.length;
  return h(
    "div",
    { class: "mj-seat", dataset: { place, seat } },
    h(
      "div",
      { class: "mj-count" },
      wind === null ? null : h("span", { class: "mj-wind", title: tileName(`${wind + 1}z`, lang()) }, w(`wind.${wind}`)),
      !mine && s.count !== null ? w("tiles", { n: s.count }) : null,
    ),
    mine && ctx.seat !== null ? null : meldsEl(s.melds, { ...opts, hideKong: true }),
    s.hand && !mine ? tilesEl(sortTiles(s.hand, v.hun), opts) : null,
    pondEl(v, seat, opts),
  );
}

function middle(ctx, v) {
  const opts = { hun: v.hun, qiang: v.qiang, lang: lang() };
  const figs = [];
  if (v.flip) figs.push(h("figure", { id: "mj-flip" }, tileEl(v.flip, { ...opts, hun: null }), h("figcaption", {}, w("flip"))));
  if (v.hun) figs.push(h("figure", { id: "mj-hun", dataset: { tile: v.hun } }, tileEl(v.hun, opts), h("figcaption", {}, w("hun"))));
  if (v.qiang.length) {
    figs.push(
      h("figure", { id: "mj-qiang", dataset: { tiles: v.qiang.join("") } }, tilesEl(v.qiang, { ...opts, hun: null, qiang: [] }), h("figcaption", {}, w("qiang"))),
    );
  } else if (v.qiangMode === "an") {
    figs.push(h("figure", { id: "mj-qiang" }, h("figcaption", {}, w("qiang_an"))));
  }
  const lastWho = v.last && v.last.seat !== null && v.last.seat !== undefined ? ctx.seatName(v.last.seat) : null;
  return h(
    "div",
    { class: "mj-mid" },
    h(
      "div",
      { class: "chips" },
      h("span", { class: "chip" }, phaseName(v.phase)),
      v.wall !== null ? h("span", { class: "chip mj-wall", id: "mj-wall", dataset: { wall: v.wall } }, w("wall", { n: v.wall })) : null,
    ),
    h("div", { class: "mj-indicator" }, figs),
    v.last && v.last.tile && v.phase !== "over"
      ? h("div", { class: "mj-lastd", id: "mj-last", dataset: { tile: v.last.tile, seat: v.last.seat } }, h("small", {}, w("discarded", { who: lastWho || "" })), tileEl(v.last.tile, { ...opts, size: "sm" }))
      : null,
  );
}

// ------------------------------------------------------------------ the win screen

function groupLabel(kind) {
  return gloss("group", kind);
}

function groupsOf(result) {
  const raw = result.decomposition ?? result.groups ?? result.arrangement ?? null;
  if (!raw) return [];
  return (Array.isArray(raw) ? raw : String(raw).split(/\s+/).filter(Boolean)).map((g) => {
    if (typeof g === "string") {
      const [kind, tiles] = g.includes(":") ? g.split(":") : ["", g];
      return { kind: { c: "chow", p: "pung", k: "kong", j: "pair", s: "single" }[kind] || kind, tiles: splitTiles(tiles), as: [] };
    }
    return { kind: g.kind ?? g.type ?? "", tiles: tilesOf(g.tiles), as: tilesOf(g.as ?? g.stands_for ?? null) };
  });
}

function fansOf(result) {
  const raw = result.fans ?? [];
  const counts = new Map();
  for (const f of raw) {
    const name = typeof f === "string" ? f : f.name;
    const k = typeof f === "string" ? 1 : f.count ?? f.fan ?? 1;
    counts.set(name, (counts.get(name) || 0) + k);
  }
  return [...counts.entries()];
}

function resultPanel(ctx, v) {
  const r = v.result;
  const opts = { hun: v.hun, qiang: v.qiang, size: "sm", lang: lang() };
  const winner = r.winner ?? r.seat ?? null;
  if (winner === null || winner === undefined || r.draw || r.liuju) {
    return h("section", { class: "mj-result draw", id: "mj-result", dataset: { draw: "1" } }, h("h3", {}, w("draw")), h("p", { class: "mj-hint" }, w("draw_note")));
  }
  const from = r.from ?? r.discarder ?? null;
  const selfDrawn = r.self_drawn ?? r.zimo ?? from === null;
  const who = ctx.seatName(winner);
  const title = selfDrawn
    ? w("won_self", { who })
    : r.robbed || r.qiang_gang
      ? w("robbed", { who, from: ctx.seatName(from) })
      : w("won_from", { who, from: ctx.seatName(from) });
  const winTile = oneTile(r.tile ?? r.win_tile ?? r.winning_tile);
  const groups = groupsOf(r);
  let winMarked = false;
  const groupEls = groups.map((g) => {
    const has = !winMarked && winTile && g.tiles.includes(winTile);
    if (has) winMarked = true;
    return h(
      "div",
      { class: `mj-group${has ? " win-tile" : ""}`, dataset: { kind: g.kind, tiles: g.tiles.join("") } },
      tilesEl(g.tiles, opts),
      h("small", {}, groupLabel(g.kind), g.as.length ? ` = ${g.as.map((x) => tileName(x, lang())).join("")}` : ""),
    );
  });
  const form = r.form ?? r.reason ?? null;
  const formKey = { standard: "standard", 平胡: "standard", 七对: "qidui", qidui: "qidui", 十三幺: "shisanyao", shisanyao: "shisanyao" }[form];
  const fans = fansOf(r);
  const total = r.fan ?? fans.reduce((a, [, k]) => a + k, 0);
  const hand = tilesOf(r.hand ?? null);
  const melds = (r.melds || []).map(meldOf);
  return h(
    "section",
    { class: "mj-result", id: "mj-result", dataset: { winner, from: from === null ? "" : from, fan: total } },
    h("h3", { id: "mj-result-title" }, title),
    formKey ? h("div", { class: "mj-hint" }, w(`form.${formKey}`)) : null,
    groupEls.length
      ? h("div", { class: "mj-groups", id: "mj-groups" }, groupEls)
      : h("div", { class: "mj-groups", id: "mj-groups" }, hand.length ? tilesEl(sortTiles(hand, v.hun), opts) : null, meldsEl(melds, opts)),
    winTile ? h("div", { class: "mj-hint", id: "mj-win-tile", dataset: { tile: winTile } }, `${w("winning_tile")}: `, tileEl(winTile, opts)) : null,
    h(
      "div",
      {},
      h("strong", {}, `${w("fans")}: `),
      fans.length
        ? h("ul", { class: "mj-fans", id: "mj-fans" }, fans.map(([name, k]) => h("li", { dataset: { fan: name, count: k } }, k > 1 ? `${gloss("fan", name)} ×${k}` : gloss("fan", name))))
        : h("span", { id: "mj-fans", class: "mj-hint" }, w("no_fans")),
      h("div", { class: "mj-hint", id: "mj-fan-total" }, w("fan_total", { n: total })),
    ),
    payTable(ctx, v, r, winner),
    revealedHands(ctx, v, winner),
  );
}

function payTable(ctx, v, r, winner) {
  const deltas = r.pay ?? r.deltas ?? r.settlement ?? (ctx.handOver ? ctx.handOver.scores : null);
  if (!deltas) return null;
  const details = r.payments ?? r.losers ?? [];
  const detailOf = (seat) => details.find((d) => (d.seat ?? d.loser) === seat) || null;
  const rows = deltas.map((delta, seat) => {
    let exp = "";
    if (seat === winner) exp = w("pay_winner");
    else {
      const d = detailOf(seat);
      if (d) {
        const n = d.fan ?? d.exponent ?? d.e ?? null;
        const extras = (d.extras ?? d.extra ?? []).map((x) => gloss("extra", x));
        exp = [n === null ? "" : w("pay_formula", { n, v: 2 ** n }), extras.length ? `(${extras.join("，")})` : ""].filter(Boolean).join(" ");
      } else if (delta < 0) {
        exp = w("pay_formula", { n: Math.round(Math.log2(-delta)), v: -delta });
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
    { class: "mj-pay", id: "mj-pay" },
    h("thead", {}, h("tr", {}, h("th", {}, w("pay_seat")), h("th", {}, w("pay_exp")), h("th", {}, w("pay_delta")))),
    h("tbody", {}, rows),
  );
}

function revealedHands(ctx, v, winner) {
  const shown = v.seats.filter((s) => s.hand && s.seat !== winner);
  if (!shown.length) return null;
  const opts = { hun: v.hun, qiang: v.qiang, size: "sm", lang: lang() };
  return h(
    "div",
    { class: "mj-hands", id: "mj-hands" },
    h("strong", {}, w("hands")),
    shown.map((s) => h("div", { dataset: { seat: s.seat } }, h("span", { class: "who" }, ctx.seatName(s.seat)), tilesEl(sortTiles(s.hand, v.hun), opts), meldsEl(s.melds, opts))),
  );
}

// ------------------------------------------------------------------ the player's area

const BUTTON_ORDER = ["hu", "zimo", "gang", "angang", "bugang", "peng", "chi", "pass", "other"];

function actionButton(ctx, v, c, opts) {
  let label;
  const kind = c.kind;
  if (kind === "chi") {
    const shown = c.tiles.length ? c.tiles : [];
    label = [w("chi"), shown.length ? tilesEl(sortTiles(shown), { ...opts, size: "xs" }) : null];
  } else if (kind === "angang" || kind === "bugang") {
    label = [w(kind), c.tile ? tileEl(c.tile, { ...opts, size: "xs" }) : null];
  } else if (["hu", "zimo", "gang", "peng", "pass"].includes(kind)) label = w(kind);
  else label = c.action.type;
  return h(
    "button",
    {
      class: `mj-act mj-${kind}`,
      dataset: { kind, action: JSON.stringify(c.action) },
      onclick: () => {
        const local = ctx.local;
        local.sent = kind === "pass" ? w("pass") : typeof label === "string" ? label : w(kind);
        local.picked = null;
        actWatched(local.ctx || ctx, c.action);
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
    // the view's hand holds the drawn tile too: take one copy out to set it apart
    const at = tiles.lastIndexOf(drawn);
    if (at >= 0) tiles.splice(at, 1);
  }
  tiles = sortTiles(tiles, v.hun);
  const all = drawn ? [...tiles, drawn] : tiles;
  // the tiles share the row's width: a full 14 (with the drawn one apart) fits a phone
  const slots = Math.max(13, all.length) + 0.4;
  const hand = h("div", { class: "mj-hand", id: "mj-hand", style: `--slots:${slots.toFixed(1)}`, dataset: { tiles: all.join("") } });
  all.forEach((tile, i) => {
    const el = tileEl(tile, opts);
    el.dataset.index = i;
    if (drawn && i === all.length - 1) el.classList.add("mj-drawn");
    const action = discards.get(tile);
    if (myTurn && action) {
      el.classList.add("playable");
      if (local.picked === i) el.classList.add("picked");
      el.addEventListener("click", () => {
        const now = local.ctx || ctx;
        if (local.picked === i) {
          local.picked = null;
          local.sent = w("discard");
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
    const lastWho = v.last && v.last.seat !== null && v.last.seat !== undefined ? ctx.seatName(v.last.seat) : "";
    return h(
      "div",
      { class: "mj-bar claim", id: "mj-claim", role: "group" },
      h(
        "div",
        { class: "mj-prompt" },
        h("span", {}, w("claim_prompt", { who: lastWho })),
        v.last && v.last.tile ? tileEl(v.last.tile, { ...opts, size: "sm" }) : null,
        timerEl(ctx),
      ),
      buttons.map((c) => actionButton(ctx, v, c, opts)),
    );
  }
  if (!myTurn) return null;
  const picked = local.picked !== null && local.picked !== undefined ? local.pickedTile : null;
  const discard = picked ? choices.find((c) => c.kind === "discard" && c.tile === picked) : null;
  return h(
    "div",
    { class: "mj-bar turn", id: "mj-turn" },
    h("div", { class: "mj-prompt" }, h("span", {}, picked ? w("tap_again", { tile: tileName(picked, lang()) }) : w("your_turn")), timerEl(ctx)),
    buttons.map((c) => actionButton(ctx, v, c, opts)),
    discard
      ? h(
          "button",
          {
            class: "primary mj-discard",
            id: "mj-discard",
            onclick: () => {
              local.picked = null;
              local.sent = w("discard");
              actWatched(local.ctx || ctx, discard.action);
            },
          },
          w("discard"),
          tileEl(picked, { ...opts, size: "xs" }),
        )
      : null,
  );
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
  const legal = acting ? ctx.legal || [] : [];
  // my turn: a discard is among my choices; otherwise a decision on someone's discard
  const myTurnGuess = legal.some((a) => classify(a, false).kind === "discard");
  const choices = legal.map((a) => classify(a, myTurnGuess));
  const inWindow = acting && !myTurnGuess && choices.length > 0;
  if (local.handKey !== `${view.hand}|${v.drawn}`) {
    local.picked = null;
    local.handKey = `${view.hand}|${v.drawn}`;
  }
  if (acting) local.sent = null;
  const center = middle(ctx, v);
  let mine = null;
  if (ctx.seat !== null && v.seats[ctx.seat]) {
    const row = handRow(ctx, v, choices, myTurnGuess);
    const hand = row.querySelector("#mj-hand");
    local.pickedTile = local.picked !== null && local.picked !== undefined && hand.children[local.picked] ? hand.children[local.picked].dataset.tile : null;
    const waiting =
      !acting && !v.result && local.sent && v.phase !== "over"
        ? h("p", { class: "mj-hint", id: "mj-sent" }, w("claim_sent", { what: local.sent }))
        : null;
    mine = h(
      "div",
      { class: "mj-mine" },
      v.result ? resultPanel(ctx, v) : null,
      local.reason ? h("p", { class: "mj-reason", id: "mj-reason", role: "alert" }, w("refused", { m: local.reason })) : null,
      actionBar(ctx, v, choices, myTurnGuess, inWindow),
      waiting,
      row,
      v.hun ? h("p", { class: "mj-hint mj-legend" }, w("legend")) : null,
    );
  } else if (v.result) {
    mine = h("div", { class: "mj-mine" }, resultPanel(ctx, v));
  }
  return { center, mine };
}

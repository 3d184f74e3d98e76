// The lobby's game finder (找游戏): 常玩 (favourites ★ and recently played, first), a
// search box (name, pinyin initials or full pinyin, English name, code), the region chips,
// and every game grouped by family with three rows shown per family until 更多; each game
// has 快速开始 (a seat at a waiting room of that game, else a new room with bots), 开房间
// (the room form) and its rule page. Favourites and the recent games are kept in this
// browser (localStorage), the recent ones merged with the player's ledger.

import { get, post } from "./api.js";
import { h, toast } from "./dom.js";
import { nameOf, playersText, t } from "./i18n.js";
import "./helper-strings.js";

const FAVS_KEY = "paiju.favs";
const RECENT_KEY = "paiju.recent";
const SHOWN_PER_FAMILY = 3;

/** 拼音 of every character of the catalogue's names (a test keeps it complete). */
export const PINYIN = {
  三: "san", 丙: "bing", 东: "dong", 乙: "yi", 九: "jiu", 佳: "jia", 免: "mian", 兴: "xing",
  分: "fen", 刘: "liu", 则: "ze", 到: "dao", 制: "zhi", 北: "bei", 十: "shi", 单: "dan",
  发: "fa", 哈: "ha", 城: "cheng", 大: "da", 子: "zi", 宁: "ning", 定: "ding", 宝: "bao",
  将: "jiang", 小: "xiao", 山: "shan", 张: "zhang", 弹: "dan", 打: "da", 报: "bao", 摆: "bai",
  放: "fang", 比: "bi", 牌: "pai", 率: "lv", 甲: "jia", 积: "ji", 绍: "shao", 羊: "yang",
  规: "gui", 赔: "pei", 鞍: "an", 麻: "ma",
};

/** The regions a game's name places it in (鞍山甲乙丙 → 鞍山); others are played anywhere. */
export const REGIONS = [
  { key: "anshan", zh: "鞍山" },
  { key: "ningcheng", zh: "宁城" },
  { key: "shaoxing", zh: "绍兴" },
  { key: "dongbei", zh: "东北" },
];

export function regionOf(variant) {
  const name = variant.name_zh || "";
  const found = REGIONS.find((r) => name.includes(r.zh));
  return found ? found.key : "";
}

/** The name's pinyin initials and full pinyin ("鞍山放羊" → "asfy", "anshanfangyang"). */
export function pinyinOf(text) {
  let initials = "";
  let full = "";
  for (const ch of String(text || "")) {
    const py = PINYIN[ch];
    if (py) {
      initials += py[0];
      full += py;
    } else if (/[0-9a-z]/i.test(ch)) {
      initials += ch.toLowerCase();
      full += ch.toLowerCase();
    }
  }
  return { initials, full };
}

/** Whether a game answers the search text (any of its names, pinyin, code). */
export function matches(variant, query) {
  const q = String(query || "").trim().toLowerCase().replace(/\s+/g, "");
  if (!q) return true;
  const { initials, full } = pinyinOf(variant.name_zh);
  const hay = [variant.code, variant.name_zh, variant.name_en, initials, full, ...(variant.aliases || [])];
  return hay.some((x) => String(x || "").toLowerCase().replace(/\s+/g, "").includes(q));
}

function readList(key) {
  try {
    const list = JSON.parse(localStorage.getItem(key) || "[]");
    return Array.isArray(list) ? list.filter((x) => typeof x === "string") : [];
  } catch {
    return [];
  }
}

export function favourites() {
  return readList(FAVS_KEY);
}

function toggleFavourite(code) {
  const now = favourites();
  const next = now.includes(code) ? now.filter((c) => c !== code) : [code, ...now];
  localStorage.setItem(FAVS_KEY, JSON.stringify(next.slice(0, 40)));
}

/** Remember a game as just played (the room's table calls it on opening a room). */
export function rememberPlayed(code) {
  if (!code) return;
  const next = [code, ...readList(RECENT_KEY).filter((c) => c !== code)].slice(0, 12);
  localStorage.setItem(RECENT_KEY, JSON.stringify(next));
}

export function recentlyPlayed() {
  return readList(RECENT_KEY);
}

/** The room's seats for 快速开始: as the room form's default (4 where the game allows). */
function quickSeats(variant) {
  const [lo, hi] = variant.players;
  return Math.min(hi, 4 >= lo ? 4 : lo);
}

/**
 * 快速开始: an open seat at a waiting room of this game (one not full, most players first),
 * else a new room of the game with bots in every other seat, started at once.
 */
export async function quickStart(variant, who) {
  try {
    const rooms = await get("/api/rooms?status=waiting");
    const mine = rooms.find((r) => r.code === variant.code && who && (r.seat_players || []).includes(who.id));
    if (mine) {
      location.hash = `#/room/${mine.id}`;
      return;
    }
    const open = rooms
      .filter((r) => r.code === variant.code && r.status === "waiting" && (r.control || []).includes("open"))
      .sort((a, b) => b.players.filter((p) => p && p !== "bot").length - a.players.filter((p) => p && p !== "bot").length);
    for (const r of open) {
      try {
        await post(`/api/rooms/${r.id}/join`, {});
        rememberPlayed(variant.code);
        location.hash = `#/room/${r.id}`;
        return;
      } catch {
        /* taken meanwhile: the next one */
      }
    }
    const seats = quickSeats(variant);
    const made = await post("/api/rooms", { code: variant.code, options: { seats, bots: seats - 1 }, game_options: {}, seat: 0 });
    rememberPlayed(variant.code);
    location.hash = `#/room/${made.room.id}`;
  } catch (exc) {
    toast(t("err.generic", { m: exc.message }), "error");
  }
}

/**
 * The finder: `onCreate(variant)` opens the room form, `who` is the player, `extraNote(v)`
 * a family's note under a game's name (宝子's deck and best pair), `recentCodes` the codes
 * of the player's ledger (newest first).
 */
export function gameFinder(variants, { onCreate, who, extraNote, recentCodes = [] }) {
  const state = { query: "", region: "", open: new Set() };
  const box = h("div", { class: "finder", id: "finder" });
  const search = h("input", {
    type: "search",
    id: "game-search",
    name: "game-search",
    autocomplete: "off",
    spellcheck: "false",
    placeholder: t("find.search"),
    "aria-label": t("find.search"),
    oninput: () => {
      state.query = search.value;
      draw();
    },
  });
  const list = h("div", { class: "finder-body" });
  box.append(h("div", { class: "finder-tools" }, search, h("div", { class: "region-chips", id: "region-chips" })), list);

  function regionChips() {
    const chips = box.querySelector("#region-chips");
    chips.replaceChildren(
      ...[{ key: "", zh: "" }, ...REGIONS].map((r) =>
        h(
          "button",
          {
            type: "button",
            class: `chip region${state.region === r.key ? " on" : ""}`,
            dataset: { region: r.key },
            "aria-pressed": state.region === r.key ? "true" : "false",
            onclick: () => {
              state.region = state.region === r.key ? "" : r.key;
              draw();
            },
          },
          r.key ? t(`find.region.${r.key}`) : t("find.region.all"),
        ),
      ),
    );
  }

  function row(v, { top = false } = {}) {
    const fav = favourites().includes(v.code);
    const region = regionOf(v);
    return h(
      "li",
      { class: `code${v.playable ? "" : " unplayable"}${fav ? " fav" : ""}`, dataset: top ? { top: v.code } : { code: v.code } },
      h(
        "button",
        {
          type: "button",
          class: `star${fav ? " on" : ""}`,
          dataset: { star: v.code },
          "aria-pressed": fav ? "true" : "false",
          "aria-label": fav ? t("find.unfav") : t("find.fav"),
          title: fav ? t("find.unfav") : t("find.fav"),
          onclick: () => {
            toggleFavourite(v.code);
            draw();
          },
        },
        fav ? "★" : "☆",
      ),
      // a numbered code shows its number; a named one (anshan-jiayibing) its name alone
      h("span", { class: "code-id" }, /^\d+$/.test(v.code) ? v.code : ""),
      h("span", { class: "code-name" }, nameOf(v), region ? h("span", { class: "region-tag" }, t(`find.region.${region}`)) : null),
      h(
        "span",
        { class: "code-players" },
        playersText(v.players),
        extraNote ? extraNote(v) : null,
      ),
      h("a", { class: "rules-link", href: `#/rules/${encodeURIComponent(v.code)}` }, t("lobby.rules")),
      v.playable
        ? h("button", { type: "button", class: "quick", dataset: top ? { quickTop: v.code } : { quick: v.code }, onclick: () => quickStart(v, who) }, t("find.quick"))
        : null,
      v.playable
        ? h("button", { type: "button", class: "create", dataset: top ? { createTop: v.code } : { create: v.code }, onclick: () => onCreate(v) }, t("lobby.create"))
        : h("span", { class: "muted" }, t(v.off ? "lobby.game_off" : "lobby.not_playable")),
    );
  }

  function usual() {
    const favs = favourites();
    const recent = [...recentlyPlayed(), ...recentCodes].filter((c, i, all) => all.indexOf(c) === i);
    const codes = [...favs, ...recent.filter((c) => !favs.includes(c))];
    return codes.map((c) => variants.find((v) => v.code === c)).filter((v) => v && v.playable).slice(0, 6);
  }

  function draw() {
    regionChips();
    const searching = !!state.query.trim() || !!state.region;
    const shown = variants.filter((v) => matches(v, state.query) && (!state.region || regionOf(v) === state.region));
    const parts = [];
    const top = searching ? [] : usual();
    if (top.length) {
      parts.push(
        h(
          "section",
          { class: "usual", id: "usual" },
          h("h3", {}, t("find.usual")),
          h("ul", { class: "codes" }, top.map((v) => row(v, { top: true }))),
        ),
      );
    }
    const families = new Map();
    for (const v of shown) {
      if (!families.has(v.family)) families.set(v.family, []);
      families.get(v.family).push(v);
    }
    const favs = favourites();
    for (const [family, games] of families) {
      // within a family: favourites first, then the catalogue's order
      const ordered = [...games].sort((a, b) => (favs.includes(b.code) ? 1 : 0) - (favs.includes(a.code) ? 1 : 0));
      const open = searching || state.open.has(family) || ordered.length <= SHOWN_PER_FAMILY + 1;
      const visible = open ? ordered : ordered.slice(0, SHOWN_PER_FAMILY);
      const hidden = ordered.length - visible.length;
      parts.push(
        h(
          "section",
          { class: "family", dataset: { family } },
          h("h3", {}, t(`family.${family}`), h("small", { class: "muted" }, ` ${t("find.count", { n: games.length })}`)),
          h(
            "ul",
            { class: "codes" },
            ordered.map((v) => {
              const el = row(v);
              if (!visible.includes(v)) el.classList.add("folded");
              return el;
            }),
          ),
          hidden
            ? h(
                "button",
                {
                  type: "button",
                  class: "ghost more",
                  dataset: { more: family },
                  onclick: () => {
                    state.open.add(family);
                    draw();
                  },
                },
                t("find.more", { n: hidden }),
              )
            : null,
        ),
      );
    }
    if (!shown.length) parts.push(h("p", { class: "muted", id: "find-none" }, t("find.none", { q: state.query.trim() })));
    list.replaceChildren(...parts);
  }
  draw();
  return box;
}

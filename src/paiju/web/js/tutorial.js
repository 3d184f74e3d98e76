// 新手教程: a first game that teaches, one per family (#/learn/FAMILY).
//
// A tutorial is a fixed deal played out in the browser from a script (learn/tutorials.json):
// the bots' moves come one at a time with a sentence on what happened, and on the player's
// turns the coach lights the cards or the button to tap and says why the play is legal;
// the last step says what the result means. Nothing goes to the server: the table is drawn
// here from the script's own events, and those events go through the same voice and motion
// (feel.js) and sounds as a room's. It is reachable from each rule page and offered on a
// player's first room of a game; 跳过 (skip) ends it at any step. docs/web.md says why a
// local script and not a room on the server.

import { clear, h, styleSheet } from "./dom.js";
import { addStrings, lang, t } from "./i18n.js";
import { cardEl, splitCards } from "./cards.js";
import { splitTiles, tileEl, tileName } from "../tables/mjtiles.js";
import { clearMoments, feelUpdate, lastCardsBadge } from "./feel.js";
import { sound, soundOf } from "./sound.js";

const TUTORIAL_STRINGS = {
  zh: {
    "learn.title": "新手教程 · {name}",
    "learn.step": "第 {k} 步 / 共 {n} 步",
    "learn.skip": "跳过教程",
    "learn.next": "下一步",
    "learn.done": "完成，去开一桌",
    "learn.tap_lit": "点亮起来的牌，再点按钮",
    "learn.you": "你",
    "learn.bot": "机器人 {n}",
    "learn.cards": "{n} 张",
    "learn.pass": "要不起",
    "learn.bid": "叫 {n} 分",
    "learn.no_bid": "不叫",
    "learn.trump": "{suit} 做主",
    "learn.declared": "宣战",
    "learn.bet": "下注 {n}",
    "learn.call": "叫 {card}",
    "learn.won": "胡",
    "learn.table": "桌上",
    "learn.played_by": "{who} 出的牌",
    "learn.row.front": "头道",
    "learn.row.middle": "中道",
    "learn.row.back": "尾道",
    "learn.group.front": "前组",
    "learn.group.back": "后组",
    "learn.river": "牌河",
    "learn.link": "新手教程",
    "learn.offer": "第一次玩这个游戏？先走一遍新手教程（两分钟，对着机器人）。",
    "learn.offer_go": "看教程",
    "learn.offer_no": "不用了",
    "learn.chip": "新手教程",
    "learn.none": "这个游戏还没有教程",
    "learn.family.jiayibing": "鞍山甲乙丙",
    "learn.family.fangyang": "鞍山放羊",
    "learn.family.danzi": "宁城打弹子",
    "learn.family.sandaha": "三打哈",
    "learn.family.shisanzhang": "十三张",
    "learn.family.baozi": "宝子",
    "learn.family.jiajiabao": "佳佳宝",
    "learn.family.majiang": "鞍山麻将",
  },
  en: {
    "learn.title": "First game · {name}",
    "learn.step": "Step {k} of {n}",
    "learn.skip": "Skip the tutorial",
    "learn.next": "Next",
    "learn.done": "Done: open a table",
    "learn.tap_lit": "Tap the lit cards, then the button",
    "learn.you": "You",
    "learn.bot": "Bot {n}",
    "learn.cards": "{n} cards",
    "learn.pass": "Pass",
    "learn.bid": "Bids {n}",
    "learn.no_bid": "No bid",
    "learn.trump": "{suit} trumps",
    "learn.declared": "Declares war",
    "learn.bet": "Bets {n}",
    "learn.call": "Calls {card}",
    "learn.won": "Wins",
    "learn.table": "On the table",
    "learn.played_by": "played by {who}",
    "learn.row.front": "Front",
    "learn.row.middle": "Middle",
    "learn.row.back": "Back",
    "learn.group.front": "Front",
    "learn.group.back": "Back",
    "learn.river": "Discards",
    "learn.link": "First game (tutorial)",
    "learn.offer": "New to this game? Play the two-minute tutorial first (against bots).",
    "learn.offer_go": "Tutorial",
    "learn.offer_no": "No thanks",
    "learn.chip": "Tutorial",
    "learn.none": "This game has no tutorial yet",
    "learn.family.jiayibing": "Anshan 甲乙丙",
    "learn.family.fangyang": "Anshan 放羊",
    "learn.family.danzi": "Ningcheng 打弹子",
    "learn.family.sandaha": "三打哈",
    "learn.family.shisanzhang": "十三张 (Thirteen)",
    "learn.family.baozi": "宝子",
    "learn.family.jiajiabao": "佳佳宝",
    "learn.family.majiang": "Anshan mahjong",
  },
};
addStrings(TUTORIAL_STRINGS);
styleSheet("tutorial-style", new URL("./tutorial.css", import.meta.url).href);

/** The families with a tutorial (the keys of learn/tutorials.json). */
export const TUTORIAL_FAMILIES = ["jiayibing", "fangyang", "danzi", "sandaha", "shisanzhang", "baozi", "jiajiabao", "majiang"];
const KEY = "paiju.learned";
const SUITS = { s: "♠", h: "♥", c: "♣", d: "♦" };

function seen() {
  try {
    return JSON.parse(localStorage.getItem(KEY) || "{}") || {};
  } catch {
    return {};
  }
}

/** Whether the player finished or skipped a family's tutorial (or said no to the offer). */
export function learned(family) {
  return !!seen()[family];
}

export function markLearned(family, how) {
  localStorage.setItem(KEY, JSON.stringify({ ...seen(), [family]: how }));
}

/** The link to a family's tutorial (rule pages), or null where it has none. */
export function tutorialLink(family, back = "") {
  if (!TUTORIAL_FAMILIES.includes(family)) return null;
  const href = `#/learn/${family}${back ? `?back=${encodeURIComponent(back)}` : ""}`;
  return h("a", { class: "button ghost learn-link", id: "learn-link", href }, t("learn.link"));
}

function offerHref(family, back) {
  return `#/learn/${family}?back=${encodeURIComponent(back)}`;
}

/** 不用了: the offer put away for good. */
function declineButton(family, onAnswer, attrs, text) {
  const decline = () => {
    markLearned(family, "declined");
    onAnswer();
  };
  return h("button", { type: "button", id: "learn-offer-no", onclick: decline, ...attrs }, text);
}

/** The offer on a player's first room of a game: 看教程 / 不用了 (null once answered). */
export function tutorialOffer(family, back, onAnswer) {
  if (!TUTORIAL_FAMILIES.includes(family) || learned(family)) return null;
  return h(
    "div",
    { class: "learn-offer", id: "learn-offer", role: "note" },
    h("span", {}, t("learn.offer")),
    h("a", { class: "button primary", id: "learn-offer-go", href: offerHref(family, back) }, t("learn.offer_go")),
    declineButton(family, onAnswer, { class: "ghost" }, t("learn.offer_no")),
  );
}

/** The same offer while a hand is played: a chip among the table's tools (新手教程 ×),
 * taking none of the hand's room; its sentence is the chip's tooltip. */
export function tutorialChip(family, back, onAnswer) {
  if (!TUTORIAL_FAMILIES.includes(family) || learned(family)) return null;
  return h(
    "span",
    { class: "learn-offer learn-chip", id: "learn-offer", role: "note", title: t("learn.offer") },
    h("a", { class: "button small-button", id: "learn-offer-go", href: offerHref(family, back) }, t("learn.chip")),
    declineButton(family, onAnswer, { class: "small-button", title: t("learn.offer_no"), "aria-label": t("learn.offer_no") }, "×"),
  );
}

let scripts = null;
async function loadScripts() {
  if (!scripts) scripts = await fetch(new URL("../learn/tutorials.json", import.meta.url)).then((r) => r.json());
  return scripts;
}

function words(x) {
  if (!x) return "";
  return typeof x === "string" ? x : x[lang()] || x.zh || "";
}

/** What an event writes on its seat: 要不起, 叫 80 分, 宣战 … */
const NOTES = {
  passed: () => t("learn.pass"),
  bid_made: (e) => t("learn.bid", { n: e.points }),
  bid_passed: () => t("learn.no_bid"),
  trump_named: (e) => t("learn.trump", { suit: SUITS[e.trump] || e.trump }),
  declared: () => t("learn.declared"),
  bet_placed: (e) => t("learn.bet", { n: e.amount }),
  called: (e) => t("learn.call", { card: `${e.rank}${SUITS[e.suit] || ""}` }),
  won: () => t("learn.won"),
};

/** The table of a tutorial: what its events have done so far. */
class Table {
  constructor(script) {
    this.tiles = !!script.tiles;
    this.hand = this.tiles ? splitTiles(script.hand) : splitCards(script.hand);
    this.sizes = [...script.sizes];
    this.n = script.seats;
    this.notes = {};
    this.center = null;
    this.rivers = {};
    this.melds = {};
    this.rows = {};
    this.shown = {};
  }

  take(items) {
    for (const x of items) {
      const at = this.hand.indexOf(x);
      if (at >= 0) this.hand.splice(at, 1);
    }
  }

  apply(e) {
    if (NOTES[e.type]) this.notes[e.seat] = NOTES[e.type](e);
    const items = (text) => (this.tiles ? splitTiles(text) : splitCards(text));
    switch (e.type) {
      case "played":
        if (e.seat === 0) this.take(items(e.cards));
        if (e.left !== undefined) this.sizes[e.seat] = e.left;
        this.center = { seat: e.seat, cards: e.cards };
        delete this.notes[e.seat];
        break;
      case "discarded":
        if (e.seat === 0) this.take([e.tile]);
        (this.rivers[e.seat] = this.rivers[e.seat] || []).push(e.tile);
        this.latest = { seat: e.seat, tile: e.tile };
        break;
      case "melded": {
        const tiles = splitTiles(e.tiles);
        if (e.seat === 0) this.take(tiles.slice(1));
        (this.melds[e.seat] = this.melds[e.seat] || []).push(tiles);
        const river = this.rivers[e.source] || [];
        if (river.length) river.pop();
        this.latest = null;
        break;
      }
      case "won":
        if (e.tile) this.hand.push(e.tile);
        break;
      case "placed":
        this.take(items(e.cards));
        this.rows[e.row] = e.cards;
        break;
      case "shown":
        this.shown[e.seat] = { cards: e.cards, rows: e.rows || [e.cards], label: words(e.label) };
        if (e.seat === 0) this.take(items(e.cards));
        break;
      default:
        break;
    }
  }
}

function seatName(i) {
  return i === 0 ? t("learn.you") : t("learn.bot", { n: i });
}

function itemEl(x, tiles) {
  return tiles ? tileEl(x, { size: "sm", lang: lang() }) : cardEl(x, { small: true });
}

/** #/learn/FAMILY[?back=…]: the tutorial, step by step. */
export async function showTutorial(main, [family, query]) {
  const all = await loadScripts();
  const script = all[family];
  const back = new URLSearchParams(query || "").get("back") || "";
  const leave = () => {
    location.hash = back ? `#/${back}` : script ? `#/rules/${encodeURIComponent(script.code)}` : "#/";
  };
  if (!script) {
    main.appendChild(h("p", { class: "panel" }, t("learn.none")));
    return null;
  }
  const table = new Table(script);
  // the tiles' own styles, as the 麻将 table links them
  if (table.tiles) styleSheet("mj-style", new URL("../tables/majiang.css", import.meta.url).href);
  const steps = script.steps;
  let k = -1;
  let picked = [];
  const box = h("article", { class: "panel learn", id: "learn", dataset: { family } });
  main.appendChild(box);

  const feel = (events, step) => {
    const view = { options: script.options || {}, showdown: step.showdown || null, hand_sizes: table.sizes, phase: "play" };
    for (const e of events) table.apply(e);
    const kind = soundOf(events, view.options);
    if (kind) sound(kind);
    feelUpdate(family, events, view, seatName);
  };

  const go = () => {
    k += 1;
    picked = [];
    const step = steps[k];
    if (step && step.do === "watch") feel(step.events || [], step);
    draw();
  };

  const act = () => {
    const step = steps[k];
    feel(step.events || [], step);
    go();
  };

  const targets = () => {
    const step = steps[k];
    if (!step || step.do !== "tap") return [];
    return table.tiles ? splitTiles(step.cards) : splitCards(step.cards);
  };

  const ready = () => {
    const want = [...targets()].sort().join(" ");
    return want === picked.map((i) => table.hand[i]).sort().join(" ");
  };

  // picked: indices into the hand (two decks hold two of a card)
  const handEl = () => {
    const lit = [...targets()];
    return h(
      "div",
      { class: `learn-hand${table.tiles ? " tiles" : ""}`, id: "learn-hand" },
      table.hand.map((x, i) => {
        const at = lit.indexOf(x);
        if (at >= 0) lit.splice(at, 1);
        const chosen = picked.includes(i);
        return h(
          "button",
          {
            type: "button",
            class: `learn-card${at >= 0 ? " learn-target" : ""}${chosen ? " selected" : ""}`,
            dataset: { card: x },
            "aria-label": table.tiles ? tileName(x, lang()) : x,
            "aria-pressed": chosen ? "true" : "false",
            onclick: () => {
              if (!steps[k] || steps[k].do !== "tap") return;
              if (chosen) picked.splice(picked.indexOf(i), 1);
              else picked.push(i);
              draw();
            },
          },
          table.tiles ? tileEl(x, { lang: lang() }) : cardEl(x),
        );
      }),
    );
  };

  const seatsEl = () =>
    h(
      "div",
      { class: `learn-seats seats-${table.n}`, id: "learn-seats" },
      Array.from({ length: table.n }, (_, i) =>
        h(
          "div",
          { class: `learn-seat${i === 0 ? " me" : ""}`, dataset: { seat: i } },
          h("div", { class: "learn-seat-name" }, h("b", {}, seatName(i)), table.tiles ? null : h("small", {}, t("learn.cards", { n: i === 0 ? table.hand.length || table.sizes[0] : table.sizes[i] }))),
          lastCardsBadge(family, { hand_sizes: table.sizes, phase: "play" }, i, seatName(i)),
          table.notes[i] ? h("span", { class: "learn-note", dataset: { note: i } }, table.notes[i]) : null,
          table.shown[i]
            ? h(
                "div",
                { class: "learn-shown" },
                table.shown[i].rows.map((row) => h("div", { class: "learn-shown-row" }, splitCards(row).map((c) => cardEl(c, { small: true })))),
                h("small", {}, table.shown[i].label),
              )
            : null,
          (table.melds[i] || []).length ? h("div", { class: "learn-melds" }, table.melds[i].map((m) => h("span", { class: "learn-meld" }, m.map((x) => itemEl(x, true))))) : null,
          table.rivers[i]
            ? h(
                "div",
                { class: "mj-pond learn-river", dataset: { seat: i } },
                table.rivers[i].map((x, j) => {
                  const el = tileEl(x, { size: "xs", lang: lang() });
                  if (table.latest && table.latest.seat === i && j === table.rivers[i].length - 1) el.classList.add("latest");
                  return el;
                }),
              )
            : null,
        ),
      ),
    );

  const centerEl = () => {
    const c = table.center;
    if (!c) return null;
    return h(
      "div",
      { class: "learn-center", id: "learn-center", dataset: { seat: c.seat } },
      h("small", {}, t("learn.played_by", { who: seatName(c.seat) })),
      h("div", { class: "cards" }, splitCards(c.cards).map((x) => cardEl(x, { small: true }))),
    );
  };

  const rowsEl = () => {
    const names = family === "jiajiabao" ? ["front", "back"] : ["front", "middle", "back"];
    if (!Object.keys(table.rows).length) return null;
    const prefix = family === "jiajiabao" ? "learn.group" : "learn.row";
    return h(
      "div",
      { class: "learn-rows", id: "learn-rows" },
      names.map((r) =>
        h("div", { class: "learn-row", dataset: { row: r } }, h("small", {}, t(`${prefix}.${r}`)), table.rows[r] ? splitCards(table.rows[r]).map((x) => cardEl(x, { small: true })) : null),
      ),
    );
  };

  const coachEl = () => {
    const step = steps[k];
    const button = (() => {
      if (step.do === "watch") return h("button", { type: "button", class: "primary", id: "learn-next", onclick: go }, t("learn.next"));
      if (step.do === "end")
        return h(
          "button",
          {
            type: "button",
            class: "primary",
            id: "learn-done",
            onclick: () => {
              markLearned(family, "done");
              leave();
            },
          },
          t("learn.done"),
        );
      const enabled = step.do === "choose" || ready();
      return h("button", { type: "button", class: "primary learn-act", id: "learn-act", disabled: !enabled, onclick: act }, words(step.button));
    })();
    return h(
      "div",
      { class: `learn-coach do-${step.do}`, id: "learn-coach", dataset: { step: k, do: step.do } },
      h("p", { class: "learn-say", id: "learn-say" }, words(step.say)),
      step.why ? h("p", { class: "learn-why", id: "learn-why" }, words(step.why)) : null,
      step.do === "tap" && !ready() ? h("p", { class: "muted learn-hint" }, t("learn.tap_lit")) : null,
      button,
    );
  };

  function draw() {
    const step = steps[k];
    const parts = [
      h(
        "div",
        { class: "learn-head" },
        h("h1", {}, t("learn.title", { name: t(`learn.family.${family}`) })),
        h("span", { class: "chip", id: "learn-progress" }, t("learn.step", { k: k + 1, n: steps.length })),
        h(
          "button",
          {
            type: "button",
            class: "ghost small-button",
            id: "learn-skip",
            onclick: () => {
              markLearned(family, "skipped");
              leave();
            },
          },
          t("learn.skip"),
        ),
      ),
      k === 0 ? h("p", { class: "learn-intro", id: "learn-intro" }, words(script.intro)) : null,
      seatsEl(),
      centerEl(),
      rowsEl(),
      step ? coachEl() : null,
      table.hand.length ? handEl() : null,
    ];
    clear(box).append(...parts.filter(Boolean));
  }

  go();
  return () => clearMoments();
}

// The replay log: every action of a finished hand as a sentence in the player's language,
// with the seat's name and the action's cards or tiles drawn as the family's table draws
// them (tiles for 麻将, cards otherwise). No engine name (discard, chi, shown ...) is shown.
//
// actionLine({family, action, seat, who, before}) -> Node
//   who(i): a seat's name; before: the view (any seat's or a spectator's) just before the
//   action, which says what a claim took (the last discard and who made it), or null.

import { cardsEl, splitCards } from "../js/cards.js";
import { h } from "../js/dom.js";
import { STRINGS, agree, lang, t } from "../js/i18n.js";
import { LINE_STRINGS } from "./lines-strings.js";
import { sortTiles, splitTiles, tilesEl } from "./mjtiles.js";

Object.assign(STRINGS.zh, LINE_STRINGS.zh);
Object.assign(STRINGS.en, LINE_STRINGS.en);

const SUITS = { s: "♠", h: "♥", c: "♣", d: "♦" };

/** The ranks of a family's cards, low to high (the climbing games' own orders: 甲乙丙's 2
 * high, 放羊's and 打弹子's 3 high; A high elsewhere); jokers above them all. */
const RANK_ORDERS = { jiayibing: "3456789TJQKA2", fangyang: "456789TJQKA23", danzi: "456789TJQKA23" };

/** Cards as a player holds them: big ones first, then by suit (♠ ♥ ♣ ♦). */
export function sortedCards(family, cards) {
  const order = RANK_ORDERS[family] || "23456789TJQKA";
  const key = (c) => (c === "RJ" ? 101 : c === "BJ" ? 100 : order.indexOf(c[0]) * 4 + 3 - "shcd".indexOf(c[1]));
  return [...cards].sort((a, b) => key(b) - key(a));
}

/** Cards or tiles of a family, drawn small: tiles for 麻将, cards for every other game. */
export function itemsEl(family, text, { sort = false } = {}) {
  if (family === "majiang") {
    const tiles = splitTiles(text);
    return tilesEl(sort ? sortTiles(tiles) : tiles, { size: "xs", lang: lang() });
  }
  return cardsEl(sort ? sortedCards(family, splitCards(text)).join(" ") : text, { small: true });
}

/** A sentence of `key` with its {names} replaced by text or by nodes (cards, tiles). */
function sentence(key, parts) {
  const template = agree(t(key), parts);
  const out = [];
  let rest = template;
  const re = /\{(\w+)\}/;
  for (let m = re.exec(rest); m; m = re.exec(rest)) {
    if (m.index) out.push(rest.slice(0, m.index));
    const value = parts[m[1]];
    out.push(value === undefined || value === null ? "" : typeof value === "object" ? value : String(value));
    rest = rest.slice(m.index + m[0].length);
  }
  if (rest) out.push(rest);
  return out;
}

function trumpText(trump) {
  return SUITS[trump] || String(trump);
}

/** What a 麻将 claim answered: the discard (or the kong tile) up before the action. */
function claimOf(before) {
  const d = before && before.last_discard;
  if (!d) return null;
  const tile = splitTiles(d.tile)[0] || null;
  return tile ? { seat: d.seat, tile, kong: !!d.kong } : null;
}

/** Whether a seat's own-turn kong of `tile` adds to its 碰 (补杠) rather than four in hand. */
function addsToPeng(before, seat, tile) {
  const players = (before && before.players) || [];
  const melds = (players[seat] && players[seat].melds) || [];
  return melds.some((m) => {
    const kind = typeof m === "string" ? m.split(":")[0] : m.kind;
    const tiles = typeof m === "string" ? m.split(":").pop() : m.tiles;
    return kind === "peng" && splitTiles(tiles)[0] === tile;
  });
}

function majiangLine(action, seat, who, before) {
  const claim = claimOf(before);
  const tile = (x) => itemsEl("majiang", x);
  const from = claim ? who(claim.seat) : "";
  const claimed = claim ? tile(claim.tile) : null;
  switch (action.type) {
    case "discard":
      return sentence("line.discard", { who: who(seat), tile: tile(action.tile) });
    case "chi":
      return sentence(claim ? "line.chi" : "line.chi.plain", { who: who(seat), from, tile: claimed, chow: tile(action.chow) });
    case "peng":
      return sentence("line.peng", { who: who(seat), from, tile: claimed });
    case "gang":
      return sentence("line.gang", { who: who(seat), from, tile: claimed });
    case "kong": {
      const kt = splitTiles(action.tile)[0];
      return sentence(addsToPeng(before, seat, kt) ? "line.kong.bu" : "line.kong.an", { who: who(seat), tile: tile(action.tile) });
    }
    case "win": {
      const phase = before ? before.phase : "";
      if (claim && claim.seat !== seat && phase === "rob") return sentence("line.win.rob", { who: who(seat), from, tile: claimed });
      if (claim && claim.seat !== seat && phase !== "play") return sentence("line.win.discard", { who: who(seat), from, tile: claimed });
      return sentence("line.win.self", { who: who(seat) });
    }
    case "pass":
      return sentence(claim ? "line.pass.majiang" : "line.pass.majiang.plain", { who: who(seat), tile: claimed });
    default:
      return null;
  }
}

function cardLine(family, action, seat, who) {
  const cards = (x) => itemsEl(family, x);
  const name = who(seat);
  switch (action.type) {
    case "arrange":
      return sentence("line.arrange", { who: name, front: cards(action.front), middle: cards(action.middle), back: cards(action.back) });
    case "declare":
      return sentence(family === "shisanzhang" ? "line.declare.shisanzhang" : "line.declare", { who: name });
    case "bet":
      return sentence("line.bet", { who: name, amount: action.amount });
    case "group":
      return sentence("line.group", { who: name, first: cards(action.first), second: cards(action.second) });
    case "bid":
      return sentence("line.bid", { who: name, points: action.points });
    case "bury":
      return sentence("line.bury", { who: name, cards: cards(action.cards) });
    case "name_trump":
      return action.trump === "none" ? sentence("line.name_trump.none", { who: name }) : sentence("line.name_trump", { who: name, trump: trumpText(action.trump) });
    case "play":
      return sentence("line.play", { who: name, cards: cards(action.cards) });
    case "pass":
      return sentence(family === "sandaha" ? "line.pass.sandaha" : "line.pass", { who: name });
    case "call":
      return sentence("line.call", { who: name, card: cards(`${action.rank === "10" ? "T" : action.rank}${action.suit}`), shown: t(action.shown ? "line.call.shown" : "line.call.hidden") });
    case "decline":
    case "tribute":
    case "return":
    case "pick":
      return sentence(`line.${action.type}`, { who: name, cards: action.cards ? cards(action.cards) : "" });
    default:
      return null;
  }
}

/** One action of the log as a sentence (a span holding text and drawn cards or tiles). */
export function actionLine({ family, action, seat, who, before = null }) {
  const parts = (family === "majiang" ? majiangLine(action, seat, who, before) : cardLine(family, action, seat, who)) || sentence("line.unknown", { who: who(seat) });
  return h("span", { class: "action-text line", dataset: { type: action.type } }, parts);
}

/** Who made a move when it was not the seat's own player: a timeout, or 托管 in a player's seat. */
export function actorNote(actor, seatIsBot) {
  if (actor === "timeout") return t("line.by.timeout");
  if (actor === "bot" && !seatIsBot) return t("line.by.tuoguan");
  return null;
}

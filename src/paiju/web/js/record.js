// 战绩 on the 积分 page: per game the player's statistics (hands, win rate, best hand, total),
// then one record per room, newest first: the game, the date, the players, the 总结算 (every
// seat's total) with the 大赢家 crowned, and the room's hands under it, each a link to its
// replay (a whole 打弹子 match is one room: its hands stay together under it).

import { h, signed } from "./dom.js";
import { HAND_WORDS, handOf, lang, t, titleOf } from "./i18n.js";
import "./helper-strings.js";
import "./dissolve.js";

/** 2026-12-01 08:15, the same in both languages. */
export function when(at) {
  if (!at) return "";
  const d = new Date(typeof at === "number" ? at * 1000 : at);
  const pad = (n) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

function gameName(variants, code) {
  const v = variants.find((x) => x.code === code);
  return v ? titleOf(v) : code;
}

function familyOf(variants, code) {
  const v = variants.find((x) => x.code === code);
  return v ? v.family : "";
}

/** "23 局" / "23 hands" ("1 hand"; 打弹子 "23 盘" / "23 deals"): the family's word. */
function handsText(family, n) {
  const [zh, en] = HAND_WORDS[family] || ["局", "hand"];
  return t("rec.count", { n, word: lang() === "en" ? (n === 1 ? en : `${en}s`) : zh });
}

/** A game's hands and wins: "8 局 · 胜 3"; where 积分 go by match (打弹子) the matches too,
 * and the wins are of matches: "23 盘 · 1 局 · 胜 1". Each part stays on one line (a
 * narrow column breaks between them, never inside one). */
function playedText(s, family) {
  const parts = [handsText(family, s.hands)];
  if (s.matches !== null && s.matches !== undefined) {
    const [zh, en] = MATCH_WORDS[family] || ["场", "match"];
    parts.push(t("rec.count", { n: s.matches, word: lang() === "en" ? (s.matches === 1 ? en : `${en}es`) : zh }));
  }
  parts.push(t("rec.won", { w: s.wins }));
  return parts.flatMap((x, i) => [i ? " · " : null, h("span", { class: "rec-part" }, x)]).filter(Boolean);
}

/** What a player calls a match, [zh, en]: the engine's ``Game.match_words`` (打弹子 plays
 * 盘 of a 局). */
const MATCH_WORDS = { danzi: ["局", "match"] };

/** The family's word for a hand, capitalised in English: a column's head. */
function handWordOf(family) {
  const [zh, en] = HAND_WORDS[family] || ["局", "hand"];
  return lang() === "en" ? en.charAt(0).toUpperCase() + en.slice(1) : zh;
}

function cls(n) {
  return n > 0 ? "win" : n < 0 ? "loss" : "";
}

function seatName(room, s) {
  if (s === room.seat) return t("seat.you");
  const p = room.players[s];
  if (p === "bot") return `${t("seat.bot")} ${s + 1}`;
  return p || t("seat.n", { n: s + 1 });
}

/** Per game: hands, wins, win rate, the best hand (its replay) and the total. */
export function statsTable(stats, variants) {
  if (!stats.length) return null;
  return h(
    "section",
    { class: "rec-stats", id: "rec-stats" },
    h("h2", {}, t("rec.stats")),
    h(
      "table",
      { class: "rec-table" },
      h("thead", {}, h("tr", {}, [t("rec.game"), t("rec.hands"), t("rec.win_rate"), t("rec.best"), t("rec.total")].map((x) => h("th", {}, x)))),
      h(
        "tbody",
        {},
        stats.map((s) =>
          h(
            "tr",
            { dataset: { code: s.code, hands: s.hands, wins: s.wins, total: s.total, best: s.best.delta } },
            h("td", {}, gameName(variants, s.code)),
            h("td", { class: "rec-played" }, playedText(s, familyOf(variants, s.code))),
            h("td", {}, `${Math.round(s.win_rate * 100)}%`),
            h("td", { class: cls(s.best.delta) }, h("a", { href: `#/replay/${s.best.game}` }, signed(s.best.delta))),
            h("td", { class: cls(s.total) }, signed(s.total)),
          ),
        ),
      ),
    ),
  );
}

/** One room: header (game, date, my total), 总结算 with 大赢家, the hands. */
function roomRecord(room, variants, open) {
  const winners = new Set(room.winners || []);
  return h(
    "details",
    { class: "rec-room", dataset: { room: room.room, code: room.code, total: room.total }, open },
    h(
      "summary",
      {},
      h("span", { class: "rec-name" }, gameName(variants, room.code)),
      h("span", { class: "muted rec-when" }, when(room.ended)),
      h("span", { class: "muted" }, handsText(familyOf(variants, room.code), room.hands.length)),
      winners.has(room.seat) ? h("span", { class: "rec-crown", title: t("rec.winner") }, `★ ${t("rec.winner")}`) : null,
      h("b", { class: `rec-my ${cls(room.total)}` }, signed(room.total)),
    ),
    h(
      "div",
      { class: "rec-body" },
      h("h4", {}, t("rec.final", { room: room.room })),
      room.ended_by_vote ? h("p", { class: "muted small rec-vote" }, t("dissolve.summary")) : null,
      h(
        "ul",
        { class: "rec-totals" },
        room.totals.map((x, s) =>
          h(
            "li",
            { class: `${s === room.seat ? "me " : ""}${winners.has(s) ? "winner" : ""}`, dataset: { seat: s, total: x } },
            h("span", {}, seatName(room, s)),
            winners.has(s) ? h("span", { class: "rec-crown" }, ` ★ ${t("rec.winner")}`) : null,
            h("b", { class: cls(x) }, signed(x)),
          ),
        ),
      ),
      h(
        "table",
        { class: "rec-table rec-hands" },
        h("thead", {}, h("tr", {}, [handWordOf(familyOf(variants, room.code)), t("rec.mine"), t("rec.when"), ""].map((x) => h("th", {}, x)))),
        h(
          "tbody",
          {},
          room.hands.map((hand) =>
            h(
              "tr",
              { dataset: { game: hand.game, delta: hand.delta ?? "" } },
              h("td", {}, handOf(familyOf(variants, room.code), hand.hand_no)),
              h("td", { class: cls(hand.delta) }, hand.delta === null ? "—" : signed(hand.delta)),
              h("td", { class: "muted" }, when(hand.at)),
              h("td", {}, h("a", { href: `#/replay/${hand.game}`, class: "rec-replay" }, t("rec.replay"))),
            ),
          ),
        ),
      ),
    ),
  );
}

/** The 战绩 sections of the 积分 page from GET /api/players/me/record. */
export function recordSections(record, variants) {
  const rooms = record.rooms || [];
  return h(
    "div",
    { class: "rec", id: "record" },
    statsTable(record.stats || [], variants),
    h("h2", {}, t("rec.rooms")),
    rooms.length ? rooms.map((r, i) => roomRecord(r, variants, i === 0)) : h("p", { class: "muted" }, t("ledger.empty")),
  );
}

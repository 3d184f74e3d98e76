// Ratings (等级分, OpenSkill): the leaderboard of a game (#/ratings/CODE, a club's:
// #/ratings/CODE/club/ID) with the rooms behind each rating, the player's own ratings on
// the 积分/战绩 page, and each seat's rating in a waiting room (bots: their level's fixed
// rating). The server counts finished rooms a few seconds after they end, and before a
// leaderboard is read.

import { get } from "./api.js";
import { h, toast } from "./dom.js";
import { nameOf, t } from "./i18n.js";
import { findVariant, loadCatalog } from "./catalog.js";
import "./review-strings.js";

/** A rating as shown: one decimal. */
function rated(x) {
  return Number(x).toFixed(1);
}

/** The leaderboard page of a game (and of a club's members, when `club` is given). */
export async function showLeaderboard(main, [code, club], who) {
  const decoded = decodeURIComponent(code);
  const variant = await findVariant(decoded).catch(() => null);
  const game = variant ? nameOf(variant) : decoded;
  let board;
  try {
    board = await get(`/api/ratings/${encodeURIComponent(decoded)}${club ? `?club=${club}` : ""}`);
  } catch (exc) {
    toast(t("err.generic", { m: exc.message }), "error");
    main.appendChild(h("p", { class: "panel" }, exc.message, " ", h("a", { href: "#/" }, t("room.lobby"))));
    return;
  }
  const clubs = await get("/api/clubs").then((x) => x.clubs || []).catch(() => []);
  const clubName = club ? (clubs.find((c) => String(c.id) === String(club)) || {}).name || `#${club}` : null;
  const players = board.players || [];
  const base = `#/ratings/${encodeURIComponent(decoded)}`;
  main.appendChild(
    h(
      "section",
      { class: "panel ra-board", id: "leaderboard", dataset: { code: board.code, club: club || "" } },
      h("a", { href: "#/ledger", class: "back" }, `← ${t("nav.ledger")}`),
      h("h1", {}, club ? t("ra.club_title", { game, club: clubName }) : t("ra.title", { game })),
      clubs.length
        ? h(
            "div",
            { class: "ra-clubs", id: "leaderboard-clubs" },
            h("a", { class: `button ${club ? "ghost" : "primary"}`, href: base }, t("ra.all")),
            clubs.map((c) => h("a", { class: `button ${String(c.id) === String(club) ? "primary" : "ghost"}`, href: `${base}/club/${c.id}`, dataset: { club: c.id } }, c.name)),
          )
        : null,
      players.length
        ? h(
            "table",
            {},
            h("thead", {}, h("tr", {}, h("th", { class: "num" }, t("ra.rank")), h("th", {}, t("ra.player")), h("th", { class: "num" }, t("ra.rating")), h("th", { class: "num" }, t("ra.rooms")))),
            h(
              "tbody",
              {},
              players.map((p) =>
                h(
                  "tr",
                  { class: who && p.player === who.id ? "me" : "", dataset: { player: p.player, rating: p.rating, rooms: p.rooms } },
                  h("td", { class: "num" }, String(p.rank)),
                  h("td", {}, p.name),
                  h("td", { class: "num" }, rated(p.rating)),
                  h("td", { class: "num" }, String(p.rooms)),
                ),
              ),
            ),
          )
        : h("p", { class: "muted", id: "leaderboard-empty" }, t("ra.empty")),
      h("p", { class: "muted small" }, t("ra.about")),
    ),
  );
}

/** The player's own ratings, one row per game with its leaderboard (the 积分 page). */
export async function myRatings(who) {
  if (!who) return null;
  const [found, variants] = await Promise.all([get(`/api/ratings/players?ids=${who.id}`).catch(() => null), loadCatalog().catch(() => [])]);
  const mine = (found && found.players && found.players[String(who.id)]) || {};
  const codes = Object.keys(mine).sort((a, b) => mine[b].rating - mine[a].rating);
  const name = (code) => {
    const v = variants.find((x) => x.code === code);
    return v ? nameOf(v) : code;
  };
  return h(
    "section",
    { class: "ra-mine", id: "my-ratings" },
    h("h2", {}, t("ra.mine")),
    codes.length
      ? h(
          "table",
          {},
          h("thead", {}, h("tr", {}, h("th", {}, t("rec.game")), h("th", { class: "num" }, t("ra.rating")), h("th", { class: "num" }, t("ra.rooms")), h("th", {}, ""))),
          h(
            "tbody",
            {},
            codes.map((code) =>
              h(
                "tr",
                { dataset: { code, rating: mine[code].rating, rooms: mine[code].rooms } },
                h("td", {}, name(code)),
                h("td", { class: "num" }, rated(mine[code].rating)),
                h("td", { class: "num" }, String(mine[code].rooms)),
                h("td", {}, h("a", { class: "ra-link", href: `#/ratings/${encodeURIComponent(code)}` }, t("ra.link"))),
              ),
            ),
          ),
        )
      : h("p", { class: "muted", id: "my-ratings-empty" }, t("ra.mine_empty")),
  );
}

// A waiting room's seats: the ratings asked once per game and player (kept half a minute:
// a room redraws its seats often), the seats of one drawing in one request; the bots' once.
const KEEP_MS = 30_000;
const cache = new Map(); // "code:id" -> {at, rating (a promise)}
const pending = new Map(); // code -> {ids, promise}: the ids asked in one tick
let botsAsked = null;

function askPlayers(code, id) {
  const key = `${code}:${id}`;
  const kept = cache.get(key);
  if (kept && Date.now() - kept.at < KEEP_MS) return kept.rating;
  let batch = pending.get(code);
  if (!batch) {
    batch = { ids: new Set(), promise: null };
    pending.set(code, batch);
    batch.promise = new Promise((resolve) => setTimeout(resolve, 0)).then(async () => {
      pending.delete(code);
      const ids = [...batch.ids].join(",");
      const found = await get(`/api/ratings/players?ids=${ids}&code=${encodeURIComponent(code)}`).catch(() => null);
      return (found && found.players) || {};
    });
  }
  batch.ids.add(id);
  const one = batch.promise.then((players) => {
    const r = players[String(id)] && players[String(id)][code];
    return r || null;
  });
  cache.set(key, { at: Date.now(), rating: one });
  return one;
}

function askBots() {
  if (!botsAsked) botsAsked = get("/api/ratings/bots").catch(() => ((botsAsked = null), {}));
  return botsAsked;
}

/** A seat's rating as a small note filled in when known: a player's (by id) for the room's
 * game, or a bot's (its level's fixed rating). */
export function seatRating(code, playerId, { bot = false, level = "normal" } = {}) {
  const el = h("span", { class: "ra-seat", dataset: { rating: "" } });
  const fill = (text, value) => {
    el.textContent = text;
    el.dataset.rating = value;
  };
  if (bot) {
    askBots().then((bots) => {
      const r = bots[level] || bots.normal;
      if (r) fill(t("ra.bot_seat", { r: rated(r.rating) }), r.rating);
    });
  } else if (playerId !== null && playerId !== undefined) {
    askPlayers(code, playerId).then((r) => (r ? fill(`${t("ra.seat", { r: rated(r.rating) })} · ${t("ra.rooms_n", { n: r.rooms })}`, r.rating) : fill(t("ra.new"), "new")));
  }
  return el;
}

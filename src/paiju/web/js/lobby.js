// The lobby (大厅): games grouped by family with their rule pages, open rooms to join or
// watch, a form to open a room with its options, and the recent finished games.

import { get, post } from "./api.js";
import { clear, h, signed, toast } from "./dom.js";
import { deckText, handOf, handsLabel, lang, playersText, t, titleOf } from "./i18n.js";
import { tableFor } from "../tables/index.js";
import { variantNote } from "../tables/baozi.js";
import { gameFinder } from "./finder.js";
import { invitesBox } from "./mates.js";
import { clubsEntry } from "./clubs.js";
import { replaySearch } from "./club-result.js";
import { findVariant, houseOptions, loadCatalog, optionValue } from "./catalog.js";
import { tutorialLink } from "./tutorial.js";
import { newsBox } from "./news.js";
import { joinBody } from "./nearby.js";
import "./review-strings.js";
import "./event-strings.js";

const OWNED_KEY = "paiju.owned";

/** Rooms this browser opened (RoomInfo has no owner yet: docs/client-needs.md). */
export function ownedRooms() {
  try {
    return new Set(JSON.parse(localStorage.getItem(OWNED_KEY) || "[]"));
  } catch {
    return new Set();
  }
}

function rememberOwned(roomId) {
  const owned = [...ownedRooms(), roomId].slice(-50);
  localStorage.setItem(OWNED_KEY, JSON.stringify(owned));
}

export async function showLobby(main, _args, who) {
  let variants;
  try {
    variants = await loadCatalog();
  } catch (exc) {
    toast(t("err.network", { m: exc.message }), "error");
    return;
  }
  const roomsBox = h("div", { class: "rooms", id: "rooms" });
  // a join refused (the seat taken a moment before, the room started): said until dismissed
  const joinNote = h("div", { class: "join-note", id: "join-note" });
  joinRefusal = (roomId, message) => {
    clear(joinNote);
    if (message === null) return;
    joinNote.appendChild(
      h(
        "p",
        { class: "lasting-alert", id: "join-refused", role: "alert", dataset: { room: roomId } },
        h("span", {}, t("lobby.join_refused", { id: roomId, m: message })),
        h("button", { class: "ghost small-button", onclick: () => clear(joinNote) }, "×"),
      ),
    );
    joinNote.scrollIntoView({ block: "nearest" });
  };
  const gamesBox = h("div", { class: "recent", id: "recent" });
  const ledger = await get("/api/players/me/ledger")
    .then((data) => [...(data.entries || [])].reverse())
    .catch(() => []);
  const ledgerCodes = ledger.map((e) => e.code);
  const mine = new Map(ledger.map((e) => [e.game, e.delta]));
  const invites = invitesBox(variants);
  const families = gameFinder(variants, {
    who,
    onCreate: (v) => openCreate(main, v),
    recentCodes: ledgerCodes,
    extraNote: (v) => (v.family === "baozi" || v.family === "jiajiabao" ? h("span", { class: "code-note" }, ` · ${variantNote(v)}`) : null),
  });
  main.appendChild(
    h(
      "div",
      { class: "lobby" },
      newsBox(), // the operator's banner and 跑马灯, while showing
      // the room number / invite code first, then the games, then the open rooms
      h("section", { class: "panel join-panel" }, invites, joinByCode(who), h("div", { class: "club-hooks" }, h("div", { class: "hook-entries" }, clubsEntry(), h("a", { class: "button club-entry", id: "events-entry", href: "#/events" }, t("ev.entry"))), replaySearch())),
      h("section", { class: "panel games-panel" }, h("h2", {}, t("lobby.games")), families),
      h(
        "section",
        { class: "panel" },
        h("div", { class: "panel-head" }, h("h2", {}, t("lobby.rooms")), h("button", { class: "ghost", onclick: () => refresh() }, t("lobby.refresh"))),
        joinNote,
        roomsBox,
      ),
      h("section", { class: "panel" }, h("h2", {}, t("lobby.recent")), gamesBox),
    ),
  );
  async function refresh() {
    try {
      const [rooms, games] = await Promise.all([get("/api/rooms"), get("/api/games")]);
      renderRooms(roomsBox, rooms, who);
      invites.refresh();
      // one's own hands first (a busy server's other tables finish hands all the time)
      const ordered = [...games.filter((g) => mine.has(g.id)), ...games.filter((g) => !mine.has(g.id))];
      renderGames(gamesBox, ordered.slice(0, 20), variants, mine);
    } catch (exc) {
      toast(t("err.generic", { m: exc.message }), "error");
    }
  }
  await refresh();
  const timer = setInterval(refresh, 5000);
  return () => clearInterval(timer);
}

/** How many rooms to join and how many to watch the lobby lists before 更多: a busy
 * server's hundreds of rooms must not bury the games on a phone. One's own rooms always show. */
const ROOMS_SHOWN = 5;
const roomsOpen = { all: false };

/** The open rooms in the order a player wants them: where one sits, then tables with an open
 * seat, then tables to watch, newest first in each; the last two cut to ROOMS_SHOWN. */
function roomsInOrder(rooms, who) {
  const open = rooms.filter((r) => r.status !== "finished").sort((a, b) => b.id - a.id);
  const mineOf = (r) => (who ? (r.seat_players || []).indexOf(who.id) : -1);
  const joinable = (r) => r.status === "waiting" && r.control.indexOf("open") >= 0;
  const mine = open.filter((r) => mineOf(r) >= 0);
  const toJoin = open.filter((r) => mineOf(r) < 0 && joinable(r));
  const toWatch = open.filter((r) => mineOf(r) < 0 && !joinable(r));
  if (roomsOpen.all) return { shown: [...mine, ...toJoin, ...toWatch], hidden: 0 };
  const shown = [...mine, ...toJoin.slice(0, ROOMS_SHOWN), ...toWatch.slice(0, ROOMS_SHOWN)];
  return { shown, hidden: open.length - shown.length };
}

function renderRooms(box, rooms, who) {
  // the same list is left as it is: a tap on 入座 is never lost to the 5-second refresh
  const seen = JSON.stringify([rooms, roomsOpen.all, lang()]);
  if (box.drawnKey === seen) return;
  box.drawnKey = seen;
  clear(box);
  const { shown, hidden } = roomsInOrder(rooms, who);
  if (!shown.length) {
    box.appendChild(h("p", { class: "muted" }, t("lobby.no_rooms")));
    return;
  }
  for (const r of shown) {
    const openSeat = r.control.indexOf("open");
    const mine = who && (r.seat_players || []).indexOf(who.id);
    box.appendChild(
      h(
        "div",
        { class: "room-row", dataset: { room: r.id } },
        h("span", { class: "code-id" }, `#${r.id}`),
        h("span", {}, titleOf(r)),
        h("span", { class: `status ${r.status}` }, t(`room.status.${r.status}`)),
        h("span", { class: "room-players muted" }, r.players.map((p) => (p === "bot" ? t("seat.bot") : p || t("seat.open"))).join(" · ")),
        mine !== null && mine >= 0
          ? h("a", { class: "button primary back-to-seat", href: `#/room/${r.id}`, dataset: { seat: mine } }, t("room.back_to_seat"))
          : r.status === "waiting" && openSeat >= 0
            ? h("button", { class: "primary", onclick: () => join(r.id, r) }, t("room.join"))
            : null,
        mine !== null && mine >= 0
          ? null
          : h("a", { class: "button ghost", href: `#/room/${r.id}` }, r.status === "waiting" && openSeat < 0 ? t("room.enter") : t("room.spectate")),
      ),
    );
  }
  if (hidden) {
    const more = () => {
      roomsOpen.all = true;
      renderRooms(box, rooms, who);
    };
    box.appendChild(h("button", { type: "button", class: "ghost more", id: "rooms-more", onclick: more }, t("lobby.more_rooms", { n: hidden })));
  }
}

/** 输入房间号/邀请码: digits are a room number, letters an invite code (GET /api/invites). */
function joinByCode(who) {
  const input = h("input", {
    id: "join-code",
    name: "join-code",
    type: "text",
    autocomplete: "off",
    autocapitalize: "characters",
    spellcheck: "false",
    maxlength: "24",
    placeholder: t("lobby.join_code"),
    "aria-label": t("lobby.join_code"),
  });
  const note = h("p", { class: "join-code-error", id: "join-code-error", role: "alert" });
  const form = h(
    "form",
    {
      class: "join-code",
      id: "join-code-form",
      onsubmit: (ev) => {
        ev.preventDefault();
        enterByCode(input.value, who, note);
      },
    },
    input,
    h("button", { type: "submit", class: "primary", id: "join-code-go" }, t("lobby.join_go")),
  );
  return h("div", {}, form, note);
}

async function enterByCode(text, who, note) {
  const typed = String(text || "").trim().replace(/^#/, "");
  note.textContent = "";
  if (!typed) {
    note.textContent = t("lobby.join_empty");
    return;
  }
  try {
    const roomId = /^\d+$/.test(typed) ? Number(typed) : (await get(`/api/invites/${encodeURIComponent(typed)}`)).room;
    const info = await get(`/api/rooms/${roomId}`);
    const mine = who ? (info.seat_players || []).indexOf(who.id) : -1;
    // a seat of one's own: back to it; an open seat in a waiting room: take it; else watch
    if (mine < 0 && info.status === "waiting" && info.control.includes("open")) await post(`/api/rooms/${roomId}/join`, await joinBody(info));
    location.hash = `#/room/${roomId}`;
  } catch (exc) {
    note.textContent = exc.message;
  }
}

let joinRefusal = () => {};

async function join(roomId, info) {
  try {
    await post(`/api/rooms/${roomId}/join`, await joinBody(info));
    location.hash = `#/room/${roomId}`;
  } catch (exc) {
    joinRefusal(roomId, exc.message);
  }
}

function renderGames(box, games, variants, mine) {
  clear(box);
  if (!games.length) {
    box.appendChild(h("p", { class: "muted" }, t("lobby.no_games")));
    return;
  }
  box.appendChild(
    h(
      "ul",
      { class: "game-list" },
      games.map((g) => {
        const v = variants.find((x) => x.code === g.code);
        return h(
          "li",
          {},
          h("a", { href: `#/replay/${g.id}` }, `${v ? titleOf(v) : g.code} · ${handOf(v && v.family, g.hand_no)}`),
          // who scored what, by the names the table showed (a bot by its seat), and the
          // viewer's own result where the ledger has it
          mine.has(g.id) ? h("strong", { class: `recent-mine ${mine.get(g.id) > 0 ? "win" : mine.get(g.id) < 0 ? "loss" : ""}` }, ` ${t("lobby.recent_mine", { d: signed(mine.get(g.id)) })}`) : null,
          h("span", { class: "muted recent-scores" }, ` · ${(g.settlement || []).map((x, i) => `${(g.names || [])[i] || `${t("seat.bot")} ${i + 1}`} ${signed(x)}`).join(" · ")}`),
        );
      }),
    ),
  );
}

/** The server's default seconds per decision for a family (room.py Room.time_limit). */
function defaultTime(variant) {
  return { shisanzhang: 75, jiajiabao: 45 }[variant.family] || 30;
}

function field(label, input) {
  return h("label", { class: "field" }, h("span", {}, label), input);
}

async function openCreate(main, variant) {
  const table = await tableFor(variant.family);
  const [lo, hi] = variant.players;
  const seats = h("input", { type: "number", name: "seats", min: lo, max: hi, value: Math.min(hi, 4 >= lo ? 4 : lo) });
  const bots = h("input", { type: "number", name: "bots", min: 0, max: hi, value: Math.min(hi, 4 >= lo ? 4 : lo) - 1 });
  const mySeat = h("input", { type: "number", name: "seat", min: 1, max: hi, value: 1 });
  const stake = h("input", { type: "number", name: "stake", min: 1, value: 1 });
  const timeLimit = h("input", { type: "number", name: "time_limit", min: 0, max: 3600, placeholder: t("create.time_default", { s: defaultTime(variant) }) });
  const hands = h("input", { type: "number", name: "hands", min: 1, placeholder: "—" });
  const tuoguan = h(
    "select",
    { name: "tuoguan" },
    ["both", "timeout", "disconnect", "off"].map((k) => h("option", { value: k }, t(`create.tuoguan.${k}`))),
  );
  const level = h(
    "select",
    { name: "level" },
    ["normal", "easy", "hard"].map((k) => h("option", { value: k }, t(`create.level.${k}`))),
  );
  const spectators = h("input", { type: "checkbox", name: "spectators", checked: true });
  const refuseNearby = h("input", { type: "checkbox", name: "refuse_nearby" });
  const fillAfter = h("input", { type: "number", name: "fill_after", min: 0, value: 30, placeholder: "—" });
  // 麻将: seconds a player who can claim (吃碰杠胡) is given, as the usual apps give them
  const claimTime = variant.family === "majiang" ? h("input", { type: "number", name: "claim_time", min: 0, max: 60, value: 8 }) : null;
  const gameFields = houseOptions(variant, table.createOptions ? table.createOptions(variant) : []).map((opt) => {
    let input;
    if (opt.choices) {
      input = h("select", { name: `g.${opt.key}` }, opt.choices.map((c) => h("option", { value: c.value, selected: String(c.value) === String(opt.default) }, c.label)));
    } else if (opt.type === "checkbox") {
      input = h("input", { type: "checkbox", name: `g.${opt.key}`, checked: !!opt.default });
    } else {
      input = h("input", { type: "number", name: `g.${opt.key}`, value: opt.default, min: opt.min ?? 1 });
    }
    return { opt, input, el: field(opt.label, input) };
  });
  const dialog = h(
    "form",
    {
      class: "panel create-room",
      id: "create-room",
      onsubmit: async (ev) => {
        ev.preventDefault();
        const options = {
          seats: Number(seats.value),
          bots: Number(bots.value),
          stake: Number(stake.value),
          tuoguan: tuoguan.value,
          level: level.value,
          spectators: spectators.checked,
          refuse_nearby: refuseNearby.checked,
        };
        if (hands.value) options.hands = Number(hands.value);
        if (timeLimit.value !== "") options.time_limit = Number(timeLimit.value);
        options.fill_after = fillAfter.value === "" ? null : Number(fillAfter.value);
        if (claimTime && claimTime.value !== "") options.claim_time = Number(claimTime.value);
        const gameOptions = {};
        for (const { opt, input } of gameFields) {
          gameOptions[opt.key] = optionValue(opt, input);
        }
        try {
          const made = await post("/api/rooms", {
            code: variant.code,
            options,
            game_options: gameOptions,
            seat: Number(mySeat.value) - 1,
          });
          rememberOwned(made.room.id);
          location.hash = `#/room/${made.room.id}`;
        } catch (exc) {
          toast(t("err.generic", { m: exc.message }), "error");
        }
      },
    },
    h("h2", {}, t("create.title", { name: titleOf(variant) })),
    h(
      "div",
      { class: "grid" },
      field(t("create.seats"), seats),
      field(t("create.bots"), bots),
      field(t("create.level"), level),
      field(t("create.my_seat"), mySeat),
      field(t("create.stake"), stake),
      field(t("create.time_limit"), timeLimit),
      field(handsLabel(variant.family), hands),
      field(t("create.tuoguan"), tuoguan),
      field(t("create.fill_after"), fillAfter),
      claimTime ? field(t("create.claim_time"), claimTime) : null,
      h("label", { class: "field check" }, spectators, h("span", {}, t("create.spectators"))),
      h("label", { class: "field check" }, refuseNearby, h("span", {}, t("create.refuse_nearby"))),
    ),
    gameFields.length ? h("h3", {}, t("create.game_options")) : null,
    gameFields.length ? h("div", { class: "grid" }, gameFields.map((f) => f.el)) : null,
    h(
      "div",
      { class: "buttons" },
      h("button", { type: "submit", class: "primary", id: "create-submit" }, t("create.submit")),
      h("button", { type: "button", class: "ghost", onclick: () => dialog.remove() }, t("create.cancel")),
    ),
  );
  const old = document.getElementById("create-room");
  if (old) old.remove();
  main.prepend(dialog);
  dialog.scrollIntoView({ block: "start" });
}

/**
 * The verbatim text without the page numbers of its source's page breaks: a text whose
 * every line after the first starts with the next page number ("2、", "3、" …, the 三打哈
 * page) is joined back into one; any other text is shown as it is.
 */
export function withoutPageNumbers(text) {
  const lines = String(text || "").split("\n");
  if (lines.length < 3) return text;
  const paged = lines.slice(1).every((l, i) => l.startsWith(`${i + 2}、`));
  if (!paged) return text;
  return lines.map((l, i) => (i ? l.slice(String(i + 1).length + 1) : l)).join("");
}

/**
 * The verbatim text's **bold** marks (the source's markdown, "**KA2**不能相连") drawn as
 * bold, not as asterisks; a lone "*" (the text's own "*表示省略") stays as it is.
 */
export function emphasis(text) {
  const parts = String(text || "").split(/\*\*([^*\n]+)\*\*/);
  return parts.map((part, i) => (i % 2 ? h("b", {}, part) : part));
}

export async function showRules(main, [code]) {
  let v;
  try {
    v = await get(`/api/catalog/${encodeURIComponent(decodeURIComponent(code))}`);
  } catch (exc) {
    toast(t("err.generic", { m: exc.message }), "error");
    return;
  }
  main.appendChild(
    h(
      "article",
      { class: "panel rules" },
      h("a", { href: "#/", class: "back" }, `← ${t("rules.back")}`),
      h("h1", {}, t("rules.title", { name: titleOf(v) })),
      h("p", { class: "muted" }, `${t(`family.${v.family}`)} · ${playersText(v.players)} · ${deckText(v.deck, v.family)}`),
      v.playable && v.enabled !== false
        ? h("button", { class: "primary", onclick: () => openCreate(main, v) }, t("lobby.create"))
        : v.enabled === false
          ? h("p", { class: "muted", id: "rules-game-off" }, t("lobby.game_off"))
          : null,
      h("a", { class: "button ghost ra-link", id: "rules-leaderboard", href: `#/ratings/${encodeURIComponent(v.code)}` }, t("ra.link")),
      tutorialLink(v.family),
      h("h2", {}, t("rules.zh")),
      h("pre", { class: "rule-text", lang: "zh", id: "rules-zh" }, emphasis(withoutPageNumbers(v.rules_zh || ""))),
      ...readings(v),
    ),
  );
}

/**
 * The rule explanation (规则说明) in the player's language, and the other language's
 * behind a <details> toggle. An entry with only one of them (a user's variant file) shows it.
 */
function readings(v) {
  const texts = { zh: v.reading_zh || "", en: v.rules_en || "" };
  const mine = lang() === "en" ? "en" : "zh";
  const other = mine === "en" ? "zh" : "en";
  const block = (code) =>
    h("pre", { class: "rule-text", lang: code, id: code === "en" ? "rules-en" : "rules-reading-zh" }, texts[code]);
  const shown = texts[mine] ? mine : other;
  const parts = [
    h("h2", {}, t("rules.reading")),
    h("p", { class: "muted" }, t("rules.reading_note")),
    block(shown),
  ];
  if (shown === mine && texts[other]) {
    parts.push(
      h("details", { class: "rules-other", id: "rules-other" }, h("summary", {}, t("rules.other")), block(other)),
    );
  }
  return parts;
}

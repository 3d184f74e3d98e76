// A finished room's result: its 总结算 (every seat's total, the 大赢家 crowned), its 回放码,
// the hands' replays, and the result card drawn on a <canvas> and saved as PNG for the group
// chat; the lobby's 回放码 search box, and the page a room's code opens.
//   #/summary/ID          a finished room's 总结算 and result card (anyone with its 回放码)

import { get, post } from "./api.js";
import { h, signed, toast } from "./dom.js";
import { t, titleOf } from "./i18n.js";
import { findVariant } from "./catalog.js";
import { when } from "./record.js";
import "./club-strings.js";

/** The lobby's 回放码 search box: a hand opens its replay, a room its 总结算. */
export function replaySearch() {
  const input = h("input", {
    id: "replay-code",
    name: "replay-code",
    type: "search",
    autocomplete: "off",
    autocapitalize: "characters",
    spellcheck: "false",
    maxlength: "12",
    placeholder: t("club.replay_code_ph"),
    "aria-label": t("club.replay_code_ph"),
  });
  const note = h("p", { class: "join-code-error", id: "replay-code-error", role: "alert" });
  const form = h(
    "form",
    {
      class: "join-code replay-search",
      id: "replay-search",
      onsubmit: async (ev) => {
        ev.preventDefault();
        note.textContent = "";
        const code = input.value.trim().toUpperCase();
        if (!code) {
          note.textContent = t("club.replay_code_empty");
          return;
        }
        try {
          location.hash = replayHash(await get(`/api/replays/${encodeURIComponent(code)}`));
        } catch (exc) {
          note.textContent = exc.status === 404 ? t("club.replay_code_none", { code }) : exc.message;
        }
      },
    },
    input,
    h("button", { type: "submit", class: "ghost", id: "replay-code-go" }, t("club.replay_code_go")),
  );
  return h("div", {}, form, note);
}

/** Where a resolved 回放码 opens: a hand's replay, or the finished room (its 总结算). */
export function replayHash(found) {
  return found.kind === "game" ? `#/replay/${found.game}` : `#/summary/${found.room}`;
}

/** 总结算 of a finished room on a page of its own (#/summary/ID: what a room's 回放码 opens,
 * for anyone who has the code). */
export async function showSummary(main, [roomId]) {
  main.appendChild(h("a", { href: "#/", class: "back" }, `← ${t("club.back_lobby")}`));
  const panel = await resultPanel(Number(roomId), "", null);
  if (panel) main.appendChild(panel);
}

/**
 * A finished room's result: the 总结算 table (the 大赢家 crowned), its 回放码, the result
 * card drawn on a canvas with a button that saves it as PNG, and each hand's replay.
 */
export async function resultPanel(roomId, clubName, onClose) {
  let summary, code, games;
  try {
    [summary, code, games] = await Promise.all([
      get(`/api/rooms/${roomId}/summary`),
      post("/api/replays", { kind: "room", id: roomId }).then((x) => x.code),
      get(`/api/games?room=${roomId}`).catch(() => []),
    ]);
  } catch (exc) {
    toast(t("err.generic", { m: exc.message }), "error");
    return null;
  }
  const variant = (await findVariant(summary.code)) || { code: summary.code, name_zh: summary.code, name_en: summary.code };
  const at = games.length ? Math.max(...games.map((g) => Number(g.ended_at) || 0)) || null : null; // the room's end
  const canvas = drawCard({ club: clubName || t("app.title"), game: titleOf(variant), room: roomId, at, summary, code });
  const png = () => save(canvas.toDataURL("image/png"), clubName ? `club-room-${roomId}.png` : `room-${roomId}.png`);
  const panel = h(
    "section",
    { class: "panel result-card match-summary", id: "result-card", dataset: { room: roomId, code } },
    h(
      "div",
      { class: "panel-head" },
      h("h2", {}, t("club.result_title", { id: roomId })),
      onClose ? h("button", { class: "ghost small-button", onclick: onClose }, "×") : null,
    ),
    h("p", { class: "muted" }, `${titleOf(variant)} · ${t("club.card_hands", { n: summary.hands })}`),
    h(
      "table",
      { class: "rec-table", id: "summary-table" },
      h("thead", {}, h("tr", {}, h("th", {}, t("club.col.name")), h("th", {}, t("club.card_total")))),
      h(
        "tbody",
        {},
        summary.seats.map((s) =>
          h(
            "tr",
            { class: s.winner ? "winner" : "", dataset: { seat: s.seat, total: s.total } },
            h("td", { class: "who" }, seatLabel(s), s.winner ? [" ", h("span", { class: "badge big-winner" }, `★ ${t("club.big_winner")}`)] : null),
            h("td", { class: `total ${s.total > 0 ? "win" : s.total < 0 ? "loss" : ""}` }, signed(s.total)),
          ),
        ),
      ),
    ),
    h("p", {}, `${t("club.replay_code")}: `, h("strong", { id: "room-replay-code", class: "replay-code" }, code)),
    canvas,
    h("div", { class: "buttons" }, h("button", { class: "primary", id: "card-png", onclick: png }, t("club.save_png"))),
    games.length
      ? h("ul", { class: "game-list", id: "room-hands" }, [...games].reverse().map((g) => h("li", {}, h("a", { href: `#/replay/${g.id}` }, t("room.hand", { n: g.hand_no })))))
      : null,
  );
  return panel;
}

function seatLabel(s) {
  if (!s.player && s.name === "bot") return `${t("seat.bot")} ${s.seat + 1}`;
  return s.name || t("seat.n", { n: s.seat + 1 });
}

/** Saves ``url`` as a download named ``filename``. */
export function save(url, filename) {
  const a = h("a", { href: url, download: filename, style: "display:none" });
  document.body.appendChild(a);
  a.click();
  a.remove();
}

/**
 * The result card drawn on a <canvas> (a picture for the group chat): the club's name,
 * the game, the room and its date, each player's total with the 大赢家 marked, the 回放码.
 */
export function drawCard({ club, game, room, at, summary, code }) {
  const seats = summary.seats || [];
  const W = 600;
  const rowH = 44;
  const H = 200 + rowH * seats.length + 70;
  const ratio = 2; // sharp on a phone's screen
  const canvas = h("canvas", { class: "card-canvas", id: "card-canvas", width: W * ratio, height: H * ratio });
  const g = canvas.getContext("2d");
  g.scale(ratio, ratio);
  const font = (size, weight = 400) => `${weight} ${size}px system-ui, "PingFang SC", "Noto Sans CJK SC", "Microsoft YaHei", sans-serif`;
  g.fillStyle = "#0b5d3b";
  g.fillRect(0, 0, W, H);
  g.fillStyle = "#fbfaf6";
  roundRect(g, 16, 16, W - 32, H - 32, 18);
  g.fill();
  g.fillStyle = "#0b5d3b";
  g.font = font(28, 700);
  g.fillText(fit(g, club, W - 80), 40, 66);
  g.fillStyle = "#6b7280";
  g.font = font(16);
  g.fillText(fit(g, `${game} · #${room} · ${when(at)}`, W - 80), 40, 96);
  g.fillText(t("club.card_hands", { n: summary.hands }), 40, 122);
  g.fillStyle = "#1d2330";
  g.font = font(15, 700);
  g.fillText(t("club.col.name"), 40, 162);
  g.textAlign = "right";
  g.fillText(t("club.card_total"), W - 40, 162);
  g.textAlign = "left";
  seats.forEach((s, i) => {
    const y = 200 + i * rowH;
    if (i % 2 === 0) {
      g.fillStyle = "#eef1ee";
      g.fillRect(32, y - 28, W - 64, rowH);
    }
    const name = seatLabel(s);
    g.fillStyle = "#1d2330";
    g.font = font(20, s.winner ? 700 : 400);
    g.fillText(fit(g, `${s.winner ? "★ " : ""}${name}`, W - 240), 40, y);
    if (s.winner) {
      g.fillStyle = "#b8860b";
      g.font = font(14, 700);
      g.fillText(t("club.big_winner"), W - 230, y);
    }
    g.textAlign = "right";
    g.fillStyle = s.total > 0 ? "#1b8a3a" : s.total < 0 ? "#c62828" : "#1d2330";
    g.font = font(22, 800);
    g.fillText(signed(s.total), W - 40, y);
    g.textAlign = "left";
  });
  g.fillStyle = "#1d2330";
  g.font = font(16);
  g.fillText(`${t("club.replay_code")}: `, 40, H - 46);
  const w = g.measureText(`${t("club.replay_code")}: `).width;
  g.font = font(22, 800);
  g.fillStyle = "#c62828";
  g.fillText(code, 40 + w, H - 46);
  g.fillStyle = "#6b7280";
  g.font = font(13);
  g.textAlign = "right";
  g.fillText(t("club.card_footer"), W - 40, H - 46);
  g.textAlign = "left";
  return canvas;
}

function fit(g, text, width) {
  let s = String(text);
  if (g.measureText(s).width <= width) return s;
  while (s.length > 1 && g.measureText(`${s}…`).width > width) s = s.slice(0, -1);
  return `${s}…`;
}

function roundRect(g, x, y, w, hgt, r) {
  g.beginPath();
  g.moveTo(x + r, y);
  g.arcTo(x + w, y, x + w, y + hgt, r);
  g.arcTo(x + w, y + hgt, x, y + hgt, r);
  g.arcTo(x, y + hgt, x, y, r);
  g.arcTo(x, y, x + w, y, r);
  g.closePath();
}

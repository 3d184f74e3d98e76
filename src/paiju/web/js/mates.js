// 最近的牌友: the players of one's last tables, with one tap to invite them to the waiting
// room (POST /api/rooms/ID/invite); the invited see it in their lobby (GET
// /api/players/me/invites) with one tap to take the seat.

import { get, post } from "./api.js";
import { h, toast } from "./dom.js";
import { nameOf, t } from "./i18n.js";
import "./helper-strings.js";

/** The waiting room's list of recent table-mates (loaded once per room view). */
export function matesPanel(room) {
  if (room.seat === null || room.seat === undefined || !room.info || room.info.status !== "waiting") return null;
  if (room.mates === undefined) {
    room.mates = null;
    get("/api/players/me/mates")
      .then((data) => {
        room.mates = data.mates || [];
        room.render();
      })
      .catch(() => (room.mates = []));
  }
  const here = new Set((room.info.seat_players || []).filter((p) => p !== null));
  const mates = (room.mates || []).filter((m) => !here.has(m.player));
  room.invited = room.invited || new Set();
  return h(
    "div",
    { class: "mates", id: "mates" },
    h("h3", {}, t("mates.title")),
    !mates.length
      ? h("p", { class: "muted small" }, room.mates === null ? "…" : t("mates.none"))
      : h(
          "ul",
          { class: "mates-list" },
          mates.map((m) =>
            h(
              "li",
              { dataset: { player: m.player } },
              h("span", { class: "mate-name" }, m.name),
              h("small", { class: "muted" }, t("mates.rooms", { n: m.rooms })),
              h(
                "button",
                {
                  type: "button",
                  class: room.invited.has(m.player) ? "ghost" : "primary",
                  dataset: { invitePlayer: m.player },
                  disabled: room.invited.has(m.player),
                  onclick: async () => {
                    try {
                      await post(`/api/rooms/${room.roomId}/invite`, { player: m.player });
                      room.invited.add(m.player);
                      toast(t("mates.sent", { who: m.name }));
                      room.render();
                    } catch (exc) {
                      toast(t("err.generic", { m: exc.message }), "error");
                    }
                  },
                },
                room.invited.has(m.player) ? t("mates.invited") : t("mates.invite"),
              ),
            ),
          ),
        ),
  );
}

/** The lobby's invitations: "阿明 邀请你玩 鞍山放羊" with 加入 (one tap to the seat). */
export function invitesBox(variants) {
  const box = h("div", { class: "invites", id: "invites" });
  let drawn = null;
  async function refresh() {
    let list = [];
    try {
      list = (await get("/api/players/me/invites")).invites || [];
    } catch {
      list = [];
    }
    // the same invitations are left as they are: a tap on 接受 is never lost to a redraw
    const seen = JSON.stringify(list);
    if (seen === drawn) return;
    drawn = seen;
    box.replaceChildren(
      ...list.map((inv) => {
        const v = variants.find((x) => x.code === inv.code);
        return h(
          "div",
          { class: "invite-card", dataset: { room: inv.room } },
          h("span", {}, t("mates.invites_you", { who: inv.from, game: v ? nameOf(v) : inv.code })),
          h(
            "button",
            {
              type: "button",
              class: "primary",
              dataset: { acceptInvite: inv.room },
              onclick: async () => {
                try {
                  await post(`/api/rooms/${inv.room}/join`, {});
                  location.hash = `#/room/${inv.room}`;
                } catch (exc) {
                  toast(t("err.generic", { m: exc.message }), "error");
                  refresh();
                }
              },
            },
            t("mates.accept"),
          ),
        );
      }),
    );
  }
  box.refresh = refresh;
  refresh();
  return box;
}

// 防作弊 at the table, before the first deal: the server's `nearby` messages say which
// seats share a network address (同IP提醒) and which sit closer than the operator's distance
// (GPS距离提醒); this draws them above the waiting table. The browser's location is asked
// for only after the player taps 允许 in the prompt drawn here (navigator.geolocation), and
// is sent once to the room's server, which keeps it until the first deal and tells the
// table the distance alone (docs/fairness.md, "Who sits near whom").

import { h } from "./dom.js";
import { STRINGS, t } from "./i18n.js";

const NEARBY_STRINGS = {
  zh: {
    "nearby.title": "防作弊提醒",
    "nearby.same_ip": "{a} 与 {b} 的IP相同",
    "nearby.close": "{a} 与 {b} 相距约 {m} 米",
    "nearby.both": "{a} 与 {b} IP相同，相距约 {m} 米",
    "nearby.ask": "开启位置，提醒同桌距离过近（{limit} 米内）的玩家？位置只用于这次距离提醒，不会保存。",
    "nearby.allow": "允许",
    "nearby.deny": "不用了",
    "nearby.on": "已开启位置提醒",
    "nearby.stop": "关闭",
    "nearby.failed": "没能取得位置（浏览器未允许）",
    "nearby.shared": "已开启定位：{who}",
  },
  en: {
    "nearby.title": "Fair play",
    "nearby.same_ip": "{a} and {b} share an IP address",
    "nearby.close": "{a} and {b} are about {m} m apart",
    "nearby.both": "{a} and {b} share an IP address and are about {m} m apart",
    "nearby.ask": "Share your location to flag players sitting within {limit} m of each other? It is used for this reminder only and never stored.",
    "nearby.allow": "Allow",
    "nearby.deny": "No thanks",
    "nearby.on": "Location reminder on",
    "nearby.stop": "Turn off",
    "nearby.failed": "Could not get your location (the browser did not allow it)",
    "nearby.shared": "Location on: {who}",
  },
};

for (const code of Object.keys(NEARBY_STRINGS)) Object.assign(STRINGS[code], NEARBY_STRINGS[code]);

const CONSENT = "paiju.location";
// "on": the player allowed it (sent at each table before its first deal); "off": declined

function consent() {
  try {
    return localStorage.getItem(CONSENT);
  } catch {
    return null;
  }
}

function setConsent(value) {
  try {
    localStorage.setItem(CONSENT, value);
  } catch {
    /* private mode: asked again next time */
  }
}

function position() {
  return new Promise((resolve, reject) => {
    if (!navigator.geolocation) {
      reject(new Error("no geolocation"));
      return;
    }
    navigator.geolocation.getCurrentPosition(
      (p) => resolve({ lat: p.coords.latitude, lon: p.coords.longitude }),
      reject,
      { maximumAge: 60_000, timeout: 10_000 },
    );
  });
}

/** The join's body: the player's location too, if they allowed it and the room refuses
 * seats close to another (a room option the server checks at the join). */
export async function joinBody(info) {
  if (consent() !== "on" || !info || !(info.options || {}).refuse_nearby) return {};
  try {
    return { location: await position() };
  } catch {
    return {};
  }
}

export class NearbyBar {
  constructor(room) {
    this.room = room;
    this.msg = null;
    this.sent = false;
    this.failed = false;
  }

  receive(msg) {
    this.msg = msg;
  }

  seated() {
    return this.room.seat !== null && this.room.seat !== undefined;
  }

  /** The welcome of a seated socket before the first deal: a location the player
   * allowed before is sent again (this room's server has none of it yet). */
  welcomed() {
    this.sent = false;
    if (consent() === "on" && this.seated()) this.share();
  }

  async share() {
    setConsent("on");
    try {
      const where = await position();
      this.failed = false;
      this.sent = true;
      this.room.send({ type: "location", lat: where.lat, lon: where.lon, id: ++this.room.msgId });
    } catch {
      this.failed = true;
    }
    this.room.render();
  }

  stop() {
    setConsent("off");
    if (this.sent) this.room.send({ type: "location", lat: null, lon: null, id: ++this.room.msgId });
    this.sent = false;
    this.room.render();
  }

  pairLine(p) {
    const a = this.room.seatName(p.seats[0]);
    const b = this.room.seatName(p.seats[1]);
    if (p.same_address && p.metres !== null && p.metres !== undefined) return t("nearby.both", { a, b, m: p.metres });
    if (p.same_address) return t("nearby.same_ip", { a, b });
    return t("nearby.close", { a, b, m: p.metres });
  }

  /** The reminders and the location prompt, before the first deal. */
  panel() {
    const info = this.room.info;
    if (!info || !["waiting", "playing"].includes(info.status)) return null;
    const pairs = (this.msg && this.msg.pairs) || [];
    const limit = this.msg ? this.msg.limit : (this.room.limits || {}).nearby_distance;
    const asked = consent();
    const gps = limit > 0 && typeof navigator !== "undefined" && navigator.geolocation;
    // asked only at a table where another person sits: with bots alone nobody is near
    const others = ((info.seat_players || []).filter((p, i) => p !== null && p !== undefined && i !== this.room.seat)).length;
    let prompt = null;
    if (this.seated() && gps && (others > 0 || this.sent)) {
      if (this.sent) {
        prompt = h(
          "p",
          { class: "nearby-on muted small", id: "nearby-on" },
          h("span", {}, `${t("nearby.on")} `),
          h("button", { class: "ghost small-button", id: "nearby-stop", onclick: () => this.stop() }, t("nearby.stop")),
        );
      } else if (asked !== "off" || this.failed) {
        prompt = h(
          "div",
          { class: "nearby-ask", id: "nearby-ask", role: "dialog" },
          h("p", {}, this.failed ? t("nearby.failed") : t("nearby.ask", { limit: Math.round(limit) })),
          h(
            "div",
            { class: "buttons" },
            h("button", { class: "primary", id: "nearby-allow", onclick: () => this.share() }, t("nearby.allow")),
            h("button", { class: "ghost", id: "nearby-deny", onclick: () => ((this.failed = false), this.stop()) }, t("nearby.deny")),
          ),
        );
      }
    }
    if (!pairs.length && !prompt) return null;
    return h(
      "section",
      { class: "nearby panel", id: "nearby" },
      pairs.length
        ? h(
            "div",
            { class: "nearby-alert", role: "alert" },
            h("strong", {}, `⚠ ${t("nearby.title")}`),
            h(
              "ul",
              { class: "nearby-pairs", id: "nearby-pairs" },
              pairs.map((p) => h("li", { dataset: { seats: p.seats.join("-"), same: String(p.same_address) } }, this.pairLine(p))),
            ),
          )
        : null,
      prompt,
    );
  }
}

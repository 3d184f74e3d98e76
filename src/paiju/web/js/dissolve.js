// 申请解散 at the table: a seated player's button to ask to end the room, the request shown
// to everyone (each seat's answer so far, the seconds left), 同意 / 拒绝 for a seat whose
// answer is awaited, and the result line. The server decides (docs/protocol.md, "申请解散");
// its `dissolve` messages are all this draws from.

import { h } from "./dom.js";
import { STRINGS, t } from "./i18n.js";

const DISSOLVE_STRINGS = {
  zh: {
    "dissolve.ask": "申请解散",
    "dissolve.ask_short": "解散",
    "dissolve.confirm": "向其他玩家申请解散房间？全员同意后，本局结束即解散并总结算。",
    "dissolve.asked": "{who} 申请解散房间",
    "dissolve.you_asked": "你申请了解散房间，等其他玩家表态",
    "dissolve.agree": "同意",
    "dissolve.refuse": "拒绝",
    "dissolve.secs": "{s} 秒内不表态视为同意",
    "dissolve.a.asked": "发起",
    "dissolve.a.agree": "同意",
    "dissolve.a.refuse": "拒绝",
    "dissolve.a.bot": "同意（机器人）",
    "dissolve.a.timeout": "超时视为同意",
    "dissolve.a.waiting": "等待表态…",
    "dissolve.now": "全员同意，房间已解散",
    "dissolve.after_hand": "全员同意：本局结束后解散房间",
    "dissolve.refused": "{who} 拒绝解散，牌局继续",
    "dissolve.summary": "经全员同意提前解散",
  },
  en: {
    "dissolve.ask": "Ask to end",
    "dissolve.ask_short": "End",
    "dissolve.confirm": "Ask the other players to end the room? If all agree, it ends after this hand with the match summary.",
    "dissolve.asked": "{who} asks to end the room",
    "dissolve.you_asked": "You asked to end the room; waiting for the others",
    "dissolve.agree": "Agree",
    "dissolve.refuse": "Refuse",
    "dissolve.secs": "{s} s left; no answer counts as agreement",
    "dissolve.a.asked": "asked",
    "dissolve.a.agree": "agrees",
    "dissolve.a.refuse": "refuses",
    "dissolve.a.bot": "agrees (bot)",
    "dissolve.a.timeout": "no answer: agrees",
    "dissolve.a.waiting": "deciding…",
    "dissolve.now": "All agreed: the room has ended",
    "dissolve.after_hand": "All agreed: the room ends after this hand",
    "dissolve.refused": "{who} refused: the game goes on",
    "dissolve.summary": "Ended early: all players agreed",
  },
};

for (const code of Object.keys(DISSOLVE_STRINGS)) Object.assign(STRINGS[code], DISSOLVE_STRINGS[code]);

if (typeof document !== "undefined" && !document.getElementById("dissolve-style")) {
  const link = document.createElement("link");
  link.id = "dissolve-style";
  link.rel = "stylesheet";
  link.href = new URL("./dissolve.css", import.meta.url).href;
  document.head.appendChild(link);
}

export class DissolveBar {
  constructor(room) {
    this.room = room;
    this.vote = null;
    this.at = 0;
  }

  receive(msg) {
    this.vote = msg;
    this.at = performance.now();
  }

  /** A new hand: a refused request's line has been read. */
  newHand() {
    if (this.vote && this.vote.result === "refused") this.vote = null;
  }

  seated() {
    return this.room.seat !== null && this.room.seat !== undefined;
  }

  /** 申请解散 in the table's head: seated players of a room in play, no request open. */
  button() {
    const info = this.room.info;
    const open = this.vote && this.vote.result !== "refused";
    if (!this.seated() || !info || info.status !== "playing" || open) return null;
    // a phone's one-line header has room for the short word only (解散 / End)
    return h(
      "button",
      { class: "ghost small-button", id: "dissolve-ask", title: t("dissolve.ask"), onclick: () => this.ask() },
      h("span", { class: "long" }, t("dissolve.ask")),
      h("span", { class: "short" }, t("dissolve.ask_short")),
    );
  }

  ask() {
    if (!window.confirm(t("dissolve.confirm"))) return;
    this.room.send({ type: "dissolve", id: ++this.room.msgId });
  }

  answer(agree) {
    this.room.send({ type: "dissolve_vote", agree, id: ++this.room.msgId });
  }

  left() {
    const vote = this.vote;
    if (!vote || vote.remaining === null || vote.remaining === undefined) return 0;
    return Math.max(0, vote.remaining - (performance.now() - this.at) / 1000);
  }

  /** The request and its answers (open), or the result line (decided). */
  panel() {
    const vote = this.vote;
    if (!vote) return null;
    const room = this.room;
    const who = room.seatName(vote.seat);
    if (vote.result) {
      const refuser = vote.answers.findIndex((a) => a === "refuse");
      const over = room.info && room.info.status === "finished";
      const ends = over ? "now" : vote.ends || "after_hand";
      const text = vote.result === "refused" ? t("dissolve.refused", { who: room.seatName(refuser) }) : t(`dissolve.${ends}`);
      return h("p", { class: `dissolve-result ${vote.result}`, id: "dissolve-result", dataset: { result: vote.result }, role: "status" }, text);
    }
    const mine = this.seated() && vote.answers[room.seat] === null;
    return h(
      "section",
      { class: "dissolve panel", id: "dissolve-vote", role: "alertdialog" },
      h("strong", {}, vote.seat === room.seat ? t("dissolve.you_asked") : t("dissolve.asked", { who })),
      h(
        "ul",
        { class: "dissolve-answers" },
        vote.answers.map((a, i) => h("li", { dataset: { seat: i, answer: a || "waiting" } }, `${room.seatName(i)}: ${t(`dissolve.a.${a || "waiting"}`)}`)),
      ),
      h("p", { class: "muted small dissolve-secs", id: "dissolve-secs" }, t("dissolve.secs", { s: Math.ceil(this.left()) })),
      mine
        ? h(
            "div",
            { class: "buttons" },
            h("button", { class: "primary", id: "dissolve-agree", onclick: () => this.answer(true) }, t("dissolve.agree")),
            h("button", { class: "ghost", id: "dissolve-refuse", onclick: () => this.answer(false) }, t("dissolve.refuse")),
          )
        : null,
    );
  }

  /** The countdown, every tick of the table. */
  tick(root) {
    const el = root.querySelector("#dissolve-secs");
    if (el && this.vote && !this.vote.result) el.textContent = t("dissolve.secs", { s: Math.ceil(this.left()) });
  }
}

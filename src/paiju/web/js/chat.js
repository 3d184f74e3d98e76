// 快捷语 and 表情 at the table: the seated player's 💬 menu of the game's stock phrases and
// emotes (pictures drawn by the app, emotes.js) (no free text unless the server allows it: welcome.limits.chat_text_max), sent as
// `chat` messages; what any seat sends shows as a bubble on that seat for a few seconds.
// ⚙ 屏蔽快捷语和表情 hides the others' bubbles; a free text's bubble has 举报. Spectators
// see the bubbles and send nothing.

import { h, toast } from "./dom.js";
import { lang, t } from "./i18n.js";
import { prefs } from "./prefs.js";
import { sound } from "./sound.js";
import { EMOTE_CODES, emoteEl } from "./emotes.js";
import "./helper-strings.js";

/** The server's phrase codes (paiju.server.chat.PHRASES): common, then the family's own. */
const COMMON = ["hurry", "nice", "again", "sorry", "thanks", "wait", "lucky", "bye"];
const OWN = {
  jiayibing: ["cant_beat", "partner", "go_out"],
  fangyang: ["cant_beat", "partner", "go_out"],
  danzi: ["cant_beat", "partner", "bomb"],
  sandaha: ["points", "trumps"],
  majiang: ["ready_hand", "close"],
  shisanzhang: ["arranged", "big_hand"],
  baozi: ["open_up", "big_hand"],
  jiajiabao: ["open_up", "big_hand"],
};
const SHOWN_MS = 4000;

export function phrasesFor(family) {
  return [...COMMON, ...(OWN[family] || [])];
}

export class ChatBar {
  constructor(room) {
    this.room = room;
    this.bubbles = {};
    this.el = null;
    this.key = "";
  }

  family() {
    return (this.room.variant && this.room.variant.family) || "";
  }

  send(body) {
    this.room.send({ type: "chat", ...body });
    if (this.el) this.el.open = false;
  }

  /** The 💬 menu (seated players only), one element kept across renders. */
  button() {
    const room = this.room;
    if (room.seat === null || room.seat === undefined) return null;
    const textMax = (room.limits && room.limits.chat_text_max) || 0;
    const key = `${this.family()}|${lang()}|${textMax}`;
    if (this.el && this.key === key) return this.el;
    this.key = key;
    const input = textMax
      ? h("input", { type: "text", id: "chat-text", maxlength: textMax, placeholder: t("chat.text"), "aria-label": t("chat.text") })
      : null;
    this.el = h(
      "details",
      { class: "chat-menu", id: "chat-menu" },
      h("summary", { class: "ghost small-button", id: "chat-open", title: t("chat.title"), "aria-label": t("chat.title") }, t("chat.open")),
      h(
        "div",
        { class: "chat-panel", id: "chat-panel" },
        h("div", { class: "chat-emotes" }, EMOTE_CODES.map((code) => h("button", { type: "button", class: "chat-emote", dataset: { emote: code }, title: t(`chat.e.${code}`), "aria-label": t(`chat.e.${code}`), onclick: () => this.send({ emote: code }) }, emoteEl(code, 26)))),
        h("div", { class: "chat-phrases" }, phrasesFor(this.family()).map((code) => h("button", { type: "button", class: "chat-phrase", dataset: { phrase: code }, onclick: () => this.send({ phrase: code }) }, t(`chat.p.${code}`)))),
        input
          ? h(
              "form",
              {
                class: "chat-free",
                onsubmit: (ev) => {
                  ev.preventDefault();
                  if (input.value.trim()) this.send({ text: input.value });
                  input.value = "";
                },
              },
              input,
              h("button", { type: "submit", class: "primary" }, t("chat.send")),
            )
          : null,
      ),
    );
    return this.el;
  }

  receive(msg) {
    const room = this.room;
    if (msg.seat !== room.seat && prefs().muteChat) return;
    const shown = { ...msg, until: performance.now() + SHOWN_MS };
    this.bubbles[msg.seat] = shown;
    if (msg.seat !== room.seat) sound("chat");
    room.render();
    setTimeout(() => {
      if (this.bubbles[msg.seat] === shown) {
        delete this.bubbles[msg.seat];
        room.render();
      }
    }, SHOWN_MS);
  }

  reported(msg) {
    toast(msg.muted ? t("chat.reported_muted") : t("chat.reported"));
  }

  /** The bubble on a seat: the phrase in the viewer's language, the emote, or the text. */
  bubble(seat) {
    const b = this.bubbles[seat];
    if (!b) return null;
    const words = b.phrase ? t(`chat.p.${b.phrase}`) : b.emote ? emoteEl(b.emote, 30) : b.text;
    const room = this.room;
    return h(
      "div",
      { class: `chat-bubble${b.emote ? " emote" : ""}`, dataset: { seat, phrase: b.phrase || "", emote: b.emote || "" }, role: "status", title: b.emote ? t(`chat.e.${b.emote}`) : null },
      words,
      b.text && seat !== room.seat && room.seat !== null
        ? h("button", { type: "button", class: "chat-report", onclick: () => room.send({ type: "report", seat }) }, t("chat.report"))
        : null,
    );
  }
}

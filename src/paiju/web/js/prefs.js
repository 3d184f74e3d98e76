// The player's table preferences, kept in localStorage (this browser remembers them):
// 要不起 (auto-pass), the sound switch, and muting others' phrases and emotes. A change is
// told to every listener (the room sends auto-pass to the server at once).

import { h } from "./dom.js";
import { t } from "./i18n.js";
import "./helper-strings.js";

const KEY = "paiju.prefs";
// 语音 (spoken play names) is off until the player turns it on: the voice is whatever the
// device has, and a table that starts talking on a first visit surprises (docs/web.md)
const DEFAULTS = { autoPass: true, sound: true, muteChat: false, voice: "off" };
const listeners = new Set();

export function prefs() {
  let saved = {};
  try {
    saved = JSON.parse(localStorage.getItem(KEY) || "{}") || {};
  } catch {
    saved = {};
  }
  return { ...DEFAULTS, ...saved };
}

export function setPref(name, value) {
  const now = { ...prefs(), [name]: value };
  localStorage.setItem(KEY, JSON.stringify(now));
  for (const fn of listeners) fn(now, name);
}

export function onPrefs(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

function toggle(name, label, id) {
  const input = h("input", {
    type: "checkbox",
    id,
    checked: !!prefs()[name],
    onchange: (ev) => setPref(name, ev.target.checked),
  });
  return h("label", { class: "pref" }, input, h("span", {}, label));
}

/** The room's ⚙ menu: 自动要不起, 声音, 屏蔽快捷语 (spectators have no auto-pass), and what
 * the room adds (`extra`: 语音). */
export function prefsMenu({ seated, extra = null }) {
  const box = h(
    "details",
    { class: "prefs", id: "prefs" },
    h("summary", { class: "ghost small-button", id: "prefs-open", "aria-label": t("prefs.title"), title: t("prefs.title") }, "⚙"),
    h(
      "div",
      { class: "prefs-panel" },
      seated ? toggle("autoPass", t("prefs.auto_pass"), "pref-auto-pass") : null,
      toggle("sound", t("prefs.sound"), "pref-sound"),
      toggle("muteChat", t("prefs.mute_chat"), "pref-mute-chat"),
      extra,
    ),
  );
  return box;
}

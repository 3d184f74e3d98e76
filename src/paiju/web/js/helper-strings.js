// The strings of the table helpers (auto-pass, 记牌器, the last trick, the lobby's finder,
// 战绩, quick phrases, sound, recent players, 理牌), Chinese and English, merged into
// js/i18n.js's dictionaries when this module loads: kept apart so that these keys never
// collide with other edits of i18n.js.

import { STRINGS } from "./i18n.js";

export const HELPER_STRINGS = {
  zh: {
    "prefs.title": "设置",
    "prefs.auto_pass": "要不起时自动不出",
    "prefs.sound": "声音",
    "prefs.mute_chat": "屏蔽快捷语和表情",
    "cl.auto_passing": "要不起，马上自动不出…",
  },
  en: {
    "prefs.title": "Settings",
    "prefs.auto_pass": "Pass by itself when I cannot beat",
    "prefs.sound": "Sound",
    "prefs.mute_chat": "Mute phrases and emotes",
    "cl.auto_passing": "Cannot beat: passing for you…",
  },
};

for (const code of Object.keys(HELPER_STRINGS)) Object.assign(STRINGS[code], HELPER_STRINGS[code]);

if (typeof document !== "undefined" && !document.getElementById("helpers-style")) {
  const link = document.createElement("link");
  link.id = "helpers-style";
  link.rel = "stylesheet";
  link.href = new URL("./helpers.css", import.meta.url).href;
  document.head.appendChild(link);
}

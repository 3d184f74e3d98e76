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
    "ct.title": "记牌器",
    "ct.total": "外面还有 {n} 张",
    "ct.cell": "{r}：外面还有 {n} 张",
    "ct.rj": "大王",
    "ct.bj": "小王",
    "ct.last": "上一轮",
    "ct.last_hide": "收起上一轮",
    "ct.passed": "不出",
    "find.search": "搜游戏：名字、拼音首字母或编号",
    "find.usual": "常玩（收藏和最近玩过）",
    "find.quick": "快速开始",
    "find.fav": "收藏",
    "find.unfav": "取消收藏",
    "find.more": "更多（还有 {n} 个）",
    "find.count": "{n} 个",
    "find.none": "没有找到“{q}”，换个词试试",
    "find.region.all": "全部地区",
    "find.region.anshan": "鞍山",
    "find.region.ningcheng": "宁城",
    "find.region.shaoxing": "绍兴",
    "find.region.dongbei": "东北",
  },
  en: {
    "prefs.title": "Settings",
    "prefs.auto_pass": "Pass by itself when I cannot beat",
    "prefs.sound": "Sound",
    "prefs.mute_chat": "Mute phrases and emotes",
    "cl.auto_passing": "Cannot beat: passing for you…",
    "ct.title": "Card counter",
    "ct.total": "{n} cards still out",
    "ct.cell": "{r}: {n} still out",
    "ct.rj": "RJ",
    "ct.bj": "BJ",
    "ct.last": "Last trick",
    "ct.last_hide": "Hide last trick",
    "ct.passed": "Pass",
    "find.search": "Find a game: name, pinyin initials or code",
    "find.usual": "Your games (favourites and recent)",
    "find.quick": "Quick start",
    "find.fav": "Add to favourites",
    "find.unfav": "Remove from favourites",
    "find.more": "More ({n} more)",
    "find.count": "{n}",
    "find.none": "Nothing found for “{q}”: try another word",
    "find.region.all": "All regions",
    "find.region.anshan": "Anshan",
    "find.region.ningcheng": "Ningcheng",
    "find.region.shaoxing": "Shaoxing",
    "find.region.dongbei": "Northeast",
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

// The strings of 复盘 (the AI review of a hand) and of the ratings (排行榜, a player's
// ratings, the seats' ratings in a waiting room), Chinese and English, merged into
// js/i18n.js's dictionaries when this module loads (as helper-strings.js does), with
// their styles (review.css).

import { STRINGS } from "./i18n.js";

export const REVIEW_STRINGS = {
  zh: {
    "rv.button": "复盘",
    "rv.title": "AI 复盘（{who}）",
    "rv.loading": "AI 正在复盘这一手，请稍候…",
    "rv.busy": "复盘排队已满，请 {s} 秒后再来",
    "rv.busy_now": "复盘排队已满，请稍后再来",
    "rv.in_play": "这一手还没打完，打完后才能复盘",
    "rv.step": "第 {n} 步：",
    "rv.you": "你",
    "rv.ai": "AI",
    "rv.prefers": "；AI 认为更好：",
    "rv.loss": "约 {x} 分",
    "rv.same": "，与 AI 一致",
    "rv.as_good": "，和 AI 的选择一样好",
    "rv.mistakes": "失误（损失最大的在前）",
    "rv.others": "其他决定",
    "rv.no_mistakes": "这一手没有明显失误。",
    "rv.none": "这一手你没有需要选择的决定。",
    "rv.summary": "与 AI 一致 {m}/{r}（{p}%）· 本手约损失 {x} 分",
    "rv.mark": "失误",
    "rv.seat_unknown": "看不出你坐哪个座位：请先在上面选一个座位的视角",
    "ra.title": "排行榜 · {game}",
    "ra.club_title": "排行榜 · {game} · {club}",
    "ra.all": "全部玩家",
    "ra.rank": "名次",
    "ra.player": "玩家",
    "ra.rating": "等级分",
    "ra.rooms": "局数",
    "ra.empty": "还没有人有这个游戏的等级分：打完一个房间后就会出现。",
    "ra.link": "排行榜",
    "ra.mine": "我的等级分",
    "ra.mine_empty": "还没有等级分：打完一个房间（和真人或机器人）后就会算出来。",
    "ra.rooms_n": "{n} 个房间",
    "ra.seat": "等级分 {r}",
    "ra.bot_seat": "机器人等级分 {r}",
    "ra.new": "新玩家",
    "ra.about": "等级分 = μ − 3σ（OpenSkill），打得越多越准；机器人的等级分是固定的。",
  },
  en: {
    "rv.button": "Review",
    "rv.title": "AI review ({who})",
    "rv.loading": "The AI is reviewing this hand, one moment…",
    "rv.busy": "The review queue is full, come back in {s} s",
    "rv.busy_now": "The review queue is full, come back a little later",
    "rv.in_play": "This hand is still in play: it can be reviewed once it is over",
    "rv.step": "Move {n}: ",
    "rv.you": "You",
    "rv.ai": "the AI",
    "rv.prefers": "; the AI prefers: ",
    "rv.loss": "about {x} points",
    "rv.same": ", as the AI would",
    "rv.as_good": ", as good as the AI's choice",
    "rv.mistakes": "Mistakes (the costliest first)",
    "rv.others": "Other decisions",
    "rv.no_mistakes": "No clear mistake in this hand.",
    "rv.none": "You had no choice to make in this hand.",
    "rv.summary": "Same as the AI {m}/{r} ({p}%) · about {x} points lost this hand",
    "rv.mark": "Mistake",
    "rv.seat_unknown": "Your seat is not known here: pick a seat's view above first",
    "ra.title": "Leaderboard · {game}",
    "ra.club_title": "Leaderboard · {game} · {club}",
    "ra.all": "All players",
    "ra.rank": "Rank",
    "ra.player": "Player",
    "ra.rating": "Rating",
    "ra.rooms": "Rooms",
    "ra.empty": "Nobody has a rating in this game yet: one appears after a finished room.",
    "ra.link": "Leaderboard",
    "ra.mine": "My ratings",
    "ra.mine_empty": "No rating yet: one is counted after a finished room (with people or bots).",
    "ra.rooms_n": "{n} rooms",
    "ra.rooms_n.one": "1 room",
    "ra.seat": "rating {r}",
    "ra.bot_seat": "bot rating {r}",
    "ra.new": "new player",
    "ra.about": "Rating = μ − 3σ (OpenSkill): it firms up with every room; bots have fixed ratings.",
  },
};

for (const code of Object.keys(REVIEW_STRINGS)) Object.assign(STRINGS[code], REVIEW_STRINGS[code]);

if (typeof document !== "undefined" && !document.getElementById("review-style")) {
  const link = document.createElement("link");
  link.id = "review-style";
  link.rel = "stylesheet";
  link.href = new URL("./review.css", import.meta.url).href;
  document.head.appendChild(link);
}

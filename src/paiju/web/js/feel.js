// The feel of a table: spoken play names (语音) and motion for what matters.
//
// Voice: the browser's own speech synthesis (speechSynthesis) in Mandarin, with the device's
// Chinese voice, female or male (⚙ 语音: 关 / 女声 / 男声, off until the player turns it on).
// Only a voice the device speaks by itself is used (localService), so nothing goes over the
// network; a device without a Chinese voice stays silent and the setting says so. Speaking
// never waits for anything: a new line cuts the one still being said.
//
// Motion: a short banner over the table for a bomb (炸弹) and 王炸, a 胡 with its fans, a
// 宣战, a 打枪 and a 全垒打; a 报单 / 报双 badge on a seat down to its last one or two cards
// in the climbing games; the latest discard marked in the 麻将 rivers. The banner lies on a
// layer that takes no taps, and under prefers-reduced-motion no banner is drawn at all
// (the badges and marks stand still). docs/web.md says why this way.

import { h, styleSheet } from "./dom.js";
import { STRINGS, addStrings, lang, t } from "./i18n.js";
import { prefs, setPref } from "./prefs.js";
import { isBombKind } from "./sound.js";
import { tileName } from "../tables/mjtiles.js";

const FEEL_STRINGS = {
  zh: {
    "feel.voice": "语音",
    "feel.voice.off": "关",
    "feel.voice.female": "女声",
    "feel.voice.male": "男声",
    "feel.voice.none": "本设备没有中文语音，开了也不会出声",
    "feel.bomb": "炸弹",
    "feel.rocket": "王炸",
    "feel.hu": "胡了",
    "feel.zimo": "自摸",
    "feel.declare": "宣战",
    "feel.gun": "打枪",
    "feel.homerun": "全垒打",
    "feel.by": "{who}",
    "feel.last.1": "报单",
    "feel.last.2": "报双",
    "feel.last.title.1": "{who} 只剩一张牌",
    "feel.last.title.2": "{who} 只剩两张牌",
  },
  en: {
    "feel.voice": "Voice",
    "feel.voice.off": "Off",
    "feel.voice.female": "Female",
    "feel.voice.male": "Male",
    "feel.voice.none": "This device has no Chinese voice: it stays silent",
    "feel.bomb": "Bomb!",
    "feel.rocket": "Joker bomb!",
    "feel.hu": "Hu! A win",
    "feel.zimo": "Self-drawn win!",
    "feel.declare": "War declared (宣战)",
    "feel.gun": "Shot! (打枪)",
    "feel.homerun": "Home run! (全垒打)",
    "feel.by": "{who}",
    "feel.last.1": "1 card",
    "feel.last.2": "2 cards",
    "feel.last.title.1": "{who} has one card left",
    "feel.last.title.2": "{who} has two cards left",
  },
};
addStrings(FEEL_STRINGS);
styleSheet("feel-style", new URL("./feel.css", import.meta.url).href);

/** The climbing families: whose finishing order scores, so a seat's last cards matter. */
const CLIMBING = new Set(["jiayibing", "fangyang", "danzi"]);
const JOKER_BOMBS = new Set(["two_jokers", "three_jokers", "four_jokers"]);
const RANK_ZH = { T: "十", J: "J", Q: "Q", K: "K", A: "A", 2: "二", 3: "三", 4: "四", 5: "五", 6: "六", 7: "七", 8: "八", 9: "九" };
const SUIT_ZH = { s: "黑桃", h: "红桃", c: "梅花", d: "方块" };
const PASS_WORDS = ["要不起", "不要", "过"];

export function reducedMotion() {
  return typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches;
}

function rankWord(card) {
  if (card === "RJ") return "大王";
  if (card === "BJ") return "小王";
  return RANK_ZH[card[0]] || card[0];
}

/** What a climbing play is called aloud: 对三, 三个K, 单龙, 炸弹, 王炸 … */
function playWord(e, options) {
  const cards = String(e.cards || "").split(/\s+/).filter(Boolean);
  const top = cards.length ? rankWord(cards[0]) : "";
  if (JOKER_BOMBS.has(e.kind)) return "王炸";
  if (isBombKind(e.kind, options)) return "炸弹";
  switch (e.kind) {
    case "single":
      return top;
    case "pair":
      return `对${top}`;
    case "triple":
      return `三个${top}`;
    case "quad":
      return `四个${top}`;
    case "dragon":
      return "单龙";
    case "double_dragon":
      return "双龙";
    default:
      return top;
  }
}

function meldWord(kind) {
  if (kind === "peng") return "碰";
  if (kind === "chi") return "吃";
  return String(kind || "").includes("gang") ? "杠" : "";
}

/** The Mandarin lines an update's events say aloud, in order (the voice says them in Mandarin
 * whatever the page's language, as the apps do). */
export function spokenLines(family, events, view) {
  const options = (view && view.options) || {};
  const out = [];
  for (const e of events || []) {
    switch (e.type) {
      case "played":
        if (!CLIMBING.has(family)) break;
        out.push(playWord(e, options));
        if (e.left === 1) out.push("我只剩一张牌了");
        else if (e.left === 2) out.push("我只剩两张牌了");
        break;
      case "passed":
        if (CLIMBING.has(family)) out.push(PASS_WORDS[(e.seat || 0) % PASS_WORDS.length]);
        break;
      case "declared":
        out.push("宣战");
        break;
      case "discarded":
        out.push(tileName(String(e.tile || ""), "zh"));
        break;
      case "melded": {
        const word = meldWord(e.kind);
        if (word) out.push(word);
        break;
      }
      case "won":
        out.push(e.how === "zimo" ? "自摸" : "胡了");
        break;
      case "bid_made":
        out.push(`${e.points}分`);
        break;
      case "bid_passed":
        out.push("不叫");
        break;
      case "trump_named":
        out.push(SUIT_ZH[e.trump] ? `${SUIT_ZH[e.trump]}做主` : "无主");
        break;
      default:
        break;
    }
  }
  return out;
}

/** When 十三张's 打枪 and 全垒打 come (s): once the rows have turned over, as the table's
 * pair by pair results do. */
const SHOWDOWN_DELAY = 2.2;

/** 十三张's 打枪 and 全垒打, read off the showdown an update with the reveal brings; each
 * is said aloud (`say`) when its banner comes. */
function showdownMoments(family, events, view) {
  if (family !== "shisanzhang" || !(events || []).some((e) => e.type === "revealed")) return [];
  const sd = view && view.showdown;
  if (!sd) return [];
  const out = [];
  for (const p of sd.pairs || []) if (p.gun !== null && p.gun !== undefined) out.push({ kind: "gun", seat: p.gun, delay: SHOWDOWN_DELAY, say: "打枪" });
  for (const s of sd.homeruns || []) out.push({ kind: "homerun", seat: s, delay: SHOWDOWN_DELAY, say: "全垒打" });
  return out;
}

/** The moments of an update that get a banner: [{kind, seat, fans?}]. */
export function momentsOf(family, events, view) {
  const options = (view && view.options) || {};
  const out = [];
  for (const e of events || []) {
    if (e.type === "played" && CLIMBING.has(family) && isBombKind(e.kind, options)) out.push({ kind: JOKER_BOMBS.has(e.kind) ? "rocket" : "bomb", seat: e.seat });
    else if (e.type === "won") out.push({ kind: e.how === "zimo" ? "zimo" : "hu", seat: e.seat, fans: e.fans || [] });
    else if (e.type === "declared") out.push({ kind: "declare", seat: e.seat });
  }
  return [...out, ...showdownMoments(family, events, view)];
}

// ------------------------------------------------------------------ voice

const FEMALE = /ting|mei-?jia|sin-?ji|huihui|yaoyao|xiaoxiao|xiaoyi|xiaochen|female|女/i;
const MALE = /li-?mu|kangkang|yunxi|yunyang|yunjian|\bmale|男/i;

function synth() {
  return typeof window !== "undefined" && window.speechSynthesis && typeof window.SpeechSynthesisUtterance === "function" ? window.speechSynthesis : null;
}

/** The device's own Mandarin voices (zh-CN, zh-TW, cmn; not Cantonese zh-HK / yue). */
export function mandarinVoices() {
  const s = synth();
  if (!s) return [];
  return s.getVoices().filter((v) => /^(zh|cmn)/i.test(v.lang) && !/HK|yue/i.test(v.lang) && v.localService !== false);
}

/** The voice for a choice ("female" / "male"): a voice of that sound where its name says so,
 * else the first Mandarin voice with its pitch moved (low for male, high for female). */
export function pickVoice(choice) {
  const voices = mandarinVoices();
  if (!voices.length) return null;
  const match = voices.find((v) => (choice === "male" ? MALE.test(v.name) && !FEMALE.test(v.name) : FEMALE.test(v.name)));
  if (match) return { voice: match, pitch: 1 };
  return { voice: voices[0], pitch: choice === "male" ? 0.7 : 1.3 };
}

/** Say the lines aloud with the chosen voice (nothing when 语音 is off or no voice exists). */
export function speak(lines) {
  const choice = prefs().voice;
  if (!lines.length || !choice || choice === "off") return;
  const s = synth();
  const picked = pickVoice(choice);
  const said = (window.__paijuSpoken = window.__paijuSpoken || []);
  if (!s || !picked) return;
  try {
    s.cancel(); // the newest play matters: what was still being said gives way
    for (const text of lines) {
      const u = new window.SpeechSynthesisUtterance(text);
      u.voice = picked.voice;
      u.lang = picked.voice.lang;
      u.pitch = picked.pitch;
      u.rate = 1.15;
      s.speak(u);
      said.push({ text, voice: picked.voice.name, pitch: picked.pitch });
    }
  } catch {
    /* a voice that fails is silence: the table shows everything anyway */
  }
}

/** ⚙ 语音: 关 / 女声 / 男声, with a note where the device has no Chinese voice. */
export function voiceSetting() {
  const select = h(
    "select",
    { id: "pref-voice", "aria-label": t("feel.voice"), onchange: (ev) => setPref("voice", ev.target.value) },
    ["off", "female", "male"].map((v) => h("option", { value: v, selected: (prefs().voice || "off") === v }, t(`feel.voice.${v}`))),
  );
  const note = h("small", { class: "feel-voice-none", id: "pref-voice-none", hidden: true }, t("feel.voice.none"));
  const check = () => {
    note.hidden = mandarinVoices().length > 0;
  };
  const s = synth();
  if (s && typeof s.addEventListener === "function") s.addEventListener("voiceschanged", check);
  check();
  return h("label", { class: "pref feel-voice" }, h("span", {}, t("feel.voice")), select, note);
}

// ------------------------------------------------------------------ motion

function layer() {
  let el = document.getElementById("feel-layer");
  if (!el) {
    el = h("div", { id: "feel-layer", "aria-hidden": "true" });
    document.body.appendChild(el);
  }
  return el;
}

/** A banner per moment over the table; none under reduced motion. `who(seat)` names a seat. */
export function showMoments(moments, who = (s) => String(s)) {
  if (!moments.length) return;
  const record = (window.__paijuMoments = window.__paijuMoments || []);
  for (const m of moments) record.push({ kind: m.kind, still: reducedMotion() });
  if (reducedMotion()) return;
  const box = layer();
  box.replaceChildren(); // a new moment replaces the one still fading
  moments.forEach((m, i) => {
    const fans = (m.fans || []).map((f) => fanName(f));
    const el = h(
      "div",
      { class: `feel-moment feel-${m.kind}`, dataset: { kind: m.kind, seat: m.seat ?? "" }, style: `animation-delay:${(m.delay || 0) + i * 0.5}s` },
      h("strong", {}, t(`feel.${m.kind}`)),
      m.seat !== undefined && m.seat !== null ? h("small", { class: "feel-who" }, t("feel.by", { who: who(m.seat) })) : null,
      fans.length ? h("ul", { class: "feel-fans" }, fans.map((f) => h("li", {}, f))) : null,
    );
    el.addEventListener("animationend", () => el.remove());
    setTimeout(() => el.remove(), 4000 + ((m.delay || 0) + i * 0.5) * 1000); // an animation that never ends (a hidden tab)
    box.appendChild(el);
  });
}

function fanName(name) {
  const key = `mj.fan.${name}`;
  return key in STRINGS[lang()] ? STRINGS[lang()][key] : String(name);
}

/** An update's voice and motion, as a room and the tutorial show them: its lines said at
 * once, its banners drawn, and a moment that comes later (十三张's 打枪) said when its
 * banner comes, whatever the motion setting. */
export function feelUpdate(family, events, view, who) {
  speak(spokenLines(family, events, view));
  const moments = momentsOf(family, events, view);
  showMoments(moments, who);
  for (const m of moments) if (m.say) setTimeout(() => speak([m.say]), (m.delay || 0) * 1000);
}

/** The moments a deal starts with: 打弹子's first deal declares by itself (the first 大王's
 * holder, N41), with no event for it; shown while no card has been played yet. */
export function dealMoments(family, view) {
  if (family !== "danzi" || !view || !view.automatic_declaration || !Number.isInteger(view.declarer)) return [];
  const sizes = view.hand_sizes || [];
  const untouched = sizes.length && sizes.every((n) => n === sizes[0]) && !(view.trick || []).length;
  return untouched ? [{ kind: "declare", seat: view.declarer, say: "宣战" }] : [];
}

/** A new deal's voice and motion (dealMoments). */
export function feelDeal(family, view, who) {
  const moments = dealMoments(family, view);
  showMoments(moments, who);
  speak(moments.map((m) => m.say));
}

/** Clear the banners (the room closes). */
export function clearMoments() {
  const el = document.getElementById("feel-layer");
  if (el) el.remove();
}

/** 报单 / 报双 on a climbing seat down to its last one or two cards (not once it is out). */
export function lastCardsBadge(family, view, seat, who = "") {
  if (!CLIMBING.has(family) || !view || view.phase === "over") return null;
  const size = (view.hand_sizes || [])[seat];
  if (size !== 1 && size !== 2) return null;
  if ((view.finished || []).includes(seat)) return null;
  return h("span", { class: `badge feel-last n${size}`, dataset: { last: size }, title: t(`feel.last.title.${size}`, { who }) }, t(`feel.last.${size}`));
}

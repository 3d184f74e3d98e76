// Table sounds synthesised with WebAudio (no sound files): a card played, a bomb, 胡, one's
// turn, and the last seconds of one's clock. One switch (⚙ 声音, remembered); a sound never
// waits for anything and never blocks input (an audio device missing is silence).

import { prefs } from "./prefs.js";

let audio = null;

const VOICES = {
  play: [[520, 0.05, "triangle", 0.06]],
  bomb: [[110, 0.25, "sawtooth", 0.12], [70, 0.35, "square", 0.08]],
  hu: [[660, 0.12, "sine", 0.1], [880, 0.12, "sine", 0.1], [1320, 0.25, "sine", 0.1]],
  turn: [[740, 0.08, "sine", 0.07], [988, 0.1, "sine", 0.07]],
  tick: [[880, 0.15, "sine", 0.08]],
  chat: [[1200, 0.05, "sine", 0.04]],
};

/** Play one of the table's sounds (notes one after another), unless sound is off. */
export function sound(kind) {
  if (kind === "tick") window.__paijuBeeps = (window.__paijuBeeps || 0) + 1;
  // what was played (and what the switch kept quiet), for a look from the console or a test
  const tally = prefs().sound ? "__paijuSounds" : "__paijuMuted";
  window[tally] = window[tally] || {};
  window[tally][kind] = (window[tally][kind] || 0) + 1;
  if (!prefs().sound) return;
  try {
    audio = audio || new (window.AudioContext || window.webkitAudioContext)();
    let at = audio.currentTime;
    for (const [freq, length, type, volume] of VOICES[kind] || []) {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.type = type;
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(volume, at);
      gain.gain.exponentialRampToValueAtTime(0.0001, at + length);
      osc.connect(gain).connect(audio.destination);
      osc.start(at);
      osc.stop(at + length);
      at += length * 0.8;
    }
  } catch {
    /* no audio device: the table shows everything anyway */
  }
}

/** The plain kinds of the climbing games (the engine's kind keys): every other kind a
 * play names is a bomb (打弹子's 砟子, 真7, 假8 …, 双王 …), and 四同张 is one where the room
 * plays it as beating every other kind (``quads_beat_all``). */
const PLAIN_KINDS = new Set(["", "single", "pair", "triple", "dragon", "double_dragon"]);

/** Whether a play (an event's ``kind``, the engine's key) is a bomb at this table. */
export function isBombKind(kind, options) {
  const key = String(kind || "");
  if (key === "quad") return !!(options || {}).quads_beat_all;
  return !PLAIN_KINDS.has(key);
}

/** The sound of an update's events: 胡 first, then a bomb, then a play. */
export function soundOf(events, options) {
  const types = (events || []).map((e) => e.type);
  if (types.includes("win") || types.includes("won")) return "hu";
  const plays = (events || []).filter((e) => e.type === "played" || e.type === "discarded");
  if (plays.some((e) => e.type === "played" && isBombKind(e.kind, options))) return "bomb";
  return plays.length ? "play" : null;
}

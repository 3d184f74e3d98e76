// "Why" lines of a hand's result for the tables that are not climbing games (十三张, 麻将,
// 宝子/佳佳宝, 三打哈): a headline saying who won and why, then the lines of how the points
// were counted, all read from the engine's result JSON in the view. Strings: why-strings.js.

import { h } from "../js/dom.js";
import { STRINGS } from "../js/i18n.js";
import { WHY_STRINGS } from "./why-strings.js";

Object.assign(STRINGS.zh, WHY_STRINGS.zh);
Object.assign(STRINGS.en, WHY_STRINGS.en);

const STYLE = `
.result-why { margin: 6px 0; padding: 6px 8px; border-radius: 6px; background: rgba(0,0,0,.04);
  max-width: 100%; box-sizing: border-box; overflow-wrap: anywhere; }
.result-why .why-head { font-weight: 600; margin: 0 0 4px; }
.result-why ul { margin: 0; padding-left: 18px; }
.result-why li { font-size: 13px; line-height: 1.4; }
`;

function ensureStyle() {
  if (document.getElementById("why-style")) return;
  const el = document.createElement("style");
  el.id = "why-style";
  el.textContent = STYLE;
  document.head.append(el);
}

/** The box: ``head`` (one sentence: who won and why) and ``lines`` (how it was counted). */
export function whyBox(head, lines) {
  ensureStyle();
  return h(
    "div",
    { class: "result-why", id: "result-why" },
    h("p", { class: "why-head", id: "why-head" }, head),
    lines.length ? h("ul", { class: "why-lines", id: "why-lines" }, lines.filter(Boolean).map((x) => h("li", {}, x))) : null,
  );
}

/** The room's stake (积分 per point) as the settlement shows it: 积分 / score of a seat. */
export function stakeOf(handOver) {
  if (!handOver || !handOver.scores || !handOver.deltas) return null;
  const i = handOver.scores.findIndex((x) => x !== 0);
  if (i < 0) return null;
  return handOver.deltas[i] / handOver.scores[i];
}

/** Names joined the language's way. */
export function joined(names, zh) {
  return names.join(zh ? "、" : ", ");
}

// 表情 drawn by the app: each emote is a small inline SVG (a face, a thumb, a flower, a cup
// of tea), so a machine without an emoji font shows the same pictures as a phone does. The
// codes are the server's (paiju.server.chat.EMOTES); an unknown code shows as its code.

import { h } from "./dom.js";

const FACE = (mouth, extra = "", eyes = '<circle cx="12" cy="14" r="2"/><circle cx="24" cy="14" r="2"/>') =>
  `<circle cx="18" cy="18" r="15" fill="#ffcc4d" stroke="#d99e1e" stroke-width="1.5"/>` +
  `<g fill="#5b3a12" stroke="#5b3a12" stroke-width="0">${eyes}</g>${mouth}${extra}`;

/** Each emote's picture: the inside of a 36 x 36 SVG. */
const PICTURES = {
  smile: FACE('<path d="M10 21 Q18 29 26 21" fill="none" stroke="#5b3a12" stroke-width="2.2" stroke-linecap="round"/>'),
  laugh: FACE(
    '<path d="M9 20 H27 Q26 30 18 30 Q10 30 9 20 Z" fill="#5b3a12"/><path d="M12 26 Q18 29 24 26" fill="#e0605a"/>',
    '<path d="M5 12 Q4 18 7 20" fill="none" stroke="#4aa3df" stroke-width="2"/><path d="M31 12 Q32 18 29 20" fill="none" stroke="#4aa3df" stroke-width="2"/>',
    '<path d="M9 15 Q12 11 15 15" fill="none" stroke="#5b3a12" stroke-width="2"/><path d="M21 15 Q24 11 27 15" fill="none" stroke="#5b3a12" stroke-width="2"/>',
  ),
  cry: FACE(
    '<path d="M12 27 Q18 21 24 27" fill="none" stroke="#5b3a12" stroke-width="2.2" stroke-linecap="round"/>',
    '<path d="M11 17 Q9 23 11 25 Q13 23 11 17 Z" fill="#4aa3df"/><path d="M25 17 Q23 23 25 25 Q27 23 25 17 Z" fill="#4aa3df"/>',
  ),
  angry: `<circle cx="18" cy="18" r="15" fill="#f26b4f" stroke="#b8452f" stroke-width="1.5"/>` +
    '<path d="M8 10 L15 13 M28 10 L21 13" stroke="#4a1a10" stroke-width="2.2" stroke-linecap="round"/>' +
    '<circle cx="12" cy="16" r="2" fill="#4a1a10"/><circle cx="24" cy="16" r="2" fill="#4a1a10"/>' +
    '<path d="M12 27 Q18 22 24 27" fill="none" stroke="#4a1a10" stroke-width="2.2" stroke-linecap="round"/>',
  thumbs:
    '<path d="M6 16 H12 V31 H6 Z" fill="#d99e1e"/>' +
    '<path d="M12 16 L17 5 Q21 4 21 9 L20 14 H29 Q32 14 31 18 L29 28 Q28 31 25 31 H12 Z" fill="#ffcc4d" stroke="#d99e1e" stroke-width="1.5" stroke-linejoin="round"/>',
  flower:
    '<path d="M18 20 Q17 28 19 34" fill="none" stroke="#3a8f3a" stroke-width="2.2"/>' +
    '<path d="M18 28 Q11 24 9 27 Q13 31 18 29" fill="#4caf50"/>' +
    '<circle cx="18" cy="12" r="8" fill="#d81b3c"/>' +
    '<path d="M13 11 Q18 5 23 11 Q18 16 13 11 Z" fill="#a3122b"/><path d="M15 13 Q18 9 21 13" fill="none" stroke="#f06080" stroke-width="1.5"/>',
  tea:
    '<path d="M6 15 H26 V22 Q26 30 16 30 Q6 30 6 22 Z" fill="#f4f1e8" stroke="#7b6a4e" stroke-width="1.5"/>' +
    '<path d="M26 17 Q32 17 31 21 Q30 25 25 24" fill="none" stroke="#7b6a4e" stroke-width="1.8"/>' +
    '<rect x="8" y="16" width="16" height="4" fill="#8fb05a"/>' +
    '<path d="M4 31 H28" stroke="#7b6a4e" stroke-width="2" stroke-linecap="round"/>' +
    '<path d="M12 12 Q10 9 12 6 M17 12 Q15 9 17 5 M22 12 Q20 9 22 6" fill="none" stroke="#9aa" stroke-width="1.4"/>',
  wow: FACE(
    '<ellipse cx="18" cy="25" rx="4" ry="5" fill="#5b3a12"/>',
    "",
    '<circle cx="12" cy="14" r="3" fill="#fff" stroke="#5b3a12" stroke-width="1.2"/><circle cx="24" cy="14" r="3" fill="#fff" stroke="#5b3a12" stroke-width="1.2"/><circle cx="12" cy="14" r="1.4"/><circle cx="24" cy="14" r="1.4"/>',
  ),
};

/** The emote codes the menu offers, in its order. */
export const EMOTE_CODES = Object.keys(PICTURES);

/** An emote as an inline SVG picture (`size` px square), or its code where it has none. */
export function emoteEl(code, size = 28) {
  const inside = PICTURES[code];
  if (!inside) return h("span", { class: "emote-code" }, String(code));
  return h("span", {
    class: "emote-pic",
    dataset: { emote: code },
    "aria-hidden": "true",
    html: `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 36 36" width="${size}" height="${size}" focusable="false">${inside}</svg>`,
  });
}
